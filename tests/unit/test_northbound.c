/*
 * The northbound driver's pure parts: --northbound URLs, percent-encoding
 * of node ids, the basic auth header (RFC 7617), the spread of flows over
 * nodes, and OpenDaylight's URLs and bodies byte for byte in both URL
 * styles and both formats.
 */
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>

#include "check.h"
#include "northbound.h"
#include "of_nb.h"

static const char FLOW7_JSON[] =
    "{\"id\":\"7\",\"table_id\":3,\"priority\":2,\"match\":{"
    "\"ethernet-match\":{\"ethernet-type\":{\"type\":2048}},"
    "\"ipv4-destination\":\"10.0.0.8/32\"},\"instructions\":{"
    "\"instruction\":[{\"order\":0,\"apply-actions\":{\"action\":[{"
    "\"order\":0,\"output-action\":{\"output-node-connector\":\"1\","
    "\"max-length\":65535}}]}}]}}";
static const char FLOW8_JSON[] =
    "{\"id\":\"8\",\"table_id\":3,\"priority\":2,\"match\":{"
    "\"ethernet-match\":{\"ethernet-type\":{\"type\":2048}},"
    "\"ipv4-destination\":\"10.0.0.9/32\"},\"instructions\":{"
    "\"instruction\":[{\"order\":0,\"apply-actions\":{\"action\":[{"
    "\"order\":0,\"output-action\":{\"output-node-connector\":\"1\","
    "\"max-length\":65535}}]}}]}}";
static const char FLOW7_XML[] =
    "<flow xmlns=\"urn:opendaylight:flow:inventory\"><id>7</id>"
    "<table_id>3</table_id><priority>2</priority><match><ethernet-match>"
    "<ethernet-type><type>2048</type></ethernet-type></ethernet-match>"
    "<ipv4-destination>10.0.0.8/32</ipv4-destination></match>"
    "<instructions><instruction><order>0</order><apply-actions><action>"
    "<order>0</order><output-action><output-node-connector>1"
    "</output-node-connector><max-length>65535</max-length>"
    "</output-action></action></apply-actions></instruction>"
    "</instructions></flow>";

#define RFC_TABLE "/rests/data/opendaylight-inventory:nodes/" \
	"node=openflow%3A1/flow-node-inventory:table=3"
#define DRAFT_NODE "/opendaylight-inventory:nodes/node/openflow:1/table/3"

static void
opts(struct nb_opts *o, enum nb_style st, enum nb_format f, uint32_t k)
{
	nb_opts_defaults(o, NULL);
	o->driver = &of_nb_odl_driver;
	o->style = st;
	o->format = f;
	o->per_request = k;
	o->table = 3;
}

/* Build one request; the body is returned in a static buffer. */
static const char *
build(int what, const struct nb_opts *o, uint64_t first, uint32_t n,
    struct nb_msg *m, size_t *len)
{
	static char	 body[8192];
	struct evbuffer	*b = evbuffer_new();
	int		 rc;

	memset(m, 0, sizeof(*m));
	m->body = b;
	if (what == 0)
		rc = of_nb_odl_driver.add(o, "openflow:1", first, n, m);
	else if (what == 1)
		rc = of_nb_odl_driver.del(o, "openflow:1", first, n, m);
	else
		rc = of_nb_odl_driver.count(o, "openflow:1", m);
	*len = evbuffer_get_length(b);
	if (*len >= sizeof(body))
		*len = sizeof(body) - 1;
	evbuffer_remove(b, body, *len);
	body[*len] = '\0';
	evbuffer_free(b);
	m->body = NULL;
	return rc == 0 ? body : NULL;
}

static void
test_url(void)
{
	struct nb_opts	o;
	char		err[256];

	static const struct nb_driver *const drivers[] = {
		&of_nb_odl_driver, NULL
	};

	nb_opts_defaults(&o, drivers);
	CHECK(nb_parse_url("odl:http://192.0.2.1:8181", &o, err,
	    sizeof(err)) == 0 && o.driver == &of_nb_odl_driver &&
	    strcmp(o.host, "192.0.2.1") == 0 && o.port == 8181, "odl URL");
	CHECK(nb_parse_url("odl:http://[::1]:8181/", &o, err,
	    sizeof(err)) == 0 && strcmp(o.host, "::1") == 0 && o.port == 8181,
	    "IPv6 URL");
	CHECK(nb_parse_url("onos:http://1.2.3.4:8181", &o, err,
	    sizeof(err)) == -1, "unknown driver");
	CHECK(nb_parse_url("odl:https://1.2.3.4:8181", &o, err,
	    sizeof(err)) == -1, "https refused");
	CHECK(nb_parse_url("odl:http://1.2.3.4", &o, err, sizeof(err)) == -1,
	    "no port");
	CHECK(nb_parse_url("odl:http://1.2.3.4:0", &o, err, sizeof(err)) == -1,
	    "port 0");
	CHECK(nb_parse_url("odl:http://1.2.3.4:70000", &o, err,
	    sizeof(err)) == -1, "port too big");
	CHECK(nb_parse_url("odl:http://:8181", &o, err, sizeof(err)) == -1,
	    "no host");
	CHECK(nb_parse_url("odl:http://a/b:8181", &o, err, sizeof(err)) == -1,
	    "path in host");
}

static void
test_helpers(void)
{
	char		out[64];
	uint64_t	first, end, total = 0, prev_end = 0;
	uint32_t	j;

	CHECK(nb_pct_encode("openflow:1", out, sizeof(out)) == 0 &&
	    strcmp(out, "openflow%3A1") == 0, "openflow:1 -> %s", out);
	CHECK(nb_pct_encode("a b/c~d_e.f-g", out, sizeof(out)) == 0 &&
	    strcmp(out, "a%20b%2Fc~d_e.f-g") == 0, "reserved: %s", out);
	CHECK(nb_pct_encode("openflow:1", out, 12) == -1, "no room");
	CHECK(nb_pct_encode("openflow:1", out, 13) == 0, "just room");
	CHECK(nb_basic_auth("admin", "admin", out, sizeof(out)) == 0 &&
	    strcmp(out, "Basic YWRtaW46YWRtaW4=") == 0, "admin:admin %s", out);
	/* RFC 7617 section 2's example. */
	CHECK(nb_basic_auth("Aladdin", "open sesame", out, sizeof(out)) == 0 &&
	    strcmp(out, "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==") == 0,
	    "Aladdin %s", out);
	CHECK(nb_basic_auth("ab", "", out, sizeof(out)) == 0 &&
	    strcmp(out, "Basic YWI6") == 0, "ab: %s", out);
	nb_flow_ipv4(0, out, sizeof(out));
	CHECK(strcmp(out, "10.0.0.1") == 0, "flow 0 %s", out);
	nb_flow_ipv4(70000, out, sizeof(out));
	CHECK(strcmp(out, "10.1.17.113") == 0, "flow 70000 %s", out);
	for (j = 0; j < 3; j++) {
		nb_node_range(10, 3, j, &first, &end);
		CHECK(first == prev_end, "node %u starts at %llu", j,
		    (unsigned long long)first);
		total += end - first;
		prev_end = end;
	}
	CHECK(total == 10 && prev_end == 10, "10 flows over 3 nodes");
	nb_node_range(2, 3, 2, &first, &end);
	CHECK(first == 2 && end == 2, "node without flows");
}

/* A topology's paths, as ODL takes them: its id and the node's
 * percent-encoded in RFC 8040's URLs (section 3.5.3), the query on the
 * operational datastore alone; the draft's URLs name the datastore. */
static void
test_topo_path(void)
{
	struct nb_opts	o;
	char		out[NB_PATH_MAX];

	memset(&o, 0, sizeof(o));
	o.style = NB_STYLE_RFC8040;
	CHECK(nb_topo_path(&o, "ovsdb:1", 0, "ovsdb://HOST1", NULL,
	    "content=nonconfig", out, sizeof(out)) == 0 && strcmp(out,
	    "/rests/data/network-topology:network-topology/topology=ovsdb%3A1"
	    "/node=ovsdb%3A%2F%2FHOST1?content=nonconfig") == 0, "%s", out);
	CHECK(nb_topo_path(&o, "topology-netconf", 1, NULL, NULL,
	    "content=nonconfig", out, sizeof(out)) == 0 && strcmp(out,
	    "/rests/data/network-topology:network-topology/"
	    "topology=topology-netconf") == 0, "config: no query: %s", out);
	o.style = NB_STYLE_DRAFT;
	CHECK(nb_topo_path(&o, "topology-netconf", 0, "d 1", "/x", "q", out,
	    sizeof(out)) == 0 && strcmp(out, "/restconf/operational/"
	    "network-topology:network-topology/topology/topology-netconf"
	    "/node/d%201/x") == 0, "draft: %s", out);
	CHECK(nb_topo_path(&o, "pcep-topology", 1, "n", NULL, NULL, out,
	    40) == -1, "no room");
}

/* Adds: PUT one flow, POST a batch, JSON and XML, both URL styles. */
static void
test_odl_add(void)
{
	struct nb_opts	 o;
	struct nb_msg	 m;
	const char	*b;
	char		 want[4096];
	size_t		 len;

	opts(&o, NB_STYLE_RFC8040, NB_FMT_JSON, 1);
	b = build(0, &o, 7, 1, &m, &len);
	CHECK(b != NULL && m.method == NB_PUT &&
	    strcmp(m.path, RFC_TABLE "/flow=7") == 0 &&
	    strcmp(m.ctype, "application/yang-data+json") == 0,
	    "rfc8040 PUT %s", m.path);
	snprintf(want, sizeof(want), "{\"flow-node-inventory:flow\":[%s]}",
	    FLOW7_JSON);
	CHECK_BYTES(b, len, want, strlen(want), "rfc8040 JSON body");

	opts(&o, NB_STYLE_DRAFT, NB_FMT_JSON, 1);
	b = build(0, &o, 7, 1, &m, &len);
	CHECK(b != NULL && m.method == NB_PUT &&
	    strcmp(m.path, "/restconf/config" DRAFT_NODE "/flow/7") == 0 &&
	    strcmp(m.ctype, "application/json") == 0, "draft PUT %s", m.path);
	snprintf(want, sizeof(want), "{\"flow\":[%s]}", FLOW7_JSON);
	CHECK_BYTES(b, len, want, strlen(want), "draft JSON body");

	opts(&o, NB_STYLE_RFC8040, NB_FMT_JSON, 100);
	b = build(0, &o, 7, 2, &m, &len);
	CHECK(b != NULL && m.method == NB_POST &&
	    strcmp(m.path, RFC_TABLE) == 0, "rfc8040 POST %s", m.path);
	snprintf(want, sizeof(want), "{\"flow-node-inventory:flow\":[%s,%s]}",
	    FLOW7_JSON, FLOW8_JSON);
	CHECK_BYTES(b, len, want, strlen(want), "batch of 2");

	opts(&o, NB_STYLE_RFC8040, NB_FMT_XML, 1);
	b = build(0, &o, 7, 1, &m, &len);
	CHECK(b != NULL && strcmp(m.ctype, "application/yang-data+xml") == 0,
	    "rfc8040 XML type");
	CHECK_BYTES(b, len, FLOW7_XML, strlen(FLOW7_XML), "XML body");
	opts(&o, NB_STYLE_DRAFT, NB_FMT_XML, 1);
	b = build(0, &o, 7, 1, &m, &len);
	CHECK(b != NULL && strcmp(m.ctype, "application/xml") == 0,
	    "draft XML type");
	CHECK_BYTES(b, len, FLOW7_XML, strlen(FLOW7_XML), "draft XML body");
	CHECK(build(0, &o, 7, 2, &m, &len) == NULL, "XML batch refused");
}

/* Deletes (one flow, a table) and the count's GET, both URL styles. */
static void
test_odl_delete_count(void)
{
	struct nb_opts	 o;
	struct nb_msg	 m;
	const char	*b;
	size_t		 len;

	opts(&o, NB_STYLE_RFC8040, NB_FMT_JSON, 1);
	b = build(1, &o, 7, 1, &m, &len);
	CHECK(b != NULL && len == 0 && m.method == NB_DELETE &&
	    m.ctype == NULL && strcmp(m.path, RFC_TABLE "/flow=7") == 0,
	    "DELETE one %s", m.path);
	b = build(1, &o, 0, 0, &m, &len);
	CHECK(b != NULL && strcmp(m.path, RFC_TABLE) == 0, "DELETE table %s",
	    m.path);
	b = build(2, &o, 0, 0, &m, &len);
	CHECK(b != NULL && m.method == NB_GET &&
	    strcmp(m.path, RFC_TABLE "/opendaylight-flow-table-statistics:"
	    "flow-table-statistics?content=nonconfig") == 0,
	    "GET %s", m.path);
	opts(&o, NB_STYLE_DRAFT, NB_FMT_JSON, 1);
	b = build(2, &o, 0, 0, &m, &len);
	CHECK(b != NULL && strcmp(m.path, "/restconf/operational"
	    DRAFT_NODE "/opendaylight-flow-table-statistics:"
	    "flow-table-statistics") == 0, "draft GET %s", m.path);
	b = build(1, &o, 0, 0, &m, &len);
	CHECK(b != NULL && strcmp(m.path, "/restconf/config" DRAFT_NODE) == 0,
	    "draft DELETE table %s", m.path);
}

static void
test_parse_count(void)
{
	static const char js[] = "{\"flow-node-inventory:table\":[{\"id\":3,"
	    "\"opendaylight-flow-table-statistics:flow-table-statistics\":"
	    "{\"active-flows\":42,\"packets-looked-up\":0}}]}";
	static const char xs[] = "<table xmlns=\"urn:opendaylight:flow:"
	    "inventory\"><id>3</id><flow-table-statistics xmlns=\"urn:"
	    "opendaylight:flow:table:statistics\"><active-flows>17"
	    "</active-flows></flow-table-statistics></table>";
	const struct nb_driver	*d = &of_nb_odl_driver;
	struct nb_opts		 o;
	uint64_t		 n;

	opts(&o, NB_STYLE_RFC8040, NB_FMT_JSON, 1);
	CHECK(d->parse_count(&o, 200, js, strlen(js), &n) == 0 &&
	    n == 42, "JSON active-flows %llu", (unsigned long long)n);
	CHECK(d->parse_count(&o, 200, "{\"x\":1}", 7, &n) == 0 &&
	    n == 0, "no statistics yet: 0");
	CHECK(d->parse_count(&o, 404, "", 0, &n) == 0 && n == 0,
	    "404: 0");
	CHECK(d->parse_count(&o, 200, "{", 1, &n) == -1, "bad JSON");
	CHECK(d->parse_count(&o, 401, js, strlen(js), &n) == -1,
	    "401");
	opts(&o, NB_STYLE_RFC8040, NB_FMT_XML, 1);
	CHECK(d->parse_count(&o, 200, xs, strlen(xs), &n) == 0 &&
	    n == 17, "XML active-flows %llu", (unsigned long long)n);
	CHECK(d->parse_count(&o, 200, "<a>", 3, &n) == -1,
	    "bad XML");
}

static void
test_check(void)
{
	struct nb_opts	o;
	char		err[256];

	opts(&o, NB_STYLE_RFC8040, NB_FMT_XML, 2);
	o.flows = 10;
	CHECK(nb_check(&o, err, sizeof(err)) == -1, "XML with K 2: %s", err);
	o.per_request = 1;
	CHECK(nb_check(&o, err, sizeof(err)) == 0, "XML with K 1");
	o.flows = 0;
	CHECK(nb_check(&o, err, sizeof(err)) == -1, "no --flows: %s", err);
	o.flows = 1;
	o.driver = NULL;
	CHECK(nb_check(&o, err, sizeof(err)) == -1, "no --northbound: %s",
	    err);
}

static const struct check_case cases[] = {
	CASE(test_url),
	CASE(test_helpers),
	CASE(test_topo_path),
	CASE(test_odl_add),
	CASE(test_odl_delete_count),
	CASE(test_parse_count),
	CASE(test_check),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
