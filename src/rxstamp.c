/*
 * Timestamped reads (rxstamp.h).  One recvmsg per readable event, as a
 * bufferevent would read; the receive time is that of the last segment
 * the read took (Linux tcp_recvmsg), in CLOCK_REALTIME, brought over to
 * clock_ns()'s monotonic clock.
 */
#include <sys/socket.h>
#include <sys/uio.h>

#include <errno.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "engine.h"
#include "log.h"
#include "metrics.h"
#include "rxstamp.h"

#define RXSTAMP_READ	65536

static void
rxstamp_cmsg(struct rxstamp *rs, struct msghdr *msg)
{
	struct cmsghdr	*c;
	struct timespec	 ts;

	for (c = CMSG_FIRSTHDR(msg); c != NULL; c = CMSG_NXTHDR(msg, c))
		if (c->cmsg_level == SOL_SOCKET &&
		    c->cmsg_type == SCM_TIMESTAMPNS &&
		    c->cmsg_len >= CMSG_LEN(sizeof(ts))) {
			memcpy(&ts, CMSG_DATA(c), sizeof(ts));
			rs->last_ns = clock_ns_of_real(&ts);
			return;
		}
	rs->last_ns = clock_ns();	/* no timestamp: now */
}

static void
rxstamp_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rxstamp	*rs = arg;
	static uint8_t	 buf[RXSTAMP_READ];
	union {
		struct cmsghdr	hdr;
		uint8_t		space[CMSG_SPACE(sizeof(struct timespec))];
	}		 cbuf;
	struct iovec	 iov = { buf, sizeof(buf) };
	struct msghdr	 msg;
	ssize_t		 n;

	(void)what;
	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cbuf.space;
	msg.msg_controllen = sizeof(cbuf.space);
	if ((n = recvmsg(fd, &msg, 0)) > 0) {
		rxstamp_cmsg(rs, &msg);
		evbuffer_add(bufferevent_get_input(rs->bev), buf, (size_t)n);
		rs->read(rs->bev, rs->arg);
	} else if (n == 0)
		rs->event(rs->bev, BEV_EVENT_READING | BEV_EVENT_EOF, rs->arg);
	else if (errno != EAGAIN && errno != EINTR)
		rs->event(rs->bev, BEV_EVENT_READING | BEV_EVENT_ERROR,
		    rs->arg);
}

void
rxstamp_start(struct rxstamp *rs, struct bufferevent *bev,
    rxstamp_read_fn read, rxstamp_event_fn event, void *arg)
{
	int	fd = bufferevent_getfd(bev), on = 1;

	rxstamp_stop(rs);
	rs->bev = bev;
	rs->read = read;
	rs->event = event;
	rs->arg = arg;
	rs->last_ns = clock_ns();
	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof(on)) == -1)
		log_warn("SO_TIMESTAMPNS");
	/* The bufferevent writes; rxstamp reads. */
	bufferevent_disable(bev, EV_READ);
	if ((rs->ev = event_new(engine_base(), fd, EV_READ | EV_PERSIST,
	    rxstamp_cb, rs)) == NULL || event_add(rs->ev, NULL) == -1)
		fatalx("event_new");
}

void
rxstamp_stop(struct rxstamp *rs)
{
	if (rs->ev != NULL)
		event_free(rs->ev);
	rs->ev = NULL;
}
