/*
 * What CHECK_OVERLAP costs a switch (of_flowtable.c): N flows added to
 * one table, each FLOW_MOD with CHECK_OVERLAP set, none overlapping.
 *   prio:   each flow at its own priority, exact ip_dst (the walk that
 *           skipped other priorities still visited them)
 *   same:   all at one priority, exact ip_dst: only identical matches
 *           can overlap, a hash lookup answers
 *   masked: all at one priority, ip_dst with a /32 mask: the one case
 *           that still compares against every flow of that priority
 *   plain:  as same without CHECK_OVERLAP (what every add pays for the
 *           index)
 * Usage: overlap_bench MODE [N]; prints the seconds the adds took.
 * Run by hand (make bench-overlap), never by make check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "of_flowtable.h"
#include "of_match.h"

#define OXM_ETH_TYPE	5
#define OXM_IPV4_DST	12

static void
bench_match(struct of_match *m, uint32_t i, int masked)
{
	uint8_t	et[2] = { 0x08, 0x00 };
	uint8_t	ip[4] = { 10, (uint8_t)(i >> 16), (uint8_t)(i >> 8),
		    (uint8_t)i };
	uint8_t	all[4] = { 0xff, 0xff, 0xff, 0xfe };

	of_match_init(m);
	of_match_set(m, OXM_ETH_TYPE, et, NULL, 2);
	if (masked)
		ip[3] &= 0xfe;
	of_match_set(m, OXM_IPV4_DST, ip, masked ? all : NULL, 4);
}

/* The N adds, timed; -1 when one of them failed. */
static double
bench_adds(struct of_flowtable *ft, const char *mode, uint32_t n)
{
	static const uint8_t	 prog[] = { 0 };
	struct of_flow_mod	 fm;
	struct of_ft_result	 res;
	struct timespec		 a, b;
	enum of_err		 err;
	uint32_t		 i;
	int			 masked = strcmp(mode, "masked") == 0;

	memset(&fm, 0, sizeof(fm));
	fm.command = OF_FC_ADD;
	fm.flags = strcmp(mode, "plain") ? OF_FF_CHECK_OVERLAP : 0;
	fm.buffer_id = 0xffffffff;
	fm.prog = prog;
	fm.prog_len = 0;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++) {
		fm.priority = strcmp(mode, "prio") == 0 ? 1 + i % 65000 : 100;
		bench_match(&fm.match, masked ? 2 * i : i, masked);
		if (of_flowtable_apply(ft, &fm, 0, NULL, NULL, &res,
		    &err) == -1 || res.added != 1)
			return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a.tv_sec) +
	    (double)(b.tv_nsec - a.tv_nsec) / 1e9;
}

int
main(int argc, char **argv)
{
	struct of_flowtable	*ft;
	const char		*mode = argc > 1 ? argv[1] : "prio";
	uint32_t		 n = argc > 2 ? (uint32_t)atol(argv[2]) : 20000;
	double			 s;

	if (strcmp(mode, "prio") && strcmp(mode, "same") &&
	    strcmp(mode, "masked") && strcmp(mode, "plain")) {
		fprintf(stderr,
		    "usage: overlap_bench prio|same|masked|plain [N]\n");
		return 2;
	}
	ft = of_flowtable_new(OF_VERSION_13, 1, n + 1);
	if ((s = bench_adds(ft, mode, n)) < 0) {
		fprintf(stderr, "overlap_bench: an add failed\n");
		return 1;
	}
	printf("%s: %u adds in %.3f s (%.0f per second)\n",
	    mode, n, s, s > 0 ? n / s : 0);
	of_flowtable_free(ft);
	return 0;
}
