/*
 * OpenFlow 1.0 and 1.3 codec: header, names, errors and the messages that
 * are not multipart (those are in of_codec_mp.c).
 *
 * Layouts follow OpenFlow Switch Specification 1.3.5 section 7 and 1.0.0
 * section 5; every offset comes from reading fields in order through the
 * bounds-checked rbuf/wbuf, never from casting wire bytes to structs.
 * FLOW_MOD flags cross this interface in 1.3 numbering (OF_FF_*) and the
 * 1.0 paths map them; port numbers are 32-bit (1.0's widened).  Port
 * config/state/feature bits and capabilities pass through as they are:
 * the caller gives them in the negotiated version's numbering (ofp.h).
 */
#include <stdio.h>
#include <endian.h>
#include <string.h>

#include "buf.h"
#include "of_actions.h"
#include "of_codec.h"
#include "of_codec14.h"
#include "of_oxm.h"
#include "ofp.h"
#include "ofp14.h"
#include "opt.h"

#define VER10	0	/* column of the per-version tables */
#define VER13	1	/* 1.3, 1.4 and 1.5: one family */
#define NOWIRE	(-1)

static int
ver_col(uint8_t version)
{
	return version == OF_VERSION_10 ? VER10 : VER13;
}

/* The versions sbsim speaks, one slot each for the lookup caches. */
static const uint8_t of_versions[] = { OF_VERSION_10, OF_VERSION_13,
    OF_VERSION_14, OF_VERSION_15 };
#define N_VERSIONS	(sizeof(of_versions) / sizeof(of_versions[0]))

static int
version_slot(uint8_t version)
{
	size_t	i;

	for (i = 0; i < N_VERSIONS; i++)
		if (of_versions[i] == version)
			return (int)i;
	return -1;
}

/*
 * A 1.3-family row exists from .since (0: 1.3) to .until (0: on); 1.4
 * adds types 30-34 and drops QUEUE_GET_CONFIG (1.4.1 A.1), 1.5 adds 35.
 */
static int
in_family(uint8_t version, uint8_t since, uint8_t until)
{
	if (version == OF_VERSION_10)
		return 1;
	return version >= (since ? since : OF_VERSION_13) &&
	    (until == 0 || version <= until);
}

static int
bad(enum of_err *err, enum of_err e)
{
	if (err != NULL)
		*err = e;
	return -1;
}

void
of_fields_put(struct wbuf *w, const void *obj, const struct of_field *f,
    size_t n)
{
	const uint8_t	*p;
	uint16_t	 v16;
	uint32_t	 v32;
	uint64_t	 v64;

	for (; n > 0; f++, n--) {
		p = (const uint8_t *)obj + f->off;
		if (f->pad)
			wbuf_put_zero(w, f->size);
		else if (f->size == 1)
			wbuf_put_u8(w, *p);
		else if (f->size == 2) {
			memcpy(&v16, p, sizeof(v16));
			wbuf_put_u16(w, v16);
		} else if (f->size == 4) {
			memcpy(&v32, p, sizeof(v32));
			wbuf_put_u32(w, v32);
		} else {
			memcpy(&v64, p, sizeof(v64));
			wbuf_put_u64(w, v64);
		}
	}
}

/* A field's bytes in network order into its member, host order. */
static void
of_field_load(uint8_t *p, const uint8_t *d, uint8_t size)
{
	uint16_t	v16;
	uint32_t	v32;
	uint64_t	v64;

	if (size == 1)
		*p = *d;
	else if (size == 2) {
		memcpy(&v16, d, 2);
		v16 = be16toh(v16);
		memcpy(p, &v16, 2);
	} else if (size == 4) {
		memcpy(&v32, d, 4);
		v32 = be32toh(v32);
		memcpy(p, &v32, 4);
	} else {
		memcpy(&v64, d, 8);
		v64 = be64toh(v64);
		memcpy(p, &v64, 8);
	}
}

/*
 * -1 as soon as a field runs past the end (those before it are read).
 * Read straight from the buffer: this is FLOW_MOD's decoder, and a call
 * per field cost it a tenth of its time.
 */
int
of_fields_get(struct rbuf *r, void *obj, const struct of_field *f, size_t n)
{
	const uint8_t	*d = r->data + r->off;
	size_t		 left = rbuf_left(r);

	for (; n > 0; f++, n--) {
		if (left < f->size)
			break;
		if (!f->pad)
			of_field_load((uint8_t *)obj + f->off, d, f->size);
		d += f->size;
		left -= f->size;
	}
	r->off = (size_t)(d - r->data);
	return n > 0 ? -1 : 0;
}

const struct of_field of_port_features[6] = {
	OF_FIELD(struct of_port, curr),
	OF_FIELD(struct of_port, advertised),
	OF_FIELD(struct of_port, supported),
	OF_FIELD(struct of_port, peer),
	OF_FIELD(struct of_port, curr_speed),
	OF_FIELD(struct of_port, max_speed),
};

const struct of_field of_port_counters[12] = {
	OF_FIELD(struct of_port_stats, rx_packets),
	OF_FIELD(struct of_port_stats, tx_packets),
	OF_FIELD(struct of_port_stats, rx_bytes),
	OF_FIELD(struct of_port_stats, tx_bytes),
	OF_FIELD(struct of_port_stats, rx_dropped),
	OF_FIELD(struct of_port_stats, tx_dropped),
	OF_FIELD(struct of_port_stats, rx_errors),
	OF_FIELD(struct of_port_stats, tx_errors),
	OF_FIELD(struct of_port_stats, rx_frame_err),
	OF_FIELD(struct of_port_stats, rx_over_err),
	OF_FIELD(struct of_port_stats, rx_crc_err),
	OF_FIELD(struct of_port_stats, collisions),
};

/* ofp_flow_desc's fixed fields after its length, 1.5.1 section 7.3.5.2,
 * both ways. */
const struct of_field of_flow_desc15[9] = {
	OF_PAD(2),
	OF_FIELD(struct of_flow_info, table_id),
	OF_PAD(1),
	OF_FIELD(struct of_flow_info, priority),
	OF_FIELD(struct of_flow_info, idle_timeout),
	OF_FIELD(struct of_flow_info, hard_timeout),
	OF_FIELD(struct of_flow_info, flags),
	OF_FIELD(struct of_flow_info, importance),
	OF_FIELD(struct of_flow_info, cookie),
};

/* FLOW_REMOVED's fixed fields, 1.5.1 section 7.4.2. */
const struct of_field of_flow_removed15[6] = {
	OF_FIELD(struct of_flow_info, table_id),
	OF_FIELD(struct of_flow_info, reason),
	OF_FIELD(struct of_flow_info, priority),
	OF_FIELD(struct of_flow_info, idle_timeout),
	OF_FIELD(struct of_flow_info, hard_timeout),
	OF_FIELD(struct of_flow_info, cookie),
};

/* A body of min to max bytes (BAD_LEN otherwise): fixed-size messages
 * must be exactly their size (need_exact), the others at least their
 * fixed part (need_min). */
static int
need_len(const struct rbuf *r, size_t min, size_t max, enum of_err *err)
{
	if (rbuf_left(r) < min || rbuf_left(r) > max)
		return bad(err, OF_ERR_BAD_LEN);
	return 0;
}
#define need_exact(r, len, err)	need_len((r), (len), (len), (err))
#define need_min(r, len, err)	need_len((r), (len), SIZE_MAX, (err))

/* Header, 1.3 section 7.1 / 1.0 section 5.1. */

int
of_header_decode(struct rbuf *r, struct of_header *h)
{
	const uint8_t	*p = rbuf_ptr(r);

	if (rbuf_skip(r, OFP_HEADER_LEN) == -1)
		return -1;
	of_header_read(p, h);
	return h->length < OFP_HEADER_LEN ? -1 : 0;
}

static const struct {
	const char	*name;
	int16_t		 wire[2];	/* [VER10], [VER13] */
	uint8_t		 since, until;	/* 1.3 family: in_family() */
} of_types[OF_TYPE_UNKNOWN] = {
	[OF_HELLO] = { "HELLO", { OFP10_T_HELLO, OFP13_T_HELLO } },
	[OF_ERROR] = { "ERROR", { OFP10_T_ERROR, OFP13_T_ERROR } },
	[OF_ECHO_REQUEST] = { "ECHO_REQUEST",
	    { OFP10_T_ECHO_REQUEST, OFP13_T_ECHO_REQUEST } },
	[OF_ECHO_REPLY] = { "ECHO_REPLY",
	    { OFP10_T_ECHO_REPLY, OFP13_T_ECHO_REPLY } },
	[OF_EXPERIMENTER] = { "EXPERIMENTER",
	    { OFP10_T_VENDOR, OFP13_T_EXPERIMENTER } },
	[OF_FEATURES_REQUEST] = { "FEATURES_REQUEST",
	    { OFP10_T_FEATURES_REQUEST, OFP13_T_FEATURES_REQUEST } },
	[OF_FEATURES_REPLY] = { "FEATURES_REPLY",
	    { OFP10_T_FEATURES_REPLY, OFP13_T_FEATURES_REPLY } },
	[OF_GET_CONFIG_REQUEST] = { "GET_CONFIG_REQUEST",
	    { OFP10_T_GET_CONFIG_REQUEST, OFP13_T_GET_CONFIG_REQUEST } },
	[OF_GET_CONFIG_REPLY] = { "GET_CONFIG_REPLY",
	    { OFP10_T_GET_CONFIG_REPLY, OFP13_T_GET_CONFIG_REPLY } },
	[OF_SET_CONFIG] = { "SET_CONFIG",
	    { OFP10_T_SET_CONFIG, OFP13_T_SET_CONFIG } },
	[OF_PACKET_IN] = { "PACKET_IN",
	    { OFP10_T_PACKET_IN, OFP13_T_PACKET_IN } },
	[OF_FLOW_REMOVED] = { "FLOW_REMOVED",
	    { OFP10_T_FLOW_REMOVED, OFP13_T_FLOW_REMOVED } },
	[OF_PORT_STATUS] = { "PORT_STATUS",
	    { OFP10_T_PORT_STATUS, OFP13_T_PORT_STATUS } },
	[OF_PACKET_OUT] = { "PACKET_OUT",
	    { OFP10_T_PACKET_OUT, OFP13_T_PACKET_OUT } },
	[OF_FLOW_MOD] = { "FLOW_MOD", { OFP10_T_FLOW_MOD, OFP13_T_FLOW_MOD } },
	[OF_GROUP_MOD] = { "GROUP_MOD", { NOWIRE, OFP13_T_GROUP_MOD } },
	[OF_PORT_MOD] = { "PORT_MOD", { OFP10_T_PORT_MOD, OFP13_T_PORT_MOD } },
	[OF_TABLE_MOD] = { "TABLE_MOD", { NOWIRE, OFP13_T_TABLE_MOD } },
	[OF_MULTIPART_REQUEST] = { "MULTIPART_REQUEST",
	    { OFP10_T_STATS_REQUEST, OFP13_T_MULTIPART_REQUEST } },
	[OF_MULTIPART_REPLY] = { "MULTIPART_REPLY",
	    { OFP10_T_STATS_REPLY, OFP13_T_MULTIPART_REPLY } },
	[OF_BARRIER_REQUEST] = { "BARRIER_REQUEST",
	    { OFP10_T_BARRIER_REQUEST, OFP13_T_BARRIER_REQUEST } },
	[OF_BARRIER_REPLY] = { "BARRIER_REPLY",
	    { OFP10_T_BARRIER_REPLY, OFP13_T_BARRIER_REPLY } },
	[OF_QUEUE_GET_CONFIG_REQUEST] = { "QUEUE_GET_CONFIG_REQUEST",
	    { OFP10_T_QUEUE_GET_CONFIG_REQUEST,
	    OFP13_T_QUEUE_GET_CONFIG_REQUEST }, 0, OF_VERSION_13 },
	[OF_QUEUE_GET_CONFIG_REPLY] = { "QUEUE_GET_CONFIG_REPLY",
	    { OFP10_T_QUEUE_GET_CONFIG_REPLY,
	    OFP13_T_QUEUE_GET_CONFIG_REPLY }, 0, OF_VERSION_13 },
	[OF_ROLE_REQUEST] = { "ROLE_REQUEST",
	    { NOWIRE, OFP13_T_ROLE_REQUEST } },
	[OF_ROLE_REPLY] = { "ROLE_REPLY", { NOWIRE, OFP13_T_ROLE_REPLY } },
	[OF_GET_ASYNC_REQUEST] = { "GET_ASYNC_REQUEST",
	    { NOWIRE, OFP13_T_GET_ASYNC_REQUEST } },
	[OF_GET_ASYNC_REPLY] = { "GET_ASYNC_REPLY",
	    { NOWIRE, OFP13_T_GET_ASYNC_REPLY } },
	[OF_SET_ASYNC] = { "SET_ASYNC", { NOWIRE, OFP13_T_SET_ASYNC } },
	[OF_METER_MOD] = { "METER_MOD", { NOWIRE, OFP13_T_METER_MOD } },
	[OF_ROLE_STATUS] = { "ROLE_STATUS",
	    { NOWIRE, OFP14_T_ROLE_STATUS }, OF_VERSION_14, 0 },
	[OF_TABLE_STATUS] = { "TABLE_STATUS",
	    { NOWIRE, OFP14_T_TABLE_STATUS }, OF_VERSION_14, 0 },
	[OF_REQUESTFORWARD] = { "REQUESTFORWARD",
	    { NOWIRE, OFP14_T_REQUESTFORWARD }, OF_VERSION_14, 0 },
	[OF_BUNDLE_CONTROL] = { "BUNDLE_CONTROL",
	    { NOWIRE, OFP14_T_BUNDLE_CONTROL }, OF_VERSION_14, 0 },
	[OF_BUNDLE_ADD_MESSAGE] = { "BUNDLE_ADD_MESSAGE",
	    { NOWIRE, OFP14_T_BUNDLE_ADD_MESSAGE }, OF_VERSION_14, 0 },
	[OF_CONTROLLER_STATUS] = { "CONTROLLER_STATUS",
	    { NOWIRE, OFP15_T_CONTROLLER_STATUS }, OF_VERSION_15, 0 },
};

/*
 * HELLO, ERROR and the ECHOs keep their numbers in every version (1.3
 * section 6.3.1 relies on it to negotiate), so they map for any version;
 * the rest only for the versions sbsim speaks, each row in its range.
 */
static int
type_any_version(enum of_type t)
{
	return t == OF_HELLO || t == OF_ERROR || t == OF_ECHO_REQUEST ||
	    t == OF_ECHO_REPLY;
}

static int
version_known(uint8_t version)
{
	return version_slot(version) != -1;
}

static int
type_in_version(uint8_t version, enum of_type t)
{
	if (type_any_version(t))
		return 1;
	return version_known(version) &&
	    in_family(version, of_types[t].since, of_types[t].until);
}

static enum of_type
type_search(uint8_t version, uint8_t wire)
{
	int	col = ver_col(version);
	int	t;

	for (t = 0; t < OF_TYPE_UNKNOWN; t++)
		if (of_types[t].wire[col] == wire &&
		    type_in_version(version, t))
			return t;
	return OF_TYPE_UNKNOWN;
}

/* Every message goes through here: the known versions are looked up in
 * tables filled on first use, others searched. */
enum of_type
of_type_from_wire(uint8_t version, uint8_t wire)
{
	static uint8_t	by_wire[N_VERSIONS][256];
	static int	filled;
	size_t		v;
	int		w, slot = version_slot(version);

	if (slot == -1)
		return type_search(version, wire);
	if (!filled) {
		for (v = 0; v < N_VERSIONS; v++)
			for (w = 0; w < 256; w++)
				by_wire[v][w] = (uint8_t)type_search(
				    of_versions[v], (uint8_t)w);
		filled = 1;
	}
	return by_wire[slot][wire];
}

int
of_type_to_wire(uint8_t version, enum of_type t)
{
	if ((unsigned)t >= OF_TYPE_UNKNOWN || !type_in_version(version, t))
		return -1;
	return of_types[t].wire[ver_col(version)];
}

const char *
of_type_name(enum of_type t)
{
	if ((unsigned)t >= OF_TYPE_UNKNOWN)
		return "UNKNOWN";
	return of_types[t].name;
}

/*
 * Errors: 1.3 section 7.4.4 and 1.0 section 5.4.4.  1.0 lacks the
 * instruction, match, role and switch-config types; those map to the
 * nearest 1.0 code, and wherever 1.0 has nothing closer, to
 * BAD_REQUEST/EPERM (what a 1.0 switch answers to a request it refuses
 * without a more specific code):
 *   BAD_MULTIPART -> BAD_REQUEST/BAD_STAT, BAD_EXPERIMENTER -> BAD_VENDOR
 *   BAD_TABLE_ID, IS_SLAVE, BAD_PORT, ROLE_*, SWITCH_CONFIG_BAD_FLAGS
 *     -> BAD_REQUEST/EPERM
 *   BAD_OUT_GROUP -> BAD_ACTION/BAD_TYPE (1.0 has no group action)
 *   BAD_INST_UNKNOWN -> BAD_ACTION/BAD_TYPE, BAD_INST_LEN -> BAD_ACTION/
 *     BAD_LEN, BAD_INST_TABLE_ID -> BAD_ACTION/BAD_ARGUMENT (1.0 carries
 *     actions where 1.3 carries instructions)
 *   BAD_MATCH_LEN -> BAD_REQUEST/BAD_LEN, other BAD_MATCH_* ->
 *     BAD_REQUEST/EPERM (no match error type in 1.0)
 *   FLOW_TABLE_FULL -> ALL_TABLES_FULL, FLOW_BAD_TIMEOUT ->
 *     BAD_EMERG_TIMEOUT (the only timeout error 1.0 has),
 *   FLOW_BAD_TABLE_ID, FLOW_BAD_FLAGS -> FLOW_MOD_FAILED/EPERM
 *   GROUP_* -> BAD_REQUEST/EPERM (never sent: 1.0 has no groups, its
 *     GROUP_MOD is answered BAD_TYPE before any group error)
 *   METER_* -> BAD_REQUEST/EPERM (never sent: 1.0 has no meters)
 */
struct err_wire {
	const char	*name;
	uint16_t	 type[2];	/* [VER10], [VER13] */
	uint16_t	 code[2];
};

#define E(n, t10, c10, t13, c13)					\
	[OF_ERR_##n] = { #n, { OFP10_ET_##t10, OFP13_ET_##t13 },	\
	    { OFP10_##c10, OFP13_##c13 } }

static const struct err_wire of_errs[OF_ERR__MAX] = {
	E(NONE, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_EPERM),
	E(HELLO_INCOMPATIBLE, HELLO_FAILED, HFC_INCOMPATIBLE,
	    HELLO_FAILED, HFC_INCOMPATIBLE),
	E(BAD_VERSION, BAD_REQUEST, BRC_BAD_VERSION,
	    BAD_REQUEST, BRC_BAD_VERSION),
	E(BAD_TYPE, BAD_REQUEST, BRC_BAD_TYPE, BAD_REQUEST, BRC_BAD_TYPE),
	E(BAD_MULTIPART, BAD_REQUEST, BRC_BAD_STAT,
	    BAD_REQUEST, BRC_BAD_MULTIPART),
	E(BAD_EXPERIMENTER, BAD_REQUEST, BRC_BAD_VENDOR,
	    BAD_REQUEST, BRC_BAD_EXPERIMENTER),
	E(BAD_LEN, BAD_REQUEST, BRC_BAD_LEN, BAD_REQUEST, BRC_BAD_LEN),
	E(BAD_TABLE_ID, BAD_REQUEST, BRC_EPERM,
	    BAD_REQUEST, BRC_BAD_TABLE_ID),
	E(IS_SLAVE, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_IS_SLAVE),
	E(BAD_PORT, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_BAD_PORT),
	E(BUFFER_UNKNOWN, BAD_REQUEST, BRC_BUFFER_UNKNOWN,
	    BAD_REQUEST, BRC_BUFFER_UNKNOWN),
	E(BAD_ACTION_TYPE, BAD_ACTION, BAC_BAD_TYPE, BAD_ACTION, BAC_BAD_TYPE),
	E(BAD_ACTION_LEN, BAD_ACTION, BAC_BAD_LEN, BAD_ACTION, BAC_BAD_LEN),
	E(BAD_OUT_PORT, BAD_ACTION, BAC_BAD_OUT_PORT,
	    BAD_ACTION, BAC_BAD_OUT_PORT),
	E(BAD_ACTION_ARGUMENT, BAD_ACTION, BAC_BAD_ARGUMENT,
	    BAD_ACTION, BAC_BAD_ARGUMENT),
	E(BAD_OUT_GROUP, BAD_ACTION, BAC_BAD_TYPE,
	    BAD_ACTION, BAC_BAD_OUT_GROUP),
	E(BAD_INST_UNKNOWN, BAD_ACTION, BAC_BAD_TYPE,
	    BAD_INSTRUCTION, BIC_UNKNOWN_INST),
	E(BAD_INST_LEN, BAD_ACTION, BAC_BAD_LEN, BAD_INSTRUCTION, BIC_BAD_LEN),
	E(BAD_INST_TABLE_ID, BAD_ACTION, BAC_BAD_ARGUMENT,
	    BAD_INSTRUCTION, BIC_BAD_TABLE_ID),
	E(BAD_MATCH_TYPE, BAD_REQUEST, BRC_EPERM, BAD_MATCH, BMC_BAD_TYPE),
	E(BAD_MATCH_LEN, BAD_REQUEST, BRC_BAD_LEN, BAD_MATCH, BMC_BAD_LEN),
	E(BAD_MATCH_FIELD, BAD_REQUEST, BRC_EPERM, BAD_MATCH, BMC_BAD_FIELD),
	E(BAD_MATCH_VALUE, BAD_REQUEST, BRC_EPERM, BAD_MATCH, BMC_BAD_VALUE),
	E(BAD_MATCH_MASK, BAD_REQUEST, BRC_EPERM, BAD_MATCH, BMC_BAD_MASK),
	E(BAD_MATCH_PREREQ, BAD_REQUEST, BRC_EPERM, BAD_MATCH, BMC_BAD_PREREQ),
	E(BAD_MATCH_DUP_FIELD, BAD_REQUEST, BRC_EPERM,
	    BAD_MATCH, BMC_DUP_FIELD),
	E(BAD_MATCH_WILDCARDS, BAD_REQUEST, BRC_EPERM,
	    BAD_MATCH, BMC_BAD_WILDCARDS),
	E(FLOW_TABLE_FULL, FLOW_MOD_FAILED, FMFC_ALL_TABLES_FULL,
	    FLOW_MOD_FAILED, FMFC_TABLE_FULL),
	E(FLOW_BAD_TABLE_ID, FLOW_MOD_FAILED, FMFC_EPERM,
	    FLOW_MOD_FAILED, FMFC_BAD_TABLE_ID),
	E(FLOW_OVERLAP, FLOW_MOD_FAILED, FMFC_OVERLAP,
	    FLOW_MOD_FAILED, FMFC_OVERLAP),
	E(FLOW_BAD_TIMEOUT, FLOW_MOD_FAILED, FMFC_BAD_EMERG_TIMEOUT,
	    FLOW_MOD_FAILED, FMFC_BAD_TIMEOUT),
	E(FLOW_BAD_COMMAND, FLOW_MOD_FAILED, FMFC_BAD_COMMAND,
	    FLOW_MOD_FAILED, FMFC_BAD_COMMAND),
	E(FLOW_BAD_FLAGS, FLOW_MOD_FAILED, FMFC_EPERM,
	    FLOW_MOD_FAILED, FMFC_BAD_FLAGS),
	E(PORT_MOD_BAD_PORT, PORT_MOD_FAILED, PMFC_BAD_PORT,
	    PORT_MOD_FAILED, PMFC_BAD_PORT),
	E(PORT_MOD_BAD_HW_ADDR, PORT_MOD_FAILED, PMFC_BAD_HW_ADDR,
	    PORT_MOD_FAILED, PMFC_BAD_HW_ADDR),
	E(ROLE_STALE, BAD_REQUEST, BRC_EPERM, ROLE_REQUEST_FAILED, RRFC_STALE),
	E(ROLE_BAD_ROLE, BAD_REQUEST, BRC_EPERM,
	    ROLE_REQUEST_FAILED, RRFC_BAD_ROLE),
	E(SWITCH_CONFIG_BAD_FLAGS, BAD_REQUEST, BRC_EPERM,
	    SWITCH_CONFIG_FAILED, SCFC_BAD_FLAGS),
	E(GROUP_EXISTS, BAD_REQUEST, BRC_EPERM,
	    GROUP_MOD_FAILED, GMFC_GROUP_EXISTS),
	E(GROUP_INVALID, BAD_REQUEST, BRC_EPERM,
	    GROUP_MOD_FAILED, GMFC_INVALID_GROUP),
	E(GROUP_OUT_OF_GROUPS, BAD_REQUEST, BRC_EPERM,
	    GROUP_MOD_FAILED, GMFC_OUT_OF_GROUPS),
	E(GROUP_CHAINING, BAD_REQUEST, BRC_EPERM,
	    GROUP_MOD_FAILED, GMFC_CHAINING_UNSUPPORTED),
	E(GROUP_UNKNOWN, BAD_REQUEST, BRC_EPERM,
	    GROUP_MOD_FAILED, GMFC_UNKNOWN_GROUP),
	E(GROUP_BAD_TYPE, BAD_REQUEST, BRC_EPERM,
	    GROUP_MOD_FAILED, GMFC_BAD_TYPE),
	E(GROUP_BAD_COMMAND, BAD_REQUEST, BRC_EPERM,
	    GROUP_MOD_FAILED, GMFC_BAD_COMMAND),
	E(GROUP_BAD_BUCKET, BAD_REQUEST, BRC_EPERM,
	    GROUP_MOD_FAILED, GMFC_BAD_BUCKET),
	E(GROUP_BAD_WATCH, BAD_REQUEST, BRC_EPERM,
	    GROUP_MOD_FAILED, GMFC_BAD_WATCH),
	E(METER_EXISTS, BAD_REQUEST, BRC_EPERM,
	    METER_MOD_FAILED, MMFC_METER_EXISTS),
	E(METER_INVALID, BAD_REQUEST, BRC_EPERM,
	    METER_MOD_FAILED, MMFC_INVALID_METER),
	E(METER_UNKNOWN, BAD_REQUEST, BRC_EPERM,
	    METER_MOD_FAILED, MMFC_UNKNOWN_METER),
	E(METER_BAD_COMMAND, BAD_REQUEST, BRC_EPERM,
	    METER_MOD_FAILED, MMFC_BAD_COMMAND),
	E(METER_BAD_FLAGS, BAD_REQUEST, BRC_EPERM,
	    METER_MOD_FAILED, MMFC_BAD_FLAGS),
	E(METER_BAD_RATE, BAD_REQUEST, BRC_EPERM,
	    METER_MOD_FAILED, MMFC_BAD_RATE),
	E(METER_BAD_BURST, BAD_REQUEST, BRC_EPERM,
	    METER_MOD_FAILED, MMFC_BAD_BURST),
	E(METER_BAD_BAND, BAD_REQUEST, BRC_EPERM,
	    METER_MOD_FAILED, MMFC_BAD_BAND),
	E(METER_BAD_BAND_VALUE, BAD_REQUEST, BRC_EPERM,
	    METER_MOD_FAILED, MMFC_BAD_BAND_VALUE),
	E(METER_OUT_OF_METERS, BAD_REQUEST, BRC_EPERM,
	    METER_MOD_FAILED, MMFC_OUT_OF_METERS),
	E(METER_OUT_OF_BANDS, BAD_REQUEST, BRC_EPERM,
	    METER_MOD_FAILED, MMFC_OUT_OF_BANDS),
	/* 1.4's error types (of_err14_to_wire); 1.3 never sends them. */
	E(BAD_PROPERTY_TYPE, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_EPERM),
	E(BAD_PROPERTY_LEN, BAD_REQUEST, BRC_BAD_LEN, BAD_REQUEST,
	    BRC_BAD_LEN),
	E(ASYNC_INVALID, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_EPERM),
	E(ASYNC_UNSUPPORTED, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_EPERM),
	E(TABLE_FEATURES_BAD_FEATURES, BAD_REQUEST, BRC_EPERM, BAD_REQUEST,
	    BRC_EPERM),
	E(MONITOR_OUT_OF_ROOM, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_EPERM),
	E(MONITOR_EXISTS, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_EPERM),
	E(MONITOR_UNKNOWN, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_EPERM),
	E(MONITOR_BAD_COMMAND, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_EPERM),
	E(MONITOR_BAD_FLAGS, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_EPERM),
	E(MONITOR_BAD_TABLE_ID, BAD_REQUEST, BRC_EPERM, BAD_REQUEST,
	    BRC_EPERM),
	E(TABLE_MOD_BAD_TABLE, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_EPERM),
	E(TABLE_MOD_BAD_CONFIG, BAD_REQUEST, BRC_EPERM, BAD_REQUEST,
	    BRC_EPERM),
	E(GROUP_LOOP, BAD_REQUEST, BRC_EPERM, GROUP_MOD_FAILED, GMFC_LOOP),
	E(GROUP_CHAINED, BAD_REQUEST, BRC_EPERM,
	    GROUP_MOD_FAILED, GMFC_CHAINED_GROUP),
	E(BAD_EXP_TYPE, BAD_REQUEST, BRC_BAD_SUBTYPE,
	    BAD_REQUEST, BRC_BAD_EXP_TYPE),
	E(EPERM, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_EPERM),
	E(BAD_ACTION_EXPERIMENTER, BAD_ACTION, BAC_BAD_VENDOR,
	    BAD_ACTION, BAC_BAD_EXPERIMENTER),
	E(BAD_ACTION_EXP_TYPE, BAD_ACTION, BAC_BAD_VENDOR_TYPE,
	    BAD_ACTION, BAC_BAD_EXP_TYPE),
	/* 1.5's codes (of_err14_to_wire); 1.3 never sends the first two. */
	E(GROUP_UNKNOWN_BUCKET, BAD_REQUEST, BRC_EPERM,
	    GROUP_MOD_FAILED, GMFC_BAD_BUCKET),
	E(GROUP_BUCKET_EXISTS, BAD_REQUEST, BRC_EPERM,
	    GROUP_MOD_FAILED, GMFC_BAD_BUCKET),
	E(GROUP_OUT_OF_BUCKETS, BAD_REQUEST, BRC_EPERM,
	    GROUP_MOD_FAILED, GMFC_OUT_OF_BUCKETS),
	/* Nicira's own codes: of_nx_err_to_wire(), not these. */
	E(NX_TLV_BAD_COMMAND, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_EPERM),
	E(NX_TLV_BAD_OPT_LEN, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_EPERM),
	E(NX_TLV_BAD_FIELD_IDX, BAD_REQUEST, BRC_EPERM, BAD_REQUEST,
	    BRC_EPERM),
	E(NX_TLV_TABLE_FULL, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_EPERM),
	E(NX_TLV_ALREADY_MAPPED, BAD_REQUEST, BRC_EPERM, BAD_REQUEST,
	    BRC_EPERM),
	E(NX_TLV_DUP_ENTRY, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_EPERM),
	E(NX_TLV_INVALID_DEL, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_EPERM),
	E(NX_INVALID_TLV_FIELD, BAD_REQUEST, BRC_EPERM, BAD_REQUEST,
	    BRC_EPERM),
	E(NX_MUST_BE_ZERO, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_EPERM),
	E(NX_BAD_CONJUNCTION, BAD_REQUEST, BRC_EPERM, BAD_REQUEST, BRC_EPERM),
	/* 1.3's own codes; in 1.0 Nicira's (of_nx_errs). */
	E(BAD_SET_TYPE, BAD_ACTION, BAC_BAD_ARGUMENT,
	    BAD_ACTION, BAC_BAD_SET_TYPE),
	E(BAD_SET_LEN, BAD_ACTION, BAC_BAD_ARGUMENT,
	    BAD_ACTION, BAC_BAD_SET_LEN),
	E(BAD_SET_ARGUMENT, BAD_ACTION, BAC_BAD_ARGUMENT,
	    BAD_ACTION, BAC_BAD_SET_ARGUMENT),
};

/*
 * Nicira's error codes (Open vSwitch's ofp-errors.h "NX1.0-1.1(t,c),
 * NX1.2+(c)"): in 1.2 and later an OFPET_EXPERIMENTER error (exp_code,
 * experimenter 0x2320); in 1.0 NXET_VENDOR/NXVC_VENDOR_ERROR with an
 * nx_vendor_error (vendor, type, code) before the data.  code12 0: a
 * standard code in 1.3 (OFPBAC_BAD_SET_*: "NX1.0-1.1(1,523), OF1.2+").
 */
#define NXET_VENDOR		0xb0c2
#define NXVC_VENDOR_ERROR	0
#define OFPET_EXPERIMENTER	0xffff
#define OF_EXP_NICIRA_ID	0x00002320u
static const struct {
	enum of_err	e;
	uint16_t	type10, code10, code12;
} of_nx_errs[] = {
	{ OF_ERR_NX_TLV_BAD_COMMAND, 1, 527, 16 },
	{ OF_ERR_NX_TLV_BAD_OPT_LEN, 1, 528, 17 },
	{ OF_ERR_NX_TLV_BAD_FIELD_IDX, 1, 529, 18 },
	{ OF_ERR_NX_TLV_TABLE_FULL, 1, 530, 19 },
	{ OF_ERR_NX_TLV_ALREADY_MAPPED, 1, 531, 20 },
	{ OF_ERR_NX_TLV_DUP_ENTRY, 1, 532, 21 },
	{ OF_ERR_NX_TLV_INVALID_DEL, 1, 537, 38 },
	{ OF_ERR_NX_INVALID_TLV_FIELD, 1, 536, 37 },
	{ OF_ERR_NX_MUST_BE_ZERO, 1, 515, 4 },
	{ OF_ERR_NX_BAD_CONJUNCTION, 2, 526, 15 },
	{ OF_ERR_BAD_SET_TYPE, 1, 523, 0 },
	{ OF_ERR_BAD_SET_LEN, 1, 524, 0 },
	{ OF_ERR_BAD_SET_ARGUMENT, 1, 525, 0 },
	/* 1.0 has no BAD_MATCH type: Open vSwitch's NX1.0 codes for it. */
	{ OF_ERR_BAD_MATCH_VALUE, 1, 258, 0 },
	{ OF_ERR_BAD_MATCH_MASK, 1, 259, 0 },
	{ OF_ERR_BAD_MATCH_PREREQ, 1, 260, 0 },
	{ OF_ERR_BAD_MATCH_DUP_FIELD, 1, 261, 0 },
	{ OF_ERR_BAD_MATCH_WILDCARDS, 1, 262, 0 },
	{ OF_ERR_BAD_MATCH_FIELD, 0, 263, 0 },
};

static int
of_nx_err_find(enum of_err e)
{
	size_t	i;

	for (i = 0; i < sizeof(of_nx_errs) / sizeof(of_nx_errs[0]); i++)
		if (of_nx_errs[i].e == e)
			return (int)i;
	return -1;
}

/* A Nicira code's type and code fields (of_err_to_wire). */
static int
of_nx_err_to_wire(uint8_t version, enum of_err e, uint16_t *type,
    uint16_t *code)
{
	int	i = of_nx_err_find(e);

	if (i < 0 || (version != OF_VERSION_10 && of_nx_errs[i].code12 == 0))
		return 0;
	*type = version != OF_VERSION_10 ? OFPET_EXPERIMENTER : NXET_VENDOR;
	*code = version != OF_VERSION_10 ? of_nx_errs[i].code12 :
	    NXVC_VENDOR_ERROR;
	return 1;
}

/* What follows a Nicira code's type and code, before the data. */
static void
of_nx_err_body(struct wbuf *w, uint8_t version, enum of_err e)
{
	int	i = of_nx_err_find(e);

	if (i < 0 || (version != OF_VERSION_10 && of_nx_errs[i].code12 == 0))
		return;
	wbuf_put_u32(w, OF_EXP_NICIRA_ID);
	if (version != OF_VERSION_10)
		return;
	wbuf_put_u16(w, of_nx_errs[i].type10);
	wbuf_put_u16(w, of_nx_errs[i].code10);
}

#undef E

const char *
of_err_name(enum of_err e)
{
	if ((unsigned)e >= OF_ERR__MAX)
		return "UNKNOWN";
	return of_errs[e].name;
}

/* Versions other than 1.0 use the 1.3 table (1.1 and 1.2 are close to it). */
void
of_err_to_wire(uint8_t version, enum of_err e, uint16_t *type,
    uint16_t *code)
{
	int	col = ver_col(version);

	if ((unsigned)e >= OF_ERR__MAX)
		e = OF_ERR_NONE;
	if (of_err14_to_wire(version, e, type, code) ||
	    of_nx_err_to_wire(version, e, type, code))
		return;
	*type = of_errs[e].type[col];
	*code = of_errs[e].code[col];
}

/* Message framing. */

size_t
of_msg_begin(struct wbuf *w, uint8_t version, enum of_type t, uint32_t xid)
{
	size_t	start = w->len;
	int	wire = of_type_to_wire(version, t);

	if (wire == -1) {
		w->err = 1;
		return start;
	}
	wbuf_put_u8(w, version);
	wbuf_put_u8(w, (uint8_t)wire);
	wbuf_put_u16(w, 0);		/* length: of_msg_end */
	wbuf_put_u32(w, xid);
	return start;
}

int
of_msg_end(struct wbuf *w, size_t start)
{
	size_t	len;

	if (w->err || start > w->len) {
		w->err = 1;
		return -1;
	}
	len = w->len - start;
	if (len < OFP_HEADER_LEN || len > OF_MAX_MSG) {
		w->err = 1;
		return -1;
	}
	return wbuf_set_u16(w, start + 2, (uint16_t)len);
}

int
of_simple_encode(struct wbuf *w, uint8_t version, enum of_type t,
    uint32_t xid)
{
	return of_msg_end(w, of_msg_begin(w, version, t, xid));
}

/* Zeros up to a multiple of 8 counted from start, not from the wbuf. */
static void
pad8_from(struct wbuf *w, size_t start)
{
	size_t	rem = (w->len - start) % 8;

	if (rem != 0)
		wbuf_put_zero(w, 8 - rem);
}

/* HELLO, 1.3 section 7.5.1 (1.0 section 5.5.1: no body). */

int
of_hello_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    uint32_t bitmap)
{
	size_t	start, el;

	start = of_msg_begin(w, version, OF_HELLO, xid);
	if (of_v13plus(version) && bitmap != 0) {
		el = w->len;
		wbuf_put_u16(w, OFP13_HET_VERSIONBITMAP);
		wbuf_put_u16(w, OFP13_HELLO_ELEM_HDR_LEN + sizeof(bitmap));
		wbuf_put_u32(w, bitmap);
		pad8_from(w, el);
	}
	return of_msg_end(w, start);
}

/*
 * Elements are type, length (header included, padding excluded), body,
 * padding to 8.  Unknown elements are skipped; the padding of the last
 * one may be missing.  Only the first bitmap word (versions 0-31) matters.
 */
int
of_hello_decode(struct rbuf *r, uint32_t *bitmap)
{
	struct rbuf	el;
	uint16_t	type, len;
	size_t		pad;

	*bitmap = 0;
	while (rbuf_left(r) > 0) {
		if (rbuf_get_u16(r, &type) == -1 ||
		    rbuf_get_u16(r, &len) == -1 ||
		    len < OFP13_HELLO_ELEM_HDR_LEN ||
		    rbuf_sub(r, &el, len - OFP13_HELLO_ELEM_HDR_LEN) == -1)
			return -1;
		pad = (8 - len % 8) % 8;
		rbuf_skip(r, pad < rbuf_left(r) ? pad : rbuf_left(r));
		if (type == OFP13_HET_VERSIONBITMAP && *bitmap == 0 &&
		    rbuf_get_u32(&el, bitmap) == -1)
			return -1;
	}
	return 0;
}

static int
highest_bit(uint32_t v)
{
	int	b = -1;

	while (v != 0) {
		v >>= 1;
		b++;
	}
	return b;
}

/*
 * 1.3 section 6.3.1: with bitmaps on both sides the highest common bit;
 * otherwise the smaller of the two header versions (ours is the highest
 * in our bitmap), provided we support it.
 */
uint8_t
of_negotiate(uint8_t peer_version, uint32_t peer_bitmap, uint32_t our_bitmap)
{
	int	v;

	if (peer_bitmap != 0) {
		v = highest_bit(peer_bitmap & our_bitmap);
		return v > 0 ? (uint8_t)v : 0;
	}
	v = highest_bit(our_bitmap);
	if (peer_version < v)
		v = peer_version;
	if (v <= 0 || (our_bitmap & 1u << v) == 0)
		return 0;
	return (uint8_t)v;
}

/* ERROR, 1.3 section 7.4.4 / 1.0 section 5.4.4. */

int
of_error_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    enum of_err e, const void *data, size_t len)
{
	uint16_t	type, code;
	size_t		start;

	of_err_to_wire(version, e, &type, &code);
	start = of_msg_begin(w, version, OF_ERROR, xid);
	wbuf_put_u16(w, type);
	wbuf_put_u16(w, code);
	of_nx_err_body(w, version, e);
	if (len > OFP_ERROR_DATA_MAX)
		len = OFP_ERROR_DATA_MAX;
	if (data != NULL)
		wbuf_put_bytes(w, data, len);
	return of_msg_end(w, start);
}

int
of_error_decode(struct rbuf *r, uint16_t *type, uint16_t *code)
{
	if (rbuf_get_u16(r, type) == -1 || rbuf_get_u16(r, code) == -1)
		return -1;
	return 0;
}

/* ECHO_REQUEST / ECHO_REPLY, 1.3 section 7.5.2-3: arbitrary data. */
int
of_echo_encode(struct wbuf *w, uint8_t version, enum of_type t,
    uint32_t xid, const void *data, size_t len)
{
	size_t	start;

	if (t != OF_ECHO_REQUEST && t != OF_ECHO_REPLY) {
		w->err = 1;
		return -1;
	}
	start = of_msg_begin(w, version, t, xid);
	if (data != NULL)
		wbuf_put_bytes(w, data, len);
	return of_msg_end(w, start);
}

/* A NUL-terminated, NUL-padded string field of n bytes. */
void
ofp_put_str(struct wbuf *w, const char *s, size_t n)
{
	size_t	len = s != NULL ? strnlen(s, n - 1) : 0;

	wbuf_put_bytes(w, s, len);
	wbuf_put_zero(w, n - len);
}

/* ofp_phy_port, 1.0 section 5.2.1 (48 bytes), or ofp_port, 1.3 section
 * 7.2.1 (64 bytes): a 32-bit port_no, padding and the two speeds are
 * what 1.3 adds. */
int
ofp_port_encode(struct wbuf *w, uint8_t version, const struct of_port *p)
{
	int	v10 = version == OF_VERSION_10;

	if (version >= OF_VERSION_14) {
		ofp14_port_encode(w, p);
		return w->err ? -1 : 0;
	}
	if (v10)
		wbuf_put_u16(w, of_port_narrow10(p->port_no));
	else {
		wbuf_put_u32(w, p->port_no);
		wbuf_put_zero(w, 4);
	}
	wbuf_put_bytes(w, p->hw_addr, OFP_ETH_ALEN);
	if (!v10)
		wbuf_put_zero(w, 2);
	ofp_put_str(w, p->name, OFP_MAX_PORT_NAME_LEN);
	wbuf_put_u32(w, p->config);
	wbuf_put_u32(w, p->state);
	of_fields_put(w, p, of_port_features,
	    v10 ? OF_PORT_FEATURES_10 : OF_NFIELDS(of_port_features));
	return w->err ? -1 : 0;
}

/* The controller's side: one port of FEATURES_REPLY (1.0), PORT_DESC or
 * PORT_STATUS, the layouts above; -1 on short data. */
int
of_port_decode(uint8_t version, struct rbuf *r, struct of_port *p)
{
	uint16_t	p10;

	if (version >= OF_VERSION_14)
		return ofp14_port_decode(r, p);
	memset(p, 0, sizeof(*p));
	if (version == OF_VERSION_10) {
		if (rbuf_get_u16(r, &p10) == -1)
			return -1;
		p->port_no = of_port_widen10(p10);
	} else if (rbuf_get_u32(r, &p->port_no) == -1 || rbuf_skip(r, 4) == -1)
		return -1;
	if (rbuf_get_bytes(r, p->hw_addr, OFP_ETH_ALEN) == -1 ||
	    (version != OF_VERSION_10 && rbuf_skip(r, 2) == -1) ||
	    rbuf_get_bytes(r, p->name, OFP_MAX_PORT_NAME_LEN) == -1 ||
	    rbuf_get_u32(r, &p->config) == -1 ||
	    rbuf_get_u32(r, &p->state) == -1)
		return -1;
	p->name[OFP_MAX_PORT_NAME_LEN - 1] = '\0';
	return of_fields_get(r, p, of_port_features,
	    version == OF_VERSION_10 ? OF_PORT_FEATURES_10 :
	    OF_NFIELDS(of_port_features));
}

/* ofp_match header, the TLVs, padding to 8. */
#define MATCH_WIRE_MAX							\
	(OXM_MATCH_HDR_LEN + OF_MATCH_MAX + OXM_MATCH_ALIGN)

void
ofp_match_put(struct wbuf *w, uint8_t version, const struct of_match *m)
{
	uint8_t		buf[MATCH_WIRE_MAX];
	struct wbuf	s;
	struct of_match	all;

	if (m == NULL) {
		of_match_init(&all);
		m = &all;
	}
	wbuf_init(&s, buf, sizeof(buf));
	if (version == OF_VERSION_10)
		of_match_encode10(&s, m);
	else
		of_match_encode13(&s, m);
	if (s.err) {
		w->err = 1;
		return;
	}
	wbuf_put_bytes(w, buf, s.len);
}

/* FEATURES_REPLY, 1.3 section 7.3.1 / 1.0 section 5.3.1. */
int
of_features_reply_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    const struct of_features *f, const struct of_port *ports, size_t nports)
{
	size_t	start, i;

	start = of_msg_begin(w, version, OF_FEATURES_REPLY, xid);
	wbuf_put_u64(w, f->datapath_id);
	wbuf_put_u32(w, f->n_buffers);
	wbuf_put_u8(w, f->n_tables);
	if (version == OF_VERSION_10) {
		wbuf_put_zero(w, 3);
		wbuf_put_u32(w, f->capabilities);
		wbuf_put_u32(w, f->actions);
		for (i = 0; i < nports; i++)
			ofp_port_encode(w, version, &ports[i]);
	} else {
		wbuf_put_u8(w, f->auxiliary_id);
		wbuf_put_zero(w, 2);
		wbuf_put_u32(w, f->capabilities);
		wbuf_put_u32(w, 0);		/* reserved */
	}
	return of_msg_end(w, start);
}

/* Fixed part only; 1.0's ports that follow are left unread. */
int
of_features_reply_decode(uint8_t version, struct rbuf *r,
    struct of_features *f)
{
	memset(f, 0, sizeof(*f));
	if (rbuf_left(r) < OFP13_FEATURES_REPLY_LEN - OFP_HEADER_LEN ||
	    rbuf_get_u64(r, &f->datapath_id) == -1 ||
	    rbuf_get_u32(r, &f->n_buffers) == -1 ||
	    rbuf_get_u8(r, &f->n_tables) == -1)
		return -1;
	if (version == OF_VERSION_10) {
		rbuf_skip(r, 3);
		rbuf_get_u32(r, &f->capabilities);
		rbuf_get_u32(r, &f->actions);
	} else {
		rbuf_get_u8(r, &f->auxiliary_id);
		rbuf_skip(r, 2);
		rbuf_get_u32(r, &f->capabilities);
		rbuf_skip(r, 4);		/* reserved */
	}
	return 0;
}

/* GET_CONFIG_REPLY / SET_CONFIG, 1.3 section 7.3.2 / 1.0 section 5.3.2. */
int
of_switch_config_encode(struct wbuf *w, uint8_t version, enum of_type t,
    uint32_t xid, uint16_t flags, uint16_t miss_send_len)
{
	size_t	start;

	if (t != OF_GET_CONFIG_REPLY && t != OF_SET_CONFIG) {
		w->err = 1;
		return -1;
	}
	start = of_msg_begin(w, version, t, xid);
	wbuf_put_u16(w, flags);
	wbuf_put_u16(w, miss_send_len);
	return of_msg_end(w, start);
}

int
of_switch_config_decode(struct rbuf *r, uint16_t *flags,
    uint16_t *miss_send_len)
{
	if (rbuf_left(r) != OFP_SWITCH_CONFIG_LEN - OFP_HEADER_LEN)
		return -1;
	rbuf_get_u16(r, flags);
	rbuf_get_u16(r, miss_send_len);
	return 0;
}

/* PACKET_IN, 1.3 section 7.4.1 / 1.0 section 5.4.1. */

/* 1.3's fixed fields before the match, both ways. */
static const struct of_field packet_in13_fields[] = {
	OF_FIELD(struct of_packet_in, buffer_id),
	OF_FIELD(struct of_packet_in, total_len),
	OF_FIELD(struct of_packet_in, reason),
	OF_FIELD(struct of_packet_in, table_id),
	OF_FIELD(struct of_packet_in, cookie),
};

static void
packet_in13_body(struct wbuf *w, const struct of_packet_in *pi)
{
	struct of_match	m;
	uint8_t		port[4];

	port[0] = pi->in_port >> 24;
	port[1] = pi->in_port >> 16;
	port[2] = pi->in_port >> 8;
	port[3] = pi->in_port;
	of_match_init(&m);
	if (of_match_set(&m, OXM_IN_PORT, port, NULL, sizeof(port)) == -1)
		w->err = 1;
	of_fields_put(w, pi, packet_in13_fields,
	    OF_NFIELDS(packet_in13_fields));
	ofp_match_put(w, OF_VERSION_13, &m);
	wbuf_put_zero(w, OFP13_PACKET_IN_PAD);
}

int
of_packet_in_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    const struct of_packet_in *pi)
{
	size_t	start;

	start = of_msg_begin(w, version, OF_PACKET_IN, xid);
	if (version == OF_VERSION_10) {
		wbuf_put_u32(w, pi->buffer_id);
		wbuf_put_u16(w, pi->total_len);
		wbuf_put_u16(w, of_port_narrow10(pi->in_port));
		wbuf_put_u8(w, pi->reason);
		wbuf_put_zero(w, 1);
	} else
		packet_in13_body(w, pi);
	if (pi->data != NULL)
		wbuf_put_bytes(w, pi->data, pi->data_len);
	return of_msg_end(w, start);
}

/* The exact IN_PORT of a canonical match (of_match.h), or 0 when absent. */
static uint32_t
match_in_port(const struct of_match *m)
{
	struct rbuf	r;
	uint32_t	hdr, port;

	rbuf_init(&r, m->oxm, m->len);
	while (rbuf_get_u32(&r, &hdr) == 0) {
		if (hdr == OXM_HEADER(OXM_IN_PORT, 0, 4))
			return rbuf_get_u32(&r, &port) == 0 ? port : 0;
		if (rbuf_skip(&r, OXM_HDR_LENGTH(hdr)) == -1)
			break;
	}
	return 0;
}

static int
packet_in13_decode(struct rbuf *r, struct of_packet_in *pi, enum of_err *err)
{
	struct of_match	m;

	if (need_min(r, OFP13_PACKET_IN_FIXED_BODY, err) == -1)
		return -1;
	of_fields_get(r, pi, packet_in13_fields,
	    OF_NFIELDS(packet_in13_fields));
	if (of_match_decode13(r, &m, err) == -1)
		return -1;
	if (rbuf_skip(r, OFP13_PACKET_IN_PAD) == -1)
		return bad(err, OF_ERR_BAD_LEN);
	pi->in_port = match_in_port(&m);
	return 0;
}

int
of_packet_in_decode(uint8_t version, struct rbuf *r, struct of_packet_in *pi,
    enum of_err *err)
{
	uint16_t	port;

	memset(pi, 0, sizeof(*pi));
	if (version == OF_VERSION_10) {
		if (need_min(r, OFP10_PACKET_IN_LEN - OFP_HEADER_LEN,
		    err) == -1)
			return -1;
		rbuf_get_u32(r, &pi->buffer_id);
		rbuf_get_u16(r, &pi->total_len);
		rbuf_get_u16(r, &port);
		rbuf_get_u8(r, &pi->reason);
		rbuf_skip(r, 1);
		pi->in_port = of_port_widen10(port);
	} else if (packet_in13_decode(r, pi, err) == -1)
		return -1;
	pi->data = rbuf_ptr(r);
	pi->data_len = rbuf_left(r);
	return 0;
}

/* PACKET_OUT, 1.3 section 7.3.7 / 1.0 section 5.3.6. */

/* The actions (alen bytes) and the frame after them. */
static int
packet_out_rest(struct rbuf *r, struct of_packet_out *po, uint16_t alen,
    enum of_err *err)
{
	po->actions = rbuf_ptr(r);
	po->actions_len = alen;
	if (rbuf_skip(r, alen) == -1)
		return bad(err, OF_ERR_BAD_LEN);
	po->data = rbuf_ptr(r);
	po->data_len = rbuf_left(r);
	return 0;
}

/*
 * 1.5.1 section 7.3.7: in_port moved into a match that follows
 * actions_len; a match without one says OFPP_CONTROLLER, as Open
 * vSwitch takes it.
 */
static int
packet_out15_decode(struct rbuf *r, struct of_packet_out *po,
    enum of_err *err)
{
	struct of_match	m;
	uint16_t	alen;

	if (need_min(r, OFP15_PACKET_OUT_FIXED_BODY, err) == -1)
		return -1;
	rbuf_get_u32(r, &po->buffer_id);
	rbuf_get_u16(r, &alen);
	rbuf_skip(r, 2);
	if (of_match_decode13(r, &m, err) == -1)
		return -1;
	po->in_port = match_in_port(&m);
	if (po->in_port == 0)
		po->in_port = OF_PORT_CONTROLLER;
	return packet_out_rest(r, po, alen, err);
}

int
of_packet_out_decode(uint8_t version, struct rbuf *r, struct of_packet_out *po,
    enum of_err *err)
{
	uint16_t	port, alen;

	memset(po, 0, sizeof(*po));
	if (version >= OF_VERSION_15)
		return packet_out15_decode(r, po, err);
	if (version == OF_VERSION_10) {
		if (need_min(r, OFP10_PACKET_OUT_BODY, err) == -1)
			return -1;
		rbuf_get_u32(r, &po->buffer_id);
		rbuf_get_u16(r, &port);
		po->in_port = of_port_widen10(port);
	} else {
		if (need_min(r, OFP13_PACKET_OUT_BODY, err) == -1)
			return -1;
		rbuf_get_u32(r, &po->buffer_id);
		rbuf_get_u32(r, &po->in_port);
	}
	rbuf_get_u16(r, &alen);
	if (version != OF_VERSION_10)
		rbuf_skip(r, 6);
	return packet_out_rest(r, po, alen, err);
}

int
of_packet_out_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    const struct of_packet_out *po)
{
	size_t	start;

	if (po->actions_len > UINT16_MAX) {
		w->err = 1;
		return -1;
	}
	start = of_msg_begin(w, version, OF_PACKET_OUT, xid);
	wbuf_put_u32(w, po->buffer_id);
	if (version == OF_VERSION_10) {
		wbuf_put_u16(w, of_port_narrow10(po->in_port));
		wbuf_put_u16(w, (uint16_t)po->actions_len);
	} else {
		wbuf_put_u32(w, po->in_port);
		wbuf_put_u16(w, (uint16_t)po->actions_len);
		wbuf_put_zero(w, 6);
	}
	if (po->actions_len > 0)
		wbuf_put_bytes(w, po->actions, po->actions_len);
	if (po->data != NULL)
		wbuf_put_bytes(w, po->data, po->data_len);
	return of_msg_end(w, start);
}

/* FLOW_MOD, 1.3 section 7.3.4.2 / 1.0 section 5.3.3. */

/*
 * 1.0 flags (SEND_FLOW_REM 1, CHECK_OVERLAP 2, EMERG 4) to OF_FF_*.
 * Unknown bits are refused as OVS does (ofputil_decode_flow_mod_flags).
 */
static int
ff10_to_13(uint16_t f10, uint16_t *f, enum of_err *err)
{
	if (f10 & ~(OFP10_FF_SEND_FLOW_REM | OFP10_FF_CHECK_OVERLAP |
	    OFP10_FF_EMERG))
		return bad(err, OF_ERR_FLOW_BAD_FLAGS);
	*f = 0;
	if (f10 & OFP10_FF_SEND_FLOW_REM)
		*f |= OF_FF_SEND_FLOW_REM;
	if (f10 & OFP10_FF_CHECK_OVERLAP)
		*f |= OF_FF_CHECK_OVERLAP;
	if (f10 & OFP10_FF_EMERG)
		*f |= OF_FF_EMERG;
	return 0;
}

static uint16_t
ff13_to_10(uint16_t f)
{
	uint16_t	f10 = 0;

	if (f & OF_FF_SEND_FLOW_REM)
		f10 |= OFP10_FF_SEND_FLOW_REM;
	if (f & OF_FF_CHECK_OVERLAP)
		f10 |= OFP10_FF_CHECK_OVERLAP;
	if (f & OF_FF_EMERG)
		f10 |= OFP10_FF_EMERG;
	return f10;
}

/* 1.0's OFPP_NONE means "no port" where 1.3 says OFPP_ANY. */
uint32_t
ofp_port10_filter(uint16_t p)
{
	return p == OFP10_PP_NONE ? OF_PORT_ANY : of_port_widen10(p);
}

uint16_t
ofp_port10_filter_out(uint32_t p)
{
	return p == OF_PORT_ANY ? OFP10_PP_NONE : of_port_narrow10(p);
}

/* 1.0's FLOW_MOD fields between its 16-bit command and its 16-bit
 * out_port (1.0 section 5.3.3), both ways. */
static const struct of_field flow_mod10_fields[] = {
	OF_FIELD(struct of_flow_mod, idle_timeout),
	OF_FIELD(struct of_flow_mod, hard_timeout),
	OF_FIELD(struct of_flow_mod, priority),
	OF_FIELD(struct of_flow_mod, buffer_id),
};

int
of_flow_mod10_fields(struct rbuf *r, struct of_flow_mod *fm, uint16_t *cmd,
    enum of_err *err)
{
	uint16_t	port, flags;

	rbuf_get_u64(r, &fm->cookie);
	rbuf_get_u16(r, cmd);
	of_fields_get(r, fm, flow_mod10_fields, OF_NFIELDS(flow_mod10_fields));
	rbuf_get_u16(r, &port);
	rbuf_get_u16(r, &flags);
	fm->out_port = ofp_port10_filter(port);
	fm->out_group = OF_GROUP_ANY;
	fm->table_id = 0;
	fm->cookie_mask = 0;
	return ff10_to_13(flags, &fm->flags, err);
}

static int
flow_mod10_decode(struct rbuf *r, struct of_flow_mod *fm, enum of_err *err)
{
	uint16_t	cmd;

	if (need_min(r, OFP10_FLOW_MOD_BODY, err) == -1 ||
	    of_match_decode10(r, &fm->match, err) == -1 ||
	    of_flow_mod10_fields(r, fm, &cmd, err) == -1)
		return -1;
	/* Keep a too-large command invalid rather than let it wrap. */
	fm->command = cmd > UINT8_MAX ? UINT8_MAX : (uint8_t)cmd;
	return 0;
}

/* 1.3's fixed fields before importance, both ways. */
static const struct of_field flow_mod13_fields[] = {
	OF_FIELD(struct of_flow_mod, cookie),
	OF_FIELD(struct of_flow_mod, cookie_mask),
	OF_FIELD(struct of_flow_mod, table_id),
	OF_FIELD(struct of_flow_mod, command),
	OF_FIELD(struct of_flow_mod, idle_timeout),
	OF_FIELD(struct of_flow_mod, hard_timeout),
	OF_FIELD(struct of_flow_mod, priority),
	OF_FIELD(struct of_flow_mod, buffer_id),
	OF_FIELD(struct of_flow_mod, out_port),
	OF_FIELD(struct of_flow_mod, out_group),
	OF_FIELD(struct of_flow_mod, flags),
};

/* 1.3's layout; 1.4 puts importance in the two bytes after flags
 * (1.4.1 A.3.4.1), which 1.3 pads. */
static int
flow_mod13_decode(uint8_t version, struct rbuf *r, struct of_flow_mod *fm,
    enum of_err *err)
{
	if (need_min(r, OFP13_FLOW_MOD_FIXED_BODY, err) == -1)
		return -1;
	of_fields_get(r, fm, flow_mod13_fields, OF_NFIELDS(flow_mod13_fields));
	if (version >= OF_VERSION_14)
		rbuf_get_u16(r, &fm->importance);
	else
		rbuf_skip(r, 2);
	return of_match_decode13(r, &fm->match, err);
}

int
of_flow_mod_decode(uint8_t version, struct rbuf *r, struct of_flow_mod *fm,
    enum of_err *err)
{
	int	rv;

	memset(fm, 0, sizeof(*fm));
	if (version == OF_VERSION_10)
		rv = flow_mod10_decode(r, fm, err);
	else
		rv = flow_mod13_decode(version, r, fm, err);
	if (rv == -1)
		return -1;
	/* Instructions (1.3) or actions (1.0), left to of_actions.c. */
	fm->prog = rbuf_ptr(r);
	fm->prog_len = rbuf_left(r);
	return 0;
}

int
of_flow_mod_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    const struct of_flow_mod *fm)
{
	size_t	start;

	start = of_msg_begin(w, version, OF_FLOW_MOD, xid);
	if (version == OF_VERSION_10) {
		ofp_match_put(w, version, &fm->match);
		wbuf_put_u64(w, fm->cookie);
		wbuf_put_u16(w, fm->command);
		of_fields_put(w, fm, flow_mod10_fields,
		    OF_NFIELDS(flow_mod10_fields));
		wbuf_put_u16(w, ofp_port10_filter_out(fm->out_port));
		wbuf_put_u16(w, ff13_to_10(fm->flags));
	} else {
		of_fields_put(w, fm, flow_mod13_fields,
		    OF_NFIELDS(flow_mod13_fields));
		wbuf_put_u16(w, version >= OF_VERSION_14 ? fm->importance :
		    0);
		ofp_match_put(w, version, &fm->match);
	}
	if (fm->prog_len > 0)
		wbuf_put_bytes(w, fm->prog, fm->prog_len);
	return of_msg_end(w, start);
}

/* FLOW_REMOVED, 1.3 section 7.4.2 / 1.0 section 5.4.2: the same fields
 * but for 1.0's padding where 1.3 has table_id and hard_timeout. */
static const struct of_field flow_removed13_fields[] = {
	OF_FIELD(struct of_flow_info, cookie),
	OF_FIELD(struct of_flow_info, priority),
	OF_FIELD(struct of_flow_info, reason),
	OF_FIELD(struct of_flow_info, table_id),
	OF_FIELD(struct of_flow_info, duration_sec),
	OF_FIELD(struct of_flow_info, duration_nsec),
	OF_FIELD(struct of_flow_info, idle_timeout),
	OF_FIELD(struct of_flow_info, hard_timeout),
	OF_FIELD(struct of_flow_info, packet_count),
	OF_FIELD(struct of_flow_info, byte_count),
};
static const struct of_field flow_removed10_fields[] = {
	OF_FIELD(struct of_flow_info, cookie),
	OF_FIELD(struct of_flow_info, priority),
	OF_FIELD(struct of_flow_info, reason),
	OF_PAD(1),
	OF_FIELD(struct of_flow_info, duration_sec),
	OF_FIELD(struct of_flow_info, duration_nsec),
	OF_FIELD(struct of_flow_info, idle_timeout),
	OF_PAD(2),
	OF_FIELD(struct of_flow_info, packet_count),
	OF_FIELD(struct of_flow_info, byte_count),
};

int
of_flow_removed_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    const struct of_flow_info *fi)
{
	size_t	start;

	start = of_msg_begin(w, version, OF_FLOW_REMOVED, xid);
	if (version >= OF_VERSION_15) {
		ofp15_flow_removed_put(w, fi);
		return of_msg_end(w, start);
	}
	if (version == OF_VERSION_10) {
		ofp_match_put(w, version, fi->match);
		of_fields_put(w, fi, flow_removed10_fields,
		    OF_NFIELDS(flow_removed10_fields));
	} else {
		of_fields_put(w, fi, flow_removed13_fields,
		    OF_NFIELDS(flow_removed13_fields));
		ofp_match_put(w, version, fi->match);
	}
	return of_msg_end(w, start);
}

/* PORT_STATUS, 1.3 section 7.4.3 / 1.0 section 5.4.3. */
int
of_port_status_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    uint8_t reason, const struct of_port *p)
{
	size_t	start;

	start = of_msg_begin(w, version, OF_PORT_STATUS, xid);
	wbuf_put_u8(w, reason);
	wbuf_put_zero(w, OFP_PORT_STATUS_PAD);
	ofp_port_encode(w, version, p);
	return of_msg_end(w, start);
}

int
of_port_status_decode(uint8_t version, struct rbuf *r, uint8_t *reason,
    struct of_port *p)
{
	if (rbuf_get_u8(r, reason) == -1 ||
	    rbuf_skip(r, OFP_PORT_STATUS_PAD) == -1)
		return -1;
	return of_port_decode(version, r, p);
}

void
ofp_port_mod_head(struct rbuf *r, struct of_port_mod *pm)
{
	rbuf_get_u32(r, &pm->port_no);
	rbuf_skip(r, 4);
	rbuf_get_bytes(r, pm->hw_addr, OFP_ETH_ALEN);
	rbuf_skip(r, 2);
	rbuf_get_u32(r, &pm->config);
	rbuf_get_u32(r, &pm->mask);
}

/* PORT_MOD, 1.3 section 7.3.4.4 / 1.0 section 5.3.3. */
int
of_port_mod_decode(uint8_t version, struct rbuf *r, struct of_port_mod *pm,
    enum of_err *err)
{
	uint16_t	port;

	if (version >= OF_VERSION_14)
		return ofp14_port_mod_decode(r, pm, err);
	memset(pm, 0, sizeof(*pm));
	if (version == OF_VERSION_10) {
		if (need_exact(r, OFP10_PORT_MOD_BODY, err) == -1)
			return -1;
		rbuf_get_u16(r, &port);
		pm->port_no = of_port_widen10(port);
		rbuf_get_bytes(r, pm->hw_addr, OFP_ETH_ALEN);
	} else {
		if (need_exact(r, OFP13_PORT_MOD_BODY, err) == -1)
			return -1;
		ofp_port_mod_head(r, pm);
		rbuf_get_u32(r, &pm->advertise);
		return 0;
	}
	rbuf_get_u32(r, &pm->config);
	rbuf_get_u32(r, &pm->mask);
	rbuf_get_u32(r, &pm->advertise);
	return 0;
}

/* ROLE_REQUEST / ROLE_REPLY, 1.3 section 7.3.9. */
int
of_role_encode(struct wbuf *w, uint8_t version, enum of_type t, uint32_t xid,
    uint32_t role, uint64_t generation_id)
{
	size_t	start;

	if (t != OF_ROLE_REQUEST && t != OF_ROLE_REPLY) {
		w->err = 1;
		return -1;
	}
	start = of_msg_begin(w, version, t, xid);
	ofp_role_put(w, role, 0, generation_id);
	return of_msg_end(w, start);
}

int
of_role_decode(struct rbuf *r, uint32_t *role, uint64_t *generation_id,
    enum of_err *err)
{
	if (need_exact(r, OFP13_ROLE_BODY, err) == -1)
		return -1;
	if (ofp_role_get(r, role, NULL, generation_id) == -1)
		return bad(err, OF_ERR_ROLE_BAD_ROLE);
	return 0;
}

void
ofp_role_put(struct wbuf *w, uint32_t role, uint8_t reason,
    uint64_t generation_id)
{
	wbuf_put_u32(w, role);
	wbuf_put_u8(w, reason);
	wbuf_put_zero(w, 3);
	wbuf_put_u64(w, generation_id);
}

int
ofp_role_get(struct rbuf *r, uint32_t *role, uint8_t *reason,
    uint64_t *generation_id)
{
	if (rbuf_get_u32(r, role) == -1)
		return -1;
	if (reason != NULL)
		rbuf_get_u8(r, reason);
	else
		rbuf_skip(r, 1);
	rbuf_skip(r, 3);
	rbuf_get_u64(r, generation_id);
	return *role > OF_ROLE_SLAVE ? -1 : 0;
}

/* GET_ASYNC_REPLY / SET_ASYNC, 1.3 section 7.3.10. */
int
of_async_encode(struct wbuf *w, uint8_t version, enum of_type t, uint32_t xid,
    const struct of_async *a)
{
	size_t	start;
	int	i;

	if (t != OF_GET_ASYNC_REPLY && t != OF_SET_ASYNC) {
		w->err = 1;
		return -1;
	}
	start = of_msg_begin(w, version, t, xid);
	if (version >= OF_VERSION_14) {
		ofp14_async_put(w, version, a);
		return of_msg_end(w, start);
	}
	for (i = 0; i < 2; i++)
		wbuf_put_u32(w, a->packet_in[i]);
	for (i = 0; i < 2; i++)
		wbuf_put_u32(w, a->port_status[i]);
	for (i = 0; i < 2; i++)
		wbuf_put_u32(w, a->flow_removed[i]);
	return of_msg_end(w, start);
}

int
of_async_decode(uint8_t version, struct rbuf *r, struct of_async *a,
    enum of_err *err)
{
	int	i;

	if (version >= OF_VERSION_14)
		return ofp14_async_get(version, r, a, err);

	if (need_exact(r, OFP13_ASYNC_BODY, err) == -1)
		return -1;
	for (i = 0; i < 2; i++)
		rbuf_get_u32(r, &a->packet_in[i]);
	for (i = 0; i < 2; i++)
		rbuf_get_u32(r, &a->port_status[i]);
	for (i = 0; i < 2; i++)
		rbuf_get_u32(r, &a->flow_removed[i]);
	return 0;
}

/* QUEUE_GET_CONFIG, 1.3 section 7.3.6 / 1.0 section 5.3.4. */
int
of_queue_get_config_decode(uint8_t version, struct rbuf *r, uint32_t *port,
    enum of_err *err)
{
	uint16_t	p10;

	if (version == OF_VERSION_10) {
		if (need_exact(r, OFP10_QUEUE_GET_CONFIG_BODY, err) == -1)
			return -1;
		rbuf_get_u16(r, &p10);
		*port = of_port_widen10(p10);
		return 0;
	}
	if (need_exact(r, OFP13_QUEUE_GET_CONFIG_BODY, err) == -1)
		return -1;
	rbuf_get_u32(r, port);
	return 0;
}

int
of_queue_get_config_reply_encode(struct wbuf *w, uint8_t version,
    uint32_t xid, uint32_t port)
{
	size_t	start;

	start = of_msg_begin(w, version, OF_QUEUE_GET_CONFIG_REPLY, xid);
	if (version == OF_VERSION_10) {
		wbuf_put_u16(w, of_port_narrow10(port));
		wbuf_put_zero(w, 6);
	} else {
		wbuf_put_u32(w, port);
		wbuf_put_zero(w, 4);
	}
	return of_msg_end(w, start);	/* no queues */
}

/* Names of of_versions[], in the same order. */
static const char *const of_version_names[] = { "1.0", "1.3", "1.4",
    "1.5" };

/* "1.4" or "14" to 0x05; 0 for a name that is none of ours. */
static int
version_by_name(const char *tok)
{
	size_t	i;
	char	two[3];

	for (i = 0; i < N_VERSIONS; i++) {
		two[0] = of_version_names[i][0];
		two[1] = of_version_names[i][2];
		two[2] = '\0';
		if (strcmp(tok, of_version_names[i]) == 0 ||
		    strcmp(tok, two) == 0)
			return of_versions[i];
	}
	return 0;
}

/*
 * "1.5", "1.4", "1.3", "1.0" or a comma list of them (also "15" ... "10")
 * to a bitmap with bit v set for wire version v, the form HELLO carries
 * (1.3.5 section 7.5.1, 1.5.1 section 7.5.1).
 */
int
of_version_parse(const char *name, const char *arg, void *field, char *err,
    size_t errlen)
{
	uint32_t	*bitmap = field;
	char		 buf[64], *tok, *save = NULL;

	/* A longer list would be cut short, and its tail never checked. */
	int		 v;

	if ((size_t)snprintf(buf, sizeof(buf), "%s", arg) >= sizeof(buf)) {
		snprintf(err, errlen, "--%s: '%.20s...' is too long "
		    "(1.5, 1.4, 1.3, 1.0 or a list: 1.3,1.0)", name, arg);
		return -1;
	}
	*bitmap = 0;
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if ((v = version_by_name(tok)) == 0) {
			snprintf(err, errlen, "--%s: '%s' is not 1.5, 1.4, "
			    "1.3 or 1.0", name, tok);
			return -1;
		}
		*bitmap |= 1u << v;
	}
	if (*bitmap == 0) {
		snprintf(err, errlen, "--%s: no version given", name);
		return -1;
	}
	return 0;
}

/* The bitmap as --help shows it, highest version first: "1.3,1.0". */
int
of_version_show(const struct opt *o, const void *base, char *buf,
    size_t len)
{
	uint32_t	bitmap;
	size_t		i, off = 0;
	int		n;

	memcpy(&bitmap, (const char *)base + o->off, sizeof(bitmap));
	if (len > 0)
		buf[0] = '\0';
	for (i = N_VERSIONS; i-- > 0 && off < len;) {
		if (!(bitmap & (1u << of_versions[i])))
			continue;
		n = snprintf(buf + off, len - off, "%s%s", off ? "," : "",
		    of_version_names[i]);
		if (n < 0)
			return -1;
		off += (size_t)n;
	}
	return off > 0 && off < len ? 0 : -1;
}
