/*
 * The BMP codec (sims/bgp/bgp_bmp.c, RFC 7854): each message type built
 * and decoded back to what went in (Initiation, Termination, Peer Up with
 * both OPENs, Peer Down of reasons 1 to 5, Route Monitoring pre- and
 * post-policy, Statistics Report of types 0 to 8), the common header's
 * checks, and malformed input: every truncation and every one-byte
 * change of each valid message decodes or is refused with a reason,
 * never read past (run under the sanitizers this is the bounds check).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgp_bmp.h"
#include "bgp_codec.h"
#include "check.h"

static uint8_t	mem[8192];

static struct bmp_peer_hdr
hdr(uint8_t flags)
{
	struct bmp_peer_hdr	h;

	memset(&h, 0, sizeof(h));
	h.flags = flags;
	h.rd = 0x0001000200000003ull;
	h.addr[12] = 192, h.addr[13] = 0, h.addr[14] = 2, h.addr[15] = 9;
	h.as = 4200000001u;
	h.bgp_id = 0xc0000209;
	h.ts_sec = 1700000000;
	h.ts_usec = 123456;
	return h;
}

static size_t
open_msg(uint8_t *out, size_t cap, uint32_t as, uint32_t id)
{
	struct wbuf	w;
	struct bgp_open	o;

	memset(&o, 0, sizeof(o));
	o.version = 4;
	o.my_as = 23456;
	o.hold = 90;
	o.bgp_id = id;
	o.caps.as4 = 1;
	o.caps.as4_number = as;
	o.caps.mp[BGP_AF_IPV4] = 1;
	wbuf_init(&w, out, cap);
	bgp_open_encode(&w, &o);
	return w.len;
}

/* Every prefix of a decoded Route Monitoring's UPDATE. */
static unsigned
rm_prefixes(const struct bmp_msg *m)
{
	struct bgp_sess_caps	sc = { .as4 = 1 };
	struct bgp_update	u;
	struct bgp_err		e;
	struct bgp_prefix	p;
	struct rbuf		r;
	unsigned		n = 0;

	if (bgp_update_decode(m->pdu, m->pdu_len, &sc, &u, &e) == -1)
		return 0;
	r = u.nlri;
	while (bgp_nlri_next(&r, BGP_AF_IPV4, 0, &p) == 1)
		n++;
	return n;
}

static size_t
build_rm(struct wbuf *w, int post, unsigned n)
{
	struct bmp_peer_hdr	h = hdr(post ? BMP_PF_L : 0);
	struct bgp_attrs	a;
	struct bgp_sess_caps	sc = { .as4 = 1 };
	struct bgp_ub		ub;
	struct bgp_prefix	p;
	size_t			start = bmp_begin(w, BMP_ROUTE_MONITORING);

	memset(&a, 0, sizeof(a));
	a.n_as = 1;
	a.as_path[0] = 65001;
	a.next_hop4[0] = 192, a.next_hop4[3] = 1;
	bmp_peer_hdr_put(w, &h);
	bgp_ub_begin(&ub, w, BGP_AF_IPV4, 0, 0, &a, &sc, 4096);
	bgp_prefix_parse("10.0.0.0/24", &p);
	bgp_ub_add_run(&ub, &p, n);
	bgp_ub_end(&ub);
	bmp_end(w, start);
	return w->len;
}

static void
test_route_monitoring(void)
{
	struct wbuf	w;
	struct bmp_msg	m;
	int		post;

	for (post = 0; post < 2; post++) {
		wbuf_init(&w, mem, sizeof(mem));
		build_rm(&w, post, 100);
		CHECK(bmp_decode(w.data, w.len, &m) == 0, "RM %d decodes", post);
		CHECK(m.type == BMP_ROUTE_MONITORING, "its type");
		CHECK(((m.peer.flags & BMP_PF_L) != 0) == post, "L flag %d",
		    post);
		CHECK(m.peer.as == 4200000001u && m.peer.bgp_id == 0xc0000209 &&
		    m.peer.rd == 0x0001000200000003ull &&
		    m.peer.ts_usec == 123456, "per-peer header back");
		CHECK(rm_prefixes(&m) == 100, "100 routes in its UPDATE");
	}
}

static void
test_initiation_termination(void)
{
	struct wbuf	w;
	struct bmp_msg	m;

	wbuf_init(&w, mem, sizeof(mem));
	bmp_initiation(&w, "r1", "a router");
	CHECK(bmp_decode(w.data, w.len, &m) == 0 && m.type == BMP_INITIATION,
	    "initiation decodes");
	CHECK(strcmp(m.sys_name, "r1") == 0 &&
	    strcmp(m.sys_descr, "a router") == 0, "sysName, sysDescr");
	wbuf_init(&w, mem, sizeof(mem));
	bmp_termination(&w, 2);
	CHECK(bmp_decode(w.data, w.len, &m) == 0 && m.term_reason == 2,
	    "termination reason 2");
}

static void
test_peer_up(void)
{
	struct bmp_peer_hdr	h = hdr(0);
	uint8_t			o1[128], o2[128], local[16] = { 0 };
	size_t			l1 = open_msg(o1, sizeof(o1), 65001, 1);
	size_t			l2 = open_msg(o2, sizeof(o2), 4200000001u, 2);
	struct wbuf		w;
	struct bmp_msg		m;

	local[15] = 7;
	wbuf_init(&w, mem, sizeof(mem));
	bmp_peer_up(&w, &h, local, 179, 40000, o1, l1, o2, l2);
	CHECK(bmp_decode(w.data, w.len, &m) == 0 && m.type == BMP_PEER_UP,
	    "peer up decodes");
	CHECK(m.local[15] == 7 && m.local_port == 179 &&
	    m.remote_port == 40000, "addresses and ports");
	CHECK_BYTES(m.sent_open, m.sent_open_len, o1, l1, "sent OPEN");
	CHECK_BYTES(m.recv_open, m.recv_open_len, o2, l2, "received OPEN");
	/* One OPEN only: refused. */
	wbuf_init(&w, mem, sizeof(mem));
	bmp_peer_up(&w, &h, local, 179, 40000, o1, l1, NULL, 0);
	CHECK(bmp_decode(w.data, w.len, &m) == -1 && m.why != NULL,
	    "a peer up with one OPEN is refused: %s", m.why);
}

static void
test_peer_down(void)
{
	struct bmp_peer_hdr	h = hdr(0);
	uint8_t			note[32], fsm[2] = { 0, 5 };
	struct wbuf		w, nw;
	struct bmp_msg		m;
	uint8_t			reason;

	wbuf_init(&nw, note, sizeof(note));
	bgp_notification_encode(&nw, 6, 2, NULL, 0);
	for (reason = 1; reason <= 5; reason++) {
		wbuf_init(&w, mem, sizeof(mem));
		if (reason == 1 || reason == 3)
			bmp_peer_down(&w, &h, reason, nw.data, nw.len);
		else if (reason == 2)
			bmp_peer_down(&w, &h, reason, fsm, 2);
		else
			bmp_peer_down(&w, &h, reason, NULL, 0);
		CHECK(bmp_decode(w.data, w.len, &m) == 0 &&
		    m.down_reason == reason, "peer down reason %u", reason);
	}
	wbuf_init(&w, mem, sizeof(mem));
	bmp_peer_down(&w, &h, 1, NULL, 0);
	CHECK(bmp_decode(w.data, w.len, &m) == -1, "reason 1 without its "
	    "NOTIFICATION is refused");
	wbuf_init(&w, mem, sizeof(mem));
	bmp_peer_down(&w, &h, 6, NULL, 0);
	CHECK(bmp_decode(w.data, w.len, &m) == -1, "reason 6 is refused");
}

static void
test_stats(void)
{
	static const uint16_t	types[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 11 };
	uint64_t		v[10];
	struct bmp_peer_hdr	h = hdr(0);
	struct wbuf		w;
	struct bmp_msg		m;
	int			i;

	for (i = 0; i < 10; i++)
		v[i] = i < 7 ? (uint64_t)i * 10 : 5000000000ull + i;
	wbuf_init(&w, mem, sizeof(mem));
	bmp_stats(&w, &h, types, v, 10);
	CHECK(bmp_decode(w.data, w.len, &m) == 0 && m.stat_count == 10,
	    "statistics decode, 10 of them");
	CHECK(m.stat_seen == 0x1ff, "types 0..8 seen, 11 skipped");
	CHECK(m.stat[3] == 30 && m.stat[7] == 5000000007ull &&
	    m.stat[8] == 5000000008ull, "32-bit counters, 64-bit gauges");
	w.data[BMP_HDR_LEN + BMP_PEER_HDR_LEN + 4 + 3] = 8;	/* type 0 size */
	CHECK(bmp_decode(w.data, w.len, &m) == -1, "a counter of size 8 "
	    "is refused");
}

static void
test_header(void)
{
	uint8_t		b[8] = { 3, 0, 0, 0, 6, 4 };
	struct bmp_msg	m;

	CHECK(bmp_header_length(b, 100) == 6, "length 6");
	b[0] = 2;
	CHECK(bmp_header_length(b, 100) == -1, "version 2 refused");
	b[0] = 3, b[4] = 5;
	CHECK(bmp_header_length(b, 100) == -1, "below the header refused");
	b[1] = 0x7f, b[4] = 6;
	CHECK(bmp_header_length(b, 100) == -1, "a huge length refused");
	b[1] = 0, b[5] = 7;
	CHECK(bmp_decode(b, 6, &m) == -1, "type 7 refused");
	b[5] = 4;
	CHECK(bmp_decode(b, 7, &m) == -1, "length not the header's refused");
	CHECK(bmp_decode(b, 6, &m) == 0, "an empty initiation decodes");
}

/* Each truncation (its length patched to match) and each byte changed to
 * three values: decoded or refused with a reason. */
static void
mangle(const uint8_t *msg, size_t len, const char *what)
{
	uint8_t		*b = malloc(len);
	static const uint8_t vals[] = { 0x00, 0xff, 0x80 };
	struct bmp_msg	 m;
	size_t		 i, k, bad = 0, refused = 0;

	for (i = BMP_HDR_LEN; i < len; i++) {
		memcpy(b, msg, i);
		b[1] = b[2] = 0, b[3] = (uint8_t)(i >> 8), b[4] = (uint8_t)i;
		if (bmp_decode(b, i, &m) == -1)
			bad += m.why == NULL, refused++;
	}
	for (i = 0; i < len; i++)
		for (k = 0; k < 3; k++) {
			memcpy(b, msg, len);
			b[i] = vals[k];
			if (bmp_decode(b, len, &m) == -1)
				bad += m.why == NULL, refused++;
		}
	CHECK(bad == 0 && refused > 0, "%s: %zu mangled copies refused, each "
	    "with a reason", what, refused);
	free(b);
}

static void
test_malformed(void)
{
	uint8_t		o[128], local[16] = { 0 }, all[4096];
	size_t		ol = open_msg(o, sizeof(o), 65001, 1), n;
	struct bmp_peer_hdr h = hdr(0);
	static const uint16_t types[] = { 0, 7 };
	static const uint64_t v[] = { 1, 2 };
	struct wbuf	w;

	wbuf_init(&w, all, sizeof(all));
	build_rm(&w, 1, 20);
	mangle(all, w.len, "route monitoring");
	wbuf_init(&w, all, sizeof(all));
	bmp_peer_up(&w, &h, local, 1, 2, o, ol, o, ol);
	mangle(all, w.len, "peer up");
	wbuf_init(&w, all, sizeof(all));
	bmp_stats(&w, &h, types, v, 2);
	mangle(all, w.len, "statistics");
	wbuf_init(&w, all, sizeof(all));
	bmp_initiation(&w, "name", "descr");
	n = w.len;
	mangle(all, n, "initiation");
}

static const struct check_case cases[] = {
	CASE(test_header),
	CASE(test_route_monitoring),
	CASE(test_initiation_termination),
	CASE(test_peer_up),
	CASE(test_peer_down),
	CASE(test_stats),
	CASE(test_malformed),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
