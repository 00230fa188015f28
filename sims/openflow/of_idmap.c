/* The id-keyed tables of a switch (of_idmap.h). */
#include <stdlib.h>

#include "of_idmap.h"

struct of_idnode *
of_idmap_find(const struct of_idmap *m, uint32_t id)
{
	struct of_idnode	*node = NULL;

	if (m != NULL)
		HASH_FIND(hh, m->head, &id, sizeof(id), node);
	return node;
}

void
of_idmap_put(struct of_idmap *m, struct of_idnode *node, uint64_t now_ns)
{
	struct of_idnode	*old = of_idmap_find(m, node->id);

	node->added_ns = now_ns;
	if (old != NULL) {
		node->added_ns = old->added_ns;
		of_idmap_del(m, old);
	}
	HASH_ADD(hh, m->head, id, sizeof(node->id), node);
	m->n++;
}

void
of_idmap_del(struct of_idmap *m, struct of_idnode *node)
{
	HASH_DEL(m->head, node);
	free(node);
	m->n--;
}

void
of_idmap_clear(struct of_idmap *m)
{
	UT_FREE_ALL(m->head);
	m->n = 0;
}

uint32_t
of_idmap_count(const struct of_idmap *m)
{
	return m != NULL ? m->n : 0;
}

void
of_idnode_age(const struct of_idnode *node, uint64_t now_ns, uint32_t *sec,
    uint32_t *nsec)
{
	uint64_t	age = now_ns - node->added_ns;

	*sec = (uint32_t)(age / 1000000000ull);
	*nsec = (uint32_t)(age % 1000000000ull);
}
