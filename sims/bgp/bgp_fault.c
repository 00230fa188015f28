/*
 * The --fault kinds BGP peers take (src/fault.h, guide.md "Injected
 * faults"): drop, and session-flap (NOTIFICATION Cease, subcode
 * Administrative Reset, RFC 4486 section 3; the peer reconnects with the
 * pool's backoff and announces its prefixes again).  The monitor peer is
 * on a pool of its own and never takes a fault.
 */
#include <stddef.h>
#include <stdint.h>

#include "fault.h"
#include "bgp_sim.h"

static int
bgp_fault_drop(void *cfg, const struct fault_shot *shot)
{
	struct bgp_sim	*sim = cfg;

	return fault_pool_drop(&sim->pool, shot);
}

static int
bgp_fault_delay(void *cfg, const struct fault_shot *shot)
{
	struct bgp_sim	*sim = cfg;

	return fault_pool_delay(&sim->pool, shot);
}

/* The k-th Established peer, NULL when none. */
static struct bgp_peer *
bgp_fault_peer(struct bgp_sim *sim, uint64_t rnd)
{
	uint32_t	i, up = 0, k;

	for (i = 0; i < sim->cfg.peers; i++)
		up += sim->peers[i].state == BGPS_ESTABLISHED &&
		    sim->peers[i].closing_ns == 0;
	if (up == 0)
		return NULL;
	k = (uint32_t)(rnd % up);
	for (i = 0; i < sim->cfg.peers; i++)
		if (sim->peers[i].state == BGPS_ESTABLISHED &&
		    sim->peers[i].closing_ns == 0 && k-- == 0)
			return &sim->peers[i];
	return NULL;
}

static int
bgp_fault_session_flap(void *cfg, const struct fault_shot *shot)
{
	struct bgp_peer	*p;

	if ((p = bgp_fault_peer(cfg, shot->rnd)) == NULL)
		return -1;
	fault_dev_dropped(&p->pd, shot->now_ns);
	bgp_peer_flap(p);
	return 0;
}

const struct fault_kind bgp_fault_kinds[] = {
	{ "drop", NULL, 0, 0, 0, bgp_fault_drop, NULL },
	{ "session-flap", NULL, 0, 0, 0, bgp_fault_session_flap, NULL },
	/* What a peer sends held about ARG ms (fault_pool_delay()). */
	{ "delay", "MS", 1, 60000, 200, bgp_fault_delay, NULL },
	{ NULL, NULL, 0, 0, 0, NULL, NULL }
};
