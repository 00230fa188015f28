/*
 * The --fault kinds ovsdb devices take (src/core/fault.h, guide.md
 * "Injected faults").
 */
#include <stddef.h>
#include <stdint.h>

#include "fault.h"
#include "ovsdb_sim.h"

/* drop: the device's connection reset, it reconnects with its backoff;
 * delay: what it sends held about ARG ms; both on its one pool. */
static struct pool *
ovsdb_fault_pools(void *cfg, unsigned *n)
{
	struct ovsdb_sim	*sim = cfg;

	*n = 1;
	return &sim->pool;
}

const struct fault_kind ovsdb_fault_kinds[] = {
	FAULT_KIND_DROP(ovsdb_fault_pools),
	FAULT_KIND_DELAY(ovsdb_fault_pools),
	FAULT_KIND_END
};
