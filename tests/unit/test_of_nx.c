/*
 * Nicira extensions: nx_match fields (of_nxm.c) and vendor actions
 * (of_nx_actions.c).  The vectors are what ovs-ofctl 3.1 sent to a
 * passive sbsim switch (captured with dumpcap) or are built from
 * nicira-ext.h by hand where noted; bad lengths and bounds draw the
 * error Open vSwitch's switch answers.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "of_actions.h"
#include "of_match.h"
#include "of_nx_tlv.h"
#include "of_nxm.h"

#define NPORTS	4

/* Hex text (spaces allowed) into bytes; returns the count. */
static size_t
unhex(const char *s, uint8_t *out, size_t max)
{
	size_t	n = 0;
	int	hi = -1, v;

	for (; *s != '\0' && n < max; s++) {
		if (*s == ' ')
			continue;
		v = *s <= '9' ? *s - '0' : (*s | 0x20) - 'a' + 10;
		if (hi < 0)
			hi = v;
		else {
			out[n++] = (uint8_t)(hi << 4 | v);
			hi = -1;
		}
	}
	return n;
}

static enum of_err
nxm_dec(const char *hex, struct of_match *m)
{
	uint8_t		b[512];
	size_t		n = unhex(hex, b, sizeof(b));
	struct rbuf	r;
	uint64_t	ck, cm;
	enum of_err	err = OF_ERR_NONE;

	rbuf_init(&r, b, n);
	if (of_nxm_decode(&r, n, m, &ck, &cm, &err) == 0)
		return OF_ERR_NONE;
	return err == OF_ERR_NONE ? OF_ERR__MAX : err;
}

/* Decode, encode again: the same bytes (inputs in canonical order). */
static int
nxm_roundtrip(const char *hex)
{
	uint8_t		want[512], got[512];
	size_t		n = unhex(hex, want, sizeof(want));
	struct of_match	m;
	struct wbuf	w;
	int		len;

	if (nxm_dec(hex, &m) != OF_ERR_NONE)
		return 0;
	wbuf_init(&w, got, sizeof(got));
	len = of_nxm_encode(&w, &m);
	return len == (int)n && memcmp(got, want, n) == 0;
}

static void
test_nxm_fields(void)
{
	struct of_match	m, m2;

	CHECK(nxm_roundtrip("00010004 00000001"), "reg0=1 (ovs-ofctl)");
	CHECK(nxm_roundtrip("00000002 0002 00000602 0800 00001108 0a000000"
	    " ff000000 00010004 00000001 0001d402 0005"),
	    "in_port, ip, nw_dst/8, reg0, ct_zone");
	CHECK(nxm_roundtrip("00000002 0002 00000904 7000 f000"),
	    "in_port=2,dl_vlan_pcp=3 as VLAN_TCI_W");
	CHECK(nxm_roundtrip("00000802 1005"), "dl_vlan=5 as VLAN_TCI");
	CHECK(nxm_roundtrip("00000802 0000"), "vlan_tci=0: no 802.1Q header");
	CHECK(nxm_roundtrip("80000408 0000000000000007 00012008"
	    " 0000000000000055"), "metadata (OXM header), tun_id");
	CHECK(nxm_roundtrip("00010308 00000005 000000ff 00011e04 00000010"
	    " 00014204 00000009"), "reg1/0xff, reg15, pkt_mark");
	/* An all-ones mask is no mask: what Open vSwitch sends back too. */
	CHECK(nxm_dec("00014308 00000009 ffffffff", &m) == OF_ERR_NONE &&
	    of_match_equal(&m, (nxm_dec("00014204 00000009", &m2), &m2)),
	    "pkt_mark=9/0xffffffff is pkt_mark=9");
	CHECK(nxm_roundtrip("00014a04 00000007 0001d308 00000022 00000023"
	    " 0001d402 0005 0001d708 00000003 0000000f 0001d810"
	    " 00000000000000000000000000000001"),
	    "conj_id, ct_state, ct_zone, ct_mark/0xf, ct_label");
	CHECK(nxm_roundtrip("80010008 0000000000000012"), "xreg0 (OXM 0x8001)");
	CHECK(nxm_roundtrip(""), "empty match");

	/* Bad fields: Open vSwitch's answers (nx_pull_match). */
	CHECK(nxm_dec("00010002 0001", &m) == OF_ERR_BAD_MATCH_LEN,
	    "reg0 of 2 bytes");
	CHECK(nxm_dec("00010004 000000", &m) == OF_ERR_BAD_MATCH_LEN,
	    "reg0 truncated");
	CHECK(nxm_dec("0001d504 00050005", &m) == OF_ERR_BAD_MATCH_MASK,
	    "ct_zone masked");
	CHECK(nxm_dec("00010004 00000001 00010004 00000002", &m) ==
	    OF_ERR_BAD_MATCH_DUP_FIELD, "reg0 twice");
	CHECK(nxm_dec("00010108 00000011 00000001", &m) ==
	    OF_ERR_BAD_MATCH_WILDCARDS, "reg0 value outside its mask");
	CHECK(nxm_dec("0001f004 00000001", &m) == OF_ERR_BAD_MATCH_FIELD,
	    "NXM_NX field 120");
	CHECK(nxm_dec("00020004 00000001", &m) == OF_ERR_BAD_MATCH_FIELD,
	    "class 2");
	CHECK(nxm_dec("00000602 0800 00000a01 03", &m) ==
	    OF_ERR_BAD_MATCH_VALUE, "nw_tos with ECN bits");
	CHECK(nxm_dec("00000e04 0a000001", &m) == OF_ERR_BAD_MATCH_PREREQ,
	    "nw_src without dl_type");
	CHECK(nxm_dec("00000904 7000 d000", &m) == OF_ERR_BAD_MATCH_MASK,
	    "VLAN_TCI with part of the PCP masked");
}

/* Non-strict selection and overlap on extension fields. */
static void
test_nxm_covers(void)
{
	struct of_match	all, reg1, reg1m, reg2, both;

	nxm_dec("", &all);
	nxm_dec("00010004 00000001", &reg1);
	nxm_dec("00010108 00000001 000000ff", &reg1m);
	nxm_dec("00010004 00000002", &reg2);
	nxm_dec("00000602 0800 00010004 00000001 00010204 00000009", &both);
	CHECK(of_match_covers(&all, &reg1), "{} covers reg0=1");
	CHECK(of_match_covers(&reg1m, &reg1), "reg0=1/0xff covers reg0=1");
	CHECK(!of_match_covers(&reg1, &reg1m), "reg0=1 not reg0=1/0xff");
	CHECK(!of_match_covers(&reg2, &reg1), "reg0=2 not reg0=1");
	CHECK(of_match_covers(&reg1, &both), "reg0=1 covers ip,reg0=1,reg1=9");
	CHECK(!of_match_covers(&both, &reg1), "and not the reverse");
	CHECK(!of_match_overlaps(&reg1, &reg2), "reg0=1 and reg0=2 apart");
	CHECK(of_match_overlaps(&reg1m, &reg1), "reg0=1/0xff meets reg0=1");
	CHECK(!of_match_equal(&reg1, &reg2), "flows differ by reg0 only");
}

/* A 1.3 ofp_match (hex, with its padding) decoded: the error. */
static enum of_err
oxm13_err(const char *hex)
{
	uint8_t		in[256];
	size_t		n = unhex(hex, in, sizeof(in));
	struct of_match	m;
	struct rbuf	r;
	enum of_err	err = OF_ERR_NONE;

	rbuf_init(&r, in, n);
	if (of_match_decode13(&r, &m, &err) == 0)
		return OF_ERR_NONE;
	return err == OF_ERR_NONE ? OF_ERR__MAX : err;
}

/* ... decoded and encoded again: the same bytes. */
static int
oxm13_back(const char *hex)
{
	uint8_t		in[256], out[256];
	size_t		n = unhex(hex, in, sizeof(in));
	struct of_match	m;
	struct rbuf	r;
	struct wbuf	w;
	enum of_err	err = OF_ERR_NONE;

	rbuf_init(&r, in, n);
	if (of_match_decode13(&r, &m, &err) == -1 || rbuf_left(&r) != 0)
		return 0;
	wbuf_init(&w, out, sizeof(out));
	of_match_encode13(&w, &m);
	return w.len == n && memcmp(in, out, n) == 0;
}

/* The same fields in a 1.3 OXM match (class 0x0001), back as given. */
static void
test_oxm13(void)
{
	uint8_t		in[64], out[64];
	size_t		n = unhex("0001 0012 00010004 00000001 0001d402 0005"
			    " 000000000000", in, sizeof(in));
	struct of_match	m;
	struct rbuf	r;
	struct wbuf	w;
	enum of_err	err = OF_ERR_NONE;

	rbuf_init(&r, in, n);	/* type, length 18, TLVs, padding to 24 */
	CHECK(of_match_decode13(&r, &m, &err) == 0, "1.3 reg0, ct_zone: %d",
	    err);
	wbuf_init(&w, out, sizeof(out));
	of_match_encode13(&w, &m);
	CHECK(w.len == n && memcmp(in, out, n) == 0, "1.3 reads back");
	/* A 1.0 ofp_match has no place for them: match-all (OVS does so). */
	wbuf_init(&w, out, sizeof(out));
	CHECK(of_match_encode10(&w, &m) == 0 && w.len == 40 &&
	    out[0] == 0x00 && out[1] == 0x3f && out[2] == 0xff &&
	    out[3] == 0xff, "1.0 ofp_match without the extension fields");
	/* Experimenter OXM (class 0xffff): ONF's tcp_flags, as ovs-ofctl
	 * -O OpenFlow13 sends tcp_flags=+syn (its id counts in the length). */
	CHECK(oxm13_back("0001 0023 80000a02 0800 80001401 06"
	    " 00010004 00000001 ffff5508 4f4e4600 0002 0002 0000000000"),
	    "1.3 tcp, tcp_flags=+syn (ONF experimenter), reg0");
	CHECK(oxm13_err("0001 0014 80000a02 0800 ffff5406 4f4e4601 0002"
	    " 00000000") == OF_ERR_BAD_MATCH_FIELD, "experimenter id unknown");
	CHECK(oxm13_err("0001 000a ffff5402 0002 000000000000") ==
	    OF_ERR_BAD_MATCH_LEN, "experimenter OXM without its id");
	CHECK(oxm13_err("0001 0018 ffff5406 4f4e4600 0002"
	    " ffff5406 4f4e4600 0004") == OF_ERR_BAD_MATCH_DUP_FIELD,
	    "tcp_flags twice");
}

static enum of_err
act(uint8_t version, const char *hex)
{
	uint8_t		b[256];
	size_t		n = unhex(hex, b, sizeof(b));
	enum of_err	err = OF_ERR_NONE;

	if (of_actions_validate(version, b, n, NPORTS, &err) == 0)
		return OF_ERR_NONE;
	return err == OF_ERR_NONE ? OF_ERR__MAX : err;
}

#define A(name, want, hex) do {						\
	enum of_err e10_ = act(OF_VERSION_10, hex);			\
	enum of_err e13_ = act(OF_VERSION_13, hex);			\
	CHECK(e10_ == (want) && e13_ == (want),				\
	    "%s: 1.0 err %d, 1.3 err %d, want %d", name, e10_, e13_, want); \
} while (0)

/* Captured from ovs-ofctl 3.1 (see the file comment). */
#define RESUBMIT	"ffff0010 00002320 000e fff8 02 000000"
#define CT_NAT		"ffff0038 00002320 0023 0001 00010004 000f 04 000000"\
	" 0000 ffff0020 00002320 0024 0000 0001 0033 0a000001 0a000009"	\
	" 0064 00c8 00000000"
#define LEARN_HEX(table)	"ffff0058000023200010001e000080000000000000000000"\
	"0000" table "0000000000000c000008020000000008020000003000000406000000"\
	"000206000008100000000200000001000400001010000000020000000000000000"
#define LEARN		LEARN_HEX("0a")
#define LEARN_T255	LEARN_HEX("ff")

static void
test_nx_actions(void)
{
	A("resubmit(,2)", OF_ERR_NONE, RESUBMIT);
	A("resubmit of 24 bytes", OF_ERR_BAD_ACTION_LEN,
	    "ffff0018 00002320 000e fff8 02 000000 0000000000000000");
	A("vendor 0x2321", OF_ERR_BAD_ACTION_EXPERIMENTER,
	    "ffff0010 00002321 000e fff8 02 000000");
	A("subtype 99", OF_ERR_BAD_ACTION_EXP_TYPE,
	    "ffff0010 00002320 0063 000000000000");
	A("load:5->reg1[0..7]", OF_ERR_NONE,
	    "ffff0018 00002320 0007 0007 00010204 0000000000000005");
	A("load:0x1ff->reg1[0..7]", OF_ERR_BAD_ACTION_ARGUMENT,
	    "ffff0018 00002320 0007 0007 00010204 00000000000001ff");
	/* Field references: ovs-vswitchd 3.1.0's answers (mf_check_*). */
	A("load to reg1[30..37]", OF_ERR_BAD_SET_LEN,
	    "ffff0018 00002320 0007 0787 00010204 0000000000000005");
	A("load to an unknown field", OF_ERR_BAD_SET_TYPE,
	    "ffff0018 00002320 0007 0007 0001fe04 0000000000000005");
	A("move:reg0[]->reg2[]", OF_ERR_NONE,
	    "ffff0018 00002320 0006 0020 0000 0000 00010004 00010404");
	A("move of 33 bits", OF_ERR_BAD_SET_LEN,
	    "ffff0018 00002320 0006 0021 0000 0000 00010004 00010404");
	A("move from an unknown field (read as a match field)",
	    OF_ERR_BAD_MATCH_FIELD,
	    "ffff0018 00002320 0006 0020 0000 0000 00020004 00010004");
	A("move with nonzero padding", OF_ERR_NX_MUST_BE_ZERO,
	    "ffff0020 00002320 0006 0020 0000 0000 00010004 00010204"
	    " 0000000000000001");
	A("output_reg of an unknown field", OF_ERR_BAD_SET_TYPE,
	    "ffff0018 00002320 000f 000f 00020004 0000 000000000000");
	A("multipath to an unknown field, before the link count",
	    OF_ERR_BAD_SET_TYPE, "ffff0020 00002320 000a 0000 0032 0000 0000"
	    " 0010 00000000 0000 0001 00020004");
	A("multipath of 17 links into 2 bits", OF_ERR_BAD_ACTION_ARGUMENT,
	    "ffff0020 00002320 000a 0000 0032 0000 0000 0010 00000000 0000"
	    " 0001 00010004");
	A("exit with nonzero padding (not read)", OF_ERR_NONE,
	    "ffff0010 00002320 0011 000000000001");
	A("ct(commit,table=4,zone=reg0[0..15],nat(src=...))", OF_ERR_NONE,
	    CT_NAT);
	A("ct with nat of a wrong length", OF_ERR_BAD_ACTION_LEN,
	    "ffff0030 00002320 0023 0001 00010004 000f 04 000000"
	    " 0000 ffff0018 00002320 0024 0000 0001 0033 0a000001 0a000009");
	A("ct with an output inside", OF_ERR_BAD_ACTION_ARGUMENT,
	    "ffff0020 00002320 0023 0001 00000000 0005 ff 000000 0000"
	    " 0000 0008 0001 ffff");
	A("learn(...)", OF_ERR_NONE, LEARN);
	A("learn into table 255", OF_ERR_BAD_ACTION_ARGUMENT, LEARN_T255);
	A("learn spec cut short", OF_ERR_BAD_ACTION_LEN,
	    "ffff0028 00002320 0010 001e 0000 8000 0000000000000000 0000"
	    " 0a 00 0000 0000 000c 0000");
	A("conjunction(7,1/2)", OF_ERR_NONE,
	    "ffff0010 00002320 0022 00 02 00000007");
	A("conjunction(7,1/1)", OF_ERR_NX_BAD_CONJUNCTION,
	    "ffff0010 00002320 0022 00 01 00000007");
	A("bundle_load(...,members:1,2)", OF_ERR_NONE,
	    "ffff0028 00002320 000d 0001 0000 0000 00000002 0002 001f"
	    " 00010004 00000000 0001 0002 00000000");
	A("bundle_load member 9", OF_ERR_BAD_OUT_PORT,
	    "ffff0028 00002320 000d 0001 0000 0000 00000002 0002 001f"
	    " 00010004 00000000 0001 0009 00000000");
	A("bundle_load of 10 members in 8 bytes", OF_ERR_BAD_ACTION_LEN,
	    "ffff0028 00002320 000d 0001 0000 0000 00000002 000a 001f"
	    " 00010004 00000000 0001 0002 00000000");
	A("multipath(eth_src,50,hrw,12,0,reg0[0..3])", OF_ERR_NONE,
	    "ffff0020 00002320 000a 0000 0032 0000 0002 000b 00000000 0000"
	    " 0003 00010004");
	A("multipath of 17 links in 4 bits", OF_ERR_BAD_ACTION_ARGUMENT,
	    "ffff0020 00002320 000a 0000 0032 0000 0002 0010 00000000 0000"
	    " 0003 00010004");
	A("output:reg0[0..15]", OF_ERR_NONE,
	    "ffff0018 00002320 000f 000f 00010004 0000 000000000000");
	A("note:01.02.03", OF_ERR_NONE, "ffff0010 00002320 0008 010203000000");
	A("dec_ttl", OF_ERR_NONE, "ffff0010 00002320 0012 000000000000");
	A("dec_ttl of 24 bytes", OF_ERR_BAD_ACTION_LEN,
	    "ffff0018 00002320 0012 000000000000 0000000000000000");
}

/* 1.3 SET_FIELD on the new fields (ovs-ofctl -O OpenFlow13). */
static void
test_set_field13(void)
{
	CHECK(act(OF_VERSION_13, "0019 0010 00010a04 00000007 00000000") ==
	    OF_ERR_NONE, "set_field:7->reg5");
	CHECK(act(OF_VERSION_13, "0019 0018 0001d810"
	    " 00000000000000000000000000000001") == OF_ERR_NONE,
	    "set_field ct_label");
	CHECK(act(OF_VERSION_13, "0019 0010 00010a02 00070000 00000000") ==
	    OF_ERR_BAD_ACTION_ARGUMENT, "set_field reg5 of 2 bytes");
	CHECK(act(OF_VERSION_13, "0019 0018 00010a04 00000007 00000000"
	    " 00000000") == OF_ERR_BAD_ACTION_LEN, "set_field reg5 in 24");
}

/* Decode hex, encode: want's bytes. */
static int
nxm_reads_back(const char *hex, const char *want_hex)
{
	uint8_t		want[512], got[512];
	size_t		n = unhex(want_hex, want, sizeof(want));
	struct of_match	m;
	struct wbuf	w;

	if (nxm_dec(hex, &m) != OF_ERR_NONE)
		return 0;
	wbuf_init(&w, got, sizeof(got));
	return of_nxm_encode(&w, &m) == (int)n && memcmp(got, want, n) == 0;
}

/*
 * NXM_NX_TUN_METADATA<i> against a TLV map: tun_metadata0 of 4 bytes,
 * tun_metadata63 of 8.  ovs-ofctl sends a value without its leading zero
 * bytes (none at all for 0); the switch keeps it at the mapped length,
 * as Open vSwitch's dump-flows shows.
 */
static void
test_tun_metadata(void)
{
	struct nx_tlv_map	map;
	struct of_match		m;

	memset(&map, 0, sizeof(map));
	map.e[0].len = 4;
	map.e[0].valid = 1;
	map.e[63].len = 8;
	map.e[63].valid = 1;
	of_nx_tlv_bind(NULL);
	CHECK(nxm_dec("00015002 1234", &m) == OF_ERR_NX_INVALID_TLV_FIELD,
	    "tun_metadata0 with no map");
	of_nx_tlv_bind(&map);
	CHECK(nxm_reads_back("00015002 1234", "00015004 00001234"),
	    "tun_metadata0=0x1234 kept at 4 bytes");
	CHECK(nxm_roundtrip("00015004 00001234"), "tun_metadata0 at 4 bytes");
	CHECK(nxm_reads_back("00015000", "00015004 00000000"),
	    "tun_metadata0=0 (no value bytes)");
	CHECK(nxm_reads_back("00015104 1200 ff00",
	    "00015108 00001200 0000ff00"), "tun_metadata0=0x1200/0xff00");
	CHECK(nxm_reads_back("00015108 00001234 ffffffff", "00015004 00001234"),
	    "an all-ones mask at the mapped length is none");
	CHECK(nxm_reads_back("00015006 0000 0000 1234", "00015004 00000000"),
	    "a longer value: its first mapped bytes (copy_entry_value)");
	CHECK(nxm_reads_back("00015004 00000001 0001ce08 1122334455667788",
	    "00015004 00000001 0001ce08 1122334455667788"),
	    "tun_metadata0 and tun_metadata63");
	CHECK(nxm_dec("00015202 1234", &m) == OF_ERR_NX_INVALID_TLV_FIELD,
	    "tun_metadata1 unmapped");
	CHECK(nxm_dec("00015002 1234 00015002 1234", &m) ==
	    OF_ERR_BAD_MATCH_DUP_FIELD, "tun_metadata0 twice");
	CHECK(nxm_dec("00015104 1234 0f00", &m) ==
	    OF_ERR_BAD_MATCH_WILDCARDS, "value outside its mask");
	CHECK(nxm_dec("00015103 123400", &m) == OF_ERR_BAD_MATCH_LEN,
	    "masked of odd length");
	/* Actions: REG_LOAD2, load, move and 1.3 set_field on them. */
	A("set_field:0x1/0xff->tun_metadata0 (REG_LOAD2)", OF_ERR_NONE,
	    "ffff0010 00002320 0021 00015102 01ff");
	A("set_field:0x5->tun_metadata0 (REG_LOAD2)", OF_ERR_NONE,
	    "ffff0010 00002320 0021 00015001 0500");
	A("REG_LOAD2 of reg0 in 1 byte", OF_ERR_BAD_SET_LEN,
	    "ffff0010 00002320 0021 00010001 0500");
	A("REG_LOAD2 to tun_metadata1", OF_ERR_NX_INVALID_TLV_FIELD,
	    "ffff0010 00002320 0021 00015201 0500");
	A("REG_LOAD2 of 5 bytes to 4", OF_ERR_BAD_SET_LEN,
	    "ffff0018 00002320 0021 00015005 0102030405 000000000000");
	A("REG_LOAD2 with nonzero padding", OF_ERR_BAD_SET_ARGUMENT,
	    "ffff0010 00002320 0021 00015001 0501");
	A("load:1->tun_metadata0[0..7]", OF_ERR_NONE,
	    "ffff0018 00002320 0007 0007 0001507c 0000000000000001");
	A("load:1->tun_metadata0[0..39]", OF_ERR_BAD_SET_LEN,
	    "ffff0018 00002320 0007 0027 0001507c 0000000000000001");
	A("move:tun_metadata2[]->reg0[]", OF_ERR_NX_INVALID_TLV_FIELD,
	    "ffff0018 00002320 0006 0020 0000 0000 0001547c 00010004");
	CHECK(act(OF_VERSION_13, "0019 0010 00015001 05 00000000000000") ==
	    OF_ERR_NONE, "1.3 set_field:0x5->tun_metadata0");
	CHECK(act(OF_VERSION_13, "0019 0010 00015201 05 00000000000000") ==
	    OF_ERR_NX_INVALID_TLV_FIELD, "1.3 set_field tun_metadata1");
	of_nx_tlv_bind(NULL);
}

static const struct check_case cases[] = {
	CASE(test_nxm_fields),
	CASE(test_nxm_covers),
	CASE(test_oxm13),
	CASE(test_nx_actions),
	CASE(test_set_field13),
	CASE(test_tun_metadata),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
