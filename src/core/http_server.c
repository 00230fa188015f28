/*
 * The controller's HTTP server (see http_server.h).  evhttp reads requests
 * and writes replies; this file checks each request in the order an
 * OpenDaylight server does (credentials, path, method, body) before a
 * route's handler sees it, and renders every refusal as a RESTCONF error.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <event2/util.h>

#include "doc.h"
#include "engine.h"
#include "http_server.h"
#include "http_priv.h"
#include "log.h"
#include "xml_shape.h"

#define HTTP_TIMEOUT_S		60
#define HTTP_BACKLOG		1024
#define HTTP_MAX_MSG		512

#define HTTP_M_BODY	(EVHTTP_REQ_POST | EVHTTP_REQ_PUT | EVHTTP_REQ_PATCH)
#define HTTP_M_ALL	(EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_HEAD | \
	EVHTTP_REQ_PUT | EVHTTP_REQ_DELETE | EVHTTP_REQ_OPTIONS | \
	EVHTTP_REQ_TRACE | EVHTTP_REQ_CONNECT | EVHTTP_REQ_PATCH)

/* The ietf-restconf errors container (RFC 8040 section 8), unqualified
 * in JSON as OpenDaylight writes it. */
static const struct doc_module http_rc_errors = {
	NULL, "urn:ietf:params:xml:ns:yang:ietf-restconf"
};

static const struct {
	const char	*type;
	enum http_fmt	 fmt;
} http_media[] = {
	/* RFC 8040 section 11.3 first: they are what we answer with. */
	{ "application/yang-data+json",	HTTP_FMT_JSON },
	{ "application/yang-data+xml",	HTTP_FMT_XML },
	{ "application/json",		HTTP_FMT_JSON },
	{ "application/xml",		HTTP_FMT_XML },
	/* The RESTCONF draft's (draft-bierman-netconf-restconf-02 section
	 * 2.3), which ODL's draft URLs took and CSIT's older variables
	 * (HEADERS_YANG_JSON) still send. */
	{ "application/yang.data+json",	HTTP_FMT_JSON },
	{ "application/yang.data+xml",	HTTP_FMT_XML },
};
#define HTTP_NMEDIA	(sizeof(http_media) / sizeof(http_media[0]))

/* What a reply is labelled when the client named no type; RESTCONF's
 * RFC 8040 routes switch to the yang-data ones (restconf.c). */
static const char *const http_plain[] = { "application/json",
    "application/xml" };

void
http_server_config_defaults(struct http_server_config *c)
{
	memset(c, 0, sizeof(*c));
	c->name = "RESTCONF";
	c->port = 8181;
	c->user = HTTP_DEFAULT_USER;
	c->password = HTTP_DEFAULT_PASSWORD;
	c->realm = "opendaylight";
	c->max_body = HTTP_DEFAULT_MAX_BODY;
	c->max_conns = HTTP_DEFAULT_MAX_CONNS;
	c->max_conns_opt = "--restconf-max-connections";
	c->head_timeout = HTTP_DEFAULT_HEAD_S;
	c->max_depth = HTTP_DEFAULT_MAX_DEPTH;
	c->max_attrs = HTTP_DEFAULT_MAX_ATTRS;
}

int
http_listen_parse(const char *opt, const char *arg, char *addr,
    size_t addrlen, uint16_t *port, char *err, size_t errlen)
{
	const char	*colon = strrchr(arg, ':'), *a = arg, *num;
	char		*end;
	unsigned long	 v;
	size_t		 len;

	num = colon != NULL ? colon + 1 : arg;
	errno = 0;
	v = strtoul(num, &end, 10);
	if (*num < '0' || *num > '9' || *end != '\0' || errno != 0 ||
	    v < 1 || v > 65535) {
		snprintf(err, errlen, "%s: expected [IP:]PORT, PORT 1 to "
		    "65535", opt);
		return -1;
	}
	*port = (uint16_t)v;
	addr[0] = '\0';
	if (colon == NULL)
		return 0;
	len = (size_t)(colon - arg);
	if (len >= 2 && arg[0] == '[' && arg[len - 1] == ']') {
		a++;
		len -= 2;
	}
	if (len == 0 || len >= addrlen) {
		snprintf(err, errlen, "%s: expected [IP:]PORT", opt);
		return -1;
	}
	memcpy(addr, a, len);
	addr[len] = '\0';
	return 0;
}

/* ---- pure parts ---- */

/* c's value as a digit of alphabet (its place in it), or -1. */
static int
http_digit(const char *alphabet, int c)
{
	const char	*p;

	if (c == '\0' || (p = strchr(alphabet, c)) == NULL)
		return -1;
	return (int)(p - alphabet);
}

static int
http_hex(int c)
{
	return http_digit("0123456789abcdef", tolower(c));
}

int
http_pct_decode(const char *in, size_t len, char *out, size_t cap)
{
	size_t	i, o = 0;
	int	hi, lo;
	uint8_t	c;

	for (i = 0; i < len; i++) {
		c = (uint8_t)in[i];
		if (c == '%') {
			if (i + 2 >= len)
				return -1;
			hi = http_hex((uint8_t)in[i + 1]);
			lo = hi < 0 ? -1 : http_hex((uint8_t)in[i + 2]);
			if (lo < 0)
				return -1;
			c = (uint8_t)(hi << 4 | lo);
			i += 2;
		}
		/* No NUL or control characters in a name or key. */
		if (c < 0x20 || c == 0x7f || o + 1 >= cap)
			return -1;
		out[o++] = (char)c;
	}
	if (o >= cap)
		return -1;
	out[o] = '\0';
	return 0;
}

/* A raw path byte: visible ASCII (RFC 3986 section 3.3), no backslash. */
static int
http_path_char_ok(uint8_t c)
{
	return c > 0x20 && c < 0x7f && c != '\\';
}

static int
http_path_seg(struct http_path *p, const char *s, size_t len, size_t *used,
    char *err, size_t errlen)
{
	char	*raw = p->mem + *used, *dec;
	size_t	 i, room = sizeof(p->mem) - *used;

	if (p->n == HTTP_MAX_SEGS) {
		snprintf(err, errlen, "more than %d path segments",
		    HTTP_MAX_SEGS);
		return -1;
	}
	for (i = 0; i < len; i++)
		if (!http_path_char_ok((uint8_t)s[i])) {
			snprintf(err, errlen, "a character not allowed in a "
			    "path");
			return -1;
		}
	if (2 * (len + 1) > room) {
		snprintf(err, errlen, "the path is too long");
		return -1;
	}
	memcpy(raw, s, len);
	raw[len] = '\0';
	dec = raw + len + 1;
	if (http_pct_decode(s, len, dec, room - (len + 1)) == -1) {
		snprintf(err, errlen, "bad percent-encoding in path segment "
		    "%zu", p->n + 1);
		return -1;
	}
	/* Dot segments (RFC 3986 section 3.3) name nothing here. */
	if (strcmp(dec, ".") == 0 || strcmp(dec, "..") == 0) {
		snprintf(err, errlen, "dot segments are not accepted");
		return -1;
	}
	p->raw[p->n] = raw;
	p->seg[p->n++] = dec;
	*used += len + 1 + strlen(dec) + 1;
	return 0;
}

int
http_path_parse(const char *raw, struct http_path *p, char *err,
    size_t errlen)
{
	size_t		 len = strlen(raw), used = 0, seglen;
	const char	*s, *e;

	p->n = 0;
	if (len == 0 || raw[0] != '/') {
		snprintf(err, errlen, "the path does not start with /");
		return -1;
	}
	if (len > HTTP_MAX_PATH) {
		snprintf(err, errlen, "the path is longer than %d bytes",
		    HTTP_MAX_PATH);
		return -1;
	}
	/* One trailing slash is accepted: "/rests/data/" is "/rests/data". */
	for (s = raw + 1; *s != '\0'; s += seglen + (*e == '/')) {
		e = strchr(s, '/');
		if (e == NULL)
			e = s + strlen(s);
		seglen = (size_t)(e - s);
		if (seglen == 0) {
			snprintf(err, errlen, "an empty path segment");
			return -1;
		}
		if (http_path_seg(p, s, seglen, &used, err, errlen) == -1)
			return -1;
	}
	return 0;
}

/* RFC 4648 section 4, table 1. */
static int
http_b64_value(int c)
{
	return http_digit("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789+/", c);
}

int
http_b64_decode(const char *in, size_t len, uint8_t *out, size_t cap,
    size_t *outlen)
{
	uint32_t	acc = 0;
	size_t		i, o = 0, pad = 0;
	int		bits = 0, v;

	/* RFC 4648 section 4: padding only at the end, at most two. */
	while (len > 0 && in[len - 1] == '=' && pad < 2) {
		len--;
		pad++;
	}
	if ((len + pad) % 4 != 0 && pad != 0)
		return -1;
	if (len % 4 == 1)
		return -1;
	for (i = 0; i < len; i++) {
		if ((v = http_b64_value((uint8_t)in[i])) < 0)
			return -1;
		acc = (acc << 6) | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (o >= cap)
				return -1;
			out[o++] = (uint8_t)(acc >> bits);
		}
	}
	*outlen = o;
	return 0;
}

static int
http_cred_copy(const uint8_t *s, size_t len, char *out, size_t cap)
{
	size_t	i;

	if (len >= cap)
		return -1;
	/* RFC 7617 section 2: no control characters in either part. */
	for (i = 0; i < len; i++)
		if (s[i] < 0x20 || s[i] == 0x7f)
			return -1;
	memcpy(out, s, len);
	out[len] = '\0';
	return 0;
}

int
http_basic_decode(const char *h, char *user, size_t ucap, char *pass,
    size_t pcap)
{
	uint8_t		 raw[2 * HTTP_MAX_CRED + 2];
	const uint8_t	*colon;
	size_t		 n, len;

	if (h == NULL)
		return -1;
	/* RFC 7235 section 2.1: the scheme is case-insensitive. */
	while (*h == ' ')
		h++;
	if (strncasecmp(h, "Basic", 5) != 0 || h[5] != ' ')
		return -1;
	for (h += 6; *h == ' '; h++)
		;
	len = strlen(h);
	while (len > 0 && h[len - 1] == ' ')
		len--;
	if (len == 0 || http_b64_decode(h, len, raw, sizeof(raw), &n) == -1)
		return -1;
	/* RFC 7617 section 2: user-id ":" password; the id has no colon. */
	colon = memchr(raw, ':', n);
	if (colon == NULL)
		return -1;
	if (http_cred_copy(raw, (size_t)(colon - raw), user, ucap) == -1 ||
	    http_cred_copy(colon + 1, n - (size_t)(colon - raw) - 1, pass,
	    pcap) == -1)
		return -1;
	return 0;
}

/* The media type of a header value, without parameters or spaces. */
static int
http_media_type(const char *s, size_t len, char *out, size_t cap)
{
	const char	*semi = memchr(s, ';', len);

	if (semi != NULL)
		len = (size_t)(semi - s);
	while (len > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (len == 0 || len >= cap)
		return -1;
	memcpy(out, s, len);
	out[len] = '\0';
	return 0;
}

int
http_content_type(const char *ctype, enum http_fmt *fmt)
{
	char	t[128];
	size_t	i;

	if (ctype == NULL ||
	    http_media_type(ctype, strlen(ctype), t, sizeof(t)) == -1)
		return -1;
	for (i = 0; i < HTTP_NMEDIA; i++)
		if (strcasecmp(t, http_media[i].type) == 0) {
			*fmt = http_media[i].fmt;
			return 0;
		}
	return -1;
}

/* The q parameter of one Accept element (RFC 7231 section 5.3.2), in
 * thousandths; 1000 when absent. */
static int
http_qvalue(const char *s, size_t len)
{
	const char	*q;
	double		 v;
	char		 num[16];
	size_t		 n;

	for (q = s; q + 2 <= s + len; q++)
		if ((q[0] == 'q' || q[0] == 'Q') && q[1] == '=' &&
		    q > s && (q[-1] == ';' || q[-1] == ' '))
			break;
	if (q + 2 > s + len)
		return 1000;
	n = (size_t)(s + len - (q + 2));
	if (n == 0 || n >= sizeof(num))
		return 0;
	memcpy(num, q + 2, n);
	num[n] = '\0';
	v = strtod(num, NULL);
	return v <= 0 ? 0 : v >= 1 ? 1000 : (int)(v * 1000 + 0.5);
}

/* One Accept element: its quality and what it stands for (fmt -1: a
 * wildcard, -2: a type we do not serve). */
static int
http_accept_one(const char *s, size_t len, int *fmt, const char **type)
{
	char	t[128];
	size_t	i;

	*fmt = -2;
	if (http_media_type(s, len, t, sizeof(t)) == -1)
		return 0;
	if (strcmp(t, "*/*") == 0 || strcasecmp(t, "application/*") == 0)
		*fmt = -1;
	for (i = 0; i < HTTP_NMEDIA && *fmt == -2; i++)
		if (strcasecmp(t, http_media[i].type) == 0) {
			*fmt = (int)http_media[i].fmt;
			*type = http_media[i].type;
		}
	return http_qvalue(s, len);
}

int
http_accept(const char *accept, enum http_fmt dflt, enum http_fmt *fmt,
    const char **reply_type)
{
	const char	*s, *e, *type = NULL, *best_type = NULL;
	int		 q, f, best_q = 0, best = -2, any = 0;

	*fmt = dflt;
	*reply_type = http_plain[dflt == HTTP_FMT_XML];
	if (accept == NULL || accept[strspn(accept, " \t")] == '\0')
		return 0;
	for (s = accept; *s != '\0'; s = *e ? e + 1 : e) {
		e = strchr(s, ',');
		if (e == NULL)
			e = s + strlen(s);
		q = http_accept_one(s, (size_t)(e - s), &f, &type);
		if (q > best_q && f != -2) {
			best_q = q;
			best = f;
			best_type = type;
		}
		any = 1;
	}
	if (!any || best == -2)
		return -1;
	if (best < 0)
		return 0;
	*fmt = (enum http_fmt)best;
	*reply_type = best_type;
	return 1;
}

void
http_error_render(struct evbuffer *out, enum http_fmt fmt, const char *type,
    const char *tag, const char *msg)
{
	struct doc_writer	w;

	/* RFC 8040 section 7.1: errors { error* { error-type, error-tag,
	 * error-message } }. */
	doc_writer_init(&w, fmt, out);
	doc_container(&w, &http_rc_errors, "errors");
	doc_list(&w, NULL, "error");
	doc_entry(&w);
	doc_leaf_str(&w, "error-type", type);
	doc_leaf_str(&w, "error-tag", tag);
	doc_leaf_str(&w, "error-message", msg);
	doc_finish(&w);
}

int
http_query_get(const char *query, const char *key, char *out, size_t cap)
{
	const char	*s, *e, *eq;
	size_t		 klen = strlen(key);

	if (query == NULL)
		return 0;
	for (s = query; *s != '\0'; s = *e ? e + 1 : e) {
		e = strchr(s, '&');
		if (e == NULL)
			e = s + strlen(s);
		eq = memchr(s, '=', (size_t)(e - s));
		if ((size_t)((eq ? eq : e) - s) != klen ||
		    memcmp(s, key, klen) != 0)
			continue;
		if (eq == NULL) {
			if (cap == 0)
				return -1;
			out[0] = '\0';
			return 1;
		}
		return http_pct_decode(eq + 1, (size_t)(e - eq - 1), out,
		    cap) == -1 ? -1 : 1;
	}
	return 0;
}

/* ---- replies ---- */

static void
http_count(struct http_server *s, int status)
{
	if (status >= 500)
		s->st.status_5xx++;
	else if (status >= 400)
		s->st.status_4xx++;
	else if (status >= 200 && status < 300)
		s->st.status_2xx++;
}

void
http_reply(struct http_req *r, int status, struct evbuffer *body)
{
	struct evkeyvalq	*h = evhttp_request_get_output_headers(r->ev);

	if (r->replied)
		return;
	r->replied = 1;
	if (body != NULL && evbuffer_get_length(body) > 0)
		evhttp_add_header(h, "Content-Type", r->reply_type);
	log_debug("http: %s -> %d", evhttp_request_get_uri(r->ev), status);
	http_count(r->server, status);
	evhttp_send_reply(r->ev, status, NULL, body);
	if (r->deferred && !r->in_dispatch)
		free(r);
}

void
http_defer(struct http_req *r)
{
	r->deferred = 1;
}

void
http_error(struct http_req *r, int status, const char *type, const char *tag,
    const char *fmt, ...)
{
	struct evbuffer	*b;
	char		 msg[HTTP_MAX_MSG];
	va_list		 ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	b = evbuffer_new();
	if (b == NULL)
		fatalx("evbuffer_new");
	http_error_render(b, r->reply_fmt, type, tag, msg);
	http_reply(r, status, b);
	evbuffer_free(b);
}

/* ---- the request path through the server ---- */

/* Equal strings in time independent of where they differ, so that the
 * time of a 401 tells nothing about the password. */
static int
http_secret_eq(const char *a, const char *b)
{
	size_t		 la = strlen(a), lb = strlen(b), i;
	unsigned	 d = la != lb;

	for (i = 0; i < la && i < lb; i++)
		d |= (unsigned)(a[i] ^ b[i]);
	return d == 0;
}

int
http_cred_ok(const struct http_server *s, const char *h)
{
	char		 user[HTTP_MAX_CRED], pass[HTTP_MAX_CRED];
	int		 ok;

	if (s->cfg.user == NULL)	/* a server without credentials */
		return 1;
	if (http_basic_decode(h, user, sizeof(user), pass, sizeof(pass))
	    == -1)
		return 0;
	ok = http_secret_eq(user, s->cfg.user);
	ok &= http_secret_eq(pass, s->cfg.password);
	explicit_bzero(pass, sizeof(pass));
	return ok;
}

static int
http_auth_ok(const struct http_server *s, struct evhttp_request *ev)
{
	return http_cred_ok(s, evhttp_find_header(
	    evhttp_request_get_input_headers(ev), "Authorization"));
}

/* Segments of the route's prefix matched by the path, -1 if it does not
 * start with them. */
static int
http_route_match(const struct http_route *rt, const struct http_path *p)
{
	const char	*s = rt->prefix, *e;
	size_t		 i = 0, len;

	while (*s == '/')
		s++;
	for (; *s != '\0'; s = *e ? e + 1 : e, i++) {
		e = strchr(s, '/');
		if (e == NULL)
			e = s + strlen(s);
		len = (size_t)(e - s);
		if (i >= p->n || strlen(p->seg[i]) != len ||
		    memcmp(p->seg[i], s, len) != 0)
			return -1;
	}
	return (int)i;
}

static const struct http_route *
http_route_find(const struct http_server *s, const struct http_path *p,
    size_t *matched)
{
	const struct http_route	*best = NULL;
	size_t			 i;
	int			 m, best_m = -1;

	for (i = 0; i < s->nroutes; i++) {
		m = http_route_match(&s->routes[i], p);
		if (m > best_m) {
			best_m = m;
			best = &s->routes[i];
		}
	}
	*matched = best_m < 0 ? 0 : (size_t)best_m;
	return best;
}

/* HEAD and OPTIONS are allowed wherever GET is (RFC 8040 section 4). */
static unsigned
http_route_methods(const struct http_route *rt)
{
	unsigned	m = rt->methods;

	if (m & EVHTTP_REQ_GET)
		m |= EVHTTP_REQ_HEAD;
	return m | EVHTTP_REQ_OPTIONS;
}

static void
http_allow(struct http_req *r, unsigned methods)
{
	static const struct {
		unsigned	 m;
		const char	*name;
	} names[] = {
		{ EVHTTP_REQ_GET, "GET" }, { EVHTTP_REQ_HEAD, "HEAD" },
		{ EVHTTP_REQ_POST, "POST" }, { EVHTTP_REQ_PUT, "PUT" },
		{ EVHTTP_REQ_PATCH, "PATCH" },
		{ EVHTTP_REQ_DELETE, "DELETE" },
		{ EVHTTP_REQ_OPTIONS, "OPTIONS" },
	};
	char	allow[128];
	size_t	i, len = 0;
	int	n;

	allow[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if ((methods & names[i].m) == 0)
			continue;
		n = snprintf(allow + len, sizeof(allow) - len, "%s%s",
		    len ? ", " : "", names[i].name);
		if (n < 0 || (size_t)n >= sizeof(allow) - len)
			break;
		len += (size_t)n;
	}
	evhttp_add_header(evhttp_request_get_output_headers(r->ev), "Allow",
	    allow);
}

/* The checks before the body: Accept (so that even a 401 comes in the
 * format asked for), credentials (RFC 7617), path. */
static int
http_check_head(struct http_server *s, struct http_req *r)
{
	const char	*accept, *path;
	char		 err[256];
	int		 named;

	accept = evhttp_find_header(evhttp_request_get_input_headers(r->ev),
	    "Accept");
	named = http_accept(accept, r->reply_fmt, &r->reply_fmt,
	    &r->reply_type);
	r->reply_named = named == 1;
	if (!http_auth_ok(s, r->ev)) {
		evhttp_add_header(evhttp_request_get_output_headers(r->ev),
		    "WWW-Authenticate", s->realm_header);
		http_error(r, 401, "protocol", "access-denied",
		    "The user name or password is not correct");
		return -1;
	}
	if (named == -1) {
		/* RFC 8040 section 5.2 leaves it to HTTP: 406. */
		http_error(r, 406, "protocol", "invalid-value",
		    "None of the media types in Accept is supported: use "
		    "application/yang-data+json or application/yang-data+xml");
		return -1;
	}
	path = evhttp_uri_get_path(evhttp_request_get_evhttp_uri(r->ev));
	if (path == NULL || http_path_parse(path, &r->path, err,
	    sizeof(err)) == -1) {
		http_error(r, 400, "protocol", "invalid-value",
		    "Bad request path: %s", path ? err : "none");
		return -1;
	}
	return 0;
}

/* The route and its methods: 404 and 405 (with Allow). */
static int
http_check_route(struct http_server *s, struct http_req *r)
{
	unsigned	methods;

	r->route = http_route_find(s, &r->path, &r->route_len);
	if (r->route == NULL) {
		http_error(r, 404, "protocol", "invalid-value",
		    "The requested resource is not known: %s",
		    evhttp_uri_get_path(evhttp_request_get_evhttp_uri(r->ev)));
		return -1;
	}
	methods = http_route_methods(r->route);
	if ((methods & r->method) == 0) {
		http_allow(r, methods);
		http_error(r, 405, "protocol", "operation-not-supported",
		    "Method not allowed on this resource");
		return -1;
	}
	if (r->method == EVHTTP_REQ_OPTIONS) {
		http_allow(r, methods);
		http_reply(r, 200, NULL);
		return -1;
	}
	return 0;
}

/*
 * How deep a JSON body nests: objects and arrays, outside strings.  The
 * parsers have limits of their own (jansson 2048, libxml2 256), but a
 * document thousands of levels deep still costs a tree of that depth in
 * every handler that walks it recursively; RESTCONF's documents nest a
 * few tens of levels.  Stops counting past limit.
 */
static uint32_t
http_json_depth(const char *p, size_t len, uint32_t limit)
{
	uint32_t	depth = 0, max = 0;
	size_t		i;
	int		in_str = 0;

	for (i = 0; i < len && max <= limit; i++) {
		if (in_str) {
			if (p[i] == '\\')
				i++;
			else if (p[i] == '"')
				in_str = 0;
		} else if (p[i] == '"')
			in_str = 1;
		else if (p[i] == '{' || p[i] == '[') {
			if (++depth > max)
				max = depth;
		} else if ((p[i] == '}' || p[i] == ']') && depth > 0)
			depth--;
	}
	return max;
}

/* The body of a POST, PUT or PATCH: its size, then its type. */
static int
http_check_body(struct http_server *s, struct http_req *r)
{
	struct evbuffer	*in = evhttp_request_get_input_buffer(r->ev);
	const char	*ctype;
	struct xml_shape sh = { 0, 0 };
	size_t		 len = evbuffer_get_length(in);

	if ((r->method & HTTP_M_BODY) == 0)
		return 0;
	if (len > s->cfg.max_body) {
		http_error(r, 413, "protocol", "too-big",
		    "The request body is %zu bytes, more than %zu", len,
		    s->cfg.max_body);
		return -1;
	}
	if (len == 0)
		return 0;
	ctype = evhttp_find_header(evhttp_request_get_input_headers(r->ev),
	    "Content-Type");
	if (http_content_type(ctype, &r->body_fmt) == -1) {
		http_error(r, 415, "protocol", "invalid-value",
		    "Unsupported Content-Type %s: use "
		    "application/yang-data+json or application/yang-data+xml",
		    ctype ? ctype : "(none)");
		return -1;
	}
	r->body = (const char *)evbuffer_pullup(in, -1);
	r->body_len = len;
	if (r->body_fmt == HTTP_FMT_XML)
		xml_shape(r->body, len, s->cfg.max_depth, s->cfg.max_attrs,
		    &sh);
	else
		sh.depth = http_json_depth(r->body, len, s->cfg.max_depth);
	if (sh.depth > s->cfg.max_depth) {
		s->st.too_deep++;
		http_error(r, 400, "protocol", "malformed-message",
		    "The request body nests deeper than %u levels",
		    s->cfg.max_depth);
		return -1;
	}
	if (sh.attrs > s->cfg.max_attrs) {
		/* Checked before libxml2, whose duplicate check is
		 * quadratic in them (xml_shape.h). */
		s->st.too_many_attrs++;
		http_error(r, 400, "protocol", "malformed-message",
		    "An element of the request body has more than %u "
		    "attributes", s->cfg.max_attrs);
		return -1;
	}
	/* Without Accept the reply follows the body (RFC 8040 5.2). */
	if (!r->reply_named) {
		r->reply_fmt = r->body_fmt;
		r->reply_type = http_plain[r->body_fmt == HTTP_FMT_XML];
	}
	return 0;
}

/*
 * evhttp writes headers and body apart: with Nagle's algorithm and the
 * peer's delayed ACK a reply waits ~40 ms.  Both ends of the northbound
 * turn it off (cheap to repeat on a kept-alive connection).
 */
void
http_conn_nodelay(struct evhttp_connection *conn)
{
	struct bufferevent	*bev;
	evutil_socket_t		 fd;
	int			 one = 1;

	if (conn == NULL ||
	    (bev = evhttp_connection_get_bufferevent(conn)) == NULL ||
	    (fd = bufferevent_getfd(bev)) == -1)
		return;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

static void
http_dispatch(struct evhttp_request *ev, void *arg)
{
	struct http_server	*s = arg;
	struct http_req		*r;

	http_conn_nodelay(evhttp_request_get_connection(ev));
	http_conn_request(s, ev);

	/* struct http_req holds the decoded path: keep it off the stack. */
	r = xcalloc(1, sizeof(*r));
	r->server = s;
	r->ev = ev;
	r->method = evhttp_request_get_command(ev);
	r->query = evhttp_uri_get_query(evhttp_request_get_evhttp_uri(ev));
	r->reply_fmt = HTTP_FMT_JSON;
	r->reply_type = http_plain[HTTP_FMT_JSON];
	s->st.requests++;
	r->in_dispatch = 1;
	if (http_check_head(s, r) == 0 && http_check_route(s, r) == 0 &&
	    http_check_body(s, r) == 0)
		r->route->fn(r, r->route->arg);
	r->in_dispatch = 0;
	/* A deferred request is its handler's, until it replies. */
	if (r->deferred && !r->replied)
		return;
	if (!r->replied)
		http_error(r, 500, "application", "operation-failed",
		    "The request was not answered");
	free(r);
}

/* ---- the server ---- */

static int
http_bind_fd(int family, const struct sockaddr *sa, socklen_t salen,
    char *err, size_t errlen)
{
	int	fd, one = 1, zero = 0;

	fd = socket(family, SOCK_STREAM, 0);
	if (fd == -1) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* "::" takes IPv4 too, as OpenDaylight's 8181 does. */
	if (family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero,
		    sizeof(zero));
	if (bind(fd, sa, salen) == -1 || listen(fd, HTTP_BACKLOG) == -1 ||
	    evutil_make_socket_nonblocking(fd) == -1 ||
	    evutil_make_socket_closeonexec(fd) == -1) {
		int	saved = errno;

		snprintf(err, errlen, "%s", strerror(saved));
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

static int
http_listen(const struct http_server_config *c, char *err, size_t errlen)
{
	struct addrinfo	 hints, *ai;
	char		 port[8];
	int		 fd, rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
	snprintf(port, sizeof(port), "%u", c->port);
	if ((rc = getaddrinfo(http_server_address(c), port, &hints, &ai)) !=
	    0) {
		snprintf(err, errlen, "%s: %s", http_server_address(c),
		    gai_strerror(rc));
		return -1;
	}
	fd = http_bind_fd(ai->ai_family, ai->ai_addr, ai->ai_addrlen, err,
	    errlen);
	freeaddrinfo(ai);
	return fd;
}

const char *
http_server_address(const struct http_server_config *c)
{
	return c->address != NULL ? c->address : HTTP_DEFAULT_ADDRESS;
}

/* Who may use a server that is open to the network. */
static void
http_say_open(const struct http_server_config *c, int fd)
{
	char	auth[HTTP_MAX_CRED + 64];

	if (c->user == NULL)
		snprintf(auth, sizeof(auth), "no authentication");
	else
		snprintf(auth, sizeof(auth), "user %s (%s)", c->user,
		    c->password != NULL && strcmp(c->password,
		    HTTP_DEFAULT_PASSWORD) == 0 ? "default password" :
		    "password given");
	engine_listen_say(fd, c->name != NULL ? c->name : "HTTP", auth);
}

static void
http_config_copy(struct http_server *s, const struct http_server_config *c)
{
	s->cfg = *c;
	s->cfg.address = c->address ? xstrdup(c->address) : NULL;
	s->cfg.user = c->user ? xstrdup(c->user) : NULL;
	s->cfg.password = c->password ? xstrdup(c->password) : NULL;
	/* RFC 7617 section 2: the challenge names the realm. */
	xasprintf(&s->realm_header, "Basic realm=\"%s\"", c->realm);
}

struct http_server *
http_server_new(struct event_base *base, const struct http_server_config *c,
    char *err, size_t errlen)
{
	struct http_server		*s;
	struct evhttp_bound_socket	*bound;
	char				 e[200];
	int				 fd;

	if ((fd = http_listen(c, e, sizeof(e))) == -1) {
		snprintf(err, errlen, "cannot listen on %s port %u: %s",
		    http_server_address(c), c->port, e);
		return NULL;
	}
	http_say_open(c, fd);
	s = xcalloc(1, sizeof(*s));
	http_config_copy(s, c);
	if ((s->http = evhttp_new(base)) == NULL)
		fatalx("evhttp_new");
	/* Every method reaches http_dispatch, which answers 405 itself. */
	evhttp_set_allowed_methods(s->http, HTTP_M_ALL);
	evhttp_set_max_headers_size(s->http, HTTP_MAX_HEADERS);
	/* Twice the limit: a body a little over it still gets our 413 with
	 * an error body; a huge one is refused by evhttp unread. */
	evhttp_set_max_body_size(s->http, (ev_ssize_t)(2 * c->max_body));
	evhttp_set_timeout(s->http, HTTP_TIMEOUT_S);
	evhttp_set_gencb(s->http, http_dispatch, s);
	/* Every connection through the head gate (http_conn_new). */
	TAILQ_INIT(&s->fresh);
	TAILQ_INIT(&s->idle);
	if ((s->hook = event_new(base, -1, 0, http_conn_hook, s)) == NULL ||
	    event_priority_set(s->hook, 0) == -1)
		fatalx("http: cannot make the connection hook");
	evhttp_set_bevcb(s->http, http_conn_new, s);
	/* An empty reply (OPTIONS, 204) gets no made-up text/html type. */
	evhttp_set_default_content_type(s->http, NULL);
	if ((bound = evhttp_accept_socket_with_handle(s->http, fd)) == NULL) {
		snprintf(err, errlen, "evhttp cannot accept on port %u",
		    c->port);
		close(fd);
		http_server_free(s);
		return NULL;
	}
	/* At the descriptor limit evhttp's listener would spin on EMFILE. */
	s->listener = evhttp_bound_socket_get_listener(bound);
	engine_listener_guard(s->listener, "HTTP");
	return s;
}

void
http_server_route(struct http_server *s, const char *prefix,
    unsigned methods, http_handler fn, void *arg)
{
	struct http_route	*rt;

	if (s->nroutes == HTTP_MAX_ROUTES)
		fatalx("http: more than %d routes", HTTP_MAX_ROUTES);
	rt = &s->routes[s->nroutes++];
	rt->prefix = xstrdup(prefix);
	rt->methods = methods;
	rt->fn = fn;
	rt->arg = arg;
}

uint16_t
http_server_port(const struct http_server *s)
{
	struct sockaddr_storage	ss;
	socklen_t		len = sizeof(ss);
	evutil_socket_t		fd = evconnlistener_get_fd(s->listener);

	if (getsockname(fd, (struct sockaddr *)&ss, &len) == -1)
		return 0;
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	return ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

const struct http_server_stats *
http_server_stats(const struct http_server *s)
{
	return &s->st;
}

void
http_server_free(struct http_server *s)
{
	size_t	i;

	if (s == NULL)
		return;
	if (s->listener != NULL)
		engine_listener_unguard(s->listener);
	s->freeing = 1;		/* the listener goes first in evhttp_free */
	if (s->http != NULL)
		evhttp_free(s->http);
	http_conn_free_fresh(s);
	engine_event_free(&s->hook);
	for (i = 0; i < s->nroutes; i++)
		free(s->routes[i].prefix);
	free((char *)s->cfg.address);
	free((char *)s->cfg.user);
	if (s->cfg.password != NULL)
		explicit_bzero((char *)s->cfg.password,
		    strlen(s->cfg.password));
	free((char *)s->cfg.password);
	free(s->realm_header);
	free(s);
}
