/*
 * The embedded controller's OVSDB role (ctl_role.h): the manager OVSDB
 * nodes connect to or that connects to them (ovsdb_ctl.c), and topology
 * ovsdb:1 over RESTCONF (ovsdb_restconf.c), as OpenDaylight's ovsdb
 * southbound.
 */
#include <stdio.h>
#include <string.h>

#include "ctl_role.h"
#include "log.h"
#include "ovsdb_ctl.h"
#include "ovsdb_restconf.h"

static struct ovsdb_ctl_config	ovr_cfg;

#define C	struct ovsdb_ctl_config
#define O	CTL_GIVEN_OPT
static const struct opt ovrole_rows[] = {
	OPT_P("ovsdb", "EP", C, listen, struct endpoint,
	    endpoint_parse_listen, CTL_GIVEN_ON,
	    "OVSDB manager: nodes in active mode connect to\n"
	    "ptcp:PORT[:IP] (ODL's 6640); passive nodes are\n"
	    "connected to when configured over RESTCONF"),
	OPT_D("ovsdb-probe", "S", C, probe_s, 0, 86400, O,
	    "inactivity probe: echo after S silent seconds,\n"
	    "close after 2 S (0: none)"),
	OPT_D("ovsdb-monitor-timeout", "S", C, monitor_timeout_s, 0.1, 86400,
	    O, "close a node whose monitor is not answered in S\n"
	    "seconds"),
	OPT_D("ovsdb-timeout", "S", C, op_timeout_s, 0.1, 86400, O,
	    "how long a RESTCONF write waits for the node's\n"
	    "transact reply"),
	OPT_D("ovsdb-retry-max", "S", C, retry_max_s, 0.1, 3600, O,
	    "longest wait between connects to a passive node\n"
	    "(1, 2, 4 ... seconds)"),
	OPT_U("ovsdb-max-sessions", "N", C, max_sessions, 1, 1000000, O,
	    "sessions at most"),
	OPT_U("ovsdb-max-message", "BYTES", C, max_message, 64, 1u << 30, O,
	    "longest JSON-RPC message"),
	OPT_U("ovsdb-max-buffered", "BYTES", C, max_buffered, 4096, 1u << 31,
	    O, "input held for all nodes together (messages\n"
	    "on their way); the node that passes it is\n"
	    "closed"),
	OPT_D("ovsdb-message-timeout", "S", C, message_timeout_s, 0.1, 86400,
	    O, "close a node whose message is not whole S\n"
	    "seconds after its first byte"),
	OPT_U("ovsdb-max-output", "BYTES", C, max_output, 4096, 1u << 30, O,
	    "output queued towards one node before it is\n"
	    "closed"),
	OPT_END
};
#undef C
#undef O

static void
ovrole_defaults(void *cfg)
{
	*(struct ovsdb_ctl_config *)cfg = ovsdb_ctl_config_default;
}

static int
ovrole_start(void *cfg, struct http_server *hs, char *err, size_t errlen)
{
	struct ovsdb_ctl_config	*c = cfg;

	if (ovsdb_ctl_start(c, err, errlen) == -1)
		return -1;
	log_info("listening for OVSDB nodes on %s", c->listen.text);
	if (hs != NULL)
		ovsdb_restconf_register();
	return 0;
}

/* Before the HTTP server goes: writes still waiting are answered. */
static void
ovrole_stop(void *cfg)
{
	(void)cfg;
	ovsdb_ctl_stop();
	ovsdb_restconf_stop();
}

static void
ovrole_summary(void *cfg)
{
	const struct ovsdb_ctl_stats	*s = ovsdb_ctl_stats();
	const struct ovr_stats	*r = ovsdb_restconf_stats();

	(void)cfg;
	ctl_print_figures("ovsdb: # sessions (# in, # out), # nodes up "
	    "(# at most), # bridges (# at most), # updates", (const uint64_t[]){
	    s->accepted + s->connected_out, s->accepted, s->connected_out,
	    ovsdb_ctl_count_up(), s->nodes_max, ovsdb_ctl_count_bridges(),
	    s->bridges_max, s->updates }, 8);
	ctl_print_figures(", # transacts sent, # failed, # RESTCONF writes, "
	    "# deletes, # bad requests", (const uint64_t[]){
	    s->transacts_sent, s->transacts_failed, r->bridge_writes +
	    r->tp_writes + r->nodes_configured, r->deletes,
	    r->bad_requests }, 5);
	ctl_print_figures(", # echoes answered, # probes sent, # timeouts, "
	    "# connect failures, # refused, # replaced, # output overflows, "
	    "# bad messages, # oversized, # input overflows, # slow messages\n",
	    (const uint64_t[]){ s->echo_answered, s->probes_sent, s->timeouts,
	    s->connect_failures, s->refused, s->replaced, s->overflows,
	    s->bad_messages, s->oversized, s->buffer_overflows,
	    s->slow_messages }, 11);
}

/* Nodes up now (ctl_devlog_tick()). */
static uint64_t
ovrole_devices_up(void *cfg)
{
	return ovsdb_ctl_count_up();
}

const struct ctl_role ovsdb_ctl_role = {
	.name = "ovsdb", .title = "OVSDB:", .rows = ovrole_rows,
	.cfg = &ovr_cfg, .defaults = ovrole_defaults,
	.needs = "the --ovsdb-* options need --ovsdb",
	/* A node told over RESTCONF (ODL's connection-info) reaches every
	 * worker, and each would connect to it. */
	.one_process = "--ovsdb does not go with --workers: every worker "
	    "would connect to each passive node it is told of",
	.start = ovrole_start,
	.summary = ovrole_summary, .stop = ovrole_stop,
	.devices_up = ovrole_devices_up, .devices = "nodes",
};
