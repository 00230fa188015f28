/*
 * network-topology's topology flow:1, as openflowplugin's topology
 * manager writes it in the operational datastore: a node per connected
 * switch (with its inventory-node-ref), a termination point per port it
 * reported, and a link per direction LLDP found (link-id: the source
 * termination point), both ends connected.  Read only; it has no config.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>

#include "of_ctl.h"
#include "of_ports.h"
#include "of_restconf.h"
#include "rc_topology.h"

#define OT_TOPOLOGY	"flow:1"
#define OT_INV		"/opendaylight-inventory:nodes/opendaylight-inventory:"

static const struct doc_module ot_inv_mod = {
	"opendaylight-topology-inventory",
	"urn:opendaylight:model:topology:inventory"
};

/* What a read asks for: one node, tp or link, or all (NULL). */
struct ot_sel {
	const char	*node;
	const char	*tp;
	const char	*link;
	int		 found;
};

static void
ot_tp(struct doc_writer *w, uint64_t dpid, const struct op_port *o)
{
	char	id[48], ref[256];

	op_port_id(id, sizeof(id), dpid, o->p.port_no);
	doc_entry(w);
	doc_leaf_str(w, "tp-id", id);
	snprintf(ref, sizeof(ref), OT_INV "node[opendaylight-inventory:id="
	    "'openflow:%" PRIu64 "']/opendaylight-inventory:node-connector["
	    "opendaylight-inventory:id='%s']", dpid, id);
	doc_leaf_in(w, &ot_inv_mod, "inventory-node-connector-ref", ref, 1);
	doc_end(w);
}

static void
ot_node(struct doc_writer *w, uint64_t dpid)
{
	const struct op_port	*ports;
	char			 id[32], ref[128];
	size_t			 n, i;

	ports = op_ports(dpid, &n);
	doc_entry(w);
	snprintf(id, sizeof(id), "openflow:%" PRIu64, dpid);
	doc_leaf_str(w, "node-id", id);
	snprintf(ref, sizeof(ref), OT_INV "node[opendaylight-inventory:id="
	    "'%s']", id);
	doc_leaf_in(w, &ot_inv_mod, "inventory-node-ref", ref, 1);
	doc_list(w, NULL, "termination-point");
	for (i = 0; i < n; i++)
		ot_tp(w, dpid, &ports[i]);
	doc_end(w);
	doc_end(w);
}

/* One termination point of a connected node. */
static void
ot_one_tp(struct doc_writer *w, struct ot_sel *sel)
{
	const struct op_port	*ports;
	struct of_ctl_switch	 sw;
	uint64_t		 dpid;
	char			 tp[48];
	size_t			 n, i;

	if (of_restconf_node_id(sel->node, &dpid) == -1 ||
	    of_ctl_switch_find(dpid, &sw) == -1)
		return;
	ports = op_ports(dpid, &n);
	for (i = 0; i < n; i++) {
		op_port_id(tp, sizeof(tp), dpid, ports[i].p.port_no);
		if (strcmp(tp, sel->tp) == 0) {
			sel->found = 1;
			ot_tp(w, dpid, &ports[i]);
		}
	}
}

/* The links found from one switch whose far end is connected. */
static void
ot_links(struct doc_writer *w, uint64_t dpid, struct ot_sel *sel)
{
	const struct op_port	*ports;
	struct of_ctl_switch	 peer;
	char			 src[48], dst[48], node[32];
	size_t			 n, i;

	ports = op_ports(dpid, &n);
	for (i = 0; i < n; i++) {
		if (ports[i].peer_dpid == 0 ||
		    of_ctl_switch_find(ports[i].peer_dpid, &peer) == -1)
			continue;
		op_port_id(src, sizeof(src), dpid, ports[i].p.port_no);
		if (sel->link != NULL && strcmp(sel->link, src) != 0)
			continue;
		sel->found = 1;
		op_port_id(dst, sizeof(dst), ports[i].peer_dpid,
		    ports[i].peer_port);
		doc_entry(w);
		doc_leaf_str(w, "link-id", src);
		doc_container(w, NULL, "source");
		snprintf(node, sizeof(node), "openflow:%" PRIu64, dpid);
		doc_leaf_str(w, "source-node", node);
		doc_leaf_str(w, "source-tp", src);
		doc_end(w);
		doc_container(w, NULL, "destination");
		snprintf(node, sizeof(node), "openflow:%" PRIu64,
		    ports[i].peer_dpid);
		doc_leaf_str(w, "dest-node", node);
		doc_leaf_str(w, "dest-tp", dst);
		doc_end(w);
		doc_end(w);
	}
}

struct ot_walk {
	struct doc_writer	*w;
	struct ot_sel		*sel;
	int			 links;
};

static int
ot_switch_cb(const struct of_ctl_switch *sw, void *arg)
{
	struct ot_walk	*wk = arg;
	char		 id[32];

	if (wk->links) {
		ot_links(wk->w, sw->dpid, wk->sel);
		return 0;
	}
	snprintf(id, sizeof(id), "openflow:%" PRIu64, sw->dpid);
	if (wk->sel->node == NULL || strcmp(wk->sel->node, id) == 0) {
		wk->sel->found = 1;
		ot_node(wk->w, sw->dpid);
	}
	return 0;
}

static void
ot_entry(struct doc_writer *w, int config, void *arg)
{
	struct ot_sel	sel = { NULL, NULL, NULL, 0 };
	struct ot_walk	wk = { w, &sel, 0 };

	(void)arg;
	if (config)
		return;
	doc_entry(w);
	doc_leaf_str(w, "topology-id", OT_TOPOLOGY);
	doc_list(w, NULL, "node");
	of_ctl_switches(ot_switch_cb, &wk);
	doc_end(w);
	doc_list(w, NULL, "link");
	wk.links = 1;
	of_ctl_switches(ot_switch_cb, &wk);
	doc_end(w);
	doc_end(w);
}

/* One node, termination point or link: the path's selection, written
 * into w (which the caller discards when nothing matched). */
static int
ot_select(const struct rc_path *p, struct ot_sel *sel)
{
	memset(sel, 0, sizeof(*sel));
	if (p->n == 3 && rc_elem_is(&p->e[2], "node"))
		sel->node = p->e[2].key[0];
	else if (p->n == 3 && rc_elem_is(&p->e[2], "link"))
		sel->link = p->e[2].key[0];
	else if (p->n == 4 && rc_elem_is(&p->e[2], "node") &&
	    rc_elem_is(&p->e[3], "termination-point")) {
		sel->node = p->e[2].key[0];
		sel->tp = p->e[3].key[0];
	} else
		return -1;
	return 0;
}

static void
ot_get(struct rc_req *rq, void *arg)
{
	const struct rc_path	*p = &rq->path;
	struct ot_sel		 sel = { NULL, NULL, NULL, 0 };
	struct ot_walk		 wk = { NULL, &sel, 0 };
	struct doc_writer	 w;
	struct evbuffer		*b;

	(void)arg;
	if (rq->content == RC_CONTENT_CONFIG ||
	    (p->n > 2 && ot_select(p, &sel) == -1)) {
		rc_data_missing(rq);
		return;
	}
	b = rc_writer(rq, &w);
	wk.w = &w;
	if (p->n == 2) {
		doc_list(&w, &rc_nt_mod, "topology");
		ot_entry(&w, 0, NULL);
		sel.found = 1;
	} else {
		wk.links = sel.link != NULL;
		doc_list(&w, &rc_nt_mod, sel.link ? "link" : sel.tp ?
		    "termination-point" : "node");
		if (sel.tp != NULL)
			ot_one_tp(&w, &sel);
		else
			of_ctl_switches(ot_switch_cb, &wk);
	}
	if (sel.found)
		rc_send(rq, &w, b);
	else {
		(void)doc_finish(&w);
		evbuffer_free(b);
		rc_data_missing(rq);
	}
}

static const struct rc_topology ot_topo = {
	.id = OT_TOPOLOGY, .fn = ot_get, .entry = ot_entry,
	.read_only = 1,
};

void
of_topology_register(void)
{
	rc_topology_register(&ot_topo);
}
