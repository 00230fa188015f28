/*
 * Output on a NETCONF SSH channel, bounded by its window (nc_chan.h).
 */
#include <stdint.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "nc_chan.h"

int
nc_chan_put(ssh_channel chan, const void *p, size_t len, size_t *done)
{
	uint32_t	win;
	int		rc;

	*done = 0;
	if (chan == NULL || (win = ssh_channel_window_size(chan)) == 0)
		return 0;
	if (len > win)
		len = win;
	if ((rc = ssh_channel_write(chan, p, (uint32_t)len)) < 0)
		return -1;
	*done = (size_t)rc;
	return 0;
}

int
nc_chan_flush(ssh_channel chan, struct evbuffer *q)
{
	struct evbuffer_iovec	v;
	size_t			done;

	while (evbuffer_get_length(q) > 0) {
		if (evbuffer_peek(q, -1, NULL, &v, 1) < 1)
			break;
		if (nc_chan_put(chan, v.iov_base, v.iov_len, &done) == -1) {
			evbuffer_drain(q, evbuffer_get_length(q));
			return -1;
		}
		evbuffer_drain(q, done);
		if (done < v.iov_len)
			break;
	}
	return 0;
}

void
nc_chan_free_io(struct event *rev, struct event *wev, ssh_event sev,
    ssh_session ssh, struct evbuffer *outq)
{
	if (rev != NULL)
		event_free(rev);
	if (wev != NULL)
		event_free(wev);
	if (sev != NULL) {
		ssh_event_remove_session(sev, ssh);
		ssh_event_free(sev);
	}
	if (ssh != NULL) {
		ssh_disconnect(ssh);
		ssh_free(ssh);
	}
	if (outq != NULL)
		evbuffer_free(outq);
}

void
nc_chan_callbacks(struct ssh_channel_callbacks_struct *cb, void *arg,
    ssh_channel_data_callback data, ssh_channel_eof_callback gone,
    ssh_channel_write_wontblock_callback wontblock)
{
	memset(cb, 0, sizeof(*cb));
	cb->userdata = arg;
	cb->channel_data_function = data;
	cb->channel_eof_function = gone;
	cb->channel_close_function = gone;
	cb->channel_write_wontblock_function = wontblock;
	ssh_callbacks_init(cb);
}
