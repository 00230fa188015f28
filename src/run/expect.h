/*
 * Thresholds: --expect 'phase.metric OP value' turns a slow run into exit
 * status 1 and a JUnit failure (docs/report.md, "Thresholds").
 *	program.rate_per_s>=1000	connect.latency_us.p99 < 5000
 *	counters.decode_errors==0	(a counter; absent counts as 0)
 */
#ifndef SBSIM_EXPECT_H
#define SBSIM_EXPECT_H

#include <stddef.h>

#include "metrics.h"

/* The per-phase metrics a report shows and an expectation may test:
 * the enum and the names come from this one list. */
#define REPORT_METRICS(X)						\
	X(RM_ITEMS, "items")						\
	X(RM_SECONDS, "seconds")					\
	X(RM_RATE, "rate_per_s")					\
	X(RM_P50, "latency_us.p50")					\
	X(RM_P90, "latency_us.p90")					\
	X(RM_P99, "latency_us.p99")					\
	X(RM_MAX, "latency_us.max")					\
	/* What the phase cost (metrics.h, struct phase_cost). */	\
	X(RM_SBSIM_CPU, "sbsim.cpu_s")					\
	X(RM_SBSIM_BUSY, "sbsim.busy")					\
	X(RM_CTL_CPU, "controller.cpu_s")				\
	X(RM_CTL_RSS, "controller.rss_max_kb")				\
	X(RM_CTL_THREADS, "controller.threads_max")

enum report_metric {
#define RM_ENUM(id, name)	id,
	REPORT_METRICS(RM_ENUM)
#undef RM_ENUM
	RM_COUNT
};
/* The first of the cost metrics: the table shows those apart. */
#define RM_FIRST_COST	RM_SBSIM_CPU
/* "items", "seconds", "rate_per_s", "latency_us.p50", ... */
extern const char *const report_metric_names[RM_COUNT];
/* The metric's value in one phase; latencies in microseconds. */
double	 report_metric_value(const struct phase *, enum report_metric);

enum expect_op {
	EXPECT_GE,
	EXPECT_LE,
	EXPECT_GT,
	EXPECT_LT,
	EXPECT_EQ,
	EXPECT_NE,
};

#define EXPECT_PHASE_COUNTERS	"counters"
#define EXPECT_NAME_MAX		64
#define EXPECT_EXPR_MAX		192

struct expect {
	char		 expr[EXPECT_EXPR_MAX];	/* normalized "a.b>=1" */
	char		 phase[PHASE_NAME_MAX];	/* or "counters" */
	int		 metric;		/* enum report_metric, -1 counter */
	char		 counter[EXPECT_NAME_MAX];	/* when metric == -1 */
	enum expect_op	 op;
	double		 value;
};

/*
 * Parse s into out.  On bad syntax return -1 with a one-line message in
 * errbuf naming the argument and what is wrong; 0 on success.
 */
int	 expect_parse(const char *s, struct expect *out, char *errbuf,
	    size_t errlen);
/* One more --expect S parsed into list[*n] (list holds max): at most
 * max, "--expect: at most MAX" past them. */
int	 expect_append(struct expect *list, size_t *n, size_t max,
	    const char *s, char *errbuf, size_t errlen);
const char *expect_op_name(enum expect_op);
/* Whether value satisfies the expectation's operator and threshold. */
int	 expect_holds(const struct expect *, double value);

/*
 * The names among cand[0..n) (NULLs skipped) close enough to name to be
 * what it meant (a few letters off, or one inside the other), at most
 * EXPECT_SUGGEST_MAX, joined with ", " into buf; how many.
 */
#define EXPECT_SUGGEST_MAX	5
size_t	 expect_suggest(const char *name, const char *const *cand, size_t n,
	    char *buf, size_t len);
/* 1: a counter that exists only once its event happened (zero when it
 * did not), so that a run without it does not make it unknown. */
int	 expect_counter_lazy(const char *name);
/* 1 when e names a counter none of runs[0..n) has (nor a lazy one): a
 * typo, with the first run's counters it may have meant in close
 * (expect_suggest(), "" when none); 0 otherwise. */
int	 expect_counter_unknown(const struct expect *e,
	    const struct metrics *runs, size_t n, char *close, size_t len);

#endif
