/*
 * The --fault kinds NETCONF devices take (src/fault.h, guide.md
 * "Injected faults"): rpc-error, the next RPC a device is sent (on any of
 * its sessions, close-session aside) answered with an rpc-error,
 * operation-failed of type application (RFC 6241 section 4.3), instead of
 * what it asked.  The devices listen and hold their sessions themselves
 * (no drop through the pool).
 */
#include <stddef.h>
#include <stdint.h>

#include "fault.h"
#include "nc_sim.h"

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

const struct fault_kind nc_fault_kinds[] = {
	{ "rpc-error", NULL, 0, 0, 0, nc_fault_rpc_error, NULL },
	{ NULL, NULL, 0, 0, 0, NULL, NULL }
};
