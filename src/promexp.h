/*
 * --metrics-listen [IP:]PORT: the run's live figures in the Prometheus
 * text exposition format (version 0.0.4) at GET /metrics, for a
 * Prometheus server scraping a long soak run (docs/report.md, "Live
 * metrics").  One server for the whole process; each run of --repeat
 * shows its own figures.
 */
#ifndef SBSIM_PROMEXP_H
#define SBSIM_PROMEXP_H

#include <stddef.h>

struct event_base;
struct evbuffer;
struct metrics;
struct promexp;

/* Listen on [IP:]PORT (arg as given, for errors); NULL with err. */
struct promexp *promexp_new(struct event_base *, const char *arg,
	    char *err, size_t errlen);
/* The run whose figures are served (NULL between runs). */
void	 promexp_set_run(struct promexp *, struct metrics *);
void	 promexp_free(struct promexp *);

/* The exposition of m into out (also what the unit test reads). */
void	 promexp_write(struct evbuffer *out, const struct metrics *m);

#endif
