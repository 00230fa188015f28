/*
 * The --fault kinds OpenFlow switches take (src/core/fault.h, guide.md
 * "Injected faults"): drop, and port-flap (a port's link goes down, then
 * up ARG ms later; each change a PORT_STATUS MODIFY, OpenFlow 1.3
 * section 7.4.3 / 1.0 section 5.4.3, with OFPPS_LINK_DOWN set, then
 * clear), and stall (the switch reads nothing from its controllers for
 * ARG ms: what they send meanwhile is answered when it reads again, up
 * to ARG ms late, as behind a control channel that stalls), and delay
 * (what a connection sends held about ARG ms, fault_pools_delay()).
 */
#include <sys/queue.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <event2/event.h>

#include "engine.h"
#include "fault.h"
#include "log.h"
#include "of_sim.h"

/* A port that is down until its timer brings it up (port 1..), or a
 * switch that reads nothing until its timer (port 0). */
struct of_flap {
	LIST_ENTRY(of_flap)	 entry;
	struct of_switch	*sw;	/* the switch's owner connection */
	uint32_t		 port;
	struct event		*ev;
};
static LIST_HEAD(, of_flap) of_flaps = LIST_HEAD_INITIALIZER(of_flaps);

/* drop and delay: one of the switch's connections to its (first)
 * controller. */
static struct pool *
of_fault_pools(void *cfg, unsigned *n)
{
	struct of_sim	*sim = cfg;

	*n = 1;
	return &sim->pool;
}

static void
of_flap_free(struct of_flap *f)
{
	LIST_REMOVE(f, entry);
	event_free(f->ev);
	free(f);
}

static void
of_flap_up(evutil_socket_t fd, short what, void *arg)
{
	struct of_flap	*f = arg;
	struct of_sim	*sim = f->sw->sim;
	unsigned	 k;

	(void)fd;
	(void)what;
	if (f->port != 0)
		of_port_link(f->sw, f->port, 0);
	else
		for (k = 0; k < sim->cfg.n_ctl; k++)
			of_switch_stall(of_switch_conn(sim, f->sw->idx, k), 0);
	of_flap_free(f);
}

/* The flap or stall's timer, ms from now. */
static void
of_flap_arm(struct of_switch *sw, uint32_t port, uint32_t ms)
{
	struct of_flap	*f;
	struct timeval	 tv;

	f = xcalloc(1, sizeof(*f));
	f->sw = sw;
	f->port = port;
	f->ev = engine_timer_new(0, of_flap_up, f);
	LIST_INSERT_HEAD(&of_flaps, f, entry);
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	engine_timer_add(f->ev, &tv);
}

/* The k-th connected switch (owner connections), NULL when fewer. */
static struct of_switch *
of_fault_switch(struct of_sim *sim, uint64_t rnd)
{
	uint32_t	i, up = 0, k;

	for (i = 0; i < sim->cfg.switches; i++)
		up += of_switch_connected(&sim->sw[i]);
	if (up == 0)
		return NULL;
	k = (uint32_t)(rnd % up);
	for (i = 0; i < sim->cfg.switches; i++)
		if (of_switch_connected(&sim->sw[i]) && k-- == 0)
			return &sim->sw[i];
	return NULL;
}

static int
of_fault_port_flap(void *cfg, const struct fault_shot *shot)
{
	struct of_sim	*sim = cfg;
	struct of_switch *sw;
	uint32_t	 i, no;

	if (sim->cfg.ports == 0 || (sw = of_fault_switch(sim,
	    shot->rnd & 0xffffffff)) == NULL)
		return -1;
	/* A port not already down by another flap, from a random one on. */
	for (i = 0; i < sim->cfg.ports; i++) {
		no = (uint32_t)((shot->rnd >> 32) + i) % sim->cfg.ports + 1;
		if (!of_port_link_down(sw, no))
			break;
	}
	if (i == sim->cfg.ports)
		return -1;
	of_port_link(sw, no, 1);
	of_flap_arm(sw, no, shot->arg);
	return 0;
}

static int
of_fault_stall(void *cfg, const struct fault_shot *shot)
{
	struct of_sim	*sim = cfg;
	struct of_switch *sw;
	unsigned	 k;

	if ((sw = of_fault_switch(sim, shot->rnd)) == NULL || sw->stalled)
		return -1;
	for (k = 0; k < sim->cfg.n_ctl; k++)
		of_switch_stall(of_switch_conn(sim, sw->idx, k), 1);
	of_flap_arm(sw, 0, shot->arg);
	return 0;
}

/* The run ends with ports still down or switches stalled: their timers
 * go, the ports and switches stay as they are (they stop next). */
static void
of_fault_stop(void *cfg)
{
	(void)cfg;
	while (!LIST_EMPTY(&of_flaps))
		of_flap_free(LIST_FIRST(&of_flaps));
}

const struct fault_kind of_fault_kinds[] = {
	FAULT_KIND_DROP(of_fault_pools),
	{ "port-flap", "MS", 1, 3600000, 1000, of_fault_port_flap,
	    of_fault_stop, NULL },
	{ "stall", "MS", 1, 60000, 500, of_fault_stall, of_fault_stop,
	    NULL },
	{ "link-move", NULL, 0, 0, 0, of_topo_link_move, NULL, NULL },
	FAULT_KIND_DELAY(of_fault_pools),
	FAULT_KIND_END
};
