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

/* Linux tcp(7): SIOCOUTQ is unsent plus sent but unacknowledged. */
static uint64_t
txack_queue(int fd)
{
	int	n = 0;

	if (fd != -1 && ioctl(fd, SIOCOUTQ, &n) == -1)
		log_warn("ioctl SIOCOUTQ");
	return n > 0 ? (uint64_t)n : 0;
}

uint64_t
txack_mark(struct bufferevent *bev)
{
	int	fd = bufferevent_getfd(bev);

	return txack_acked(fd) + txack_queue(fd) +
	    evbuffer_get_length(bufferevent_get_output(bev));
}

/*
 * Software transmit timestamps (the kernel's Documentation/networking/
 * timestamping.rst): the time a write's last segment went to the device,
 * where a packet tap sees it.  Generated for the first write only
 * (TXTS_GEN), reported until that write's time is read (TXTS_READ: the
 * kernel reports it only while SOF_TIMESTAMPING_SOFTWARE is set).
 */
enum { TXTS_OFF, TXTS_READ, TXTS_GEN };

static void
txack_tstamp(int fd, int mode)
{
	int	flags = 0;

	if (mode != TXTS_OFF)
		flags = SOF_TIMESTAMPING_SOFTWARE | SOF_TIMESTAMPING_OPT_TSONLY;
	if (mode == TXTS_GEN)
		flags |= SOF_TIMESTAMPING_TX_SOFTWARE;
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

enum {
	TXD_IDLE,
	TXD_ARMED,		/* its first write is to come */
	TXD_SENT,		/* written: its transmit time is to be read */
};

static void	txack_start_poll(struct txack *);

/* The device's first write went out at the time its error queue holds:
 * the phases open then if it is the earliest so far.  0: not yet (the
 * peer's receive window may hold the segment back). */
static int
txack_stamped(struct txack_dev *d)
{
	struct txack	*t = d->t;
	uint64_t	 at;

	if ((at = txack_tx_time(d->fd)) == 0)
		return 0;
	txack_tstamp(d->fd, TXTS_OFF);
	d->state = TXD_IDLE;
	if (t->oph[0] == NULL || (t->opened != 0 && at >= t->opened))
		return 1;
	t->opened = at;
	phase_opened_at(t->oph[0], at);
	if (t->oph[1] != NULL)
		phase_opened_at(t->oph[1], at);
	return 1;
}

/* The device's output went to the socket: only that first write was
 * stamped; read its time now or, if not sent yet, on the timer. */
static void
txack_written(struct evbuffer *buf, const struct evbuffer_cb_info *info,
    void *arg)
{
	struct txack_dev	*d = arg;

	if (info->n_deleted == 0)
		return;
	evbuffer_remove_cb(buf, txack_written, d);
	d->state = TXD_SENT;
	if (d->t->oph[0] == NULL) {
		txack_tstamp(d->fd, TXTS_OFF);
		d->state = TXD_IDLE;	/* txack_cancel()ed */
		return;
	}
	txack_tstamp(d->fd, TXTS_READ);
	if (txack_stamped(d))
		return;
	d->next = d->t->pending;
	d->t->pending = d;
	txack_start_poll(d->t);
}

static void
txack_poll_pending(struct txack *t)
{
	struct txack_dev	**dp = &t->pending, *d;

	while ((d = *dp) != NULL) {
		if (d->state != TXD_SENT || txack_stamped(d))
			*dp = d->next;
		else
			dp = &d->next;
	}
}

/* Every device acknowledged up to its mark: 1. */
static int
txack_all(struct txack *t)
{
	struct bufferevent	*bev;
	struct txack_dev	*d;

	for (; t->next < t->n; t->next++) {
		bev = t->dev(t->arg, t->next, &d);
		if (bev != NULL && bufferevent_getfd(bev) != -1 &&
		    txack_acked(bufferevent_getfd(bev)) < d->mark)
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

static void
txack_poll(evutil_socket_t fd, short what, void *arg)
{
	struct txack	*t = arg;
	uint64_t	 ticks, now = clock_ns();
	ssize_t		 n;

	(void)what;
	n = read(fd, &ticks, sizeof(ticks));	/* EAGAIN: woken early */
	(void)n;
	txack_poll_pending(t);
	if (t->ph != NULL && txack_all(t)) {
		phase_acked(t->ph, now);
		t->ph = NULL;
	}
	if (t->pending == NULL && t->ph == NULL)
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
txack_open(struct txack *t, struct txack_dev *d, struct bufferevent *bev,
    struct phase *ph, struct phase *also)
{
	if (t->oph[0] != ph) {
		t->oph[0] = ph;
		t->oph[1] = also;
		t->opened = 0;
	}
	if (d->state != TXD_IDLE)
		return;
	d->t = t;
	d->fd = bufferevent_getfd(bev);
	d->state = TXD_ARMED;
	txack_tstamp(d->fd, TXTS_GEN);
	if (evbuffer_add_cb(bufferevent_get_output(bev), txack_written,
	    d) == NULL)
		fatalx("evbuffer_add_cb");
}

void
txack_wait(struct txack *t, struct phase *ph, size_t n, txack_dev_fn dev,
    void *arg)
{
	t->ph = ph;
	t->n = n;
	t->next = 0;
	t->dev = dev;
	t->arg = arg;
	txack_start_poll(t);
}

/* A device armed or written still has its callback or its socket's
 * error queue: they find t gone and stop. */
void
txack_cancel(struct txack *t)
{
	struct txack_dev	*d;

	txack_stop_poll(t);
	while ((d = t->pending) != NULL) {
		t->pending = d->next;
		d->state = TXD_IDLE;
	}
	t->ph = NULL;
	t->oph[0] = t->oph[1] = NULL;
}
