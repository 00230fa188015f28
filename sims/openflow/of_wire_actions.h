/*
 * Action and instruction wire constants: OpenFlow 1.3.5 sections 7.2.4
 * (instructions) and 7.2.5 (actions), OpenFlow 1.0.0 section 5.2.4
 * (actions) and 5.2.1 (port numbers).  Private to sims/openflow.
 */
#ifndef SBSIM_OF_WIRE_ACTIONS_H
#define SBSIM_OF_WIRE_ACTIONS_H

/* ofp_action_header / ofp_instruction: type, len; lists align to 8. */
#define OF_ACT_HDR_LEN		4
#define OF_ACT_MIN_LEN		8
#define OF_ACT_ALIGN		8
#define OF_INST_HDR_LEN		4
#define OF_INST_MIN_LEN		8
#define OF_INST_ACTIONS_PAD	4	/* ofp_instruction_actions pad[4] */

/* enum ofp_action_type, 1.3 section 7.2.5. */
#define OF13_AT_OUTPUT		0
#define OF13_AT_COPY_TTL_OUT	11
#define OF13_AT_COPY_TTL_IN	12
#define OF13_AT_SET_MPLS_TTL	15
#define OF13_AT_DEC_MPLS_TTL	16
#define OF13_AT_PUSH_VLAN	17
#define OF13_AT_POP_VLAN	18
#define OF13_AT_PUSH_MPLS	19
#define OF13_AT_POP_MPLS	20
#define OF13_AT_SET_QUEUE	21
#define OF13_AT_GROUP		22
#define OF13_AT_SET_NW_TTL	23
#define OF13_AT_DEC_NW_TTL	24
#define OF13_AT_SET_FIELD	25
#define OF13_AT_PUSH_PBB	26
#define OF13_AT_POP_PBB		27
#define OF13_AT_EXPERIMENTER	0xffff
#define OF15_AT_METER		29	/* 1.5.1 section 7.2.5: meter_id */

#define OF13_ACT_OUTPUT_LEN	16	/* port u32, max_len u16, pad[6] */
#define OF13_ACT_GENERIC_LEN	8	/* every other fixed-size action */
#define OF13_ACT_SET_FIELD_HDR	4	/* type, len; then the OXM TLV */

/* enum ofp_action_type, 1.0 section 5.2.4. */
#define OF10_AT_OUTPUT		0
#define OF10_AT_SET_VLAN_VID	1
#define OF10_AT_SET_VLAN_PCP	2
#define OF10_AT_STRIP_VLAN	3
#define OF10_AT_SET_DL_SRC	4
#define OF10_AT_SET_DL_DST	5
#define OF10_AT_SET_NW_SRC	6
#define OF10_AT_SET_NW_DST	7
#define OF10_AT_SET_NW_TOS	8
#define OF10_AT_SET_TP_SRC	9
#define OF10_AT_SET_TP_DST	10
#define OF10_AT_ENQUEUE		11
#define OF10_AT_VENDOR		0xffff

#define OF10_ACT_LEN		8	/* most 1.0 actions */
#define OF10_ACT_DL_ADDR_LEN	16	/* SET_DL_SRC/DST: addr[6], pad[6] */
#define OF10_ACT_ENQUEUE_LEN	16	/* port, pad[6], queue_id */

/* enum ofp_instruction_type, 1.3 section 7.2.4. */
#define OF13_IT_GOTO_TABLE	1
#define OF13_IT_WRITE_METADATA	2
#define OF13_IT_WRITE_ACTIONS	3
#define OF13_IT_APPLY_ACTIONS	4
#define OF13_IT_CLEAR_ACTIONS	5
#define OF13_IT_METER		6
#define OF13_IT_EXPERIMENTER	0xffff

#define OF13_INST_GOTO_LEN	8	/* table_id, pad[3] */
#define OF13_INST_METADATA_LEN	24	/* pad[4], metadata, mask */
#define OF13_INST_CLEAR_LEN	8
#define OF13_INST_METER_LEN	8	/* meter_id */

/* Groups (1.3 section 7.3.4.2, enum ofp_group). */
#define OF13_GROUP_MAX		0xffffff00u
/* The actions a group bucket takes, as a GROUP_FEATURES bitmap (bit n:
 * action type n): every 1.3 action the validator knows but EXPERIMENTER
 * (GROUP chains groups, of_group.c). */
#define OF13_BUCKET_ACTIONS	(1u << OF13_AT_OUTPUT |			\
	1u << OF13_AT_COPY_TTL_OUT | 1u << OF13_AT_COPY_TTL_IN |	\
	1u << OF13_AT_SET_MPLS_TTL | 1u << OF13_AT_DEC_MPLS_TTL |	\
	1u << OF13_AT_PUSH_VLAN | 1u << OF13_AT_POP_VLAN |		\
	1u << OF13_AT_PUSH_MPLS | 1u << OF13_AT_POP_MPLS |		\
	1u << OF13_AT_SET_QUEUE | 1u << OF13_AT_SET_NW_TTL |		\
	1u << OF13_AT_DEC_NW_TTL | 1u << OF13_AT_SET_FIELD |		\
	1u << OF13_AT_PUSH_PBB | 1u << OF13_AT_POP_PBB |		\
	1u << OF13_AT_GROUP)

/* 1.0 port numbers (enum ofp_port, 1.0 section 5.2.1). */
#define OF10_PORT_MAX		0xff00
#define OF10_PORT_IN_PORT	0xfff8
#define OF10_PORT_LOCAL		0xfffe
#define OF10_PORT_NONE		0xffff
#define OF_PORT_WIDEN		0xffff0000u	/* high bits of widened ports */

#endif
