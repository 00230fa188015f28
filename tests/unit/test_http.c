/*
 * The northbound's pure parts: request paths (RFC 3986 percent-decoding,
 * RFC 8040 section 3.5.3 and the draft style), basic auth (RFC 7617, its
 * section 2 example), media types, error bodies (RFC 8040 section 7) and
 * the JSON/XML document layer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>

#include "check.h"
#include "doc.h"
#include "http_server.h"
#include "restconf.h"

static struct http_path	hp;
static struct rc_path	rp;

/* The evbuffer's text, NUL-terminated, in a static buffer. */
static const char *
text(struct evbuffer *b)
{
	static char	s[4096];
	size_t		n = evbuffer_get_length(b);

	if (n >= sizeof(s))
		n = sizeof(s) - 1;
	evbuffer_copyout(b, s, n);
	s[n] = '\0';
	evbuffer_drain(b, evbuffer_get_length(b));
	return s;
}

static int
path_ok(const char *p)
{
	char	err[128];

	return http_path_parse(p, &hp, err, sizeof(err)) == 0;
}

static void
test_paths(void)
{
	char	long_path[HTTP_MAX_PATH + 16], out[16];
	int	i;

	CHECK(path_ok("/rests/data/opendaylight-inventory:nodes/"
	    "node=openflow%3A1") && hp.n == 4, "RFC 8040 path: 4 segments");
	CHECK(strcmp(hp.seg[3], "node=openflow:1") == 0 &&
	    strcmp(hp.raw[3], "node=openflow%3A1") == 0,
	    "segment decoded, raw kept");
	CHECK(path_ok("/rests/data/") && hp.n == 2, "one trailing slash");
	CHECK(path_ok("/") && hp.n == 0, "root: no segments");
	CHECK(path_ok("/a/%2F%20b") && strcmp(hp.seg[1], "/ b") == 0,
	    "encoded slash and space stay in the segment");
	CHECK(!path_ok(""), "empty path refused");
	CHECK(!path_ok("rests/data"), "relative path refused");
	CHECK(!path_ok("/a//b"), "empty segment refused");
	CHECK(!path_ok("/a/../b"), "dot-dot refused");
	CHECK(!path_ok("/a/./b"), "dot refused");
	CHECK(!path_ok("/a/%2e%2E/b"), "encoded dot-dot refused");
	CHECK(!path_ok("/a/%zz"), "bad escape refused");
	CHECK(!path_ok("/a/%4"), "short escape refused");
	CHECK(!path_ok("/a%"), "escape at the end refused");
	CHECK(!path_ok("/a/%00b"), "encoded NUL refused");
	CHECK(!path_ok("/a/%0d%0a"), "encoded CR LF refused");
	CHECK(!path_ok("/a b"), "raw space refused");
	CHECK(!path_ok("/a\\..\\b"), "backslash refused");
	CHECK(!path_ok("/a/\x80"), "raw 8-bit byte refused");
	memset(long_path, 'a', sizeof(long_path));
	long_path[0] = '/';
	long_path[sizeof(long_path) - 1] = '\0';
	CHECK(!path_ok(long_path), "over-long path refused");
	for (i = 0; i < HTTP_MAX_SEGS + 1; i++)
		memcpy(long_path + 2 * i, "/x", 2);
	long_path[2 * i] = '\0';
	CHECK(!path_ok(long_path), "%d segments refused", i);
	long_path[2 * (i - 1)] = '\0';
	CHECK(path_ok(long_path) && hp.n == HTTP_MAX_SEGS, "%d segments ok",
	    HTTP_MAX_SEGS);
	CHECK(http_pct_decode("%41%62c", 7, out, sizeof(out)) == 0 &&
	    strcmp(out, "Abc") == 0, "percent-decoding");
	CHECK(http_pct_decode("abcd", 4, out, 4) == -1, "no room for the NUL");
	CHECK(http_pct_decode("abc", 3, out, 4) == 0, "exact room");
}

static int
rc_ok(const char *path, size_t from, enum rc_style st)
{
	static const struct rc_list lists[] = {
		{ "node", 1 }, { "table", 1 }, { "flow", 1 }, { "pair", 2 },
		{ NULL, 0 },
	};
	char	err[128];

	if (!path_ok(path))
		return 0;
	return rc_path_parse(&hp, from, st, lists, &rp, err, sizeof(err))
	    == 0;
}

static void
test_rc_paths(void)
{
	enum rc_content	c;
	char		err[128];

	CHECK(rc_ok("/rests/data/opendaylight-inventory:nodes/"
	    "node=openflow%3A1/flow-node-inventory:table=0", 2,
	    RC_STYLE_RFC8040) && rp.n == 3, "RFC 8040: 3 elements");
	CHECK(strcmp(rp.e[0].module, "opendaylight-inventory") == 0 &&
	    strcmp(rp.e[0].name, "nodes") == 0 && rp.e[0].nkeys == 0,
	    "module:name");
	CHECK(rp.e[1].module == NULL && rc_elem_is(&rp.e[1], "node") &&
	    rp.e[1].nkeys == 1 && strcmp(rp.e[1].key[0], "openflow:1") == 0,
	    "list key decoded");
	CHECK(strcmp(rp.e[2].module, "flow-node-inventory") == 0 &&
	    strcmp(rp.e[2].key[0], "0") == 0, "prefixed list with key");
	CHECK(rc_ok("/rests/data/m:c/flow=a%2Cb", 2, RC_STYLE_RFC8040) &&
	    rp.e[1].nkeys == 1 && strcmp(rp.e[1].key[0], "a,b") == 0,
	    "encoded comma stays in the key");
	CHECK(rc_ok("/rests/data/m:c/pair=x,", 2, RC_STYLE_RFC8040) &&
	    rp.e[1].nkeys == 2 && strcmp(rp.e[1].key[1], "") == 0,
	    "two keys, the second empty");
	CHECK(!rc_ok("/rests/data/m:c/node", 2, RC_STYLE_RFC8040),
	    "list without its key refused");
	CHECK(!rc_ok("/rests/data/m:c/node=a,b", 2, RC_STYLE_RFC8040),
	    "too many keys refused");
	CHECK(!rc_ok("/rests/data/m:c/leaf=1", 2, RC_STYLE_RFC8040),
	    "key on a non-list refused");
	CHECK(!rc_ok("/rests/data/m:1abc", 2, RC_STYLE_RFC8040),
	    "not a YANG identifier");
	CHECK(!rc_ok("/rests/data/m:c/a:b:c", 2, RC_STYLE_RFC8040),
	    "two colons in a name refused");
	CHECK(rc_ok("/restconf/operational/opendaylight-inventory:nodes/node/"
	    "openflow:1/table/0", 2, RC_STYLE_DRAFT) && rp.n == 3,
	    "draft: 3 elements");
	CHECK(strcmp(rp.e[1].key[0], "openflow:1") == 0 &&
	    strcmp(rp.e[2].key[0], "0") == 0, "draft: keys from segments");
	CHECK(rc_ok("/restconf/config/m:c/node/a%2Fb", 2, RC_STYLE_DRAFT) &&
	    strcmp(rp.e[1].key[0], "a/b") == 0, "draft: encoded slash in key");
	CHECK(!rc_ok("/restconf/config/m:c/node", 2, RC_STYLE_DRAFT),
	    "draft: missing key refused");
	CHECK(!rc_ok("/restconf/config/m:c/pair/x", 2, RC_STYLE_DRAFT),
	    "draft: missing second key refused");

	CHECK(rc_query_parse(NULL, &c, err, sizeof(err)) == 0 &&
	    c == RC_CONTENT_ALL, "no query: content=all");
	CHECK(rc_query_parse("content=nonconfig", &c, err, sizeof(err)) == 0 &&
	    c == RC_CONTENT_NONCONFIG, "content=nonconfig");
	CHECK(rc_query_parse("content=config", &c, err, sizeof(err)) == 0 &&
	    c == RC_CONTENT_CONFIG, "content=config");
	CHECK(rc_query_parse("content=bogus", &c, err, sizeof(err)) == -1,
	    "bad content refused");
	CHECK(rc_query_parse("depth=1", &c, err, sizeof(err)) == -1,
	    "unsupported parameter refused");
	CHECK(rc_query_parse("content=all&x", &c, err, sizeof(err)) == -1,
	    "a second unknown parameter refused");
}

static void
test_auth(void)
{
	uint8_t	out[64];
	char	u[HTTP_MAX_CRED], p[HTTP_MAX_CRED], big[1024];
	size_t	n;

	CHECK(http_b64_decode("YWRtaW46YWRtaW4=", 16, out, sizeof(out), &n)
	    == 0 && n == 11 && memcmp(out, "admin:admin", 11) == 0,
	    "base64 admin:admin");
	CHECK(http_b64_decode("YWRtaW46YWRtaW4", 15, out, sizeof(out), &n)
	    == 0 && n == 11, "base64 without padding");
	CHECK(http_b64_decode("YW*t", 4, out, sizeof(out), &n) == -1,
	    "base64: bad character");
	CHECK(http_b64_decode("YWRta", 5, out, sizeof(out), &n) == -1,
	    "base64: impossible length");
	CHECK(http_b64_decode("YW=x", 4, out, sizeof(out), &n) == -1,
	    "base64: padding inside");
	CHECK(http_b64_decode("YWRtaW46YWRtaW4=", 16, out, 5, &n) == -1,
	    "base64: no room");
	/* RFC 7617 section 2's example. */
	CHECK(http_basic_decode("Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==", u,
	    sizeof(u), p, sizeof(p)) == 0 && strcmp(u, "Aladdin") == 0 &&
	    strcmp(p, "open sesame") == 0, "RFC 7617 example");
	CHECK(http_basic_decode("basic  YWRtaW46YTpi ", u, sizeof(u), p,
	    sizeof(p)) == 0 && strcmp(u, "admin") == 0 &&
	    strcmp(p, "a:b") == 0, "scheme case, spaces, colon in password");
	CHECK(http_basic_decode("Basic OnB3", u, sizeof(u), p, sizeof(p))
	    == 0 && u[0] == '\0' && strcmp(p, "pw") == 0, "empty user");
	CHECK(http_basic_decode("Bearer YWRtaW46YWRtaW4=", u, sizeof(u), p,
	    sizeof(p)) == -1, "other scheme refused");
	CHECK(http_basic_decode("BasicYWRtaW46YWRtaW4=", u, sizeof(u), p,
	    sizeof(p)) == -1, "no space after the scheme");
	CHECK(http_basic_decode("Basic YWRtaW4=", u, sizeof(u), p, sizeof(p))
	    == -1, "no colon refused");
	CHECK(http_basic_decode("Basic ", u, sizeof(u), p, sizeof(p)) == -1,
	    "nothing after the scheme");
	CHECK(http_basic_decode(NULL, u, sizeof(u), p, sizeof(p)) == -1,
	    "no header");
	CHECK(http_basic_decode("Basic YQphOmI=", u, sizeof(u), p, sizeof(p))
	    == -1, "control character refused");
	CHECK(http_basic_decode("Basic YWRtaW46YWRtaW4=", u, 3, p, sizeof(p))
	    == -1, "user longer than the room");
	memset(big, 'Q', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	memcpy(big, "Basic ", 6);
	CHECK(http_basic_decode(big, u, sizeof(u), p, sizeof(p)) == -1,
	    "over-long credentials refused");
}

/* What the head gate reads before evhttp: credentials, Accept, and
 * whether a body follows. */
static void
test_head_fields(void)
{
	struct http_head_fields	 f;
	const char		*h;
	char			 big[2048];

	h = "POST /x HTTP/1.1\r\nHost: a\r\nauthorization:  Basic "
	    "YWRtaW46YWRtaW4= \r\nContent-Length: 30000000\r\n"
	    "Accept: application/yang-data+xml\r\n\r\n";
	CHECK(http_head_fields(h, strlen(h), &f) == 0, "a POST head reads");
	CHECK(strcmp(f.auth, "Basic YWRtaW46YWRtaW4=") == 0,
	    "Authorization found whatever its case, trimmed: '%s'", f.auth);
	CHECK(strcmp(f.accept, "application/yang-data+xml") == 0,
	    "Accept found: '%s'", f.accept);
	CHECK(f.has_body, "a Content-Length other than 0 is a body");
	h = "GET /x HTTP/1.1\nHost: a\nContent-Length: 000\n\n";
	CHECK(http_head_fields(h, strlen(h), &f) == 0 && !f.has_body &&
	    f.auth[0] == '\0' && f.accept[0] == '\0',
	    "bare LFs; Content-Length 0 is no body; nothing else found");
	h = "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
	CHECK(http_head_fields(h, strlen(h), &f) == 0 && f.has_body,
	    "a chunked body is a body");
	h = "POST /x HTTP/1.1\r\nExpect: 100-continue\r\n\r\n";
	CHECK(http_head_fields(h, strlen(h), &f) == 0 && f.has_body,
	    "Expect promises a body");
	h = "POST /x HTTP/1.1\r\nContent-Length: x\r\n\r\n";
	CHECK(http_head_fields(h, strlen(h), &f) == 0 && f.has_body,
	    "a length that is not a number counts as a body");
	h = "GET /x HTTP/1.1\r\nX-Authorization: Basic YQ==\r\n"
	    "Authorizationx: Basic YQ==\r\n\r\n";
	CHECK(http_head_fields(h, strlen(h), &f) == 0 && f.auth[0] == '\0',
	    "only the header named Authorization counts");
	snprintf(big, sizeof(big), "GET / HTTP/1.1\r\nAuthorization: %01500d"
	    "\r\n\r\n", 0);
	CHECK(http_head_fields(big, strlen(big), &f) == -1 &&
	    f.auth[0] == '\0', "an over-long Authorization is unreadable");
	snprintf(big, sizeof(big), "POST / HTTP/1.1\r\nContent-Length: 5\r\n"
	    "Authorization: %01500d\r\n\r\n", 0);
	CHECK(http_head_fields(big, strlen(big), &f) == -1 && f.has_body,
	    "... and the body it brings is still seen");
	snprintf(big, sizeof(big), "GET / HTTP/1.1\r\nAccept: %0700d\r\n"
	    "\r\n", 0);
	CHECK(http_head_fields(big, strlen(big), &f) == 0 &&
	    f.accept[0] == '\0', "an over-long Accept is as none");
}

static void
test_media(void)
{
	enum http_fmt	 f;
	const char	*t;
	char		 v[16];

	CHECK(http_content_type("application/json", &f) == 0 &&
	    f == HTTP_FMT_JSON, "application/json");
	CHECK(http_content_type("application/yang-data+json; charset=utf-8",
	    &f) == 0 && f == HTTP_FMT_JSON, "yang-data+json with charset");
	CHECK(http_content_type("APPLICATION/XML", &f) == 0 &&
	    f == HTTP_FMT_XML, "XML, any case");
	CHECK(http_content_type(" application/yang-data+xml ", &f) == 0 &&
	    f == HTTP_FMT_XML, "yang-data+xml");
	CHECK(http_content_type("application/yang.data+json", &f) == 0 &&
	    f == HTTP_FMT_JSON, "the draft's yang.data+json (CSIT's)");
	CHECK(http_content_type("application/yang.data+xml", &f) == 0 &&
	    f == HTTP_FMT_XML, "the draft's yang.data+xml");
	CHECK(http_content_type("text/plain", &f) == -1, "text/plain refused");
	CHECK(http_content_type("application/x-www-form-urlencoded", &f) == -1,
	    "form refused");
	CHECK(http_content_type(NULL, &f) == -1, "none refused");

	CHECK(http_accept(NULL, HTTP_FMT_JSON, &f, &t) == 0 &&
	    f == HTTP_FMT_JSON && strcmp(t, "application/json") == 0,
	    "no Accept: default");
	CHECK(http_accept("application/xml", HTTP_FMT_JSON, &f, &t) == 1 &&
	    f == HTTP_FMT_XML && strcmp(t, "application/xml") == 0,
	    "Accept XML");
	CHECK(http_accept("*/*", HTTP_FMT_JSON, &f, &t) == 0 &&
	    f == HTTP_FMT_JSON, "*/*: default");
	CHECK(http_accept("text/html", HTTP_FMT_JSON, &f, &t) == -1,
	    "nothing we serve");
	CHECK(http_accept("application/xml;q=0.5, application/json",
	    HTTP_FMT_XML, &f, &t) == 1 && f == HTTP_FMT_JSON,
	    "q-values pick JSON");
	CHECK(http_accept("text/html, application/yang-data+xml",
	    HTTP_FMT_JSON, &f, &t) == 1 && f == HTTP_FMT_XML &&
	    strcmp(t, "application/yang-data+xml") == 0, "skips what we lack");
	CHECK(http_accept("application/json;q=0", HTTP_FMT_JSON, &f, &t) == -1,
	    "q=0 is not acceptable");

	CHECK(http_query_get("content=nonconfig", "content", v, sizeof(v))
	    == 1 && strcmp(v, "nonconfig") == 0, "query value");
	CHECK(http_query_get("a=1&contents=x&content=c%6Fnfig", "content", v,
	    sizeof(v)) == 1 && strcmp(v, "config") == 0,
	    "query: exact name, decoded");
	CHECK(http_query_get("a=1", "content", v, sizeof(v)) == 0,
	    "query: absent");
	CHECK(http_query_get("content=%zz", "content", v, sizeof(v)) == -1,
	    "query: bad escape");
	CHECK(http_query_get("content=0123456789abcdefXYZ", "content", v,
	    sizeof(v)) == -1, "query: too long");
}

static void
test_errors(void)
{
	struct evbuffer	*b = evbuffer_new();
	struct doc	 d;
	struct doc_node	 root, n, e;
	struct doc_iter	 it;
	char		 err[128], s[64];
	const char	*js;

	http_error_render(b, HTTP_FMT_JSON, "protocol", "data-missing",
	    "Request could not be completed");
	CHECK(strcmp(text(b), "{\"errors\":{\"error\":[{\"error-type\":"
	    "\"protocol\",\"error-tag\":\"data-missing\",\"error-message\":"
	    "\"Request could not be completed\"}]}}\n") == 0,
	    "JSON error body");
	http_error_render(b, HTTP_FMT_XML, "application", "data-exists",
	    "a <b> & \"c\"");
	CHECK(strcmp(text(b), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<errors xmlns=\"urn:ietf:params:xml:ns:yang:ietf-restconf\">"
	    "<error><error-type>application</error-type><error-tag>"
	    "data-exists</error-tag><error-message>a &lt;b&gt; &amp; "
	    "&quot;c&quot;</error-message></error></errors>\n") == 0,
	    "XML error body, escaped");
	http_error_render(b, HTTP_FMT_JSON, "protocol", "malformed-message",
	    "q\"\\\n\x01\xff end");
	js = text(b);
	CHECK(strstr(js, "\"q\\\"\\\\\\u000a\\u0001? end\"") != NULL,
	    "JSON escapes, bad UTF-8 replaced: %s", js);
	CHECK(doc_parse(&d, HTTP_FMT_JSON, js, strlen(js), err, sizeof(err))
	    == 0, "escaped error body parses");
	doc_root(&d, &root);
	CHECK(doc_child(&root, "ietf-restconf:errors", &n) == 0, "errors");
	doc_iter_init(&it, &n, "error");
	CHECK(doc_iter_next(&it, &e) == 1 && doc_get_string(&e, "error-tag",
	    s, sizeof(s)) == 0 && strcmp(s, "malformed-message") == 0,
	    "error-tag read back");
	CHECK(doc_iter_next(&it, &e) == 0, "one error");
	doc_free(&d);
	evbuffer_free(b);
}

static const char flows_json[] =
	"{\"flow-node-inventory:table\":{\"id\":0,\"flow-node-inventory:flow\":"
	"[{\"id\":\"f1\",\"priority\":10,\"cookie\":\"18446744073709551615\"},"
	"{\"id\":\"f2\",\"priority\":-1,\"flags\":true}]}}";
static const char flows_xml[] =
	"<?xml version=\"1.0\"?>\n"
	"<table xmlns=\"urn:opendaylight:flow:inventory\"><id>0</id>\n"
	"  <flow><id>f1</id><priority> 10 </priority>"
	"<cookie>18446744073709551615</cookie></flow>\n"
	"  <flow><id>f2</id><priority>-1</priority><flags>true</flags>"
	"<match><x>1</x></match></flow>\n"
	"</table>";

static void
test_doc_read(enum http_fmt fmt, const char *body)
{
	struct doc	 d;
	struct doc_node	 root, t, f;
	struct doc_iter	 it;
	char		 err[128], s[16];
	uint64_t	 v;
	int		 n = 0;
	const char	*fn = fmt == HTTP_FMT_JSON ? "JSON" : "XML";

	CHECK(doc_parse(&d, fmt, body, strlen(body), err, sizeof(err)) == 0,
	    "%s parses", fn);
	doc_root(&d, &root);
	CHECK(doc_child(&root, "table", &t) == 0, "%s: table, no prefix", fn);
	CHECK(doc_child(&root, "flow-node-inventory:table", &t) == 0,
	    "%s: table, prefixed", fn);
	CHECK(doc_child(&root, "other-module:table", &t) == -1 ||
	    fmt == HTTP_FMT_XML, "%s: another module's table", fn);
	CHECK(doc_get_uint(&t, "id", 255, &v) == 0 && v == 0, "%s: id 0", fn);
	doc_iter_init(&it, &t, "flow");
	while (doc_iter_next(&it, &f) == 1) {
		n++;
		CHECK(doc_get_string(&f, "id", s, sizeof(s)) == 0 &&
		    s[0] == 'f' && s[1] == '0' + n, "%s: flow %d id", fn, n);
		if (n == 1) {
			CHECK(doc_get_uint(&f, "priority", 65535, &v) == 0 &&
			    v == 10, "%s: priority", fn);
			CHECK(doc_get_uint(&f, "cookie", UINT64_MAX, &v) == 0 &&
			    v == UINT64_MAX, "%s: 64-bit cookie", fn);
			CHECK(doc_get_uint(&f, "cookie", UINT32_MAX, &v) == -1,
			    "%s: cookie over a smaller max", fn);
			CHECK(doc_get_string(&f, "cookie", s, 5) == -1,
			    "%s: string longer than the room", fn);
		} else {
			CHECK(doc_get_uint(&f, "priority", 65535, &v) == -1,
			    "%s: negative refused", fn);
			CHECK(doc_get_string(&f, "flags", s, sizeof(s)) == 0 &&
			    strcmp(s, "true") == 0, "%s: boolean", fn);
			CHECK(doc_get_string(&f, "match", s, sizeof(s)) == -1,
			    "%s: a container is not a leaf", fn);
		}
	}
	CHECK(n == 2, "%s: two flows, got %d", fn, n);
	CHECK(doc_get_string(&t, "missing", s, sizeof(s)) == -1,
	    "%s: missing child", fn);
	doc_free(&d);
}

static void
test_doc_bad(void)
{
	static const char *const bad_json[] = {
		"{\"a\":", "[1,2]", "{\"a\":1,\"a\":2}", "{\"a\":1}x", "nul",
	};
	static const char *const bad_xml[] = {
		"<a><b></a>", "<a>", "not xml",
		"<!DOCTYPE a [<!ENTITY e \"x\">]><a>&e;</a>",
		"<?xml version=\"1.0\"?>",
	};
	struct doc	d;
	char		err[256];
	size_t		i;

	for (i = 0; i < sizeof(bad_json) / sizeof(bad_json[0]); i++) {
		err[0] = '\0';
		CHECK(doc_parse(&d, HTTP_FMT_JSON, bad_json[i],
		    strlen(bad_json[i]), err, sizeof(err)) == -1 &&
		    err[0] != '\0', "bad JSON %zu: %s", i, err);
	}
	for (i = 0; i < sizeof(bad_xml) / sizeof(bad_xml[0]); i++) {
		err[0] = '\0';
		CHECK(doc_parse(&d, HTTP_FMT_XML, bad_xml[i],
		    strlen(bad_xml[i]), err, sizeof(err)) == -1 &&
		    err[0] != '\0', "bad XML %zu: %s", i, err);
	}
	CHECK(doc_parse(&d, HTTP_FMT_JSON, "", 0, err, sizeof(err)) == -1,
	    "empty body refused");
	CHECK(doc_parse(&d, HTTP_FMT_JSON, "{\"a\":1}", 3, err, sizeof(err))
	    == -1, "only len bytes are read");
}

static const struct doc_module m_inv = { "opendaylight-inventory",
    "urn:opendaylight:inventory" };
static const struct doc_module m_fni = { "flow-node-inventory",
    "urn:opendaylight:flow:inventory" };

static void
write_nodes(struct doc_writer *w)
{
	doc_container(w, &m_inv, "nodes");
	doc_list(w, NULL, "node");
	doc_entry(w);
	doc_leaf_str(w, "id", "openflow:1");
	doc_list(w, &m_fni, "table");
	doc_entry(w);
	doc_leaf_uint(w, "id", 0);
	doc_end(w);
	doc_entry(w);
	doc_leaf_uint(w, "id", 1);
	doc_end(w);
	doc_end(w);
	doc_end(w);
}

static void
test_doc_write(void)
{
	struct evbuffer		*b = evbuffer_new();
	struct doc_writer	 w;

	doc_writer_init(&w, HTTP_FMT_JSON, b);
	write_nodes(&w);
	CHECK(doc_finish(&w) == 0, "JSON writer finished");
	CHECK(strcmp(text(b), "{\"opendaylight-inventory:nodes\":{\"node\":["
	    "{\"id\":\"openflow:1\",\"flow-node-inventory:table\":[{\"id\":0},"
	    "{\"id\":1}]}]}}\n") == 0, "JSON: qualified where the module "
	    "changes");
	doc_writer_init(&w, HTTP_FMT_XML, b);
	write_nodes(&w);
	CHECK(doc_finish(&w) == 0, "XML writer finished");
	CHECK(strcmp(text(b), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<nodes xmlns=\"urn:opendaylight:inventory\"><node><id>openflow:1"
	    "</id><table xmlns=\"urn:opendaylight:flow:inventory\"><id>0</id>"
	    "</table><table xmlns=\"urn:opendaylight:flow:inventory\"><id>1"
	    "</id></table></node></nodes>\n") == 0,
	    "XML: namespace where the module changes");
	doc_writer_init(&w, HTTP_FMT_JSON, b);
	doc_container(&w, &m_inv, "nodes");
	doc_list(&w, NULL, "node");
	doc_end(&w);
	doc_leaf_str(&w, "after", "x");
	CHECK(doc_finish(&w) == 0 && strcmp(text(b), "{\"opendaylight-"
	    "inventory:nodes\":{\"after\":\"x\"}}\n") == 0,
	    "JSON: an empty list is no member");
	doc_writer_init(&w, HTTP_FMT_XML, b);
	doc_container(&w, &m_inv, "nodes");
	doc_list(&w, NULL, "node");
	CHECK(doc_finish(&w) == 0 && strstr(text(b), "<nodes xmlns=\"urn:"
	    "opendaylight:inventory\"></nodes>") != NULL,
	    "XML: an empty list is no element");
	{
		static const uint32_t	as[] = { 65001, 4200000000u };

		doc_writer_init(&w, HTTP_FMT_JSON, b);
		doc_container(&w, &m_inv, "seg");
		doc_leaf_list_uint(&w, "as-sequence", as, 2);
		doc_leaf_list_uint(&w, "none", as, 0);
		CHECK(doc_finish(&w) == 0 && strcmp(text(b), "{\"opendaylight-"
		    "inventory:seg\":{\"as-sequence\":[65001,4200000000]}}\n")
		    == 0, "JSON: a leaf-list is an array, an empty one nothing");
		doc_writer_init(&w, HTTP_FMT_XML, b);
		doc_container(&w, &m_inv, "seg");
		doc_leaf_list_uint(&w, "as-sequence", as, 2);
		CHECK(doc_finish(&w) == 0 && strstr(text(b), "<as-sequence>65001"
		    "</as-sequence><as-sequence>4200000000</as-sequence>") !=
		    NULL, "XML: a leaf-list is one element per value");
	}
	doc_writer_init(&w, HTTP_FMT_JSON, b);
	doc_leaf_str(&w, "top", "x");
	CHECK(doc_finish(&w) == -1, "a leaf at the top is misuse");
	doc_writer_init(&w, HTTP_FMT_JSON, b);
	doc_list(&w, &m_inv, "node");
	doc_leaf_str(&w, "id", "x");
	CHECK(doc_finish(&w) == -1, "a leaf in a list outside an entry");
	text(b);
	evbuffer_free(b);
}

static void
test_doc_read_json(void)
{
	test_doc_read(HTTP_FMT_JSON, flows_json);
}

static void
test_doc_read_xml(void)
{
	test_doc_read(HTTP_FMT_XML, flows_xml);
}

static const struct check_case cases[] = {
	CASE(test_paths),
	CASE(test_rc_paths),
	CASE(test_auth),
	CASE(test_head_fields),
	CASE(test_media),
	CASE(test_errors),
	CASE(test_doc_read_json),
	CASE(test_doc_read_xml),
	CASE(test_doc_bad),
	CASE(test_doc_write),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
