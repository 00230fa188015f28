/*
 * What a switch does with METER_MOD, a flow's METER instruction and the
 * meter multiparts (OpenFlow 1.3.5 sections 5.7, 6.6, 7.3.4.4 and
 * 7.3.5.13-15), on the per-switch table of of_meter.c.  1.0 has no
 * meters; every later version has the 1.3 format.
 */
#include "of_actions.h"
#include "of_experimenter.h"
#include "of_sim.h"

/* Flows using a deleted meter are removed with it (1.3.5 section 6.6),
 * FLOW_REMOVED METER_DELETE (DELETE in 1.3) where they asked for one. */
static void
of_meter_deleted(void *arg, uint32_t meter_id)
{
	struct of_switch	*sw = arg;
	uint64_t		 now = clock_ns();
	uint32_t		 n;

	if (sw->ft == NULL)
		return;
	n = of_flowtable_remove_if(sw->ft, of_meter_prog_names, &meter_id,
	    OF_RR_METER_DELETE, now, of_switch_flow_removed, sw);
	*sw->sim->c.flows_deleted += n;
	if (n > 0)
		of_flows_changed(sw, -(int64_t)n, now, now);
}

void
of_on_meter_mod(const struct of_ctx *c)
{
	struct of_switch	*sw = c->sw;
	struct of_counters	*cn = &sw->sim->c;
	struct of_meter_mod	 mm;
	enum of_err		 err = OF_ERR_NONE;
	uint32_t		 before;

	if (of_slave_refuse(c))
		return;
	if (sw->version == OF_VERSION_10) {
		of_refuse(c, OF_ERR_BAD_TYPE);
		return;
	}
	(*cn->meter_mods)++;
	before = of_meters_count(sw->owner->meters);
	if (of_meter_mod_decode(sw->version, c->body, &mm, &err) == -1 ||
	    of_meters_apply(&sw->owner->meters, &mm, sw->sim->cfg.max_meters,
	    clock_ns(), of_meter_deleted, sw, &err) == -1) {
		(*cn->meter_mod_errors)++;
		if (err == OF_ERR_METER_OUT_OF_METERS)
			(*cn->meters_out_of_room)++;
		of_refuse(c, err);
		return;
	}
	of_gm_changed(sw, 1, before, of_meters_count(sw->owner->meters),
	    clock_ns());
}

/* 1 (stop) at a meter id the switch lacks. */
static int
of_meter_missing(void *meters, uint32_t id)
{
	return id == 0 || id > OF_METER_MAX || !of_meters_has(meters, id);
}

/* Open vSwitch refuses a flow naming meter 0, a virtual meter or one the
 * switch lacks with METER_MOD_FAILED/INVALID_METER (check_METER,
 * ofproto_check_ofpacts), in each of a 1.5 flow's METER actions too. */
int
of_meter_flow_check(const struct of_switch *sw, const uint8_t *prog,
    size_t len, enum of_err *err)
{
	if (of_prog_each_meter(prog, len, of_meter_missing,
	    sw->owner->meters)) {
		*err = OF_ERR_METER_INVALID;
		return -1;
	}
	return 0;
}

/* One flow's meters; a 1.5 flow naming one meter twice counts once. */
struct of_meter_flow_seen {
	struct of_meters	*meters;
	uint32_t		 last;
};

static int
of_meter_count_one(void *arg, uint32_t id)
{
	struct of_meter_flow_seen	*s = arg;

	if (id != s->last)
		of_meters_flow(s->meters, id);
	s->last = id;
	return 0;
}

/* flow_count (7.3.5.13): the flows naming each meter, counted in one
 * pass (1.3 and 1.4: at most one METER instruction a flow). */
static int
of_meter_count_flow(void *meters, const uint8_t *prog, size_t len)
{
	struct of_meter_flow_seen	s = { meters, 0 };

	(void)of_prog_each_meter(prog, len, of_meter_count_one, &s);
	return 0;
}

static void
of_meter_visit(void *arg, const struct of_meter_info *mi)
{
	struct of_mp_reply	*mr = arg;

	if (mr->mp == OF_MP_METER)
		of_mp_reply_add_meter_stats(mr, mi);
	else
		of_mp_reply_add_meter_config(mr, mi);
}

/* METER and METER_CONFIG (one meter or OFPM_ALL), METER_FEATURES. */
void
of_mp_meters(const struct of_ctx *c, struct rbuf *body, enum of_mp mp)
{
	struct of_switch	*sw = c->sw;
	struct of_mp_reply	 mr;
	enum of_err		 err = OF_ERR_NONE;
	uint32_t		 want = OF_METER_ALL;

	if (mp != OF_MP_METER_FEATURES &&
	    of_mp_id_request_decode(body, &want, &err) == -1) {
		of_refuse(c, err);
		return;
	}
	if (mp == OF_MP_METER && sw->owner->meters != NULL) {
		of_meters_flows_clear(sw->owner->meters);
		if (sw->ft != NULL)
			of_flowtable_each_prog(sw->ft, of_meter_count_flow,
			    sw->owner->meters);
	}
	of_mp_reply_begin(&mr, of_scratch(), sw->version, c->h->xid, mp,
	    sw->sim->cfg.mp_max_bytes, of_mp_flush, sw);
	if (mp == OF_MP_METER_FEATURES)
		of_mp_reply_add_meter_features(&mr, sw->sim->cfg.max_meters);
	else
		of_meters_walk(sw->owner->meters, want, clock_ns(),
		    of_meter_visit, &mr);
	of_mp_reply_end(&mr);
}
