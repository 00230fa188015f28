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

/* A message's length from its BGP_HEADER_LEN bytes of header, or -1
 * with the error to send (section 6.1). */
long	bgp_header_length(const uint8_t *hdr, struct bgp_err *);
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

#endif
