/*
 * `sbsim merge REPORT.json... [--report F] [--csv F] [--junit F]
 * [--expect EXPR]`: the reports of parts of one run (--shard I/N, on one
 * host or several) merged into the report of the run (src/run/merge.h), with
 * the exit status a run has: 0 ok, 1 not, 2 bad input.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "cmd.h"
#include "expect.h"
#include "log.h"
#include "merge.h"
#include "metrics.h"
#include "opt.h"
#include "report.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

struct merge_opts {
	const char	*report;
	const char	*csv;
	const char	*junit;
	struct expect	 expects[CLI_MAX_EXPECTS];
	size_t		 n_expects;
	int		 quiet;
};

static const char merge_usage[] =
"usage: sbsim merge REPORT.json... [options]\n"
"Merge the JSON reports of parts of one run (sbsim CMD --shard I/N) into\n"
"the report of the whole run: counts summed, latency histograms merged,\n"
"windows lined up on the parts' start times.\n";

static int
merge_expect(void *base, const char *arg, char *err, size_t errlen)
{
	struct merge_opts	*mo = base;

	return expect_append(mo->expects, &mo->n_expects, CLI_MAX_EXPECTS,
	    arg, err, errlen);
}

#define MO	struct merge_opts
static const struct opt merge_rows[] = {
	OPT_S("report", "FILE", MO, report, 0, "the merged JSON report"),
	OPT_S("csv", "FILE", MO, csv, 0,
	    "Jenkins plot CSV (header row + value row)"),
	OPT_S("junit", "FILE", MO, junit, 0, "JUnit XML"),
	OPT_FN("expect", "EXPR", merge_expect, 0,
	    "threshold on the merged run, e.g.\n"
	    "'program.latency_us.p99<5000'"),
	OPT_F_KEY("quiet", 'q', MO, quiet, "no results table on stdout"),
	OPT_HELP_ROW,
	OPT_END
};
#undef MO

#define merge_die(...)	cli_die_cmd("merge", __VA_ARGS__)

/* An --expect on a phase or counter the merged run does not have is a
 * typo: a usage error with the names it may have meant. */
static void
merge_check_expects(const struct merge_opts *mo, const struct metrics *m)
{
	const struct expect	*e;
	const char		*cand[METRICS_MAX_COUNTERS];
	char			 close[256];
	size_t			 i, k;

	for (i = 0; i < mo->n_expects; i++) {
		e = &mo->expects[i];
		if (e->metric >= 0 && metrics_find_phase(m, e->phase) == NULL) {
			for (k = 0; k < m->n_phases; k++)
				cand[k] = m->phases[k]->name;
			expect_suggest(e->phase, cand, k, close,
			    sizeof(close));
			merge_die("--expect '%s': the reports have no phase "
			    "'%s'%s%s%s", e->expr, e->phase, close[0] ?
			    " (did you mean " : "", close, close[0] ? "?)" :
			    "");
		}
		if (!expect_counter_unknown(e, m, 1, close, sizeof(close)))
			continue;
		merge_die("--expect '%s': the reports have no counter '%s'%s%s"
		    "%s", e->expr, e->counter, close[0] ? " (did you mean " :
		    "", close, close[0] ? "?)" : "");
	}
}

static const char *
merge_part_scenario(const struct merge_part *part)
{
	const char	*s = json_string_value(json_object_get(part->json,
			    "scenario"));

	return s != NULL ? s : "";
}

/* "sbsim merge of N parts: A + B + ...": the parts' own scenarios (their
 * command lines), each once, cut at the buffer's end. */
static void
merge_scenario(char *buf, size_t len, const struct merge_part *parts,
    size_t n)
{
	const char	*s;
	size_t		 p, q, used, shown = 0;

	snprintf(buf, len, "sbsim merge of %zu part%s:", n, n == 1 ? "" : "s");
	for (p = 0; p < n; p++) {
		s = merge_part_scenario(&parts[p]);
		for (q = 0; q < p; q++)
			if (strcmp(s, merge_part_scenario(&parts[q])) == 0)
				break;
		if (*s == '\0' || q < p)
			continue;
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s %s", shown++ ? " +" : "",
		    s);
	}
}

static int
merge_main(int argc, char **argv)
{
	static struct merge_part	 parts[MERGE_MAX_PARTS];
	struct merge_opts		 mo;
	struct opt_group		 g[] = {
		{ NULL, merge_rows, &mo, NULL },
	};
	struct report_opts		 rep;
	struct metrics			 m;
	char				 err[1024], why[1100], scen[2048];
	char				**opts;
	size_t				 n = 0, i;
	int				 first, parts_ok, rc;

	log_init("sbsim", 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	memset(&mo, 0, sizeof(mo));
	for (first = 1; first < argc && argv[first][0] != '-'; first++)
		;
	if (first == 1) {
		/* --help, or no report: opt_parse says which. */
		opt_parse("sbsim merge", merge_usage, g, nitems(g), argc, argv);
		merge_die("REPORT.json... is required (sbsim merge --help)");
	}
	/* The options after the reports, as if they came first. */
	opts = xcalloc((size_t)(argc - first) + 2, sizeof(*opts));
	opts[0] = argv[0];
	memcpy(opts + 1, argv + first, (size_t)(argc - first) *
	    sizeof(*opts));
	opt_parse("sbsim merge", merge_usage, g, nitems(g), argc - first + 1,
	    opts);
	free(opts);
	if (first - 1 > MERGE_MAX_PARTS)
		merge_die("at most %d reports", MERGE_MAX_PARTS);
	for (i = 1; i < (size_t)first; i++, n++)
		if (merge_load(&parts[n], argv[i], err, sizeof(err)) == -1)
			merge_die("%s", err);
	if (merge_parts(parts, n, &m, &parts_ok, why, sizeof(why), err,
	    sizeof(err)) == -1)
		merge_die("%s", err);
	merge_check_expects(&mo, &m);
	merge_scenario(scen, sizeof(scen), parts, n);
	memset(&rep, 0, sizeof(rep));
	rep.version = PACKAGE_VERSION;
	rep.scenario = scen;
	rep.json_path = mo.report;
	rep.csv_path = mo.csv;
	rep.junit_path = mo.junit;
	rep.expects = mo.expects;
	rep.n_expects = mo.n_expects;
	rep.failed = parts_ok ? NULL : why;
	rep.why_out = mo.quiet ? stderr : NULL;
	rc = report_emit(&m, 1, &rep, mo.quiet ? NULL : stdout);
	metrics_free(&m);
	for (i = 0; i < n; i++)
		merge_part_free(&parts[i]);
	return rc == 0 ? 0 : 1;
}

const struct sbsim_cmd merge_cmd = {
	"merge",
	"merge the reports of parts of one run (--shard) into one",
	merge_main,
};
