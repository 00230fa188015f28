/*
 * `sbsim bgp`: N BGP peers against a controller (any BGP speaker), each
 * announcing P prefixes, and the phases that time the controller:
 *   connect    peers Established (target N)
 *   announce   prefixes sent, from the moment all peers are up (N x P)
 *   learn      prefixes the monitor peer received back (--monitor)
 *   churn      one-prefix UPDATEs at --churn-rate for --churn-duration
 *   withdraw   after learn (or announce): every prefix withdrawn, done
 *              when the monitor holds none (or when all were sent)
 * With several speakers (--controller EP,EP,...) each peer holds a
 * session to every one: connect and announce count all sessions, and
 * connect.cN and announce.cN each speaker's.
 */
#include <arpa/inet.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgp_io.h"
#include "bgp_sim.h"
#include "cmd.h"
#include "log.h"
#include "run.h"

static const char bgp_usage[] =
"usage: sbsim bgp --peers N --as ASN --controller EP[,EP...] [options]\n"
"BGP-4 peers announcing prefixes to a controller or any BGP speaker.\n";

NB_DRIVER_LIST(bgp_nb_drivers, &bgp_nb_odl_driver);

/* Marks of the options checked after parsing (bgp_config.given). */
#define BGP_GIVEN_MED		0x1
#define BGP_GIVEN_LOCAL_PREF	0x2

/* "--NAME: 'ARG' is not a prefix (ADDR/LEN, no host bits set)". */
static int
bgp_prefix_opt(const char *name, const char *arg, void *field, char *err,
    size_t errlen)
{
	if (bgp_prefix_parse(arg, field) == 0)
		return 0;
	snprintf(err, errlen, "--%s: '%s' is not a prefix (ADDR/LEN, no host "
	    "bits set)", name, arg);
	return -1;
}

static int
bgp_next_hop_row(void *base, const char *arg, char *err, size_t errlen)
{
	struct bgp_config	*cfg = base;

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
bgp_no_gr_row(void *base, const char *arg, char *err, size_t errlen)
{
	(void)arg;
	(void)err;
	(void)errlen;
	((struct bgp_config *)base)->graceful = 0;
	return 0;
}

static const char *const bgp_count_names[] = {
	[BGP_NB_APP_RIB] = "",		/* the advertise test's own */
	[BGP_NB_LOC_RIB] = "loc-rib",
	[BGP_NB_TOPOLOGY] = "topology",
	NULL
};

/* In the order of enum bgp_af and of the BGP_ADDPATH_* bits. */
static const char *const bgp_afi_names[] = { "ipv4", "ipv6", NULL };
static const char *const bgp_mrt_peer_names[] = { "each", "one", NULL };
static const char *const bgp_mrt_nh_names[] = { "keep", "set", NULL };
static const char *const bgp_addpath_names[] = { "none", "receive", "send",
	"both", NULL };
static const char *const bgp_rd_type_names[] = { "0", "1", "2", NULL };
static const char *const bgp_label_mode_names[] = { "per-route", "per-rd",
	NULL };
/* In the order of enum bgp_flow_action. */
static const char *const bgp_flow_action_names[] = { "traffic-rate",
	"traffic-action", "redirect", "traffic-marking", "none", NULL };

#define BC	struct bgp_config
/* --topology: BGP-LS's shape (bgp_fam_ls.c). */
static int
bgp_topology_row(void *base, const char *arg, char *err, size_t errlen)
{
	struct bgp_config	*cfg = base;

	return bgp_ls_shape_parse(&cfg->gen, arg, err, errlen);
}

static const struct opt bgp_rows[] = {
	OPT_U("peers", "N", BC, peers, 1, 1000000, 0,
	    "peers to simulate (required); peer i connects\n"
	    "from the i-th address of --source"),
	OPT_U("prefixes", "P", BC, prefixes, 0, 100000000, 0,
	    "prefixes each peer announces"),
	OPT_U("as", "ASN", BC, as, 1, UINT32_MAX, 0,
	    "the peers' AS (required; 4-octet allowed)"),
	OPT_U("peer-as", "ASN", BC, peer_as, 1, UINT32_MAX, 0,
	    "the controller's AS", .def = "any"),
	OPT_P("first-prefix", "PFX", BC, first, struct bgp_prefix,
	    bgp_prefix_opt, 0,
	    "first prefix; the others follow it in blocks of\n"
	    "its size",
	    .def = "10.0.0.0/24, or 2001:db8::/64 with\n--afi ipv6"),
	OPT_U("per-update", "K", BC, per_update, 1, 4096, 0,
	    "prefixes per UPDATE (1 is play.py's single mode)",
	    .def = "as many as fit in 4096 bytes"),
	OPT_E("afi", "F", BC, af, bgp_afi_names, 0,
	    "ipv4 or ipv6"),
	OPT_FN("family", "F[,F...]", bgp_family_row, 0,
	    "families announced, --prefixes routes of each:\n"
	    "ipv4-unicast, ipv6-unicast, l3vpn-ipv4-unicast,\n"
	    "l3vpn-ipv6-unicast, ipv4-labelled-unicast,\n"
	    "l2vpn-evpn, ipv4-flowspec, ipv6-flowspec, ls",
	    .def = "ipv4-unicast, or ipv6-unicast with\n--afi ipv6"),
	OPT_U("rd-count", "N", BC, gen.rd_count, 1, 65535, 0,
	    "route distinguishers the L3VPN routes spread over\n"
	    "(route n has the (n mod N)+1-th)"),
	OPT_E("rd-type", "T", BC, gen.rd_type, bgp_rd_type_names, 0,
	    "RD type: 0 (ASN:n), 1 (peer's id:n), 2 (ASN4:n)"),
	OPT_U("label-base", "L", BC, gen.label_base, 16, 1048575, 0,
	    "first MPLS label of labelled and L3VPN routes"),
	OPT_E("label-mode", "M", BC, gen.label_per_rd, bgp_label_mode_names,
	    0, "per-route (base+n) or per-rd (base+RD number)"),
	OPT_FN("topology", "T", bgp_topology_row, 0,
	    "ls: the topology its routes describe: linear,\n"
	    "ring or tree[:FANOUT] (FANOUT 1 to 1000; 2)",
	    .def = "linear"),
	OPT_U("ls-nodes", "N", BC, gen.ls_nodes, 2, 1000000, 0,
	    "ls: nodes in the topology"),
	OPT_U("ls-prefixes", "N", BC, gen.ls_pfx, 0, 1000, 0,
	    "ls: prefixes each node announces"),
	OPT_U("ls-sid-base", "L", BC, gen.ls_sid_base, 16, 1048575, 0,
	    "ls: adjacency SID label of the first link"),
	OPT_FN("evpn-types", "T[,T...]", bgp_evpn_types_row, 0,
	    "EVPN route types (1-5) the l2vpn-evpn routes take\n"
	    "in turn", .def = "2"),
	OPT_U("vni-base", "V", BC, gen.vni_base, 1, 16777215, 0,
	    "first VNI of the EVPN routes (VXLAN, 24 bits)"),
	OPT_U("vnis", "N", BC, gen.vnis, 1, 16777215, 0,
	    "VNIs the EVPN routes spread over (the k-th route\n"
	    "of a type has VNI base + k mod N)"),
	OPT_P("flow-source", "PFX", BC, gen.flow_src, struct bgp_prefix,
	    bgp_prefix_opt, 0,
	    "source prefix of every flowspec rule of its\n"
	    "address family", .def = "none"),
	OPT_E("flow-action", "A", BC, gen.flow_action, bgp_flow_action_names,
	    0, "flowspec action community: traffic-rate (0:\n"
	    "discard), traffic-action (sample), redirect\n"
	    "(ASN:1), traffic-marking (DSCP 46) or none"),
	OPT_U("route-targets", "N", BC, route_targets, 0, BGP_MAX_EXT, 0,
	    "N route targets (ASN:1..ASN:N, extended\n"
	    "communities) on every route of every family",
	    .def = "1 with an l3vpn or evpn family, else 0"),
	OPT_F("ipv4-mp", BC, use_mp, 0,
	    "IPv4 in MP_REACH_NLRI / MP_UNREACH_NLRI too"),
	OPT_F("withdraw", BC, withdraw, 0,
	    "withdraw every prefix once they are learned"),
	OPT_S("monitor", "EP", BC, monitor, 0,
	    "a monitor peer (announces nothing) at EP, usually\n"
	    "the same as --controller; it times learn and\n"
	    "withdraw by what the controller re-advertises"),
	OPT_U("monitor-as", "ASN", BC, monitor_as, 1, UINT32_MAX, 0,
	    "the monitor's AS", .def = "--as"),
	OPT_P("hold-time", "S", BC, hold, uint16_t, bgp_hold_opt, 0,
	    "hold time proposed (0 or 3..65535)",
	    .show = opt_show_uint),
	OPT_FN("next-hop", "IP|self", bgp_next_hop_row, 0,
	    "NEXT_HOP (self: each peer's address)", .def = "self"),
	OPT_U("as-path-len", "N", BC, as_path_len, 1, BGP_MAX_ASPATH, 0,
	    "ASes in AS_PATH", .def = "1 for eBGP, 0 iBGP"),
	OPT_U("med", "N", BC, med, 0, UINT32_MAX, BGP_GIVEN_MED,
	    "MULTI_EXIT_DISC on every route", .def = "none"),
	OPT_U("local-pref", "N", BC, local_pref, 0, UINT32_MAX,
	    BGP_GIVEN_LOCAL_PREF, "LOCAL_PREF",
	    .def = "100 on iBGP, none on eBGP"),
	OPT_U("communities", "N", BC, communities, 0, BGP_MAX_COMM, 0,
	    "N communities (ASN:i) on every route"),
	OPT_U("large-communities", "N", BC, large_communities, 0,
	    BGP_MAX_COMM, 0, "N large communities (ASN:1:i) on every route"),
	OPT_E("add-path", "M", BC, addpath, bgp_addpath_names, 0,
	    "none, send, receive or both (RFC 7911)"),
	OPT_FN("no-graceful-restart", NULL, bgp_no_gr_row, 0,
	    "no graceful restart capability, no End-of-RIB"),
	OPT_RATE_FOR("churn", BC, churn_rate, 1e9, churn_seconds, "churn",
	    "after learning: R prefixes/s withdrawn and\n"
	    "announced again, one per UPDATE"),
	OPT_D("settle", "S", BC, settle, 0, 86400, 0,
	    "without --monitor, hold the sessions S seconds\n"
	    "after the last UPDATE so the speaker can learn\n"
	    "(with --duration, until it ends)"),
	OPT_S("csit-results", "NAME", BC, csit_results, 0,
	    "at the end, write totals-NAME and performance-NAME\n"
	    "as CSIT's play.py --results NAME does (UPDATEs and\n"
	    "UPDATEs/s of announce, and of churn)"),
	OPT_S("mrt", "FILE", BC, mrt, 0,
	    "replay an MRT dump's routes (TABLE_DUMP_V2,\n"
	    "BGP4MP; plain, gzip or bzip2) instead of --prefixes"),
	OPT_E("mrt-peers", "each|one", BC, mrt_one, bgp_mrt_peer_names, 0,
	    "each dump peer onto its own peer (in the order of\n"
	    "their first route; --peers fewer: folded), or all\n"
	    "onto one"),
	OPT_E("mrt-next-hop", "keep|set", BC, mrt_next_hop, bgp_mrt_nh_names,
	    0, "the dump's next hops, or --next-hop's"),
	OPT_D("mrt-rate", "R", BC, mrt_rate, 0, 1e9, 0,
	    "--mrt's routes per second, all peers together (0:\n"
	    "as fast as the receiver takes them)"),
	OPT_S("mrt-out", "FILE", BC, mrt_out, 0,
	    "at the end, write what the monitor learned as an\n"
	    "MRT TABLE_DUMP_V2 file"),
	OPT_U("csit-threshold", "N", BC, csit_threshold, 0, UINT64_MAX, 0,
	    "fewest UPDATEs for a phase to be written there\n"
	    "(play.py's --threshold)"),
	OPT_P("md5-password", "[I-J=]P", BC, md5, struct tcp_md5_keys,
	    tcp_md5_opt, 0,
	    "TCP-MD5 key (RFC 2385) of every peer and the\n"
	    "monitor; I-J=P: of peers I to J (from 0), I-J=:\n"
	    "none for them (repeatable, the last range wins)",
	    .show = tcp_md5_show),
	OPT_END
};

/* BGP's own northbound options, after the shared ones (nb_opt_rows). */
static const struct opt bgp_nb_rows[] = {
	OPT_U("advertise", "N", BC, nb.flows, 1, 100000000, NB_GIVEN_ANY,
	    "routes to write (needs --monitor)"),
	OPT_P("advertise-first-prefix", "PFX", BC, nb_ctx.first,
	    struct bgp_prefix, bgp_prefix_opt, NB_GIVEN_ANY, "first of them",
	    .def = "172.16.0.0/24, or 2001:db8:8000::/64\nwith --afi ipv6"),
	OPT_U("routes-per-request", "K", BC, nb.per_request, 1, 100000,
	    NB_GIVEN_ANY, "1: PUT each route; more: POST batches of K"),
	OPT_NOTE("without --advertise (and --monitor), --northbound times "
	    "learn and\nwithdraw by counting the controller's routes:"),
	OPT_E("northbound-count", "W", BC, nb_ctx.count, bgp_count_names,
	    NB_GIVEN_ANY,
	    "loc-rib or topology (its example-ipv4-topology,\n"
	    "as CSIT counts)", .def = "loc-rib"),
	OPT_END
};
#undef BC

static void
bgp_config_defaults(struct bgp_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->first.af = BGP_AF_MAX;	/* by --afi once parsed */
	cfg->hold = 90;
	cfg->graceful = 1;
	cfg->next_hop_self = 1;
	cfg->churn_seconds = 10;
	cfg->settle = 10;
	cfg->csit_threshold = 1000;
	bgp_bmp_defaults(cfg);
	cfg->nb_ctx.first.af = BGP_AF_MAX;
	cfg->gen.rd_count = 1;
	cfg->gen.label_base = 16;
	cfg->gen.ls_nodes = 10;
	cfg->gen.ls_shape = BGP_LS_LINEAR;
	cfg->gen.ls_fanout = 2;
	cfg->gen.ls_pfx = 1;
	cfg->gen.ls_sid_base = 24000;
	cfg->gen.evpn_types = 1u << 2;
	cfg->gen.vni_base = 10000;
	cfg->gen.vnis = 1;
	cfg->route_targets = UINT32_MAX;	/* by the families */
	nb_opts_defaults(&cfg->nb, bgp_nb_drivers);
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
	a->has_med = (cfg->given & BGP_GIVEN_MED) != 0;
	a->med = cfg->med;
	a->has_local_pref = (cfg->given & BGP_GIVEN_LOCAL_PREF) || ibgp;
	a->local_pref = (cfg->given & BGP_GIVEN_LOCAL_PREF) ? cfg->local_pref :
	    100;
	for (i = 0; i < cfg->communities; i++)
		a->comm[a->n_comm++] = (cfg->as & 0xffff) << 16 | (i + 1);
	for (i = 0; i < cfg->large_communities; i++) {
		a->lcomm[a->n_lcomm][0] = cfg->as;
		a->lcomm[a->n_lcomm][1] = 1;
		a->lcomm[a->n_lcomm++][2] = i + 1;
	}
	memcpy(a->next_hop4, cfg->next_hop4, 4);
	memcpy(a->next_hop6, cfg->next_hop6, 16);
	bgp_peer_fam_attrs(cfg, a);
}

static uint32_t
bgp_fds_needed(void *arg)
{
	struct bgp_sim	*sim = arg;

	return pool_fds_needed(&sim->pcfg[0], sim->cfg.peers) *
	    sim->cfg.n_spk +
	    (sim->cfg.monitor != NULL ? pool_fds_needed(&sim->mcfg, 1) : 0) +
	    nb_fds_needed(&sim->cfg.nb);
}

/* The counters in report order, and where each is kept. */
#define BGPC(field, name)	COUNTER_ROW(struct bgp_counters, field, name)
static const struct counter_row bgp_counter_rows[] = {
	BGPC(rx_msgs, "rx_messages"),
	BGPC(tx_msgs, "tx_messages"),
	BGPC(updates_sent, "updates_sent"),
	BGPC(updates_received, "updates_received"),
	BGPC(prefixes_sent, "prefixes_sent"),
	BGPC(withdrawals_sent, "withdrawals_sent"),
	BGPC(rx_announced[BGP_AF_IPV4], "ipv4_prefixes_received"),
	BGPC(rx_withdrawn[BGP_AF_IPV4], "ipv4_withdrawals_received"),
	BGPC(rx_announced[BGP_AF_IPV6], "ipv6_prefixes_received"),
	BGPC(rx_withdrawn[BGP_AF_IPV6], "ipv6_withdrawals_received"),
	BGPC(fam_rx, "other_family_routes_received"),
	BGPC(families_refused, "families_refused"),
	BGPC(routes_refused, "routes_refused"),
	BGPC(keepalives_sent, "keepalives_sent"),
	BGPC(keepalives_received, "keepalives_received"),
	BGPC(notifications_sent, "notifications_sent"),
	BGPC(notifications_received, "notifications_received"),
	BGPC(treat_as_withdraw, "treat_as_withdraw"),
	BGPC(attr_discarded, "attributes_discarded"),
	BGPC(eor_received, "end_of_rib_received"),
	BGPC(route_refresh_received, "route_refresh_received"),
	BGPC(sessions_lost, "sessions_lost"),
	BGPC(hold_expired, "hold_timer_expired"),
	BGPC(prefixes_churned, "prefixes_churned"),
};
#undef BGPC

static void
bgp_phase(struct bgp_sim *sim, enum bgp_phase i, const char *name,
    uint64_t target)
{
	sim->ph[i] = metrics_phase(sim->m, name, "bgp");
	sim->ph[i]->target = target;
}

/* The advertise test: each of the monitor's phases next to the
 * northbound's that it times. */
static void
bgp_nb_phases_init(struct bgp_sim *sim)
{
	struct metrics	*m = sim->m;

	bgp_phase(sim, BGPP_ADVERTISE, "advertise", sim->cfg.nb.flows);
	metrics_phase(m, NB_PHASE_PROGRAM, "northbound");
	metrics_phase(m, NB_PHASE_CONFIRM, "northbound");
	bgp_phase(sim, BGPP_UNADVERTISE, "unadvertise", sim->cfg.nb.flows);
	metrics_phase(m, NB_PHASE_DELETE, "northbound");
	metrics_phase(m, NB_PHASE_CONFIRM_DELETE, "northbound");
}

/* Who sees the last item (docs/report.md, "Phase windows"); the
 * northbound driver marks the phases it ends itself. */
static void
bgp_phases_witness(struct bgp_sim *sim)
{
	enum phase_witness	w = sim->cfg.monitor != NULL ?
	    WITNESS_MONITOR : WITNESS_TCP_ACK;

	if (sim->ph[BGPP_LEARN] != NULL)
		sim->ph[BGPP_LEARN]->witness = WITNESS_MONITOR;
	if (sim->ph[BGPP_ADVERTISE] != NULL)
		sim->ph[BGPP_ADVERTISE]->witness = WITNESS_MONITOR;
	if (sim->ph[BGPP_UNADVERTISE] != NULL)
		sim->ph[BGPP_UNADVERTISE]->witness = WITNESS_MONITOR;
	if (sim->ph[BGPP_WITHDRAW] != NULL)
		sim->ph[BGPP_WITHDRAW]->witness = w;
	if (sim->ph[BGPP_CHURN] != NULL)
		sim->ph[BGPP_CHURN]->witness = WITNESS_DEVICE;
}

/* Names of the per-speaker phases and counters (static, as metrics
 * keeps them). */
_Static_assert(BGP_MAX_SPEAKERS <= RUN_MAX_CONTROLLERS,
    "a run_connect_names[] entry per speaker");
static const char *const bgp_announce_names[BGP_MAX_SPEAKERS] = {
	"announce.c1", "announce.c2", "announce.c3", "announce.c4",
	"announce.c5", "announce.c6", "announce.c7", "announce.c8",
};
static const char *const bgp_lost_names[BGP_MAX_SPEAKERS] = {
	"sessions_lost.c1", "sessions_lost.c2", "sessions_lost.c3",
	"sessions_lost.c4", "sessions_lost.c5", "sessions_lost.c6",
	"sessions_lost.c7", "sessions_lost.c8",
};

/*
 * Several speakers: connect.cN (target: the peers) and announce.cN
 * (target: every peer's prefixes, once each) per speaker, and
 * sessions_lost.cN.  Learning stays the monitor's, of the one speaker it
 * peers with.
 */
static void
bgp_cluster_init(struct bgp_sim *sim, uint64_t now)
{
	unsigned	k;

	run_connect_phases(sim->m, sim->ph_connect, sizeof(sim->ph_connect),
	    run_connect_names, sim->cfg.n_spk, "bgp", sim->cfg.peers, now);
	memset(sim->ph_announce, 0, sizeof(sim->ph_announce));
	memset(sim->c.spk_lost, 0, sizeof(sim->c.spk_lost));
	memset(sim->spk_announced, 0, sizeof(sim->spk_announced));
	memset(sim->spk_drained, 0, sizeof(sim->spk_drained));
	if (sim->cfg.n_spk < 2)
		return;
	for (k = 0; k < sim->cfg.n_spk; k++)
		sim->c.spk_lost[k] = metrics_counter(sim->m,
		    bgp_lost_names[k]);
	if (sim->total == 0)
		return;
	for (k = 0; k < sim->cfg.n_spk; k++) {
		sim->ph_announce[k] = metrics_phase(sim->m,
		    bgp_announce_names[k], "bgp");
		sim->ph_announce[k]->target = sim->total;
		sim->ph_announce[k]->witness = WITNESS_DEVICE;
	}
}

static void
bgp_phases_init(struct bgp_sim *sim)
{
	const struct bgp_config	*cfg = &sim->cfg;
	int			 w = BGP_WITNESSED(cfg);

	memset(sim->ph, 0, sizeof(sim->ph));
	bgp_phase(sim, BGPP_CONNECT, "connect", sim->n_sess);
	/* Ended when the speaker acknowledged the last peer's last byte
	 * (bgp_drained). */
	bgp_phase(sim, BGPP_ANNOUNCE, "announce", 0);
	sim->ph[BGPP_ANNOUNCE]->witness = WITNESS_TCP_ACK;
	if (w && sim->total > 0)
		bgp_phase(sim, BGPP_LEARN, "learn", sim->total);
	if (cfg->churn_rate > 0 && sim->total > 0)
		bgp_phase(sim, BGPP_CHURN, "churn", 0);
	if (cfg->withdraw && sim->total > 0)
		bgp_phase(sim, BGPP_WITHDRAW, "withdraw", w ? sim->total : 0);
	if (cfg->nb.url != NULL && !cfg->nb_watch)
		bgp_nb_phases_init(sim);
	bgp_phases_witness(sim);
	phase_start(sim->ph[BGPP_CONNECT], clock_ns());
	bgp_cluster_init(sim, clock_ns());
}

static void
bgp_peer_init(struct bgp_sim *sim, struct bgp_peer *p, uint32_t i,
    unsigned spk)
{
	memset(p, 0, sizeof(*p));
	p->sim = sim;
	p->idx = i;
	p->spk = (uint8_t)spk;
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

static int
bgp_start(void *arg, struct metrics *m, char *err, size_t errlen)
{
	struct bgp_sim	*sim = arg;
	uint32_t	 i;

	sim->m = m;
	sim->established = 0;
	sim->announced = sim->withdrawn = 0;
	sim->ann_updates = 0;
	sim->ann_most = 0;
	sim->mon_high = sim->mon_low = 0;
	sim->drained_ann = sim->drained_wd = 0;
	sim->churn_sent = 0;
	sim->churn_credit = 0;
	sim->total = sim->mrt != NULL ? bgp_mrt_total(sim) :
	    (uint64_t)sim->cfg.peers * bgp_peer_routes(&sim->cfg);
	sim->refused = 0;
	sim->fam_logged = 0;
	/* Every session announces its peer's prefixes to its speaker. */
	sim->n_sess = sim->cfg.peers * sim->cfg.n_spk;
	sim->sent_total = sim->total * sim->cfg.n_spk;
	sim->last_tick_ns = clock_ns();
	METRICS_COUNTERS(m, bgp_counter_rows, &sim->c);
	bgp_phases_init(sim);
	if (sim->mrt != NULL)
		bgp_mrt_targets(sim);
	sim->peers = xcalloc(sim->n_sess, sizeof(*sim->peers));
	for (i = 0; i < sim->n_sess; i++)
		bgp_peer_init(sim, &sim->peers[i], sim->idx_base +
		    i % sim->cfg.peers, i / sim->cfg.peers);
	if (sim->cfg.nb.url != NULL) {
		sim->nb_begun = 0;
		sim->nb_node = xstrdup(BGP_NB_NODE);
		sim->nb = nb_new(&sim->cfg.nb, m, &sim->nb_node, 1, bgp_nb_hook,
		    sim);
	}
	if (sim->cfg.monitor != NULL) {
		bgp_peer_init(sim, &sim->mon, sim->cfg.peers, 0);
		sim->mon.monitor = 1;
		sim->mdev[0] = &sim->mon.pd;
		pool_init(&sim->mpool, &sim->mcfg, &bgp_peer_ops, sim->mdev, 1);
		if (pool_start(&sim->mpool, err, errlen) == -1)
			return -1;
	}
	/* One pool per speaker, each over its slice of the sessions. */
	return pool_start_sliced(sim->pool, sim->pcfg, sim->cfg.n_spk,
	    &bgp_peer_ops, sim->peers, sizeof(*sim->peers),
	    offsetof(struct bgp_peer, pd), sim->cfg.peers, err, errlen);
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

	for (i = 0; i < sim->n_sess; i++)
		bgp_peer_kick(&sim->peers[i]);
}

/* Connect over: every peer announces; the monitor's learning counts from
 * what it holds now. */
static void
bgp_begin_announce(struct bgp_sim *sim, uint64_t now)
{
	char		err[256];
	unsigned	k;

	phase_start(sim->ph[BGPP_ANNOUNCE], now);
	for (k = 0; k < sim->cfg.n_spk; k++)
		if (sim->ph_announce[k] != NULL)
			phase_start(sim->ph_announce[k], now);
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
	per = n / sim->n_sess + 1;
	for (i = 0, sent = 0; i < sim->n_sess && sent < n; i++)
		sent += bgp_peer_churn(&sim->peers[(sim->churn_sent + i) %
		    sim->n_sess], n - sent < per ? n - sent : per);
	sim->churn_sent += sent;
	sim->churn_credit -= (double)sent;
	if (sim->churn_credit > sim->cfg.churn_rate)
		sim->churn_credit = sim->cfg.churn_rate;	/* no bursts */
	if (sent > 0)
		phase_items(ch, now, sent);
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
	return nb_tick(sim->nb, now) && phase_over(sim->ph[BGPP_ADVERTISE]) &&
	    phase_over(sim->ph[BGPP_UNADVERTISE]);
}

/*
 * With no witness (--monitor, a northbound watching the Loc-RIB) sbsim
 * cannot see the speaker learn: closing the sessions as soon as the last
 * UPDATE is acknowledged makes it flush routes it was still processing
 * (RFC 4271 section 8.2.2: a session's end withdraws its routes).  Hold
 * them --settle seconds, once, and say learning was not observed; a run
 * that withdraws everything anyway has nothing to wait for.  1: over.
 */
static int
bgp_settled(struct bgp_sim *sim, uint64_t now)
{
	uint64_t	end;

	if (BGP_WITNESSED(&sim->cfg) || sim->ph[BGPP_WITHDRAW] != NULL)
		return 1;
	if (sim->settle_ns == 0) {
		sim->settle_ns = now;
		*metrics_counter(sim->m, "learn_not_observed") = 1;
		log_info("no --monitor: the speaker's learning is not observed;"
		    " holding the sessions %.1f s", sim->cfg.settle);
	}
	end = sim->settle_ns + (uint64_t)(sim->cfg.settle * 1e9);
	if (now >= end)
		return 1;
	/* Nothing to do but keepalives until then: the run's ticks may
	 * come further apart (100 idle ticks were half a 1M-prefix run's
	 * CPU). */
	run_quiet_until(sim->timers_due < end ? sim->timers_due : end);
	return 0;
}

static void
bgp_timers_due(struct bgp_sim *sim, uint64_t due)
{
	if (due < sim->timers_due)
		sim->timers_due = due;
}

/* The sequence connect, announce (+ learn), churn, withdraw, then the
 * advertise test; 1: over. */
static int
bgp_tick(void *arg, uint64_t now)
{
	struct bgp_sim	*sim = arg;
	struct phase	**ph = sim->ph;
	uint32_t	 i;

	sim->timers_due = UINT64_MAX;
	for (i = 0; i < sim->n_sess; i++)
		bgp_timers_due(sim, bgp_peer_timers(&sim->peers[i], now));
	if (sim->cfg.monitor != NULL)
		bgp_timers_due(sim, bgp_peer_timers(&sim->mon, now));
	/* Churn runs for the duration, not to a target. */
	run_phases_timeout(sim->ph, BGPP_MAX, 1u << BGPP_CHURN, now,
	    sim->phase_timeout);
	for (i = 0; i < sim->cfg.n_spk && sim->cfg.n_spk > 1; i++) {
		run_phase_timeout(sim->ph_connect[i], now, sim->phase_timeout);
		run_phase_timeout(sim->ph_announce[i], now,
		    sim->phase_timeout);
	}
	if (sim->cfg.nb_watch && sim->nb_begun)
		nb_tick(sim->nb, now);
	if (!phase_over(ph[BGPP_CONNECT]))
		goto out;
	if (sim->total == 0) {
		sim->last_tick_ns = now;
		return bgp_tick_nb(sim, now);
	}
	if (ph[BGPP_ANNOUNCE]->state == PHASE_PENDING)
		bgp_begin_announce(sim, now);
	else if (sim->mrt != NULL && !phase_over(ph[BGPP_ANNOUNCE]) &&
	    bgp_mrt_pace(sim, now))
		bgp_kick_all(sim);
	if (!phase_over(ph[BGPP_ANNOUNCE]) || !phase_over(ph[BGPP_LEARN]))
		goto out;
	if (ph[BGPP_CHURN] != NULL && !phase_over(ph[BGPP_CHURN])) {
		if (ph[BGPP_CHURN]->state == PHASE_PENDING)
			phase_start(ph[BGPP_CHURN], now);
		bgp_tick_churn(sim, now);
		goto out;
	}
	if (ph[BGPP_WITHDRAW] != NULL &&
	    ph[BGPP_WITHDRAW]->state == PHASE_PENDING)
		bgp_begin_withdraw(sim, now);
	sim->last_tick_ns = now;
	return phase_over(ph[BGPP_WITHDRAW]) && bgp_tick_nb(sim, now) &&
	    bgp_settled(sim, now);
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
	txack_cancel(&sim->acked);
	if (sim->peers == NULL)
		return;
	if (sim->cfg.csit_results != NULL)
		(void)bgp_results_write(sim);
	for (i = 0; i < sim->n_sess; i++)
		bgp_peer_goodbye(&sim->peers[i]);
	/* What the monitor holds, before closing its session clears it. */
	if (sim->cfg.monitor != NULL) {
		*metrics_counter(sim->m, "monitor_prefixes") =
		    bgp_monitor_held(sim);
		if (sim->cfg.mrt_out != NULL)
			(void)bgp_mrt_out(sim);
		bgp_peer_goodbye(&sim->mon);
		pool_stop(&sim->mpool);
		bgp_peer_free(&sim->mon);
	}
	/* Every pool stopped; the run's connect counters sum them. */
	pool_stop_all_counted(sim->pool, sim->cfg.n_spk, sim->m);
	for (i = 0; i < sim->n_sess; i++)
		bgp_peer_free(&sim->peers[i]);
	for (i = 0; i < sim->cfg.n_spk; i++)
		pool_free(&sim->pool[i]);
	free(sim->peers);
	sim->peers = NULL;
	bgp_mrt_free(sim);
}

static const char *const bgp_phase_names[] = {
	"connect", "announce", "learn", "churn", "withdraw",
	"advertise", "unadvertise", NB_PHASE_PROGRAM, NB_PHASE_CONFIRM,
	NB_PHASE_DELETE, NB_PHASE_CONFIRM_DELETE,
	"connect.c1", "connect.c2", "connect.c3", "connect.c4",
	"connect.c5", "connect.c6", "connect.c7", "connect.c8",
	"announce.c1", "announce.c2", "announce.c3", "announce.c4",
	"announce.c5", "announce.c6", "announce.c7", "announce.c8", NULL
};

static const struct sim_ops bgp_sim_ops = SIM_OPS(bgp, "bgp", peers);

/* Where the peers and the monitor may connect. */
#define BGP_EP_KINDS	(1u << EP_TCP | 1u << EP_PTCP)
#define BGP_EP_MSG	"BGP runs over plain TCP (tcp: or ptcp:)"

/*
 * The monitor connects from the address after the last peer's, not from
 * --source (the peers' configuration, which counted it, has that range).
 */
static void
bgp_monitor_config(struct bgp_sim *sim, const struct run_opts *ro)
{
	struct pool_config	*mc = &sim->mcfg;
	const struct source_range *src = &sim->pcfg[0].src;

	run_pool_endpoint(mc, ro, "--monitor", sim->cfg.monitor, BGP_EP_KINDS,
	    BGP_EP_MSG);
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

	if (!(cfg->nb_given & NB_GIVEN_ANY))
		return;
	if (!(cfg->nb_given & NB_GIVEN_URL))
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
	char			 err[256];
	const char		*why;

	if (cfg->mrt != NULL && bgp_mrt_load(sim, err, sizeof(err)) != NULL)
		cli_die(ro, "%s", err);
	if ((why = bgp_peer_fam_check(cfg)) != NULL)
		cli_die(ro, "%s", why);
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
	if ((cfg->withdraw || cfg->churn_rate > 0) && cfg->prefixes == 0 &&
	    cfg->mrt == NULL)
		cli_die(ro, "--withdraw and --churn-rate need --prefixes");
	if (cfg->mrt_out != NULL && cfg->monitor == NULL)
		cli_die(ro, "--mrt-out writes what the monitor learned: give "
		    "--monitor");
	if (cfg->csit_results != NULL &&
	    bgp_results_check(cfg->csit_results, err, sizeof(err)) == -1)
		cli_die(ro, "%s", err);
	bgp_nb_check(sim, ro);
	if (!cfg->next_hop_self && cfg->af == BGP_AF_IPV4 &&
	    memcmp(cfg->next_hop4, "\0\0\0\0", 4) == 0)
		cli_die(ro, "--next-hop: an IPv6 next hop for IPv4 routes");
}

/*
 * --controller EP[,EP...]: one pool per speaker.  With several, each
 * peer connects to every one (tcp: only) from its one address, a
 * session and FSM per speaker (RFC 4271 section 8: one per connection).
 */
static void
bgp_pool_config(struct bgp_sim *sim, const struct run_opts *ro)
{
	sim->cfg.n_spk = run_pools_config(sim->pcfg, ro, "speaker",
	    BGP_MAX_SPEAKERS, BGP_EP_KINDS, BGP_EP_MSG, "several speakers: "
	    "peers connect to each over plain TCP: tcp:IP:PORT,tcp:IP:PORT",
	    sim->cfg.peers + (sim->cfg.monitor != NULL));
}

/* --fault churn/N takes at most the prefixes a peer announces. */
static void
bgp_fault_check(const struct bgp_sim *sim, const struct run_opts *ro)
{
	size_t	i;

	for (i = 0; i < ro->n_faults; i++) {
		const struct fault_spec	*fs = &ro->faults[i];

		if (strcmp(fs->kind, "churn") != 0)
			continue;
		if (sim->cfg.prefixes == 0)
			cli_die(ro, "--fault %s: churn needs --prefixes",
			    fs->text);
		if (sim->cfg.n_fam > 1 || sim->cfg.fams[0] != sim->cfg.af)
			cli_die(ro, "--fault %s: churn is of one unicast "
			    "family (--family)", fs->text);
		if (fs->has_arg && fs->arg > sim->cfg.prefixes)
			cli_die(ro, "--fault %s: N is more than the %llu "
			    "prefixes each peer announces (--prefixes)",
			    fs->text, (unsigned long long)sim->cfg.prefixes);
	}
}

/*
 * --shard I/N: this process runs peers [first, first + count) of the
 * run's --peers, each with the prefixes, identifier and source address
 * it has in the whole run.  A monitor (each shard's would see the whole
 * run's routes) and the advertise test (it writes the whole run's) are
 * not yet.
 */
static void
bgp_shard_check(const struct bgp_sim *sim, const struct run_opts *ro)
{
	run_shard_refuse(ro, sim->cfg.monitor != NULL, "--monitor (each "
	    "shard's would see the whole run's routes)");
	run_shard_refuse(ro, sim->cfg.nb_given & NB_GIVEN_ANY,
	    "the advertise test");
}

static void
bgp_shard(struct bgp_sim *sim, const struct run_opts *ro)
{
	uint32_t	first, count;
	unsigned	k;

	if (!run_shard_slice(ro, "--peers", sim->cfg.peers, &first, &count))
		return;
	sim->cfg.peers = count;
	sim->idx_base = first;
	for (k = 0; k < sim->cfg.n_spk; k++)
		sim->pcfg[k].index_base = first;
}

static int
bgp_main(int argc, char **argv)
{
	struct bgp_sim	*sim = run_sim_new(sizeof(*sim));
	struct run_opts	 ro;
	int		 rc;
	struct opt_group groups[] = {
		{ NULL, bgp_rows, &sim->cfg, &sim->cfg.given },
		{ "the advertise test (sbsim writes routes into the "
		  "controller's application\nRIB; the monitor times their "
		  "arrival):", nb_opt_rows, &sim->cfg.nb, &sim->cfg.nb_given },
		{ NULL, bgp_nb_rows, &sim->cfg, &sim->cfg.nb_given },
		{ "BMP routers (RFC 7854), instead of BGP sessions:",
		  bgp_bmp_rows, &sim->cfg, &sim->cfg.given },
	};

	bgp_config_defaults(&sim->cfg);
	cli_parse_groups(argc, argv, groups, 4, &ro, bgp_usage);
	log_init("sbsim", ro.verbose);
	if (sim->cfg.bmp != NULL) {
		bgp_attrs_init(sim);
		return bgp_bmp_main(sim, &ro);
	}
	bgp_check(sim, &ro);
	bgp_fault_check(sim, &ro);
	bgp_pool_config(sim, &ro);
	run_listen_ports(&sim->pcfg[0], &ro, sim->cfg.peers, "peers");
	bgp_shard_check(sim, &ro);
	if (run_workers(&bgp_sim_ops, sim, &ro, "peers", sim->cfg.peers, &rc) == 1)
		return rc;
	bgp_shard(sim, &ro);
	if (sim->cfg.monitor != NULL)
		bgp_monitor_config(sim, &ro);
	bgp_md5_config(sim);
	sim->phase_timeout = ro.phase_timeout;
	bgp_attrs_init(sim);
	return run_main(&bgp_sim_ops, sim, &ro);
}

const struct sbsim_cmd bgp_cmd = {
	"bgp",
	"simulate BGP-4 peers",
	bgp_main,
};
