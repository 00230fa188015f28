/*
 * The embedded controller's BGP role (ctl_role.h): the speaker peers
 * connect to (bgp_ctl.c) and its RIBs over RESTCONF (bgp_restconf.c).
 */
#include <arpa/inet.h>

#include <stdio.h>
#include <string.h>

#include "bgp_codec.h"
#include "bgp_dcc.h"
#include "bgp_io.h"
#include "bgp_oc.h"
#include "bgp_restconf.h"
#include "bgp_ctl.h"
#include "cli.h"
#include "ctl_role.h"
#include "log.h"

struct bgp_role {
	struct bgp_ctl_config	 spk;
};

static struct bgp_role	bgpr;

static int
bgpr_id(void *base, const char *arg, char *err, size_t errlen)
{
	struct in_addr	id;

	if (inet_pton(AF_INET, arg, &id) != 1 || id.s_addr == 0) {
		snprintf(err, errlen, "--bgp-id: an IPv4 address other than "
		    "0.0.0.0 (RFC 6286)");
		return -1;
	}
	((struct bgp_role *)base)->spk.bgp_id = ntohl(id.s_addr);
	return 0;
}

static int
bgpr_monitor(void *base, const char *arg, char *err, size_t errlen)
{
	return bgp_ctl_parse_monitors(&((struct bgp_role *)base)->spk, arg,
	    err, errlen);
}

#define O	CTL_GIVEN_OPT
static const struct opt bgpr_rows[] = {
	OPT_P("bgp", "EP", struct bgp_role, spk.listen, struct endpoint,
	    endpoint_parse_listen, CTL_GIVEN_ON,
	    "BGP speaker: peers connect to ptcp:PORT[:IP]"),
	OPT_U("as", "ASN", struct bgp_role, spk.as, 1, UINT32_MAX, O,
	    "the speaker's AS"),
	OPT_FN("bgp-id", "IP", bgpr_id, O,
	    "its BGP identifier",
	    .off = offsetof(struct bgp_role, spk.bgp_id),
	    .show = endpoint_show_ipv4),
	OPT_FN("bgp-monitor", "IP[,IP]", bgpr_monitor, O,
	    "advertise the Loc-RIB only to these peers\n"
	    "(a route server)", .def = "every peer"),
	OPT_P("bgp-hold-time", "S", struct bgp_role, spk.hold, uint16_t,
	    bgp_hold_opt, O,
	    "hold time it proposes", .show = opt_show_uint),
	OPT_S("bgp-md5-password", "P", struct bgp_role, spk.md5, O,
	    "TCP-MD5 key (RFC 2385) of every peer and\n"
	    "configured neighbour"),
	OPT_END
};
#undef O

static void
bgpr_defaults(void *cfg)
{
	struct bgp_role	*r = cfg;

	memset(r, 0, sizeof(*r));
	bgp_ctl_config_defaults(&r->spk);
}

static int
bgpr_start(void *cfg, struct http_server *hs, char *err, size_t errlen)
{
	struct bgp_role	*r = cfg;

	if (bgp_ctl_start(&r->spk, err, errlen) == -1)
		return -1;
	log_info("listening for BGP peers on %s, AS %u", r->spk.listen.text,
	    r->spk.as);
	if (hs != NULL) {
		bgp_restconf_register();
		bgp_oc_register(hs);
		bgp_dcc_register();
	}
	return 0;
}

static void
bgpr_stop(void *cfg)
{
	bgp_ctl_stop();
}

/* Peers Established now (ctl_devlog_tick()). */
static uint64_t
bgpr_devices_up(void *cfg)
{
	return bgp_ctl_stats()->established;
}

static void
bgpr_summary(void *cfg)
{
	const struct bgp_ctl_stats	*s = bgp_ctl_stats();

	ctl_print_figures("bgp: # sessions, # UPDATEs received, # prefixes and "
	    "# withdrawals received, Loc-RIB # IPv4 # IPv6, # UPDATEs sent, "
	    "# prefixes and # withdrawals advertised, # NOTIFICATIONs sent, "
	    "# received, # treated as withdraw\n", (const uint64_t[]){
	    s->sessions, s->updates_received, s->prefixes_received,
	    s->withdrawals_received, bgp_ctl_loc_rib_count(BGP_AF_IPV4),
	    bgp_ctl_loc_rib_count(BGP_AF_IPV6), s->updates_sent,
	    s->prefixes_advertised, s->withdrawals_advertised,
	    s->notifications_sent, s->notifications_received,
	    s->treat_as_withdraw }, 12);
}

const struct ctl_role bgp_ctl_role = {
	.name = "bgp", .title = "BGP:", .rows = bgpr_rows, .cfg = &bgpr,
	.defaults = bgpr_defaults,
	.needs = "--as and the --bgp-* options need --bgp",
	/* One Loc-RIB re-advertised to every peer: peers held by two
	 * workers would not hear each other's routes. */
	.one_process = "--bgp does not go with --workers: the speaker "
	    "re-advertises one Loc-RIB to every peer, which workers would "
	    "split",
	.start = bgpr_start, .summary = bgpr_summary, .stop = bgpr_stop,
	.devices_up = bgpr_devices_up, .devices = "peers",
};
