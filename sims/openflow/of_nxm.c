/*
 * NXM (Open vSwitch's nicira-ext.h, "Flexible flow matching") and the
 * extension fields of a canonical match (of_nxm.h).  An nx_match is a run
 * of TLVs with the OXM header layout (class, field, hasmask, length;
 * OpenFlow 1.3.5 section 7.2.3.2 took it from NXM), no match header and
 * no padding of its own.  Field numbers, lengths and maskability follow
 * meta-flow.xml of Open vSwitch 3.1.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "of_actions.h"
#include "of_experimenter.h"
#include "of_match.h"
#include "of_nx_tlv.h"
#include "of_nxm.h"
#include "of_oxm.h"

#define NXM_CLASS_OF		OXM_CLASS_NXM_0
#define NXM_CLASS_NX		OXM_CLASS_NXM_1
#define OXM_CLASS_PKT_REGS	0x8001	/* xreg0..7 (OXM_OF_PKT_REG) */
#define NXM_KEY(cls, fld)	((uint32_t)(cls) << 16 | (uint32_t)(fld) << 9)
#define NXM_KEY_OF(hdr)		((hdr) & 0xfffffe00u)
#define NXM_TLV_MAX		(OXM_HDR_LEN + 4 + 2 * NX_TLV_OPT_MAX)	/* tun_metadata */
#define NXM_NX_COOKIE		30
#define VLAN_PCP_SHIFT		13
#define VLAN_TCI_VID		0x1fff	/* VID and CFI (OFPVID_PRESENT) */

/* An extension field: no OXM basic twin, no prerequisite. */
struct nxm_ext_field {
	uint32_t	 key;		/* NXM_KEY(class, field) */
	uint8_t		 len;
	uint8_t		 maskable;
	const char	*name;
	uint32_t	 exp;		/* class 0xffff: experimenter id */
};

#define NX(f, l, m, n)	{ NXM_KEY(NXM_CLASS_NX, (f)), (l), (m), (n), 0 }
#define XREG(i)		{ NXM_KEY(OXM_CLASS_PKT_REGS, (i)), 8, 1, "xreg" #i, 0 }
/* OpenFlow 1.3's experimenter OXM (class 0xffff, the id after the
 * header; 1.3.5 section 7.2.3.2): ONF's TCP flags (EXT-109), which
 * Open vSwitch sends for tcp_flags in 1.3. */
#define ONF_TCP_FLAGS	{ NXM_KEY(OXM_CLASS_EXPERIMENTER, 42), 2, 1,	\
	"tcp_flags", OF_EXP_ONF }
static const struct nxm_ext_field nxm_ext_fields[] = {
	NX(0, 4, 1, "reg0"), NX(1, 4, 1, "reg1"), NX(2, 4, 1, "reg2"),
	NX(3, 4, 1, "reg3"), NX(4, 4, 1, "reg4"), NX(5, 4, 1, "reg5"),
	NX(6, 4, 1, "reg6"), NX(7, 4, 1, "reg7"), NX(8, 4, 1, "reg8"),
	NX(9, 4, 1, "reg9"), NX(10, 4, 1, "reg10"), NX(11, 4, 1, "reg11"),
	NX(12, 4, 1, "reg12"), NX(13, 4, 1, "reg13"), NX(14, 4, 1, "reg14"),
	NX(15, 4, 1, "reg15"),
	NX(26, 1, 1, "nw_frag"), NX(29, 1, 0, "nw_ttl"),
	NX(31, 4, 1, "tun_src"), NX(32, 4, 1, "tun_dst"),
	NX(33, 4, 1, "pkt_mark"), NX(34, 2, 1, "tcp_flags"),
	NX(35, 4, 1, "dp_hash"), NX(36, 4, 0, "recirc_id"),
	NX(37, 4, 0, "conj_id"), NX(104, 2, 1, "tun_flags"),
	NX(105, 4, 1, "ct_state"), NX(106, 2, 0, "ct_zone"),
	NX(107, 4, 1, "ct_mark"), NX(108, 16, 1, "ct_label"),
	XREG(0), XREG(1), XREG(2), XREG(3), XREG(4), XREG(5), XREG(6),
	XREG(7), ONF_TCP_FLAGS,
};
#define NXM_N_EXT	(sizeof(nxm_ext_fields) / sizeof(nxm_ext_fields[0]))

/* NXM_NX_TUN_METADATA0..63: length per the switch's TLV map
 * (of_nx_tlv.h), len 0 here. */
#define TUN(i)	NX(NX_TLV_TUN_FIELD0 + (i), 0, 1, "tun_metadata" #i)
#define TUN8(b)	TUN(b), TUN(b + 1), TUN(b + 2), TUN(b + 3), TUN(b + 4),	\
	TUN(b + 5), TUN(b + 6), TUN(b + 7)
static const struct nxm_ext_field nxm_tun_fields[NX_TLV_FIELDS] = {
	TUN8(0), TUN8(8), TUN8(16), TUN8(24), TUN8(32), TUN8(40), TUN8(48),
	TUN8(56),
};

/* How an NXM field with an OXM basic twin converts. */
enum nxm_conv {
	NXM_SAME,	/* same value bytes */
	NXM_PORT16,	/* 16-bit port, 1.0 numbering */
	NXM_TOS,	/* the IP TOS byte: DSCP << 2 */
	NXM_TCI		/* 802.1Q TCI: VLAN_VID and VLAN_PCP */
};

struct nxm_twin {
	uint32_t	key;
	uint8_t		len;		/* NXM value bytes */
	uint8_t		maskable;
	uint8_t		basic;		/* OXM_* */
	uint8_t		conv;		/* enum nxm_conv */
};

#define OF0(f, l, m, b, c)	{ NXM_KEY(NXM_CLASS_OF, (f)), (l), (m), (b), (c) }
#define NX1(f, l, m, b)		{ NXM_KEY(NXM_CLASS_NX, (f)), (l), (m), (b), NXM_SAME }
/* In the order Open vSwitch's NXM writer prefers for each basic field. */
static const struct nxm_twin nxm_twins[] = {
	OF0(0, 2, 0, OXM_IN_PORT, NXM_PORT16),
	OF0(1, 6, 1, OXM_ETH_DST, NXM_SAME),
	OF0(2, 6, 1, OXM_ETH_SRC, NXM_SAME),
	OF0(3, 2, 0, OXM_ETH_TYPE, NXM_SAME),
	OF0(4, 2, 1, OXM_VLAN_VID, NXM_TCI),
	OF0(5, 1, 0, OXM_IP_DSCP, NXM_TOS),
	OF0(6, 1, 0, OXM_IP_PROTO, NXM_SAME),
	OF0(7, 4, 1, OXM_IPV4_SRC, NXM_SAME),
	OF0(8, 4, 1, OXM_IPV4_DST, NXM_SAME),
	OF0(9, 2, 1, OXM_TCP_SRC, NXM_SAME),
	OF0(10, 2, 1, OXM_TCP_DST, NXM_SAME),
	OF0(11, 2, 1, OXM_UDP_SRC, NXM_SAME),
	OF0(12, 2, 1, OXM_UDP_DST, NXM_SAME),
	OF0(13, 1, 0, OXM_ICMPV4_TYPE, NXM_SAME),
	OF0(14, 1, 0, OXM_ICMPV4_CODE, NXM_SAME),
	OF0(15, 2, 0, OXM_ARP_OP, NXM_SAME),
	OF0(16, 4, 1, OXM_ARP_SPA, NXM_SAME),
	OF0(17, 4, 1, OXM_ARP_TPA, NXM_SAME),
	NX1(16, 8, 1, OXM_TUNNEL_ID),
	NX1(17, 6, 1, OXM_ARP_SHA),
	NX1(18, 6, 1, OXM_ARP_THA),
	NX1(19, 16, 1, OXM_IPV6_SRC),
	NX1(20, 16, 1, OXM_IPV6_DST),
	NX1(21, 1, 0, OXM_ICMPV6_TYPE),
	NX1(22, 1, 0, OXM_ICMPV6_CODE),
	NX1(23, 16, 1, OXM_IPV6_ND_TARGET),
	NX1(24, 6, 1, OXM_IPV6_ND_SLL),
	NX1(25, 6, 1, OXM_IPV6_ND_TLL),
	NX1(27, 4, 1, OXM_IPV6_FLABEL),
	NX1(28, 1, 0, OXM_IP_ECN),
};
#define NXM_N_TWINS	(sizeof(nxm_twins) / sizeof(nxm_twins[0]))

struct nxm_cookie {
	uint64_t	value;
	uint64_t	mask;		/* 0: none in the match */
};

static int
nxm_fail(enum of_err *err, enum of_err e)
{
	if (err != NULL)
		*err = e;
	return -1;
}

static uint32_t
get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static void
put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* tun_metadata<i>'s index from a key, -1 for any other field. */
static int
nxm_tun_idx(uint32_t key)
{
	unsigned	field = (key >> 9) & 0x7f;

	if ((key >> 16) != NXM_CLASS_NX || field < NX_TLV_TUN_FIELD0 ||
	    field >= NX_TLV_TUN_FIELD0 + NX_TLV_FIELDS)
		return -1;
	return (int)(field - NX_TLV_TUN_FIELD0);
}

static const struct nxm_ext_field *
nxm_ext_find(uint32_t key, uint32_t exp)
{
	size_t	i;
	int	tun = nxm_tun_idx(key);

	if (tun >= 0 && exp == 0)
		return &nxm_tun_fields[tun];
	for (i = 0; i < NXM_N_EXT; i++)
		if (nxm_ext_fields[i].key == key &&
		    nxm_ext_fields[i].exp == exp)
			return &nxm_ext_fields[i];
	return NULL;
}

/* ---- extension fields in a canonical match ---- */

/*
 * Whether e may take one more field f: not there yet (DUP_FIELD), each
 * value bit inside its mask (1.3.5 section 7.2.3.5; w bytes of value,
 * then of mask when hm), room left in e.
 */
static int
nxm_ext_room(const struct nxm_ext *e, const struct nxm_ext_field *f, int hm,
    const uint8_t *val, size_t w, enum of_err *err)
{
	size_t	i;

	for (i = 0; i < e->n; i++)
		if (e->f[i].f == f)
			return nxm_fail(err, OF_ERR_BAD_MATCH_DUP_FIELD);
	for (i = 0; hm && i < w; i++)
		if (val[i] & ~val[w + i])
			return nxm_fail(err, OF_ERR_BAD_MATCH_WILDCARDS);
	if (e->n == NXM_EXT_MAX)
		return nxm_fail(err, OF_ERR_BAD_MATCH_LEN);
	return 0;
}

/* f into e: len bytes of value at val, as many of mask after them when
 * hm (nxm_ext_room said yes). */
static void
nxm_ext_add(struct nxm_ext *e, const struct nxm_ext_field *f, size_t len,
    const uint8_t *val, int hm)
{
	e->f[e->n].f = f;
	e->f[e->n].len = (uint8_t)len;
	e->f[e->n].val = val;
	e->f[e->n].mask = hm ? val + len : NULL;
	e->n++;
}

/*
 * NXM_NX_TUN_METADATA<i>: refused unmapped (NXFMFC_INVALID_TLV_FIELD),
 * else its value and mask right-aligned into the mapped length, the
 * first bytes of a longer one kept, as Open vSwitch's nx_pull_entry__()
 * and copy_entry_value() do, so that it reads back at that length.
 */
static int
nxm_tun_take(struct nxm_ext *e, const struct nxm_ext_field *f, int hm,
    const uint8_t *val, size_t plen, enum of_err *err)
{
	int	mlen = of_nx_tlv_len((unsigned)(f - nxm_tun_fields));
	size_t	w = hm ? plen / 2 : plen, n;
	uint8_t	*v;

	if (mlen < 0)
		return nxm_fail(err, OF_ERR_NX_INVALID_TLV_FIELD);
	/* w 0: ovs-ofctl's tun_metadata0=0 (leading zeros left out). */
	if (mlen == 0 || (hm && plen % 2 != 0))
		return nxm_fail(err, OF_ERR_BAD_MATCH_LEN);
	if (nxm_ext_room(e, f, hm, val, w, err) == -1)
		return -1;
	if (sizeof(e->tun) - e->tun_used < 2u * mlen)
		return nxm_fail(err, OF_ERR_BAD_MATCH_LEN);
	n = w < (size_t)mlen ? w : (size_t)mlen;
	v = e->tun + e->tun_used;
	memset(v, 0, 2u * mlen);
	memcpy(v + mlen - n, val, n);
	if (hm)
		memcpy(v + 2 * mlen - n, val + w, n);
	e->tun_used += 2u * mlen;
	nxm_ext_add(e, f, (size_t)mlen, v, hm);
	return 0;
}

int
of_nxm_ext_take(struct nxm_ext *e, uint32_t hdr, const uint8_t *val,
    enum of_err *err)
{
	const struct nxm_ext_field	*f;
	int				 hm = OXM_HDR_HASMASK(hdr);
	size_t				 plen;
	uint32_t			 exp;

	if (of_oxm_exp_split(hdr, &val, &plen, &exp) == -1)
		return nxm_fail(err, OF_ERR_BAD_MATCH_LEN);
	if ((f = nxm_ext_find(NXM_KEY_OF(hdr), exp)) == NULL)
		return nxm_fail(err, OF_ERR_BAD_MATCH_FIELD);
	if (f->len == 0)
		return nxm_tun_take(e, f, hm, val, plen, err);
	if (hm && !f->maskable)
		return nxm_fail(err, OF_ERR_BAD_MATCH_MASK);
	if (plen != (size_t)(hm ? 2 * f->len : f->len))
		return nxm_fail(err, OF_ERR_BAD_MATCH_LEN);
	if (nxm_ext_room(e, f, hm, val, f->len, err) == -1)
		return -1;
	nxm_ext_add(e, f, f->len, val, hm);
	return 0;
}

/* One canonical TLV: a zero mask drops it, an all-ones one goes. */
static size_t
nxm_ext_canon(const struct nxm_ext_field *f, size_t len, const uint8_t *val,
    const uint8_t *mask, uint8_t *out)
{
	size_t	i, x = f->exp != 0 ? 4 : 0;
	int	any = 0, all = 1;

	for (i = 0; mask != NULL && i < len; i++) {
		any |= mask[i] != 0;
		all &= mask[i] == 0xff;
	}
	if (mask != NULL && !all && !any)
		return 0;
	if (mask != NULL && all)
		mask = NULL;
	put_be32(out, f->key | (mask != NULL ? 1u << 8 : 0) |
	    (uint32_t)(x + (mask != NULL ? 2 * len : len)));
	if (x != 0)
		put_be32(out + OXM_HDR_LEN, f->exp);
	memcpy(out + OXM_HDR_LEN + x, val, len);
	if (mask != NULL)
		memcpy(out + OXM_HDR_LEN + x + len, mask, len);
	return OXM_HDR_LEN + x + (mask != NULL ? 2 * len : len);
}

/* Canonical order: by header, then experimenter id. */
static int
nxm_ext_before(const struct nxm_ext_field *a, const struct nxm_ext_field *b)
{
	return a->key < b->key || (a->key == b->key && a->exp < b->exp);
}

int
of_nxm_ext_build(struct of_match *m, const struct nxm_ext *e)
{
	const struct nxm_ext_field	*last = NULL, *best;
	uint8_t				 tlv[NXM_TLV_MAX];
	size_t				 i, k, n, done;

	/* Ascending order: at most NXM_EXT_MAX fields, a selection sort. */
	for (done = 0; done < e->n; done++) {
		best = NULL;
		k = 0;
		for (i = 0; i < e->n; i++)
			if ((last == NULL || nxm_ext_before(last, e->f[i].f)) &&
			    (best == NULL || nxm_ext_before(e->f[i].f, best))) {
				best = e->f[i].f;
				k = i;
			}
		last = best;
		n = nxm_ext_canon(e->f[k].f, e->f[k].len, e->f[k].val,
		    e->f[k].mask, tlv);
		if (n > sizeof(m->oxm) - m->len)
			return -1;
		memcpy(m->oxm + m->len, tlv, n);
		m->len += n;
	}
	return 0;
}

size_t
of_nxm_ext_off(const uint8_t *oxm, size_t len)
{
	size_t	off = 0;

	while (len - off >= OXM_HDR_LEN &&
	    (oxm[off] << 8 | oxm[off + 1]) == OXM_CLASS_BASIC)
		off += OXM_HDR_LEN + oxm[off + 3];
	return off < len ? off : len;
}

/* Two TLVs in canonical order: header, then experimenter id. */
static int
nxm_cmp(const struct of_oxm_tlv *a, const struct of_oxm_tlv *b)
{
	uint32_t	ak = NXM_KEY_OF(a->hdr), bk = NXM_KEY_OF(b->hdr);

	if (ak != bk)
		return ak < bk ? -1 : 1;
	return a->exp == b->exp ? 0 : a->exp < b->exp ? -1 : 1;
}

/* Walk two canonical extension runs side by side: fn gets each TLV of a
 * and b's TLV of the same field (NULL: b has none); its 0 stops with 0. */
static int
nxm_pairs(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen,
    int (*fn)(const struct of_oxm_tlv *, const struct of_oxm_tlv *))
{
	const uint8_t		*ap = a, *bp = b;
	struct of_oxm_tlv	 ta, tb;
	int			 more;

	more = of_oxm_tlv_next(&bp, b + blen, &tb);
	while (of_oxm_tlv_next(&ap, a + alen, &ta)) {
		while (more && nxm_cmp(&tb, &ta) < 0)
			more = of_oxm_tlv_next(&bp, b + blen, &tb);
		if (!fn(&ta, more && nxm_cmp(&tb, &ta) == 0 ? &tb : NULL))
			return 0;
	}
	return 1;
}

/* A field general pins must be pinned by specific too. */
static int
nxm_pair_covers(const struct of_oxm_tlv *g, const struct of_oxm_tlv *s)
{
	return s != NULL &&
	    of_oxm_val_covers(g->val, g->mask, s->val, s->mask, g->len);
}

/* Only a field both match on can keep a packet out of one of them. */
static int
nxm_pair_overlaps(const struct of_oxm_tlv *a, const struct of_oxm_tlv *b)
{
	return b == NULL ||
	    of_oxm_val_overlaps(a->val, a->mask, b->val, b->mask, a->len);
}

int
of_nxm_ext_covers(const uint8_t *g, size_t glen, const uint8_t *s,
    size_t slen)
{
	return nxm_pairs(g, glen, s, slen, nxm_pair_covers);
}

int
of_nxm_ext_overlaps(const uint8_t *a, size_t alen, const uint8_t *b,
    size_t blen)
{
	return nxm_pairs(a, alen, b, blen, nxm_pair_overlaps);
}

static size_t __attribute__((format(printf, 4, 5)))
fmt_add(char *buf, size_t size, size_t n, const char *fmt, ...)
{
	va_list	ap;
	int	k;

	va_start(ap, fmt);
	k = vsnprintf(n < size ? buf + n : NULL, n < size ? size - n : 0,
	    fmt, ap);
	va_end(ap);
	return k > 0 ? n + (size_t)k : n;
}

static size_t
fmt_hex(char *buf, size_t size, size_t n, const uint8_t *v, size_t len)
{
	size_t	i;

	n = fmt_add(buf, size, n, "0x");
	for (i = 0; i < len; i++)
		n = fmt_add(buf, size, n, "%02x", v[i]);
	return n;
}

int
of_nxm_ext_format(const uint8_t *oxm, size_t len, char *buf, size_t size)
{
	const uint8_t			*p = oxm, *end = oxm + len;
	const struct nxm_ext_field	*f;
	struct of_oxm_tlv		 t;
	size_t				 n = 0;

	while (of_oxm_tlv_next(&p, end, &t)) {
		f = nxm_ext_find(NXM_KEY_OF(t.hdr), t.exp);
		n = fmt_add(buf, size, n, ",%s=", f != NULL ? f->name : "?");
		n = fmt_hex(buf, size, n, t.val, t.len);
		if (t.mask == NULL)
			continue;
		n = fmt_add(buf, size, n, "/");
		n = fmt_hex(buf, size, n, t.mask, t.len);
	}
	return (int)n;
}

/* ---- nx_match on the wire ---- */

/* The twin whose NXM key (by_basic 0) or OXM basic field (1) is v, the
 * first in the table's order. */
static const struct nxm_twin *
nxm_twin_find(uint32_t v, int by_basic)
{
	size_t	i;

	for (i = 0; i < NXM_N_TWINS; i++)
		if ((by_basic ? nxm_twins[i].basic : nxm_twins[i].key) == v)
			return &nxm_twins[i];
	return NULL;
}

/* A TLV into w: header, value, mask (mask NULL: exact). */
static void
put_tlv(struct wbuf *w, uint32_t key, const uint8_t *val, const uint8_t *mask,
    size_t len)
{
	wbuf_put_u32(w, key | (mask != NULL ? 1u << 8 : 0) |
	    (uint32_t)(mask != NULL ? 2 * len : len));
	wbuf_put_bytes(w, val, len);
	if (mask != NULL)
		wbuf_put_bytes(w, mask, len);
}

static void
put_u16_tlv(struct wbuf *w, uint32_t key, uint16_t v, const uint16_t *mask)
{
	uint8_t	b[2] = { v >> 8, v & 0xff }, mb[2];

	if (mask != NULL) {
		mb[0] = *mask >> 8;
		mb[1] = *mask & 0xff;
	}
	put_tlv(w, key, b, mask != NULL ? mb : NULL, 2);
}

/* NXM_OF_VLAN_TCI as VLAN_VID (CFI = OFPVID_PRESENT) and VLAN_PCP.  The
 * TCI 0 exact is "no 802.1Q header", VLAN_VID OFPVID_NONE. */
static int
nxm_tci_to_oxm(const uint8_t *val, const uint8_t *mask, struct wbuf *w,
    enum of_err *err)
{
	uint16_t	v = val[0] << 8 | val[1];
	uint16_t	m = mask != NULL ? (mask[0] << 8 | mask[1]) : 0xffff;
	uint16_t	vm = m & VLAN_TCI_VID, pm = m >> VLAN_PCP_SHIFT;
	uint8_t		pcp;

	if (v == 0 && m == 0xffff) {
		put_u16_tlv(w, OXM_HEADER(OXM_VLAN_VID, 0, 0) & ~0xffu,
		    OFPVID_NONE, NULL);
		return 0;
	}
	if (pm != 0 && pm != 0x7)
		return nxm_fail(err, OF_ERR_BAD_MATCH_MASK);
	if (vm != 0)
		put_u16_tlv(w, OXM_HEADER(OXM_VLAN_VID, 0, 0) & ~0xffu,
		    v & vm, vm == VLAN_TCI_VID ? NULL : &vm);
	if (pm != 0) {
		pcp = v >> VLAN_PCP_SHIFT;
		put_tlv(w, OXM_HEADER(OXM_VLAN_PCP, 0, 0) & ~0xffu, &pcp,
		    NULL, 1);
	}
	return 0;
}

static int
nxm_twin_to_oxm(const struct nxm_twin *t, const uint8_t *val,
    const uint8_t *mask, struct wbuf *w, enum of_err *err)
{
	uint32_t	key = OXM_HEADER(t->basic, 0, 0) & ~0xffu;
	uint32_t	port;
	uint8_t		b[4];

	switch (t->conv) {
	case NXM_PORT16:
		port = of_port_widen10((uint16_t)(val[0] << 8 | val[1]));
		put_be32(b, port);
		put_tlv(w, key, b, NULL, 4);
		return 0;
	case NXM_TOS:
		if (val[0] & ((1 << OF10_TOS_DSCP_SHIFT) - 1))
			return nxm_fail(err, OF_ERR_BAD_MATCH_VALUE);
		b[0] = val[0] >> OF10_TOS_DSCP_SHIFT;
		put_tlv(w, key, b, NULL, 1);
		return 0;
	case NXM_TCI:
		return nxm_tci_to_oxm(val, mask, w, err);
	}
	put_tlv(w, key, val, mask, t->len);
	return 0;
}

/* NXM_NX_COOKIE(_W): the flow cookie a request selects on. */
static int
nxm_cookie(uint32_t hdr, const uint8_t *val, struct nxm_cookie *ck,
    enum of_err *err)
{
	size_t	i;

	if (OXM_HDR_LENGTH(hdr) != (OXM_HDR_HASMASK(hdr) ? 16 : 8))
		return nxm_fail(err, OF_ERR_BAD_MATCH_LEN);
	if (ck->mask != 0)
		return nxm_fail(err, OF_ERR_BAD_MATCH_DUP_FIELD);
	ck->value = ck->mask = 0;
	for (i = 0; i < 8; i++) {
		ck->value = ck->value << 8 | val[i];
		ck->mask = ck->mask << 8 |
		    (OXM_HDR_HASMASK(hdr) ? val[8 + i] : 0xff);
	}
	if (ck->value & ~ck->mask)
		return nxm_fail(err, OF_ERR_BAD_MATCH_WILDCARDS);
	if (ck->mask == 0)
		ck->value = 0;
	return 0;
}

/* One NXM TLV from r into w in OXM form (twins as basic fields). */
static int
nxm_tlv_to_oxm(struct rbuf *r, struct wbuf *w, struct nxm_cookie *ck,
    enum of_err *err)
{
	const struct nxm_twin	*t;
	const uint8_t		*val;
	uint32_t		 hdr;
	uint16_t		 cls;
	int			 hm;

	if (rbuf_get_u32(r, &hdr) == -1)
		return nxm_fail(err, OF_ERR_BAD_MATCH_LEN);
	val = rbuf_ptr(r);
	if (rbuf_skip(r, OXM_HDR_LENGTH(hdr)) == -1)
		return nxm_fail(err, OF_ERR_BAD_MATCH_LEN);
	hm = OXM_HDR_HASMASK(hdr);
	if (NXM_KEY_OF(hdr) == NXM_KEY(NXM_CLASS_NX, NXM_NX_COOKIE))
		return nxm_cookie(hdr, val, ck, err);
	if ((t = nxm_twin_find(NXM_KEY_OF(hdr), 0)) != NULL) {
		if (hm && !t->maskable)
			return nxm_fail(err, OF_ERR_BAD_MATCH_MASK);
		if (OXM_HDR_LENGTH(hdr) != (hm ? 2 * t->len : t->len))
			return nxm_fail(err, OF_ERR_BAD_MATCH_LEN);
		return nxm_twin_to_oxm(t, val, hm ? val + t->len : NULL, w,
		    err);
	}
	cls = OXM_HDR_CLASS(hdr);
	if (cls != NXM_CLASS_NX && cls != OXM_CLASS_PKT_REGS &&
	    cls != OXM_CLASS_BASIC)
		return nxm_fail(err, OF_ERR_BAD_MATCH_FIELD);
	/* Checked where every OXM TLV is (of_match.c, of_nxm_ext_take). */
	wbuf_put_u32(w, hdr);
	wbuf_put_bytes(w, val, OXM_HDR_LENGTH(hdr));
	return 0;
}

int
of_nxm_decode(struct rbuf *r, size_t len, struct of_match *m,
    uint64_t *cookie, uint64_t *cookie_mask, enum of_err *err)
{
	uint8_t			buf[2 * OF_MATCH_MAX];
	struct nxm_cookie	ck = { 0, 0 };
	struct rbuf		nx, oxm;
	struct wbuf		w;

	of_match_init(m);
	if (rbuf_sub(r, &nx, len) == -1)
		return nxm_fail(err, OF_ERR_BAD_MATCH_LEN);
	wbuf_init(&w, buf, sizeof(buf));
	while (rbuf_left(&nx) > 0) {
		if (nxm_tlv_to_oxm(&nx, &w, &ck, err) == -1)
			return -1;
		if (w.err)
			return nxm_fail(err, OF_ERR_BAD_MATCH_LEN);
	}
	*cookie = ck.value;
	*cookie_mask = ck.mask;
	rbuf_init(&oxm, buf, w.len);
	return of_match_decode_oxm(&oxm, m, err);
}

/* VLAN_VID (and VLAN_PCP) of a canonical match as one NXM_OF_VLAN_TCI. */
static void
nxm_put_tci(struct wbuf *w, const uint8_t *vid, const uint8_t *vmask,
    const uint8_t *pcp)
{
	uint16_t	v = vid[0] << 8 | vid[1];
	uint16_t	m = vmask != NULL ? (vmask[0] << 8 | vmask[1]) :
			    VLAN_TCI_VID;
	uint32_t	key = NXM_KEY(NXM_CLASS_OF, 4);

	if (v == OFPVID_NONE && vmask == NULL && pcp == NULL) {
		put_u16_tlv(w, key, 0, NULL);
		return;
	}
	if (pcp != NULL) {
		v |= (uint16_t)(pcp[0] << VLAN_PCP_SHIFT);
		m |= 0x7 << VLAN_PCP_SHIFT;
	}
	put_u16_tlv(w, key, v, m == 0xffff ? NULL : &m);
}

/* A basic TLV of a canonical match as Open vSwitch writes it in NXM. */
static void
nxm_put_basic(struct wbuf *w, const struct of_oxm_tlv *t, uint8_t field,
    const struct of_oxm_tlv *pcp)
{
	const struct nxm_twin	*tw = nxm_twin_find(field, 1);
	uint32_t		 p;
	uint8_t			 b[2];

	if (tw == NULL) {	/* no NXM header: the OXM one, as OVS does */
		put_tlv(w, NXM_KEY_OF(t->hdr), t->val, t->mask, t->len);
		return;
	}
	switch (tw->conv) {
	case NXM_PORT16:
		/* A port 16 bits cannot name keeps its OXM form. */
		p = get_be32(t->val);
		if (of_port_widen10(of_port_narrow10(p)) != p)
			break;
		put_u16_tlv(w, tw->key, of_port_narrow10(p), NULL);
		return;
	case NXM_TOS:
		b[0] = t->val[0] << OF10_TOS_DSCP_SHIFT;
		put_tlv(w, tw->key, b, NULL, 1);
		return;
	case NXM_TCI:
		nxm_put_tci(w, t->val, t->mask, pcp != NULL ? pcp->val : NULL);
		return;
	}
	if (tw->conv == NXM_PORT16) {
		put_tlv(w, NXM_KEY_OF(t->hdr), t->val, t->mask, t->len);
		return;
	}
	put_tlv(w, tw->key, t->val, t->mask, t->len);
}

int
of_nxm_encode(struct wbuf *w, const struct of_match *m)
{
	const uint8_t		*p = m->oxm, *end = m->oxm + m->len, *q;
	size_t			 start = w->len;
	size_t			 ext = of_nxm_ext_off(m->oxm, m->len);
	struct of_oxm_tlv	 t, pcp, *pp;
	uint8_t			 field;

	while (p < m->oxm + ext && of_oxm_tlv_next(&p, end, &t)) {
		field = OXM_HDR_FIELD(t.hdr);
		if (field == OXM_VLAN_PCP)
			continue;	/* with VLAN_VID, in the TCI */
		pp = NULL;
		q = p;
		if (field == OXM_VLAN_VID && of_oxm_tlv_next(&q, end, &pcp) &&
		    NXM_KEY_OF(pcp.hdr) ==
		    (OXM_HEADER(OXM_VLAN_PCP, 0, 0) & ~0xffu))
			pp = &pcp;
		nxm_put_basic(w, &t, field, pp);
	}
	wbuf_put_bytes(w, m->oxm + ext, m->len - ext);
	return w->err ? -1 : (int)(w->len - start);
}

int
of_nxm_is_tun(uint32_t hdr)
{
	return nxm_tun_idx(NXM_KEY_OF(hdr)) >= 0;
}

unsigned
of_nxm_field_bits(uint32_t hdr)
{
	const struct nxm_ext_field	*e;
	const struct nxm_twin		*t;
	const struct oxm_field		*f;
	uint32_t			 key = NXM_KEY_OF(hdr);

	if (OXM_HDR_HASMASK(hdr))
		return 0;
	if (nxm_tun_idx(key) >= 0)	/* mapped: its length; any header's */
		return of_nx_tlv_len((unsigned)nxm_tun_idx(key)) > 0 ?
		    (unsigned)of_nx_tlv_len((unsigned)nxm_tun_idx(key)) * 8 : 0;
	if ((e = nxm_ext_find(key, 0)) != NULL)
		return OXM_HDR_LENGTH(hdr) == e->len ? e->len * 8u : 0;
	if ((t = nxm_twin_find(key, 0)) != NULL)
		return OXM_HDR_LENGTH(hdr) == t->len ? t->len * 8u : 0;
	if (OXM_HDR_CLASS(hdr) == OXM_CLASS_BASIC &&
	    (f = oxm_field_get(OXM_HDR_FIELD(hdr))) != NULL)
		return OXM_HDR_LENGTH(hdr) == f->len ? f->len * 8u : 0;
	return 0;
}
