/*
 * The OpenFlow operations of the embedded controller, as openflowplugin
 * serves them (RFC 8040 section 3.6 under /rests/operations, and the
 * draft's /restconf/operations):
 *   sal-flow: add-flow, remove-flow, update-flow: one flow pushed to
 *     the node the input names, not written to the config datastore;
 *   sal-bulk-flow (bulk-o-matic): add-flows-rpc, remove-flows-rpc (a
 *     bulk-flow-item list of the same), add-flows-ds, remove-flows-ds
 *     (bulk-flow-ds-item, each with its flow-id, through the config
 *     datastore); its test operations are in of_bulk.c.
 * Each answers once the FLOW_MODs and a barrier are queued.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "of_bulk.h"
#include "of_ctl.h"
#include "of_flowcfg.h"
#include "of_restconf.h"
#include "restconf.h"


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

/* The node an input names (its "node" leaf), which must be connected
 * for a direct push; -1 after an error reply. */
int
ofrpc_node(struct http_req *h, const struct doc_node *in, int direct,
    uint64_t *dpid)
{
	struct of_ctl_switch	sw;
	char			ref[256];

	if (doc_get_string(in, "node", ref, sizeof(ref)) == -1) {
		http_error(h, 400, "protocol", "missing-element",
		    "The input needs a node");
		return -1;
	}
	if (ofrpc_node_ref(ref, dpid) == -1) {
		http_error(h, 400, "protocol", "invalid-value",
		    "node '%s' does not name an OpenFlow node "
		    "(openflow:DPID)", ref);
		return -1;
	}
	if (direct && of_ctl_switch_find(*dpid, &sw) == -1) {
		http_error(h, 404, "protocol", "data-missing",
		    "Node openflow:%" PRIu64 " is not connected", *dpid);
		return -1;
	}
	return 0;
}

/* A flow of an input (id_leaf: where its id is, NULL for none; name: the
 * container it is in, for the error, NULL for the input itself), in table
 * 0 when it names none; -1 after an error reply. */
static int
ofrpc_spec(struct http_req *h, const struct doc_node *flow,
    const char *id_leaf, const char *name, struct fc_spec *s)
{
	char	err[256];

	if (fc_parse_as(flow, id_leaf, s, err, sizeof(err)) == -1) {
		http_error(h, 400, "protocol", "invalid-value", "%s%s%s",
		    name != NULL ? name : "", name != NULL ? ": " : "", err);
		return -1;
	}
	if (s->table < 0)
		s->table = 0;
	return 0;
}

/* One flow of an input and its node (ofrpc_node, ofrpc_spec); -1 after an
 * error reply. */
static int
ofrpc_item(struct http_req *h, const struct doc_node *in,
    const char *id_leaf, int direct, struct ofrpc_item *it)
{
	if (ofrpc_node(h, in, direct, &it->dpid) == -1)
		return -1;
	return ofrpc_spec(h, in, id_leaf, NULL, &it->spec);
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

/* One flow of update-flow's input (container name: original-flow or
 * updated-flow); -1 after an error reply. */
static int
ofrpc_update_part(struct http_req *h, const struct doc_node *in,
    const char *name, struct fc_spec *s)
{
	struct doc_node	c;

	if (doc_child(in, name, &c) == -1) {
		http_error(h, 400, "protocol", "missing-element",
		    "The input needs %s", name);
		return -1;
	}
	return ofrpc_spec(h, &c, NULL, name, s);
}

/*
 * sal-flow's update-flow: the original flow leaves the switch
 * (DELETE_STRICT on its table, match and priority) and the updated one
 * is added, as openflowplugin's flow service does when the two differ in
 * match or priority; for an update of the actions alone it would send
 * one MODIFY_STRICT, to the same effect on the switch's table except
 * that the entry's counters are kept.
 */
static void
ofrpc_update(struct http_req *h, const struct doc_node *in, int rfc8040,
    int op)
{
	struct fc_spec		 orig, upd;
	struct fc_node		*fn;
	uint64_t		 dpid;

	(void)op;
	if (ofrpc_node(h, in, 1, &dpid) == -1 ||
	    ofrpc_update_part(h, in, "original-flow", &orig) == -1 ||
	    ofrpc_update_part(h, in, "updated-flow", &upd) == -1)
		return;
	fn = fc_node_get(dpid, 1);
	orig.strict = 1;
	fc_rpc_push(fn, &orig, 0);
	fc_rpc_push(fn, &upd, 1);
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
	size_t			 cnt = of_restconf_entries(in, list);

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

static const struct rc_rpc ofrpc_table[] = {
	{ "sal-flow", "add-flow", ofrpc_flow, 1 },
	{ "sal-flow", "remove-flow", ofrpc_flow, 0 },
	{ "sal-flow", "update-flow", ofrpc_update, 0 },
	{ "sal-bulk-flow", "add-flows-rpc", ofrpc_bulk, OFRPC_ADD_RPC },
	{ "sal-bulk-flow", "remove-flows-rpc", ofrpc_bulk, OFRPC_REMOVE_RPC },
	{ "sal-bulk-flow", "add-flows-ds", ofrpc_bulk, OFRPC_ADD_DS },
	{ "sal-bulk-flow", "remove-flows-ds", ofrpc_bulk, OFRPC_REMOVE_DS },
};

void
of_rpc_register(struct http_server *hs)
{
	rc_rpc_register(hs, ofrpc_table, nitems(ofrpc_table));
	of_bulk_register(hs);
}
