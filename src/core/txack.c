/*
 * Sender-side phase windows (txack.h), from the kernel's timestamps
 * (Documentation/networking/timestamping.rst): a transmit timestamp of
 * each device's first write opens the window, where a packet tap sees
 * the segment; an acknowledgment timestamp (SOF_TIMESTAMPING_TX_ACK) of
 * the write that holds its last byte ends it.  Off the hot paths: only
 * those writes are stamped.  The kernel tells when a stamp is queued (the
 * socket polls as in error, EPOLLERR): a private epoll set of the stamping
 * sockets wakes the loop then, and the wait ends on the stamp itself.  A
 * timer polls besides, only while a phase waits: it finds when each mark
 * is acknowledged (TCP_INFO), the end used where a socket gave no
 * timestamp, and gives up on stamps that never come; its interval grows
 * from 250 us while nothing is acknowledged and shrinks again as the
 * acknowledged bytes near the mark (half the time they would take at the
 * rate seen), so that a wait of a second wakes the loop tens of times,
 * not thousands (a fixed 250 us poll: 1 450 wakeups for 1M prefixes).
 */
#include <sys/epoll.h>
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

#define TXACK_POLL_NS	250000	/* the timer's first and least interval */
#define TXACK_POLL_MAX_NS 20000000ull	/* its longest: a stamp-less end is
					   seen at most this late */
#define TXACK_KEV_BATCH	64	/* sockets read per epoll_wait */
#define TXACK_GIVE_UP_NS 5000000000ull	/* a stamp that never came */
#define TXACK_ONE_WRITE	(64 * 1024 * 1024)	/* the last data at once */

enum {
	TXD_IDLE,
	TXD_ARMED,		/* its first write is to come */
	TXD_SENT,		/* written: its transmit time is to be read */
};

static void	txack_start_poll(struct txack *);
static void	txack_watch(struct txack_dev *, int);

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

/* The stream offset just past everything queued on bev so far:
 * acknowledged bytes, plus the socket's unsent and unacknowledged queue
 * (SIOCOUTQ, Linux tcp(7)), plus the output buffer. */
static uint64_t
txack_mark(struct bufferevent *bev)
{
	int	fd = bufferevent_getfd(bev), queued = 0;

	if (fd != -1 && ioctl(fd, SIOCOUTQ, &queued) == -1)
		log_warn("ioctl SIOCOUTQ");
	return txack_acked(fd) + (queued > 0 ? (uint64_t)queued : 0) +
	    evbuffer_get_length(bufferevent_get_output(bev));
}

/* What the device's socket stamps now: its first write's transmission
 * while armed, its writes' acknowledgments while acking (keyed by byte,
 * OPT_ID), and reported as long as a stamp is to be read. */
static void
txack_flags(struct txack_dev *d)
{
	int	flags = 0;

	if (d->open == TXD_ARMED)
		flags |= SOF_TIMESTAMPING_TX_SOFTWARE;
	if (d->acking)
		flags |= SOF_TIMESTAMPING_TX_ACK | SOF_TIMESTAMPING_OPT_ID;
	if (d->open != TXD_IDLE || d->acking || d->draining)
		flags |= SOF_TIMESTAMPING_SOFTWARE |
		    SOF_TIMESTAMPING_OPT_TSONLY;
	if (d->fd != -1 && setsockopt(d->fd, SOL_SOCKET, SO_TIMESTAMPING,
	    &flags, sizeof(flags)) == -1)
		log_warn("SO_TIMESTAMPING");
	txack_watch(d, flags != 0);
}

/* One error queue message: its timestamp and what it stamps. */
static void
txack_stamp(struct txack_dev *d, struct msghdr *msg)
{
	struct scm_timestamping		 tss;
	struct sock_extended_err	 ee;
	struct cmsghdr			*c;
	uint64_t			 at = 0;
	int				 have_ee = 0;

	for (c = CMSG_FIRSTHDR(msg); c != NULL; c = CMSG_NXTHDR(msg, c)) {
		if (c->cmsg_level == SOL_SOCKET &&
		    c->cmsg_type == SCM_TIMESTAMPING &&
		    c->cmsg_len >= CMSG_LEN(sizeof(tss))) {
			memcpy(&tss, CMSG_DATA(c), sizeof(tss));
			at = clock_ns_of_real(&tss.ts[0]);
		} else if (((c->cmsg_level == SOL_IP &&
		    c->cmsg_type == IP_RECVERR) || (c->cmsg_level ==
		    SOL_IPV6 && c->cmsg_type == IPV6_RECVERR)) &&
		    c->cmsg_len >= CMSG_LEN(sizeof(ee))) {
			memcpy(&ee, CMSG_DATA(c), sizeof(ee));
			have_ee = ee.ee_origin == SO_EE_ORIGIN_TIMESTAMPING;
		}
	}
	if (at == 0 || !have_ee)
		return;
	if (ee.ee_info == SCM_TSTAMP_SND && (d->snd_at == 0 ||
	    at < d->snd_at))
		d->snd_at = at;
	/* The first acknowledged write that holds the mark's last byte. */
	if (ee.ee_info == SCM_TSTAMP_ACK && d->acking &&
	    ee.ee_data >= (uint32_t)(d->mark - 1 - d->key0) &&
	    (d->ack_at == 0 || at < d->ack_at))
		d->ack_at = at;
}

/* Drain the device's error queue into snd_at and ack_at; how many
 * stamps it held. */
static int
txack_read(struct txack_dev *d)
{
	union {
		struct cmsghdr	hdr;
		uint8_t		space[512];
	}		 cbuf;
	struct msghdr	 msg;
	int		 n = 0;

	if (d->fd == -1)
		return 0;
	for (;; n++) {
		memset(&msg, 0, sizeof(msg));
		msg.msg_control = cbuf.space;
		msg.msg_controllen = sizeof(cbuf.space);
		if (recvmsg(d->fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) == -1)
			break;
		txack_stamp(d, &msg);
	}
	/* The connection is gone: nothing more to read there. */
	if (errno != EAGAIN && errno != EWOULDBLOCK)
		d->fd = -1;
	return n;
}

/* Waited too long for a stamp (a connection gone, its descriptor
 * reused): give it up. */
static int
txack_give_up(struct txack_dev *d, uint64_t now)
{
	return d->fd == -1 || now - d->since_ns > TXACK_GIVE_UP_NS;
}

/* The device's first write went out at snd_at: the phases open then if
 * it is the earliest so far.  0: not yet (a receive window may hold the
 * segment back). */
static int
txack_stamped(struct txack_dev *d)
{
	struct txack	*t = d->t;

	txack_read(d);
	if (d->snd_at == 0 && !txack_give_up(d, clock_ns()))
		return 0;
	d->open = TXD_IDLE;
	txack_flags(d);
	if (d->snd_at == 0)
		return 1;
	if (t->oph[0] == NULL || (t->opened != 0 && d->snd_at >= t->opened))
		return 1;
	t->opened = d->snd_at;
	phase_opened_at(t->oph[0], d->snd_at);
	if (t->oph[1] != NULL)
		phase_opened_at(t->oph[1], d->snd_at);
	return 1;
}

/* The device's output went to the socket: only that first write was
 * stamped; its time is read now or, if not sent yet, on the timer. */
static void
txack_written(struct evbuffer *buf, const struct evbuffer_cb_info *info,
    void *arg)
{
	struct txack_dev	*d = arg;

	if (info->n_deleted == 0)
		return;
	evbuffer_remove_cb(buf, txack_written, d);
	d->open = TXD_SENT;
	txack_flags(d);
	if (d->t->oph[0] == NULL) {
		d->open = TXD_IDLE;	/* txack_cancel()ed */
		txack_flags(d);
		return;
	}
	d->since_ns = clock_ns();
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
		if (d->open != TXD_SENT || txack_stamped(d))
			*dp = d->next;
		else
			dp = &d->next;
	}
}

/*
 * Writes stamped until now (past the mark, when more was queued) are
 * acknowledged later: their stamps are read off as they come, so that
 * no stamp stays in the error queue (which would keep the socket
 * polling as in error).
 */
static void
txack_drain(struct txack *t, struct txack_dev *d, struct bufferevent *bev)
{
	d->acking = 0;
	d->drain_to = txack_mark(bev);
	d->since_ns = clock_ns();
	if (!d->draining) {	/* once in the list, or it loops */
		d->draining = 1;
		d->next = t->draining;
		t->draining = d;
	}
	txack_flags(d);
}

static void
txack_poll_draining(struct txack *t)
{
	struct txack_dev	**dp = &t->draining, *d;

	while ((d = *dp) != NULL) {
		txack_read(d);
		if (txack_give_up(d, clock_ns()) ||
		    txack_acked(d->fd) >= d->drain_to) {
			d->draining = 0;
			txack_flags(d);
			*dp = d->next;
		} else
			dp = &d->next;
	}
}

/* Every device acknowledged up to its mark: 1; t->end is the latest of
 * their acknowledgment times (now where a socket gave none). */
static int
txack_all(struct txack *t, uint64_t now)
{
	struct bufferevent	*bev;
	struct txack_dev	*d;

	for (; t->next < t->n; t->next++) {
		bev = t->dev(t->arg, t->next, &d);
		if (bev == NULL || bufferevent_getfd(bev) == -1)
			continue;
		if (txack_acked(bufferevent_getfd(bev)) < d->mark)
			return 0;
		txack_read(d);
		if ((d->ack_at != 0 ? d->ack_at : now) > t->end)
			t->end = d->ack_at != 0 ? d->ack_at : now;
		bufferevent_set_max_single_write(bev, 0);	/* the default */
		txack_drain(t, d, bev);
	}
	return 1;
}

/* The wait is over: a device that sent again after its turn in
 * txack_all() (it reconnected meanwhile) is still acking; its stamps are
 * drained, as txack_last() does from now on. */
static void
txack_sweep(struct txack *t)
{
	struct bufferevent	*bev;
	struct txack_dev	*d;
	size_t			 i;

	for (i = 0; i < t->n; i++) {
		bev = t->dev(t->arg, i, &d);
		if (bev != NULL && d->acking && bufferevent_getfd(bev) != -1) {
			bufferevent_set_max_single_write(bev, 0);
			txack_drain(t, d, bev);
		}
	}
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

/* The phase waited for is over once every device's mark is
 * acknowledged. */
static void
txack_check(struct txack *t, uint64_t now)
{
	if (t->ph != NULL && txack_all(t, now)) {
		phase_acked(t->ph, t->end);
		t->ph = NULL;
		t->over = 1;
		txack_sweep(t);
	}
}

/*
 * The timer's next interval.  While a phase waits on device t->next: half
 * the time its unacknowledged bytes take at the rate acknowledged since
 * the last poll, so that the polls come closer as the end nears (a
 * stamp-less end is seen about as late as with a fixed 250 us poll);
 * otherwise (no progress, or only stamps to drain) twice the last.
 */
static uint64_t
txack_interval(struct txack *t, uint64_t now)
{
	struct bufferevent	*bev;
	struct txack_dev	*d;
	uint64_t		 next = t->poll_ns * 2, acked;

	if (t->ph != NULL && t->next < t->n &&
	    (bev = t->dev(t->arg, t->next, &d)) != NULL &&
	    bufferevent_getfd(bev) != -1) {
		acked = txack_acked(bufferevent_getfd(bev));
		if (t->eta_at != 0 && t->eta_dev == t->next &&
		    acked > t->eta_acked && acked < d->mark)
			next = (uint64_t)((double)(now - t->eta_at) *
			    (double)(d->mark - acked) /
			    (double)(acked - t->eta_acked) / 2);
		t->eta_dev = t->next;
		t->eta_acked = acked;
		t->eta_at = now;
	}
	if (next < TXACK_POLL_NS)
		next = TXACK_POLL_NS;
	return next > TXACK_POLL_MAX_NS ? TXACK_POLL_MAX_NS : next;
}

/* The timer fires once, ns from now. */
static void
txack_arm(struct txack *t, uint64_t ns)
{
	struct itimerspec	its;

	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = (time_t)(ns / 1000000000ull);
	its.it_value.tv_nsec = (long)(ns % 1000000000ull);
	t->poll_ns = ns;
	if (timerfd_settime(event_get_fd(t->ev), 0, &its, NULL) == -1)
		fatal("timerfd_settime");
}

static void
txack_poll(evutil_socket_t fd, short what, void *arg)
{
	struct txack	*t = arg;
	uint64_t	 ticks, now;
	ssize_t		 n;

	(void)what;
	n = read(fd, &ticks, sizeof(ticks));	/* EAGAIN: woken early */
	(void)n;
	now = clock_ns();
	txack_poll_pending(t);
	txack_check(t, now);
	txack_poll_draining(t);
	if (t->pending == NULL && t->ph == NULL && t->draining == NULL)
		txack_stop_poll(t);
	else
		txack_arm(t, txack_interval(t, now));
}

/* The loop's own timers are as coarse as epoll's milliseconds: a timerfd
 * polls finer.  A new wait polls from the shortest interval again. */
static void
txack_start_poll(struct txack *t)
{
	int	fd;

	if (t->ev != NULL && t->poll_ns <= TXACK_POLL_NS)
		return;
	if (t->ev == NULL && ((fd = timerfd_create(CLOCK_MONOTONIC,
	    TFD_NONBLOCK | TFD_CLOEXEC)) == -1 ||
	    (t->ev = event_new(engine_base(), fd, EV_READ | EV_PERSIST,
	    txack_poll, t)) == NULL || event_add(t->ev, NULL) == -1))
		fatal("txack: timerfd");
	t->eta_at = 0;
	txack_arm(t, TXACK_POLL_NS);
}

/* Whether the device's socket stamps (txack_flags()). */
static int
txack_stamping(const struct txack_dev *d)
{
	return d->open != TXD_IDLE || d->acking || d->draining;
}

/*
 * Stamps were queued on some of the sockets: read them now (the socket
 * polls as in error until they are, a busy loop), and end the wait if
 * that was the last acknowledgment.  A socket that reported without a
 * stamp (its own error, or hung up) is not watched again: it would report
 * for ever; the timer sees to it.
 */
static void
txack_kernel(evutil_socket_t fd, short what, void *arg)
{
	struct epoll_event	 evs[TXACK_KEV_BATCH];
	struct txack		*t = arg;
	struct txack_dev	*d;
	int			 i, n;

	(void)what;
	n = epoll_wait(fd, evs, TXACK_KEV_BATCH, 0);
	for (i = 0; i < n; i++) {
		d = evs[i].data.ptr;
		if (txack_read(d) > 0 && txack_stamping(d))
			txack_watch(d, 1);
	}
	if (t->pending != NULL)
		txack_poll_pending(t);
	txack_check(t, clock_ns());
}

/*
 * The kernel's word that a stamp is queued: the device's socket in t's
 * epoll set, one report at a time (EPOLLONESHOT, armed again once read;
 * EPOLLERR is always reported, nothing else is asked).  A socket closed by
 * its owner leaves the set by itself.
 */
static void
txack_watch(struct txack_dev *d, int on)
{
	struct txack		*t = d->t;
	struct epoll_event	 ev;
	int			 fd;

	if (t == NULL || d->fd == -1 || (!on && t->kev == NULL))
		return;
	if (!on) {
		(void)epoll_ctl(t->kev_fd, EPOLL_CTL_DEL, d->fd, NULL);
		return;
	}
	if (t->kev == NULL) {
		if ((fd = epoll_create1(EPOLL_CLOEXEC)) == -1 ||
		    (t->kev = event_new(engine_base(), fd, EV_READ |
		    EV_PERSIST, txack_kernel, t)) == NULL ||
		    event_add(t->kev, NULL) == -1)
			fatal("txack: epoll");
		t->kev_fd = fd;
	}
	memset(&ev, 0, sizeof(ev));
	ev.events = EPOLLONESHOT;
	ev.data.ptr = d;
	if (epoll_ctl(t->kev_fd, EPOLL_CTL_MOD, d->fd, &ev) == -1 &&
	    (errno != ENOENT || epoll_ctl(t->kev_fd, EPOLL_CTL_ADD, d->fd,
	    &ev) == -1))
		log_warn("txack: epoll_ctl");
}

void
txack_open(struct txack *t, struct txack_dev *d, struct bufferevent *bev,
    struct phase *ph, struct phase *also)
{
	if (t->oph[0] != ph) {
		t->oph[0] = ph;
		t->oph[1] = also;
		t->opened = 0;
		t->over = 0;	/* a new phase: its wait is to come */
	}
	/* Armed on a connection that went before writing: armed again. */
	if (d->open != TXD_IDLE && d->fd == bufferevent_getfd(bev))
		return;
	d->t = t;
	d->fd = bufferevent_getfd(bev);
	d->open = TXD_ARMED;
	d->snd_at = 0;
	txack_flags(d);
	if (evbuffer_add_cb(bufferevent_get_output(bev), txack_written,
	    d) == NULL)
		fatalx("evbuffer_add_cb");
}

/*
 * What is still in the output buffer goes in one write (the kernel's
 * send buffer permitting), so that few writes are stamped: the bytes
 * already in the kernel are not, and then the timer's sight of the
 * acknowledgment stands in.
 */
void
txack_last(struct txack_dev *d, struct bufferevent *bev)
{
	d->fd = bufferevent_getfd(bev);
	d->mark = txack_mark(bev);
	d->key0 = txack_acked(d->fd);
	d->ack_at = 0;
	d->acking = 1;
	txack_flags(d);
	/* Not before the first write: its transmit time is its last
	 * segment's, and the first segment is the window's start. */
	if (d->open != TXD_ARMED)
		bufferevent_set_max_single_write(bev, TXACK_ONE_WRITE);
	/*
	 * Items sent again after the phase's wait ended (a device that
	 * reconnected and announces again): no txack_all() will read this
	 * socket's stamps, and stamps left in its error queue keep it
	 * polling as in error (EPOLLERR) for ever, a busy loop.  Drain them
	 * instead; the phase is over.
	 */
	if (d->t != NULL && d->t->over && d->t->oph[0] != NULL) {
		bufferevent_set_max_single_write(bev, 0);
		txack_drain(d->t, d, bev);
		txack_start_poll(d->t);
	}
}

void
txack_wait(struct txack *t, struct phase *ph, size_t n, txack_dev_fn dev,
    void *arg)
{
	t->ph = ph;
	t->over = 0;
	t->n = n;
	t->next = 0;
	t->end = 0;
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
		d->open = TXD_IDLE;
	}
	while ((d = t->draining) != NULL) {
		t->draining = d->next;
		d->draining = 0;
	}
	t->ph = NULL;
	t->oph[0] = t->oph[1] = NULL;
	if (t->kev != NULL) {
		event_free(t->kev);
		close(t->kev_fd);
		t->kev = NULL;
	}
}
