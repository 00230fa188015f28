/*
 * Unit tests of the embedded controller's OpenFlow session (of_ctl.c),
 * driven through of_ctl_attach() over a socketpair: the test is the
 * switch, writing real messages built with the codec and reading what the
 * controller answers.  HELLO and version negotiation (1.3 section 6.3.1),
 * FEATURES, ECHO, programming in batches closed by barriers (strict and
 * delete-all, 1.3 and 1.0), a bad length, a malformed FEATURES_REPLY, an
 * ERROR from the switch, messages in the wrong state, a switch that
 * goes away mid-handshake, and a cluster member's roles (--role).
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <event2/event.h>

#include "engine.h"
#include "log.h"
#include "of_cluster.h"
#include "of_codec.h"
#include "of_ctl.h"

#include "check.h"

#define ROUNDS		200	/* loop rounds to wait for an answer */
#define V13		OF_VERSION_13
#define V10		OF_VERSION_10
#define BITMAP_BOTH	((1u << V13) | (1u << V10))
#define DPID		0x00000000000000a1ull

/* The switch's end of the pair and what it has read, unparsed. */
struct sw {
	int		fd;
	int		eof;
	uint8_t		in[1 << 17];
	size_t		in_len;
};

/* The last message taken off the stream. */
struct msg {
	struct of_header	h;
	enum of_type		t;
	uint8_t			buf[OF_MAX_MSG];
	struct rbuf		body;
};

static uint8_t		out_mem[OF_MAX_MSG];
static struct wbuf	out;

static struct wbuf *
obuf(void)
{
	wbuf_init(&out, out_mem, sizeof(out_mem));
	return &out;
}

static void
pump(void)
{
	event_base_loop(engine_base(), EVLOOP_NONBLOCK);
}

/* Everything the controller wrote so far; eof once it closed. */
static void
sw_fill(struct sw *s)
{
	ssize_t	n;

	while (!s->eof && s->in_len < sizeof(s->in)) {
		n = read(s->fd, s->in + s->in_len, sizeof(s->in) - s->in_len);
		if (n > 0)
			s->in_len += (size_t)n;
		else if (n == 0)
			s->eof = 1;
		else
			break;
	}
}

static int
sw_have_msg(const struct sw *s)
{
	return s->in_len >= OF_HEADER_LEN &&
	    s->in_len >= of_header_length(s->in);
}

/* Loop rounds until a whole message is there or the controller closed:
 * 1 with the message taken into m, 0 after ROUNDS without one. */
static int
sw_recv(struct sw *s, struct msg *m)
{
	size_t	len;
	int	i;

	for (i = 0; i < ROUNDS && !sw_have_msg(s) && !s->eof; i++) {
		pump();
		sw_fill(s);
	}
	if (!sw_have_msg(s))
		return 0;
	of_header_read(s->in, &m->h);
	len = m->h.length < OF_HEADER_LEN ? OF_HEADER_LEN : m->h.length;
	memcpy(m->buf, s->in, len);
	memmove(s->in, s->in + len, s->in_len - len);
	s->in_len -= len;
	m->t = of_type_from_wire(m->h.version, m->h.type);
	rbuf_init(&m->body, m->buf + OF_HEADER_LEN, len - OF_HEADER_LEN);
	return 1;
}

/* A few rounds more: nothing further came (and no close). */
static int
sw_quiet(struct sw *s)
{
	int	i;

	for (i = 0; i < 20; i++) {
		pump();
		sw_fill(s);
	}
	return s->in_len == 0 && !s->eof;
}

/* Rounds until the controller closed its end (EOF here). */
static int
sw_closed(struct sw *s)
{
	int	i;

	for (i = 0; i < ROUNDS && !s->eof; i++) {
		pump();
		s->in_len = 0;
		sw_fill(s);
	}
	return s->eof;
}

static void
sw_send(struct sw *s, const struct wbuf *w)
{
	if (w->err || write(s->fd, w->data, w->len) != (ssize_t)w->len)
		fatalx("sw_send");
	pump();
}

static void
sw_new(struct sw *s)
{
	int	sv[2];

	memset(s, 0, sizeof(*s));
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		fatalx("socketpair");
	if (fcntl(sv[1], F_SETFL, O_NONBLOCK) == -1)
		fatalx("fcntl");
	s->fd = sv[1];
	if (of_ctl_attach(sv[0]) == -1)
		fatalx("of_ctl_attach");
}

static void
sw_free(struct sw *s)
{
	close(s->fd);
	s->fd = -1;
	pump();
}

/* The controller on a loopback listener of the kernel's choosing (the
 * tests reach it through of_ctl_attach only). */
static void
ctl_start(const struct of_ctl_config *c)
{
	struct of_ctl_config	 cc = *c;
	struct sockaddr_in	*sin = (struct sockaddr_in *)&cc.listen.ss;
	char			 err[256];

	memset(&cc.listen, 0, sizeof(cc.listen));
	cc.listen.kind = EP_PTCP;
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	cc.listen.sslen = sizeof(*sin);
	snprintf(cc.listen.text, sizeof(cc.listen.text), "ptcp:0:127.0.0.1");
	if (of_ctl_start(&cc, err, sizeof(err)) == -1)
		fatalx("of_ctl_start: %s", err);
}

static void
ctl_stop(void)
{
	of_ctl_stop();
	pump();
}

static int
count_fn(const struct of_ctl_switch *sw, void *arg)
{
	(void)sw;
	(*(int *)arg)++;
	return 0;
}

static int
ctl_switches(void)
{
	int	n = 0;

	of_ctl_switches(count_fn, &n);
	return n;
}

/* The controller's HELLO: its highest version and its bitmap. */
static int
expect_hello(struct sw *s, uint8_t *version, uint32_t *bitmap)
{
	struct msg	m;

	if (!sw_recv(s, &m) || m.t != OF_HELLO ||
	    of_hello_decode(&m.body, bitmap) == -1)
		return 0;
	*version = m.h.version;
	return 1;
}

static int
expect_type(struct sw *s, struct msg *m, uint8_t version, enum of_type t)
{
	if (!sw_recv(s, m)) {
		printf("# no message (eof %d), wanted %s\n", s->eof,
		    of_type_name(t));
		return 0;
	}
	if (m->h.version != version || m->t != t) {
		printf("# got %s v%u, wanted %s v%u\n", of_type_name(m->t),
		    m->h.version, of_type_name(t), version);
		return 0;
	}
	return 1;
}

static void
send_hello(struct sw *s, uint8_t version, uint32_t bitmap)
{
	of_hello_encode(obuf(), version, 1, bitmap);
	sw_send(s, &out);
}

static void
send_features(struct sw *s, uint8_t version, uint32_t xid, uint64_t dpid,
    size_t nports)
{
	struct of_features	f;
	struct of_port		ports[4];
	size_t			i;

	memset(&f, 0, sizeof(f));
	memset(ports, 0, sizeof(ports));
	f.datapath_id = dpid;
	f.n_tables = 1;
	for (i = 0; i < nports; i++) {
		ports[i].port_no = (uint32_t)i + 1;
		snprintf(ports[i].name, sizeof(ports[i].name), "p%zu", i + 1);
	}
	of_features_reply_encode(obuf(), version, xid, &f, ports, nports);
	sw_send(s, &out);
}

/* HELLO both ways and FEATURES: 1 once SET_CONFIG came (READY). */
static int
handshake(struct sw *s, uint8_t version, uint64_t dpid)
{
	struct msg	m;
	uint32_t	bitmap;
	uint8_t		v;

	if (!expect_hello(s, &v, &bitmap))
		return 0;
	send_hello(s, version, version == V13 ? 1u << V13 : 0);
	if (!expect_type(s, &m, version, OF_FEATURES_REQUEST))
		return 0;
	send_features(s, version, m.h.xid, dpid, version == V10 ? 2 : 0);
	return expect_type(s, &m, version, OF_SET_CONFIG);
}

static void
test_handshake_13(void)
{
	struct of_ctl_config	c;
	struct of_ctl_switch	info;
	struct sw		s;
	struct msg		m;
	uint32_t		bitmap = 0;
	uint8_t			v = 0;

	of_ctl_config_defaults(&c);
	ctl_start(&c);
	sw_new(&s);
	CHECK(expect_hello(&s, &v, &bitmap) && v == V13 &&
	    bitmap == BITMAP_BOTH,
	    "HELLO first: version %u, bitmap %#x (1.3 and 1.0)", v, bitmap);
	CHECK(sw_quiet(&s), "then nothing until the switch's HELLO");
	send_hello(&s, V13, (1u << V13) | (1u << V10) | (1u << 5));
	CHECK(expect_type(&s, &m, V13, OF_FEATURES_REQUEST),
	    "HELLO 1.3 with bitmap {1.0,1.3,0x05}: FEATURES_REQUEST in 1.3");
	CHECK(ctl_switches() == 0 && of_ctl_stats()->switches == 0,
	    "not a switch yet before FEATURES_REPLY");
	send_features(&s, V13, m.h.xid, DPID, 0);
	CHECK(expect_type(&s, &m, V13, OF_SET_CONFIG),
	    "FEATURES_REPLY: SET_CONFIG");
	CHECK(of_ctl_switch_find(DPID, &info) == 0 && info.version == V13 &&
	    info.active_flows == 0 && ctl_switches() == 1,
	    "READY: the switch is known by its dpid, version 1.3");
	CHECK(of_ctl_stats()->switches == 1 &&
	    of_ctl_stats()->switches_now == 1, "stats: 1 switch, 1 now");
	CHECK(sw_quiet(&s), "flows_per_switch 0: nothing is programmed");

	of_echo_encode(obuf(), V13, OF_ECHO_REQUEST, 0x1234, "ping", 4);
	sw_send(&s, &out);
	CHECK(expect_type(&s, &m, V13, OF_ECHO_REPLY) && m.h.xid == 0x1234 &&
	    rbuf_left(&m.body) == 4 &&
	    memcmp(rbuf_ptr(&m.body), "ping", 4) == 0,
	    "ECHO_REQUEST: ECHO_REPLY, same xid and data");
	sw_free(&s);
	ctl_stop();
}

static void
test_handshake_10(void)
{
	struct of_ctl_config	c;
	struct of_ctl_switch	info;
	struct sw		s;
	struct msg		m;
	uint32_t		bitmap;
	uint8_t			v;

	of_ctl_config_defaults(&c);
	ctl_start(&c);
	sw_new(&s);
	expect_hello(&s, &v, &bitmap);
	send_hello(&s, V10, 0);
	CHECK(expect_type(&s, &m, V10, OF_FEATURES_REQUEST),
	    "HELLO 1.0 without bitmap: FEATURES_REQUEST in 1.0");
	send_features(&s, V10, m.h.xid, DPID, 2);
	CHECK(expect_type(&s, &m, V10, OF_SET_CONFIG),
	    "FEATURES_REPLY: SET_CONFIG in 1.0");
	CHECK(of_ctl_switch_find(DPID, &info) == 0 && info.version == V10 &&
	    info.nports == 2, "1.0: version %u, %u ports from FEATURES_REPLY",
	    info.version, info.nports);
	of_echo_encode(obuf(), V10, OF_ECHO_REQUEST, 9, NULL, 0);
	sw_send(&s, &out);
	CHECK(expect_type(&s, &m, V10, OF_ECHO_REPLY) && m.h.xid == 9 &&
	    rbuf_left(&m.body) == 0, "1.0 ECHO_REQUEST: ECHO_REPLY");
	sw_free(&s);

	/* A 1.3 header whose bitmap offers 1.0 only: 1.0 (the bitmap
	 * rules, section 6.3.1). */
	sw_new(&s);
	expect_hello(&s, &v, &bitmap);
	send_hello(&s, V13, 1u << V10);
	CHECK(expect_type(&s, &m, V10, OF_FEATURES_REQUEST),
	    "HELLO 1.3 with bitmap {1.0}: 1.0 is chosen");
	sw_free(&s);
	ctl_stop();
}

/* An ERROR HELLO_FAILED/INCOMPATIBLE in version v; 1 if it came. */
static int
expect_hello_failed(struct sw *s, uint8_t v)
{
	struct msg	m;
	uint16_t	type, code;

	return expect_type(s, &m, v, OF_ERROR) &&
	    of_error_decode(&m.body, &type, &code) == 0 &&
	    type == 0 && code == 0;	/* OFPET_HELLO_FAILED, INCOMPATIBLE */
}

static void
test_hello_incompatible(void)
{
	struct of_ctl_config	c;
	struct sw		s;
	uint32_t		bitmap = 0;
	uint8_t			v = 0;

	of_ctl_config_defaults(&c);
	c.version_bitmap = 1u << V13;
	ctl_start(&c);
	sw_new(&s);
	CHECK(expect_hello(&s, &v, &bitmap) && v == V13 &&
	    bitmap == 1u << V13, "1.3 only: HELLO 1.3, bitmap {1.3}");
	send_hello(&s, V10, 0);
	CHECK(expect_hello_failed(&s, V13),
	    "HELLO 1.0 to a 1.3-only controller: HELLO_FAILED INCOMPATIBLE");
	CHECK(of_ctl_stats()->bad_messages == 1 && ctl_switches() == 0,
	    "counted as a bad message; no switch");
	CHECK(sw_closed(&s), "and the controller closes (section 6.3.1)");
	sw_free(&s);

	sw_new(&s);
	expect_hello(&s, &v, &bitmap);
	send_hello(&s, V13, 1u << V10);
	CHECK(expect_hello_failed(&s, V13),
	    "a bitmap with no common version: HELLO_FAILED");
	CHECK(of_ctl_stats()->bad_messages == 2 && sw_closed(&s),
	    "counted (%llu) and closed",
	    (unsigned long long)of_ctl_stats()->bad_messages);
	sw_free(&s);
	ctl_stop();
}

/* Messages before HELLO are not answered; a malformed FEATURES_REPLY is
 * counted and the handshake still completes. */
static void
test_wrong_state(void)
{
	struct of_ctl_config	c;
	struct of_ctl_switch	info;
	struct sw		s;
	struct msg		m;
	uint32_t		bitmap;
	uint8_t			v;

	of_ctl_config_defaults(&c);
	ctl_start(&c);
	sw_new(&s);
	expect_hello(&s, &v, &bitmap);
	of_echo_encode(obuf(), V13, OF_ECHO_REQUEST, 5, NULL, 0);
	sw_send(&s, &out);
	send_features(&s, V13, 1, DPID, 0);
	CHECK(sw_quiet(&s) && ctl_switches() == 0 &&
	    of_ctl_stats()->switches == 0,
	    "ECHO_REQUEST and FEATURES_REPLY before HELLO: ignored");
	send_hello(&s, V13, 1u << V13);
	CHECK(expect_type(&s, &m, V13, OF_FEATURES_REQUEST),
	    "HELLO after them: FEATURES_REQUEST");

	/* A FEATURES_REPLY of 12 bytes (1.3's is 32). */
	of_msg_begin(obuf(), V13, OF_FEATURES_REPLY, m.h.xid);
	wbuf_put_u32(&out, 0);
	of_msg_end(&out, 0);
	sw_send(&s, &out);
	CHECK(sw_quiet(&s) && of_ctl_stats()->bad_messages == 1 &&
	    of_ctl_stats()->switches == 0,
	    "a short FEATURES_REPLY: counted, no answer, not READY");
	send_features(&s, V13, m.h.xid, DPID, 0);
	CHECK(expect_type(&s, &m, V13, OF_SET_CONFIG) &&
	    of_ctl_stats()->switches == 1,
	    "a good FEATURES_REPLY after it: READY");

	/* A second FEATURES_REPLY once READY: no second switch. */
	send_features(&s, V13, 77, DPID, 0);
	CHECK(sw_quiet(&s) && of_ctl_stats()->switches == 1 &&
	    ctl_switches() == 1, "a FEATURES_REPLY when READY: ignored");
	/* One with another dpid: the switch keeps its own (the dpid
	 * table and the list of switches must agree). */
	send_features(&s, V13, 78, DPID + 1, 0);
	CHECK(of_ctl_switch_find(DPID, &info) == 0 &&
	    of_ctl_switch_find(DPID + 1, &info) == -1 &&
	    of_ctl_barrier(DPID) == 0 && of_ctl_barrier(DPID + 1) == -1,
	    "a FEATURES_REPLY with another dpid when READY: dpid kept");
	sw_free(&s);
	ctl_stop();
}

static void
test_error_counted(void)
{
	struct of_ctl_config	c;
	struct sw		s;
	struct msg		m;

	of_ctl_config_defaults(&c);
	ctl_start(&c);
	sw_new(&s);
	CHECK(handshake(&s, V13, DPID), "handshake 1.3");
	of_error_encode(obuf(), V13, 3, OF_ERR_FLOW_TABLE_FULL, "x", 1);
	sw_send(&s, &out);
	CHECK(sw_quiet(&s) && of_ctl_stats()->errors_received == 1,
	    "ERROR from the switch: counted, not answered");
	of_echo_encode(obuf(), V13, OF_ECHO_REQUEST, 4, NULL, 0);
	sw_send(&s, &out);
	CHECK(expect_type(&s, &m, V13, OF_ECHO_REPLY) && ctl_switches() == 1,
	    "the session goes on");
	sw_free(&s);
	ctl_stop();
}

static void
test_bad_length(void)
{
	struct of_ctl_config	c;
	struct sw		s;
	uint8_t			bad[8] = { V13, 2, 0, 4, 0, 0, 0, 1 };
	uint32_t		bitmap;
	uint8_t			v;

	of_ctl_config_defaults(&c);
	ctl_start(&c);
	sw_new(&s);
	CHECK(handshake(&s, V13, DPID), "handshake 1.3");
	if (write(s.fd, bad, sizeof(bad)) != sizeof(bad))
		fatalx("write");
	CHECK(sw_closed(&s), "a header of length 4: the controller closes");
	CHECK(ctl_switches() == 0 && of_ctl_stats()->switches_now == 0 &&
	    of_ctl_switch_find(DPID, NULL) == -1,
	    "the switch is gone: switches_now %llu",
	    (unsigned long long)of_ctl_stats()->switches_now);
	sw_free(&s);

	/* The same before HELLO. */
	sw_new(&s);
	expect_hello(&s, &v, &bitmap);
	bad[3] = 0;
	if (write(s.fd, bad, sizeof(bad)) != sizeof(bad))
		fatalx("write");
	CHECK(sw_closed(&s), "length 0 before HELLO: closed too");
	sw_free(&s);
	ctl_stop();
}

/* The switch goes in FEATURES (after the HELLOs) and in PROGRAM. */
static void
test_close_midway(void)
{
	struct of_ctl_config	c;
	struct sw		s;
	struct msg		m;
	uint32_t		bitmap;
	uint8_t			v;

	of_ctl_config_defaults(&c);
	c.expect_switches = 1;
	c.flows_per_switch = 4;
	c.batch = 2;
	c.window = 1;
	ctl_start(&c);
	sw_new(&s);
	expect_hello(&s, &v, &bitmap);
	send_hello(&s, V13, 1u << V13);
	expect_type(&s, &m, V13, OF_FEATURES_REQUEST);
	sw_free(&s);
	CHECK(ctl_switches() == 0 && of_ctl_stats()->switches == 0 &&
	    of_ctl_stats()->switches_now == 0,
	    "closed after HELLO: no switch counted");

	sw_new(&s);
	CHECK(handshake(&s, V13, DPID), "another switch: handshake");
	CHECK(expect_type(&s, &m, V13, OF_FLOW_MOD),
	    "it is programmed (expect_switches 1)");
	CHECK(of_ctl_stats()->switches_now == 1, "1 switch now");
	sw_free(&s);
	CHECK(ctl_switches() == 0 && of_ctl_stats()->switches_now == 0 &&
	    of_ctl_stats()->switches_programmed == 0 && !of_ctl_finished(),
	    "closed while programming: gone, not programmed, not finished");
	ctl_stop();
}

/*
 * The switch's side of programming, as a trace: A add, S delete strict,
 * D delete (non-strict), B barrier request, '|' a BARRIER_REPLY sent.  It
 * reads everything that comes; only when nothing more comes does it ack
 * the oldest open barrier, so the controller's window shows in the
 * trace.  Until the round is finished, or ROUNDS turns.
 */
struct prog {
	char		trace[256];
	size_t		len;
	uint32_t	open[64];	/* unacked barrier xids, oldest first */
	uint32_t	nopen, max_open;
	uint64_t	next_add, next_del;	/* cookies, from 1 */
	int		bad;		/* a FLOW_MOD that is not the next */
};

static void
prog_note(struct prog *p, char ch)
{
	if (p->len + 1 < sizeof(p->trace))
		p->trace[p->len++] = ch;
	p->trace[p->len] = '\0';
}

static void
prog_flow_mod(struct prog *p, uint8_t v, struct msg *m)
{
	struct of_flow_mod	fm;
	enum of_err		err;

	if (of_flow_mod_decode(v, &m->body, &fm, &err) == -1) {
		p->bad++;
		prog_note(p, '?');
		return;
	}
	switch (fm.command) {
	case OF_FC_ADD:
	case OF_FC_DELETE_STRICT:
		/* Flows 1..n by cookie, then deleted in the same order. */
		if (fm.cookie != (fm.command == OF_FC_ADD ? p->next_add++ :
		    p->next_del++) || fm.priority != 100 ||
		    fm.table_id != 0 ||
		    (fm.command == OF_FC_ADD) != (fm.prog_len > 0))
			p->bad++;
		prog_note(p, fm.command == OF_FC_ADD ? 'A' : 'S');
		break;
	case OF_FC_DELETE:
		if ((v == V13 && fm.table_id != OF_TABLE_ALL) ||
		    fm.match.len != 0)
			p->bad++;
		prog_note(p, 'D');
		break;
	default:
		p->bad++;
		prog_note(p, '?');
	}
}

static void
run_program(struct sw *s, uint8_t v, struct prog *p)
{
	struct msg	m;
	int		i, got;

	memset(p, 0, sizeof(*p));
	p->next_add = p->next_del = 1;
	for (i = 0; i < ROUNDS && !of_ctl_finished() && !s->eof; i++) {
		(void)sw_quiet(s);	/* a few rounds: all that comes */
		for (got = 0; sw_have_msg(s); got++) {
			sw_recv(s, &m);
			if (m.h.version != v)
				p->bad++;
			if (m.t == OF_FLOW_MOD)
				prog_flow_mod(p, v, &m);
			else if (m.t == OF_BARRIER_REQUEST &&
			    p->nopen < 64) {
				prog_note(p, 'B');
				p->open[p->nopen++] = m.h.xid;
				if (p->nopen > p->max_open)
					p->max_open = p->nopen;
			} else
				prog_note(p, '?');
		}
		if (got > 0 || p->nopen == 0)
			continue;
		of_simple_encode(obuf(), v, OF_BARRIER_REPLY, p->open[0]);
		memmove(p->open, p->open + 1, --p->nopen * sizeof(p->open[0]));
		prog_note(p, '|');
		sw_send(s, &out);
	}
}

struct prog_case {
	uint8_t			version;
	uint32_t		flows, batch, window;
	enum of_ctl_delete	del;
	const char		*trace;
};

static void
program_case(const struct prog_case *pc)
{
	static const char	*dels[] = { "none", "strict", "all" };
	struct of_ctl_config	 c;
	struct of_ctl_switch	 info;
	const struct of_ctl_stats *st = of_ctl_stats();
	struct prog		 p;
	struct sw		 s;
	uint32_t		 fm, barriers;

	of_ctl_config_defaults(&c);
	c.expect_switches = 1;
	c.flows_per_switch = pc->flows;
	c.batch = pc->batch;
	c.window = pc->window;
	c.delete_mode = pc->del;
	ctl_start(&c);
	sw_new(&s);
	CHECK(handshake(&s, pc->version, DPID), "%s, delete %s: handshake",
	    pc->version == V13 ? "1.3" : "1.0", dels[pc->del]);
	run_program(&s, pc->version, &p);
	CHECK(strcmp(p.trace, pc->trace) == 0 && p.bad == 0,
	    "flows %u, batch %u, window %u: trace %s (want %s), bad %d",
	    pc->flows, pc->batch, pc->window, p.trace, pc->trace, p.bad);
	CHECK(p.max_open <= pc->window && p.nopen == 0,
	    "at most %u barriers open: %u", pc->window, p.max_open);
	fm = pc->flows + (pc->del == OF_CTL_DELETE_STRICT ? pc->flows :
	    pc->del == OF_CTL_DELETE_ALL ? 1 : 0);
	barriers = (uint32_t)(strchr(p.trace, '\0') - p.trace) - fm;
	barriers /= 2;		/* each B has its | */
	CHECK(of_ctl_finished() && st->rounds == 1 &&
	    st->switches_programmed == 1 && st->switches_deleted ==
	    (pc->del != OF_CTL_DELETE_NONE ? 1u : 0u),
	    "finished: 1 round, programmed, deleted %llu",
	    (unsigned long long)st->switches_deleted);
	CHECK(st->flow_mods_sent == fm && st->barriers_acked == barriers,
	    "stats: %llu FLOW_MODs (want %u), %llu barriers acked (want %u)",
	    (unsigned long long)st->flow_mods_sent, fm,
	    (unsigned long long)st->barriers_acked, barriers);
	CHECK(of_ctl_switch_find(DPID, &info) == 0 && info.active_flows ==
	    (pc->del == OF_CTL_DELETE_NONE ? pc->flows : 0),
	    "active flows: %llu", (unsigned long long)info.active_flows);
	CHECK(sw_quiet(&s), "then nothing more");
	sw_free(&s);
	ctl_stop();
}

static void
test_program(void)
{
	static const struct prog_case	pcs[] = {
		{ V13, 5, 2, 2, OF_CTL_DELETE_NONE, "AABAAB|AB||" },
		{ V13, 5, 2, 2, OF_CTL_DELETE_STRICT,
		    "AABAAB|AB||SSBSSB|SB||" },
		{ V13, 3, 2, 1, OF_CTL_DELETE_ALL, "AAB|AB|DB|" },
		{ V10, 3, 2, 1, OF_CTL_DELETE_STRICT, "AAB|AB|SSB|SB|" },
		{ V10, 4, 4, 4, OF_CTL_DELETE_ALL, "AAAAB|DB|" },
	};
	size_t				i;

	for (i = 0; i < sizeof(pcs) / sizeof(pcs[0]); i++)
		program_case(&pcs[i]);
}

/*
 * The northbound reaches a switch by its dpid: among many switches, and
 * when two connections carry one dpid (a switch back before its old
 * connection went), the newest until it goes.
 */
#define NSW	40
static void
test_by_dpid(void)
{
	struct of_ctl_config	 c;
	struct sw		*s = calloc(NSW, sizeof(*s));
	struct msg		 m;
	int			 i, ok = 1;

	if (s == NULL)
		fatalx("calloc");
	of_ctl_config_defaults(&c);
	ctl_start(&c);
	for (i = 0; i < NSW; i++) {
		sw_new(&s[i]);
		ok &= handshake(&s[i], V13, i == 0 ? DPID : DPID + i - 1);
	}
	CHECK(ok && ctl_switches() == NSW, "%d switches, two on one dpid",
	    NSW);
	for (i = 2; i < NSW; i++)
		ok &= of_ctl_barrier(DPID + i - 1) == 0 &&
		    expect_type(&s[i], &m, V13, OF_BARRIER_REQUEST);
	CHECK(ok, "each other dpid reaches its own switch");
	CHECK(of_ctl_barrier(DPID) == 0 &&
	    expect_type(&s[1], &m, V13, OF_BARRIER_REQUEST) &&
	    sw_quiet(&s[0]), "the shared dpid reaches the newer connection");
	sw_free(&s[1]);
	CHECK(of_ctl_barrier(DPID) == 0 &&
	    expect_type(&s[0], &m, V13, OF_BARRIER_REQUEST),
	    "that one gone: the older");
	sw_free(&s[0]);
	CHECK(of_ctl_barrier(DPID) == -1 && of_ctl_barrier(DPID + 1) == 0,
	    "both gone: the dpid is unknown, the others still known");
	for (i = 2; i < NSW; i++)
		sw_free(&s[i]);
	ctl_stop();
	CHECK(of_ctl_barrier(DPID + 1) == -1, "stopped: no dpid is known");
	free(s);
}

/* A ROLE_REQUEST came with this role and generation id. */
static int
expect_role(struct sw *s, uint32_t role, uint64_t gen)
{
	struct msg	m;
	enum of_err	err;
	uint32_t	r;
	uint64_t	g;

	if (!expect_type(s, &m, V13, OF_ROLE_REQUEST) ||
	    of_role_decode(&m.body, &r, &g, &err) == -1)
		return 0;
	if (r != role || g != gen)
		printf("# ROLE_REQUEST role %u gen %llu\n", r,
		    (unsigned long long)g);
	return r == role && g == gen;
}

/*
 * A cluster member (--role slave, 1.3.5 section 6.3.6): ROLE_REQUEST right
 * after the handshake and no flows; made master (of_ctl_set_role) it
 * claims one past the generation a ROLE_REPLY showed, then programs.
 * ROLE_STATUS and a stale refusal are counted.
 */
static void
test_cluster_member(void)
{
	struct of_ctl_config		 c;
	const struct of_ctl_stats	*st = of_ctl_stats();
	struct sw			 s;
	struct msg			 m;
	uint64_t			 used = 0, gen;

	of_ctl_config_defaults(&c);
	c.flows_per_switch = 3;
	c.role = OF_ROLE_SLAVE;
	ctl_start(&c);
	sw_new(&s);
	CHECK(handshake(&s, V13, DPID) && expect_role(&s, OF_ROLE_SLAVE, 1),
	    "slave: ROLE_REQUEST slave, generation 1, after SET_CONFIG");
	CHECK(sw_quiet(&s), "a slave pushes no flows");
	of_role_encode(obuf(), V13, OF_ROLE_REPLY, 9, OF_ROLE_SLAVE, 7);
	sw_send(&s, &out);
	CHECK(st->role_replies == 1, "ROLE_REPLY counted");
	CHECK(of_ctl_set_role(OF_ROLE_MASTER, 0, &used) == 1 && used == 8 &&
	    expect_role(&s, OF_ROLE_MASTER, 8),
	    "made master: ROLE_REQUEST master, generation 7 + 1");
	CHECK(expect_type(&s, &m, V13, OF_FLOW_MOD), "then its flows");
	CHECK(of_ctl_cluster_role(&gen) == OF_ROLE_MASTER && gen == 8,
	    "the member's role and generation");
	of_role_status_encode(obuf(), V13, OF_ROLE_SLAVE, OF_CRR_MASTER_REQUEST,
	    9);
	sw_send(&s, &out);
	of_error_encode(obuf(), V13, 9, OF_ERR_ROLE_STALE, NULL, 0);
	sw_send(&s, &out);
	of_error_encode(obuf(), V13, 9, OF_ERR_IS_SLAVE, NULL, 0);
	sw_send(&s, &out);
	CHECK(st->role_status == 1 && st->role_refused == 1 &&
	    st->is_slave_errors == 1 && st->errors_received == 2,
	    "ROLE_STATUS, STALE and IS_SLAVE counted");
	CHECK(of_ctl_set_role(OF_ROLE_MASTER, 0, &used) == 1 && used == 10,
	    "next claim: past the ROLE_STATUS's generation 9");
	sw_free(&s);
	ctl_stop();
}

static const struct check_case cases[] = {
	CASE(test_handshake_13),
	CASE(test_handshake_10),
	CASE(test_hello_incompatible),
	CASE(test_wrong_state),
	CASE(test_error_counted),
	CASE(test_bad_length),
	CASE(test_close_midway),
	CASE(test_program),
	CASE(test_by_dpid),
	CASE(test_cluster_member),
};

int
main(int argc, char **argv)
{
	int	rc;

	log_init("test_of_ctl", LOG_QUIET);
	engine_init();
	rc = check_run(cases, argc, argv);
	engine_free();
	return rc;
}
