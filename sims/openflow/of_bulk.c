/*
 * bulk-o-matic's test operations (openflowplugin's
 * applications/bulk-o-matic, module sal-bulk-flow), as the
 * Performance_Bulkomatic and Clustering_Bulkomatic suites call them:
 *   flow-test: flows-per-dpn flows into (or out of) the config of each of
 *     the nodes openflow:1..dpn-count, spread over start..end-table-id;
 *   read-flow-test: the same flows looked up by id in the config or the
 *     operational datastore, counted;
 *   table-test: empty tables start..end put into (or deleted from) the
 *     config of each node;
 *   flow-rpc-add-test, flow-rpc-add-multiple: flow-count flows pushed
 *     into table 1 of one connected switch, or of every one;
 *   register: the FlowCounter MBean (already registered at start, as
 *     bulk-o-matic's constructor does it).
 * ODL runs them in a background task and answers at once; the suites
 * then poll the FlowCounter MBean through Jolokia until WriteOpStatus or
 * ReadOpStatus is 2 (SUCCESS).  Here every write and read is done before
 * the answer, so the status is final when the answer comes, and the
 * counters are what was done: flows found, tables written, the time the
 * writes took.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>

#include "http_server.h"
#include "log.h"
#include "of_bulk.h"
#include "of_ctl.h"
#include "of_flowcfg.h"
#include "of_restconf.h"
#include "restconf.h"

#define OFB_MAX_DPNS	1000000
#define OFB_MAX_PER_DPN	10000000
#define OFB_RPC_TABLE	1	/* FlowWriterDirectOFRpc's table */
#define OFB_MBEAN	"org.opendaylight.openflowplugin.applications." \
			"bulk.o.matic:type=FlowCounter"

/* FlowCounter.OperationStatus */
enum ofb_status {
	OFB_INIT = 0,
	OFB_IN_PROGRESS = 1,
	OFB_SUCCESS = 2,
};

enum ofb_writer {
	OFB_NO_WRITER,
	OFB_FLOW_WRITER,
	OFB_TABLE_WRITER,
};

/* The MBean: the last reader's and the last writer's figures. */
static struct {
	int		have_reader;
	int		read_status;
	uint64_t	flow_count;
	enum ofb_writer	writer;
	int		write_status;
	uint64_t	completion_ns;	/* the flow writer's */
	uint64_t	table_count;	/* the table writer's */
} ofb;

static const struct doc_module ofb_mod = {
	"sal-bulk-flow", "urn:opendaylight:bulk-flow:service"
};

static uint64_t
ofb_now_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A mandatory uint32 leaf (a number, or digits in a string, as the
 * suites' files write them); -1 after an error reply. */
static int
ofb_uint(struct http_req *h, const struct doc_node *in, const char *name,
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

/* A mandatory boolean leaf; -1 after an error reply. */
static int
ofb_bool(struct http_req *h, const struct doc_node *in, const char *name,
    int *v)
{
	char	s[8];

	if (doc_get_string(in, name, s, sizeof(s)) == -1 ||
	    (strcmp(s, "true") != 0 && strcmp(s, "false") != 0)) {
		http_error(h, 400, "protocol", "invalid-value",
		    "%s: expected true or false", name);
		return -1;
	}
	*v = s[0] == 't';
	return 0;
}

/* dpn-count, flows-per-dpn, start-table-id, end-table-id (v[0..3]) with
 * end not below start; -1 after an error reply. */
static int
ofb_range_input(struct http_req *h, const struct doc_node *in, int per_dpn,
    uint64_t v[4])
{
	if (ofb_uint(h, in, "dpn-count", OFB_MAX_DPNS, &v[0]) == -1 ||
	    (per_dpn && ofb_uint(h, in, "flows-per-dpn", OFB_MAX_PER_DPN,
	    &v[1]) == -1) ||
	    ofb_uint(h, in, "start-table-id", 254, &v[2]) == -1 ||
	    ofb_uint(h, in, "end-table-id", 254, &v[3]) == -1)
		return -1;
	if (v[3] < v[2]) {
		http_error(h, 400, "protocol", "invalid-value",
		    "end-table-id %" PRIu64 " is below start-table-id %" PRIu64,
		    v[3], v[2]);
		return -1;
	}
	return 0;
}

/* flow-test.  The leaves that pace ODL's writers (batch-size, seq,
 * tx-chain, sleep-*) are not needed here: every write is done at once. */
static void
ofb_flow_test(struct http_req *h, const struct doc_node *in, int rfc8040,
    int op)
{
	struct fc_spec	 s;
	struct fc_node	*fn;
	uint64_t	 v[4], d, j, t0;
	int		 add;

	(void)op;
	if (ofb_bool(h, in, "is-add", &add) == -1 ||
	    ofb_range_input(h, in, 1, v) == -1)
		return;
	ofb.writer = OFB_FLOW_WRITER;
	ofb.write_status = OFB_IN_PROGRESS;
	t0 = ofb_now_ns();
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
	ofb.completion_ns = ofb_now_ns() - t0;
	ofb.write_status = OFB_SUCCESS;
	rc_rpc_empty(h, rfc8040, &ofb_mod);
}

/* read-flow-test: FlowReader's lookups, one per flow flow-test would
 * have written; the operational datastore holds a flow once its switch
 * reported it in a flow stats reply. */
static void
ofb_read_test(struct http_req *h, const struct doc_node *in, int rfc8040,
    int op)
{
	struct fc_spec	 s;
	struct fc_node	*fn;
	struct fc_flow	*f;
	uint64_t	 v[4], d, j, found = 0;
	int		 verbose, config;

	(void)op;
	if (ofb_bool(h, in, "verbose", &verbose) == -1 ||
	    ofb_bool(h, in, "is-config-ds", &config) == -1 ||
	    ofb_range_input(h, in, 1, v) == -1)
		return;
	for (d = 1; d <= v[0]; d++) {
		if ((fn = fc_node_get(d, 0)) == NULL)
			continue;
		for (j = 0; j < v[1]; j++) {
			fc_test_spec(&s, d, (uint32_t)j, (unsigned)v[2],
			    (unsigned)v[3]);
			f = fc_find(fn, (unsigned)s.table, s.id);
			if (f != NULL && (config || fc_oper_visible(fn, f)))
				found++;
			else if (verbose)
				log_info("bulk-o-matic: flow %s not found",
				    s.id);
		}
	}
	ofb.have_reader = 1;
	ofb.flow_count = found;
	ofb.read_status = OFB_SUCCESS;
	log_info("bulk-o-matic: %" PRIu64 " flows read", found);
	rc_rpc_empty(h, rfc8040, &ofb_mod);
}

/* table-test's operation: the enumeration add/delete of bulk-o-matic's
 * model, or the boolean "add" of the suites' sal_table_add_config.json;
 * -1 after an error reply. */
static int
ofb_table_op(struct http_req *h, const struct doc_node *in, int *add)
{
	char	s[16];

	if (doc_get_string(in, "operation", s, sizeof(s)) == 0) {
		if (strcasecmp(s, "add") == 0 || strcasecmp(s, "delete") == 0) {
			*add = s[0] == 'a' || s[0] == 'A';
			return 0;
		}
		http_error(h, 400, "protocol", "invalid-value",
		    "operation: expected add or delete");
		return -1;
	}
	return ofb_bool(h, in, "add", add);
}

/* table-test: TableWriter puts an empty table (which replaces the one
 * there, flows and all) or deletes it, one transaction per table; a
 * delete of a missing table succeeds, as the datastore's does. */
static void
ofb_table_test(struct http_req *h, const struct doc_node *in, int rfc8040,
    int op)
{
	struct fc_node	*fn;
	uint64_t	 v[4], d, t;
	int		 add;

	(void)op;
	if (ofb_table_op(h, in, &add) == -1 ||
	    ofb_range_input(h, in, 0, v) == -1)
		return;
	ofb.writer = OFB_TABLE_WRITER;
	ofb.write_status = OFB_IN_PROGRESS;
	ofb.table_count = 0;
	for (d = 1; d <= v[0]; d++) {
		fn = fc_node_get(d, 1);
		for (t = v[2]; t <= v[3]; t++) {
			(void)fc_delete_table(fn, (unsigned)t);
			ofb.table_count++;
		}
		fc_barrier(fn);
	}
	ofb.write_status = OFB_SUCCESS;
	rc_rpc_empty(h, rfc8040, &ofb_mod);
}

/* FlowWriterDirectOFRpc's flows: flow i (from 1) matches 0.0.0.i/32 in
 * table 1, pushed by sal-flow's add-flow, not kept in the config. */
static void
ofb_rpc_push(uint64_t dpid, uint64_t count)
{
	struct fc_node	*fn = fc_node_get(dpid, 1);
	struct fc_spec	 s;
	uint64_t	 j;

	for (j = 0; j < count; j++) {
		fc_test_spec(&s, dpid, (uint32_t)j, OFB_RPC_TABLE,
		    OFB_RPC_TABLE);
		fc_rpc_push(fn, &s, 1);
	}
	fc_barrier(fn);
}

static int
ofb_multiple_cb(const struct of_ctl_switch *sw, void *arg)
{
	ofb_rpc_push(sw->dpid, *(const uint64_t *)arg);
	return 0;
}

/* flow-rpc-add-multiple: every switch of the operational inventory
 * (rpc-batch-size paces ODL's calls; here they all go at once). */
static void
ofb_add_multiple(struct http_req *h, const struct doc_node *in,
    int rfc8040, int op)
{
	uint64_t	count, batch;

	(void)op;
	if (ofb_uint(h, in, "flow-count", OFB_MAX_PER_DPN, &count) == -1 ||
	    ofb_uint(h, in, "rpc-batch-size", UINT32_MAX, &batch) == -1)
		return;
	if (of_ctl_switches(ofb_multiple_cb, &count) == 0)
		log_warnx("bulk-o-matic: no switch connected, nothing pushed");
	rc_rpc_empty(h, rfc8040, &ofb_mod);
}

/* flow-rpc-add-test: one switch, named by its node id ("openflow:1");
 * ODL does nothing, and still succeeds, when the operational inventory
 * has no such node. */
static void
ofb_add_test(struct http_req *h, const struct doc_node *in, int rfc8040,
    int op)
{
	struct of_ctl_switch	sw;
	char			id[64];
	uint64_t		count, batch, dpid;

	(void)op;
	if (doc_get_string(in, "dpn-id", id, sizeof(id)) == -1) {
		http_error(h, 400, "protocol", "missing-element",
		    "The input needs dpn-id");
		return;
	}
	if (ofb_uint(h, in, "flow-count", OFB_MAX_PER_DPN, &count) == -1 ||
	    ofb_uint(h, in, "rpc-batch-size", UINT32_MAX, &batch) == -1)
		return;
	if (of_restconf_node_id(id, &dpid) == 0 &&
	    of_ctl_switch_find(dpid, &sw) == 0)
		ofb_rpc_push(dpid, count);
	else
		log_warnx("bulk-o-matic: node %s is not connected, nothing "
		    "pushed", id);
	rc_rpc_empty(h, rfc8040, &ofb_mod);
}

static const struct rc_rpc ofb_table[] = {
	{ "sal-bulk-flow", "flow-test", ofb_flow_test, 0 },
	{ "sal-bulk-flow", "read-flow-test", ofb_read_test, 0 },
	{ "sal-bulk-flow", "table-test", ofb_table_test, 0 },
	{ "sal-bulk-flow", "flow-rpc-add-test", ofb_add_test, 0 },
	{ "sal-bulk-flow", "flow-rpc-add-multiple", ofb_add_multiple, 0 },
};

/* register has no input, so it may come without a body.  The MBean is
 * registered when bulk-o-matic starts; registering it again fails
 * (InstanceAlreadyExistsException), and the RPC with it. */
static void
ofb_register(struct http_req *h, void *arg)
{
	(void)arg;
	http_error(h, 500, "application", "operation-failed",
	    "MBean %s is already registered", OFB_MBEAN);
}

/* The attributes of FlowCounterMBean: 0 with *num or *str set, -1 for a
 * name it does not have. */
static int
ofb_attr(const char *name, uint64_t *num, int64_t *snum, const char **str)
{
	*str = NULL;
	*snum = -1;
	if (strcmp(name, "FlowCount") == 0)
		*num = ofb.have_reader ? ofb.flow_count : 0;
	else if (strcmp(name, "ReadOpStatus") == 0)
		*snum = ofb.have_reader ? ofb.read_status : OFB_INIT;
	else if (strcmp(name, "WriteOpStatus") == 0)
		*snum = ofb.writer != OFB_NO_WRITER ? ofb.write_status :
		    OFB_INIT;
	else if (strcmp(name, "TaskCompletionTime") == 0)
		*num = ofb.writer == OFB_FLOW_WRITER ? ofb.completion_ns : 0;
	else if (strcmp(name, "TableCount") == 0)
		*num = ofb.writer == OFB_TABLE_WRITER ? ofb.table_count : 0;
	else if (strcmp(name, "Units") == 0)
		*str = "ns";
	else
		return -1;
	return 0;
}

static void
ofb_attr_json(struct evbuffer *b, const char *name)
{
	uint64_t	 num = 0;
	int64_t		 snum;
	const char	*str;

	(void)ofb_attr(name, &num, &snum, &str);
	if (str != NULL)
		evbuffer_add_printf(b, "\"%s\"", str);
	else if (snum >= 0)
		evbuffer_add_printf(b, "%" PRId64, snum);
	else
		evbuffer_add_printf(b, "%" PRIu64, num);
}

/* A string from the request path inside a JSON string (RFC 8259
 * section 7): quotes and backslashes escaped; the path parser has
 * refused control characters already. */
static void
ofb_json_str(struct evbuffer *b, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			evbuffer_add(b, "\\", 1);
		evbuffer_add(b, s, 1);
	}
}

static const char *const ofb_attrs[] = {
	"FlowCount", "ReadOpStatus", "WriteOpStatus", "TaskCompletionTime",
	"Units", "TableCount",
};

/*
 * GET /jolokia/read/MBEAN[/ATTRIBUTE]: Jolokia's read request (its
 * protocol's GET form).  The reply is JSON whatever was asked for, with
 * the request, the value (all attributes without one) and the status;
 * an unknown attribute gets Jolokia's error, with HTTP 200 as its agent
 * answers by default.
 */
static void
ofb_jolokia(struct http_req *h, void *arg)
{
	struct evbuffer	*b = evbuffer_new();
	const char	*attr = NULL;
	uint64_t	 num;
	int64_t		 snum;
	const char	*str;
	size_t		 i;

	(void)arg;
	if (b == NULL)
		fatalx("evbuffer_new");
	if (h->path.n > h->route_len)
		attr = h->path.seg[h->route_len];
	h->reply_type = "application/json";
	evbuffer_add_printf(b, "{\"request\":{\"mbean\":\"%s\",", OFB_MBEAN);
	if (attr != NULL) {
		evbuffer_add_printf(b, "\"attribute\":\"");
		ofb_json_str(b, attr);
		evbuffer_add_printf(b, "\",");
	}
	evbuffer_add_printf(b, "\"type\":\"read\"},");
	if (attr != NULL && (h->path.n > h->route_len + 1 ||
	    ofb_attr(attr, &num, &snum, &str) == -1)) {
		log_warnx("jolokia: %s has no attribute %s", OFB_MBEAN, attr);
		evbuffer_add_printf(b, "\"error_type\":\"javax.management."
		    "AttributeNotFoundException\",\"error\":\"javax.management."
		    "AttributeNotFoundException : No such attribute: ");
		ofb_json_str(b, attr);
		evbuffer_add_printf(b, "\",\"status\":404}");
	} else {
		evbuffer_add_printf(b, "\"value\":");
		if (attr != NULL)
			ofb_attr_json(b, attr);
		else
			for (i = 0; i < sizeof(ofb_attrs) /
			    sizeof(ofb_attrs[0]); i++) {
				evbuffer_add_printf(b, "%s\"%s\":",
				    i ? "," : "{", ofb_attrs[i]);
				ofb_attr_json(b, ofb_attrs[i]);
			}
		evbuffer_add_printf(b, "%s,\"timestamp\":%lld,\"status\":200}",
		    attr != NULL ? "" : "}", (long long)time(NULL));
	}
	http_reply(h, 200, b);
	evbuffer_free(b);
}

void
of_bulk_register(struct http_server *hs)
{
	memset(&ofb, 0, sizeof(ofb));
	rc_rpc_register(hs, ofb_table, nitems(ofb_table));
	http_server_route(hs, "/rests/operations/sal-bulk-flow:register",
	    EVHTTP_REQ_POST, ofb_register, NULL);
	http_server_route(hs, "/restconf/operations/sal-bulk-flow:register",
	    EVHTTP_REQ_POST, ofb_register, NULL);
	http_server_route(hs, "/jolokia/read/" OFB_MBEAN, EVHTTP_REQ_GET,
	    ofb_jolokia, NULL);
}
