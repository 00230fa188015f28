/*
 * libFuzzer harness for the BMP codec (sims/bgp/bgp_bmp.c, RFC 7854) as
 * the station reads a session: a stream of messages framed by their
 * common headers (bmp_header_length, at most BMP_MAX_MSG), each whole one
 * decoded (bmp_decode); a Route Monitoring's UPDATE then goes to the BGP
 * decoder (4-octet AS on and off) and its NLRI are walked, a Peer Up's
 * OPENs to bgp_open_decode.  The stream ends at the first bad header or a
 * message longer than what is left.
 *
 * Properties (abort on failure): a refused message says why; what a
 * decoded one points at (the UPDATE, the OPENs, a Peer Down's PDU) lies
 * within it; a Route Monitoring carries one UPDATE, a Peer Up two OPENs;
 * the statistics seen are of types 0..8 only.
 *
 * Built without SBSIM_LIBFUZZER, main() with no argument runs the
 * self-test (every prefix and one-byte mutation of a stream of each
 * message type built by the encoders), or the harness once on each file
 * named.  See tests/fuzz/README.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgp_bmp.h"
#include "bgp_codec.h"
#include "buf.h"
#include "fuzz_driver.h"

static int
fz_within(const uint8_t *msg, size_t len, const uint8_t *p, size_t n)
{
	return p >= msg && p + n <= msg + len;
}

static void
fz_update(const struct bmp_msg *m)
{
	struct bgp_sess_caps	sc;
	struct bgp_update	u;
	struct bgp_err		e;
	struct bgp_prefix	p;
	struct rbuf		r;
	int			as4;

	for (as4 = 0; as4 < 2; as4++) {
		memset(&sc, 0, sizeof(sc));
		sc.as4 = (uint8_t)as4;
		if (bgp_update_decode(m->pdu, m->pdu_len, &sc, &u, &e) == -1)
			continue;
		r = u.nlri;
		while (bgp_nlri_next(&r, BGP_AF_IPV4, 0, &p) == 1)
			;
	}
}

static void
fz_message(const uint8_t *msg, size_t len)
{
	struct bmp_msg	m;
	struct bgp_open	o;
	struct bgp_err	e;

	if (bmp_decode(msg, len, &m) == -1) {
		FZ_CHECK(m.why != NULL);
		return;
	}
	FZ_CHECK((m.stat_seen & ~0x1ffu) == 0);
	switch (m.type) {
	case BMP_ROUTE_MONITORING:
		FZ_CHECK(fz_within(msg, len, m.pdu, m.pdu_len));
		FZ_CHECK(m.pdu + m.pdu_len == msg + len);
		fz_update(&m);
		break;
	case BMP_PEER_UP:
		FZ_CHECK(fz_within(msg, len, m.sent_open, m.sent_open_len));
		FZ_CHECK(fz_within(msg, len, m.recv_open, m.recv_open_len));
		(void)bgp_open_decode(m.sent_open, m.sent_open_len, &o, &e);
		(void)bgp_open_decode(m.recv_open, m.recv_open_len, &o, &e);
		break;
	case BMP_PEER_DOWN:
		FZ_CHECK(m.down_reason >= 1 && m.down_reason <= 5);
		FZ_CHECK(m.pdu_len == 0 ||
		    fz_within(msg, len, m.pdu, m.pdu_len));
		break;
	default:
		break;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	long	len;

	while (size >= BMP_HDR_LEN) {
		len = bmp_header_length(data, BMP_MAX_MSG);
		if (len == -1 || (size_t)len > size)
			break;
		fz_message(data, (size_t)len);
		data += len;
		size -= (size_t)len;
	}
	return 0;
}

#ifndef SBSIM_LIBFUZZER
/* One message of each type, as the routers send them. */
static void
fz_seeds(struct wbuf *w)
{
	struct bmp_peer_hdr	h = { .flags = BMP_PF_L, .as = 65001,
	    .bgp_id = 0xac100001 };
	static const uint16_t	types[] = { 0, 7, 8 };
	static const uint64_t	vals[] = { 1, 2, 3 };
	struct bgp_open		o = { .version = 4, .my_as = 65001,
	    .hold = 90, .bgp_id = 1 };
	struct bgp_attrs	a = { .n_as = 1, .as_path = { 65001 } };
	struct bgp_sess_caps	sc = { .as4 = 1 };
	struct bgp_prefix	p;
	struct bgp_ub		ub;
	uint8_t			ob[128], local[16] = { 0 };
	struct wbuf		ow;
	size_t			start;

	bmp_initiation(w, "r", "d");
	wbuf_init(&ow, ob, sizeof(ob));
	o.caps.as4 = 1;
	o.caps.as4_number = 65001;
	bgp_open_encode(&ow, &o);
	bmp_peer_up(w, &h, local, 179, 1024, ob, ow.len, ob, ow.len);
	start = bmp_begin(w, BMP_ROUTE_MONITORING);
	bmp_peer_hdr_put(w, &h);
	bgp_ub_begin(&ub, w, BGP_AF_IPV4, 0, 0, &a, &sc, 4096);
	bgp_prefix_parse("10.0.0.0/24", &p);
	bgp_ub_add_run(&ub, &p, 3);
	bgp_ub_end(&ub);
	bmp_end(w, start);
	bmp_stats(w, &h, types, vals, 3);
	wbuf_init(&ow, ob, sizeof(ob));
	bgp_notification_encode(&ow, 6, 2, NULL, 0);
	bmp_peer_down(w, &h, BMP_DOWN_LOCAL_NOTIFY, ob, ow.len);
	bmp_termination(w, 0);
}

int
main(int argc, char **argv)
{
	static uint8_t	seed[4096];
	struct wbuf	w;

	if (argc < 2) {
		wbuf_init(&w, seed, sizeof(seed));
		fz_seeds(&w);
		FZ_CHECK(!w.err);
		printf("self-test: %zu inputs run\n",
		    fuzz_mutations(seed, w.len));
		return 0;
	}
	return fuzz_run_files(argc, argv);
}
#endif
