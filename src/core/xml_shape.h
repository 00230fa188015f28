/*
 * The shape of an XML text before it is parsed, in one linear pass: how
 * deep its elements nest and the most attributes one start tag carries.
 * libxml2 (2.9) checks a start tag's attributes for duplicates pair by
 * pair, so one element with 100 000 attributes held the whole process
 * for seconds: bodies and messages past a bound are refused before the
 * parser sees them.
 */
#ifndef SBSIM_XML_SHAPE_H
#define SBSIM_XML_SHAPE_H

#include <stddef.h>
#include <stdint.h>

struct xml_shape {
	uint32_t	depth;	/* deepest element nesting */
	uint32_t	attrs;	/* most attributes (xmlns ones too) of a tag */
};

/* The scan stops early once depth passes max_depth or a tag's
 * attributes pass max_attrs (the figures are then just past them). */
void	 xml_shape(const char *p, size_t len, uint32_t max_depth,
	    uint32_t max_attrs, struct xml_shape *);

#endif
