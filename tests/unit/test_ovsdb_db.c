/*
 * Unit tests of the OVSDB database (sims/ovsdb: ovsdb_schema.c,
 * ovsdb_datum.c, ovsdb_where.c, ovsdb_rows.c, ovsdb_txn.c,
 * ovsdb_mutate.c, ovsdb_commit.c) against a small schema shaped like
 * Open_vSwitch (a root table, non-root Bridge, Port and Interface with
 * strong references, a weak reference, indexes, maxRows, an enum, an
 * immutable column): every operation of RFC 7047 section 5.2, its errors
 * and the result array of section 4.1.3, named-uuids, mutations of sets
 * and maps, referential integrity, garbage collection of unreferenced
 * rows of non-root tables, weak references, indexes over many new rows,
 * conditions on _uuid, and the schema loader (the
 * installed vswitch.ovsschema when there is one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "ovsdb_db.h"

#include "check.h"

#define VSWITCH_SCHEMA	"/usr/share/openvswitch/vswitch.ovsschema"

/* JSON written with single quotes, for legible tests. */
static json_t *
J(const char *s)
{
	char		*t = xstrdup(s), *p;
	json_error_t	 e;
	json_t		*j;

	for (p = t; *p != '\0'; p++)
		if (*p == '\'')
			*p = '"';
	if ((j = json_loads(t, JSON_DECODE_ANY, &e)) == NULL) {
		fprintf(stderr, "bad test JSON: %s: %s\n", t, e.text);
		exit(2);
	}
	free(t);
	return j;
}

static const char mini_schema[] =
"{'name':'Open_vSwitch','version':'8.3.1','tables':{"
" 'Open_vSwitch':{'isRoot':true,'maxRows':1,'columns':{"
"  'bridges':{'type':{'key':{'type':'uuid','refTable':'Bridge'},"
"   'min':0,'max':'unlimited'}},"
"  'next_cfg':{'type':'integer'},"
"  'external_ids':{'type':{'key':'string','value':'string','min':0,"
"   'max':'unlimited'}}}},"
" 'Bridge':{'indexes':[['name']],'columns':{"
"  'name':{'type':'string','mutable':false},"
"  'ports':{'type':{'key':{'type':'uuid','refTable':'Port'},'min':0,"
"   'max':'unlimited'}},"
"  'mirrors':{'type':{'key':{'type':'uuid','refTable':'Mirror'},'min':0,"
"   'max':'unlimited'}},"
"  'fail_mode':{'type':{'key':{'type':'string','enum':['set',"
"   ['standalone','secure']]},'min':0,'max':1}},"
"  'flood_vlans':{'type':{'key':{'type':'integer','minInteger':0,"
"   'maxInteger':4095},'min':0,'max':4096}},"
"  'external_ids':{'type':{'key':'string','value':'string','min':0,"
"   'max':'unlimited'}}}},"
" 'Port':{'indexes':[['name']],'columns':{"
"  'name':{'type':'string','mutable':false},"
"  'interfaces':{'type':{'key':{'type':'uuid','refTable':'Interface'},"
"   'min':1,'max':'unlimited'}},"
"  'tag':{'type':{'key':{'type':'integer','minInteger':0,"
"   'maxInteger':4095},'min':0,'max':1}}}},"
" 'Interface':{'indexes':[['name']],'columns':{"
"  'name':{'type':'string','mutable':false},"
"  'type':{'type':'string'},"
"  'mtu':{'type':{'key':'integer','min':0,'max':1}}}},"
" 'Mirror':{'columns':{"
"  'name':{'type':'string'},"
"  'select_src_port':{'type':{'key':{'type':'uuid','refTable':'Port',"
"   'refType':'weak'},'min':0,'max':'unlimited'}}}}}}";

static struct ovsdb_schema	*schema;
static struct ovsdb_db		*db;

static void
fresh(void)
{
	char	err[256];

	if (schema == NULL &&
	    (schema = ovsdb_schema_parse(J(mini_schema), err, sizeof(err))) ==
	    NULL) {
		fprintf(stderr, "mini schema: %s\n", err);
		exit(2);
	}
	ovsdb_db_free(db);
	db = ovsdb_db_new(schema);
}

static int	lock_held;

static int
owns(void *arg, const char *name)
{
	(void)arg;
	return lock_held && strcmp(name, "l") == 0;
}

static const struct ovsdb_txn_ctx	ctx = { owns, NULL };

/* Run ops (single-quoted JSON) and commit what changed; the results. */
static json_t *
txn(const char *ops, int *rc)
{
	struct ovsdb_db	*next;
	json_t		*j = J(ops), *res;

	*rc = ovsdb_transact(db, j, &ctx, &res, &next);
	json_decref(j);
	if (next != NULL) {
		ovsdb_db_free(db);
		db = next;
	}
	return res;
}

/* Is v the value written (single quotes)? */
static int
jeq(const json_t *v, const char *s)
{
	json_t	*w = J(s);
	int	 eq = json_equal((json_t *)v, w);

	json_decref(w);
	return eq;
}

/* The tag of result i's error, or "" when it is none. */
static const char *
err_tag(const json_t *res, size_t i)
{
	const char	*s;

	s = json_string_value(json_object_get(json_array_get(res, i),
	    "error"));
	return s != NULL ? s : "";
}

static size_t
rows_of(const char *table)
{
	return db->t[ovsdb_table_find(schema, table)].n;
}

/* A bridge br0 with one port p0 and its interface, as ovs-vsctl adds
 * them. */
static const char add_br0[] =
"[{'op':'insert','table':'Open_vSwitch','row':{}},"
" {'op':'insert','table':'Interface','row':{'name':'p0','type':'internal'},"
"  'uuid-name':'i'},"
" {'op':'insert','table':'Port','row':{'name':'p0','interfaces':"
"  ['named-uuid','i']},'uuid-name':'p'},"
" {'op':'insert','table':'Bridge','row':{'name':'br0','ports':['set',"
"  [['named-uuid','p']]]},'uuid-name':'b'},"
" {'op':'mutate','table':'Open_vSwitch','where':[],'mutations':"
"  [['bridges','insert',['set',[['named-uuid','b']]]]]}]";

static void
test_insert_select(void)
{
	json_t	*res, *rows;
	int	 rc;

	fresh();
	res = txn(add_br0, &rc);
	CHECK(rc == 0 && json_array_size(res) == 5, "insert x4 and a mutate");
	CHECK(json_is_array(json_object_get(json_array_get(res, 3), "uuid")),
	    "insert's result is {uuid: [uuid, ...]}");
	CHECK(json_integer_value(json_object_get(json_array_get(res, 4),
	    "count")) == 1, "mutate counts one row");
	CHECK(rows_of("Bridge") == 1 && rows_of("Port") == 1 &&
	    rows_of("Interface") == 1, "the rows are there");
	json_decref(res);
	res = txn("[{'op':'select','table':'Bridge','where':[['name','==',"
	    "'br0']],'columns':['name','ports','_uuid']}]", &rc);
	rows = json_object_get(json_array_get(res, 0), "rows");
	CHECK(rc == 0 && json_array_size(rows) == 1 &&
	    json_object_size(json_array_get(rows, 0)) == 3,
	    "select: one row, the three columns asked for");
	CHECK(json_is_array(json_object_get(json_array_get(rows, 0), "ports"))
	    && strcmp(json_string_value(json_array_get(json_object_get(
	    json_array_get(rows, 0), "ports"), 0)), "uuid") == 0,
	    "a set of one element is the element (RFC 7047 5.1)");
	json_decref(res);
	res = txn("[{'op':'select','table':'Bridge','where':[['name','==',"
	    "'nope']]}]", &rc);
	CHECK(json_array_size(json_object_get(json_array_get(res, 0), "rows"))
	    == 0, "a where that matches nothing selects nothing");
	json_decref(res);
}

static void
test_errors(void)
{
	json_t	*res;
	int	 rc;

	fresh();
	res = txn("[{'op':'select','table':'Nope','where':[]},"
	    "{'op':'comment','comment':'x'}]", &rc);
	CHECK(rc == -1 && strcmp(err_tag(res, 0), "syntax error") == 0 &&
	    strcmp(json_string_value(json_object_get(json_array_get(res, 0),
	    "details")), "Parsing ovsdb operation 1 of 2 failed: No table "
	    "named Nope.") == 0 && json_is_null(json_array_get(res, 1)) &&
	    json_array_size(res) == 2, "unknown table: ovsdb-server's error, "
	    "then null (4.1.3)");
	json_decref(res);
	res = txn("[{'op':'insert','table':'Bridge','row':{'nope':1}}]", &rc);
	CHECK(rc == -1 && strcmp(err_tag(res, 0), "unknown column") == 0,
	    "unknown column");
	json_decref(res);
	res = txn("[{'op':'insert','table':'Bridge','row':{'name':1}}]", &rc);
	CHECK(rc == -1 && strcmp(err_tag(res, 0), "syntax error") == 0,
	    "a wrong type is a syntax error");
	json_decref(res);
	res = txn("[{'op':'insert','table':'Bridge','row':{'fail_mode':'x'}}]",
	    &rc);
	CHECK(rc == -1 && strcmp(err_tag(res, 0), "constraint violation") == 0,
	    "a value outside the enum: constraint violation");
	json_decref(res);
	res = txn("[{'op':'bogus'}]", &rc);
	CHECK(rc == -1 && strcmp(err_tag(res, 0), "syntax error") == 0,
	    "unknown operation");
	json_decref(res);
	res = txn("[{'op':'insert','table':'Bridge','row':{'flood_vlans':"
	    "['set',[5000]]}}]", &rc);
	CHECK(rc == -1 && strcmp(err_tag(res, 0), "constraint violation") == 0,
	    "an integer out of range: constraint violation");
	json_decref(res);
	res = txn("[{'op':'insert','table':'Interface','row':{'name':'a'},"
	    "'uuid-name':'x'},{'op':'insert','table':'Interface','row':"
	    "{'name':'b'},'uuid-name':'x'}]", &rc);
	CHECK(rc == -1 && strcmp(err_tag(res, 1), "duplicate uuid-name") == 0,
	    "a uuid-name defined twice");
	json_decref(res);
	CHECK(rows_of("Interface") == 0, "nothing of a failed transaction "
	    "stays");
	res = txn("[{'op':'insert','table':'Interface','row':{'name':'a'},"
	    "'uuid':5}]", &rc);
	CHECK(rc == -1 && strcmp(err_tag(res, 0), "syntax error") == 0,
	    "insert's uuid not a string: a syntax error");
	json_decref(res);
	res = txn("[{'op':'insert','table':'Open_vSwitch','row':{},'uuid':"
	    "'5c5a0e0c-3a3b-4d6c-9a6e-0b1c2d3e4f50'}]", &rc);
	CHECK(rc == 0 && jeq(json_object_get(json_array_get(res, 0), "uuid"),
	    "['uuid','5c5a0e0c-3a3b-4d6c-9a6e-0b1c2d3e4f50']"),
	    "insert with the uuid the client chose");
	json_decref(res);
}

static void
test_update_mutate(void)
{
	json_t	*res, *v;
	int	 rc, ti, col;

	fresh();
	json_decref(txn(add_br0, &rc));
	res = txn("[{'op':'update','table':'Bridge','where':[],'row':"
	    "{'fail_mode':'secure','external_ids':['map',[['a','1'],"
	    "['b','2']]]}},{'op':'mutate','table':'Bridge','where':[],"
	    "'mutations':[['external_ids','insert',['map',[['a','9'],"
	    "['c','3']]]],['external_ids','delete',['set',['b']]],"
	    "['flood_vlans','insert',['set',[3,1,2]]],"
	    "['flood_vlans','delete',['set',[2]]]]}]", &rc);
	CHECK(rc == 0, "update and mutate");
	json_decref(res);
	ti = ovsdb_table_find(schema, "Bridge");
	col = ovsdb_column_find(&schema->tables[ti], "external_ids");
	v = db->t[ti].rows[0]->col[col];
	CHECK(jeq(v, "['map',[['a','1'],['c','3']]]"),
	    "map insert keeps a's value, adds c; delete by key removes b");
	col = ovsdb_column_find(&schema->tables[ti], "flood_vlans");
	CHECK(jeq(db->t[ti].rows[0]->col[col], "['set',[1,3]]"),
	    "set insert and delete, sorted");
	res = txn("[{'op':'mutate','table':'Open_vSwitch','where':[],"
	    "'mutations':[['next_cfg','+=',5],['next_cfg','*=',3],"
	    "['next_cfg','-=',1],['next_cfg','%=',4]]}]", &rc);
	ti = ovsdb_table_find(schema, "Open_vSwitch");
	col = ovsdb_column_find(&schema->tables[ti], "next_cfg");
	CHECK(rc == 0 && json_integer_value(db->t[ti].rows[0]->col[col]) == 2,
	    "arithmetic: ((0+5)*3-1)%%4 = 2");
	json_decref(res);
	res = txn("[{'op':'mutate','table':'Open_vSwitch','where':[],"
	    "'mutations':[['next_cfg','/=',0]]}]", &rc);
	CHECK(rc == -1 && strcmp(err_tag(res, 0), "domain error") == 0,
	    "division by zero: domain error");
	json_decref(res);
	res = txn("[{'op':'update','table':'Bridge','where':[],'row':"
	    "{'name':'x'}}]", &rc);
	CHECK(rc == -1 && strcmp(err_tag(res, 0), "constraint violation") == 0,
	    "update of an immutable column: constraint violation");
	json_decref(res);
	res = txn("[{'op':'mutate','table':'Bridge','where':[],'mutations':"
	    "[['fail_mode','+=',1]]}]", &rc);
	CHECK(rc == -1 && strcmp(err_tag(res, 0), "syntax error") == 0,
	    "arithmetic on a string: refused");
	json_decref(res);
}

static void
test_gc_refs(void)
{
	json_t	*res;
	int	 rc;

	fresh();
	json_decref(txn(add_br0, &rc));
	res = txn("[{'op':'insert','table':'Interface','row':{'name':'lost'}}]",
	    &rc);
	CHECK(rc == 0 && rows_of("Interface") == 1, "an unreferenced row of "
	    "a non-root table is collected at once");
	json_decref(res);
	res = txn("[{'op':'mutate','table':'Open_vSwitch','where':[],"
	    "'mutations':[['bridges','delete',['set',[]]]]},"
	    "{'op':'update','table':'Bridge','where':[],'row':{'ports':"
	    "['set',[]]}}]", &rc);
	CHECK(rc == 0 && rows_of("Bridge") == 1 && rows_of("Port") == 0 &&
	    rows_of("Interface") == 0, "a port no bridge holds goes, and its "
	    "interface after it");
	json_decref(res);
	res = txn("[{'op':'update','table':'Open_vSwitch','where':[],'row':"
	    "{'bridges':['set',[]]}}]", &rc);
	CHECK(rc == 0 && rows_of("Bridge") == 0, "del-br: the bridge goes");
	json_decref(res);
	res = txn("[{'op':'insert','table':'Bridge','row':{'name':'b','ports':"
	    "['uuid','00000000-0000-4000-8000-000000000001']},'uuid-name':'b'},"
	    "{'op':'mutate','table':'Open_vSwitch','where':[],'mutations':"
	    "[['bridges','insert',['named-uuid','b']]]}]", &rc);
	CHECK(rc == -1 && json_array_size(res) == 3 && strcmp(err_tag(res, 2),
	    "referential integrity violation") == 0, "a reference to no row: "
	    "one more element, the commit's error");
	json_decref(res);
}

static void
test_weak_index_max(void)
{
	json_t	*res;
	int	 rc, ti, col;

	fresh();
	json_decref(txn(add_br0, &rc));
	res = txn("[{'op':'select','table':'Port','where':[]}]", &rc);
	json_decref(res);
	res = txn("[{'op':'insert','table':'Mirror','row':{'name':'m',"
	    "'select_src_port':['set',[]]},'uuid-name':'m'},"
	    "{'op':'mutate','table':'Bridge','where':[],'mutations':[["
	    "'mirrors','insert',['named-uuid','m']]]}]", &rc);
	json_decref(res);
	res = txn("[{'op':'mutate','table':'Mirror','where':[],'mutations':"
	    "[['select_src_port','insert',['set',[['uuid','00000000-0000-4000-"
	    "8000-00000000000a']]]]]}]", &rc);
	ti = ovsdb_table_find(schema, "Mirror");
	col = ovsdb_column_find(&schema->tables[ti], "select_src_port");
	CHECK(rc == 0 && ovsdb_datum_n(db->t[ti].rows[0]->col[col]) == 0,
	    "a weak reference to no row is dropped at commit");
	json_decref(res);
	res = txn("[{'op':'insert','table':'Interface','row':{'name':'p0'},"
	    "'uuid-name':'i'},{'op':'mutate','table':'Port','where':[],"
	    "'mutations':[['interfaces','insert',['named-uuid','i']]]}]", &rc);
	CHECK(rc == -1 && strcmp(err_tag(res, 2), "constraint violation") == 0,
	    "two rows with one index value");
	json_decref(res);
	res = txn("[{'op':'insert','table':'Open_vSwitch','row':{}}]", &rc);
	CHECK(rc == -1 && strcmp(err_tag(res, 1), "constraint violation") == 0,
	    "maxRows 1");
	json_decref(res);
}

static void
test_wait_misc(void)
{
	json_t	*res;
	int	 rc;

	fresh();
	json_decref(txn(add_br0, &rc));
	res = txn("[{'op':'wait','timeout':0,'table':'Bridge','where':[],"
	    "'columns':['name'],'until':'==','rows':[{'name':'br0'}]},"
	    "{'op':'wait','timeout':0,'table':'Bridge','where':[],"
	    "'columns':['name'],'until':'!=','rows':[{'name':'x'}]},"
	    "{'op':'comment','comment':'c'},{'op':'commit','durable':false}]",
	    &rc);
	CHECK(rc == 0 && json_array_size(res) == 4, "wait == and != met, "
	    "comment, commit");
	json_decref(res);
	res = txn("[{'op':'wait','timeout':0,'table':'Bridge','where':[],"
	    "'columns':['name'],'until':'==','rows':[]}]", &rc);
	CHECK(rc == -1 && strcmp(err_tag(res, 0), "timed out") == 0,
	    "a wait not met: timed out");
	json_decref(res);
	res = txn("[{'op':'delete','table':'Interface','where':[]},"
	    "{'op':'abort'}]", &rc);
	CHECK(rc == -1 && strcmp(err_tag(res, 1), "aborted") == 0 &&
	    rows_of("Interface") == 1, "abort: nothing happened");
	json_decref(res);
	lock_held = 0;
	res = txn("[{'op':'assert','lock':'l'}]", &rc);
	CHECK(rc == -1 && strcmp(err_tag(res, 0), "not owner") == 0,
	    "assert without the lock: not owner");
	json_decref(res);
	lock_held = 1;
	res = txn("[{'op':'assert','lock':'l'}]", &rc);
	CHECK(rc == 0, "assert with the lock");
	json_decref(res);
}

static void
test_versions(void)
{
	struct ovsdb_row	*br, *ovs;
	uint8_t			 v[OVSDB_UUID_LEN];
	int			 rc, tb, to;

	fresh();
	json_decref(txn(add_br0, &rc));
	tb = ovsdb_table_find(schema, "Bridge");
	to = ovsdb_table_find(schema, "Open_vSwitch");
	br = db->t[tb].rows[0];
	ovs = db->t[to].rows[0];
	memcpy(v, br->version, sizeof(v));
	json_decref(txn("[{'op':'update','table':'Bridge','where':[],'row':"
	    "{'fail_mode':'secure'}}]", &rc));
	CHECK(db->t[to].rows[0] == ovs, "a row not touched is shared");
	CHECK(memcmp(db->t[tb].rows[0]->version, v, sizeof(v)) != 0,
	    "_version changes with the row");
	br = db->t[tb].rows[0];
	json_decref(txn("[{'op':'update','table':'Bridge','where':[],'row':"
	    "{'fail_mode':'secure'}}]", &rc));
	CHECK(db->t[tb].rows[0] == br, "an update to the same values changes "
	    "nothing");
}

/* Many interfaces inserted at once: their index is checked by sorting
 * (more than 16 rows changed), and a duplicate among them found. */
static void
test_index_many(void)
{
	char	ops[8192], *p;
	json_t	*res;
	int	rc, i, dup;

	for (dup = 0; dup < 2; dup++) {
		fresh();
		json_decref(txn(add_br0, &rc));
		p = ops;
		p += sprintf(p, "[");
		for (i = 0; i < 40; i++)
			p += sprintf(p, "{'op':'insert','table':'Interface',"
			    "'row':{'name':'if%d'},'uuid-name':'i%d'},",
			    dup && i == 39 ? 3 : i, i);
		p += sprintf(p, "{'op':'mutate','table':'Port','where':[],"
		    "'mutations':[['interfaces','insert',['set',[");
		for (i = 0; i < 40; i++)
			p += sprintf(p, "%s['named-uuid','i%d']", i ? "," : "",
			    i);
		sprintf(p, "]]]]}]");
		res = txn(ops, &rc);
		if (dup)
			CHECK(rc == -1 && strcmp(err_tag(res, 41),
			    "constraint violation") == 0, "40 new interfaces, "
			    "two named if3: the index refuses them");
		else
			CHECK(rc == 0 && rows_of("Interface") == 41,
			    "40 new interfaces with their own names");
		json_decref(res);
	}
}

/* A condition on _uuid finds its row by lookup; the other clauses still
 * count. */
static void
test_where_uuid(void)
{
	json_t		*res, *sel;
	char		 ops[512];
	const char	*u;
	int		 rc;

	fresh();
	json_decref(txn(add_br0, &rc));
	sel = txn("[{'op':'select','table':'Interface','where':[],"
	    "'columns':['_uuid']}]", &rc);
	u = json_string_value(json_array_get(json_object_get(json_array_get(
	    json_object_get(json_array_get(sel, 0), "rows"), 0), "_uuid"), 1));
	snprintf(ops, sizeof(ops), "[{'op':'update','table':'Interface',"
	    "'where':[['_uuid','==',['uuid','%s']]],'row':{'type':'x'}},"
	    "{'op':'update','table':'Interface','where':[['_uuid','==',"
	    "['uuid','%s']],['name','==','nope']],'row':{'type':'y'}},"
	    "{'op':'select','table':'Interface','where':[['_uuid','==',"
	    "['uuid','00000000-0000-4000-8000-000000000000']]]}]", u, u);
	res = txn(ops, &rc);
	CHECK(rc == 0 && json_integer_value(json_object_get(json_array_get(res,
	    0), "count")) == 1 && json_integer_value(json_object_get(
	    json_array_get(res, 1), "count")) == 0 && json_array_size(
	    json_object_get(json_array_get(res, 2), "rows")) == 0,
	    "_uuid ==: the row, not it when another clause fails, none for "
	    "an unknown UUID");
	json_decref(res);
	json_decref(sel);
}

static void
test_schema_files(void)
{
	struct ovsdb_schema	*s;
	char			 err[256], path[] = "/tmp/ovsdb_schema_XXXXXX";
	int			 fd;

	s = ovsdb_schema_load("/nonexistent.ovsschema", err, sizeof(err));
	CHECK(s == NULL && strstr(err, "/nonexistent.ovsschema") != NULL,
	    "a missing file: %s", err);
	if ((fd = mkstemp(path)) == -1)
		fatal("mkstemp");
	dprintf(fd, "{\"name\":\"x\",\"tables\":{\"T\":{\"columns\":{\"c\":"
	    "{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":\"U\"}}}}}}}");
	close(fd);
	s = ovsdb_schema_load(path, err, sizeof(err));
	CHECK(s == NULL && strstr(err, "refTable U") != NULL,
	    "a refTable that is not a table: %s", err);
	unlink(path);
	if (access(VSWITCH_SCHEMA, R_OK) == -1) {
		CHECK_SKIP("no %s", VSWITCH_SCHEMA);
		return;
	}
	s = ovsdb_schema_load(VSWITCH_SCHEMA, err, sizeof(err));
	CHECK(s != NULL && strcmp(s->name, "Open_vSwitch") == 0 &&
	    ovsdb_table_find(s, "Interface") >= 0,
	    "the installed vswitch schema loads");
	CHECK(s != NULL && s->tables[ovsdb_table_find(s, "Open_vSwitch")].
	    is_root && !s->tables[ovsdb_table_find(s, "Port")].is_root,
	    "Open_vSwitch is a root table, Port is not");
	ovsdb_schema_free(s);
}

/* The details of result i's error, or "". */
static const char *
err_details(const json_t *res, size_t i)
{
	const char	*s;

	s = json_string_value(json_object_get(json_array_get(res, i),
	    "details"));
	return s != NULL ? s : "";
}

/* What a bad clause or mutation (section 5.1) is answered with. */
static void
test_triple_errors(void)
{
	static const struct {
		const char	*ops, *tag, *details;
	} c[] = {
		{ "'where':[['name','==']]", "syntax error",
		    "a clause is [column, function, value]" },
		{ "'where':[['nope','==',1]]", "unknown column",
		    "No column nope in table Bridge." },
		{ "'where':[['name','<','a']]", "syntax error", "Type mismatch: "
		    "\"<\" operator may not be applied to column name." },
		{ "'where':[],'mutations':[['name',1,2]]", "syntax error",
		    "a mutation is [column, mutator, value]" },
		{ "'where':[],'mutations':[['nope','+=',1]]", "unknown column",
		    "No column nope in table Bridge." },
	};
	char	 ops[256];
	json_t	*res;
	size_t	 i;
	int	 rc;

	fresh();
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(ops, sizeof(ops), "[{'op':'%s','table':'Bridge',%s}]",
		    strstr(c[i].ops, "mutations") ? "mutate" : "select",
		    c[i].ops);
		res = txn(ops, &rc);
		CHECK(rc == -1 && strcmp(err_tag(res, 0), c[i].tag) == 0 &&
		    strcmp(err_details(res, 0), c[i].details) == 0,
		    "%s: %s", c[i].ops, err_details(res, 0));
		json_decref(res);
	}
	res = txn("[{'op':'select','table':'Bridge','where':[true]}]", &rc);
	CHECK(rc == 0, "true is a clause");
	json_decref(res);
}

static const struct check_case cases[] = {
	CASE(test_insert_select),
	CASE(test_errors),
	CASE(test_triple_errors),
	CASE(test_update_mutate),
	CASE(test_gc_refs),
	CASE(test_weak_index_max),
	CASE(test_wait_misc),
	CASE(test_versions),
	CASE(test_index_many),
	CASE(test_where_uuid),
	CASE(test_schema_files),
};

int
main(int argc, char **argv)
{
	int	rc;

	log_init("test_ovsdb_db", LOG_QUIET);
	rc = check_run(cases, argc, argv);
	ovsdb_db_free(db);
	ovsdb_schema_free(schema);
	return rc;
}
