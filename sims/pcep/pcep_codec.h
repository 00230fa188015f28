/*
 * PCEP message codec: no I/O, no state.
 *
 * RFC 5440 (base), RFC 8231 (stateful), RFC 8281 (PCE-initiated LSPs),
 * RFC 8232 (LSP-DB-VERSION), RFC 8408 (path setup type), RFC 8664 (SR),
 * RFC 8697 (ASSOCIATION) with path protection, disjointness and SR policy.
 *
 * Decoders take a reader over a message body (the bytes after the 4-byte
 * common header, exactly length - 4 of them) and return 0 (or 1/0 for the
 * iterators), or -1 with a struct pcep_err saying which PCErr a PCC would
 * answer and whether the session must close.  Encoders append one complete
 * message at the end of a wbuf and patch its length; a caller checks the
 * wbuf's err flag once (a message over 65535 bytes sets it too).
 * IPv4 addresses are host-order uint32_t; IPv6 are 16 network-order bytes.
 */
#ifndef SBSIM_PCEP_CODEC_H
#define SBSIM_PCEP_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "pcep_wire.h"

/* PCEP-ERROR (Error-Type, Error-value) pairs: RFC 5440 9.12 and IANA. */
#define PCEP_E(t, v)	(((t) << 8) | (v))
enum pcep_error {
	PCEP_E_NONE = 0,
	/* 1: session establishment failure (RFC 5440) */
	PCEP_E_OPEN_INVALID = PCEP_E(1, 1),
	PCEP_E_OPENWAIT_EXPIRED = PCEP_E(1, 2),
	PCEP_E_OPEN_UNACCEPTABLE = PCEP_E(1, 3),
	PCEP_E_OPEN_NEGOTIABLE = PCEP_E(1, 4),
	PCEP_E_OPEN_SECOND_UNACCEPTABLE = PCEP_E(1, 5),
	PCEP_E_OPEN_PCERR_UNACCEPTABLE = PCEP_E(1, 6),
	PCEP_E_KEEPWAIT_EXPIRED = PCEP_E(1, 7),
	PCEP_E_VERSION = PCEP_E(1, 8),
	PCEP_E_CAPABILITY = PCEP_E(2, 0),
	PCEP_E_UNKNOWN_CLASS = PCEP_E(3, 1),
	PCEP_E_UNKNOWN_TYPE = PCEP_E(3, 2),
	PCEP_E_UNSUPP_CLASS = PCEP_E(4, 1),
	PCEP_E_UNSUPP_TYPE = PCEP_E(4, 2),
	PCEP_E_POLICY_METRIC_C = PCEP_E(5, 1),
	PCEP_E_POLICY_RP_O = PCEP_E(5, 2),
	/* 6: mandatory object missing (RFC 5440, 8231 8.5, 8232) */
	PCEP_E_MISSING_RP = PCEP_E(6, 1),
	PCEP_E_MISSING_RRO = PCEP_E(6, 2),
	PCEP_E_MISSING_ENDPOINTS = PCEP_E(6, 3),
	PCEP_E_MISSING_LSP = PCEP_E(6, 8),
	PCEP_E_MISSING_ERO = PCEP_E(6, 9),
	PCEP_E_MISSING_SRP = PCEP_E(6, 10),
	PCEP_E_MISSING_LSP_IDS = PCEP_E(6, 11),
	PCEP_E_MISSING_DB_VERSION = PCEP_E(6, 12),
	PCEP_E_SYNC_REQ_MISSING = PCEP_E(7, 0),
	PCEP_E_UNKNOWN_REQ_REF = PCEP_E(8, 0),
	PCEP_E_SECOND_SESSION = PCEP_E(9, 0),
	/* 10: reception of an invalid object (RFC 5440, RFC 8664) */
	PCEP_E_INVALID_P_FLAG = PCEP_E(10, 1),
	PCEP_E_BAD_LABEL = PCEP_E(10, 2),
	PCEP_E_SR_ERO_COUNT = PCEP_E(10, 3),
	PCEP_E_BAD_LABEL_FORMAT = PCEP_E(10, 4),
	PCEP_E_ERO_SR_MIX = PCEP_E(10, 5),
	PCEP_E_SR_SID_NAI_ABSENT = PCEP_E(10, 6),
	PCEP_E_SYMBOLIC_NAME_MISSING = PCEP_E(10, 8),
	PCEP_E_MALFORMED_OBJECT = PCEP_E(10, 11),
	PCEP_E_UNSUPPORTED_NAI = PCEP_E(10, 13),
	/* 19: invalid operation (RFC 8231 8.5, RFC 8281 8.4) */
	PCEP_E_UPDATE_NOT_DELEGATED = PCEP_E(19, 1),
	PCEP_E_UPDATE_NOT_STATEFUL = PCEP_E(19, 2),
	PCEP_E_UPDATE_UNKNOWN_PLSP = PCEP_E(19, 3),
	PCEP_E_REPORT_NOT_STATEFUL = PCEP_E(19, 5),
	PCEP_E_INIT_LIMIT = PCEP_E(19, 6),
	PCEP_E_INIT_DELEGATION_REVOKE = PCEP_E(19, 7),
	PCEP_E_INIT_NONZERO_PLSP = PCEP_E(19, 8),
	PCEP_E_NOT_PCE_INITIATED = PCEP_E(19, 9),
	PCEP_E_INIT_FREQUENCY = PCEP_E(19, 10),
	/* 20: LSP state synchronization error (RFC 8231, 8232) */
	PCEP_E_SYNC_CANNOT_PROCESS = PCEP_E(20, 1),
	PCEP_E_SYNC_DB_MISMATCH = PCEP_E(20, 2),
	PCEP_E_SYNC_TRIGGER_EARLY = PCEP_E(20, 3),
	PCEP_E_SYNC_TRIGGER_NO_CAP = PCEP_E(20, 4),
	PCEP_E_SYNC_PCC_CANNOT = PCEP_E(20, 5),
	PCEP_E_SYNC_BAD_DB_VERSION = PCEP_E(20, 6),
	PCEP_E_SYNC_BAD_SPEAKER_ID = PCEP_E(20, 7),
	/* 21: invalid path setup type (RFC 8408) */
	PCEP_E_PST_UNSUPPORTED = PCEP_E(21, 1),
	PCEP_E_PST_MISMATCH = PCEP_E(21, 2),
	/* 26: association error (RFC 8697 6.4) */
	PCEP_E_ASSOC_TYPE_UNSUPPORTED = PCEP_E(26, 1),
	/* 23: bad parameter value (RFC 8281) */
	PCEP_E_NAME_IN_USE = PCEP_E(23, 1),
	PCEP_E_SPEAKER_NOT_INITIATED = PCEP_E(23, 2),
	/* 24: LSP instantiation error (RFC 8281) */
	PCEP_E_INIT_UNACCEPTABLE = PCEP_E(24, 1),
	PCEP_E_INIT_INTERNAL = PCEP_E(24, 2),
	PCEP_E_INIT_SIGNALING = PCEP_E(24, 3),
};

/*
 * What to answer bad input with: a PCErr carrying (type, value) when type
 * is not 0, and a CLOSE with close_reason when it is not 0 (the stream can
 * no longer be framed or the message makes no sense at all).
 */
struct pcep_err {
	uint8_t		type;
	uint8_t		value;
	uint8_t		close_reason;	/* PCEP_CLOSE_*, 0: keep the session */
};

void	 pcep_err_set(struct pcep_err *, enum pcep_error);
enum pcep_error pcep_err_code(const struct pcep_err *);
const char *pcep_error_name(uint8_t type, uint8_t value);
const char *pcep_msg_name(uint8_t type);

/* ---- framing (RFC 5440 6.1, 7.2) ---- */

struct pcep_header {
	uint8_t		version;
	uint8_t		flags;
	uint8_t		type;
	uint16_t	length;		/* whole message, header included */
};

int	 pcep_header_decode(struct rbuf *, struct pcep_header *,
	    struct pcep_err *);
/* A message's length from its first PCEP_HDR_LEN bytes, for framing a
 * stream: -1 with err (close) when the header cannot be framed. */
long	 pcep_frame_length(const uint8_t *hdr, struct pcep_err *);
/*
 * Carve the next whole message off a byte stream: 1 and *body set (the
 * stream reader advanced past it), 0 when more bytes are needed, -1 on a
 * header that cannot be framed (err says close).
 */
int	 pcep_msg_split(struct rbuf *stream, struct pcep_header *,
	    struct rbuf *body, struct pcep_err *);

struct pcep_obj {
	uint8_t		oclass;
	uint8_t		otype;
	uint8_t		flags;		/* PCEP_OBJ_FLAG_P, _I */
	struct rbuf	body;		/* after the object header */
};

/* Start a message (length patched by pcep_msg_end); returns its offset. */
size_t	 pcep_msg_begin(struct wbuf *, uint8_t type);
int	 pcep_msg_end(struct wbuf *, size_t start);
size_t	 pcep_obj_begin(struct wbuf *, uint8_t oclass, uint8_t otype,
	    uint8_t flags);
int	 pcep_obj_end(struct wbuf *, size_t start);

/* ---- objects ---- */

/* OPEN (RFC 5440 7.3) with its capability TLVs. */
#define PCEP_MAX_PST	4
#define PCEP_ASSOC_TYPES_MAX	8	/* more in an OPEN are ignored */
struct pcep_open {
	uint8_t		keepalive;
	uint8_t		deadtimer;
	uint8_t		sid;
	uint8_t		has_stateful;	/* STATEFUL-PCE-CAPABILITY */
	uint32_t	stateful_flags;	/* PCEP_STATEFUL_* */
	uint8_t		has_sr;		/* SR-PCE-CAPABILITY (or sub-TLV) */
	uint8_t		sr_flags;	/* PCEP_SR_CAP_* */
	uint8_t		msd;
	uint8_t		n_pst;		/* PATH-SETUP-TYPE-CAPABILITY */
	uint8_t		pst[PCEP_MAX_PST];
	uint8_t		has_db_version;	/* LSP-DB-VERSION */
	uint64_t	db_version;
	uint8_t		has_srv6;	/* SRv6-PCE-CAPABILITY (RFC 9603) */
	uint16_t	srv6_flags;
	uint8_t		n_assoc_types;	/* ASSOC-Type-List (RFC 8697) */
	uint16_t	assoc_types[PCEP_ASSOC_TYPES_MAX];
};

struct pcep_srp {
	uint32_t	flags;		/* PCEP_SRP_FLAG_R */
	uint32_t	srp_id;
	uint8_t		has_pst;	/* PATH-SETUP-TYPE TLV */
	uint8_t		pst;
};

/* IPV4- or IPV6-LSP-IDENTIFIERS (RFC 8231 7.3.1). */
struct pcep_lsp_ids {
	uint8_t		af;		/* 4 or 6; 0: absent */
	uint32_t	sender4;
	uint32_t	ext_id4;
	uint32_t	endpoint4;
	uint8_t		sender6[16];
	uint8_t		ext_id6[16];
	uint8_t		endpoint6[16];
	uint16_t	lsp_id;
	uint16_t	tunnel_id;
};

#define PCEP_NAME_MAX	255	/* longer names are refused (10/11) */
/*
 * A binding SID (RFC 9604 TE-PATH-BINDING): an MPLS label (BT 0, the
 * label << 12 in value; BT 1, a whole label stack entry) or an SRv6 SID
 * (BT 2; BT 3 with its behavior and structure).
 */
struct pcep_bsid {
	uint8_t		bt;		/* PCEP_BT_* */
	uint8_t		flags;		/* PCEP_BSID_FLAG_R */
	uint32_t	value;		/* MPLS */
	uint8_t		sid[PCEP_SRV6_SID_LEN];		/* SRv6 */
	uint8_t		behavior[PCEP_SRV6_BEHAVIOR_LEN];	/* BT 3 */
};

struct pcep_lsp {
	uint32_t	plsp_id;	/* 20 bits */
	uint16_t	flags;		/* PCEP_LSP_FLAG_D, S, R, A, C */
	uint8_t		obj_flags;	/* decoded: the object's P and I */
	uint8_t		oper;		/* PCEP_OPER_* */
	struct pcep_lsp_ids ids;
	uint16_t	name_len;	/* SYMBOLIC-PATH-NAME; 0: absent */
	char		name[PCEP_NAME_MAX + 1];
	uint8_t		has_db_version;
	uint64_t	db_version;
	uint8_t		has_error_code;	/* LSP-ERROR-CODE */
	uint32_t	error_code;
	uint8_t		has_bsid;	/* TE-PATH-BINDING, the first */
	uint8_t		bsid_skipped;	/* more of them, not kept */
	struct pcep_bsid bsid;
};

/* One ERO subobject: an IPv4 prefix (RFC 3209), an SR-ERO (RFC 8664) or
 * an SRv6-ERO (RFC 9603: sr_flags its flags, nai as for SR). */
#define PCEP_NAI_MAX	40	/* IPv6 link-local adjacency */
struct pcep_hop {
	uint8_t		kind;		/* PCEP_SUBOBJ_IPV4 or _SR */
	uint8_t		loose;
	uint32_t	addr;		/* IPv4 prefix */
	uint8_t		prefix_len;
	uint8_t		nt;		/* SR: PCEP_NAI_* */
	uint16_t	sr_flags;	/* SR: PCEP_SR_FLAG_* */
	uint32_t	sid;		/* SR: label << 12 when M */
	uint8_t		nai_len;
	uint8_t		nai[PCEP_NAI_MAX];	/* as on the wire */
	uint16_t	behavior;	/* SRv6 endpoint behavior */
	uint8_t		sid6[16];	/* SRv6 SID */
	uint8_t		sid_struct[PCEP_SRV6_STRUCT_LEN];	/* when T */
};
/* SR NAI helpers for IPv4 node (remote ignored) and adjacency. */
void	 pcep_hop_sr_ipv4(struct pcep_hop *, uint32_t label, uint32_t local,
	    uint32_t remote, int adjacency);
uint32_t pcep_hop_nai_ipv4(const struct pcep_hop *, int which);
/* An SRv6-ERO hop of a SID (16 bytes) and behavior, no NAI (F). */
void	 pcep_hop_srv6(struct pcep_hop *, const uint8_t *sid,
	    uint16_t behavior);

#define PCEP_ERO_MAX	32
struct pcep_ero {
	uint8_t		n;
	uint8_t		obj_flags;	/* decoded: the object's P and I */
	struct pcep_hop	hop[PCEP_ERO_MAX];
};

struct pcep_metric {
	uint8_t		type;		/* PCEP_METRIC_* */
	uint8_t		flags;		/* PCEP_METRIC_FLAG_B, _C */
	float		value;
};

struct pcep_lspa {
	uint32_t	exclude_any;
	uint32_t	include_any;
	uint32_t	include_all;
	uint8_t		setup_prio;
	uint8_t		hold_prio;
	uint8_t		flags;		/* PCEP_LSPA_FLAG_L */
};

#define PCEP_METRIC_MAX	4
struct pcep_attrs {
	uint8_t		bw_type;	/* PCEP_OT_BW_*; 0: no BANDWIDTH */
	float		bandwidth;	/* bytes per second */
	uint8_t		has_lspa;
	struct pcep_lspa lspa;
	uint8_t		n_metric;
	struct pcep_metric metric[PCEP_METRIC_MAX];
};

/*
 * One ASSOCIATION object (RFC 8697 6.1) and the TLVs of the types sbsim
 * knows.  Names point into the decoded message (not NUL-terminated): a
 * keeper copies them.  SR policy: color and endpoint come from the
 * EXTENDED-ASSOCIATION-ID (or FRR's SRPOLICY-POL-ID), both forms decoded.
 */
#define PCEP_ASSOC_MAX	2	/* per request; more are counted, skipped */
struct pcep_assoc {
	uint8_t		af;		/* 4 or 6: the object type */
	uint8_t		removal;	/* R flag */
	uint16_t	type;		/* PCEP_ASSOC_T_* */
	uint16_t	id;
	uint8_t		src[16];	/* IPv4: the first 4, network order */
	uint8_t		has_prot;	/* PATH-PROTECTION-ASSOCIATION */
	uint32_t	prot;		/* PCEP_PROT_* and PT */
	uint8_t		has_disjoint;	/* DISJOINTNESS-CONFIGURATION */
	uint32_t	disjoint;	/* PCEP_DISJ_* */
	uint8_t		has_color;	/* SR policy: color, endpoint */
	uint8_t		ep_af;		/* 4 or 6 */
	uint32_t	color;
	uint8_t		ep[16];
	uint8_t		has_pref;
	uint32_t	pref;		/* candidate path preference */
	uint8_t		has_cpath_id;
	uint8_t		origin;		/* Protocol-Origin */
	uint32_t	orig_asn;
	uint8_t		orig_addr[16];
	uint32_t	discriminator;
	uint8_t		pol_name_len, cp_name_len;	/* 0: absent */
	const char	*pol_name, *cp_name;
};

/* ---- PCRpt, PCUpd, PCInitiate (RFC 8231 6.1, 6.2; RFC 8281 5.1) ---- */

/*
 * One state report, update request or initiate request: SRP, LSP,
 * END-POINTS (PCInitiate), ERO and attributes.  A PCInitiate with the SRP
 * R flag is a deletion: SRP and LSP only.
 */
struct pcep_lsp_req {
	uint8_t		has_srp;
	struct pcep_srp	srp;
	struct pcep_lsp	lsp;
	uint8_t		has_endpoints;
	uint32_t	ep_src;
	uint32_t	ep_dst;
	uint8_t		has_ero;
	struct pcep_ero	ero;
	uint8_t		has_rro;	/* seen and skipped */
	uint8_t		n_assoc;	/* ASSOCIATION objects kept */
	uint8_t		assoc_skipped;	/* past PCEP_ASSOC_MAX */
	struct pcep_assoc assoc[PCEP_ASSOC_MAX];
	struct pcep_attrs attrs;
	uint16_t	n_unknown;	/* skipped objects without P flag */
	uint8_t		unknown_class;	/* the first of them */
	uint8_t		unknown_type;
};

/* Append one request (no header) to a message begun by pcep_msg_begin. */
int	 pcep_req_put(struct wbuf *, uint8_t msg_type,
	    const struct pcep_lsp_req *);
/* A whole PCRpt, PCUpd or PCInitiate of n requests. */
int	 pcep_reqs_encode(struct wbuf *, uint8_t msg_type,
	    const struct pcep_lsp_req *, size_t n);

struct pcep_req_iter {
	uint8_t		msg_type;
	struct rbuf	body;
	size_t		count;
};
void	 pcep_req_iter_init(struct pcep_req_iter *, uint8_t msg_type,
	    const struct rbuf *body);
/*
 * 1: one more request in *req; 0: the message is done; -1: err set, and
 * *req holds what was decoded of the bad request (its SRP-ID for the
 * PCErr, RFC 8231 6.3).
 */
int	 pcep_req_next(struct pcep_req_iter *, struct pcep_lsp_req *,
	    struct pcep_err *);
/*
 * Each request of a PCRpt, PCUpd or PCInitiate body to one(sess, req)
 * while up(sess) (one may end the session).  -1 when a malformed one
 * ended the message with the session still up (the rest cannot be
 * found): *err is the PCErr to send, *srp_id the request's SRP-ID-number
 * (0: none); else 0.
 */
int	 pcep_req_each(uint8_t msg_type, const struct rbuf *body,
	    void (*one)(void *sess, const struct pcep_lsp_req *),
	    int (*up)(const void *sess), void *sess, struct pcep_err *err,
	    uint32_t *srp_id);

/* End-of-synchronization marker (RFC 8231 5.6): PLSP-ID 0, S clear. */
int	 pcep_req_is_eos(const struct pcep_lsp_req *);
int	 pcep_eos_encode(struct wbuf *);

/* ---- the other messages ---- */

int	 pcep_open_encode(struct wbuf *, const struct pcep_open *);
/* Open body: exactly one OPEN object (errors are 1/1). */
int	 pcep_open_decode(struct rbuf *, struct pcep_open *, struct pcep_err *);
int	 pcep_keepalive_encode(struct wbuf *);
int	 pcep_close_encode(struct wbuf *, uint8_t reason);
int	 pcep_close_decode(struct rbuf *, uint8_t *reason, struct pcep_err *);

/*
 * PCErr (RFC 5440 6.7, RFC 8231 6.3) and PCNtf (RFC 5440 6.6): a list of
 * (type, value) objects, optionally after the SRP (PCErr) or RP of the
 * request they answer; a PCErr may carry an Open for negotiation (1/4).
 */
#define PCEP_ERRS_MAX	8
struct pcep_errmsg {
	uint8_t		n;
	struct {
		uint8_t	type;
		uint8_t	value;
		uint8_t	flags;	/* its object header's P and I, decoded */
	}		item[PCEP_ERRS_MAX];
	uint8_t		has_srp;
	uint32_t	srp_id;
	uint8_t		has_rp;
	uint32_t	rp_id;
	uint8_t		has_open;
	struct pcep_open open;
};
/*
 * A hop of a stored path: what a PCC or a PCE keeps of an ERO hop, in a
 * few bytes (struct pcep_hop is sized for decoding).
 */
struct pcep_hop_rec {
	union {			/* by kind: 24 bytes a hop, not 36 */
		struct {
			uint32_t	addr;	/* IPv4 hop, or SR NAI (local) */
			uint32_t	addr2;	/* SR adjacency NAI: remote */
			uint32_t	sid;	/* SR */
		};
		uint8_t	sid6[16];	/* SRv6 (no NAI, no structure kept) */
	};
	uint16_t	behavior;	/* SRv6 */
	uint8_t		kind;		/* PCEP_SUBOBJ_IPV4 or _SR */
	uint8_t		loose;
	uint8_t		plen;		/* IPv4: prefix length */
	uint8_t		nt;		/* SR: NAI type */
	uint16_t	sr_flags;
};

void	 pcep_hop_rec_set(struct pcep_hop_rec *, const struct pcep_hop *);
/* An LSP's stored path (*hops, *nhops of them) made ero's: the array is
 * reused when it is big enough. */
void	 pcep_hops_store(struct pcep_hop_rec **hops, uint8_t *nhops,
	    const struct pcep_ero *ero);
/* An ERO of n stored hops (at most PCEP_ERO_MAX); an IPv4 hop stored
 * without a length is a /32. */
void	 pcep_ero_from_recs(const struct pcep_hop_rec *, uint8_t n,
	    struct pcep_ero *);

/* A PCErr (msg_type PCEP_MSG_PCERR) or a PCNtf (PCEP_MSG_PCNTF): one
 * list of items, ERROR or NOTIFICATION objects. */
int	 pcep_errmsg_encode(struct wbuf *, uint8_t msg_type,
	    const struct pcep_errmsg *);
int	 pcep_errmsg_decode(struct rbuf *, uint8_t msg_type,
	    struct pcep_errmsg *, struct pcep_err *);
/* The same for a PCErr. */
int	 pcep_ctlrr_encode(struct wbuf *, const struct pcep_errmsg *);
int	 pcep_ctlrr_decode(struct rbuf *, struct pcep_errmsg *,
	    struct pcep_err *);
/* A PCErr of one error answering err (and the SRP-ID when not 0). */
int	 pcep_ctlrr_simple(struct wbuf *, const struct pcep_err *,
	    uint32_t srp_id);
/* Session establishment errors (RFC 5440 section 6.2): one error of
 * type 1 and, when prop is not NULL, the Open we would accept. */
int	 pcep_ctlrr_open(struct wbuf *, enum pcep_error,
	    const struct pcep_open *prop);

#endif
