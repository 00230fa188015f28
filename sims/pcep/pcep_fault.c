/*
 * The --fault kinds pcep devices take (src/fault.h, guide.md
 * "Injected faults").
 */
#include <stddef.h>
#include <stdint.h>

#include "fault.h"
#include "pcep_sim.h"

/* drop: the device's connection reset; it reconnects with its backoff. */
static int
pcep_fault_drop(void *cfg, const struct fault_shot *shot)
{
	struct pcep_sim	*sim = cfg;

	return fault_pool_drop(&sim->pool, shot);
}

const struct fault_kind pcep_fault_kinds[] = {
	{ "drop", NULL, 0, 0, 0, pcep_fault_drop, NULL },
	{ NULL, NULL, 0, 0, 0, NULL, NULL }
};
