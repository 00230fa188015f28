/* The id-keyed tables of a switch (of_idmap.h). */
#include <stdlib.h>

#include "of_idmap.h"

int
of_idmap_put(struct of_idmap *m, struct of_idnode *node, uint64_t now_ns)
{
	struct of_idnode	*old;
	uint32_t		 i;

	if (of_oamap_reserve(&m->map) == -1)
		return -1;
	i = of_oamap_find(&m->map, node->id);
	old = m->map.slots[i].val;
	node->added_ns = old != NULL ? old->added_ns : now_ns;
	free(old);
	of_oamap_set(&m->map, i, node->id, node);
	return 0;
}

void
of_idmap_del(struct of_idmap *m, struct of_idnode *node)
{
	of_oamap_del(&m->map, of_oamap_find(&m->map, node->id));
	free(node);
}

void
of_idmap_clear(struct of_idmap *m)
{
	struct of_idnode	*node;
	uint32_t		 i;

	OF_IDMAP_EACH(m, i, node)
		free(node);
	of_oamap_clear(&m->map);
}

uint32_t
of_idmap_count(const struct of_idmap *m)
{
	return m != NULL ? m->map.n : 0;
}

void
of_idnode_age(const struct of_idnode *node, uint64_t now_ns, uint32_t *sec,
    uint32_t *nsec)
{
	uint64_t	age = now_ns - node->added_ns;

	*sec = (uint32_t)(age / 1000000000ull);
	*nsec = (uint32_t)(age % 1000000000ull);
}
