/*
 * opendaylight-inventory:nodes, as OpenDaylight's openflowplugin shows it
 * in the operational datastore: one node "openflow:DPID" (decimal) per
 * connected switch, its flow tables (flow-node-inventory) and each table's
 * opendaylight-flow-table-statistics, whose active-flows is what ODL's
 * tools read to decide that flows are in place.  Read only for now.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <event2/http.h>

#include "of_ctl.h"
#include "of_restconf.h"
#include "restconf.h"

#define INV_TABLE	0	/* the one table the controller programs */

static const struct doc_module inv_mod = {
	"opendaylight-inventory", "urn:opendaylight:inventory"
};
static const struct doc_module fni_mod = {
	"flow-node-inventory", "urn:opendaylight:flow:inventory"
};
static const struct doc_module fts_mod = {
	"opendaylight-flow-table-statistics",
	"urn:opendaylight:flow:table:statistics"
};

static const struct rc_list inv_lists[] = {
	{ "node", 1 },
	{ "table", 1 },
	{ "flow", 1 },
	{ "node-connector", 1 },
	{ NULL, 0 },
};

/* "openflow:" and the datapath id in decimal, as ODL writes it: no sign,
 * no leading zero, so that a key names one node only. */
static int
inv_node_id(const char *id, uint64_t *dpid)
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

static void
inv_stats(struct doc_writer *w, const struct of_ctl_switch *sw)
{
	doc_container(w, &fts_mod, "flow-table-statistics");
	doc_leaf_uint(w, "active-flows", sw->active_flows);
	doc_leaf_uint(w, "packets-looked-up", 0);
	doc_leaf_uint(w, "packets-matched", 0);
	doc_end(w);
}

/* One entry of the table list; only table 0 exists so far. */
static void
inv_table(struct doc_writer *w, const struct of_ctl_switch *sw)
{
	doc_entry(w);
	doc_leaf_uint(w, "id", INV_TABLE);
	inv_stats(w, sw);
	doc_end(w);
}

static void
inv_node(struct doc_writer *w, const struct of_ctl_switch *sw)
{
	char	id[32];

	snprintf(id, sizeof(id), "openflow:%" PRIu64, sw->dpid);
	doc_entry(w);
	doc_leaf_str(w, "id", id);
	doc_list(w, &fni_mod, "table");
	inv_table(w, sw);
	doc_end(w);
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

	doc_container(&w, &inv_mod, "nodes");
	doc_list(&w, NULL, "node");
	of_ctl_switches(inv_node_cb, &w);
	rc_send(rq, &w, b);
}

/* Is the path below one node one we serve?  0 yes; otherwise the error
 * is sent and -1 returned. */
static int
inv_check_below(struct rc_req *rq)
{
	const struct rc_path	*p = &rq->path;
	unsigned		 table;

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
	/* Only table 0 holds flows, and flows are not listed yet. */
	if (inv_table_id(p->e[2].key[0], &table) == -1 ||
	    table != INV_TABLE || p->n > 4 ||
	    (p->n == 4 && rc_elem_is(&p->e[3], "flow"))) {
		rc_data_missing(rq);
		return -1;
	}
	return 0;
}

/* A path below one node: the node itself, one table, its statistics. */
static void
inv_get_below(struct rc_req *rq, const struct of_ctl_switch *sw)
{
	struct doc_writer	 w;
	struct evbuffer		*b;

	if (inv_check_below(rq) == -1)
		return;
	b = rc_writer(rq, &w);
	if (rq->path.n == 2) {
		doc_list(&w, &inv_mod, "node");
		inv_node(&w, sw);
	} else if (rq->path.n == 3) {
		doc_list(&w, &fni_mod, "table");
		inv_table(&w, sw);
	} else
		inv_stats(&w, sw);
	rc_send(rq, &w, b);
}

static void
inv_get(struct rc_req *rq)
{
	const struct rc_path	*p = &rq->path;
	struct of_ctl_switch	 sw;
	uint64_t		 dpid;

	/* Nothing is configured yet: the config datastore is empty. */
	if (rq->content == RC_CONTENT_CONFIG) {
		rc_data_missing(rq);
		return;
	}
	if (p->n == 1) {
		inv_get_nodes(rq);
		return;
	}
	if (!rc_elem_is(&p->e[1], "node")) {
		rc_unknown(rq, &p->e[1]);
		return;
	}
	if (inv_node_id(p->e[1].key[0], &dpid) == -1 ||
	    of_ctl_switch_find(dpid, &sw) == -1) {
		rc_data_missing(rq);
		return;
	}
	inv_get_below(rq, &sw);
}

/*
 * Writes are the next step (flows into the config datastore).  Until then
 * a body is still checked, so that a client learns of a malformed one
 * (400) before it learns that the write itself is not supported (405).
 */
static void
inv_write(struct rc_req *rq)
{
	struct doc	d;

	if (rq->http->body != NULL || (rq->http->method &
	    (EVHTTP_REQ_POST | EVHTTP_REQ_PUT | EVHTTP_REQ_PATCH))) {
		if (rc_body(rq, &d) == -1)
			return;
		doc_free(&d);
	}
	rc_read_only(rq);
}

static void
inv_handle(struct rc_req *rq, void *arg)
{
	(void)arg;
	if (rq->http->method & (EVHTTP_REQ_GET | EVHTTP_REQ_HEAD))
		inv_get(rq);
	else
		inv_write(rq);
}

static const struct rc_resource inv_resource = {
	"opendaylight-inventory", "nodes", inv_lists, inv_handle, NULL
};

void
of_restconf_register(void)
{
	restconf_register(&inv_resource);
}
