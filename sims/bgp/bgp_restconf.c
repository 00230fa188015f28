/*
 * The speaker's RIBs in OpenDaylight's RESTCONF shapes (bgp-rib.yang and
 * bgp-inet.yang of openflow's sibling project bgpcep):
 *
 *   bgp-rib:bgp-rib/rib=example-bgp-rib/loc-rib/tables=AFI,SAFI/
 *       bgp-inet:ipv4-routes/ipv4-route=PREFIX,PATH-ID        (GET)
 *   .../rib=example-bgp-rib/peer=bgp:%2F%2FIP/adj-rib-in/tables=...  (GET)
 *       and the peer's effective-rib-in and adj-rib-out the same way
 *   bgp-rib:application-rib=example-app-rib/tables=AFI,SAFI/
 *       bgp-inet:ipv4-routes[/ipv4-route=PREFIX,PATH-ID]
 *                                 (GET, PUT, POST, DELETE: routes the
 *                                  speaker originates and advertises)
 *   network-topology:network-topology/topology=example-ipv4-topology
 *       (and example-ipv6-topology): a node per next hop whose
 *       l3-unicast-igp-topology:igp-node-attributes list the prefixes
 *       reachable through it, as bgpcep's topology provider shows the
 *       Loc-RIB (what OpenDaylight's CSIT counts)               (GET)
 *
 * AFI and SAFI are identities: bgp-types:ipv4-address-family (or ipv6)
 * and bgp-types:unicast-subsequent-address-family.
 */
#include <arpa/inet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/http.h>

#include "bgp_restconf.h"
#include "bgp_ctl.h"
#include "log.h"
#include "rc_topology.h"
#include "restconf.h"

#define RIB_ID		"example-bgp-rib"
#define APP_RIB_ID	"example-app-rib"

static const struct doc_module rib_mod = {
	"bgp-rib", "urn:opendaylight:params:xml:ns:yang:bgp-rib"
};
static const struct doc_module inet_mod = {
	"bgp-inet", "urn:opendaylight:params:xml:ns:yang:bgp-inet"
};

static const struct rc_list rib_lists[] = {
	{ "rib", 1 },
	{ "peer", 1 },
	{ "tables", 2 },
	{ "ipv4-route", 2 },
	{ "ipv6-route", 2 },
	{ "application-rib", 1 },
	{ NULL, 0 },
};

static const char *const origin_names[] = { "igp", "egp", "incomplete" };

/* "bgp-types:ipv4-address-family" (prefix optional) and the unicast
 * SAFI: the family, or BGP_AF_MAX. */
static uint8_t
bgprc_family(const struct rc_elem *e)
{
	const char	*afi = e->key[0], *safi = e->key[1], *c;

	if (e->nkeys != 2)
		return BGP_AF_MAX;
	if ((c = strchr(afi, ':')) != NULL)
		afi = c + 1;
	if ((c = strchr(safi, ':')) != NULL)
		safi = c + 1;
	if (strcmp(safi, "unicast-subsequent-address-family") != 0)
		return BGP_AF_MAX;
	if (strcmp(afi, "ipv4-address-family") == 0)
		return BGP_AF_IPV4;
	if (strcmp(afi, "ipv6-address-family") == 0)
		return BGP_AF_IPV6;
	return BGP_AF_MAX;
}

static const char *
bgprc_routes_name(uint8_t af)
{
	return af == BGP_AF_IPV6 ? "ipv6-routes" : "ipv4-routes";
}

static const char *
bgprc_route_name(uint8_t af)
{
	return af == BGP_AF_IPV6 ? "ipv6-route" : "ipv4-route";
}

/* Route reflection (RFC 4456 section 7) as bgp-rib writes it. */
static void
bgprc_rr_attrs(struct doc_writer *w, const struct bgp_attrs *a)
{
	char		 s[BGP_MAX_CLUSTER][INET_ADDRSTRLEN];
	const char	*v[BGP_MAX_CLUSTER];
	uint32_t	 n;
	uint8_t		 i;

	if (a->has_originator) {
		n = htonl(a->originator);
		inet_ntop(AF_INET, &n, s[0], sizeof(s[0]));
		doc_container(w, NULL, "originator-id");
		doc_leaf_str(w, "originator", s[0]);
		doc_end(w);
	}
	if (a->n_cluster == 0)
		return;
	for (i = 0; i < a->n_cluster && i < BGP_MAX_CLUSTER; i++) {
		n = htonl(a->cluster[i]);
		inet_ntop(AF_INET, &n, s[i], sizeof(s[i]));
		v[i] = s[i];
	}
	doc_container(w, NULL, "cluster-id");
	doc_leaf_list_str(w, "cluster", v, i);
	doc_end(w);
}

static void
bgprc_attrs(struct doc_writer *w, const struct bgp_attrs *a, uint8_t af)
{
	char	nh[INET6_ADDRSTRLEN];
	size_t	i;

	doc_container(w, NULL, "attributes");
	doc_container(w, NULL, "origin");
	doc_leaf_str(w, "value", origin_names[a->origin % 3]);
	doc_end(w);
	doc_container(w, NULL, "as-path");
	if (a->n_as > 0) {
		doc_list(w, NULL, "segments");
		doc_entry(w);
		doc_leaf_list_uint(w, "as-sequence", a->as_path, a->n_as);
		doc_end(w);
		doc_end(w);
	}
	doc_end(w);
	if (af == BGP_AF_IPV6) {
		inet_ntop(AF_INET6, a->next_hop6, nh, sizeof(nh));
		doc_container(w, NULL, "ipv6-next-hop");
	} else {
		inet_ntop(AF_INET, a->next_hop4, nh, sizeof(nh));
		doc_container(w, NULL, "ipv4-next-hop");
	}
	doc_leaf_str(w, "global", nh);
	doc_end(w);
	if (a->has_med) {
		doc_container(w, NULL, "multi-exit-disc");
		doc_leaf_uint(w, "med", a->med);
		doc_end(w);
	}
	if (a->has_local_pref) {
		doc_container(w, NULL, "local-pref");
		doc_leaf_uint(w, "pref", a->local_pref);
		doc_end(w);
	}
	if (a->n_comm > 0) {
		doc_list(w, NULL, "communities");
		for (i = 0; i < a->n_comm; i++) {
			doc_entry(w);
			doc_leaf_uint(w, "as-number", a->comm[i] >> 16);
			doc_leaf_uint(w, "semantics", a->comm[i] & 0xffff);
			doc_end(w);
		}
		doc_end(w);
	}
	bgprc_rr_attrs(w, a);
	doc_end(w);
}

static void
bgprc_route(struct doc_writer *w, const struct bgp_ctl_route *r)
{
	char	pfx[64];

	bgp_prefix_str(&r->prefix, pfx, sizeof(pfx));
	doc_entry(w);
	doc_leaf_str(w, "route-key", pfx);
	doc_leaf_uint(w, "path-id", r->prefix.path_id);
	doc_leaf_str(w, "prefix", pfx);
	bgprc_attrs(w, r->attrs, r->prefix.af);
	doc_end(w);
}

/* Which routes a table shows. */
enum bgprc_src {
	RC_LOC_RIB,
	RC_ADJ_RIB_IN,		/* of one peer */
	RC_EFFECTIVE_RIB_IN,	/* of one peer */
	RC_ADJ_RIB_OUT,		/* of one peer */
	RC_APP_RIB,
};

/*
 * The effective-rib-in is what the import policy admitted of the
 * adj-rib-in: the speaker has no policy beyond RFC 7606's
 * treat-as-withdraw, which keeps a route out of both, so the two hold the
 * same paths.  The adj-rib-out's attributes are those sent to the peer.
 */
static int
bgprc_next(enum bgprc_src src, const char *peer, uint8_t af, uint64_t *cursor,
    struct bgp_ctl_route *r)
{
	static struct bgp_attrs	out;

	for (;;) {
		if (src == RC_ADJ_RIB_IN || src == RC_EFFECTIVE_RIB_IN)
			return bgp_ctl_adj_rib_in_next(peer, af, cursor, r);
		if (src == RC_ADJ_RIB_OUT)
			return bgp_ctl_adj_rib_out_next(peer, af, cursor, r,
			    &out);
		if (!bgp_ctl_loc_rib_next(af, cursor, r))
			return 0;
		/* The application RIB: the Loc-RIB's application routes. */
		if (src != RC_APP_RIB ||
		    strcmp(r->peer, "example-app-rib") == 0)
			return 1;
	}
}

void
bgp_rc_table_head(struct doc_writer *w, uint8_t af)
{
	doc_entry(w);
	doc_leaf_str(w, "afi", af == BGP_AF_IPV6 ?
	    "bgp-types:ipv6-address-family" : "bgp-types:ipv4-address-family");
	doc_leaf_str(w, "safi", "bgp-types:unicast-subsequent-address-family");
	doc_container(w, NULL, "attributes");
	doc_leaf_bool(w, "uptodate", 1);
	doc_end(w);
}

void
bgp_rc_routes_open(struct doc_writer *w, uint8_t af)
{
	doc_container(w, &inet_mod, bgprc_routes_name(af));
	doc_list(w, &inet_mod, bgprc_route_name(af));
}

/* The routes container (one route when key is not NULL). */
static int
bgprc_routes(struct doc_writer *w, enum bgprc_src src, const char *peer,
    uint8_t af, const struct bgp_prefix *key)
{
	struct bgp_ctl_route	r;
	uint64_t		cursor = 0;
	int			found = 0;

	if (key == NULL)
		bgp_rc_routes_open(w, af);
	else
		doc_list(w, &inet_mod, bgprc_route_name(af));
	while (bgprc_next(src, peer, af, &cursor, &r)) {
		if (key != NULL && (memcmp(r.prefix.addr, key->addr, 16) != 0 ||
		    r.prefix.len != key->len))
			continue;
		bgprc_route(w, &r);
		found = 1;
	}
	doc_end(w);
	if (key == NULL)
		doc_end(w);
	return found;
}

static void
bgprc_table(struct doc_writer *w, enum bgprc_src src, const char *peer,
    uint8_t af)
{
	bgp_rc_table_head(w, af);
	bgprc_routes(w, src, peer, af, NULL);
	doc_end(w);
}

static void
bgprc_tables(struct doc_writer *w, enum bgprc_src src, const char *peer)
{
	doc_list(w, NULL, "tables");
	bgprc_table(w, src, peer, BGP_AF_IPV4);
	bgprc_table(w, src, peer, BGP_AF_IPV6);
	doc_end(w);
}

/* "10.0.0.0/24" and "0" of ipv4-route=KEY,PATH-ID; -1 when bad. */
static int
bgprc_route_key(const struct rc_elem *e, uint8_t af, struct bgp_prefix *p)
{
	if (e->nkeys != 2 || bgp_prefix_parse(e->key[0], p) == -1 ||
	    p->af != af)
		return -1;
	return strcmp(e->key[1], "0") == 0 ? 0 : -1;
}

/*
 * Below tables=AFI,SAFI (at index t of the path): the table, its routes,
 * or one route.  Sends the reply or the error.
 */
static void
bgprc_get_table(struct rc_req *rq, size_t t, enum bgprc_src src,
    const char *peer)
{
	const struct rc_path	*p = &rq->path;
	struct doc_writer	 w;
	struct evbuffer		*b;
	struct bgp_prefix	 key;
	uint8_t			 af = bgprc_family(&p->e[t]);

	if (af == BGP_AF_MAX || p->n > t + 3 || (p->n > t + 1 &&
	    !rc_elem_is(&p->e[t + 1], bgprc_routes_name(af))) ||
	    (p->n == t + 3 &&
	    (!rc_elem_is(&p->e[t + 2], bgprc_route_name(af)) ||
	    bgprc_route_key(&p->e[t + 2], af, &key) == -1))) {
		rc_data_missing(rq);
		return;
	}
	b = rc_writer(rq, &w);
	if (p->n == t + 1) {
		doc_list(&w, &rib_mod, "tables");
		bgprc_table(&w, src, peer, af);
		doc_end(&w);
	} else if (p->n == t + 2)
		bgprc_routes(&w, src, peer, af, NULL);
	else if (!bgprc_routes(&w, src, peer, af, &key)) {
		evbuffer_free(b);
		rc_data_missing(rq);
		return;
	}
	rc_send(rq, &w, b);
}

/* A container of tables (adj-rib-in, loc-rib), in an entry it ends. */
static void
bgprc_tables_last(struct doc_writer *w, const char *container,
    enum bgprc_src src, const char *peer)
{
	doc_container(w, NULL, container);
	bgprc_tables(w, src, peer);
	doc_end(w);
	doc_end(w);
}

/* A peer's three RIBs (bgp-rib.yang's peer), by container name. */
static const struct {
	const char	*name;
	enum bgprc_src	 src;
} bgprc_peer_ribs[] = {
	{ "adj-rib-in", RC_ADJ_RIB_IN },
	{ "effective-rib-in", RC_EFFECTIVE_RIB_IN },
	{ "adj-rib-out", RC_ADJ_RIB_OUT },
};

static void
bgprc_ribs(struct doc_writer *w, const char *peer)
{
	size_t	i;

	for (i = 0; i < nitems(bgprc_peer_ribs); i++) {
		doc_container(w, NULL, bgprc_peer_ribs[i].name);
		bgprc_tables(w, bgprc_peer_ribs[i].src, peer);
		doc_end(w);
	}
}

/* A peer RIB named by a path element; -1 when it names none. */
static int
bgprc_peer_rib(const struct rc_elem *e, enum bgprc_src *src)
{
	size_t	i;

	for (i = 0; i < nitems(bgprc_peer_ribs); i++)
		if (rc_elem_is(e, bgprc_peer_ribs[i].name)) {
			*src = bgprc_peer_ribs[i].src;
			return 0;
		}
	return -1;
}

static void
bgprc_peer(struct doc_writer *w, const char *name)
{
	const char	*state;
	uint64_t	 n;

	doc_entry(w);
	doc_leaf_str(w, "peer-id", name);
	/* iBGP from the ASes (RFC 4271 section 1.1). */
	doc_leaf_str(w, "peer-role", bgp_ctl_peer_state(name, &state, &n) ==
	    1 ? "ibgp" : "ebgp");
	bgprc_ribs(w, name);
	doc_end(w);
}

static void
bgprc_rib(struct doc_writer *w)
{
	char		name[64];
	uint64_t	n;
	unsigned	i;

	doc_entry(w);
	doc_leaf_str(w, "id", RIB_ID);
	doc_list(w, NULL, "peer");
	for (i = 0; bgp_ctl_peer(i, name, sizeof(name), &n); i++)
		bgprc_peer(w, name);
	doc_end(w);
	bgprc_tables_last(w, "loc-rib", RC_LOC_RIB, NULL);
}

/* GET of the RIB e[at] names (the loc-rib, or one of a peer's): whole,
 * or below its tables. */
static void
bgprc_get_one_rib(struct rc_req *rq, size_t at, enum bgprc_src src,
    const char *peer)
{
	const struct rc_path	*p = &rq->path;
	struct doc_writer	 w;
	struct evbuffer		*b;

	if (p->n == at + 1) {
		b = rc_writer(rq, &w);
		doc_container(&w, &rib_mod, p->e[at].name);
		bgprc_tables(&w, src, peer);
		rc_send(rq, &w, b);
	} else if (rc_elem_is(&p->e[at + 1], "tables"))
		bgprc_get_table(rq, at + 1, src, peer);
	else
		rc_unknown(rq, &p->e[at + 1]);
}

/* GET below .../peer=ID/: one of its RIBs. */
static void
bgprc_get_peer_rib(struct rc_req *rq, const char *peer)
{
	const struct rc_path	*p = &rq->path;
	enum bgprc_src		 src;

	if (bgprc_peer_rib(&p->e[3], &src) == -1)
		rc_unknown(rq, &p->e[3]);
	else
		bgprc_get_one_rib(rq, 3, src, peer);
}

/* GET below bgp-rib/rib=example-bgp-rib. */
static void
bgprc_get_rib(struct rc_req *rq)
{
	const struct rc_path	*p = &rq->path;
	const char		*peer;
	struct doc_writer	 w;
	struct evbuffer		*b;

	if (strcmp(p->e[1].key[0], RIB_ID) != 0) {
		rc_data_missing(rq);
		return;
	}
	if (p->n == 2) {
		b = rc_writer(rq, &w);
		doc_list(&w, &rib_mod, "rib");
		bgprc_rib(&w);
		doc_end(&w);
		rc_send(rq, &w, b);
	} else if (rc_elem_is(&p->e[2], "loc-rib"))
		bgprc_get_one_rib(rq, 2, RC_LOC_RIB, NULL);
	else if (rc_elem_is(&p->e[2], "peer")) {
		peer = p->e[2].key[0];
		if (!bgp_ctl_peer_exists(peer))
			rc_data_missing(rq);
		else if (p->n == 3) {
			b = rc_writer(rq, &w);
			doc_list(&w, &rib_mod, "peer");
			bgprc_peer(&w, peer);
			doc_end(&w);
			rc_send(rq, &w, b);
		} else
			bgprc_get_peer_rib(rq, peer);
	} else
		rc_unknown(rq, &p->e[2]);
}

static void
bgprc_bgp_rib(struct rc_req *rq, void *arg)
{
	const struct rc_path	*p = &rq->path;
	struct doc_writer	 w;
	struct evbuffer		*b;

	(void)arg;
	if (p->n == 1) {
		b = rc_writer(rq, &w);
		doc_container(&w, &rib_mod, "bgp-rib");
		doc_list(&w, NULL, "rib");
		bgprc_rib(&w);
		rc_send(rq, &w, b);
	} else if (!rc_elem_is(&p->e[1], "rib"))
		rc_unknown(rq, &p->e[1]);
	else
		bgprc_get_rib(rq);
}

/* ---- the application RIB ---- */

static int
bgprc_parse_origin(const struct doc_node *at, struct bgp_attrs *a, char *err,
    size_t errlen)
{
	struct doc_node	c;
	char		s[64];
	int		i;

	if (doc_child(at, "origin", &c) == -1 ||
	    doc_get_string(&c, "value", s, sizeof(s)) == -1)
		return 0;
	for (i = 0; i < 3 && strcmp(s, origin_names[i]) != 0; i++)
		;
	if (i == 3) {
		snprintf(err, errlen, "origin '%s' is not igp, egp or "
		    "incomplete", s);
		return -1;
	}
	a->origin = (uint8_t)i;
	return 0;
}

/* The AS_SEQUENCE segments' ASes, one path. */
static void
bgprc_parse_as_path(const struct doc_node *at, struct bgp_attrs *a)
{
	struct doc_node	c, seg, v;
	struct doc_iter	it, vit;
	uint64_t	u;

	if (doc_child(at, "as-path", &c) == -1)
		return;
	doc_iter_init(&it, &c, "segments");
	while (doc_iter_next(&it, &seg) == 1) {
		doc_iter_init(&vit, &seg, "as-sequence");
		while (doc_iter_next(&vit, &v) == 1 &&
		    a->n_as < BGP_MAX_ASPATH)
			if (doc_uint(&v, UINT32_MAX, &u) == 0)
				a->as_path[a->n_as++] = (uint32_t)u;
	}
}

/* originator-id and cluster-id, kept as given (RFC 4456 section 7). */
static int
bgprc_parse_rr(const struct doc_node *at, struct bgp_attrs *a, char *err,
    size_t errlen)
{
	struct doc_node	c, v;
	struct doc_iter	it;
	struct in_addr	in;
	char		s[64];

	if (doc_child(at, "originator-id", &c) == 0) {
		if (doc_get_string(&c, "originator", s, sizeof(s)) == -1 ||
		    inet_pton(AF_INET, s, &in) != 1)
			goto bad;
		a->has_originator = 1;
		a->originator = ntohl(in.s_addr);
	}
	if (doc_child(at, "cluster-id", &c) == -1)
		return 0;
	doc_iter_init(&it, &c, "cluster");
	while (doc_iter_next(&it, &v) == 1) {
		if (doc_string(&v, s, sizeof(s)) == -1 ||
		    inet_pton(AF_INET, s, &in) != 1)
			goto bad;
		if (a->n_cluster < BGP_MAX_CLUSTER)
			a->cluster[a->n_cluster++] = ntohl(in.s_addr);
	}
	return 0;
bad:
	snprintf(err, errlen, "an originator-id or cluster-id that is not an "
	    "IPv4 address");
	return -1;
}

/* One route of a request body into prefix and attributes; -1 with a
 * message in err. */
static int
bgprc_parse_route(const struct doc_node *n, uint8_t af, struct bgp_prefix *p,
    struct bgp_attrs *a, char *err, size_t errlen)
{
	struct doc_node	 at, c;
	char		 s[64];
	uint64_t	 u;

	memset(a, 0, sizeof(*a));
	if (doc_get_string(n, "prefix", s, sizeof(s)) == -1 &&
	    doc_get_string(n, "route-key", s, sizeof(s)) == -1) {
		snprintf(err, errlen, "a route without prefix");
		return -1;
	}
	if (bgp_prefix_parse(s, p) == -1 || p->af != af) {
		snprintf(err, errlen, "'%s' is not an %s prefix", s,
		    af == BGP_AF_IPV6 ? "IPv6" : "IPv4");
		return -1;
	}
	if (doc_child(n, "attributes", &at) == -1)
		return 0;	/* IGP origin, empty AS_PATH, no next hop */
	if (bgprc_parse_origin(&at, a, err, errlen) == -1)
		return -1;
	if (doc_child(&at, af == BGP_AF_IPV6 ? "ipv6-next-hop" :
	    "ipv4-next-hop", &c) == 0 &&
	    (doc_get_string(&c, "global", s, sizeof(s)) == -1 ||
	    inet_pton(af == BGP_AF_IPV6 ? AF_INET6 : AF_INET, s,
	    af == BGP_AF_IPV6 ? (void *)a->next_hop6 :
	    (void *)a->next_hop4) != 1)) {
		snprintf(err, errlen, "a next hop that is not an address");
		return -1;
	}
	if (doc_child(&at, "local-pref", &c) == 0 &&
	    doc_get_uint(&c, "pref", UINT32_MAX, &u) == 0) {
		a->has_local_pref = 1;
		a->local_pref = (uint32_t)u;
	}
	if (doc_child(&at, "multi-exit-disc", &c) == 0 &&
	    doc_get_uint(&c, "med", UINT32_MAX, &u) == 0) {
		a->has_med = 1;
		a->med = (uint32_t)u;
	}
	bgprc_parse_as_path(&at, a);
	return bgprc_parse_rr(&at, a, err, errlen);
}

/* The routes of a body: the routes container, or one route.  Adds them
 * (after a clear for PUT of the container); -1 when an error was sent. */
static int
bgprc_app_write(struct rc_req *rq, uint8_t af, int container, int replace,
    uint64_t *added)
{
	struct doc		 d;
	struct doc_node		 root, top, n;
	struct doc_iter		 it;
	struct bgp_prefix	 p;
	struct bgp_attrs	 a;
	char			 err[160];
	int			 rc = 0;

	if (rc_body(rq, &d) == -1)
		return -1;
	doc_root(&d, &root);
	top = root;
	/* PUT of the container replaces it with the body's container; a
	 * POST to it creates the route entries it holds (RFC 8040 section
	 * 4.4.1), given bare or in the container. */
	if (container && doc_child(&root, bgprc_routes_name(af), &top) == -1 &&
	    (replace || doc_child(&root, bgprc_route_name(af), &top) == -1)) {
		doc_free(&d);
		http_error(rq->http, 400, "protocol", "malformed-message",
		    "Expected a bgp-inet:%s container%s", bgprc_routes_name(af),
		    replace ? "" : " or route entries");
		return -1;
	}
	top = container && doc_child(&root, bgprc_routes_name(af), &top) == 0 ?
	    top : root;
	if (replace)
		bgp_ctl_app_clear();
	*added = 0;
	doc_iter_init(&it, &top, bgprc_route_name(af));
	while (rc == 0 && doc_iter_next(&it, &n) == 1) {
		if (bgprc_parse_route(&n, af, &p, &a, err, sizeof(err)) == -1) {
			http_error(rq->http, 400, "protocol", "invalid-value",
			    "%s", err);
			rc = -1;
		} else
			*added += (uint64_t)bgp_ctl_app_add(&p, &a);
	}
	doc_free(&d);
	return rc;
}

static void
bgprc_app_entry(struct rc_req *rq, size_t t, uint8_t af)
{
	uint64_t	added;

	if (rq->http->method != EVHTTP_REQ_POST)
		bgprc_get_table(rq, t, RC_APP_RIB, NULL);
	else if (bgprc_app_write(rq, af, 1, 0, &added) == 0)
		http_reply(rq->http, added > 0 ? 201 : 204, NULL);
}

static void
bgprc_app_table(struct rc_req *rq, size_t t)
{
	const struct rc_path	*p = &rq->path;
	struct bgp_prefix	 key;
	uint8_t			 af = bgprc_family(&p->e[t]);
	uint64_t		 added;
	int			 one = p->n == t + 3;
	enum evhttp_cmd_type	 m = rq->http->method;

	/* The tables entry itself: GET, or POST of its routes container
	 * (what CSIT's bgp_app_peer.py posts). */
	if (af != BGP_AF_MAX && p->n == t + 1 && (m == EVHTTP_REQ_POST ||
	    (m & (EVHTTP_REQ_GET | EVHTTP_REQ_HEAD)))) {
		bgprc_app_entry(rq, t, af);
		return;
	}
	if (af == BGP_AF_MAX || p->n < t + 2 || p->n > t + 3 ||
	    !rc_elem_is(&p->e[t + 1], bgprc_routes_name(af)) || (one &&
	    (!rc_elem_is(&p->e[t + 2], bgprc_route_name(af)) ||
	    bgprc_route_key(&p->e[t + 2], af, &key) == -1))) {
		rc_data_missing(rq);
		return;
	}
	if (m & (EVHTTP_REQ_GET | EVHTTP_REQ_HEAD)) {
		bgprc_get_table(rq, t, RC_APP_RIB, NULL);
		return;
	}
	if (m == EVHTTP_REQ_DELETE) {
		if (one ? !bgp_ctl_app_del(&key) : bgp_ctl_app_count(af) == 0)
			rc_data_missing(rq);
		else {
			if (!one)
				bgp_ctl_app_clear();
			http_reply(rq->http, 204, NULL);
		}
		return;
	}
	if (m != EVHTTP_REQ_PUT && m != EVHTTP_REQ_POST) {
		rc_read_only(rq);
		return;
	}
	if (bgprc_app_write(rq, af, !one, !one && m == EVHTTP_REQ_PUT,
	    &added) == -1)
		return;
	http_reply(rq->http, added > 0 ? 201 : 204, NULL);
}

static void
bgprc_app_rib(struct rc_req *rq, void *arg)
{
	const struct rc_path	*p = &rq->path;

	(void)arg;
	if (p->e[0].nkeys != 1 || strcmp(p->e[0].key[0], APP_RIB_ID) != 0 ||
	    p->n < 2) {
		rc_data_missing(rq);
		return;
	}
	if (!rc_elem_is(&p->e[1], "tables")) {
		rc_unknown(rq, &p->e[1]);
		return;
	}
	bgprc_app_table(rq, 1);
}


/* ---- example-ipv4-topology ---- */

static const struct doc_module igp_mod = {
	"l3-unicast-igp-topology",
	"urn:TBD:params:xml:ns:yang:nt:l3-unicast-igp-topology"
};
static const struct doc_module bgpt_mod = {
	"odl-bgp-topology-types",
	"urn:opendaylight:params:xml:ns:yang:odl:bgp:topology:types"
};
static const struct doc_module bgpc_mod = {
	"odl-bgp-topology-config",
	"urn:opendaylight:params:xml:ns:yang:odl:bgp:topology:config"
};

/* Below network-topology's node (rc_topology.h has the rest). */
static const struct rc_list topo_lists[] = {
	{ "prefix", 1 },
	{ NULL, 0 },
};

/* The Loc-RIB's prefixes grouped by next hop (the topology's nodes). */
struct topo_group {
	char			 nh[INET6_ADDRSTRLEN];
	struct bgp_prefix	*pfx;
	size_t			 n, cap;
};

struct topo_groups {
	struct topo_group	*g;
	size_t			 n, cap;
};

static void
topo_collect(uint8_t af, struct topo_groups *gs)
{
	struct bgp_ctl_route	 r;
	struct topo_group	*g;
	uint64_t		 cursor = 0;
	char			 nh[INET6_ADDRSTRLEN];
	size_t			 i;

	memset(gs, 0, sizeof(*gs));
	while (bgp_ctl_loc_rib_next(af, &cursor, &r)) {
		inet_ntop(af == BGP_AF_IPV6 ? AF_INET6 : AF_INET,
		    af == BGP_AF_IPV6 ? (const void *)r.attrs->next_hop6 :
		    (const void *)r.attrs->next_hop4, nh, sizeof(nh));
		for (i = 0; i < gs->n && strcmp(gs->g[i].nh, nh) != 0; i++)
			;
		if (i == gs->n) {
			if (gs->n == gs->cap) {
				gs->cap = gs->cap ? gs->cap * 2 : 16;
				gs->g = xreallocarray(gs->g, gs->cap,
				    sizeof(*gs->g));
			}
			memset(&gs->g[i], 0, sizeof(gs->g[i]));
			snprintf(gs->g[i].nh, sizeof(gs->g[i].nh), "%s", nh);
			gs->n++;
		}
		g = &gs->g[i];
		if (g->n == g->cap) {
			g->cap = g->cap ? g->cap * 2 : 64;
			g->pfx = xreallocarray(g->pfx, g->cap, sizeof(*g->pfx));
		}
		g->pfx[g->n++] = r.prefix;
	}
}

static void
topo_free(struct topo_groups *gs)
{
	size_t	i;

	for (i = 0; i < gs->n; i++)
		free(gs->g[i].pfx);
	free(gs->g);
}

static void
topo_node(struct doc_writer *w, const struct topo_group *g)
{
	char	s[64];
	size_t	i;

	doc_entry(w);
	doc_leaf_str(w, "node-id", g->nh);
	doc_container(w, &igp_mod, "igp-node-attributes");
	doc_list(w, NULL, "prefix");
	for (i = 0; i < g->n; i++) {
		doc_entry(w);
		doc_leaf_str(w, "prefix", bgp_prefix_str(&g->pfx[i], s,
		    sizeof(s)));
		doc_end(w);
	}
	doc_end(w);
	doc_end(w);
	doc_end(w);
}

static void
topo_entry(struct doc_writer *w, int config, void *arg)
{
	uint8_t			af = (uint8_t)(uintptr_t)arg;
	struct topo_groups	gs;
	size_t			i;

	doc_entry(w);
	doc_leaf_str(w, "topology-id", af == BGP_AF_IPV6 ?
	    "example-ipv6-topology" : "example-ipv4-topology");
	/* bgpcep's topology provider: the RIB it shows, and the topology
	 * is the server's own (what basic.robot's JSON holds). */
	doc_leaf_mod(w, &bgpc_mod, "rib-id", RIB_ID);
	doc_leaf_bool(w, "server-provided", 1);
	doc_container(w, NULL, "topology-types");
	doc_container(w, &bgpt_mod, af == BGP_AF_IPV6 ?
	    "bgp-ipv6-reachability-topology" :
	    "bgp-ipv4-reachability-topology");
	doc_end(w);
	doc_end(w);
	if (!config) {		/* the nodes are operational data */
		topo_collect(af, &gs);
		doc_list(w, NULL, "node");
		for (i = 0; i < gs.n; i++)
			topo_node(w, &gs.g[i]);
		doc_end(w);
		topo_free(&gs);
	}
	doc_end(w);
}

static void
topo_handle(struct rc_req *rq, void *arg)
{
	const struct rc_path	*p = &rq->path;
	uint8_t			 af = (uint8_t)(uintptr_t)arg;
	struct topo_groups	 gs;
	struct doc_writer	 w;
	struct evbuffer		*b;
	size_t			 i;

	if (p->n > 3 || (p->n == 3 && !rc_elem_is(&p->e[2], "node"))) {
		rc_unknown(rq, &p->e[2]);
		return;
	}
	if (p->n == 2) {
		rc_topology_reply(rq, topo_entry, arg);
		return;
	}
	topo_collect(af, &gs);
	for (i = 0; i < gs.n && strcmp(gs.g[i].nh, p->e[2].key[0]) != 0; i++)
		;
	if (i == gs.n || rq->content == RC_CONTENT_CONFIG)
		rc_data_missing(rq);
	else {
		b = rc_writer(rq, &w);
		doc_list(&w, &rc_nt_mod, "node");
		topo_node(&w, &gs.g[i]);
		doc_end(&w);
		rc_send(rq, &w, b);
	}
	topo_free(&gs);
}

static const struct rc_topology topo4 = {
	"example-ipv4-topology", topo_lists, topo_handle, topo_entry,
	(void *)(uintptr_t)BGP_AF_IPV4, 1
};
static const struct rc_topology topo6 = {
	"example-ipv6-topology", topo_lists, topo_handle, topo_entry,
	(void *)(uintptr_t)BGP_AF_IPV6, 1
};

static const struct rc_resource rib_resource = {
	"bgp-rib", "bgp-rib", rib_lists, bgprc_bgp_rib, NULL, 1
};
static const struct rc_resource app_resource = {
	"bgp-rib", "application-rib", rib_lists, bgprc_app_rib, NULL, 0
};

void
bgp_restconf_register(void)
{
	restconf_register(&rib_resource);
	restconf_register(&app_resource);
	rc_topology_register(&topo4);
	rc_topology_register(&topo6);
}
