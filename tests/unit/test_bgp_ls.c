/*
 * BGP-LS (bgp_fam_ls.c): node, link and prefix NLRI and their BGP-LS
 * attribute written out field by field from RFC 9552 sections 5.2 and
 * 5.3 and RFC 9085 section 2, the routes of each topology shape counted
 * and round-tripped, malformed NLRI (RFC 9552 section 8.2.2, RFC 7606
 * section 5.3), and UPDATEs: one route each with its attribute, many
 * withdrawals each.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgp_family.h"
#include "check_codec.h"

#define LS	(&bgp_families[BGP_FAM_LS])
/* Node descriptors: AS 65001, BGP-LS id 0, area 0, router-id 10.0.0.k. */
#define DESC(t, k)	t " 00 20 02 00 00 04 00 00 fd e9 02 01 00 04 00 00 " \
	"00 00 02 02 00 04 00 00 00 00 02 03 00 04 0a 00 00 0" k " "
#define MARKER	"ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff "
#define HEAD	"03 00 00 00 00 00 00 00 00 "	/* OSPFv2, instance 0 */

/* linear, 3 nodes, a prefix each: nodes 0-2, links 3-6, prefixes 7-9. */
static struct bgp_gen
gen3(void)
{
	struct bgp_gen	g = { .rd_as = 65001, .ls_shape = BGP_LS_LINEAR,
	    .ls_nodes = 3, .ls_fanout = 2, .ls_pfx = 1, .ls_sid_base = 24000 };

	return g;
}

static struct bgp_prefix
first24(void)
{
	struct bgp_prefix	p;

	bgp_prefix_parse("10.0.0.0/24", &p);
	return p;
}

/* Route n of gen3 encoded, checked against hex, decoded back. */
static void
vector(uint64_t n, const char *hex, const char *str, const char *what)
{
	struct bgp_gen		g = gen3();
	struct bgp_prefix	first = first24();
	struct bgp_route	r, back;
	struct vec		v;
	uint8_t			d[256];
	char			s[128];
	size_t			len;

	LS->nth(LS, &g, &first, n, &r);
	len = LS->encode(LS, d, sizeof(d), &r, 0);
	vec(&v, hex);
	CHECK_BYTES(d, len, v.b, v.len, "%s NLRI", what);
	memset(&back, 0, sizeof(back));
	CHECK(LS->decode(LS, d, len, &back) == len &&
	    memcmp(&back.ls, &r.ls, offsetof(struct bgp_ls_nlri, index)) == 0,
	    "%s decoded back", what);
	CHECK(strcmp(LS->print(&back, s, sizeof(s)), str) == 0,
	    "%s printed: %s", what, s);
	CHECK(LS->encode(LS, d, len - 1, &r, 0) == 0, "%s: no room", what);
}

static void
test_nlri_vectors(void)
{
	vector(0, "00 01 00 2d " HEAD DESC("01 00", "1"), "node 10.0.0.1",
	    "node");
	vector(4, "00 02 00 61 " HEAD DESC("01 00", "2") DESC("01 01", "1")
	    "01 03 00 04 ac 10 00 01 01 04 00 04 ac 10 00 00",
	    "link 10.0.0.2 172.16.0.1 > 10.0.0.1 172.16.0.0", "link 0 back");
	vector(9, "00 03 00 3a " HEAD DESC("01 00", "3")
	    "01 08 00 01 01 01 09 00 04 18 0a 00 02",
	    "prefix 10.0.0.3 10.0.2.0/24", "prefix 2");
}

/* The attribute of link 1's first direction and of prefix 1. */
static void
test_attr_vectors(void)
{
	struct bgp_gen		g = gen3();
	struct bgp_prefix	first = first24();
	struct bgp_route	r;
	struct vec		v;
	uint8_t			d[512];
	size_t			n;

	LS->nth(LS, &g, &first, 5, &r);
	n = LS->attr(&r, d, sizeof(d));
	vec(&v, "90 1d 00 5d 04 04 00 04 0a 00 00 02 04 06 00 04 0a 00 00 03 "
	    "04 41 00 04 4f 15 02 f9 04 42 00 04 4f 15 02 f9 04 43 00 20 "
	    "4f 15 02 f9 4f 15 02 f9 4f 15 02 f9 4f 15 02 f9 4f 15 02 f9 "
	    "4f 15 02 f9 4f 15 02 f9 4f 15 02 f9 "
	    "04 44 00 04 00 00 00 6e 04 47 00 02 00 0b "
	    "04 4b 00 07 60 00 00 00 00 5d c2");	/* adj-SID 24002 */
	CHECK_BYTES(d, n, v.b, v.len, "link attribute (metric 11, 20 Gb/s)");
	LS->nth(LS, &g, &first, 8, &r);
	n = LS->attr(&r, d, sizeof(d));
	vec(&v, "90 1d 00 14 04 83 00 04 00 00 00 01 "
	    "04 86 00 08 00 00 00 00 00 00 00 01");
	CHECK_BYTES(d, n, v.b, v.len, "prefix attribute (metric 1, SID 1)");
	LS->nth(LS, &g, &first, 1, &r);
	n = LS->attr(&r, d, sizeof(d));
	vec(&v, "90 1d 00 0e 04 02 00 02 72 31 04 04 00 04 0a 00 00 02");
	CHECK_BYTES(d, n, v.b, v.len, "node attribute (name r1)");
	CHECK(LS->attr(&r, d, 17) == 0, "attribute: no room");
}

/* Every route of a topology (and of its second copy) round trips, and
 * the counts are the shape's: nodes, links both ways, prefixes. */
static void
shape(uint8_t sh, uint32_t nodes, uint32_t fanout, uint32_t pfx,
    uint64_t want, const char *what)
{
	struct bgp_gen		g = gen3();
	struct bgp_prefix	first = first24();
	struct bgp_route	r, back;
	uint64_t		i, t, types[4] = { 0 }, bad = 0;
	uint8_t			d[256];
	size_t			n;

	g.ls_shape = sh;
	g.ls_nodes = nodes;
	g.ls_fanout = fanout;
	g.ls_pfx = pfx;
	t = bgp_ls_routes(&g);
	for (i = 0; i < 2 * t; i++) {
		LS->nth(LS, &g, &first, i, &r);
		types[r.ls.type]++;
		n = LS->encode(LS, d, sizeof(d), &r, 0);
		memset(&back, 0, sizeof(back));
		if (n == 0 || LS->decode(LS, d, n, &back) != n ||
		    back.ls.ident != i / t || memcmp(&back.ls, &r.ls,
		    offsetof(struct bgp_ls_nlri, index)) != 0 ||
		    memcmp(&back.pfx.addr, &r.pfx.addr, 16) != 0)
			bad++;
	}
	CHECK(t == want && bad == 0 && types[1] == 2 * nodes &&
	    types[3] == 2ull * nodes * pfx && types[2] == 2 * (t - nodes -
	    (uint64_t)nodes * pfx), "%s: %llu routes, %llu bad", what,
	    (unsigned long long)t, (unsigned long long)bad);
}

static void
test_shapes(void)
{
	shape(BGP_LS_LINEAR, 10, 2, 1, 10 + 18 + 10, "linear 10");
	shape(BGP_LS_RING, 10, 2, 2, 10 + 20 + 20, "ring 10, 2 prefixes");
	shape(BGP_LS_TREE, 13, 3, 0, 13 + 24, "tree:3 13");
}

static void
test_shape_parse(void)
{
	struct bgp_gen	g = gen3();
	char		err[128];

	CHECK(bgp_ls_shape_parse(&g, "tree:4", err, sizeof(err)) == 0 &&
	    g.ls_shape == BGP_LS_TREE && g.ls_fanout == 4, "tree:4");
	CHECK(bgp_ls_shape_parse(&g, "ring", err, sizeof(err)) == 0 &&
	    g.ls_shape == BGP_LS_RING, "ring");
	CHECK(bgp_ls_shape_parse(&g, "tree:0", err, sizeof(err)) == -1 &&
	    strstr(err, "tree:0") != NULL, "tree:0 refused: %s", err);
	CHECK(bgp_ls_shape_parse(&g, "mesh", err, sizeof(err)) == -1,
	    "mesh refused");
}

/* RFC 9552 section 8.2.2: an NLRI whose TLVs do not add up is skipped
 * and marked malformed (treat-as-withdraw); one whose own length runs
 * past the span cannot be skipped (session reset); an unknown NLRI type
 * is counted as it stands. */
static void
test_malformed(void)
{
	static const char *const inside[] = {
		"00 01 00 05 03 00 00 00 00",		/* no identifier */
		"00 01 00 09 " HEAD,			/* no local node */
		"00 01 00 2c " HEAD "01 00 00 21 02 00 00 04 00 00 fd e9 "
		    "02 01 00 04 00 00 00 00 02 02 00 04 00 00 00 00 "
		    "02 03 00 04 0a 00 00",		/* sub-TLV past */
		"00 01 00 15 " HEAD "01 00 00 08 02 00 00 04 00 00 fd e9",
							/* no router-id */
		"00 01 00 16 " HEAD "01 00 00 09 02 00 00 05 00 00 fd e9 00",
							/* AS of 5 bytes */
		"00 02 00 2d " HEAD DESC("01 00", "1"),	/* link: no remote */
		"00 03 00 3a " HEAD DESC("01 00", "3")
		    "01 08 00 01 01 01 09 00 04 21 0a 00 02",	/* /33 */
		"00 03 00 3a " HEAD DESC("01 00", "3")
		    "01 08 00 01 01 01 09 00 04 10 0a 00 02",	/* /16 in 3 */
		"00 01 00 51 " HEAD DESC("01 00", "1") DESC("01 00", "2"),
							/* two locals */
	};
	static const char *const framing[] = {
		"00 01 00 2e " HEAD DESC("01 00", "1"),	/* past the span */
		"00 01",				/* cut header */
	};
	struct bgp_route	r;
	struct vec		v;
	uint64_t		n;
	size_t			i;

	for (i = 0; i < sizeof(inside) / sizeof(inside[0]); i++) {
		vec(&v, inside[i]);
		memset(&r, 0, sizeof(r));
		CHECK(LS->decode(LS, v.b, v.len, &r) == v.len && r.malformed &&
		    bgp_family_check(BGP_FAM_LS, v.b, v.len, 0, &n) == 1,
		    "malformed inside %zu: skipped, treat-as-withdraw", i);
	}
	for (i = 0; i < sizeof(framing) / sizeof(framing[0]); i++) {
		vec(&v, framing[i]);
		memset(&r, 0, sizeof(r));
		CHECK(LS->decode(LS, v.b, v.len, &r) == 0 &&
		    bgp_family_check(BGP_FAM_LS, v.b, v.len, 0, &n) == -1,
		    "malformed framing %zu: session reset", i);
	}
	vec(&v, "00 09 00 02 ab cd 00 01 00 2d " HEAD DESC("01 00", "1"));
	CHECK(bgp_family_check(BGP_FAM_LS, v.b, v.len, 0, &n) == 0 && n == 2,
	    "an unknown type and a node: 2 routes");
}

/* A received UPDATE with a malformed BGP-LS NLRI: treated as withdraw,
 * the session kept (RFC 9552 section 8.2.2). */
static void
test_update_treat_as_withdraw(void)
{
	struct bgp_sess_caps	sc = { .as4 = 1, .fam_rx = 1u << BGP_FAM_LS };
	struct bgp_update	u;
	struct bgp_err		e;
	struct vec		v;

	/* MP_REACH (AFI 16388 SAFI 71, next hop 192.0.2.1) of a node NLRI
	 * without its router-id; ORIGIN IGP, empty AS_PATH. */
	vec(&v, MARKER "00 44 02 00 00 00 2d "
	    "90 0e 00 22 40 04 47 04 c0 00 02 01 00 "
	    "00 01 00 15 " HEAD "01 00 00 08 02 00 00 04 00 00 fd e9 "
	    "40 01 01 00 40 02 00");
	CHECK(bgp_update_decode(v.b, v.len, &sc, &u, &e) == 0 &&
	    u.treat_as_withdraw && u.mp_reach_fam == BGP_FAM_LS,
	    "treat-as-withdraw, no NOTIFICATION");
}

/* The BGP-LS attribute's flags and type somewhere in the message. */
static int
has_ls_attr(const uint8_t *d, size_t len)
{
	size_t	i;

	for (i = 0; i + 1 < len; i++)
		if (d[i] == 0x90 && d[i + 1] == 29)
			return 1;
	return 0;
}

/* Announcements: one route and its attribute per UPDATE; withdrawals
 * (no attribute, RFC 9552 section 5.3) packed many to an UPDATE. */
static void
test_updates(void)
{
	struct bgp_gen		g = gen3();
	struct bgp_prefix	first = first24();
	struct bgp_sess_caps	sc = { .as4 = 1, .fam_rx = 1u << BGP_FAM_LS };
	struct bgp_attrs	a = { .n_as = 1 };
	struct bgp_update	u;
	struct bgp_err		e;
	struct bgp_ub		ub;
	uint64_t		k, n;
	int			wd;

	a.as_path[0] = 65001;
	g.ls_nodes = 100;
	for (wd = 0; wd < 2; wd++) {
		start();
		bgp_ub_begin(&ub, &w, BGP_FAM_LS, 1, 0, wd ? NULL : &a, &sc,
		    BGP_MAX_LEN);
		k = bgp_ub_add_routes(&ub, BGP_FAM_LS, &g, &first, 150, 1000);
		CHECK(bgp_ub_end(&ub) != -1 && bgp_update_decode(w.data, w.len,
		    &sc, &u, &e) == 0, "%s UPDATE decodes",
		    wd ? "withdraw" : "announce");
		CHECK(wd ? k > 30 && u.mp_unreach_fam == BGP_FAM_LS &&
		    bgp_family_check(BGP_FAM_LS, rbuf_ptr(&u.mp_unreach),
		    rbuf_left(&u.mp_unreach), 0, &n) == 0 && n == k :
		    k == 1 && u.mp_reach_fam == BGP_FAM_LS &&
		    has_ls_attr(w.data, w.len),
		    "%s: %llu routes in the UPDATE", wd ? "withdraw" : "announce",
		    (unsigned long long)k);
	}
}

static const struct check_case cases[] = {
	CASE(test_nlri_vectors),
	CASE(test_attr_vectors),
	CASE(test_shapes),
	CASE(test_shape_parse),
	CASE(test_malformed),
	CASE(test_update_treat_as_withdraw),
	CASE(test_updates),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
