/*
 * What the run costs the processes involved (docs/report.md, "Cost"):
 * sbsim itself, sampled from /proc every tick, and the controller, from
 * /proc/PID (--controller-pid, a local controller) or from its Prometheus
 * text endpoint (--controller-metrics URL, a remote one).  Each sample is
 * folded into every phase that ran since the last one (phase.cost[]), and
 * into the run's counters, which --expect can bound.
 */
#ifndef SBSIM_COST_H
#define SBSIM_COST_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include "metrics.h"

struct event_base;

/* One reading of a process. */
struct cost_snap {
	uint64_t	cpu_ms;		/* user + system since it started */
	uint64_t	rss_kb;		/* resident now, 0: unknown */
	uint32_t	threads;	/* 0: unknown */
};

/* /proc/PID/stat of a process on this host; -1 when it is gone. */
int	 cost_read_proc(pid_t pid, struct cost_snap *);
/* The same of this process, its descriptor kept open between calls. */
int	 cost_read_self(struct cost_snap *);

/*
 * A Prometheus text exposition (version 0.0.4): process_cpu_seconds_total,
 * process_resident_memory_bytes and a thread gauge (process_threads,
 * jvm_threads_current, jvm_threads_live_threads or go_threads) into s.
 * -1 when the CPU counter is missing; lines it does not know are skipped.
 */
int	 cost_parse_prom(const char *text, size_t len, struct cost_snap *);

/* The samples of one process in one run. */
struct cost_track {
	enum cost_who	 who;
	int		 have;		/* a sample came */
	uint64_t	 last_ns;
	struct cost_snap last;
	uint64_t	 first_cpu_ms;	/* at the run's first sample */
	uint64_t	 rss_max_kb;
	uint32_t	 threads_max;
};

void	 cost_track_init(struct cost_track *, enum cost_who);
/* A sample s taken at now: into every phase of m that ran since the
 * track's last sample, and into the track. */
void	 cost_sample(struct cost_track *, struct metrics *, uint64_t now,
	    const struct cost_snap *);
/* At the run's end: a phase still open closes at the track's last
 * sample (a scrape that came before it ended: the window is short). */
void	 cost_finish(struct cost_track *, struct metrics *);
/* The run's counters from the track (the controller's:
 * controller_cpu_ms, controller_max_rss_kb, controller_threads_max). */
void	 cost_counters(const struct cost_track *, struct metrics *);

/*
 * The controller's Prometheus endpoint, scraped once a second while the
 * run goes (and on cost_scraper_now()); each answer becomes a sample.
 * Errors are counted (controller_scrape_errors) and logged once.
 */
struct cost_scraper;
struct cost_scraper *cost_scraper_new(struct event_base *, const char *url,
	    struct cost_track *, struct metrics *, char *err, size_t errlen);
void	 cost_scraper_free(struct cost_scraper *);
/* Scrape now, unless a scrape is under way (a phase just ended). */
void	 cost_scraper_kick(struct cost_scraper *);
/* Whether url is one cost_scraper_new() takes: 0, or -1 with err. */
int	 cost_url_check(const char *url, char *err, size_t errlen);

#endif
