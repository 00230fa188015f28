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
/* A dense range's most blocks: 512 MB of bits. */
#define DENSE_MAX	(1ull << 32)

/* What get and put hand back for a prefix held as a bit (maps without
 * values: only good for testing presence). */
static const uint64_t dense_present = USED;

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
	free(m->d.bits);
	memset(&m->d, 0, sizeof(m->d));
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
	if (m->d.bits != NULL)
		memset(m->d.bits, 0, (m->d.n + 63) / 64 * sizeof(uint64_t));
	m->d.count = 0;
}

uint64_t
bgp_pmap_count_af(const struct bgp_pmap *m, enum bgp_af af)
{
	return m->t[af].count + (m->d.bits != NULL && m->d.first.af == af ?
	    m->d.count : 0);
}

uint64_t
bgp_pmap_count(const struct bgp_pmap *m)
{
	return m->t[BGP_AF_IPV4].count + m->t[BGP_AF_IPV6].count + m->d.count;
}

size_t
bgp_pmap_bytes(const struct bgp_pmap *m)
{
	return (m->t[0].cap * m->t[0].stride + m->t[1].cap * m->t[1].stride +
	    (m->d.bits != NULL ? (m->d.n + 63) / 64 : 0)) * sizeof(uint64_t);
}

static uint64_t
bgp_get64(const uint8_t *b)
{
	return (uint64_t)b[0] << 56 | (uint64_t)b[1] << 48 |
	    (uint64_t)b[2] << 40 | (uint64_t)b[3] << 32 |
	    (uint64_t)b[4] << 24 | (uint64_t)b[5] << 16 |
	    (uint64_t)b[6] << 8 | b[7];
}

/* An address as two words, high and low (IPv4: its 32 bits low). */
static inline void
bgp_addr_words(const struct bgp_prefix *p, uint64_t *hi, uint64_t *lo)
{
	if (p->af == BGP_AF_IPV4) {
		*hi = 0;
		*lo = (uint64_t)p->addr[0] << 24 | (uint64_t)p->addr[1] << 16 |
		    (uint64_t)p->addr[2] << 8 | p->addr[3];
		return;
	}
	*hi = bgp_get64(p->addr);
	*lo = bgp_get64(p->addr + 8);
}

static uint64_t
bgp_low_mask(unsigned bits)
{
	return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/*
 * p's block number k in the dense range (p == bgp_prefix_nth(first, k)),
 * 1 when it has one: same family and length, no path id, its distance
 * from first (modulo the address space, as bgp_prefix_nth wraps) a whole
 * number of blocks below n.  Host bits make it no block: such a prefix
 * is a key of its own in the tables.
 */
static inline int
bgp_dense_index(const struct bgp_pdense *d, const struct bgp_prefix *p,
    uint64_t *k)
{
	uint64_t	ph, pl, dh, dl;
	unsigned	shift;

	if (d->bits == NULL || p->af != d->first.af ||
	    p->len != d->first.len || p->path_id != 0)
		return 0;
	bgp_addr_words(p, &ph, &pl);
	dl = pl - d->flo;
	dh = ph - d->fhi - (pl < d->flo);
	if (p->af == BGP_AF_IPV4) {
		dl &= 0xffffffffull;
		dh = 0;
	}
	shift = d->shift;
	if (shift >= 64) {
		if (dl != 0 || (shift < 128 && (dh & bgp_low_mask(shift - 64))))
			return 0;
		*k = shift >= 128 ? 0 : dh >> (shift - 64);
	} else {
		if ((dl & bgp_low_mask(shift)) != 0 ||
		    (shift == 0 ? dh != 0 : (dh >> shift) != 0))
			return 0;
		*k = (dl >> shift) | (shift == 0 ? 0 : dh << (64 - shift));
	}
	return *k < d->n;
}

int
bgp_pmap_dense(struct bgp_pmap *m, const struct bgp_prefix *first,
    uint64_t n)
{
	unsigned	bits = first->af == BGP_AF_IPV6 ? 128u : 32u;

	if (m->values || bgp_pmap_count(m) > 0 || m->d.bits != NULL ||
	    first->af >= BGP_AF_MAX || first->len > bits)
		return -1;
	/* Past 2^len blocks bgp_prefix_nth comes round to the first again. */
	if (first->len < 64 && n > 1ull << first->len)
		n = 1ull << first->len;
	if (n == 0 || n > DENSE_MAX)
		return -1;
	m->d.first = *first;
	m->d.first.path_id = 0;
	bgp_addr_words(first, &m->d.fhi, &m->d.flo);
	m->d.shift = bits - first->len;
	m->d.n = n;
	m->d.count = 0;
	m->d.bits = xcalloc((n + 63) / 64, sizeof(uint64_t));
	return 0;
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
	uint64_t	 k[3], *s, bit;

	if (bgp_dense_index(&m->d, p, &k[0])) {
		bit = 1ull << (k[0] % 64);
		if (val != NULL)
			*val = (uint64_t *)(uintptr_t)&dense_present;
		if (m->d.bits[k[0] / 64] & bit)
			return 0;
		m->d.bits[k[0] / 64] |= bit;
		m->d.count++;
		return 1;
	}
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

	if (bgp_dense_index(&m->d, p, &k[0]))
		return m->d.bits[k[0] / 64] & 1ull << (k[0] % 64) ?
		    (uint64_t *)(uintptr_t)&dense_present : NULL;
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

	if (bgp_dense_index(&m->d, p, &k[0])) {
		if (!(m->d.bits[k[0] / 64] & 1ull << (k[0] % 64)))
			return 0;
		m->d.bits[k[0] / 64] &= ~(1ull << (k[0] % 64));
		m->d.count--;
		return 1;
	}
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

/* The walk past the table's slots goes on over the range's bits. */
static int
bgp_dense_next(const struct bgp_pdense *d, enum bgp_af af, size_t *slot,
    size_t cap, struct bgp_prefix *p, uint64_t *val)
{
	uint64_t	k;

	if (d->bits == NULL || d->first.af != af)
		return 0;
	for (k = *slot - cap; k < d->n; k++) {
		if (d->bits[k / 64] == 0) {
			k |= 63;	/* the next word */
			continue;
		}
		if (!(d->bits[k / 64] & 1ull << (k % 64)))
			continue;
		bgp_prefix_nth(&d->first, k, p);
		p->path_id = 0;
		if (val != NULL)
			*val = 0;
		*slot = cap + k + 1;
		return 1;
	}
	*slot = cap + d->n;
	return 0;
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
	return bgp_dense_next(&m->d, af, slot, t->cap, p, val);
}
