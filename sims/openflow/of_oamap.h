/*
 * A map from a 64-bit key (a group or meter id, a flow's address) to a
 * pointer: open addressing with linear probing on a Fibonacci hash of
 * the key, the key kept in the slot so a probe reads nothing else, at
 * most half full.  The home slot is the hash's top bits, so doubling
 * sends old slot i near 2i: growth streams through both tables instead
 * of taking a cache miss an entry; tables of 4 MiB and more ask for
 * huge pages (a page fault per 2 MiB, not per 4 KiB).  It replaced
 * uthash for a switch's groups and meters, whose chains cost a cache
 * miss a link (and 56 bytes an entry): 2.5x fewer CPU-seconds per
 * GROUP_MOD ADD; for METER_MOD see docs/guide.md, "Ingest"
 * (tests/bench/of_mod_ingest.sh).  The lookups are inline: they are
 * most of a table-changing message.
 */
#ifndef OF_OAMAP_H
#define OF_OAMAP_H

#include <stddef.h>
#include <stdint.h>

struct of_oamap_slot {
	uint64_t	 key;
	void		*val;		/* NULL: free */
};

struct of_oamap {
	struct of_oamap_slot	*slots;	/* NULL until the first reserve */
	uint32_t		 mask;	/* slots - 1; slots a power of two */
	uint32_t		 n;
	uint32_t		 shift;	/* 64 - log2(slots) */
};

/* Each slot index i of m holding a value, val set to it. */
#define OF_OAMAP_EACH(m, i, v)						\
	for ((i) = 0; (m)->slots != NULL && (i) <= (m)->mask; (i)++)	\
		if (((v) = (m)->slots[(i)].val) != NULL)

static inline uint32_t
of_oamap_home(const struct of_oamap *m, uint64_t key)
{
	return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> m->shift);
}

/* The slot holding key, or the free slot ending its probe (slots made). */
static inline uint32_t
of_oamap_find(const struct of_oamap *m, uint64_t key)
{
	uint32_t	i = of_oamap_home(m, key);

	while (m->slots[i].val != NULL && m->slots[i].key != key)
		i = (i + 1) & m->mask;
	return i;
}

static inline void *
of_oamap_get(const struct of_oamap *m, uint64_t key)
{
	return m->slots != NULL ? m->slots[of_oamap_find(m, key)].val : NULL;
}

/* Put val at key's slot i (from of_oamap_find), counting a new key. */
static inline void
of_oamap_set(struct of_oamap *m, uint32_t i, uint64_t key, void *val)
{
	if (m->slots[i].val == NULL)
		m->n++;
	m->slots[i].key = key;
	m->slots[i].val = val;
}

/* Room for one more key: double the slots (16 at first) when it would be
 * over half full; -1 when memory is out (the map unchanged). */
int	of_oamap_reserve(struct of_oamap *);
/* Free slot i (it holds a value). */
void	of_oamap_del(struct of_oamap *, uint32_t i);
/* Free the slots (not the values). */
void	of_oamap_clear(struct of_oamap *);

#endif
