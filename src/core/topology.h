/*
 * The network shapes a run describes (--topology): every protocol that
 * draws links between its devices, or describes a network to a
 * controller, numbers them here, so that all agree on what "tree:3" is.
 * Node k is numbered from 0; a link joins two nodes.
 */
#ifndef SBSIM_TOPOLOGY_H
#define SBSIM_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

enum topo_shape {
	TOPO_NONE,
	TOPO_LINEAR,		/* k to k+1 */
	TOPO_RING,		/* linear, the last back to the first */
	TOPO_TREE,		/* node l+1 to its parent l / fanout */
};

/* --topology's word: none (where none_ok), linear, ring, tree or
 * tree:FANOUT (1 to 1000; *fanout is left alone without one).  -1 with
 * err. */
int	 topo_parse(const char *arg, int none_ok, uint8_t *shape,
	    uint32_t *fanout, char *err, size_t errlen);
/* Links of the shape over n nodes (a ring of fewer than 3 is a line). */
uint64_t topo_links(uint8_t shape, uint32_t n);
/* The two ends of link l (l < topo_links). */
void	 topo_link_ends(uint8_t shape, uint32_t n, uint32_t fanout,
	    uint64_t l, uint32_t *a, uint32_t *b);

#endif
