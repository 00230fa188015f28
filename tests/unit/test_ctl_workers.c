/*
 * The pure parts of `sbsim controller --workers` (ctl_workers.h): the
 * workers' summary lines added up, and the RESTCONF gather's JSON merge.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ctl_role.h"
#include "ctl_workers.h"
#include "check.h"

static void
sum_is(char **lines, size_t n, const char *want)
{
	char	*got = ctl_wk_sum_lines(lines, n);

	CHECK(strcmp(got, want) == 0, "sum: got [%s] want [%s]", got, want);
	free(got);
}

static void
test_sum_alike(void)
{
	char	*l[] = {
	    "controller: 100 switches, 500 FLOW_MODs sent in 0.250 s, "
	    "p99 40 us\nrestconf: 1 requests\n",
	    "controller: 101 switches, 505 FLOW_MODs sent in 0.300 s, "
	    "p99 70 us\nrestconf: 2 requests\n",
	};

	/* Counts summed; a time ("s", "us") the largest. */
	sum_is(l, 2, "controller: 201 switches, 1005 FLOW_MODs sent in "
	    "0.300 s, p99 70 us\nrestconf: 3 requests\n");
}

static void
test_sum_words(void)
{
	char	*l[] = { "x: 3 switches 2 sessions, of openflow:1 ipv4\n",
	    "x: 4 switches 1 sessions, of openflow:1 ipv4\n" };

	/* " switches" is no unit of time; digits inside words stay. */
	sum_is(l, 2, "x: 7 switches 3 sessions, of openflow:1 ipv4\n");
}

static void
test_sum_zero_time(void)
{
	char	*l[] = { "c: 0 deleted in 0.000 s, 1 more\n",
	    "c: 0 deleted in 0.000 s, 2 more\n" };

	/* As a one-process line: no " in 0.000 s". */
	sum_is(l, 2, "c: 0 deleted, 3 more\n");
}

static void
test_sum_unlike(void)
{
	char	*l[] = { "a: 1 x\n", "a: 1 y\n" };
	char	*m[] = { "a: 1 x\n", "" , "a: 2 x\n" };

	sum_is(l, 2, "worker 0: a: 1 x\nworker 1: a: 1 y\n");
	/* A worker that died wrote nothing: the others' sum, said so. */
	sum_is(m, 3, "a: 3 x\n(the sum of 2 of 3 workers)\n");
}

static void
merge_is(const char *a, const char *b, const char *want)
{
	json_t	*ja = json_loads(a, 0, NULL), *jb = json_loads(b, 0, NULL);
	json_t	*jw = json_loads(want, 0, NULL);
	char	*got;

	CHECK(ja != NULL && jb != NULL && jw != NULL, "merge: test JSON");
	if (ja == NULL || jb == NULL || jw == NULL)
		return;
	CHECK(ctl_json_merge(ja, jb) == 0, "merge: 0");
	got = json_dumps(ja, JSON_COMPACT | JSON_SORT_KEYS);
	CHECK(json_equal(ja, jw), "merge: got %s", got);
	free(got);
	json_decref(ja);
	json_decref(jb);
	json_decref(jw);
}

static void
test_json_merge(void)
{
	/* Nodes of two workers: one list. */
	merge_is("{\"n:nodes\":{\"node\":[{\"id\":\"a\"}]}}",
	    "{\"n:nodes\":{\"node\":[{\"id\":\"b\"}]}}",
	    "{\"n:nodes\":{\"node\":[{\"id\":\"a\"},{\"id\":\"b\"}]}}");
	/* A node both know (config replicated, operational in one):
	 * merged by its key, its tables by theirs. */
	merge_is("{\"node\":[{\"id\":\"a\",\"table\":[{\"id\":0,"
	    "\"flow\":[{\"id\":\"f\"}]}]}]}",
	    "{\"node\":[{\"id\":\"a\",\"port\":[1],\"table\":[{\"id\":0,"
	    "\"stats\":{\"active\":1}}]}]}",
	    "{\"node\":[{\"id\":\"a\",\"port\":[1],\"table\":[{\"id\":0,"
	    "\"flow\":[{\"id\":\"f\"}],\"stats\":{\"active\":1}}]}]}");
	/* Unkeyed entries are concatenated; a leaf both have is the
	 * first's. */
	merge_is("{\"l\":[1,2],\"v\":1}", "{\"l\":[3],\"v\":2,\"w\":3}",
	    "{\"l\":[1,2,3],\"v\":1,\"w\":3}");
	{
		json_t	*arr = json_array(), *obj = json_object();

		CHECK(ctl_json_merge(arr, obj) == -1, "merge: no object");
		json_decref(arr);
		json_decref(obj);
	}
}

static const struct check_case cases[] = {
	CASE(test_sum_alike),
	CASE(test_sum_words),
	CASE(test_sum_zero_time),
	CASE(test_sum_unlike),
	CASE(test_json_merge),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
