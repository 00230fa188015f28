/*
 * A device's database when the run starts, as a switch that ovs-ctl
 * started and `ovs-vsctl add-br`/`add-port` configured would have it
 * (vswitchd(5): Open_vSwitch, Bridge, Port, Interface): the one
 * Open_vSwitch row with the device's system-id, and per bridge brK its
 * local port and interface (type internal, OpenFlow port 65534) and
 * --ports-per-bridge ports brK-pJ (OpenFlow port J).  Built as one
 * transaction, so that the schema checks it like any other; columns the
 * schema does not have are left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "ovsdb_sim.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION	"unknown"
#endif

/* The OVS release whose vswitch.ovsschema this mimics by default. */
#define OVSDB_OVS_VERSION	"3.1.0"
#define OVSDB_OFPP_LOCAL	65534

/* An insert of table's row, its columns the schema knows; NULL when
 * the schema has no such table. */
static json_t *
ovsdb_seed_insert(const struct ovsdb_schema *s, const char *table,
    json_t *row, const char *uuid_name)
{
	const struct ovsdb_table	*t;
	const char			*col;
	json_t				*v, *keep = json_object();
	int				 ti;

	if ((ti = ovsdb_table_find(s, table)) == -1) {
		json_decref(row);
		json_decref(keep);
		return NULL;
	}
	t = &s->tables[ti];
	json_object_foreach(row, col, v)
		if (ovsdb_column_find(t, col) >= OVSDB_COL_FIRST)
			json_object_set(keep, col, v);
	json_decref(row);
	return json_pack("{sssssoss}", "op", "insert", "table", table, "row",
	    keep, "uuid-name", uuid_name);
}

static json_t *
ovsdb_named(const char *fmt, uint32_t a, uint32_t b)
{
	char	name[32];

	snprintf(name, sizeof(name), fmt, a, b);
	return json_pack("[ss]", "named-uuid", name);
}

/* Port j of bridge k (0: the bridge's own) and its interface. */
static int
ovsdb_seed_port(const struct ovsdb_schema *s, json_t *ops, uint32_t k,
    uint32_t j)
{
	char	name[32], pn[32], in[32];
	json_t	*p, *i;

	if (j == 0)
		snprintf(name, sizeof(name), "br%u", k);
	else
		snprintf(name, sizeof(name), "br%u-p%u", k, j);
	snprintf(pn, sizeof(pn), "p%u_%u", k, j);
	snprintf(in, sizeof(in), "i%u_%u", k, j);
	p = ovsdb_seed_insert(s, "Port", json_pack("{ssso}", "name", name,
	    "interfaces", ovsdb_named("i%u_%u", k, j)), pn);
	i = ovsdb_seed_insert(s, "Interface", json_pack("{sssssi}", "name",
	    name, "type", j == 0 ? "internal" : "", "ofport", j == 0 ?
	    OVSDB_OFPP_LOCAL : (int)j), in);
	if (p == NULL || i == NULL) {
		json_decref(p);
		json_decref(i);
		return -1;
	}
	json_array_append_new(ops, p);
	json_array_append_new(ops, i);
	return 0;
}

static int
ovsdb_seed_bridge(const struct ovsdb_sim *sim, json_t *ops, uint32_t k)
{
	char	name[32], bn[32];
	json_t	*ports = json_array(), *b;
	uint32_t j;

	for (j = 0; j <= sim->cfg.ports; j++) {
		json_array_append_new(ports, ovsdb_named("p%u_%u", k, j));
		if (ovsdb_seed_port(sim->schema, ops, k, j) == -1) {
			json_decref(ports);
			return -1;
		}
	}
	snprintf(name, sizeof(name), "br%u", k);
	snprintf(bn, sizeof(bn), "b%u", k);
	b = ovsdb_seed_insert(sim->schema, "Bridge", json_pack("{sss[so]}",
	    "name", name, "ports", "set", ports), bn);
	if (b == NULL)
		return -1;
	json_array_append_new(ops, b);
	return 0;
}

/* The Open_vSwitch row (vswitchd(5), "Open_vSwitch TABLE"). */
static json_t *
ovsdb_seed_root(const struct ovsdb_dev *d, json_t *bridges)
{
	const struct ovsdb_schema	*s = d->sim->schema;
	char				 id[32];

	snprintf(id, sizeof(id), "sbsim-%u", d->id);
	return ovsdb_seed_insert(s, "Open_vSwitch", json_pack("{sssssssss[so]"
	    "s[s[[ss][ss]]]s[s[ss]]}", "ovs_version", OVSDB_OVS_VERSION,
	    "db_version", s->version, "system_type", "sbsim",
	    "system_version", PACKAGE_VERSION, "bridges", "set", bridges,
	    "external_ids", "map", "hostname", id, "system-id", id,
	    "datapath_types", "set", "netdev", "system"), "ovs");
}

/* An active device's manager (vswitchd(5), "Manager TABLE"), as
 * `ovs-vsctl set-manager` leaves it, connected. */
static json_t *
ovsdb_seed_manager(const struct ovsdb_dev *d, json_t *root)
{
	const struct ovsdb_sim	*sim = d->sim;
	int			 ti;
	json_t			*m;

	if (endpoint_passive(&sim->pcfg.ep) || (ti = ovsdb_table_find(
	    sim->schema, "Open_vSwitch")) == -1 || ovsdb_column_find(
	    &sim->schema->tables[ti], "manager_options") == -1)
		return NULL;
	if ((m = ovsdb_seed_insert(sim->schema, "Manager", json_pack("{sssb}",
	    "target", sim->pcfg.ep.text, "is_connected", 1), "m")) != NULL)
		json_object_set_new(json_object_get(root, "row"),
		    "manager_options", json_pack("[ss]", "named-uuid", "m"));
	return m;
}

int
ovsdb_dev_seed(struct ovsdb_dev *d, char *err, size_t errlen)
{
	const struct ovsdb_sim	*sim = d->sim;
	json_t			*ops = json_array(), *bridges = json_array();
	json_t			*root = NULL, *m;
	char			 why[512];
	uint32_t		 k;
	int			 rc = 0;

	for (k = 0; k < sim->cfg.bridges && rc == 0; k++) {
		json_array_append_new(bridges, ovsdb_named("b%u", k, 0));
		rc = ovsdb_seed_bridge(sim, ops, k);
	}
	if (rc == -1)
		json_decref(bridges);
	if (rc == -1 || (root = ovsdb_seed_root(d, bridges)) == NULL) {
		snprintf(err, errlen, "the schema has no Open_vSwitch, Bridge, "
		    "Port or Interface table to seed");
		json_decref(ops);
		return -1;
	}
	if ((m = ovsdb_seed_manager(d, root)) != NULL)
		json_array_append_new(ops, m);
	json_array_insert_new(ops, 0, root);
	if ((rc = ovsdb_server_write(&d->srv, ops, why, sizeof(why))) == -1)
		snprintf(err, errlen, "the schema refuses the first rows: %s",
		    why);
	json_decref(ops);
	return rc;
}
