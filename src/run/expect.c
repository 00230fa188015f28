/*
 * Thresholds on a run's metrics: parsing 'phase.metric OP value' and the
 * comparison.  Evaluation against runs lives in report.c, which knows how
 * repeats are summarized.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "log.h"

const char *const report_metric_names[RM_COUNT] = {
#define RM_NAME(id, name)	[id] = name,
	REPORT_METRICS(RM_NAME)
#undef RM_NAME
};

/* Longest first so ">=" is not read as ">". */
static const struct {
	const char	*text;
	enum expect_op	 op;
} expect_ops[] = {
	{ ">=", EXPECT_GE }, { "<=", EXPECT_LE }, { "==", EXPECT_EQ },
	{ "!=", EXPECT_NE }, { ">", EXPECT_GT }, { "<", EXPECT_LT },
};
#define N_OPS	(sizeof(expect_ops) / sizeof(expect_ops[0]))

/* The metric of that name, or -1. */
static int
report_metric_lookup(const char *name)
{
	int	i;

	for (i = 0; i < RM_COUNT; i++)
		if (strcmp(report_metric_names[i], name) == 0)
			return i;
	return -1;
}

double
report_metric_value(const struct phase *p, enum report_metric m)
{
	switch (m) {
	case RM_ITEMS:
		return (double)p->items;
	case RM_SECONDS:
		return phase_seconds(p);
	case RM_RATE:
		return phase_rate(p);
	case RM_P50:
		return (double)hist_percentile(&p->latency, 50);
	case RM_P90:
		return (double)hist_percentile(&p->latency, 90);
	case RM_P99:
		return (double)hist_percentile(&p->latency, 99);
	case RM_MAX:
		return (double)p->latency.max;
	case RM_SBSIM_CPU:
		return phase_cost_cpu_s(p, COST_SBSIM);
	case RM_SBSIM_BUSY:
		return phase_cost_busy(p, COST_SBSIM);
	case RM_CTL_CPU:
		return phase_cost_cpu_s(p, COST_CONTROLLER);
	case RM_CTL_RSS:
		return (double)p->cost[COST_CONTROLLER].rss_max_kb;
	case RM_CTL_THREADS:
		return (double)p->cost[COST_CONTROLLER].threads_max;
	case RM_COUNT:
		break;
	}
	return 0;
}

const char *
expect_op_name(enum expect_op op)
{
	static const char *const text[] = {
		[EXPECT_GE] = ">=", [EXPECT_LE] = "<=", [EXPECT_GT] = ">",
		[EXPECT_LT] = "<", [EXPECT_EQ] = "==", [EXPECT_NE] = "!=",
	};

	return (size_t)op < nitems(text) ? text[op] : "?";
}

int
expect_holds(const struct expect *e, double v)
{
	switch (e->op) {
	case EXPECT_GE:
		return v >= e->value;
	case EXPECT_LE:
		return v <= e->value;
	case EXPECT_GT:
		return v > e->value;
	case EXPECT_LT:
		return v < e->value;
	case EXPECT_EQ:
		return v == e->value;
	case EXPECT_NE:
		return v != e->value;
	}
	return 0;
}

/* One-line error "--expect 'ARG': WHAT"; always returns -1. */
static int __attribute__((format(printf, 4, 5)))
expect_error(const char *arg, char *errbuf, size_t errlen,
    const char *fmt, ...)
{
	char	what[256];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (errbuf != NULL && errlen > 0)
		snprintf(errbuf, errlen, "--expect '%s': %s", arg, what);
	return -1;
}

/* Copy s[0..n) without surrounding blanks into dst; -1 if it won't fit. */
static int
copy_trimmed(char *dst, size_t dstlen, const char *s, size_t n)
{
	while (n > 0 && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= dstlen)
		return -1;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

/*
 * Find the operator: the first of < > = ! in s.  -1 when there is none,
 * -2 when those characters do not make an operator (a lone '=' or '!').
 */
static int
find_op(const char *s, size_t *pos, size_t *len, enum expect_op *op)
{
	size_t	i, at = strcspn(s, "<>=!");

	if (s[at] == '\0')
		return -1;
	for (i = 0; i < N_OPS; i++)
		if (strncmp(s + at, expect_ops[i].text,
		    strlen(expect_ops[i].text)) == 0) {
			*pos = at;
			*len = strlen(expect_ops[i].text);
			*op = expect_ops[i].op;
			return 0;
		}
	*pos = at;
	return -2;
}

static void
metric_list(char *buf, size_t len)
{
	size_t	off = 0;
	int	i, n;

	buf[0] = '\0';
	for (i = 0; i < RM_COUNT; i++) {
		n = snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
		    report_metric_names[i]);
		if (n < 0 || (size_t)n >= len - off)
			return;
		off += (size_t)n;
	}
}

/*
 * Where the phase ends: the first dot after which a metric's name
 * follows (a scenario's phases are "GROUP.phase"), else the first dot.
 */
static const char *
split_lhs(const char *lhs)
{
	const char	*dot;

	if (strncmp(lhs, EXPECT_PHASE_COUNTERS ".",
	    sizeof(EXPECT_PHASE_COUNTERS)) == 0)
		return lhs + sizeof(EXPECT_PHASE_COUNTERS) - 1;
	for (dot = strchr(lhs, '.'); dot != NULL; dot = strchr(dot + 1, '.'))
		if (report_metric_lookup(dot + 1) != -1)
			return dot;
	return strchr(lhs, '.');
}

/* "phase.metric" into out->phase and out->metric or out->counter. */
static int
parse_lhs(const char *arg, const char *lhs, struct expect *out,
    char *errbuf, size_t errlen)
{
	const char	*dot = split_lhs(lhs);
	char		 list[400];
	size_t		 plen;

	if (dot == NULL || dot == lhs || dot[1] == '\0')
		return expect_error(arg, errbuf, errlen,
		    "expected 'phase.metric OP value' or "
		    "'counters.NAME OP value'");
	plen = (size_t)(dot - lhs);
	if (plen >= sizeof(out->phase))
		return expect_error(arg, errbuf, errlen,
		    "phase name longer than %zu characters",
		    sizeof(out->phase) - 1);
	memcpy(out->phase, lhs, plen);
	out->phase[plen] = '\0';
	if (strcmp(out->phase, EXPECT_PHASE_COUNTERS) == 0) {
		out->metric = -1;
		if (copy_trimmed(out->counter, sizeof(out->counter), dot + 1,
		    strlen(dot + 1)) == -1)
			return expect_error(arg, errbuf, errlen,
			    "counter name longer than %zu characters",
			    sizeof(out->counter) - 1);
		return 0;
	}
	if ((out->metric = report_metric_lookup(dot + 1)) == -1) {
		metric_list(list, sizeof(list));
		return expect_error(arg, errbuf, errlen,
		    "unknown metric '%s' (one of %s)", dot + 1, list);
	}
	return 0;
}

static int
parse_value(const char *arg, const char *text, double *v, char *errbuf,
    size_t errlen)
{
	char	*end;

	if (*text == '\0')
		return expect_error(arg, errbuf, errlen,
		    "missing value after the operator");
	errno = 0;
	*v = strtod(text, &end);
	if (*end != '\0' || errno == ERANGE || !isfinite(*v))
		return expect_error(arg, errbuf, errlen,
		    "value '%s' is not a finite number", text);
	return 0;
}

int
expect_parse(const char *s, struct expect *out, char *errbuf,
    size_t errlen)
{
	char	lhs[EXPECT_NAME_MAX + PHASE_NAME_MAX + 2], rhs[64];
	size_t	pos, oplen;
	int	n;

	memset(out, 0, sizeof(*out));
	switch (find_op(s, &pos, &oplen, &out->op)) {
	case -1:
		return expect_error(s, errbuf, errlen,
		    "no operator (one of >= <= > < == !=)");
	case -2:
		return expect_error(s, errbuf, errlen,
		    "bad operator at '%s' (one of >= <= > < == !=)", s + pos);
	}
	if (copy_trimmed(lhs, sizeof(lhs), s, pos) == -1)
		return expect_error(s, errbuf, errlen, "name too long");
	if (copy_trimmed(rhs, sizeof(rhs), s + pos + oplen,
	    strlen(s + pos + oplen)) == -1)
		return expect_error(s, errbuf, errlen, "value too long");
	if (strpbrk(rhs, "<>=!") != NULL)
		return expect_error(s, errbuf, errlen,
		    "more than one operator (one of >= <= > < == !=)");
	if (parse_lhs(s, lhs, out, errbuf, errlen) == -1 ||
	    parse_value(s, rhs, &out->value, errbuf, errlen) == -1)
		return -1;
	/* Keep the user's spelling of the value, minus blanks. */
	n = snprintf(out->expr, sizeof(out->expr), "%s%s%s", lhs,
	    expect_op_name(out->op), rhs);
	if (n < 0 || (size_t)n >= sizeof(out->expr))
		return expect_error(s, errbuf, errlen, "expression too long");
	return 0;
}

int
expect_append(struct expect *list, size_t *n, size_t max, const char *s,
    char *errbuf, size_t errlen)
{
	if (*n == max) {
		snprintf(errbuf, errlen, "--expect: at most %zu", max);
		return -1;
	}
	if (expect_parse(s, &list[*n], errbuf, errlen) == -1)
		return -1;
	(*n)++;
	return 0;
}

/* Levenshtein distance of a and b, each cut at EXPECT_NAME_MAX. */
static size_t
edit_distance(const char *a, const char *b)
{
	size_t	row[EXPECT_NAME_MAX + 1], la = strlen(a), lb = strlen(b);
	size_t	i, j, diag, up;

	la = la > EXPECT_NAME_MAX ? EXPECT_NAME_MAX : la;
	lb = lb > EXPECT_NAME_MAX ? EXPECT_NAME_MAX : lb;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			up = row[j];
			row[j] = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return row[lb];
}

/* A misspelling of cand: a few edits away, or one inside the other. */
static int
expect_close(const char *name, const char *cand)
{
	size_t	len = strlen(name), lim = len / 3 > 2 ? len / 3 : 2;

	if (len >= 3 && (strstr(cand, name) != NULL ||
	    (strlen(cand) >= 3 && strstr(name, cand) != NULL)))
		return 1;
	return edit_distance(name, cand) <= lim;
}

size_t
expect_suggest(const char *name, const char *const *cand, size_t n,
    char *buf, size_t len)
{
	size_t	i, used = 0, found = 0;
	int	k;

	if (len > 0)
		buf[0] = '\0';
	for (i = 0; i < n && found < EXPECT_SUGGEST_MAX; i++) {
		if (cand[i] == NULL || !expect_close(name, cand[i]))
			continue;
		k = snprintf(buf + used, len - used, "%s%s", found ? ", " : "",
		    cand[i]);
		if (k < 0 || (size_t)k >= len - used)
			break;
		used += (size_t)k;
		found++;
	}
	return found;
}

/*
 * Counters a command makes only when their event happens (a controller
 * process gone, a fault's effect, a monitor that saw nothing): named by
 * --expect, they exist, zero, in a run where it did not.  By the name
 * after a scenario group's "GROUP.".
 */
int
expect_counter_lazy(const char *name)
{
	static const char *const lazy[] = {
		"controller_pid_gone", "controller_scrape_errors",
		"learn_not_observed", "monitor_prefixes",
		"fault_drop_sessions", "fault_rpc_error_answered",
		"fault_slow_rpc_answered", "fault_delay_bytes",
		"fault_delay_ms",
	};
	const char	*dot = strrchr(name, '.');
	size_t		 i;

	name = dot != NULL ? dot + 1 : name;
	for (i = 0; i < nitems(lazy); i++)
		if (strcmp(name, lazy[i]) == 0)
			return 1;
	return 0;
}

static int
expect_runs_have_counter(const struct metrics *runs, size_t n,
    const char *name)
{
	size_t	r, i;

	for (r = 0; r < n; r++)
		for (i = 0; i < runs[r].n_counters; i++)
			if (strcmp(runs[r].counters[i].name, name) == 0)
				return 1;
	return 0;
}

int
expect_counter_unknown(const struct expect *e, const struct metrics *runs,
    size_t n, char *close, size_t len)
{
	const char	*cand[METRICS_MAX_COUNTERS];
	size_t		 k;

	if (e->metric >= 0 || n == 0 || expect_counter_lazy(e->counter) ||
	    expect_runs_have_counter(runs, n, e->counter))
		return 0;
	for (k = 0; k < runs[0].n_counters; k++)
		cand[k] = runs[0].counters[k].name;
	expect_suggest(e->counter, cand, k, close, len);
	return 1;
}
