/*
 * Traffic the switches make up: cbench-style PACKET_IN load and LLDP
 * carried over a configured topology so the controller discovers links,
 * and links that --fault link-move rewires.
 *
 * PACKET_IN: each packet names a buffer id equal to its sequence number;
 * a FLOW_MOD or PACKET_OUT naming that buffer is the controller's answer,
 * and its round trip goes into the packet_in phase.  Latency mode keeps one
 * packet outstanding per switch (cbench's default), throughput mode keeps
 * a window of them and the socket busy.
 *
 * The load begins once the controller is ready for it.  Ryu's and
 * os-ken's applications take PACKET_INs only in their main dispatcher,
 * reached after the FEATURES_REPLY and, in 1.3, the port description;
 * OpenDaylight gathers the switch's descriptions and claims its role
 * first.  Whatever came before is dropped, so a switch waits for the
 * controller's first message after the handshake that is not a request
 * for information (a FLOW_MOD such as the table-miss entry, SET_CONFIG,
 * BARRIER, ROLE_REQUEST...), or --packet-in-wait seconds after its
 * FEATURES_REPLY when none comes.  In latency mode a PACKET_IN left
 * unanswered for --packet-in-resend seconds is sent again (lost, or
 * dropped by a controller that was not ready after all).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>

#include "fault.h"
#include "log.h"
#include "of_actions.h"
#include "of_sim.h"
#include "ut.h"

#define OF_PKTIN_FRAME		60
#define OF_PKTIN_OUTBUF_MAX	(256 * 1024)
#define OF_REASON_NO_MATCH	0
#define OF_REASON_ACTION	1
#define OF_NO_BUFFER		0xffffffffu

struct of_pktin_state {
	uint32_t	seq;		/* next buffer id */
	uint32_t	outstanding;
	uint32_t	mask;		/* ring size - 1 */
	uint64_t	sent;
	uint64_t	answered;
	uint64_t	*sent_ns;	/* by seq & mask; 0: answered */
	uint32_t	*sent_seq;
	uint64_t	 up_ns;		/* FEATURES_REPLY sent */
	uint64_t	 tx_ns;		/* latency: last (re)send */
	uint8_t		 begun;		/* the controller is ready */
};

static uint32_t
of_pow2(uint32_t n)
{
	uint32_t	p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* The load begins: the phase with the first switch. */
static void
of_pktin_begin(struct of_switch *sw)
{
	sw->pktin->begun = 1;
	if (sw->sim->ph[OFP_PACKET_IN]->state == PHASE_PENDING)
		phase_start(sw->sim->ph[OFP_PACKET_IN], clock_ns());
	of_pktin_pump(sw);
}

/* FEATURES_REPLY sent: the load waits for the controller (of_pktin_heard,
 * of_pktin_sweep), unless --packet-in-wait 0. */
void
of_pktin_start(struct of_switch *sw)
{
	struct of_config	*cfg = &sw->sim->cfg;
	struct of_pktin_state	*ps;
	uint32_t		 ring;

	if (cfg->pktin == OF_PKTIN_OFF || sw->pktin != NULL)
		return;
	ring = of_pow2(cfg->pktin == OF_PKTIN_LATENCY ? 1 : cfg->pktin_window);
	ps = xcalloc(1, sizeof(*ps));
	ps->mask = ring - 1;
	ps->sent_ns = xcalloc(ring, sizeof(*ps->sent_ns));
	ps->sent_seq = xcalloc(ring, sizeof(*ps->sent_seq));
	ps->up_ns = clock_ns();
	sw->pktin = ps;
	if (cfg->pktin_wait <= 0)
		of_pktin_begin(sw);
}

/*
 * Does this message say the controller is done learning about the switch?
 * Requests for information (features, descriptions, statistics, config,
 * echoes) and errors are part of how it learns; anything that acts on the
 * switch comes after its handshake (os-ken's table-miss FLOW_MOD follows
 * its port description request, OpenDaylight's ROLE_REQUEST its
 * multipart requests).
 */
static int
of_pktin_acts(enum of_type t)
{
	switch (t) {
	case OF_FEATURES_REQUEST:
	case OF_GET_CONFIG_REQUEST:
	case OF_MULTIPART_REQUEST:
	case OF_QUEUE_GET_CONFIG_REQUEST:
	case OF_GET_ASYNC_REQUEST:
	case OF_ECHO_REQUEST:
	case OF_ECHO_REPLY:
	case OF_ERROR:
	case OF_HELLO:
		return 0;
	default:
		return 1;
	}
}

void
of_pktin_heard(struct of_switch *sw, enum of_type t)
{
	if (sw->pktin == NULL || sw->pktin->begun || sw->state != OFS_UP ||
	    !of_pktin_acts(t))
		return;
	of_pktin_begin(sw);
}

void
of_pktin_stop(struct of_switch *sw)
{
	if (sw->pktin == NULL)
		return;
	free(sw->pktin->sent_ns);
	free(sw->pktin->sent_seq);
	free(sw->pktin);
	sw->pktin = NULL;
}

/* A 60-byte UDP/IPv4 frame from MAC number mac of this switch. */
static void
of_pktin_frame(const struct of_switch *sw, uint32_t mac, uint8_t *f)
{
	static const uint8_t	tmpl[OF_PKTIN_FRAME] = {
		0x00, 0x00, 0x00, 0x00, 0x00, 0x01,	/* dst */
		0x02, 0x00, 0x00, 0x00, 0x00, 0x00,	/* src, filled */
		0x08, 0x00,				/* IPv4 */
		0x45, 0x00, 0x00, 0x2e, 0x00, 0x00, 0x40, 0x00,
		0x40, 0x11, 0x00, 0x00,			/* UDP */
		10, 0, 0, 1, 10, 0, 0, 2,
		0x30, 0x39, 0x00, 0x35, 0x00, 0x1a, 0x00, 0x00,
	};

	memcpy(f, tmpl, sizeof(tmpl));
	f[7] = (uint8_t)(sw->idx >> 16);
	f[8] = (uint8_t)(sw->idx >> 8);
	f[9] = (uint8_t)sw->idx;
	f[10] = (uint8_t)(mac >> 8);
	f[11] = (uint8_t)mac;
}

static int
of_pktin_may_send(const struct of_switch *sw, uint8_t reason)
{
	return sw->state == OFS_UP && sw->pd.bev != NULL &&
	    (sw->async.packet_in[of_conn_role(sw) == OF_ROLE_SLAVE] &
	    (1u << reason)) != 0;
}

/* PACKET_IN number n (its frame and in_port) under buffer_id. */
static void
of_pktin_emit(struct of_switch *sw, uint64_t n, uint32_t buffer_id,
    uint64_t now)
{
	struct of_packet_in	 pi;
	uint8_t			 frame[OF_PKTIN_FRAME];
	struct wbuf		*w = of_scratch();

	of_pktin_frame(sw, (uint32_t)(n % sw->sim->cfg.macs), frame);
	memset(&pi, 0, sizeof(pi));
	pi.buffer_id = buffer_id;
	pi.total_len = sizeof(frame);
	pi.reason = OF_REASON_NO_MATCH;
	pi.in_port = 1 + (uint32_t)(n % sw->sim->cfg.ports);
	pi.data = frame;
	pi.data_len = sizeof(frame);
	of_packet_in_encode(w, sw->version, 0, &pi);
	of_switch_send(sw, w);
	sw->pktin->tx_ns = now;
}

static void
of_pktin_send_one(struct of_switch *sw, uint64_t now)
{
	struct of_pktin_state	*ps = sw->pktin;
	uint32_t		 slot = ps->seq & ps->mask;

	of_pktin_emit(sw, ps->sent, ps->seq, now);
	if (ps->sent_ns[slot] == 0)
		ps->outstanding++;
	ps->sent_ns[slot] = now;
	ps->sent_seq[slot] = ps->seq;
	ps->seq = ps->seq + 1 == OF_NO_BUFFER ? 0 : ps->seq + 1;
	if (ps->sent++ == 0)
		sw->sim->pktin_asked++;
	(*sw->sim->c.packet_ins_sent)++;
}

void
of_pktin_pump(struct of_switch *sw)
{
	struct of_pktin_state	*ps = sw->pktin;
	struct evbuffer		*out;
	uint64_t		 limit = sw->sim->cfg.pktin_count;
	uint64_t		 now = clock_ns();

	if (ps == NULL || !ps->begun ||
	    !of_pktin_may_send(sw, OF_REASON_NO_MATCH))
		return;
	/* The window is refilled once half of it has come back, in one
	 * send: refilled at every answer, each read brought one or two
	 * answers and each send one or two PACKET_INs, and sbsim spent
	 * 1.03-1.25 times cbench's CPU per response (0.80-0.89 so). */
	if (ps->outstanding > (ps->mask + 1) / 2)
		return;
	out = bufferevent_get_output(sw->pd.bev);
	while (ps->outstanding <= ps->mask && (limit == 0 || ps->sent < limit)
	    && evbuffer_get_length(out) < OF_PKTIN_OUTBUF_MAX)
		of_pktin_send_one(sw, now);
}

void
of_pktin_response(struct of_switch *sw, uint32_t buffer_id, uint64_t now)
{
	struct of_pktin_state	*ps = sw->pktin;
	struct phase		*ph = sw->sim->ph[OFP_PACKET_IN];
	uint32_t		 slot;

	if (ps == NULL)
		return;
	slot = buffer_id & ps->mask;
	if (ps->sent_ns[slot] == 0 || ps->sent_seq[slot] != buffer_id)
		return;		/* answered already, or overwritten */
	phase_latency(ph, (now - ps->sent_ns[slot]) / 1000);
	phase_items(ph, now, 1);
	ps->sent_ns[slot] = 0;
	ps->outstanding--;
	if (ps->answered++ == 0)
		sw->sim->pktin_answered++;
}

/*
 * A load without --packet-in-count runs to the run's end, which closes
 * it DONE (run_close_phases()) whatever came back: a controller that
 * answered nothing, or only some switches, did not do what the phase
 * measures, and says so (counted, and TIMEOUT).
 */
void
of_pktin_verdict(struct of_sim *sim)
{
	struct phase	*ph = sim->ph[OFP_PACKET_IN];

	if (ph == NULL)
		return;
	*metrics_counter(sim->m, "packet_in_switches") = sim->pktin_asked;
	*metrics_counter(sim->m, "packet_in_switches_answered") =
	    sim->pktin_answered;
	if (ph->state != PHASE_DONE ||
	    (ph->items > 0 && sim->pktin_answered >= sim->pktin_asked))
		return;
	log_warnx("packet_in: answers from %llu of the %llu switches that "
	    "sent PACKET_INs (%llu answers): not done",
	    (unsigned long long)sim->pktin_answered,
	    (unsigned long long)sim->pktin_asked,
	    (unsigned long long)ph->items);
	ph->state = PHASE_TIMEOUT;
}

/*
 * Latency mode: the one PACKET_IN outstanding went unanswered for
 * --packet-in-resend seconds.  It goes again under the same buffer id,
 * its round trip still counted from the first send: a controller that
 * was only slow is timed as slow, one that dropped it is timed with the
 * wait, never faster than it was.
 */
static void
of_pktin_resend(struct of_switch *sw, uint64_t now)
{
	struct of_pktin_state	*ps = sw->pktin;

	if (!of_pktin_may_send(sw, OF_REASON_NO_MATCH))
		return;
	if ((*sw->sim->c.packet_ins_resent)++ == 0)
		log_info("switch %u: PACKET_IN %u unanswered for %.1f s, sent "
		    "again (further resends counted in packet_ins_resent, "
		    "not logged)", sw->idx, ps->sent_seq[0],
		    (double)(now - ps->tx_ns) / 1e9);
	of_pktin_emit(sw, ps->sent - 1, ps->sent_seq[0], now);
}

/* One connection's waits: the controller's readiness, a lost answer. */
static void
of_pktin_check(struct of_switch *sw, uint64_t now)
{
	struct of_pktin_state	*ps = sw->pktin;
	const struct of_config	*cfg = &sw->sim->cfg;

	if (!ps->begun) {
		if (sw->state == OFS_UP &&
		    (double)(now - ps->up_ns) / 1e9 >= cfg->pktin_wait) {
			(*sw->sim->c.packet_in_waits)++;
			of_pktin_begin(sw);
		}
		return;
	}
	if (cfg->pktin != OF_PKTIN_LATENCY || cfg->pktin_resend <= 0 ||
	    ps->outstanding == 0 ||
	    (double)(now - ps->tx_ns) / 1e9 < cfg->pktin_resend)
		return;
	of_pktin_resend(sw, now);
}

/* Once a second (of_switch_sweep): every connection making a load. */
void
of_pktin_sweep(struct of_sim *sim, uint64_t now)
{
	uint32_t	i;

	if (sim->cfg.pktin == OF_PKTIN_OFF)
		return;
	for (i = 0; i < sim->cfg.switches * sim->cfg.n_ctl; i++)
		if (sim->sw[i].pktin != NULL)
			of_pktin_check(&sim->sw[i], now);
}

/*
 * The port of the switch at the other end of (idx, port), if any.
 * linear/ring: port 1 faces the previous switch, port 2 the next.
 * tree: port 1 faces the parent, ports 2..fanout+1 the children.
 */
static int
of_topo_peer(const struct of_config *cfg, uint32_t idx, uint32_t port,
    uint32_t *peer, uint32_t *peer_port)
{
	uint32_t	n = cfg->switches, k = cfg->tree_fanout;
	int		ring = cfg->topo == OF_TOPO_RING;

	switch (cfg->topo) {
	case OF_TOPO_LINEAR:
	case OF_TOPO_RING:
		if (port == 1 && (idx > 0 || ring)) {
			*peer = idx > 0 ? idx - 1 : n - 1;
			*peer_port = 2;
			return 0;
		}
		if (port == 2 && (idx + 1 < n || ring)) {
			*peer = idx + 1 < n ? idx + 1 : 0;
			*peer_port = 1;
			return 0;
		}
		return -1;
	case OF_TOPO_TREE:
		if (port == 1 && idx > 0) {
			*peer = (idx - 1) / k;
			*peer_port = 2 + (idx - 1) % k;
			return 0;
		}
		if (port >= 2 && port <= k + 1 &&
		    (uint64_t)idx * k + port - 1 < n) {
			*peer = idx * k + port - 1;
			*peer_port = 1;
			return 0;
		}
		return -1;
	default:
		return -1;
	}
}

/*
 * A port whose link --fault link-move changed: its peer now, or none
 * (the port it was moved away from).  It overrides the topology.
 */
struct of_link_move {
	UT_hash_handle	 hh;
	uint64_t	 key;		/* idx << 32 | port */
	uint32_t	 peer, peer_port;
	uint8_t		 linked;
};

/* The peer of (idx, port): a moved link's, else the topology's. */
static int
of_link_peer(const struct of_sim *sim, uint32_t idx, uint32_t port,
    uint32_t *peer, uint32_t *peer_port)
{
	struct of_link_move	*m;
	uint64_t		 key = (uint64_t)idx << 32 | port;

	HASH_FIND(hh, sim->moved, &key, sizeof(key), m);
	if (m == NULL)
		return of_topo_peer(&sim->cfg, idx, port, peer, peer_port);
	if (!m->linked)
		return -1;
	*peer = m->peer;
	*peer_port = m->peer_port;
	return 0;
}

static void
of_link_set(struct of_sim *sim, uint32_t idx, uint32_t port, int linked,
    uint32_t peer, uint32_t peer_port)
{
	struct of_link_move	*m;
	uint64_t		 key = (uint64_t)idx << 32 | port;

	HASH_FIND(hh, sim->moved, &key, sizeof(key), m);
	if (m == NULL) {
		m = xcalloc(1, sizeof(*m));
		m->key = key;
		HASH_ADD(hh, sim->moved, key, sizeof(m->key), m);
	}
	m->linked = linked != 0;
	m->peer = peer;
	m->peer_port = peer_port;
}

void
of_topo_moves_free(struct of_sim *sim)
{
	UT_FREE_ALL(sim->moved);
}

/* A connected switch's port linked to another connected switch, from
 * the rnd-th port on: 0 with (a, p) and its peer (b, q). */
static int
of_move_pick_link(struct of_sim *sim, uint64_t rnd, uint32_t *a,
    uint32_t *p, uint32_t *b, uint32_t *q)
{
	uint64_t	total = (uint64_t)sim->cfg.switches * sim->cfg.ports, i;
	uint64_t	at;

	for (i = 0; i < total; i++) {
		at = (rnd + i) % total;
		*a = (uint32_t)(at / sim->cfg.ports);
		*p = (uint32_t)(at % sim->cfg.ports) + 1;
		if (of_switch_connected(&sim->sw[*a]) &&
		    of_link_peer(sim, *a, *p, b, q) == 0 &&
		    of_switch_connected(&sim->sw[*b]))
			return 0;
	}
	return -1;
}

/* A free port (no link, not down) of a connected third switch. */
static int
of_move_pick_free(struct of_sim *sim, uint64_t rnd, uint32_t a, uint32_t b,
    uint32_t *c, uint32_t *r)
{
	uint64_t	total = (uint64_t)sim->cfg.switches * sim->cfg.ports, i;
	uint64_t	at;
	uint32_t	peer, peer_port;

	for (i = 0; i < total; i++) {
		at = (rnd + i) % total;
		*c = (uint32_t)(at / sim->cfg.ports);
		*r = (uint32_t)(at % sim->cfg.ports) + 1;
		if (*c != a && *c != b &&
		    of_switch_connected(&sim->sw[*c]) &&
		    !of_port_link_down(&sim->sw[*c], *r) &&
		    of_link_peer(sim, *c, *r, &peer, &peer_port) == -1)
			return 0;
	}
	return -1;
}

/*
 * --fault link-move: the cable of switch A's port p, linked to B's port
 * q, is plugged into C's free port r instead.  B:q's link goes down
 * (and stays so), A:p's goes down and up again, C:r's comes up: each a
 * PORT_STATUS MODIFY (OpenFlow 1.3.5 section 7.4.3, 1.0 section 5.4.3)
 * to every controller, and LLDP sent out of A:p now arrives at C:r (and
 * back), so the controller's discovery finds the new neighbour.
 */
int
of_topo_link_move(void *cfg, const struct fault_shot *shot)
{
	struct of_sim	*sim = cfg;
	uint32_t	 a, p, b, q, c, r;

	if (sim->cfg.topo == OF_TOPO_NONE || sim->cfg.switches < 3 ||
	    sim->cfg.ports == 0 ||
	    of_move_pick_link(sim, shot->rnd & 0xffffffff, &a, &p, &b,
	    &q) == -1 ||
	    of_move_pick_free(sim, shot->rnd >> 32, a, b, &c, &r) == -1)
		return -1;
	of_port_link(&sim->sw[a], p, 1);
	of_port_link(&sim->sw[b], q, 1);
	of_link_set(sim, b, q, 0, 0, 0);
	of_link_set(sim, a, p, 1, c, r);
	of_link_set(sim, c, r, 1, a, p);
	of_port_link(&sim->sw[a], p, 0);
	of_port_link(&sim->sw[c], r, 0);
	log_info("switch %u: port %u's link moved from switch %u port %u to "
	    "switch %u port %u", a, p, b, q, c, r);
	return 0;
}

int
of_topo_check(const struct of_config *cfg, char *err, size_t errlen)
{
	uint32_t	need = 0;

	if (cfg->topo == OF_TOPO_LINEAR || cfg->topo == OF_TOPO_RING)
		need = 2;
	else if (cfg->topo == OF_TOPO_TREE)
		need = cfg->tree_fanout + 1;
	if (cfg->ports < need) {
		snprintf(err, errlen, "--topology needs at least %u ports per "
		    "switch (--ports %u)", need, cfg->ports);
		return -1;
	}
	if (cfg->topo == OF_TOPO_RING && cfg->switches < 3) {
		snprintf(err, errlen, "--topology ring needs 3 switches or "
		    "more");
		return -1;
	}
	return 0;
}

static void
of_lldp_deliver_to(struct of_switch *from, uint32_t port,
    struct of_switch *to, uint32_t peer_port, const struct of_packet_out *po)
{
	struct of_sim		*sim = from->sim;
	struct of_packet_in	 pi;
	struct wbuf		*w;

	if (!of_pktin_may_send(to, OF_REASON_ACTION) ||
	    (from->ports[port - 1].config & 1) ||
	    (to->ports[peer_port - 1].config & 1))
		return;		/* peer away, or a port administratively down */
	memset(&pi, 0, sizeof(pi));
	pi.buffer_id = OF_NO_BUFFER;
	pi.total_len = (uint16_t)po->data_len;
	pi.reason = OF_REASON_ACTION;
	pi.in_port = peer_port;
	pi.data = po->data;
	pi.data_len = po->data_len;
	w = of_scratch();
	of_packet_in_encode(w, to->version, 0, &pi);
	of_switch_send(to, w);
	(*sim->c.lldp_forwarded)++;
}

static void
of_lldp_deliver(struct of_switch *from, uint32_t port,
    const struct of_packet_out *po)
{
	struct of_sim		*sim = from->sim;
	uint32_t		 peer, peer_port;
	unsigned		 k;

	if (of_link_peer(sim, from->idx, port, &peer, &peer_port) == -1)
		return;
	/* Each controller of the peer whose async config takes it. */
	for (k = 0; k < sim->cfg.n_ctl; k++)
		of_lldp_deliver_to(from, port, of_switch_conn(sim, peer, k),
		    peer_port, po);
}

/* The controller sent LLDP out of some ports: it arrives at their peers. */
void
of_lldp_forward(struct of_switch *sw, const struct of_packet_out *po)
{
	uint32_t	ports[16];
	int		n;

	if (sw->sim->cfg.topo == OF_TOPO_NONE)
		return;
	n = of_actions_output_ports(sw->version, po->actions, po->actions_len,
	    ports, 16);
	of_lldp_out_ports(sw, po, ports, n);
}

/* An LLDP frame leaves by these ports (FLOOD, ALL, IN_PORT or one):
 * the peers of the linked ones hear it. */
void
of_lldp_out_ports(struct of_switch *sw, const struct of_packet_out *po,
    const uint32_t *ports, int n)
{
	uint32_t	i, p;

	if (sw->sim->cfg.topo == OF_TOPO_NONE)
		return;
	for (i = 0; n > 0 && i < (uint32_t)n; i++) {
		if (ports[i] == OF_PORT_FLOOD || ports[i] == OF_PORT_ALL) {
			for (p = 1; p <= sw->sim->cfg.ports; p++)
				if (p != po->in_port)
					of_lldp_deliver(sw, p, po);
		} else if (ports[i] == OF_PORT_IN_PORT) {
			if (po->in_port >= 1 && po->in_port <= sw->sim->cfg.ports)
				of_lldp_deliver(sw, po->in_port, po);
		} else if (ports[i] >= 1 && ports[i] <= sw->sim->cfg.ports)
			of_lldp_deliver(sw, ports[i], po);
	}
}
