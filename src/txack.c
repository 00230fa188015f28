/*
 * Sender-side phase windows (txack.h).  Off the hot paths: a timer polls
 * only while a phase waits for its first byte to leave or for its last
 * to be acknowledged, and each device's socket is asked until it is
 * acknowledged, then never again.
 */
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <netinet/in.h>
#include <linux/errqueue.h>
#include <linux/net_tstamp.h>
#include <linux/sockios.h>
#include <linux/tcp.h>

#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/bufferevent.h>
#include <event2/buffer.h>
#include <event2/event.h>

#include "engine.h"
#include "log.h"
#include "metrics.h"
#include "txack.h"

#define TXACK_POLL_NS	250000	/* the error on the window's ends */

/* Bytes the peer's TCP acknowledged (RFC 4898 tcpEStatsAppHCThruOctets
 * Acked, Linux tcp_info); 0 when the socket cannot say. */
static uint64_t
txack_acked(int fd)
{
	struct tcp_info	ti;
	socklen_t	len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (fd == -1 || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti,
	    &len) == -1)
		return 0;
	return ti.tcpi_bytes_acked;
}

/* Linux tcp(7): SIOCOUTQ is unsent plus sent but unacknowledged,
 * SIOCOUTQNSD unsent only. */
static uint64_t
txack_queue(int fd, unsigned long req)
{
	int	n = 0;

	if (fd != -1 && ioctl(fd, req, &n) == -1)
		log_warn("ioctl SIOCOUTQ");
	return n > 0 ? (uint64_t)n : 0;
}

uint64_t
txack_mark(struct bufferevent *bev)
{
	int	fd = bufferevent_getfd(bev);

	return txack_acked(fd) + txack_queue(fd, SIOCOUTQ) +
	    evbuffer_get_length(bufferevent_get_output(bev));
}

/* The stream offset just past the last byte sent (acknowledged or not). */
static uint64_t
txack_sent(int fd)
{
	return txack_acked(fd) + txack_queue(fd, SIOCOUTQ) -
	    txack_queue(fd, SIOCOUTQNSD);
}

/* Every device acknowledged up to its mark: 1. */
static int
txack_all(struct txack *t)
{
	struct bufferevent	*bev;
	uint64_t		 mark;

	for (; t->next < t->n; t->next++) {
		bev = t->bev(t->arg, t->next, &mark);
		if (bev != NULL && bufferevent_getfd(bev) != -1 &&
		    txack_acked(bufferevent_getfd(bev)) < mark)
			return 0;
	}
	return 1;
}

static void
txack_stop_poll(struct txack *t)
{
	if (t->ev == NULL)
		return;
	close(event_get_fd(t->ev));
	event_free(t->ev);
	t->ev = NULL;
}

/*
 * Software transmit timestamps (the kernel's Documentation/networking/
 * timestamping.rst): the time a write's last segment went to the device,
 * where a packet tap sees it.  On from txack_open to the first write.
 */
static void
txack_tstamp(int fd, int on)
{
	int	flags = on ? SOF_TIMESTAMPING_TX_SOFTWARE |
		    SOF_TIMESTAMPING_SOFTWARE | SOF_TIMESTAMPING_OPT_TSONLY : 0;

	if (fd != -1 && setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags,
	    sizeof(flags)) == -1)
		log_warn("SO_TIMESTAMPING");
}

/* The earliest transmit timestamp of fd's error queue, which it drains;
 * 0 when there is none. */
static uint64_t
txack_tx_time(int fd)
{
	union {
		struct cmsghdr	hdr;
		uint8_t		space[256];
	}			 cbuf;
	struct scm_timestamping	 tss;
	struct msghdr		 msg;
	struct cmsghdr		*c;
	uint64_t		 at, first = 0;

	for (;;) {
		memset(&msg, 0, sizeof(msg));
		msg.msg_control = cbuf.space;
		msg.msg_controllen = sizeof(cbuf.space);
		if (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) == -1)
			break;
		for (c = CMSG_FIRSTHDR(&msg); c != NULL;
		    c = CMSG_NXTHDR(&msg, c)) {
			if (c->cmsg_level != SOL_SOCKET ||
			    c->cmsg_type != SCM_TIMESTAMPING ||
			    c->cmsg_len < CMSG_LEN(sizeof(tss)))
				continue;
			memcpy(&tss, CMSG_DATA(c), sizeof(tss));
			at = clock_ns_of_real(&tss.ts[0]);
			if (first == 0 || at < first)
				first = at;
		}
	}
	if (errno != EAGAIN && errno != EWOULDBLOCK)
		log_warn("MSG_ERRQUEUE");
	return first;
}

/* The first byte is sent: its transmit time, or now if the socket gave
 * none.  Not yet: the peer's receive window holds it. */
static void
txack_opened(struct txack *t, uint64_t now)
{
	uint64_t	at;

	if (t->oph[0] == NULL)
		return;
	if ((at = txack_tx_time(t->ofd)) == 0) {
		if (txack_sent(t->ofd) <= t->omark)
			return;
		at = now;
	}
	txack_tstamp(t->ofd, 0);
	phase_opened_at(t->oph[0], at);
	if (t->oph[1] != NULL)
		phase_opened_at(t->oph[1], at);
	t->oph[0] = t->oph[1] = NULL;
}

/*
 * The output buffer went to the socket: the first byte is sent now,
 * unless the peer's receive window holds it (then the timer finds when).
 * A busy loop may run the timer late; this runs right after the write.
 */
static void
txack_written(struct evbuffer *buf, const struct evbuffer_cb_info *info,
    void *arg)
{
	struct txack	*t = arg;

	if (info->n_deleted == 0)
		return;
	evbuffer_remove_cb(buf, txack_written, t);
	txack_opened(t, clock_ns());
}

/* Opened first: a byte is sent before it is acknowledged. */
static void
txack_poll(evutil_socket_t fd, short what, void *arg)
{
	struct txack	*t = arg;
	uint64_t	 ticks, now = clock_ns();
	ssize_t		 n;

	(void)what;
	n = read(fd, &ticks, sizeof(ticks));	/* EAGAIN: woken early */
	(void)n;
	txack_opened(t, now);
	if (t->ph != NULL && txack_all(t)) {
		phase_acked(t->ph, now);
		t->ph = NULL;
	}
	if (t->oph[0] == NULL && t->ph == NULL)
		txack_stop_poll(t);
}

/* The loop's own timers are as coarse as epoll's milliseconds: a timerfd
 * polls finer. */
static void
txack_start_poll(struct txack *t)
{
	struct itimerspec	its;
	int			fd;

	if (t->ev != NULL)
		return;
	memset(&its, 0, sizeof(its));
	its.it_value.tv_nsec = its.it_interval.tv_nsec = TXACK_POLL_NS;
	if ((fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK |
	    TFD_CLOEXEC)) == -1 || timerfd_settime(fd, 0, &its, NULL) == -1)
		fatal("timerfd");
	if ((t->ev = event_new(engine_base(), fd, EV_READ | EV_PERSIST,
	    txack_poll, t)) == NULL || event_add(t->ev, NULL) == -1)
		fatalx("event_new");
}

void
txack_open(struct txack *t, struct bufferevent *bev, struct phase *ph,
    struct phase *also)
{
	t->oph[0] = ph;
	t->oph[1] = also;
	t->ofd = bufferevent_getfd(bev);
	t->omark = txack_mark(bev);
	txack_tstamp(t->ofd, 1);
	if (evbuffer_add_cb(bufferevent_get_output(bev), txack_written,
	    t) == NULL)
		fatalx("evbuffer_add_cb");
	txack_start_poll(t);
}

void
txack_wait(struct txack *t, struct phase *ph, size_t n, txack_bev_fn bev,
    void *arg)
{
	t->ph = ph;
	t->n = n;
	t->next = 0;
	t->bev = bev;
	t->arg = arg;
	txack_start_poll(t);
}

void
txack_cancel(struct txack *t)
{
	txack_stop_poll(t);
	t->ph = NULL;
	t->oph[0] = t->oph[1] = NULL;
}
