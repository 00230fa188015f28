/*
 * Measurement: the phase clock, counters, per-second timelines and latency
 * histograms of one run.  Nothing here does I/O; report.c prints it.
 */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "metrics.h"

#define NS_PER_S	1000000000ULL

static uint64_t
clock_of(clockid_t id)
{
	struct timespec	ts;

	if (clock_gettime(id, &ts) == -1)
		fatal("clock_gettime");
	return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

uint64_t
clock_ns(void)
{
	/* Monotonic: NTP steps must not bend a phase's duration. */
	return clock_of(CLOCK_MONOTONIC);
}

uint64_t
clock_real_ns(void)
{
	return clock_of(CLOCK_REALTIME);
}

/* A kernel timestamp (CLOCK_REALTIME: socket timestamps) on clock_ns()'s
 * clock, by how long ago it was; a future one is now. */
uint64_t
clock_ns_of_real(const struct timespec *ts)
{
	struct timespec	now;
	uint64_t	real, then, mono = clock_ns();

	if (clock_gettime(CLOCK_REALTIME, &now) == -1)
		fatal("clock_gettime");
	real = (uint64_t)now.tv_sec * NS_PER_S + (uint64_t)now.tv_nsec;
	then = (uint64_t)ts->tv_sec * NS_PER_S + (uint64_t)ts->tv_nsec;
	return then < real && real - then < mono ? mono - (real - then) : mono;
}

double
secs_between(uint64_t from, uint64_t to)
{
	return from != 0 && to > from ? (double)(to - from) / 1e9 : 0;
}

/*
 * Histogram layout.  Bucket 0 holds the values 0..HIST_SUB-1 exactly.
 * Bucket b >= 1 holds [HIST_SUB << (b-1), HIST_SUB << b): HIST_SUB bins of
 * width 2^(b-1), so a bin is at most 1/HIST_SUB (0.8%) of its value wide and
 * the midpoint we report is within 0.4%.  HIST_BUCKETS = 34 reaches 2^40;
 * larger values land in the last bin (max still records them exactly).
 */
static void
hist_index(uint64_t v, size_t *b, size_t *s)
{
	int	msb;

	if (v < HIST_SUB) {
		*b = 0;
		*s = (size_t)v;
		return;
	}
	msb = 63 - __builtin_clzll(v);
	*b = (size_t)(msb - HIST_SUB_BITS + 1);
	if (*b >= HIST_BUCKETS) {
		*b = HIST_BUCKETS - 1;
		*s = HIST_SUB - 1;
		return;
	}
	*s = (size_t)((v >> (msb - HIST_SUB_BITS)) - HIST_SUB);
}

/* Lowest value of a bin and its width. */
static void
hist_bin_range(size_t b, size_t s, uint64_t *lo, uint64_t *width)
{
	if (b == 0) {
		*lo = s;
		*width = 1;
		return;
	}
	*lo = ((uint64_t)HIST_SUB + s) << (b - 1);
	*width = 1ULL << (b - 1);
}

void
hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

void
hist_add(struct hist *h, uint64_t v)
{
	size_t	b, s;

	hist_index(v, &b, &s);
	if (h->bins[b][s] != UINT32_MAX)	/* saturate, never wrap */
		h->bins[b][s]++;
	if (h->count == 0 || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum += v;
}

void
hist_merge(struct hist *dst, const struct hist *src)
{
	size_t		b, s;
	uint64_t	n;

	if (src->count == 0)
		return;
	for (b = 0; b < HIST_BUCKETS; b++)
		for (s = 0; s < HIST_SUB; s++) {
			n = (uint64_t)dst->bins[b][s] + src->bins[b][s];
			dst->bins[b][s] = n > UINT32_MAX ? UINT32_MAX :
			    (uint32_t)n;
		}
	if (dst->count == 0 || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
}

uint32_t *
hist_bin(struct hist *h, size_t i)
{
	if (i >= (size_t)HIST_BUCKETS * HIST_SUB)
		return NULL;
	return &h->bins[i / HIST_SUB][i % HIST_SUB];
}

/* Midpoint of a bin, clamped to the observed range so p0/p100 are exact. */
static uint64_t
hist_bin_value(const struct hist *h, size_t b, size_t s)
{
	uint64_t	lo, width, v;

	hist_bin_range(b, s, &lo, &width);
	v = lo + (width - 1) / 2;
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

uint64_t
hist_percentile(const struct hist *h, double p)
{
	uint64_t	rank, seen = 0;
	size_t		b, s;

	if (h->count == 0)
		return 0;
	if (!(p > 0))			/* also catches NaN */
		return h->min;
	if (p >= 100)
		return h->max;
	/* Nearest-rank: the smallest value with at least p% at or below. */
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank == 0)
		rank = 1;
	for (b = 0; b < HIST_BUCKETS; b++)
		for (s = 0; s < HIST_SUB; s++) {
			seen += h->bins[b][s];
			if (seen >= rank)
				return hist_bin_value(h, b, s);
		}
	return h->max;		/* only when bins saturated */
}

void
metrics_init(struct metrics *m)
{
	memset(m, 0, sizeof(*m));
	m->start_ns = clock_ns();
	m->start_real_ns = clock_real_ns();
}

void
metrics_free(struct metrics *m)
{
	size_t	i;

	for (i = 0; i < m->n_phases; i++) {
		free(m->phases[i]->timeline);
		free(m->phases[i]);
		m->phases[i] = NULL;
	}
	m->n_phases = 0;
	for (i = 0; i < m->n_counters; i++)
		if (m->counters[i].owned)
			free((char *)m->counters[i].name);
	m->n_counters = 0;
}

void
metrics_scope(struct metrics *scope, struct metrics *parent,
    const char *prefix)
{
	metrics_init(scope);
	scope->parent = parent;
	if (snprintf(scope->prefix, sizeof(scope->prefix), "%s.", prefix) >=
	    (int)sizeof(scope->prefix))
		fatalx("metrics scope '%s': name too long", prefix);
}

/* Where a scope's phases and counters are: its parent. */
static struct metrics *
metrics_root(const struct metrics *m)
{
	return (struct metrics *)(m->parent != NULL ? m->parent : m);
}

/* name with the scope's prefix, in buf when there is one. */
static const char *
metrics_name(const struct metrics *m, const char *name, char *buf,
    size_t len)
{
	if (m->parent == NULL)
		return name;
	snprintf(buf, len, "%s%s", m->prefix, name);
	return buf;
}

/* Names longer than the field are stored truncated; compare the same way. */
static int
phase_name_eq(const struct phase *p, const char *name)
{
	return strncmp(p->name, name, PHASE_NAME_MAX - 1) == 0 &&
	    (strlen(name) >= PHASE_NAME_MAX - 1 ||
	    p->name[strlen(name)] == '\0');
}

struct phase *
metrics_find_phase(const struct metrics *m, const char *name)
{
	char	buf[METRICS_PREFIX_MAX + PHASE_NAME_MAX];
	size_t	i;

	name = metrics_name(m, name, buf, sizeof(buf));
	m = metrics_root(m);
	for (i = 0; i < m->n_phases; i++)
		if (phase_name_eq(m->phases[i], name))
			return m->phases[i];
	return NULL;
}

struct phase *
metrics_phase(struct metrics *m, const char *name, const char *protocol)
{
	struct phase	*p;
	char		 buf[METRICS_PREFIX_MAX + PHASE_NAME_MAX];

	if ((p = metrics_find_phase(m, name)) != NULL)
		return p;
	name = metrics_name(m, name, buf, sizeof(buf));
	m = metrics_root(m);
	/* The scenario loader bounds the phase count; more is a bug. */
	if (m->n_phases >= METRICS_MAX_PHASES)
		fatalx("more than %d phases (adding '%s')",
		    METRICS_MAX_PHASES, name);
	if (strlen(name) >= PHASE_NAME_MAX)
		log_warnx("phase name '%s' truncated to %d characters", name,
		    PHASE_NAME_MAX - 1);
	p = xcalloc(1, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->protocol, sizeof(p->protocol), "%s",
	    protocol != NULL ? protocol : "");
	p->state = PHASE_PENDING;
	/* The northbound driver's own phases end on its HTTP answers. */
	p->witness = protocol != NULL && strcmp(protocol, "northbound") == 0 ?
	    WITNESS_NORTHBOUND : WITNESS_DEVICE;
	hist_init(&p->latency);
	m->phases[m->n_phases++] = p;
	return p;
}

/* copy: name's storage goes away (a report read back), keep a copy. */
static uint64_t *
metrics_counter_named(struct metrics *m, const char *name, int copy)
{
	static uint64_t	overflow_sink;
	static int	warned;
	char		buf[METRICS_PREFIX_MAX + 64];
	const char	*full = metrics_name(m, name, buf, sizeof(buf));
	size_t		i;

	m = metrics_root(m);
	for (i = 0; i < m->n_counters; i++)
		if (m->counters[i].name == full ||
		    strcmp(m->counters[i].name, full) == 0)
			return &m->counters[i].value;
	if (m->n_counters >= METRICS_MAX_COUNTERS) {
		/* Keep the run going; the count is lost, say so once. */
		if (!warned++)
			log_warnx("more than %d counters, '%s' not reported",
			    METRICS_MAX_COUNTERS, name);
		return &overflow_sink;
	}
	m->counters[m->n_counters].owned = copy || full != name;
	m->counters[m->n_counters].name = copy || full != name ?
	    xstrdup(full) : name;
	m->counters[m->n_counters].value = 0;
	return &m->counters[m->n_counters++].value;
}

uint64_t *
metrics_counter(struct metrics *m, const char *name)
{
	return metrics_counter_named(m, name, 0);
}

uint64_t *
metrics_counter_copy(struct metrics *m, const char *name)
{
	return metrics_counter_named(m, name, 1);
}

void
metrics_counters(struct metrics *m, const struct counter_row *rows, size_t n,
    void *base, unsigned skip, uint64_t *sink)
{
	uint64_t	*p;
	size_t		 i;

	for (i = 0; i < n; i++) {
		p = (rows[i].flags & skip) ? sink : metrics_counter(m,
		    rows[i].name);
		memcpy((char *)base + rows[i].off, &p, sizeof(p));
	}
}

uint64_t
metrics_counter_value(const struct metrics *m, const char *name)
{
	char	buf[METRICS_PREFIX_MAX + 64];
	size_t	i;

	name = metrics_name(m, name, buf, sizeof(buf));
	m = metrics_root(m);
	for (i = 0; i < m->n_counters; i++)
		if (strcmp(m->counters[i].name, name) == 0)
			return m->counters[i].value;
	return 0;
}

void
phase_expect(struct phase *p, uint64_t target)
{
	p->target = target;
	p->expected = 1;
}

/* Starting is idempotent: a second trigger must not restart the clock. */
void
phase_start(struct phase *p, uint64_t now_ns)
{
	if (p->state != PHASE_PENDING)
		return;
	p->state = PHASE_RUNNING;
	p->trigger_ns = now_ns;
}

/* Make timeline[sec] addressable, growing geometrically. */
static void
timeline_reserve(struct phase *p, size_t sec)
{
	size_t	cap;

	if (sec < p->timeline_cap)
		return;
	cap = p->timeline_cap ? p->timeline_cap : 16;
	while (cap <= sec)
		cap *= 2;
	p->timeline = xreallocarray(p->timeline, cap, sizeof(*p->timeline));
	memset(p->timeline + p->timeline_cap, 0,
	    (cap - p->timeline_cap) * sizeof(*p->timeline));
	p->timeline_cap = cap;
}

void
phase_timeline_add(struct phase *p, size_t sec, uint64_t n)
{
	uint64_t	v;

	timeline_reserve(p, sec);
	if (sec >= p->timeline_len)
		p->timeline_len = sec + 1;
	v = (uint64_t)p->timeline[sec] + n;
	p->timeline[sec] = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static void
timeline_add(struct phase *p, uint64_t now_ns, uint64_t n)
{
	phase_timeline_add(p, now_ns > p->trigger_ns ?
	    (size_t)((now_ns - p->trigger_ns) / NS_PER_S) : 0, n);
}

/*
 * Items before an explicit trigger start the phase implicitly (a connect
 * phase may have no trigger but its first device).  Items after the phase
 * ended are not counted: the phase's numbers are frozen at its end so the
 * rate is "time to target", not diluted by late stragglers.
 */
void
phase_items(struct phase *p, uint64_t now_ns, uint64_t n)
{
	if (p->state == PHASE_PENDING)
		phase_start(p, now_ns);
	if (p->state != PHASE_RUNNING || n == 0)
		return;
	if (p->first_ns == 0)
		p->first_ns = now_ns;
	if (now_ns > p->last_ns)
		p->last_ns = now_ns;
	p->items += n;
	timeline_add(p, now_ns, n);
	if (p->target > 0 && p->items >= p->target && !p->await_ack) {
		p->state = PHASE_DONE;
		p->end_ns = now_ns;
	}
}

void
phase_latency(struct phase *p, uint64_t us)
{
	hist_add(&p->latency, us);
}

void
phase_open(struct phase *p, uint64_t now_ns)
{
	if (p->state == PHASE_PENDING)
		phase_start(p, now_ns);
	else if (p->state == PHASE_RUNNING && p->items == 0)
		p->trigger_ns = now_ns;
}

void
phase_opened_at(struct phase *p, uint64_t now_ns)
{
	if (p->state != PHASE_PENDING)
		p->trigger_ns = now_ns;
}

/* Sent counts only once acknowledged: the phase lasts until then. */
void
phase_acked(struct phase *p, uint64_t now_ns)
{
	if (p->state != PHASE_RUNNING)
		return;
	p->last_ns = now_ns;
	phase_end(p, now_ns, PHASE_DONE);
}

/* The first end wins: a timeout after DONE does not undo the success. */
void
phase_end(struct phase *p, uint64_t now_ns, enum phase_state st)
{
	if (p->state == PHASE_DONE || p->state == PHASE_TIMEOUT)
		return;
	if (p->state == PHASE_PENDING)
		p->trigger_ns = now_ns;	/* never ran: zero length */
	p->state = st;
	p->end_ns = now_ns;
}

double
phase_seconds(const struct phase *p)
{
	uint64_t	until;

	until = p->last_ns != 0 ? p->last_ns : p->end_ns;
	if (until <= p->trigger_ns)
		return 0;
	return (double)(until - p->trigger_ns) / (double)NS_PER_S;
}

double
phase_rate(const struct phase *p)
{
	double	s = phase_seconds(p);

	return s > 0 ? (double)p->items / s : 0;
}

int
phase_over(const struct phase *ph)
{
	return ph == NULL || ph->state == PHASE_DONE ||
	    ph->state == PHASE_TIMEOUT;
}

const char *
phase_state_name(enum phase_state st)
{
	switch (st) {
	case PHASE_PENDING:
		return "PENDING";
	case PHASE_RUNNING:
		return "RUNNING";
	case PHASE_DONE:
		return "DONE";
	case PHASE_TIMEOUT:
		return "TIMEOUT";
	}
	return "UNKNOWN";
}

const char *
phase_witness_name(enum phase_witness w)
{
	switch (w) {
	case WITNESS_DEVICE:
		return "device";
	case WITNESS_NORTHBOUND:
		return "northbound";
	case WITNESS_MONITOR:
		return "monitor";
	case WITNESS_TCP_ACK:
		return "tcp_ack";
	}
	return "unknown";
}

double
phase_cost_cpu_s(const struct phase *ph, enum cost_who who)
{
	const struct phase_cost	*pc = &ph->cost[who];

	if (!pc->opened || !pc->closed || pc->cpu_end_ms < pc->cpu_start_ms)
		return 0;
	return (double)(pc->cpu_end_ms - pc->cpu_start_ms) / 1000;
}

double
phase_cost_busy(const struct phase *ph, enum cost_who who)
{
	const struct phase_cost	*pc = &ph->cost[who];
	double			 wall = secs_between(pc->start_ns, pc->end_ns);

	return wall > 0 ? phase_cost_cpu_s(ph, who) / wall : 0;
}
