/*
 * EVPN routes (l2vpn-evpn, AFI 25 SAFI 70) as a VXLAN EVPN speaker sends
 * them (RFC 8365): types 1 Ethernet A-D, 2 MAC/IP advertisement, 3
 * Inclusive Multicast Ethernet Tag, 4 Ethernet Segment (RFC 7432 section
 * 7) and 5 IP Prefix (RFC 9136 section 3).  Each NLRI is a type octet, a
 * length octet and the route.  The label fields carry the 24-bit VNI
 * (RFC 8365 section 5.1.3); the routes carry the VXLAN encapsulation
 * extended community (RFC 9012 section 4.1, tunnel type 8).
 */
#include <arpa/inet.h>

#include <stdio.h>
#include <string.h>

#include "bgp_family.h"

#define EVPN_MAC_BITS	48
#define EVPN_TUNNEL_VXLAN 8	/* RFC 9012 section 3 / IANA */

/* The types asked (bit t), in order: the t of route n is the
 * (n mod count)-th of them, and m = n / count its number in its type. */
static unsigned
evpn_type_of(const struct bgp_gen *g, uint64_t n, uint64_t *m)
{
	unsigned	types[5], k = 0, t;
	uint8_t		mask = g->evpn_types ? g->evpn_types : 1u << 2;

	for (t = 1; t <= 5; t++)
		if (mask & 1u << t)
			types[k++] = t;
	if (k == 0)
		types[k++] = 2;
	*m = n / k;
	return types[n % k];
}

static void
put32(uint8_t *d, uint32_t v)
{
	d[0] = (uint8_t)(v >> 24);
	d[1] = (uint8_t)(v >> 16);
	d[2] = (uint8_t)(v >> 8);
	d[3] = (uint8_t)v;
}

static uint32_t
get32(const uint8_t *s)
{
	return (uint32_t)s[0] << 24 | (uint32_t)s[1] << 16 |
	    (uint32_t)s[2] << 8 | s[3];
}

/*
 * Route m of type t: its RD as L3VPN's (m mod --rd-count), its VNI; the
 * m-th prefix is type 5's prefix and the others' IP (a host, /32 or
 * /128).  Types 1 and 4 name segment m+1 (a type 0 ESI, RFC 7432
 * section 5), type 2 the MAC 02:00:m (locally administered).
 */
void
bgp_evpn_nth(const struct bgp_family *f, const struct bgp_gen *g,
    const struct bgp_prefix *first, uint64_t n, struct bgp_route *r)
{
	uint64_t	m;
	unsigned	t = evpn_type_of(g, n, &m);
	uint32_t	k = g->rd_count > 1 ? (uint32_t)(m % g->rd_count) : 0;

	memset(r, 0, sizeof(*r));
	r->fam = (uint8_t)(f - bgp_families);
	r->type = (uint8_t)t;
	bgp_rd_put(r->rd, g, k);
	bgp_prefix_nth(first, m, &r->pfx);
	r->label = (g->vni_base + (uint32_t)(m % (g->vnis ? g->vnis : 1))) &
	    0xffffffu;
	if (t == 1 || t == 4)
		put32(r->esi + 6, (uint32_t)m + 1);
	if (t == 2) {
		r->mac[0] = 0x02;
		put32(r->mac + 2, (uint32_t)m);
	}
	if (t == 1)			/* no IP */
		memset(&r->pfx, 0, sizeof(r->pfx));
	else if (t != 5)
		r->pfx.len = r->pfx.af == BGP_AF_IPV6 ? 128 : 32;
	else {				/* gateway: none, all zero */
		r->src.af = r->pfx.af;
		r->src.len = r->pfx.af == BGP_AF_IPV6 ? 128 : 32;
	}
	if (t == 3 || t == 4)		/* no label field */
		r->label = 0;
}

static size_t
evpn_alen(const struct bgp_prefix *p)
{
	return p->af == BGP_AF_IPV6 ? 16 : 4;
}

/* The route's body (after type and length) into d; its length. */
static size_t
evpn_body(const struct bgp_route *r, uint8_t *d)
{
	size_t	a = r->pfx.len / 8u, o;	/* a host address, or none */

	memcpy(d, r->rd, 8);
	if (r->type == 3) {		/* RD, tag, IP length, IP */
		put32(d + 8, r->tag);
		d[12] = (uint8_t)(a * 8);
		memcpy(d + 13, r->pfx.addr, a);
		return 13 + a;
	}
	memcpy(d + 8, r->esi, 10);
	if (r->type == 4) {		/* RD, ESI, IP length, IP */
		d[18] = (uint8_t)(a * 8);
		memcpy(d + 19, r->pfx.addr, a);
		return 19 + a;
	}
	put32(d + 18, r->tag);
	o = 22;
	if (r->type == 2) {		/* MAC length, MAC, IP length, IP */
		d[o++] = EVPN_MAC_BITS;
		memcpy(d + o, r->mac, 6);
		o += 6;
		d[o++] = (uint8_t)(a * 8);
		memcpy(d + o, r->pfx.addr, a);
		o += a;
	} else if (r->type == 5) {	/* prefix length, prefix, gateway */
		a = evpn_alen(&r->pfx);
		d[o++] = r->pfx.len;
		memcpy(d + o, r->pfx.addr, a);
		memcpy(d + o + a, r->src.addr, a);
		o += 2 * a;
	}
	d[o] = (uint8_t)(r->label >> 16);	/* the VNI */
	d[o + 1] = (uint8_t)(r->label >> 8);
	d[o + 2] = (uint8_t)r->label;
	return o + 3;
}

size_t
bgp_evpn_encode(const struct bgp_family *f, uint8_t *d, size_t room,
    const struct bgp_route *r, int withdraw)
{
	uint8_t	body[64];
	size_t	n;

	(void)f;
	(void)withdraw;
	n = evpn_body(r, body);
	if (room < 2 + n)
		return 0;
	d[0] = r->type;
	d[1] = (uint8_t)n;
	memcpy(d + 2, body, n);
	return 2 + n;
}

/* An IP of bits 32 or 128 (allowed: 0 where zero is true) at s. */
static int
evpn_ip(const uint8_t *s, uint8_t bits, int zero, struct bgp_prefix *p)
{
	if (bits != 32 && bits != 128 && !(zero && bits == 0))
		return -1;
	p->af = bits == 128 ? BGP_AF_IPV6 : BGP_AF_IPV4;
	p->len = bits;
	memcpy(p->addr, s, bits / 8u);
	return 0;
}

static uint32_t
get24(const uint8_t *s)
{
	return (uint32_t)s[0] << 16 | (uint32_t)s[1] << 8 | s[2];
}

/* Type 2 (RFC 7432 section 7.2): 33 octets and the IP, a second label
 * optional; the MAC 48 bits. */
static int
evpn_decode_mac(const uint8_t *s, size_t len, struct bgp_route *r)
{
	size_t	a;

	if (len < 33 || s[22] != EVPN_MAC_BITS)
		return -1;
	memcpy(r->esi, s + 8, 10);
	r->tag = get32(s + 18);
	memcpy(r->mac, s + 23, 6);
	a = s[29] / 8u;
	if ((len != 33 + a && len != 36 + a) ||
	    evpn_ip(s + 30, s[29], 1, &r->pfx) == -1)
		return -1;
	r->label = get24(s + 30 + a);
	r->partial = len == 36 + a;	/* a second label */
	return 0;
}

/* Type 5 (RFC 9136 section 3.1): 34 octets for IPv4, 58 for IPv6. */
static int
evpn_decode_prefix(const uint8_t *s, size_t len, struct bgp_route *r)
{
	size_t	a = len == 34 ? 4 : 16;

	if ((len != 34 && len != 58) || s[22] > a * 8)
		return -1;
	memcpy(r->esi, s + 8, 10);
	r->tag = get32(s + 18);
	r->pfx.af = a == 4 ? BGP_AF_IPV4 : BGP_AF_IPV6;
	r->pfx.len = s[22];
	memcpy(r->pfx.addr, s + 23, a);
	r->src.af = r->pfx.af;
	r->src.len = (uint8_t)(a * 8);
	memcpy(r->src.addr, s + 23 + a, a);
	r->label = get24(s + 23 + 2 * a);
	return 0;
}

/* The body of a known type checked against its fields' lengths. */
static int
evpn_decode_body(const uint8_t *s, size_t len, struct bgp_route *r)
{
	memcpy(r->rd, s, len < 8 ? 0 : 8);
	switch (r->type) {
	case 1:				/* RFC 7432 section 7.1 */
		if (len != 25)
			return -1;
		memcpy(r->esi, s + 8, 10);
		r->tag = get32(s + 18);
		r->label = get24(s + 22);
		return 0;
	case 2:
		return evpn_decode_mac(s, len, r);
	case 3:				/* section 7.3 */
		if (len < 13 || len != 13 + s[12] / 8u)
			return -1;
		r->tag = get32(s + 8);
		return evpn_ip(s + 13, s[12], 0, &r->pfx);
	case 4:				/* section 7.4 */
		if (len < 19 || len != 19 + s[18] / 8u)
			return -1;
		memcpy(r->esi, s + 8, 10);
		return evpn_ip(s + 19, s[18], 0, &r->pfx);
	case 5:
		return evpn_decode_prefix(s, len, r);
	}
	r->partial = 1;	/* other types: skipped by their length */
	return 0;
}

/*
 * RFC 7606 section 5.3 and RFC 7432 section 7: a route longer than the
 * span, or one of types 1 to 5 whose length does not match its fields
 * (a MAC other than 48 bits, an IP other than 0, 32 or 128 bits), make
 * the NLRI malformed.
 */
size_t
bgp_evpn_decode(const struct bgp_family *f, const uint8_t *s, size_t left,
    struct bgp_route *r)
{
	(void)f;
	if (left < 2 || left - 2 < s[1])
		return 0;
	r->type = s[0];
	if (evpn_decode_body(s + 2, s[1], r) == -1)
		return 0;
	return 2 + (size_t)s[1];
}

char *
bgp_evpn_print(const struct bgp_route *r, char *buf, size_t len)
{
	char	rd[40], ip[64];

	bgp_rd_str(r->rd, rd, sizeof(rd));
	bgp_prefix_str(&r->pfx, ip, sizeof(ip));
	snprintf(buf, len, "[type:%u][rd:%s][esi:%02x%02x%02x%02x][etag:%u]"
	    "[mac:%02x:%02x:%02x:%02x:%02x:%02x][ip:%s] vni %u", r->type, rd,
	    r->esi[6], r->esi[7], r->esi[8], r->esi[9], r->tag, r->mac[0],
	    r->mac[1], r->mac[2], r->mac[3], r->mac[4], r->mac[5], ip,
	    r->label);
	return buf;
}

/* The VXLAN encapsulation community (RFC 9012 section 4.1: type 0x03,
 * sub-type 0x0c, four reserved octets, the tunnel type) that FRR and
 * GoBGP expect on VXLAN EVPN routes (RFC 8365 section 5.1.3). */
void
bgp_evpn_ext(const struct bgp_gen *g, uint32_t as, struct bgp_attrs *a)
{
	uint8_t	*e;

	(void)g;
	(void)as;
	if ((e = bgp_ext_add(a, 0x03, 0x0c)) != NULL)
		e[7] = EVPN_TUNNEL_VXLAN;
}
