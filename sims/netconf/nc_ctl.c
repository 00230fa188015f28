/*
 * The embedded controller's NETCONF client side (nc_ctl.h): nodes, their
 * mount state machine, the schema cache and the libyang contexts shared
 * by nodes with the same schemas, notifications; its role (options, the
 * summary) is nc_role.c.
 */
#include <sys/queue.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>
#include <libxml/tree.h>
#include <libyang/libyang.h>

#include "cli.h"
#include "engine.h"
#include "log.h"
#include "metrics.h"
#include "nc_ctl.h"

#define NCC_DEFAULT_INFLIGHT	256
#define NCC_RETRY_MAX_MS	60000
#define NCC_NS_ROUTES		"urn:sbsim:routes"

/* A schema text fetched once (RFC 6022 get-schema), by name@revision. */
struct ncc_schema {
	struct ncc_schema	*next;
	char			*name;
	char			*rev;		/* "" when none */
	char			*text;
};

/* The modules of a set of nodes and their one libyang context. */
struct nc_ctl_set {
	struct nc_ctl_set	*next;
	char			*key;		/* "a@r,b@r,..." sorted */
	struct ly_ctx		*ctx;
	int			 failed;
};

static struct ncc_state {
	struct nc_ctl_config	 cfg;
	struct nc_ctl_node_list	 nodes;
	TAILQ_HEAD(, nc_ctl_node)	 waitq;
	struct nc_ctl_node	*by_name;	/* uthash head */
	uint32_t		 active;
	uint32_t		 nstatus[3];
	struct ncc_schema	*schemas;
	struct nc_ctl_set	*sets;
	struct event		*tick;
	struct nc_ctl_stats	 st;
} ncc;

static const char *const ncc_status_names[] = {
	"connecting", "connected", "unable-to-connect",
};

static void	ncc_pump(void);
static void	ncc_start(struct nc_ctl_node *);

const char *
nc_ctl_status_name(enum nc_ctl_status s)
{
	return ncc_status_names[s];
}

const struct nc_ctl_stats *
nc_ctl_stats(void)
{
	return &ncc.st;
}

struct nc_ctl_node_list *
nc_ctl_nodes(void)
{
	return &ncc.nodes;
}

uint32_t
nc_ctl_count(enum nc_ctl_status s)
{
	return ncc.nstatus[s];
}

/* ---- nodes ---- */

struct nc_ctl_node *
nc_ctl_find(const char *name)
{
	struct nc_ctl_node	*n;

	HASH_FIND_STR(ncc.by_name, name, n);
	return n;
}

/* netconf-node-topology's defaults; no request timeout of the node's
 * own (0): --netconf-timeout's. */
static const struct nc_ctl_node_cfg ncc_node_default = {
	.port = 830, .between_ms = 2000, .sleep_factor = 1.5,
	.connect_timeout_ms = 20000, .keepalive_s = 120,
};

void
nc_ctl_cfg_defaults(struct nc_ctl_node_cfg *c)
{
	*c = ncc_node_default;
}

static void
ncc_set_status(struct nc_ctl_node *n, enum nc_ctl_status s)
{
	ncc.nstatus[n->status]--;
	n->status = s;
	ncc.nstatus[s]++;
}

static void
ncc_free_strv(char ***v, size_t *n)
{
	size_t	i;

	for (i = 0; i < *n; i++)
		free((*v)[i]);
	free(*v);
	*v = NULL;
	*n = 0;
}

/* The slot of a mount under way is free again. */
static void
ncc_release(struct nc_ctl_node *n)
{
	if (n->waiting) {
		TAILQ_REMOVE(&ncc.waitq, n, wait);
		n->waiting = 0;
	}
	if (n->active) {
		n->active = 0;
		ncc.active--;
	}
}

/* Drop the session and what it told us. */
static void
ncc_reset(struct nc_ctl_node *n)
{
	struct nc_cli	*c = n->cli;

	ncc_release(n);
	n->cli = NULL;
	if (c != NULL)
		nc_cli_free(c);
	if (n->retry != NULL)
		event_del(n->retry);
	ncc_free_strv(&n->caps, &n->ncaps);
	ncc_free_strv(&n->unavail, &n->nunavail);
	n->schemas_pending = 0;
	n->set = NULL;
}

static void
ncc_queue(struct nc_ctl_node *n)
{
	if (n->waiting || n->active)
		return;
	n->waiting = 1;
	TAILQ_INSERT_TAIL(&ncc.waitq, n, wait);
	ncc_pump();
}

struct nc_ctl_node *
nc_ctl_mount(const struct nc_ctl_node_cfg *cfg)
{
	struct nc_ctl_node	*n = nc_ctl_find(cfg->name);

	ncc.st.mounts++;
	if (ncc.st.first_mount_ns == 0)
		ncc.st.first_mount_ns = clock_ns();
	if (n != NULL) {
		/* The same configuration: nothing to do (a PUT again). */
		if (memcmp(&n->cfg, cfg, sizeof(*cfg)) == 0)
			return n;
		ncc_reset(n);
		ncc_set_status(n, NC_CTL_CONNECTING);
	} else {
		n = xcalloc(1, sizeof(*n));
		/* The key is the node's own copy of the name, which the
		 * assignment below rewrites with the same bytes. */
		memcpy(n->cfg.name, cfg->name, sizeof(n->cfg.name));
		HASH_ADD_STR(ncc.by_name, cfg.name, n);
		TAILQ_INSERT_TAIL(&ncc.nodes, n, entry);
		n->status = NC_CTL_CONNECTING;
		ncc.nstatus[NC_CTL_CONNECTING]++;
	}
	n->cfg = *cfg;
	n->attempts = 0;
	n->mount_ns = clock_ns();
	n->why[0] = '\0';
	ncc_queue(n);
	return n;
}

void
nc_ctl_unmount(struct nc_ctl_node *n)
{
	ncc.st.unmounts++;
	ncc_reset(n);
	HASH_DEL(ncc.by_name, n);
	TAILQ_REMOVE(&ncc.nodes, n, entry);
	ncc.nstatus[n->status]--;
	if (n->retry != NULL)
		event_free(n->retry);
	free(n);
	ncc_pump();
}

/* Start the nodes waiting while slots are free. */
static void
ncc_pump(void)
{
	struct nc_ctl_node	*n;

	while (ncc.active < ncc.cfg.max_inflight &&
	    (n = TAILQ_FIRST(&ncc.waitq)) != NULL) {
		TAILQ_REMOVE(&ncc.waitq, n, wait);
		n->waiting = 0;
		n->active = 1;
		ncc.active++;
		ncc_start(n);
	}
}

/* ---- the schema cache and contexts ---- */

static struct ncc_schema *
ncc_schema_find(const char *name, const char *rev)
{
	struct ncc_schema	*s;

	for (s = ncc.schemas; s != NULL; s = s->next)
		if (strcmp(s->name, name) == 0 && (rev == NULL ||
		    *rev == '\0' || strcmp(s->rev, rev) == 0))
			return s;
	return NULL;
}

static void
ncc_schema_add(const char *name, const char *rev, const char *text)
{
	struct ncc_schema	*s;

	if (ncc_schema_find(name, rev) != NULL)
		return;
	s = xcalloc(1, sizeof(*s));
	s->name = xstrdup(name);
	s->rev = xstrdup(rev ? rev : "");
	s->text = xstrdup(text);
	s->next = ncc.schemas;
	ncc.schemas = s;
}

/* libyang asks for an import or include: from the cache. */
static LY_ERR
ncc_imp_clb(const char *mod, const char *rev, const char *submod,
    const char *subrev, void *arg, LYS_INFORMAT *fmt, const char **data,
    ly_module_imp_data_free_clb *free_clb)
{
	struct ncc_schema	*s;

	(void)arg;
	s = ncc_schema_find(submod ? submod : mod, submod ? subrev : rev);
	if (s == NULL)
		return LY_ENOTFOUND;
	*fmt = LYS_IN_YANG;
	*data = s->text;
	*free_clb = NULL;
	return LY_SUCCESS;
}

static int
ncc_strcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The node's modules "name@rev", sorted; NULL-terminated, caller frees. */
static char **
ncc_modules(const struct nc_ctl_node *n, size_t *count)
{
	char	**v = xcalloc(n->ncaps + 1, sizeof(*v));
	char	  name[128], rev[32];
	size_t	  i, k = 0;

	for (i = 0; i < n->ncaps; i++) {
		if (nc_cap_param(n->caps[i], "module", name,
		    sizeof(name)) == -1)
			continue;
		if (nc_cap_param(n->caps[i], "revision", rev,
		    sizeof(rev)) == -1)
			rev[0] = '\0';
		xasprintf(&v[k++], "%s@%s", name, rev);
	}
	qsort(v, k, sizeof(*v), ncc_strcmp);
	*count = k;
	return v;
}

static int
ncc_ctx_load(struct ly_ctx *ctx, char *mod)
{
	const char		*feats[] = { "*", NULL };
	struct ncc_schema	*s;
	struct lys_module	*m;
	struct ly_in		*in;
	char			*at = strchr(mod, '@');
	LY_ERR			 e;

	*at = '\0';
	if (ly_ctx_get_module_implemented(ctx, mod) != NULL ||
	    (s = ncc_schema_find(mod, at + 1)) == NULL) {
		*at = '@';
		return 0;	/* built in, or a schema we could not get */
	}
	*at = '@';
	if (ly_in_new_memory(s->text, &in) != LY_SUCCESS)
		return -1;
	e = lys_parse(ctx, in, LYS_IN_YANG, feats, &m);
	ly_in_free(in, 0);
	if (e != LY_SUCCESS && e != LY_EEXIST) {
		log_warnx("netconf: schema %s does not compile: %s", mod,
		    ly_errmsg(ctx));
		return -1;
	}
	return 0;
}

static struct nc_ctl_set *
ncc_set_get(struct nc_ctl_node *n)
{
	struct nc_ctl_set	*set;
	char		**mods, *key = NULL, *k2;
	size_t		 nm, i;

	mods = ncc_modules(n, &nm);
	key = xstrdup("");
	for (i = 0; i < nm; i++) {
		xasprintf(&k2, "%s%s%s", key, i ? "," : "", mods[i]);
		free(key);
		key = k2;
	}
	for (set = ncc.sets; set != NULL; set = set->next)
		if (strcmp(set->key, key) == 0)
			break;
	if (set == NULL) {
		set = xcalloc(1, sizeof(*set));
		set->key = key;
		key = NULL;
		set->next = ncc.sets;
		ncc.sets = set;
		if (ly_ctx_new(NULL, LY_CTX_DISABLE_SEARCHDIRS,
		    &set->ctx) != LY_SUCCESS)
			set->failed = 1;
		else {
			ly_ctx_set_module_imp_clb(set->ctx, ncc_imp_clb, NULL);
			for (i = 0; i < nm && !set->failed; i++)
				if (ncc_ctx_load(set->ctx, mods[i]) == -1)
					set->failed = 1;
		}
		if (set->failed)
			ncc.st.context_errors++;
	}
	for (i = 0; i < nm; i++)
		free(mods[i]);
	free(mods);
	free(key);
	return set;
}

struct ly_ctx *
nc_ctl_ctx(struct nc_ctl_node *n)
{
	if (n->status != NC_CTL_CONNECTED)
		return NULL;
	if (n->set == NULL)
		n->set = ncc_set_get(n);
	return n->set->failed ? NULL : n->set->ctx;
}

/* ---- the mount state machine ---- */

static void
ncc_log_once(struct nc_ctl_node *n, const char *fmt, const char *what)
{
	if (n->logged)
		return;
	n->logged = 1;
	log_warnx(fmt, n->cfg.name, what);
}

static void
ncc_retry_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	ncc_queue(arg);
}

/* A session ended or never came up: retry or give up. */
static void
ncc_failed(struct nc_ctl_node *n, enum nc_cli_fail f, const char *why)
{
	struct timeval	tv;
	double		ms;

	snprintf(n->why, sizeof(n->why), "%s: %s", nc_cli_fail_name(f), why);
	ncc_reset(n);
	n->attempts++;
	if (f == NCC_FAIL_AUTH || (n->cfg.max_attempts != 0 &&
	    n->attempts >= n->cfg.max_attempts)) {
		ncc_set_status(n, NC_CTL_UNABLE);
		ncc_log_once(n, "netconf: node %s unable to connect: %s",
		    n->why);
		ncc_pump();
		return;
	}
	ncc_set_status(n, NC_CTL_CONNECTING);
	ms = n->cfg.between_ms * pow(n->cfg.sleep_factor > 1 ?
	    n->cfg.sleep_factor : 1, n->attempts - 1);
	if (ms > NCC_RETRY_MAX_MS)
		ms = NCC_RETRY_MAX_MS;
	tv.tv_sec = (time_t)(ms / 1000);
	tv.tv_usec = (suseconds_t)fmod(ms, 1000) * 1000;
	if (n->retry == NULL)
		n->retry = engine_timer_new(0, ncc_retry_cb, n);
	engine_timer_add(n->retry, &tv);
	ncc_pump();
}

static void
ncc_down(void *arg, enum nc_cli_fail f, const char *why)
{
	struct nc_ctl_node	*n = arg;

	switch (f) {
	case NCC_FAIL_CONNECT:	ncc.st.connect_failures++; break;
	case NCC_FAIL_AUTH:	ncc.st.auth_failures++; break;
	case NCC_FAIL_SSH:	ncc.st.ssh_failures++; break;
	case NCC_FAIL_HELLO:	ncc.st.hello_errors++; break;
	default:		ncc.st.sessions_lost++; break;
	}
	ncc_failed(n, f, why);
}

static void
ncc_bad(void *arg, const char *what)
{
	ncc.st.bad_messages++;
	ncc_log_once(arg, "netconf: node %s: %s", what);
}

/* RFC 5277 section 4: count the prefixes of sbsim-routes route-update. */
static void
ncc_notif(void *arg, const struct nc_notif *nt)
{
	struct nc_ctl_node	*n = arg;
	const char	*ns;
	xmlNodePtr	 c;
	uint64_t	 k = 0, now = clock_ns();

	ncc.st.notifications++;
	n->notifications++;
	if (nt->content == NULL || (ns = nc_node_ns(nt->content)) == NULL ||
	    strcmp(ns, NCC_NS_ROUTES) != 0 ||
	    xmlStrcmp(nt->content->name, BAD_CAST "route-update") != 0)
		return;
	for (c = nc_child_elem(nt->content); c != NULL; c = nc_next_elem(c))
		if (xmlStrcmp(c->name, BAD_CAST "prefix") == 0)
			k++;
	if (k == 0)
		return;
	n->prefixes += k;
	ncc.st.prefixes += k;
	if (ncc.st.first_prefix_ns == 0)
		ncc.st.first_prefix_ns = now;
	ncc.st.last_prefix_ns = now;
}

static void
ncc_rpc_failed(struct nc_ctl_node *n, const struct nc_reply *r,
    const char *what)
{
	if (r == NULL)
		ncc.st.rpc_timeouts++;
	else
		ncc.st.rpc_errors++;
	if (!n->logged) {
		n->logged = 1;
		log_warnx("netconf: node %s: %s %s", n->cfg.name, what,
		    r == NULL ? "got no reply" : r->errc > 0 &&
		    r->errv[0].message ? r->errv[0].message : "failed");
	}
}

static void
ncc_subscribed(void *arg, const struct nc_reply *r)
{
	struct nc_ctl_node	*n = arg;

	if (r == NULL || !r->ok)
		ncc_rpc_failed(n, r, "create-subscription");
	else
		ncc.st.subscriptions++;
}

static void
ncc_connected(struct nc_ctl_node *n)
{
	uint64_t	now = clock_ns();

	ncc_release(n);
	ncc_set_status(n, NC_CTL_CONNECTED);
	n->attempts = 0;
	n->connected_ns = now;
	ncc.st.connected++;
	ncc.st.last_connected_ns = now;
	if (ncc.cfg.subscribe && n->notification)
		nc_ctl_rpc(n, "<create-subscription xmlns=\"" NC_NS_NOTIF
		    "\"/>", ncc_subscribed, n);
	ncc_pump();
}

/* What ODL reads first: the schemas the device serves (RFC 6022). */
static void
ncc_got(void *arg, const struct nc_reply *r)
{
	struct nc_ctl_node	*n = arg;

	if (r == NULL) {
		if (n->cli == NULL)
			return;		/* the session was reset */
		ncc_rpc_failed(n, r, "get");
		ncc_failed(n, NCC_FAIL_CLOSED, "no reply to get");
		return;
	}
	if (!r->ok && r->data == NULL)
		ncc_rpc_failed(n, r, "get");
	ncc_connected(n);
}

static void
ncc_get(struct nc_ctl_node *n)
{
	if (n->cli == NULL)
		return;
	if (nc_cli_rpc(n->cli, "<get><filter type=\"subtree\"><netconf-state "
	    "xmlns=\"" NC_NS_MONITORING "\"><schemas/></netconf-state>"
	    "</filter></get>", ncc_got, n) == -1)
		ncc_failed(n, NCC_FAIL_CLOSED, "session gone");
}

struct ncc_fetch {
	struct nc_ctl_node	*node;
	char		 name[128];
	char		 rev[32];
	char		 cap[1];	/* the capability, for unavail */
};

static void
ncc_unavail(struct nc_ctl_node *n, const char *cap)
{
	n->unavail = xreallocarray(n->unavail, n->nunavail + 1,
	    sizeof(*n->unavail));
	n->unavail[n->nunavail++] = xstrdup(cap);
}

/* RFC 6022 section 3.1: get-schema's <data> is in the monitoring
 * namespace, not the base one. */
static xmlNodePtr
ncc_schema_data(const struct nc_reply *r)
{
	xmlNodePtr	root;

	if (r->data != NULL)
		return r->data;
	if (r->nerrors > 0 || (root = xmlDocGetRootElement(r->doc)) == NULL)
		return NULL;
	return nc_find_child(root, NC_NS_MONITORING, "data");
}

static void
ncc_fetched(void *arg, const struct nc_reply *r)
{
	struct ncc_fetch	*f = arg;
	struct nc_ctl_node	*n = f->node;
	xmlNodePtr		 data;
	xmlChar			*text;

	if (r == NULL && n->cli == NULL) {
		free(f);		/* the session was reset */
		return;
	}
	if (r != NULL && (data = ncc_schema_data(r)) != NULL &&
	    (text = xmlNodeGetContent(data)) != NULL) {
		if (*text != '\0') {
			ncc_schema_add(f->name, f->rev, (const char *)text);
			ncc.st.schemas_fetched++;
		} else
			ncc_unavail(n, f->cap);
		xmlFree(text);
	} else {
		ncc.st.schema_errors++;
		if (r != NULL)
			ncc_rpc_failed(n, r, "get-schema");
		ncc_unavail(n, f->cap);
	}
	free(f);
	if (n->schemas_pending > 0 && --n->schemas_pending == 0)
		ncc_get(n);
}

/* RFC 6022 section 3.1: <get-schema> of a module not cached yet. */
static void
ncc_fetch(struct nc_ctl_node *n, const char *cap)
{
	struct ncc_fetch	*f;
	char			 name[128], rev[32], op[512];

	if (nc_cap_param(cap, "module", name, sizeof(name)) == -1)
		return;
	if (nc_cap_param(cap, "revision", rev, sizeof(rev)) == -1)
		rev[0] = '\0';
	if (ncc_schema_find(name, rev) != NULL) {
		ncc.st.schema_cache_hits++;
		return;
	}
	f = xcalloc(1, sizeof(*f) + strlen(cap));
	f->node = n;
	memcpy(f->name, name, sizeof(name));
	memcpy(f->rev, rev, sizeof(rev));
	memcpy(f->cap, cap, strlen(cap) + 1);
	snprintf(op, sizeof(op), "<get-schema xmlns=\"" NC_NS_MONITORING
	    "\"><identifier>%s</identifier>%s%s%s<format>yang</format>"
	    "</get-schema>", name, rev[0] ? "<version>" : "", rev,
	    rev[0] ? "</version>" : "");
	n->schemas_pending++;
	if (nc_cli_rpc(n->cli, op, ncc_fetched, f) == -1) {
		n->schemas_pending--;
		free(f);
	}
}

static void
ncc_up(void *arg, const struct nc_hello *h)
{
	struct nc_ctl_node	*n = arg;
	size_t		 i;

	ncc.st.sessions++;
	n->caps = xcalloc(h->capc + 1, sizeof(*n->caps));
	for (i = 0; i < h->capc; i++)
		n->caps[i] = xstrdup(h->capv[i]);
	n->ncaps = h->capc;
	n->writable_running = (h->caps & NC_CAPF_WRITABLE_RUNNING) != 0;
	n->candidate = (h->caps & NC_CAPF_CANDIDATE) != 0;
	n->notification = (h->caps & NC_CAPF_NOTIFICATION) != 0;
	n->schemas_pending = 0;
	if (!n->cfg.schemaless)
		for (i = 0; i < n->ncaps && n->cli != NULL; i++)
			ncc_fetch(n, n->caps[i]);
	if (n->schemas_pending == 0)
		ncc_get(n);
}

static const struct nc_cli_ops ncc_ops = {
	ncc_up,
	ncc_notif,
	ncc_down,
	ncc_bad,
};

static void
ncc_start(struct nc_ctl_node *n)
{
	struct nc_cli_params	p;

	memset(&p, 0, sizeof(p));
	p.host = n->cfg.host;
	p.port = n->cfg.port;
	p.tcp_only = n->cfg.tcp_only;
	p.user = n->cfg.user;
	p.password = n->cfg.password;
	p.timeout_s = n->cfg.connect_timeout_ms / 1000.0;
	n->logged = 0;
	n->cli = nc_cli_new(&p, &ncc_ops, n);
}

int
nc_ctl_rpc(struct nc_ctl_node *n, const char *op_xml, nc_cli_reply_cb cb,
    void *arg)
{
	if (n->status != NC_CTL_CONNECTED || n->cli == NULL)
		return -1;
	return nc_cli_rpc(n->cli, op_xml, cb, arg);
}

void
nc_ctl_count_edit(struct nc_ctl_node *n, int ok)
{
	if (ok) {
		n->edits++;
		ncc.st.edits++;
	} else
		ncc.st.edit_errors++;
}

/* ---- the run ---- */

/* Every second: rpcs past --netconf-timeout (or the node's own). */
static void
ncc_tick(evutil_socket_t fd, short what, void *arg)
{
	struct nc_ctl_node	*n;
	uint64_t	 now = clock_ns(), in, out, tin = 0, tout = 0;
	double		 t;

	(void)fd;
	(void)what;
	(void)arg;
	TAILQ_FOREACH(n, &ncc.nodes, entry) {
		if (n->cli == NULL)
			continue;
		t = n->cfg.request_timeout_ms ? n->cfg.request_timeout_ms /
		    1000.0 : ncc.cfg.timeout_s;
		ncc.st.rpc_timeouts += nc_cli_expire(n->cli, now,
		    (uint64_t)(t * 1e9));
		nc_cli_bytes(n->cli, &in, &out);
		tin += in;
		tout += out;
	}
	ncc.st.bytes_in = tin;
	ncc.st.bytes_out = tout;
}

void
nc_ctl_config_defaults(struct nc_ctl_config *c)
{
	c->subscribe = 0;
	c->max_inflight = NCC_DEFAULT_INFLIGHT;
	c->timeout_s = 60;
}

void
nc_ctl_start(const struct nc_ctl_config *c, struct http_server *hs)
{
	struct timeval	tv = { 1, 0 };

	ncc.cfg = *c;
	TAILQ_INIT(&ncc.nodes);
	TAILQ_INIT(&ncc.waitq);
	/* libyang's messages reach the RESTCONF client, not stderr. */
	ly_log_options(LY_LOSTORE_LAST);
	ncc.tick = engine_timer_new(EV_PERSIST, ncc_tick, NULL);
	engine_timer_add(ncc.tick, &tv);
	nc_restconf_register();
	nc_restconf_rpcs(hs);
	log_info("netconf: mounting devices told through RESTCONF "
	    "topology-netconf%s", ncc.cfg.subscribe ? ", subscribing" : "");
}

/* Before the HTTP server goes: mount-point requests still waiting are
 * answered while their requests exist. */
void
nc_ctl_stop(void)
{
	struct nc_ctl_node	*n;
	struct ncc_schema	*s;
	struct nc_ctl_set	*set;

	nc_restconf_stop();
	while ((n = TAILQ_FIRST(&ncc.nodes)) != NULL)
		nc_ctl_unmount(n);
	/* The sessions' deferred frees run before the loop is freed. */
	event_base_loop(engine_base(), EVLOOP_NONBLOCK);
	while ((s = ncc.schemas) != NULL) {
		ncc.schemas = s->next;
		free(s->name);
		free(s->rev);
		free(s->text);
		free(s);
	}
	while ((set = ncc.sets) != NULL) {
		ncc.sets = set->next;
		if (set->ctx != NULL)
			ly_ctx_destroy(set->ctx);
		free(set->key);
		free(set);
	}
	if (ncc.tick != NULL)
		event_free(ncc.tick);
	ncc.tick = NULL;
	nc_cli_cleanup();
}
