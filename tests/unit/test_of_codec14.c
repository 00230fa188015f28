/*
 * OpenFlow 1.4 and 1.5 codec against byte vectors written out from the
 * structure layouts of the 1.4.1 specification (appendix A) and the
 * 1.5.1 specification (section 7), one field per line, each also
 * decoded by `ovs-ofctl ofp-print` (Open vSwitch 3.1) to the fields the
 * comments give; the 1.5 GROUP_MOD and PACKET_OUT vectors are what
 * ovs-ofctl -O OpenFlow15 sent.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "of_actions.h"
#include "of_codec.h"
#include "of_codec14.h"
#include "of_group.h"
#include "opt.h"

#define CHECK_CODEC_HDR_LEN	OF_HEADER_LEN
#include "check_codec.h"

#define V13	OF_VERSION_13
#define V14	OF_VERSION_14
#define V15	OF_VERSION_15

#define MATCH_IN_PORT_1							\
	"00 01 00 0c "		/* ofp_match: type OXM, length 12 */	\
	"80 00 00 04 "		/* OXM IN_PORT, exact, 4 bytes */	\
	"00 00 00 01 "		/* port 1 */				\
	"00 00 00 00 "		/* padding to 8 */
#define INST_APPLY_OUTPUT_2						\
	"00 04 00 18 00 00 00 00 " /* APPLY_ACTIONS, len 24, pad */	\
	"00 00 00 10 "		/* OUTPUT, len 16 */			\
	"00 00 00 02 "		/* port 2 */				\
	"ff ff 00 00 00 00 00 00 " /* max_len NO_BUFFER, pad */

static void
test_types14(void)
{
	CHECK(of_type_from_wire(V14, 30) == OF_ROLE_STATUS &&
	    of_type_from_wire(V14, 31) == OF_TABLE_STATUS &&
	    of_type_from_wire(V14, 32) == OF_REQUESTFORWARD &&
	    of_type_from_wire(V14, 33) == OF_BUNDLE_CONTROL &&
	    of_type_from_wire(V14, 34) == OF_BUNDLE_ADD_MESSAGE &&
	    of_type_from_wire(V15, 35) == OF_CONTROLLER_STATUS,
	    "1.4 and 1.5 types");
	CHECK(of_type_from_wire(V13, 30) == OF_TYPE_UNKNOWN &&
	    of_type_from_wire(V14, 35) == OF_TYPE_UNKNOWN &&
	    of_type_to_wire(V13, OF_BUNDLE_CONTROL) == -1 &&
	    of_type_to_wire(V15, OF_BUNDLE_CONTROL) == 33,
	    "each type only from the version that adds it");
	CHECK(of_type_from_wire(V13, 22) == OF_QUEUE_GET_CONFIG_REQUEST &&
	    of_type_from_wire(V14, 22) == OF_TYPE_UNKNOWN &&
	    of_type_to_wire(V15, OF_QUEUE_GET_CONFIG_REPLY) == -1,
	    "QUEUE_GET_CONFIG gone from 1.4");
	CHECK(of_type_from_wire(V15, 14) == OF_FLOW_MOD &&
	    of_type_from_wire(V14, 29) == OF_METER_MOD,
	    "1.3's types kept");
	CHECK(of_mp_from_wire(V14, 16) == OF_MP_FLOW_MONITOR &&
	    of_mp_from_wire(V13, 16) == OF_MP_UNKNOWN &&
	    of_mp_from_wire(V15, 17) == OF_MP_FLOW_STATS &&
	    of_mp_from_wire(V14, 17) == OF_MP_UNKNOWN &&
	    of_mp_from_wire(V15, 1) == OF_MP_FLOW &&
	    of_mp_to_wire(V14, OF_MP_TABLE_DESC) == 14 &&
	    of_mp_to_wire(V13, OF_MP_TABLE_DESC) == -1,
	    "multipart kinds by version");
}

static void
test_versions(void)
{
	struct opt	o;
	uint32_t	b = 0;
	char		err[128], buf[64];

	CHECK(of_version_parse("of-version", "1.3,1.4,1.5", &b, err,
	    sizeof(err)) == 0 && b == 0x70, "1.3,1.4,1.5");
	CHECK(of_version_parse("of-version", "15", &b, err,
	    sizeof(err)) == 0 && b == 0x40, "15");
	CHECK(of_version_parse("of-version", "1.4,1.6", &b, err,
	    sizeof(err)) == -1 && strstr(err, "'1.6'") != NULL,
	    "1.6 refused: %s", err);
	memset(&o, 0, sizeof(o));
	b = 0x72;
	CHECK(of_version_show(&o, &b, buf, sizeof(buf)) == 0 &&
	    strcmp(buf, "1.5,1.4,1.3,1.0") == 0, "shown %s", buf);
	/* 1.3.5 section 6.3.1: the highest common bit; no bitmap: the
	 * smaller header version, if ours. */
	CHECK(of_negotiate(V15, 0x70, 0x32) == V14, "bitmaps: 1.4");
	CHECK(of_negotiate(V15, 0, 0x12) == V13 &&
	    of_negotiate(V15, 0, 0x62) == V15 &&
	    of_negotiate(V14, 0, 0x42) == 0, "header versions");
}

static void
test_hello15(void)
{
	struct vec	v;

	start();
	vec(&v, "06 00 00 10 00 00 00 01 "
	    "00 01 00 08 "		/* VERSIONBITMAP, length 8 */
	    "00 00 00 70");		/* 1.4, 1.5 and 1.3 */
	CHECK(of_hello_encode(&w, V15, 1, 0x70) == 0, "hello 1.5");
	CHECK_OUT(&v, "hello 1.5 bytes");
}

#define PORT14_1							\
	"00 00 00 01 "		/* port_no 1 */				\
	"00 48 00 00 "		/* length 72, pad */			\
	"02 00 00 00 01 01 00 00 " /* hw_addr, pad */			\
	"73 31 2d 65 74 68 31 00 00 00 00 00 00 00 00 00 " /* s1-eth1 */ \
	"00 00 00 00 "		/* config */				\
	"00 00 00 04 "		/* state LIVE */			\
	"00 00 00 20 00 00 00 00 " /* ETHERNET property, length 32 */	\
	"00 00 08 40 "		/* curr 10GB_FD COPPER */		\
	"00 00 08 40 00 00 08 40 " /* advertised, supported */		\
	"00 00 00 00 "		/* peer */				\
	"00 98 96 80 00 98 96 80 " /* curr_speed, max_speed 10 Gb/s */

static void
port14_fill(struct of_port *p)
{
	memset(p, 0, sizeof(*p));
	p->port_no = 1;
	memcpy(p->hw_addr, "\x02\x00\x00\x00\x01\x01", 6);
	snprintf(p->name, sizeof(p->name), "s1-eth1");
	p->state = 4;
	p->curr = p->advertised = p->supported = 0x840;
	p->curr_speed = p->max_speed = 10000000;
}

static void
test_port_status14(void)
{
	struct of_port	p, back;
	struct rbuf	r;
	struct vec	v;
	uint8_t		reason;

	port14_fill(&p);
	start();
	vec(&v, "05 0c 00 58 00 00 00 00 "
	    "02 00 00 00 00 00 00 00 "	/* reason MODIFY, pad */
	    PORT14_1);
	CHECK(of_port_status_encode(&w, V14, 0, OF_PR_MODIFY, &p) == 0,
	    "port-status 1.4");
	CHECK_OUT(&v, "port-status 1.4 bytes");
	body_of(&r, &v);
	CHECK(of_port_status_decode(V14, &r, &reason, &back) == 0 &&
	    reason == OF_PR_MODIFY && memcmp(&p, &back, sizeof(p)) == 0 &&
	    rbuf_left(&r) == 0, "port-status 1.4 decoded");
	/* A length under the fixed part, or past the end, is refused. */
	v.b[8 + 8 + 5] = 0x20;
	body_of(&r, &v);
	CHECK(of_port_status_decode(V14, &r, &reason, &back) == -1,
	    "port length 32 refused");
	v.b[8 + 8 + 5] = 0x50;
	body_of(&r, &v);
	CHECK(of_port_status_decode(V14, &r, &reason, &back) == -1,
	    "port length past the message refused");
}

static void
test_port_mod14(void)
{
	struct of_port_mod	pm;
	enum of_err		err = OF_ERR_NONE;
	struct rbuf		r;
	struct vec		v;

	vec(&v, "05 10 00 28 00 00 00 07 "
	    "00 00 00 02 00 00 00 00 "	/* port_no 2, pad */
	    "02 00 00 00 01 02 00 00 "	/* hw_addr, pad */
	    "00 00 00 01 "		/* config PORT_DOWN */
	    "00 00 00 01 "		/* mask */
	    "00 00 00 08 00 00 00 40");	/* ETHERNET, advertise 10GB_FD */
	body_of(&r, &v);
	CHECK(of_port_mod_decode(V14, &r, &pm, &err) == 0 &&
	    pm.port_no == 2 && pm.hw_addr[5] == 2 && pm.config == 1 &&
	    pm.mask == 1 && pm.advertise == 0x40, "port-mod 1.4");
	v.b[8 + 24 + 1] = 1;		/* OPTICAL */
	body_of(&r, &v);
	CHECK(of_port_mod_decode(V14, &r, &pm, &err) == -1 &&
	    err == OF_ERR_BAD_PROPERTY_TYPE, "optical property refused");
	v.b[8 + 24 + 1] = 0;
	v.b[8 + 24 + 3] = 2;		/* length 2 */
	body_of(&r, &v);
	CHECK(of_port_mod_decode(V14, &r, &pm, &err) == -1 &&
	    err == OF_ERR_BAD_PROPERTY_LEN, "property length 2 refused");
}

static void
test_flow_mod14(void)
{
	struct of_flow_mod	fm;
	enum of_err		err = OF_ERR_NONE;
	struct rbuf		r;
	struct vec		v;

	vec(&v, "05 0e 00 58 00 00 00 03 "
	    "00 00 00 00 00 00 00 2a "	/* cookie 42 */
	    "00 00 00 00 00 00 00 00 "	/* cookie_mask */
	    "00 00 "			/* table 0, ADD */
	    "00 00 00 00 "		/* idle, hard timeout */
	    "00 05 "			/* priority 5 */
	    "ff ff ff ff "		/* buffer_id NO_BUFFER */
	    "ff ff ff ff ff ff ff ff "	/* out_port, out_group ANY */
	    "00 01 "			/* flags SEND_FLOW_REM */
	    "00 07 "			/* importance 7 */
	    MATCH_IN_PORT_1
	    INST_APPLY_OUTPUT_2);
	body_of(&r, &v);
	CHECK(of_flow_mod_decode(V14, &r, &fm, &err) == 0 &&
	    fm.importance == 7 && fm.priority == 5 && fm.cookie == 42 &&
	    fm.flags == OF_FF_SEND_FLOW_REM && fm.prog_len == 24,
	    "flow-mod 1.4 decoded");
	start();
	CHECK(of_flow_mod_encode(&w, V14, 3, &fm) == 0, "flow-mod 1.4");
	CHECK_OUT(&v, "flow-mod 1.4 bytes");
	body_of(&r, &v);
	CHECK(of_flow_mod_decode(V13, &r, &fm, &err) == 0 &&
	    fm.importance == 0, "1.3 reads the importance bytes as padding");
}

static void
flow_fill(struct of_flow_info *fi, struct of_match *m, const uint8_t *prog)
{
	uint8_t	port[4] = { 0, 0, 0, 1 };

	of_match_init(m);
	of_match_set(m, 0, port, NULL, 4);
	memset(fi, 0, sizeof(*fi));
	fi->priority = 5;
	fi->flags = 1;
	fi->importance = 7;
	fi->cookie = 42;
	fi->duration_sec = 3;
	fi->duration_nsec = 500;
	fi->match = m;
	fi->prog = prog;
	fi->prog_len = 24;
}

static const uint8_t	prog_out2[24] = { 0, 4, 0, 24, 0, 0, 0, 0, 0, 0, 0,
    16, 0, 0, 0, 2, 0xff, 0xff, 0, 0, 0, 0, 0, 0 };

static void
test_flow_stats14(void)
{
	struct of_flow_info	fi;
	struct of_match		m;
	struct of_mp_reply	mr;
	struct vec		v;

	flow_fill(&fi, &m, prog_out2);
	start();
	vec(&v, "05 13 00 68 00 00 00 09 "
	    "00 01 00 00 00 00 00 00 "	/* FLOW, flags, pad */
	    "00 58 00 00 "		/* length 88, table 0, pad */
	    "00 00 00 03 00 00 01 f4 "	/* duration 3 s 500 ns */
	    "00 05 00 00 00 00 "	/* priority, idle, hard */
	    "00 01 00 07 00 00 "	/* flags, importance 7, pad */
	    "00 00 00 00 00 00 00 2a "	/* cookie */
	    "00 00 00 00 00 00 00 00 "	/* packet_count */
	    "00 00 00 00 00 00 00 00 "	/* byte_count */
	    MATCH_IN_PORT_1
	    INST_APPLY_OUTPUT_2);
	of_mp_reply_begin(&mr, &w, V14, 9, OF_MP_FLOW, 0, NULL, NULL);
	CHECK(of_mp_reply_add_flow(&mr, &fi) == 0 &&
	    of_mp_reply_end(&mr) == 0, "flow stats 1.4");
	CHECK_OUT(&v, "flow stats 1.4 bytes");
}

#define OXS_FLOW_3S							\
	"00 00 00 34 "		/* ofp_stats: reserved, length 52 */	\
	"80 02 00 08 00 00 00 03 00 00 01 f4 " /* DURATION 3 s 500 ns */ \
	"80 02 02 08 00 00 00 03 00 00 01 f4 " /* IDLE_TIME */		\
	"80 02 08 08 00 00 00 00 00 00 00 00 " /* PACKET_COUNT 0 */	\
	"80 02 0a 08 00 00 00 00 00 00 00 00 " /* BYTE_COUNT 0 */	\
	"00 00 00 00 "		/* padding to 8 */

static void
test_flow_desc15(void)
{
	struct of_flow_info	fi, back;
	struct of_match		m, mb;
	struct of_mp_reply	mr;
	struct rbuf		r;
	struct vec		v;

	flow_fill(&fi, &m, prog_out2);
	start();
	vec(&v, "06 13 00 88 00 00 00 09 "
	    "00 01 00 00 00 00 00 00 "	/* FLOW_DESC, flags, pad */
	    "00 78 00 00 "		/* length 120, pad */
	    "00 00 00 05 "		/* table 0, pad, priority 5 */
	    "00 00 00 00 "		/* idle, hard */
	    "00 01 00 07 "		/* flags, importance */
	    "00 00 00 00 00 00 00 2a "	/* cookie */
	    MATCH_IN_PORT_1
	    OXS_FLOW_3S
	    INST_APPLY_OUTPUT_2);
	of_mp_reply_begin(&mr, &w, V15, 9, OF_MP_FLOW, 0, NULL, NULL);
	CHECK(of_mp_reply_add_flow(&mr, &fi) == 0 &&
	    of_mp_reply_end(&mr) == 0, "flow desc 1.5");
	CHECK_OUT(&v, "flow desc 1.5 bytes");
	rbuf_init(&r, v.b + 18, v.len - 18);
	memset(&back, 0, sizeof(back));
	CHECK(ofp15_flow_desc_get(&r, &back, &mb) == 0 &&
	    back.importance == 7 && back.cookie == 42 && back.priority == 5 &&
	    rbuf_left(&r) == 24, "flow desc 1.5 decoded");
	start();
	vec(&v, "06 13 00 60 00 00 00 09 "
	    "00 11 00 00 00 00 00 00 "	/* FLOW_STATS (17) */
	    "00 50 00 00 "		/* length 80, pad */
	    "00 00 00 05 "		/* table 0, reason STATS_REQUEST */
	    MATCH_IN_PORT_1
	    OXS_FLOW_3S);
	of_mp_reply_begin(&mr, &w, V15, 9, OF_MP_FLOW_STATS, 0, NULL, NULL);
	ofp15_flow_stats_put(&w, OF_VERSION_15, &fi);
	CHECK(of_mp_reply_end(&mr) == 0, "flow stats 1.5");
	CHECK_OUT(&v, "flow stats 1.5 bytes");
}

static void
test_flow_removed15(void)
{
	struct of_flow_info	fi;
	struct of_match		m;
	struct vec		v;

	flow_fill(&fi, &m, prog_out2);
	fi.table_id = 1;
	fi.reason = OF_RR_HARD_TIMEOUT;
	fi.hard_timeout = 3;
	start();
	vec(&v, "06 0b 00 60 00 00 00 00 "
	    "01 01 00 05 "		/* table 1, HARD_TIMEOUT, priority 5 */
	    "00 00 00 03 "		/* idle 0, hard 3 */
	    "00 00 00 00 00 00 00 2a "	/* cookie */
	    MATCH_IN_PORT_1
	    OXS_FLOW_3S);
	CHECK(of_flow_removed_encode(&w, V15, 0, &fi) == 0, "flow removed");
	CHECK_OUT(&v, "flow removed 1.5 bytes");
}

static void
test_aggregate15(void)
{
	struct vec	v;

	start();
	vec(&v, "06 13 00 38 00 00 00 04 "
	    "00 02 00 00 00 00 00 00 "	/* AGGREGATE_STATS */
	    "00 00 00 24 "		/* ofp_stats, length 36 */
	    "80 02 06 04 00 00 00 03 "	/* FLOW_COUNT 3 */
	    "80 02 08 08 00 00 00 00 00 00 00 00 " /* PACKET_COUNT */
	    "80 02 0a 08 00 00 00 00 00 00 00 00 " /* BYTE_COUNT */
	    "00 00 00 00");		/* padding */
	CHECK(of_mp_aggregate_encode(&w, V15, 4, 0, 0, 3) == 0,
	    "aggregate 1.5");
	CHECK_OUT(&v, "aggregate 1.5 bytes");
}

static void
test_port_stats14(void)
{
	struct of_port_stats	ps, back;
	struct of_mp_reply	mr;
	struct rbuf		r;
	struct vec		v;

	memset(&ps, 0, sizeof(ps));
	ps.port_no = 2;
	ps.duration_sec = 1;
	ps.rx_packets = 5;
	ps.collisions = 9;
	start();
	vec(&v, "05 13 00 88 00 00 00 02 "
	    "00 04 00 00 00 00 00 00 "	/* PORT_STATS */
	    "00 78 00 00 "		/* length 120, pad */
	    "00 00 00 02 "		/* port_no 2 */
	    "00 00 00 01 00 00 00 00 "	/* duration 1 s */
	    "00 00 00 00 00 00 00 05 "	/* rx_packets 5 */
	    "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 "
	    "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 "
	    "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 "
	    "00 00 00 00 00 00 00 00 "	/* tx_packets .. tx_errors */
	    "00 00 00 28 00 00 00 00 "	/* ETHERNET property, length 40 */
	    "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 "
	    "00 00 00 00 00 00 00 00 "	/* frame, over, crc errors */
	    "00 00 00 00 00 00 00 09");	/* collisions 9 */
	of_mp_reply_begin(&mr, &w, V14, 2, OF_MP_PORT_STATS, 0, NULL, NULL);
	CHECK(of_mp_reply_add_port_stats(&mr, &ps) == 0 &&
	    of_mp_reply_end(&mr) == 0, "port stats 1.4");
	CHECK_OUT(&v, "port stats 1.4 bytes");
	rbuf_init(&r, v.b + 16, v.len - 16);
	CHECK(of_port_stats_next(V14, &r, &back) == 1 &&
	    memcmp(&ps, &back, sizeof(ps)) == 0 &&
	    of_port_stats_next(V14, &r, &back) == 0, "port stats 1.4 read");
}

static void
test_async14(void)
{
	struct of_async	a, b;
	enum of_err	err = OF_ERR_NONE;
	struct rbuf	r;
	struct vec	v;

	memset(&a, 0, sizeof(a));
	a.packet_in[0] = 3;
	a.port_status[0] = a.port_status[1] = 7;
	a.flow_removed[0] = 0xf;
	a.role_status[0] = a.role_status[1] = 7;
	a.table_status[0] = a.table_status[1] = 0x18;
	a.requestforward[0] = a.requestforward[1] = 3;
	start();
	vec(&v, "05 1b 00 68 00 00 00 05 "
	    "00 00 00 08 00 00 00 00 "	/* PACKET_IN_SLAVE 0 */
	    "00 01 00 08 00 00 00 03 "	/* PACKET_IN_MASTER */
	    "00 02 00 08 00 00 00 07 00 03 00 08 00 00 00 07 "
	    "00 04 00 08 00 00 00 00 00 05 00 08 00 00 00 0f "
	    "00 06 00 08 00 00 00 07 00 07 00 08 00 00 00 07 "
	    "00 08 00 08 00 00 00 18 00 09 00 08 00 00 00 18 "
	    "00 0a 00 08 00 00 00 03 00 0b 00 08 00 00 00 03");
	CHECK(of_async_encode(&w, V14, OF_GET_ASYNC_REPLY, 5, &a) == 0,
	    "get async reply 1.4");
	CHECK_OUT(&v, "get async reply 1.4 bytes");
	memset(&b, 0, sizeof(b));
	body_of(&r, &v);
	CHECK(of_async_decode(V14, &r, &b, &err) == 0 &&
	    memcmp(&a, &b, sizeof(a)) == 0, "async 1.4 decoded");
	/* SET_ASYNC with one property changes that mask alone. */
	vec(&v, "05 1c 00 10 00 00 00 06 00 03 00 08 00 00 00 03");
	body_of(&r, &v);
	b = a;
	CHECK(of_async_decode(V14, &r, &b, &err) == 0 &&
	    b.port_status[0] == 3 && b.port_status[1] == 7 &&
	    b.packet_in[0] == 3, "one property set");
	vec(&v, "05 1c 00 10 00 00 00 06 00 0c 00 08 00 00 00 03");
	body_of(&r, &v);
	b = a;
	CHECK(of_async_decode(V14, &r, &b, &err) == -1 &&
	    err == OF_ERR_ASYNC_UNSUPPORTED &&
	    memcmp(&a, &b, sizeof(a)) == 0, "property 12 unsupported");
	/* 1.5 adds CONT_STATUS (12, 13), unknown to 1.4. */
	vec(&v, "06 1c 00 10 00 00 00 06 00 0d 00 08 00 00 00 05");
	body_of(&r, &v);
	b = a;
	CHECK(of_async_decode(V15, &r, &b, &err) == 0 &&
	    b.cont_status[0] == 5, "1.5: CONT_STATUS_MASTER set");
	start();
	CHECK(of_async_encode(&w, V15, OF_GET_ASYNC_REPLY, 5, &b) == 0 &&
	    w.len == 8 + 14 * 8, "1.5: 14 properties");
	vec(&v, "05 1c 00 10 00 00 00 06 00 03 00 06 00 03 00 00");
	body_of(&r, &v);
	CHECK(of_async_decode(V14, &r, &b, &err) == -1 &&
	    err == OF_ERR_BAD_PROPERTY_LEN, "property length 6 refused");
}

static void
test_role_status14(void)
{
	struct vec	v;

	start();
	vec(&v, "05 1e 00 18 00 00 00 00 "
	    "00 00 00 03 "		/* role SLAVE */
	    "00 00 00 00 "		/* reason MASTER_REQUEST, pad */
	    "00 00 00 00 00 00 00 07");	/* generation_id 7 */
	CHECK(ofp14_role_status_encode(&w, V14, OF_ROLE_SLAVE, 0, 7) == 0,
	    "role status 1.4");
	CHECK_OUT(&v, "role status 1.4 bytes");
}

static void
test_errors14(void)
{
	uint16_t	type, code;

	of_err_to_wire(V14, OF_ERR_BAD_PROPERTY_TYPE, &type, &code);
	CHECK(type == 14 && code == 0, "BAD_PROPERTY/BAD_TYPE in 1.4");
	of_err_to_wire(V15, OF_ERR_ASYNC_UNSUPPORTED, &type, &code);
	CHECK(type == 15 && code == 1, "ASYNC_CONFIG_FAILED/UNSUPPORTED");
	of_err_to_wire(V15, OF_ERR_TABLE_FEATURES_BAD_FEATURES, &type, &code);
	CHECK(type == 13 && code == 8, "TABLE_FEATURES_FAILED/BAD_FEATURES");
	of_err_to_wire(V14, OF_ERR_MONITOR_EXISTS, &type, &code);
	CHECK(type == 16 && code == 1, "FLOW_MONITOR_FAILED/MONITOR_EXISTS");
	of_err_to_wire(V14, OF_ERR_MONITOR_BAD_TABLE_ID, &type, &code);
	CHECK(type == 16 && code == 6, "FLOW_MONITOR_FAILED/BAD_TABLE_ID");
	of_err_to_wire(V13, OF_ERR_BAD_PROPERTY_TYPE, &type, &code);
	CHECK(type == 1 && code == 5, "1.3: BAD_REQUEST/EPERM");
	of_err_to_wire(V15, OF_ERR_GROUP_BAD_WATCH, &type, &code);
	CHECK(type == 6 && code == 13, "1.3's codes kept");
}

/* ovs-ofctl -O OpenFlow15 add-group 'group_id=1,type=select,
 * bucket=weight:10,actions=output:1,bucket=weight:20,actions=output:2'. */
#define GROUP15_SELECT							\
	"06 0f 00 58 00 00 00 06 "					\
	"00 00 01 00 00 00 00 01 " /* ADD, SELECT, pad, group 1 */	\
	"00 40 00 00 ff ff ff ff " /* bucket_array_len 64, BUCKET_ALL */ \
	"00 20 00 10 00 00 00 00 " /* len 32, actions 16, bucket_id 0 */ \
	"00 00 00 10 00 00 00 01 00 00 00 00 00 00 00 00 " /* output:1 */ \
	"00 00 00 08 00 0a 00 00 " /* WEIGHT 10 */			\
	"00 20 00 10 00 00 00 01 " /* bucket_id 1 */			\
	"00 00 00 10 00 00 00 02 00 00 00 00 00 00 00 00 " /* output:2 */ \
	"00 00 00 08 00 14 00 00 " /* WEIGHT 20 */

static void
test_group15(void)
{
	static uint8_t		b13[1024];
	struct of_group_mod	gm;
	struct of_group_info	gi;
	enum of_err		err = OF_ERR_NONE;
	struct wbuf		bw;
	struct rbuf		r;
	struct vec		v, stored;

	vec(&v, GROUP15_SELECT);
	body_of(&r, &v);
	wbuf_init(&bw, b13, sizeof(b13));
	CHECK(of_group_mod15_decode(&r, &gm, &bw, &err) == 0 &&
	    gm.command == OF_GC_ADD && gm.type == OF_GT_SELECT &&
	    gm.group_id == 1, "group-mod 1.5 decoded");
	vec(&stored, "00 20 00 0a ff ff ff ff ff ff ff ff 00 00 00 00 "
	    "00 00 00 10 00 00 00 01 00 00 00 00 00 00 00 00 "
	    "00 20 00 14 ff ff ff ff ff ff ff ff 00 00 00 01 "
	    "00 00 00 10 00 00 00 02 00 00 00 00 00 00 00 00");
	CHECK_BYTES(gm.buckets, gm.buckets_len, stored.b, stored.len,
	    "kept as 1.3 buckets, the id in the pad");
	memset(&gi, 0, sizeof(gi));
	gi.group_id = 1;
	gi.type = OF_GT_SELECT;
	gi.n_buckets = 2;
	gi.buckets = gm.buckets;
	gi.buckets_len = gm.buckets_len;
	start();
	ofp15_group_desc_put(&w, &gi);
	vec(&stored, "00 50 01 00 00 00 00 01 " /* length 80, SELECT, 1 */
	    "00 40 00 00 00 00 00 00 "	/* bucket_array_len 64, pad */
	    "00 20 00 10 00 00 00 00 "
	    "00 00 00 10 00 00 00 01 00 00 00 00 00 00 00 00 "
	    "00 00 00 08 00 0a 00 00 "
	    "00 20 00 10 00 00 00 01 "
	    "00 00 00 10 00 00 00 02 00 00 00 00 00 00 00 00 "
	    "00 00 00 08 00 14 00 00");
	CHECK_OUT(&stored, "group desc 1.5 gives the buckets back");
	/* Two buckets with one id; a bucket past the array. */
	v.b[8 + 16 + 32 + 7] = 0;
	body_of(&r, &v);
	wbuf_init(&bw, b13, sizeof(b13));
	CHECK(of_group_mod15_decode(&r, &gm, &bw, &err) == -1 &&
	    err == OF_ERR_GROUP_BAD_BUCKET, "duplicate bucket id refused");
	v.b[8 + 16 + 32 + 1] = 0x40;
	body_of(&r, &v);
	wbuf_init(&bw, b13, sizeof(b13));
	CHECK(of_group_mod15_decode(&r, &gm, &bw, &err) == -1 &&
	    err == OF_ERR_GROUP_BAD_BUCKET, "bucket past the array refused");
	v.b[8 + 1] = 4;			/* between INSERT_ and REMOVE_BUCKET */
	body_of(&r, &v);
	wbuf_init(&bw, b13, sizeof(b13));
	CHECK(of_group_mod15_decode(&r, &gm, &bw, &err) == -1 &&
	    err == OF_ERR_GROUP_BAD_COMMAND, "command 4 not taken");
}

static void
test_packet_out15(void)
{
	struct of_packet_out	po;
	enum of_err		err = OF_ERR_NONE;
	struct rbuf		r;
	struct vec		v;

	vec(&v, "06 0d 00 3a 00 00 00 06 "
	    "ff ff ff ff "		/* buffer_id NO_BUFFER */
	    "00 10 00 00 "		/* actions_len 16, pad */
	    MATCH_IN_PORT_1
	    "00 00 00 10 00 00 00 02 00 00 00 00 00 00 00 00 " /* output:2 */
	    "ff ff ff ff ff ff 00 00 00 00 00 01 08 06"); /* frame */
	body_of(&r, &v);
	CHECK(of_packet_out_decode(V15, &r, &po, &err) == 0 &&
	    po.in_port == 1 && po.buffer_id == 0xffffffffu &&
	    po.actions_len == 16 && po.data_len == 14,
	    "packet-out 1.5 decoded");
	v.b[8 + 5] = 0x40;		/* actions past the end */
	body_of(&r, &v);
	CHECK(of_packet_out_decode(V15, &r, &po, &err) == -1 &&
	    err == OF_ERR_BAD_LEN, "packet-out 1.5 actions_len too long");
}

/* 1.5.1 7.3.5.18: a table made egress is refused; ingress is fine. */
static void
test_egress15(void)
{
	enum of_err	err = OF_ERR_NONE;
	struct rbuf	r;
	struct vec	v;

	vec(&v, "00 10 "		/* length 16 (properties cut) */
	    "00 01 "			/* table 0, MODIFY */
	    "00 00 00 01 "		/* features INGRESS_TABLE */
	    "00 00 00 00 00 00 00 00");
	rbuf_init(&r, v.b, v.len);
	CHECK(ofp15_table_features_check(&r, &err) == 0, "ingress taken");
	v.b[7] = 0x10;			/* FIRST_EGRESS */
	rbuf_init(&r, v.b, v.len);
	CHECK(ofp15_table_features_check(&r, &err) == -1 &&
	    err == OF_ERR_TABLE_FEATURES_BAD_FEATURES, "first egress refused");
	v.b[7] = 0x02;			/* EGRESS_TABLE */
	rbuf_init(&r, v.b, v.len);
	CHECK(ofp15_table_features_check(&r, &err) == -1, "egress refused");
	v.b[1] = 0x40;			/* past the end */
	rbuf_init(&r, v.b, v.len);
	CHECK(ofp15_table_features_check(&r, &err) == -1 &&
	    err == OF_ERR_BAD_LEN, "entry past the end");
}

/* A 1.5 session's update of a flow set in 1.3 (METER 9, then APPLY
 * output 2): the meter as the first action of APPLY_ACTIONS. */
static void
test_flow_update15_meter(void)
{
	static const uint8_t	prog[] = { 0, 6, 0, 8, 0, 0, 0, 9,
	    0, 4, 0, 24, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 2,
	    0xff, 0xff, 0, 0, 0, 0, 0, 0 };
	struct of_flow_info	fi;
	struct of_match		m;
	struct vec		v;

	flow_fill(&fi, &m, prog);
	fi.prog_len = sizeof(prog);
	start();
	vec(&v, "00 48 00 01 "		/* length 72, ADDED */
	    "00 00 00 00 00 00 "	/* table 0, reason, timeouts */
	    "00 05 00 00 00 00 "	/* priority 5, zeros */
	    "00 00 00 00 00 00 00 2a "	/* cookie */
	    MATCH_IN_PORT_1
	    "00 04 00 20 00 00 00 00 "	/* APPLY_ACTIONS, len 32 */
	    "00 1d 00 08 00 00 00 09 "	/* METER 9 */
	    "00 00 00 10 00 00 00 02 ff ff 00 00 00 00 00 00");
	ofp14_flow_update_put(&w, V15, OF_FME_ADDED, &fi, 1);
	CHECK_OUT(&v, "1.5 update of a 1.3 metered flow");
}

/* 1.4.1 A.3.5.19: a monitor request and a full update. */
static void
test_flow_monitor14(void)
{
	struct of_flow_info	fi;
	struct of_match		m;
	struct of_monitor	mon;
	struct of_mp_reply	mr;
	enum of_err		err = OF_ERR_NONE;
	uint8_t			command;
	struct rbuf		r;
	struct vec		v;

	vec(&v, "00 00 00 07 "		/* monitor_id 7 */
	    "ff ff ff ff ff ff ff ff "	/* out_port, out_group ANY */
	    "00 1f "			/* INITIAL ADD REMOVED MODIFY INSTR */
	    "ff 00 "			/* table ALL, ADD */
	    MATCH_IN_PORT_1);
	rbuf_init(&r, v.b, v.len);
	CHECK(ofp14_flow_monitor_request_decode(&r, &mon, &command,
	    &err) == 0 && mon.id == 7 && mon.flags == 0x1f &&
	    mon.table_id == 0xff && command == OF_FMC_ADD &&
	    mon.match.len == 8, "flow monitor request");
	v.b[15] = 3;			/* command 3 */
	rbuf_init(&r, v.b, v.len);
	CHECK(ofp14_flow_monitor_request_decode(&r, &mon, &command,
	    &err) == -1 && err == OF_ERR_MONITOR_BAD_COMMAND, "command 3");
	v.b[15] = 0;
	v.b[12] = 0x80;			/* flag 0x8000 */
	rbuf_init(&r, v.b, v.len);
	CHECK(ofp14_flow_monitor_request_decode(&r, &mon, &command,
	    &err) == -1 && err == OF_ERR_MONITOR_BAD_FLAGS, "unknown flag");

	flow_fill(&fi, &m, prog_out2);
	fi.reason = OF_RR_DELETE;
	start();
	vec(&v, "05 13 00 50 00 00 00 00 "
	    "00 10 00 00 00 00 00 00 "	/* FLOW_MONITOR */
	    "00 40 00 02 "		/* length 64, REMOVED */
	    "00 02 00 00 00 00 "	/* table 0, reason DELETE, timeouts */
	    "00 05 00 00 00 00 "	/* priority 5, zeros */
	    "00 00 00 00 00 00 00 2a "	/* cookie */
	    MATCH_IN_PORT_1
	    INST_APPLY_OUTPUT_2);
	of_mp_reply_begin(&mr, &w, V14, 0, OF_MP_FLOW_MONITOR, 0, NULL, NULL);
	CHECK(of_mp_reply_add_flow_update(&mr, OF_FME_REMOVED, &fi, 1) == 0 &&
	    of_mp_reply_end(&mr) == 0, "flow update");
	CHECK_OUT(&v, "flow update 1.4 bytes");
	test_flow_update15_meter();
}

/* 1.4.1 A.3.3, A.3.5.6, A.4.4: vacancy thresholds in, events out. */
static void
test_vacancy14(void)
{
	struct of_table_mod14	tm;
	struct of_table_desc	td;
	enum of_err		err = OF_ERR_NONE;
	uint16_t		type, code;
	struct rbuf		r;
	struct vec		v;

	vec(&v, "05 11 00 18 00 00 00 04 "
	    "00 00 00 00 "		/* table 0, pad */
	    "00 00 00 08 "		/* config VACANCY_EVENTS */
	    "00 03 00 08 14 50 00 00");	/* VACANCY 20%, 80% */
	body_of(&r, &v);
	CHECK(ofp14_table_mod_decode(&r, &tm, &err) == 0 &&
	    tm.has_vacancy && tm.down == 20 && tm.up == 80 &&
	    tm.config == 8, "table-mod 1.4");
	v.b[8 + 12] = 90;		/* down above up */
	body_of(&r, &v);
	CHECK(ofp14_table_mod_decode(&r, &tm, &err) == -1 &&
	    err == OF_ERR_TABLE_MOD_BAD_CONFIG, "down > up refused");
	v.b[8 + 12] = 20;
	v.b[8 + 7] = 0x0c;		/* EVICTION too */
	body_of(&r, &v);
	CHECK(ofp14_table_mod_decode(&r, &tm, &err) == -1 &&
	    err == OF_ERR_TABLE_MOD_BAD_CONFIG, "eviction refused");
	of_err_to_wire(V14, OF_ERR_TABLE_MOD_BAD_CONFIG, &type, &code);
	CHECK(type == 8 && code == 1, "TABLE_MOD_FAILED/BAD_CONFIG");

	memset(&td, 0, sizeof(td));
	td.table_id = 0;
	td.config = 8;
	td.down = 20;
	td.up = 80;
	td.vacancy = 10;
	start();
	vec(&v, "05 1f 00 20 00 00 00 00 "
	    "03 00 00 00 00 00 00 00 "	/* VACANCY_DOWN, pad */
	    "00 10 00 00 00 00 00 08 "	/* length 16, table 0, config */
	    "00 03 00 08 14 50 0a 00");	/* VACANCY 20, 80, now 10 */
	CHECK(ofp14_table_status_encode(&w, V14, 3, &td) == 0,
	    "table status");
	CHECK_OUT(&v, "table status 1.4 bytes");
}

/* 1.4.1 A.4.6: the request whole after REQUESTFORWARD's header. */
static void
test_requestforward14(void)
{
	static const uint8_t	gm[16] = { 5, 15, 0, 16, 0, 0, 0, 9, 0, 2,
	    0, 0, 0, 0, 0, 1 };	/* GROUP_MOD DELETE group 1 */
	struct vec		v;

	start();
	vec(&v, "05 20 00 18 00 00 00 00 "
	    "05 0f 00 10 00 00 00 09 00 02 00 00 00 00 00 01");
	CHECK(ofp14_requestforward_encode(&w, V14, gm, sizeof(gm)) == 0,
	    "requestforward");
	CHECK_OUT(&v, "requestforward 1.4 bytes");
}

static const struct check_case cases[] = {
	CASE(test_types14),
	CASE(test_versions),
	CASE(test_hello15),
	CASE(test_port_status14),
	CASE(test_port_mod14),
	CASE(test_flow_mod14),
	CASE(test_flow_stats14),
	CASE(test_flow_desc15),
	CASE(test_flow_removed15),
	CASE(test_aggregate15),
	CASE(test_port_stats14),
	CASE(test_async14),
	CASE(test_role_status14),
	CASE(test_errors14),
	CASE(test_group15),
	CASE(test_packet_out15),
	CASE(test_egress15),
	CASE(test_flow_monitor14),
	CASE(test_vacancy14),
	CASE(test_requestforward14),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
