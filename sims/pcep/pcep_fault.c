/*
 * The --fault kinds PCEP PCCs take (src/core/fault.h, guide.md "Injected
 * faults"): drop; session-flap (CLOSE, RFC 5440 section 6.8, then the
 * session comes back with the pool's backoff and the PCC reports its LSPs
 * again, RFC 8231 section 5.6); pcerr (an unsolicited PCErr of type and
 * value ARG = TYPE * 256 + VALUE, RFC 5440 section 7.15, the session
 * kept); delay (what a PCC sends held about ARG ms, fault_pools_delay()).
 */
#include <stddef.h>
#include <stdint.h>

#include "fault.h"
#include "log.h"
#include "pcep_sim.h"

/* 2/0: "Capability not supported" (RFC 5440 section 7.15), one any PCE
 * takes without closing. */
#define PCEP_FAULT_PCERR_DEFAULT	(2 * 256 + 0)

/* drop and delay: a PCC's session to its (first) PCE. */
static struct pool *
pcep_fault_pools(void *cfg, unsigned *n)
{
	struct pcep_sim	*sim = cfg;

	*n = 1;
	return &sim->pool[0];
}

static int
pcep_fault_synced(const void *dev)
{
	const struct pcc	*p = dev;

	return p->state == PCCS_UP && p->synced;
}

/* A PCC whose session is up and synchronized, picked by rnd; NULL when
 * none. */
static struct pcc *
pcep_fault_pcc(struct pcep_sim *sim, uint64_t rnd)
{
	return fault_pick(sim->pccs, sim->cfg.pccs, sizeof(sim->pccs[0]),
	    pcep_fault_synced, rnd);
}

static int
pcep_fault_session_flap(void *cfg, const struct fault_shot *shot)
{
	struct pcep_sim	*sim = cfg;

	return fault_pick_flap(sim->pccs, sim->cfg.pccs, sizeof(sim->pccs[0]),
	    offsetof(struct pcc, pd), pcep_fault_synced, pcc_flap,
	    shot);
}

static int
pcep_fault_pcerr(void *cfg, const struct fault_shot *shot)
{
	struct pcep_sim	*sim = cfg;
	struct pcep_err	 err;
	struct pcc	*p;
	struct wbuf	*w;

	if ((p = pcep_fault_pcc(sim, shot->rnd)) == NULL)
		return -1;
	err.type = (uint8_t)(shot->arg >> 8);
	err.value = (uint8_t)shot->arg;
	err.close_reason = 0;
	w = pcc_scratch();
	pcep_ctlrr_simple(w, &err, 0);
	pcc_send(p, w, 1);
	(*sim->c.pcerr_sent)++;
	return 0;
}

const struct fault_kind pcep_fault_kinds[] = {
	FAULT_KIND_DROP(pcep_fault_pools),
	{ "session-flap", NULL, 0, 0, 0, pcep_fault_session_flap, NULL,
	    NULL },
	{ "pcerr", "TYPE*256+VALUE", 256, 65535, PCEP_FAULT_PCERR_DEFAULT,
	    pcep_fault_pcerr, NULL, NULL },
	FAULT_KIND_DELAY(pcep_fault_pools),
	FAULT_KIND_END
};
