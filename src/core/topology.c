/*
 * The network shapes (topology.h).
 */
#include <stdio.h>
#include <string.h>

#include "opt.h"
#include "topology.h"

int
topo_parse(const char *arg, int none_ok, uint8_t *shape, uint32_t *fanout,
    char *err, size_t errlen)
{
	uint64_t	k;

	if (none_ok && strcmp(arg, "none") == 0)
		*shape = TOPO_NONE;
	else if (strcmp(arg, "linear") == 0)
		*shape = TOPO_LINEAR;
	else if (strcmp(arg, "ring") == 0)
		*shape = TOPO_RING;
	else if (strcmp(arg, "tree") == 0)
		*shape = TOPO_TREE;
	else if (strncmp(arg, "tree:", 5) == 0 &&
	    opt_uint("--topology tree:", arg + 5, 1, 1000, &k, err,
	    errlen) == 0) {
		*shape = TOPO_TREE;
		*fanout = (uint32_t)k;
	} else {
		snprintf(err, errlen, "--topology: '%s' is not %slinear, ring "
		    "or tree[:FANOUT] (FANOUT 1 to 1000)", arg,
		    none_ok ? "none, " : "");
		return -1;
	}
	return 0;
}

uint64_t
topo_links(uint8_t shape, uint32_t n)
{
	if (shape == TOPO_NONE || n == 0)
		return 0;
	if (shape == TOPO_RING && n >= 3)
		return n;
	return n - 1u;
}

void
topo_link_ends(uint8_t shape, uint32_t n, uint32_t fanout, uint64_t l,
    uint32_t *a, uint32_t *b)
{
	if (shape == TOPO_TREE) {
		*a = (uint32_t)(l / fanout);
		*b = (uint32_t)(l + 1);
	} else {
		*a = (uint32_t)l;
		*b = (uint32_t)((l + 1) % n);
	}
}
