/*
 * What CHECK_OVERLAP costs a switch (of_flowtable.c): N flows added to
 * one table, each FLOW_MOD with CHECK_OVERLAP set, none overlapping.
 *   prio:   each flow at its own priority, exact ip_dst (the walk that
 *           skipped other priorities still visited them)
 *   same:   all at one priority, exact ip_dst: only identical matches
 *           can overlap, a hash lookup answers
 *   masked: all at one priority, ip_dst under a /31 mask: one mask,
 *           every value distinct
 *   mixed:  all at one priority, four masks in turn (ip_dst exact in
 *           10/8, ip_dst /24 in 11/8, ip_proto and ip_dst /30 in 12/8,
 *           IPv6 ipv6_dst /64): no two flows overlap, yet the masks do
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
#define OXM_IP_PROTO	10
#define OXM_IPV4_DST	12
#define OXM_IPV6_DST	27

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

/* Shape i % 4 of the mixed case; none overlaps another flow. */
static void
bench_mixed(struct of_match *m, uint32_t i)
{
	uint8_t	et4[2] = { 0x08, 0x00 }, et6[2] = { 0x86, 0xdd };
	uint8_t	ip[4] = { 10 + i % 4, (uint8_t)(i >> 16), (uint8_t)(i >> 8),
		    (uint8_t)i };
	uint8_t	m24[4] = { 0xff, 0xff, 0xff, 0 };
	uint8_t	m30[4] = { 0xff, 0xff, 0xff, 0xfc };
	uint8_t	ip6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, (uint8_t)(i >> 16),
		    (uint8_t)(i >> 8), (uint8_t)i, 0xaa };
	uint8_t	m64[16] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint8_t	tcp = 6;

	of_match_init(m);
	switch (i % 4) {
	case 0:
		of_match_set(m, OXM_ETH_TYPE, et4, NULL, 2);
		of_match_set(m, OXM_IPV4_DST, ip, NULL, 4);
		break;
	case 1:
		/* i / 4 in the /24's two middle bytes: distinct. */
		ip[1] = (uint8_t)(i >> 10);
		ip[2] = (uint8_t)(i >> 2);
		of_match_set(m, OXM_ETH_TYPE, et4, NULL, 2);
		of_match_set(m, OXM_IPV4_DST, ip, m24, 4);
		break;
	case 2:
		of_match_set(m, OXM_ETH_TYPE, et4, NULL, 2);
		of_match_set(m, OXM_IP_PROTO, &tcp, NULL, 1);
		of_match_set(m, OXM_IPV4_DST, ip, m30, 4);
		break;
	default:
		of_match_set(m, OXM_ETH_TYPE, et6, NULL, 2);
		of_match_set(m, OXM_IPV6_DST, ip6, m64, 16);
		break;
	}
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
		if (strcmp(mode, "mixed") == 0)
			bench_mixed(&fm.match, i);
		else
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
	    strcmp(mode, "masked") && strcmp(mode, "mixed") &&
	    strcmp(mode, "plain")) {
		fprintf(stderr,
		    "usage: overlap_bench prio|same|masked|mixed|plain [N]\n");
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
