/*
 * PCEP codec: framing, objects, TLVs and the messages a PCC exchanges with
 * a stateful PCE.  Every field is read or written in order through the
 * bounds-checked rbuf/wbuf; offsets are never computed by hand except the
 * length fields patched with wbuf_set_u16 at a recorded start.
 *
 * Object order inside requests is taken leniently (attributes in any
 * order after the LSP), as the grammars of RFC 8231 6.1 allow several
 * attribute lists; mandatory objects are checked once a request ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "log.h"
#include "pcep_codec.h"
#include "pcep_wire.h"

static int
bad(struct pcep_err *err, enum pcep_error e)
{
	if (err != NULL)
		pcep_err_set(err, e);
	return -1;
}

/* Framing is lost: answer 10/11 if at all, then close (RFC 5440 7.17). */
static int
bad_frame(struct pcep_err *err, enum pcep_error e)
{
	bad(err, e);
	if (err != NULL)
		err->close_reason = PCEP_CLOSE_MALFORMED;
	return -1;
}

void
pcep_err_set(struct pcep_err *err, enum pcep_error e)
{
	err->type = (uint8_t)(e >> 8);
	err->value = (uint8_t)(e & 0xff);
	err->close_reason = 0;
}

enum pcep_error
pcep_err_code(const struct pcep_err *err)
{
	return (enum pcep_error)PCEP_E(err->type, err->value);
}

static const struct {
	enum pcep_error	 e;
	const char	*name;
} pcep_errors[] = {
	{ PCEP_E_OPEN_INVALID, "invalid Open message" },
	{ PCEP_E_OPENWAIT_EXPIRED, "no Open before OpenWait expired" },
	{ PCEP_E_OPEN_UNACCEPTABLE, "unacceptable session characteristics" },
	{ PCEP_E_OPEN_NEGOTIABLE, "negotiable session characteristics" },
	{ PCEP_E_OPEN_SECOND_UNACCEPTABLE, "second Open still unacceptable" },
	{ PCEP_E_OPEN_PCERR_UNACCEPTABLE, "PCErr proposes unacceptable" },
	{ PCEP_E_KEEPWAIT_EXPIRED, "no Keepalive before KeepWait expired" },
	{ PCEP_E_VERSION, "PCEP version not supported" },
	{ PCEP_E_CAPABILITY, "capability not supported" },
	{ PCEP_E_UNKNOWN_CLASS, "unrecognized object class" },
	{ PCEP_E_UNKNOWN_TYPE, "unrecognized object type" },
	{ PCEP_E_UNSUPP_CLASS, "not supported object class" },
	{ PCEP_E_UNSUPP_TYPE, "not supported object type" },
	{ PCEP_E_POLICY_METRIC_C, "policy: C bit of METRIC set" },
	{ PCEP_E_POLICY_RP_O, "policy: O bit of RP set" },
	{ PCEP_E_MISSING_RP, "RP object missing" },
	{ PCEP_E_MISSING_RRO, "RRO missing for reoptimization" },
	{ PCEP_E_MISSING_ENDPOINTS, "END-POINTS object missing" },
	{ PCEP_E_MISSING_LSP, "LSP object missing" },
	{ PCEP_E_MISSING_ERO, "ERO object missing" },
	{ PCEP_E_MISSING_SRP, "SRP object missing" },
	{ PCEP_E_MISSING_LSP_IDS, "LSP-IDENTIFIERS TLV missing" },
	{ PCEP_E_MISSING_DB_VERSION, "LSP-DB-VERSION TLV missing" },
	{ PCEP_E_SYNC_REQ_MISSING, "synchronized request missing" },
	{ PCEP_E_UNKNOWN_REQ_REF, "unknown request reference" },
	{ PCEP_E_SECOND_SESSION, "second PCEP session" },
	{ PCEP_E_INVALID_P_FLAG, "P flag not set where required" },
	{ PCEP_E_BAD_LABEL, "bad label value" },
	{ PCEP_E_SR_ERO_COUNT, "unsupported number of SR-ERO subobjects" },
	{ PCEP_E_BAD_LABEL_FORMAT, "bad label format" },
	{ PCEP_E_ERO_SR_MIX, "ERO mixes SR-ERO and other subobjects" },
	{ PCEP_E_SR_SID_NAI_ABSENT, "SR-ERO with neither SID nor NAI" },
	{ PCEP_E_SYMBOLIC_NAME_MISSING, "SYMBOLIC-PATH-NAME TLV missing" },
	{ PCEP_E_MALFORMED_OBJECT, "malformed object" },
	{ PCEP_E_UNSUPPORTED_NAI, "unsupported NAI type" },
	{ PCEP_E_UPDATE_NOT_DELEGATED, "update for a non-delegated LSP" },
	{ PCEP_E_UPDATE_NOT_STATEFUL, "update without stateful capability" },
	{ PCEP_E_UPDATE_UNKNOWN_PLSP, "update for an unknown PLSP-ID" },
	{ PCEP_E_REPORT_NOT_STATEFUL, "report without stateful capability" },
	{ PCEP_E_INIT_LIMIT, "PCE-initiated LSP limit reached" },
	{ PCEP_E_INIT_DELEGATION_REVOKE, "delegation cannot be revoked" },
	{ PCEP_E_INIT_NONZERO_PLSP, "non-zero PLSP-ID in initiate" },
	{ PCEP_E_NOT_PCE_INITIATED, "LSP is not PCE-initiated" },
	{ PCEP_E_INIT_FREQUENCY, "initiate frequency limit reached" },
	{ PCEP_E_SYNC_CANNOT_PROCESS, "PCE cannot process the report" },
	{ PCEP_E_SYNC_DB_MISMATCH, "LSP-DB-VERSION mismatch" },
	{ PCEP_E_SYNC_TRIGGER_EARLY, "sync triggered before PCE trigger" },
	{ PCEP_E_SYNC_TRIGGER_NO_CAP, "sync triggered without capability" },
	{ PCEP_E_SYNC_PCC_CANNOT, "PCC cannot complete synchronization" },
	{ PCEP_E_SYNC_BAD_DB_VERSION, "invalid LSP-DB-VERSION" },
	{ PCEP_E_SYNC_BAD_SPEAKER_ID, "invalid speaker entity identifier" },
	{ PCEP_E_PST_UNSUPPORTED, "unsupported path setup type" },
	{ PCEP_E_PST_MISMATCH, "mismatched path setup type" },
	{ PCEP_E_NAME_IN_USE, "symbolic path name in use" },
	{ PCEP_E_SPEAKER_NOT_INITIATED, "speaker id for a PCC LSP" },
	{ PCEP_E_INIT_UNACCEPTABLE, "unacceptable instantiation parameters" },
	{ PCEP_E_INIT_INTERNAL, "instantiation internal error" },
	{ PCEP_E_INIT_SIGNALING, "instantiation signaling error" },
	{ PCEP_E_ASSOC_TYPE_UNSUPPORTED, "association type not supported" },
};

const char *
pcep_error_name(uint8_t type, uint8_t value)
{
	enum pcep_error	e = (enum pcep_error)PCEP_E(type, value);
	size_t		i;

	for (i = 0; i < sizeof(pcep_errors) / sizeof(pcep_errors[0]); i++)
		if (pcep_errors[i].e == e)
			return pcep_errors[i].name;
	return "unknown error";
}

const char *
pcep_msg_name(uint8_t type)
{
	switch (type) {
	case PCEP_MSG_OPEN:		return "Open";
	case PCEP_MSG_KEEPALIVE:	return "Keepalive";
	case PCEP_MSG_PCREQ:		return "PCReq";
	case PCEP_MSG_PCREP:		return "PCRep";
	case PCEP_MSG_PCNTF:		return "PCNtf";
	case PCEP_MSG_PCERR:		return "PCErr";
	case PCEP_MSG_CLOSE:		return "Close";
	case PCEP_MSG_PCRPT:		return "PCRpt";
	case PCEP_MSG_PCUPD:		return "PCUpd";
	case PCEP_MSG_PCINITIATE:	return "PCInitiate";
	default:			return "unknown";
	}
}

/* ---- framing ---- */

long
pcep_frame_length(const uint8_t *hdr, struct pcep_err *err)
{
	unsigned	len = (unsigned)hdr[2] << 8 | hdr[3];

	if (hdr[0] >> PCEP_VER_SHIFT != PCEP_VERSION)
		return bad_frame(err, PCEP_E_VERSION);
	if (len < PCEP_HDR_LEN)
		return bad_frame(err, PCEP_E_MALFORMED_OBJECT);
	return (long)len;
}

int
pcep_header_decode(struct rbuf *r, struct pcep_header *h, struct pcep_err *err)
{
	uint8_t	hb[PCEP_HDR_LEN];
	long	len;

	if (rbuf_get_bytes(r, hb, sizeof(hb)) == -1)
		return bad_frame(err, PCEP_E_MALFORMED_OBJECT);
	if ((len = pcep_frame_length(hb, err)) == -1)
		return -1;
	h->version = hb[0] >> PCEP_VER_SHIFT;
	h->flags = hb[0] & PCEP_HDR_FLAGS_MASK;
	h->type = hb[1];
	h->length = (uint16_t)len;
	return 0;
}

int
pcep_msg_split(struct rbuf *stream, struct pcep_header *h, struct rbuf *body,
    struct pcep_err *err)
{
	struct rbuf	peek = *stream;

	if (rbuf_left(stream) < PCEP_HDR_LEN)
		return 0;
	if (pcep_header_decode(&peek, h, err) == -1)
		return -1;
	if (rbuf_left(stream) < h->length)
		return 0;
	rbuf_skip(stream, PCEP_HDR_LEN);
	rbuf_sub(stream, body, h->length - PCEP_HDR_LEN);
	return 1;
}

/* Next object of a body: 1, or 0 at its end, -1 on a bad object header. */
static int
pcep_obj_next(struct rbuf *r, struct pcep_obj *o, struct pcep_err *err)
{
	uint16_t	len;
	uint8_t		tf;

	if (rbuf_left(r) == 0)
		return 0;
	if (rbuf_get_u8(r, &o->oclass) == -1 || rbuf_get_u8(r, &tf) == -1 ||
	    rbuf_get_u16(r, &len) == -1)
		return bad_frame(err, PCEP_E_MALFORMED_OBJECT);
	o->otype = tf >> PCEP_OBJ_TYPE_SHIFT;
	o->flags = tf & (PCEP_OBJ_FLAG_P | PCEP_OBJ_FLAG_I);
	/* RFC 5440 7.2: a multiple of 4, header included. */
	if (len < PCEP_OBJ_HDR_LEN || len % PCEP_ALIGN != 0 ||
	    rbuf_sub(r, &o->body, len - PCEP_OBJ_HDR_LEN) == -1)
		return bad_frame(err, PCEP_E_MALFORMED_OBJECT);
	return 1;
}

/* ---- encoding frames ---- */

size_t
pcep_msg_begin(struct wbuf *w, uint8_t type)
{
	size_t	start = w->len;

	wbuf_put_u8(w, PCEP_VERSION << PCEP_VER_SHIFT);
	wbuf_put_u8(w, type);
	wbuf_put_u16(w, 0);		/* patched by pcep_msg_end */
	return start;
}

/* Patch the 16-bit length of a message, object or TLV begun at start. */
static int
patch_len(struct wbuf *w, size_t start, size_t len)
{
	if (w->err)
		return -1;
	if (len > PCEP_MAX_MSG) {
		w->err = 1;
		return -1;
	}
	return wbuf_set_u16(w, start + PCEP_LEN_OFF, (uint16_t)len);
}

int
pcep_msg_end(struct wbuf *w, size_t start)
{
	return patch_len(w, start, w->len - start);
}

size_t
pcep_obj_begin(struct wbuf *w, uint8_t oclass, uint8_t otype, uint8_t flags)
{
	size_t	start = w->len;

	wbuf_put_u8(w, oclass);
	wbuf_put_u8(w, (uint8_t)(otype << PCEP_OBJ_TYPE_SHIFT |
	    (flags & (PCEP_OBJ_FLAG_P | PCEP_OBJ_FLAG_I))));
	wbuf_put_u16(w, 0);
	return start;
}

static void
pad_from(struct wbuf *w, size_t start)
{
	while (!w->err && (w->len - start) % PCEP_ALIGN != 0)
		wbuf_put_u8(w, 0);
}

int
pcep_obj_end(struct wbuf *w, size_t start)
{
	pad_from(w, start);
	return patch_len(w, start, w->len - start);
}

static size_t
tlv_begin(struct wbuf *w, uint16_t type)
{
	size_t	start = w->len;

	wbuf_put_u16(w, type);
	wbuf_put_u16(w, 0);
	return start;
}

/* RFC 5440 7.1: the TLV length leaves the padding out. */
static void
tlv_end(struct wbuf *w, size_t start)
{
	patch_len(w, start, w->len - start - PCEP_TLV_HDR_LEN);
	pad_from(w, start);
}

static void
tlv_u32(struct wbuf *w, uint16_t type, uint32_t v)
{
	size_t	t = tlv_begin(w, type);

	wbuf_put_u32(w, v);
	tlv_end(w, t);
}

static void
tlv_u64(struct wbuf *w, uint16_t type, uint64_t v)
{
	size_t	t = tlv_begin(w, type);

	wbuf_put_u64(w, v);
	tlv_end(w, t);
}

/* ---- TLV and field decoding ---- */

/* Next TLV of an object body: 1, 0 at the end, -1 malformed (10/11). */
static int
tlv_next(struct rbuf *r, uint16_t *type, struct rbuf *val,
    struct pcep_err *err)
{
	uint16_t	len;
	size_t		pad;

	if (rbuf_left(r) == 0)
		return 0;
	if (rbuf_get_u16(r, type) == -1 || rbuf_get_u16(r, &len) == -1 ||
	    rbuf_sub(r, val, len) == -1)
		return bad(err, PCEP_E_MALFORMED_OBJECT);
	pad = (PCEP_ALIGN - len % PCEP_ALIGN) % PCEP_ALIGN;
	rbuf_skip(r, pad < rbuf_left(r) ? pad : rbuf_left(r));
	return 1;
}

static int
need_len(const struct rbuf *v, size_t len, struct pcep_err *err)
{
	if (rbuf_left(v) != len)
		return bad(err, PCEP_E_MALFORMED_OBJECT);
	return 0;
}

/* Each TLV of the rest of an object body through fn (which ignores the
 * types it does not know, RFC 5440 7.1): 0 at the end, -1 as soon as a
 * TLV is malformed or fn turns one down. */
static int
tlv_each(struct rbuf *b, int (*fn)(uint16_t type, struct rbuf *v,
    void *obj, struct pcep_err *err), void *obj, struct pcep_err *err)
{
	struct rbuf	val;
	uint16_t	type;
	int		rc;

	while ((rc = tlv_next(b, &type, &val, err)) == 1)
		if (fn(type, &val, obj, err) == -1)
			return -1;
	return rc;
}

/* A TLV of one 32-bit value (u64: LSP-DB-VERSION's 64), its length checked
 * (10/11 when it is not that); *has set once read. */
static int
tlv_get_u32(struct rbuf *v, size_t len, uint8_t *has, uint32_t *val,
    struct pcep_err *err)
{
	if (need_len(v, len, err) == -1)
		return -1;
	*has = 1;
	return rbuf_get_u32(v, val);
}

static int
tlv_get_u64(struct rbuf *v, uint8_t *has, uint64_t *val,
    struct pcep_err *err)
{
	if (need_len(v, PCEP_DB_VERSION_LEN, err) == -1)
		return -1;
	*has = 1;
	return rbuf_get_u64(v, val);
}

static float
float_of(uint32_t u)
{
	float	f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

static uint32_t
bits_of(float f)
{
	uint32_t	u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static int
get_float(struct rbuf *r, float *f)
{
	uint32_t	u;

	if (rbuf_get_u32(r, &u) == -1)
		return -1;
	*f = float_of(u);
	return 0;
}

/* ---- OPEN (RFC 5440 7.3) ---- */

static int
sr_cap_decode(struct rbuf *v, struct pcep_open *op, struct pcep_err *err)
{
	if (need_len(v, PCEP_SR_PCE_CAP_LEN, err) == -1)
		return -1;
	rbuf_skip(v, 2);			/* Reserved */
	rbuf_get_u8(v, &op->sr_flags);
	rbuf_get_u8(v, &op->msd);
	op->has_sr = 1;
	return 0;
}

/* RFC 9603 4.1.1: Reserved(16) Flags(16), then MSD-Type/Value pairs
 * (not kept). */
static int
srv6_cap_decode(struct rbuf *v, struct pcep_open *op, struct pcep_err *err)
{
	if (rbuf_left(v) < 4 || rbuf_left(v) % 2 != 0)
		return bad(err, PCEP_E_MALFORMED_OBJECT);
	rbuf_skip(v, 2);
	rbuf_get_u16(v, &op->srv6_flags);
	op->has_srv6 = 1;
	return 0;
}

/* RFC 8408 3: Reserved(24) Num, the PSTs padded to 4, then sub-TLVs. */
static int
pst_cap_decode(struct rbuf *v, struct pcep_open *op, struct pcep_err *err)
{
	struct rbuf	val;
	uint16_t	type;
	uint8_t		n, pst, i;
	int		rc;

	if (rbuf_skip(v, 3) == -1 || rbuf_get_u8(v, &n) == -1 || n == 0)
		return bad(err, PCEP_E_MALFORMED_OBJECT);
	for (i = 0; i < n; i++) {
		if (rbuf_get_u8(v, &pst) == -1)
			return bad(err, PCEP_E_MALFORMED_OBJECT);
		if (op->n_pst < PCEP_MAX_PST)
			op->pst[op->n_pst++] = pst;
	}
	rbuf_skip(v, (PCEP_ALIGN - n % PCEP_ALIGN) % PCEP_ALIGN);
	while ((rc = tlv_next(v, &type, &val, err)) == 1)
		if ((type == PCEP_TLV_SR_PCE_CAP &&
		    sr_cap_decode(&val, op, err) == -1) ||
		    (type == PCEP_TLV_SRV6_PCE_CAP &&
		    srv6_cap_decode(&val, op, err) == -1))
			return -1;
	return rc;
}

/* RFC 8697 6.1: ASSOC-Type-List, 16-bit types (the rest ignored). */
static int
assoc_types_decode(struct rbuf *v, struct pcep_open *op,
    struct pcep_err *err)
{
	uint16_t	t;

	if (rbuf_left(v) == 0 || rbuf_left(v) % 2 != 0)
		return bad(err, PCEP_E_MALFORMED_OBJECT);
	while (rbuf_get_u16(v, &t) == 0)
		if (op->n_assoc_types < PCEP_ASSOC_TYPES_MAX)
			op->assoc_types[op->n_assoc_types++] = t;
	return 0;
}

/* A struct pcep_open's TLV (tlv_each()). */
static int
open_tlv(uint16_t type, struct rbuf *v, void *open, struct pcep_err *err)
{
	struct pcep_open	*op = open;

	switch (type) {
	case PCEP_TLV_STATEFUL_CAP:
		return tlv_get_u32(v, PCEP_STATEFUL_CAP_LEN, &op->has_stateful,
		    &op->stateful_flags, err);
	case PCEP_TLV_SR_PCE_CAP:
		return sr_cap_decode(v, op, err);
	case PCEP_TLV_PST_CAP:
		return pst_cap_decode(v, op, err);
	case PCEP_TLV_LSP_DB_VERSION:
		return tlv_get_u64(v, &op->has_db_version, &op->db_version,
		    err);
	case PCEP_TLV_ASSOC_TYPES:
		return assoc_types_decode(v, op, err);
	default:
		return 0;		/* RFC 5440 7.1: ignore unknown TLVs */
	}
}

static int
open_obj_decode(struct rbuf *b, struct pcep_open *op, struct pcep_err *err)
{
	uint8_t		vf;

	memset(op, 0, sizeof(*op));
	if (rbuf_get_u8(b, &vf) == -1 || rbuf_get_u8(b, &op->keepalive) == -1 ||
	    rbuf_get_u8(b, &op->deadtimer) == -1 ||
	    rbuf_get_u8(b, &op->sid) == -1)
		return bad(err, PCEP_E_OPEN_INVALID);
	if (vf >> PCEP_OPEN_VER_SHIFT != PCEP_VERSION)
		return bad(err, PCEP_E_VERSION);
	return tlv_each(b, open_tlv, op, err);
}

static void
open_obj_encode(struct wbuf *w, const struct pcep_open *op)
{
	size_t	o = pcep_obj_begin(w, PCEP_OC_OPEN, PCEP_OT_DEFAULT, 0);
	size_t	t;
	uint8_t	i;

	wbuf_put_u8(w, PCEP_VERSION << PCEP_OPEN_VER_SHIFT);
	wbuf_put_u8(w, op->keepalive);
	wbuf_put_u8(w, op->deadtimer);
	wbuf_put_u8(w, op->sid);
	if (op->has_stateful)
		tlv_u32(w, PCEP_TLV_STATEFUL_CAP, op->stateful_flags);
	if (op->n_pst > 0) {
		t = tlv_begin(w, PCEP_TLV_PST_CAP);
		wbuf_put_zero(w, 3);
		wbuf_put_u8(w, op->n_pst);
		for (i = 0; i < op->n_pst && i < PCEP_MAX_PST; i++)
			wbuf_put_u8(w, op->pst[i]);
		pad_from(w, t);
		/* RFC 8664 4.1.2: SR-PCE-CAPABILITY as a sub-TLV. */
		if (op->has_sr)
			tlv_u32(w, PCEP_TLV_SR_PCE_CAP,
			    (uint32_t)op->sr_flags << 8 | op->msd);
		if (op->has_srv6)
			tlv_u32(w, PCEP_TLV_SRV6_PCE_CAP, op->srv6_flags);
		tlv_end(w, t);
	} else if (op->has_sr)
		tlv_u32(w, PCEP_TLV_SR_PCE_CAP,
		    (uint32_t)op->sr_flags << 8 | op->msd);
	if (op->has_db_version)
		tlv_u64(w, PCEP_TLV_LSP_DB_VERSION, op->db_version);
	if (op->n_assoc_types > 0) {
		t = tlv_begin(w, PCEP_TLV_ASSOC_TYPES);
		for (i = 0; i < op->n_assoc_types &&
		    i < PCEP_ASSOC_TYPES_MAX; i++)
			wbuf_put_u16(w, op->assoc_types[i]);
		tlv_end(w, t);
	}
	pcep_obj_end(w, o);
}

int
pcep_open_encode(struct wbuf *w, const struct pcep_open *op)
{
	size_t	m = pcep_msg_begin(w, PCEP_MSG_OPEN);

	open_obj_encode(w, op);
	return pcep_msg_end(w, m);
}

/* RFC 5440 6.2: <Open Message> ::= <Common Header> <OPEN>. */
int
pcep_open_decode(struct rbuf *body, struct pcep_open *op,
    struct pcep_err *err)
{
	struct pcep_obj	o;
	struct rbuf	rest;

	if (pcep_obj_next(body, &o, err) != 1 || o.oclass != PCEP_OC_OPEN ||
	    o.otype != PCEP_OT_DEFAULT || rbuf_left(body) != 0)
		return bad(err, PCEP_E_OPEN_INVALID);
	rest = o.body;
	if (open_obj_decode(&rest, op, err) == -1) {
		if (err != NULL && err->type != 1)
			pcep_err_set(err, PCEP_E_OPEN_INVALID);
		return -1;
	}
	return 0;
}

int
pcep_keepalive_encode(struct wbuf *w)
{
	return pcep_msg_end(w, pcep_msg_begin(w, PCEP_MSG_KEEPALIVE));
}

/* ---- CLOSE (RFC 5440 7.17) ---- */

int
pcep_close_encode(struct wbuf *w, uint8_t reason)
{
	size_t	m = pcep_msg_begin(w, PCEP_MSG_CLOSE);
	size_t	o = pcep_obj_begin(w, PCEP_OC_CLOSE, PCEP_OT_DEFAULT, 0);

	wbuf_put_u16(w, 0);		/* Reserved */
	wbuf_put_u8(w, 0);		/* Flags */
	wbuf_put_u8(w, reason);
	pcep_obj_end(w, o);
	return pcep_msg_end(w, m);
}

int
pcep_close_decode(struct rbuf *body, uint8_t *reason, struct pcep_err *err)
{
	struct pcep_obj	o;
	int		rc;

	while ((rc = pcep_obj_next(body, &o, err)) == 1) {
		if (o.oclass != PCEP_OC_CLOSE)
			continue;
		if (rbuf_skip(&o.body, 3) == -1 ||
		    rbuf_get_u8(&o.body, reason) == -1)
			return bad(err, PCEP_E_MALFORMED_OBJECT);
		return 0;
	}
	if (rc == 0)
		return bad_frame(err, PCEP_E_MALFORMED_OBJECT);
	return -1;
}

/* ---- SRP (RFC 8231 7.2) and LSP (RFC 8231 7.3) ---- */

static int
srp_decode(struct rbuf *b, struct pcep_srp *srp, struct pcep_err *err)
{
	struct rbuf	val;
	uint16_t	type;
	int		rc;

	memset(srp, 0, sizeof(*srp));
	if (rbuf_get_u32(b, &srp->flags) == -1 ||
	    rbuf_get_u32(b, &srp->srp_id) == -1)
		return bad(err, PCEP_E_MALFORMED_OBJECT);
	while ((rc = tlv_next(b, &type, &val, err)) == 1) {
		if (type != PCEP_TLV_PST)
			continue;
		if (need_len(&val, PCEP_PST_LEN, err) == -1)
			return -1;
		rbuf_skip(&val, 3);
		rbuf_get_u8(&val, &srp->pst);
		srp->has_pst = 1;
	}
	return rc;
}

static void
srp_encode(struct wbuf *w, const struct pcep_srp *srp)
{
	size_t	o = pcep_obj_begin(w, PCEP_OC_SRP, PCEP_OT_DEFAULT,
	    PCEP_OBJ_FLAG_P);

	wbuf_put_u32(w, srp->flags);
	wbuf_put_u32(w, srp->srp_id);
	if (srp->has_pst)
		tlv_u32(w, PCEP_TLV_PST, srp->pst);
	pcep_obj_end(w, o);
}

static int
lsp_ids_decode(struct rbuf *v, int af, struct pcep_lsp_ids *ids,
    struct pcep_err *err)
{
	if (need_len(v, af == 4 ? PCEP_IPV4_LSP_IDS_LEN :
	    PCEP_IPV6_LSP_IDS_LEN, err) == -1)
		return -1;
	ids->af = (uint8_t)af;
	if (af == 4) {
		rbuf_get_u32(v, &ids->sender4);
		rbuf_get_u16(v, &ids->lsp_id);
		rbuf_get_u16(v, &ids->tunnel_id);
		rbuf_get_u32(v, &ids->ext_id4);
		return rbuf_get_u32(v, &ids->endpoint4);
	}
	rbuf_get_bytes(v, ids->sender6, sizeof(ids->sender6));
	rbuf_get_u16(v, &ids->lsp_id);
	rbuf_get_u16(v, &ids->tunnel_id);
	rbuf_get_bytes(v, ids->ext_id6, sizeof(ids->ext_id6));
	return rbuf_get_bytes(v, ids->endpoint6, sizeof(ids->endpoint6));
}

/* RFC 9604 4: each binding type has its own length; an unknown type is
 * 10/11 too (section 5: a PCC cannot bind what it cannot read). */
static int
bsid_decode(struct rbuf *v, struct pcep_lsp *lsp, struct pcep_err *err)
{
	static const uint8_t	 len[] = { 4, 4, PCEP_SRV6_SID_LEN,
	    PCEP_SRV6_SID_LEN + PCEP_SRV6_BEHAVIOR_LEN };
	struct pcep_bsid	*b = &lsp->bsid;
	uint8_t			 bt;

	if (rbuf_get_u8(v, &bt) == -1 || bt > PCEP_BT_SRV6_BEHAVIOR ||
	    rbuf_left(v) != 3 + (size_t)len[bt])
		return bad(err, PCEP_E_MALFORMED_OBJECT);
	if (lsp->has_bsid) {
		lsp->bsid_skipped++;
		return 0;
	}
	memset(b, 0, sizeof(*b));
	lsp->has_bsid = 1;
	b->bt = bt;
	rbuf_get_u8(v, &b->flags);
	rbuf_skip(v, 2);
	if (bt <= PCEP_BT_MPLS_LSE)
		return rbuf_get_u32(v, &b->value);
	rbuf_get_bytes(v, b->sid, sizeof(b->sid));
	return bt == PCEP_BT_SRV6 ? 0 :
	    rbuf_get_bytes(v, b->behavior, sizeof(b->behavior));
}

static void
bsid_encode(struct wbuf *w, const struct pcep_bsid *b)
{
	size_t	t = tlv_begin(w, PCEP_TLV_TE_PATH_BINDING);

	wbuf_put_u8(w, b->bt);
	wbuf_put_u8(w, b->flags);
	wbuf_put_u16(w, 0);
	if (b->bt <= PCEP_BT_MPLS_LSE)
		wbuf_put_u32(w, b->value);
	else
		wbuf_put_bytes(w, b->sid, sizeof(b->sid));
	if (b->bt == PCEP_BT_SRV6_BEHAVIOR)
		wbuf_put_bytes(w, b->behavior, sizeof(b->behavior));
	tlv_end(w, t);
}

/* A struct pcep_lsp's TLV (tlv_each()). */
static int
lsp_tlv(uint16_t type, struct rbuf *v, void *obj, struct pcep_err *err)
{
	struct pcep_lsp	*lsp = obj;
	size_t		 n = rbuf_left(v);

	switch (type) {
	case PCEP_TLV_IPV4_LSP_IDS:
		return lsp_ids_decode(v, 4, &lsp->ids, err);
	case PCEP_TLV_IPV6_LSP_IDS:
		return lsp_ids_decode(v, 6, &lsp->ids, err);
	case PCEP_TLV_SYMBOLIC_NAME:
		if (n == 0 || n > PCEP_NAME_MAX)
			return bad(err, PCEP_E_MALFORMED_OBJECT);
		lsp->name_len = (uint16_t)n;
		rbuf_get_bytes(v, lsp->name, n);
		lsp->name[n] = '\0';
		return 0;
	case PCEP_TLV_LSP_ERROR_CODE:
		return tlv_get_u32(v, PCEP_LSP_ERROR_CODE_LEN,
		    &lsp->has_error_code, &lsp->error_code, err);
	case PCEP_TLV_LSP_DB_VERSION:
		return tlv_get_u64(v, &lsp->has_db_version, &lsp->db_version,
		    err);
	case PCEP_TLV_TE_PATH_BINDING:
		return bsid_decode(v, lsp, err);
	default:
		return 0;
	}
}

static int
lsp_decode(struct rbuf *b, struct pcep_lsp *lsp, struct pcep_err *err)
{
	uint32_t	word;

	memset(lsp, 0, sizeof(*lsp));
	if (rbuf_get_u32(b, &word) == -1)
		return bad(err, PCEP_E_MALFORMED_OBJECT);
	lsp->plsp_id = word >> PCEP_LSP_PLSP_SHIFT;
	lsp->oper = (word & PCEP_LSP_OPER_MASK) >> PCEP_LSP_OPER_SHIFT;
	lsp->flags = word & PCEP_LSP_FLAGS_MASK & ~PCEP_LSP_OPER_MASK;
	return tlv_each(b, lsp_tlv, lsp, err);
}

static void
lsp_ids_encode(struct wbuf *w, const struct pcep_lsp_ids *ids)
{
	size_t	t;

	if (ids->af == 4) {
		t = tlv_begin(w, PCEP_TLV_IPV4_LSP_IDS);
		wbuf_put_u32(w, ids->sender4);
		wbuf_put_u16(w, ids->lsp_id);
		wbuf_put_u16(w, ids->tunnel_id);
		wbuf_put_u32(w, ids->ext_id4);
		wbuf_put_u32(w, ids->endpoint4);
		tlv_end(w, t);
	} else if (ids->af == 6) {
		t = tlv_begin(w, PCEP_TLV_IPV6_LSP_IDS);
		wbuf_put_bytes(w, ids->sender6, sizeof(ids->sender6));
		wbuf_put_u16(w, ids->lsp_id);
		wbuf_put_u16(w, ids->tunnel_id);
		wbuf_put_bytes(w, ids->ext_id6, sizeof(ids->ext_id6));
		wbuf_put_bytes(w, ids->endpoint6, sizeof(ids->endpoint6));
		tlv_end(w, t);
	}
}

static void
lsp_encode(struct wbuf *w, const struct pcep_lsp *lsp)
{
	size_t	o = pcep_obj_begin(w, PCEP_OC_LSP, PCEP_OT_DEFAULT,
	    PCEP_OBJ_FLAG_P);
	size_t	t;

	wbuf_put_u32(w, (lsp->plsp_id & PCEP_PLSP_ID_MAX) <<
	    PCEP_LSP_PLSP_SHIFT | (lsp->flags & PCEP_LSP_FLAGS_MASK &
	    ~PCEP_LSP_OPER_MASK) | ((uint32_t)lsp->oper <<
	    PCEP_LSP_OPER_SHIFT & PCEP_LSP_OPER_MASK));
	lsp_ids_encode(w, &lsp->ids);
	if (lsp->name_len > 0) {
		t = tlv_begin(w, PCEP_TLV_SYMBOLIC_NAME);
		wbuf_put_bytes(w, lsp->name, lsp->name_len <= PCEP_NAME_MAX ?
		    lsp->name_len : PCEP_NAME_MAX);
		tlv_end(w, t);
	}
	if (lsp->has_db_version)
		tlv_u64(w, PCEP_TLV_LSP_DB_VERSION, lsp->db_version);
	if (lsp->has_error_code)
		tlv_u32(w, PCEP_TLV_LSP_ERROR_CODE, lsp->error_code);
	if (lsp->has_bsid)
		bsid_encode(w, &lsp->bsid);
	pcep_obj_end(w, o);
}

/* ---- ERO (RFC 5440 7.9, RFC 3209 4.3.3, RFC 8664 4.3.1) ---- */

static int
nai_len(uint8_t nt)
{
	switch (nt) {
	case PCEP_NAI_ABSENT:		return 0;
	case PCEP_NAI_IPV4_NODE:	return 4;
	case PCEP_NAI_IPV6_NODE:	return 16;
	case PCEP_NAI_IPV4_ADJ:		return 8;
	case PCEP_NAI_IPV6_ADJ:		return 32;
	case PCEP_NAI_UNNUMBERED:	return 16;
	case PCEP_NAI_IPV6_LL_ADJ:	return 40;
	default:			return -1;
	}
}

void
pcep_hop_sr_ipv4(struct pcep_hop *h, uint32_t label, uint32_t local,
    uint32_t remote, int adjacency)
{
	struct wbuf	w;

	memset(h, 0, sizeof(*h));
	h->kind = PCEP_SUBOBJ_SR;
	h->nt = adjacency ? PCEP_NAI_IPV4_ADJ : PCEP_NAI_IPV4_NODE;
	h->sr_flags = PCEP_SR_FLAG_M;
	h->sid = label << PCEP_SR_LABEL_SHIFT;
	wbuf_init(&w, h->nai, sizeof(h->nai));
	wbuf_put_u32(&w, local);
	if (adjacency)
		wbuf_put_u32(&w, remote);
	h->nai_len = (uint8_t)w.len;
}

/* which 0: the (local) node address, 1: the remote one of an adjacency. */
void
pcep_hop_srv6(struct pcep_hop *h, const uint8_t *sid, uint16_t behavior)
{
	memset(h, 0, sizeof(*h));
	h->kind = PCEP_SUBOBJ_SRV6;
	h->nt = PCEP_NAI_ABSENT;
	h->sr_flags = PCEP_SRV6_FLAG_F;
	h->behavior = behavior;
	memcpy(h->sid6, sid, sizeof(h->sid6));
}

uint32_t
pcep_hop_nai_ipv4(const struct pcep_hop *h, int which)
{
	struct rbuf	r;
	uint32_t	a = 0;

	rbuf_init(&r, h->nai, h->nai_len);
	rbuf_skip(&r, which ? 4 : 0);
	rbuf_get_u32(&r, &a);
	return a;
}

void
pcep_hop_rec_set(struct pcep_hop_rec *h, const struct pcep_hop *o)
{
	memset(h, 0, sizeof(*h));
	h->kind = o->kind;
	h->loose = o->loose;
	if (o->kind == PCEP_SUBOBJ_SRV6) {
		/* The SID and behavior; a NAI or structure is not kept. */
		h->sr_flags = o->sr_flags & PCEP_SRV6_FLAG_S;
		h->behavior = o->behavior;
		memcpy(h->sid6, o->sid6, sizeof(h->sid6));
		return;
	}
	if (o->kind != PCEP_SUBOBJ_SR) {
		h->addr = o->addr;
		h->plen = o->prefix_len;
		return;
	}
	h->nt = o->nt;
	h->sid = o->sid;
	h->sr_flags = o->sr_flags;
	if (o->nt == PCEP_NAI_IPV4_NODE || o->nt == PCEP_NAI_IPV4_ADJ)
		h->addr = pcep_hop_nai_ipv4(o, 0);
	if (o->nt == PCEP_NAI_IPV4_ADJ)
		h->addr2 = pcep_hop_nai_ipv4(o, 1);
}

void
pcep_hops_store(struct pcep_hop_rec **hops, uint8_t *nhops,
    const struct pcep_ero *ero)
{
	uint8_t	i;

	if (ero->n > *nhops || *hops == NULL) {
		free(*hops);
		*hops = xcalloc(ero->n ? ero->n : 1, sizeof(**hops));
	}
	*nhops = ero->n;
	for (i = 0; i < ero->n; i++)
		pcep_hop_rec_set(&(*hops)[i], &ero->hop[i]);
}

void
pcep_ero_from_recs(const struct pcep_hop_rec *hops, uint8_t n,
    struct pcep_ero *ero)
{
	const struct pcep_hop_rec	*h;
	struct pcep_hop			*o;
	uint8_t				 i;

	ero->n = 0;
	for (i = 0; i < n && i < PCEP_ERO_MAX; i++) {
		h = &hops[i];
		o = &ero->hop[ero->n++];
		if (h->kind == PCEP_SUBOBJ_SRV6)
			pcep_hop_srv6(o, h->sid6, h->behavior);
		else if (h->kind == PCEP_SUBOBJ_SR) {
			pcep_hop_sr_ipv4(o, 0, h->addr, h->addr2,
			    h->nt == PCEP_NAI_IPV4_ADJ);
			o->nt = h->nt;
			o->sid = h->sid;
			o->sr_flags = h->sr_flags;
			if (h->nt == PCEP_NAI_ABSENT)
				o->nai_len = 0;
		} else {
			memset(o, 0, sizeof(*o));
			o->kind = PCEP_SUBOBJ_IPV4;
			o->addr = h->addr;
			o->prefix_len = h->plen ? h->plen : 32;
		}
		o->loose = h->loose;
	}
}

static int
sr_hop_decode(struct rbuf *s, struct pcep_hop *h, struct pcep_err *err)
{
	uint16_t	ntf;
	int		n;

	if (rbuf_get_u16(s, &ntf) == -1)
		return bad(err, PCEP_E_MALFORMED_OBJECT);
	h->nt = ntf >> PCEP_SR_NT_SHIFT;
	h->sr_flags = ntf & PCEP_SR_FLAGS_MASK;
	if ((h->sr_flags & PCEP_SR_FLAG_S) && (h->sr_flags & PCEP_SR_FLAG_F))
		return bad(err, PCEP_E_SR_SID_NAI_ABSENT);
	if (!(h->sr_flags & PCEP_SR_FLAG_S)) {
		if (rbuf_get_u32(s, &h->sid) == -1)
			return bad(err, PCEP_E_MALFORMED_OBJECT);
		/* RFC 8664 5.2.1: labels 0-15 are reserved. */
		if ((h->sr_flags & PCEP_SR_FLAG_M) &&
		    h->sid >> PCEP_SR_LABEL_SHIFT < 16)
			return bad(err, PCEP_E_BAD_LABEL);
	}
	if (!(h->sr_flags & PCEP_SR_FLAG_F)) {
		if ((n = nai_len(h->nt)) == -1)
			return bad(err, PCEP_E_UNSUPPORTED_NAI);
		h->nai_len = (uint8_t)n;
		if (rbuf_get_bytes(s, h->nai, h->nai_len) == -1)
			return bad(err, PCEP_E_MALFORMED_OBJECT);
	}
	return need_len(s, 0, err);
}

/* RFC 9603 4.3.1: the NAI types of IPv6 (or none); the SID, NAI and
 * structure as the flags say, nothing after them. */
static int
srv6_hop_decode(struct rbuf *s, struct pcep_hop *h, struct pcep_err *err)
{
	uint16_t	ntf;
	int		n;

	if (rbuf_get_u16(s, &ntf) == -1 || rbuf_skip(s, 2) == -1 ||
	    rbuf_get_u16(s, &h->behavior) == -1)
		return bad(err, PCEP_E_MALFORMED_OBJECT);
	h->nt = ntf >> PCEP_SR_NT_SHIFT;
	h->sr_flags = ntf & PCEP_SR_FLAGS_MASK;
	if ((h->sr_flags & PCEP_SRV6_FLAG_S) &&
	    (h->sr_flags & PCEP_SRV6_FLAG_F))
		return bad(err, PCEP_E_SR_SID_NAI_ABSENT);
	if (!(h->sr_flags & PCEP_SRV6_FLAG_S) &&
	    rbuf_get_bytes(s, h->sid6, sizeof(h->sid6)) == -1)
		return bad(err, PCEP_E_MALFORMED_OBJECT);
	if (!(h->sr_flags & PCEP_SRV6_FLAG_F)) {
		if ((h->nt != PCEP_NAI_IPV6_NODE && h->nt != PCEP_NAI_IPV6_ADJ &&
		    h->nt != PCEP_NAI_IPV6_LL_ADJ) || (n = nai_len(h->nt)) < 0)
			return bad(err, PCEP_E_UNSUPPORTED_NAI);
		h->nai_len = (uint8_t)n;
		if (rbuf_get_bytes(s, h->nai, h->nai_len) == -1)
			return bad(err, PCEP_E_MALFORMED_OBJECT);
	}
	if ((h->sr_flags & PCEP_SRV6_FLAG_T) && rbuf_get_bytes(s,
	    h->sid_struct, sizeof(h->sid_struct)) == -1)
		return bad(err, PCEP_E_MALFORMED_OBJECT);
	return need_len(s, 0, err);
}

static int
hop_decode(uint8_t ltype, struct rbuf *s, struct pcep_hop *h,
    struct pcep_err *err)
{
	memset(h, 0, sizeof(*h));
	h->kind = ltype & PCEP_SUBOBJ_TYPE_MASK;
	h->loose = (ltype & PCEP_SUBOBJ_L) != 0;
	if (h->kind == PCEP_SUBOBJ_SR)
		return sr_hop_decode(s, h, err);
	if (h->kind == PCEP_SUBOBJ_SRV6)
		return srv6_hop_decode(s, h, err);
	/* IPv4 prefix: address, prefix length, flags (RFC 3209 4.3.3.3). */
	if (need_len(s, PCEP_SUBOBJ_IPV4_LEN - PCEP_SUBOBJ_HDR_LEN,
	    err) == -1)
		return -1;
	rbuf_get_u32(s, &h->addr);
	return rbuf_get_u8(s, &h->prefix_len);
}

/* Other subobject kinds (IPv6, label, unnumbered, AS) are skipped. */
static int
ero_decode(struct rbuf *b, struct pcep_ero *ero, struct pcep_err *err)
{
	struct rbuf	s;
	uint8_t		ltype, len, kind;
	int		seen_sr = 0;	/* bits: SR, SRv6, IPv4 */

	ero->n = 0;
	while (rbuf_left(b) > 0) {
		if (rbuf_get_u8(b, &ltype) == -1 ||
		    rbuf_get_u8(b, &len) == -1 || len < PCEP_SUBOBJ_HDR_LEN ||
		    rbuf_sub(b, &s, len - PCEP_SUBOBJ_HDR_LEN) == -1)
			return bad(err, PCEP_E_MALFORMED_OBJECT);
		kind = ltype & PCEP_SUBOBJ_TYPE_MASK;
		if (kind != PCEP_SUBOBJ_SR && kind != PCEP_SUBOBJ_SRV6 &&
		    kind != PCEP_SUBOBJ_IPV4)
			continue;
		/* RFC 8664 5.2.1, RFC 9603 5.2.1: one kind per ERO. */
		seen_sr |= 1 << (kind == PCEP_SUBOBJ_SR ? 0 :
		    kind == PCEP_SUBOBJ_SRV6 ? 1 : 2);
		if (seen_sr & (seen_sr - 1))
			return bad(err, PCEP_E_ERO_SR_MIX);
		if (ero->n == PCEP_ERO_MAX)
			return bad(err, PCEP_E_SR_ERO_COUNT);
		if (hop_decode(ltype, &s, &ero->hop[ero->n], err) == -1)
			return -1;
		ero->n++;
	}
	return 0;
}

static void
srv6_hop_encode(struct wbuf *w, const struct pcep_hop *h)
{
	wbuf_put_u16(w, (uint16_t)(h->nt << PCEP_SR_NT_SHIFT |
	    (h->sr_flags & PCEP_SR_FLAGS_MASK)));
	wbuf_put_u16(w, 0);
	wbuf_put_u16(w, h->behavior);
	if (!(h->sr_flags & PCEP_SRV6_FLAG_S))
		wbuf_put_bytes(w, h->sid6, sizeof(h->sid6));
	if (!(h->sr_flags & PCEP_SRV6_FLAG_F))
		wbuf_put_bytes(w, h->nai, h->nai_len <= PCEP_NAI_MAX ?
		    h->nai_len : PCEP_NAI_MAX);
	if (h->sr_flags & PCEP_SRV6_FLAG_T)
		wbuf_put_bytes(w, h->sid_struct, sizeof(h->sid_struct));
}

static void
hop_encode(struct wbuf *w, const struct pcep_hop *h)
{
	size_t	start = w->len;
	uint8_t	l = h->loose ? PCEP_SUBOBJ_L : 0;

	wbuf_put_u8(w, l | h->kind);
	wbuf_put_u8(w, 0);		/* length, set below */
	if (h->kind == PCEP_SUBOBJ_SR) {
		wbuf_put_u16(w, (uint16_t)(h->nt << PCEP_SR_NT_SHIFT |
		    (h->sr_flags & PCEP_SR_FLAGS_MASK)));
		if (!(h->sr_flags & PCEP_SR_FLAG_S))
			wbuf_put_u32(w, h->sid);
		if (!(h->sr_flags & PCEP_SR_FLAG_F))
			wbuf_put_bytes(w, h->nai, h->nai_len <= PCEP_NAI_MAX ?
			    h->nai_len : PCEP_NAI_MAX);
	} else if (h->kind == PCEP_SUBOBJ_SRV6)
		srv6_hop_encode(w, h);
	else {
		wbuf_put_u32(w, h->addr);
		wbuf_put_u8(w, h->prefix_len);
		wbuf_put_u8(w, 0);	/* flags */
	}
	if (!w->err)
		w->data[start + PCEP_SUBOBJ_LEN_OFF] =
		    (uint8_t)(w->len - start);
}

static void
ero_encode(struct wbuf *w, const struct pcep_ero *ero)
{
	size_t	o = pcep_obj_begin(w, PCEP_OC_ERO, PCEP_OT_DEFAULT,
	    PCEP_OBJ_FLAG_P);
	uint8_t	i;

	for (i = 0; i < ero->n && i < PCEP_ERO_MAX; i++)
		hop_encode(w, &ero->hop[i]);
	pcep_obj_end(w, o);
}

/* ---- attributes: BANDWIDTH 7.7, METRIC 7.8, LSPA 7.11 ---- */

static int
lspa_decode(struct rbuf *b, struct pcep_lspa *a, struct pcep_err *err)
{
	if (rbuf_get_u32(b, &a->exclude_any) == -1 ||
	    rbuf_get_u32(b, &a->include_any) == -1 ||
	    rbuf_get_u32(b, &a->include_all) == -1 ||
	    rbuf_get_u8(b, &a->setup_prio) == -1 ||
	    rbuf_get_u8(b, &a->hold_prio) == -1 ||
	    rbuf_get_u8(b, &a->flags) == -1 || rbuf_skip(b, 1) == -1)
		return bad(err, PCEP_E_MALFORMED_OBJECT);
	return 0;			/* optional TLVs ignored */
}

static int
metric_decode(struct rbuf *b, struct pcep_metric *m, struct pcep_err *err)
{
	if (rbuf_skip(b, 2) == -1 || rbuf_get_u8(b, &m->flags) == -1 ||
	    rbuf_get_u8(b, &m->type) == -1 || get_float(b, &m->value) == -1)
		return bad(err, PCEP_E_MALFORMED_OBJECT);
	return 0;
}

static void
attrs_encode(struct wbuf *w, const struct pcep_attrs *a)
{
	size_t	o;
	uint8_t	i;

	if (a->has_lspa) {
		o = pcep_obj_begin(w, PCEP_OC_LSPA, PCEP_OT_DEFAULT, 0);
		wbuf_put_u32(w, a->lspa.exclude_any);
		wbuf_put_u32(w, a->lspa.include_any);
		wbuf_put_u32(w, a->lspa.include_all);
		wbuf_put_u8(w, a->lspa.setup_prio);
		wbuf_put_u8(w, a->lspa.hold_prio);
		wbuf_put_u8(w, a->lspa.flags);
		wbuf_put_u8(w, 0);	/* Reserved */
		pcep_obj_end(w, o);
	}
	if (a->bw_type != 0) {
		o = pcep_obj_begin(w, PCEP_OC_BANDWIDTH, a->bw_type, 0);
		wbuf_put_u32(w, bits_of(a->bandwidth));
		pcep_obj_end(w, o);
	}
	for (i = 0; i < a->n_metric && i < PCEP_METRIC_MAX; i++) {
		o = pcep_obj_begin(w, PCEP_OC_METRIC, PCEP_OT_DEFAULT, 0);
		wbuf_put_u16(w, 0);	/* Reserved */
		wbuf_put_u8(w, a->metric[i].flags);
		wbuf_put_u8(w, a->metric[i].type);
		wbuf_put_u32(w, bits_of(a->metric[i].value));
		pcep_obj_end(w, o);
	}
}

/* ---- ASSOCIATION (RFC 8697 6.1) ---- */

static int
assoc_is_sr_policy(uint16_t type)
{
	return type == PCEP_ASSOC_T_SR_POLICY || type == PCEP_ASSOC_T_SR_POL_OLD;
}

/* A name TLV kept as a pointer into the message; FRR pads its names
 * with NULs inside the TLV's length: they are not part of the name. */
static int
assoc_name(struct rbuf *v, const char **name, uint8_t *len,
    struct pcep_err *err)
{
	size_t	n = rbuf_left(v);

	while (n > 0 && v->data[v->off + n - 1] == '\0')
		n--;
	if (n == 0 || n > PCEP_NAME_MAX)
		return bad(err, PCEP_E_MALFORMED_OBJECT);
	*name = (const char *)v->data + v->off;
	*len = (uint8_t)n;
	return 0;
}

/* SR policy: Color(32) and Endpoint (4 or 16 bytes). */
static int
assoc_color(struct rbuf *v, struct pcep_assoc *a, struct pcep_err *err)
{
	size_t	n = rbuf_left(v);

	if (n != 4 + 4 && n != 4 + 16)
		return bad(err, PCEP_E_MALFORMED_OBJECT);
	a->has_color = 1;
	a->ep_af = n == 4 + 4 ? 4 : 6;
	rbuf_get_u32(v, &a->color);
	return rbuf_get_bytes(v, a->ep, n - 4);
}

/* SRPOLICY-CPATH-ID: Origin(8) Reserved(24) ASN(32) Address(128)
 * Discriminator(32). */
static int
assoc_cpath_id(struct rbuf *v, struct pcep_assoc *a, struct pcep_err *err)
{
	if (need_len(v, PCEP_SRPOL_CPATH_ID_LEN, err) == -1)
		return -1;
	a->has_cpath_id = 1;
	rbuf_get_u8(v, &a->origin);
	rbuf_skip(v, 3);
	rbuf_get_u32(v, &a->orig_asn);
	rbuf_get_bytes(v, a->orig_addr, sizeof(a->orig_addr));
	return rbuf_get_u32(v, &a->discriminator);
}

/* FRR's code point of an SR policy TLV (association type 65535 only)
 * as the IANA one. */
static uint16_t
assoc_sr_old(uint16_t type)
{
	switch (type) {
	case PCEP_TLV_SRPOL_ID_OLD:
		return PCEP_TLV_EXT_ASSOC_ID;
	case PCEP_TLV_SRPOL_NAME_OLD:
		return PCEP_TLV_SRPOL_NAME;
	case PCEP_TLV_SRPOL_CPID_OLD:
		return PCEP_TLV_SRPOL_CPATH_ID;
	case PCEP_TLV_SRPOL_PREF_OLD:
		return PCEP_TLV_SRPOL_PREF;
	default:
		return 0;		/* not an SR policy TLV there */
	}
}

/* The SR policy TLVs, by the IANA code points or FRR's. */
static int
assoc_sr_tlv(uint16_t type, struct rbuf *v, struct pcep_assoc *a,
    struct pcep_err *err)
{
	if (a->type == PCEP_ASSOC_T_SR_POL_OLD)
		type = assoc_sr_old(type);
	switch (type) {
	case PCEP_TLV_EXT_ASSOC_ID:
		return assoc_color(v, a, err);
	case PCEP_TLV_SRPOL_NAME:
		return assoc_name(v, &a->pol_name, &a->pol_name_len, err);
	case PCEP_TLV_SRPOL_CP_NAME:
		return assoc_name(v, &a->cp_name, &a->cp_name_len, err);
	case PCEP_TLV_SRPOL_CPATH_ID:
		return assoc_cpath_id(v, a, err);
	case PCEP_TLV_SRPOL_PREF:
		return tlv_get_u32(v, PCEP_SRPOL_PREF_LEN, &a->has_pref,
		    &a->pref, err);
	default:
		return 0;
	}
}

/* A struct pcep_assoc's TLV (tlv_each()). */
static int
assoc_tlv(uint16_t type, struct rbuf *v, void *obj, struct pcep_err *err)
{
	struct pcep_assoc	*a = obj;

	switch (type) {
	case PCEP_TLV_PATH_PROT:
		return tlv_get_u32(v, PCEP_PATH_PROT_LEN, &a->has_prot,
		    &a->prot, err);
	case PCEP_TLV_DISJOINT_CFG:
		return tlv_get_u32(v, PCEP_DISJOINT_CFG_LEN, &a->has_disjoint,
		    &a->disjoint, err);
	default:
		/* RFC 8697 6.1.4: the extended ID is opaque to other types. */
		return assoc_is_sr_policy(a->type) ?
		    assoc_sr_tlv(type, v, a, err) : 0;
	}
}

static int
assoc_decode(struct pcep_obj *o, struct pcep_assoc *a, struct pcep_err *err)
{
	size_t		alen = o->otype == PCEP_OT_ASSOC_IPV4 ? 4 : 16;
	uint16_t	flags;

	memset(a, 0, sizeof(*a));
	if (rbuf_skip(&o->body, 2) == -1 ||
	    rbuf_get_u16(&o->body, &flags) == -1 ||
	    rbuf_get_u16(&o->body, &a->type) == -1 ||
	    rbuf_get_u16(&o->body, &a->id) == -1 ||
	    rbuf_get_bytes(&o->body, a->src, alen) == -1)
		return bad(err, PCEP_E_MALFORMED_OBJECT);
	a->af = alen == 4 ? 4 : 6;
	a->removal = (flags & PCEP_ASSOC_FLAG_R) != 0;
	return tlv_each(&o->body, assoc_tlv, a, err);
}

static void
assoc_name_put(struct wbuf *w, uint16_t type, const char *name, uint8_t len)
{
	size_t	t;

	if (len == 0)
		return;
	t = tlv_begin(w, type);
	wbuf_put_bytes(w, name, len);
	tlv_end(w, t);
}

static void
assoc_sr_put(struct wbuf *w, const struct pcep_assoc *a)
{
	size_t	t;

	if (a->has_color) {
		t = tlv_begin(w, PCEP_TLV_EXT_ASSOC_ID);
		wbuf_put_u32(w, a->color);
		wbuf_put_bytes(w, a->ep, a->ep_af == 6 ? 16 : 4);
		tlv_end(w, t);
	}
	assoc_name_put(w, PCEP_TLV_SRPOL_NAME, a->pol_name, a->pol_name_len);
	if (a->has_cpath_id) {
		t = tlv_begin(w, PCEP_TLV_SRPOL_CPATH_ID);
		wbuf_put_u8(w, a->origin);
		wbuf_put_zero(w, 3);
		wbuf_put_u32(w, a->orig_asn);
		wbuf_put_bytes(w, a->orig_addr, sizeof(a->orig_addr));
		wbuf_put_u32(w, a->discriminator);
		tlv_end(w, t);
	}
	assoc_name_put(w, PCEP_TLV_SRPOL_CP_NAME, a->cp_name, a->cp_name_len);
	if (a->has_pref)
		tlv_u32(w, PCEP_TLV_SRPOL_PREF, a->pref);
}

static void
assoc_encode(struct wbuf *w, const struct pcep_assoc *a)
{
	size_t	o = pcep_obj_begin(w, PCEP_OC_ASSOCIATION, a->af == 6 ?
	    PCEP_OT_ASSOC_IPV6 : PCEP_OT_ASSOC_IPV4, 0);

	wbuf_put_u16(w, 0);
	wbuf_put_u16(w, a->removal ? PCEP_ASSOC_FLAG_R : 0);
	wbuf_put_u16(w, a->type);
	wbuf_put_u16(w, a->id);
	wbuf_put_bytes(w, a->src, a->af == 6 ? 16 : 4);
	if (a->has_prot)
		tlv_u32(w, PCEP_TLV_PATH_PROT, a->prot);
	if (a->has_disjoint)
		tlv_u32(w, PCEP_TLV_DISJOINT_CFG, a->disjoint);
	if (a->type == PCEP_ASSOC_T_SR_POLICY)
		assoc_sr_put(w, a);
	pcep_obj_end(w, o);
}

/* ---- requests: PCRpt, PCUpd, PCInitiate ---- */

/* Object classes RFC 5440 and RFC 8231 define, decoded or not. */
static int
class_known(uint8_t oclass)
{
	return (oclass >= PCEP_OC_OPEN && oclass <= PCEP_OC_CLOSE) ||
	    oclass == PCEP_OC_LSP || oclass == PCEP_OC_SRP ||
	    oclass == PCEP_OC_ASSOCIATION;
}

static int
type_known(uint8_t oclass, uint8_t otype)
{
	switch (oclass) {
	case PCEP_OC_ENDPOINTS:
		return otype == PCEP_OT_ENDPOINTS_IPV4 ||
		    otype == PCEP_OT_ENDPOINTS_IPV6;
	case PCEP_OC_BANDWIDTH:
		return otype == PCEP_OT_BW_REQUESTED ||
		    otype == PCEP_OT_BW_REOPT;
	case PCEP_OC_ASSOCIATION:
		return otype == PCEP_OT_ASSOC_IPV4 ||
		    otype == PCEP_OT_ASSOC_IPV6;
	default:
		return otype == PCEP_OT_DEFAULT;
	}
}

/*
 * RFC 5440 7.2: an unknown object with P set is an error (3/1 or 3/2);
 * without P it is skipped and counted for the caller.
 */
static int
unknown_object(const struct pcep_obj *o, struct pcep_lsp_req *req,
    struct pcep_err *err)
{
	if (class_known(o->oclass) && type_known(o->oclass, o->otype))
		return 0;
	if (o->flags & PCEP_OBJ_FLAG_P)
		return bad(err, class_known(o->oclass) ?
		    PCEP_E_UNKNOWN_TYPE : PCEP_E_UNKNOWN_CLASS);
	if (req != NULL && req->n_unknown++ == 0) {
		req->unknown_class = o->oclass;
		req->unknown_type = o->otype;
	}
	return 1;
}

static int
endpoints_decode(struct pcep_obj *o, struct pcep_lsp_req *req,
    struct pcep_err *err)
{
	if (o->otype != PCEP_OT_ENDPOINTS_IPV4)
		return bad(err, PCEP_E_UNSUPP_TYPE);
	if (need_len(&o->body, PCEP_EP4_BODY_LEN, err) == -1)
		return -1;
	rbuf_get_u32(&o->body, &req->ep_src);
	rbuf_get_u32(&o->body, &req->ep_dst);
	req->has_endpoints = 1;
	return 0;
}

/* One object after the LSP: path and attributes. */
static int
req_object(struct pcep_obj *o, struct pcep_lsp_req *req,
    struct pcep_err *err)
{
	struct pcep_attrs *a = &req->attrs;

	switch (o->oclass) {
	case PCEP_OC_ENDPOINTS:
		return endpoints_decode(o, req, err);
	case PCEP_OC_ERO:
		req->has_ero = 1;
		if (ero_decode(&o->body, &req->ero, err) == -1)
			return -1;
		req->ero.obj_flags = o->flags;
		return 0;
	case PCEP_OC_RRO:
		req->has_rro = 1;
		return 0;
	case PCEP_OC_ASSOCIATION:
		if (req->n_assoc == PCEP_ASSOC_MAX) {
			req->assoc_skipped++;
			return 0;
		}
		return assoc_decode(o, &req->assoc[req->n_assoc++], err);
	case PCEP_OC_LSPA:
		a->has_lspa = 1;
		return lspa_decode(&o->body, &a->lspa, err);
	case PCEP_OC_BANDWIDTH:
		a->bw_type = o->otype;
		if (get_float(&o->body, &a->bandwidth) == -1)
			return bad(err, PCEP_E_MALFORMED_OBJECT);
		return 0;
	case PCEP_OC_METRIC:
		if (a->n_metric == PCEP_METRIC_MAX)
			return 0;
		return metric_decode(&o->body, &a->metric[a->n_metric++], err);
	default:
		return 0;		/* known elsewhere, not here: skip */
	}
}

/* Mandatory objects once a request is complete (RFC 8231 8.5). */
static int
req_check(uint8_t msg_type, const struct pcep_lsp_req *req, int saw_lsp,
    struct pcep_err *err)
{
	int	remove = req->has_srp && (req->srp.flags & PCEP_SRP_FLAG_R);

	if (msg_type != PCEP_MSG_PCRPT && !req->has_srp)
		return bad(err, PCEP_E_MISSING_SRP);
	if (!saw_lsp)
		return bad(err, PCEP_E_MISSING_LSP);
	if (msg_type == PCEP_MSG_PCINITIATE && remove)
		return 0;
	if (!req->has_ero && !(msg_type == PCEP_MSG_PCRPT &&
	    pcep_req_is_eos(req)))
		return bad(err, PCEP_E_MISSING_ERO);
	/* RFC 8281 5.3: a new LSP has no PLSP-ID yet. */
	if (msg_type == PCEP_MSG_PCINITIATE && req->lsp.plsp_id != 0)
		return bad(err, PCEP_E_INIT_NONZERO_PLSP);
	return 0;
}

int
pcep_req_each(uint8_t msg_type, const struct rbuf *body,
    void (*one)(void *sess, const struct pcep_lsp_req *),
    int (*up)(const void *sess), void *sess, struct pcep_err *err,
    uint32_t *srp_id)
{
	struct pcep_req_iter	it;
	struct pcep_lsp_req	req;
	int			rc;

	pcep_req_iter_init(&it, msg_type, body);
	while ((rc = pcep_req_next(&it, &req, err)) == 1 && up(sess))
		one(sess, &req);
	if (rc != -1 || !up(sess))
		return 0;
	*srp_id = req.has_srp ? req.srp.srp_id : 0;
	return -1;
}

void
pcep_req_iter_init(struct pcep_req_iter *it, uint8_t msg_type,
    const struct rbuf *body)
{
	it->msg_type = msg_type;
	it->body = *body;
	it->count = 0;
}

int
pcep_req_next(struct pcep_req_iter *it, struct pcep_lsp_req *req,
    struct pcep_err *err)
{
	struct pcep_obj	o;
	struct rbuf	peek;
	int		saw_lsp = 0, rc;

	if (rbuf_left(&it->body) == 0 && it->count > 0)
		return 0;
	memset(req, 0, sizeof(*req));
	for (;;) {
		peek = it->body;
		if ((rc = pcep_obj_next(&peek, &o, err)) == -1)
			return -1;
		if (rc == 0)
			break;
		/* An SRP, or a second LSP, starts the next request. */
		if ((o.oclass == PCEP_OC_SRP && (req->has_srp || saw_lsp)) ||
		    (o.oclass == PCEP_OC_LSP && saw_lsp))
			break;
		it->body = peek;
		if ((rc = unknown_object(&o, req, err)) == -1)
			return -1;
		if (rc == 1)
			continue;
		if (o.oclass == PCEP_OC_SRP) {
			req->has_srp = 1;
			rc = srp_decode(&o.body, &req->srp, err);
		} else if (o.oclass == PCEP_OC_LSP) {
			saw_lsp = 1;
			rc = lsp_decode(&o.body, &req->lsp, err);
			req->lsp.obj_flags = o.flags;
		} else
			rc = req_object(&o, req, err);
		if (rc == -1)
			return -1;
	}
	if (req_check(it->msg_type, req, saw_lsp, err) == -1)
		return -1;
	it->count++;
	return 1;
}

int
pcep_req_is_eos(const struct pcep_lsp_req *req)
{
	return req->lsp.plsp_id == 0 && !(req->lsp.flags & PCEP_LSP_FLAG_S);
}

int
pcep_req_put(struct wbuf *w, uint8_t msg_type, const struct pcep_lsp_req *req)
{
	uint8_t	i;

	if (req->has_srp)
		srp_encode(w, &req->srp);
	lsp_encode(w, &req->lsp);
	/* RFC 8697 6.3: the association list follows the LSP. */
	for (i = 0; i < req->n_assoc && i < PCEP_ASSOC_MAX; i++)
		assoc_encode(w, &req->assoc[i]);
	if (msg_type == PCEP_MSG_PCINITIATE && req->has_srp &&
	    (req->srp.flags & PCEP_SRP_FLAG_R))
		return w->err ? -1 : 0;	/* deletion: SRP and LSP only */
	if (req->has_endpoints) {
		size_t	o = pcep_obj_begin(w, PCEP_OC_ENDPOINTS,
		    PCEP_OT_ENDPOINTS_IPV4, PCEP_OBJ_FLAG_P);

		wbuf_put_u32(w, req->ep_src);
		wbuf_put_u32(w, req->ep_dst);
		pcep_obj_end(w, o);
	}
	if (req->has_ero)
		ero_encode(w, &req->ero);
	attrs_encode(w, &req->attrs);
	return w->err ? -1 : 0;
}

int
pcep_reqs_encode(struct wbuf *w, uint8_t msg_type,
    const struct pcep_lsp_req *reqs, size_t n)
{
	size_t	m = pcep_msg_begin(w, msg_type);
	size_t	i;

	for (i = 0; i < n; i++)
		pcep_req_put(w, msg_type, &reqs[i]);
	return pcep_msg_end(w, m);
}

/* RFC 8231 5.6: LSP with PLSP-ID 0 and S clear, and an empty ERO. */
int
pcep_eos_encode(struct wbuf *w)
{
	static const struct pcep_lsp_req eos = { .has_ero = 1 };

	return pcep_reqs_encode(w, PCEP_MSG_PCRPT, &eos, 1);
}

/* ---- PCErr (RFC 5440 6.7, RFC 8231 6.3) and PCNtf (RFC 5440 6.6) ---- */

static void
typeval_encode(struct wbuf *w, uint8_t oclass, uint8_t type, uint8_t value)
{
	size_t	o = pcep_obj_begin(w, oclass, PCEP_OT_DEFAULT, 0);

	wbuf_put_u8(w, 0);		/* Reserved */
	wbuf_put_u8(w, 0);		/* Flags */
	wbuf_put_u8(w, type);
	wbuf_put_u8(w, value);
	pcep_obj_end(w, o);
}

/* The object a PCNtf's items are (RFC 5440 7.14), else a PCErr's (7.15). */
static uint8_t
errmsg_class(uint8_t msg_type)
{
	return msg_type == PCEP_MSG_PCNTF ? PCEP_OC_NOTIFICATION :
	    PCEP_OC_ERROR;
}

int
pcep_errmsg_encode(struct wbuf *w, uint8_t msg_type,
    const struct pcep_errmsg *em)
{
	uint8_t	oclass = errmsg_class(msg_type);
	size_t	m = pcep_msg_begin(w, msg_type);
	size_t	o;
	uint8_t	i;

	if (em->has_rp) {
		o = pcep_obj_begin(w, PCEP_OC_RP, PCEP_OT_DEFAULT,
		    PCEP_OBJ_FLAG_P);
		wbuf_put_u32(w, 0);	/* Flags */
		wbuf_put_u32(w, em->rp_id);
		pcep_obj_end(w, o);
	}
	if (em->has_srp) {
		struct pcep_srp	srp = { .srp_id = em->srp_id };

		srp_encode(w, &srp);
	}
	for (i = 0; i < em->n && i < PCEP_ERRS_MAX; i++)
		typeval_encode(w, oclass, em->item[i].type, em->item[i].value);
	if (em->has_open)
		open_obj_encode(w, &em->open);
	return pcep_msg_end(w, m);
}

/* The id after the flags word of the first RP (RFC 5440 7.4) or SRP
 * (RFC 8231 7.2) object of an error message; later ones are skipped. */
static int
errmsg_first_id(struct pcep_obj *o, uint8_t *has, uint32_t *id,
    struct pcep_err *err)
{
	if (!*has && (rbuf_skip(&o->body, 4) == -1 ||
	    rbuf_get_u32(&o->body, id) == -1))
		return bad(err, PCEP_E_MALFORMED_OBJECT);
	*has = 1;
	return 0;
}

static int
errmsg_object(struct pcep_obj *o, uint8_t oclass, struct pcep_errmsg *em,
    struct pcep_err *err)
{
	uint8_t	t, v;

	if (o->oclass == oclass) {
		if (rbuf_skip(&o->body, 2) == -1 ||
		    rbuf_get_u8(&o->body, &t) == -1 ||
		    rbuf_get_u8(&o->body, &v) == -1)
			return bad(err, PCEP_E_MALFORMED_OBJECT);
		if (em->n < PCEP_ERRS_MAX) {
			em->item[em->n].type = t;
			em->item[em->n].value = v;
			em->item[em->n++].flags = o->flags;
		}
		return 0;
	}
	switch (o->oclass) {
	case PCEP_OC_RP:
		return errmsg_first_id(o, &em->has_rp, &em->rp_id, err);
	case PCEP_OC_SRP:
		return errmsg_first_id(o, &em->has_srp, &em->srp_id, err);
	case PCEP_OC_OPEN:
		em->has_open = 1;
		return open_obj_decode(&o->body, &em->open, err);
	default:
		return unknown_object(o, NULL, err) == -1 ? -1 : 0;
	}
}

int
pcep_errmsg_decode(struct rbuf *body, uint8_t msg_type,
    struct pcep_errmsg *em, struct pcep_err *err)
{
	uint8_t		oclass = errmsg_class(msg_type);
	struct pcep_obj	o;
	int		rc;

	memset(em, 0, sizeof(*em));
	while ((rc = pcep_obj_next(body, &o, err)) == 1)
		if (errmsg_object(&o, oclass, em, err) == -1)
			return -1;
	if (rc == -1)
		return -1;
	/* Nothing to report: no PCErr answers that, the message is bad. */
	if (em->n == 0)
		return bad_frame(err, PCEP_E_MALFORMED_OBJECT);
	return 0;
}

int
pcep_ctlrr_encode(struct wbuf *w, const struct pcep_errmsg *em)
{
	return pcep_errmsg_encode(w, PCEP_MSG_PCERR, em);
}

int
pcep_ctlrr_decode(struct rbuf *body, struct pcep_errmsg *em,
    struct pcep_err *err)
{
	return pcep_errmsg_decode(body, PCEP_MSG_PCERR, em, err);
}

int
pcep_ctlrr_simple(struct wbuf *w, const struct pcep_err *err, uint32_t srp_id)
{
	struct pcep_errmsg	em;

	memset(&em, 0, sizeof(em));
	em.n = 1;
	em.item[0].type = err->type;
	em.item[0].value = err->value;
	em.has_srp = srp_id != 0;
	em.srp_id = srp_id;
	return pcep_ctlrr_encode(w, &em);
}

int
pcep_ctlrr_open(struct wbuf *w, enum pcep_error e,
    const struct pcep_open *prop)
{
	struct pcep_errmsg	em;

	memset(&em, 0, sizeof(em));
	em.n = 1;
	em.item[0].type = (uint8_t)(e >> 8);
	em.item[0].value = (uint8_t)(e & 0xff);
	if (prop != NULL) {
		em.has_open = 1;
		em.open = *prop;
	}
	return pcep_ctlrr_encode(w, &em);
}
