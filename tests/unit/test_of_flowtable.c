/*
 * Flow tables: FLOW_MOD semantics (OpenFlow 1.3.5 section 6.4, 1.0.0
 * section 4.6), filters, timeouts, FLOW_REMOVED reports and scale.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "of_actions.h"
#include "of_flowtable.h"

#define SEC		1000000000ULL
#define T0		(1000 * SEC)
#define PROG_LEN	24	/* APPLY_ACTIONS with one OUTPUT */
#define PROG2_LEN	40	/* APPLY_ACTIONS with two OUTPUTs */

struct progs {
	uint8_t	out[8][PROG_LEN];	/* apply: output port i */
	uint8_t	two[PROG2_LEN];		/* apply: output 1, output 2 */
	uint8_t	group7[16];		/* write: group 7 */
	uint8_t	out10[8];		/* 1.0: output 1 */
};
static struct progs P;

static void
put_output(uint8_t *b, uint32_t port)
{
	static const uint8_t out[16] = { 0, 0, 0, 16, 0, 0, 0, 0, 0xff, 0xff };

	memcpy(b, out, sizeof(out));
	b[4] = port >> 24;
	b[5] = port >> 16;
	b[6] = port >> 8;
	b[7] = port;
}

static void
progs_init(void)
{
	static const uint8_t apply[8] = { 0, 4, 0, PROG_LEN };
	static const uint8_t apply2[8] = { 0, 4, 0, PROG2_LEN };
	static const uint8_t wgroup[16] = { 0, 3, 0, 16, 0, 0, 0, 0,
		0, 22, 0, 8, 0, 0, 0, 7 };
	static const uint8_t out10[8] = { 0, 0, 0, 8, 0, 1, 0, 0 };
	int	i;

	for (i = 0; i < 8; i++) {
		memcpy(P.out[i], apply, sizeof(apply));
		put_output(P.out[i] + 8, i);
	}
	memcpy(P.two, apply2, sizeof(apply2));
	put_output(P.two + 8, 1);
	put_output(P.two + 24, 2);
	memcpy(P.group7, wgroup, sizeof(wgroup));
	memcpy(P.out10, out10, sizeof(out10));
}

/* eth_type=0x0800 and ipv4_src=a.b.0.0/plen (plen 0: no address). */
static void
m_ip(struct of_match *m, uint8_t a, uint8_t b, int plen)
{
	uint8_t	et[2] = { 0x08, 0x00 }, ip[4] = { a, b, 0, 0 };
	uint8_t	mask[4] = { 0 };
	int	i;

	of_match_init(m);
	of_match_set(m, 5, et, NULL, 2);
	if (plen == 0)
		return;
	for (i = 0; i < plen; i++)
		mask[i / 8] |= 0x80 >> (i % 8);
	of_match_set(m, 11, ip, mask, 4);
}

static void
m_arp(struct of_match *m)
{
	uint8_t	et[2] = { 0x08, 0x06 };

	of_match_init(m);
	of_match_set(m, 5, et, NULL, 2);
}

static void
mod(struct of_flow_mod *fm, uint8_t cmd, uint16_t prio, const uint8_t *prog,
    size_t len)
{
	memset(fm, 0, sizeof(*fm));
	fm->command = cmd;
	fm->priority = prio;
	fm->buffer_id = 0xffffffff;
	fm->out_port = OF_PORT_ANY;
	fm->out_group = OF_GROUP_ANY;
	fm->prog = prog;
	fm->prog_len = len;
	of_match_init(&fm->match);
}

struct rec {
	int		n;
	uint8_t		reason[16];
	uint64_t	cookie[16];
	uint32_t	dur[16];
};

static void
removed(void *arg, const struct of_flow_info *fi)
{
	struct rec	*r = arg;

	if (r->n < 16) {
		r->reason[r->n] = fi->reason;
		r->cookie[r->n] = fi->cookie;
		r->dur[r->n] = fi->duration_sec;
	}
	r->n++;
}

static int
apply(struct of_flowtable *ft, const struct of_flow_mod *fm,
    struct of_ft_result *res, struct rec *rec, enum of_err *err)
{
	*err = OF_ERR_NONE;
	return of_flowtable_apply(ft, fm, T0, removed, rec, res, err);
}

/* Cookie and first output port of the flow at (table, prio, match). */
struct probe {
	uint16_t	 prio;
	const struct of_match *match;
	int		 found;
	uint64_t	 cookie;
	size_t		 prog_len;
	uint8_t		 table;
};

static int
probe_cb(void *arg, const struct of_flow_info *fi)
{
	struct probe	*p = arg;

	if (fi->priority == p->prio && of_match_equal(fi->match, p->match)) {
		p->found++;
		p->cookie = fi->cookie;
		p->prog_len = fi->prog_len;
		p->table = fi->table_id;
	}
	return 0;
}

static struct probe
probe(struct of_flowtable *ft, uint16_t prio, const struct of_match *m)
{
	struct of_flow_filter	fl;
	struct probe		p;

	memset(&fl, 0, sizeof(fl));
	fl.table_id = OF_TABLE_ALL;
	fl.out_port = OF_PORT_ANY;
	fl.out_group = OF_GROUP_ANY;
	of_match_init(&fl.match);
	memset(&p, 0, sizeof(p));
	p.prio = prio;
	p.match = m;
	of_flowtable_walk(ft, &fl, T0, probe_cb, &p);
	return p;
}

static void
test_add(void)
{
	struct of_flowtable	*ft = of_flowtable_new(OF_VERSION_13, 4, 100);
	struct of_flow_mod	 fm;
	struct of_ft_result	 res;
	struct rec		 rec = { 0 };
	enum of_err		 err;
	struct probe		 p;

	mod(&fm, OF_FC_ADD, 10, P.out[1], PROG_LEN);
	m_ip(&fm.match, 10, 0, 8);
	fm.cookie = 1;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.added == 1,
	    "add prio 10");
	fm.priority = 20;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.added == 1,
	    "same match, prio 20: a second flow");
	fm.priority = 10;
	fm.cookie = 2;
	fm.prog = P.two;
	fm.prog_len = PROG2_LEN;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.added == 0 &&
	    res.modified == 1, "identical match and prio replaces");
	CHECK(of_flowtable_count(ft, 0) == 2, "two flows");
	p = probe(ft, 10, &fm.match);
	CHECK(p.found == 1 && p.cookie == 2 && p.prog_len == PROG2_LEN,
	    "replacement has new cookie and instructions");
	fm.table_id = 3;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.added == 1,
	    "add in table 3");
	CHECK(of_flowtable_count(ft, 3) == 1 && of_flowtable_total(ft) == 3,
	    "counts per table and total");
	CHECK(of_flowtable_count(ft, OF_TABLE_ALL) == 3, "count ALL");
	fm.table_id = 4;
	CHECK(apply(ft, &fm, &res, &rec, &err) == -1 &&
	    err == OF_ERR_FLOW_BAD_TABLE_ID, "table 4 of 4: bad table");
	fm.table_id = OF_TABLE_ALL;
	CHECK(apply(ft, &fm, &res, &rec, &err) == -1 &&
	    err == OF_ERR_FLOW_BAD_TABLE_ID, "add to OFPTT_ALL: bad table");
	CHECK(rec.n == 0, "no FLOW_REMOVED for a replace");
	CHECK(of_flowtable_shape(ft).n_tables == 4 &&
	    of_flowtable_shape(ft).max_per_table == 100,
	    "n_tables, max_entries");
	of_flowtable_free(ft);
}

static void
test_full(void)
{
	struct of_flowtable	*ft = of_flowtable_new(OF_VERSION_13, 2, 2);
	struct of_flow_mod	 fm;
	struct of_ft_result	 res;
	struct rec		 rec = { 0 };
	enum of_err		 err;

	mod(&fm, OF_FC_ADD, 1, P.out[1], PROG_LEN);
	m_ip(&fm.match, 10, 0, 8);
	apply(ft, &fm, &res, &rec, &err);
	m_ip(&fm.match, 11, 0, 8);
	apply(ft, &fm, &res, &rec, &err);
	m_ip(&fm.match, 12, 0, 8);
	CHECK(apply(ft, &fm, &res, &rec, &err) == -1 &&
	    err == OF_ERR_FLOW_TABLE_FULL, "third flow: table full");
	m_ip(&fm.match, 11, 0, 8);
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.modified == 1,
	    "replace in a full table");
	fm.table_id = 1;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0, "other table has room");
	of_flowtable_free(ft);
}

static void
test_overlap(void)
{
	struct of_flowtable	*ft = of_flowtable_new(OF_VERSION_13, 1, 100);
	struct of_flow_mod	 fm;
	struct of_ft_result	 res;
	struct rec		 rec = { 0 };
	enum of_err		 err;

	mod(&fm, OF_FC_ADD, 10, P.out[1], PROG_LEN);
	m_ip(&fm.match, 10, 0, 8);
	apply(ft, &fm, &res, &rec, &err);
	fm.flags = OF_FF_CHECK_OVERLAP;
	m_ip(&fm.match, 10, 1, 16);
	CHECK(apply(ft, &fm, &res, &rec, &err) == -1 &&
	    err == OF_ERR_FLOW_OVERLAP, "10.1/16 overlaps 10/8 at prio 10");
	fm.priority = 11;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0,
	    "other priority: no overlap");
	fm.priority = 10;
	m_ip(&fm.match, 11, 0, 8);
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0, "11/8 disjoint");
	m_ip(&fm.match, 10, 0, 8);
	CHECK(apply(ft, &fm, &res, &rec, &err) == -1 &&
	    err == OF_ERR_FLOW_OVERLAP, "identical overlaps itself");
	fm.flags = 0;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.modified == 1,
	    "identical without CHECK_OVERLAP replaces");
	CHECK(of_flowtable_count(ft, 0) == 3, "three flows");
	of_flowtable_free(ft);
}

/* eth_type=0x0800, ipv4_dst=10.i (exact: no mask). */
static void
m_dst(struct of_match *m, uint32_t i)
{
	uint8_t	et[2] = { 0x08, 0x00 };
	uint8_t	ip[4] = { 10, i >> 16, i >> 8, i };

	of_match_init(m);
	of_match_set(m, 5, et, NULL, 2);
	of_match_set(m, 12, ip, NULL, 4);
}

static int
add_checked(struct of_flowtable *ft, struct of_flow_mod *fm, uint16_t prio,
    enum of_err *err)
{
	struct of_ft_result	res;
	struct rec		rec = { 0 };

	fm->command = OF_FC_ADD;
	fm->priority = prio;
	fm->flags = OF_FF_CHECK_OVERLAP;
	return apply(ft, fm, &res, &rec, err);
}

/*
 * CHECK_OVERLAP through the priority runs: exact flows of one shape are
 * answered by the hash, a masked or differently shaped flow makes the
 * run walked, and runs stay right as their first and last flows go.
 */
static void
test_overlap_runs(void)
{
	struct of_flowtable	*ft = of_flowtable_new(OF_VERSION_13, 1, 100);
	struct of_flow_mod	 fm;
	struct of_ft_result	 res;
	struct rec		 rec = { 0 };
	enum of_err		 err;
	uint32_t		 i;

	mod(&fm, OF_FC_ADD, 10, P.out[1], PROG_LEN);
	for (i = 1; i <= 3; i++) {
		m_dst(&fm.match, i);
		CHECK(add_checked(ft, &fm, 10, &err) == 0, "exact %u at 10", i);
		CHECK(add_checked(ft, &fm, 20, &err) == 0, "exact %u at 20", i);
	}
	m_dst(&fm.match, 2);
	CHECK(add_checked(ft, &fm, 10, &err) == -1 &&
	    err == OF_ERR_FLOW_OVERLAP, "identical exact flow overlaps");
	m_dst(&fm.match, 4);
	CHECK(add_checked(ft, &fm, 10, &err) == 0, "other exact: no overlap");
	/* eth_type alone, another shape: overlaps every IPv4 flow. */
	m_ip(&fm.match, 0, 0, 0);
	CHECK(add_checked(ft, &fm, 20, &err) == -1 &&
	    err == OF_ERR_FLOW_OVERLAP, "ip-only overlaps exact flows");
	CHECK(add_checked(ft, &fm, 30, &err) == 0, "alone at 30");
	/* A masked dst at 10 makes the run mixed: 10.0.0.5 hits it. */
	m_dst(&fm.match, 0);
	of_match_set(&fm.match, 12, (uint8_t[]){ 10, 0, 0, 0 },
	    (uint8_t[]){ 255, 255, 255, 0 }, 4);
	fm.command = OF_FC_ADD;
	fm.priority = 10;
	fm.flags = 0;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.added == 1,
	    "10.0.0/24 at 10 (unchecked: it covers 10.0.0.1-4)");
	m_dst(&fm.match, 5);
	CHECK(add_checked(ft, &fm, 10, &err) == -1 &&
	    err == OF_ERR_FLOW_OVERLAP, "exact inside a masked flow");
	CHECK(add_checked(ft, &fm, 40, &err) == 0, "exact at 40: alone");
	/* Strict deletes of the first and last flows of run 10. */
	fm.command = OF_FC_DELETE_STRICT;
	fm.flags = 0;
	m_dst(&fm.match, 1);
	fm.priority = 10;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.deleted == 1,
	    "first of run 10 deleted");
	m_dst(&fm.match, 0);
	of_match_set(&fm.match, 12, (uint8_t[]){ 10, 0, 0, 0 },
	    (uint8_t[]){ 255, 255, 255, 0 }, 4);
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.deleted == 1,
	    "last of run 10 deleted");
	m_dst(&fm.match, 1);
	CHECK(add_checked(ft, &fm, 10, &err) == 0, "10.1 again at 10");
	m_dst(&fm.match, 3);
	CHECK(add_checked(ft, &fm, 10, &err) == -1 &&
	    err == OF_ERR_FLOW_OVERLAP, "10.3 still there");
	CHECK(of_flowtable_count(ft, 0) == 9, "nine flows");
	for (i = 1; i <= 4; i++) {
		m_dst(&fm.match, i);
		CHECK(probe(ft, 10, &fm.match).found == 1, "10.%u at 10", i);
	}
	of_flowtable_free(ft);
}

/* 20 000 exact flows at one priority, each add with CHECK_OVERLAP: the
 * hash answers (a walk was 20 000 x 10 000 match compares). */
static void
test_overlap_scale(void)
{
	struct of_flowtable	*ft = of_flowtable_new(OF_VERSION_13, 1, 30000);
	struct of_flow_mod	 fm;
	enum of_err		 err;
	uint32_t		 i, refused = 0;

	mod(&fm, OF_FC_ADD, 100, P.out[1], PROG_LEN);
	for (i = 0; i < 20000; i++) {
		m_dst(&fm.match, i);
		refused += add_checked(ft, &fm, 100, &err) != 0;
	}
	CHECK(refused == 0 && of_flowtable_count(ft, 0) == 20000,
	    "20000 exact adds, none refused");
	m_dst(&fm.match, 12345);
	CHECK(add_checked(ft, &fm, 100, &err) == -1 &&
	    err == OF_ERR_FLOW_OVERLAP, "an identical one is refused");
	of_flowtable_free(ft);
}

/* One masked field into m (mask NULL: exact). */
static void
m_set(struct of_match *m, uint8_t field, const uint8_t *v, const uint8_t *mk,
    size_t len)
{
	if (of_match_set(m, field, v, mk, len) == -1)
		printf("# m_set: field %u refused\n", field);
}

/* A prefix mask of plen bits over len bytes. */
static void
prefix(uint8_t *mask, size_t len, int plen)
{
	int	i;

	memset(mask, 0, len);
	for (i = 0; i < plen; i++)
		mask[i / 8] |= 0x80 >> (i % 8);
}

static int
try_add(struct of_flowtable *ft, const struct of_match *m, uint16_t prio)
{
	struct of_flow_mod	fm;
	enum of_err		err = 0;

	mod(&fm, OF_FC_ADD, prio, P.out[1], PROG_LEN);
	fm.match = *m;
	if (add_checked(ft, &fm, prio, &err) == 0)
		return 0;
	return err == OF_ERR_FLOW_OVERLAP ? 1 : -1;
}

/*
 * Shapes that the index answers by projection: nested, disjoint and
 * partial masks on one field, on different fields, IPv6 prefixes.
 */
static void
test_overlap_masks(void)
{
	struct of_flowtable	*ft = of_flowtable_new(OF_VERSION_13, 1, 100);
	struct of_match		 m;
	uint8_t			 et4[2] = { 8, 0 }, et6[2] = { 0x86, 0xdd };
	uint8_t			 a[16], mk[16];

	/* ipv4_dst 10.1.0.0/16 and ipv4_src 192.168.0.0/16. */
	of_match_init(&m);
	m_set(&m, 5, et4, NULL, 2);
	memcpy(a, (uint8_t[]){ 10, 1, 0, 0 }, 4);
	prefix(mk, 4, 16);
	m_set(&m, 12, a, mk, 4);
	CHECK(try_add(ft, &m, 5) == 0, "10.1/16 dst");
	of_match_init(&m);
	m_set(&m, 5, et4, NULL, 2);
	memcpy(a, (uint8_t[]){ 192, 168, 0, 0 }, 4);
	m_set(&m, 11, a, mk, 4);
	CHECK(try_add(ft, &m, 6) == 0, "192.168/16 src at 6");
	/* Nested: 10/8 holds 10.1/16; 10.1.2/24 inside it. */
	of_match_init(&m);
	m_set(&m, 5, et4, NULL, 2);
	memcpy(a, (uint8_t[]){ 10, 0, 0, 0 }, 4);
	prefix(mk, 4, 8);
	m_set(&m, 12, a, mk, 4);
	CHECK(try_add(ft, &m, 5) == 1, "10/8 over 10.1/16");
	memcpy(a, (uint8_t[]){ 10, 1, 2, 0 }, 4);
	prefix(mk, 4, 24);
	m_set(&m, 12, a, mk, 4);
	CHECK(try_add(ft, &m, 5) == 1, "10.1.2/24 in 10.1/16");
	/* Disjoint: 10.2.2/24 and 11/8. */
	memcpy(a, (uint8_t[]){ 10, 2, 2, 0 }, 4);
	m_set(&m, 12, a, mk, 4);
	CHECK(try_add(ft, &m, 5) == 0, "10.2.2/24 beside 10.1/16");
	memcpy(a, (uint8_t[]){ 11, 0, 0, 0 }, 4);
	prefix(mk, 4, 8);
	m_set(&m, 12, a, mk, 4);
	CHECK(try_add(ft, &m, 5) == 0, "11/8 beside both");
	/* Partial: a non-prefix mask on the last bit, odd vs even. */
	memcpy(a, (uint8_t[]){ 0, 0, 0, 1 }, 4);
	memcpy(mk, (uint8_t[]){ 0, 0, 0, 1 }, 4);
	of_match_init(&m);
	m_set(&m, 5, et4, NULL, 2);
	m_set(&m, 12, a, mk, 4);
	CHECK(try_add(ft, &m, 7) == 0, "odd dst at 7");
	memcpy(a, (uint8_t[]){ 12, 0, 0, 0 }, 4);
	memcpy(mk, (uint8_t[]){ 0xff, 0, 0, 1 }, 4);
	m_set(&m, 12, a, mk, 4);
	CHECK(try_add(ft, &m, 7) == 0, "12/8 even: no odd one in it");
	a[3] = 1;
	m_set(&m, 12, a, mk, 4);
	CHECK(try_add(ft, &m, 7) == 1, "12/8 odd meets odd");
	/* Different fields: src 192.168/16 and any dst overlap at 6. */
	of_match_init(&m);
	m_set(&m, 5, et4, NULL, 2);
	memcpy(a, (uint8_t[]){ 1, 2, 3, 4 }, 4);
	m_set(&m, 12, a, NULL, 4);
	CHECK(try_add(ft, &m, 6) == 1, "dst 1.2.3.4 meets src 192.168/16");
	m_set(&m, 11, a, NULL, 4);
	CHECK(try_add(ft, &m, 6) == 0, "src 1.2.3.4 too: outside");
	/* IPv6: 2001:db8::/32 and a /64 in it, at 8; eth_type apart. */
	of_match_init(&m);
	m_set(&m, 5, et6, NULL, 2);
	memset(a, 0, 16);
	memcpy(a, (uint8_t[]){ 0x20, 1, 0xd, 0xb8 }, 4);
	prefix(mk, 16, 32);
	m_set(&m, 27, a, mk, 16);
	CHECK(try_add(ft, &m, 8) == 0, "2001:db8::/32");
	a[5] = 7;
	prefix(mk, 16, 64);
	m_set(&m, 27, a, mk, 16);
	CHECK(try_add(ft, &m, 8) == 1, "2001:db8:7::/64 in /32");
	a[1] = 2;
	m_set(&m, 27, a, mk, 16);
	CHECK(try_add(ft, &m, 8) == 0, "2002:db8:7::/64 outside");
	a[15] = 9;
	m_set(&m, 27, a, NULL, 16);
	CHECK(try_add(ft, &m, 8) == 1, "host in 2002:db8:7::/64");
	of_match_init(&m);
	m_set(&m, 5, et4, NULL, 2);
	CHECK(try_add(ft, &m, 8) == 0, "ip alone: IPv6 flows apart");
	of_match_init(&m);
	CHECK(try_add(ft, &m, 8) == 1, "match-all meets all");
	CHECK(try_add(ft, &m, 9) == 0, "match-all alone at 9");
	of_flowtable_free(ft);
}

/* Deterministic pseudo-random numbers (a 64-bit LCG). */
static uint32_t
rnd(uint64_t *s, uint32_t n)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*s >> 33) % n;
}

/* A random match, each address byte one of spread values (few: the
 * overlaps are frequent, the table small). */
static void
rnd_match(uint64_t *s, uint32_t spread, struct of_match *m)
{
	static const int	v4p[] = { 8, 16, 24, 31, 32, 32, 32, 32 };
	static const int	v6p[] = { 16, 48, 64, 128, 128, 128 };
	uint8_t			a[16], mk[16], port[2] = { 0, 80 };
	uint8_t			et[2] = { 8, 0 };
	int			i;

	of_match_init(m);
	switch (rnd(s, 4)) {
	case 0:
		if (rnd(s, 10) == 0)
			return;		/* match-all, now and then */
		/* FALLTHROUGH */
	case 1:
		et[0] = 0x86, et[1] = 0xdd;
		m_set(m, 5, et, NULL, 2);
		memset(a, 0, 16);
		for (i = 0; i < 16; i += 3)
			a[i] = rnd(s, spread);
		if ((i = v6p[rnd(s, 6)]) > 0 && rnd(s, 50) != 0) {
			prefix(mk, 16, i);
			m_set(m, 27, a, i < 128 ? mk : NULL, 16);
		}
		return;
	}
	m_set(m, 5, et, NULL, 2);
	for (i = 0; i < 4; i++)
		a[i] = rnd(s, spread) * 0x81;
	if ((i = v4p[rnd(s, 8)]) > 0 && rnd(s, 50) != 0) {
		prefix(mk, 4, i);
		m_set(m, 12, a, i < 32 ? mk : NULL, 4);
	}
	if (rnd(s, 3) == 0) {
		memcpy(mk, (uint8_t[]){ 0x80, 0, 0, 1 }, 4);
		m_set(m, 11, a, mk, 4);
	}
	if (rnd(s, 3) == 0) {
		m_set(m, 10, (uint8_t[]){ 6 }, NULL, 1);
		port[1] += rnd(s, 2);
		m_set(m, 14, port, NULL, 2);
	}
}

#define RND_MAX	600

/*
 * CHECK_OVERLAP against the linear answer (of_match_overlaps() with
 * every flow of the priority, as the table did before its index) on
 * random tables: checked and unchecked adds and strict deletes at three
 * priorities, about 30 shapes (more projections than a group keeps).
 */
static void
overlap_random(uint32_t spread, uint64_t s, uint32_t min_flows,
    uint32_t min_each)
{
	static struct of_match	 have[RND_MAX];
	static uint16_t		 prio[RND_MAX];
	struct of_flowtable	*ft = of_flowtable_new(OF_VERSION_13, 1, 10000);
	struct of_flow_mod	 fm;
	struct of_ft_result	 res;
	struct rec		 rec = { 0 };
	struct of_match		 m;
	enum of_err		 err;
	uint32_t		 n = 0, i, k, bad = 0, yes = 0, no = 0, top = 0;
	uint16_t		 p;
	int			 want, got;

	for (k = 0; k < 20000; k++) {
		rnd_match(&s, spread, &m);
		p = 1 + rnd(&s, 3);
		top = n > top ? n : top;
		if (n > 0 && (rnd(&s, 8) == 0 || n == RND_MAX)) {
			/* Strict delete of one we have. */
			i = rnd(&s, n);
			mod(&fm, OF_FC_DELETE_STRICT, prio[i], NULL, 0);
			fm.match = have[i];
			if (apply(ft, &fm, &res, &rec, &err) != 0 ||
			    res.deleted != 1)
				bad++;
			have[i] = have[--n];
			prio[i] = prio[n];
			continue;
		}
		for (want = 0, i = 0; i < n && !want; i++)
			want = prio[i] == p && of_match_overlaps(&m, &have[i]);
		if (rnd(&s, 5) == 0) {
			/* Unchecked: adds even an overlapping one. */
			mod(&fm, OF_FC_ADD, p, P.out[1], PROG_LEN);
			fm.match = m;
			if (apply(ft, &fm, &res, &rec, &err) != 0)
				bad++;
			got = res.added == 1 ? 0 : 2;
		} else if ((got = try_add(ft, &m, p)) == want)
			want ? yes++ : no++;
		else
			bad++;
		if (got == 0) {
			have[n] = m;
			prio[n++] = p;
		}
	}
	CHECK(bad == 0 && of_flowtable_count(ft, 0) == n,
	    "spread %u: %u disagreements, %u overlaps, %u not, %u flows at most",
	    spread, bad, yes, no, top);
	CHECK(yes >= min_each && no >= min_each && top >= min_flows,
	    "both answers %u times, tables of %u flows", min_each, min_flows);
	of_flowtable_free(ft);
}

static void
test_overlap_random(void)
{
	overlap_random(3, 14, 100, 100);
	overlap_random(200, 15, 400, 300);
}

/* f1 ip 10/8 p10 c0x11, f2 ip 10.1/16 p20 c0x12, f3 arp p10 c0x21. */
static void
three_flows(struct of_flowtable *ft, struct of_match *m)
{
	struct of_flow_mod	fm;
	struct of_ft_result	res;
	struct rec		rec = { 0 };
	enum of_err		err;

	m_ip(&m[0], 10, 0, 8);
	m_ip(&m[1], 10, 1, 16);
	m_arp(&m[2]);
	mod(&fm, OF_FC_ADD, 10, P.out[1], PROG_LEN);
	fm.match = m[0];
	fm.cookie = 0x11;
	apply(ft, &fm, &res, &rec, &err);
	fm.match = m[1];
	fm.priority = 20;
	fm.cookie = 0x12;
	apply(ft, &fm, &res, &rec, &err);
	fm.match = m[2];
	fm.priority = 10;
	fm.cookie = 0x21;
	apply(ft, &fm, &res, &rec, &err);
}

static void
test_modify13(void)
{
	struct of_flowtable	*ft = of_flowtable_new(OF_VERSION_13, 2, 100);
	struct of_flow_mod	 fm;
	struct of_ft_result	 res;
	struct rec		 rec = { 0 };
	struct of_match		 m[3];
	enum of_err		 err;

	three_flows(ft, m);
	mod(&fm, OF_FC_MODIFY, 0, P.out[2], PROG_LEN);
	m_ip(&fm.match, 0, 0, 0);
	fm.cookie = 0x99;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.modified == 2,
	    "modify ip: both ip flows (%u)", res.modified);
	CHECK(probe(ft, 10, &m[0]).cookie == 0x11 &&
	    probe(ft, 20, &m[1]).cookie == 0x12,
	    "1.3 modify keeps the cookie");
	/* Longer instructions: each flow is reallocated, once. */
	fm.prog = P.two;
	fm.prog_len = PROG2_LEN;
	fm.cookie = 0x10;
	fm.cookie_mask = 0xf0;
	of_match_init(&fm.match);
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.modified == 2,
	    "cookie 0x10/0xf0 selects two (%u)", res.modified);
	CHECK(probe(ft, 10, &m[0]).prog_len == PROG2_LEN &&
	    probe(ft, 10, &m[2]).prog_len == PROG_LEN,
	    "only the selected flows changed");
	mod(&fm, OF_FC_MODIFY_STRICT, 10, P.out[3], PROG_LEN);
	fm.match = m[0];
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.modified == 1,
	    "modify strict");
	CHECK(probe(ft, 10, &m[0]).prog_len == PROG_LEN, "shrunk back");
	fm.priority = 11;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.modified == 0 &&
	    res.added == 0, "strict, other prio: nothing, no add in 1.3");
	fm.command = OF_FC_MODIFY;
	m_ip(&fm.match, 12, 0, 8);
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.modified == 0 &&
	    res.added == 0 && of_flowtable_total(ft) == 3,
	    "non-strict, no match: nothing added in 1.3");
	fm.table_id = 1;
	of_match_init(&fm.match);
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.modified == 0,
	    "other table: nothing");
	fm.table_id = OF_TABLE_ALL;
	CHECK(apply(ft, &fm, &res, &rec, &err) == -1 &&
	    err == OF_ERR_FLOW_BAD_TABLE_ID, "modify OFPTT_ALL: bad table");
	of_flowtable_free(ft);
}

static void
test_modify10(void)
{
	struct of_flowtable	*ft = of_flowtable_new(OF_VERSION_10, 1, 100);
	struct of_flow_mod	 fm;
	struct of_ft_result	 res;
	struct rec		 rec = { 0 };
	enum of_err		 err;
	struct probe		 p;

	mod(&fm, OF_FC_ADD, 10, P.out10, sizeof(P.out10));
	m_ip(&fm.match, 10, 0, 8);
	fm.cookie = 5;
	apply(ft, &fm, &res, &rec, &err);
	fm.command = OF_FC_MODIFY;
	fm.cookie = 9;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.modified == 1,
	    "1.0 modify");
	p = probe(ft, 10, &fm.match);
	CHECK(p.cookie == 9, "1.0 modify sets the cookie");
	fm.command = OF_FC_MODIFY_STRICT;
	fm.priority = 11;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.added == 1 &&
	    of_flowtable_total(ft) == 2, "1.0 modify of nothing adds");
	fm.flags = OF_FF_EMERG;
	fm.command = OF_FC_ADD;
	fm.priority = 12;
	CHECK(apply(ft, &fm, &res, &rec, &err) == -1 &&
	    err == OF_ERR_FLOW_TABLE_FULL, "1.0 emergency add refused");
	fm.flags = 0;
	fm.command = OF_FC_DELETE;
	of_match_init(&fm.match);
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.deleted == 2,
	    "1.0 delete all");
	of_flowtable_free(ft);
}

static void
test_delete(void)
{
	struct of_flowtable	*ft = of_flowtable_new(OF_VERSION_13, 2, 100);
	struct of_flow_mod	 fm;
	struct of_ft_result	 res;
	struct rec		 rec = { 0 };
	struct of_match		 m[3];
	enum of_err		 err;

	/* a: 10/8 out 1, b: 10.1/16 out 2, c: arp out 2 (no flag) */
	m_ip(&m[0], 10, 0, 8);
	m_ip(&m[1], 10, 1, 16);
	m_arp(&m[2]);
	mod(&fm, OF_FC_ADD, 10, P.out[1], PROG_LEN);
	fm.flags = OF_FF_SEND_FLOW_REM;
	fm.match = m[0];
	fm.cookie = 0xa;
	apply(ft, &fm, &res, &rec, &err);
	fm.prog = P.out[2];
	fm.match = m[1];
	fm.cookie = 0xb;
	apply(ft, &fm, &res, &rec, &err);
	fm.flags = 0;
	fm.match = m[2];
	fm.cookie = 0xc;
	apply(ft, &fm, &res, &rec, &err);
	/* d: table 1, 10/8 prio 5, cookie 0x100 */
	fm.flags = OF_FF_SEND_FLOW_REM;
	fm.table_id = 1;
	fm.priority = 5;
	fm.match = m[0];
	fm.cookie = 0x100;
	apply(ft, &fm, &res, &rec, &err);
	/* e: table 1, write group 7 */
	fm.prog = P.group7;
	fm.prog_len = sizeof(P.group7);
	fm.match = m[2];
	fm.cookie = 0xe;
	apply(ft, &fm, &res, &rec, &err);
	CHECK(of_flowtable_total(ft) == 5, "five flows");

	mod(&fm, OF_FC_DELETE, 0, NULL, 0);
	m_ip(&fm.match, 0, 0, 0);
	fm.out_port = 2;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.deleted == 1 &&
	    rec.n == 1 && rec.cookie[0] == 0xb &&
	    rec.reason[0] == OF_RR_DELETE, "delete ip out_port 2: b only");

	mod(&fm, OF_FC_DELETE_STRICT, 11, NULL, 0);
	fm.match = m[0];
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.deleted == 0,
	    "strict, wrong priority: nothing");
	fm.priority = 10;
	fm.out_port = 3;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.deleted == 0,
	    "strict, out_port 3 filters it out");
	fm.out_port = 1;
	fm.cookie = 0xb;
	fm.cookie_mask = 0xff;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.deleted == 0,
	    "strict, cookie mask filters it out");
	fm.cookie = 0xa;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.deleted == 1 &&
	    rec.n == 2 && rec.cookie[1] == 0xa, "strict delete a");

	mod(&fm, OF_FC_DELETE, 0, NULL, 0);
	fm.table_id = OF_TABLE_ALL;
	fm.cookie = 0x100;
	fm.cookie_mask = 0xf00;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.deleted == 1 &&
	    rec.n == 3 && rec.cookie[2] == 0x100,
	    "all tables, cookie 0x100/0xf00: d");
	mod(&fm, OF_FC_DELETE, 0, NULL, 0);
	fm.table_id = OF_TABLE_ALL;
	fm.out_group = 8;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.deleted == 0,
	    "out_group 8: nothing");
	fm.out_group = 7;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.deleted == 1 &&
	    rec.n == 4 && rec.cookie[3] == 0xe, "out_group 7: e");
	fm.out_group = OF_GROUP_ANY;
	fm.table_id = 7;
	CHECK(apply(ft, &fm, &res, &rec, &err) == -1 &&
	    err == OF_ERR_FLOW_BAD_TABLE_ID, "delete in table 7 of 2");
	fm.table_id = 0;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.deleted == 1 &&
	    rec.n == 4, "match-all deletes c, no report without flag");
	CHECK(of_flowtable_total(ft) == 0, "empty");
	of_flowtable_free(ft);
}

static void
test_bad(void)
{
	struct of_flowtable	*ft = of_flowtable_new(OF_VERSION_13, 1, 100);
	struct of_flow_mod	 fm;
	struct of_ft_result	 res;
	struct rec		 rec = { 0 };
	enum of_err		 err;

	mod(&fm, 5, 1, NULL, 0);
	CHECK(apply(ft, &fm, &res, &rec, &err) == -1 &&
	    err == OF_ERR_FLOW_BAD_COMMAND, "command 5: bad command");
	mod(&fm, OF_FC_ADD, 1, NULL, 0);
	fm.flags = 0x40;
	CHECK(apply(ft, &fm, &res, &rec, &err) == -1 &&
	    err == OF_ERR_FLOW_BAD_FLAGS, "unknown 1.3 flag");
	fm.flags = OF_FF_NO_PKT_COUNTS | OF_FF_NO_BYT_COUNTS;
	CHECK(apply(ft, &fm, &res, &rec, &err) == 0 && res.added == 1,
	    "no-counts flags accepted, empty instructions");
	CHECK(of_flowtable_apply(ft, &fm, T0, NULL, NULL, NULL, &err) == 0,
	    "NULL callback and result");
	of_flowtable_free(ft);
}

static void
add_timed(struct of_flowtable *ft, uint8_t a, uint16_t idle, uint16_t hard,
    uint16_t flags, uint64_t now)
{
	struct of_flow_mod	fm;
	enum of_err		err;

	mod(&fm, OF_FC_ADD, 1, P.out[1], PROG_LEN);
	m_ip(&fm.match, a, 0, 8);
	fm.idle_timeout = idle;
	fm.hard_timeout = hard;
	fm.flags = flags;
	fm.cookie = a;
	of_flowtable_apply(ft, &fm, now, NULL, NULL, NULL, &err);
}

static void
test_timeouts(void)
{
	struct of_flowtable	*ft = of_flowtable_new(OF_VERSION_13, 2, 100);
	struct of_flow_mod	 fm;
	struct rec		 rec = { 0 };
	enum of_err		 err;
	uint16_t		 rem = OF_FF_SEND_FLOW_REM;

	CHECK(of_flowtable_next_expiry(ft) == 0, "no timeouts: 0");
	CHECK(of_flowtable_expire(ft, T0, removed, &rec) == 0, "nothing");
	add_timed(ft, 1, 10, 0, rem, T0);	/* idle 10 */
	add_timed(ft, 2, 0, 5, rem, T0);	/* hard 5 */
	add_timed(ft, 3, 3, 3, rem, T0);	/* both 3: hard wins */
	add_timed(ft, 4, 0, 0, rem, T0);	/* none */
	add_timed(ft, 5, 2, 0, 0, T0);		/* idle 2, no report */
	CHECK(of_flowtable_next_expiry(ft) == T0 + 2 * SEC, "next at +2s");
	CHECK(of_flowtable_expire(ft, T0 + SEC, removed, &rec) == 0,
	    "+1s: nothing");
	CHECK(of_flowtable_expire(ft, T0 + 2 * SEC, removed, &rec) == 1 &&
	    rec.n == 0, "+2s: flow 5 expires silently");
	CHECK(of_flowtable_expire(ft, T0 + 3 * SEC, removed, &rec) == 1 &&
	    rec.n == 1 && rec.cookie[0] == 3 &&
	    rec.reason[0] == OF_RR_HARD_TIMEOUT && rec.dur[0] == 3,
	    "+3s: flow 3, hard, 3 s old");
	/* RESET_COUNTS restarts the idle timer (no traffic: from now). */
	mod(&fm, OF_FC_MODIFY_STRICT, 1, P.out[2], PROG_LEN);
	m_ip(&fm.match, 1, 0, 8);
	fm.flags = OF_FF_RESET_COUNTS;
	of_flowtable_apply(ft, &fm, T0 + 4 * SEC, NULL, NULL, NULL, &err);
	CHECK(of_flowtable_expire(ft, T0 + 5 * SEC, removed, &rec) == 1 &&
	    rec.n == 2 && rec.cookie[1] == 2 &&
	    rec.reason[1] == OF_RR_HARD_TIMEOUT, "+5s: flow 2, hard");
	CHECK(of_flowtable_next_expiry(ft) == T0 + 14 * SEC,
	    "flow 1 now due at +14s");
	CHECK(of_flowtable_expire(ft, T0 + 10 * SEC, removed, &rec) == 0,
	    "+10s: flow 1 was reset");
	CHECK(of_flowtable_expire(ft, T0 + 14 * SEC, removed, &rec) == 1 &&
	    rec.n == 3 && rec.cookie[2] == 1 &&
	    rec.reason[2] == OF_RR_IDLE_TIMEOUT && rec.dur[2] == 14,
	    "+14s: flow 1, idle, 14 s old");
	CHECK(of_flowtable_next_expiry(ft) == 0 && of_flowtable_total(ft) == 1,
	    "only the untimed flow left");
	/* Replacing a timed flow with an untimed one leaves no timer. */
	add_timed(ft, 6, 0, 5, 0, T0);
	add_timed(ft, 6, 0, 0, 0, T0);
	CHECK(of_flowtable_next_expiry(ft) == 0, "replace dropped the timer");
	add_timed(ft, 7, 0, 5, 0, T0);
	mod(&fm, OF_FC_DELETE, 0, NULL, 0);
	CHECK(of_flowtable_apply(ft, &fm, T0, NULL, NULL, NULL, &err) == 0 &&
	    of_flowtable_next_expiry(ft) == 0, "delete dropped the timer");
	of_flowtable_free(ft);
}

static int
count_cb(void *arg, const struct of_flow_info *fi)
{
	int	*n = arg;

	(void)fi;
	return ++*n >= 2;
}

static void
test_walk(void)
{
	struct of_flowtable	*ft = of_flowtable_new(OF_VERSION_13, 2, 100);
	struct of_flow_filter	 fl;
	struct of_match		 m[3];
	uint64_t		 pk, by;
	uint32_t		 flows;
	int			 n = 0;

	three_flows(ft, m);
	memset(&fl, 0, sizeof(fl));
	fl.table_id = OF_TABLE_ALL;
	fl.out_port = OF_PORT_ANY;
	fl.out_group = OF_GROUP_ANY;
	m_ip(&fl.match, 10, 0, 8);
	of_flowtable_aggregate(ft, &fl, &pk, &by, &flows);
	CHECK(flows == 2 && pk == 0 && by == 0, "aggregate 10/8: 2 flows");
	fl.cookie = 0x20;
	fl.cookie_mask = 0xf0;
	of_match_init(&fl.match);
	of_flowtable_aggregate(ft, &fl, &pk, &by, &flows);
	CHECK(flows == 1, "aggregate cookie 0x20/0xf0: 1 flow");
	fl.cookie_mask = 0;
	CHECK(of_flowtable_walk(ft, &fl, T0, count_cb, &n) == 2 && n == 2,
	    "walk stops when the callback asks");
	fl.out_port = 2;
	of_flowtable_aggregate(ft, &fl, &pk, &by, &flows);
	CHECK(flows == 0, "out_port 2: none");
	fl.table_id = 1;
	fl.out_port = OF_PORT_ANY;
	of_flowtable_aggregate(ft, &fl, &pk, &by, &flows);
	CHECK(flows == 0, "table 1: none");
	fl.table_id = 2;
	CHECK(of_flowtable_walk(ft, &fl, T0, count_cb, &n) == -1,
	    "walk of table 2 of 2: -1");
	of_flowtable_free(ft);
}

#define SCALE	200000

static void
scale_match(struct of_match *m, uint32_t i)
{
	uint8_t	et[2] = { 0x08, 0x00 };
	uint8_t	ip[4] = { 10, i >> 16, i >> 8, i };

	of_match_init(m);
	of_match_set(m, 5, et, NULL, 2);
	of_match_set(m, 12, ip, NULL, 4);
}

static void
test_scale(void)
{
	struct of_flowtable	*ft = of_flowtable_new(OF_VERSION_13, 1,
				    1000000);
	struct of_flow_mod	 fm;
	struct of_ft_result	 res;
	enum of_err		 err;
	uint32_t		 i, added = 0, deleted = 0;

	mod(&fm, OF_FC_ADD, 100, P.out[1], PROG_LEN);
	for (i = 0; i < SCALE; i++) {
		scale_match(&fm.match, i);
		if (of_flowtable_apply(ft, &fm, T0, NULL, NULL, &res,
		    &err) == 0)
			added += res.added;
	}
	CHECK(added == SCALE && of_flowtable_count(ft, 0) == SCALE,
	    "%u flows added", added);
	fm.command = OF_FC_MODIFY_STRICT;
	scale_match(&fm.match, SCALE / 2);
	CHECK(of_flowtable_apply(ft, &fm, T0, NULL, NULL, &res, &err) == 0 &&
	    res.modified == 1, "strict modify finds one of %u", SCALE);
	fm.command = OF_FC_DELETE_STRICT;
	for (i = 0; i < SCALE; i++) {
		scale_match(&fm.match, i);
		if (of_flowtable_apply(ft, &fm, T0, NULL, NULL, &res,
		    &err) == 0)
			deleted += res.deleted;
	}
	CHECK(deleted == SCALE && of_flowtable_total(ft) == 0,
	    "%u flows deleted strictly", deleted);
	of_flowtable_free(ft);
}

/* The watch flow monitors use (of_flowtable_watch): every change, in
 * order, with the flow as it is then; none once unwatched. */
struct watch_rec {
	int		n;
	uint16_t	event[8];
	uint16_t	prio[8];
	uint8_t		reason[8];
	uint16_t	prog_len[8];
};

static void
watched(void *arg, uint16_t event, const struct of_flow_info *fi)
{
	struct watch_rec	*w = arg;

	if (w->n < 8) {
		w->event[w->n] = event;
		w->prio[w->n] = fi->priority;
		w->reason[w->n] = fi->reason;
		w->prog_len[w->n] = (uint16_t)fi->prog_len;
	}
	w->n++;
}

static void
test_watch(void)
{
	struct of_flowtable	*ft = of_flowtable_new(OF_VERSION_14, 4, 100);
	struct of_flow_mod	 fm;
	struct of_ft_result	 res;
	struct watch_rec	 w;
	struct rec		 rec;
	enum of_err		 err;
	static const uint16_t	 want_ev[] = { OF_FME_ADDED, OF_FME_MODIFIED,
	    OF_FME_MODIFIED, OF_FME_ADDED, OF_FME_REMOVED, OF_FME_REMOVED };

	memset(&w, 0, sizeof(w));
	memset(&rec, 0, sizeof(rec));
	memset(&res, 0, sizeof(res));
	of_flowtable_watch(ft, watched, &w);
	mod(&fm, OF_FC_ADD, 5, P.out[1], PROG_LEN);
	apply(ft, &fm, &res, &rec, &err);	/* added */
	apply(ft, &fm, &res, &rec, &err);	/* replaced */
	mod(&fm, OF_FC_MODIFY, 0, P.two, PROG2_LEN);
	apply(ft, &fm, &res, &rec, &err);	/* modified */
	mod(&fm, OF_FC_ADD, 6, P.out[2], PROG_LEN);
	fm.hard_timeout = 1;
	apply(ft, &fm, &res, &rec, &err);	/* added */
	mod(&fm, OF_FC_DELETE_STRICT, 5, NULL, 0);
	apply(ft, &fm, &res, &rec, &err);	/* removed: delete */
	of_flowtable_expire(ft, T0 + 2 * SEC, removed, &rec);
	CHECK(w.n == 6 && memcmp(w.event, want_ev, sizeof(want_ev)) == 0,
	    "events in order (%d)", w.n);
	CHECK(w.prog_len[2] == PROG2_LEN && w.prio[4] == 5 &&
	    w.reason[4] == OF_RR_DELETE && w.prio[5] == 6 &&
	    w.reason[5] == OF_RR_HARD_TIMEOUT, "flows as they were then");
	of_flowtable_watch(ft, NULL, NULL);
	mod(&fm, OF_FC_ADD, 7, P.out[1], PROG_LEN);
	apply(ft, &fm, &res, &rec, &err);
	CHECK(w.n == 6, "unwatched: nothing");
	of_flowtable_free(ft);
}

static const struct check_case cases[] = {
	CASE(test_add),
	CASE(test_watch),
	CASE(test_full),
	CASE(test_overlap),
	CASE(test_overlap_runs),
	CASE(test_overlap_scale),
	CASE(test_overlap_masks),
	CASE(test_overlap_random),
	CASE(test_modify13),
	CASE(test_modify10),
	CASE(test_delete),
	CASE(test_bad),
	CASE(test_timeouts),
	CASE(test_walk),
	CASE(test_scale),
};

int
main(int argc, char **argv)
{
	progs_init();
	return check_run(cases, argc, argv);
}
