/*
 * The MRT reader and writer (sims/bgp/bgp_mrt.c, RFC 6396): a dump
 * written and read back, plain, gzip and bzip2; BGP4MP messages with a
 * 2-octet AS_PATH; every truncation of a dump and bad peer indexes give
 * an error naming the record's offset, never a crash.
 */
#include <bzlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "bgp_mrt.h"

#define MAXR	16

struct got {
	int			n;
	struct mrt_route	r[MAXR];
	uint8_t			attrs[MAXR][256];
};

static int
collect(void *arg, const struct mrt_route *rt)
{
	struct got	*g = arg;

	if (g->n >= MAXR || rt->attr_len > 256)
		return -1;
	g->r[g->n] = *rt;
	memcpy(g->attrs[g->n], rt->attrs, rt->attr_len);
	g->r[g->n].attrs = g->attrs[g->n];
	g->n++;
	return 0;
}

/* ORIGIN IGP, AS_PATH 65001 4200000000, NEXT_HOP 192.0.2.1. */
static const uint8_t attrs4[] = {
	0x40, 1, 1, 0,
	0x40, 2, 10, 2, 2, 0, 0, 0xfd, 0xe9, 0xfa, 0x56, 0xea, 0x00,
	0x40, 3, 4, 192, 0, 2, 1,
};
static const uint8_t nh6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };

static void
tmpname(char *buf, size_t len, const char *what)
{
	snprintf(buf, len, "%s/test_bgp_mrt.%ld.%s",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid(),
	    what);
}

static void
write_dump(const char *path)
{
	struct mrt_peer		 peers[2] = {
		{ .bgp_id = 0x0a000001, .as = 65001, .af = BGP_AF_IPV4,
		  .addr = { 10, 0, 0, 1 } },
		{ .bgp_id = 0x0a000002, .as = 4200000000u, .af = BGP_AF_IPV6,
		  .addr = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 } },
	};
	struct mrt_writer	*m = mrt_writer_open(path, 0x01020304, peers, 2);
	struct bgp_prefix	 p;

	CHECK(m != NULL, "writer opens %s", path);
	if (m == NULL)
		return;
	bgp_prefix_parse("198.51.100.0/24", &p);
	CHECK(mrt_writer_route(m, 0, 1000, &p, attrs4, sizeof(attrs4),
	    NULL, 0) == 0, "IPv4 route written");
	bgp_prefix_parse("10.128.0.0/9", &p);
	CHECK(mrt_writer_route(m, 1, 1001, &p, attrs4, sizeof(attrs4),
	    NULL, 0) == 0, "second IPv4 route written");
	bgp_prefix_parse("2001:db8:1::/48", &p);
	CHECK(mrt_writer_route(m, 1, 1002, &p, attrs4, 17, nh6, 16) == 0,
	    "IPv6 route written");
	CHECK(mrt_writer_close(m) == 0, "writer closes");
}

static void
verify_dump(struct mrt_file *f, const char *what)
{
	struct got	g = { 0 };
	char		err[256] = "";
	struct bgp_prefix p;

	CHECK(mrt_walk(f, collect, &g, err, sizeof(err)) == 0, "%s: walk: %s",
	    what, err);
	CHECK(g.n == 3, "%s: 3 routes (got %d)", what, g.n);
	CHECK(f->n_peers == 2 && f->peers[1].as == 4200000000u &&
	    f->peers[1].af == BGP_AF_IPV6, "%s: peer table", what);
	if (g.n != 3)
		return;
	bgp_prefix_parse("10.128.0.0/9", &p);
	CHECK(g.r[1].pfx.len == 9 && memcmp(g.r[1].pfx.addr, p.addr, 4) == 0 &&
	    g.r[1].peer == 1 && g.r[1].time == 1001, "%s: second route", what);
	CHECK_BYTES(g.r[0].attrs, g.r[0].attr_len, attrs4, sizeof(attrs4),
	    "%s: attributes as written", what);
	CHECK(g.r[2].pfx.af == BGP_AF_IPV6 && g.r[2].nh_len == 16 &&
	    memcmp(g.r[2].nh, nh6, 16) == 0 && g.r[2].attr_len == 17,
	    "%s: IPv6 next hop out of MP_REACH, attributes without it", what);
}

static void
test_roundtrip_plain(void)
{
	struct mrt_file	f;
	char		path[256], err[256] = "";

	tmpname(path, sizeof(path), "mrt");
	write_dump(path);
	CHECK(mrt_load(&f, path, err, sizeof(err)) == 0, "load: %s", err);
	verify_dump(&f, "plain");
	mrt_free(&f);
	unlink(path);
}

static void
test_roundtrip_gzip_bzip2(void)
{
	struct mrt_file	f, z;
	char		path[256], zp[256], err[256] = "";
	gzFile		gz;
	BZFILE		*bz;
	FILE		*fp;
	int		bze;

	tmpname(path, sizeof(path), "mrt");
	write_dump(path);
	CHECK(mrt_load(&f, path, err, sizeof(err)) == 0, "load: %s", err);
	tmpname(zp, sizeof(zp), "mrt.gz");
	gz = gzopen(zp, "wb");
	gzwrite(gz, f.data, (unsigned)f.len);
	gzclose(gz);
	CHECK(mrt_load(&z, zp, err, sizeof(err)) == 0, "gzip load: %s", err);
	verify_dump(&z, "gzip");
	mrt_free(&z);
	unlink(zp);
	tmpname(zp, sizeof(zp), "mrt.bz2");
	fp = fopen(zp, "wb");
	bz = BZ2_bzWriteOpen(&bze, fp, 9, 0, 0);
	BZ2_bzWrite(&bze, bz, f.data, (int)f.len);
	BZ2_bzWriteClose(&bze, bz, 0, NULL, NULL);
	fclose(fp);
	CHECK(mrt_load(&z, zp, err, sizeof(err)) == 0, "bzip2 load: %s", err);
	verify_dump(&z, "bzip2");
	mrt_free(&z);
	/* A bzip2 file cut short is an error, not a short dump. */
	CHECK(truncate(zp, 40) == 0, "truncate");
	CHECK(mrt_load(&z, zp, err, sizeof(err)) == -1 &&
	    strstr(err, "bzip2") != NULL, "truncated bzip2: %s", err);
	mrt_free(&z);
	unlink(zp);
	mrt_free(&f);
	unlink(path);
}

/* Every prefix of the dump cut short: an error naming an offset. */
static void
test_truncated(void)
{
	struct mrt_file	f, t;
	struct got	g;
	char		path[256], err[256];
	size_t		cut, bad = 0, whole = 0;
	int		rc;

	tmpname(path, sizeof(path), "mrt");
	write_dump(path);
	CHECK(mrt_load(&f, path, err, sizeof(err)) == 0, "load: %s", err);
	for (cut = 1; cut < f.len; cut++) {
		memset(&t, 0, sizeof(t));
		t.data = malloc(cut);
		memcpy(t.data, f.data, cut);
		t.len = cut;
		g.n = 0;
		err[0] = 0;
		/* Cut at one of the 3 ends of records before the last: a
		 * shorter dump, whole. */
		rc = mrt_walk(&t, collect, &g, err, sizeof(err));
		if (rc == 0)
			whole++;
		else if (strstr(err, "offset") == NULL)
			bad++;
		mrt_free(&t);
	}
	CHECK(bad == 0 && whole == 3, "%zu truncations: errors "
	    "naming the offset but %zu, whole dumps %zu", f.len - 1, bad,
	    whole);
	mrt_free(&f);
	unlink(path);
}

/* RIB entry whose peer index is past the table; then an attribute
 * overrunning its entry. */
static void
test_malformed(void)
{
	struct mrt_file	f;
	struct got	g = { 0 };
	char		path[256], err[256] = "";
	size_t		rib;

	tmpname(path, sizeof(path), "mrt");
	write_dump(path);
	CHECK(mrt_load(&f, path, err, sizeof(err)) == 0, "load: %s", err);
	/* The first RIB record follows the PEER_INDEX_TABLE's. */
	rib = 12u + ((size_t)f.data[8] << 24 | f.data[9] << 16 |
	    f.data[10] << 8 | f.data[11]);
	/* seq 4, len 1, prefix 3, count 2: then the peer index. */
	f.data[rib + 12 + 10 + 1] = 7;
	CHECK(mrt_walk(&f, collect, &g, err, sizeof(err)) == -1 &&
	    strstr(err, "peer index 7") != NULL &&
	    strstr(err, "offset") != NULL, "bad peer index: %s", err);
	f.data[rib + 12 + 10 + 1] = 0;
	/* ORIGIN's length (first attribute) made 200. */
	f.data[rib + 12 + 10 + 2 + 4 + 2 + 2] = 200;
	g.n = 0;
	CHECK(mrt_walk(&f, collect, &g, err, sizeof(err)) == -1 &&
	    strstr(err, "overruns") != NULL, "attribute overrun: %s", err);
	mrt_free(&f);
	unlink(path);
}

/* BGP4MP_ET MESSAGE (2-octet ASes): the AS_PATH widened to 4 octets,
 * IPv4 NLRI and a STATE_CHANGE skipped. */
static void
test_bgp4mp(void)
{
	static const uint8_t rec[] = {
		0, 0, 0, 5, 0, 17, 0, 5, 0, 0, 0, 12,	/* STATE_CHANGE */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 5, 0, 17, 0, 1, 0, 0, 0, 68,	/* ET MESSAGE */
		0, 0, 0, 9,				/* microseconds */
		0xfd, 0xe9, 0xfd, 0xea, 0, 0, 0, 1,	/* ASes, ifc, AFI */
		10, 0, 0, 9, 10, 0, 0, 1,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0, 48, 2, 0, 0, 0, 18,
		0x40, 1, 1, 0,
		0x40, 2, 4, 2, 1, 0xfd, 0xe9,
		0x40, 3, 4, 10, 0, 0, 9,
		24, 192, 0, 2, 16, 172, 16,
	};
	static const uint8_t want[] = {
		0x40, 1, 1, 0, 0x40, 2, 6, 2, 1, 0, 0, 0xfd, 0xe9,
		0x40, 3, 4, 10, 0, 0, 9,
	};
	struct mrt_file	f = { 0 };
	struct got	g = { 0 };
	char		err[256] = "";

	f.data = malloc(sizeof(rec));
	memcpy(f.data, rec, sizeof(rec));
	f.len = sizeof(rec);
	CHECK(mrt_walk(&f, collect, &g, err, sizeof(err)) == 0, "walk: %s",
	    err);
	CHECK(g.n == 2 && f.skipped == 1 && f.n_peers == 1 &&
	    f.peers[0].as == 65001, "2 routes of one peer, 1 skipped (%d)",
	    g.n);
	if (g.n == 2) {
		CHECK_BYTES(g.r[0].attrs, g.r[0].attr_len, want, sizeof(want),
		    "AS_PATH widened");
		CHECK(g.r[1].pfx.len == 16 && g.r[1].pfx.addr[0] == 172 &&
		    g.r[1].time == 5, "second prefix 172.16/16");
	}
	mrt_free(&f);
}

static const struct check_case cases[] = {
	CASE(test_roundtrip_plain),
	CASE(test_roundtrip_gzip_bzip2),
	CASE(test_truncated),
	CASE(test_malformed),
	CASE(test_bgp4mp),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
