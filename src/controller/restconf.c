/*
 * RESTCONF dispatch (see restconf.h): which URL style, which datastore,
 * which resource; the path parsed into elements before a resource sees it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include "log.h"
#include "rc_topology.h"
#include "restconf.h"

#define RC_M_READ	(EVHTTP_REQ_GET | EVHTTP_REQ_HEAD)
#define RC_M_WRITE	(EVHTTP_REQ_POST | EVHTTP_REQ_PUT | \
	EVHTTP_REQ_PATCH | EVHTTP_REQ_DELETE)

struct rc_route {
	enum rc_style	style;
	enum rc_content	content;
};

static const struct rc_route rc_rfc8040 = { RC_STYLE_RFC8040,
    RC_CONTENT_ALL };
static const struct rc_route rc_draft_config = { RC_STYLE_DRAFT,
    RC_CONTENT_CONFIG };
static const struct rc_route rc_draft_oper = { RC_STYLE_DRAFT,
    RC_CONTENT_NONCONFIG };

static const struct rc_resource	*resources[RC_MAX_RESOURCES];
static size_t			 nresources;

/* ---- paths ---- */

/* A YANG identifier (RFC 7950 section 6.2). */
static int
rc_identifier(const char *s)
{
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
	    *s == '_'))
		return 0;
	for (s++; *s != '\0'; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		    (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' ||
		    *s == '.'))
			return 0;
	return 1;
}

/* Room in the path's memory for len bytes and a NUL. */
static char *
rc_alloc(struct rc_path *p, size_t *used, size_t len)
{
	char	*s;

	if (len + 1 > sizeof(p->mem) - *used)
		return NULL;
	s = p->mem + *used;
	*used += len + 1;
	return s;
}

/* Percent-decode raw[0..len) into the path's memory. */
static char *
rc_decode(struct rc_path *p, size_t *used, const char *raw, size_t len)
{
	char	*s = rc_alloc(p, used, len);

	if (s == NULL || http_pct_decode(raw, len, s, len + 1) == -1)
		return NULL;
	return s;
}

/* "module:name" or "name", decoded, into e. */
static int
rc_set_name(struct rc_elem *e, char *dec, char *err, size_t errlen)
{
	char	*colon = strchr(dec, ':');

	e->module = NULL;
	e->name = dec;
	if (colon != NULL) {
		*colon = '\0';
		e->module = dec;
		e->name = colon + 1;
	}
	if (!rc_identifier(e->name) ||
	    (e->module != NULL && !rc_identifier(e->module))) {
		if (colon != NULL)
			*colon = ':';
		snprintf(err, errlen, "'%s' is not a YANG node name", dec);
		return -1;
	}
	return 0;
}

static unsigned
rc_list_keys(const struct rc_list *lists, const char *name)
{
	for (; lists != NULL && lists->name != NULL; lists++)
		if (strcmp(lists->name, name) == 0)
			return lists->nkeys;
	return 0;
}

/* yang-ext:mount: the rest of the path is the mounted schema's. */
static int
rc_mount_point(const struct rc_elem *e, size_t seg, struct rc_path *p)
{
	if (e->module == NULL || strcmp(e->module, "yang-ext") != 0 ||
	    strcmp(e->name, "mount") != 0 || e->nkeys != 0)
		return 0;
	p->mount_seg = seg + 1;
	return 1;
}

/* RFC 8040 section 3.5.3: name[=key1,key2] with each part encoded on its
 * own, so that a key may hold an encoded ',' or '/'. */
static int
rc_seg_rfc8040(struct rc_path *p, size_t *used, const char *raw,
    struct rc_elem *e, char *err, size_t errlen)
{
	const char	*eq = strchr(raw, '='), *k, *c;
	char		*name;
	size_t		 nlen = eq ? (size_t)(eq - raw) : strlen(raw);

	if ((name = rc_decode(p, used, raw, nlen)) == NULL ||
	    rc_set_name(e, name, err, errlen) == -1)
		goto bad;
	for (k = eq ? eq + 1 : NULL; k != NULL; k = c ? c + 1 : NULL) {
		c = strchr(k, ',');
		if (e->nkeys == RC_MAX_KEYS)
			goto bad;
		e->key[e->nkeys] = rc_decode(p, used, k, c ? (size_t)(c - k) :
		    strlen(k));
		if (e->key[e->nkeys++] == NULL)
			goto bad;
	}
	return 0;
bad:
	if (err[0] == '\0')
		snprintf(err, errlen, "bad path segment '%s'", raw);
	return -1;
}

static int
rc_parse_rfc8040(const struct http_path *hp, size_t from,
    const struct rc_list *lists, struct rc_path *p, char *err, size_t errlen)
{
	struct rc_elem	*e;
	size_t		 used = 0, i;
	unsigned	 want;

	for (i = from; i < hp->n; i++) {
		e = &p->e[p->n++];
		if (rc_seg_rfc8040(p, &used, hp->raw[i], e, err, errlen) == -1)
			return -1;
		if (rc_mount_point(e, i, p))
			return 0;
		want = rc_list_keys(lists, e->name);
		if (e->nkeys != want) {
			snprintf(err, errlen, "%s needs %u key%s, %zu given",
			    e->name, want, want == 1 ? "" : "s", e->nkeys);
			return -1;
		}
	}
	return 0;
}

/* The draft style: a list's keys are the segments after its name. */
static int
rc_parse_draft(const struct http_path *hp, size_t from,
    const struct rc_list *lists, struct rc_path *p, char *err, size_t errlen)
{
	struct rc_elem	*e;
	size_t		 used = 0, i, len;
	unsigned	 want, k;
	char		*name;

	for (i = from; i < hp->n; i++) {
		e = &p->e[p->n++];
		len = strlen(hp->seg[i]);
		if ((name = rc_alloc(p, &used, len)) == NULL)
			return -1;
		memcpy(name, hp->seg[i], len + 1);
		if (rc_set_name(e, name, err, errlen) == -1)
			return -1;
		if (rc_mount_point(e, i, p))
			return 0;
		want = rc_list_keys(lists, e->name);
		if (want > RC_MAX_KEYS || (want > 0 && i + want >= hp->n)) {
			snprintf(err, errlen, "%s needs %u key%s", e->name,
			    want, want == 1 ? "" : "s");
			return -1;
		}
		for (k = 0; k < want; k++)
			e->key[e->nkeys++] = hp->seg[++i];
	}
	return 0;
}

int
rc_path_parse(const struct http_path *hp, size_t from, enum rc_style style,
    const struct rc_list *lists, struct rc_path *p, char *err, size_t errlen)
{
	memset(p->e, 0, sizeof(p->e));
	p->n = 0;
	p->mount_seg = 0;
	err[0] = '\0';
	if (from > hp->n || hp->n - from > RC_MAX_DEPTH) {
		snprintf(err, errlen, "the path is deeper than %d nodes",
		    RC_MAX_DEPTH);
		return -1;
	}
	if (style == RC_STYLE_RFC8040)
		return rc_parse_rfc8040(hp, from, lists, p, err, errlen);
	return rc_parse_draft(hp, from, lists, p, err, errlen);
}

int
rc_query_parse(const char *query, enum rc_content *c, char *err,
    size_t errlen)
{
	static const char *const names[] = { "all", "config", "nonconfig" };
	const char	*s, *e;
	char		 v[16];
	size_t		 i;
	int		 rc;

	*c = RC_CONTENT_ALL;
	/* RFC 8040 section 4.8: a parameter the server does not support
	 * is an error, not something to ignore. */
	for (s = query; s != NULL && *s != '\0'; s = *e ? e + 1 : e) {
		e = s + strcspn(s, "&");
		if (strncmp(s, "content=", 8) != 0 || s + 8 > e) {
			snprintf(err, errlen, "unsupported query parameter "
			    "'%.*s'", (int)(e - s > 64 ? 64 : e - s), s);
			return -1;
		}
	}
	if ((rc = http_query_get(query, "content", v, sizeof(v))) == 0)
		return 0;
	for (i = 0; rc == 1 && i < 3; i++)
		if (strcmp(v, names[i]) == 0) {
			*c = (enum rc_content)i;
			return 0;
		}
	snprintf(err, errlen, "content must be all, config or nonconfig");
	return -1;
}

int
rc_elem_is(const struct rc_elem *e, const char *name)
{
	return strcmp(e->name, name) == 0;
}

int
rc_list_entry(struct rc_req *rq, const char *list,
    void (*whole)(struct rc_req *))
{
	const struct rc_path	*p = &rq->path;

	if (p->n == 1)
		whole(rq);
	else if (!rc_elem_is(&p->e[1], list))
		rc_unknown(rq, &p->e[1]);
	else
		return 1;
	return 0;
}

/* ---- replies ---- */

void
rc_data_missing(struct rc_req *rq)
{
	/* ODL's text (RFC 8040 section 7: data-missing). */
	http_error(rq->http, 404, "protocol", "data-missing",
	    "Request could not be completed because the relevant data model "
	    "content does not exist");
}

void
rc_unknown(struct rc_req *rq, const struct rc_elem *e)
{
	http_error(rq->http, 404, "protocol", "invalid-value",
	    "Schema node '%s' is not known here", e->name);
}

void
rc_read_only(struct rc_req *rq)
{
	evhttp_add_header(evhttp_request_get_output_headers(rq->http->ev),
	    "Allow", "GET, HEAD, OPTIONS");
	http_error(rq->http, 405, "protocol", "operation-not-supported",
	    "This resource is read-only for now");
}

int
rc_refuse_write(struct rc_req *rq)
{
	if (rq->http->method & (EVHTTP_REQ_GET | EVHTTP_REQ_HEAD))
		return 0;
	rc_read_only(rq);
	return 1;
}

int
rc_body(struct rc_req *rq, struct doc *d)
{
	char	err[256];

	if (doc_parse(d, rq->http->body_fmt, rq->http->body,
	    rq->http->body_len, err, sizeof(err)) == -1) {
		http_error(rq->http, 400, "protocol", "malformed-message",
		    "Error parsing input: %s", err);
		return -1;
	}
	return 0;
}

struct evbuffer *
rc_http_writer(struct http_req *h, struct doc_writer *w)
{
	struct evbuffer	*b = evbuffer_new();

	if (b == NULL)
		fatalx("evbuffer_new");
	doc_writer_init(w, h->reply_fmt, b);
	return b;
}

void
rc_http_send(struct http_req *h, struct doc_writer *w, struct evbuffer *b)
{
	if (doc_finish(w) == -1)
		http_error(h, 500, "application", "operation-failed",
		    "The reply could not be built");
	else
		http_reply(h, 200, b);
	evbuffer_free(b);
}

struct evbuffer *
rc_writer(struct rc_req *rq, struct doc_writer *w)
{
	return rc_http_writer(rq->http, w);
}

void
rc_send(struct rc_req *rq, struct doc_writer *w, struct evbuffer *b)
{
	rc_http_send(rq->http, w, b);
}

/* ---- dispatch ---- */

/* The resource a segment names: "module:name" (RFC 8040 section 3.5.3:
 * the first node is always qualified). */
static const struct rc_resource *
rc_find(const char *seg)
{
	size_t	i, ml, nl;

	/* A top-level list carries its keys: "module:name=key". */
	for (i = 0; i < nresources; i++) {
		ml = strlen(resources[i]->module);
		nl = strlen(resources[i]->name);
		if (strncmp(seg, resources[i]->module, ml) == 0 &&
		    seg[ml] == ':' &&
		    strncmp(seg + ml + 1, resources[i]->name, nl) == 0 &&
		    (seg[ml + 1 + nl] == '\0' || seg[ml + 1 + nl] == '='))
			return resources[i];
	}
	return NULL;
}

static int
rc_content(struct rc_req *rq, const struct rc_route *rt)
{
	struct http_req	*h = rq->http;
	char		 err[160];

	rq->content = rt->content;
	if (rt->style != RC_STYLE_RFC8040 || h->query == NULL)
		return 0;
	if ((h->method & RC_M_READ) == 0) {
		/* RFC 8040 section 4.8.1: content is for GET and HEAD. */
		http_error(h, 400, "protocol", "invalid-value",
		    "Query parameters are only accepted with GET and HEAD");
		return -1;
	}
	if (rc_query_parse(h->query, &rq->content, err, sizeof(err)) == -1) {
		http_error(h, 400, "protocol", "invalid-value", "%s", err);
		return -1;
	}
	return 0;
}

static void
rc_dispatch(struct http_req *h, void *arg)
{
	const struct rc_route		*rt = arg;
	const struct rc_resource	*res;
	struct rc_req			*rq;
	char				 err[256];

	/* RFC 8040 section 5.2: its own media types unless others named. */
	if (rt->style == RC_STYLE_RFC8040 && !h->reply_named)
		h->reply_type = h->reply_fmt == HTTP_FMT_XML ?
		    "application/yang-data+xml" : "application/yang-data+json";
	res = h->route_len < h->path.n ? rc_find(h->path.seg[h->route_len]) :
	    NULL;
	if (res == NULL) {
		http_error(h, 404, "protocol", "invalid-value",
		    "The requested resource is not known: %s",
		    h->route_len < h->path.n ? h->path.seg[h->route_len] :
		    "(the whole datastore is not served)");
		return;
	}
	rq = xcalloc(1, sizeof(*rq));
	rq->http = h;
	rq->style = rt->style;
	if (rc_content(rq, rt) == 0) {
		if (rc_path_parse(&h->path, h->route_len, rt->style,
		    res->lists, &rq->path, err, sizeof(err)) == -1)
			http_error(h, 400, "protocol", "invalid-value",
			    "Bad path: %s", err);
		else if (!res->read_only || !rc_refuse_write(rq))
			res->fn(rq, res->arg);
	}
	free(rq);
}

void
restconf_start(struct http_server *s)
{
	nresources = 0;
	rc_topology_reset();
	http_server_route(s, "/rests/data", RC_M_READ | RC_M_WRITE,
	    rc_dispatch, (void *)&rc_rfc8040);
	http_server_route(s, "/restconf/config", RC_M_READ | RC_M_WRITE,
	    rc_dispatch, (void *)&rc_draft_config);
	/* The operational datastore is the devices' view: read only. */
	http_server_route(s, "/restconf/operational", RC_M_READ, rc_dispatch,
	    (void *)&rc_draft_oper);
}

void
restconf_register(const struct rc_resource *r)
{
	if (nresources == RC_MAX_RESOURCES)
		fatalx("restconf: more than %d resources", RC_MAX_RESOURCES);
	resources[nresources++] = r;
}

/* ---- operations ---- */

#define RC_RPC_RFC8040	1	/* low bit of a route's argument */

static void
rc_rpc_dispatch(struct http_req *h, void *arg)
{
	const struct rc_rpc	*rpc = (const struct rc_rpc *)((uintptr_t)arg &
				    ~(uintptr_t)RC_RPC_RFC8040);
	int			 rfc8040 = ((uintptr_t)arg & RC_RPC_RFC8040) != 0;
	struct doc		 d;
	struct doc_node		 root, in;
	char			 err[256];

	/* RFC 8040 section 3.6: its own media types unless others named. */
	if (rfc8040 && !h->reply_named)
		h->reply_type = h->reply_fmt == HTTP_FMT_XML ?
		    "application/yang-data+xml" : "application/yang-data+json";
	if (h->body == NULL || doc_parse(&d, h->body_fmt, h->body,
	    h->body_len, err, sizeof(err)) == -1) {
		http_error(h, 400, "protocol", "malformed-message",
		    "Error parsing input: %s", h->body ? err : "no body");
		return;
	}
	doc_root(&d, &root);
	if (doc_child(&root, "input", &in) == -1)
		http_error(h, 400, "protocol", "malformed-message",
		    "The body is not the input of %s:%s", rpc->module,
		    rpc->name);
	else
		rpc->fn(h, &in, rfc8040, rpc->op);
	doc_free(&d);
}

void
rc_rpc_register(struct http_server *hs, const struct rc_rpc *rpcs, size_t n)
{
	const struct rc_rpc	*rpc;
	char			 path[160];

	for (rpc = rpcs; rpc < rpcs + n; rpc++) {
		snprintf(path, sizeof(path), "/rests/operations/%s:%s",
		    rpc->module, rpc->name);
		http_server_route(hs, path, EVHTTP_REQ_POST, rc_rpc_dispatch,
		    (void *)((uintptr_t)rpc | RC_RPC_RFC8040));
		snprintf(path, sizeof(path), "/restconf/operations/%s:%s",
		    rpc->module, rpc->name);
		http_server_route(hs, path, EVHTTP_REQ_POST, rc_rpc_dispatch,
		    (void *)rpc);
	}
}

void
rc_rpc_empty(struct http_req *h, int rfc8040, const struct doc_module *mod)
{
	struct doc_writer	 w;
	struct evbuffer		*b;

	if (rfc8040) {
		http_reply(h, 204, NULL);
		return;
	}
	b = rc_http_writer(h, &w);
	/* The draft's JSON names it bare, as ODL did. */
	doc_container(&w, h->reply_fmt == HTTP_FMT_XML ? mod : NULL,
	    "output");
	doc_end(&w);
	rc_http_send(h, &w, b);
}
