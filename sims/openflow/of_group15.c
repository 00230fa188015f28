/*
 * OpenFlow 1.5's bucket commands (1.5.1 section 7.3.4.2): INSERT_BUCKET
 * puts the message's buckets into a group's list (command_bucket_id
 * FIRST: in front, LAST: at the end, a bucket id: after that bucket),
 * REMOVE_BUCKET takes one out (FIRST, LAST, an id) or all (ALL).  The
 * group table (of_group.c) knows ADD, MODIFY and DELETE only: each is
 * made the MODIFY that gives the group its new list, of the group's own
 * type (the message's is not looked at, as Open vSwitch does), so the
 * checks, liveness and bundle rollbacks stay of_group.c's.
 *
 * Buckets are kept in 1.3's form with the 1.5 bucket_id in the pad
 * (of_codec14.c); a group that 1.3 made has every id 0 and is numbered
 * by position first, as its GROUP_DESC in 1.5 shows it.
 */
#include <stdint.h>
#include <string.h>
#include "buf.h"
#include "of_codec14.h"
#include "of_group.h"
#include "of_types.h"
#include "ofp14.h"

#define B13_HDR		16	/* ofp_bucket: len, weight, watches, pad */
#define B13_ID_AT	12	/* the pad: the 1.5 bucket_id */
/* The new list, in 1.3's form, fits a GROUP_DESC entry once in 1.5's
 * (a bucket grows by 16 bytes of properties at most, so by half). */
#define G15_LIST_MAX	((OF_MAX_MSG - 64) / 2)

static uint8_t	g15_num[2 * OF_MAX_MSG];	/* a 1.3 list numbered */

struct g15_cur {
	uint8_t		 type;
	int		 found;
	const uint8_t	*buckets;
	size_t		 len;
};

static void
g15_found(void *arg, struct of_group_info *gi)
{
	struct g15_cur	*c = arg;

	c->found = 1;
	c->type = gi->type;
	c->buckets = gi->buckets;
	c->len = gi->buckets_len;
}

static int
g15_bad(enum of_err *err, enum of_err e)
{
	*err = e;
	return -1;
}

/* The next bucket of p..end: its length, 0 at the end. */
static size_t
g15_next(const uint8_t *p, const uint8_t *end)
{
	size_t	len;

	if (end - p < B13_HDR)
		return 0;
	len = (size_t)p[0] << 8 | p[1];
	return len >= B13_HDR && len <= (size_t)(end - p) ? len : 0;
}

static uint32_t
g15_id(const uint8_t *b)
{
	return (uint32_t)b[B13_ID_AT] << 24 | (uint32_t)b[B13_ID_AT + 1] << 16 |
	    (uint32_t)b[B13_ID_AT + 2] << 8 | b[B13_ID_AT + 3];
}

static int
g15_unnumbered(const uint8_t *p, size_t n)
{
	const uint8_t	*end = p + n;
	size_t		 len;

	for (; (len = g15_next(p, end)) > 0; p += len)
		if (g15_id(p) != 0)
			return 0;
	return 1;
}

/* Copy the buckets of p..p+n to w, numbered by position when by_pos;
 * skip: the one bucket left out (NULL: none). */
static void
g15_copy(struct wbuf *w, const uint8_t *p, size_t n, int by_pos,
    const uint8_t *skip)
{
	const uint8_t	*end = p + n;
	size_t		 len, at;
	uint32_t	 pos = 0;

	for (; (len = g15_next(p, end)) > 0; p += len, pos++) {
		if (p == skip)
			continue;
		at = w->len;
		wbuf_put_bytes(w, p, len);
		if (by_pos) {
			wbuf_set_u16(w, at + B13_ID_AT, (uint16_t)(pos >> 16));
			wbuf_set_u16(w, at + B13_ID_AT + 2, (uint16_t)pos);
		}
	}
}

/* The bucket of id in p..p+n (FIRST and LAST name the ends), or NULL. */
static const uint8_t *
g15_find(const uint8_t *p, size_t n, uint32_t id)
{
	const uint8_t	*end = p + n, *last = NULL;
	size_t		 len;

	for (; (len = g15_next(p, end)) > 0; p += len) {
		if (id == OFP15_GROUP_BUCKET_FIRST ||
		    (id <= OFP15_GROUP_BUCKET_MAX && g15_id(p) == id))
			return p;
		last = p;
	}
	return id == OFP15_GROUP_BUCKET_LAST ? last : NULL;
}

/* The message's bucket ids are unique already (of_codec14.c); none may
 * be the group's (BUCKET_EXISTS). */
static int
g15_clash(const struct g15_cur *c, const uint8_t *p, size_t n)
{
	const uint8_t	*end = p + n;
	size_t		 len;

	for (; (len = g15_next(p, end)) > 0; p += len)
		if (g15_find(c->buckets, c->len, g15_id(p)) != NULL)
			return 1;
	return 0;
}

/* Open vSwitch's order: FIRST puts the new buckets before the group's,
 * LAST after them, an id right after that bucket. */
static int
g15_insert(const struct g15_cur *c, const struct of_group_mod *gm,
    struct wbuf *w, enum of_err *err)
{
	uint32_t	 at = gm->command_bucket_id;
	const uint8_t	*after = NULL;
	size_t		 head = 0;

	if (at == OFP15_GROUP_BUCKET_ALL)
		return g15_bad(err, OF_ERR_GROUP_BAD_COMMAND);
	if (at != OFP15_GROUP_BUCKET_FIRST &&
	    (after = g15_find(c->buckets, c->len, at)) == NULL &&
	    at <= OFP15_GROUP_BUCKET_MAX)
		return g15_bad(err, OF_ERR_GROUP_UNKNOWN_BUCKET);
	if (at > OFP15_GROUP_BUCKET_MAX && at != OFP15_GROUP_BUCKET_FIRST &&
	    at != OFP15_GROUP_BUCKET_LAST)
		return g15_bad(err, OF_ERR_GROUP_UNKNOWN_BUCKET);
	if (g15_clash(c, gm->buckets, gm->buckets_len))
		return g15_bad(err, OF_ERR_GROUP_BUCKET_EXISTS);
	if (after != NULL)
		head = (size_t)(after - c->buckets) +
		    g15_next(after, c->buckets + c->len);
	g15_copy(w, c->buckets, head, 0, NULL);
	g15_copy(w, gm->buckets, gm->buckets_len, 0, NULL);
	g15_copy(w, c->buckets + head, c->len - head, 0, NULL);
	return 0;
}

static int
g15_remove(const struct g15_cur *c, const struct of_group_mod *gm,
    struct wbuf *w, enum of_err *err)
{
	uint32_t	 id = gm->command_bucket_id;
	const uint8_t	*skip;

	if (gm->buckets_len > 0)	/* it names its bucket by id */
		return g15_bad(err, OF_ERR_GROUP_BAD_BUCKET);
	if (id == OFP15_GROUP_BUCKET_ALL)
		return 0;
	skip = g15_find(c->buckets, c->len, id);
	if (skip == NULL && id != OFP15_GROUP_BUCKET_FIRST &&
	    id != OFP15_GROUP_BUCKET_LAST)
		return g15_bad(err, OF_ERR_GROUP_UNKNOWN_BUCKET);
	g15_copy(w, c->buckets, c->len, 0, skip);
	return 0;
}

int
of_group15_edit(const struct of_groups *gt, struct of_group_mod *gm,
    struct wbuf *w, enum of_err *err)
{
	struct g15_cur	c = { 0, 0, NULL, 0 };
	int		rc;

	if (gm->command != OFP15_GC_INSERT_BUCKET &&
	    gm->command != OFP15_GC_REMOVE_BUCKET)
		return 0;
	of_groups_walk(gt, gm->group_id, 0, g15_found, &c);
	if (!c.found)
		return g15_bad(err, OF_ERR_GROUP_UNKNOWN);
	if (g15_unnumbered(c.buckets, c.len)) {	/* 1.3 made it */
		struct wbuf	nw;

		wbuf_init(&nw, g15_num, sizeof(g15_num));
		g15_copy(&nw, c.buckets, c.len, 1, NULL);
		c.buckets = g15_num;
	}
	rc = gm->command == OFP15_GC_INSERT_BUCKET ?
	    g15_insert(&c, gm, w, err) : g15_remove(&c, gm, w, err);
	if (rc == -1)
		return -1;
	if (w->err || w->len > G15_LIST_MAX)
		return g15_bad(err, OF_ERR_GROUP_OUT_OF_BUCKETS);
	gm->command = OF_GC_MODIFY;
	gm->type = c.type;
	gm->buckets = w->data;
	gm->buckets_len = w->len;
	return 0;
}
