/*
 * NETCONF datastores on libyang 2: schema contexts shared by devices,
 * per-device running and candidate trees, <edit-config>, subtree and
 * XPath filters, locks, commit, and <get-schema> (RFC 6241, RFC 6022).
 */
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libyang/libyang.h>

#include "log.h"
#include "nc_store.h"

#define NC_NS_BASE	"urn:ietf:params:xml:ns:netconf:base:1.0"
#define NC_NS_MON	"urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring"

/* Marks in lyd_node.priv while a filter selects (RFC 6241 6.2). */
#define MARK_PATH	((void *)1)	/* an ancestor of selected data */
#define MARK_FULL	((void *)2)	/* the whole subtree is selected */

/* One advertised module and its <get-schema> texts, made on demand. */
struct nc_modinfo {
	const struct lys_module	*mod;
	char			*yang;
	char			*yin;
};

struct nc_schema {
	struct ly_ctx		*ctx;
	int			 refs;
	int			 flags;
	struct nc_modinfo	*mods;
	size_t			 n_mods;
	char			**caps;		/* NULL-terminated */
	size_t			 n_caps;
	struct lyd_node		*state;		/* netconf-state/schemas */
	char			*schemas_xml;
};

struct nc_store {
	struct nc_schema	*schema;
	struct lyd_node		*ds[NC_DS_MAX];
	uint32_t		 lock[NC_DS_MAX];
	uint8_t			 cand_dirty;	/* ds[CANDIDATE] is its own */
};

/* Edit operations (RFC 6241 section 7.2); OP_NONE only as a default. */
enum edit_op { OP_NONE, OP_MERGE, OP_REPLACE, OP_CREATE, OP_DELETE,
	OP_REMOVE };

struct edit_ctx {
	struct nc_store		*st;
	struct lyd_node		**root;
	const struct lys_module	*ncmod;
	enum nc_errop		 errop;
	struct nc_error		*errs;
	struct nc_error		**tail;
	struct nc_edit_result	*res;
};

/* ---- errors ---- */

static struct nc_error *nc_error_new(const char *, const char *,
	    const char *, ...) __attribute__((format(printf, 3, 4)));

static struct nc_error *
nc_error_new(const char *type, const char *tag, const char *fmt, ...)
{
	struct nc_error *e;
	va_list ap;

	e = xcalloc(1, sizeof(*e));
	e->type = type;
	e->tag = tag;
	e->severity = "error";
	if (fmt != NULL) {
		va_start(ap, fmt);
		if (vasprintf(&e->message, fmt, ap) == -1)
			fatal("vasprintf");
		va_end(ap);
	}
	return e;
}

void
nc_error_free(struct nc_error *e)
{
	struct nc_error *next;

	for (; e != NULL; e = next) {
		next = e->next;
		free(e->app_tag);
		free(e->path);
		free(e->message);
		free(e->bad_element);
		free(e);
	}
}

static int
name_index(const char *s, const char *const *names)
{
	int i;

	if (s == NULL)
		return -1;
	for (i = 0; names[i] != NULL; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

/* The first "quoted" word of s, or NULL. */
static char *
quoted(const char *s, const char *after)
{
	const char *p, *q;

	if (s == NULL)
		return NULL;
	if (after != NULL && (s = strstr(s, after)) == NULL)
		return NULL;
	if ((p = strchr(s, '"')) == NULL || (q = strchr(p + 1, '"')) == NULL)
		return NULL;
	return strndup(p + 1, q - p - 1);
}

/* Map an app-tag libyang reports (RFC 7950 section 15) to its tag. */
static const char *
apptag_tag(const char *apptag)
{
	if (strcmp(apptag, "instance-required") == 0 ||
	    strcmp(apptag, "missing-choice") == 0)
		return "data-missing";
	return "operation-failed";
}

/* Map libyang's last error to an rpc-error (RFC 6241 Appendix A). */
static struct nc_error *
error_from_ly(const struct ly_ctx *ctx, const char *what)
{
	struct ly_err_item *le = ly_err_last(ctx);
	struct nc_error *e;
	const char *msg = le && le->msg ? le->msg : "unknown error";
	const char *tag = "invalid-value", *type = "application";

	if (le == NULL)
		tag = "operation-failed";
	else if (le->apptag != NULL)
		tag = apptag_tag(le->apptag);
	else if (le->vecode == LYVE_SYNTAX || le->vecode == LYVE_SYNTAX_XML) {
		tag = "malformed-message";
		type = "rpc";
	} else if (strstr(msg, "No module with namespace") != NULL ||
	    strstr(msg, "Unknown XML prefix") != NULL)
		tag = "unknown-namespace";
	else if (strncmp(msg, "Node \"", 6) == 0 &&
	    strstr(msg, "not found") != NULL)
		tag = "unknown-element";
	else if (strstr(msg, "missing its key") != NULL ||
	    strncmp(msg, "Mandatory node", 14) == 0)
		tag = "missing-element";
	else if (strstr(msg, "Annotation definition") != NULL)
		tag = "unknown-attribute";
	else if (le->vecode != LYVE_DATA && le->vecode != LYVE_REFERENCE &&
	    le->vecode != LYVE_XPATH)
		tag = "operation-failed";
	e = nc_error_new(type, tag, "%s%s%s", what ? what : "",
	    what ? ": " : "", msg);
	if (le != NULL && le->apptag != NULL)
		e->app_tag = xstrdup(le->apptag);
	if (le != NULL && le->path != NULL) {
		e->path = quoted(le->path, "location");
	}
	if (strcmp(tag, "unknown-element") == 0 ||
	    strcmp(tag, "missing-element") == 0)
		e->bad_element = quoted(msg, NULL);
	return e;
}

/* ---- schema ---- */

static int
yang_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Module names (file names without @rev and .yang) in dir, sorted. */
static char **
dir_modules(const char *dir, size_t *n)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL, *at;
	size_t len;

	*n = 0;
	if ((d = opendir(dir)) == NULL) {
		log_warn("netconf: %s", dir);
		return NULL;
	}
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (len <= 5 || strcmp(de->d_name + len - 5, ".yang") != 0)
			continue;
		names = xreallocarray(names, *n + 1, sizeof(*names));
		names[*n] = strndup(de->d_name, len - 5);
		if (names[*n] == NULL)
			fatal("strndup");
		if ((at = strchr(names[*n], '@')) != NULL)
			*at = '\0';
		(*n)++;
	}
	closedir(d);
	if (names != NULL)
		qsort(names, *n, sizeof(*names), yang_name_cmp);
	return names;
}

static int
load_module(struct ly_ctx *ctx, const char *name, int flags)
{
	static const char *all[] = { "*", NULL };
	static const char *nc[] = { "writable-running", "rollback-on-error",
	    "validate", "xpath", NULL };
	static const char *nc_cand[] = { "writable-running", "candidate",
	    "rollback-on-error", "validate", "xpath", NULL };
	const char **feat = all;

	if (strcmp(name, "ietf-netconf") == 0)
		feat = (flags & NC_SCHEMA_CANDIDATE) ? nc_cand : nc;
	if (ly_ctx_load_module(ctx, name, NULL, feat) == NULL) {
		log_warnx("netconf: YANG module %s: %s", name,
		    ly_err_last(ctx) ? ly_err_last(ctx)->msg : "not loaded");
		return -1;
	}
	return 0;
}

static int
load_dir(struct ly_ctx *ctx, const char *dir, int flags)
{
	char **names;
	size_t i, n;
	int rc = 0;

	if ((names = dir_modules(dir, &n)) == NULL)
		return -1;
	for (i = 0; i < n && rc == 0; i++)
		if (i == 0 || strcmp(names[i], names[i - 1]) != 0)
			rc = load_module(ctx, names[i], flags);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

static int
mod_listed(const struct nc_schema *s, const struct lys_module *m)
{
	size_t i;

	for (i = 0; i < s->n_mods; i++)
		if (s->mods[i].mod == m)
			return 1;
	return 0;
}

static void
mod_add(struct nc_schema *s, const struct lys_module *m)
{
	LY_ARRAY_COUNT_TYPE u;

	if (mod_listed(s, m))
		return;
	s->mods = xreallocarray(s->mods, s->n_mods + 1, sizeof(*s->mods));
	memset(&s->mods[s->n_mods], 0, sizeof(*s->mods));
	s->mods[s->n_mods++].mod = m;
	/* What an advertised module imports must be retrievable too. */
	LY_ARRAY_FOR(m->parsed->imports, u)
		mod_add(s, m->parsed->imports[u].module);
}

/* Advertise modules read from files and, transitively, their imports. */
static void
collect_modules(struct nc_schema *s)
{
	const struct lys_module *m;
	uint32_t idx = 0;

	while ((m = ly_ctx_get_module_iter(s->ctx, &idx)) != NULL)
		if (m->implemented && m->filepath != NULL)
			mod_add(s, m);
}

/* RFC 6020 section 5.6.4: NS?module=M[&revision=R][&features=a,b]. */
static char *
capability(const struct lys_module *m)
{
	const struct lysp_feature *f = NULL;
	uint32_t idx = 0;
	char *cap, *tmp;
	int first = 1;

	xasprintf(&cap, "%s?module=%s%s%s", m->ns, m->name,
	    m->revision ? "&revision=" : "", m->revision ? m->revision : "");
	while ((f = lysp_feature_next(f, m->parsed, &idx)) != NULL) {
		if (!(f->flags & LYS_FENABLED))
			continue;
		xasprintf(&tmp, "%s%s%s", cap, first ? "&features=" : ",",
		    f->name);
		free(cap);
		cap = tmp;
		first = 0;
	}
	return cap;
}

static int
state_add(struct nc_schema *s, const struct lys_module *m, const char *fmt)
{
	char *path;
	LY_ERR rc;

	xasprintf(&path, "/ietf-netconf-monitoring:netconf-state/schemas/"
	    "schema[identifier='%s'][version='%s']"
	    "[format='ietf-netconf-monitoring:%s']/namespace", m->name,
	    m->revision ? m->revision : "", fmt);
	rc = lyd_new_path(s->state, s->ctx, path, m->ns, 0,
	    s->state ? NULL : &s->state);
	free(path);
	if (rc != LY_SUCCESS)
		return -1;
	xasprintf(&path, "/ietf-netconf-monitoring:netconf-state/schemas/"
	    "schema[identifier='%s'][version='%s']"
	    "[format='ietf-netconf-monitoring:%s']/location", m->name,
	    m->revision ? m->revision : "", fmt);
	rc = lyd_new_path(s->state, s->ctx, path, "NETCONF", 0, NULL);
	free(path);
	return rc == LY_SUCCESS ? 0 : -1;
}

/* The RFC 6022 schema list: every advertised module, as YANG and YIN. */
static int
build_state(struct nc_schema *s)
{
	size_t i;

	if (ly_ctx_get_module_implemented(s->ctx,
	    "ietf-netconf-monitoring") == NULL)
		return 0;
	for (i = 0; i < s->n_mods; i++)
		if (state_add(s, s->mods[i].mod, "yang") == -1 ||
		    state_add(s, s->mods[i].mod, "yin") == -1)
			return -1;
	if (lyd_print_mem(&s->schemas_xml, s->state, LYD_XML,
	    LYD_PRINT_WITHSIBLINGS | LYD_PRINT_SHRINK) != LY_SUCCESS)
		return -1;
	return 0;
}

struct nc_schema *
nc_schema_new(const char *dir, const char *std_dir, int flags)
{
	struct nc_schema *s;
	size_t i;

	ly_log_options(LY_LOSTORE_LAST);
	s = xcalloc(1, sizeof(*s));
	s->refs = 1;
	s->flags = flags;
	if (ly_ctx_new(dir, LY_CTX_NO_YANGLIBRARY |
	    LY_CTX_DISABLE_SEARCHDIR_CWD, &s->ctx) != LY_SUCCESS) {
		log_warnx("netconf: cannot make a YANG context for %s", dir);
		free(s);
		return NULL;
	}
	if (std_dir != NULL && strcmp(std_dir, dir) != 0)
		ly_ctx_set_searchdir(s->ctx, std_dir);
	if (load_dir(s->ctx, dir, flags) == -1)
		goto fail;
	if (!ly_ctx_get_module_implemented(s->ctx, "ietf-netconf") &&
	    load_module(s->ctx, "ietf-netconf", flags) == -1)
		goto fail;
	if (!ly_ctx_get_module_implemented(s->ctx,
	    "ietf-netconf-monitoring") &&
	    load_module(s->ctx, "ietf-netconf-monitoring", flags) == -1)
		goto fail;
	collect_modules(s);
	s->caps = xcalloc(s->n_mods + 1, sizeof(*s->caps));
	for (i = 0; i < s->n_mods; i++)
		s->caps[s->n_caps++] = capability(s->mods[i].mod);
	if (build_state(s) == -1) {
		log_warnx("netconf: schema list: %s",
		    ly_err_last(s->ctx) ? ly_err_last(s->ctx)->msg : "?");
		goto fail;
	}
	return s;
fail:
	s->refs = 1;
	nc_schema_unref(s);
	return NULL;
}

static struct nc_schema *
nc_schema_ref(struct nc_schema *s)
{
	s->refs++;
	return s;
}

void
nc_schema_unref(struct nc_schema *s)
{
	size_t i;

	if (s == NULL || --s->refs > 0)
		return;
	for (i = 0; i < s->n_mods; i++) {
		free(s->mods[i].yang);
		free(s->mods[i].yin);
	}
	for (i = 0; i < s->n_caps; i++)
		free(s->caps[i]);
	free(s->caps);
	free(s->mods);
	free(s->schemas_xml);
	lyd_free_all(s->state);
	ly_ctx_destroy(s->ctx);
	free(s);
}

struct ly_ctx *
nc_schema_ctx(const struct nc_schema *s)
{
	return s->ctx;
}

const char *const *
nc_schema_capabilities(const struct nc_schema *s, size_t *n)
{
	if (n != NULL)
		*n = s->n_caps;
	return (const char *const *)s->caps;
}

const char *
nc_schema_schemas_xml(const struct nc_schema *s)
{
	return s->schemas_xml ? s->schemas_xml : "";
}

/* The file the module came from, verbatim, or libyang's printout. */
static char *
module_text(const struct lys_module *m, int yin)
{
	FILE *f;
	char *text = NULL;
	size_t len = 0;

	if (!yin && m->filepath != NULL && (f = fopen(m->filepath, "r"))) {
		FILE *mem = open_memstream(&text, &len);
		char buf[8192];
		size_t r;

		if (mem == NULL)
			fatal("open_memstream");
		while ((r = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, r, mem);
		fclose(f);
		fclose(mem);
		return text;
	}
	if (lys_print_mem(&text, m, yin ? LYS_OUT_YIN : LYS_OUT_YANG, 0))
		return NULL;
	return text;
}

struct nc_error *
nc_schema_get_schema(struct nc_schema *s, const char *id,
    const char *version, const char *format, const char **text)
{
	struct nc_modinfo *mi = NULL;
	const char *colon;
	char **slot;
	size_t i;
	int yin;

	*text = NULL;
	if (format != NULL && (colon = strchr(format, ':')) != NULL)
		format = colon + 1;
	if (format != NULL && strcmp(format, "yang") && strcmp(format, "yin"))
		return nc_error_new("application", "invalid-value",
		    "schema format %s not supported", format);
	yin = format != NULL && strcmp(format, "yin") == 0;
	for (i = 0; id != NULL && i < s->n_mods; i++) {
		const struct lys_module *m = s->mods[i].mod;

		if (strcmp(m->name, id) != 0)
			continue;
		if (version != NULL && *version != '\0' &&
		    strcmp(version, m->revision ? m->revision : "") != 0)
			continue;
		mi = &s->mods[i];
		break;
	}
	/* RFC 6022 section 3.1: no such schema is invalid-value. */
	if (mi == NULL)
		return nc_error_new("application", "invalid-value",
		    "no schema %s%s%s", id ? id : "", version ? "@" : "",
		    version ? version : "");
	slot = yin ? &mi->yin : &mi->yang;
	if (*slot == NULL && (*slot = module_text(mi->mod, yin)) == NULL)
		return nc_error_new("application", "operation-failed",
		    "schema %s cannot be printed", id);
	*text = *slot;
	return NULL;
}

/* ---- store ---- */

struct nc_store *
nc_store_new(struct nc_schema *schema)
{
	struct nc_store *st;

	st = xcalloc(1, sizeof(*st));
	st->schema = nc_schema_ref(schema);
	return st;
}

void
nc_store_free(struct nc_store *st)
{
	if (st == NULL)
		return;
	lyd_free_all(st->ds[NC_DS_RUNNING]);
	if (st->cand_dirty)
		lyd_free_all(st->ds[NC_DS_CANDIDATE]);
	nc_schema_unref(st->schema);
	free(st);
}

int
nc_store_has_candidate(const struct nc_store *st)
{
	return (st->schema->flags & NC_SCHEMA_CANDIDATE) != 0;
}

/* Candidate shares running's tree until it is edited (copy on write). */
static struct lyd_node *
ds_tree(const struct nc_store *st, enum nc_ds ds)
{
	if (ds == NC_DS_CANDIDATE && !st->cand_dirty)
		return st->ds[NC_DS_RUNNING];
	return st->ds[ds];
}

static size_t
count_entries(const struct lyd_node *tree)
{
	const struct lyd_node *top, *n;
	size_t c = 0;

	LY_LIST_FOR(tree, top) {
		LYD_TREE_DFS_BEGIN(top, n) {
			if (n->schema != NULL &&
			    (n->schema->nodetype & (LYS_LIST | LYS_LEAFLIST)))
				c++;
			LYD_TREE_DFS_END(top, n);
		}
	}
	return c;
}

size_t
nc_store_count(const struct nc_store *st, enum nc_ds ds)
{
	return count_entries(ds_tree(st, ds));
}

static struct nc_error *
check_ds(const struct nc_store *st, enum nc_ds ds)
{
	if (ds == NC_DS_RUNNING ||
	    (ds == NC_DS_CANDIDATE && nc_store_has_candidate(st)))
		return NULL;
	return nc_error_new("protocol", "invalid-value",
	    "datastore not supported");
}

/* An error that names the session holding a lock (<session-id>). */
static struct nc_error *
with_sid(struct nc_error *e, uint32_t sid)
{
	e->session_id = sid;
	return e;
}

/* A lock another session holds (RFC 6241 section 7.5) bars writes. */
static struct nc_error *
check_lock(const struct nc_store *st, uint32_t sid, enum nc_ds ds)
{
	if (st->lock[ds] == 0 || st->lock[ds] == sid)
		return NULL;
	return with_sid(nc_error_new("protocol", "in-use",
	    "the %s datastore is locked by session %u",
	    ds == NC_DS_RUNNING ? "running" : "candidate", st->lock[ds]),
	    st->lock[ds]);
}

/* ---- filters ---- */

static void
mark(struct ly_set *marked, struct lyd_node *n, void *how)
{
	if (n->priv == MARK_FULL || n->priv == how)
		return;
	if (n->priv == NULL)
		ly_set_add(marked, n, 1, NULL);
	n->priv = how;
}

static void
mark_up(struct ly_set *marked, struct lyd_node *n)
{
	struct lyd_node *p;

	for (p = lyd_parent(n); p != NULL; p = lyd_parent(p))
		mark(marked, p, MARK_PATH);
}

static int
xml_is_blank(const xmlChar *s)
{
	for (; s != NULL && *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
			return 0;
	return 1;
}

static int
xml_has_elements(const xmlNode *x)
{
	for (x = x->children; x != NULL; x = x->next)
		if (x->type == XML_ELEMENT_NODE)
			return 1;
	return 0;
}

/* Same element: local name and, when the filter gives one, namespace. */
static int
same_node(const xmlNode *f, const struct lyd_node *d)
{
	if (d->schema == NULL || strcmp((const char *)f->name,
	    d->schema->name) != 0)
		return 0;
	return f->ns == NULL || f->ns->href == NULL ||
	    strcmp((const char *)f->ns->href, d->schema->module->ns) == 0;
}

static int
content_equal(const struct lyd_node *d, const char *val)
{
	if (!(d->schema->nodetype & (LYS_LEAF | LYS_LEAFLIST)))
		return 0;
	if (strcmp(lyd_get_value(d), val) == 0)
		return 1;
	return lyd_value_compare((const struct lyd_node_term *)d, val,
	    strlen(val)) == LY_SUCCESS;
}

/* Trimmed text of a content match node. */
static char *
xml_text(const xmlNode *f)
{
	xmlChar *c = xmlNodeGetContent(f);
	char *s, *b, *e;

	b = (char *)c;
	while (*b == ' ' || *b == '\t' || *b == '\n' || *b == '\r')
		b++;
	e = b + strlen(b);
	while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' ||
	    e[-1] == '\r'))
		e--;
	s = strndup(b, e - b);
	xmlFree(c);
	if (s == NULL)
		fatal("strndup");
	return s;
}

static int filter_level(struct ly_set *, struct lyd_node *, struct lyd_node *,
    const xmlNode *);

/*
 * Content match nodes (RFC 6241 section 6.2.5): every one must match a
 * child of the parent; returns 1 when all do, marking the matched leaves
 * when mark_them is set.
 */
static int
content_match(struct ly_set *marked, struct lyd_node *first,
    const xmlNode *fl, int mark_them)
{
	const xmlNode *f;
	struct lyd_node *d;
	char *val;
	int found;

	for (f = fl; f != NULL; f = f->next) {
		if (f->type != XML_ELEMENT_NODE || xml_has_elements(f) ||
		    xml_is_blank(f->children ? f->children->content : NULL))
			continue;
		val = xml_text(f);
		found = 0;
		LY_LIST_FOR(first, d) {
			if (!same_node(f, d) || !content_equal(d, val))
				continue;
			found = 1;
			if (mark_them)
				mark(marked, d, MARK_FULL);
		}
		free(val);
		if (!found)
			return 0;
	}
	return 1;
}

/*
 * Apply the filter siblings fl to the data siblings starting at first
 * (the children of parent, or the top level when parent is NULL).
 * Returns 1 when anything was selected.
 */
static int
filter_level(struct ly_set *marked, struct lyd_node *parent,
    struct lyd_node *first, const xmlNode *fl)
{
	const xmlNode *f;
	struct lyd_node *d;
	int n_cm = 0, n_other = 0, any = 0;

	for (f = fl; f != NULL; f = f->next) {
		if (f->type != XML_ELEMENT_NODE)
			continue;
		if (!xml_has_elements(f) && !xml_is_blank(f->children ?
		    f->children->content : NULL))
			n_cm++;
		else
			n_other++;
	}
	if (n_cm && !content_match(marked, first, fl, 0))
		return 0;
	if (n_cm && !n_other && parent != NULL) {
		/* Only content matches: the whole parent is selected. */
		mark(marked, parent, MARK_FULL);
		return 1;
	}
	if (n_cm)
		any = content_match(marked, first, fl, 1);
	for (f = fl; f != NULL; f = f->next) {
		if (f->type != XML_ELEMENT_NODE ||
		    (!xml_has_elements(f) && !xml_is_blank(f->children ?
		    f->children->content : NULL)))
			continue;
		LY_LIST_FOR(first, d) {
			if (!same_node(f, d))
				continue;
			if (!xml_has_elements(f)) {	/* selection node */
				mark(marked, d, MARK_FULL);
				any = 1;
			} else if (filter_level(marked, d, lyd_child(d),
			    f->children))
				any = 1;
		}
	}
	if (any && parent != NULL)
		mark(marked, parent, MARK_PATH);
	return any;
}

/* Copy what is marked into a new tree. */
static int
build_marked(const struct lyd_node *first, struct lyd_node *oparent,
    struct lyd_node **out)
{
	const struct lyd_node *d;
	struct lyd_node *dup;
	uint32_t opts;

	LY_LIST_FOR(first, d) {
		if (d->priv == NULL || (oparent && lysc_is_key(d->schema)))
			continue;
		opts = LYD_DUP_WITH_FLAGS | LYD_DUP_NO_META;
		if (d->priv == MARK_FULL)
			opts |= LYD_DUP_RECURSIVE;
		if (lyd_dup_single(d, (struct lyd_node_inner *)oparent, opts,
		    &dup) != LY_SUCCESS)
			return -1;
		if (oparent == NULL)
			lyd_insert_sibling(*out, dup, out);
		if (d->priv == MARK_PATH &&
		    build_marked(lyd_child(d), dup, out) == -1)
			return -1;
	}
	return 0;
}

static void
unmark(struct ly_set *marked)
{
	uint32_t i;

	for (i = 0; i < marked->count; i++)
		marked->dnodes[i]->priv = NULL;
	ly_set_free(marked, NULL);
}

static struct nc_error *
subtree_marks(struct ly_set *marked, struct lyd_node *tree, const char *text)
{
	xmlDoc *doc;
	xmlNode *root, *fl;
	char *wrapped;

	xasprintf(&wrapped, "<f>%s</f>", text);
	doc = xmlReadMemory(wrapped, strlen(wrapped), NULL, NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	free(wrapped);
	if (doc == NULL)
		return nc_error_new("rpc", "malformed-message",
		    "the subtree filter is not well-formed XML");
	root = xmlDocGetRootElement(doc);
	fl = root->children;
	/* The <filter> element itself may be given. */
	while (fl != NULL && fl->type != XML_ELEMENT_NODE)
		fl = fl->next;
	if (fl != NULL && strcmp((const char *)fl->name, "filter") == 0)
		fl = fl->children;
	else
		fl = root->children;
	filter_level(marked, NULL, tree, fl);
	xmlFreeDoc(doc);
	return NULL;
}

static int
is_ncname(int c, int first)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
		return 1;
	return !first && ((c >= '0' && c <= '9') || c == '-' || c == '.');
}

/* Replace XML prefixes in an XPath by module names (RFC 6241 8.9). */
static char *
xpath_rewrite(const struct ly_ctx *ctx, const char *x, const char *const *ns)
{
	const struct lys_module *m;
	char *out;
	size_t len, i, j, k;
	FILE *f;
	int quote = 0;

	if ((f = open_memstream(&out, &len)) == NULL)
		fatal("open_memstream");
	for (i = 0; x[i] != '\0'; ) {
		if (quote || x[i] == '\'' || x[i] == '"') {
			if (quote == x[i])
				quote = 0;
			else if (!quote)
				quote = x[i];
			fputc(x[i++], f);
			continue;
		}
		if (!is_ncname(x[i], 1) || (i > 0 && is_ncname(x[i - 1], 0))) {
			fputc(x[i++], f);
			continue;
		}
		for (j = i; is_ncname(x[j], 0); j++)
			;
		m = NULL;
		if (x[j] == ':' && x[j + 1] != ':')
			for (k = 0; ns != NULL && ns[k] && ns[k + 1]; k += 2)
				if (strlen(ns[k]) == j - i &&
				    strncmp(ns[k], x + i, j - i) == 0)
					m = ly_ctx_get_module_implemented_ns(
					    ctx, ns[k + 1]);
		if (m != NULL)
			fputs(m->name, f);
		else
			fwrite(x + i, 1, j - i, f);
		i = j;
	}
	fclose(f);
	return out;
}

static struct nc_error *
xpath_marks(const struct nc_schema *s, struct ly_set *marked,
    struct lyd_node *tree, const struct nc_filter *flt)
{
	struct ly_set *set = NULL;
	struct nc_error *e = NULL;
	char *x;
	uint32_t i;

	if (flt->text == NULL)
		return nc_error_new("protocol", "missing-attribute",
		    "xpath filter without select");
	x = xpath_rewrite(s->ctx, flt->text, flt->nsmap);
	ly_err_clean(s->ctx, NULL);
	if (lyd_find_xpath3(NULL, tree, x, NULL, &set) != LY_SUCCESS) {
		e = error_from_ly(s->ctx, "select");
		e->tag = "invalid-value";
		free(x);
		return e;
	}
	free(x);
	for (i = 0; i < set->count; i++) {
		mark(marked, set->dnodes[i], MARK_FULL);
		mark_up(marked, set->dnodes[i]);
	}
	ly_set_free(set, NULL);
	return NULL;
}

/* Print the part of tree the filter selects, appending to out. */
static struct nc_error *
filter_print(const struct nc_schema *s, struct lyd_node *tree,
    const struct nc_filter *flt, FILE *out)
{
	struct ly_set *marked;
	struct lyd_node *res = NULL;
	struct nc_error *e = NULL;
	char *str = NULL;

	if (tree == NULL)
		return NULL;
	if (flt == NULL || flt->type == NC_FILTER_NONE) {
		if (lyd_print_mem(&str, tree, LYD_XML,
		    LYD_PRINT_WITHSIBLINGS | LYD_PRINT_SHRINK) == LY_SUCCESS &&
		    str != NULL)
			fputs(str, out);
		free(str);
		return NULL;
	}
	if (ly_set_new(&marked) != LY_SUCCESS)
		fatalx("ly_set_new");
	if (flt->type == NC_FILTER_XPATH)
		e = xpath_marks(s, marked, tree, flt);
	else
		e = subtree_marks(marked, tree, flt->text ? flt->text : "");
	if (e == NULL && build_marked(tree, NULL, &res) == -1)
		e = error_from_ly(s->ctx, "filter");
	unmark(marked);
	if (e == NULL && res != NULL && lyd_print_mem(&str, res, LYD_XML,
	    LYD_PRINT_WITHSIBLINGS | LYD_PRINT_SHRINK) == LY_SUCCESS &&
	    str != NULL)
		fputs(str, out);
	free(str);
	lyd_free_all(res);
	return e;
}

static struct nc_error *
get_trees(struct nc_store *st, struct lyd_node *t1, struct lyd_node *t2,
    const struct nc_filter *flt, char **xml)
{
	struct nc_error *e;
	size_t len;
	FILE *out;

	*xml = NULL;
	if ((out = open_memstream(xml, &len)) == NULL)
		fatal("open_memstream");
	e = filter_print(st->schema, t1, flt, out);
	if (e == NULL)
		e = filter_print(st->schema, t2, flt, out);
	fclose(out);
	if (e != NULL) {
		free(*xml);
		*xml = NULL;
	}
	return e;
}

struct nc_error *
nc_store_get_config(struct nc_store *st, enum nc_ds ds,
    const struct nc_filter *flt, char **xml)
{
	struct nc_error *e;

	*xml = NULL;
	if ((e = check_ds(st, ds)) != NULL)
		return e;
	return get_trees(st, ds_tree(st, ds), NULL, flt, xml);
}

struct nc_error *
nc_store_get(struct nc_store *st, const struct nc_filter *flt, char **xml)
{
	return get_trees(st, st->ds[NC_DS_RUNNING], st->schema->state, flt,
	    xml);
}

/* ---- edit-config (RFC 6241 section 7.2) ---- */

static void
edit_error(struct edit_ctx *ec, struct nc_error *e, const struct lyd_node *n)
{
	if (n != NULL && e->path == NULL)
		e->path = lyd_path(n, LYD_PATH_STD, NULL, 0);
	*ec->tail = e;
	while (e->next != NULL)
		e = e->next;
	ec->tail = &e->next;
}

static enum edit_op
op_parse(const char *v)
{
	static const char *const n[] = { "none", "merge", "replace",
	    "create", "delete", "remove", NULL };
	int i = name_index(v, n);

	return i < 0 ? OP_NONE : (enum edit_op)i;
}

/* The nc:operation attribute of an edit node, or OP_NONE. */
static enum edit_op
node_op(const struct edit_ctx *ec, const struct lyd_node *e)
{
	const struct lyd_node_opaq *o;
	const struct lyd_attr *a;
	struct lyd_meta *m;

	if (e->schema != NULL) {
		m = lyd_find_meta(e->meta, ec->ncmod, "operation");
		return m ? op_parse(lyd_get_meta_value(m)) : OP_NONE;
	}
	o = (const struct lyd_node_opaq *)e;
	for (a = o->attr; a != NULL; a = a->next)
		if (strcmp(a->name.name, "operation") == 0 &&
		    a->name.module_ns != NULL &&
		    strcmp(a->name.module_ns, NC_NS_BASE) == 0)
			return op_parse(a->value);
	return OP_NONE;
}

/* Whether the subtree under e asks for ops among mask (1 << op). */
static int
subtree_ops(const struct edit_ctx *ec, const struct lyd_node *e)
{
	const struct lyd_node *n;
	int mask = 0;

	LYD_TREE_DFS_BEGIN(e, n) {
		mask |= 1 << node_op(ec, n);
		LYD_TREE_DFS_END(e, n);
	}
	return mask & ~(1 << OP_NONE);
}

static void
count_subtree(struct edit_ctx *ec, const struct lyd_node *x, uint32_t *c)
{
	const struct lyd_node *n;

	if (ec->res == NULL)
		return;
	LYD_TREE_DFS_BEGIN(x, n) {
		if (n->schema && (n->schema->nodetype & (LYS_LIST |
		    LYS_LEAFLIST)))
			(*c)++;
		LYD_TREE_DFS_END(x, n);
	}
}

static void
remove_node(struct edit_ctx *ec, struct lyd_node *x)
{
	count_subtree(ec, x, ec->res ? &ec->res->deleted : NULL);
	if (x == *ec->root)
		*ec->root = x->next;
	lyd_free_tree(x);
}

/* The schema node an opaque edit node (a leaf to delete) stands for. */
static const struct lysc_node *
opaq_schema(const struct edit_ctx *ec, const struct lyd_node *parent,
    const struct lyd_node *e)
{
	const struct lyd_node_opaq *o = (const struct lyd_node_opaq *)e;
	const struct lys_module *m = NULL;
	const struct ly_ctx *ctx = ec->st->schema->ctx;

	if (o->name.module_ns != NULL)
		m = ly_ctx_get_module_implemented_ns(ctx, o->name.module_ns);
	if (m == NULL)
		return NULL;
	return lys_find_child(parent ? parent->schema : NULL, m,
	    o->name.name, 0, LYS_LEAF, 0);
}

static struct lyd_node *
find_target(const struct edit_ctx *ec, struct lyd_node *parent,
    const struct lyd_node *e, const struct lysc_node *snode)
{
	struct lyd_node *first, *x = NULL;

	first = parent ? lyd_child(parent) : *ec->root;
	if (first == NULL)
		return NULL;
	if (e->schema != NULL)
		lyd_find_sibling_first(first, e, &x);
	else
		lyd_find_sibling_val(first, snode, NULL, 0, &x);
	return x;
}

static struct lyd_node *
create_node(struct edit_ctx *ec, struct lyd_node *parent,
    const struct lyd_node *e, int recursive)
{
	struct lyd_node *dup;
	uint32_t opts = LYD_DUP_NO_META;

	if (recursive)
		opts |= LYD_DUP_RECURSIVE;
	if (lyd_dup_single(e, (struct lyd_node_inner *)parent, opts, &dup))
		return NULL;
	if (parent == NULL)
		lyd_insert_sibling(*ec->root, dup, ec->root);
	if (ec->res != NULL) {
		if (recursive)
			count_subtree(ec, dup, &ec->res->created);
		else if (dup->schema->nodetype & (LYS_LIST | LYS_LEAFLIST))
			ec->res->created++;
	}
	return dup;
}

static int edit_siblings(struct edit_ctx *, const struct lyd_node *,
    struct lyd_node *, enum edit_op);

static int
edit_fail(struct edit_ctx *ec, const struct lyd_node *e, const char *tag,
    const char *msg)
{
	struct nc_error *err;

	err = nc_error_new("application", tag, "%s", msg);
	edit_error(ec, err, e);
	return ec->errop == NC_ERROP_CONTINUE ? 0 : -1;
}

/* merge, replace, create once the existing node x is dealt with. */
static int
edit_write(struct edit_ctx *ec, const struct lyd_node *e,
    struct lyd_node *parent, struct lyd_node *x, enum edit_op op)
{
	LY_ERR rc;

	if (x == NULL) {
		/* Nothing below asks otherwise: copy the subtree at once. */
		int whole = !(subtree_ops(ec, e) & ~((1 << OP_MERGE) |
		    (1 << OP_REPLACE) | (1 << OP_CREATE)));

		if ((x = create_node(ec, parent, e, whole)) == NULL) {
			edit_error(ec, error_from_ly(ec->st->schema->ctx,
			    NULL), e);
			return ec->errop == NC_ERROP_CONTINUE ? 0 : -1;
		}
		if (whole)
			return 0;
	} else if (x->schema->nodetype == LYS_LEAF) {
		rc = lyd_change_term(x, lyd_get_value(e));
		if (rc == LY_SUCCESS && ec->res != NULL)
			ec->res->modified++;
		return 0;
	}
	if (x->schema->nodetype & LYD_NODE_TERM)
		return 0;
	return edit_siblings(ec, lyd_child(e), x, op);
}

/* default-operation none on data the target lacks. */
static int
edit_none_missing(struct edit_ctx *ec, const struct lyd_node *e,
    struct lyd_node *parent)
{
	int ops = subtree_ops(ec, e);

	if (ops & ((1 << OP_MERGE) | (1 << OP_REPLACE) | (1 << OP_CREATE)))
		return edit_write(ec, e, parent, NULL, OP_NONE);
	if (ops == (1 << OP_REMOVE))
		return 0;
	return edit_fail(ec, e, "data-missing", "no such data to edit");
}

/* One edit node against its counterpart under parent (NULL: top). */
static int
edit_node(struct edit_ctx *ec, const struct lyd_node *e,
    struct lyd_node *parent, enum edit_op inherited)
{
	const struct lysc_node *snode = e->schema;
	struct lyd_node *x;
	enum edit_op op;

	if ((op = node_op(ec, e)) == OP_NONE)
		op = inherited;
	if (snode == NULL && ((op != OP_DELETE && op != OP_REMOVE) ||
	    (snode = opaq_schema(ec, parent, e)) == NULL))
		return edit_fail(ec, e, "invalid-value",
		    "invalid value or unknown node");
	x = find_target(ec, parent, e, snode);
	if (x != NULL && (x->flags & LYD_DEFAULT) &&
	    (op == OP_CREATE || op == OP_DELETE || op == OP_REMOVE))
		x = NULL;	/* a default is not data (RFC 6243 4.5.2) */
	switch (op) {
	case OP_DELETE:
		if (x == NULL)
			return edit_fail(ec, e, "data-missing",
			    "data to delete does not exist");
		remove_node(ec, x);
		return 0;
	case OP_REMOVE:
		if (x != NULL)
			remove_node(ec, x);
		return 0;
	case OP_CREATE:
		if (x != NULL)
			return edit_fail(ec, e, "data-exists",
			    "data to create already exists");
		return edit_write(ec, e, parent, NULL, op);
	case OP_REPLACE:
		if (x != NULL)
			remove_node(ec, x);
		return edit_write(ec, e, parent, NULL, op);
	case OP_MERGE:
		return edit_write(ec, e, parent, x, op);
	case OP_NONE:
		if (x == NULL)
			return edit_none_missing(ec, e, parent);
		if (x->schema->nodetype & LYD_NODE_TERM)
			return 0;
		return edit_siblings(ec, lyd_child(e), x, op);
	}
	return 0;
}

static int
edit_siblings(struct edit_ctx *ec, const struct lyd_node *first,
    struct lyd_node *parent, enum edit_op inherited)
{
	const struct lyd_node *e;

	LY_LIST_FOR(first, e) {
		/* Keys identify their list entry; they are not edited. */
		if (e->schema != NULL && lysc_is_key(e->schema))
			continue;
		if (edit_node(ec, e, parent, inherited) == -1)
			return -1;
	}
	return 0;
}

/* An opaque edit node is acceptable only as a leaf to delete/remove. */
static int
opaq_delete_ok(const struct lys_module *ncmod, const struct lyd_node *n)
{
	const struct lyd_node_opaq *o = (const struct lyd_node_opaq *)n;
	const struct lyd_attr *a;
	const struct lyd_node *p;
	struct lyd_meta *m;
	const char *v;

	if (o->child != NULL)
		return 0;
	for (a = o->attr; a != NULL; a = a->next)
		if (strcmp(a->name.name, "operation") == 0 &&
		    a->name.module_ns != NULL &&
		    strcmp(a->name.module_ns, NC_NS_BASE) == 0)
			return strcmp(a->value, "delete") == 0 ||
			    strcmp(a->value, "remove") == 0;
	for (p = lyd_parent(n); p != NULL; p = lyd_parent(p)) {
		if (p->schema == NULL ||
		    (m = lyd_find_meta(p->meta, ncmod, "operation")) == NULL)
			continue;
		v = lyd_get_meta_value(m);
		return strcmp(v, "delete") == 0 || strcmp(v, "remove") == 0;
	}
	return 0;
}

static int
has_only_opaq_deletes(const struct ly_ctx *ctx, const struct lyd_node *tree)
{
	const struct lys_module *ncmod;
	const struct lyd_node *top, *n;

	ncmod = ly_ctx_get_module_implemented(ctx, "ietf-netconf");
	LY_LIST_FOR(tree, top) {
		LYD_TREE_DFS_BEGIN(top, n) {
			if (n->schema == NULL && !opaq_delete_ok(ncmod, n))
				return 0;
			LYD_TREE_DFS_END(top, n);
		}
	}
	return 1;
}

/*
 * Parse the <config> content.  Strict parsing gives the precise error;
 * only when it fails is the opaque retry tried, for leaves to delete
 * that carry no (valid) value.
 */
static struct nc_error *
parse_edit(const struct ly_ctx *ctx, const char *xml, struct lyd_node **edit)
{
	const uint32_t opts = LYD_PARSE_ONLY | LYD_PARSE_STRICT |
	    LYD_PARSE_NO_STATE;
	struct nc_error *e;

	*edit = NULL;
	ly_err_clean((struct ly_ctx *)ctx, NULL);
	if (lyd_parse_data_mem(ctx, xml, LYD_XML, opts, 0, edit) ==
	    LY_SUCCESS)
		return NULL;
	e = error_from_ly(ctx, NULL);
	lyd_free_all(*edit);
	*edit = NULL;
	if (lyd_parse_data_mem(ctx, xml, LYD_XML, opts | LYD_PARSE_OPAQ, 0,
	    edit) != LY_SUCCESS || !has_only_opaq_deletes(ctx, *edit)) {
		lyd_free_all(*edit);
		*edit = NULL;
		return e;
	}
	nc_error_free(e);
	return NULL;
}

/* Validate a whole datastore tree (RFC 6241 section 8.6). */
static struct nc_error *
validate_tree(const struct ly_ctx *ctx, struct lyd_node **tree)
{
	ly_err_clean((struct ly_ctx *)ctx, NULL);
	if (*tree == NULL)
		return NULL;
	if (lyd_validate_all(tree, NULL, LYD_VALIDATE_PRESENT |
	    LYD_VALIDATE_NO_STATE, NULL) != LY_SUCCESS)
		return error_from_ly(ctx, NULL);
	return NULL;
}

/* Put a new tree in place of a datastore's. */
static void
ds_set(struct nc_store *st, enum nc_ds ds, struct lyd_node *tree)
{
	if (ds == NC_DS_RUNNING || st->cand_dirty)
		lyd_free_all(st->ds[ds]);
	st->ds[ds] = tree;
	if (ds == NC_DS_CANDIDATE)
		st->cand_dirty = 1;
}

static struct lyd_node *
ds_copy(const struct nc_store *st, enum nc_ds ds)
{
	struct lyd_node *copy = NULL, *src = ds_tree(st, ds);

	if (src != NULL && lyd_dup_siblings(src, NULL, LYD_DUP_RECURSIVE |
	    LYD_DUP_WITH_FLAGS, &copy) != LY_SUCCESS)
		fatalx("netconf: cannot copy a datastore");
	return copy;
}

/*
 * Apply the edit to a copy of the target and swap it in when all went
 * well: stop-on-error and rollback-on-error leave the target unchanged
 * on any error; continue-on-error keeps what succeeded.  Running is
 * validated before the swap; candidate at <commit> (RFC 6241 8.3.1).
 */
struct nc_error *
nc_store_edit(struct nc_store *st, uint32_t sid, enum nc_ds ds,
    const char *config, const struct nc_edit_opts *opts,
    struct nc_edit_result *res)
{
	static const enum edit_op defops[] = { OP_MERGE, OP_REPLACE,
	    OP_NONE };
	const struct ly_ctx *ctx = st->schema->ctx;
	struct nc_edit_opts def = { NC_DEFOP_MERGE, NC_ERROP_STOP,
	    NC_TEST_THEN_SET };
	struct lyd_node *edit, *work;
	struct edit_ctx ec;
	struct nc_error *e;

	if (opts == NULL)
		opts = &def;
	if (res != NULL)
		memset(res, 0, sizeof(*res));
	if ((e = check_ds(st, ds)) != NULL || (e = check_lock(st, sid, ds)))
		return e;
	if ((e = parse_edit(ctx, config ? config : "", &edit)) != NULL)
		return e;
	work = ds_copy(st, ds);
	memset(&ec, 0, sizeof(ec));
	ec.st = st;
	ec.root = &work;
	ec.ncmod = ly_ctx_get_module_implemented(ctx, "ietf-netconf");
	ec.errop = opts->errop;
	ec.tail = &ec.errs;
	ec.res = res;
	/* A replace default replaces each top-level subtree given. */
	edit_siblings(&ec, edit, NULL, defops[opts->defop]);
	lyd_free_all(edit);
	e = NULL;
	if ((ec.errs == NULL || opts->errop == NC_ERROP_CONTINUE) &&
	    ds == NC_DS_RUNNING && (e = validate_tree(ctx, &work)) != NULL)
		edit_error(&ec, e, NULL);
	if (e != NULL || (ec.errs != NULL &&
	    opts->errop != NC_ERROP_CONTINUE) ||
	    opts->testop == NC_TEST_ONLY) {
		lyd_free_all(work);
		if (res != NULL && ec.errs != NULL)
			memset(res, 0, sizeof(*res));
		return ec.errs;
	}
	ds_set(st, ds, work);
	return ec.errs;
}

/* Parse a whole configuration (<copy-config> inline source). */
static struct nc_error *
parse_config(const struct ly_ctx *ctx, const char *xml,
    struct lyd_node **tree)
{
	*tree = NULL;
	ly_err_clean((struct ly_ctx *)ctx, NULL);
	if (lyd_parse_data_mem(ctx, xml, LYD_XML, LYD_PARSE_ONLY |
	    LYD_PARSE_STRICT | LYD_PARSE_NO_STATE, 0, tree) != LY_SUCCESS) {
		lyd_free_all(*tree);
		*tree = NULL;
		return error_from_ly(ctx, NULL);
	}
	return NULL;
}

struct nc_error *
nc_store_copy(struct nc_store *st, uint32_t sid, enum nc_ds target,
    enum nc_ds source, const char *config)
{
	const struct ly_ctx *ctx = st->schema->ctx;
	struct lyd_node *tree;
	struct nc_error *e;

	if ((e = check_ds(st, target)) != NULL ||
	    (e = check_lock(st, sid, target)) != NULL)
		return e;
	if (config != NULL)
		e = parse_config(ctx, config, &tree);
	else if ((e = check_ds(st, source)) == NULL) {
		if (source == target)
			return nc_error_new("protocol", "invalid-value",
			    "source and target are the same datastore");
		tree = ds_copy(st, source);
	}
	if (e != NULL)
		return e;
	if (target == NC_DS_RUNNING && (e = validate_tree(ctx, &tree))) {
		lyd_free_all(tree);
		return e;
	}
	ds_set(st, target, tree);
	return NULL;
}

struct nc_error *
nc_store_validate(struct nc_store *st, enum nc_ds ds)
{
	struct nc_error *e;
	struct lyd_node *copy;

	if ((e = check_ds(st, ds)) != NULL)
		return e;
	copy = ds_copy(st, ds);
	e = validate_tree(st->schema->ctx, &copy);
	lyd_free_all(copy);
	return e;
}

/* ---- locks (RFC 6241 sections 7.5, 7.6) ---- */

/* The lock of ds is another session's: the error names it, in the text
 * and as error-info's session-id (section 7.5). */
static struct nc_error *
lock_held_error(const struct nc_store *st, enum nc_ds ds, const char *tag,
    const char *what)
{
	return with_sid(nc_error_new("protocol", tag, "%s session %u", what,
	    st->lock[ds]), st->lock[ds]);
}

struct nc_error *
nc_store_lock(struct nc_store *st, uint32_t sid, enum nc_ds ds)
{
	struct nc_error *e;

	if ((e = check_ds(st, ds)) != NULL)
		return e;
	if (st->lock[ds] != 0)
		return lock_held_error(st, ds, "lock-denied", "lock held by");
	/* A modified candidate cannot be locked (section 7.5). */
	if (ds == NC_DS_CANDIDATE && st->cand_dirty)
		return with_sid(nc_error_new("protocol", "lock-denied",
		    "the candidate has uncommitted changes"), 0);
	st->lock[ds] = sid;
	return NULL;
}

struct nc_error *
nc_store_unlock(struct nc_store *st, uint32_t sid, enum nc_ds ds)
{
	struct nc_error *e;

	if ((e = check_ds(st, ds)) != NULL)
		return e;
	if (st->lock[ds] == 0)
		return nc_error_new("protocol", "operation-failed",
		    "the datastore is not locked");
	if (st->lock[ds] != sid)
		return lock_held_error(st, ds, "operation-failed",
		    "the lock is held by");
	st->lock[ds] = 0;
	return NULL;
}

uint32_t
nc_store_lock_owner(const struct nc_store *st, enum nc_ds ds)
{
	return st->lock[ds];
}

/* Section 8.3.5.2: the candidate's changes go with its lock holder. */
void
nc_store_release_session(struct nc_store *st, uint32_t sid)
{
	if (sid == 0)
		return;
	if (st->lock[NC_DS_CANDIDATE] == sid) {
		st->lock[NC_DS_CANDIDATE] = 0;
		nc_error_free(nc_store_discard(st, sid));
	}
	if (st->lock[NC_DS_RUNNING] == sid)
		st->lock[NC_DS_RUNNING] = 0;
}

/* ---- candidate (RFC 6241 section 8.3.4) ---- */

struct nc_error *
nc_store_commit(struct nc_store *st, uint32_t sid)
{
	struct nc_error *e;

	if ((e = check_ds(st, NC_DS_CANDIDATE)) != NULL ||
	    (e = check_lock(st, sid, NC_DS_RUNNING)) != NULL ||
	    (e = check_lock(st, sid, NC_DS_CANDIDATE)) != NULL)
		return e;
	if (!st->cand_dirty)
		return NULL;
	if ((e = validate_tree(st->schema->ctx,
	    &st->ds[NC_DS_CANDIDATE])) != NULL)
		return e;
	lyd_free_all(st->ds[NC_DS_RUNNING]);
	st->ds[NC_DS_RUNNING] = st->ds[NC_DS_CANDIDATE];
	st->ds[NC_DS_CANDIDATE] = NULL;
	st->cand_dirty = 0;
	return NULL;
}

struct nc_error *
nc_store_discard(struct nc_store *st, uint32_t sid)
{
	struct nc_error *e;

	if ((e = check_ds(st, NC_DS_CANDIDATE)) != NULL ||
	    (e = check_lock(st, sid, NC_DS_CANDIDATE)) != NULL)
		return e;
	if (st->cand_dirty)
		lyd_free_all(st->ds[NC_DS_CANDIDATE]);
	st->ds[NC_DS_CANDIDATE] = NULL;
	st->cand_dirty = 0;
	return NULL;
}
