/*
 * The embedded controller's OpenFlow roles (ctl_role.h): the switches'
 * controller (of_ctl.c: where switches connect, how it programs them),
 * and the OpenDaylight inventory (of_restconf.c, of_flowcfg.c), served
 * whenever RESTCONF is, switches or not.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ctl_role.h"
#include "engine.h"
#include "log.h"
#include "metrics.h"
#include "of_cluster.h"
#include "of_codec.h"
#include "of_ctl.h"
#include "of_flowcfg.h"
#include "of_gmcfg.h"
#include "of_restconf.h"

#define OFR_GIVEN_STATS	CTL_GIVEN_ROLE	/* --stats-interval */

struct of_role {
	struct of_ctl_config	 ctl;
	int			 exit_when_done;
	int			 gate_opened;	/* a worker's, by the parent */
	uint64_t		 held_at_open;
	uint32_t		 max_gm[2];	/* config groups, meters per
						   node (of_gmcfg.h) */
	double			 rpc_timeout;	/* sal-group, sal-meter */
};

static struct of_role	ofr;

static int
ofr_stats_interval(void *base, const char *arg, char *err, size_t errlen)
{
	struct of_role	*r = base;

	if (opt_double("stats-interval", arg, 0, 86400,
	    &r->ctl.stats_interval, err, errlen) == -1)
		return -1;
	if (r->ctl.stats_interval > 0 && r->ctl.stats_interval < 0.01) {
		snprintf(err, errlen, "--stats-interval: 0 (none) or at least "
		    "0.01 s");
		return -1;
	}
	return 0;
}

static const char *const ofr_delete_names[] = {
	"none", "strict", "all", NULL
};
static const char *const ofr_pktin_names[] = {
	"ignore", "packet-out", "flow-mod", NULL
};
/* By OF_ROLE_*; no role asked for is the default, not a word. */
static const char *const ofr_role_names[] = {
	[OF_ROLE_NOCHANGE] = "", [OF_ROLE_EQUAL] = "equal",
	[OF_ROLE_MASTER] = "master", [OF_ROLE_SLAVE] = "slave", NULL
};

/* The controller role encodes 1.0 and 1.3 only (of_ctl.c); the switch
 * side's 1.4 and 1.5 are refused here rather than negotiated. */
static int
ofr_version_parse(const char *name, const char *arg, void *bitmap,
    char *err, size_t errlen)
{
	uint32_t	*b = bitmap;

	if (of_version_parse(name, arg, bitmap, err, errlen) == -1)
		return -1;
	if (*b & ~((1u << OF_VERSION_13) | (1u << OF_VERSION_10))) {
		snprintf(err, errlen, "--%s: the controller speaks 1.3 and "
		    "1.0 only", name);
		return -1;
	}
	return 0;
}

#define R	struct of_role
#define O	CTL_GIVEN_OPT
static const struct opt ofr_rows[] = {
	OPT_P("openflow", "EP", struct of_role, ctl.listen, struct endpoint,
	    endpoint_parse_listen, CTL_GIVEN_ON,
	    "where switches connect: ptcp:PORT[:IP] (none\n"
	    "when another role or --restconf is given)",
	    .show = endpoint_show),
	OPT_FN("stats-interval", "S", ofr_stats_interval, O | OFR_GIVEN_STATS,
	    "poll every switch's flow stats for the operational\n"
	    "inventory, a round at a time, S seconds at least\n"
	    "between rounds, twice the last round's time when\n"
	    "longer", .def = "1 with --restconf, else 0: none"),
	OPT_D("stats-timeout", "S", R, ctl.stats_timeout, 0.1, 3600, O,
	    "a stats round waits S seconds at most for its\n"
	    "replies"),
	OPT_P("of-version", "V[,V]", struct of_role, ctl.version_bitmap, uint32_t,
	    ofr_version_parse, O, "1.3, 1.0 or both", .show = of_version_show),
	OPT_U("switches", "N", R, ctl.expect_switches, 1, 1000000, O,
	    "wait for N switches, then program them all"),
	OPT_U("max-switches", "N", R, ctl.max_conns, 1, 10000000, O,
	    "hold at most N switch connections at once; a\n"
	    "newer one is closed at once (a controller's\n"
	    "capacity, for --find-max; a connection flood)"),
	OPT_D("openflow-hello-timeout", "S", R, ctl.hello_timeout, 0, 3600, O,
	    "close a connection that sent no HELLO within S\n"
	    "seconds of its accept (0: never)"),
	OPT_U("flows-per-switch", "K", R, ctl.flows_per_switch, 0, 100000000,
	    O, "FLOW_MODs (adds) to push into each switch"),
	OPT_U("groups-per-switch", "G", R, ctl.groups_per_switch, 0, 1000000,
	    O, "groups (GROUP_MOD adds) to push into each\n"
	    "OpenFlow 1.3 switch before its flows"),
	OPT_U("meters-per-switch", "M", R, ctl.meters_per_switch, 0, 1000000,
	    O, "meters (METER_MOD adds) to push into each\n"
	    "OpenFlow 1.3 switch after its groups"),
	OPT_U("batch", "B", R, ctl.batch, 1, 1000000, O,
	    "FLOW_MODs per barrier"),
	OPT_U("window", "W", R, ctl.window, 1, 1000000, O,
	    "barriers in flight per switch"),
	OPT_F("read-stats", R, ctl.read_stats, O,
	    "read flow stats back after programming"),
	OPT_E("delete", "MODE", R, ctl.delete_mode, ofr_delete_names, O,
	    "after programming: none, strict or all"),
	OPT_E("packet-in-reply", "R", R, ctl.pktin_reply, ofr_pktin_names, O,
	    "ignore, packet-out or flow-mod"),
	OPT_F("lldp", R, ctl.lldp, O,
	    "send LLDP on every port to discover links"),
	OPT_E("role", "ROLE", R, ctl.role, ofr_role_names, O,
	    "a cluster member: master, slave or equal, asked\n"
	    "of every switch (ROLE_REQUEST); a slave pushes\n"
	    "no flows until made master (sbsim-cluster:set-role)"),
	OPT_U("generation-id", "N", R, ctl.generation, 0, UINT64_MAX, O,
	    "generation id of --role master or slave"),
	OPT_F("exit-when-done", R, exit_when_done, O,
	    "stop once programming (and deletion) is done"),
	OPT_END
};
#undef R
#undef O

static void
ofr_defaults(void *cfg)
{
	struct of_role	*r = cfg;
	char		 err[64];

	memset(r, 0, sizeof(*r));
	of_ctl_config_defaults(&r->ctl);
	endpoint_parse("ptcp:6653", &r->ctl.listen, err, sizeof(err));
}

/* Waiting for more switches than the process may hold would wait for
 * ever at the descriptor limit: refuse up front, as a run of devices does
 * (run.c), naming the limit and the count needed. */
static int
ofr_check_fds(const struct of_role *r, unsigned workers, char *err,
    size_t errlen)
{
	char		what[96];
	uint64_t	each = r->ctl.expect_switches;

	if (each == 0)
		return 0;
	/* Each worker holds its share, which the kernel's hash makes
	 * uneven: an eighth more, and 64, for the spread. */
	if (workers > 1) {
		each = (each + workers - 1) / workers;
		each += each / 8 + 64;
		if (each > r->ctl.expect_switches)
			each = r->ctl.expect_switches;
		snprintf(what, sizeof(what), "--switches %u over --workers %u: "
		    "about %llu switches each", r->ctl.expect_switches, workers,
		    (unsigned long long)each);
	} else
		snprintf(what, sizeof(what), "--switches %u: %u switches",
		    r->ctl.expect_switches, r->ctl.expect_switches);
	return engine_check_fds(each, what, err, errlen);
}

/* What one worker of several cannot do alone. */
static int
ofr_check_workers(const struct of_role *r, char *err, size_t errlen)
{
	if (r->ctl.lldp)
		snprintf(err, errlen, "--lldp does not go with --workers: a "
		    "link's two switches may be held by two workers");
	else if (r->ctl.role != 0)
		snprintf(err, errlen, "--role does not go with --workers: a "
		    "cluster member is one process");
	else if (r->ctl.listen.port == 0)
		snprintf(err, errlen, "--openflow with --workers needs a "
		    "port other than 0: the workers share it");
	else
		return 0;
	return -1;
}

static int
ofr_check(void *cfg, unsigned given, const struct ctl_env *env, char *err,
    size_t errlen)
{
	struct of_role	*r = cfg;

	/* The operational inventory is the switches' view: poll it. */
	if (env->restconf && !(given & OFR_GIVEN_STATS))
		r->ctl.stats_interval = 1;
	if (r->exit_when_done && (r->ctl.flows_per_switch +
	    r->ctl.groups_per_switch + r->ctl.meters_per_switch == 0 ||
	    r->ctl.expect_switches == 0)) {
		snprintf(err, errlen, "--exit-when-done needs --switches and "
		    "--flows-per-switch (or --groups-per-switch, "
		    "--meters-per-switch)");
		return -1;
	}
	if (env->workers > 0 && ofr_check_workers(r, err, errlen) == -1)
		return -1;
	return ofr_check_fds(r, env->workers, err, errlen);
}

static int
ofr_start(void *cfg, struct http_server *hs, char *err, size_t errlen)
{
	struct of_role	*r = cfg;

	/* A worker programs when the parent says the workers hold
	 * --switches between them (ofr_gate_open). */
	if (ctl_worker && r->ctl.expect_switches > 0)
		of_ctl_gate(1);
	if (of_ctl_start(&r->ctl, err, errlen) == -1)
		return -1;
	if (hs != NULL)
		of_cluster_rpc_register(hs);
	log_info("listening for OpenFlow switches on %s", r->ctl.listen.text);
	return 0;
}

static void
ofr_stop(void *cfg)
{
	of_ctl_stop();
}

static void
ofr_tick(void *cfg, uint64_t now_ns)
{
	struct of_role	*r = cfg;

	(void)now_ns;
	/* A worker the parent gave none to is done at once. */
	if (r->exit_when_done && (of_ctl_finished() ||
	    (r->gate_opened && r->held_at_open == 0)))
		ctl_finished("all switches programmed");
}

static uint64_t
ofr_gate_want(void *cfg)
{
	return ((struct of_role *)cfg)->ctl.expect_switches;
}

static uint64_t
ofr_gate_held(void *cfg)
{
	(void)cfg;
	return of_ctl_stats()->switches;
}

static void
ofr_gate_open(void *cfg)
{
	struct of_role	*r = cfg;

	if (r->gate_opened)
		return;
	r->gate_opened = 1;
	r->held_at_open = of_ctl_stats()->switches;
	of_ctl_gate(0);
}

/* A cluster member's line: only when it ever had a role. */
static void
ofr_cluster_summary(const struct of_ctl_stats *s)
{
	uint64_t	gen;
	uint8_t		role = of_ctl_cluster_role(&gen);

	if (role == 0)
		return;
	printf("cluster: role %s, generation id %llu", of_role_name(role),
	    (unsigned long long)gen);
	ctl_print_figures(", # role changes, # ROLE_REQUESTs, # ROLE_REPLYs, "
	    "# refused, # ROLE_STATUS, # IS_SLAVE errors\n", (const uint64_t[]){
	    s->role_changes, s->role_requests, s->role_replies,
	    s->role_refused, s->role_status, s->is_slave_errors }, 6);
}

/* The statistics poll's rounds: only when it polls. */
static void
ofr_stats_summary(const struct of_role *r, const struct of_ctl_stats *s)
{
	if (r->ctl.stats_interval <= 0)
		return;
	ctl_print_figures("stats polls: # rounds, # timed out",
	    (const uint64_t[]){ s->stats_rounds, s->stats_round_timeouts },
	    2);
	printf(", last round %.3f s, next after %.3f s\n",
	    (double)s->stats_round_ns / 1e9, (double)s->stats_next_ns / 1e9);
}

static void
ofr_summary(void *cfg)
{
	const struct of_ctl_stats	*s = of_ctl_stats();
	double				 prog, del;

	prog = secs_between(s->program_start_ns, s->program_end_ns);
	del = secs_between(s->program_end_ns, s->delete_end_ns);
	ctl_print_figures("controller: # switches, # FLOW_MODs sent, "
	    "# barriers acked, # switches programmed", (const uint64_t[]){
	    s->switches, s->flow_mods_sent, s->barriers_acked,
	    s->switches_programmed }, 4);
	if (prog > 0 || ctl_worker)
		printf(" in %.3f s", prog);
	ctl_print_figures(", # flows seen in stats, # switches deleted",
	    (const uint64_t[]){ s->flows_in_stats, s->switches_deleted }, 2);
	if (del > 0 || ctl_worker)
		printf(" in %.3f s", del);
	ctl_print_figures(", # PACKET_INs, # LLDP sent, # links seen, "
	    "# errors received, # bad messages, # connections refused, "
	    "# reads paused, # closed without HELLO\n",
	    (const uint64_t[]){ s->packet_ins, s->lldp_sent, s->links_seen,
	    s->errors_received, s->bad_messages, s->refused,
	    s->reads_paused, s->hello_timeouts }, 8);
	if (s->group_mods_sent + s->meter_mods_sent > 0)
		ctl_print_figures("controller: # GROUP_MODs sent, "
		    "# METER_MODs sent\n", (const uint64_t[]){
		    s->group_mods_sent, s->meter_mods_sent }, 2);
	ofr_cluster_summary(s);
	ofr_stats_summary(cfg, s);
}

/* Switches whose handshake is done (ctl_devlog_tick()). */
static uint64_t
ofr_devices_up(void *cfg)
{
	return of_ctl_stats()->switches_now;
}

const struct ctl_role of_ctl_role = {
	.name = "openflow", .title = NULL, .rows = ofr_rows, .cfg = &ofr,
	.flags = CTL_ROLE_DEFAULT,
	.needs = "OpenFlow options need --openflow when --restconf is given",
	.defaults = ofr_defaults, .check = ofr_check, .start = ofr_start,
	.tick = ofr_tick, .summary = ofr_summary, .stop = ofr_stop,
	.gate_want = ofr_gate_want, .gate_held = ofr_gate_held,
	.gate_open = ofr_gate_open,
	.devices_up = ofr_devices_up, .devices = "switches",
};

/* ---- the inventory: opendaylight-inventory over RESTCONF ---- */

static const struct opt ofinv_rows[] = {
	OPT_U("max-groups-per-node", "N", struct of_role, max_gm[0], 1,
	    10000000, CTL_GIVEN_OPT, "config groups a node holds at most\n"
	    "(a PUT past them: 409)", .def = "4096"),
	OPT_U("max-meters-per-node", "N", struct of_role, max_gm[1], 1,
	    10000000, CTL_GIVEN_OPT, "config meters a node holds at most\n"
	    "(a PUT past them: 409)", .def = "4096"),
	OPT_D("rpc-timeout", "S", struct of_role, rpc_timeout, 0.1, 3600,
	    CTL_GIVEN_OPT, "a sal-group or sal-meter RPC the switch has\n"
	    "not answered in S seconds fails (500)", .def = "10"),
	OPT_END
};

static void
ofinv_defaults(void *cfg)
{
}

static int
ofinv_start(void *cfg, struct http_server *hs, char *err, size_t errlen)
{
	of_restconf_register();
	of_rpc_register(hs);
	of_topology_register();
	gm_rpc_register(hs);
	gm_set_max(GM_GROUP, ofr.max_gm[0] ? ofr.max_gm[0] : GM_DEFAULT_MAX);
	gm_set_max(GM_METER, ofr.max_gm[1] ? ofr.max_gm[1] : GM_DEFAULT_MAX);
	gm_wait_set_timeout(ofr.rpc_timeout);
	fc_start();
	return 0;
}

/* The sal-group (sal-meter) RPCs' answers, when there were any. */
static void
ofinv_rpc_summary(int k)
{
	const struct gm_wait_counters	*w = gm_wait_counters(k);
	char				 title[128];

	if (w->answered + w->refused + w->timeouts == 0)
		return;
	snprintf(title, sizeof(title), "sal-%s RPCs: # answered, "
	    "# refused by switches, # timed out\n", gm_kind_name(k));
	ctl_print_figures(title, (const uint64_t[]){ w->answered,
	    w->refused, w->timeouts }, 3);
}

/* Bad group and meter bodies, refusals and the switches' answers. */
static void
ofinv_summary(void *cfg)
{
	static const char *const what[] = {
		"groups: # GROUP_MODs sent", "meters: # METER_MODs sent"
	};
	char	title[256];
	int	k;

	(void)cfg;
	for (k = 0; k < GM_KINDS; k++) {
		const struct gm_counters	*g = gm_counters(k);

		snprintf(title, sizeof(title), "%s, # refused by switches, "
		    "# bad bodies, # refused past --max-%s-per-node, "
		    "# bad replies\n", what[k], k ? "meters" : "groups");
		ctl_print_figures(title, (const uint64_t[]){ g->mods,
		    g->switch_errors, g->bad_bodies, g->refused_full,
		    g->bad_replies }, 5);
		ofinv_rpc_summary(k);
	}
}

static void
ofinv_stop(void *cfg)
{
	fc_stop();
}

const struct ctl_role of_inventory_role = {
	.name = "openflow-inventory", .rows = ofinv_rows, .cfg = &ofr,
	.flags = CTL_ROLE_RESTCONF, .defaults = ofinv_defaults,
	.needs = "--max-groups-per-node and --max-meters-per-node need "
	    "--restconf",
	.start = ofinv_start, .stop = ofinv_stop, .summary = ofinv_summary,
};
