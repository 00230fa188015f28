/* The open-addressing map of of_oamap.h: growth and deletion. */
#include <sys/mman.h>

#include <stdlib.h>
#include <string.h>

#include "of_oamap.h"

#define OAMAP_HUGE	(2u << 20)		/* a huge page */
#define OAMAP_MMAP_MIN	(2 * OAMAP_HUGE)	/* tables this big and up */

/* Zeroed slots: calloc, or for a big table an anonymous mapping aligned
 * to a huge page and advised to use them (THP's "madvise" mode). */
static struct of_oamap_slot *
slots_alloc(size_t bytes)
{
	uint8_t		*p, *a;
	uintptr_t	 off;

	if (bytes < OAMAP_MMAP_MIN)
		return calloc(1, bytes);
	p = mmap(NULL, bytes + OAMAP_HUGE, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	off = (uintptr_t)p % OAMAP_HUGE;
	a = p + (off != 0 ? OAMAP_HUGE - off : 0);
	if (a > p)
		munmap(p, (size_t)(a - p));
	if (a + bytes < p + bytes + OAMAP_HUGE)
		munmap(a + bytes, (size_t)(p + bytes + OAMAP_HUGE -
		    (a + bytes)));
	(void)madvise(a, bytes, MADV_HUGEPAGE);	/* a hint: may fail */
	return (struct of_oamap_slot *)a;
}

static void
slots_free(struct of_oamap_slot *slots, size_t bytes)
{
	if (bytes < OAMAP_MMAP_MIN)
		free(slots);
	else if (slots != NULL)
		munmap(slots, bytes);
}

static size_t
slots_bytes(const struct of_oamap *m)
{
	return m->slots != NULL ? ((size_t)m->mask + 1) * sizeof(*m->slots) :
	    0;
}

int
of_oamap_reserve(struct of_oamap *m)
{
	struct of_oamap_slot	*old = m->slots;
	size_t			 old_bytes = slots_bytes(m);
	uint32_t		 i, n;

	if (old != NULL && (m->n + 1) * 2 <= m->mask + 1)
		return 0;
	n = old != NULL ? (m->mask + 1) * 2 : 16;
	if ((m->slots = slots_alloc(n * sizeof(*m->slots))) == NULL) {
		m->slots = old;
		return -1;
	}
	m->mask = n - 1;
	m->shift = 64 - (uint32_t)__builtin_ctz(n);
	/* In slot order: the new homes follow, near 2i. */
	for (i = 0; old != NULL && i < n / 2; i++)
		if (old[i].val != NULL)
			m->slots[of_oamap_find(m, old[i].key)] = old[i];
	slots_free(old, old_bytes);
	return 0;
}

/* Linear probing's deletion, no tombstones: the entries of i's probe run
 * that would no longer be found move back. */
void
of_oamap_del(struct of_oamap *m, uint32_t i)
{
	uint32_t	j = i, home;

	m->n--;
	for (;;) {
		m->slots[i].val = NULL;
		for (;;) {
			j = (j + 1) & m->mask;
			if (m->slots[j].val == NULL)
				return;
			home = of_oamap_home(m, m->slots[j].key);
			/* j stays when its home lies cyclically in (i, j]. */
			if (i <= j ? (i < home && home <= j) :
			    (i < home || home <= j))
				continue;
			break;
		}
		m->slots[i] = m->slots[j];
		i = j;
	}
}

void
of_oamap_clear(struct of_oamap *m)
{
	slots_free(m->slots, slots_bytes(m));
	memset(m, 0, sizeof(*m));
}
