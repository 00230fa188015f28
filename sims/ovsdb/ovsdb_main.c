/*
 * `sbsim ovsdb`: N OVSDB servers (RFC 7047) with an Open_vSwitch database
 * each, and the phases that time the manager:
 *   connect    active: devices whose session to the manager is up, from
 *              the start; passive: devices the manager connected to, from
 *              the moment they listen (target N)
 *   learn, program, delete   at the devices (ovsdb_phases.c)
 *   bridge_openflow  bridges given a Controller row, from the first such
 *              transact's arrival to each one's OpenFlow handshake
 *              (ovsdb_datapath.c; not with --no-datapath)
 * with --northbound, the controller driven through its RESTCONF
 * (ovsdb_nb.c), and the counters of docs/report.md.  One parsed schema
 * serves every device; each device holds its own database.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "log.h"
#include "opt.h"
#include "ovsdb_nb.h"
#include "ovsdb_phases.h"
#include "ovsdb_sim.h"
#include "run.h"

#define OVSDB_FD_SPARE	16	/* more sessions than one per device */

static const char ovsdb_usage[] =
"usage: sbsim ovsdb --devices N --controller tcp:IP:PORT|ssl:IP:PORT|\n"
"       ptcp:PORT[:IP]|pssl:PORT[:IP] [options]\n"
"OVSDB servers (RFC 7047) with an Open_vSwitch database each, connecting\n"
"to a manager (tcp:, ssl:) or listening for one (ptcp:, pssl:: device i\n"
"on PORT+i, or with --source CIDR on the i-th address of CIDR).\n";


#define OC	struct ovsdb_config
static const struct opt ovsdb_rows[] = {
	OPT_U("devices", "N", OC, devices, 1, 1000000, 0,
	    "devices to simulate (required)"),
	OPT_S("schema", "FILE", OC, schema, 0,
	    "the database schema"),
	OPT_U("bridges-per-node", "B", OC, bridges, 0, 4096, 0,
	    "bridges each device has at the start, br0..,\n"
	    "each with its local port"),
	OPT_U("ports-per-bridge", "P", OC, ports, 0, 65279, 0,
	    "ports of each bridge besides its local one,\n"
	    "brK-p1.."),
	OPT_U("max-sessions", "N", OC, max_sessions, 1, 1000, 0,
	    "passive: sessions one device holds at once"),
	OPT_U("max-message", "BYTES", OC, max_message, 64, 1u << 30, 0,
	    "the longest JSON-RPC message taken; a longer\n"
	    "one closes the session"),
	OPT_U("max-output", "BYTES", OC, max_output, 4096, 1u << 30, 0,
	    "output queued per session before a peer that\n"
	    "does not read is dropped"),
	OPT_U("max-transact-ops", "N", OC, max_transact_ops, 1, 100000000,
	    0, "operations one transact may carry; a larger\n"
	    "one is refused with \"resources exhausted\""),
	OPT_U("max-buffered", "BYTES", OC, max_buffered, 4096, 1u << 31, 0,
	    "input held for all sessions together\n"
	    "(messages on their way); the session that\n"
	    "passes it is closed"),
	OPT_D("message-timeout", "S", OC, message_timeout_s, 0.1, 86400, 0,
	    "close a session whose message is not whole S\n"
	    "seconds after its first byte"),
	OPT_D("inactivity-probe", "S", OC, probe_s, 0, 86400, 0,
	    "an echo request after S seconds of silence,\n"
	    "the session closed after as long again\n"
	    "(0: never)"),
	OPT_U("bridges", "B", OC, mgr_bridges, 1, 65535, 0,
	    "bridges the manager creates on each device:\n"
	    "the program phase's target is N x B (with\n"
	    "--northbound, sbsim has the controller make them)"),
	OPT_F("expect-delete", OC, expect_delete, 0,
	    "the manager deletes those bridges again:\n"
	    "time the delete phase (implied by --northbound)"),
	OPT_U("expect-bridges", "N", OC, expect_bridges, 1, 100000000, 0,
	    "bridge_openflow ends when N bridges' switches\n"
	    "have connected, and the run waits for it",
	    .def = "the switches asked for so far"),
	OPT_F("no-datapath", OC, no_datapath, 0,
	    "a bridge given a Controller row gets no\n"
	    "OpenFlow switch (without it, the switch connects\n"
	    "to the controller, as ovs-vswitchd's would)"),
	OPT_END
};
#undef OC

static void
ovsdb_config_defaults(struct ovsdb_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->schema = OVSDB_DEFAULT_SCHEMA;
	cfg->max_sessions = 8;
	cfg->max_message = 4u << 20;
	cfg->max_output = 16u << 20;
	cfg->probe_s = 5;
	cfg->max_transact_ops = OVSDB_DEFAULT_MAX_OPS;
	cfg->max_buffered = 64u << 20;
	cfg->message_timeout_s = 10;
}

static uint32_t
ovsdb_fds_needed(void *arg)
{
	struct ovsdb_sim	*sim = arg;

	return pool_fds_needed(&sim->pcfg, sim->cfg.devices) +
	    (endpoint_passive(&sim->pcfg.ep) ? OVSDB_FD_SPARE : 0) +
	    nb_fds_needed(&sim->nbc->opts);
}

#define OVSDB_C(field, name)	COUNTER_ROW(struct ovsdb_counters, field, name)
static const struct counter_row ovsdb_counter_rows[] = {
	OVSDB_C(sessions, "sessions"),
	OVSDB_C(sessions_closed, "sessions_closed"),
	OVSDB_C(sessions_refused, "sessions_refused"),
	OVSDB_C(rx_msgs, "rx_messages"),
	OVSDB_C(tx_msgs, "tx_messages"),
	OVSDB_C(transacts, "transacts"),
	OVSDB_C(transact_errors, "transact_errors"),
	OVSDB_C(monitors, "monitors"),
	OVSDB_C(monitor_cancels, "monitor_cancels"),
	OVSDB_C(updates_sent, "updates_sent"),
	OVSDB_C(echo_received, "echo_received"),
	OVSDB_C(echo_sent, "echo_sent"),
	OVSDB_C(echo_replies, "echo_replies"),
	OVSDB_C(locks_granted, "locks_granted"),
	OVSDB_C(locks_stolen, "locks_stolen"),
	OVSDB_C(errors_sent, "errors_sent"),
	OVSDB_C(unknown_methods, "unknown_methods"),
	OVSDB_C(decode_errors, "decode_errors"),
	OVSDB_C(invalid_msgs, "invalid_messages"),
	OVSDB_C(oversized_msgs, "oversized_messages"),
	OVSDB_C(output_overflows, "output_overflows"),
	OVSDB_C(probe_timeouts, "probe_timeouts"),
	OVSDB_C(tls_errors, "tls_errors"),
	OVSDB_C(transacts_refused, "transacts_refused"),
	OVSDB_C(input_overflows, "input_overflows"),
	OVSDB_C(slow_messages, "slow_messages"),
};
#undef OVSDB_C

static const char *const ovsdb_phase_names[] = {
	"connect", "learn", "program", "delete", "bridge_openflow",
	OVSDB_NB_PHASE_NAMES, NULL
};

static int
ovsdb_devs_new(struct ovsdb_sim *sim, char *err, size_t errlen)
{
	struct ovsdb_dev	*d;
	uint32_t		 i;

	sim->devs = xcalloc(sim->cfg.devices, sizeof(*sim->devs));
	for (i = 0; i < sim->cfg.devices; i++) {
		d = &sim->devs[i];
		d->sim = sim;
		d->idx = i;
		d->id = sim->idx_base + i;
		ovsdb_server_init(&d->srv, sim->schema,
		    ovsdb_db_new(sim->schema), &sim->c);
		d->srv.sys = sim->sys;
		d->srv.max_ops = sim->cfg.max_transact_ops;
		if (ovsdb_dev_seed(d, err, errlen) == -1)
			return -1;
		ovsdb_vswitchd_ack(d);
		ovsdb_phases_attach(sim->ph, d);
	}
	return 0;
}

static int
ovsdb_start(void *arg, struct metrics *m, char *err, size_t errlen)
{
	struct ovsdb_sim	*sim = arg;

	sim->m = m;
	METRICS_COUNTERS(m, ovsdb_counter_rows, &sim->c);
	sim->connect = metrics_phase(m, "connect", "ovsdb");
	sim->connect->target = sim->cfg.devices;
	sim->ph = ovsdb_phases_new(sim, m, sim->bridges_target, sim->deletes);
	if (sim->nbc->opts.url != NULL)
		sim->nb = ovsdb_nb_new(sim, sim->nbc, m);
	ovsdb_datapath_start(sim);
	if (ovsdb_devs_new(sim, err, errlen) == -1)
		return -1;
	pool_init_array(&sim->pool, &sim->pcfg, &ovsdb_dev_ops, sim->devs,
	    sizeof(*sim->devs), offsetof(struct ovsdb_dev, pd),
	    sim->cfg.devices);
	/* Active devices connect now; passive ones listen from now on. */
	phase_start(sim->connect, clock_ns());
	return pool_start(&sim->pool, err, errlen);
}

static int
ovsdb_tick(void *arg, uint64_t now)
{
	struct ovsdb_sim	*sim = arg;
	uint32_t		 i;

	for (i = 0; i < sim->cfg.devices; i++)
		ovsdb_dev_timers(&sim->devs[i], now);
	(void)run_phase_timeout(sim->connect, now, sim->phase_timeout);
	ovsdb_datapath_tick(sim, now);
	/* The northbound first: it runs while the devices work. */
	if (sim->nb != NULL && !ovsdb_nb_tick(sim->nb, now))
		return 0;
	return ovsdb_phases_tick(sim->ph, now) && phase_over(sim->connect) &&
	    ovsdb_datapath_over(sim);
}

static void
ovsdb_stop(void *arg)
{
	struct ovsdb_sim	*sim = arg;
	uint32_t		 i;

	ovsdb_nb_free(sim->nb);
	sim->nb = NULL;
	if (sim->devs == NULL) {
		ovsdb_phases_free(sim->ph);
		sim->ph = NULL;
		return;
	}
	/* The sessions first: an active one goes back through the pool. */
	for (i = 0; i < sim->cfg.devices; i++)
		ovsdb_dev_free(&sim->devs[i]);
	pool_stop_counted(&sim->pool, sim->m);
	pool_free(&sim->pool);
	ovsdb_datapath_stop(sim);
	free(sim->devs);
	sim->devs = NULL;
	ovsdb_phases_free(sim->ph);
	sim->ph = NULL;
}

static const struct sim_ops ovsdb_sim_ops = SIM_OPS(ovsdb, "ovsdb", devices);

/* TLS as ovsdb-server's --private-key, --certificate and --ca-cert:
 * ssl: and pssl: only, and a listening device needs its key and
 * certificate. */
static void
ovsdb_tls(struct pool_config *pc, const struct run_opts *ro)
{
	char	err[512];
	int	tls = pc->ep.kind == EP_SSL || pc->ep.kind == EP_PSSL;

	if (!tls && (ro->ssl_key || ro->ssl_cert || ro->ssl_ca))
		cli_die(ro, "--ssl-key, --ssl-cert and --ssl-ca need an ssl: "
		    "or pssl: --controller");
	if (pc->ep.kind == EP_SSL && (pc->ssl = pool_ssl_ctx(ro->ssl_key,
	    ro->ssl_cert, ro->ssl_ca, err, sizeof(err))) == NULL)
		cli_die(ro, "%s", err);
	if (pc->ep.kind == EP_PSSL && (pc->ssl = pool_ssl_server_ctx(
	    ro->ssl_key, ro->ssl_cert, ro->ssl_ca, err, sizeof(err))) == NULL)
		cli_die(ro, "%s", err);
}

/* The endpoint: tcp: or ssl: to a manager, or ptcp: or pssl: for one
 * (PORT+i, or the addresses of --source). */
static void
ovsdb_endpoint(struct ovsdb_sim *sim, const struct run_opts *ro)
{
	static const char	kinds[] = "devices connect to a manager "
	    "(tcp:IP:PORT, ssl:IP:PORT) or listen (ptcp:PORT[:IP], "
	    "pssl:PORT[:IP])";
	struct pool_config	*pc = &sim->pcfg;

	if (ro->controller != NULL && (strncmp(ro->controller, "ptcp:", 5) ==
	    0 || strncmp(ro->controller, "pssl:", 5) == 0))
		run_pool_endpoint(pc, ro, "--controller", ro->controller,
		    1u << EP_PTCP | 1u << EP_PSSL, kinds);
	else {
		run_pool_config(pc, ro, "--controller", ro->controller,
		    1u << EP_TCP | 1u << EP_SSL, kinds, sim->cfg.devices);
		ovsdb_tls(pc, ro);
		return;
	}
	ovsdb_tls(pc, ro);
	pc->up_fd = ovsdb_dev_accept;
	if (ro->source != NULL)
		run_listen_range(pc, ro, "--controller", sim->cfg.devices);
	run_listen_ports(pc, ro, sim->cfg.devices, "devices");
}

/*
 * --shard and --workers: what needs the whole run in one process is
 * refused; a total becomes the slice's share.
 */
static void
ovsdb_shard_check(struct ovsdb_sim *sim, const struct run_opts *ro)
{
	run_shard_refuse(ro, sim->nbc->opts.url != NULL, "--northbound (each "
	    "shard would have the controller make every device's bridges)");
	if (sim->cfg.expect_bridges > 0)
		run_shard_even(ro, "--expect-bridges", sim->cfg.expect_bridges,
		    sim->cfg.devices);
}

/* Devices first .. first + count - 1 of the run: their names, system-ids,
 * datapath ids, ports and addresses are the whole run's. */
static void
ovsdb_shard(struct ovsdb_sim *sim, const struct run_opts *ro)
{
	uint32_t	first, count;

	if (!run_shard_slice(ro, "--devices", sim->cfg.devices, &first,
	    &count))
		return;
	if (sim->cfg.expect_bridges > 0)
		sim->cfg.expect_bridges = (uint32_t)run_shard_share(ro,
		    "--expect-bridges", sim->cfg.expect_bridges, count,
		    sim->cfg.devices);
	sim->cfg.devices = count;
	sim->idx_base = first;
}

static int
ovsdb_main(int argc, char **argv)
{
	struct ovsdb_sim	*sim = run_sim_new(sizeof(*sim));
	struct ovsdb_nb_cfg	*nbc = run_sim_new(sizeof(*nbc));
	struct opt_group	 groups[] = {
		{ NULL, ovsdb_rows, &sim->cfg, NULL },
		{ "northbound (sbsim has the controller make and delete the "
		    "bridges):", nb_opt_rows, &nbc->opts, &nbc->given },
		{ NULL, ovsdb_nb_rows, nbc, &nbc->given },
	};
	struct run_opts		 ro;
	char			 err[512];
	int			 rc;

	ovsdb_config_defaults(&sim->cfg);
	sim->nbc = nbc;
	ovsdb_nb_defaults(nbc);
	cli_parse_groups(argc, argv, groups, 3, &ro, ovsdb_usage);
	log_init("sbsim", ro.verbose);
	if (sim->cfg.devices == 0)
		cli_die(&ro, "--devices N is required");
	if (sim->cfg.ports > 0 && sim->cfg.bridges == 0)
		cli_die(&ro, "--ports-per-bridge needs --bridges-per-node");
	if (sim->cfg.expect_bridges > 0 && sim->cfg.no_datapath)
		cli_die(&ro, "--expect-bridges and --no-datapath: no bridge "
		    "would connect");
	ovsdb_shard_check(sim, &ro);
	if (run_workers(&ovsdb_sim_ops, sim, &ro, "devices", sim->cfg.devices,
	    &rc) == 1)
		return rc;
	ovsdb_shard(sim, &ro);
	ovsdb_endpoint(sim, &ro);
	sim->pcfg.index_base = sim->idx_base;	/* ports, addresses */
	sim->phase_timeout = ro.phase_timeout;
	sim->bridges_target = (uint64_t)sim->cfg.devices *
	    sim->cfg.mgr_bridges;
	sim->deletes = sim->cfg.expect_delete || nbc->opts.url != NULL;
	if (sim->cfg.expect_delete && sim->cfg.mgr_bridges == 0)
		cli_die(&ro, "--expect-delete needs --bridges");
	if (ovsdb_nb_check(sim, nbc, err, sizeof(err)) == -1)
		cli_die(&ro, "%s", err);
	if ((sim->schema = ovsdb_schema_load(sim->cfg.schema, err,
	    sizeof(err))) == NULL)
		cli_die(&ro, "--schema: %s", err);
	sim->sys = ovsdb_sysdb_new(sim->schema);
	rc = run_main(&ovsdb_sim_ops, sim, &ro);
	if (sim->pcfg.ssl != NULL)
		SSL_CTX_free(sim->pcfg.ssl);
	ovsdb_sysdb_free(sim->sys);
	ovsdb_schema_free(sim->schema);
	return rc;
}

const struct sbsim_cmd ovsdb_cmd = {
	"ovsdb",
	"simulate OVSDB servers (Open_vSwitch database, RFC 7047)",
	ovsdb_main,
};
