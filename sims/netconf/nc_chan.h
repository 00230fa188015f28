/*
 * Output on a NETCONF SSH channel (RFC 6242 section 3), shared by the
 * device's transport (nc_ssh.c) and the controller's client (nc_cli.c):
 * libssh's non-blocking channel takes what its window allows, the rest
 * waits in the caller's queue until the peer opens the window again.
 */
#ifndef SBSIM_NC_CHAN_H
#define SBSIM_NC_CHAN_H

#include <stddef.h>

#include <libssh/callbacks.h>
#include <libssh/libssh.h>

struct event;
struct engine_soon;
struct evbuffer;

/*
 * A channel's input, handed on in order and never inside a write.
 * libssh runs its packet loop inside ssh_channel_write() (the flush at
 * its end reads the socket too), so a channel's data callback can come
 * while one of our messages is half written (its chunk header out, its
 * body not yet) or while an earlier message is being handled.  Fed
 * there, a reply went out in the middle of another message and the
 * framer took bytes out of order: the peer saw "bad chunk framing"
 * (RFC 6242 section 4.2).  So data that comes while busy, and all data
 * after it, waits in q and is fed from the event loop, then after() runs.
 *
 * feed() returns the bytes it took: fewer once its reader paused (its
 * output too full, nc_sim.h's --output-mark); the rest waits, in order,
 * until nc_chan_in_resume().
 */
typedef size_t	(*nc_chan_feed_fn)(void *arg, const void *, size_t);

struct nc_chan_in {
	nc_chan_feed_fn	 feed;
	void		(*after)(void *arg);
	void		*arg;
	struct evbuffer	*q;		/* waiting; NULL until first needed */
	struct evbuffer	*work;		/* what the loop is feeding, first */
	struct engine_soon *ev;		/* feeds q from the loop */
	unsigned	 busy;		/* inside feed() or a channel write */
};

void	 nc_chan_in_init(struct nc_chan_in *, nc_chan_feed_fn,
	    void (*after)(void *), void *arg);
/* From the channel's data callback: fed now, or queued behind. */
void	 nc_chan_in_data(struct nc_chan_in *, const void *, size_t);
void	 nc_chan_in_free(struct nc_chan_in *);
/* Bytes wait here (deferred, or left by a paused reader). */
int	 nc_chan_in_waiting(const struct nc_chan_in *);
/* The reader reads on: what waits is fed from the loop, then after()
 * runs (even when nothing waited). */
void	 nc_chan_in_resume(struct nc_chan_in *);

/* Write what the window takes into *done; 0, or -1 when the channel
 * failed.  A NULL channel (not open yet) takes nothing.  Input that
 * comes meanwhile waits in `in`. */
int	 nc_chan_put(ssh_channel, struct nc_chan_in *, const void *, size_t,
	    size_t *done);
/* Write the queue's head while the window takes it; -1 (the queue
 * emptied) when the channel failed. */
int	 nc_chan_flush(ssh_channel, struct nc_chan_in *, struct evbuffer *);
/*
 * A NETCONF channel's callbacks on arg: its data, its end (EOF or close,
 * one function) and its window opening.  The caller may add more, then
 * registers them (ssh_set_channel_callbacks).
 */
void	 nc_chan_callbacks(struct ssh_channel_callbacks_struct *, void *arg,
	    ssh_channel_data_callback, ssh_channel_eof_callback gone,
	    ssh_channel_write_wontblock_callback);
/*
 * A connection's end: its libevent events, its libssh event, the session
 * (disconnected: that closes the descriptor and frees the channel) and
 * the output queue, each when there is one.
 */
void	 nc_chan_free_io(struct event *rev, struct event *wev, ssh_event,
	    ssh_session, struct evbuffer *outq);

#endif
