/*
 * Reports of one run or of --repeat N runs (docs/report.md):
 * a human table, JSON (--report), Jenkins-plot CSV (--csv), JUnit XML
 * (--junit), --expect thresholds, and a progress line.
 *
 * With repeats (nruns > 1) every metric of every phase is summarized over
 * the runs as min / median / max / trimmed mean (the mean without the
 * lowest and the highest run; the plain mean with 2 runs or fewer; the
 * median of an even count is the mean of the two middle values).  Then:
 *  - JSON `phases` holds the medians of items, seconds, rate_per_s and
 *    latency_us.*; its timeline, first_s/last_s, trigger_s/end_s and
 *    latency samples come from the median run (the run whose rate_per_s is
 *    the lower median); its state is TIMEOUT when any run timed out, else
 *    the median run's.  `summary` has all four statistics and `runs` each
 *    run in full.  `counters` holds per-counter medians over the runs.
 *  - CSV has the medians; expectations are tested against the medians.
 *  - JUnit fails a phase that timed out in any run.
 * A phase that exists in only some runs is summarized over those runs.
 */
#ifndef SBSIM_REPORT_H
#define SBSIM_REPORT_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "env.h"
#include "expect.h"
#include "metrics.h"

struct report_opts {
	const char		*version;	/* JSON `version` */
	const char		*scenario;	/* free text: command line, file */
	const char		*json_path;	/* --report FILE, NULL for none */
	const char		*csv_path;	/* --csv FILE */
	const char		*junit_path;	/* --junit FILE */
	const struct expect	*expects;	/* --expect, parsed */
	size_t			 n_expects;
	const struct env	*env;		/* NULL: report_emit collects */
	/* Why the run failed besides its phases and expectations, or NULL
	 * (sbsim merge: a part that was not ok). */
	const char		*failed;
	/* Where a failed run says why on one line when no table is
	 * printed (-q): which phase, which threshold; NULL: nowhere. */
	FILE			*why_out;
};

/*
 * Print the human table on human_out (unless NULL) and write the files
 * asked for.  Returns 0 when every phase finished without PHASE_TIMEOUT and
 * every expectation holds, 1 when not, -1 when a file could not be written
 * (logged with log_warn; the other files are still written).
 */
int	report_emit(const struct metrics *runs, size_t nruns,
	    const struct report_opts *opts, FILE *human_out);

/*
 * Whether one run passed: no phase timed out and every expectation held
 * (what --find-max steps on).
 */
int	report_run_ok(const struct metrics *run, const struct report_opts *);


/* How a count option is written: "--switches", or a scenario group's
 * "of.count" as it is. */
static inline const char *
report_size_dashes(const char *size_opt)
{
	return strchr(size_opt, '.') != NULL ? "" : "--";
}

/* The runs of --sweep or --find-max, one device count each. */
struct report_step {
	uint32_t		 size;
	const struct metrics	*run;
	const char		*failed;	/* why, beside its phases
						 * (a worker died); NULL */
};

struct report_steps {
	const char		*kind;		/* "sweep", "find_max" */
	const char		*size_opt;	/* "switches" */
	uint32_t		 ceiling;	/* the count option's value */
	const struct report_step *steps;	/* in run order */
	size_t			 n;
	uint32_t		 largest_ok;	/* find_max: 0 none passed */
	uint32_t		 smallest_failed; /* find_max: 0 none failed */
};

/*
 * The report of the steps (docs/report.md, "Sweeps and capacity
 * search"): a row per step in the table, CSV and JUnit, each step's
 * phases and counters in the JSON.  Returns 0 when the search found a
 * passing size (find_max) or every size passed (sweep), 1 when not, -1
 * when a file could not be written.
 */
int	report_emit_steps(const struct report_steps *,
	    const struct report_opts *, FILE *human_out);

/*
 * One status line for the running phase (name, items/target, rate so far),
 * padded and ended with '\r' so the next one overwrites it; prints nothing
 * when no phase runs.  The caller checks isatty() and the interval.
 */
void	report_progress(const struct metrics *, FILE *);
/* Blank the progress line before the table or a log line is printed. */
void	report_progress_clear(FILE *);

#endif
