/*
 * CHECK_OVERLAP's index of one priority's flows (OpenFlow 1.3.5 section
 * 6.4: an ADD with OFPFF_CHECK_OVERLAP fails when a flow of the same
 * priority could match a packet the new one matches).  Tuple-space
 * search: flows are grouped by shape (fields and masks), and a group is
 * asked with one hash lookup; see of_overlap.c.  Matches are canonical
 * OXM bytes (of_match.h).
 */
#ifndef SBSIM_OF_OVERLAP_H
#define SBSIM_OF_OVERLAP_H

#include <stddef.h>
#include <stdint.h>

struct of_ovl;

struct of_ovl	*of_ovl_new(void);
void		 of_ovl_free(struct of_ovl *);
void		 of_ovl_add(struct of_ovl *, const uint8_t *oxm, size_t len);
/* Removes one flow added with these bytes; others are left alone. */
void		 of_ovl_del(struct of_ovl *, const uint8_t *oxm, size_t len);
/* 1 when a flow in the index overlaps the match oxm. */
int		 of_ovl_overlaps(struct of_ovl *, const uint8_t *oxm,
		    size_t len);

#endif
