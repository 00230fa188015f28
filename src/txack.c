/*
 * Sender-side phase ends (txack.h).  Off the hot paths: the timer only
 * runs once a phase's last item is queued, and each device's socket is
 * asked until it is acknowledged, then never again.
 */
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <netinet/in.h>
#include <linux/sockios.h>
#include <linux/tcp.h>

#include <string.h>
#include <unistd.h>

#include <event2/bufferevent.h>
#include <event2/buffer.h>
#include <event2/event.h>

#include "engine.h"
#include "log.h"
#include "metrics.h"
#include "txack.h"

#define TXACK_POLL_NS	250000	/* the error on the phase's end */

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

uint64_t
txack_mark(struct bufferevent *bev)
{
	int	fd = bufferevent_getfd(bev), queued = 0;

	/* Linux tcp(7): SIOCOUTQ is unsent plus sent but unacknowledged. */
	if (fd != -1 && ioctl(fd, SIOCOUTQ, &queued) == -1)
		log_warn("SIOCOUTQ");
	return txack_acked(fd) + (queued > 0 ? (uint64_t)queued : 0) +
	    evbuffer_get_length(bufferevent_get_output(bev));
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
txack_poll(evutil_socket_t fd, short what, void *arg)
{
	struct txack	*t = arg;
	uint64_t	 ticks;
	ssize_t		 n;

	(void)what;
	n = read(fd, &ticks, sizeof(ticks));	/* EAGAIN: woken early */
	(void)n;
	if (!txack_all(t))
		return;
	phase_acked(t->ph, clock_ns());
	txack_stop_poll(t);
}

/*
 * The loop's own timers are as coarse as epoll's milliseconds: a timerfd
 * polls finer.  The phase may end before its first bytes left; the stamp
 * of txack_open still comes (the first write precedes any acknowledgment).
 */
void
txack_wait(struct txack *t, struct phase *ph, size_t n, txack_bev_fn bev,
    void *arg)
{
	struct itimerspec	its;
	int			fd;

	txack_stop_poll(t);
	t->ph = ph;
	t->n = n;
	t->next = 0;
	t->bev = bev;
	t->arg = arg;
	if (txack_all(t)) {
		phase_acked(ph, clock_ns());
		return;
	}
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
txack_cancel(struct txack *t)
{
	txack_stop_poll(t);
	t->oph[0] = t->oph[1] = NULL;	/* a pending txack_open does nothing */
}

static void
txack_written(struct evbuffer *buf, const struct evbuffer_cb_info *info,
    void *arg)
{
	struct txack	*t = arg;
	uint64_t	 now;
	int		 i;

	if (info->n_deleted == 0)
		return;
	now = clock_ns();
	for (i = 0; i < 2; i++)
		if (t->oph[i] != NULL)
			phase_opened_at(t->oph[i], now);
	t->oph[0] = t->oph[1] = NULL;
	evbuffer_remove_cb_entry(buf, t->ocb);
	t->ocb = NULL;
}

void
txack_open(struct txack *t, struct bufferevent *bev, struct phase *ph,
    struct phase *also)
{
	struct evbuffer	*out = bufferevent_get_output(bev);

	if (t->ocb != NULL && t->oph[0] != NULL)
		return;			/* already waiting */
	t->oph[0] = ph;
	t->oph[1] = also;
	if ((t->ocb = evbuffer_add_cb(out, txack_written, t)) == NULL)
		fatalx("evbuffer_add_cb");
}
