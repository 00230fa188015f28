/*
 * The group table of a simulated switch: GROUP_MOD ADD, MODIFY and DELETE
 * with the errors of OpenFlow 1.3.5 sections 6.5 and 7.4.4.  Groups are
 * not chained (a bucket naming a group, or a fast-failover bucket
 * watching one, is CHAINING_UNSUPPORTED), so no LOOP can arise.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "of_actions.h"
#include "of_codec.h"
#include "of_group.h"
#include "of_wire_actions.h"
#include "ut.h"

#define GROUP_MOD_BODY		8	/* command, type, pad, group_id */
#define BUCKET_HDR		16	/* len, weight, watch_port/group, pad */

struct of_group {
	UT_hash_handle	 hh;
	uint32_t	 id;
	uint8_t		 type;
	uint32_t	 n_buckets;
	uint32_t	 refs;		/* flows naming it, at the last count */
	uint64_t	 ref_flow;	/* the flow that counted last */
	uint64_t	 added_ns;
	size_t		 len;
	uint8_t		 buckets[];	/* as the controller sent them */
};

struct of_groups {
	struct of_group	*by_id;
	uint32_t	 n;
	uint64_t	 ref_flow;	/* the flow being counted */
};

static int
bad(enum of_err *err, enum of_err e)
{
	*err = e;
	return -1;
}

int
of_group_mod_decode(struct rbuf *r, struct of_group_mod *gm, enum of_err *err)
{
	if (rbuf_left(r) < GROUP_MOD_BODY)
		return bad(err, OF_ERR_BAD_LEN);
	rbuf_get_u16(r, &gm->command);
	rbuf_get_u8(r, &gm->type);
	rbuf_skip(r, 1);
	rbuf_get_u32(r, &gm->group_id);
	gm->buckets = rbuf_ptr(r);
	gm->buckets_len = rbuf_left(r);
	rbuf_skip(r, gm->buckets_len);
	return 0;
}

int
of_group_mod_encode(struct wbuf *w, uint32_t xid,
    const struct of_group_mod *gm)
{
	size_t	start = of_msg_begin(w, OF_VERSION_13, OF_GROUP_MOD, xid);

	wbuf_put_u16(w, gm->command);
	wbuf_put_u8(w, gm->type);
	wbuf_put_zero(w, 1);
	wbuf_put_u32(w, gm->group_id);
	wbuf_put_bytes(w, gm->buckets, gm->buckets_len);
	return of_msg_end(w, start);
}

/* A group action in a bucket would chain groups, which sbsim does not
 * (1.3.5 section 5.6.1 leaves chaining optional). */
static int
actions_name_group(const uint8_t *p, size_t len)
{
	struct rbuf	r;
	uint16_t	type, alen;

	rbuf_init(&r, p, len);
	while (rbuf_get_u16(&r, &type) == 0 && rbuf_get_u16(&r, &alen) == 0) {
		if (type == OF13_AT_GROUP)
			return 1;
		if (alen < 4 || rbuf_skip(&r, alen - 4) == -1)
			return 0;	/* the validator has refused it */
	}
	return 0;
}

/* A fast-failover bucket watches a port of the switch (1.3.5 5.8); with
 * no chaining a watched group could not exist. */
static int
bucket_watch_check(uint32_t port, uint32_t group, uint32_t n_ports,
    enum of_err *err)
{
	if (group != OF_GROUP_ANY)
		return bad(err, OF_ERR_GROUP_CHAINING);
	if (port == OF_PORT_ANY || port == 0 || port > n_ports)
		return bad(err, OF_ERR_GROUP_BAD_WATCH);
	return 0;
}

/* One ofp_bucket (7.3.4.2): its length, watch and actions. */
static int
bucket_check(struct rbuf *r, uint8_t type, uint32_t n_ports,
    enum of_err *err)
{
	uint16_t	len, weight;
	uint32_t	port, group;
	const uint8_t	*acts;

	rbuf_get_u16(r, &len);
	if (len < BUCKET_HDR || len % 8 != 0 || (size_t)len - 2 > rbuf_left(r))
		return bad(err, OF_ERR_GROUP_BAD_BUCKET);
	rbuf_get_u16(r, &weight);
	rbuf_get_u32(r, &port);
	rbuf_get_u32(r, &group);
	rbuf_skip(r, 4);
	acts = rbuf_ptr(r);
	rbuf_skip(r, len - BUCKET_HDR);
	if (type == OF_GT_FF &&
	    bucket_watch_check(port, group, n_ports, err) == -1)
		return -1;
	if (of_actions_validate(OF_VERSION_13, acts, len - BUCKET_HDR,
	    n_ports, err) == -1)
		return -1;
	if (actions_name_group(acts, len - BUCKET_HDR))
		return bad(err, OF_ERR_GROUP_CHAINING);
	return 0;
}

/* The buckets of an ADD or MODIFY; their number in *n. */
static int
buckets_check(const struct of_group_mod *gm, uint32_t n_ports, uint32_t *n,
    enum of_err *err)
{
	struct rbuf	r;

	*n = 0;
	if (gm->type > OF_GT_FF)
		return bad(err, OF_ERR_GROUP_BAD_TYPE);
	rbuf_init(&r, gm->buckets, gm->buckets_len);
	if (gm->buckets_len > 0 && gm->buckets_len < BUCKET_HDR)
		return bad(err, OF_ERR_GROUP_BAD_BUCKET);
	while (rbuf_left(&r) >= BUCKET_HDR) {
		if (bucket_check(&r, gm->type, n_ports, err) == -1)
			return -1;
		(*n)++;
	}
	if (rbuf_left(&r) != 0)
		return bad(err, OF_ERR_GROUP_BAD_BUCKET);
	/* An indirect group has exactly one bucket (1.3.5 section 5.6.1). */
	if (gm->type == OF_GT_INDIRECT && *n != 1)
		return bad(err, OF_ERR_GROUP_INVALID);
	return 0;
}

static struct of_group *
group_find(const struct of_groups *gt, uint32_t id)
{
	struct of_group	*g = NULL;

	if (gt != NULL)
		HASH_FIND(hh, gt->by_id, &id, sizeof(id), g);
	return g;
}

static struct of_group *
group_make(const struct of_group_mod *gm, uint32_t n, uint64_t now)
{
	struct of_group	*g = malloc(sizeof(*g) + gm->buckets_len);

	if (g == NULL)
		return NULL;
	memset(g, 0, sizeof(*g));
	g->id = gm->group_id;
	g->type = gm->type;
	g->n_buckets = n;
	g->added_ns = now;
	g->len = gm->buckets_len;
	if (g->len > 0)
		memcpy(g->buckets, gm->buckets, g->len);
	return g;
}

/* ADD or MODIFY (1.3.5 section 6.5): ADD of an existing id is
 * GROUP_EXISTS, MODIFY of a missing one UNKNOWN_GROUP; MODIFY replaces the
 * type and buckets and keeps the group's age. */
static int
group_put(struct of_groups *gt, const struct of_group_mod *gm, uint32_t n,
    uint64_t now, enum of_err *err)
{
	struct of_group	*old = group_find(gt, gm->group_id), *g;

	g = group_make(gm, n, old != NULL ? old->added_ns : now);
	if (g == NULL)
		return bad(err, OF_ERR_GROUP_OUT_OF_GROUPS);
	if (old != NULL) {
		HASH_DEL(gt->by_id, old);
		free(old);
		gt->n--;
	}
	HASH_ADD(hh, gt->by_id, id, sizeof(g->id), g);
	gt->n++;
	return 0;
}

static int
group_add_or_modify(struct of_groups **gtp, const struct of_group_mod *gm,
    const struct of_group_limits *lim, uint64_t now, enum of_err *err)
{
	int		 exists = group_find(*gtp, gm->group_id) != NULL;
	uint32_t	 n;

	/* Reserved ids name no group (7.3.4.2, enum ofp_group). */
	if (gm->group_id > OF13_GROUP_MAX)
		return bad(err, OF_ERR_GROUP_INVALID);
	if (gm->command == OF_GC_ADD && exists)
		return bad(err, OF_ERR_GROUP_EXISTS);
	if (gm->command == OF_GC_MODIFY && !exists)
		return bad(err, OF_ERR_GROUP_UNKNOWN);
	if (buckets_check(gm, lim->n_ports, &n, err) == -1)
		return -1;
	if (!exists && of_groups_count(*gtp) >= lim->max_groups)
		return bad(err, OF_ERR_GROUP_OUT_OF_GROUPS);
	if (*gtp == NULL && (*gtp = calloc(1, sizeof(**gtp))) == NULL)
		return bad(err, OF_ERR_GROUP_OUT_OF_GROUPS);
	return group_put(*gtp, gm, n, now, err);
}

static void
group_delete(struct of_groups *gt, struct of_group *g)
{
	HASH_DEL(gt->by_id, g);
	free(g);
	gt->n--;
}

/* DELETE of a missing group is no error; OFPG_ALL deletes every group
 * (1.3.5 section 6.5), and its flows go in one pass (cb with OFPG_ALL). */
static int
groups_delete(struct of_groups *gt, uint32_t id, of_group_deleted_cb cb,
    void *arg, enum of_err *err)
{
	struct of_group	*g, *tmp;

	if (id == OF_GROUP_ALL) {
		if (of_groups_count(gt) == 0)
			return 0;
		HASH_ITER(hh, gt->by_id, g, tmp)
			group_delete(gt, g);
	} else if (id > OF13_GROUP_MAX) {
		return bad(err, OF_ERR_GROUP_INVALID);
	} else if ((g = group_find(gt, id)) != NULL) {
		group_delete(gt, g);
	} else {
		return 0;
	}
	if (cb != NULL)
		cb(arg, id);
	return 0;
}

int
of_groups_apply(struct of_groups **gtp, const struct of_group_mod *gm,
    const struct of_group_limits *lim, uint64_t now_ns,
    of_group_deleted_cb cb, void *arg, enum of_err *err)
{
	switch (gm->command) {
	case OF_GC_ADD:
	case OF_GC_MODIFY:
		return group_add_or_modify(gtp, gm, lim, now_ns, err);
	case OF_GC_DELETE:
		return groups_delete(*gtp, gm->group_id, cb, arg, err);
	default:
		return bad(err, OF_ERR_GROUP_BAD_COMMAND);
	}
}

void
of_groups_refs_clear(struct of_groups *gt)
{
	struct of_group	*g, *tmp;

	if (gt != NULL)
		HASH_ITER(hh, gt->by_id, g, tmp)
			g->refs = 0;
}

void
of_groups_ref_next_flow(struct of_groups *gt)
{
	gt->ref_flow++;
}

void
of_groups_ref(void *gt, uint32_t group_id)
{
	struct of_groups	*t = gt;
	struct of_group		*g = group_find(t, group_id);

	/* A flow naming a group twice counts once. */
	if (g != NULL && g->ref_flow != t->ref_flow) {
		g->ref_flow = t->ref_flow;
		g->refs++;
	}
}

int
of_groups_has(const struct of_groups *gt, uint32_t group_id)
{
	return group_find(gt, group_id) != NULL;
}

uint32_t
of_groups_count(const struct of_groups *gt)
{
	return gt != NULL ? gt->n : 0;
}

void
of_groups_walk(const struct of_groups *gt, uint32_t want, uint64_t now_ns,
    void (*fn)(void *, struct of_group_info *), void *arg)
{
	struct of_group		*g, *tmp;
	struct of_group_info	 gi;
	uint64_t		 age;

	if (gt == NULL)
		return;
	HASH_ITER(hh, gt->by_id, g, tmp) {
		if (want != OF_GROUP_ALL && want != g->id)
			continue;
		age = now_ns - g->added_ns;
		memset(&gi, 0, sizeof(gi));
		gi.group_id = g->id;
		gi.type = g->type;
		gi.n_buckets = g->n_buckets;
		gi.ref_count = g->refs;
		gi.duration_sec = (uint32_t)(age / 1000000000ull);
		gi.duration_nsec = (uint32_t)(age % 1000000000ull);
		gi.buckets = g->buckets;
		gi.buckets_len = g->len;
		fn(arg, &gi);
	}
}

void
of_groups_free(struct of_groups *gt)
{
	struct of_group	*g, *tmp;

	if (gt == NULL)
		return;
	HASH_ITER(hh, gt->by_id, g, tmp) {
		HASH_DEL(gt->by_id, g);
		free(g);
	}
	free(gt);
}

/* A copy, groups in the same order: what a bundle's commit puts back
 * when one of its messages fails (of_bundle.c).  NULL stays NULL. */
struct of_groups *
of_groups_clone(const struct of_groups *gt)
{
	struct of_groups	*c;
	struct of_group		*g, *tmp, *ng;

	if (gt == NULL)
		return NULL;
	c = xcalloc(1, sizeof(*c));
	c->ref_flow = gt->ref_flow;
	HASH_ITER(hh, gt->by_id, g, tmp) {
		ng = xmalloc(sizeof(*ng) + g->len);
		memcpy(ng, g, sizeof(*ng) + g->len);
		memset(&ng->hh, 0, sizeof(ng->hh));
		HASH_ADD(hh, c->by_id, id, sizeof(ng->id), ng);
		c->n++;
	}
	return c;
}
