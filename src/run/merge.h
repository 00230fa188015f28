/*
 * Reports of parts of one run (sbsim merge, --shard, --workers) read back
 * and merged into the run's metrics, as the run itself would have
 * measured them (docs/report.md, "Merged reports").
 */
#ifndef SBSIM_MERGE_H
#define SBSIM_MERGE_H

#include <stddef.h>

#include "metrics.h"

#define MERGE_MAX_PARTS	1024

struct merge_part {
	const char	*name;		/* the file, for messages */
	void		*json;		/* json_t *: the report as read */
};

/*
 * Read one JSON report into part; -1 with a message in err when it is
 * not one (not JSON, not sbsim's, a report of repeats or steps, or one
 * written before reports carried their histograms).
 */
int	 merge_load(struct merge_part *, const char *path, char *err,
	    size_t errlen);
void	 merge_part_free(struct merge_part *);

/*
 * Merge n loaded parts into out (metrics_free() it after): items and
 * targets summed, latency histograms merged bin by bin, windows on Unix
 * time (earliest trigger and first item, latest last item and end),
 * state DONE only when every part's is, counters summed but for maxima.
 * Names in out point into the parts: free them after out.  -1 with a
 * message in err when the parts are not of one run (other phases or
 * protocols).  *parts_ok is 0 when some part was not ok, the first such
 * named in why.
 */
int	 merge_parts(const struct merge_part *, size_t n, struct metrics *out,
	    int *parts_ok, char *why, size_t whylen, char *err,
	    size_t errlen);

/* How a counter merges: 1 for a maximum (a peak, a flag, what each part
 * measured of one shared controller), 0 for a sum. */
int	 merge_counter_is_max(const char *name);

#endif
