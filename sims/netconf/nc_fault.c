/*
 * The --fault kinds NETCONF devices take (src/core/fault.h, guide.md
 * "Injected faults"): rpc-error, the next RPC a device is sent (on any of
 * its sessions, close-session aside) answered with an rpc-error,
 * operation-failed of type application (RFC 6241 section 4.3), instead of
 * what it asked; slow-rpc, the reply to the next RPC sent ARG ms late,
 * and the replies after it on that session behind it, in order; drop,
 * its sessions reset.  The devices listen and hold their sessions
 * themselves: the drop is theirs, not the pool's.
 */
#include <sys/queue.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "engine.h"
#include "fault.h"
#include "log.h"
#include "nc_sim.h"

/* A device's slow reply: armed (sid 0) until its next RPC, then holding
 * that session's framed replies until the timer sends them. */
struct nc_slow {
	LIST_ENTRY(nc_slow)	 entry;
	struct nc_dev		*dev;
	uint32_t		 sid;
	uint32_t		 ms;
	struct evbuffer		*held;
	struct event		*ev;
};
static LIST_HEAD(, nc_slow) nc_slows = LIST_HEAD_INITIALIZER(nc_slows);

/* A device with a session past its hello, picked by rnd; NULL: none. */
static struct nc_dev *
nc_fault_dev(struct nc_sim *sim, uint64_t rnd)
{
	struct nc_sess	*s;
	uint32_t	 i, open = 0, k;

	for (i = 0; i < sim->cfg.devices; i++)
		LIST_FOREACH(s, &sim->devs[i].sessions, entry)
			if (s->state == NCS_OPEN) {
				open++;
				break;
			}
	if (open == 0)
		return NULL;
	k = (uint32_t)(rnd % open);
	for (i = 0; i < sim->cfg.devices; i++)
		LIST_FOREACH(s, &sim->devs[i].sessions, entry)
			if (s->state == NCS_OPEN) {
				if (k-- == 0)
					return &sim->devs[i];
				break;
			}
	return NULL;
}

/*
 * drop: every session of a device with one open reset (SO_LINGER 0), as
 * when the device crashes or its link goes; the controller connects
 * again (its own backoff) and the reconnect phase counts the device back
 * at its next hello.
 */
static int
nc_fault_drop(void *cfg, const struct fault_shot *shot)
{
	struct nc_sim	*sim = cfg;
	struct nc_dev	*d;
	struct nc_sess	*s;

	if ((d = nc_fault_dev(sim, shot->rnd)) == NULL)
		return -1;
	fault_dev_dropped(&d->pd, shot->now_ns);
	LIST_FOREACH(s, &d->sessions, entry)
		if (s->state != NCS_DEAD) {
			nc_sess_reset(s, "dropped by --fault drop");
			(*metrics_counter(sim->m, "fault_drop_sessions"))++;
		}
	return 0;
}

static int
nc_fault_rpc_error(void *cfg, const struct fault_shot *shot)
{
	struct nc_dev	*d;

	if ((d = nc_fault_dev(cfg, shot->rnd)) == NULL ||
	    d->fault_rpc_errors == UINT16_MAX)
		return -1;
	d->fault_rpc_errors++;
	return 0;
}

int
nc_fault_rpc_error_due(struct nc_dev *d, enum nc_op op)
{
	if (d->fault_rpc_errors == 0 || op == NC_OP_CLOSE_SESSION)
		return 0;
	d->fault_rpc_errors--;
	(*metrics_counter(d->sim->m, "fault_rpc_error_answered"))++;
	return 1;
}

static void
nc_slow_free(struct nc_slow *sl)
{
	LIST_REMOVE(sl, entry);
	sl->dev->fault_slow = NULL;
	event_free(sl->ev);
	evbuffer_free(sl->held);
	free(sl);
}

/* Time's up: what the session was told late goes now, if the session is
 * still there (looked up by id: it may have ended meanwhile). */
static void
nc_slow_fire(evutil_socket_t fd, short what, void *arg)
{
	struct nc_slow	*sl = arg;
	struct nc_sess	*s;
	size_t		 len = evbuffer_get_length(sl->held);

	(void)fd;
	(void)what;
	LIST_FOREACH(s, &sl->dev->sessions, entry)
		if (s->sid == sl->sid)
			break;
	if (s != NULL && s->state < NCS_CLOSING && len > 0)
		nc_sess_write(s, evbuffer_pullup(sl->held, -1), len);
	(*metrics_counter(sl->dev->sim->m, "fault_slow_rpc_answered"))++;
	nc_slow_free(sl);
}

static void
nc_slow_append(void *arg, const void *p, size_t len)
{
	struct nc_slow	*sl = arg;

	if (evbuffer_add(sl->held, p, len) == -1)
		fatalx("slow-rpc: out of memory");
}

int
nc_fault_hold(struct nc_sess *s, enum nc_op op, const void *msg,
    size_t len)
{
	struct nc_slow	*sl = s->dev->fault_slow;
	struct timeval	 tv;

	if (sl == NULL || len == 0 || s->state >= NCS_CLOSING ||
	    (sl->sid != 0 && sl->sid != s->sid))
		return 0;
	if (op == NC_OP_CLOSE_SESSION) {
		/* Its ok must not overtake what is held: all goes now. */
		if (sl->sid != 0)
			nc_slow_fire(-1, 0, sl);
		return 0;
	}
	if (sl->sid == 0) {
		sl->sid = s->sid;
		tv.tv_sec = sl->ms / 1000;
		tv.tv_usec = (suseconds_t)(sl->ms % 1000) * 1000;
		engine_timer_add(sl->ev, &tv);
	}
	nc_frame_send(s->base11, msg, len, nc_slow_append, sl);
	return 1;
}

static int
nc_fault_slow_rpc(void *cfg, const struct fault_shot *shot)
{
	struct nc_dev	*d;
	struct nc_slow	*sl;

	if ((d = nc_fault_dev(cfg, shot->rnd)) == NULL ||
	    d->fault_slow != NULL)
		return -1;
	sl = xcalloc(1, sizeof(*sl));
	sl->dev = d;
	sl->ms = shot->arg;
	if ((sl->held = evbuffer_new()) == NULL)
		fatalx("slow-rpc: out of memory");
	sl->ev = engine_timer_new(0, nc_slow_fire, sl);
	LIST_INSERT_HEAD(&nc_slows, sl, entry);
	d->fault_slow = sl;
	return 0;
}

/* The run ends: replies still held are not sent (the devices stop). */
static void
nc_fault_stop(void *cfg)
{
	(void)cfg;
	while (!LIST_EMPTY(&nc_slows))
		nc_slow_free(LIST_FIRST(&nc_slows));
}

const struct fault_kind nc_fault_kinds[] = {
	{ "drop", NULL, 0, 0, 0, nc_fault_drop, NULL, NULL },
	{ "rpc-error", NULL, 0, 0, 0, nc_fault_rpc_error, NULL, NULL },
	{ "slow-rpc", "MS", 1, 600000, 1000, nc_fault_slow_rpc,
	    nc_fault_stop, NULL },
	FAULT_KIND_END
};
