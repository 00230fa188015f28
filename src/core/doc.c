/*
 * JSON and XML documents through one API (see doc.h).  Parsing is left to
 * jansson and libxml2 with their safe options; the writer is a few lines
 * per format so that a reply of ten thousand nodes is streamed into one
 * evbuffer without a tree in between.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "doc.h"

enum {
	DOC_K_DOC,
	DOC_K_CONTAINER,
	DOC_K_LIST,
	DOC_K_ENTRY,
};

/* ---- reading ---- */

/* The first error libxml2 reports (the last one is often only "premature
 * end of data"), as "line N: message". */
struct doc_xml_err {
	char	*buf;
	size_t	 len;
	int	 set;
};

static void
doc_xml_on_error(void *arg, xmlErrorPtr e)
{
	struct doc_xml_err	*x = arg;
	size_t			 n;

	if (x->set || e == NULL || e->level < XML_ERR_ERROR)
		return;
	x->set = 1;
	snprintf(x->buf, x->len, "line %d: %s", e->line,
	    e->message ? e->message : "malformed XML");
	n = strlen(x->buf);
	while (n > 0 && (x->buf[n - 1] == '\n' || x->buf[n - 1] == ' '))
		x->buf[--n] = '\0';
}

static int
doc_parse_xml(struct doc *d, const char *data, size_t len, char *err,
    size_t errlen)
{
	struct doc_xml_err	 cap = { err, errlen, 0 };
	xmlDoc			*x;

	if (len > INT_MAX) {
		snprintf(err, errlen, "XML body too large");
		return -1;
	}
	/* No network, no entity substitution; errors to cap, not stderr. */
	xmlSetStructuredErrorFunc(&cap, doc_xml_on_error);
	x = xmlReadMemory(data, (int)len, NULL, NULL, XML_PARSE_NONET |
	    XML_PARSE_NOWARNING | XML_PARSE_NOCDATA);
	xmlSetStructuredErrorFunc(NULL, NULL);
	if (x == NULL) {
		if (!cap.set)
			snprintf(err, errlen, "malformed XML");
		return -1;
	}
	if (x->intSubset != NULL || x->extSubset != NULL) {
		/* Entities are how XML bodies blow up: no DTDs at all. */
		xmlFreeDoc(x);
		snprintf(err, errlen, "a document type declaration is not "
		    "accepted");
		return -1;
	}
	if (xmlDocGetRootElement(x) == NULL) {
		xmlFreeDoc(x);
		snprintf(err, errlen, "no root element");
		return -1;
	}
	d->tree = x;
	return 0;
}

static int
doc_parse_json(struct doc *d, const char *data, size_t len, char *err,
    size_t errlen)
{
	json_error_t	 e;
	json_t		*j;

	/* RFC 7951 section 4: member names are unique in an object. */
	j = json_loadb(data, len, JSON_REJECT_DUPLICATES, &e);
	if (j == NULL) {
		snprintf(err, errlen, "line %d column %d: %s", e.line,
		    e.column, e.text);
		return -1;
	}
	if (!json_is_object(j)) {
		json_decref(j);
		snprintf(err, errlen, "the body is not a JSON object");
		return -1;
	}
	d->tree = j;
	return 0;
}

int
doc_parse(struct doc *d, enum http_fmt fmt, const char *data, size_t len,
    char *err, size_t errlen)
{
	d->fmt = fmt;
	d->tree = NULL;
	if (data == NULL || len == 0) {
		snprintf(err, errlen, "the body is empty");
		return -1;
	}
	if (fmt == HTTP_FMT_XML)
		return doc_parse_xml(d, data, len, err, errlen);
	return doc_parse_json(d, data, len, err, errlen);
}

void
doc_free(struct doc *d)
{
	if (d->tree == NULL)
		return;
	if (d->fmt == HTTP_FMT_XML)
		xmlFreeDoc(d->tree);
	else
		json_decref(d->tree);
	d->tree = NULL;
}

void
doc_root(const struct doc *d, struct doc_node *n)
{
	n->fmt = d->fmt;
	n->p = d->tree;
}

/* The local part of a possibly prefixed name ("module:name"). */
static const char *
doc_local(const char *name, size_t *plen)
{
	const char	*c = strchr(name, ':');

	*plen = c != NULL ? (size_t)(c - name) : 0;
	return c != NULL ? c + 1 : name;
}

/* have matches want when their local parts are equal and, if both name a
 * module, the modules are equal too. */
static int
doc_name_eq(const char *have, const char *want)
{
	size_t		 hp, wp;
	const char	*hl = doc_local(have, &hp), *wl = doc_local(want, &wp);

	if (strcmp(hl, wl) != 0)
		return 0;
	return hp == 0 || wp == 0 || (hp == wp && memcmp(have, want, hp) == 0);
}

static xmlNode *
doc_xml_next(xmlNode *n, const char *name)
{
	for (; n != NULL; n = n->next)
		if (n->type == XML_ELEMENT_NODE &&
		    doc_name_eq((const char *)n->name, name))
			return n;
	return NULL;
}

static json_t *
doc_json_member(json_t *obj, const char *name)
{
	const char	*key;
	json_t		*v;

	if (!json_is_object(obj))
		return NULL;
	json_object_foreach(obj, key, v)
		if (doc_name_eq(key, name))
			return v;
	return NULL;
}

int
doc_child(const struct doc_node *parent, const char *name,
    struct doc_node *out)
{
	void	*p;

	if (parent->p == NULL)
		return -1;
	if (parent->fmt == HTTP_FMT_XML)
		p = doc_xml_next(((xmlNode *)parent->p)->children, name);
	else
		p = doc_json_member(parent->p, name);
	if (p == NULL)
		return -1;
	out->fmt = parent->fmt;
	out->p = p;
	return 0;
}

void
doc_iter_init(struct doc_iter *it, const struct doc_node *parent,
    const char *name)
{
	memset(it, 0, sizeof(*it));
	it->parent = *parent;
	it->name = name;
}

static int
doc_iter_xml(struct doc_iter *it, struct doc_node *out)
{
	xmlNode	*n;

	if (!it->started) {
		it->started = 1;
		n = it->parent.p == NULL ? NULL :
		    ((xmlNode *)it->parent.p)->children;
	} else
		n = it->cur == NULL ? NULL : ((xmlNode *)it->cur)->next;
	it->cur = doc_xml_next(n, it->name);
	if (it->cur == NULL)
		return 0;
	out->fmt = HTTP_FMT_XML;
	out->p = it->cur;
	return 1;
}

static int
doc_iter_json(struct doc_iter *it, struct doc_node *out)
{
	json_t	*v;

	if (!it->started) {
		it->started = 1;
		it->cur = doc_json_member(it->parent.p, it->name);
	}
	v = it->cur;
	if (v == NULL)
		return 0;
	if (json_is_array(v)) {
		if (it->i >= json_array_size(v))
			return 0;
		out->p = json_array_get(v, it->i++);
	} else {
		if (it->i++ > 0)
			return 0;
		out->p = v;
	}
	out->fmt = HTTP_FMT_JSON;
	return 1;
}

int
doc_iter_next(struct doc_iter *it, struct doc_node *out)
{
	if (it->parent.fmt == HTTP_FMT_XML)
		return doc_iter_xml(it, out);
	return doc_iter_json(it, out);
}

static int
doc_copy(char *out, size_t cap, const char *s, size_t len)
{
	if (cap == 0 || len >= cap)
		return -1;
	memcpy(out, s, len);
	out[len] = '\0';
	return 0;
}

/* An XML leaf: text only, no child elements. */
static int
doc_string_xml(const xmlNode *n, char *out, size_t cap)
{
	const xmlNode	*c;
	size_t		 len = 0, k;

	if (cap == 0 || n->type != XML_ELEMENT_NODE)
		return -1;
	out[0] = '\0';
	for (c = n->children; c != NULL; c = c->next) {
		if (c->type == XML_ELEMENT_NODE)
			return -1;
		if (c->type != XML_TEXT_NODE || c->content == NULL)
			continue;
		k = strlen((const char *)c->content);
		if (len + k >= cap)
			return -1;
		memcpy(out + len, c->content, k);
		len += k;
		out[len] = '\0';
	}
	return 0;
}

static int
doc_string_json(json_t *v, char *out, size_t cap)
{
	char	num[64];

	switch (json_typeof(v)) {
	case JSON_STRING:
		return doc_copy(out, cap, json_string_value(v),
		    json_string_length(v));
	case JSON_INTEGER:
		snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
		return doc_copy(out, cap, num, strlen(num));
	case JSON_REAL:
		snprintf(num, sizeof(num), "%.17g", json_real_value(v));
		return doc_copy(out, cap, num, strlen(num));
	case JSON_TRUE:
		return doc_copy(out, cap, "true", 4);
	case JSON_FALSE:
		return doc_copy(out, cap, "false", 5);
	default:
		return -1;
	}
}

int
doc_string(const struct doc_node *n, char *out, size_t cap)
{
	if (n->p == NULL)
		return -1;
	if (n->fmt == HTTP_FMT_XML)
		return doc_string_xml(n->p, out, cap);
	return doc_string_json(n->p, out, cap);
}

/* Decimal digits only, surrounded by XML white space at most. */
static int
doc_parse_uint(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t	x = 0, d;
	int		digits = 0;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		d = (uint64_t)(*s - '0');
		if (d > max || x > (max - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	if (digits == 0 || *s != '\0')
		return -1;
	*v = x;
	return 0;
}

int
doc_uint(const struct doc_node *n, uint64_t max, uint64_t *v)
{
	char		buf[64];
	json_int_t	i;

	if (n->p == NULL)
		return -1;
	if (n->fmt == HTTP_FMT_JSON && json_is_integer((json_t *)n->p)) {
		i = json_integer_value(n->p);
		if (i < 0 || (uint64_t)i > max)
			return -1;
		*v = (uint64_t)i;
		return 0;
	}
	if (n->fmt == HTTP_FMT_JSON && !json_is_string((json_t *)n->p))
		return -1;
	if (doc_string(n, buf, sizeof(buf)) == -1)
		return -1;
	return doc_parse_uint(buf, max, v);
}

int
doc_get_string(const struct doc_node *n, const char *name, char *out,
    size_t cap)
{
	struct doc_node	c;

	if (doc_child(n, name, &c) == -1)
		return -1;
	return doc_string(&c, out, cap);
}

int
doc_get_uint(const struct doc_node *n, const char *name, uint64_t max,
    uint64_t *v)
{
	struct doc_node	c;

	if (doc_child(n, name, &c) == -1)
		return -1;
	return doc_uint(&c, max, v);
}

/* ---- writing ---- */

/* Length of the valid UTF-8 sequence at s (1 to 4), 0 if it is not one. */
static size_t
doc_utf8_len(const unsigned char *s)
{
	size_t	n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/*
 * Text of a value: JSON string escapes (RFC 8259 section 7) or XML
 * character references; a control character XML 1.0 cannot carry and a
 * byte that is not UTF-8 become '?', so the reply always parses.
 */
static void
doc_text(struct doc_writer *w, const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n;

	while (*p != '\0') {
		n = doc_utf8_len(p);
		if (n == 0) {
			evbuffer_add(w->out, "?", 1);
			p++;
			continue;
		}
		if (w->fmt == HTTP_FMT_JSON && (*p == '"' || *p == '\\'))
			evbuffer_add_printf(w->out, "\\%c", *p);
		else if (w->fmt == HTTP_FMT_JSON && *p < 0x20)
			evbuffer_add_printf(w->out, "\\u%04x", *p);
		else if (w->fmt == HTTP_FMT_XML && *p < 0x20 && *p != '\t' &&
		    *p != '\n' && *p != '\r')
			evbuffer_add(w->out, "?", 1);
		else if (w->fmt == HTTP_FMT_XML && *p == '<')
			evbuffer_add(w->out, "&lt;", 4);
		else if (w->fmt == HTTP_FMT_XML && *p == '>')
			evbuffer_add(w->out, "&gt;", 4);
		else if (w->fmt == HTTP_FMT_XML && *p == '&')
			evbuffer_add(w->out, "&amp;", 5);
		else if (w->fmt == HTTP_FMT_XML && *p == '"')
			evbuffer_add(w->out, "&quot;", 6);
		else
			evbuffer_add(w->out, p, n);
		p += n;
	}
}

void
doc_writer_init(struct doc_writer *w, enum http_fmt fmt, struct evbuffer *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
	w->fmt = fmt;
	w->lvl[0].kind = DOC_K_DOC;
	w->lvl[0].first = 1;
	if (fmt == HTTP_FMT_JSON)
		evbuffer_add(out, "{", 1);
	else
		evbuffer_add_printf(out, "<?xml version=\"1.0\" "
		    "encoding=\"UTF-8\"?>\n");
}

static int
doc_ns_differs(const struct doc_module *a, const struct doc_module *b)
{
	if (a == NULL || a == b)
		return 0;
	if (b == NULL || a->ns == NULL || b->ns == NULL)
		return 1;
	return strcmp(a->ns, b->ns) != 0;
}

/* JSON: a comma before every member but the first of its object. */
static void
doc_json_sep(struct doc_writer *w)
{
	if (!w->lvl[w->depth].first)
		evbuffer_add(w->out, ",", 1);
	w->lvl[w->depth].first = 0;
}

/* The JSON member name, qualified where the module changes (RFC 7951
 * section 4). */
static void
doc_json_name(struct doc_writer *w, const struct doc_module *mod,
    const char *name)
{
	doc_json_sep(w);
	if (mod != NULL && mod->name != NULL &&
	    doc_ns_differs(mod, w->lvl[w->depth].mod))
		evbuffer_add_printf(w->out, "\"%s:%s\":", mod->name, name);
	else
		evbuffer_add_printf(w->out, "\"%s\":", name);
}

/* An XML start tag, with the namespace where it changes. */
static void
doc_xml_open(struct doc_writer *w, const struct doc_module *mod,
    const char *name)
{
	if (mod != NULL && mod->ns != NULL &&
	    doc_ns_differs(mod, w->lvl[w->depth].mod))
		evbuffer_add_printf(w->out, "<%s xmlns=\"%s\">", name,
		    mod->ns);
	else
		evbuffer_add_printf(w->out, "<%s>", name);
}

static int
doc_push(struct doc_writer *w, int kind, const struct doc_module *mod,
    const char *name)
{
	const struct doc_module	*in = w->lvl[w->depth].mod;

	if (w->depth + 1 >= DOC_MAX_DEPTH) {
		w->err = 1;
		return -1;
	}
	w->depth++;
	w->lvl[w->depth].kind = kind;
	w->lvl[w->depth].mod = mod != NULL ? mod : in;
	w->lvl[w->depth].name = name;
	w->lvl[w->depth].first = 1;
	return 0;
}

static int
doc_in_list(const struct doc_writer *w)
{
	return w->lvl[w->depth].kind == DOC_K_LIST;
}

/* A container or a list may open anywhere but right in a list (whose
 * members are its entries): 0, the writer failed, when it is there. */
static int
doc_may_open(struct doc_writer *w)
{
	if (!doc_in_list(w))
		return 1;
	w->err = 1;
	return 0;
}

void
doc_container(struct doc_writer *w, const struct doc_module *mod,
    const char *name)
{
	if (!doc_may_open(w))
		return;
	if (w->fmt == HTTP_FMT_JSON) {
		doc_json_name(w, mod, name);
		evbuffer_add(w->out, "{", 1);
	} else
		doc_xml_open(w, mod, name);
	doc_push(w, DOC_K_CONTAINER, mod, name);
}

void
doc_list(struct doc_writer *w, const struct doc_module *mod,
    const char *name)
{
	if (!doc_may_open(w))
		return;
	/* Nothing is written until the first entry: an empty list is no
	 * member at all (RFC 7951 section 5.4), and in XML each entry is an
	 * element of the list's name (RFC 7950 section 7.8.5). */
	doc_push(w, DOC_K_LIST, mod, name);
}

void
doc_entry(struct doc_writer *w)
{
	const struct doc_module	*mod;
	const char		*name;

	if (!doc_in_list(w)) {
		w->err = 1;
		return;
	}
	mod = w->lvl[w->depth].mod;
	name = w->lvl[w->depth].name;
	if (w->fmt == HTTP_FMT_JSON) {
		if (w->lvl[w->depth].first) {
			/* The list's name, compared with its parent's. */
			w->depth--;
			doc_json_name(w, mod, name);
			w->depth++;
			evbuffer_add(w->out, "[", 1);
		}
		doc_json_sep(w);
		evbuffer_add(w->out, "{", 1);
	} else {
		/* Compare with the list's parent: step out for a moment. */
		w->depth--;
		doc_xml_open(w, mod, name);
		w->depth++;
	}
	doc_push(w, DOC_K_ENTRY, mod, name);
}

void
doc_end(struct doc_writer *w)
{
	int	kind = w->lvl[w->depth].kind;

	if (w->depth == 0) {
		w->err = 1;
		return;
	}
	if (w->fmt == HTTP_FMT_JSON && kind != DOC_K_LIST)
		evbuffer_add(w->out, "}", 1);
	else if (w->fmt == HTTP_FMT_JSON && !w->lvl[w->depth].first)
		evbuffer_add(w->out, "]", 1);
	else if (w->fmt == HTTP_FMT_XML && kind != DOC_K_LIST)
		evbuffer_add_printf(w->out, "</%s>", w->lvl[w->depth].name);
	w->depth--;
}

/* A value: JSON (its name written before), quoted or not; or an XML
 * element. */
static void
doc_scalar(struct doc_writer *w, const char *name, const char *text,
    int quoted)
{
	if (w->fmt == HTTP_FMT_JSON) {
		if (quoted)
			evbuffer_add(w->out, "\"", 1);
		doc_text(w, text);
		if (quoted)
			evbuffer_add(w->out, "\"", 1);
		return;
	}
	evbuffer_add_printf(w->out, "<%s>", name);
	doc_text(w, text);
	evbuffer_add_printf(w->out, "</%s>", name);
}

static void
doc_leaf(struct doc_writer *w, const char *name, const char *text,
    int quoted)
{
	if (doc_in_list(w) || w->depth == 0) {
		w->err = 1;
		return;
	}
	if (w->fmt == HTTP_FMT_JSON)
		doc_json_name(w, NULL, name);
	doc_scalar(w, name, text, quoted);
}

void
doc_leaf_str(struct doc_writer *w, const char *name, const char *v)
{
	doc_leaf(w, name, v, 1);
}

/* A YANG boolean (RFC 7951 section 6.3: a JSON literal, not a string). */
void
doc_leaf_bool(struct doc_writer *w, const char *name, int v)
{
	doc_leaf(w, name, v ? "true" : "false", 0);
}

/* A leaf of another module than its parent's (an augmentation): its
 * qualified name in JSON (RFC 7951 section 4), its namespace in XML. */
void
doc_leaf_mod(struct doc_writer *w, const struct doc_module *mod,
    const char *name, const char *v)
{
	char	q[128];

	if (w->fmt == HTTP_FMT_JSON) {
		snprintf(q, sizeof(q), "%s:%s", mod->name, name);
		doc_leaf(w, q, v, 1);
		return;
	}
	if (doc_in_list(w) || w->depth == 0) {
		w->err = 1;
		return;
	}
	evbuffer_add_printf(w->out, "<%s xmlns=\"%s\">", name, mod->ns);
	doc_text(w, v);
	evbuffer_add_printf(w->out, "</%s>", name);
}

/* The same where mod differs from the parent's, with any text, quoted in
 * JSON or not (numbers, booleans). */
void
doc_leaf_in(struct doc_writer *w, const struct doc_module *mod,
    const char *name, const char *text, int quoted)
{
	if (doc_in_list(w) || w->depth == 0) {
		w->err = 1;
		return;
	}
	if (w->fmt == HTTP_FMT_JSON) {
		doc_json_name(w, mod, name);
		doc_scalar(w, name, text, quoted);
		return;
	}
	doc_xml_open(w, mod, name);
	doc_text(w, text);
	evbuffer_add_printf(w->out, "</%s>", name);
}

/* ODL writes 64-bit counters as JSON numbers (RFC 7951 section 6.1 would
 * quote them); its tools parse numbers, so numbers it is. */
void
doc_leaf_uint(struct doc_writer *w, const char *name, uint64_t v)
{
	char	num[24];

	snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
	doc_leaf(w, name, num, 0);
}

/* A leaf-list: a JSON array (RFC 7951 section 5.3), or one element per
 * value in XML (RFC 7950 section 7.7.8); nothing when empty. */
static int
doc_leaf_list_begin(struct doc_writer *w, const char *name, size_t n)
{
	if (doc_in_list(w) || w->depth == 0) {
		w->err = 1;
		return -1;
	}
	if (n == 0)
		return -1;
	if (w->fmt == HTTP_FMT_JSON) {
		doc_json_name(w, NULL, name);
		evbuffer_add(w->out, "[", 1);
	}
	return 0;
}

static void
doc_leaf_list_item(struct doc_writer *w, const char *name, size_t i,
    const char *text, int quoted)
{
	if (w->fmt == HTTP_FMT_JSON && i > 0)
		evbuffer_add(w->out, ",", 1);
	doc_scalar(w, name, text, quoted);
}

static void
doc_leaf_list_end(struct doc_writer *w)
{
	if (w->fmt == HTTP_FMT_JSON)
		evbuffer_add(w->out, "]", 1);
}

void
doc_leaf_list_uint(struct doc_writer *w, const char *name,
    const uint32_t *v, size_t n)
{
	char	num[16];
	size_t	i;

	if (doc_leaf_list_begin(w, name, n) == -1)
		return;
	for (i = 0; i < n; i++) {
		snprintf(num, sizeof(num), "%lu", (unsigned long)v[i]);
		doc_leaf_list_item(w, name, i, num, 0);
	}
	doc_leaf_list_end(w);
}

void
doc_leaf_list_str(struct doc_writer *w, const char *name,
    const char *const *v, size_t n)
{
	size_t	i;

	if (doc_leaf_list_begin(w, name, n) == -1)
		return;
	for (i = 0; i < n; i++)
		doc_leaf_list_item(w, name, i, v[i], 1);
	doc_leaf_list_end(w);
}

int
doc_finish(struct doc_writer *w)
{
	while (w->depth > 0)
		doc_end(w);
	if (w->fmt == HTTP_FMT_JSON)
		evbuffer_add(w->out, "}", 1);
	evbuffer_add(w->out, "\n", 1);
	return w->err ? -1 : 0;
}
