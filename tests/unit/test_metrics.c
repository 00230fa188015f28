/*
 * Unit tests of src/core/metrics.c: histogram accuracy and merging, the phase
 * clock (timeline, seconds, rate, completion), counters.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "log.h"
#include "merge.h"
#include "metrics.h"

#define S	1000000000ULL		/* one second in ns */
#define T0	(5 * S)			/* a trigger time that is not 0 */

static int
within(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

static void
test_hist_uniform(void)
{
	static struct hist	h;
	uint64_t		v;

	hist_init(&h);
	for (v = 1; v <= 10000; v++)
		hist_add(&h, v);
	CHECK(h.count == 10000 && h.min == 1 && h.max == 10000,
	    "uniform: count %llu min %llu max %llu",
	    (unsigned long long)h.count, (unsigned long long)h.min,
	    (unsigned long long)h.max);
	CHECK(h.sum == 50005000ULL, "uniform: sum");
	v = hist_percentile(&h, 50);
	CHECK(within(v, 5000, 0.01), "p50 %llu ~ 5000", (unsigned long long)v);
	v = hist_percentile(&h, 90);
	CHECK(within(v, 9000, 0.01), "p90 %llu ~ 9000", (unsigned long long)v);
	v = hist_percentile(&h, 99);
	CHECK(within(v, 9900, 0.01), "p99 %llu ~ 9900", (unsigned long long)v);
	CHECK(hist_percentile(&h, 0) == 1, "p0 is the min");
	CHECK(hist_percentile(&h, 100) == 10000, "p100 is the max");
	CHECK(hist_percentile(&h, 0.01) == 1, "p0.01 is exact in bucket 0");
}

/* One value at a time over the whole range: every estimate within 1%. */
static void
test_hist_relative_error(void)
{
	static struct hist	h;
	double			x, worst = 0, err;
	uint64_t		v, got;

	for (x = 1; x < (double)(1ULL << 40); x = x * 1.013 + 1) {
		v = (uint64_t)x;
		hist_init(&h);
		hist_add(&h, v);
		hist_add(&h, v + v / 300);	/* a neighbour, same bin or not */
		got = hist_percentile(&h, 50);
		err = fabs((double)got - (double)v) / (double)v;
		if (err > worst)
			worst = err;
	}
	CHECK(worst < 0.01, "worst relative error %.4f%% < 1%%",
	    worst * 100);
}

static void
test_hist_edges(void)
{
	static struct hist	h;
	uint64_t		big = (1ULL << 50) + 12345;

	hist_init(&h);
	CHECK(hist_percentile(&h, 50) == 0 && hist_percentile(&h, 100) == 0,
	    "empty histogram reads 0");
	hist_add(&h, 0);
	CHECK(hist_percentile(&h, 50) == 0, "a single 0");
	hist_add(&h, big);
	CHECK(hist_percentile(&h, 100) == big, "past 2^40: max is exact");
	CHECK(hist_percentile(&h, 99) <= big, "past 2^40: clamped to max");
	CHECK(hist_percentile(&h, NAN) == 0, "NaN percentile reads the min");
	hist_init(&h);
	hist_add(&h, 127);
	hist_add(&h, 128);
	CHECK(hist_percentile(&h, 50) == 127 && hist_percentile(&h, 100) ==
	    128, "bucket 0/1 boundary exact");
}

static void
test_hist_merge(void)
{
	static struct hist	all, lo, hi, empty;
	uint64_t		v;

	hist_init(&all);
	hist_init(&lo);
	hist_init(&hi);
	hist_init(&empty);
	for (v = 1; v <= 10000; v++) {
		hist_add(&all, v * 7);
		hist_add(v <= 5000 ? &lo : &hi, v * 7);
	}
	hist_merge(&hi, &lo);
	CHECK(hi.count == all.count && hi.min == all.min &&
	    hi.max == all.max && hi.sum == all.sum, "merge: count/min/max/sum");
	CHECK(memcmp(hi.bins, all.bins, sizeof(all.bins)) == 0,
	    "merge: same bins as adding everything to one");
	CHECK(hist_percentile(&hi, 50) == hist_percentile(&all, 50),
	    "merge: same p50");
	hist_merge(&hi, &empty);
	CHECK(hi.count == all.count && hi.min == all.min,
	    "merging an empty histogram changes nothing");
	hist_merge(&empty, &all);
	CHECK(empty.count == all.count && empty.min == 7 &&
	    empty.max == 70000, "merge into an empty histogram");
}

static void
test_phase_basic(void)
{
	struct metrics	 m;
	struct phase	*p;

	metrics_init(&m);
	CHECK(m.start_ns != 0, "metrics_init stamps the start");
	p = metrics_phase(&m, "program", "openflow");
	CHECK(p != NULL && p->state == PHASE_PENDING, "created PENDING");
	CHECK(strcmp(p->protocol, "openflow") == 0, "protocol kept");
	CHECK(metrics_phase(&m, "program", "x") == p, "same name, same phase");
	CHECK(metrics_find_phase(&m, "program") == p, "find by name");
	CHECK(metrics_find_phase(&m, "prog") == NULL, "no prefix match");
	CHECK(metrics_find_phase(&m, "delete") == NULL, "unknown phase");
	CHECK(metrics_phase(&m, "delete", NULL) != p && m.n_phases == 2,
	    "a second phase, NULL protocol");
	CHECK(strcmp(phase_state_name(PHASE_TIMEOUT), "TIMEOUT") == 0 &&
	    strcmp(phase_state_name(PHASE_DONE), "DONE") == 0 &&
	    strcmp(phase_state_name(PHASE_PENDING), "PENDING") == 0 &&
	    strcmp(phase_state_name(PHASE_RUNNING), "RUNNING") == 0,
	    "state names");
	metrics_free(&m);
	CHECK(m.n_phases == 0, "metrics_free empties");
}

static void
test_phase_timeline(void)
{
	struct metrics	 m;
	struct phase	*p;

	metrics_init(&m);
	p = metrics_phase(&m, "program", "openflow");
	phase_start(p, T0);
	phase_start(p, T0 + S);		/* a second trigger is ignored */
	CHECK(p->state == PHASE_RUNNING && p->trigger_ns == T0, "started");
	CHECK(phase_seconds(p) == 0 && phase_rate(p) == 0,
	    "no items yet: 0 s, rate 0");
	phase_items(p, T0 + S / 2, 10);
	phase_items(p, T0 + S + S / 5, 5);
	phase_items(p, T0 + 3 * S + 9 * S / 10, 1);
	CHECK(p->items == 16, "items counted");
	CHECK(p->first_ns == T0 + S / 2 && p->last_ns == T0 + 39 * S / 10,
	    "first/last");
	CHECK(p->timeline_len == 4 && p->timeline[0] == 10 &&
	    p->timeline[1] == 5 && p->timeline[2] == 0 && p->timeline[3] == 1,
	    "timeline [10,5,0,1]");
	CHECK(within(phase_seconds(p), 3.9, 1e-9), "seconds %.9f",
	    phase_seconds(p));
	CHECK(within(phase_rate(p), 16 / 3.9, 1e-9), "rate %.6f",
	    phase_rate(p));
	phase_items(p, T0 + 100 * S, 2);	/* grows past the first 16 */
	CHECK(p->timeline_len == 101 && p->timeline[100] == 2 &&
	    p->timeline[50] == 0 && p->timeline_cap >= 101,
	    "timeline grows, gap is zeros");
	phase_latency(p, 250);
	CHECK(p->latency.count == 1 && hist_percentile(&p->latency, 50) == 250,
	    "latency recorded");
	metrics_free(&m);
}

static void
test_phase_target(void)
{
	struct metrics	 m;
	struct phase	*p;

	metrics_init(&m);
	p = metrics_phase(&m, "connect", "bgp");
	p->target = 100;
	phase_items(p, T0, 40);		/* implicit start */
	CHECK(p->state == PHASE_RUNNING && p->trigger_ns == T0,
	    "items start a pending phase");
	phase_items(p, T0 + 2 * S, 60);
	CHECK(p->state == PHASE_DONE && p->end_ns == T0 + 2 * S,
	    "DONE at target, end stamped");
	CHECK(within(phase_rate(p), 50, 1e-12), "rate 100 items / 2 s");
	phase_items(p, T0 + 9 * S, 5);
	CHECK(p->items == 100 && p->last_ns == T0 + 2 * S,
	    "items after the end do not count");
	phase_end(p, T0 + 10 * S, PHASE_TIMEOUT);
	CHECK(p->state == PHASE_DONE && p->end_ns == T0 + 2 * S,
	    "a later timeout does not undo DONE");
	metrics_free(&m);
}

/* A sender-side phase (docs/report.md, "Phase windows"): opened at its
 * first byte's transmit time, DONE only when acknowledged. */
static void
test_phase_wire(void)
{
	struct metrics	 m;
	struct phase	*p, *q;

	metrics_init(&m);
	p = metrics_phase(&m, "sync", "pcep");
	CHECK(p->witness == WITNESS_DEVICE && strcmp(phase_witness_name(
	    WITNESS_TCP_ACK), "tcp_ack") == 0, "witness: device by default");
	p->target = 10;
	p->await_ack = 1;
	phase_start(p, T0);
	phase_open(p, T0 + S);
	CHECK(p->trigger_ns == T0 + S, "open: re-timed while it has no item");
	phase_items(p, T0 + S, 10);
	phase_open(p, T0 + 2 * S);
	CHECK(p->trigger_ns == T0 + S, "open: not once it has items");
	CHECK(p->state == PHASE_RUNNING, "at target it waits for the ack");
	phase_opened_at(p, T0 + S + S / 2);
	phase_acked(p, T0 + 3 * S);
	CHECK(p->state == PHASE_DONE && p->last_ns == T0 + 3 * S &&
	    within(phase_seconds(p), 1.5, 1e-12),
	    "from the first byte sent to the acknowledgment");
	q = metrics_phase(&m, "nb_program", "northbound");
	CHECK(q->witness == WITNESS_NORTHBOUND, "northbound's own phases");
	metrics_free(&m);
}

static void
test_phase_timeout(void)
{
	struct metrics	 m;
	struct phase	*p, *q;

	metrics_init(&m);
	p = metrics_phase(&m, "learn", "pcep");
	p->target = 10;
	phase_start(p, T0);
	phase_end(p, T0 + 30 * S, PHASE_TIMEOUT);
	CHECK(p->state == PHASE_TIMEOUT && p->end_ns == T0 + 30 * S,
	    "timed out");
	CHECK(within(phase_seconds(p), 30, 1e-12) && phase_rate(p) == 0,
	    "no items: seconds to the end, rate 0");
	q = metrics_phase(&m, "delete", "pcep");
	phase_end(q, T0 + S, PHASE_TIMEOUT);
	CHECK(q->state == PHASE_TIMEOUT && phase_seconds(q) == 0,
	    "a phase that never started lasts 0 s");
	metrics_free(&m);
}

static void
test_phase_long_name(void)
{
	struct metrics	 m;
	struct phase	*p;
	const char	*name =
	    "a_phase_name_that_is_longer_than_forty_seven_characters";

	metrics_init(&m);
	p = metrics_phase(&m, name, "bgp");
	CHECK(strlen(p->name) == PHASE_NAME_MAX - 1, "long name truncated");
	CHECK(metrics_find_phase(&m, name) == p &&
	    metrics_phase(&m, name, "bgp") == p, "found by its long name");
	metrics_free(&m);
}

/* A scenario group's scope: "GROUP.name" in the run's metrics. */
static void
test_scope(void)
{
	struct metrics	 m, g;
	struct phase	*a, *b;
	uint64_t	*c, *d;

	metrics_init(&m);
	a = metrics_phase(&m, "connect", "openflow");
	metrics_scope(&g, &m, "bgp1");
	b = metrics_phase(&g, "connect", "bgp");
	CHECK(a != b && strcmp(b->name, "bgp1.connect") == 0 &&
	    m.n_phases == 2 && g.n_phases == 0,
	    "the scope's phase is the parent's, prefixed");
	CHECK(metrics_find_phase(&g, "connect") == b &&
	    metrics_find_phase(&m, "connect") == a &&
	    metrics_find_phase(&m, "bgp1.connect") == b,
	    "each finds its own by its own name");
	c = metrics_counter(&g, "rx_messages");
	*c = 5;
	d = metrics_counter(&m, "rx_messages");
	CHECK(d != c && metrics_counter_value(&g, "rx_messages") == 5 &&
	    metrics_counter_value(&m, "bgp1.rx_messages") == 5 &&
	    metrics_counter_value(&m, "rx_messages") == 0,
	    "the counters are apart, the scope's in the parent");
	metrics_free(&g);
	metrics_free(&m);
}

static void
test_counters(void)
{
	static struct metrics	 m;
	static const char	*names[METRICS_MAX_COUNTERS + 1];
	char			 copy[] = "decode_errors";
	uint64_t		*c, *d;
	size_t			 i;

	metrics_init(&m);
	c = metrics_counter(&m, "decode_errors");
	CHECK(c != NULL && *c == 0, "created at 0");
	*c += 3;
	CHECK(metrics_counter(&m, copy) == c, "same name, same storage");
	CHECK(metrics_counter_value(&m, "decode_errors") == 3, "value read");
	CHECK(metrics_counter_value(&m, "nope") == 0, "unknown reads 0");
	d = metrics_counter(&m, "reconnects");
	CHECK(d != c && m.n_counters == 2, "a second counter");
	for (i = 0; i <= METRICS_MAX_COUNTERS; i++) {
		char	*s;

		if (xasprintf(&s, "c%zu", i) == -1)
			abort();
		names[i] = s;
		*metrics_counter(&m, names[i]) += 1;
	}
	CHECK(m.n_counters == METRICS_MAX_COUNTERS,
	    "full table: extra counters go to a sink, no overflow");
	for (i = 0; i <= METRICS_MAX_COUNTERS; i++)
		free((void *)names[i]);
	metrics_free(&m);
}

static void
test_clock(void)
{
	uint64_t	a = clock_ns(), b = clock_ns();

	CHECK(a > 0 && b >= a, "clock_ns is monotonic");
}

/*
 * A report's sparse bins read back through hist_bin() give the same
 * histogram, so that sbsim merge's percentiles are the run's own.
 */
static void
test_hist_bin_roundtrip(void)
{
	static struct hist	h, back;
	uint64_t		v;
	size_t			b, s;
	uint32_t		*bin;

	hist_init(&h);
	hist_init(&back);
	for (v = 1; v < 5000000; v = v * 3 / 2 + 1)
		hist_add(&h, v);
	for (b = 0; b < HIST_BUCKETS; b++)
		for (s = 0; s < HIST_SUB; s++)
			if (h.bins[b][s] != 0) {
				bin = hist_bin(&back, b * HIST_SUB + s);
				CHECK(bin != NULL, "bin %zu/%zu", b, s);
				*bin = h.bins[b][s];
			}
	back.count = h.count;
	back.min = h.min;
	back.max = h.max;
	back.sum = h.sum;
	CHECK(memcmp(&h, &back, sizeof(h)) == 0, "bins read back");
	CHECK(hist_bin(&back, (size_t)HIST_BUCKETS * HIST_SUB) == NULL,
	    "past the last bin: NULL");
}

/* sbsim merge sums counters, but for maxima (docs/report.md). */
static void
test_merge_counter_kinds(void)
{
	CHECK(merge_counter_is_max("sbsim_max_rss_kb"), "sbsim_max_rss_kb");
	CHECK(merge_counter_is_max("controller_threads_max"), "threads_max");
	CHECK(merge_counter_is_max("controller_cpu_ms"), "controller cpu");
	CHECK(merge_counter_is_max("grp.controller_max_rss_kb"),
	    "a scenario group's");
	CHECK(!merge_counter_is_max("flows_added"), "flows_added sums");
	CHECK(!merge_counter_is_max("connect_attempts"), "attempts sum");
	CHECK(!merge_counter_is_max("controller_scrape_errors"),
	    "each part's scrape errors sum");
	CHECK(!merge_counter_is_max("maximal"), "not a _max word");
}

static const struct check_case cases[] = {
	CASE(test_hist_bin_roundtrip),
	CASE(test_merge_counter_kinds),
	CASE(test_hist_uniform),
	CASE(test_hist_relative_error),
	CASE(test_hist_edges),
	CASE(test_hist_merge),
	CASE(test_phase_basic),
	CASE(test_phase_timeline),
	CASE(test_phase_target),
	CASE(test_phase_wire),
	CASE(test_phase_timeout),
	CASE(test_phase_long_name),
	CASE(test_counters),
	CASE(test_scope),
	CASE(test_clock),
};

int
main(int argc, char **argv)
{
	/* Line-buffered so warnings and child output interleave in order. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	log_init("test_metrics", LOG_QUIET);
	return check_run(cases, argc, argv);
}
