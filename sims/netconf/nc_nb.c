/*
 * The northbound driver of `sbsim netconf` (--northbound odl:http://...):
 * the devices mounted, configured and watched through OpenDaylight's
 * RESTCONF (or the embedded controller's), with the generic northbound
 * run (src/controller/northbound.h) three times:
 *
 *   mount run (hold): nb_mount     PUT of each node (--mount-batch 1) or
 *                                  PATCH of K nodes into topology-netconf
 *                     mounted      nodes whose connection-status is
 *                                  connected, polled from the topology's
 *                                  operational view; timed from the first
 *                                  request: the mount as the controller
 *                                  sees it
 *                     nb_unmount, unmounted   at the end: DELETE of each
 *                                  node (or of the topology), polled down
 *   edit run (--edits E per device, once mounted):
 *                     nb_program   PUT of one interface per request
 *                                  through the mount point (or PATCH of
 *                                  --edits-per-request of them)
 *                     confirm      interfaces read back through the mount
 *                                  point (get-config)
 *                     nb_delete, confirm_delete   deleted again
 *   learn run (watch, with --notifications): nb_learn   prefixes the
 *                                  controller counted (the embedded
 *                                  controller's sbsim-netconf:netconf-stats)
 * The device side keeps its own phases: connect, mount, program (the
 * edit-configs' arrival at the devices), learn (prefixes sent).
 *
 * URLs, both styles:
 *   /rests/data/network-topology:network-topology/
 *       topology=topology-netconf/node=NAME[/yang-ext:mount/...]
 *   /restconf/config|operational/network-topology:network-topology/
 *       topology/topology-netconf/node/NAME[/yang-ext:mount/...]
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <jansson.h>

#include "log.h"
#include "nc_sim.h"

#define NCN_TOPO	"topology-netconf"
#define NCN_IFS		"sbsim-device:interfaces"

static const struct nc_nb_cfg *
ncn_cfg(const struct nb_opts *o)
{
	return o->ctx;
}

static void
nc_nb_node_name(uint32_t i, char *out, size_t cap)
{
	snprintf(out, cap, "sbsim-nc-%u", i);
}

/* ---- mount run: the items are the devices ---- */

static void
ncn_node_json(const struct nb_opts *o, uint64_t i, struct evbuffer *b)
{
	const struct nc_nb_cfg	*c = ncn_cfg(o);
	char			 name[NB_NODE_MAX], host[INET6_ADDRSTRLEN];

	nc_nb_node_name((uint32_t)i, name, sizeof(name));
	/* ODL's netconf-node-topology leaves (flat, as most releases and
	 * CSIT's templates take them). */
	nb_json_add(b, json_pack("{s:s, s:s, s:I, s:s, s:s, s:b, s:I}",
	    "node-id", name,
	    "netconf-node-topology:host", source_host(c->dev_range, i,
	    c->device_host, host, sizeof(host)),
	    "netconf-node-topology:port", (json_int_t)(c->base_port +
	    (c->dev_range != NULL ? 0 : i)),
	    "netconf-node-topology:username", c->dev_user,
	    "netconf-node-topology:password", c->dev_password,
	    "netconf-node-topology:tcp-only", c->tcp_only,
	    "netconf-node-topology:keepalive-delay", (json_int_t)0));
}

static int
ncn_mount_add(const struct nb_opts *o, const char *topo, uint64_t first,
    uint32_t n, struct nb_msg *m)
{
	char	name[NB_NODE_MAX];

	(void)topo;
	if (n == 1) {
		nc_nb_node_name((uint32_t)first, name, sizeof(name));
		nb_msg_start(o, m, NB_PUT);
		if (nb_topo_path(o, NCN_TOPO, 1, name, NULL, NULL, m->path,
		    sizeof(m->path)) == -1)
			return -1;
		evbuffer_add_printf(m->body, "{\"%snode\":[", o->style ==
		    NB_STYLE_RFC8040 ? "network-topology:" : "");
		ncn_node_json(o, first, m->body);
		evbuffer_add(m->body, "]}", 2);
		return 0;
	}
	/* RFC 8040 section 4.6.1: a plain merge of the topology. */
	nb_msg_start(o, m, NB_PATCH);
	if (nb_topo_path(o, NCN_TOPO, 1, NULL, NULL, NULL, m->path,
	    sizeof(m->path)) == -1)
		return -1;
	nb_json_list(o, m->body, "{\"network-topology:topology\":[{"
	    "\"topology-id\":\"topology-netconf\",\"node\":[", ncn_node_json,
	    first, n, "]}]}");
	return 0;
}

static int
ncn_mount_del(const struct nb_opts *o, const char *topo, uint64_t first,
    uint32_t n, struct nb_msg *m)
{
	char	name[NB_NODE_MAX];

	(void)topo;
	nb_msg_start(o, m, NB_DELETE);
	if (n == 0)
		return nb_topo_path(o, NCN_TOPO, 1, NULL, NULL, NULL, m->path,
		    sizeof(m->path));
	nc_nb_node_name((uint32_t)first, name, sizeof(name));
	return nb_topo_path(o, NCN_TOPO, 1, name, NULL, NULL, m->path,
	    sizeof(m->path));
}

static int
ncn_topo_count(const struct nb_opts *o, const char *topo, struct nb_msg *m)
{
	(void)topo;
	nb_msg_start(o, m, NB_GET);
	return nb_topo_path(o, NCN_TOPO, 0, NULL, NULL, "content=nonconfig",
	    m->path, sizeof(m->path));
}

/* Members named name (any module prefix) with the string value want, or
 * (want NULL) the entries of arrays named name, anywhere. */
static uint64_t
ncn_json_count(json_t *j, const char *name, const char *want)
{
	const char	*key, *colon;
	json_t		*v;
	size_t		 i;
	uint64_t	 n = 0;

	if (json_is_object(j)) {
		json_object_foreach(j, key, v) {
			colon = strrchr(key, ':');
			if (strcmp(colon ? colon + 1 : key, name) == 0) {
				if (want != NULL && json_is_string(v) &&
				    strcmp(json_string_value(v), want) == 0)
					n++;
				else if (want == NULL && json_is_array(v))
					n += json_array_size(v);
			}
			n += ncn_json_count(v, name, want);
		}
	} else if (json_is_array(j))
		json_array_foreach(j, i, v)
			n += ncn_json_count(v, name, want);
	return n;
}

static int
ncn_parse(int status, const char *body, size_t len, const char *name,
    const char *want, uint64_t *out)
{
	json_error_t	 jerr;
	json_t		*j;

	*out = 0;
	if (status == 404 || (status == 409 && want == NULL))
		return 0;	/* nothing there (yet, or any more) */
	if (status < 200 || status > 299)
		return -1;
	if ((j = json_loadb(body, len, 0, &jerr)) == NULL)
		return -1;
	*out = ncn_json_count(j, name, want);
	json_decref(j);
	return 0;
}

/* The index of the string's closing quote from i (inside it), past
 * escapes; len when it does not close. */
static size_t
ncn_str_end(const char *p, size_t len, size_t i)
{
	while (i < len && p[i] != '"')
		i += p[i] == '\\' ? 2 : 1;
	return i < len ? i : len;
}

static size_t
ncn_blanks(const char *p, size_t len, size_t i)
{
	while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' ||
	    p[i] == '\r'))
		i++;
	return i;
}

/* key (klen bytes) is name, with or without a module prefix. */
static int
ncn_key_is(const char *key, size_t klen, const char *name)
{
	size_t	nl = strlen(name);

	return klen >= nl && memcmp(key + klen - nl, name, nl) == 0 &&
	    (klen == nl || key[klen - nl - 1] == ':');
}

/*
 * Members named name (any module prefix) whose value is the string want,
 * counted in one pass over the text, nothing built: the whole topology
 * polled while thousands of nodes mount, parsed into a document, was
 * half of sbsim netconf's peak memory (24 of 47 MB at 3000 devices; the
 * guide's "mounted" figure).  -1 when a string does not close.
 */
static int
ncn_scan_count(const char *p, size_t len, const char *name,
    const char *want, uint64_t *out)
{
	size_t	i = 0, key, end, wl = strlen(want);

	*out = 0;
	while (i < len) {
		if (p[i++] != '"')
			continue;
		key = i;
		if ((end = ncn_str_end(p, len, i)) == len)
			return -1;
		i = ncn_blanks(p, len, end + 1);
		if (i >= len || p[i] != ':' || !ncn_key_is(p + key, end - key,
		    name))
			continue;
		i = ncn_blanks(p, len, i + 1);
		if (len - i > wl + 1 && p[i] == '"' &&
		    memcmp(p + i + 1, want, wl) == 0 && p[i + 1 + wl] == '"')
			(*out)++;
	}
	return 0;
}

static int
ncn_mount_parse(const struct nb_opts *o, int status, const char *body,
    size_t len, uint64_t *out)
{
	(void)o;
	*out = 0;
	if (status == 404)
		return 0;	/* nothing there (yet, or any more) */
	if (status < 200 || status > 299)
		return -1;
	return ncn_scan_count(body, len, "connection-status", "connected",
	    out);
}

static const struct nb_driver ncn_mount_driver = {
	"odl", ncn_mount_add, ncn_mount_del, ncn_topo_count, ncn_mount_parse,
};
/* The scheme --northbound names picks the mount driver's family; the
 * edit and learn drivers follow it. */
static const struct nb_driver *const ncn_drivers[] = {
	&ncn_mount_driver, NULL
};

/* ---- edit run: interfaces through the mount point ---- */

static int
ncn_if_path(const struct nb_opts *o, const char *node, int config,
    const char *query, uint64_t id, int one, char *out, size_t cap)
{
	char	tail[160];

	if (one)
		snprintf(tail, sizeof(tail), "/yang-ext:mount/" NCN_IFS
		    "%snb%" PRIu64, o->style == NB_STYLE_RFC8040 ?
		    "/interface=" : "/interface/", id);
	else
		snprintf(tail, sizeof(tail), "/yang-ext:mount/" NCN_IFS);
	return nb_topo_path(o, NCN_TOPO, config, node, tail, query, out, cap);
}

static int
ncn_edit_add(const struct nb_opts *o, const char *node, uint64_t first,
    uint32_t n, struct nb_msg *m)
{
	uint32_t	i;

	if (n == 1) {
		nb_msg_start(o, m, NB_PUT);
		if (ncn_if_path(o, node, 1, NULL, first, 1, m->path,
		    sizeof(m->path)) == -1)
			return -1;
		evbuffer_add_printf(m->body, "{\"sbsim-device:interface\":[{"
		    "\"name\":\"nb%" PRIu64 "\",\"description\":\"sbsim "
		    "northbound\"}]}", first);
		return 0;
	}
	nb_msg_start(o, m, NB_PATCH);
	if (ncn_if_path(o, node, 1, NULL, 0, 0, m->path,
	    sizeof(m->path)) == -1)
		return -1;
	evbuffer_add_printf(m->body, "{\"" NCN_IFS "\":{\"interface\":[");
	for (i = 0; i < n; i++)
		evbuffer_add_printf(m->body, "%s{\"name\":\"nb%" PRIu64 "\","
		    "\"description\":\"sbsim northbound\"}", i ? "," : "",
		    first + i);
	evbuffer_add(m->body, "]}}", 3);
	return 0;
}

static int
ncn_edit_del(const struct nb_opts *o, const char *node, uint64_t first,
    uint32_t n, struct nb_msg *m)
{
	nb_msg_start(o, m, NB_DELETE);
	return ncn_if_path(o, node, 1, NULL, first, n != 0, m->path,
	    sizeof(m->path));
}

/* The interfaces read back through the mount point (get-config). */
static int
ncn_edit_count(const struct nb_opts *o, const char *node, struct nb_msg *m)
{
	nb_msg_start(o, m, NB_GET);
	/* RFC 8040: ?content=config; draft: the config datastore. */
	if (o->style == NB_STYLE_RFC8040)
		return ncn_if_path(o, node, 0, "content=config", 0, 0,
		    m->path, sizeof(m->path));
	return ncn_if_path(o, node, 1, NULL, 0, 0, m->path, sizeof(m->path));
}

static int
ncn_edit_parse(const struct nb_opts *o, int status, const char *body,
    size_t len, uint64_t *out)
{
	(void)o;
	return ncn_parse(status, body, len, "interface", NULL, out);
}

static const struct nb_driver ncn_edit_driver = {
	"odl", ncn_edit_add, ncn_edit_del, ncn_edit_count, ncn_edit_parse,
};

/* ---- learn run: the controller's prefix count ---- */

static int
ncn_learn_count(const struct nb_opts *o, const char *topo, struct nb_msg *m)
{
	(void)topo;
	nb_msg_start(o, m, NB_GET);
	return nb_topo_path(o, NCN_TOPO, 0, NULL,
	    "/sbsim-netconf:netconf-stats", "content=nonconfig", m->path,
	    sizeof(m->path));
}

static int
ncn_learn_parse(const struct nb_opts *o, int status, const char *body,
    size_t len, uint64_t *out)
{
	json_error_t	 jerr;
	json_t		*j, *s, *v;

	(void)o;
	*out = 0;
	if (status < 200 || status > 299)
		return status == 404 ? 0 : -1;
	if ((j = json_loadb(body, len, 0, &jerr)) == NULL)
		return -1;
	s = json_object_get(j, "sbsim-netconf:netconf-stats");
	v = s ? json_object_get(s, "notification-prefixes") : NULL;
	if (json_is_integer(v) && json_integer_value(v) >= 0)
		*out = (uint64_t)json_integer_value(v);
	json_decref(j);
	return 0;
}

static const struct nb_driver ncn_learn_driver = {
	"odl", NULL, NULL, ncn_learn_count, ncn_learn_parse,
};

/* ---- options and the sequence ---- */

static char	ncn_topo_name[] = "topology-netconf";
static char	*ncn_topo_nodes[] = { ncn_topo_name };

void
nc_nb_defaults(struct nc_nb_cfg *c)
{
	memset(c, 0, sizeof(*c));
	nb_opts_defaults(&c->opts, ncn_drivers);
	c->batch = 1;
	c->edits_per_request = 1;
}

int
nc_nb_check(struct nc_sim *sim, char *err, size_t errlen)
{
	struct nc_nb_cfg	*c = &sim->nb;
	struct nc_config	*cfg = &sim->cfg;

	if (!(c->given & NB_GIVEN_ANY))
		return 0;
	/* The mount, edit and learn drivers build and read JSON only. */
	if (nb_check_json_driver(&c->opts, c->given, "--mount-batch and "
	    "--edits", "NETCONF", err, errlen) == -1)
		return -1;
	c->tcp_only = cfg->transport == NC_TR_TCP;
	c->dev_user = cfg->user ? cfg->user : "admin";
	c->dev_password = cfg->password ? cfg->password : "admin";
	if (c->edits > 0 && cfg->expect_edits == 0)
		cfg->expect_edits = (uint64_t)cfg->devices * c->edits;
	return 0;
}

/* A run's options: the parsed ones with the run's driver and items. */
static void
ncn_opts(struct nc_sim *sim, struct nb_opts *o, const struct nb_driver *d,
    uint64_t items, uint32_t per_request)
{
	*o = sim->nb.opts;
	o->driver = d;
	o->flows = items;
	o->per_request = per_request;
	o->timeout_s = sim->phase_timeout;
	o->ctx = &sim->nb;
}

static void
ncn_hook(void *arg, int deleting, uint64_t now)
{
	(void)arg;
	(void)deleting;
	(void)now;
}

/* The runs, their phases registered in report order. */
void
nc_nb_start(struct nc_sim *sim, struct metrics *m)
{
	struct nc_nb_cfg	*c = &sim->nb;
	struct nb_opts		 o;
	uint32_t		 i;

	if (c->opts.url == NULL)
		return;
	c->base_port = sim->pcfg.ep.port;
	c->dev_range = sim->pcfg.src.family != AF_UNSPEC ? &sim->pcfg.src :
	    NULL;
	ncn_opts(sim, &o, &ncn_mount_driver, sim->cfg.devices, c->batch);
	o.hold = 1;
	o.program_name = "nb_mount";
	o.confirm_name = "mounted";
	o.delete_name = "nb_unmount";
	o.confirm_delete_name = "unmounted";
	sim->nb_mount = nb_new(&o, m, ncn_topo_nodes, 1, ncn_hook, sim);
	if (c->edits > 0) {
		sim->nb_names = xcalloc(sim->cfg.devices,
		    sizeof(*sim->nb_names));
		for (i = 0; i < sim->cfg.devices; i++) {
			sim->nb_names[i] = xmalloc(NB_NODE_MAX);
			nc_nb_node_name(i, sim->nb_names[i], NB_NODE_MAX);
		}
		ncn_opts(sim, &o, &ncn_edit_driver, (uint64_t)sim->cfg.devices *
		    c->edits, c->edits_per_request);
		sim->nb_edit = nb_new(&o, m, sim->nb_names, sim->cfg.devices,
		    ncn_hook, sim);
	}
	if (sim->cfg.notifications > 0 && !c->no_learn) {
		ncn_opts(sim, &o, &ncn_learn_driver, (uint64_t)sim->cfg.devices *
		    sim->cfg.notifications * sim->cfg.prefixes, 1);
		o.watch = 1;
		o.confirm_name = "nb_learn";
		o.confirm_delete_name = "nb_learn_gone";
		sim->nb_learn = nb_new(&o, m, ncn_topo_nodes, 1, ncn_hook, sim);
	}
}

static int
ncn_phase_over(struct nc_sim *sim, const char *name)
{
	struct phase	*ph = metrics_find_phase(sim->m, name);

	return ph == NULL || ph->state == PHASE_DONE ||
	    ph->state == PHASE_TIMEOUT;
}

/* Mount, edit while mounted, wait for learning, unmount; 1 when done. */
int
nc_nb_tick(struct nc_sim *sim, uint64_t now)
{
	if (sim->nb_mount == NULL)
		return 1;
	switch (sim->nb_stage) {
	case 0:
		sim->nb_stage = 1;
		if (sim->nb_learn != NULL) {
			/* Watch mode: counted from the first mount on. */
			phase_start(metrics_find_phase(sim->m, "nb_learn"),
			    now);
			if (nb_begin_logged(sim->nb_learn, now) == -1)
				phase_end(metrics_find_phase(sim->m,
				    "nb_learn"), now, PHASE_TIMEOUT);
		}
		if (nb_begin_logged(sim->nb_mount, now) == -1)
			sim->nb_stage = 4;
		break;
	case 1:
		if (nb_tick(sim->nb_mount, now))
			sim->nb_stage = 4;	/* nothing was mounted */
		else if (nb_held(sim->nb_mount)) {
			sim->nb_stage = 2;
			if (sim->nb_edit != NULL &&
			    nb_begin_logged(sim->nb_edit, now) == -1)
				sim->nb_stage = 4;
		}
		break;
	case 2:
		if (sim->nb_edit != NULL && !nb_tick(sim->nb_edit, now))
			break;
		if (sim->nb_learn != NULL) {
			nb_tick(sim->nb_learn, now);
			if (!ncn_phase_over(sim, "nb_learn"))
				break;
		}
		sim->nb_stage = 3;
		nb_release(sim->nb_mount, now);
		break;
	case 3:
		if (nb_tick(sim->nb_mount, now))
			sim->nb_stage = 4;
		break;
	}
	if (sim->nb_learn != NULL && sim->nb_stage < 3)
		nb_tick(sim->nb_learn, now);
	return sim->nb_stage == 4;
}

void
nc_nb_stop(struct nc_sim *sim)
{
	uint32_t	i;

	nb_free(sim->nb_mount);
	nb_free(sim->nb_edit);
	nb_free(sim->nb_learn);
	sim->nb_mount = sim->nb_edit = sim->nb_learn = NULL;
	if (sim->nb_names != NULL)
		for (i = 0; i < sim->cfg.devices; i++)
			free(sim->nb_names[i]);
	free(sim->nb_names);
	sim->nb_names = NULL;
	sim->nb_stage = 0;
}
