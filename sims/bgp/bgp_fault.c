/*
 * The --fault kinds bgp devices take (src/fault.h, guide.md
 * "Injected faults").
 */
#include <stddef.h>
#include <stdint.h>

#include "fault.h"
#include "bgp_sim.h"

/* drop: the device's connection reset; it reconnects with its backoff. */
static int
bgp_fault_drop(void *cfg, const struct fault_shot *shot)
{
	struct bgp_sim	*sim = cfg;

	return fault_pool_drop(&sim->pool, shot);
}

const struct fault_kind bgp_fault_kinds[] = {
	{ "drop", NULL, 0, 0, 0, bgp_fault_drop, NULL },
	{ NULL, NULL, 0, 0, 0, NULL, NULL }
};
