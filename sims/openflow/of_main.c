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
 * controller's REST API once connect is done (src/northbound.h): program
 * and delete are then triggered by the first add / delete request and
 * still count FLOW_MODs at the switches; confirm polls the controller's
 * operational inventory instead of watching flow stats; nb_program and
 * nb_delete time the HTTP requests; confirm_delete polls the inventory
 * until it is empty.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "log.h"
#include "of_sim.h"
#include "run.h"

enum {
	OO_SWITCHES = 256,
	OO_VERSION,
	OO_DPID,
	OO_PORTS,
	OO_TABLES,
	OO_TABLE_SIZE,
	OO_EXPECT_FLOWS,
	OO_TOPOLOGY,
	OO_PACKET_IN,
	OO_MACS,
	OO_WINDOW,
	OO_PKTIN_COUNT,
	OO_ECHO,
	OO_MP_BYTES,
	OO_NB,
	OO_NB_FLOWS,
	OO_NB_PER_REQ,
	OO_NB_PARALLEL,
	OO_NB_USER,
	OO_NB_PASSWORD,
	OO_NB_STYLE,
	OO_NB_FORMAT,
	OO_NB_TABLE,
};

static const struct option of_opts[] = {
	{ "switches",		required_argument, NULL, OO_SWITCHES },
	{ "of-version",		required_argument, NULL, OO_VERSION },
	{ "dpid-base",		required_argument, NULL, OO_DPID },
	{ "ports",		required_argument, NULL, OO_PORTS },
	{ "tables",		required_argument, NULL, OO_TABLES },
	{ "table-size",		required_argument, NULL, OO_TABLE_SIZE },
	{ "expect-flows",	required_argument, NULL, OO_EXPECT_FLOWS },
	{ "topology",		required_argument, NULL, OO_TOPOLOGY },
	{ "packet-in",		required_argument, NULL, OO_PACKET_IN },
	{ "macs",		required_argument, NULL, OO_MACS },
	{ "packet-in-window",	required_argument, NULL, OO_WINDOW },
	{ "packet-in-count",	required_argument, NULL, OO_PKTIN_COUNT },
	{ "echo-interval",	required_argument, NULL, OO_ECHO },
	{ "multipart-bytes",	required_argument, NULL, OO_MP_BYTES },
	{ "northbound",		required_argument, NULL, OO_NB },
	{ "flows",		required_argument, NULL, OO_NB_FLOWS },
	{ "flows-per-request",	required_argument, NULL, OO_NB_PER_REQ },
	{ "northbound-parallel", required_argument, NULL, OO_NB_PARALLEL },
	{ "northbound-user",	required_argument, NULL, OO_NB_USER },
	{ "northbound-password", required_argument, NULL, OO_NB_PASSWORD },
	{ "northbound-style",	required_argument, NULL, OO_NB_STYLE },
	{ "northbound-format",	required_argument, NULL, OO_NB_FORMAT },
	{ "flow-table",		required_argument, NULL, OO_NB_TABLE },
	{ NULL, 0, NULL, 0 },
};

static const char of_help[] =
"usage: sbsim openflow --switches N --controller EP [options]\n"
"OpenFlow 1.3 and 1.0 switches against a controller.\n"
"  --switches N           switches to simulate (required)\n"
"  --of-version V[,V]     1.3, 1.0 or both (default 1.3,1.0; highest wins)\n"
"  --dpid-base N          datapath id of the first switch (default 1)\n"
"  --ports N              ports per switch (default 4)\n"
"  --tables N             flow tables per switch (default 254)\n"
"  --table-size N         flows a table holds (default 1000000)\n"
"  --expect-flows N       program ends when the switches hold N flows,\n"
"                         delete when they hold none again\n"
"  --topology T           none, linear, ring or tree[:FANOUT] (LLDP links)\n"
"  --packet-in MODE       latency or throughput (cbench-style load)\n"
"  --macs N               source MACs per switch for PACKET_IN (default 1000)\n"
"  --packet-in-window N   outstanding PACKET_INs in throughput mode (64;\n"
"                         rounded up to a power of two)\n"
"  --packet-in-count N    PACKET_INs per switch (default: until the end)\n"
"  --echo-interval S      ECHO the controller after S idle seconds (5)\n"
"  --multipart-bytes N    largest multipart reply message (default 65535)\n"
"northbound (sbsim pushes the flows through the controller's REST API):\n"
"  --northbound URL       odl:http://IP:PORT (OpenDaylight RESTCONF)\n"
"  --flows F              flows to push, spread evenly over the switches\n"
"  --flows-per-request K  1: PUT each flow; more: POST batches of K (1)\n"
"  --northbound-parallel P  requests in flight (default 1)\n"
"  --northbound-user U    basic auth user (default admin)\n"
"  --northbound-password P  basic auth password (default admin)\n"
"  --northbound-style S   rfc8040 (/rests/data) or draft (/restconf)\n"
"  --northbound-format F  json or xml (default json; xml: K must be 1)\n"
"  --flow-table T         table the flows go to (default 0)\n"
CLI_COMMON_OPTS_HELP;

static struct of_sim	the_sim;
static const struct nb_driver *const of_nb_drivers[] = {
	&nb_odl_driver, NULL
};

static int
of_parse_topology(const char *arg, struct of_config *cfg, char *err,
    size_t errlen)
{
	uint64_t	k;

	if (strcmp(arg, "none") == 0)
		cfg->topo = OF_TOPO_NONE;
	else if (strcmp(arg, "linear") == 0)
		cfg->topo = OF_TOPO_LINEAR;
	else if (strcmp(arg, "ring") == 0)
		cfg->topo = OF_TOPO_RING;
	else if (strcmp(arg, "tree") == 0)
		cfg->topo = OF_TOPO_TREE;
	else if (strncmp(arg, "tree:", 5) == 0) {
		if (cli_uint("topology tree:", arg + 5, 1, 1000, &k, err,
		    errlen) == -1)
			return -1;
		cfg->topo = OF_TOPO_TREE;
		cfg->tree_fanout = (uint32_t)k;
	} else {
		snprintf(err, errlen, "--topology: '%s' is not none, linear, "
		    "ring or tree[:FANOUT]", arg);
		return -1;
	}
	return 0;
}

/* The --northbound options; 1 when opt is not one of them. */
static int
of_nb_option(int opt, const char *arg, struct of_config *cfg, char *err,
    size_t errlen)
{
	struct nb_opts	*o = &cfg->nb;
	uint64_t	 u;
	int		 rc = 0;

	cfg->nb_any = 1;
	switch (opt) {
	case OO_NB:
		cfg->nb_url = arg;
		return nb_parse_url(arg, o, err, errlen);
	case OO_NB_FLOWS:
		/* Each flow gets its own 10.x.y.z/32. */
		return cli_uint("flows", arg, 1, 0xfffffe, &o->flows, err,
		    errlen);
	case OO_NB_PER_REQ:
		rc = cli_uint("flows-per-request", arg, 1, 100000, &u, err,
		    errlen);
		o->per_request = (uint32_t)u;
		break;
	case OO_NB_PARALLEL:
		return nb_common_option(o, "northbound-parallel", arg, err,
		    errlen);
	case OO_NB_USER:
		return nb_common_option(o, "northbound-user", arg, err, errlen);
	case OO_NB_PASSWORD:
		return nb_common_option(o, "northbound-password", arg, err,
		    errlen);
	case OO_NB_STYLE:
		return nb_common_option(o, "northbound-style", arg, err, errlen);
	case OO_NB_FORMAT:
		return nb_common_option(o, "northbound-format", arg, err,
		    errlen);
	case OO_NB_TABLE:
		rc = cli_uint("flow-table", arg, 0, 253, &u, err, errlen);
		o->table = (uint8_t)u;
		break;
	default:
		return 1;
	}
	return rc;
}

static int
of_option(int opt, const char *arg, void *ctx, char *err, size_t errlen)
{
	struct of_config	*cfg = ctx;
	uint64_t		 u;
	int			 rc = 0;

	if (opt >= OO_NB && (rc = of_nb_option(opt, arg, cfg, err,
	    errlen)) != 1)
		return rc;
	rc = 0;
	switch (opt) {
	case OO_SWITCHES:
		rc = cli_uint("switches", arg, 1, 1000000, &u, err, errlen);
		cfg->switches = (uint32_t)u;
		break;
	case OO_VERSION:
		return of_version_parse(arg, &cfg->version_bitmap, err, errlen);
	case OO_DPID:
		return cli_uint("dpid-base", arg, 0, UINT64_MAX, &cfg->dpid_base,
		    err, errlen);
	case OO_PORTS:
		rc = cli_uint("ports", arg, 1, 64, &u, err, errlen);
		cfg->ports = (uint32_t)u;
		break;
	case OO_TABLES:
		rc = cli_uint("tables", arg, 1, 254, &u, err, errlen);
		cfg->tables = (uint8_t)u;
		break;
	case OO_TABLE_SIZE:
		rc = cli_uint("table-size", arg, 1, 100000000, &u, err, errlen);
		cfg->table_size = (uint32_t)u;
		break;
	case OO_EXPECT_FLOWS:
		return cli_uint("expect-flows", arg, 1, UINT64_MAX / 2,
		    &cfg->expect_flows, err, errlen);
	case OO_TOPOLOGY:
		return of_parse_topology(arg, cfg, err, errlen);
	case OO_PACKET_IN:
		if (strcmp(arg, "latency") == 0)
			cfg->pktin = OF_PKTIN_LATENCY;
		else if (strcmp(arg, "throughput") == 0)
			cfg->pktin = OF_PKTIN_THROUGHPUT;
		else {
			snprintf(err, errlen, "--packet-in: '%s' is not "
			    "latency or throughput", arg);
			return -1;
		}
		break;
	case OO_MACS:
		rc = cli_uint("macs", arg, 1, 65536, &u, err, errlen);
		cfg->macs = (uint32_t)u;
		break;
	case OO_WINDOW:
		rc = cli_uint("packet-in-window", arg, 1, 65536, &u, err,
		    errlen);
		cfg->pktin_window = (uint32_t)u;
		break;
	case OO_PKTIN_COUNT:
		return cli_uint("packet-in-count", arg, 1, UINT64_MAX / 2,
		    &cfg->pktin_count, err, errlen);
	case OO_ECHO:
		return cli_double("echo-interval", arg, 0, 3600,
		    &cfg->echo_interval, err, errlen);
	case OO_MP_BYTES:
		rc = cli_uint("multipart-bytes", arg, 1024, 65535, &u, err,
		    errlen);
		cfg->mp_max_bytes = (uint32_t)u;
		break;
	}
	return rc;
}

static void
of_config_defaults(struct of_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->version_bitmap = (1u << OF_VERSION_13) | (1u << OF_VERSION_10);
	cfg->dpid_base = 1;
	cfg->ports = 4;
	cfg->tables = 254;
	cfg->table_size = 1000000;
	cfg->tree_fanout = 2;
	cfg->macs = 1000;
	cfg->pktin_window = 64;
	cfg->echo_interval = 5;
	cfg->mp_max_bytes = 65535;
	nb_opts_defaults(&cfg->nb);
	cfg->nb.drivers = of_nb_drivers;
}

static uint32_t
of_fds_needed(void *arg)
{
	struct of_sim	*sim = arg;

	return pool_fds_needed(&sim->pcfg, sim->cfg.switches) +
	    (sim->cfg.nb_url != NULL ? sim->cfg.nb.parallel : 0);
}

static void
of_counters_init(struct of_sim *sim)
{
	struct metrics		*m = sim->m;
	struct of_counters	*c = &sim->c;

	c->rx_msgs = metrics_counter(m, "rx_messages");
	c->tx_msgs = metrics_counter(m, "tx_messages");
	c->errors_sent = metrics_counter(m, "errors_sent");
	c->errors_received = metrics_counter(m, "errors_received");
	c->decode_errors = metrics_counter(m, "decode_errors");
	c->flow_mods = metrics_counter(m, "flow_mods");
	c->flow_mod_errors = metrics_counter(m, "flow_mod_errors");
	c->flows_added = metrics_counter(m, "flows_added");
	c->flows_modified = metrics_counter(m, "flows_modified");
	c->flows_deleted = metrics_counter(m, "flows_deleted");
	c->flows_expired = metrics_counter(m, "flows_expired");
	c->flow_removed_sent = metrics_counter(m, "flow_removed_sent");
	c->stats_requests = metrics_counter(m, "stats_requests");
	c->barriers = metrics_counter(m, "barriers");
	c->packet_outs = metrics_counter(m, "packet_outs");
	c->lldp_forwarded = metrics_counter(m, "lldp_forwarded");
	c->packet_ins_sent = metrics_counter(m, "packet_ins_sent");
	c->echo_rtt_samples = metrics_counter(m, "echo_replies");
	c->disconnects = metrics_counter(m, "disconnects");
	c->role_changes = metrics_counter(m, "role_changes");
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
	if (sim->cfg.nb_url != NULL) {
		/* Each southbound phase beside its northbound side; confirm
		 * belongs to the northbound driver (the inventory). */
		metrics_phase(m, NB_PHASE_PROGRAM, "northbound");
		metrics_phase(m, NB_PHASE_CONFIRM, "northbound");
	} else if (sim->cfg.expect_flows > 0)
		sim->ph[OFP_CONFIRM] = metrics_phase(m, "confirm", "openflow");
	sim->ph[OFP_DELETE] = metrics_phase(m, "delete", "openflow");
	if (sim->cfg.nb_url != NULL) {
		metrics_phase(m, NB_PHASE_DELETE, "northbound");
		metrics_phase(m, NB_PHASE_CONFIRM_DELETE, "northbound");
	}
	if (sim->cfg.pktin != OF_PKTIN_OFF)
		sim->ph[OFP_PACKET_IN] = metrics_phase(m, "packet_in",
		    "openflow");
	sim->ph[OFP_CONNECT]->target = sim->cfg.switches;
	sim->ph[OFP_PROGRAM]->target = sim->cfg.expect_flows;
	sim->ph[OFP_DELETE]->target = sim->cfg.expect_flows;
	if (sim->ph[OFP_CONFIRM] != NULL)
		sim->ph[OFP_CONFIRM]->target = sim->cfg.expect_flows;
	if (sim->cfg.pktin_count > 0)
		sim->ph[OFP_PACKET_IN]->target =
		    sim->cfg.pktin_count * sim->cfg.switches;
	phase_start(sim->ph[OFP_CONNECT], now);
}

static void
of_switch_init(struct of_sim *sim, struct of_switch *sw, uint32_t i)
{
	memset(sw, 0, sizeof(*sw));
	sw->sim = sim;
	sw->idx = i;
	sw->miss_send_len = 128;
	sw->ports = xcalloc(sim->cfg.ports, sizeof(*sw->ports));
	sim->pdevs[i] = &sw->pd;
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
}

static const struct pool_ops of_pool_ops = {
	of_switch_up,
	of_switch_down,
};

static int
of_start(void *arg, struct metrics *m, char *err, size_t errlen)
{
	struct of_sim	*sim = arg;
	uint32_t	 i;

	sim->m = m;
	sim->total_flows = 0;
	sim->up = 0;
	sim->program_done_ns = 0;
	sim->warned_version = 0;
	sim->last_sweep_ns = clock_ns();
	of_counters_init(sim);
	of_phases_init(sim);
	if (sim->cfg.nb_url != NULL)
		of_nb_new(sim);
	sim->sw = xcalloc(sim->cfg.switches, sizeof(*sim->sw));
	sim->pdevs = xcalloc(sim->cfg.switches, sizeof(*sim->pdevs));
	for (i = 0; i < sim->cfg.switches; i++)
		of_switch_init(sim, &sim->sw[i], i);
	pool_init(&sim->pool, &sim->pcfg, &of_pool_ops, sim->pdevs,
	    sim->cfg.switches);
	return pool_start(&sim->pool, err, errlen);
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

static int
of_phase_over(const struct phase *ph)
{
	return ph->state == PHASE_DONE || ph->state == PHASE_TIMEOUT;
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
	if (run_phase_timed_out(prog, now, sim->phase_timeout))
		phase_end(prog, now, PHASE_TIMEOUT);
	if (prog->state == PHASE_TIMEOUT)
		return 1;
	if (prog->state != PHASE_DONE)
		return 0;
	/* Once removal began, stats can no longer confirm everything. */
	if (conf->state == PHASE_RUNNING && (del->state != PHASE_PENDING ||
	    run_phase_timed_out(conf, now, sim->phase_timeout)))
		of_phase_abandon(conf, now);
	if (del->state == PHASE_RUNNING && sim->total_flows == 0)
		phase_end(del, now, PHASE_DONE);
	if (run_phase_timed_out(del, now, sim->phase_timeout))
		phase_end(del, now, PHASE_TIMEOUT);
	idle_since = conf->last_ns > sim->program_done_ns ? conf->last_ns :
	    sim->program_done_ns;
	if (del->state == PHASE_PENDING && conf->state != PHASE_RUNNING &&
	    (double)(now - idle_since) / 1e9 > sim->phase_timeout)
		return 1;	/* the controller never deleted */
	return conf->state != PHASE_RUNNING && of_phase_over(del);
}

/*
 * A phase the run needs that never began (no FLOW_MOD ever came, no
 * switch ever made PACKET_INs): once connect is over and --timeout more
 * seconds have passed, it is over too, timed out with nothing.
 */
static void
of_never_began(struct phase *ph, const struct phase *connect, uint64_t now,
    double timeout)
{
	if (ph == NULL || ph->state != PHASE_PENDING ||
	    !of_phase_over(connect) ||
	    (double)(now - connect->end_ns) / 1e9 <= timeout)
		return;
	phase_start(ph, connect->end_ns);
	phase_end(ph, now, PHASE_TIMEOUT);
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
	}
	if (prog->state == PHASE_RUNNING &&
	    sim->total_flows >= sim->cfg.expect_flows)
		phase_end(prog, now, PHASE_DONE);
	if (run_phase_timed_out(prog, now, sim->phase_timeout))
		phase_end(prog, now, PHASE_TIMEOUT);
	if (del->state == PHASE_RUNNING && sim->total_flows == 0)
		phase_end(del, now, PHASE_DONE);
	if (run_phase_timed_out(del, now, sim->phase_timeout))
		phase_end(del, now, PHASE_TIMEOUT);
	return nb_tick(sim->nb, now) && prog->state != PHASE_RUNNING &&
	    del->state != PHASE_RUNNING;
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
	if (run_phase_timed_out(ph[OFP_CONNECT], now, sim->phase_timeout))
		phase_end(ph[OFP_CONNECT], now, PHASE_TIMEOUT);
	complete = of_phase_over(ph[OFP_CONNECT]);
	if (sim->nb != NULL)
		complete = of_tick_nb(sim, now) && complete;
	else if (sim->cfg.expect_flows > 0)
		of_never_began(ph[OFP_PROGRAM], ph[OFP_CONNECT], now,
		    sim->phase_timeout);
	of_never_began(ph[OFP_PACKET_IN], ph[OFP_CONNECT], now,
	    sim->phase_timeout);
	if (sim->nb == NULL && sim->cfg.expect_flows > 0)
		complete = of_tick_flows(sim, now) && complete;
	if (sim->cfg.pktin != OF_PKTIN_OFF) {
		if (run_phase_timed_out(ph[OFP_PACKET_IN], now,
		    sim->phase_timeout))
			phase_end(ph[OFP_PACKET_IN], now, PHASE_TIMEOUT);
		complete = complete && sim->cfg.pktin_count > 0 &&
		    of_phase_over(ph[OFP_PACKET_IN]);
	}
	return complete;
}

static void
of_stop(void *arg)
{
	struct of_sim	*sim = arg;
	uint32_t	 i;

	if (sim->nb != NULL) {
		nb_free(sim->nb);
		sim->nb = NULL;
		for (i = 0; i < sim->cfg.switches; i++)
			free(sim->nb_nodes[i]);
		free(sim->nb_nodes);
		sim->nb_nodes = NULL;
	}
	if (sim->sw == NULL)
		return;
	pool_stop(&sim->pool);
	*metrics_counter(sim->m, "connect_attempts") = sim->pool.stats.attempts;
	*metrics_counter(sim->m, "connect_failures") = sim->pool.stats.failures;
	*metrics_counter(sim->m, "passive_replaced") =
	    sim->pool.stats.replaced;
	for (i = 0; i < sim->cfg.switches; i++)
		of_switch_free(&sim->sw[i]);
	free(sim->sw);
	free(sim->pdevs);
	sim->sw = NULL;
	sim->pdevs = NULL;
}

static const char *const of_phase_names[] = {
	"connect", "program", "confirm", "delete", "packet_in",
	NB_PHASE_PROGRAM, NB_PHASE_DELETE, NB_PHASE_CONFIRM_DELETE, NULL
};

static const struct sim_ops of_sim_ops = {
	"openflow",
	of_phase_names,
	of_fds_needed,
	of_start,
	of_tick,
	of_stop,
};

static void
of_pool_config(struct of_sim *sim, const struct run_opts *ro)
{
	struct pool_config	*pc = &sim->pcfg;
	char			 err[256];

	pool_config_defaults(pc);
	if (ro->controller == NULL)
		cli_die(ro, "--controller is required (tcp:IP:PORT, "
		    "ssl:IP:PORT or ptcp:PORT[:IP])");
	if (endpoint_parse(ro->controller, &pc->ep, err, sizeof(err)) == -1)
		cli_die(ro, "--controller: %s", err);
	if (ro->source != NULL) {
		if (endpoint_passive(&pc->ep))
			cli_die(ro, "--source makes no sense with ptcp: (the "
			    "switches listen)");
		if (source_parse(ro->source, &pc->src, err, sizeof(err)) == -1)
			cli_die(ro, "--source: %s", err);
	} else if (!endpoint_passive(&pc->ep) && endpoint_is_loopback(&pc->ep)
	    && pc->ep.ss.ss_family == AF_INET)
		source_parse("127.1.0.0/16", &pc->src, err, sizeof(err));
	if (pc->src.family != AF_UNSPEC &&
	    pc->src.family != pc->ep.ss.ss_family)
		cli_die(ro, "--source %s and --controller %s are of different "
		    "address families", ro->source, ro->controller);
	pc->connect_rate = ro->connect_rate;
	pc->max_inflight = ro->max_inflight;
	pc->backoff_min_ms = ro->backoff_min_ms;
	pc->backoff_max_ms = ro->backoff_max_ms;
	if (pc->ep.kind == EP_SSL && (pc->ssl = pool_ssl_ctx(ro->ssl_key,
	    ro->ssl_cert, ro->ssl_ca, err, sizeof(err))) == NULL)
		cli_die(ro, "%s", err);
}

/* The --northbound options checked together (exit 2 when bad). */
static void
of_nb_config(struct of_config *cfg, const struct run_opts *ro)
{
	char	err[256];

	if (!cfg->nb_any)
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

static int
openflow_main(int argc, char **argv)
{
	struct of_sim	*sim = &the_sim;
	struct run_opts	 ro;
	char		 err[256];
	int		 rc;

	memset(sim, 0, sizeof(*sim));
	of_config_defaults(&sim->cfg);
	cli_parse(argc, argv, of_opts, of_option, &sim->cfg, &ro, of_help);
	log_init("sbsim", ro.verbose);
	if (sim->cfg.switches == 0)
		cli_die(&ro, "--switches N is required");
	if (sim->cfg.topo != OF_TOPO_NONE &&
	    of_topo_check(&sim->cfg, err, sizeof(err)) == -1)
		cli_die(&ro, "%s", err);
	of_pool_config(sim, &ro);
	if (endpoint_passive(&sim->pcfg.ep) &&
	    (uint64_t)sim->pcfg.ep.port + sim->cfg.switches - 1 > 65535)
		cli_die(&ro, "ptcp:%u with %u switches would need ports past "
		    "65535", sim->pcfg.ep.port, sim->cfg.switches);
	sim->phase_timeout = ro.phase_timeout;
	of_nb_config(&sim->cfg, &ro);
	rc = run_main(&of_sim_ops, sim, &ro);
	if (sim->pcfg.ssl != NULL)
		SSL_CTX_free(sim->pcfg.ssl);
	return rc;
}

const struct sbsim_cmd openflow_cmd = {
	"openflow",
	"simulate OpenFlow 1.3/1.0 switches",
	openflow_main,
};
