/*
 * The group table of a simulated switch: GROUP_MOD ADD, MODIFY and DELETE
 * with the errors of OpenFlow 1.3.5 sections 6.5 and 7.4.4.  Groups chain
 * (section 5.6.1): a bucket's GROUP action forwards to another group, a
 * fast-failover bucket may watch one; a put that closes a loop is LOOP,
 * one past --max-group-depth CHAINING_UNSUPPORTED, and a group another
 * forwards to cannot be deleted (CHAINED_GROUP).
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "of_actions.h"
#include "of_codec.h"
#include "of_flowtable.h"
#include "of_group.h"
#include "of_oamap.h"
#include "of_wire_actions.h"

#define GROUP_MOD_BODY		8	/* command, type, pad, group_id */
#define BUCKET_HDR		16	/* len, weight, watch_port/group, pad */

struct of_group {
	uint32_t	 id;
	uint8_t		 type;
	uint8_t		 on_stack;
	uint8_t		 height;	/* at most OF_GROUP_DEPTH_MAX */
	uint8_t		 live;		/* group_live() of packet live_gen */
	uint32_t	 n_buckets;
	uint32_t	 refs;		/* flows naming it: its list's length */
	uint32_t	 grefs;		/* groups forwarding to it */
	uint32_t	 gref_gen;	/* grefs_add(): counted in this pass */
	uint32_t	 edges;		/* GROUP actions and watch_groups */
	uint32_t	 walk_gen;	/* chain_height(): height is this walk's */
	uint32_t	 len;
	uint32_t	 live_gen;
	struct fref	*flows;		/* the flows naming it */
	uint64_t	 added_ns;
	/* Packets and bytes sent through the group, then through each
	 * bucket (OF_GROUP_COUNTERS()); NULL until the first packet. */
	uint64_t	*counters;
	uint8_t		 buckets[];	/* as the controller sent them */
};

/* The two maps of a group table: groups by id, references by flow
 * (of_oamap.h). */

/*
 * One flow naming one group: on the group's list (a group's delete
 * removes its own flows, without a pass over the table, and ref_count
 * is the list's length) and on the flow's chain, found by the flow
 * (by_flow) when it goes.
 */
struct fref {
	const void	*flow;
	struct fref	*fnext;		/* the flow's next reference */
	struct fref	*prev;		/* the group's list */
	struct fref	*next;
	uint32_t	 group;
};

struct of_groups {
	struct of_oamap	 by_id;		/* id -> struct of_group */
	struct of_oamap	 by_flow;	/* flow -> its first struct fref */
	struct of_ft_refs ft_refs;	/* the flow table's hooks: fref_on/off */
	uint32_t	 gen;		/* chain walks and gref passes */
	uint32_t	 edges;		/* of all groups: 0, no chains */
};

static int
bad(enum of_err *err, enum of_err e)
{
	*err = e;
	return -1;
}

/* The 8 bytes 1.3 and 1.5 group_mods open with (section 7.3.4.2 of
 * 1.3.5 and of 1.5.1): command, type, pad, group_id; the caller checked
 * they are there. */
void
of_group_mod_head_get(struct rbuf *r, struct of_group_mod *gm)
{
	rbuf_get_u16(r, &gm->command);
	rbuf_get_u8(r, &gm->type);
	rbuf_skip(r, 1);
	rbuf_get_u32(r, &gm->group_id);
}

int
of_group_mod_decode(struct rbuf *r, struct of_group_mod *gm, enum of_err *err)
{
	if (rbuf_left(r) < GROUP_MOD_BODY)
		return bad(err, OF_ERR_BAD_LEN);
	of_group_mod_head_get(r, gm);
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

/* One ofp_bucket (7.3.4.2) as its header and actions. */
struct bucket {
	uint16_t	 len;
	uint16_t	 weight;
	uint32_t	 watch_port;
	uint32_t	 watch_group;
	const uint8_t	*acts;
	size_t		 acts_len;
};

/* The next bucket of r: 0, or -1 at the end or at a bucket that does not
 * fit (its length below the header, not a multiple of 8, past r). */
static int
bucket_next(struct rbuf *r, struct bucket *b)
{
	if (rbuf_left(r) < BUCKET_HDR)
		return -1;
	rbuf_get_u16(r, &b->len);
	if (b->len < BUCKET_HDR || b->len % 8 != 0 ||
	    (size_t)b->len - 2 > rbuf_left(r))
		return -1;
	rbuf_get_u16(r, &b->weight);
	rbuf_get_u32(r, &b->watch_port);
	rbuf_get_u32(r, &b->watch_group);
	rbuf_skip(r, 4);
	b->acts = rbuf_ptr(r);
	b->acts_len = b->len - BUCKET_HDR;
	rbuf_skip(r, b->acts_len);
	return 0;
}

/* fn(arg, id) for each GROUP action of one bucket's action list. */
static void
actions_each_group(const uint8_t *p, size_t len,
    void (*fn)(void *, uint32_t, int), void *arg)
{
	struct rbuf	r;
	uint16_t	type, alen;
	uint32_t	id;

	rbuf_init(&r, p, len);
	while (rbuf_get_u16(&r, &type) == 0 && rbuf_get_u16(&r, &alen) == 0) {
		if (type == OF13_AT_GROUP && rbuf_get_u32(&r, &id) == 0) {
			fn(arg, id, 0);
			alen = alen >= 8 ? alen - 4 : 4;
		}
		if (alen < 4 || rbuf_skip(&r, alen - 4) == -1)
			return;		/* the validator has refused it */
	}
}

/* The edges of a group's buckets: fn(arg, id, 0) for each GROUP action
 * (the group forwards to id, 1.3.5 section 5.6.1) and fn(arg, id, 1) for
 * each watch_group of a fast-failover bucket (its liveness reads id's,
 * section 6.5).  Both are followed when looking for loops. */
static void
buckets_each_edge(const uint8_t *p, size_t len, uint8_t type,
    void (*fn)(void *, uint32_t, int), void *arg)
{
	struct rbuf	r;
	struct bucket	b;

	rbuf_init(&r, p, len);
	while (bucket_next(&r, &b) == 0) {
		if (type == OF_GT_FF && b.watch_group != OF_GROUP_ANY)
			fn(arg, b.watch_group, 1);
		actions_each_group(b.acts, b.acts_len, fn, arg);
	}
}

/* A fast-failover bucket watches a port of the switch or a group, or
 * both (1.3.5 section 6.5: it must watch something). */
static int
bucket_watch_check(uint32_t port, uint32_t group, uint32_t n_ports,
    enum of_err *err)
{
	if (port == OF_PORT_ANY && group == OF_GROUP_ANY)
		return bad(err, OF_ERR_GROUP_BAD_WATCH);
	if (port != OF_PORT_ANY && (port == 0 || port > n_ports))
		return bad(err, OF_ERR_GROUP_BAD_WATCH);
	if (group != OF_GROUP_ANY && group > OF13_GROUP_MAX)
		return bad(err, OF_ERR_GROUP_BAD_WATCH);
	return 0;
}

/* One ofp_bucket (7.3.4.2): its length, watch and actions.  The groups
 * it names are checked by chain_check(). */
static int
bucket_check(struct rbuf *r, uint8_t type, uint32_t n_ports,
    enum of_err *err)
{
	struct bucket	b;

	if (bucket_next(r, &b) == -1)
		return bad(err, OF_ERR_GROUP_BAD_BUCKET);
	if (type == OF_GT_FF &&
	    bucket_watch_check(b.watch_port, b.watch_group, n_ports, err) == -1)
		return -1;
	return of_actions_validate(OF_VERSION_13, b.acts, b.acts_len, n_ports,
	    err);
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

#define GT_EACH(gt, i, g)	OF_OAMAP_EACH(&(gt)->by_id, i, g)

static struct of_group *
group_find(const struct of_groups *gt, uint32_t id)
{
	return gt != NULL ? of_oamap_get(&gt->by_id, id) : NULL;
}

/* Off its group's list. */
static void
fref_unlink_group(struct of_group *g, struct fref *r)
{
	if (r->prev != NULL)
		r->prev->next = r->next;
	else
		g->flows = r->next;
	if (r->next != NULL)
		r->next->prev = r->prev;
	g->refs--;
}

/* Off its flow's chain (a few long: the groups one flow names). */
static void
fref_unlink_flow(struct of_groups *gt, struct fref *r)
{
	uint32_t	 i = of_oamap_find(&gt->by_flow, (uintptr_t)r->flow);
	struct fref	**pp = (struct fref **)&gt->by_flow.slots[i].val;

	while (*pp != NULL && *pp != r)
		pp = &(*pp)->fnext;
	if (*pp == NULL)
		return;
	*pp = r->fnext;
	if (gt->by_flow.slots[i].val == NULL)
		of_oamap_del(&gt->by_flow, i);	/* its last reference */
}

/* A group goes: the references its flows still hold go with it (its
 * flows were removed first, of_group_deleted_cb). */
static void
group_free(struct of_groups *gt, struct of_group *g)
{
	struct fref	*r;

	while ((r = g->flows) != NULL) {
		fref_unlink_group(g, r);
		fref_unlink_flow(gt, r);
		free(r);
	}
	free(g->counters);
	free(g);
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
	g->len = (uint32_t)gm->buckets_len;
	if (g->len > 0)
		memcpy(g->buckets, gm->buckets, g->len);
	return g;
}

/* ---- chaining (1.3.5 section 5.6.1): loops, depth, references ---- */

/* A walk down the chains from a group, the one being put (ng, not yet
 * in the table) standing in for the stored group of its id. */
struct chain_walk {
	struct of_groups	*gt;
	struct of_group		*ng;
	uint32_t		 max_depth;
	enum of_err		 err;
};

struct chain_step {
	struct chain_walk	*cw;
	struct of_group		*from;
	uint32_t		 depth;
	uint32_t		 height;
	int			 failed;
};

static int	chain_height(struct chain_walk *, struct of_group *,
		    uint32_t depth);

/* The group an edge reaches: ng for its own id; a missing one is an
 * error only from the group being put (a stored group's targets exist:
 * DELETE of one is CHAINED_GROUP; a watched group may be gone). */
static void
chain_child(void *arg, uint32_t id, int watch)
{
	struct chain_step	*s = arg;
	struct chain_walk	*cw = s->cw;
	struct of_group		*g;
	int			 h;

	if (s->failed)
		return;
	g = id == cw->ng->id ? cw->ng : group_find(cw->gt, id);
	if (g == NULL) {
		if (s->from != cw->ng)
			return;
		cw->err = watch ? OF_ERR_GROUP_BAD_WATCH : OF_ERR_BAD_OUT_GROUP;
		s->failed = 1;
		return;
	}
	if ((h = chain_height(cw, g, s->depth + 1)) < 0)
		s->failed = 1;
	else if ((uint32_t)h + 1 > s->height)
		s->height = (uint32_t)h + 1;
}

/* The groups on the longest chain from g down (1: g forwards to none),
 * remembered for this walk; -1 with cw->err on a loop (a group reached
 * again below itself) or a chain past max_depth. */
static int
chain_height(struct chain_walk *cw, struct of_group *g, uint32_t depth)
{
	struct chain_step	s = { cw, g, depth, 1, 0 };

	if (g->walk_gen == cw->gt->gen) {
		if (!g->on_stack)
			return (int)g->height;
		cw->err = OF_ERR_GROUP_LOOP;
		return -1;
	}
	if (depth >= cw->max_depth) {
		cw->err = OF_ERR_GROUP_CHAINING;	/* deeper than we go */
		return -1;
	}
	g->walk_gen = cw->gt->gen;
	g->on_stack = 1;
	buckets_each_edge(g->buckets, g->len, g->type, chain_child, &s);
	g->on_stack = 0;
	g->height = (uint8_t)s.height;
	if (s.failed)
		return -1;
	if (s.height > cw->max_depth) {
		cw->err = OF_ERR_GROUP_CHAINING;
		return -1;
	}
	return (int)s.height;
}

static void
count_edge(void *arg, uint32_t id, int watch)
{
	(void)id;
	(void)watch;
	(*(uint32_t *)arg)++;
}

/*
 * Would putting ng make a loop (LOOP) or a chain longer than max_depth?
 * From ng alone when it is new (no group can reach a group that does not
 * exist yet); after a MODIFY the chains above it may grow or close into
 * a loop, so every chain of the table is walked, but only when the table
 * has chains at all: a table without any costs one edge count.
 */
static int
chain_check(struct of_groups *gt, struct of_group *ng, int modify,
    uint32_t max_depth, enum of_err *err)
{
	struct chain_walk	 cw = { gt, ng, max_depth, OF_ERR_NONE };
	struct of_group		*g;
	uint32_t		 i;

	buckets_each_edge(ng->buckets, ng->len, ng->type, count_edge,
	    &ng->edges);
	if (ng->edges == 0 && (!modify || gt->edges == 0))
		return 0;
	gt->gen++;
	if (chain_height(&cw, ng, 0) < 0)
		return bad(err, cw.err);
	if (!modify || gt->edges == 0)
		return 0;
	GT_EACH(gt, i, g)
		if (g->id != ng->id && chain_height(&cw, g, 0) < 0)
			return bad(err, cw.err);
	return 0;
}

/* grefs: the groups whose buckets forward to a group (ref_count counts
 * them with the flows, 7.3.5.9), each referring group once. */
struct gref_step {
	struct of_groups	*gt;
	int			 delta;
};

static void
gref_edge(void *arg, uint32_t id, int watch)
{
	struct gref_step	*s = arg;
	struct of_group		*g;

	if (watch || (g = group_find(s->gt, id)) == NULL ||
	    g->gref_gen == s->gt->gen)
		return;
	g->gref_gen = s->gt->gen;
	g->grefs += s->delta;
}

static void
grefs_add(struct of_groups *gt, const struct of_group *g, int delta)
{
	struct gref_step	s = { gt, delta };

	if (g->edges == 0)
		return;
	gt->gen++;
	buckets_each_edge(g->buckets, g->len, g->type, gref_edge, &s);
	gt->edges += delta > 0 ? g->edges : -g->edges;
}

/* ADD or MODIFY (1.3.5 section 6.5): ADD of an existing id is
 * GROUP_EXISTS, MODIFY of a missing one UNKNOWN_GROUP; MODIFY replaces the
 * type and buckets and keeps the group's age and references. */
static int
group_put(struct of_groups *gt, struct of_group *g, int exists)
{
	struct of_group	*old;
	uint32_t	 i;

	if (!exists && of_oamap_reserve(&gt->by_id) == -1)
		return -1;
	i = of_oamap_find(&gt->by_id, g->id);
	if ((old = gt->by_id.slots[i].val) != NULL) {
		g->added_ns = old->added_ns;
		g->refs = old->refs;
		g->grefs = old->grefs;
		grefs_add(gt, old, -1);
		g->flows = old->flows;		/* the same flows name it */
		old->flows = NULL;
		group_free(gt, old);
	}
	of_oamap_set(&gt->by_id, i, g->id, g);
	grefs_add(gt, g, 1);
	return 0;
}

static int
group_add_or_modify(struct of_groups **gtp, const struct of_group_mod *gm,
    const struct of_group_limits *lim, uint64_t now, enum of_err *err)
{
	struct of_groups	 none;
	struct of_group		*g;
	int			 exists = group_find(*gtp, gm->group_id) != NULL;
	uint32_t		 n;

	memset(&none, 0, sizeof(none));

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
	if ((g = group_make(gm, n, now)) == NULL)
		return bad(err, OF_ERR_GROUP_OUT_OF_GROUPS);
	/* Checked against an empty table when there is none: a refused
	 * first ADD makes no table. */
	if (chain_check(*gtp != NULL ? *gtp : &none, g, exists,
	    lim->max_depth, err) == -1) {
		free(g);
		return -1;
	}
	if (*gtp == NULL && (*gtp = calloc(1, sizeof(**gtp))) == NULL) {
		free(g);
		return bad(err, OF_ERR_GROUP_OUT_OF_GROUPS);
	}
	if (group_put(*gtp, g, exists) == -1) {
		free(g);
		return bad(err, OF_ERR_GROUP_OUT_OF_GROUPS);
	}
	return 0;
}

static void
groups_clear(struct of_groups *gt)
{
	struct of_group	*g;
	uint32_t	 i;

	GT_EACH(gt, i, g)
		group_free(gt, g);
	of_oamap_clear(&gt->by_id);
	of_oamap_clear(&gt->by_flow);
	gt->edges = 0;
}

/*
 * DELETE of a missing group is no error; OFPG_ALL deletes every group
 * (1.3.5 section 6.5).  The flows naming a group go first, from its own
 * list (cb for each group that has some).
 * A group another group forwards to is not deleted: CHAINED_GROUP
 * ("group not deleted because another group is forwarding to it",
 * section 7.4.4), so no bucket is left naming a missing group.
 */
static int
groups_delete(struct of_groups *gt, uint32_t id, of_group_deleted_cb cb,
    void *arg, enum of_err *err)
{
	struct of_group	*g;
	uint32_t	 i;

	if (id == OF_GROUP_ALL) {
		if (of_groups_count(gt) == 0)
			return 0;
		GT_EACH(gt, i, g)
			if (g->flows != NULL && cb != NULL)
				cb(arg, g->id);
		groups_clear(gt);
	} else if (id > OF13_GROUP_MAX) {
		return bad(err, OF_ERR_GROUP_INVALID);
	} else if ((g = group_find(gt, id)) != NULL) {
		if (g->grefs > 0)
			return bad(err, OF_ERR_GROUP_CHAINED);
		if (g->flows != NULL && cb != NULL)
			cb(arg, id);
		grefs_add(gt, g, -1);
		of_oamap_del(&gt->by_id, of_oamap_find(&gt->by_id, id));
		group_free(gt, g);
	}
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

/* ---- the flows naming each group (of_ft_refs hooks) ---- */

struct fref_step {
	struct of_groups	*gt;
	const void		*flow;
};

/* A flow's program names group id: one reference, however often it
 * names it (the put checked the group exists: BAD_OUT_GROUP). */
static void
fref_add(void *arg, uint32_t id)
{
	struct fref_step	*s = arg;
	struct of_oamap		*m = &s->gt->by_flow;
	struct of_group		*g = group_find(s->gt, id);
	struct fref		*r, *head;
	uint32_t		 i;

	if (g == NULL || of_oamap_reserve(m) == -1)
		return;		/* out of memory: uncounted */
	i = of_oamap_find(m, (uintptr_t)s->flow);
	for (head = r = m->slots[i].val; r != NULL; r = r->fnext)
		if (r->group == id)
			return;
	if ((r = calloc(1, sizeof(*r))) == NULL)
		return;
	r->flow = s->flow;
	r->group = id;
	r->fnext = head;
	of_oamap_set(m, i, (uintptr_t)s->flow, r);
	r->next = g->flows;
	if (g->flows != NULL)
		g->flows->prev = r;
	g->flows = r;
	g->refs++;
}

static void
fref_on(void *arg, void *flow, const uint8_t *prog, size_t len)
{
	struct fref_step	s = { arg, flow };

	of_prog_each_group(prog, len, fref_add, &s);
}

/* The flow goes (or its program changes): its chain, from by_flow, is
 * taken off each group's list; its program need not be read again. */
static void
fref_off(void *arg, void *flow, const uint8_t *prog, size_t len)
{
	struct of_groups	*gt = arg;
	struct of_oamap		*m = &gt->by_flow;
	struct fref		*r, *next;
	struct of_group		*g;
	uint32_t		 i;

	(void)prog;
	(void)len;
	if (m->n == 0)
		return;
	i = of_oamap_find(m, (uintptr_t)flow);
	if ((r = m->slots[i].val) == NULL)
		return;
	of_oamap_del(m, i);
	for (; r != NULL; r = next) {
		next = r->fnext;
		if ((g = group_find(gt, r->group)) != NULL)
			fref_unlink_group(g, r);
		free(r);
	}
}

const struct of_ft_refs *
of_groups_ft_refs(struct of_groups *gt)
{
	gt->ft_refs.on = fref_on;
	gt->ft_refs.off = fref_off;
	gt->ft_refs.arg = gt;
	return &gt->ft_refs;
}

void *
of_groups_flow(const struct of_groups *gt, uint32_t group_id)
{
	const struct of_group	*g = group_find(gt, group_id);

	return g != NULL && g->flows != NULL ? (void *)g->flows->flow : NULL;
}

int
of_groups_has(const struct of_groups *gt, uint32_t group_id)
{
	return group_find(gt, group_id) != NULL;
}

uint32_t
of_groups_count(const struct of_groups *gt)
{
	return gt != NULL ? gt->by_id.n : 0;
}

static void
group_visit(const struct of_group *g, uint64_t now_ns,
    void (*fn)(void *, struct of_group_info *), void *arg)
{
	struct of_group_info	 gi;
	uint64_t		 age;

	age = now_ns - g->added_ns;
	memset(&gi, 0, sizeof(gi));
	gi.group_id = g->id;
	gi.type = g->type;
	gi.n_buckets = g->n_buckets;
	gi.ref_count = g->refs + g->grefs;
	gi.duration_sec = (uint32_t)(age / 1000000000ull);
	gi.duration_nsec = (uint32_t)(age % 1000000000ull);
	gi.buckets = g->buckets;
	gi.buckets_len = g->len;
	gi.counters = g->counters;
	fn(arg, &gi);
}

void
of_groups_walk(const struct of_groups *gt, uint32_t want, uint64_t now_ns,
    void (*fn)(void *, struct of_group_info *), void *arg)
{
	struct of_group		*g;
	uint32_t		 i;

	if (gt == NULL)
		return;
	if (want != OF_GROUP_ALL) {
		if ((g = group_find(gt, want)) != NULL)
			group_visit(g, now_ns, fn, arg);
		return;
	}
	GT_EACH(gt, i, g)
		group_visit(g, now_ns, fn, arg);
}

void
of_groups_free(struct of_groups *gt)
{
	if (gt == NULL)
		return;
	groups_clear(gt);
	free(gt);
}

/* ---- packets (1.3.5 section 5.6.1): buckets chosen, counted ---- */

static int	group_live(const struct of_groups *, struct of_group *,
		    const struct of_group_packet *, uint32_t depth);

/* A bucket's liveness (1.3.5 section 6.5): its watched port up and its
 * watched group live; an unwatched bucket is live.  A SELECT bucket's
 * watch is optional and unchecked by the put (only FAST_FAILOVER's are
 * validated and loop-checked), so there port 0 and any group watch
 * nothing. */
static int
bucket_live(const struct of_groups *gt, uint8_t type, const struct bucket *b,
    const struct of_group_packet *pk, uint32_t depth)
{
	struct of_group		*wg;
	int			 ff = type == OF_GT_FF;

	if (b->watch_port != OF_PORT_ANY && (ff || b->watch_port != 0) &&
	    !pk->port_live(pk->arg, b->watch_port))
		return 0;
	if (b->watch_group == OF_GROUP_ANY || !ff)
		return 1;
	wg = group_find(gt, b->watch_group);
	return wg != NULL && group_live(gt, wg, pk, depth + 1);
}

/* A group is live when one of its buckets is (a watched group gone, or a
 * chain deeper than any put allows, is not); found once per packet
 * (live_gen), so watches shared down a chain cost one look each. */
static int
group_live(const struct of_groups *gt, struct of_group *g,
    const struct of_group_packet *pk, uint32_t depth)
{
	struct rbuf	r;
	struct bucket	b;

	if (depth > OF_GROUP_DEPTH_MAX)
		return 0;
	if (g->live_gen == gt->gen)
		return g->live;
	g->live_gen = gt->gen;
	g->live = 0;
	rbuf_init(&r, g->buckets, g->len);
	while (bucket_next(&r, &b) == 0)
		if (bucket_live(gt, g->type, &b, pk, depth)) {
			g->live = 1;
			break;
		}
	return g->live;
}

/* The one bucket of a SELECT group: by weight among the live ones, from
 * the packet's hash (a flow keeps its bucket while the set stays); -1:
 * none live.  FAST_FAILOVER: the first live; INDIRECT: its one. */
static int
group_pick(const struct of_groups *gt, const struct of_group *g,
    const struct of_group_packet *pk, uint32_t depth)
{
	struct rbuf	r;
	struct bucket	b;
	uint64_t	total = 0, at;
	int		k;

	rbuf_init(&r, g->buckets, g->len);
	for (k = 0; bucket_next(&r, &b) == 0; k++) {
		if (g->type == OF_GT_INDIRECT)
			return k;
		if (!bucket_live(gt, g->type, &b, pk, depth))
			continue;
		if (g->type == OF_GT_FF)
			return k;
		total += b.weight;
	}
	if (total == 0)
		return -1;
	at = pk->hash % total;
	rbuf_init(&r, g->buckets, g->len);
	for (k = 0; bucket_next(&r, &b) == 0; k++) {
		if (!bucket_live(gt, g->type, &b, pk, depth) || b.weight == 0)
			continue;
		if (at < b.weight)
			return k;
		at -= b.weight;
	}
	return -1;
}

static void	group_send(struct of_groups *, struct of_group *,
		    struct of_group_packet *, uint32_t depth);

/* Count one packet at counter pair k (0: the group, 1 + n: bucket n). */
static void
group_count(struct of_group *g, uint32_t k, uint32_t bytes)
{
	if (g->counters == NULL && (g->counters = calloc(
	    OF_GROUP_COUNTERS(g->n_buckets), sizeof(uint64_t))) == NULL)
		return;		/* out of memory: the packet goes uncounted */
	g->counters[2 * k]++;
	g->counters[2 * k + 1] += bytes;
}

struct send_step {
	struct of_groups	*gt;
	struct of_group_packet	*pk;
	uint32_t		 depth;
};

static void
send_child(void *arg, uint32_t id, int watch)
{
	struct send_step	*s = arg;
	struct of_group		*g = group_find(s->gt, id);

	(void)watch;
	if (g != NULL)
		group_send(s->gt, g, s->pk, s->depth + 1);
}

/* Bucket k's actions: its outputs join pk->ports, its GROUP actions
 * send the packet on down the chain. */
static void
bucket_send(struct of_groups *gt, struct of_group *g, const struct bucket *b,
    uint32_t k, struct of_group_packet *pk, uint32_t depth)
{
	struct send_step	s = { gt, pk, depth };
	int			n;

	/* ALL groups forwarding to ALL groups multiply the copies: past
	 * OF_GROUP_COPIES_MAX buckets the packet goes no further. */
	if (pk->buckets_taken >= OF_GROUP_COPIES_MAX) {
		pk->truncated = 1;
		return;
	}
	pk->buckets_taken++;
	group_count(g, 1 + k, pk->bytes);
	n = of_actions_output_ports(OF_VERSION_13, b->acts, b->acts_len,
	    pk->ports + pk->n, pk->max - pk->n);
	if (n > 0)
		pk->n += (size_t)n;
	actions_each_group(b->acts, b->acts_len, send_child, &s);
}

static void
group_send(struct of_groups *gt, struct of_group *g,
    struct of_group_packet *pk, uint32_t depth)
{
	struct rbuf	r;
	struct bucket	b;
	int		pick = -1;
	uint32_t	k;

	if (depth > OF_GROUP_DEPTH_MAX)
		return;
	group_count(g, 0, pk->bytes);
	if (g->type != OF_GT_ALL && (pick = group_pick(gt, g, pk,
	    depth)) < 0)
		return;		/* no live bucket: dropped */
	rbuf_init(&r, g->buckets, g->len);
	for (k = 0; bucket_next(&r, &b) == 0; k++)
		if (pick < 0 || (uint32_t)pick == k)
			bucket_send(gt, g, &b, k, pk, depth);
}

static void
missing_group(void *arg, uint32_t id, int watch)
{
	const struct of_groups	**gt = arg;

	(void)watch;
	if (*gt != NULL && !of_groups_has(*gt, id))
		*gt = NULL;
}

int
of_groups_send(struct of_groups *gt, const uint8_t *acts, size_t len,
    struct of_group_packet *pk, enum of_err *err)
{
	const struct of_groups	*check = gt;
	struct send_step	 s = { gt, pk, 0 };
	uint32_t		 named = 0;

	pk->n = 0;
	pk->buckets_taken = 0;
	pk->truncated = 0;
	actions_each_group(acts, len, count_edge, &named);
	if (named == 0)
		return 0;
	/* Every group named must exist (BAD_OUT_GROUP, as for a flow's
	 * actions) before the packet goes anywhere. */
	actions_each_group(acts, len, missing_group, &check);
	if (check == NULL)
		return bad(err, OF_ERR_BAD_OUT_GROUP);
	gt->gen++;	/* liveness is found afresh for each packet */
	actions_each_group(acts, len, send_child, &s);
	return (int)named;
}

/* A copy, for a bundle's commit to put back when one of its messages
 * fails (of_bundle.c): groups, buckets, chain counts and packet counters;
 * not the flows naming each group, which of_groups_refs_replay() finds
 * again from the flow table once its own rollback is done.  NULL stays
 * NULL. */
struct of_groups *
of_groups_clone(const struct of_groups *gt)
{
	struct of_groups	*c;
	struct of_group		*g, *ng;
	uint32_t		 i;
	size_t			 nc;

	if (gt == NULL)
		return NULL;
	c = xcalloc(1, sizeof(*c));
	c->gen = gt->gen;
	c->edges = gt->edges;
	GT_EACH(gt, i, g) {
		ng = xmalloc(sizeof(*ng) + g->len);
		memcpy(ng, g, sizeof(*ng) + g->len);
		ng->flows = NULL;
		ng->refs = 0;
		if (g->counters != NULL) {
			nc = OF_GROUP_COUNTERS(g->n_buckets);
			ng->counters = xreallocarray(NULL, nc, sizeof(uint64_t));
			memcpy(ng->counters, g->counters, nc * sizeof(uint64_t));
		}
		if (of_oamap_reserve(&c->by_id) == -1)
			fatalx("group table: out of memory");
		of_oamap_set(&c->by_id, of_oamap_find(&c->by_id, ng->id),
		    ng->id, ng);
	}
	return c;
}
