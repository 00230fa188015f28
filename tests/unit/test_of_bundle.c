/*
 * Bundles (OpenFlow 1.4.1 sections 6.8, 7.3.9; the ONF extension of 1.3):
 * the codec, and a switch connection taking BUNDLE_CONTROL and
 * BUNDLE_ADD_MESSAGE through its EXPERIMENTER dispatch, its output read
 * from the other end of a socket pair.  A commit applies all its
 * messages or none: a failing one leaves the flow table byte-identical
 * (flows, order, ages), the groups and the ports as they were, and sends
 * no FLOW_REMOVED.  The bounds: open bundles, messages, idle timeout.
 */
#include <sys/socket.h>

#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "check.h"
#include "check_ofsw.h"
#include "of_bundle.h"
#include "of_sim.h"

#define V13		OF_VERSION_13
#define ONF_ERR(c)	(OF_ONFT_BUNDLE_CONTROL + (c))
#define BF		(OF_BF_ATOMIC | OF_BF_ORDERED)

static struct metrics		 M;
static struct of_sim		 S;
static struct of_switch		 SW;
static struct of_port_state	 PORTS[4];
static uint64_t			 STORE[128];
static struct event_base	*BASE;
static struct bufferevent	*BEV;
static int			 FDS[2] = { -1, -1 };
static uint8_t			 BUF[OF_SCRATCH];

static void
setup(void)
{
	if (SW.ft != NULL) {
		of_bundles_drop(&SW);
		of_flowtable_free(SW.ft);
		of_groups_free(SW.groups);
		bufferevent_free(BEV);
		close(FDS[1]);
		metrics_free(&M);
	}
	check_of_sim_init(&S, &M, STORE, nitems(STORE));
	memset(&SW, 0, sizeof(SW));
	memset(PORTS, 0, sizeof(PORTS));
	S.cfg.dpid_base = 1;
	S.cfg.table_size = 1000;
	S.cfg.max_groups = 16;
	S.cfg.bundles_max = 2;
	S.cfg.bundle_msgs_max = 8;
	S.cfg.bundle_bytes_max = 4096;
	S.cfg.bundle_timeout = 10;
	S.sw = &SW;
	SW.sim = &S;
	SW.owner = &SW;
	SW.version = V13;
	SW.state = OFS_UP;
	SW.ports = PORTS;
	SW.ft = of_flowtable_new(V13, 4, 1000);
	of_roles_init(&SW.roles, 1);
	SW.async.flow_removed[0] = 0xf;
	SW.async.port_status[0] = 0x7;
	BEV = check_of_pipe(&BASE, FDS);
	SW.pd.bev = BEV;
}

/* The next message the switch sent, or 0. */
static size_t
next_msg(void)
{
	return check_of_next_msg(BASE, FDS[1], BUF, sizeof(BUF));
}

static void
drain(void)
{
	while (next_msg() > 0)
		;
}

static uint16_t
u16_at(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t
u32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/* Hand a whole message to the switch as the session would. */
static void
deliver(const uint8_t *msg, size_t len)
{
	struct of_header	h = { msg[0], msg[1], (uint16_t)len,
				    u32_at(msg + 4) };
	struct rbuf		body;

	rbuf_init(&body, msg + OF_HEADER_LEN, len - OF_HEADER_LEN);
	of_handle(&SW, msg[1] == 4 ? OF_EXPERIMENTER : OF_FLOW_MOD, &h,
	    &body, msg);
}

static void
ctrl(uint32_t xid, uint32_t id, uint16_t type, uint16_t flags)
{
	struct of_bundle_ctrl	bc = { id, type, flags };
	uint8_t			m[64];
	struct wbuf		w;

	wbuf_init(&w, m, sizeof(m));
	of_bundle_ctrl_encode(&w, V13, xid, &bc);
	deliver(m, w.len);
}

/* APPLY_ACTIONS with one OUTPUT to port, or WRITE_ACTIONS GROUP g. */
static size_t
prog_out(uint8_t *b, uint32_t port, int group)
{
	static const uint8_t out[24] = { 0, 4, 0, 24, 0, 0, 0, 0,
		0, 0, 0, 16, 0, 0, 0, 0, 0xff, 0xff };
	static const uint8_t grp[16] = { 0, 3, 0, 16, 0, 0, 0, 0,
		0, 22, 0, 8, 0, 0, 0, 0 };

	if (group) {
		memcpy(b, grp, sizeof(grp));
		b[15] = (uint8_t)port;
		return sizeof(grp);
	}
	memcpy(b, out, sizeof(out));
	b[15] = (uint8_t)port;
	return sizeof(out);
}

/* A FLOW_MOD: ip, ipv4_dst 10.0.0.n, priority prio, in table. */
static size_t
flow_mod(uint8_t *m, size_t cap, uint32_t xid, uint8_t cmd, uint8_t table,
    uint16_t prio, uint8_t n, uint32_t out, int group)
{
	struct of_flow_mod	fm;
	uint8_t			prog[32], et[2] = { 8, 0 }, ip[4] = { 10, 0, 0 };
	struct wbuf		w;

	memset(&fm, 0, sizeof(fm));
	ip[3] = n;
	of_match_init(&fm.match);
	if (n != 0) {		/* 0: the match-all */
		of_match_set(&fm.match, 5, et, NULL, 2);
		of_match_set(&fm.match, 12, ip, NULL, 4);
	}
	fm.command = cmd;
	fm.table_id = table;
	fm.priority = prio;
	fm.buffer_id = 0xffffffffu;
	fm.out_port = 0xffffffffu;
	fm.out_group = 0xffffffffu;
	fm.flags = OF_FF_SEND_FLOW_REM;
	fm.prog = prog;
	fm.prog_len = prog_out(prog, out, group);
	wbuf_init(&w, m, cap);
	of_flow_mod_encode(&w, V13, xid, &fm);
	return w.len;
}

/* BUNDLE_ADD_MESSAGE of inner (its xid) to bundle id. */
static void
add(uint32_t id, uint16_t flags, const uint8_t *inner, size_t len)
{
	struct of_bundle_add	ba = { id, flags, inner, len };
	uint8_t			m[512];
	struct wbuf		w;

	wbuf_init(&w, m, sizeof(m));
	of_bundle_add_encode(&w, V13, &ba);
	deliver(m, w.len);
}

static void
add_flow(uint32_t id, uint32_t xid, uint8_t cmd, uint8_t table,
    uint16_t prio, uint8_t n, uint32_t out)
{
	uint8_t	m[256];

	add(id, BF, m, flow_mod(m, sizeof(m), xid, cmd, table, prio, n, out,
	    0));
}

/* The ERROR just sent: an ONF bundle code (1.3) or type/code. */
static int
is_bundle_error(size_t len, uint32_t xid, uint16_t code)
{
	return len >= 16 && BUF[1] == 1 && u32_at(BUF + 4) == xid &&
	    u16_at(BUF + 8) == 0xffff && u16_at(BUF + 10) == ONF_ERR(code) &&
	    u32_at(BUF + 12) == OF_EXP_ONF;
}

static int
is_reply(size_t len, uint32_t xid, uint16_t type)
{
	return len == 24 && BUF[1] == 4 && u32_at(BUF + 4) == xid &&
	    u32_at(BUF + 8) == OF_EXP_ONF &&
	    u32_at(BUF + 12) == OF_ONFT_BUNDLE_CONTROL &&
	    u16_at(BUF + 20) == type;
}

struct snap {
	uint8_t	b[8192];
	size_t	len;
};

static int
snap_flow(void *arg, const struct of_flow_info *fi)
{
	struct snap	*s = arg;
	struct wbuf	 w;

	wbuf_init(&w, s->b + s->len, sizeof(s->b) - s->len);
	wbuf_put_u8(&w, fi->table_id);
	wbuf_put_u16(&w, fi->priority);
	wbuf_put_u16(&w, fi->flags);
	wbuf_put_u64(&w, fi->cookie);
	wbuf_put_u32(&w, fi->duration_sec);
	wbuf_put_u32(&w, fi->duration_nsec);
	wbuf_put_bytes(&w, fi->match->oxm, fi->match->len);
	wbuf_put_bytes(&w, fi->prog, fi->prog_len);
	s->len += w.len;
	return 0;
}

/* Every flow, in table order, at a fixed time: equal iff identical. */
static void
snapshot(struct snap *s)
{
	struct of_flow_filter	f;

	memset(&f, 0, sizeof(f));
	memset(s, 0, sizeof(*s));
	f.table_id = OF_TABLE_ALL;
	f.out_port = 0xffffffffu;
	f.out_group = 0xffffffffu;
	of_match_init(&f.match);
	of_flowtable_walk(SW.ft, &f, 1ull << 62, snap_flow, s);
}

static uint64_t
counter(uint64_t *const *field)
{
	return **field;
}

static void
test_codec(void)
{
	struct of_bundle_ctrl	bc = { 7, OF_BCT_OPEN_REQUEST, BF }, got;
	struct of_bundle_add	ba;
	uint8_t			m[128], inner[8] = { V13, 2, 0, 8, 0, 0, 0, 9 };
	static const uint8_t	want[24] = { 4, 4, 0, 24, 0, 0, 0, 5,
		0x4f, 0x4e, 0x46, 0, 0, 0, 0x08, 0xfc,
		0, 0, 0, 7, 0, 0, 0, 3 };
	struct wbuf		w;
	struct rbuf		r;
	uint16_t		code = 0;

	wbuf_init(&w, m, sizeof(m));
	CHECK(of_bundle_ctrl_encode(&w, V13, 5, &bc) == 0, "ctrl encode");
	CHECK_BYTES(m, w.len, want, sizeof(want), "ONF BUNDLE_CONTROL bytes");
	rbuf_init(&r, m + 16, w.len - 16);
	CHECK(of_bundle_ctrl_decode(&r, &got, &code) == 0 &&
	    got.bundle_id == 7 && got.type == 0 && got.flags == BF,
	    "ctrl decode");
	/* A property of length 3 is malformed. */
	memcpy(m + 24, "\xff\xff\x00\x03", 4);
	rbuf_init(&r, m + 16, 12);
	CHECK(of_bundle_ctrl_decode(&r, &got, &code) == -1 &&
	    code == OF_BFC_OUTER_BAD_LEN, "bad property length");
	/* 1.4: its own type 33, no experimenter header. */
	wbuf_init(&w, m, sizeof(m));
	of_bundle_ctrl_encode(&w, 5, 5, &bc);
	CHECK(w.len == 16 && m[1] == 33, "1.4 BUNDLE_CONTROL");

	ba.bundle_id = 7;
	ba.flags = BF;
	ba.msg = inner;
	ba.msg_len = sizeof(inner);
	wbuf_init(&w, m, sizeof(m));
	of_bundle_add_encode(&w, V13, &ba);
	CHECK(w.len == 32 && u32_at(m + 4) == 9 && u32_at(m + 12) == 2301,
	    "add: the inner xid, ONF type 2301");
	rbuf_init(&r, m + 16, w.len - 16);
	CHECK(of_bundle_add_decode(&r, V13, 9, &ba, &code) == 0 &&
	    ba.msg_len == 8, "add decode");
	rbuf_init(&r, m + 16, w.len - 16);
	CHECK(of_bundle_add_decode(&r, V13, 10, &ba, &code) == -1 &&
	    code == OF_BFC_MSG_BAD_XID, "add: xid differs: MSG_BAD_XID");
	rbuf_init(&r, m + 16, w.len - 16);
	CHECK(of_bundle_add_decode(&r, 5, 9, &ba, &code) == -1 &&
	    code == OF_BFC_BAD_VERSION, "add: version differs");
	m[16 + 8 + 3] = 40;	/* the inner length past the end */
	rbuf_init(&r, m + 16, w.len - 16);
	CHECK(of_bundle_add_decode(&r, V13, 9, &ba, &code) == -1 &&
	    code == OF_BFC_MSG_BAD_LEN, "add: inner too long: MSG_BAD_LEN");

	wbuf_init(&w, m, sizeof(m));
	of_bundle_error_encode(&w, V13, 3, OF_BFC_MSG_FAILED, NULL, 0);
	CHECK(w.len == 16 && u16_at(m + 8) == 0xffff &&
	    u16_at(m + 10) == 2313 && u32_at(m + 12) == OF_EXP_ONF,
	    "1.3 error: ONF experimenter 2313");
	wbuf_init(&w, m, sizeof(m));
	of_bundle_error_encode(&w, 5, 3, OF_BFC_MSG_FAILED, NULL, 0);
	CHECK(w.len == 12 && u16_at(m + 8) == 17 && u16_at(m + 10) == 13,
	    "1.4 error: BUNDLE_FAILED/MSG_FAILED");
}

/* Five flows in two tables, one of them timed. */
static void
fill_table(void)
{
	uint8_t	m[256];
	int	i;

	for (i = 1; i <= 4; i++) {
		flow_mod(m, sizeof(m), 100 + i, OF_FC_ADD, 0, 10, i, i, 0);
		deliver(m, u16_at(m + 2));
	}
	flow_mod(m, sizeof(m), 105, OF_FC_ADD, 1, 20, 5, 1, 0);
	deliver(m, u16_at(m + 2));
	drain();
}

/* The 3rd of 5 FLOW_MODs is bad: nothing of the first two stays. */
static void
test_rollback(void)
{
	struct snap	before, after;
	size_t		len;

	setup();
	fill_table();
	snapshot(&before);
	ctrl(1, 42, OF_BCT_OPEN_REQUEST, BF);
	CHECK(is_reply(next_msg(), 1, OF_BCT_OPEN_REPLY), "OPEN_REPLY");
	add_flow(42, 2, OF_FC_MODIFY, 0, 0, 0, 3);	/* all of table 0 */
	add_flow(42, 3, OF_FC_DELETE_STRICT, 0, 10, 2, 0);
	add_flow(42, 4, OF_FC_ADD, 9, 10, 6, 1);	/* no table 9 */
	add_flow(42, 5, OF_FC_ADD, 0, 10, 7, 1);
	add_flow(42, 6, OF_FC_DELETE, 1, 0, 0, 0);
	CHECK(next_msg() == 0, "adds are not answered");
	ctrl(7, 42, OF_BCT_CLOSE_REQUEST, BF);
	CHECK(is_reply(next_msg(), 7, OF_BCT_CLOSE_REPLY), "CLOSE_REPLY");
	ctrl(8, 42, OF_BCT_COMMIT_REQUEST, BF);
	len = next_msg();
	CHECK(len >= 12 && BUF[1] == 1 && u32_at(BUF + 4) == 4 &&
	    u16_at(BUF + 8) == 5 && u16_at(BUF + 10) == 2 &&
	    BUF[12 + 1] == 14, "the 3rd's ERROR: FLOW_MOD_FAILED/BAD_TABLE_ID, "
	    "its xid, quoting it");
	CHECK(is_bundle_error(next_msg(), 8, OF_BFC_MSG_FAILED),
	    "then BUNDLE_FAILED/MSG_FAILED for the commit");
	CHECK(next_msg() == 0, "no FLOW_REMOVED of the delete undone");
	snapshot(&after);
	CHECK(before.len == after.len && before.len > 0 &&
	    memcmp(before.b, after.b, before.len) == 0,
	    "the table is byte-identical (%zu bytes)", before.len);
	CHECK(of_flowtable_total(SW.ft) == 5, "5 flows");
	CHECK(counter(&S.c.bundles_failed) == 1 && of_bundles_open(&SW) == 0,
	    "counted, the bundle gone");
	ctrl(9, 42, OF_BCT_COMMIT_REQUEST, BF);
	CHECK(is_bundle_error(next_msg(), 9, OF_BFC_BAD_ID),
	    "a second commit: BAD_ID");

	/* A flow added and one replaced by an identical ADD, then the bad
	 * 3rd: the new one goes, the replaced one comes back. */
	add_flow(43, 10, OF_FC_ADD, 0, 10, 6, 1);
	add_flow(43, 11, OF_FC_ADD, 0, 10, 3, 2);
	add_flow(43, 12, OF_FC_ADD, 0, 10, 7, 9);	/* no port 9 */
	add_flow(43, 13, OF_FC_ADD, 0, 10, 8, 1);
	add_flow(43, 14, OF_FC_DELETE, OF_TABLE_ALL, 0, 0, 0);
	ctrl(15, 43, OF_BCT_COMMIT_REQUEST, BF);
	CHECK(next_msg() > 0 && u32_at(BUF + 4) == 12 &&
	    u16_at(BUF + 8) == 2 && u16_at(BUF + 10) == 4,
	    "BAD_ACTION/BAD_OUT_PORT for the 3rd");
	CHECK(is_bundle_error(next_msg(), 15, OF_BFC_MSG_FAILED), "MSG_FAILED");
	snapshot(&after);
	CHECK(before.len == after.len &&
	    memcmp(before.b, after.b, before.len) == 0,
	    "again byte-identical");
}

/* A group deleted (taking its flow) before a bad message comes back,
 * flow and all; a PORT_MOD of a failed bundle changes no port. */
static void
test_rollback_groups_ports(void)
{
	static const uint8_t	gmod[16] = { V13, 15, 0, 16, 0, 0, 0, 30,
		0, OF_GC_DELETE, 0, 0, 0, 0, 0, 1 };
	uint8_t			pmod[40] = { V13, 16, 0, 40, 0, 0, 0, 31,
		0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 1, 1, 0, 0,
		0, 0, 0, 1, 0, 0, 0, 1 };
	uint8_t			m[256];
	struct snap		before, after;
	struct of_group_mod	gm = { OF_GC_ADD, OF_GT_ALL, 1, NULL, 0, 0 };
	struct of_group_limits	lim = { 4, 16, 8 };
	enum of_err		err;

	setup();
	CHECK(of_groups_apply(&SW.groups, &gm, &lim, 1, NULL, NULL, &err) == 0,
	    "group 1");
	flow_mod(m, sizeof(m), 20, OF_FC_ADD, 0, 5, 9, 1, 1);
	deliver(m, u16_at(m + 2));
	fill_table();
	snapshot(&before);
	CHECK(of_flowtable_total(SW.ft) == 6, "6 flows, one naming group 1");
	add(50, BF, gmod, sizeof(gmod));
	add(50, BF, pmod, sizeof(pmod));
	add_flow(50, 32, OF_FC_ADD, 7, 1, 1, 1);	/* no table 7 */
	ctrl(33, 50, OF_BCT_COMMIT_REQUEST, BF);
	CHECK(next_msg() > 0 && u32_at(BUF + 4) == 32, "the bad flow's ERROR");
	CHECK(is_bundle_error(next_msg(), 33, OF_BFC_MSG_FAILED), "MSG_FAILED");
	CHECK(next_msg() == 0, "no FLOW_REMOVED, no PORT_STATUS");
	snapshot(&after);
	CHECK(before.len == after.len &&
	    memcmp(before.b, after.b, before.len) == 0,
	    "the group's flow is back, table byte-identical");
	CHECK(of_groups_has(SW.groups, 1), "group 1 is back");
	CHECK(PORTS[0].config == 0, "port 1 unchanged");

	/* The same without the bad flow commits: all of it happens. */
	add(51, BF, gmod, sizeof(gmod));
	add(51, BF, pmod, sizeof(pmod));
	ctrl(34, 51, OF_BCT_COMMIT_REQUEST, BF);
	CHECK(next_msg() > 0 && BUF[1] == 11 && BUF[18] == OF_RR_GROUP_DELETE,
	    "FLOW_REMOVED (GROUP_DELETE) once committed");
	CHECK(next_msg() > 0 && BUF[1] == 12, "PORT_STATUS");
	CHECK(is_reply(next_msg(), 34, OF_BCT_COMMIT_REPLY), "COMMIT_REPLY");
	CHECK(!of_groups_has(SW.groups, 1) && PORTS[0].config == 1 &&
	    of_flowtable_total(SW.ft) == 5, "group, its flow, port changed");
	CHECK(counter(&S.c.bundles_committed) == 1 &&
	    counter(&S.c.group_mods) == 1, "counted");
}

static void
test_commit(void)
{
	setup();
	add_flow(1, 1, OF_FC_ADD, 0, 10, 1, 1);	/* opens bundle 1 */
	add_flow(1, 2, OF_FC_ADD, 0, 10, 2, 2);
	add_flow(1, 3, OF_FC_ADD, 0, 10, 1, 3);	/* replaces the first */
	CHECK(of_flowtable_total(SW.ft) == 0, "nothing before the commit");
	ctrl(4, 1, OF_BCT_COMMIT_REQUEST, BF);
	CHECK(is_reply(next_msg(), 4, OF_BCT_COMMIT_REPLY), "COMMIT_REPLY");
	CHECK(of_flowtable_total(SW.ft) == 2, "two flows after it");
	CHECK(counter(&S.c.flows_added) == 2 &&
	    counter(&S.c.flows_modified) == 1 && counter(&S.c.flow_mods) == 3 &&
	    counter(&S.c.bundle_msgs) == 3, "counters");
}

static void
test_errors(void)
{
	static const uint8_t	echo[8] = { V13, 2, 0, 8, 0, 0, 0, 9 };
	uint8_t			m[256];

	setup();
	ctrl(1, 5, OF_BCT_CLOSE_REQUEST, BF);
	CHECK(is_bundle_error(next_msg(), 1, OF_BFC_BAD_ID), "close: BAD_ID");
	ctrl(2, 5, OF_BCT_OPEN_REQUEST, 0x10);
	CHECK(is_bundle_error(next_msg(), 2, OF_BFC_BAD_FLAGS),
	    "unknown flag: BAD_FLAGS");
	ctrl(3, 5, OF_BCT_OPEN_REQUEST, BF);
	drain();
	ctrl(4, 5, OF_BCT_OPEN_REQUEST, BF);
	CHECK(is_bundle_error(next_msg(), 4, OF_BFC_BUNDLE_EXIST),
	    "BUNDLE_EXIST");
	ctrl(5, 5, OF_BCT_OPEN_REPLY, BF);
	CHECK(is_bundle_error(next_msg(), 5, OF_BFC_BAD_TYPE), "BAD_TYPE");
	add(5, BF, echo, sizeof(echo));
	CHECK(is_bundle_error(next_msg(), 9, OF_BFC_MSG_UNSUP),
	    "ECHO_REQUEST in a bundle: MSG_UNSUP");
	flow_mod(m, sizeof(m), 10, OF_FC_ADD, 0, 1, 1, 1, 0);
	add(5, OF_BF_ATOMIC, m, u16_at(m + 2));
	CHECK(is_bundle_error(next_msg(), 10, OF_BFC_BAD_FLAGS),
	    "add with other flags: BAD_FLAGS");
	ctrl(11, 5, OF_BCT_CLOSE_REQUEST, BF);
	drain();
	add_flow(5, 12, OF_FC_ADD, 0, 1, 1, 1);
	CHECK(is_bundle_error(next_msg(), 12, OF_BFC_BUNDLE_CLOSED),
	    "add after close: BUNDLE_CLOSED");
	ctrl(13, 5, OF_BCT_COMMIT_REQUEST, OF_BF_ORDERED);
	CHECK(is_bundle_error(next_msg(), 13, OF_BFC_BAD_FLAGS) &&
	    of_bundles_open(&SW) == 0, "commit with other flags: BAD_FLAGS, "
	    "bundle gone");
	ctrl(14, 6, OF_BCT_OPEN_REQUEST, BF);
	ctrl(15, 6, OF_BCT_DISCARD_REQUEST, BF);
	CHECK(is_reply(next_msg(), 14, OF_BCT_OPEN_REPLY) &&
	    is_reply(next_msg(), 15, OF_BCT_DISCARD_REPLY) &&
	    of_bundles_open(&SW) == 0, "DISCARD_REPLY");
	CHECK(counter(&S.c.bundles_discarded) == 1, "bundles_discarded");
}

/* A peer opening bundles until the bound, filling one past its
 * messages, leaving them open (timeout) or hanging up. */
static void
test_hostile(void)
{
	int	i;

	setup();
	ctrl(1, 1, OF_BCT_OPEN_REQUEST, BF);
	ctrl(2, 2, OF_BCT_OPEN_REQUEST, BF);
	drain();
	ctrl(3, 3, OF_BCT_OPEN_REQUEST, BF);
	CHECK(is_bundle_error(next_msg(), 3, OF_BFC_OUT_OF_BUNDLES),
	    "the third: OUT_OF_BUNDLES");
	add_flow(3, 4, OF_FC_ADD, 0, 1, 1, 1);
	CHECK(is_bundle_error(next_msg(), 4, OF_BFC_OUT_OF_BUNDLES),
	    "an add opening a third: OUT_OF_BUNDLES");
	for (i = 0; i < 8; i++)
		add_flow(1, 10 + i, OF_FC_ADD, 0, 1, i, 1);
	CHECK(next_msg() == 0, "8 messages taken");
	add_flow(1, 20, OF_FC_ADD, 0, 1, 9, 1);
	CHECK(is_bundle_error(next_msg(), 20, OF_BFC_MSG_TOO_MANY),
	    "the 9th: MSG_TOO_MANY");
	CHECK(counter(&S.c.bundle_limit_refused) == 3, "bundle_limit_refused");
	of_bundles_sweep(&S, clock_ns() + 5000000000ull);
	CHECK(of_bundles_open(&SW) == 2 && next_msg() == 0,
	    "5 s idle: kept");
	of_bundles_sweep(&S, clock_ns() + 11000000000ull);
	CHECK(of_bundles_open(&SW) == 0, "10 s idle: discarded");
	CHECK(is_bundle_error(next_msg(), 2, OF_BFC_TIMEOUT) ||
	    is_bundle_error(next_msg(), 2, OF_BFC_TIMEOUT), "TIMEOUT");
	CHECK(counter(&S.c.bundles_timed_out) == 2, "bundles_timed_out");
	ctrl(30, 1, OF_BCT_OPEN_REQUEST, BF);
	of_bundles_drop(&SW);
	CHECK(of_bundles_open(&SW) == 0 &&
	    counter(&S.c.bundles_discarded) == 1, "dropped with the connection");
	CHECK(of_flowtable_total(SW.ft) == 0, "nothing applied");
}

/* The 1.4 entry points (the lead wires types 33 and 34 to them): the
 * body follows the ofp_header, replies are type 33, errors type 17. */
static void
test_v14(void)
{
	uint8_t			m[16] = { 5, 33, 0, 16, 0, 0, 0, 3,
		0, 0, 0, 8, 0, OF_BCT_OPEN_REQUEST, 0, BF };
	struct of_header	h = { 5, 33, 16, 3 };
	struct of_ctx		c = { &SW, &h, NULL, m };
	struct rbuf		body;
	size_t			len;

	setup();
	SW.version = 5;
	rbuf_init(&body, m + 8, 8);
	of_on_bundle_control(&c, &body);
	len = next_msg();
	CHECK(len == 16 && BUF[0] == 5 && BUF[1] == 33 &&
	    u32_at(BUF + 4) == 3 && u32_at(BUF + 8) == 8 &&
	    u16_at(BUF + 12) == OF_BCT_OPEN_REPLY, "1.4 OPEN_REPLY");
	m[13] = OF_BCT_CLOSE_REQUEST;
	m[11] = 9;
	rbuf_init(&body, m + 8, 8);
	of_on_bundle_control(&c, &body);
	len = next_msg();
	CHECK(len == 12 + 16 && BUF[1] == 1 && u16_at(BUF + 8) == 17 &&
	    u16_at(BUF + 10) == OF_BFC_BAD_ID, "1.4 BUNDLE_FAILED/BAD_ID");
	CHECK(of_bundles_open(&SW) == 1, "bundle 8 open");
}

static const struct check_case cases[] = {
	CASE(test_codec),
	CASE(test_rollback),
	CASE(test_rollback_groups_ports),
	CASE(test_commit),
	CASE(test_errors),
	CASE(test_hostile),
	CASE(test_v14),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
