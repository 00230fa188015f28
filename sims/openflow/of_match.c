/*
 * Flow matches: OpenFlow 1.3 OXM (1.3.5 section 7.2.3) and OpenFlow 1.0
 * ofp_match (1.0.0 section 5.2.3), both kept in one canonical OXM form
 * (see of_match.h).
 *
 * 1.0 normalization, as Open vSwitch does it (a 1.0 switch ignores a field
 * whose protocol the match does not pin down, 1.0.0 section 3.4):
 *   nw_tos, nw_proto, nw_src, nw_dst count only with dl_type IPv4 (nw_proto
 *   and nw_src/dst then as ARP_OP/ARP_SPA/ARP_TPA with dl_type ARP);
 *   tp_src, tp_dst count only with nw_proto TCP, UDP or ICMP, so with
 *   nw_proto wildcarded they are dropped (keeping them as TCP fields would
 *   leave a canonical match that breaks the 1.3 prerequisites);
 *   dl_vlan_pcp counts unless dl_vlan is OFP_VLAN_NONE; with dl_vlan
 *   wildcarded it means "any VLAN with this PCP" (VLAN_VID 0x1000/0x1000).
 * encode10 writes wildcarded fields as zeros and a wildcarded nw_src/nw_dst
 * as 63 wildcard bits (OFPFW_ALL's), so OFPFW_ALL round-trips byte for byte.
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "of_actions.h"
#include "of_match.h"
#include "of_nxm.h"
#include "of_oxm.h"

#define FLD(n, l, m, f)							\
	.name = (n), .len = (l), .maskable = (m), .fmt = (f)
#define PRE_ETH1(a)							\
	.pre = OXM_PRE_EQ, .pre_field = OXM_ETH_TYPE, .pre_nval = 1,	\
	.pre_val = { (a), 0 }
#define PRE_ETH2(a, b)							\
	.pre = OXM_PRE_EQ, .pre_field = OXM_ETH_TYPE, .pre_nval = 2,	\
	.pre_val = { (a), (b) }
#define PRE_IP		PRE_ETH2(ETHTYPE_IPV4, ETHTYPE_IPV6)
#define PRE_PROTO(p)							\
	.pre = OXM_PRE_EQ, .pre_field = OXM_IP_PROTO, .pre_nval = 1,	\
	.pre_val = { (p), 0 }
#define PRE_ICMP6(a, b, n)						\
	.pre = OXM_PRE_EQ, .pre_field = OXM_ICMPV6_TYPE, .pre_nval = (n), \
	.pre_val = { (a), (b) }

/* Tables 11 and 12 of section 7.2.3.7: length, maskable, prerequisite. */
static const struct oxm_field oxm_fields[OXM_N_FIELDS] = {
	[OXM_IN_PORT] = { FLD("in_port", 4, 0, OXM_FMT_DEC) },
	[OXM_IN_PHY_PORT] = { FLD("in_phy_port", 4, 0, OXM_FMT_DEC),
	    .pre = OXM_PRE_PRESENT, .pre_field = OXM_IN_PORT },
	[OXM_METADATA] = { FLD("metadata", 8, 1, OXM_FMT_HEX) },
	[OXM_ETH_DST] = { FLD("dl_dst", 6, 1, OXM_FMT_MAC) },
	[OXM_ETH_SRC] = { FLD("dl_src", 6, 1, OXM_FMT_MAC) },
	[OXM_ETH_TYPE] = { FLD("dl_type", 2, 0, OXM_FMT_HEX) },
	[OXM_VLAN_VID] = { FLD("vlan_vid", 2, 1, OXM_FMT_VLAN),
	    .valid = 0x1fff },
	[OXM_VLAN_PCP] = { FLD("dl_vlan_pcp", 1, 0, OXM_FMT_DEC),
	    .pre = OXM_PRE_VLAN, .valid = 0x07 },
	[OXM_IP_DSCP] = { FLD("ip_dscp", 1, 0, OXM_FMT_DEC), PRE_IP,
	    .valid = 0x3f },
	[OXM_IP_ECN] = { FLD("ip_ecn", 1, 0, OXM_FMT_DEC), PRE_IP,
	    .valid = 0x03 },
	[OXM_IP_PROTO] = { FLD("nw_proto", 1, 0, OXM_FMT_DEC), PRE_IP },
	[OXM_IPV4_SRC] = { FLD("nw_src", 4, 1, OXM_FMT_IPV4),
	    PRE_ETH1(ETHTYPE_IPV4) },
	[OXM_IPV4_DST] = { FLD("nw_dst", 4, 1, OXM_FMT_IPV4),
	    PRE_ETH1(ETHTYPE_IPV4) },
	[OXM_TCP_SRC] = { FLD("tcp_src", 2, 0, OXM_FMT_DEC),
	    PRE_PROTO(IPPROTO_V_TCP) },
	[OXM_TCP_DST] = { FLD("tcp_dst", 2, 0, OXM_FMT_DEC),
	    PRE_PROTO(IPPROTO_V_TCP) },
	[OXM_UDP_SRC] = { FLD("udp_src", 2, 0, OXM_FMT_DEC),
	    PRE_PROTO(IPPROTO_V_UDP) },
	[OXM_UDP_DST] = { FLD("udp_dst", 2, 0, OXM_FMT_DEC),
	    PRE_PROTO(IPPROTO_V_UDP) },
	[OXM_SCTP_SRC] = { FLD("sctp_src", 2, 0, OXM_FMT_DEC),
	    PRE_PROTO(IPPROTO_V_SCTP) },
	[OXM_SCTP_DST] = { FLD("sctp_dst", 2, 0, OXM_FMT_DEC),
	    PRE_PROTO(IPPROTO_V_SCTP) },
	[OXM_ICMPV4_TYPE] = { FLD("icmp_type", 1, 0, OXM_FMT_DEC),
	    PRE_PROTO(IPPROTO_V_ICMP) },
	[OXM_ICMPV4_CODE] = { FLD("icmp_code", 1, 0, OXM_FMT_DEC),
	    PRE_PROTO(IPPROTO_V_ICMP) },
	[OXM_ARP_OP] = { FLD("arp_op", 2, 0, OXM_FMT_DEC),
	    PRE_ETH1(ETHTYPE_ARP) },
	[OXM_ARP_SPA] = { FLD("arp_spa", 4, 1, OXM_FMT_IPV4),
	    PRE_ETH1(ETHTYPE_ARP) },
	[OXM_ARP_TPA] = { FLD("arp_tpa", 4, 1, OXM_FMT_IPV4),
	    PRE_ETH1(ETHTYPE_ARP) },
	[OXM_ARP_SHA] = { FLD("arp_sha", 6, 1, OXM_FMT_MAC),
	    PRE_ETH1(ETHTYPE_ARP) },
	[OXM_ARP_THA] = { FLD("arp_tha", 6, 1, OXM_FMT_MAC),
	    PRE_ETH1(ETHTYPE_ARP) },
	[OXM_IPV6_SRC] = { FLD("ipv6_src", 16, 1, OXM_FMT_IPV6),
	    PRE_ETH1(ETHTYPE_IPV6) },
	[OXM_IPV6_DST] = { FLD("ipv6_dst", 16, 1, OXM_FMT_IPV6),
	    PRE_ETH1(ETHTYPE_IPV6) },
	[OXM_IPV6_FLABEL] = { FLD("ipv6_label", 4, 1, OXM_FMT_HEX),
	    PRE_ETH1(ETHTYPE_IPV6), .valid = 0x000fffff },
	[OXM_ICMPV6_TYPE] = { FLD("icmpv6_type", 1, 0, OXM_FMT_DEC),
	    PRE_PROTO(IPPROTO_V_ICMPV6) },
	[OXM_ICMPV6_CODE] = { FLD("icmpv6_code", 1, 0, OXM_FMT_DEC),
	    PRE_PROTO(IPPROTO_V_ICMPV6) },
	[OXM_IPV6_ND_TARGET] = { FLD("nd_target", 16, 0, OXM_FMT_IPV6),
	    PRE_ICMP6(ICMPV6_ND_SOLICIT, ICMPV6_ND_ADVERT, 2) },
	[OXM_IPV6_ND_SLL] = { FLD("nd_sll", 6, 0, OXM_FMT_MAC),
	    PRE_ICMP6(ICMPV6_ND_SOLICIT, 0, 1) },
	[OXM_IPV6_ND_TLL] = { FLD("nd_tll", 6, 0, OXM_FMT_MAC),
	    PRE_ICMP6(ICMPV6_ND_ADVERT, 0, 1) },
	[OXM_MPLS_LABEL] = { FLD("mpls_label", 4, 0, OXM_FMT_DEC),
	    PRE_ETH2(ETHTYPE_MPLS, ETHTYPE_MPLS_MC), .valid = 0x000fffff },
	[OXM_MPLS_TC] = { FLD("mpls_tc", 1, 0, OXM_FMT_DEC),
	    PRE_ETH2(ETHTYPE_MPLS, ETHTYPE_MPLS_MC), .valid = 0x07 },
	[OXM_MPLS_BOS] = { FLD("mpls_bos", 1, 0, OXM_FMT_DEC),
	    PRE_ETH2(ETHTYPE_MPLS, ETHTYPE_MPLS_MC), .valid = 0x01 },
	[OXM_PBB_ISID] = { FLD("pbb_isid", 3, 1, OXM_FMT_HEX),
	    PRE_ETH1(ETHTYPE_PBB) },
	[OXM_TUNNEL_ID] = { FLD("tun_id", 8, 1, OXM_FMT_HEX) },
	[OXM_IPV6_EXTHDR] = { FLD("ipv6_exthdr", 2, 1, OXM_FMT_HEX),
	    PRE_ETH1(ETHTYPE_IPV6), .valid = 0x01ff },
};

/* One TLV of a match: mask NULL when exact. */
struct oxm_tlv {
	uint8_t		 field;
	uint8_t		 len;		/* value bytes */
	const uint8_t	*val;
	const uint8_t	*mask;
};

/* Fields of a match being decoded, by number, pointing into the wire. */
struct oxm_slots {
	uint64_t	 present;
	struct oxm_tlv	 f[OXM_N_FIELDS];
	int		 has_ext;	/* Nicira's and others (of_nxm.h) */
};

/* A 1.0 ofp_match in host order, read and written field by field. */
struct of10_match {
	uint32_t	wildcards;
	uint16_t	in_port;
	uint8_t		dl_src[6];
	uint8_t		dl_dst[6];
	uint16_t	dl_vlan;
	uint8_t		dl_vlan_pcp;
	uint16_t	dl_type;
	uint8_t		nw_tos;
	uint8_t		nw_proto;
	uint32_t	nw_src;
	uint32_t	nw_dst;
	uint16_t	tp_src;
	uint16_t	tp_dst;
	int		vlan_any;	/* encode: VLAN_VID 0x1000/0x1000 */
};

#define OF10_PAD1	1	/* after dl_vlan_pcp */
#define OF10_PAD2	2	/* after nw_proto */

static int
match_fail(enum of_err *err, enum of_err e)
{
	if (err != NULL)
		*err = e;
	return -1;
}

const struct oxm_field *
oxm_field_get(uint8_t field)
{
	if (field >= OXM_N_FIELDS)
		return NULL;
	return &oxm_fields[field];
}

static uint64_t
be_load(const uint8_t *p, size_t len)
{
	uint64_t	v = 0;
	size_t		i;

	for (i = 0; i < len && i < sizeof(v); i++)
		v = v << 8 | p[i];
	return v;
}

static void
be_store(uint8_t *p, size_t len, uint64_t v)
{
	size_t	i;

	for (i = len; i > 0; i--) {
		p[i - 1] = v & 0xff;
		v >>= 8;
	}
}

int
oxm_value_invalid(const struct oxm_field *f, const uint8_t *value)
{
	if (f->valid == 0)
		return 0;
	return (be_load(value, f->len) & ~f->valid) != 0;
}

/* The all-ones mask of a field: its usable bits, f->len bytes. */
static void
oxm_full_mask(const struct oxm_field *f, uint8_t *out)
{
	if (f->valid == 0)
		memset(out, 0xff, f->len);
	else
		be_store(out, f->len, f->valid);
}

void
of_match_init(struct of_match *m)
{
	m->len = 0;
}

/* Inline for the match decoder's loop; exported below for of_nxm.c. */
static inline int
oxm_exp_split(uint32_t hdr, const uint8_t **val, size_t *plen,
    uint32_t *exp)
{
	*plen = OXM_HDR_LENGTH(hdr);
	*exp = 0;
	if (OXM_HDR_CLASS(hdr) != OXM_CLASS_EXPERIMENTER)
		return 0;
	if (*plen < 4)
		return -1;
	*exp = (uint32_t)be_load(*val, 4);
	*val += 4;
	*plen -= 4;
	return 0;
}

static inline int
oxm_tlv_next(const uint8_t **pp, const uint8_t *end, struct of_oxm_tlv *t)
{
	const uint8_t	*p = *pp;
	size_t		 plen;

	if (end - p < OXM_HDR_LEN)
		return 0;
	t->hdr = (uint32_t)be_load(p, OXM_HDR_LEN);
	t->val = p + OXM_HDR_LEN;
	if (oxm_exp_split(t->hdr, &t->val, &plen, &t->exp) == -1)
		return 0;
	t->len = OXM_HDR_HASMASK(t->hdr) ? plen / 2 : plen;
	t->mask = OXM_HDR_HASMASK(t->hdr) ? t->val + t->len : NULL;
	*pp = p + OXM_HDR_LEN + OXM_HDR_LENGTH(t->hdr);
	return 1;
}

int
of_oxm_exp_split(uint32_t hdr, const uint8_t **val, size_t *plen,
    uint32_t *exp)
{
	return oxm_exp_split(hdr, val, plen, exp);
}

int
of_oxm_tlv_next(const uint8_t **pp, const uint8_t *end, struct of_oxm_tlv *t)
{
	return oxm_tlv_next(pp, end, t);
}

/* Next basic TLV of a canonical match; 0 at the end of them. */
static int
oxm_next(const uint8_t **pp, const uint8_t *end, struct oxm_tlv *t)
{
	const uint8_t		*p = *pp;
	struct of_oxm_tlv	 x;

	/* The extension fields follow the basic ones (of_nxm.c). */
	if (!oxm_tlv_next(&p, end, &x) ||
	    __builtin_expect(OXM_HDR_CLASS(x.hdr) != OXM_CLASS_BASIC, 0))
		return 0;
	t->field = OXM_HDR_FIELD(x.hdr);
	t->len = x.len;
	t->val = x.val;
	t->mask = x.mask;
	*pp = p;
	return 1;
}

/*
 * Write the canonical TLV of a field into out: value ANDed with the mask,
 * an all-ones mask dropped.  Returns its length, 0 when the mask is all
 * zeros (the field matches anything and is left out).
 */
static size_t
oxm_canon(const struct oxm_field *f, uint8_t field, const uint8_t *val,
    const uint8_t *mask, uint8_t *out)
{
	uint8_t	full[OXM_MAX_VALUE_LEN], m[OXM_MAX_VALUE_LEN];
	int	any = 0, all = 1;
	size_t	i;

	/* No mask over a field whose every bit counts: the TLV as it is
	 * (most FLOW_MODs' fields; the loops below were a tenth of their
	 * decoding). */
	if (mask == NULL && f->valid == 0) {
		be_store(out, OXM_HDR_LEN, OXM_HEADER(field, 0, f->len));
		memcpy(out + OXM_HDR_LEN, val, f->len);
		return OXM_HDR_LEN + f->len;
	}
	oxm_full_mask(f, full);
	for (i = 0; i < f->len; i++) {
		m[i] = mask != NULL ? mask[i] & full[i] : full[i];
		any |= m[i] != 0;
		all &= m[i] == full[i];
	}
	if (!any)
		return 0;
	be_store(out, OXM_HDR_LEN, OXM_HEADER(field, !all,
	    all ? f->len : 2 * f->len));
	for (i = 0; i < f->len; i++)
		out[OXM_HDR_LEN + i] = val[i] & m[i];
	if (all)
		return OXM_HDR_LEN + f->len;
	memcpy(out + OXM_HDR_LEN + f->len, m, f->len);
	return OXM_HDR_LEN + 2 * f->len;
}

static int
match_append(struct of_match *m, const uint8_t *tlv, size_t len)
{
	if (len > sizeof(m->oxm) - m->len)
		return -1;
	memcpy(m->oxm + m->len, tlv, len);
	m->len += len;
	return 0;
}

/* Index the TLVs of a canonical match by field number. */
static void
match_index(const struct of_match *m, struct oxm_slots *s)
{
	const uint8_t	*p = m->oxm, *end = m->oxm + m->len;
	struct oxm_tlv	 t;

	s->present = 0;
	while (oxm_next(&p, end, &t)) {
		s->present |= 1ULL << t.field;
		s->f[t.field] = t;
	}
}

/* VLAN_PCP needs VLAN_VID != NONE: the OFPVID_PRESENT bit pinned to 1. */
static int
prereq_vlan(const struct oxm_slots *s)
{
	const struct oxm_tlv	*v = &s->f[OXM_VLAN_VID];
	uint16_t		 mask;

	if (!(s->present & 1ULL << OXM_VLAN_VID))
		return 0;
	mask = v->mask != NULL ? be_load(v->mask, 2) : 0xffff;
	return (mask & OFPVID_PRESENT) &&
	    (be_load(v->val, 2) & OFPVID_PRESENT);
}

static int
prereq_ok(const struct oxm_slots *s, const struct oxm_field *f)
{
	const struct oxm_tlv	*p = &s->f[f->pre_field];
	uint64_t		 v;
	int			 i;

	switch (f->pre) {
	case OXM_PRE_NONE:
		return 1;
	case OXM_PRE_VLAN:
		return prereq_vlan(s);
	case OXM_PRE_PRESENT:
		return (s->present & 1ULL << f->pre_field) != 0;
	case OXM_PRE_EQ:
		/* The fields named as prerequisites are all unmaskable. */
		if (!(s->present & 1ULL << f->pre_field) || p->mask != NULL)
			return 0;
		v = be_load(p->val, p->len);
		for (i = 0; i < f->pre_nval; i++)
			if (v == f->pre_val[i])
				return 1;
		return 0;
	}
	return 0;
}

/* Section 7.2.3.6: every field's prerequisite is in the match too. */
static int
match_prereqs(const struct of_match *m)
{
	struct oxm_slots	s;
	uint8_t			i;
	uint64_t		bits;

	match_index(m, &s);
	/* Only the fields present, lowest first (a FLOW_MOD hot path). */
	for (bits = s.present; bits != 0; bits &= bits - 1) {
		i = (uint8_t)__builtin_ctzll(bits);
		/* Prerequisites chain: checking each field covers them all. */
		if (!prereq_ok(&s, &oxm_fields[i]))
			return 0;
	}
	return 1;
}

/* Value bits outside the field or outside its mask (section 7.2.3.5). */
static int
oxm_check_value(const struct oxm_field *f, const uint8_t *val,
    const uint8_t *mask, enum of_err *err)
{
	size_t	i;

	if (oxm_value_invalid(f, val))
		return match_fail(err, OF_ERR_BAD_MATCH_VALUE);
	if (mask == NULL)
		return 0;
	for (i = 0; i < f->len; i++)
		if (val[i] & ~mask[i])
			return match_fail(err, OF_ERR_BAD_MATCH_WILDCARDS);
	return 0;
}

/* One OXM TLV from the wire into its slot (section 7.2.3.2). */
static int
oxm_tlv_decode(struct rbuf *r, struct oxm_slots *s, enum of_err *err)
{
	const struct oxm_field	*f;
	const uint8_t		*val;
	uint32_t		 hdr;
	uint8_t			 field, len, hm;

	if (rbuf_get_u32(r, &hdr) == -1)
		return match_fail(err, OF_ERR_BAD_MATCH_LEN);
	len = OXM_HDR_LENGTH(hdr);
	val = rbuf_ptr(r);
	if (rbuf_skip(r, len) == -1)
		return match_fail(err, OF_ERR_BAD_MATCH_LEN);
	field = OXM_HDR_FIELD(hdr);
	hm = OXM_HDR_HASMASK(hdr);
	if (__builtin_expect(OXM_HDR_CLASS(hdr) != OXM_CLASS_BASIC, 0)) {
		s->has_ext = 1;		/* taken by match_decode_ext */
		return 0;
	}
	if ((f = oxm_field_get(field)) == NULL)
		return match_fail(err, OF_ERR_BAD_MATCH_FIELD);
	if (hm && !f->maskable)
		return match_fail(err, OF_ERR_BAD_MATCH_MASK);
	if (len != (hm ? 2 * f->len : f->len))
		return match_fail(err, OF_ERR_BAD_MATCH_LEN);
	if (s->present & 1ULL << field)
		return match_fail(err, OF_ERR_BAD_MATCH_DUP_FIELD);
	if (oxm_check_value(f, val, hm ? val + f->len : NULL, err) == -1)
		return -1;
	s->present |= 1ULL << field;
	s->f[field].field = field;
	s->f[field].len = f->len;
	s->f[field].val = val;
	s->f[field].mask = hm ? val + f->len : NULL;
	return 0;
}

/* Slots to canonical bytes, in field order. */
static int
match_build(struct of_match *m, const struct oxm_slots *s)
{
	uint8_t	tlv[OXM_HDR_LEN + 2 * OXM_MAX_VALUE_LEN];
	size_t		n;
	uint8_t		i;
	uint64_t	bits;

	of_match_init(m);
	for (bits = s->present; bits != 0; bits &= bits - 1) {
		i = (uint8_t)__builtin_ctzll(bits);
		/* Straight into the match while the largest TLV fits. */
		if (sizeof(m->oxm) - m->len >= sizeof(tlv)) {
			m->len += oxm_canon(&oxm_fields[i], i, s->f[i].val,
			    s->f[i].mask, m->oxm + m->len);
			continue;
		}
		n = oxm_canon(&oxm_fields[i], i, s->f[i].val, s->f[i].mask,
		    tlv);
		if (match_append(m, tlv, n) == -1)
			return -1;
	}
	return 0;
}

/*
 * The extension fields of a match (of_nxm.c), in a second pass over its
 * TLVs: checked and appended after the basic ones.  Apart so that the
 * basic fields' loop, the FLOW_MOD hot path, carries none of it.
 */
static int __attribute__((noinline))
match_decode_ext(struct rbuf tlvs, struct of_match *m, enum of_err *err)
{
	struct nxm_ext	ext;
	const uint8_t	*val;
	uint32_t	hdr;

	ext.n = 0;
	ext.tun_used = 0;
	while (rbuf_get_u32(&tlvs, &hdr) == 0) {
		val = rbuf_ptr(&tlvs);
		rbuf_skip(&tlvs, OXM_HDR_LENGTH(hdr));	/* checked before */
		if (OXM_HDR_CLASS(hdr) != OXM_CLASS_BASIC &&
		    of_nxm_ext_take(&ext, hdr, val, err) == -1)
			return -1;
	}
	if (of_nxm_ext_build(m, &ext) == -1)
		return match_fail(err, OF_ERR_BAD_MATCH_LEN);
	return 0;
}

/* ofp_match header: type OFPMT_OXM, length without padding (7.2.3.1). */
static int
match13_header(struct rbuf *r, struct rbuf *tlvs, enum of_err *err)
{
	uint16_t	type, length;
	size_t		pad;

	if (rbuf_get_u16(r, &type) == -1 || rbuf_get_u16(r, &length) == -1)
		return match_fail(err, OF_ERR_BAD_MATCH_LEN);
	if (type != OFPMT_OXM)
		return match_fail(err, OF_ERR_BAD_MATCH_TYPE);
	if (length < OXM_MATCH_HDR_LEN ||
	    rbuf_sub(r, tlvs, length - OXM_MATCH_HDR_LEN) == -1)
		return match_fail(err, OF_ERR_BAD_MATCH_LEN);
	pad = (OXM_MATCH_ALIGN - length % OXM_MATCH_ALIGN) % OXM_MATCH_ALIGN;
	if (rbuf_skip(r, pad) == -1)
		return match_fail(err, OF_ERR_BAD_MATCH_LEN);
	return 0;
}

/* The TLVs of a match into m, checked (7.2.3.2 to 7.2.3.6). */
static int
match_decode_tlvs(struct rbuf *tlvs, struct of_match *m, enum of_err *err)
{
	struct oxm_slots	s;
	struct rbuf		start = *tlvs;

	of_match_init(m);
	s.present = 0;
	s.has_ext = 0;
	while (rbuf_left(tlvs) > 0)
		if (oxm_tlv_decode(tlvs, &s, err) == -1)
			return -1;
	if (match_build(m, &s) == -1)
		return match_fail(err, OF_ERR_BAD_MATCH_LEN);
	if (s.has_ext && match_decode_ext(start, m, err) == -1) {
		of_match_init(m);
		return -1;
	}
	if (!match_prereqs(m)) {
		of_match_init(m);
		return match_fail(err, OF_ERR_BAD_MATCH_PREREQ);
	}
	return 0;
}

int
of_match_decode13(struct rbuf *r, struct of_match *m, enum of_err *err)
{
	struct rbuf		tlvs;

	of_match_init(m);
	if (match13_header(r, &tlvs, err) == -1)
		return -1;
	return match_decode_tlvs(&tlvs, m, err);
}

int
of_match_decode_oxm(struct rbuf *tlvs, struct of_match *m, enum of_err *err)
{
	return match_decode_tlvs(tlvs, m, err);
}

int
of_match_encode13(struct wbuf *w, const struct of_match *m)
{
	size_t	length = OXM_MATCH_HDR_LEN + m->len;

	wbuf_put_u16(w, OFPMT_OXM);
	wbuf_put_u16(w, length);
	wbuf_put_bytes(w, m->oxm, m->len);
	/* Pad the match itself, wherever it starts in the message. */
	wbuf_put_zero(w, (OXM_MATCH_ALIGN - length % OXM_MATCH_ALIGN) %
	    OXM_MATCH_ALIGN);
	return w->err ? -1 : 0;
}

/* Byte offset of field's TLV, or of where it would go; *tlen its size. */
static size_t
match_locate(const struct of_match *m, uint8_t field, size_t *tlen)
{
	const uint8_t	*p = m->oxm, *end = m->oxm + m->len, *at;
	struct oxm_tlv	 t;

	*tlen = 0;
	for (at = p; oxm_next(&p, end, &t); at = p) {
		if (t.field > field)
			break;
		if (t.field == field) {
			*tlen = p - at;
			break;
		}
	}
	return at - m->oxm;
}

int
of_match_set(struct of_match *m, uint8_t field, const void *value,
    const void *mask, size_t len)
{
	const struct oxm_field	*f = oxm_field_get(field);
	uint8_t			 tlv[OXM_HDR_LEN + 2 * OXM_MAX_VALUE_LEN];
	size_t			 off, old, n;

	if (f == NULL || len != f->len || (mask != NULL && !f->maskable) ||
	    oxm_value_invalid(f, value))
		return -1;
	n = oxm_canon(f, field, value, mask, tlv);
	off = match_locate(m, field, &old);
	if (m->len - old + n > sizeof(m->oxm))
		return -1;
	memmove(m->oxm + off + n, m->oxm + off + old, m->len - off - old);
	memcpy(m->oxm + off, tlv, n);
	m->len = m->len - old + n;
	return 0;
}

int
of_match_equal(const struct of_match *a, const struct of_match *b)
{
	return a->len == b->len && memcmp(a->oxm, b->oxm, a->len) == 0;
}

/* A NULL mask is all ones: exact fields carry no bits outside it. */
int
of_oxm_val_covers(const uint8_t *gv, const uint8_t *gmask,
    const uint8_t *sv, const uint8_t *smask, size_t len)
{
	uint8_t	gm;
	size_t	i;

	for (i = 0; i < len; i++) {
		gm = gmask != NULL ? gmask[i] : 0xff;
		if (((smask != NULL ? smask[i] : 0xff) & gm) != gm ||
		    (sv[i] & gm) != gv[i])
			return 0;
	}
	return 1;
}

/* specific pins every bit general pins, to the same value. */
static int
tlv_covers(const struct oxm_tlv *g, const struct oxm_tlv *s)
{
	return of_oxm_val_covers(g->val, g->mask, s->val, s->mask, g->len);
}

/* The extension tails of two canonical matches (of_nxm.c). */
/* g's extension fields start at gext (where its basic walk stopped). */
static int
of_match_ext_covers(const struct of_match *g, const uint8_t *gext,
    const struct of_match *s)
{
	size_t	so;

	/* The usual filter has no extension field: s is not walked again. */
	if (gext == g->oxm + g->len)
		return 1;
	so = of_nxm_ext_off(s->oxm, s->len);
	return of_nxm_ext_covers(gext, g->oxm + g->len - gext, s->oxm + so,
	    s->len - so);
}

static int
of_match_ext_overlaps(const struct of_match *a, const struct of_match *b)
{
	size_t	ao = of_nxm_ext_off(a->oxm, a->len), bo;

	if (ao == a->len)
		return 1;
	bo = of_nxm_ext_off(b->oxm, b->len);
	return bo == b->len || of_nxm_ext_overlaps(a->oxm + ao, a->len - ao,
	    b->oxm + bo, b->len - bo);
}

int
of_match_covers(const struct of_match *general,
    const struct of_match *specific)
{
	const uint8_t	*gp = general->oxm, *gend = gp + general->len;
	const uint8_t	*sp = specific->oxm, *send = sp + specific->len;
	struct oxm_tlv	 g, s;
	int		 more;

	/* Both are sorted by field: walk them side by side. */
	more = oxm_next(&sp, send, &s);
	while (oxm_next(&gp, gend, &g)) {
		while (more && s.field < g.field)
			more = oxm_next(&sp, send, &s);
		if (!more || s.field != g.field || !tlv_covers(&g, &s))
			return 0;
	}
	return of_match_ext_covers(general, gp, specific);
}

int
of_oxm_val_overlaps(const uint8_t *av, const uint8_t *am, const uint8_t *bv,
    const uint8_t *bm, size_t len)
{
	size_t	i;

	for (i = 0; i < len; i++)
		if ((av[i] ^ bv[i]) & (am != NULL ? am[i] : 0xff) &
		    (bm != NULL ? bm[i] : 0xff))
			return 0;
	return 1;
}

static int
tlv_overlaps(const struct oxm_tlv *a, const struct oxm_tlv *b)
{
	return of_oxm_val_overlaps(a->val, a->mask, b->val, b->mask, a->len);
}

int
of_match_overlaps(const struct of_match *a, const struct of_match *b)
{
	const uint8_t	*ap = a->oxm, *aend = ap + a->len;
	const uint8_t	*bp = b->oxm, *bend = bp + b->len;
	struct oxm_tlv	 ta, tb;
	int		 more;

	/* Only fields both match on can keep a packet out of one of them. */
	more = oxm_next(&bp, bend, &tb);
	while (more && oxm_next(&ap, aend, &ta)) {
		while (more && tb.field < ta.field)
			more = oxm_next(&bp, bend, &tb);
		if (more && tb.field == ta.field && !tlv_overlaps(&ta, &tb))
			return 0;
	}
	return of_match_ext_overlaps(a, b);
}

/*
 * Whether two matches name exactly the same unmasked fields.  A packet
 * carries one value per field, so two such matches overlap (OpenFlow
 * 1.3.5 section 6.4: a single packet may match both) only when every
 * value is equal: when the canonical bytes are identical.  An empty
 * match is not alike anything (it overlaps everything).
 */
int
of_match_exact_alike(const uint8_t *a, size_t alen, const uint8_t *b,
    size_t blen)
{
	size_t	off = 0, len;

	if (alen != blen || alen == 0)
		return 0;
	/* Same class, field, no mask, same length: the same 4-byte header. */
	while (off < alen) {
		if (alen - off < OXM_HDR_LEN ||
		    memcmp(a + off, b + off, OXM_HDR_LEN) != 0 ||
		    (a[off + 2] & 1) != 0)
			return 0;
		len = a[off + 3];
		off += OXM_HDR_LEN + len;
	}
	return off == alen;
}

void
of_match_shape(const uint8_t *oxm, size_t len, uint8_t *mask, size_t *masklen,
    uint8_t *val, size_t *vallen)
{
	const uint8_t		*p = oxm, *end = oxm + len;
	const struct oxm_field	*f;
	struct oxm_tlv		 t;
	size_t			 n = 0;

	/* Each TLV is 4 + len bytes or more, its entry 2 + len: fits. */
	while (oxm_next(&p, end, &t) && n + 2 + t.len <= len) {
		mask[n] = val[n] = t.field;
		mask[n + 1] = val[n + 1] = t.len;
		memcpy(val + n + 2, t.val, t.len);
		if (t.mask != NULL)
			memcpy(mask + n + 2, t.mask, t.len);
		else if ((f = oxm_field_get(t.field)) != NULL &&
		    f->len == t.len)
			oxm_full_mask(f, mask + n + 2);
		else
			memset(mask + n + 2, 0xff, t.len);
		n += 2 + t.len;
	}
	*masklen = *vallen = n;
}

/* MurmurHash3 (x86, 32 bit), public domain, over the canonical bytes. */
static uint32_t
rotl32(uint32_t x, int r)
{
	return x << r | x >> (32 - r);
}

static uint32_t
murmur_mix(uint32_t h, uint32_t k)
{
	k *= 0xcc9e2d51;
	k = rotl32(k, 15);
	k *= 0x1b873593;
	return h ^ k;
}

uint32_t
of_match_hash(const struct of_match *m, uint32_t seed)
{
	const uint8_t	*p = m->oxm;
	uint32_t	 h = seed, k;
	size_t		 i, n = m->len;

	for (i = 0; i + 4 <= n; i += 4) {
		k = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 |
		    (uint32_t)p[i + 2] << 16 | (uint32_t)p[i + 3] << 24;
		h = rotl32(murmur_mix(h, k), 13) * 5 + 0xe6546b64;
	}
	for (k = 0; i < n; i++)
		k = k << 8 | p[i];
	h = murmur_mix(h, k) ^ (uint32_t)n;
	h ^= h >> 16;
	h *= 0x85ebca6b;
	h ^= h >> 13;
	h *= 0xc2b2ae35;
	return h ^ (h >> 16);
}

/* ---- OpenFlow 1.0 ofp_match (1.0.0 section 5.2.3) ---- */

static int
of10_read(struct rbuf *r, struct of10_match *o)
{
	if (rbuf_get_u32(r, &o->wildcards) == -1 ||
	    rbuf_get_u16(r, &o->in_port) == -1 ||
	    rbuf_get_bytes(r, o->dl_src, sizeof(o->dl_src)) == -1 ||
	    rbuf_get_bytes(r, o->dl_dst, sizeof(o->dl_dst)) == -1 ||
	    rbuf_get_u16(r, &o->dl_vlan) == -1 ||
	    rbuf_get_u8(r, &o->dl_vlan_pcp) == -1 ||
	    rbuf_skip(r, OF10_PAD1) == -1 ||
	    rbuf_get_u16(r, &o->dl_type) == -1 ||
	    rbuf_get_u8(r, &o->nw_tos) == -1 ||
	    rbuf_get_u8(r, &o->nw_proto) == -1 ||
	    rbuf_skip(r, OF10_PAD2) == -1 ||
	    rbuf_get_u32(r, &o->nw_src) == -1 ||
	    rbuf_get_u32(r, &o->nw_dst) == -1 ||
	    rbuf_get_u16(r, &o->tp_src) == -1 ||
	    rbuf_get_u16(r, &o->tp_dst) == -1)
		return -1;
	return 0;
}

static void
of10_write(struct wbuf *w, const struct of10_match *o)
{
	wbuf_put_u32(w, o->wildcards);
	wbuf_put_u16(w, o->in_port);
	wbuf_put_bytes(w, o->dl_src, sizeof(o->dl_src));
	wbuf_put_bytes(w, o->dl_dst, sizeof(o->dl_dst));
	wbuf_put_u16(w, o->dl_vlan);
	wbuf_put_u8(w, o->dl_vlan_pcp);
	wbuf_put_zero(w, OF10_PAD1);
	wbuf_put_u16(w, o->dl_type);
	wbuf_put_u8(w, o->nw_tos);
	wbuf_put_u8(w, o->nw_proto);
	wbuf_put_zero(w, OF10_PAD2);
	wbuf_put_u32(w, o->nw_src);
	wbuf_put_u32(w, o->nw_dst);
	wbuf_put_u16(w, o->tp_src);
	wbuf_put_u16(w, o->tp_dst);
}

/* Exact or masked integer field of up to 8 bytes. */
static void
set_uint(struct of_match *m, uint8_t field, uint64_t v, const uint64_t *mask)
{
	const struct oxm_field	*f = &oxm_fields[field];
	uint8_t			 vb[8], mb[8];

	be_store(vb, f->len, v);
	if (mask != NULL)
		be_store(mb, f->len, *mask);
	of_match_set(m, field, vb, mask != NULL ? mb : NULL, f->len);
}

/* nw_src/nw_dst: a count of wildcarded low bits, >= 32 for all. */
static void
set_nw_addr(struct of_match *m, uint8_t field, uint32_t addr,
    uint32_t wildcards, int shift)
{
	uint32_t	bits;
	uint64_t	mask;

	bits = wildcards >> shift & ((1u << OF10_FW_NW_BITS) - 1);
	if (bits >= OF10_FW_NW_WILD)
		return;
	mask = (uint32_t)(0xffffffffULL << bits);
	set_uint(m, field, addr, &mask);
}

static void
of10_vlan(const struct of10_match *o, struct of_match *m)
{
	uint64_t	present = OFPVID_PRESENT;
	int		pcp = !(o->wildcards & OF10_FW_DL_VLAN_PCP);

	if (!(o->wildcards & OF10_FW_DL_VLAN)) {
		if (o->dl_vlan == OF10_VLAN_NONE) {
			/* No tag: a PCP cannot match, 1.0 ignores it. */
			set_uint(m, OXM_VLAN_VID, OFPVID_NONE, NULL);
			return;
		}
		set_uint(m, OXM_VLAN_VID,
		    OFPVID_PRESENT | (o->dl_vlan & OF10_VLAN_VID_MASK), NULL);
	} else if (pcp)
		set_uint(m, OXM_VLAN_VID, OFPVID_PRESENT, &present);
	if (pcp)
		set_uint(m, OXM_VLAN_PCP, o->dl_vlan_pcp & OF10_PCP_MASK,
		    NULL);
}

/* tp_src/tp_dst by protocol; other protocols have no ports in 1.0. */
static void
of10_tp(const struct of10_match *o, struct of_match *m)
{
	uint8_t	src, dst;

	switch (o->nw_proto) {
	case IPPROTO_V_TCP:
		src = OXM_TCP_SRC, dst = OXM_TCP_DST;
		break;
	case IPPROTO_V_UDP:
		src = OXM_UDP_SRC, dst = OXM_UDP_DST;
		break;
	case IPPROTO_V_ICMP:
		/* ICMP type and code ride in tp_src and tp_dst. */
		if (!(o->wildcards & OF10_FW_TP_SRC))
			set_uint(m, OXM_ICMPV4_TYPE, o->tp_src & 0xff, NULL);
		if (!(o->wildcards & OF10_FW_TP_DST))
			set_uint(m, OXM_ICMPV4_CODE, o->tp_dst & 0xff, NULL);
		return;
	default:
		return;
	}
	if (!(o->wildcards & OF10_FW_TP_SRC))
		set_uint(m, src, o->tp_src, NULL);
	if (!(o->wildcards & OF10_FW_TP_DST))
		set_uint(m, dst, o->tp_dst, NULL);
}

static void
of10_ipv4(const struct of10_match *o, struct of_match *m)
{
	if (!(o->wildcards & OF10_FW_NW_TOS))
		set_uint(m, OXM_IP_DSCP, o->nw_tos >> OF10_TOS_DSCP_SHIFT,
		    NULL);
	set_nw_addr(m, OXM_IPV4_SRC, o->nw_src, o->wildcards,
	    OF10_FW_NW_SRC_SHIFT);
	set_nw_addr(m, OXM_IPV4_DST, o->nw_dst, o->wildcards,
	    OF10_FW_NW_DST_SHIFT);
	if (!(o->wildcards & OF10_FW_NW_PROTO)) {
		set_uint(m, OXM_IP_PROTO, o->nw_proto, NULL);
		of10_tp(o, m);
	}
}

/* 1.0 matches ARP opcode (low 8 bits) and SPA/TPA in the nw fields. */
static void
of10_arp(const struct of10_match *o, struct of_match *m)
{
	if (!(o->wildcards & OF10_FW_NW_PROTO))
		set_uint(m, OXM_ARP_OP, o->nw_proto, NULL);
	set_nw_addr(m, OXM_ARP_SPA, o->nw_src, o->wildcards,
	    OF10_FW_NW_SRC_SHIFT);
	set_nw_addr(m, OXM_ARP_TPA, o->nw_dst, o->wildcards,
	    OF10_FW_NW_DST_SHIFT);
}

static void
of10_to_oxm(const struct of10_match *o, struct of_match *m)
{
	uint32_t	w = o->wildcards;

	if (!(w & OF10_FW_IN_PORT))
		set_uint(m, OXM_IN_PORT, of_port_widen10(o->in_port), NULL);
	if (!(w & OF10_FW_DL_DST))
		of_match_set(m, OXM_ETH_DST, o->dl_dst, NULL, 6);
	if (!(w & OF10_FW_DL_SRC))
		of_match_set(m, OXM_ETH_SRC, o->dl_src, NULL, 6);
	of10_vlan(o, m);
	if (w & OF10_FW_DL_TYPE)
		return;
	set_uint(m, OXM_ETH_TYPE, o->dl_type, NULL);
	if (o->dl_type == ETHTYPE_IPV4)
		of10_ipv4(o, m);
	else if (o->dl_type == ETHTYPE_ARP)
		of10_arp(o, m);
}

int
of_match_decode10(struct rbuf *r, struct of_match *m, enum of_err *err)
{
	struct of10_match	o;

	of_match_init(m);
	if (of10_read(r, &o) == -1)
		return match_fail(err, OF_ERR_BAD_LEN);
	of10_to_oxm(&o, m);
	return 0;
}

/* An IPv4 mask as 1.0 wildcard bits; -1 when not a prefix. */
static int
nw_wild_bits(const struct oxm_tlv *t)
{
	uint32_t	mask, inv;
	int		bits = 0;

	if (t->mask == NULL)
		return 0;
	mask = be_load(t->mask, 4);
	inv = ~mask;
	if ((inv & (inv + 1)) != 0)
		return -1;
	while (inv != 0) {
		inv >>= 1;
		bits++;
	}
	return bits;
}

static int
put_nw_addr(struct of10_match *o, const struct oxm_tlv *t, int shift,
    uint32_t *addr)
{
	int	bits = nw_wild_bits(t);

	if (bits < 0)
		return -1;
	*addr = be_load(t->val, 4);
	o->wildcards &= ~(0x3fu << shift);
	o->wildcards |= (uint32_t)bits << shift;
	return 0;
}

static int
put_vlan(struct of10_match *o, const struct oxm_tlv *t)
{
	uint16_t	vid = be_load(t->val, 2);

	if (t->mask != NULL) {
		/* Only "any tagged frame", which needs a PCP to say in 1.0. */
		o->vlan_any = 1;
		return be_load(t->mask, 2) == OFPVID_PRESENT ? 0 : -1;
	}
	if (vid == OFPVID_NONE)
		o->dl_vlan = OF10_VLAN_NONE;
	else if (vid & OFPVID_PRESENT)
		o->dl_vlan = vid & OF10_VLAN_VID_MASK;
	else
		return -1;
	o->wildcards &= ~OF10_FW_DL_VLAN;
	return 0;
}

static int
put_u16_field(uint16_t *dst, uint32_t *wildcards, uint32_t bit,
    const struct oxm_tlv *t)
{
	*dst = be_load(t->val, t->len);
	*wildcards &= ~bit;
	return 0;
}

static int
put_port(struct of10_match *o, const struct oxm_tlv *t)
{
	uint32_t	port = be_load(t->val, 4);

	/* Ports between 1.0's OFPP_MAX and 1.3's have no 16-bit form. */
	o->in_port = of_port_narrow10(port);
	if (of_port_widen10(o->in_port) != port)
		return -1;
	o->wildcards &= ~OF10_FW_IN_PORT;
	return 0;
}

static int
put_small(struct of10_match *o, const struct oxm_tlv *t)
{
	uint64_t	v = be_load(t->val, t->len);

	switch (t->field) {
	case OXM_VLAN_PCP:
		o->dl_vlan_pcp = v;
		o->wildcards &= ~OF10_FW_DL_VLAN_PCP;
		return 0;
	case OXM_IP_DSCP:
		o->nw_tos = v << OF10_TOS_DSCP_SHIFT;
		o->wildcards &= ~OF10_FW_NW_TOS;
		return 0;
	case OXM_ARP_OP:
		if (v > 0xff)
			return -1;
		/* FALLTHROUGH */
	case OXM_IP_PROTO:
		o->nw_proto = v;
		o->wildcards &= ~OF10_FW_NW_PROTO;
		return 0;
	}
	return -1;
}

/* One canonical TLV into the 1.0 struct; -1 if 1.0 cannot say it. */
static int
put_tlv(struct of10_match *o, const struct oxm_tlv *t)
{
	switch (t->field) {
	case OXM_IN_PORT:
		return put_port(o, t);
	case OXM_ETH_DST:
	case OXM_ETH_SRC:
		if (t->mask != NULL)
			return -1;
		memcpy(t->field == OXM_ETH_DST ? o->dl_dst : o->dl_src,
		    t->val, 6);
		o->wildcards &= t->field == OXM_ETH_DST ? ~OF10_FW_DL_DST :
		    ~OF10_FW_DL_SRC;
		return 0;
	case OXM_ETH_TYPE:
		return put_u16_field(&o->dl_type, &o->wildcards,
		    OF10_FW_DL_TYPE, t);
	case OXM_VLAN_VID:
		return put_vlan(o, t);
	case OXM_IPV4_SRC:
	case OXM_ARP_SPA:
		return put_nw_addr(o, t, OF10_FW_NW_SRC_SHIFT, &o->nw_src);
	case OXM_IPV4_DST:
	case OXM_ARP_TPA:
		return put_nw_addr(o, t, OF10_FW_NW_DST_SHIFT, &o->nw_dst);
	case OXM_TCP_SRC:
	case OXM_UDP_SRC:
	case OXM_ICMPV4_TYPE:
		return put_u16_field(&o->tp_src, &o->wildcards,
		    OF10_FW_TP_SRC, t);
	case OXM_TCP_DST:
	case OXM_UDP_DST:
	case OXM_ICMPV4_CODE:
		return put_u16_field(&o->tp_dst, &o->wildcards,
		    OF10_FW_TP_DST, t);
	}
	return put_small(o, t);
}

int
of_match_encode10(struct wbuf *w, const struct of_match *m)
{
	const uint8_t		*p = m->oxm, *end = m->oxm + m->len;
	struct of10_match	 o;
	struct oxm_tlv		 t;

	memset(&o, 0, sizeof(o));
	o.wildcards = OF10_FW_ALL;
	/* 1.0's ofp_match has no place for an extension field (a flow an
	 * NXM connection added): left out, as Open vSwitch's switch does
	 * (the walk below stops where they start). */
	while (oxm_next(&p, end, &t)) {
		if (put_tlv(&o, &t) == -1) {
			w->err = 1;
			return -1;
		}
	}
	/* "Any VLAN with this PCP": the PCP alone, dl_vlan wildcarded. */
	if (o.vlan_any && (o.wildcards & OF10_FW_DL_VLAN_PCP)) {
		w->err = 1;
		return -1;
	}
	of10_write(w, &o);
	return w->err ? -1 : 0;
}

/* ---- ovs-ofctl-like text, for logs and tests ---- */

struct fmtbuf {
	char	*buf;
	size_t	 size;
	size_t	 n;
};

static void __attribute__((format(printf, 2, 3)))
fb_add(struct fmtbuf *fb, const char *fmt, ...)
{
	va_list	ap;
	int	ret;

	va_start(ap, fmt);
	if (fb->n < fb->size)
		ret = vsnprintf(fb->buf + fb->n, fb->size - fb->n, fmt, ap);
	else
		ret = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (ret > 0)
		fb->n += ret;
}

/* Leading one bits of a mask, or -1 when it is not a prefix. */
static int
mask_prefix(const uint8_t *m, size_t len)
{
	size_t	i;
	int	bits = 0, b, tail = 0;

	for (i = 0; i < len; i++) {
		for (b = 7; b >= 0; b--) {
			if (m[i] >> b & 1) {
				if (tail)
					return -1;
				bits++;
			} else
				tail = 1;
		}
	}
	return bits;
}

static void
fmt_addr(struct fmtbuf *fb, int fmt, const uint8_t *v, size_t len)
{
	char	s[INET6_ADDRSTRLEN];
	size_t	i;

	switch (fmt) {
	case OXM_FMT_MAC:
		for (i = 0; i < len; i++)
			fb_add(fb, "%s%02x", i ? ":" : "", v[i]);
		return;
	case OXM_FMT_IPV4:
	case OXM_FMT_IPV6:
		inet_ntop(fmt == OXM_FMT_IPV4 ? AF_INET : AF_INET6, v, s,
		    sizeof(s));
		fb_add(fb, "%s", s);
		return;
	case OXM_FMT_DEC:
		fb_add(fb, "%llu", (unsigned long long)be_load(v, len));
		return;
	}
	/* Ethertypes read best with all four digits, like ovs-ofctl's. */
	fb_add(fb, "0x%0*llx", len == 2 ? 4 : 1,
	    (unsigned long long)be_load(v, len));
}

static void
fmt_vlan(struct fmtbuf *fb, const struct oxm_tlv *t)
{
	uint16_t	vid = be_load(t->val, 2);

	if (t->mask != NULL)
		fb_add(fb, "vlan_vid=0x%04x/0x%04x", vid,
		    (unsigned)be_load(t->mask, 2));
	else if (vid & OFPVID_PRESENT)
		fb_add(fb, "dl_vlan=%u", vid & OF10_VLAN_VID_MASK);
	else
		fb_add(fb, "vlan_tci=0x0000");
}

static void
fmt_tlv(struct fmtbuf *fb, const struct oxm_tlv *t)
{
	const struct oxm_field	*f = &oxm_fields[t->field];
	int			 plen;

	if (f->fmt == OXM_FMT_VLAN) {
		fmt_vlan(fb, t);
		return;
	}
	fb_add(fb, "%s=", f->name);
	fmt_addr(fb, f->fmt, t->val, t->len);
	if (t->mask == NULL)
		return;
	plen = mask_prefix(t->mask, t->len);
	if ((f->fmt == OXM_FMT_IPV4 || f->fmt == OXM_FMT_IPV6) && plen >= 0)
		fb_add(fb, "/%d", plen);
	else {
		fb_add(fb, "/");
		fmt_addr(fb, f->fmt == OXM_FMT_DEC ? OXM_FMT_HEX : f->fmt,
		    t->mask, t->len);
	}
}

int
of_match_format(const struct of_match *m, char *buf, size_t size)
{
	const uint8_t	*p = m->oxm, *end = m->oxm + m->len;
	struct fmtbuf	 fb = { buf, size, 0 };
	struct oxm_tlv	 t;

	if (size > 0)
		buf[0] = '\0';
	while (oxm_next(&p, end, &t)) {
		if (fb.n > 0)
			fb_add(&fb, ",");
		fmt_tlv(&fb, &t);
	}
	p = m->oxm + of_nxm_ext_off(m->oxm, m->len);
	fb.n += of_nxm_ext_format(p, end - p, fb.n < size ? buf + fb.n : NULL,
	    fb.n < size ? size - fb.n : 0);	/* may be truncated */
	return fb.n;
}
