/*
 * REQUESTFORWARD (OpenFlow 1.4.1 sections 6.1.1 and 7.4.6, A.4.6): a
 * GROUP_MOD a switch took from one controller goes, as it was sent, to
 * the switch's other controllers of 1.4 or later whose async config
 * asks for it (OFPRFR_GROUP_MOD), so they learn of the change.  Meter
 * modifications would go the same way with OF_RFR_METER_MOD.
 */
#include "of_codec14.h"
#include "of_reqfwd.h"

void
of_requestforward(struct of_switch *from, const uint8_t *msg, size_t len,
    uint8_t reason)
{
	struct of_switch	*owner = from->owner, *sw;
	struct wbuf		*w;
	unsigned		 k;

	if (len > OF_MAX_MSG - OF_HEADER_LEN)
		return;		/* it cannot be wrapped in one message */
	for (k = 0; k < owner->sim->cfg.n_ctl; k++) {
		sw = of_switch_conn(owner->sim, owner->idx, k);
		if (sw == from || !of_switch_connected(sw) ||
		    sw->version < OF_VERSION_14 ||
		    !(sw->async.requestforward[of_conn_role(sw) ==
		    OF_ROLE_SLAVE] & (1u << reason)))
			continue;
		w = of_scratch();
		ofp14_requestforward_encode(w, sw->version, msg, len);
		of_switch_send(sw, w);
		(*sw->sim->c.requestforward_sent)++;
	}
}
