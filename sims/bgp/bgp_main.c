/*
 * `sbsim bgp`: N BGP peers against a controller (any BGP speaker), each
 * announcing P prefixes, and the phases that time the controller:
 *   connect    peers Established (target N)
 *   announce   prefixes sent, from the moment all peers are up (N x P)
 *   learn      prefixes the monitor peer received back (--monitor)
 *   churn      one-prefix UPDATEs at --churn-rate for --churn-duration
 *   withdraw   after learn (or announce): every prefix withdrawn, done
 *              when the monitor holds none (or when all were sent)
 */
#include <arpa/inet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgp_sim.h"
#include "cmd.h"
#include "log.h"
#include "run.h"

enum {
	BO_PEERS = 256,
	BO_PREFIXES,
	BO_AS,
	BO_PEER_AS,
	BO_FIRST,
	BO_PER_UPDATE,
	BO_AFI,
	BO_IPV4_MP,
	BO_WITHDRAW,
	BO_MONITOR,
	BO_MONITOR_AS,
	BO_HOLD,
	BO_NEXT_HOP,
	BO_AS_PATH_LEN,
	BO_MED,
	BO_LOCAL_PREF,
	BO_COMMUNITIES,
	BO_LARGE,
	BO_ADD_PATH,
	BO_NO_GR,
	BO_CHURN_RATE,
	BO_CHURN_DURATION,
	BO_NB,
	BO_ADVERTISE,
	BO_ADV_FIRST,
	BO_NB_PER_REQ,
	BO_NB_PARALLEL,
	BO_NB_USER,
	BO_NB_PASSWORD,
	BO_NB_STYLE,
	BO_NB_FORMAT,
	BO_NB_COUNT,
};

static const struct option bgp_opts[] = {
	{ "peers",		required_argument, NULL, BO_PEERS },
	{ "prefixes",		required_argument, NULL, BO_PREFIXES },
	{ "as",			required_argument, NULL, BO_AS },
	{ "peer-as",		required_argument, NULL, BO_PEER_AS },
	{ "first-prefix",	required_argument, NULL, BO_FIRST },
	{ "per-update",		required_argument, NULL, BO_PER_UPDATE },
	{ "afi",		required_argument, NULL, BO_AFI },
	{ "ipv4-mp",		no_argument,	   NULL, BO_IPV4_MP },
	{ "withdraw",		no_argument,	   NULL, BO_WITHDRAW },
	{ "monitor",		required_argument, NULL, BO_MONITOR },
	{ "monitor-as",		required_argument, NULL, BO_MONITOR_AS },
	{ "hold-time",		required_argument, NULL, BO_HOLD },
	{ "next-hop",		required_argument, NULL, BO_NEXT_HOP },
	{ "as-path-len",	required_argument, NULL, BO_AS_PATH_LEN },
	{ "med",		required_argument, NULL, BO_MED },
	{ "local-pref",		required_argument, NULL, BO_LOCAL_PREF },
	{ "communities",	required_argument, NULL, BO_COMMUNITIES },
	{ "large-communities",	required_argument, NULL, BO_LARGE },
	{ "add-path",		required_argument, NULL, BO_ADD_PATH },
	{ "no-graceful-restart", no_argument,	   NULL, BO_NO_GR },
	{ "churn-rate",		required_argument, NULL, BO_CHURN_RATE },
	{ "churn-duration",	required_argument, NULL, BO_CHURN_DURATION },
	{ "northbound",		required_argument, NULL, BO_NB },
	{ "advertise",		required_argument, NULL, BO_ADVERTISE },
	{ "advertise-first-prefix", required_argument, NULL, BO_ADV_FIRST },
	{ "routes-per-request",	required_argument, NULL, BO_NB_PER_REQ },
	{ "northbound-parallel", required_argument, NULL, BO_NB_PARALLEL },
	{ "northbound-user",	required_argument, NULL, BO_NB_USER },
	{ "northbound-password", required_argument, NULL, BO_NB_PASSWORD },
	{ "northbound-style",	required_argument, NULL, BO_NB_STYLE },
	{ "northbound-format",	required_argument, NULL, BO_NB_FORMAT },
	{ "northbound-count",	required_argument, NULL, BO_NB_COUNT },
	{ NULL, 0, NULL, 0 },
};

static const char bgp_help[] =
"usage: sbsim bgp --peers N --as ASN --controller EP [options]\n"
"BGP-4 peers announcing prefixes to a controller or any BGP speaker.\n"
"  --peers N              peers to simulate (required); peer i connects\n"
"                         from the i-th address of --source\n"
"  --prefixes P           prefixes each peer announces (default 0)\n"
"  --as ASN               the peers' AS (required; 4-octet allowed)\n"
"  --peer-as ASN          the controller's AS (default: accept any)\n"
"  --first-prefix PFX     first prefix (default 10.0.0.0/24, or\n"
"                         2001:db8::/64 with --afi ipv6); the others follow\n"
"                         it in blocks of its size\n"
"  --per-update K         prefixes per UPDATE (default: as many as fit\n"
"                         in 4096 bytes; 1 is play.py's single mode)\n"
"  --afi F                ipv4 or ipv6 (default ipv4)\n"
"  --ipv4-mp              IPv4 in MP_REACH_NLRI / MP_UNREACH_NLRI too\n"
"  --withdraw             withdraw every prefix once they are learned\n"
"  --monitor EP           a monitor peer (announces nothing) at EP, usually\n"
"                         the same as --controller; it times learn and\n"
"                         withdraw by what the controller re-advertises\n"
"  --monitor-as ASN       the monitor's AS (default --as)\n"
"  --hold-time S          hold time proposed (default 90; 0 or 3..65535)\n"
"  --next-hop IP|self     NEXT_HOP (default self: each peer's address)\n"
"  --as-path-len N        ASes in AS_PATH (default 1 for eBGP, 0 iBGP)\n"
"  --med N                MULTI_EXIT_DISC on every route\n"
"  --local-pref N         LOCAL_PREF (default 100 on iBGP)\n"
"  --communities N        N communities (ASN:i) on every route\n"
"  --large-communities N  N large communities (ASN:1:i) on every route\n"
"  --add-path M           none, send, receive or both (RFC 7911)\n"
"  --no-graceful-restart  no graceful restart capability, no End-of-RIB\n"
"  --churn-rate R         after learning: R prefixes/s withdrawn and\n"
"                         announced again, one per UPDATE\n"
"  --churn-duration S     seconds of churn (default 10)\n"
"the advertise test (sbsim writes routes into the controller's application\n"
"RIB; the monitor times their arrival):\n"
"  --northbound URL       odl:http://IP:PORT (OpenDaylight RESTCONF)\n"
"  --advertise N          routes to write (needs --monitor)\n"
"  --advertise-first-prefix PFX  first of them (default 172.16.0.0/24, or\n"
"                         2001:db8:8000::/64 with --afi ipv6)\n"
"  --routes-per-request K 1: PUT each route; more: POST batches of K (1)\n"
"  --northbound-parallel P  requests in flight (default 1)\n"
"  --northbound-user U    basic auth user (default admin)\n"
"  --northbound-password P  basic auth password (default admin)\n"
"  --northbound-style S   rfc8040 (/rests/data) or draft (/restconf)\n"
"  --northbound-format F  json or xml (default json; xml: K must be 1)\n"
"without --advertise (and --monitor), --northbound times learn and\n"
"withdraw by counting the controller's routes:\n"
"  --northbound-count W   loc-rib (default) or topology (its\n"
"                         example-ipv4-topology, as CSIT counts)\n"
CLI_COMMON_OPTS_HELP;

static struct bgp_sim	the_sim;
static const struct nb_driver *const bgp_nb_drivers[] = {
	&bgp_nb_odl_driver, NULL
};

static int
bgp_next_hop_opt(struct bgp_config *cfg, const char *arg, char *err,
    size_t errlen)
{
	if (strcmp(arg, "self") == 0) {
		cfg->next_hop_self = 1;
		return 0;
	}
	cfg->next_hop_self = 0;
	if (inet_pton(AF_INET, arg, cfg->next_hop4) == 1) {
		/* IPv4-mapped when the routes are IPv6. */
		memset(cfg->next_hop6, 0, 16);
		cfg->next_hop6[10] = cfg->next_hop6[11] = 0xff;
		memcpy(cfg->next_hop6 + 12, cfg->next_hop4, 4);
		return 0;
	}
	if (inet_pton(AF_INET6, arg, cfg->next_hop6) == 1)
		return 0;
	snprintf(err, errlen, "--next-hop: '%s' is not an address or self",
	    arg);
	return -1;
}

static int
bgp_add_path_opt(struct bgp_config *cfg, const char *arg, char *err,
    size_t errlen)
{
	static const char *const names[] = { "none", "receive", "send",
	    "both" };
	int	i;

	for (i = 0; i < 4; i++)
		if (strcmp(arg, names[i]) == 0) {
			cfg->addpath = (uint8_t)i;
			return 0;
		}
	snprintf(err, errlen, "--add-path: '%s' is not none, send, receive "
	    "or both", arg);
	return -1;
}

/* The northbound options; 1 when opt is not one of them. */
static int
bgp_nb_option(int opt, const char *arg, struct bgp_config *cfg, char *err,
    size_t errlen)
{
	struct nb_opts	*o = &cfg->nb;

	if (opt < BO_NB)
		return 1;
	cfg->nb_any = 1;
	switch (opt) {
	case BO_NB:
		cfg->nb_url = arg;
		if (nb_parse_url(arg, o, err, errlen) == -1)
			return -1;
		o->driver = &bgp_nb_odl_driver;
		return 0;
	case BO_ADVERTISE:
		return cli_uint("advertise", arg, 1, 100000000, &o->flows, err,
		    errlen);
	case BO_ADV_FIRST:
		if (bgp_prefix_parse(arg, &cfg->nb_ctx.first) == -1) {
			snprintf(err, errlen, "--advertise-first-prefix: '%s' "
			    "is not a prefix (ADDR/LEN, no host bits set)",
			    arg);
			return -1;
		}
		return 0;
	case BO_NB_PER_REQ:
		return cli_uint32("routes-per-request", arg, 1, 100000,
		    &o->per_request, err, errlen);
	case BO_NB_PARALLEL:
		return nb_common_option(o, "northbound-parallel", arg, err,
		    errlen);
	case BO_NB_USER:
		return nb_common_option(o, "northbound-user", arg, err,
		    errlen);
	case BO_NB_PASSWORD:
		return nb_common_option(o, "northbound-password", arg, err,
		    errlen);
	case BO_NB_STYLE:
		return nb_common_option(o, "northbound-style", arg, err,
		    errlen);
	case BO_NB_FORMAT:
		return nb_common_option(o, "northbound-format", arg, err,
		    errlen);
	case BO_NB_COUNT:
		if (strcmp(arg, "loc-rib") == 0 ||
		    strcmp(arg, "topology") == 0) {
			cfg->nb_ctx.count = arg[0] == 't' ? BGP_NB_TOPOLOGY :
			    BGP_NB_LOC_RIB;
			return 0;
		}
		snprintf(err, errlen, "--northbound-count: '%s' is not loc-rib "
		    "or topology", arg);
		return -1;
	}
	return 1;
}

/* Options that shape the routes; 1 when opt is not one of them. */
static int
bgp_route_option(int opt, const char *arg, struct bgp_config *cfg,
    char *err, size_t errlen)
{
	switch (opt) {
	case BO_NEXT_HOP:
		return bgp_next_hop_opt(cfg, arg, err, errlen);
	case BO_AS_PATH_LEN:
		return cli_uint32("as-path-len", arg, 1, BGP_MAX_ASPATH,
		    &cfg->as_path_len, err, errlen);
	case BO_MED:
		cfg->has_med = 1;
		return cli_uint32("med", arg, 0, UINT32_MAX, &cfg->med, err,
		    errlen);
	case BO_LOCAL_PREF:
		cfg->has_local_pref = 1;
		return cli_uint32("local-pref", arg, 0, UINT32_MAX,
		    &cfg->local_pref, err, errlen);
	case BO_COMMUNITIES:
		return cli_uint32("communities", arg, 0, BGP_MAX_COMM,
		    &cfg->communities, err, errlen);
	case BO_LARGE:
		return cli_uint32("large-communities", arg, 0, BGP_MAX_COMM,
		    &cfg->large_communities, err, errlen);
	case BO_ADD_PATH:
		return bgp_add_path_opt(cfg, arg, err, errlen);
	case BO_NO_GR:
		cfg->graceful = 0;
		return 0;
	case BO_CHURN_RATE:
		return cli_double("churn-rate", arg, 0, 1e9, &cfg->churn_rate,
		    err, errlen);
	case BO_CHURN_DURATION:
		return cli_double("churn-duration", arg, 0.1, 86400,
		    &cfg->churn_seconds, err, errlen);
	}
	return 1;
}

static int
bgp_option(int opt, const char *arg, void *ctx, char *err, size_t errlen)
{
	struct bgp_config	*cfg = ctx;
	uint32_t		 hold;
	int			 rc;

	if ((rc = bgp_route_option(opt, arg, cfg, err, errlen)) != 1 ||
	    (rc = bgp_nb_option(opt, arg, cfg, err, errlen)) != 1)
		return rc;
	switch (opt) {
	case BO_PEERS:
		return cli_uint32("peers", arg, 1, 1000000, &cfg->peers, err,
		    errlen);
	case BO_PREFIXES:
		return cli_uint("prefixes", arg, 0, 100000000, &cfg->prefixes,
		    err, errlen);
	case BO_AS:
		return cli_uint32("as", arg, 1, UINT32_MAX, &cfg->as, err,
		    errlen);
	case BO_PEER_AS:
		return cli_uint32("peer-as", arg, 1, UINT32_MAX, &cfg->peer_as,
		    err, errlen);
	case BO_MONITOR_AS:
		return cli_uint32("monitor-as", arg, 1, UINT32_MAX,
		    &cfg->monitor_as, err, errlen);
	case BO_FIRST:
		if (bgp_prefix_parse(arg, &cfg->first) == -1) {
			snprintf(err, errlen, "--first-prefix: '%s' is not a "
			    "prefix (ADDR/LEN, no host bits set)", arg);
			return -1;
		}
		return 0;
	case BO_PER_UPDATE:
		return cli_uint32("per-update", arg, 1, 4096, &cfg->per_update,
		    err, errlen);
	case BO_AFI:
		if (strcmp(arg, "ipv4") == 0)
			cfg->af = BGP_AF_IPV4;
		else if (strcmp(arg, "ipv6") == 0)
			cfg->af = BGP_AF_IPV6;
		else {
			snprintf(err, errlen, "--afi: '%s' is not ipv4 or "
			    "ipv6", arg);
			return -1;
		}
		return 0;
	case BO_IPV4_MP:
		cfg->use_mp = 1;
		return 0;
	case BO_WITHDRAW:
		cfg->withdraw = 1;
		return 0;
	case BO_MONITOR:
		cfg->monitor = arg;
		return 0;
	case BO_HOLD:
		if (cli_uint32("hold-time", arg, 0, 65535, &hold, err,
		    errlen) == -1)
			return -1;
		if (hold == 1 || hold == 2) {
			snprintf(err, errlen, "--hold-time: 1 and 2 are not "
			    "allowed (RFC 4271 section 4.2)");
			return -1;
		}
		cfg->hold = (uint16_t)hold;
		return 0;
	}
	return 0;
}

static void
bgp_config_defaults(struct bgp_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->first.af = BGP_AF_MAX;	/* by --afi once parsed */
	cfg->hold = 90;
	cfg->graceful = 1;
	cfg->next_hop_self = 1;
	cfg->churn_seconds = 10;
	cfg->nb_ctx.first.af = BGP_AF_MAX;
	nb_opts_defaults(&cfg->nb);
	cfg->nb.drivers = bgp_nb_drivers;
}

/* The attributes every peer announces (next hop set per peer). */
static void
bgp_attrs_init(struct bgp_sim *sim)
{
	const struct bgp_config	*cfg = &sim->cfg;
	struct bgp_attrs	*a = &sim->attrs;
	int			 ibgp = cfg->peer_as == cfg->as;
	uint32_t		 i, n = cfg->as_path_len;

	memset(a, 0, sizeof(*a));
	a->origin = BGP_ORIGIN_IGP;
	if (n == 0)
		n = ibgp ? 0 : 1;
	/* Our AS first (section 5.1.2), then private ones as padding. */
	for (i = 0; i < n; i++)
		a->as_path[a->n_as++] = i == 0 ? cfg->as : 64512 + i;
	a->has_med = cfg->has_med;
	a->med = cfg->med;
	a->has_local_pref = cfg->has_local_pref || ibgp;
	a->local_pref = cfg->has_local_pref ? cfg->local_pref : 100;
	for (i = 0; i < cfg->communities; i++)
		a->comm[a->n_comm++] = (cfg->as & 0xffff) << 16 | (i + 1);
	for (i = 0; i < cfg->large_communities; i++) {
		a->lcomm[a->n_lcomm][0] = cfg->as;
		a->lcomm[a->n_lcomm][1] = 1;
		a->lcomm[a->n_lcomm++][2] = i + 1;
	}
	memcpy(a->next_hop4, cfg->next_hop4, 4);
	memcpy(a->next_hop6, cfg->next_hop6, 16);
}

static uint32_t
bgp_fds_needed(void *arg)
{
	struct bgp_sim	*sim = arg;

	return pool_fds_needed(&sim->pcfg, sim->cfg.peers) +
	    (sim->cfg.monitor != NULL ? pool_fds_needed(&sim->mcfg, 1) : 0) +
	    (sim->cfg.nb_url != NULL ? sim->cfg.nb.parallel : 0);
}

static void
bgp_counters_init(struct bgp_sim *sim)
{
	struct metrics		*m = sim->m;
	struct bgp_counters	*c = &sim->c;

	c->rx_msgs = metrics_counter(m, "rx_messages");
	c->tx_msgs = metrics_counter(m, "tx_messages");
	c->updates_sent = metrics_counter(m, "updates_sent");
	c->updates_received = metrics_counter(m, "updates_received");
	c->prefixes_sent = metrics_counter(m, "prefixes_sent");
	c->withdrawals_sent = metrics_counter(m, "withdrawals_sent");
	c->rx_announced[BGP_AF_IPV4] = metrics_counter(m,
	    "ipv4_prefixes_received");
	c->rx_withdrawn[BGP_AF_IPV4] = metrics_counter(m,
	    "ipv4_withdrawals_received");
	c->rx_announced[BGP_AF_IPV6] = metrics_counter(m,
	    "ipv6_prefixes_received");
	c->rx_withdrawn[BGP_AF_IPV6] = metrics_counter(m,
	    "ipv6_withdrawals_received");
	c->keepalives_sent = metrics_counter(m, "keepalives_sent");
	c->keepalives_received = metrics_counter(m, "keepalives_received");
	c->notifications_sent = metrics_counter(m, "notifications_sent");
	c->notifications_received = metrics_counter(m,
	    "notifications_received");
	c->treat_as_withdraw = metrics_counter(m, "treat_as_withdraw");
	c->attr_discarded = metrics_counter(m, "attributes_discarded");
	c->eor_received = metrics_counter(m, "end_of_rib_received");
	c->route_refresh_received = metrics_counter(m,
	    "route_refresh_received");
	c->sessions_lost = metrics_counter(m, "sessions_lost");
	c->hold_expired = metrics_counter(m, "hold_timer_expired");
}

static void
bgp_phases_init(struct bgp_sim *sim)
{
	struct metrics		*m = sim->m;
	const struct bgp_config	*cfg = &sim->cfg;

	memset(sim->ph, 0, sizeof(sim->ph));
	sim->ph[BGPP_CONNECT] = metrics_phase(m, "connect", "bgp");
	sim->ph[BGPP_CONNECT]->target = cfg->peers;
	sim->ph[BGPP_ANNOUNCE] = metrics_phase(m, "announce", "bgp");
	/* Ended when the last peer's output drained (bgp_drained). */
	sim->ph[BGPP_ANNOUNCE]->target = 0;
	if (BGP_WITNESSED(cfg) && sim->total > 0) {
		sim->ph[BGPP_LEARN] = metrics_phase(m, "learn", "bgp");
		sim->ph[BGPP_LEARN]->target = sim->total;
	}
	if (cfg->churn_rate > 0 && sim->total > 0)
		sim->ph[BGPP_CHURN] = metrics_phase(m, "churn", "bgp");
	if (cfg->withdraw && sim->total > 0) {
		sim->ph[BGPP_WITHDRAW] = metrics_phase(m, "withdraw", "bgp");
		sim->ph[BGPP_WITHDRAW]->target = BGP_WITNESSED(cfg) ?
		    sim->total : 0;
	}
	if (cfg->nb_url != NULL && !cfg->nb_watch) {
		sim->ph[BGPP_ADVERTISE] = metrics_phase(m, "advertise", "bgp");
		sim->ph[BGPP_ADVERTISE]->target = cfg->nb.flows;
		metrics_phase(m, NB_PHASE_PROGRAM, "northbound");
		metrics_phase(m, NB_PHASE_CONFIRM, "northbound");
		sim->ph[BGPP_UNADVERTISE] = metrics_phase(m, "unadvertise",
		    "bgp");
		sim->ph[BGPP_UNADVERTISE]->target = cfg->nb.flows;
		metrics_phase(m, NB_PHASE_DELETE, "northbound");
		metrics_phase(m, NB_PHASE_CONFIRM_DELETE, "northbound");
	}
	phase_start(sim->ph[BGPP_CONNECT], clock_ns());
}

static void
bgp_peer_init(struct bgp_sim *sim, struct bgp_peer *p, uint32_t i)
{
	memset(p, 0, sizeof(*p));
	p->sim = sim;
	p->idx = i;
}

/* The first write (deleting 0) or delete request to the application RIB:
 * the monitor's side of advertise or unadvertise counts from it. */
static void
bgp_nb_hook(void *arg, int deleting, uint64_t now)
{
	struct bgp_sim	*sim = arg;
	uint64_t	 held = sim->mon.rib_in != NULL ?
	    bgp_pmap_count(sim->mon.rib_in) : 0;

	if (deleting) {
		sim->mon_low = held;
		phase_start(sim->ph[BGPP_UNADVERTISE], now);
	} else {
		sim->mon_high = held;
		phase_start(sim->ph[BGPP_ADVERTISE], now);
	}
}

static const struct pool_ops bgp_pool_ops = {
	bgp_peer_up,
	bgp_peer_down,
};

static int
bgp_start(void *arg, struct metrics *m, char *err, size_t errlen)
{
	struct bgp_sim	*sim = arg;
	uint32_t	 i;

	sim->m = m;
	sim->established = 0;
	sim->announced = sim->withdrawn = 0;
	sim->mon_high = sim->mon_low = 0;
	sim->drained_ann = sim->drained_wd = 0;
	sim->churn_sent = 0;
	sim->churn_credit = 0;
	sim->total = (uint64_t)sim->cfg.peers * sim->cfg.prefixes;
	sim->last_tick_ns = clock_ns();
	bgp_counters_init(sim);
	bgp_phases_init(sim);
	sim->peers = xcalloc(sim->cfg.peers, sizeof(*sim->peers));
	sim->pdevs = xcalloc(sim->cfg.peers, sizeof(*sim->pdevs));
	for (i = 0; i < sim->cfg.peers; i++) {
		bgp_peer_init(sim, &sim->peers[i], i);
		sim->pdevs[i] = &sim->peers[i].pd;
	}
	pool_init(&sim->pool, &sim->pcfg, &bgp_pool_ops, sim->pdevs,
	    sim->cfg.peers);
	if (sim->cfg.nb_url != NULL) {
		sim->nb_begun = 0;
		sim->nb_node = xstrdup(BGP_NB_NODE);
		sim->nb = nb_new(&sim->cfg.nb, m, &sim->nb_node, 1, bgp_nb_hook,
		    sim);
	}
	if (sim->cfg.monitor != NULL) {
		bgp_peer_init(sim, &sim->mon, sim->cfg.peers);
		sim->mon.monitor = 1;
		sim->mdev[0] = &sim->mon.pd;
		pool_init(&sim->mpool, &sim->mcfg, &bgp_pool_ops, sim->mdev, 1);
		if (pool_start(&sim->mpool, err, errlen) == -1)
			return -1;
	}
	return pool_start(&sim->pool, err, errlen);
}

static int
bgp_over(const struct phase *ph)
{
	return ph == NULL || ph->state == PHASE_DONE ||
	    ph->state == PHASE_TIMEOUT;
}

static uint64_t
bgp_monitor_held(const struct bgp_sim *sim)
{
	return sim->mon.rib_in != NULL ? bgp_pmap_count(sim->mon.rib_in) : 0;
}

static void
bgp_kick_all(struct bgp_sim *sim)
{
	uint32_t	i;

	for (i = 0; i < sim->cfg.peers; i++)
		bgp_peer_kick(&sim->peers[i]);
}

/* Connect over: every peer announces; the monitor's learning counts from
 * what it holds now. */
static void
bgp_begin_announce(struct bgp_sim *sim, uint64_t now)
{
	char	err[256];

	phase_start(sim->ph[BGPP_ANNOUNCE], now);
	if (sim->ph[BGPP_LEARN] != NULL) {
		sim->mon_high = bgp_monitor_held(sim);
		phase_start(sim->ph[BGPP_LEARN], now);
	}
	if (sim->cfg.nb_watch) {
		/* The Loc-RIB is counted from now on. */
		sim->nb_begun = 1;
		if (nb_begin(sim->nb, now, err, sizeof(err)) == -1) {
			log_warnx("%s", err);
			phase_end(sim->ph[BGPP_LEARN], now, PHASE_TIMEOUT);
		}
	}
	bgp_kick_all(sim);
}

static void
bgp_begin_withdraw(struct bgp_sim *sim, uint64_t now)
{
	struct phase	*wd = sim->ph[BGPP_WITHDRAW];

	if (sim->cfg.monitor != NULL) {
		sim->mon_low = bgp_monitor_held(sim);
		wd->target = sim->mon_low;
	}
	phase_start(wd, now);
	if (sim->cfg.monitor != NULL && wd->target == 0)
		phase_end(wd, now, PHASE_DONE);	/* it holds nothing */
	if (sim->cfg.nb_watch)
		nb_watch_delete(sim->nb, now);
	bgp_kick_all(sim);
}

/* Churn for its duration: the credit of this tick spread over the
 * peers in turn. */
static void
bgp_tick_churn(struct bgp_sim *sim, uint64_t now)
{
	struct phase	*ch = sim->ph[BGPP_CHURN];
	uint64_t	 n, sent, i, per;

	if ((double)(now - ch->trigger_ns) / 1e9 >= sim->cfg.churn_seconds) {
		phase_end(ch, now, PHASE_DONE);
		return;
	}
	sim->churn_credit += sim->cfg.churn_rate *
	    (double)(now - sim->last_tick_ns) / 1e9;
	n = (uint64_t)sim->churn_credit;
	if (n == 0)
		return;
	per = n / sim->cfg.peers + 1;
	for (i = 0, sent = 0; i < sim->cfg.peers && sent < n; i++)
		sent += bgp_peer_churn(&sim->peers[(sim->churn_sent + i) %
		    sim->cfg.peers], n - sent < per ? n - sent : per);
	sim->churn_sent += sent;
	sim->churn_credit -= (double)sent;
	if (sim->churn_credit > sim->cfg.churn_rate)
		sim->churn_credit = sim->cfg.churn_rate;	/* no bursts */
	if (sent > 0)
		phase_items(ch, now, sent);
}

static void
bgp_phase_timeouts(struct bgp_sim *sim, uint64_t now)
{
	int	i;

	for (i = 0; i < BGPP_MAX; i++)
		if (i != BGPP_CHURN && sim->ph[i] != NULL &&
		    run_phase_timed_out(sim->ph[i], now, sim->phase_timeout))
			phase_end(sim->ph[i], now, PHASE_TIMEOUT);
}

/* The advertise test, once every other phase is over; 1: over. */
static int
bgp_tick_nb(struct bgp_sim *sim, uint64_t now)
{
	char	err[256];

	if (sim->nb == NULL)
		return 1;
	if (sim->cfg.nb_watch)
		return 1;	/* polled all along (bgp_tick) */
	if (!sim->nb_begun) {
		sim->nb_begun = 1;
		if (nb_begin(sim->nb, now, err, sizeof(err)) == -1) {
			log_warnx("%s", err);
			return 1;
		}
	}
	return nb_tick(sim->nb, now) && bgp_over(sim->ph[BGPP_ADVERTISE]) &&
	    bgp_over(sim->ph[BGPP_UNADVERTISE]);
}

/* The sequence connect, announce (+ learn), churn, withdraw, then the
 * advertise test; 1: over. */
static int
bgp_tick(void *arg, uint64_t now)
{
	struct bgp_sim	*sim = arg;
	struct phase	**ph = sim->ph;
	uint32_t	 i;

	for (i = 0; i < sim->cfg.peers; i++)
		bgp_peer_timers(&sim->peers[i], now);
	if (sim->cfg.monitor != NULL)
		bgp_peer_timers(&sim->mon, now);
	bgp_phase_timeouts(sim, now);
	if (sim->cfg.nb_watch && sim->nb_begun)
		nb_tick(sim->nb, now);
	if (!bgp_over(ph[BGPP_CONNECT]))
		goto out;
	if (sim->total == 0) {
		sim->last_tick_ns = now;
		return bgp_tick_nb(sim, now);
	}
	if (ph[BGPP_ANNOUNCE]->state == PHASE_PENDING)
		bgp_begin_announce(sim, now);
	if (!bgp_over(ph[BGPP_ANNOUNCE]) || !bgp_over(ph[BGPP_LEARN]))
		goto out;
	if (ph[BGPP_CHURN] != NULL && !bgp_over(ph[BGPP_CHURN])) {
		if (ph[BGPP_CHURN]->state == PHASE_PENDING)
			phase_start(ph[BGPP_CHURN], now);
		bgp_tick_churn(sim, now);
		goto out;
	}
	if (ph[BGPP_WITHDRAW] != NULL &&
	    ph[BGPP_WITHDRAW]->state == PHASE_PENDING)
		bgp_begin_withdraw(sim, now);
	sim->last_tick_ns = now;
	return bgp_over(ph[BGPP_WITHDRAW]) && bgp_tick_nb(sim, now);
out:
	sim->last_tick_ns = now;
	return 0;
}

static void
bgp_stop(void *arg)
{
	struct bgp_sim	*sim = arg;
	uint32_t	 i;

	if (sim->nb != NULL) {
		nb_free(sim->nb);
		sim->nb = NULL;
		free(sim->nb_node);
		sim->nb_node = NULL;
	}
	if (sim->peers == NULL)
		return;
	for (i = 0; i < sim->cfg.peers; i++)
		bgp_peer_goodbye(&sim->peers[i]);
	/* What the monitor holds, before closing its session clears it. */
	if (sim->cfg.monitor != NULL) {
		*metrics_counter(sim->m, "monitor_prefixes") =
		    bgp_monitor_held(sim);
		bgp_peer_goodbye(&sim->mon);
		pool_stop(&sim->mpool);
		bgp_peer_free(&sim->mon);
	}
	pool_stop(&sim->pool);
	*metrics_counter(sim->m, "connect_attempts") = sim->pool.stats.attempts;
	*metrics_counter(sim->m, "connect_failures") = sim->pool.stats.failures;
	for (i = 0; i < sim->cfg.peers; i++)
		bgp_peer_free(&sim->peers[i]);
	free(sim->peers);
	free(sim->pdevs);
	sim->peers = NULL;
	sim->pdevs = NULL;
}

static const char *const bgp_phase_names[] = {
	"connect", "announce", "learn", "churn", "withdraw",
	"advertise", "unadvertise", NB_PHASE_PROGRAM, NB_PHASE_CONFIRM,
	NB_PHASE_DELETE, NB_PHASE_CONFIRM_DELETE, NULL
};

static const struct sim_ops bgp_sim_ops = {
	"bgp",
	bgp_phase_names,
	bgp_fds_needed,
	bgp_start,
	bgp_tick,
	bgp_stop,
};

static void
bgp_endpoint(const struct run_opts *ro, const char *what, const char *arg,
    struct pool_config *pc)
{
	char	err[256];

	pool_config_defaults(pc);
	if (endpoint_parse(arg, &pc->ep, err, sizeof(err)) == -1)
		cli_die(ro, "%s: %s", what, err);
	if (pc->ep.kind == EP_SSL)
		cli_die(ro, "%s: BGP runs over plain TCP (tcp: or ptcp:)",
		    what);
	pc->connect_rate = ro->connect_rate;
	pc->max_inflight = ro->max_inflight;
	pc->backoff_min_ms = ro->backoff_min_ms;
	pc->backoff_max_ms = ro->backoff_max_ms;
}

/* --source, or 127.1.0.0/16 towards a loopback controller so that each
 * peer has the address the controller tells it apart by. */
static void
bgp_sources(struct bgp_sim *sim, const struct run_opts *ro)
{
	struct pool_config	*pc = &sim->pcfg;
	char			 err[256];

	if (ro->source != NULL) {
		if (endpoint_passive(&pc->ep))
			cli_die(ro, "--source makes no sense with ptcp: (the "
			    "peers listen)");
		if (source_parse(ro->source, &pc->src, err, sizeof(err)) == -1)
			cli_die(ro, "--source: %s", err);
	} else if (!endpoint_passive(&pc->ep) && endpoint_is_loopback(&pc->ep)
	    && pc->ep.ss.ss_family == AF_INET)
		source_parse("127.1.0.0/16", &pc->src, err, sizeof(err));
	if (pc->src.family != AF_UNSPEC &&
	    pc->src.family != pc->ep.ss.ss_family)
		cli_die(ro, "--source %s and --controller %s are of different "
		    "address families", ro->source, ro->controller);
	if (pc->src.family != AF_UNSPEC && pc->src.count < sim->cfg.peers +
	    (sim->cfg.monitor != NULL))
		cli_die(ro, "--source %s has %llu addresses for %u peers%s",
		    pc->src.text, (unsigned long long)pc->src.count,
		    sim->cfg.peers, sim->cfg.monitor ? " and the monitor" : "");
}

/* The monitor connects from the address after the last peer's. */
static void
bgp_monitor_config(struct bgp_sim *sim, const struct run_opts *ro)
{
	struct pool_config	*mc = &sim->mcfg;
	const struct source_range *src = &sim->pcfg.src;

	bgp_endpoint(ro, "--monitor", sim->cfg.monitor, mc);
	if (src->family == AF_UNSPEC || src->family != mc->ep.ss.ss_family ||
	    endpoint_passive(&mc->ep))
		return;
	mc->src = *src;
	if (src->family == AF_INET)
		mc->src.base4.s_addr = htonl(ntohl(src->base4.s_addr) +
		    sim->cfg.peers);
	else {
		struct sockaddr_storage	ss;
		socklen_t		len;

		source_addr(src, sim->cfg.peers, &ss, &len);
		mc->src.base6 = ((struct sockaddr_in6 *)&ss)->sin6_addr;
	}
	mc->src.count = 1;
}

/* The advertise test's options together (exit 2 when bad). */
static void
bgp_nb_check(struct bgp_sim *sim, const struct run_opts *ro)
{
	struct bgp_config	*cfg = &sim->cfg;
	struct bgp_nb_ctx	*c = &cfg->nb_ctx;
	char			 err[256];

	if (!cfg->nb_any)
		return;
	if (cfg->nb_url == NULL)
		cli_die(ro, "--advertise and the other --northbound-* options "
		    "need --northbound");
	if (cfg->nb.flows == 0) {
		/* No routes to write: count the peers' in the Loc-RIB. */
		if (cfg->monitor != NULL)
			cli_die(ro, "--northbound with --monitor is the "
			    "advertise test: give --advertise N (or drop "
			    "--monitor to learn by the northbound)");
		if (cfg->prefixes == 0)
			cli_die(ro, "--northbound without --advertise counts "
			    "the peers' prefixes: give --prefixes");
		cfg->nb_watch = 1;
		cfg->nb.watch = 1;
		cfg->nb.flows = (uint64_t)cfg->peers * cfg->prefixes;
		cfg->nb.confirm_name = "learn";
		cfg->nb.confirm_delete_name = "withdraw";
		if (c->count != BGP_NB_TOPOLOGY)
			c->count = BGP_NB_LOC_RIB;
		c->af = cfg->af;
	} else if (cfg->monitor == NULL)
		cli_die(ro, "--advertise needs --monitor: the monitor peer "
		    "times the routes' arrival");
	else if (c->count != BGP_NB_APP_RIB)
		cli_die(ro, "--northbound-count is for learning by the "
		    "northbound, not for --advertise");
	if (nb_check(&cfg->nb, err, sizeof(err)) == -1)
		cli_die(ro, "%s", err);
	if (c->first.af == BGP_AF_MAX)
		bgp_prefix_parse(cfg->af == BGP_AF_IPV6 ? "2001:db8:8000::/64" :
		    "172.16.0.0/24", &c->first);
	else if (c->first.af != cfg->af)
		cli_die(ro, "--advertise-first-prefix is not an %s prefix (see "
		    "--afi)", cfg->af == BGP_AF_IPV6 ? "IPv6" : "IPv4");
	/* The routes' next hop: a documentation address, which GoBGP and
	 * the others do not take for unreachable as they do loopback. */
	inet_pton(AF_INET, "192.0.2.1", c->next_hop4);
	inet_pton(AF_INET6, "2001:db8::1", c->next_hop6);
	cfg->nb.ctx = c;
	cfg->nb.timeout_s = ro->phase_timeout;
}

static void
bgp_check(struct bgp_sim *sim, const struct run_opts *ro)
{
	struct bgp_config	*cfg = &sim->cfg;

	if (cfg->peers == 0)
		cli_die(ro, "--peers N is required");
	if (cfg->as == 0)
		cli_die(ro, "--as ASN is required");
	if (ro->controller == NULL)
		cli_die(ro, "--controller is required (tcp:IP:PORT or "
		    "ptcp:PORT[:IP])");
	if (cfg->first.af == BGP_AF_MAX)
		bgp_prefix_parse(cfg->af == BGP_AF_IPV6 ? "2001:db8::/64" :
		    "10.0.0.0/24", &cfg->first);
	else if (cfg->first.af != cfg->af)
		cli_die(ro, "--first-prefix is not an %s prefix (see --afi)",
		    cfg->af == BGP_AF_IPV6 ? "IPv6" : "IPv4");
	if (cfg->first.len == 0 && cfg->prefixes > 1)
		cli_die(ro, "--first-prefix of length 0 leaves room for one "
		    "prefix");
	if ((cfg->withdraw || cfg->churn_rate > 0) && cfg->prefixes == 0)
		cli_die(ro, "--withdraw and --churn-rate need --prefixes");
	bgp_nb_check(sim, ro);
	if (!cfg->next_hop_self && cfg->af == BGP_AF_IPV4 &&
	    memcmp(cfg->next_hop4, "\0\0\0\0", 4) == 0)
		cli_die(ro, "--next-hop: an IPv6 next hop for IPv4 routes");
}

static int
bgp_main(int argc, char **argv)
{
	struct bgp_sim	*sim = &the_sim;
	struct run_opts	 ro;

	memset(sim, 0, sizeof(*sim));
	bgp_config_defaults(&sim->cfg);
	cli_parse(argc, argv, bgp_opts, bgp_option, &sim->cfg, &ro, bgp_help);
	log_init("sbsim", ro.verbose);
	bgp_check(sim, &ro);
	bgp_endpoint(&ro, "--controller", ro.controller, &sim->pcfg);
	if (endpoint_passive(&sim->pcfg.ep) &&
	    (uint64_t)sim->pcfg.ep.port + sim->cfg.peers - 1 > 65535)
		cli_die(&ro, "ptcp:%u with %u peers would need ports past "
		    "65535", sim->pcfg.ep.port, sim->cfg.peers);
	bgp_sources(sim, &ro);
	if (sim->cfg.monitor != NULL)
		bgp_monitor_config(sim, &ro);
	sim->phase_timeout = ro.phase_timeout;
	bgp_attrs_init(sim);
	return run_main(&bgp_sim_ops, sim, &ro);
}

const struct sbsim_cmd bgp_cmd = {
	"bgp",
	"simulate BGP-4 peers",
	bgp_main,
};
