/*
 * network-topology:network-topology/topology=topology-netconf as
 * OpenDaylight serves it (its netconf-node-topology model), on the shared
 * network-topology resource (rc_topology.h), both URL styles:
 *
 *   .../topology=topology-netconf            GET: every node; PATCH (plain
 *       merge, RFC 8040 section 4.6.1) or POST of a node list mounts
 *       them; PUT replaces the node set; DELETE unmounts every node
 *   .../topology=topology-netconf/node=NAME  PUT mounts (or remounts) one,
 *       PATCH merges into its configuration, DELETE unmounts, GET reads
 *   .../node=NAME/yang-ext:mount/MODULE:TOP/...   the mount point: GET
 *       is a get-config (content=config) or get, PUT/POST/PATCH/DELETE an
 *       edit-config (replace/create/merge/delete at the target), the JSON
 *       or XML body turned into the device's XML through libyang with
 *       the schemas fetched from the device
 *   .../topology=topology-netconf/sbsim-netconf:netconf-stats   sbsim's
 *       own totals (nodes per status, notifications, prefixes, edits)
 *
 * A node's configuration takes ODL's leaves, flat (older releases) or
 * inside netconf-node (newer ones): host, port, username and password
 * (or login-password-unencrypted / login-password), tcp-only,
 * keepalive-delay, max-connection-attempts,
 * between-attempts-timeout-millis, sleep-factor,
 * connection-timeout-millis, default-request-timeout-millis, schemaless.
 * Its operational view adds connection-status, available-capabilities,
 * unavailable-capabilities, connected-message (the last failure), and
 * sbsim-netconf:notifications, sbsim-netconf:notification-prefixes and
 * sbsim-netconf:edits (what this controller counted for the node).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/http.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libyang/libyang.h>

#include "log.h"
#include "nc_ctl.h"
#include "opt.h"
#include "rc_topology.h"
#include "restconf.h"

#define NCR_TOPOLOGY	"topology-netconf"
#define NCR_NNT		"netconf-node-topology"
#define NCR_SB		"sbsim-netconf"
#define NCR_MAX_ELEMS	16
#define NCR_XPATH_MAX	2048
#define NCR_MAX_KEYS	8

static const struct doc_module ncr_nnt_mod = {
	NCR_NNT, "urn:opendaylight:netconf-node-topology"
};
static const struct doc_module ncr_sb_mod = {
	NCR_SB, "urn:sbsim:netconf"
};

static const struct rc_list ncr_lists[] = {
	{ "node", 1 },
	{ NULL, 0 },
};

static uint64_t	ncr_bad_requests;

/* ---- writing nodes ---- */

/* A leaf of an augmenting module: qualified in JSON (RFC 7951 section
 * 4), in the enclosing namespace in XML. */
static const char *
ncr_name(const struct doc_writer *w, const struct doc_module *m,
    const char *name, char *q, size_t len)
{
	if (w->fmt != HTTP_FMT_JSON)
		return name;
	snprintf(q, len, "%s:%s", m->name, name);
	return q;
}

static void
ncr_leaf(struct doc_writer *w, const struct doc_module *m, const char *name,
    const char *v)
{
	char	q[128];

	doc_leaf_str(w, ncr_name(w, m, name, q, sizeof(q)), v);
}

static void
ncr_leaf_uint(struct doc_writer *w, const struct doc_module *m,
    const char *name, uint64_t v)
{
	char	q[128];

	doc_leaf_uint(w, ncr_name(w, m, name, q, sizeof(q)), v);
}

static void
ncr_caps(struct doc_writer *w, const char *name, char **v, size_t n,
    const char *origin)
{
	size_t	i;

	doc_container(w, &ncr_nnt_mod, name);
	doc_list(w, NULL, name[0] == 'a' ? "available-capability" :
	    "unavailable-capability");
	for (i = 0; i < n; i++) {
		doc_entry(w);
		doc_leaf_str(w, "capability", v[i]);
		if (origin != NULL)
			doc_leaf_str(w, "capability-origin", origin);
		else
			doc_leaf_str(w, "failure-reason", "unable-to-resolve");
		doc_end(w);
	}
	doc_end(w);
	doc_end(w);
}

static void
ncr_node_entry(struct doc_writer *w, const struct nc_ctl_node *n, int config)
{
	const struct nc_ctl_node_cfg	*c = &n->cfg;

	doc_entry(w);
	doc_leaf_str(w, "node-id", c->name);
	ncr_leaf(w, &ncr_nnt_mod, "host", c->host);
	ncr_leaf_uint(w, &ncr_nnt_mod, "port", c->port);
	if (config) {
		ncr_leaf(w, &ncr_nnt_mod, "username", c->user);
		ncr_leaf(w, &ncr_nnt_mod, "password", c->password);
		ncr_leaf(w, &ncr_nnt_mod, "tcp-only", c->tcp_only ? "true" :
		    "false");
		ncr_leaf_uint(w, &ncr_nnt_mod, "keepalive-delay",
		    c->keepalive_s);
		ncr_leaf_uint(w, &ncr_nnt_mod, "max-connection-attempts",
		    c->max_attempts);
		doc_end(w);
		return;
	}
	ncr_leaf(w, &ncr_nnt_mod, "connection-status",
	    nc_ctl_status_name(n->status));
	if (n->why[0] != '\0' && n->status != NC_CTL_CONNECTED)
		ncr_leaf(w, &ncr_nnt_mod, "connected-message", n->why);
	if (n->status == NC_CTL_CONNECTED) {
		ncr_caps(w, "available-capabilities", n->caps, n->ncaps,
		    "device-advertised");
		if (n->nunavail > 0)
			ncr_caps(w, "unavailable-capabilities", n->unavail,
			    n->nunavail, NULL);
	}
	ncr_leaf_uint(w, &ncr_sb_mod, "notifications", n->notifications);
	ncr_leaf_uint(w, &ncr_sb_mod, "notification-prefixes", n->prefixes);
	ncr_leaf_uint(w, &ncr_sb_mod, "edits", n->edits);
	doc_end(w);
}

/* The topology's entry: its id and nodes (rc_topology's entry writer). */
static void
ncr_entry(struct doc_writer *w, int config, void *arg)
{
	struct nc_ctl_node	*n;

	(void)arg;
	doc_entry(w);
	doc_leaf_str(w, "topology-id", NCR_TOPOLOGY);
	if (!TAILQ_EMPTY(nc_ctl_nodes())) {
		doc_list(w, NULL, "node");
		TAILQ_FOREACH(n, nc_ctl_nodes(), entry)
			ncr_node_entry(w, n, config);
		doc_end(w);
	}
	doc_end(w);
}

static void
ncr_get_node(struct rc_req *rq, const struct nc_ctl_node *n)
{
	struct doc_writer	 w;
	struct evbuffer		*b = rc_writer(rq, &w);

	doc_list(&w, &rc_nt_mod, "node");
	ncr_node_entry(&w, n, rq->content == RC_CONTENT_CONFIG);
	doc_end(&w);
	rc_send(rq, &w, b);
}

static void
ncr_get_stats(struct rc_req *rq)
{
	const struct nc_ctl_stats	*s = nc_ctl_stats();
	struct doc_writer		 w;
	struct evbuffer			*b = rc_writer(rq, &w);
	struct nc_ctl_node		*n;
	uint64_t			 nt = 0, px = 0;

	/* What the nodes mounted now have brought (the totals since the
	 * start are in the controller's summary). */
	TAILQ_FOREACH(n, nc_ctl_nodes(), entry) {
		nt += n->notifications;
		px += n->prefixes;
	}
	doc_container(&w, &ncr_sb_mod, "netconf-stats");
	doc_leaf_uint(&w, "connecting", nc_ctl_count(NC_CTL_CONNECTING));
	doc_leaf_uint(&w, "connected", nc_ctl_count(NC_CTL_CONNECTED));
	doc_leaf_uint(&w, "unable-to-connect", nc_ctl_count(NC_CTL_UNABLE));
	doc_leaf_uint(&w, "notifications", nt);
	doc_leaf_uint(&w, "notification-prefixes", px);
	doc_leaf_uint(&w, "edits", s->edits);
	doc_leaf_uint(&w, "edit-errors", s->edit_errors);
	doc_leaf_uint(&w, "schemas-fetched", s->schemas_fetched);
	doc_leaf_uint(&w, "schema-cache-hits", s->schema_cache_hits);
	doc_leaf_uint(&w, "bad-requests", ncr_bad_requests);
	doc_end(&w);
	rc_send(rq, &w, b);
}

/* ---- reading node configurations ---- */

static void
ncr_bad(struct http_req *h, const char *tag, const char *fmt, const char *a,
    const char *b)
{
	ncr_bad_requests++;
	http_error(h, 400, "protocol", tag, fmt, a, b);
}

/* A string leaf: 1 found (into out), 0 absent, -1 not a fitting leaf. */
static int
ncr_str(const struct doc_node *e, const char *name, char *out, size_t cap)
{
	struct doc_node	c;

	if (doc_child(e, name, &c) == -1)
		return 0;
	return doc_string(&c, out, cap) == -1 ? -1 : 1;
}

static int
ncr_uint(const struct doc_node *e, const char *name, uint64_t max,
    uint64_t *out)
{
	struct doc_node	c;

	if (doc_child(e, name, &c) == -1)
		return 0;
	return doc_uint(&c, max, out) == -1 ? -1 : 1;
}

static int
ncr_bool(const struct doc_node *e, const char *name, uint8_t *out)
{
	char	v[8];
	int	rc;

	if ((rc = ncr_str(e, name, v, sizeof(v))) != 1)
		return rc;
	if (strcmp(v, "true") != 0 && strcmp(v, "false") != 0)
		return -1;
	*out = v[0] == 't';
	return 1;
}

/* username/password flat, or in one of ODL's credential containers. */
static int
ncr_creds(const struct doc_node *e, struct nc_ctl_node_cfg *c)
{
	static const char *const boxes[] = { "login-password-unencrypted",
	    "login-password", "credentials", NULL };
	const char *const	*bx;
	struct doc_node		 box;

	if (ncr_str(e, "username", c->user, sizeof(c->user)) == -1 ||
	    ncr_str(e, "password", c->password, sizeof(c->password)) == -1)
		return -1;
	for (bx = boxes; *bx != NULL; bx++)
		if (doc_child(e, *bx, &box) == 0 && (ncr_str(&box, "username",
		    c->user, sizeof(c->user)) == -1 || ncr_str(&box,
		    "password", c->password, sizeof(c->password)) == -1))
			return -1;
	return 0;
}

/* netconf-node-topology's whole-number leaves, each with its range. */
#define NCR_NUM(leaf, lo, hi, field)					\
	{ leaf, lo, hi, offsetof(struct nc_ctl_node_cfg, field),	\
	  sizeof(((struct nc_ctl_node_cfg *)0)->field) }
static const struct ncr_num {
	const char	*leaf;
	uint64_t	 min, max;
	size_t		 off;
	uint8_t		 size;
} ncr_nums[] = {
	NCR_NUM("port", 1, 65535, port),
	NCR_NUM("keepalive-delay", 0, UINT32_MAX, keepalive_s),
	NCR_NUM("max-connection-attempts", 0, UINT32_MAX, max_attempts),
	NCR_NUM("between-attempts-timeout-millis", 0, 86400000, between_ms),
	NCR_NUM("connection-timeout-millis", 1, 86400000, connect_timeout_ms),
	NCR_NUM("default-request-timeout-millis", 0, 86400000,
	    request_timeout_ms),
};
#undef NCR_NUM

/* The numbers; the name of the bad one, NULL when all are fine. */
static const char *
ncr_numbers(const struct doc_node *e, struct nc_ctl_node_cfg *c)
{
	const struct ncr_num	*n;
	char			 s[32], *end;
	uint64_t		 u;
	int			 rc;

	for (n = ncr_nums; n < ncr_nums + nitems(ncr_nums); n++) {
		rc = ncr_uint(e, n->leaf, n->max, &u);
		if (rc == -1 || (rc == 1 && u < n->min))
			return n->leaf;
		if (rc == 1)
			opt_store_uint((char *)c + n->off, n->size, u);
	}
	if ((rc = ncr_str(e, "sleep-factor", s, sizeof(s))) == -1)
		return "sleep-factor";
	if (rc == 1) {
		c->sleep_factor = strtod(s, &end);
		if (*end != '\0' || c->sleep_factor < 1 ||
		    c->sleep_factor > 100)
			return "sleep-factor";
	}
	return NULL;
}

/*
 * One node entry into c (which holds the defaults, or the node's
 * configuration for a merge).  key: the node-id the URL gave (NULL: the
 * body must).  -1 after a 400.
 */
static int
ncr_node_cfg(struct http_req *h, const struct doc_node *e, const char *key,
    int merge, struct nc_ctl_node_cfg *c)
{
	struct doc_node	 nn;
	const struct doc_node *src = e;
	const char	*bad;
	char		 id[NC_CTL_NAME_MAX];
	int		 rc, hrc;

	if ((rc = ncr_str(e, "node-id", id, sizeof(id))) == -1 ||
	    (rc == 0 && key == NULL) || (rc == 1 && id[0] == '\0')) {
		ncr_bad(h, "missing-element", "A node needs a node-id of 1 to "
		    "%d characters%s", "63", "");
		return -1;
	}
	if (rc == 1 && key != NULL && strcmp(id, key) != 0) {
		ncr_bad(h, "invalid-value", "The node-id %s differs from the "
		    "key %s in the path", id, key);
		return -1;
	}
	snprintf(c->name, sizeof(c->name), "%s", rc == 1 ? id : key);
	/* Newer ODL releases put the leaves in a netconf-node container. */
	if (doc_child(e, "netconf-node", &nn) == 0)
		src = &nn;
	hrc = ncr_str(src, "host", c->host, sizeof(c->host));
	if (hrc == -1 || (hrc == 0 && !merge)) {
		ncr_bad(h, "missing-element", "Node %s needs a host (an IP "
		    "address)%s", c->name, "");
		return -1;
	}
	if ((bad = ncr_numbers(src, c)) != NULL ||
	    ncr_creds(src, c) == -1 ||
	    ncr_bool(src, "tcp-only", &c->tcp_only) == -1 ||
	    ncr_bool(src, "schemaless", &c->schemaless) == -1) {
		ncr_bad(h, "invalid-value", "Node %s: bad %s", c->name,
		    bad ? bad : "credentials, tcp-only or schemaless");
		return -1;
	}
	if (!merge && ncr_uint(src, "port", 65535, &(uint64_t){ 0 }) == 0) {
		ncr_bad(h, "missing-element", "Node %s needs a port%s",
		    c->name, "");
		return -1;
	}
	return 0;
}

/* ---- topology-netconf: mounting ---- */

/* The node entries of a body: a topology entry's nodes or a node list. */
static int
ncr_body_nodes(struct rc_req *rq, struct doc *d, struct doc_node *parent)
{
	struct doc_iter	 it;
	struct doc_node	 root, top;

	if (rq->http->body == NULL) {
		ncr_bad(rq->http, "malformed-message", "The request needs a "
		    "body%s%s", "", "");
		return -1;
	}
	if (rc_body(rq, d) == -1) {
		ncr_bad_requests++;
		return -1;
	}
	doc_root(d, &root);
	if (doc_child(&root, "node", &top) == 0) {
		*parent = root;
		return 0;
	}
	doc_iter_init(&it, &root, "topology");
	if (doc_iter_next(&it, &top) == 1 && doc_child(&top, "node",
	    &root) == 0) {
		*parent = top;
		return 0;
	}
	if (doc_child(&root, "topology", &top) == 0) {
		*parent = top;	/* a topology without nodes */
		return 0;
	}
	ncr_bad(rq->http, "malformed-message", "The body holds no node list "
	    "and no topology%s%s", "", "");
	doc_free(d);
	return -1;
}

/* Every node of the body checked first, then mounted: all or none. */
static void
ncr_write_nodes(struct rc_req *rq, const char *key, int method)
{
	struct doc		 d;
	struct doc_node		 parent, e;
	struct doc_iter		 it;
	struct nc_ctl_node_cfg	*cfgs = NULL;
	struct nc_ctl_node	*n, *next;
	size_t			 nc = 0, i;
	int			 merge = method == EVHTTP_REQ_PATCH, created = 0;

	if (ncr_body_nodes(rq, &d, &parent) == -1)
		return;
	doc_iter_init(&it, &parent, "node");
	while (doc_iter_next(&it, &e) == 1) {
		cfgs = xreallocarray(cfgs, nc + 1, sizeof(*cfgs));
		nc_ctl_cfg_defaults(&cfgs[nc]);
		if (merge && (n = nc_ctl_find(key ? key : "")) != NULL)
			cfgs[nc] = n->cfg;
		if (ncr_node_cfg(rq->http, &e, key, merge && key != NULL &&
		    nc_ctl_find(key) != NULL, &cfgs[nc]) == -1)
			goto out;
		if (method == EVHTTP_REQ_POST && nc_ctl_find(cfgs[nc].name)) {
			http_error(rq->http, 409, "application", "data-exists",
			    "Node %s is already mounted", cfgs[nc].name);
			goto out;
		}
		nc++;
	}
	if (key != NULL && nc != 1) {
		ncr_bad(rq->http, "malformed-message", "The body must hold "
		    "exactly one node, %s%s", key, "");
		goto out;
	}
	/* PUT of the topology: the node set becomes the body's. */
	if (key == NULL && method == EVHTTP_REQ_PUT)
		for (n = TAILQ_FIRST(nc_ctl_nodes()); n != NULL; n = next) {
			next = TAILQ_NEXT(n, entry);
			for (i = 0; i < nc; i++)
				if (strcmp(cfgs[i].name, n->cfg.name) == 0)
					break;
			if (i == nc)
				nc_ctl_unmount(n);
		}
	for (i = 0; i < nc; i++) {
		created |= nc_ctl_find(cfgs[i].name) == NULL;
		nc_ctl_mount(&cfgs[i]);
	}
	http_reply(rq->http, created || method == EVHTTP_REQ_POST ? 201 : 204,
	    NULL);
out:
	free(cfgs);
	doc_free(&d);
}

static void
ncr_topology(struct rc_req *rq)
{
	struct nc_ctl_node	*n;

	switch (rq->http->method) {
	case EVHTTP_REQ_GET:
	case EVHTTP_REQ_HEAD:
		rc_topology_reply(rq, ncr_entry, NULL);
		return;
	case EVHTTP_REQ_DELETE:
		while ((n = TAILQ_FIRST(nc_ctl_nodes())) != NULL)
			nc_ctl_unmount(n);
		http_reply(rq->http, 204, NULL);
		return;
	default:
		ncr_write_nodes(rq, NULL, rq->http->method);
	}
}

static void
ncr_node(struct rc_req *rq, const char *name)
{
	struct nc_ctl_node	*n = nc_ctl_find(name);

	switch (rq->http->method) {
	case EVHTTP_REQ_GET:
	case EVHTTP_REQ_HEAD:
		if (n == NULL)
			rc_data_missing(rq);
		else
			ncr_get_node(rq, n);
		return;
	case EVHTTP_REQ_DELETE:
		if (n == NULL) {
			rc_data_missing(rq);
			return;
		}
		nc_ctl_unmount(n);
		http_reply(rq->http, 204, NULL);
		return;
	case EVHTTP_REQ_POST:
		http_error(rq->http, 405, "protocol", "operation-not-supported",
		    "POST a node to the topology, not to a node");
		return;
	default:
		ncr_write_nodes(rq, name, rq->http->method);
	}
}

/* ---- netconf-node-topology's create-device and delete-device ---- */

static const struct doc_module ncr_nnt_rpc_mod = {
	NCR_NNT, "urn:opendaylight:netconf-node-topology"
};

/*
 * create-device: the input is a node's configuration (node-id, the
 * connection parameters, one of the rpc-credentials containers), written
 * into topology-netconf as a PUT of the node writes it: the device is
 * mounted, or remounted when it was there with another configuration.
 */
static void
ncr_create_device(struct http_req *h, const struct doc_node *in,
    int rfc8040, int op)
{
	struct nc_ctl_node_cfg	cfg;

	(void)op;
	nc_ctl_cfg_defaults(&cfg);
	if (ncr_node_cfg(h, in, NULL, 0, &cfg) == -1)
		return;
	nc_ctl_mount(&cfg);
	rc_rpc_empty(h, rfc8040, &ncr_nnt_rpc_mod);
}

/* delete-device: the node leaves topology-netconf and is unmounted; a
 * node that is not there is no error (the datastore's delete of missing
 * data succeeds, and so does the operation in ODL). */
static void
ncr_delete_device(struct http_req *h, const struct doc_node *in,
    int rfc8040, int op)
{
	struct nc_ctl_node	*n;
	char		 id[NC_CTL_NAME_MAX];

	(void)op;
	if (ncr_str(in, "node-id", id, sizeof(id)) != 1 || id[0] == '\0') {
		ncr_bad(h, "missing-element", "delete-device needs a node-id "
		    "of 1 to %s characters%s", "63", "");
		return;
	}
	if ((n = nc_ctl_find(id)) != NULL)
		nc_ctl_unmount(n);
	rc_rpc_empty(h, rfc8040, &ncr_nnt_rpc_mod);
}

static const struct rc_rpc ncr_rpcs[] = {
	{ NCR_NNT, "create-device", ncr_create_device, 0 },
	{ NCR_NNT, "delete-device", ncr_delete_device, 0 },
};

void
nc_restconf_rpcs(struct http_server *hs)
{
	rc_rpc_register(hs, ncr_rpcs, nitems(ncr_rpcs));
}

/* ---- the mount point ---- */

/* One element of a path into the mounted schema. */
struct ncr_elem {
	const struct lysc_node	*sn;
	const char		*keyv[NCR_MAX_KEYS];
	size_t			 nkeys;
};

struct ncr_mpath {
	struct ncr_elem	 e[NCR_MAX_ELEMS];
	size_t		 n;
	char		 xpath[NCR_XPATH_MAX];
	size_t		 parent_len;	/* xpath of e[0..n-2] */
	char		 mem[4096];
	size_t		 used;
};

static char *
ncr_mp_decode(struct ncr_mpath *mp, const char *raw, size_t len)
{
	char	*s;

	if (len + 1 > sizeof(mp->mem) - mp->used)
		return NULL;
	s = mp->mem + mp->used;
	if (http_pct_decode(raw, len, s, len + 1) == -1)
		return NULL;
	mp->used += len + 1;
	return s;
}

static int
ncr_xp_add(struct ncr_mpath *mp, const char *fmt, const char *a,
    const char *b)
{
	size_t	len = strlen(mp->xpath);
	int	n;

	n = snprintf(mp->xpath + len, sizeof(mp->xpath) - len, fmt, a, b);
	return n < 0 || (size_t)n >= sizeof(mp->xpath) - len ? -1 : 0;
}

/* A list's keys in the xpath ([k='v'], RFC 7950 section 14). */
static int
ncr_mp_keys(struct ncr_mpath *mp, struct ncr_elem *el, char *err,
    size_t errlen)
{
	const struct lysc_node	*k;
	size_t			 i = 0;
	const char		*q;

	for (k = lysc_node_child(el->sn); k != NULL && lysc_is_key(k);
	    k = k->next, i++) {
		if (i >= el->nkeys)
			break;
		q = strchr(el->keyv[i], '\'') ? "\"" : "'";
		if (strchr(el->keyv[i], q[0]) != NULL) {
			snprintf(err, errlen, "key value %s cannot be quoted",
			    el->keyv[i]);
			return -1;
		}
		if (ncr_xp_add(mp, "[%s=", k->name, "") == -1 ||
		    ncr_xp_add(mp, "%s%s", q, el->keyv[i]) == -1 ||
		    ncr_xp_add(mp, "%s]", q, "") == -1)
			return -1;
	}
	if (i != el->nkeys || (k != NULL && lysc_is_key(k))) {
		snprintf(err, errlen, "list %s needs %zu key%s", el->sn->name,
		    i + (k != NULL && lysc_is_key(k)), "(s)");
		return -1;
	}
	return 0;
}

static size_t
ncr_nkeys(const struct lysc_node *sn)
{
	const struct lysc_node	*k;
	size_t			 n = 0;

	if (sn->nodetype != LYS_LIST)
		return 0;
	for (k = lysc_node_child(sn); k != NULL && lysc_is_key(k); k = k->next)
		n++;
	return n;
}

/* One segment: [module:]name[=keys] (RFC 8040 section 3.5.3) or, in the
 * draft style, the name with its keys in the next segments. */
static int
ncr_mp_elem(struct ly_ctx *ctx, struct ncr_mpath *mp,
    const struct http_path *hp, size_t *i, enum rc_style style,
    char *err, size_t errlen)
{
	struct ncr_elem		*el = &mp->e[mp->n];
	const struct lysc_node	*parent = mp->n ? mp->e[mp->n - 1].sn : NULL;
	const struct lys_module	*mod;
	const char		*raw = hp->raw[*i], *eq, *k, *c;
	char			*name, *colon;
	size_t			 want;

	eq = style == RC_STYLE_RFC8040 ? strchr(raw, '=') : NULL;
	if ((name = ncr_mp_decode(mp, raw, eq ? (size_t)(eq - raw) :
	    strlen(raw))) == NULL)
		goto bad;
	if ((colon = strchr(name, ':')) != NULL)
		*colon = '\0';
	if (colon == NULL && parent == NULL) {
		snprintf(err, errlen, "%s: the first node of a mount point "
		    "path needs its module", name);
		return -1;
	}
	mod = colon ? ly_ctx_get_module_implemented(ctx, name) :
	    parent->module;
	if (mod == NULL || (el->sn = lys_find_child(parent, mod, colon ?
	    colon + 1 : name, 0, 0, 0)) == NULL) {
		snprintf(err, errlen, "%s%s%s is not in the device's schema",
		    name, colon ? ":" : "", colon ? colon + 1 : "");
		return -1;
	}
	for (k = eq ? eq + 1 : NULL; k != NULL; k = c ? c + 1 : NULL) {
		c = strchr(k, ',');
		if (el->nkeys == NCR_MAX_KEYS ||
		    (el->keyv[el->nkeys++] = ncr_mp_decode(mp, k, c ?
		    (size_t)(c - k) : strlen(k))) == NULL)
			goto bad;
	}
	want = ncr_nkeys(el->sn);
	if (style == RC_STYLE_DRAFT)
		for (; el->nkeys < want && *i + 1 < hp->n; el->nkeys++)
			el->keyv[el->nkeys] = hp->seg[++*i];
	mp->parent_len = strlen(mp->xpath);
	if (ncr_xp_add(mp, "/%s:%s", el->sn->module->name, el->sn->name) ==
	    -1 || ncr_mp_keys(mp, el, err, errlen) == -1)
		return -1;
	mp->n++;
	return 0;
bad:
	snprintf(err, errlen, "bad path segment '%s'", raw);
	return -1;
}

static int
ncr_mpath_parse(struct ly_ctx *ctx, const struct rc_req *rq,
    struct ncr_mpath *mp, char *err, size_t errlen)
{
	const struct http_path	*hp = &rq->http->path;
	size_t			 i;

	memset(mp, 0, sizeof(*mp));
	for (i = rq->path.mount_seg; i < hp->n; i++) {
		if (mp->n == NCR_MAX_ELEMS) {
			snprintf(err, errlen, "the path is too deep");
			return -1;
		}
		if (ncr_mp_elem(ctx, mp, hp, &i, rq->style, err, errlen) == -1)
			return -1;
	}
	return 0;
}

/* A request waiting for the device. */
struct ncr_op {
	struct http_server	*server;
	struct evhttp_request	*ev;
	enum http_fmt		 fmt;
	const char		*type;
	enum evhttp_cmd_type	 method;
	struct ly_ctx		*ctx;
	char			 node[NC_CTL_NAME_MAX];
	char			 xpath[NCR_XPATH_MAX];
	int			 commit;	/* candidate: commit next */
};

/* The reply to the waiting HTTP request. */
static void
ncr_op_reply(struct ncr_op *op, int status, struct evbuffer *body,
    const char *tag, const char *msg)
{
	struct http_req	*h = xcalloc(1, sizeof(*h));

	h->server = op->server;
	h->ev = op->ev;
	h->reply_fmt = op->fmt;
	h->reply_type = op->type;
	if (tag != NULL)
		http_error(h, status, status == 400 ? "protocol" :
		    "application", tag, "%s", msg);
	else
		http_reply(h, status, body);
	free(h);
}

/* RFC 8040 section 7: error-tag to status. */
static int
ncr_tag_status(enum nc_err_tag t)
{
	switch (t) {
	case NC_ERR_IN_USE:
	case NC_ERR_LOCK_DENIED:
	case NC_ERR_RESOURCE_DENIED:
	case NC_ERR_DATA_EXISTS:
	case NC_ERR_DATA_MISSING:
		return 409;
	case NC_ERR_TOO_BIG:
		return 413;
	case NC_ERR_ACCESS_DENIED:
		return 403;
	case NC_ERR_OPERATION_NOT_SUPPORTED:
		return 405;
	case NC_ERR_OPERATION_FAILED:
	case NC_ERR_ROLLBACK_FAILED:
	case NC_ERR_PARTIAL_OPERATION:
	case NC_ERR_TAG_UNKNOWN:
		return 500;
	default:
		return 400;
	}
}

/* No reply, or an rpc-error: answered; 0 when the reply is ok. */
static int
ncr_op_failed(struct ncr_op *op, const struct nc_reply *r)
{
	const struct nc_rpc_err	*e;

	if (r == NULL) {
		ncr_op_reply(op, 503, NULL, "resource-denied", "The device "
		    "did not answer: its session went down or the time ran "
		    "out");
		return 1;
	}
	if (r->nerrors == 0)
		return 0;
	e = &r->errv[0];
	ncr_op_reply(op, ncr_tag_status(e->tag), NULL, e->tag_str ?
	    e->tag_str : "operation-failed", e->message ? e->message :
	    "The device answered with an rpc-error");
	return 1;
}

static void
ncr_edited(void *arg, const struct nc_reply *r)
{
	struct ncr_op	*op = arg;
	struct nc_ctl_node	*n = nc_ctl_find(op->node);
	int		 failed = ncr_op_failed(op, r);

	if (n != NULL && (failed || !op->commit))
		nc_ctl_count_edit(n, !failed);
	if (!failed && op->commit && n != NULL) {
		/* RFC 6241 section 8.3.4.1. */
		op->commit = 0;
		if (nc_ctl_rpc(n, "<commit/>", ncr_edited, op) == 0)
			return;
		ncr_op_reply(op, 503, NULL, "resource-denied", "The session "
		    "went down before the commit");
	} else if (!failed)
		ncr_op_reply(op, op->method == EVHTTP_REQ_POST ? 201 : 204,
		    NULL, NULL, NULL);
	free(op);
}

/* The data of a get reply, as libyang data. */
static struct lyd_node *
ncr_reply_tree(struct ly_ctx *ctx, const struct nc_reply *r)
{
	struct lyd_node	*tree = NULL;
	xmlBufferPtr	 b;
	xmlNodePtr	 c;

	if (r->data == NULL || (b = xmlBufferCreate()) == NULL)
		return NULL;
	for (c = r->data->children; c != NULL; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			xmlNodeDump(b, c->doc, c, 0, 0);
	if (lyd_parse_data_mem(ctx, (const char *)xmlBufferContent(b),
	    LYD_XML, LYD_PARSE_ONLY | LYD_PARSE_OPAQ, 0, &tree) !=
	    LY_SUCCESS)
		tree = NULL;
	xmlBufferFree(b);
	return tree;
}

static void
ncr_read(void *arg, const struct nc_reply *r)
{
	struct ncr_op	*op = arg;
	struct lyd_node	*tree, *match = NULL;
	struct evbuffer	*b;
	char		*out = NULL;

	if (ncr_op_failed(op, r)) {
		free(op);
		return;
	}
	tree = ncr_reply_tree(op->ctx, r);
	if (tree == NULL || lyd_find_path(tree, op->xpath, 0, &match) !=
	    LY_SUCCESS || match == NULL)
		ncr_op_reply(op, 404, NULL, "data-missing", "Request could not "
		    "be completed because the relevant data model content "
		    "does not exist");
	else if (lyd_print_mem(&out, match, op->fmt == HTTP_FMT_XML ?
	    LYD_XML : LYD_JSON, LYD_PRINT_SHRINK) != LY_SUCCESS)
		ncr_op_reply(op, 500, NULL, "operation-failed", "The data "
		    "could not be printed");
	else {
		if ((b = evbuffer_new()) == NULL)
			fatalx("evbuffer_new");
		evbuffer_add(b, out, strlen(out));
		ncr_op_reply(op, 200, b, NULL, NULL);
		evbuffer_free(b);
	}
	free(out);
	lyd_free_all(tree);
	free(op);
}

/* The whole datastore of the reply, as a GET of the mount point's root
 * answers it: NETCONF's data element in XML, RFC 8040 section 3.5.3's
 * ietf-restconf:data in JSON; empty when the device holds nothing. */
static int
ncr_root_body(struct ncr_op *op, const struct nc_reply *r,
    struct evbuffer *b)
{
	struct lyd_node	*tree = ncr_reply_tree(op->ctx, r);
	char		*out = NULL;
	int		 xml = op->fmt == HTTP_FMT_XML;

	if (tree == NULL && xmlFirstElementChild(r->data) != NULL)
		return -1;	/* data the schema could not read */
	if (tree != NULL && lyd_print_mem(&out, tree, xml ? LYD_XML :
	    LYD_JSON, LYD_PRINT_SHRINK | LYD_PRINT_WITHSIBLINGS) !=
	    LY_SUCCESS) {
		lyd_free_all(tree);
		return -1;
	}
	if (xml)
		evbuffer_add_printf(b, "<data xmlns=\"" NC_NS_BASE "\">%s"
		    "</data>", out != NULL ? out : "");
	else
		evbuffer_add_printf(b, "{\"ietf-restconf:data\":%s}",
		    out != NULL ? out : "{}");
	free(out);
	lyd_free_all(tree);
	return 0;
}

static void
ncr_read_root(void *arg, const struct nc_reply *r)
{
	struct ncr_op	*op = arg;
	struct evbuffer	*b;

	if (ncr_op_failed(op, r)) {
		free(op);
		return;
	}
	if ((b = evbuffer_new()) == NULL)
		fatalx("evbuffer_new");
	if (r->data == NULL || ncr_root_body(op, r, b) == -1)
		ncr_op_reply(op, 500, NULL, "operation-failed", "The device's "
		    "data could not be read");
	else
		ncr_op_reply(op, 200, b, NULL, NULL);
	evbuffer_free(b);
	free(op);
}

static struct ncr_op *
ncr_op_new(struct rc_req *rq, struct nc_ctl_node *n, struct ly_ctx *ctx)
{
	struct ncr_op	*op = xcalloc(1, sizeof(*op));
	struct http_req	*h = rq->http;

	/* RFC 8040 section 5.2: its own media types unless others named. */
	op->server = h->server;
	op->ev = h->ev;
	op->fmt = h->reply_fmt;
	op->type = h->reply_type;
	op->method = h->method;
	op->ctx = ctx;
	snprintf(op->node, sizeof(op->node), "%s", n->cfg.name);
	return op;
}

/* GET: get-config (content=config) or get, filtered to the top node;
 * the mount point itself: the whole datastore, unfiltered. */
static void
ncr_mount_get(struct rc_req *rq, struct nc_ctl_node *n, struct ly_ctx *ctx,
    const struct ncr_mpath *mp)
{
	struct ncr_op	*op;
	char		 xml[512], filter[384] = "";
	int		 config = rq->content == RC_CONTENT_CONFIG;

	if (mp->n > 0)
		snprintf(filter, sizeof(filter), "<filter type=\"subtree\">"
		    "<%s xmlns=\"%s\"/></filter>", mp->e[0].sn->name,
		    mp->e[0].sn->module->ns);
	snprintf(xml, sizeof(xml), "<%s>%s%s</%s>", config ? "get-config" :
	    "get", config ? "<source><running/></source>" : "", filter,
	    config ? "get-config" : "get");
	op = ncr_op_new(rq, n, ctx);
	memcpy(op->xpath, mp->xpath, sizeof(op->xpath));
	if (nc_ctl_rpc(n, xml, mp->n > 0 ? ncr_read : ncr_read_root,
	    op) == -1) {
		free(op);
		http_error(rq->http, 503, "application", "resource-denied",
		    "Node %s has no session", n->cfg.name);
		return;
	}
	rq->http->replied = 1;	/* ncr_read answers */
}

/* The XML element of the target in the printed config: walk names and
 * key leaves as the path gives them. */
static xmlNodePtr
ncr_xml_target(xmlNodePtr root, const struct ncr_mpath *mp)
{
	const struct lysc_node	*k;
	xmlNodePtr		 cur = root, x, kc;
	size_t			 i, j;
	const char		*t;
	int			 ok;

	for (i = 0; i < mp->n; i++) {
		for (x = cur; x != NULL; x = x->next) {
			if (x->type != XML_ELEMENT_NODE || xmlStrcmp(x->name,
			    BAD_CAST mp->e[i].sn->name) != 0)
				continue;
			ok = 1;
			k = lysc_node_child(mp->e[i].sn);
			for (j = 0; j < mp->e[i].nkeys && ok; j++, k = k->next) {
				kc = nc_find_child(x, NULL, k->name);
				t = kc ? nc_leaf_text(kc) : NULL;
				ok = t != NULL && strcmp(t,
				    mp->e[i].keyv[j]) == 0;
			}
			if (ok)
				break;
		}
		if (x == NULL)
			return NULL;
		if (i + 1 == mp->n)
			return x;
		cur = x->children;
	}
	return NULL;
}

static int
ncr_is_key(const struct lysc_node *list, const xmlChar *name)
{
	const struct lysc_node	*k;

	if (list == NULL || list->nodetype != LYS_LIST)
		return 0;
	for (k = lysc_node_child(list); k != NULL && lysc_is_key(k);
	    k = k->next)
		if (xmlStrcmp(name, BAD_CAST k->name) == 0)
			return 1;
	return 0;
}

/* POST (RFC 8040 section 4.4.1): the body's nodes are created, below
 * the target (its keys excepted). */
static void
ncr_mark_children(xmlNodePtr t, const struct lysc_node *sn,
    const char *operation)
{
	xmlNodePtr	c;
	xmlNsPtr	ns;

	for (c = t->children; c != NULL; c = c->next) {
		if (c->type != XML_ELEMENT_NODE || ncr_is_key(sn, c->name))
			continue;
		ns = xmlNewNs(c, BAD_CAST NC_NS_BASE, BAD_CAST "nc");
		xmlNewNsProp(c, ns, BAD_CAST "operation", BAD_CAST operation);
	}
}

/* The edit-config's <config> content: the tree printed as XML, the
 * target marked with nc:operation (RFC 6241 section 7.2). */
static char *
ncr_config_xml(struct lyd_node *tree, const struct ncr_mpath *mp,
    const char *operation, int post, char *err, size_t errlen)
{
	xmlDocPtr	 doc;
	xmlNodePtr	 t, c;
	xmlNsPtr	 ns;
	xmlBufferPtr	 b;
	char		*out = NULL, *wrapped, *res;

	if (lyd_print_mem(&out, tree, LYD_XML, LYD_PRINT_WITHSIBLINGS |
	    LYD_PRINT_SHRINK) != LY_SUCCESS || out == NULL) {
		snprintf(err, errlen, "the data could not be printed");
		free(out);
		return NULL;
	}
	if (operation == NULL)
		return out;
	xasprintf(&wrapped, "<c>%s</c>", out);
	free(out);
	doc = xmlReadMemory(wrapped, (int)strlen(wrapped), NULL, NULL,
	    XML_PARSE_NONET);
	free(wrapped);
	t = doc != NULL ? xmlDocGetRootElement(doc) : NULL;
	if (t != NULL && mp->n > 0)
		t = ncr_xml_target(t->children, mp);
	if (t == NULL) {
		snprintf(err, errlen, "the body does not hold the node the "
		    "path names");
		xmlFreeDoc(doc);
		return NULL;
	}
	if (post)
		ncr_mark_children(t, mp->n ? mp->e[mp->n - 1].sn : NULL,
		    operation);
	else {
		ns = xmlNewNs(t, BAD_CAST NC_NS_BASE, BAD_CAST "nc");
		xmlNewNsProp(t, ns, BAD_CAST "operation", BAD_CAST operation);
	}
	if ((b = xmlBufferCreate()) == NULL)
		fatalx("xmlBufferCreate");
	for (c = xmlDocGetRootElement(doc)->children; c != NULL; c = c->next)
		xmlNodeDump(b, doc, c, 0, 0);
	res = xstrdup((const char *)xmlBufferContent(b));
	xmlBufferFree(b);
	xmlFreeDoc(doc);
	return res;
}

/* The request body as data below the path's parent (PUT, PATCH) or the
 * path itself (POST); DELETE: the target alone. */
static struct lyd_node *
ncr_body_tree(struct rc_req *rq, struct ly_ctx *ctx,
    const struct ncr_mpath *mp, char *err, size_t errlen)
{
	struct lyd_node	*top = NULL, *parent = NULL;
	struct ly_in	*in;
	char		 px[NCR_XPATH_MAX], *body;
	size_t		 plen = rq->http->method == EVHTTP_REQ_POST ?
			    strlen(mp->xpath) : mp->parent_len;
	LY_ERR		 e;

	if (rq->http->method == EVHTTP_REQ_DELETE) {
		if (lyd_new_path(NULL, ctx, mp->xpath, NULL, 0, &top) !=
		    LY_SUCCESS)
			snprintf(err, errlen, "%s", ly_errmsg(ctx));
		return top;
	}
	memcpy(px, mp->xpath, plen);
	px[plen] = '\0';
	if (plen > 0 && (lyd_new_path(NULL, ctx, px, NULL, 0, &top) !=
	    LY_SUCCESS || lyd_find_path(top, px, 0, &parent) !=
	    LY_SUCCESS)) {
		snprintf(err, errlen, "%s", ly_errmsg(ctx));
		lyd_free_all(top);
		return NULL;
	}
	body = xmalloc(rq->http->body_len + 1);
	memcpy(body, rq->http->body, rq->http->body_len);
	body[rq->http->body_len] = '\0';
	if (ly_in_new_memory(body, &in) != LY_SUCCESS)
		fatalx("ly_in_new_memory");
	e = lyd_parse_data(ctx, parent, in, rq->http->body_fmt ==
	    HTTP_FMT_XML ? LYD_XML : LYD_JSON, LYD_PARSE_ONLY |
	    LYD_PARSE_STRICT, 0, parent ? NULL : &top);
	ly_in_free(in, 0);
	free(body);
	if (e != LY_SUCCESS || top == NULL) {
		snprintf(err, errlen, "%s", e != LY_SUCCESS ?
		    ly_errmsg(ctx) : "no data in the body");
		lyd_free_all(top);
		return NULL;
	}
	return top;
}

static void
ncr_mount_write(struct rc_req *rq, struct nc_ctl_node *n, struct ly_ctx *ctx,
    const struct ncr_mpath *mp)
{
	enum evhttp_cmd_type	 m = rq->http->method;
	const char		*opn = m == EVHTTP_REQ_PUT ? "replace" :
				    m == EVHTTP_REQ_POST ? "create" :
				    m == EVHTTP_REQ_DELETE ? "delete" : NULL;
	struct lyd_node		*tree;
	struct ncr_op		*op;
	char			 err[512], *cfg, *xml;

	err[0] = '\0';
	if ((m != EVHTTP_REQ_DELETE && rq->http->body == NULL) ||
	    (m != EVHTTP_REQ_POST && mp->n == 0)) {
		ncr_bad(rq->http, "malformed-message", "%s",
		    m == EVHTTP_REQ_POST || mp->n > 0 ?
		    "The request needs a body" : "Name a node of "
		    "the device's schema after yang-ext:mount", "");
		return;
	}
	if ((tree = ncr_body_tree(rq, ctx, mp, err, sizeof(err))) == NULL ||
	    (cfg = ncr_config_xml(tree, mp, opn, m == EVHTTP_REQ_POST, err,
	    sizeof(err))) == NULL) {
		lyd_free_all(tree);
		ncr_bad(rq->http, "invalid-value", "Error parsing input: %s%s",
		    err, "");
		return;
	}
	lyd_free_all(tree);
	op = ncr_op_new(rq, n, ctx);
	op->commit = !n->writable_running && n->candidate;
	xasprintf(&xml, "<edit-config><target><%s/></target><config>%s"
	    "</config></edit-config>", op->commit ? "candidate" : "running",
	    cfg);
	free(cfg);
	if (nc_ctl_rpc(n, xml, ncr_edited, op) == -1) {
		free(op);
		http_error(rq->http, 503, "application", "resource-denied",
		    "Node %s has no session", n->cfg.name);
	} else
		rq->http->replied = 1;	/* ncr_edited answers */
	free(xml);
}

static void
ncr_mount_point(struct rc_req *rq, const char *name)
{
	struct nc_ctl_node	*n = nc_ctl_find(name);
	struct ly_ctx		*ctx;
	struct ncr_mpath	*mp;
	char			 err[256];

	if (n == NULL) {
		rc_data_missing(rq);
		return;
	}
	if (n->status != NC_CTL_CONNECTED) {
		http_error(rq->http, 409, "application", "resource-denied",
		    "Node %s is %s", name, nc_ctl_status_name(n->status));
		return;
	}
	if ((ctx = nc_ctl_ctx(n)) == NULL) {
		http_error(rq->http, 500, "application", "operation-failed",
		    "The schemas of node %s could not be loaded", name);
		return;
	}
	mp = xmalloc(sizeof(*mp));
	if (ncr_mpath_parse(ctx, rq, mp, err, sizeof(err)) == -1)
		ncr_bad(rq->http, "invalid-value", "Bad path: %s%s", err, "");
	else if (rq->http->method & (EVHTTP_REQ_GET | EVHTTP_REQ_HEAD))
		ncr_mount_get(rq, n, ctx, mp);
	else
		ncr_mount_write(rq, n, ctx, mp);
	free(mp);
}

/* ---- dispatch ---- */

static void
ncr_handle(struct rc_req *rq, void *arg)
{
	const struct rc_path	*p = &rq->path;

	(void)arg;
	if (p->mount_seg != 0) {
		if (p->n == 4 && rc_elem_is(&p->e[2], "node") &&
		    p->e[2].nkeys == 1)
			ncr_mount_point(rq, p->e[2].key[0]);
		else
			rc_unknown(rq, &p->e[p->n - 1]);
		return;
	}
	if (p->n == 2) {
		ncr_topology(rq);
		return;
	}
	if (p->n == 3 && rc_elem_is(&p->e[2], "node") && p->e[2].nkeys == 1) {
		ncr_node(rq, p->e[2].key[0]);
		return;
	}
	if (p->n == 3 && rc_elem_is(&p->e[2], "netconf-stats")) {
		if (rq->http->method & (EVHTTP_REQ_GET | EVHTTP_REQ_HEAD))
			ncr_get_stats(rq);
		else
			rc_read_only(rq);
		return;
	}
	rc_unknown(rq, &p->e[p->n - 1]);
}

static const struct rc_topology ncr_topo = {
	.id = NCR_TOPOLOGY, .lists = ncr_lists, .fn = ncr_handle,
	.entry = ncr_entry,
};

void
nc_restconf_register(void)
{
	rc_topology_register(&ncr_topo);
}

void
nc_restconf_stop(void)
{
}
