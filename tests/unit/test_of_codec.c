/*
 * OpenFlow codec against byte vectors written out by hand from the
 * structure layouts of OpenFlow 1.3.5 section 7 and 1.0.0 section 5
 * (one field per line), for both versions, plus malformed input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "of_actions.h"
#include "of_codec.h"
#include "ofp.h"
#include "ofp14.h"

#define CHECK_CODEC_HDR_LEN	OF_HEADER_LEN
#include "check_codec.h"

#define V10	OF_VERSION_10
#define V13	OF_VERSION_13

/* Common pieces, one field per line. */
#define MATCH13_IN_PORT_1						\
	"00 01 00 0c "		/* ofp_match: type OXM, length 12 */	\
	"80 00 00 04 "		/* OXM IN_PORT, exact, 4 bytes */	\
	"00 00 00 01 "		/* port 1 */				\
	"00 00 00 00 "		/* padding to 8 */
#define MATCH10_IN_PORT_1						\
	"00 3f ff fe "		/* wildcards: all but IN_PORT */	\
	"00 01 "		/* in_port 1 */				\
	"00 00 00 00 00 00 "	/* dl_src */				\
	"00 00 00 00 00 00 "	/* dl_dst */				\
	"00 00 00 00 "		/* dl_vlan, dl_vlan_pcp, pad */		\
	"00 00 00 00 00 00 "	/* dl_type, nw_tos, nw_proto, pad2 */	\
	"00 00 00 00 00 00 00 00 " /* nw_src, nw_dst */			\
	"00 00 00 00 "		/* tp_src, tp_dst */
#define INST_APPLY_OUTPUT_2						\
	"00 04 00 18 00 00 00 00 " /* APPLY_ACTIONS, len 24, pad */	\
	"00 00 00 10 "		/* OUTPUT, len 16 */			\
	"00 00 00 02 "		/* port 2 */				\
	"ff ff 00 00 00 00 00 00 " /* max_len NO_BUFFER, pad */
#define ACT10_OUTPUT_2							\
	"00 00 00 08 00 02 00 00 " /* OUTPUT len 8 port 2 max_len 0 */

static void
match_in_port(struct of_match *m, uint32_t port)
{
	uint8_t	b[4] = { port >> 24, port >> 16, port >> 8, port };

	of_match_init(m);
	if (of_match_set(m, 0, b, NULL, sizeof(b)) == -1)
		abort();
}

static void
test_header(void)
{
	struct of_header	h;
	struct rbuf		r;
	struct vec		v;

	vec(&v, "04 0e 00 58 12 34 56 78");
	rbuf_init(&r, v.b, v.len);
	CHECK(of_header_decode(&r, &h) == 0 && h.version == 4 &&
	    h.type == 14 && h.length == 88 && h.xid == 0x12345678,
	    "header decode");
	rbuf_init(&r, v.b, 5);
	CHECK(of_header_decode(&r, &h) == -1, "truncated header");
	vec(&v, "01 00 00 07 00 00 00 01");
	rbuf_init(&r, v.b, v.len);
	CHECK(of_header_decode(&r, &h) == -1, "header length < 8");
}

static void
test_types(void)
{
	CHECK(of_type_from_wire(V10, 16) == OF_MULTIPART_REQUEST &&
	    of_type_from_wire(V13, 18) == OF_MULTIPART_REQUEST,
	    "stats/multipart request wire types");
	CHECK(of_type_from_wire(V10, 15) == OF_PORT_MOD &&
	    of_type_from_wire(V13, 15) == OF_GROUP_MOD &&
	    of_type_from_wire(V13, 16) == OF_PORT_MOD, "port/group mod");
	CHECK(of_type_from_wire(V10, 22) == OF_TYPE_UNKNOWN &&
	    of_type_from_wire(V13, 30) == OF_TYPE_UNKNOWN, "unknown types");
	CHECK(of_type_from_wire(V10, 21) == OF_QUEUE_GET_CONFIG_REPLY &&
	    of_type_from_wire(V13, 29) == OF_METER_MOD &&
	    of_type_from_wire(V13, 24) == OF_ROLE_REQUEST, "last types");
	CHECK(of_type_from_wire(0x07, 0) == OF_HELLO &&
	    of_type_from_wire(0x07, 1) == OF_ERROR &&
	    of_type_from_wire(0x07, 5) == OF_TYPE_UNKNOWN,
	    "HELLO/ERROR in any version");
	CHECK(of_type_to_wire(V10, OF_ROLE_REQUEST) == -1 &&
	    of_type_to_wire(V13, OF_ROLE_REQUEST) == 24 &&
	    of_type_to_wire(V10, OF_BARRIER_REPLY) == 19 &&
	    of_type_to_wire(V13, OF_BARRIER_REPLY) == 21 &&
	    of_type_to_wire(V10, OF_TYPE_UNKNOWN) == -1, "type to wire");
	CHECK(strcmp(of_type_name(OF_FLOW_MOD), "FLOW_MOD") == 0 &&
	    strcmp(of_type_name(OF_TYPE_UNKNOWN), "UNKNOWN") == 0,
	    "type names");
	CHECK(of_mp_from_wire(V13, 13) == OF_MP_PORT_DESC &&
	    of_mp_from_wire(V10, 13) == OF_MP_PORT_DESC &&
	    of_mp_from_wire(V10, 14) == OF_MP_UNKNOWN &&
	    of_mp_from_wire(V10, 0xffff) == OF_MP_EXPERIMENTER &&
	    of_mp_from_wire(V13, 12) == OF_MP_TABLE_FEATURES &&
	    of_mp_from_wire(V13, 14) == OF_MP_UNKNOWN, "mp from wire");
	CHECK(of_mp_to_wire(V10, OF_MP_PORT_DESC) == 13 &&
	    of_mp_to_wire(V10, OF_MP_GROUP) == -1 &&
	    of_mp_to_wire(V10, OF_MP_METER) == -1 &&
	    of_mp_to_wire(V10, OF_MP_PORT_STATS) == 4 &&
	    of_mp_to_wire(V13, OF_MP_METER_FEATURES) == 11,
	    "mp to wire");
	CHECK(strcmp(of_mp_name(OF_MP_AGGREGATE), "AGGREGATE") == 0 &&
	    strcmp(of_err_name(OF_ERR_BAD_LEN), "BAD_LEN") == 0,
	    "mp and error names");
}

static void
test_hello(void)
{
	struct vec	v;
	struct rbuf	r;
	uint32_t	bm;

	start();
	vec(&v, "04 00 00 10 00 00 00 01 "
	    "00 01 00 08 "		/* VERSIONBITMAP, length 8 */
	    "00 00 00 12");		/* versions 1 and 4 */
	CHECK(of_hello_encode(&w, V13, 1, 0x12) == 0, "hello 1.3 encode");
	CHECK_OUT(&v, "hello 1.3 bytes");
	body_of(&r, &v);
	CHECK(of_hello_decode(&r, &bm) == 0 && bm == 0x12,
	    "hello 1.3 decode bitmap");

	start();
	vec(&v, "01 00 00 08 00 00 00 07");
	CHECK(of_hello_encode(&w, V10, 7, 0x12) == 0, "hello 1.0 encode");
	CHECK_OUT(&v, "hello 1.0 bytes (no elements)");
	body_of(&r, &v);
	CHECK(of_hello_decode(&r, &bm) == 0 && bm == 0, "hello 1.0 decode");

	/* An unknown element (padded) before the bitmap. */
	vec(&v, "04 00 00 20 00 00 00 01 "
	    "00 07 00 05 aa 00 00 00 "	/* type 7, length 5, padded */
	    "00 01 00 0c 00 00 00 10 00 00 00 00 "
	    "00 00 00 00");		/* padding of the 12-byte element */
	body_of(&r, &v);
	CHECK(of_hello_decode(&r, &bm) == 0 && bm == 0x10,
	    "hello skips unknown element");

	vec(&v, "04 00 00 0c 00 00 00 01 00 01 00 03");
	body_of(&r, &v);
	CHECK(of_hello_decode(&r, &bm) == -1, "hello element length < 4");
	vec(&v, "04 00 00 10 00 00 00 01 00 01 00 10 00 00 00 12");
	body_of(&r, &v);
	CHECK(of_hello_decode(&r, &bm) == -1, "hello element past the end");
	vec(&v, "04 00 00 0a 00 00 00 01 00 01");
	body_of(&r, &v);
	CHECK(of_hello_decode(&r, &bm) == -1, "hello element truncated");
}

static void
test_negotiate(void)
{
	CHECK(of_negotiate(4, 0x12, 0x12) == 4, "bitmaps: 1.3");
	CHECK(of_negotiate(4, 0x02, 0x12) == 1, "bitmaps: peer 1.0 only");
	CHECK(of_negotiate(4, 0x1e, 0x12) == 4, "bitmaps: 1.1-1.4 peer");
	CHECK(of_negotiate(5, 0x20, 0x12) == 0, "bitmaps: nothing common");
	CHECK(of_negotiate(1, 0, 0x12) == 1, "no bitmap: 1.0 peer");
	CHECK(of_negotiate(6, 0, 0x12) == 4, "no bitmap: newer peer");
	CHECK(of_negotiate(3, 0, 0x12) == 0, "no bitmap: 1.2 unsupported");
	CHECK(of_negotiate(4, 0, 0x02) == 1, "no bitmap: we are 1.0 only");
	CHECK(of_negotiate(4, 0, 0x10) == 4, "no bitmap: 1.3 both");
}

static void
test_error(void)
{
	struct vec	v;
	struct rbuf	r;
	uint8_t		big[100];
	uint16_t	type, code;

	start();
	vec(&v, "04 01 00 14 00 00 00 09 "
	    "00 01 "		/* OFPET_BAD_REQUEST */
	    "00 01 "		/* OFPBRC_BAD_TYPE */
	    "04 63 00 08 00 00 00 09"); /* the offending header */
	CHECK(of_error_encode(&w, V13, 9, OF_ERR_BAD_TYPE, v.b + 12, 8) == 0,
	    "error 1.3 encode");
	CHECK_OUT(&v, "error 1.3 bytes");
	body_of(&r, &v);
	CHECK(of_error_decode(&r, &type, &code) == 0 && type == 1 &&
	    code == 1, "error decode");

	start();
	vec(&v, "01 01 00 0c 00 00 00 02 "
	    "00 01 "		/* OFPET_BAD_REQUEST */
	    "00 02");		/* OFPBRC_BAD_STAT */
	CHECK(of_error_encode(&w, V10, 2, OF_ERR_BAD_MULTIPART, NULL, 0) == 0,
	    "error 1.0 encode");
	CHECK_OUT(&v, "error 1.0 bytes");

	/* Nicira's codes as ovs-vswitchd 3.1 sends them. */
	start();
	vec(&v, "01 01 00 1c 00 00 00 05 "
	    "b0 c2 00 00 "	/* NXET_VENDOR, NXVC_VENDOR_ERROR */
	    "00 00 23 20 00 02 02 0e "	/* Nicira, NXBAC_BAD_CONJUNCTION */
	    "01 0e 00 08 00 00 00 05");
	CHECK(of_error_encode(&w, V10, 5, OF_ERR_NX_BAD_CONJUNCTION,
	    v.b + 20, 8) == 0, "NX error 1.0 encode");
	CHECK_OUT(&v, "NX error 1.0 bytes (nx_vendor_error)");
	start();
	vec(&v, "04 01 00 18 00 00 00 05 "
	    "ff ff 00 04 00 00 23 20 "	/* EXPERIMENTER, NXBRC_MUST_BE_ZERO */
	    "04 0e 00 08 00 00 00 05");
	CHECK(of_error_encode(&w, V13, 5, OF_ERR_NX_MUST_BE_ZERO,
	    v.b + 16, 8) == 0, "NX error 1.3 encode");
	CHECK_OUT(&v, "NX error 1.3 bytes (exp_code, experimenter)");
	start();
	vec(&v, "04 01 00 14 00 00 00 05 00 02 00 0e "
	    "04 0e 00 08 00 00 00 05");
	CHECK(of_error_encode(&w, V13, 5, OF_ERR_BAD_SET_LEN, v.b + 12, 8) == 0,
	    "BAD_SET_LEN 1.3 encode");
	CHECK_OUT(&v, "BAD_SET_LEN in 1.3: the standard code");

	start();
	memset(big, 0xab, sizeof(big));
	of_error_encode(&w, V13, 3, OF_ERR_BAD_LEN, big, sizeof(big));
	CHECK(!w.err && w.len == 8 + 4 + 64 && out[3] == 76 &&
	    out[w.len - 1] == 0xab, "error data capped at 64 bytes");

	vec(&v, "04 01 00 0a 00 00 00 01 00 01");
	body_of(&r, &v);
	CHECK(of_error_decode(&r, &type, &code) == -1, "error truncated");
}

/* Every error's (type, code) in both versions. */
static void
test_error_table(void)
{
	static const struct {
		enum of_err	e;
		uint16_t	t13, c13, t10, c10;
	} t[] = {
		{ OF_ERR_HELLO_INCOMPATIBLE,	0, 0,	0, 0 },
		{ OF_ERR_BAD_VERSION,		1, 0,	1, 0 },
		{ OF_ERR_BAD_TYPE,		1, 1,	1, 1 },
		{ OF_ERR_BAD_MULTIPART,		1, 2,	1, 2 },
		{ OF_ERR_BAD_EXPERIMENTER,	1, 3,	1, 3 },
		{ OF_ERR_BAD_LEN,		1, 6,	1, 6 },
		{ OF_ERR_BUFFER_UNKNOWN,	1, 8,	1, 8 },
		{ OF_ERR_BAD_TABLE_ID,		1, 9,	1, 5 },
		{ OF_ERR_IS_SLAVE,		1, 10,	1, 5 },
		{ OF_ERR_BAD_PORT,		1, 11,	1, 5 },
		{ OF_ERR_BAD_ACTION_TYPE,	2, 0,	2, 0 },
		{ OF_ERR_BAD_ACTION_LEN,	2, 1,	2, 1 },
		{ OF_ERR_BAD_OUT_PORT,		2, 4,	2, 4 },
		{ OF_ERR_BAD_ACTION_ARGUMENT,	2, 5,	2, 5 },
		{ OF_ERR_BAD_OUT_GROUP,		2, 9,	2, 0 },
		{ OF_ERR_BAD_INST_UNKNOWN,	3, 0,	2, 0 },
		{ OF_ERR_BAD_INST_LEN,		3, 7,	2, 1 },
		{ OF_ERR_BAD_INST_TABLE_ID,	3, 2,	2, 5 },
		{ OF_ERR_BAD_MATCH_TYPE,	4, 0,	1, 5 },
		{ OF_ERR_BAD_MATCH_LEN,		4, 1,	1, 6 },
		{ OF_ERR_BAD_MATCH_WILDCARDS,	4, 5,	0xb0c2, 0 },
		{ OF_ERR_BAD_MATCH_FIELD,	4, 6,	0xb0c2, 0 },
		{ OF_ERR_BAD_MATCH_VALUE,	4, 7,	0xb0c2, 0 },
		{ OF_ERR_BAD_MATCH_MASK,	4, 8,	0xb0c2, 0 },
		{ OF_ERR_BAD_MATCH_PREREQ,	4, 9,	0xb0c2, 0 },
		{ OF_ERR_BAD_MATCH_DUP_FIELD,	4, 10,	0xb0c2, 0 },
		{ OF_ERR_FLOW_TABLE_FULL,	5, 1,	3, 0 },
		{ OF_ERR_FLOW_BAD_TABLE_ID,	5, 2,	3, 2 },
		{ OF_ERR_FLOW_OVERLAP,		5, 3,	3, 1 },
		{ OF_ERR_FLOW_BAD_TIMEOUT,	5, 5,	3, 3 },
		{ OF_ERR_FLOW_BAD_COMMAND,	5, 6,	3, 4 },
		{ OF_ERR_FLOW_BAD_FLAGS,	5, 7,	3, 2 },
		{ OF_ERR_PORT_MOD_BAD_PORT,	7, 0,	4, 0 },
		{ OF_ERR_PORT_MOD_BAD_HW_ADDR,	7, 1,	4, 1 },
		{ OF_ERR_SWITCH_CONFIG_BAD_FLAGS, 10, 0, 1, 5 },
		{ OF_ERR_ROLE_STALE,		11, 0,	1, 5 },
		{ OF_ERR_ROLE_BAD_ROLE,		11, 2,	1, 5 },
		{ OF_ERR_GROUP_EXISTS,		6, 0,	1, 5 },
		{ OF_ERR_GROUP_INVALID,		6, 1,	1, 5 },
		{ OF_ERR_GROUP_OUT_OF_GROUPS,	6, 3,	1, 5 },
		{ OF_ERR_GROUP_CHAINING,	6, 5,	1, 5 },
		{ OF_ERR_GROUP_UNKNOWN,		6, 8,	1, 5 },
		{ OF_ERR_GROUP_BAD_TYPE,	6, 10,	1, 5 },
		{ OF_ERR_GROUP_BAD_COMMAND,	6, 11,	1, 5 },
		{ OF_ERR_GROUP_BAD_BUCKET,	6, 12,	1, 5 },
		{ OF_ERR_GROUP_BAD_WATCH,	6, 13,	1, 5 },
		{ OF_ERR_METER_EXISTS,		12, 1,	1, 5 },
		{ OF_ERR_METER_INVALID,		12, 2,	1, 5 },
		{ OF_ERR_METER_UNKNOWN,		12, 3,	1, 5 },
		{ OF_ERR_METER_BAD_COMMAND,	12, 4,	1, 5 },
		{ OF_ERR_METER_BAD_FLAGS,	12, 5,	1, 5 },
		{ OF_ERR_METER_BAD_RATE,	12, 6,	1, 5 },
		{ OF_ERR_METER_BAD_BURST,	12, 7,	1, 5 },
		{ OF_ERR_METER_BAD_BAND,	12, 8,	1, 5 },
		{ OF_ERR_METER_BAD_BAND_VALUE,	12, 9,	1, 5 },
		{ OF_ERR_METER_OUT_OF_METERS,	12, 10,	1, 5 },
		{ OF_ERR_METER_OUT_OF_BANDS,	12, 11,	1, 5 },
		/* 1.4's types; 1.3 (and 1.0) say BAD_REQUEST. */
		{ OF_ERR_BAD_PROPERTY_TYPE,	1, 5,	1, 5 },
		{ OF_ERR_BAD_PROPERTY_LEN,	1, 6,	1, 6 },
		{ OF_ERR_ASYNC_INVALID,		1, 5,	1, 5 },
		{ OF_ERR_ASYNC_UNSUPPORTED,	1, 5,	1, 5 },
		{ OF_ERR_TABLE_FEATURES_BAD_FEATURES, 1, 5, 1, 5 },
		{ OF_ERR_MONITOR_OUT_OF_ROOM,	1, 5,	1, 5 },
		{ OF_ERR_MONITOR_EXISTS,	1, 5,	1, 5 },
		{ OF_ERR_MONITOR_UNKNOWN,	1, 5,	1, 5 },
		{ OF_ERR_MONITOR_BAD_COMMAND,	1, 5,	1, 5 },
		{ OF_ERR_MONITOR_BAD_FLAGS,	1, 5,	1, 5 },
		{ OF_ERR_MONITOR_BAD_TABLE_ID,	1, 5,	1, 5 },
		{ OF_ERR_TABLE_MOD_BAD_TABLE,	1, 5,	1, 5 },
		{ OF_ERR_TABLE_MOD_BAD_CONFIG,	1, 5,	1, 5 },
		{ OF_ERR_GROUP_LOOP,		6, 7,	1, 5 },
		{ OF_ERR_GROUP_CHAINED,		6, 9,	1, 5 },
		{ OF_ERR_BAD_EXP_TYPE,		1, 4,	1, 4 },
		{ OF_ERR_EPERM,			1, 5,	1, 5 },
		{ OF_ERR_BAD_ACTION_EXPERIMENTER, 2, 2,	2, 2 },
		{ OF_ERR_BAD_ACTION_EXP_TYPE,	2, 3,	2, 3 },
		{ OF_ERR_GROUP_UNKNOWN_BUCKET,	6, 12,	1, 5 },
		{ OF_ERR_GROUP_BUCKET_EXISTS,	6, 12,	1, 5 },
		{ OF_ERR_GROUP_OUT_OF_BUCKETS,	6, 4,	1, 5 },
		/* Nicira's: EXPERIMENTER/exp_code in 1.3, NXET_VENDOR/
		 * NXVC_VENDOR_ERROR in 1.0 (the code after the vendor id). */
		{ OF_ERR_NX_TLV_BAD_COMMAND,	0xffff, 16, 0xb0c2, 0 },
		{ OF_ERR_NX_TLV_BAD_OPT_LEN,	0xffff, 17, 0xb0c2, 0 },
		{ OF_ERR_NX_TLV_BAD_FIELD_IDX,	0xffff, 18, 0xb0c2, 0 },
		{ OF_ERR_NX_TLV_TABLE_FULL,	0xffff, 19, 0xb0c2, 0 },
		{ OF_ERR_NX_TLV_ALREADY_MAPPED,	0xffff, 20, 0xb0c2, 0 },
		{ OF_ERR_NX_TLV_DUP_ENTRY,	0xffff, 21, 0xb0c2, 0 },
		{ OF_ERR_NX_TLV_INVALID_DEL,	0xffff, 38, 0xb0c2, 0 },
		{ OF_ERR_NX_INVALID_TLV_FIELD,	0xffff, 37, 0xb0c2, 0 },
		{ OF_ERR_NX_MUST_BE_ZERO,	0xffff, 4, 0xb0c2, 0 },
		{ OF_ERR_NX_BAD_CONJUNCTION,	0xffff, 15, 0xb0c2, 0 },
		/* OFPBAC_BAD_SET_*: 1.3's own, Nicira's in 1.0. */
		{ OF_ERR_BAD_SET_TYPE,		2, 13,	0xb0c2, 0 },
		{ OF_ERR_BAD_SET_LEN,		2, 14,	0xb0c2, 0 },
		{ OF_ERR_BAD_SET_ARGUMENT,	2, 15,	0xb0c2, 0 },
	};
	size_t		i;
	uint16_t	type, code;
	int		ok13 = 1, ok10 = 1, named = 1;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		of_err_to_wire(V13, t[i].e, &type, &code);
		if (type != t[i].t13 || code != t[i].c13) {
			printf("# 1.3 %s: %u/%u\n", of_err_name(t[i].e),
			    type, code);
			ok13 = 0;
		}
		of_err_to_wire(V10, t[i].e, &type, &code);
		if (type != t[i].t10 || code != t[i].c10) {
			printf("# 1.0 %s: %u/%u\n", of_err_name(t[i].e),
			    type, code);
			ok10 = 0;
		}
	}
	for (i = 0; i < OF_ERR__MAX; i++)
		if (of_err_name(i) == NULL)
			named = 0;
	CHECK(ok13, "1.3 error types and codes");
	CHECK(ok10, "1.0 error types and codes");
	CHECK(named && sizeof(t) / sizeof(t[0]) == OF_ERR__MAX - 1,
	    "every error named and tested");
}

static void
test_simple(void)
{
	struct vec	v;

	start();
	vec(&v, "04 14 00 08 00 00 00 05");
	CHECK(of_simple_encode(&w, V13, OF_BARRIER_REQUEST, 5) == 0,
	    "barrier 1.3");
	CHECK_OUT(&v, "barrier request 1.3 bytes");
	start();
	vec(&v, "01 13 00 08 00 00 00 05");
	of_simple_encode(&w, V10, OF_BARRIER_REPLY, 5);
	CHECK_OUT(&v, "barrier reply 1.0 bytes");
	start();
	CHECK(of_simple_encode(&w, V10, OF_GET_ASYNC_REQUEST, 5) == -1 &&
	    w.err, "1.3-only type refused for 1.0");

	start();
	vec(&v, "04 03 00 0c 00 00 00 06 61 62 63 64");
	CHECK(of_echo_encode(&w, V13, OF_ECHO_REPLY, 6, "abcd", 4) == 0,
	    "echo reply");
	CHECK_OUT(&v, "echo reply bytes");
	start();
	vec(&v, "01 02 00 08 00 00 00 06");
	of_echo_encode(&w, V10, OF_ECHO_REQUEST, 6, NULL, 0);
	CHECK_OUT(&v, "echo request 1.0 bytes");
}

static void
port_fill(struct of_port *p, uint32_t no, int v13)
{
	memset(p, 0, sizeof(*p));
	p->port_no = no;
	p->hw_addr[0] = 0x02;
	p->hw_addr[5] = (uint8_t)no;
	snprintf(p->name, sizeof(p->name), "s1-eth%u", no);
	p->state = v13 ? 0x4 : 0;		/* LIVE */
	p->curr = v13 ? 0x840 : 0xc0;		/* 10GB_FD | COPPER */
	p->advertised = p->supported = p->curr;
	p->curr_speed = p->max_speed = 10000000;
}

#define PORT10(n)							\
	"00 0" n " "		/* port_no */				\
	"02 00 00 00 00 0" n " " /* hw_addr */				\
	"73 31 2d 65 74 68 3" n " 00 00 00 00 00 00 00 00 00 " /* name */ \
	"00 00 00 00 "		/* config */				\
	"00 00 00 00 "		/* state */				\
	"00 00 00 c0 "		/* curr: 10GB_FD | COPPER (1.0) */	\
	"00 00 00 c0 "		/* advertised */			\
	"00 00 00 c0 "		/* supported */				\
	"00 00 00 00 "		/* peer */
#define PORT13(n)							\
	"00 00 00 0" n " "	/* port_no */				\
	"00 00 00 00 "		/* pad */				\
	"02 00 00 00 00 0" n " " /* hw_addr */				\
	"00 00 "		/* pad */				\
	"73 31 2d 65 74 68 3" n " 00 00 00 00 00 00 00 00 00 " /* name */ \
	"00 00 00 00 "		/* config */				\
	"00 00 00 04 "		/* state: LIVE */			\
	"00 00 08 40 "		/* curr: 10GB_FD | COPPER (1.3) */	\
	"00 00 08 40 "		/* advertised */			\
	"00 00 08 40 "		/* supported */				\
	"00 00 00 00 "		/* peer */				\
	"00 98 96 80 "		/* curr_speed 10 Gb/s in kb/s */	\
	"00 98 96 80 "		/* max_speed */

static void
test_features(void)
{
	struct of_features	f, g;
	struct of_port		p[2];
	struct vec		v;
	struct rbuf		r;

	memset(&f, 0, sizeof(f));
	f.datapath_id = 1;
	f.n_buffers = 256;
	f.n_tables = 254;
	f.capabilities = 0x4f;
	f.actions = 0xfff;

	start();
	vec(&v, "04 06 00 20 00 00 00 0b "
	    "00 00 00 00 00 00 00 01 "	/* datapath_id */
	    "00 00 01 00 "		/* n_buffers */
	    "fe "			/* n_tables */
	    "00 "			/* auxiliary_id */
	    "00 00 "			/* pad */
	    "00 00 00 4f "		/* capabilities */
	    "00 00 00 00");		/* reserved */
	CHECK(of_features_reply_encode(&w, V13, 11, &f, NULL, 0) == 0,
	    "features 1.3 encode");
	CHECK_OUT(&v, "features reply 1.3 bytes");
	body_of(&r, &v);
	CHECK(of_features_reply_decode(V13, &r, &g) == 0 &&
	    g.datapath_id == 1 && g.n_buffers == 256 && g.n_tables == 254 &&
	    g.capabilities == 0x4f, "features 1.3 decode");

	port_fill(&p[0], 1, 0);
	port_fill(&p[1], 2, 0);
	f.capabilities = 0xc7;
	start();
	vec(&v, "01 06 00 80 00 00 00 0c "
	    "00 00 00 00 00 00 00 01 "	/* datapath_id */
	    "00 00 01 00 "		/* n_buffers */
	    "fe "			/* n_tables */
	    "00 00 00 "			/* pad */
	    "00 00 00 c7 "		/* capabilities */
	    "00 00 0f ff "		/* actions */
	    PORT10("1") PORT10("2"));
	CHECK(of_features_reply_encode(&w, V10, 12, &f, p, 2) == 0,
	    "features 1.0 encode");
	CHECK_OUT(&v, "features reply 1.0 with 2 ports");
	body_of(&r, &v);
	CHECK(of_features_reply_decode(V10, &r, &g) == 0 &&
	    g.datapath_id == 1 && g.n_tables == 254 &&
	    g.capabilities == 0xc7 && g.actions == 0xfff,
	    "features 1.0 decode");
	rbuf_init(&r, v.b + 8, 20);
	CHECK(of_features_reply_decode(V10, &r, &g) == -1,
	    "features truncated");
}

static void
test_switch_config(void)
{
	struct vec	v;
	struct rbuf	r;
	uint16_t	flags, msl;

	start();
	vec(&v, "04 08 00 0c 00 00 00 01 00 00 ff ff");
	CHECK(of_switch_config_encode(&w, V13, OF_GET_CONFIG_REPLY, 1, 0,
	    0xffff) == 0, "get config reply 1.3");
	CHECK_OUT(&v, "get config reply 1.3 bytes");
	vec(&v, "01 09 00 0c 00 00 00 01 00 01 00 80");
	start();
	of_switch_config_encode(&w, V10, OF_SET_CONFIG, 1, 1, 128);
	CHECK_OUT(&v, "set config 1.0 bytes");
	body_of(&r, &v);
	CHECK(of_switch_config_decode(&r, &flags, &msl) == 0 && flags == 1 &&
	    msl == 128, "set config decode");
	rbuf_init(&r, v.b + 8, 3);
	CHECK(of_switch_config_decode(&r, &flags, &msl) == -1,
	    "set config short");
}

static void
test_packet_in(void)
{
	static const uint8_t	data[4] = { 0xde, 0xad, 0xbe, 0xef };
	struct of_packet_in	pi, got;
	struct vec		v;
	struct rbuf		r;
	enum of_err		err;

	memset(&pi, 0, sizeof(pi));
	pi.buffer_id = 0xffffffff;
	pi.total_len = 4;
	pi.reason = 1;
	pi.table_id = 3;
	pi.cookie = 0x0102030405060708ull;
	pi.in_port = 1;
	pi.data = data;
	pi.data_len = sizeof(data);

	start();
	vec(&v, "04 0a 00 2e 00 00 00 00 "
	    "ff ff ff ff "		/* buffer_id NO_BUFFER */
	    "00 04 "			/* total_len */
	    "01 "			/* reason ACTION */
	    "03 "			/* table_id */
	    "01 02 03 04 05 06 07 08 "	/* cookie */
	    MATCH13_IN_PORT_1
	    "00 00 "			/* pad */
	    "de ad be ef");		/* data */
	CHECK(of_packet_in_encode(&w, V13, 0, &pi) == 0, "packet-in 1.3");
	CHECK_OUT(&v, "packet-in 1.3 bytes");
	body_of(&r, &v);
	CHECK(of_packet_in_decode(V13, &r, &got, &err) == 0 &&
	    got.buffer_id == 0xffffffff && got.total_len == 4 &&
	    got.reason == 1 && got.table_id == 3 &&
	    got.cookie == pi.cookie && got.in_port == 1 &&
	    got.data_len == 4 && memcmp(got.data, data, 4) == 0,
	    "packet-in 1.3 decode");
	rbuf_init(&r, v.b + 8, 30);	/* cut inside the match */
	CHECK(of_packet_in_decode(V13, &r, &got, &err) == -1 &&
	    err == OF_ERR_BAD_MATCH_LEN, "packet-in 1.3 truncated match");
	rbuf_init(&r, v.b + 8, 33);	/* cut inside the pad */
	CHECK(of_packet_in_decode(V13, &r, &got, &err) == -1 &&
	    err == OF_ERR_BAD_LEN, "packet-in 1.3 truncated pad");

	pi.in_port = 3;
	pi.reason = 0;
	start();
	vec(&v, "01 0a 00 16 00 00 00 00 "
	    "ff ff ff ff "		/* buffer_id */
	    "00 04 "			/* total_len */
	    "00 03 "			/* in_port */
	    "00 "			/* reason NO_MATCH */
	    "00 "			/* pad */
	    "de ad be ef");
	CHECK(of_packet_in_encode(&w, V10, 0, &pi) == 0, "packet-in 1.0");
	CHECK_OUT(&v, "packet-in 1.0 bytes");
	body_of(&r, &v);
	CHECK(of_packet_in_decode(V10, &r, &got, &err) == 0 &&
	    got.in_port == 3 && got.total_len == 4 && got.data_len == 4,
	    "packet-in 1.0 decode");
	rbuf_init(&r, v.b + 8, 9);
	CHECK(of_packet_in_decode(V10, &r, &got, &err) == -1 &&
	    err == OF_ERR_BAD_LEN, "packet-in 1.0 short");
}

static void
test_packet_out(void)
{
	struct of_packet_out	po;
	struct vec		v;
	struct rbuf		r;
	enum of_err		err;

	vec(&v, "04 0d 00 2c 00 00 00 11 "
	    "ff ff ff ff "		/* buffer_id */
	    "ff ff ff fd "		/* in_port CONTROLLER */
	    "00 10 "			/* actions_len */
	    "00 00 00 00 00 00 "	/* pad */
	    "00 00 00 10 00 00 00 02 ff e5 00 00 00 00 00 00 "
	    "01 02 03 04");		/* data */
	body_of(&r, &v);
	CHECK(of_packet_out_decode(V13, &r, &po, &err) == 0 &&
	    po.buffer_id == 0xffffffff && po.in_port == OF_PORT_CONTROLLER &&
	    po.actions_len == 16 && po.actions == v.b + 24 &&
	    po.data_len == 4 && po.data == v.b + 40, "packet-out 1.3 decode");
	start();
	CHECK(of_packet_out_encode(&w, V13, 0x11, &po) == 0,
	    "packet-out 1.3 encode");
	CHECK_OUT(&v, "packet-out 1.3 bytes");
	v.b[17] = 0x20;			/* actions_len 32: past the body */
	body_of(&r, &v);
	CHECK(of_packet_out_decode(V13, &r, &po, &err) == -1 &&
	    err == OF_ERR_BAD_LEN, "packet-out actions_len past body");
	rbuf_init(&r, v.b + 8, 15);
	CHECK(of_packet_out_decode(V13, &r, &po, &err) == -1 &&
	    err == OF_ERR_BAD_LEN, "packet-out 1.3 short");

	vec(&v, "01 0d 00 1a 00 00 00 12 "
	    "00 00 01 00 "		/* buffer_id 256 */
	    "ff fd "			/* in_port CONTROLLER */
	    "00 08 "			/* actions_len */
	    ACT10_OUTPUT_2
	    "aa bb");
	body_of(&r, &v);
	CHECK(of_packet_out_decode(V10, &r, &po, &err) == 0 &&
	    po.buffer_id == 256 && po.in_port == OF_PORT_CONTROLLER &&
	    po.actions_len == 8 && po.data_len == 2, "packet-out 1.0 decode");
	start();
	of_packet_out_encode(&w, V10, 0x12, &po);
	CHECK_OUT(&v, "packet-out 1.0 bytes");
}

static const char flow_mod13_add[] =
	"04 0e 00 58 00 00 00 21 "
	"00 00 00 00 00 00 00 00 "	/* cookie */
	"00 00 00 00 00 00 00 00 "	/* cookie_mask */
	"00 "				/* table_id */
	"00 "				/* command ADD */
	"00 00 "			/* idle_timeout */
	"00 00 "			/* hard_timeout */
	"80 00 "			/* priority 32768 */
	"ff ff ff ff "			/* buffer_id NO_BUFFER */
	"ff ff ff ff "			/* out_port ANY */
	"ff ff ff ff "			/* out_group ANY */
	"00 01 "			/* flags SEND_FLOW_REM */
	"00 00 "			/* pad */
	MATCH13_IN_PORT_1
	INST_APPLY_OUTPUT_2;

/*
 * Captured from ovs-ofctl 3.1 -O OpenFlow13 add-flow
 * "table=3,in_port=1,actions=output:2" (against a passive switch).
 */
static const char flow_mod13_ofctl[] =
	"04 0e 00 58 00 00 00 06 "
	"00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 " /* cookie, mask */
	"03 00 00 00 00 00 80 00 " /* table 3, ADD, idle, hard, priority */
	"ff ff ff ff ff ff ff ff ff ff ff ff " /* buffer, out_port, group */
	"00 00 00 00 "			/* flags, pad */
	"00 01 00 0c 80 00 00 04 00 00 00 01 00 00 00 00 "
	"00 04 00 18 00 00 00 00 "
	"00 00 00 10 00 00 00 02 00 00 00 00 00 00 00 00";

static void
test_flow_mod13(void)
{
	struct of_flow_mod	fm;
	struct of_match		m;
	struct vec		v;
	struct rbuf		r;
	enum of_err		err = OF_ERR_NONE;

	vec(&v, flow_mod13_add);
	body_of(&r, &v);
	match_in_port(&m, 1);
	CHECK(of_flow_mod_decode(V13, &r, &fm, &err) == 0 &&
	    fm.command == OF_FC_ADD && fm.priority == 0x8000 &&
	    fm.buffer_id == 0xffffffff && fm.out_port == OF_PORT_ANY &&
	    fm.out_group == OF_GROUP_ANY && fm.flags == OF_FF_SEND_FLOW_REM &&
	    fm.table_id == 0 && of_match_equal(&fm.match, &m) &&
	    fm.prog == v.b + 64 && fm.prog_len == 24,
	    "flow-mod 1.3 decode in_port=1 apply(output:2)");
	start();
	CHECK(of_flow_mod_encode(&w, V13, 0x21, &fm) == 0,
	    "flow-mod 1.3 encode");
	CHECK_OUT(&v, "flow-mod 1.3 bytes round trip");

	vec(&v, flow_mod13_ofctl);
	body_of(&r, &v);
	CHECK(of_flow_mod_decode(V13, &r, &fm, &err) == 0 &&
	    fm.table_id == 3 && fm.command == OF_FC_ADD &&
	    fm.priority == 0x8000 && fm.flags == 0 &&
	    of_match_equal(&fm.match, &m) && fm.prog_len == 24,
	    "flow-mod 1.3 from ovs-ofctl");
	start();
	of_flow_mod_encode(&w, V13, 6, &fm);
	CHECK_OUT(&v, "flow-mod 1.3 ovs-ofctl round trip");

	/* Malformed. */
	rbuf_init(&r, v.b + 8, 30);
	CHECK(of_flow_mod_decode(V13, &r, &fm, &err) == -1 &&
	    err == OF_ERR_BAD_LEN, "flow-mod 1.3 fixed part short");
	rbuf_init(&r, v.b + 8, 44);
	CHECK(of_flow_mod_decode(V13, &r, &fm, &err) == -1 &&
	    err == OF_ERR_BAD_MATCH_LEN, "flow-mod 1.3 match cut");
	vec(&v, flow_mod13_add);
	v.b[49] = 0x00;			/* match type STANDARD */
	body_of(&r, &v);
	CHECK(of_flow_mod_decode(V13, &r, &fm, &err) == -1 &&
	    err == OF_ERR_BAD_MATCH_TYPE, "flow-mod 1.3 match type 0");
	vec(&v, flow_mod13_add);
	v.b[51] = 0x40;			/* match length past the message */
	body_of(&r, &v);
	CHECK(of_flow_mod_decode(V13, &r, &fm, &err) == -1 &&
	    err == OF_ERR_BAD_MATCH_LEN, "flow-mod 1.3 match length");
	vec(&v, "04 0e 00 40 00 00 00 21 "
	    "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 "
	    "00 00 00 00 00 00 80 00 ff ff ff ff ff ff ff ff ff ff ff ff "
	    "00 00 00 00 "
	    "00 01 00 0c "
	    "80 00 16 04 "		/* IPV4_SRC with no ETH_TYPE */
	    "0a 00 00 01 00 00 00 00");
	body_of(&r, &v);
	CHECK(of_flow_mod_decode(V13, &r, &fm, &err) == -1 &&
	    err == OF_ERR_BAD_MATCH_PREREQ, "flow-mod 1.3 missing prereq");
	vec(&v, "04 0e 00 48 00 00 00 21 "
	    "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 "
	    "00 00 00 00 00 00 80 00 ff ff ff ff ff ff ff ff ff ff ff ff "
	    "00 00 00 00 "
	    "00 01 00 14 "
	    "80 00 00 04 00 00 00 01 "	/* IN_PORT 1 */
	    "80 00 00 04 00 00 00 02 "	/* IN_PORT 2 again */
	    "00 00 00 00");
	body_of(&r, &v);
	CHECK(of_flow_mod_decode(V13, &r, &fm, &err) == -1 &&
	    err == OF_ERR_BAD_MATCH_DUP_FIELD, "flow-mod 1.3 duplicate field");
}

static const char flow_mod10_ofctl[] =
	"01 0e 00 50 00 00 00 02 "
	"00 38 20 fe "		/* wildcards as OVS writes them */
	"00 01 "		/* in_port 1 */
	"00 00 00 00 00 00 00 00 00 00 00 00 " /* dl_src, dl_dst */
	"00 00 00 00 "		/* dl_vlan, dl_vlan_pcp, pad */
	"00 00 00 00 00 00 "	/* dl_type, nw_tos, nw_proto, pad */
	"00 00 00 00 00 00 00 00 00 00 00 00 " /* nw_src/dst, tp_src/dst */
	"00 00 00 00 00 00 00 00 " /* cookie */
	"00 00 "		/* command ADD */
	"00 00 "		/* idle_timeout */
	"00 00 "		/* hard_timeout */
	"80 00 "		/* priority */
	"ff ff ff ff "		/* buffer_id */
	"ff ff "		/* out_port NONE */
	"00 00 "		/* flags */
	ACT10_OUTPUT_2;

static void
test_flow_mod10(void)
{
	struct of_flow_mod	fm;
	struct of_match		m;
	struct vec		v;
	struct rbuf		r;
	enum of_err		err = OF_ERR_NONE;

	/* ovs-ofctl -O OpenFlow10 add-flow in_port=1,actions=output:2
	 * (a capture of ovs-ofctl 3.1 gave exactly these bytes). */
	vec(&v, flow_mod10_ofctl);
	body_of(&r, &v);
	match_in_port(&m, 1);
	CHECK(of_flow_mod_decode(V10, &r, &fm, &err) == 0 &&
	    fm.command == OF_FC_ADD && fm.priority == 0x8000 &&
	    fm.out_port == OF_PORT_ANY && fm.out_group == OF_GROUP_ANY &&
	    fm.table_id == 0 && fm.cookie_mask == 0 && fm.flags == 0 &&
	    of_match_equal(&fm.match, &m) && fm.prog_len == 8 &&
	    fm.prog == v.b + 72, "flow-mod 1.0 decode (ovs-ofctl)");
	start();
	vec(&v, "01 0e 00 50 00 00 00 02 "
	    MATCH10_IN_PORT_1
	    "00 00 00 00 00 00 00 2a " /* cookie */
	    "00 03 "			/* command DELETE */
	    "00 0a 00 14 "		/* idle 10, hard 20 */
	    "00 64 "			/* priority 100 */
	    "ff ff ff ff "		/* buffer_id */
	    "00 02 "			/* out_port 2 */
	    "00 05 "			/* SEND_FLOW_REM | EMERG */
	    ACT10_OUTPUT_2);
	fm.cookie = 42;
	fm.command = OF_FC_DELETE;
	fm.idle_timeout = 10;
	fm.hard_timeout = 20;
	fm.priority = 100;
	fm.out_port = 2;
	fm.flags = OF_FF_SEND_FLOW_REM | OF_FF_EMERG;
	CHECK(of_flow_mod_encode(&w, V10, 2, &fm) == 0, "flow-mod 1.0 encode");
	CHECK_OUT(&v, "flow-mod 1.0 bytes");
	body_of(&r, &v);
	CHECK(of_flow_mod_decode(V10, &r, &fm, &err) == 0 &&
	    fm.flags == (OF_FF_SEND_FLOW_REM | OF_FF_EMERG) &&
	    fm.out_port == 2 && fm.command == OF_FC_DELETE &&
	    fm.cookie == 42, "flow-mod 1.0 flags mapped");
	v.b[71] = 0x08;				/* unknown flag bit */
	body_of(&r, &v);
	CHECK(of_flow_mod_decode(V10, &r, &fm, &err) == -1 &&
	    err == OF_ERR_FLOW_BAD_FLAGS, "flow-mod 1.0 unknown flag");
	v.b[71] = 0;
	v.b[56] = 0x01;				/* command 0x0103 */
	body_of(&r, &v);
	CHECK(of_flow_mod_decode(V10, &r, &fm, &err) == 0 &&
	    fm.command > OF_FC_DELETE_STRICT, "flow-mod 1.0 command stays bad");
	rbuf_init(&r, v.b + 8, 63);
	CHECK(of_flow_mod_decode(V10, &r, &fm, &err) == -1 &&
	    err == OF_ERR_BAD_LEN, "flow-mod 1.0 short");
}

static void
flow_info(struct of_flow_info *fi, const struct of_match *m,
    const uint8_t *prog, size_t len)
{
	memset(fi, 0, sizeof(*fi));
	fi->table_id = 0;
	fi->priority = 0x8000;
	fi->idle_timeout = 60;
	fi->hard_timeout = 120;
	fi->flags = OF_FF_SEND_FLOW_REM;
	fi->cookie = 42;
	fi->packet_count = 5;
	fi->byte_count = 500;
	fi->duration_sec = 10;
	fi->duration_nsec = 20;
	fi->reason = OF_RR_DELETE;
	fi->match = m;
	fi->prog = prog;
	fi->prog_len = len;
}

static void
test_flow_removed(void)
{
	struct of_flow_info	fi;
	struct of_match		m;
	struct vec		v;

	match_in_port(&m, 1);
	flow_info(&fi, &m, NULL, 0);
	fi.table_id = 1;
	start();
	vec(&v, "04 0b 00 40 00 00 00 00 "
	    "00 00 00 00 00 00 00 2a "	/* cookie */
	    "80 00 "			/* priority */
	    "02 "			/* reason DELETE */
	    "01 "			/* table_id */
	    "00 00 00 0a "		/* duration_sec */
	    "00 00 00 14 "		/* duration_nsec */
	    "00 3c "			/* idle_timeout */
	    "00 78 "			/* hard_timeout */
	    "00 00 00 00 00 00 00 05 "	/* packet_count */
	    "00 00 00 00 00 00 01 f4 "	/* byte_count */
	    MATCH13_IN_PORT_1);
	CHECK(of_flow_removed_encode(&w, V13, 0, &fi) == 0,
	    "flow-removed 1.3");
	CHECK_OUT(&v, "flow-removed 1.3 bytes");
	start();
	vec(&v, "01 0b 00 58 00 00 00 00 "
	    MATCH10_IN_PORT_1
	    "00 00 00 00 00 00 00 2a "	/* cookie */
	    "80 00 "			/* priority */
	    "02 "			/* reason */
	    "00 "			/* pad */
	    "00 00 00 0a "		/* duration_sec */
	    "00 00 00 14 "		/* duration_nsec */
	    "00 3c "			/* idle_timeout */
	    "00 00 "			/* pad2 */
	    "00 00 00 00 00 00 00 05 "	/* packet_count */
	    "00 00 00 00 00 00 01 f4");	/* byte_count */
	CHECK(of_flow_removed_encode(&w, V10, 0, &fi) == 0,
	    "flow-removed 1.0");
	CHECK_OUT(&v, "flow-removed 1.0 bytes");
}

static void
test_port_status(void)
{
	struct of_port	p;
	struct vec	v;

	port_fill(&p, 1, 1);
	start();
	vec(&v, "04 0c 00 50 00 00 00 00 "
	    "02 "			/* reason MODIFY */
	    "00 00 00 00 00 00 00 "	/* pad */
	    PORT13("1"));
	CHECK(of_port_status_encode(&w, V13, 0, OF_PR_MODIFY, &p) == 0,
	    "port-status 1.3");
	CHECK_OUT(&v, "port-status 1.3 bytes");
	port_fill(&p, 2, 0);
	start();
	vec(&v, "01 0c 00 40 00 00 00 00 "
	    "00 "			/* reason ADD */
	    "00 00 00 00 00 00 00 "
	    PORT10("2"));
	CHECK(of_port_status_encode(&w, V10, 0, OF_PR_ADD, &p) == 0,
	    "port-status 1.0");
	CHECK_OUT(&v, "port-status 1.0 bytes");

	/* A 16-character name keeps its terminating NUL. */
	port_fill(&p, 1, 1);
	memset(p.name, 'x', sizeof(p.name));
	start();
	of_port_status_encode(&w, V13, 0, OF_PR_MODIFY, &p);
	CHECK(!w.err && out[16 + 16 + 14] == 'x' && out[16 + 16 + 15] == 0,
	    "port name truncated to 15 characters");
}

/* The controller's side reads back what the switch's side wrote, the
 * byte vectors above. */
static void
test_port_decode(void)
{
	struct of_port	p, q;
	struct rbuf	r;
	struct vec	v;
	uint8_t		reason;

	port_fill(&p, 1, 1);
	vec(&v, "02 00 00 00 00 00 00 00 " PORT13("1"));
	rbuf_init(&r, v.b, v.len);
	CHECK(of_port_status_decode(V13, &r, &reason, &q) == 0 &&
	    reason == OF_PR_MODIFY && memcmp(&p, &q, sizeof(p)) == 0 &&
	    rbuf_left(&r) == 0, "port-status 1.3 decoded");
	port_fill(&p, 2, 0);
	p.curr_speed = p.max_speed = 0;
	vec(&v, PORT10("2"));
	rbuf_init(&r, v.b, v.len);
	CHECK(of_port_decode(V10, &r, &q) == 0 &&
	    memcmp(&p, &q, sizeof(p)) == 0 && rbuf_left(&r) == 0,
	    "1.0 port decoded");
	rbuf_init(&r, v.b, v.len - 1);
	CHECK(of_port_decode(V10, &r, &q) == -1, "short 1.0 port refused");
}

static void
test_port_mod(void)
{
	struct of_port_mod	pm;
	struct vec		v;
	struct rbuf		r;
	enum of_err		err;

	vec(&v, "04 10 00 28 00 00 00 01 "
	    "00 00 00 03 "		/* port_no */
	    "00 00 00 00 "		/* pad */
	    "02 00 00 00 00 03 "	/* hw_addr */
	    "00 00 "			/* pad2 */
	    "00 00 00 01 "		/* config PORT_DOWN */
	    "00 00 00 01 "		/* mask */
	    "00 00 08 40 "		/* advertise */
	    "00 00 00 00");		/* pad3 */
	body_of(&r, &v);
	CHECK(of_port_mod_decode(V13, &r, &pm, &err) == 0 &&
	    pm.port_no == 3 && pm.hw_addr[0] == 2 && pm.hw_addr[5] == 3 &&
	    pm.config == 1 && pm.mask == 1 && pm.advertise == 0x840,
	    "port-mod 1.3 decode");
	rbuf_init(&r, v.b + 8, 28);
	CHECK(of_port_mod_decode(V13, &r, &pm, &err) == -1 &&
	    err == OF_ERR_BAD_LEN, "port-mod 1.3 short");

	vec(&v, "01 0f 00 20 00 00 00 01 "
	    "ff fe "			/* port_no LOCAL */
	    "02 00 00 00 00 03 "	/* hw_addr */
	    "00 00 00 40 "		/* config NO_PACKET_IN */
	    "00 00 00 40 "		/* mask */
	    "00 00 00 00 "		/* advertise */
	    "00 00 00 00");		/* pad */
	body_of(&r, &v);
	CHECK(of_port_mod_decode(V10, &r, &pm, &err) == 0 &&
	    pm.port_no == OF_PORT_LOCAL && pm.config == 0x40 &&
	    pm.mask == 0x40 && pm.hw_addr[5] == 3, "port-mod 1.0 decode");
	rbuf_init(&r, v.b + 8, 23);
	CHECK(of_port_mod_decode(V10, &r, &pm, &err) == -1 &&
	    err == OF_ERR_BAD_LEN, "port-mod 1.0 short");
}

static void
test_role_async(void)
{
	struct of_async	a, b;
	struct vec	v;
	struct rbuf	r;
	enum of_err	err;
	uint64_t	gen;
	uint32_t	role;

	start();
	vec(&v, "04 19 00 18 00 00 00 04 "
	    "00 00 00 02 "		/* role MASTER */
	    "00 00 00 00 "		/* pad */
	    "00 00 00 00 00 00 00 07");	/* generation_id */
	CHECK(of_role_encode(&w, V13, OF_ROLE_REPLY, 4, OF_ROLE_MASTER,
	    7) == 0, "role reply");
	CHECK_OUT(&v, "role reply bytes");
	v.b[1] = 24;
	body_of(&r, &v);
	CHECK(of_role_decode(&r, &role, &gen, &err) == 0 &&
	    role == OF_ROLE_MASTER && gen == 7, "role request decode");
	v.b[11] = 4;
	body_of(&r, &v);
	CHECK(of_role_decode(&r, &role, &gen, &err) == -1 &&
	    err == OF_ERR_ROLE_BAD_ROLE, "role 4 refused");
	rbuf_init(&r, v.b + 8, 12);
	CHECK(of_role_decode(&r, &role, &gen, &err) == -1 &&
	    err == OF_ERR_BAD_LEN, "role request short");
	start();
	CHECK(of_role_encode(&w, V10, OF_ROLE_REPLY, 4, 2, 7) == -1,
	    "no role in 1.0");

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.packet_in[0] = 3;
	a.packet_in[1] = 0;
	a.port_status[0] = 7;
	a.port_status[1] = 7;
	a.flow_removed[0] = 0xf;
	a.flow_removed[1] = 0;
	start();
	vec(&v, "04 1b 00 20 00 00 00 05 "
	    "00 00 00 03 00 00 00 00 "	/* packet_in_mask[2] */
	    "00 00 00 07 00 00 00 07 "	/* port_status_mask[2] */
	    "00 00 00 0f 00 00 00 00");	/* flow_removed_mask[2] */
	CHECK(of_async_encode(&w, V13, OF_GET_ASYNC_REPLY, 5, &a) == 0,
	    "get async reply");
	CHECK_OUT(&v, "get async reply bytes");
	body_of(&r, &v);
	CHECK(of_async_decode(V13, &r, &b, &err) == 0 &&
	    memcmp(&a, &b, sizeof(a)) == 0, "set async decode");
	rbuf_init(&r, v.b + 8, 20);
	CHECK(of_async_decode(V13, &r, &b, &err) == -1 && err == OF_ERR_BAD_LEN,
	    "set async short");
}

static void
test_queue_config(void)
{
	struct vec	v;
	struct rbuf	r;
	enum of_err	err;
	uint32_t	port;

	vec(&v, "04 16 00 10 00 00 00 01 00 00 00 02 00 00 00 00");
	body_of(&r, &v);
	CHECK(of_queue_get_config_decode(V13, &r, &port, &err) == 0 &&
	    port == 2, "queue get config 1.3 decode");
	vec(&v, "01 14 00 0c 00 00 00 01 ff fc 00 00");
	body_of(&r, &v);
	CHECK(of_queue_get_config_decode(V10, &r, &port, &err) == 0 &&
	    port == OF_PORT_ALL, "queue get config 1.0 decode");
	rbuf_init(&r, v.b + 8, 2);
	CHECK(of_queue_get_config_decode(V10, &r, &port, &err) == -1 &&
	    err == OF_ERR_BAD_LEN, "queue get config 1.0 short");

	start();
	vec(&v, "04 17 00 10 00 00 00 01 00 00 00 02 00 00 00 00");
	CHECK(of_queue_get_config_reply_encode(&w, V13, 1, 2) == 0,
	    "queue get config reply 1.3");
	CHECK_OUT(&v, "queue get config reply 1.3 bytes");
	start();
	vec(&v, "01 15 00 10 00 00 00 01 00 02 00 00 00 00 00 00");
	of_queue_get_config_reply_encode(&w, V10, 1, 2);
	CHECK_OUT(&v, "queue get config reply 1.0 bytes");
}

static void
test_mp_request(void)
{
	struct of_mp_request	req;
	struct vec		v;
	struct rbuf		r;
	enum of_err		err;
	uint32_t		port;

	vec(&v, "04 12 00 10 00 00 00 01 00 0d 00 00 00 00 00 00");
	body_of(&r, &v);
	CHECK(of_mp_request_decode(V13, &r, &req, &err) == 0 &&
	    req.mp == OF_MP_PORT_DESC && req.flags == 0 &&
	    rbuf_left(&req.body) == 0, "port-desc request 1.3");
	start();
	of_mp_request_encode(&w, V13, 1, OF_MP_PORT_DESC, NULL, 0);
	CHECK_OUT(&v, "port-desc request 1.3 bytes");

	vec(&v, "01 10 00 0c 00 00 00 01 00 00 00 00");
	body_of(&r, &v);
	CHECK(of_mp_request_decode(V10, &r, &req, &err) == 0 &&
	    req.mp == OF_MP_DESC, "desc stats request 1.0");
	start();
	of_mp_request_encode(&w, V10, 1, OF_MP_DESC, NULL, 0);
	CHECK_OUT(&v, "desc stats request 1.0 bytes");

	vec(&v, "04 12 00 10 00 00 00 01 00 20 00 00 00 00 00 00");
	body_of(&r, &v);
	CHECK(of_mp_request_decode(V13, &r, &req, &err) == -1 &&
	    err == OF_ERR_BAD_MULTIPART, "1.3 multipart type 32");
	vec(&v, "01 10 00 0c 00 00 00 01 00 0d 00 00");
	body_of(&r, &v);
	CHECK(of_mp_request_decode(V10, &r, &req, &err) == 0 &&
	    req.mp == OF_MP_PORT_DESC, "1.0 port-desc (Open vSwitch's 13)");
	vec(&v, "01 10 00 0c 00 00 00 01 00 0e 00 00");
	body_of(&r, &v);
	CHECK(of_mp_request_decode(V10, &r, &req, &err) == -1 &&
	    err == OF_ERR_BAD_MULTIPART, "1.0 stats type 14 unknown");
	vec(&v, "04 12 00 14 00 00 00 01 ff ff 00 00 00 00 00 00 "
	    "00 00 23 20");
	body_of(&r, &v);
	CHECK(of_mp_request_decode(V13, &r, &req, &err) == 0 &&
	    req.mp == OF_MP_EXPERIMENTER && rbuf_left(&req.body) == 4,
	    "experimenter multipart: the body goes to the table");
	vec(&v, "04 12 00 0e 00 00 00 01 00 00 00 00 00 00");
	body_of(&r, &v);
	CHECK(of_mp_request_decode(V13, &r, &req, &err) == -1 &&
	    err == OF_ERR_BAD_LEN, "1.3 multipart header short");
	start();
	CHECK(of_mp_request_encode(&w, V10, 1, OF_MP_GROUP, NULL, 0) == -1,
	    "no group stats in 1.0");

	vec(&v, "04 12 00 18 00 00 00 01 00 04 00 00 00 00 00 00 "
	    "00 00 00 05 00 00 00 00");
	body_of(&r, &v);
	CHECK(of_mp_request_decode(V13, &r, &req, &err) == 0 &&
	    req.mp == OF_MP_PORT_STATS &&
	    of_port_stats_request_decode(V13, &req.body, &port, &err) == 0 &&
	    port == 5, "port stats request 1.3");
	vec(&v, "01 10 00 14 00 00 00 01 00 04 00 00 "
	    "ff ff 00 00 00 00 00 00");
	body_of(&r, &v);
	CHECK(of_mp_request_decode(V10, &r, &req, &err) == 0 &&
	    of_port_stats_request_decode(V10, &req.body, &port, &err) == 0 &&
	    port == OF_PORT_ANY, "port stats request 1.0 NONE -> ANY");
	rbuf_init(&r, v.b + 12, 4);
	CHECK(of_port_stats_request_decode(V10, &r, &port, &err) == -1 &&
	    err == OF_ERR_BAD_LEN, "port stats request short");
}

static void
test_flow_stats_request(void)
{
	struct of_mp_request	req;
	struct of_flow_filter	f;
	struct of_match		m;
	struct vec		v;
	struct rbuf		r;
	enum of_err		err;

	vec(&v, "04 12 00 40 00 00 00 03 "
	    "00 01 00 00 00 00 00 00 "	/* FLOW, flags, pad */
	    "ff "			/* table_id ALL */
	    "00 00 00 "			/* pad */
	    "00 00 00 02 "		/* out_port 2 */
	    "ff ff ff ff "		/* out_group ANY */
	    "00 00 00 00 "		/* pad2 */
	    "00 00 00 00 00 00 00 2a "	/* cookie */
	    "00 00 00 00 ff ff ff ff "	/* cookie_mask */
	    MATCH13_IN_PORT_1);
	body_of(&r, &v);
	match_in_port(&m, 1);
	CHECK(of_mp_request_decode(V13, &r, &req, &err) == 0 &&
	    req.mp == OF_MP_FLOW &&
	    of_flow_stats_request_decode(V13, &req.body, &f, &err) == 0 &&
	    f.table_id == OF_TABLE_ALL && f.out_port == 2 &&
	    f.out_group == OF_GROUP_ANY && f.cookie == 42 &&
	    f.cookie_mask == 0xffffffff && of_match_equal(&f.match, &m),
	    "flow stats request 1.3 decode");
	start();
	CHECK(of_flow_stats_request_encode(&w, V13, 3, OF_MP_FLOW, &f) == 0,
	    "flow stats request 1.3 encode");
	CHECK_OUT(&v, "flow stats request 1.3 bytes");
	rbuf_init(&r, v.b + 16, 31);
	CHECK(of_flow_stats_request_decode(V13, &r, &f, &err) == -1 &&
	    err == OF_ERR_BAD_LEN, "flow stats request 1.3 short");

	vec(&v, "01 10 00 38 00 00 00 03 "
	    "00 02 00 00 "		/* AGGREGATE, flags */
	    MATCH10_IN_PORT_1
	    "00 "			/* table_id 0 */
	    "00 "			/* pad */
	    "ff ff");			/* out_port NONE */
	body_of(&r, &v);
	CHECK(of_mp_request_decode(V10, &r, &req, &err) == 0 &&
	    req.mp == OF_MP_AGGREGATE &&
	    of_flow_stats_request_decode(V10, &req.body, &f, &err) == 0 &&
	    f.table_id == 0 && f.out_port == OF_PORT_ANY &&
	    f.out_group == OF_GROUP_ANY && f.cookie_mask == 0 &&
	    of_match_equal(&f.match, &m), "aggregate request 1.0 decode");
	start();
	CHECK(of_flow_stats_request_encode(&w, V10, 3, OF_MP_AGGREGATE,
	    &f) == 0, "aggregate request 1.0 encode");
	CHECK_OUT(&v, "aggregate request 1.0 bytes");
	rbuf_init(&r, v.b + 12, 43);
	CHECK(of_flow_stats_request_decode(V10, &r, &f, &err) == -1 &&
	    err == OF_ERR_BAD_LEN, "flow stats request 1.0 short");
}

static void
test_desc_aggregate_empty(void)
{
	char		 longstr[300];
	struct of_desc	 d = { "sbsim", "hw", "sw", "serial", NULL };
	struct rbuf	 r, e;
	struct vec	 v;
	enum of_mp	 mp;
	uint64_t	 packets, bytes;
	uint32_t	 flows;
	uint16_t	 flags;

	memset(longstr, 'y', sizeof(longstr) - 1);
	longstr[sizeof(longstr) - 1] = '\0';
	d.dp_desc = longstr;
	start();
	CHECK(of_mp_desc_encode(&w, V13, 1, &d) == 0 && w.len == 1072 &&
	    out[2] == 0x04 && out[3] == 0x30, "desc 1.3 length 1072");
	CHECK(memcmp(out + 16, "sbsim\0", 6) == 0 &&
	    memcmp(out + 16 + 256, "hw\0", 3) == 0 &&
	    memcmp(out + 16 + 512, "sw\0", 3) == 0 &&
	    memcmp(out + 16 + 768, "serial\0", 7) == 0 &&
	    out[16 + 800] == 'y' && out[16 + 800 + 254] == 'y' &&
	    out[16 + 800 + 255] == 0, "desc 1.3 fields at their offsets");
	start();
	CHECK(of_mp_desc_encode(&w, V10, 1, &d) == 0 && w.len == 1068 &&
	    out[1] == 17 && memcmp(out + 12, "sbsim\0", 6) == 0 &&
	    memcmp(out + 12 + 768, "serial\0", 7) == 0, "desc 1.0");

	start();
	vec(&v, "04 13 00 28 00 00 00 02 "
	    "00 02 00 00 00 00 00 00 "	/* AGGREGATE, flags, pad */
	    "00 00 00 00 00 00 00 0a "	/* packet_count */
	    "00 00 00 00 00 00 03 e8 "	/* byte_count */
	    "00 00 00 03 "		/* flow_count */
	    "00 00 00 00");		/* pad */
	CHECK(of_mp_aggregate_encode(&w, V13, 2, 10, 1000, 3) == 0,
	    "aggregate 1.3");
	CHECK_OUT(&v, "aggregate reply 1.3 bytes");
	body_of(&r, &v);
	CHECK(of_mp_reply_decode(V13, &r, &mp, &flags, &e) == 0 &&
	    mp == OF_MP_AGGREGATE && flags == 0 &&
	    of_aggregate_decode(&e, &packets, &bytes, &flows) == 0 &&
	    packets == 10 && bytes == 1000 && flows == 3,
	    "aggregate reply 1.3 decode");
	start();
	vec(&v, "01 11 00 24 00 00 00 02 "
	    "00 02 00 00 "		/* AGGREGATE, flags */
	    "00 00 00 00 00 00 00 0a 00 00 00 00 00 00 03 e8 "
	    "00 00 00 03 00 00 00 00");
	of_mp_aggregate_encode(&w, V10, 2, 10, 1000, 3);
	CHECK_OUT(&v, "aggregate reply 1.0 bytes");
	body_of(&r, &v);
	CHECK(of_mp_reply_decode(V10, &r, &mp, &flags, &e) == 0 &&
	    mp == OF_MP_AGGREGATE &&
	    of_aggregate_decode(&e, &packets, &bytes, &flows) == 0 &&
	    flows == 3, "aggregate reply 1.0 decode");
	rbuf_init(&e, v.b + 12, 20);
	CHECK(of_aggregate_decode(&e, &packets, &bytes, &flows) == -1,
	    "aggregate reply short");

	start();
	vec(&v, "04 13 00 10 00 00 00 03 00 06 00 00 00 00 00 00");
	CHECK(of_mp_empty_encode(&w, V13, 3, OF_MP_GROUP) == 0,
	    "group stats empty");
	CHECK_OUT(&v, "group stats reply bytes");
	start();
	of_mp_empty_encode(&w, V13, 3, OF_MP_GROUP_FEATURES);
	CHECK(!w.err && w.len == 56 && out[3] == 56 && out[9] == 8 &&
	    out[55] == 0, "group features: 40 zero bytes");
	start();
	vec(&v, "04 13 00 20 00 00 00 03 00 0b 00 00 00 00 00 00 "
	    "00 00 00 00 "		/* max_meter */
	    "00 00 00 00 "		/* band_types */
	    "00 00 00 00 "		/* capabilities */
	    "00 00 00 00");		/* max_bands, max_color, pad */
	of_mp_empty_encode(&w, V13, 3, OF_MP_METER_FEATURES);
	CHECK_OUT(&v, "meter features reply bytes");
	start();
	vec(&v, "01 11 00 0c 00 00 00 03 00 05 00 00");
	of_mp_empty_encode(&w, V10, 3, OF_MP_QUEUE);
	CHECK_OUT(&v, "queue stats reply 1.0 bytes");
	start();
	CHECK(of_mp_empty_encode(&w, V10, 3, OF_MP_METER) == -1 && w.err,
	    "no meter stats in 1.0");
	start();
	of_mp_empty_encode(&w, V13, 3, OF_MP_TABLE_FEATURES);
	CHECK(!w.err && w.len == 16 && out[9] == 12, "table features empty");
}

/* Messages handed to flush(), copied out. */
struct captured {
	int	n;
	size_t	len[2048];
	uint8_t	*msg[2048];
};

static void
capture(void *arg, struct wbuf *wb)
{
	struct captured	*c = arg;

	if (c->n < 2048) {
		c->msg[c->n] = malloc(wb->len);
		memcpy(c->msg[c->n], wb->data, wb->len);
		c->len[c->n++] = wb->len;
	}
	wbuf_reset(wb);
}

static void
captured_free(struct captured *c)
{
	while (c->n > 0)
		free(c->msg[--c->n]);
}

static uint16_t
msg_u16(const uint8_t *p, size_t off)
{
	return (uint16_t)(p[off] << 8 | p[off + 1]);
}

#define FLOW_STATS13_ENTRY						\
	"00 58 "			/* length 88 */			\
	"00 "				/* table_id */			\
	"00 "				/* pad */			\
	"00 00 00 0a "			/* duration_sec */		\
	"00 00 00 14 "			/* duration_nsec */		\
	"80 00 "			/* priority */			\
	"00 3c "			/* idle_timeout */		\
	"00 78 "			/* hard_timeout */		\
	"00 01 "			/* flags */			\
	"00 00 00 00 "			/* pad2 */			\
	"00 00 00 00 00 00 00 2a "	/* cookie */			\
	"00 00 00 00 00 00 00 05 "	/* packet_count */		\
	"00 00 00 00 00 00 01 f4 "	/* byte_count */		\
	MATCH13_IN_PORT_1						\
	INST_APPLY_OUTPUT_2

#define FLOW_STATS10_ENTRY						\
	"00 60 "			/* length 96 */			\
	"00 "				/* table_id */			\
	"00 "				/* pad */			\
	MATCH10_IN_PORT_1						\
	"00 00 00 0a "			/* duration_sec */		\
	"00 00 00 14 "			/* duration_nsec */		\
	"80 00 "			/* priority */			\
	"00 3c "			/* idle_timeout */		\
	"00 78 "			/* hard_timeout */		\
	"00 00 00 00 00 00 "		/* pad2 */			\
	"00 00 00 00 00 00 00 2a "	/* cookie */			\
	"00 00 00 00 00 00 00 05 "	/* packet_count */		\
	"00 00 00 00 00 00 01 f4 "	/* byte_count */		\
	ACT10_OUTPUT_2

static const char flow_stats13_entry[] = FLOW_STATS13_ENTRY;
static const char flow_stats10_entry[] = FLOW_STATS10_ENTRY;

static const char flow_stats13_reply[] =
	"04 13 00 68 00 00 00 07 "	/* MULTIPART_REPLY, 16 + 88 */
	"00 01 "			/* FLOW */
	"00 00 "			/* flags */
	"00 00 00 00 "			/* pad */
	FLOW_STATS13_ENTRY;

static const char flow_stats10_reply[] =
	"01 11 00 6c 00 00 00 07 "	/* STATS_REPLY, 12 + 96 */
	"00 01 "			/* FLOW */
	"00 00 "			/* flags */
	FLOW_STATS10_ENTRY;

static void
test_flow_stats_reply(uint8_t version)
{
	static struct captured	c;
	struct of_mp_reply	mr;
	struct of_flow_info	fi, got;
	struct of_match		m, store;
	struct vec		v, prog, one;
	struct rbuf		r, e;
	enum of_mp		mp;
	uint16_t		flags;
	size_t			hdr = version == V13 ? 16 : 12;
	size_t			elen = version == V13 ? 88 : 96;
	int			i, ok, n;

	vec(&prog, version == V13 ? INST_APPLY_OUTPUT_2 : ACT10_OUTPUT_2);
	match_in_port(&m, 1);
	flow_info(&fi, &m, prog.b, prog.len);
	if (version == V10)
		fi.flags = 0;		/* no flags in 1.0 flow stats */

	/* One entry: the exact bytes. */
	vec(&one, version == V13 ? flow_stats13_reply : flow_stats10_reply);
	start();
	of_mp_reply_begin(&mr, &w, version, 7, OF_MP_FLOW, 0, capture, &c);
	CHECK(of_mp_reply_add_flow(&mr, &fi) == 0 && of_mp_reply_end(&mr) == 0
	    && c.n == 1, "%s one flow stats entry", version == V13 ? "1.3" :
	    "1.0");
	CHECK_BYTES(c.msg[0], c.len[0], one.b, one.len,
	    "%s flow stats reply bytes", version == V13 ? "1.3" : "1.0");
	rbuf_init(&r, c.msg[0] + 8, c.len[0] - 8);
	CHECK(of_mp_reply_decode(version, &r, &mp, &flags, &e) == 0 &&
	    mp == OF_MP_FLOW && flags == 0 &&
	    of_flow_stats_next(version, &e, &got, &store) == 1 &&
	    got.priority == 0x8000 && got.cookie == 42 &&
	    got.packet_count == 5 && got.byte_count == 500 &&
	    got.idle_timeout == 60 && got.hard_timeout == 120 &&
	    got.duration_sec == 10 && got.duration_nsec == 20 &&
	    got.flags == fi.flags && of_match_equal(got.match, &m) &&
	    got.prog_len == prog.len &&
	    memcmp(got.prog, prog.b, prog.len) == 0 &&
	    of_flow_stats_next(version, &e, &got, &store) == 0,
	    "flow stats entry decode");
	captured_free(&c);

	/* Ten entries, three per message: 3 + 3 + 3 + 1 with MORE. */
	start();
	of_mp_reply_begin(&mr, &w, version, 7, OF_MP_FLOW, hdr + 3 * elen,
	    capture, &c);
	for (i = 0, ok = 1; i < 10; i++)
		ok &= of_mp_reply_add_flow(&mr, &fi) == 0;
	ok &= of_mp_reply_end(&mr) == 0;
	CHECK(ok && c.n == 4, "10 entries in 4 messages (%d)", c.n);
	for (i = 0, ok = 1, n = 0; i < c.n; i++) {
		ok &= msg_u16(c.msg[i], 2) == c.len[i];
		ok &= c.len[i] == hdr + (i < 3 ? 3 : 1) * elen;
		ok &= msg_u16(c.msg[i], 10) == (i < 3 ? OF_MPF_MORE : 0);
		ok &= msg_u16(c.msg[i], 4) == 0 && msg_u16(c.msg[i], 6) == 7;
		rbuf_init(&r, c.msg[i] + 8, c.len[i] - 8);
		of_mp_reply_decode(version, &r, &mp, &flags, &e);
		while (of_flow_stats_next(version, &e, &got, &store) == 1)
			n++;
	}
	CHECK(ok && n == 10, "MORE on all but the last, 10 entries decoded");
	captured_free(&c);

	/* Default limit: no message over 65535 bytes. */
	start();
	of_mp_reply_begin(&mr, &w, version, 8, OF_MP_FLOW, 0, capture, &c);
	for (i = 0, ok = 1; i < 1000; i++)
		ok &= of_mp_reply_add_flow(&mr, &fi) == 0;
	ok &= of_mp_reply_end(&mr) == 0;
	n = (int)((OF_MAX_MSG - hdr) / elen);
	CHECK(ok && c.n == 2 && c.len[0] == hdr + n * elen &&
	    c.len[1] == hdr + (1000 - n) * elen &&
	    msg_u16(c.msg[0], 10) == OF_MPF_MORE &&
	    msg_u16(c.msg[1], 10) == 0, "1000 entries split at 65535");
	captured_free(&c);

	/* Zero entries: one empty reply. */
	start();
	of_mp_reply_begin(&mr, &w, version, 9, OF_MP_FLOW, 100, capture, &c);
	CHECK(of_mp_reply_end(&mr) == 0 && c.n == 1 && c.len[0] == hdr &&
	    msg_u16(c.msg[0], 10) == 0, "no entries: one empty reply");
	captured_free(&c);

	/* An entry bigger than max_msg alone still goes, in its own message. */
	start();
	of_mp_reply_begin(&mr, &w, version, 9, OF_MP_FLOW, 50, capture, &c);
	ok = of_mp_reply_add_flow(&mr, &fi) == 0;
	ok &= of_mp_reply_add_flow(&mr, &fi) == 0;
	ok &= of_mp_reply_end(&mr) == 0;
	CHECK(ok && c.n == 2 && c.len[0] == hdr + elen &&
	    c.len[1] == hdr + elen, "oversized entries one per message");
	captured_free(&c);

	/* An entry that fits in no message is an error. */
	{
		static uint8_t	huge[65536];

		flow_info(&fi, &m, huge, sizeof(huge) - 8);
		start();
		of_mp_reply_begin(&mr, &w, version, 9, OF_MP_FLOW, 0, capture,
		    &c);
		CHECK(of_mp_reply_add_flow(&mr, &fi) == -1 && w.err &&
		    of_mp_reply_end(&mr) == -1 && c.n == 0,
		    "entry over 65535 refused");
		captured_free(&c);
	}

	/* Without a flush callback the messages pile up in the wbuf. */
	flow_info(&fi, &m, prog.b, prog.len);
	start();
	of_mp_reply_begin(&mr, &w, version, 9, OF_MP_FLOW, hdr + elen, NULL,
	    NULL);
	ok = of_mp_reply_add_flow(&mr, &fi) == 0;
	ok &= of_mp_reply_add_flow(&mr, &fi) == 0;
	ok &= of_mp_reply_end(&mr) == 0;
	CHECK(ok && w.len == 2 * (hdr + elen) &&
	    msg_u16(out, 10) == OF_MPF_MORE &&
	    msg_u16(out, hdr + elen + 10) == 0, "no flush: messages in wbuf");

	/* Malformed entries. */
	vec(&v, version == V13 ? flow_stats13_entry : flow_stats10_entry);
	v.b[1] = (uint8_t)(elen + 8);		/* length past the entries */
	rbuf_init(&e, v.b, v.len);
	CHECK(of_flow_stats_next(version, &e, &got, &store) == -1,
	    "flow stats entry length past the end");
	v.b[1] = 1;
	rbuf_init(&e, v.b, v.len);
	CHECK(of_flow_stats_next(version, &e, &got, &store) == -1,
	    "flow stats entry length 1");
	v.b[1] = 20;
	rbuf_init(&e, v.b, v.len);
	CHECK(of_flow_stats_next(version, &e, &got, &store) == -1,
	    "flow stats entry shorter than fixed part");
}

static void
test_table_port_replies(void)
{
	static struct captured	c;
	struct of_mp_reply	mr;
	struct of_table_stats	ts;
	struct of_port_stats	ps;
	struct of_port		p;
	struct vec		v;

	memset(&ts, 0, sizeof(ts));
	ts.table_id = 1;
	ts.active_count = 5;
	ts.lookup_count = 100;
	ts.matched_count = 90;
	ts.max_entries = 4096;
	start();
	vec(&v, "04 13 00 28 00 00 00 01 00 03 00 00 00 00 00 00 "
	    "01 "			/* table_id */
	    "00 00 00 "			/* pad */
	    "00 00 00 05 "		/* active_count */
	    "00 00 00 00 00 00 00 64 "	/* lookup_count */
	    "00 00 00 00 00 00 00 5a");	/* matched_count */
	of_mp_reply_begin(&mr, &w, V13, 1, OF_MP_TABLE, 0, capture, &c);
	of_mp_reply_add_table(&mr, &ts);
	of_mp_reply_end(&mr);
	CHECK(c.n == 1, "table stats 1.3");
	CHECK_BYTES(c.msg[0], c.len[0], v.b, v.len, "table stats 1.3 bytes");
	captured_free(&c);

	start();
	vec(&v, "01 11 00 4c 00 00 00 01 00 03 00 00 "
	    "01 00 00 00 "		/* table_id, pad */
	    "63 6c 61 73 73 69 66 69 65 72 00 00 00 00 00 00 "
	    "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 " /* name */
	    "00 3f ff ff "		/* wildcards OFPFW_ALL */
	    "00 00 10 00 "		/* max_entries */
	    "00 00 00 05 "		/* active_count */
	    "00 00 00 00 00 00 00 64 "	/* lookup_count */
	    "00 00 00 00 00 00 00 5a");	/* matched_count */
	of_mp_reply_begin(&mr, &w, V10, 1, OF_MP_TABLE, 0, capture, &c);
	of_mp_reply_add_table(&mr, &ts);
	of_mp_reply_end(&mr);
	CHECK(c.n == 1, "table stats 1.0");
	CHECK_BYTES(c.msg[0], c.len[0], v.b, v.len, "table stats 1.0 bytes");
	captured_free(&c);

	memset(&ps, 0, sizeof(ps));
	ps.port_no = 1;
	ps.rx_packets = 1; ps.tx_packets = 2; ps.rx_bytes = 3;
	ps.tx_bytes = 4; ps.rx_dropped = 5; ps.tx_dropped = 6;
	ps.rx_errors = 7; ps.tx_errors = 8; ps.rx_frame_err = 9;
	ps.rx_over_err = 10; ps.rx_crc_err = 11; ps.collisions = 12;
	ps.duration_sec = 13; ps.duration_nsec = 14;
#define PORT_COUNTERS							\
	"00 00 00 00 00 00 00 01 "	/* rx_packets */		\
	"00 00 00 00 00 00 00 02 "	/* tx_packets */		\
	"00 00 00 00 00 00 00 03 "	/* rx_bytes */			\
	"00 00 00 00 00 00 00 04 "	/* tx_bytes */			\
	"00 00 00 00 00 00 00 05 "	/* rx_dropped */		\
	"00 00 00 00 00 00 00 06 "	/* tx_dropped */		\
	"00 00 00 00 00 00 00 07 "	/* rx_errors */			\
	"00 00 00 00 00 00 00 08 "	/* tx_errors */			\
	"00 00 00 00 00 00 00 09 "	/* rx_frame_err */		\
	"00 00 00 00 00 00 00 0a "	/* rx_over_err */		\
	"00 00 00 00 00 00 00 0b "	/* rx_crc_err */		\
	"00 00 00 00 00 00 00 0c "	/* collisions */
	start();
	vec(&v, "04 13 00 80 00 00 00 02 00 04 00 00 00 00 00 00 "
	    "00 00 00 01 "		/* port_no */
	    "00 00 00 00 "		/* pad */
	    PORT_COUNTERS
	    "00 00 00 0d "		/* duration_sec */
	    "00 00 00 0e");		/* duration_nsec */
	of_mp_reply_begin(&mr, &w, V13, 2, OF_MP_PORT_STATS, 0, capture, &c);
	of_mp_reply_add_port_stats(&mr, &ps);
	of_mp_reply_end(&mr);
	CHECK(c.n == 1, "port stats 1.3");
	CHECK_BYTES(c.msg[0], c.len[0], v.b, v.len, "port stats 1.3 bytes");
	captured_free(&c);
	start();
	vec(&v, "01 11 00 74 00 00 00 02 00 04 00 00 "
	    "00 01 "			/* port_no */
	    "00 00 00 00 00 00 "	/* pad */
	    PORT_COUNTERS);
	of_mp_reply_begin(&mr, &w, V10, 2, OF_MP_PORT_STATS, 0, capture, &c);
	of_mp_reply_add_port_stats(&mr, &ps);
	of_mp_reply_end(&mr);
	CHECK(c.n == 1, "port stats 1.0");
	CHECK_BYTES(c.msg[0], c.len[0], v.b, v.len, "port stats 1.0 bytes");
	captured_free(&c);
	{
		struct of_port_stats	q;
		struct rbuf		r;

		/* The controller reads the entry back (after the 12-byte
		 * 1.0 multipart header). */
		rbuf_init(&r, v.b + 12, v.len - 12);
		ps.duration_sec = ps.duration_nsec = 0;
		CHECK(of_port_stats_next(V10, &r, &q) == 1 &&
		    memcmp(&ps, &q, sizeof(ps)) == 0 &&
		    of_port_stats_next(V10, &r, &q) == 0,
		    "port stats 1.0 decoded");
		rbuf_init(&r, v.b + 12, v.len - 13);
		CHECK(of_port_stats_next(V10, &r, &q) == -1,
		    "short port stats refused");
	}

	port_fill(&p, 1, 1);
	start();
	vec(&v, "04 13 00 50 00 00 00 03 00 0d 00 00 00 00 00 00 "
	    PORT13("1"));
	of_mp_reply_begin(&mr, &w, V13, 3, OF_MP_PORT_DESC, 0, capture, &c);
	of_mp_reply_add_port(&mr, &p);
	of_mp_reply_end(&mr);
	CHECK(c.n == 1, "port desc 1.3");
	CHECK_BYTES(c.msg[0], c.len[0], v.b, v.len, "port desc 1.3 bytes");
	captured_free(&c);

	start();
	of_mp_reply_begin(&mr, &w, V10, 3, OF_MP_PORT_DESC, 0, capture, &c);
	CHECK(of_mp_reply_add_port(&mr, &p) == 0 &&
	    of_mp_reply_end(&mr) == 0 && c.n == 1 && c.len[0] == 12 + 48,
	    "port desc 1.0: ofp_phy_port entries");
	start();
	of_mp_reply_begin(&mr, &w, V13, 3, OF_MP_TABLE, 0, capture, &c);
	CHECK(of_mp_reply_add_port(&mr, &p) == -1 && w.err,
	    "entry of the wrong kind refused");
	captured_free(&c);
}

static uint16_t
get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void
test_table_features(void)
{
	static struct captured	c;
	static const uint16_t	types[] = { 0, 2, 4, 6, 8, 10, 12, 14 };
	static const uint16_t	lens0[] = { 24, 5, 68, 68, 164, 164, 152, 152 };
	struct of_mp_reply	mr;
	struct vec		v;
	const uint8_t		*e, *p;
	size_t			i;
	int			ok;

	start();
	of_mp_reply_begin(&mr, &w, V13, 2, OF_MP_TABLE_FEATURES, 0, capture,
	    &c);
	ok = of_mp_reply_add_table_features(&mr, 0, 2, 1000) == 0;
	ok &= of_mp_reply_add_table_features(&mr, 1, 2, 1000) == 0;
	ok &= of_mp_reply_end(&mr) == 0;
	CHECK(ok && c.n == 1 && c.len[0] == 16 + 2 * 880,
	    "table features: 2 tables of 880 bytes");
	if (c.n != 1)
		return;
	vec(&v, "04 13 06 f0 00 00 00 02 00 0c 00 00 00 00 00 00 "
	    "03 70 "			/* length 880 */
	    "00 "			/* table_id */
	    "00 00 00 00 00 "		/* pad */
	    "74 61 62 6c 65 30 00 00 00 00 00 00 00 00 00 00 "
	    "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 " /* name */
	    "ff ff ff ff ff ff ff ff "	/* metadata_match */
	    "ff ff ff ff ff ff ff ff "	/* metadata_write */
	    "00 00 00 00 "		/* config */
	    "00 00 03 e8 "		/* max_entries */
	    "00 00 00 18 "		/* INSTRUCTIONS, 24 */
	    "00 01 00 04 00 02 00 04 00 03 00 04 00 04 00 04 00 05 00 04 "
	    "00 02 00 05 01 00 00 00 "	/* NEXT_TABLES: 1, padded */
	    "00 04 00 44 "		/* WRITE_ACTIONS, 68 */
	    "00 00 00 04");		/* OUTPUT */
	CHECK_BYTES(c.msg[0], v.len, v.b, v.len,
	    "table features entry header and first properties");
	e = c.msg[0] + 16;
	for (i = 0, ok = 1, p = e + 64; i < 8; i++) {
		ok &= get16(p) == types[i] && get16(p + 2) == lens0[i];
		p += (get16(p + 2) + 7) / 8 * 8;
	}
	CHECK(ok && p == e + 880, "table 0 properties in order");
	p = e + 64 + 24 + 8 + 72 + 72;
	CHECK(get16(p + 4) == 0x8000 && get16(p + 6) == 0x0004 &&
	    get16(p + 8) == 0x8000 && get16(p + 10) == 0x0204 &&
	    get16(p + 12) == 0x8000 && get16(p + 14) == 0x0510,
	    "MATCH: in_port exact, in_phy_port exact, metadata maskable");
	e += 880;
	CHECK(get16(e) == 880 && e[2] == 1 && get16(e + 64 + 2) == 20 &&
	    get16(e + 64 + 24) == 2 && get16(e + 64 + 24 + 2) == 4,
	    "last table: no GOTO_TABLE, no next tables");
	captured_free(&c);

	start();
	of_mp_reply_begin(&mr, &w, V13, 2, OF_MP_TABLE_FEATURES, 0, capture,
	    &c);
	for (i = 0, ok = 1; i < 254; i++)
		ok &= of_mp_reply_add_table_features(&mr, (uint8_t)i, 254,
		    1000) == 0;
	ok &= of_mp_reply_end(&mr) == 0;
	for (i = 0; i < (size_t)c.n; i++)
		ok &= c.len[i] <= OF_MAX_MSG && get16(c.msg[i] + 10) ==
		    (i + 1 < (size_t)c.n ? OF_MPF_MORE : 0);
	CHECK(ok && c.n > 1, "254 tables over %d messages with MORE", c.n);
	captured_free(&c);

	start();
	of_mp_reply_begin(&mr, &w, V10, 2, OF_MP_TABLE_FEATURES, 0, capture,
	    &c);
	CHECK(of_mp_reply_add_table_features(&mr, 0, 1, 10) == -1,
	    "no table features in 1.0");
}

static void
test_wbuf_overflow(void)
{
	uint8_t		small[20];
	struct wbuf	sw;
	struct of_flow_mod fm;
	struct vec	v;
	struct rbuf	r;
	enum of_err	err;

	wbuf_init(&sw, small, sizeof(small));
	CHECK(of_hello_encode(&sw, V13, 1, 0x12) == 0 && sw.len == 16,
	    "hello fits in 20 bytes");
	CHECK(of_hello_encode(&sw, V13, 1, 0x12) == -1 && sw.err,
	    "second hello does not");
	vec(&v, flow_mod13_add);
	body_of(&r, &v);
	of_flow_mod_decode(V13, &r, &fm, &err);
	wbuf_init(&sw, small, sizeof(small));
	CHECK(of_flow_mod_encode(&sw, V13, 1, &fm) == -1 && sw.err,
	    "flow-mod too big for the wbuf");
}

static void
test_flow_stats_reply13(void)
{
	test_flow_stats_reply(V13);
}

static void
test_flow_stats_reply10(void)
{
	test_flow_stats_reply(V10);
}

/* The layout tables that of_codec14.c and of_codec_mp.c share: their
 * wire sizes are the spec's, and what of_fields_put writes of_fields_get
 * reads back (a short reader stops with -1). */
static size_t
fields_wire_len(const struct of_field *f, size_t n)
{
	size_t	len = 0;

	for (; n > 0; f++, n--)
		len += f->size;
	return len;
}

static void
test_fields(void)
{
	struct of_port_stats	ps, back;
	uint8_t			buf[128];
	struct wbuf		wb;
	struct rbuf		r;

	CHECK(fields_wire_len(of_port_features, OF_PORT_FEATURES_10) == 16 &&
	    fields_wire_len(of_port_features, OF_NFIELDS(of_port_features)) ==
	    24, "port features: 16 bytes in 1.0, 24 in 1.3");
	CHECK(fields_wire_len(of_port_counters, OF_NFIELDS(of_port_counters))
	    == OFP10_PORT_STATS_LEN - 8 && OFP13_PORT_STATS_LEN - 16 ==
	    fields_wire_len(of_port_counters, OF_NFIELDS(of_port_counters)),
	    "port counters: ofp_port_stats less port_no, pad, durations");
	CHECK(fields_wire_len(of_flow_desc15, OF_NFIELDS(of_flow_desc15)) ==
	    OFP15_FLOW_DESC_FIXED - 2 - 8 && fields_wire_len(of_flow_removed15,
	    OF_NFIELDS(of_flow_removed15)) == 16,
	    "1.5 flow_desc and FLOW_REMOVED fixed fields");
	memset(&ps, 0, sizeof(ps));
	ps.rx_packets = 1;
	ps.tx_errors = 0x0102030405060708ull;
	ps.collisions = UINT64_MAX;
	wbuf_init(&wb, buf, sizeof(buf));
	of_fields_put(&wb, &ps, of_port_counters, OF_NFIELDS(of_port_counters));
	memset(&back, 0, sizeof(back));
	rbuf_init(&r, buf, wb.len);
	CHECK(!wb.err && wb.len == 96 && buf[7] == 1 && buf[56] == 1 &&
	    buf[63] == 8 && of_fields_get(&r, &back, of_port_counters,
	    OF_NFIELDS(of_port_counters)) == 0 &&
	    memcmp(&ps, &back, sizeof(ps)) == 0 && rbuf_left(&r) == 0,
	    "port counters written in network order and read back");
	rbuf_init(&r, buf, wb.len - 1);
	CHECK(of_fields_get(&r, &back, of_port_counters,
	    OF_NFIELDS(of_port_counters)) == -1, "short counters refused");
}

static const struct check_case cases[] = {
	CASE(test_header),
	CASE(test_types),
	CASE(test_hello),
	CASE(test_negotiate),
	CASE(test_error),
	CASE(test_error_table),
	CASE(test_simple),
	CASE(test_features),
	CASE(test_switch_config),
	CASE(test_packet_in),
	CASE(test_packet_out),
	CASE(test_flow_mod13),
	CASE(test_flow_mod10),
	CASE(test_flow_removed),
	CASE(test_port_status),
	CASE(test_port_decode),
	CASE(test_port_mod),
	CASE(test_role_async),
	CASE(test_queue_config),
	CASE(test_mp_request),
	CASE(test_flow_stats_request),
	CASE(test_desc_aggregate_empty),
	CASE(test_flow_stats_reply13),
	CASE(test_flow_stats_reply10),
	CASE(test_table_port_replies),
	CASE(test_table_features),
	CASE(test_wbuf_overflow),
	CASE(test_fields),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
