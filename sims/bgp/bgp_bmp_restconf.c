/*
 * The BMP station over RESTCONF, in OpenDaylight's bmp-monitor shape
 * (bgpcep's bmp-monitor.yang):
 *   bmp-monitor:bmp-monitor/monitor=example-bmp-monitor
 *     /router=ID          (ID: the router's address; name, description)
 *       /peer=BGP-ID      (address, as, peer-session with both OPENs,
 *                          pre-policy-rib, post-policy-rib, stats)
 * Read only; the routes are bgp-inet's ipv4-route and ipv6-route.
 */
#include <arpa/inet.h>

#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>

#include "bgp_bmp_station.h"
#include "bgp_restconf.h"
#include "restconf.h"

static const struct doc_module bmp_mod = {
	"bmp-monitor", "urn:opendaylight:params:xml:ns:yang:bmp-monitor"
};

static const struct rc_list bmp_lists[] = {
	{ "monitor", 1 },
	{ "router", 1 },
	{ "peer", 1 },
	{ "tables", 2 },
	{ NULL, 0 },
};

/* The per-peer header's address (IPv4 in the last 4 bytes unless V). */
static void
bmp_addr_str(const uint8_t a[16], int v6, char *out, size_t cap)
{
	inet_ntop(v6 ? AF_INET6 : AF_INET, v6 ? a : a + 12, out,
	    (socklen_t)cap);
}

static void
bmp_id_str(uint32_t id, char *out, size_t cap)
{
	uint32_t	n = htonl(id);

	inet_ntop(AF_INET, &n, out, (socklen_t)cap);
}

static void
bmp_open_write(struct doc_writer *w, const char *name,
    const struct bgp_open *o)
{
	char	id[INET_ADDRSTRLEN];

	bmp_id_str(o->bgp_id, id, sizeof(id));
	doc_container(w, NULL, name);
	doc_leaf_uint(w, "version", o->version);
	doc_leaf_uint(w, "my-as-number", o->my_as);
	doc_leaf_uint(w, "hold-timer", o->hold);
	doc_leaf_str(w, "bgp-identifier", id);
	doc_end(w);
}

static void
bmp_session_write(struct doc_writer *w, const struct bmp_speer *p)
{
	char	local[INET6_ADDRSTRLEN];

	bmp_addr_str(p->local, p->h.flags & BMP_PF_V, local, sizeof(local));
	doc_container(w, NULL, "peer-session");
	doc_leaf_str(w, "local-address", local);
	doc_leaf_uint(w, "local-port", p->local_port);
	doc_leaf_uint(w, "remote-port", p->remote_port);
	doc_leaf_uint(w, "timestamp-sec", p->h.ts_sec);
	doc_leaf_str(w, "status", p->up ? "up" : "down");
	bmp_open_write(w, "sent-open", &p->sent);
	bmp_open_write(w, "received-open", &p->recv);
	doc_end(w);
}

static void
bmp_table_write(struct doc_writer *w, const struct bgp_pmap *t, uint8_t af)
{
	struct bgp_prefix	pfx;
	size_t			slot = 0;
	char			s[64];

	bgp_rc_table_head(w, af);
	bgp_rc_routes_open(w, af);
	while (bgp_pmap_next(t, af, &slot, &pfx, NULL)) {
		bgp_prefix_str(&pfx, s, sizeof(s));
		doc_entry(w);
		doc_leaf_str(w, "route-key", s);
		doc_leaf_uint(w, "path-id", pfx.path_id);
		doc_leaf_str(w, "prefix", s);
		doc_end(w);
	}
	doc_end(w);
	doc_end(w);
	doc_end(w);
}

static void
bmp_rib_write(struct doc_writer *w, const char *name, const struct bgp_pmap *t)
{
	uint8_t	af;

	doc_container(w, NULL, name);
	doc_list(w, NULL, "tables");
	for (af = 0; af < BGP_AF_MAX; af++)
		if (bgp_pmap_count_af(t, af) > 0 || af == BGP_AF_IPV4)
			bmp_table_write(w, t, af);
	doc_end(w);
	doc_end(w);
}

/* Statistics types 0..8 (RFC 7854 section 4.8) by bmp-monitor's names. */
static void
bmp_stats_write(struct doc_writer *w, const struct bmp_speer *p)
{
	static const char *const names[BMP_STAT_MAX] = {
		"rejected-prefixes", "duplicate-prefix-advertisements",
		"duplicate-withdraws", "invalidated-cluster-list-loop",
		"invalidated-as-path-loop", "invalidated-originator-id",
		"invalidated-as-confed-loop", "adj-ribs-in-routes",
		"loc-rib-routes",
	};
	int	i;

	doc_container(w, NULL, "stats");
	doc_leaf_uint(w, "timestamp-sec", p->stat_ts);
	for (i = 0; i < BMP_STAT_MAX; i++)
		if (p->stat_seen & (1u << i))
			doc_leaf_uint(w, names[i], p->stat[i]);
	doc_end(w);
}

static void
bmp_peer_write(struct doc_writer *w, const struct bmp_speer *p)
{
	char	addr[INET6_ADDRSTRLEN], id[INET_ADDRSTRLEN];

	bmp_addr_str(p->h.addr, p->h.flags & BMP_PF_V, addr, sizeof(addr));
	bmp_id_str(p->h.bgp_id, id, sizeof(id));
	doc_entry(w);
	doc_leaf_str(w, "peer-id", id);
	doc_leaf_str(w, "address", addr);
	doc_leaf_str(w, "bgp-id", id);
	doc_leaf_uint(w, "as", p->h.as);
	doc_leaf_str(w, "type", p->h.type == 0 ? "global" :
	    p->h.type == 1 ? "rd-instance" : "local-instance");
	bmp_session_write(w, p);
	bmp_rib_write(w, "pre-policy-rib", &p->rib[0]);
	bmp_rib_write(w, "post-policy-rib", &p->rib[1]);
	bmp_stats_write(w, p);
	doc_end(w);
}

/* One router entry; peer: only the peer with that id (NULL: all). */
static int
bmp_router_write(struct doc_writer *w, const struct bmp_sess *s,
    const char *peer)
{
	char		id[INET_ADDRSTRLEN];
	uint32_t	i;
	int		found = 0;

	if (peer == NULL) {
		doc_entry(w);
		doc_leaf_str(w, "router-id", s->router_id);
		doc_leaf_str(w, "name", s->name);
		doc_leaf_str(w, "description", s->descr);
		if (s->info[0] != '\0')
			doc_leaf_str(w, "info", s->info);
		doc_leaf_str(w, "status", s->initiated ? "up" : "down");
	}
	doc_list(w, peer != NULL ? &bmp_mod : NULL, "peer");
	for (i = 0; i < s->n_peers; i++) {
		bmp_id_str(s->peers[i]->h.bgp_id, id, sizeof(id));
		if (peer != NULL && strcmp(peer, id) != 0)
			continue;
		bmp_peer_write(w, s->peers[i]);
		found = 1;
	}
	doc_end(w);
	if (peer == NULL)
		doc_end(w);
	return found;
}

static struct bmp_sess *
bmp_router_find(const char *id)
{
	struct bmp_sess	*s;
	uint32_t	 i;

	for (i = 0; i < bmp_station_count(); i++)
		if ((s = bmp_station_sess(i)) != NULL &&
		    strcmp(s->router_id, id) == 0)
			return s;
	return NULL;
}

static void
bmp_routers_write(struct doc_writer *w)
{
	struct bmp_sess	*s;
	uint32_t	 i;

	doc_list(w, NULL, "router");
	for (i = 0; i < bmp_station_count(); i++)
		if ((s = bmp_station_sess(i)) != NULL)
			bmp_router_write(w, s, NULL);
	doc_end(w);
}

/* /monitor=ID[/router=R[/peer=P]] at depth p->n. */
static void
bmp_get_below(struct rc_req *rq, struct doc_writer *w, struct evbuffer *b)
{
	const struct rc_path	*p = &rq->path;
	struct bmp_sess		*s = NULL;

	if (p->n > 2 && (!rc_elem_is(&p->e[2], "router") ||
	    (s = bmp_router_find(p->e[2].key[0])) == NULL)) {
		evbuffer_free(b);
		rc_data_missing(rq);
		return;
	}
	if (p->n == 2) {
		doc_list(w, &bmp_mod, "monitor");
		doc_entry(w);
		doc_leaf_str(w, "monitor-id", BMP_MONITOR_ID);
		bmp_routers_write(w);
		doc_end(w);
		doc_end(w);
	} else if (p->n == 3) {
		doc_list(w, &bmp_mod, "router");
		bmp_router_write(w, s, NULL);
		doc_end(w);
	} else if (p->n > 4 || !rc_elem_is(&p->e[3], "peer") ||
	    !bmp_router_write(w, s, p->e[3].key[0])) {
		evbuffer_free(b);
		rc_data_missing(rq);
		return;
	}
	rc_send(rq, w, b);
}

static void
bmp_rc(struct rc_req *rq, void *arg)
{
	const struct rc_path	*p = &rq->path;
	struct doc_writer	 w;
	struct evbuffer		*b;

	(void)arg;
	if (p->n > 1 && (!rc_elem_is(&p->e[1], "monitor") ||
	    strcmp(p->e[1].key[0], BMP_MONITOR_ID) != 0)) {
		rc_data_missing(rq);
		return;
	}
	b = rc_writer(rq, &w);
	if (p->n == 1) {
		doc_container(&w, &bmp_mod, "bmp-monitor");
		doc_list(&w, NULL, "monitor");
		doc_entry(&w);
		doc_leaf_str(&w, "monitor-id", BMP_MONITOR_ID);
		bmp_routers_write(&w);
		doc_end(&w);
		doc_end(&w);
		doc_end(&w);
		rc_send(rq, &w, b);
		return;
	}
	bmp_get_below(rq, &w, b);
}

static const struct rc_resource bmp_resource = {
	"bmp-monitor", "bmp-monitor", bmp_lists, bmp_rc, NULL, 1
};

void
bmp_restconf_register(void)
{
	restconf_register(&bmp_resource);
}
