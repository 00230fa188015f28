/*
 * The RESTCONF of `sbsim controller --workers` (ctl_workers.h): the
 * parent's HTTP server answers each request by asking the workers, each
 * on its 127.0.0.1 port with the parent's token, on the parent's loop,
 * and replies once all answered (or CTL_GATHER_TIMEOUT_S passed):
 *
 *	operational GET		every worker; the 2xx bodies merged (JSON:
 *				objects key by key, lists concatenated,
 *				entries with the same key member merged;
 *				XML: the root's children of each); 404 when
 *				every worker says 404
 *	config write		every worker (config is replicated, each
 *				acts on the devices it holds); the first
 *				non-2xx, else worker 0's answer
 *	RPC (operations)	every worker; the first 2xx (the worker
 *				holding the node), else the first error
 *	anything else		worker 0 (config GETs: each holds it all)
 *
 * Authentication stays with the parent's server (--restconf-user).
 */
#include <sys/queue.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>

#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "ctl_workers.h"
#include "engine.h"
#include "http_server.h"
#include "log.h"
#include "ut.h"

#define CTL_GATHER_TIMEOUT_S	30

enum gq_kind {
	GQ_MERGE,	/* operational GET */
	GQ_WRITE,	/* config write */
	GQ_RPC,
	GQ_ONE,		/* worker 0 alone */
};

struct gq;

struct gq_slot {
	struct gq			*gq;
	struct evhttp_connection	*conn;	/* NULL once answered */
	int				 status; /* 0: no answer */
	char				 ctype[128];
	char				 location[512];
	struct evbuffer			*body;
};

struct gq {
	struct ctl_gather	*g;
	struct http_req		*req;
	enum gq_kind		 kind;
	unsigned		 n, left;
	char			 ctype[128];	/* of the reply */
	struct gq_slot		 slot[CTL_WK_MAX];
	TAILQ_ENTRY(gq)		 entry;
};

struct ctl_gather {
	struct http_server	*hs;
	unsigned		 n;
	uint16_t		 port[CTL_WK_MAX];
	char			 auth[128];	/* Authorization for workers */
	TAILQ_HEAD(, gq)	 pending;
};

static void	gq_finish(struct gq *);

/* ---- JSON ---- */

/* The member that keys a list entry: YANG's usual key names. */
static const char *const json_keys[] = {
	"id", "node-id", "topology-id", "link-id", "tp-id", "name", "key",
	NULL
};

static int
json_entry_key(json_t *e, char *buf, size_t len)
{
	json_t	*v;
	size_t	 i;

	if (!json_is_object(e))
		return -1;
	for (i = 0; json_keys[i] != NULL; i++) {
		if ((v = json_object_get(e, json_keys[i])) == NULL)
			continue;
		if (json_is_string(v))
			snprintf(buf, len, "%s=s%s", json_keys[i],
			    json_string_value(v));
		else if (json_is_integer(v))
			snprintf(buf, len, "%s=i%lld", json_keys[i],
			    (long long)json_integer_value(v));
		else
			return -1;
		return 0;
	}
	return -1;
}

struct json_ent {
	char		*key;
	json_t		*v;
	UT_hash_handle	 hh;
};

static void
json_index(struct json_ent **idx, json_t *e)
{
	struct json_ent	*x;
	char		 k[512];

	if (json_entry_key(e, k, sizeof(k)) == -1)
		return;
	HASH_FIND_STR(*idx, k, x);
	if (x != NULL)
		return;
	x = xcalloc(1, sizeof(*x));
	x->key = xstrdup(k);
	x->v = e;
	HASH_ADD_KEYPTR(hh, *idx, x->key, strlen(x->key), x);
}

static int
json_list_merge(json_t *a, json_t *b)
{
	struct json_ent	*idx = NULL, *x, *tmp;
	json_t		*e;
	size_t		 i;
	char		 k[512];
	int		 rc = 0;

	json_array_foreach(a, i, e)
		json_index(&idx, e);
	json_array_foreach(b, i, e) {
		if (json_entry_key(e, k, sizeof(k)) == 0) {
			HASH_FIND_STR(idx, k, x);
			if (x != NULL) {
				rc |= ctl_json_merge(x->v, e);
				continue;
			}
		}
		json_array_append(a, e);
		json_index(&idx, json_array_get(a, json_array_size(a) - 1));
	}
	HASH_ITER(hh, idx, x, tmp) {
		HASH_DEL(idx, x);
		free(x->key);
		free(x);
	}
	return rc;
}

int
ctl_json_merge(json_t *a, json_t *b)
{
	const char	*key;
	json_t		*va, *vb;
	int		 rc = 0;

	if (!json_is_object(a) || !json_is_object(b))
		return -1;
	json_object_foreach(b, key, vb) {
		va = json_object_get(a, key);
		if (va == NULL)
			json_object_set(a, key, vb);
		else if (json_is_object(va) && json_is_object(vb))
			rc |= ctl_json_merge(va, vb);
		else if (json_is_array(va) && json_is_array(vb))
			rc |= json_list_merge(va, vb);
		/* Else a leaf both have: the first worker's. */
	}
	return rc;
}

static json_t *
json_of(struct evbuffer *b)
{
	size_t	len = evbuffer_get_length(b);

	return json_loadb((const char *)evbuffer_pullup(b, -1), len,
	    JSON_DECODE_ANY, NULL);
}

/* The 2xx JSON bodies merged into out; -1 when one is no JSON object. */
static int
gq_merge_json(struct gq *q, struct evbuffer *out)
{
	json_t		*acc = NULL, *j;
	char		*s;
	unsigned	 i;

	for (i = 0; i < q->n; i++) {
		if (q->slot[i].status / 100 != 2 ||
		    evbuffer_get_length(q->slot[i].body) == 0)
			continue;
		if ((j = json_of(q->slot[i].body)) == NULL ||
		    !json_is_object(j)) {
			json_decref(j);
			json_decref(acc);
			return -1;
		}
		if (acc == NULL)
			acc = j;
		else {
			ctl_json_merge(acc, j);
			json_decref(j);
		}
	}
	if (acc == NULL)
		return 0;
	if ((s = json_dumps(acc, JSON_COMPACT)) == NULL)
		fatalx("json_dumps");
	evbuffer_add(out, s, strlen(s));
	free(s);
	json_decref(acc);
	return 0;
}

/* ---- XML: the root's children of each 2xx body under the first's ---- */

static int
gq_merge_xml(struct gq *q, struct evbuffer *out)
{
	xmlDocPtr	 acc = NULL, d;
	xmlNodePtr	 root, r, c;
	xmlBufferPtr	 xb;
	unsigned	 i;
	int		 opts = XML_PARSE_NONET | XML_PARSE_NOERROR |
			    XML_PARSE_NOWARNING;

	for (i = 0; i < q->n; i++) {
		size_t	len = evbuffer_get_length(q->slot[i].body);

		if (q->slot[i].status / 100 != 2 || len == 0)
			continue;
		d = xmlReadMemory((const char *)evbuffer_pullup(
		    q->slot[i].body, -1), (int)len, NULL, NULL, opts);
		if (d == NULL || xmlDocGetRootElement(d) == NULL) {
			xmlFreeDoc(d);
			xmlFreeDoc(acc);
			return -1;
		}
		if (acc == NULL) {
			acc = d;
			continue;
		}
		root = xmlDocGetRootElement(acc);
		r = xmlDocGetRootElement(d);
		for (c = r->children; c != NULL; c = c->next)
			if (c->type == XML_ELEMENT_NODE)
				xmlAddChild(root, xmlDocCopyNode(c, acc, 1));
		xmlFreeDoc(d);
	}
	if (acc == NULL)
		return 0;
	if ((xb = xmlBufferCreate()) == NULL)
		fatalx("xmlBufferCreate");
	xmlNodeDump(xb, acc, xmlDocGetRootElement(acc), 0, 0);
	evbuffer_add(out, xmlBufferContent(xb), (size_t)xmlBufferLength(xb));
	xmlBufferFree(xb);
	xmlFreeDoc(acc);
	return 0;
}

/* ---- the requests to the workers ---- */

static void
gq_answer(struct evhttp_request *resp, void *arg)
{
	struct gq_slot	*s = arg;
	struct evkeyvalq *h;
	const char	*v;

	s->conn = NULL;		/* evhttp frees it (free_on_completion) */
	if (resp != NULL && evhttp_request_get_response_code(resp) > 0) {
		s->status = evhttp_request_get_response_code(resp);
		h = evhttp_request_get_input_headers(resp);
		if ((v = evhttp_find_header(h, "Content-Type")) != NULL)
			snprintf(s->ctype, sizeof(s->ctype), "%s", v);
		if ((v = evhttp_find_header(h, "Location")) != NULL)
			snprintf(s->location, sizeof(s->location), "%s", v);
		evbuffer_add_buffer(s->body,
		    evhttp_request_get_input_buffer(resp));
	}
	if (--s->gq->left == 0)
		gq_finish(s->gq);
}

static void
gq_copy_header(struct evhttp_request *from, struct evhttp_request *to,
    const char *name)
{
	const char	*v;

	v = evhttp_find_header(evhttp_request_get_input_headers(from), name);
	if (v != NULL)
		evhttp_add_header(evhttp_request_get_output_headers(to), name,
		    v);
}

/* Ask worker i; 0, or -1 when the request could not be made. */
static int
gq_ask(struct gq *q, unsigned i)
{
	struct gq_slot		*s = &q->slot[i];
	struct http_req		*r = q->req;
	struct evhttp_request	*out;
	struct evkeyvalq	*h;

	s->gq = q;
	s->body = evbuffer_new();
	s->conn = evhttp_connection_base_new(engine_base(), NULL, "127.0.0.1",
	    q->g->port[i]);
	if (s->body == NULL || s->conn == NULL)
		fatalx("ctl_gather: out of memory");
	evhttp_connection_set_timeout(s->conn, CTL_GATHER_TIMEOUT_S);
	if ((out = evhttp_request_new(gq_answer, s)) == NULL)
		fatalx("ctl_gather: out of memory");
	h = evhttp_request_get_output_headers(out);
	evhttp_add_header(h, "Host", "127.0.0.1");
	/* libevent 2.1 frees an auto-free connection only when its last
	 * request closes it (evhttp_connection_done): kept alive, each was
	 * left for good, one per worker per request. */
	evhttp_add_header(h, "Connection", "close");
	evhttp_add_header(h, "Authorization", q->g->auth);
	gq_copy_header(r->ev, out, "Accept");
	gq_copy_header(r->ev, out, "Content-Type");
	if (r->body != NULL && r->body_len > 0)
		evbuffer_add(evhttp_request_get_output_buffer(out), r->body,
		    r->body_len);
	if (evhttp_make_request(s->conn, out, r->method,
	    evhttp_request_get_uri(r->ev)) == -1) {
		/* evhttp freed the request. */
		evhttp_connection_free(s->conn);
		s->conn = NULL;
		return -1;
	}
	evhttp_connection_free_on_completion(s->conn);
	return 0;
}

/* ---- the reply ---- */

static void
gq_free(struct gq *q)
{
	unsigned	i;

	for (i = 0; i < q->n; i++) {
		if (q->slot[i].conn != NULL)
			evhttp_connection_free(q->slot[i].conn);
		if (q->slot[i].body != NULL)
			evbuffer_free(q->slot[i].body);
	}
	free(q);
}

/* Worker i's answer as the reply. */
static void
gq_forward(struct gq *q, unsigned i)
{
	struct gq_slot	*s = &q->slot[i];
	struct http_req	*r = q->req;

	if (s->status == 0) {
		http_error(r, 502, "application", "operation-failed",
		    "Worker %u did not answer within %d s", i,
		    CTL_GATHER_TIMEOUT_S);
		return;
	}
	if (s->location[0] != '\0')
		evhttp_add_header(evhttp_request_get_output_headers(r->ev),
		    "Location", s->location);
	snprintf(q->ctype, sizeof(q->ctype), "%s", s->ctype[0] ? s->ctype :
	    r->reply_type);
	r->reply_type = q->ctype;
	http_reply(r, s->status, s->body);
}

static int
gq_ok(const struct gq_slot *s)
{
	return s->status >= 200 && s->status < 300;
}

static void
gq_merged(struct gq *q)
{
	struct http_req	*r = q->req;
	struct evbuffer	*out;
	unsigned	 i, first = q->n, n404 = 0;
	int		 rc;

	for (i = 0; i < q->n; i++) {
		if (q->slot[i].status == 404)
			n404++;
		else if (!gq_ok(&q->slot[i])) {
			gq_forward(q, i);	/* an error, or no answer */
			return;
		} else if (first == q->n)
			first = i;
	}
	if (n404 == q->n || first == q->n) {
		gq_forward(q, 0);
		return;
	}
	if ((out = evbuffer_new()) == NULL)
		fatalx("ctl_gather: out of memory");
	if (strstr(q->slot[first].ctype, "xml") != NULL)
		rc = gq_merge_xml(q, out);
	else if (strstr(q->slot[first].ctype, "json") != NULL)
		rc = gq_merge_json(q, out);
	else
		rc = evbuffer_add_buffer(out, q->slot[first].body);
	if (rc == -1) {
		evbuffer_free(out);
		http_error(r, 502, "application", "operation-failed",
		    "The workers' answers could not be merged");
		return;
	}
	evbuffer_free(q->slot[first].body);
	q->slot[first].body = out;
	gq_forward(q, first);
}

static void
gq_finish(struct gq *q)
{
	unsigned	i;

	TAILQ_REMOVE(&q->g->pending, q, entry);
	switch (q->kind) {
	case GQ_MERGE:
		gq_merged(q);
		break;
	case GQ_WRITE:
		for (i = 0; i < q->n && gq_ok(&q->slot[i]); i++)
			;
		gq_forward(q, i < q->n ? i : 0);
		break;
	case GQ_RPC:
		for (i = 0; i < q->n && !gq_ok(&q->slot[i]); i++)
			;
		if (i == q->n)	/* none: the first error, or no answer */
			for (i = 0; i < q->n && q->slot[i].status == 0; i++)
				;
		gq_forward(q, i < q->n ? i : 0);
		break;
	case GQ_ONE:
		gq_forward(q, 0);
		break;
	}
	gq_free(q);
}

/* ---- the requests ---- */

static int
gq_seg(const struct http_req *r, size_t i, const char *s)
{
	return r->path.n > i && strcmp(r->path.seg[i], s) == 0;
}

static enum gq_kind
gq_classify(const struct http_req *r)
{
	char	content[16];
	int	data, cfg, oper, get;

	if ((gq_seg(r, 0, "rests") || gq_seg(r, 0, "restconf")) &&
	    gq_seg(r, 1, "operations"))
		return r->method == EVHTTP_REQ_POST ? GQ_RPC : GQ_ONE;
	data = gq_seg(r, 0, "rests") && gq_seg(r, 1, "data");
	cfg = gq_seg(r, 0, "restconf") && gq_seg(r, 1, "config");
	oper = gq_seg(r, 0, "restconf") && gq_seg(r, 1, "operational");
	get = r->method == EVHTTP_REQ_GET || r->method == EVHTTP_REQ_HEAD;
	if (!get)
		return data || cfg ? GQ_WRITE : GQ_ONE;
	if (data && r->query != NULL && http_query_get(r->query, "content",
	    content, sizeof(content)) == 1 && strcmp(content, "config") == 0)
		return GQ_ONE;
	return data || oper ? GQ_MERGE : GQ_ONE;
}

static void
gq_handle(struct http_req *r, void *arg)
{
	struct ctl_gather	*g = arg;
	struct gq		*q;
	unsigned		 i;

	for (i = 0; i < g->n; i++)
		if (g->port[i] == 0) {
			http_error(r, 503, "application", "resource-denied",
			    "Worker %u has not started its RESTCONF yet", i);
			return;
		}
	q = xcalloc(1, sizeof(*q));
	q->g = g;
	q->req = r;
	q->kind = gq_classify(r);
	q->n = q->kind == GQ_ONE ? 1 : g->n;
	q->left = q->n;
	TAILQ_INSERT_TAIL(&g->pending, q, entry);
	http_defer(r);
	/* One more than the slots while asking: an answer that comes at
	 * once (a failed request) does not finish q under the loop. */
	q->left++;
	for (i = 0; i < q->n; i++)
		if (gq_ask(q, i) == -1)
			q->left--;
	if (--q->left == 0)
		gq_finish(q);
}

/* ---- the gatherer ---- */

static void
gq_b64(const char *in, char *out, size_t cap)
{
	static const char	 a[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char	*s = (const unsigned char *)in;
	size_t			 len = strlen(in), i, o = 0;
	uint32_t		 v;

	for (i = 0; i < len && o + 5 < cap; i += 3) {
		v = (uint32_t)s[i] << 16;
		if (i + 1 < len)
			v |= (uint32_t)s[i + 1] << 8;
		if (i + 2 < len)
			v |= s[i + 2];
		out[o++] = a[(v >> 18) & 63];
		out[o++] = a[(v >> 12) & 63];
		out[o++] = i + 1 < len ? a[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < len ? a[v & 63] : '=';
	}
	out[o] = '\0';
}

struct ctl_gather *
ctl_gather_new(struct http_server *hs, unsigned n, const char *token)
{
	struct ctl_gather	*g = xcalloc(1, sizeof(*g));
	char			 cred[128];

	g->hs = hs;
	g->n = n;
	TAILQ_INIT(&g->pending);
	snprintf(cred, sizeof(cred), "%s:%s", CTL_WK_USER, token);
	snprintf(g->auth, sizeof(g->auth), "Basic ");
	gq_b64(cred, g->auth + 6, sizeof(g->auth) - 6);
	http_server_route(hs, "/", EVHTTP_REQ_GET | EVHTTP_REQ_PUT |
	    EVHTTP_REQ_POST | EVHTTP_REQ_DELETE | EVHTTP_REQ_PATCH, gq_handle,
	    g);
	return g;
}

void
ctl_gather_port(struct ctl_gather *g, unsigned i, uint16_t port)
{
	if (i < g->n)
		g->port[i] = port;
}

void
ctl_gather_free(struct ctl_gather *g)
{
	struct gq	*q;

	while ((q = TAILQ_FIRST(&g->pending)) != NULL) {
		TAILQ_REMOVE(&g->pending, q, entry);
		http_error(q->req, 503, "application", "resource-denied",
		    "The controller is stopping");
		gq_free(q);
	}
	free(g);
}
