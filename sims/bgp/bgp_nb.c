/*
 * OpenDaylight's application RIB over RESTCONF (bgp_nb.h), both URL
 * styles:
 *   /rests/data/bgp-rib:application-rib=example-app-rib/
 *       tables=bgp-types:ipv4-address-family,
 *       bgp-types:unicast-subsequent-address-family/bgp-inet:ipv4-routes
 *   /restconf/config/bgp-rib:application-rib/example-app-rib/tables/
 *       bgp-types:ipv4-address-family/
 *       bgp-types:unicast-subsequent-address-family/bgp-inet:ipv4-routes
 * One route per request is a PUT of .../ipv4-route=PREFIX,0; batches are
 * POSTs of route lists to the routes container (RFC 8040 section 4.4.1).
 */
#include <arpa/inet.h>

#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>

#include "bgp_nb.h"

#define NB_AFI(af)	((af) == BGP_AF_IPV6 ? "ipv6" : "ipv4")

static const struct bgp_nb_ctx *
bgpnb_ctx(const struct nb_opts *o)
{
	return o->ctx;
}

/* The routes container; route: one route's key appended when not NULL. */
static int
bgpnb_routes_path(const struct nb_opts *o, const char *route, char *out,
    size_t cap)
{
	const char	*afi = NB_AFI(bgpnb_ctx(o)->first.af);
	char		 enc[128];
	int		 n;

	if (route != NULL && nb_pct_encode(route, enc, sizeof(enc)) == -1)
		return -1;
	if (o->style == NB_STYLE_RFC8040)
		n = snprintf(out, cap, "/rests/data/bgp-rib:application-rib="
		    BGP_NB_NODE "/tables=bgp-types:%s-address-family,"
		    "bgp-types:unicast-subsequent-address-family/"
		    "bgp-inet:%s-routes%s%s%s%s", afi, afi,
		    route ? "/" : "", route ? afi : "",
		    route ? "-route=" : "", route ? enc : "");
	else
		n = snprintf(out, cap, "/restconf/config/bgp-rib:"
		    "application-rib/" BGP_NB_NODE "/tables/bgp-types:%s-"
		    "address-family/bgp-types:unicast-subsequent-address-family"
		    "/bgp-inet:%s-routes%s%s%s%s", afi, afi,
		    route ? "/" : "", route ? afi : "",
		    route ? "-route/" : "", route ? enc : "");
	if (n < 0 || (size_t)n >= cap)
		return -1;
	if (route != NULL)	/* the path-id key */
		n = snprintf(out + n, cap - (size_t)n, "%s0",
		    o->style == NB_STYLE_RFC8040 ? "," : "/");
	return n < 0 ? -1 : 0;
}

static void
bgpnb_route_text(const struct nb_opts *o, uint64_t n, char *pfx, size_t cap,
    char *nh, size_t nhcap)
{
	const struct bgp_nb_ctx	*c = bgpnb_ctx(o);
	struct bgp_prefix	 p;

	bgp_prefix_nth(&c->first, n, &p);
	bgp_prefix_str(&p, pfx, cap);
	if (p.af == BGP_AF_IPV6)
		inet_ntop(AF_INET6, c->next_hop6, nh, (socklen_t)nhcap);
	else
		inet_ntop(AF_INET, c->next_hop4, nh, (socklen_t)nhcap);
}

/* One route in the request's format (batches are JSON: nb_check). */
static void
bgpnb_route(const struct nb_opts *o, uint64_t n, struct evbuffer *b)
{
	const char	*afi = NB_AFI(bgpnb_ctx(o)->first.af);
	char		 pfx[64], nh[64];

	bgpnb_route_text(o, n, pfx, sizeof(pfx), nh, sizeof(nh));
	if (o->format == NB_FMT_XML)
		evbuffer_add_printf(b, "<%s-route xmlns=\"urn:opendaylight:"
		    "params:xml:ns:yang:bgp-inet\"><route-key>%s</route-key>"
		    "<path-id>0</path-id><prefix>%s</prefix><attributes>"
		    "<origin><value>igp</value></origin><as-path/>"
		    "<%s-next-hop><global>%s</global></%s-next-hop>"
		    "<local-pref><pref>100</pref></local-pref></attributes>"
		    "</%s-route>", afi, pfx, pfx, afi, nh, afi, afi);
	else
		evbuffer_add_printf(b, "{\"route-key\":\"%s\",\"path-id\":0,"
		    "\"prefix\":\"%s\",\"attributes\":{\"origin\":"
		    "{\"value\":\"igp\"},\"as-path\":{},\"%s-next-hop\":"
		    "{\"global\":\"%s\"},\"local-pref\":{\"pref\":100}}}",
		    pfx, pfx, afi, nh);
}

static int
bgpnb_add(const struct nb_opts *o, const char *node, uint64_t first, uint32_t n,
    struct nb_msg *m)
{
	const char	*afi = NB_AFI(bgpnb_ctx(o)->first.af);
	char		 pfx[64], nh[64], head[64];

	(void)node;
	m->ctype = m->accept = nb_media(o);
	if (o->per_request == 1) {
		bgpnb_route_text(o, first, pfx, sizeof(pfx), nh, sizeof(nh));
		m->method = NB_PUT;
		if (bgpnb_routes_path(o, pfx, m->path, sizeof(m->path)) == -1)
			return -1;
		if (o->format == NB_FMT_XML) {
			bgpnb_route(o, first, m->body);
			return 0;
		}
		n = 1;
	} else {
		m->method = NB_POST;
		if (bgpnb_routes_path(o, NULL, m->path, sizeof(m->path)) == -1)
			return -1;
	}
	snprintf(head, sizeof(head), "{\"bgp-inet:%s-route\":[", afi);
	nb_json_list(o, m->body, head, bgpnb_route, first, n, "]}");
	return 0;
}

static int
bgpnb_del(const struct nb_opts *o, const char *node, uint64_t first, uint32_t n,
    struct nb_msg *m)
{
	char	pfx[64], nh[64];

	(void)node;
	nb_msg_start(o, m, NB_DELETE);
	if (n == 0)
		return bgpnb_routes_path(o, NULL, m->path, sizeof(m->path));
	bgpnb_route_text(o, first, pfx, sizeof(pfx), nh, sizeof(nh));
	return bgpnb_routes_path(o, pfx, m->path, sizeof(m->path));
}

/*
 * A path of the run's address family in the URL style asked for: each
 * format takes the family's name ("ipv4") for every %s (at most two; a
 * format with one ignores the second, as C's printf family does).
 */
static int
bgpnb_afi_path(const struct nb_opts *o, char *out, size_t cap,
    const char *rfc8040, const char *draft)
{
	const char	*afi = NB_AFI(bgpnb_ctx(o)->af);
	int		 n;

	n = snprintf(out, cap, o->style == NB_STYLE_RFC8040 ? rfc8040 : draft,
	    afi, afi);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

/* The Loc-RIB's routes, from the operational datastore. */
static int
bgpnb_loc_rib_path(const struct nb_opts *o, char *out, size_t cap)
{
	return bgpnb_afi_path(o, out, cap, "/rests/data/bgp-rib:bgp-rib/rib="
	    BGP_NB_RIB "/loc-rib/tables=bgp-types:%s-address-family,"
	    "bgp-types:unicast-subsequent-address-family/"
	    "bgp-inet:%s-routes?content=nonconfig",
	    "/restconf/operational/bgp-rib:bgp-rib/rib/" BGP_NB_RIB
	    "/loc-rib/tables/bgp-types:%s-address-family/"
	    "bgp-types:unicast-subsequent-address-family/bgp-inet:%s-routes");
}

/* What OpenDaylight's CSIT counts: example-ipv4-topology (ipv6). */
static int
bgpnb_topology_path(const struct nb_opts *o, char *out, size_t cap)
{
	return bgpnb_afi_path(o, out, cap, "/rests/data/network-topology:"
	    "network-topology/topology=example-%s-topology?content=nonconfig",
	    "/restconf/operational/network-topology:network-topology/"
	    "topology/example-%s-topology");
}

static int
bgpnb_count(const struct nb_opts *o, const char *node, struct nb_msg *m)
{
	(void)node;
	nb_msg_start(o, m, NB_GET);
	if (bgpnb_ctx(o)->count == BGP_NB_LOC_RIB)
		return bgpnb_loc_rib_path(o, m->path, sizeof(m->path));
	if (bgpnb_ctx(o)->count == BGP_NB_TOPOLOGY)
		return bgpnb_topology_path(o, m->path, sizeof(m->path));
	return bgpnb_routes_path(o, NULL, m->path, sizeof(m->path));
}

/* Routes in a reply: its "prefix" leaves with a value (the topology's
 * prefix list shares the name: "prefix":[ and <prefix><prefix> are not
 * counted). */
static int
bgpnb_parse_count(const struct nb_opts *o, int status, const char *body,
    size_t len, uint64_t *out)
{
	int		 xml = o->format == NB_FMT_XML;
	const char	*key = xml ? "<prefix>" : "\"prefix\":\"";
	const char	*p = body, *end = body + len, *hit;
	size_t		 klen = strlen(key);

	*out = 0;
	if (status == 404)
		return 0;	/* no routes: ODL has no container then */
	if (status != 200)
		return -1;
	while (p < end && (hit = memmem(p, (size_t)(end - p), key,
	    klen)) != NULL) {
		p = hit + klen;
		if (!xml || (p < end && *p != '<'))
			(*out)++;
	}
	return 0;
}

const struct nb_driver bgp_nb_odl_driver = {
	"odl",
	bgpnb_add,
	bgpnb_del,
	bgpnb_count,
	bgpnb_parse_count,
};
