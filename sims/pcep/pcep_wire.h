/*
 * PCEP wire constants: RFC 5440 (base), RFC 8231 (stateful), RFC 8281
 * (PCE-initiated), RFC 8232 (synchronization optimizations), RFC 8408
 * (path setup type), RFC 8664 (segment routing), RFC 8697 (association
 * groups) with RFC 8745 (path protection), RFC 8800 (disjointness) and
 * the SR policy association (draft-ietf-pce-segment-routing-policy-cp),
 * RFC 9604 (binding SIDs), RFC 9603 (SRv6).  Numbers from the IANA
 * "Path Computation Element Protocol (PCEP) Numbers" registry.
 */
#ifndef SBSIM_PCEP_WIRE_H
#define SBSIM_PCEP_WIRE_H

#define PCEP_PORT		4189
#define PCEP_VERSION		1
#define PCEP_MAX_MSG		65535

/* Common header, RFC 5440 section 6.1: Ver(3) Flags(5) | Type | Length. */
#define PCEP_HDR_LEN		4
#define PCEP_VER_SHIFT		5
#define PCEP_HDR_FLAGS_MASK	0x1f
/* The 16-bit length sits at the same offset in header, object and TLV. */
#define PCEP_LEN_OFF		2

/* Message types (RFC 5440 6.1, RFC 8231 8.1, RFC 8281 8.1). */
#define PCEP_MSG_OPEN		1
#define PCEP_MSG_KEEPALIVE	2
#define PCEP_MSG_PCREQ		3
#define PCEP_MSG_PCREP		4
#define PCEP_MSG_PCNTF		5
#define PCEP_MSG_PCERR		6
#define PCEP_MSG_CLOSE		7
#define PCEP_MSG_PCRPT		10
#define PCEP_MSG_PCUPD		11
#define PCEP_MSG_PCINITIATE	12

/* Object header, RFC 5440 section 7.2: Class | OT(4) Res(2) P I | Length. */
#define PCEP_OBJ_HDR_LEN	4
#define PCEP_OBJ_TYPE_SHIFT	4
#define PCEP_OBJ_FLAG_P		0x02	/* processing rule */
#define PCEP_OBJ_FLAG_I		0x01	/* ignore */
#define PCEP_ALIGN		4

/* Object classes and types. */
#define PCEP_OC_OPEN		1
#define PCEP_OC_RP		2
#define PCEP_OC_NOPATH		3
#define PCEP_OC_ENDPOINTS	4
#define PCEP_OC_BANDWIDTH	5
#define PCEP_OC_METRIC		6
#define PCEP_OC_ERO		7
#define PCEP_OC_RRO		8
#define PCEP_OC_LSPA		9
#define PCEP_OC_IRO		10
#define PCEP_OC_SVEC		11
#define PCEP_OC_NOTIFICATION	12
#define PCEP_OC_ERROR		13
#define PCEP_OC_CLOSE		15
#define PCEP_OC_LSP		32	/* RFC 8231 7.3 */
#define PCEP_OC_SRP		33	/* RFC 8231 7.2 */
#define PCEP_OC_ASSOCIATION	40	/* RFC 8697 6.1 */

#define PCEP_OT_DEFAULT		1	/* the only type of most classes */
#define PCEP_OT_ENDPOINTS_IPV4	1
#define PCEP_OT_ENDPOINTS_IPV6	2
#define PCEP_OT_BW_REQUESTED	1
#define PCEP_OT_BW_REOPT	2
#define PCEP_OT_ASSOC_IPV4	1
#define PCEP_OT_ASSOC_IPV6	2

/* Fixed object bodies (after the object header). */
#define PCEP_OPEN_BODY_LEN	4	/* Ver/Flags, Keepalive, Dead, SID */
#define PCEP_RP_BODY_LEN	8	/* Flags, Request-ID-number */
#define PCEP_EP4_BODY_LEN	8	/* source, destination */
#define PCEP_BW_BODY_LEN	4	/* IEEE 754 float, bytes per second */
#define PCEP_METRIC_BODY_LEN	8	/* Reserved(16) Flags Type | value */
#define PCEP_LSPA_BODY_LEN	16
#define PCEP_ERROR_BODY_LEN	4	/* Reserved Flags Type Value */
#define PCEP_NOTIF_BODY_LEN	4	/* Reserved Flags Type Value */
#define PCEP_CLOSE_BODY_LEN	4	/* Reserved(16) Flags Reason */
#define PCEP_SRP_BODY_LEN	8	/* Flags, SRP-ID-number */
#define PCEP_LSP_BODY_LEN	4	/* PLSP-ID(20) Flags(12) */
/* ASSOCIATION (RFC 8697 6.1): Reserved(16) Flags(16) | Type(16) ID(16) |
 * Association Source (4 or 16 bytes), then TLVs. */
#define PCEP_ASSOC_FIXED_LEN	8
#define PCEP_ASSOC_FLAG_R	0x0001	/* removal */

/* OPEN object (RFC 5440 7.3). */
#define PCEP_OPEN_VER_SHIFT	5

/* RP object flags (RFC 5440 7.4.1). */
#define PCEP_RP_PRI_MASK	0x07
#define PCEP_RP_FLAG_R		0x08	/* reoptimization */
#define PCEP_RP_FLAG_B		0x10	/* bi-directional */
#define PCEP_RP_FLAG_O		0x20	/* strict/loose */

/* METRIC flags and types (RFC 5440 7.8). */
#define PCEP_METRIC_FLAG_B	0x01	/* bound */
#define PCEP_METRIC_FLAG_C	0x02	/* computed */
#define PCEP_METRIC_IGP		1
#define PCEP_METRIC_TE		2
#define PCEP_METRIC_HOPS	3

/* LSPA flags (RFC 5440 7.11). */
#define PCEP_LSPA_FLAG_L	0x01	/* local protection desired */

/* SRP flags (RFC 8281 5.2). */
#define PCEP_SRP_FLAG_R		0x00000001	/* LSP remove */

/* LSP object, RFC 8231 7.3 and RFC 8281 5.3.1: PLSP-ID(20) Flags(12). */
#define PCEP_LSP_PLSP_SHIFT	12
#define PCEP_PLSP_ID_MAX	0xfffff
#define PCEP_LSP_FLAGS_MASK	0x0fff
#define PCEP_LSP_FLAG_D		0x001	/* delegate */
#define PCEP_LSP_FLAG_S		0x002	/* sync */
#define PCEP_LSP_FLAG_R		0x004	/* remove */
#define PCEP_LSP_FLAG_A		0x008	/* administrative */
#define PCEP_LSP_OPER_SHIFT	4	/* O: operational, 3 bits */
#define PCEP_LSP_OPER_MASK	0x070
#define PCEP_LSP_FLAG_C		0x080	/* create (RFC 8281) */

/* LSP operational status (RFC 8231 7.3). */
#define PCEP_OPER_DOWN		0
#define PCEP_OPER_UP		1
#define PCEP_OPER_ACTIVE	2
#define PCEP_OPER_GOING_DOWN	3
#define PCEP_OPER_GOING_UP	4

/* TLVs (RFC 5440 7.1): Type(16) Length(16), value padded to 4. */
#define PCEP_TLV_HDR_LEN	4
#define PCEP_TLV_STATEFUL_CAP	16	/* RFC 8231 7.1.1 */
#define PCEP_TLV_SYMBOLIC_NAME	17	/* RFC 8231 7.3.2 */
#define PCEP_TLV_IPV4_LSP_IDS	18	/* RFC 8231 7.3.1 */
#define PCEP_TLV_IPV6_LSP_IDS	19	/* RFC 8231 7.3.1 */
#define PCEP_TLV_LSP_ERROR_CODE	20	/* RFC 8231 7.3.3 */
#define PCEP_TLV_RSVP_ERROR	21	/* RFC 8231 7.3.4 */
#define PCEP_TLV_LSP_DB_VERSION	23	/* RFC 8232 4.1 */
#define PCEP_TLV_SPEAKER_ID	24	/* RFC 8232 4.1.1 */
#define PCEP_TLV_SR_PCE_CAP	26	/* RFC 8664 4.1.2 */
#define PCEP_TLV_SRV6_PCE_CAP	27	/* RFC 9603 4.1.1, in PST-CAP */
#define PCEP_TLV_PST		28	/* RFC 8408 4 */
#define PCEP_TLV_PST_CAP	34	/* RFC 8408 3 */
#define PCEP_TLV_EXT_ASSOC_ID	31	/* RFC 8697 6.1.4 */
#define PCEP_TLV_TE_PATH_BINDING 55	/* RFC 9604 4 */
#define PCEP_TLV_ASSOC_TYPES	35	/* RFC 8697 6.1: ASSOC-Type-List */
#define PCEP_TLV_PATH_PROT	38	/* RFC 8745 3.2 */
#define PCEP_TLV_DISJOINT_CFG	46	/* RFC 8800 5.2 */
/* SR policy association (draft-ietf-pce-segment-routing-policy-cp, the
 * IANA code points): color and endpoint in EXTENDED-ASSOCIATION-ID. */
#define PCEP_TLV_SRPOL_NAME	56
#define PCEP_TLV_SRPOL_CPATH_ID	57
#define PCEP_TLV_SRPOL_CP_NAME	58
#define PCEP_TLV_SRPOL_PREF	59
/* The same TLVs as FRR's pceplib sends them (draft-barth-pce-segment-
 * routing-policy-cp-04, association type 65535): decoded, never sent. */
#define PCEP_TLV_SRPOL_ID_OLD	60	/* color, endpoint */
#define PCEP_TLV_SRPOL_NAME_OLD	61
#define PCEP_TLV_SRPOL_CPID_OLD	62
#define PCEP_TLV_SRPOL_PREF_OLD	63

#define PCEP_STATEFUL_CAP_LEN	4
#define PCEP_IPV4_LSP_IDS_LEN	16
#define PCEP_IPV6_LSP_IDS_LEN	52
#define PCEP_LSP_ERROR_CODE_LEN	4
#define PCEP_DB_VERSION_LEN	8
#define PCEP_SR_PCE_CAP_LEN	4	/* Reserved(16) Flags MSD */
#define PCEP_PST_LEN		4	/* Reserved(24) PST */
#define PCEP_PST_CAP_FIXED_LEN	4	/* Reserved(24) Num-of-PSTs */
#define PCEP_PATH_PROT_LEN	4	/* PT(6) Flags(24) S P */
#define PCEP_DISJOINT_CFG_LEN	4	/* Flags(32) */
#define PCEP_SRPOL_CPATH_ID_LEN	28	/* Origin, ASN, Address(16), Disc. */
#define PCEP_SRPOL_PREF_LEN	4

/* TE-PATH-BINDING (RFC 9604 4): BT(8) Flags(8) Reserved(16) | value. */
#define PCEP_BSID_FIXED_LEN	4
#define PCEP_BSID_FLAG_R	0x80	/* removal */
#define PCEP_BT_MPLS_LABEL	0	/* 20-bit label, in a 32-bit word */
#define PCEP_BT_MPLS_LSE	1	/* a whole label stack entry */
#define PCEP_BT_SRV6		2	/* SRv6 SID */
#define PCEP_BT_SRV6_BEHAVIOR	3	/* SRv6 SID, behavior, structure */
#define PCEP_SRV6_SID_LEN	16
#define PCEP_SRV6_BEHAVIOR_LEN	8	/* Reserved(16) Behavior(16) LB LN F A */

/* Association types (RFC 8697 section 8.1, IANA). */
#define PCEP_ASSOC_T_PROTECTION	1	/* RFC 8745 */
#define PCEP_ASSOC_T_DISJOINT	2	/* RFC 8800 */
#define PCEP_ASSOC_T_SR_POLICY	6	/* SR policy (IANA) */
#define PCEP_ASSOC_T_SR_POL_OLD	65535	/* FRR's, draft-barth-...-04 */

/* PATH-PROTECTION-ASSOCIATION TLV (RFC 8745 3.2). */
#define PCEP_PROT_P		0x00000001	/* protecting LSP */
#define PCEP_PROT_S		0x00000002	/* secondary LSP */
#define PCEP_PROT_PT_SHIFT	26		/* LSP Protection Type */
#define PCEP_PROT_PT_1PLUS1_UNI	0x08		/* RFC 4872 14.1 */
/* DISJOINTNESS-CONFIGURATION TLV (RFC 8800 5.2). */
#define PCEP_DISJ_L		0x01		/* link */
#define PCEP_DISJ_N		0x02		/* node */
#define PCEP_DISJ_S		0x04		/* SRLG */
/* SRPOLICY-CPATH-ID's Protocol-Origin: configured at the headend. */
#define PCEP_SRPOL_ORIGIN_CONFIG	30

/* STATEFUL-PCE-CAPABILITY flags (RFC 8231, 8281, 8232). */
#define PCEP_STATEFUL_U		0x01	/* LSP update */
#define PCEP_STATEFUL_S		0x02	/* include DB version */
#define PCEP_STATEFUL_I		0x04	/* LSP instantiation */
#define PCEP_STATEFUL_T		0x08	/* triggered resync */
#define PCEP_STATEFUL_D		0x10	/* delta LSP sync */
#define PCEP_STATEFUL_F		0x20	/* triggered initial sync */

/* SR-PCE-CAPABILITY flags (RFC 8664 4.1.2). */
#define PCEP_SR_CAP_X		0x01	/* no MSD limit */
#define PCEP_SR_CAP_N		0x02	/* NAI to SID resolution */

/* Path setup types (RFC 8408, RFC 8664). */
#define PCEP_PST_RSVP_TE	0
#define PCEP_PST_SR		1
#define PCEP_PST_SRV6		3	/* RFC 9603 4.1 */

/* ERO subobjects (RFC 3209 4.3.3, RFC 8664 4.3.1): L(1) Type(7) Length. */
#define PCEP_SUBOBJ_HDR_LEN	2
#define PCEP_SUBOBJ_LEN_OFF	1
#define PCEP_SUBOBJ_L		0x80	/* loose hop */
#define PCEP_SUBOBJ_TYPE_MASK	0x7f
#define PCEP_SUBOBJ_IPV4	1
#define PCEP_SUBOBJ_IPV6	2
#define PCEP_SUBOBJ_SR		36
#define PCEP_SUBOBJ_SRV6	40	/* RFC 9603 4.3.1 */
#define PCEP_SUBOBJ_IPV4_LEN	8	/* hdr, address, prefix len, flags */

/* SR-ERO: NT(4) Flags(12) after the subobject header. */
#define PCEP_SR_NT_SHIFT	12
#define PCEP_SR_FLAGS_MASK	0x0fff
#define PCEP_SR_FLAG_M		0x001	/* SID is an MPLS label */
#define PCEP_SR_FLAG_C		0x002	/* TC, S, TTL are set */
#define PCEP_SR_FLAG_S		0x004	/* SID absent */
#define PCEP_SR_FLAG_F		0x008	/* NAI absent */
#define PCEP_SR_FIXED_LEN	4	/* subobject header, NT and flags */
#define PCEP_SR_SID_LEN		4
#define PCEP_SR_LABEL_SHIFT	12	/* label in the SID's top 20 bits */

/* SRV6-ERO (RFC 9603 4.3.1): NT(4) Flags(12) | Reserved(16) Behavior(16)
 * | SID (16, unless S) | NAI (unless F) | SID Structure (8, when T). */
#define PCEP_SRV6_FLAG_S	0x001	/* SID absent */
#define PCEP_SRV6_FLAG_F	0x002	/* NAI absent */
#define PCEP_SRV6_FLAG_T	0x004	/* SID structure present */
#define PCEP_SRV6_FLAG_V	0x008	/* verify the SID */
#define PCEP_SRV6_FIXED_LEN	6	/* after the subobject header */
#define PCEP_SRV6_STRUCT_LEN	8
#define PCEP_SRV6_END		1	/* RFC 8986 End behavior */

/* NAI types (RFC 8664 4.3.1). */
#define PCEP_NAI_ABSENT		0
#define PCEP_NAI_IPV4_NODE	1
#define PCEP_NAI_IPV6_NODE	2
#define PCEP_NAI_IPV4_ADJ	3
#define PCEP_NAI_IPV6_ADJ	4
#define PCEP_NAI_UNNUMBERED	5
#define PCEP_NAI_IPV6_LL_ADJ	6

/* CLOSE reasons (RFC 5440 7.17). */
#define PCEP_CLOSE_NONE		1
#define PCEP_CLOSE_DEADTIMER	2
#define PCEP_CLOSE_MALFORMED	3
#define PCEP_CLOSE_UNKNOWN_REQ	4
#define PCEP_CLOSE_UNKNOWN_MSG	5

#endif
