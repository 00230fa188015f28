/*
 * What a switch does with each controller-to-switch message (OpenFlow
 * 1.3.5 section 7.3, 1.0.0 section 5.3).  Anything a switch does not take
 * gets the ERROR a real one sends; the session always carries on.
 */
#include <stdio.h>
#include <string.h>

#include "hash.h"
#include "log.h"
#include "of_actions.h"
#include "of_codec14.h"
#include "of_bundle.h"
#include "of_experimenter.h"
#include "of_monitor.h"
#include "of_reqfwd.h"
#include "of_nx.h"
#include "of_nx_tlv.h"
#include "of_sim.h"
#include "of_vacancy.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

#define OF_NO_BUFFER		0xffffffffu
#define OF_CAPABILITIES		0x00000007u	/* flow, table, port stats */
#define OF10_ACTIONS		0x00000fffu	/* all 1.0 actions */
#define OF_PPF_10GB_FD		(1u << 6)	/* 1.3 port feature bits */
#define OF_PPF_COPPER		(1u << 11)
#define OF10_PPF_10GB_FD	(1u << 6)
#define OF10_PPF_COPPER		(1u << 7)
#define OF_PS_LIVE		(1u << 2)	/* 1.3 port state */
#define OF_PC_PORT_DOWN		(1u << 0)

static void
of_reply(struct of_switch *sw, struct wbuf *w)
{
	of_switch_send(sw, w);
}

void
of_refuse(const struct of_ctx *c, enum of_err err)
{
	of_switch_error(c->sw, c->h->xid, err, c->msg, c->h->length);
}

/* A slave may only read (1.3.5 section 6.3.6): PACKET_OUT, FLOW_MOD,
 * GROUP_MOD, PORT_MOD, TABLE_MOD, METER_MOD and TABLE_FEATURES with a
 * body get BAD_REQUEST/IS_SLAVE (the writes column of of_handlers). */
int
of_slave_refuse(const struct of_ctx *c)
{
	if (of_conn_role(c->sw) != OF_ROLE_SLAVE)
		return 0;
	(*c->sw->sim->c.is_slave_refused)++;
	of_refuse(c, OF_ERR_IS_SLAVE);
	return 1;
}

/* Port i (1-based) of a switch: addresses and names derived from the dpid. */
void
of_port_fill(const struct of_switch *sw, uint32_t no, struct of_port *p)
{
	uint64_t	dpid = sw->sim->cfg.dpid_base + sw->idx;
	int		v13 = of_v13plus(sw->version);

	memset(p, 0, sizeof(*p));
	p->port_no = no;
	p->hw_addr[0] = 0x02;		/* locally administered */
	p->hw_addr[1] = (uint8_t)(dpid >> 24);
	p->hw_addr[2] = (uint8_t)(dpid >> 16);
	p->hw_addr[3] = (uint8_t)(dpid >> 8);
	p->hw_addr[4] = (uint8_t)dpid;
	p->hw_addr[5] = (uint8_t)no;
	snprintf(p->name, sizeof(p->name), "s%u-eth%u", sw->idx + 1, no);
	p->config = sw->ports[no - 1].config;
	p->state = sw->ports[no - 1].state;
	/* LIVE (fast failover may use it) only while the link is up. */
	if (v13 && !(p->state & OF_PS_LINK_DOWN))
		p->state |= OF_PS_LIVE;
	p->curr = v13 ? OF_PPF_10GB_FD | OF_PPF_COPPER :
	    OF10_PPF_10GB_FD | OF10_PPF_COPPER;
	p->advertised = p->supported = p->curr;
	p->curr_speed = p->max_speed = 10000000;
}

static void
of_on_echo_request(const struct of_ctx *c)
{
	struct wbuf	*w = of_scratch();

	of_echo_encode(w, c->sw->version, OF_ECHO_REPLY, c->h->xid,
	    rbuf_ptr(c->body), rbuf_left(c->body));
	of_reply(c->sw, w);
}

static void
of_on_echo_reply(const struct of_ctx *c)
{
	if (c->h->xid == c->sw->echo_xid)
		(*c->sw->sim->c.echo_rtt_samples)++;
}

static void
of_on_error(const struct of_ctx *c)
{
	uint16_t	type = 0, code = 0;

	of_error_decode(c->body, &type, &code);
	(*c->sw->sim->c.errors_received)++;
	if ((c->sw->logged & 0x80000000u) == 0) {
		c->sw->logged |= 0x80000000u;
		log_info("switch %u: controller sent ERROR type %u code %u "
		    "(further ones counted, not logged)", c->sw->idx, type,
		    code);
	}
}

static void
of_on_features_request(const struct of_ctx *c)
{
	struct of_switch	*sw = c->sw;
	struct of_features	 f;
	struct of_port		 ports[64];
	struct wbuf		*w = of_scratch();
	uint32_t		 i, n = 0;

	memset(&f, 0, sizeof(f));
	f.datapath_id = sw->sim->cfg.dpid_base + sw->idx;
	f.n_buffers = 256;
	f.n_tables = sw->sim->cfg.tables;
	f.capabilities = OF_CAPABILITIES;
	f.actions = OF10_ACTIONS;
	/* 1.0 lists the ports here; a reply must fit in one message. */
	if (sw->version == OF_VERSION_10)
		for (i = 1; i <= sw->sim->cfg.ports && n < 64; i++)
			of_port_fill(sw, i, &ports[n++]);
	of_features_reply_encode(w, sw->version, c->h->xid, &f, ports, n);
	of_reply(sw, w);
}

static void
of_on_get_config(const struct of_ctx *c)
{
	struct wbuf	*w = of_scratch();

	of_switch_config_encode(w, c->sw->version, OF_GET_CONFIG_REPLY,
	    c->h->xid, c->sw->config_flags, c->sw->miss_send_len);
	of_reply(c->sw, w);
}

static void
of_on_set_config(const struct of_ctx *c)
{
	uint16_t	flags, miss;

	if (of_switch_config_decode(c->body, &flags, &miss) == -1) {
		of_refuse(c, OF_ERR_BAD_LEN);
		return;
	}
	c->sw->config_flags = flags;
	c->sw->miss_send_len = miss;
}

static int
of_is_lldp(const uint8_t *data, size_t len)
{
	size_t	off = 12;

	if (len < 14)
		return 0;
	if (data[off] == 0x81 && data[off + 1] == 0x00 && len >= 18)
		off += 4;		/* one 802.1Q tag */
	return data[off] == 0x88 && data[off + 1] == 0xcc;
}

/* A port carries packets when its link is up and it is not
 * administratively down (PORT_MOD, a port-flap fault). */
static int
of_port_live(void *arg, uint32_t no)
{
	const struct of_switch	*sw = arg;

	if (no == 0 || no > sw->sim->cfg.ports)
		return 0;
	return !of_port_link_down(sw, no) &&
	    !(sw->ports[no - 1].config & OF_PC_PORT_DOWN);
}

/* A PACKET_OUT's GROUP actions send the packet through the groups'
 * buckets (counted there, of_group.c); an LLDP frame reaches the peers of
 * the ports the buckets chose.  -1: a GROUP action names no group. */
static int
of_packet_out_groups(struct of_switch *sw, const struct of_packet_out *po,
    enum of_err *err)
{
	struct of_group_packet	pk;
	uint32_t		ports[64];
	int			n;

	if (sw->version != OF_VERSION_13)
		return 0;
	memset(&pk, 0, sizeof(pk));
	pk.port_live = of_port_live;
	pk.arg = sw;
	pk.hash = fnv1a_bytes(FNV_SEED, po->data,
	    po->data_len < 14 ? po->data_len : 14);	/* Ethernet header */
	pk.bytes = (uint32_t)po->data_len;
	pk.ports = ports;
	pk.max = sizeof(ports) / sizeof(ports[0]);
	if ((n = of_groups_send(sw->owner->groups, po->actions,
	    po->actions_len, &pk, err)) <= 0)
		return n;
	(*sw->sim->c.group_packets)++;
	if (pk.truncated)
		(*sw->sim->c.group_packets_truncated)++;
	if (of_is_lldp(po->data, po->data_len))
		of_lldp_out_ports(sw, po, ports, (int)pk.n);
	return 0;
}

static void
of_on_packet_out(const struct of_ctx *c)
{
	struct of_switch	*sw = c->sw;
	struct of_packet_out	 po;
	enum of_err		 err = OF_ERR_NONE;

	if (of_packet_out_decode(sw->version, c->body, &po, &err) == -1 ||
	    of_actions_validate(sw->version, po.actions, po.actions_len,
	    sw->sim->cfg.ports, &err) == -1 ||
	    of_packet_out_groups(sw, &po, &err) == -1) {
		of_refuse(c, err);
		return;
	}
	(*sw->sim->c.packet_outs)++;
	if (po.buffer_id != OF_NO_BUFFER)
		of_pktin_response(sw, po.buffer_id, clock_ns());
	if (of_is_lldp(po.data, po.data_len))
		of_lldp_forward(sw, &po);
}

/*
 * Flow counts moved by delta: drives the program, confirm and delete
 * phases (see of_main.c for when each completes).  A window opens at the
 * arrival of its first FLOW_MOD (the kernel's receive time of the read
 * that brought it, of_rxpeek) and its items
 * count when handled, the moment a following BARRIER_REQUEST would be
 * answered (docs/report.md, "Phase windows").
 */
void
of_flows_changed(struct of_switch *sw, int64_t delta, uint64_t now,
    uint64_t arrived)
{
	struct of_sim	*sim = sw->sim;
	struct phase	*prog = sim->ph[OFP_PROGRAM];
	struct phase	*del = sim->ph[OFP_DELETE];
	uint64_t	 n;

	sim->total_flows += delta;
	if (sw->owner->vacancy != NULL)
		of_vacancy_check(sw->owner);
	if (delta > 0) {
		if (prog->state == PHASE_PENDING) {
			phase_start(prog, arrived);
			/* Confirm is timed from the same trigger: how long
			 * until the controller has read every flow back. */
			if (sim->ph[OFP_CONFIRM] != NULL)
				phase_start(sim->ph[OFP_CONFIRM], arrived);
		}
		if (prog->state != PHASE_RUNNING)
			return;
		phase_items(prog, now, (uint64_t)delta);
		phase_latency(prog, (now - sw->up_ns) / 1000);
		if (prog->state == PHASE_DONE)
			of_rxpeek_all(sim);
		return;
	}
	if (delta == 0 || prog->state == PHASE_PENDING)
		return;
	n = (uint64_t)-delta;
	/* The table already lost the n flows. */
	if (sw->owner->confirmed < of_flowtable_total(sw->ft) + n)
		sim->confirm_lost = 1;
	if (sw->owner->confirmed > of_flowtable_total(sw->ft))
		sw->owner->confirmed = of_flowtable_total(sw->ft);
	if (del->state == PHASE_PENDING &&
	    (prog->state == PHASE_DONE || sim->cfg.expect_flows == 0))
		phase_start(del, arrived);
	if (del->state == PHASE_RUNNING) {
		phase_items(del, now, n);
		phase_latency(del, (now - del->trigger_ns) / 1000);
	}
}

int
of_flow_mod_validate(struct of_switch *sw, const struct of_flow_mod *fm,
    enum of_err *err)
{
	if (fm->command == OF_FC_DELETE || fm->command == OF_FC_DELETE_STRICT)
		return 0;
	/* The table first: a bad table id is what the controller must hear
	 * about, not the instructions that name it. */
	if (fm->table_id >= sw->sim->cfg.tables) {
		*err = OF_ERR_FLOW_BAD_TABLE_ID;
		return -1;
	}
	if (of_v13plus(sw->version))
		return of_instructions_check_ver(sw->version, fm->prog,
		    fm->prog_len, fm->table_id, sw->sim->cfg.tables,
		    sw->sim->cfg.ports, 1, sw->owner->groups, err) == -1 ? -1 :
		    of_meter_flow_check(sw, fm->prog, fm->prog_len, err);
	return of_actions_validate(sw->version, fm->prog, fm->prog_len,
	    sw->sim->cfg.ports, err);
}

static void
of_on_flow_mod(const struct of_ctx *c)
{
	struct of_flow_mod	 fm;
	enum of_err		 err = OF_ERR_NONE;
	int			 ok;

	ok = of_flow_mod_decode(c->sw->version, c->body, &fm, &err) == 0;
	if (ok)
		of_nx_flow_mod10_table(c, &fm);		/* of_nx.c */
	of_flow_mod_take(c, ok ? &fm : NULL, err);
}

void
of_flow_mod_take(const struct of_ctx *c, const struct of_flow_mod *fm,
    enum of_err err)
{
	struct of_switch	*sw = c->sw;
	struct of_counters	*cn = &sw->sim->c;
	struct of_ft_result	 res;
	uint64_t		 now = clock_ns();

	(*cn->flow_mods)++;
	memset(&res, 0, sizeof(res));
	/* Flow monitors with ONLY_OWN hear whose change it was. */
	sw->owner->mon_origin = sw;
	if (fm == NULL || of_flow_mod_validate(sw, fm, &err) == -1 ||
	    of_flowtable_apply(sw->ft, fm, now, of_switch_flow_removed, sw, &res,
	    &err) == -1) {
		sw->owner->mon_origin = NULL;
		(*cn->flow_mod_errors)++;
		of_refuse(c, err);
		return;
	}
	sw->owner->mon_origin = NULL;
	of_switch_flow_mod_taken(sw, now);
	of_switch_timed(sw->owner);
	if (fm->buffer_id != OF_NO_BUFFER && fm->command <= OF_FC_MODIFY_STRICT)
		of_pktin_response(sw, fm->buffer_id, now);
	of_flows_account(sw, &res, now);
}

/* Flows a FLOW_MOD (or a bundle's commit) changed: counters, phases. */
void
of_flows_account(struct of_switch *sw, const struct of_ft_result *res,
    uint64_t now)
{
	struct of_counters	*cn = &sw->sim->c;

	*cn->flows_added += res->added;
	*cn->flows_modified += res->modified;
	*cn->flows_deleted += res->deleted;
	if (res->added > 0)
		of_flows_changed(sw, res->added, now, sw->arrived_ns);
	if (res->deleted > 0)
		of_flows_changed(sw, -(int64_t)res->deleted, now,
		    sw->arrived_ns);
}

/* The flows whose actions name a deleted group go with it (1.3.5
 * section 6.5), FLOW_REMOVED reason GROUP_DELETE (7.4.2) to those that
 * asked: taken from the group's own list, no pass over the table.  In a
 * bundle's commit the flow table's transaction holds them (of_bundle.c). */
int
of_group_flows_delete(struct of_switch *sw, uint32_t group_id, uint64_t now,
    struct of_ft_result *res)
{
	struct of_groups	*gt = sw->owner->groups;
	void			*f, *last = NULL;

	memset(res, 0, sizeof(*res));
	if (sw->ft == NULL)
		return -1;
	/* Each removal takes the flow off the list (the table's off hook);
	 * the same flow twice would mean it did not. */
	while ((f = of_groups_flow(gt, group_id)) != NULL && f != last) {
		last = f;
		of_flowtable_remove(sw->ft, f, now, OF_RR_GROUP_DELETE,
		    of_switch_flow_removed, sw);
		res->deleted++;
	}
	return 0;
}

static void
of_group_deleted(void *arg, uint32_t group_id)
{
	struct of_switch	*sw = arg;
	struct of_ft_result	 res;
	uint64_t		 now = clock_ns();

	if (of_group_flows_delete(sw, group_id, now, &res) == -1)
		return;
	*sw->sim->c.flows_deleted += res.deleted;
	if (res.deleted > 0)
		of_flows_changed(sw, -(int64_t)res.deleted, now, now);
}

/* Once the switch has a group table, its flow table tells it of the
 * flows naming groups (of_groups_ft_refs()): flows taken before could
 * name none.  The flow table is made anew on a new version.  A bundle's
 * rollback puts an older table back (or none): replay tells it of every
 * flow again. */
void
of_groups_watch_flows(struct of_switch *sw, int replay)
{
	if (sw->ft == NULL)
		return;
	of_flowtable_set_refs(sw->ft, sw->owner->groups != NULL ?
	    of_groups_ft_refs(sw->owner->groups) : NULL);
	if (replay)
		of_flowtable_refs_replay(sw->ft);
}

/* 1.5's buckets carry ids and properties (of_codec14.c): converted
 * into 1.3's form in a buffer of their own, big enough for any message
 * (a 1.5 bucket is 8 bytes at least, its 1.3 form 8 more). */
int
of_group_mod_any_decode(uint8_t version, const struct of_groups *gt,
    struct rbuf *body, struct of_group_mod *gm, enum of_err *err)
{
	static uint8_t	b13[2 * OF_MAX_MSG], edit[2 * OF_MAX_MSG];
	struct wbuf	w;

	if (version < OF_VERSION_15)
		return of_group_mod_decode(body, gm, err);
	wbuf_init(&w, b13, sizeof(b13));
	if (of_group_mod15_decode(body, gm, &w, err) == -1)
		return -1;
	wbuf_init(&w, edit, sizeof(edit));
	return of_group15_edit(gt, gm, &w, err);
}

/* GROUP_MOD (1.3.5 section 7.3.4.2); 1.0 has no groups. */
static void
of_on_group_mod(const struct of_ctx *c)
{
	struct of_switch	*sw = c->sw;
	struct of_counters	*cn = &sw->sim->c;
	struct of_group_mod	 gm;
	struct of_group_limits	 lim;
	enum of_err		 err = OF_ERR_NONE;
	uint32_t		 before;

	if (!of_v13plus(sw->version)) {
		of_refuse(c, OF_ERR_BAD_TYPE);
		return;
	}
	(*cn->group_mods)++;
	lim.n_ports = sw->sim->cfg.ports;
	lim.max_groups = sw->sim->cfg.max_groups;
	before = of_groups_count(sw->owner->groups);
	lim.max_depth = sw->sim->cfg.max_group_depth;
	if (of_group_mod_any_decode(sw->version, sw->owner->groups, c->body,
	    &gm, &err) == -1 ||
	    of_groups_apply(&sw->owner->groups, &gm, &lim, clock_ns(),
	    of_group_deleted, sw, &err) == -1) {
		(*cn->group_mod_errors)++;
		if (err == OF_ERR_GROUP_OUT_OF_GROUPS)
			(*cn->groups_out_of_room)++;
		if (err == OF_ERR_GROUP_CHAINING)
			(*cn->groups_too_deep)++;
		of_refuse(c, err);
		return;
	}
	if (sw->sim->cfg.n_ctl > 1)
		of_requestforward(sw, c->msg, c->h->length, OF_RFR_GROUP_MOD);
	of_groups_watch_flows(sw, 0);
	of_gm_changed(sw, 0, before, of_groups_count(sw->owner->groups),
	    clock_ns());
}

/* PORT_STATUS is asynchronous: each controller's async config may mask
 * it (1.3 section 7.3.10; 1.0 has no SET_ASYNC, the default passes). */
static void
of_port_status_to(struct of_switch *sw, const struct of_port *p)
{
	struct wbuf	*w;

	if (!of_switch_connected(sw) ||
	    (sw->async.port_status[of_conn_role(sw) == OF_ROLE_SLAVE] &
	    (1u << OF_PR_MODIFY)) == 0)
		return;
	w = of_scratch();
	of_port_status_encode(w, sw->version, 0, OF_PR_MODIFY, p);
	of_reply(sw, w);
}

int
of_port_link_down(const struct of_switch *sw, uint32_t no)
{
	return (sw->ports[no - 1].state & OF_PS_LINK_DOWN) != 0;
}

void
of_port_link(struct of_switch *sw, uint32_t no, int down)
{
	struct of_port	p;
	unsigned	k;

	if (down)
		sw->ports[no - 1].state |= OF_PS_LINK_DOWN;
	else
		sw->ports[no - 1].state &= ~OF_PS_LINK_DOWN;
	of_port_fill(sw, no, &p);
	for (k = 0; k < sw->sim->cfg.n_ctl; k++)
		of_port_status_to(of_switch_conn(sw->sim, sw->idx, k), &p);
}

/* A PORT_MOD's body decoded and checked against the ports: 0, or -1
 * with *err. */
int
of_port_mod_check(struct of_switch *sw, struct rbuf *body,
    struct of_port_mod *pm, enum of_err *err)
{
	struct of_port	p;

	if (of_port_mod_decode(sw->version, body, pm, err) == -1)
		return -1;
	if (pm->port_no == 0 || pm->port_no > sw->sim->cfg.ports) {
		*err = OF_ERR_PORT_MOD_BAD_PORT;
		return -1;
	}
	of_port_fill(sw, pm->port_no, &p);
	if (memcmp(p.hw_addr, pm->hw_addr, sizeof(p.hw_addr)) != 0) {
		*err = OF_ERR_PORT_MOD_BAD_HW_ADDR;
		return -1;
	}
	return 0;
}

static void
of_on_port_mod(const struct of_ctx *c)
{
	struct of_port_mod	pm;
	enum of_err		err = OF_ERR_NONE;

	if (of_port_mod_check(c->sw, c->body, &pm, &err) == -1) {
		of_refuse(c, err);
		return;
	}
	of_port_mod_apply(c->sw, &pm);
}

/* A checked PORT_MOD: the config bits it masks, a PORT_STATUS when
 * they changed. */
void
of_port_mod_apply(struct of_switch *sw, const struct of_port_mod *m)
{
	struct of_port_mod	pm = *m;
	struct of_port		p;
	uint32_t		old;
	unsigned		k;

	old = sw->ports[pm.port_no - 1].config;
	sw->ports[pm.port_no - 1].config = (old & ~pm.mask) |
	    (pm.config & pm.mask);
	if (sw->ports[pm.port_no - 1].config == old)
		return;
	/* An administratively downed port reports its link down too. */
	if (sw->ports[pm.port_no - 1].config & OF_PC_PORT_DOWN)
		sw->ports[pm.port_no - 1].state |= OF_PS_LINK_DOWN;
	else
		sw->ports[pm.port_no - 1].state &= ~OF_PS_LINK_DOWN;
	of_port_fill(sw, pm.port_no, &p);
	for (k = 0; k < sw->sim->cfg.n_ctl; k++)
		of_port_status_to(of_switch_conn(sw->sim, sw->idx, k), &p);
}

static void
of_on_barrier(const struct of_ctx *c)
{
	struct wbuf	*w = of_scratch();

	/* Messages are applied in order as they arrive: all are done. */
	(*c->sw->sim->c.barriers)++;
	of_simple_encode(w, c->sw->version, OF_BARRIER_REPLY, c->h->xid);
	of_reply(c->sw, w);
}

static void
of_on_queue_get_config(const struct of_ctx *c)
{
	struct wbuf	*w;
	uint32_t	 port;
	enum of_err	 err = OF_ERR_NONE;

	if (of_queue_get_config_decode(c->sw->version, c->body, &port,
	    &err) == -1) {
		of_refuse(c, err);
		return;
	}
	w = of_scratch();
	of_queue_get_config_reply_encode(w, c->sw->version, c->h->xid, port);
	of_reply(c->sw, w);
}

/*
 * ROLE_REQUEST (1.3.5 section 6.3.6, A.3.9): generation ids order master
 * claims; the reply carries the role and the generation id held.
 */
static void
of_on_role(const struct of_ctx *c)
{
	struct of_switch	*sw = c->sw;
	const struct of_roles	*r = &sw->owner->roles;
	struct wbuf		*w;
	uint32_t		 role;
	uint64_t		 gen;
	enum of_err		 err = OF_ERR_NONE;

	if (of_role_decode(c->body, &role, &gen, &err) == -1 ||
	    of_switch_role(sw, role, gen, &err) == -1) {
		of_refuse(c, err);
		return;
	}
	w = of_scratch();
	of_role_encode(w, sw->version, OF_ROLE_REPLY, c->h->xid,
	    of_conn_role(sw), r->gen_valid ? r->generation : 0);
	of_reply(sw, w);
}

static void
of_on_get_async(const struct of_ctx *c)
{
	struct wbuf	*w = of_scratch();

	of_async_encode(w, c->sw->version, OF_GET_ASYNC_REPLY, c->h->xid,
	    &c->sw->async);
	of_reply(c->sw, w);
}

static void
of_on_set_async(const struct of_ctx *c)
{
	struct of_async	a = c->sw->async;
	enum of_err	err = OF_ERR_NONE;

	if (of_async_decode(c->sw->version, c->body, &a, &err) == -1) {
		of_refuse(c, err);
		return;
	}
	c->sw->async = a;
}

/* Multipart replies go out as they fill (several with the MORE flag). */
void
of_mp_flush(void *arg, struct wbuf *w)
{
	of_switch_send(arg, w);
}

void
of_mp_reply_for(const struct of_ctx *c, struct of_mp_reply *mr,
    enum of_mp mp)
{
	struct of_switch	*sw = c->sw;

	of_mp_reply_begin(mr, of_scratch(), sw->version, c->h->xid, mp,
	    sw->sim->cfg.mp_max_bytes, of_mp_flush, sw);
}

struct of_flow_walk {
	struct of_mp_reply	*mr;
	int			 instructions;
	uint64_t		 n;
};

/* A flow in the form of the reply: FLOW (1.5: FLOW_DESC), 1.5's
 * FLOW_STATS, or a 1.4 FLOW_MONITOR INITIAL update. */
static int
of_flow_visit(void *arg, const struct of_flow_info *fi)
{
	struct of_flow_walk	*fw = arg;

	fw->n++;
	switch (fw->mr->mp) {
	case OF_MP_FLOW_STATS:
		return of_mp_reply_add_flow_stats15(fw->mr, fi) == -1;
	case OF_MP_FLOW_MONITOR:
		return of_mp_reply_add_flow_update(fw->mr, OF_FME_INITIAL, fi,
		    fw->instructions) == -1;
	default:
		return of_mp_reply_add_flow(fw->mr, fi) == -1;
	}
}

uint64_t
of_mp_reply_flows(struct of_switch *sw, struct of_mp_reply *mr,
    const struct of_flow_filter *f, uint64_t now, int instructions)
{
	struct of_flow_walk	fw = { mr, instructions, 0 };

	of_flowtable_walk(sw->ft, f, now, of_flow_visit, &fw);
	return fw.n;
}

/* The controller has now seen n flows of this switch in stats: confirm. */
static void
of_confirm(struct of_switch *sw, const struct of_flow_filter *f, uint64_t n,
    uint64_t now)
{
	struct phase	*conf = sw->sim->ph[OFP_CONFIRM];

	if (conf == NULL || conf->state != PHASE_RUNNING ||
	    f->table_id != OF_TABLE_ALL ||
	    f->match.len != 0 || f->cookie_mask != 0 ||
	    n <= sw->owner->confirmed)
		return;
	phase_items(conf, now, n - sw->owner->confirmed);
	phase_latency(conf, (now - conf->trigger_ns) / 1000);
	sw->owner->confirmed = n;
}

/* The body of a FLOW or AGGREGATE request, refused when bad. */
static int
of_flow_filter_decode(const struct of_ctx *c, struct rbuf *body,
    struct of_flow_filter *f)
{
	enum of_err	err = OF_ERR_NONE;

	if (of_flow_stats_request_decode(c->sw->version, body, f, &err) == -1) {
		of_refuse(c, err);
		return -1;
	}
	if (f->table_id != OF_TABLE_ALL &&
	    f->table_id >= c->sw->sim->cfg.tables) {
		of_refuse(c, OF_ERR_BAD_TABLE_ID);
		return -1;
	}
	return 0;
}

/* FLOW (1.5: FLOW_DESC) and 1.5's FLOW_STATS: one walk, two forms. */
static void
of_mp_flow(const struct of_ctx *c, struct rbuf *body, enum of_mp mp)
{
	struct of_switch	*sw = c->sw;
	struct of_flow_filter	 f;
	struct of_mp_reply	 mr;
	uint64_t		 now = clock_ns(), n;

	if (of_flow_filter_decode(c, body, &f) == -1)
		return;
	of_mp_reply_for(c, &mr, mp);
	n = of_mp_reply_flows(sw, &mr, &f, now, 0);
	of_mp_reply_end(&mr);
	of_confirm(sw, &f, n, now);
}

static void
of_mp_aggregate(const struct of_ctx *c, struct rbuf *body)
{
	struct of_switch	*sw = c->sw;
	struct of_flow_filter	 f;
	uint64_t		 packets, bytes;
	uint32_t		 flows;
	struct wbuf		*w;

	if (of_flow_filter_decode(c, body, &f) == -1)
		return;
	of_flowtable_aggregate(sw->ft, &f, &packets, &bytes, &flows);
	w = of_scratch();
	of_mp_aggregate_encode(w, sw->version, c->h->xid, packets, bytes,
	    flows);
	of_reply(sw, w);
}

void
of_mp_reply_tables(const struct of_ctx *c, enum of_mp mp, of_mp_table_fn add)
{
	struct of_mp_reply	mr;
	unsigned		t;

	of_mp_reply_for(c, &mr, mp);
	for (t = 0; t < c->sw->sim->cfg.tables; t++)
		add(c->sw, &mr, (uint8_t)t);
	of_mp_reply_end(&mr);
}

static void
of_table_stats_add(struct of_switch *sw, struct of_mp_reply *mr, uint8_t t)
{
	struct of_table_stats	ts;

	memset(&ts, 0, sizeof(ts));
	ts.table_id = t;
	ts.active_count = of_flowtable_count(sw->ft, t);
	/* lookup_count, matched_count: 0, no traffic is simulated */
	ts.max_entries = sw->sim->cfg.table_size;
	of_mp_reply_add_table(mr, &ts);
}

static void
of_table_features_add(struct of_switch *sw, struct of_mp_reply *mr,
    uint8_t t)
{
	of_mp_reply_add_table_features(mr, t, sw->sim->cfg.tables,
	    sw->sim->cfg.table_size);
}

/* The pipeline is fixed: a request that would set features (a non-empty
 * body, 1.3 section 7.3.5.5.1) is answered with the features as they are,
 * as a switch that cannot change them. */
static void
of_mp_table_features(const struct of_ctx *c, struct rbuf *body)
{
	enum of_err	err = OF_ERR_NONE;

	/* A body would set them: a write (1.3.5 section 6.3.6). */
	if (rbuf_left(body) > 0 && of_slave_refuse(c))
		return;
	if (c->sw->version >= OF_VERSION_15 &&
	    ofp15_table_features_check(body, &err) == -1) {
		of_refuse(c, err);
		return;
	}
	of_mp_reply_tables(c, OF_MP_TABLE_FEATURES, of_table_features_add);
}

static void
of_mp_ports(const struct of_ctx *c, struct rbuf *body, enum of_mp mp)
{
	struct of_switch	*sw = c->sw;
	struct of_mp_reply	 mr;
	struct of_port_stats	 ps;
	struct of_port		 p;
	enum of_err		 err = OF_ERR_NONE;
	uint32_t		 want = OF_PORT_ANY, i;
	uint64_t		 up = clock_ns() - sw->up_ns;

	/* 1.5's PORT_DESC request names a port too (1.5.1 7.3.5.7). */
	if ((mp == OF_MP_PORT_STATS || (mp == OF_MP_PORT_DESC &&
	    sw->version >= OF_VERSION_15)) && of_port_stats_request_decode(
	    sw->version, body, &want, &err) == -1) {
		of_refuse(c, err);
		return;
	}
	if (want != OF_PORT_ANY && (want == 0 || want > sw->sim->cfg.ports)) {
		of_refuse(c, OF_ERR_BAD_PORT);
		return;
	}
	of_mp_reply_for(c, &mr, mp);
	for (i = 1; i <= sw->sim->cfg.ports; i++) {
		if (want != OF_PORT_ANY && want != i)
			continue;
		if (mp == OF_MP_PORT_DESC) {
			of_port_fill(sw, i, &p);
			of_mp_reply_add_port(&mr, &p);
			continue;
		}
		memset(&ps, 0, sizeof(ps));
		ps.port_no = i;
		ps.duration_sec = (uint32_t)(up / 1000000000ull);
		ps.duration_nsec = (uint32_t)(up % 1000000000ull);
		of_mp_reply_add_port_stats(&mr, &ps);
	}
	of_mp_reply_end(&mr);
}

struct of_group_walk {
	struct of_switch	*sw;
	struct of_mp_reply	*mr;
};

static void
of_group_visit(void *arg, struct of_group_info *gi)
{
	struct of_group_walk	*gw = arg;

	if (gw->mr->mp == OF_MP_GROUP_DESC)
		of_mp_reply_add_group_desc(gw->mr, gi);
	else
		of_mp_reply_add_group_stats(gw->mr, gi);
}

/* GROUP (one group or OFPG_ALL) and GROUP_DESC (every group). */
static void
of_mp_groups(const struct of_ctx *c, struct rbuf *body, enum of_mp mp)
{
	struct of_switch	*sw = c->sw;
	struct of_mp_reply	 mr;
	struct of_group_walk	 gw = { sw, &mr };
	enum of_err		 err = OF_ERR_NONE;
	uint32_t		 want = OF_GROUP_ALL;

	if (mp == OF_MP_GROUP &&
	    of_group_stats_request_decode(body, &want, &err) == -1) {
		of_refuse(c, err);
		return;
	}
	of_mp_reply_for(c, &mr, mp);
	of_groups_walk(sw->owner->groups, want, clock_ns(), of_group_visit,
	    &gw);
	of_mp_reply_end(&mr);
}

static void
of_mp_desc(const struct of_ctx *c)
{
	struct of_switch	*sw = c->sw;
	struct wbuf		*w = of_scratch();
	char			 serial[32], dp[64];
	struct of_desc		 d = { "sbsim", "sbsim simulated switch",
	    "sbsim " PACKAGE_VERSION, serial, dp };

	snprintf(serial, sizeof(serial), "%u", sw->idx + 1);
	snprintf(dp, sizeof(dp), "sbsim switch %u dpid %016llx", sw->idx + 1,
	    (unsigned long long)(sw->sim->cfg.dpid_base + sw->idx));
	of_mp_desc_encode(w, sw->version, c->h->xid, &d);
	of_reply(sw, w);
}

static void
of_on_multipart(const struct of_ctx *c)
{
	struct of_mp_request	 req;
	enum of_err		 err = OF_ERR_NONE;
	struct wbuf		*w;

	(*c->sw->sim->c.stats_requests)++;
	if (of_mp_request_decode(c->sw->version, c->body, &req, &err) == -1) {
		of_refuse(c, err);
		return;
	}
	switch (req.mp) {
	case OF_MP_DESC:	of_mp_desc(c); return;
	case OF_MP_FLOW:
	case OF_MP_FLOW_STATS:	of_mp_flow(c, &req.body, req.mp); return;
	case OF_MP_AGGREGATE:	of_mp_aggregate(c, &req.body); return;
	case OF_MP_TABLE:
		of_mp_reply_tables(c, OF_MP_TABLE, of_table_stats_add);
		return;
	case OF_MP_PORT_STATS:
	case OF_MP_PORT_DESC:	of_mp_ports(c, &req.body, req.mp); return;
	case OF_MP_TABLE_FEATURES:
		of_mp_table_features(c, &req.body);
		return;
	case OF_MP_GROUP:
	case OF_MP_GROUP_DESC:	of_mp_groups(c, &req.body, req.mp); return;
	case OF_MP_GROUP_FEATURES:
		w = of_scratch();
		of_mp_group_features_encode(w, c->sw->version, c->h->xid,
		    c->sw->sim->cfg.max_groups);
		of_reply(c->sw, w);
		return;
	case OF_MP_METER:
	case OF_MP_METER_CONFIG:
	case OF_MP_METER_FEATURES:	of_mp_meters(c, &req.body, req.mp);
					return;
	case OF_MP_QUEUE:
	case OF_MP_QUEUE_DESC:		/* 1.4's QUEUE_GET_CONFIG */
		/* No queues: an empty answer, as a switch without any
		 * configured. */
		w = of_scratch();
		of_mp_empty_encode(w, c->sw->version, c->h->xid, req.mp);
		of_reply(c->sw, w);
		return;
	case OF_MP_FLOW_MONITOR:	of_mp_flow_monitor(c, &req.body);
					return;
	case OF_MP_TABLE_DESC:	of_mp_table_desc(c); return;
	case OF_MP_CONTROLLER_STATUS:	of_mp_cont_status(c->sw, c->h->xid);
					return;
	case OF_MP_EXPERIMENTER:	of_on_mp_experimenter(c, &req.body);
					return;
	default:
		of_refuse(c, OF_ERR_BAD_MULTIPART);
		return;
	}
}

/* TABLE_MOD: 1.4's vacancy events; before 1.4 the table-miss config it
 * carries is 1.1's only, so a switch takes it silently. */
static void
of_on_table_mod(const struct of_ctx *c)
{
	if (c->sw->version >= OF_VERSION_14)
		of_on_table_mod14(c);
}

/* The bundle messages' bodies start right after the header here; in
 * 1.3 they come inside an ONF experimenter message (of_onf_on_msg). */
static void
of_on_bundle_ctl_msg(const struct of_ctx *c)
{
	of_on_bundle_control(c, c->body);
}

static void
of_on_bundle_add_msg(const struct of_ctx *c)
{
	of_on_bundle_add_message(c, c->body);
}

/* Controller-to-switch messages; a type without a row (switch-to-
 * controller messages, unknown types) gets BAD_TYPE.  writes: a slave
 * may not send it (of_slave_refuse); the bundle handlers, also reached
 * through ONF's experimenter message in 1.3, check that themselves. */
static const struct of_handler {
	void	(*fn)(const struct of_ctx *);
	int	  writes;
} of_handlers[OF_TYPE_UNKNOWN] = {
	[OF_ECHO_REQUEST]		= { of_on_echo_request, 0 },
	[OF_ECHO_REPLY]			= { of_on_echo_reply, 0 },
	[OF_ERROR]			= { of_on_error, 0 },
	[OF_EXPERIMENTER]		= { of_on_experimenter, 0 },
	[OF_FEATURES_REQUEST]		= { of_on_features_request, 0 },
	[OF_GET_CONFIG_REQUEST]		= { of_on_get_config, 0 },
	[OF_SET_CONFIG]			= { of_on_set_config, 0 },
	[OF_PACKET_OUT]			= { of_on_packet_out, 1 },
	[OF_FLOW_MOD]			= { of_on_flow_mod, 1 },
	[OF_PORT_MOD]			= { of_on_port_mod, 1 },
	[OF_TABLE_MOD]			= { of_on_table_mod, 1 },
	[OF_GROUP_MOD]			= { of_on_group_mod, 1 },
	[OF_METER_MOD]			= { of_on_meter_mod, 1 },
	[OF_BUNDLE_CONTROL]		= { of_on_bundle_ctl_msg, 0 },
	[OF_BUNDLE_ADD_MESSAGE]		= { of_on_bundle_add_msg, 0 },
	[OF_MULTIPART_REQUEST]		= { of_on_multipart, 0 },
	[OF_BARRIER_REQUEST]		= { of_on_barrier, 0 },
	[OF_QUEUE_GET_CONFIG_REQUEST]	= { of_on_queue_get_config, 0 },
	[OF_ROLE_REQUEST]		= { of_on_role, 0 },
	[OF_GET_ASYNC_REQUEST]		= { of_on_get_async, 0 },
	[OF_SET_ASYNC]			= { of_on_set_async, 0 },
};

void
of_handle(struct of_switch *sw, enum of_type t, const struct of_header *h,
    struct rbuf *body, const uint8_t *msg)
{
	struct of_ctx	c = { sw, h, body, msg };

	of_nx_tlv_bind(sw->owner->tlv_map);	/* tun_metadata's lengths */
	if ((unsigned)t >= OF_TYPE_UNKNOWN || of_handlers[t].fn == NULL)
		of_refuse(&c, OF_ERR_BAD_TYPE);
	else if (!of_handlers[t].writes || !of_slave_refuse(&c))
		of_handlers[t].fn(&c);
}
