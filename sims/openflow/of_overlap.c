/*
 * CHECK_OVERLAP by tuple-space search (OpenFlow 1.3.5 section 6.4).
 *
 * Two matches overlap when, on every field both name, their values agree
 * on the bits both masks keep (a field one of them leaves out matches
 * anything).  Flows of one priority are grouped by shape M' (fields and
 * masks, of_match_shape()).  A new flow of shape M overlaps a flow of a
 * group exactly when their values agree under P = M & M'.  When P is
 * M' (the group's mask is within the new one's) the group's own values
 * answer with one hash lookup of the new values ANDed with M'.  Otherwise
 * the group keeps, built on its first use, the multiset of its values
 * ANDed with P (a projection); later checks with the same P are one
 * lookup too.  A group keeps at most OVL_MAX_PROJ projections (memory is
 * flows times projections); past that, a P it has no projection for is
 * answered by walking the group.  So a check costs one AND and one lookup
 * per shape present at the priority, not one compare per flow.
 *
 * Shapes, values and projections are all runs of [field, length, length
 * bytes] sorted by field, so one AND serves them all.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "of_match.h"
#include "of_overlap.h"
#include "ut.h"

#define OVL_MAX_PROJ	16

/* One entry of a multiset of byte strings. */
struct ovl_key {
	UT_hash_handle	 hh;
	uint32_t	 count;
	uint16_t	 len;
	uint8_t		 key[];
};

/* A group's values ANDed with p. */
struct ovl_proj {
	struct ovl_proj	*next;
	struct ovl_key	*keys;
	uint16_t	 plen;
	uint8_t		 p[];
};

/* The flows of one shape: their values, and projections of them. */
struct ovl_group {
	UT_hash_handle	 hh;
	struct ovl_key	*vals;
	struct ovl_proj	*projs;
	uint32_t	 count;
	uint32_t	 nproj;
	uint16_t	 mlen;
	uint8_t		 mask[];
};

struct of_ovl {
	struct ovl_group	*groups;
	uint32_t		 ngroups;
};

/*
 * out = a AND b on the fields both name (length in *outlen); a field
 * whose AND is all zero is dropped when drop_zero (a mask that keeps no
 * bit), kept otherwise (a value of zero still says something).
 */
static void
seq_and(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
    int drop_zero, uint8_t *out, size_t *outlen)
{
	size_t	i = 0, j = 0, n = 0, k, len;
	int	any;

	while (i + 2 <= alen && j + 2 <= blen) {
		if (a[i] < b[j]) {
			i += 2 + a[i + 1];
			continue;
		}
		if (b[j] < a[i]) {
			j += 2 + b[j + 1];
			continue;
		}
		/* The same field: the same length. */
		len = a[i + 1];
		out[n] = a[i];
		out[n + 1] = len;
		for (any = 0, k = 0; k < len; k++) {
			out[n + 2 + k] = a[i + 2 + k] & b[j + 2 + k];
			any |= out[n + 2 + k];
		}
		if (any || !drop_zero)
			n += 2 + len;
		i += 2 + len;
		j += 2 + len;
	}
	*outlen = n;
}

/* ---- multisets of byte strings ---- */

static struct ovl_key *
keys_find(struct ovl_key *head, const uint8_t *key, size_t len)
{
	struct ovl_key	*e;

	HASH_FIND(hh, head, key, len, e);
	return e;
}

static void
keys_add(struct ovl_key **head, const uint8_t *key, size_t len)
{
	struct ovl_key	*e = keys_find(*head, key, len);

	if (e == NULL) {
		e = xmalloc(sizeof(*e) + len);
		e->count = 0;
		e->len = len;
		memcpy(e->key, key, len);
		HASH_ADD_KEYPTR(hh, *head, e->key, e->len, e);
	}
	e->count++;
}

static void
keys_del(struct ovl_key **head, const uint8_t *key, size_t len)
{
	struct ovl_key	*e = keys_find(*head, key, len);

	if (e == NULL)
		fatalx("overlap index: a flow removed was never added");
	if (--e->count == 0) {
		HASH_DEL(*head, e);
		free(e);
	}
}

/* ---- groups ---- */

static void
proj_add(struct ovl_proj *pr, const uint8_t *val, size_t vlen, uint32_t n)
{
	uint8_t	key[OF_MATCH_MAX];
	size_t	klen;

	seq_and(val, vlen, pr->p, pr->plen, 0, key, &klen);
	while (n-- > 0)
		keys_add(&pr->keys, key, klen);
}

/* The projection of g on p, built from g's values the first time. */
static struct ovl_proj *
proj_get(struct ovl_group *g, const uint8_t *p, size_t plen)
{
	struct ovl_proj	*pr;
	struct ovl_key	*e, *tmp;

	for (pr = g->projs; pr != NULL; pr = pr->next)
		if (pr->plen == plen && memcmp(pr->p, p, plen) == 0)
			return pr;
	if (g->nproj >= OVL_MAX_PROJ)
		return NULL;
	pr = xcalloc(1, sizeof(*pr) + plen);
	pr->plen = plen;
	memcpy(pr->p, p, plen);
	HASH_ITER(hh, g->vals, e, tmp)
		proj_add(pr, e->key, e->len, e->count);
	pr->next = g->projs;
	g->projs = pr;
	g->nproj++;
	return pr;
}

static void
group_free(struct ovl_group *g)
{
	struct ovl_proj	*pr;

	while ((pr = g->projs) != NULL) {
		g->projs = pr->next;
		UT_FREE_ALL(pr->keys);
		free(pr);
	}
	UT_FREE_ALL(g->vals);
	free(g);
}

/* Whether a flow of g agrees with val (of shape m) under m & g's mask. */
static int
group_overlaps(struct ovl_group *g, const uint8_t *m, size_t mlen,
    const uint8_t *val, size_t vlen)
{
	uint8_t		 p[OF_MATCH_MAX], key[OF_MATCH_MAX], k2[OF_MATCH_MAX];
	size_t		 plen, klen, k2len;
	struct ovl_proj	*pr;
	struct ovl_key	*e, *tmp;

	seq_and(m, mlen, g->mask, g->mlen, 1, p, &plen);
	/* No field both keep a bit of: any packet of one may match both. */
	if (plen == 0)
		return 1;
	seq_and(val, vlen, p, plen, 0, key, &klen);
	if (plen == g->mlen && memcmp(p, g->mask, plen) == 0)
		return keys_find(g->vals, key, klen) != NULL;
	if ((pr = proj_get(g, p, plen)) != NULL)
		return keys_find(pr->keys, key, klen) != NULL;
	HASH_ITER(hh, g->vals, e, tmp) {
		seq_and(e->key, e->len, p, plen, 0, k2, &k2len);
		if (k2len == klen && memcmp(k2, key, klen) == 0)
			return 1;
	}
	return 0;
}

/* ---- the index ---- */

struct of_ovl *
of_ovl_new(void)
{
	return xcalloc(1, sizeof(struct of_ovl));
}

void
of_ovl_free(struct of_ovl *ovl)
{
	struct ovl_group	*g, *tmp;

	if (ovl == NULL)
		return;
	HASH_ITER(hh, ovl->groups, g, tmp) {
		HASH_DEL(ovl->groups, g);
		group_free(g);
	}
	free(ovl);
}

void
of_ovl_add(struct of_ovl *ovl, const uint8_t *oxm, size_t len)
{
	uint8_t			 m[OF_MATCH_MAX], val[OF_MATCH_MAX];
	size_t			 mlen, vlen;
	struct ovl_group	*g;
	struct ovl_proj		*pr;

	of_match_shape(oxm, len, m, &mlen, val, &vlen);
	HASH_FIND(hh, ovl->groups, m, mlen, g);
	if (g == NULL) {
		g = xcalloc(1, sizeof(*g) + mlen);
		g->mlen = mlen;
		memcpy(g->mask, m, mlen);
		HASH_ADD_KEYPTR(hh, ovl->groups, g->mask, g->mlen, g);
		ovl->ngroups++;
	}
	keys_add(&g->vals, val, vlen);
	for (pr = g->projs; pr != NULL; pr = pr->next)
		proj_add(pr, val, vlen, 1);
	g->count++;
}

void
of_ovl_del(struct of_ovl *ovl, const uint8_t *oxm, size_t len)
{
	uint8_t			 m[OF_MATCH_MAX], val[OF_MATCH_MAX];
	uint8_t			 key[OF_MATCH_MAX];
	size_t			 mlen, vlen, klen;
	struct ovl_group	*g;
	struct ovl_proj		*pr;

	of_match_shape(oxm, len, m, &mlen, val, &vlen);
	HASH_FIND(hh, ovl->groups, m, mlen, g);
	if (g == NULL)
		fatalx("overlap index: a flow removed has no group");
	if (--g->count == 0) {
		HASH_DEL(ovl->groups, g);
		ovl->ngroups--;
		group_free(g);
		return;
	}
	keys_del(&g->vals, val, vlen);
	for (pr = g->projs; pr != NULL; pr = pr->next) {
		seq_and(val, vlen, pr->p, pr->plen, 0, key, &klen);
		keys_del(&pr->keys, key, klen);
	}
}

int
of_ovl_overlaps(struct of_ovl *ovl, const uint8_t *oxm, size_t len)
{
	uint8_t			 m[OF_MATCH_MAX], val[OF_MATCH_MAX];
	size_t			 mlen, vlen;
	struct ovl_group	*g, *tmp;

	of_match_shape(oxm, len, m, &mlen, val, &vlen);
	HASH_ITER(hh, ovl->groups, g, tmp)
		if (group_overlaps(g, m, mlen, val, vlen))
			return 1;
	return 0;
}
