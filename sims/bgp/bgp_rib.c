/*
 * Prefix maps (bgp_rib.h).  Deletion shifts the entries after the hole
 * back (Knuth's algorithm R for linear probing), so no tombstones pile up
 * under insert/withdraw churn.
 */
#include <stdlib.h>
#include <string.h>

#include "bgp_rib.h"
#include "log.h"

#define USED	(1ull << 63)
#define MIN_CAP	64

void
bgp_pmap_init(struct bgp_pmap *m, int with_values)
{
	int	af;

	memset(m, 0, sizeof(*m));
	m->values = with_values != 0;
	for (af = 0; af < BGP_AF_MAX; af++) {
		m->t[af].kw = af == BGP_AF_IPV6 ? 3 : 2;
		m->t[af].stride = (uint8_t)(m->t[af].kw + m->values);
	}
}

void
bgp_pmap_free(struct bgp_pmap *m)
{
	int	af;

	for (af = 0; af < BGP_AF_MAX; af++) {
		free(m->t[af].slots);
		m->t[af].slots = NULL;
		m->t[af].cap = m->t[af].count = 0;
	}
}

void
bgp_pmap_clear(struct bgp_pmap *m)
{
	int	af;

	for (af = 0; af < BGP_AF_MAX; af++) {
		if (m->t[af].slots != NULL)
			memset(m->t[af].slots, 0, m->t[af].cap *
			    m->t[af].stride * sizeof(uint64_t));
		m->t[af].count = 0;
	}
}

uint64_t
bgp_pmap_count_af(const struct bgp_pmap *m, enum bgp_af af)
{
	return m->t[af].count;
}

uint64_t
bgp_pmap_count(const struct bgp_pmap *m)
{
	return m->t[BGP_AF_IPV4].count + m->t[BGP_AF_IPV6].count;
}

size_t
bgp_pmap_bytes(const struct bgp_pmap *m)
{
	return (m->t[0].cap * m->t[0].stride + m->t[1].cap * m->t[1].stride) *
	    sizeof(uint64_t);
}

static void
bgp_key(const struct bgp_prefix *p, uint64_t k[3])
{
	int	i;

	k[0] = USED | (uint64_t)p->path_id << 8 | p->len;
	k[1] = k[2] = 0;
	if (p->af == BGP_AF_IPV4) {
		for (i = 0; i < 4; i++)
			k[1] = k[1] << 8 | p->addr[i];
		return;
	}
	for (i = 0; i < 8; i++) {
		k[1] = k[1] << 8 | p->addr[i];
		k[2] = k[2] << 8 | p->addr[8 + i];
	}
}

static void
bgp_unkey(const uint64_t *k, enum bgp_af af, struct bgp_prefix *p)
{
	int	i;

	memset(p, 0, sizeof(*p));
	p->af = (uint8_t)af;
	p->len = (uint8_t)k[0];
	p->path_id = (uint32_t)(k[0] >> 8);
	if (af == BGP_AF_IPV4) {
		for (i = 0; i < 4; i++)
			p->addr[i] = (uint8_t)(k[1] >> (24 - 8 * i));
		return;
	}
	for (i = 0; i < 8; i++) {
		p->addr[i] = (uint8_t)(k[1] >> (56 - 8 * i));
		p->addr[8 + i] = (uint8_t)(k[2] >> (56 - 8 * i));
	}
}

/* A 64-bit mix (splitmix64's finalizer) over the key words. */
static size_t
bgp_hash(const uint64_t *k, int kw)
{
	uint64_t	h = 0x9e3779b97f4a7c15ull;
	int		i;

	for (i = 0; i < kw; i++) {
		h ^= k[i];
		h ^= h >> 30;
		h *= 0xbf58476d1ce4e5b9ull;
		h ^= h >> 27;
		h *= 0x94d049bb133111ebull;
		h ^= h >> 31;
	}
	return (size_t)h;
}

static int
bgp_key_eq(const uint64_t *a, const uint64_t *b, int kw)
{
	return a[0] == b[0] && a[1] == b[1] && (kw < 3 || a[2] == b[2]);
}

/* The slot of k, or the empty one where it would go. */
static uint64_t *
bgp_slot(const struct bgp_ptab *t, const uint64_t *k)
{
	size_t		 mask = t->cap - 1, i = bgp_hash(k, t->kw) & mask;
	uint64_t	*s;

	for (;;) {
		s = t->slots + i * t->stride;
		if (s[0] == 0 || bgp_key_eq(s, k, t->kw))
			return s;
		i = (i + 1) & mask;
	}
}

static void
bgp_grow(struct bgp_pmap *m, struct bgp_ptab *t)
{
	uint64_t	*old = t->slots, *s, *d;
	size_t		 oldcap = t->cap, i;

	t->cap = oldcap ? oldcap * 2 : MIN_CAP;
	t->slots = xcalloc(t->cap, t->stride * sizeof(uint64_t));
	for (i = 0; i < oldcap; i++) {
		s = old + i * t->stride;
		if (s[0] == 0)
			continue;
		d = bgp_slot(t, s);
		memcpy(d, s, t->stride * sizeof(uint64_t));
	}
	free(old);
	m->generation++;
}

int
bgp_pmap_put(struct bgp_pmap *m, const struct bgp_prefix *p, uint64_t **val)
{
	struct bgp_ptab	*t = &m->t[p->af];
	uint64_t	 k[3], *s;

	/* Load factor at most 3/4. */
	if ((t->count + 1) * 4 > t->cap * 3)
		bgp_grow(m, t);
	bgp_key(p, k);
	s = bgp_slot(t, k);
	/* Without values: the key itself, to be read, never written. */
	if (val != NULL)
		*val = m->values ? s + t->kw : s;
	if (s[0] != 0)
		return 0;
	memcpy(s, k, t->kw * sizeof(uint64_t));
	if (m->values)
		s[t->kw] = 0;
	t->count++;
	return 1;
}

uint64_t *
bgp_pmap_get(struct bgp_pmap *m, const struct bgp_prefix *p)
{
	struct bgp_ptab	*t = &m->t[p->af];
	uint64_t	 k[3], *s;

	if (t->count == 0)
		return NULL;
	bgp_key(p, k);
	s = bgp_slot(t, k);
	if (s[0] == 0)
		return NULL;
	return m->values ? s + t->kw : s;
}

int
bgp_pmap_del(struct bgp_pmap *m, const struct bgp_prefix *p, uint64_t *val)
{
	struct bgp_ptab	*t = &m->t[p->af];
	uint64_t	 k[3], *s, *n;
	size_t		 mask = t->cap - 1, hole, i, home;

	if (t->count == 0)
		return 0;
	bgp_key(p, k);
	s = bgp_slot(t, k);
	if (s[0] == 0)
		return 0;
	if (val != NULL && m->values)
		*val = s[t->kw];
	hole = (size_t)(s - t->slots) / t->stride;
	/* Pull back every later entry of the run that may sit in the hole:
	 * one whose home is not cyclically within (hole, i]. */
	for (i = (hole + 1) & mask;; i = (i + 1) & mask) {
		n = t->slots + i * t->stride;
		if (n[0] == 0)
			break;
		home = bgp_hash(n, t->kw) & mask;
		if ((i > hole && (home <= hole || home > i)) ||
		    (i < hole && (home <= hole && home > i))) {
			memcpy(t->slots + hole * t->stride, n,
			    t->stride * sizeof(uint64_t));
			hole = i;
		}
	}
	memset(t->slots + hole * t->stride, 0, t->stride * sizeof(uint64_t));
	t->count--;
	return 1;
}

int
bgp_pmap_next(const struct bgp_pmap *m, enum bgp_af af, size_t *slot,
    struct bgp_prefix *p, uint64_t *val)
{
	const struct bgp_ptab	*t = &m->t[af];
	const uint64_t		*s;

	for (; *slot < t->cap; (*slot)++) {
		s = t->slots + *slot * t->stride;
		if (s[0] == 0)
			continue;
		bgp_unkey(s, af, p);
		if (val != NULL)
			*val = m->values ? s[t->kw] : 0;
		(*slot)++;
		return 1;
	}
	return 0;
}
