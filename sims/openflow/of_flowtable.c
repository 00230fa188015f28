/*
 * Flow tables: FLOW_MOD semantics of OpenFlow 1.3.5 section 6.4 and 1.0.0
 * section 4.6, flow timeouts (1.3.5 section 5.5, 1.0.0 section 3.5) and
 * the selection rules of flow stats (1.3.5 section 7.3.5.2).
 *
 * Each table has a chained hash on (priority, canonical match) for ADD and
 * the strict commands, and a list for the non-strict commands and stats,
 * kept grouped by priority (insertion order within a priority), each
 * priority's run found through a small hash: CHECK_OVERLAP compares only
 * flows of its own priority, as section 6.4's overlap is defined.  A flow is one allocation: this header, then its
 * match bytes, then its instructions (1.3) or actions (1.0).  No traffic
 * is simulated, so packet and byte counters are always 0 and are not
 * stored; the idle timeout counts from install (or from the last
 * RESET_COUNTS modify, 1.3).  Flows with a timeout sit in a min-heap on
 * their expiry time, so expiry costs nothing when no flow has one.
 *
 * Choices: an ADD that replaces an identical flow counts in "modified";
 * a 1.0 MODIFY sets the cookie too (1.0 has no cookie mask, the cookie is
 * the new value, as in Open vSwitch); 1.0 MODIFY and DELETE reach all
 * tables; an ADD with the 1.0 EMERG flag answers TABLE_FULL, as Open
 * vSwitch does (no emergency cache); unknown 1.3 flags are BAD_FLAGS.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include "log.h"
#include "of_actions.h"
#include "of_flowtable.h"
#include "of_overlap.h"
#include "ut.h"

#define NSEC_PER_SEC		1000000000ULL
#define NSEC_PER_MSEC		1000000ULL
#define FT_MIN_BUCKETS		16
#define FT_HEAP_NONE		UINT32_MAX
#define FT_FLAGS13		(OF_FF_SEND_FLOW_REM | OF_FF_CHECK_OVERLAP | \
				 OF_FF_RESET_COUNTS | OF_FF_NO_PKT_COUNTS | \
				 OF_FF_NO_BYT_COUNTS)

struct of_flow {
	struct of_flow		*hnext;		/* hash chain */
	TAILQ_ENTRY(of_flow)	 link;		/* table list */
	uint64_t		 cookie;
	uint64_t		 install_ns;	/* duration, hard timeout */
	uint32_t		 idle_ms;	/* idle restarted, after install */
	uint32_t		 hash;
	uint32_t		 heap_idx;	/* FT_HEAP_NONE: no timeout */
	uint16_t		 priority;
	uint16_t		 idle_timeout;
	uint16_t		 hard_timeout;
	uint16_t		 flags;
	uint16_t		 match_len;
	uint16_t		 prog_len;
	uint16_t		 importance;	/* 1.4: in the padding */
	uint8_t			 table_id;
	uint8_t			 data[];	/* match, then prog */
};

TAILQ_HEAD(of_flow_list, of_flow);

/*
 * One priority's run of the table's list: first..last, count flows.
 * mixed: not every flow of it names the same unmasked fields as the
 * first one (sticky until the run empties).  ovl: CHECK_OVERLAP's index
 * of the run (of_overlap.c), built by the first check that needs it, so
 * runs never checked, or all of one exact shape, pay nothing for it.
 */
struct of_ft_prio {
	uint16_t		 priority;
	uint8_t			 mixed;
	uint32_t		 count;
	struct of_flow		*first;
	struct of_flow		*last;
	struct of_ovl		*ovl;
	UT_hash_handle		 hh;
};

struct of_ft_table {
	struct of_flow		**buckets;
	uint32_t		 nbuckets;	/* power of two */
	uint32_t		 count;
	struct of_flow_list	 flows;
	struct of_ft_prio	*prios;		/* by priority */
	struct of_ft_prio	*hot;		/* the last one found, or NULL */
};

struct of_flowtable {
	uint8_t			 version;
	uint8_t			 n_tables;
	uint32_t		 max_per_table;
	uint64_t		 total;
	struct of_flow		**heap;		/* flows with a timeout */
	uint32_t		 heap_n;
	uint32_t		 heap_cap;
	/* Grown to the highest table used: an idle switch of 254 tables
	 * holds no array at all (it was 2 KiB of NULLs per switch). */
	struct of_ft_table	**tables;
	uint16_t		 tables_cap;
	of_flow_watch_cb	 watch;		/* flow monitors, or NULL */
	void			*watch_arg;
	struct of_ft_txn	*txn;		/* a bundle's commit, or NULL */
	/* Told of each flow's program (the group table's reference lists);
	 * NULL until the switch took a group. */
	const struct of_ft_refs	*refs;
};

/*
 * The undo log of a transaction (a bundle's commit): what each change did,
 * so a failed commit puts every flow back where it was, and the flows a
 * commit removes or replaces are freed, and reported, only once it
 * succeeds.  LINKED: f is new.  SWAPPED: f took old's place.  DROPPED: f
 * left the list after old (NULL: the head), with its FLOW_REMOVED due.
 */
enum ft_undo_kind { FT_LINKED, FT_SWAPPED, FT_DROPPED };

struct ft_undo {
	uint8_t			 kind;
	uint8_t			 reason;
	struct of_flow		*f;
	struct of_flow		*old;
	uint64_t		 now;
	of_flow_removed_cb	 cb;
	void			*arg;
};

struct of_ft_txn {
	struct ft_undo		*v;
	size_t			 n;
	size_t			 cap;
};

/* What one FLOW_MOD is doing, passed down the helpers. */
struct ft_op {
	struct of_flowtable		*ft;
	const struct of_flow_mod	*mod;
	uint64_t			 now;
	of_flow_removed_cb		 cb;
	void				*arg;
	struct of_ft_result		*res;
	enum of_err			*err;
};

static struct ft_undo *
txn_log(struct of_flowtable *ft, uint8_t kind, struct of_flow *f,
    struct of_flow *old)
{
	struct of_ft_txn	*x = ft->txn;
	struct ft_undo		*u;

	if (x->n == x->cap) {
		x->cap = x->cap ? x->cap * 2 : 64;
		x->v = xreallocarray(x->v, x->cap, sizeof(*x->v));
	}
	u = &x->v[x->n++];
	memset(u, 0, sizeof(*u));
	u->kind = kind;
	u->f = f;
	u->old = old;
	return u;
}

static int
ft_fail(enum of_err *err, enum of_err e)
{
	if (err != NULL)
		*err = e;
	return -1;
}

static const uint8_t *
flow_prog(const struct of_flow *f)
{
	return f->data + f->match_len;
}

static void
flow_match(const struct of_flow *f, struct of_match *m)
{
	m->len = f->match_len;
	memcpy(m->oxm, f->data, f->match_len);
}

/* ---- timeouts: a min-heap on expiry time ---- */

static uint64_t
flow_expiry(const struct of_flow *f, uint8_t *reason)
{
	uint64_t	idle = 0, hard = 0;

	if (f->idle_timeout)
		idle = f->install_ns + f->idle_ms * NSEC_PER_MSEC +
		    f->idle_timeout * NSEC_PER_SEC;
	if (f->hard_timeout)
		hard = f->install_ns + f->hard_timeout * NSEC_PER_SEC;
	/* Both due: the hard timeout wins, as in Open vSwitch. */
	if (hard != 0 && (idle == 0 || hard <= idle)) {
		if (reason != NULL)
			*reason = OF_RR_HARD_TIMEOUT;
		return hard;
	}
	if (reason != NULL)
		*reason = OF_RR_IDLE_TIMEOUT;
	return idle;
}

static void
heap_set(struct of_flowtable *ft, uint32_t i, struct of_flow *f)
{
	ft->heap[i] = f;
	f->heap_idx = i;
}

static int
heap_less(struct of_flowtable *ft, uint32_t a, uint32_t b)
{
	return flow_expiry(ft->heap[a], NULL) < flow_expiry(ft->heap[b], NULL);
}

static void
heap_swap(struct of_flowtable *ft, uint32_t a, uint32_t b)
{
	struct of_flow	*fa = ft->heap[a];

	heap_set(ft, a, ft->heap[b]);
	heap_set(ft, b, fa);
}

static void
heap_fix(struct of_flowtable *ft, uint32_t i)
{
	uint32_t	c;

	while (i > 0 && heap_less(ft, i, (i - 1) / 2)) {
		heap_swap(ft, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	while ((c = 2 * i + 1) < ft->heap_n) {
		if (c + 1 < ft->heap_n && heap_less(ft, c + 1, c))
			c++;
		if (!heap_less(ft, c, i))
			break;
		heap_swap(ft, i, c);
		i = c;
	}
}

static void
heap_add(struct of_flowtable *ft, struct of_flow *f)
{
	if (f->idle_timeout == 0 && f->hard_timeout == 0) {
		f->heap_idx = FT_HEAP_NONE;
		return;
	}
	if (ft->heap_n == ft->heap_cap) {
		ft->heap_cap = ft->heap_cap ? ft->heap_cap * 2 : 64;
		ft->heap = xreallocarray(ft->heap, ft->heap_cap,
		    sizeof(*ft->heap));
	}
	heap_set(ft, ft->heap_n++, f);
	heap_fix(ft, f->heap_idx);
}

static void
heap_del(struct of_flowtable *ft, struct of_flow *f)
{
	uint32_t	i = f->heap_idx;

	if (i == FT_HEAP_NONE)
		return;
	f->heap_idx = FT_HEAP_NONE;
	if (i != --ft->heap_n) {
		heap_set(ft, i, ft->heap[ft->heap_n]);
		heap_fix(ft, i);
	}
}

/* ---- one table: hash and list ---- */

static uint32_t
flow_key_hash(uint16_t priority, const struct of_match *m)
{
	return of_match_hash(m, 0x9e3779b9u * (priority + 1u));
}

/* Table id, or NULL while it holds nothing and never did. */
static struct of_ft_table *
ft_table(const struct of_flowtable *ft, unsigned id)
{
	return id < ft->tables_cap ? ft->tables[id] : NULL;
}

static struct of_ft_table *
table_get(struct of_flowtable *ft, uint8_t id)
{
	struct of_ft_table	**a, *t;
	unsigned		  cap;

	if (id >= ft->tables_cap) {
		cap = id + 1u;
		a = xreallocarray(ft->tables, cap, sizeof(*a));
		memset(a + ft->tables_cap, 0,
		    (cap - ft->tables_cap) * sizeof(*a));
		ft->tables = a;
		ft->tables_cap = (uint16_t)cap;
	}
	if ((t = ft->tables[id]) == NULL) {
		t = xcalloc(1, sizeof(*t));
		TAILQ_INIT(&t->flows);
		ft->tables[id] = t;
	}
	return t;
}

static void
table_rehash(struct of_ft_table *t, uint32_t n)
{
	struct of_flow	**b = xcalloc(n, sizeof(*b));
	struct of_flow	 *f;

	TAILQ_FOREACH(f, &t->flows, link) {
		f->hnext = b[f->hash & (n - 1)];
		b[f->hash & (n - 1)] = f;
	}
	free(t->buckets);
	t->buckets = b;
	t->nbuckets = n;
}

static struct of_flow **
table_slot(struct of_ft_table *t, const struct of_flow *f)
{
	struct of_flow	**pp = &t->buckets[f->hash & (t->nbuckets - 1)];

	while (*pp != f)
		pp = &(*pp)->hnext;
	return pp;
}

static struct of_flow *
table_find(const struct of_ft_table *t, uint16_t priority,
    const struct of_match *m, uint32_t hash)
{
	struct of_flow	*f;

	if (t == NULL || t->nbuckets == 0)
		return NULL;
	for (f = t->buckets[hash & (t->nbuckets - 1)]; f; f = f->hnext)
		if (f->hash == hash && f->priority == priority &&
		    f->match_len == m->len &&
		    memcmp(f->data, m->oxm, m->len) == 0)
			return f;
	return NULL;
}

/* Controllers push runs of one priority: the last run found is tried
 * before the hash. */
static struct of_ft_prio *
prio_find(struct of_ft_table *t, uint16_t priority)
{
	struct of_ft_prio	*g;

	if (t->hot != NULL && t->hot->priority == priority)
		return t->hot;
	HASH_FIND(hh, t->prios, &priority, sizeof(priority), g);
	if (g != NULL)
		t->hot = g;
	return g;
}

/* Whether f names the same unmasked fields as the run's first flow. */
static int
prio_alike(const struct of_ft_prio *g, const uint8_t *oxm, size_t len)
{
	return of_match_exact_alike(g->first->data, g->first->match_len, oxm,
	    len);
}

/* Into the list right after prev (NULL: the head), which is in f's run
 * g (NULL: none yet) or just before where it begins: a new run, or the
 * run's first or last flow. */
static void
prio_insert(struct of_ft_table *t, struct of_ft_prio *g, struct of_flow *f,
    struct of_flow *prev)
{
	if (prev == NULL)
		TAILQ_INSERT_HEAD(&t->flows, f, link);
	else
		TAILQ_INSERT_AFTER(&t->flows, prev, f, link);
	if (g == NULL) {
		g = xcalloc(1, sizeof(*g));
		g->priority = f->priority;
		g->first = g->last = f;
		HASH_ADD(hh, t->prios, priority, sizeof(g->priority), g);
	} else if (prev == NULL || prev->priority != f->priority)
		g->first = f;
	else if (g->last == prev)
		g->last = f;
	if (!g->mixed && !prio_alike(g, f->data, f->match_len))
		g->mixed = 1;
	g->count++;
	if (g->ovl != NULL)
		of_ovl_add(g->ovl, f->data, f->match_len);
}

/* Into its priority's run: after the last flow of it, or a new run at
 * the tail. */
static void
prio_link(struct of_ft_table *t, struct of_flow *f)
{
	struct of_ft_prio	*g = prio_find(t, f->priority);

	prio_insert(t, g, f, g != NULL ? g->last :
	    TAILQ_LAST(&t->flows, of_flow_list));
}

static void
prio_unlink(struct of_ft_table *t, struct of_flow *f)
{
	struct of_ft_prio	*g = prio_find(t, f->priority);

	if (g == NULL)
		fatalx("flow table: priority %u has no run", f->priority);
	if (g->first == f)
		g->first = TAILQ_NEXT(f, link);
	else if (g->last == f)
		g->last = TAILQ_PREV(f, of_flow_list, link);
	TAILQ_REMOVE(&t->flows, f, link);
	if (--g->count == 0) {
		HASH_DEL(t->prios, g);
		t->hot = NULL;
		of_ovl_free(g->ovl);
		free(g);
	} else if (g->ovl != NULL)
		of_ovl_del(g->ovl, f->data, f->match_len);
}

static void
refs_on(const struct of_flowtable *ft, struct of_flow *f)
{
	if (ft->refs != NULL)
		ft->refs->on(ft->refs->arg, f, flow_prog(f), f->prog_len);
}

static void
refs_off(const struct of_flowtable *ft, struct of_flow *f)
{
	if (ft->refs != NULL)
		ft->refs->off(ft->refs->arg, f, flow_prog(f), f->prog_len);
}

/* Counted, hashed (the hash grown when full) and timed: f is in. */
static void
table_count_in(struct of_flowtable *ft, struct of_ft_table *t,
    struct of_flow *f)
{
	uint32_t	b;

	t->count++;
	ft->total++;
	if (t->count > t->nbuckets)
		table_rehash(t, t->nbuckets ? t->nbuckets * 2 : FT_MIN_BUCKETS);
	else {
		b = f->hash & (t->nbuckets - 1);
		f->hnext = t->buckets[b];
		t->buckets[b] = f;
	}
	heap_add(ft, f);
}

static void
table_link(struct of_flowtable *ft, struct of_ft_table *t, struct of_flow *f)
{
	refs_on(ft, f);
	prio_link(t, f);
	table_count_in(ft, t, f);
	if (ft->txn != NULL)
		txn_log(ft, FT_LINKED, f, NULL);
}

/* Out of the hash, its run, the heap and the counts; not freed. */
static void
table_unlink(struct of_flowtable *ft, struct of_ft_table *t, struct of_flow *f)
{
	refs_off(ft, f);
	*table_slot(t, f) = f->hnext;
	prio_unlink(t, f);
	heap_del(ft, f);
	t->count--;
	ft->total--;
}

/* Unlink and free; the caller reports it first if it has to. */
static void
table_drop(struct of_flowtable *ft, struct of_ft_table *t, struct of_flow *f)
{
	table_unlink(ft, t, f);
	free(f);
	/* Shrink so a table emptied after a big run gives memory back. */
	if (t->nbuckets > FT_MIN_BUCKETS && t->count < t->nbuckets / 4)
		table_rehash(t, t->nbuckets / 2);
}

/* Put nf where old was (hash chain, list, heap) and free old. */
static void
table_swap(struct of_flowtable *ft, struct of_ft_table *t,
    struct of_flow *old, struct of_flow *nf)
{
	struct of_flow		**pp = table_slot(t, old);
	struct of_ft_prio	 *g = prio_find(t, old->priority);

	refs_off(ft, old);
	refs_on(ft, nf);
	nf->hnext = old->hnext;
	*pp = nf;
	TAILQ_INSERT_BEFORE(old, nf, link);
	TAILQ_REMOVE(&t->flows, old, link);
	/* Same priority and match: the run keeps its place and shape. */
	if (g->first == old)
		g->first = nf;
	if (g->last == old)
		g->last = nf;
	heap_del(ft, old);
	heap_add(ft, nf);
	if (ft->txn != NULL)
		txn_log(ft, FT_SWAPPED, nf, old);
	else
		free(old);
}

/* ---- flows ---- */

static struct of_flow *
flow_alloc(const struct of_match *m, const uint8_t *prog, size_t prog_len)
{
	struct of_flow	*f;

	f = xmalloc(offsetof(struct of_flow, data) + m->len + prog_len);
	f->match_len = m->len;
	f->prog_len = prog_len;
	memcpy(f->data, m->oxm, m->len);
	if (prog_len > 0)
		memcpy(f->data + m->len, prog, prog_len);
	return f;
}

static struct of_flow *
flow_new(const struct ft_op *op, uint32_t hash)
{
	const struct of_flow_mod	*mod = op->mod;
	struct of_flow			*f;

	f = flow_alloc(&mod->match, mod->prog, mod->prog_len);
	f->hnext = NULL;
	f->cookie = mod->cookie;
	f->install_ns = op->now;
	f->idle_ms = 0;
	f->hash = hash;
	f->heap_idx = FT_HEAP_NONE;
	f->priority = mod->priority;
	f->idle_timeout = mod->idle_timeout;
	f->hard_timeout = mod->hard_timeout;
	f->flags = mod->flags & ~OF_FF_EMERG;
	f->importance = mod->importance;
	f->table_id = mod->table_id;
	return f;
}

/* A flow reallocated takes every field of the old one (so a field added
 * to struct of_flow is never left behind) but its own links, lengths and
 * data; it is in no hash chain or timeout heap yet. */
static void
flow_copy_state(struct of_flow *nf, const struct of_flow *f)
{
	struct of_flow	own = *nf;	/* the header only: data[] stays */

	*nf = *f;
	nf->hnext = NULL;
	nf->link = own.link;
	nf->heap_idx = FT_HEAP_NONE;
	nf->match_len = own.match_len;
	nf->prog_len = own.prog_len;
}

static void
flow_info(const struct of_flow *f, uint64_t now, uint8_t reason,
    struct of_flow_info *fi, struct of_match *m)
{
	uint64_t	d = now > f->install_ns ? now - f->install_ns : 0;

	flow_match(f, m);
	/* packet_count and byte_count stay 0: no traffic meets these flows. */
	*fi = (struct of_flow_info){ .table_id = f->table_id,
	    .priority = f->priority, .idle_timeout = f->idle_timeout,
	    .hard_timeout = f->hard_timeout, .flags = f->flags,
	    .importance = f->importance, .cookie = f->cookie,
	    .duration_sec = d / NSEC_PER_SEC,
	    .duration_nsec = d % NSEC_PER_SEC, .reason = reason, .match = m,
	    .prog = flow_prog(f), .prog_len = f->prog_len };
}

/* A change flow monitors hear of (none watching: nothing to do). */
static void
flow_watch(const struct of_flowtable *ft, const struct of_flow *f,
    uint64_t now, uint16_t event, uint8_t reason)
{
	struct of_flow_info	fi;
	struct of_match		m;

	if (ft->watch == NULL)
		return;
	flow_info(f, now, reason, &fi, &m);
	ft->watch(ft->watch_arg, event, &fi);
}

/* Remove a flow, telling the controller when it asked to be told. */
static void
flow_remove(struct of_flowtable *ft, struct of_ft_table *t, struct of_flow *f,
    uint64_t now, uint8_t reason, of_flow_removed_cb cb, void *arg)
{
	struct of_flow_info	fi;
	struct of_match		m;
	struct ft_undo		*u;

	if (ft->txn != NULL) {
		/* Reported once the commit holds (1.4.1 section 6.8.5). */
		u = txn_log(ft, FT_DROPPED, f, TAILQ_PREV(f, of_flow_list,
		    link));
		u->reason = reason;
		u->now = now;
		u->cb = cb;
		u->arg = arg;
		table_unlink(ft, t, f);
		return;
	}
	if (cb != NULL && (f->flags & OF_FF_SEND_FLOW_REM)) {
		flow_info(f, now, reason, &fi, &m);
		cb(arg, &fi);
	}
	flow_watch(ft, f, now, OF_FME_REMOVED, reason);
	table_drop(ft, t, f);
}

static int
cookie_ok(const struct of_flow *f, uint64_t cookie, uint64_t mask)
{
	return (f->cookie & mask) == (cookie & mask);
}

/* The out_port / out_group filters of section 6.4 (ANY: no filter). */
static int
flow_outputs_ok(const struct of_flowtable *ft, const struct of_flow *f,
    uint32_t out_port, uint32_t out_group)
{
	return of_prog_outputs_to(ft->version, flow_prog(f), f->prog_len,
	    out_port) && of_prog_uses_group(ft->version, flow_prog(f),
	    f->prog_len, out_group);
}

/* Non-strict selection (1.3.5 section 6.4, 7.3.5.2). */
static int
flow_selected(const struct of_flowtable *ft, const struct of_flow *f,
    const struct of_match *match, uint64_t cookie, uint64_t cookie_mask,
    uint32_t out_port, uint32_t out_group)
{
	struct of_match	m;

	if (!cookie_ok(f, cookie, cookie_mask))
		return 0;
	if (match->len > 0) {
		flow_match(f, &m);
		if (!of_match_covers(match, &m))
			return 0;
	}
	return flow_outputs_ok(ft, f, out_port, out_group);
}

/* ---- FLOW_MOD commands ---- */

/*
 * CHECK_OVERLAP (1.3.5 section 6.4): another flow at this priority that
 * some packet could match too.  Only the mod's priority's run is looked
 * at; when every flow of it and the mod name the same unmasked fields,
 * only an identical match overlaps, and the hash answers that.  Other
 * runs are asked through their tuple-space index, one lookup per shape
 * (of_overlap.c), built from the run the first time.
 */
static int
table_overlaps(struct of_ft_table *t, const struct of_flow_mod *mod,
    uint32_t hash)
{
	struct of_ft_prio	*g = prio_find(t, mod->priority);
	const struct of_flow	*f;
	uint32_t		 i;

	if (g == NULL)
		return 0;
	if (!g->mixed && prio_alike(g, mod->match.oxm, mod->match.len))
		return table_find(t, mod->priority, &mod->match, hash) != NULL;
	if (g->ovl == NULL) {
		g->ovl = of_ovl_new();
		for (i = 0, f = g->first; i < g->count;
		    i++, f = TAILQ_NEXT(f, link))
			of_ovl_add(g->ovl, f->data, f->match_len);
	}
	return of_ovl_overlaps(g->ovl, mod->match.oxm, mod->match.len);
}

static int
ft_add(struct ft_op *op)
{
	const struct of_flow_mod	*mod = op->mod;
	struct of_ft_table		*t;
	struct of_flow			*old, *f;
	uint32_t			 h;

	if (mod->table_id >= op->ft->n_tables)
		return ft_fail(op->err, OF_ERR_FLOW_BAD_TABLE_ID);
	if (mod->flags & OF_FF_EMERG)
		return ft_fail(op->err, OF_ERR_FLOW_TABLE_FULL);
	t = table_get(op->ft, mod->table_id);
	h = flow_key_hash(mod->priority, &mod->match);
	if ((mod->flags & OF_FF_CHECK_OVERLAP) && table_overlaps(t, mod, h))
		return ft_fail(op->err, OF_ERR_FLOW_OVERLAP);
	old = table_find(t, mod->priority, &mod->match, h);
	if (old == NULL && t->count >= op->ft->max_per_table)
		return ft_fail(op->err, OF_ERR_FLOW_TABLE_FULL);
	f = flow_new(op, h);
	if (old != NULL) {
		/* Identical match and priority: replaced, duration too. */
		table_swap(op->ft, t, old, f);
		op->res->modified++;
		flow_watch(op->ft, f, op->now, OF_FME_MODIFIED, 0);
	} else {
		table_link(op->ft, t, f);
		op->res->added++;
		flow_watch(op->ft, f, op->now, OF_FME_ADDED, 0);
	}
	return 0;
}

/*
 * Counters reset: with no traffic the idle timer counts from here.  Kept
 * as milliseconds after install (timeouts are whole seconds) to keep the
 * flow header small.
 */
static void
idle_restart(struct of_flow *f, uint64_t now)
{
	uint64_t	ms = now > f->install_ns ?
			    (now - f->install_ns) / NSEC_PER_MSEC : 0;

	f->idle_ms = ms > UINT32_MAX ? UINT32_MAX : ms;
}

/* New instructions (and, in 1.0, cookie) for one flow; others stay. */
static void
flow_modify(struct ft_op *op, struct of_ft_table *t, struct of_flow *f)
{
	const struct of_flow_mod	*mod = op->mod;
	struct of_flow			*nf = f;
	struct of_match			 m;

	/* In a transaction the old flow is kept as it was, for the undo. */
	if (f->prog_len == mod->prog_len && op->ft->txn == NULL) {
		refs_off(op->ft, f);
		if (mod->prog_len > 0)
			memcpy(f->data + f->match_len, mod->prog,
			    mod->prog_len);
		refs_on(op->ft, f);
	} else {
		flow_match(f, &m);
		nf = flow_alloc(&m, mod->prog, mod->prog_len);
		flow_copy_state(nf, f);
		table_swap(op->ft, t, f, nf);
	}
	if (op->ft->version == OF_VERSION_10)
		nf->cookie = mod->cookie;
	else if (mod->flags & OF_FF_RESET_COUNTS) {
		idle_restart(nf, op->now);
		if (nf->heap_idx != FT_HEAP_NONE)
			heap_fix(op->ft, nf->heap_idx);
	}
	op->res->modified++;
	flow_watch(op->ft, nf, op->now, OF_FME_MODIFIED, 0);
}

static void
flow_delete(struct ft_op *op, struct of_ft_table *t, struct of_flow *f)
{
	flow_remove(op->ft, t, f, op->now, OF_RR_DELETE, op->cb, op->arg);
	op->res->deleted++;
}

/*
 * fn on the flows of t a MODIFY or DELETE selects: strict, the one flow
 * of the same priority and match; else every flow the match covers.
 * Both filter by cookie, out_port and out_group (MODIFY with ANY).
 */
static void
table_each(struct ft_op *op, struct of_ft_table *t, int strict,
    uint32_t out_port, uint32_t out_group,
    void (*fn)(struct ft_op *, struct of_ft_table *, struct of_flow *))
{
	const struct of_flow_mod	*mod = op->mod;
	struct of_flow			*f, *next;

	if (t == NULL)
		return;
	if (strict) {
		f = table_find(t, mod->priority, &mod->match,
		    flow_key_hash(mod->priority, &mod->match));
		if (f != NULL && cookie_ok(f, mod->cookie, mod->cookie_mask) &&
		    flow_outputs_ok(op->ft, f, out_port, out_group))
			fn(op, t, f);
		return;
	}
	/* A flow swapped in (MODIFY) or out (DELETE) takes its place
	 * before next: each is seen once. */
	for (f = TAILQ_FIRST(&t->flows); f != NULL; f = next) {
		next = TAILQ_NEXT(f, link);
		if (flow_selected(op->ft, f, &mod->match, mod->cookie,
		    mod->cookie_mask, out_port, out_group))
			fn(op, t, f);
	}
}

/*
 * Tables a MODIFY or DELETE reaches: 1.0 has no table id and means all;
 * 1.3 names one, or OFPTT_ALL for a DELETE only (section 7.3.4.1).
 */
static int
op_tables(const struct ft_op *op, int all_ok, uint8_t *first, uint8_t *last)
{
	uint8_t	id = op->mod->table_id;

	if (op->ft->version == OF_VERSION_10 ||
	    (all_ok && id == OF_TABLE_ALL)) {
		*first = 0;
		*last = op->ft->n_tables - 1;
		return 0;
	}
	if (id >= op->ft->n_tables)
		return ft_fail(op->err, OF_ERR_FLOW_BAD_TABLE_ID);
	*first = *last = id;
	return 0;
}

static int
ft_modify(struct ft_op *op, int strict)
{
	uint8_t		first, last;
	uint32_t	before = op->res->modified;
	int		i;

	if (op_tables(op, 0, &first, &last) == -1)
		return -1;
	for (i = first; i <= last; i++)
		table_each(op, ft_table(op->ft, i), strict, OF_PORT_ANY,
		    OF_GROUP_ANY, flow_modify);
	/* 1.0 section 4.6: a MODIFY that finds nothing is an ADD. */
	if (op->res->modified == before && op->ft->version == OF_VERSION_10)
		return ft_add(op);
	return 0;
}

static int
ft_delete(struct ft_op *op, int strict)
{
	uint8_t	first, last;
	int	i;

	if (op_tables(op, 1, &first, &last) == -1)
		return -1;
	for (i = first; i <= last; i++)
		table_each(op, ft_table(op->ft, i), strict, op->mod->out_port,
		    op->mod->out_group, flow_delete);
	return 0;
}

int
of_flowtable_apply(struct of_flowtable *ft, const struct of_flow_mod *mod,
    uint64_t now_ns, of_flow_removed_cb cb, void *arg,
    struct of_ft_result *res, enum of_err *err)
{
	struct of_ft_result	local;
	struct ft_op		op = { ft, mod, now_ns, cb, arg, res, err };

	if (res == NULL)
		op.res = &local;
	memset(op.res, 0, sizeof(*op.res));
	if (ft->version != OF_VERSION_10 && (mod->flags & ~FT_FLAGS13))
		return ft_fail(err, OF_ERR_FLOW_BAD_FLAGS);
	if (mod->match.len > OF_MATCH_MAX || mod->prog_len > UINT16_MAX)
		return ft_fail(err, OF_ERR_BAD_LEN);
	switch (mod->command) {
	case OF_FC_ADD:
		return ft_add(&op);
	case OF_FC_MODIFY:
	case OF_FC_MODIFY_STRICT:
		return ft_modify(&op, mod->command == OF_FC_MODIFY_STRICT);
	case OF_FC_DELETE:
	case OF_FC_DELETE_STRICT:
		return ft_delete(&op, mod->command == OF_FC_DELETE_STRICT);
	}
	return ft_fail(err, OF_ERR_FLOW_BAD_COMMAND);
}

/* ---- whole switch ---- */

struct of_flowtable *
of_flowtable_new(uint8_t version, uint8_t n_tables, uint32_t max_per_table)
{
	struct of_flowtable	*ft;

	if (n_tables == 0)
		n_tables = 1;
	ft = xcalloc(1, sizeof(*ft));
	ft->version = version;
	ft->n_tables = n_tables;
	ft->max_per_table = max_per_table;
	return ft;
}

static void
prio_free(struct of_ft_table *t)
{
	struct of_ft_prio	*g, *tmp;

	HASH_ITER(hh, t->prios, g, tmp) {
		HASH_DEL(t->prios, g);
		of_ovl_free(g->ovl);
		free(g);
	}
}

void
of_flowtable_free(struct of_flowtable *ft)
{
	struct of_ft_table	*t;
	struct of_flow		*f;
	int			 i;

	if (ft == NULL)
		return;
	for (i = 0; i < ft->tables_cap; i++) {
		if ((t = ft->tables[i]) == NULL)
			continue;
		while ((f = TAILQ_FIRST(&t->flows)) != NULL) {
			TAILQ_REMOVE(&t->flows, f, link);
			free(f);
		}
		prio_free(t);
		free(t->buckets);
		free(t);
	}
	free(ft->heap);
	free(ft->tables);
	free(ft);
}

/* Tables a stats filter reaches; -1 for a table that does not exist. */
static int
filter_tables(const struct of_flowtable *ft, uint8_t id, uint8_t *first,
    uint8_t *last)
{
	if (id == OF_TABLE_ALL) {
		*first = 0;
		*last = ft->n_tables - 1;
		return 0;
	}
	if (id >= ft->n_tables)
		return -1;
	*first = *last = id;
	return 0;
}

static int
filter_selects(const struct of_flowtable *ft, const struct of_flow_filter *fl,
    const struct of_flow *f)
{
	return flow_selected(ft, f, &fl->match, fl->cookie, fl->cookie_mask,
	    fl->out_port, fl->out_group);
}

/* Returns the flows visited, or -1 for a table id that does not exist. */
int
of_flowtable_walk(struct of_flowtable *ft, const struct of_flow_filter *fl,
    uint64_t now_ns, of_flow_visit_cb cb, void *arg)
{
	struct of_flow_info	 fi;
	struct of_match		 m;
	struct of_flow		*f;
	uint8_t			 first, last;
	int			 i, n = 0;

	if (filter_tables(ft, fl->table_id, &first, &last) == -1)
		return -1;
	for (i = first; i <= last; i++) {
		if (ft_table(ft, i) == NULL)
			continue;
		TAILQ_FOREACH(f, &ft->tables[i]->flows, link) {
			if (!filter_selects(ft, fl, f))
				continue;
			n++;
			flow_info(f, now_ns, 0, &fi, &m);
			if (cb(arg, &fi) != 0)
				return n;
		}
	}
	return n;
}

void
of_flowtable_aggregate(struct of_flowtable *ft,
    const struct of_flow_filter *fl, uint64_t *packets, uint64_t *bytes,
    uint32_t *flows)
{
	struct of_flow	*f;
	uint8_t		 first, last;
	int		 i;

	*packets = *bytes = 0;
	*flows = 0;
	if (filter_tables(ft, fl->table_id, &first, &last) == -1)
		return;
	for (i = first; i <= last; i++) {
		if (ft_table(ft, i) == NULL)
			continue;
		TAILQ_FOREACH(f, &ft->tables[i]->flows, link)
			if (filter_selects(ft, fl, f))
				(*flows)++;
	}
}

uint32_t
of_flowtable_count(const struct of_flowtable *ft, uint8_t table_id)
{
	if (table_id == OF_TABLE_ALL)
		return ft->total;
	if (ft_table(ft, table_id) == NULL)
		return 0;
	return ft->tables[table_id]->count;
}

uint64_t
of_flowtable_total(const struct of_flowtable *ft)
{
	return ft->total;
}

void
of_flowtable_watch(struct of_flowtable *ft, of_flow_watch_cb cb, void *arg)
{
	ft->watch = cb;
	ft->watch_arg = arg;
}

struct of_ft_shape
of_flowtable_shape(const struct of_flowtable *ft)
{
	struct of_ft_shape	 sh = { ft->version, ft->n_tables,
				    ft->max_per_table };

	return sh;
}

int
of_flowtable_expire(struct of_flowtable *ft, uint64_t now_ns,
    of_flow_removed_cb cb, void *arg)
{
	struct of_flow	*f;
	uint8_t		 reason;
	int		 n = 0;

	while (ft->heap_n > 0) {
		f = ft->heap[0];
		if (flow_expiry(f, &reason) > now_ns)
			break;
		flow_remove(ft, ft_table(ft, f->table_id), f, now_ns, reason,
		    cb, arg);
		n++;
	}
	return n;
}

uint64_t
of_flowtable_next_expiry(const struct of_flowtable *ft)
{
	if (ft->heap_n == 0)
		return 0;
	return flow_expiry(ft->heap[0], NULL);
}

/* ---- transactions (bundles) ---- */

void
of_flowtable_txn_begin(struct of_flowtable *ft)
{
	if (ft->txn == NULL)
		ft->txn = xcalloc(1, sizeof(*ft->txn));
	ft->txn->n = 0;
}

static void
txn_end(struct of_flowtable *ft)
{
	free(ft->txn->v);
	free(ft->txn);
	ft->txn = NULL;
}

static void
table_relink(struct of_flowtable *ft, struct of_ft_table *t,
    struct of_flow *f, struct of_flow *prev)
{
	refs_on(ft, f);
	prio_insert(t, prio_find(t, f->priority), f, prev); /* where it was */
	table_count_in(ft, t, f);
}

/* The commit holds: replaced and removed flows are freed, the removed
 * ones reported (FLOW_REMOVED) in the order they went. */
void
of_flowtable_txn_commit(struct of_flowtable *ft)
{
	struct ft_undo		*u;
	struct of_flow_info	 fi;
	struct of_match		 m;
	size_t			 i;

	if (ft->txn == NULL)
		return;
	for (i = 0; i < ft->txn->n; i++) {
		u = &ft->txn->v[i];
		if (u->kind == FT_SWAPPED)
			free(u->old);
		if (u->kind != FT_DROPPED)
			continue;
		if (u->cb != NULL && (u->f->flags & OF_FF_SEND_FLOW_REM)) {
			flow_info(u->f, u->now, u->reason, &fi, &m);
			u->cb(u->arg, &fi);
		}
		free(u->f);
	}
	txn_end(ft);
}

/* The commit failed: each change undone, last first, so every flow is
 * back in its place (order, counters, timeouts) as before the commit. */
void
of_flowtable_txn_rollback(struct of_flowtable *ft)
{
	struct of_ft_txn	*x = ft->txn;
	struct ft_undo		*u;
	struct of_ft_table	*t;
	size_t			 i;

	if (x == NULL)
		return;
	ft->txn = NULL;		/* the undo itself is not logged */
	for (i = x->n; i-- > 0;) {
		u = &x->v[i];
		t = table_get(ft, u->f->table_id);
		if (u->kind == FT_LINKED)
			table_drop(ft, t, u->f);
		else if (u->kind == FT_SWAPPED)
			table_swap(ft, t, u->f, u->old);
		else
			table_relink(ft, t, u->f, u->old);
	}
	ft->txn = x;
	txn_end(ft);
}

uint32_t
of_flowtable_remove_if(struct of_flowtable *ft, of_prog_pred pred, void *parg,
    uint8_t reason, uint64_t now_ns, of_flow_removed_cb cb, void *arg)
{
	struct of_ft_table	*t;
	struct of_flow		*f, *next;
	uint32_t		 n = 0;
	unsigned		 i;

	for (i = 0; i < ft->tables_cap; i++) {
		if ((t = ft->tables[i]) == NULL)
			continue;
		for (f = TAILQ_FIRST(&t->flows); f != NULL; f = next) {
			next = TAILQ_NEXT(f, link);
			if (!pred(parg, flow_prog(f), f->prog_len))
				continue;
			flow_remove(ft, t, f, now_ns, reason, cb, arg);
			n++;
		}
	}
	return n;
}

void
of_flowtable_each_prog(struct of_flowtable *ft, of_prog_pred fn, void *arg)
{
	(void)of_flowtable_remove_if(ft, fn, arg, 0, 0, NULL, NULL);
}

void
of_flowtable_set_refs(struct of_flowtable *ft, const struct of_ft_refs *refs)
{
	ft->refs = refs;
}

void
of_flowtable_refs_replay(struct of_flowtable *ft)
{
	struct of_ft_table	*t;
	struct of_flow		*f;
	unsigned		 i;

	for (i = 0; ft->refs != NULL && i < ft->tables_cap; i++)
		if ((t = ft->tables[i]) != NULL)
			TAILQ_FOREACH(f, &t->flows, link)
				refs_on(ft, f);
}

void
of_flowtable_remove(struct of_flowtable *ft, void *flow, uint64_t now_ns,
    uint8_t reason, of_flow_removed_cb cb, void *arg)
{
	struct of_flow	*f = flow;

	flow_remove(ft, ft_table(ft, f->table_id), f, now_ns, reason, cb, arg);
}
