#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "log.h"
#include "opt.h"

#ifndef SBSIM_YANG_DIR
#define SBSIM_YANG_DIR	"/usr/local/share/sbsim/yang"
#endif

const char *
cli_yang_dir(void)
{
#ifdef SBSIM_SRC_YANG_DIR
	if (access(SBSIM_YANG_DIR, R_OK | X_OK) == -1)
		return SBSIM_SRC_YANG_DIR;
#endif
	return SBSIM_YANG_DIR;
}

static void __attribute__((noreturn))
cli_vdie(const char *cmd, const char *fmt, va_list ap)
{
	fprintf(stderr, "sbsim %s: ", cmd);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	exit(CLI_EXIT_USAGE);
}

void
cli_die(const struct run_opts *ro, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	cli_vdie(ro->cmd, fmt, ap);
}

void
cli_die_cmd(const char *cmd, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	cli_vdie(cmd, fmt, ap);
}

unsigned
cli_controllers(const struct run_opts *ro, const char *noun, unsigned max,
    const char **eps, char **copy)
{
	char		*ep, *save = NULL;
	unsigned	 k = 0;

	*copy = NULL;
	eps[0] = ro->controller;
	if (ro->controller == NULL || strchr(ro->controller, ',') == NULL)
		return 1;
	*copy = xstrdup(ro->controller);
	for (ep = strtok_r(*copy, ",", &save); ep != NULL;
	    ep = strtok_r(NULL, ",", &save)) {
		if (k == max)
			cli_die(ro, "--controller: at most %u %ss", max, noun);
		eps[k++] = ep;
	}
	if (k < 2)
		cli_die(ro, "--controller: '%s' names no second %s",
		    ro->controller, noun);
	return k;
}

/* --backoff MIN:MAX in milliseconds. */
static int
cli_backoff(void *base, const char *arg, char *err, size_t errlen)
{
	struct run_opts	*ro = base;
	uint64_t	 lo, hi;
	char		 buf[64];
	char		*colon;

	snprintf(buf, sizeof(buf), "%s", arg);
	if ((colon = strchr(buf, ':')) == NULL) {
		snprintf(err, errlen, "--backoff: '%s' is not MIN:MAX in "
		    "milliseconds", arg);
		return -1;
	}
	*colon = '\0';
	if (opt_uint("backoff", buf, 1, 3600000, &lo, err, errlen) == -1 ||
	    opt_uint("backoff", colon + 1, lo, 3600000, &hi, err, errlen) == -1)
		return -1;
	ro->backoff_min_ms = lo;
	ro->backoff_max_ms = hi;
	return 0;
}

static void
cli_scenario(int argc, char **argv, struct run_opts *ro)
{
	size_t	used = 0;
	int	i, n;

	ro->scenario[0] = '\0';
	for (i = 0; i < argc && used < sizeof(ro->scenario); i++) {
		n = snprintf(ro->scenario + used, sizeof(ro->scenario) - used,
		    "%s%s", i ? " " : "sbsim ", argv[i]);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

static void
cli_defaults(struct run_opts *ro, const char *cmd)
{
	memset(ro, 0, sizeof(*ro));
	ro->cmd = cmd;
	ro->max_inflight = 256;
	ro->connect_timeout = 10;
	ro->backoff_min_ms = 100;
	ro->backoff_max_ms = 5000;
	ro->phase_timeout = 60;
	ro->repeat = 1;
	ro->seed = 1;
	ro->step_pause = 1;
}

static int
cli_expect(void *base, const char *arg, char *err, size_t errlen)
{
	struct run_opts	*ro = base;

	return expect_append(ro->expects, &ro->n_expects, CLI_MAX_EXPECTS,
	    arg, err, errlen);
}

/* --fault KIND[:RATE|@T1,T2,...][/ARG]; the kind is checked against the
 * command's in run_main(). */
static int
cli_fault(void *base, const char *arg, char *err, size_t errlen)
{
	struct run_opts	*ro = base;

	if (ro->n_faults == FAULT_MAX_SPECS) {
		snprintf(err, errlen, "--fault: at most %d", FAULT_MAX_SPECS);
		return -1;
	}
	return fault_parse(arg, &ro->faults[ro->n_faults++], err, errlen);
}

/* --sweep N1,N2,...: device counts, each 1 or more, in run order. */
static int
cli_sweep(void *base, const char *arg, char *err, size_t errlen)
{
	struct run_opts	*ro = base;
	const char	*p = arg;
	char		*end;
	unsigned long	 v;

	ro->n_sweep = 0;
	for (;;) {
		errno = 0;
		v = strtoul(p, &end, 10);
		if (end == p || *p < '0' || *p > '9' || errno != 0 ||
		    v < 1 || v > 10000000 || (*end != ',' && *end != '\0')) {
			snprintf(err, errlen, "--sweep: expected device counts "
			    "N1,N2,... (1 to 10000000 each)");
			return -1;
		}
		if (ro->n_sweep == CLI_MAX_SWEEP) {
			snprintf(err, errlen, "--sweep: at most %d sizes",
			    CLI_MAX_SWEEP);
			return -1;
		}
		ro->sweep[ro->n_sweep++] = (uint32_t)v;
		if (*end == '\0')
			return 0;
		p = end + 1;
	}
}

/* --shard I/N: this process runs slice I (from 0) of N. */
static int
cli_shard(void *base, const char *arg, char *err, size_t errlen)
{
	struct run_opts	*ro = base;
	unsigned long	 i, n;
	char		*end;

	errno = 0;
	i = strtoul(arg, &end, 10);
	if (end == arg || *arg < '0' || *arg > '9' || *end != '/' ||
	    errno != 0)
		goto bad;
	arg = end + 1;
	n = strtoul(arg, &end, 10);
	if (end == arg || *arg < '0' || *arg > '9' || *end != '\0' ||
	    errno != 0 || n < 1 || n > CLI_MAX_SHARDS || i >= n)
		goto bad;
	ro->shard_index = (uint32_t)i;
	ro->shard_count = (uint32_t)n;
	return 0;
bad:
	snprintf(err, errlen, "--shard: expected I/N, the slice I (0 to N-1) "
	    "of N (1 to %d)", CLI_MAX_SHARDS);
	return -1;
}

/* --backoff's default as it is given: "MIN:MAX". */
static int
cli_backoff_show(const struct opt *o, const void *base, char *buf,
    size_t len)
{
	const struct run_opts	*ro = base;

	snprintf(buf, len, "%u:%u", (unsigned)ro->backoff_min_ms,
	    (unsigned)ro->backoff_max_ms);
	return 0;
}

#define RO	struct run_opts
static const struct opt cli_common_rows[] = {
	OPT_S("controller", "EP", RO, controller, 0,
	    "tcp:IP:PORT, ssl:IP:PORT or ptcp:PORT[:IP]\n"
	    "(ptcp: device i listens on PORT+i, all addresses\n"
	    "unless IP is given); EP,EP,... (where the command\n"
	    "says so) connects each device to every controller"),
	OPT_S("source", "CIDR", RO, source, 0,
	    "local addresses to spread devices over"),
	OPT_D("connect-rate", "N", RO, connect_rate, 0, 1e9, 0,
	    "devices connecting per second (0: no limit)"),
	OPT_U("connect-inflight", "N", RO, max_inflight, 1, 100000, 0,
	    "connects under way at once"),
	OPT_D("connect-timeout", "S", RO, connect_timeout, 0, 3600, 0,
	    "give a connect (and TLS handshake) up after S\n"
	    "seconds and retry (0: the kernel's)"),
	OPT_FN("backoff", "MIN:MAX", cli_backoff, 0,
	    "reconnect backoff in ms", .show = cli_backoff_show),
	OPT_D("duration", "S", RO, duration, 0.001, 1e7, 0,
	    "run for S seconds, even when the phases end sooner"),
	OPT_D("timeout", "S", RO, phase_timeout, 0.001, 1e7, 0,
	    "how long a phase may wait"),
	OPT_S("report", "FILE", RO, report, 0, "JSON report"),
	OPT_S("csv", "FILE", RO, csv, 0,
	    "Jenkins plot CSV (header row + value row)"),
	OPT_S("junit", "FILE", RO, junit, 0, "JUnit XML"),
	OPT_FN("expect", "EXPR", cli_expect, 0,
	    "threshold, e.g. 'connect.rate_per_s>=1000'"),
	OPT_FN("fault", "KIND[:RATE|@T1,...][/ARG]", cli_fault, 0,
	    "inject a fault into a random device, RATE per\n"
	    "second or at each time T (seconds from the\n"
	    "start); repeatable (sbsim(1) lists the kinds)"),
	OPT_U("repeat", "N", RO, repeat, 1, 1000, 0,
	    "run N times; report min/median/max"),
	OPT_FN("sweep", "N1,N2,...", cli_sweep, 0,
	    "one run per device count, into one report (the\n"
	    "count option is the largest allowed)"),
	OPT_U("find-max", "START", RO, find_max, 1, 10000000, 0,
	    "step the device count up from START (doubling,\n"
	    "then bisecting) to the largest that passes; the\n"
	    "count option is the ceiling"),
	OPT_S("step-group", "NAME", RO, step_group, 0,
	    "sbsim run: the group whose count --sweep and\n"
	    "--find-max step", .def = "the first"),
	OPT_D("step-pause", "S", RO, step_pause, 0, 3600, 0,
	    "seconds between the runs of --sweep and\n"
	    "--find-max"),
	OPT_FN("shard", "I/N", cli_shard, 0,
	    "run only slice I (0 to N-1) of the devices, numbered\n"
	    "as in the whole run (sbsim merge joins the reports)"),
	OPT_U("workers", "N", RO, workers, 1, 1024, 0,
	    "run in N processes, each a shard with its own\n"
	    "event loop, their reports merged into one"),
	OPT_D("start-at", "UNIX_TIME", RO, start_at, 1, 1e11, 0,
	    "wait until then (seconds since 1970, may be\n"
	    "fractional) to start"),
	OPT_S("ssl-key", "F", RO, ssl_key, 0, "TLS key for ssl: endpoints"),
	OPT_S("ssl-cert", "F", RO, ssl_cert, 0, "its certificate"),
	OPT_S("ssl-ca", "F", RO, ssl_ca, 0,
	    "the CA that signs the peer's certificate"),
	OPT_U("seed", "N", RO, seed, 0, UINT32_MAX, 0,
	    "random seed (backoff jitter, ...)"),
	OPT_U("controller-pid", "PID", RO, controller_pid, 1, INT32_MAX, 0,
	    "sample this local controller's CPU, RSS and\n"
	    "threads per phase (from /proc)"),
	OPT_S("controller-metrics", "URL", RO, controller_metrics, 0,
	    "scrape the controller's Prometheus endpoint\n"
	    "(http://HOST:PORT/metrics) once a second"),
	OPT_S("metrics-listen", "[IP:]PORT", RO, metrics_listen, 0,
	    "serve the run's live figures in Prometheus text\n"
	    "format at /metrics (127.0.0.1 unless IP)"),
	OPT_C_KEY("verbose", 'v', RO, verbose, "more logging (twice: debug)"),
	OPT_F_KEY("quiet", 'q', RO, quiet, "no results table on stdout"),
	OPT_HELP_ROW,
	OPT_END
};
#undef RO

/* The command whose --help lists the options being parsed, when it is
 * not the one named in errors (a scenario's group: "run: group 'of'"). */
static const char *cli_help_cmd;

void
cli_help_as(const char *cmd)
{
	cli_help_cmd = cmd;
}

void
cli_parse_groups(int argc, char **argv, struct opt_group *proto,
    size_t nproto, struct run_opts *ro, const char *usage)
{
	/* Static: reachable while an option error exits (LeakSanitizer). */
	static struct opt_group	*g;
	char			 prog[64], help[64];

	cli_defaults(ro, argv[0]);
	cli_scenario(argc, argv, ro);
	g = xcalloc(nproto + 1, sizeof(*g));
	if (nproto > 0)
		memcpy(g, proto, nproto * sizeof(*g));
	g[nproto].title = "common options:";
	g[nproto].rows = cli_common_rows;
	g[nproto].base = ro;
	snprintf(prog, sizeof(prog), "sbsim %s", ro->cmd);
	snprintf(help, sizeof(help), "sbsim %s", cli_help_cmd != NULL ?
	    cli_help_cmd : ro->cmd);
	opt_parse_as(prog, help, usage, g, nproto + 1, argc, argv);
	free(g);
	g = NULL;
}
