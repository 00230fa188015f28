/*
 * The switches' ports for the inventory (see of_ports.h), written in the
 * shape of openflowplugin's flow-capable-node-connector (flow-node-
 * inventory, opendaylight-port-types) and its
 * flow-capable-node-connector-statistics (opendaylight-port-statistics).
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "of_actions.h"
#include "of_flowcfg.h"
#include "of_ports.h"
#include "of_types.h"

#define OP_MAX_PORTS	4096	/* per node: more are not kept */


static const struct doc_module op_fni_mod = {
	"flow-node-inventory", "urn:opendaylight:flow:inventory"
};
static const struct doc_module op_stats_mod = {
	"opendaylight-port-statistics", "urn:opendaylight:port:statistics"
};

static struct op_node *
op_node(uint64_t dpid, int create)
{
	struct fc_node	*fn = fc_node_get(dpid, create);

	return fn != NULL ? fc_node_ports(fn) : NULL;
}

static struct op_port *
op_find(struct op_node *n, uint32_t port)
{
	size_t	i;

	for (i = 0; n != NULL && i < n->n; i++)
		if (n->ports[i].p.port_no == port)
			return &n->ports[i];
	return NULL;
}

/* A switch (re)connected: what it said before is forgotten. */
void
op_connected(uint64_t dpid, uint8_t version)
{
	struct op_node	*n = op_node(dpid, 1);

	n->version = version;
	n->n = 0;
}

void
op_port(uint64_t dpid, uint8_t reason, const struct of_port *p, void *arg)
{
	struct op_node	*n = op_node(dpid, 1);
	struct op_port	*o = op_find(n, p->port_no);

	(void)arg;
	if (reason == OF_PR_DELETE) {
		if (o != NULL)
			*o = n->ports[--n->n];
		return;
	}
	if (o == NULL) {
		if (n->n == OP_MAX_PORTS)
			return;
		if (n->n == n->cap) {
			n->cap = n->cap ? 2 * n->cap : 8;
			n->ports = xreallocarray(n->ports, n->cap,
			    sizeof(*n->ports));
		}
		o = &n->ports[n->n++];
		memset(o, 0, sizeof(*o));
	}
	o->p = *p;
	/* Its link down: the link LLDP found there is gone until found
	 * again (openflowplugin's topology manager drops it too). */
	if (p->state & OF_PS_LINK_DOWN)
		o->peer_dpid = o->peer_port = 0;
}

void
op_port_stats(uint64_t dpid, const struct of_port_stats *ps, void *arg)
{
	struct op_port	*o = op_find(op_node(dpid, 0), ps->port_no);

	(void)arg;
	if (o != NULL) {
		o->ps = *ps;
		o->has_stats = 1;
	}
}

void
op_link(uint64_t src, uint32_t src_port, uint64_t dst, uint32_t dst_port,
    void *arg)
{
	struct op_port	*o = op_find(op_node(src, 0), src_port);

	(void)arg;
	if (o != NULL) {
		o->peer_dpid = dst;
		o->peer_port = dst_port;
	}
}

void
op_node_clear(struct op_node *n)
{
	free(n->ports);
	memset(n, 0, sizeof(*n));
}

const struct op_port *
op_ports(uint64_t dpid, size_t *cnt)
{
	struct op_node	*n = op_node(dpid, 0);

	*cnt = n != NULL ? n->n : 0;
	return n != NULL ? n->ports : NULL;
}

void
op_port_id(char *s, size_t cap, uint64_t dpid, uint32_t port)
{
	if (port == OF_PORT_LOCAL)
		snprintf(s, cap, "openflow:%" PRIu64 ":LOCAL", dpid);
	else
		snprintf(s, cap, "openflow:%" PRIu64 ":%" PRIu32, dpid, port);
}

/* ---- writing ---- */

/* opendaylight-port-types port-features, in the bit order of 1.3's
 * ofp_port_features (section 7.2.1); 1.0 has no 40G, 100G, 1T or other
 * (section 5.2.1): its media and pause bits sit four lower. */
static const char *const op_features[] = {
	"ten-mb-hd", "ten-mb-fd", "hundred-mb-hd", "hundred-mb-fd",
	"one-gb-hd", "one-gb-fd", "ten-gb-fd", "forty-gb-fd",
	"hundred-gb-fd", "one-tb-fd", "other", "copper", "fibre", "autoeng",
	"pause", "pause-asym",
};

static void
op_bits(struct doc_writer *w, const char *name, uint32_t bits,
    uint8_t version)
{
	char		s[256];
	size_t		len = 0, i;
	uint32_t	b = bits;

	if (version == OF_VERSION_10)
		b = (bits & 0x7f) | ((bits >> 7) & 0x1f) << 11;
	s[0] = '\0';
	for (i = 0; i < sizeof(op_features) / sizeof(op_features[0]); i++)
		if (b & (1u << i))
			len += (size_t)snprintf(s + len, sizeof(s) - len, "%s%s",
			    len ? " " : "", op_features[i]);
	doc_leaf_in(w, &op_fni_mod, name, s, 1);
}

/* port-config bits (PORT-DOWN 0, NO-RECV 2, NO-FWD 5, NO-PACKET-IN 6:
 * the same in 1.0 and 1.3) and the state container. */
static void
op_config_state(struct doc_writer *w, const struct of_port *p,
    uint8_t version)
{
	static const struct {
		uint32_t	 bit;
		const char	*name;
	} cfg[] = { { 1u << 0, "PORT-DOWN" }, { 1u << 2, "NO-RECV" },
	    { 1u << 5, "NO-FWD" }, { 1u << 6, "NO-PACKET-IN" } };
	char	s[64];
	size_t	len = 0, i;

	s[0] = '\0';
	for (i = 0; i < sizeof(cfg) / sizeof(cfg[0]); i++)
		if (p->config & cfg[i].bit)
			len += (size_t)snprintf(s + len, sizeof(s) - len, "%s%s",
			    len ? " " : "", cfg[i].name);
	doc_leaf_in(w, &op_fni_mod, "configuration", s, 1);
	doc_container(w, &op_fni_mod, "state");
	/* LINK_DOWN bit 0 in both; BLOCKED and LIVE are 1.3's. */
	doc_leaf_in(w, NULL, "link-down", p->state & 1 ? "true" : "false", 0);
	doc_leaf_in(w, NULL, "blocked", version != OF_VERSION_10 &&
	    (p->state & 2) ? "true" : "false", 0);
	doc_leaf_in(w, NULL, "live", version != OF_VERSION_10 &&
	    (p->state & 4) ? "true" : "false", 0);
	doc_end(w);
}

static void
op_pair(struct doc_writer *w, const char *name, uint64_t rx, uint64_t tx)
{
	doc_container(w, NULL, name);
	doc_leaf_uint(w, "received", rx);
	doc_leaf_uint(w, "transmitted", tx);
	doc_end(w);
}

#define OP_COUNTER(leaf, field)	{ leaf, offsetof(struct of_port_stats, field) }

/* The statistics' plain counter leaves, in the model's order. */
static const struct {
	const char	*leaf;
	size_t		 off;		/* of a uint64_t in of_port_stats */
} op_counters[] = {
	OP_COUNTER("receive-drops", rx_dropped),
	OP_COUNTER("transmit-drops", tx_dropped),
	OP_COUNTER("receive-errors", rx_errors),
	OP_COUNTER("transmit-errors", tx_errors),
	OP_COUNTER("receive-frame-error", rx_frame_err),
	OP_COUNTER("receive-over-run-error", rx_over_err),
	OP_COUNTER("receive-crc-error", rx_crc_err),
	OP_COUNTER("collision-count", collisions),
};

/* The last PORT_STATS counters (zeros until the first reply). */
static void
op_stats(struct doc_writer *w, const struct of_port_stats *ps)
{
	const uint64_t	*c;
	size_t		 i;

	doc_container(w, &op_stats_mod, "flow-capable-node-connector-statistics");
	op_pair(w, "packets", ps->rx_packets, ps->tx_packets);
	op_pair(w, "bytes", ps->rx_bytes, ps->tx_bytes);
	for (i = 0; i < sizeof(op_counters) / sizeof(op_counters[0]); i++) {
		c = (const uint64_t *)((const char *)ps + op_counters[i].off);
		doc_leaf_uint(w, op_counters[i].leaf, *c);
	}
	doc_container(w, NULL, "duration");
	doc_leaf_uint(w, "second", ps->duration_sec);
	doc_leaf_uint(w, "nanosecond", ps->duration_nsec);
	doc_end(w);
	doc_end(w);
}

static void
op_connector(struct doc_writer *w, uint64_t dpid, const struct op_port *o,
    uint8_t version)
{
	const struct of_port	*p = &o->p;
	char			 s[48];

	doc_entry(w);
	op_port_id(s, sizeof(s), dpid, p->port_no);
	doc_leaf_str(w, "id", s);
	if (p->port_no == OF_PORT_LOCAL)
		doc_leaf_in(w, &op_fni_mod, "port-number", "LOCAL", 1);
	else {
		snprintf(s, sizeof(s), "%" PRIu32, p->port_no);
		doc_leaf_in(w, &op_fni_mod, "port-number", s, 0);
	}
	snprintf(s, sizeof(s), "%02x:%02x:%02x:%02x:%02x:%02x", p->hw_addr[0],
	    p->hw_addr[1], p->hw_addr[2], p->hw_addr[3], p->hw_addr[4],
	    p->hw_addr[5]);
	doc_leaf_in(w, &op_fni_mod, "hardware-address", s, 1);
	doc_leaf_in(w, &op_fni_mod, "name", p->name, 1);
	snprintf(s, sizeof(s), "%" PRIu32, p->curr_speed);
	doc_leaf_in(w, &op_fni_mod, "current-speed", s, 0);
	snprintf(s, sizeof(s), "%" PRIu32, p->max_speed);
	doc_leaf_in(w, &op_fni_mod, "maximum-speed", s, 0);
	op_config_state(w, p, version);
	op_bits(w, "current-feature", p->curr, version);
	op_bits(w, "advertised-features", p->advertised, version);
	op_bits(w, "supported", p->supported, version);
	op_bits(w, "peer-features", p->peer, version);
	op_stats(w, &o->ps);
	doc_end(w);
}

void
op_render(struct doc_writer *w, uint64_t dpid)
{
	struct op_node	*n = op_node(dpid, 0);
	size_t		 i;

	for (i = 0; n != NULL && i < n->n; i++)
		op_connector(w, dpid, &n->ports[i], n->version);
}

/* The port of node dpid whose id (op_port_id) is id exactly, or NULL: a
 * key names one port only, as in ODL's datastore ("openflow:1:01" is
 * none). */
static const struct op_port *
op_by_id(const struct op_node *n, uint64_t dpid, const char *id)
{
	char	s[48];
	size_t	i;

	for (i = 0; n != NULL && i < n->n; i++) {
		op_port_id(s, sizeof(s), dpid, n->ports[i].p.port_no);
		if (strcmp(s, id) == 0)
			return &n->ports[i];
	}
	return NULL;
}

int
op_known(uint64_t dpid, const char *id)
{
	return op_by_id(op_node(dpid, 0), dpid, id) != NULL;
}

void
op_render_one(struct doc_writer *w, const struct doc_module *top,
    uint64_t dpid, const char *id, int stats_only)
{
	struct op_node		*n = op_node(dpid, 0);
	const struct op_port	*o = op_by_id(n, dpid, id);

	if (o == NULL)
		return;
	if (stats_only)
		op_stats(w, &o->ps);
	else {
		doc_list(w, top, "node-connector");
		op_connector(w, dpid, o, n->version);
		doc_end(w);
	}
}
