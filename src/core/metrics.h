/*
 * Measurement: the phase clock, counters, per-second timelines and latency
 * histograms of one run (docs/design.md, "Phases and counters").
 * Times are monotonic nanoseconds from clock_ns(); latencies microseconds.
 */
#ifndef SBSIM_METRICS_H
#define SBSIM_METRICS_H

#include <stddef.h>
#include <stdint.h>

struct timespec;

uint64_t clock_ns(void);		/* CLOCK_MONOTONIC */
uint64_t clock_real_ns(void);		/* CLOCK_REALTIME: Unix time in ns */
/* A socket timestamp (CLOCK_REALTIME) on clock_ns()'s clock. */
uint64_t clock_ns_of_real(const struct timespec *);
/* Seconds from one clock_ns() to a later one; 0 when either is unset. */
double	 secs_between(uint64_t from_ns, uint64_t to_ns);

/*
 * Log-linear histogram (HdrHistogram style): values up to 2^40 us with
 * under 1% relative error in a fixed few kilobytes; no allocation on add.
 */
#define HIST_SUB_BITS	7
#define HIST_SUB	(1 << HIST_SUB_BITS)
#define HIST_BUCKETS	34
struct hist {
	uint64_t	count;
	uint64_t	max;
	uint64_t	min;
	uint64_t	sum;
	uint32_t	bins[HIST_BUCKETS][HIST_SUB];
};
void	 hist_init(struct hist *);
void	 hist_add(struct hist *, uint64_t value);
void	 hist_merge(struct hist *, const struct hist *);
/* The bin at flat index i = bucket * HIST_SUB + sub (as reports write
 * them), for reading a report back; NULL past the end. */
uint32_t *hist_bin(struct hist *, size_t i);
/* Value at percentile p in [0,100]; 0 when empty. */
uint64_t hist_percentile(const struct hist *, double p);

enum phase_state {
	PHASE_PENDING,		/* not triggered yet */
	PHASE_RUNNING,
	PHASE_DONE,		/* completion condition met */
	PHASE_TIMEOUT,		/* ended by its timeout or the run's end */
};

#define PHASE_NAME_MAX	48	/* a scenario group's "GROUP." and the name */

/*
 * Who saw a phase's last item (docs/report.md, "Phase windows"): the
 * devices receiving it, the controller's northbound, a monitor peer
 * receiving what the controller re-advertises, or the controller's TCP
 * acknowledging the last byte the devices sent.
 */
enum phase_witness {
	WITNESS_DEVICE,
	WITNESS_NORTHBOUND,
	WITNESS_MONITOR,
	WITNESS_TCP_ACK,
};

/*
 * What a process spent while a phase ran (src/core/cost.h): sbsim itself, and
 * the controller when --controller-pid or --controller-metrics samples it.
 * The window runs from the last sample before the phase started to the
 * first sample after it ended, so it is a tick (or a scrape) wider.
 */
enum cost_who {
	COST_SBSIM,
	COST_CONTROLLER,
	COST_N
};

struct phase_cost {
	uint64_t	 start_ns;	/* the window's samples */
	uint64_t	 end_ns;
	uint64_t	 cpu_start_ms;
	uint64_t	 cpu_end_ms;
	uint64_t	 rss_max_kb;
	uint32_t	 threads_max;
	uint8_t		 opened;	/* cpu_start_ms is set */
	uint8_t		 closed;	/* cpu_end_ms is set */
};

struct phase {
	char		 name[PHASE_NAME_MAX];
	char		 protocol[PHASE_NAME_MAX];
	enum phase_state state;
	enum phase_witness witness;
	int		 await_ack;	/* at target, wait for phase_acked() */
	int		 expected;	/* the run needs it DONE: phase_expect() */
	/* The run did not ask for it and only the controller drives it
	 * (confirm: the controller reading flows back): still without an
	 * item when the run ends, it was not driven and goes back to
	 * PENDING (run_close_phases()), no failure. */
	int		 optional;
	uint64_t	 trigger_ns;	/* when the phase started */
	uint64_t	 first_ns;	/* first item, 0 if none */
	uint64_t	 last_ns;	/* last item, 0 if none */
	uint64_t	 end_ns;	/* when it was ended */
	uint64_t	 items;
	uint64_t	 target;	/* items expected, 0 unknown */
	struct hist	 latency;	/* microseconds */
	struct phase_cost cost[COST_N];
	uint32_t	*timeline;	/* items per second since trigger */
	size_t		 timeline_len;
	size_t		 timeline_cap;
};

#define METRICS_MAX_PHASES	128
#define METRICS_MAX_COUNTERS	512
#define METRICS_PREFIX_MAX	24	/* "GROUP." of a scenario */

struct counter {
	const char	*name;		/* static string, or owned */
	uint64_t	 value;
	int		 owned;		/* name made with a prefix */
};

/* One run: its phases in order of creation, its counters by name. */
struct metrics {
	uint64_t	 start_ns;
	/* start_ns as Unix time (ns), so that the reports of processes,
	 * hosts even, that ran parts of one run line up (sbsim merge). */
	uint64_t	 start_real_ns;
	uint64_t	 end_ns;
	/* A signal (SIGINT, SIGTERM) stopped the run before its end (its
	 * --duration, or its phases complete): it failed, whatever its
	 * phases say (docs/report.md, "Verdicts"). */
	int		 interrupted;
	/* Every device only listened and no phase was expected: the run
	 * served whoever came (counters served_devices and
	 * served_connections), a phase that did not reach its count is no
	 * failure (run.c, run_serving). */
	int		 served;
	struct phase	*phases[METRICS_MAX_PHASES];
	size_t		 n_phases;
	struct counter	 counters[METRICS_MAX_COUNTERS];
	size_t		 n_counters;
	/* A scope (metrics_scope()): its phases and counters, made and
	 * looked up by name, are its parent's "PREFIX.name". */
	struct metrics	*parent;
	char		 prefix[METRICS_PREFIX_MAX];
};

void	 metrics_init(struct metrics *);
/*
 * scope as a view of parent in which every name is "prefix.name": one
 * scenario group's (sbsim run), handed to its sim instead of the run's.
 * It holds nothing itself; the run's report sees the phases and counters
 * in the parent.
 */
void	 metrics_scope(struct metrics *scope, struct metrics *parent,
	    const char *prefix);
void	 metrics_free(struct metrics *);
/* The phase of that name, created PENDING on first use. */
struct phase *metrics_phase(struct metrics *, const char *name,
	    const char *protocol);
struct phase *metrics_find_phase(const struct metrics *, const char *name);
/* A counter's storage, created at 0 on first use; name must be static. */
uint64_t *metrics_counter(struct metrics *, const char *name);
/* The same for a name whose storage goes away: the metrics keep a copy. */
uint64_t *metrics_counter_copy(struct metrics *, const char *name);
uint64_t metrics_counter_value(const struct metrics *, const char *name);
/*
 * Counters declared as rows, in report order: each row's counter pointer
 * goes to base + off (a struct of uint64_t * fields).  Rows whose flags
 * meet skip are left out of the report and point at sink instead.
 */
struct counter_row {
	size_t		 off;
	const char	*name;
	unsigned	 flags;
};
#define COUNTER_ROW(type, field, nm) \
	{ offsetof(type, field) + 0 * sizeof((uint64_t **)0 == \
	  &((type *)0)->field), nm, 0 }
void	 metrics_counters(struct metrics *, const struct counter_row *,
	    size_t n, void *base, unsigned skip, uint64_t *sink);
/* Every row of an array of rows, none skipped. */
#define METRICS_COUNTERS(m, rows, base) \
	metrics_counters((m), (rows), sizeof(rows) / sizeof((rows)[0]), \
	    (base), 0, NULL)

void	 phase_start(struct phase *, uint64_t now_ns);
/* The run needs this phase DONE, with this target: however the run ends
 * (its timeout, SIGTERM), one still PENDING then fails it. */
void	 phase_expect(struct phase *, uint64_t target);
/* n items happened at now: first/last, timeline, and DONE at target. */
void	 phase_items(struct phase *, uint64_t now_ns, uint64_t n);
void	 phase_latency(struct phase *, uint64_t us);
/* n items into the timeline's second sec (since the trigger), nothing
 * else: reading a report back (sbsim merge). */
void	 phase_timeline_add(struct phase *, size_t sec, uint64_t n);
/* The window opens at the first item: a phase started early (so that it
 * can time out) is re-timed from now while it has no item yet. */
void	 phase_open(struct phase *, uint64_t now_ns);
/* A sender-side phase: the first byte of its items, counted when queued,
 * was sent at now (txack); the window opens then. */
void	 phase_opened_at(struct phase *, uint64_t now_ns);
/* A sender-side phase: the peers acknowledged its last byte at now. */
void	 phase_acked(struct phase *, uint64_t now_ns);
void	 phase_end(struct phase *, uint64_t now_ns, enum phase_state);
/* Seconds from trigger to last item (or to end when there was none). */
double	 phase_seconds(const struct phase *);
/* items / seconds, 0 when seconds is 0. */
double	 phase_rate(const struct phase *);
const char *phase_state_name(enum phase_state);
/* Over: done or timed out; a phase the run does not have (NULL) too. */
int	 phase_over(const struct phase *);
const char *phase_witness_name(enum phase_witness);
/* CPU seconds a process spent in the phase's window; 0 unsampled. */
double	 phase_cost_cpu_s(const struct phase *, enum cost_who);
/* That CPU time over the window's wall time (1: one core busy). */
double	 phase_cost_busy(const struct phase *, enum cost_who);

#endif
