/*
 * The delegation choice of a PCC with sessions to several PCEs (see
 * pcep_deleg.h).  RFC 8231 section 5.7: a PCC delegates an LSP to one PCE
 * at a time; sections 5.7.2 and 5.7.5: when the delegate's session goes,
 * the PCC waits the Redelegation Timeout for it to come back, then may
 * delegate to another PCE (section 5.7.4: redundant PCEs).  We choose the
 * first PCE up in the given order.  A delegate keeps the LSPs while its
 * session lasts: when the primary comes back after a redelegation, the
 * LSPs stay where they are (section 5.7.2 lets the PCC revoke and
 * redelegate, it does not require it, and moving them back would cost a
 * second failover).
 */
#include <string.h>

#include "pcep_deleg.h"

void
pcep_deleg_init(struct pcep_deleg *d, unsigned n)
{
	memset(d, 0, sizeof(*d));
	d->n = (uint8_t)(n > PCEP_MAX_PCES ? PCEP_MAX_PCES : n);
	d->holder = 0;
	d->lost = PCEP_DELEG_NONE;
}

void
pcep_deleg_up(struct pcep_deleg *d, unsigned k)
{
	if (k >= d->n)
		return;
	d->up |= (uint8_t)(1u << k);
	/* Back before the Redelegation Timeout: nothing moved. */
	if (d->holder == PCEP_DELEG_NONE && d->lost == k) {
		d->holder = (uint8_t)k;
		d->lost = PCEP_DELEG_NONE;
		d->lost_ns = 0;
	}
}

int
pcep_deleg_down(struct pcep_deleg *d, unsigned k, uint64_t now)
{
	if (k >= d->n)
		return 0;
	d->up &= (uint8_t)~(1u << k);
	if (d->holder != k)
		return 0;
	d->holder = PCEP_DELEG_NONE;
	d->lost = (uint8_t)k;
	d->lost_ns = now != 0 ? now : 1;
	return 1;
}

unsigned
pcep_deleg_tick(struct pcep_deleg *d, uint64_t now, uint64_t timeout_ns)
{
	unsigned	k;

	if (d->holder != PCEP_DELEG_NONE || d->lost_ns == 0 ||
	    now - d->lost_ns < timeout_ns)
		return PCEP_DELEG_NONE;
	for (k = 0; k < d->n; k++)
		if (d->up & (1u << k)) {
			d->holder = (uint8_t)k;
			d->lost = PCEP_DELEG_NONE;
			d->lost_ns = 0;
			return k;
		}
	return PCEP_DELEG_NONE;		/* none up: wait for one */
}

int
pcep_deleg_is(const struct pcep_deleg *d, unsigned k)
{
	return d->holder != PCEP_DELEG_NONE && d->holder == k;
}
