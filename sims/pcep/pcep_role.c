/*
 * The embedded controller's PCEP role (ctl_role.h): the stateful PCE PCCs
 * connect to (pcep_ctl.c) and pcep-topology with its operations over
 * RESTCONF (pcep_restconf.c).
 */
#include <stdio.h>
#include <string.h>

#include "ctl_role.h"
#include "log.h"
#include "metrics.h"
#include "pcep_ctl.h"
#include "pcep_restconf.h"

struct pcep_role {
	struct pcep_ctl_config	 pce;
};

static struct pcep_role	pcer;

#define R	struct pcep_role
#define O	CTL_GIVEN_OPT
static const struct opt pcer_rows[] = {
	OPT_P("pcep", "EP", struct pcep_role, pce.listen, struct endpoint,
	    endpoint_parse_listen, CTL_GIVEN_ON,
	    "stateful PCE: PCCs connect to ptcp:PORT[:IP]"),
	OPT_U("pcep-keepalive", "S", R, pce.keepalive, 0, 255, O,
	    "keepalive it proposes"),
	OPT_U("pcep-dead-timer", "S", R, pce.deadtimer, 0, 255, O,
	    "dead timer it proposes"),
	OPT_U("pcep-update-all", "W", R, pce.update_all, 1, 1000000, O,
	    "update every delegated LSP of a PCC once it is\n"
	    "synchronized, W PCUpds in flight per PCC"),
	OPT_D("pcep-timeout", "S", R, pce.op_timeout, 0.1, 86400, O,
	    "how long an update-lsp, add-lsp or remove-lsp\n"
	    "waits for the PCC"),
	OPT_S("pcep-md5-password", "P", R, pce.md5, O,
	    "TCP-MD5 key (RFC 2385) of every PCC"),
	OPT_F("pcep-bsid-alloc", R, pce.bsid_alloc, O,
	    "an LSP's first PCUpd carries a binding label the\n"
	    "PCE allocated (RFC 9604, from 500000)"),
	OPT_END
};
#undef R
#undef O

/* The role is its PCE's configuration. */
static void
pcer_defaults(void *cfg)
{
	((struct pcep_role *)cfg)->pce = pcep_ctl_config_default;
}

static int
pcer_check(void *cfg, unsigned given, const struct ctl_env *env, char *err,
    size_t errlen)
{
	struct pcep_role	*r = cfg;

	if (r->pce.keepalive != 0 && r->pce.deadtimer != 0 &&
	    r->pce.deadtimer <= r->pce.keepalive) {
		snprintf(err, errlen, "--pcep-dead-timer must be longer than "
		    "--pcep-keepalive");
		return -1;
	}
	return 0;
}

static int
pcer_start(void *cfg, struct http_server *hs, char *err, size_t errlen)
{
	struct pcep_role	*r = cfg;

	if (pcep_ctl_start(&r->pce, err, errlen) == -1)
		return -1;
	log_info("listening for PCEP PCCs on %s", r->pce.listen.text);
	if (hs != NULL)
		pcep_restconf_register(hs);
	return 0;
}

/* Before the HTTP server goes: operations still waiting are answered
 * while their requests exist. */
static void
pcer_stop(void *cfg)
{
	pcep_ctl_stop();
}

static void
pcer_summary(void *cfg)
{
	const struct pcep_ctl_stats	*s = pcep_ctl_stats();
	double			 upd = secs_between(s->first_update_ns,
	    s->last_ack_ns);

	ctl_print_figures("pcep: # sessions, # PCCs synchronized, # PCRpts "
	    "received, # LSPs learned", (const uint64_t[]){ s->sessions,
	    s->pccs_synced, s->reports_received, s->lsps_learned }, 4);
	if (s->last_learn_ns > s->first_report_ns || ctl_worker)
		printf(" in %.3f s", secs_between(s->first_report_ns,
		    s->last_learn_ns));
	ctl_print_figures(", # removed, # PCUpds sent, # acked",
	    (const uint64_t[]){ s->lsps_removed, s->updates_sent,
	    s->updates_acked }, 3);
	if (upd > 0 || ctl_worker)
		printf(" in %.3f s (p50 %llu us, p99 %llu us)", upd,
		    (unsigned long long)hist_percentile(&s->update_latency,
		    50), (unsigned long long)hist_percentile(
		    &s->update_latency, 99));
	ctl_print_figures(", # update errors, # PCInitiates sent, # removals "
	    "sent, # PCErrs sent, # received, # bad messages, # second "
	    "sessions refused",
	    (const uint64_t[]){ s->update_errors, s->initiates_sent,
	    s->removes_sent, s->pcerr_sent, s->pcerr_received,
	    s->bad_messages, s->second_sessions }, 7);
	ctl_print_figures(", associations: # path protection, # disjoint, "
	    "# SR policy, # of unsupported types, # skipped",
	    (const uint64_t[]){ s->assoc_protection, s->assoc_disjoint,
	    s->assoc_sr_policy, s->assoc_unsupported, s->assoc_skipped }, 5);
	ctl_print_figures(", binding SIDs: # MPLS, # SRv6, # skipped, # "
	    "allocated, # confirmed\n",
	    (const uint64_t[]){ s->bsid_mpls, s->bsid_srv6, s->bsid_skipped,
	    s->bsids_allocated, s->bsids_confirmed }, 5);
}

/* PCC sessions up now (ctl_devlog_tick()). */
static uint64_t
pcer_devices_up(void *cfg)
{
	return pcep_ctl_stats()->up;
}

const struct ctl_role pcep_ctl_role = {
	.name = "pcep", .title = "PCEP:", .rows = pcer_rows, .cfg = &pcer,
	.defaults = pcer_defaults,
	.needs = "the --pcep-* options need --pcep", .check = pcer_check,
	.start = pcer_start, .summary = pcer_summary, .stop = pcer_stop,
	.devices_up = pcer_devices_up, .devices = "PCCs",
};
