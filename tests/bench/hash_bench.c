/*
 * What uthash would cost in the tables that keep their own hash
 * (docs/design.md, "Containers").  One process runs one shape of table
 * in one implementation over N keys: insert them all, find them all,
 * delete them all, each phase in its own function (bench_insert,
 * bench_find, bench_delete) so that callgrind counts them apart
 * (tests/bench/hash_bench.sh).  It prints the heap bytes per entry once
 * all are in (mallinfo2: chunks as malloc hands them out, buckets and
 * slots included) and native nanoseconds per operation.
 *
 *   hash_bench SHAPE IMPL [N]
 *
 * SHAPE flowtable: a switch's flow table (of_flowtable.c), chained on
 *   (priority, match) with the hash stored in the entry, one allocation
 *   per flow with its match and instructions.
 * SHAPE pmap: the BGP prefix map (bgp_rib.c), the real one, open
 *   addressing over packed 64-bit keys with no per-entry pointers; IPv4
 *   /24s without values (adj-RIB-in).
 * SHAPE flowcfg: the controller's config flows (of_flowcfg.c), chained
 *   by (table, id) and by (table, priority, match); a PUT finds the id
 *   then links both, a stats reply finds the match, a DELETE finds the
 *   id and unlinks both.
 * IMPL hand: the table as the code keeps it (for flowtable and flowcfg a
 *   copy of their chains, which in the code sit behind FLOW_MOD and
 *   RESTCONF parsing); uthash: the same entries with UT_hash_handles,
 *   keys laid out contiguously as uthash needs them, looked up through a
 *   key built on the stack as a port would.
 */
#include <sys/queue.h>

#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bgp_rib.h"
#include "hash.h"
#include "log.h"
#include "of_match.h"
#include "ut.h"

#define MATCH_LEN	22	/* in_port, eth_type, ipv4_dst as OXM */
#define PROG_LEN	24	/* APPLY_ACTIONS with one OUTPUT */
#define KEY_MAX		64
#define MIN_BUCKETS	16
#define NOINLINE	__attribute__((noinline))

struct key {
	uint16_t	prio;
	uint8_t		oxm[MATCH_LEN];
	char		id[12];
};

struct impl {
	const char	*shape;
	const char	*kind;
	void		(*put)(size_t);
	int		(*get)(size_t);
	void		(*del)(size_t);
};

static struct key	*keys;

/* Key i: priority 100-107, in_port 1-48, a distinct IPv4 destination. */
static void
keys_make(size_t n)
{
	static const uint8_t	 tmpl[MATCH_LEN] = {
		0x80, 0x00, 0x00, 0x04, 0, 0, 0, 0,	/* IN_PORT */
		0x80, 0x00, 0x0a, 0x02, 0x08, 0x00,	/* ETH_TYPE */
		0x80, 0x00, 0x18, 0x04, 10, 0, 0, 0,	/* IPV4_DST */
	};
	size_t			 i;

	keys = calloc(n, sizeof(*keys));
	if (keys == NULL)
		fatal("calloc");
	for (i = 0; i < n; i++) {
		keys[i].prio = (uint16_t)(100 + i % 8);
		memcpy(keys[i].oxm, tmpl, MATCH_LEN);
		keys[i].oxm[7] = (uint8_t)(1 + i % 48);
		keys[i].oxm[19] = (uint8_t)(i >> 16);
		keys[i].oxm[20] = (uint8_t)(i >> 8);
		keys[i].oxm[21] = (uint8_t)i;
		snprintf(keys[i].id, sizeof(keys[i].id), "%u", (uint32_t)i);
	}
}

/* ---- flowtable, hand: of_flowtable.c's chains ---- */

/* What both kinds of flow entry carry besides their links: of_flow's
 * fields that the lookups read, and the others as bytes (cookie,
 * install_ns, idle_ms, heap_idx, timeouts, flags, table_id). */
struct ft_head {
	uint16_t	priority;
	uint16_t	match_len;
	uint16_t	prog_len;
	uint8_t		rest[31];
};

struct ft_flow {
	struct ft_flow		*hnext;
	TAILQ_ENTRY(ft_flow)	 link;
	uint32_t		 hash;
	struct ft_head		 h;
	uint8_t			 data[];	/* match, then prog */
};

static struct {
	struct ft_flow		**b;
	uint32_t		  nb, count;
	TAILQ_HEAD(, ft_flow)	  flows;
} ft = { .flows = TAILQ_HEAD_INITIALIZER(ft.flows) };

/* flow_key_hash() (of_flowtable.c) over the match as a FLOW_MOD
 * brings it. */
static uint32_t
ft_hash(const struct key *k)
{
	static struct of_match	m;

	m.len = MATCH_LEN;
	memcpy(m.oxm, k->oxm, MATCH_LEN);
	return of_match_hash(&m, 0x9e3779b9u * (k->prio + 1u));
}

static void
ft_rehash(uint32_t n)
{
	struct ft_flow	**b = xcalloc(n, sizeof(*b)), *f;

	TAILQ_FOREACH(f, &ft.flows, link) {
		f->hnext = b[f->hash & (n - 1)];
		b[f->hash & (n - 1)] = f;
	}
	free(ft.b);
	ft.b = b;
	ft.nb = n;
}

static struct ft_flow *
ft_find(const struct key *k, uint32_t h)
{
	struct ft_flow	*f;

	if (ft.nb == 0)
		return NULL;
	for (f = ft.b[h & (ft.nb - 1)]; f != NULL; f = f->hnext)
		if (f->hash == h && f->h.priority == k->prio &&
		    f->h.match_len == MATCH_LEN &&
		    memcmp(f->data, k->oxm, MATCH_LEN) == 0)
			return f;
	return NULL;
}

static void
ft_put(size_t i)
{
	const struct key	*k = &keys[i];
	uint32_t		 h = ft_hash(k);
	struct ft_flow		*f;

	if (ft_find(k, h) != NULL)
		return;
	f = xcalloc(1, sizeof(*f) + MATCH_LEN + PROG_LEN);
	f->hash = h;
	f->h.priority = k->prio;
	f->h.match_len = MATCH_LEN;
	f->h.prog_len = PROG_LEN;
	memcpy(f->data, k->oxm, MATCH_LEN);
	TAILQ_INSERT_TAIL(&ft.flows, f, link);
	if (++ft.count > ft.nb)
		ft_rehash(ft.nb ? ft.nb * 2 : MIN_BUCKETS);
	else {
		f->hnext = ft.b[h & (ft.nb - 1)];
		ft.b[h & (ft.nb - 1)] = f;
	}
}

static int
ft_get(size_t i)
{
	return ft_find(&keys[i], ft_hash(&keys[i])) != NULL;
}

static void
ft_del(size_t i)
{
	struct ft_flow	*f = ft_find(&keys[i], ft_hash(&keys[i])), **pp;

	if (f == NULL)
		return;
	for (pp = &ft.b[f->hash & (ft.nb - 1)]; *pp != f;)
		pp = &(*pp)->hnext;
	*pp = f->hnext;
	TAILQ_REMOVE(&ft.flows, f, link);
	free(f);
	ft.count--;
	if (ft.nb > MIN_BUCKETS && ft.count < ft.nb / 4)
		ft_rehash(ft.nb / 2);
}

/* ---- flowtable, uthash: key = priority (2 bytes), match ---- */

struct uf_flow {
	UT_hash_handle		 hh;
	TAILQ_ENTRY(uf_flow)	 link;
	struct ft_head		 h;
	uint8_t			 data[];	/* priority, match, prog */
};

static struct uf_flow		*uf;
static TAILQ_HEAD(, uf_flow)	 uf_flows = TAILQ_HEAD_INITIALIZER(uf_flows);

static size_t
uf_key(uint8_t *b, const struct key *k)
{
	memcpy(b, &k->prio, 2);
	memcpy(b + 2, k->oxm, MATCH_LEN);
	return 2 + MATCH_LEN;
}

static void
uf_put(size_t i)
{
	uint8_t		 kb[KEY_MAX];
	size_t		 kl = uf_key(kb, &keys[i]);
	unsigned	 hv;
	struct uf_flow	*f;

	HASH_VALUE(kb, kl, hv);
	HASH_FIND_BYHASHVALUE(hh, uf, kb, kl, hv, f);
	if (f != NULL)
		return;
	f = xcalloc(1, sizeof(*f) + kl + PROG_LEN);
	f->h.priority = keys[i].prio;
	f->h.match_len = MATCH_LEN;
	f->h.prog_len = PROG_LEN;
	memcpy(f->data, kb, kl);
	TAILQ_INSERT_TAIL(&uf_flows, f, link);
	HASH_ADD_KEYPTR_BYHASHVALUE(hh, uf, f->data, kl, hv, f);
}

static struct uf_flow *
uf_find(size_t i)
{
	uint8_t		 kb[KEY_MAX];
	size_t		 kl = uf_key(kb, &keys[i]);
	struct uf_flow	*f;

	HASH_FIND(hh, uf, kb, kl, f);
	return f;
}

static int
uf_get(size_t i)
{
	return uf_find(i) != NULL;
}

static void
uf_del(size_t i)
{
	struct uf_flow	*f = uf_find(i);

	if (f == NULL)
		return;
	HASH_DEL(uf, f);
	TAILQ_REMOVE(&uf_flows, f, link);
	free(f);
}

/* ---- pmap: bgp_rib.c itself, and uthash on its packed key ---- */

static struct bgp_pmap	pm;

static void
pm_prefix(size_t i, struct bgp_prefix *p)
{
	memset(p, 0, sizeof(*p));
	p->af = BGP_AF_IPV4;
	p->len = 24;
	p->addr[0] = (uint8_t)(10 + (i >> 16));
	p->addr[1] = (uint8_t)(i >> 8);
	p->addr[2] = (uint8_t)i;
}

static void
pm_put(size_t i)
{
	struct bgp_prefix	p;

	pm_prefix(i, &p);
	bgp_pmap_put(&pm, &p, NULL);
}

static int
pm_get(size_t i)
{
	struct bgp_prefix	p;

	pm_prefix(i, &p);
	return bgp_pmap_get(&pm, &p) != NULL;
}

static void
pm_del(size_t i)
{
	struct bgp_prefix	p;

	pm_prefix(i, &p);
	bgp_pmap_del(&pm, &p, NULL);
}

struct up_ent {
	UT_hash_handle	hh;
	uint64_t	k[2];	/* as bgp_key() packs an IPv4 prefix */
};

static struct up_ent	*up;

static void
up_key(size_t i, uint64_t k[2])
{
	struct bgp_prefix	p;

	pm_prefix(i, &p);
	k[0] = 1ull << 63 | (uint64_t)p.path_id << 8 | p.len;
	k[1] = (uint64_t)p.addr[0] << 24 | (uint64_t)p.addr[1] << 16 |
	    (uint64_t)p.addr[2] << 8 | p.addr[3];
}

static struct up_ent *
up_find(size_t i)
{
	uint64_t	 k[2];
	struct up_ent	*e;

	up_key(i, k);
	HASH_FIND(hh, up, k, sizeof(k), e);
	return e;
}

static void
up_put(size_t i)
{
	struct up_ent	*e;

	if (up_find(i) != NULL)
		return;
	e = xcalloc(1, sizeof(*e));
	up_key(i, e->k);
	HASH_ADD(hh, up, k, sizeof(e->k), e);
}

static int
up_get(size_t i)
{
	return up_find(i) != NULL;
}

static void
up_del(size_t i)
{
	struct up_ent	*e = up_find(i);

	if (e != NULL) {
		HASH_DEL(up, e);
		free(e);
	}
}

/* ---- flowcfg, hand: of_flowcfg.c's two chains ---- */

/* What both kinds of config flow carry besides their links: fc_flow's
 * fields that the lookups read, and the others as bytes (cookie, seen,
 * idle, hard, prev_ok, go_to, nout, apply). */
struct fc_head {
	uint16_t	priority;
	uint16_t	match_len;
	uint8_t		table;
	uint8_t		id_len;
	uint8_t		name_len;
	uint8_t		rest[20];
};

struct fc_flow {
	struct fc_flow	*next_id;
	struct fc_flow	*next_m;
	struct fc_head	 h;
	uint8_t		 data[];	/* id NUL name NUL match outs */
};

static struct {
	struct fc_flow	**by_id, **by_m;
	size_t		  nb, n;
} fc;

static uint32_t
fc_hash_id(unsigned table, const char *id)
{
	return fnv1a_str(FNV_SEED ^ table, id);
}

static uint32_t
fc_hash_m(unsigned table, uint16_t prio, const uint8_t *oxm, size_t len)
{
	return fnv1a_bytes(FNV_SEED ^ (table << 16 | prio), oxm, len);
}

static const uint8_t *
fc_oxm(const struct fc_flow *f)
{
	return f->data + f->h.id_len + 1 + f->h.name_len + 1;
}

static void
fc_link(struct fc_flow *f)
{
	size_t	b = fc_hash_id(f->h.table, (const char *)f->data) % fc.nb;

	f->next_id = fc.by_id[b];
	fc.by_id[b] = f;
	b = fc_hash_m(f->h.table, f->h.priority, fc_oxm(f), f->h.match_len) %
	    fc.nb;
	f->next_m = fc.by_m[b];
	fc.by_m[b] = f;
}

static void
fc_resize(size_t nb)
{
	struct fc_flow	**old = fc.by_id, *f, *next;
	size_t		  onb = fc.nb, i;

	fc.by_id = xcalloc(nb, sizeof(*fc.by_id));
	free(fc.by_m);
	fc.by_m = xcalloc(nb, sizeof(*fc.by_m));
	fc.nb = nb;
	for (i = 0; i < onb; i++)
		for (f = old[i]; f != NULL; f = next) {
			next = f->next_id;
			fc_link(f);
		}
	free(old);
}

static struct fc_flow *
fc_find(unsigned table, const char *id)
{
	struct fc_flow	*f;

	if (fc.nb == 0)
		return NULL;
	for (f = fc.by_id[fc_hash_id(table, id) % fc.nb]; f != NULL;
	    f = f->next_id)
		if (f->h.table == table &&
		    strcmp((const char *)f->data, id) == 0)
			return f;
	return NULL;
}

static struct fc_flow *
fc_find_m(unsigned table, uint16_t prio, const uint8_t *oxm, size_t len)
{
	struct fc_flow	*f;

	if (fc.nb == 0)
		return NULL;
	for (f = fc.by_m[fc_hash_m(table, prio, oxm, len) % fc.nb];
	    f != NULL; f = f->next_m)
		if (f->h.table == table && f->h.priority == prio &&
		    f->h.match_len == len && memcmp(fc_oxm(f), oxm, len) == 0)
			return f;
	return NULL;
}

/* One output (6 bytes) and a name one longer than the id, as the
 * northbound's flows have. */
static void
fc_put(size_t i)
{
	const struct key	*k = &keys[i];
	size_t			 il = strlen(k->id);
	struct fc_flow		*f;

	if (fc_find(0, k->id) != NULL)
		return;
	f = xcalloc(1, sizeof(*f) + il + 1 + il + 2 + MATCH_LEN + 6);
	f->h.priority = k->prio;
	f->h.match_len = MATCH_LEN;
	f->h.id_len = (uint8_t)il;
	f->h.name_len = (uint8_t)(il + 1);
	memcpy(f->data, k->id, il + 1);
	f->data[il + 1] = 'f';
	memcpy(f->data + il + 2, k->id, il + 1);
	memcpy(f->data + il + 1 + il + 2, k->oxm, MATCH_LEN);
	if (fc.n + 1 > fc.nb)
		fc_resize(fc.nb ? 2 * fc.nb : MIN_BUCKETS);
	fc_link(f);
	fc.n++;
}

static int
fc_get(size_t i)
{
	return fc_find(0, keys[i].id) != NULL &&
	    fc_find_m(0, keys[i].prio, keys[i].oxm, MATCH_LEN) != NULL;
}

static void
fc_del(size_t i)
{
	struct fc_flow	*f = fc_find(0, keys[i].id), **pp;

	if (f == NULL)
		return;
	pp = &fc.by_id[fc_hash_id(f->h.table, keys[i].id) % fc.nb];
	while (*pp != f)
		pp = &(*pp)->next_id;
	*pp = f->next_id;
	pp = &fc.by_m[fc_hash_m(f->h.table, f->h.priority, fc_oxm(f),
	    f->h.match_len) % fc.nb];
	while (*pp != f)
		pp = &(*pp)->next_m;
	*pp = f->next_m;
	fc.n--;
	free(f);
}

/* ---- flowcfg, uthash: keys (table, id) and (table, priority, match) ---- */

struct uc_flow {
	UT_hash_handle	 hh_id;
	UT_hash_handle	 hh_m;
	struct fc_head	 h;
	uint8_t		 data[];	/* table id NUL name NUL table prio
					   match outs */
};

static struct uc_flow	*uc_id, *uc_m;

static size_t
uc_key_id(uint8_t *b, unsigned table, const char *id)
{
	size_t	il = strlen(id);

	b[0] = (uint8_t)table;
	memcpy(b + 1, id, il);
	return 1 + il;
}

static size_t
uc_key_m(uint8_t *b, unsigned table, const struct key *k)
{
	b[0] = (uint8_t)table;
	memcpy(b + 1, &k->prio, 2);
	memcpy(b + 3, k->oxm, MATCH_LEN);
	return 3 + MATCH_LEN;
}

static struct uc_flow *
uc_find(unsigned table, const char *id)
{
	uint8_t		 kb[KEY_MAX];
	size_t		 kl = uc_key_id(kb, table, id);
	struct uc_flow	*f;

	HASH_FIND(hh_id, uc_id, kb, kl, f);
	return f;
}

static void
uc_put(size_t i)
{
	const struct key	*k = &keys[i];
	size_t			 il = strlen(k->id), ml;
	struct uc_flow		*f;
	uint8_t			*mk;

	if (uc_find(0, k->id) != NULL)
		return;
	f = xcalloc(1, sizeof(*f) + 1 + il + 1 + il + 2 + 3 + MATCH_LEN + 6);
	f->h.priority = k->prio;
	f->h.match_len = MATCH_LEN;
	f->h.id_len = (uint8_t)il;
	f->h.name_len = (uint8_t)(il + 1);
	uc_key_id(f->data, 0, k->id);
	f->data[1 + il + 1] = 'f';
	memcpy(f->data + 1 + il + 2, k->id, il + 1);
	mk = f->data + 1 + il + 1 + il + 2;
	ml = uc_key_m(mk, 0, k);
	HASH_ADD_KEYPTR(hh_id, uc_id, f->data, 1 + il, f);
	HASH_ADD_KEYPTR(hh_m, uc_m, mk, ml, f);
}

static int
uc_get(size_t i)
{
	uint8_t		 kb[KEY_MAX];
	size_t		 kl = uc_key_m(kb, 0, &keys[i]);
	struct uc_flow	*f;

	if (uc_find(0, keys[i].id) == NULL)
		return 0;
	HASH_FIND(hh_m, uc_m, kb, kl, f);
	return f != NULL;
}

static void
uc_del(size_t i)
{
	struct uc_flow	*f = uc_find(0, keys[i].id);

	if (f == NULL)
		return;
	HASH_DELETE(hh_id, uc_id, f);
	HASH_DELETE(hh_m, uc_m, f);
	free(f);
}

static const struct impl impls[] = {
	{ "flowtable", "hand", ft_put, ft_get, ft_del },
	{ "flowtable", "uthash", uf_put, uf_get, uf_del },
	{ "pmap", "hand", pm_put, pm_get, pm_del },
	{ "pmap", "uthash", up_put, up_get, up_del },
	{ "flowcfg", "hand", fc_put, fc_get, fc_del },
	{ "flowcfg", "uthash", uc_put, uc_get, uc_del },
};

/* ---- the phases, apart for callgrind's inclusive counts ---- */

static NOINLINE void
bench_insert(const struct impl *im, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		im->put(i);
}

static NOINLINE size_t
bench_find(const struct impl *im, size_t n)
{
	size_t	i, hits = 0;

	for (i = 0; i < n; i++)
		hits += (size_t)im->get(i);
	return hits;
}

static NOINLINE void
bench_delete(const struct impl *im, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		im->del(i);
}

static size_t
heap_bytes(void)
{
	struct mallinfo2	mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

static double
now_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static const struct impl *
impl_find(const char *shape, const char *kind)
{
	size_t	i;

	for (i = 0; i < sizeof(impls) / sizeof(impls[0]); i++)
		if (strcmp(impls[i].shape, shape) == 0 &&
		    strcmp(impls[i].kind, kind) == 0)
			return &impls[i];
	return NULL;
}

int
main(int argc, char **argv)
{
	const struct impl	*im;
	size_t			 n = 1000000, base, per, hits;
	double			 t0, t1, t2, t3;

	if (argc < 3 || (im = impl_find(argv[1], argv[2])) == NULL) {
		fprintf(stderr, "usage: hash_bench flowtable|pmap|flowcfg "
		    "hand|uthash [N]\n");
		return 2;
	}
	if (argc > 3)
		n = strtoul(argv[3], NULL, 10);
	log_init("hash_bench", 0);
	bgp_pmap_init(&pm, 0);
	keys_make(n);
	base = heap_bytes();
	t0 = now_ns();
	bench_insert(im, n);
	t1 = now_ns();
	per = (heap_bytes() - base) / n;
	hits = bench_find(im, n);
	t2 = now_ns();
	bench_delete(im, n);
	t3 = now_ns();
	printf("%s %s n=%zu bytes/entry=%zu ns/op insert=%.0f find=%.0f "
	    "delete=%.0f hits=%zu left=%zu\n", im->shape, im->kind, n, per,
	    (t1 - t0) / n, (t2 - t1) / n, (t3 - t2) / n, hits,
	    (heap_bytes() - base));
	return hits == n ? 0 : 1;
}
