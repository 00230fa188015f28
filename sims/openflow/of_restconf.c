/*
 * opendaylight-inventory:nodes, as OpenDaylight's openflowplugin shows it
 * in the operational datastore: one node "openflow:DPID" (decimal) per
 * connected switch, its flow tables (flow-node-inventory) and each table's
 * opendaylight-flow-table-statistics, whose active-flows is what ODL's
 * tools read to decide that flows are in place; and the config datastore
 * of flows (of_flowcfg.h), written with PUT, POST and DELETE.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/http.h>

#include "log.h"
#include "of_ctl.h"
#include "of_flowcfg.h"
#include "of_gmcfg.h"
#include "of_ports.h"
#include "of_restconf.h"
#include "restconf.h"

#define INV_TABLE	0	/* the one table the controller programs */

static const struct doc_module inv_mod = {
	"opendaylight-inventory", "urn:opendaylight:inventory"
};
/* The draft URLs (bierman-02) name the top element without its module
 * in JSON, as OpenDaylight answered them and its tools read them
 * ({"nodes":{"node":[...]}}); RFC 8040 section 3.5.3 / RFC 7951 section
 * 4 qualify it.  XML keeps the namespace either way. */
static const struct doc_module inv_mod_bare = {
	NULL, "urn:opendaylight:inventory"
};
static const struct doc_module fni_mod = {
	"flow-node-inventory", "urn:opendaylight:flow:inventory"
};
static const struct doc_module fts_mod = {
	"opendaylight-flow-table-statistics",
	"urn:opendaylight:flow:table:statistics"
};

static const struct doc_module *
inv_top(const struct rc_req *rq)
{
	return rq->style == RC_STYLE_DRAFT ? &inv_mod_bare : &inv_mod;
}

/*
 * A write's success status.  RFC 8040 sections 4.4.1, 4.5 and 4.7: POST
 * 201, PUT 201 (created) or 204, DELETE 204.  The draft URLs answer as
 * OpenDaylight's bierman-02 implementation did, and as CSIT's
 * flow_config_blaster counts success (200 or 204): POST 204, PUT 201 or
 * 200, DELETE 200.
 */
static int
inv_status(const struct rc_req *rq, int rfc8040, int draft)
{
	return rq->style == RC_STYLE_DRAFT ? draft : rfc8040;
}

static const struct rc_list inv_lists[] = {
	{ "node", 1 },
	{ "table", 1 },
	{ "flow", 1 },
	{ "node-connector", 1 },
	{ "group", 1 },
	{ "meter", 1 },
	{ NULL, 0 },
};

/* "openflow:" and the datapath id in decimal, as ODL writes it: no sign,
 * no leading zero, so that a key names one node only. */
int
of_restconf_node_id(const char *id, uint64_t *dpid)
{
	const char	*s = id + 9;
	uint64_t	 v = 0, d;

	if (strncmp(id, "openflow:", 9) != 0 || *s == '\0' ||
	    (s[0] == '0' && s[1] != '\0'))
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		d = (uint64_t)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*dpid = v;
	return 0;
}

size_t
of_restconf_entries(const struct doc_node *parent, const char *list)
{
	struct doc_iter	it;
	struct doc_node	e;
	size_t		n = 0;

	doc_iter_init(&it, parent, list);
	while (doc_iter_next(&it, &e) == 1)
		n++;
	return n;
}

/* A table id: 0 to 254 (OpenFlow 1.3 section 7.3.4.1: 255 is "all"). */
static int
inv_table_id(const char *s, unsigned *id)
{
	unsigned	v = 0;

	if (*s == '\0' || (s[0] == '0' && s[1] != '\0'))
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9' || (v = v * 10 + (unsigned)(*s -
		    '0')) > 254)
			return -1;
	}
	*id = v;
	return 0;
}

/* The switch's view of a table (its last flow stats reply). */
static void
inv_stats(struct doc_writer *w, const struct fc_node *fn, unsigned table)
{
	doc_container(w, &fts_mod, "flow-table-statistics");
	doc_leaf_uint(w, "active-flows", fn ? fc_reported_flows(fn, table) :
	    0);
	doc_leaf_uint(w, "packets-looked-up", 0);
	doc_leaf_uint(w, "packets-matched", 0);
	doc_end(w);
}

static void
inv_flow_cb(struct fc_node *fn, const struct fc_flow *f, void *arg)
{
	fc_render(arg, fn, f);
}

/* The flows the switch reported: the config ones it holds by their ids,
 * those pushed by operations whole under theirs, the others as
 * openflowplugin names them ("#UF$TABLE*" table "-" n, numbered on from
 * the operations' ids). */
static void
inv_oper_flows(struct doc_writer *w, struct fc_node *fn, unsigned table)
{
	char		id[48];
	uint32_t	i, unk;

	if (fn == NULL || !fc_reported(fn))
		return;
	unk = fc_reported_unknown(fn, table);
	if (unk == 0 && fc_reported_flows(fn, table) == 0)
		return;
	doc_list(w, NULL, "flow");
	fc_foreach(fn, (int)table, 1, inv_flow_cb, w);
	fc_rpc_foreach(fn, table, inv_flow_cb, w);
	for (i = 0; i < unk; i++) {
		snprintf(id, sizeof(id), "#UF$TABLE*%u-%" PRIu64, table,
		    fc_rpc_seq(fn) + i + 1);
		doc_entry(w);
		doc_leaf_str(w, "id", id);
		doc_leaf_uint(w, "table_id", table);
		doc_end(w);
	}
	doc_end(w);
}

/* One entry of the table list: its flows and their statistics, at every
 * level of a read (CSIT's inventory_crawler and ScaleClient count both
 * from the whole inventory). */
static void
inv_table(struct doc_writer *w, struct fc_node *fn, unsigned table)
{
	doc_entry(w);
	doc_leaf_uint(w, "id", table);
	inv_oper_flows(w, fn, table);
	inv_stats(w, fn, table);
	doc_end(w);
}

static void
inv_node(struct doc_writer *w, const struct of_ctl_switch *sw)
{
	struct fc_node	*fn = fc_node_get(sw->dpid, 0);
	char		 id[32];
	unsigned	 t;

	snprintf(id, sizeof(id), "openflow:%" PRIu64, sw->dpid);
	doc_entry(w);
	doc_leaf_str(w, "id", id);
	doc_list(w, &fni_mod, "table");
	/* Table 0 always, the others when the switch has flows there. */
	for (t = 0; t < 255; t++)
		if (t == INV_TABLE || (fn && fc_reported_flows(fn, t) > 0))
			inv_table(w, fn, t);
	doc_end(w);
	doc_list(w, NULL, "node-connector");
	op_render(w, sw->dpid);
	doc_end(w);
	gm_render_list(GM_GROUP, w, sw->dpid, 1, 0, 0);
	gm_render_list(GM_METER, w, sw->dpid, 1, 0, 0);
	doc_end(w);
}

static int
inv_node_cb(const struct of_ctl_switch *sw, void *arg)
{
	inv_node(arg, sw);
	return 0;
}

static void
inv_get_nodes(struct rc_req *rq)
{
	struct doc_writer	 w;
	struct evbuffer		*b = rc_writer(rq, &w);

	doc_container(&w, inv_top(rq), "nodes");
	doc_list(&w, NULL, "node");
	of_ctl_switches(inv_node_cb, &w);
	rc_send(rq, &w, b);
}

/* Is the path below one node one we serve?  0 yes, with the table in
 * *table; otherwise the error is sent and -1 returned. */
static int
inv_check_below(struct rc_req *rq, struct fc_node *fn, unsigned *table)
{
	const struct rc_path	*p = &rq->path;

	if (p->n == 2)
		return 0;
	if (!rc_elem_is(&p->e[2], "table")) {
		rc_unknown(rq, &p->e[2]);
		return -1;
	}
	if (p->n > 3 && !rc_elem_is(&p->e[3], "flow-table-statistics") &&
	    !rc_elem_is(&p->e[3], "flow")) {
		rc_unknown(rq, &p->e[3]);
		return -1;
	}
	/* The switch's tables: 0, and those it reported flows in. */
	if (inv_table_id(p->e[2].key[0], table) == -1 || p->n > 4 ||
	    (*table != INV_TABLE && (fn == NULL ||
	    fc_reported_flows(fn, *table) == 0))) {
		rc_data_missing(rq);
		return -1;
	}
	return 0;
}

/*
 * One node-connector of the node, as its list shows it, or its port
 * statistics: CSIT reads both by the port's own path (ClusterOpenFlow's
 * operational_port_1 for "link-down", the statistics suites for
 * flow-capable-node-connector-statistics).  0 when the path is one,
 * whatever was answered; -1 when it names no node-connector.
 */
static int
inv_get_connector(struct rc_req *rq, const struct of_ctl_switch *sw)
{
	const struct rc_path	*p = &rq->path;
	struct doc_writer	 w;
	struct evbuffer		*b;
	int			 stats;

	if (p->n < 3 || !rc_elem_is(&p->e[2], "node-connector"))
		return -1;
	if (p->n > 4 || (p->n == 4 && !rc_elem_is(&p->e[3],
	    "flow-capable-node-connector-statistics"))) {
		rc_unknown(rq, &p->e[p->n - 1]);
		return 0;
	}
	if (!op_known(sw->dpid, p->e[2].key[0])) {
		rc_data_missing(rq);
		return 0;
	}
	stats = p->n == 4;
	b = rc_writer(rq, &w);
	op_render_one(&w, inv_top(rq), sw->dpid, p->e[2].key[0], stats);
	rc_send(rq, &w, b);
	return 0;
}

/* A path below one node: the node itself, one table, its statistics,
 * one flow of it. */
static void
inv_get_below(struct rc_req *rq, const struct of_ctl_switch *sw)
{
	struct fc_node		*fn = fc_node_get(sw->dpid, 0);
	const struct rc_path	*p = &rq->path;
	struct fc_flow		*f = NULL;
	struct doc_writer	 w;
	struct evbuffer		*b;
	unsigned		 table = 0;

	if (inv_get_connector(rq, sw) == 0 ||
	    inv_check_below(rq, fn, &table) == -1)
		return;
	if (p->n == 4 && rc_elem_is(&p->e[3], "flow")) {
		f = fn ? fc_find(fn, table, p->e[3].key[0]) : NULL;
		if (f == NULL || !fc_oper_visible(fn, f)) {
			rc_data_missing(rq);
			return;
		}
	}
	b = rc_writer(rq, &w);
	if (p->n == 2) {
		doc_list(&w, inv_top(rq), "node");
		inv_node(&w, sw);
	} else if (p->n == 3) {
		doc_list(&w, &fni_mod, "table");
		inv_table(&w, fn, table);
	} else if (f != NULL) {
		doc_list(&w, &fni_mod, "flow");
		fc_render(&w, fn, f);
	} else
		inv_stats(&w, fn, table);
	rc_send(rq, &w, b);
}

/* ---- the config datastore ---- */

/* The node has config groups or meters (of_gmcfg.c). */
static int
inv_gm_config(uint64_t dpid)
{
	return gm_config_count(GM_GROUP, dpid) +
	    gm_config_count(GM_METER, dpid) > 0;
}

static void
inv_cfg_table(struct doc_writer *w, struct fc_node *fn, unsigned t)
{
	doc_entry(w);
	doc_leaf_uint(w, "id", t);
	doc_list(w, NULL, "flow");
	fc_foreach(fn, (int)t, 0, inv_flow_cb, w);
	doc_end(w);
	doc_end(w);
}

static void
inv_cfg_node(struct doc_writer *w, struct fc_node *fn, uint64_t dpid)
{
	uint8_t		set[32];
	char		id[32];
	unsigned	t;

	fc_tables(fn, set);
	snprintf(id, sizeof(id), "openflow:%" PRIu64, dpid);
	doc_entry(w);
	doc_leaf_str(w, "id", id);
	doc_list(w, &fni_mod, "table");
	for (t = 0; t < 255; t++)
		if (set[t / 8] & (1u << (t % 8)))
			inv_cfg_table(w, fn, t);
	doc_end(w);
	gm_render_list(GM_GROUP, w, dpid, 0, 0, 0);
	gm_render_list(GM_METER, w, dpid, 0, 0, 0);
	doc_end(w);
}

static int
inv_cfg_node_cb(const struct of_ctl_switch *sw, void *arg)
{
	struct fc_node	*fn = fc_node_get(sw->dpid, 0);

	if ((fn != NULL && fc_node_count(fn, -1) > 0) ||
	    inv_gm_config(sw->dpid))
		inv_cfg_node(arg, fc_node_get(sw->dpid, 1), sw->dpid);
	return 0;
}

static int
inv_cfg_any_cb(const struct of_ctl_switch *sw, void *arg)
{
	struct fc_node	*fn = fc_node_get(sw->dpid, 0);

	(void)arg;
	return (fn != NULL && fc_node_count(fn, -1) > 0) ||
	    inv_gm_config(sw->dpid);
}

/* GET of the config datastore's nodes: the connected nodes with config
 * flows (flows kept for a node not connected yet are read through its
 * own path). */
static void
inv_get_config_nodes(struct rc_req *rq)
{
	struct doc_writer	 w;
	struct evbuffer		*b;

	if (!of_ctl_switches(inv_cfg_any_cb, NULL)) {
		rc_data_missing(rq);
		return;
	}
	b = rc_writer(rq, &w);
	doc_container(&w, inv_top(rq), "nodes");
	doc_list(&w, NULL, "node");
	of_ctl_switches(inv_cfg_node_cb, &w);
	rc_send(rq, &w, b);
}

/* GET of the config datastore: its nodes, or one node, table or flow. */
static void
inv_get_config(struct rc_req *rq)
{
	const struct rc_path	*p = &rq->path;
	struct fc_node		*fn = NULL;
	struct fc_flow		*f = NULL;
	struct doc_writer	 w;
	struct evbuffer		*b;
	uint64_t		 dpid;
	unsigned		 t = 0;

	if (!rc_list_entry(rq, "node", inv_get_config_nodes))
		return;
	/* A node with config groups only has an (empty) flow store. */
	if (of_restconf_node_id(p->e[1].key[0], &dpid) == -1 ||
	    (fn = fc_node_get(dpid, inv_gm_config(dpid))) == NULL ||
	    (fc_node_count(fn, -1) == 0 && !inv_gm_config(dpid))) {
		rc_data_missing(rq);
		return;
	}
	if (p->n > 2 && (!rc_elem_is(&p->e[2], "table") ||
	    (p->n > 3 && !rc_elem_is(&p->e[3], "flow")))) {
		rc_unknown(rq, &p->e[p->n > 3 && rc_elem_is(&p->e[2], "table") ?
		    3 : 2]);
		return;
	}
	if (p->n > 4 || (p->n > 2 && (inv_table_id(p->e[2].key[0], &t) ==
	    -1 || fc_node_count(fn, (int)t) == 0)) ||
	    (p->n == 4 && (f = fc_find(fn, t, p->e[3].key[0])) == NULL)) {
		rc_data_missing(rq);
		return;
	}
	b = rc_writer(rq, &w);
	if (p->n == 2) {
		doc_list(&w, inv_top(rq), "node");
		inv_cfg_node(&w, fn, dpid);
	} else if (p->n == 3) {
		doc_list(&w, &fni_mod, "table");
		inv_cfg_table(&w, fn, t);
	} else {
		doc_list(&w, &fni_mod, "flow");
		fc_render(&w, fn, f);
	}
	rc_send(rq, &w, b);
}

static void
inv_get(struct rc_req *rq)
{
	const struct rc_path	*p = &rq->path;
	struct of_ctl_switch	 sw;
	uint64_t		 dpid;

	if (rq->content == RC_CONTENT_CONFIG) {
		inv_get_config(rq);
		return;
	}
	if (!rc_list_entry(rq, "node", inv_get_nodes))
		return;
	if (of_restconf_node_id(p->e[1].key[0], &dpid) == -1 ||
	    of_ctl_switch_find(dpid, &sw) == -1) {
		rc_data_missing(rq);
		return;
	}
	inv_get_below(rq, &sw);
}

/* ---- writes: flows into the config datastore ---- */

/* A body's flows (one for PUT, any number for POST), each checked
 * against the URL; -1 when an error was sent. */
static int
inv_body_flows(struct rc_req *rq, unsigned table, const char *id,
    struct fc_spec **specs, size_t *n)
{
	struct doc	 d;
	struct doc_node	 root, fl;
	struct doc_iter	 it;
	char		 err[256];
	size_t		 cnt;

	if (rc_body(rq, &d) == -1)
		return -1;
	doc_root(&d, &root);
	cnt = of_restconf_entries(&root, "flow");
	if (cnt == 0 || (id != NULL && cnt != 1)) {
		doc_free(&d);
		http_error(rq->http, 400, "protocol", "malformed-message",
		    "Expected %s flow-node-inventory:flow list entr%s",
		    id ? "one" : "at least one", id ? "y" : "ies");
		return -1;
	}
	*specs = xcalloc(cnt, sizeof(**specs));
	*n = 0;
	doc_iter_init(&it, &root, "flow");
	while (doc_iter_next(&it, &fl) == 1) {
		struct fc_spec	*s = &(*specs)[(*n)++];

		if (fc_parse(&fl, s, err, sizeof(err)) == -1) {
			http_error(rq->http, 400, "protocol", "invalid-value",
			    "flow %zu: %s", *n, err);
			goto bad;
		}
		if (s->table >= 0 && (unsigned)s->table != table) {
			http_error(rq->http, 400, "protocol", "invalid-value",
			    "flow %s: table_id %d does not match table %u of "
			    "the URL", s->id, s->table, table);
			goto bad;
		}
		if (id != NULL && strcmp(s->id, id) != 0) {
			http_error(rq->http, 400, "protocol", "invalid-value",
			    "flow id '%s' does not match '%s' of the URL",
			    s->id, id);
			goto bad;
		}
		s->table = (int)table;
	}
	doc_free(&d);
	return 0;
bad:
	doc_free(&d);
	free(*specs);
	*specs = NULL;
	return -1;
}

/* Which node and table a write addresses: the table and flow level only
 * (p->n 3 or 4); -1 when an error was sent. */
static int
inv_write_target(struct rc_req *rq, uint64_t *dpid, unsigned *table)
{
	const struct rc_path	*p = &rq->path;

	if (p->n < 3 || p->n > 4 || !rc_elem_is(&p->e[1], "node") ||
	    !rc_elem_is(&p->e[2], "table") ||
	    (p->n == 4 && !rc_elem_is(&p->e[3], "flow"))) {
		struct doc	d;

		/* A malformed body is told (400) before the write itself
		 * is refused (405). */
		if (rq->http->method != EVHTTP_REQ_DELETE) {
			if (rc_body(rq, &d) == -1)
				return -1;
			doc_free(&d);
		}
		if (p->n >= 3 && !rc_elem_is(&p->e[2], "table")) {
			rc_unknown(rq, &p->e[2]);
			return -1;
		}
		evhttp_add_header(evhttp_request_get_output_headers(
		    rq->http->ev), "Allow", "GET, HEAD, OPTIONS");
		http_error(rq->http, 405, "protocol",
		    "operation-not-supported", "Only flows (a table's flow "
		    "list or one flow) can be written");
		return -1;
	}
	if (of_restconf_node_id(p->e[1].key[0], dpid) == -1) {
		http_error(rq->http, 404, "protocol", "data-missing",
		    "Node '%s' is not an OpenFlow node (openflow:DPID)",
		    p->e[1].key[0]);
		return -1;
	}
	if (inv_table_id(p->e[2].key[0], table) == -1) {
		http_error(rq->http, 400, "protocol", "invalid-value",
		    "Table '%s' is not a table id (0 to 254)",
		    p->e[2].key[0]);
		return -1;
	}
	return 0;
}

static void
inv_put_post(struct rc_req *rq, uint64_t dpid, unsigned table)
{
	const struct rc_path	*p = &rq->path;
	struct fc_spec		*specs = NULL;
	struct fc_node		*fn;
	size_t			 n, dup;
	int			 put = rq->http->method == EVHTTP_REQ_PUT;

	if ((put && p->n != 4) || (!put && p->n != 3)) {
		http_error(rq->http, 405, "protocol",
		    "operation-not-supported", put ? "PUT one flow "
		    "(.../table/T/flow/ID)" : "POST flows to a table "
		    "(.../table/T)");
		return;
	}
	if (inv_body_flows(rq, table, put ? p->e[3].key[0] : NULL, &specs,
	    &n) == -1)
		return;
	fn = fc_node_get(dpid, 1);
	if (put) {
		int	created = fc_put(fn, &specs[0]);

		fc_barrier(fn);
		http_reply(rq->http, created ? 201 : inv_status(rq, 204, 200),
		    NULL);
	} else if (fc_post(fn, specs, n, &dup) == -1)
		/* RFC 8040 section 4.4.1: the resource exists. */
		http_error(rq->http, 409, "protocol", "data-exists",
		    "Data already exists for flow '%s' in table %u",
		    specs[dup].id, table);
	else {
		fc_barrier(fn);
		http_reply(rq->http, inv_status(rq, 201, 204), NULL);
	}
	free(specs);
}

static void
inv_delete(struct rc_req *rq, uint64_t dpid, unsigned table)
{
	const struct rc_path	*p = &rq->path;
	struct fc_node		*fn = fc_node_get(dpid, 0);
	int			 rc;

	if (fn == NULL)
		rc = -1;
	else if (p->n == 4)
		rc = fc_delete(fn, table, p->e[3].key[0]);
	else
		rc = fc_delete_table(fn, table);
	if (rc == -1) {
		rc_data_missing(rq);
		return;
	}
	fc_barrier(fn);
	http_reply(rq->http, inv_status(rq, 204, 200), NULL);
}

/* DELETE of the config nodes or of one node (CSIT's cleanup): their
 * flows, groups and meters leave the switches; 404 data-missing when
 * there were none (RFC 8040 section 4.7). */
static void
inv_delete_nodes(struct rc_req *rq)
{
	const struct rc_path	*p = &rq->path;
	struct fc_node		*fn;
	uint64_t		 dpid;
	int			 any = 0;

	if (p->n == 1)
		any = (fc_delete_all() > 0) | (gm_delete_all() > 0);
	else if (of_restconf_node_id(p->e[1].key[0], &dpid) == 0) {
		fn = fc_node_get(dpid, 0);
		any = (fn != NULL && fc_delete_node(fn) != -1) |
		    (gm_delete_node(dpid) > 0);
	}
	if (!any) {
		rc_data_missing(rq);
		return;
	}
	http_reply(rq->http, inv_status(rq, 204, 200), NULL);
}

static void
inv_write(struct rc_req *rq)
{
	const struct rc_path	*p = &rq->path;
	uint64_t		 dpid;
	unsigned		 table;

	if (rq->http->method == EVHTTP_REQ_PATCH) {
		rc_read_only(rq);
		return;
	}
	if (rq->http->method == EVHTTP_REQ_DELETE && (p->n == 1 ||
	    (p->n == 2 && rc_elem_is(&p->e[1], "node")))) {
		inv_delete_nodes(rq);
		return;
	}
	if (inv_write_target(rq, &dpid, &table) == -1)
		return;
	if (rq->http->method == EVHTTP_REQ_DELETE)
		inv_delete(rq, dpid, table);
	else
		inv_put_post(rq, dpid, table);
}

static void
inv_handle(struct rc_req *rq, void *arg)
{
	(void)arg;
	if (rq->path.n >= 3 && rc_elem_is(&rq->path.e[1], "node") &&
	    (rc_elem_is(&rq->path.e[2], "group") ||
	    rc_elem_is(&rq->path.e[2], "meter"))) {
		gm_restconf(rq, rc_elem_is(&rq->path.e[2], "group") ?
		    GM_GROUP : GM_METER);
		return;
	}
	if (rq->http->method & (EVHTTP_REQ_GET | EVHTTP_REQ_HEAD))
		inv_get(rq);
	else
		inv_write(rq);
}

static const struct rc_resource inv_resource = {
	"opendaylight-inventory", "nodes", inv_lists, inv_handle, NULL, 0
};

void
of_restconf_register(void)
{
	restconf_register(&inv_resource);
}
