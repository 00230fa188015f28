/*
 * What the peers (bgp_peer.c) and the controller's speaker (bgp_ctl.c)
 * share about a connection: the scratch buffer messages are built in,
 * the framing of what comes in, the hold time option, and last words on
 * a connection that closes right after.
 */
#ifndef SBSIM_BGP_IO_H
#define SBSIM_BGP_IO_H

#include <stddef.h>
#include <stdint.h>

struct bgp_err;
struct bufferevent;
struct wbuf;

/* The one buffer (64 KiB) messages are built in, emptied; each is sent
 * before the next is built. */
struct wbuf *bgp_scratch(void);
/* A hold time option into a uint16_t: 0 or 3..65535 (section 4.2); an
 * OPT_P parser. */
int	bgp_hold_opt(const char *name, const char *arg, void *field,
	    char *err, size_t errlen);
/*
 * What is queued in the bufferevent, then one more message, written now.
 * (A bufferevent's output can only be drained by the bufferevent, so it
 * is copied out.)  0 when all went to the kernel, -1 when the socket
 * would not take it (then msg is not sent either: it would land inside a
 * message).
 */
int	bgp_write_last(struct bufferevent *, const void *msg, size_t len);

/*
 * A connection's side of what comes in, for both the peer and the
 * speaker: what it does to close with a NOTIFICATION (section 6) and
 * with one whole message.  Each embeds a struct bgp_conn and reads
 * through bgp_conn_read().
 */
struct bgp_conn_ops {
	void	(*notify_close)(void *owner, uint8_t code, uint8_t subcode,
		    const void *data, size_t len, const char *why);
	/* The message (header included); -1 stops reading: the session
	 * is closing or gone. */
	int	(*message)(void *owner, const uint8_t *msg, size_t len);
};

struct bgp_conn {
	const struct bgp_conn_ops *ops;
	void		*owner;		/* what the ops get */
};

/* The NOTIFICATION an error from the codec calls for, then closing. */
void	bgp_conn_notify_err(const struct bgp_conn *, const struct bgp_err *);
/* An OPEN decoded into o, or -1 once the NOTIFICATION its error calls
 * for is sent (section 6.2). */
struct bgp_open;
int	bgp_conn_open_decode(const struct bgp_conn *, const uint8_t *msg,
	    size_t len, struct bgp_open *);
/* What is queued on bev, framed (a bad header gets its NOTIFICATION,
 * section 6.1); as pool_read(). */
int	bgp_conn_read(struct bgp_conn *, struct bufferevent *);

#endif
