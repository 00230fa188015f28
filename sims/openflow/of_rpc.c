/*
 * The OpenFlow operations of the embedded controller, as openflowplugin
 * serves them (RFC 8040 section 3.6 under /rests/operations, and the
 * draft's /restconf/operations):
 *   sal-flow: add-flow, remove-flow: one flow pushed to the node the
 *     input names, not written to the config datastore;
 *   sal-bulk-flow (bulk-o-matic): add-flows-rpc, remove-flows-rpc (a
 *     bulk-flow-item list of the same), add-flows-ds, remove-flows-ds
 *     (bulk-flow-ds-item, each with its flow-id, through the config
 *     datastore), flow-test (flows-per-dpn flows on each of the nodes
 *     openflow:1..dpn-count, through the config datastore),
 *     flow-rpc-add-multiple (flow-count flows pushed into every switch).
 * Each answers once the FLOW_MODs and a barrier are queued.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "of_ctl.h"
#include "of_flowcfg.h"
#include "of_restconf.h"
#include "restconf.h"

#define OFRPC_MAX_DPNS		1000000
#define OFRPC_MAX_PER_DPN	10000000

static const struct doc_module ofrpc_sal_mod = {
	"sal-flow", "urn:opendaylight:flow:service"
};
static const struct doc_module ofrpc_bulk_mod = {
	"sal-bulk-flow", "urn:opendaylight:bulk-flow:service"
};

enum ofrpc_bulk {
	OFRPC_ADD_RPC,
	OFRPC_REMOVE_RPC,
	OFRPC_ADD_DS,
	OFRPC_REMOVE_DS,
};

struct ofrpc_item {
	uint64_t	dpid;
	struct fc_spec	spec;
};

/*
 * The datapath id of the node an instance-identifier names (the
 * node-context-ref of opendaylight-inventory):
 * /inv:nodes/inv:node[inv:id="openflow:1"] in XML,
 * /opendaylight-inventory:nodes/opendaylight-inventory:node[
 * opendaylight-inventory:id='openflow:1'] in JSON (RFC 7951 section 6.11).
 */
static int
ofrpc_node_ref(const char *s, uint64_t *dpid)
{
	const char	*p, *e;
	char		 id[32];
	size_t		 len;

	if ((p = strstr(s, "id=")) == NULL || (p[3] != '\'' && p[3] != '"'))
		return -1;
	if ((e = strchr(p + 4, p[3])) == NULL ||
	    (len = (size_t)(e - (p + 4))) >= sizeof(id))
		return -1;
	memcpy(id, p + 4, len);
	id[len] = '\0';
	return of_restconf_node_id(id, dpid);
}

/* One flow of an input (id_leaf: where its id is, NULL for none) and its
 * node, which must be connected for a direct push; -1 after an error
 * reply. */
static int
ofrpc_item(struct http_req *h, const struct doc_node *in,
    const char *id_leaf, int direct, struct ofrpc_item *it)
{
	struct of_ctl_switch	sw;
	char			ref[256], err[256];

	if (doc_get_string(in, "node", ref, sizeof(ref)) == -1) {
		http_error(h, 400, "protocol", "missing-element",
		    "The input needs a node");
		return -1;
	}
	if (ofrpc_node_ref(ref, &it->dpid) == -1) {
		http_error(h, 400, "protocol", "invalid-value",
		    "node '%s' does not name an OpenFlow node "
		    "(openflow:DPID)", ref);
		return -1;
	}
	if (direct && of_ctl_switch_find(it->dpid, &sw) == -1) {
		http_error(h, 404, "protocol", "data-missing",
		    "Node openflow:%" PRIu64 " is not connected", it->dpid);
		return -1;
	}
	if (fc_parse_as(in, id_leaf, &it->spec, err, sizeof(err)) == -1) {
		http_error(h, 400, "protocol", "invalid-value", "%s", err);
		return -1;
	}
	if (it->spec.table < 0)
		it->spec.table = 0;
	return 0;
}

/* sal-flow's add-flow and remove-flow. */
static void
ofrpc_flow(struct http_req *h, const struct doc_node *in, int rfc8040,
    int add)
{
	struct ofrpc_item	 it;
	struct fc_node		*fn;

	if (ofrpc_item(h, in, NULL, 1, &it) == -1)
		return;
	fn = fc_node_get(it.dpid, 1);
	fc_rpc_push(fn, &it.spec, add);
	fc_barrier(fn);
	rc_rpc_empty(h, rfc8040, &ofrpc_sal_mod);
}

/* Every item of a bulk input, checked before anything is done (all or
 * none); NULL after an error reply. */
static struct ofrpc_item *
ofrpc_items(struct http_req *h, const struct doc_node *in, int ds,
    size_t *n)
{
	const char		*list = ds ? "bulk-flow-ds-item" :
				    "bulk-flow-item";
	struct ofrpc_item	*items;
	struct doc_iter		 it;
	struct doc_node		 e;
	size_t			 cnt = 0;

	doc_iter_init(&it, in, list);
	while (doc_iter_next(&it, &e) == 1)
		cnt++;
	items = xcalloc(cnt ? cnt : 1, sizeof(*items));
	*n = 0;
	doc_iter_init(&it, in, list);
	while (doc_iter_next(&it, &e) == 1) {
		if (ofrpc_item(h, &e, ds ? "flow-id" : NULL, !ds,
		    &items[*n]) == -1) {
			free(items);
			return NULL;
		}
		(*n)++;
	}
	return items;
}

/* A removal of a flow that is not there is no error: the datastore's
 * delete of missing data succeeds, and so does the switch's. */
static void
ofrpc_bulk(struct http_req *h, const struct doc_node *in, int rfc8040,
    int op)
{
	int			 ds = op == OFRPC_ADD_DS || op == OFRPC_REMOVE_DS;
	struct ofrpc_item	*items;
	struct fc_node		*fn;
	size_t			 n, i;

	if ((items = ofrpc_items(h, in, ds, &n)) == NULL)
		return;
	for (i = 0; i < n; i++) {
		fn = fc_node_get(items[i].dpid, 1);
		if (op == OFRPC_ADD_DS)
			(void)fc_put(fn, &items[i].spec);
		else if (op == OFRPC_REMOVE_DS)
			(void)fc_delete(fn, (unsigned)items[i].spec.table,
			    items[i].spec.id);
		else
			fc_rpc_push(fn, &items[i].spec, op == OFRPC_ADD_RPC);
		/* One barrier closes each run of a node's items. */
		if (i + 1 == n || items[i + 1].dpid != items[i].dpid)
			fc_barrier(fn);
	}
	free(items);
	rc_rpc_empty(h, rfc8040, &ofrpc_bulk_mod);
}

/* A mandatory uint32 leaf of flow-test (a number, or digits in a
 * string); -1 after an error reply. */
static int
ofrpc_uint(struct http_req *h, const struct doc_node *in, const char *name,
    uint64_t max, uint64_t *v)
{
	struct doc_node	c;

	if (doc_get_uint(in, name, max, v) == 0)
		return 0;
	if (doc_child(in, name, &c) == -1)
		http_error(h, 400, "protocol", "missing-element",
		    "The input needs %s", name);
	else
		http_error(h, 400, "protocol", "invalid-value",
		    "%s: expected an integer from 0 to %" PRIu64, name, max);
	return -1;
}

/* The leaves flow-test acts on: -1 after an error reply.  The others
 * (batch-size, seq, tx-chain, sleep-*) pace ODL's writers; here every
 * write is done at once. */
static int
ofrpc_test_input(struct http_req *h, const struct doc_node *in, int *add,
    uint64_t v[4])
{
	char	s[8];

	if (doc_get_string(in, "is-add", s, sizeof(s)) == -1 ||
	    (strcmp(s, "true") != 0 && strcmp(s, "false") != 0)) {
		http_error(h, 400, "protocol", "invalid-value",
		    "flow-test needs is-add, true or false");
		return -1;
	}
	*add = s[0] == 't';
	if (ofrpc_uint(h, in, "dpn-count", OFRPC_MAX_DPNS, &v[0]) == -1 ||
	    ofrpc_uint(h, in, "flows-per-dpn", OFRPC_MAX_PER_DPN, &v[1]) ==
	    -1 || ofrpc_uint(h, in, "start-table-id", 254, &v[2]) == -1 ||
	    ofrpc_uint(h, in, "end-table-id", 254, &v[3]) == -1)
		return -1;
	if (v[3] < v[2]) {
		http_error(h, 400, "protocol", "invalid-value",
		    "end-table-id %" PRIu64 " is below start-table-id %" PRIu64,
		    v[3], v[2]);
		return -1;
	}
	return 0;
}

/* bulk-o-matic's flow-test: flows-per-dpn flows into the config of each
 * of the nodes openflow:1..dpn-count (or out of it), spread over the
 * tables start-table-id..end-table-id. */
static void
ofrpc_flow_test(struct http_req *h, const struct doc_node *in, int rfc8040,
    int op)
{
	struct fc_spec	 s;
	struct fc_node	*fn;
	uint64_t	 v[4], d, j;
	int		 add;

	(void)op;
	if (ofrpc_test_input(h, in, &add, v) == -1)
		return;
	for (d = 1; d <= v[0]; d++) {
		fn = fc_node_get(d, 1);
		for (j = 0; j < v[1]; j++) {
			fc_test_spec(&s, d, (uint32_t)j, (unsigned)v[2],
			    (unsigned)v[3]);
			if (add)
				(void)fc_put(fn, &s);
			else
				(void)fc_delete(fn, (unsigned)s.table, s.id);
		}
		fc_barrier(fn);
	}
	rc_rpc_empty(h, rfc8040, &ofrpc_bulk_mod);
}

static int
ofrpc_multiple_cb(const struct of_ctl_switch *sw, void *arg)
{
	const uint64_t	*count = arg;
	struct fc_node	*fn = fc_node_get(sw->dpid, 1);
	struct fc_spec	 s;
	uint64_t	 j;

	for (j = 0; j < *count; j++) {
		fc_test_spec(&s, sw->dpid, (uint32_t)j, 0, 0);
		fc_rpc_push(fn, &s, 1);
	}
	fc_barrier(fn);
	return 0;
}

/* bulk-o-matic's flow-rpc-add-multiple: flow-count flows pushed into
 * table 0 of every connected switch, directly (rpc-batch-size paces
 * ODL's calls; here they all go at once). */
static void
ofrpc_add_multiple(struct http_req *h, const struct doc_node *in,
    int rfc8040, int op)
{
	uint64_t	count;

	(void)op;
	if (ofrpc_uint(h, in, "flow-count", OFRPC_MAX_PER_DPN, &count) == -1)
		return;
	of_ctl_switches(ofrpc_multiple_cb, &count);
	rc_rpc_empty(h, rfc8040, &ofrpc_bulk_mod);
}

static const struct rc_rpc ofrpc_table[] = {
	{ "sal-flow", "add-flow", ofrpc_flow, 1 },
	{ "sal-flow", "remove-flow", ofrpc_flow, 0 },
	{ "sal-bulk-flow", "add-flows-rpc", ofrpc_bulk, OFRPC_ADD_RPC },
	{ "sal-bulk-flow", "remove-flows-rpc", ofrpc_bulk, OFRPC_REMOVE_RPC },
	{ "sal-bulk-flow", "add-flows-ds", ofrpc_bulk, OFRPC_ADD_DS },
	{ "sal-bulk-flow", "remove-flows-ds", ofrpc_bulk, OFRPC_REMOVE_DS },
	{ "sal-bulk-flow", "flow-test", ofrpc_flow_test, 0 },
	{ "sal-bulk-flow", "flow-rpc-add-multiple", ofrpc_add_multiple, 0 },
};

void
of_rpc_register(struct http_server *hs)
{
	size_t	i;

	for (i = 0; i < sizeof(ofrpc_table) / sizeof(ofrpc_table[0]); i++)
		rc_rpc_register(hs, &ofrpc_table[i]);
}
