/*
 * The northbound driver of `sbsim ovsdb` (ovsdb_nb.h): two runs of the
 * generic northbound sequence (src/controller/northbound.h), in both URL styles:
 *   /rests/data/network-topology:network-topology/topology=ovsdb%3A1/
 *       node=<node-id, percent-encoded>[?content=nonconfig]
 *   /restconf/config|operational/network-topology:network-topology/
 *       topology/ovsdb:1/node/<node-id, percent-encoded>
 * The node run (items: the devices) connects passive devices and waits
 * for the controller's operational view to show every node; the bridge
 * run (items: N x B bridges) writes, confirms and deletes the bridges.
 * Node and bridge bodies are CSIT's (csit/variables/ovsdb/connect.json,
 * create_bridge.json), with ODL's ovsdb.yang leaves.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <jansson.h>

#include "log.h"
#include "ovsdb_nb.h"
#include "ovsdb_sim.h"

#define ON_TOPO		"ovsdb:1"
#define ON_OF13		"ovsdb:ovsdb-bridge-protocol-openflow-13"
#define ON_ID_MAX	256	/* a node id we keep */

struct ovsdb_nb {
	struct ovsdb_sim	*sim;
	struct ovsdb_nb_cfg	*cfg;
	struct metrics		*m;
	struct nb_run		*nodes, *bridges;
	int			 stage;
	int			 passive;
	uint16_t		 base_port;
	const struct source_range *dev_range;	/* --source, or NULL */
	/* The node ids the bridges go to: ours (passive), or the
	 * operational topology's (active, from the last count). */
	char			**ids;
	uint32_t		 nids;
	uint32_t		 bridges_per_node;
};

static char	on_topo_name[] = ON_TOPO;
static char	*on_topo_nodes[] = { on_topo_name };

/* The run's state, as the driver's context: a count reads node ids
 * into it (the generic run hands the context back as const). */
static struct ovsdb_nb *
on_ctx(const struct nb_opts *o)
{
	return (struct ovsdb_nb *)(uintptr_t)o->ctx;
}

/* The topology (node NULL) or one node of it, config or operational. */
static int
on_path(const struct nb_opts *o, int config, const char *node, char *out,
    size_t cap)
{
	return nb_topo_path(o, ON_TOPO, config, node, NULL, "content=nonconfig",
	    out, cap);
}

/* A body of one node: {"network-topology:node": [node]} (the draft's
 * {"node": [...]}). */
static void
on_body(const struct nb_opts *o, struct evbuffer *b, json_t *node)
{
	nb_json_add(b, json_pack("{s:[o]}", o->style == NB_STYLE_RFC8040 ?
	    "network-topology:node" : "node", node));
}

/* ---- the node run: passive devices connected by the controller ---- */

static void
on_node_id(uint64_t i, char *out, size_t cap)
{
	snprintf(out, cap, "ovsdb://HOST%" PRIu64, i);
}

/* CSIT's "Connect To Ovsdb Node" (connect.json: a PUT of the node with
 * its connection-info) or "Disconnect From Ovsdb Node" (a DELETE of it),
 * one device. */
static int
on_node_msg(const struct nb_opts *o, const char *topo, uint64_t first,
    uint32_t n, struct nb_msg *m, enum nb_method method)
{
	struct ovsdb_nb	*nb = on_ctx(o);
	char		 id[ON_ID_MAX], host[INET6_ADDRSTRLEN];
	json_int_t	 port;

	(void)topo;
	(void)n;
	on_node_id(first, id, sizeof(id));
	nb_msg_start(o, m, method);
	if (on_path(o, 1, id, m->path, sizeof(m->path)) == -1)
		return -1;
	if (method == NB_PUT) {
		port = nb->base_port + (nb->dev_range != NULL ? 0 : first);
		on_body(o, m->body, json_pack("{s:s, s:{s:s, s:I}}", "node-id",
		    id, "ovsdb:connection-info", "remote-ip",
		    source_host(nb->dev_range, first, nb->cfg->device_host,
		    host, sizeof(host)), "remote-port", port));
	}
	return 0;
}

static int
on_node_add(const struct nb_opts *o, const char *topo, uint64_t first,
    uint32_t n, struct nb_msg *m)
{
	return on_node_msg(o, topo, first, n, m, NB_PUT);
}

static int
on_node_del(const struct nb_opts *o, const char *topo, uint64_t first,
    uint32_t n, struct nb_msg *m)
{
	return on_node_msg(o, topo, first, n, m, NB_DELETE);
}

static int
on_node_count(const struct nb_opts *o, const char *topo, struct nb_msg *m)
{
	(void)topo;
	nb_msg_start(o, m, NB_GET);
	return on_path(o, 0, NULL, m->path, sizeof(m->path));
}

/* The member named name in any module's prefix ("ovsdb:x" or "x"). */
static json_t *
on_member(json_t *obj, const char *name)
{
	const char	*key, *colon;
	json_t		*v;

	json_object_foreach(obj, key, v) {
		colon = strrchr(key, ':');
		if (strcmp(colon ? colon + 1 : key, name) == 0)
			return v;
	}
	return NULL;
}

/* The topology's node list, in either style's reply. */
static json_t *
on_topo_nodes_of(json_t *doc)
{
	json_t	*t = on_member(doc, "topology");

	if (json_is_array(t))
		t = json_array_get(t, 0);
	return json_is_object(t) ? on_member(t, "node") : NULL;
}

static void
on_ids_free(struct ovsdb_nb *nb)
{
	uint32_t	i;

	for (i = 0; i < nb->nids; i++)
		free(nb->ids[i]);
	free(nb->ids);
	nb->ids = NULL;
	nb->nids = 0;
}

static int
on_id_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The OVSDB nodes (those with connection-info; bridges have none): how
 * many, and (active devices) their ids, kept for the bridge run. */
static int
on_node_parse(const struct nb_opts *o, int status, const char *body,
    size_t len, uint64_t *out)
{
	struct ovsdb_nb	*nb = on_ctx(o);
	json_error_t	 jerr;
	json_t		*doc, *nodes, *n, *id;
	size_t		 i;

	*out = 0;
	if (status == 404 || status == 409)
		return 0;	/* no topology (yet, or any more) */
	if (status < 200 || status > 299 ||
	    (doc = json_loadb(body, len, 0, &jerr)) == NULL)
		return -1;
	if (!nb->passive)
		on_ids_free(nb);
	nodes = on_topo_nodes_of(doc);
	json_array_foreach(nodes, i, n) {
		id = on_member(n, "node-id");
		if (on_member(n, "connection-info") == NULL ||
		    !json_is_string(id) || json_string_length(id) >= ON_ID_MAX)
			continue;
		(*out)++;
		if (nb->passive)
			continue;
		nb->ids = xreallocarray(nb->ids, nb->nids + 1,
		    sizeof(*nb->ids));
		nb->ids[nb->nids++] = xstrdup(json_string_value(id));
	}
	json_decref(doc);
	if (nb->nids > 1)
		qsort(nb->ids, nb->nids, sizeof(*nb->ids), on_id_cmp);
	return 0;
}

static const struct nb_driver on_node_driver = {
	"odl", on_node_add, on_node_del, on_node_count, on_node_parse,
};
NB_DRIVER_LIST(on_drivers, &on_node_driver);

/* ---- the bridge run ---- */

/* Bridge k of a node: its name and its node id <node>/bridge/<name>. */
static int
on_bridge(const struct ovsdb_nb *nb, const char *node, uint64_t item,
    char *name, size_t ncap, char *id, size_t icap)
{
	int	n;

	snprintf(name, ncap, OVSDB_NB_BRIDGE "%" PRIu64,
	    item % nb->bridges_per_node);
	n = snprintf(id, icap, "%s/bridge/%s", node, name);
	return n < 0 || (size_t)n >= icap ? -1 : 0;
}

/* CSIT's "Add Bridge To Ovsdb Node" (create_bridge.json). */
static int
on_bridge_add(const struct nb_opts *o, const char *node, uint64_t first,
    uint32_t n, struct nb_msg *m)
{
	struct ovsdb_nb	*nb = on_ctx(o);
	char		 name[32], id[ON_ID_MAX + 32], ref[ON_ID_MAX + 128];
	json_t		*b;

	(void)n;
	if (on_bridge(nb, node, first, name, sizeof(name), id,
	    sizeof(id)) == -1)
		return -1;
	nb_msg_start(o, m, NB_PUT);
	if (on_path(o, 1, id, m->path, sizeof(m->path)) == -1)
		return -1;
	snprintf(ref, sizeof(ref), "/network-topology:network-topology/"
	    "topology[topology-id='" ON_TOPO "']/node[node-id='%s']", node);
	b = json_pack("{s:s, s:s, s:s, s:[{s:s}]}", "node-id", id,
	    "ovsdb:bridge-name", name, "ovsdb:managed-by", ref,
	    "ovsdb:protocol-entry", "protocol", ON_OF13);
	if (nb->cfg->bridge_controller != NULL)
		json_object_set_new(b, "ovsdb:controller-entry", json_pack(
		    "[{s:s}]", "target", nb->cfg->bridge_controller));
	on_body(o, m->body, b);
	return 0;
}

/* "Delete Bridge From Ovsdb Node". */
static int
on_bridge_del(const struct nb_opts *o, const char *node, uint64_t first,
    uint32_t n, struct nb_msg *m)
{
	char	name[32], id[ON_ID_MAX + 32];

	(void)n;
	if (on_bridge(on_ctx(o), node, first, name, sizeof(name), id,
	    sizeof(id)) == -1)
		return -1;
	nb_msg_start(o, m, NB_DELETE);
	return on_path(o, 1, id, m->path, sizeof(m->path));
}

/* The node in the operational view: its managed-node-entry lists a
 * bridge-ref for each bridge the controller learned from the device. */
static int
on_bridge_count(const struct nb_opts *o, const char *node, struct nb_msg *m)
{
	nb_msg_start(o, m, NB_GET);
	return on_path(o, 0, node, m->path, sizeof(m->path));
}

static int
on_bridge_parse(const struct nb_opts *o, int status, const char *body,
    size_t len, uint64_t *out)
{
	json_error_t	 jerr;
	json_t		*doc, *node, *ents, *e, *ref;
	size_t		 i;

	(void)o;
	*out = 0;
	if (status == 404 || status == 409)
		return 0;	/* no such node (yet, or any more) */
	if (status < 200 || status > 299 ||
	    (doc = json_loadb(body, len, 0, &jerr)) == NULL)
		return -1;
	node = on_member(doc, "node");
	if (json_is_array(node))
		node = json_array_get(node, 0);
	ents = json_is_object(node) ? on_member(node, "managed-node-entry") :
	    NULL;
	json_array_foreach(ents, i, e) {
		ref = json_is_object(e) ? on_member(e, "bridge-ref") : NULL;
		if (json_is_string(ref) && strstr(json_string_value(ref),
		    "/bridge/" OVSDB_NB_BRIDGE) != NULL)
			(*out)++;
	}
	json_decref(doc);
	return 0;
}

static const struct nb_driver on_bridge_driver = {
	"odl", on_bridge_add, on_bridge_del, on_bridge_count, on_bridge_parse,
};

/* ---- options ---- */

#define ONC	struct ovsdb_nb_cfg
const struct opt ovsdb_nb_rows[] = {
	OPT_S("bridge-controller", "TARGET", ONC, bridge_controller,
	    NB_GIVEN_ANY, "the bridges' OpenFlow controller-entry\n"
	    "(tcp:IP:PORT or ssl:IP:PORT)", .def = "none"),
	OPT_S("device-address", "IP", ONC, device_host, NB_GIVEN_ANY,
	    "passive: the address the controller dials",
	    .def = "the --controller address, else\n127.0.0.1"),
	OPT_D("northbound-poll", "S", ONC, opts.poll_s, 0.01, 60,
	    NB_GIVEN_ANY, "seconds between polls of the controller's view"),
	OPT_END
};
#undef ONC

void
ovsdb_nb_defaults(struct ovsdb_nb_cfg *c)
{
	memset(c, 0, sizeof(*c));
	nb_opts_defaults(&c->opts, on_drivers);
}

static int
on_check_target(const char *t, char *err, size_t errlen)
{
	struct endpoint	ep;
	char		why[256];

	if (endpoint_parse(t, &ep, why, sizeof(why)) == -1 ||
	    (ep.kind != EP_TCP && ep.kind != EP_SSL)) {
		snprintf(err, errlen, "--bridge-controller: '%s' is not "
		    "tcp:IP:PORT or ssl:IP:PORT", t);
		return -1;
	}
	return 0;
}

int
ovsdb_nb_check(const struct ovsdb_sim *sim, struct ovsdb_nb_cfg *c,
    char *err, size_t errlen)
{
	if (!(c->given & NB_GIVEN_ANY))
		return 0;
	if (nb_check_json_driver(&c->opts, c->given, "--bridge-controller "
	    "and --device-address", "OVSDB", err, errlen) == -1)
		return -1;
	if (c->bridge_controller != NULL &&
	    on_check_target(c->bridge_controller, err, errlen) == -1)
		return -1;
	if (c->device_host != NULL && !endpoint_passive(&sim->pcfg.ep)) {
		snprintf(err, errlen, "--device-address: only passive devices "
		    "(ptcp:, pssl:) are dialled by the controller");
		return -1;
	}
	if (c->device_host == NULL)
		c->device_host = endpoint_dial_host(&sim->pcfg.ep);
	return 0;
}

/* ---- the sequence ---- */

/* A run's options: the parsed ones with the run's driver and items. */
static void
on_opts(struct ovsdb_nb *nb, struct nb_opts *o, const struct nb_driver *d,
    uint64_t items)
{
	*o = nb->cfg->opts;
	o->driver = d;
	o->flows = items;
	o->per_request = 1;
	o->timeout_s = nb->sim->phase_timeout;
	o->ctx = nb;
}

static void
on_hook(void *arg, int deleting, uint64_t now)
{
	(void)arg;
	(void)deleting;
	(void)now;
}

struct ovsdb_nb *
ovsdb_nb_new(struct ovsdb_sim *sim, struct ovsdb_nb_cfg *cfg,
    struct metrics *m)
{
	struct ovsdb_nb	*nb = xcalloc(1, sizeof(*nb));
	struct nb_opts	 o;
	uint32_t	 i;

	nb->sim = sim;
	nb->cfg = cfg;
	nb->m = m;
	nb->passive = endpoint_passive(&sim->pcfg.ep);
	nb->base_port = sim->pcfg.ep.port;
	nb->dev_range = sim->pcfg.src.family != AF_UNSPEC ? &sim->pcfg.src :
	    NULL;
	nb->bridges_per_node = sim->cfg.mgr_bridges;
	on_opts(nb, &o, &on_node_driver, sim->cfg.devices);
	o.confirm_name = "nb_learn";
	if (nb->passive) {
		o.hold = 1;
		o.program_name = "nb_connect";
		o.delete_name = "nb_disconnect";
		o.confirm_delete_name = "disconnected";
		nb->ids = xcalloc(sim->cfg.devices, sizeof(*nb->ids));
		for (i = 0; i < sim->cfg.devices; i++) {
			nb->ids[i] = xmalloc(ON_ID_MAX);
			on_node_id(i, nb->ids[i], ON_ID_MAX);
		}
		nb->nids = sim->cfg.devices;
	} else {
		/* The devices connect by themselves: count them. */
		o.watch = 1;
		o.no_delete = 1;
	}
	nb->nodes = nb_new(&o, m, on_topo_nodes, 1, on_hook, nb);
	return nb;
}

/* The nodes are there: the bridges on them; 0 when none start. */
static int
on_bridges_begin(struct ovsdb_nb *nb, uint64_t now)
{
	const struct phase	*learned = metrics_find_phase(nb->m,
				    "nb_learn");
	struct nb_opts		 o;

	if (nb->bridges_per_node == 0 || learned == NULL ||
	    learned->state != PHASE_DONE || nb->nids == 0)
		return 0;
	/* More nodes than devices (others the controller holds): the
	 * first N, in order, so each device gets its B. */
	if (nb->nids > nb->sim->cfg.devices)
		nb->nids = nb->sim->cfg.devices;
	on_opts(nb, &o, &on_bridge_driver, (uint64_t)nb->nids *
	    nb->bridges_per_node);
	nb->bridges = nb_new(&o, nb->m, nb->ids, nb->nids, on_hook, nb);
	return nb_begin_logged(nb->bridges, now) == 0;
}

/* The bridges done (or none to make): passive devices' nodes, held
 * until now, deleted, which stage 3 waits for; else the end. */
static int
on_nodes_done(struct ovsdb_nb *nb, uint64_t now)
{
	if (!nb->passive)
		return 4;
	nb_release(nb->nodes, now);
	return 3;
}

/* Nodes, then bridges made and deleted, then (passive) the nodes
 * deleted; 1 when over. */
int
ovsdb_nb_tick(struct ovsdb_nb *nb, uint64_t now)
{
	switch (nb->stage) {
	case 0:
		/* Watch mode (active devices): counted from now on. */
		if (!nb->passive)
			phase_start(metrics_find_phase(nb->m, "nb_learn"), now);
		nb->stage = nb_begin_logged(nb->nodes, now) == 0 ? 1 : 4;
		break;
	case 1:
		if (nb_tick(nb->nodes, now))	/* counted, or none held */
			nb->stage = !nb->passive && on_bridges_begin(nb, now) ?
			    2 : 4;
		else if (nb_held(nb->nodes))	/* passive: held */
			nb->stage = on_bridges_begin(nb, now) ? 2 :
			    on_nodes_done(nb, now);
		break;
	case 2:
		if (nb_tick(nb->bridges, now))
			nb->stage = on_nodes_done(nb, now);
		break;
	case 3:
		if (nb_tick(nb->nodes, now))
			nb->stage = 4;
		break;
	}
	return nb->stage == 4;
}

void
ovsdb_nb_free(struct ovsdb_nb *nb)
{
	if (nb == NULL)
		return;
	nb_free(nb->nodes);
	nb_free(nb->bridges);
	on_ids_free(nb);
	free(nb);
}
