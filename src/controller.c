/*
 * `sbsim controller`: the embedded reference controller in its own
 * process, on the same engine and event loop: its OpenFlow role and its
 * RESTCONF northbound (OpenDaylight's shapes); the other protocols join it
 * here.
 */
#include <arpa/inet.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "bgp_restconf.h"
#include "bgp_spk.h"
#include "cli.h"
#include "cmd.h"
#include "engine.h"
#include "http_server.h"
#include "log.h"
#include "metrics.h"
#include "of_codec.h"
#include "of_ctl.h"
#include "of_flowcfg.h"
#include "of_restconf.h"
#include "pcep_pce.h"
#include "nc_ctl.h"
#include "pcep_restconf.h"
#include "restconf.h"

enum {
	CO_OPENFLOW = 256,
	CO_FLOWS,
	CO_BATCH,
	CO_WINDOW,
	CO_SWITCHES,
	CO_STATS,
	CO_DELETE,
	CO_PKTIN,
	CO_LLDP,
	CO_DURATION,
	CO_EXIT,
	CO_VERSION,
	CO_RESTCONF,
	CO_RC_USER,
	CO_RC_PASSWORD,
	CO_RC_MAX_BODY,
	CO_STATS_INTERVAL,
	CO_BGP,
	CO_AS,
	CO_BGP_ID,
	CO_BGP_MONITOR,
	CO_BGP_HOLD,
	CO_PCEP,
	CO_PCEP_KEEPALIVE,
	CO_PCEP_DEADTIMER,
	CO_PCEP_UPDATE_ALL,
	CO_PCEP_TIMEOUT,
};

static const struct option ctl_opts[] = {
	{ "openflow",		required_argument, NULL, CO_OPENFLOW },
	{ "flows-per-switch",	required_argument, NULL, CO_FLOWS },
	{ "batch",		required_argument, NULL, CO_BATCH },
	{ "window",		required_argument, NULL, CO_WINDOW },
	{ "switches",		required_argument, NULL, CO_SWITCHES },
	{ "read-stats",		no_argument,	   NULL, CO_STATS },
	{ "delete",		required_argument, NULL, CO_DELETE },
	{ "packet-in-reply",	required_argument, NULL, CO_PKTIN },
	{ "lldp",		no_argument,	   NULL, CO_LLDP },
	{ "duration",		required_argument, NULL, CO_DURATION },
	{ "exit-when-done",	no_argument,	   NULL, CO_EXIT },
	{ "of-version",		required_argument, NULL, CO_VERSION },
	{ "restconf",		required_argument, NULL, CO_RESTCONF },
	{ "restconf-user",	required_argument, NULL, CO_RC_USER },
	{ "restconf-password",	required_argument, NULL, CO_RC_PASSWORD },
	{ "restconf-max-body",	required_argument, NULL, CO_RC_MAX_BODY },
	{ "stats-interval",	required_argument, NULL, CO_STATS_INTERVAL },
	{ "bgp",		required_argument, NULL, CO_BGP },
	{ "as",			required_argument, NULL, CO_AS },
	{ "bgp-id",		required_argument, NULL, CO_BGP_ID },
	{ "bgp-monitor",	required_argument, NULL, CO_BGP_MONITOR },
	{ "bgp-hold-time",	required_argument, NULL, CO_BGP_HOLD },
	{ "pcep",		required_argument, NULL, CO_PCEP },
	{ "pcep-keepalive",	required_argument, NULL, CO_PCEP_KEEPALIVE },
	{ "pcep-dead-timer",	required_argument, NULL, CO_PCEP_DEADTIMER },
	{ "pcep-update-all",	required_argument, NULL, CO_PCEP_UPDATE_ALL },
	{ "pcep-timeout",	required_argument, NULL, CO_PCEP_TIMEOUT },
	NC_CTL_LONG_OPTIONS
	{ "verbose",		no_argument,	   NULL, 'v' },
	{ "help",		no_argument,	   NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char ctl_help[] =
"usage: sbsim controller [--openflow ptcp:PORT[:IP]] [--restconf [IP:]PORT]\n"
"                        [options]\n"
"The embedded reference controller.\n"
"  --openflow EP          where switches connect (default ptcp:6653, or\n"
"                         none when --restconf or --bgp is given)\n"
"  --restconf [IP:]PORT   serve RESTCONF (OpenDaylight's inventory) on PORT,\n"
"                         every address unless IP ([IPv6] in brackets)\n"
"  --restconf-user U      basic auth user (default admin)\n"
"  --restconf-password P  basic auth password (default admin)\n"
"  --restconf-max-body B  largest request body in bytes (default 16 MiB)\n"
"  --stats-interval S     poll every switch's flow stats each S seconds for\n"
"                         the operational inventory (default 1 with\n"
"                         --restconf, else 0: none)\n"
"  --of-version V[,V]     1.3, 1.0 or both (default both)\n"
"  --switches N           wait for N switches, then program them all\n"
"  --flows-per-switch K   FLOW_MODs (adds) to push into each switch\n"
"  --batch B              FLOW_MODs per barrier (default 100)\n"
"  --window W             barriers in flight per switch (default 4)\n"
"  --read-stats           read flow stats back after programming\n"
"  --delete MODE          after programming: none, strict or all\n"
"  --packet-in-reply R    ignore, packet-out (default) or flow-mod\n"
"  --lldp                 send LLDP on every port to discover links\n"
"  --bgp EP               BGP speaker: peers connect to ptcp:PORT[:IP]\n"
"  --as ASN               the speaker's AS (default 64496)\n"
"  --bgp-id IP            its BGP identifier (default 192.0.2.1)\n"
"  --bgp-monitor IP[,IP]  advertise the Loc-RIB only to these peers\n"
"                         (default: to every peer, as a route server)\n"
"  --bgp-hold-time S      hold time it proposes (default 90)\n"
"  --pcep EP              stateful PCE: PCCs connect to ptcp:PORT[:IP]\n"
"  --pcep-keepalive S     keepalive it proposes (default 30)\n"
"  --pcep-dead-timer S    dead timer it proposes (default 120)\n"
"  --pcep-update-all W    update every delegated LSP of a PCC once it is\n"
"                         synchronized, W PCUpds in flight per PCC\n"
"  --pcep-timeout S       how long an update-lsp, add-lsp or remove-lsp\n"
"                         waits for the PCC (default 30)\n"
NC_CTL_HELP
"  --duration S           stop after S seconds\n"
"  --exit-when-done       stop once programming (and deletion) is done\n"
"  -v, --verbose          more logging\n";

struct ctl_run {
	struct of_ctl_config	 of;
	int			 openflow;	/* --openflow given */
	int			 of_options;	/* OpenFlow-only options given */
	struct bgp_spk_config	 bgp;
	int			 bgp_on;	/* --bgp given */
	int			 bgp_options;	/* --as, --bgp-* given */
	struct pce_config	 pcep;
	int			 pcep_on;	/* --pcep given */
	int			 pcep_options;	/* --pcep-* given */
	struct http_server_config http;
	int			 restconf;	/* --restconf given */
	int			 rc_options;	/* --restconf-* given */
	int			 stats_given;	/* --stats-interval given */
	char			 rc_addr[64];
	struct http_server	*hs;
	double			 duration;
	int			 exit_when_done;
	int			 verbose;
	uint64_t		 start_ns;
};

static _Noreturn void
ctl_die(const char *msg)
{
	fprintf(stderr, "sbsim controller: %s\n", msg);
	exit(CLI_EXIT_USAGE);
}

static void
ctl_parse_enum(const char *opt, const char *arg, const char *const *names,
    int n, int *out)
{
	char	err[256];
	int	i;

	for (i = 0; i < n; i++)
		if (strcmp(arg, names[i]) == 0) {
			*out = i;
			return;
		}
	snprintf(err, sizeof(err), "--%s: '%s' is not one of %s, %s%s%s", opt,
	    arg, names[0], names[1], n > 2 ? " or " : "", n > 2 ? names[2] : "");
	ctl_die(err);
}

/* --restconf [IP:]PORT, with IPv6 in brackets. */
static void
ctl_restconf_addr(struct ctl_run *r, const char *arg)
{
	const char	*colon = strrchr(arg, ':'), *a = arg;
	char		 err[256];
	uint64_t	 port;
	size_t		 len;

	if (cli_uint("restconf", colon ? colon + 1 : arg, 1, 65535, &port, err,
	    sizeof(err)) == -1)
		ctl_die(err);
	r->http.port = (uint16_t)port;
	r->restconf = 1;
	if (colon == NULL)
		return;
	len = (size_t)(colon - arg);
	if (len >= 2 && arg[0] == '[' && arg[len - 1] == ']') {
		a++;
		len -= 2;
	}
	if (len == 0 || len >= sizeof(r->rc_addr))
		ctl_die("--restconf: expected [IP:]PORT");
	memcpy(r->rc_addr, a, len);
	r->rc_addr[len] = '\0';
	r->http.address = r->rc_addr;
}

/* The RESTCONF options; 0 when c is not one. */
static int
ctl_restconf_option(struct ctl_run *r, int c, const char *arg)
{
	char		err[256];
	uint64_t	u;

	if (c == CO_RC_USER || c == CO_RC_PASSWORD || c == CO_RC_MAX_BODY)
		r->rc_options = 1;
	switch (c) {
	case CO_RESTCONF:
		ctl_restconf_addr(r, arg);
		return 1;
	case CO_RC_USER:
	case CO_RC_PASSWORD:
		/* RFC 7617 section 2: no colon in the user-id. */
		if (strlen(arg) >= HTTP_MAX_CRED || (c == CO_RC_USER &&
		    (arg[0] == '\0' || strchr(arg, ':') != NULL)))
			ctl_die(c == CO_RC_USER ? "--restconf-user: 1 to 255 "
			    "characters, no ':'" : "--restconf-password: at "
			    "most 255 characters");
		if (c == CO_RC_USER)
			r->http.user = arg;
		else
			r->http.password = arg;
		return 1;
	case CO_RC_MAX_BODY:
		if (cli_uint("restconf-max-body", arg, 1, 1024u * 1024 * 1024,
		    &u, err, sizeof(err)) == -1)
			ctl_die(err);
		r->http.max_body = (size_t)u;
		return 1;
	}
	return 0;
}

/* The BGP options; 0 when c is not one. */
static int
ctl_bgp_option(struct ctl_run *r, int c, const char *arg)
{
	char		err[256];
	uint64_t	u;
	struct in_addr	id;

	switch (c) {
	case CO_BGP:
		r->bgp_on = 1;
		if (endpoint_parse(arg, &r->bgp.listen, err, sizeof(err)) == -1)
			ctl_die(err);
		if (r->bgp.listen.kind != EP_PTCP)
			ctl_die("--bgp: the controller listens: use "
			    "ptcp:PORT[:IP]");
		return 1;
	case CO_AS:
		if (cli_uint("as", arg, 1, UINT32_MAX, &u, err,
		    sizeof(err)) == -1)
			ctl_die(err);
		r->bgp.as = (uint32_t)u;
		break;
	case CO_BGP_ID:
		if (inet_pton(AF_INET, arg, &id) != 1 || id.s_addr == 0)
			ctl_die("--bgp-id: an IPv4 address other than 0.0.0.0 "
			    "(RFC 6286)");
		r->bgp.bgp_id = ntohl(id.s_addr);
		break;
	case CO_BGP_MONITOR:
		if (bgp_spk_parse_monitors(&r->bgp, arg, err,
		    sizeof(err)) == -1)
			ctl_die(err);
		break;
	case CO_BGP_HOLD:
		if (cli_uint("bgp-hold-time", arg, 0, 65535, &u, err,
		    sizeof(err)) == -1)
			ctl_die(err);
		if (u == 1 || u == 2)
			ctl_die("--bgp-hold-time: 1 and 2 are not allowed "
			    "(RFC 4271 section 4.2)");
		r->bgp.hold = (uint16_t)u;
		break;
	default:
		return 0;
	}
	r->bgp_options = 1;
	return 1;
}

/* The PCEP options; 0 when c is not one. */
static int
ctl_pcep_option(struct ctl_run *r, int c, const char *arg)
{
	char		err[256];
	uint64_t	u;

	switch (c) {
	case CO_PCEP:
		r->pcep_on = 1;
		if (endpoint_parse(arg, &r->pcep.listen, err,
		    sizeof(err)) == -1)
			ctl_die(err);
		if (r->pcep.listen.kind != EP_PTCP)
			ctl_die("--pcep: the controller listens: use "
			    "ptcp:PORT[:IP]");
		return 1;
	case CO_PCEP_KEEPALIVE:
	case CO_PCEP_DEADTIMER:
		if (cli_uint(c == CO_PCEP_KEEPALIVE ? "pcep-keepalive" :
		    "pcep-dead-timer", arg, 0, 255, &u, err,
		    sizeof(err)) == -1)
			ctl_die(err);
		if (c == CO_PCEP_KEEPALIVE)
			r->pcep.keepalive = (uint8_t)u;
		else
			r->pcep.deadtimer = (uint8_t)u;
		break;
	case CO_PCEP_UPDATE_ALL:
		if (cli_uint("pcep-update-all", arg, 1, 1000000, &u, err,
		    sizeof(err)) == -1)
			ctl_die(err);
		r->pcep.update_all = (uint32_t)u;
		break;
	case CO_PCEP_TIMEOUT:
		if (cli_double("pcep-timeout", arg, 0.1, 86400,
		    &r->pcep.op_timeout, err, sizeof(err)) == -1)
			ctl_die(err);
		break;
	default:
		return 0;
	}
	r->pcep_options = 1;
	return 1;
}

static void
ctl_option(struct ctl_run *r, int c, const char *arg)
{
	static const char *const del[] = { "none", "strict", "all" };
	static const char *const pin[] = { "ignore", "packet-out",
	    "flow-mod" };
	char		 err[256];
	uint64_t	 u;
	int		 e;

	err[0] = '\0';
	if ((e = nc_ctl_option(c, arg, err, sizeof(err))) == -1)
		ctl_die(err);
	if (e == 1)
		return;
	if (ctl_restconf_option(r, c, arg) || ctl_bgp_option(r, c, arg) ||
	    ctl_pcep_option(r, c, arg))
		return;
	if (c != CO_OPENFLOW && c != CO_DURATION)
		r->of_options = 1;
	switch (c) {
	case CO_OPENFLOW:
		r->openflow = 1;
		if (endpoint_parse(arg, &r->of.listen, err, sizeof(err)) == -1)
			ctl_die(err);
		if (r->of.listen.kind != EP_PTCP)
			ctl_die("--openflow: the controller listens: use "
			    "ptcp:PORT[:IP]");
		return;
	case CO_DELETE:
		ctl_parse_enum("delete", arg, del, 3, &e);
		r->of.delete_mode = e;
		return;
	case CO_PKTIN:
		ctl_parse_enum("packet-in-reply", arg, pin, 3, &e);
		r->of.pktin_reply = e;
		return;
	case CO_VERSION:
		if (of_version_parse(arg, &r->of.version_bitmap, err,
		    sizeof(err)) == -1)
			ctl_die(err);
		return;
	case CO_DURATION:
		if (cli_double("duration", arg, 0.001, 1e7, &r->duration, err,
		    sizeof(err)) == -1)
			ctl_die(err);
		return;
	case CO_STATS_INTERVAL:
		if (cli_double("stats-interval", arg, 0, 86400,
		    &r->of.stats_interval, err, sizeof(err)) == -1)
			ctl_die(err);
		if (r->of.stats_interval > 0 && r->of.stats_interval < 0.01)
			ctl_die("--stats-interval: 0 (none) or at least "
			    "0.01 s");
		r->stats_given = 1;
		return;
	}
	if (cli_uint(c == CO_FLOWS ? "flows-per-switch" : c == CO_BATCH ?
	    "batch" : c == CO_WINDOW ? "window" : "switches", arg,
	    c == CO_FLOWS ? 0 : 1, c == CO_FLOWS ? 100000000 : 1000000, &u,
	    err, sizeof(err)) == -1)
		ctl_die(err);
	if (c == CO_FLOWS)
		r->of.flows_per_switch = (uint32_t)u;
	else if (c == CO_BATCH)
		r->of.batch = (uint32_t)u;
	else if (c == CO_WINDOW)
		r->of.window = (uint32_t)u;
	else
		r->of.expect_switches = (uint32_t)u;
}

/* Which roles run: OpenFlow unless only RESTCONF was asked for. */
static void
ctl_check(struct ctl_run *r)
{
	char	err[256];

	if (!r->restconf && !r->bgp_on && !r->pcep_on && !nc_ctl_on())
		r->openflow = 1;
	if (nc_ctl_check(r->restconf, err, sizeof(err)) == -1)
		ctl_die(err);
	if (!r->pcep_on && r->pcep_options)
		ctl_die("the --pcep-* options need --pcep");
	if (r->pcep_on && r->pcep.keepalive != 0 && r->pcep.deadtimer != 0 &&
	    r->pcep.deadtimer <= r->pcep.keepalive)
		ctl_die("--pcep-dead-timer must be longer than --pcep-keepalive");
	if (!r->bgp_on && r->bgp_options)
		ctl_die("--as and the --bgp-* options need --bgp");
	/* The operational inventory is the switches' view: poll it. */
	if (r->restconf && !r->stats_given)
		r->of.stats_interval = 1;
	if (!r->openflow && r->of_options)
		ctl_die("OpenFlow options need --openflow when --restconf is "
		    "given");
	if (!r->restconf && r->rc_options)
		ctl_die("the --restconf-* options need --restconf");
	if (r->exit_when_done && (r->of.flows_per_switch == 0 ||
	    r->of.expect_switches == 0))
		ctl_die("--exit-when-done needs --switches and "
		    "--flows-per-switch");
}

static void
ctl_parse(int argc, char **argv, struct ctl_run *r)
{
	char	err[256];
	int	c;

	of_ctl_config_defaults(&r->of);
	endpoint_parse("ptcp:6653", &r->of.listen, err, sizeof(err));
	bgp_spk_config_defaults(&r->bgp);
	pce_config_defaults(&r->pcep);
	http_server_config_defaults(&r->http);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":vh", ctl_opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			r->verbose++;
			break;
		case 'h':
			fputs(ctl_help, stdout);
			exit(0);
		case CO_STATS:
			r->of.read_stats = 1;
			r->of_options = 1;
			break;
		case CO_LLDP:
			r->of.lldp = 1;
			r->of_options = 1;
			break;
		case CO_EXIT:
			r->exit_when_done = 1;
			r->of_options = 1;
			break;
		case ':':
			snprintf(err, sizeof(err), "%s needs an argument",
			    argv[optind - 1]);
			ctl_die(err);
		case '?':
			snprintf(err, sizeof(err), "unknown option '%s' (see "
			    "sbsim controller --help)", argv[optind - 1]);
			ctl_die(err);
		default:
			ctl_option(r, c, optarg);
		}
	}
	if (optind < argc) {
		snprintf(err, sizeof(err), "unexpected argument '%s'",
		    argv[optind]);
		ctl_die(err);
	}
	ctl_check(r);
}

static void
ctl_tick(evutil_socket_t fd, short what, void *arg)
{
	struct ctl_run	*r = arg;
	uint64_t	 now = clock_ns();

	(void)fd;
	(void)what;
	if (r->duration > 0 && (double)(now - r->start_ns) / 1e9 >=
	    r->duration)
		engine_stop("--duration reached");
	if (r->exit_when_done && of_ctl_finished())
		engine_stop("all switches programmed");
}

static double
ctl_secs(uint64_t from, uint64_t to)
{
	return from && to > from ? (double)(to - from) / 1e9 : 0;
}

static void
ctl_summary(const struct ctl_run *r)
{
	const struct of_ctl_stats	*s = of_ctl_stats();
	double				 prog = ctl_secs(s->program_start_ns,
	    s->program_end_ns);
	double				 del = ctl_secs(s->program_end_ns,
	    s->delete_end_ns);

	(void)r;
	printf("controller: %llu switches, %llu FLOW_MODs sent, %llu barriers "
	    "acked, %llu switches programmed",
	    (unsigned long long)s->switches,
	    (unsigned long long)s->flow_mods_sent,
	    (unsigned long long)s->barriers_acked,
	    (unsigned long long)s->switches_programmed);
	if (prog > 0)
		printf(" in %.3f s", prog);
	printf(", %llu flows seen in stats, %llu switches deleted",
	    (unsigned long long)s->flows_in_stats,
	    (unsigned long long)s->switches_deleted);
	if (del > 0)
		printf(" in %.3f s", del);
	printf(", %llu PACKET_INs, %llu LLDP sent, %llu links seen, "
	    "%llu errors received, %llu bad messages\n",
	    (unsigned long long)s->packet_ins,
	    (unsigned long long)s->lldp_sent,
	    (unsigned long long)s->links_seen,
	    (unsigned long long)s->errors_received,
	    (unsigned long long)s->bad_messages);
	fflush(stdout);
}

static void
ctl_bgp_summary(void)
{
	const struct bgp_spk_stats	*s = bgp_spk_stats();

	printf("bgp: %llu sessions, %llu UPDATEs received, %llu prefixes and "
	    "%llu withdrawals received, Loc-RIB %llu IPv4 %llu IPv6, "
	    "%llu UPDATEs sent, %llu prefixes and %llu withdrawals "
	    "advertised, %llu NOTIFICATIONs sent, %llu received, "
	    "%llu treated as withdraw\n",
	    (unsigned long long)s->sessions,
	    (unsigned long long)s->updates_received,
	    (unsigned long long)s->prefixes_received,
	    (unsigned long long)s->withdrawals_received,
	    (unsigned long long)bgp_spk_loc_rib_count(BGP_AF_IPV4),
	    (unsigned long long)bgp_spk_loc_rib_count(BGP_AF_IPV6),
	    (unsigned long long)s->updates_sent,
	    (unsigned long long)s->prefixes_advertised,
	    (unsigned long long)s->withdrawals_advertised,
	    (unsigned long long)s->notifications_sent,
	    (unsigned long long)s->notifications_received,
	    (unsigned long long)s->treat_as_withdraw);
	fflush(stdout);
}

static void
ctl_pcep_summary(void)
{
	const struct pce_stats	*s = pce_stats();
	double			 upd = ctl_secs(s->first_update_ns,
	    s->last_ack_ns);

	printf("pcep: %llu sessions, %llu PCCs synchronized, %llu PCRpts "
	    "received, %llu LSPs learned", (unsigned long long)s->sessions,
	    (unsigned long long)s->pccs_synced,
	    (unsigned long long)s->reports_received,
	    (unsigned long long)s->lsps_learned);
	if (s->last_learn_ns > s->first_report_ns)
		printf(" in %.3f s", ctl_secs(s->first_report_ns,
		    s->last_learn_ns));
	printf(", %llu removed, %llu PCUpds sent, %llu acked",
	    (unsigned long long)s->lsps_removed,
	    (unsigned long long)s->updates_sent,
	    (unsigned long long)s->updates_acked);
	if (upd > 0)
		printf(" in %.3f s (p50 %llu us, p99 %llu us)", upd,
		    (unsigned long long)hist_percentile(&s->update_latency,
		    50), (unsigned long long)hist_percentile(
		    &s->update_latency, 99));
	printf(", %llu update errors, %llu PCInitiates sent, %llu removals "
	    "sent, %llu PCErrs sent, %llu received, %llu bad messages\n",
	    (unsigned long long)s->update_errors,
	    (unsigned long long)s->initiates_sent,
	    (unsigned long long)s->removes_sent,
	    (unsigned long long)s->pcerr_sent,
	    (unsigned long long)s->pcerr_received,
	    (unsigned long long)s->bad_messages);
	fflush(stdout);
}

/* The roles asked for, on the engine's event_base; -1 with err. */
static int
ctl_start(struct ctl_run *r, char *err, size_t errlen)
{
	if (r->openflow) {
		if (of_ctl_start(&r->of, err, errlen) == -1)
			return -1;
		log_info("listening for OpenFlow switches on %s",
		    r->of.listen.text);
	}
	if (r->bgp_on) {
		if (bgp_spk_start(&r->bgp, err, errlen) == -1)
			return -1;
		log_info("listening for BGP peers on %s, AS %u",
		    r->bgp.listen.text, r->bgp.as);
	}
	if (r->pcep_on) {
		if (pce_start(&r->pcep, err, errlen) == -1)
			return -1;
		log_info("listening for PCEP PCCs on %s", r->pcep.listen.text);
	}
	if (!r->restconf)
		return 0;
	r->hs = http_server_new(engine_base(), &r->http, err, errlen);
	if (r->hs == NULL)
		return -1;
	restconf_start(r->hs);
	of_restconf_register();
	if (r->bgp_on)
		bgp_restconf_register();
	if (r->pcep_on)
		pcep_restconf_register(r->hs);
	if (nc_ctl_on() && nc_ctl_start(r->hs, err, errlen) == -1)
		return -1;
	fc_start();
	log_info("serving RESTCONF on %s port %u", r->http.address ?
	    r->http.address : "every address", r->http.port);
	return 0;
}

static void
ctl_stop(struct ctl_run *r)
{
	const struct http_server_stats	*h;

	if (r->openflow)
		ctl_summary(r);
	if (r->bgp_on)
		ctl_bgp_summary();
	if (r->pcep_on) {
		ctl_pcep_summary();
		/* Before the HTTP server: operations still waiting are
		 * answered while their requests exist. */
		pce_stop();
	}
	if (nc_ctl_on()) {
		nc_ctl_summary();
		/* Before the HTTP server: mount-point requests still waiting
		 * are answered while their requests exist. */
		nc_ctl_stop();
	}
	if (r->hs != NULL) {
		h = http_server_stats(r->hs);
		printf("restconf: %llu requests, %llu 2xx, %llu 4xx, "
		    "%llu 5xx\n", (unsigned long long)h->requests,
		    (unsigned long long)h->status_2xx,
		    (unsigned long long)h->status_4xx,
		    (unsigned long long)h->status_5xx);
		fflush(stdout);
		http_server_free(r->hs);
		r->hs = NULL;
	}
	if (r->openflow)
		of_ctl_stop();
	if (r->bgp_on)
		bgp_spk_stop();
	if (r->restconf)
		fc_stop();
}

static int
controller_main(int argc, char **argv)
{
	struct ctl_run	 r;
	struct event	*tick;
	struct timeval	 tv = { 0, 100000 };
	char		 err[256];

	memset(&r, 0, sizeof(r));
	ctl_parse(argc, argv, &r);
	log_init("sbsim controller", r.verbose);
	engine_raise_fd_limit();
	engine_init();
	if (ctl_start(&r, err, sizeof(err)) == -1) {
		fprintf(stderr, "sbsim controller: %s\n", err);
		if (r.openflow)
			of_ctl_stop();
		if (r.bgp_on)
			bgp_spk_stop();
		if (r.pcep_on)
			pce_stop();
		engine_free();
		return 1;
	}
	r.start_ns = clock_ns();
	tick = event_new(engine_base(), -1, EV_PERSIST, ctl_tick, &r);
	event_add(tick, &tv);
	engine_run();
	event_free(tick);
	ctl_stop(&r);
	engine_free();
	return 0;
}

const struct sbsim_cmd controller_cmd = {
	"controller",
	"the embedded reference controller",
	controller_main,
};
