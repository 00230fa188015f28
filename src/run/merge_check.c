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
#include <stdarg.h>
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

/* max of merge_check_number(): a whole number from 0 to 2^53. */
#define MERGE_WHOLE	(-1.0)

/*
 * v is a number from 0 to max (null too when nullable), or a whole one
 * (max MERGE_WHOLE): 0, or -1 with "WHERE: FIELD: VALUE is not ..." in
 * err.  The field is named printf-style, formatted only when v fails.
 */
static int	merge_check_number(const json_t *, double, int, const char *,
		    char *, size_t, const char *, ...)
		    __attribute__((format(printf, 7, 8)));

static int
merge_check_number(const json_t *v, double max, int nullable,
    const char *where, char *err, size_t errlen, const char *fmt, ...)
{
	char	want[64], what[64], field[300];
	double	d = json_number_value(v);
	va_list	ap;

	/* A count may be a real when whole: sbsim writes some counts with
	 * "%.15g", 1e+15 from there on. */
	if ((nullable && json_is_null(v)) ||
	    (json_is_number(v) && isfinite(d) && d >= 0 &&
	    (max == MERGE_WHOLE ? d <= MERGE_MAX_COUNT && d == floor(d) :
	    d <= max)))
		return 0;
	if (max == MERGE_WHOLE)
		snprintf(want, sizeof(want), "a whole number from 0 to 2^53");
	else
		snprintf(want, sizeof(want), "a number from 0 to %g%s", max,
		    nullable ? " or null" : "");
	va_start(ap, fmt);
	vsnprintf(field, sizeof(field), fmt, ap);
	va_end(ap);
	merge_check_what(v, what, sizeof(what));
	snprintf(err, errlen, "%s: %s: %s is not %s", where, field, what,
	    want);
	return -1;
}

/* Numbers merge reads from one object of a report. */
struct merge_fields {
	const char	*prefix;	/* the object's path from the one
					 * checked, "" or "a." or "a.b." */
	double		 max;		/* or MERGE_WHOLE */
	int		 nullable;
	int		 required;	/* else absent is 0 to merge */
	const char	*names[5];	/* NULL-terminated */
};

static const struct merge_fields merge_top_fields = {
	"", MERGE_MAX_SECONDS, 1, 0, { "end_s" }
};

/* A phase's numbers: items and target (which must be there), its times,
 * its histogram's totals, and its cost: sbsim's CPU and busy, the
 * controller's CPU and peaks. */
static const struct merge_fields merge_phase_fields[] = {
	{ "", MERGE_WHOLE, 0, 1, { "items", "target" } },
	{ "", MERGE_MAX_SECONDS, 1, 0,
	    { "trigger_s", "first_s", "last_s", "end_s" } },
	{ "latency_hist.", MERGE_WHOLE, 0, 0,
	    { "count", "min", "max", "sum" } },
	{ "cost.sbsim.", MERGE_MAX_SECONDS, 0, 0, { "cpu_s", "busy" } },
	{ "cost.controller.", MERGE_MAX_SECONDS, 0, 0, { "cpu_s" } },
	{ "cost.controller.", MERGE_WHOLE, 0, 0,
	    { "rss_max_kb", "threads_max" } },
};
#define N_PHASE_FIELDS	\
	(sizeof(merge_phase_fields) / sizeof(merge_phase_fields[0]))

/* The object that prefix ("a.b.") names under o; NULL when missing. */
static const json_t *
merge_check_under(const json_t *o, const char *prefix)
{
	const char	*dot;
	char		 key[32];

	while (o != NULL && (dot = strchr(prefix, '.')) != NULL) {
		snprintf(key, sizeof(key), "%.*s", (int)(dot - prefix),
		    prefix);
		o = json_object_get(o, key);
		prefix = dot + 1;
	}
	return o;
}

/* The fields f names under o, each checked by merge_check_number(). */
static int
merge_check_fields(const json_t *o, const struct merge_fields *f,
    const char *where, char *err, size_t errlen)
{
	const json_t		*in = merge_check_under(o, f->prefix), *v;
	const char *const	*n;

	for (n = f->names; *n != NULL; n++)
		if (((v = json_object_get(in, *n)) != NULL || f->required) &&
		    merge_check_number(v, f->max, f->nullable, where, err,
		    errlen, "%s%s", f->prefix, *n) == -1)
			return -1;
	return 0;
}

/* A phase's timeline: the items of each second. */
static int
merge_check_timeline(const json_t *ph, const char *where, char *err,
    size_t errlen)
{
	const json_t	*tl = json_object_get(ph, "timeline"), *v;
	size_t		 k;

	if (tl == NULL)
		return 0;
	if (!json_is_array(tl)) {
		snprintf(err, errlen, "%s: timeline is not an array", where);
		return -1;
	}
	json_array_foreach(tl, k, v)
		if (merge_check_number(v, MERGE_WHOLE, 0, where, err, errlen,
		    "timeline[%zu]", k) == -1)
			return -1;
	return 0;
}

/* One phase's numbers: merge_phase_fields and its timeline. */
static int
merge_check_phase(const json_t *ph, const char *where, char *err,
    size_t errlen)
{
	size_t	i;

	for (i = 0; i < N_PHASE_FIELDS; i++)
		if (merge_check_fields(ph, &merge_phase_fields[i], where, err,
		    errlen) == -1)
			return -1;
	return merge_check_timeline(ph, where, err, errlen);
}

int
merge_check_numbers(const json_t *r, const char *path, char *err,
    size_t errlen)
{
	const json_t	*ph, *v;
	const char	*key;
	char		 where[512];
	size_t		 i;

	if (merge_check_fields(r, &merge_top_fields, path, err, errlen) == -1)
		return -1;
	json_array_foreach(json_object_get(r, "phases"), i, ph) {
		snprintf(where, sizeof(where), "%s: phase '%s'", path,
		    json_string_value(json_object_get(ph, "name")));
		if (merge_check_phase(ph, where, err, errlen) == -1)
			return -1;
	}
	json_object_foreach((json_t *)json_object_get(r, "counters"), key, v)
		if (merge_check_number(v, MERGE_WHOLE, 0, path, err, errlen,
		    "counters.%.280s", key) == -1)
			return -1;
	return 0;
}
