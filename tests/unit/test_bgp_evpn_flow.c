/*
 * EVPN (bgp_fam_evpn.c) and flowspec (bgp_fam_flow.c) NLRI: byte vectors
 * written out field by field from RFC 7432 section 7 / RFC 9136 section
 * 3 and RFC 8955 section 4 / RFC 8956 section 3, generated routes
 * through encode and decode back whole, malformed NLRI (RFC 7606 section
 * 5.3), the families' extended communities, and UPDATEs with them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgp_family.h"
#include "check_codec.h"
#include "check_bgp.h"

/* Types 2, 3 and 5 in turn, RDs 65001:1..3, VNIs 10000 and 10001. */
static const struct bgp_gen gen0 = {
	.rd_count = 3, .rd_type = 0, .label_base = 16, .rd_as = 65001,
	.evpn_types = 1u << 2 | 1u << 3 | 1u << 5, .vni_base = 10000,
	.vnis = 2,
};

static void
encode_check(unsigned fam, const struct bgp_gen *g, const char *first,
    uint64_t n, const char *hex, const char *what)
{
	const struct bgp_family	*f = &bgp_families[fam];
	struct bgp_prefix	 p = pfx(first);
	struct bgp_route	 r, back;
	struct vec		 v;
	uint8_t			 d[128];
	size_t			 len;

	f->nth(f, g, &p, n, &r);
	len = f->encode(f, d, sizeof(d), &r, 0);
	vec(&v, hex);
	CHECK_BYTES(d, len, v.b, v.len, "%s", what);
	memset(&back, 0, sizeof(back));
	back.fam = (uint8_t)fam;
	CHECK(f->decode(f, d, len, &back) == len &&
	    memcmp(&back, &r, sizeof(r)) == 0, "%s decoded back", what);
	CHECK(f->encode(f, d, len - 1, &r, 0) == 0, "%s: no room", what);
}

/* Routes 3, 4 and 5 are number 1 of types 2, 3 and 5: RD 65001:2,
 * 10.0.1.0, VNI 10001 (0x002711). */
static void
test_evpn_vectors(void)
{
	struct bgp_gen	g = gen0;
	char		s[160];
	struct bgp_route r;
	struct bgp_prefix p = pfx("10.0.0.0/24");
	const struct bgp_family *f = &bgp_families[BGP_FAM_EVPN];

	encode_check(BGP_FAM_EVPN, &g, "10.0.0.0/24", 3, "02 25 "
	    "00 00 fd e9 00 00 00 02 "		/* RD */
	    "00 00 00 00 00 00 00 00 00 00 "	/* ESI 0: single-homed */
	    "00 00 00 00 "			/* Ethernet tag */
	    "30 02 00 00 00 00 01 "		/* 48 bits, MAC */
	    "20 0a 00 01 00 "			/* 32 bits, IP */
	    "00 27 11", "type 2 MAC/IP");	/* VNI */
	encode_check(BGP_FAM_EVPN, &g, "10.0.0.0/24", 4, "03 11 "
	    "00 00 fd e9 00 00 00 02 00 00 00 00 20 0a 00 01 00",
	    "type 3 inclusive multicast");
	encode_check(BGP_FAM_EVPN, &g, "10.0.0.0/24", 5, "05 22 "
	    "00 00 fd e9 00 00 00 02 00 00 00 00 00 00 00 00 00 00 "
	    "00 00 00 00 18 0a 00 01 00 00 00 00 00 00 27 11",
	    "type 5 IP prefix");
	g.evpn_types = 1u << 1 | 1u << 4;
	encode_check(BGP_FAM_EVPN, &g, "10.0.0.0/24", 2, "01 19 "
	    "00 00 fd e9 00 00 00 02 00 00 00 00 00 00 00 00 00 02 "
	    "00 00 00 00 00 27 11", "type 1 Ethernet A-D, ESI 2");
	encode_check(BGP_FAM_EVPN, &g, "10.0.0.0/24", 3, "04 17 "
	    "00 00 fd e9 00 00 00 02 00 00 00 00 00 00 00 00 00 02 "
	    "20 0a 00 01 00", "type 4 Ethernet segment");
	f->nth(f, &gen0, &p, 3, &r);
	CHECK(strcmp(bgp_route_str(&r, s, sizeof(s)), "[type:2][rd:65001:2]"
	    "[esi:00000000][etag:0][mac:02:00:00:00:00:01][ip:10.0.1.0/32] "
	    "vni 10001") == 0, "printed: %s", s);
}

/* Rule 3 from 10.0.0.0/24: destination 10.0.3.0/24, UDP, destination
 * port 1027, source ports >= 1024 AND <= 65535. */
static void
test_flow_vectors(void)
{
	struct bgp_gen	g = gen0;

	encode_check(BGP_FAM_FLOW4, &gen0, "10.0.0.0/24", 3, "13 "
	    "01 18 0a 00 03 "		/* destination prefix /24 */
	    "03 81 11 "			/* protocol == 17, end */
	    "05 91 04 03 "		/* dport == 1027 (2 octets), end */
	    "06 13 04 00 d5 ff ff",	/* sport >= 1024, AND <= 65535 */
	    "IPv4 rule");
	encode_check(BGP_FAM_FLOW6, &gen0, "2001:db8::/64", 0, "19 "
	    "01 40 00 20 01 0d b8 00 00 00 00 "	/* /64, offset 0 */
	    "03 81 06 05 91 04 00 06 13 04 00 d5 ff ff", "IPv6 rule");
	g.flow_src = pfx("192.0.2.0/25");	/* --flow-source */
	encode_check(BGP_FAM_FLOW4, &g, "10.0.0.0/24", 0, "19 "
	    "01 18 0a 00 00 "		/* destination */
	    "02 19 c0 00 02 00 "	/* source /25 */
	    "03 81 06 05 91 04 00 06 13 04 00 d5 ff ff",
	    "IPv4 rule with a source");
	encode_check(BGP_FAM_FLOW6, &g, "2001:db8::/64", 0, "19 "
	    "01 40 00 20 01 0d b8 00 00 00 00 "
	    "03 81 06 05 91 04 00 06 13 04 00 d5 ff ff",
	    "an IPv4 source is not an IPv6 rule's");
}

static void
test_malformed(void)
{
	static const char *const evpn[] = {
		"02 25 00",				/* past the span */
		"01 18 " "00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00 "
		    "00 00 00 00 00 00 00 00",		/* type 1 of 24 */
		"03 10 00 00 00 00 00 00 00 01 00 00 00 00 18 0a 00 01",
							/* IP of 24 bits */
		"02 25 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00 00 00 "
		    "00 00 00 00 2f 02 00 00 00 00 01 20 0a 00 01 00 00 27 11",
							/* MAC of 47 bits */
		"05 23 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00 00 00 "
		    "00 00 00 00 18 0a 00 01 00 00 00 00 00 00 27 11 00",
		"",
	};
	static const char *const flow[] = {
		"08 03 81 06 01 18 0a 00 03",	/* protocol before dst */
		"07 01 08 0a 01 08 0b 00",	/* dst twice */
		"04 03 01 06 00",		/* no end bit: overruns */
		"04 03 91 00 06",		/* a 2-octet protocol */
		"05 01 21 0a 00 03",		/* 33-bit prefix */
		"14 01 18 0a 00 03",		/* longer than the span */
		"00",				/* empty rule */
		"08 01 18 0a 00 03 0e 81 01",	/* type 14: not defined */
		"08 01 18 0a 00 03 0d 81 01",	/* flow label: IPv6 only */
		"",
	};
	static const char *const flow6[] = {
		"04 01 08 10 20",		/* offset past the length */
		"",
	};
	const struct bgp_family	*f4 = &bgp_families[BGP_FAM_FLOW4];
	struct bgp_route	 r;
	struct vec		 v;
	uint64_t		 n;

	check_bad_entries(BGP_FAM_EVPN, evpn);
	check_bad_entries(BGP_FAM_FLOW4, flow);
	check_bad_entries(BGP_FAM_FLOW6, flow6);
	vec(&v, "09 02 aa bb 03 11 00 00 fd e9 00 00 00 02 00 00 00 00 20 "
	    "0a 00 01 00");
	CHECK(bgp_family_check(BGP_FAM_EVPN, v.b, v.len, 0, &n) == 0 &&
	    n == 2, "an unknown route type is skipped by its length");
	vec(&v, "f0 05 01 18 0a 00 03");
	memset(&r, 0, sizeof(r));
	CHECK(f4->decode(f4, v.b, v.len, &r) == 7 && r.pfx.len == 24 &&
	    !r.partial, "two-octet length (RFC 8955 section 4.1)");
	vec(&v, "08 01 18 0a 00 03 07 81 08");	/* ICMP type == 8 */
	memset(&r, 0, sizeof(r));
	CHECK(f4->decode(f4, v.b, v.len, &r) == 9 && r.partial,
	    "a component the generator does not make: valid, kept in part");
	vec(&v, "03 0d 81 01");			/* IPv6 flow label == 1 */
	memset(&r, 0, sizeof(r));
	CHECK(bgp_families[BGP_FAM_FLOW6].decode(&bgp_families[BGP_FAM_FLOW6],
	    v.b, v.len, &r) == 4 && r.partial, "IPv6 flow label (RFC 8956)");
}

/* Generated routes of every type through encode and decode, whole. */
static void
test_round_trip(void)
{
	static const unsigned fams[] = { BGP_FAM_EVPN, BGP_FAM_FLOW4,
	    BGP_FAM_FLOW6 };
	struct bgp_prefix	 firsts[2] = { pfx("10.0.0.0/22"),
	    pfx("2001:db8::/56") };
	struct bgp_gen		 g = gen0;
	struct bgp_route	 r, back;
	uint8_t			 d[128];
	unsigned		 k, bad;
	uint64_t		 i;
	size_t			 n;

	g.evpn_types = 0x3e;		/* 1 to 5 */
	for (k = 0; k < 3; k++) {
		const struct bgp_family *f = &bgp_families[fams[k]];

		for (bad = 0, i = 0; i < 100; i++) {
			f->nth(f, &g, &firsts[f->addr_af], i * 977, &r);
			n = f->encode(f, d, sizeof(d), &r, 0);
			memset(&back, 0, sizeof(back));
			back.fam = (uint8_t)fams[k];
			if (n == 0 || f->decode(f, d, n, &back) != n ||
			    memcmp(&back, &r, sizeof(r)) != 0)
				bad++;
		}
		CHECK(bad == 0, "%s: 100 routes round trip", f->name);
	}
}

static void
test_ext(void)
{
	struct bgp_attrs	a;
	struct bgp_gen		g = gen0;
	const struct bgp_family	*fl = &bgp_families[BGP_FAM_FLOW4];
	static const uint8_t	 want[4][8] = {
		{ 0x80, 0x06, 0xfd, 0xe9, 0, 0, 0, 0 },	/* rate 0.0 */
		{ 0x80, 0x07, 0, 0, 0, 0, 0, 0x02 },	/* sample */
		{ 0x80, 0x08, 0xfd, 0xe9, 0, 0, 0, 1 },	/* 65001:1 */
		{ 0x80, 0x09, 0, 0, 0, 0, 0, 46 },	/* DSCP EF */
	};
	static const uint8_t	 vxlan[8] = { 0x03, 0x0c, 0, 0, 0, 0, 0, 8 };
	unsigned		 i;

	for (i = 0; i < 4; i++) {
		memset(&a, 0, sizeof(a));
		g.flow_action = (uint8_t)i;
		fl->ext(&g, 65001, &a);
		CHECK(a.n_ext == 1 && memcmp(a.ext[0], want[i], 8) == 0,
		    "flowspec action %u", i);
	}
	memset(&a, 0, sizeof(a));
	g.flow_action = BGP_FLOW_NONE;
	fl->ext(&g, 65001, &a);
	CHECK(a.n_ext == 0, "no action: no community");
	a.n_ext = 1;
	bgp_families[BGP_FAM_EVPN].ext(&g, 1, &a);
	CHECK(a.n_ext == 2 && memcmp(a.ext[1], vxlan, 8) == 0,
	    "EVPN: VXLAN encapsulation after the route target");
}

/* An UPDATE of flowspec: MP_REACH next hop length 0 (RFC 8955 section
 * 4), read back where the session negotiated it. */
static void
test_update(void)
{
	struct bgp_sess_caps	 sc = { .as4 = 1, .fam_rx = 1u << BGP_FAM_FLOW4 |
	    1u << BGP_FAM_EVPN };
	struct bgp_attrs	 a = { .n_as = 1 };
	struct bgp_prefix	 first = pfx("10.0.0.0/24");
	struct bgp_update	 u;
	struct bgp_err		 e;
	struct bgp_ub		 ub;
	uint64_t		 n = 0;
	unsigned		 fam;

	a.as_path[0] = 65001;
	for (fam = BGP_FAM_EVPN; fam <= BGP_FAM_FLOW4; fam++) {
		start();
		bgp_ub_begin(&ub, &w, fam, 1, 0, &a, &sc, BGP_MAX_LEN);
		bgp_ub_add_routes(&ub, fam, &gen0, &first, 0, 50);
		CHECK(bgp_ub_end(&ub) == 0 && bgp_update_decode(w.data, w.len,
		    &sc, &u, &e) == 0 && u.mp_reach_fam == fam &&
		    u.mp_nh_len == (fam == BGP_FAM_EVPN ? 4 : 0) &&
		    bgp_family_check(fam, rbuf_ptr(&u.mp_reach),
		    rbuf_left(&u.mp_reach), 0, &n) == 0 && n == 50,
		    "%s: 50 routes in an UPDATE, decoded back",
		    bgp_families[fam].name);
	}
}

static const struct check_case cases[] = {
	CASE(test_evpn_vectors),
	CASE(test_flow_vectors),
	CASE(test_malformed),
	CASE(test_round_trip),
	CASE(test_ext),
	CASE(test_update),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
