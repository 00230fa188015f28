/*
 * The Nicira TLV table of a switch (of_nx_tlv.c): NXT_TLV_TABLE_MOD and
 * NXT_TLV_TABLE_REQUEST taken through the EXPERIMENTER dispatch of a
 * switch connection, its output read from the other end of a socket
 * pair.  The errors and their vendor encoding are Open vSwitch 3.1's
 * (ofp-errors.h NXTTMFC_*); a refused message changes nothing and is
 * counted in nx_refused.
 */
#include <sys/socket.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <event2/bufferevent.h>
#include <event2/event.h>

#include "check.h"
#include "check_ofsw.h"
#include "of_nx_tlv.h"
#include "of_sim.h"

#define V10	OF_VERSION_10
#define V13	OF_VERSION_13

static struct metrics		 M;
static struct of_sim		 S;
static struct of_switch		 SW;
static struct of_port_state	 PORTS[4];
static uint64_t			 STORE[128];
static struct event_base	*BASE;
static int			 FDS[2] = { -1, -1 };
static uint8_t			 BUF[OF_SCRATCH];

static void
setup(uint8_t version)
{
	if (SW.ft != NULL) {
		of_flowtable_free(SW.ft);
		of_nx_tlv_free(SW.tlv_map);
		bufferevent_free(SW.pd.bev);
		close(FDS[1]);
		metrics_free(&M);
	}
	check_of_sim_init(&S, &M, STORE, nitems(STORE));
	memset(&SW, 0, sizeof(SW));
	S.cfg.table_size = 100;
	S.sw = &SW;
	SW.sim = &S;
	SW.owner = &SW;
	SW.version = version;
	SW.state = OFS_UP;
	SW.ports = PORTS;
	SW.ft = of_flowtable_new(version, 4, 100);
	of_roles_init(&SW.roles, 1);
	SW.pd.bev = check_of_pipe(&BASE, FDS);
}

/* The next message the switch sent, or 0. */
static size_t
next_msg(void)
{
	return check_of_next_msg(BASE, FDS[1], BUF, sizeof(BUF));
}

/* Hex (spaces allowed) after a header of the switch's version and type
 * t into the switch; its answer (0: none) in BUF. */
static size_t
send_hex(uint8_t t, const char *hex)
{
	uint8_t			 msg[1024];
	size_t			 n = OF_HEADER_LEN;
	unsigned		 v;
	struct of_header	 h;
	struct rbuf		 body;

	for (; *hex != '\0'; hex++)
		if (*hex != ' ' && sscanf(hex, "%2x", &v) == 1) {
			msg[n++] = (uint8_t)v;
			hex++;
		}
	msg[0] = SW.version;
	msg[1] = t;
	msg[2] = (uint8_t)(n >> 8);
	msg[3] = (uint8_t)n;
	memset(msg + 4, 0, 4);
	msg[7] = 9;
	h.version = SW.version;
	h.type = t;
	h.length = (uint16_t)n;
	h.xid = 9;
	rbuf_init(&body, msg + OF_HEADER_LEN, n - OF_HEADER_LEN);
	of_handle(&SW, t == 14 ? OF_FLOW_MOD : OF_EXPERIMENTER, &h, &body,
	    msg);
	return next_msg();
}

#define TLV_MOD(cmd)	"00002320 00000018 " cmd " 000000000000"
#define TLV_REQ		"00002320 00000019"

/* The 1.3 error answer's exp_code (Nicira's, experimenter 0x2320), or
 * its OpenFlow type << 16 | code; -1: no error. */
static long
err13(size_t n)
{
	if (n < 16 || BUF[1] != 1)
		return -1;
	if (BUF[8] == 0xff && BUF[9] == 0xff && BUF[12] == 0 &&
	    BUF[13] == 0 && BUF[14] == 0x23 && BUF[15] == 0x20)
		return BUF[10] << 8 | BUF[11];
	return (long)(BUF[8] << 8 | BUF[9]) << 16 | (BUF[10] << 8 | BUF[11]);
}

static unsigned
mappings(size_t n)
{
	return n >= 32 ? (unsigned)(n - 32) / 8 : 0;
}

static void
test_request_empty(void)
{
	size_t	n;

	setup(V13);
	n = send_hex(4, TLV_REQ);
	CHECK(n == 32 && BUF[1] == 4 && BUF[15] == 26 &&
	    BUF[16] == 0 && BUF[18] == 1 && BUF[19] == 0 &&
	    BUF[20] == 0 && BUF[21] == 64, "reply: 256 bytes, 64 fields");
	CHECK(SW.tlv_map == NULL, "a request makes no map");
	CHECK(send_hex(4, TLV_MOD("0002")) == 0 && SW.tlv_map == NULL,
	    "CLEAR of nothing makes no map");
}

static void
test_add_and_errors(void)
{
	size_t	n;

	setup(V13);
	CHECK(send_hex(4, TLV_MOD("0000") " ffff0004 0000 0000"
	    " 01028008 003f 0000") == 0, "ADD two mappings");
	n = send_hex(4, TLV_REQ);
	CHECK(mappings(n) == 2 && memcmp(BUF + 32,
	    "\xff\xff\x00\x04\x00\x00\x00\x00\x01\x02\x80\x08\x00\x3f\x00\x00",
	    16) == 0, "both read back in index order");
	CHECK(err13(send_hex(4, TLV_MOD("0000") " 00010104 0000 0000")) == 20,
	    "index mapped: ALREADY_MAPPED");
	CHECK(err13(send_hex(4, TLV_MOD("0000") " ffff0004 0001 0000")) == 21,
	    "class and type mapped: DUP_ENTRY");
	CHECK(err13(send_hex(4, TLV_MOD("0000") " 00010106 0001 0000")) == 17,
	    "length 6: BAD_OPT_LEN");
	CHECK(err13(send_hex(4, TLV_MOD("0000") " 00010180 0001 0000")) == 17,
	    "length 128: BAD_OPT_LEN");
	CHECK(err13(send_hex(4, TLV_MOD("0000") " 00010104 0040 0000")) == 18,
	    "index 64: BAD_FIELD_IDX");
	CHECK(err13(send_hex(4, TLV_MOD("0003"))) == 16, "command 3");
	CHECK(err13(send_hex(4, TLV_MOD("0000") " 00010104")) ==
	    (1L << 16 | 6), "a partial mapping: BAD_REQUEST/BAD_LEN");
	/* 12 used: two of 124 pass 256; the first is not kept either. */
	CHECK(err13(send_hex(4, TLV_MOD("0000") " 0001017c 0001 0000"
	    " 0001027c 0002 0000")) == 19, "260 bytes: TABLE_FULL");
	CHECK(err13(send_hex(4, TLV_MOD("0000") " 00010304 0003 0000"
	    " 00010304 0004 0000")) == 21, "the same option twice in one");
	CHECK(mappings(send_hex(4, TLV_REQ)) == 2 &&
	    SW.tlv_map->space == 12, "refused messages changed nothing");
	CHECK(*S.c.nx_refused == 9,
	    "nx_refused counts each: %llu",
	    (unsigned long long)*S.c.nx_refused);
	CHECK(send_hex(4, TLV_MOD("0000") " 0001017c 0001 0000"
	    " 00010278 0002 0000") == 0 && SW.tlv_map->space == 256,
	    "up to 256 bytes");
}

/* FLOW_MOD ADD, table 0, priority 1, match tun_metadata0=0x1234. */
#define FLOW_TUN0	"0000000000000000 0000000000000000 00 00 0000 0000"\
	" 0001 ffffffff ffffffff ffffffff 0000 0000"			\
	" 0001 000c 00015004 00001234 00000000"

/* priority 2, any packet, apply_actions(REG_LOAD2 tun_metadata63=5). */
#define FLOW_LOAD63	"0000000000000000 0000000000000000 00 00 0000 0000"\
	" 0002 ffffffff ffffffff ffffffff 0000 0000"			\
	" 0001 0004 00000000 0004 0018 00000000"			\
	" ffff0010 00002320 0021 0001ce01 0500"
/* DELETE in every table. */
#define FLOW_DEL_ALL	"0000000000000000 0000000000000000 ff 03 0000 0000"\
	" 0000 ffffffff ffffffff ffffffff 0000 0000"			\
	" 0001 0004 00000000"

static void
test_in_use(void)
{
	setup(V13);
	CHECK(err13(send_hex(14, FLOW_TUN0)) == 37,
	    "a flow on tun_metadata0 unmapped: NXFMFC_INVALID_TLV_FIELD");
	CHECK(send_hex(4, TLV_MOD("0000") " ffff0004 0000 0000"
	    " ffff0108 003f 0000") == 0, "map tun_metadata0 and 63");
	CHECK(send_hex(14, FLOW_TUN0) == 0 && of_flowtable_total(SW.ft) == 1,
	    "a flow on tun_metadata0");
	CHECK(err13(send_hex(4, TLV_MOD("0001") " ffff0004 0000 0000")) == 38,
	    "DELETE of a mapping a flow uses: INVALID_TLV_DEL");
	CHECK(err13(send_hex(4, TLV_MOD("0002"))) == 38, "CLEAR too");
	CHECK(send_hex(14, FLOW_LOAD63) == 0 && of_flowtable_total(SW.ft) == 2,
	    "a flow whose action loads tun_metadata63");
	CHECK(err13(send_hex(4, TLV_MOD("0001") " ffff0108 003f 0000")) == 38,
	    "DELETE of a mapping an action uses: INVALID_TLV_DEL");
	CHECK(send_hex(14, FLOW_DEL_ALL) == 0 && of_flowtable_total(SW.ft) == 0,
	    "flows deleted");
	CHECK(send_hex(4, TLV_MOD("0001") " ffff0108 003f 0000") == 0 &&
	    mappings(send_hex(4, TLV_REQ)) == 1, "then DELETE is taken");
	CHECK(send_hex(4, TLV_MOD("0002")) == 0 &&
	    mappings(send_hex(4, TLV_REQ)) == 0, "and CLEAR");
}

/* 1.0: NXET_VENDOR, NXVC_VENDOR_ERROR, nx_vendor_error. */
static void
test_vendor_error10(void)
{
	size_t	n;

	setup(V10);
	n = send_hex(4, TLV_MOD("0007"));
	CHECK(n >= 20 && BUF[0] == V10 && BUF[1] == 1 &&
	    memcmp(BUF + 8, "\xb0\xc2\x00\x00\x00\x00\x23\x20\x00\x01\x02\x0f",
	    12) == 0, "BAD_COMMAND as NX1.0(1,527)");
	n = send_hex(4, TLV_REQ);
	CHECK(n == 32 && BUF[0] == V10 && BUF[15] == 26, "1.0 reply");
}

static const struct check_case cases[] = {
	CASE(test_request_empty),
	CASE(test_add_and_errors),
	CASE(test_in_use),
	CASE(test_vendor_error10),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
