/*
 * Canonical flow matches: OpenFlow 1.3 OXM (1.3.5 section 7.2.3) and the
 * 1.0 ofp_match (1.0.0 section 5.2.3).  Expected bytes are written out by
 * hand from the spec's layouts.
 */
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "check.h"
#include "of_match.h"

static int
dec13(const uint8_t *b, size_t len, struct of_match *m, enum of_err *err)
{
	struct rbuf	r;

	*err = OF_ERR_NONE;
	rbuf_init(&r, b, len);
	if (of_match_decode13(&r, m, err) == -1)
		return -1;
	/* The whole ofp_match, padding included, is consumed. */
	return rbuf_left(&r) == 0 ? 0 : -2;
}

static enum of_err
dec13_err(const uint8_t *b, size_t len)
{
	struct of_match	m;
	enum of_err	err;

	if (dec13(b, len, &m, &err) == 0)
		return OF_ERR_NONE;
	return err;
}

static size_t
enc13(const struct of_match *m, uint8_t *out, size_t cap)
{
	struct wbuf	w;

	wbuf_init(&w, out, cap);
	if (of_match_encode13(&w, m) == -1)
		return 0;
	return w.len;
}

static const char *
fmt(const struct of_match *m)
{
	static char	buf[512];

	of_match_format(m, buf, sizeof(buf));
	return buf;
}

/* Decode, check canonical text, re-encode byte for byte. */
static void
roundtrip13(const uint8_t *b, size_t len, const char *text)
{
	struct of_match	m;
	enum of_err	err;
	uint8_t		out[600];
	size_t		n;

	CHECK(dec13(b, len, &m, &err) == 0, "decode13 %s (err %d)", text, err);
	CHECK(strcmp(fmt(&m), text) == 0, "format '%s' want '%s'", fmt(&m),
	    text);
	n = enc13(&m, out, sizeof(out));
	CHECK_BYTES(out, n, b, len, "encode13 %s", text);
}

static void
test_vectors13(void)
{
	/* in_port=1: type OXM, length 12, one TLV, 4 bytes of padding. */
	static const uint8_t in_port[] = {
		0x00, 0x01, 0x00, 0x0c,
		0x80, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01,
		0x00, 0x00, 0x00, 0x00,
	};
	/* eth_type=0x0800, ipv4_src=10.0.0.0/8: length 22, pad 2. */
	static const uint8_t ip_pfx[] = {
		0x00, 0x01, 0x00, 0x16,
		0x80, 0x00, 0x0a, 0x02, 0x08, 0x00,
		0x80, 0x00, 0x17, 0x08, 0x0a, 0x00, 0x00, 0x00,
		0xff, 0x00, 0x00, 0x00,
		0x00, 0x00,
	};
	/* eth_dst=01:00:5e:00:00:00/ff:ff:ff:80:00:00: length 20, pad 4. */
	static const uint8_t eth_mask[] = {
		0x00, 0x01, 0x00, 0x14,
		0x80, 0x00, 0x07, 0x0c, 0x01, 0x00, 0x5e, 0x00, 0x00, 0x00,
		0xff, 0xff, 0xff, 0x80, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00,
	};
	/* vlan_vid=0x1005 (PRESENT|5), vlan_pcp=3: length 15, pad 1. */
	static const uint8_t vlan[] = {
		0x00, 0x01, 0x00, 0x0f,
		0x80, 0x00, 0x0c, 0x02, 0x10, 0x05,
		0x80, 0x00, 0x0e, 0x01, 0x03,
		0x00,
	};
	/* Any tagged frame: vlan_vid=0x1000/0x1000, length 12, pad 4. */
	static const uint8_t vlan_any[] = {
		0x00, 0x01, 0x00, 0x0c,
		0x80, 0x00, 0x0d, 0x04, 0x10, 0x00, 0x10, 0x00,
		0x00, 0x00, 0x00, 0x00,
	};
	/* The empty match: length 4, pad 4. */
	static const uint8_t empty[] = {
		0x00, 0x01, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00,
	};
	/* ipv6, tcp_dst=443: eth_type, ip_proto, tcp_dst; length 21. */
	static const uint8_t tcp6[] = {
		0x00, 0x01, 0x00, 0x15,
		0x80, 0x00, 0x0a, 0x02, 0x86, 0xdd,
		0x80, 0x00, 0x14, 0x01, 0x06,
		0x80, 0x00, 0x1c, 0x02, 0x01, 0xbb,
		0x00, 0x00, 0x00,
	};

	roundtrip13(in_port, sizeof(in_port), "in_port=1");
	roundtrip13(ip_pfx, sizeof(ip_pfx), "dl_type=0x0800,nw_src=10.0.0.0/8");
	roundtrip13(eth_mask, sizeof(eth_mask),
	    "dl_dst=01:00:5e:00:00:00/ff:ff:ff:80:00:00");
	roundtrip13(vlan, sizeof(vlan), "dl_vlan=5,dl_vlan_pcp=3");
	roundtrip13(vlan_any, sizeof(vlan_any), "vlan_vid=0x1000/0x1000");
	roundtrip13(empty, sizeof(empty), "");
	roundtrip13(tcp6, sizeof(tcp6),
	    "dl_type=0x86dd,nw_proto=6,tcp_dst=443");
}

/* Out of order, all-ones and all-zeros masks: one canonical form. */
static void
test_canonical(void)
{
	static const uint8_t unordered[] = {
		0x00, 0x01, 0x00, 0x22,
		/* ipv4_dst=10.0.0.1/255.255.255.255: becomes exact */
		0x80, 0x00, 0x19, 0x08, 0x0a, 0x00, 0x00, 0x01,
		0xff, 0xff, 0xff, 0xff,
		/* ipv4_src=0.0.0.0/0.0.0.0: dropped */
		0x80, 0x00, 0x17, 0x08, 0, 0, 0, 0, 0, 0, 0, 0,
		/* eth_type=0x0800 last */
		0x80, 0x00, 0x0a, 0x02, 0x08, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	static const uint8_t want[] = {
		0x00, 0x01, 0x00, 0x12,
		0x80, 0x00, 0x0a, 0x02, 0x08, 0x00,
		0x80, 0x00, 0x18, 0x04, 0x0a, 0x00, 0x00, 0x01,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	struct of_match	m, b;
	enum of_err	err;
	uint8_t		out[64];
	size_t		n;

	CHECK(dec13(unordered, sizeof(unordered), &m, &err) == 0,
	    "unordered decodes");
	n = enc13(&m, out, sizeof(out));
	CHECK_BYTES(out, n, want, sizeof(want), "canonical re-encode");
	CHECK(dec13(want, sizeof(want), &b, &err) == 0, "canonical decodes");
	CHECK(of_match_equal(&m, &b), "equal after canonicalizing");
	CHECK(of_match_hash(&m, 7) == of_match_hash(&b, 7), "same hash");
	CHECK(of_match_hash(&m, 7) != of_match_hash(&m, 8), "seed matters");
}

static void
test_set(void)
{
	struct of_match	m, d;
	enum of_err	err;
	uint8_t		et[2] = { 0x08, 0x00 }, ip[4] = { 10, 1, 2, 3 };
	uint8_t		full[4] = { 255, 255, 255, 255 }, m16[4] = { 255, 255 };
	uint8_t		zero[4] = { 0 }, port[4] = { 0, 0, 0, 9 };
	uint8_t		out[64];
	size_t		n;

	of_match_init(&m);
	CHECK(of_match_set(&m, 11, ip, m16, 4) == 0, "set ipv4_src/16 first");
	CHECK(of_match_set(&m, 5, et, NULL, 2) == 0, "set eth_type");
	CHECK(of_match_set(&m, 0, port, NULL, 4) == 0, "set in_port");
	CHECK(strcmp(fmt(&m), "in_port=9,dl_type=0x0800,nw_src=10.1.0.0/16")
	    == 0, "sorted, value masked: %s", fmt(&m));
	CHECK(of_match_set(&m, 11, ip, full, 4) == 0, "replace, full mask");
	CHECK(strcmp(fmt(&m), "in_port=9,dl_type=0x0800,nw_src=10.1.2.3")
	    == 0, "full mask is exact: %s", fmt(&m));
	n = enc13(&m, out, sizeof(out));
	CHECK(dec13(out, n, &d, &err) == 0 && of_match_equal(&m, &d),
	    "set result decodes to itself");
	CHECK(of_match_set(&m, 11, ip, zero, 4) == 0, "zero mask");
	CHECK(strcmp(fmt(&m), "in_port=9,dl_type=0x0800") == 0,
	    "zero mask removes: %s", fmt(&m));
	CHECK(of_match_set(&m, 0, port, full, 4) == -1, "in_port unmaskable");
	CHECK(of_match_set(&m, 0, port, NULL, 2) == -1, "wrong length");
	CHECK(of_match_set(&m, 40, port, NULL, 4) == -1, "unknown field");
}

/* Table 11: every basic field, its length and whether it is maskable. */
static const struct {
	uint8_t	len;
	uint8_t	maskable;
} fields[40] = {
	{ 4, 0 }, { 4, 0 }, { 8, 1 }, { 6, 1 }, { 6, 1 },	/* 0-4 */
	{ 2, 0 }, { 2, 1 }, { 1, 0 }, { 1, 0 }, { 1, 0 },	/* 5-9 */
	{ 1, 0 }, { 4, 1 }, { 4, 1 }, { 2, 0 }, { 2, 0 },	/* 10-14 */
	{ 2, 0 }, { 2, 0 }, { 2, 0 }, { 2, 0 }, { 1, 0 },	/* 15-19 */
	{ 1, 0 }, { 2, 0 }, { 4, 1 }, { 4, 1 }, { 6, 1 },	/* 20-24 */
	{ 6, 1 }, { 16, 1 }, { 16, 1 }, { 4, 1 }, { 1, 0 },	/* 25-29 */
	{ 1, 0 }, { 16, 0 }, { 6, 0 }, { 6, 0 }, { 4, 0 },	/* 30-34 */
	{ 1, 0 }, { 1, 0 }, { 3, 1 }, { 8, 1 }, { 2, 1 },	/* 35-39 */
};

/* An ofp_match holding one TLV of value bytes 0 (masks 0xff..). */
static size_t
one_tlv(uint8_t *b, uint16_t class, uint8_t field, int hm, uint8_t len)
{
	size_t	length = 4 + 4 + len, i;

	memset(b, 0, 64);
	b[1] = 1;
	b[2] = length >> 8;
	b[3] = length & 0xff;
	b[4] = class >> 8;
	b[5] = class & 0xff;
	b[6] = field << 1 | (hm ? 1 : 0);
	b[7] = len;
	if (hm)
		for (i = len / 2; i < len; i++)
			b[8 + i] = 0xff;
	return (length + 7) / 8 * 8;
}

static void
test_fields(void)
{
	uint8_t		b[64];
	size_t		n;
	enum of_err	e;
	int		f;

	for (f = 0; f < 40; f++) {
		n = one_tlv(b, 0x8000, f, 0, fields[f].len);
		e = dec13_err(b, n);
		CHECK(e == OF_ERR_NONE || e == OF_ERR_BAD_MATCH_PREREQ,
		    "field %d exact len %u accepted (err %d)", f,
		    fields[f].len, e);
		n = one_tlv(b, 0x8000, f, 0, fields[f].len + 1);
		CHECK(dec13_err(b, n) == OF_ERR_BAD_MATCH_LEN,
		    "field %d len+1 is BAD_LEN", f);
		n = one_tlv(b, 0x8000, f, 1, 2 * fields[f].len);
		e = dec13_err(b, n);
		if (fields[f].maskable)
			CHECK(e == OF_ERR_NONE || e == OF_ERR_BAD_MATCH_PREREQ,
			    "field %d masked accepted (err %d)", f, e);
		else
			CHECK(e == OF_ERR_BAD_MATCH_MASK,
			    "field %d mask is BAD_MASK (err %d)", f, e);
	}
	n = one_tlv(b, 0x8000, 40, 0, 4);
	CHECK(dec13_err(b, n) == OF_ERR_BAD_MATCH_FIELD, "field 40 unknown");
	n = one_tlv(b, 0x8000, 127, 0, 4);
	CHECK(dec13_err(b, n) == OF_ERR_BAD_MATCH_FIELD, "field 127 unknown");
	n = one_tlv(b, 0xffff, 0, 0, 4);
	CHECK(dec13_err(b, n) == OF_ERR_BAD_MATCH_FIELD, "experimenter class");
	/* NXM_1 (Nicira, of_nxm.c): reg0 is 4 bytes, field 127 unknown. */
	n = one_tlv(b, 0x0001, 0, 0, 4);
	CHECK(dec13_err(b, n) == OF_ERR_NONE, "NXM_1 reg0");
	n = one_tlv(b, 0x0001, 0, 0, 2);
	CHECK(dec13_err(b, n) == OF_ERR_BAD_MATCH_LEN, "NXM_1 reg0 len 2");
	n = one_tlv(b, 0x0001, 127, 0, 4);
	CHECK(dec13_err(b, n) == OF_ERR_BAD_MATCH_FIELD, "NXM_1 field 127");
}

static void
test_errors(void)
{
	static const uint8_t standard[] = { 0, 0, 0, 4, 0, 0, 0, 0 };
	static const uint8_t short3[] = { 0, 1, 0, 3, 0, 0, 0, 0 };
	static const uint8_t over[] = { 0, 1, 0, 0x20, 0, 0, 0, 0 };
	static const uint8_t hdr_only[] = { 0, 1 };
	/* TLV says 8 bytes of value, 4 follow inside length. */
	static const uint8_t tlv_over[] = {
		0, 1, 0, 0x0c, 0x80, 0, 0x00, 0x08, 0, 0, 0, 1, 0, 0, 0, 0,
	};
	/* Three bytes of TLV header inside length. */
	static const uint8_t tlv_short[] = { 0, 1, 0, 7, 0x80, 0, 0, 0 };
	/* Padding missing. */
	static const uint8_t no_pad[] = {
		0, 1, 0, 0x0c, 0x80, 0, 0x00, 0x04, 0, 0, 0, 1,
	};
	static const uint8_t dup[] = {
		0, 1, 0, 0x14,
		0x80, 0, 0x00, 0x04, 0, 0, 0, 1,
		0x80, 0, 0x00, 0x04, 0, 0, 0, 2,
		0, 0, 0, 0,
	};
	static const uint8_t wild[] = {		/* 10.0.0.1/255.0.0.0 */
		0, 1, 0, 0x16,
		0x80, 0, 0x0a, 0x02, 0x08, 0x00,
		0x80, 0, 0x17, 0x08, 10, 0, 0, 1, 255, 0, 0, 0,
		0, 0,
	};
	static const uint8_t dscp64[] = {
		0, 1, 0, 0x0f,
		0x80, 0, 0x0a, 0x02, 0x08, 0x00,
		0x80, 0, 0x10, 0x01, 64,
		0,
	};
	static const uint8_t vid_big[] = {
		0, 1, 0, 0x0a, 0x80, 0, 0x0c, 0x02, 0x20, 0x01,
		0, 0, 0, 0, 0, 0,
	};

	CHECK(dec13_err(standard, sizeof(standard)) == OF_ERR_BAD_MATCH_TYPE,
	    "OFPMT_STANDARD is BAD_TYPE");
	CHECK(dec13_err(short3, sizeof(short3)) == OF_ERR_BAD_MATCH_LEN,
	    "length 3");
	CHECK(dec13_err(over, sizeof(over)) == OF_ERR_BAD_MATCH_LEN,
	    "length past the data");
	CHECK(dec13_err(hdr_only, sizeof(hdr_only)) == OF_ERR_BAD_MATCH_LEN,
	    "truncated header");
	CHECK(dec13_err(tlv_over, sizeof(tlv_over)) == OF_ERR_BAD_MATCH_LEN,
	    "TLV overruns the match");
	CHECK(dec13_err(tlv_short, sizeof(tlv_short)) == OF_ERR_BAD_MATCH_LEN,
	    "partial TLV header");
	CHECK(dec13_err(no_pad, sizeof(no_pad)) == OF_ERR_BAD_MATCH_LEN,
	    "padding missing");
	CHECK(dec13_err(dup, sizeof(dup)) == OF_ERR_BAD_MATCH_DUP_FIELD,
	    "duplicate in_port");
	CHECK(dec13_err(wild, sizeof(wild)) == OF_ERR_BAD_MATCH_WILDCARDS,
	    "value bit outside mask");
	CHECK(dec13_err(dscp64, sizeof(dscp64)) == OF_ERR_BAD_MATCH_VALUE,
	    "dscp 64 does not fit 6 bits");
	CHECK(dec13_err(vid_big, sizeof(vid_big)) == OF_ERR_BAD_MATCH_VALUE,
	    "vlan_vid 0x2001 does not fit 13 bits");
}

/* Build an ofp_match from TLVs given as bytes. */
static size_t
wrap(uint8_t *b, const uint8_t *tlvs, size_t n)
{
	size_t	length = 4 + n, total = (length + 7) / 8 * 8;

	memset(b, 0, total);
	b[1] = 1;
	b[2] = length >> 8;
	b[3] = length & 0xff;
	memcpy(b + 4, tlvs, n);
	return total;
}

#define ETH(hi, lo)	0x80, 0, 0x0a, 2, (hi), (lo)
#define PROTO(p)	0x80, 0, 0x14, 1, (p)
#define TCP_SRC		0x80, 0, 0x1a, 2, 0, 80
#define IPV4_SRC	0x80, 0, 0x16, 4, 10, 0, 0, 1
#define VID(hi, lo)	0x80, 0, 0x0c, 2, (hi), (lo)
#define PCP		0x80, 0, 0x0e, 1, 3
#define ICMP6T(t)	0x80, 0, 0x3a, 1, (t)
#define ND_TARGET	0x80, 0, 0x3e, 16, 0xfe, 0x80, 0, 0, 0, 0, 0, 0, \
			0, 0, 0, 0, 0, 0, 0, 1
#define PREREQ(name, want, ...) do {					\
	static const uint8_t t_[] = { __VA_ARGS__ };			\
	uint8_t b_[128];						\
	size_t n_ = wrap(b_, t_, sizeof(t_));				\
	CHECK(dec13_err(b_, n_) == (want), "prereq: %s", name);		\
} while (0)

static void
test_prereqs(void)
{
	PREREQ("ipv4_src alone", OF_ERR_BAD_MATCH_PREREQ, IPV4_SRC);
	PREREQ("ipv4_src with ipv6", OF_ERR_BAD_MATCH_PREREQ,
	    ETH(0x86, 0xdd), IPV4_SRC);
	PREREQ("ipv4_src with ipv4", OF_ERR_NONE, ETH(0x08, 0x00), IPV4_SRC);
	PREREQ("ip_proto alone", OF_ERR_BAD_MATCH_PREREQ, PROTO(6));
	PREREQ("ip_proto with arp", OF_ERR_BAD_MATCH_PREREQ,
	    ETH(0x08, 0x06), PROTO(6));
	PREREQ("tcp_src alone", OF_ERR_BAD_MATCH_PREREQ, TCP_SRC);
	PREREQ("tcp_src without ip_proto", OF_ERR_BAD_MATCH_PREREQ,
	    ETH(0x08, 0x00), TCP_SRC);
	PREREQ("tcp_src with udp", OF_ERR_BAD_MATCH_PREREQ,
	    ETH(0x08, 0x00), PROTO(17), TCP_SRC);
	PREREQ("tcp_src with tcp over ipv6", OF_ERR_NONE,
	    ETH(0x86, 0xdd), PROTO(6), TCP_SRC);
	PREREQ("vlan_pcp alone", OF_ERR_BAD_MATCH_PREREQ, PCP);
	PREREQ("vlan_pcp with VID_NONE", OF_ERR_BAD_MATCH_PREREQ,
	    VID(0x00, 0x00), PCP);
	PREREQ("vlan_pcp with vid 5", OF_ERR_NONE, VID(0x10, 0x05), PCP);
	PREREQ("vlan_pcp with any vlan", OF_ERR_NONE,
	    0x80, 0, 0x0d, 4, 0x10, 0, 0x10, 0, PCP);
	PREREQ("in_phy_port alone", OF_ERR_BAD_MATCH_PREREQ,
	    0x80, 0, 0x02, 4, 0, 0, 0, 1);
	PREREQ("in_phy_port with in_port", OF_ERR_NONE,
	    0x80, 0, 0x00, 4, 0, 0, 0, 1, 0x80, 0, 0x02, 4, 0, 0, 0, 1);
	PREREQ("nd_target with echo request", OF_ERR_BAD_MATCH_PREREQ,
	    ETH(0x86, 0xdd), PROTO(58), ICMP6T(128), ND_TARGET);
	PREREQ("nd_target with solicit", OF_ERR_NONE,
	    ETH(0x86, 0xdd), PROTO(58), ICMP6T(135), ND_TARGET);
	PREREQ("mpls_label with ipv4", OF_ERR_BAD_MATCH_PREREQ,
	    ETH(0x08, 0x00), 0x80, 0, 0x44, 4, 0, 0, 0, 16);
	PREREQ("mpls_label with mpls", OF_ERR_NONE,
	    ETH(0x88, 0x47), 0x80, 0, 0x44, 4, 0, 0, 0, 16);
	PREREQ("tunnel_id needs nothing", OF_ERR_NONE,
	    0x80, 0, 0x4c, 8, 0, 0, 0, 0, 0, 0, 0, 7);
}

/* ---- 1.0 ---- */

static int
dec10(const uint8_t *b, size_t len, struct of_match *m, enum of_err *err)
{
	struct rbuf	r;

	rbuf_init(&r, b, len);
	return of_match_decode10(&r, m, err);
}

static size_t
enc10(const struct of_match *m, uint8_t *out)
{
	struct wbuf	w;

	wbuf_init(&w, out, OF10_MATCH_LEN);
	if (of_match_encode10(&w, m) == -1)
		return 0;
	return w.len;
}

static void
roundtrip10(const uint8_t *b, const char *text)
{
	struct of_match	m;
	enum of_err	err;
	uint8_t		out[OF10_MATCH_LEN];
	size_t		n;

	CHECK(dec10(b, OF10_MATCH_LEN, &m, &err) == 0, "decode10 %s", text);
	CHECK(strcmp(fmt(&m), text) == 0, "format '%s' want '%s'", fmt(&m),
	    text);
	n = enc10(&m, out);
	CHECK_BYTES(out, n, b, OF10_MATCH_LEN, "encode10 %s", text);
}

/* Decode x, expect text, re-encode as want (the normalized form). */
static void
normalize10(const uint8_t *x, const char *text, const uint8_t *want)
{
	struct of_match	m;
	enum of_err	err;
	uint8_t		out[OF10_MATCH_LEN];
	size_t		n;

	CHECK(dec10(x, OF10_MATCH_LEN, &m, &err) == 0, "decode10 %s", text);
	CHECK(strcmp(fmt(&m), text) == 0, "normalized '%s' want '%s'",
	    fmt(&m), text);
	n = enc10(&m, out);
	CHECK_BYTES(out, n, want, OF10_MATCH_LEN, "normalized bytes %s", text);
}

static void
test_vectors10(void)
{
	/* OFPFW_ALL, everything else zero. */
	static const uint8_t all[40] = { 0x00, 0x3f, 0xff, 0xff };
	/* in_port=1, dl_type=0x0800, nw_src=10.0.0.0/8 (24 wildcard bits). */
	static const uint8_t ip_pfx[40] = {
		0x00, 0x3f, 0xd8, 0xee,		/* wildcards */
		0x00, 0x01,			/* in_port */
		0, 0, 0, 0, 0, 0,		/* dl_src */
		0, 0, 0, 0, 0, 0,		/* dl_dst */
		0x00, 0x00, 0x00, 0x00,		/* dl_vlan, pcp, pad */
		0x08, 0x00,			/* dl_type */
		0x00, 0x00, 0x00, 0x00,		/* tos, proto, pad */
		10, 0, 0, 0,			/* nw_src */
		0, 0, 0, 0,			/* nw_dst */
		0, 0, 0, 0,			/* tp_src, tp_dst */
	};
	/* Everything exact but nw_dst/24: TCP 80 -> 443 on vlan 5. */
	static const uint8_t tcp[40] = {
		0x00, 0x02, 0x00, 0x00,
		0x00, 0x03,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
		0x00, 0x05, 0x03, 0x00,
		0x08, 0x00,
		0x28, 0x06, 0x00, 0x00,
		192, 168, 1, 1,
		192, 168, 2, 0,
		0x00, 0x50, 0x01, 0xbb,
	};
	/* ARP opcode 1 from 10.0.0.1: nw_proto and nw_src mean ARP. */
	static const uint8_t arp[40] = {
		0x00, 0x3f, 0xc0, 0xcf,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0,
		0x08, 0x06,
		0x00, 0x01, 0, 0,
		10, 0, 0, 1,
		0, 0, 0, 0, 0, 0, 0, 0,
	};
	/* dl_vlan wildcarded, pcp 5: any tagged frame with PCP 5. */
	static const uint8_t pcp[40] = {
		0x00, 0x2f, 0xff, 0xff,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x00, 0x00, 0x05, 0x00,
	};
	/* in_port=LOCAL (0xfffe), dl_vlan=NONE (0xffff), ICMP echo. */
	static const uint8_t icmp[40] = {
		0x00, 0x3f, 0xff, 0x0c,
		0xff, 0xfe,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0xff, 0xff, 0x00, 0x00,
		0x08, 0x00,
		0x00, 0x01, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
		0x00, 0x08, 0x00, 0x00,
	};

	roundtrip10(all, "");
	roundtrip10(ip_pfx, "in_port=1,dl_type=0x0800,nw_src=10.0.0.0/8");
	roundtrip10(tcp, "in_port=3,dl_dst=00:00:00:00:00:02,"
	    "dl_src=00:00:00:00:00:01,dl_type=0x0800,dl_vlan=5,dl_vlan_pcp=3,"
	    "ip_dscp=10,nw_proto=6,nw_src=192.168.1.1,nw_dst=192.168.2.0/24,"
	    "tcp_src=80,tcp_dst=443");
	roundtrip10(arp, "dl_type=0x0806,arp_op=1,arp_spa=10.0.0.1");
	roundtrip10(pcp, "vlan_vid=0x1000/0x1000,dl_vlan_pcp=5");
	roundtrip10(icmp, "in_port=4294967294,dl_type=0x0800,vlan_tci=0x0000,"
	    "nw_proto=1,icmp_type=8,icmp_code=0");
}

static void
test_normalize10(void)
{
	/* nw_src set, dl_type wildcarded: ignored. */
	static const uint8_t no_type[40] = {
		0x00, 0x3f, 0xc0, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 1,
	};
	/* tp_src with nw_proto wildcarded: dropped (see of_match.c). */
	static const uint8_t no_proto[40] = {
		0x00, 0x3f, 0xff, 0xaf, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0x08, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0x00, 0x50, 0, 0,
	};
	static const uint8_t ip_only[40] = {
		0x00, 0x3f, 0xff, 0xef, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0x08, 0x00,
	};
	/* dl_vlan NONE with a pcp: the pcp is ignored. */
	static const uint8_t none_pcp[40] = {
		0x00, 0x2f, 0xff, 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0xff, 0xff, 0x05,
	};
	static const uint8_t none[40] = {
		0x00, 0x3f, 0xff, 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0xff, 0xff,
	};
	/* nw_src with exactly 32 wildcard bits: all, written back as 63. */
	static const uint8_t src32[40] = {
		0x00, 0x3f, 0xe0, 0xef, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0x08, 0x00,
	};
	static const uint8_t all[40] = { 0x00, 0x3f, 0xff, 0xff };

	normalize10(no_type, "", all);
	normalize10(no_proto, "dl_type=0x0800", ip_only);
	normalize10(none_pcp, "vlan_tci=0x0000", none);
	normalize10(src32, "dl_type=0x0800", ip_only);
}

static void
test_errors10(void)
{
	static const uint8_t all[40] = { 0x00, 0x3f, 0xff, 0xff };
	struct of_match	m;
	enum of_err	err = OF_ERR_NONE;
	uint8_t		out[OF10_MATCH_LEN], md[8] = { 0, 0, 0, 0, 0, 0, 0, 1 };
	uint8_t		mac[6] = { 1 }, mmask[6] = { 0xff };
	struct wbuf	w;

	CHECK(dec10(all, 39, &m, &err) == -1 && err == OF_ERR_BAD_LEN,
	    "39-byte 1.0 match is BAD_LEN");
	of_match_init(&m);
	of_match_set(&m, 2, md, NULL, 8);
	wbuf_init(&w, out, sizeof(out));
	CHECK(of_match_encode10(&w, &m) == -1 && w.err,
	    "metadata has no 1.0 form");
	of_match_init(&m);
	of_match_set(&m, 3, mac, mmask, 6);
	wbuf_init(&w, out, sizeof(out));
	CHECK(of_match_encode10(&w, &m) == -1, "masked dl_dst has no 1.0 form");
}

/* ---- covers / overlaps ---- */

static void
mk(struct of_match *m, int eth, const uint8_t *src, int plen)
{
	uint8_t	et[2] = { eth >> 8, eth & 0xff }, mask[4] = { 0 };
	int	i;

	of_match_init(m);
	if (eth)
		of_match_set(m, 5, et, NULL, 2);
	if (src == NULL)
		return;
	for (i = 0; i < plen; i++)
		mask[i / 8] |= 0x80 >> (i % 8);
	of_match_set(m, 11, src, plen == 32 ? NULL : mask, 4);
}

static void
test_covers(void)
{
	static const uint8_t n10[4] = { 10 }, n10_1[4] = { 10, 1 };
	static const uint8_t n11[4] = { 11 }, h[4] = { 10, 1, 2, 3 };
	struct of_match	 m[8];
	uint8_t		 port[4] = { 0, 0, 0, 1 };
	/* A all, B ip, C 10/8, D 10.1/16, E 11/8, F arp, G in_port, H host */
	static const char *names = "ABCDEFGH";
	static const char *covers[8] = {
		"ABCDEFGH", "BCDEH", "CDH", "DH", "E", "F", "G", "H",
	};
	static const char *overlaps[8] = {
		"ABCDEFGH", "ABCDEGH", "ABCDGH", "ABCDGH", "ABEG",
		"AFG", "ABCDEFGH", "ABCDGH",
	};
	int	i, j, want;

	mk(&m[0], 0, NULL, 0);
	mk(&m[1], 0x0800, NULL, 0);
	mk(&m[2], 0x0800, n10, 8);
	mk(&m[3], 0x0800, n10_1, 16);
	mk(&m[4], 0x0800, n11, 8);
	mk(&m[5], 0x0806, NULL, 0);
	of_match_init(&m[6]);
	of_match_set(&m[6], 0, port, NULL, 4);
	mk(&m[7], 0x0800, h, 32);
	for (i = 0; i < 8; i++) {
		for (j = 0; j < 8; j++) {
			want = strchr(covers[i], names[j]) != NULL;
			CHECK(of_match_covers(&m[i], &m[j]) == want,
			    "%c covers %c: %d", names[i], names[j], want);
			want = strchr(overlaps[i], names[j]) != NULL;
			CHECK(of_match_overlaps(&m[i], &m[j]) == want,
			    "%c overlaps %c: %d", names[i], names[j], want);
		}
	}
}

static void
test_covers_vlan(void)
{
	struct of_match	any, v5, none;
	uint8_t		p[2] = { 0x10, 0x00 }, v[2] = { 0x10, 0x05 };
	uint8_t		z[2] = { 0, 0 };

	of_match_init(&any);
	of_match_set(&any, 6, p, p, 2);
	of_match_init(&v5);
	of_match_set(&v5, 6, v, NULL, 2);
	of_match_init(&none);
	of_match_set(&none, 6, z, NULL, 2);
	CHECK(of_match_covers(&any, &v5), "any vlan covers vlan 5");
	CHECK(!of_match_covers(&v5, &any), "vlan 5 does not cover any vlan");
	CHECK(!of_match_covers(&any, &none), "any vlan does not cover none");
	CHECK(of_match_overlaps(&any, &v5), "any vlan overlaps vlan 5");
	CHECK(!of_match_overlaps(&any, &none), "any vlan and none disjoint");
	CHECK(!of_match_overlaps(&v5, &none), "vlan 5 and none disjoint");
}

static void
test_format_trunc(void)
{
	struct of_match	m;
	uint8_t		port[4] = { 0, 0, 0, 12 };
	char		small[5];
	int		n;

	of_match_init(&m);
	of_match_set(&m, 0, port, NULL, 4);
	n = of_match_format(&m, small, sizeof(small));
	CHECK(n == 10 && strcmp(small, "in_p") == 0,
	    "format truncates, returns needed %d", n);
}

static const struct check_case cases[] = {
	CASE(test_vectors13),
	CASE(test_canonical),
	CASE(test_set),
	CASE(test_fields),
	CASE(test_errors),
	CASE(test_prereqs),
	CASE(test_vectors10),
	CASE(test_normalize10),
	CASE(test_errors10),
	CASE(test_covers),
	CASE(test_covers_vlan),
	CASE(test_format_trunc),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
