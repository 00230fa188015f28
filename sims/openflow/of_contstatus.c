/*
 * OpenFlow 1.5's CONTROLLER_STATUS (1.5.1 section 7.4.7): when one of a
 * switch's controller connections changes (its channel goes up or down,
 * its role changes) the switch tells the other connections, each as its
 * async configuration's controller-status mask for its role lets the
 * reason through (section 7.3.10), in an ofp_controller_status with the
 * connection's URI; the CONTROLLER_STATUS multipart (section 7.3.5.17)
 * lists every controller connection of the switch (reason REQUEST).
 */
#include <stdint.h>
#include <string.h>
#include "buf.h"
#include "of_codec.h"
#include "of_sim.h"
#include "of_types.h"

#define CS_FIXED		16	/* ofp_controller_status */
#define CS_PROP_URI		0	/* OFPCSPT_URI */
#define CS_SHORT_ID_UNDEFINED	0	/* OFPCID_UNDEFINED: no ROLE_REQUEST
					   of 1.5 sets one here */
#define CS_STATUS_UP		0	/* OFPCT_STATUS_UP */
#define CS_STATUS_DOWN		1

static const char *
cs_uri(const struct of_sim *sim, unsigned ctl)
{
	return ctl == 0 ? sim->pcfg.ep.text : sim->pcfg_more[ctl - 1].ep.text;
}

/* One ofp_controller_status of connection c, with its URI property:
 * the URI NUL-filled to the next multiple of 8 bytes, those NULs counted
 * in the property's length, so that no padding follows it (Wireshark's
 * openflow_v6 reads a shorter length as a malformed packet; os_ken reads
 * either). */
static void
cs_put(struct wbuf *w, const struct of_switch *c, uint8_t reason, int up)
{
	const char	*uri = cs_uri(c->sim, c->ctl);
	size_t		 start = w->len, ulen = strlen(uri), plen;

	wbuf_put_u16(w, 0);
	wbuf_put_u16(w, CS_SHORT_ID_UNDEFINED);
	wbuf_put_u32(w, of_conn_role(c));	/* OFPCR_ROLE_*: the same */
	wbuf_put_u8(w, reason);
	wbuf_put_u8(w, up ? CS_STATUS_UP : CS_STATUS_DOWN);
	wbuf_put_zero(w, 6);
	plen = (4 + ulen + 7) / 8 * 8;
	wbuf_put_u16(w, CS_PROP_URI);
	wbuf_put_u16(w, (uint16_t)plen);
	wbuf_put_bytes(w, uri, ulen);
	wbuf_put_zero(w, plen - 4 - ulen);
	if (!w->err)
		wbuf_set_u16(w, start, (uint16_t)(w->len - start));
}

void
of_cont_status_notify(struct of_switch *sw, uint8_t reason, int up)
{
	struct of_switch	*o;
	struct wbuf		*w;
	unsigned		 k;
	size_t			 start;

	for (k = 0; k < sw->sim->cfg.n_ctl; k++) {
		o = of_switch_conn(sw->sim, sw->idx, k);
		if (o == sw || !of_switch_connected(o) ||
		    o->version < OF_VERSION_15 ||
		    !(o->async.cont_status[of_conn_role(o) == OF_ROLE_SLAVE] &
		    (1u << reason)))
			continue;
		w = of_scratch();
		start = of_msg_begin(w, o->version, OF_CONTROLLER_STATUS, 0);
		cs_put(w, sw, reason, up);
		of_msg_end(w, start);
		of_switch_send(o, w);
		(*sw->sim->c.controller_status_sent)++;
	}
}

static void
cs_entry(struct wbuf *w, uint8_t version, const void *arg)
{
	const struct of_switch	*c = arg;

	(void)version;
	cs_put(w, c, OF_CSR_REQUEST, of_switch_connected(c));
}

static void
cs_flush(void *arg, struct wbuf *w)
{
	of_switch_send(arg, w);
}

void
of_mp_cont_status(struct of_switch *sw, uint32_t xid)
{
	struct of_mp_reply	mr;
	unsigned		k;

	of_mp_reply_begin(&mr, of_scratch(), sw->version, xid,
	    OF_MP_CONTROLLER_STATUS, sw->sim->cfg.mp_max_bytes, cs_flush, sw);
	for (k = 0; k < sw->sim->cfg.n_ctl; k++)
		of_mp_reply_add_entry(&mr, OF_MP_CONTROLLER_STATUS, cs_entry,
		    of_switch_conn(sw->sim, sw->idx, k));
	of_mp_reply_end(&mr);
}
