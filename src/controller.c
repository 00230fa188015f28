/*
 * `sbsim controller`: the embedded reference controller in its own
 * process, on the same engine.  For now it has its OpenFlow role; the
 * northbound (RESTCONF) and the other protocols join it here.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "cli.h"
#include "cmd.h"
#include "engine.h"
#include "log.h"
#include "metrics.h"
#include "of_codec.h"
#include "of_ctl.h"

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
	{ "verbose",		no_argument,	   NULL, 'v' },
	{ "help",		no_argument,	   NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char ctl_help[] =
"usage: sbsim controller [--openflow ptcp:PORT[:IP]] [options]\n"
"The embedded reference controller.\n"
"  --openflow EP          where switches connect (default ptcp:6653)\n"
"  --of-version V[,V]     1.3, 1.0 or both (default both)\n"
"  --switches N           wait for N switches, then program them all\n"
"  --flows-per-switch K   FLOW_MODs (adds) to push into each switch\n"
"  --batch B              FLOW_MODs per barrier (default 100)\n"
"  --window W             barriers in flight per switch (default 4)\n"
"  --read-stats           read flow stats back after programming\n"
"  --delete MODE          after programming: none, strict or all\n"
"  --packet-in-reply R    ignore, packet-out (default) or flow-mod\n"
"  --lldp                 send LLDP on every port to discover links\n"
"  --duration S           stop after S seconds\n"
"  --exit-when-done       stop once programming (and deletion) is done\n"
"  -v, --verbose          more logging\n";

struct ctl_run {
	struct of_ctl_config	 of;
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
	switch (c) {
	case CO_OPENFLOW:
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

static void
ctl_parse(int argc, char **argv, struct ctl_run *r)
{
	char	err[256];
	int	c;

	of_ctl_config_defaults(&r->of);
	endpoint_parse("ptcp:6653", &r->of.listen, err, sizeof(err));
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
			break;
		case CO_LLDP:
			r->of.lldp = 1;
			break;
		case CO_EXIT:
			r->exit_when_done = 1;
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
	if (r->exit_when_done && (r->of.flows_per_switch == 0 ||
	    r->of.expect_switches == 0))
		ctl_die("--exit-when-done needs --switches and "
		    "--flows-per-switch");
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
	if (of_ctl_start(&r.of, err, sizeof(err)) == -1) {
		fprintf(stderr, "sbsim controller: %s\n", err);
		engine_free();
		return 1;
	}
	r.start_ns = clock_ns();
	tick = event_new(engine_base(), -1, EV_PERSIST, ctl_tick, &r);
	event_add(tick, &tv);
	log_info("listening for OpenFlow switches on %s", r.of.listen.text);
	engine_run();
	event_free(tick);
	ctl_summary(&r);
	of_ctl_stop();
	engine_free();
	return 0;
}

const struct sbsim_cmd controller_cmd = {
	"controller",
	"the embedded reference controller",
	controller_main,
};
