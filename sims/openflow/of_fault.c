/*
 * The --fault kinds openflow devices take (src/fault.h, guide.md
 * "Injected faults").
 */
#include <stddef.h>
#include <stdint.h>

#include "fault.h"
#include "of_sim.h"

/* drop: the device's connection reset; it reconnects with its backoff. */
static int
of_fault_drop(void *cfg, const struct fault_shot *shot)
{
	struct of_sim	*sim = cfg;

	return fault_pool_drop(&sim->pool, shot);
}

const struct fault_kind of_fault_kinds[] = {
	{ "drop", NULL, 0, 0, 0, of_fault_drop },
	{ NULL, NULL, 0, 0, 0, NULL }
};
