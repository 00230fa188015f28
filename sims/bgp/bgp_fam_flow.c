/*
 * Flowspec rules, IPv4 (RFC 8955) and IPv6 (RFC 8956), SAFI 133: an NLRI
 * is a length (one octet below 240, else two: 0xfnnn, RFC 8955 section
 * 4.1) and components in increasing type order (section 4.2).  Rule n
 * matches the n-th prefix as destination, TCP (n even) or UDP, the
 * destination port 1024 + n mod 64512 and source ports 1024 to 65535 (a
 * numeric AND pair), and --flow-source as source where given; its
 * action is the traffic-action extended
 * community that --flow-action picks (section 7).  The routes carry no
 * next hop (MP_REACH next hop length 0, section 4).
 */
#include <stdio.h>
#include <string.h>

#include "bgp_family.h"

enum {				/* RFC 8955 section 4.2.2, RFC 8956 3 */
	FL_DST = 1, FL_SRC, FL_PROTO, FL_PORT, FL_DPORT, FL_SPORT,
	FL_ICMP_TYPE, FL_ICMP_CODE, FL_TCP_FLAGS, FL_PKT_LEN, FL_DSCP,
	FL_FRAG, FL_FLOW_LABEL
};

#define OP_END		0x80	/* the last of the list */
#define OP_AND		0x40
#define OP_LEN(op)	(1u << (((op) >> 4) & 3))
#define OP_EQ		0x01
#define OP_GT		0x02
#define OP_LT		0x04
#define OP_LEN2		0x10
#define FL_PORT_LO	1024u
#define FL_DSCP_EF	46	/* RFC 3246 */

static int
flow_v6(const struct bgp_family *f)
{
	return f->afi == BGP_AFI_IPV6;
}

void
bgp_flow_nth(const struct bgp_family *f, const struct bgp_gen *g,
    const struct bgp_prefix *first, uint64_t n, struct bgp_route *r)
{
	memset(r, 0, sizeof(*r));
	r->fam = (uint8_t)(f - bgp_families);
	bgp_prefix_nth(first, n, &r->pfx);
	r->proto = n % 2 ? 17 : 6;
	r->port = (uint16_t)(FL_PORT_LO + n % (65536u - FL_PORT_LO));
	r->tag = 1u << FL_DST | 1u << FL_PROTO | 1u << FL_DPORT |
	    1u << FL_SPORT;
	if (g->flow_src.len > 0 && g->flow_src.af == f->addr_af) {
		r->src = g->flow_src;
		r->src.path_id = 0;
		r->tag |= 1u << FL_SRC;
	}
}

/* A prefix component: type, length, (IPv6: offset 0,) the bytes. */
static size_t
flow_put_prefix(uint8_t *d, unsigned type, const struct bgp_prefix *p,
    int v6)
{
	size_t	o = 0, bytes = (p->len + 7u) / 8u;

	d[o++] = (uint8_t)type;
	d[o++] = p->len;
	if (v6)
		d[o++] = 0;
	memcpy(d + o, p->addr, bytes);
	return o + bytes;
}

/* The rule's components into d (room for 64 bytes): their length. */
static size_t
flow_body(const struct bgp_family *f, const struct bgp_route *r,
    uint8_t *d)
{
	size_t	o = 0;

	if (r->tag & 1u << FL_DST)
		o += flow_put_prefix(d, FL_DST, &r->pfx, flow_v6(f));

	if (r->tag & 1u << FL_SRC)
		o += flow_put_prefix(d + o, FL_SRC, &r->src, flow_v6(f));
	if (r->tag & 1u << FL_PROTO) {
		d[o++] = FL_PROTO;
		d[o++] = OP_END | OP_EQ;
		d[o++] = r->proto;
	}
	if (r->tag & 1u << FL_DPORT) {
		d[o++] = FL_DPORT;
		d[o++] = OP_END | OP_LEN2 | OP_EQ;
		d[o++] = (uint8_t)(r->port >> 8);
		d[o++] = (uint8_t)r->port;
	}
	if (r->tag & 1u << FL_SPORT) {	/* >= 1024 AND <= 65535 */
		d[o++] = FL_SPORT;
		d[o++] = OP_LEN2 | OP_GT | OP_EQ;
		d[o++] = (uint8_t)(FL_PORT_LO >> 8);
		d[o++] = (uint8_t)FL_PORT_LO;
		d[o++] = OP_END | OP_AND | OP_LEN2 | OP_LT | OP_EQ;
		d[o++] = 0xff;
		d[o++] = 0xff;
	}
	return o;
}

size_t
bgp_flow_encode(const struct bgp_family *f, uint8_t *d, size_t room,
    const struct bgp_route *r, int withdraw)
{
	uint8_t	body[96];
	size_t	n = flow_body(f, r, body), hdr = n < 240 ? 1 : 2;

	(void)withdraw;
	if (room < hdr + n)
		return 0;
	if (hdr == 1)
		d[0] = (uint8_t)n;
	else {
		d[0] = (uint8_t)(0xf0 | n >> 8);
		d[1] = (uint8_t)n;
	}
	memcpy(d + hdr, body, n);
	return hdr + n;
}

/* The widest value each numeric or bitmask component takes (RFC 8955
 * section 4.2.2, RFC 8956 section 3): wider is malformed. */
static unsigned
flow_value_max(unsigned type)
{
	switch (type) {
	case FL_PORT: case FL_DPORT: case FL_SPORT: case FL_TCP_FLAGS:
	case FL_PKT_LEN:
		return 2;
	case FL_FLOW_LABEL:
		return 4;
	}
	return 1;
}

/* An operator list at s (len bytes left): its length, 0 malformed (no
 * end bit within the rule, a value past it or wider than the type's).
 * The first value where the list is a single "equals" into *eq. */
static size_t
flow_ops(unsigned type, const uint8_t *s, size_t len, uint32_t *eq)
{
	size_t		o = 0, vl, i;
	uint32_t	v;
	uint8_t		op;

	do {
		if (o >= len)
			return 0;
		op = s[o++];
		vl = OP_LEN(op);
		if (vl > flow_value_max(type) || len - o < vl)
			return 0;
		for (v = 0, i = 0; i < vl; i++)
			v = v << 8 | s[o + i];
		if (o == 1 && (op & 0x0f) == OP_EQ && (op & OP_END))
			*eq = v;
		o += vl;
	} while (!(op & OP_END));
	return o;
}

/* A prefix component: length, (IPv6 offset,) the bytes past the offset
 * (RFC 8956 section 3.1); 0 malformed.  Stored where the offset is 0. */
static size_t
flow_prefix(const uint8_t *s, size_t len, int v6, struct bgp_prefix *p,
    uint8_t *partial)
{
	unsigned	max = v6 ? 128 : 32, off = 0;
	size_t		bytes, o = v6 ? 2 : 1;

	if (len < o || s[0] > max)
		return 0;
	if (v6)
		off = s[1];
	if (off > s[0])
		return 0;
	bytes = (s[0] - off + 7u) / 8u;
	if (len - o < bytes)
		return 0;
	memset(p, 0, sizeof(*p));
	p->af = v6 ? BGP_AF_IPV6 : BGP_AF_IPV4;
	p->len = s[0];
	if (off == 0)
		memcpy(p->addr, s + o, bytes);
	else
		*partial = 1;
	return o + bytes;
}

/* One component at s: its length, 0 malformed. */
static size_t
flow_component(const struct bgp_family *f, unsigned t, const uint8_t *s,
    size_t len, struct bgp_route *r)
{
	static const uint8_t sport[] = { OP_LEN2 | OP_GT | OP_EQ,
	    FL_PORT_LO >> 8, FL_PORT_LO & 0xff,
	    OP_END | OP_AND | OP_LEN2 | OP_LT | OP_EQ, 0xff, 0xff };
	uint32_t	eq = UINT32_MAX;
	size_t		n;

	if (t == FL_DST || t == FL_SRC)
		return flow_prefix(s, len, flow_v6(f),
		    t == FL_DST ? &r->pfx : &r->src, &r->partial);
	n = flow_ops(t, s, len, &eq);
	if (t == FL_PROTO)
		r->proto = (uint8_t)eq;
	else if (t == FL_DPORT)
		r->port = (uint16_t)eq;
	/* What the generator's rules hold, else kept in part only. */
	if (((t == FL_PROTO || t == FL_DPORT) && eq > 0xffff) ||
	    (t == FL_PROTO && eq > 0xff) || (t == FL_SPORT &&
	    (n != sizeof(sport) || memcmp(s, sport, n) != 0)) ||
	    (t != FL_PROTO && t != FL_DPORT && t != FL_SPORT))
		r->partial = 1;
	return n;
}

/*
 * RFC 8955 sections 4.1 and 4.2 (RFC 7606 section 5.3): a rule longer
 * than the span, components out of increasing type order or repeated,
 * a component type not defined (section 4.2 names it too), a prefix
 * longer than the address or an operator list that overruns its rule or
 * has a value wider than its type's make the NLRI malformed.
 */
size_t
bgp_flow_decode(const struct bgp_family *f, const uint8_t *s, size_t left,
    struct bgp_route *r)
{
	size_t		hdr = 1, len, o, n;
	unsigned	t, last = 0, top = flow_v6(f) ? FL_FLOW_LABEL : FL_FRAG;

	if (left < 1 || (s[0] >= 0xf0 && left < 2))
		return 0;
	len = s[0];
	if (s[0] >= 0xf0) {
		len = (size_t)(s[0] & 0x0f) << 8 | s[1];
		hdr = 2;
	}
	if (len == 0 || left - hdr < len)
		return 0;
	for (o = hdr; o < hdr + len; o += n) {
		t = s[o++];
		if (t <= last || t > top)
			return 0;
		last = t;
		r->tag |= 1u << t;
		n = flow_component(f, t, s + o, hdr + len - o, r);
		if (n == 0)
			return 0;
	}
	return hdr + len;
}

char *
bgp_flow_print(const struct bgp_route *r, char *buf, size_t len)
{
	char	dst[64], src[64] = "";
	size_t	o;

	bgp_prefix_str(&r->pfx, dst, sizeof(dst));
	if (r->tag & 1u << FL_SRC) {
		strcpy(src, " src ");
		bgp_prefix_str(&r->src, src + 5, sizeof(src) - 5);
	}
	o = (size_t)snprintf(buf, len, "dst %s%s", dst, src);
	if (o < len && (r->tag & 1u << FL_PROTO))
		o += (size_t)snprintf(buf + o, len - o, " proto %u", r->proto);
	if (o < len && (r->tag & 1u << FL_DPORT))
		o += (size_t)snprintf(buf + o, len - o, " dport %u", r->port);
	if (o < len && (r->tag & 1u << FL_SPORT))
		snprintf(buf + o, len - o, " sport");
	return buf;
}

/* RFC 8955 section 7: traffic-rate (2-octet AS, IEEE float bytes/s; 0
 * discards), traffic-action (the S bit: sample), redirect to the VRF of
 * route target ASN:1 (RFC 7674 0x8208 for a 4-octet AS), traffic-marking
 * (the DSCP). */
void
bgp_flow_ext(const struct bgp_gen *g, uint32_t as, struct bgp_attrs *a)
{
	uint8_t	*e;

	if (g->flow_action == BGP_FLOW_NONE || (e = bgp_ext_add(a, 0x80,
	    (uint8_t)(0x06 + g->flow_action))) == NULL)
		return;
	if (g->flow_action == BGP_FLOW_RATE || g->flow_action ==
	    BGP_FLOW_REDIRECT) {
		e[2] = (uint8_t)(as >> 8);
		e[3] = (uint8_t)as;
	}
	if (g->flow_action == BGP_FLOW_REDIRECT && as > 0xffff) {
		e[0] = 0x82;
		e[2] = (uint8_t)(as >> 24);
		e[3] = (uint8_t)(as >> 16);
		e[4] = (uint8_t)(as >> 8);
		e[5] = (uint8_t)as;
		e[7] = 1;
	} else if (g->flow_action == BGP_FLOW_REDIRECT)
		e[7] = 1;
	if (g->flow_action == BGP_FLOW_ACTION)
		e[7] = 0x02;
	if (g->flow_action == BGP_FLOW_MARKING)
		e[7] = FL_DSCP_EF;
	if (g->flow_action == BGP_FLOW_RATE && as > 0xffff)
		e[2] = e[3] = 0;	/* the AS is informational only */
}
