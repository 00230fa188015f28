/*
 * The --fault kinds ovsdb devices take (src/core/fault.h, guide.md
 * "Injected faults").
 */
#include <stddef.h>
#include <stdint.h>

#include "fault.h"
#include "ovsdb_sim.h"

/* drop: the device's connection reset; it reconnects with its backoff. */
static int
ovsdb_fault_drop(void *cfg, const struct fault_shot *shot)
{
	struct ovsdb_sim	*sim = cfg;

	return fault_pool_drop(&sim->pool, shot);
}

/* delay: what the device sends held about ARG ms (fault_pool_delay()). */
static int
ovsdb_fault_delay(void *cfg, const struct fault_shot *shot)
{
	struct ovsdb_sim	*sim = cfg;

	return fault_pool_delay(&sim->pool, shot);
}

const struct fault_kind ovsdb_fault_kinds[] = {
	{ "drop", NULL, 0, 0, 0, ovsdb_fault_drop, NULL },
	{ "delay", "MS", 1, 60000, 200, ovsdb_fault_delay, NULL },
	{ NULL, NULL, 0, 0, 0, NULL, NULL }
};
