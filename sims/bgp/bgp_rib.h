/*
 * Compact prefix maps for adj-RIB-in and Loc-RIB: open addressing with
 * linear probing over 64-bit words, one table per address family.  An IPv4
 * key is 2 words, IPv6 3 (path id and length in the first, whose top bit
 * marks the slot used); a map may carry one 64-bit value per prefix.  A
 * million IPv4 prefixes cost about 24 MB without values.
 *
 * A map without values may also hold one dense range (bgp_pmap_dense):
 * the n blocks first, first + 1, ... (bgp_prefix_nth) without a path id
 * as one bit each.  It is only another way to store the same set: every
 * call behaves as without it, a prefix outside the range goes to the
 * tables.  A monitor that knows the run's prefixes counts them at a
 * bit per prefix instead of a probe into a hash table.
 */
#ifndef SBSIM_BGP_RIB_H
#define SBSIM_BGP_RIB_H

#include <stddef.h>
#include <stdint.h>

#include "bgp_codec.h"

struct bgp_ptab {
	uint64_t	*slots;
	size_t		 cap;		/* slots, a power of two or 0 */
	size_t		 count;
	uint8_t		 stride;	/* words per slot */
	uint8_t		 kw;		/* key words */
};

struct bgp_pdense {
	uint64_t	*bits;		/* NULL: no range */
	uint64_t	 n;		/* blocks in the range */
	uint64_t	 count;		/* bits set */
	uint64_t	 fhi, flo;	/* first's address as two words */
	unsigned	 shift;		/* host bits of first's length */
	struct bgp_prefix first;
};

struct bgp_pmap {
	struct bgp_ptab	 t[BGP_AF_MAX];
	struct bgp_pdense d;
	uint32_t	 generation;	/* bumped when a table grows */
	int		 values;
};

void	  bgp_pmap_init(struct bgp_pmap *, int with_values);
void	  bgp_pmap_free(struct bgp_pmap *);
/* Hold the n blocks from first on as bits (an empty map without values
 * only; 0 done, -1 not: the tables hold them as before). */
int	  bgp_pmap_dense(struct bgp_pmap *, const struct bgp_prefix *first,
	    uint64_t n);
/* Forget every prefix, keep the memory. */
void	  bgp_pmap_clear(struct bgp_pmap *);
uint64_t  bgp_pmap_count(const struct bgp_pmap *);
uint64_t  bgp_pmap_count_af(const struct bgp_pmap *, enum bgp_af);
/* 1 inserted, 0 was there; *val (if asked) points at its value. */
int	  bgp_pmap_put(struct bgp_pmap *, const struct bgp_prefix *,
	    uint64_t **val);
/* Its value slot, or NULL when absent (maps without values: a pointer
 * to read-only memory, only good for testing presence). */
uint64_t *bgp_pmap_get(struct bgp_pmap *, const struct bgp_prefix *);
/* 1 removed (old value in *val if asked), 0 absent. */
int	  bgp_pmap_del(struct bgp_pmap *, const struct bgp_prefix *,
	    uint64_t *val);
/* Walk: from *slot on, the next used slot of af; 0 when none left. */
int	  bgp_pmap_next(const struct bgp_pmap *, enum bgp_af, size_t *slot,
	    struct bgp_prefix *, uint64_t *val);
/* Bytes held, for the report. */
size_t	  bgp_pmap_bytes(const struct bgp_pmap *);

#endif
