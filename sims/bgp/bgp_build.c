/*
 * Building UPDATEs (RFC 4271 section 4.3, RFC 4760 sections 3 and 4):
 * as many prefixes as fit one message, attributes encoded once per
 * message; End-of-RIB (RFC 4724 section 2); prefix arithmetic and text.
 */
#include <arpa/inet.h>

#include <endian.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgp_codec.h"
#include "bgp_family.h"

#define UB_MP_HDR	4	/* flags, type, 2-byte length */

static void
bgp_attr_hdr(struct wbuf *w, uint8_t flags, uint8_t type, size_t len)
{
	if (len > 255) {
		wbuf_put_u8(w, flags | BGP_ATTR_EXTLEN);
		wbuf_put_u8(w, type);
		wbuf_put_u16(w, (uint16_t)len);
	} else {
		wbuf_put_u8(w, flags);
		wbuf_put_u8(w, type);
		wbuf_put_u8(w, (uint8_t)len);
	}
}

/* AS_PATH as one AS_SEQUENCE; a 2-octet session gets AS_TRANS for the
 * big ones (RFC 6793 section 4.2.2). */
static void
bgp_aspath_put(struct wbuf *w, const struct bgp_attrs *a, int as4)
{
	uint8_t	i;

	bgp_attr_hdr(w, BGP_ATTR_TRANSITIVE, BGP_ATTR_AS_PATH,
	    a->n_as ? 2u + a->n_as * (as4 ? 4u : 2u) : 0);
	if (a->n_as > 0) {
		wbuf_put_u8(w, BGP_ASPATH_SEQUENCE);
		wbuf_put_u8(w, a->n_as);
	}
	for (i = 0; i < a->n_as; i++) {
		if (as4)
			wbuf_put_u32(w, a->as_path[i]);
		else
			wbuf_put_u16(w, a->as_path[i] > 0xffff ? BGP_AS_TRANS :
			    (uint16_t)a->as_path[i]);
	}
}

/* The real path in AS4_PATH when a 2-octet session got AS_TRANS, and only
 * then (RFC 6793 section 4.2.2). */
static void
bgp_as4path_put(struct wbuf *w, const struct bgp_attrs *a, int as4)
{
	uint8_t	i, big = 0;

	for (i = 0; i < a->n_as; i++)
		if (a->as_path[i] > 0xffff)
			big = 1;
	if (as4 || !big)
		return;
	bgp_attr_hdr(w, BGP_ATTR_OPTIONAL | BGP_ATTR_TRANSITIVE,
	    BGP_ATTR_AS4_PATH, 2u + a->n_as * 4u);
	wbuf_put_u8(w, BGP_ASPATH_SEQUENCE);
	wbuf_put_u8(w, a->n_as);
	for (i = 0; i < a->n_as; i++)
		wbuf_put_u32(w, a->as_path[i]);
}

/* ORIGINATOR_ID (9) and CLUSTER_LIST (10): optional, non-transitive
 * (RFC 4456 section 8). */
static void
bgp_rr_put(struct wbuf *w, const struct bgp_attrs *a)
{
	uint8_t	i;

	if (a->has_originator) {
		bgp_attr_hdr(w, BGP_ATTR_OPTIONAL, BGP_ATTR_ORIGINATOR_ID, 4);
		wbuf_put_u32(w, a->originator);
	}
	if (a->n_cluster > 0) {
		bgp_attr_hdr(w, BGP_ATTR_OPTIONAL, BGP_ATTR_CLUSTER_LIST,
		    a->n_cluster * 4u);
		for (i = 0; i < a->n_cluster; i++)
			wbuf_put_u32(w, a->cluster[i]);
	}
}

/* The attributes other than MP_REACH, in type order. */
static size_t
bgp_attrs_put(uint8_t *buf, size_t cap, const struct bgp_attrs *a,
    int next_hop, int as4)
{
	struct wbuf	w;
	uint8_t		i;

	wbuf_init(&w, buf, cap);
	bgp_attr_hdr(&w, BGP_ATTR_TRANSITIVE, BGP_ATTR_ORIGIN, 1);
	wbuf_put_u8(&w, a->origin);
	bgp_aspath_put(&w, a, as4);
	if (next_hop) {
		bgp_attr_hdr(&w, BGP_ATTR_TRANSITIVE, BGP_ATTR_NEXT_HOP, 4);
		wbuf_put_bytes(&w, a->next_hop4, 4);
	}
	if (a->has_med) {
		bgp_attr_hdr(&w, BGP_ATTR_OPTIONAL, BGP_ATTR_MED, 4);
		wbuf_put_u32(&w, a->med);
	}
	if (a->has_local_pref) {
		bgp_attr_hdr(&w, BGP_ATTR_TRANSITIVE, BGP_ATTR_LOCAL_PREF, 4);
		wbuf_put_u32(&w, a->local_pref);
	}
	if (a->n_comm > 0) {
		bgp_attr_hdr(&w, BGP_ATTR_OPTIONAL | BGP_ATTR_TRANSITIVE,
		    BGP_ATTR_COMMUNITIES, a->n_comm * 4u);
		for (i = 0; i < a->n_comm; i++)
			wbuf_put_u32(&w, a->comm[i]);
	}
	bgp_rr_put(&w, a);
	if (a->n_ext > 0) {
		bgp_attr_hdr(&w, BGP_ATTR_OPTIONAL | BGP_ATTR_TRANSITIVE,
		    BGP_ATTR_EXT_COMMUNITIES, a->n_ext * 8u);
		wbuf_put_bytes(&w, a->ext, a->n_ext * 8u);
	}
	/* RFC 4271 section 5: ascending type order, AS4_PATH (17) too. */
	bgp_as4path_put(&w, a, as4);
	if (a->n_lcomm > 0) {
		bgp_attr_hdr(&w, BGP_ATTR_OPTIONAL | BGP_ATTR_TRANSITIVE,
		    BGP_ATTR_LARGE_COMMUNITIES, a->n_lcomm * 12u);
		for (i = 0; i < a->n_lcomm; i++) {
			wbuf_put_u32(&w, a->lcomm[i][0]);
			wbuf_put_u32(&w, a->lcomm[i][1]);
			wbuf_put_u32(&w, a->lcomm[i][2]);
		}
	}
	return w.err ? 0 : w.len;
}

/* An MP attribute's header, its length (at len_off) filled in at the
 * end, and the family (RFC 4760 section 3, 4). */
static void
bgp_ub_mp_head(struct bgp_ub *b, uint8_t type)
{
	struct wbuf	*w = b->w;

	wbuf_put_u8(w, BGP_ATTR_OPTIONAL | BGP_ATTR_EXTLEN);
	wbuf_put_u8(w, type);
	b->len_off = w->len;
	wbuf_put_u16(w, 0);
	wbuf_put_u16(w, bgp_families[b->af].afi);
	wbuf_put_u8(w, bgp_families[b->af].safi);
}

static void
bgp_ub_withdraw_begin(struct bgp_ub *b)
{
	struct wbuf	*w = b->w;

	if (!b->mp) {
		/* IPv4 withdrawn routes, then an empty attribute list. */
		b->len_off = w->len;
		wbuf_put_u16(w, 0);
		b->limit -= 2;
		return;
	}
	wbuf_put_u16(w, 0);
	b->attrlen_off = w->len;
	wbuf_put_u16(w, 0);
	bgp_ub_mp_head(b, BGP_ATTR_MP_UNREACH);
}

/*
 * MP_REACH_NLRI first (RFC 7606 section 5.1 asks for it there), its
 * prefixes appended as they come; the other attributes follow at the end.
 */
static void
bgp_ub_mp_reach_begin(struct bgp_ub *b, const struct bgp_attrs *a)
{
	struct wbuf	*w = b->w;
	uint8_t		 nh[32], n = bgp_family_next_hop(b->af, a, nh);

	bgp_ub_mp_head(b, BGP_ATTR_MP_REACH);
	wbuf_put_u8(w, n);
	wbuf_put_bytes(w, nh, n);
	wbuf_put_u8(w, 0);		/* reserved */
}

int
bgp_ub_begin(struct bgp_ub *b, struct wbuf *w, unsigned af, int use_mp,
    int addpath, const struct bgp_attrs *announce,
    const struct bgp_sess_caps *sc, size_t limit)
{
	b->w = w;
	b->af = (uint8_t)af;
	b->mp = af != BGP_AF_IPV4 || use_mp;
	b->withdraw = announce == NULL;
	b->addpath = addpath != 0;
	b->count = 0;
	b->tail = NULL;
	b->tail_len = 0;
	b->start = bgp_msg_begin(w, BGP_UPDATE);
	b->limit = b->start + limit;
	if (b->withdraw) {
		bgp_ub_withdraw_begin(b);
		return w->err ? -1 : 0;
	}
	b->tail_len = bgp_attrs_put(b->own, sizeof(b->own), announce, !b->mp,
	    sc->as4);
	if (b->tail_len == 0)
		return -1;
	b->tail = b->own;
	wbuf_put_u16(w, 0);		/* no withdrawn routes */
	b->attrlen_off = w->len;
	wbuf_put_u16(w, 0);
	if (!b->mp) {
		wbuf_put_bytes(w, b->tail, b->tail_len);
		wbuf_set_u16(w, b->attrlen_off, (uint16_t)b->tail_len);
		b->tail_len = 0;
	} else {
		bgp_ub_mp_reach_begin(b, announce);
		b->limit -= b->tail_len;
	}
	return w->err || w->len > b->limit ? -1 : 0;
}

/*
 * One NLRI entry, [path id,] length, the fewest bytes (RFC 4271 section
 * 4.3, RFC 7911 section 3).  Written in place once the room is checked:
 * this runs once per prefix sent; what does not fit the buffer goes
 * through wbuf, which marks it failed.
 */
int
bgp_ub_add(struct bgp_ub *b, const struct bgp_prefix *p)
{
	struct wbuf	*w = b->w;
	size_t		 bytes = (p->len + 7u) / 8u, hdr = b->addpath ? 5 : 1;
	size_t		 i;
	uint8_t		*d;

	if (w->len + hdr + bytes > b->limit)
		return 1;
	b->count++;
	if (w->err || w->cap - w->len < hdr + bytes) {
		if (b->addpath)
			wbuf_put_u32(w, p->path_id);
		wbuf_put_u8(w, p->len);
		wbuf_put_bytes(w, p->addr, bytes);
		return 0;
	}
	d = w->data + w->len;
	if (b->addpath) {
		d[0] = (uint8_t)(p->path_id >> 24);
		d[1] = (uint8_t)(p->path_id >> 16);
		d[2] = (uint8_t)(p->path_id >> 8);
		d[3] = (uint8_t)p->path_id;
	}
	d[hdr - 1] = p->len;
	/* With room for a whole address, all 16 bytes at once: what lies
	 * past the entry is written over by the next or left out of len. */
	if (w->cap - w->len >= hdr + sizeof(p->addr))
		memcpy(d + hdr, p->addr, sizeof(p->addr));
	else
		for (i = 0; i < bytes; i++)
			d[hdr + i] = p->addr[i];
	w->len += hdr + bytes;
	return 0;
}

/* v's n first bytes, big-endian, into d. */
static void
bgp_put_be64(uint8_t *d, uint64_t v, unsigned n)
{
	unsigned	i;

	for (i = 0; i < n; i++)
		d[i] = (uint8_t)(v >> (56 - 8 * i));
}

/* v big-endian into d[0..7], one store. */
static void
bgp_store_be64(uint8_t *d, uint64_t v)
{
	v = htobe64(v);
	memcpy(d, &v, sizeof(v));
}

/*
 * Entries of a run, each the next block (bgp_prefix_step's order: the
 * address plus 2^(bits - len), wrapping), held as two 64-bit halves so
 * that a step is an addition, not a byte loop.  The caller made room
 * for k entries and 16 bytes past the last: each address is written
 * whole, the bytes past its length written over by the next entry or
 * left out of len.
 */
static void
bgp_ub_put_run(struct bgp_ub *b, struct bgp_prefix *p, uint64_t k)
{
	unsigned	 bits = p->af == BGP_AF_IPV6 ? 128 : 32;
	unsigned	 shift = bits - p->len, hdr = b->addpath ? 5 : 1;
	unsigned	 nhi = bits == 32 ? 4 : 8;	/* bytes in hi */
	size_t		 e = hdr + (p->len + 7u) / 8u;
	uint64_t	 hi = 0, lo = 0, inc_hi = 0, inc_lo = 0, i, old;
	uint8_t		*d = b->w->data + b->w->len, id[4];

	/* IPv4 in the top 32 bits: its wrap is the 64-bit one. */
	for (i = 0; i < nhi; i++)
		hi |= (uint64_t)p->addr[i] << (56 - 8 * i);
	for (i = 0; bits == 128 && i < 8; i++)
		lo = lo << 8 | p->addr[8 + i];
	shift += 128 - bits;
	if (p->len > 0) {
		if (shift >= 64)
			inc_hi = 1ull << (shift - 64);
		else
			inc_lo = 1ull << shift;
	}
	bgp_put_be64(id, (uint64_t)p->path_id << 32, 4);
	for (i = 0; i < k; i++, d += e) {
		if (hdr == 5)
			memcpy(d, id, 4);
		d[hdr - 1] = p->len;
		bgp_store_be64(d + hdr, hi);
		if (bits == 128)
			bgp_store_be64(d + hdr + 8, lo);
		old = lo;
		lo += inc_lo;
		hi += inc_hi + (lo < old);
	}
	bgp_put_be64(p->addr, hi, nhi);
	if (bits == 128)
		bgp_put_be64(p->addr + 8, lo, 8);
	b->w->len += k * e;
	b->count += (uint32_t)k;
}

uint64_t
bgp_ub_add_run(struct bgp_ub *b, struct bgp_prefix *p, uint64_t n)
{
	struct wbuf	*w = b->w;
	size_t		 e = (b->addpath ? 5u : 1u) + (p->len + 7u) / 8u;
	uint64_t	 k, i;

	if (w->len + e > b->limit)
		return 0;
	k = (b->limit - w->len) / e;
	if (k > n)
		k = n;
	if (!w->err && w->cap - w->len >= k * e + 16) {
		bgp_ub_put_run(b, p, k);
		return k;
	}
	/* Near the buffer's end: one at a time, wbuf marking what does
	 * not fit (and counting it, as bgp_ub_add does). */
	for (i = 0; i < n && bgp_ub_add(b, p) == 0; i++)
		bgp_prefix_step(p);
	return i;
}

int
bgp_ub_end(struct bgp_ub *b)
{
	struct wbuf	*w = b->w;

	if (b->withdraw && !b->mp) {
		wbuf_set_u16(w, b->len_off, (uint16_t)(w->len - b->len_off - 2));
		wbuf_put_u16(w, 0);
	} else if (b->mp) {
		wbuf_set_u16(w, b->len_off, (uint16_t)(w->len - b->len_off - 2));
		if (b->tail_len > 0)
			wbuf_put_bytes(w, b->tail, b->tail_len);
		wbuf_set_u16(w, b->attrlen_off,
		    (uint16_t)(w->len - b->attrlen_off - 2));
	}
	return bgp_msg_end(w, b->start);
}

/* IPv4: an UPDATE with nothing in it; others: an empty MP_UNREACH. */
int
bgp_eor_encode(struct wbuf *w, unsigned af)
{
	size_t	start = bgp_msg_begin(w, BGP_UPDATE);

	wbuf_put_u16(w, 0);
	if (af == BGP_AF_IPV4) {
		wbuf_put_u16(w, 0);
		return bgp_msg_end(w, start);
	}
	wbuf_put_u16(w, 6);
	bgp_attr_hdr(w, BGP_ATTR_OPTIONAL, BGP_ATTR_MP_UNREACH, 3);
	wbuf_put_u16(w, bgp_families[af].afi);
	wbuf_put_u8(w, bgp_families[af].safi);
	return bgp_msg_end(w, start);
}

static uint32_t
bgp_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

/* ASes in an AS_PATH-like attribute, segments flattened; -1 malformed
 * (RFC 7606 section 7.2). */
static long
bgp_aspath_count(struct rbuf v, int as4)
{
	uint8_t	type, segn;
	long	n = 0;

	while (rbuf_left(&v) > 0) {
		if (rbuf_get_u8(&v, &type) == -1 ||
		    rbuf_get_u8(&v, &segn) == -1 || segn == 0 ||
		    type < BGP_ASPATH_SET || type > BGP_ASPATH_CONFED_SET ||
		    rbuf_skip(&v, (size_t)segn * (as4 ? 4u : 2u)) == -1)
			return -1;
		n += segn;
	}
	return n;
}

/* The ASes from..to-1 of an AS_PATH-like attribute appended to
 * a->as_path; 1 when some did not fit. */
static int
bgp_aspath_copy(struct rbuf v, int as4, long from, long to,
    struct bgp_attrs *a)
{
	uint8_t		type, segn, i;
	uint16_t	a16;
	uint32_t	as;
	long		k = 0;
	int		cut = 0;

	while (rbuf_get_u8(&v, &type) == 0 && rbuf_get_u8(&v, &segn) == 0) {
		for (i = 0; i < segn; i++, k++) {
			if (as4 ? rbuf_get_u32(&v, &as) == -1 :
			    rbuf_get_u16(&v, &a16) == -1)
				return cut;
			if (!as4)
				as = a16;
			if (k < from || k >= to)
				continue;
			if (a->n_as < BGP_MAX_ASPATH)
				a->as_path[a->n_as++] = as;
			else
				cut = 1;
		}
	}
	return cut;
}

/*
 * The AS path: from a 2-octet session, AS_PATH merged with AS4_PATH as
 * RFC 6793 section 4.2.3 says (the leading AS_PATH ASes the AS4_PATH
 * lacks, then the AS4_PATH; AS4_PATH ignored when longer or malformed);
 * else AS_PATH as it is.
 */
static int
bgp_aspath_merge(const struct rbuf *asp, const struct rbuf *as4p, int as4,
    struct bgp_attrs *a)
{
	long	n2, n4;
	int	cut;

	a->n_as = 0;
	if (asp == NULL)
		return 0;
	if (!as4 && as4p != NULL && (n4 = bgp_aspath_count(*as4p, 1)) >= 0 &&
	    (n2 = bgp_aspath_count(*asp, 0)) >= n4) {
		cut = bgp_aspath_copy(*asp, 0, 0, n2 - n4, a);
		return cut | bgp_aspath_copy(*as4p, 1, 0, n4, a);
	}
	return bgp_aspath_copy(*asp, as4, 0, LONG_MAX, a);
}

/*
 * A list attribute's entries, each `words` 32-bit words (a community 1, a
 * CLUSTER_LIST entry 1, a large community 3), appended to dst, which holds
 * *n of at most max: 1 when some did not fit and were left out.
 */
static int
bgp_words_copy(const uint8_t *p, size_t len, size_t words, uint32_t *dst,
    uint8_t *n, size_t max)
{
	size_t	i, k;

	for (i = 0; i + 4 * words <= len; i += 4 * words) {
		if (*n >= max)
			return 1;
		for (k = 0; k < words; k++)
			dst[*n * words + k] = bgp_get32(p + i + 4 * k);
		(*n)++;
	}
	return 0;
}

static int
bgp_attr_copy(struct bgp_attrs *a, uint8_t type, struct rbuf v)
{
	const uint8_t	*p = rbuf_ptr(&v);
	size_t		 len = rbuf_left(&v);

	switch (type) {
	case BGP_ATTR_COMMUNITIES:
		return bgp_words_copy(p, len, 1, a->comm, &a->n_comm,
		    BGP_MAX_COMM);
	case BGP_ATTR_ORIGINATOR_ID:
		if (len == 4) {
			a->has_originator = 1;
			a->originator = bgp_get32(p);
		}
		return 0;
	case BGP_ATTR_CLUSTER_LIST:
		return bgp_words_copy(p, len, 1, a->cluster, &a->n_cluster,
		    BGP_MAX_CLUSTER);
	case BGP_ATTR_LARGE_COMMUNITIES:
		return bgp_words_copy(p, len, 3, &a->lcomm[0][0], &a->n_lcomm,
		    BGP_MAX_COMM);
	}
	return 0;
}

int
bgp_update_attrs(const struct bgp_update *u, const struct bgp_sess_caps *sc,
    struct bgp_attrs *a)
{
	struct rbuf	r, v, asp, as4p;
	uint64_t	seen[4] = { 0, 0, 0, 0 };
	uint8_t		flags, type, l8, has_asp = 0, has_as4p = 0;
	uint16_t	len;
	int		cut = 0;

	memset(a, 0, sizeof(*a));
	a->origin = u->origin;
	a->has_med = u->has_med;
	a->med = u->med;
	a->has_local_pref = u->has_local_pref;
	a->local_pref = u->local_pref;
	memcpy(a->next_hop4, u->next_hop, 4);
	if (u->mp_reach_af == BGP_AF_IPV6 && u->mp_nh_len >= 16)
		memcpy(a->next_hop6, u->mp_nh, 16);
	else if (u->mp_reach_af == BGP_AF_IPV4 && u->mp_nh_len == 4)
		memcpy(a->next_hop4, u->mp_nh, 4);
	rbuf_init(&r, u->attrs, u->attrs_len);
	while (rbuf_get_u8(&r, &flags) == 0 && rbuf_get_u8(&r, &type) == 0) {
		if (flags & BGP_ATTR_EXTLEN) {
			if (rbuf_get_u16(&r, &len) == -1)
				break;
		} else {
			if (rbuf_get_u8(&r, &l8) == -1)
				break;
			len = l8;
		}
		if (rbuf_sub(&r, &v, len) == -1)
			break;
		/* Only the first of a repeated attribute counts, as in
		 * bgp_update_decode (RFC 7606 section 3 g). */
		if (seen[type / 64] & 1ull << (type % 64))
			continue;
		seen[type / 64] |= 1ull << (type % 64);
		if (type == BGP_ATTR_AS_PATH) {
			asp = v;
			has_asp = 1;
		} else if (type == BGP_ATTR_AS4_PATH) {
			as4p = v;
			has_as4p = 1;
		} else
			cut |= bgp_attr_copy(a, type, v);
	}
	cut |= bgp_aspath_merge(has_asp ? &asp : NULL,
	    has_as4p ? &as4p : NULL, sc->as4, a);
	return cut;
}

/* first + n * 2^(bits - len): the n-th block of first's size, wrapping
 * at the end of the address space. */
void
bgp_prefix_nth(const struct bgp_prefix *first, uint64_t n,
    struct bgp_prefix *out)
{
	unsigned	shift, i;
	uint64_t	hi = 0, lo = 0, add_hi, add_lo, old;

	*out = *first;
	if (first->af == BGP_AF_IPV4) {
		shift = 32u - first->len;
		lo = (uint64_t)first->addr[0] << 24 | first->addr[1] << 16 |
		    first->addr[2] << 8 | first->addr[3];
		lo += shift >= 32 ? 0 : n << shift;
		for (i = 0; i < 4; i++)
			out->addr[i] = (uint8_t)(lo >> (24 - 8 * i));
		return;
	}
	shift = 128u - first->len;
	for (i = 0; i < 8; i++) {
		hi = hi << 8 | first->addr[i];
		lo = lo << 8 | first->addr[8 + i];
	}
	add_lo = shift >= 64 ? 0 : n << shift;
	add_hi = shift >= 128 ? 0 : shift >= 64 ? n << (shift - 64) :
	    shift == 0 ? 0 : n >> (64 - shift);
	old = lo;
	lo += add_lo;
	hi += add_hi + (lo < old);
	for (i = 0; i < 8; i++) {
		out->addr[i] = (uint8_t)(hi >> (56 - 8 * i));
		out->addr[8 + i] = (uint8_t)(lo >> (56 - 8 * i));
	}
}

/* One block on: its last bit plus one, carried to the left and lost
 * past the first byte, as bgp_prefix_nth wraps. */
void
bgp_prefix_step(struct bgp_prefix *p)
{
	unsigned	i, carry;

	if (p->len == 0)
		return;
	i = (p->len - 1u) / 8u;
	carry = 0x80u >> ((p->len - 1u) % 8u);
	for (;;) {
		carry += p->addr[i];
		p->addr[i] = (uint8_t)carry;
		if ((carry >>= 8) == 0 || i == 0)
			return;
		i--;
	}
}

static int
bgp_host_bits_clear(const struct bgp_prefix *p)
{
	unsigned	i, bits = p->af == BGP_AF_IPV6 ? 128 : 32;

	for (i = p->len; i < bits; i++)
		if (p->addr[i / 8] & (0x80 >> (i % 8)))
			return 0;
	return 1;
}

int
bgp_prefix_parse(const char *s, struct bgp_prefix *p)
{
	char		 addr[64], *end;
	const char	*slash = strchr(s, '/');
	long		 len;

	memset(p, 0, sizeof(*p));
	if (slash == NULL || (size_t)(slash - s) >= sizeof(addr))
		return -1;
	memcpy(addr, s, (size_t)(slash - s));
	addr[slash - s] = '\0';
	if (slash[1] < '0' || slash[1] > '9')
		return -1;
	len = strtol(slash + 1, &end, 10);
	if (*end != '\0')
		return -1;
	if (inet_pton(AF_INET, addr, p->addr) == 1) {
		p->af = BGP_AF_IPV4;
		if (len > 32)
			return -1;
	} else if (inet_pton(AF_INET6, addr, p->addr) == 1) {
		p->af = BGP_AF_IPV6;
		if (len > 128)
			return -1;
	} else
		return -1;
	p->len = (uint8_t)len;
	return bgp_host_bits_clear(p) ? 0 : -1;
}

char *
bgp_prefix_str(const struct bgp_prefix *p, char *buf, size_t len)
{
	char	a[INET6_ADDRSTRLEN];

	inet_ntop(p->af == BGP_AF_IPV6 ? AF_INET6 : AF_INET, p->addr, a,
	    sizeof(a));
	snprintf(buf, len, "%s/%u", a, p->len);
	return buf;
}
