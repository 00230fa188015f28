/*
 * The --fault kinds OpenFlow switches take (src/fault.h, guide.md
 * "Injected faults"): drop, and port-flap (a port's link goes down, then
 * up ARG ms later; each change a PORT_STATUS MODIFY, OpenFlow 1.3
 * section 7.4.3 / 1.0 section 5.4.3, with OFPPS_LINK_DOWN set, then
 * clear).
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

/* A port that is down until its timer brings it up. */
struct of_flap {
	LIST_ENTRY(of_flap)	 entry;
	struct of_switch	*sw;	/* the switch's owner connection */
	uint32_t		 port;
	struct event		*ev;
};
static LIST_HEAD(, of_flap) of_flaps = LIST_HEAD_INITIALIZER(of_flaps);

static int
of_fault_drop(void *cfg, const struct fault_shot *shot)
{
	struct of_sim	*sim = cfg;

	return fault_pool_drop(&sim->pool, shot);
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

	(void)fd;
	(void)what;
	of_port_link(f->sw, f->port, 0);
	of_flap_free(f);
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
	struct of_flap	*f;
	struct timeval	 tv;
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
	f = xcalloc(1, sizeof(*f));
	f->sw = sw;
	f->port = no;
	f->ev = evtimer_new(engine_base(), of_flap_up, f);
	LIST_INSERT_HEAD(&of_flaps, f, entry);
	of_port_link(sw, no, 1);
	tv.tv_sec = shot->arg / 1000;
	tv.tv_usec = (suseconds_t)(shot->arg % 1000) * 1000;
	evtimer_add(f->ev, &tv);
	return 0;
}

/* The run ends with ports still down: their timers go, the ports stay
 * as they are (the switches stop next). */
static void
of_fault_stop(void *cfg)
{
	(void)cfg;
	while (!LIST_EMPTY(&of_flaps))
		of_flap_free(LIST_FIRST(&of_flaps));
}

const struct fault_kind of_fault_kinds[] = {
	{ "drop", NULL, 0, 0, 0, of_fault_drop, NULL },
	{ "port-flap", "MS", 1, 3600000, 1000, of_fault_port_flap,
	    of_fault_stop },
	{ NULL, NULL, 0, 0, 0, NULL, NULL }
};
