/*
 * NETCONF messages on libxml2: safe parsing, hello, rpc, rpc-reply,
 * rpc-error (RFC 6241) and notifications (RFC 5277).
 */
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "log.h"
#include "nc_msg.h"
#include "xml_shape.h"

/* ---- output helpers ---- */

static void
put(xmlBufferPtr b, const char *s, size_t len)
{
	size_t	n;

	while (len > 0) {
		n = len > INT_MAX / 2 ? INT_MAX / 2 : len;
		if (xmlBufferAdd(b, (const xmlChar *)s, (int)n) != 0)
			fatalx("%s: out of memory", __func__);
		s += n;
		len -= n;
	}
}

static void
puts_(xmlBufferPtr b, const char *s)
{
	put(b, s, strlen(s));
}

/*
 * Escape text (& < >) or, for attribute values, also quotes and the
 * whitespace that attribute normalisation would otherwise eat.
 */
static void
put_esc(xmlBufferPtr b, const char *s, int attr)
{
	const char	*run = s, *rep;

	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = attr ? "&quot;" : NULL; break;
		case '\n': rep = attr ? "&#10;" : NULL; break;
		case '\r': rep = "&#13;"; break;
		case '\t': rep = attr ? "&#9;" : NULL; break;
		default: rep = NULL; break;
		}
		if (rep == NULL)
			continue;
		put(b, run, (size_t)(s - run));
		puts_(b, rep);
		run = s + 1;
	}
	put(b, run, (size_t)(s - run));
}

xmlBufferPtr
nc_buf_reuse(xmlBufferPtr *bp)
{
	if (*bp == NULL && (*bp = xmlBufferCreate()) == NULL)
		fatalx("xmlBufferCreate");
	xmlBufferEmpty(*bp);
	return *bp;
}

void
nc_buf_drop(xmlBufferPtr *bp)
{
	if (*bp != NULL)
		xmlBufferFree(*bp);
	*bp = NULL;
}

void
nc_put_text(xmlBufferPtr b, const char *text)
{
	put_esc(b, text, 0);
}

static void
put_leaf(xmlBufferPtr b, const char *name, const char *text)
{
	if (text == NULL)
		return;
	put(b, "<", 1);
	puts_(b, name);
	put(b, ">", 1);
	put_esc(b, text, 0);
	put(b, "</", 2);
	puts_(b, name);
	put(b, ">", 1);
}

static void
put_attr(xmlBufferPtr b, const char *prefix, const char *name,
    const char *value)
{
	put(b, " ", 1);
	if (prefix != NULL) {
		puts_(b, prefix);
		put(b, ":", 1);
	}
	puts_(b, name);
	put(b, "=\"", 2);
	put_esc(b, value, 1);
	put(b, "\"", 1);
}

/* ---- capabilities ---- */

static const struct {
	unsigned	 flag;
	const char	*uri;
} nc_caps[] = {
	{ NC_CAPF_BASE10, NC_CAP_BASE10 },
	{ NC_CAPF_BASE11, NC_CAP_BASE11 },
	{ NC_CAPF_WRITABLE_RUNNING, NC_CAP_WRITABLE_RUNNING },
	{ NC_CAPF_CANDIDATE, NC_CAP_CANDIDATE },
	{ NC_CAPF_CONFIRMED_COMMIT, NC_CAP_CONFIRMED_COMMIT },
	{ NC_CAPF_ROLLBACK, NC_CAP_ROLLBACK },
	{ NC_CAPF_VALIDATE, NC_CAP_VALIDATE },
	{ NC_CAPF_STARTUP, NC_CAP_STARTUP },
	{ NC_CAPF_XPATH, NC_CAP_XPATH },
	{ NC_CAPF_NOTIFICATION, NC_CAP_NOTIFICATION },
	{ NC_CAPF_INTERLEAVE, NC_CAP_INTERLEAVE },
};
#define NC_NCAPS	(sizeof(nc_caps) / sizeof(nc_caps[0]))

/* Flag of a capability URI (exact match), 0 when not one of ours. */
static unsigned
nc_cap_flag(const char *uri)
{
	size_t	i;

	for (i = 0; i < NC_NCAPS; i++)
		if (strcmp(uri, nc_caps[i].uri) == 0)
			return nc_caps[i].flag;
	return 0;
}

/* ---- error names (Appendix A) ---- */

static const char *const nc_err_types[] = {
	"transport", "rpc", "protocol", "application",
};

static const char *const nc_err_tags[NC_ERR_TAG_COUNT] = {
	"in-use", "invalid-value", "too-big", "missing-attribute",
	"bad-attribute", "unknown-attribute", "missing-element",
	"bad-element", "unknown-element", "unknown-namespace",
	"access-denied", "lock-denied", "resource-denied", "rollback-failed",
	"data-exists", "data-missing", "operation-not-supported",
	"operation-failed", "partial-operation", "malformed-message",
};

static const char *const nc_err_sevs[] = { "error", "warning" };

/* Compare s, ignoring whitespace around it, with word. */
static int
text_is(const char *s, const char *word)
{
	size_t	n = strlen(word);

	if (s == NULL)
		return 0;
	while (isspace((unsigned char)*s))
		s++;
	if (strncmp(s, word, n) != 0)
		return 0;
	for (s += n; *s != '\0'; s++)
		if (!isspace((unsigned char)*s))
			return 0;
	return 1;
}

static int
name_index(const char *const *names, size_t n, const char *s)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (text_is(s, names[i]))
			return (int)i;
	return -1;
}

static const char *
nc_err_type_name(enum nc_err_type t)
{
	return (unsigned)t < 4 ? nc_err_types[t] : "unknown";
}

enum nc_err_type
nc_err_type_from_name(const char *s)
{
	int	i = name_index(nc_err_types, 4, s);

	return i < 0 ? NC_ERR_TYPE_UNKNOWN : (enum nc_err_type)i;
}

const char *
nc_err_tag_name(enum nc_err_tag t)
{
	return (unsigned)t < NC_ERR_TAG_COUNT ? nc_err_tags[t] : "unknown";
}

enum nc_err_tag
nc_err_tag_from_name(const char *s)
{
	int	i = name_index(nc_err_tags, NC_ERR_TAG_COUNT, s);

	return i < 0 ? NC_ERR_TAG_UNKNOWN : (enum nc_err_tag)i;
}

static const char *
nc_err_sev_name(enum nc_err_sev s)
{
	return (unsigned)s < 2 ? nc_err_sevs[s] : "unknown";
}

static enum nc_err_sev
nc_err_sev_from_name(const char *s)
{
	int	i = name_index(nc_err_sevs, 2, s);

	return i < 0 ? NC_ERR_SEV_UNKNOWN : (enum nc_err_sev)i;
}

void
nc_err_init(struct nc_err *e, enum nc_err_type type, enum nc_err_tag tag,
    const char *message)
{
	memset(e, 0, sizeof(*e));
	e->type = type;
	e->tag = tag;
	e->sev = NC_ERR_SEV_ERROR;
	e->message = message;
}

const char *
nc_err_message(const struct nc_err *e)
{
	if (e->message != NULL)
		return e->message;
	return e->msgbuf[0] != '\0' ? e->msgbuf : NULL;
}

/* ---- tree helpers ---- */

/* The first element node from n on (n itself included), or NULL. */
static xmlNodePtr
elem_from(const xmlNode *n)
{
	for (; n != NULL; n = n->next)
		if (n->type == XML_ELEMENT_NODE)
			return (xmlNodePtr)n;
	return NULL;
}

xmlNodePtr
nc_next_elem(const xmlNode *n)
{
	return elem_from(n->next);
}

xmlNodePtr
nc_child_elem(const xmlNode *n)
{
	return elem_from(n->children);
}

const char *
nc_node_ns(const xmlNode *n)
{
	return n->ns != NULL ? (const char *)n->ns->href : NULL;
}

static int
node_is(const xmlNode *n, const char *ns, const char *name)
{
	const char	*nns = nc_node_ns(n);

	if (n->type != XML_ELEMENT_NODE ||
	    strcmp((const char *)n->name, name) != 0)
		return 0;
	if (ns == NULL)
		return 1;
	return nns != NULL && strcmp(nns, ns) == 0;
}

xmlNodePtr
nc_find_child(const xmlNode *parent, const char *ns, const char *name)
{
	xmlNodePtr	n;

	for (n = parent->children; n != NULL; n = n->next)
		if (node_is(n, ns, name))
			return n;
	return NULL;
}

const char *
nc_leaf_text(const xmlNode *n)
{
	const xmlNode	*c = n->children;

	if (c == NULL)
		return "";
	if (c->next != NULL ||
	    (c->type != XML_TEXT_NODE && c->type != XML_CDATA_SECTION_NODE))
		return NULL;
	return c->content != NULL ? (const char *)c->content : "";
}

/*
 * An attribute's value as one string in the document: values the parser
 * left in several nodes are merged once, in place (the document is ours).
 */
static const char *
attr_text(xmlAttrPtr a)
{
	xmlChar	*v;

	if (a->children == NULL)
		return "";
	if (a->children->next == NULL && a->children->type == XML_TEXT_NODE)
		return (const char *)a->children->content;
	v = xmlNodeListGetString(a->doc, a->children, 1);
	if (v == NULL)
		fatalx("%s: out of memory", __func__);
	xmlSetNsProp(a->parent, a->ns, a->name, v);
	xmlFree(v);
	return attr_text(a);
}

/* An unqualified attribute, or one in namespace alt_ns; NULL: absent. */
static const char *
get_attr(const xmlNode *n, const char *name, const char *alt_ns)
{
	xmlAttrPtr	a;

	a = xmlHasNsProp(n, (const xmlChar *)name, NULL);
	if (a == NULL && alt_ns != NULL)
		a = xmlHasNsProp(n, (const xmlChar *)name,
		    (const xmlChar *)alt_ns);
	if (a == NULL || a->type != XML_ATTRIBUTE_NODE)
		return NULL;
	return attr_text(a);
}

/* Strict unsignedInt in 1..4294967295, whitespace around allowed. */
static int
parse_u32(const char *s, uint32_t *v)
{
	uint64_t	x = 0;
	int		nd = 0;

	if (s == NULL)
		return -1;
	while (isspace((unsigned char)*s))
		s++;
	for (; *s >= '0' && *s <= '9'; s++) {
		x = x * 10 + (uint64_t)(*s - '0');
		if (++nd > 10 || x > UINT32_MAX)
			return -1;
	}
	while (isspace((unsigned char)*s))
		s++;
	if (nd == 0 || *s != '\0' || x == 0)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* ---- safe parsing ---- */

struct nc_parse_guard {
	int	doctype;
};

/* A DOCTYPE: stop before its internal subset is even read. */
static void
nc_xml_doctype(void *ctx, const xmlChar *name, const xmlChar *ext,
    const xmlChar *sys)
{
	xmlParserCtxtPtr	 ctxt = ctx;
	struct nc_parse_guard	*g = ctxt->_private;

	g->doctype = 1;
	xmlStopParser(ctxt);
}

/* Errors go to the parse result, never to stderr. */
static void
nc_xml_quiet(void *ctx, xmlErrorPtr err)
{
}

static void
nc_xml_fail(struct nc_err *err, int base11, const char *why)
{
	unsigned char	*p;
	size_t		 n;

	if (err == NULL)
		return;
	/* Appendix A: malformed-message is new in base:1.1. */
	nc_err_init(err, NC_ERR_TYPE_RPC, base11 ? NC_ERR_MALFORMED_MESSAGE :
	    NC_ERR_OPERATION_FAILED, NULL);
	snprintf(err->msgbuf, sizeof(err->msgbuf), "malformed XML: %s", why);
	n = strlen(err->msgbuf);
	while (n > 0 && isspace((unsigned char)err->msgbuf[n - 1]))
		err->msgbuf[--n] = '\0';
	/* libxml2 quotes the input, which need not be UTF-8 (nor whole
	 * after the cut): the reply carrying this must stay well-formed. */
	for (p = (unsigned char *)err->msgbuf; *p != '\0'; p++)
		if (*p < 0x20 || *p >= 0x7f)
			*p = '?';
}

static uint32_t	 nc_xml_max_attrs = NC_XML_MAX_ATTRS;
static uint64_t	*nc_xml_attrs_refused;

void
nc_xml_limit_attrs(uint32_t max, uint64_t *refused)
{
	nc_xml_max_attrs = max;
	nc_xml_attrs_refused = refused;
}

/* One linear pass before libxml2 (xml_shape.h): 0, or -1 with err set. */
static int
nc_xml_attrs_ok(const char *p, size_t len, int base11, struct nc_err *err)
{
	struct xml_shape	sh;
	char			why[64];

	xml_shape(p, len, UINT32_MAX, nc_xml_max_attrs, &sh);
	if (sh.attrs <= nc_xml_max_attrs)
		return 0;
	if (nc_xml_attrs_refused != NULL)
		(*nc_xml_attrs_refused)++;
	snprintf(why, sizeof(why), "an element has more than %u attributes",
	    nc_xml_max_attrs);
	nc_xml_fail(err, base11, why);
	return -1;
}

xmlDocPtr
nc_xml_parse(const void *buf, size_t len, int base11, struct nc_err *err)
{
	const char		*p = buf;
	xmlParserCtxtPtr	 ctxt;
	struct nc_parse_guard	 g = { 0 };
	xmlDocPtr		 doc;
	xmlErrorPtr		 xe;

	/* Whitespace may follow an end-of-message marker (RFC 6242 4.3). */
	while (len > 0 && isspace((unsigned char)*p)) {
		p++;
		len--;
	}
	if (len == 0 || len > INT_MAX) {
		nc_xml_fail(err, base11, len ? "too long" : "empty message");
		return NULL;
	}
	if (nc_xml_attrs_ok(p, len, base11, err) == -1)
		return NULL;
	if ((ctxt = xmlNewParserCtxt()) == NULL)
		fatalx("%s: out of memory", __func__);
	ctxt->_private = &g;
	ctxt->sax->internalSubset = nc_xml_doctype;
	ctxt->sax->serror = nc_xml_quiet;
	/* No NOENT, DTDLOAD, DTDATTR or HUGE: nothing is fetched or expanded. */
	doc = xmlCtxtReadMemory(ctxt, p, (int)len, NULL, "UTF-8",
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	if (g.doctype || doc == NULL || xmlDocGetRootElement(doc) == NULL) {
		xe = xmlCtxtGetLastError(ctxt);
		if (g.doctype)
			nc_xml_fail(err, base11, "DOCTYPE not allowed");
		else
			nc_xml_fail(err, base11, xe != NULL && xe->message ?
			    xe->message : "not well-formed");
		xmlFreeDoc(doc);
		doc = NULL;
	}
	xmlFreeParserCtxt(ctxt);
	return doc;
}

enum nc_msg_kind
nc_msg_kind(const xmlDoc *doc)
{
	xmlNodePtr	root = xmlDocGetRootElement(doc);

	if (root == NULL)
		return NC_MSG_OTHER;
	if (node_is(root, NC_NS_BASE, "hello"))
		return NC_MSG_HELLO;
	if (node_is(root, NC_NS_BASE, "rpc"))
		return NC_MSG_RPC;
	if (node_is(root, NC_NS_BASE, "rpc-reply"))
		return NC_MSG_REPLY;
	if (node_is(root, NC_NS_NOTIF, "notification"))
		return NC_MSG_NOTIF;
	return NC_MSG_OTHER;
}

/* ---- hello (RFC 6241 section 8.1) ---- */

static void
put_module_cap(xmlBufferPtr b, const struct nc_module_cap *m)
{
	put(b, "<capability>", 12);
	put_esc(b, m->ns, 0);
	put(b, "?module=", 8);
	put_esc(b, m->name, 0);
	if (m->revision != NULL) {
		put(b, "&amp;revision=", 14);
		put_esc(b, m->revision, 0);
	}
	if (m->features != NULL && m->features[0] != '\0') {
		put(b, "&amp;features=", 14);
		put_esc(b, m->features, 0);
	}
	if (m->deviations != NULL && m->deviations[0] != '\0') {
		put(b, "&amp;deviations=", 16);
		put_esc(b, m->deviations, 0);
	}
	put(b, "</capability>", 13);
}

void
nc_hello_build(xmlBufferPtr b, const struct nc_hello_opts *o)
{
	char	sid[16];
	size_t	i;

	puts_(b, NC_XML_DECL "<hello xmlns=\"" NC_NS_BASE "\"><capabilities>");
	for (i = 0; i < NC_NCAPS; i++)
		if (o->caps & nc_caps[i].flag)
			put_leaf(b, "capability", nc_caps[i].uri);
	for (i = 0; i < o->nmodules; i++)
		put_module_cap(b, &o->modules[i]);
	for (i = 0; i < o->nextra; i++)
		put_leaf(b, "capability", o->extra[i]);
	puts_(b, "</capabilities>");
	if (o->session_id != 0) {
		snprintf(sid, sizeof(sid), "%" PRIu32, o->session_id);
		put_leaf(b, "session-id", sid);
	}
	puts_(b, "</hello>");
}

/* A trimmed copy of an element's text. */
static char *
trimmed_text(const xmlNode *n)
{
	xmlChar		*c = xmlNodeGetContent(n);
	const char	*s, *e;
	char		*r;

	if (c == NULL)
		return xstrdup("");
	for (s = (const char *)c; isspace((unsigned char)*s); s++)
		;
	for (e = s + strlen(s); e > s && isspace((unsigned char)e[-1]); e--)
		;
	r = xmalloc((size_t)(e - s) + 1);
	memcpy(r, s, (size_t)(e - s));
	r[e - s] = '\0';
	xmlFree(c);
	return r;
}

static void
hello_add_cap(struct nc_hello *h, char *uri)
{
	h->capv = xreallocarray(h->capv, h->capc + 1, sizeof(*h->capv));
	h->capv[h->capc++] = uri;
	h->caps |= nc_cap_flag(uri);
}

int
nc_hello_from_doc(struct nc_hello *h, const xmlDoc *doc, int from_server)
{
	xmlNodePtr	 root, caps, n, sid;
	char		*t;
	int		 bad;

	memset(h, 0, sizeof(*h));
	root = xmlDocGetRootElement(doc);
	if (root == NULL || !node_is(root, NC_NS_BASE, "hello"))
		return NC_HELLO_E_NOT_HELLO;
	if ((caps = nc_find_child(root, NC_NS_BASE, "capabilities")) != NULL)
		for (n = caps->children; n != NULL; n = n->next)
			if (node_is(n, NC_NS_BASE, "capability"))
				hello_add_cap(h, trimmed_text(n));
	if (h->capc == 0)
		return NC_HELLO_E_NO_CAPS;
	if ((sid = nc_find_child(root, NC_NS_BASE, "session-id")) != NULL) {
		h->has_session_id = 1;
		t = trimmed_text(sid);
		bad = parse_u32(t, &h->session_id) != 0;
		free(t);
		if (bad || !from_server)
			return NC_HELLO_E_SESSION_ID;
	} else if (from_server)
		return NC_HELLO_E_SESSION_ID;
	if ((h->caps & (NC_CAPF_BASE10 | NC_CAPF_BASE11)) == 0)
		return NC_HELLO_E_NO_BASE;
	return NC_HELLO_OK;
}

int
nc_hello_parse(struct nc_hello *h, const void *buf, size_t len,
    int from_server)
{
	xmlDocPtr	doc;
	int		r;

	if ((doc = nc_xml_parse(buf, len, 0, NULL)) == NULL) {
		memset(h, 0, sizeof(*h));
		return NC_HELLO_E_XML;
	}
	r = nc_hello_from_doc(h, doc, from_server);
	xmlFreeDoc(doc);
	return r;
}

void
nc_hello_free(struct nc_hello *h)
{
	size_t	i;

	for (i = 0; i < h->capc; i++)
		free(h->capv[i]);
	free(h->capv);
	memset(h, 0, sizeof(*h));
}

const char *
nc_hello_strerror(int r)
{
	switch (r) {
	case NC_HELLO_OK:
		return "ok";
	case NC_HELLO_E_XML:
		return "hello is not well-formed XML";
	case NC_HELLO_E_NOT_HELLO:
		return "not a NETCONF hello";
	case NC_HELLO_E_NO_CAPS:
		return "hello without capabilities";
	case NC_HELLO_E_SESSION_ID:
		return "bad, missing or unexpected session-id";
	case NC_HELLO_E_NO_BASE:
		return "no NETCONF base capability";
	default:
		return "unknown hello result";
	}
}

int
nc_hello_has_cap(const struct nc_hello *h, const char *uri)
{
	size_t	i;

	for (i = 0; i < h->capc; i++)
		if (strcmp(h->capv[i], uri) == 0)
			return 1;
	return 0;
}

int
nc_hello_chunked(unsigned our_caps, const struct nc_hello *peer)
{
	return (our_caps & NC_CAPF_BASE11) && (peer->caps & NC_CAPF_BASE11);
}

static int
copy_out(const char *s, size_t n, char *out, size_t outlen)
{
	if (n + 1 > outlen)
		return -1;
	memcpy(out, s, n);
	out[n] = '\0';
	return 0;
}

int
nc_cap_param(const char *uri, const char *key, char *out, size_t outlen)
{
	const char	*q = strchr(uri, '?'), *p, *end;
	size_t		 klen;

	if (key == NULL)
		return copy_out(uri, q ? (size_t)(q - uri) : strlen(uri), out,
		    outlen);
	if (q == NULL)
		return -1;
	klen = strlen(key);
	for (p = q + 1; *p != '\0'; p = *end ? end + 1 : end) {
		end = p + strcspn(p, "&");
		if ((size_t)(end - p) > klen && strncmp(p, key, klen) == 0 &&
		    p[klen] == '=')
			return copy_out(p + klen + 1,
			    (size_t)(end - p) - klen - 1, out, outlen);
	}
	return -1;
}

/* ---- rpc (section 4.1) ---- */

static const struct {
	enum nc_op	 op;
	const char	*ns;
	const char	*name;
} nc_ops[] = {
	{ NC_OP_GET, NC_NS_BASE, "get" },
	{ NC_OP_GET_CONFIG, NC_NS_BASE, "get-config" },
	{ NC_OP_EDIT_CONFIG, NC_NS_BASE, "edit-config" },
	{ NC_OP_COPY_CONFIG, NC_NS_BASE, "copy-config" },
	{ NC_OP_DELETE_CONFIG, NC_NS_BASE, "delete-config" },
	{ NC_OP_LOCK, NC_NS_BASE, "lock" },
	{ NC_OP_UNLOCK, NC_NS_BASE, "unlock" },
	{ NC_OP_CLOSE_SESSION, NC_NS_BASE, "close-session" },
	{ NC_OP_KILL_SESSION, NC_NS_BASE, "kill-session" },
	{ NC_OP_COMMIT, NC_NS_BASE, "commit" },
	{ NC_OP_DISCARD_CHANGES, NC_NS_BASE, "discard-changes" },
	{ NC_OP_CANCEL_COMMIT, NC_NS_BASE, "cancel-commit" },
	{ NC_OP_VALIDATE, NC_NS_BASE, "validate" },
	{ NC_OP_GET_SCHEMA, NC_NS_MONITORING, "get-schema" },
	{ NC_OP_CREATE_SUBSCRIPTION, NC_NS_NOTIF, "create-subscription" },
};
#define NC_NOPS	(sizeof(nc_ops) / sizeof(nc_ops[0]))

static enum nc_op
op_lookup(const xmlNode *n)
{
	size_t	i;

	for (i = 0; i < NC_NOPS; i++)
		if (node_is(n, nc_ops[i].ns, nc_ops[i].name))
			return nc_ops[i].op;
	return NC_OP_OTHER;
}

static int
rpc_fail(struct nc_err *err, enum nc_err_type type, enum nc_err_tag tag,
    const char *msg)
{
	if (err != NULL)
		nc_err_init(err, type, tag, msg);
	return -1;
}

/* The operation element: exactly one element child of <rpc>. */
static int
rpc_find_op(struct nc_rpc *r, struct nc_err *err)
{
	xmlNodePtr	op, extra;

	if ((op = nc_child_elem(r->rpc)) == NULL)
		return rpc_fail(err, NC_ERR_TYPE_PROTOCOL,
		    NC_ERR_MISSING_ELEMENT, "rpc has no operation");
	if ((extra = nc_next_elem(op)) != NULL) {
		rpc_fail(err, NC_ERR_TYPE_PROTOCOL, NC_ERR_UNKNOWN_ELEMENT,
		    "rpc has more than one operation");
		if (err != NULL)
			err->bad_element = (const char *)extra->name;
		return -1;
	}
	r->op_node = op;
	r->op_name = (const char *)op->name;
	r->op_ns = nc_node_ns(op);
	r->op = op_lookup(op);
	return 0;
}

static int
nc_rpc_from_doc(struct nc_rpc *r, xmlDocPtr doc, struct nc_err *err)
{
	xmlNodePtr	root;

	memset(r, 0, sizeof(*r));
	r->doc = doc;
	root = xmlDocGetRootElement(doc);
	if (root == NULL)
		return rpc_fail(err, NC_ERR_TYPE_RPC,
		    NC_ERR_MALFORMED_MESSAGE, "empty document");
	if (strcmp((const char *)root->name, "rpc") != 0) {
		rpc_fail(err, NC_ERR_TYPE_RPC, NC_ERR_UNKNOWN_ELEMENT,
		    "expected an rpc element");
		if (err != NULL)
			err->bad_element = (const char *)root->name;
		return -1;
	}
	if (!node_is(root, NC_NS_BASE, "rpc")) {
		rpc_fail(err, NC_ERR_TYPE_PROTOCOL, NC_ERR_UNKNOWN_NAMESPACE,
		    "rpc is not in the NETCONF base namespace");
		if (err != NULL) {
			err->bad_element = "rpc";
			err->bad_namespace = nc_node_ns(root) ?
			    nc_node_ns(root) : "";
		}
		return -1;
	}
	r->rpc = root;
	/* Section 4.1: message-id is mandatory; Appendix A missing-attribute. */
	if ((r->message_id = get_attr(root, "message-id", NC_NS_BASE)) ==
	    NULL) {
		rpc_fail(err, NC_ERR_TYPE_RPC, NC_ERR_MISSING_ATTRIBUTE,
		    "rpc has no message-id");
		if (err != NULL) {
			err->bad_attribute = "message-id";
			err->bad_element = "rpc";
		}
		return -1;
	}
	return rpc_find_op(r, err);
}

int
nc_rpc_parse(struct nc_rpc *r, const void *buf, size_t len, int base11,
    struct nc_err *err)
{
	xmlDocPtr	doc;

	if ((doc = nc_xml_parse(buf, len, base11, err)) == NULL) {
		memset(r, 0, sizeof(*r));
		return -1;
	}
	return nc_rpc_from_doc(r, doc, err);
}

void
nc_rpc_free(struct nc_rpc *r)
{
	xmlFreeDoc(r->doc);
	memset(r, 0, sizeof(*r));
}

void
nc_err_op_not_supported(struct nc_err *e, const struct nc_rpc *r)
{
	nc_err_init(e, NC_ERR_TYPE_PROTOCOL, NC_ERR_OPERATION_NOT_SUPPORTED,
	    NULL);
	snprintf(e->msgbuf, sizeof(e->msgbuf), "operation %s not supported",
	    r->op_name ? r->op_name : "(none)");
}

/* Operation parameter element name (in the operation's namespace). */
static xmlNodePtr
nc_rpc_param(const struct nc_rpc *r, const char *name)
{
	if (r->op_node == NULL)
		return NULL;
	return nc_find_child(r->op_node, r->op_ns, name);
}

static int
param_fail(struct nc_err *err, enum nc_err_tag tag, const char *elem,
    const char *msg)
{
	if (err != NULL) {
		nc_err_init(err, NC_ERR_TYPE_PROTOCOL, tag, msg);
		err->bad_element = elem;
	}
	return -1;
}

static const char *const nc_ds_names[] = {
	"none", "running", "candidate", "startup", "url", "config",
};

const char *
nc_ds_name(enum ncm_ds ds)
{
	return (unsigned)ds <= NCM_DS_CONFIG ? nc_ds_names[ds] : "unknown";
}

int
nc_rpc_datastore(const struct nc_rpc *r, const char *param,
    struct nc_ds_ref *ref, struct nc_err *err)
{
	xmlNodePtr	p, c;
	int		i;

	memset(ref, 0, sizeof(*ref));
	if ((p = nc_rpc_param(r, param)) == NULL)
		return param_fail(err, NC_ERR_MISSING_ELEMENT, param,
		    "datastore parameter missing");
	if ((c = nc_child_elem(p)) == NULL)
		return param_fail(err, NC_ERR_MISSING_ELEMENT, param,
		    "no datastore given");
	for (i = NCM_DS_RUNNING; i <= NCM_DS_CONFIG; i++)
		if (node_is(c, NC_NS_BASE, nc_ds_names[i]))
			break;
	if (i > NCM_DS_CONFIG || nc_next_elem(c) != NULL)
		return param_fail(err, NC_ERR_UNKNOWN_ELEMENT,
		    (const char *)c->name, "unknown datastore");
	ref->ds = (enum ncm_ds)i;
	ref->node = c;
	return 0;
}

/* A <filter> element (section 6; RFC 5277 2.1.1); errors per Appendix A. */
static int
nc_filter_parse(const xmlNode *n, struct ncm_filter *f, struct nc_err *err)
{
	const char	*type;

	memset(f, 0, sizeof(*f));
	f->node = (xmlNodePtr)n;
	/* RFC 5277 examples qualify it (netconf:type); accept both. */
	type = get_attr(n, "type", NC_NS_BASE);
	if (type == NULL || strcmp(type, "subtree") == 0) {
		f->type = NCM_FILTER_SUBTREE;
		return 0;
	}
	if (strcmp(type, "xpath") != 0) {
		param_fail(err, NC_ERR_BAD_ATTRIBUTE, "filter",
		    "unknown filter type");
		if (err != NULL)
			err->bad_attribute = "type";
		return -1;
	}
	f->type = NCM_FILTER_XPATH;
	if ((f->select = get_attr(n, "select", NC_NS_BASE)) == NULL) {
		param_fail(err, NC_ERR_MISSING_ATTRIBUTE, "filter",
		    "xpath filter without select");
		if (err != NULL)
			err->bad_attribute = "select";
		return -1;
	}
	return 0;
}

int
nc_rpc_filter(const struct nc_rpc *r, struct ncm_filter *f,
    struct nc_err *err)
{
	xmlNodePtr	n;

	memset(f, 0, sizeof(*f));
	if (r->op_node == NULL)
		return 0;
	n = nc_find_child(r->op_node, r->op_ns, "filter");
	if (n == NULL)
		n = nc_find_child(r->op_node, NC_NS_BASE, "filter");
	if (n == NULL)
		return 0;
	return nc_filter_parse(n, f, err);
}

/* An enumerated leaf parameter: index into names, or dflt when absent. */
static int
param_enum(const struct nc_rpc *r, const char *param,
    const char *const *names, int nnames, int dflt, struct nc_err *err)
{
	xmlNodePtr	n;
	int		i;

	if ((n = nc_rpc_param(r, param)) == NULL)
		return dflt;
	if ((i = name_index(names, (size_t)nnames, nc_leaf_text(n))) < 0)
		return param_fail(err, NC_ERR_BAD_ELEMENT, param,
		    "invalid parameter value");
	return i;
}

/*
 * No <config> (nor <url>) in the rpc's namespace: one in another
 * namespace, or in none (a client that declared the base namespace with
 * a prefix and left <config> without it), is named as what is wrong.
 */
static int
nc_edit_no_config(const struct nc_rpc *r, struct nc_err *err)
{
	xmlNodePtr	n;

	/* Section 7.2's parameters are in the rpc's (the base) namespace. */
	for (n = r->op_node ? nc_child_elem(r->op_node) : NULL; n != NULL;
	    n = nc_next_elem(n))
		if (strcmp((const char *)n->name, "config") == 0)
			break;
	if (n == NULL)
		return param_fail(err, NC_ERR_MISSING_ELEMENT, "config",
		    "edit-config without config or url");
	param_fail(err, NC_ERR_MISSING_ELEMENT, "config", NULL);
	if (err != NULL) {
		snprintf(err->msgbuf, sizeof(err->msgbuf), "<config> must be "
		    "in the NETCONF base namespace %s, not %s%s", NC_NS_BASE,
		    nc_node_ns(n) ? "in " : "in no namespace",
		    nc_node_ns(n) ? nc_node_ns(n) : "");
		err->message = err->msgbuf;
	}
	return -1;
}

int
nc_rpc_edit(const struct nc_rpc *r, struct nc_edit *e, struct nc_err *err)
{
	static const char *const defops[] = { "merge", "replace", "none" };
	static const char *const testops[] = {
		"test-then-set", "set", "test-only" };
	static const char *const errops[] = {
		"stop-on-error", "continue-on-error", "rollback-on-error" };
	int	i;

	memset(e, 0, sizeof(*e));
	if (nc_rpc_datastore(r, "target", &e->target, err) != 0)
		return -1;
	if ((i = param_enum(r, "default-operation", defops, 3, 0, err)) < 0)
		return -1;
	e->defop = (enum ncm_defop)i;
	if ((i = param_enum(r, "test-option", testops, 3, 0, err)) < 0)
		return -1;
	e->testop = (enum ncm_testop)i;
	if ((i = param_enum(r, "error-option", errops, 3, 0, err)) < 0)
		return -1;
	e->errop = (enum ncm_errop)i;
	e->config = nc_rpc_param(r, "config");
	e->url = nc_rpc_param(r, "url");
	if (e->config == NULL && e->url == NULL)
		return nc_edit_no_config(r, err);
	return 0;
}

int
nc_rpc_session_id(const struct nc_rpc *r, uint32_t *id, struct nc_err *err)
{
	xmlNodePtr	n;

	if ((n = nc_rpc_param(r, "session-id")) == NULL)
		return param_fail(err, NC_ERR_MISSING_ELEMENT, "session-id",
		    "session-id missing");
	if (parse_u32(nc_leaf_text(n), id) != 0)
		return param_fail(err, NC_ERR_INVALID_VALUE, "session-id",
		    "invalid session-id");
	return 0;
}

/* An optional leaf's text; -1 (bad-element) when it is not a leaf. */
static int
param_text(const struct nc_rpc *r, const char *name, const char **out,
    struct nc_err *err)
{
	xmlNodePtr	n;

	*out = NULL;
	if ((n = nc_rpc_param(r, name)) == NULL)
		return 0;
	if ((*out = nc_leaf_text(n)) == NULL)
		return param_fail(err, NC_ERR_BAD_ELEMENT, name,
		    "expected a text value");
	return 0;
}

int
nc_rpc_get_schema(const struct nc_rpc *r, struct nc_get_schema *g,
    struct nc_err *err)
{
	const char	*colon;

	memset(g, 0, sizeof(*g));
	if (param_text(r, "identifier", &g->identifier, err) != 0 ||
	    param_text(r, "version", &g->version, err) != 0 ||
	    param_text(r, "format", &g->format, err) != 0)
		return -1;
	if (g->identifier == NULL || g->identifier[0] == '\0')
		return param_fail(err, NC_ERR_MISSING_ELEMENT, "identifier",
		    "get-schema without identifier");
	/* format is an identityref: "yang" or "ncm:yang". */
	if (g->format != NULL && (colon = strchr(g->format, ':')) != NULL)
		g->format = colon + 1;
	return 0;
}

static int
param_time(const struct nc_rpc *r, const char *name, int *has,
    struct timespec *ts, struct nc_err *err)
{
	const char	*s;

	*has = 0;
	if (param_text(r, name, &s, err) != 0)
		return -1;
	if (s == NULL)
		return 0;
	if (nc_time_parse(s, ts) != 0)
		return param_fail(err, NC_ERR_BAD_ELEMENT, name,
		    "invalid date-time");
	*has = 1;
	return 0;
}

static int
ts_cmp(const struct timespec *a, const struct timespec *b)
{
	if (a->tv_sec != b->tv_sec)
		return a->tv_sec < b->tv_sec ? -1 : 1;
	if (a->tv_nsec != b->tv_nsec)
		return a->tv_nsec < b->tv_nsec ? -1 : 1;
	return 0;
}

/* RFC 5277 section 2.1.1, including its negative responses. */
int
nc_rpc_subscription(const struct nc_rpc *r, struct nc_subscription *s,
    struct nc_err *err)
{
	struct timespec	now;

	memset(s, 0, sizeof(*s));
	if (param_text(r, "stream", &s->stream, err) != 0 ||
	    nc_rpc_filter(r, &s->filter, err) != 0 ||
	    param_time(r, "startTime", &s->has_start, &s->start, err) != 0 ||
	    param_time(r, "stopTime", &s->has_stop, &s->stop, err) != 0)
		return -1;
	if (s->stream == NULL)
		s->stream = "NETCONF";
	if (s->has_stop && !s->has_start)
		return param_fail(err, NC_ERR_MISSING_ELEMENT, "startTime",
		    "stopTime without startTime");
	if (s->has_stop && ts_cmp(&s->stop, &s->start) < 0)
		return param_fail(err, NC_ERR_BAD_ELEMENT, "stopTime",
		    "stopTime earlier than startTime");
	clock_gettime(CLOCK_REALTIME, &now);
	if (s->has_start && ts_cmp(&s->start, &now) > 0)
		return param_fail(err, NC_ERR_BAD_ELEMENT, "startTime",
		    "startTime in the future");
	return 0;
}

/* ---- RFC 3339 date-time ---- */

static int
digits(const char **sp, int n, int *v)
{
	const char	*s = *sp;
	int		 i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*v = *v * 10 + (s[i] - '0');
	}
	*sp = s + n;
	return 0;
}

static int
expect(const char **sp, const char *set)
{
	if (**sp == '\0' || strchr(set, **sp) == NULL)
		return -1;
	(*sp)++;
	return 0;
}

int
nc_time_parse(const char *s, struct timespec *ts)
{
	struct tm	tm;
	int		y, mo, d, h, mi, sec, oh = 0, om = 0, sign = 0, nd;
	long		ns = 0;
	time_t		t;

	while (isspace((unsigned char)*s))
		s++;
	if (digits(&s, 4, &y) || expect(&s, "-") || digits(&s, 2, &mo) ||
	    expect(&s, "-") || digits(&s, 2, &d) || expect(&s, "Tt") ||
	    digits(&s, 2, &h) || expect(&s, ":") || digits(&s, 2, &mi) ||
	    expect(&s, ":") || digits(&s, 2, &sec))
		return -1;
	if (*s == '.') {
		for (s++, nd = 0; *s >= '0' && *s <= '9'; s++, nd++)
			if (nd < 9)
				ns = ns * 10 + (*s - '0');
		if (nd == 0)
			return -1;
		for (; nd < 9; nd++)
			ns *= 10;
	}
	if (*s == 'Z' || *s == 'z')
		s++;
	else if (*s == '+' || *s == '-') {
		sign = *s++ == '-' ? -1 : 1;
		if (digits(&s, 2, &oh) || expect(&s, ":") ||
		    digits(&s, 2, &om) || oh > 23 || om > 59)
			return -1;
	} else
		return -1;
	while (isspace((unsigned char)*s))
		s++;
	if (*s != '\0' || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
	    mi > 59 || sec > 60)
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	t = timegm(&tm);
	ts->tv_sec = t - sign * (oh * 3600 + om * 60);
	ts->tv_nsec = ns;
	return 0;
}

void
nc_time_format(const struct timespec *ts, char *out, size_t outlen)
{
	struct tm	tm;
	char		base[32];

	gmtime_r(&ts->tv_sec, &tm);
	strftime(base, sizeof(base), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, outlen, "%.20s.%06dZ", base,
	    (int)((ts->tv_nsec % 1000000000L) / 1000));
}

/* ---- replies (sections 4.2-4.4) ---- */

/*
 * Section 4.2: the rpc-reply carries every attribute of the rpc, message-id
 * and the others, with the namespace declarations that their prefixes need.
 */
static void
put_echo_attrs(xmlBufferPtr b, const struct nc_rpc *r)
{
	xmlAttrPtr	 a, prev;
	const char	*pfx;
	int		 seen;

	if (r == NULL || r->rpc == NULL)
		return;
	for (a = r->rpc->properties; a != NULL; a = a->next) {
		pfx = a->ns != NULL ? (const char *)a->ns->prefix : NULL;
		if (pfx != NULL && strcmp(pfx, "xml") != 0) {
			for (seen = 0, prev = r->rpc->properties; prev != a;
			    prev = prev->next)
				if (prev->ns != NULL && prev->ns->prefix &&
				    strcmp((const char *)prev->ns->prefix,
				    pfx) == 0)
					seen = 1;
			if (!seen)
				put_attr(b, "xmlns", pfx,
				    (const char *)a->ns->href);
		}
		put_attr(b, pfx, (const char *)a->name, attr_text(a));
	}
}

void
nc_reply_begin(xmlBufferPtr b, const struct nc_rpc *r)
{
	puts_(b, NC_XML_DECL "<rpc-reply xmlns=\"" NC_NS_BASE "\"");
	put_echo_attrs(b, r);
	put(b, ">", 1);
}

void
nc_reply_end(xmlBufferPtr b)
{
	puts_(b, "</rpc-reply>");
}

void
nc_reply_ok(xmlBufferPtr b, const struct nc_rpc *r)
{
	nc_reply_begin(b, r);
	puts_(b, "<ok/>");
	nc_reply_end(b);
}

/* Streaming: begin, append content, end. */
static void
nc_reply_data_begin(xmlBufferPtr b, const struct nc_rpc *r)
{
	nc_reply_begin(b, r);
	puts_(b, "<data>");
}

static void
nc_reply_data_end(xmlBufferPtr b)
{
	puts_(b, "</data>");
	nc_reply_end(b);
}

void
nc_reply_data(xmlBufferPtr b, const struct nc_rpc *r, const char *xml,
    size_t len)
{
	nc_reply_data_begin(b, r);
	if (xml != NULL)
		put(b, xml, len);
	nc_reply_data_end(b);
}

void
nc_reply_data_node(xmlBufferPtr b, const struct nc_rpc *r, xmlNodePtr n)
{
	nc_reply_data_begin(b, r);
	for (; n != NULL; n = n->next)
		if (xmlNodeDump(b, n->doc, n, 0, 0) < 0)
			fatalx("%s: cannot serialize", __func__);
	nc_reply_data_end(b);
}

static void
put_error_info(xmlBufferPtr b, const struct nc_err *e)
{
	char	sid[16];

	if (!e->bad_attribute && !e->bad_element && !e->bad_namespace &&
	    !e->ok_element && !e->err_element && !e->noop_element &&
	    !e->has_session_id && !e->info_xml)
		return;
	puts_(b, "<error-info>");
	put_leaf(b, "bad-attribute", e->bad_attribute);
	put_leaf(b, "bad-element", e->bad_element);
	put_leaf(b, "bad-namespace", e->bad_namespace);
	if (e->has_session_id) {
		snprintf(sid, sizeof(sid), "%" PRIu32, e->session_id);
		put_leaf(b, "session-id", sid);
	}
	put_leaf(b, "ok-element", e->ok_element);
	put_leaf(b, "err-element", e->err_element);
	put_leaf(b, "noop-element", e->noop_element);
	if (e->info_xml != NULL)
		puts_(b, e->info_xml);
	puts_(b, "</error-info>");
}

/* Section 4.3, children in the order of the XSD in Appendix B. */
static void
nc_rpc_error_put(xmlBufferPtr b, const struct nc_err *e)
{
	const char	*msg = nc_err_message(e);
	size_t		 i;

	puts_(b, "<rpc-error>");
	put_leaf(b, "error-type", nc_err_type_name(e->type));
	put_leaf(b, "error-tag", nc_err_tag_name(e->tag));
	put_leaf(b, "error-severity", nc_err_sev_name(e->sev));
	put_leaf(b, "error-app-tag", e->app_tag);
	if (e->path != NULL) {
		puts_(b, "<error-path");
		for (i = 0; i < e->npath_ns; i++)
			put_attr(b, "xmlns", e->path_ns[i].prefix,
			    e->path_ns[i].uri);
		put(b, ">", 1);
		put_esc(b, e->path, 0);
		puts_(b, "</error-path>");
	}
	if (msg != NULL) {
		puts_(b, "<error-message xml:lang=\"en\">");
		put_esc(b, msg, 0);
		puts_(b, "</error-message>");
	}
	put_error_info(b, e);
	puts_(b, "</rpc-error>");
}

void
nc_reply_error(xmlBufferPtr b, const struct nc_rpc *r,
    const struct nc_err *errs, size_t n)
{
	size_t	i;

	nc_reply_begin(b, r);
	for (i = 0; i < n; i++)
		nc_rpc_error_put(b, &errs[i]);
	nc_reply_end(b);
}

/* RFC 5277 section 4. */
void
nc_notif_build(xmlBufferPtr b, const struct timespec *ts,
    const char *xml, size_t len)
{
	char	t[48];

	nc_time_format(ts, t, sizeof(t));
	puts_(b, NC_XML_DECL "<notification xmlns=\"" NC_NS_NOTIF "\">");
	put_leaf(b, "eventTime", t);
	if (xml != NULL)
		put(b, xml, len);
	puts_(b, "</notification>");
}

/* ---- client side ---- */

void
nc_rpc_build(xmlBufferPtr b, uint64_t message_id, const char *op_xml)
{
	char	id[24];

	snprintf(id, sizeof(id), "%" PRIu64, message_id);
	puts_(b, NC_XML_DECL "<rpc xmlns=\"" NC_NS_BASE "\" message-id=\"");
	puts_(b, id);
	puts_(b, "\">");
	if (op_xml != NULL)
		puts_(b, op_xml);
	puts_(b, "</rpc>");
}

static const char *
child_text(const xmlNode *n, const char *name)
{
	xmlNodePtr	c = nc_find_child(n, NC_NS_BASE, name);

	return c != NULL ? nc_leaf_text(c) : NULL;
}

static void
reply_add_error(struct nc_reply *rep, const xmlNode *n)
{
	struct nc_rpc_err	*e;

	rep->errv = xreallocarray(rep->errv, rep->errc + 1,
	    sizeof(*rep->errv));
	e = &rep->errv[rep->errc++];
	memset(e, 0, sizeof(*e));
	e->type = nc_err_type_from_name(child_text(n, "error-type"));
	e->tag_str = child_text(n, "error-tag");
	e->tag = nc_err_tag_from_name(e->tag_str);
	e->sev = nc_err_sev_from_name(child_text(n, "error-severity"));
	e->app_tag = child_text(n, "error-app-tag");
	e->path = child_text(n, "error-path");
	e->message = child_text(n, "error-message");
	e->info = nc_find_child(n, NC_NS_BASE, "error-info");
	if (e->sev != NC_ERR_SEV_WARNING)
		rep->nerrors++;
}

int
nc_reply_from_doc(struct nc_reply *rep, xmlDocPtr doc)
{
	xmlNodePtr	root, n;

	memset(rep, 0, sizeof(*rep));
	rep->doc = doc;
	root = xmlDocGetRootElement(doc);
	if (root == NULL || !node_is(root, NC_NS_BASE, "rpc-reply"))
		return -1;
	rep->message_id = get_attr(root, "message-id", NULL);
	for (n = nc_child_elem(root); n != NULL; n = nc_next_elem(n)) {
		if (node_is(n, NC_NS_BASE, "ok"))
			rep->ok = 1;
		else if (node_is(n, NC_NS_BASE, "data"))
			rep->data = n;
		else if (node_is(n, NC_NS_BASE, "rpc-error"))
			reply_add_error(rep, n);
	}
	return 0;
}

/* Bad XML is a NULL doc, which nc_reply_from_doc turns down as it turns
 * down a doc without a root. */
int
nc_reply_parse(struct nc_reply *rep, const void *buf, size_t len)
{
	return nc_reply_from_doc(rep, nc_xml_parse(buf, len, 1, NULL));
}

void
nc_reply_free(struct nc_reply *rep)
{
	free(rep->errv);
	xmlFreeDoc(rep->doc);
	memset(rep, 0, sizeof(*rep));
}

int
nc_notif_from_doc(struct nc_notif *nt, xmlDocPtr doc)
{
	xmlNodePtr	root, et, n;

	memset(nt, 0, sizeof(*nt));
	nt->doc = doc;
	root = xmlDocGetRootElement(doc);
	if (root == NULL || !node_is(root, NC_NS_NOTIF, "notification"))
		return -1;
	if ((et = nc_find_child(root, NC_NS_NOTIF, "eventTime")) == NULL ||
	    (nt->event_time = nc_leaf_text(et)) == NULL ||
	    nc_time_parse(nt->event_time, &nt->time) != 0)
		return -1;
	for (n = nc_child_elem(root); n != NULL; n = nc_next_elem(n))
		if (n != et) {
			nt->content = n;
			break;
		}
	return 0;
}

void
nc_notif_free(struct nc_notif *nt)
{
	xmlFreeDoc(nt->doc);
	memset(nt, 0, sizeof(*nt));
}
