/*
 * The family table (bgp_family.c, bgp_fam_label.c): NLRI byte vectors
 * written out field by field from RFC 4364 section 4.3.4 / RFC 4659
 * section 3.2 (L3VPN) and RFC 8277 section 2 (labeled unicast), the
 * round trip of generated routes through encode and decode, malformed
 * NLRI (RFC 7606 section 5.3), UPDATEs packed with them and read back
 * only where the session negotiated the family, the multiprotocol
 * capability of each family (RFC 4760 section 8) and End-of-RIB.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgp_family.h"
#include "check_codec.h"
#include "check_bgp.h"

#define MARKER	"ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff "

static const struct bgp_gen gen0 = {
	.rd_count = 3, .rd_type = 0, .label_base = 16, .rd_as = 65001,
	.rd_ip = 0xc0000201,
};

static void
test_table(void)
{
	CHECK(bgp_family_by_name("l3vpn-ipv4-unicast") == BGP_FAM_VPN4,
	    "l3vpn-ipv4-unicast by name");
	CHECK(bgp_family_by_name("ipv4-labelled-unicast") == BGP_FAM_LU4,
	    "ipv4-labelled-unicast by name");
	CHECK(bgp_family_by_name("ipv4-unicast") == BGP_AF_IPV4 &&
	    bgp_family_by_name("ipv6-unicast") == BGP_AF_IPV6,
	    "the unicast rows are enum bgp_af");
	CHECK(bgp_family_by_name("vpnv4") == BGP_FAM_MAX, "unknown name");
	CHECK(bgp_family_from(2, 128) == BGP_FAM_VPN6 &&
	    bgp_family_from(1, 4) == BGP_FAM_LU4 &&
	    bgp_family_from(1, 2) == BGP_FAM_MAX, "by AFI/SAFI");
}

/* Route 4 of VPN-IPv4 from 10.0.0.0/24: 10.0.4.0/24, RD 65001:2 (4 mod
 * 3 is 1: the second), label 20. */
static void
test_vpn4_vector(void)
{
	const struct bgp_family	*f = &bgp_families[BGP_FAM_VPN4];
	struct bgp_prefix	 first = pfx("10.0.0.0/24");
	struct bgp_route	 r, back;
	struct vec		 v;
	uint8_t			 d[64];
	size_t			 n;
	char			 s[96];

	f->nth(f, &gen0, &first, 4, &r);
	n = f->encode(f, d, sizeof(d), &r, 0);
	vec(&v, "70 "			/* 24 + 64 + 24 bits */
	    "00 01 41 "			/* label 20, bottom of stack */
	    "00 00 fd e9 00 00 00 02 "	/* RD type 0, 65001:2 */
	    "0a 00 04");
	CHECK_BYTES(d, n, v.b, v.len, "VPN-IPv4 entry");
	CHECK(strcmp(bgp_route_str(&r, s, sizeof(s)),
	    "65001:2:10.0.4.0/24 label 20") == 0, "printed: %s", s);
	n = f->encode(f, d, sizeof(d), &r, 1);
	vec(&v, "70 80 00 00 00 00 fd e9 00 00 00 02 0a 00 04");
	CHECK_BYTES(d, n, v.b, v.len, "withdrawn: label 0x800000");
	memset(&back, 0, sizeof(back));
	back.fam = BGP_FAM_VPN4;
	CHECK(f->decode(f, d, n, &back) == n &&
	    back.label == BGP_LABEL_WITHDRAW, "withdraw decoded");
	CHECK(f->encode(f, d, n - 1, &r, 0) == 0, "no room: nothing");
}

/* RFC 8277: one label, no RD; type 1 and 2 RDs of VPN-IPv6. */
static void
test_lu_vpn6_vectors(void)
{
	const struct bgp_family	*lu = &bgp_families[BGP_FAM_LU4];
	const struct bgp_family	*v6 = &bgp_families[BGP_FAM_VPN6];
	struct bgp_prefix	 first = pfx("192.0.2.0/25");
	struct bgp_prefix	 first6 = pfx("2001:db8::/48");
	struct bgp_gen		 g = gen0;
	struct bgp_route	 r;
	struct vec		 v;
	uint8_t			 d[64];
	size_t			 n;
	char			 s[96];

	g.label_per_rd = 1;
	lu->nth(lu, &g, &first, 1, &r);
	n = lu->encode(lu, d, sizeof(d), &r, 0);
	vec(&v, "31 00 01 11 c0 00 02 80");	/* 49 bits, label 17 */
	CHECK_BYTES(d, n, v.b, v.len, "labeled unicast, label per RD");
	g.rd_type = 1;
	v6->nth(v6, &g, &first6, 2, &r);
	n = v6->encode(v6, d, sizeof(d), &r, 0);
	vec(&v, "88 00 01 21 00 01 c0 00 02 01 00 03 "
	    "20 01 0d b8 00 02");
	CHECK_BYTES(d, n, v.b, v.len, "VPN-IPv6, RD type 1");
	CHECK(strcmp(bgp_route_str(&r, s, sizeof(s)),
	    "192.0.2.1:3:2001:db8:2::/48 label 18") == 0, "printed: %s", s);
	g.rd_type = 2;
	g.rd_as = 4200000000u;
	v6->nth(v6, &g, &first6, 0, &r);
	CHECK(strcmp(bgp_route_str(&r, s, sizeof(s)),
	    "4200000000:1:2001:db8::/48 label 16") == 0, "type 2: %s", s);
}

/* Every family: generated routes encoded and decoded back equal. */
static void
test_round_trip(void)
{
	struct bgp_prefix	 firsts[2] = { pfx("10.0.0.0/22"),
	    pfx("2001:db8::/56") };
	struct bgp_route	 r, back;
	struct bgp_gen		 g = gen0;
	uint8_t			 d[64];
	unsigned		 fam, bad = 0;
	uint64_t		 i;
	size_t			 n;

	g.label_base = 1048570;		/* wraps back to it */
	for (fam = 0; fam < BGP_FAM_MAX; fam++) {
		const struct bgp_family *f = &bgp_families[fam];

		if (fam == BGP_FAM_LS)
			continue;	/* test_bgp_ls.c */
		bad = 0;
		for (i = 0; i < 50; i++) {
			f->nth(f, &g, &firsts[f->addr_af], i * 977, &r);
			n = f->encode(f, d, sizeof(d), &r, 0);
			memset(&back, 0, sizeof(back));
			back.fam = (uint8_t)fam;
			if (n == 0 || f->decode(f, d, n, &back) != n ||
			    memcmp(&back.pfx, &r.pfx, sizeof(r.pfx)) != 0 ||
			    memcmp(back.rd, r.rd, 8) != 0 ||
			    back.label != r.label || r.label > BGP_LABEL_MAX ||
			    ((f->safi == BGP_SAFI_VPN || f->safi ==
			    BGP_SAFI_LABELED) && r.label < 16))
				bad++;
		}
		CHECK(bad == 0, "%s: 50 routes round trip", f->name);
	}
}

/* RFC 7606 section 5.3: an entry that cannot be parsed. */
static void
test_malformed(void)
{
	static const char *const bad[] = {
		"57 00 01 41 00 00 fd e9 00 00 00 02",	/* 87 bits < 88 */
		"79 00 01 41 00 00 fd e9 00 00 00 02 0a 00 04 00 00",
						/* prefix of 33 bits */
		"70 00 01 41 00 00 fd e9 00 00 00 02 0a 00",	/* short */
		"70 00 01 40 00 00 fd e9 00 00 00 02 0a 00 04",	/* no BoS */
		"",
	};
	struct bgp_route	 r;
	struct vec		 v;
	uint64_t		 n;

	check_bad_entries(BGP_FAM_VPN4, bad);
	vec(&v, "17 00 01 41");			/* LU: 23 bits < 24 */
	CHECK(bgp_families[BGP_FAM_LU4].decode(&bgp_families[BGP_FAM_LU4],
	    v.b, v.len, &r) == 0, "labeled unicast shorter than its label");
	vec(&v, "70 00 01 41 00 00 fd e9 00 00 00 02 0a 00 04 "
	    "70 00 01 51 00 00 fd e9 00 00 00 03 0a 00 05");
	CHECK(bgp_family_check(BGP_FAM_VPN4, v.b, v.len, 0, &n) == 0 && n == 2,
	    "two good entries");
}

/* Routes of one family packed into UPDATEs (bgp_ub_add_route) until full,
 * each decoded back: how many per UPDATE, and in all. */
static uint64_t
pack_family(unsigned fam, uint64_t want, uint32_t *most, int withdraw)
{
	const struct bgp_family	*f = &bgp_families[fam];
	struct bgp_prefix	 first = pfx(f->addr_af == BGP_AF_IPV6 ?
	    "2001:db8::/64" : "10.0.0.0/24");
	struct bgp_sess_caps	 sc = { .as4 = 1, .fam_rx = 1u << fam };
	struct bgp_attrs	 a = { .origin = 0, .n_as = 1 };
	struct bgp_update	 u;
	struct bgp_err		 e;
	struct bgp_ub		 ub;
	uint64_t		 i = 0, got = 0, n;

	a.as_path[0] = 65001;
	a.n_ext = 1;
	memcpy(a.ext[0], "\x00\x02\xfd\xe9\x00\x00\x00\x01", 8);
	*most = 0;
	while (i < want) {
		start();
		bgp_ub_begin(&ub, &w, fam, 1, 0, withdraw ? NULL : &a, &sc,
		    BGP_MAX_LEN);
		i += bgp_ub_add_routes(&ub, fam, &gen0, &first, i, want - i);
		if (bgp_ub_end(&ub) == -1 || bgp_update_decode(w.data,
		    w.len, &sc, &u, &e) == -1)
			return 0;
		if (withdraw ? u.mp_unreach_fam != fam : u.mp_reach_fam != fam)
			return 0;
		bgp_family_check(fam, rbuf_ptr(withdraw ? &u.mp_unreach :
		    &u.mp_reach), rbuf_left(withdraw ? &u.mp_unreach :
		    &u.mp_reach), 0, &n);
		got += n;
		*most = ub.count > *most ? ub.count : *most;
	}
	return got;
}

/* One UPDATE from route n on: by the family's run (in place, stepped)
 * or one route at a time (nth and encode); its bytes into d. */
static size_t
one_update(unsigned fam, const struct bgp_gen *g, uint64_t n, int withdraw,
    int by_run, uint8_t *d, uint32_t *count)
{
	const struct bgp_family	*f = &bgp_families[fam];
	struct bgp_prefix	 first = pfx(f->addr_af == BGP_AF_IPV6 ?
	    "2001:db8::/56" : "10.0.0.0/23");
	struct bgp_sess_caps	 sc = { .as4 = 1, .fam_rx = 1u << fam };
	struct bgp_attrs	 a = { .n_as = 1 };
	struct bgp_route	 r;
	struct bgp_ub		 ub;
	uint64_t		 i;

	a.as_path[0] = 65001;
	start();
	bgp_ub_begin(&ub, &w, fam, 1, 0, withdraw ? NULL : &a, &sc,
	    BGP_MAX_LEN);
	if (by_run)
		bgp_ub_add_routes(&ub, fam, g, &first, n, 100000);
	else
		for (i = n; ; i++) {
			f->nth(f, g, &first, i, &r);
			if (bgp_ub_add_route(&ub, &r) != 0)
				break;
		}
	bgp_ub_end(&ub);
	*count = ub.count;
	memcpy(d, w.data, w.len);
	return w.len;
}

/* The run steps each route from the one before: it must write what
 * nth and encode give, across RD and label wraps. */
static void
test_run_equals_nth(void)
{
	static uint8_t	 a[4096], b[4096];
	struct bgp_gen	 g = gen0;
	unsigned	 fam, mode, wd;
	uint32_t	 ca, cb;
	size_t		 na, nb;

	for (fam = BGP_AF_MAX; fam < BGP_FAM_LS; fam++)
		for (mode = 0; mode < 4; mode++)
			for (wd = 0; wd < 2; wd++) {
				g.label_per_rd = mode & 1;
				g.rd_type = mode & 2 ? 1 : 0;
				g.rd_count = mode & 2 ? 7 : 3;
				g.label_base = mode & 1 ? 1048574 : 1048500;
				na = one_update(fam, &g, 1000, wd, 1, a, &ca);
				nb = one_update(fam, &g, 1000, wd, 0, b, &cb);
				CHECK(ca == cb && ca > 100 && na == nb &&
				    memcmp(a, b, na) == 0,
				    "%s mode %u%s: run %u = one by one %u",
				    bgp_families[fam].name, mode,
				    wd ? " withdrawn" : "", ca, cb);
			}
}

static void
test_update_packing(void)
{
	uint32_t	most;
	unsigned	fam;

	for (fam = BGP_AF_MAX; fam < BGP_FAM_LS; fam++) {
		/* EVPN's MAC/IP routes are 39 bytes: about 100 fit. */
		CHECK(pack_family(fam, 3000, &most, 0) == 3000 && most > 150 -
		    (fam == BGP_FAM_EVPN) * 60,
		    "%s: 3000 routes, %u in the fullest UPDATE",
		    bgp_families[fam].name, most);
		CHECK(pack_family(fam, 3000, &most, 1) == 3000 && most > 150 -
		    (fam == BGP_FAM_EVPN) * 60,
		    "%s: 3000 withdrawn, %u in the fullest UPDATE",
		    bgp_families[fam].name, most);
	}
}

/* What a session that did not negotiate the family (the controller's
 * speaker) makes of it: nothing, as before (RFC 4760 section 6). */
static void
test_update_not_negotiated(void)
{
	struct bgp_sess_caps	 sc = { .as4 = 1, .fam_rx = 1u << BGP_FAM_VPN4 };
	struct bgp_sess_caps	 plain = { .as4 = 1 };
	struct bgp_update	 u;
	struct bgp_err		 e;
	struct vec		 v;

	/* ORIGIN, AS_PATH, MP_REACH VPN-IPv4 with a 33-bit prefix. */
	mkupd(&v, "", "40 01 01 00 40 02 00 "
	    "90 0e 00 1e 00 01 80 0c 00 00 00 00 00 00 00 00 c0 00 02 01 00 "
	    "79 00 01 41 00 00 fd e9 00 00 00 02 0a", "");
	CHECK(bgp_update_decode(v.b, v.len, &plain, &u, &e) == 0 &&
	    u.mp_reach_fam == BGP_FAM_MAX && u.mp_reach_af == BGP_AF_MAX,
	    "not negotiated: ignored");
	CHECK(bgp_update_decode(v.b, v.len, &sc, &u, &e) == -1 &&
	    e.code == BGP_ERR_UPDATE && e.subcode == BGP_ERR_UPD_OPTATTR,
	    "negotiated: malformed NLRI resets the session");
	/* End-of-RIB of VPN-IPv4 (RFC 4724 section 2). */
	start();
	bgp_eor_encode(&w, BGP_FAM_VPN4);
	CHECK(bgp_update_decode(w.data, w.len, &sc, &u, &e) == 0 &&
	    u.end_of_rib && u.eor_af == BGP_FAM_VPN4, "End-of-RIB");
}

static void
test_open_caps(void)
{
	struct bgp_open	o, back;
	struct bgp_err	e;
	struct vec	v;

	memset(&o, 0, sizeof(o));
	o.version = 4;
	o.my_as = 65001;
	o.hold = 90;
	o.bgp_id = 0x01020304;
	o.caps.mp[BGP_AF_IPV4] = 1;
	o.caps.mp_fam = 1u << BGP_FAM_VPN4 | 1u << BGP_FAM_LU4;
	start();
	bgp_open_encode(&w, &o);
	vec(&v, MARKER "00 31 01 04 fd e9 00 5a 01 02 03 04 14 02 12 "
	    "01 04 00 01 00 01 "
	    "01 04 00 01 00 80 "	/* AFI 1 SAFI 128 */
	    "01 04 00 01 00 04");	/* AFI 1 SAFI 4 */
	CHECK_BYTES(w.data, w.len, v.b, v.len, "one MP capability each");
	CHECK(bgp_open_decode(w.data, w.len, &back, &e) == 0 &&
	    back.caps.mp[BGP_AF_IPV4] && !back.caps.mp[BGP_AF_IPV6] &&
	    back.caps.mp_fam == o.caps.mp_fam, "decoded back");
}

static const struct check_case cases[] = {
	CASE(test_table),
	CASE(test_vpn4_vector),
	CASE(test_lu_vpn6_vectors),
	CASE(test_round_trip),
	CASE(test_malformed),
	CASE(test_run_equals_nth),
	CASE(test_update_packing),
	CASE(test_update_not_negotiated),
	CASE(test_open_caps),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
