/*
 * Prefix maps (sims/bgp/bgp_rib.c): put/get/del and counts, values,
 * deletion by backward shift under heavy load (every other of 200 000
 * prefixes removed, the rest still found), path ids as part of the key,
 * the walk, clear, and the memory figure; a dense range (bgp_pmap_dense)
 * against a plain map under the same operations.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgp_codec.h"
#include "bgp_rib.h"
#include "check.h"
#include "check_bgp.h"

#define BIG	200000

static struct bgp_prefix
nth(const char *first, uint64_t n)
{
	struct bgp_prefix	f = pfx(first), p;

	bgp_prefix_nth(&f, n, &p);
	return p;
}

static void
test_basic(void)
{
	struct bgp_pmap		m;
	struct bgp_prefix	a = pfx("10.0.0.0/24"), b = pfx("10.0.0.0/25");
	struct bgp_prefix	c = pfx("2001:db8::/32");
	uint64_t		*v, old = 0;

	bgp_pmap_init(&m, 1);
	CHECK(bgp_pmap_count(&m) == 0 && bgp_pmap_bytes(&m) == 0,
	    "a new map is empty and holds no memory");
	CHECK(bgp_pmap_get(&m, &a) == NULL, "get on an empty map: NULL");
	CHECK(bgp_pmap_del(&m, &a, &old) == 0, "del on an empty map: 0");
	CHECK(bgp_pmap_put(&m, &a, &v) == 1 && v != NULL && *v == 0,
	    "put a new prefix: 1, value 0");
	*v = 1111;
	CHECK(bgp_pmap_put(&m, &a, &v) == 0 && *v == 1111,
	    "put it again: 0, value kept");
	CHECK(bgp_pmap_put(&m, &b, &v) == 1, "same address, other length: new");
	*v = 2222;
	CHECK(bgp_pmap_put(&m, &c, NULL) == 1, "an IPv6 prefix");
	CHECK(bgp_pmap_count(&m) == 3 &&
	    bgp_pmap_count_af(&m, BGP_AF_IPV4) == 2 &&
	    bgp_pmap_count_af(&m, BGP_AF_IPV6) == 1, "counts per family");
	CHECK((v = bgp_pmap_get(&m, &a)) != NULL && *v == 1111, "get a");
	CHECK((v = bgp_pmap_get(&m, &b)) != NULL && *v == 2222, "get b");
	CHECK(bgp_pmap_del(&m, &a, &old) == 1 && old == 1111,
	    "del a: 1, its value");
	CHECK(bgp_pmap_get(&m, &a) == NULL && bgp_pmap_del(&m, &a, NULL) == 0,
	    "a is gone");
	CHECK((v = bgp_pmap_get(&m, &b)) != NULL && *v == 2222,
	    "b still there with its value");
	CHECK(bgp_pmap_count(&m) == 2, "count 2");
	CHECK(bgp_pmap_put(&m, &a, &v) == 1 && *v == 0,
	    "a put back: a fresh value");
	bgp_pmap_free(&m);
	CHECK(bgp_pmap_count(&m) == 0 && bgp_pmap_bytes(&m) == 0,
	    "free: empty, no memory");
	bgp_pmap_free(&m);	/* twice is fine */
}

/* Path ids are part of the key (RFC 7911: one prefix, many paths). */
static void
test_path_ids(void)
{
	struct bgp_pmap		m;
	struct bgp_prefix	p = pfx("10.0.0.0/24"), q;
	uint64_t		*v, val;
	uint32_t		id;
	size_t			slot = 0;
	int			seen[5] = { 0 }, n = 0;

	bgp_pmap_init(&m, 1);
	for (id = 0; id < 4; id++) {
		p.path_id = id == 3 ? 0xffffffffu : id;
		CHECK(bgp_pmap_put(&m, &p, &v) == 1, "path %u: new", p.path_id);
		*v = 100 + id;
	}
	CHECK(bgp_pmap_count(&m) == 4, "four paths of one prefix");
	p.path_id = 0xffffffffu;
	CHECK((v = bgp_pmap_get(&m, &p)) != NULL && *v == 103,
	    "path 0xffffffff found with its value");
	p.path_id = 4;
	CHECK(bgp_pmap_get(&m, &p) == NULL, "path 4: absent");
	p.path_id = 1;
	CHECK(bgp_pmap_del(&m, &p, NULL) == 1, "del path 1");
	p.path_id = 0;
	CHECK(bgp_pmap_get(&m, &p) != NULL, "path 0 still there");
	while (bgp_pmap_next(&m, BGP_AF_IPV4, &slot, &q, &val) == 1) {
		n++;
		if (q.path_id < 3)
			seen[q.path_id]++;
		else if (q.path_id == 0xffffffffu)
			seen[3]++;
		else
			seen[4]++;
	}
	CHECK(n == 3 && seen[0] == 1 && seen[1] == 0 && seen[2] == 1 &&
	    seen[3] == 1 && seen[4] == 0, "the walk gives the path ids back");
	bgp_pmap_free(&m);
}

/* Many prefixes, every other deleted: the backward shift must leave
 * every remaining one reachable from its home slot. */
static void
test_many(enum bgp_af af, const char *first)
{
	struct bgp_pmap		m;
	struct bgp_prefix	p, q;
	uint64_t		*v, val, sum = 0, want_sum = 0;
	size_t			slot = 0;
	uint32_t		i, found = 0, wrong = 0, absent_ok = 0;
	uint32_t		walked = 0, bad_walk = 0;
	const char		*name = af == BGP_AF_IPV6 ? "v6" : "v4";

	bgp_pmap_init(&m, 1);
	for (i = 0; i < BIG; i++) {
		p = nth(first, i);
		if (bgp_pmap_put(&m, &p, &v) != 1)
			wrong++;
		*v = i;
	}
	CHECK(wrong == 0 && bgp_pmap_count_af(&m, af) == BIG,
	    "%s: %u prefixes put", name, BIG);
	for (i = 0; i < BIG; i += 2) {
		p = nth(first, i);
		if (bgp_pmap_del(&m, &p, &val) != 1 || val != i)
			wrong++;
	}
	CHECK(wrong == 0 && bgp_pmap_count_af(&m, af) == BIG / 2,
	    "%s: every other deleted, with its value", name);
	for (i = 0; i < BIG; i++) {
		p = nth(first, i);
		v = bgp_pmap_get(&m, &p);
		if (i % 2 == 0)
			absent_ok += v == NULL;
		else if (v != NULL && *v == i)
			found++;
	}
	CHECK(found == BIG / 2, "%s: all %u remaining found (%u)", name,
	    BIG / 2, found);
	CHECK(absent_ok == BIG / 2, "%s: all deleted absent (%u)", name,
	    absent_ok);
	for (i = 1; i < BIG; i += 2)
		want_sum += i;
	while (bgp_pmap_next(&m, af, &slot, &q, &val) == 1) {
		walked++;
		sum += val;
		if (q.af != af || bgp_pmap_get(&m, &q) == NULL ||
		    *bgp_pmap_get(&m, &q) != val)
			bad_walk++;
	}
	CHECK(walked == BIG / 2 && sum == want_sum && bad_walk == 0,
	    "%s: the walk visits each remaining prefix once (%u)", name,
	    walked);
	CHECK(bgp_pmap_count_af(&m, af == BGP_AF_IPV4 ? BGP_AF_IPV6 :
	    BGP_AF_IPV4) == 0, "%s: the other family untouched", name);
	/* Delete the rest in reverse: the table drains to nothing. */
	for (i = BIG; i-- > 0;) {
		p = nth(first, i);
		if (bgp_pmap_del(&m, &p, NULL) != (int)(i % 2))
			wrong++;
	}
	slot = 0;
	CHECK(wrong == 0 && bgp_pmap_count(&m) == 0 &&
	    bgp_pmap_next(&m, af, &slot, &q, NULL) == 0,
	    "%s: the rest deleted, nothing left to walk", name);
	bgp_pmap_free(&m);
}

/* Churn in a small table: insert/delete cycles with wrap-around probing
 * against a plain array as the reference. */
static void
test_churn(void)
{
	enum { N = 300, ROUNDS = 20000 };
	static uint8_t		in[N];
	struct bgp_pmap		m;
	struct bgp_prefix	p;
	uint64_t		*v, seed = 12345;
	uint32_t		r, i, k, bad = 0, count = 0;

	bgp_pmap_init(&m, 1);
	for (r = 0; r < ROUNDS; r++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		k = (uint32_t)(seed >> 33) % N;
		p = nth("192.168.0.0/30", k);
		if (in[k]) {
			if (bgp_pmap_del(&m, &p, NULL) != 1)
				bad++;
			in[k] = 0;
			count--;
		} else {
			if (bgp_pmap_put(&m, &p, &v) != 1)
				bad++;
			*v = k;
			in[k] = 1;
			count++;
		}
		if (r % 1000 == 999)
			for (i = 0; i < N; i++) {
				p = nth("192.168.0.0/30", i);
				v = bgp_pmap_get(&m, &p);
				if (in[i] ? v == NULL || *v != i : v != NULL)
					bad++;
			}
	}
	CHECK(bad == 0 && bgp_pmap_count(&m) == count,
	    "20000 random puts and deletes agree with a reference");
	bgp_pmap_free(&m);
}

static void
test_no_values_clear_bytes(void)
{
	struct bgp_pmap		m;
	struct bgp_prefix	p;
	size_t			b4, slot = 0;
	uint64_t		val = 99;
	uint32_t		i, walked = 0;

	bgp_pmap_init(&m, 0);
	for (i = 0; i < 1000; i++) {
		p = nth("10.0.0.0/24", i);
		bgp_pmap_put(&m, &p, NULL);
	}
	p = nth("10.0.0.0/24", 5);
	CHECK(bgp_pmap_get(&m, &p) != NULL, "no values: get is non-NULL");
	p = nth("10.0.0.0/24", 1000);
	CHECK(bgp_pmap_get(&m, &p) == NULL, "no values: absent is NULL");
	/* 1000 at load 3/4 at most: 2048 slots of 2 words. */
	CHECK(bgp_pmap_bytes(&m) == 2048 * 2 * 8,
	    "bytes: 2048 slots x 2 words (%zu)", bgp_pmap_bytes(&m));
	p = nth("10.0.0.0/24", 7);
	CHECK(bgp_pmap_del(&m, &p, &val) == 1 && val == 99,
	    "no values: del leaves *val alone");
	while (bgp_pmap_next(&m, BGP_AF_IPV4, &slot, &p, &val) == 1)
		walked++;
	CHECK(walked == 999 && val == 0, "walk: 999, value 0 without values");
	p = pfx("2001:db8::/64");
	bgp_pmap_put(&m, &p, NULL);
	b4 = bgp_pmap_bytes(&m);
	CHECK(b4 == 2048 * 2 * 8 + 64 * 3 * 8,
	    "bytes: plus 64 IPv6 slots of 3 words (%zu)", b4);
	bgp_pmap_clear(&m);
	slot = 0;
	CHECK(bgp_pmap_count(&m) == 0 && bgp_pmap_bytes(&m) == b4 &&
	    bgp_pmap_next(&m, BGP_AF_IPV4, &slot, &p, NULL) == 0,
	    "clear: empty, memory kept");
	p = nth("10.0.0.0/24", 5);
	CHECK(bgp_pmap_get(&m, &p) == NULL && bgp_pmap_put(&m, &p, NULL) == 1 &&
	    bgp_pmap_count(&m) == 1, "after clear: absent, then new again");
	bgp_pmap_free(&m);

	/* With values: 3 words a slot for IPv4, 4 for IPv6. */
	bgp_pmap_init(&m, 1);
	p = pfx("10.0.0.0/8");
	bgp_pmap_put(&m, &p, NULL);
	p = pfx("::/0");
	bgp_pmap_put(&m, &p, NULL);
	CHECK(bgp_pmap_bytes(&m) == 64 * 3 * 8 + 64 * 4 * 8,
	    "bytes with values: 64 x 3 + 64 x 4 words");
	bgp_pmap_free(&m);
}

/* The generation moves when a table grows (walkers restart). */
static void
test_generation(void)
{
	struct bgp_pmap		m;
	struct bgp_prefix	p;
	uint32_t		g, i;

	bgp_pmap_init(&m, 0);
	p = pfx("10.0.0.0/24");
	bgp_pmap_put(&m, &p, NULL);
	g = m.generation;
	for (i = 1; i < 48; i++) {
		p = nth("10.0.0.0/24", i);
		bgp_pmap_put(&m, &p, NULL);
	}
	CHECK(m.generation == g, "48 in 64 slots: no growth");
	p = nth("10.0.0.0/24", 48);
	bgp_pmap_put(&m, &p, NULL);
	CHECK(m.generation == g + 1 && bgp_pmap_bytes(&m) == 128 * 2 * 8,
	    "the 49th grows the table to 128 slots");
	for (i = 0; i < 49; i++) {
		p = nth("10.0.0.0/24", i);
		if (bgp_pmap_get(&m, &p) == NULL)
			break;
	}
	CHECK(i == 49, "all 49 found after growing");
	bgp_pmap_free(&m);
}

static void
test_many_ipv4(void)
{
	test_many(BGP_AF_IPV4, "10.0.0.0/32");
}

static void
test_many_ipv6(void)
{
	test_many(BGP_AF_IPV6, "2001:db8::/64");
}

/*
 * The k-th of a mix: blocks of the range, blocks past it, the same with a
 * path id, with host bits set, with another length, in the other family.
 */
static struct bgp_prefix
dense_mix(const struct bgp_prefix *first, uint64_t n, uint64_t k)
{
	struct bgp_prefix	p, o = pfx("10.1.0.0/16");
	unsigned		bits = first->af == BGP_AF_IPV6 ? 128 : 32;

	bgp_prefix_nth(first, k % (2 * n + 3), &p);
	switch (k % 7) {
	case 3:
		p.path_id = 1;
		break;
	case 4:
		if (p.len < bits)
			p.addr[15 * (bits == 128) + 3 * (bits == 32)] |= 1;
		break;
	case 5:
		if (p.len > 0)
			p.len--;
		break;
	case 6:
		if (first->af == BGP_AF_IPV4)
			o = pfx("2001:db8::/48");
		bgp_prefix_nth(&o, k, &p);
		break;
	}
	return p;
}

static int
dense_same(const char *first_s, uint64_t n)
{
	struct bgp_pmap		d, m;
	struct bgp_prefix	first = pfx(first_s), p;
	uint64_t		k, r = 12345, walked = 0;
	size_t			slot;
	int			af, ok = 1, a, b;

	bgp_pmap_init(&d, 0);
	bgp_pmap_init(&m, 0);
	if (bgp_pmap_dense(&d, &first, n) == -1)
		return 0;
	for (k = 0; k < 20000 && ok; k++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		p = dense_mix(&first, n, r >> 33);
		switch ((r >> 20) % 3) {
		case 0:
			a = bgp_pmap_put(&d, &p, NULL);
			b = bgp_pmap_put(&m, &p, NULL);
			break;
		case 1:
			a = bgp_pmap_del(&d, &p, NULL);
			b = bgp_pmap_del(&m, &p, NULL);
			break;
		default:
			a = bgp_pmap_get(&d, &p) != NULL;
			b = bgp_pmap_get(&m, &p) != NULL;
		}
		ok = a == b && bgp_pmap_count(&d) == bgp_pmap_count(&m) &&
		    bgp_pmap_count_af(&d, BGP_AF_IPV4) ==
		    bgp_pmap_count_af(&m, BGP_AF_IPV4);
	}
	for (af = 0; af < BGP_AF_MAX && ok; af++)
		for (slot = 0; ok && bgp_pmap_next(&d, af, &slot, &p, NULL);) {
			walked++;
			ok = bgp_pmap_get(&m, &p) != NULL &&
			    bgp_pmap_get(&d, &p) != NULL;
		}
	ok = ok && walked == bgp_pmap_count(&m) && d.d.count > 0;
	bgp_pmap_clear(&d);
	ok = ok && bgp_pmap_count(&d) == 0 && bgp_pmap_get(&d, &first) == NULL;
	bgp_pmap_free(&d);
	bgp_pmap_free(&m);
	return ok;
}

static void
test_dense(void)
{
	struct bgp_pmap		m;
	struct bgp_prefix	f = pfx("10.0.0.0/24");

	CHECK(dense_same("10.0.0.0/24", 1000), "IPv4 /24s: as a plain map");
	CHECK(dense_same("255.255.250.0/24", 1000),
	    "IPv4, wrapping at the end: as a plain map");
	CHECK(dense_same("10.0.0.0/30", 100000),
	    "IPv4 /30s, more than the space holds: as a plain map");
	CHECK(dense_same("2001:db8::/64", 5000), "IPv6 /64s: as a plain map");
	CHECK(dense_same("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00/120", 3000),
	    "IPv6 /120s across the words' border: as a plain map");
	CHECK(dense_same("2001:db8::/48", 777), "IPv6 /48s: as a plain map");
	bgp_pmap_init(&m, 1);
	CHECK(bgp_pmap_dense(&m, &f, 10) == -1, "a map with values: refused");
	bgp_pmap_free(&m);
	bgp_pmap_init(&m, 0);
	CHECK(bgp_pmap_put(&m, &f, NULL) == 1 &&
	    bgp_pmap_dense(&m, &f, 10) == -1, "a map not empty: refused");
	bgp_pmap_free(&m);
}

static const struct check_case cases[] = {
	CASE(test_basic),
	CASE(test_path_ids),
	CASE(test_many_ipv4),
	CASE(test_many_ipv6),
	CASE(test_churn),
	CASE(test_no_values_clear_bytes),
	CASE(test_generation),
	CASE(test_dense),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
