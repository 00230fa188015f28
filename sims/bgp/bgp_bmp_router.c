/*
 * `sbsim bgp --bmp EP`: simulated routers as BMP clients (RFC 7854), at
 * the scale OpenDaylight's bmp-mock is used for (its --routers_count,
 * --peers_count, --pre_policy_routes and --post_policy_routes are
 * --bmp-routers, --bmp-peers, --prefixes and --bmp-post-policy-routes
 * here).  Each router connects to the station (section 3.2), sends
 * Initiation, then for each of its monitored peers Peer Up, Route
 * Monitoring of the peer's --prefixes routes pre-policy and the first
 * --bmp-post-policy-routes of them post-policy (the L flag), and a
 * Statistics Report; then reports every --bmp-stats-interval until the
 * run ends, when each peer goes down (Peer Down) and the router says
 * Termination.  The routers are the devices: no BGP session is needed.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "bgp_bmp.h"
#include "bgp_sim.h"
#include "cli.h"
#include "log.h"
#include "run.h"

#define BMP_OUT_HIGH	(256 * 1024)	/* stop filling the output here */
#define BMP_OUT_LOW	(64 * 1024)	/* fill again below this */

enum bmp_phase { BMPP_CONNECT, BMPP_MONITOR, BMPP_MAX };

/* Where a router is in what it sends. */
enum bmp_stage { BR_PEER_UP, BR_PRE, BR_POST, BR_STATS, BR_SENT };

struct bmp_router {
	struct pool_dev		 pd;	/* first: the pool hands it back */
	struct bmp_run		*run;
	uint32_t		 idx;
	uint8_t			 stage;		/* enum bmp_stage */
	uint8_t			 up;
	uint32_t		 peer;		/* the peer being reported */
	uint64_t		 next;		/* its next route */
	uint64_t		 queued;	/* routes monitored, queued */
	uint64_t		 counted;	/* written, over every connection */
	uint64_t		 stats_ns;	/* last Statistics Report */
};

struct bmp_counters {
	uint64_t	*msgs[BMP_TYPE_MAX];
	uint64_t	*routes, *bytes, *rx_ignored;
};

struct bmp_run {
	struct bgp_sim		*sim;
	uint32_t		 routers;	/* the device count */
	struct pool_config	 pcfg;
	struct pool		 pool;
	struct bmp_router	*r;
	struct metrics		*m;
	struct phase		*ph[BMPP_MAX];
	struct bmp_counters	 c;
	uint64_t		 total;		/* routes monitored, all */
	uint64_t		 settle_ns;
	double			 phase_timeout;
};

static const struct bgp_config *
bmp_cfg(const struct bmp_router *r)
{
	return &r->run->sim->cfg;
}

/* The per-peer header of peer j (section 4.2): a global instance peer
 * at 172.16.0.0 + j + 1, its identifier the same, AS --as; post: the
 * post-policy table. */
static void
bmp_peer_hdr(const struct bmp_router *r, uint32_t j, int post,
    struct bmp_peer_hdr *h)
{
	uint64_t	now = clock_real_ns();

	memset(h, 0, sizeof(*h));
	h->flags = post ? BMP_PF_L : 0;
	h->bgp_id = 0xac100000u + j + 1;
	h->addr[12] = (uint8_t)(h->bgp_id >> 24);
	h->addr[13] = (uint8_t)(h->bgp_id >> 16);
	h->addr[14] = (uint8_t)(h->bgp_id >> 8);
	h->addr[15] = (uint8_t)h->bgp_id;
	h->as = bmp_cfg(r)->as;
	h->ts_sec = (uint32_t)(now / 1000000000ull);
	h->ts_usec = (uint32_t)(now % 1000000000ull / 1000);
}

/* An OPEN as a whole BGP message into w: the router's (sent) or the
 * peer's (received). */
static size_t
bmp_open_put(struct wbuf *w, uint32_t as, uint32_t id, uint8_t af)
{
	struct bgp_open	o;
	size_t		start = w->len;

	memset(&o, 0, sizeof(o));
	o.version = BGP_VERSION;
	o.my_as = as > 0xffff ? BGP_AS_TRANS : (uint16_t)as;
	o.hold = 90;
	o.bgp_id = id;
	o.caps.mp[af] = 1;
	o.caps.as4 = 1;
	o.caps.as4_number = as;
	o.caps.route_refresh = 1;
	bgp_open_encode(w, &o);
	return w->len - start;
}

static void
bmp_send_peer_up(struct bmp_router *r, struct wbuf *w)
{
	const struct bgp_config	*cfg = bmp_cfg(r);
	struct bmp_peer_hdr	 h;
	uint8_t			 local[16] = { 0 }, open[2][128];
	struct wbuf		 ow[2];
	uint32_t		 my_as = cfg->peer_as ? cfg->peer_as : cfg->as;

	bmp_peer_hdr(r, r->peer, 0, &h);
	local[12] = 10;
	local[13] = (uint8_t)(r->idx >> 16);
	local[14] = (uint8_t)(r->idx >> 8);
	local[15] = (uint8_t)(r->idx + 1);
	wbuf_init(&ow[0], open[0], sizeof(open[0]));
	wbuf_init(&ow[1], open[1], sizeof(open[1]));
	bmp_open_put(&ow[0], my_as, 0x0a000000u | (r->idx + 1), cfg->af);
	bmp_open_put(&ow[1], h.as, h.bgp_id, cfg->af);
	bmp_peer_up(w, &h, local, 179, (uint16_t)(1024 + r->peer % 60000),
	    ow[0].data, ow[0].len, ow[1].data, ow[1].len);
	*r->run->c.msgs[BMP_PEER_UP] += 1;
}

/* Route Monitoring of the peer's routes from r->next on, as many
 * UPDATEs as fit w below its end; 1 when the peer's table is all out. */
static int
bmp_send_routes(struct bmp_router *r, struct wbuf *w, int post)
{
	const struct bgp_config	*cfg = bmp_cfg(r);
	struct bgp_attrs	 a = r->run->sim->attrs;
	struct bgp_sess_caps	 sc = { .as4 = 1 };
	struct bmp_peer_hdr	 h;
	struct bgp_prefix	 pfx;
	struct bgp_ub		 ub;
	uint64_t		 base, n;
	uint64_t		 want = post ? cfg->bmp_post : cfg->prefixes;
	size_t			 start;

	bmp_peer_hdr(r, r->peer, post, &h);
	/* The peer is its routes' next hop (the default, --next-hop self). */
	if (cfg->next_hop_self)
		memcpy(a.next_hop4, h.addr + 12, 4);
	base = ((uint64_t)(r->run->sim->idx_base + r->idx) * cfg->bmp_peers +
	    r->peer) * cfg->prefixes;
	while (r->next < want &&
	    w->len + BGP_MAX_LEN + BMP_HDR_LEN + BMP_PEER_HDR_LEN < w->cap) {
		start = bmp_begin(w, BMP_ROUTE_MONITORING);
		bmp_peer_hdr_put(w, &h);
		bgp_ub_begin(&ub, w, cfg->af, cfg->use_mp, 0, &a, &sc,
		    BGP_MAX_LEN);
		bgp_prefix_nth(&cfg->first, base + r->next, &pfx);
		n = want - r->next;
		if (cfg->per_update != 0 && n > cfg->per_update)
			n = cfg->per_update;
		n = bgp_ub_add_run(&ub, &pfx, n);
		r->next += n;
		r->queued += n;
		bgp_ub_end(&ub);
		bmp_end(w, start);
		*r->run->c.msgs[BMP_ROUTE_MONITORING] += 1;
	}
	return r->next >= want;
}

/* Statistics types 0..8 (section 4.8) of peer j: nothing rejected or
 * invalidated, its routes in the Adj-RIB-In and the Loc-RIB. */
static void
bmp_send_stats(struct bmp_router *r, struct wbuf *w, uint32_t j)
{
	static const uint16_t	types[BMP_STAT_MAX] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8
	};
	uint64_t		v[BMP_STAT_MAX] = { 0 };
	struct bmp_peer_hdr	h;

	v[7] = v[8] = bmp_cfg(r)->prefixes;
	bmp_peer_hdr(r, j, 0, &h);
	bmp_stats(w, &h, types, v, BMP_STAT_MAX);
	*r->run->c.msgs[BMP_STATISTICS] += 1;
}

/* One step of what the router sends into w; 0 once all is out. */
static int
bmp_step(struct bmp_router *r, struct wbuf *w)
{
	switch (r->stage) {
	case BR_PEER_UP:
		bmp_send_peer_up(r, w);
		r->next = 0;
		r->stage = BR_PRE;
		return 1;
	case BR_PRE:
	case BR_POST:
		if (!bmp_send_routes(r, w, r->stage == BR_POST))
			return 1;
		r->next = 0;
		r->stage++;
		return 1;
	case BR_STATS:
		bmp_send_stats(r, w, r->peer);
		r->stage = ++r->peer < bmp_cfg(r)->bmp_peers ? BR_PEER_UP :
		    BR_SENT;
		return 1;
	default:
		return 0;
	}
}

static void
bmp_out(struct bmp_router *r, const struct wbuf *w)
{
	bufferevent_write(r->pd.bev, w->data, w->len);
	*r->run->c.bytes += w->len;
}

/* Fill the output up to BMP_OUT_HIGH (the write callback fills it again
 * as it drains). */
static void
bmp_fill(struct bmp_router *r)
{
	struct evbuffer	*out = bufferevent_get_output(r->pd.bev);
	struct wbuf	*w;
	int		 more = 1;

	while (more && evbuffer_get_length(out) < BMP_OUT_HIGH) {
		w = bgp_scratch();
		while (w->len + 2 * BGP_MAX_LEN < w->cap &&
		    (more = bmp_step(r, w)) != 0)
			;
		if (w->len == 0)
			break;
		bmp_out(r, w);
	}
}

/* Routes are counted as monitored once their bytes left for the kernel
 * (the phase's window: docs/report.md, "Phase windows"). */
static void
bmp_write_cb(struct bufferevent *bev, void *arg)
{
	struct bmp_router	*r = arg;
	struct bmp_run		*run = r->run;

	if (r->stage != BR_SENT)
		bmp_fill(r);
	/* A router that connected again sends the same routes again: each
	 * counted once. */
	if (evbuffer_get_length(bufferevent_get_output(bev)) > 0 ||
	    r->queued <= r->counted)
		return;
	phase_items(run->ph[BMPP_MONITOR], clock_ns(), r->queued - r->counted);
	*run->c.routes += r->queued - r->counted;
	r->counted = r->queued;
}

/* A station sends nothing (section 3.3): what comes is read and
 * counted, never taken for a message. */
static void
bmp_read_cb(struct bufferevent *bev, void *arg)
{
	struct bmp_router	*r = arg;
	struct evbuffer		*in = bufferevent_get_input(bev);

	*r->run->c.rx_ignored += evbuffer_get_length(in);
	evbuffer_drain(in, evbuffer_get_length(in));
}

static void
bmp_up(struct pool_dev *pd, struct bufferevent *bev)
{
	struct bmp_router	*r = (struct bmp_router *)pd;
	struct wbuf		*w = bgp_scratch();
	char			 name[32];

	r->up = 1;
	r->stage = BR_PEER_UP;
	r->peer = 0;
	r->next = 0;
	r->queued = 0;
	r->stats_ns = clock_ns();
	bufferevent_setcb(bev, bmp_read_cb, bmp_write_cb, pool_bev_event, r);
	bufferevent_setwatermark(bev, EV_WRITE, BMP_OUT_LOW, 0);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
	snprintf(name, sizeof(name), "sbsim-router-%u",
	    r->run->sim->idx_base + r->idx);
	bmp_initiation(w, name, "sbsim: a simulated BMP router");
	*r->run->c.msgs[BMP_INITIATION] += 1;
	bmp_out(r, w);
	phase_items(r->run->ph[BMPP_CONNECT], clock_ns(), 1);
	bmp_fill(r);
}

static void
bmp_down(struct pool_dev *pd, const char *why)
{
	struct bmp_router	*r = (struct bmp_router *)pd;

	r->up = 0;
	log_debug("bmp router %u: %s", r->idx, why);
}

static const struct pool_ops bmp_router_ops = {
	.up = bmp_up, .down = bmp_down, .peer = "the BMP station",
};

/* Every --bmp-stats-interval: a report of each peer already up. */
static void
bmp_tick_stats(struct bmp_run *run, struct bmp_router *r, uint64_t now)
{
	double		 every = run->sim->cfg.bmp_stats;
	struct wbuf	*w;
	uint32_t	 j;

	if (!r->up || every <= 0 || secs_between(r->stats_ns, now) < every ||
	    evbuffer_get_length(bufferevent_get_output(r->pd.bev)) >=
	    BMP_OUT_HIGH)
		return;
	r->stats_ns = now;
	w = bgp_scratch();
	for (j = 0; j < r->peer && j < run->sim->cfg.bmp_peers; j++) {
		if (w->len + 256 > w->cap) {
			bmp_out(r, w);
			w = bgp_scratch();
		}
		bmp_send_stats(r, w, j);
	}
	bmp_out(r, w);
}

/* ---- the run ---- */

#define BMPC(field, name)	COUNTER_ROW(struct bmp_counters, field, name)
static const struct counter_row bmp_counter_rows[] = {
	BMPC(msgs[BMP_INITIATION], "bmp_initiations_sent"),
	BMPC(msgs[BMP_PEER_UP], "bmp_peer_ups_sent"),
	BMPC(msgs[BMP_ROUTE_MONITORING], "bmp_route_monitoring_sent"),
	BMPC(msgs[BMP_STATISTICS], "bmp_statistics_reports_sent"),
	BMPC(msgs[BMP_PEER_DOWN], "bmp_peer_downs_sent"),
	BMPC(msgs[BMP_TERMINATION], "bmp_terminations_sent"),
	BMPC(routes, "bmp_routes_monitored"),
	BMPC(bytes, "bmp_bytes_sent"),
	BMPC(rx_ignored, "bmp_bytes_from_station_ignored"),
};
#undef BMPC

static uint32_t
bmp_fds_needed(void *arg)
{
	struct bmp_run	*run = arg;

	return pool_fds_needed(&run->pcfg, run->routers);
}

static int
bmp_start(void *arg, struct metrics *m, char *err, size_t errlen)
{
	struct bmp_run		*run = arg;
	const struct bgp_config	*cfg = &run->sim->cfg;
	uint32_t		 i;

	run->m = m;
	run->settle_ns = 0;
	/* Each route pre-policy, and the first bmp_post post-policy. */
	run->total = (uint64_t)run->routers * cfg->bmp_peers *
	    (cfg->prefixes + cfg->bmp_post);
	METRICS_COUNTERS(m, bmp_counter_rows, &run->c);
	run->ph[BMPP_CONNECT] = metrics_phase(m, "connect", "bmp");
	run->ph[BMPP_CONNECT]->target = run->routers;
	run->ph[BMPP_MONITOR] = NULL;
	if (run->total > 0) {
		run->ph[BMPP_MONITOR] = metrics_phase(m, "monitor", "bmp");
		run->ph[BMPP_MONITOR]->target = run->total;
	}
	phase_start(run->ph[BMPP_CONNECT], clock_ns());
	phase_start(run->ph[BMPP_MONITOR], clock_ns());
	run->r = xcalloc(run->routers, sizeof(*run->r));
	for (i = 0; i < run->routers; i++) {
		run->r[i].run = run;
		run->r[i].idx = i;
	}
	pool_init_array(&run->pool, &run->pcfg, &bmp_router_ops, run->r,
	    sizeof(*run->r), offsetof(struct bmp_router, pd), run->routers);
	return pool_start(&run->pool, err, errlen);
}

/* Connect, monitor, then --settle seconds of Statistics Reports. */
static int
bmp_tick(void *arg, uint64_t now)
{
	struct bmp_run	*run = arg;
	uint32_t	 i;

	run_phases_timeout(run->ph, BMPP_MAX, 0, now, run->phase_timeout);
	for (i = 0; i < run->routers; i++)
		bmp_tick_stats(run, &run->r[i], now);
	if (!phase_over(run->ph[BMPP_CONNECT]) ||
	    !phase_over(run->ph[BMPP_MONITOR]))
		return 0;
	if (run->settle_ns == 0)
		run->settle_ns = now;
	return secs_between(run->settle_ns, now) >= run->sim->cfg.settle;
}

/* The run is over (section 4.9, 4.5): each peer down (reason 1 with a
 * NOTIFICATION Cease), then Termination, written before the close. */
static void
bmp_goodbye(struct bmp_router *r)
{
	/* The peers whose Peer Up went: those done, and the one under way. */
	uint32_t		 n = r->peer + (r->stage != BR_PEER_UP &&
	    r->stage != BR_SENT), j;
	size_t			 cap = (size_t)n * 96 + 64;
	uint8_t			*mem = xcalloc(1, cap);
	struct bmp_peer_hdr	 h;
	struct wbuf		 w, nw;
	uint8_t			 note[32];

	wbuf_init(&w, mem, cap);
	wbuf_init(&nw, note, sizeof(note));
	bgp_notification_encode(&nw, BGP_ERR_CEASE, BGP_ERR_CEASE_ADMIN_DOWN,
	    NULL, 0);
	for (j = 0; j < n; j++) {
		bmp_peer_hdr(r, j, 0, &h);
		bmp_peer_down(&w, &h, BMP_DOWN_LOCAL_NOTIFY, nw.data, nw.len);
	}
	bmp_termination(&w, 0);		/* administratively closed */
	if (bgp_write_last(r->pd.bev, w.data, w.len) == 0) {
		*r->run->c.msgs[BMP_PEER_DOWN] += n;
		*r->run->c.msgs[BMP_TERMINATION] += 1;
		*r->run->c.bytes += w.len;
	}
	free(mem);
}

static void
bmp_stop(void *arg)
{
	struct bmp_run	*run = arg;
	uint32_t	 i;

	if (run->r == NULL)
		return;
	for (i = 0; i < run->routers; i++)
		if (run->r[i].up && run->r[i].pd.bev != NULL)
			bmp_goodbye(&run->r[i]);
	pool_stop_all_counted(&run->pool, 1, run->m);
	pool_free(&run->pool);
	free(run->r);
	run->r = NULL;
}

static const char *const bmp_phase_names[] = { "connect", "monitor", NULL };

static const struct sim_ops bmp_sim_ops = {
	.name = "bgp", .phases = bmp_phase_names,
	.fds_needed = bmp_fds_needed, .start = bmp_start, .tick = bmp_tick,
	.stop = bmp_stop, .size_opt = "bmp-routers",
	.size_off = offsetof(struct bmp_run, routers),
};

/* `sbsim bgp`'s options of the BMP routers (bgp_main.c's group). */
const struct opt bgp_bmp_rows[] = {
	OPT_S("bmp", "EP", struct bgp_config, bmp, 0,
	    "BMP (RFC 7854): simulated routers report their\n"
	    "peers to the station at tcp:HOST:PORT instead"),
	OPT_U("bmp-routers", "N", struct bgp_config, bmp_routers, 1, 1000000, 0,
	    "BMP routers (bmp-mock's --routers_count)",
	    .def = "--peers, or 1"),
	OPT_U("bmp-peers", "N", struct bgp_config, bmp_peers, 1, 65000, 0,
	    "monitored peers per router, each with\n"
	    "--prefixes routes (bmp-mock's --peers_count)"),
	OPT_U("bmp-post-policy-routes", "N", struct bgp_config, bmp_post, 0, 100000000, 0,
	    "of each peer's --prefixes routes, the first N\n"
	    "are monitored post-policy too (bmp-mock's\n"
	    "--post_policy_routes)", .def = "--prefixes"),
	OPT_D("bmp-stats-interval", "S", struct bgp_config, bmp_stats, 0, 86400, 0,
	    "seconds between Statistics Reports (0: one)"),
	OPT_END
};

void
bgp_bmp_defaults(struct bgp_config *cfg)
{
	cfg->bmp_peers = 1;
	cfg->bmp_post = UINT64_MAX;	/* --prefixes, once known */
	cfg->bmp_stats = 5;
}

/* What only BGP sessions do: refused with --bmp rather than ignored. */
static void
bmp_refuse(const struct bgp_config *cfg, const struct run_opts *ro)
{
	const char	*what = NULL;

	if (ro->controller != NULL)
		what = "--controller (BGP sessions reported over BMP: not yet; "
		    "the BMP routers are the devices, give --bmp alone)";
	else if (cfg->monitor != NULL)
		what = "--monitor";
	else if (cfg->withdraw || cfg->churn_rate > 0)
		what = "--withdraw and --churn-rate";
	else if (cfg->nb_given != 0)
		what = "the advertise test (--northbound)";
	else if (cfg->csit_results != NULL)
		what = "--csit-results";
	else if (cfg->md5.all[0] != '\0' || cfg->md5.n > 0)
		what = "--md5-password";
	else if (cfg->addpath != 0)
		what = "--add-path";
	else if (ro->n_faults > 0)
		what = "--fault";
	if (what != NULL)
		cli_die(ro, "--bmp does not go with %s", what);
}

int
bgp_bmp_main(struct bgp_sim *sim, const struct run_opts *ro)
{
	struct bmp_run	*run = run_sim_new(sizeof(*run));
	struct bgp_config *cfg = &sim->cfg;

	bmp_refuse(cfg, ro);
	if (cfg->as == 0)
		cli_die(ro, "--as ASN is required (the monitored peers' AS)");
	if (cfg->first.af == BGP_AF_MAX)
		bgp_prefix_parse(cfg->af == BGP_AF_IPV6 ? "2001:db8::/64" :
		    "10.0.0.0/24", &cfg->first);
	else if (cfg->first.af != cfg->af)
		cli_die(ro, "--first-prefix is not of --afi's family");
	if (cfg->bmp_post == UINT64_MAX)
		cfg->bmp_post = cfg->prefixes;
	else if (cfg->bmp_post > cfg->prefixes)
		cli_die(ro, "--bmp-post-policy-routes is more than --prefixes "
		    "(the post-policy routes are the first of them)");
	run->sim = sim;
	run->routers = cfg->bmp_routers ? cfg->bmp_routers :
	    cfg->peers ? cfg->peers : 1;
	run->phase_timeout = ro->phase_timeout;
	run_pool_config(&run->pcfg, ro, "--bmp", cfg->bmp,
	    1u << EP_TCP, "BMP runs over plain TCP (tcp:HOST:PORT)",
	    run->routers);
	return run_main(&bmp_sim_ops, run, ro);
}
