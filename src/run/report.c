/*
 * Reports: the runs are first reduced to one "view" (per phase values or,
 * with repeats, statistics over the runs; counters; evaluated
 * expectations), then the view is printed as a table, JSON, CSV and JUnit.
 * The JSON and XML emitters are hand-written: the output is small and its
 * escaping rules are few, so a library would add a dependency for nothing.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "expect.h"
#include "log.h"
#include "metrics.h"
#include "report.h"

#define NS_PER_S	1e9

struct stat4 {
	double	min, median, max, tmean;
};

/* One phase as reported: a run's values, or medians over the runs. */
struct pview {
	const char		*name;
	const char		*protocol;
	double			 v[RM_COUNT];
	struct stat4		 s[RM_COUNT];	/* with repeats only */
	const struct phase	*rep;		/* median run's phase */
	const struct metrics	*rep_run;
	size_t			 present;	/* runs that have it */
	size_t			 timeouts;	/* runs where it timed out */
	enum phase_state	 state;
};

struct cview {
	const char	*name;
	double		 v;		/* value, or median over runs */
	struct stat4	 s;
};

struct eview {
	const struct expect	*e;
	double			 value;
	int			 ok;
	char			 msg[320];
};

struct view {
	const struct metrics	*runs;
	size_t			 nruns;
	struct pview		*p;
	size_t			 np;
	struct cview		*c;
	size_t			 nc;
	struct eview		*ev;
	size_t			 ne;
	int			 ok;
	int			 interrupted;	/* a run was (metrics.h) */
	int			 served;	/* every run only served */
};

/* ---- numbers ---- */

/*
 * sbsim was the bottleneck, or near it, when its one thread was busy 90%
 * of a phase that lasted a second or more (a shorter window is too
 * coarse for the 100 ms samples to say).
 */
#define SATURATED_BUSY		0.9
#define SATURATED_MIN_S		1.0

static int
phase_saturated(const struct phase *ph, const double *v)
{
	const struct phase_cost	*pc = &ph->cost[COST_SBSIM];

	return v[RM_SBSIM_BUSY] >= SATURATED_BUSY &&
	    secs_between(pc->start_ns, pc->end_ns) >= SATURATED_MIN_S;
}

/* JSON and CSV have no NaN or Inf: they are printed as 0. */
static double
finite_or_0(double v)
{
	return isfinite(v) ? v : 0;
}

/* A number for people: integers whole, others to about 6 digits. */
static const char *
fmt_num(char *buf, size_t len, double v)
{
	v = finite_or_0(v);
	if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else if (fabs(v) >= 1e5 && fabs(v) < 1e15)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.6g", v);
	return buf;
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Statistics of n >= 1 values; sorts v. */
static struct stat4
stat4_of(double *v, size_t n)
{
	struct stat4	s;
	double		sum = 0;
	size_t		i;

	qsort(v, n, sizeof(*v), cmp_double);
	for (i = 0; i < n; i++)
		sum += v[i];
	s.min = v[0];
	s.max = v[n - 1];
	s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	s.tmean = n > 2 ? (sum - v[0] - v[n - 1]) / (double)(n - 2) :
	    sum / (double)n;
	return s;
}

/* ---- building the view ---- */

/*
 * The element named name among the n of base (size bytes each), or NULL:
 * a pview and a cview begin with their name, so one search serves both.
 */
static void *
view_find_name(const void *base, size_t n, size_t size, const char *name)
{
	const char	*e = base;
	size_t		 i;

	for (i = 0; i < n; i++, e += size)
		if (strcmp(*(const char *const *)e, name) == 0)
			return (void *)e;
	return NULL;
}

#define view_find_phase(vw, name)					\
	((struct pview *)view_find_name((vw)->p, (vw)->np,		\
	    sizeof(struct pview), (name)))
#define view_find_counter(vw, name)					\
	((struct cview *)view_find_name((vw)->c, (vw)->nc,		\
	    sizeof(struct cview), (name)))

/* The union of phase names over the runs, in order of first appearance. */
static void
view_phase_names(struct view *vw)
{
	size_t			 r, i, total = 0;
	const struct phase	*ph;

	for (r = 0; r < vw->nruns; r++)
		total += vw->runs[r].n_phases;
	vw->p = xcalloc(total ? total : 1, sizeof(*vw->p));
	for (r = 0; r < vw->nruns; r++)
		for (i = 0; i < vw->runs[r].n_phases; i++) {
			ph = vw->runs[r].phases[i];
			if (view_find_phase(vw, ph->name) != NULL)
				continue;
			vw->p[vw->np].name = ph->name;
			vw->p[vw->np].protocol = ph->protocol;
			vw->np++;
		}
}

struct rate_run {
	double	rate;
	size_t	run;
};

static int
cmp_rate_run(const void *a, const void *b)
{
	const struct rate_run	*x = a, *y = b;

	if (x->rate != y->rate)
		return (x->rate > y->rate) - (x->rate < y->rate);
	return (x->run > y->run) - (x->run < y->run);
}

/* The run whose rate is the lower median: its timeline is shown. */
static void
view_pick_median_run(struct view *vw, struct pview *pv)
{
	struct rate_run		*rr;
	const struct phase	*ph;
	size_t			 r, n = 0;

	rr = xcalloc(vw->nruns, sizeof(*rr));
	for (r = 0; r < vw->nruns; r++) {
		if ((ph = metrics_find_phase(&vw->runs[r], pv->name)) == NULL)
			continue;
		rr[n].rate = finite_or_0(phase_rate(ph));
		rr[n++].run = r;
	}
	qsort(rr, n, sizeof(*rr), cmp_rate_run);
	pv->rep_run = &vw->runs[rr[(n - 1) / 2].run];
	pv->rep = metrics_find_phase(pv->rep_run, pv->name);
	free(rr);
}

static void
view_phase(struct view *vw, struct pview *pv)
{
	const struct phase	*ph;
	double			*vals;
	size_t			 r, m, n;

	vals = xcalloc(vw->nruns, sizeof(*vals));
	for (r = 0; r < vw->nruns; r++)
		if ((ph = metrics_find_phase(&vw->runs[r], pv->name)) != NULL) {
			pv->present++;
			pv->timeouts += ph->state == PHASE_TIMEOUT;
		}
	view_pick_median_run(vw, pv);
	for (m = 0; m < RM_COUNT; m++) {
		for (r = n = 0; r < vw->nruns; r++)
			if ((ph = metrics_find_phase(&vw->runs[r],
			    pv->name)) != NULL)
				vals[n++] = finite_or_0(report_metric_value(ph, m));
		pv->s[m] = stat4_of(vals, n);
		pv->v[m] = pv->s[m].median;
	}
	pv->state = pv->timeouts ? PHASE_TIMEOUT : pv->rep->state;
	if (pv->timeouts)
		vw->ok = 0;
	free(vals);
}

/* Counters: the union of names; a run without one counts it as 0. */
static void
view_counters(struct view *vw)
{
	size_t	r, i, total = 0;
	double	*vals;

	for (r = 0; r < vw->nruns; r++)
		total += vw->runs[r].n_counters;
	vw->c = xcalloc(total ? total : 1, sizeof(*vw->c));
	for (r = 0; r < vw->nruns; r++)
		for (i = 0; i < vw->runs[r].n_counters; i++)
			if (!view_find_counter(vw, vw->runs[r].counters[i].name))
				vw->c[vw->nc++].name =
				    vw->runs[r].counters[i].name;
	vals = xcalloc(vw->nruns ? vw->nruns : 1, sizeof(*vals));
	for (i = 0; i < vw->nc; i++) {
		for (r = 0; r < vw->nruns; r++)
			vals[r] = (double)metrics_counter_value(&vw->runs[r],
			    vw->c[i].name);
		vw->c[i].s = stat4_of(vals, vw->nruns);
		vw->c[i].v = vw->c[i].s.median;
	}
	free(vals);
}

/*
 * The value as short as it can be printed without contradicting the
 * verdict: 999.9999 against ">= 1000" must not read "1000".
 */
static const char *
fmt_verdict(char *buf, size_t len, const struct eview *ev)
{
	int	prec;

	fmt_num(buf, len, ev->value);
	for (prec = 8; prec <= 17 && expect_holds(ev->e,
	    strtod(buf, NULL)) != ev->ok; prec += 3)
		snprintf(buf, len, "%.*g", prec, finite_or_0(ev->value));
	return buf;
}

static void
expect_message(struct eview *ev, const char *lhs)
{
	char	a[64], b[64];

	snprintf(ev->msg, sizeof(ev->msg), "%s = %s, expected %s %s", lhs,
	    fmt_verdict(a, sizeof(a), ev), expect_op_name(ev->e->op),
	    fmt_num(b, sizeof(b), ev->e->value));
}

static void
view_expect(struct view *vw, struct eview *ev)
{
	const struct expect	*e = ev->e;
	const struct pview	*pv;
	const struct cview	*cv;
	char			 lhs[EXPECT_EXPR_MAX];

	if (e->metric < 0) {
		snprintf(lhs, sizeof(lhs), "%s.%s", EXPECT_PHASE_COUNTERS,
		    e->counter);
		cv = view_find_counter(vw, e->counter);
		if (cv == NULL && !expect_counter_lazy(e->counter)) {
			/* A typo: the command says so (exit 2). */
			ev->ok = 0;
			snprintf(ev->msg, sizeof(ev->msg), "%s: the run has "
			    "no such counter", lhs);
			vw->ok = 0;
			return;
		}
		ev->value = cv != NULL ? cv->v : 0;
	} else {
		snprintf(lhs, sizeof(lhs), "%s.%s", e->phase,
		    report_metric_names[e->metric]);
		pv = view_find_phase(vw, e->phase);
		if (pv == NULL || pv->state == PHASE_PENDING) {
			ev->ok = 0;
			snprintf(ev->msg, sizeof(ev->msg),
			    "%s: phase '%s' did not run", lhs, e->phase);
			vw->ok = 0;
			return;
		}
		ev->value = pv->v[e->metric];
	}
	ev->ok = expect_holds(e, ev->value);
	expect_message(ev, lhs);
	if (!ev->ok)
		vw->ok = 0;
}

static void
view_build(struct view *vw, const struct metrics *runs, size_t nruns,
    const struct report_opts *o)
{
	size_t	i;

	memset(vw, 0, sizeof(*vw));
	vw->runs = runs;
	vw->nruns = nruns;
	vw->ok = o->failed == NULL;
	vw->served = nruns > 0;
	for (i = 0; i < nruns; i++) {
		if (runs[i].interrupted)
			vw->interrupted = 1;
		vw->served &= runs[i].served;
	}
	if (vw->interrupted)
		vw->ok = 0;
	view_phase_names(vw);
	for (i = 0; i < vw->np; i++)
		view_phase(vw, &vw->p[i]);
	view_counters(vw);
	vw->ev = xcalloc(o->n_expects ? o->n_expects : 1, sizeof(*vw->ev));
	vw->ne = o->n_expects;
	for (i = 0; i < vw->ne; i++) {
		vw->ev[i].e = &o->expects[i];
		view_expect(vw, &vw->ev[i]);
	}
}

static void
view_free(struct view *vw)
{
	free(vw->p);
	free(vw->c);
	free(vw->ev);
}

/* ---- human table ---- */

/* Column width for the phase names (protocol names with proto set). */
static int
name_width(const struct view *vw, int proto)
{
	size_t	i, n, w = proto ? 8 : 5;

	for (i = 0; i < vw->np; i++) {
		n = strlen(proto ? vw->p[i].protocol : vw->p[i].name);
		if (n > w)
			w = n;
	}
	return (int)w;
}

/*
 * What a phase's items are: most count what the devices saw (flows,
 * sessions, prefixes); the northbound's own program and delete phases
 * count the HTTP requests sbsim sent (each of --flows-per-request
 * flows), their confirms the flows read back.  A scenario group's
 * "GROUP.nb_program" goes by its name.
 */
static const char *
report_phase_unit(const char *name)
{
	const char	*dot = strrchr(name, '.');

	name = dot != NULL ? dot + 1 : name;
	if (strcmp(name, "nb_program") == 0 || strcmp(name, "nb_delete") == 0)
		return "requests";
	return "items";
}

/* A cell of the table: the value, or "-" when it was not measured. */
static const char *
cell(char *buf, size_t len, int measured, const char *fmt, double v)
{
	if (!measured)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmt, finite_or_0(v));
	return buf;
}

/* The items cell: requests say so ("12 req"). */
static const char *
cell_items(char *buf, size_t len, const struct pview *pv)
{
	if (pv->state == PHASE_PENDING)
		snprintf(buf, len, "-");
	else if (strcmp(report_phase_unit(pv->name), "requests") == 0)
		snprintf(buf, len, "%.0f req", finite_or_0(pv->v[RM_ITEMS]));
	else
		snprintf(buf, len, "%.0f", finite_or_0(pv->v[RM_ITEMS]));
	return buf;
}

/*
 * One row per phase.  A cell that was not measured is "-", never 0: a
 * phase that never began has no figure, a window of no length no rate,
 * a phase without a latency sample no percentile.
 */
static void
human_row(const struct pview *pv, int w, int pw, FILE *f)
{
	char	c[7][32];
	int	ran = pv->state != PHASE_PENDING;
	int	lat = ran && pv->rep->latency.count > 0;

	fprintf(f, "%-*s %-*s %10s %9s %11s %9s %9s %9s %9s  %-7s  %s\n", w,
	    pv->name, pw, pv->protocol, cell_items(c[0], sizeof(c[0]), pv),
	    cell(c[1], sizeof(c[1]), ran, "%.3f", pv->v[RM_SECONDS]),
	    cell(c[2], sizeof(c[2]), ran && pv->v[RM_SECONDS] > 0, "%.1f",
	    pv->v[RM_RATE]),
	    cell(c[3], sizeof(c[3]), lat, "%.0f", pv->v[RM_P50]),
	    cell(c[4], sizeof(c[4]), lat, "%.0f", pv->v[RM_P90]),
	    cell(c[5], sizeof(c[5]), lat, "%.0f", pv->v[RM_P99]),
	    cell(c[6], sizeof(c[6]), lat, "%.0f", pv->v[RM_MAX]),
	    phase_state_name(pv->state),
	    ran ? phase_witness_name(pv->rep->witness) : "-");
}

static void
human_single(const struct view *vw, FILE *f)
{
	int	w = name_width(vw, 0);
	int	pw = name_width(vw, 1);
	size_t	i;

	fprintf(f, "%-*s %-*s %10s %9s %11s %9s %9s %9s %9s  %-7s  %s\n", w,
	    "phase", pw, "protocol", "items", "seconds", "rate/s", "p50 us",
	    "p90 us", "p99 us", "max us", "state", "witness");
	for (i = 0; i < vw->np; i++)
		human_row(&vw->p[i], w, pw, f);
}

/* One line under the table: what its less obvious words mean. */
static void
human_legend(const struct view *vw, const struct report_opts *o, FILE *f)
{
	if (vw->np == 0)
		return;
	fprintf(f, "(witness: who saw the last item: device, northbound, "
	    "monitor or tcp_ack; -: not measured; \"req\": HTTP requests; "
	    "full report %s%s)\n", o->json_path != NULL ? "in " :
	    "with --report ", o->json_path != NULL ? o->json_path : "FILE");
}

static void
human_repeat(const struct view *vw, FILE *f)
{
	const struct pview	*pv;
	char			 a[4][64];
	size_t			 i, m;

	fprintf(f, "%zu runs: min / median / max / trimmed mean "
	    "(without the lowest and highest run)\n", vw->nruns);
	for (i = 0; i < vw->np; i++) {
		pv = &vw->p[i];
		fprintf(f, "\n%s (%s): in %zu of %zu runs, timed out in %zu, "
		    "%s, witness %s\n", pv->name, pv->protocol, pv->present,
		    vw->nruns, pv->timeouts, phase_state_name(pv->state),
		    phase_witness_name(pv->rep->witness));
		fprintf(f, "  %-16s %14s %14s %14s %14s\n", "metric", "min",
		    "median", "max", "trimmed mean");
		for (m = 0; m < RM_COUNT; m++)
			fprintf(f, "  %-16s %14s %14s %14s %14s\n",
			    report_metric_names[m],
			    fmt_num(a[0], sizeof(a[0]), pv->s[m].min),
			    fmt_num(a[1], sizeof(a[1]), pv->s[m].median),
			    fmt_num(a[2], sizeof(a[2]), pv->s[m].max),
			    fmt_num(a[3], sizeof(a[3]), pv->s[m].tmean));
	}
}

static void
human_counters(const struct view *vw, FILE *f)
{
	char	a[3][64];
	size_t	i, shown = 0;

	for (i = 0; i < vw->nc; i++) {
		if (vw->c[i].s.max == 0)	/* only the ones that say something */
			continue;
		if (shown++ == 0)
			fprintf(f, "\ncounters%s:\n", vw->nruns > 1 ?
			    " (median, min..max)" : "");
		fprintf(f, "  %-28s %s", vw->c[i].name,
		    fmt_num(a[0], sizeof(a[0]), vw->c[i].v));
		if (vw->nruns > 1)
			fprintf(f, " (%s..%s)",
			    fmt_num(a[1], sizeof(a[1]), vw->c[i].s.min),
			    fmt_num(a[2], sizeof(a[2]), vw->c[i].s.max));
		fprintf(f, "\n");
	}
}

static void
human_expects(const struct view *vw, FILE *f)
{
	size_t	i;

	if (vw->ne > 0)
		fprintf(f, "\nexpectations%s:\n", vw->nruns > 1 ?
		    " (against the medians)" : "");
	for (i = 0; i < vw->ne; i++)
		fprintf(f, "  %s  %s\n", vw->ev[i].ok ? "PASS" : "FAIL",
		    vw->ev[i].msg);
}

/* Whether any phase has the controller's cost. */
static int
view_has_controller(const struct view *vw)
{
	size_t	i;

	for (i = 0; i < vw->np; i++)
		if (vw->p[i].rep->cost[COST_CONTROLLER].opened)
			return 1;
	return 0;
}

static void
human_cost(const struct view *vw, FILE *f)
{
	const struct pview	*pv;
	int			 w = name_width(vw, 0);
	int			 ctl = view_has_controller(vw);
	size_t			 i;

	fprintf(f, "\n%-*s %11s %6s", w, "cost", "sbsim cpu s", "busy");
	if (ctl)
		fprintf(f, " %16s %10s %8s", "controller cpu s", "rss MiB",
		    "threads");
	fputc('\n', f);
	for (i = 0; i < vw->np; i++) {
		pv = &vw->p[i];
		if (pv->state == PHASE_PENDING)
			continue;
		fprintf(f, "%-*s %11.2f %5.0f%%", w, pv->name,
		    pv->v[RM_SBSIM_CPU], pv->v[RM_SBSIM_BUSY] * 100);
		if (ctl)
			fprintf(f, " %16.2f %10.1f %8.0f", pv->v[RM_CTL_CPU],
			    pv->v[RM_CTL_RSS] / 1024, pv->v[RM_CTL_THREADS]);
		fputc('\n', f);
	}
}

/* The phases where sbsim itself may have been the limit. */
static void
human_saturated(const struct view *vw, FILE *f)
{
	size_t	i;

	for (i = 0; i < vw->np; i++)
		if (phase_saturated(vw->p[i].rep, vw->p[i].v))
			fprintf(f, "\nwarning: sbsim was busy %.0f%% of phase "
			    "%s: its rate may be sbsim's limit, not the "
			    "controller's\n", vw->p[i].v[RM_SBSIM_BUSY] * 100,
			    vw->p[i].name);
}

static int
view_saturated(const struct view *vw)
{
	size_t	i;

	for (i = 0; i < vw->np; i++)
		if (phase_saturated(vw->p[i].rep, vw->p[i].v))
			return 1;
	return 0;
}

/* A counter of the view, summed over a scenario's groups ("GROUP.name"). */
static double
view_counter_sum(const struct view *vw, const char *name)
{
	const char	*dot;
	double		 sum = 0;
	size_t		 i;

	for (i = 0; i < vw->nc; i++) {
		dot = strrchr(vw->c[i].name, '.');
		if (strcmp(dot != NULL ? dot + 1 : vw->c[i].name, name) == 0)
			sum += vw->c[i].v;
	}
	return sum;
}

/* Devices that were not up at the end, and why (run.c). */
static void
human_not_up(const struct view *vw, FILE *f)
{
	double	closed = view_counter_sum(vw, "devices_closed_by_peer");
	double	refused = view_counter_sum(vw, "devices_refused");
	double	silent = view_counter_sum(vw, "devices_unanswered");
	char	a[3][64];

	if (closed + refused + silent == 0)
		return;
	fprintf(f, "\nnot connected at the end: %s closed by the peer, %s "
	    "refused (ECONNREFUSED), %s never answered\n",
	    fmt_num(a[0], sizeof(a[0]), closed),
	    fmt_num(a[1], sizeof(a[1]), refused),
	    fmt_num(a[2], sizeof(a[2]), silent));
}

/* Devices that only served: what they served, not a verdict on it. */
static void
human_served(const struct view *vw, FILE *f)
{
	char	a[64], b[64];

	if (!vw->served)
		return;
	fprintf(f, "\nserved: %s devices listened, %s connections accepted "
	    "(no phase was expected: they served whoever came)\n",
	    fmt_num(a, sizeof(a), view_counter_sum(vw, "served_devices")),
	    fmt_num(b, sizeof(b), view_counter_sum(vw,
	    "served_connections")));
}

/* The table's last lines: a signal's word, then the verdict, each after
 * sep (a run's table leaves a blank line, a search's steps none). */
static void
human_result(FILE *f, const char *sep, int ok, int interrupted)
{
	if (interrupted)
		fprintf(f, "%sinterrupted: a signal stopped the run before "
		    "its end\n", sep);
	fprintf(f, "%sresult: %s\n", sep, ok ? "ok" : interrupted ?
	    "FAILED (interrupted)" : "FAILED");
	fflush(f);
}

static void
human_emit(const struct view *vw, const struct report_opts *o, FILE *f)
{
	if (vw->nruns > 1)
		human_repeat(vw, f);
	else {
		human_single(vw, f);
		human_legend(vw, o, f);
		if (vw->np > 0)
			human_cost(vw, f);
	}
	human_saturated(vw, f);
	human_counters(vw, f);
	human_expects(vw, f);
	if (o->failed != NULL)
		fprintf(f, "\nfailed: %s\n", o->failed);
	human_served(vw, f);
	human_not_up(vw, f);
	human_result(f, "\n", vw->ok, vw->interrupted);
}

/* Append "; what" (or "what" first) to buf of len bytes. */
static void
why_add(char *buf, size_t len, const char *what)
{
	size_t	used = strlen(buf);

	if (used + 2 < len)
		snprintf(buf + used, len - used, "%s%s", used ? "; " : "",
		    what);
}

/*
 * Why the run failed, on one line: what failed it beside its phases,
 * the signal, each timed-out phase with its counts, each failed
 * threshold (what -q prints, report_opts.why_out).
 */
static void
view_why(const struct view *vw, const struct report_opts *o, char *buf,
    size_t len)
{
	char	one[400], a[64], b[64];
	size_t	i;

	buf[0] = '\0';
	if (o->failed != NULL)
		why_add(buf, len, o->failed);
	if (vw->interrupted)
		why_add(buf, len, "interrupted: a signal stopped the run "
		    "before its end");
	for (i = 0; i < vw->np; i++) {
		if (vw->p[i].state != PHASE_TIMEOUT)
			continue;
		snprintf(one, sizeof(one), "%s timed out: %s of %s %s",
		    vw->p[i].name, fmt_num(a, sizeof(a), vw->p[i].v[RM_ITEMS]),
		    vw->p[i].rep->target ? fmt_num(b, sizeof(b),
		    (double)vw->p[i].rep->target) : "?",
		    report_phase_unit(vw->p[i].name));
		why_add(buf, len, one);
	}
	for (i = 0; i < vw->ne; i++)
		if (!vw->ev[i].ok)
			why_add(buf, len, vw->ev[i].msg);
	if (buf[0] == '\0')
		snprintf(buf, len, "failed");
}

static void
why_emit(const struct view *vw, const struct report_opts *o)
{
	char	why[1024];

	if (o->why_out == NULL || vw->ok)
		return;
	view_why(vw, o, why, sizeof(why));
	fprintf(o->why_out, "sbsim: result FAILED: %s\n", why);
	fflush(o->why_out);
}

/* ---- escaping ---- */

/*
 * Length of the valid UTF-8 sequence at s (NUL-terminated), 0 if invalid.
 * Overlong forms, surrogates and values past U+10FFFF are invalid: JSON
 * and XML readers reject them, and scenario text may contain anything.
 */
static size_t
utf8_len(const unsigned char *s)
{
	unsigned	lo = 0x80, hi = 0xbf;
	size_t		n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		lo = s[0] == 0xe0 ? 0xa0 : lo;
		hi = s[0] == 0xed ? 0x9f : hi;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		lo = s[0] == 0xf0 ? 0x90 : lo;
		hi = s[0] == 0xf4 ? 0x8f : hi;
	} else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)		/* stops at the NUL, never past it */
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

#define REPLACEMENT_CHAR	"\xef\xbf\xbd"	/* U+FFFD */

static void
json_string(FILE *f, const char *str)
{
	const unsigned char	*s = (const unsigned char *)(str ? str : "");
	size_t			 n;

	fputc('"', f);
	while (*s != '\0') {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '\t')
			fputs("\\t", f);
		else if (*s == '\r')
			fputs("\\r", f);
		else if (*s < 0x20 || *s == 0x7f)
			fprintf(f, "\\u%04x", *s);
		else if ((n = utf8_len(s)) == 0) {
			fputs("\\ufffd", f);
			s++;
			continue;
		} else {
			fwrite(s, 1, n, f);
			s += n;
			continue;
		}
		s++;
	}
	fputc('"', f);
}

/* XML 1.0 allows no control characters but tab, LF, CR, nor U+FFFE/F. */
static void
xml_string(FILE *f, const char *str)
{
	const unsigned char	*s = (const unsigned char *)(str ? str : "");
	size_t			 n;

	for (; *s != '\0'; s += n) {
		n = 1;
		switch (*s) {
		case '&': fputs("&amp;", f); continue;
		case '<': fputs("&lt;", f); continue;
		case '>': fputs("&gt;", f); continue;
		case '"': fputs("&quot;", f); continue;
		case '\'': fputs("&apos;", f); continue;
		case '\n': fputs("&#10;", f); continue;
		case '\r': fputs("&#13;", f); continue;
		case '\t': fputs("&#9;", f); continue;
		}
		if (*s < 0x20) {
			fputc('?', f);
			continue;
		}
		if ((n = utf8_len(s)) == 0 || (n == 3 && s[0] == 0xef &&
		    s[1] == 0xbf && s[2] >= 0xbe)) {
			fputs(REPLACEMENT_CHAR, f);
			n = n ? n : 1;
			continue;
		}
		fwrite(s, 1, n, f);
	}
}

/* A CSV field, quoted (RFC 4180) only when it must be. */
static void
csv_field(FILE *f, const char *a, const char *b)
{
	char	buf[256];
	char	*p;

	snprintf(buf, sizeof(buf), "%s%s", a, b);
	if (strpbrk(buf, ",\"\r\n") == NULL) {
		fputs(buf, f);
		return;
	}
	fputc('"', f);
	for (p = buf; *p != '\0'; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

/* ---- JSON ---- */

#define JW_DEPTH	16

/* Tracks commas and indentation so emitters only say what to write. */
struct jw {
	FILE	*f;
	int	 depth;
	int	 count[JW_DEPTH];
};

static void
jw_key(struct jw *w, const char *key)
{
	if (w->count[w->depth]++ > 0)
		fputc(',', w->f);
	fprintf(w->f, "\n%*s", 2 * (w->depth + 1), "");
	if (key != NULL) {
		json_string(w->f, key);
		fputs(": ", w->f);
	}
}

static void
jw_open(struct jw *w, const char *key, char c)
{
	if (w->depth >= 0)
		jw_key(w, key);
	fputc(c, w->f);
	if (w->depth + 1 >= JW_DEPTH)
		fatalx("JSON nesting too deep");	/* emitter bug */
	w->count[++w->depth] = 0;
}

static void
jw_close(struct jw *w, char c)
{
	if (w->count[w->depth] > 0)
		fprintf(w->f, "\n%*s", 2 * w->depth, "");
	fputc(c, w->f);
	w->depth--;
}

static void
jw_str(struct jw *w, const char *key, const char *v)
{
	jw_key(w, key);
	json_string(w->f, v);
}

/* %.15g: exact for integers below 2^53 and plenty for rates. */
static void
jw_num(struct jw *w, const char *key, double v)
{
	jw_key(w, key);
	fprintf(w->f, "%.15g", finite_or_0(v));
}

static void
jw_u64(struct jw *w, const char *key, uint64_t v)
{
	jw_key(w, key);
	fprintf(w->f, "%llu", (unsigned long long)v);
}

static void
jw_bool(struct jw *w, const char *key, int v)
{
	jw_key(w, key);
	fputs(v ? "true" : "false", w->f);
}

/* Seconds since the run started, null when the event did not happen. */
static void
jw_rel(struct jw *w, const char *key, const struct metrics *run,
    uint64_t ns)
{
	jw_key(w, key);
	if (ns == 0)
		fputs("null", w->f);
	else
		fprintf(w->f, "%.9g", ns > run->start_ns ?
		    (double)(ns - run->start_ns) / NS_PER_S : 0.0);
}

static void
jw_u64_or_null(struct jw *w, const char *key, uint64_t v)
{
	jw_key(w, key);
	if (v == 0)
		fputs("null", w->f);
	else
		fprintf(w->f, "%llu", (unsigned long long)v);
}

/* On one line: a long run has thousands of seconds. */
static void
jw_timeline(struct jw *w, const struct phase *ph)
{
	size_t	i;

	jw_key(w, "timeline");
	fputc('[', w->f);
	for (i = 0; i < ph->timeline_len; i++)
		fprintf(w->f, "%s%u", i ? ", " : "", ph->timeline[i]);
	fputc(']', w->f);
}

static void
json_env(struct jw *w, const struct env *e)
{
	jw_open(w, "environment", '{');
	jw_str(w, "cpu_model", e->cpu_model);
	jw_num(w, "cores", e->cores);
	jw_u64(w, "memory_bytes", e->memory_bytes);
	jw_str(w, "kernel", e->kernel);
	jw_open(w, "libraries", '{');
	jw_str(w, "libevent", e->libevent);
	jw_str(w, "openssl", e->openssl);
	jw_str(w, "libssh", e->libssh);
	jw_str(w, "libxml2", e->libxml2);
	jw_str(w, "libyang", e->libyang);
	jw_close(w, '}');
	jw_close(w, '}');
}

static void
json_latency(struct jw *w, const double *v, uint64_t samples)
{
	jw_open(w, "latency_us", '{');
	jw_num(w, "p50", v[RM_P50]);
	jw_num(w, "p90", v[RM_P90]);
	jw_num(w, "p99", v[RM_P99]);
	jw_num(w, "max", v[RM_MAX]);
	jw_u64(w, "samples", samples);
	jw_close(w, '}');
}

/*
 * The latency histogram itself, sparse: its non-empty bins as [flat
 * index, count] (index = bucket * 2^sub_bits + sub, metrics.c's layout),
 * so that reports of parts of a run merge exactly (sbsim merge).
 */
static void
json_hist(struct jw *w, const struct hist *h)
{
	size_t	b, s, n = 0;

	jw_open(w, "latency_hist", '{');
	jw_u64(w, "sub_bits", HIST_SUB_BITS);
	jw_u64(w, "buckets_n", HIST_BUCKETS);
	jw_u64(w, "count", h->count);
	jw_u64(w, "min", h->min);
	jw_u64(w, "max", h->max);
	jw_u64(w, "sum", h->sum);
	jw_key(w, "buckets");
	fputc('[', w->f);
	for (b = 0; b < HIST_BUCKETS; b++)
		for (s = 0; s < HIST_SUB; s++)
			if (h->bins[b][s] != 0)
				fprintf(w->f, "%s[%zu, %u]", n++ ? ", " : "",
				    b * HIST_SUB + s, h->bins[b][s]);
	fputc(']', w->f);
	jw_close(w, '}');
}

/*
 * sbsim's own CPU in the phase, and the controller's when it was sampled
 * (docs/report.md, "Cost").
 */
static void
json_cost(struct jw *w, const struct phase *ph, const double *v)
{
	jw_open(w, "cost", '{');
	jw_open(w, "sbsim", '{');
	jw_num(w, "cpu_s", v[RM_SBSIM_CPU]);
	jw_num(w, "busy", v[RM_SBSIM_BUSY]);
	jw_bool(w, "saturated", phase_saturated(ph, v));
	jw_close(w, '}');
	if (ph->cost[COST_CONTROLLER].opened) {
		jw_open(w, "controller", '{');
		jw_num(w, "cpu_s", v[RM_CTL_CPU]);
		jw_num(w, "rss_max_kb", v[RM_CTL_RSS]);
		jw_num(w, "threads_max", v[RM_CTL_THREADS]);
		jw_close(w, '}');
	}
	jw_close(w, '}');
}

/*
 * One phase: values v (a run's own or the medians), the rest from ph of
 * run.  state is passed as the summarized state may differ from ph's.
 */
static void
json_phase(struct jw *w, const struct phase *ph, const struct metrics *run,
    const double *v, enum phase_state state)
{
	jw_open(w, NULL, '{');
	jw_str(w, "name", ph->name);
	jw_str(w, "protocol", ph->protocol);
	jw_str(w, "state", phase_state_name(state));
	jw_str(w, "witness", phase_witness_name(ph->witness));
	jw_num(w, "items", v[RM_ITEMS]);
	jw_str(w, "unit", report_phase_unit(ph->name));
	jw_u64(w, "target", ph->target);
	jw_num(w, "seconds", v[RM_SECONDS]);
	jw_num(w, "rate_per_s", v[RM_RATE]);
	json_latency(w, v, ph->latency.count);
	json_hist(w, &ph->latency);
	jw_rel(w, "trigger_s", run, ph->trigger_ns);
	jw_rel(w, "first_s", run, ph->first_ns);
	jw_rel(w, "last_s", run, ph->last_ns);
	jw_rel(w, "end_s", run, ph->end_ns);
	json_cost(w, ph, v);
	jw_timeline(w, ph);
	jw_close(w, '}');
}

static void
json_run_phases(struct jw *w, const struct metrics *run)
{
	const struct phase	*ph;
	double			 v[RM_COUNT];
	size_t			 i, m;

	jw_open(w, "phases", '[');
	for (i = 0; i < run->n_phases; i++) {
		ph = run->phases[i];
		for (m = 0; m < RM_COUNT; m++)
			v[m] = report_metric_value(ph, m);
		json_phase(w, ph, run, v, ph->state);
	}
	jw_close(w, ']');
}

static void
json_run_counters(struct jw *w, const struct metrics *run)
{
	size_t	i;

	jw_open(w, "counters", '{');
	for (i = 0; i < run->n_counters; i++)
		jw_u64(w, run->counters[i].name, run->counters[i].value);
	jw_close(w, '}');
}

static void
json_view_phases(struct jw *w, const struct view *vw)
{
	size_t	i;

	jw_open(w, "phases", '[');
	for (i = 0; i < vw->np; i++)
		json_phase(w, vw->p[i].rep, vw->p[i].rep_run, vw->p[i].v,
		    vw->p[i].state);
	jw_close(w, ']');
}

static void
json_view_counters(struct jw *w, const struct view *vw)
{
	size_t	i;

	jw_open(w, "counters", '{');
	for (i = 0; i < vw->nc; i++)
		jw_num(w, vw->c[i].name, vw->c[i].v);
	jw_close(w, '}');
}

static void
json_expects(struct jw *w, const struct view *vw)
{
	const struct eview	*ev;
	size_t			 i;

	jw_open(w, "expectations", '[');
	for (i = 0; i < vw->ne; i++) {
		ev = &vw->ev[i];
		jw_open(w, NULL, '{');
		jw_str(w, "expr", ev->e->expr);
		jw_num(w, "value", ev->value);
		jw_num(w, "threshold", ev->e->value);
		jw_bool(w, "ok", ev->ok);
		jw_str(w, "message", ev->msg);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

static void
json_stat4(struct jw *w, const char *key, const struct stat4 *s)
{
	jw_open(w, key, '{');
	jw_num(w, "min", s->min);
	jw_num(w, "median", s->median);
	jw_num(w, "max", s->max);
	jw_num(w, "trimmed_mean", s->tmean);
	jw_close(w, '}');
}

/* summary.PHASE.METRIC.{min,median,max,trimmed_mean}, nested like phases. */
static void
json_summary(struct jw *w, const struct view *vw)
{
	const struct pview	*pv;
	size_t			 i;

	jw_open(w, "summary", '{');
	for (i = 0; i < vw->np; i++) {
		pv = &vw->p[i];
		jw_open(w, pv->name, '{');
		jw_u64(w, "runs", pv->present);
		jw_u64(w, "timeouts", pv->timeouts);
		json_stat4(w, "items", &pv->s[RM_ITEMS]);
		json_stat4(w, "seconds", &pv->s[RM_SECONDS]);
		json_stat4(w, "rate_per_s", &pv->s[RM_RATE]);
		jw_open(w, "latency_us", '{');
		json_stat4(w, "p50", &pv->s[RM_P50]);
		json_stat4(w, "p90", &pv->s[RM_P90]);
		json_stat4(w, "p99", &pv->s[RM_P99]);
		json_stat4(w, "max", &pv->s[RM_MAX]);
		jw_close(w, '}');
		jw_close(w, '}');
	}
	jw_close(w, '}');
}

static void
json_runs(struct jw *w, const struct view *vw)
{
	size_t	r;

	jw_open(w, "runs", '[');
	for (r = 0; r < vw->nruns; r++) {
		jw_open(w, NULL, '{');
		json_run_phases(w, &vw->runs[r]);
		json_run_counters(w, &vw->runs[r]);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

static void
json_emit(const struct view *vw, const struct report_opts *o,
    const struct env *e, FILE *f)
{
	struct jw	w = { .f = f, .depth = -1 };

	jw_open(&w, NULL, '{');
	jw_str(&w, "tool", "sbsim");
	jw_str(&w, "version", o->version ? o->version : "unknown");
	json_env(&w, e);
	jw_str(&w, "scenario", o->scenario ? o->scenario : "");
	jw_u64(&w, "repeat", vw->nruns);
	if (vw->nruns > 0) {
		jw_u64(&w, "start_unix_ns", vw->runs[0].start_real_ns);
		jw_rel(&w, "end_s", &vw->runs[0], vw->runs[0].end_ns);
	}
	jw_bool(&w, "ok", vw->ok);
	jw_bool(&w, "interrupted", vw->interrupted);
	jw_bool(&w, "served", vw->served);
	if (o->failed != NULL)
		jw_str(&w, "failed", o->failed);
	jw_bool(&w, "sbsim_saturated", view_saturated(vw));
	json_view_phases(&w, vw);
	json_view_counters(&w, vw);
	json_expects(&w, vw);
	if (vw->nruns > 1) {
		json_summary(&w, vw);
		json_runs(&w, vw);
	}
	jw_close(&w, '}');
	fputc('\n', f);
}

/* ---- CSV ---- */

/* The order of a phase's CSV columns: what a plot wants first. */
static const enum report_metric csv_metrics[] = {
	RM_RATE, RM_SECONDS, RM_ITEMS, RM_P50, RM_P90, RM_P99, RM_MAX,
};
#define N_CSV_METRICS	(sizeof(csv_metrics) / sizeof(csv_metrics[0]))

static void
csv_emit(const struct view *vw, FILE *f)
{
	char	suffix[48];
	size_t	i, m, ncost, col = 0;

	for (i = 0; i < vw->np; i++)
		for (m = 0; m < N_CSV_METRICS; m++) {
			fputs(col++ ? "," : "", f);
			snprintf(suffix, sizeof(suffix), ".%s",
			    report_metric_names[csv_metrics[m]]);
			csv_field(f, vw->p[i].name, suffix);
		}
	for (i = 0; i < vw->nc; i++) {
		fputs(col++ ? "," : "", f);
		csv_field(f, "counters.", vw->c[i].name);
	}
	/* Last, so that the older columns keep their places; the witness
	 * is in the name, the value a number (1) like every other. */
	for (i = 0; i < vw->np; i++) {
		fputs(col++ ? "," : "", f);
		snprintf(suffix, sizeof(suffix), ".witness.%s",
		    phase_witness_name(vw->p[i].rep->witness));
		csv_field(f, vw->p[i].name, suffix);
	}
	ncost = view_has_controller(vw) ? RM_COUNT : RM_CTL_CPU;
	for (i = 0; i < vw->np; i++)
		for (m = RM_FIRST_COST; m < ncost; m++) {
			fputs(col++ ? "," : "", f);
			snprintf(suffix, sizeof(suffix), ".%s",
			    report_metric_names[m]);
			csv_field(f, vw->p[i].name, suffix);
		}
	fputc('\n', f);
	col = 0;
	for (i = 0; i < vw->np; i++)
		for (m = 0; m < N_CSV_METRICS; m++)
			fprintf(f, "%s%.15g", col++ ? "," : "",
			    finite_or_0(vw->p[i].v[csv_metrics[m]]));
	for (i = 0; i < vw->nc; i++)
		fprintf(f, "%s%.15g", col++ ? "," : "", finite_or_0(vw->c[i].v));
	for (i = 0; i < vw->np; i++)
		fprintf(f, "%s1", col++ ? "," : "");
	for (i = 0; i < vw->np; i++)
		for (m = RM_FIRST_COST; m < ncost; m++)
			fprintf(f, "%s%.15g", col++ ? "," : "",
			    finite_or_0(vw->p[i].v[m]));
	fputc('\n', f);
}

/* ---- JUnit ---- */

static void
junit_attr(FILE *f, const char *name, const char *value)
{
	fprintf(f, " %s=\"", name);
	xml_string(f, value);
	fputc('"', f);
}

static void
junit_property(FILE *f, const char *name, const char *value)
{
	fputs("    <property", f);
	junit_attr(f, "name", name);
	junit_attr(f, "value", value);
	fputs("/>\n", f);
}

static void
junit_case(FILE *f, const char *classname, const char *name, double secs,
    const char *type, const char *failure)
{
	fputs("  <testcase", f);
	junit_attr(f, "classname", classname);
	junit_attr(f, "name", name);
	fprintf(f, " time=\"%.3f\"", finite_or_0(secs));
	if (failure == NULL) {
		fputs("/>\n", f);
		return;
	}
	fputs(">\n    <failure", f);
	junit_attr(f, "type", type);
	junit_attr(f, "message", failure);
	fputs(">", f);
	xml_string(f, failure);
	fputs("</failure>\n  </testcase>\n", f);
}

static void
junit_phase(FILE *f, const struct view *vw, const struct pview *pv)
{
	char	msg[256], a[64], b[64];

	if (pv->timeouts == 0) {
		junit_case(f, "sbsim.phase", pv->name, pv->v[RM_SECONDS],
		    NULL, NULL);
		return;
	}
	if (vw->nruns > 1)
		snprintf(msg, sizeof(msg), "%s timed out in %zu of %zu runs",
		    pv->name, pv->timeouts, vw->nruns);
	else
		snprintf(msg, sizeof(msg), "%s timed out: %s of %s items "
		    "after %.3f s", pv->name,
		    fmt_num(a, sizeof(a), pv->v[RM_ITEMS]),
		    pv->rep->target ? fmt_num(b, sizeof(b),
		    (double)pv->rep->target) : "?",
		    pv->rep->end_ns > pv->rep->trigger_ns ?
		    (double)(pv->rep->end_ns - pv->rep->trigger_ns) / NS_PER_S :
		    0.0);
	junit_case(f, "sbsim.phase", pv->name, pv->v[RM_SECONDS], "timeout",
	    msg);
}

static double
runs_seconds(const struct view *vw)
{
	double	s = 0;
	size_t	r;

	for (r = 0; r < vw->nruns; r++)
		if (vw->runs[r].end_ns > vw->runs[r].start_ns)
			s += (double)(vw->runs[r].end_ns -
			    vw->runs[r].start_ns) / NS_PER_S;
	return s;
}

static void
junit_emit(const struct view *vw, const struct report_opts *o, FILE *f)
{
	size_t	i, failures = 0;
	char	runs[32];

	for (i = 0; i < vw->np; i++)
		failures += vw->p[i].timeouts > 0;
	for (i = 0; i < vw->ne; i++)
		failures += !vw->ev[i].ok;
	failures += o->failed != NULL;
	failures += vw->interrupted;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuite name=\"sbsim\" tests=\"%zu\" failures=\"%zu\" "
	    "errors=\"0\" skipped=\"0\" time=\"%.3f\">\n", vw->np + vw->ne +
	    (o->failed != NULL) + vw->interrupted, failures,
	    runs_seconds(vw));
	fputs("  <properties>\n", f);
	junit_property(f, "version", o->version ? o->version : "unknown");
	junit_property(f, "scenario", o->scenario ? o->scenario : "");
	snprintf(runs, sizeof(runs), "%zu", vw->nruns);
	junit_property(f, "runs", runs);
	fputs("  </properties>\n", f);
	for (i = 0; i < vw->np; i++)
		junit_phase(f, vw, &vw->p[i]);
	for (i = 0; i < vw->ne; i++)
		junit_case(f, "sbsim.expect", vw->ev[i].e->expr, 0,
		    "expectation", vw->ev[i].ok ? NULL : vw->ev[i].msg);
	if (o->failed != NULL)
		junit_case(f, "sbsim.run", "parts", 0, "run", o->failed);
	if (vw->interrupted)
		junit_case(f, "sbsim.run", "interrupted", runs_seconds(vw),
		    "interrupted", "a signal stopped the run before its end");
	fputs("</testsuite>\n", f);
}

/* ---- files ---- */

struct emit_ctx {
	const struct view		*vw;
	const struct report_opts	*o;
	const struct env		*env;
};

/* Write one file with fn over ctx; -1 (logged) if it cannot be written
 * whole. */
static int
write_file(const char *path, const void *ctx,
    void (*fn)(const void *, FILE *))
{
	FILE	*f;
	int	 bad;

	if (path == NULL)
		return 0;
	if ((f = fopen(path, "w")) == NULL) {
		log_warn("report: %s", path);
		return -1;
	}
	fn(ctx, f);
	bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		log_warn("report: writing %s", path);
		return -1;
	}
	return 0;
}

typedef void report_writer(const void *, FILE *);

/* The report's files, each where o names one: JSON, CSV and JUnit over
 * ctx; -1 when one cannot be written whole (the others still are). */
static int
write_files(const struct report_opts *o, const void *ctx,
    report_writer *json, report_writer *csv, report_writer *junit)
{
	int	rc = 0;

	if (write_file(o->json_path, ctx, json) == -1)
		rc = -1;
	if (write_file(o->csv_path, ctx, csv) == -1)
		rc = -1;
	if (write_file(o->junit_path, ctx, junit) == -1)
		rc = -1;
	return rc;
}

/* The environment a JSON report records: o's, or collected into buf when
 * o has none and a JSON report is written; NULL when none is. */
static const struct env *
report_env(const struct report_opts *o, struct env *buf)
{
	if (o->env != NULL || o->json_path == NULL)
		return o->env;
	env_collect(buf);
	return buf;
}

static void
emit_json(const void *arg, FILE *f)
{
	const struct emit_ctx	*c = arg;

	json_emit(c->vw, c->o, c->env, f);
}

static void
emit_csv(const void *arg, FILE *f)
{
	const struct emit_ctx	*c = arg;

	csv_emit(c->vw, f);
}

static void
emit_junit(const void *arg, FILE *f)
{
	const struct emit_ctx	*c = arg;

	junit_emit(c->vw, c->o, f);
}

int
report_emit(const struct metrics *runs, size_t nruns,
    const struct report_opts *o, FILE *human_out)
{
	static const struct report_opts none;
	struct view	vw;
	struct env	env;
	struct emit_ctx	c;
	int		rc;

	if (o == NULL)
		o = &none;
	c = (struct emit_ctx){ .vw = &vw, .o = o, .env = report_env(o, &env) };
	view_build(&vw, runs, nruns, o);
	if (human_out != NULL)
		human_emit(&vw, o, human_out);
	else
		why_emit(&vw, o);
	rc = write_files(o, &c, emit_json, emit_csv, emit_junit);
	if (rc == 0 && !vw.ok)
		rc = 1;
	view_free(&vw);
	return rc;
}

/* ---- steps: --sweep and --find-max ---- */

int
report_run_ok(const struct metrics *run, const struct report_opts *o)
{
	struct view	vw;
	int		ok;

	view_build(&vw, run, 1, o);
	ok = vw.ok;
	view_free(&vw);
	return ok;
}

/* A view per step, and the one with the most phases (the columns). */
struct steps_view {
	const struct report_steps	*st;
	struct view			*v;
	size_t				 widest;
	int				 ok;
	int				 interrupted;
};

static void
steps_build(struct steps_view *sv, const struct report_steps *st,
    const struct report_opts *o)
{
	struct report_opts	so;
	size_t			i;

	sv->st = st;
	sv->v = xcalloc(st->n ? st->n : 1, sizeof(*sv->v));
	sv->widest = 0;
	sv->ok = st->n > 0;
	for (i = 0; i < st->n; i++) {
		so = *o;
		so.failed = st->steps[i].failed;
		view_build(&sv->v[i], st->steps[i].run, 1, &so);
		if (sv->v[i].np > sv->v[sv->widest].np)
			sv->widest = i;
		if (!sv->v[i].ok && strcmp(st->kind, "sweep") == 0)
			sv->ok = 0;
	}
	if (strcmp(st->kind, "sweep") != 0)
		sv->ok = st->largest_ok != 0;
	sv->interrupted = 0;
	for (i = 0; i < st->n; i++)
		sv->interrupted |= sv->v[i].interrupted;
	if (sv->interrupted)	/* the search or sweep did not finish */
		sv->ok = 0;
}

static void
steps_free(struct steps_view *sv)
{
	size_t	i;

	for (i = 0; i < sv->st->n; i++)
		view_free(&sv->v[i]);
	free(sv->v);
}

/* A phase's metric in one step's view; 0 when the step lacks it. */
static double
steps_value(const struct view *vw, const char *phase, int m)
{
	const struct pview	*pv = view_find_phase(vw, phase);

	return pv != NULL ? finite_or_0(pv->v[m]) : 0;
}

static const char *
steps_what(const struct report_steps *st)
{
	return strcmp(st->kind, "sweep") == 0 ? "sweep" : "find-max";
}

/* The verdict line under the table. */
static void
steps_verdict(const struct steps_view *sv, FILE *f)
{
	const struct report_steps	*st = sv->st;
	size_t				 i, passed = 0;

	for (i = 0; i < st->n; i++)
		passed += sv->v[i].ok;
	if (strcmp(st->kind, "sweep") == 0)
		fprintf(f, "\n%zu of %zu sizes passed\n", passed, st->n);
	else if (st->largest_ok == 0)
		fprintf(f, "\nno size passed (%s%s %u failed)\n",
		    report_size_dashes(st->size_opt), st->size_opt,
		    st->smallest_failed);
	else if (st->smallest_failed == 0)
		fprintf(f, "\nlargest passing %s%s: %u, the ceiling (raise "
		    "%s%s to search further)\n", report_size_dashes(st->size_opt),
		    st->size_opt, st->largest_ok,
		    report_size_dashes(st->size_opt), st->size_opt);
	else
		fprintf(f, "\nlargest passing %s%s: %u (%u failed)\n",
		    report_size_dashes(st->size_opt), st->size_opt, st->largest_ok, st->smallest_failed);
}

/* Whether the phase of that name ran (was not PENDING) in any step. */
static int
steps_ran(const struct steps_view *sv, const char *phase)
{
	const struct pview	*pv;
	size_t			 i;

	for (i = 0; i < sv->st->n; i++)
		if ((pv = view_find_phase(&sv->v[i], phase)) != NULL &&
		    pv->state != PHASE_PENDING)
			return 1;
	return 0;
}

static int
steps_col_width(const char *name)
{
	return strlen(name) > 7 ? (int)strlen(name) : 7;
}

static void
steps_human(const struct steps_view *sv, FILE *f)
{
	const struct report_steps	*st = sv->st;
	const struct view		*cols = &sv->v[sv->widest];
	size_t				 i, k;

	fprintf(f, "%s over %s%s (up to %u), %zu run%s:\n\n%5s %10s %-7s",
	    steps_what(st), report_size_dashes(st->size_opt), st->size_opt, st->ceiling, st->n,
	    st->n == 1 ? "" : "s", "step", st->size_opt, "result");
	for (k = 0; k < cols->np; k++)
		if (steps_ran(sv, cols->p[k].name))
			fprintf(f, " %*s rate/s",
			    steps_col_width(cols->p[k].name), cols->p[k].name);
	fprintf(f, " %11s %12s\n", "sbsim cpu s", "ctl cpu s");
	for (i = 0; i < st->n; i++) {
		fprintf(f, "%5zu %10u %-7s", i + 1, st->steps[i].size,
		    sv->v[i].ok ? "ok" : "FAILED");
		for (k = 0; k < cols->np; k++)
			if (steps_ran(sv, cols->p[k].name))
				fprintf(f, " %*.1f",
				    steps_col_width(cols->p[k].name) + 7,
				    steps_value(&sv->v[i], cols->p[k].name,
				    RM_RATE));
		fprintf(f, " %11.2f %12.2f\n", (double)(metrics_counter_value(
		    st->steps[i].run, "sbsim_cpu_user_ms") +
		    metrics_counter_value(st->steps[i].run,
		    "sbsim_cpu_system_ms")) / 1000,
		    (double)metrics_counter_value(st->steps[i].run,
		    "controller_cpu_ms") / 1000);
	}
	steps_verdict(sv, f);
	human_result(f, "", sv->ok, sv->interrupted);
}

struct steps_ctx {
	const struct steps_view		*sv;
	const struct report_opts	*o;
	const struct env		*env;
};

static void
steps_json_step(struct jw *w, const struct report_step *s,
    const struct view *vw)
{
	jw_open(w, NULL, '{');
	jw_u64(w, "size", s->size);
	jw_bool(w, "ok", vw->ok);
	jw_bool(w, "interrupted", vw->interrupted);
	if (s->failed != NULL)
		jw_str(w, "failed", s->failed);
	jw_bool(w, "sbsim_saturated", view_saturated(vw));
	jw_num(w, "seconds", secs_between(s->run->start_ns, s->run->end_ns));
	json_view_phases(w, vw);
	json_view_counters(w, vw);
	json_expects(w, vw);
	jw_close(w, '}');
}

static void
steps_json(const void *arg, FILE *f)
{
	const struct steps_ctx		*c = arg;
	const struct report_steps	*st = c->sv->st;
	struct jw			 w = { .f = f, .depth = -1 };
	size_t				 i;

	jw_open(&w, NULL, '{');
	jw_str(&w, "tool", "sbsim");
	jw_str(&w, "version", c->o->version ? c->o->version : "unknown");
	json_env(&w, c->env);
	jw_str(&w, "scenario", c->o->scenario ? c->o->scenario : "");
	jw_bool(&w, "ok", c->sv->ok);
	jw_bool(&w, "interrupted", c->sv->interrupted);
	jw_open(&w, "steps", '{');
	jw_str(&w, "kind", st->kind);
	jw_str(&w, "size_option", st->size_opt);
	jw_u64(&w, "ceiling", st->ceiling);
	jw_u64_or_null(&w, "largest_passing", st->largest_ok);
	jw_u64_or_null(&w, "smallest_failing", st->smallest_failed);
	jw_open(&w, "runs", '[');
	for (i = 0; i < st->n; i++)
		steps_json_step(&w, &st->steps[i], &c->sv->v[i]);
	jw_close(&w, ']');
	jw_close(&w, '}');
	jw_close(&w, '}');
	fputc('\n', f);
}

/* CSV: a header, then a row per step: size, ok (1 or 0), each phase's
 * columns as in a run's CSV, the counters; names from the step with the
 * most phases, 0 where a step lacks one. */
static void
steps_csv(const void *arg, FILE *f)
{
	const struct steps_ctx	*c = arg;
	const struct steps_view	*sv = c->sv;
	const struct view	*cols = &sv->v[sv->widest];
	char			 suffix[48];
	size_t			 i, k, m;

	fputs("size,ok", f);
	for (k = 0; k < cols->np; k++)
		for (m = 0; m < N_CSV_METRICS; m++) {
			snprintf(suffix, sizeof(suffix), ".%s",
			    report_metric_names[csv_metrics[m]]);
			fputc(',', f);
			csv_field(f, cols->p[k].name, suffix);
		}
	for (k = 0; k < cols->nc; k++) {
		fputc(',', f);
		csv_field(f, "counters.", cols->c[k].name);
	}
	fputc('\n', f);
	for (i = 0; i < sv->st->n; i++) {
		fprintf(f, "%u,%d", sv->st->steps[i].size, sv->v[i].ok);
		for (k = 0; k < cols->np; k++)
			for (m = 0; m < N_CSV_METRICS; m++)
				fprintf(f, ",%.15g", steps_value(&sv->v[i],
				    cols->p[k].name, csv_metrics[m]));
		for (k = 0; k < cols->nc; k++)
			fprintf(f, ",%llu", (unsigned long long)
			    metrics_counter_value(sv->st->steps[i].run,
			    cols->c[k].name));
		fputc('\n', f);
	}
}

/* Why a step failed: what failed it beside its phases (a worker that
 * died), its first timed-out phase or failed threshold. */
static void
steps_why(const struct report_step *s, const struct view *vw, char *buf,
    size_t len)
{
	size_t	i;

	if (s->failed != NULL) {
		snprintf(buf, len, "%s", s->failed);
		return;
	}
	if (vw->interrupted) {
		snprintf(buf, len, "interrupted: a signal stopped the run "
		    "before its end");
		return;
	}
	snprintf(buf, len, "failed");
	for (i = 0; i < vw->np; i++)
		if (vw->p[i].state == PHASE_TIMEOUT) {
			snprintf(buf, len, "%s timed out: %.0f of %llu items",
			    vw->p[i].name, vw->p[i].v[RM_ITEMS],
			    (unsigned long long)vw->p[i].rep->target);
			return;
		}
	for (i = 0; i < vw->ne; i++)
		if (!vw->ev[i].ok) {
			snprintf(buf, len, "%s", vw->ev[i].msg);
			return;
		}
}

/* -q: the search or sweep failed, on one line (the first failed step). */
static void
steps_why_emit(const struct steps_view *sv, const struct report_opts *o)
{
	char	why[1200];
	size_t	i;

	if (o->why_out == NULL || sv->ok)
		return;
	snprintf(why, sizeof(why), "no size passed");
	for (i = 0; i < sv->st->n; i++)
		if (!sv->v[i].ok) {
			steps_why(&sv->st->steps[i], &sv->v[i], why,
			    sizeof(why));
			fprintf(o->why_out, "sbsim: result FAILED: %s%s %u: "
			    "%s\n", report_size_dashes(sv->st->size_opt),
			    sv->st->size_opt, sv->st->steps[i].size, why);
			fflush(o->why_out);
			return;
		}
	fprintf(o->why_out, "sbsim: result FAILED: %s\n", why);
}

static void
steps_junit(const void *arg, FILE *f)
{
	const struct steps_ctx	*c = arg;
	const struct steps_view	*sv = c->sv;
	const struct report_steps *st = sv->st;
	char			 name[64], why[1200];
	size_t			 i, failures = 0;
	double			 secs, total = 0;

	for (i = 0; i < st->n; i++) {
		failures += !sv->v[i].ok;
		total += secs_between(st->steps[i].run->start_ns,
		    st->steps[i].run->end_ns);
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuite name=\"sbsim.%s\" tests=\"%zu\" failures="
	    "\"%zu\" errors=\"0\" skipped=\"0\" time=\"%.3f\">\n", st->kind,
	    st->n, failures, total);
	fputs("  <properties>\n", f);
	junit_property(f, "version", c->o->version ? c->o->version :
	    "unknown");
	junit_property(f, "scenario", c->o->scenario ? c->o->scenario : "");
	snprintf(name, sizeof(name), "%u", st->largest_ok);
	if (strcmp(st->kind, "find_max") == 0)
		junit_property(f, "largest_passing", name);
	fputs("  </properties>\n", f);
	for (i = 0; i < st->n; i++) {
		snprintf(name, sizeof(name), "%s=%u", st->size_opt,
		    st->steps[i].size);
		secs = secs_between(st->steps[i].run->start_ns,
		    st->steps[i].run->end_ns);
		if (!sv->v[i].ok)
			steps_why(&st->steps[i], &sv->v[i], why, sizeof(why));
		junit_case(f, "sbsim.step", name, secs, "step",
		    sv->v[i].ok ? NULL : why);
	}
	fputs("</testsuite>\n", f);
}

int
report_emit_steps(const struct report_steps *st, const struct report_opts *o,
    FILE *human_out)
{
	struct steps_view	sv;
	struct env		env;
	struct steps_ctx	c = { &sv, o, report_env(o, &env) };
	int			rc;

	steps_build(&sv, st, o);
	if (human_out != NULL)
		steps_human(&sv, human_out);
	else
		steps_why_emit(&sv, o);
	rc = write_files(o, &c, steps_json, steps_csv, steps_junit);
	if (rc == 0 && !sv.ok)
		rc = 1;
	steps_free(&sv);
	return rc;
}

/* ---- progress ---- */

#define PROGRESS_WIDTH	79

void
report_progress(const struct metrics *m, FILE *f)
{
	const struct phase	*ph = NULL;
	char			 line[256], done[48];
	double			 secs;
	uint64_t		 now = clock_ns();
	size_t			 i;

	/* The most recently created running phase is the interesting one. */
	for (i = m->n_phases; i-- > 0 && ph == NULL;)
		if (m->phases[i]->state == PHASE_RUNNING)
			ph = m->phases[i];
	if (ph == NULL)
		return;
	secs = now > ph->trigger_ns ?
	    (double)(now - ph->trigger_ns) / NS_PER_S : 0;
	if (ph->target > 0)
		snprintf(done, sizeof(done), "%llu/%llu (%.0f%%)",
		    (unsigned long long)ph->items,
		    (unsigned long long)ph->target,
		    100.0 * (double)ph->items / (double)ph->target);
	else
		snprintf(done, sizeof(done), "%llu",
		    (unsigned long long)ph->items);
	snprintf(line, sizeof(line), "%s %s: %s items, %.0f/s, %.1f s",
	    ph->name, ph->protocol, done,
	    secs > 0 ? (double)ph->items / secs : 0.0, secs);
	fprintf(f, "%-*.*s\r", PROGRESS_WIDTH, PROGRESS_WIDTH, line);
	fflush(f);
}

void
report_progress_clear(FILE *f)
{
	fprintf(f, "%*s\r", PROGRESS_WIDTH, "");
	fflush(f);
}
