/*
 * The --fault kinds BGP peers take (src/core/fault.h, guide.md "Injected
 * faults"): drop, and session-flap (NOTIFICATION Cease, subcode
 * Administrative Reset, RFC 4486 section 3; the peer reconnects with the
 * pool's backoff and announces its prefixes again) and churn (a peer
 * withdraws some of its prefixes and announces them again, RFC 4271
 * section 4.3).  With several speakers each takes any peer's session to
 * any speaker.  The monitor peer is on a pool of its own and never takes
 * a fault.
 */
#include <stddef.h>
#include <stdint.h>

#include "fault.h"
#include "bgp_sim.h"

#define BGP_CHURN_DEFAULT	10	/* prefixes, without /N */
#define BGP_CHURN_MAX		100000

/* drop and delay: a peer's session to any speaker (fault_pools_drop()
 * tries each). */
static struct pool *
bgp_fault_pools(void *cfg, unsigned *n)
{
	struct bgp_sim	*sim = cfg;

	*n = sim->cfg.n_spk;
	return sim->pool;
}

static int
bgp_fault_established(const void *dev)
{
	const struct bgp_peer	*p = dev;

	return p->state == BGPS_ESTABLISHED && p->closing_ns == 0;
}

/* An Established peer picked by rnd. */
static int
bgp_fault_session_flap(void *cfg, const struct fault_shot *shot)
{
	struct bgp_sim	*sim = cfg;

	return fault_pick_flap(sim->peers, sim->n_sess, sizeof(sim->peers[0]),
	    offsetof(struct bgp_peer, pd), bgp_fault_established,
	    bgp_peer_flap, shot);
}

/* A session picked among those that can churn now: Established, every
 * announcement sent, no withdrawal begun (bgp_peer_churn_fault). */
static int
bgp_fault_churn(void *cfg, const struct fault_shot *shot)
{
	struct bgp_sim	*sim = cfg;
	uint32_t	 i, n = sim->n_sess;

	for (i = 0; i < n; i++)
		if (bgp_peer_churn_fault(&sim->peers[(shot->rnd + i) % n],
		    shot->arg, shot->rnd / n) > 0)
			return 0;
	return -1;
}

const struct fault_kind bgp_fault_kinds[] = {
	FAULT_KIND_DROP(bgp_fault_pools),
	{ "session-flap", NULL, 0, 0, 0, bgp_fault_session_flap, NULL,
	    NULL },
	{ "churn", "N", 1, BGP_CHURN_MAX, BGP_CHURN_DEFAULT, bgp_fault_churn,
	    NULL, NULL },
	/* What a peer sends held about ARG ms. */
	FAULT_KIND_DELAY(bgp_fault_pools),
	FAULT_KIND_END
};
