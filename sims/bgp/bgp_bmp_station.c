/*
 * The embedded controller's BMP station (RFC 7854) and its role: routers
 * connect (section 3.2: the router opens the session), send Initiation,
 * then Peer Up, Route Monitoring and Statistics Reports for each
 * monitored peer.  The station sends nothing (section 3.3).  Each
 * session's peers and routes are bounded; a message that is not RFC
 * 7854's, longer than --bmp-max-message or that does not finish within
 * --bmp-message-timeout closes the session and is counted.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>

#include "bgp_bmp_station.h"
#include "bgp_wire.h"
#include "cli.h"
#include "ctl_role.h"
#include "engine.h"
#include "log.h"
#include "metrics.h"

struct bmp_station {
	struct bmp_station_config cfg;
	struct ctl_listen	 lis;
	struct bmp_sess		**sess;		/* max_sessions slots */
	uint32_t		 n_sess;	/* slots in use up to here */
	struct bmp_station_stats st;
};

static struct bmp_station	bst;

uint32_t
bmp_station_count(void)
{
	return bst.n_sess;
}

struct bmp_sess *
bmp_station_sess(uint32_t i)
{
	return i < bst.n_sess ? bst.sess[i] : NULL;
}

/* ---- monitored peers ---- */

static void
bmp_speer_free(struct bmp_sess *s, struct bmp_speer *p)
{
	uint64_t	n = bgp_pmap_count(&p->rib[0]) +
	    bgp_pmap_count(&p->rib[1]);

	s->routes -= n;
	bst.st.routes -= n;
	bgp_pmap_free(&p->rib[0]);
	bgp_pmap_free(&p->rib[1]);
	free(p);
}

/* The peer a per-peer header names (address and distinguisher, section
 * 4.2), or NULL. */
static struct bmp_speer *
bmp_speer_find(struct bmp_sess *s, const struct bmp_peer_hdr *h)
{
	uint32_t	i;

	for (i = 0; i < s->n_peers; i++)
		if (s->peers[i]->h.rd == h->rd &&
		    memcmp(s->peers[i]->h.addr, h->addr, 16) == 0)
			return s->peers[i];
	return NULL;
}

/* ADD-PATH from both OPENs (RFC 7911 section 4): path ids come in
 * where the peer sends and the router receives them. */
static void
bmp_speer_caps(struct bmp_speer *p, uint8_t flags)
{
	int	af;

	memset(&p->sc, 0, sizeof(p->sc));
	/* The A flag: the PDUs' AS_PATH has 2-octet ASes (section 4.2). */
	p->sc.as4 = !(flags & BMP_PF_A);
	for (af = 0; af < BGP_AF_MAX; af++)
		p->sc.addpath_rx[af] = (uint8_t)(
		    (p->recv.caps.addpath[af] & BGP_ADDPATH_SEND) &&
		    (p->sent.caps.addpath[af] & BGP_ADDPATH_RECEIVE));
}

static void
st_peer_up(struct bmp_sess *s, const struct bmp_msg *m)
{
	struct bmp_speer	*p = bmp_speer_find(s, &m->peer);
	struct bgp_err		 e;

	if (p == NULL) {
		if (s->n_peers >= bst.cfg.max_peers) {
			bst.st.peers_over_limit++;
			return;
		}
		p = xcalloc(1, sizeof(*p));
		bgp_pmap_init(&p->rib[0], 0);
		bgp_pmap_init(&p->rib[1], 0);
		s->peers = xreallocarray(s->peers, s->n_peers + 1,
		    sizeof(*s->peers));
		s->peers[s->n_peers++] = p;
	}
	p->h = m->peer;
	p->up = 1;
	memcpy(p->local, m->local, 16);
	p->local_port = m->local_port;
	p->remote_port = m->remote_port;
	(void)bgp_open_decode(m->sent_open, m->sent_open_len, &p->sent, &e);
	(void)bgp_open_decode(m->recv_open, m->recv_open_len, &p->recv, &e);
	bmp_speer_caps(p, m->peer.flags);
}

/* The peer a message is about, once its Peer Up came (section 4.10:
 * first); NULL counted. */
static struct bmp_speer *
bmp_speer_known(struct bmp_sess *s, const struct bmp_msg *m)
{
	struct bmp_speer	*p = bmp_speer_find(s, &m->peer);

	if (p == NULL)
		bst.st.unknown_peer++;
	return p;
}

/* Section 4.9: the peer's tables go with it. */
static void
st_peer_down(struct bmp_sess *s, const struct bmp_msg *m)
{
	struct bmp_speer	*p = bmp_speer_known(s, m);
	uint32_t		 i;

	if (p == NULL)
		return;
	for (i = 0; s->peers[i] != p; i++)
		;
	s->peers[i] = s->peers[--s->n_peers];
	bmp_speer_free(s, p);
}

static void
bmp_route_put(struct bmp_sess *s, struct bgp_pmap *t,
    const struct bgp_prefix *pfx)
{
	if (bgp_pmap_get(t, pfx) != NULL)
		return;
	if (s->routes >= bst.cfg.max_routes) {
		bst.st.routes_over_limit++;
		return;
	}
	bgp_pmap_put(t, pfx, NULL);
	s->routes++;
	bst.st.routes++;
}

static void
bmp_route_del(struct bmp_sess *s, struct bgp_pmap *t,
    const struct bgp_prefix *pfx)
{
	if (bgp_pmap_del(t, pfx, NULL) == 1) {
		s->routes--;
		bst.st.routes--;
	}
}

/* Every prefix of one NLRI span into (add) or out of the table. */
static void
bmp_nlri_apply(struct bmp_sess *s, struct bmp_speer *p, struct bgp_pmap *t,
    struct rbuf r, uint8_t af, int add)
{
	struct bgp_prefix	pfx;

	if (af >= BGP_AF_MAX)
		return;
	while (bgp_nlri_next(&r, af, p->sc.addpath_rx[af], &pfx) == 1) {
		if (add)
			bmp_route_put(s, t, &pfx);
		else
			bmp_route_del(s, t, &pfx);
	}
}

/* Route Monitoring (section 4.6): the UPDATE into the peer's pre- or
 * post-policy table, as the L flag says. */
static void
bmp_route_monitoring(struct bmp_sess *s, const struct bmp_msg *m)
{
	struct bmp_speer	*p = bmp_speer_known(s, m);
	struct bgp_update	 u;
	struct bgp_err		 e;
	struct bgp_pmap		*t;
	int			 add;

	if (p == NULL)
		return;
	if (bgp_update_decode(m->pdu, m->pdu_len, &p->sc, &u, &e) == -1) {
		bst.st.updates_malformed++;
		return;
	}
	t = &p->rib[(m->peer.flags & BMP_PF_L) ? 1 : 0];
	/* RFC 7606: routes of an UPDATE treated as withdraw go. */
	add = !u.treat_as_withdraw;
	bmp_nlri_apply(s, p, t, u.withdrawn, BGP_AF_IPV4, 0);
	bmp_nlri_apply(s, p, t, u.mp_unreach, u.mp_unreach_af, 0);
	bmp_nlri_apply(s, p, t, u.nlri, BGP_AF_IPV4, add);
	bmp_nlri_apply(s, p, t, u.mp_reach, u.mp_reach_af, add);
}

static void
bmp_statistics(struct bmp_sess *s, const struct bmp_msg *m)
{
	struct bmp_speer	*p = bmp_speer_known(s, m);
	int			 i;

	if (p == NULL)
		return;
	for (i = 0; i < BMP_STAT_MAX; i++)
		if (m->stat_seen & (1u << i))
			p->stat[i] = m->stat[i];
	p->stat_seen |= m->stat_seen;
	p->stat_ts = m->peer.ts_sec;
}

/* ---- sessions ---- */

static void
bmp_sess_close(void *arg, const char *why)
{
	struct bmp_sess	*s = arg;
	uint32_t	 i;

	log_info("bmp: router %s: %s", s->router_id, why);
	for (i = 0; i < bst.n_sess && bst.sess[i] != s; i++)
		;
	if (i < bst.n_sess)
		bst.sess[i] = NULL;
	while (bst.n_sess > 0 && bst.sess[bst.n_sess - 1] == NULL)
		bst.n_sess--;
	for (i = 0; i < s->n_peers; i++)
		bmp_speer_free(s, s->peers[i]);
	free(s->peers);
	if (s->bev != NULL)
		bufferevent_free(s->bev);
	bst.st.sessions_closed++;
	free(s);
}

/* One whole message; -1: the session was closed. */
static int
bmp_message(struct bmp_sess *s, const uint8_t *b, size_t len)
{
	struct bmp_msg	m;

	if (bmp_decode(b, len, &m) == -1) {
		bst.st.malformed++;
		log_warnx("bmp: router %s: malformed message: %s",
		    s->router_id, m.why);
		bmp_sess_close(s, "malformed message");
		return -1;
	}
	bst.st.messages[m.type]++;
	switch (m.type) {
	case BMP_INITIATION:
		snprintf(s->name, sizeof(s->name), "%s", m.sys_name);
		snprintf(s->descr, sizeof(s->descr), "%s", m.sys_descr);
		snprintf(s->info, sizeof(s->info), "%s", m.info);
		s->initiated = 1;
		break;
	case BMP_PEER_UP:
		st_peer_up(s, &m);
		break;
	case BMP_PEER_DOWN:
		st_peer_down(s, &m);
		break;
	case BMP_ROUTE_MONITORING:
		bmp_route_monitoring(s, &m);
		break;
	case BMP_STATISTICS:
		bmp_statistics(s, &m);
		break;
	case BMP_TERMINATION:	/* section 4.5: the router closes next */
		bmp_sess_close(s, "termination");
		return -1;
	}
	return 0;
}

/* The length of the message at the head of in: 0 while its header is
 * not all there, -1 when it is bad (counted). */
static long
bmp_next_length(struct evbuffer *in)
{
	uint8_t	hdr[BMP_HDR_LEN];

	if (evbuffer_get_length(in) < BMP_HDR_LEN)
		return 0;
	evbuffer_copyout(in, hdr, sizeof(hdr));
	if (hdr[0] != BMP_VERSION) {
		bst.st.malformed++;
		return -1;
	}
	if (bmp_header_length(hdr, bst.cfg.max_msg) == -1) {
		bst.st.too_long++;
		return -1;
	}
	return bmp_header_length(hdr, bst.cfg.max_msg);
}

static void
bmp_read(struct bufferevent *bev, void *arg)
{
	struct bmp_sess	*s = arg;
	struct evbuffer	*in = bufferevent_get_input(bev);
	long		 len;
	int		 whole = 0;

	while ((len = bmp_next_length(in)) > 0 &&
	    evbuffer_get_length(in) >= (size_t)len) {
		const uint8_t	*b = evbuffer_pullup(in, len);

		whole = 1;
		if (bmp_message(s, b, (size_t)len) == -1)
			return;
		evbuffer_drain(in, (size_t)len);
		bst.st.bytes += (size_t)len;
	}
	if (len == -1) {
		bmp_sess_close(s, "bad message header");
		return;
	}
	if (evbuffer_get_length(in) == 0)
		s->partial_ns = 0;
	else if (whole || s->partial_ns == 0)
		s->partial_ns = clock_ns();
}

static const struct ctl_sess_ops bmp_sess_ops;

/* A router is known by its address (OpenDaylight's router-id); a second
 * session from an address a live one holds (routers behind one source
 * address) is ADDRESS-PORT, so that each key names one router. */
static void
bmp_router_id(struct bmp_sess *s, const char *host,
    const struct sockaddr *sa)
{
	uint32_t	i;

	snprintf(s->router_id, sizeof(s->router_id), "%s", host);
	for (i = 0; i < bst.n_sess; i++)
		if (bst.sess[i] != NULL &&
		    strcmp(bst.sess[i]->router_id, host) == 0)
			break;
	if (i == bst.n_sess)
		return;
	snprintf(s->router_id, sizeof(s->router_id), "%s-%u", host,
	    ntohs(sa->sa_family == AF_INET6 ?
	    ((const struct sockaddr_in6 *)sa)->sin6_port :
	    ((const struct sockaddr_in *)sa)->sin_port));
}

static void
bmp_accepted(void *arg, evutil_socket_t fd, const struct sockaddr *sa,
    socklen_t salen)
{
	struct bmp_sess	*s;
	char		 host[INET6_ADDRSTRLEN];
	uint32_t	 i;

	(void)arg;
	(void)salen;
	for (i = 0; i < bst.cfg.max_sessions && bst.sess[i] != NULL; i++)
		;
	if (i == bst.cfg.max_sessions) {
		if (bst.st.sessions_refused++ == 0)
			log_warnx("bmp: %u sessions (--bmp-max-sessions): "
			    "more are refused", bst.cfg.max_sessions);
		evutil_closesocket(fd);
		return;
	}
	s = xcalloc(1, sizeof(*s));
	s->cs.ops = &bmp_sess_ops;
	if (sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr,
		    host, sizeof(host));
	else
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr,
		    host, sizeof(host));
	bmp_router_id(s, host, sa);
	if ((s->bev = engine_bev_new(fd)) == NULL) {
		free(s);
		return;
	}
	bst.sess[i] = s;
	if (i >= bst.n_sess)
		bst.n_sess = i + 1;
	bst.st.sessions++;
	bufferevent_setcb(s->bev, bmp_read, NULL, ctl_sess_event, s);
	bufferevent_enable(s->bev, EV_READ);
}

/* A message begun and not finished in --bmp-message-timeout: a router
 * that stalls mid-message holds its buffer no longer. */
static void
bmp_tick(void *arg, uint64_t now)
{
	struct bmp_sess	*s;
	uint32_t	 i;

	(void)arg;
	for (i = 0; i < bst.n_sess; i++) {
		s = bst.sess[i];
		if (s == NULL || s->partial_ns == 0 ||
		    secs_between(s->partial_ns, now) < bst.cfg.msg_timeout)
			continue;
		bst.st.timeouts++;
		bmp_sess_close(s, "a message did not finish in "
		    "--bmp-message-timeout");
	}
}

static const struct ctl_sess_ops bmp_sess_ops = {
	.what = "BMP", .peer_closed = "the router closed the connection",
	.tick_ms = 200, .attach = bmp_accepted, .tick = bmp_tick,
	.close = bmp_sess_close,
};

/* ---- the role ---- */

#define O	CTL_GIVEN_OPT
static const struct opt bmp_rows[] = {
	OPT_P("bmp", "EP", struct bmp_station_config, listen,
	    struct endpoint, endpoint_parse_listen, CTL_GIVEN_ON,
	    "BMP station (RFC 7854): routers connect to\n"
	    "ptcp:PORT[:IP] (OpenDaylight's: 12345)"),
	OPT_U("bmp-max-routes", "N", struct bmp_station_config, max_routes,
	    1, UINT64_MAX, O, "routes kept per router session (more are\n"
	    "counted, not kept)"),
	OPT_U("bmp-max-sessions", "N", struct bmp_station_config,
	    max_sessions, 1, 1000000, O, "router sessions at once; more are "
	    "closed"),
	OPT_U("bmp-max-peers", "N", struct bmp_station_config, max_peers,
	    1, 1000000, O, "monitored peers kept per router session"),
	OPT_U("bmp-max-message", "B", struct bmp_station_config, max_msg,
	    64, 1048576, O, "longest BMP message taken; longer closes"),
	OPT_D("bmp-message-timeout", "S", struct bmp_station_config,
	    msg_timeout, 0.1, 3600, O,
	    "a message begun must finish within S seconds"),
	OPT_END
};
#undef O

static void
bmp_defaults(void *cfg)
{
	struct bmp_station_config	*c = cfg;
	char				 err[64];

	memset(c, 0, sizeof(*c));
	endpoint_parse("ptcp:12345", &c->listen, err, sizeof(err));
	c->max_routes = 1000000;
	c->max_peers = 1024;
	c->max_sessions = 4096;
	c->max_msg = BMP_MAX_MSG;
	c->msg_timeout = 30;
}

static int
bmp_start(void *cfg, struct http_server *hs, char *err, size_t errlen)
{
	memset(&bst.st, 0, sizeof(bst.st));
	bst.n_sess = 0;
	bst.sess = xcalloc(bst.cfg.max_sessions, sizeof(*bst.sess));
	if (ctl_listen_start(&bst.lis, &bst.cfg.listen, &bmp_sess_ops, &bst,
	    err, errlen) == -1)
		return -1;
	log_info("listening for BMP routers on %s", bst.cfg.listen.text);
	if (hs != NULL)
		bmp_restconf_register();
	(void)cfg;
	return 0;
}

static void
bmp_stop(void *cfg)
{
	uint32_t	i;

	(void)cfg;
	ctl_listen_stop(&bst.lis);
	for (i = 0; i < bst.n_sess; i++)
		if (bst.sess[i] != NULL)
			bmp_sess_close(bst.sess[i], "the controller stops");
	bst.n_sess = 0;
	free(bst.sess);
	bst.sess = NULL;
}

static uint64_t
bmp_devices_up(void *cfg)
{
	uint64_t	n = 0;
	uint32_t	i;

	(void)cfg;
	for (i = 0; i < bst.n_sess; i++)
		n += bst.sess[i] != NULL;
	return n;
}

static void
bmp_summary(void *cfg)
{
	const struct bmp_station_stats	*s = &bst.st;

	(void)cfg;
	ctl_print_figures("bmp: # sessions, # peer ups, # route monitoring, "
	    "# statistics reports, # peer downs, # terminations, # routes "
	    "held, # malformed, # too long, # timed out, # routes over the "
	    "limit, # peers over the limit, # UPDATEs that did not decode, "
	    "# messages for no peer up, # bytes, # sessions refused\n",
	    (const uint64_t[]){
	    s->sessions, s->messages[BMP_PEER_UP],
	    s->messages[BMP_ROUTE_MONITORING], s->messages[BMP_STATISTICS],
	    s->messages[BMP_PEER_DOWN], s->messages[BMP_TERMINATION],
	    s->routes, s->malformed, s->too_long, s->timeouts,
	    s->routes_over_limit, s->peers_over_limit,
	    s->updates_malformed, s->unknown_peer, s->bytes,
	    s->sessions_refused }, 16);
}

const struct ctl_role bmp_ctl_role = {
	.name = "bgp", .title = "BMP:", .rows = bmp_rows, .cfg = &bst.cfg,
	.defaults = bmp_defaults,
	.needs = "the --bmp-* options need --bmp",
	.one_process = "--bmp does not go with --workers: one station "
	    "serves every router's session",
	.start = bmp_start, .summary = bmp_summary, .stop = bmp_stop,
	.devices_up = bmp_devices_up, .devices = "BMP routers",
};
