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

/* The receive time of a recvmsg's cmsg, or now when it has none. */
static uint64_t
rxstamp_cmsg(struct msghdr *msg)
{
	struct cmsghdr	*c;
	struct timespec	 ts;

	for (c = CMSG_FIRSTHDR(msg); c != NULL; c = CMSG_NXTHDR(msg, c))
		if (c->cmsg_level == SOL_SOCKET &&
		    c->cmsg_type == SCM_TIMESTAMPNS &&
		    c->cmsg_len >= CMSG_LEN(sizeof(ts))) {
			memcpy(&ts, CMSG_DATA(c), sizeof(ts));
			return clock_ns_of_real(&ts);
		}
	return clock_ns();
}

void
rxstamp_on(int fd)
{
	int	on = 1;

	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof(on)) == -1)
		log_warn("SO_TIMESTAMPNS");
}

/* recvmsg(2) with the receive time of the last segment read in *ns
 * (now when the kernel gave none). */
static ssize_t
rxstamp_recv(int fd, void *buf, size_t len, int flags, uint64_t *ns)
{
	union {
		struct cmsghdr	hdr;
		uint8_t		space[CMSG_SPACE(sizeof(struct timespec))];
	}		 cbuf;
	struct iovec	 iov = { buf, len };
	struct msghdr	 msg;
	ssize_t		 n;

	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	msg.msg_control = cbuf.space;
	msg.msg_controllen = sizeof(cbuf.space);
	n = recvmsg(fd, &msg, flags);
	*ns = n > 0 ? rxstamp_cmsg(&msg) : clock_ns();
	return n;
}

/*
 * Up to len bytes of a stream socket in one system call, with in *ns the
 * receive time of the oldest segment among them.  tcp_recvmsg reports
 * the time of the last segment a read copied from, so recvmmsg(2) makes
 * two reads: the first of one byte (the oldest segment's time, what a
 * MSG_PEEK of that byte would say), the second of the rest.
 */
ssize_t
rxstamp_read_first(int fd, uint8_t *buf, size_t len, uint64_t *ns)
{
	union {
		struct cmsghdr	hdr;
		uint8_t		space[CMSG_SPACE(sizeof(struct timespec))];
	}		 cbuf;
	struct iovec	 iov[2];
	struct mmsghdr	 mm[2];
	int		 n;

	*ns = 0;
	if (len < 2)
		return rxstamp_recv(fd, buf, len, MSG_DONTWAIT, ns);
	memset(mm, 0, sizeof(mm));
	iov[0].iov_base = buf;
	iov[0].iov_len = 1;
	iov[1].iov_base = buf + 1;
	iov[1].iov_len = len - 1;
	mm[0].msg_hdr.msg_iov = &iov[0];
	mm[0].msg_hdr.msg_iovlen = 1;
	mm[0].msg_hdr.msg_control = cbuf.space;
	mm[0].msg_hdr.msg_controllen = sizeof(cbuf.space);
	mm[1].msg_hdr.msg_iov = &iov[1];
	mm[1].msg_hdr.msg_iovlen = 1;
	/* An error the second read meets once the first took its byte is
	 * the next call's (recvmmsg(2), BUGS), as is an EOF. */
	if ((n = recvmmsg(fd, mm, 2, MSG_DONTWAIT, NULL)) == -1)
		return -1;
	if (n == 0 || mm[0].msg_len == 0)
		return 0;
	*ns = rxstamp_cmsg(&mm[0].msg_hdr);
	return (ssize_t)mm[0].msg_len + (n > 1 ? (ssize_t)mm[1].msg_len : 0);
}

/*
 * Bytes read into a bufferevent's input, as its own read does: a socket
 * bufferevent made on a descriptor (an accepted one) keeps the end of its
 * input frozen (libevent's bufferevent_socket_new), and evbuffer_add to
 * it fails until thawed; one that connected was thawed by its setfd.
 */
int
rxstamp_input_add(struct bufferevent *bev, const void *data, size_t len)
{
	struct evbuffer	*in = bufferevent_get_input(bev);
	int		 rv;

	evbuffer_unfreeze(in, 0);
	rv = evbuffer_add(in, data, len);
	evbuffer_freeze(in, 0);
	return rv;
}

static void
rxstamp_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rxstamp	*rs = arg;
	static uint8_t	 buf[RXSTAMP_READ];
	ssize_t		 n;

	(void)what;
	if ((n = rxstamp_recv(fd, buf, sizeof(buf), 0, &rs->last_ns)) > 0) {
		if (rxstamp_input_add(rs->bev, buf, (size_t)n) == -1)
			fatalx("rxstamp: evbuffer_add");
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
	int	fd = bufferevent_getfd(bev);

	rxstamp_stop(rs);
	rs->bev = bev;
	rs->read = read;
	rs->event = event;
	rs->arg = arg;
	rs->last_ns = clock_ns();
	rxstamp_on(fd);
	/* The bufferevent writes; rxstamp reads. */
	bufferevent_disable(bev, EV_READ);
	if ((rs->ev = event_new(engine_base(), fd, EV_READ | EV_PERSIST,
	    rxstamp_cb, rs)) == NULL || event_add(rs->ev, NULL) == -1)
		fatalx("event_new");
}

void
rxstamp_stop(struct rxstamp *rs)
{
	engine_event_free(&rs->ev);
}

static void
rxpeek_rearm(evutil_socket_t fd, short what, void *arg)
{
	struct rxpeek	*rp = arg;

	(void)fd;
	(void)what;
	if (rp->ev != NULL && !event_pending(rp->ev, EV_READ, NULL))
		event_add(rp->ev, NULL);
}

static void
rxpeek_cb(evutil_socket_t fd, short what, void *arg)
{
	struct rxpeek	*rp = arg;
	struct timeval	 now = { 0, 0 };
	uint8_t		 byte;

	(void)what;
	if (rxstamp_recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT,
	    &rp->ns) == 1)
		return;
	/* Woken with nothing to read (an error queue entry: txack's
	 * timestamps): armed again after the other events had their turn,
	 * which read that queue, not at once (it would starve them). */
	rp->ns = 0;
	if (rp->rearm == NULL)
		rp->rearm = engine_timer_new(0, rxpeek_rearm, rp);
	engine_timer_add(rp->rearm, &now);
}

void
rxpeek_arm(struct rxpeek *rp, int fd)
{
	rp->ns = 0;
	if (fd == -1)
		return;
	if (rp->ev != NULL && event_get_fd(rp->ev) != fd)
		rxpeek_stop(rp);
	if (rp->ev == NULL) {
		rxstamp_on(fd);
		if ((rp->ev = event_new(engine_base(), fd, EV_READ, rxpeek_cb,
		    rp)) == NULL || event_priority_set(rp->ev, 0) == -1)
			fatalx("rxpeek: event_new");
	}
	if (!event_pending(rp->ev, EV_READ, NULL) &&
	    event_add(rp->ev, NULL) == -1)
		fatalx("rxpeek: event_add");
}

uint64_t
rxpeek_take(struct rxpeek *rp, uint64_t now)
{
	uint64_t	ns = rp->ns != 0 && rp->ns <= now ? rp->ns : now;

	rp->ns = 0;
	return ns;
}

void
rxpeek_stop(struct rxpeek *rp)
{
	engine_event_free(&rp->ev);
	engine_event_free(&rp->rearm);
	rp->ns = 0;
}
