/*
 * --metrics-listen [IP:]PORT: the run's live figures in the Prometheus
 * text exposition format (version 0.0.4) at GET /metrics, for a
 * Prometheus server scraping a long soak run (docs/report.md, "Live
 * metrics").  One server for the whole process; each run of --repeat
 * shows its own figures.  With --workers the parent serves the workers'
 * figures merged (src/run/workers.c).
 */
#ifndef SBSIM_PROMEXP_H
#define SBSIM_PROMEXP_H

#include <stddef.h>
#include <stdint.h>

#include "pool.h"

struct cost_snap;
struct event_base;
struct evbuffer;
struct metrics;
struct promexp;

typedef void (*promexp_source_fn)(struct evbuffer *out, void *arg);

/* Listen on [IP:]PORT (arg as given, for errors); NULL with err. */
struct promexp *promexp_new(struct event_base *, const char *arg,
	    char *err, size_t errlen);
/* The run whose figures are served (NULL between runs). */
void	 promexp_set_run(struct promexp *, struct metrics *);
void	 promexp_free(struct promexp *);

/* What a scrape gets written by fn instead (the parent of --workers:
 * the workers' figures merged). */
void	 promexp_set_source(struct promexp *, promexp_source_fn, void *);

/* The exposition of m into out (also what the unit test reads): this
 * process's devices and cost, then m's phases and counters. */
void	 promexp_write(struct evbuffer *out, const struct metrics *m);
/* Its parts: devices by state, a process's cost, a run's figures (none
 * when m is NULL). */
void	 promexp_write_devices(struct evbuffer *out,
	    const uint64_t n[PD_STOPPED + 1]);
void	 promexp_write_self(struct evbuffer *out, const struct cost_snap *);
void	 promexp_write_run(struct evbuffer *out, const struct metrics *m);

#endif
