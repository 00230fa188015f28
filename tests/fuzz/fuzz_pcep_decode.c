/*
 * libFuzzer harness for the PCEP decoders (docs/design.md, "Testing
 * layers").
 *
 * Input: a byte stream as a PCC or PCE reads it from TCP.  Messages are
 * framed with pcep_msg_split and each goes to the decoder of its type.
 * Besides "no crash, no leak, no UB" it checks that whatever decodes
 * re-encodes to bytes that decode again and re-encode to the same bytes
 * (Open, PCErr, PCNtf and every PCRpt/PCUpd/PCInitiate request), and that
 * a failed decode always says what to answer.
 *
 * Built without SBSIM_LIBFUZZER, main() runs the harness on each file
 * named on the command line; with no arguments it runs a self-test: the
 * messages the encoders build, every prefix of them, and every one-byte
 * mutation, so make check covers the decoders under the sanitizers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "pcep_codec.h"
#include "pcep_wire.h"
#include "fuzz_driver.h"

#define FZ_CAP	(PCEP_MAX_MSG + 1024)

static uint8_t	fz_a[FZ_CAP], fz_b[FZ_CAP];

/* A failed decode names a PCErr, a Close, or both. */
static void
fz_err_ok(const struct pcep_err *e)
{
	FZ_CHECK(e->type != 0 || e->close_reason != 0);
}

/* The body of the one message at the start of a wbuf. */
static void
fz_body(const struct wbuf *w, struct rbuf *body)
{
	struct pcep_header	h;
	struct pcep_err		e;
	struct rbuf		s;

	rbuf_init(&s, w->data, w->len);
	FZ_CHECK(pcep_msg_split(&s, &h, body, &e) == 1 &&
	    h.length == w->len);
}

static void
fz_req(uint8_t type, const struct pcep_lsp_req *req)
{
	static struct pcep_lsp_req	back;
	struct pcep_req_iter		it;
	struct pcep_err			e;
	struct wbuf			wa, wb;
	struct rbuf			body;

	wbuf_init(&wa, fz_a, sizeof(fz_a));
	FZ_CHECK(pcep_reqs_encode(&wa, type, req, 1) == 0);
	fz_body(&wa, &body);
	pcep_req_iter_init(&it, type, &body);
	FZ_CHECK(pcep_req_next(&it, &back, &e) == 1);
	FZ_CHECK(pcep_req_next(&it, &back, &e) == 0);
	wbuf_init(&wb, fz_b, sizeof(fz_b));
	FZ_CHECK(pcep_reqs_encode(&wb, type, &back, 1) == 0);
	FZ_CHECK(wa.len == wb.len && memcmp(fz_a, fz_b, wa.len) == 0);
}

static void
fz_reqs(uint8_t type, struct rbuf *body)
{
	static struct pcep_lsp_req	req;
	struct pcep_req_iter		it;
	struct pcep_err			e;
	int				rc;

	memset(&e, 0, sizeof(e));
	pcep_req_iter_init(&it, type, body);
	while ((rc = pcep_req_next(&it, &req, &e)) == 1)
		fz_req(type, &req);
	if (rc == -1)
		fz_err_ok(&e);
}

static void
fz_open(struct rbuf *body)
{
	struct pcep_open	op, back;
	struct pcep_err		e;
	struct wbuf		wa, wb;
	struct rbuf		b;

	memset(&e, 0, sizeof(e));
	if (pcep_open_decode(body, &op, &e) == -1) {
		FZ_CHECK(e.type == 1);
		return;
	}
	wbuf_init(&wa, fz_a, sizeof(fz_a));
	FZ_CHECK(pcep_open_encode(&wa, &op) == 0);
	fz_body(&wa, &b);
	FZ_CHECK(pcep_open_decode(&b, &back, &e) == 0);
	wbuf_init(&wb, fz_b, sizeof(fz_b));
	FZ_CHECK(pcep_open_encode(&wb, &back) == 0);
	FZ_CHECK(wa.len == wb.len && memcmp(fz_a, fz_b, wa.len) == 0);
}

static void
fz_errmsg(uint8_t type, struct rbuf *body)
{
	struct pcep_errmsg	em, back;
	struct pcep_err		e;
	struct wbuf		wa, wb;
	struct rbuf		b;

	memset(&e, 0, sizeof(e));
	if (pcep_errmsg_decode(body, type, &em, &e) == -1) {
		fz_err_ok(&e);
		return;
	}
	wbuf_init(&wa, fz_a, sizeof(fz_a));
	FZ_CHECK(pcep_errmsg_encode(&wa, type, &em) == 0);
	fz_body(&wa, &b);
	FZ_CHECK(pcep_errmsg_decode(&b, type, &back, &e) == 0);
	wbuf_init(&wb, fz_b, sizeof(fz_b));
	FZ_CHECK(pcep_errmsg_encode(&wb, type, &back) == 0);
	FZ_CHECK(wa.len == wb.len && memcmp(fz_a, fz_b, wa.len) == 0);
}

static void
fz_message(const struct pcep_header *h, struct rbuf *body)
{
	struct pcep_err	e;
	uint8_t		reason;

	switch (h->type) {
	case PCEP_MSG_OPEN:
		fz_open(body);
		break;
	case PCEP_MSG_CLOSE:
		memset(&e, 0, sizeof(e));
		if (pcep_close_decode(body, &reason, &e) == -1)
			fz_err_ok(&e);
		break;
	case PCEP_MSG_PCERR:
	case PCEP_MSG_PCNTF:
		fz_errmsg(h->type, body);
		break;
	case PCEP_MSG_PCRPT:
	case PCEP_MSG_PCUPD:
	case PCEP_MSG_PCINITIATE:
		fz_reqs(h->type, body);
		break;
	default:
		break;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pcep_header	h;
	struct pcep_err		e;
	struct rbuf		s, body;
	int			rc;

	rbuf_init(&s, data, size);
	memset(&e, 0, sizeof(e));
	while ((rc = pcep_msg_split(&s, &h, &body, &e)) == 1) {
		FZ_CHECK(h.length >= PCEP_HDR_LEN &&
		    rbuf_left(&body) == (size_t)h.length - PCEP_HDR_LEN);
		fz_message(&h, &body);
	}
	if (rc == -1)
		FZ_CHECK(e.close_reason == PCEP_CLOSE_MALFORMED);
	return 0;
}

#ifndef SBSIM_LIBFUZZER

#define IP(a, b, c, d)	((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d))

/* An SR policy association on the first request, a path protection one
 * (IPv6) on the second (RFC 8697, RFC 8745), and a binding SID each. */
static void
fz_seed_assoc(struct pcep_lsp_req *q)
{
	struct pcep_assoc	*a = &q[0].assoc[0], *p = &q[1].assoc[0];

	q[0].n_assoc = q[1].n_assoc = 1;
	a->af = 4;
	a->type = PCEP_ASSOC_T_SR_POLICY;
	a->id = 1;
	a->has_color = 1;
	a->color = 5;
	a->ep_af = 4;
	a->pol_name = "pol";
	a->pol_name_len = 3;
	a->cp_name = "cp";
	a->cp_name_len = 2;
	a->has_cpath_id = 1;
	a->has_pref = 1;
	a->pref = 100;
	p->af = 6;
	p->type = PCEP_ASSOC_T_PROTECTION;
	p->has_prot = 1;
	p->prot = PCEP_PROT_P;
	/* Binding SIDs (RFC 9604): an MPLS label, an SRv6 SID with its
	 * behavior. */
	q[0].lsp.has_bsid = 1;
	q[0].lsp.bsid.value = 24000u << PCEP_SR_LABEL_SHIFT;
	q[1].lsp.has_bsid = 1;
	q[1].lsp.bsid.bt = PCEP_BT_SRV6_BEHAVIOR;
	q[1].lsp.bsid.sid[0] = 0xfc;
	q[1].lsp.bsid.behavior[3] = 48;
}

/* An SRv6 path (RFC 9603): a SID-only hop and one with an IPv6 node NAI
 * and the SID structure. */
static void
fz_seed_srv6(struct pcep_lsp_req *q)
{
	static const uint8_t	sid[16] = { 0xfc, [15] = 1 };
	struct pcep_hop		*h = &q->ero.hop[1];

	q->srp.has_pst = 1;
	q->srp.pst = PCEP_PST_SRV6;
	q->ero.n = 2;
	pcep_hop_srv6(&q->ero.hop[0], sid, PCEP_SRV6_END);
	pcep_hop_srv6(h, sid, 48);
	h->nt = PCEP_NAI_IPV6_NODE;
	h->sr_flags = PCEP_SRV6_FLAG_T;
	h->nai_len = 16;
	h->nai[0] = 0x20;
	h->sid_struct[0] = 32;
}

/* Seeds: one message of every kind the encoders build. */
static void
fz_seeds(struct wbuf *w)
{
	struct pcep_lsp_req	q[2];
	struct pcep_errmsg	em;
	struct pcep_open	op;
	struct pcep_err		e;

	memset(&op, 0, sizeof(op));
	op.keepalive = 30;
	op.deadtimer = 120;
	op.has_stateful = 1;
	op.stateful_flags = PCEP_STATEFUL_U | PCEP_STATEFUL_I;
	op.n_pst = 2;
	op.pst[1] = PCEP_PST_SR;
	op.has_sr = 1;
	op.msd = 10;
	op.has_db_version = 1;
	op.db_version = 1;
	op.n_assoc_types = 2;
	op.assoc_types[0] = PCEP_ASSOC_T_PROTECTION;
	op.assoc_types[1] = PCEP_ASSOC_T_SR_POLICY;
	pcep_open_encode(w, &op);
	pcep_keepalive_encode(w);
	memset(q, 0, sizeof(q));
	q[0].lsp.plsp_id = 1;
	q[0].lsp.flags = PCEP_LSP_FLAG_D | PCEP_LSP_FLAG_S;
	q[0].lsp.ids.af = 4;
	q[0].lsp.ids.sender4 = IP(10, 0, 0, 1);
	q[0].lsp.name_len = 3;
	memcpy(q[0].lsp.name, "abc", 3);
	q[0].has_ero = 1;
	q[0].ero.n = 1;
	q[0].ero.hop[0].kind = PCEP_SUBOBJ_IPV4;
	q[0].ero.hop[0].prefix_len = 32;
	q[0].attrs.has_lspa = 1;
	q[0].attrs.bw_type = PCEP_OT_BW_REQUESTED;
	q[0].attrs.n_metric = 1;
	q[1].has_srp = 1;
	q[1].srp.srp_id = 2;
	q[1].srp.has_pst = 1;
	q[1].srp.pst = PCEP_PST_SR;
	q[1].has_endpoints = 1;
	q[1].has_ero = 1;
	q[1].ero.n = 2;
	pcep_hop_sr_ipv4(&q[1].ero.hop[0], 16, IP(10, 0, 0, 2), 0, 0);
	pcep_hop_sr_ipv4(&q[1].ero.hop[1], 17, 1, 2, 1);
	fz_seed_assoc(q);
	pcep_reqs_encode(w, PCEP_MSG_PCRPT, q, 2);
	pcep_eos_encode(w);
	fz_seed_srv6(&q[0]);
	q[0].has_srp = 1;
	pcep_reqs_encode(w, PCEP_MSG_PCUPD, q, 1);
	pcep_reqs_encode(w, PCEP_MSG_PCINITIATE, &q[1], 1);
	q[1].srp.flags = PCEP_SRP_FLAG_R;
	pcep_reqs_encode(w, PCEP_MSG_PCINITIATE, &q[1], 1);
	pcep_err_set(&e, PCEP_E_MISSING_SRP);
	pcep_ctlrr_simple(w, &e, 3);
	memset(&em, 0, sizeof(em));
	em.n = 1;
	em.item[0].type = 1;
	em.item[0].value = 4;
	em.has_open = 1;
	em.open = op;
	pcep_ctlrr_encode(w, &em);
	pcep_errmsg_encode(w, PCEP_MSG_PCNTF, &em);
	pcep_close_encode(w, PCEP_CLOSE_NONE);
}

/* Every prefix and every one-byte mutation of the seed stream. */
static size_t
fz_selftest(void)
{
	static uint8_t	seed[8192], m[8192];
	struct wbuf	w;
	size_t		i, runs = 0;
	int		k;
	static const uint8_t	flips[] = { 0x01, 0x02, 0x10, 0x80, 0xff };

	wbuf_init(&w, seed, sizeof(seed));
	fz_seeds(&w);
	FZ_CHECK(!w.err);
	for (i = 0; i <= w.len; i++, runs++)
		fuzz_run(seed, i);
	for (i = 0; i < w.len; i++)
		for (k = 0; k < (int)sizeof(flips); k++, runs++) {
			memcpy(m, seed, w.len);
			m[i] ^= flips[k];
			fuzz_run(m, w.len);
		}
	return runs;
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		printf("self-test: %zu inputs run\n", fz_selftest());
		return 0;
	}
	return fuzz_run_files(argc, argv);
}
#endif
