/*
 * Action and instruction lists: OpenFlow 1.3.5 sections 7.2.4 and 7.2.5,
 * OpenFlow 1.0.0 section 5.2.4.  Byte vectors written out by hand.
 */
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "check.h"
#include "of_actions.h"

#define NPORTS	4

/* 1.3 OUTPUT: type 0, len 16, port, max_len, pad[6]. */
#define OUT13(p3, p2, p1, p0)						\
	0, 0, 0, 16, (p3), (p2), (p1), (p0), 0xff, 0xe5, 0, 0, 0, 0, 0, 0
#define GROUP13(g)	0, 22, 0, 8, 0, 0, 0, (g)
/* 1.0 OUTPUT: type 0, len 8, port u16, max_len. */
#define OUT10(hi, lo)	0, 0, 0, 8, (hi), (lo), 0, 0

static enum of_err
v13(const uint8_t *p, size_t len)
{
	enum of_err	err = OF_ERR_NONE;

	if (of_actions_validate(OF_VERSION_13, p, len, NPORTS, &err) == 0)
		return OF_ERR_NONE;
	return err == OF_ERR_NONE ? OF_ERR__MAX : err;
}

static enum of_err
v10(const uint8_t *p, size_t len)
{
	enum of_err	err = OF_ERR_NONE;

	if (of_actions_validate(OF_VERSION_10, p, len, NPORTS, &err) == 0)
		return OF_ERR_NONE;
	return err == OF_ERR_NONE ? OF_ERR__MAX : err;
}

static enum of_err
vi(const uint8_t *p, size_t len, uint8_t table)
{
	enum of_err	err = OF_ERR_NONE;

	if (of_instructions_validate(p, len, table, 4, NPORTS, &err) == 0)
		return OF_ERR_NONE;
	return err == OF_ERR_NONE ? OF_ERR__MAX : err;
}

/* A flow's instructions checked for a session of version ver. */
static enum of_err
viv(uint8_t ver, const uint8_t *p, size_t len)
{
	enum of_err	err = OF_ERR_NONE;

	if (of_instructions_check_ver(ver, p, len, 0, 4, NPORTS, 0, NULL,
	    &err) == 0)
		return OF_ERR_NONE;
	return err == OF_ERR_NONE ? OF_ERR__MAX : err;
}

#define A13(name, want, ...) do {					\
	static const uint8_t a_[] = { __VA_ARGS__ };			\
	enum of_err e_ = v13(a_, sizeof(a_));				\
	CHECK(e_ == (want), "1.3 %s: err %d want %d", name, e_, want);	\
} while (0)
#define A10(name, want, ...) do {					\
	static const uint8_t a_[] = { __VA_ARGS__ };			\
	enum of_err e_ = v10(a_, sizeof(a_));				\
	CHECK(e_ == (want), "1.0 %s: err %d want %d", name, e_, want);	\
} while (0)
#define I13(name, table, want, ...) do {				\
	static const uint8_t a_[] = { __VA_ARGS__ };			\
	enum of_err e_ = vi(a_, sizeof(a_), (table));			\
	CHECK(e_ == (want), "inst %s: err %d want %d", name, e_, want);	\
} while (0)

static void
test_actions13(void)
{
	CHECK(v13(NULL, 0) == OF_ERR_NONE, "empty list (drop)");
	A13("output 1", OF_ERR_NONE, OUT13(0, 0, 0, 1));
	A13("output 4", OF_ERR_NONE, OUT13(0, 0, 0, 4));
	A13("output 5 of 4", OF_ERR_BAD_OUT_PORT, OUT13(0, 0, 0, 5));
	A13("output 0", OF_ERR_BAD_OUT_PORT, OUT13(0, 0, 0, 0));
	A13("output OFPP_MAX", OF_ERR_BAD_OUT_PORT,
	    OUT13(0xff, 0xff, 0xff, 0x00));
	A13("output IN_PORT", OF_ERR_NONE, OUT13(0xff, 0xff, 0xff, 0xf8));
	A13("output TABLE", OF_ERR_NONE, OUT13(0xff, 0xff, 0xff, 0xf9));
	A13("output NORMAL", OF_ERR_NONE, OUT13(0xff, 0xff, 0xff, 0xfa));
	A13("output FLOOD", OF_ERR_NONE, OUT13(0xff, 0xff, 0xff, 0xfb));
	A13("output ALL", OF_ERR_NONE, OUT13(0xff, 0xff, 0xff, 0xfc));
	A13("output CONTROLLER", OF_ERR_NONE, OUT13(0xff, 0xff, 0xff, 0xfd));
	A13("output LOCAL", OF_ERR_NONE, OUT13(0xff, 0xff, 0xff, 0xfe));
	A13("output ANY", OF_ERR_BAD_OUT_PORT, OUT13(0xff, 0xff, 0xff, 0xff));
	A13("output len 8", OF_ERR_BAD_ACTION_LEN, 0, 0, 0, 8, 0, 0, 0, 1);
	A13("output len 24", OF_ERR_BAD_ACTION_LEN, 0, 0, 0, 24,
	    0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	A13("len 12 not multiple of 8", OF_ERR_BAD_ACTION_LEN,
	    0, 11, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0);
	A13("len 0", OF_ERR_BAD_ACTION_LEN, 0, 11, 0, 0, 0, 0, 0, 0);
	A13("len past the list", OF_ERR_BAD_ACTION_LEN,
	    0, 11, 0, 16, 0, 0, 0, 0);
	A13("4 trailing bytes", OF_ERR_BAD_ACTION_LEN,
	    0, 11, 0, 8, 0, 0, 0, 0, 0, 11, 0, 8);
	A13("every fixed action", OF_ERR_NONE,
	    0, 11, 0, 8, 0, 0, 0, 0,		/* copy_ttl_out */
	    0, 12, 0, 8, 0, 0, 0, 0,		/* copy_ttl_in */
	    0, 15, 0, 8, 64, 0, 0, 0,		/* set_mpls_ttl */
	    0, 16, 0, 8, 0, 0, 0, 0,		/* dec_mpls_ttl */
	    0, 17, 0, 8, 0x81, 0x00, 0, 0,	/* push_vlan */
	    0, 18, 0, 8, 0, 0, 0, 0,		/* pop_vlan */
	    0, 19, 0, 8, 0x88, 0x47, 0, 0,	/* push_mpls */
	    0, 20, 0, 8, 0x08, 0x00, 0, 0,	/* pop_mpls */
	    0, 21, 0, 8, 0, 0, 0, 1,		/* set_queue */
	    GROUP13(1),
	    0, 23, 0, 8, 64, 0, 0, 0,		/* set_nw_ttl */
	    0, 24, 0, 8, 0, 0, 0, 0,		/* dec_nw_ttl */
	    0, 26, 0, 8, 0x88, 0xe7, 0, 0,	/* push_pbb */
	    0, 27, 0, 8, 0, 0, 0, 0,		/* pop_pbb */
	    OUT13(0, 0, 0, 2));
	A13("pop_vlan len 16", OF_ERR_BAD_ACTION_LEN,
	    0, 18, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	A13("push_vlan 0x0800", OF_ERR_BAD_ACTION_ARGUMENT,
	    0, 17, 0, 8, 0x08, 0x00, 0, 0);
	A13("push_vlan 0x88a8", OF_ERR_NONE, 0, 17, 0, 8, 0x88, 0xa8, 0, 0);
	A13("push_mpls 0x0800", OF_ERR_BAD_ACTION_ARGUMENT,
	    0, 19, 0, 8, 0x08, 0x00, 0, 0);
	A13("group ANY", OF_ERR_BAD_OUT_GROUP,
	    0, 22, 0, 8, 0xff, 0xff, 0xff, 0xff);
	A13("unknown type 9", OF_ERR_BAD_ACTION_TYPE, 0, 9, 0, 8, 0, 0, 0, 0);
	A13("1.0 set_vlan_vid in 1.3", OF_ERR_BAD_ACTION_TYPE,
	    0, 1, 0, 8, 0, 5, 0, 0);
	A13("experimenter 0x2320 short", OF_ERR_BAD_ACTION_LEN,
	    0xff, 0xff, 0, 8, 0, 0, 0x23, 0x20);
	A13("experimenter 0x2321", OF_ERR_BAD_ACTION_EXPERIMENTER,
	    0xff, 0xff, 0, 16, 0, 0, 0x23, 0x21, 0, 1, 0, 0, 0, 0, 0, 0);
	A13("experimenter len 4", OF_ERR_BAD_ACTION_LEN,
	    0xff, 0xff, 0, 4, 0, 0, 0, 0);
}

static void
test_set_field(void)
{
	/* ipv4_src: 4 + 4 + 4 = 12, padded to 16. */
	A13("set_field ipv4_src", OF_ERR_NONE,
	    0, 25, 0, 16, 0x80, 0, 0x16, 4, 10, 0, 0, 1, 0, 0, 0, 0);
	/* eth_dst: 4 + 4 + 6 = 14, padded to 16. */
	A13("set_field eth_dst", OF_ERR_NONE,
	    0, 25, 0, 16, 0x80, 0, 0x06, 6, 0, 1, 2, 3, 4, 5, 0, 0);
	/* ipv6_dst: 4 + 4 + 16 = 24. */
	A13("set_field ipv6_dst", OF_ERR_NONE,
	    0, 25, 0, 24, 0x80, 0, 0x36, 16,
	    0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
	A13("set_field vlan_vid 0x1005", OF_ERR_NONE,
	    0, 25, 0, 16, 0x80, 0, 0x0c, 2, 0x10, 0x05, 0, 0, 0, 0, 0, 0);
	A13("set_field vlan_vid without PRESENT", OF_ERR_BAD_ACTION_ARGUMENT,
	    0, 25, 0, 16, 0x80, 0, 0x0c, 2, 0x00, 0x05, 0, 0, 0, 0, 0, 0);
	A13("set_field ipv4_src len 24", OF_ERR_BAD_ACTION_LEN,
	    0, 25, 0, 24, 0x80, 0, 0x16, 4, 10, 0, 0, 1,
	    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	A13("set_field oxm len 2 for ipv4", OF_ERR_BAD_ACTION_LEN,
	    0, 25, 0, 16, 0x80, 0, 0x16, 2, 10, 0, 0, 1, 0, 0, 0, 0);
	A13("set_field masked", OF_ERR_BAD_ACTION_ARGUMENT,
	    0, 25, 0, 16, 0x80, 0, 0x17, 8, 10, 0, 0, 0, 255, 0, 0, 0);
	A13("set_field in_port", OF_ERR_BAD_ACTION_ARGUMENT,
	    0, 25, 0, 16, 0x80, 0, 0x00, 4, 0, 0, 0, 1, 0, 0, 0, 0);
	A13("set_field unknown field", OF_ERR_BAD_ACTION_ARGUMENT,
	    0, 25, 0, 16, 0x80, 0, 0x60, 4, 0, 0, 0, 1, 0, 0, 0, 0);
	A13("set_field experimenter class", OF_ERR_BAD_ACTION_ARGUMENT,
	    0, 25, 0, 16, 0xff, 0xff, 0x00, 4, 0, 0, 0, 1, 0, 0, 0, 0);
	A13("set_field dscp 64", OF_ERR_BAD_ACTION_ARGUMENT,
	    0, 25, 0, 16, 0x80, 0, 0x10, 1, 64, 0, 0, 0, 0, 0, 0, 0);
}

static void
test_actions10(void)
{
	A10("output 1", OF_ERR_NONE, OUT10(0, 1));
	A10("output 5 of 4", OF_ERR_BAD_OUT_PORT, OUT10(0, 5));
	A10("output 0", OF_ERR_BAD_OUT_PORT, OUT10(0, 0));
	A10("output OFPP_MAX", OF_ERR_BAD_OUT_PORT, OUT10(0xff, 0x00));
	A10("output IN_PORT", OF_ERR_NONE, OUT10(0xff, 0xf8));
	A10("output TABLE", OF_ERR_NONE, OUT10(0xff, 0xf9));
	A10("output NORMAL", OF_ERR_NONE, OUT10(0xff, 0xfa));
	A10("output FLOOD", OF_ERR_NONE, OUT10(0xff, 0xfb));
	A10("output ALL", OF_ERR_NONE, OUT10(0xff, 0xfc));
	A10("output CONTROLLER", OF_ERR_NONE, OUT10(0xff, 0xfd));
	A10("output LOCAL", OF_ERR_NONE, OUT10(0xff, 0xfe));
	A10("output NONE", OF_ERR_BAD_OUT_PORT, OUT10(0xff, 0xff));
	A10("output len 16", OF_ERR_BAD_ACTION_LEN,
	    0, 0, 0, 16, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	A10("every action", OF_ERR_NONE,
	    0, 1, 0, 8, 0x0f, 0xff, 0, 0,	/* set_vlan_vid 4095 */
	    0, 2, 0, 8, 7, 0, 0, 0,		/* set_vlan_pcp */
	    0, 3, 0, 8, 0, 0, 0, 0,		/* strip_vlan */
	    0, 4, 0, 16, 0, 1, 2, 3, 4, 5, 0, 0, 0, 0, 0, 0,
	    0, 5, 0, 16, 0, 1, 2, 3, 4, 6, 0, 0, 0, 0, 0, 0,
	    0, 6, 0, 8, 10, 0, 0, 1,		/* set_nw_src */
	    0, 7, 0, 8, 10, 0, 0, 2,		/* set_nw_dst */
	    0, 8, 0, 8, 0xb8, 0, 0, 0,		/* set_nw_tos EF */
	    0, 9, 0, 8, 0, 80, 0, 0,		/* set_tp_src */
	    0, 10, 0, 8, 1, 0xbb, 0, 0,		/* set_tp_dst */
	    0, 11, 0, 16, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, /* enqueue */
	    OUT10(0, 3));
	A10("set_vlan_vid 4096", OF_ERR_BAD_ACTION_ARGUMENT,
	    0, 1, 0, 8, 0x10, 0x00, 0, 0);
	A10("set_vlan_pcp 8", OF_ERR_BAD_ACTION_ARGUMENT,
	    0, 2, 0, 8, 8, 0, 0, 0);
	A10("set_nw_tos with ECN bits", OF_ERR_BAD_ACTION_ARGUMENT,
	    0, 8, 0, 8, 0x03, 0, 0, 0);
	A10("set_dl_src len 8", OF_ERR_BAD_ACTION_LEN,
	    0, 4, 0, 8, 0, 1, 2, 3);
	A10("enqueue IN_PORT", OF_ERR_NONE,
	    0, 11, 0, 16, 0xff, 0xf8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
	A10("enqueue FLOOD", OF_ERR_BAD_OUT_PORT,
	    0, 11, 0, 16, 0xff, 0xfb, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
	A10("enqueue port 9", OF_ERR_BAD_OUT_PORT,
	    0, 11, 0, 16, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
	A10("vendor subtype 0", OF_ERR_BAD_ACTION_EXP_TYPE,
	    0xff, 0xff, 0, 16, 0, 0, 0x23, 0x20, 0, 0, 0, 0, 0, 0, 0, 0);
	A10("unknown 12", OF_ERR_BAD_ACTION_TYPE, 0, 12, 0, 8, 0, 0, 0, 0);
	A10("len past the list", OF_ERR_BAD_ACTION_LEN,
	    0, 0, 0, 16, 0, 1, 0, 0);
}

static void
test_instructions(void)
{
	CHECK(vi(NULL, 0, 0) == OF_ERR_NONE, "no instructions (drop)");
	I13("goto 1 from 0", 0, OF_ERR_NONE, 0, 1, 0, 8, 1, 0, 0, 0);
	I13("goto 3 from 2", 2, OF_ERR_NONE, 0, 1, 0, 8, 3, 0, 0, 0);
	I13("goto 0 from 0", 0, OF_ERR_BAD_INST_TABLE_ID,
	    0, 1, 0, 8, 0, 0, 0, 0);
	I13("goto 1 from 2", 2, OF_ERR_BAD_INST_TABLE_ID,
	    0, 1, 0, 8, 1, 0, 0, 0);
	I13("goto 4 of 4 tables", 0, OF_ERR_BAD_INST_TABLE_ID,
	    0, 1, 0, 8, 4, 0, 0, 0);
	I13("goto len 16", 0, OF_ERR_BAD_INST_LEN,
	    0, 1, 0, 16, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	I13("write_metadata", 0, OF_ERR_NONE,
	    0, 2, 0, 24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
	    0, 0, 0, 0, 0, 0, 0, 0xff);
	I13("write_metadata len 16", 0, OF_ERR_BAD_INST_LEN,
	    0, 2, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
	I13("apply output 1", 0, OF_ERR_NONE,
	    0, 4, 0, 24, 0, 0, 0, 0, OUT13(0, 0, 0, 1));
	I13("apply output 9", 0, OF_ERR_BAD_OUT_PORT,
	    0, 4, 0, 24, 0, 0, 0, 0, OUT13(0, 0, 0, 9));
	I13("apply bad action len", 0, OF_ERR_BAD_ACTION_LEN,
	    0, 4, 0, 16, 0, 0, 0, 0, 0, 11, 0, 4, 0, 0, 0, 0);
	I13("write group, clear, meter, goto", 0, OF_ERR_NONE,
	    0, 6, 0, 8, 0, 0, 0, 1,			/* meter 1 */
	    0, 5, 0, 8, 0, 0, 0, 0,			/* clear */
	    0, 3, 0, 16, 0, 0, 0, 0, GROUP13(7),	/* write */
	    0, 1, 0, 8, 2, 0, 0, 0);			/* goto 2 */
	I13("clear len 16", 0, OF_ERR_BAD_INST_LEN,
	    0, 5, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	I13("meter len 16", 0, OF_ERR_BAD_INST_LEN,
	    0, 6, 0, 16, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0);
	I13("unknown type 7", 0, OF_ERR_BAD_INST_UNKNOWN,
	    0, 7, 0, 8, 0, 0, 0, 0);
	I13("type 0", 0, OF_ERR_BAD_INST_UNKNOWN, 0, 0, 0, 8, 0, 0, 0, 0);
	I13("experimenter", 0, OF_ERR_BAD_INST_UNKNOWN,
	    0xff, 0xff, 0, 8, 0, 0, 0x23, 0x20);
	I13("len 12", 0, OF_ERR_BAD_INST_LEN,
	    0, 5, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0);
	I13("len 4", 0, OF_ERR_BAD_INST_LEN, 0, 5, 0, 4, 0, 0, 0, 0);
	I13("len past the list", 0, OF_ERR_BAD_INST_LEN,
	    0, 4, 0, 32, 0, 0, 0, 0, OUT13(0, 0, 0, 1));
	I13("short tail", 0, OF_ERR_BAD_INST_LEN,
	    0, 5, 0, 8, 0, 0, 0, 0, 0, 5);
	I13("apply twice", 0, OF_ERR_BAD_INST_UNKNOWN,
	    0, 4, 0, 8, 0, 0, 0, 0, 0, 4, 0, 8, 0, 0, 0, 0);
}

/* 1.5.1 sections 7.2.4-5: the METER action replaces the METER
 * instruction; 1.3 and 1.4 know only the instruction, and no group
 * bucket or PACKET_OUT takes a METER action. */
static void
test_meter15(void)
{
	static const uint8_t act[] = {		/* apply meter 2, output 1 */
		0, 4, 0, 32, 0, 0, 0, 0, 0, 29, 0, 8, 0, 0, 0, 2,
		OUT13(0, 0, 0, 1),
	};
	static const uint8_t inst[] = { 0, 6, 0, 8, 0, 0, 0, 2 };
	static const uint8_t bad_len[] = {
		0, 4, 0, 24, 0, 0, 0, 0,
		0, 29, 0, 16, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	static const uint8_t bare[] = { 0, 29, 0, 8, 0, 0, 0, 2 };
	static const uint8_t two[] = {		/* meter 3 then 4 */
		0, 3, 0, 24, 0, 0, 0, 0, 0, 29, 0, 8, 0, 0, 0, 3,
		0, 29, 0, 8, 0, 0, 0, 4,
	};
	uint32_t	id = 0;

	CHECK(viv(OF_VERSION_15, act, sizeof(act)) == OF_ERR_NONE,
	    "1.5 METER action");
	CHECK(viv(OF_VERSION_14, act, sizeof(act)) == OF_ERR_BAD_ACTION_TYPE,
	    "1.4 has no METER action");
	CHECK(viv(OF_VERSION_13, act, sizeof(act)) == OF_ERR_BAD_ACTION_TYPE,
	    "1.3 has no METER action");
	CHECK(viv(OF_VERSION_14, inst, sizeof(inst)) == OF_ERR_NONE,
	    "1.4 METER instruction");
	CHECK(viv(OF_VERSION_15, inst, sizeof(inst)) ==
	    OF_ERR_BAD_INST_UNKNOWN, "1.5: no METER instruction");
	CHECK(viv(OF_VERSION_15, bad_len, sizeof(bad_len)) ==
	    OF_ERR_BAD_ACTION_LEN, "1.5 METER action of 16 bytes");
	CHECK(v13(bare, sizeof(bare)) == OF_ERR_BAD_ACTION_TYPE,
	    "no METER action in a bucket or PACKET_OUT");
	CHECK(of_prog_meter(act, sizeof(act), &id) == 1 && id == 2,
	    "the METER action's meter: %u", id);
	CHECK(of_prog_meter(two, sizeof(two), &id) == 1 && id == 3,
	    "the first of two: %u", id);
	CHECK(of_prog_meter(act + 16, sizeof(act) - 16, &id) == 0,
	    "an OUTPUT alone names no meter");
}

/* A flow's program written for the reading session's version (of_prog_put):
 * 1.3's METER instruction and 1.5's METER action, each way, and a meter
 * with no APPLY_ACTIONS to join. */
static size_t
put(uint8_t ver, const uint8_t *p, size_t len, uint8_t *out, size_t size)
{
	struct wbuf	w;

	wbuf_init(&w, out, size);
	of_prog_put(&w, ver, p, len);
	return w.err ? 0 : w.len;
}

static void
test_prog_put(void)
{
	static const uint8_t p13[] = {		/* meter 2; apply output 1 */
		0, 6, 0, 8, 0, 0, 0, 2,
		0, 4, 0, 24, 0, 0, 0, 0, OUT13(0, 0, 0, 1),
	};
	static const uint8_t p15[] = {		/* apply meter 2, output 1 */
		0, 4, 0, 32, 0, 0, 0, 0, 0, 29, 0, 8, 0, 0, 0, 2,
		OUT13(0, 0, 0, 1),
	};
	static const uint8_t m13[] = { 0, 6, 0, 8, 0, 0, 0, 9,	/* meter 9, */
		0, 1, 0, 8, 1, 0, 0, 0 };			/* goto 1 */
	static const uint8_t m15[] = { 0, 4, 0, 16, 0, 0, 0, 0,
		0, 29, 0, 8, 0, 0, 0, 9, 0, 1, 0, 8, 1, 0, 0, 0 };
	static const uint8_t m15to13[] = { 0, 6, 0, 8, 0, 0, 0, 9,
		0, 4, 0, 8, 0, 0, 0, 0, 0, 1, 0, 8, 1, 0, 0, 0 };
	uint8_t		out[64];
	size_t		n;

	n = put(OF_VERSION_15, p13, sizeof(p13), out, sizeof(out));
	CHECK(n == sizeof(p15) && memcmp(out, p15, n) == 0,
	    "1.3 flow read in 1.5: METER action first (%zu bytes)", n);
	n = put(OF_VERSION_13, p15, sizeof(p15), out, sizeof(out));
	CHECK(n == sizeof(p13) && memcmp(out, p13, n) == 0,
	    "1.5 flow read in 1.3: METER instruction (%zu bytes)", n);
	n = put(OF_VERSION_14, p13, sizeof(p13), out, sizeof(out));
	CHECK(n == sizeof(p13) && memcmp(out, p13, n) == 0, "1.3 in 1.4: as is");
	n = put(OF_VERSION_15, p15, sizeof(p15), out, sizeof(out));
	CHECK(n == sizeof(p15) && memcmp(out, p15, n) == 0, "1.5 in 1.5: as is");
	n = put(OF_VERSION_15, m13, sizeof(m13), out, sizeof(out));
	CHECK(n == sizeof(m15) && memcmp(out, m15, n) == 0,
	    "a meter alone in 1.5: an APPLY_ACTIONS of it, in its place");
	n = put(OF_VERSION_13, m15, sizeof(m15), out, sizeof(out));
	CHECK(n == sizeof(m15to13) && memcmp(out, m15to13, n) == 0,
	    "back in 1.3: the instruction and an empty APPLY_ACTIONS");
}

static void
test_queries(void)
{
	static const uint8_t inst[] = {
		0, 4, 0, 24, 0, 0, 0, 0, OUT13(0, 0, 0, 2),
		0, 3, 0, 32, 0, 0, 0, 0, GROUP13(7),
		OUT13(0xff, 0xff, 0xff, 0xfd),
		0, 1, 0, 8, 1, 0, 0, 0,
	};
	static const uint8_t act10[] = {
		OUT10(0, 1), OUT10(0xff, 0xfd),
		0, 11, 0, 16, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
	};
	static const uint8_t act13[] = {
		GROUP13(3), OUT13(0, 0, 0, 4), OUT13(0xff, 0xff, 0xff, 0xfb),
	};
	static const uint8_t bad[] = { 0, 4, 0, 40, 0, 0, 0, 0 };
	uint32_t	ports[4];
	int		n;

	CHECK(of_prog_outputs_to(OF_VERSION_13, inst, sizeof(inst), 2),
	    "apply outputs to 2");
	CHECK(of_prog_outputs_to(OF_VERSION_13, inst, sizeof(inst),
	    OF_PORT_CONTROLLER), "write outputs to CONTROLLER");
	CHECK(!of_prog_outputs_to(OF_VERSION_13, inst, sizeof(inst), 3),
	    "not to 3");
	CHECK(of_prog_outputs_to(OF_VERSION_13, inst, sizeof(inst),
	    OF_PORT_ANY), "ANY: no filter");
	CHECK(of_prog_uses_group(OF_VERSION_13, inst, sizeof(inst), 7),
	    "write uses group 7");
	CHECK(!of_prog_uses_group(OF_VERSION_13, inst, sizeof(inst), 8),
	    "not group 8");
	CHECK(of_prog_uses_group(OF_VERSION_13, inst, sizeof(inst),
	    OF_GROUP_ANY), "group ANY: no filter");
	CHECK(!of_prog_outputs_to(OF_VERSION_13, bad, sizeof(bad), 2),
	    "malformed prog selects nothing");
	CHECK(of_prog_outputs_to(OF_VERSION_10, act10, sizeof(act10),
	    OF_PORT_CONTROLLER), "1.0 CONTROLLER widened");
	CHECK(of_prog_outputs_to(OF_VERSION_10, act10, sizeof(act10), 3),
	    "1.0 enqueue counts as output");
	CHECK(!of_prog_outputs_to(OF_VERSION_10, act10, sizeof(act10), 2),
	    "1.0 not to 2");
	CHECK(!of_prog_uses_group(OF_VERSION_10, act10, sizeof(act10), 1),
	    "1.0 has no groups");
	n = of_actions_output_ports(OF_VERSION_13, act13, sizeof(act13),
	    ports, 4);
	CHECK(n == 2 && ports[0] == 4 && ports[1] == OF_PORT_FLOOD,
	    "1.3 output ports: %d", n);
	n = of_actions_output_ports(OF_VERSION_10, act10, sizeof(act10),
	    ports, 1);
	CHECK(n == 1 && ports[0] == 1, "at most max ports: %d", n);
	n = of_actions_output_ports(OF_VERSION_10, bad, sizeof(bad), ports, 4);
	CHECK(n == -1, "malformed list: -1");
}

static void
test_ports(void)
{
	CHECK(of_port_widen10(1) == 1, "widen 1");
	CHECK(of_port_widen10(0xfeff) == 0xfeff, "widen 0xfeff");
	CHECK(of_port_widen10(0xff00) == OF_PORT_MAX, "widen OFPP_MAX");
	CHECK(of_port_widen10(0xfffd) == OF_PORT_CONTROLLER,
	    "widen CONTROLLER");
	CHECK(of_port_widen10(0xffff) == OF_PORT_ANY, "widen NONE to ANY");
	CHECK(of_port_narrow10(OF_PORT_LOCAL) == 0xfffe, "narrow LOCAL");
	CHECK(of_port_narrow10(7) == 7, "narrow 7");
	CHECK(of_port_narrow10(0x10000) == 0xffff, "narrow unrepresentable");
}

static const struct check_case cases[] = {
	CASE(test_actions13),
	CASE(test_set_field),
	CASE(test_actions10),
	CASE(test_instructions),
	CASE(test_meter15),
	CASE(test_prog_put),
	CASE(test_queries),
	CASE(test_ports),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
