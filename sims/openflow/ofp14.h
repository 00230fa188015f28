/*
 * Wire constants that OpenFlow 1.4 (0x05, specification 1.4.1) and 1.5
 * (0x06, specification 1.5.1) add to or change from 1.3 (ofp.h).  Only
 * what sbsim encodes or checks; section numbers are 1.4.1's (A.x) unless
 * a line says 1.5.1.
 */
#ifndef SBSIM_OFP14_H
#define SBSIM_OFP14_H

/* Message types (A.1). */
#define OFP14_T_ROLE_STATUS		30
#define OFP14_T_TABLE_STATUS		31
#define OFP14_T_REQUESTFORWARD		32
#define OFP14_T_BUNDLE_CONTROL		33
#define OFP14_T_BUNDLE_ADD_MESSAGE	34
#define OFP15_T_CONTROLLER_STATUS	35

/* Multipart kinds (A.3.5); 1.5 renames 1 FLOW_DESC and adds 17-19. */
#define OFP14_MP_TABLE_DESC		14
#define OFP14_MP_QUEUE_DESC		15
#define OFP14_MP_FLOW_MONITOR		16
#define OFP15_MP_FLOW_STATS		17
#define OFP15_MP_CONTROLLER_STATUS	18
#define OFP15_MP_BUNDLE_FEATURES	19

/* ofp_port (A.2.1): 40 bytes, then properties; ETHERNET is 32 bytes. */
#define OFP14_PORT_FIXED		40
#define OFP14_PDPT_ETHERNET		0
#define OFP14_PORT_PROP_ETHERNET_LEN	32

/* ofp_port_stats (A.3.5.7): 80 bytes, then properties; ETHERNET 40. */
#define OFP14_PORT_STATS_FIXED		80
#define OFP14_PSPT_ETHERNET		0
#define OFP14_PORT_STATS_PROP_ETH_LEN	40

/* ofp_port_mod (A.3.4.3): 32 bytes with the header, then properties. */
#define OFP14_PORT_MOD_FIXED_BODY	24
#define OFP14_PMPT_ETHERNET		0

/* ofp_flow_stats (A.3.5.2): 1.3's, importance in its padding. */
#define OFP14_FLOW_STATS_FIXED		56

/* 1.5.1 ofp_flow_desc (7.3.5.2): 32 bytes before the match; ofp_stats
 * (7.2.4): reserved, length, OXS fields, padding to 8. */
#define OFP15_FLOW_DESC_FIXED		32
#define OFP15_STATS_HDR_LEN		4
#define OFP15_OXS_CLASS_BASIC		0x8002
#define OFP15_XST_DURATION		0
#define OFP15_XST_IDLE_TIME		1
#define OFP15_XST_FLOW_COUNT		3
#define OFP15_XST_PACKET_COUNT		4
#define OFP15_XST_BYTE_COUNT		5
#define OFP15_OXS_HEADER(f, len)					\
	((uint32_t)OFP15_OXS_CLASS_BASIC << 16 | (uint32_t)(f) << 9 | (len))

/* 1.5.1 ofp_packet_out (7.3.7): buffer_id, actions_len, pad, match. */
#define OFP15_PACKET_OUT_FIXED_BODY	8

/* 1.5.1 ofp_group_mod (7.3.4.2): command, type, pad, group_id,
 * bucket_array_len, pad, command_bucket_id; buckets; properties. */
#define OFP15_GROUP_MOD_FIXED_BODY	16
#define OFP15_BUCKET_FIXED		8
#define OFP15_GBPT_WEIGHT		0
#define OFP15_GBPT_WATCH_PORT		1
#define OFP15_GBPT_WATCH_GROUP		2
#define OFP15_GROUP_BUCKET_MAX		0xffffff00u
#define OFP15_GROUP_BUCKET_FIRST	0xfffffffdu
#define OFP15_GROUP_BUCKET_LAST		0xfffffffeu
#define OFP15_GROUP_BUCKET_ALL		0xffffffffu
#define OFP15_GC_INSERT_BUCKET		3
#define OFP15_GC_REMOVE_BUCKET		5
#define OFP15_GMFC_UNKNOWN_BUCKET	15	/* ofp_group_mod_failed_code */
#define OFP15_GMFC_BUCKET_EXISTS	16
/* 1.5.1 ofp_group_desc (7.3.5.10): length, type, pad, group_id,
 * bucket_array_len, pad; buckets; properties. */
#define OFP15_GROUP_DESC_FIXED		16

/* Async configuration properties (A.3.10); REQUESTFORWARD and
 * ROLE_STATUS/TABLE_STATUS masks are 1.4's additions. */
#define OFP14_ACPT_PACKET_IN_SLAVE	0
#define OFP14_ACPT_PACKET_IN_MASTER	1
#define OFP14_ACPT_PORT_STATUS_SLAVE	2
#define OFP14_ACPT_PORT_STATUS_MASTER	3
#define OFP14_ACPT_FLOW_REMOVED_SLAVE	4
#define OFP14_ACPT_FLOW_REMOVED_MASTER	5
#define OFP14_ACPT_ROLE_STATUS_SLAVE	6
#define OFP14_ACPT_ROLE_STATUS_MASTER	7
#define OFP14_ACPT_TABLE_STATUS_SLAVE	8
#define OFP14_ACPT_TABLE_STATUS_MASTER	9
#define OFP14_ACPT_REQUESTFORWARD_SLAVE	10
#define OFP14_ACPT_REQUESTFORWARD_MASTER 11
#define OFP15_ACPT_CONT_STATUS_MASTER	13	/* 1.5.1 7.3.10 */
#define OFP14_ASYNC_PROP_LEN		8

/* ROLE_STATUS (A.4.5): role, reason, pad, generation_id. */
#define OFP14_CRR_MASTER_REQUEST	0
#define OFP14_CRR_CONFIG		1
#define OFP14_CRR_EXPERIMENTER		2

/* 1.5.1 ofp_table_features (7.3.5.18): table_id, command, features
 * where 1.3 pads; a table that may be egress is what sbsim has none of. */
#define OFP15_TFF_INGRESS_TABLE		(1u << 0)
#define OFP15_TFF_EGRESS_TABLE		(1u << 1)
#define OFP15_TFF_FIRST_EGRESS		(1u << 4)
#define OFP15_TFFC_BAD_FEATURES		8

/* TABLE_MOD (A.3.3) config bits and properties; TABLE_STATUS (A.4.4)
 * reasons; ofp_table_desc (A.3.5.6) before its properties. */
#define OFP14_TC_EVICTION		(1u << 2)
#define OFP14_TC_VACANCY_EVENTS		(1u << 3)
#define OFP14_TC_DEPRECATED_MASK	3u
#define OFP14_TMPT_EVICTION		2
#define OFP14_TMPT_VACANCY		3
#define OFP14_TABLE_MOD_FIXED_BODY	8
#define OFP14_TABLE_DESC_FIXED		8
#define OFP14_TR_VACANCY_DOWN		3
#define OFP14_TR_VACANCY_UP		4
#define OFP13_TMFC_BAD_TABLE		0
#define OFP13_TMFC_BAD_CONFIG		1

/* Error types 1.4 adds (A.4.4), and codes used from them. */
#define OFP14_ET_BAD_PROPERTY		14
#define OFP14_ET_ASYNC_CONFIG_FAILED	15
#define OFP14_ET_FLOW_MONITOR_FAILED	16
#define OFP14_ET_BUNDLE_FAILED		17
#define OFP14_BPC_BAD_TYPE		0
#define OFP14_BPC_BAD_LEN		1
#define OFP14_MOFC_UNKNOWN		0
#define OFP14_MOFC_MONITOR_EXISTS	1
#define OFP14_MOFC_UNKNOWN_MONITOR	3
#define OFP14_MOFC_BAD_COMMAND		4
#define OFP14_MOFC_BAD_FLAGS		5
#define OFP14_MOFC_BAD_TABLE_ID		6
/* ofp_flow_monitor_request (A.3.5.19) before its match. */
#define OFP14_FLOW_MONITOR_REQ_FIXED	16
#define OFP14_ACFC_INVALID		0
#define OFP14_ACFC_UNSUPPORTED		1

#endif
