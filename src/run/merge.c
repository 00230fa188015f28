/*
 * Merging the reports of parts of one run: several processes or hosts
 * that each ran a slice of the devices (--shard I/N) write one report
 * each; read back into one struct metrics, they give the report the run
 * would have written had one process run it all.  Exact where it can be:
 * counts add, histograms add bin by bin and their percentiles are taken
 * again (percentiles themselves never average).  Times come back on
 * Unix time from each report's start_unix_ns, so the hosts' clocks must
 * agree (NTP) for the windows to be right.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "log.h"
#include "merge.h"
#include "merge_check.h"
#include "metrics.h"

#define NS_PER_S	1e9
/* The furthest a part's timeline may land from the merged trigger: a
 * report that says otherwise is not one of the same run. */
#define MERGE_MAX_TIMELINE_S	1000000

/* Every phase has what merge_phase() reads without looking twice. */
static int
merge_check_shape(json_t *phases, const char *path, char *err,
    size_t errlen)
{
	json_t	*ph;
	size_t	 i;

	if (json_array_size(phases) > METRICS_MAX_PHASES) {
		snprintf(err, errlen, "%s: more than %d phases", path,
		    METRICS_MAX_PHASES);
		return -1;
	}
	json_array_foreach(phases, i, ph)
		if (!json_is_string(json_object_get(ph, "name")) ||
		    !json_is_string(json_object_get(ph, "protocol")) ||
		    !json_is_string(json_object_get(ph, "state"))) {
			snprintf(err, errlen, "%s: phase %zu has no name, "
			    "protocol or state", path, i + 1);
			return -1;
		}
	return 0;
}

int
merge_load(struct merge_part *part, const char *path, char *err,
    size_t errlen)
{
	json_error_t	 e;
	json_t		*r, *tool, *rep;

	memset(part, 0, sizeof(*part));
	part->name = path;
	if ((r = json_load_file(path, 0, &e)) == NULL) {
		snprintf(err, errlen, "%s: %s", path, e.text);
		return -1;
	}
	tool = json_object_get(r, "tool");
	rep = json_object_get(r, "repeat");
	if (!json_is_object(r) || !json_is_string(tool) ||
	    strcmp(json_string_value(tool), "sbsim") != 0)
		snprintf(err, errlen, "%s: not an sbsim JSON report", path);
	else if (json_object_get(r, "steps") != NULL)
		snprintf(err, errlen, "%s: a report of --sweep or --find-max "
		    "steps: merge takes the reports of single runs", path);
	else if (!json_is_integer(rep) || json_integer_value(rep) != 1)
		snprintf(err, errlen, "%s: a report of %lld runs (--repeat): "
		    "merge takes the reports of single runs", path,
		    (long long)json_integer_value(rep));
	else if (!json_is_integer(json_object_get(r, "start_unix_ns")) ||
	    json_integer_value(json_object_get(r, "start_unix_ns")) <= 0)
		snprintf(err, errlen, "%s: no start_unix_ns (a report of an "
		    "older sbsim?)", path);
	else if (!json_is_array(json_object_get(r, "phases")) ||
	    !json_is_object(json_object_get(r, "counters")))
		snprintf(err, errlen, "%s: no phases or counters", path);
	else if (merge_check_shape(json_object_get(r, "phases"), path, err,
	    errlen) == 0 && merge_check_numbers(r, path, err, errlen) == 0) {
		part->json = r;
		return 0;
	}
	json_decref(r);
	return -1;
}

void
merge_part_free(struct merge_part *part)
{
	json_decref(part->json);
	part->json = NULL;
}

/* ---- reading numbers back ---- */

static uint64_t
merge_u64(json_t *o, const char *key)
{
	json_t	*v = json_object_get(o, key);
	double	 d;

	if (json_is_integer(v))
		return json_integer_value(v) > 0 ?
		    (uint64_t)json_integer_value(v) : 0;
	d = json_number_value(v);
	return isfinite(d) && d > 0 ? (uint64_t)llround(d) : 0;
}

/* A time of a part's report (seconds since its start, or null) as Unix
 * nanoseconds; 0 for null. */
static uint64_t
merge_abs_ns(uint64_t start, json_t *ph, const char *key)
{
	json_t	*v = json_object_get(ph, key);
	double	 d = json_number_value(v);

	if (!json_is_number(v) || !isfinite(d) || d < 0)
		return 0;
	return start + (uint64_t)llround(d * NS_PER_S);
}

static uint64_t
merge_start(const struct merge_part *part)
{
	return (uint64_t)json_integer_value(json_object_get(part->json,
	    "start_unix_ns"));
}

static int
merge_state(const char *s, enum phase_state *st)
{
	static const enum phase_state all[] = { PHASE_PENDING, PHASE_RUNNING,
	    PHASE_DONE, PHASE_TIMEOUT };
	size_t	i;

	for (i = 0; s != NULL && i < nitems(all); i++)
		if (strcmp(s, phase_state_name(all[i])) == 0) {
			*st = all[i];
			return 0;
		}
	return -1;
}

/* How bad a part's state is: the merged phase takes the worst. */
static int
merge_state_rank(enum phase_state st)
{
	switch (st) {
	case PHASE_DONE:
		return 0;
	case PHASE_RUNNING:
		return 1;
	case PHASE_PENDING:
		return 2;
	case PHASE_TIMEOUT:
		return 3;
	}
	return 3;
}

static enum phase_witness
merge_witness(const char *s)
{
	static const enum phase_witness all[] = { WITNESS_DEVICE,
	    WITNESS_NORTHBOUND, WITNESS_MONITOR, WITNESS_TCP_ACK };
	size_t	i;

	for (i = 0; s != NULL && i < nitems(all); i++)
		if (strcmp(s, phase_witness_name(all[i])) == 0)
			return all[i];
	return WITNESS_DEVICE;
}

/* ---- one phase ---- */

/* A part's histogram, checked: its layout must be ours, bin by bin. */
static int
merge_hist_read(struct hist *h, json_t *ph, const char *where, char *err,
    size_t errlen)
{
	json_t		*jh = json_object_get(ph, "latency_hist"), *b;
	json_int_t	 idx, cnt;
	uint32_t	*bin;
	uint64_t	 total = 0;
	size_t		 i;

	hist_init(h);
	if (!json_is_object(jh) || merge_u64(jh, "sub_bits") != HIST_SUB_BITS ||
	    merge_u64(jh, "buckets_n") != HIST_BUCKETS ||
	    !json_is_array(json_object_get(jh, "buckets"))) {
		snprintf(err, errlen, "%s: no latency_hist of %d buckets of "
		    "2^%d bins (a report of an older sbsim?)", where,
		    HIST_BUCKETS, HIST_SUB_BITS);
		return -1;
	}
	json_array_foreach(json_object_get(jh, "buckets"), i, b) {
		idx = json_integer_value(json_array_get(b, 0));
		cnt = json_integer_value(json_array_get(b, 1));
		if (json_array_size(b) != 2 || idx < 0 || cnt <= 0 ||
		    cnt > UINT32_MAX || (bin = hist_bin(h, (size_t)idx)) ==
		    NULL) {
			snprintf(err, errlen, "%s: latency_hist bucket %zu is "
			    "not [index, count]", where, i);
			return -1;
		}
		*bin = (uint32_t)cnt;
		total += (uint64_t)cnt;
	}
	h->count = merge_u64(jh, "count");
	h->min = merge_u64(jh, "min");
	h->max = merge_u64(jh, "max");
	h->sum = merge_u64(jh, "sum");
	if (total > h->count || (h->count > 0 && h->min > h->max)) {
		snprintf(err, errlen, "%s: latency_hist: its bins hold %llu "
		    "samples, its count says %llu", where,
		    (unsigned long long)total, (unsigned long long)h->count);
		return -1;
	}
	return 0;
}

static uint64_t
min_set(uint64_t a, uint64_t b)
{
	return a == 0 ? b : b == 0 ? a : a < b ? a : b;
}

static uint64_t
max_of(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* What the parts spent: sbsim's CPU adds up and its busy is the busiest
 * part's; the controller, one process seen from each part, its most. */
struct merge_cost {
	uint64_t	sbsim_ms;
	double		busy;
	int		ctl;
	uint64_t	ctl_ms;
	uint64_t	ctl_rss_kb;
	uint64_t	ctl_threads;
};

static void
merge_cost_read(struct merge_cost *mc, json_t *ph)
{
	json_t	*sb = json_object_get(json_object_get(ph, "cost"), "sbsim");
	json_t	*ctl = json_object_get(json_object_get(ph, "cost"),
		    "controller");
	double	 busy = json_number_value(json_object_get(sb, "busy"));

	mc->sbsim_ms += (uint64_t)llround(fmax(0, json_number_value(
	    json_object_get(sb, "cpu_s"))) * 1000);
	if (isfinite(busy) && busy > mc->busy)
		mc->busy = busy;
	if (!json_is_object(ctl))
		return;
	mc->ctl = 1;
	mc->ctl_ms = max_of(mc->ctl_ms, (uint64_t)llround(fmax(0,
	    json_number_value(json_object_get(ctl, "cpu_s"))) * 1000));
	mc->ctl_rss_kb = max_of(mc->ctl_rss_kb, merge_u64(ctl, "rss_max_kb"));
	mc->ctl_threads = max_of(mc->ctl_threads, merge_u64(ctl,
	    "threads_max"));
}

/* The cost windows are not in the reports: sbsim's is made as long as
 * gives the busiest part's busy over the CPU of them all. */
static void
merge_cost_set(struct phase *ph, const struct merge_cost *mc)
{
	struct phase_cost	*pc = &ph->cost[COST_SBSIM];
	double			 wall;

	pc->opened = pc->closed = 1;
	pc->cpu_end_ms = mc->sbsim_ms;
	wall = mc->busy > 0 ? (double)mc->sbsim_ms / 1000 / mc->busy : 0;
	pc->start_ns = ph->trigger_ns;
	pc->end_ns = ph->trigger_ns + (uint64_t)llround(wall * NS_PER_S);
	if (!mc->ctl)
		return;
	pc = &ph->cost[COST_CONTROLLER];
	pc->opened = pc->closed = 1;
	pc->cpu_end_ms = mc->ctl_ms;
	pc->rss_max_kb = mc->ctl_rss_kb;
	pc->threads_max = (uint32_t)mc->ctl_threads;
	pc->start_ns = ph->trigger_ns;
	pc->end_ns = ph->end_ns;
}

/* A part's timeline into the merged one, each second moved by the
 * part's trigger's offset (rounded to the nearest second: the sum is
 * exact, an item may move into the next second). */
static int
merge_timeline(struct phase *ph, json_t *jp, uint64_t trigger,
    const char *where, char *err, size_t errlen)
{
	json_t	*tl = json_object_get(jp, "timeline");
	double	 off;
	size_t	 k, sec;

	if (!json_is_array(tl))
		return 0;
	off = trigger > ph->trigger_ns ?
	    (double)(trigger - ph->trigger_ns) / NS_PER_S : 0;
	if (off + (double)json_array_size(tl) > MERGE_MAX_TIMELINE_S) {
		snprintf(err, errlen, "%s: its timeline ends more than %d s "
		    "after the merged phase's trigger: not a part of the same "
		    "run", where, MERGE_MAX_TIMELINE_S);
		return -1;
	}
	for (k = 0; k < json_array_size(tl); k++) {
		sec = (size_t)floor(off + (double)k + 0.5);
		phase_timeline_add(ph, sec, (uint64_t)llround(fmax(0,
		    json_number_value(json_array_get(tl, k)))));
	}
	return 0;
}

static json_t *
merge_phase_at(const struct merge_part *part, size_t i)
{
	return json_array_get(json_object_get(part->json, "phases"), i);
}

/* Every part has the same phases, in the same order, of one protocol. */
static int
merge_check_phases(const struct merge_part *parts, size_t n, char *err,
    size_t errlen)
{
	json_t		*a, *b;
	const char	*na, *nb, *pa, *pb;
	size_t		 np, p, i;

	np = json_array_size(json_object_get(parts[0].json, "phases"));
	for (p = 1; p < n; p++) {
		if (json_array_size(json_object_get(parts[p].json,
		    "phases")) != np) {
			snprintf(err, errlen, "%s and %s have different "
			    "phases (%zu and %zu): not parts of one run",
			    parts[0].name, parts[p].name, np,
			    json_array_size(json_object_get(parts[p].json,
			    "phases")));
			return -1;
		}
		for (i = 0; i < np; i++) {
			a = merge_phase_at(&parts[0], i);
			b = merge_phase_at(&parts[p], i);
			na = json_string_value(json_object_get(a, "name"));
			nb = json_string_value(json_object_get(b, "name"));
			pa = json_string_value(json_object_get(a, "protocol"));
			pb = json_string_value(json_object_get(b, "protocol"));
			if (na == NULL || nb == NULL || pa == NULL ||
			    pb == NULL || strcmp(na, nb) != 0 ||
			    strcmp(pa, pb) != 0) {
				snprintf(err, errlen, "%s and %s differ in "
				    "their phase %zu (%s of %s, %s of %s): "
				    "not parts of one run", parts[0].name,
				    parts[p].name, i + 1, na ? na : "?",
				    pa ? pa : "?", nb ? nb : "?",
				    pb ? pb : "?");
				return -1;
			}
		}
	}
	return 0;
}

/* Phase i of every part into one: the windows first (the timelines are
 * placed from the merged trigger), then the rest. */
static int
merge_phase(const struct merge_part *parts, size_t n, size_t i,
    struct metrics *out, char *err, size_t errlen)
{
	struct phase		*ph;
	struct merge_cost	 mc;
	struct hist		 h;
	enum phase_state	 st;
	json_t			*jp = merge_phase_at(&parts[0], i);
	char			 where[512];
	uint64_t		 s;
	size_t			 p;
	int			 worst = -1;

	ph = metrics_phase(out, json_string_value(json_object_get(jp,
	    "name")), json_string_value(json_object_get(jp, "protocol")));
	ph->witness = merge_witness(json_string_value(json_object_get(jp,
	    "witness")));
	memset(&mc, 0, sizeof(mc));
	for (p = 0; p < n; p++) {
		jp = merge_phase_at(&parts[p], i);
		s = merge_start(&parts[p]);
		ph->trigger_ns = min_set(ph->trigger_ns,
		    merge_abs_ns(s, jp, "trigger_s"));
		ph->first_ns = min_set(ph->first_ns,
		    merge_abs_ns(s, jp, "first_s"));
		ph->last_ns = max_of(ph->last_ns, merge_abs_ns(s, jp,
		    "last_s"));
		ph->end_ns = max_of(ph->end_ns, merge_abs_ns(s, jp, "end_s"));
	}
	for (p = 0; p < n; p++) {
		jp = merge_phase_at(&parts[p], i);
		snprintf(where, sizeof(where), "%s: phase %s", parts[p].name,
		    ph->name);
		if (merge_state(json_string_value(json_object_get(jp,
		    "state")), &st) == -1) {
			snprintf(err, errlen, "%s: no state", where);
			return -1;
		}
		if (merge_state_rank(st) > worst) {
			worst = merge_state_rank(st);
			ph->state = st;
		}
		ph->items += merge_u64(jp, "items");
		ph->target += merge_u64(jp, "target");
		if (merge_hist_read(&h, jp, where, err, errlen) == -1)
			return -1;
		hist_merge(&ph->latency, &h);
		if (merge_timeline(ph, jp, merge_abs_ns(merge_start(&parts[p]),
		    jp, "trigger_s"), where, err, errlen) == -1)
			return -1;
		merge_cost_read(&mc, jp);
	}
	merge_cost_set(ph, &mc);
	return 0;
}

/* ---- counters ---- */

/*
 * Not every counter is a sum.  Peaks (*_max_*, *_max: a process's RSS,
 * a controller's threads) are the largest part's; what each part
 * measured of the one controller they all ran against (its CPU, whether
 * its PID went) is the most any part saw; flags (learn_not_observed)
 * and what one monitor holds (monitor_prefixes, each part's monitor
 * sees the controller's whole table) likewise.  A scenario group's
 * "GROUP.name" goes by its name.
 */
int
merge_counter_is_max(const char *name)
{
	static const char *const max_names[] = {
		"controller_cpu_ms", "controller_pid_gone",
		"learn_not_observed", "monitor_prefixes",
	};
	const char	*dot = strrchr(name, '.');
	size_t		 i, len;

	name = dot != NULL ? dot + 1 : name;
	len = strlen(name);
	if (strstr(name, "_max_") != NULL || strncmp(name, "max_", 4) == 0 ||
	    (len > 4 && strcmp(name + len - 4, "_max") == 0))
		return 1;
	for (i = 0; i < nitems(max_names); i++)
		if (strcmp(name, max_names[i]) == 0)
			return 1;
	return 0;
}

static void
merge_counters(const struct merge_part *parts, size_t n, struct metrics *out)
{
	const char	*key;
	json_t		*v;
	uint64_t	*c;
	size_t		 p;

	for (p = 0; p < n; p++)
		json_object_foreach(json_object_get(parts[p].json,
		    "counters"), key, v) {
			/* The parts' JSON may go before out. */
			c = metrics_counter_copy(out, key);
			if (merge_counter_is_max(key))
				*c = max_of(*c, merge_u64(json_object_get(
				    parts[p].json, "counters"), key));
			else
				*c += merge_u64(json_object_get(parts[p].json,
				    "counters"), key);
		}
}

int
merge_parts(const struct merge_part *parts, size_t n, struct metrics *out,
    int *parts_ok, char *why, size_t whylen, char *err, size_t errlen)
{
	json_t	*ok;
	size_t	 p, i, np;

	memset(out, 0, sizeof(*out));
	*parts_ok = 1;
	if (n == 0) {
		snprintf(err, errlen, "no report to merge");
		return -1;
	}
	if (merge_check_phases(parts, n, err, errlen) == -1)
		return -1;
	for (p = 0; p < n; p++) {
		out->start_ns = min_set(out->start_ns, merge_start(&parts[p]));
		out->end_ns = max_of(out->end_ns, merge_abs_ns(
		    merge_start(&parts[p]), parts[p].json, "end_s"));
		ok = json_object_get(parts[p].json, "ok");
		/* A part a signal cut short leaves the whole run short. */
		if (json_is_true(json_object_get(parts[p].json,
		    "interrupted")))
			out->interrupted = 1;
		/* Served when every part only served. */
		out->served = (p == 0 || out->served) && json_is_true(
		    json_object_get(parts[p].json, "served"));
		if (*parts_ok && !json_is_true(ok)) {
			*parts_ok = 0;
			snprintf(why, whylen, "part %s was not ok",
			    parts[p].name);
		}
	}
	out->start_real_ns = out->start_ns;
	np = json_array_size(json_object_get(parts[0].json, "phases"));
	for (i = 0; i < np; i++)
		if (merge_phase(parts, n, i, out, err, errlen) == -1) {
			metrics_free(out);
			return -1;
		}
	merge_counters(parts, n, out);
	return 0;
}
