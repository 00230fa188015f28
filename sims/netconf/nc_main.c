/*
 * `sbsim netconf`: N NETCONF devices, device i listening on PORT+i over
 * SSH or TCP (with --source, on the i-th address, all at PORT through
 * one shared listener), and the phases that time the controller:
 *   connect    devices with a session past the hello exchange (N), from
 *              the moment the devices listen
 *   mount      devices whose session answered a get or get-config (N):
 *              what a controller does once it has the schemas
 *   program    list entries created and leaves modified by edit-config
 *              (--expect-edits), from the first edit
 *   learn      notification prefixes sent after create-subscription
 *              (N x K x J), from the first
 * With --northbound, sbsim also mounts the devices through the
 * controller's RESTCONF and times it from there (nc_nb.c): nb_mount,
 * mounted, nb_program, confirm, nb_delete, confirm_delete, nb_learn,
 * nb_unmount, unmounted.
 */
#include <sys/stat.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <libxml/parser.h>

#include "cmd.h"
#include "engine.h"
#include "log.h"
#include "nc_sim.h"
#include "opt.h"
#include "run.h"


#define NC_FD_SPARE	16	/* more sessions than one per device */

static const char nc_usage[] =
"usage: sbsim netconf --devices N --listen ptcp:PORT[:IP] [options]\n"
"NETCONF devices (RFC 6241) over SSH or TCP, each with its own YANG\n"
"datastores, for a controller to mount, configure and subscribe to.\n";


static const char *const nc_transport_names[] = {
	[NC_TR_SSH] = "ssh",
	[NC_TR_TCP] = "tcp",
	NULL
};

#define NCC	struct nc_config
static const struct opt nc_rows[] = {
	OPT_U("devices", "N", NCC, devices, 1, 65535, 0,
	    "devices to simulate (required)"),
	OPT_S("listen", "ptcp:PORT[:IP]", NCC, listen, 0,
	    "device i listens on PORT+i (with --source\n"
	    "CIDR: on the i-th address of CIDR, all at PORT);\n"
	    "the same as --controller ptcp:...; give one"),
	OPT_E("transport", "T", NCC, transport, nc_transport_names, 0,
	    "ssh (RFC 6242) or tcp (no SSH)"),
	OPT_S("user", "U", NCC, user, 0, "SSH user name", .def = "any"),
	OPT_S("password", "P", NCC, password, 0,
	    "SSH password",
	    .def = "admin/admin when no credentials\nare given"),
	OPT_S("authorized-keys", "F", NCC, authorized_keys, 0,
	    "OpenSSH public keys accepted for publickey\n"
	    "authentication"),
	OPT_S("host-key", "F", NCC, host_key, 0,
	    "SSH host key, generated (ed25519) if absent",
	    .def = "./" NC_SSH_DEFAULT_KEY),
	OPT_S("yang-dir", "D", NCC, yang_dir, 0,
	    "the YANG modules the devices serve",
	    .def = "sbsim's own"),
	OPT_F("candidate", NCC, candidate, 0,
	    "a candidate datastore (:candidate, commit)"),
	OPT_U("notifications", "K", NCC, notifications, 0, 100000000, 0,
	    "route-update notifications each device sends\n"
	    "after create-subscription"),
	OPT_U("prefixes-per-notification", "J", NCC, prefixes, 1, 100000,
	    NC_GIVEN_PREFIXES,
	    "prefixes in each"),
	OPT_D("notification-rate", "R", NCC, notif_rate, 0, 1e6, 0,
	    "notifications per second per device (0: as\n"
	    "fast as the connection takes them)"),
	OPT_U("expect-edits", "N", NCC, expect_edits, 1, UINT64_MAX / 2, 0,
	    "program phase target: list entries created\n"
	    "plus leaves modified by edit-config"),
	OPT_U("max-sessions", "N", NCC, max_sessions, 1, 1000, 0,
	    "sessions one device holds at once past their\n"
	    "hello"),
	OPT_U("max-startups", "N", NCC, max_startups, 1, 1000, 0,
	    "sessions one device holds before their hello;\n"
	    "past them a newcomer closes the oldest of the\n"
	    "address holding most"),
	OPT_D("hello-timeout", "S", NCC, hello_timeout, 0, 86400, 0,
	    "close a session that has not finished SSH and\n"
	    "the hello exchange in S seconds (0: never)"),
	OPT_D("auth-delay", "S", NCC, auth_delay, 0, 60, 0,
	    "SSH: after a failed authentication a device\n"
	    "checks no credentials for S seconds, on any of\n"
	    "its sessions"),
	OPT_U("output-mark", "BYTES", NCC, out_mark, 4096, 1U << 30, 0,
	    "a session reads no more rpcs while this much of\n"
	    "its output waits unsent, and reads on below\n"
	    "half of it"),
	OPT_U("max-xml-attributes", "N", NCC, max_attrs, 1, 1000000, 0,
	    "a message with an element of more attributes\n"
	    "is refused unparsed"),
	OPT_END
};
#undef NCC

/* The NETCONF northbound's own options, beside the shared ones. */
#define NCN	struct nc_nb_cfg
static const struct opt nc_nb_rows[] = {
	OPT_U("mount-batch", "K", NCN, batch, 1, 100000, NB_GIVEN_ANY,
	    "nodes per request: 1 PUTs each node, more PATCH\n"
	    "K nodes into the topology at once"),
	OPT_U("edits", "E", NCN, edits, 0, 1000000, NB_GIVEN_ANY,
	    "once mounted, PUT E interfaces per device\n"
	    "through the mount point (program phase: their\n"
	    "arrival at the devices)"),
	OPT_U("edits-per-request", "B", NCN, edits_per_request, 1, 100000,
	    NB_GIVEN_ANY, "interfaces per request (PATCH when more than 1)"),
	OPT_S("device-address", "IP", NCN, device_host, NB_GIVEN_ANY,
	    "the address the controller dials",
	    .def = "the --listen address, else 127.0.0.1"),
	OPT_F("northbound-no-learn", NCN, no_learn, NB_GIVEN_ANY,
	    "with --notifications, do not poll the\n"
	    "controller's prefix count (nb_learn)"),
	OPT_D("northbound-poll", "S", NCN, opts.poll_s, 0.01, 60,
	    NB_GIVEN_ANY, "seconds between polls of the controller's view"),
	OPT_END
};
#undef NCN

static uint32_t
nc_fds_needed(void *arg)
{
	struct nc_sim	*sim = arg;

	/* A listener (one for all with --source) and one session per
	 * device, a few sessions more. */
	return pool_fds_needed(&sim->pcfg, sim->cfg.devices) + NC_FD_SPARE;
}

/* The counters, by their place in struct nc_counters, in report order;
 * the SSH ones only over SSH. */
#define NC_COUNTER_SSH	0x1	/* counted only over SSH */
#define NCC_ROW(field, name, ssh) \
	{ offsetof(struct nc_counters, field) + 0 * sizeof((uint64_t **)0 == \
	  &((struct nc_counters *)0)->field), name, ssh }
static const struct counter_row nc_counter_rows[] = {
	NCC_ROW(sessions, "sessions", 0),
	NCC_ROW(sessions_closed, "sessions_closed", 0),
	NCC_ROW(sessions_killed, "sessions_killed", 0),
	NCC_ROW(sessions_refused, "sessions_refused", 0),
	NCC_ROW(sessions_evicted, "sessions_evicted", 0),
	NCC_ROW(no_device, "connections_no_device", 0),
	NCC_ROW(auth_failures, "auth_failures", NC_COUNTER_SSH),
	NCC_ROW(auth_throttled, "auth_throttled", NC_COUNTER_SSH),
	NCC_ROW(ssh_failures, "ssh_failures", NC_COUNTER_SSH),
	NCC_ROW(hello_errors, "hello_errors", 0),
	NCC_ROW(hello_timeouts, "hello_timeouts", 0),
	NCC_ROW(reads_paused, "reads_paused", 0),
	NCC_ROW(framing_errors, "framing_errors", 0),
	NCC_ROW(xml_errors, "xml_errors", 0),
	NCC_ROW(xml_attrs_refused, "xml_too_many_attributes", 0),
	NCC_ROW(bytes_in, "bytes_in", 0),
	NCC_ROW(bytes_out, "bytes_out", 0),
	NCC_ROW(entries_created, "entries_created", 0),
	NCC_ROW(entries_modified, "entries_modified", 0),
	NCC_ROW(entries_deleted, "entries_deleted", 0),
	NCC_ROW(notifications_sent, "notifications_sent", 0),
	NCC_ROW(prefixes_sent, "notification_prefixes_sent", 0),
};
#undef NCC_ROW

static void
nc_counters_init(struct nc_sim *sim)
{
	memset(&sim->c, 0, sizeof(sim->c));
	/* Over TCP the SSH ones are never counted: storage all the same,
	 * outside the report. */
	metrics_counters(sim->m, nc_counter_rows, sizeof(nc_counter_rows) /
	    sizeof(nc_counter_rows[0]), &sim->c, sim->cfg.transport ==
	    NC_TR_SSH ? 0 : NC_COUNTER_SSH, &sim->unused);
}

static void
nc_phases_init(struct nc_sim *sim)
{
	struct metrics		*m = sim->m;
	const struct nc_config	*cfg = &sim->cfg;

	memset(sim->ph, 0, sizeof(sim->ph));
	sim->ph[NCP_CONNECT] = metrics_phase(m, "connect", "netconf");
	sim->ph[NCP_CONNECT]->target = cfg->devices;
	sim->ph[NCP_MOUNT] = metrics_phase(m, "mount", "netconf");
	sim->ph[NCP_MOUNT]->target = cfg->devices;
	sim->ph[NCP_PROGRAM] = metrics_phase(m, "program", "netconf");
	if (cfg->expect_edits > 0)
		phase_expect(sim->ph[NCP_PROGRAM], cfg->expect_edits);
	if (cfg->notifications > 0) {
		sim->ph[NCP_LEARN] = metrics_phase(m, "learn", "netconf");
		sim->ph[NCP_LEARN]->target = (uint64_t)cfg->devices *
		    cfg->notifications * cfg->prefixes;
		/* Over TCP it ends on the controller's acknowledgment of the
		 * last notification; SSH hides that behind its own layer. */
		if (cfg->transport == NC_TR_TCP) {
			sim->ph[NCP_LEARN]->witness = WITNESS_TCP_ACK;
			sim->ph[NCP_LEARN]->await_ack = 1;
		}
	}
	sim->learned_devs = 0;
	/* The devices listen from now on: the controller's turn. */
	phase_start(sim->ph[NCP_CONNECT], clock_ns());
}

static void
nc_reap_cb(evutil_socket_t fd, short what, void *arg)
{
	nc_sim_reap(arg);
}

static int
nc_start(void *arg, struct metrics *m, char *err, size_t errlen)
{
	struct nc_sim	*sim = arg;
	size_t		 limit;
	uint32_t	 i, listeners;

	sim->m = m;
	sim->open_sessions = 0;
	TAILQ_INIT(&sim->dead);
	nc_counters_init(sim);
	nc_xml_limit_attrs(sim->cfg.max_attrs, sim->c.xml_attrs_refused);
	nc_phases_init(sim);
	sim->reaper = engine_timer_new(0, nc_reap_cb, sim);
	sim->devs = xcalloc(sim->cfg.devices, sizeof(*sim->devs));
	for (i = 0; i < sim->cfg.devices; i++) {
		sim->devs[i].sim = sim;
		sim->devs[i].idx = sim->idx_base + i;
		LIST_INIT(&sim->devs[i].sessions);
		sim->devs[i].store = nc_store_new(sim->schema);
	}
	pool_init_array(&sim->pool, &sim->pcfg, NULL, sim->devs,
	    sizeof(*sim->devs), offsetof(struct nc_dev, pd),
	    sim->cfg.devices);
	if (pool_start(&sim->pool, err, errlen) == -1)
		return -1;
	/* The sessions get what the listeners leave. */
	limit = engine_raise_fd_limit();
	listeners = sim->pool.listeners;
	sim->max_open = limit > (size_t)listeners + sim->cfg.devices + 64 ?
	    (uint32_t)(limit - listeners - 64) : sim->cfg.devices;
	nc_nb_start(sim, m);
	return 0;
}

/* Complete once every phase with a target has reached it (or timed
 * out); program only counts when --expect-edits gave it one. */
static int
nc_tick(void *arg, uint64_t now)
{
	struct nc_sim	*sim = arg;

	run_phases_timeout(sim->ph, NCP_MAX, 0, now, sim->phase_timeout);
	*sim->c.no_device = sim->pool.stats.no_device;
	/* The northbound sequence first: it runs while the devices work. */
	if (!nc_nb_tick(sim, now))
		return 0;
	return phase_over(sim->ph[NCP_CONNECT]) && phase_over(sim->ph[NCP_MOUNT]) &&
	    (sim->cfg.expect_edits == 0 || phase_over(sim->ph[NCP_PROGRAM])) &&
	    phase_over(sim->ph[NCP_LEARN]);
}

static void
nc_stop(void *arg)
{
	struct nc_sim	*sim = arg;
	uint32_t	 i;

	nc_nb_stop(sim);
	txack_cancel(&sim->acked);
	if (sim->devs == NULL)
		return;
	for (i = 0; i < sim->cfg.devices; i++)
		nc_dev_free(&sim->devs[i]);
	nc_sim_reap(sim);
	pool_stop(&sim->pool);
	*sim->c.no_device = sim->pool.stats.no_device;
	if (sim->reaper != NULL)
		event_free(sim->reaper);
	sim->reaper = NULL;
	pool_free(&sim->pool);
	free(sim->devs);
	sim->devs = NULL;
}

static const char *const nc_phase_names[] = {
	"connect", "mount", "program", "learn",
	"nb_mount", "mounted", "nb_program", "confirm", "nb_delete",
	"confirm_delete", "nb_learn", "nb_unmount", "unmounted", NULL
};

static const struct sim_ops nc_sim_ops = SIM_OPS(nc, "netconf", devices);

static void
nc_check_auth(struct nc_config *cfg, const struct run_opts *ro)
{
	if (cfg->transport == NC_TR_TCP) {
		if (cfg->user || cfg->password || cfg->authorized_keys ||
		    cfg->host_key)
			cli_die(ro, "--user, --password, --authorized-keys and "
			    "--host-key need --transport ssh");
		return;
	}
	if (cfg->user != NULL && cfg->password == NULL &&
	    cfg->authorized_keys == NULL)
		cli_die(ro, "--user needs --password or --authorized-keys");
	if (cfg->password == NULL && cfg->authorized_keys == NULL) {
		/* What OpenDaylight's examples and netconf-testtool use. */
		cfg->user = "admin";
		cfg->password = "admin";
	}
	if (cfg->authorized_keys != NULL &&
	    access(cfg->authorized_keys, R_OK) == -1)
		cli_die(ro, "--authorized-keys %s: cannot read it",
		    cfg->authorized_keys);
}

static void
nc_check(struct nc_sim *sim, const struct run_opts *ro)
{
	struct nc_config	*cfg = &sim->cfg;
	const char		*ep = cfg->listen;
	char			 err[256];

	if (cfg->devices == 0)
		cli_die(ro, "--devices N is required");
	if (cfg->listen != NULL && ro->controller != NULL)
		cli_die(ro, "--listen and --controller are the same thing: "
		    "give one");
	if (ep == NULL)
		ep = ro->controller;
	if (ep == NULL)
		cli_die(ro, "--listen ptcp:PORT[:IP] is required");

	if (ro->ssl_key || ro->ssl_cert || ro->ssl_ca)
		cli_die(ro, "--ssl-key, --ssl-cert and --ssl-ca do not apply "
		    "(NETCONF runs over SSH or TCP)");
	pool_config_defaults(&sim->pcfg);
	if (endpoint_parse(ep, &sim->pcfg.ep, err, sizeof(err)) == -1)
		cli_die(ro, "--listen: %s", err);
	if (sim->pcfg.ep.kind != EP_PTCP)	/* pssl: too: SSH or TCP */
		cli_die(ro, "--listen: devices listen: ptcp:PORT[:IP], not "
		    "'%s'", ep);
	if (ro->source != NULL) {
		run_listen_range(&sim->pcfg, ro, "--listen", cfg->devices);
		sim->pcfg.share_listener = 1;
	}
	run_listen_ports(&sim->pcfg, ro, cfg->devices, "devices");
	if ((cfg->notif_rate > 0 || (cfg->given & NC_GIVEN_PREFIXES)) &&
	    cfg->notifications == 0)
		cli_die(ro, "--notification-rate and "
		    "--prefixes-per-notification need --notifications");
	if (cfg->yang_dir != NULL && access(cfg->yang_dir, R_OK | X_OK) == -1)
		cli_die(ro, "--yang-dir %s: not a readable directory",
		    cfg->yang_dir);
	nc_check_auth(cfg, ro);
	if (sim->nb.device_host == NULL)
		sim->nb.device_host = endpoint_dial_host(&sim->pcfg.ep);
	if (nc_nb_check(sim, err, sizeof(err)) == -1)
		cli_die(ro, "%s", err);
}

/*
 * --shard I/N: this process runs devices [first, first + count) of the
 * run's --devices, each on the port (or --source address) and with the
 * notifications it has in the whole run; --expect-edits is the whole
 * run's, of which the slice expects its share.  The northbound (it
 * mounts the whole run's devices) is not yet.
 */
static void
nc_shard_check(const struct nc_sim *sim, const struct run_opts *ro)
{
	run_shard_refuse(ro, sim->nb.given & NB_GIVEN_ANY, "the northbound");
	run_shard_even(ro, "--expect-edits", sim->cfg.expect_edits,
	    sim->cfg.devices);
}

static void
nc_shard(struct nc_sim *sim, const struct run_opts *ro)
{
	uint32_t	first, count;

	if (!run_shard_slice(ro, "--devices", sim->cfg.devices, &first,
	    &count))
		return;
	sim->cfg.expect_edits = run_shard_share(ro, "--expect-edits",
	    sim->cfg.expect_edits, count, sim->cfg.devices);
	sim->cfg.devices = count;
	sim->idx_base = first;
	sim->pcfg.index_base = first;
}

static int
nc_main(int argc, char **argv)
{
	struct nc_sim		*sim = run_sim_new(sizeof(*sim));
	struct opt_group	 groups[3];
	struct run_opts		 ro;
	const char		*std = cli_yang_dir();
	char			 err[512];
	int			 rc;

	sim->cfg.prefixes = 1;
	sim->cfg.max_sessions = 8;
	sim->cfg.max_startups = 4;
	sim->cfg.hello_timeout = 10;
	sim->cfg.auth_delay = 1;
	sim->cfg.out_mark = 1024 * 1024;
	sim->cfg.max_attrs = NC_XML_MAX_ATTRS;
	nc_nb_defaults(&sim->nb);
	groups[0] = (struct opt_group){ NULL, nc_rows, &sim->cfg,
	    &sim->cfg.given };
	groups[1] = (struct opt_group){ "northbound (the controller mounts the "
	    "devices when sbsim tells it):", nb_opt_rows, &sim->nb.opts,
	    &sim->nb.given };
	groups[2] = (struct opt_group){ NULL, nc_nb_rows, &sim->nb,
	    &sim->nb.given };
	cli_parse_groups(argc, argv, groups, 3, &ro, nc_usage);
	log_init("sbsim", ro.verbose);
	nc_check(sim, &ro);
	nc_shard_check(sim, &ro);
	if (run_workers(&nc_sim_ops, sim, &ro, "devices", sim->cfg.devices,
	    &rc) == 1)
		return rc;
	nc_shard(sim, &ro);
	sim->phase_timeout = ro.phase_timeout;
	sim->pcfg.up_fd = sim->cfg.transport == NC_TR_SSH ?
	    nc_dev_accept_ssh : nc_dev_accept_tcp;
	sim->schema = nc_schema_new(sim->cfg.yang_dir ? sim->cfg.yang_dir :
	    std, std, sim->cfg.candidate ? NC_SCHEMA_CANDIDATE : 0);
	if (sim->schema == NULL)
		cli_die(&ro, "cannot load the YANG modules of %s",
		    sim->cfg.yang_dir ? sim->cfg.yang_dir : std);
	if (sim->cfg.transport == NC_TR_SSH &&
	    (sim->ssh = nc_ssh_server_new(&sim->cfg, err, sizeof(err))) ==
	    NULL) {
		nc_schema_unref(sim->schema);
		cli_die(&ro, "%s", err);
	}
	rc = run_main(&nc_sim_ops, sim, &ro);
	nc_ssh_server_free(sim->ssh);
	nc_schema_unref(sim->schema);
	nc_dev_cleanup();
	return rc;
}

const struct sbsim_cmd netconf_cmd = {
	"netconf",
	"simulate NETCONF devices (SSH or TCP)",
	nc_main,
};
