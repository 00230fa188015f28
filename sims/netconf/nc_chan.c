/*
 * Output on a NETCONF SSH channel, bounded by its window (nc_chan.h).
 */
#include <stdint.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "engine.h"
#include "log.h"
#include "nc_chan.h"

/* ---- ordered input ---- */

void
nc_chan_in_init(struct nc_chan_in *in, nc_chan_feed_fn feed,
    void (*after)(void *), void *arg)
{
	memset(in, 0, sizeof(*in));
	in->feed = feed;
	in->after = after;
	in->arg = arg;
}

/* From the loop: what waited, in order, then after(); a reader that
 * pauses leaves the rest in work, ahead of q. */
static void
nc_chan_in_run(void *arg)
{
	struct nc_chan_in	*in = arg;
	struct evbuffer_iovec	 v;
	size_t			 n;

	if (in->busy > 0) {	/* not from the loop: later */
		engine_soon(in->ev);
		return;
	}
	in->busy++;
	for (;;) {
		/* What comes meanwhile goes to q, behind. */
		evbuffer_add_buffer(in->work, in->q);
		if (evbuffer_peek(in->work, -1, NULL, &v, 1) < 1 ||
		    v.iov_len == 0)
			break;
		n = in->feed(in->arg, v.iov_base, v.iov_len);
		evbuffer_drain(in->work, n);
		if (n < v.iov_len)
			break;
	}
	in->busy--;
	if (in->after != NULL)
		in->after(in->arg);
}

static void
nc_chan_in_alloc(struct nc_chan_in *in)
{
	if (in->q != NULL)
		return;
	if ((in->q = evbuffer_new()) == NULL ||
	    (in->work = evbuffer_new()) == NULL)
		fatalx("netconf: out of memory");
	in->ev = engine_soon_new(nc_chan_in_run, in);
}

/* Kept in order; fed from the loop when run is set. */
static void
nc_chan_in_keep(struct nc_chan_in *in, const void *p, size_t len, int run)
{
	nc_chan_in_alloc(in);
	if (len > 0 && evbuffer_add(in->q, p, len) == -1)
		fatalx("netconf: out of memory");
	if (run)
		engine_soon(in->ev);
}

int
nc_chan_in_waiting(const struct nc_chan_in *in)
{
	return in->q != NULL && (evbuffer_get_length(in->q) > 0 ||
	    evbuffer_get_length(in->work) > 0);
}

void
nc_chan_in_data(struct nc_chan_in *in, const void *p, size_t len)
{
	size_t	n;

	if (in->busy > 0 || nc_chan_in_waiting(in)) {
		nc_chan_in_keep(in, p, len, 1);
		return;
	}
	in->busy++;
	n = in->feed(in->arg, p, len);
	in->busy--;
	if (n < len)	/* paused: waits for nc_chan_in_resume */
		nc_chan_in_keep(in, (const char *)p + n, len - n, 0);
}

void
nc_chan_in_resume(struct nc_chan_in *in)
{
	nc_chan_in_alloc(in);
	engine_soon(in->ev);
}

void
nc_chan_in_free(struct nc_chan_in *in)
{
	engine_soon_free(&in->ev);
	if (in->q != NULL)
		evbuffer_free(in->q);
	if (in->work != NULL)
		evbuffer_free(in->work);
	in->q = in->work = NULL;
}

/* ---- output ---- */

int
nc_chan_put(ssh_channel chan, struct nc_chan_in *in, const void *p,
    size_t len, size_t *done)
{
	uint32_t	win;
	int		rc;

	*done = 0;
	if (chan == NULL || (win = ssh_channel_window_size(chan)) == 0)
		return 0;
	if (len > win)
		len = win;
	in->busy++;		/* what comes meanwhile waits (defer) */
	rc = ssh_channel_write(chan, p, (uint32_t)len);
	in->busy--;
	if (rc < 0)
		return -1;
	*done = (size_t)rc;
	return 0;
}

int
nc_chan_flush(ssh_channel chan, struct nc_chan_in *in, struct evbuffer *q)
{
	struct evbuffer_iovec	v;
	size_t			done;

	while (evbuffer_get_length(q) > 0) {
		if (evbuffer_peek(q, -1, NULL, &v, 1) < 1)
			break;
		if (nc_chan_put(chan, in, v.iov_base, v.iov_len, &done) ==
		    -1) {
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
