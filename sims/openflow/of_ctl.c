/*
 * The embedded controller's OpenFlow role (see of_ctl.h).  One listener,
 * one struct per switch connection, the same codec as the switches.
 */
#include <sys/queue.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>

#include "engine.h"
#include "log.h"
#include "metrics.h"
#include "of_actions.h"
#include "of_cluster.h"
#include "of_codec.h"
#include "of_ctl.h"
#include "of_group.h"
#include "of_meter.h"
#include "of_oxm.h"
#include "pool.h"
#include "ut.h"

#define CTL_NO_BUFFER	0xffffffffu
#define CTL_PRIORITY	100
#define CTL_OUTBUF_MAX	(1024 * 1024)
#define CTL_LLDP_TYPE	0x88cc
#define CTL_LLDP_PORTS	64	/* ports whose discovery is tracked */
#define CTL_LLDP_PERIOD	1	/* seconds between LLDP rounds */

enum ofc_state {
	CTL_HELLO,		/* HELLO sent, waiting for theirs */
	CTL_FEATURES,		/* FEATURES_REQUEST sent */
	CTL_READY,		/* handshake done, waiting to program */
	CTL_PROGRAM,
	CTL_STATS,
	CTL_DELETE,
	CTL_DONE,
};

struct ofc_conn {
	TAILQ_ENTRY(ofc_conn)	 entry;
	struct of_ctl		*oc;		/* its controller */
	struct bufferevent	*bev;
	uint8_t			 state;
	uint8_t			 version;
	uint64_t		 dpid;
	uint32_t		 nports;
	uint32_t		 xid;
	uint32_t		 next_flow;	/* next to push or delete */
	uint32_t		 barriers_out;	/* in flight */
	uint32_t		 stats_xid;
	uint32_t		 active_flows;	/* table 0, see of_ctl.h */
	uint64_t		 lldp_found;	/* bit p-1: our port p's LLDP
						   reached a peer */
	LIST_ENTRY(ofc_conn)	 hentry;	/* in dp's list, once READY */
	struct ofc_dpid		*dp;
	uint32_t		 poll_xid;	/* stats poll in flight */
	uint32_t		 port_xid;	/* its PORT_STATS request */
	int			 in_round;	/* its replies end the round */
	void			*poll_ctx;	/* from hooks.stats_begin */
	int			 closing;	/* once the output is out */
	TAILQ_ENTRY(ofc_conn)	 hello_entry;	/* in hello_wait */
	uint64_t		 hello_by_ns;	/* HELLO deadline, 0: none */
};

#define CTL_NB_XID	0x80000000u	/* xid bit of northbound barriers */

/* The READY connections of one datapath id, newest first: a switch that
 * reconnects before its old connection is gone has two, and the
 * northbound talks to the newest. */
struct ofc_dpid {
	UT_hash_handle		 hh;
	uint64_t		 dpid;
	LIST_HEAD(, ofc_conn)	 conns;
};

TAILQ_HEAD(ofc_list, ofc_conn);

/*
 * One controller: everything it holds, so that nothing of it lives in
 * file-level variables.  Its connections point back at it (c->oc) and its
 * timers and listener get it as their argument.  The context-free API of
 * of_ctl.h serves ofc_main, the process's one instance.
 */
struct of_ctl {
	struct of_ctl_config	 cfg;
	struct of_ctl_stats	 st;
	struct ofc_list		 conns;
	uint32_t		 n_conns;	/* in conns */
	struct evconnlistener	*listener;
	struct event		*lldp_timer;
	struct event		*poll_timer;	/* next round or timeout */
	uint64_t		 round_started;	/* 0: between rounds */
	uint64_t		 round_waiting;	/* switches yet to answer */
	struct of_ctl_hooks	 hooks;
	struct ofc_dpid		*dpids;		/* uthash head */
	int			 kick_all;	/* every switch may move on:
						   see ofc_frame_message */
	uint8_t			 my_role;	/* cluster member's role,
						   0: none */
	uint64_t		 my_gen;	/* generation id of the last
						   claim */
	uint64_t		 gen_seen;	/* largest in ROLE_REPLY /
						   ROLE_STATUS */
	int			 round_over;	/* see ofc_round_check */
	int			 gate_closed;	/* of_ctl_gate() */
	/* The HELLO deadline (ofc_hello_wait_add): */
	TAILQ_HEAD(, ofc_conn)	 hello_wait;
	struct event		*hello_timer;
	uint64_t		 hello_logged_ns; /* last log line */
	uint64_t		 hello_logged_n; /* st.hello_timeouts then */
	struct wbuf		 obuf;		/* one message being encoded */
	uint8_t			 obuf_mem[OF_MAX_MSG + 1024];
};

static struct of_ctl	ofc_main = {
	.conns = TAILQ_HEAD_INITIALIZER(ofc_main.conns),
	.hello_wait = TAILQ_HEAD_INITIALIZER(ofc_main.hello_wait),
	.obuf = { ofc_main.obuf_mem, 0, sizeof(ofc_main.obuf_mem), 0 },
};

static void	ofc_advance(struct ofc_conn *);
static void	ofc_drained(struct bufferevent *, void *);
static void	ofc_event(struct bufferevent *, short, void *);
static void	ofc_role_request(struct ofc_conn *);
static void	ofc_round_answered(struct ofc_conn *);
/* A message from a switch, as its handlers take it. */
struct ofc_msg {
	const struct of_header	*h;
	enum of_type		 t;
	struct rbuf		 body;	/* after the header */
};
static void	ofc_on_role_msg(struct ofc_conn *, struct ofc_msg *);
static void	ofc_close(struct ofc_conn *);
static void	ofc_hello_wait_add(struct ofc_conn *);
static void	ofc_hello_wait_del(struct ofc_conn *);

void
of_ctl_config_defaults(struct of_ctl_config *c)
{
	memset(c, 0, sizeof(*c));
	c->version_bitmap = (1u << OF_VERSION_13) | (1u << OF_VERSION_10);
	c->batch = 100;
	c->window = 4;
	c->stats_timeout = 30;
	c->pktin_reply = OF_CTL_PKTIN_PACKET_OUT;
	c->generation = 1;
	c->hello_timeout = 10;
}

const struct of_ctl_stats *
of_ctl_stats(void)
{
	struct of_ctl	*oc = &ofc_main;

	return &oc->st;
}

static struct wbuf *
ofc_buf(struct of_ctl *oc)
{
	wbuf_reset(&oc->obuf);
	return &oc->obuf;
}

static void
ofc_send(struct ofc_conn *c)
{
	struct of_ctl	*oc = c->oc;

	if (!oc->obuf.err && oc->obuf.len > 0)
		bufferevent_write(c->bev, oc->obuf.data, oc->obuf.len);
	wbuf_reset(&oc->obuf);
}

static uint8_t
ofc_highest(uint32_t bitmap)
{
	return bitmap & (1u << OF_VERSION_13) ? OF_VERSION_13 : OF_VERSION_10;
}

/* An OUTPUT action (1.3 section 7.2.5; 1.0 section 5.2.4). */
static void
ofc_output_action(struct wbuf *w, uint8_t version, uint32_t port)
{
	wbuf_put_u16(w, 0);			/* OFPAT_OUTPUT */
	if (version == OF_VERSION_13) {
		wbuf_put_u16(w, 16);
		wbuf_put_u32(w, port);
		wbuf_put_u16(w, 0xffff);	/* OFPCML_NO_BUFFER */
		wbuf_put_zero(w, 6);
	} else {
		wbuf_put_u16(w, 8);
		wbuf_put_u16(w, of_port_narrow10(port));
		wbuf_put_u16(w, 0xffff);
	}
}

#define CTL_PROG_MAX	32	/* apply-actions with one output */

/* Flow i of a switch: ip,nw_dst=10.x.y.z (i), priority 100, output:port. */
static void
ofc_flow(const struct ofc_conn *c, uint32_t i, uint8_t command,
    uint32_t port, struct of_flow_mod *fm, uint8_t prog[CTL_PROG_MAX])
{
	uint8_t		ethtype[2] = { 0x08, 0x00 };
	uint32_t	dst = 0x0a000000u + i;
	uint8_t		ip[4] = { dst >> 24, dst >> 16, dst >> 8, dst };
	struct wbuf	w;

	memset(fm, 0, sizeof(*fm));
	of_match_init(&fm->match);
	of_match_set(&fm->match, OXM_ETH_TYPE, ethtype, NULL, 2);
	of_match_set(&fm->match, OXM_IPV4_DST, ip, NULL, 4);
	fm->cookie = i + 1;
	fm->cookie_mask = command >= OF_FC_DELETE ? ~0ull : 0;
	fm->command = command;
	fm->priority = CTL_PRIORITY;
	fm->buffer_id = CTL_NO_BUFFER;
	fm->out_port = OF_PORT_ANY;
	fm->out_group = OF_GROUP_ANY;
	if (command >= OF_FC_DELETE)
		return;
	wbuf_init(&w, prog, CTL_PROG_MAX);
	if (c->version == OF_VERSION_13) {
		wbuf_put_u16(&w, 4);		/* OFPIT_APPLY_ACTIONS */
		wbuf_put_u16(&w, 24);
		wbuf_put_zero(&w, 4);
	}
	ofc_output_action(&w, c->version, port);
	fm->prog = prog;
	fm->prog_len = w.len;
}

static void
ofc_barrier(struct ofc_conn *c)
{
	struct of_ctl	*oc = c->oc;

	of_simple_encode(ofc_buf(oc), c->version, OF_BARRIER_REQUEST, ++c->xid);
	ofc_send(c);
	c->barriers_out++;
}

/* Groups and meters a switch gets: 1.0 has neither. */
static uint32_t
ofc_gm(const struct ofc_conn *c)
{
	const struct of_ctl_config	*cfg = &c->oc->cfg;

	return c->version == OF_VERSION_10 ? 0 :
	    cfg->groups_per_switch + cfg->meters_per_switch;
}

/* What a switch is programmed with: its groups, meters, then flows. */
static uint32_t
ofc_items(const struct ofc_conn *c)
{
	return ofc_gm(c) + c->oc->cfg.flows_per_switch;
}

static uint32_t
ofc_per_switch(const struct of_ctl *oc)
{
	return oc->cfg.flows_per_switch + oc->cfg.groups_per_switch +
	    oc->cfg.meters_per_switch;
}

/*
 * Group i (id i+1) or, past the groups, meter i (id i+1), added or
 * deleted (every one with id OF_GROUP_ALL / OF_METER_ALL): an ALL group
 * of one bucket output:1 (1.3.5 section 7.3.4.2), a kbps meter of one
 * DROP band of 1000 kbit/s (7.3.4.4).
 */
static void
ofc_gm_mod(struct ofc_conn *c, int meter, uint32_t id, int del)
{
	struct of_ctl		*oc = c->oc;
	struct of_group_mod	 gm;
	struct of_meter_mod	 mm;
	struct of_meter_band	 band = { OF_MBT_DROP, OF_METER_BAND_LEN,
				    1000, 0, 0 };
	uint8_t			 b[32];
	struct wbuf		 w;

	wbuf_init(&w, b, sizeof(b));
	if (meter) {
		of_meter_band_encode(&w, &band);
		mm = (struct of_meter_mod){ del ? OF_MC_DELETE : OF_MC_ADD,
		    OF_MF_KBPS, id, b, del ? 0 : w.len };
		of_meter_mod_encode(ofc_buf(oc), c->version, ++c->xid, &mm);
		oc->st.meter_mods_sent++;
	} else {
		wbuf_put_u16(&w, 32);		/* ofp_bucket */
		wbuf_put_u16(&w, 0);
		wbuf_put_u32(&w, OF_PORT_ANY);
		wbuf_put_u32(&w, OF_GROUP_ANY);
		wbuf_put_zero(&w, 4);
		ofc_output_action(&w, OF_VERSION_13, 1);
		gm = (struct of_group_mod){ del ? OF_GC_DELETE : OF_GC_ADD,
		    OF_GT_ALL, id, b, del ? 0 : w.len, 0 };
		of_group_mod_encode(ofc_buf(oc), ++c->xid, &gm);
		oc->st.group_mods_sent++;
	}
	ofc_send(c);
}

/* Item i of a switch: a group, a meter, or flow i - groups - meters. */
static void
ofc_push_item(struct ofc_conn *c, uint32_t i, uint8_t command)
{
	struct of_ctl		*oc = c->oc;
	struct of_flow_mod	 fm;
	uint8_t			 prog[CTL_PROG_MAX];
	uint32_t		 g = c->version == OF_VERSION_10 ? 0 :
				    oc->cfg.groups_per_switch;

	if (i < ofc_gm(c)) {
		ofc_gm_mod(c, i >= g, i >= g ? i - g + 1 : i + 1,
		    command != OF_FC_ADD);
		return;
	}
	ofc_flow(c, i - ofc_gm(c), command, 1, &fm, prog);
	of_flow_mod_encode(ofc_buf(oc), c->version, ++c->xid, &fm);
	ofc_send(c);
	oc->st.flow_mods_sent++;
	if (command == OF_FC_ADD)
		c->active_flows++;
	else if (c->active_flows > 0)
		c->active_flows--;
}

/* Push the next batch of adds (or strict deletes) and a barrier. */
static void
ofc_push_batch(struct ofc_conn *c, uint8_t command)
{
	struct of_ctl	*oc = c->oc;
	uint32_t	 n;

	for (n = 0; n < oc->cfg.batch && c->next_flow < ofc_items(c);
	    n++, c->next_flow++)
		ofc_push_item(c, c->next_flow, command);
	ofc_barrier(c);
}

static void
ofc_delete_all(struct ofc_conn *c)
{
	struct of_ctl	*oc = c->oc;
	struct of_flow_mod	fm;

	memset(&fm, 0, sizeof(fm));
	of_match_init(&fm.match);
	fm.command = OF_FC_DELETE;
	fm.table_id = OF_TABLE_ALL;
	fm.buffer_id = CTL_NO_BUFFER;
	fm.out_port = OF_PORT_ANY;
	fm.out_group = OF_GROUP_ANY;
	of_flow_mod_encode(ofc_buf(oc), c->version, ++c->xid, &fm);
	ofc_send(c);
	oc->st.flow_mods_sent++;
	if (ofc_gm(c) > 0 && oc->cfg.groups_per_switch > 0)
		ofc_gm_mod(c, 0, OF_GROUP_ALL, 1);
	if (ofc_gm(c) > 0 && oc->cfg.meters_per_switch > 0)
		ofc_gm_mod(c, 1, OF_METER_ALL, 1);
	c->active_flows = 0;
	c->next_flow = ofc_items(c);
	ofc_barrier(c);
}

/* A stats request for every flow of every table: all the wildcards of
 * ofp_flow_stats_request (1.3.5 section 7.3.5.2). */
static void
ofc_filter_all(struct of_flow_filter *f)
{
	memset(f, 0, sizeof(*f));
	f->table_id = OF_TABLE_ALL;
	f->out_port = OF_PORT_ANY;
	f->out_group = OF_GROUP_ANY;
	of_match_init(&f->match);
}

static void
ofc_request_stats(struct ofc_conn *c)
{
	struct of_ctl	*oc = c->oc;
	struct of_flow_filter	f;

	ofc_filter_all(&f);
	c->stats_xid = ++c->xid;
	of_flow_stats_request_encode(ofc_buf(oc), c->version, c->stats_xid,
	    OF_MP_FLOW, &f);
	ofc_send(c);
}

static int
ofc_all_programmed(const struct of_ctl *oc)
{
	uint64_t	want = oc->cfg.expect_switches ?
	    oc->cfg.expect_switches : oc->st.switches_now;

	return oc->st.switches_programmed >= want;
}

/* A round is over once every switch is programmed (and emptied again
 * when asked to delete); of_ctl_finished() reports it. */
static void
ofc_round_check(struct of_ctl *oc)
{
	uint64_t	want = oc->cfg.expect_switches;

	if (want == 0 || ofc_per_switch(oc) == 0 || oc->round_over ||
	    oc->st.switches_programmed < want ||
	    (oc->cfg.read_stats && oc->st.switches_read < want) ||
	    (oc->cfg.delete_mode != OF_CTL_DELETE_NONE &&
	    oc->st.switches_deleted < want))
		return;
	oc->round_over = 1;
	oc->st.rounds++;
}

/*
 * The first switch after a finished round starts the next one (sbsim
 * --repeat connects them all again): programming waits for --switches
 * anew.  The last round's figures stay until then for the summary.
 */
static void
ofc_maybe_new_round(struct of_ctl *oc)
{
	if (!oc->round_over)
		return;
	oc->round_over = 0;
	oc->st.switches = 0;
	oc->st.switches_programmed = 0;
	oc->st.switches_read = 0;
	oc->st.switches_deleted = 0;
	oc->st.program_start_ns = oc->st.program_end_ns = 0;
	oc->st.delete_end_ns = 0;
}

static void
ofc_enter(struct ofc_conn *c, enum ofc_state s)
{
	c->state = s;
	c->next_flow = 0;
	c->barriers_out = 0;
}

/* Move a connection through program, stats and delete as allowed. */
static void
ofc_advance(struct ofc_conn *c)
{
	struct of_ctl	*oc = c->oc;

	switch (c->state) {
	case CTL_READY:
		/* A slave of a cluster pushes nothing (section 6.3.6). */
		if (ofc_per_switch(oc) == 0 || oc->gate_closed ||
		    (oc->cfg.expect_switches && oc->st.switches <
		    oc->cfg.expect_switches) || oc->my_role == OF_ROLE_SLAVE)
			return;
		if (oc->st.program_start_ns == 0)
			oc->st.program_start_ns = clock_ns();
		ofc_enter(c, CTL_PROGRAM);
		/* FALLTHROUGH */
	case CTL_PROGRAM:
		/* Made slave half-way: the rest waits for master again. */
		while (c->barriers_out < oc->cfg.window &&
		    c->next_flow < ofc_items(c) &&
		    oc->my_role != OF_ROLE_SLAVE)
			ofc_push_batch(c, OF_FC_ADD);
		if (c->next_flow < ofc_items(c) || c->barriers_out)
			return;
		oc->st.switches_programmed++;
		if (ofc_all_programmed(oc)) {
			oc->st.program_end_ns = clock_ns();
			oc->kick_all = 1; /* the others wait in CTL_STATS */
		}
		ofc_round_check(oc);
		ofc_enter(c, CTL_STATS);
		if (oc->cfg.read_stats) {
			ofc_request_stats(c);
			return;
		}
		/* FALLTHROUGH */
	case CTL_STATS:
		if (oc->cfg.read_stats && c->stats_xid != 0)
			return;
		if (oc->cfg.delete_mode == OF_CTL_DELETE_NONE ||
		    !ofc_all_programmed(oc))
			return;
		ofc_enter(c, CTL_DELETE);
		if (oc->cfg.delete_mode == OF_CTL_DELETE_ALL) {
			ofc_delete_all(c);
			return;
		}
		/* FALLTHROUGH */
	case CTL_DELETE:
		while (oc->cfg.delete_mode == OF_CTL_DELETE_STRICT &&
		    c->barriers_out < oc->cfg.window &&
		    c->next_flow < ofc_items(c))
			ofc_push_batch(c, OF_FC_DELETE_STRICT);
		if (c->next_flow < ofc_items(c) || c->barriers_out)
			return;
		ofc_enter(c, CTL_DONE);
		if (++oc->st.switches_deleted >= oc->st.switches_programmed)
			oc->st.delete_end_ns = clock_ns();
		ofc_round_check(oc);
		return;
	default:
		return;
	}
}

static void
ofc_advance_all(struct of_ctl *oc)
{
	struct ofc_conn	*c;

	TAILQ_FOREACH(c, &oc->conns, entry)
		ofc_advance(c);
}

static void
ofc_lldp(struct ofc_conn *c, uint32_t port)
{
	struct of_ctl	*oc = c->oc;
	struct of_packet_out	po;
	uint8_t			frame[64], act[16];
	struct wbuf		w;
	char			id[32];
	int			n;

	wbuf_init(&w, frame, sizeof(frame));
	wbuf_put_bytes(&w, "\x01\x80\xc2\x00\x00\x0e", 6);
	wbuf_put_bytes(&w, "\x02\x00\x00\x00\x00\x01", 6);
	wbuf_put_u16(&w, CTL_LLDP_TYPE);
	/* Chassis ID TLV (IEEE 802.1AB 8.5.2), subtype 7: local. */
	n = snprintf(id, sizeof(id), "dpid:%016llx",
	    (unsigned long long)c->dpid);
	wbuf_put_u16(&w, (1 << 9) | (n + 1));
	wbuf_put_u8(&w, 7);
	wbuf_put_bytes(&w, id, n);
	wbuf_put_u16(&w, (2 << 9) | 5);		/* port ID, subtype 7 */
	wbuf_put_u8(&w, 7);
	wbuf_put_u32(&w, port);
	wbuf_put_u16(&w, (3 << 9) | 2);		/* TTL 120 s */
	wbuf_put_u16(&w, 120);
	wbuf_put_u16(&w, 0);			/* End */
	wbuf_init(&w, act, sizeof(act));
	ofc_output_action(&w, c->version, port);
	memset(&po, 0, sizeof(po));
	po.buffer_id = CTL_NO_BUFFER;
	po.in_port = OF_PORT_CONTROLLER;
	po.actions = act;
	po.actions_len = w.len;
	po.data = frame;
	po.data_len = 14 + 2 + 1 + n + 2 + 5 + 4 + 2;
	of_packet_out_encode(ofc_buf(oc), c->version, ++c->xid, &po);
	ofc_send(c);
	oc->st.lldp_sent++;
}

/*
 * One of our LLDP frames came back in a PACKET_IN: the link from (chassis
 * dpid, port) is found.  Each directed link counts once, however often its
 * LLDP comes round; a frame that is not ours counts every time.
 */
static void
ofc_lldp_seen(const struct ofc_conn *rx, uint32_t in_port, const uint8_t *f,
    size_t len)
{
	struct of_ctl	*oc = rx->oc;
	struct ofc_conn	*c;
	char		 id[17];
	uint64_t	 dpid, bit;
	uint32_t	 port;
	size_t		 n;

	/* Ethernet header, chassis TLV (type 1, subtype 7, "dpid:" + 16
	 * hex digits), port TLV (type 2, length 5, subtype 7, u32). */
	n = 14 + 2 + 1 + 21;
	if (len < n + 7 || f[14] != (1 << 1) || f[15] != 22 || f[16] != 7 ||
	    memcmp(f + 17, "dpid:", 5) != 0 || f[n] != (2 << 1) ||
	    f[n + 1] != 5 || f[n + 2] != 7) {
		oc->st.links_seen++;
		return;
	}
	memcpy(id, f + 22, 16);
	id[16] = '\0';
	dpid = strtoull(id, NULL, 16);
	port = (uint32_t)f[n + 3] << 24 | (uint32_t)f[n + 4] << 16 |
	    (uint32_t)f[n + 5] << 8 | f[n + 6];
	TAILQ_FOREACH(c, &oc->conns, entry)
		if (c->state >= CTL_READY && c->dpid == dpid)
			break;
	if (c == NULL || port == 0 || port > CTL_LLDP_PORTS) {
		oc->st.links_seen++;
		return;
	}
	bit = 1ull << (port - 1);
	if ((c->lldp_found & bit) == 0) {
		c->lldp_found |= bit;
		oc->st.links_seen++;
		if (oc->hooks.link != NULL)
			oc->hooks.link(dpid, port, rx->dpid, in_port,
			    oc->hooks.arg);
	}
}

/*
 * LLDP goes out when a switch connects, but its peer may not be connected
 * yet: every CTL_LLDP_PERIOD, send it again on the ports whose link has not
 * been found (as real controllers probe periodically).  Edge ports keep
 * being probed; found links are not re-sent, so each is delivered once.
 */
static void
ofc_lldp_tick(evutil_socket_t fd, short what, void *arg)
{
	struct of_ctl	*oc = arg;
	struct ofc_conn	*c;
	uint32_t	 p;

	(void)fd;
	(void)what;
	TAILQ_FOREACH(c, &oc->conns, entry) {
		if (c->state < CTL_READY ||
		    evbuffer_get_length(bufferevent_get_output(c->bev)) >
		    CTL_OUTBUF_MAX)
			continue;
		for (p = 1; p <= c->nports && p <= CTL_LLDP_PORTS; p++)
			if ((c->lldp_found & (1ull << (p - 1))) == 0)
				ofc_lldp(c, p);
	}
}

static void
ofc_hash_add(struct ofc_conn *c)
{
	struct of_ctl	*oc = c->oc;
	struct ofc_dpid	*dp;

	if (c->dp != NULL)
		return;
	HASH_FIND(hh, oc->dpids, &c->dpid, sizeof(c->dpid), dp);
	if (dp == NULL) {
		dp = xcalloc(1, sizeof(*dp));
		dp->dpid = c->dpid;
		LIST_INIT(&dp->conns);
		HASH_ADD(hh, oc->dpids, dpid, sizeof(dp->dpid), dp);
	}
	LIST_INSERT_HEAD(&dp->conns, c, hentry);
	c->dp = dp;
}

static void
ofc_hash_del(struct ofc_conn *c)
{
	struct of_ctl	*oc = c->oc;
	struct ofc_dpid	*dp = c->dp;

	if (dp == NULL)
		return;
	LIST_REMOVE(c, hentry);
	c->dp = NULL;
	if (LIST_EMPTY(&dp->conns)) {
		HASH_DEL(oc->dpids, dp);
		free(dp);
	}
}

/* The connected switch of datapath id dpid, or NULL. */
static struct ofc_conn *
ofc_by_dpid(struct of_ctl *oc, uint64_t dpid)
{
	struct ofc_dpid	*dp;
	struct ofc_conn	*c;

	HASH_FIND(hh, oc->dpids, &dpid, sizeof(dpid), dp);
	if (dp == NULL)
		return NULL;
	LIST_FOREACH(c, &dp->conns, hentry)
		if (c->state >= CTL_READY)
			return c;
	return NULL;
}

/* The ports of a FEATURES_REPLY (1.0), a PORT_DESC reply or a
 * PORT_STATUS, for the hooks. */
static void
ofc_ports(struct ofc_conn *c, uint8_t reason, struct rbuf *r)
{
	struct of_ctl	*oc = c->oc;
	struct of_port	p;

	if (oc->hooks.port == NULL)
		return;
	while (rbuf_left(r) > 0) {
		if (of_port_decode(c->version, r, &p) == -1) {
			oc->st.bad_messages++;
			return;
		}
		oc->hooks.port(c->dpid, reason, &p, oc->hooks.arg);
	}
}

/* A part of a PORT_STATS reply: handed to the hooks; the last part of
 * the round's request answers the round. */
static void
ofc_on_port_stats(struct ofc_conn *c, uint32_t xid, uint16_t flags,
    struct rbuf *entries)
{
	struct of_ctl	*oc = c->oc;
	struct of_port_stats	ps;
	int			rc;

	while ((rc = of_port_stats_next(c->version, entries, &ps)) == 1)
		if (oc->hooks.port_stats != NULL)
			oc->hooks.port_stats(c->dpid, &ps, oc->hooks.arg);
	if (rc == -1)
		oc->st.bad_messages++;
	if (xid == c->port_xid && (flags & OF_MPF_MORE) == 0) {
		c->port_xid = 0;
		ofc_round_answered(c);
	}
}

static void
ofc_on_port_status(struct ofc_conn *c, struct ofc_msg *m)
{
	struct of_ctl	*oc = c->oc;
	struct of_port	p;
	uint8_t		reason;

	if (of_port_status_decode(c->version, &m->body, &reason, &p) == -1) {
		oc->st.bad_messages++;
		return;
	}
	/* A link down or a port gone: what LLDP found there is stale (a
	 * cable moved); the port is probed again, as a topology manager
	 * does, until its LLDP comes back. */
	if ((reason == OF_PR_DELETE || (p.state & OF_PS_LINK_DOWN)) &&
	    p.port_no >= 1 && p.port_no <= CTL_LLDP_PORTS)
		c->lldp_found &= ~(1ull << (p.port_no - 1));
	if (oc->hooks.port != NULL && c->state >= CTL_READY)
		oc->hooks.port(c->dpid, reason, &p, oc->hooks.arg);
}

static void
ofc_on_features(struct ofc_conn *c, struct ofc_msg *m)
{
	struct of_ctl	*oc = c->oc;
	struct of_features	f;
	uint32_t		p;

	if (of_features_reply_decode(c->version, &m->body, &f) == -1) {
		oc->st.bad_messages++;
		return;
	}
	/* Only the one asked for: a READY switch is filed by its dpid
	 * (ofc_hash_add), which a later reply must not change. */
	if (c->state != CTL_FEATURES)
		return;
	c->dpid = f.datapath_id;
	/* 1.0 lists its 48-byte ports after the 32-byte reply. */
	c->nports = c->version == OF_VERSION_10 ? (m->h->length - 32) / 48 : 0;
	ofc_maybe_new_round(oc);
	c->state = CTL_READY;
	oc->st.switches++;
	oc->st.switches_now++;
	of_switch_config_encode(ofc_buf(oc), c->version, OF_SET_CONFIG,
	    ++c->xid, 0, 0xffff);
	ofc_send(c);
	/* Before any FLOW_MOD: the switch takes them in order. */
	if (oc->my_role != 0 && c->version == OF_VERSION_13)
		ofc_role_request(c);
	ofc_hash_add(c);
	if (oc->hooks.connected != NULL)
		oc->hooks.connected(c->dpid, c->version, oc->hooks.arg);
	ofc_ports(c, OF_PR_ADD, &m->body);
	if ((oc->cfg.lldp || oc->hooks.port != NULL) &&
	    c->version == OF_VERSION_13) {
		of_mp_request_encode(ofc_buf(oc), c->version, ++c->xid,
		    OF_MP_PORT_DESC, NULL, 0);
		ofc_send(c);
	}
	for (p = 1; oc->cfg.lldp && p <= c->nports; p++)
		ofc_lldp(c, p);
	if (oc->cfg.expect_switches &&
	    oc->st.switches == oc->cfg.expect_switches)
		ofc_advance_all(oc);
	else
		ofc_advance(c);
}

/* A part of the periodic flow stats reply: handed to the hooks. */
static void
ofc_on_poll(struct ofc_conn *c, uint16_t flags, struct rbuf *entries)
{
	struct of_ctl	*oc = c->oc;
	struct of_flow_info	fi;
	struct of_match		store;
	int			rc;

	while ((rc = of_flow_stats_next(c->version, entries, &fi, &store))
	    == 1)
		if (c->poll_ctx != NULL && oc->hooks.stats_flow != NULL)
			oc->hooks.stats_flow(c->poll_ctx, &fi);
	if (rc == -1)
		oc->st.bad_messages++;
	if ((flags & OF_MPF_MORE) != 0)
		return;
	if (c->poll_ctx != NULL && oc->hooks.stats_end != NULL)
		oc->hooks.stats_end(c->poll_ctx);
	c->poll_ctx = NULL;
	c->poll_xid = 0;
	ofc_round_answered(c);
}

/* PORT_STATS of every port: OFPP_ANY (1.3 section 7.3.5.6), OFPP_NONE
 * in 1.0 (section 5.3.5), then padding; its xid. */
static uint32_t
ofc_port_stats_request(struct ofc_conn *c)
{
	struct of_ctl	*oc = c->oc;
	uint8_t		body[8];
	struct wbuf	w;

	wbuf_init(&w, body, sizeof(body));
	if (c->version == OF_VERSION_10) {
		wbuf_put_u16(&w, of_port_narrow10(OF_PORT_ANY));
		wbuf_put_zero(&w, 6);
	} else {
		wbuf_put_u32(&w, OF_PORT_ANY);
		wbuf_put_zero(&w, 4);
	}
	of_mp_request_encode(ofc_buf(oc), c->version, ++c->xid,
	    OF_MP_PORT_STATS, body, w.len);
	ofc_send(c);
	return c->xid;
}

/*
 * The statistics poll goes round by round, as OpenDaylight's statistics
 * manager does: a round asks every switch once, the next starts only once
 * every switch of this one answered (or left, or stats_timeout passed),
 * and the pause between grows with the time a round took
 * (CTL_STATS_ROUND_K times it, stats_interval at least).  With a fixed
 * timer 10 000 switches were asked 20 000 times a second whether or not
 * they (or this loop) kept up, and on one core nothing else progressed.
 */
#define CTL_STATS_ROUND_K	2	/* a round takes at most a third */

static void
ofc_round_timer(struct of_ctl *oc, uint64_t ns)
{
	struct timeval	tv;

	tv.tv_sec = (time_t)(ns / 1000000000ull);
	tv.tv_usec = (suseconds_t)(ns % 1000000000ull / 1000);
	engine_timer_add(oc->poll_timer, &tv);
}

static uint64_t
ofc_secs_ns(double s)
{
	return (uint64_t)(s * 1e9);
}

/* The round is over (every reply in, or timed out): the next starts
 * after max(stats_interval, K x this round's duration). */
static void
ofc_round_end(struct of_ctl *oc, int timed_out)
{
	struct ofc_conn	*c;
	uint64_t	 took = clock_ns() - oc->round_started, next;

	TAILQ_FOREACH(c, &oc->conns, entry)
		c->in_round = 0;
	oc->round_started = 0;
	oc->round_waiting = 0;
	oc->st.stats_rounds++;
	oc->st.stats_round_timeouts += timed_out != 0;
	oc->st.stats_round_ns = took;
	next = CTL_STATS_ROUND_K * took;
	if (next < ofc_secs_ns(oc->cfg.stats_interval))
		next = ofc_secs_ns(oc->cfg.stats_interval);
	oc->st.stats_next_ns = next;
	ofc_round_timer(oc, next);
}

/* A switch of the round has answered all it was asked, or left. */
static void
ofc_round_answered(struct ofc_conn *c)
{
	struct of_ctl	*oc = c->oc;

	if (!c->in_round || c->poll_xid != 0 || c->port_xid != 0)
		return;
	c->in_round = 0;
	if (oc->round_started != 0 && --oc->round_waiting == 0)
		ofc_round_end(oc, 0);
}

/* Ask one switch for all its flows, and its ports' counters when the
 * northbound keeps them. */
static void
ofc_round_ask(struct ofc_conn *c, const struct of_flow_filter *f)
{
	struct of_ctl	*oc = c->oc;

	c->poll_xid = ++c->xid;
	c->poll_ctx = oc->hooks.stats_begin != NULL ?
	    oc->hooks.stats_begin(c->dpid, oc->hooks.arg) : NULL;
	of_flow_stats_request_encode(ofc_buf(oc), c->version, c->poll_xid,
	    OF_MP_FLOW, f);
	ofc_send(c);
	if (oc->hooks.port_stats != NULL)
		c->port_xid = ofc_port_stats_request(c);
	c->in_round = 1;
	oc->round_waiting++;
}

/* The timer: a round starts (each ready switch is asked, unless its last
 * poll is still being answered or its output is backed up), or the one
 * running waited stats_timeout for its replies. */
static void
ofc_poll_tick(evutil_socket_t fd, short what, void *arg)
{
	struct of_ctl	*oc = arg;
	struct of_flow_filter	 f;
	struct ofc_conn		*c;

	(void)fd;
	(void)what;
	if (oc->round_started != 0) {
		ofc_round_end(oc, 1);
		return;
	}
	ofc_filter_all(&f);
	oc->round_started = clock_ns();
	TAILQ_FOREACH(c, &oc->conns, entry) {
		if (c->state < CTL_READY || c->poll_xid != 0 ||
		    c->port_xid != 0 ||
		    evbuffer_get_length(bufferevent_get_output(c->bev)) >
		    CTL_OUTBUF_MAX)
			continue;
		ofc_round_ask(c, &f);
	}
	if (oc->round_waiting == 0) {	/* nobody to ask: no round */
		oc->round_started = 0;
		ofc_round_timer(oc, ofc_secs_ns(oc->cfg.stats_interval));
	} else
		ofc_round_timer(oc, ofc_secs_ns(oc->cfg.stats_timeout));
}

static void
ofc_on_multipart(struct ofc_conn *c, struct ofc_msg *m)
{
	struct of_ctl	*oc = c->oc;
	struct rbuf		entries;
	struct of_flow_info	fi;
	struct of_match		store;
	enum of_mp		mp;
	uint16_t		flags;
	int			rc;

	if (of_mp_reply_decode(c->version, &m->body, &mp, &flags, &entries)
	    == -1) {
		oc->st.bad_messages++;
		return;
	}
	if (mp == OF_MP_PORT_DESC) {
		c->nports = (uint32_t)(rbuf_left(&entries) / 64);
		for (uint32_t p = 1; oc->cfg.lldp && p <= c->nports; p++)
			ofc_lldp(c, p);
		ofc_ports(c, OF_PR_ADD, &entries);
		return;
	}
	if (mp == OF_MP_PORT_STATS) {
		ofc_on_port_stats(c, m->h->xid, flags, &entries);
		return;
	}
	if (mp == OF_MP_FLOW && m->h->xid == c->poll_xid && c->poll_xid != 0) {
		ofc_on_poll(c, flags, &entries);
		return;
	}
	if (mp != OF_MP_FLOW && oc->hooks.mp_reply != NULL) {
		oc->hooks.mp_reply(c->dpid, (int)mp, flags, m->h->xid, &entries,
		    oc->hooks.arg);
		return;
	}
	if (mp != OF_MP_FLOW || m->h->xid != c->stats_xid)
		return;
	while ((rc = of_flow_stats_next(c->version, &entries, &fi, &store))
	    == 1)
		oc->st.flows_in_stats++;
	if (rc == -1)
		oc->st.bad_messages++;
	if ((flags & OF_MPF_MORE) == 0) {
		c->stats_xid = 0;
		oc->st.switches_read++;
		ofc_round_check(oc);
		ofc_advance(c);
	}
}

/* What a PACKET_IN not for LLDP is answered with (--pktin-reply): the
 * buffered packet flooded, or a flow that floods it and its like. */
static void
ofc_pktin_answer(struct ofc_conn *c, const struct of_packet_in *pi)
{
	struct of_ctl		*oc = c->oc;
	struct of_packet_out	 po;
	struct of_flow_mod	 fm;
	uint8_t			 act[16], prog[CTL_PROG_MAX];
	struct wbuf		 w;

	if (oc->cfg.pktin_reply == OF_CTL_PKTIN_PACKET_OUT) {
		wbuf_init(&w, act, sizeof(act));
		ofc_output_action(&w, c->version, OF_PORT_FLOOD);
		memset(&po, 0, sizeof(po));
		po.buffer_id = pi->buffer_id;
		po.in_port = pi->in_port;
		po.actions = act;
		po.actions_len = w.len;
		of_packet_out_encode(ofc_buf(oc), c->version, ++c->xid, &po);
	} else {
		ofc_flow(c, pi->buffer_id & 0xffffff, OF_FC_ADD, OF_PORT_FLOOD,
		    &fm, prog);
		fm.buffer_id = pi->buffer_id;
		fm.idle_timeout = 60;
		of_flow_mod_encode(ofc_buf(oc), c->version, ++c->xid, &fm);
		oc->st.flow_mods_sent++;
	}
	ofc_send(c);
}

static void
ofc_on_packet_in(struct ofc_conn *c, struct ofc_msg *m)
{
	struct of_ctl		*oc = c->oc;
	struct of_packet_in	 pi;
	enum of_err		 err;

	if (of_packet_in_decode(c->version, &m->body, &pi, &err) == -1) {
		oc->st.bad_messages++;
		return;
	}
	oc->st.packet_ins++;
	if (pi.data_len >= 14 && pi.data[12] == 0x88 && pi.data[13] == 0xcc) {
		ofc_lldp_seen(c, pi.in_port, pi.data, pi.data_len);
		return;
	}
	if (oc->cfg.pktin_reply != OF_CTL_PKTIN_IGNORE &&
	    pi.buffer_id != CTL_NO_BUFFER)
		ofc_pktin_answer(c, &pi);
}

static void
ofc_on_hello(struct ofc_conn *c, struct ofc_msg *m)
{
	struct of_ctl	*oc = c->oc;
	uint32_t	bitmap = 0;

	if (of_hello_decode(&m->body, &bitmap) == -1)
		bitmap = 0;
	c->version = of_negotiate(m->h->version, bitmap,
	    oc->cfg.version_bitmap);
	if (c->version == 0) {
		of_error_encode(ofc_buf(oc),
		    ofc_highest(oc->cfg.version_bitmap), m->h->xid,
		    OF_ERR_HELLO_INCOMPATIBLE, NULL, 0);
		ofc_send(c);
		oc->st.bad_messages++;
		/* "... and then terminate the connection" (section 6.3.1),
		 * once the error has gone out: read no more. */
		c->closing = 1;
		bufferevent_disable(c->bev, EV_READ);
		bufferevent_setcb(c->bev, NULL, ofc_drained, ofc_event, c);
		return;
	}
	c->state = CTL_FEATURES;
	of_simple_encode(ofc_buf(oc), c->version, OF_FEATURES_REQUEST,
	    ++c->xid);
	ofc_send(c);
}

/*
 * ---- the HELLO deadline ----
 * A connection that never sends its HELLO would hold a descriptor and
 * its buffers for ever: thousands of them (a connection flood, a port
 * scanner, a peer that is no OpenFlow switch) exhaust the controller.
 * Each must have sent its HELLO (OpenFlow 1.3.5 section 6.3.1: both
 * sides send one "immediately" on connecting) within --openflow-hello-
 * timeout seconds of being accepted, or is closed.  The deadline is the
 * same for all, so the connections waiting are in deadline order: one
 * timer, armed for the first of them.
 */

#define CTL_HELLO_LOG_NS	(10ull * 1000000000ull)	/* log at most so often */

/* Closed for want of a HELLO: counted, and said at most every 10 s. */
static void
ofc_hello_log(struct of_ctl *oc, uint64_t now)
{
	if (oc->hello_logged_ns != 0 &&
	    now - oc->hello_logged_ns < CTL_HELLO_LOG_NS)
		return;
	log_warnx("controller: closed %llu connection%s that sent no HELLO "
	    "within --openflow-hello-timeout %g s (%llu in all; logged at "
	    "most every 10 s)",
	    (unsigned long long)(oc->st.hello_timeouts - oc->hello_logged_n),
	    oc->st.hello_timeouts - oc->hello_logged_n == 1 ? "" : "s",
	    oc->cfg.hello_timeout, (unsigned long long)oc->st.hello_timeouts);
	oc->hello_logged_ns = now;
	oc->hello_logged_n = oc->st.hello_timeouts;
}

/* The timer for the first deadline, if any connection waits. */
static void
ofc_hello_arm(struct of_ctl *oc, uint64_t now)
{
	struct ofc_conn	*c = TAILQ_FIRST(&oc->hello_wait);
	struct timeval	 tv;
	uint64_t	 left;

	if (c == NULL || oc->hello_timer == NULL)
		return;
	left = c->hello_by_ns > now ? c->hello_by_ns - now : 0;
	tv.tv_sec = (time_t)(left / 1000000000ull);
	tv.tv_usec = (suseconds_t)(left % 1000000000ull / 1000 + 1);
	engine_timer_add(oc->hello_timer, &tv);
}

static void
ofc_hello_expire(evutil_socket_t fd, short what, void *arg)
{
	struct of_ctl	*oc = arg;
	struct ofc_conn	*c;
	uint64_t	 now = clock_ns(), closed = 0;

	(void)fd;
	(void)what;
	while ((c = TAILQ_FIRST(&oc->hello_wait)) != NULL &&
	    c->hello_by_ns <= now) {
		oc->st.hello_timeouts++;
		closed++;
		ofc_close(c);		/* takes it off hello_wait */
	}
	if (closed > 0)
		ofc_hello_log(oc, now);
	ofc_hello_arm(oc, now);
}

/* Accepted: its HELLO is due by the deadline (none when 0). */
static void
ofc_hello_wait_add(struct ofc_conn *c)
{
	struct of_ctl	*oc = c->oc;
	uint64_t	now;

	if (oc->cfg.hello_timeout <= 0)
		return;
	if (oc->hello_timer == NULL)
		oc->hello_timer = engine_timer_new(0, ofc_hello_expire, oc);
	now = clock_ns();
	c->hello_by_ns = now + (uint64_t)(oc->cfg.hello_timeout * 1e9);
	if (c->hello_by_ns == 0)
		c->hello_by_ns = 1;
	TAILQ_INSERT_TAIL(&oc->hello_wait, c, hello_entry);
	if (!evtimer_pending(oc->hello_timer, NULL))
		ofc_hello_arm(oc, now);
}

/* Its HELLO came, or it closed: no deadline any more. */
static void
ofc_hello_wait_del(struct ofc_conn *c)
{
	struct of_ctl	*oc = c->oc;

	if (c->hello_by_ns == 0)
		return;
	TAILQ_REMOVE(&oc->hello_wait, c, hello_entry);
	c->hello_by_ns = 0;
}

static void
ofc_hello_stop(struct of_ctl *oc)
{
	struct ofc_conn	*c;

	while ((c = TAILQ_FIRST(&oc->hello_wait)) != NULL)
		ofc_hello_wait_del(c);
	if (oc->hello_timer != NULL)
		event_free(oc->hello_timer);
	oc->hello_timer = NULL;
	oc->hello_logged_ns = oc->hello_logged_n = 0;
}

static void
ofc_on_echo(struct ofc_conn *c, struct ofc_msg *m)
{
	of_echo_encode(ofc_buf(c->oc), c->version, OF_ECHO_REPLY, m->h->xid,
	    rbuf_ptr(&m->body), rbuf_left(&m->body));
	ofc_send(c);
}

static void
ofc_on_barrier(struct ofc_conn *c, struct ofc_msg *m)
{
	struct of_ctl	*oc = c->oc;

	if (m->h->xid & CTL_NB_XID) {	/* of_ctl_barrier's */
		if (oc->hooks.barrier != NULL)
			oc->hooks.barrier(c->dpid, m->h->xid, oc->hooks.arg);
		return;
	}
	if (c->barriers_out > 0)
		c->barriers_out--;
	oc->st.barriers_acked++;
	ofc_advance(c);
}

/* What a READY connection does with each message type it takes; the
 * others are dropped. */
typedef void	ofc_msg_fn(struct ofc_conn *, struct ofc_msg *);
static ofc_msg_fn *const ofc_msg_fns[OF_TYPE_UNKNOWN] = {
	[OF_ECHO_REQUEST] = ofc_on_echo,
	[OF_FEATURES_REPLY] = ofc_on_features,
	[OF_BARRIER_REPLY] = ofc_on_barrier,
	[OF_MULTIPART_REPLY] = ofc_on_multipart,
	[OF_PACKET_IN] = ofc_on_packet_in,
	[OF_PORT_STATUS] = ofc_on_port_status,
	[OF_ERROR] = ofc_on_role_msg,
	[OF_ROLE_REPLY] = ofc_on_role_msg,
	[OF_EXPERIMENTER] = ofc_on_role_msg,
};

static void
ofc_dispatch(struct ofc_conn *c, const struct of_header *h,
    const uint8_t *msg)
{
	struct ofc_msg	m;

	m.h = h;
	m.t = of_type_from_wire(h->version, h->type);
	rbuf_init(&m.body, msg + OF_HEADER_LEN, h->length - OF_HEADER_LEN);
	if (c->state == CTL_HELLO) {
		if (m.t == OF_HELLO)
			ofc_on_hello(c, &m);
		if (c->state != CTL_HELLO)
			ofc_hello_wait_del(c);
		return;
	}
	if (m.t < OF_TYPE_UNKNOWN && ofc_msg_fns[m.t] != NULL)
		ofc_msg_fns[m.t](c, &m);
}

static void
ofc_close(struct ofc_conn *c)
{
	struct of_ctl	*oc = c->oc;

	if (c->state >= CTL_READY && oc->st.switches_now > 0)
		oc->st.switches_now--;
	if (c->in_round) {	/* it will not answer */
		c->poll_xid = c->port_xid = 0;
		ofc_round_answered(c);
	}
	TAILQ_REMOVE(&oc->conns, c, entry);
	oc->n_conns--;
	ofc_hello_wait_del(c);
	ofc_hash_del(c);
	bufferevent_free(c->bev);
	free(c);
}

/* The output of a closing connection has gone out. */
static void
ofc_drained(struct bufferevent *bev, void *arg)
{
	(void)bev;
	ofc_close(arg);
}

/* Framing (pool_read): a length under the header's own closes. */
static long
ofc_frame_length(void *dev, const uint8_t *hdr)
{
	struct ofc_conn	*c = dev;
	uint16_t	 len = of_header_length(hdr);

	if (len >= OF_HEADER_LEN)
		return len;
	log_warnx("controller: switch %016llx sent a message of length %u; "
	    "closing", (unsigned long long)c->dpid, len);
	ofc_close(c);
	return -1;
}

static int
ofc_frame_message(void *dev, const uint8_t *msg, size_t len)
{
	struct ofc_conn		*c = dev;
	struct of_ctl		*oc = c->oc;
	struct of_header	 h;

	(void)len;	/* pool_read framed it by the header's length */
	of_header_read(msg, &h);
	ofc_dispatch(c, &h, msg);
	if (oc->kick_all) {
		oc->kick_all = 0;
		ofc_advance_all(oc);
	}
	return c->closing ? -1 : 0;
}

/*
 * Back-pressure, as BGP's and PCEP's: no message is read while the
 * answers already queued pass CTL_OUTBUF_MAX, so that a switch sending
 * ECHO_REQUESTs (or anything answered) without reading is held back by
 * TCP instead of growing the controller; ofc_write reads on.
 */
static int
ofc_frame_full(void *dev)
{
	struct ofc_conn	*c = dev;

	if (evbuffer_get_length(bufferevent_get_output(c->bev)) <=
	    CTL_OUTBUF_MAX)
		return 0;
	c->oc->st.reads_paused++;
	return 1;
}

static const struct pool_framer ofc_framer = {
	.hdr_len = OF_HEADER_LEN,
	.length = ofc_frame_length,
	.out_full = ofc_frame_full,
	.message = ofc_frame_message,
};

static void
ofc_read(struct bufferevent *bev, void *arg)
{
	pool_read(bev, &ofc_framer, arg);
}

/* The output has drained: a connection paused by ofc_frame_full reads
 * what waits. */
static void
ofc_write(struct bufferevent *bev, void *arg)
{
	if (!(bufferevent_get_enabled(bev) & EV_READ))
		pool_read_resume(bev, &ofc_framer, arg);
}

static void
ofc_event(struct bufferevent *bev, short what, void *arg)
{
	(void)bev;
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		ofc_close(arg);
}

static int
ofc_attach(struct of_ctl *oc, evutil_socket_t fd)
{
	struct ofc_conn	*c;

	/* A controller's capacity, or a flood of connections: past the
	 * limit a switch is closed before its HELLO (it tries again). */
	if (oc->cfg.max_conns != 0 && oc->n_conns >= oc->cfg.max_conns) {
		if (oc->st.refused++ == 0)
			log_warnx("more than --max-switches %u connections: "
			    "closing the newer ones (counted, logged once)",
			    oc->cfg.max_conns);
		evutil_closesocket(fd);
		return -1;
	}
	c = xcalloc(1, sizeof(*c));
	c->oc = oc;
	if ((c->bev = engine_bev_new(fd)) == NULL) {
		free(c);
		return -1;
	}
	TAILQ_INSERT_TAIL(&oc->conns, c, entry);
	oc->n_conns++;
	bufferevent_setcb(c->bev, ofc_read, ofc_write, ofc_event, c);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	ofc_hello_wait_add(c);
	of_hello_encode(ofc_buf(oc), ofc_highest(oc->cfg.version_bitmap), 0,
	    oc->cfg.version_bitmap);
	ofc_send(c);
	return 0;
}

static void
ofc_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
    int salen, void *arg)
{
	struct of_ctl	*oc = arg;
	int	one = 1;

	(void)l;
	(void)sa;
	(void)salen;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	ofc_attach(oc, fd);
}

int
of_ctl_attach(evutil_socket_t fd)
{
	return ofc_attach(&ofc_main, fd);
}

int
of_ctl_start(const struct of_ctl_config *c, char *err, size_t errlen)
{
	struct of_ctl	*oc = &ofc_main;

	oc->cfg = *c;
	memset(&oc->st, 0, sizeof(oc->st));
	oc->my_role = oc->cfg.role;
	oc->my_gen = oc->cfg.generation;
	oc->gen_seen = 0;
	oc->listener = engine_listen(&oc->cfg.listen, ofc_accept, oc,
	    "OpenFlow", err, errlen);
	if (oc->listener == NULL)
		return -1;
	if (oc->cfg.lldp) {
		struct timeval	tv = { CTL_LLDP_PERIOD, 0 };

		oc->lldp_timer = engine_timer_new(EV_PERSIST, ofc_lldp_tick,
		    oc);
		engine_timer_add(oc->lldp_timer, &tv);
	}
	oc->round_started = oc->round_waiting = 0;
	if (oc->cfg.stats_interval > 0) {
		oc->poll_timer = engine_timer_new(0, ofc_poll_tick, oc);
		ofc_round_timer(oc, ofc_secs_ns(oc->cfg.stats_interval));
	}
	return 0;
}

static void
ofc_switch_info(const struct ofc_conn *c, struct of_ctl_switch *sw)
{
	sw->dpid = c->dpid;
	sw->version = c->version;
	sw->nports = c->nports;
	sw->active_flows = c->active_flows;
}

int
of_ctl_switches(of_ctl_switch_fn fn, void *arg)
{
	struct of_ctl	*oc = &ofc_main;
	struct of_ctl_switch	 sw;
	struct ofc_conn		*c;
	int			 rc;

	TAILQ_FOREACH(c, &oc->conns, entry) {
		if (c->state < CTL_READY)
			continue;
		ofc_switch_info(c, &sw);
		if ((rc = fn(&sw, arg)) != 0)
			return rc;
	}
	return 0;
}

int
of_ctl_switch_find(uint64_t dpid, struct of_ctl_switch *sw)
{
	struct of_ctl	*oc = &ofc_main;
	struct ofc_conn	*c;

	TAILQ_FOREACH(c, &oc->conns, entry)
		if (c->state >= CTL_READY && c->dpid == dpid) {
			ofc_switch_info(c, sw);
			return 0;
		}
	return -1;
}

/* Opening: this process waits for no more than it holds. */
void
of_ctl_gate(int closed)
{
	struct of_ctl	*oc = &ofc_main;

	oc->gate_closed = closed;
	if (closed)
		return;
	oc->cfg.expect_switches = (uint32_t)oc->st.switches;
	ofc_advance_all(oc);
}

int
of_ctl_finished(void)
{
	struct of_ctl	*oc = &ofc_main;

	return oc->st.rounds > 0;
}

void
of_ctl_stop(void)
{
	struct of_ctl	*oc = &ofc_main;
	struct ofc_conn	*c;

	/* Each close takes its connection out of dpids, and uthash frees
	 * its table with the last entry. */
	while ((c = TAILQ_FIRST(&oc->conns)) != NULL)
		ofc_close(c);
	ofc_hello_stop(oc);
	if (oc->listener != NULL)
		engine_listener_free(oc->listener);
	oc->listener = NULL;
	if (oc->lldp_timer != NULL)
		event_free(oc->lldp_timer);
	oc->lldp_timer = NULL;
	if (oc->poll_timer != NULL)
		event_free(oc->poll_timer);
	oc->poll_timer = NULL;
}

void
of_ctl_set_hooks(const struct of_ctl_hooks *h)
{
	struct of_ctl	*oc = &ofc_main;

	if (h == NULL)
		memset(&oc->hooks, 0, sizeof(oc->hooks));
	else
		oc->hooks = *h;
}

int
of_ctl_push(uint64_t dpid, const struct of_flow_mod *fm)
{
	struct of_ctl	*oc = &ofc_main;
	struct ofc_conn	*c = ofc_by_dpid(oc, dpid);
	struct wbuf	*w;

	if (c == NULL)
		return -1;
	w = ofc_buf(oc);
	if (of_flow_mod_encode(w, c->version, ++c->xid, fm) == -1 || w->err) {
		wbuf_reset(&oc->obuf);
		return -1;
	}
	ofc_send(c);
	oc->st.flow_mods_sent++;
	return 0;
}

uint32_t
of_ctl_send(uint64_t dpid, of_ctl_encode_fn enc, const void *arg)
{
	struct of_ctl	*oc = &ofc_main;
	struct ofc_conn	*c = ofc_by_dpid(oc, dpid);
	struct wbuf	*w;
	uint32_t	 xid;

	if (c == NULL)
		return 0;
	/* 0 says "not sent"; the northbound barriers' bit is theirs. */
	if (((xid = ++c->xid) & ~CTL_NB_XID) == 0)
		xid = ++c->xid;
	xid &= ~CTL_NB_XID;
	w = ofc_buf(oc);
	if (enc(w, c->version, xid, arg) == -1 || w->err) {
		wbuf_reset(&oc->obuf);
		return 0;
	}
	ofc_send(c);
	return xid;
}

uint32_t
of_ctl_barrier_xid(uint64_t dpid)
{
	struct of_ctl	*oc = &ofc_main;
	struct ofc_conn	*c = ofc_by_dpid(oc, dpid);
	uint32_t	 xid;

	if (c == NULL)
		return 0;
	/* Not counted in barriers_out: the programming rounds wait on
	 * their own barriers only. */
	xid = (++c->xid & ~CTL_NB_XID) | CTL_NB_XID;
	of_simple_encode(ofc_buf(oc), c->version, OF_BARRIER_REQUEST, xid);
	ofc_send(c);
	return xid;
}

int
of_ctl_barrier(uint64_t dpid)
{
	return of_ctl_barrier_xid(dpid) == 0 ? -1 : 0;
}

/* ---- a member of a controller cluster (1.3.5 section 6.3.6) ---- */

#define CTL_ET_BAD_REQUEST	1	/* 1.3 A.4.4 error types and codes */
#define CTL_BRC_IS_SLAVE	10
#define CTL_ET_ROLE_FAILED	11

/* ROLE_REQUEST with this member's role and generation id (A.3.9). */
static void
ofc_role_request(struct ofc_conn *c)
{
	struct of_ctl	*oc = c->oc;

	of_role_encode(ofc_buf(oc), c->version, OF_ROLE_REQUEST, ++c->xid,
	    oc->my_role, oc->my_gen);
	ofc_send(c);
	oc->st.role_requests++;
}

static void
ofc_gen_seen(struct of_ctl *oc, uint64_t gen)
{
	if ((int64_t)(gen - oc->gen_seen) > 0)
		oc->gen_seen = gen;
}

/* An ERROR for the northbound (its own copy of the body: the role
 * messages read it after). */
static void
ofc_error_hook(struct ofc_conn *c, const struct ofc_msg *m)
{
	struct of_ctl	*oc = c->oc;
	struct rbuf	 b = m->body;
	uint16_t	 type, code;

	if (oc->hooks.error != NULL && of_error_decode(&b, &type, &code) == 0)
		oc->hooks.error(c->dpid, m->h->xid, type, code, oc->hooks.arg);
}

/*
 * What a switch says of roles: ROLE_REPLY, ROLE_STATUS (ONF extension
 * 191 in 1.3: another member took master, this one is slave there) and
 * the errors a cluster member must count (a stale claim, a write
 * refused to a slave); an ERROR goes to the northbound first.
 */
static void
ofc_on_role_msg(struct ofc_conn *c, struct ofc_msg *m)
{
	struct of_ctl	*oc = c->oc;
	enum of_err	err;
	uint64_t	gen;
	uint32_t	role;
	uint16_t	type = 0, code = 0;
	uint8_t		reason;

	if (m->t == OF_ERROR) {
		ofc_error_hook(c, m);
		oc->st.errors_received++;
		if (of_error_decode(&m->body, &type, &code) == -1)
			return;
		if (type == CTL_ET_ROLE_FAILED)
			oc->st.role_refused++;
		else if (type == CTL_ET_BAD_REQUEST && code == CTL_BRC_IS_SLAVE)
			oc->st.is_slave_errors++;
		return;
	}
	if (m->t == OF_ROLE_REPLY) {
		if (of_role_decode(&m->body, &role, &gen, &err) == -1) {
			oc->st.bad_messages++;
			return;
		}
		oc->st.role_replies++;
		ofc_gen_seen(oc, gen);
		return;
	}
	if (of_role_status_decode(&m->body, &role, &reason, &gen) == 0) {
		oc->st.role_status++;
		ofc_gen_seen(oc, gen);
	}
}

uint8_t
of_ctl_cluster_role(uint64_t *generation)
{
	struct of_ctl	*oc = &ofc_main;

	*generation = oc->my_gen;
	return oc->my_role;
}

uint64_t
of_ctl_set_role(uint8_t role, uint64_t generation, uint64_t *used)
{
	struct of_ctl	*oc = &ofc_main;
	struct ofc_conn	*c;
	uint64_t	 n = 0, next;

	next = (int64_t)(oc->gen_seen - oc->my_gen) > 0 ? oc->gen_seen :
	    oc->my_gen;
	oc->my_gen = generation != 0 ? generation : next + 1;
	oc->my_role = role;
	oc->st.role_changes++;
	log_info("cluster: now %s, generation id %llu", of_role_name(role),
	    (unsigned long long)oc->my_gen);
	TAILQ_FOREACH(c, &oc->conns, entry) {
		if (c->state < CTL_READY || c->version != OF_VERSION_13)
			continue;
		ofc_role_request(c);
		n++;
	}
	/* A new master pushes what a slave held back, after its claim. */
	if (role != OF_ROLE_SLAVE)
		ofc_advance_all(oc);
	*used = oc->my_gen;
	return n;
}
