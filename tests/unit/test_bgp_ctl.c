/*
 * The embedded controller's BGP speaker (sims/bgp/bgp_ctl.c) driven with
 * wire bytes over loopback TCP: each test peer's connection is handed to
 * bgp_ctl_attach() (what the listener does) with a made-up 127.1.0.x
 * address, since the speaker tells peers apart by address.  The messages
 * are built and read with the BGP codec.  Covered: the OPEN exchange
 * (RFC 4271 section 8, RFC 6793, RFC 4760) and KEEPALIVE to Established;
 * UPDATEs learned into the Loc-RIB and re-advertised route-server style or
 * to a --bgp-monitor peer only; withdrawals; RFC 7606 treat-as-withdraw;
 * header errors, messages in the wrong state (RFC 6608) and bad OPENs
 * answered with a NOTIFICATION; a NOTIFICATION or a close from the peer;
 * the hold timer, driven with the shortest legal hold time (3 s).
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <event2/event.h>

#include "bgp_codec.h"
#include "bgp_ctl.h"
#include "buf.h"
#include "engine.h"
#include "log.h"

#include "check.h"
#include "check_bgp.h"

#define SPK_AS		64496		/* bgp_ctl_config_defaults() */
#define SPK_ID		0xc0000201	/* 192.0.2.1 */
#define PEER_AS4	4200000001u	/* needs the 4-octet AS capability */
#define ROUNDS		200		/* loop rounds a wait may take */

/* The test's end of one session. */
struct tpeer {
	int	 fd;
	int	 eof;		/* the speaker closed */
	char	 addr[16];	/* the address the speaker is told */
	uint8_t	 in[1 << 16];	/* received, not yet taken */
	size_t	 len;
};

static const struct bgp_sess_caps sess_as4 = { 1, { 0, 0 }, { 0, 0 } };

/* ---- the loop and the sockets ---- */

/* One round; block: until the next event (the speaker's 200 ms tick at
 * the latest), for what only its timer does. */
static void
pump(int block)
{
	event_base_loop(engine_base(), block ? EVLOOP_ONCE : EVLOOP_NONBLOCK);
}

/* Round i of a wait: the first ones do not block; later ones wait for
 * the next event, so that a slow machine only makes the wait longer. */
static void
pump_round(int i, int block)
{
	pump(block || i >= ROUNDS / 4);
}

static int
nonblock(int fd)
{
	int	fl = fcntl(fd, F_GETFL);

	return fl == -1 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/* A connected loopback TCP pair: *mine for the test, *theirs for the
 * speaker (so that its local address is 127.0.0.1, its next hop). */
static int
tcp_pair(int *mine, int *theirs)
{
	struct sockaddr_in	sin;
	socklen_t		len = sizeof(sin);
	int			l, one = 1;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((l = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return -1;
	if (bind(l, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    listen(l, 1) == -1 ||
	    getsockname(l, (struct sockaddr *)&sin, &len) == -1 ||
	    (*mine = socket(AF_INET, SOCK_STREAM, 0)) == -1) {
		close(l);
		return -1;
	}
	if (connect(*mine, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    (*theirs = accept(l, NULL, NULL)) == -1) {
		close(*mine);
		close(l);
		return -1;
	}
	close(l);
	/* Each test message goes out at once (no Nagle wait for an ACK). */
	setsockopt(*mine, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return nonblock(*mine) == -1 || nonblock(*theirs) == -1 ? -1 : 0;
}

/* A new session from addr; 0 when the speaker took it. */
static int
tpeer_new(struct tpeer *tp, const char *addr)
{
	struct sockaddr_in	sin;
	int			theirs;

	memset(tp, 0, sizeof(*tp));
	tp->fd = -1;
	snprintf(tp->addr, sizeof(tp->addr), "%s", addr);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1 ||
	    tcp_pair(&tp->fd, &theirs) == -1)
		return -1;
	return bgp_ctl_attach(theirs, (struct sockaddr *)&sin, sizeof(sin));
}

static void
tpeer_close(struct tpeer *tp)
{
	if (tp->fd != -1)
		close(tp->fd);
	tp->fd = -1;
}

static void
tpeer_send(struct tpeer *tp, const void *buf, size_t len)
{
	ssize_t	n = write(tp->fd, buf, len);

	if (n != (ssize_t)len)
		fatalx("test peer %s: short write", tp->addr);
}

static void
tpeer_send_wbuf(struct tpeer *tp, const struct wbuf *w)
{
	if (w->err)
		fatalx("test message does not fit");
	tpeer_send(tp, w->data, w->len);
}

/* What the speaker sent so far. */
static void
tpeer_drain(struct tpeer *tp)
{
	ssize_t	n;

	while (tp->len < sizeof(tp->in) && (n = read(tp->fd, tp->in +
	    tp->len, sizeof(tp->in) - tp->len)) != 0) {
		if (n == -1) {
			if (errno == ECONNRESET)
				tp->eof = 1;
			return;
		}
		tp->len += (size_t)n;
	}
	if (tp->len < sizeof(tp->in))
		tp->eof = 1;
}

/* Take the first whole message into msg; its type, 0 when none. */
static uint8_t
tpeer_take(struct tpeer *tp, uint8_t *msg, size_t *len)
{
	struct bgp_err	e;
	uint16_t	mlen;
	uint8_t		type;

	if (tp->len < BGP_HEADER_LEN)
		return 0;
	if (bgp_header_decode(tp->in, tp->len, &mlen, &type, &e) == -1)
		fatalx("test peer %s: the speaker sent a bad header",
		    tp->addr);
	if (tp->len < mlen)
		return 0;
	memcpy(msg, tp->in, mlen);
	*len = mlen;
	memmove(tp->in, tp->in + mlen, tp->len - mlen);
	tp->len -= mlen;
	return type;
}

/*
 * The next message of that type, skipping KEEPALIVEs when another type is
 * wanted (the speaker sends them on its own), and UPDATEs when waiting for
 * a NOTIFICATION; 0 when none came in the rounds, or another type came
 * first (then *got says which).
 */
static int
tpeer_wait(struct tpeer *tp, uint8_t want, uint8_t *msg, size_t *len,
    int block, uint8_t *got)
{
	uint8_t	type;
	int	i;

	*got = 0;
	for (i = 0; i < ROUNDS; i++) {
		while ((type = tpeer_take(tp, msg, len)) != 0) {
			if (type == want)
				return 1;
			if (type != BGP_KEEPALIVE && (type != BGP_UPDATE ||
			    want != BGP_NOTIFICATION)) {
				*got = type;
				return 0;
			}
		}
		if (tp->eof)
			return 0;
		pump_round(i, block);
		tpeer_drain(tp);
	}
	return 0;
}

static int
tpeer_expect(struct tpeer *tp, uint8_t want, uint8_t *msg, size_t *len)
{
	uint8_t	got;

	return tpeer_wait(tp, want, msg, len, 0, &got);
}

/* A NOTIFICATION code/subcode and then the speaker closing. */
static int
tpeer_notified(struct tpeer *tp, uint8_t code, uint8_t subcode, int block)
{
	uint8_t	msg[BGP_MAX_LEN], c = 0, s = 0, got;
	size_t	len;
	int	i;

	if (!tpeer_wait(tp, BGP_NOTIFICATION, msg, &len, block, &got) ||
	    bgp_notification_decode(msg, len, &c, &s) == -1) {
		printf("# %s: no NOTIFICATION (got type %u)\n", tp->addr, got);
		return 0;
	}
	for (i = 0; i < ROUNDS && !tp->eof; i++) {
		pump_round(i, 0);
		tpeer_drain(tp);
	}
	if (c != code || s != subcode || !tp->eof)
		printf("# %s: NOTIFICATION %u/%u, eof %d\n", tp->addr, c, s,
		    tp->eof);
	return c == code && s == subcode && tp->eof;
}

/* Loop rounds; 1 when nothing but KEEPALIVEs (and UPDATEs, when
 * updates_ok) came meanwhile, and the session is still open. */
static int
tpeer_quiet(struct tpeer *tp, int updates_ok)
{
	uint8_t	msg[BGP_MAX_LEN], type;
	size_t	len;
	int	i;

	for (i = 0; i < 20; i++) {
		pump(0);
		tpeer_drain(tp);
	}
	while ((type = tpeer_take(tp, msg, &len)) != 0)
		if (type != BGP_KEEPALIVE && (type != BGP_UPDATE ||
		    !updates_ok))
			return 0;
	return !tp->eof;
}

/* ---- messages ---- */

static struct wbuf *
scratch(void)
{
	static uint8_t		mem[1 << 16];
	static struct wbuf	w;

	wbuf_init(&w, mem, sizeof(mem));
	return &w;
}

/* An OPEN from AS as (4-octet AS capability), IPv4 and IPv6 unicast. */
static void
send_open(struct tpeer *tp, uint32_t as, uint16_t hold, uint32_t id)
{
	struct bgp_open	o;
	struct wbuf	*w = scratch();

	memset(&o, 0, sizeof(o));
	o.version = BGP_VERSION;
	o.my_as = as > 0xffff ? BGP_AS_TRANS : (uint16_t)as;
	o.hold = hold;
	o.bgp_id = id;
	o.caps.mp[BGP_AF_IPV4] = o.caps.mp[BGP_AF_IPV6] = 1;
	o.caps.as4 = 1;
	o.caps.as4_number = as;
	bgp_open_encode(w, &o);
	tpeer_send_wbuf(tp, w);
}

static void
send_keepalive(struct tpeer *tp)
{
	struct wbuf	*w = scratch();

	bgp_keepalive_encode(w);
	tpeer_send_wbuf(tp, w);
}

/* An IPv4 UPDATE of n prefixes 10.1.i.0/24 from first on: announced
 * (AS_PATH as, NEXT_HOP the peer) or withdrawn. */
static void
send_update(struct tpeer *tp, uint32_t as, int first, int n, int withdraw)
{
	struct bgp_attrs	a;
	struct bgp_ub		ub;
	struct bgp_prefix	p;
	struct wbuf		*w = scratch();
	char			s[32];
	int			i;

	memset(&a, 0, sizeof(a));
	a.origin = BGP_ORIGIN_IGP;
	a.n_as = 1;
	a.as_path[0] = as;
	inet_pton(AF_INET, tp->addr, a.next_hop4);
	bgp_ub_begin(&ub, w, BGP_AF_IPV4, 0, 0, withdraw ? NULL : &a,
	    &sess_as4, BGP_MAX_LEN);
	for (i = first; i < first + n; i++) {
		snprintf(s, sizeof(s), "10.1.%d.0/24", i);
		p = pfx(s);
		bgp_ub_add(&ub, &p);
	}
	bgp_ub_end(&ub);
	tpeer_send_wbuf(tp, w);
}

/* Bytes from hex, sent as they are. */
static void
send_hex(struct tpeer *tp, const char *hex)
{
	uint8_t	b[BGP_MAX_LEN];

	tpeer_send(tp, b, check_unhex(hex, b, sizeof(b)));
}

#define MARKER	"ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff "

/* ---- the speaker ---- */

/* Listening on 127.0.0.1, a port the kernel picks (never connected to:
 * the sessions are attached), with hold and the monitors given. */
static void
spk_up(uint16_t hold, const char *monitors)
{
	struct bgp_ctl_config	 c;
	struct sockaddr_in	*sin;
	char			 err[256];

	bgp_ctl_config_defaults(&c);
	memset(&c.listen.ss, 0, sizeof(c.listen.ss));
	sin = (struct sockaddr_in *)&c.listen.ss;
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	c.listen.sslen = sizeof(*sin);
	c.listen.port = 0;
	snprintf(c.listen.text, sizeof(c.listen.text), "ptcp:0:127.0.0.1");
	c.hold = hold;
	if (monitors != NULL &&
	    bgp_ctl_parse_monitors(&c, monitors, err, sizeof(err)) == -1)
		fatalx("%s", err);
	if (bgp_ctl_start(&c, err, sizeof(err)) == -1)
		fatalx("%s", err);
}

static void
spk_down(struct tpeer *tps, int n)
{
	int	i;

	bgp_ctl_stop();
	for (i = 0; i < n; i++)
		tpeer_close(&tps[i]);
	for (i = 0; i < 10; i++)
		pump(0);
}

/* OPEN and KEEPALIVE both ways: 1 when Established. */
static int
establish(struct tpeer *tp, uint32_t as, uint16_t hold, uint32_t id)
{
	uint8_t		msg[BGP_MAX_LEN];
	size_t		len;
	uint64_t	before = bgp_ctl_stats()->established;
	int		i;

	if (!tpeer_expect(tp, BGP_OPEN, msg, &len))
		return 0;
	send_open(tp, as, hold, id);
	if (!tpeer_expect(tp, BGP_KEEPALIVE, msg, &len))
		return 0;
	send_keepalive(tp);
	for (i = 0; i < ROUNDS && bgp_ctl_stats()->established == before;
	    i++)
		pump_round(i, 0);
	return bgp_ctl_stats()->established == before + 1;
}

/* Rounds until the Loc-RIB holds n IPv4 prefixes; 1 when it does. */
static int
rib_is(uint64_t n)
{
	int	i;

	for (i = 0; i < ROUNDS && bgp_ctl_loc_rib_count(BGP_AF_IPV4) != n;
	    i++)
		pump_round(i, 0);
	return bgp_ctl_loc_rib_count(BGP_AF_IPV4) == n;
}

/* The IPv4 prefixes an UPDATE the speaker sent announces (withdraw 0) or
 * withdraws, as "10.1.0.0/24 10.1.1.0/24"; its attributes in *a. */
static int
update_prefixes(const uint8_t *msg, size_t len, int withdraw, char *out,
    size_t outlen, struct bgp_attrs *a)
{
	struct bgp_update	u;
	struct bgp_err		e;
	struct bgp_prefix	p;
	struct rbuf		r;
	char			s[64];
	size_t			n = 0;

	out[0] = '\0';
	if (bgp_update_decode(msg, len, &sess_as4, &u, &e) == -1)
		return -1;
	bgp_update_attrs(&u, &sess_as4, a);
	r = withdraw ? u.withdrawn : u.nlri;
	while (bgp_nlri_next(&r, BGP_AF_IPV4, 0, &p) == 1 && n < outlen)
		n += (size_t)snprintf(out + n, outlen - n, "%s%s",
		    n > 0 ? " " : "", bgp_prefix_str(&p, s, sizeof(s)));
	return 0;
}

/* ---- cases ---- */

/* Our OPEN first (we are the passive side, RFC 4271 section 8.2.2), with
 * the 4-octet AS and multiprotocol capabilities; the peer's OPEN with a
 * 4-octet AS answered with KEEPALIVE; its KEEPALIVE makes Established. */
static void
test_handshake(void)
{
	struct tpeer	 tp;
	struct bgp_open	 o;
	struct bgp_err	 e;
	uint8_t		 msg[BGP_MAX_LEN];
	size_t		 len;
	char		 addr[64];
	uint64_t	 prefixes = 1;
	int		 i;

	spk_up(90, NULL);
	CHECK(tpeer_new(&tp, "127.1.0.1") == 0, "attached");
	CHECK(tpeer_expect(&tp, BGP_OPEN, msg, &len), "the speaker's OPEN");
	CHECK(bgp_open_decode(msg, len, &o, &e) == 0, "it decodes");
	CHECK(o.version == 4 && o.my_as == SPK_AS && o.hold == 90 &&
	    o.bgp_id == SPK_ID, "version 4, AS %u, hold 90, id 192.0.2.1",
	    o.my_as);
	CHECK(o.caps.as4 && o.caps.as4_number == SPK_AS,
	    "4-octet AS capability (RFC 6793)");
	CHECK(o.caps.mp[BGP_AF_IPV4] && o.caps.mp[BGP_AF_IPV6],
	    "multiprotocol IPv4 and IPv6 unicast (RFC 4760)");
	CHECK(o.caps.route_refresh, "route refresh (RFC 2918)");

	send_open(&tp, PEER_AS4, 90, 0x7f010001);
	CHECK(tpeer_expect(&tp, BGP_KEEPALIVE, msg, &len),
	    "the peer's OPEN (AS_TRANS, 4-octet AS) answered with KEEPALIVE");
	CHECK(bgp_ctl_stats()->established == 0 && !bgp_ctl_peer(0, addr,
	    sizeof(addr), &prefixes), "OpenConfirm: not yet established");

	send_keepalive(&tp);
	for (i = 0; i < ROUNDS && bgp_ctl_stats()->established == 0; i++)
		pump_round(i, 0);
	CHECK(bgp_ctl_stats()->established == 1 &&
	    bgp_ctl_stats()->sessions == 1, "KEEPALIVE: Established");
	CHECK(bgp_ctl_peer(0, addr, sizeof(addr), &prefixes) &&
	    strcmp(addr, "bgp://127.1.0.1") == 0 && prefixes == 0,
	    "the peer is listed by its address: %s", addr);
	CHECK(bgp_ctl_peer_exists("bgp://127.1.0.1"), "found by name");

	/* KEEPALIVEs in Established change nothing. */
	send_keepalive(&tp);
	send_keepalive(&tp);
	CHECK(tpeer_quiet(&tp, 0) && bgp_ctl_stats()->established == 1 &&
	    bgp_ctl_stats()->notifications_sent == 0,
	    "KEEPALIVEs in Established: still up, nothing sent back");
	spk_down(&tp, 1);
}

/* Route-server style (no monitors): a peer's UPDATE is learned into the
 * Loc-RIB and sent to the other peer with our AS in front and ourselves
 * as next hop (eBGP, section 5.1.2-3), not back to the peer it came from;
 * its withdrawal follows the same way. */
static void
test_update_flow(void)
{
	struct tpeer		 tp[2];
	struct bgp_attrs	 a;
	struct bgp_ctl_route	 r;
	uint8_t			 msg[BGP_MAX_LEN];
	size_t			 len;
	char			 got[256], nh[INET_ADDRSTRLEN];
	uint64_t		 cursor = 0, prefixes = 0;
	const struct bgp_ctl_stats *st;

	spk_up(90, NULL);
	CHECK(tpeer_new(&tp[0], "127.1.0.1") == 0 &&
	    establish(&tp[0], 65001, 90, 0x7f010001), "A established");
	CHECK(tpeer_new(&tp[1], "127.1.0.2") == 0 &&
	    establish(&tp[1], PEER_AS4, 90, 0x7f010002), "B established");

	send_update(&tp[0], 65001, 0, 3, 0);
	CHECK(rib_is(3), "3 prefixes in the Loc-RIB");
	st = bgp_ctl_stats();
	CHECK(st->updates_received == 1 && st->prefixes_received == 3,
	    "counted: %llu UPDATE, %llu prefixes",
	    (unsigned long long)st->updates_received,
	    (unsigned long long)st->prefixes_received);
	CHECK(bgp_ctl_loc_rib_next(BGP_AF_IPV4, &cursor, &r) &&
	    strcmp(r.peer, "bgp://127.1.0.1") == 0 && r.attrs->n_as == 1 &&
	    r.attrs->as_path[0] == 65001, "a Loc-RIB path from A: %s",
	    r.peer);
	CHECK(bgp_ctl_peer(0, got, sizeof(got), &prefixes) &&
	    prefixes == 3, "A gave 3 prefixes");

	CHECK(tpeer_expect(&tp[1], BGP_UPDATE, msg, &len), "B hears of them");
	CHECK(update_prefixes(msg, len, 0, got, sizeof(got), &a) == 0 &&
	    strcmp(got, "10.1.0.0/24 10.1.1.0/24 10.1.2.0/24") == 0,
	    "in one UPDATE: %s", got);
	inet_ntop(AF_INET, a.next_hop4, nh, sizeof(nh));
	CHECK(a.n_as == 2 && a.as_path[0] == SPK_AS &&
	    a.as_path[1] == 65001 && strcmp(nh, "127.0.0.1") == 0 &&
	    !a.has_local_pref, "AS_PATH %u %u, NEXT_HOP %s, no LOCAL_PREF",
	    a.as_path[0], a.as_path[1], nh);
	/* No Adj-RIB-Out is kept: A is told the prefixes are withdrawn,
	 * in case it had heard another peer's path for them from us. */
	CHECK(tpeer_expect(&tp[0], BGP_UPDATE, msg, &len) &&
	    update_prefixes(msg, len, 0, got, sizeof(got), &a) == 0 &&
	    got[0] == '\0' && update_prefixes(msg, len, 1, got, sizeof(got),
	    &a) == 0 && strcmp(got, "10.1.0.0/24 10.1.1.0/24 10.1.2.0/24") ==
	    0, "A does not get its own routes back, only a withdrawal: %s",
	    got);
	CHECK(tpeer_quiet(&tp[0], 0), "nothing more to A");
	CHECK(st->updates_sent == 2 && st->prefixes_advertised == 3 &&
	    st->withdrawals_advertised == 3,
	    "counted: %llu UPDATEs sent, %llu prefixes, %llu withdrawn",
	    (unsigned long long)st->updates_sent,
	    (unsigned long long)st->prefixes_advertised,
	    (unsigned long long)st->withdrawals_advertised);

	send_update(&tp[0], 65001, 0, 2, 1);
	CHECK(rib_is(1), "a withdrawal of 2: 1 prefix left");
	CHECK(tpeer_expect(&tp[1], BGP_UPDATE, msg, &len) &&
	    update_prefixes(msg, len, 1, got, sizeof(got), &a) == 0 &&
	    strcmp(got, "10.1.0.0/24 10.1.1.0/24") == 0,
	    "B hears them withdrawn: %s", got);
	CHECK(tpeer_expect(&tp[0], BGP_UPDATE, msg, &len) &&
	    update_prefixes(msg, len, 1, got, sizeof(got), &a) == 0 &&
	    strcmp(got, "10.1.0.0/24 10.1.1.0/24") == 0,
	    "and so does A: %s", got);
	CHECK(st->withdrawals_received == 2 &&
	    st->withdrawals_advertised == 7, "withdrawals counted: %llu in, "
	    "%llu out", (unsigned long long)st->withdrawals_received,
	    (unsigned long long)st->withdrawals_advertised);
	spk_down(tp, 2);
}

/* With --bgp-monitor, only the monitor hears the routes; a peer that
 * goes away takes its routes with it (section 8.2.2), and the monitor
 * hears them withdrawn. */
static void
test_monitor(void)
{
	struct tpeer		 tp[3];
	struct bgp_attrs	 a;
	uint8_t			 msg[BGP_MAX_LEN];
	size_t			 len;
	char			 got[256];
	int			 i;

	spk_up(90, "127.1.0.9");
	CHECK(tpeer_new(&tp[0], "127.1.0.1") == 0 &&
	    establish(&tp[0], 65001, 90, 0x7f010001), "A established");
	CHECK(tpeer_new(&tp[1], "127.1.0.2") == 0 &&
	    establish(&tp[1], 65002, 90, 0x7f010002), "B established");
	CHECK(tpeer_new(&tp[2], "127.1.0.9") == 0 &&
	    establish(&tp[2], 65009, 90, 0x7f010009),
	    "the monitor established");

	send_update(&tp[0], 65001, 0, 2, 0);
	CHECK(rib_is(2), "2 prefixes learned");
	CHECK(tpeer_expect(&tp[2], BGP_UPDATE, msg, &len) &&
	    update_prefixes(msg, len, 0, got, sizeof(got), &a) == 0 &&
	    strcmp(got, "10.1.0.0/24 10.1.1.0/24") == 0,
	    "the monitor hears them: %s", got);
	CHECK(tpeer_quiet(&tp[1], 0), "B, not a monitor, hears nothing");

	tpeer_close(&tp[0]);
	for (i = 0; i < ROUNDS && bgp_ctl_stats()->established != 2; i++)
		pump_round(i, 0);
	CHECK(bgp_ctl_stats()->established == 2, "A closed: gone");
	CHECK(rib_is(0), "its routes left the Loc-RIB");
	CHECK(tpeer_expect(&tp[2], BGP_UPDATE, msg, &len) &&
	    update_prefixes(msg, len, 1, got, sizeof(got), &a) == 0 &&
	    strcmp(got, "10.1.0.0/24 10.1.1.0/24") == 0,
	    "the monitor hears them withdrawn: %s", got);
	CHECK(bgp_ctl_stats()->notifications_sent == 0, "no NOTIFICATION");
	spk_down(tp, 3);
}

/* RFC 7606 section 7.1: a bad ORIGIN value spoils only the UPDATE's own
 * routes, which are withdrawn; the session stays up.  An UPDATE that
 * cannot be parsed at all (section 4 there: the withdrawn length past
 * the message) still resets it. */
static void
test_treat_as_withdraw(void)
{
	struct tpeer	tp;

	spk_up(90, NULL);
	CHECK(tpeer_new(&tp, "127.1.0.1") == 0 &&
	    establish(&tp, 65001, 90, 0x7f010001), "established");
	send_update(&tp, 65001, 0, 2, 0);
	CHECK(rib_is(2), "2 prefixes learned");
	/* ORIGIN 3, AS_PATH 65001, NEXT_HOP 127.1.0.1; NLRI 10.1.0.0/24. */
	send_hex(&tp, MARKER "00 2f 02 " "00 00 " "00 14 "
	    "40 01 01 03 "
	    "40 02 06 02 01 00 00 fd e9 "
	    "40 03 04 7f 01 00 01 "
	    "18 0a 01 00");
	CHECK(rib_is(1), "its prefix withdrawn, the other kept");
	CHECK(bgp_ctl_stats()->treat_as_withdraw == 1,
	    "treat-as-withdraw counted");
	CHECK(tpeer_quiet(&tp, 1) && bgp_ctl_stats()->established == 1 &&
	    bgp_ctl_stats()->notifications_sent == 0,
	    "no NOTIFICATION, still Established");

	/* Withdrawn Routes Length 255 in a 23-byte UPDATE. */
	send_hex(&tp, MARKER "00 17 02 00 ff 00 00");
	CHECK(tpeer_notified(&tp, BGP_ERR_UPDATE, BGP_ERR_UPD_ATTRLIST, 0),
	    "withdrawn length past the message: NOTIFICATION malformed "
	    "attribute list, closed");
	CHECK(rib_is(0) && bgp_ctl_stats()->notifications_sent == 1 &&
	    bgp_ctl_stats()->established == 0, "counted; its route gone");
	spk_down(&tp, 1);
}

/* Message header errors (section 6.1) end the session with a NOTIFICATION
 * of code 1 and the subcode that says what was wrong; the peer's routes
 * go with it. */
static void
test_bad_header(void)
{
	struct tpeer	tp[3];

	spk_up(90, NULL);
	CHECK(tpeer_new(&tp[0], "127.1.0.1") == 0 &&
	    establish(&tp[0], 65001, 90, 0x7f010001), "A established");
	CHECK(tpeer_new(&tp[1], "127.1.0.2") == 0 &&
	    establish(&tp[1], 65002, 90, 0x7f010002), "B established");
	CHECK(tpeer_new(&tp[2], "127.1.0.3") == 0 &&
	    establish(&tp[2], 65003, 90, 0x7f010003), "C established");
	send_update(&tp[0], 65001, 0, 2, 0);
	CHECK(rib_is(2), "A's 2 prefixes learned");

	/* A KEEPALIVE whose marker is not all ones. */
	send_hex(&tp[0], "ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff 00 "
	    "00 13 04");
	CHECK(tpeer_notified(&tp[0], BGP_ERR_HEADER, BGP_ERR_HDR_SYNC, 0),
	    "bad marker: NOTIFICATION connection not synchronized, closed");
	CHECK(rib_is(0), "A's routes dropped");
	send_hex(&tp[1], MARKER "00 14 04 00");
	CHECK(tpeer_notified(&tp[1], BGP_ERR_HEADER, BGP_ERR_HDR_LEN, 0),
	    "a KEEPALIVE of 20 bytes: bad message length");
	send_hex(&tp[2], MARKER "00 13 09");
	CHECK(tpeer_notified(&tp[2], BGP_ERR_HEADER, BGP_ERR_HDR_TYPE, 0),
	    "type 9: bad message type");
	CHECK(bgp_ctl_stats()->notifications_sent == 3 &&
	    bgp_ctl_stats()->established == 0, "3 NOTIFICATIONs counted, "
	    "none established");
	spk_down(tp, 3);
}

/* A message the state does not take: FSM error (RFC 6608) with the
 * state's subcode; a bad OPEN: OPEN message error (section 6.2). */
static void
test_wrong_state(void)
{
	struct tpeer	tp[5];
	uint8_t		msg[BGP_MAX_LEN];
	size_t		len;

	spk_up(90, NULL);
	CHECK(tpeer_new(&tp[0], "127.1.0.1") == 0 &&
	    tpeer_expect(&tp[0], BGP_OPEN, msg, &len), "A in OpenSent");
	send_update(&tp[0], 65001, 0, 1, 0);
	CHECK(tpeer_notified(&tp[0], BGP_ERR_FSM, BGP_ERR_FSM_OPENSENT, 0),
	    "UPDATE in OpenSent: FSM error, OpenSent");

	CHECK(tpeer_new(&tp[1], "127.1.0.2") == 0 &&
	    tpeer_expect(&tp[1], BGP_OPEN, msg, &len), "B in OpenSent");
	send_open(&tp[1], 65002, 90, 0x7f010002);
	CHECK(tpeer_expect(&tp[1], BGP_KEEPALIVE, msg, &len),
	    "B in OpenConfirm");
	send_open(&tp[1], 65002, 90, 0x7f010002);
	CHECK(tpeer_notified(&tp[1], BGP_ERR_FSM, BGP_ERR_FSM_OPENCONFIRM, 0),
	    "a second OPEN in OpenConfirm: FSM error, OpenConfirm");

	CHECK(tpeer_new(&tp[2], "127.1.0.3") == 0 &&
	    establish(&tp[2], 65003, 90, 0x7f010003), "C established");
	send_open(&tp[2], 65003, 90, 0x7f010003);
	CHECK(tpeer_notified(&tp[2], BGP_ERR_FSM, BGP_ERR_FSM_ESTABLISHED, 0),
	    "OPEN in Established: FSM error, Established");

	CHECK(tpeer_new(&tp[3], "127.1.0.4") == 0 &&
	    tpeer_expect(&tp[3], BGP_OPEN, msg, &len), "D in OpenSent");
	send_open(&tp[3], 65004, 90, SPK_ID);
	CHECK(tpeer_notified(&tp[3], BGP_ERR_OPEN, BGP_ERR_OPEN_BGPID, 0),
	    "an OPEN with our BGP identifier: bad BGP identifier");
	CHECK(tpeer_new(&tp[4], "127.1.0.5") == 0 &&
	    tpeer_expect(&tp[4], BGP_OPEN, msg, &len), "E in OpenSent");
	send_open(&tp[4], 65005, 2, 0x7f010005);
	CHECK(tpeer_notified(&tp[4], BGP_ERR_OPEN, BGP_ERR_OPEN_HOLD, 0),
	    "an OPEN with hold time 2: unacceptable hold time");
	CHECK(bgp_ctl_stats()->notifications_sent == 5 &&
	    bgp_ctl_stats()->established == 0 &&
	    bgp_ctl_stats()->sessions == 1, "5 NOTIFICATIONs counted");
	spk_down(tp, 5);
}

/* A NOTIFICATION from the peer ends the session (section 8.2.2): counted,
 * its routes withdrawn from the others, its connection closed; nothing
 * sent back. */
static void
test_peer_notification(void)
{
	struct tpeer		 tp[2];
	struct bgp_attrs	 a;
	uint8_t			 msg[BGP_MAX_LEN];
	size_t			 len;
	char			 got[256];
	int			 i;
	uint8_t			 type;

	spk_up(90, NULL);
	CHECK(tpeer_new(&tp[0], "127.1.0.1") == 0 &&
	    establish(&tp[0], 65001, 90, 0x7f010001), "A established");
	CHECK(tpeer_new(&tp[1], "127.1.0.2") == 0 &&
	    establish(&tp[1], 65002, 90, 0x7f010002), "B established");
	send_update(&tp[0], 65001, 0, 1, 0);
	CHECK(rib_is(1) && tpeer_expect(&tp[1], BGP_UPDATE, msg, &len),
	    "A's prefix learned and sent to B");

	/* Cease, administrative shutdown. */
	send_hex(&tp[0], MARKER "00 15 03 06 02");
	for (i = 0; i < ROUNDS && !tp[0].eof; i++) {
		pump_round(i, 0);
		tpeer_drain(&tp[0]);
	}
	while ((type = tpeer_take(&tp[0], msg, &len)) != 0 &&
	    type != BGP_NOTIFICATION)
		;
	CHECK(tp[0].eof && type == 0,
	    "the speaker closed, with no NOTIFICATION back");
	CHECK(bgp_ctl_stats()->notifications_received == 1 &&
	    bgp_ctl_stats()->notifications_sent == 0 &&
	    bgp_ctl_stats()->established == 1, "counted; B still up");
	CHECK(rib_is(0), "A's prefix left the Loc-RIB");
	CHECK(tpeer_expect(&tp[1], BGP_UPDATE, msg, &len) &&
	    update_prefixes(msg, len, 1, got, sizeof(got), &a) == 0 &&
	    strcmp(got, "10.1.0.0/24") == 0, "B hears it withdrawn: %s", got);
	spk_down(tp, 2);
}

/* Rounds until the loop holds no more events than before; 1 then. */
static int
events_back_to(int before)
{
	int	i;

	for (i = 0; i < ROUNDS; i++) {
		if (event_base_get_num_events(engine_base(),
		    EVENT_BASE_COUNT_ADDED) <= before)
			return 1;
		pump_round(i, 0);
	}
	return 0;
}

/* A peer that closes in OpenSent or OpenConfirm: the session is freed
 * (its events leave the loop), nothing counted as an error. */
static void
test_close_mid_handshake(void)
{
	struct tpeer	tp;
	uint8_t		msg[BGP_MAX_LEN];
	size_t		len;
	int		before;

	spk_up(90, NULL);
	before = event_base_get_num_events(engine_base(),
	    EVENT_BASE_COUNT_ADDED);
	CHECK(tpeer_new(&tp, "127.1.0.1") == 0 &&
	    tpeer_expect(&tp, BGP_OPEN, msg, &len), "in OpenSent");
	CHECK(event_base_get_num_events(engine_base(),
	    EVENT_BASE_COUNT_ADDED) > before, "its events in the loop");
	tpeer_close(&tp);
	CHECK(events_back_to(before), "closed in OpenSent: freed");

	CHECK(tpeer_new(&tp, "127.1.0.1") == 0 &&
	    tpeer_expect(&tp, BGP_OPEN, msg, &len), "again, in OpenSent");
	send_open(&tp, 65001, 90, 0x7f010001);
	CHECK(tpeer_expect(&tp, BGP_KEEPALIVE, msg, &len), "in OpenConfirm");
	tpeer_close(&tp);
	CHECK(events_back_to(before), "closed in OpenConfirm: freed");
	CHECK(bgp_ctl_stats()->sessions == 0 &&
	    bgp_ctl_stats()->notifications_sent == 0, "nothing counted");

	/* The address is free again: a session from it comes up. */
	CHECK(tpeer_new(&tp, "127.1.0.1") == 0 &&
	    establish(&tp, 65001, 90, 0x7f010001), "a new session comes up");
	spk_down(&tp, 1);
}

/*
 * The hold timer (section 6.5) with a 3 s hold time, the least allowed:
 * KEEPALIVEs every hold/3 keep A up (it answers each); B, Established,
 * and C, in OpenConfirm (it never sends its KEEPALIVE), fall silent and
 * get Hold Timer Expired.  The OpenSent hold time is a fixed 240 s
 * (section 8.2.2's "large value"), not driven here.
 */
static void
test_hold_timer(void)
{
	struct tpeer	tp[3];
	uint8_t		msg[BGP_MAX_LEN];
	size_t		len;
	int		i, kas = 0, done_b = 0, done_c = 0;
	uint8_t		c, s, type;

	spk_up(3, NULL);
	CHECK(tpeer_new(&tp[0], "127.1.0.1") == 0 &&
	    establish(&tp[0], 65001, 3, 0x7f010001), "A established");
	CHECK(tpeer_new(&tp[1], "127.1.0.2") == 0 &&
	    establish(&tp[1], 65002, 90, 0x7f010002),
	    "B established (offers 90, gets ours, 3)");
	CHECK(tpeer_new(&tp[2], "127.1.0.3") == 0 &&
	    tpeer_expect(&tp[2], BGP_OPEN, msg, &len), "C in OpenSent");
	send_open(&tp[2], 65003, 3, 0x7f010003);
	CHECK(tpeer_expect(&tp[2], BGP_KEEPALIVE, msg, &len),
	    "C in OpenConfirm");

	/* 3 s at 200 ms a tick: 15 ticks; the bound is many more rounds. */
	for (i = 0; i < 10 * ROUNDS && !(done_b && done_c); i++) {
		pump(1);
		tpeer_drain(&tp[0]);
		while ((type = tpeer_take(&tp[0], msg, &len)) != 0)
			if (type == BGP_KEEPALIVE) {
				kas++;
				send_keepalive(&tp[0]);
			}
		tpeer_drain(&tp[1]);
		tpeer_drain(&tp[2]);
		done_b = done_b || tp[1].eof;
		done_c = done_c || tp[2].eof;
	}
	for (i = 1; i < 3; i++) {
		c = s = 0;
		while ((type = tpeer_take(&tp[i], msg, &len)) != 0 &&
		    type != BGP_NOTIFICATION)
			;
		if (type == BGP_NOTIFICATION)
			bgp_notification_decode(msg, len, &c, &s);
		CHECK(tp[i].eof && c == BGP_ERR_HOLD && s == 0,
		    "%s: Hold Timer Expired (%u/%u), closed", i == 1 ?
		    "B, Established" : "C, OpenConfirm", c, s);
	}
	CHECK(kas >= 2, "A got KEEPALIVEs every hold/3: %d", kas);
	CHECK(bgp_ctl_stats()->established == 1 &&
	    bgp_ctl_stats()->notifications_sent == 2,
	    "A, answering, still up; 2 NOTIFICATIONs counted");
	spk_down(tp, 3);
}

static const struct check_case cases[] = {
	CASE(test_handshake),
	CASE(test_update_flow),
	CASE(test_monitor),
	CASE(test_treat_as_withdraw),
	CASE(test_bad_header),
	CASE(test_wrong_state),
	CASE(test_peer_notification),
	CASE(test_close_mid_handshake),
	CASE(test_hold_timer),
};

int
main(int argc, char **argv)
{
	int	rc;

	log_init("test_bgp_ctl", getenv("TEST_VERBOSE") ? 3 : LOG_QUIET);
	engine_init();
	rc = check_run(cases, argc, argv);
	engine_free();
	return rc;
}
