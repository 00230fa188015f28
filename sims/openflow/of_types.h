/*
 * Version-neutral names for OpenFlow messages, multipart kinds and errors.
 * The codec maps them to and from the wire values of OpenFlow 1.0 (0x01),
 * 1.3 (0x04), 1.4 (0x05) and 1.5 (0x06); the rest of sbsim only ever sees
 * these.
 */
#ifndef SBSIM_OF_TYPES_H
#define SBSIM_OF_TYPES_H

#include <stdint.h>

#define OF_VERSION_10	0x01
#define OF_VERSION_13	0x04
#define OF_VERSION_14	0x05
#define OF_VERSION_15	0x06
#define OF_HEADER_LEN	8
#define OF_MAX_MSG	65535

/*
 * 1.4 and 1.5 are 1.3 plus differences (1.4.1 appendix B.14, 1.5.1
 * appendix B.15): every test of "1.3 or later" goes through here, and a
 * test of one later version names it.
 */
static inline int
of_v13plus(uint8_t version)
{
	return version >= OF_VERSION_13;
}

enum of_type {
	OF_HELLO,
	OF_ERROR,
	OF_ECHO_REQUEST,
	OF_ECHO_REPLY,
	OF_EXPERIMENTER,		/* VENDOR in 1.0 */
	OF_FEATURES_REQUEST,
	OF_FEATURES_REPLY,
	OF_GET_CONFIG_REQUEST,
	OF_GET_CONFIG_REPLY,
	OF_SET_CONFIG,
	OF_PACKET_IN,
	OF_FLOW_REMOVED,
	OF_PORT_STATUS,
	OF_PACKET_OUT,
	OF_FLOW_MOD,
	OF_GROUP_MOD,			/* 1.3 only */
	OF_PORT_MOD,
	OF_TABLE_MOD,			/* 1.3 only */
	OF_MULTIPART_REQUEST,		/* STATS_REQUEST in 1.0 */
	OF_MULTIPART_REPLY,		/* STATS_REPLY in 1.0 */
	OF_BARRIER_REQUEST,
	OF_BARRIER_REPLY,
	OF_QUEUE_GET_CONFIG_REQUEST,
	OF_QUEUE_GET_CONFIG_REPLY,
	OF_ROLE_REQUEST,		/* 1.3 only */
	OF_ROLE_REPLY,			/* 1.3 only */
	OF_GET_ASYNC_REQUEST,		/* 1.3 only */
	OF_GET_ASYNC_REPLY,		/* 1.3 only */
	OF_SET_ASYNC,			/* 1.3 only */
	OF_METER_MOD,			/* 1.3 only */
	OF_ROLE_STATUS,			/* 1.4 and later */
	OF_TABLE_STATUS,		/* 1.4 and later */
	OF_REQUESTFORWARD,		/* 1.4 and later */
	OF_BUNDLE_CONTROL,		/* 1.4 and later */
	OF_BUNDLE_ADD_MESSAGE,		/* 1.4 and later */
	OF_CONTROLLER_STATUS,		/* 1.5 only */
	OF_TYPE_UNKNOWN
};

/* Multipart (1.3) / stats (1.0) kinds. */
enum of_mp {
	OF_MP_DESC,
	OF_MP_FLOW,
	OF_MP_AGGREGATE,
	OF_MP_TABLE,
	OF_MP_PORT_STATS,
	OF_MP_QUEUE,
	OF_MP_GROUP,			/* 1.3 only from here ... */
	OF_MP_GROUP_DESC,
	OF_MP_GROUP_FEATURES,
	OF_MP_METER,
	OF_MP_METER_CONFIG,
	OF_MP_METER_FEATURES,
	OF_MP_TABLE_FEATURES,
	OF_MP_PORT_DESC,		/* ... to here */
	OF_MP_EXPERIMENTER,		/* VENDOR in 1.0 */
	OF_MP_TABLE_DESC,		/* 1.4 and later */
	OF_MP_QUEUE_DESC,		/* 1.4 and later */
	OF_MP_FLOW_MONITOR,		/* 1.4 and later */
	OF_MP_FLOW_STATS,		/* 1.5: 17 (OF_MP_FLOW is FLOW_DESC) */
	OF_MP_CONTROLLER_STATUS,	/* 1.5 */
	OF_MP_BUNDLE_FEATURES,		/* 1.5 */
	OF_MP_UNKNOWN
};

/*
 * Errors a switch sends, by meaning.  of_err_to_wire() picks the type and
 * code for the negotiated version (1.0 lacks some; it maps to the nearest).
 */
enum of_err {
	OF_ERR_NONE = 0,
	OF_ERR_HELLO_INCOMPATIBLE,
	OF_ERR_BAD_VERSION,
	OF_ERR_BAD_TYPE,
	OF_ERR_BAD_MULTIPART,
	OF_ERR_BAD_EXPERIMENTER,
	OF_ERR_BAD_LEN,
	OF_ERR_BAD_TABLE_ID,		/* bad request: table id in a request */
	OF_ERR_IS_SLAVE,
	OF_ERR_BAD_PORT,
	OF_ERR_BUFFER_UNKNOWN,
	OF_ERR_BAD_ACTION_TYPE,
	OF_ERR_BAD_ACTION_LEN,
	OF_ERR_BAD_OUT_PORT,
	OF_ERR_BAD_ACTION_ARGUMENT,
	OF_ERR_BAD_OUT_GROUP,
	OF_ERR_BAD_INST_UNKNOWN,
	OF_ERR_BAD_INST_LEN,
	OF_ERR_BAD_INST_TABLE_ID,	/* goto-table to a bad table */
	OF_ERR_BAD_MATCH_TYPE,
	OF_ERR_BAD_MATCH_LEN,
	OF_ERR_BAD_MATCH_FIELD,
	OF_ERR_BAD_MATCH_VALUE,
	OF_ERR_BAD_MATCH_MASK,
	OF_ERR_BAD_MATCH_PREREQ,
	OF_ERR_BAD_MATCH_DUP_FIELD,
	OF_ERR_BAD_MATCH_WILDCARDS,
	OF_ERR_FLOW_TABLE_FULL,
	OF_ERR_FLOW_BAD_TABLE_ID,
	OF_ERR_FLOW_OVERLAP,
	OF_ERR_FLOW_BAD_TIMEOUT,
	OF_ERR_FLOW_BAD_COMMAND,
	OF_ERR_FLOW_BAD_FLAGS,
	OF_ERR_PORT_MOD_BAD_PORT,
	OF_ERR_PORT_MOD_BAD_HW_ADDR,
	OF_ERR_ROLE_STALE,
	OF_ERR_ROLE_BAD_ROLE,
	OF_ERR_SWITCH_CONFIG_BAD_FLAGS,
	OF_ERR_GROUP_EXISTS,		/* GROUP_MOD_FAILED codes (1.3 only) */
	OF_ERR_GROUP_INVALID,
	OF_ERR_GROUP_OUT_OF_GROUPS,
	OF_ERR_GROUP_CHAINING,
	OF_ERR_GROUP_UNKNOWN,
	OF_ERR_GROUP_BAD_TYPE,
	OF_ERR_GROUP_BAD_COMMAND,
	OF_ERR_GROUP_BAD_BUCKET,
	OF_ERR_GROUP_BAD_WATCH,
	OF_ERR_BAD_PROPERTY_TYPE,	/* 1.4's BAD_PROPERTY, ASYNC_CONFIG */
	OF_ERR_BAD_PROPERTY_LEN,
	OF_ERR_ASYNC_INVALID,
	OF_ERR_ASYNC_UNSUPPORTED,
	OF_ERR_TABLE_FEATURES_BAD_FEATURES,	/* 1.5: egress asked for */
	OF_ERR__MAX
};

#endif
