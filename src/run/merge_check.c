/*
 * The numbers of a report that sbsim merge reads, checked before any is
 * added: each of the type, range and wholeness sbsim writes, or the
 * merge is refused naming the file and the field.  Without it a real
 * "items": 1e308 was merged as 9.2e18 (a cast past uint64_t), a string
 * or a negative target as 0, without a word.
 *
 * Counts are whole numbers (integral reals too) from 0 to 2^53 (RFC 8259 section 6: the
 * integers every JSON reader holds exactly), so that 1024 parts cannot
 * overflow their sum; times are seconds from the run's start, null when
 * not reached, at most MERGE_MAX_SECONDS.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "merge_check.h"

#define MERGE_MAX_COUNT		9007199254740992.0	/* 2^53 */
#define MERGE_MAX_SECONDS	1e9	/* ns since the start fit a uint64 */

/* What v is, for the message: its JSON text, or its type. */
static void
merge_check_what(const json_t *v, char *buf, size_t len)
{
	char	*s;

	if (v == NULL) {
		snprintf(buf, len, "missing");
		return;
	}
	s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT |
	    JSON_REAL_PRECISION(15));
	snprintf(buf, len, "%.40s%s", s != NULL ? s : "?",
	    s != NULL && strlen(s) > 40 ? "..." : "");
	free(s);
}

/* A whole number from 0 to 2^53; 0, or -1 with a message. */
static int
merge_check_count(const json_t *v, const char *where, const char *field,
    char *err, size_t errlen)
{
	char	what[64];
	double	d = json_number_value(v);

	/* A real too when whole: sbsim writes some counts with "%.15g",
	 * 1e+15 from there on. */
	if (json_is_number(v) && isfinite(d) && d >= 0 &&
	    d <= MERGE_MAX_COUNT && d == floor(d))
		return 0;
	merge_check_what(v, what, sizeof(what));
	snprintf(err, errlen, "%s: %s: %s is not a whole number from 0 to "
	    "2^53", where, field, what);
	return -1;
}

/* A number from 0 to max (null too when nullable); 0, or -1. */
static int
merge_check_real(const json_t *v, double max, int nullable,
    const char *where, const char *field, char *err, size_t errlen)
{
	char	what[64];
	double	d = json_number_value(v);

	if ((nullable && json_is_null(v)) ||
	    (json_is_number(v) && isfinite(d) && d >= 0 && d <= max))
		return 0;
	merge_check_what(v, what, sizeof(what));
	snprintf(err, errlen, "%s: %s: %s is not a number from 0 to %g%s",
	    where, field, what, max, nullable ? " or null" : "");
	return -1;
}

/* max of merge_check_fields(): whole numbers from 0 to 2^53. */
#define MERGE_WHOLE	(-1.0)

/* The optional fields among names[] of o (absent is 0 to merge): whole
 * numbers (max MERGE_WHOLE) or numbers from 0 to max (null too when
 * nullable). */
static int
merge_check_fields(const json_t *o, const char *const *names, double max,
    int nullable, const char *where, const char *prefix, char *err,
    size_t errlen)
{
	const json_t	*v;
	char		 field[128];
	int		 rc;

	for (; *names != NULL; names++) {
		if ((v = json_object_get(o, *names)) == NULL)
			continue;
		snprintf(field, sizeof(field), "%s%s", prefix, *names);
		rc = max == MERGE_WHOLE ? merge_check_count(v, where, field,
		    err, errlen) : merge_check_real(v, max, nullable, where,
		    field, err, errlen);
		if (rc == -1)
			return -1;
	}
	return 0;
}

/* A phase's cost: sbsim's CPU and busy, the controller's CPU and peaks. */
static int
merge_check_cost(const json_t *ph, const char *where, char *err,
    size_t errlen)
{
	static const char *const sb_reals[] = { "cpu_s", "busy", NULL };
	static const char *const ctl_reals[] = { "cpu_s", NULL };
	static const char *const ctl_counts[] = { "rss_max_kb",
	    "threads_max", NULL };
	const json_t	*cost = json_object_get(ph, "cost");

	if (merge_check_fields(json_object_get(cost, "sbsim"), sb_reals,
	    MERGE_MAX_SECONDS, 0, where, "cost.sbsim.", err, errlen) == -1 ||
	    merge_check_fields(json_object_get(cost, "controller"), ctl_reals,
	    MERGE_MAX_SECONDS, 0, where, "cost.controller.", err,
	    errlen) == -1)
		return -1;
	return merge_check_fields(json_object_get(cost, "controller"),
	    ctl_counts, MERGE_WHOLE, 0, where, "cost.controller.", err,
	    errlen);
}

/* A phase's timeline: the items of each second. */
static int
merge_check_timeline(const json_t *ph, const char *where, char *err,
    size_t errlen)
{
	const json_t	*tl = json_object_get(ph, "timeline"), *v;
	char		 field[64];
	size_t		 k;

	if (tl == NULL)
		return 0;
	if (!json_is_array(tl)) {
		snprintf(err, errlen, "%s: timeline is not an array", where);
		return -1;
	}
	json_array_foreach(tl, k, v) {
		snprintf(field, sizeof(field), "timeline[%zu]", k);
		if (merge_check_count(v, where, field, err, errlen) == -1)
			return -1;
	}
	return 0;
}

/* One phase's numbers: items and target (which must be there), its
 * times, its histogram's totals, its timeline and its cost. */
static int
merge_check_phase(const json_t *ph, const char *where, char *err,
    size_t errlen)
{
	static const char *const counts[] = { "items", "target", NULL };
	static const char *const times[] = { "trigger_s", "first_s",
	    "last_s", "end_s", NULL };
	static const char *const hist[] = { "count", "min", "max", "sum",
	    NULL };
	size_t	i;

	for (i = 0; counts[i] != NULL; i++)
		if (merge_check_count(json_object_get(ph, counts[i]), where,
		    counts[i], err, errlen) == -1)
			return -1;
	if (merge_check_fields(ph, times, MERGE_MAX_SECONDS, 1, where, "",
	    err, errlen) == -1 ||
	    merge_check_fields(json_object_get(ph, "latency_hist"), hist,
	    MERGE_WHOLE, 0, where, "latency_hist.", err, errlen) == -1 ||
	    merge_check_timeline(ph, where, err, errlen) == -1)
		return -1;
	return merge_check_cost(ph, where, err, errlen);
}

int
merge_check_numbers(const json_t *r, const char *path, char *err,
    size_t errlen)
{
	static const char *const top_times[] = { "end_s", NULL };
	const json_t	*ph, *v;
	const char	*key;
	char		 where[512], field[300];
	size_t		 i;

	if (merge_check_fields(r, top_times, MERGE_MAX_SECONDS, 1, path, "",
	    err, errlen) == -1)
		return -1;
	json_array_foreach(json_object_get(r, "phases"), i, ph) {
		snprintf(where, sizeof(where), "%s: phase '%s'", path,
		    json_string_value(json_object_get(ph, "name")));
		if (merge_check_phase(ph, where, err, errlen) == -1)
			return -1;
	}
	json_object_foreach((json_t *)json_object_get(r, "counters"), key, v) {
		snprintf(field, sizeof(field), "counters.%.280s", key);
		if (merge_check_count(v, path, field, err, errlen) == -1)
			return -1;
	}
	return 0;
}
