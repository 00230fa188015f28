/*
 * Labelled prefixes: labeled unicast (RFC 8277) and, with a route
 * distinguisher between label and prefix, L3VPN IPv4 and IPv6 (RFC 4364
 * section 4.3.4, RFC 4659 section 3.2).  One label (no Multiple Labels
 * capability, RFC 8277 section 2.2): 20 bits, 3 reserved, bottom of stack.
 */
#include <arpa/inet.h>

#include <stdio.h>
#include <string.h>

#include "bgp_family.h"

#define LBL_BITS	24u
#define RD_BITS		64u

static unsigned
lbl_rd_bits(const struct bgp_family *f)
{
	return f->safi == BGP_SAFI_VPN ? RD_BITS : 0;
}

/* RFC 4364 section 4.2: type 0 is a 2-octet ASN and a 4-octet number,
 * type 1 an IPv4 address and type 2 a 4-octet ASN, each with a 2-octet
 * number. */
void
bgp_rd_put(uint8_t *rd, const struct bgp_gen *g, uint32_t k)
{
	uint32_t	n = k + 1, a;

	rd[0] = 0;
	rd[1] = g->rd_type;
	if (g->rd_type == 0) {
		rd[2] = (uint8_t)(g->rd_as >> 8);
		rd[3] = (uint8_t)g->rd_as;
		rd[4] = (uint8_t)(n >> 24);
		rd[5] = (uint8_t)(n >> 16);
	} else {
		a = g->rd_type == 1 ? g->rd_ip : g->rd_as;
		rd[2] = (uint8_t)(a >> 24);
		rd[3] = (uint8_t)(a >> 16);
		rd[4] = (uint8_t)(a >> 8);
		rd[5] = (uint8_t)a;
	}
	rd[6] = (uint8_t)(n >> 8);
	rd[7] = (uint8_t)n;
}

/* Labels 0 to 15 are reserved (RFC 3032 section 2.1): the n-th label
 * from the base wraps back to it past 20 bits. */
static uint32_t
lbl_label(const struct bgp_gen *g, uint64_t n)
{
	uint32_t	span = BGP_LABEL_MAX + 1 - g->label_base;

	return g->label_base + (uint32_t)(n % span);
}

void
bgp_lbl_nth(const struct bgp_family *f, const struct bgp_gen *g,
    const struct bgp_prefix *first, uint64_t n, struct bgp_route *r)
{
	uint32_t	k = g->rd_count > 1 ? (uint32_t)(n % g->rd_count) : 0;

	bgp_prefix_nth(first, n, &r->pfx);
	r->fam = (uint8_t)(f - bgp_families);
	memset(r->rd, 0, sizeof(r->rd));
	if (lbl_rd_bits(f))
		bgp_rd_put(r->rd, g, k);
	r->label = lbl_label(g, g->label_per_rd ? k : n);
}

size_t
bgp_lbl_encode(const struct bgp_family *f, uint8_t *d, size_t room,
    const struct bgp_route *r, int withdraw)
{
	unsigned	rdb = lbl_rd_bits(f) / 8;
	size_t		bytes = (r->pfx.len + 7u) / 8u, n = 4 + rdb + bytes;
	uint32_t	v = withdraw ? BGP_LABEL_WITHDRAW : r->label << 4 | 1;

	if (room < n)
		return 0;
	d[0] = (uint8_t)(LBL_BITS + rdb * 8 + r->pfx.len);
	d[1] = (uint8_t)(v >> 16);
	d[2] = (uint8_t)(v >> 8);
	d[3] = (uint8_t)v;
	memcpy(d + 4, r->rd, rdb);
	memcpy(d + 4 + rdb, r->pfx.addr, bytes);
	return n;
}

/* The route after r (route n+1 from route n): the next block, the next
 * RD (rd_k its number) and label, as bgp_lbl_nth has them. */
static void
lbl_step(const struct bgp_family *f, const struct bgp_gen *g,
    struct bgp_route *r, uint32_t *rd_k)
{
	bgp_prefix_step(&r->pfx);
	if (g->rd_count > 1) {
		if (++*rd_k == g->rd_count)
			*rd_k = 0;
		if (lbl_rd_bits(f))
			bgp_rd_put(r->rd, g, *rd_k);
	}
	if (g->label_per_rd)
		r->label = lbl_label(g, *rd_k);
	else
		r->label = r->label == BGP_LABEL_MAX ? g->label_base :
		    r->label + 1;
}

/*
 * Entries of one size (the first's length) written in place, each route
 * stepped from the one before rather than made from its number: no
 * division per route.  Only where the buffer has room for them and 16
 * bytes more: the RD and address go as whole 8 and 16 bytes, what lies
 * past the entry written over by the next or left out of len.
 */
uint64_t
bgp_lbl_run(const struct bgp_family *f, const struct bgp_gen *g,
    const struct bgp_prefix *first, uint64_t n, uint64_t k,
    struct bgp_ub *b)
{
	struct wbuf		*w = b->w;
	struct bgp_route	 r;
	unsigned		 rdb = lbl_rd_bits(f) / 8;
	size_t			 e = 4 + rdb + (first->len + 7u) / 8u, end;
	uint64_t		 i, fit;
	uint32_t		 rd_k, v;
	uint8_t			*d;

	end = b->limit < w->cap ? b->limit : w->cap;
	if (w->err || w->len + e + 16 > end)
		return 0;
	fit = (end - w->len - 16) / e;
	fit = fit < k ? fit : k;
	bgp_lbl_nth(f, g, first, n, &r);
	rd_k = g->rd_count > 1 ? (uint32_t)(n % g->rd_count) : 0;
	d = w->data + w->len;
	for (i = 0; i < fit; i++, d += e) {
		v = b->withdraw ? BGP_LABEL_WITHDRAW : r.label << 4 | 1;
		d[0] = (uint8_t)(LBL_BITS + rdb * 8 + r.pfx.len);
		d[1] = (uint8_t)(v >> 16);
		d[2] = (uint8_t)(v >> 8);
		d[3] = (uint8_t)v;
		if (rdb)
			memcpy(d + 4, r.rd, 8);
		memcpy(d + 4 + rdb, r.pfx.addr, 16);
		lbl_step(f, g, &r, &rd_k);
	}
	w->len += fit * e;
	b->count += (uint32_t)fit;
	return fit;
}

/*
 * RFC 7606 section 5.3 and RFC 8277 section 2.3: an entry shorter than
 * its label (and RD), a prefix longer than the address, bytes past the
 * span, or a label that is not the bottom of the stack (none other was
 * negotiated) other than a withdraw's, make the NLRI malformed.
 */
size_t
bgp_lbl_decode(const struct bgp_family *f, const uint8_t *s, size_t left,
    struct bgp_route *r)
{
	unsigned	rdb = lbl_rd_bits(f), abits;
	size_t		bytes, pbytes;
	uint32_t	v;

	abits = f->addr_af == BGP_AF_IPV6 ? 128 : 32;
	if (left < 1 || s[0] < LBL_BITS + rdb || s[0] - LBL_BITS - rdb > abits)
		return 0;
	bytes = (s[0] + 7u) / 8u;
	if (left - 1 < bytes)
		return 0;
	v = (uint32_t)s[1] << 16 | (uint32_t)s[2] << 8 | s[3];
	if (!(v & 1) && v != BGP_LABEL_WITHDRAW && v != 0)
		return 0;
	r->pfx.af = f->addr_af;
	r->pfx.len = (uint8_t)(s[0] - LBL_BITS - rdb);
	r->label = v & 1 ? v >> 4 : v;
	memcpy(r->rd, s + 4, rdb / 8);
	pbytes = bytes - 3 - rdb / 8;
	memcpy(r->pfx.addr, s + 4 + rdb / 8, pbytes);
	if (r->pfx.len % 8)
		r->pfx.addr[pbytes - 1] &= (uint8_t)(0xff << (8 - r->pfx.len % 8));
	return 1 + bytes;
}

/* Type 0 ASN:n, 1 IPv4:n, 2 ASN4:n (RFC 4364 section 4.2); others hex. */
void
bgp_rd_str(const uint8_t *rd, char *buf, size_t len)
{
	uint16_t	type = (uint16_t)(rd[0] << 8 | rd[1]);
	uint32_t	a4 = (uint32_t)rd[2] << 24 | (uint32_t)rd[3] << 16 |
	    (uint32_t)rd[4] << 8 | rd[5];
	uint32_t	n4 = (uint32_t)rd[4] << 24 | (uint32_t)rd[5] << 16 |
	    (uint32_t)rd[6] << 8 | rd[7];
	unsigned	n2 = (unsigned)rd[6] << 8 | rd[7];

	if (type == 0)
		snprintf(buf, len, "%u:%u", (unsigned)rd[2] << 8 | rd[3], n4);
	else if (type == 1)
		snprintf(buf, len, "%u.%u.%u.%u:%u", rd[2], rd[3], rd[4], rd[5],
		    n2);
	else if (type == 2)
		snprintf(buf, len, "%u:%u", a4, n2);
	else
		snprintf(buf, len, "%02x%02x:%02x%02x%02x%02x%02x%02x", rd[0],
		    rd[1], rd[2], rd[3], rd[4], rd[5], rd[6], rd[7]);
}

char *
bgp_lbl_print(const struct bgp_route *r, char *buf, size_t len)
{
	const struct bgp_family	*f = &bgp_families[r->fam];
	char			 rd[40] = "", pfx[64];

	if (lbl_rd_bits(f)) {
		bgp_rd_str(r->rd, rd, sizeof(rd) - 1);
		strcat(rd, ":");
	}
	bgp_prefix_str(&r->pfx, pfx, sizeof(pfx));
	if (r->label == BGP_LABEL_WITHDRAW)
		snprintf(buf, len, "%s%s label withdrawn", rd, pfx);
	else
		snprintf(buf, len, "%s%s label %u", rd, pfx, r->label);
	return buf;
}
