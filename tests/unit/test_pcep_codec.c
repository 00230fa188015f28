/*
 * PCEP codec against byte vectors written out by hand, one field per line,
 * from the layouts of RFC 5440 (6.1 header, 7.2 object header, 7.x
 * objects), RFC 8231 7 (SRP, LSP, TLVs), RFC 8281 5 (PCInitiate), RFC
 * 8232 (LSP-DB-VERSION), RFC 8408 (PST) and RFC 8664 4 (SR), plus
 * malformed input and the PCErr each one calls for.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcep_codec.h"
#include "pcep_wire.h"

#define CHECK_CODEC_HDR_LEN	PCEP_HDR_LEN
#include "check_codec.h"

#define CHECK_ERR(e, t, v, what) CHECK((e).type == (t) &&		\
	(e).value == (v), "%s: PCErr %u/%u (%s)", what, (e).type,	\
	(e).value, pcep_error_name((e).type, (e).value))

#define IP(a, b, c, d)	((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d))

/* ---- vectors ---- */

#define OPEN_FULL							\
	"20 01 00 34 "		/* ver 1, Open, length 52 */		\
	"01 10 00 30 "		/* OPEN class 1 type 1, length 48 */	\
	"20 "			/* ver 1, flags 0 */			\
	"1e "			/* keepalive 30 */			\
	"78 "			/* deadtimer 120 */			\
	"01 "			/* SID 1 */				\
	"00 10 00 04 "		/* STATEFUL-PCE-CAPABILITY, 4 */	\
	"00 00 00 25 "		/* flags F, I, U */			\
	"00 22 00 10 "		/* PATH-SETUP-TYPE-CAPABILITY, 16 */	\
	"00 00 00 "		/* reserved */				\
	"02 "			/* 2 PSTs */				\
	"00 01 00 00 "		/* RSVP-TE, SR, padding */		\
	"00 1a 00 04 "		/* sub-TLV SR-PCE-CAPABILITY, 4 */	\
	"00 00 "		/* reserved */				\
	"02 "			/* flags N */				\
	"0a "			/* MSD 10 */				\
	"00 17 00 08 "		/* LSP-DB-VERSION, 8 */			\
	"00 00 00 00 00 00 00 2a " /* version 42 */

#define OPEN_SR_TLV26							\
	"20 01 00 14 "		/* Open, length 20 */			\
	"01 10 00 10 "		/* OPEN, length 16 */			\
	"20 1e 78 02 "		/* ver 1, keepalive 30, dead 120, SID 2 */ \
	"00 1a 00 04 "		/* SR-PCE-CAPABILITY (draft place) */	\
	"00 00 "		/* reserved */				\
	"03 "			/* flags N, X */			\
	"05 "			/* MSD 5 */

/* A report without SRP: RSVP LSP with every attribute. */
#define RPT_A								\
	"20 12 00 28 "		/* LSP class 32, P, length 40 */	\
	"00 00 10 1b "		/* PLSP-ID 1, O=UP, A, S, D */		\
	"00 12 00 10 "		/* IPV4-LSP-IDENTIFIERS, 16 */		\
	"0a 00 00 01 "		/* tunnel sender 10.0.0.1 */		\
	"00 02 "		/* LSP ID 2 */				\
	"00 03 "		/* tunnel ID 3 */			\
	"0a 00 00 01 "		/* extended tunnel ID 10.0.0.1 */	\
	"0a 00 00 02 "		/* tunnel endpoint 10.0.0.2 */		\
	"00 11 00 05 "		/* SYMBOLIC-PATH-NAME, 5 */		\
	"6c 73 70 2d 31 00 00 00 " /* "lsp-1", padding */		\
	"07 12 00 14 "		/* ERO, P, length 20 */			\
	"01 08 "		/* strict IPv4 prefix, length 8 */	\
	"0a 00 00 02 20 00 "	/* 10.0.0.2/32, flags */		\
	"81 08 "		/* loose IPv4 prefix, length 8 */	\
	"0a 00 00 03 20 00 "	/* 10.0.0.3/32, flags */		\
	"09 10 00 14 "		/* LSPA, length 20 */			\
	"00 00 00 00 "		/* exclude-any */			\
	"00 00 00 00 "		/* include-any */			\
	"00 00 00 00 "		/* include-all */			\
	"07 07 "		/* setup, holding priority */		\
	"01 00 "		/* flags L, reserved */			\
	"05 10 00 08 "		/* BANDWIDTH type 1, length 8 */	\
	"49 98 96 80 "		/* 1.25e6 bytes/s */			\
	"06 10 00 0c "		/* METRIC, length 12 */			\
	"00 00 "		/* reserved */				\
	"00 "			/* flags */				\
	"02 "			/* type TE */				\
	"41 20 00 00 "		/* 10.0 */

/* A report with SRP and a segment-routed path. */
#define RPT_B								\
	"21 12 00 14 "		/* SRP class 33, P, length 20 */	\
	"00 00 00 00 "		/* flags */				\
	"00 00 00 09 "		/* SRP-ID 9 */				\
	"00 1c 00 04 "		/* PATH-SETUP-TYPE, 4 */		\
	"00 00 00 01 "		/* reserved, PST 1 (SR) */		\
	"20 12 00 08 "		/* LSP, P, length 8 */			\
	"00 00 20 19 "		/* PLSP-ID 2, O=UP, A, D */		\
	"07 12 00 20 "		/* ERO, P, length 32 */			\
	"24 0c "		/* SR-ERO (36), length 12 */		\
	"10 01 "		/* NT 1 IPv4 node, flags M */		\
	"00 3e 80 00 "		/* SID: label 1000 */			\
	"0a 00 00 02 "		/* NAI 10.0.0.2 */			\
	"24 10 "		/* SR-ERO (36), length 16 */		\
	"30 01 "		/* NT 3 IPv4 adjacency, flags M */	\
	"00 3e 90 00 "		/* SID: label 1001 */			\
	"0a 00 00 02 "		/* local 10.0.0.2 */			\
	"0a 00 00 03 "		/* remote 10.0.0.3 */

#define PCUPD								\
	"20 0b 00 2c "		/* PCUpd, length 44 */			\
	"21 12 00 0c "		/* SRP, P, length 12 */			\
	"00 00 00 00 "		/* flags */				\
	"00 00 00 05 "		/* SRP-ID 5 */				\
	"20 12 00 08 "		/* LSP, P, length 8 */			\
	"00 00 10 09 "		/* PLSP-ID 1, O=DOWN, A, D */		\
	"07 12 00 0c "		/* ERO, P, length 12 */			\
	"01 08 0a 00 00 05 20 00 " /* strict 10.0.0.5/32 */		\
	"05 10 00 08 "		/* BANDWIDTH type 1, length 8 */	\
	"00 00 00 00 "		/* 0.0 */

#define PCINIT								\
	"20 0c 00 5c "		/* PCInitiate, length 92 */		\
	"21 12 00 14 "		/* SRP, P, length 20 */			\
	"00 00 00 00 "		/* flags */				\
	"00 00 00 0b "		/* SRP-ID 11 */				\
	"00 1c 00 04 "		/* PATH-SETUP-TYPE, 4 */		\
	"00 00 00 01 "		/* PST SR */				\
	"20 12 00 14 "		/* LSP, P, length 20 */			\
	"00 00 00 09 "		/* PLSP-ID 0, A, D */			\
	"00 11 00 08 "		/* SYMBOLIC-PATH-NAME, 8 */		\
	"73 72 2d 6c 73 70 2d 31 " /* "sr-lsp-1" */			\
	"04 12 00 0c "		/* END-POINTS IPv4, P, length 12 */	\
	"0a 00 00 01 "		/* source 10.0.0.1 */			\
	"0a 00 00 09 "		/* destination 10.0.0.9 */		\
	"07 12 00 10 "		/* ERO, P, length 16 */			\
	"24 0c 10 01 "		/* SR-ERO, 12, IPv4 node, M */		\
	"00 3e 80 00 "		/* label 1000 */			\
	"0a 00 00 09 "		/* NAI 10.0.0.9 */			\
	"21 12 00 0c "		/* SRP, P, length 12 */			\
	"00 00 00 01 "		/* flags R (remove) */			\
	"00 00 00 0c "		/* SRP-ID 12 */				\
	"20 12 00 08 "		/* LSP, P, length 8 */			\
	"00 00 70 00 "		/* PLSP-ID 7 */

/* ---- tests ---- */

static void
test_header(void)
{
	struct pcep_header	h;
	struct pcep_err		e;
	struct rbuf		r, s, b;
	struct vec		v;

	vec(&v, "20 02 00 04");
	rbuf_init(&r, v.b, v.len);
	CHECK(pcep_header_decode(&r, &h, &e) == 0 && h.version == 1 &&
	    h.flags == 0 && h.type == PCEP_MSG_KEEPALIVE && h.length == 4,
	    "header decode");
	rbuf_init(&r, v.b, 3);
	CHECK(pcep_header_decode(&r, &h, &e) == -1 &&
	    e.close_reason == PCEP_CLOSE_MALFORMED, "truncated header");
	vec(&v, "40 02 00 04");		/* version 2 */
	rbuf_init(&r, v.b, v.len);
	CHECK(pcep_header_decode(&r, &h, &e) == -1, "version 2 refused");
	CHECK_ERR(e, 1, 8, "bad version");
	vec(&v, "20 02 00 03");		/* length below the header */
	rbuf_init(&r, v.b, v.len);
	CHECK(pcep_header_decode(&r, &h, &e) == -1 &&
	    e.close_reason == PCEP_CLOSE_MALFORMED, "length 3 refused");

	/* A stream: Keepalive, Close, then 3 bytes of the next header. */
	vec(&v, "20 02 00 04 "
	    "20 07 00 0c 0f 10 00 08 00 00 00 01 "
	    "20 02 00");
	rbuf_init(&s, v.b, v.len);
	CHECK(pcep_msg_split(&s, &h, &b, &e) == 1 &&
	    h.type == PCEP_MSG_KEEPALIVE && rbuf_left(&b) == 0,
	    "split: keepalive");
	CHECK(pcep_msg_split(&s, &h, &b, &e) == 1 &&
	    h.type == PCEP_MSG_CLOSE && rbuf_left(&b) == 8, "split: close");
	CHECK(pcep_msg_split(&s, &h, &b, &e) == 0 && rbuf_left(&s) == 3,
	    "split: partial header waits");
	vec(&v, "20 0a 00 40 20 12 00 08");	/* says 64, has 8 */
	rbuf_init(&s, v.b, v.len);
	CHECK(pcep_msg_split(&s, &h, &b, &e) == 0 && rbuf_left(&s) == 8,
	    "split: partial body waits");
	CHECK(strcmp(pcep_msg_name(PCEP_MSG_PCINITIATE), "PCInitiate") == 0 &&
	    strcmp(pcep_msg_name(99), "unknown") == 0, "message names");
	CHECK(strcmp(pcep_error_name(6, 10), "SRP object missing") == 0 &&
	    strcmp(pcep_error_name(99, 1), "unknown error") == 0,
	    "error names");
}

static void
test_open(void)
{
	struct pcep_open	op, back;
	struct pcep_err		e;
	struct rbuf		r;
	struct vec		v;

	memset(&op, 0, sizeof(op));
	op.keepalive = 30;
	op.deadtimer = 120;
	op.sid = 1;
	op.has_stateful = 1;
	op.stateful_flags = PCEP_STATEFUL_U | PCEP_STATEFUL_I |
	    PCEP_STATEFUL_F;
	op.n_pst = 2;
	op.pst[0] = PCEP_PST_RSVP_TE;
	op.pst[1] = PCEP_PST_SR;
	op.has_sr = 1;
	op.sr_flags = PCEP_SR_CAP_N;
	op.msd = 10;
	op.has_db_version = 1;
	op.db_version = 42;
	start();
	vec(&v, OPEN_FULL);
	CHECK(pcep_open_encode(&w, &op) == 0, "open encode");
	CHECK_OUT(&v, "open bytes");
	body_of(&r, &v);
	CHECK(pcep_open_decode(&r, &back, &e) == 0, "open decode");
	CHECK(back.keepalive == 30 && back.deadtimer == 120 && back.sid == 1 &&
	    back.has_stateful && back.stateful_flags == 0x25, "open fields");
	CHECK(back.n_pst == 2 && back.pst[1] == PCEP_PST_SR && back.has_sr &&
	    back.sr_flags == PCEP_SR_CAP_N && back.msd == 10,
	    "open PST and SR capability");
	CHECK(back.has_db_version && back.db_version == 42,
	    "open LSP-DB-VERSION");

	vec(&v, OPEN_SR_TLV26);
	body_of(&r, &v);
	CHECK(pcep_open_decode(&r, &back, &e) == 0 && back.has_sr &&
	    back.sr_flags == (PCEP_SR_CAP_N | PCEP_SR_CAP_X) &&
	    back.msd == 5 && back.n_pst == 0 && !back.has_stateful,
	    "open with SR-PCE-CAPABILITY as a TLV of its own");

	/* Unknown TLV (type 99, length 3) is skipped with its padding. */
	vec(&v, "20 01 00 14 01 10 00 10 20 1e 78 03 "
	    "00 63 00 03 "		/* TLV 99, length 3 */
	    "aa bb cc 00");		/* value, padding */
	body_of(&r, &v);
	CHECK(pcep_open_decode(&r, &back, &e) == 0 && back.sid == 3,
	    "open skips an unknown TLV");

	vec(&v, "20 01 00 0c 01 10 00 08 40 1e 78 01");	/* OPEN ver 2 */
	body_of(&r, &v);
	CHECK(pcep_open_decode(&r, &back, &e) == -1, "open version 2");
	CHECK_ERR(e, 1, 8, "open version 2");
	vec(&v, "20 01 00 0c 0f 10 00 08 00 00 00 01");	/* a CLOSE */
	body_of(&r, &v);
	CHECK(pcep_open_decode(&r, &back, &e) == -1, "open without OPEN");
	CHECK_ERR(e, 1, 1, "open without OPEN");
	vec(&v, "20 01 00 10 01 10 00 0c 20 1e 78 01 "
	    "00 10 00 08");		/* TLV says 8, object has 0 left */
	body_of(&r, &v);
	CHECK(pcep_open_decode(&r, &back, &e) == -1, "open TLV past end");
	CHECK_ERR(e, 1, 1, "open TLV past end");
	vec(&v, "20 01 00 04");
	body_of(&r, &v);
	CHECK(pcep_open_decode(&r, &back, &e) == -1, "empty open");
	CHECK_ERR(e, 1, 1, "empty open");
}

static void
test_keepalive_close(void)
{
	struct pcep_err	e;
	struct rbuf	r;
	struct vec	v;
	uint8_t		reason = 0;

	start();
	vec(&v, "20 02 00 04");		/* ver 1, Keepalive, length 4 */
	CHECK(pcep_keepalive_encode(&w) == 0, "keepalive encode");
	CHECK_OUT(&v, "keepalive bytes");

	start();
	vec(&v, "20 07 00 0c "		/* Close, length 12 */
	    "0f 10 00 08 "		/* CLOSE class 15, length 8 */
	    "00 00 "			/* reserved */
	    "00 "			/* flags */
	    "03");			/* reason: malformed message */
	CHECK(pcep_close_encode(&w, PCEP_CLOSE_MALFORMED) == 0,
	    "close encode");
	CHECK_OUT(&v, "close bytes");
	body_of(&r, &v);
	CHECK(pcep_close_decode(&r, &reason, &e) == 0 && reason == 3,
	    "close decode");
	vec(&v, "20 07 00 04");
	body_of(&r, &v);
	CHECK(pcep_close_decode(&r, &reason, &e) == -1 &&
	    e.close_reason == PCEP_CLOSE_MALFORMED, "close without CLOSE");
}

static void
test_pcerr(void)
{
	struct pcep_errmsg	em;
	struct pcep_err		e, want;
	struct rbuf		r;
	struct vec		v;

	start();
	vec(&v, "20 06 00 18 "		/* PCErr, length 24 */
	    "21 12 00 0c "		/* SRP, P, length 12 */
	    "00 00 00 00 "		/* flags */
	    "00 00 00 07 "		/* SRP-ID 7 */
	    "0d 10 00 08 "		/* PCEP-ERROR, length 8 */
	    "00 00 "			/* reserved, flags */
	    "06 "			/* type 6: mandatory object missing */
	    "08");			/* value 8: LSP object missing */
	pcep_err_set(&want, PCEP_E_MISSING_LSP);
	CHECK(pcep_ctlrr_simple(&w, &want, 7) == 0, "pcerr encode");
	CHECK_OUT(&v, "pcerr bytes");
	body_of(&r, &v);
	CHECK(pcep_ctlrr_decode(&r, &em, &e) == 0 && em.n == 1 &&
	    em.item[0].type == 6 && em.item[0].value == 8 && em.has_srp &&
	    em.srp_id == 7 && !em.has_open, "pcerr decode");

	/* Negotiation (RFC 5440 6.2): 1/4 with the Open we would accept. */
	memset(&em, 0, sizeof(em));
	em.n = 1;
	em.item[0].type = 1;
	em.item[0].value = 4;
	em.has_open = 1;
	em.open.keepalive = 30;
	em.open.deadtimer = 120;
	em.open.has_stateful = 1;
	em.open.stateful_flags = PCEP_STATEFUL_U;
	start();
	vec(&v, "20 06 00 1c "		/* PCErr, length 28 */
	    "0d 10 00 08 "		/* PCEP-ERROR */
	    "00 00 01 04 "		/* 1/4 negotiable characteristics */
	    "01 10 00 10 "		/* OPEN, length 16 */
	    "20 1e 78 00 "		/* ver 1, 30, 120, SID 0 */
	    "00 10 00 04 "		/* STATEFUL-PCE-CAPABILITY */
	    "00 00 00 01");		/* U */
	CHECK(pcep_ctlrr_encode(&w, &em) == 0, "pcerr with open encode");
	CHECK_OUT(&v, "pcerr with open bytes");
	body_of(&r, &v);
	memset(&em, 0, sizeof(em));
	CHECK(pcep_ctlrr_decode(&r, &em, &e) == 0 && em.n == 1 &&
	    em.has_open && em.open.keepalive == 30 &&
	    em.open.stateful_flags == PCEP_STATEFUL_U,
	    "pcerr with open decode");

	/* The error object's header flags are kept (ODL shows them as the
	 * error-object's processing-rule and ignore). */
	vec(&v, "20 06 00 0c "		/* PCErr, length 12 */
	    "0d 13 00 08 "		/* PCEP-ERROR, P and I set */
	    "00 00 13 09");		/* 19/9: not PCE-initiated */
	body_of(&r, &v);
	CHECK(pcep_ctlrr_decode(&r, &em, &e) == 0 && em.n == 1 &&
	    em.item[0].type == 19 && em.item[0].value == 9 &&
	    em.item[0].flags == (PCEP_OBJ_FLAG_P | PCEP_OBJ_FLAG_I),
	    "pcerr decode keeps the object's P and I flags");

	vec(&v, "20 06 00 04");
	body_of(&r, &v);
	CHECK(pcep_ctlrr_decode(&r, &em, &e) == -1 &&
	    e.close_reason == PCEP_CLOSE_MALFORMED, "pcerr without errors");
}

static void
test_pcntf(void)
{
	struct pcep_errmsg	em;
	struct pcep_err		e;
	struct rbuf		r;
	struct vec		v;

	memset(&em, 0, sizeof(em));
	em.n = 1;
	em.item[0].type = 2;		/* PCE overloaded */
	em.item[0].value = 1;
	start();
	vec(&v, "20 05 00 0c "		/* PCNtf, length 12 */
	    "0c 10 00 08 "		/* NOTIFICATION class 12, length 8 */
	    "00 00 "			/* reserved, flags */
	    "02 01");			/* type 2, value 1 */
	CHECK(pcep_errmsg_encode(&w, PCEP_MSG_PCNTF, &em) == 0, "pcntf encode");
	CHECK_OUT(&v, "pcntf bytes");
	body_of(&r, &v);
	memset(&em, 0, sizeof(em));
	CHECK(pcep_errmsg_decode(&r, PCEP_MSG_PCNTF, &em, &e) == 0 &&
	    em.n == 1 && em.item[0].type == 2 && em.item[0].value == 1,
	    "pcntf decode");
}

static void
fill_rpt_a(struct pcep_lsp_req *q)
{
	memset(q, 0, sizeof(*q));
	q->lsp.plsp_id = 1;
	q->lsp.flags = PCEP_LSP_FLAG_D | PCEP_LSP_FLAG_S | PCEP_LSP_FLAG_A;
	q->lsp.oper = PCEP_OPER_UP;
	q->lsp.ids.af = 4;
	q->lsp.ids.sender4 = IP(10, 0, 0, 1);
	q->lsp.ids.lsp_id = 2;
	q->lsp.ids.tunnel_id = 3;
	q->lsp.ids.ext_id4 = IP(10, 0, 0, 1);
	q->lsp.ids.endpoint4 = IP(10, 0, 0, 2);
	q->lsp.name_len = 5;
	memcpy(q->lsp.name, "lsp-1", 5);
	q->has_ero = 1;
	q->ero.n = 2;
	q->ero.hop[0].kind = PCEP_SUBOBJ_IPV4;
	q->ero.hop[0].addr = IP(10, 0, 0, 2);
	q->ero.hop[0].prefix_len = 32;
	q->ero.hop[1] = q->ero.hop[0];
	q->ero.hop[1].addr = IP(10, 0, 0, 3);
	q->ero.hop[1].loose = 1;
	q->attrs.has_lspa = 1;
	q->attrs.lspa.setup_prio = 7;
	q->attrs.lspa.hold_prio = 7;
	q->attrs.lspa.flags = PCEP_LSPA_FLAG_L;
	q->attrs.bw_type = PCEP_OT_BW_REQUESTED;
	q->attrs.bandwidth = 1.25e6f;
	q->attrs.n_metric = 1;
	q->attrs.metric[0].type = PCEP_METRIC_TE;
	q->attrs.metric[0].value = 10.0f;
}

static void
fill_rpt_b(struct pcep_lsp_req *q)
{
	memset(q, 0, sizeof(*q));
	q->has_srp = 1;
	q->srp.srp_id = 9;
	q->srp.has_pst = 1;
	q->srp.pst = PCEP_PST_SR;
	q->lsp.plsp_id = 2;
	q->lsp.flags = PCEP_LSP_FLAG_D | PCEP_LSP_FLAG_A;
	q->lsp.oper = PCEP_OPER_UP;
	q->has_ero = 1;
	q->ero.n = 2;
	pcep_hop_sr_ipv4(&q->ero.hop[0], 1000, IP(10, 0, 0, 2), 0, 0);
	pcep_hop_sr_ipv4(&q->ero.hop[1], 1001, IP(10, 0, 0, 2),
	    IP(10, 0, 0, 3), 1);
}

static void
test_pcrpt(void)
{
	struct pcep_lsp_req	q[2], d;
	struct pcep_req_iter	it;
	struct pcep_err		e;
	struct rbuf		r;
	struct vec		v;

	fill_rpt_a(&q[0]);
	fill_rpt_b(&q[1]);
	start();
	vec(&v, "20 0a 00 a4 "		/* PCRpt, length 164 */
	    RPT_A RPT_B);
	CHECK(pcep_reqs_encode(&w, PCEP_MSG_PCRPT, q, 2) == 0,
	    "pcrpt encode");
	CHECK_OUT(&v, "pcrpt bytes (two reports)");

	body_of(&r, &v);
	pcep_req_iter_init(&it, PCEP_MSG_PCRPT, &r);
	CHECK(pcep_req_next(&it, &d, &e) == 1, "pcrpt report 1");
	CHECK(!d.has_srp && d.lsp.plsp_id == 1 &&
	    d.lsp.flags == (PCEP_LSP_FLAG_D | PCEP_LSP_FLAG_S |
	    PCEP_LSP_FLAG_A) && d.lsp.oper == PCEP_OPER_UP, "report 1 LSP");
	CHECK(d.lsp.ids.af == 4 && d.lsp.ids.sender4 == IP(10, 0, 0, 1) &&
	    d.lsp.ids.lsp_id == 2 && d.lsp.ids.tunnel_id == 3 &&
	    d.lsp.ids.ext_id4 == IP(10, 0, 0, 1) &&
	    d.lsp.ids.endpoint4 == IP(10, 0, 0, 2),
	    "report 1 IPV4-LSP-IDENTIFIERS");
	CHECK(d.lsp.name_len == 5 && strcmp(d.lsp.name, "lsp-1") == 0,
	    "report 1 symbolic name");
	CHECK(d.has_ero && d.ero.n == 2 &&
	    d.ero.hop[0].kind == PCEP_SUBOBJ_IPV4 && !d.ero.hop[0].loose &&
	    d.ero.hop[0].addr == IP(10, 0, 0, 2) &&
	    d.ero.hop[0].prefix_len == 32 && d.ero.hop[1].loose &&
	    d.ero.hop[1].addr == IP(10, 0, 0, 3), "report 1 ERO");
	CHECK(d.attrs.has_lspa && d.attrs.lspa.setup_prio == 7 &&
	    d.attrs.lspa.flags == PCEP_LSPA_FLAG_L &&
	    d.attrs.bw_type == PCEP_OT_BW_REQUESTED &&
	    d.attrs.bandwidth == 1.25e6f && d.attrs.n_metric == 1 &&
	    d.attrs.metric[0].type == PCEP_METRIC_TE &&
	    d.attrs.metric[0].value == 10.0f, "report 1 attributes");
	CHECK(pcep_req_next(&it, &d, &e) == 1, "pcrpt report 2");
	CHECK(d.has_srp && d.srp.srp_id == 9 && d.srp.has_pst &&
	    d.srp.pst == PCEP_PST_SR && d.lsp.plsp_id == 2, "report 2 SRP");
	CHECK(d.ero.n == 2 && d.ero.hop[0].kind == PCEP_SUBOBJ_SR &&
	    d.ero.hop[0].nt == PCEP_NAI_IPV4_NODE &&
	    d.ero.hop[0].sr_flags == PCEP_SR_FLAG_M &&
	    d.ero.hop[0].sid >> PCEP_SR_LABEL_SHIFT == 1000 &&
	    pcep_hop_nai_ipv4(&d.ero.hop[0], 0) == IP(10, 0, 0, 2),
	    "report 2 SR-ERO node");
	CHECK(d.ero.hop[1].nt == PCEP_NAI_IPV4_ADJ &&
	    d.ero.hop[1].sid >> PCEP_SR_LABEL_SHIFT == 1001 &&
	    pcep_hop_nai_ipv4(&d.ero.hop[1], 0) == IP(10, 0, 0, 2) &&
	    pcep_hop_nai_ipv4(&d.ero.hop[1], 1) == IP(10, 0, 0, 3),
	    "report 2 SR-ERO adjacency");
	CHECK(pcep_req_next(&it, &d, &e) == 0, "pcrpt: two reports, done");
}

static void
test_eos(void)
{
	struct pcep_lsp_req	d;
	struct pcep_req_iter	it;
	struct pcep_err		e;
	struct rbuf		r;
	struct vec		v;

	start();
	vec(&v, "20 0a 00 10 "		/* PCRpt, length 16 */
	    "20 12 00 08 "		/* LSP, P, length 8 */
	    "00 00 00 00 "		/* PLSP-ID 0, S clear */
	    "07 12 00 04");		/* empty ERO */
	CHECK(pcep_eos_encode(&w) == 0, "end-of-sync encode");
	CHECK_OUT(&v, "end-of-sync bytes");
	body_of(&r, &v);
	pcep_req_iter_init(&it, PCEP_MSG_PCRPT, &r);
	CHECK(pcep_req_next(&it, &d, &e) == 1 && pcep_req_is_eos(&d) &&
	    d.has_ero && d.ero.n == 0, "end-of-sync decode");
	/* Without the empty ERO it is still the marker. */
	vec(&v, "20 0a 00 0c 20 12 00 08 00 00 00 00");
	body_of(&r, &v);
	pcep_req_iter_init(&it, PCEP_MSG_PCRPT, &r);
	CHECK(pcep_req_next(&it, &d, &e) == 1 && pcep_req_is_eos(&d),
	    "end-of-sync without ERO");
	fill_rpt_a(&d);
	CHECK(!pcep_req_is_eos(&d), "a sync report is no marker");
}

static void
test_pcupd(void)
{
	struct pcep_lsp_req	q, d;
	struct pcep_req_iter	it;
	struct pcep_err		e;
	struct rbuf		r;
	struct vec		v;

	memset(&q, 0, sizeof(q));
	q.has_srp = 1;
	q.srp.srp_id = 5;
	q.lsp.plsp_id = 1;
	q.lsp.flags = PCEP_LSP_FLAG_D | PCEP_LSP_FLAG_A;
	q.has_ero = 1;
	q.ero.n = 1;
	q.ero.hop[0].kind = PCEP_SUBOBJ_IPV4;
	q.ero.hop[0].addr = IP(10, 0, 0, 5);
	q.ero.hop[0].prefix_len = 32;
	q.attrs.bw_type = PCEP_OT_BW_REQUESTED;
	start();
	vec(&v, PCUPD);
	CHECK(pcep_reqs_encode(&w, PCEP_MSG_PCUPD, &q, 1) == 0,
	    "pcupd encode");
	CHECK_OUT(&v, "pcupd bytes");
	body_of(&r, &v);
	pcep_req_iter_init(&it, PCEP_MSG_PCUPD, &r);
	CHECK(pcep_req_next(&it, &d, &e) == 1 && d.has_srp &&
	    d.srp.srp_id == 5 && d.lsp.plsp_id == 1 &&
	    (d.lsp.flags & PCEP_LSP_FLAG_D) && d.ero.n == 1 &&
	    d.ero.hop[0].addr == IP(10, 0, 0, 5) &&
	    d.attrs.bw_type == PCEP_OT_BW_REQUESTED &&
	    d.attrs.bandwidth == 0.0f, "pcupd decode");
	CHECK(pcep_req_next(&it, &d, &e) == 0, "pcupd: one request");
}

static void
test_pcinitiate(void)
{
	struct pcep_lsp_req	q[2], d;
	struct pcep_req_iter	it;
	struct pcep_err		e;
	struct rbuf		r;
	struct vec		v;

	memset(q, 0, sizeof(q));
	q[0].has_srp = 1;
	q[0].srp.srp_id = 11;
	q[0].srp.has_pst = 1;
	q[0].srp.pst = PCEP_PST_SR;
	q[0].lsp.flags = PCEP_LSP_FLAG_D | PCEP_LSP_FLAG_A;
	q[0].lsp.name_len = 8;
	memcpy(q[0].lsp.name, "sr-lsp-1", 8);
	q[0].has_endpoints = 1;
	q[0].ep_src = IP(10, 0, 0, 1);
	q[0].ep_dst = IP(10, 0, 0, 9);
	q[0].has_ero = 1;
	q[0].ero.n = 1;
	pcep_hop_sr_ipv4(&q[0].ero.hop[0], 1000, IP(10, 0, 0, 9), 0, 0);
	q[1].has_srp = 1;
	q[1].srp.flags = PCEP_SRP_FLAG_R;
	q[1].srp.srp_id = 12;
	q[1].lsp.plsp_id = 7;
	q[1].has_ero = 1;		/* dropped: a deletion has none */
	start();
	vec(&v, PCINIT);
	CHECK(pcep_reqs_encode(&w, PCEP_MSG_PCINITIATE, q, 2) == 0,
	    "pcinitiate encode");
	CHECK_OUT(&v, "pcinitiate bytes (instantiate, delete)");
	body_of(&r, &v);
	pcep_req_iter_init(&it, PCEP_MSG_PCINITIATE, &r);
	CHECK(pcep_req_next(&it, &d, &e) == 1 && d.srp.srp_id == 11 &&
	    d.lsp.plsp_id == 0 && strcmp(d.lsp.name, "sr-lsp-1") == 0 &&
	    d.has_endpoints && d.ep_src == IP(10, 0, 0, 1) &&
	    d.ep_dst == IP(10, 0, 0, 9) && d.ero.n == 1 &&
	    d.ero.hop[0].kind == PCEP_SUBOBJ_SR, "pcinitiate instantiate");
	CHECK(pcep_req_next(&it, &d, &e) == 1 &&
	    (d.srp.flags & PCEP_SRP_FLAG_R) && d.srp.srp_id == 12 &&
	    d.lsp.plsp_id == 7 && !d.has_ero, "pcinitiate delete");
	CHECK(pcep_req_next(&it, &d, &e) == 0, "pcinitiate: done");
}

/* Decode every request of a message; the first error's PCErr. */
static int
decode_all(uint8_t type, const char *hex, struct pcep_err *e,
    struct pcep_lsp_req *last)
{
	struct pcep_req_iter	it;
	struct rbuf		r;
	struct vec		v;
	int			rc;

	vec(&v, hex);
	/* The vectors must say their own length right. */
	if (v.len < PCEP_HDR_LEN || (size_t)(v.b[2] << 8 | v.b[3]) != v.len) {
		printf("# vector length %zu: %s\n", v.len, hex);
		return -2;
	}
	body_of(&r, &v);
	memset(e, 0, sizeof(*e));
	pcep_req_iter_init(&it, type, &r);
	while ((rc = pcep_req_next(&it, last, e)) == 1)
		;
	return rc;
}

#define LSP1	"20 12 00 08 00 00 10 09 "	/* LSP PLSP-ID 1, A, D */
#define SRP5	"21 12 00 0c 00 00 00 00 00 00 00 05 "	/* SRP-ID 5 */
#define ERO1	"07 12 00 0c 01 08 0a 00 00 05 20 00 "	/* ERO 1 hop */

static void
test_malformed(void)
{
	struct pcep_lsp_req	d;
	struct pcep_err		e;

	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 08 20 10 00 00", &e,
	    &d) == -1 && e.close_reason == PCEP_CLOSE_MALFORMED,
	    "object length 0");
	CHECK_ERR(e, 10, 11, "object length 0");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 0c 20 10 00 06 00 00 00 00",
	    &e, &d) == -1 && e.close_reason == PCEP_CLOSE_MALFORMED,
	    "object length 6 (not a multiple of 4)");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 0c 20 10 00 0c 00 00 10 00",
	    &e, &d) == -1 && e.close_reason == PCEP_CLOSE_MALFORMED,
	    "object past the message end");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 06 20 10", &e, &d) == -1 &&
	    e.close_reason == PCEP_CLOSE_MALFORMED, "truncated object header");

	CHECK(decode_all(PCEP_MSG_PCUPD, "20 0b 00 18 " LSP1 ERO1, &e,
	    &d) == -1, "pcupd without SRP");
	CHECK_ERR(e, 6, 10, "pcupd without SRP");
	CHECK(decode_all(PCEP_MSG_PCUPD, "20 0b 00 1c " SRP5 ERO1, &e,
	    &d) == -1, "pcupd without LSP");
	CHECK_ERR(e, 6, 8, "pcupd without LSP");
	CHECK(decode_all(PCEP_MSG_PCUPD, "20 0b 00 18 " SRP5 LSP1, &e,
	    &d) == -1, "pcupd without ERO");
	CHECK_ERR(e, 6, 9, "pcupd without ERO");
	CHECK(d.has_srp && d.srp.srp_id == 5,
	    "a failed request still gives its SRP-ID for the PCErr");
	CHECK(decode_all(PCEP_MSG_PCUPD, "20 0b 00 04", &e, &d) == -1,
	    "empty pcupd");
	CHECK_ERR(e, 6, 10, "empty pcupd");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 10 " ERO1, &e, &d) == -1,
	    "pcrpt without LSP");
	CHECK_ERR(e, 6, 8, "pcrpt without LSP");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 04", &e, &d) == -1,
	    "empty pcrpt");
	CHECK_ERR(e, 6, 8, "empty pcrpt");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 0c " LSP1, &e, &d) == -1,
	    "pcrpt report without path");
	CHECK_ERR(e, 6, 9, "pcrpt report without path");
	CHECK(decode_all(PCEP_MSG_PCINITIATE, "20 0c 00 18 " LSP1 ERO1, &e,
	    &d) == -1, "pcinitiate without SRP");
	CHECK_ERR(e, 6, 10, "pcinitiate without SRP");
	CHECK(decode_all(PCEP_MSG_PCINITIATE, "20 0c 00 24 " SRP5 LSP1 ERO1,
	    &e, &d) == -1, "pcinitiate with a PLSP-ID");
	CHECK_ERR(e, 19, 8, "pcinitiate with a PLSP-ID");
	CHECK(decode_all(PCEP_MSG_PCINITIATE, "20 0c 00 18 " SRP5
	    "20 12 00 08 00 00 00 09", &e, &d) == -1,
	    "pcinitiate without ERO");
	CHECK_ERR(e, 6, 9, "pcinitiate without ERO");

	/* Unknown objects: error with P set, skipped and counted without. */
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 20 " LSP1 ERO1
	    "c8 12 00 08 00 00 00 00", &e, &d) == -1,
	    "unknown class with P");
	CHECK_ERR(e, 3, 1, "unknown class with P");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 20 " LSP1 ERO1
	    "c8 10 00 08 00 00 00 00", &e, &d) == 0 && d.n_unknown == 1 &&
	    d.unknown_class == 200 && d.unknown_type == 1,
	    "unknown class without P is skipped");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 18 "
	    "20 52 00 08 00 00 10 09 " ERO1, &e, &d) == -1,
	    "LSP object type 5 with P");
	CHECK_ERR(e, 3, 2, "LSP object type 5 with P");
	CHECK(decode_all(PCEP_MSG_PCINITIATE, "20 0c 00 48 " SRP5
	    "20 12 00 08 00 00 00 09 "
	    "04 22 00 24 "		/* END-POINTS IPv6, P */
	    "20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01 "
	    "20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 02 " ERO1,
	    &e, &d) == -1, "IPv6 END-POINTS");
	CHECK_ERR(e, 4, 2, "IPv6 END-POINTS");

	/* TLVs and subobjects. */
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 1c "
	    "20 12 00 0c 00 00 10 09 "
	    "00 12 00 10 "		/* LSP-IDENTIFIERS past the object */
	    ERO1, &e, &d) == -1 && e.close_reason == 0,
	    "TLV past its object");
	CHECK_ERR(e, 10, 11, "TLV past its object");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 14 " LSP1
	    "07 12 00 08 "		/* ERO */
	    "24 04 "			/* SR-ERO, length 4 */
	    "10 0c",			/* NT 1, flags F and S */
	    &e, &d) == -1, "SR-ERO with neither SID nor NAI");
	CHECK_ERR(e, 10, 6, "SR-ERO with neither SID nor NAI");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 24 " LSP1
	    "07 12 00 18 "
	    "24 0c 10 01 00 3e 80 00 0a 00 00 02 "	/* SR-ERO */
	    "01 08 0a 00 00 05 20 00",			/* IPv4 */
	    &e, &d) == -1, "ERO mixing SR and IPv4");
	CHECK_ERR(e, 10, 5, "ERO mixing SR and IPv4");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 18 " LSP1
	    "07 12 00 0c 24 08 10 09 00 00 f0 00",	/* label 15, no NAI */
	    &e, &d) == -1, "SR-ERO with a reserved label");
	CHECK_ERR(e, 10, 2, "SR-ERO with a reserved label");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 18 " LSP1
	    "07 12 00 0c 24 08 f0 01 00 3e 80 00",	/* NT 15 */
	    &e, &d) == -1, "SR-ERO with an unknown NAI type");
	CHECK_ERR(e, 10, 13, "SR-ERO with an unknown NAI type");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 14 " LSP1
	    "07 12 00 08 01 09 0a 00",			/* length 9 */
	    &e, &d) == -1, "subobject past the ERO");
	CHECK_ERR(e, 10, 11, "subobject past the ERO");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 18 " LSP1
	    "07 12 00 0c 24 08 10 01 00 3e 80 00",	/* NAI missing */
	    &e, &d) == -1, "SR-ERO shorter than its NAI");
	CHECK_ERR(e, 10, 11, "SR-ERO shorter than its NAI");
}

/* ---- ASSOCIATION (RFC 8697, 8745, SR policy) ---- */

#define ASSOC_SR							\
	"28 10 00 58 "		/* ASSOCIATION IPv4, length 88 */	\
	"00 00 00 00 "		/* reserved, flags */			\
	"00 06 00 07 "		/* type 6 SR policy, ID 7 */		\
	"c0 00 02 0b "		/* source 192.0.2.11 */			\
	"00 1f 00 08 "		/* EXTENDED-ASSOCIATION-ID, 8 */	\
	"00 00 00 64 "		/* color 100 */				\
	"c0 00 02 01 "		/* endpoint 192.0.2.1 */		\
	"00 38 00 05 "		/* SRPOLICY-POL-NAME, 5 */		\
	"70 6f 6c 2d 31 00 00 00 " /* "pol-1", padding */		\
	"00 39 00 1c "		/* SRPOLICY-CPATH-ID, 28 */		\
	"1e 00 00 00 "		/* origin 30 (configuration) */		\
	"00 00 fd e8 "		/* originator ASN 65000 */		\
	"00 00 00 00 00 00 00 00 00 00 00 00 c0 00 02 0b " /* address */ \
	"00 00 00 02 "		/* discriminator 2 */			\
	"00 3a 00 04 "		/* SRPOLICY-CPATH-NAME, 4 */		\
	"63 70 2d 32 "		/* "cp-2" */				\
	"00 3b 00 04 "		/* SRPOLICY-CPATH-PREFERENCE, 4 */	\
	"00 00 00 c8 "		/* 200 */

#define ASSOC_PROT6							\
	"28 20 00 24 "		/* ASSOCIATION IPv6, length 36 */	\
	"00 00 00 01 "		/* reserved, flags R */			\
	"00 01 00 03 "		/* type 1 path protection, ID 3 */	\
	"20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01 " /* 2001:db8::1 */ \
	"00 26 00 04 "		/* PATH-PROTECTION-ASSOCIATION, 4 */	\
	"20 00 00 01 "		/* PT 1+1 unidirectional, P */

#define LSP_UP_D	"20 12 00 08 00 00 10 11 "	/* PLSP-ID 1, UP, D */

static void
fill_assoc(struct pcep_lsp_req *q)
{
	static const uint8_t six[16] = { 0x20, 0x01, 0x0d, 0xb8,
	    [15] = 1 };
	struct pcep_assoc	*a = &q->assoc[0], *p = &q->assoc[1];

	memset(q, 0, sizeof(*q));
	q->lsp.plsp_id = 1;
	q->lsp.flags = PCEP_LSP_FLAG_D;
	q->lsp.oper = PCEP_OPER_UP;
	q->n_assoc = 2;
	a->af = 4;
	a->type = PCEP_ASSOC_T_SR_POLICY;
	a->id = 7;
	memcpy(a->src, "\xc0\x00\x02\x0b", 4);
	a->has_color = 1;
	a->color = 100;
	a->ep_af = 4;
	memcpy(a->ep, "\xc0\x00\x02\x01", 4);
	a->pol_name = "pol-1";
	a->pol_name_len = 5;
	a->has_cpath_id = 1;
	a->origin = PCEP_SRPOL_ORIGIN_CONFIG;
	a->orig_asn = 65000;
	memcpy(a->orig_addr + 12, "\xc0\x00\x02\x0b", 4);
	a->discriminator = 2;
	a->cp_name = "cp-2";
	a->cp_name_len = 4;
	a->has_pref = 1;
	a->pref = 200;
	p->af = 6;
	p->removal = 1;
	p->type = PCEP_ASSOC_T_PROTECTION;
	p->id = 3;
	memcpy(p->src, six, 16);
	p->has_prot = 1;
	p->prot = PCEP_PROT_PT_1PLUS1_UNI << PCEP_PROT_PT_SHIFT | PCEP_PROT_P;
	q->has_ero = 1;
	q->ero.n = 1;
	q->ero.hop[0].kind = PCEP_SUBOBJ_IPV4;
	q->ero.hop[0].addr = IP(10, 0, 0, 5);
	q->ero.hop[0].prefix_len = 32;
}

static void
check_assoc_sr(const struct pcep_assoc *a)
{
	CHECK(a->af == 4 && !a->removal && a->type == PCEP_ASSOC_T_SR_POLICY &&
	    a->id == 7 && memcmp(a->src, "\xc0\x00\x02\x0b", 4) == 0,
	    "SR policy association header");
	CHECK(a->has_color && a->color == 100 && a->ep_af == 4 &&
	    memcmp(a->ep, "\xc0\x00\x02\x01", 4) == 0, "color, endpoint");
	CHECK(a->pol_name_len == 5 && memcmp(a->pol_name, "pol-1", 5) == 0 &&
	    a->cp_name_len == 4 && memcmp(a->cp_name, "cp-2", 4) == 0,
	    "policy and candidate path names");
	CHECK(a->has_cpath_id && a->origin == 30 && a->orig_asn == 65000 &&
	    a->discriminator == 2 && a->has_pref && a->pref == 200,
	    "candidate path id and preference");
}

static void
test_assoc(void)
{
	struct pcep_lsp_req	q, d;
	struct pcep_err		e;
	struct vec		v;

	fill_assoc(&q);
	start();
	vec(&v, "20 0a 00 94 " LSP_UP_D ASSOC_SR ASSOC_PROT6 ERO1);
	CHECK(pcep_reqs_encode(&w, PCEP_MSG_PCRPT, &q, 1) == 0,
	    "association encode");
	CHECK_OUT(&v, "PCRpt with an SR policy and a path protection "
	    "association");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 94 " LSP_UP_D ASSOC_SR
	    ASSOC_PROT6 ERO1, &e, &d) == 0 && d.n_assoc == 2,
	    "association decode");
	check_assoc_sr(&d.assoc[0]);
	CHECK(d.assoc[1].af == 6 && d.assoc[1].removal &&
	    d.assoc[1].type == PCEP_ASSOC_T_PROTECTION && d.assoc[1].id == 3 &&
	    d.assoc[1].src[15] == 1 && d.assoc[1].has_prot &&
	    d.assoc[1].prot == 0x20000001 && !d.assoc[1].has_color,
	    "path protection association (IPv6)");
	/* FRR's pceplib: type 65535, TLVs 60-63, its name padded with NULs
	 * inside the TLV's length. */
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 64 " LSP_UP_D
	    "28 10 00 4c 00 00 00 00 ff ff 00 01 7f 04 00 01 "
	    "00 3c 00 08 00 00 00 01 c0 00 02 01 "	/* color 1, 192.0.2.1 */
	    "00 3d 00 04 70 31 00 00 "			/* "p1" */
	    "00 3e 00 1c 14 00 00 00 00 00 00 01 "	/* origin 20, ASN 1 */
	    "00 00 00 00 00 00 00 00 00 00 00 00 7f 04 00 01 "
	    "00 00 00 05 "				/* discriminator 5 */
	    "00 3f 00 04 00 00 00 64 "			/* preference 100 */
	    ERO1, &e, &d) == 0 && d.n_assoc == 1, "FRR's SR policy decode");
	CHECK(d.assoc[0].type == PCEP_ASSOC_T_SR_POL_OLD &&
	    d.assoc[0].has_color && d.assoc[0].color == 1 &&
	    d.assoc[0].pol_name_len == 2 && d.assoc[0].has_cpath_id &&
	    d.assoc[0].origin == 20 && d.assoc[0].discriminator == 5 &&
	    d.assoc[0].has_pref && d.assoc[0].pref == 100,
	    "FRR's SR policy TLVs");
}

#define ASSOC_MIN	"28 10 00 10 00 00 00 00 00 01 00 01 0a 00 00 01 "

static void
test_assoc_malformed(void)
{
	struct pcep_lsp_req	d;
	struct pcep_err		e;

	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 20 " LSP1
	    "28 10 00 08 00 00 00 00 " ERO1, &e, &d) == -1,
	    "association body of 4 bytes");
	CHECK_ERR(e, 10, 11, "association body of 4 bytes");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 28 " LSP1
	    "28 20 00 10 00 00 00 00 00 01 00 01 20 01 0d b8 " ERO1, &e,
	    &d) == -1, "IPv6 association with 4 bytes of source");
	CHECK_ERR(e, 10, 11, "IPv6 association with 4 bytes of source");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 34 " LSP1
	    "28 10 00 1c 00 00 00 00 00 06 00 01 0a 00 00 01 "
	    "00 1f 00 06 00 00 00 01 00 00 00 00 " ERO1, &e, &d) == -1,
	    "SR policy color and endpoint of 6 bytes");
	CHECK_ERR(e, 10, 11, "SR policy color and endpoint of 6 bytes");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 2c " LSP1
	    "28 10 00 14 00 00 00 00 00 06 00 01 0a 00 00 01 "
	    "00 39 00 1c " ERO1, &e, &d) == -1,
	    "SR policy TLV past the object");
	CHECK_ERR(e, 10, 11, "SR policy TLV past the object");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 2c " LSP1
	    "28 10 00 14 00 00 00 00 00 06 00 01 0a 00 00 01 "
	    "00 38 00 00 " ERO1, &e, &d) == -1, "empty policy name");
	CHECK_ERR(e, 10, 11, "empty policy name");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 24 " LSP1
	    "28 32 00 0c 00 00 00 00 00 06 00 01 " ERO1, &e, &d) == -1,
	    "association object type 3 with P");
	CHECK_ERR(e, 3, 2, "association object type 3 with P");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 48 " LSP1 ASSOC_MIN
	    ASSOC_MIN ASSOC_MIN ERO1, &e, &d) == 0 && d.n_assoc == 2 &&
	    d.assoc_skipped == 1, "a third association is skipped, counted");
}

static void
test_open_assoc_types(void)
{
	struct pcep_open	op, back;
	struct pcep_err		e;
	struct rbuf		r;
	struct vec		v;

	memset(&op, 0, sizeof(op));
	op.keepalive = 30;
	op.deadtimer = 120;
	op.n_assoc_types = 3;
	op.assoc_types[0] = PCEP_ASSOC_T_PROTECTION;
	op.assoc_types[1] = PCEP_ASSOC_T_DISJOINT;
	op.assoc_types[2] = PCEP_ASSOC_T_SR_POLICY;
	start();
	vec(&v, "20 01 00 18 01 10 00 14 20 1e 78 00 "
	    "00 23 00 06 "		/* ASSOC-Type-List, 6 */
	    "00 01 00 02 00 06 00 00");	/* 1, 2, 6, padding */
	CHECK(pcep_open_encode(&w, &op) == 0, "open with ASSOC-Type-List");
	CHECK_OUT(&v, "open ASSOC-Type-List bytes");
	body_of(&r, &v);
	CHECK(pcep_open_decode(&r, &back, &e) == 0 &&
	    back.n_assoc_types == 3 && back.assoc_types[2] == 6,
	    "open ASSOC-Type-List decode");
	vec(&v, "20 01 00 14 01 10 00 10 20 1e 78 00 "
	    "00 23 00 03 00 01 00 00");	/* an odd length */
	body_of(&r, &v);
	CHECK(pcep_open_decode(&r, &back, &e) == -1 && e.type != 0,
	    "ASSOC-Type-List of 3 bytes");
}

/* ---- TE-PATH-BINDING (RFC 9604) ---- */

#define BSID_MPLS	"00 37 00 08 00 00 00 00 05 dc 00 00 " /* BT 0, 24000 */

static void
test_bsid(void)
{
	struct pcep_lsp_req	q, d;
	struct pcep_err		e;
	struct vec		v;

	memset(&q, 0, sizeof(q));
	q.lsp.plsp_id = 1;
	q.lsp.flags = PCEP_LSP_FLAG_D;
	q.lsp.oper = PCEP_OPER_UP;
	q.lsp.has_bsid = 1;
	q.lsp.bsid.bt = PCEP_BT_MPLS_LABEL;
	q.lsp.bsid.value = 24000u << PCEP_SR_LABEL_SHIFT;
	q.has_ero = 1;
	q.ero.n = 1;
	q.ero.hop[0].kind = PCEP_SUBOBJ_IPV4;
	q.ero.hop[0].addr = IP(10, 0, 0, 5);
	q.ero.hop[0].prefix_len = 32;
	start();
	vec(&v, "20 0a 00 24 "
	    "20 12 00 14 00 00 10 11 "	/* LSP, PLSP-ID 1, UP, D */
	    BSID_MPLS ERO1);
	CHECK(pcep_reqs_encode(&w, PCEP_MSG_PCRPT, &q, 1) == 0,
	    "binding SID encode");
	CHECK_OUT(&v, "PCRpt with an MPLS binding SID");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 24 20 12 00 14 00 00 10 11 "
	    BSID_MPLS ERO1, &e, &d) == 0 && d.lsp.has_bsid &&
	    d.lsp.bsid.bt == 0 && d.lsp.bsid.value >> 12 == 24000,
	    "MPLS binding SID decode");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 38 20 12 00 28 00 00 10 11 "
	    "00 37 00 1c 03 80 00 00 "	/* BT 3, R */
	    "fc 00 00 00 00 00 00 01 00 00 00 00 00 00 00 02 "
	    "00 00 00 30 20 10 10 00 "	/* behavior 48, structure */
	    ERO1, &e, &d) == 0 && d.lsp.has_bsid && d.lsp.bsid.bt == 3 &&
	    d.lsp.bsid.flags == PCEP_BSID_FLAG_R && d.lsp.bsid.sid[0] == 0xfc &&
	    d.lsp.bsid.sid[15] == 2 && d.lsp.bsid.behavior[3] == 0x30,
	    "SRv6 binding SID with its behavior decode");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 30 20 12 00 20 00 00 10 11 "
	    BSID_MPLS "00 37 00 08 00 00 00 00 05 dd 00 00 " ERO1, &e, &d) == 0 &&
	    d.lsp.bsid.value >> 12 == 24000 && d.lsp.bsid_skipped == 1,
	    "a second binding SID is skipped, counted");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 30 20 12 00 20 00 00 10 11 "
	    "00 37 00 14 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 "
	    "00 00 00 00 " ERO1, &e, &d) == -1, "MPLS binding of 16 bytes");
	CHECK_ERR(e, 10, 11, "MPLS binding of 16 bytes");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 24 20 12 00 14 00 00 10 11 "
	    "00 37 00 08 09 00 00 00 00 00 00 00 " ERO1, &e, &d) == -1,
	    "binding type 9");
	CHECK_ERR(e, 10, 11, "binding type 9");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 1c 20 12 00 0c 00 00 10 11 "
	    "00 37 00 00 " ERO1, &e, &d) == -1, "empty TE-PATH-BINDING");
	CHECK_ERR(e, 10, 11, "empty TE-PATH-BINDING");
}

/* ---- SRv6 (RFC 9603) ---- */

#define SRV6_SID1	"fc 00 00 00 00 01 00 00 00 00 00 00 00 00 00 07 "
#define SRV6_SID2	"fc 00 00 00 00 02 00 00 00 00 00 00 00 00 00 07 "
#define SRV6_HOP_F	"28 18 00 02 00 00 00 01 " SRV6_SID1	/* F, End */

static void
test_srv6(void)
{
	static const uint8_t	sid1[16] = { 0xfc, 0, 0, 0, 0, 1, [15] = 7 };
	static const uint8_t	sid2[16] = { 0xfc, 0, 0, 0, 0, 2, [15] = 7 };
	static const uint8_t	node[16] = { 0x20, 0x01, 0x0d, 0xb8,
	    [15] = 2 };
	static const uint8_t	st[8] = { 0x20, 0x10, 0x10 };
	struct pcep_lsp_req	q, d;
	struct pcep_err		e;
	struct vec		v;
	struct pcep_hop		*h = &q.ero.hop[1];

	memset(&q, 0, sizeof(q));
	q.has_srp = 1;
	q.srp.has_pst = 1;
	q.srp.pst = PCEP_PST_SRV6;
	q.lsp.plsp_id = 1;
	q.lsp.flags = PCEP_LSP_FLAG_D;
	q.lsp.oper = PCEP_OPER_UP;
	q.has_ero = 1;
	q.ero.n = 2;
	pcep_hop_srv6(&q.ero.hop[0], sid1, PCEP_SRV6_END);
	h->kind = PCEP_SUBOBJ_SRV6;
	h->nt = PCEP_NAI_IPV6_NODE;
	h->sr_flags = PCEP_SRV6_FLAG_T;
	h->behavior = 48;
	memcpy(h->sid6, sid2, 16);
	h->nai_len = 16;
	memcpy(h->nai, node, 16);
	memcpy(h->sid_struct, st, 8);
	start();
	vec(&v, "20 0a 00 6c "
	    "21 12 00 14 00 00 00 00 00 00 00 00 "	/* SRP */
	    "00 1c 00 04 00 00 00 03 "		/* PATH-SETUP-TYPE 3 */
	    "20 12 00 08 00 00 10 11 "		/* LSP */
	    "07 12 00 4c " SRV6_HOP_F
	    "28 30 20 04 00 00 00 30 " SRV6_SID2	/* NT 2, T, behavior 48 */
	    "20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 02 " /* NAI */
	    "20 10 10 00 00 00 00 00");		/* SID structure */
	CHECK(pcep_reqs_encode(&w, PCEP_MSG_PCRPT, &q, 1) == 0,
	    "SRv6 ERO encode");
	CHECK_OUT(&v, "PCRpt with two SRv6-ERO subobjects");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 6c "
	    "21 12 00 14 00 00 00 00 00 00 00 00 00 1c 00 04 00 00 00 03 "
	    "20 12 00 08 00 00 10 11 07 12 00 4c " SRV6_HOP_F
	    "28 30 20 04 00 00 00 30 " SRV6_SID2
	    "20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 02 "
	    "20 10 10 00 00 00 00 00", &e, &d) == 0 && d.srp.pst == 3 &&
	    d.ero.n == 2, "SRv6 ERO decode");
	CHECK(d.ero.hop[0].kind == PCEP_SUBOBJ_SRV6 &&
	    d.ero.hop[0].behavior == 1 && memcmp(d.ero.hop[0].sid6, sid1,
	    16) == 0 && d.ero.hop[1].nt == PCEP_NAI_IPV6_NODE &&
	    d.ero.hop[1].nai_len == 16 && d.ero.hop[1].behavior == 48 &&
	    memcmp(d.ero.hop[1].sid_struct, st, 8) == 0,
	    "SRv6 hops: SID, behavior, NAI, structure");
}

static void
test_srv6_malformed(void)
{
	struct pcep_lsp_req	d;
	struct pcep_err		e;
	struct pcep_open	op, back;
	struct rbuf		r;
	struct vec		v;

	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 2c " LSP1 "07 12 00 20 "
	    "28 1c 10 00 00 00 00 01 " SRV6_SID1 "0a 00 00 01", &e, &d) == -1,
	    "SRv6 hop with an IPv4 NAI");
	CHECK_ERR(e, 10, 13, "SRv6 hop with an IPv4 NAI");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 18 " LSP1 "07 12 00 0c "
	    "28 08 00 03 00 00 00 01", &e, &d) == -1, "SRv6 hop without SID "
	    "and NAI");
	CHECK_ERR(e, 10, 6, "SRv6 hop without SID and NAI");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 2c " LSP1 "07 12 00 20 "
	    "28 1c 00 02 00 00 00 01 " SRV6_SID1 "00 00 00 00", &e, &d) == -1,
	    "SRv6 hop with 4 bytes too many");
	CHECK_ERR(e, 10, 11, "SRv6 hop with 4 bytes too many");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 14 " LSP1 "07 12 00 08 "
	    "28 04 00 02", &e, &d) == -1, "SRv6 hop of 4 bytes");
	CHECK_ERR(e, 10, 11, "SRv6 hop of 4 bytes");
	CHECK(decode_all(PCEP_MSG_PCRPT, "20 0a 00 34 " LSP1 "07 12 00 28 "
	    "24 0c 10 01 00 3e 80 00 0a 00 00 09 " SRV6_HOP_F, &e, &d) == -1,
	    "SR-ERO and SRv6-ERO in one ERO");
	CHECK_ERR(e, 10, 5, "SR-ERO and SRv6-ERO in one ERO");

	memset(&op, 0, sizeof(op));
	op.keepalive = 30;
	op.deadtimer = 120;
	op.n_pst = 2;
	op.pst[1] = PCEP_PST_SRV6;
	op.has_srv6 = 1;
	start();
	vec(&v, "20 01 00 20 01 10 00 1c 20 1e 78 00 "
	    "00 22 00 10 00 00 00 02 00 03 00 00 "	/* PSTs 0, 3 */
	    "00 1b 00 04 00 00 00 00");		/* SRv6-PCE-CAPABILITY */
	CHECK(pcep_open_encode(&w, &op) == 0, "open with SRv6 capability");
	CHECK_OUT(&v, "open SRv6-PCE-CAPABILITY bytes");
	body_of(&r, &v);
	CHECK(pcep_open_decode(&r, &back, &e) == 0 && back.has_srv6 &&
	    back.n_pst == 2 && back.pst[1] == PCEP_PST_SRV6,
	    "open SRv6-PCE-CAPABILITY decode");
}

static void
test_limits(void)
{
	static struct pcep_lsp_req	q[1200];
	uint8_t				small[10];
	size_t				i;

	/* 1200 reports of 68 bytes do not fit in 65535. */
	for (i = 0; i < 1200; i++)
		fill_rpt_b(&q[i]);
	start();
	CHECK(pcep_reqs_encode(&w, PCEP_MSG_PCRPT, q, 1200) == -1 && w.err,
	    "a message over 65535 bytes sets err");
	start();
	CHECK(pcep_reqs_encode(&w, PCEP_MSG_PCRPT, q, 900) == 0 && !w.err &&
	    w.len == 4 + 900 * 60, "900 reports in one message");
	wbuf_init(&w, small, sizeof(small));
	CHECK(pcep_keepalive_encode(&w) == 0 && w.len == 4,
	    "keepalive fits in 10 bytes");
	CHECK(pcep_close_encode(&w, 1) == -1 && w.err,
	    "close does not fit in the 6 left");
}

/* Stored hops (what the PCC and the PCE keep) and back to an ERO. */
static void
test_hop_recs(void)
{
	struct pcep_ero		in, back;
	struct pcep_hop_rec	rec[2];

	memset(&in, 0, sizeof(in));
	in.n = 2;
	in.hop[0].kind = PCEP_SUBOBJ_IPV4;
	in.hop[0].loose = 1;
	in.hop[0].addr = 0x0a000001;
	in.hop[0].prefix_len = 32;
	pcep_hop_sr_ipv4(&in.hop[1], 16001, 0x0a000002, 0x0a000003, 1);
	pcep_hop_rec_set(&rec[0], &in.hop[0]);
	pcep_hop_rec_set(&rec[1], &in.hop[1]);
	CHECK(rec[0].kind == PCEP_SUBOBJ_IPV4 && rec[0].loose &&
	    rec[0].addr == 0x0a000001 && rec[0].plen == 32,
	    "an IPv4 hop is kept");
	CHECK(rec[1].kind == PCEP_SUBOBJ_SR && rec[1].nt == PCEP_NAI_IPV4_ADJ &&
	    rec[1].addr == 0x0a000002 && rec[1].addr2 == 0x0a000003 &&
	    rec[1].sid == in.hop[1].sid, "an SR adjacency hop is kept");
	pcep_ero_from_recs(rec, 2, &back);
	CHECK(back.n == 2 && back.hop[0].addr == 0x0a000001 &&
	    back.hop[0].prefix_len == 32 && back.hop[0].loose &&
	    back.hop[1].kind == PCEP_SUBOBJ_SR &&
	    back.hop[1].sid == in.hop[1].sid &&
	    back.hop[1].nai_len == in.hop[1].nai_len &&
	    memcmp(back.hop[1].nai, in.hop[1].nai, in.hop[1].nai_len) == 0,
	    "stored hops make the same ERO again");
	rec[0].plen = 0;
	pcep_ero_from_recs(rec, 1, &back);
	CHECK(back.n == 1 && back.hop[0].prefix_len == 32,
	    "an IPv4 hop stored without a length is a /32");
}

static const struct check_case cases[] = {
	CASE(test_hop_recs),
	CASE(test_header),
	CASE(test_open),
	CASE(test_keepalive_close),
	CASE(test_pcerr),
	CASE(test_pcntf),
	CASE(test_pcrpt),
	CASE(test_eos),
	CASE(test_pcupd),
	CASE(test_pcinitiate),
	CASE(test_malformed),
	CASE(test_assoc),
	CASE(test_assoc_malformed),
	CASE(test_open_assoc_types),
	CASE(test_bsid),
	CASE(test_srv6),
	CASE(test_srv6_malformed),
	CASE(test_limits),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
