/*
 * OXM basic fields (OpenFlow 1.3.5 section 7.2.3.7, tables 11 and 12) and
 * the OpenFlow 1.0 ofp_match wildcard bits (1.0.0 section 5.2.3).
 * Private to sims/openflow: of_match.c owns the field table, of_actions.c
 * reads it for SET_FIELD.
 */
#ifndef SBSIM_OF_OXM_H
#define SBSIM_OF_OXM_H

#include <stddef.h>
#include <stdint.h>

/* ofp_match header and OXM TLV header (section 7.2.3.1, 7.2.3.2). */
#define OFPMT_STANDARD		0	/* deprecated 1.1 form */
#define OFPMT_OXM		1
#define OXM_MATCH_HDR_LEN	4	/* type, length */
#define OXM_MATCH_ALIGN		8
#define OXM_HDR_LEN		4	/* class, field|hasmask, length */
#define OXM_CLASS_NXM_0		0x0000
#define OXM_CLASS_NXM_1		0x0001
#define OXM_CLASS_BASIC		0x8000
#define OXM_CLASS_EXPERIMENTER	0xffff
#define OXM_MAX_VALUE_LEN	16	/* IPv6 addresses */

#define OXM_HEADER(field, hm, len)					\
	((uint32_t)OXM_CLASS_BASIC << 16 | (uint32_t)(field) << 9 |	\
	(uint32_t)((hm) ? 1 : 0) << 8 | (uint32_t)(len))
#define OXM_HDR_CLASS(h)	((uint16_t)((h) >> 16))
#define OXM_HDR_FIELD(h)	((uint8_t)(((h) >> 9) & 0x7f))
#define OXM_HDR_HASMASK(h)	(((h) >> 8) & 1)
#define OXM_HDR_LENGTH(h)	((uint8_t)((h) & 0xff))

/* enum oxm_ofb_match_fields, section 7.2.3.7. */
#define OXM_IN_PORT		0
#define OXM_IN_PHY_PORT		1
#define OXM_METADATA		2
#define OXM_ETH_DST		3
#define OXM_ETH_SRC		4
#define OXM_ETH_TYPE		5
#define OXM_VLAN_VID		6
#define OXM_VLAN_PCP		7
#define OXM_IP_DSCP		8
#define OXM_IP_ECN		9
#define OXM_IP_PROTO		10
#define OXM_IPV4_SRC		11
#define OXM_IPV4_DST		12
#define OXM_TCP_SRC		13
#define OXM_TCP_DST		14
#define OXM_UDP_SRC		15
#define OXM_UDP_DST		16
#define OXM_SCTP_SRC		17
#define OXM_SCTP_DST		18
#define OXM_ICMPV4_TYPE		19
#define OXM_ICMPV4_CODE		20
#define OXM_ARP_OP		21
#define OXM_ARP_SPA		22
#define OXM_ARP_TPA		23
#define OXM_ARP_SHA		24
#define OXM_ARP_THA		25
#define OXM_IPV6_SRC		26
#define OXM_IPV6_DST		27
#define OXM_IPV6_FLABEL		28
#define OXM_ICMPV6_TYPE		29
#define OXM_ICMPV6_CODE		30
#define OXM_IPV6_ND_TARGET	31
#define OXM_IPV6_ND_SLL		32
#define OXM_IPV6_ND_TLL		33
#define OXM_MPLS_LABEL		34
#define OXM_MPLS_TC		35
#define OXM_MPLS_BOS		36
#define OXM_PBB_ISID		37
#define OXM_TUNNEL_ID		38
#define OXM_IPV6_EXTHDR		39
#define OXM_N_FIELDS		40

/* VLAN_VID values (section 7.2.3.8, enum ofp_vlan_id). */
#define OFPVID_PRESENT		0x1000
#define OFPVID_NONE		0x0000

/* Ethertypes and IP protocols the prerequisites name (table 12). */
#define ETHTYPE_IPV4		0x0800
#define ETHTYPE_ARP		0x0806
#define ETHTYPE_VLAN		0x8100
#define ETHTYPE_VLAN_QINQ	0x88a8
#define ETHTYPE_IPV6		0x86dd
#define ETHTYPE_MPLS		0x8847
#define ETHTYPE_MPLS_MC		0x8848
#define ETHTYPE_PBB		0x88e7
#define IPPROTO_V_ICMP		1
#define IPPROTO_V_TCP		6
#define IPPROTO_V_UDP		17
#define IPPROTO_V_ICMPV6	58
#define IPPROTO_V_SCTP		132
#define ICMPV6_ND_SOLICIT	135
#define ICMPV6_ND_ADVERT	136

/* How a field's prerequisite (table 12) is expressed. */
enum oxm_pre {
	OXM_PRE_NONE,
	OXM_PRE_PRESENT,	/* pre_field must be matched at all */
	OXM_PRE_EQ,		/* pre_field exactly one of pre_val[] */
	OXM_PRE_VLAN		/* VLAN_VID matched with OFPVID_PRESENT */
};

/* How of_match_format prints a field. */
enum oxm_fmt {
	OXM_FMT_DEC,
	OXM_FMT_HEX,
	OXM_FMT_MAC,
	OXM_FMT_IPV4,
	OXM_FMT_IPV6,
	OXM_FMT_VLAN
};

struct oxm_field {
	const char	*name;		/* ovs-ofctl-like */
	uint8_t		 len;		/* value bytes (table 11) */
	uint8_t		 maskable;
	uint8_t		 fmt;		/* enum oxm_fmt */
	uint8_t		 pre;		/* enum oxm_pre */
	uint8_t		 pre_field;
	uint8_t		 pre_nval;
	uint16_t	 pre_val[2];
	uint64_t	 valid;		/* usable bits; 0: all of them */
};

/* The field, or NULL for a number the basic class does not define. */
const struct oxm_field *oxm_field_get(uint8_t field);
/* Non-zero when value (f->len bytes) has bits the field cannot carry. */
int	 oxm_value_invalid(const struct oxm_field *, const uint8_t *value);

/* OpenFlow 1.0 ofp_match wildcards (enum ofp_flow_wildcards). */
#define OF10_FW_IN_PORT		(1u << 0)
#define OF10_FW_DL_VLAN		(1u << 1)
#define OF10_FW_DL_SRC		(1u << 2)
#define OF10_FW_DL_DST		(1u << 3)
#define OF10_FW_DL_TYPE		(1u << 4)
#define OF10_FW_NW_PROTO	(1u << 5)
#define OF10_FW_TP_SRC		(1u << 6)
#define OF10_FW_TP_DST		(1u << 7)
#define OF10_FW_NW_SRC_SHIFT	8
#define OF10_FW_NW_DST_SHIFT	14
#define OF10_FW_NW_BITS		6
#define OF10_FW_NW_SRC_MASK	(0x3fu << OF10_FW_NW_SRC_SHIFT)
#define OF10_FW_NW_DST_MASK	(0x3fu << OF10_FW_NW_DST_SHIFT)
#define OF10_FW_NW_WILD		32	/* >= 32 wildcard bits: all */
#define OF10_FW_DL_VLAN_PCP	(1u << 20)
#define OF10_FW_NW_TOS		(1u << 21)
#define OF10_FW_ALL		((1u << 22) - 1)
#define OF10_VLAN_NONE		0xffff	/* dl_vlan: no 802.1Q header */
#define OF10_VLAN_VID_MASK	0x0fff
#define OF10_PCP_MASK		0x07
#define OF10_TOS_DSCP_SHIFT	2	/* nw_tos carries DSCP << 2 */

#endif
