/*
 * The embedded controller's NETCONF role (ctl_role.h): its options, the
 * checks they need, its summary line; the mounts themselves are
 * nc_ctl.c's, on the nodes RESTCONF topology-netconf tells of.
 */
#include <stdio.h>

#include "ctl_role.h"
#include "metrics.h"
#include "nc_ctl.h"

struct nc_role {
	int			on;		/* --netconf's storage */
	struct nc_ctl_config	ctl;
};

static struct nc_role	ncr;

#define R	struct nc_role
#define O	CTL_GIVEN_OPT
static const struct opt ncr_rows[] = {
	OPT_F("netconf", R, on, CTL_GIVEN_ON,
	    "NETCONF client: mounts devices told through\n"
	    "RESTCONF topology-netconf (needs --restconf)"),
	OPT_F("netconf-subscribe", R, ctl.subscribe, O,
	    "create-subscription on every mounted device\n"
	    "and count its route-update prefixes"),
	OPT_U("netconf-max-inflight", "M", R, ctl.max_inflight, 1, 1000000, O,
	    "mounts under way at once"),
	OPT_D("netconf-timeout", "S", R, ctl.timeout_s, 0.1, 86400, O,
	    "how long an rpc waits for its reply"),
	OPT_END
};
#undef R
#undef O

static void
ncr_defaults(void *cfg)
{
	struct nc_role	*r = cfg;

	r->on = 0;
	nc_ctl_config_defaults(&r->ctl);
}

static int
ncr_start(void *cfg, struct http_server *hs, char *err, size_t errlen)
{
	struct nc_role	*r = cfg;

	(void)err;
	(void)errlen;
	nc_ctl_start(&r->ctl, hs);
	return 0;
}

/* Before the HTTP server goes (nc_ctl_stop()). */
static void
ncr_stop(void *cfg)
{
	nc_ctl_stop();
}

static void
ncr_summary(void *cfg)
{
	const struct nc_ctl_stats	*s = nc_ctl_stats();

	ctl_print_figures("netconf: # mounts asked, # connected, # connecting, "
	    "# unable-to-connect", (const uint64_t[]){ s->mounts,
	    nc_ctl_count(NC_CTL_CONNECTED), nc_ctl_count(NC_CTL_CONNECTING),
	    nc_ctl_count(NC_CTL_UNABLE) }, 4);
	if (s->last_connected_ns)
		printf(" (last connected %.3f s after the first mount)",
		    secs_between(s->first_mount_ns, s->last_connected_ns));
	ctl_print_figures(", # schemas fetched, # cache hits, # edit-configs ok, "
	    "# failed, # subscriptions, # notifications, # prefixes",
	    (const uint64_t[]){ s->schemas_fetched, s->schema_cache_hits,
	    s->edits, s->edit_errors, s->subscriptions, s->notifications,
	    s->prefixes }, 7);
	if (s->last_prefix_ns > s->first_prefix_ns)
		printf(" in %.3f s", secs_between(s->first_prefix_ns,
		    s->last_prefix_ns));
	ctl_print_figures(", # connect failures, # auth failures, # SSH "
	    "failures, # sessions lost, # rpc-errors, # rpc timeouts, # bad "
	    "messages\n", (const uint64_t[]){ s->connect_failures,
	    s->auth_failures, s->ssh_failures, s->sessions_lost,
	    s->rpc_errors, s->rpc_timeouts, s->bad_messages }, 7);
}

/* Mounted devices connected now (ctl_devlog_tick()). */
static uint64_t
ncr_devices_up(void *cfg)
{
	return nc_ctl_count(NC_CTL_CONNECTED);
}

const struct ctl_role nc_ctl_role = {
	.name = "netconf", .title = "NETCONF:", .rows = ncr_rows, .cfg = &ncr,
	.defaults = ncr_defaults,
	.needs = "the --netconf-* options need --netconf",
	.needs_restconf = "--netconf mounts the devices it is told of "
	    "through RESTCONF: give --restconf PORT too",
	/* A mount told over RESTCONF reaches every worker, and each would
	 * connect to the device. */
	.one_process = "--netconf does not go with --workers: every worker "
	    "would mount each device it is told of",
	.start = ncr_start,
	.summary = ncr_summary, .stop = ncr_stop,
	.devices_up = ncr_devices_up, .devices = "devices",
};
