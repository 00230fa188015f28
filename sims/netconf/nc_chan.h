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
struct evbuffer;

/* Write what the window takes into *done; 0, or -1 when the channel
 * failed.  A NULL channel (not open yet) takes nothing. */
int	 nc_chan_put(ssh_channel, const void *, size_t, size_t *done);
/* Write the queue's head while the window takes it; -1 (the queue
 * emptied) when the channel failed. */
int	 nc_chan_flush(ssh_channel, struct evbuffer *);
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
