/*
 * The speaker's neighbors and peer groups over RESTCONF, where
 * OpenDaylight's bgpcep keeps them (openconfig-network-instance with
 * bgp-openconfig-extensions, what CSIT's bgpuser templates address):
 *
 *   openconfig-network-instance:network-instances/
 *     network-instance=global-bgp/protocols/
 *     protocol=openconfig-policy-types:BGP,example-bgp-rib/
 *     bgp-openconfig-extensions:bgp/neighbors[/neighbor=IP]
 *                                  /peer-groups[/peer-group=NAME]
 *
 * GET (config leaves; state too unless content=config), PUT of one entry
 * (201 created, 204 replaced), POST of one entry to the container (201,
 * 409 data-exists), DELETE (204, 404 data-missing).  And the RPC
 * bgp-peer-rpc:reset-session that restarts a peer's session.
 */
#include <arpa/inet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/http.h>

#include "bgp_nbr.h"
#include "bgp_oc.h"
#include "bgp_ctl.h"
#include "bgp_wire.h"
#include "log.h"
#include "restconf.h"

#define OC_RIB_ID	"example-bgp-rib"
#define OC_E_BGP	4	/* path index of the bgp container */

static const struct doc_module oc_ext_mod = {
	"bgp-openconfig-extensions",
	"urn:opendaylight:params:xml:ns:yang:bgp:openconfig-extensions"
};

static const struct rc_list oc_lists[] = {
	{ "network-instance", 1 },
	{ "protocol", 2 },
	{ "neighbor", 1 },
	{ "peer-group", 1 },
	{ NULL, 0 },
};

static const char *const oc_types[] = { NULL, "INTERNAL", "EXTERNAL" };

/* What the kinds are called: container, list, key leaf. */
static const char *const oc_names[][3] = {
	[BGP_NBR_NEIGHBOR] = { "neighbors", "neighbor", "neighbor-address" },
	[BGP_NBR_GROUP] = { "peer-groups", "peer-group", "peer-group-name" },
};

/* ---- writing ---- */

static void
oc_hold(struct doc_writer *w, const char *name, uint16_t v)
{
	char	s[8];

	/* decimal64 in openconfig-bgp: a string in JSON (RFC 7951 6.1). */
	snprintf(s, sizeof(s), "%u", v);
	doc_leaf_str(w, name, s);
}

static void
oc_write_config(struct doc_writer *w, const struct bgp_nbr *c)
{
	if (c->group[0] == '\0' && !(c->set & (BGP_NBR_F_PEER_AS |
	    BGP_NBR_F_TYPE | BGP_NBR_F_LOCAL)))
		return;
	doc_container(w, NULL, "config");
	if (c->group[0] != '\0')
		doc_leaf_str(w, "peer-group", c->group);
	if (c->set & BGP_NBR_F_PEER_AS)
		doc_leaf_uint(w, "peer-as", c->peer_as);
	if (c->set & BGP_NBR_F_TYPE)
		doc_leaf_str(w, "peer-type", oc_types[c->peer_type]);
	if (c->set & BGP_NBR_F_LOCAL)
		doc_leaf_str(w, "local-address", c->local);
	doc_end(w);
}

/* name/config, the openconfig way of holding a group's settings. */
static void
oc_config_open(struct doc_writer *w, const char *name)
{
	doc_container(w, NULL, name);
	doc_container(w, NULL, "config");
}

static void
oc_config_close(struct doc_writer *w)
{
	doc_end(w);
	doc_end(w);
}

static void
oc_write_leaves(struct doc_writer *w, const struct bgp_nbr *c)
{
	if (c->set & (BGP_NBR_F_PORT | BGP_NBR_F_PASSIVE)) {
		oc_config_open(w, "transport");
		if (c->set & BGP_NBR_F_PORT)
			doc_leaf_uint(w, "remote-port", c->remote_port);
		if (c->set & BGP_NBR_F_PASSIVE)
			doc_leaf_bool(w, "passive-mode", c->passive);
		oc_config_close(w);
	}
	if (c->set & (BGP_NBR_F_HOLD | BGP_NBR_F_RETRY)) {
		oc_config_open(w, "timers");
		if (c->set & BGP_NBR_F_HOLD)
			oc_hold(w, "hold-time", c->hold);
		if (c->set & BGP_NBR_F_RETRY)
			oc_hold(w, "connect-retry", c->connect_retry);
		oc_config_close(w);
	}
	if (c->set & BGP_NBR_F_RR_CLIENT) {
		oc_config_open(w, "route-reflector");
		doc_leaf_bool(w, "route-reflector-client", c->rr_client);
		oc_config_close(w);
	}
}

static void
oc_write_afs(struct doc_writer *w, const struct bgp_nbr *c)
{
	const char	*mod;
	char		 s[64];
	uint8_t		 i;

	if (!(c->set & BGP_NBR_F_AFS) || c->n_afs == 0)
		return;
	doc_container(w, NULL, "afi-safis");
	doc_list(w, NULL, "afi-safi");
	for (i = 0; i < c->n_afs; i++) {
		const char *name = bgp_nbr_afs_name(c->afs[i], &mod);

		snprintf(s, sizeof(s), "%s:%s", mod, name);
		doc_entry(w);
		doc_leaf_str(w, "afi-safi-name", s);
		doc_end(w);
	}
	doc_end(w);
	doc_end(w);
}

/* Operational state: the session, and the paths its peer(s) gave us. */
static void
oc_write_state(struct doc_writer *w, const struct bgp_nbr *c)
{
	char		peer[BGP_NBR_NAME_LEN + 8];
	const char	*state = "ACTIVE";
	uint64_t	 n = 0, sum = 0;
	unsigned	 i;
	const struct bgp_nbr *m;

	doc_container(w, NULL, "state");
	if (c->kind == BGP_NBR_NEIGHBOR) {
		snprintf(peer, sizeof(peer), "bgp://%s", c->name);
		bgp_ctl_peer_state(peer, &state, &n);
		doc_leaf_str(w, "session-state", state);
	} else {
		for (i = 0; (m = bgp_nbr_at(BGP_NBR_NEIGHBOR, i)) != NULL; i++) {
			snprintf(peer, sizeof(peer), "bgp://%s", m->name);
			if (strcmp(m->group, c->name) == 0 &&
			    bgp_ctl_peer_state(peer, &state, &n) != -1)
				sum += n;
		}
		n = sum;
	}
	doc_leaf_uint(w, "total-paths", n);
	doc_leaf_uint(w, "total-prefixes", n);
	doc_end(w);
}

static void
oc_write_entry(struct doc_writer *w, const struct bgp_nbr *c, int state)
{
	doc_entry(w);
	doc_leaf_str(w, oc_names[c->kind][2], c->name);
	oc_write_config(w, c);
	oc_write_leaves(w, c);
	oc_write_afs(w, c);
	if (state)
		oc_write_state(w, c);
	doc_end(w);
}

/* GET of the container (every entry) or of one entry. */
static void
oc_get(struct rc_req *rq, enum bgp_nbr_kind k, const char *key)
{
	const struct bgp_nbr	*c = key != NULL ? bgp_nbr_get(k, key) :
	    bgp_nbr_at(k, 0);
	struct doc_writer	 w;
	struct evbuffer		*b;
	unsigned		 i;
	int			 state = rq->content != RC_CONTENT_CONFIG;

	if (c == NULL) {
		rc_data_missing(rq);
		return;
	}
	b = rc_writer(rq, &w);
	if (key == NULL)
		doc_container(&w, &oc_ext_mod, oc_names[k][0]);
	doc_list(&w, key != NULL ? &oc_ext_mod : NULL, oc_names[k][1]);
	if (key != NULL)
		oc_write_entry(&w, c, state);
	for (i = 0; key == NULL && (c = bgp_nbr_at(k, i)) != NULL; i++)
		oc_write_entry(&w, c, state);
	rc_send(rq, &w, b);
}

/* ---- reading a body ---- */

static int
oc_bool(const struct doc_node *n, const char *name, uint8_t *v, char *err,
    size_t errlen)
{
	char	s[16];

	if (doc_get_string(n, name, s, sizeof(s)) == -1)
		return 0;
	if (strcmp(s, "true") != 0 && strcmp(s, "false") != 0) {
		snprintf(err, errlen, "%s: '%s' is not a boolean", name, s);
		return -1;
	}
	*v = s[0] == 't';
	return 1;
}

/* hold-time and connect-retry: decimal64 seconds, whole here. */
static int
oc_seconds(const struct doc_node *n, const char *name, uint16_t *v,
    char *err, size_t errlen)
{
	char	s[32], *end;
	double	d;

	if (doc_get_string(n, name, s, sizeof(s)) == -1)
		return 0;
	d = strtod(s, &end);
	if (end == s || *end != '\0' || d < 0 || d > 65535) {
		snprintf(err, errlen, "%s: '%s' is not a number of seconds",
		    name, s);
		return -1;
	}
	*v = (uint16_t)d;
	return 1;
}

/* The config container: peer-group, peer-as, peer-type, local-address. */
static int
oc_read_config(const struct doc_node *n, struct bgp_nbr *c, char *err,
    size_t errlen)
{
	struct doc_node	cfg;
	char		s[BGP_NBR_NAME_LEN];
	uint64_t	u;

	if (doc_child(n, "config", &cfg) == -1)
		return 0;
	if (doc_get_string(&cfg, "peer-group", c->group,
	    sizeof(c->group)) == -1)
		c->group[0] = '\0';
	if (doc_child(&cfg, "peer-as", &(struct doc_node){ 0 }) == 0) {
		if (doc_get_uint(&cfg, "peer-as", UINT32_MAX, &u) == -1 ||
		    u == 0) {
			snprintf(err, errlen, "peer-as: not an AS number");
			return -1;
		}
		c->peer_as = (uint32_t)u;
		c->set |= BGP_NBR_F_PEER_AS;
	}
	if (doc_get_string(&cfg, "peer-type", s, sizeof(s)) == 0) {
		c->peer_type = strcmp(s, "INTERNAL") == 0 ? BGP_NBR_INTERNAL :
		    strcmp(s, "EXTERNAL") == 0 ? BGP_NBR_EXTERNAL : 0;
		if (c->peer_type == 0) {
			snprintf(err, errlen, "peer-type: '%s' is not "
			    "INTERNAL or EXTERNAL", s);
			return -1;
		}
		c->set |= BGP_NBR_F_TYPE;
	}
	if (doc_get_string(&cfg, "local-address", s, sizeof(s)) == 0) {
		if (bgp_nbr_addr(s, c->local, sizeof(c->local)) == -1) {
			snprintf(err, errlen, "local-address: '%s' is not an "
			    "address", s);
			return -1;
		}
		c->set |= BGP_NBR_F_LOCAL;
	}
	return 0;
}

/* The config container of name, below n; 0 when there is one. */
static int
oc_config_node(const struct doc_node *n, const char *name,
    struct doc_node *cfg)
{
	struct doc_node	x;

	return doc_child(n, name, &x) == 0 && doc_child(&x, "config", cfg) ==
	    0 ? 0 : -1;
}

/* One flag's leaf: r is what the reader returned (1 read, 0 absent). */
static int
oc_took(struct bgp_nbr *c, int r, uint32_t flag)
{
	if (r == 1)
		c->set |= flag;
	return r == -1 ? -1 : 0;
}

/* transport, timers and route-reflector; each config container. */
static int
oc_read_leaves(const struct doc_node *n, struct bgp_nbr *c, char *err,
    size_t errlen)
{
	struct doc_node	cfg;
	uint64_t	u;

	if (oc_config_node(n, "transport", &cfg) == 0) {
		if (doc_child(&cfg, "remote-port", &(struct doc_node){ 0 }) ==
		    0) {
			if (doc_get_uint(&cfg, "remote-port", 65535, &u) == -1) {
				snprintf(err, errlen, "remote-port: not a "
				    "port number");
				return -1;
			}
			c->remote_port = (uint16_t)u;
			c->set |= BGP_NBR_F_PORT;
		}
		if (oc_took(c, oc_bool(&cfg, "passive-mode", &c->passive, err,
		    errlen), BGP_NBR_F_PASSIVE) == -1)
			return -1;
	}
	if (oc_config_node(n, "timers", &cfg) == 0 && (oc_took(c,
	    oc_seconds(&cfg, "hold-time", &c->hold, err, errlen),
	    BGP_NBR_F_HOLD) == -1 || oc_took(c, oc_seconds(&cfg,
	    "connect-retry", &c->connect_retry, err, errlen),
	    BGP_NBR_F_RETRY) == -1))
		return -1;
	if (oc_config_node(n, "route-reflector", &cfg) == 0 &&
	    oc_took(c, oc_bool(&cfg, "route-reflector-client", &c->rr_client,
	    err, errlen), BGP_NBR_F_RR_CLIENT) == -1)
		return -1;
	return 0;
}

static int
oc_read_afs(const struct doc_node *n, struct bgp_nbr *c, char *err,
    size_t errlen)
{
	struct doc_node	x, e;
	struct doc_iter	it;
	char		s[96];
	int		i;

	if (doc_child(n, "afi-safis", &x) == -1)
		return 0;
	c->set |= BGP_NBR_F_AFS;
	doc_iter_init(&it, &x, "afi-safi");
	while (doc_iter_next(&it, &e) == 1) {
		if (doc_get_string(&e, "afi-safi-name", s, sizeof(s)) == -1 ||
		    (i = bgp_nbr_afs_parse(s)) == -1) {
			snprintf(err, errlen, "afi-safi-name: '%s' is not an "
			    "afi-safi-type identity", s);
			return -1;
		}
		if (c->n_afs == BGP_NBR_MAX_AFS) {
			snprintf(err, errlen, "more than %d afi-safis",
			    BGP_NBR_MAX_AFS);
			return -1;
		}
		c->afs[c->n_afs++] = (uint8_t)i;
	}
	return 0;
}

/* One entry of a body into c; its key must be key when given.  -1 with
 * the error sent. */
static int
oc_read(struct rc_req *rq, enum bgp_nbr_kind k, const char *key,
    struct bgp_nbr *c)
{
	struct doc	d;
	struct doc_node	root, n;
	struct doc_iter	it;
	char		err[160], s[BGP_NBR_NAME_LEN];
	const char	*tag = "invalid-value";

	if (rc_body(rq, &d) == -1)
		return -1;
	doc_root(&d, &root);
	memset(c, 0, sizeof(*c));
	c->kind = (uint8_t)k;
	err[0] = '\0';
	/* The entry, bare or in its container (one entry of it). */
	if (doc_child(&root, oc_names[k][0], &n) == 0)
		root = n;
	doc_iter_init(&it, &root, oc_names[k][1]);
	if (doc_iter_next(&it, &n) != 1) {
		tag = "malformed-message";
		snprintf(err, sizeof(err), "Expected a %s entry",
		    oc_names[k][1]);
	} else if (doc_get_string(&n, oc_names[k][2], s, sizeof(s)) == -1) {
		tag = "missing-element";
		snprintf(err, sizeof(err), "The %s key is missing",
		    oc_names[k][2]);
	} else if (k == BGP_NBR_NEIGHBOR && bgp_nbr_addr(s, c->name,
	    sizeof(c->name)) == -1)
		snprintf(err, sizeof(err), "'%s' is not an address", s);
	else if (k == BGP_NBR_GROUP)
		snprintf(c->name, sizeof(c->name), "%s", s);
	if (err[0] == '\0' && key != NULL && strcmp(key, c->name) != 0)
		snprintf(err, sizeof(err), "The key in the body (%s) is not "
		    "the one in the URI (%s)", c->name, key);
	if (err[0] == '\0' && (oc_read_config(&n, c, err, sizeof(err)) ==
	    -1 || oc_read_leaves(&n, c, err, sizeof(err)) == -1 ||
	    oc_read_afs(&n, c, err, sizeof(err)) == -1))
		tag = "invalid-value";
	doc_free(&d);
	if (err[0] == '\0')
		return 0;
	http_error(rq->http, 400, "protocol", tag, "%s", err);
	return -1;
}

/* ---- requests ---- */

static void
oc_created(struct rc_req *rq, int created)
{
	http_reply(rq->http, created ? 201 : 204, NULL);
}

static void
oc_not_allowed(struct rc_req *rq, const char *allow)
{
	evhttp_add_header(evhttp_request_get_output_headers(rq->http->ev),
	    "Allow", allow);
	http_error(rq->http, 405, "protocol", "operation-not-supported",
	    "The method is not supported here");
}

/* The container: GET, POST of a new entry (RFC 8040 4.4.1), or PUT of
 * one entry (what CSIT's draft-era peer_group template sends to
 * .../peer-groups/): 201 or 204. */
static void
oc_container(struct rc_req *rq, enum bgp_nbr_kind k)
{
	struct bgp_nbr	c;
	enum evhttp_cmd_type m = rq->http->method;

	if (m & (EVHTTP_REQ_GET | EVHTTP_REQ_HEAD)) {
		oc_get(rq, k, NULL);
		return;
	}
	if (m != EVHTTP_REQ_POST && m != EVHTTP_REQ_PUT) {
		oc_not_allowed(rq, "GET, HEAD, POST, PUT");
		return;
	}
	if (oc_read(rq, k, NULL, &c) == -1)
		return;
	if (m == EVHTTP_REQ_POST && bgp_nbr_get(k, c.name) != NULL) {
		http_error(rq->http, 409, "protocol", "data-exists",
		    "Data already exists");
		return;
	}
	oc_created(rq, bgp_nbr_put(&c));
}

/* key: the entry's URI key, the address canonical for a neighbor. */
static void
oc_entry(struct rc_req *rq, enum bgp_nbr_kind k, const char *raw)
{
	struct bgp_nbr	c;
	char		key[BGP_NBR_NAME_LEN];
	enum evhttp_cmd_type m = rq->http->method;

	if (k == BGP_NBR_NEIGHBOR ? bgp_nbr_addr(raw, key, sizeof(key)) ==
	    -1 : (size_t)snprintf(key, sizeof(key), "%s", raw) >=
	    sizeof(key)) {
		http_error(rq->http, 400, "protocol", "invalid-value",
		    "'%s' is not a valid %s", raw, oc_names[k][2]);
		return;
	}
	if (m & (EVHTTP_REQ_GET | EVHTTP_REQ_HEAD))
		oc_get(rq, k, key);
	else if (m == EVHTTP_REQ_DELETE) {
		if (bgp_nbr_del(k, key) == -1)
			rc_data_missing(rq);
		else
			http_reply(rq->http, 204, NULL);
	} else if (m == EVHTTP_REQ_PUT) {
		if (oc_read(rq, k, key, &c) == 0)
			oc_created(rq, bgp_nbr_put(&c));
	} else
		oc_not_allowed(rq, "GET, HEAD, PUT, DELETE");
}

/* network-instance=global-bgp/protocols/protocol=BGP,example-bgp-rib/bgp:
 * 1 when the path's first elements are those. */
static int
oc_prefix_ok(const struct rc_path *p)
{
	const char	*c;

	if (p->n <= OC_E_BGP || p->e[0].nkeys != 0 ||
	    !rc_elem_is(&p->e[1], "network-instance") ||
	    strcmp(p->e[1].key[0], "global-bgp") != 0 ||
	    !rc_elem_is(&p->e[2], "protocols") ||
	    !rc_elem_is(&p->e[3], "protocol") ||
	    !rc_elem_is(&p->e[OC_E_BGP], "bgp"))
		return 0;
	c = strchr(p->e[3].key[0], ':');
	return strcmp(c != NULL ? c + 1 : p->e[3].key[0], "BGP") == 0 &&
	    strcmp(p->e[3].key[1], OC_RIB_ID) == 0;
}

static void
oc_handle(struct rc_req *rq, void *arg)
{
	const struct rc_path	*p = &rq->path;
	const struct rc_elem	*e = &p->e[OC_E_BGP + 1];
	enum bgp_nbr_kind	 k;

	(void)arg;
	if (!oc_prefix_ok(p) || p->n == OC_E_BGP + 1) {
		/* Only the neighbors and peer groups are served. */
		rc_data_missing(rq);
		return;
	}
	if (rc_elem_is(e, "neighbors"))
		k = BGP_NBR_NEIGHBOR;
	else if (rc_elem_is(e, "peer-groups"))
		k = BGP_NBR_GROUP;
	else {
		rc_unknown(rq, e);
		return;
	}
	if (p->n == OC_E_BGP + 2)
		oc_container(rq, k);
	else if (p->n == OC_E_BGP + 3 && rc_elem_is(&p->e[OC_E_BGP + 2],
	    oc_names[k][1]))
		oc_entry(rq, k, p->e[OC_E_BGP + 2].key[0]);
	else
		rc_unknown(rq, &p->e[OC_E_BGP + 2]);
}

/* ---- bgp-peer-rpc:reset-session ---- */

/* The peer-id of a peer-ref instance identifier:
 * /rib:bgp-rib/rib:rib[rib:id="R"]/rib:peer[rib:peer-id="bgp://IP"]. */
static int
oc_peer_ref(const char *ref, char *peer, size_t len)
{
	const char	*s = strstr(ref, "peer-id="), *rib = strstr(ref, "id=");
	size_t		 n;
	char		 q;

	if (s == NULL || rib == NULL || (rib[3] != '"' && rib[3] != '\'') ||
	    strncmp(rib + 4, OC_RIB_ID, strlen(OC_RIB_ID)) != 0 ||
	    rib[4 + strlen(OC_RIB_ID)] != rib[3])
		return -1;
	q = s[8];
	if (q != '"' && q != '\'')
		return -1;
	s += 9;
	n = strcspn(s, q == '"' ? "\"" : "'");
	if (s[n] != q || n == 0 || n >= len)
		return -1;
	memcpy(peer, s, n);
	peer[n] = '\0';
	return 0;
}

static void
oc_reset_session(struct http_req *h, void *arg)
{
	struct doc	d;
	struct doc_node	root, in;
	char		err[160], ref[256], peer[BGP_NBR_NAME_LEN + 8];

	(void)arg;
	if (doc_parse(&d, h->body_fmt, h->body, h->body_len, err,
	    sizeof(err)) == -1) {
		http_error(h, 400, "protocol", "malformed-message",
		    "Error parsing input: %s", err);
		return;
	}
	doc_root(&d, &root);
	if (doc_child(&root, "input", &in) == -1 ||
	    doc_get_string(&in, "peer-ref", ref, sizeof(ref)) == -1 ||
	    oc_peer_ref(ref, peer, sizeof(peer)) == -1) {
		doc_free(&d);
		http_error(h, 400, "protocol", "invalid-value", "Expected "
		    "input with a peer-ref of rib %s's peer", OC_RIB_ID);
		return;
	}
	doc_free(&d);
	/* RFC 4486 section 4: Administrative Reset. */
	if (bgp_ctl_reset(peer, BGP_ERR_CEASE_ADMIN_RESET) == 0)
		http_error(h, 404, "protocol", "data-missing",
		    "There is no session with %s", peer);
	else
		http_reply(h, 204, NULL);	/* RFC 8040 3.6.2: no output */
}

static const struct rc_resource oc_resource = {
	"openconfig-network-instance", "network-instances", oc_lists,
	oc_handle, NULL, 0
};

void
bgp_oc_register(struct http_server *hs)
{
	restconf_register(&oc_resource);
	http_server_route(hs, "/rests/operations/bgp-peer-rpc:reset-session",
	    EVHTTP_REQ_POST, oc_reset_session, NULL);
	http_server_route(hs,
	    "/restconf/operations/bgp-peer-rpc:reset-session",
	    EVHTTP_REQ_POST, oc_reset_session, NULL);
}
