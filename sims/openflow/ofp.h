/*
 * OpenFlow wire constants for 1.0 (OpenFlow Switch Specification 1.0.0,
 * section 5 and appendix A) and 1.3 (1.3.5, section 7): message types,
 * multipart/stats kinds, error types and codes, bits and fixed lengths.
 * OFP10_* names are 1.0 values, OFP13_* names are 1.3 values; only the
 * codec should need them, the rest of sbsim uses of_types.h.
 */
#ifndef SBSIM_OFP_H
#define SBSIM_OFP_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* Message types, 1.0 section 5.1 (enum ofp_type). */
#define OFP10_T_HELLO			0
#define OFP10_T_ERROR			1
#define OFP10_T_ECHO_REQUEST		2
#define OFP10_T_ECHO_REPLY		3
#define OFP10_T_VENDOR			4
#define OFP10_T_FEATURES_REQUEST	5
#define OFP10_T_FEATURES_REPLY		6
#define OFP10_T_GET_CONFIG_REQUEST	7
#define OFP10_T_GET_CONFIG_REPLY	8
#define OFP10_T_SET_CONFIG		9
#define OFP10_T_PACKET_IN		10
#define OFP10_T_FLOW_REMOVED		11
#define OFP10_T_PORT_STATUS		12
#define OFP10_T_PACKET_OUT		13
#define OFP10_T_FLOW_MOD		14
#define OFP10_T_PORT_MOD		15
#define OFP10_T_STATS_REQUEST		16
#define OFP10_T_STATS_REPLY		17
#define OFP10_T_BARRIER_REQUEST		18
#define OFP10_T_BARRIER_REPLY		19
#define OFP10_T_QUEUE_GET_CONFIG_REQUEST 20
#define OFP10_T_QUEUE_GET_CONFIG_REPLY	21

/* Message types, 1.3 section 7.1 (enum ofp_type). */
#define OFP13_T_HELLO			0
#define OFP13_T_ERROR			1
#define OFP13_T_ECHO_REQUEST		2
#define OFP13_T_ECHO_REPLY		3
#define OFP13_T_EXPERIMENTER		4
#define OFP13_T_FEATURES_REQUEST	5
#define OFP13_T_FEATURES_REPLY		6
#define OFP13_T_GET_CONFIG_REQUEST	7
#define OFP13_T_GET_CONFIG_REPLY	8
#define OFP13_T_SET_CONFIG		9
#define OFP13_T_PACKET_IN		10
#define OFP13_T_FLOW_REMOVED		11
#define OFP13_T_PORT_STATUS		12
#define OFP13_T_PACKET_OUT		13
#define OFP13_T_FLOW_MOD		14
#define OFP13_T_GROUP_MOD		15
#define OFP13_T_PORT_MOD		16
#define OFP13_T_TABLE_MOD		17
#define OFP13_T_MULTIPART_REQUEST	18
#define OFP13_T_MULTIPART_REPLY		19
#define OFP13_T_BARRIER_REQUEST		20
#define OFP13_T_BARRIER_REPLY		21
#define OFP13_T_QUEUE_GET_CONFIG_REQUEST 22
#define OFP13_T_QUEUE_GET_CONFIG_REPLY	23
#define OFP13_T_ROLE_REQUEST		24
#define OFP13_T_ROLE_REPLY		25
#define OFP13_T_GET_ASYNC_REQUEST	26
#define OFP13_T_GET_ASYNC_REPLY		27
#define OFP13_T_SET_ASYNC		28
#define OFP13_T_METER_MOD		29

/* Stats kinds, 1.0 section 5.3.5 (enum ofp_stats_types). */
#define OFP10_ST_DESC			0
#define OFP10_ST_FLOW			1
#define OFP10_ST_AGGREGATE		2
#define OFP10_ST_TABLE			3
#define OFP10_ST_PORT			4
#define OFP10_ST_QUEUE			5
/* Not in 1.0.0: Open vSwitch's extension (13), which ovs-ofctl
 * dump-ports-desc sends to 1.0 switches; its body is ignored. */
#define OFP10_ST_PORT_DESC		13
#define OFP10_ST_VENDOR			0xffff

/* Multipart kinds, 1.3 section 7.3.5 (enum ofp_multipart_type). */
#define OFP13_MP_DESC			0
#define OFP13_MP_FLOW			1
#define OFP13_MP_AGGREGATE		2
#define OFP13_MP_TABLE			3
#define OFP13_MP_PORT_STATS		4
#define OFP13_MP_QUEUE			5
#define OFP13_MP_GROUP			6
#define OFP13_MP_GROUP_DESC		7
#define OFP13_MP_GROUP_FEATURES		8
#define OFP13_MP_METER			9
#define OFP13_MP_METER_CONFIG		10
#define OFP13_MP_METER_FEATURES		11
#define OFP13_MP_TABLE_FEATURES		12
#define OFP13_MP_PORT_DESC		13
#define OFP13_MP_EXPERIMENTER		0xffff

/* Error types, 1.0 section 5.4.4 (enum ofp_error_type) and codes. */
#define OFP10_ET_HELLO_FAILED		0
#define OFP10_ET_BAD_REQUEST		1
#define OFP10_ET_BAD_ACTION		2
#define OFP10_ET_FLOW_MOD_FAILED	3
#define OFP10_ET_PORT_MOD_FAILED	4
#define OFP10_ET_QUEUE_OP_FAILED	5

#define OFP10_HFC_INCOMPATIBLE		0
#define OFP10_HFC_EPERM			1

#define OFP10_BRC_BAD_VERSION		0
#define OFP10_BRC_BAD_TYPE		1
#define OFP10_BRC_BAD_STAT		2
#define OFP10_BRC_BAD_VENDOR		3
#define OFP10_BRC_BAD_SUBTYPE		4
#define OFP10_BRC_EPERM			5
#define OFP10_BRC_BAD_LEN		6
#define OFP10_BRC_BUFFER_EMPTY		7
#define OFP10_BRC_BUFFER_UNKNOWN	8

#define OFP10_BAC_BAD_TYPE		0
#define OFP10_BAC_BAD_LEN		1
#define OFP10_BAC_BAD_VENDOR		2
#define OFP10_BAC_BAD_VENDOR_TYPE	3
#define OFP10_BAC_BAD_OUT_PORT		4
#define OFP10_BAC_BAD_ARGUMENT		5
#define OFP10_BAC_EPERM			6
#define OFP10_BAC_TOO_MANY		7
#define OFP10_BAC_BAD_QUEUE		8

#define OFP10_FMFC_ALL_TABLES_FULL	0
#define OFP10_FMFC_OVERLAP		1
#define OFP10_FMFC_EPERM		2
#define OFP10_FMFC_BAD_EMERG_TIMEOUT	3
#define OFP10_FMFC_BAD_COMMAND		4
#define OFP10_FMFC_UNSUPPORTED		5

#define OFP10_PMFC_BAD_PORT		0
#define OFP10_PMFC_BAD_HW_ADDR		1

#define OFP10_QOFC_BAD_PORT		0
#define OFP10_QOFC_BAD_QUEUE		1
#define OFP10_QOFC_EPERM		2

/* Error types, 1.3 section 7.4.4 (enum ofp_error_type) and codes. */
#define OFP13_ET_HELLO_FAILED		0
#define OFP13_ET_BAD_REQUEST		1
#define OFP13_ET_BAD_ACTION		2
#define OFP13_ET_BAD_INSTRUCTION	3
#define OFP13_ET_BAD_MATCH		4
#define OFP13_ET_FLOW_MOD_FAILED	5
#define OFP13_ET_GROUP_MOD_FAILED	6
#define OFP13_ET_PORT_MOD_FAILED	7
#define OFP13_ET_TABLE_MOD_FAILED	8
#define OFP13_ET_QUEUE_OP_FAILED	9
#define OFP13_ET_SWITCH_CONFIG_FAILED	10
#define OFP13_ET_ROLE_REQUEST_FAILED	11
#define OFP13_ET_METER_MOD_FAILED	12
#define OFP13_ET_TABLE_FEATURES_FAILED	13
#define OFP13_ET_EXPERIMENTER		0xffff

#define OFP13_HFC_INCOMPATIBLE		0
#define OFP13_HFC_EPERM			1

#define OFP13_BRC_BAD_VERSION		0
#define OFP13_BRC_BAD_TYPE		1
#define OFP13_BRC_BAD_MULTIPART		2
#define OFP13_BRC_BAD_EXPERIMENTER	3
#define OFP13_BRC_BAD_EXP_TYPE		4
#define OFP13_BRC_EPERM			5
#define OFP13_BRC_BAD_LEN		6
#define OFP13_BRC_BUFFER_EMPTY		7
#define OFP13_BRC_BUFFER_UNKNOWN	8
#define OFP13_BRC_BAD_TABLE_ID		9
#define OFP13_BRC_IS_SLAVE		10
#define OFP13_BRC_BAD_PORT		11
#define OFP13_BRC_BAD_PACKET		12
#define OFP13_BRC_MULTIPART_BUFFER_OVERFLOW 13

#define OFP13_BAC_BAD_TYPE		0
#define OFP13_BAC_BAD_LEN		1
#define OFP13_BAC_BAD_EXPERIMENTER	2
#define OFP13_BAC_BAD_EXP_TYPE		3
#define OFP13_BAC_BAD_OUT_PORT		4
#define OFP13_BAC_BAD_ARGUMENT		5
#define OFP13_BAC_EPERM			6
#define OFP13_BAC_TOO_MANY		7
#define OFP13_BAC_BAD_QUEUE		8
#define OFP13_BAC_BAD_OUT_GROUP		9
#define OFP13_BAC_MATCH_INCONSISTENT	10
#define OFP13_BAC_UNSUPPORTED_ORDER	11
#define OFP13_BAC_BAD_TAG		12
#define OFP13_BAC_BAD_SET_TYPE		13
#define OFP13_BAC_BAD_SET_LEN		14
#define OFP13_BAC_BAD_SET_ARGUMENT	15

/* Group mod failures, 1.3.5 section 7.4.4 (enum ofp_group_mod_failed_code). */
#define OFP13_GMFC_GROUP_EXISTS		0
#define OFP13_GMFC_INVALID_GROUP	1
#define OFP13_GMFC_OUT_OF_GROUPS	3
#define OFP13_GMFC_OUT_OF_BUCKETS	4
#define OFP13_GMFC_CHAINING_UNSUPPORTED	5
#define OFP13_GMFC_LOOP			7
#define OFP13_GMFC_UNKNOWN_GROUP	8
#define OFP13_GMFC_CHAINED_GROUP	9
#define OFP13_GMFC_BAD_TYPE		10
#define OFP13_GMFC_BAD_COMMAND		11
#define OFP13_GMFC_BAD_BUCKET		12
#define OFP13_GMFC_BAD_WATCH		13

/* Meter mod failures, 1.3.5 section 7.4.4 (enum ofp_meter_mod_failed_code). */
#define OFP13_MMFC_METER_EXISTS		1
#define OFP13_MMFC_INVALID_METER	2
#define OFP13_MMFC_UNKNOWN_METER	3
#define OFP13_MMFC_BAD_COMMAND		4
#define OFP13_MMFC_BAD_FLAGS		5
#define OFP13_MMFC_BAD_RATE		6
#define OFP13_MMFC_BAD_BURST		7
#define OFP13_MMFC_BAD_BAND		8
#define OFP13_MMFC_BAD_BAND_VALUE	9
#define OFP13_MMFC_OUT_OF_METERS	10
#define OFP13_MMFC_OUT_OF_BANDS		11

#define OFP13_BIC_UNKNOWN_INST		0
#define OFP13_BIC_UNSUP_INST		1
#define OFP13_BIC_BAD_TABLE_ID		2
#define OFP13_BIC_UNSUP_METADATA	3
#define OFP13_BIC_UNSUP_METADATA_MASK	4
#define OFP13_BIC_BAD_EXPERIMENTER	5
#define OFP13_BIC_BAD_EXP_TYPE		6
#define OFP13_BIC_BAD_LEN		7
#define OFP13_BIC_EPERM			8

#define OFP13_BMC_BAD_TYPE		0
#define OFP13_BMC_BAD_LEN		1
#define OFP13_BMC_BAD_TAG		2
#define OFP13_BMC_BAD_DL_ADDR_MASK	3
#define OFP13_BMC_BAD_NW_ADDR_MASK	4
#define OFP13_BMC_BAD_WILDCARDS		5
#define OFP13_BMC_BAD_FIELD		6
#define OFP13_BMC_BAD_VALUE		7
#define OFP13_BMC_BAD_MASK		8
#define OFP13_BMC_BAD_PREREQ		9
#define OFP13_BMC_DUP_FIELD		10
#define OFP13_BMC_EPERM			11

#define OFP13_FMFC_UNKNOWN		0
#define OFP13_FMFC_TABLE_FULL		1
#define OFP13_FMFC_BAD_TABLE_ID		2
#define OFP13_FMFC_OVERLAP		3
#define OFP13_FMFC_EPERM		4
#define OFP13_FMFC_BAD_TIMEOUT		5
#define OFP13_FMFC_BAD_COMMAND		6
#define OFP13_FMFC_BAD_FLAGS		7

#define OFP13_PMFC_BAD_PORT		0
#define OFP13_PMFC_BAD_HW_ADDR		1
#define OFP13_PMFC_BAD_CONFIG		2
#define OFP13_PMFC_BAD_ADVERTISE	3
#define OFP13_PMFC_EPERM		4

#define OFP13_SCFC_BAD_FLAGS		0
#define OFP13_SCFC_BAD_LEN		1
#define OFP13_SCFC_EPERM		2

#define OFP13_RRFC_STALE		0
#define OFP13_RRFC_UNSUP		1
#define OFP13_RRFC_BAD_ROLE		2

/* HELLO elements, 1.3 section 7.5.1. */
#define OFP13_HELLO_ELEM_HDR_LEN	4
#define OFP13_HET_VERSIONBITMAP		1

/* Switch capabilities (ofp_capabilities), 1.0 5.3.1 / 1.3 7.3.1. */
#define OFP_C_FLOW_STATS		0x00000001
#define OFP_C_TABLE_STATS		0x00000002
#define OFP_C_PORT_STATS		0x00000004
#define OFP10_C_STP			0x00000008
#define OFP13_C_GROUP_STATS		0x00000008
#define OFP_C_IP_REASM			0x00000020
#define OFP_C_QUEUE_STATS		0x00000040
#define OFP10_C_ARP_MATCH_IP		0x00000080
#define OFP13_C_PORT_BLOCKED		0x00000100

/* Switch config flags (ofp_config_flags), same in both versions. */
#define OFP_C_FRAG_NORMAL		0x0000
#define OFP_C_FRAG_DROP			0x0001
#define OFP_C_FRAG_REASM		0x0002
#define OFP_C_FRAG_MASK			0x0003
#define OFP_DEFAULT_MISS_SEND_LEN	128
#define OFP13_CML_NO_BUFFER		0xffff
#define OFP_NO_BUFFER			0xffffffffu

/* Port config bits: 1.3 uses a subset of 1.0's with the same values. */
#define OFP_PC_PORT_DOWN		0x00000001
#define OFP10_PC_NO_STP			0x00000002
#define OFP_PC_NO_RECV			0x00000004
#define OFP10_PC_NO_RECV_STP		0x00000008
#define OFP10_PC_NO_FLOOD		0x00000010
#define OFP_PC_NO_FWD			0x00000020
#define OFP_PC_NO_PACKET_IN		0x00000040

/* Port state bits. */
#define OFP_PS_LINK_DOWN		0x00000001
#define OFP13_PS_BLOCKED		0x00000002
#define OFP13_PS_LIVE			0x00000004
#define OFP10_PS_STP_MASK		0x00000300

/* Port features: 1.3 section 7.2.1 moved 1.0's media bits up by four. */
#define OFP_PF_10MB_HD			0x00000001
#define OFP_PF_10MB_FD			0x00000002
#define OFP_PF_100MB_HD			0x00000004
#define OFP_PF_100MB_FD			0x00000008
#define OFP_PF_1GB_HD			0x00000010
#define OFP_PF_1GB_FD			0x00000020
#define OFP_PF_10GB_FD			0x00000040
#define OFP13_PF_40GB_FD		0x00000080
#define OFP13_PF_100GB_FD		0x00000100
#define OFP13_PF_1TB_FD			0x00000200
#define OFP13_PF_OTHER			0x00000400
#define OFP13_PF_COPPER			0x00000800
#define OFP13_PF_FIBER			0x00001000
#define OFP13_PF_AUTONEG		0x00002000
#define OFP13_PF_PAUSE			0x00004000
#define OFP13_PF_PAUSE_ASYM		0x00008000
#define OFP10_PF_COPPER			0x00000080
#define OFP10_PF_FIBER			0x00000100
#define OFP10_PF_AUTONEG		0x00000200
#define OFP10_PF_PAUSE			0x00000400
#define OFP10_PF_PAUSE_ASYM		0x00000800

/* Packet-in reasons, same values in both versions. */
#define OFP_R_NO_MATCH			0
#define OFP_R_ACTION			1
#define OFP13_R_INVALID_TTL		2

/* Port status reasons. */
#define OFP_PR_ADD			0
#define OFP_PR_DELETE			1
#define OFP_PR_MODIFY			2

/* FLOW_MOD flags, 1.0 section 5.3.3 (1.3's are the OF_FF_* values). */
#define OFP10_FF_SEND_FLOW_REM		0x0001
#define OFP10_FF_CHECK_OVERLAP		0x0002
#define OFP10_FF_EMERG			0x0004

/* 1.0 reserved ports (16 bit). */
#define OFP10_PP_MAX			0xff00
#define OFP10_PP_ALL			0xfffc
#define OFP10_PP_NONE			0xffff

/* OXM fields and 1.0 wildcard bits: see of_oxm.h. */

/* Multipart reply flag (OFPMPF_REPLY_MORE, OFPSF_REPLY_MORE). */
#define OFP_MPF_MORE			0x0001

/* Table feature property types, 1.3 section 7.3.5.5.2. */
#define OFP13_TFPT_INSTRUCTIONS		0
#define OFP13_TFPT_NEXT_TABLES		2
#define OFP13_TFPT_WRITE_ACTIONS	4
#define OFP13_TFPT_APPLY_ACTIONS	6
#define OFP13_TFPT_MATCH		8
#define OFP13_TFPT_WILDCARDS		10
#define OFP13_TFPT_WRITE_SETFIELD	12
#define OFP13_TFPT_APPLY_SETFIELD	14
#define OFP13_TFP_HDR_LEN		4	/* type, length */
#define OFP13_TFP_ID_LEN		4	/* instruction/action id */

/* Fixed lengths, header included unless named _BODY. */
#define OFP_HEADER_LEN			8
#define OFP_ERROR_DATA_MAX		64	/* of the bad message */
#define OFP10_PHY_PORT_LEN		48
#define OFP13_PORT_LEN			64
#define OFP_MAX_PORT_NAME_LEN		16
#define OFP_ETH_ALEN			6
#define OFP10_FEATURES_REPLY_LEN	32
#define OFP13_FEATURES_REPLY_LEN	32
#define OFP_SWITCH_CONFIG_LEN		12
#define OFP10_PACKET_IN_LEN		18	/* data follows */
#define OFP13_PACKET_IN_FIXED_BODY	16	/* before the match */
#define OFP13_PACKET_IN_PAD		2	/* after the match */
#define OFP10_PACKET_OUT_BODY		8
#define OFP13_PACKET_OUT_BODY		16
#define OFP10_FLOW_MOD_BODY		64	/* match included */
#define OFP13_FLOW_MOD_FIXED_BODY	40	/* before the match */
#define OFP10_FLOW_REMOVED_LEN		88
#define OFP13_FLOW_REMOVED_FIXED_BODY	40	/* before the match */
#define OFP_PORT_STATUS_PAD		7
#define OFP10_PORT_MOD_BODY		24
#define OFP13_PORT_MOD_BODY		32
#define OFP13_ROLE_BODY			16
#define OFP13_ASYNC_BODY		24
#define OFP10_QUEUE_GET_CONFIG_BODY	4
#define OFP13_QUEUE_GET_CONFIG_BODY	8
#define OFP_QUEUE_GET_CONFIG_REPLY_LEN	16
#define OFP10_MP_HDR_BODY		4	/* type, flags */
#define OFP13_MP_HDR_BODY		8	/* type, flags, pad4 */
#define OFP10_FLOW_STATS_REQ_BODY	44
#define OFP13_FLOW_STATS_REQ_FIXED	32	/* before the match */
#define OFP_PORT_STATS_REQ_BODY		8
#define OFP10_FLOW_STATS_FIXED		88	/* match included */
#define OFP13_FLOW_STATS_FIXED		48	/* before the match */
#define OFP_AGGREGATE_REPLY_BODY	24
#define OFP10_TABLE_STATS_LEN		64
#define OFP13_TABLE_STATS_LEN		24
#define OFP10_PORT_STATS_LEN		104
#define OFP13_PORT_STATS_LEN		112
#define OFP13_GROUP_FEATURES_LEN	40
#define OFP13_GROUP_DESC_FIXED		8	/* before the buckets */
#define OFP13_GROUP_STATS_FIXED		40	/* before the bucket counters */
#define OFP13_BUCKET_COUNTER_LEN	16
#define OFP13_GROUP_STATS_REQ_BODY	8
#define OFP13_GFC_SELECT_WEIGHT		0x00000001
#define OFP13_GFC_SELECT_LIVENESS	0x00000002
#define OFP13_GFC_CHAINING		0x00000004
#define OFP13_GFC_CHAINING_CHECKS	0x00000008
#define OFP13_METER_FEATURES_LEN	16
#define OFP13_TABLE_FEATURES_LEN	64	/* properties follow */
#define OFP13_TABLE_NAME_LEN		32
#define OFP_DESC_STR_LEN		256
#define OFP_SERIAL_NUM_LEN		32
#define OFP10_TABLE_NAME_LEN		32
#define OFP10_TABLE_NAME		"classifier"

/*
 * Shared between of_codec.c and of_codec_mp.c (not for other users):
 * an ofp_port (1.3, 64 bytes) or ofp_phy_port (1.0, 48 bytes); port_no is
 * narrowed for 1.0, the bit fields go out as given.
 */
struct of_port;
struct of_match;
struct of_mp_reply;
int	 ofp_port_encode(struct wbuf *, uint8_t version,
	    const struct of_port *);
/*
 * An ofp_match for the version (NULL: match all), built apart and copied so
 * its padding to 8 counts from the match's own start (1.3 section 7.2.2)
 * whatever precedes it in the wbuf.
 */
void	 ofp_match_put(struct wbuf *, uint8_t version,
	    const struct of_match *);
/* 1.0 port fields of filters: OFPP_NONE <-> OF_PORT_ANY, else widened. */
uint32_t ofp_port10_filter(uint16_t);
uint16_t ofp_port10_filter_out(uint32_t);
/* ofp10_flow_mod's fields after its match, cookie to flags, into fm
 * (flags in 1.3 numbering; the command as on the wire): also the
 * middle of Nicira's nx_flow_mod (of_nx.c).  -1 on bad flags. */
struct of_flow_mod;
int	 of_flow_mod10_fields(struct rbuf *, struct of_flow_mod *,
	    uint16_t *cmd, enum of_err *err);

/* A property (1.3 table features, 1.4 lists, 1.5 ofp_stats): type and a
 * length patched by ofp_prop_end, which pads to 8. */
size_t	 ofp_prop_begin(struct wbuf *, uint16_t type);
void	 ofp_prop_end(struct wbuf *, size_t start);
/* PORT_MOD's fields before config, mask and 1.3's advertise (1.3 and
 * 1.4 alike): port_no, pad, hw_addr, pad, config, mask. */
struct of_port_mod;
void	 ofp_port_mod_head(struct rbuf *, struct of_port_mod *);

/* A port's first eight counters, as every ofp_port_stats has them. */
struct of_port_stats;
void	 ofp_port_counters_put(struct wbuf *, const struct of_port_stats *);

/* A string field of n bytes: at most n - 1 characters, NUL-padded. */
void	 ofp_put_str(struct wbuf *, const char *, size_t n);

/*
 * The 16 bytes that ROLE_REQUEST/REPLY (1.3 section 7.3.9: role, pad[4],
 * generation_id) and ONF's ROLE_STATUS (ext-191: role, reason, pad[3],
 * generation_id) share; of_cluster.c writes the latter.  reason: 0 for
 * the padding of ROLE_REQUEST/REPLY; NULL on decoding skips it.  The
 * decoder wants 16 bytes left and refuses a role above SLAVE (-1).
 */
struct rbuf;
void	 ofp_role_put(struct wbuf *, uint32_t role, uint8_t reason,
	    uint64_t generation_id);
int	 ofp_role_get(struct rbuf *, uint32_t *role, uint8_t *reason,
	    uint64_t *generation_id);


#endif
