/*
 * network-topology:network-topology/topology=ovsdb:1 as OpenDaylight's
 * ovsdb southbound serves it (its ovsdb.yang augments), on the shared
 * network-topology resource (rc_topology.h), both URL styles:
 *
 *   .../topology=ovsdb%3A1                 GET: every node; POST of one
 *       node: a passive node to connect to (connection-info) or a bridge
 *   .../node=ovsdb%3A%2F%2FHOST1           PUT with ovsdb:connection-info
 *       {remote-ip, remote-port}: connect to that passive node (with
 *       retries); DELETE: forget it, close its session; GET
 *   .../node=<manager-id>%2Fbridge%2F<name>  PUT/POST (CSIT's
 *       create_bridge.json): a transact inserting the Bridge, its local
 *       Port and Interface and its Controller rows and adding it to
 *       Open_vSwitch.bridges (or updating it); DELETE: a transact
 *       removing it; GET
 *   .../node=<bridge-id>/termination-point=<name>  PUT (create_port.json):
 *       Port + Interface; DELETE; GET
 * The draft style's .../node/<manager-id>/bridge/<name>/... is the same
 * bridge.  Operational nodes come from the manager's monitor replicas
 * (ovsdb_ctl.c): one per session (node-id ovsdb://uuid/<uuid> for a node
 * that connected in, the configured id for one we connected to) and one
 * per bridge (<node-id>/bridge/<name>) with a termination-point per port.
 * The config datastore holds the configured passive nodes and the
 * bridges and ports written here once their node took them.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/http.h>

#include "log.h"
#include "ovsdb_ctl.h"
#include "ovsdb_restconf.h"
#include "rc_topology.h"

#define OVR_TOPOLOGY	"ovsdb:1"
#define OVR_BRIDGE	"/bridge/"
#define OVR_MAX_ENTRIES	64	/* controllers, protocols, options */
#define OVR_TEXT	256
#define OVR_ID_MAX	(OVSDB_CTL_ID_MAX + 64)	/* a bridge node's id */

static const struct doc_module ovr_mod = {
	"ovsdb", "urn:opendaylight:params:xml:ns:yang:ovsdb"
};

/* Below network-topology's node (rc_topology.h has the rest). */
static const struct rc_list ovr_lists[] = {
	{ "bridge", 1 },	/* the draft style's .../node/ID/bridge/NAME */
	{ NULL, 0 },
};

static struct ovr_stats	ovr_st;

/* ---- OVSDB values (RFC 7047 section 5.1) ---- */

static int
ovr_tagged(json_t *v, const char *tag)
{
	return json_is_array(v) && json_array_size(v) == 2 &&
	    json_is_string(json_array_get(v, 0)) &&
	    strcmp(json_string_value(json_array_get(v, 0)), tag) == 0;
}

/* A set's members: ["set", [...]] or one atom. */
static size_t
ovr_set_size(json_t *v)
{
	if (v == NULL)
		return 0;
	if (ovr_tagged(v, "set"))
		return json_array_size(json_array_get(v, 1));
	return 1;
}

static json_t *
ovr_set_get(json_t *v, size_t i)
{
	if (ovr_tagged(v, "set"))
		return json_array_get(json_array_get(v, 1), i);
	return i == 0 ? v : NULL;
}

/* An atom as text: a string, a uuid's text or a number. */
static const char *
ovr_atom(json_t *a, char *buf, size_t cap)
{
	if (ovr_tagged(a, "uuid"))
		a = json_array_get(a, 1);
	if (json_is_string(a))
		return json_string_value(a);
	if (json_is_integer(a)) {
		snprintf(buf, cap, "%lld", (long long)json_integer_value(a));
		return buf;
	}
	if (json_is_boolean(a))
		return json_is_true(a) ? "true" : "false";
	return NULL;
}

static json_t *
ovr_ref(const struct ovsdb_ctl_sess *s, const char *table, json_t *atom)
{
	char		 b[64];
	const char	*u = ovr_atom(atom, b, sizeof(b));

	return u == NULL ? NULL : json_object_get(ovsdb_ctl_table(s, table), u);
}

static const char *
ovr_col_str(json_t *row, const char *col)
{
	json_t	*v = json_object_get(row, col);

	if (ovr_set_size(v) != 1 || !json_is_string(ovr_set_get(v, 0)))
		return NULL;
	return json_string_value(ovr_set_get(v, 0));
}

/* ---- writing nodes ---- */

/* An instance-identifier of a node of ovsdb:1, as ODL writes them. */
static void
ovr_iid(char *out, size_t cap, const char *node_id)
{
	snprintf(out, cap, "/network-topology:network-topology/"
	    "network-topology:topology[network-topology:topology-id='%s']/"
	    "network-topology:node[network-topology:node-id='%s']",
	    OVR_TOPOLOGY, node_id);
}

static void
ovr_leaf(struct doc_writer *w, const char *name, const char *v)
{
	if (v != NULL)
		doc_leaf_in(w, &ovr_mod, name, v, 1);
}

static void
ovr_leaf_num(struct doc_writer *w, const char *name, uint64_t v)
{
	char	num[24];

	snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
	doc_leaf_in(w, &ovr_mod, name, num, 0);
}

/* An OVSDB map column as ODL's key/value list. */
static void
ovr_map(struct doc_writer *w, json_t *row, const char *col,
    const char *list, const char *k, const char *v)
{
	json_t		*m = json_object_get(row, col), *kv;
	size_t		 i;
	char		 b1[32], b2[32];

	if (!ovr_tagged(m, "map") || json_array_size(json_array_get(m, 1)) == 0)
		return;
	doc_list(w, &ovr_mod, list);
	json_array_foreach(json_array_get(m, 1), i, kv) {
		doc_entry(w);
		doc_leaf_str(w, k, ovr_atom(json_array_get(kv, 0), b1,
		    sizeof(b1)));
		doc_leaf_str(w, v, ovr_atom(json_array_get(kv, 1), b2,
		    sizeof(b2)));
		doc_end(w);
	}
	doc_end(w);
}

static void
ovr_conn_info(struct doc_writer *w, const struct ovsdb_ctl_sess *s)
{
	doc_container(w, &ovr_mod, "connection-info");
	doc_leaf_str(w, "remote-ip", s->remote_ip);
	doc_leaf_uint(w, "remote-port", s->remote_port);
	doc_leaf_str(w, "local-ip", s->local_ip);
	doc_leaf_uint(w, "local-port", s->local_port);
	doc_end(w);
}

/* The manager's node: connection, versions, the bridges it manages. */
static void
ovr_mgr_entry(struct doc_writer *w, const struct ovsdb_ctl_sess *s)
{
	json_t		*ovs = NULL, *br, *t = ovsdb_ctl_table(s, "Bridge");
	const char	*uuid, *name;
	char		 id[OVR_ID_MAX], iid[2 * OVSDB_CTL_ID_MAX + 256];

	json_object_foreach(ovsdb_ctl_table(s, "Open_vSwitch"), uuid, ovs)
		break;
	doc_entry(w);
	doc_leaf_str(w, "node-id", s->node_id);
	ovr_conn_info(w, s);
	ovr_leaf(w, "ovs-version", ovr_col_str(ovs, "ovs_version"));
	ovr_leaf(w, "db-version", s->db_version[0] ? s->db_version : NULL);
	ovr_map(w, ovs, "external_ids", "openvswitch-external-ids",
	    "external-id-key", "external-id-value");
	ovr_map(w, ovs, "other_config", "openvswitch-other-configs",
	    "other-config-key", "other-config-value");
	if (t != NULL) {
		doc_list(w, &ovr_mod, "managed-node-entry");
		json_object_foreach(t, uuid, br) {
			if ((name = ovr_col_str(br, "name")) == NULL)
				continue;
			snprintf(id, sizeof(id), "%s" OVR_BRIDGE "%s",
			    s->node_id, name);
			ovr_iid(iid, sizeof(iid), id);
			doc_entry(w);
			doc_leaf_str(w, "bridge-ref", iid);
			doc_end(w);
		}
		doc_end(w);
	}
	doc_end(w);
}

/* Bridge.datapath_id "0000000000000001" as ODL's 00:00:...:01. */
static void
ovr_dpid(struct doc_writer *w, json_t *br)
{
	const char	*d = ovr_col_str(br, "datapath_id");
	char		 out[24];
	size_t		 i, o = 0;

	if (d == NULL || strlen(d) != 16)
		return;
	for (i = 0; i < 16; i++) {
		if (i > 0 && i % 2 == 0)
			out[o++] = ':';
		out[o++] = d[i];
	}
	out[o] = '\0';
	ovr_leaf(w, "datapath-id", out);
}

static void
ovr_identity(struct doc_writer *w, const char *leaf, const char *base,
    const char *v)
{
	char	id[OVR_TEXT];

	snprintf(id, sizeof(id), "ovsdb:%s%s", base, v);
	ovr_leaf(w, leaf, id);
}

/* OVS's "OpenFlow13" as ovsdb-bridge-protocol-openflow-13. */
static void
ovr_protocols(struct doc_writer *w, json_t *br)
{
	json_t		*p = json_object_get(br, "protocols");
	const char	*v;
	char		 id[OVR_TEXT];
	size_t		 i, n = ovr_set_size(p);

	if (n == 0)
		return;
	doc_list(w, &ovr_mod, "protocol-entry");
	for (i = 0; i < n; i++) {
		v = json_string_value(ovr_set_get(p, i));
		if (v == NULL || strncmp(v, "OpenFlow", 8) != 0 ||
		    strlen(v) != 10)
			continue;
		snprintf(id, sizeof(id), "ovsdb:ovsdb-bridge-protocol-"
		    "openflow-%s", v + 8);
		doc_entry(w);
		doc_leaf_str(w, "protocol", id);
		doc_end(w);
	}
	doc_end(w);
}

static void
ovr_controllers(struct doc_writer *w, const struct ovsdb_ctl_sess *s,
    json_t *br)
{
	json_t		*c = json_object_get(br, "controller"), *row;
	char		 b[64];
	size_t		 i, n = ovr_set_size(c);

	if (n == 0)
		return;
	doc_list(w, &ovr_mod, "controller-entry");
	for (i = 0; i < n; i++) {
		if ((row = ovr_ref(s, "Controller", ovr_set_get(c, i))) ==
		    NULL || ovr_col_str(row, "target") == NULL)
			continue;
		doc_entry(w);
		doc_leaf_str(w, "target", ovr_col_str(row, "target"));
		doc_leaf_str(w, "controller-uuid", ovr_atom(ovr_set_get(c, i),
		    b, sizeof(b)));
		doc_leaf_bool(w, "is-connected", json_is_true(
		    json_object_get(row, "is_connected")));
		doc_end(w);
	}
	doc_end(w);
}

/* A port as a termination point, its first interface beside it. */
static void
ovr_tp_entry(struct doc_writer *w, const struct ovsdb_ctl_sess *s, json_t *pa,
    json_t *port)
{
	json_t		*ia = ovr_set_get(json_object_get(port, "interfaces"),
	    0), *ifc = ia ? ovr_ref(s, "Interface", ia) : NULL, *of;
	const char	*name = ovr_col_str(port, "name"), *type;
	char		 b[64];

	doc_entry(w);
	doc_leaf_str(w, "tp-id", name);
	ovr_leaf(w, "name", name);
	ovr_leaf(w, "port-uuid", ovr_atom(pa, b, sizeof(b)));
	if (ifc != NULL) {
		ovr_leaf(w, "interface-uuid", ovr_atom(ia, b, sizeof(b)));
		of = ovr_set_get(json_object_get(ifc, "ofport"), 0);
		if (json_is_integer(of) && json_integer_value(of) >= 0)
			ovr_leaf_num(w, "ofport", (uint64_t)
			    json_integer_value(of));
		type = ovr_col_str(ifc, "type");
		ovr_identity(w, "interface-type", "interface-type-",
		    type == NULL || type[0] == '\0' ? "system" : type);
		ovr_map(w, ifc, "options", "options", "option", "value");
	}
	doc_end(w);
}

/* One port of the bridge, or all of them (tp NULL); 0 when none. */
static size_t
ovr_tps(struct doc_writer *w, const struct ovsdb_ctl_sess *s, json_t *br,
    const char *tp)
{
	json_t		*ports = json_object_get(br, "ports"), *pa, *port;
	const char	*name;
	size_t		 i, n = 0;

	for (i = 0; i < ovr_set_size(ports); i++) {
		pa = ovr_set_get(ports, i);
		if ((port = ovr_ref(s, "Port", pa)) == NULL ||
		    (name = ovr_col_str(port, "name")) == NULL ||
		    (tp != NULL && strcmp(tp, name) != 0))
			continue;
		if (n++ == 0)
			doc_list(w, NULL, "termination-point");
		ovr_tp_entry(w, s, pa, port);
	}
	if (n > 0)
		doc_end(w);
	return n;
}

static void
ovr_bridge_entry(struct doc_writer *w, const struct ovsdb_ctl_sess *s,
    const char *uuid, json_t *br)
{
	const char	*name = ovr_col_str(br, "name"), *fm, *dt;
	char		 id[OVR_ID_MAX], iid[OVSDB_CTL_ID_MAX + 256];

	snprintf(id, sizeof(id), "%s" OVR_BRIDGE "%s", s->node_id, name);
	doc_entry(w);
	doc_leaf_str(w, "node-id", id);
	ovr_leaf(w, "bridge-name", name);
	ovr_leaf(w, "bridge-uuid", uuid);
	ovr_dpid(w, br);
	dt = ovr_col_str(br, "datapath_type");
	ovr_identity(w, "datapath-type", "datapath-type-", dt == NULL ||
	    dt[0] == '\0' ? "system" : dt);
	if ((fm = ovr_col_str(br, "fail_mode")) != NULL)
		ovr_identity(w, "fail-mode", "ovsdb-fail-mode-", fm);
	ovr_iid(iid, sizeof(iid), s->node_id);
	ovr_leaf(w, "managed-by", iid);
	ovr_protocols(w, br);
	ovr_controllers(w, s, br);
	ovr_map(w, br, "external_ids", "bridge-external-ids",
	    "bridge-external-id-key", "bridge-external-id-value");
	ovr_map(w, br, "other_config", "bridge-other-configs",
	    "bridge-other-config-key", "bridge-other-config-value");
	ovr_tps(w, s, br, NULL);
	doc_end(w);
}

/* A bridge by name in a session's replica: its row, uuid in *uuid. */
static json_t *
ovr_bridge_find(const struct ovsdb_ctl_sess *s, const char *name,
    const char **uuid)
{
	json_t		*br;
	const char	*u, *n;

	json_object_foreach(ovsdb_ctl_table(s, "Bridge"), u, br)
		if ((n = ovr_col_str(br, "name")) != NULL &&
		    strcmp(n, name) == 0) {
			*uuid = u;
			return br;
		}
	return NULL;
}

static void
ovr_cfg_node_entry(struct doc_writer *w, const struct ovsdb_ctl_node *n)
{
	doc_entry(w);
	doc_leaf_str(w, "node-id", n->id);
	doc_container(w, &ovr_mod, "connection-info");
	doc_leaf_str(w, "remote-ip", n->ip);
	doc_leaf_uint(w, "remote-port", n->port);
	doc_end(w);
	doc_end(w);
}

struct ovr_cbr;
static struct ovr_cbr	*cbrs;
static void	ovr_cfg_bridges(struct doc_writer *);

/* The topology's nodes: the configured ones, or every manager and
 * bridge node the sessions know. */
static void
ovr_nodes(struct doc_writer *w, int config)
{
	struct ovsdb_ctl_sess	*s;
	struct ovsdb_ctl_node	*n;
	json_t		*br;
	const char	*uuid;

	if (config) {
		if (TAILQ_EMPTY(ovsdb_ctl_nodes()) && cbrs == NULL)
			return;
		doc_list(w, NULL, "node");
		TAILQ_FOREACH(n, ovsdb_ctl_nodes(), entry)
			ovr_cfg_node_entry(w, n);
		ovr_cfg_bridges(w);
		doc_end(w);
		return;
	}
	if (ovsdb_ctl_count_up() == 0)
		return;
	doc_list(w, NULL, "node");
	TAILQ_FOREACH(s, ovsdb_ctl_sessions(), entry) {
		if (s->state != OVSDB_CTL_UP)
			continue;
		ovr_mgr_entry(w, s);
		json_object_foreach(ovsdb_ctl_table(s, "Bridge"), uuid, br)
			if (ovr_col_str(br, "name") != NULL)
				ovr_bridge_entry(w, s, uuid, br);
	}
	doc_end(w);
}

static void
ovr_entry(struct doc_writer *w, int config, void *arg)
{
	(void)arg;
	doc_entry(w);
	doc_leaf_str(w, "topology-id", OVR_TOPOLOGY);
	ovr_nodes(w, config);
	doc_end(w);
}

/* ---- node ids ---- */

/* What a node-id names: a manager, a bridge (its manager's id and its
 * name) or, with tp, one termination point of a bridge. */
struct ovr_target {
	char		 id[OVR_ID_MAX];
	char		 mgr[OVR_ID_MAX];
	char		 bridge[OVR_TEXT];
	const char	*tp;
	int		 is_bridge;
};

static int
ovr_target(const struct rc_path *p, struct ovr_target *t)
{
	const char	*sep;
	size_t		 i = 3;

	memset(t, 0, sizeof(*t));
	if (p->n < 3 || !rc_elem_is(&p->e[2], "node") || p->e[2].nkeys != 1)
		return -1;
	snprintf(t->id, sizeof(t->id), "%s", p->e[2].key[0]);
	if (p->n > 3 && rc_elem_is(&p->e[3], "bridge") &&
	    p->e[3].nkeys == 1) {
		snprintf(t->id, sizeof(t->id), "%s" OVR_BRIDGE "%s",
		    p->e[2].key[0], p->e[3].key[0]);
		i = 4;
	}
	if (p->n == i + 1 && rc_elem_is(&p->e[i], "termination-point") &&
	    p->e[i].nkeys == 1)
		t->tp = p->e[i].key[0];
	else if (p->n != i)
		return -1;
	if ((sep = strstr(t->id, OVR_BRIDGE)) != NULL) {
		while (strstr(sep + 1, OVR_BRIDGE) != NULL)
			sep = strstr(sep + 1, OVR_BRIDGE);
		t->is_bridge = 1;
		snprintf(t->mgr, sizeof(t->mgr), "%.*s", (int)(sep - t->id),
		    t->id);
		snprintf(t->bridge, sizeof(t->bridge), "%s",
		    sep + strlen(OVR_BRIDGE));
	} else
		snprintf(t->mgr, sizeof(t->mgr), "%s", t->id);
	return t->tp != NULL && !t->is_bridge ? -1 : 0;
}

/* ---- the config datastore's bridges and ports ---- */

/* What a write changes in the config datastore once the node took it. */
enum ovr_change {
	OVR_CH_BRIDGE,		/* row and targets are the bridge's */
	OVR_CH_TP,		/* row is the Interface's */
	OVR_CH_DEL_BRIDGE,
	OVR_CH_DEL_TP,
};

struct ovr_op {
	struct http_server	*server;
	struct evhttp_request	*ev;
	enum http_fmt		 fmt;
	const char		*type;
	int			 status;	/* on success */
	enum ovr_change		 change;
	struct ovr_target	 t;
	char			 tp[OVR_TEXT];
	json_t			*row, *targets;
};


/* A bridge written over RESTCONF, as the node took it: the Bridge
 * columns and controller targets written, and its ports' Interface
 * columns by name (OpenDaylight's config datastore holds the same). */
struct ovr_cbr {
	UT_hash_handle	 hh;
	char		 id[OVR_ID_MAX];
	char		 mgr[OVR_ID_MAX];
	char		 name[OVR_TEXT];
	json_t		*row;
	json_t		*targets;
	json_t		*tps;
};

static struct ovr_cbr *
ovr_cbr_find(const char *id)
{
	struct ovr_cbr	*c;

	HASH_FIND_STR(cbrs, id, c);
	return c;
}

static struct ovr_cbr *
ovr_cbr_get(const struct ovr_target *t)
{
	struct ovr_cbr	*c = ovr_cbr_find(t->id);

	if (c != NULL)
		return c;
	c = xcalloc(1, sizeof(*c));
	snprintf(c->id, sizeof(c->id), "%s", t->id);
	snprintf(c->mgr, sizeof(c->mgr), "%s", t->mgr);
	snprintf(c->name, sizeof(c->name), "%s", t->bridge);
	c->row = json_object();
	c->targets = json_array();
	c->tps = json_object();
	HASH_ADD_STR(cbrs, id, c);
	return c;
}

static void
ovr_cbr_free(struct ovr_cbr *c)
{
	HASH_DEL(cbrs, c);
	json_decref(c->row);
	json_decref(c->targets);
	json_decref(c->tps);
	free(c);
}

static void
ovr_cfg_apply(const struct ovr_op *op)
{
	struct ovr_cbr	*c;

	switch (op->change) {
	case OVR_CH_BRIDGE:
		c = ovr_cbr_get(&op->t);
		json_decref(c->row);
		json_decref(c->targets);
		c->row = json_incref(op->row);
		c->targets = json_incref(op->targets);
		break;
	case OVR_CH_TP:
		c = ovr_cbr_get(&op->t);
		json_object_set(c->tps, op->tp, op->row);
		break;
	case OVR_CH_DEL_BRIDGE:
		if ((c = ovr_cbr_find(op->t.id)) != NULL)
			ovr_cbr_free(c);
		break;
	case OVR_CH_DEL_TP:
		if ((c = ovr_cbr_find(op->t.id)) != NULL)
			json_object_del(c->tps, op->tp);
		break;
	}
}

/* A DELETE of what only the config datastore still has: 0, or -1 when
 * it has nothing of that name either. */
static int
ovr_cfg_forget(const struct ovr_target *t)
{
	struct ovr_cbr	*c = ovr_cbr_find(t->id);

	if (c == NULL || (t->tp != NULL && json_object_get(c->tps,
	    t->tp) == NULL))
		return -1;
	if (t->tp != NULL)
		json_object_del(c->tps, t->tp);
	else
		ovr_cbr_free(c);
	return 0;
}

/* The bridges of a passive node that was deleted go with it. */
static void
ovr_cfg_drop_mgr(const char *mgr)
{
	struct ovr_cbr	*c, *tmp;

	HASH_ITER(hh, cbrs, c, tmp)
		if (strcmp(c->mgr, mgr) == 0)
			ovr_cbr_free(c);
}

static void
ovr_cfg_tps(struct doc_writer *w, const struct ovr_cbr *c, const char *tp)
{
	const char	*name, *type;
	json_t		*ifc;
	size_t		 n = 0;

	json_object_foreach(c->tps, name, ifc) {
		if (tp != NULL && strcmp(tp, name) != 0)
			continue;
		if (n++ == 0)
			doc_list(w, NULL, "termination-point");
		doc_entry(w);
		doc_leaf_str(w, "tp-id", name);
		ovr_leaf(w, "name", name);
		if ((type = ovr_col_str(ifc, "type")) != NULL)
			ovr_identity(w, "interface-type", "interface-type-",
			    type);
		ovr_map(w, ifc, "options", "options", "option", "value");
		doc_end(w);
	}
	if (n > 0)
		doc_end(w);
}

static void
ovr_cfg_bridge_entry(struct doc_writer *w, const struct ovr_cbr *c)
{
	const char	*v;
	char		 iid[OVR_ID_MAX + 256];
	json_t		*t;
	size_t		 i;

	doc_entry(w);
	doc_leaf_str(w, "node-id", c->id);
	ovr_leaf(w, "bridge-name", c->name);
	ovr_iid(iid, sizeof(iid), c->mgr);
	ovr_leaf(w, "managed-by", iid);
	if ((v = ovr_col_str(c->row, "fail_mode")) != NULL)
		ovr_identity(w, "fail-mode", "ovsdb-fail-mode-", v);
	if ((v = ovr_col_str(c->row, "datapath_type")) != NULL)
		ovr_identity(w, "datapath-type", "datapath-type-", v);
	ovr_protocols(w, c->row);
	if (json_array_size(c->targets) > 0) {
		doc_list(w, &ovr_mod, "controller-entry");
		json_array_foreach(c->targets, i, t) {
			doc_entry(w);
			doc_leaf_str(w, "target", json_string_value(t));
			doc_end(w);
		}
		doc_end(w);
	}
	ovr_map(w, c->row, "other_config", "bridge-other-configs",
	    "bridge-other-config-key", "bridge-other-config-value");
	ovr_cfg_tps(w, c, NULL);
	doc_end(w);
}

/* Every bridge of the config datastore, in the order written. */
static void
ovr_cfg_bridges(struct doc_writer *w)
{
	struct ovr_cbr	*c;

	for (c = cbrs; c != NULL; c = c->hh.next)
		ovr_cfg_bridge_entry(w, c);
}

/* ---- reading one node ---- */

static void
ovr_get_config(struct rc_req *rq, const struct ovr_target *t,
    const struct ovsdb_ctl_node *n)
{
	struct ovr_cbr		*c = ovr_cbr_find(t->id);
	struct doc_writer	 w;
	struct evbuffer		*b;

	if ((t->is_bridge && (c == NULL || (t->tp != NULL &&
	    json_object_get(c->tps, t->tp) == NULL))) ||
	    (!t->is_bridge && n == NULL)) {
		rc_data_missing(rq);
		return;
	}
	b = rc_writer(rq, &w);
	if (t->tp != NULL) {
		ovr_cfg_tps(&w, c, t->tp);
	} else {
		doc_list(&w, &rc_nt_mod, "node");
		if (c != NULL)
			ovr_cfg_bridge_entry(&w, c);
		else
			ovr_cfg_node_entry(&w, n);
		doc_end(&w);
	}
	rc_send(rq, &w, b);
}

static void
ovr_get_node(struct rc_req *rq, const struct ovr_target *t)
{
	struct ovsdb_ctl_sess	*s = ovsdb_ctl_find(t->mgr);
	struct ovsdb_ctl_node	*n = ovsdb_ctl_node_find(t->mgr);
	struct doc_writer	 w;
	struct evbuffer		*b;
	json_t			*br = NULL;
	const char		*uuid = NULL;

	if (rq->content == RC_CONTENT_CONFIG) {
		ovr_get_config(rq, t, n);
		return;
	}
	if (s == NULL || (t->is_bridge && (br = ovr_bridge_find(s, t->bridge,
	    &uuid)) == NULL)) {
		rc_data_missing(rq);
		return;
	}
	b = rc_writer(rq, &w);
	if (t->tp != NULL) {
		if (ovr_tps(&w, s, br, t->tp) == 0) {
			evbuffer_free(b);
			rc_data_missing(rq);
			return;
		}
	} else {
		doc_list(&w, &rc_nt_mod, "node");
		if (br != NULL)
			ovr_bridge_entry(&w, s, uuid, br);
		else
			ovr_mgr_entry(&w, s);
		doc_end(&w);
	}
	rc_send(rq, &w, b);
}

/* ---- writes: a RESTCONF request waiting for the node's transact ---- */

static void
ovr_done(void *arg, json_t *result, const char *why)
{
	struct ovr_op	*op = arg;
	struct http_req	 h;

	memset(&h, 0, sizeof(h));
	h.server = op->server;
	h.ev = op->ev;
	h.reply_fmt = op->fmt;
	h.reply_type = op->type;
	if (result != NULL) {
		ovr_cfg_apply(op);
		http_reply(&h, op->status, NULL);
	} else {
		ovr_st.write_errors++;
		http_error(&h, 500, "application", "operation-failed",
		    "The OVSDB node refused the change: %s", why);
	}
	json_decref(op->row);
	json_decref(op->targets);
	free(op);
}

static void
ovr_not_connected(struct rc_req *rq, const char *mgr)
{
	ovr_st.bad_requests++;
	http_error(rq->http, 409, "application", "resource-denied",
	    "The OVSDB node %s is not connected", mgr);
}

/* Send ops to the node; the request is answered when it answers, and
 * the config datastore changed as ch says (row and targets borrowed). */
static void
ovr_transact(struct rc_req *rq, struct ovsdb_ctl_sess *s, json_t *ops,
    int status, enum ovr_change ch, const struct ovr_target *t, json_t *row,
    json_t *targets)
{
	struct ovr_op	*op = xcalloc(1, sizeof(*op));

	op->server = rq->http->server;
	op->ev = rq->http->ev;
	op->fmt = rq->http->reply_fmt;
	op->type = rq->http->reply_type;
	op->status = status;
	op->change = ch;
	op->t = *t;
	op->t.tp = NULL;	/* the path's, gone by the reply */
	if (t->tp != NULL)
		snprintf(op->tp, sizeof(op->tp), "%s", t->tp);
	op->row = json_incref(row);
	op->targets = json_incref(targets);
	if (ovsdb_ctl_transact(s, ops, ovr_done, op) == -1) {
		json_decref(op->row);
		json_decref(op->targets);
		free(op);
		ovr_not_connected(rq, s->node_id);
		return;
	}
	rq->http->replied = 1;	/* ovr_done answers */
}

static void
ovr_bad(struct rc_req *rq, const char *fmt, const char *a)
{
	ovr_st.bad_requests++;
	http_error(rq->http, 400, "protocol", "invalid-value", fmt, a);
}

/* The one entry of a body's list (node or termination-point). */
static int
ovr_body_entry(struct rc_req *rq, struct doc *d, const char *list,
    struct doc_node *e)
{
	struct doc_node	 root, top;
	struct doc_iter	 it;

	if (rq->http->body == NULL) {
		ovr_bad(rq, "The request needs a %s body", list);
		return -1;
	}
	if (rc_body(rq, d) == -1) {
		ovr_st.bad_requests++;
		return -1;
	}
	doc_root(d, &root);
	/* POST to the topology may wrap the node in a topology entry. */
	doc_iter_init(&it, &root, "topology");
	if (doc_iter_next(&it, &top) == 1)
		root = top;
	doc_iter_init(&it, &root, list);
	if (doc_iter_next(&it, e) != 1 || doc_iter_next(&it, &top) == 1) {
		ovr_bad(rq, "The body must hold exactly one %s", list);
		doc_free(d);
		return -1;
	}
	return 0;
}

/* node-id or tp-id in the body agrees with the URL's key. */
static int
ovr_key_check(struct rc_req *rq, const struct doc_node *e, const char *leaf,
    const char *key)
{
	char	v[OVR_ID_MAX];

	if (doc_get_string(e, leaf, v, sizeof(v)) == 0 && strcmp(v, key) != 0) {
		ovr_st.bad_requests++;
		http_error(rq->http, 400, "protocol", "invalid-value",
		    "The %s %s differs from the key %s in the path", leaf, v,
		    key);
		return -1;
	}
	return 0;
}

/* ---- the body of a bridge or a port, into OVSDB rows ---- */

/* An identityref's name after an optional module prefix and base:
 * "ovsdb:ovsdb-fail-mode-secure" with base "ovsdb-fail-mode-" is
 * "secure"; NULL when it is not one of base's. */
static const char *
ovr_ident(const char *v, const char *base)
{
	const char	*c = strchr(v, ':');

	if (c != NULL)
		v = c + 1;
	if (strncmp(v, base, strlen(base)) != 0 || v[strlen(base)] == '\0')
		return NULL;
	return v + strlen(base);
}

/* A key/value list (bridge-other-configs, options) as an OVSDB map; -1
 * on an entry without both. */
static int
ovr_kv(const struct doc_node *e, const char *list, const char *k,
    const char *v, json_t *pairs)
{
	struct doc_iter	 it;
	struct doc_node	 x;
	char		 kb[OVR_TEXT], vb[OVR_TEXT];

	doc_iter_init(&it, e, list);
	while (doc_iter_next(&it, &x) == 1) {
		if (doc_get_string(&x, k, kb, sizeof(kb)) == -1 ||
		    doc_get_string(&x, v, vb, sizeof(vb)) == -1)
			return -1;
		json_array_append_new(pairs, json_pack("[ss]", kb, vb));
	}
	return 0;
}

/* The leaf of each entry of a list, as a set of strings; ident: the
 * identity base its values must have (the name after it is kept, with
 * pfx before it). */
static int
ovr_leaves(const struct doc_node *e, const char *list, const char *leaf,
    const char *ident, const char *pfx, json_t *set)
{
	struct doc_iter	 it;
	struct doc_node	 x;
	char		 b[OVR_TEXT], out[OVR_TEXT];
	const char	*v;

	doc_iter_init(&it, e, list);
	while (doc_iter_next(&it, &x) == 1) {
		if (doc_get_string(&x, leaf, b, sizeof(b)) == -1)
			return -1;
		v = b;
		if (ident != NULL && (v = ovr_ident(b, ident)) == NULL)
			return -1;
		snprintf(out, sizeof(out), "%s%s", pfx, v);
		json_array_append_new(set, json_string(out));
	}
	return 0;
}

/* ovsdb:datapath-id 00:00:00:00:00:00:00:01 as other_config's
 * datapath-id 0000000000000001 (what ODL's southbound writes). */
static int
ovr_dpid_in(const struct doc_node *e, json_t *other)
{
	char	b[32], hex[17];
	size_t	i, o = 0;
	int	rc;

	if ((rc = doc_get_string(e, "datapath-id", b, sizeof(b))) == -1)
		return 0;
	for (i = 0; b[i] != '\0' && o < 16; i++)
		if (b[i] != ':')
			hex[o++] = b[i];
	hex[o] = '\0';
	if (o != 16 || strspn(hex, "0123456789abcdefABCDEF") != 16 ||
	    strlen(b) != 23)
		return -1;
	json_array_append_new(other, json_pack("[ss]", "datapath-id", hex));
	return 0;
}

/* Bridge columns from a bridge node's leaves; the bad leaf's name, NULL
 * when the body is fine.  ctls gets the controller targets. */
static const char *
ovr_bridge_cols(const struct doc_node *e, const char *id, json_t *row,
    json_t *ctls)
{
	json_t		*protos = json_array(), *other = json_array();
	json_t		*ext = json_array();
	char		 b[OVR_TEXT], iid[OVSDB_CTL_ID_MAX + 320];
	const char	*v;

	json_object_set_new(row, "protocols", json_pack("[so]", "set",
	    protos));
	json_object_set_new(row, "other_config", json_pack("[so]", "map",
	    other));
	json_object_set_new(row, "external_ids", json_pack("[so]", "map",
	    ext));
	if (ovr_leaves(e, "protocol-entry", "protocol",
	    "ovsdb-bridge-protocol-openflow-", "OpenFlow", protos) == -1)
		return "protocol-entry";
	if (ovr_leaves(e, "controller-entry", "target", NULL, "", ctls) == -1)
		return "controller-entry";
	if (ovr_kv(e, "bridge-other-configs", "bridge-other-config-key",
	    "bridge-other-config-value", other) == -1 ||
	    ovr_dpid_in(e, other) == -1)
		return "bridge-other-configs or datapath-id";
	if (ovr_kv(e, "bridge-external-ids", "bridge-external-id-key",
	    "bridge-external-id-value", ext) == -1)
		return "bridge-external-ids";
	/* ODL names its bridges in OVSDB by their instance-identifier. */
	ovr_iid(iid, sizeof(iid), id);
	json_array_append_new(ext, json_pack("[ss]", "opendaylight-iid", iid));
	json_object_set_new(row, "fail_mode", json_pack("[s[]]", "set"));
	if (doc_get_string(e, "fail-mode", b, sizeof(b)) == 0) {
		if ((v = ovr_ident(b, "ovsdb-fail-mode-")) == NULL)
			return "fail-mode";
		json_object_set_new(row, "fail_mode", json_string(v));
	}
	if (doc_get_string(e, "datapath-type", b, sizeof(b)) == 0) {
		if ((v = ovr_ident(b, "datapath-type-")) == NULL)
			return "datapath-type";
		json_object_set_new(row, "datapath_type", json_string(v));
	}
	return NULL;
}

/* managed-by's node-id='X' names the manager (ODL's way). */
static int
ovr_managed_by(const struct doc_node *e, char *mgr, size_t cap)
{
	char		 b[OVSDB_CTL_ID_MAX + 320];
	const char	*k, *end;

	if (doc_get_string(e, "managed-by", b, sizeof(b)) == -1)
		return 0;
	if ((k = strstr(b, "node-id='")) == NULL ||
	    (end = strchr(k + 9, '\'')) == NULL)
		return -1;
	snprintf(mgr, cap, "%.*s", (int)(end - (k + 9)), k + 9);
	return 0;
}

/* ---- writes of bridges and ports ---- */

static json_t *
ovr_where_uuid(const char *uuid)
{
	return json_pack("[[ss[ss]]]", "_uuid", "==", "uuid", uuid);
}

static json_t *
ovr_named(const char *name)
{
	return json_pack("[ss]", "named-uuid", name);
}

/* The bridge's new rows: its local Port and Interface (as `ovs-vsctl
 * add-br` makes them), the Bridge, and its place in Open_vSwitch. */
static void
ovr_bridge_insert(json_t *ops, const char *name, json_t *row)
{
	json_array_append_new(ops, json_pack("{sssss{ssss}ss}", "op",
	    "insert", "table", "Interface", "row", "name", name, "type",
	    "internal", "uuid-name", "sbsim_if"));
	json_array_append_new(ops, json_pack("{sssss{ssso}ss}", "op",
	    "insert", "table", "Port", "row", "name", name, "interfaces",
	    ovr_named("sbsim_if"), "uuid-name", "sbsim_port"));
	json_object_set_new(row, "name", json_string(name));
	json_object_set_new(row, "ports", ovr_named("sbsim_port"));
	json_array_append_new(ops, json_pack("{sssssoss}", "op", "insert",
	    "table", "Bridge", "row", row, "uuid-name", "sbsim_br"));
	json_array_append_new(ops, json_pack("{sssss[]s[[ss[s[o]]]]}", "op",
	    "mutate", "table", "Open_vSwitch", "where", "mutations",
	    "bridges", "insert", "set", ovr_named("sbsim_br")));
}

/* Controller rows for the targets, referenced from the bridge's row. */
static void
ovr_controllers_insert(json_t *ops, json_t *targets, json_t *row)
{
	json_t	*refs = json_array(), *t;
	char	 name[32];
	size_t	 i;

	json_array_foreach(targets, i, t) {
		snprintf(name, sizeof(name), "sbsim_ctl%zu", i);
		json_array_append_new(ops, json_pack("{sssss{sO}ss}", "op",
		    "insert", "table", "Controller", "row", "target", t,
		    "uuid-name", name));
		json_array_append_new(refs, ovr_named(name));
	}
	json_object_set_new(row, "controller", json_pack("[so]", "set",
	    refs));
}

static void
ovr_put_bridge(struct rc_req *rq, struct ovr_target *t,
    const struct doc_node *e)
{
	struct ovsdb_ctl_sess	*s;
	json_t		*row = json_object(), *ctls = json_array(), *br;
	json_t		*ops = json_array();
	const char	*bad, *uuid = NULL;
	char		 name[OVR_TEXT];

	if ((doc_get_string(e, "bridge-name", name, sizeof(name)) == 0 &&
	    strcmp(name, t->bridge) != 0) ||
	    ovr_managed_by(e, t->mgr, sizeof(t->mgr)) == -1)
		bad = "bridge-name or managed-by";
	else
		bad = ovr_bridge_cols(e, t->id, row, ctls);
	if (bad != NULL)
		ovr_bad(rq, "Bad %s in the bridge node", bad);
	else if ((s = ovsdb_ctl_find(t->mgr)) == NULL)
		ovr_not_connected(rq, t->mgr);
	else if ((br = ovr_bridge_find(s, t->bridge, &uuid)) != NULL &&
	    rq->http->method == EVHTTP_REQ_POST)
		http_error(rq->http, 409, "application", "data-exists",
		    "Bridge %s already exists", t->id);
	else {
		ovr_controllers_insert(ops, ctls, row);
		if (br != NULL)
			json_array_append_new(ops, json_pack("{sssssoso}",
			    "op", "update", "table", "Bridge", "where",
			    ovr_where_uuid(uuid), "row", json_incref(row)));
		else
			ovr_bridge_insert(ops, t->bridge, json_incref(row));
		ovr_st.bridge_writes++;
		ovr_transact(rq, s, ops, br != NULL ? 204 : 201,
		    OVR_CH_BRIDGE, t, row, ctls);
		ops = NULL;
	}
	json_decref(ops);
	json_decref(row);
	json_decref(ctls);
}

/* Interface columns of a termination point's body. */
static const char *
ovr_iface_cols(const struct doc_node *e, json_t *row)
{
	json_t		*opts = json_array();
	char		 b[OVR_TEXT];
	const char	*v;
	uint64_t	 ofp;

	json_object_set_new(row, "options", json_pack("[so]", "map", opts));
	if (doc_get_string(e, "interface-type", b, sizeof(b)) == 0) {
		if ((v = ovr_ident(b, "interface-type-")) == NULL)
			return "interface-type";
		json_object_set_new(row, "type", json_string(v));
	}
	if (ovr_kv(e, "options", "option", "value", opts) == -1)
		return "options";
	if (doc_get_uint(e, "ofport-request", 65279, &ofp) == 0)
		json_object_set_new(row, "ofport_request",
		    json_integer((json_int_t)ofp));
	return NULL;
}

/* A port of the bridge by name: its uuid, NULL when none. */
static const char *
ovr_port_find(const struct ovsdb_ctl_sess *s, json_t *br, const char *name)
{
	json_t		*ports = json_object_get(br, "ports"), *p;
	const char	*n;
	static char	 u[64];
	size_t		 i;

	for (i = 0; i < ovr_set_size(ports); i++) {
		p = ovr_ref(s, "Port", ovr_set_get(ports, i));
		if (p != NULL && (n = ovr_col_str(p, "name")) != NULL &&
		    strcmp(n, name) == 0)
			return ovr_atom(ovr_set_get(ports, i), u, sizeof(u));
	}
	return NULL;
}

static void
ovr_put_tp(struct rc_req *rq, const struct ovr_target *t,
    const struct doc_node *e, struct ovsdb_ctl_sess *s, json_t *br,
    const char *br_uuid)
{
	json_t		*row = json_object(), *ops = json_array();
	const char	*bad, *pu = ovr_port_find(s, br, t->tp);
	char		 name[OVR_TEXT];

	if (doc_get_string(e, "name", name, sizeof(name)) == 0 &&
	    strcmp(name, t->tp) != 0)
		bad = "name";
	else
		bad = ovr_iface_cols(e, row);
	if (bad != NULL) {
		ovr_bad(rq, "Bad %s in the termination point", bad);
		json_decref(row);
		json_decref(ops);
		return;
	}
	if (pu != NULL) {
		json_array_append_new(ops, json_pack("{sssss[[sss]]sO}", "op",
		    "update", "table", "Interface", "where", "name", "==",
		    t->tp, "row", row));
	} else {
		json_object_set_new(row, "name", json_string(t->tp));
		json_array_append_new(ops, json_pack("{sssssOss}", "op",
		    "insert", "table", "Interface", "row", row, "uuid-name",
		    "sbsim_if"));
		json_array_append_new(ops, json_pack("{sssss{ssso}ss}", "op",
		    "insert", "table", "Port", "row", "name", t->tp,
		    "interfaces", ovr_named("sbsim_if"), "uuid-name",
		    "sbsim_port"));
		json_array_append_new(ops, json_pack("{sssssos[[ss[s[o]]]]}",
		    "op", "mutate", "table", "Bridge", "where",
		    ovr_where_uuid(br_uuid), "mutations", "ports", "insert",
		    "set", ovr_named("sbsim_port")));
	}
	ovr_st.tp_writes++;
	ovr_transact(rq, s, ops, pu != NULL ? 204 : 201, OVR_CH_TP, t, row,
	    NULL);
	json_decref(row);
}

/* A passive node to connect to (CSIT's "Connect To Ovsdb Node"). */
static void
ovr_put_manager(struct rc_req *rq, const struct ovr_target *t,
    const struct doc_node *e)
{
	struct doc_node	 ci;
	struct in6_addr	 a6;
	char		 ip[OVSDB_CTL_HOST_MAX];
	uint64_t	 port;
	int		 exists = ovsdb_ctl_node_find(t->id) != NULL;

	/* remote-ip is an inet:ip-address: no host names. */
	if (doc_child(e, "connection-info", &ci) == -1 ||
	    doc_get_string(&ci, "remote-ip", ip, sizeof(ip)) == -1 ||
	    (inet_pton(AF_INET, ip, &a6) != 1 &&
	    inet_pton(AF_INET6, ip, &a6) != 1) ||
	    doc_get_uint(&ci, "remote-port", 65535, &port) == -1 ||
	    port == 0) {
		ovr_bad(rq, "Node %s needs connection-info with remote-ip (an "
		    "IP address) and remote-port", t->id);
		return;
	}
	if (exists && rq->http->method == EVHTTP_REQ_POST) {
		http_error(rq->http, 409, "application", "data-exists",
		    "Node %s already exists", t->id);
		return;
	}
	ovsdb_ctl_node_add(t->id, ip, (uint16_t)port);
	ovr_st.nodes_configured++;
	http_reply(rq->http, exists ? 204 : 201, NULL);
}

/* PUT or POST of one node or termination point. */
static void
ovr_write(struct rc_req *rq, struct ovr_target *t)
{
	struct doc	 d;
	struct doc_node	 e;
	struct ovsdb_ctl_sess	*s;
	json_t		*br = NULL;
	const char	*uuid = NULL;

	if (t->tp != NULL) {
		if ((s = ovsdb_ctl_find(t->mgr)) == NULL) {
			ovr_not_connected(rq, t->mgr);
			return;
		}
		if ((br = ovr_bridge_find(s, t->bridge, &uuid)) == NULL) {
			rc_data_missing(rq);
			return;
		}
		if (ovr_body_entry(rq, &d, "termination-point", &e) == -1)
			return;
		if (ovr_key_check(rq, &e, "tp-id", t->tp) == 0)
			ovr_put_tp(rq, t, &e, s, br, uuid);
		doc_free(&d);
		return;
	}
	if (ovr_body_entry(rq, &d, "node", &e) == -1)
		return;
	if (ovr_key_check(rq, &e, "node-id", t->id) == 0) {
		if (t->is_bridge)
			ovr_put_bridge(rq, t, &e);
		else
			ovr_put_manager(rq, t, &e);
	}
	doc_free(&d);
}

/* ---- deletes ---- */

static void
ovr_delete(struct rc_req *rq, const struct ovr_target *t)
{
	struct ovsdb_ctl_sess	*s = ovsdb_ctl_find(t->mgr);
	struct ovsdb_ctl_node	*n;
	json_t		*br = NULL, *ops;
	const char	*uuid = NULL, *pu;

	if (!t->is_bridge) {
		if ((n = ovsdb_ctl_node_find(t->id)) == NULL) {
			rc_data_missing(rq);
			return;
		}
		ovsdb_ctl_node_del(n);
		ovr_cfg_drop_mgr(t->id);
		http_reply(rq->http, 204, NULL);
		return;
	}
	if (s == NULL || (br = ovr_bridge_find(s, t->bridge, &uuid)) == NULL ||
	    (t->tp != NULL && (pu = ovr_port_find(s, br, t->tp)) == NULL)) {
		/* Gone from the node already: only its configuration. */
		if (ovr_cfg_forget(t) == 0)
			http_reply(rq->http, 204, NULL);
		else
			rc_data_missing(rq);
		return;
	}
	if (t->tp != NULL)
		ops = json_pack("[{sssssos[[ss[s[[ss]]]]]}]", "op", "mutate",
		    "table", "Bridge", "where", ovr_where_uuid(uuid),
		    "mutations", "ports", "delete", "set", "uuid", pu);
	else
		ops = json_pack("[{sssss[]s[[ss[s[[ss]]]]]}{ssssso}]", "op",
		    "mutate", "table", "Open_vSwitch", "where", "mutations",
		    "bridges", "delete", "set", "uuid", uuid, "op", "delete",
		    "table", "Bridge", "where", ovr_where_uuid(uuid));
	ovr_st.deletes++;
	ovr_transact(rq, s, ops, 204, t->tp != NULL ? OVR_CH_DEL_TP :
	    OVR_CH_DEL_BRIDGE, t, NULL, NULL);
}

/* ---- dispatch ---- */

/* POST to the topology: the body's node-id says what it is. */
static void
ovr_post_topology(struct rc_req *rq)
{
	struct doc		 d;
	struct doc_node		 e;
	struct rc_path		 p;
	struct ovr_target	 t;
	char			 id[OVR_ID_MAX];

	if (ovr_body_entry(rq, &d, "node", &e) == -1)
		return;
	if (doc_get_string(&e, "node-id", id, sizeof(id)) == -1) {
		ovr_bad(rq, "The node needs a node-id%s", "");
		doc_free(&d);
		return;
	}
	memset(&p, 0, sizeof(p));
	p.n = 3;
	p.e[2].name = "node";
	p.e[2].key[0] = id;
	p.e[2].nkeys = 1;
	ovr_target(&p, &t);
	if (t.is_bridge)
		ovr_put_bridge(rq, &t, &e);
	else
		ovr_put_manager(rq, &t, &e);
	doc_free(&d);
}

static void
ovr_handle(struct rc_req *rq, void *arg)
{
	struct ovr_target	 t;
	unsigned		 m = rq->http->method;

	(void)arg;
	if (rq->path.n == 2) {
		if (m & (EVHTTP_REQ_GET | EVHTTP_REQ_HEAD))
			rc_topology_reply(rq, ovr_entry, NULL);
		else if (m == EVHTTP_REQ_POST)
			ovr_post_topology(rq);
		else
			rc_read_only(rq);
		return;
	}
	if (ovr_target(&rq->path, &t) == -1) {
		rc_unknown(rq, &rq->path.e[rq->path.n - 1]);
		return;
	}
	if (m & (EVHTTP_REQ_GET | EVHTTP_REQ_HEAD))
		ovr_get_node(rq, &t);
	else if (m == EVHTTP_REQ_DELETE)
		ovr_delete(rq, &t);
	else if (m == EVHTTP_REQ_PUT || m == EVHTTP_REQ_POST)
		ovr_write(rq, &t);
	else
		http_error(rq->http, 405, "protocol", "operation-not-supported",
		    "PUT, POST, DELETE or GET a node of ovsdb:1");
}

static const struct rc_topology ovr_topo = {
	.id = OVR_TOPOLOGY, .lists = ovr_lists, .fn = ovr_handle,
	.entry = ovr_entry,
};

void
ovsdb_restconf_register(void)
{
	memset(&ovr_st, 0, sizeof(ovr_st));
	rc_topology_register(&ovr_topo);
}

const struct ovr_stats *
ovsdb_restconf_stats(void)
{
	return &ovr_st;
}

void
ovsdb_restconf_stop(void)
{
	while (cbrs != NULL)
		ovr_cbr_free(cbrs);
}
