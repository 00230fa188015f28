/*
 * `sbsim openflow`: N switches against a controller, and the phases that
 * time what the controller does to them:
 *   connect    switches through HELLO and FEATURES_REPLY (target N)
 *   program    flows added, from the first FLOW_MOD (target --expect-flows)
 *   confirm    from the first FLOW_MOD: flows the controller has read
 *              back in full-table flow stats replies (--expect-flows)
 *   delete     after program: flows removed until none are left
 *   packet_in  cbench-style answered PACKET_INs (--packet-in)
 * With --northbound, sbsim pushes --flows F itself through the
 * controller's REST API once connect is done (src/controller/northbound.h): program
 * and delete are then triggered by the first add / delete request and
 * still count FLOW_MODs at the switches; confirm polls the controller's
 * operational inventory instead of watching flow stats; nb_program and
 * nb_delete time the HTTP requests; confirm_delete polls the inventory
 * until it is empty.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "log.h"
#include "of_bundle.h"
#include "of_nb.h"
#include "of_sim.h"
#include "opt.h"
#include "run.h"

static const char of_usage[] =
"usage: sbsim openflow --switches N --controller EP [options]\n"
"OpenFlow 1.3 and 1.0 switches against a controller.\n";

NB_DRIVER_LIST(of_nb_drivers, &of_nb_odl_driver);

static int
of_topology_row(void *base, const char *arg, char *err, size_t errlen)
{
	struct of_config	*cfg = base;
	uint8_t			 shape;

	if (topo_parse(arg, 1, &shape, &cfg->tree_fanout, err, errlen) == -1)
		return -1;
	cfg->topo = shape;
	return 0;
}

/* By enum of_pktin_mode; "off" is the default, not a word it takes. */
static const char *const of_pktin_names[] = {
	[OF_PKTIN_OFF] = "",
	[OF_PKTIN_THROUGHPUT] = "throughput",
	[OF_PKTIN_LATENCY] = "latency",
	NULL
};

#define C	struct of_config
static const struct opt of_rows[] = {
	OPT_U("switches", "N", C, switches, 1, 1000000, 0,
	    "switches to simulate (required)"),
	OPT_P("of-version", "V[,V]", struct of_config, version_bitmap, uint32_t,
	    of_version_parse, 0,
	    "1.5, 1.4, 1.3, 1.0 or a list (highest common\n"
	    "wins)",
	    .show = of_version_show),
	OPT_U("dpid-base", "N", C, dpid_base, 0, UINT64_MAX, 0,
	    "datapath id of the first switch"),
	OPT_U("ports", "N", C, ports, 1, 64, 0,
	    "ports per switch"),
	OPT_U("tables", "N", C, tables, 1, 254, 0,
	    "flow tables per switch"),
	OPT_U("table-size", "N", C, table_size, 1, 100000000, 0,
	    "flows a table holds"),
	OPT_U("max-groups", "N", C, max_groups, 1, 1000000, 0,
	    "groups a switch holds (OpenFlow 1.3)"),
	OPT_U("bundles-max", "N", C, bundles_max, 1, 65536, 0,
	    "bundles open at once per connection"),
	OPT_U("bundle-msgs-max", "N", C, bundle_msgs_max, 1, 10000000, 0,
	    "messages one bundle holds"),
	OPT_U("bundle-bytes-max", "N", C, bundle_bytes_max, 1024,
	    1073741824, 0, "bytes of messages one bundle holds"),
	OPT_D("bundle-timeout", "S", C, bundle_timeout, 0, 86400, 0,
	    "discard a bundle idle for S s (0: never)"),
	OPT_U("max-meters", "N", C, max_meters, 1, 1000000, 0,
	    "meters a switch holds (OpenFlow 1.3)"),
	OPT_U("max-flow-monitors", "N", C, max_flow_monitors, 1, 4096, 0,
	    "flow monitors a controller connection holds\n"
	    "(OpenFlow 1.4 and 1.5)"),
	OPT_U("max-group-depth", "N", C, max_group_depth, 1, 64, 0,
	    "groups on one chain of GROUP actions"),
	OPT_U("expect-flows", "N", C, expect_flows, 1, UINT64_MAX / 2, 0,
	    "program ends when the switches hold N flows,\n"
	    "delete when they hold none again"),
	OPT_F("expect-delete", C, expect_delete, 0,
	    "the controller deletes those flows again: a\n"
	    "delete phase that never begins fails the run"),
	OPT_U("expect-groups", "N", C, expect_gm[0], 1, UINT32_MAX, 0,
	    "program_groups ends when the switches hold N\n"
	    "groups, delete_groups when they hold none again"),
	OPT_U("expect-meters", "N", C, expect_gm[1], 1, UINT32_MAX, 0,
	    "program_meters and delete_meters, the same for\n"
	    "meters"),
	OPT_U("groups-per-switch", "G", C, nb_gm[0], 1, 1000000, 0,
	    "with --northbound: PUT G groups into each\n"
	    "switch's config too, one a request, confirm\n"
	    "and delete them (--expect-groups is G x N)"),
	OPT_U("meters-per-switch", "M", C, nb_gm[1], 1, 1000000, 0,
	    "with --northbound: the same for M meters"),
	OPT_FN("topology", "T", of_topology_row, 0,
	    "none, linear, ring or tree[:FANOUT] (LLDP links)",
	    .def = "none"),
	OPT_E("packet-in", "MODE", C, pktin, of_pktin_names, 0,
	    "latency or throughput (cbench-style load)"),
	OPT_U("macs", "N", C, macs, 1, 65536, 0,
	    "source MACs per switch for PACKET_IN"),
	OPT_U("packet-in-window", "N", C, pktin_window, 1, 65536, 0,
	    "outstanding PACKET_INs in throughput mode\n"
	    "(rounded up to a power of two)"),
	OPT_U("packet-in-count", "N", C, pktin_count, 1, UINT64_MAX / 2, 0,
	    "PACKET_INs per switch", .def = "no limit"),
	OPT_D("packet-in-wait", "S", C, pktin_wait, 0, 3600, 0,
	    "the load begins at the controller's first message\n"
	    "after the handshake that is no request for\n"
	    "information (FLOW_MOD, SET_CONFIG, BARRIER...),\n"
	    "or S s after FEATURES_REPLY (0: at once)"),
	OPT_D("packet-in-resend", "S", C, pktin_resend, 0, 3600, 0,
	    "latency: send a PACKET_IN unanswered for S s\n"
	    "again (0: never)"),
	OPT_D("echo-interval", "S", C, echo_interval, 0, 3600, 0,
	    "ECHO the controller after S idle seconds"),
	OPT_U("multipart-bytes", "N", C, mp_max_bytes, 1024, 65535, 0,
	    "largest multipart reply message"),
	OPT_END
};
#undef C

/* OpenFlow's own northbound options, beside the shared nb_opt_rows. */
#define N	struct nb_opts
static const struct opt of_nb_rows[] = {
	/* Each flow gets its own 10.x.y.z/32. */
	OPT_U("flows", "F", N, flows, 1, 0xfffffe, NB_GIVEN_ANY,
	    "flows to push, spread evenly over the switches"),
	OPT_U("flows-per-request", "K", N, per_request, 1, 100000,
	    NB_GIVEN_ANY, "1: PUT each flow; more: POST batches of K"),
	OPT_U("flow-table", "T", N, table, 0, 253, NB_GIVEN_ANY,
	    "table the flows go to"),
	OPT_END
};
#undef N

static void
of_config_defaults(struct of_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->version_bitmap = (1u << OF_VERSION_13) | (1u << OF_VERSION_10);
	cfg->dpid_base = 1;
	cfg->ports = 4;
	cfg->tables = 254;
	cfg->table_size = 1000000;
	cfg->max_groups = 4096;
	cfg->bundles_max = OF_BUNDLES_MAX;
	cfg->bundle_msgs_max = OF_BUNDLE_MSGS_MAX;
	cfg->bundle_bytes_max = OF_BUNDLE_BYTES_MAX;
	cfg->bundle_timeout = OF_BUNDLE_TIMEOUT;
	cfg->max_meters = 4096;
	cfg->max_flow_monitors = 64;
	cfg->max_group_depth = 8;
	cfg->tree_fanout = 2;
	cfg->macs = 1000;
	cfg->pktin_window = 64;
	cfg->pktin_wait = 2;
	cfg->pktin_resend = 1;
	cfg->echo_interval = 5;
	cfg->mp_max_bytes = 65535;
	nb_opts_defaults(&cfg->nb, of_nb_drivers);
}

static uint32_t
of_fds_needed(void *arg)
{
	struct of_sim	*sim = arg;

	return pool_fds_needed(&sim->pcfg, sim->cfg.switches) *
	    sim->cfg.n_ctl + nb_fds_needed(&sim->cfg.nb);
}

/* Controller k's pool and its configuration (k = 0: the first). */
static struct pool *
of_pool(struct of_sim *sim, unsigned k)
{
	return k == 0 ? &sim->pool : &sim->pool_more[k - 1];
}

static struct pool_config *
of_pcfg(struct of_sim *sim, unsigned k)
{
	return k == 0 ? &sim->pcfg : &sim->pcfg_more[k - 1];
}

/* The counters in report order, and where each is kept. */
#define OFC(field, name)	COUNTER_ROW(struct of_counters, field, name)
static const struct counter_row of_counter_rows[] = {
	OFC(rx_msgs, "rx_messages"),
	OFC(tx_msgs, "tx_messages"),
	OFC(errors_sent, "errors_sent"),
	OFC(errors_received, "errors_received"),
	OFC(decode_errors, "decode_errors"),
	OFC(flow_mods, "flow_mods"),
	OFC(flow_mod_errors, "flow_mod_errors"),
	OFC(flows_added, "flows_added"),
	OFC(flows_modified, "flows_modified"),
	OFC(flows_deleted, "flows_deleted"),
	OFC(flows_expired, "flows_expired"),
	OFC(flow_removed_sent, "flow_removed_sent"),
	OFC(group_mods, "group_mods"),
	OFC(group_mod_errors, "group_mod_errors"),
	OFC(groups_out_of_room, "groups_out_of_room"),
	OFC(meter_mods, "meter_mods"),
	OFC(meter_mod_errors, "meter_mod_errors"),
	OFC(meters_out_of_room, "meters_out_of_room"),
	OFC(flow_updates_sent, "flow_updates_sent"),
	OFC(flow_monitors_refused, "flow_monitors_refused"),
	OFC(table_status_sent, "table_status_sent"),
	OFC(requestforward_sent, "requestforward_sent"),
	OFC(groups_too_deep, "groups_too_deep"),
	OFC(group_packets, "group_packets"),
	OFC(group_packets_truncated, "group_packets_truncated"),
	OFC(experimenter_refused, "experimenter_refused"),
	OFC(bundles_opened, "bundles_opened"),
	OFC(bundles_committed, "bundles_committed"),
	OFC(bundles_failed, "bundles_failed"),
	OFC(bundles_discarded, "bundles_discarded"),
	OFC(bundles_timed_out, "bundles_timed_out"),
	OFC(bundle_msgs, "bundle_msgs"),
	OFC(bundle_errors, "bundle_errors"),
	OFC(bundle_limit_refused, "bundle_limit_refused"),
	OFC(nx_refused, "nx_refused"),
	OFC(stats_requests, "stats_requests"),
	OFC(barriers, "barriers"),
	OFC(packet_outs, "packet_outs"),
	OFC(lldp_forwarded, "lldp_forwarded"),
	OFC(packet_ins_sent, "packet_ins_sent"),
	OFC(packet_ins_resent, "packet_ins_resent"),
	OFC(packet_in_waits, "packet_in_waits"),
	OFC(echo_rtt_samples, "echo_replies"),
	OFC(disconnects, "disconnects"),
	OFC(role_changes, "role_changes"),
	OFC(role_stale, "role_stale"),
	OFC(is_slave_refused, "is_slave_refused"),
	OFC(role_status_sent, "role_status_sent"),
	OFC(controller_status_sent, "controller_status_sent"),
	OFC(failover_flow_mods, "failover_flow_mods"),
	OFC(reads_paused, "reads_paused"),
};
#undef OFC

/* Names of the per-controller phases and counters (static, as metrics
 * keeps them). */
static const char *const of_ctl_flow_mod_names[OF_MAX_CONTROLLERS] = {
	"flow_mods.c1", "flow_mods.c2", "flow_mods.c3", "flow_mods.c4",
	"flow_mods.c5", "flow_mods.c6", "flow_mods.c7", "flow_mods.c8",
};
_Static_assert(OF_MAX_CONTROLLERS <= RUN_MAX_CONTROLLERS,
    "a run_connect_names[] entry per controller");
static uint64_t	of_one_ctl_sink;	/* flow_mods.c1 of one controller */

/*
 * Several controllers: connect.cN per controller (target: the
 * switches), flow_mods.cN, and failover, begun when a master's
 * connection drops (of_switch.c), one item per switch whose new
 * master's first FLOW_MOD came.
 */
static void
of_cluster_init(struct of_sim *sim, uint64_t now)
{
	unsigned	k;

	run_connect_phases(sim->m, sim->ph_connect, sizeof(sim->ph_connect),
	    run_connect_names, sim->cfg.n_ctl, "openflow", sim->cfg.switches,
	    now);
	sim->c.ctl_flow_mods[0] = &of_one_ctl_sink;
	if (sim->cfg.n_ctl < 2)
		return;
	for (k = 0; k < sim->cfg.n_ctl; k++)
		sim->c.ctl_flow_mods[k] = metrics_counter(sim->m,
		    of_ctl_flow_mod_names[k]);
	sim->ph[OFP_FAILOVER] = metrics_phase(sim->m, "failover", "openflow");
	sim->ph[OFP_FAILOVER]->target = sim->cfg.switches;
}

static void
of_phases_init(struct of_sim *sim)
{
	struct metrics	*m = sim->m;
	uint64_t	 now = clock_ns();

	/* Only the phases this run can see: confirm needs a flow count to
	 * reach, packet_in a load to make. */
	sim->ph[OFP_CONNECT] = metrics_phase(m, "connect", "openflow");
	sim->ph[OFP_PROGRAM] = metrics_phase(m, "program", "openflow");
	if (sim->cfg.nb.url != NULL) {
		/* Each southbound phase beside its northbound side; confirm
		 * belongs to the northbound driver (the inventory). */
		metrics_phase(m, NB_PHASE_PROGRAM, "northbound");
		metrics_phase(m, NB_PHASE_CONFIRM, "northbound");
	} else if (sim->cfg.expect_flows > 0)
		sim->ph[OFP_CONFIRM] = metrics_phase(m, "confirm", "openflow");
	sim->ph[OFP_DELETE] = metrics_phase(m, "delete", "openflow");
	if (sim->cfg.nb.url != NULL) {
		metrics_phase(m, NB_PHASE_DELETE, "northbound");
		metrics_phase(m, NB_PHASE_CONFIRM_DELETE, "northbound");
	}
	if (sim->cfg.pktin != OF_PKTIN_OFF)
		sim->ph[OFP_PACKET_IN] = metrics_phase(m, "packet_in",
		    "openflow");
	sim->ph[OFP_CONNECT]->target = (uint64_t)sim->cfg.switches *
	    sim->cfg.n_ctl;
	/* Program is what --expect-flows asks for; delete only when the
	 * run asked for it (--expect-delete, or a northbound that deletes):
	 * one of them still PENDING at the end fails the run. */
	if (sim->cfg.expect_flows > 0)
		phase_expect(sim->ph[OFP_PROGRAM], sim->cfg.expect_flows);
	sim->ph[OFP_DELETE]->target = sim->cfg.expect_flows;
	if (sim->cfg.expect_delete || (sim->cfg.nb.url != NULL &&
	    !sim->cfg.nb.no_delete))
		phase_expect(sim->ph[OFP_DELETE], sim->cfg.expect_flows);
	if (sim->ph[OFP_CONFIRM] != NULL) {
		sim->ph[OFP_CONFIRM]->target = sim->cfg.expect_flows;
		/* Only a controller that reads flows back drives it. */
		sim->ph[OFP_CONFIRM]->optional = 1;
	}
	if (sim->cfg.pktin_count > 0)
		sim->ph[OFP_PACKET_IN]->target =
		    sim->cfg.pktin_count * sim->cfg.switches;
	of_gm_phases_init(sim);
	phase_start(sim->ph[OFP_CONNECT], now);
	of_cluster_init(sim, now);
}

/* One pool per controller, each over its connections of the array. */
static int
of_pools_start(struct of_sim *sim, char *err, size_t errlen)
{
	unsigned	k;

	for (k = 0; k < sim->cfg.n_ctl; k++)
		pool_init_array(of_pool(sim, k), of_pcfg(sim, k),
		    &of_switch_ops, of_switch_conn(sim, 0, k),
		    sizeof(*sim->sw), offsetof(struct of_switch, pd),
		    sim->cfg.switches);
	for (k = 0; k < sim->cfg.n_ctl; k++)
		if (pool_start(of_pool(sim, k), err, errlen) == -1)
			return -1;
	return 0;
}

/* The first add (deleting 0) or delete request: the southbound side of
 * program or delete is timed from it. */
static void
of_nb_hook(void *arg, int deleting, uint64_t now)
{
	struct of_sim	*sim = arg;
	struct phase	*ph = sim->ph[deleting ? OFP_DELETE : OFP_PROGRAM];

	if (ph->state == PHASE_PENDING)
		phase_start(ph, now);
}

static void
of_nb_new(struct of_sim *sim)
{
	uint32_t	i;
	char		id[NB_NODE_MAX];

	sim->nb_begun = 0;
	sim->nb_nodes = xcalloc(sim->cfg.switches, sizeof(*sim->nb_nodes));
	for (i = 0; i < sim->cfg.switches; i++) {
		snprintf(id, sizeof(id), "openflow:%llu",
		    (unsigned long long)(sim->cfg.dpid_base + i));
		if ((sim->nb_nodes[i] = strdup(id)) == NULL)
			fatal("strdup");
	}
	sim->nb = nb_new(&sim->cfg.nb, sim->m, sim->nb_nodes,
	    sim->cfg.switches, of_nb_hook, sim);
	of_gm_nb_new(sim);
}

static int
of_start(void *arg, struct metrics *m, char *err, size_t errlen)
{
	struct of_sim	*sim = arg;
	uint32_t	 i;
	unsigned	 k;

	sim->m = m;
	sim->total_flows = 0;
	sim->up = 0;
	sim->timed = NULL;
	sim->program_done_ns = 0;
	sim->confirm_lost = 0;
	sim->pktin_asked = sim->pktin_answered = 0;
	sim->warned_version = 0;
	sim->last_sweep_ns = clock_ns();
	METRICS_COUNTERS(m, of_counter_rows, &sim->c);
	of_phases_init(sim);
	if (sim->cfg.nb.url != NULL)
		of_nb_new(sim);
	sim->sw = xcalloc((size_t)sim->cfg.switches * sim->cfg.n_ctl,
	    sizeof(*sim->sw));
	for (k = 0; k < sim->cfg.n_ctl; k++)
		for (i = 0; i < sim->cfg.switches; i++)
			of_switch_init(sim, i, k);
	return of_pools_start(sim, err, errlen);
}

/* Program done: delete waits for the first removal. */
static void
of_program_done(struct of_sim *sim, uint64_t now)
{
	struct phase	*prog = sim->ph[OFP_PROGRAM];

	if (prog->state == PHASE_RUNNING)
		phase_end(prog, now, PHASE_DONE);
	sim->program_done_ns = prog->end_ns ? prog->end_ns : now;
}

/*
 * End a phase the controller stopped feeding.  One that never saw an item
 * (the controller never read stats back, or never deleted) goes back to
 * PENDING, reported as not observed rather than failed.
 */
static void
of_phase_abandon(struct phase *ph, uint64_t now)
{
	if (ph->items == 0) {
		ph->state = PHASE_PENDING;
		ph->trigger_ns = 0;
	} else
		phase_end(ph, now, PHASE_TIMEOUT);
}

/* The program / confirm / delete sequence of --expect-flows; 1: over. */
static int
of_tick_flows(struct of_sim *sim, uint64_t now)
{
	struct phase	*prog = sim->ph[OFP_PROGRAM];
	struct phase	*conf = sim->ph[OFP_CONFIRM];
	struct phase	*del = sim->ph[OFP_DELETE];
	uint64_t	 idle_since;

	/* phase_items() ends it at the target count of adds; the count of
	 * flows held is what --expect-flows means, so check both. */
	if ((prog->state == PHASE_RUNNING &&
	    sim->total_flows >= sim->cfg.expect_flows) ||
	    (prog->state == PHASE_DONE && sim->program_done_ns == 0))
		of_program_done(sim, now);
	run_phase_timeout(prog, now, sim->phase_timeout);
	if (prog->state == PHASE_TIMEOUT)
		return 1;
	if (prog->state != PHASE_DONE)
		return 0;
	/* Once a switch lost flows it held unconfirmed, stats can no
	 * longer confirm everything.  Switches already read back may be
	 * emptied meanwhile: a controller (or one of its workers) deletes
	 * a switch once its own stats are in, not after everyone's. */
	if (conf->state == PHASE_RUNNING && (sim->confirm_lost ||
	    run_phase_timed_out(conf, now, sim->phase_timeout)))
		of_phase_abandon(conf, now);
	if (del->state == PHASE_RUNNING && sim->total_flows == 0)
		phase_end(del, now, PHASE_DONE);
	run_phase_timeout(del, now, sim->phase_timeout);
	idle_since = conf->last_ns > sim->program_done_ns ? conf->last_ns :
	    sim->program_done_ns;
	if (del->state == PHASE_PENDING && conf->state != PHASE_RUNNING &&
	    (double)(now - idle_since) / 1e9 > sim->phase_timeout)
		return 1;	/* the controller never deleted */
	return conf->state != PHASE_RUNNING && phase_over(del);
}

/*
 * With --northbound: the driver runs its own sequence once connect is
 * done; the switches' side of program and delete ends when they hold F
 * flows, then none.  1: over.
 */
static int
of_tick_nb(struct of_sim *sim, uint64_t now)
{
	struct phase	*conn = sim->ph[OFP_CONNECT];
	struct phase	*prog = sim->ph[OFP_PROGRAM];
	struct phase	*del = sim->ph[OFP_DELETE];
	char		 err[256];
	int		 gm_over;

	if (!sim->nb_begun) {
		if (conn->state == PHASE_TIMEOUT)
			return 1;
		if (conn->state != PHASE_DONE)
			return 0;
		sim->nb_begun = 1;
		if (nb_begin(sim->nb, now, err, sizeof(err)) == -1) {
			log_warnx("%s", err);
			return 1;
		}
		if (of_gm_nb_begin(sim, now) == -1)
			return 1;
	}
	gm_over = of_gm_nb_tick(sim, now);
	if (prog->state == PHASE_RUNNING &&
	    sim->total_flows >= sim->cfg.expect_flows)
		phase_end(prog, now, PHASE_DONE);
	run_phase_timeout(prog, now, sim->phase_timeout);
	if (del->state == PHASE_RUNNING && sim->total_flows == 0)
		phase_end(del, now, PHASE_DONE);
	run_phase_timeout(del, now, sim->phase_timeout);
	return nb_tick(sim->nb, now) && gm_over &&
	    prog->state != PHASE_RUNNING && del->state != PHASE_RUNNING;
}

/*
 * A phase the run needs that never began (no FLOW_MOD ever came, no
 * switch ever made PACKET_INs): once connect is over and --timeout more
 * seconds have passed, it is over too, timed out with nothing.
 */
void
of_never_began(struct phase *ph, const struct phase *connect, uint64_t now,
    double timeout)
{
	if (ph == NULL || ph->state != PHASE_PENDING ||
	    !phase_over(connect) ||
	    (double)(now - connect->end_ns) / 1e9 <= timeout)
		return;
	phase_start(ph, connect->end_ns);
	phase_end(ph, now, PHASE_TIMEOUT);
}

/*
 * Several controllers: each connect.cN times out as connect does; a
 * failover that began (a master's connection dropped) keeps the run
 * going until every switch has a new master's FLOW_MOD, or --timeout
 * passed without one.  1: nothing of the cluster's is running.
 */
static int
of_tick_cluster(struct of_sim *sim, uint64_t now)
{
	struct phase	*fo = sim->ph[OFP_FAILOVER];
	unsigned	 k;

	for (k = 0; k < sim->cfg.n_ctl; k++)
		run_phase_timeout(sim->ph_connect[k], now,
		    sim->phase_timeout);
	run_phase_timeout(fo, now, sim->phase_timeout);
	return fo->state != PHASE_RUNNING;
}

static int
of_tick(void *arg, uint64_t now)
{
	struct of_sim	*sim = arg;
	struct phase	**ph = sim->ph;
	int		 complete;

	if (now - sim->last_sweep_ns >= 1000000000ull) {
		sim->last_sweep_ns = now;
		of_switch_sweep(sim, now);
	}
	run_phase_timeout(ph[OFP_CONNECT], now, sim->phase_timeout);
	complete = phase_over(ph[OFP_CONNECT]);
	if (sim->cfg.n_ctl > 1)
		complete = of_tick_cluster(sim, now) && complete;
	if (sim->nb != NULL)
		complete = of_tick_nb(sim, now) && complete;
	else if (sim->cfg.expect_flows > 0)
		of_never_began(ph[OFP_PROGRAM], ph[OFP_CONNECT], now,
		    sim->phase_timeout);
	of_never_began(ph[OFP_PACKET_IN], ph[OFP_CONNECT], now,
	    sim->phase_timeout);
	if (sim->nb == NULL && sim->cfg.expect_flows > 0)
		complete = of_tick_flows(sim, now) && complete;
	complete = of_gm_tick(sim, now) && complete;
	if (sim->cfg.pktin != OF_PKTIN_OFF) {
		run_phase_timeout(ph[OFP_PACKET_IN], now, sim->phase_timeout);
		complete = complete && sim->cfg.pktin_count > 0 &&
		    phase_over(ph[OFP_PACKET_IN]);
	}
	return complete;
}

/* Every pool stopped; the run's connect counters sum them all. */
static void
of_pools_stop(struct of_sim *sim)
{
	struct pool_stats	sum;
	struct pool		*p;
	unsigned		k;

	memset(&sum, 0, sizeof(sum));
	for (k = 0; k < sim->cfg.n_ctl; k++) {
		p = of_pool(sim, k);
		pool_stop(p);
		pool_stats_add(&sum, p);
	}
	pool_stats_counted(&sum, sim->m);
}

static void
of_stop(void *arg)
{
	struct of_sim	*sim = arg;
	uint32_t	 i;
	unsigned	 k;

	of_gm_nb_free(sim);
	nb_free_nodes(&sim->nb, &sim->nb_nodes, sim->cfg.switches);
	of_topo_moves_free(sim);
	if (sim->sw == NULL)
		return;
	of_pktin_verdict(sim);
	of_pools_stop(sim);
	for (i = 0; i < sim->cfg.switches * sim->cfg.n_ctl; i++)
		of_switch_free(&sim->sw[i]);
	for (k = 0; k < sim->cfg.n_ctl; k++)
		pool_free(of_pool(sim, k));
	free(sim->sw);
	sim->sw = NULL;
}

static const char *const of_phase_names[] = {
	"connect", "program", "confirm", "delete", "packet_in", "failover",
	"connect.c1", "connect.c2", "connect.c3", "connect.c4",
	"connect.c5", "connect.c6", "connect.c7", "connect.c8",
	NB_PHASE_PROGRAM, NB_PHASE_DELETE, NB_PHASE_CONFIRM_DELETE, NULL
};

static const struct sim_ops of_sim_ops = SIM_OPS(of, "openflow", switches);

static void
of_pool_config_one(struct pool_config *pc, const struct run_opts *ro,
    const char *ep, unsigned kinds, const char *kinds_msg)
{
	char	err[256];

	/* A source address may serve several switches (the pool wraps
	 * around the range): no count to check. */
	run_pool_config(pc, ro, "--controller", ep, kinds, kinds_msg, 0);
	if (pc->ep.kind == EP_SSL && (pc->ssl = pool_ssl_ctx(ro->ssl_key,
	    ro->ssl_cert, ro->ssl_ca, err, sizeof(err))) == NULL)
		cli_die(ro, "%s", err);
}

/*
 * --controller EP[,EP...]: one pool per controller.  Several controllers
 * are a cluster (1.3.5 section 6.3.6): each switch connects to every one
 * (tcp: or ssl:; a listening switch takes one controller), and roles are
 * OpenFlow 1.3's and later's, so the switches speak those only (1.0 is
 * dropped from the list).
 */
#define OF_ROLE_VERSIONS	((1u << OF_VERSION_13) | (1u << OF_VERSION_14) | \
	(1u << OF_VERSION_15))
static void
of_pool_config(struct of_sim *sim, const struct run_opts *ro)
{
	const char	*eps[OF_MAX_CONTROLLERS];
	char		*copy;
	unsigned	 k, n;

	n = cli_controllers(ro, "controller", OF_MAX_CONTROLLERS, eps, &copy);
	sim->cfg.n_ctl = n;
	if (n == 1) {
		of_pool_config_one(&sim->pcfg, ro, eps[0],
		    (1u << EP_TCP) | (1u << EP_SSL) | (1u << EP_PTCP),
		    "tcp:IP:PORT, ssl:IP:PORT or ptcp:PORT[:IP]");
		return;
	}
	sim->pcfg_more = xcalloc(OF_MAX_CONTROLLERS - 1,
	    sizeof(*sim->pcfg_more));
	sim->pool_more = xcalloc(OF_MAX_CONTROLLERS - 1,
	    sizeof(*sim->pool_more));
	for (k = 0; k < n; k++)
		of_pool_config_one(of_pcfg(sim, k), ro, eps[k],
		    (1u << EP_TCP) | (1u << EP_SSL), "tcp:IP:PORT or "
		    "ssl:IP:PORT (several controllers: switches connect)");
	free(copy);
	if (!(sim->cfg.version_bitmap & OF_ROLE_VERSIONS))
		cli_die(ro, "--controller with several controllers needs "
		    "OpenFlow 1.3, 1.4 or 1.5 (roles; 1.0 has none)");
	sim->cfg.version_bitmap &= OF_ROLE_VERSIONS;
}

/* The --northbound options checked together (exit 2 when bad). */
static void
of_nb_config(struct of_config *cfg, unsigned nb_given,
    const struct run_opts *ro)
{
	char	err[256];
	int	k;

	for (k = 0; k < 2; k++) {
		if (cfg->nb_gm[k] == 0)
			continue;
		if (!(nb_given & NB_GIVEN_URL))
			cli_die(ro, "--%s-per-switch needs --northbound",
			    k ? "meters" : "groups");
		if (cfg->expect_gm[k] != 0 && cfg->expect_gm[k] !=
		    (uint64_t)cfg->nb_gm[k] * cfg->switches)
			cli_die(ro, "--expect-%s is --%s-per-switch times "
			    "--switches", k ? "meters" : "groups",
			    k ? "meters" : "groups");
		cfg->expect_gm[k] = (uint64_t)cfg->nb_gm[k] * cfg->switches;
	}
	if (!(nb_given & NB_GIVEN_ANY))
		return;
	if (nb_check(&cfg->nb, err, sizeof(err)) == -1)
		cli_die(ro, "%s", err);
	if (cfg->expect_flows != 0 && cfg->expect_flows != cfg->nb.flows)
		cli_die(ro, "--expect-flows %llu and --flows %llu differ",
		    (unsigned long long)cfg->expect_flows,
		    (unsigned long long)cfg->nb.flows);
	if (cfg->nb.table >= cfg->tables)
		cli_die(ro, "--flow-table %u: the switches have %u tables",
		    cfg->nb.table, cfg->tables);
	cfg->expect_flows = cfg->nb.flows;
	cfg->nb.timeout_s = ro->phase_timeout;
}

static void
of_parse(int argc, char **argv, struct of_config *cfg, unsigned *nb_given,
    struct run_opts *ro)
{
	struct opt_group	groups[] = {
		{ NULL, of_rows, cfg, NULL },
		{ "northbound (sbsim pushes the flows through the controller's "
		    "REST API):", nb_opt_rows, &cfg->nb, nb_given },
		{ NULL, of_nb_rows, &cfg->nb, nb_given },
	};

	*nb_given = 0;
	cli_parse_groups(argc, argv, groups, sizeof(groups) /
	    sizeof(groups[0]), ro, of_usage);
}

/*
 * --shard I/N: this process runs switches [first, first + count) of the
 * run's --switches, with the datapath ids, source addresses and ptcp:
 * ports they have in the whole run; --expect-flows is the whole run's,
 * of which the slice expects its share.  With --northbound the slice
 * pushes its switches' share of --flows, numbered as in the whole run
 * (the same flow ids and addresses on the same nodes), over its share
 * of --northbound-parallel (one connection at least).  A topology links
 * switches across slices: not yet.
 */
static void
of_shard_check(const struct of_sim *sim, const struct run_opts *ro,
    unsigned nb_given)
{
	run_shard_refuse(ro, sim->cfg.topo != OF_TOPO_NONE, "--topology (its "
	    "links cross the slices)");
	run_shard_even(ro, "--expect-flows", sim->cfg.expect_flows,
	    sim->cfg.switches);
}

static void
of_shard(struct of_sim *sim, const struct run_opts *ro)
{
	uint32_t	first, count, total = sim->cfg.switches;
	unsigned	k;

	if (!run_shard_slice(ro, "--switches", total, &first, &count))
		return;
	sim->cfg.expect_flows = run_shard_share(ro, "--expect-flows",
	    sim->cfg.expect_flows, count, total);
	if (sim->cfg.nb.url != NULL)
		nb_shard(&sim->cfg.nb, ro, first, count, total);
	sim->cfg.switches = count;
	sim->cfg.dpid_base += first;
	for (k = 0; k < sim->cfg.n_ctl; k++)
		of_pcfg(sim, k)->index_base = first;
}

static void
of_free_pools(struct of_sim *sim)
{
	unsigned	k;

	for (k = 0; k < sim->cfg.n_ctl; k++)
		if (of_pcfg(sim, k)->ssl != NULL)
			SSL_CTX_free(of_pcfg(sim, k)->ssl);
	free(sim->pcfg_more);
	free(sim->pool_more);
}

static int
openflow_main(int argc, char **argv)
{
	struct of_sim	*sim = run_sim_new(sizeof(*sim));
	struct run_opts	 ro;
	unsigned	 nb_given;
	char		 err[256];
	int		 rc;

	of_config_defaults(&sim->cfg);
	of_parse(argc, argv, &sim->cfg, &nb_given, &ro);
	log_init("sbsim", ro.verbose);
	if (sim->cfg.switches == 0)
		cli_die(&ro, "--switches N is required");
	if (sim->cfg.expect_delete && sim->cfg.expect_flows == 0)
		cli_die(&ro, "--expect-delete needs --expect-flows");
	if (sim->cfg.topo != OF_TOPO_NONE &&
	    of_topo_check(&sim->cfg, err, sizeof(err)) == -1)
		cli_die(&ro, "%s", err);
	of_pool_config(sim, &ro);
	/* Each connection would make its own load, counted against one
	 * target: not a figure anyone could read. */
	if (sim->cfg.n_ctl > 1 && sim->cfg.pktin != OF_PKTIN_OFF)
		cli_die(&ro, "--packet-in takes one --controller");
	run_listen_ports(&sim->pcfg, &ro, sim->cfg.switches, "switches");
	sim->phase_timeout = ro.phase_timeout;
	of_nb_config(&sim->cfg, nb_given, &ro);
	of_shard_check(sim, &ro, nb_given);
	if (run_workers(&of_sim_ops, sim, &ro, "switches", sim->cfg.switches,
	    &rc) == 1) {
		of_free_pools(sim);
		return rc;
	}
	of_shard(sim, &ro);
	rc = run_main(&of_sim_ops, sim, &ro);
	of_free_pools(sim);
	return rc;
}

const struct sbsim_cmd openflow_cmd = {
	"openflow",
	"simulate OpenFlow 1.3/1.0 switches",
	openflow_main,
};
