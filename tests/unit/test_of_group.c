/*
 * The group table and GROUP_MOD (OpenFlow 1.3.5 sections 6.5, 7.3.4.2
 * and 7.4.4): decode and encode, ADD/MODIFY/DELETE and their errors, the
 * buckets read back byte-identical in GROUP_DESC, the bound, and
 * BAD_OUT_GROUP for a flow naming a missing group.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "of_actions.h"
#include "of_codec.h"
#include "of_flowtable.h"
#include "of_group.h"
#include "of_codec14.h"
#include "ofp14.h"

#define NPORTS	4

/* ofp_bucket: len 32, weight, watch_port, watch_group, pad, OUTPUT. */
#define BUCKET(w, wp, p)						\
	0, 32, 0, (w), 0, 0, 0, (wp), 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, \
	0, 0, 0, 16, 0, 0, 0, (p), 0xff, 0xe5, 0, 0, 0, 0, 0, 0
#define ANY	0xff, 0xff, 0xff, 0xff
/* A bucket with a GROUP action: chaining. */
#define BUCKET_GROUP(g)							\
	0, 24, 0, 0, ANY, ANY, 0, 0, 0, 0, 0, 22, 0, 8, 0, 0, 0, (g)

/* A fast-failover bucket watching group g (no port), output p. */
#define BUCKET_WG(g, p)							\
	0, 32, 0, 0, ANY, 0, 0, 0, (g), 0, 0, 0, 0,			\
	0, 0, 0, 16, 0, 0, 0, (p), 0xff, 0xe5, 0, 0, 0, 0, 0, 0

static const struct of_group_limits lim = { NPORTS, 3, 8 };
static const struct of_group_limits lim_chain = { NPORTS, 64, 3 };
static uint32_t deleted[8];
static int n_deleted;

static void
on_deleted(void *arg, uint32_t id)
{
	(void)arg;
	if (n_deleted < 8)
		deleted[n_deleted++] = id;
}

static enum of_err
mod_lim(struct of_groups **gt, const struct of_group_limits *l, uint16_t cmd,
    uint8_t type, uint32_t id, const uint8_t *b, size_t len)
{
	struct of_group_mod	gm = { cmd, type, id, b, len, 0 };
	enum of_err		err = OF_ERR_NONE;

	if (of_groups_apply(gt, &gm, l, 1000, on_deleted, NULL, &err) == 0)
		return OF_ERR_NONE;
	return err == OF_ERR_NONE ? OF_ERR__MAX : err;
}

static enum of_err
mod(struct of_groups **gt, uint16_t cmd, uint8_t type, uint32_t id,
    const uint8_t *b, size_t len)
{
	return mod_lim(gt, &lim, cmd, type, id, b, len);
}

static void
test_codec_roundtrip(void)
{
	static const uint8_t	 b[] = { BUCKET(0, 0, 1) };
	struct of_group_mod	 gm = { OF_GC_ADD, OF_GT_SELECT, 7, b,
	    sizeof(b), 0 }, back;
	struct of_header	 h;
	struct rbuf		 r;
	struct wbuf		 w;
	uint8_t			 buf[256];
	enum of_err		 err = OF_ERR_NONE;

	wbuf_init(&w, buf, sizeof(buf));
	CHECK(of_group_mod_encode(&w, 9, &gm) == 0, "encode");
	CHECK(w.len == 16 + sizeof(b), "length %zu", w.len);
	rbuf_init(&r, buf, w.len);
	CHECK(of_header_decode(&r, &h) == 0 && h.length == w.len,
	    "header");
	CHECK(of_group_mod_decode(&r, &back, &err) == 0, "decode");
	CHECK(back.command == OF_GC_ADD && back.type == OF_GT_SELECT &&
	    back.group_id == 7, "fields");
	CHECK(back.buckets_len == sizeof(b) &&
	    memcmp(back.buckets, b, sizeof(b)) == 0, "buckets");
	rbuf_init(&r, buf + 8, 7);
	CHECK(of_group_mod_decode(&r, &back, &err) == -1 &&
	    err == OF_ERR_BAD_LEN, "short body");
}

static void
test_add_modify_delete(void)
{
	static const uint8_t	 two[] = { BUCKET(0, 0, 1), BUCKET(0, 0, 2) };
	static const uint8_t	 one[] = { BUCKET(0, 0, 3) };
	struct of_groups	*gt = NULL;

	CHECK(mod(&gt, OF_GC_DELETE, 0, 5, NULL, 0) == OF_ERR_NONE &&
	    gt == NULL, "delete on no table: nothing made");
	CHECK(mod(&gt, OF_GC_ADD, OF_GT_ALL, 1, two, sizeof(two)) ==
	    OF_ERR_NONE && of_groups_count(gt) == 1, "add");
	CHECK(mod(&gt, OF_GC_ADD, OF_GT_ALL, 1, one, sizeof(one)) ==
	    OF_ERR_GROUP_EXISTS, "add existing");
	CHECK(mod(&gt, OF_GC_MODIFY, OF_GT_ALL, 2, one, sizeof(one)) ==
	    OF_ERR_GROUP_UNKNOWN, "modify unknown");
	CHECK(mod(&gt, OF_GC_MODIFY, OF_GT_INDIRECT, 1, one, sizeof(one)) ==
	    OF_ERR_NONE && of_groups_count(gt) == 1, "modify");
	CHECK(mod(&gt, OF_GC_ADD, OF_GT_ALL, 0xffffff01u, one, sizeof(one)) ==
	    OF_ERR_GROUP_INVALID, "reserved id");
	CHECK(mod(&gt, 7, OF_GT_ALL, 3, one, sizeof(one)) ==
	    OF_ERR_GROUP_BAD_COMMAND, "bad command");
	n_deleted = 0;
	CHECK(mod(&gt, OF_GC_DELETE, 0, 9, NULL, 0) == OF_ERR_NONE &&
	    n_deleted == 0, "delete missing: no error");
	CHECK(mod(&gt, OF_GC_DELETE, 0, 1, NULL, 0) == OF_ERR_NONE &&
	    n_deleted == 0 && !of_groups_has(gt, 1),
	    "delete (no flows name it: nothing to remove)");
	of_groups_free(gt);
}

static void
test_buckets(void)
{
	static const uint8_t	 one[] = { BUCKET(0, 0, 1) };
	static const uint8_t	 two[] = { BUCKET(0, 0, 1), BUCKET(0, 0, 2) };
	static const uint8_t	 badport[] = { BUCKET(0, 0, 9) };
	static const uint8_t	 ff_ok[] = { BUCKET(0, 1, 1) };
	static const uint8_t	 ff_nowatch[] = { BUCKET(0, 9, 1) };
	static const uint8_t	 chain[] = { BUCKET_GROUP(1) };
	static const uint8_t	 cut[] = { BUCKET(0, 0, 1) };
	struct of_groups	*gt = NULL;

	CHECK(mod(&gt, OF_GC_ADD, 4, 1, one, sizeof(one)) ==
	    OF_ERR_GROUP_BAD_TYPE, "bad type");
	CHECK(mod(&gt, OF_GC_ADD, OF_GT_INDIRECT, 1, two, sizeof(two)) ==
	    OF_ERR_GROUP_INVALID, "indirect with two buckets");
	CHECK(mod(&gt, OF_GC_ADD, OF_GT_ALL, 1, badport, sizeof(badport)) ==
	    OF_ERR_BAD_OUT_PORT, "bucket action checked");
	CHECK(mod(&gt, OF_GC_ADD, OF_GT_FF, 1, ff_nowatch,
	    sizeof(ff_nowatch)) == OF_ERR_GROUP_BAD_WATCH, "bad watch port");
	CHECK(mod(&gt, OF_GC_ADD, OF_GT_FF, 1, one, sizeof(one)) ==
	    OF_ERR_GROUP_BAD_WATCH, "fast failover watching nothing");
	CHECK(mod(&gt, OF_GC_ADD, OF_GT_ALL, 1, chain, sizeof(chain)) ==
	    OF_ERR_GROUP_LOOP, "a group forwarding to itself");
	CHECK(mod(&gt, OF_GC_ADD, OF_GT_ALL, 1, cut, sizeof(cut) - 8) ==
	    OF_ERR_GROUP_BAD_BUCKET, "bucket past the message");
	CHECK(gt == NULL, "refused adds made no table");
	CHECK(mod(&gt, OF_GC_ADD, OF_GT_FF, 1, ff_ok, sizeof(ff_ok)) ==
	    OF_ERR_NONE, "fast failover watching port 1");
	of_groups_free(gt);
}

static void
test_bound_and_delete_all(void)
{
	static const uint8_t	 one[] = { BUCKET(0, 0, 1) };
	struct of_groups	*gt = NULL;
	uint32_t		 id;

	for (id = 1; id <= lim.max_groups; id++)
		CHECK(mod(&gt, OF_GC_ADD, OF_GT_ALL, id, one, sizeof(one)) ==
		    OF_ERR_NONE, "add %u", id);
	CHECK(mod(&gt, OF_GC_ADD, OF_GT_ALL, id, one, sizeof(one)) ==
	    OF_ERR_GROUP_OUT_OF_GROUPS, "past --max-groups");
	CHECK(mod(&gt, OF_GC_MODIFY, OF_GT_ALL, 1, one, sizeof(one)) ==
	    OF_ERR_NONE, "modify at the bound");
	n_deleted = 0;
	CHECK(mod(&gt, OF_GC_DELETE, 0, OF_GROUP_ALL, NULL, 0) ==
	    OF_ERR_NONE && n_deleted == 0 && of_groups_count(gt) == 0,
	    "delete all (no flows)");
	n_deleted = 0;
	CHECK(mod(&gt, OF_GC_DELETE, 0, OF_GROUP_ALL, NULL, 0) ==
	    OF_ERR_NONE && n_deleted == 0, "delete all of none");
	of_groups_free(gt);
}

static void
desc_visit(void *arg, struct of_group_info *gi)
{
	of_mp_reply_add_group_desc(arg, gi);
}

/* GROUP_DESC carries the buckets exactly as GROUP_MOD gave them. */
static void
test_desc_byte_identical(void)
{
	static const uint8_t	 b[] = { BUCKET(7, 0, 1), BUCKET(9, 0, 2) };
	struct of_groups	*gt = NULL;
	struct of_mp_reply	 mr;
	struct wbuf		 w;
	uint8_t			 buf[512];
	const size_t		 ent = 16;	/* header + multipart */

	CHECK(mod(&gt, OF_GC_ADD, OF_GT_SELECT, 42, b, sizeof(b)) ==
	    OF_ERR_NONE, "add select");
	wbuf_init(&w, buf, sizeof(buf));
	of_mp_reply_begin(&mr, &w, OF_VERSION_13, 1, OF_MP_GROUP_DESC, 0,
	    NULL, NULL);
	of_groups_walk(gt, OF_GROUP_ALL, 2000, desc_visit, &mr);
	CHECK(of_mp_reply_end(&mr) == 0, "reply");
	CHECK(w.len == ent + 8 + sizeof(b), "reply length %zu", w.len);
	CHECK(buf[ent] == 0 && buf[ent + 1] == 8 + sizeof(b) &&
	    buf[ent + 2] == OF_GT_SELECT && buf[ent + 7] == 42, "entry");
	CHECK(memcmp(buf + ent + 8, b, sizeof(b)) == 0, "buckets as given");
	of_groups_free(gt);
}

/* A FLOW_MOD's GROUP action must name an existing group. */
static void
test_flow_out_group(void)
{
	static const uint8_t	 one[] = { BUCKET(0, 0, 1) };
	/* APPLY_ACTIONS (len 16) with GROUP 5. */
	static const uint8_t	 inst[] = { 0, 4, 0, 16, 0, 0, 0, 0,
	    0, 22, 0, 8, 0, 0, 0, 5 };
	struct of_groups	*gt = NULL;
	enum of_err		 err = OF_ERR_NONE;

	CHECK(of_instructions_check(inst, sizeof(inst), 0, 4, NPORTS, 1, gt,
	    &err) == -1 && err == OF_ERR_BAD_OUT_GROUP, "no groups at all");
	CHECK(mod(&gt, OF_GC_ADD, OF_GT_ALL, 5, one, sizeof(one)) ==
	    OF_ERR_NONE, "add 5");
	CHECK(of_instructions_check(inst, sizeof(inst), 0, 4, NPORTS, 1, gt,
	    &err) == 0, "group 5 exists");
	CHECK(of_instructions_validate(inst, sizeof(inst), 0, 4, NPORTS,
	    &err) == 0, "without the check: any group id");
	CHECK(of_prog_uses_group(OF_VERSION_13, inst, sizeof(inst), 5) &&
	    !of_prog_uses_group(OF_VERSION_13, inst, sizeof(inst), 6) &&
	    of_prog_uses_group(OF_VERSION_13, inst, sizeof(inst),
	    OF_GROUP_ALL) &&
	    !of_prog_uses_group(OF_VERSION_13, inst + 8, 0, OF_GROUP_ALL),
	    "OFPG_ALL as a filter selects any group action");
	of_groups_free(gt);
}

static void
one_ref(void *arg, struct of_group_info *gi)
{
	*(uint32_t *)arg = gi->ref_count;
}

static uint32_t
ref_count(const struct of_groups *gt, uint32_t id)
{
	uint32_t	n = UINT32_MAX;

	of_groups_walk(gt, id, 2000, one_ref, &n);
	return n;
}

#define ADD(id, type, b)	mod_lim(&gt, &lim_chain, OF_GC_ADD, (type), \
				    (id), (b), sizeof(b))
#define MODIFY(id, type, b)	mod_lim(&gt, &lim_chain, OF_GC_MODIFY, \
				    (type), (id), (b), sizeof(b))
#define DELETE(id)		mod_lim(&gt, &lim_chain, OF_GC_DELETE, 0, \
				    (id), NULL, 0)

/* Chaining (1.3.5 sections 5.6.1, 6.5, 7.4.4): a bucket forwards to an
 * existing group; LOOP, the depth bound, CHAINED_GROUP on delete, and
 * ref_count counting the groups that forward (7.3.5.9), once each. */
static void
test_chaining(void)
{
	static const uint8_t	 leaf[] = { BUCKET(0, 0, 1) };
	static const uint8_t	 to1[] = { BUCKET_GROUP(1) };
	static const uint8_t	 to1twice[] = { BUCKET_GROUP(1),
	    BUCKET_GROUP(1) };
	static const uint8_t	 to2[] = { BUCKET_GROUP(2) };
	static const uint8_t	 to3[] = { BUCKET_GROUP(3) };
	static const uint8_t	 to5[] = { BUCKET_GROUP(5) };
	static const uint8_t	 to9[] = { BUCKET_GROUP(9) };
	struct of_groups	*gt = NULL;

	CHECK(ADD(1, OF_GT_ALL, leaf) == OF_ERR_NONE &&
	    ADD(2, OF_GT_INDIRECT, to1) == OF_ERR_NONE, "2 forwards to 1");
	CHECK(ref_count(gt, 1) == 1 && ref_count(gt, 2) == 0, "ref_count");
	CHECK(ADD(3, OF_GT_ALL, to9) == OF_ERR_BAD_OUT_GROUP,
	    "forwarding to a missing group");
	CHECK(ADD(3, OF_GT_ALL, to3) == OF_ERR_GROUP_LOOP, "to itself");
	CHECK(ADD(3, OF_GT_ALL, to2) == OF_ERR_NONE, "3 -> 2 -> 1: depth 3");
	CHECK(ADD(4, OF_GT_ALL, to3) == OF_ERR_GROUP_CHAINING,
	    "4 -> 3 -> 2 -> 1 past the depth of 3");
	CHECK(MODIFY(1, OF_GT_ALL, to3) == OF_ERR_GROUP_LOOP,
	    "modify closing 1 -> 3 -> 2 -> 1");
	CHECK(ADD(5, OF_GT_ALL, leaf) == OF_ERR_NONE &&
	    MODIFY(1, OF_GT_ALL, to5) == OF_ERR_GROUP_CHAINING,
	    "modify at the bottom lengthening the chain above it");
	CHECK(MODIFY(2, OF_GT_ALL, to5) == OF_ERR_NONE &&
	    MODIFY(1, OF_GT_ALL, to5) == OF_ERR_NONE &&
	    ref_count(gt, 5) == 2 && ref_count(gt, 1) == 0,
	    "modify moves the references");
	CHECK(DELETE(5) == OF_ERR_GROUP_CHAINED && of_groups_has(gt, 5),
	    "a group others forward to stays");
	CHECK(ADD(6, OF_GT_ALL, to1twice) == OF_ERR_NONE &&
	    ref_count(gt, 1) == 1, "a group naming it twice counts once");
	CHECK(DELETE(6) == OF_ERR_NONE && ref_count(gt, 1) == 0 &&
	    DELETE(1) == OF_ERR_NONE, "delete from the top down");
	CHECK(DELETE(3) == OF_ERR_NONE && DELETE(2) == OF_ERR_NONE &&
	    ref_count(gt, 5) == 0 && DELETE(5) == OF_ERR_NONE &&
	    of_groups_count(gt) == 0, "all gone");
	of_groups_free(gt);
}

/* A fast-failover bucket may watch a group (1.3.5 section 6.5); the
 * watch counts for loops but not in ref_count (it does not forward). */
static void
test_watch_group(void)
{
	static const uint8_t	 leaf[] = { BUCKET(0, 0, 1) };
	static const uint8_t	 watch10[] = { BUCKET_WG(10, 1) };
	static const uint8_t	 watch12[] = { BUCKET_WG(12, 1) };
	static const uint8_t	 to11[] = { BUCKET_GROUP(11) };
	struct of_groups	*gt = NULL;

	CHECK(ADD(11, OF_GT_FF, watch12) == OF_ERR_GROUP_BAD_WATCH,
	    "watching a missing group");
	CHECK(ADD(10, OF_GT_ALL, leaf) == OF_ERR_NONE &&
	    ADD(11, OF_GT_FF, watch10) == OF_ERR_NONE &&
	    ref_count(gt, 10) == 0, "11 watches 10");
	CHECK(MODIFY(10, OF_GT_ALL, to11) == OF_ERR_GROUP_LOOP,
	    "10 forwarding to the group watching it");
	CHECK(DELETE(10) == OF_ERR_NONE, "a watched group may go");
	CHECK(ADD(10, OF_GT_ALL, to11) == OF_ERR_GROUP_LOOP,
	    "nor come back forwarding to its watcher");
	of_groups_free(gt);
}

static void
count_visit(void *arg, struct of_group_info *gi)
{
	(void)gi;
	(*(uint32_t *)arg)++;
}

/* The table by id (open addressing, deletion moving entries back): many
 * ids, scattered and sequential, a third deleted, every other found. */
static void
test_many(void)
{
	static const struct of_group_limits big = { NPORTS, 10000, 8 };
	static const uint8_t	 one[] = { BUCKET(0, 0, 1) };
	struct of_groups	*gt = NULL;
	uint32_t		 i, id, bad = 0, seen = 0;

	for (i = 0; i < 6000; i++) {
		id = i < 3000 ? i * 7919u % 0xfffff00u : i;
		if (mod_lim(&gt, &big, OF_GC_ADD, OF_GT_ALL, id, one,
		    sizeof(one)) != OF_ERR_NONE)
			bad++;
	}
	CHECK(bad == 0 && of_groups_count(gt) == 6000, "6000 added");
	for (i = 0; i < 6000; i += 3) {
		id = i < 3000 ? i * 7919u % 0xfffff00u : i;
		if (mod_lim(&gt, &big, OF_GC_DELETE, 0, id, NULL, 0) !=
		    OF_ERR_NONE)
			bad++;
	}
	for (i = 0; i < 6000; i++) {
		id = i < 3000 ? i * 7919u % 0xfffff00u : i;
		if (of_groups_has(gt, id) != (i % 3 != 0))
			bad++;
	}
	of_groups_walk(gt, OF_GROUP_ALL, 2000, count_visit, &seen);
	CHECK(bad == 0 && of_groups_count(gt) == 4000 && seen == 4000,
	    "a third deleted, the rest found (%u wrong, %u walked)", bad,
	    seen);
	of_groups_free(gt);
}

static int	port_up[NPORTS + 1];

static int
live(void *arg, uint32_t port)
{
	(void)arg;
	return port >= 1 && port <= NPORTS && port_up[port];
}

/* Send one packet (hash h) to group g; the ports it left by, as digits
 * ("2", "13"), or "drop", or "bad". */
static const char *
send_to(struct of_groups *gt, uint32_t g, uint32_t h)
{
	static char		 out[16];
	uint8_t			 act[8] = { 0, 22, 0, 8, 0, 0, 0, (uint8_t)g };
	uint32_t		 ports[8];
	struct of_group_packet	 pk = { live, NULL, h, 100, ports, 8, 0, 0, 0 };
	enum of_err		 err = OF_ERR_NONE;
	size_t			 i;

	if (of_groups_send(gt, act, sizeof(act), &pk, &err) < 0)
		return err == OF_ERR_BAD_OUT_GROUP ? "bad" : "?";
	if (pk.n == 0)
		return "drop";
	for (i = 0; i < pk.n && i < sizeof(out) - 1; i++)
		out[i] = (char)('0' + ports[i]);
	out[i] = '\0';
	return out;
}

struct counts {
	uint32_t	id;
	uint64_t	c[8];
};

static void
counts_visit(void *arg, struct of_group_info *gi)
{
	struct counts	*c = arg;
	size_t		 i;

	memset(c->c, 0, sizeof(c->c));
	for (i = 0; gi->counters != NULL && i < 8 &&
	    i < OF_GROUP_COUNTERS(gi->n_buckets); i++)
		c->c[i] = gi->counters[i];
}

/* Fast-failover liveness (1.3.5 section 6.5) and the path of a packet
 * through the groups (5.6.1): the first live bucket, a watched group's
 * liveness, chains, a SELECT by weight, and the counters of what went. */
static void
test_failover(void)
{
	static const uint8_t	 ff[] = { BUCKET(0, 1, 1), BUCKET(0, 2, 2) };
	static const uint8_t	 all[] = { BUCKET_GROUP(1), BUCKET(0, 0, 3) };
	static const uint8_t	 wg[] = { BUCKET_WG(1, 4), BUCKET(0, 3, 3) };
	static const uint8_t	 sel[] = { BUCKET(0, 0, 1), BUCKET(5, 0, 2) };
	struct of_groups	*gt = NULL;
	struct counts		 c = { 1, { 0 } };
	int			 p;

	for (p = 1; p <= NPORTS; p++)
		port_up[p] = 1;
	CHECK(ADD(1, OF_GT_FF, ff) == OF_ERR_NONE &&
	    ADD(3, OF_GT_ALL, all) == OF_ERR_NONE &&
	    ADD(4, OF_GT_FF, wg) == OF_ERR_NONE &&
	    ADD(5, OF_GT_SELECT, sel) == OF_ERR_NONE, "groups added");
	CHECK(strcmp(send_to(gt, 1, 0), "1") == 0, "primary up: port 1");
	port_up[1] = 0;
	CHECK(strcmp(send_to(gt, 1, 0), "2") == 0, "port 1 down: backup");
	CHECK(strcmp(send_to(gt, 3, 0), "23") == 0, "ALL through a chain");
	CHECK(strcmp(send_to(gt, 4, 0), "4") == 0, "watched group live");
	port_up[2] = 0;
	CHECK(strcmp(send_to(gt, 1, 0), "drop") == 0, "no live bucket");
	CHECK(strcmp(send_to(gt, 4, 0), "3") == 0, "watched group dead");
	port_up[1] = 1;
	CHECK(strcmp(send_to(gt, 1, 0), "1") == 0, "port 1 back");
	CHECK(strcmp(send_to(gt, 5, 7), "2") == 0 &&
	    strcmp(send_to(gt, 5, 12345), "2") == 0, "SELECT: weight 0 never");
	CHECK(strcmp(send_to(gt, 9, 0), "bad") == 0, "missing group");
	/* Group 1 took 6 packets: to port 1, 2, 2 (via 3), 2 (via 4's
	 * watch? no: liveness reads, it sends nothing), drop, 1. */
	c.id = 1;
	of_groups_walk(gt, 1, 2000, counts_visit, &c);
	CHECK(c.c[0] == 5 && c.c[1] == 500 && c.c[2] == 2 && c.c[3] == 200 &&
	    c.c[4] == 2, "group 1: %llu packets, bucket 1 %llu, bucket 2 %llu",
	    (unsigned long long)c.c[0], (unsigned long long)c.c[2],
	    (unsigned long long)c.c[4]);
	of_groups_walk(gt, 5, 2000, counts_visit, &c);
	CHECK(c.c[0] == 2 && c.c[2] == 0 && c.c[4] == 2, "select counts");
	of_groups_free(gt);
}

/* ALL groups forwarding to ALL groups multiply a packet's copies: the
 * buckets one packet takes are bounded (OF_GROUP_COPIES_MAX). */
static void
test_copies_bounded(void)
{
	static const uint8_t	 leaf[] = { BUCKET(0, 0, 1) };
	static const uint8_t	 to21[] = { BUCKET_GROUP(21) };
	static const uint8_t	 to22[] = { BUCKET_GROUP(22) };
	static const uint8_t	 act[] = { 0, 22, 0, 8, 0, 0, 0, 20 };
	uint8_t			 fan21[64 * sizeof(to21)];
	uint8_t			 fan22[64 * sizeof(to22)];
	uint32_t		 ports[8];
	struct of_group_packet	 pk = { live, NULL, 0, 60, ports, 8, 0, 0, 0 };
	struct of_groups	*gt = NULL;
	enum of_err		 err = OF_ERR_NONE;
	int			 i;

	for (i = 0; i < 64; i++) {
		memcpy(fan21 + i * sizeof(to21), to21, sizeof(to21));
		memcpy(fan22 + i * sizeof(to22), to22, sizeof(to22));
	}
	for (i = 1; i <= NPORTS; i++)
		port_up[i] = 1;
	CHECK(ADD(22, OF_GT_ALL, leaf) == OF_ERR_NONE &&
	    ADD(21, OF_GT_ALL, fan22) == OF_ERR_NONE &&
	    ADD(20, OF_GT_ALL, fan21) == OF_ERR_NONE, "64 x 64 copies");
	CHECK(of_groups_send(gt, act, sizeof(act), &pk, &err) == 1 &&
	    pk.truncated && pk.buckets_taken == OF_GROUP_COPIES_MAX &&
	    pk.n == 8, "stopped at %u buckets", pk.buckets_taken);
	of_groups_free(gt);
}

/* ref_count counts the flows naming a group (7.3.5.9), each once, kept
 * live by the flow table's hooks; a group's delete lists its flows (the
 * callback removes them, here as the flow table's off hook would). */
static struct of_groups	*cb_gt;
static const uint8_t	 inst12[] = { 0, 4, 0, 32, 0, 0, 0, 0,
    0, 22, 0, 8, 0, 0, 0, 1, 0, 22, 0, 8, 0, 0, 0, 1,
    0, 22, 0, 8, 0, 0, 0, 2 };

static void
remove_flows(void *arg, uint32_t id)
{
	const struct of_ft_refs	*h = arg;
	void			*f;

	if (n_deleted < 8)
		deleted[n_deleted++] = id;
	while ((f = of_groups_flow(cb_gt, id)) != NULL)
		h->off(h->arg, f, inst12, sizeof(inst12));
}

static void
test_flow_refs(void)
{
	static const uint8_t	 one[] = { BUCKET(0, 0, 1) };
	static const uint8_t	 inst1[] = { 0, 4, 0, 16, 0, 0, 0, 0,
	    0, 22, 0, 8, 0, 0, 0, 1 };
	struct of_group_mod	 del = { OF_GC_DELETE, 0, 2, NULL, 0, 0 };
	const struct of_ft_refs	*h;
	struct of_groups	*gt = NULL;
	enum of_err		 err;
	int			 flows[3];

	CHECK(ADD(1, OF_GT_ALL, one) == OF_ERR_NONE &&
	    ADD(2, OF_GT_ALL, one) == OF_ERR_NONE, "add 1 and 2");
	h = of_groups_ft_refs(gt);
	h->on(h->arg, &flows[0], inst12, sizeof(inst12));
	h->on(h->arg, &flows[1], inst12, sizeof(inst12));
	h->on(h->arg, &flows[2], inst1, sizeof(inst1));
	CHECK(ref_count(gt, 1) == 3 && ref_count(gt, 2) == 2,
	    "refs %u %u", ref_count(gt, 1), ref_count(gt, 2));
	h->off(h->arg, &flows[2], inst1, sizeof(inst1));
	CHECK(ref_count(gt, 1) == 2, "a flow gone");
	CHECK(MODIFY(1, OF_GT_SELECT, one) == OF_ERR_NONE &&
	    ref_count(gt, 1) == 2 && of_groups_flow(gt, 1) != NULL,
	    "a MODIFY keeps the flows naming the group");
	cb_gt = gt;
	n_deleted = 0;
	CHECK(of_groups_apply(&gt, &del, &lim_chain, 1000, remove_flows,
	    (void *)h, &err) == 0 && n_deleted == 1 && deleted[0] == 2 &&
	    ref_count(gt, 1) == 0 && !of_groups_has(gt, 2),
	    "deleting 2 removed its two flows, which named 1 too");
	h->on(h->arg, &flows[2], inst1, sizeof(inst1));
	del.group_id = OF_GROUP_ALL;
	n_deleted = 0;
	CHECK(of_groups_apply(&gt, &del, &lim_chain, 1000, remove_flows,
	    (void *)h, &err) == 0 && n_deleted == 1 && deleted[0] == 1,
	    "OFPG_ALL: each group with flows, once");
	of_groups_free(gt);
}

/* The ids (the pad) and output ports of group 1's buckets, in order. */
static void
ids_visit(void *arg, struct of_group_info *gi)
{
	char		*out = arg;
	size_t		 i, len;

	for (i = 0; i + 16 <= gi->buckets_len; i += len) {
		len = (size_t)gi->buckets[i] << 8 | gi->buckets[i + 1];
		out += sprintf(out, "%u:%u ", gi->buckets[i + 15],
		    gi->buckets[i + 23]);
	}
}

static enum of_err
edit(struct of_groups **gt, uint16_t cmd, uint32_t at, const uint8_t *b,
    size_t len)
{
	static uint8_t		 buf[4096];
	struct of_group_mod	 gm = { cmd, 0, 1, b, len, at };
	enum of_err		 err = OF_ERR_NONE;
	struct wbuf		 w;

	wbuf_init(&w, buf, sizeof(buf));
	if (of_group15_edit(*gt, &gm, &w, &err) == -1)
		return err;
	return gm.command == OF_GC_MODIFY && gm.type == OF_GT_ALL ?
	    mod(gt, gm.command, gm.type, 1, gm.buckets, gm.buckets_len) :
	    OF_ERR__MAX;
}

/* 1.5.1 section 7.3.4.2's INSERT_BUCKET and REMOVE_BUCKET on a group 1.3
 * made (its buckets numbered by position) as MODIFYs. */
static void
test_bucket15(void)
{
	static const uint8_t	 b[] = { BUCKET(0, 0, 1), BUCKET(0, 0, 2) };
	uint8_t			 nb[] = { BUCKET(0, 0, 3) };
	struct of_groups	*gt = NULL;
	char			 ids[256];

	nb[15] = 5;			/* bucket_id 5 */
	CHECK(mod(&gt, OF_GC_ADD, OF_GT_ALL, 1, b, sizeof(b)) == OF_ERR_NONE,
	    "group 1 added");
	CHECK(edit(&gt, OFP15_GC_INSERT_BUCKET, 1, nb, sizeof(nb)) ==
	    OF_ERR_NONE, "bucket 5 inserted after bucket 1");
	of_groups_walk(gt, 1, 2000, ids_visit, ids);
	CHECK(strcmp(ids, "0:1 1:2 5:3 ") == 0, "ids by position: %s", ids);
	CHECK(edit(&gt, OFP15_GC_INSERT_BUCKET, OFP15_GROUP_BUCKET_FIRST, nb,
	    sizeof(nb)) == OF_ERR_GROUP_BUCKET_EXISTS, "bucket 5 twice");
	CHECK(edit(&gt, OFP15_GC_INSERT_BUCKET, 9, nb, sizeof(nb)) ==
	    OF_ERR_GROUP_UNKNOWN_BUCKET, "after a bucket none has");
	CHECK(edit(&gt, OFP15_GC_INSERT_BUCKET, OFP15_GROUP_BUCKET_ALL, nb,
	    sizeof(nb)) == OF_ERR_GROUP_BAD_COMMAND, "INSERT at ALL");
	CHECK(edit(&gt, OFP15_GC_REMOVE_BUCKET, 0, NULL, 0) == OF_ERR_NONE,
	    "bucket 0 removed");
	of_groups_walk(gt, 1, 2000, ids_visit, ids);
	CHECK(strcmp(ids, "1:2 5:3 ") == 0, "left: %s", ids);
	CHECK(edit(&gt, OFP15_GC_REMOVE_BUCKET, 0, NULL, 0) ==
	    OF_ERR_GROUP_UNKNOWN_BUCKET, "bucket 0 twice");
	CHECK(edit(&gt, OFP15_GC_REMOVE_BUCKET, OFP15_GROUP_BUCKET_LAST, NULL,
	    0) == OF_ERR_NONE, "the last removed");
	of_groups_walk(gt, 1, 2000, ids_visit, ids);
	CHECK(strcmp(ids, "1:2 ") == 0, "left: %s", ids);
	of_groups_free(gt);
	gt = NULL;
	CHECK(edit(&gt, OFP15_GC_REMOVE_BUCKET, OFP15_GROUP_BUCKET_ALL, NULL,
	    0) == OF_ERR_GROUP_UNKNOWN, "no group 1");
}

static const struct check_case cases[] = {
	CASE(test_flow_refs),
	CASE(test_copies_bounded),
	CASE(test_failover),
	CASE(test_many),
	CASE(test_chaining),
	CASE(test_watch_group),
	CASE(test_codec_roundtrip),
	CASE(test_add_modify_delete),
	CASE(test_buckets),
	CASE(test_bound_and_delete_all),
	CASE(test_desc_byte_identical),
	CASE(test_flow_out_group),
	CASE(test_bucket15),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
