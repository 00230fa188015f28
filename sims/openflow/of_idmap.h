/*
 * A switch's tables keyed by a 32-bit id (meters): entries that each
 * begin with struct of_idnode, which holds the id and the time of the
 * entry's ADD, in an of_oamap (no link in the entry).  A MODIFY puts a
 * new entry in the old one's place and keeps that time (1.3.5 sections
 * 7.3.5.9 and 7.3.5.13: duration counts from the ADD).  Entries are
 * malloc()ed by the caller and freed here.
 */
#ifndef OF_IDMAP_H
#define OF_IDMAP_H

#include <stdint.h>

#include "of_oamap.h"

struct of_idnode {
	uint32_t	 id;
	uint64_t	 added_ns;
};

struct of_idmap {
	struct of_oamap	 map;
};

/* Every entry of m (not NULL) as node, i its slot (a uint32_t); no entry
 * may be added or deleted in the loop. */
#define OF_IDMAP_EACH(m, i, node)	OF_OAMAP_EACH(&(m)->map, i, node)

static inline struct of_idnode *
of_idmap_find(const struct of_idmap *m, uint32_t id)
{
	return m != NULL ? of_oamap_get(&m->map, id) : NULL;
}

/* Take node (its id set) in place of the entry with its id, keeping that
 * one's ADD time, or as new, added at now: 0, or -1 when memory is out
 * (node not taken). */
int	 of_idmap_put(struct of_idmap *, struct of_idnode *, uint64_t now_ns);
void	 of_idmap_del(struct of_idmap *, struct of_idnode *);
void	 of_idmap_clear(struct of_idmap *);
uint32_t of_idmap_count(const struct of_idmap *);
/* Time since node's ADD, as the multiparts' duration_sec/_nsec. */
void	 of_idnode_age(const struct of_idnode *, uint64_t now_ns,
	    uint32_t *sec, uint32_t *nsec);

#endif
