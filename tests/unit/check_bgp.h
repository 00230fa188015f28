/*
 * What the BGP unit tests share: pfx() turns a prefix written in a test
 * into a struct bgp_prefix, and, where check_codec.h came first (its
 * struct vec), mkupd() builds an UPDATE from its three parts in hex and
 * check_bad_entries() checks a family's malformed NLRI.
 */
#ifndef SBSIM_CHECK_BGP_H
#define SBSIM_CHECK_BGP_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgp_codec.h"
#include "bgp_family.h"

/* A prefix of the test's own; one that does not parse is a bug in the
 * test (exit 2, as check_unhex()). */
static inline struct bgp_prefix
pfx(const char *s)
{
	struct bgp_prefix	p;

	if (bgp_prefix_parse(s, &p) == -1) {
		fprintf(stderr, "bad prefix in test: %s\n", s);
		exit(2);
	}
	return p;
}

#ifdef SBSIM_CHECK_CODEC_H
/*
 * An UPDATE from its three parts (hex: withdrawn routes, path attributes,
 * IPv4 NLRI), the lengths filled in: for the cases where the point is one
 * attribute or NLRI, not the framing (RFC 4271 section 4.3).
 */
static inline void
mkupd(struct vec *v, const char *wd, const char *attrs, const char *nlri)
{
	uint8_t	a[4096], b[4096], c[4096];
	size_t	na = check_unhex(wd, a, sizeof(a)), nb = check_unhex(attrs, b, sizeof(b));
	size_t	nc = check_unhex(nlri, c, sizeof(c)), n = 0, total;

	total = BGP_HEADER_LEN + 2 + na + 2 + nb + nc;
	memset(v->b, 0xff, BGP_MARKER_LEN);
	n = BGP_MARKER_LEN;
	v->b[n++] = (uint8_t)(total >> 8);
	v->b[n++] = (uint8_t)total;
	v->b[n++] = BGP_UPDATE;
	v->b[n++] = (uint8_t)(na >> 8);
	v->b[n++] = (uint8_t)na;
	memcpy(v->b + n, a, na);
	n += na;
	v->b[n++] = (uint8_t)(nb >> 8);
	v->b[n++] = (uint8_t)nb;
	memcpy(v->b + n, b, nb);
	n += nb;
	memcpy(v->b + n, c, nc);
	v->len = n + nc;
}

/* RFC 7606 section 5.3: each of the entries in hex of family fam (the
 * list ends with "") decodes to nothing and fails the span check. */
static inline void
check_bad_entries(unsigned fam, const char *const *bad)
{
	const struct bgp_family	*f = &bgp_families[fam];
	struct bgp_route	 r;
	struct vec		 v;
	uint64_t		 n;
	unsigned		 i;

	for (i = 0; bad[i][0] != '\0'; i++) {
		vec(&v, bad[i]);
		memset(&r, 0, sizeof(r));
		CHECK(f->decode(f, v.b, v.len, &r) == 0, "%s bad %u", f->name,
		    i);
		CHECK(bgp_family_check(fam, v.b, v.len, 0, &n) == -1,
		    "%s bad span %u", f->name, i);
	}
}
#endif

#endif
