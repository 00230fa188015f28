/*
 * The meter table and METER_MOD (OpenFlow 1.3.5 sections 6.6, 7.3.4.4
 * and 7.4.4): decode and encode, ADD/MODIFY/DELETE and every
 * METER_MOD_FAILED code in Open vSwitch's order, the bands read back
 * byte-identical in METER_CONFIG, METER stats and METER_FEATURES, the
 * bound, the METER instruction query, and the bytes a meter costs.
 */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "of_actions.h"
#include "of_codec.h"
#include "of_flowtable.h"
#include "of_meter.h"

#define U32(v)	(uint8_t)((v) >> 24), (uint8_t)((v) >> 16), \
		(uint8_t)((v) >> 8), (uint8_t)(v)
/* ofp_meter_band_drop / _dscp_remark, 16 bytes each. */
#define DROP(rate, burst)	0, 1, 0, 16, U32(rate), U32(burst), 0, 0, 0, 0
#define DSCP(rate, burst, prec)	0, 2, 0, 16, U32(rate), U32(burst), \
				(prec), 0, 0, 0
#define KBPS	OF_MF_KBPS
#define MAX	3	/* --max-meters for these tests */

/* The last meter a DELETE reported gone, and how many it reported. */
static struct {
	uint32_t	last;
	int		calls;
} gone;

static void
on_gone(void *arg, uint32_t id)
{
	(void)arg;
	gone.last = id;
	gone.calls++;
}

/* A METER_MOD applied at t = 1 us: its error, OF_ERR_NONE when taken
 * (OF_ERR__MAX: refused without saying why). */
static enum of_err
mod(struct of_meters **mt, uint16_t cmd, uint16_t flags, uint32_t id,
    const uint8_t *b, size_t len)
{
	struct of_meter_mod	mm = { cmd, flags, id, b, len };
	enum of_err		err = OF_ERR__MAX;

	return of_meters_apply(mt, &mm, MAX, 1000, on_gone, NULL, &err) == 0 ?
	    OF_ERR_NONE : err;
}

static void
test_codec_roundtrip(void)
{
	static const uint8_t	 b[] = { DROP(100, 10), DSCP(200, 20, 1) };
	struct of_meter_mod	 mm = { OF_MC_ADD, KBPS | OF_MF_BURST, 7, b,
	    sizeof(b) }, back;
	struct of_meter_band	 band = { OF_MBT_DSCP_REMARK, 16, 200, 20, 1 };
	struct of_meter_band	 got;
	struct of_header	 h;
	struct rbuf		 r;
	struct wbuf		 w;
	uint8_t			 buf[256];
	enum of_err		 err = OF_ERR_NONE;

	wbuf_init(&w, buf, sizeof(buf));
	CHECK(of_meter_mod_encode(&w, OF_VERSION_13, 9, &mm) == 0, "encode");
	CHECK(w.len == 16 + sizeof(b) && buf[1] == 29, "length %zu, type",
	    w.len);
	rbuf_init(&r, buf, w.len);
	CHECK(of_header_decode(&r, &h) == 0 && h.length == w.len &&
	    h.xid == 9, "header");
	CHECK(of_meter_mod_decode(OF_VERSION_13, &r, &back, &err) == 0,
	    "decode");
	CHECK(back.command == OF_MC_ADD && back.flags == mm.flags &&
	    back.meter_id == 7, "fields");
	CHECK(back.bands_len == sizeof(b) &&
	    memcmp(back.bands, b, sizeof(b)) == 0, "bands");
	rbuf_init(&r, buf + 8, 7);
	CHECK(of_meter_mod_decode(OF_VERSION_13, &r, &back, &err) == -1 &&
	    err == OF_ERR_BAD_LEN, "short body");
	wbuf_init(&w, buf, sizeof(buf));
	of_meter_band_encode(&w, &band);
	CHECK(w.len == 16 && memcmp(buf, b + 16, 16) == 0, "band encode");
	rbuf_init(&r, buf, w.len);
	CHECK(of_meter_band_decode(&r, &got, &err) == 0 &&
	    got.type == OF_MBT_DSCP_REMARK && got.rate == 200 &&
	    got.burst_size == 20 && got.prec_level == 1, "band decode");
}

static void
test_add_modify_delete(void)
{
	static const uint8_t	 one[] = { DROP(100, 0) };
	static const uint8_t	 two[] = { DROP(100, 0), DSCP(50, 0, 2) };
	struct of_meters	*mt = NULL;

	CHECK(mod(&mt, OF_MC_DELETE, 0, 5, NULL, 0) == OF_ERR_NONE &&
	    mt == NULL, "delete on no table: nothing made");
	CHECK(mod(&mt, OF_MC_ADD, KBPS, 1, one, sizeof(one)) == OF_ERR_NONE &&
	    of_meters_count(mt) == 1 && of_meters_has(mt, 1), "add");
	CHECK(mod(&mt, OF_MC_ADD, KBPS, 1, one, sizeof(one)) ==
	    OF_ERR_METER_EXISTS, "add existing");
	CHECK(mod(&mt, OF_MC_MODIFY, KBPS, 2, one, sizeof(one)) ==
	    OF_ERR_METER_UNKNOWN, "modify unknown");
	CHECK(mod(&mt, OF_MC_MODIFY, OF_MF_PKTPS | OF_MF_STATS, 1, two,
	    sizeof(two)) == OF_ERR_NONE && of_meters_count(mt) == 1,
	    "modify");
	CHECK(mod(&mt, OF_MC_ADD, KBPS, OF_METER_CONTROLLER, one,
	    sizeof(one)) == OF_ERR_NONE && mod(&mt, OF_MC_ADD, KBPS,
	    OF_METER_SLOWPATH, one, sizeof(one)) == OF_ERR_NONE,
	    "the virtual meters may be set");
	gone.calls = 0;
	CHECK(mod(&mt, OF_MC_DELETE, 0, 9, NULL, 0) == OF_ERR_NONE &&
	    gone.calls == 0, "delete missing: no error");
	CHECK(mod(&mt, OF_MC_DELETE, 0, 1, NULL, 0) == OF_ERR_NONE &&
	    gone.calls == 1 && gone.last == 1 && !of_meters_has(mt, 1),
	    "delete");
	CHECK(mod(&mt, 3, KBPS, 1, one, sizeof(one)) ==
	    OF_ERR_METER_BAD_COMMAND, "bad command");
	of_meters_free(mt);
}

/* Each METER_MOD_FAILED code, and BAD_LEN for a band of another size. */
static void
test_errors(void)
{
	static const uint8_t	 one[] = { DROP(100, 0) };
	static const uint8_t	 rate0[] = { DROP(0, 0) };
	static const uint8_t	 prec[] = { DSCP(100, 0, 64) };
	static const uint8_t	 exp[] = { 0xff, 0xff, 0, 16, U32(1), U32(0),
	    U32(0x2320) };
	static const uint8_t	 t3[] = { 0, 3, 0, 16, U32(1), U32(0), U32(0) };
	static const uint8_t	 len8[] = { 0, 1, 0, 8, U32(1) };
	static const uint8_t	 nine[] = { DROP(1, 0), DROP(2, 0), DROP(3, 0),
	    DROP(4, 0), DROP(5, 0), DROP(6, 0), DROP(7, 0), DROP(8, 0),
	    DROP(9, 0) };
	struct of_meters	*mt = NULL;

	CHECK(mod(&mt, OF_MC_ADD, KBPS | OF_MF_PKTPS, 1, one, sizeof(one)) ==
	    OF_ERR_METER_BAD_FLAGS, "both rate units");
	CHECK(mod(&mt, OF_MC_ADD, 0, 1, one, sizeof(one)) ==
	    OF_ERR_METER_BAD_FLAGS, "no rate unit");
	CHECK(mod(&mt, OF_MC_ADD, KBPS | 0x10, 1, one, sizeof(one)) ==
	    OF_ERR_METER_BAD_FLAGS, "unknown flag");
	CHECK(mod(&mt, OF_MC_ADD, KBPS, 1, rate0, sizeof(rate0)) ==
	    OF_ERR_METER_BAD_RATE, "rate 0");
	CHECK(mod(&mt, OF_MC_ADD, KBPS | OF_MF_BURST, 1, one, sizeof(one)) ==
	    OF_ERR_METER_BAD_BURST, "BURST with burst_size 0");
	CHECK(mod(&mt, OF_MC_ADD, KBPS, 1, exp, sizeof(exp)) ==
	    OF_ERR_METER_BAD_BAND, "experimenter band");
	CHECK(mod(&mt, OF_MC_ADD, KBPS, 1, t3, sizeof(t3)) ==
	    OF_ERR_METER_BAD_BAND, "band type 3");
	CHECK(mod(&mt, OF_MC_ADD, KBPS, 1, prec, sizeof(prec)) ==
	    OF_ERR_METER_BAD_BAND_VALUE, "prec_level past a DSCP");
	CHECK(mod(&mt, OF_MC_ADD, KBPS, 1, nine, sizeof(nine)) ==
	    OF_ERR_METER_OUT_OF_BANDS, "nine bands");
	CHECK(mod(&mt, OF_MC_ADD, KBPS, 1, NULL, 0) ==
	    OF_ERR_METER_OUT_OF_BANDS, "no band");
	CHECK(mod(&mt, OF_MC_ADD, KBPS, 0, one, sizeof(one)) ==
	    OF_ERR_METER_INVALID, "meter 0");
	CHECK(mod(&mt, OF_MC_ADD, KBPS, OF_METER_ALL, one, sizeof(one)) ==
	    OF_ERR_METER_INVALID, "OFPM_ALL");
	CHECK(mod(&mt, OF_MC_ADD, KBPS, OF_METER_MAX + 1, one, sizeof(one)) ==
	    OF_ERR_METER_INVALID, "past OFPM_MAX");
	CHECK(mod(&mt, OF_MC_ADD, KBPS, 1, len8, sizeof(len8)) ==
	    OF_ERR_BAD_LEN, "band of 8 bytes");
	CHECK(mod(&mt, OF_MC_ADD, KBPS, 1, one, sizeof(one) - 4) ==
	    OF_ERR_BAD_LEN, "band cut short");
	CHECK(mt == NULL, "refused adds made no table");
	of_meters_free(mt);
}

/* Which error wins where several apply (Open vSwitch decodes the bands
 * before it looks at the id, the id before the flags); the limits' edges;
 * a refused MODIFY. */
static void
test_error_order(void)
{
	static const uint8_t	 one[] = { DROP(100, 0) };
	static const uint8_t	 rate0[] = { DROP(0, 0) };
	static const uint8_t	 burst[] = { DROP(100, 10) };
	static const uint8_t	 prec_ok[] = { DSCP(100, 0, 63) };
	static const uint8_t	 t3[] = { 0, 3, 0, 16, U32(1), U32(0), U32(0) };
	struct of_meters	*mt = NULL;

	CHECK(mod(&mt, OF_MC_ADD, KBPS, 0, t3, sizeof(t3)) ==
	    OF_ERR_METER_BAD_BAND, "bad band before bad id");
	CHECK(mod(&mt, OF_MC_MODIFY, 0, 1, one, sizeof(one)) ==
	    OF_ERR_METER_UNKNOWN, "unknown before the flags");
	CHECK(mod(&mt, OF_MC_ADD, KBPS | OF_MF_BURST | OF_MF_STATS, 1, burst,
	    sizeof(burst)) == OF_ERR_NONE, "burst with a size");
	CHECK(mod(&mt, OF_MC_ADD, OF_MF_PKTPS, 2, prec_ok, sizeof(prec_ok)) ==
	    OF_ERR_NONE, "prec_level 63");
	CHECK(mod(&mt, OF_MC_MODIFY, KBPS, 1, rate0, sizeof(rate0)) ==
	    OF_ERR_METER_BAD_RATE && of_meters_has(mt, 1),
	    "a refused modify keeps the meter");
	of_meters_free(mt);
}

static void
test_bound_and_delete_all(void)
{
	static const uint8_t	 one[] = { DROP(100, 0) };
	struct of_meters	*mt = NULL;
	uint32_t		 id;

	for (id = 1; id <= MAX; id++)
		CHECK(mod(&mt, OF_MC_ADD, KBPS, id, one, sizeof(one)) ==
		    OF_ERR_NONE, "add %u", id);
	CHECK(mod(&mt, OF_MC_ADD, KBPS, id, one, sizeof(one)) ==
	    OF_ERR_METER_OUT_OF_METERS, "past --max-meters");
	CHECK(mod(&mt, OF_MC_MODIFY, KBPS, 1, one, sizeof(one)) ==
	    OF_ERR_NONE, "modify at the bound");
	gone.calls = 0;
	CHECK(mod(&mt, OF_MC_DELETE, 0, OF_METER_ALL, NULL, 0) ==
	    OF_ERR_NONE && gone.calls == 1 && gone.last == OF_METER_ALL &&
	    of_meters_count(mt) == 0, "delete all: one pass over the flows");
	gone.calls = 0;
	CHECK(mod(&mt, OF_MC_DELETE, 0, OF_METER_ALL, NULL, 0) ==
	    OF_ERR_NONE && gone.calls == 0, "delete all of none");
	of_meters_free(mt);
}

static uint32_t
get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static void
config_visit(void *arg, const struct of_meter_info *mi)
{
	of_mp_reply_add_meter_config(arg, mi);
}

static void
stats_visit(void *arg, const struct of_meter_info *mi)
{
	of_mp_reply_add_meter_stats(arg, mi);
}

/* Walk mt into one reply of kind mp in buf; its length. */
static size_t
reply(struct of_meters *mt, enum of_mp mp, uint32_t want, uint8_t *buf,
    size_t size)
{
	struct of_mp_reply	mr;
	struct wbuf		w;

	wbuf_init(&w, buf, size);
	of_mp_reply_begin(&mr, &w, OF_VERSION_13, 1, mp, 0, NULL, NULL);
	if (mp == OF_MP_METER_FEATURES)
		of_mp_reply_add_meter_features(&mr, 4096);
	else
		of_meters_walk(mt, want, 2500000000ull, mp == OF_MP_METER ?
		    stats_visit : config_visit, &mr);
	return of_mp_reply_end(&mr) == 0 ? w.len : 0;
}

/* METER_CONFIG carries the bands exactly as METER_MOD gave them; METER
 * has flow_count and one zero band counter per band. */
static void
test_multiparts(void)
{
	static const uint8_t	 b[] = { DROP(100, 10), DSCP(200, 20, 1) };
	static const uint8_t	 one[] = { DROP(5, 0) };
	static const uint8_t	 feat[] = { 0, 0, 0x10, 0, 0, 0, 0, 6,
	    0, 0, 0, 15, 8, 0, 0, 0 };
	struct of_meters	*mt = NULL;
	uint8_t			 buf[512];
	const size_t		 ent = 16;	/* header + multipart */
	size_t			 n;

	CHECK(mod(&mt, OF_MC_ADD, OF_MF_PKTPS | OF_MF_BURST, 42, b,
	    sizeof(b)) == OF_ERR_NONE && mod(&mt, OF_MC_ADD, KBPS, 3, one,
	    sizeof(one)) == OF_ERR_NONE, "add 42 and 3");
	n = reply(mt, OF_MP_METER_CONFIG, OF_METER_ALL, buf, sizeof(buf));
	CHECK(n == ent + 8 + sizeof(b) + 8 + sizeof(one), "config length %zu",
	    n);
	/* The walk goes in the map's order, not the ADDs'. */
	n = reply(mt, OF_MP_METER_CONFIG, 42, buf, sizeof(buf));
	CHECK(n == ent + 8 + sizeof(b), "config of 42, length %zu", n);
	CHECK(buf[ent + 1] == 8 + sizeof(b) && buf[ent + 3] == 6 &&
	    buf[ent + 7] == 42, "config entry");
	CHECK(memcmp(buf + ent + 8, b, sizeof(b)) == 0, "bands as given");
	of_meters_flows_clear(mt);
	of_meters_flow(mt, 42);
	of_meters_flow(mt, 42);
	of_meters_flow(mt, 7);		/* no such meter: ignored */
	n = reply(mt, OF_MP_METER, 42, buf, sizeof(buf));
	CHECK(n == ent + 40 + 2 * 16, "stats of one meter, length %zu", n);
	CHECK(buf[ent + 3] == 42 && buf[ent + 5] == 40 + 2 * 16 &&
	    buf[ent + 15] == 2, "meter_id, len, flow_count");
	CHECK(get32(buf + ent + 32) == 2 && get32(buf + ent + 36) ==
	    499999000, "duration: 2.5 s less the 1 us of its ADD");
	n = reply(mt, OF_MP_METER, 99, buf, sizeof(buf));
	CHECK(n == ent, "stats of a missing meter: empty");
	n = reply(mt, OF_MP_METER_FEATURES, 0, buf, sizeof(buf));
	CHECK(n == ent + 16 && memcmp(buf + ent, feat, 16) == 0,
	    "features: max 4096, drop and dscp_remark, all flags, 8 bands");
	of_meters_free(mt);
}

/* METER 5 or 6, then APPLY_ACTIONS with OUTPUT 1. */
static const uint8_t inst_m5[] = { 0, 6, 0, 8, U32(5),
    0, 4, 0, 24, 0, 0, 0, 0, 0, 0, 0, 16, U32(1), 0xff, 0xe5, 0, 0,
    0, 0, 0, 0 };
static const uint8_t inst_m6[] = { 0, 6, 0, 8, U32(6),
    0, 4, 0, 24, 0, 0, 0, 0, 0, 0, 0, 16, U32(1), 0xff, 0xe5, 0, 0,
    0, 0, 0, 0 };

/* The METER instruction a flow carries. */
static void
test_prog_meter(void)
{
	uint32_t	id = 0;

	CHECK(of_prog_meter(inst_m5, sizeof(inst_m5), &id) == 1 && id == 5,
	    "meter 5");
	CHECK(of_prog_meter(inst_m5 + 8, sizeof(inst_m5) - 8, &id) == 0,
	    "no meter instruction");
}

/* A flow at priority prio (cookie prio) with instructions inst. */
static void
flow_add(struct of_flowtable *ft, uint16_t prio, const uint8_t *inst,
    size_t len)
{
	struct of_flow_mod	fm;
	struct of_ft_result	res = { 0, 0, 0 };
	enum of_err		err;

	memset(&fm, 0, sizeof(fm));
	fm.command = OF_FC_ADD;
	fm.priority = prio;
	fm.cookie = prio;
	fm.buffer_id = 0xffffffffu;
	fm.flags = OF_FF_SEND_FLOW_REM;
	of_match_init(&fm.match);
	fm.prog = inst;
	fm.prog_len = len;
	of_flowtable_apply(ft, &fm, 0, NULL, NULL, &res, &err);
}

static void
on_removed(void *arg, const struct of_flow_info *fi)
{
	uint64_t	*seen = arg;

	if (fi->reason == OF_RR_METER_DELETE)
		*seen |= 1ull << fi->cookie;
}

static int
count_metered(void *arg, const uint8_t *prog, size_t len)
{
	uint32_t	id;

	*(int *)arg += of_prog_meter(prog, len, &id);
	return 0;
}

/* A meter's flows go with it, FLOW_REMOVED METER_DELETE to those that
 * asked; OFPM_ALL takes every metered flow, and no other. */
static void
test_flows_go_with_meter(void)
{
	static const uint8_t	 out[] = { 0, 4, 0, 24, 0, 0, 0, 0,
	    0, 0, 0, 16, U32(1), 0xff, 0xe5, 0, 0, 0, 0, 0, 0 };
	struct of_flowtable	*ft = of_flowtable_new(OF_VERSION_13, 2, 100);
	uint64_t		 seen = 0;
	uint32_t		 id = 5;
	int			 metered = 0;

	flow_add(ft, 1, inst_m5, sizeof(inst_m5));
	flow_add(ft, 2, inst_m5, sizeof(inst_m5));
	flow_add(ft, 3, inst_m6, sizeof(inst_m6));
	flow_add(ft, 4, out, sizeof(out));
	of_flowtable_each_prog(ft, count_metered, &metered);
	CHECK(of_flowtable_total(ft) == 4 && metered == 3,
	    "4 flows, 3 metered (%d)", metered);
	CHECK(of_flowtable_remove_if(ft, of_meter_prog_names, &id, OF_RR_METER_DELETE,
	    0, on_removed, &seen) == 2 && seen == (1u << 1 | 1u << 2),
	    "meter 5: flows 1 and 2 removed, each told");
	id = OF_METER_ALL;
	CHECK(of_flowtable_remove_if(ft, of_meter_prog_names, &id, OF_RR_METER_DELETE,
	    0, on_removed, &seen) == 1 && of_flowtable_total(ft) == 1,
	    "OFPM_ALL: the meter 6 flow; the unmetered one stays");
	of_flowtable_free(ft);
}

/* Heap bytes per meter of one band, the table's share included: 48 for
 * the meter, 16 a slot of a map a quarter to half full (about 115 with
 * uthash's 56-byte handle in each meter). */
static void
test_bytes_per_meter(void)
{
	static const uint8_t	 one[] = { DROP(100, 0) };
	struct of_meter_mod	 mm = { OF_MC_ADD, KBPS, 0, one, sizeof(one) };
	struct of_meters	*mt = NULL;
	struct mallinfo2	 m0, m1;
	enum of_err		 err;
	const uint32_t		 n = 20000;
	double			 per;

	m0 = mallinfo2();
	for (mm.meter_id = 1; mm.meter_id <= n; mm.meter_id++)
		of_meters_apply(&mt, &mm, n, 0, NULL, NULL, &err);
	m1 = mallinfo2();
	/* The map's slots, past the mmap threshold, are in hblkhd. */
	per = (double)(m1.uordblks + m1.hblkhd - m0.uordblks - m0.hblkhd) / n;
	CHECK(of_meters_count(mt) == n, "%u meters", n);
	if (m1.uordblks == m0.uordblks)	/* a sanitizer's allocator */
		CHECK_SKIP("glibc's malloc does not count these allocations");
	else
		CHECK(per > 64 && per < 108, "%.1f heap bytes per meter (one "
		    "band)", per);
	of_meters_free(mt);
}

static void
count_visit(void *arg, const struct of_meter_info *mi)
{
	(void)mi;
	(*(uint32_t *)arg)++;
}

/* The map (of_oamap.c) through its growth past the huge-page size (2^19
 * slots, 8 MiB) and deletions that shift probe runs back: ids spread
 * over the whole 32-bit range and dense ones, every third deleted, each
 * id then found or not as it should, none lost. */
static void
test_many_meters(void)
{
	static const uint8_t	 one[] = { DROP(100, 0) };
	struct of_meter_mod	 mm = { OF_MC_ADD, KBPS, 0, one, sizeof(one) };
	struct of_meters	*mt = NULL;
	enum of_err		 err;
	const uint32_t		 n = 150000;
	uint32_t		 i, bad = 0, left = 0;

	for (i = 0; i < 2 * n; i++) {
		mm.meter_id = i < n ? i + 1 : (i - n) * 28000u + 2000000u;
		if (of_meters_apply(&mt, &mm, 2 * n, 0, NULL, NULL, &err) == -1)
			bad++;
	}
	CHECK(bad == 0 && of_meters_count(mt) == 2 * n, "%u meters, %u refused",
	    of_meters_count(mt), bad);
	mm.command = OF_MC_DELETE;
	for (i = 0; i < 2 * n; i += 3) {
		mm.meter_id = i < n ? i + 1 : (i - n) * 28000u + 2000000u;
		of_meters_apply(&mt, &mm, 2 * n, 0, NULL, NULL, &err);
	}
	for (i = 0, bad = 0; i < 2 * n; i++)
		if (of_meters_has(mt, i < n ? i + 1 :
		    (i - n) * 28000u + 2000000u) != (i % 3 != 0))
			bad++;
	of_meters_walk(mt, OF_METER_ALL, 0, count_visit, &left);
	CHECK(bad == 0 && left == 2 * n - (2 * n + 2) / 3 &&
	    of_meters_count(mt) == left, "after deletes: %u wrong, %u walked, "
	    "%u counted", bad, left, of_meters_count(mt));
	of_meters_free(mt);
}

static const struct check_case cases[] = {
	CASE(test_codec_roundtrip),
	CASE(test_add_modify_delete),
	CASE(test_errors),
	CASE(test_error_order),
	CASE(test_bound_and_delete_all),
	CASE(test_multiparts),
	CASE(test_prog_meter),
	CASE(test_flows_go_with_meter),
	CASE(test_bytes_per_meter),
	CASE(test_many_meters),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
