/*
 * The _Server database (ovsdb-server(5)): one Database row per database a
 * server serves, which clients since OVS 2.9 read before the data (is it
 * connected, is it the leader, its schema) and monitor.  A simulated
 * device is a standalone server whose databases never change, so one
 * read-only copy serves every device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "ovsdb_server.h"

/* ovsdb/_server.ovsschema of Open vSwitch. */
static const char ovsdb_sys_schema[] =
"{\"name\":\"_Server\",\"version\":\"1.2.0\",\"tables\":{\"Database\":{"
"\"isRoot\":true,\"columns\":{"
"\"name\":{\"type\":\"string\"},"
"\"model\":{\"type\":{\"key\":{\"type\":\"string\",\"enum\":[\"set\","
"[\"standalone\",\"clustered\",\"relay\"]]}}},"
"\"connected\":{\"type\":\"boolean\"},"
"\"leader\":{\"type\":\"boolean\"},"
"\"schema\":{\"type\":{\"key\":{\"type\":\"string\"},\"min\":0,\"max\":1}},"
"\"cid\":{\"type\":{\"key\":{\"type\":\"uuid\"},\"min\":0,\"max\":1}},"
"\"sid\":{\"type\":{\"key\":{\"type\":\"uuid\"},\"min\":0,\"max\":1}},"
"\"index\":{\"type\":{\"key\":{\"type\":\"integer\"},\"min\":0,\"max\":1}}"
"}}}}";

/* The Database row of one database: standalone, connected, leader. */
static json_t *
ovsdb_sys_row(const struct ovsdb_schema *s)
{
	char	*text = json_dumps(s->json, JSON_COMPACT | JSON_SORT_KEYS);
	json_t	*op;

	if (text == NULL)
		fatalx("json_dumps");
	op = json_pack("{sssss{sssssbsbss}}", "op", "insert", "table",
	    "Database", "row", "name", s->name, "model", "standalone",
	    "connected", 1, "leader", 1, "schema", text);
	free(text);
	return op;
}

struct ovsdb_sysdb *
ovsdb_sysdb_new(const struct ovsdb_schema *data)
{
	struct ovsdb_sysdb	*sys = xcalloc(1, sizeof(*sys));
	struct ovsdb_db		*next;
	json_t			*ops, *res;
	char			 err[256];

	if ((sys->schema = ovsdb_schema_parse(json_loads(ovsdb_sys_schema, 0,
	    NULL), err, sizeof(err))) == NULL)
		fatalx("the _Server schema: %s", err);
	sys->db = ovsdb_db_new(sys->schema);
	ops = json_pack("[oo]", ovsdb_sys_row(data),
	    ovsdb_sys_row(sys->schema));
	if (ovsdb_transact(sys->db, ops, NULL, &res, &next) == -1)
		fatalx("the _Server database");
	json_decref(ops);
	json_decref(res);
	ovsdb_db_free(sys->db);
	sys->db = next;
	return sys;
}

void
ovsdb_sysdb_free(struct ovsdb_sysdb *sys)
{
	if (sys == NULL)
		return;
	ovsdb_db_free(sys->db);
	ovsdb_schema_free(sys->schema);
	free(sys);
}
