/*
 * The embedded controller's stateful PCE (sims/pcep/pcep_ctl.c) driven by
 * a made-up PCC over a socketpair: the PCE end goes to pcep_ctl_attach(), the
 * path its listener takes, with a made-up IPv4 address (PCCs are told
 * apart by address); the test end is plain non-blocking read() and
 * write() of bytes built and parsed with the PCEP codec, with rounds of
 * the event loop in between.  Every wait is a bounded number of rounds.
 *
 * Covered: the Open exchange with the stateful capability (RFC 5440 6.2,
 * RFC 8231 7.1.1) and its negotiation (PCErr 1/4, 1/5), keepalives and
 * the dead timer (RFC 5440 7.3), a PCRpt synchronization to the
 * end-of-sync marker (RFC 8231 5.6), PCUpd and its acknowledgement by the
 * SRP-ID (RFC 8231 6.2, 6.1), update-all, malformed and unexpected
 * messages with their PCErr (RFC 5440 6.7, 7.15; RFC 8231 8.5), a second
 * session from one PCC, and the PCC closing.
 */
#include <sys/socket.h>
#include <netinet/in.h>

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <event2/event.h>

#include "buf.h"
#include "engine.h"
#include "log.h"
#include "pcep_codec.h"
#include "pcep_ctl.h"
#include "pcep_wire.h"

#include "check.h"

#define IP(a, b, c, d)	((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d))
#define PCC_ADDR	IP(127, 1, 0, 1)
#define PCC_NODE	"pcc://127.1.0.1"
#define ROUNDS		16	/* loop rounds for an answer to come */
#define TIMER_ROUNDS	60	/* 100 ms ticks for a timer: 6 s at most */

/* The made-up PCC: its end of the pair and what came from the PCE. */
struct peer {
	int		fd;
	int		eof;
	uint8_t		in[1 << 17];
	size_t		in_len;
	/* the last message taken */
	struct pcep_header h;
	uint8_t		body[PCEP_MAX_MSG];
	size_t		body_len;
};

static struct peer	 pa, pb;
static uint8_t		 out_mem[PCEP_MAX_MSG];
static struct wbuf	 w;

/* What pcep_ctl_update_lsp's callback was told. */
static int		 op_calls, op_status;
static struct pcep_errmsg op_em;

static void
pump(void)
{
	int	i;

	for (i = 0; i < 4; i++)
		event_base_loop(engine_base(), EVLOOP_NONBLOCK);
}

static void
pce_begin(const struct pcep_ctl_config *c)
{
	struct pcep_ctl_config	 cfg = *c;
	struct sockaddr_in	*sin = (struct sockaddr_in *)&cfg.listen.ss;
	char			 err[256];

	/* The listener is not used: any loopback port will do. */
	memset(&cfg.listen, 0, sizeof(cfg.listen));
	cfg.listen.kind = EP_PTCP;
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(IP(127, 0, 0, 1));
	cfg.listen.sslen = sizeof(*sin);
	snprintf(cfg.listen.text, sizeof(cfg.listen.text), "ptcp:0:127.0.0.1");
	if (pcep_ctl_start(&cfg, err, sizeof(err)) == -1)
		fatalx("pcep_ctl_start: %s", err);
}

static void
config(struct pcep_ctl_config *c)
{
	*c = pcep_ctl_config_default;
	c->keepalive = 30;
	c->deadtimer = 120;
}

static void
pce_begin_default(void)
{
	struct pcep_ctl_config	c;

	config(&c);
	pce_begin(&c);
}

/* A PCC at addr connects: the PCE end of a socketpair to pcep_ctl_attach(). */
static void
peer_attach(struct peer *p, uint32_t addr)
{
	struct sockaddr_in	sin;
	int			sv[2];

	memset(p, 0, sizeof(*p));
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == -1)
		fatal("socketpair");
	if (fcntl(sv[0], F_SETFL, O_NONBLOCK) == -1 ||
	    fcntl(sv[1], F_SETFL, O_NONBLOCK) == -1)
		fatal("fcntl");
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(addr);
	pcep_ctl_attach(sv[0], (struct sockaddr *)&sin, sizeof(sin));
	p->fd = sv[1];
}

static void
peer_close(struct peer *p)
{
	if (p->fd != -1)
		close(p->fd);
	p->fd = -1;
}

static void
pce_end(void)
{
	pcep_ctl_stop();
	peer_close(&pa);
	peer_close(&pb);
	pump();
}

static void
peer_fill(struct peer *p)
{
	ssize_t	n;

	while (!p->eof && p->in_len < sizeof(p->in)) {
		n = read(p->fd, p->in + p->in_len, sizeof(p->in) - p->in_len);
		if (n > 0)
			p->in_len += (size_t)n;
		else if (n == 0 || (errno != EAGAIN && errno != EINTR))
			p->eof = 1;
		else
			break;
	}
}

/* Take the next whole message from what came; 1, or 0 when none has. */
static int
peer_take(struct peer *p)
{
	struct rbuf	stream, body;
	struct pcep_err	err;

	rbuf_init(&stream, p->in, p->in_len);
	if (pcep_msg_split(&stream, &p->h, &body, &err) != 1)
		return 0;
	p->body_len = rbuf_left(&body);
	memcpy(p->body, rbuf_ptr(&body), p->body_len);
	memmove(p->in, p->in + stream.off, p->in_len - stream.off);
	p->in_len -= stream.off;
	return 1;
}

/* The next message of the PCE within ROUNDS rounds (timer: in 100 ms
 * ticks, for what a timer sends); its type, or -1 when none came. */
static int
peer_next_in(struct peer *p, int rounds, int timer)
{
	int	i;

	for (i = 0; i < rounds; i++) {
		peer_fill(p);
		if (peer_take(p))
			return p->h.type;
		if (p->eof)
			break;
		if (timer)
			event_base_loop(engine_base(), EVLOOP_ONCE);
		else
			pump();
	}
	peer_fill(p);
	return peer_take(p) ? p->h.type : -1;
}

static int
peer_next(struct peer *p)
{
	return peer_next_in(p, ROUNDS, 0);
}

/* Whether the PCE closed its end (nothing more comes first). */
static int
peer_sees_eof(struct peer *p, int rounds)
{
	int	i;

	for (i = 0; i < rounds && !p->eof; i++) {
		pump();
		peer_fill(p);
		if (p->in_len > 0)
			return 0;
	}
	return p->eof && p->in_len == 0;
}

/* Nothing came within ROUNDS rounds. */
static int
peer_quiet(struct peer *p)
{
	int	i;

	for (i = 0; i < ROUNDS; i++) {
		pump();
		peer_fill(p);
	}
	return p->in_len == 0 && !p->eof;
}

static void
peer_send(struct peer *p, const void *buf, size_t len)
{
	if (write(p->fd, buf, len) != (ssize_t)len)
		fatal("write to the PCE");
	pump();
}

static void
peer_send_w(struct peer *p)
{
	if (w.err)
		fatalx("a test message did not fit");
	peer_send(p, w.data, w.len);
}

static struct wbuf *
wstart(void)
{
	wbuf_init(&w, out_mem, sizeof(out_mem));
	return &w;
}

static void
send_open(struct peer *p, uint8_t ka, uint8_t dead, int stateful,
    uint32_t flags)
{
	struct pcep_open	o;

	memset(&o, 0, sizeof(o));
	o.keepalive = ka;
	o.deadtimer = dead;
	o.sid = 1;
	o.has_stateful = (uint8_t)stateful;
	o.stateful_flags = flags;
	pcep_open_encode(wstart(), &o);
	peer_send_w(p);
}

static void
send_keepalive(struct peer *p)
{
	pcep_keepalive_encode(wstart());
	peer_send_w(p);
}

static void
send_close(struct peer *p, uint8_t reason)
{
	pcep_close_encode(wstart(), reason);
	peer_send_w(p);
}

/* A report of LSP id as the PCC knows it: up, delegated (or not),
 * RSVP-TE identifiers, a path of two hops; srp when not 0. */
static void
rpt_fill(struct pcep_lsp_req *q, uint32_t id, uint16_t flags, uint32_t srp)
{
	memset(q, 0, sizeof(*q));
	if (srp != 0) {
		q->has_srp = 1;
		q->srp.srp_id = srp;
	}
	q->lsp.plsp_id = id;
	q->lsp.flags = flags;
	q->lsp.oper = PCEP_OPER_UP;
	q->lsp.ids.af = 4;
	q->lsp.ids.sender4 = PCC_ADDR;
	q->lsp.ids.ext_id4 = PCC_ADDR;
	q->lsp.ids.endpoint4 = IP(10, 9, 0, (uint8_t)id);
	q->lsp.ids.tunnel_id = (uint16_t)id;
	q->lsp.ids.lsp_id = 1;
	q->lsp.name_len = (uint16_t)snprintf(q->lsp.name, sizeof(q->lsp.name),
	    "lsp-%u", id);
	q->has_ero = 1;
	q->ero.n = 2;
	q->ero.hop[0].kind = PCEP_SUBOBJ_IPV4;
	q->ero.hop[0].addr = IP(10, 0, 0, 2);
	q->ero.hop[0].prefix_len = 32;
	q->ero.hop[1] = q->ero.hop[0];
	q->ero.hop[1].addr = IP(10, 9, 0, (uint8_t)id);
}

static void
send_rpt(struct peer *p, const struct pcep_lsp_req *q, size_t n)
{
	pcep_reqs_encode(wstart(), PCEP_MSG_PCRPT, q, n);
	peer_send_w(p);
}

static void
send_eos(struct peer *p)
{
	pcep_eos_encode(wstart());
	peer_send_w(p);
}

/* The PCE's Open, decoded from the message just taken. */
static int
peer_open(struct peer *p, struct pcep_open *o)
{
	struct rbuf	r;
	struct pcep_err	e;

	rbuf_init(&r, p->body, p->body_len);
	return p->h.type == PCEP_MSG_OPEN ? pcep_open_decode(&r, o, &e) : -1;
}

/* Whether the next message is a PCErr whose first error is t/v. */
static int
peer_pcerr(struct peer *p, uint8_t t, uint8_t v, struct pcep_errmsg *em)
{
	struct rbuf	r;
	struct pcep_err	e;

	memset(em, 0, sizeof(*em));
	if (peer_next(p) != PCEP_MSG_PCERR)
		return 0;
	rbuf_init(&r, p->body, p->body_len);
	if (pcep_ctlrr_decode(&r, em, &e) == -1 || em->n == 0)
		return 0;
	if (em->item[0].type != t || em->item[0].value != v)
		printf("# PCErr %u/%u, not %u/%u\n", em->item[0].type,
		    em->item[0].value, t, v);
	return em->item[0].type == t && em->item[0].value == v;
}

/* The reason of the CLOSE just taken; 0 when it is none. */
static uint8_t
peer_close_reason(struct peer *p)
{
	struct rbuf	r;
	struct pcep_err	e;
	uint8_t		got = 0;

	if (p->h.type != PCEP_MSG_CLOSE)
		return 0;
	rbuf_init(&r, p->body, p->body_len);
	if (pcep_close_decode(&r, &got, &e) == -1)
		return 0;
	return got;
}

/* Whether the next message is a CLOSE with reason. */
static int
peer_closed(struct peer *p, uint8_t reason)
{
	uint8_t	got;

	if (peer_next(p) != PCEP_MSG_CLOSE)
		return 0;
	got = peer_close_reason(p);
	if (got != reason)
		printf("# CLOSE reason %u, not %u\n", got, reason);
	return got == reason;
}

/* The PCUpd just taken: its one request. */
static int
peer_update(struct peer *p, struct pcep_lsp_req *q)
{
	struct pcep_req_iter	it;
	struct pcep_err		e;
	struct rbuf		r;

	if (p->h.type != PCEP_MSG_PCUPD)
		return -1;
	rbuf_init(&r, p->body, p->body_len);
	pcep_req_iter_init(&it, PCEP_MSG_PCUPD, &r);
	return pcep_req_next(&it, q, &e) == 1 ? 0 : -1;
}

/* Open both ways, keepalives both ways: the session with PCC_ADDR up,
 * with the stateful flags given. */
static struct pcep_ctl_sess *
peer_up(struct peer *p, uint32_t flags)
{
	peer_attach(p, PCC_ADDR);
	if (peer_next(p) != PCEP_MSG_OPEN)
		return NULL;
	send_open(p, 30, 120, flags != 0, flags);
	if (peer_next(p) != PCEP_MSG_KEEPALIVE)
		return NULL;
	send_keepalive(p);
	return pcep_ctl_sess_find(PCC_NODE);
}

/* Up, then n LSPs (plsp-id 1..n, delegated but the last) and the
 * end-of-sync in one PCRpt each. */
static struct pcep_ctl_sess *
peer_synced(struct peer *p, uint32_t n)
{
	struct pcep_lsp_req	q;
	struct pcep_ctl_sess		*s;
	uint32_t		i;

	if ((s = peer_up(p, PCEP_STATEFUL_U | PCEP_STATEFUL_I)) == NULL)
		return NULL;
	for (i = 1; i <= n; i++) {
		rpt_fill(&q, i, (i < n ? PCEP_LSP_FLAG_D : 0) |
		    PCEP_LSP_FLAG_S | PCEP_LSP_FLAG_A, 0);
		send_rpt(p, &q, 1);
	}
	send_eos(p);
	return s;
}

static void
op_cb(void *arg, int status, const struct pcep_errmsg *em)
{
	(void)arg;
	op_calls++;
	op_status = status;
	if (em != NULL)
		op_em = *em;
}

/* ---- cases ---- */

static void
test_handshake(void)
{
	struct pcep_open	o;
	struct pcep_ctl_sess		*s;

	pce_begin_default();
	peer_attach(&pa, PCC_ADDR);
	CHECK(peer_next(&pa) == PCEP_MSG_OPEN && peer_open(&pa, &o) == 0,
	    "the PCE opens first");
	CHECK(o.keepalive == 30 && o.deadtimer == 120,
	    "its Open: keepalive %u, dead timer %u", o.keepalive,
	    o.deadtimer);
	CHECK(o.has_stateful && o.stateful_flags == (PCEP_STATEFUL_U |
	    PCEP_STATEFUL_I | PCEP_STATEFUL_S),
	    "its Open: STATEFUL-PCE-CAPABILITY U, I, S (RFC 8231 7.1.1, "
	    "RFC 8281)");
	CHECK(o.n_pst == 3 && o.pst[0] == PCEP_PST_RSVP_TE &&
	    o.pst[1] == PCEP_PST_SR && o.pst[2] == PCEP_PST_SRV6 && o.has_sr &&
	    o.has_srv6, "its Open: PST RSVP-TE, SR and SRv6, SR and SRv6 "
	    "capabilities (RFC 8664, RFC 9603)");
	send_open(&pa, 30, 120, 1, PCEP_STATEFUL_U | PCEP_STATEFUL_I);
	CHECK(peer_next(&pa) == PCEP_MSG_KEEPALIVE,
	    "the PCC's Open is answered by a Keepalive");
	CHECK(pcep_ctl_stats()->up == 0 && pcep_ctl_sess_find(PCC_NODE) == NULL,
	    "not up before the PCC's Keepalive");
	send_keepalive(&pa);
	s = pcep_ctl_sess_find(PCC_NODE);
	CHECK(s != NULL && pcep_ctl_stats()->up == 1 &&
	    pcep_ctl_stats()->sessions == 1, "the PCC's Keepalive: up");
	CHECK(s != NULL && pcep_ctl_sess_addr(s) == PCC_ADDR &&
	    pcep_ctl_sess_stateful(s) == (PCEP_STATEFUL_U | PCEP_STATEFUL_I) &&
	    !pcep_ctl_sess_synced(s) && pcep_ctl_sess_lsp_count(s) == 0,
	    "the session: the PCC's address and flags, not synchronized");
	send_keepalive(&pa);
	CHECK(peer_quiet(&pa) && pcep_ctl_stats()->up == 1 &&
	    pcep_ctl_stats()->bad_messages == 0,
	    "a Keepalive once up: no answer, still up");
	pce_end();
}

/* RFC 5440 6.2: an Open whose dead timer does not outlast our keepalive
 * gets PCErr 1/4 with the Open we would take, a second one 1/5. */
static void
test_open_negotiation(void)
{
	struct pcep_errmsg	em;

	pce_begin_default();
	peer_attach(&pa, PCC_ADDR);
	(void)peer_next(&pa);
	send_open(&pa, 10, 20, 1, PCEP_STATEFUL_U);
	CHECK(peer_pcerr(&pa, 1, 4, &em) && em.has_open &&
	    em.open.deadtimer == 120 && em.open.keepalive == 10,
	    "dead timer 20 under our keepalive 30: PCErr 1/4 proposing %u/%u",
	    em.open.keepalive, em.open.deadtimer);
	send_open(&pa, 10, 20, 1, PCEP_STATEFUL_U);
	CHECK(peer_pcerr(&pa, 1, 5, &em) && !em.has_open,
	    "the same again: PCErr 1/5");
	CHECK(peer_closed(&pa, PCEP_CLOSE_NONE) && peer_sees_eof(&pa, ROUNDS),
	    "then CLOSE and the connection ends");
	CHECK(pcep_ctl_stats()->sessions == 0 &&
	    pcep_ctl_stats()->pcerr_sent == 2, "never up; two PCErrs counted");
	pce_end();
}

/*
 * The smallest timers there are, one second: our keepalive 1, the PCC's
 * dead timer 2.  The PCE keeps sending Keepalives and, the PCC silent,
 * closes with reason 2 once the PCC's dead timer has run (RFC 5440 7.3).
 */
static void
test_keepalive_dead_timer(void)
{
	struct pcep_ctl_config	c;
	int			ka = 0, type;

	config(&c);
	c.keepalive = 1;
	c.deadtimer = 4;
	pce_begin(&c);
	peer_attach(&pa, PCC_ADDR);
	(void)peer_next(&pa);
	send_open(&pa, 1, 2, 1, PCEP_STATEFUL_U);
	(void)peer_next(&pa);
	send_keepalive(&pa);
	CHECK(pcep_ctl_stats()->up == 1, "up with keepalive 1, dead timer 2");
	/* Bounded: a PCE that never closed would stop it at 10. */
	while ((type = peer_next_in(&pa, TIMER_ROUNDS, 1)) ==
	    PCEP_MSG_KEEPALIVE && ka < 10)
		ka++;
	CHECK(ka >= 1, "the PCE sent %d Keepalive(s) on its timer", ka);
	CHECK(type == PCEP_MSG_CLOSE &&
	    peer_close_reason(&pa) == PCEP_CLOSE_DEADTIMER,
	    "then CLOSE reason 2 (dead timer): type %d", type);
	CHECK(pcep_ctl_stats()->up == 0 && pcep_ctl_sess_find(PCC_NODE) == NULL,
	    "the session is no longer up");
	CHECK(peer_sees_eof(&pa, ROUNDS), "the connection ends");
	pce_end();
}

/* RFC 8231 5.6: reports up to the end-of-sync marker fill the LSP
 * database; then the PCC is synchronized. */
static void
test_sync(void)
{
	struct pcep_lsp_req	 q[3];
	struct pcep_ctl_sess		*s;
	struct pcep_ctl_lsp		*l;

	pce_begin_default();
	s = peer_up(&pa, PCEP_STATEFUL_U | PCEP_STATEFUL_I);
	CHECK(s != NULL, "up");
	if (s == NULL) {
		pce_end();
		return;
	}
	rpt_fill(&q[0], 1, PCEP_LSP_FLAG_D | PCEP_LSP_FLAG_S, 0);
	rpt_fill(&q[1], 2, PCEP_LSP_FLAG_D | PCEP_LSP_FLAG_S, 0);
	send_rpt(&pa, q, 2);
	rpt_fill(&q[2], 3, PCEP_LSP_FLAG_S, 0);
	send_rpt(&pa, &q[2], 1);
	CHECK(pcep_ctl_sess_lsp_count(s) == 3 &&
	    pcep_ctl_stats()->lsps_learned == 3 &&
	    pcep_ctl_stats()->reports_received == 2,
	    "two PCRpts, three LSPs: %u learned", pcep_ctl_sess_lsp_count(s));
	CHECK(!pcep_ctl_sess_synced(s) && pcep_ctl_stats()->pccs_synced == 0,
	    "not synchronized before the end-of-sync");
	send_eos(&pa);
	CHECK(pcep_ctl_sess_synced(s) && pcep_ctl_stats()->pccs_synced == 1 &&
	    pcep_ctl_sess_lsp_count(s) == 3,
	    "the end-of-sync marker: synchronized, still three LSPs");
	l = pcep_ctl_lsp_by_name(s, "lsp-2");
	CHECK(l != NULL && l->plsp_id == 2 && (l->flags & PCEP_LSP_FLAG_D) &&
	    l->oper == PCEP_OPER_UP && l->has_ids &&
	    l->endpoint == IP(10, 9, 0, 2) && l->nhops == 2 &&
	    l->hops[1].addr == IP(10, 9, 0, 2),
	    "lsp-2 as reported: PLSP-ID, flags, identifiers, path");
	l = pcep_ctl_lsp_by_name(s, "lsp-3");
	CHECK(l != NULL && !(l->flags & PCEP_LSP_FLAG_D),
	    "lsp-3 not delegated");
	CHECK(peer_quiet(&pa) && pcep_ctl_stats()->updates_sent == 0,
	    "no update-all: nothing sent on synchronization");
	rpt_fill(&q[0], 1, PCEP_LSP_FLAG_R, 0);
	send_rpt(&pa, q, 1);
	CHECK(pcep_ctl_sess_lsp_count(s) == 2 &&
	    pcep_ctl_lsp_by_name(s, "lsp-1") == NULL &&
	    pcep_ctl_stats()->lsps_removed == 1,
	    "an R-flagged report removes lsp-1 (RFC 8231 7.3)");
	pce_end();
}

/*
 * Associations (RFC 8697) and binding SIDs (RFC 9604) in reports: the
 * PCE's Open lists the types it takes; an SR policy association and a
 * binding label are kept with the LSP; a type it does not take (3,
 * policy) is PCErr 26/1 with the LSP still learned; a later report
 * without them (R on the association) takes them away.
 */
static void
test_assoc_bsid(void)
{
	struct pcep_lsp_req	 q;
	struct pcep_errmsg	 em;
	struct pcep_ctl_sess	*s;
	struct pcep_ctl_lsp	*l;
	struct pcep_open	 o;

	pce_begin_default();
	peer_attach(&pa, PCC_ADDR);
	CHECK(peer_next(&pa) == PCEP_MSG_OPEN && peer_open(&pa, &o) == 0 &&
	    o.n_assoc_types == 3 && o.assoc_types[0] == 1 &&
	    o.assoc_types[1] == 2 && o.assoc_types[2] == 6,
	    "the PCE's Open: ASSOC-Type-List 1, 2, 6");
	send_open(&pa, 30, 120, 1, PCEP_STATEFUL_U);
	s = peer_next(&pa) == PCEP_MSG_KEEPALIVE ? (send_keepalive(&pa),
	    pcep_ctl_sess_find(PCC_NODE)) : NULL;
	CHECK(s != NULL, "up");
	if (s == NULL) {
		pce_end();
		return;
	}
	rpt_fill(&q, 1, PCEP_LSP_FLAG_D | PCEP_LSP_FLAG_S, 0);
	q.n_assoc = 1;
	q.assoc[0].af = 4;
	q.assoc[0].type = PCEP_ASSOC_T_SR_POLICY;
	q.assoc[0].id = 9;
	q.assoc[0].has_color = 1;
	q.assoc[0].color = 7;
	q.assoc[0].ep_af = 4;
	q.assoc[0].pol_name = "p";
	q.assoc[0].pol_name_len = 1;
	q.lsp.has_bsid = 1;
	q.lsp.bsid.value = 24001u << PCEP_SR_LABEL_SHIFT;
	send_rpt(&pa, &q, 1);
	l = pcep_ctl_lsp_by_name(s, "lsp-1");
	CHECK(l != NULL && l->n_assoc == 1 && l->assoc[0].id == 9 &&
	    l->assoc[0].color == 7 && l->assoc[0].pol_name != NULL &&
	    strcmp(l->assoc[0].pol_name, "p") == 0 && l->bsid != NULL &&
	    l->bsid->value >> PCEP_SR_LABEL_SHIFT == 24001 &&
	    pcep_ctl_stats()->assoc_sr_policy == 1 &&
	    pcep_ctl_stats()->bsid_mpls == 1,
	    "an SR policy association and a binding label kept");
	CHECK(peer_quiet(&pa), "nothing answered to them");
	rpt_fill(&q, 2, PCEP_LSP_FLAG_S, 0);
	q.n_assoc = 1;
	q.assoc[0].af = 4;
	q.assoc[0].type = 3;		/* policy (RFC 9005): not taken */
	send_rpt(&pa, &q, 1);
	CHECK(peer_pcerr(&pa, 26, 1, &em) &&
	    pcep_ctl_stats()->assoc_unsupported == 1 &&
	    pcep_ctl_lsp_by_name(s, "lsp-2") != NULL,
	    "association type 3: PCErr 26/1, the LSP learned");
	rpt_fill(&q, 1, PCEP_LSP_FLAG_D | PCEP_LSP_FLAG_S, 0);
	q.n_assoc = 1;
	q.assoc[0].af = 4;
	q.assoc[0].type = PCEP_ASSOC_T_SR_POLICY;
	q.assoc[0].removal = 1;
	send_rpt(&pa, &q, 1);
	l = pcep_ctl_lsp_by_name(s, "lsp-1");
	CHECK(l != NULL && l->n_assoc == 0 && l->assoc == NULL &&
	    l->bsid == NULL, "R on the association, no binding: both gone");
	pce_end();
}

/*
 * The LSP indexes by PLSP-ID and by name through their growth: a
 * thousand LSPs, a known name reported with a new PLSP-ID (the old LSP
 * goes), and removals by PLSP-ID.
 */
static void
test_lsp_indexes(void)
{
	struct pcep_lsp_req	 q;
	struct pcep_ctl_sess		*s;
	struct pcep_ctl_lsp		*l;
	char			 name[32];
	uint32_t		 id, found = 0;

	pce_begin_default();
	if ((s = peer_up(&pa, PCEP_STATEFUL_U)) == NULL) {
		CHECK(0, "up");
		pce_end();
		return;
	}
	for (id = 1; id <= 1000; id++) {
		rpt_fill(&q, id, PCEP_LSP_FLAG_D | PCEP_LSP_FLAG_S, 0);
		send_rpt(&pa, &q, 1);
	}
	for (id = 1; id <= 1000; id++) {
		snprintf(name, sizeof(name), "lsp-%u", id);
		l = pcep_ctl_lsp_by_name(s, name);
		found += l != NULL && l->plsp_id == id;
	}
	CHECK(pcep_ctl_sess_lsp_count(s) == 1000 && found == 1000,
	    "1000 LSPs, each found by its name: %u", found);
	rpt_fill(&q, 5000, PCEP_LSP_FLAG_D | PCEP_LSP_FLAG_S, 0);
	q.lsp.name_len = (uint16_t)snprintf(q.lsp.name, sizeof(q.lsp.name),
	    "lsp-7");
	send_rpt(&pa, &q, 1);
	l = pcep_ctl_lsp_by_name(s, "lsp-7");
	CHECK(l != NULL && l->plsp_id == 5000 && pcep_ctl_sess_lsp_count(s) ==
	    1000 && pcep_ctl_stats()->lsps_removed == 1,
	    "lsp-7 under a new PLSP-ID replaces the old one");
	for (id = 2; id <= 1000; id += 2) {
		rpt_fill(&q, id, PCEP_LSP_FLAG_R, 0);
		send_rpt(&pa, &q, 1);
	}
	CHECK(pcep_ctl_sess_lsp_count(s) == 500 &&
	    pcep_ctl_lsp_by_name(s, "lsp-8") == NULL &&
	    pcep_ctl_lsp_by_name(s, "lsp-9") != NULL &&
	    pcep_ctl_lsp_by_name(s, "lsp-7") != NULL,
	    "the even PLSP-IDs removed by R-flagged reports: %u left",
	    pcep_ctl_sess_lsp_count(s));
	pce_end();
}

/* A northbound update: PCUpd with an SRP-ID, acknowledged by a PCRpt with
 * that SRP-ID (RFC 8231 6.2, 7.2), or refused by a PCErr that carries it
 * (6.3). */
static void
test_update(void)
{
	struct pcep_lsp_req	 q;
	struct pcep_ctl_path	 path;
	struct pcep_errmsg	 em;
	struct pcep_ctl_sess		*s;
	struct pcep_ctl_lsp		*l;
	char			 err[128];
	uint32_t		 srp;

	pce_begin_default();
	s = peer_synced(&pa, 3);
	l = s != NULL ? pcep_ctl_lsp_by_name(s, "lsp-1") : NULL;
	CHECK(s != NULL && l != NULL && pcep_ctl_sess_synced(s),
	    "up and synchronized");
	if (l == NULL) {
		pce_end();
		return;
	}
	memset(&path, 0, sizeof(path));
	path.n = 1;
	path.hop[0].kind = PCEP_SUBOBJ_IPV4;
	path.hop[0].addr = IP(10, 7, 7, 7);
	path.hop[0].plen = 32;
	op_calls = 0;
	CHECK(pcep_ctl_update_lsp(s, l, &path, 1, 1, op_cb, NULL, err,
	    sizeof(err)) == 0, "pcep_ctl_update_lsp: sent");
	CHECK(peer_next(&pa) == PCEP_MSG_PCUPD && peer_update(&pa, &q) == 0,
	    "the PCC gets a PCUpd");
	srp = q.srp.srp_id;
	CHECK(q.has_srp && srp != 0 && srp != UINT32_MAX &&
	    q.lsp.plsp_id == 1 && (q.lsp.flags & PCEP_LSP_FLAG_D) &&
	    q.ero.n == 1 && q.ero.hop[0].addr == IP(10, 7, 7, 7),
	    "the PCUpd: SRP-ID %u, PLSP-ID 1, delegated, the new path", srp);
	CHECK(pcep_ctl_stats()->updates_sent == 1 && op_calls == 0,
	    "counted; the operation waits for the PCC");
	rpt_fill(&q, 1, PCEP_LSP_FLAG_D | PCEP_LSP_FLAG_A, srp);
	q.ero.n = 1;
	q.ero.hop[0].addr = IP(10, 7, 7, 7);
	send_rpt(&pa, &q, 1);
	CHECK(op_calls == 1 && op_status == 0,
	    "the PCRpt with the SRP-ID answers it: status %d", op_status);
	CHECK(l->nhops == 1 && l->hops[0].addr == IP(10, 7, 7, 7),
	    "the database has the new path");

	CHECK(pcep_ctl_update_lsp(s, l, NULL, 1, 1, op_cb, NULL, err,
	    sizeof(err)) == 0 && peer_next(&pa) == PCEP_MSG_PCUPD &&
	    peer_update(&pa, &q) == 0 && q.srp.srp_id != srp,
	    "a second update: a new SRP-ID %u", q.srp.srp_id);
	memset(&em, 0, sizeof(em));
	em.n = 1;
	em.item[0].type = 19;
	em.item[0].value = 1;
	em.has_srp = 1;
	em.srp_id = q.srp.srp_id;
	pcep_ctlrr_encode(wstart(), &em);
	peer_send_w(&pa);
	CHECK(op_calls == 2 && op_status == 1 && op_em.n == 1 &&
	    op_em.item[0].type == 19 && op_em.item[0].value == 1 &&
	    pcep_ctl_stats()->pcerr_received == 1,
	    "a PCErr 19/1 with its SRP-ID refuses it: status %d", op_status);
	CHECK(pcep_ctl_update_lsp(s, l, NULL, 1, 1, op_cb, NULL, err,
	    sizeof(err)) == 0 && peer_next(&pa) == PCEP_MSG_PCUPD,
	    "a third update, left unanswered");
	pce_end();
	CHECK(op_calls == 3 && op_status == -1,
	    "stopping fails the waiting operation: status %d", op_status);
}

/* --pcep-update-all 2: a window of two PCUpds in flight, delegated LSPs
 * only, each PCRpt with the SRP-ID freeing a place. */
static void
test_update_all(void)
{
	struct pcep_ctl_config	 c;
	struct pcep_lsp_req	 q;
	uint32_t		 srp[4], id[4];
	int			 n = 0, i, bad = 0;

	config(&c);
	c.update_all = 2;
	pce_begin(&c);
	CHECK(peer_synced(&pa, 4) != NULL, "four LSPs, the last not "
	    "delegated, synchronized");
	while (n < 4 && peer_next(&pa) == PCEP_MSG_PCUPD &&
	    peer_update(&pa, &q) == 0) {
		srp[n] = q.srp.srp_id;
		id[n++] = q.lsp.plsp_id;
	}
	CHECK(n == 2 && pcep_ctl_stats()->updates_sent == 2,
	    "two PCUpds in flight, no more: %d", n);
	for (i = 0; i < 3 && i < n; i++) {
		rpt_fill(&q, id[i], PCEP_LSP_FLAG_D, srp[i]);
		send_rpt(&pa, &q, 1);
		if (i == 0 && peer_next(&pa) == PCEP_MSG_PCUPD &&
		    peer_update(&pa, &q) == 0) {
			srp[n] = q.srp.srp_id;
			id[n++] = q.lsp.plsp_id;
		}
	}
	CHECK(n == 3 && id[0] != id[1] && id[1] != id[2] && id[0] != id[2],
	    "one acknowledged, the third delegated LSP's PCUpd follows");
	for (i = 0; i < n; i++)
		bad += id[i] == 4;
	CHECK(bad == 0 && peer_quiet(&pa) &&
	    pcep_ctl_stats()->updates_sent == 3 &&
	    pcep_ctl_stats()->updates_acked == 3,
	    "all three acknowledged; the undelegated one never updated");
	CHECK(pcep_ctl_stats()->update_latency.count == 3,
	    "three latencies recorded");
	pce_end();
}

/*
 * update-all makes one pass over the database: an LSP removed behind its
 * cursor must not make it skip one it has not updated yet, nor update
 * one twice.  Window 1, LSPs 1-4 delegated; 1 updated and acknowledged,
 * 2 updated, then 1 removed.
 */
static void
test_update_all_removal(void)
{
	struct pcep_ctl_config	 c;
	struct pcep_lsp_req	 q;
	int			 times[5] = { 0 }, i, n = 0;
	uint32_t		 id, srp;

	config(&c);
	c.update_all = 1;
	pce_begin(&c);
	CHECK(peer_up(&pa, PCEP_STATEFUL_U) != NULL, "up");
	for (id = 1; id <= 4; id++) {
		rpt_fill(&q, id, PCEP_LSP_FLAG_D | PCEP_LSP_FLAG_S, 0);
		send_rpt(&pa, &q, 1);
	}
	send_eos(&pa);
	/* Each PCUpd acknowledged in turn, at most 8 of them. */
	while (n < 8 && peer_next(&pa) == PCEP_MSG_PCUPD &&
	    peer_update(&pa, &q) == 0) {
		id = q.lsp.plsp_id;
		srp = q.srp.srp_id;
		times[id < 5 ? id : 0]++;
		if (n++ == 1) {
			rpt_fill(&q, 1, PCEP_LSP_FLAG_R, 0);
			send_rpt(&pa, &q, 1);
		}
		rpt_fill(&q, id, PCEP_LSP_FLAG_D, srp);
		send_rpt(&pa, &q, 1);
	}
	for (i = 1; i <= 4; i++)
		printf("# LSP %d updated %d time(s)\n", i, times[i]);
	CHECK(n == 4 && times[1] == 1 && times[2] == 1 && times[3] == 1 &&
	    times[4] == 1, "each LSP updated once: %d PCUpds", n);
	pce_end();
}

/* Bad input gets the PCErr it calls for, counted. */
static void
test_malformed(void)
{
	static const uint8_t	 v2[] = { 0x40, PCEP_MSG_KEEPALIVE, 0, 4 };
	struct pcep_lsp_req	 q;
	struct pcep_errmsg	 em;
	struct pcep_ctl_sess		*s;
	size_t			 m, o;

	pce_begin_default();
	s = peer_up(&pa, PCEP_STATEFUL_U);
	CHECK(s != NULL, "up");

	/* RFC 8231 7.3.2: a new LSP must be named. */
	rpt_fill(&q, 5, PCEP_LSP_FLAG_D, 41);
	q.lsp.name_len = 0;
	q.lsp.name[0] = '\0';
	send_rpt(&pa, &q, 1);
	CHECK(peer_pcerr(&pa, 10, 8, &em) && em.has_srp && em.srp_id == 41,
	    "an unnamed new LSP: PCErr 10/8 with its SRP-ID (RFC 8231 6.3)");
	CHECK(pcep_ctl_stats()->bad_messages == 1 &&
	    pcep_ctl_stats()->pcerr_sent == 1 &&
	    pcep_ctl_sess_lsp_count(s) == 0, "counted, not learned");

	/* RFC 8231 7.3.1: an RSVP-TE LSP without its identifiers. */
	rpt_fill(&q, 5, PCEP_LSP_FLAG_D, 0);
	q.lsp.ids.af = 0;
	send_rpt(&pa, &q, 1);
	CHECK(peer_pcerr(&pa, 6, 11, &em) && !em.has_srp,
	    "no LSP-IDENTIFIERS: PCErr 6/11");

	/* RFC 8231 8.5: a report without an LSP object. */
	m = pcep_msg_begin(wstart(), PCEP_MSG_PCRPT);
	o = pcep_obj_begin(&w, PCEP_OC_SRP, 1, PCEP_OBJ_FLAG_P);
	wbuf_put_u32(&w, 0);
	wbuf_put_u32(&w, 42);
	pcep_obj_end(&w, o);
	o = pcep_obj_begin(&w, PCEP_OC_ERO, 1, PCEP_OBJ_FLAG_P);
	pcep_obj_end(&w, o);
	pcep_msg_end(&w, m);
	peer_send_w(&pa);
	CHECK(peer_pcerr(&pa, 6, 8, &em) && em.has_srp && em.srp_id == 42,
	    "no LSP object: PCErr 6/8 with the SRP-ID");
	CHECK(pcep_ctl_stats()->up == 1 &&
	    pcep_ctl_stats()->bad_messages == 3 &&
	    pcep_ctl_stats()->pcerr_sent == 3,
	    "the session stays up; three bad messages, three PCErrs");

	/* RFC 5440 6.1: a header that cannot be framed ends it. */
	peer_send(&pa, v2, sizeof(v2));
	CHECK(peer_pcerr(&pa, 1, 8, &em), "version 2: PCErr 1/8");
	CHECK(peer_closed(&pa, PCEP_CLOSE_MALFORMED) &&
	    peer_sees_eof(&pa, ROUNDS),
	    "then CLOSE reason 3 (malformed) and the connection ends");
	CHECK(pcep_ctl_stats()->up == 0 && pcep_ctl_stats()->bad_messages == 4,
	    "down, four bad messages");
	pce_end();

	/* RFC 8231 5.4: no PCRpt without the stateful capability. */
	pce_begin_default();
	s = peer_up(&pa, 0);
	CHECK(s != NULL && pcep_ctl_sess_stateful(s) == 0, "up, not stateful");
	rpt_fill(&q, 1, PCEP_LSP_FLAG_D, 0);
	send_rpt(&pa, &q, 1);
	CHECK(peer_pcerr(&pa, 19, 5, &em) && pcep_ctl_sess_lsp_count(s) == 0,
	    "a PCRpt from a stateless PCC: PCErr 19/5, nothing learned");
	pce_end();
}

/* RFC 5440 6.2: before the Open, nothing but an Open. */
static void
test_unexpected_before_open(void)
{
	struct pcep_lsp_req	q;
	struct pcep_errmsg	em;

	pce_begin_default();
	peer_attach(&pa, PCC_ADDR);
	CHECK(peer_next(&pa) == PCEP_MSG_OPEN, "the PCE's Open");
	rpt_fill(&q, 1, PCEP_LSP_FLAG_D, 0);
	send_rpt(&pa, &q, 1);
	CHECK(peer_pcerr(&pa, 1, 1, &em),
	    "a PCRpt before the Open: PCErr 1/1");
	CHECK(peer_closed(&pa, PCEP_CLOSE_NONE) && peer_sees_eof(&pa, ROUNDS),
	    "then CLOSE and the connection ends");
	CHECK(pcep_ctl_stats()->bad_messages == 1 &&
	    pcep_ctl_stats()->sessions == 0 &&
	    pcep_ctl_stats()->lsps_learned == 0,
	    "counted, never up, nothing learned");
	pce_end();
}

/* Once up, what a stateful PCE does not serve: PCErr 2/0, and CLOSE 5
 * after too many (RFC 5440 6.9). */
static void
test_unexpected_up(void)
{
	struct pcep_errmsg	em;
	int			i, ok = 0;

	pce_begin_default();
	CHECK(peer_up(&pa, PCEP_STATEFUL_U) != NULL, "up");
	for (i = 0; i < 5; i++) {
		pcep_msg_end(&w, pcep_msg_begin(wstart(), PCEP_MSG_PCREQ));
		peer_send_w(&pa);
		ok += peer_pcerr(&pa, 2, 0, &em);
	}
	CHECK(ok == 5 && pcep_ctl_stats()->bad_messages == 5 &&
	    pcep_ctl_stats()->up == 1, "five PCReqs: five PCErr 2/0, still up");
	pcep_msg_end(&w, pcep_msg_begin(wstart(), PCEP_MSG_PCREQ));
	peer_send_w(&pa);
	CHECK(peer_closed(&pa, PCEP_CLOSE_UNKNOWN_MSG) &&
	    peer_sees_eof(&pa, ROUNDS) && pcep_ctl_stats()->up == 0,
	    "the sixth: CLOSE reason 5, down");
	pce_end();
}

static void
test_pcc_close(void)
{
	pce_begin_default();
	CHECK(peer_synced(&pa, 2) != NULL && pcep_ctl_stats()->up == 1,
	    "up and synchronized");
	send_close(&pa, PCEP_CLOSE_NONE);
	CHECK(peer_sees_eof(&pa, ROUNDS) && pcep_ctl_stats()->up == 0 &&
	    pcep_ctl_sess_find(PCC_NODE) == NULL,
	    "the PCC's CLOSE: down, connection closed, no answer");
	CHECK(pcep_ctl_stats()->pcerr_sent == 0 &&
	    pcep_ctl_stats()->bad_messages == 0, "nothing counted as bad");
	/* The PCC may come back: a new session, not a second one. */
	CHECK(peer_up(&pb, PCEP_STATEFUL_U) != NULL &&
	    pcep_ctl_stats()->sessions == 2, "the PCC connects again: up");
	pce_end();
}

/* The PCC goes after its Open, before its Keepalive. */
static void
test_pcc_gone_mid_handshake(void)
{
	pce_begin_default();
	peer_attach(&pa, PCC_ADDR);
	(void)peer_next(&pa);
	send_open(&pa, 30, 120, 1, PCEP_STATEFUL_U);
	CHECK(peer_next(&pa) == PCEP_MSG_KEEPALIVE, "Open answered");
	shutdown(pa.fd, SHUT_WR);
	CHECK(peer_sees_eof(&pa, ROUNDS), "the PCC's EOF: the PCE closes");
	CHECK(pcep_ctl_stats()->sessions == 0 && pcep_ctl_stats()->up == 0,
	    "never up");
	/* Its address is free again. */
	CHECK(peer_up(&pb, PCEP_STATEFUL_U) != NULL, "the PCC again: up");
	pce_end();
}

/* RFC 5440 7.15 (type 9): one session per PCC. */
static void
test_second_session(void)
{
	struct pcep_errmsg	em;

	pce_begin_default();
	CHECK(peer_up(&pa, PCEP_STATEFUL_U) != NULL, "up");
	peer_attach(&pb, PCC_ADDR);
	CHECK(peer_pcerr(&pb, 9, 0, &em), "a second connection: PCErr 9");
	CHECK(peer_closed(&pb, PCEP_CLOSE_NONE) && peer_sees_eof(&pb, ROUNDS),
	    "then CLOSE and the connection ends");
	send_keepalive(&pa);
	CHECK(pcep_ctl_stats()->up == 1 &&
	    pcep_ctl_sess_find(PCC_NODE) != NULL && peer_quiet(&pa),
	    "the first session goes on");
	pce_end();
}

/* The OpenWait and KeepWait timers are 60 s (PCE_OPENWAIT_S, RFC 5440
 * 6.2), not configurable: too long for a unit test. */
static void
test_openwait_timer(void)
{
	CHECK_SKIP("OpenWait/KeepWait is a fixed 60 s: a PCC that never "
	    "finishes the handshake is not driven here");
}

static const struct check_case cases[] = {
	CASE(test_handshake),
	CASE(test_open_negotiation),
	CASE(test_keepalive_dead_timer),
	CASE(test_sync),
	CASE(test_lsp_indexes),
	CASE(test_update),
	CASE(test_update_all),
	CASE(test_update_all_removal),
	CASE(test_malformed),
	CASE(test_unexpected_before_open),
	CASE(test_unexpected_up),
	CASE(test_pcc_close),
	CASE(test_pcc_gone_mid_handshake),
	CASE(test_second_session),
	CASE(test_openwait_timer),
	CASE(test_assoc_bsid),
};

int
main(int argc, char **argv)
{
	int	rc;

	pa.fd = pb.fd = -1;
	log_init("test_pcep_ctl", LOG_QUIET);
	engine_init();
	rc = check_run(cases, argc, argv);
	engine_free();
	return rc;
}
