/*
 * BGP-LS (RFC 9552, AFI 16388 SAFI 71): the nodes, links (each way) and
 * prefixes of a generated OSPFv2 topology, with their BGP-LS attribute
 * (path attribute 29: names, metrics, bandwidths, RFC 9085 SIDs).
 *
 * Route n of a peer is element n % T of copy n / T of the topology (T:
 * bgp_ls_routes; the copy is the NLRI's instance identifier, RFC 9552
 * section 5.2), so that any route is built alone, as nth must.  Elements:
 * nodes 0..N-1, then link l's two directions (2l, 2l+1), then each node's
 * --ls-prefixes prefixes (the q-th: the q-th block from the first prefix).
 * The shape is two functions (ls_links, ls_link_ends): a topology file
 * (issue 30) is a third shape answering the same two questions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgp_family.h"

#define LS_NODE		1	/* NLRI types, RFC 9552 section 5.2 */
#define LS_LINK		2
#define LS_PFX4		3
#define LS_PFX6		4
#define LS_OSPFV2	3	/* protocol-id, section 5.2 table 2 */
#define LS_RID_BASE	0x0a000000u	/* node k: router-id 10.0.0.0 + k + 1 */
#define LS_IF_BASE	0xac100000u	/* link l: 172.16.0.0 + 2l, + 2l + 1 */
/* TLV code points, RFC 9552 section 5.2 and 5.3, RFC 9085 section 2. */
#define T_LOCAL		256
#define T_REMOTE	257
#define T_IF4		259
#define T_NBR4		260
#define T_OSPF_RT	264
#define T_REACH		265
#define T_AS		512
#define T_LSID		513
#define T_AREA		514
#define T_RID		515
#define T_NAME		1026
#define T_RID_LOCAL	1028
#define T_RID_REMOTE	1030
#define T_MAX_BW	1089
#define T_RSV_BW	1090
#define T_UNRSV_BW	1091
#define T_TE_METRIC	1092
#define T_IGP_METRIC	1095
#define T_ADJ_SID	1099
#define T_PFX_METRIC	1155
#define T_PFX_SID	1158
#define LS_ATTR		29	/* BGP-LS attribute, section 5.3 */
#define LS_DESC_LEN	32	/* four sub-TLVs of 4 bytes */

/* Links of the topology, and link l's ends: topology.h's numbering, the
 * one sbsim openflow's LLDP links use. */
static uint64_t
ls_links(const struct bgp_gen *g)
{
	return topo_links(g->ls_shape, g->ls_nodes);
}

static void
ls_link_ends(const struct bgp_gen *g, uint64_t l, uint32_t *a, uint32_t *b)
{
	topo_link_ends(g->ls_shape, g->ls_nodes, g->ls_fanout, l, a, b);
}

uint64_t
bgp_ls_routes(const struct bgp_gen *g)
{
	return g->ls_nodes + 2 * ls_links(g) +
	    (uint64_t)g->ls_nodes * g->ls_pfx;
}

int
bgp_ls_shape_parse(struct bgp_gen *g, const char *arg, char *err,
    size_t errlen)
{
	return topo_parse(arg, 0, &g->ls_shape, &g->ls_fanout, err, errlen);
}

void
bgp_ls_nth(const struct bgp_family *f, const struct bgp_gen *g,
    const struct bgp_prefix *first, uint64_t n, struct bgp_route *r)
{
	uint64_t	t = bgp_ls_routes(g), e = t ? n % t : 0, l2 = 2 * ls_links(g);
	uint32_t	a, b;

	memset(r, 0, sizeof(*r));
	r->fam = (uint8_t)(f - bgp_families);
	r->ls.proto = LS_OSPFV2;
	r->ls.ident = t ? n / t : 0;
	r->ls.asn = g->rd_as;
	if (e < g->ls_nodes || t == 0) {
		r->ls.type = LS_NODE;
		r->ls.local = LS_RID_BASE + (uint32_t)e + 1;
		r->ls.index = (uint32_t)e;
		return;
	}
	if ((e -= g->ls_nodes) < l2) {
		ls_link_ends(g, e / 2, &a, &b);
		r->ls.type = LS_LINK;
		r->ls.index = (uint32_t)(e / 2);
		r->ls.local = LS_RID_BASE + (e % 2 ? b : a) + 1;
		r->ls.remote = LS_RID_BASE + (e % 2 ? a : b) + 1;
		r->ls.lif = LS_IF_BASE + (uint32_t)(e & ~1ull) + (uint32_t)(e % 2);
		r->ls.rif = r->ls.lif ^ 1u;
		r->label = (g->ls_sid_base + (uint32_t)e) & BGP_LABEL_MAX;
		return;
	}
	e -= l2;
	r->ls.type = LS_PFX4;
	r->ls.local = LS_RID_BASE + (uint32_t)(e / g->ls_pfx) + 1;
	r->ls.index = (uint32_t)e;
	r->label = (uint32_t)e;		/* prefix-SID index */
	bgp_prefix_nth(first, e, &r->pfx);
}

static uint8_t *
ls_put16(uint8_t *d, uint32_t v)
{
	d[0] = (uint8_t)(v >> 8);
	d[1] = (uint8_t)v;
	return d + 2;
}

static uint8_t *
ls_put32(uint8_t *d, uint32_t v)
{
	d = ls_put16(d, v >> 16);
	return ls_put16(d, v);
}

/* A TLV of a 4-byte value. */
static uint8_t *
ls_tlv32(uint8_t *d, uint16_t type, uint32_t v)
{
	d = ls_put16(d, type);
	d = ls_put16(d, 4);
	return ls_put32(d, v);
}

/* Local or remote node descriptors (section 5.2.1.4): AS, BGP-LS
 * identifier 0, OSPF area 0, IGP router-id. */
static uint8_t *
ls_node_desc(uint8_t *d, uint16_t type, uint32_t asn, uint32_t rid)
{
	d = ls_put16(d, type);
	d = ls_put16(d, LS_DESC_LEN);
	d = ls_tlv32(d, T_AS, asn);
	d = ls_tlv32(d, T_LSID, 0);
	d = ls_tlv32(d, T_AREA, 0);
	return ls_tlv32(d, T_RID, rid);
}

static size_t
ls_nlri_len(const struct bgp_route *r)
{
	size_t	n = 4 + 9 + 4 + LS_DESC_LEN;

	if (r->ls.type == LS_LINK)
		return n + 4 + LS_DESC_LEN + 16;
	if (r->ls.type == LS_PFX4 || r->ls.type == LS_PFX6)
		return n + 5 + 4 + 1 + (r->pfx.len + 7u) / 8u;
	return r->ls.type == LS_NODE ? n : 0;
}

/* An announcement and a withdrawal carry the same NLRI (section 5.2);
 * a received NLRI of a type not known here is not kept, so not sent. */
size_t
bgp_ls_encode(const struct bgp_family *f, uint8_t *d, size_t room,
    const struct bgp_route *r, int withdraw)
{
	size_t	n = ls_nlri_len(r);
	uint8_t	*p = d;

	(void)f;
	(void)withdraw;
	if (n == 0 || room < n)
		return 0;	/* a type received but not kept whole */
	p = ls_put16(p, r->ls.type);
	p = ls_put16(p, (uint32_t)(n - 4));
	*p++ = r->ls.proto;
	p = ls_put32(p, (uint32_t)(r->ls.ident >> 32));
	p = ls_put32(p, (uint32_t)r->ls.ident);
	p = ls_node_desc(p, T_LOCAL, r->ls.asn, r->ls.local);
	if (r->ls.type == LS_LINK) {
		p = ls_node_desc(p, T_REMOTE, r->ls.asn, r->ls.remote);
		p = ls_tlv32(p, T_IF4, r->ls.lif);
		ls_tlv32(p, T_NBR4, r->ls.rif);
	} else if (r->ls.type != LS_NODE) {
		p = ls_put16(p, T_OSPF_RT);
		p = ls_put16(p, 1);
		*p++ = 1;			/* intra-area */
		p = ls_put16(p, T_REACH);
		p = ls_put16(p, 1 + (r->pfx.len + 7u) / 8u);
		*p++ = r->pfx.len;
		memcpy(p, r->pfx.addr, (r->pfx.len + 7u) / 8u);
	}
	return n;
}

/* IEEE floating point, bytes per second (RFC 3630 section 2.5.6). */
static uint8_t *
ls_tlv_bw(uint8_t *d, uint16_t type, float bytes_per_s, unsigned count)
{
	uint32_t	v;
	unsigned	i;

	memcpy(&v, &bytes_per_s, sizeof(v));
	d = ls_put16(d, type);
	d = ls_put16(d, 4 * count);
	for (i = 0; i < count; i++)
		d = ls_put32(d, v);
	return d;
}

/* Link l: IGP metric 10 + l % 90, TE metric ten times it, 10 to 40
 * Gb/s (l % 4), its adjacency SID a label (flags V and L, RFC 9085
 * section 2.2.1). */
static uint8_t *
ls_link_attrs(uint8_t *d, const struct bgp_route *r)
{
	uint32_t	metric = 10 + r->ls.index % 90;
	float		bw = 1.25e9f * (float)(1 + r->ls.index % 4);

	d = ls_tlv32(d, T_RID_LOCAL, r->ls.local);
	d = ls_tlv32(d, T_RID_REMOTE, r->ls.remote);
	d = ls_tlv_bw(d, T_MAX_BW, bw, 1);
	d = ls_tlv_bw(d, T_RSV_BW, bw, 1);
	d = ls_tlv_bw(d, T_UNRSV_BW, bw, 8);
	d = ls_tlv32(d, T_TE_METRIC, metric * 10);
	d = ls_put16(d, T_IGP_METRIC);
	d = ls_put16(d, 2);			/* OSPF: 2 bytes */
	d = ls_put16(d, metric);
	d = ls_put16(d, T_ADJ_SID);
	d = ls_put16(d, 7);
	*d++ = 0x60;
	*d++ = 0;				/* weight */
	d = ls_put16(d, 0);
	d[0] = (uint8_t)(r->label >> 16);
	d[1] = (uint8_t)(r->label >> 8);
	d[2] = (uint8_t)r->label;
	return d + 3;
}

/* Prefix q: metric q % 100, prefix SID index q (RFC 9085 section
 * 2.3.1, no flags, algorithm 0). */
static uint8_t *
ls_pfx_attrs(uint8_t *d, const struct bgp_route *r)
{
	d = ls_tlv32(d, T_PFX_METRIC, r->ls.index % 100);
	d = ls_put16(d, T_PFX_SID);
	d = ls_put16(d, 8);
	d = ls_put32(d, 0);		/* flags, algorithm, reserved */
	return ls_put32(d, r->label);
}

static uint8_t *
ls_node_attrs(uint8_t *d, const struct bgp_route *r)
{
	char	name[16];
	int	n = snprintf(name, sizeof(name), "r%u",
	    r->ls.local - LS_RID_BASE - 1);

	d = ls_put16(d, T_NAME);
	d = ls_put16(d, (uint32_t)n);
	memcpy(d, name, (size_t)n);
	return ls_tlv32(d + n, T_RID_LOCAL, r->ls.local);
}

/* Optional, non-transitive, extended length (section 5.3). */
size_t
bgp_ls_attr(const struct bgp_route *r, uint8_t *d, size_t room)
{
	uint8_t	buf[256], *e;
	size_t	n;

	if (r->ls.type == LS_LINK)
		e = ls_link_attrs(buf, r);
	else if (r->ls.type == LS_PFX4)
		e = ls_pfx_attrs(buf, r);
	else
		e = ls_node_attrs(buf, r);
	n = (size_t)(e - buf);
	if (room < n + 4)
		return 0;
	d[0] = 0x90;
	d[1] = LS_ATTR;
	ls_put16(d + 2, (uint32_t)n);
	memcpy(d + 4, buf, n);
	return n + 4;
}

static uint32_t
ls_get16(const uint8_t *s)
{
	return (uint32_t)s[0] << 8 | s[1];
}

static uint32_t
ls_get32(const uint8_t *s)
{
	return ls_get16(s) << 16 | ls_get16(s + 2);
}

/* The TLV at s (left bytes): its type, length and value; 0 when its
 * length runs past the span (RFC 9552 section 8.2.2: malformed). */
static int
ls_tlv_next(const uint8_t **s, size_t *left, uint32_t *type, size_t *len,
    const uint8_t **v)
{
	if (*left < 4 || ls_get16(*s + 2) > *left - 4)
		return 0;
	*type = ls_get16(*s);
	*len = ls_get16(*s + 2);
	*v = *s + 4;
	*s += 4 + *len;
	*left -= 4 + *len;
	return 1;
}

/* Node descriptors (section 5.2.1.4): the 4-byte ones of their size,
 * an IGP router-id (4 or 8 bytes in OSPF, 6 or 7 in IS-IS, 16 in OSPFv3
 * pseudonodes) present. */
static int
ls_desc_dec(const uint8_t *s, size_t left, uint32_t *asn, uint32_t *rid)
{
	const uint8_t	*v;
	uint32_t	 t;
	size_t		 l;
	int		 got_rid = 0;

	while (left > 0) {
		if (!ls_tlv_next(&s, &left, &t, &l, &v))
			return -1;
		if ((t == T_AS || t == T_LSID || t == T_AREA) && l != 4)
			return -1;
		if (t == T_AS)
			*asn = ls_get32(v);
		if (t == T_RID) {
			if (l != 4 && l != 6 && l != 7 && l != 8 && l != 16)
				return -1;
			*rid = l == 4 || l == 8 ? ls_get32(v) : 0;
			got_rid = 1;
		}
	}
	return got_rid ? 0 : -1;
}

/* IP reachability (section 5.2.3.2): a length no longer than the
 * address, then exactly the bytes that hold it. */
static int
ls_reach_dec(const uint8_t *v, size_t l, uint16_t type, struct bgp_prefix *p)
{
	unsigned	max = type == LS_PFX4 ? 32 : 128;

	if (l < 1 || v[0] > max || l != 1u + (v[0] + 7u) / 8u)
		return -1;
	memset(p, 0, sizeof(*p));
	p->af = type == LS_PFX4 ? BGP_AF_IPV4 : BGP_AF_IPV6;
	p->len = v[0];
	memcpy(p->addr, v + 1, l - 1);
	return 0;
}

/* One descriptor TLV of the NLRI body: -1 malformed, else a bit of
 * what it was (1 local, 2 remote, 4 reachability). */
static int
ls_body_tlv(uint32_t t, const uint8_t *v, size_t l, struct bgp_route *r)
{
	switch (t) {
	case T_LOCAL:
		return ls_desc_dec(v, l, &r->ls.asn, &r->ls.local) ? -1 : 1;
	case T_REMOTE:
		return ls_desc_dec(v, l, &r->ls.asn, &r->ls.remote) ? -1 : 2;
	case T_IF4:
	case T_NBR4:
		if (l != 4)
			return -1;
		*(t == T_IF4 ? &r->ls.lif : &r->ls.rif) = ls_get32(v);
		return 0;
	case T_OSPF_RT:
		return l == 1 ? 0 : -1;
	case T_REACH:
		return ls_reach_dec(v, l, r->ls.type, &r->pfx) ? -1 : 4;
	}
	return 0;
}

/* What each NLRI type needs (section 5.2): local node descriptors, a
 * link's remote ones, a prefix's reachability. */
static int
ls_body_dec(const uint8_t *s, size_t left, struct bgp_route *r)
{
	const uint8_t	*v;
	uint32_t	 t;
	size_t		 l;
	int		 seen = 0, bit, need = 1;

	if (r->ls.type == LS_LINK)
		need |= 2;
	else if (r->ls.type != LS_NODE)
		need |= 4;
	while (left > 0) {
		if (!ls_tlv_next(&s, &left, &t, &l, &v) ||
		    (bit = ls_body_tlv(t, v, l, r)) < 0 || (seen & bit))
			return -1;
		seen |= bit;
	}
	return (seen & need) == need ? 0 : -1;
}

/* RFC 9552 section 8.2.2: an NLRI whose own length runs past the span
 * cannot be skipped (0: session reset, RFC 7606 section 5.3); one whose
 * TLVs inside do not add up is skipped and marked malformed (its UPDATE
 * treated as withdraw).  An NLRI type not known here is counted as it
 * stands (section 5.2). */
size_t
bgp_ls_decode(const struct bgp_family *f, const uint8_t *s, size_t left,
    struct bgp_route *r)
{
	size_t	len;

	(void)f;
	if (left < 4 || (len = ls_get16(s + 2)) > left - 4)
		return 0;
	r->ls.type = (uint16_t)ls_get16(s);
	if (r->ls.type < LS_NODE || r->ls.type > LS_PFX6)
		return 4 + len;
	if (len < 9) {
		r->malformed = 1;
		return 4 + len;
	}
	r->ls.proto = s[4];
	r->ls.ident = (uint64_t)ls_get32(s + 5) << 32 | ls_get32(s + 9);
	if (ls_body_dec(s + 13, len - 9, r) != 0)
		r->malformed = 1;
	return 4 + len;
}

static char *
ls_ip(uint32_t a, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u.%u", a >> 24, (a >> 16) & 255,
	    (a >> 8) & 255, a & 255);
	return buf;
}

char *
bgp_ls_print(const struct bgp_route *r, char *buf, size_t len)
{
	char	a[16], b[16], c[16], d[16], p[64];

	ls_ip(r->ls.local, a, sizeof(a));
	if (r->ls.type == LS_NODE)
		snprintf(buf, len, "node %s", a);
	else if (r->ls.type == LS_LINK)
		snprintf(buf, len, "link %s %s > %s %s", a,
		    ls_ip(r->ls.lif, c, sizeof(c)),
		    ls_ip(r->ls.remote, b, sizeof(b)),
		    ls_ip(r->ls.rif, d, sizeof(d)));
	else if (r->ls.type == LS_PFX4 || r->ls.type == LS_PFX6)
		snprintf(buf, len, "prefix %s %s", a,
		    bgp_prefix_str(&r->pfx, p, sizeof(p)));
	else
		snprintf(buf, len, "type %u", r->ls.type);
	return buf;
}
