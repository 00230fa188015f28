/*
 * Nicira vendor actions (Open vSwitch 3.1 ofp-actions.c, nicira-ext.h):
 * each one's length, the fields it names and its bit ranges checked as
 * Open vSwitch checks them, so that a flow keeps bytes Open vSwitch would
 * take.  The same bytes are a 1.0 OFPAT_VENDOR and a 1.3
 * OFPAT_EXPERIMENTER action (type 0xffff, length, vendor 0x2320,
 * subtype).  Nothing here runs: sbsim forwards no data traffic.
 */
#include <stdarg.h>
#include <string.h>

#include "of_actions.h"
#include "of_experimenter.h"
#include "of_nx.h"
#include "of_nxm.h"
#include "of_oxm.h"

/* NXAST_* subtypes (nicira-ext.h). */
#define NXAST_RESUBMIT		1
#define NXAST_SET_TUNNEL	2
#define NXAST_REG_MOVE		6
#define NXAST_REG_LOAD		7
#define NXAST_NOTE		8
#define NXAST_SET_TUNNEL64	9
#define NXAST_MULTIPATH		10
#define NXAST_BUNDLE		12
#define NXAST_BUNDLE_LOAD	13
#define NXAST_RESUBMIT_TABLE	14
#define NXAST_OUTPUT_REG	15
#define NXAST_LEARN		16
#define NXAST_EXIT		17
#define NXAST_DEC_TTL		18
#define NXAST_CONJUNCTION	34
#define NXAST_CT		35
#define NXAST_NAT		36
#define NXAST_CT_CLEAR		43

#define NX_ACT_HDR		10	/* type, len, vendor, subtype */
#define NX_OFS(ofs_nbits)	((ofs_nbits) >> 6)
#define NX_NBITS(ofs_nbits)	(((ofs_nbits) & 0x3f) + 1)
#define NX_MP_ALG_MAX		3	/* NX_MP_ALG_ITER_HASH */
#define NX_MP_FIELDS_MAX	6	/* NX_HASH_FIELDS_NW_SRC ... */
#define NX_BD_ALG_MAX		1	/* NX_BD_ALG_HRW */
#define NX_CONJ_CLAUSES_MAX	64
#define NX_LEARN_FLAGS		0x7	/* SEND_FLOW_REM, DELETE_LEARNED, */
					/* WRITE_RESULT */
#define NX_CT_FLAGS		0x3	/* COMMIT, FORCE */
#define NX_NAT_FLAGS		0x1f	/* SRC DST PERSISTENT HASH RANDOM */
#define NX_NAT_SRC_DST		0x3
#define NX_NAT_RANGE_BITS	0x3f	/* IPV4/IPV6/PROTO MIN/MAX */
#define NX_LEARN_NBITS		0x3ff
#define NX_LEARN_SRC_IMM	(1u << 13)
#define NX_LEARN_DST_SHIFT	11
#define NX_LEARN_DST_OUTPUT	2
#define NX_LEARN_RESERVED	0xc000u
#define NXAST_REG_LOAD2		33
#define OF_AT_VENDOR		0xffff	/* 1.0 VENDOR, 1.3 EXPERIMENTER */
#define OF_TABLE_ANY		0xff
#define NXM_OF_IN_PORT_HDR	0x00000002u
#define OFPAT_SET_FIELD		25

struct nx_act {
	struct rbuf	*b;
	uint16_t	 len;		/* whole action */
	uint32_t	 n_ports;
	enum of_err	*err;
};

typedef int	(*nx_check_fn)(const struct nx_act *);

static int
nx_fail(const struct nx_act *a, enum of_err e)
{
	*a->err = e;
	return -1;
}

/* A tun_metadata field no TLV mapping gives a length to. */
static int
nx_tun_unmapped(uint32_t hdr)
{
	return of_nxm_is_tun(hdr) && of_nxm_field_bits(hdr & ~0x100u) == 0;
}

/*
 * A field reference with a bit range inside it, answered as Open
 * vSwitch 3.1's mf_check_src/dst answer: an unknown field
 * BAD_SET_TYPE, an empty range or one past the field BAD_SET_LEN, an
 * unmapped tun_metadata NXFMFC_INVALID_TLV_FIELD.
 */
static int
nx_ref(const struct nx_act *a, uint32_t hdr, unsigned ofs, unsigned nbits)
{
	unsigned	w;

	if (nx_tun_unmapped(hdr))
		return nx_fail(a, OF_ERR_NX_INVALID_TLV_FIELD);
	if ((w = of_nxm_field_bits(hdr)) == 0)
		return nx_fail(a, OF_ERR_BAD_SET_TYPE);
	if (nbits == 0 || ofs + nbits > w)
		return nx_fail(a, OF_ERR_BAD_SET_LEN);
	return 0;
}

/*
 * The fixed fields at the start of an action's body, in wire order, one
 * a character of layout: '1', '2', '4', '8' a big-endian integer of that
 * many bytes into the next argument (uint8_t *, uint16_t *, uint32_t *,
 * uint64_t *), 'x' a byte not read (padding, or a field nothing checks),
 * ' ' nothing (for reading).  nx_acts[]'s length covers them.
 */
static void
nx_get(const struct nx_act *a, const char *layout, ...)
{
	va_list	ap;

	va_start(ap, layout);
	for (; *layout != '\0'; layout++)
		switch (*layout) {
		case '1': rbuf_get_u8(a->b, va_arg(ap, uint8_t *)); break;
		case '2': rbuf_get_u16(a->b, va_arg(ap, uint16_t *)); break;
		case '4': rbuf_get_u32(a->b, va_arg(ap, uint32_t *)); break;
		case '8': rbuf_get_u64(a->b, va_arg(ap, uint64_t *)); break;
		case 'x': rbuf_skip(a->b, 1); break;
		}
	va_end(ap);
}

static int
nx_zero(const uint8_t *p, size_t n)
{
	while (n-- > 0)
		if (*p++ != 0)
			return 0;
	return 1;
}

/* resubmit([port],[table]): the port a real one or IN_PORT, pad zero. */
static int
nx_resubmit(const struct nx_act *a)
{
	uint16_t	port;
	uint8_t		table;

	nx_get(a, "21", &port, &table);
	if (!nx_zero(rbuf_ptr(a->b), 3))
		return nx_fail(a, OF_ERR_BAD_ACTION_ARGUMENT);
	(void)table;	/* 255: the current table; any other is one */
	return 0;
}

/* load:value->dst[ofs..ofs+nbits-1]: value fits in nbits. */
static int
nx_reg_load(const struct nx_act *a)
{
	uint16_t	ofs_nbits;
	uint32_t	dst;
	uint64_t	value;
	unsigned	n;

	nx_get(a, "248", &ofs_nbits, &dst, &value);
	n = NX_NBITS(ofs_nbits);
	if (nx_ref(a, dst, NX_OFS(ofs_nbits), n) == -1)
		return -1;
	if (n < 64 && value >> n != 0)
		return nx_fail(a, OF_ERR_BAD_ACTION_ARGUMENT);
	return 0;
}

/*
 * set_field/load in OXM form (NXAST_REG_LOAD2, what ovs-ofctl sends for a
 * masked or variable-length field): one OXM TLV right after the subtype,
 * zeros to the end (decode_NXAST_RAW_REG_LOAD2).  A tun_metadata field
 * must be mapped (of_nxm_field_bits); its value may be shorter.  Open
 * vSwitch 3.1 answers an unknown field or a length the field does not
 * have with BAD_SET_LEN, nonzero padding with BAD_SET_ARGUMENT.
 */
static int
nx_reg_load2(const struct nx_act *a)
{
	const uint8_t	*val;
	uint32_t	 hdr;
	size_t		 plen, w, i;
	unsigned	 bits;

	if (rbuf_get_u32(a->b, &hdr) == -1)
		return nx_fail(a, OF_ERR_BAD_ACTION_LEN);
	plen = OXM_HDR_LENGTH(hdr);
	w = OXM_HDR_HASMASK(hdr) ? plen / 2 : plen;
	val = rbuf_ptr(a->b);
	if (rbuf_skip(a->b, plen) == -1)
		return nx_fail(a, OF_ERR_BAD_ACTION_LEN);
	bits = of_nxm_field_bits((hdr & ~0x1ffu) | w);
	if (bits == 0 && of_nxm_is_tun(hdr))
		return nx_fail(a, OF_ERR_NX_INVALID_TLV_FIELD);
	if (bits == 0 || w * 8 > bits || (w == 0 && !of_nxm_is_tun(hdr)))
		return nx_fail(a, OF_ERR_BAD_SET_LEN);
	for (i = 0; OXM_HDR_HASMASK(hdr) && i < w; i++)
		if (val[i] & ~val[w + i])
			return nx_fail(a, OF_ERR_BAD_MATCH_WILDCARDS);
	if (!nx_zero(rbuf_ptr(a->b), rbuf_left(a->b)))
		return nx_fail(a, OF_ERR_BAD_SET_ARGUMENT);
	return 0;
}

/* move:src[]->dst[]: both ranges inside their fields. */
static int
nx_reg_move(const struct nx_act *a)
{
	uint16_t	n_bits, src_ofs, dst_ofs;
	uint32_t	src, dst;

	nx_get(a, "222 44", &n_bits, &src_ofs, &dst_ofs, &src, &dst);
	/* Open vSwitch reads both headers as match fields (BAD_FIELD),
	 * then the padding (NXBRC_MUST_BE_ZERO), then the ranges. */
	if (nx_tun_unmapped(src) || nx_tun_unmapped(dst))
		return nx_fail(a, OF_ERR_NX_INVALID_TLV_FIELD);
	if (of_nxm_field_bits(src) == 0 || of_nxm_field_bits(dst) == 0)
		return nx_fail(a, OF_ERR_BAD_MATCH_FIELD);
	if (!nx_zero(rbuf_ptr(a->b), rbuf_left(a->b)))
		return nx_fail(a, OF_ERR_NX_MUST_BE_ZERO);
	if (nx_ref(a, src, src_ofs, n_bits) == -1 ||
	    nx_ref(a, dst, dst_ofs, n_bits) == -1)
		return -1;
	return 0;
}

/* output:src[]: a field range of at most 32 bits, zero padding. */
static int
nx_output_reg(const struct nx_act *a)
{
	uint16_t	ofs_nbits, max_len;
	uint32_t	src;

	nx_get(a, "2 4 2", &ofs_nbits, &src, &max_len);
	if (!nx_zero(rbuf_ptr(a->b), 6))
		return nx_fail(a, OF_ERR_BAD_ACTION_ARGUMENT);
	if (nx_ref(a, src, NX_OFS(ofs_nbits), NX_NBITS(ofs_nbits)) == -1)
		return -1;
	if (NX_NBITS(ofs_nbits) > 32)
		return nx_fail(a, OF_ERR_BAD_ACTION_ARGUMENT);
	return 0;
}

/* multipath(fields, basis, algorithm, max_link, arg, dst[]): 2^nbits
 * must reach max_link + 1 links. */
static int
nx_multipath(const struct nx_act *a)
{
	uint16_t	fields, alg, max_link, ofs_nbits;
	uint32_t	dst;
	unsigned	n;

	/* fields, basis, pad, algorithm, max_link, arg, pad, ofs_nbits, dst */
	nx_get(a, "2 xx xx 2 2 xxxx xx 2 4", &fields, &alg, &max_link,
	    &ofs_nbits, &dst);
	n = NX_NBITS(ofs_nbits);
	if (fields > NX_MP_FIELDS_MAX || alg > NX_MP_ALG_MAX)
		return nx_fail(a, OF_ERR_BAD_ACTION_ARGUMENT);
	/* The field before the link count, as Open vSwitch 3.1 answers. */
	if (nx_ref(a, dst, NX_OFS(ofs_nbits), n) == -1)
		return -1;
	if (n < 16 && (uint32_t)max_link + 1 > 1u << n)
		return nx_fail(a, OF_ERR_BAD_ACTION_ARGUMENT);
	return 0;
}

/* bundle / bundle_load(fields, basis, algorithm, ofport, dst[],
 * members:...): in_port-typed members, each a real port, inside len. */
static int
nx_bundle(const struct nx_act *a, int load)
{
	uint16_t	alg, fields, n_members, ofs_nbits, port;
	uint32_t	member_type, dst;
	unsigned	i;

	/* algorithm, fields, basis, member_type, n_members, ofs_nbits, dst */
	nx_get(a, "2 2 xx 4 2 2 4", &alg, &fields, &member_type, &n_members,
	    &ofs_nbits, &dst);
	if (alg > NX_BD_ALG_MAX || fields > NX_MP_FIELDS_MAX ||
	    member_type != NXM_OF_IN_PORT_HDR || !nx_zero(rbuf_ptr(a->b), 4) ||
	    rbuf_skip(a->b, 4) == -1)
		return nx_fail(a, OF_ERR_BAD_ACTION_ARGUMENT);
	if (!load && (dst != 0 || ofs_nbits != 0))
		return nx_fail(a, OF_ERR_BAD_ACTION_ARGUMENT);
	if (load && nx_ref(a, dst, NX_OFS(ofs_nbits), NX_NBITS(ofs_nbits)) == -1)
		return -1;
	if ((size_t)n_members * 2 > rbuf_left(a->b))
		return nx_fail(a, OF_ERR_BAD_ACTION_LEN);
	for (i = 0; i < n_members; i++) {
		rbuf_get_u16(a->b, &port);
		if (port == 0 || port > a->n_ports)
			return nx_fail(a, OF_ERR_BAD_OUT_PORT);
	}
	return nx_zero(rbuf_ptr(a->b), rbuf_left(a->b)) ? 0 :
	    nx_fail(a, OF_ERR_BAD_ACTION_ARGUMENT);
}

static int
nx_bundle_plain(const struct nx_act *a)
{
	return nx_bundle(a, 0);
}

static int
nx_bundle_load(const struct nx_act *a)
{
	return nx_bundle(a, 1);
}

/* conjunction(id, k/n): 2 <= n <= 64, 1 <= k <= n (k - 1 on the wire). */
static int
nx_conjunction(const struct nx_act *a)
{
	uint8_t		clause, n_clauses;

	nx_get(a, "11", &clause, &n_clauses);
	if (n_clauses < 2 || n_clauses > NX_CONJ_CLAUSES_MAX ||
	    clause >= n_clauses)
		return nx_fail(a, OF_ERR_NX_BAD_CONJUNCTION);
	return 0;
}

/* dec_ttl, exit, ct_clear: six bytes after the subtype that Open
 * vSwitch 3.1 does not read (any value is taken, and kept as sent). */
static int
nx_pad6(const struct nx_act *a)
{
	(void)a;
	return 0;
}

/* One learn flow_mod_spec (nicira-ext.h): source field range or
 * immediate bits, then a match or load destination, or output.  Returns
 * 1 at the zero header that ends the list, 0 for a spec, -1 if bad. */
static int
nx_learn_spec(const struct nx_act *a)
{
	uint16_t	hdr, sofs, dofs;
	uint32_t	src, dst;
	unsigned	n, src_imm, dtype;

	if (rbuf_left(a->b) < 2 || rbuf_get_u16(a->b, &hdr) == -1 || hdr == 0)
		return 1;
	n = hdr & NX_LEARN_NBITS;
	src_imm = hdr & NX_LEARN_SRC_IMM;
	dtype = hdr >> NX_LEARN_DST_SHIFT & 3;
	if (n == 0 || (hdr & NX_LEARN_RESERVED) || dtype == 3)
		return nx_fail(a, OF_ERR_BAD_ACTION_ARGUMENT);
	if (src_imm) {
		if (rbuf_skip(a->b, (n + 15) / 16 * 2) == -1)
			return nx_fail(a, OF_ERR_BAD_ACTION_LEN);
	} else if (rbuf_get_u32(a->b, &src) == -1 ||
	    rbuf_get_u16(a->b, &sofs) == -1)
		return nx_fail(a, OF_ERR_BAD_ACTION_LEN);
	else if (nx_ref(a, src, sofs, n) == -1)
		return -1;
	if (dtype == NX_LEARN_DST_OUTPUT)
		return 0;
	if (rbuf_get_u32(a->b, &dst) == -1 || rbuf_get_u16(a->b, &dofs) == -1)
		return nx_fail(a, OF_ERR_BAD_ACTION_LEN);
	return nx_ref(a, dst, dofs, n);
}

/* learn(...): a real table, known flags, then the specs and zeros. */
static int
nx_learn(const struct nx_act *a)
{
	uint16_t	flags;
	uint8_t		table;
	int		rc;

	rbuf_skip(a->b, 2 + 2 + 2 + 8);	/* timeouts, priority, cookie */
	rbuf_get_u16(a->b, &flags);
	rbuf_get_u8(a->b, &table);
	rbuf_skip(a->b, 5);		/* pad, fin timeouts */
	if ((flags & ~NX_LEARN_FLAGS) || table == OF_TABLE_ANY)
		return nx_fail(a, OF_ERR_BAD_ACTION_ARGUMENT);
	while ((rc = nx_learn_spec(a)) == 0)
		;
	if (rc == -1)
		return -1;
	return nx_zero(rbuf_ptr(a->b), rbuf_left(a->b)) ? 0 :
	    nx_fail(a, OF_ERR_BAD_ACTION_ARGUMENT);
}

/* nat(...): flags, and exactly the ranges range_present names. */
static int
nx_nat(const struct nx_act *a)
{
	static const uint8_t	range_len[] = { 4, 4, 16, 16, 2, 2 };
	uint16_t		pad, flags, present;
	size_t			want = 16;
	unsigned		i;

	nx_get(a, "222", &pad, &flags, &present);
	if (pad != 0 || (flags & ~NX_NAT_FLAGS) ||
	    (flags & NX_NAT_SRC_DST) == NX_NAT_SRC_DST ||
	    (present & ~NX_NAT_RANGE_BITS))
		return nx_fail(a, OF_ERR_BAD_ACTION_ARGUMENT);
	for (i = 0; i < sizeof(range_len); i++)
		if (present & 1u << i)
			want += range_len[i];
	if (a->len != (want + 7) / 8 * 8)
		return nx_fail(a, OF_ERR_BAD_ACTION_LEN);
	return 0;
}

/* One action nested in ct(exec(...)): nat, or a load/set_field (of
 * ct_mark or ct_label). */
static int
nx_ct_nested(const struct nx_act *outer, uint16_t type, uint16_t len,
    struct rbuf *b)
{
	struct nx_act	a = { b, len, outer->n_ports, outer->err };
	uint32_t	vendor;
	uint16_t	subtype;

	if (type == OFPAT_SET_FIELD)
		return 0;
	if (type != OF_AT_VENDOR || rbuf_get_u32(b, &vendor) == -1 ||
	    vendor != OF_EXP_NICIRA || rbuf_get_u16(b, &subtype) == -1)
		return nx_fail(outer, OF_ERR_BAD_ACTION_ARGUMENT);
	if (subtype == NXAST_NAT)
		return len >= 16 ? nx_nat(&a) :
		    nx_fail(outer, OF_ERR_BAD_ACTION_LEN);
	if (subtype == NXAST_REG_LOAD)
		return len == 24 ? nx_reg_load(&a) :
		    nx_fail(outer, OF_ERR_BAD_ACTION_LEN);
	if (subtype == NXAST_REG_LOAD2)
		return 0;
	return nx_fail(outer, OF_ERR_BAD_ACTION_ARGUMENT);
}

/* ct(commit, zone=..., table=..., alg=..., exec(...)). */
static int
nx_ct(const struct nx_act *a)
{
	struct rbuf	body;
	uint32_t	zone_src;
	uint16_t	flags, zone, alg, type, len;
	uint8_t		table;

	nx_get(a, "2421", &flags, &zone_src, &zone, &table);
	if ((flags & ~NX_CT_FLAGS) || !nx_zero(rbuf_ptr(a->b), 3) ||
	    rbuf_skip(a->b, 3) == -1 || rbuf_get_u16(a->b, &alg) == -1)
		return nx_fail(a, OF_ERR_BAD_ACTION_ARGUMENT);
	if (zone_src != 0 &&
	    nx_ref(a, zone_src, NX_OFS(zone), NX_NBITS(zone)) == -1)
		return -1;
	while (rbuf_left(a->b) > 0) {
		if (rbuf_get_u16(a->b, &type) == -1 ||
		    rbuf_get_u16(a->b, &len) == -1 || len < 8 || len % 8 ||
		    rbuf_sub(a->b, &body, len - 4) == -1)
			return nx_fail(a, OF_ERR_BAD_ACTION_LEN);
		if (nx_ct_nested(a, type, len, &body) == -1)
			return -1;
	}
	return 0;
}

static int
nx_note(const struct nx_act *a)
{
	(void)a;	/* any bytes: a comment that rides with the flow */
	return 0;
}

struct nx_act_desc {
	uint16_t	subtype;
	uint16_t	len;		/* exact; 0: at least min */
	uint16_t	min;
	nx_check_fn	check;
};

static const struct nx_act_desc nx_acts[] = {
	{ NXAST_RESUBMIT, 16, 0, nx_resubmit },
	{ NXAST_RESUBMIT_TABLE, 16, 0, nx_resubmit },
	{ NXAST_SET_TUNNEL, 16, 0, NULL },
	{ NXAST_SET_TUNNEL64, 24, 0, NULL },
	{ NXAST_REG_MOVE, 0, 24, nx_reg_move },
	{ NXAST_REG_LOAD, 24, 0, nx_reg_load },
	{ NXAST_REG_LOAD2, 0, 16, nx_reg_load2 },
	{ NXAST_NOTE, 0, 16, nx_note },
	{ NXAST_MULTIPATH, 32, 0, nx_multipath },
	{ NXAST_BUNDLE, 0, 32, nx_bundle_plain },
	{ NXAST_BUNDLE_LOAD, 0, 32, nx_bundle_load },
	{ NXAST_OUTPUT_REG, 24, 0, nx_output_reg },
	{ NXAST_LEARN, 0, 32, nx_learn },
	{ NXAST_EXIT, 16, 0, nx_pad6 },
	{ NXAST_DEC_TTL, 16, 0, nx_pad6 },
	{ NXAST_CONJUNCTION, 16, 0, nx_conjunction },
	{ NXAST_CT, 0, 24, nx_ct },
	{ NXAST_CT_CLEAR, 16, 0, nx_pad6 },
};

int
of_nx_action_check(struct rbuf *b, uint16_t len, uint32_t n_ports,
    enum of_err *err)
{
	const struct nx_act_desc	*d;
	struct nx_act			 a = { b, len, n_ports, err };
	uint32_t			 vendor;
	uint16_t			 subtype;
	size_t				 i;

	if (rbuf_get_u32(b, &vendor) == -1 || rbuf_get_u16(b, &subtype) == -1)
		return nx_fail(&a, OF_ERR_BAD_ACTION_LEN);
	if (vendor != OF_EXP_NICIRA)
		return nx_fail(&a, OF_ERR_BAD_ACTION_EXPERIMENTER);
	for (i = 0; i < sizeof(nx_acts) / sizeof(nx_acts[0]); i++) {
		d = &nx_acts[i];
		if (d->subtype != subtype)
			continue;
		if ((d->len != 0 && len != d->len) ||
		    (d->len == 0 && len < d->min))
			return nx_fail(&a, OF_ERR_BAD_ACTION_LEN);
		return d->check != NULL ? d->check(&a) : 0;
	}
	return nx_fail(&a, OF_ERR_BAD_ACTION_EXP_TYPE);
}
