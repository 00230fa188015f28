/*
 * NETCONF messages: the hellos of RFC 6241 section 8.1, the rpc examples
 * of RFC 6241 sections 4.2, 7.1, 7.2, 7.5, 7.9 and 8.9, RFC 5277 create-
 * subscription and notification, RFC 6022 get-schema, every rpc-error the
 * parser produces, and exact serialized replies where they are stable.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "check.h"
#include "nc_msg.h"
#include "xml_shape.h"

#define DECL	NC_XML_DECL
#define NSB	"xmlns=\"urn:ietf:params:xml:ns:netconf:base:1.0\""

static xmlBufferPtr	out;

static const char *
outs(void)
{
	return (const char *)xmlBufferContent(out);
}

#define CHECK_OUT(want, ...) do {					\
	int _eq = strcmp(outs(), (want)) == 0;				\
	CHECK(_eq, __VA_ARGS__);					\
	if (!_eq)							\
		printf("#  got: %s\n# want: %s\n", outs(), (want));	\
} while (0)

static int
rpc_parse(struct nc_rpc *r, const char *s, struct nc_err *e)
{
	return nc_rpc_parse(r, s, strlen(s), 1, e);
}

/* ---- hello ---- */

static const char rfc_server_hello[] =
    "<hello xmlns=\"urn:ietf:params:xml:ns:netconf:base:1.0\">\n"
    "  <capabilities>\n"
    "    <capability>\n"
    "      urn:ietf:params:netconf:base:1.1\n"
    "    </capability>\n"
    "    <capability>\n"
    "      urn:ietf:params:netconf:capability:startup:1.0\n"
    "    </capability>\n"
    "    <capability>\n"
    "      http://example.net/router/2.3/myfeature\n"
    "    </capability>\n"
    "  </capabilities>\n"
    "  <session-id>4</session-id>\n"
    "</hello>\n";

static int
hello_str(const char *s, int from_server, struct nc_hello *h)
{
	return nc_hello_parse(h, s, strlen(s), from_server);
}

static void
test_hello_rfc(void)
{
	struct nc_hello	h;
	char		s[1024];
	int		r;

	r = hello_str(rfc_server_hello, 1, &h);
	CHECK(r == NC_HELLO_OK, "8.1 server hello: %s", nc_hello_strerror(r));
	CHECK(h.capc == 3 && h.has_session_id && h.session_id == 4,
	    "8.1: 3 capabilities, session-id 4");
	CHECK(h.caps == (NC_CAPF_BASE11 | NC_CAPF_STARTUP), "8.1: known caps");
	CHECK(nc_hello_has_cap(&h, "http://example.net/router/2.3/myfeature"),
	    "8.1: trimmed vendor capability");
	CHECK(nc_hello_chunked(NC_CAPF_BASE10 | NC_CAPF_BASE11, &h),
	    "base:1.1 on both sides: chunked");
	CHECK(!nc_hello_chunked(NC_CAPF_BASE10, &h), "we 1.0 only: EOM");
	nc_hello_free(&h);

	/* A client that sends a session-id: terminate (section 8.1). */
	r = hello_str(rfc_server_hello, 0, &h);
	CHECK(r == NC_HELLO_E_SESSION_ID, "client hello with session-id");
	nc_hello_free(&h);

	snprintf(s, sizeof(s), "%s", rfc_server_hello);
	*strstr(s, "  <session-id>") = '\0';
	strcat(s, "</hello>");
	r = hello_str(s, 0, &h);
	CHECK(r == NC_HELLO_OK && !h.has_session_id && h.capc == 3,
	    "client hello without session-id");
	nc_hello_free(&h);
	r = hello_str(s, 1, &h);
	CHECK(r == NC_HELLO_E_SESSION_ID, "server hello without session-id");
	nc_hello_free(&h);

	r = hello_str(DECL "<hello " NSB "><capabilities><capability>"
	    "urn:ietf:params:netconf:base:1.0</capability></capabilities>"
	    "<session-id>0</session-id></hello>", 1, &h);
	CHECK(r == NC_HELLO_E_SESSION_ID, "session-id 0");
	nc_hello_free(&h);
	r = hello_str("<hello " NSB "><capabilities><capability>urn:x"
	    "</capability></capabilities><session-id>1</session-id></hello>",
	    1, &h);
	CHECK(r == NC_HELLO_E_NO_BASE, "no base capability");
	nc_hello_free(&h);
	r = hello_str("<hello " NSB "><capabilities/></hello>", 0, &h);
	CHECK(r == NC_HELLO_E_NO_CAPS, "no capabilities");
	nc_hello_free(&h);
	r = hello_str("<hello xmlns=\"urn:x\"><capabilities/></hello>", 0, &h);
	CHECK(r == NC_HELLO_E_NOT_HELLO, "hello in another namespace");
	nc_hello_free(&h);
	r = hello_str("<hello " NSB "><capabilities>", 0, &h);
	CHECK(r == NC_HELLO_E_XML, "truncated hello");
	nc_hello_free(&h);
}

static void
test_hello_build(void)
{
	static const struct nc_module_cap mods[] = {
		{ "urn:ietf:params:xml:ns:yang:ietf-interfaces",
		    "ietf-interfaces", "2018-02-20", "if-mib", NULL },
		{ "urn:example:m", "m", NULL, NULL, "m-dev" },
	};
	static const char *const extra[] = {
		"urn:ietf:params:netconf:capability:with-defaults:1.0"
		    "?basic-mode=explicit",
	};
	struct nc_hello_opts o = {
		.caps = NC_CAPF_BASE10 | NC_CAPF_BASE11 | NC_CAPF_CANDIDATE |
		    NC_CAPF_NOTIFICATION | NC_CAPF_INTERLEAVE,
		.modules = mods, .nmodules = 2,
		.extra = extra, .nextra = 1,
		.session_id = 7,
	};
	struct nc_hello	 h;
	char		 v[64];
	int		 r;

	xmlBufferEmpty(out);
	nc_hello_build(out, &o);
	CHECK_OUT(DECL "<hello " NSB "><capabilities>"
	    "<capability>urn:ietf:params:netconf:base:1.0</capability>"
	    "<capability>urn:ietf:params:netconf:base:1.1</capability>"
	    "<capability>urn:ietf:params:netconf:capability:candidate:1.0"
	    "</capability>"
	    "<capability>urn:ietf:params:netconf:capability:notification:1.0"
	    "</capability>"
	    "<capability>urn:ietf:params:netconf:capability:interleave:1.0"
	    "</capability>"
	    "<capability>urn:ietf:params:xml:ns:yang:ietf-interfaces"
	    "?module=ietf-interfaces&amp;revision=2018-02-20"
	    "&amp;features=if-mib</capability>"
	    "<capability>urn:example:m?module=m&amp;deviations=m-dev"
	    "</capability>"
	    "<capability>urn:ietf:params:netconf:capability:with-defaults:1.0"
	    "?basic-mode=explicit</capability>"
	    "</capabilities><session-id>7</session-id></hello>",
	    "server hello bytes");
	CHECK(strstr(outs(), "exi") == NULL, "no EXI advertised");
	r = nc_hello_parse(&h, xmlBufferContent(out), xmlBufferLength(out), 1);
	CHECK(r == NC_HELLO_OK && h.capc == 8 && h.session_id == 7,
	    "our server hello parses back");
	CHECK(h.caps == o.caps, "flags round trip");
	CHECK(nc_hello_has_cap(&h, "urn:ietf:params:xml:ns:yang:"
	    "ietf-interfaces?module=ietf-interfaces&revision=2018-02-20"
	    "&features=if-mib"), "module capability unescaped");
	CHECK(nc_cap_param(h.capv[5], "module", v, sizeof(v)) == 0 &&
	    strcmp(v, "ietf-interfaces") == 0, "cap param module");
	CHECK(nc_cap_param(h.capv[5], "revision", v, sizeof(v)) == 0 &&
	    strcmp(v, "2018-02-20") == 0, "cap param revision");
	CHECK(nc_cap_param(h.capv[5], "features", v, sizeof(v)) == 0 &&
	    strcmp(v, "if-mib") == 0, "cap param features");
	CHECK(nc_cap_param(h.capv[5], NULL, v, sizeof(v)) == 0 &&
	    strcmp(v, "urn:ietf:params:xml:ns:yang:ietf-interfaces") == 0,
	    "cap namespace");
	CHECK(nc_cap_param(h.capv[5], "rev", v, sizeof(v)) == -1 &&
	    nc_cap_param(h.capv[5], "module", v, 4) == -1,
	    "cap param absent / too long");
	nc_hello_free(&h);

	o.caps = NC_CAPF_BASE10 | NC_CAPF_BASE11;
	o.nmodules = o.nextra = 0;
	o.session_id = 0;
	xmlBufferEmpty(out);
	nc_hello_build(out, &o);
	CHECK_OUT(DECL "<hello " NSB "><capabilities>"
	    "<capability>urn:ietf:params:netconf:base:1.0</capability>"
	    "<capability>urn:ietf:params:netconf:base:1.1</capability>"
	    "</capabilities></hello>", "client hello bytes");
	r = nc_hello_parse(&h, xmlBufferContent(out), xmlBufferLength(out), 0);
	CHECK(r == NC_HELLO_OK && !h.has_session_id, "client hello parses");
	nc_hello_free(&h);
}

/* ---- rpc parsing ---- */

static void
test_rpc_get(void)
{
	static const char rfc42[] =
	    "<rpc message-id=\"101\"\n"
	    "     xmlns=\"urn:ietf:params:xml:ns:netconf:base:1.0\"\n"
	    "     xmlns:ex=\"http://example.net/content/1.0\"\n"
	    "     ex:user-id=\"fred\">\n"
	    "  <get/>\n"
	    "</rpc>";
	struct nc_rpc	r;
	struct nc_reply	rep;
	struct nc_err	e;

	CHECK(rpc_parse(&r, rfc42, &e) == 0, "4.2 rpc parses");
	CHECK(r.op == NC_OP_GET && strcmp(r.message_id, "101") == 0 &&
	    strcmp(r.op_name, "get") == 0 &&
	    strcmp(r.op_ns, NC_NS_BASE) == 0, "4.2: get, message-id 101");
	xmlBufferEmpty(out);
	nc_reply_ok(out, &r);
	CHECK_OUT(DECL "<rpc-reply " NSB " message-id=\"101\" "
	    "xmlns:ex=\"http://example.net/content/1.0\" ex:user-id=\"fred\">"
	    "<ok/></rpc-reply>", "4.2: every attribute echoed");
	CHECK(nc_reply_parse(&rep, xmlBufferContent(out),
	    xmlBufferLength(out)) == 0 && rep.ok && rep.errc == 0 &&
	    strcmp(rep.message_id, "101") == 0, "ok reply parses back");
	nc_reply_free(&rep);
	nc_rpc_free(&r);

	/* With an XML declaration and whitespace left before it. */
	CHECK(rpc_parse(&r, "\n" DECL "\n<rpc message-id=\"1\" " NSB
	    "><get/></rpc>", &e) == 0 && r.op == NC_OP_GET,
	    "declaration after leading whitespace");
	nc_rpc_free(&r);
}

static void
test_rpc_get_config(void)
{
	static const char rfc71[] =
	    "<rpc message-id=\"101\"\n"
	    "     xmlns=\"urn:ietf:params:xml:ns:netconf:base:1.0\">\n"
	    "  <get-config>\n"
	    "    <source>\n"
	    "      <running/>\n"
	    "    </source>\n"
	    "    <filter type=\"subtree\">\n"
	    "      <top xmlns=\"http://example.com/schema/1.2/config\">\n"
	    "        <users/>\n"
	    "      </top>\n"
	    "    </filter>\n"
	    "  </get-config>\n"
	    "</rpc>";
	static const char rfc891[] =
	    "<rpc message-id=\"101\"\n"
	    "     xmlns=\"urn:ietf:params:xml:ns:netconf:base:1.0\">\n"
	    "  <get-config>\n"
	    "    <source>\n"
	    "      <running/>\n"
	    "    </source>\n"
	    "    <filter xmlns:t=\"http://example.com/schema/1.2/config\"\n"
	    "            type=\"xpath\"\n"
	    "            select=\"/t:top/t:users/t:user[t:name='fred']\"/>\n"
	    "  </get-config>\n"
	    "</rpc>";
	struct nc_rpc	 r;
	struct nc_err	 e;
	struct nc_ds_ref ds;
	struct ncm_filter f;
	xmlNodePtr	 top;

	CHECK(rpc_parse(&r, rfc71, &e) == 0 && r.op == NC_OP_GET_CONFIG,
	    "7.1 get-config parses");
	CHECK(nc_rpc_datastore(&r, "source", &ds, &e) == 0 &&
	    ds.ds == NCM_DS_RUNNING, "7.1: source running");
	CHECK(nc_rpc_filter(&r, &f, &e) == 0 && f.type == NCM_FILTER_SUBTREE,
	    "7.1: subtree filter");
	top = nc_child_elem(f.node);
	CHECK(top != NULL && strcmp((const char *)top->name, "top") == 0 &&
	    strcmp(nc_node_ns(top), "http://example.com/schema/1.2/config")
	    == 0, "7.1: filter content <top>");
	CHECK(nc_rpc_datastore(&r, "target", &ds, &e) == -1 &&
	    e.tag == NC_ERR_MISSING_ELEMENT && e.type == NC_ERR_TYPE_PROTOCOL
	    && strcmp(e.bad_element, "target") == 0, "absent target");
	nc_rpc_free(&r);

	CHECK(rpc_parse(&r, rfc891, &e) == 0, "8.9.1 xpath get-config");
	CHECK(nc_rpc_filter(&r, &f, &e) == 0 && f.type == NCM_FILTER_XPATH &&
	    strcmp(f.select, "/t:top/t:users/t:user[t:name='fred']") == 0,
	    "8.9.1: select");
	CHECK(xmlSearchNs(r.doc, f.node, (const xmlChar *)"t") != NULL,
	    "8.9.1: prefix t resolvable at the filter");
	nc_rpc_free(&r);

	rpc_parse(&r, "<rpc message-id=\"2\" " NSB "><get><filter "
	    "type=\"xpath\"/></get></rpc>", &e);
	CHECK(nc_rpc_filter(&r, &f, &e) == -1 &&
	    e.tag == NC_ERR_MISSING_ATTRIBUTE &&
	    strcmp(e.bad_attribute, "select") == 0 &&
	    strcmp(e.bad_element, "filter") == 0, "xpath without select");
	nc_rpc_free(&r);
	rpc_parse(&r, "<rpc message-id=\"2\" " NSB "><get><filter "
	    "type=\"regex\"/></get></rpc>", &e);
	CHECK(nc_rpc_filter(&r, &f, &e) == -1 &&
	    e.tag == NC_ERR_BAD_ATTRIBUTE &&
	    strcmp(e.bad_attribute, "type") == 0, "unknown filter type");
	nc_rpc_free(&r);
	rpc_parse(&r, "<rpc message-id=\"2\" " NSB "><get-config><source>"
	    "<flash/></source></get-config></rpc>", &e);
	CHECK(nc_rpc_datastore(&r, "source", &ds, &e) == -1 &&
	    e.tag == NC_ERR_UNKNOWN_ELEMENT &&
	    strcmp(e.bad_element, "flash") == 0, "unknown datastore");
	nc_rpc_free(&r);
	rpc_parse(&r, "<rpc message-id=\"2\" " NSB "><get><filter/></get>"
	    "</rpc>", &e);
	CHECK(nc_rpc_filter(&r, &f, &e) == 0 && f.type == NCM_FILTER_SUBTREE,
	    "no type: subtree");
	nc_rpc_free(&r);
}

static void
test_rpc_edit(void)
{
	static const char rfc72[] =
	    "<rpc message-id=\"101\"\n"
	    "     xmlns=\"urn:ietf:params:xml:ns:netconf:base:1.0\">\n"
	    "  <edit-config>\n"
	    "    <target>\n"
	    "      <running/>\n"
	    "    </target>\n"
	    "    <config>\n"
	    "      <top xmlns=\"http://example.com/schema/1.2/config\">\n"
	    "        <interface>\n"
	    "          <name>Ethernet0/0</name>\n"
	    "          <mtu>1500</mtu>\n"
	    "        </interface>\n"
	    "      </top>\n"
	    "    </config>\n"
	    "  </edit-config>\n"
	    "</rpc>";
	struct nc_rpc	r;
	struct nc_err	e;
	struct nc_edit	ed;
	xmlNodePtr	n;

	CHECK(rpc_parse(&r, rfc72, &e) == 0 && r.op == NC_OP_EDIT_CONFIG,
	    "7.2 edit-config parses");
	CHECK(nc_rpc_edit(&r, &ed, &e) == 0 &&
	    ed.target.ds == NCM_DS_RUNNING && ed.defop == NCM_DEFOP_MERGE &&
	    ed.testop == NCM_TESTOP_TEST_THEN_SET &&
	    ed.errop == NCM_ERROP_STOP && ed.url == NULL,
	    "7.2: running, defaults merge/test-then-set/stop-on-error");
	n = ed.config ? nc_child_elem(ed.config) : NULL;
	n = n ? nc_child_elem(n) : NULL;
	n = n ? nc_child_elem(n) : NULL;
	CHECK(n != NULL && strcmp(nc_leaf_text(n), "Ethernet0/0") == 0,
	    "7.2: config content reachable");
	nc_rpc_free(&r);

	rpc_parse(&r, "<rpc message-id=\"5\" " NSB "><edit-config><target>"
	    "<candidate/></target><default-operation> none </default-operation>"
	    "<test-option>test-only</test-option><error-option>"
	    "rollback-on-error</error-option><config/></edit-config></rpc>",
	    &e);
	CHECK(nc_rpc_edit(&r, &ed, &e) == 0 &&
	    ed.target.ds == NCM_DS_CANDIDATE && ed.defop == NCM_DEFOP_NONE &&
	    ed.testop == NCM_TESTOP_TEST_ONLY && ed.errop == NCM_ERROP_ROLLBACK,
	    "edit-config options");
	nc_rpc_free(&r);

	rpc_parse(&r, "<rpc message-id=\"5\" " NSB "><edit-config><target>"
	    "<running/></target><default-operation>delete</default-operation>"
	    "<config/></edit-config></rpc>", &e);
	CHECK(nc_rpc_edit(&r, &ed, &e) == -1 && e.tag == NC_ERR_BAD_ELEMENT &&
	    e.type == NC_ERR_TYPE_PROTOCOL &&
	    strcmp(e.bad_element, "default-operation") == 0,
	    "bad default-operation");
	nc_rpc_free(&r);
	rpc_parse(&r, "<rpc message-id=\"5\" " NSB "><edit-config><target>"
	    "<running/></target></edit-config></rpc>", &e);
	CHECK(nc_rpc_edit(&r, &ed, &e) == -1 &&
	    e.tag == NC_ERR_MISSING_ELEMENT &&
	    strcmp(e.bad_element, "config") == 0, "edit-config without config");
	nc_rpc_free(&r);
	/* The base namespace on a prefix, <config> left without it. */
	rpc_parse(&r, "<nc:rpc message-id=\"5\" xmlns:nc=\"urn:ietf:params:"
	    "xml:ns:netconf:base:1.0\"><nc:edit-config><nc:target>"
	    "<nc:running/></nc:target><config><a xmlns=\"urn:a\"/></config>"
	    "</nc:edit-config></nc:rpc>", &e);
	CHECK(nc_rpc_edit(&r, &ed, &e) == -1 &&
	    e.tag == NC_ERR_MISSING_ELEMENT && strstr(nc_err_message(&e),
	    "<config> must be in the NETCONF base namespace urn:ietf:params:"
	    "xml:ns:netconf:base:1.0, not in no namespace") != NULL,
	    "a namespace-less config is named: %s", nc_err_message(&e));
	nc_rpc_free(&r);
	rpc_parse(&r, "<rpc message-id=\"5\" " NSB "><edit-config><url>"
	    "file:///x</url></edit-config></rpc>", &e);
	CHECK(nc_rpc_edit(&r, &ed, &e) == -1 &&
	    e.tag == NC_ERR_MISSING_ELEMENT &&
	    strcmp(e.bad_element, "target") == 0, "edit-config without target");
	nc_rpc_free(&r);
	rpc_parse(&r, "<rpc message-id=\"6\" " NSB "><copy-config><target>"
	    "<startup/></target><source><config><a xmlns=\"urn:a\"/></config>"
	    "</source></copy-config></rpc>", &e);
	{
		struct nc_ds_ref s, t;

		CHECK(r.op == NC_OP_COPY_CONFIG &&
		    nc_rpc_datastore(&r, "target", &t, &e) == 0 &&
		    t.ds == NCM_DS_STARTUP &&
		    nc_rpc_datastore(&r, "source", &s, &e) == 0 &&
		    s.ds == NCM_DS_CONFIG && nc_child_elem(s.node) != NULL,
		    "copy-config startup from inline config");
	}
	nc_rpc_free(&r);
}

/* 7.5 lock and its lock-denied reply, 7.9 kill-session. */
static void
test_rpc_lock_kill(void)
{
	static const char rfc75[] =
	    "<rpc message-id=\"101\"\n"
	    "     xmlns=\"urn:ietf:params:xml:ns:netconf:base:1.0\">\n"
	    "  <lock>\n"
	    "    <target>\n"
	    "      <running/>\n"
	    "    </target>\n"
	    "  </lock>\n"
	    "</rpc>";
	struct nc_rpc	 r;
	struct nc_err	 e;
	struct nc_ds_ref t;
	struct nc_reply	 rep;
	uint32_t	 sid;

	CHECK(rpc_parse(&r, rfc75, &e) == 0 && r.op == NC_OP_LOCK &&
	    nc_rpc_datastore(&r, "target", &t, &e) == 0 &&
	    t.ds == NCM_DS_RUNNING, "7.5 lock running");
	nc_err_init(&e, NC_ERR_TYPE_PROTOCOL, NC_ERR_LOCK_DENIED,
	    "Lock failed, lock is already held");
	e.has_session_id = 1;
	e.session_id = 454;
	xmlBufferEmpty(out);
	nc_reply_error(out, &r, &e, 1);
	CHECK_OUT(DECL "<rpc-reply " NSB " message-id=\"101\"><rpc-error>"
	    "<error-type>protocol</error-type>"
	    "<error-tag>lock-denied</error-tag>"
	    "<error-severity>error</error-severity>"
	    "<error-message xml:lang=\"en\">Lock failed, lock is already held"
	    "</error-message>"
	    "<error-info><session-id>454</session-id></error-info>"
	    "</rpc-error></rpc-reply>", "7.5 lock-denied reply bytes");
	CHECK(nc_reply_parse(&rep, xmlBufferContent(out),
	    xmlBufferLength(out)) == 0 && rep.errc == 1 && !rep.ok &&
	    rep.errv[0].tag == NC_ERR_LOCK_DENIED &&
	    rep.errv[0].type == NC_ERR_TYPE_PROTOCOL &&
	    rep.errv[0].sev == NC_ERR_SEV_ERROR &&
	    strcmp(rep.errv[0].message, "Lock failed, lock is already held")
	    == 0 && rep.errv[0].info != NULL, "lock-denied parses back");
	nc_reply_free(&rep);
	nc_rpc_free(&r);

	rpc_parse(&r, "<rpc message-id=\"101\" " NSB "><kill-session>"
	    "<session-id>4</session-id></kill-session></rpc>", &e);
	CHECK(r.op == NC_OP_KILL_SESSION && nc_rpc_session_id(&r, &sid, &e)
	    == 0 && sid == 4, "7.9 kill-session 4");
	nc_rpc_free(&r);
	rpc_parse(&r, "<rpc message-id=\"1\" " NSB "><kill-session>"
	    "<session-id>0</session-id></kill-session></rpc>", &e);
	CHECK(nc_rpc_session_id(&r, &sid, &e) == -1 &&
	    e.tag == NC_ERR_INVALID_VALUE, "kill-session 0");
	nc_rpc_free(&r);
	rpc_parse(&r, "<rpc message-id=\"1\" " NSB "><kill-session>"
	    "<session-id>4294967296</session-id></kill-session></rpc>", &e);
	CHECK(nc_rpc_session_id(&r, &sid, &e) == -1, "kill-session 2^32");
	nc_rpc_free(&r);
	rpc_parse(&r, "<rpc message-id=\"1\" " NSB "><kill-session/></rpc>",
	    &e);
	CHECK(nc_rpc_session_id(&r, &sid, &e) == -1 &&
	    e.tag == NC_ERR_MISSING_ELEMENT &&
	    strcmp(e.bad_element, "session-id") == 0, "kill-session empty");
	nc_rpc_free(&r);
}

static void
test_rpc_get_schema(void)
{
	struct nc_rpc		r;
	struct nc_err		e;
	struct nc_get_schema	g;

	rpc_parse(&r, "<rpc message-id=\"3\" " NSB "><get-schema xmlns="
	    "\"urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring\">"
	    "<identifier>ietf-interfaces</identifier><version>2018-02-20"
	    "</version><format>yang</format></get-schema></rpc>", &e);
	CHECK(r.op == NC_OP_GET_SCHEMA && nc_rpc_get_schema(&r, &g, &e) == 0
	    && strcmp(g.identifier, "ietf-interfaces") == 0 &&
	    strcmp(g.version, "2018-02-20") == 0 &&
	    strcmp(g.format, "yang") == 0, "get-schema parameters");
	nc_rpc_free(&r);
	rpc_parse(&r, "<rpc message-id=\"3\" " NSB "><get-schema xmlns="
	    "\"urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring\" "
	    "xmlns:ncm=\"urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring\">"
	    "<identifier>m</identifier><format>ncm:yin</format></get-schema>"
	    "</rpc>", &e);
	CHECK(nc_rpc_get_schema(&r, &g, &e) == 0 && g.version == NULL &&
	    strcmp(g.format, "yin") == 0, "get-schema prefixed format");
	nc_rpc_free(&r);
	rpc_parse(&r, "<rpc message-id=\"3\" " NSB "><get-schema xmlns="
	    "\"urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring\"/></rpc>",
	    &e);
	CHECK(nc_rpc_get_schema(&r, &g, &e) == -1 &&
	    e.tag == NC_ERR_MISSING_ELEMENT &&
	    strcmp(e.bad_element, "identifier") == 0, "get-schema no identifier");
	nc_rpc_free(&r);
}

/* RFC 5277 section 2.1.1 (its example qualifies the rpc with a prefix). */
static void
test_rpc_subscription(void)
{
	static const char rfc5277[] =
	    "<netconf:rpc netconf:message-id=\"101\"\n"
	    "    xmlns:netconf=\"urn:ietf:params:xml:ns:netconf:base:1.0\">\n"
	    "  <create-subscription\n"
	    "      xmlns=\"urn:ietf:params:xml:ns:netconf:notification:1.0\">\n"
	    "    <filter netconf:type=\"subtree\">\n"
	    "      <event xmlns=\"http://example.com/event/1.0\">\n"
	    "        <eventClass>fault</eventClass>\n"
	    "        <severity>critical</severity>\n"
	    "      </event>\n"
	    "    </filter>\n"
	    "  </create-subscription>\n"
	    "</netconf:rpc>";
	char			 s[1024];
	struct nc_rpc		 r;
	struct nc_err		 e;
	struct nc_subscription	 sub;

	CHECK(rpc_parse(&r, rfc5277, &e) == 0 &&
	    r.op == NC_OP_CREATE_SUBSCRIPTION &&
	    strcmp(r.message_id, "101") == 0, "5277 create-subscription");
	CHECK(nc_rpc_subscription(&r, &sub, &e) == 0 &&
	    strcmp(sub.stream, "NETCONF") == 0 &&
	    sub.filter.type == NCM_FILTER_SUBTREE && !sub.has_start &&
	    !sub.has_stop, "5277: default stream, subtree filter");
	xmlBufferEmpty(out);
	nc_reply_ok(out, &r);
	CHECK_OUT(DECL "<rpc-reply " NSB " xmlns:netconf=\"" NC_NS_BASE
	    "\" netconf:message-id=\"101\"><ok/></rpc-reply>",
	    "5277: prefixed message-id echoed");
	nc_rpc_free(&r);

#define SUB(body) snprintf(s, sizeof(s), "<rpc message-id=\"9\" " NSB	\
	    "><create-subscription xmlns=\"" NC_NS_NOTIF "\">%s"		\
	    "</create-subscription></rpc>", body)
	SUB("<stream>SNMP</stream><startTime>2007-07-28T15:23:36Z"
	    "</startTime><stopTime>2007-07-29T15:23:36.5+02:00</stopTime>");
	rpc_parse(&r, s, &e);
	CHECK(nc_rpc_subscription(&r, &sub, &e) == 0 &&
	    strcmp(sub.stream, "SNMP") == 0 && sub.has_start &&
	    sub.start.tv_sec == 1185636216 && sub.has_stop &&
	    sub.stop.tv_sec == 1185636216 + 86400 - 7200 &&
	    sub.stop.tv_nsec == 500000000, "stream, start and stop times");
	nc_rpc_free(&r);
	SUB("<stopTime>2007-07-29T15:23:36Z</stopTime>");
	rpc_parse(&r, s, &e);
	CHECK(nc_rpc_subscription(&r, &sub, &e) == -1 &&
	    e.tag == NC_ERR_MISSING_ELEMENT, "stopTime without startTime");
	nc_rpc_free(&r);
	SUB("<startTime>2007-07-29T15:23:36Z</startTime>"
	    "<stopTime>2007-07-28T15:23:36Z</stopTime>");
	rpc_parse(&r, s, &e);
	CHECK(nc_rpc_subscription(&r, &sub, &e) == -1 &&
	    e.tag == NC_ERR_BAD_ELEMENT &&
	    strcmp(e.bad_element, "stopTime") == 0, "stopTime before start");
	nc_rpc_free(&r);
	SUB("<startTime>2999-01-01T00:00:00Z</startTime>");
	rpc_parse(&r, s, &e);
	CHECK(nc_rpc_subscription(&r, &sub, &e) == -1 &&
	    e.tag == NC_ERR_BAD_ELEMENT &&
	    strcmp(e.bad_element, "startTime") == 0, "startTime in future");
	nc_rpc_free(&r);
	SUB("<startTime>yesterday</startTime>");
	rpc_parse(&r, s, &e);
	CHECK(nc_rpc_subscription(&r, &sub, &e) == -1 &&
	    e.tag == NC_ERR_BAD_ELEMENT, "bad startTime");
	nc_rpc_free(&r);
#undef SUB
}

/* ---- parse errors and their replies ---- */

static void
test_rpc_errors(void)
{
	static const char billion[] =
	    "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n"
	    " <!ENTITY lol \"lol\">\n"
	    " <!ENTITY lol2 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
	    "]>\n<rpc message-id=\"1\" " NSB "><get>&lol2;</get></rpc>";
	struct nc_rpc	r;
	struct nc_err	e;
	struct nc_reply	rep;

	CHECK(rpc_parse(&r, "<rpc message-id=\"1\" " NSB "><get></rpc>",
	    &e) == -1 && e.tag == NC_ERR_MALFORMED_MESSAGE &&
	    e.type == NC_ERR_TYPE_RPC && r.doc == NULL &&
	    strncmp(nc_err_message(&e), "malformed XML", 13) == 0,
	    "not well-formed: malformed-message (%s)", nc_err_message(&e));
	xmlBufferEmpty(out);
	nc_reply_error(out, &r, &e, 1);
#define MALF DECL "<rpc-reply " NSB "><rpc-error>"			\
	    "<error-type>rpc</error-type><error-tag>malformed-message"	\
	    "</error-tag><error-severity>error</error-severity>"		\
	    "<error-message xml:lang=\"en\">malformed XML: "
	CHECK(strncmp(outs(), MALF, strlen(MALF)) == 0,
	    "malformed-message reply");
	nc_rpc_free(&r);
	CHECK(nc_rpc_parse(&r, "<rpc", 4, 0, &e) == -1 &&
	    e.tag == NC_ERR_OPERATION_FAILED && e.type == NC_ERR_TYPE_RPC,
	    "base:1.0 peer gets operation-failed instead");
	CHECK(rpc_parse(&r, billion, &e) == -1 &&
	    e.tag == NC_ERR_MALFORMED_MESSAGE &&
	    strstr(nc_err_message(&e), "DOCTYPE") != NULL,
	    "DOCTYPE refused (%s)", nc_err_message(&e));
	CHECK(rpc_parse(&r, "<rpc message-id=\"1\" " NSB "><get>&ext;</get>"
	    "</rpc>", &e) == -1 && e.tag == NC_ERR_MALFORMED_MESSAGE,
	    "undefined entity refused");
	CHECK(rpc_parse(&r, "", &e) == -1 && e.tag == NC_ERR_MALFORMED_MESSAGE,
	    "empty message");
	CHECK(rpc_parse(&r, "<rpc message-id=\"1\" " NSB "><get/></rpc>"
	    "<rpc/>", &e) == -1, "two documents in one message");
	CHECK(rpc_parse(&r, "<rpc message-id=\"1\" " NSB "><get/>\xff"
	    "</rpc>", &e) == -1, "invalid UTF-8");

	/* Appendix A missing-attribute, with bad-attribute and bad-element. */
	CHECK(rpc_parse(&r, "<rpc " NSB "><get/></rpc>", &e) == -1 &&
	    r.doc != NULL, "missing message-id");
	xmlBufferEmpty(out);
	nc_reply_error(out, &r, &e, 1);
	CHECK_OUT(DECL "<rpc-reply " NSB "><rpc-error>"
	    "<error-type>rpc</error-type>"
	    "<error-tag>missing-attribute</error-tag>"
	    "<error-severity>error</error-severity>"
	    "<error-message xml:lang=\"en\">rpc has no message-id"
	    "</error-message><error-info>"
	    "<bad-attribute>message-id</bad-attribute>"
	    "<bad-element>rpc</bad-element>"
	    "</error-info></rpc-error></rpc-reply>",
	    "missing-attribute reply bytes");
	nc_rpc_free(&r);

	CHECK(rpc_parse(&r, "<rpc message-id=\"1\" xmlns=\"urn:bad\"><get/>"
	    "</rpc>", &e) == -1 && e.tag == NC_ERR_UNKNOWN_NAMESPACE &&
	    e.type == NC_ERR_TYPE_PROTOCOL &&
	    strcmp(e.bad_namespace, "urn:bad") == 0, "rpc in wrong namespace");
	nc_rpc_free(&r);
	CHECK(rpc_parse(&r, "<hello " NSB "/>", &e) == -1 &&
	    e.tag == NC_ERR_UNKNOWN_ELEMENT &&
	    strcmp(e.bad_element, "hello") == 0, "not an rpc");
	nc_rpc_free(&r);
	CHECK(rpc_parse(&r, "<rpc message-id=\"1\" " NSB "> </rpc>", &e) == -1
	    && e.tag == NC_ERR_MISSING_ELEMENT, "rpc without operation");
	nc_rpc_free(&r);
	CHECK(rpc_parse(&r, "<rpc message-id=\"1\" " NSB "><get/><lock/></rpc>",
	    &e) == -1 && e.tag == NC_ERR_UNKNOWN_ELEMENT &&
	    strcmp(e.bad_element, "lock") == 0, "two operations");
	nc_rpc_free(&r);

	/* Unknown operation: the caller's call, with the message-id kept. */
	CHECK(rpc_parse(&r, "<rpc message-id=\"7\" " NSB "><reboot xmlns="
	    "\"urn:example:sys\"/></rpc>", &e) == 0 && r.op == NC_OP_OTHER &&
	    strcmp(r.op_name, "reboot") == 0 &&
	    strcmp(r.op_ns, "urn:example:sys") == 0, "unknown operation");
	nc_err_op_not_supported(&e, &r);
	xmlBufferEmpty(out);
	nc_reply_error(out, &r, &e, 1);
	CHECK_OUT(DECL "<rpc-reply " NSB " message-id=\"7\"><rpc-error>"
	    "<error-type>protocol</error-type>"
	    "<error-tag>operation-not-supported</error-tag>"
	    "<error-severity>error</error-severity>"
	    "<error-message xml:lang=\"en\">operation reboot not supported"
	    "</error-message></rpc-error></rpc-reply>",
	    "operation-not-supported reply bytes");
	CHECK(nc_reply_parse(&rep, xmlBufferContent(out),
	    xmlBufferLength(out)) == 0 && rep.errc == 1 &&
	    rep.errv[0].tag == NC_ERR_OPERATION_NOT_SUPPORTED &&
	    strcmp(rep.message_id, "7") == 0, "and parses back");
	nc_reply_free(&rep);
	nc_rpc_free(&r);
}

static void
test_error_build(void)
{
	static const struct nc_nsdecl ns[] = {
		{ "t", "http://example.com/schema/1.2/config" },
	};
	struct nc_err	 e[2];
	struct nc_reply	 rep;
	struct nc_rpc	 r;
	int		 t, bad = 0;

	/* Every tag and type by name, and back from a parsed reply. */
	for (t = 0; t < NC_ERR_TAG_COUNT; t++) {
		nc_err_init(&e[0], (enum nc_err_type)(t % 4),
		    (enum nc_err_tag)t, NULL);
		xmlBufferEmpty(out);
		nc_reply_error(out, NULL, e, 1);
		if (nc_reply_parse(&rep, xmlBufferContent(out),
		    xmlBufferLength(out)) != 0 || rep.errc != 1 ||
		    rep.errv[0].tag != (enum nc_err_tag)t ||
		    rep.errv[0].type != (enum nc_err_type)(t % 4) ||
		    strcmp(rep.errv[0].tag_str, nc_err_tag_name(t)) != 0 ||
		    rep.message_id != NULL)
			bad++;
		nc_reply_free(&rep);
	}
	CHECK(bad == 0 && NC_ERR_TAG_COUNT == 20,
	    "all 20 Appendix A tags round trip");
	CHECK(strcmp(nc_err_tag_name(NC_ERR_MALFORMED_MESSAGE),
	    "malformed-message") == 0 &&
	    nc_err_tag_from_name("nonsense") == NC_ERR_TAG_UNKNOWN &&
	    nc_err_type_from_name(" application ") ==
	    NC_ERR_TYPE_APPLICATION, "name tables");

	/* Two errors, all optional fields, escaping. */
	rpc_parse(&r, "<rpc message-id=\"a&quot;&lt;b\" " NSB "><commit/>"
	    "</rpc>", &e[0]);
	nc_err_init(&e[0], NC_ERR_TYPE_APPLICATION, NC_ERR_INVALID_VALUE,
	    "mtu < 64 & > 9000");
	e[0].app_tag = "mtu-range";
	e[0].path = "/t:top/t:interface[t:name=\"Ethernet0/0\"]/t:mtu";
	e[0].path_ns = ns;
	e[0].npath_ns = 1;
	nc_err_init(&e[1], NC_ERR_TYPE_PROTOCOL, NC_ERR_PARTIAL_OPERATION,
	    NULL);
	e[1].sev = NC_ERR_SEV_WARNING;
	e[1].ok_element = "a";
	e[1].err_element = "b";
	e[1].noop_element = "c";
	e[1].info_xml = "<x xmlns=\"urn:x\">1</x>";
	xmlBufferEmpty(out);
	nc_reply_error(out, &r, e, 2);
	CHECK_OUT(DECL "<rpc-reply " NSB " message-id=\"a&quot;&lt;b\">"
	    "<rpc-error><error-type>application</error-type>"
	    "<error-tag>invalid-value</error-tag>"
	    "<error-severity>error</error-severity>"
	    "<error-app-tag>mtu-range</error-app-tag>"
	    "<error-path xmlns:t=\"http://example.com/schema/1.2/config\">"
	    "/t:top/t:interface[t:name=\"Ethernet0/0\"]/t:mtu</error-path>"
	    "<error-message xml:lang=\"en\">mtu &lt; 64 &amp; &gt; 9000"
	    "</error-message></rpc-error>"
	    "<rpc-error><error-type>protocol</error-type>"
	    "<error-tag>partial-operation</error-tag>"
	    "<error-severity>warning</error-severity><error-info>"
	    "<ok-element>a</ok-element><err-element>b</err-element>"
	    "<noop-element>c</noop-element><x xmlns=\"urn:x\">1</x>"
	    "</error-info></rpc-error></rpc-reply>", "two rpc-errors bytes");
	CHECK(nc_reply_parse(&rep, xmlBufferContent(out),
	    xmlBufferLength(out)) == 0 && rep.errc == 2 && rep.nerrors == 1 &&
	    strcmp(rep.message_id, "a\"<b") == 0 &&
	    strcmp(rep.errv[0].message, "mtu < 64 & > 9000") == 0 &&
	    strcmp(rep.errv[0].app_tag, "mtu-range") == 0 &&
	    strncmp(rep.errv[0].path, "/t:top", 6) == 0 &&
	    rep.errv[1].sev == NC_ERR_SEV_WARNING &&
	    rep.errv[1].message == NULL, "two rpc-errors parse back");
	nc_reply_free(&rep);
	nc_rpc_free(&r);
}

/* ---- data replies, notifications, client rpcs ---- */

static void
test_data(void)
{
	static const char content[] =
	    "<top xmlns=\"http://example.com/schema/1.2/config\"><users>"
	    "<user><name>root</name></user></users></top>";
	struct nc_rpc	r;
	struct nc_err	e;
	struct nc_reply	rep;
	xmlDocPtr	d;
	xmlNodePtr	n;

	rpc_parse(&r, "<rpc message-id=\"11\" " NSB "><get/></rpc>", &e);
	xmlBufferEmpty(out);
	nc_reply_data(out, &r, content, strlen(content));
	CHECK_OUT(DECL "<rpc-reply " NSB " message-id=\"11\"><data>"
	    "<top xmlns=\"http://example.com/schema/1.2/config\"><users>"
	    "<user><name>root</name></user></users></top></data></rpc-reply>",
	    "data reply bytes");
	CHECK(nc_reply_parse(&rep, xmlBufferContent(out),
	    xmlBufferLength(out)) == 0 && rep.data != NULL && !rep.ok &&
	    (n = nc_child_elem(rep.data)) != NULL &&
	    strcmp((const char *)n->name, "top") == 0, "data parses back");
	nc_reply_free(&rep);

	d = xmlReadMemory(content, (int)strlen(content), NULL, NULL, 0);
	xmlBufferEmpty(out);
	nc_reply_data_node(out, &r, xmlDocGetRootElement(d));
	CHECK_OUT(DECL "<rpc-reply " NSB " message-id=\"11\"><data>"
	    "<top xmlns=\"http://example.com/schema/1.2/config\"><users>"
	    "<user><name>root</name></user></users></top></data></rpc-reply>",
	    "data reply from a node");
	xmlFreeDoc(d);
	xmlBufferEmpty(out);
	nc_reply_data(out, &r, NULL, 0);
	CHECK_OUT(DECL "<rpc-reply " NSB " message-id=\"11\"><data></data>"
	    "</rpc-reply>", "empty data");
	nc_rpc_free(&r);
}

static void
test_notif(void)
{
	static const char rfc5277[] =
	    "<notification\n"
	    "   xmlns=\"urn:ietf:params:xml:ns:netconf:notification:1.0\">\n"
	    "   <eventTime>2007-07-08T00:01:00Z</eventTime>\n"
	    "   <event xmlns=\"http://example.com/event/1.0\">\n"
	    "      <eventClass>fault</eventClass>\n"
	    "   </event>\n"
	    "</notification>";
	static const char ev[] =
	    "<event xmlns=\"http://example.com/event/1.0\">"
	    "<eventClass>fault</eventClass></event>";
	struct timespec	ts = { 1183852860, 123456789 };
	struct nc_notif	nt;
	xmlDocPtr	d;
	char		t[64];

	xmlBufferEmpty(out);
	nc_notif_build(out, &ts, ev, strlen(ev));
	CHECK_OUT(DECL "<notification xmlns=\"" NC_NS_NOTIF "\">"
	    "<eventTime>2007-07-08T00:01:00.123456Z</eventTime>"
	    "<event xmlns=\"http://example.com/event/1.0\">"
	    "<eventClass>fault</eventClass></event></notification>",
	    "notification bytes");
	CHECK(nc_notif_from_doc(&nt, nc_xml_parse(xmlBufferContent(out),
	    xmlBufferLength(out), 1, NULL)) == 0 &&
	    nt.time.tv_sec == 1183852860 && nt.time.tv_nsec == 123456000 && nt.content != NULL &&
	    strcmp((const char *)nt.content->name, "event") == 0,
	    "notification parses back");
	nc_notif_free(&nt);
	CHECK(nc_notif_from_doc(&nt, nc_xml_parse(rfc5277,
	    strlen(rfc5277), 1, NULL)) == 0 &&
	    nt.time.tv_sec == 1183852860 && nt.time.tv_nsec == 0 &&
	    strcmp(nc_node_ns(nt.content), "http://example.com/event/1.0")
	    == 0, "5277 notification example");
	nc_notif_free(&nt);
#define NOTIME "<notification xmlns=\"" NC_NS_NOTIF "\"><e/></notification>"
	CHECK(nc_notif_from_doc(&nt, nc_xml_parse(NOTIME,
	    strlen(NOTIME), 1, NULL)) == -1,
	    "notification without time");
	nc_notif_free(&nt);

	d = nc_xml_parse(rfc5277, strlen(rfc5277), 1, NULL);
	CHECK(nc_msg_kind(d) == NC_MSG_NOTIF, "kind notification");
	xmlFreeDoc(d);
	d = nc_xml_parse(rfc_server_hello, strlen(rfc_server_hello), 1, NULL);
	CHECK(nc_msg_kind(d) == NC_MSG_HELLO, "kind hello");
	xmlFreeDoc(d);

	CHECK(nc_time_parse("2007-07-08T02:01:00.5+02:00", &ts) == 0 &&
	    ts.tv_sec == 1183852860 && ts.tv_nsec == 500000000,
	    "time with offset");
	CHECK(nc_time_parse("2007-07-08 00:01:00Z", &ts) == -1 &&
	    nc_time_parse("2007-07-08T00:01:00", &ts) == -1 &&
	    nc_time_parse("2007-13-08T00:01:00Z", &ts) == -1 &&
	    nc_time_parse("2007-07-08T00:01:00.Z", &ts) == -1,
	    "bad times refused");
	ts.tv_sec = 0;
	ts.tv_nsec = 1000;
	nc_time_format(&ts, t, sizeof(t));
	CHECK(strcmp(t, "1970-01-01T00:00:00.000001Z") == 0, "time format");
}

static void
test_client(void)
{
	struct nc_rpc	r;
	struct nc_err	e;
	struct nc_reply	rep;
	xmlDocPtr	d;

	xmlBufferEmpty(out);
	nc_rpc_build(out, 7, "<get-config><source><running/></source>"
	    "</get-config>");
	CHECK_OUT(DECL "<rpc " NSB " message-id=\"7\"><get-config><source>"
	    "<running/></source></get-config></rpc>", "client rpc bytes");
	CHECK(nc_rpc_parse(&r, xmlBufferContent(out), xmlBufferLength(out), 1,
	    &e) == 0 && r.op == NC_OP_GET_CONFIG &&
	    strcmp(r.message_id, "7") == 0, "client rpc parses as rpc");
	nc_rpc_free(&r);
	d = nc_xml_parse(xmlBufferContent(out), xmlBufferLength(out), 1, NULL);
	CHECK(nc_msg_kind(d) == NC_MSG_RPC, "kind rpc");
	CHECK(nc_reply_from_doc(&rep, d) == -1, "an rpc is not a reply");
	nc_reply_free(&rep);

#define OKREP "<rpc-reply message-id=\"101\" " NSB ">\n  <ok/>\n</rpc-reply>"
	CHECK(nc_reply_parse(&rep, OKREP, strlen(OKREP)) == 0 && rep.ok &&
	    strcmp(rep.message_id, "101") == 0, "RFC ok reply");
	CHECK(nc_msg_kind(rep.doc) == NC_MSG_REPLY, "kind reply");
	nc_reply_free(&rep);
	CHECK(nc_reply_parse(&rep, "<rpc-reply", 10) == -1,
	    "truncated reply");
	nc_reply_free(&rep);
}

/* Attributes are counted per start tag, '=' in quoted values, text,
 * comments and CDATA not; past the bound nc_xml_parse refuses unparsed. */
static void
test_xml_attrs(void)
{
	const char	*t = "<a x='1=2' y=\"3\"><!-- p=q r=s t=u --><b c='d'/>"
			    "e=f<![CDATA[g=h i=j k=l]]></a>";
	struct xml_shape sh;
	struct nc_err	 e;
	uint64_t	 refused = 0;
	xmlDocPtr	 doc;
	const char	*rpc = "<rpc xmlns='urn:ietf:params:xml:ns:netconf:"
			    "base:1.0' message-id='1'><get a='1' b='2' c='3'/>"
			    "</rpc>";

	xml_shape(t, strlen(t), 100, 100, &sh);
	CHECK(sh.attrs == 2 && sh.depth == 1, "shape: %u attrs, depth %u",
	    sh.attrs, sh.depth);
	nc_xml_limit_attrs(3, &refused);
	doc = nc_xml_parse(rpc, strlen(rpc), 1, &e);
	CHECK(doc != NULL && refused == 0, "3 attributes pass a bound of 3");
	xmlFreeDoc(doc);
	nc_xml_limit_attrs(2, &refused);
	doc = nc_xml_parse(rpc, strlen(rpc), 1, &e);
	CHECK(doc == NULL && refused == 1 && e.tag ==
	    NC_ERR_MALFORMED_MESSAGE && strstr(e.msgbuf, "more than 2") !=
	    NULL, "3 attributes refused past 2: %s", e.msgbuf);
	nc_xml_limit_attrs(NC_XML_MAX_ATTRS, NULL);
}

static const struct check_case cases[] = {
	CASE(test_xml_attrs),
	CASE(test_hello_rfc),
	CASE(test_hello_build),
	CASE(test_rpc_get),
	CASE(test_rpc_get_config),
	CASE(test_rpc_edit),
	CASE(test_rpc_lock_kill),
	CASE(test_rpc_get_schema),
	CASE(test_rpc_subscription),
	CASE(test_rpc_errors),
	CASE(test_error_build),
	CASE(test_data),
	CASE(test_notif),
	CASE(test_client),
};

int
main(int argc, char **argv)
{
	int	rc;

	out = xmlBufferCreate();
	rc = check_run(cases, argc, argv);
	xmlBufferFree(out);
	xmlCleanupParser();
	return rc;
}
