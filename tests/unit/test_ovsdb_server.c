/*
 * Unit tests of one device's OVSDB server (sims/ovsdb/ovsdb_server.c,
 * ovsdb_monitor.c) driven with JSON-RPC messages, its output caught by
 * the connection's send hook: list_dbs, get_schema, echo, transact,
 * monitor's initial contents and its "update" notifications (RFC 7047
 * 4.1.5, 4.1.6), monitor_cond's "update2" with a condition and
 * monitor_cond_since's "update3" (ovsdb-server(7)), rows coming into and
 * leaving a condition, select, a collected row's old contents, the
 * read-only _Server database,
 * duplicate monitor ids and unknown tables, monitor_cond_change,
 * monitor_cancel,
 * lock, steal and unlock with their "locked" and "stolen" notifications
 * (4.1.8 to 4.1.10), the run's watch (monitors and clients' commits),
 * a transact over --max-transact-ops refused unrun,
 * and bad input: an unknown method answered with the
 * error "unknown method", a message that is not JSON or not JSON-RPC
 * ending the connection.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "ovsdb_server.h"

#include "check.h"

static const char schema_text[] =
"{'name':'Open_vSwitch','version':'8.3.1','tables':{"
" 'Open_vSwitch':{'isRoot':true,'maxRows':1,'columns':{"
"  'bridges':{'type':{'key':{'type':'uuid','refTable':'Bridge'},"
"   'min':0,'max':'unlimited'}},"
"  'next_cfg':{'type':'integer'}}},"
" 'Bridge':{'indexes':[['name']],'columns':{"
"  'name':{'type':'string','mutable':false},"
"  'external_ids':{'type':{'key':'string','value':'string','min':0,"
"   'max':'unlimited'}},"
"  'flood_vlans':{'type':{'key':'integer','min':0,'max':4096}}}}}}";

/* A connection whose output is kept. */
struct tconn {
	struct ovsdb_conn	 conn;
	json_t			*out;		/* messages sent to it */
};

static uint64_t			 cnt[sizeof(struct ovsdb_counters) /
				    sizeof(uint64_t *)];
static struct ovsdb_counters	 counters;
static struct ovsdb_schema	*schema;
static struct ovsdb_server	 srv;

static char *
quotes(const char *s)
{
	char	*t = xstrdup(s), *p;

	for (p = t; *p != '\0'; p++)
		if (*p == '\'')
			*p = '"';
	return t;
}

static void
t_send(struct ovsdb_conn *c, const char *buf, size_t len)
{
	struct tconn	*t = (struct tconn *)c;
	json_error_t	 e;
	json_t		*j;

	if ((j = json_loadb(buf, len, 0, &e)) == NULL) {
		fprintf(stderr, "the server wrote bad JSON: %.*s\n", (int)len,
		    buf);
		exit(2);
	}
	json_array_append_new(t->out, j);
}

static void
setup(struct tconn *a, struct tconn *b)
{
	uint64_t	**p = (uint64_t **)&counters;
	char		 err[256], *s = quotes(schema_text);
	size_t		 i;

	for (i = 0; i < sizeof(cnt) / sizeof(cnt[0]); i++) {
		cnt[i] = 0;
		p[i] = &cnt[i];
	}
	if (schema == NULL && (schema = ovsdb_schema_parse(json_loads(s, 0,
	    NULL), err, sizeof(err))) == NULL)
		fatalx("schema: %s", err);
	free(s);
	ovsdb_server_init(&srv, schema, ovsdb_db_new(schema), &counters);
	ovsdb_conn_attach(&srv, &a->conn, t_send);
	a->out = json_array();
	if (b != NULL) {
		ovsdb_conn_attach(&srv, &b->conn, t_send);
		b->out = json_array();
	}
}

static void
teardown(struct tconn *a, struct tconn *b)
{
	ovsdb_conn_detach(&a->conn);
	json_decref(a->out);
	if (b != NULL) {
		ovsdb_conn_detach(&b->conn);
		json_decref(b->out);
	}
	ovsdb_server_free(&srv);
}

/* Send one message (single quotes); the connection's verdict. */
static int
say(struct tconn *t, const char *msg)
{
	char	*s = quotes(msg);
	int	 rc;

	json_array_clear(t->out);
	rc = ovsdb_conn_message(&t->conn, (const uint8_t *)s, strlen(s),
	    "test");
	free(s);
	return rc;
}

static json_t *
last(const struct tconn *t)
{
	return json_array_get(t->out, json_array_size(t->out) - 1);
}

static const char *
str_at(const json_t *j, const char *key)
{
	const char	*s = json_string_value(json_object_get(j, key));

	return s != NULL ? s : "";
}

/* The tag of the last reply's JSON-RPC error object, or "". */
static const char *
rpc_error(const struct tconn *t)
{
	return str_at(json_object_get(last(t), "error"), "error");
}

static const char add_br[] =
"{'id':7,'method':'transact','params':['Open_vSwitch',"
" {'op':'insert','table':'Open_vSwitch','row':{'bridges':['named-uuid',"
"  'b']}},{'op':'insert','table':'Bridge','row':{'name':'br0'},"
"  'uuid-name':'b'}]}";

static void
test_basics(void)
{
	struct tconn	a;
	json_t		*r;

	setup(&a, NULL);
	CHECK(say(&a, "{'id':1,'method':'list_dbs','params':[]}") == 0 &&
	    strcmp(json_string_value(json_array_get(json_object_get(last(&a),
	    "result"), 0)), "Open_vSwitch") == 0, "list_dbs");
	say(&a, "{'id':2,'method':'get_schema','params':['Open_vSwitch']}");
	CHECK(json_equal(json_object_get(last(&a), "result"), schema->json),
	    "get_schema: the schema as loaded");
	say(&a, "{'id':3,'method':'get_schema','params':['_Server']}");
	r = json_object_get(last(&a), "error");
	CHECK(strcmp(str_at(r, "error"), "unknown database") == 0 &&
	    json_object_get(last(&a), "result") == NULL,
	    "get_schema of _Server: unknown database (a client falls back)");
	say(&a, "{'id':'x','method':'echo','params':[1,'a']}");
	CHECK(json_array_size(json_object_get(last(&a), "result")) == 2 &&
	    strcmp(str_at(last(&a), "id"), "x") == 0 &&
	    *counters.echo_received == 1,
	    "echo: the params back");
	say(&a, "{'id':4,'method':'no_such','params':[]}");
	CHECK(strcmp(str_at(last(&a), "error"), "unknown method") == 0 &&
	    *counters.unknown_methods == 1, "unknown method");
	say(&a, "{'id':null,'method':'no_such','params':[]}");
	CHECK(json_array_size(a.out) == 0, "a notification is not answered");
	CHECK(say(&a, "{'id':5,'method':'echo'") == -1 &&
	    *counters.decode_errors == 1, "not JSON: the connection ends");
	CHECK(say(&a, "{'id':5,'method':'echo','params':{}}") == -1 &&
	    *counters.invalid_msgs == 1, "params not an array: the end too");
	CHECK(say(&a, "{'id':'echo','result':[],'error':null}") == 0 &&
	    *counters.echo_replies == 1, "a reply to our echo is taken");
	ovsdb_conn_probe(&a.conn);
	CHECK(strcmp(str_at(last(&a), "method"), "echo") == 0 &&
	    *counters.echo_sent == 1, "the inactivity probe is an echo");
	teardown(&a, NULL);
}

static void
test_transact(void)
{
	struct tconn	a;
	json_t		*res;

	setup(&a, NULL);
	say(&a, add_br);
	res = json_object_get(last(&a), "result");
	CHECK(json_array_size(res) == 2 && json_is_null(json_object_get(
	    last(&a), "error")) && json_integer_value(json_object_get(last(&a),
	    "id")) == 7, "transact: two results, the id back");
	say(&a, "{'id':8,'method':'transact','params':['Open_vSwitch',"
	    "{'op':'insert','table':'Bridge','row':{'name':5}}]}");
	res = json_object_get(last(&a), "result");
	CHECK(strcmp(str_at(json_array_get(res, 0), "error"), "syntax error")
	    == 0 && json_object_get(json_array_get(res, 0), "details") !=
	    NULL && *counters.transact_errors == 1,
	    "a bad operation: its error in the result array");
	say(&a, "{'id':9,'method':'transact','params':['Nope']}");
	CHECK(strcmp(rpc_error(&a), "unknown database") == 0,
	    "transact on another database");
	teardown(&a, NULL);
}

/* A transact of n inserts of bridges b0.. into msg. */
static const char *
inserts(char *msg, size_t len, int n)
{
	size_t	off;
	int	i;

	off = (size_t)snprintf(msg, len, "{'id':1,'method':'transact',"
	    "'params':['Open_vSwitch'");
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(msg + off, len - off, ",{'op':'insert',"
		    "'table':'Bridge','row':{'name':'b%d'}}", i);
	if (off < len)
		snprintf(msg + off, len - off, "]}");
	return msg;
}

/* --max-transact-ops: a larger transact refused unrun (section 4.1.3's
 * shape: the error first, null for the rest), one at the limit run. */
static void
test_transact_ops_cap(void)
{
	struct tconn	a;
	json_t		*res;
	char		 msg[1024];

	setup(&a, NULL);
	srv.max_ops = 3;
	CHECK(say(&a, inserts(msg, sizeof(msg), 4)) == 0,
	    "a transact over the cap: the session goes on");
	res = json_object_get(last(&a), "result");
	CHECK(json_array_size(res) == 4 && strcmp(str_at(json_array_get(res,
	    0), "error"), "resources exhausted") == 0 &&
	    json_object_get(json_array_get(res, 0), "details") != NULL &&
	    json_is_null(json_array_get(res, 3)) &&
	    *counters.transacts_refused == 1 && *counters.transact_errors == 1,
	    "4 operations over a cap of 3: resources exhausted, null after");
	CHECK(srv.changed == 0, "nothing committed");
	/* At the cap: run. */
	say(&a, inserts(msg, sizeof(msg), 3));
	res = json_object_get(last(&a), "result");
	CHECK(json_array_size(res) == 3 && json_object_get(json_array_get(res,
	    2), "uuid") != NULL && *counters.transacts_refused == 1,
	    "3 operations at a cap of 3: committed");
	teardown(&a, NULL);
}

static void
test_monitor_v1(void)
{
	struct tconn	 a, b;
	json_t		*tu, *up, *row;
	const char	*uuid;

	setup(&a, &b);
	say(&a, add_br);
	say(&b, "{'id':1,'method':'monitor','params':['Open_vSwitch','m',"
	    "{'Bridge':{'columns':['name','external_ids']}}]}");
	tu = json_object_get(json_object_get(last(&b), "result"), "Bridge");
	CHECK(json_object_size(tu) == 1, "monitor: the bridge there at first");
	json_array_clear(b.out);
	say(&a, "{'id':2,'method':'transact','params':['Open_vSwitch',"
	    "{'op':'mutate','table':'Bridge','where':[],'mutations':[["
	    "'external_ids','insert',['map',[['k','v']]]]]}]}");
	CHECK(json_array_size(b.out) == 1 && strcmp(str_at(json_array_get(
	    b.out, 0), "method"), "update") == 0, "the other connection "
	    "hears of the change");
	up = json_array_get(json_object_get(json_array_get(b.out, 0),
	    "params"), 1);
	json_object_foreach(json_object_get(up, "Bridge"), uuid, row)
		CHECK(json_object_size(json_object_get(row, "old")) == 1 &&
		    json_object_size(json_object_get(row, "new")) == 2,
		    "update: old has what changed, new all monitored columns");
	json_array_clear(b.out);
	say(&a, "{'id':3,'method':'transact','params':['Open_vSwitch',"
	    "{'op':'mutate','table':'Open_vSwitch','where':[],'mutations':"
	    "[['next_cfg','+=',1]]}]}");
	CHECK(json_array_size(b.out) == 0, "no update for a table not "
	    "monitored");
	say(&b, "{'id':4,'method':'monitor_cancel','params':['m']}");
	CHECK(json_object_size(json_object_get(last(&b), "result")) == 0,
	    "monitor_cancel");
	say(&b, "{'id':5,'method':'monitor_cancel','params':['m']}");
	CHECK(strcmp(str_at(last(&b), "error"), "unknown monitor") == 0,
	    "cancel twice: \"unknown monitor\" as ovsdb-server says it");
	teardown(&a, &b);
}

static void
test_monitor_v2_v3(void)
{
	struct tconn	 a, b;
	json_t		*res, *rows, *row, *want;
	const char	*uuid;

	setup(&a, &b);
	say(&a, add_br);
	say(&b, "{'id':1,'method':'monitor_cond','params':['Open_vSwitch',"
	    "'m2',{'Bridge':[{'columns':['name','flood_vlans'],'where':"
	    "[['name','==','br1']]}]}]}");
	CHECK(json_object_size(json_object_get(last(&b), "result")) == 0,
	    "monitor_cond: br0 is not br1, nothing at first");
	say(&b, "{'id':2,'method':'monitor_cond_since','params':["
	    "'Open_vSwitch','m3',{'Bridge':[{'columns':['name','flood_vlans'"
	    "]}]},'00000000-0000-0000-0000-000000000000']}");
	res = json_object_get(last(&b), "result");
	CHECK(json_is_false(json_array_get(res, 0)) && json_object_size(
	    json_object_get(json_array_get(res, 2), "Bridge")) == 1,
	    "monitor_cond_since: not found, all rows as initial");
	json_array_clear(b.out);
	say(&a, "{'id':3,'method':'transact','params':['Open_vSwitch',"
	    "{'op':'insert','table':'Bridge','row':{'name':'br1','flood_vlans'"
	    ":['set',[1,2]]},'uuid-name':'b1'},{'op':'mutate','table':"
	    "'Open_vSwitch','where':[],'mutations':[['bridges','insert',"
	    "['named-uuid','b1']]]}]}");
	CHECK(json_array_size(b.out) == 2, "both monitors hear of br1");
	res = json_array_get(b.out, 0);
	CHECK(strcmp(str_at(res, "method"), "update3") == 0 ||
	    strcmp(str_at(res, "method"), "update2") == 0,
	    "update2 and update3 notifications");
	json_array_clear(b.out);
	say(&a, "{'id':4,'method':'transact','params':['Open_vSwitch',"
	    "{'op':'mutate','table':'Bridge','where':[['name','==','br1']],"
	    "'mutations':[['flood_vlans','delete',['set',[1]]],"
	    "['flood_vlans','insert',['set',[3]]]]}]}");
	/* update2's params end with the table updates. */
	res = json_object_get(json_array_get(b.out, 0), "params");
	rows = json_object_get(json_array_get(res, json_array_size(res) - 1),
	    "Bridge");
	want = json_loads("[\"set\",[1,3]]", 0, NULL);
	json_object_foreach(rows, uuid, row)
		CHECK(json_equal(json_object_get(json_object_get(row, "modify"),
		    "flood_vlans"), want), "modify: the elements removed and "
		    "added");
	json_decref(want);
	teardown(&a, &b);
}

/* A row that comes into a monitor_cond's condition is an insert for it,
 * one that leaves it a delete (ovsdb-server(7), monitor_cond); select
 * false keeps a kind of change out. */
static void
test_monitor_cond_moves(void)
{
	struct tconn	 a, b;
	json_t		*row;
	const char	*uuid, *kind;

	setup(&a, &b);
	say(&a, add_br);
	say(&b, "{'id':1,'method':'monitor_cond','params':['Open_vSwitch',"
	    "'c',{'Bridge':[{'columns':['name'],'where':[['flood_vlans',"
	    "'includes',5]],'select':{'modify':false}}]}]}");
	CHECK(json_object_size(json_object_get(last(&b), "result")) == 0,
	    "no bridge has vlan 5 yet");
	json_array_clear(b.out);
	say(&a, "{'id':2,'method':'transact','params':['Open_vSwitch',"
	    "{'op':'mutate','table':'Bridge','where':[],'mutations':"
	    "[['flood_vlans','insert',['set',[5,6]]]]}]}");
	kind = "";
	json_object_foreach(json_object_get(json_array_get(json_object_get(
	    json_array_get(b.out, 0), "params"), 1), "Bridge"), uuid, row)
		kind = json_object_iter_key(json_object_iter(row));
	CHECK(strcmp(kind, "insert") == 0, "vlan 5 added: the bridge comes "
	    "in as an insert (%s)", kind);
	json_array_clear(b.out);
	say(&a, "{'id':3,'method':'transact','params':['Open_vSwitch',"
	    "{'op':'mutate','table':'Bridge','where':[],'mutations':"
	    "[['flood_vlans','delete',['set',[6]]]]}]}");
	CHECK(json_array_size(b.out) == 0, "a modify inside the condition, "
	    "not selected: nothing");
	say(&a, "{'id':4,'method':'transact','params':['Open_vSwitch',"
	    "{'op':'mutate','table':'Bridge','where':[],'mutations':"
	    "[['flood_vlans','delete',['set',[5]]]]}]}");
	kind = "";
	json_object_foreach(json_object_get(json_array_get(json_object_get(
	    json_array_get(b.out, 0), "params"), 1), "Bridge"), uuid, row)
		kind = json_object_iter_key(json_object_iter(row));
	CHECK(strcmp(kind, "delete") == 0, "vlan 5 gone: a delete (%s)", kind);
	json_array_clear(b.out);
	say(&b, "{'id':5,'method':'monitor','params':['Open_vSwitch','c',"
	    "{'Bridge':{}}]}");
	CHECK(strcmp(rpc_error(&b), "duplicate monitor ID") == 0,
	    "a monitor id twice: refused");
	say(&b, "{'id':6,'method':'monitor','params':['Open_vSwitch','d',"
	    "{'Nope':{}}]}");
	CHECK(strcmp(rpc_error(&b), "syntax error") == 0,
	    "a monitor of no table: refused");
	teardown(&a, &b);
}

/* monitor_cond_change (ovsdb-server(7)): new conditions and a new id;
 * the rows they let in and out follow the reply. */
static void
test_monitor_cond_change(void)
{
	struct tconn	 a, b;
	json_t		*msg, *row;
	const char	*uuid, *kind = "";

	setup(&a, &b);
	say(&a, add_br);
	say(&b, "{'id':1,'method':'monitor_cond','params':['Open_vSwitch',"
	    "'c1',{'Bridge':[{'columns':['name'],'where':[['name','==',"
	    "'nope']]}]}]}");
	say(&b, "{'id':2,'method':'monitor_cond_change','params':['c1','c2',"
	    "{'Bridge':[{'where':[['name','==','br0']]}]}]}");
	CHECK(json_array_size(b.out) == 2 && json_object_size(json_object_get(
	    json_array_get(b.out, 0), "result")) == 0, "the reply first");
	msg = json_array_get(b.out, 1);
	json_object_foreach(json_object_get(json_array_get(json_object_get(
	    msg, "params"), 1), "Bridge"), uuid, row)
		kind = json_object_iter_key(json_object_iter(row));
	CHECK(strcmp(str_at(msg, "method"), "update2") == 0 &&
	    strcmp(json_string_value(json_array_get(json_object_get(msg,
	    "params"), 0)), "c2") == 0 && strcmp(kind, "insert") == 0,
	    "then br0 coming in, under the new id");
	say(&b, "{'id':3,'method':'monitor_cond_change','params':['c2','c2',"
	    "{'Bridge':[{'where':[false]}]}]}");
	kind = "";
	json_object_foreach(json_object_get(json_array_get(json_object_get(
	    json_array_get(b.out, 1), "params"), 1), "Bridge"), uuid, row)
		kind = json_object_iter_key(json_object_iter(row));
	CHECK(strcmp(kind, "delete") == 0, "where false: br0 goes");
	say(&b, "{'id':4,'method':'monitor_cond_change','params':['c1','c3',"
	    "{}]}");
	CHECK(strcmp(rpc_error(&b), "syntax error") == 0, "the old id is "
	    "gone");
	say(&b, "{'id':5,'method':'monitor_cond_change','params':['c2','c4',"
	    "{'Port':[{'where':[true]}]}]}");
	CHECK(strcmp(rpc_error(&b), "syntax error") == 0 && json_array_size(
	    b.out) == 1, "a table not monitored: refused, nothing changed");
	teardown(&a, &b);
}

/* Deleting a bridge: version 1 monitors get the old row. */
static void
test_monitor_v1_delete(void)
{
	struct tconn	 a, b;
	json_t		*row;
	const char	*uuid;
	int		 seen = 0;

	setup(&a, &b);
	say(&a, add_br);
	say(&b, "{'id':1,'method':'monitor','params':['Open_vSwitch','m',"
	    "{'Bridge':{'columns':['name'],'select':{'initial':false}}}]}");
	CHECK(json_object_size(json_object_get(last(&b), "result")) == 0,
	    "select initial false: no initial rows");
	json_array_clear(b.out);
	say(&a, "{'id':2,'method':'transact','params':['Open_vSwitch',"
	    "{'op':'update','table':'Open_vSwitch','where':[],'row':"
	    "{'bridges':['set',[]]}}]}");
	json_object_foreach(json_object_get(json_array_get(json_object_get(
	    json_array_get(b.out, 0), "params"), 1), "Bridge"), uuid, row) {
		seen++;
		CHECK(strcmp(str_at(json_object_get(row, "old"), "name"), "br0")
		    == 0 && json_object_get(row, "new") == NULL,
		    "the collected bridge: old only");
	}
	CHECK(seen == 1, "one row in the update");
	teardown(&a, &b);
}

/* The _Server database (ovsdb-server(5)): listed, its schema, its rows
 * monitored, read-only, never updated. */
static void
test_server_db(void)
{
	struct ovsdb_sysdb	*sys;
	struct tconn		 a, b;
	json_t			*res;

	setup(&a, &b);
	sys = ovsdb_sysdb_new(schema);
	srv.sys = sys;
	say(&a, "{'id':1,'method':'list_dbs','params':[]}");
	res = json_object_get(last(&a), "result");
	CHECK(json_array_size(res) == 2 && strcmp(json_string_value(
	    json_array_get(res, 1)), "_Server") == 0, "list_dbs: _Server too");
	say(&a, "{'id':2,'method':'get_schema','params':['_Server']}");
	CHECK(strcmp(str_at(json_object_get(last(&a), "result"), "name"),
	    "_Server") == 0, "get_schema _Server");
	say(&b, "{'id':3,'method':'monitor_cond','params':['_Server','s',"
	    "{'Database':[{'columns':['name','model','connected','leader',"
	    "'schema']}]}]}");
	CHECK(json_object_size(json_object_get(json_object_get(last(&b),
	    "result"), "Database")) == 2, "its two Database rows");
	say(&a, "{'id':4,'method':'transact','params':['_Server',"
	    "{'op':'delete','table':'Database','where':[]}]}");
	res = json_object_get(last(&a), "result");
	CHECK(strcmp(str_at(json_array_get(res, 1), "error"), "not allowed")
	    == 0, "read-only");
	json_array_clear(b.out);
	say(&a, add_br);
	CHECK(json_array_size(b.out) == 0, "a change of Open_vSwitch is no "
	    "update of _Server");
	teardown(&a, &b);
	srv.sys = NULL;
	ovsdb_sysdb_free(sys);
}

static void
test_locks(void)
{
	struct tconn	a, b;

	setup(&a, &b);
	say(&a, "{'id':1,'method':'lock','params':['l']}");
	CHECK(json_is_true(json_object_get(json_object_get(last(&a), "result"),
	    "locked")), "lock: granted");
	say(&b, "{'id':1,'method':'lock','params':['l']}");
	CHECK(json_is_false(json_object_get(json_object_get(last(&b), "result"),
	    "locked")), "a second lock: waits");
	say(&b, "{'id':2,'method':'transact','params':['Open_vSwitch',"
	    "{'op':'assert','lock':'l'}]}");
	CHECK(strcmp(str_at(json_array_get(json_object_get(last(&b), "result"),
	    0), "error"), "not owner") == 0, "assert while waiting: not owner");
	json_array_clear(a.out);
	say(&b, "{'id':3,'method':'steal','params':['l']}");
	CHECK(json_is_true(json_object_get(json_object_get(last(&b), "result"),
	    "locked")) && strcmp(str_at(json_array_get(a.out, 0), "method"),
	    "stolen") == 0, "steal: granted, the owner told stolen");
	json_array_clear(a.out);
	say(&b, "{'id':4,'method':'unlock','params':['l']}");
	CHECK(strcmp(str_at(json_array_get(a.out, 0), "method"), "locked") ==
	    0, "unlock: the next in line told locked");
	say(&a, "{'id':5,'method':'lock','params':['l']}");
	CHECK(json_object_get(last(&a), "error") != NULL &&
	    !json_is_null(json_object_get(last(&a), "error")),
	    "lock twice: an error");
	teardown(&a, &b);
}

/* What the watch heard (struct ovsdb_watch, ovsdb_phases.c's seam). */
static struct {
	int			 monitors[4];	/* by table index */
	int			 commits;
	uint32_t		 bridges_old, bridges_new;
	uint64_t		 rx_ns;
} heard;

static void
w_monitor(void *arg, struct ovsdb_conn *c, uint32_t ti)
{
	(void)arg;
	(void)c;
	if (ti < 4)
		heard.monitors[ti]++;
}

static void
w_commit(void *arg, struct ovsdb_conn *c, const struct ovsdb_db *old,
    const struct ovsdb_db *new)
{
	int	bt = ovsdb_table_find(schema, "Bridge");

	(void)arg;
	heard.commits++;
	heard.bridges_old = old->t[bt].n;
	heard.bridges_new = new->t[bt].n;
	heard.rx_ns = c->rx_ns;
}

static const struct ovsdb_watch watch = { w_monitor, w_commit };

static void
test_watch(void)
{
	struct tconn	a;
	int		ovs, br;
	char		err[256];
	json_t		*ops;
	int		 rc;

	setup(&a, NULL);
	memset(&heard, 0, sizeof(heard));
	srv.watch = &watch;
	ovs = ovsdb_table_find(schema, "Open_vSwitch");
	br = ovsdb_table_find(schema, "Bridge");
	say(&a, "{'id':1,'method':'monitor_cond','params':['Open_vSwitch','m',"
	    "{'Open_vSwitch':[{}],'Bridge':[{}]}]}");
	CHECK(heard.monitors[ovs] == 1 && heard.monitors[br] == 1,
	    "a monitor: each of its tables heard once");
	say(&a, "{'id':2,'method':'monitor','params':['_Server','s',"
	    "{'Database':{}}]}");
	CHECK(heard.monitors[ovs] == 1 && heard.monitors[br] == 1,
	    "a monitor of _Server: not the device's tables");
	a.conn.rx_ns = 42;
	say(&a, add_br);
	CHECK(heard.commits == 1 && heard.bridges_old == 0 &&
	    heard.bridges_new == 1 && heard.rx_ns == 42,
	    "a client's transact: old and new before the commit, rx_ns");
	say(&a, "{'id':3,'method':'transact','params':['Open_vSwitch',"
	    "{'op':'select','table':'Bridge','where':[]}]}");
	CHECK(heard.commits == 1, "a transact that changes nothing: unheard");
	say(&a, "{'id':4,'method':'transact','params':['Open_vSwitch',"
	    "{'op':'insert','table':'Bridge','row':{'name':'br0'}}]}");
	CHECK(heard.commits == 1, "a failed transact: unheard");
	ops = json_pack("[{s:s, s:s, s:[], s:[[s, s, i]]}]", "op", "mutate",
	    "table", "Open_vSwitch", "where", "mutations", "next_cfg", "+=", 1);
	rc = ops != NULL ? ovsdb_server_write(&srv, ops, err, sizeof(err)) :
	    -1;
	CHECK(rc == 0 && heard.commits == 1, "the device's own write: "
	    "unheard");
	json_decref(ops);
	/* br0 out of Open_vSwitch: collected with the commit. */
	say(&a, "{'id':5,'method':'transact','params':['Open_vSwitch',"
	    "{'op':'update','table':'Open_vSwitch','where':[],'row':"
	    "{'bridges':['set',[]]}}]}");
	CHECK(heard.commits == 2 && heard.bridges_old == 1 &&
	    heard.bridges_new == 0, "a bridge deleted: heard, one row fewer");
	srv.watch = NULL;
	teardown(&a, NULL);
}

static const struct check_case cases[] = {
	CASE(test_basics),
	CASE(test_transact),
	CASE(test_transact_ops_cap),
	CASE(test_monitor_v1),
	CASE(test_monitor_v2_v3),
	CASE(test_monitor_cond_moves),
	CASE(test_monitor_cond_change),
	CASE(test_monitor_v1_delete),
	CASE(test_server_db),
	CASE(test_locks),
	CASE(test_watch),
};

int
main(int argc, char **argv)
{
	int	rc;

	log_init("test_ovsdb_server", LOG_QUIET);
	rc = check_run(cases, argc, argv);
	ovsdb_schema_free(schema);
	return rc;
}
