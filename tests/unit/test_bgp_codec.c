/*
 * BGP codec against byte vectors written out field by field from RFC 4271
 * section 4 (messages), RFC 5492 / 4760 / 2918 / 7313 / 4724 / 6793 / 7911
 * (capabilities), RFC 4760 sections 3-4 (MP_REACH / MP_UNREACH), RFC 4724
 * section 2 (End-of-RIB), RFC 1997 / 8092 (communities), and the OPENs of
 * real speakers captured on 127.0.0.1; then the error handling of RFC 4271
 * section 6 and RFC 7606, and the prefix helpers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgp_codec.h"
#include "check_codec.h"
#include "check_bgp.h"

#define MARKER	"ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff "

static const struct bgp_sess_caps sess_as4 = { 1, { 0, 0 }, { 0, 0 } };
static const struct bgp_sess_caps sess_as2 = { 0, { 0, 0 }, { 0, 0 } };
static const struct bgp_sess_caps sess_ap = { 1, { 1, 1 }, { 1, 1 } };

static int
pfx_eq(const struct bgp_prefix *a, const struct bgp_prefix *b)
{
	return a->af == b->af && a->len == b->len &&
	    a->path_id == b->path_id && memcmp(a->addr, b->addr, 16) == 0;
}

/* Walk an NLRI span and compare with want[0..n-1]; 1 when equal. */
static int
nlri_is(struct rbuf r, enum bgp_af af, int addpath,
    const struct bgp_prefix *want, size_t n)
{
	struct bgp_prefix	p;
	size_t			i = 0;
	int			rc;

	while ((rc = bgp_nlri_next(&r, af, addpath, &p)) == 1) {
		if (i >= n || !pfx_eq(&p, &want[i]))
			return 0;
		i++;
	}
	return rc == 0 && i == n;
}

/* ---- OPEN ---- */

/* Every capability we send: 4-octet AS 4200000001 (0xfa56ea01), so the
 * 2-octet My AS field is AS_TRANS (RFC 6793 section 4.2.1). */
#define OPEN_ALL							\
	MARKER								\
	"00 4b "		/* length 75 */				\
	"01 "			/* OPEN */				\
	"04 "			/* version 4 */				\
	"5b a0 "		/* My AS: AS_TRANS 23456 */		\
	"00 5a "		/* hold time 90 */			\
	"c0 00 02 01 "		/* BGP identifier 192.0.2.1 */		\
	"2e "			/* optional parameters length 46 */	\
	"02 2c "		/* parameter: capabilities, 44 */	\
	"01 04 00 01 00 01 "	/* MP: AFI 1, reserved, SAFI 1 */	\
	"01 04 00 02 00 01 "	/* MP: AFI 2, reserved, SAFI 1 */	\
	"02 00 "		/* route refresh */			\
	"46 00 "		/* enhanced route refresh */		\
	"40 0a "		/* graceful restart, 10 */		\
	"80 78 "		/* R bit, restart time 120 */		\
	"00 01 01 80 "		/* IPv4 unicast, F bit */		\
	"00 02 01 00 "		/* IPv6 unicast, no F bit */		\
	"41 04 fa 56 ea 01 "	/* 4-octet AS 4200000001 */		\
	"45 08 "		/* ADD-PATH, 8 */			\
	"00 01 01 03 "		/* IPv4 unicast, send/receive */	\
	"00 02 01 01 "		/* IPv6 unicast, receive */

static void
open_all(struct bgp_open *o)
{
	memset(o, 0, sizeof(*o));
	o->version = 4;
	o->my_as = BGP_AS_TRANS;
	o->hold = 90;
	o->bgp_id = 0xc0000201;
	o->caps.mp[BGP_AF_IPV4] = o->caps.mp[BGP_AF_IPV6] = 1;
	o->caps.route_refresh = 1;
	o->caps.enhanced_rr = 1;
	o->caps.graceful = 1;
	o->caps.gr_flags = 0x8;
	o->caps.gr_time = 120;
	o->caps.gr_af[BGP_AF_IPV4] = 3;
	o->caps.gr_af[BGP_AF_IPV6] = 1;
	o->caps.as4 = 1;
	o->caps.as4_number = 4200000001u;
	o->caps.addpath[BGP_AF_IPV4] = BGP_ADDPATH_SEND | BGP_ADDPATH_RECEIVE;
	o->caps.addpath[BGP_AF_IPV6] = BGP_ADDPATH_RECEIVE;
	o->caps.any = 1;
}

static void
test_open_encode_decode(void)
{
	struct bgp_open	o, back;
	struct bgp_err	e;
	struct vec	v;
	uint16_t	len;
	uint8_t		type;

	open_all(&o);
	vec(&v, OPEN_ALL);
	start();
	CHECK(bgp_open_encode(&w, &o) == 0, "OPEN with every capability encodes");
	CHECK_OUT(&v, "OPEN with every capability: exact bytes");
	CHECK(bgp_header_decode(w.data, w.len, &len, &type, &e) == 0 &&
	    len == 75 && type == BGP_OPEN, "OPEN header decodes");
	CHECK(bgp_open_decode(v.b, v.len, &back, &e) == 0, "OPEN decodes");
	CHECK(memcmp(&o, &back, sizeof(o)) == 0,
	    "OPEN decodes to what was encoded");
	CHECK(back.my_as == 23456 && back.caps.as4_number == 4200000001u,
	    "AS_TRANS in My AS, the real AS in the capability");
	CHECK(back.caps.gr_af[BGP_AF_IPV4] == 3 &&
	    back.caps.gr_af[BGP_AF_IPV6] == 1 && back.caps.gr_flags == 8 &&
	    back.caps.gr_time == 120, "graceful restart flags and families");

	/* No capabilities at all: no optional parameter. */
	memset(&o, 0, sizeof(o));
	o.version = 4;
	o.my_as = 65001;
	o.hold = 0;
	o.bgp_id = 0x0a000001;
	vec(&v, MARKER
	    "00 1d "		/* length 29 */
	    "01 "		/* OPEN */
	    "04 "		/* version */
	    "fd e9 "		/* AS 65001 */
	    "00 00 "		/* hold time 0: no keepalives */
	    "0a 00 00 01 "	/* 10.0.0.1 */
	    "00 ");		/* no optional parameters */
	start();
	CHECK(bgp_open_encode(&w, &o) == 0, "bare OPEN encodes");
	CHECK_OUT(&v, "bare OPEN: 29 bytes, no parameters");
	CHECK(bgp_open_decode(v.b, v.len, &back, &e) == 0 && !back.caps.any &&
	    back.hold == 0 && back.my_as == 65001, "bare OPEN decodes");

	/* A too small buffer fails the encoder. */
	open_all(&o);
	wbuf_init(&w, out, 40);
	CHECK(bgp_open_encode(&w, &o) == -1 && w.err,
	    "OPEN into a 40-byte buffer fails");
}

/* An OPEN body (after the header) wrapped with its header. */
static void
mkopen(struct vec *v, const char *body)
{
	uint8_t	b[4096];
	size_t	n = check_unhex(body, b, sizeof(b)), total = BGP_HEADER_LEN + n;

	memset(v->b, 0xff, BGP_MARKER_LEN);
	v->b[16] = (uint8_t)(total >> 8);
	v->b[17] = (uint8_t)total;
	v->b[18] = BGP_OPEN;
	memcpy(v->b + BGP_HEADER_LEN, b, n);
	v->len = total;
}

static int
open_err(const char *body, uint8_t code, uint8_t sub)
{
	struct bgp_open	o;
	struct bgp_err	e;
	struct vec	v;

	mkopen(&v, body);
	memset(&e, 0xee, sizeof(e));
	return bgp_open_decode(v.b, v.len, &o, &e) == -1 && e.code == code &&
	    e.subcode == sub;
}

static void
test_open_errors(void)
{
	struct bgp_open	o;
	struct bgp_err	e;
	struct vec	v;

	/* Section 6.2: version 3 → 2/1, data the version we support. */
	mkopen(&v, "03 fd e9 00 5a 0a 00 00 01 00");
	CHECK(bgp_open_decode(v.b, v.len, &o, &e) == -1 &&
	    e.code == BGP_ERR_OPEN && e.subcode == BGP_ERR_OPEN_VERSION &&
	    e.datalen == 2 && e.data[0] == 0x00 && e.data[1] == 0x04,
	    "version 3: 2/1 with data 00 04");
	CHECK(open_err("05 fd e9 00 5a 0a 00 00 01 00", 2, 1),
	    "version 5: 2/1");
	CHECK(open_err("04 fd e9 00 01 0a 00 00 01 00", 2, 6),
	    "hold time 1: 2/6");
	CHECK(open_err("04 fd e9 00 02 0a 00 00 01 00", 2, 6),
	    "hold time 2: 2/6");
	mkopen(&v, "04 fd e9 00 03 0a 00 00 01 00");
	CHECK(bgp_open_decode(v.b, v.len, &o, &e) == 0 && o.hold == 3,
	    "hold time 3 is fine");
	CHECK(open_err("04 fd e9 00 5a 00 00 00 00 00", 2, 3),
	    "BGP identifier 0: 2/3");
	CHECK(open_err("04 00 00 00 5a 0a 00 00 01 00", 2, 2),
	    "My AS 0: 2/2 (RFC 7607)");
	CHECK(open_err("04 5b a0 00 5a 0a 00 00 01 08 02 06 41 04 00 00 00 00",
	    2, 2), "4-octet AS 0: 2/2");
	/* Optional parameter 1 (authentication, deprecated) → 2/4. */
	CHECK(open_err("04 fd e9 00 5a 0a 00 00 01 "
	    "04 "		/* parameters length 4 */
	    "01 02 aa bb",	/* type 1, 2 bytes */
	    2, 4), "unknown optional parameter: 2/4");
	/* A parameter longer than the parameters. */
	CHECK(open_err("04 fd e9 00 5a 0a 00 00 01 "
	    "06 "		/* parameters length 6 */
	    "02 06 02 00 02 00",	/* capabilities, 6 (only 4 there) */
	    2, 0), "parameter overruns the parameters: 2/0");
	/* Parameters length past the message. */
	CHECK(open_err("04 fd e9 00 5a 0a 00 00 01 "
	    "08 "		/* parameters length 8, 4 follow */
	    "02 02 02 00", 2, 0), "parameters length past the message: 2/0");
	/* A parameter length byte missing. */
	CHECK(open_err("04 fd e9 00 5a 0a 00 00 01 01 02", 2, 0),
	    "parameter without its length: 2/0");
	/* A capability longer than its parameter. */
	CHECK(open_err("04 fd e9 00 5a 0a 00 00 01 "
	    "06 "		/* parameters length 6 */
	    "02 04 "		/* capabilities, 4 */
	    "41 04 00 00",	/* AS4 claims 4, 2 there */
	    2, 0), "capability overruns its parameter: 2/0");
	/* A body shorter than the fixed fields. */
	mkopen(&v, "04 fd e9 00 5a 0a 00");
	CHECK(bgp_open_decode(v.b, v.len, &o, &e) == -1 &&
	    e.code == BGP_ERR_HEADER && e.subcode == BGP_ERR_HDR_LEN,
	    "truncated OPEN: 1/2");
	CHECK(bgp_open_decode(v.b, 10, &o, &e) == -1,
	    "a buffer shorter than the header fails, no wrap");

	/* Capabilities that are ignored: unknown ones, malformed known
	 * ones; several capability parameters add up (RFC 5492 4). */
	mkopen(&v, "04 fd e9 00 5a 0a 00 00 01 "
	    "16 "			/* parameters length 22 */
	    "02 06 "			/* capabilities, 6 */
	    "01 04 00 02 00 01 "	/* MP IPv6 unicast */
	    "02 0c "			/* capabilities, 12 */
	    "01 03 00 01 00 "		/* MP, length 3: ignored */
	    "49 00 "			/* unknown 73, empty */
	    "41 03 00 00 01");		/* AS4, length 3: ignored */
	CHECK(bgp_open_decode(v.b, v.len, &o, &e) == 0 &&
	    o.caps.mp[BGP_AF_IPV6] && !o.caps.mp[BGP_AF_IPV4] &&
	    !o.caps.as4 && o.caps.any,
	    "two capability parameters, malformed and unknown ones ignored");
	mkopen(&v, "04 fd e9 00 5a 0a 00 00 01 "
	    "10 "			/* parameters length 16 */
	    "02 0e "			/* capabilities, 14 */
	    "01 04 00 01 00 80 "	/* MP IPv4 SAFI 128: not ours */
	    "45 04 00 02 01 02 "	/* ADD-PATH IPv6 send */
	    "02 00");			/* route refresh */
	CHECK(bgp_open_decode(v.b, v.len, &o, &e) == 0 &&
	    !o.caps.mp[BGP_AF_IPV4] &&
	    o.caps.addpath[BGP_AF_IPV6] == BGP_ADDPATH_SEND &&
	    o.caps.addpath[BGP_AF_IPV4] == 0 && o.caps.route_refresh,
	    "SAFI 128 not carried; ADD-PATH IPv6 send; route refresh");
}

/*
 * OPENs of real speakers, captured on 127.0.0.1 by connecting to each
 * (passive, neighbor 127.0.0.1 AS 65001) from a small Python client that
 * sent an OPEN and printed what came back.  BIRD 2.0.12 was not captured:
 * it refuses a loopback neighbor ("Invalid remote address").
 */
static void
test_open_real_peers(void)
{
	struct bgp_open	o;
	struct bgp_err	e;
	struct vec	v;
	uint16_t	len;
	uint8_t		type;

	/* GoBGP 3.10.0 (gobgpd, AS 65020, router id 192.0.2.20). */
	vec(&v, MARKER
	    "00 41 "			/* length 65 */
	    "01 "			/* OPEN */
	    "04 "			/* version */
	    "fd fc "			/* AS 65020 */
	    "00 5a "			/* hold 90 */
	    "c0 00 02 14 "		/* 192.0.2.20 */
	    "24 "			/* parameters length 36 */
	    "02 22 "			/* capabilities, 34 */
	    "02 00 "			/* route refresh */
	    "49 04 02 76 6d 00 "	/* FQDN (73): host "vm", no domain */
	    "01 04 00 01 00 01 "	/* MP IPv4 unicast */
	    "01 04 00 02 00 01 "	/* MP IPv6 unicast */
	    "41 04 00 00 fd fc "	/* 4-octet AS 65020 */
	    "05 06 00 01 00 01 00 02");	/* extended next hop (RFC 8950) */
	CHECK(bgp_header_decode(v.b, v.len, &len, &type, &e) == 0 &&
	    len == v.len && type == BGP_OPEN, "GoBGP OPEN header");
	CHECK(bgp_open_decode(v.b, v.len, &o, &e) == 0, "GoBGP OPEN decodes");
	CHECK(o.my_as == 65020 && o.hold == 90 && o.bgp_id == 0xc0000214 &&
	    o.caps.mp[BGP_AF_IPV4] && o.caps.mp[BGP_AF_IPV6] &&
	    o.caps.route_refresh && !o.caps.enhanced_rr && o.caps.as4 &&
	    o.caps.as4_number == 65020 && !o.caps.graceful &&
	    o.caps.addpath[0] == 0 && o.caps.addpath[1] == 0,
	    "GoBGP OPEN: AS, hold, id, MP both, RR, AS4; FQDN, ENH ignored");

	/* FRR 8.4.4 bgpd (AS 65030): one capability per parameter. */
	vec(&v, MARKER
	    "00 71 "			/* length 113 */
	    "01 "			/* OPEN */
	    "04 "			/* version */
	    "fe 06 "			/* AS 65030 */
	    "00 b4 "			/* hold 180 */
	    "c0 00 02 1e "		/* 192.0.2.30 */
	    "54 "			/* parameters length 84 */
	    "02 06 01 04 00 01 00 01 "	/* MP IPv4 unicast */
	    "02 06 01 04 00 02 00 01 "	/* MP IPv6 unicast */
	    "02 02 80 00 "		/* old Cisco route refresh (128) */
	    "02 02 02 00 "		/* route refresh */
	    "02 02 46 00 "		/* enhanced route refresh */
	    "02 06 41 04 00 00 fe 06 "	/* 4-octet AS 65030 */
	    "02 02 06 00 "		/* extended message (RFC 8654) */
	    "02 0a 45 08 "		/* ADD-PATH, 8 */
	    "00 01 01 01 "		/* IPv4 unicast receive */
	    "00 02 01 01 "		/* IPv6 unicast receive */
	    "02 06 49 04 02 76 6d 00 "	/* FQDN "vm" */
	    "02 04 40 02 c0 78 "	/* GR: R and N bits, 120 s, no AF */
	    "02 10 47 0e "		/* long-lived GR (71), 14 */
	    "00 01 01 80 00 00 00 "
	    "00 02 01 80 00 00 00");
	CHECK(bgp_open_decode(v.b, v.len, &o, &e) == 0, "FRR OPEN decodes");
	CHECK(o.my_as == 65030 && o.hold == 180 && o.bgp_id == 0xc000021e &&
	    o.caps.mp[BGP_AF_IPV4] && o.caps.mp[BGP_AF_IPV6] &&
	    o.caps.route_refresh && o.caps.enhanced_rr && o.caps.as4 &&
	    o.caps.as4_number == 65030, "FRR OPEN: AS, hold, id, caps");
	CHECK(o.caps.addpath[BGP_AF_IPV4] == BGP_ADDPATH_RECEIVE &&
	    o.caps.addpath[BGP_AF_IPV6] == BGP_ADDPATH_RECEIVE,
	    "FRR OPEN: ADD-PATH receive for both families");
	CHECK(o.caps.graceful && o.caps.gr_flags == 0xc &&
	    o.caps.gr_time == 120 && o.caps.gr_af[0] == 0 &&
	    o.caps.gr_af[1] == 0, "FRR OPEN: graceful restart R+N, 120 s");

	/* ExaBGP 4.2.21 (AS 65040, graceful-restart 120, add-path
	 * send/receive). */
	vec(&v, MARKER
	    "00 5b "			/* length 91 */
	    "01 "			/* OPEN */
	    "04 "			/* version */
	    "fe 10 "			/* AS 65040 */
	    "00 b4 "			/* hold 180 */
	    "c0 00 02 28 "		/* 192.0.2.40 */
	    "3e "			/* parameters length 62 */
	    "02 06 01 04 00 01 00 01 "	/* MP IPv4 unicast */
	    "02 06 01 04 00 02 00 01 "	/* MP IPv6 unicast */
	    "02 06 41 04 00 00 fe 10 "	/* 4-octet AS 65040 */
	    "02 0a 45 08 "		/* ADD-PATH, 8 */
	    "00 01 01 03 "		/* IPv4 send/receive */
	    "00 02 01 03 "		/* IPv6 send/receive */
	    "02 0c 40 0a "		/* graceful restart, 10 */
	    "80 78 "			/* R bit, 120 s */
	    "00 01 01 80 "		/* IPv4, F bit */
	    "00 02 01 80 "		/* IPv6, F bit */
	    "02 02 02 00 "		/* route refresh */
	    "02 02 46 00 "		/* enhanced route refresh */
	    "02 02 06 00");		/* extended message */
	CHECK(bgp_open_decode(v.b, v.len, &o, &e) == 0, "ExaBGP OPEN decodes");
	CHECK(o.my_as == 65040 && o.hold == 180 && o.bgp_id == 0xc0000228 &&
	    o.caps.as4_number == 65040 && o.caps.route_refresh &&
	    o.caps.enhanced_rr && o.caps.addpath[0] == 3 &&
	    o.caps.addpath[1] == 3 && o.caps.graceful &&
	    o.caps.gr_flags == 8 && o.caps.gr_time == 120 &&
	    o.caps.gr_af[0] == 3 && o.caps.gr_af[1] == 3,
	    "ExaBGP OPEN: ADD-PATH send/receive, GR with F bits");
}

/* ---- KEEPALIVE, NOTIFICATION, ROUTE-REFRESH, header ---- */

static void
test_small_messages(void)
{
	struct bgp_err	e;
	struct vec	v;
	enum bgp_af	af;
	uint8_t		code, sub, subtype;
	uint8_t		big[5000];

	vec(&v, MARKER "00 13 04");
	start();
	CHECK(bgp_keepalive_encode(&w) == 0, "KEEPALIVE encodes");
	CHECK_OUT(&v, "KEEPALIVE: exactly 19 bytes");

	/* Cease / administrative shutdown with a shutdown communication
	 * (RFC 9003: length byte, UTF-8). */
	vec(&v, MARKER
	    "00 19 "		/* length 25 */
	    "03 "		/* NOTIFICATION */
	    "06 "		/* cease */
	    "02 "		/* administrative shutdown */
	    "03 62 79 65");	/* "bye" */
	start();
	CHECK(bgp_notification_encode(&w, 6, 2, "\003bye", 4) == 0,
	    "NOTIFICATION encodes");
	CHECK_OUT(&v, "NOTIFICATION 6/2 with data");
	CHECK(bgp_notification_decode(v.b, v.len, &code, &sub) == 0 &&
	    code == 6 && sub == 2, "NOTIFICATION decodes 6/2");
	CHECK(bgp_notification_decode(v.b, 20, &code, &sub) == -1,
	    "NOTIFICATION of 20 bytes: too short");
	vec(&v, MARKER "00 15 03 04 00");
	start();
	CHECK(bgp_notification_encode(&w, 4, 0, NULL, 0) == 0,
	    "hold timer expired encodes");
	CHECK_OUT(&v, "NOTIFICATION without data: 21 bytes");
	memset(big, 0xab, sizeof(big));
	start();
	CHECK(bgp_notification_encode(&w, 3, 1, big, sizeof(big)) == 0 &&
	    w.len == BGP_MAX_LEN && out[16] == 0x10 && out[17] == 0x00,
	    "NOTIFICATION data cut to fit 4096 bytes");

	/* bgp_msg_end refuses a message past 4096 bytes (RFC 4271 4.1). */
	{
		size_t	at;

		start();
		at = bgp_msg_begin(&w, BGP_UPDATE);
		wbuf_put_zero(&w, BGP_MAX_LEN - BGP_HEADER_LEN);
		CHECK(bgp_msg_end(&w, at) == 0 && out[16] == 0x10 &&
		    out[17] == 0, "a 4096-byte message ends fine");
		start();
		at = bgp_msg_begin(&w, BGP_UPDATE);
		wbuf_put_zero(&w, BGP_MAX_LEN - BGP_HEADER_LEN + 1);
		CHECK(bgp_msg_end(&w, at) == -1 && w.err,
		    "a 4097-byte message fails");
	}

	CHECK(strcmp(bgp_err_name(3, 11),
	    "UPDATE message error / malformed AS_PATH") == 0,
	    "bgp_err_name 3/11");
	CHECK(strcmp(bgp_err_name(6, 2),
	    "cease / administrative shutdown") == 0, "bgp_err_name 6/2");
	CHECK(strcmp(bgp_err_name(1, 3),
	    "message header error / bad message type") == 0,
	    "bgp_err_name 1/3");
	CHECK(strcmp(bgp_err_name(2, 6),
	    "OPEN message error / unacceptable hold time") == 0,
	    "bgp_err_name 2/6");
	CHECK(strcmp(bgp_err_name(4, 0), "hold timer expired / 0") == 0,
	    "bgp_err_name 4/0: no subcode names");
	CHECK(strcmp(bgp_err_name(1, 9), "message header error / 9") == 0,
	    "bgp_err_name 1/9: subcode past the table");
	CHECK(strcmp(bgp_err_name(9, 1), "error code 9 / 1") == 0,
	    "bgp_err_name 9/1: code past the table");
	CHECK(strcmp(bgp_err_name(255, 255), "error code 255 / 255") == 0,
	    "bgp_err_name 255/255");

	/* ROUTE-REFRESH (RFC 2918 section 3, RFC 7313 subtype). */
	vec(&v, MARKER
	    "00 17 "		/* length 23 */
	    "05 "		/* ROUTE-REFRESH */
	    "00 02 "		/* AFI IPv6 */
	    "00 "		/* subtype 0: normal */
	    "01");		/* SAFI unicast */
	start();
	CHECK(bgp_route_refresh_encode(&w, BGP_AF_IPV6, 0) == 0,
	    "ROUTE-REFRESH encodes");
	CHECK_OUT(&v, "ROUTE-REFRESH IPv6 unicast");
	CHECK(bgp_route_refresh_decode(v.b, v.len, &af, &subtype, &e) == 0 &&
	    af == BGP_AF_IPV6 && subtype == 0, "ROUTE-REFRESH decodes");
	vec(&v, MARKER "00 17 05 00 01 01 01");
	start();
	CHECK(bgp_route_refresh_encode(&w, BGP_AF_IPV4, 1) == 0,
	    "BoRR encodes");
	CHECK_OUT(&v, "ROUTE-REFRESH IPv4, subtype 1 (BoRR, RFC 7313)");
	CHECK(bgp_route_refresh_decode(v.b, v.len, &af, &subtype, &e) == 0 &&
	    af == BGP_AF_IPV4 && subtype == 1, "BoRR decodes");
	vec(&v, MARKER "00 17 05 00 03 00 01");
	CHECK(bgp_route_refresh_decode(v.b, v.len, &af, &subtype, &e) == 1 &&
	    af == BGP_AF_MAX, "ROUTE-REFRESH AFI 3: 1, not carried");
	vec(&v, MARKER "00 17 05 00 01 00 80");
	CHECK(bgp_route_refresh_decode(v.b, v.len, &af, &subtype, &e) == 1,
	    "ROUTE-REFRESH SAFI 128: 1");
	vec(&v, MARKER "00 18 05 00 01 00 01 00");
	CHECK(bgp_route_refresh_decode(v.b, v.len, &af, &subtype, &e) == -1 &&
	    e.code == 1 && e.subcode == 2, "ROUTE-REFRESH of 24 bytes: 1/2");
	CHECK(bgp_af_from(1, 1) == BGP_AF_IPV4 &&
	    bgp_af_from(2, 1) == BGP_AF_IPV6 &&
	    bgp_af_from(2, 2) == BGP_AF_MAX &&
	    bgp_af_from(25, 65) == BGP_AF_MAX &&
	    bgp_af_afi(BGP_AF_IPV4) == 1 && bgp_af_afi(BGP_AF_IPV6) == 2,
	    "AFI/SAFI mapping");
}

static int
hdr_err(const char *hex, uint8_t code, uint8_t sub, const char *data)
{
	struct bgp_err	e;
	struct vec	v, d;
	uint16_t	len;
	uint8_t		type;

	vec(&v, hex);
	vec(&d, data);
	memset(&e, 0, sizeof(e));
	return bgp_header_decode(v.b, v.len, &len, &type, &e) == -1 &&
	    e.code == code && e.subcode == sub && e.datalen == d.len &&
	    memcmp(e.data, d.b, d.len) == 0;
}

static void
test_header(void)
{
	struct bgp_err	e;
	struct vec	v;
	uint16_t	len;
	uint8_t		type;

	vec(&v, MARKER "00 13 04");
	CHECK(bgp_header_decode(v.b, v.len, &len, &type, &e) == 0 &&
	    len == 19 && type == BGP_KEEPALIVE, "KEEPALIVE header");
	vec(&v, MARKER "10 00 02");
	CHECK(bgp_header_decode(v.b, v.len, &len, &type, &e) == 0 &&
	    len == 4096 && type == BGP_UPDATE, "4096-byte UPDATE header");
	CHECK(hdr_err("ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff fe 00 13 04",
	    1, 1, ""), "marker not all ones: 1/1");
	CHECK(hdr_err("00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 13 04",
	    1, 1, ""), "zero marker: 1/1");
	CHECK(hdr_err(MARKER "00 12 04", 1, 2, "00 12"),
	    "length 18: 1/2, data the length");
	CHECK(hdr_err(MARKER "10 01 02", 1, 2, "10 01"),
	    "length 4097: 1/2, data the length");
	CHECK(hdr_err(MARKER "00 14 04", 1, 2, "00 14"),
	    "KEEPALIVE of 20: 1/2, data the length");
	CHECK(hdr_err(MARKER "00 1c 01", 1, 2, "00 1c"), "OPEN of 28: 1/2");
	CHECK(hdr_err(MARKER "00 16 02", 1, 2, "00 16"), "UPDATE of 22: 1/2");
	CHECK(hdr_err(MARKER "00 14 03", 1, 2, "00 14"),
	    "NOTIFICATION of 20: 1/2");
	CHECK(hdr_err(MARKER "00 18 05", 1, 2, "00 18"),
	    "ROUTE-REFRESH of 24: 1/2");
	CHECK(hdr_err(MARKER "00 13 06", 1, 3, "06"),
	    "type 6: 1/3, data the type");
	CHECK(hdr_err(MARKER "00 13 00", 1, 3, "00"), "type 0: 1/3");
	vec(&v, MARKER "00");
	CHECK(bgp_header_decode(v.b, v.len, &len, &type, &e) == -1,
	    "17 bytes: no header");
}

/* ---- UPDATE ---- */

/* Origin IGP, AS 65001 then 4200000001, next hop 192.0.2.1, MED 100,
 * LOCAL_PREF 200, community 65000:100, large 4200000001:1:2. */
static void
attrs_full(struct bgp_attrs *a)
{
	memset(a, 0, sizeof(*a));
	a->origin = BGP_ORIGIN_IGP;
	a->n_as = 2;
	a->as_path[0] = 65001;
	a->as_path[1] = 4200000001u;
	a->next_hop4[0] = 192;
	a->next_hop4[1] = 0;
	a->next_hop4[2] = 2;
	a->next_hop4[3] = 1;
	a->has_med = 1;
	a->med = 100;
	a->has_local_pref = 1;
	a->local_pref = 200;
	a->n_comm = 1;
	a->comm[0] = 0xfde80064;
	a->n_lcomm = 1;
	a->lcomm[0][0] = 4200000001u;
	a->lcomm[0][1] = 1;
	a->lcomm[0][2] = 2;
}

static void
attrs_small(struct bgp_attrs *a)
{
	memset(a, 0, sizeof(*a));
	a->origin = BGP_ORIGIN_IGP;
	a->n_as = 1;
	a->as_path[0] = 65001;
	memcpy(a->next_hop4, "\xc0\x00\x02\x01", 4);
	memcpy(a->next_hop6, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x01", 16);
}

static int
attrs_eq(const struct bgp_attrs *a, const struct bgp_attrs *b, int v6)
{
	return a->origin == b->origin && a->n_as == b->n_as &&
	    memcmp(a->as_path, b->as_path, a->n_as * 4u) == 0 &&
	    a->has_med == b->has_med && (!a->has_med || a->med == b->med) &&
	    a->has_local_pref == b->has_local_pref &&
	    (!a->has_local_pref || a->local_pref == b->local_pref) &&
	    (v6 ? memcmp(a->next_hop6, b->next_hop6, 16) == 0 :
	    memcmp(a->next_hop4, b->next_hop4, 4) == 0) &&
	    a->n_comm == b->n_comm &&
	    memcmp(a->comm, b->comm, a->n_comm * 4u) == 0 &&
	    a->n_lcomm == b->n_lcomm &&
	    memcmp(a->lcomm, b->lcomm, a->n_lcomm * 12u) == 0;
}

static void
test_update_ipv4(void)
{
	struct bgp_prefix	p[3];
	struct bgp_attrs	a, back;
	struct bgp_update	u;
	struct bgp_err		e;
	struct bgp_ub		ub;
	struct vec		v;
	uint16_t		len;
	uint8_t			type;
	int			i;

	p[0] = pfx("10.0.0.0/24");
	p[1] = pfx("10.0.1.0/24");
	p[2] = pfx("172.16.0.0/12");
	attrs_full(&a);

	/* A 4-octet session: AS_PATH with 4-byte ASes. */
	vec(&v, MARKER
	    "00 5e "			/* length 94 */
	    "02 "			/* UPDATE */
	    "00 00 "			/* no withdrawn routes */
	    "00 3c "			/* path attributes, 60 */
	    "40 01 01 00 "		/* ORIGIN IGP */
	    "40 02 0a "			/* AS_PATH, 10 */
	    "02 02 "			/* AS_SEQUENCE of 2 */
	    "00 00 fd e9 "		/* 65001 */
	    "fa 56 ea 01 "		/* 4200000001 */
	    "40 03 04 c0 00 02 01 "	/* NEXT_HOP 192.0.2.1 */
	    "80 04 04 00 00 00 64 "	/* MED 100 */
	    "40 05 04 00 00 00 c8 "	/* LOCAL_PREF 200 */
	    "c0 08 04 fd e8 00 64 "	/* COMMUNITIES 65000:100 */
	    "c0 20 0c "			/* LARGE_COMMUNITY, 12 */
	    "fa 56 ea 01 00 00 00 01 00 00 00 02 "
	    "18 0a 00 00 "		/* 10.0.0.0/24 */
	    "18 0a 00 01 "		/* 10.0.1.0/24 */
	    "0c ac 10");		/* 172.16.0.0/12 */
	start();
	CHECK(bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 0, 0, &a, &sess_as4,
	    BGP_MAX_LEN) == 0, "IPv4 UPDATE begins");
	for (i = 0; i < 3; i++)
		CHECK(bgp_ub_add(&ub, &p[i]) == 0, "prefix %d added", i);
	CHECK(bgp_ub_end(&ub) == 0 && ub.count == 3, "IPv4 UPDATE ends");
	CHECK_OUT(&v, "IPv4 UPDATE, 4-octet AS_PATH: exact bytes");
	CHECK(bgp_header_decode(v.b, v.len, &len, &type, &e) == 0 &&
	    len == v.len && type == BGP_UPDATE, "its header decodes");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0,
	    "IPv4 UPDATE decodes");
	CHECK(!u.treat_as_withdraw && !u.attr_discarded && !u.end_of_rib &&
	    u.malformed == NULL, "nothing malformed");
	CHECK(u.has_origin && u.origin == 0 && u.has_as_path &&
	    u.as_path_len == 2 && u.first_as == 65001 && u.has_next_hop &&
	    memcmp(u.next_hop, a.next_hop4, 4) == 0 && u.has_med &&
	    u.med == 100 && u.has_local_pref && u.local_pref == 200 &&
	    u.n_comm == 1 && u.n_lcomm == 1, "attributes decoded");
	CHECK(u.mp_reach_af == BGP_AF_MAX && u.mp_unreach_af == BGP_AF_MAX &&
	    rbuf_left(&u.withdrawn) == 0, "no MP, no withdrawn");
	CHECK(nlri_is(u.nlri, BGP_AF_IPV4, 0, p, 3), "NLRI: the 3 prefixes");
	CHECK(bgp_update_attrs(&u, &sess_as4, &back) == 0 &&
	    attrs_eq(&a, &back, 0), "attributes re-extracted equal");

	/* A 2-octet session: AS_TRANS in AS_PATH, the real path in
	 * AS4_PATH (RFC 6793 section 4.2.2), in type order (RFC 4271 5). */
	vec(&v, MARKER
	    "00 67 "			/* length 103 */
	    "02 "			/* UPDATE */
	    "00 00 "			/* no withdrawn routes */
	    "00 45 "			/* path attributes, 69 */
	    "40 01 01 00 "		/* ORIGIN IGP */
	    "40 02 06 "			/* AS_PATH, 6 */
	    "02 02 "			/* AS_SEQUENCE of 2 */
	    "fd e9 "			/* 65001 */
	    "5b a0 "			/* AS_TRANS */
	    "40 03 04 c0 00 02 01 "	/* NEXT_HOP 192.0.2.1 */
	    "80 04 04 00 00 00 64 "	/* MED 100 */
	    "40 05 04 00 00 00 c8 "	/* LOCAL_PREF 200 */
	    "c0 08 04 fd e8 00 64 "	/* COMMUNITIES 65000:100 */
	    "c0 11 0a "			/* AS4_PATH, 10 */
	    "02 02 "			/* AS_SEQUENCE of 2 */
	    "00 00 fd e9 "		/* 65001 */
	    "fa 56 ea 01 "		/* 4200000001 */
	    "c0 20 0c "			/* LARGE_COMMUNITY, 12 */
	    "fa 56 ea 01 00 00 00 01 00 00 00 02 "
	    "18 0a 00 00 "		/* 10.0.0.0/24 */
	    "18 0a 00 01 "		/* 10.0.1.0/24 */
	    "0c ac 10");		/* 172.16.0.0/12 */
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 0, 0, &a, &sess_as2, BGP_MAX_LEN);
	for (i = 0; i < 3; i++)
		bgp_ub_add(&ub, &p[i]);
	CHECK(bgp_ub_end(&ub) == 0, "2-octet session UPDATE ends");
	CHECK_OUT(&v, "IPv4 UPDATE, 2-octet session: AS_TRANS and AS4_PATH");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as2, &u, &e) == 0 &&
	    !u.treat_as_withdraw && !u.attr_discarded && u.as_path_len == 2 &&
	    u.first_as == 65001, "2-octet UPDATE decodes");
	CHECK(nlri_is(u.nlri, BGP_AF_IPV4, 0, p, 3), "its NLRI");
	CHECK(bgp_update_attrs(&u, &sess_as2, &back) == 0 &&
	    attrs_eq(&a, &back, 0),
	    "AS_PATH and AS4_PATH merge back to the 4-byte path");
	/* The same bytes read as a 4-octet session: AS_PATH is garbage. */
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    u.treat_as_withdraw, "read as 4-octet: AS_PATH malformed");

	/* All ASes small: no AS4_PATH at all. */
	a.as_path[1] = 65002;
	a.n_comm = a.n_lcomm = 0;
	a.has_med = a.has_local_pref = 0;
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 0, 0, &a, &sess_as2, BGP_MAX_LEN);
	bgp_ub_add(&ub, &p[0]);
	bgp_ub_end(&ub);
	vec(&v, MARKER
	    "00 2f "			/* length 47 */
	    "02 "			/* UPDATE */
	    "00 00 "			/* no withdrawn routes */
	    "00 14 "			/* path attributes, 20 */
	    "40 01 01 00 "		/* ORIGIN IGP */
	    "40 02 06 02 02 fd e9 fd ea "	/* AS_PATH 65001 65002 */
	    "40 03 04 c0 00 02 01 "	/* NEXT_HOP */
	    "18 0a 00 00");		/* 10.0.0.0/24 */
	CHECK_OUT(&v, "2-octet session, small ASes: no AS4_PATH");

	/* An empty AS_PATH (iBGP origination). */
	a.n_as = 0;
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 0, 0, &a, &sess_as4, BGP_MAX_LEN);
	bgp_ub_add(&ub, &p[0]);
	bgp_ub_end(&ub);
	vec(&v, MARKER
	    "00 29 "			/* length 41 */
	    "02 00 00 "			/* UPDATE, no withdrawn */
	    "00 0e "			/* path attributes, 14 */
	    "40 01 01 00 "		/* ORIGIN IGP */
	    "40 02 00 "			/* AS_PATH, empty */
	    "40 03 04 c0 00 02 01 "	/* NEXT_HOP */
	    "18 0a 00 00");		/* 10.0.0.0/24 */
	CHECK_OUT(&v, "empty AS_PATH");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    !u.treat_as_withdraw && u.has_as_path && u.as_path_len == 0 &&
	    u.first_as == 0, "empty AS_PATH decodes: present, 0 ASes");
}

/* Fill one UPDATE with prefixes nth(first, i) until full; the count. */
static uint32_t
fill(struct bgp_ub *ub, const struct bgp_prefix *first, uint32_t max)
{
	struct bgp_prefix	p;
	uint32_t		i;

	for (i = 0; i < max; i++) {
		bgp_prefix_nth(first, i, &p);
		p.path_id = i + 1;
		if (bgp_ub_add(ub, &p) == 1)
			break;
	}
	return i;
}

/* Decode an UPDATE full of nth prefixes and check them all. */
static int
all_nth(struct rbuf r, const struct bgp_prefix *first, int addpath,
    uint32_t n)
{
	struct bgp_prefix	p, want;
	uint32_t		i = 0;
	int			rc;

	while ((rc = bgp_nlri_next(&r, (enum bgp_af)first->af, addpath,
	    &p)) == 1) {
		bgp_prefix_nth(first, i, &want);
		want.path_id = addpath ? i + 1 : 0;
		if (!pfx_eq(&p, &want))
			return 0;
		i++;
	}
	return rc == 0 && i == n;
}

static void
test_update_packing(void)
{
	struct bgp_prefix	first;
	struct bgp_attrs	a;
	struct bgp_update	u;
	struct bgp_err		e;
	struct bgp_ub		ub;
	uint32_t		n;

	attrs_small(&a);

	/* IPv4 /24: 23 bytes of UPDATE framing, 20 of attributes (ORIGIN
	 * 4, AS_PATH 3 + 6, NEXT_HOP 7), 4 bytes a prefix: 4053 / 4. */
	first = pfx("10.0.0.0/24");
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 0, 0, &a, &sess_as4, BGP_MAX_LEN);
	n = fill(&ub, &first, 100000);
	CHECK(bgp_ub_end(&ub) == 0 && !w.err, "full IPv4 UPDATE ends");
	CHECK(n == 1013 && ub.count == 1013,
	    "1013 /24s fit one UPDATE (got %u)", n);
	CHECK(w.len == 23 + 20 + 1013 * 4 && w.len <= BGP_MAX_LEN,
	    "and it is 4095 bytes (%zu)", w.len);
	CHECK(bgp_update_decode(w.data, w.len, &sess_as4, &u, &e) == 0 &&
	    !u.treat_as_withdraw && all_nth(u.nlri, &first, 0, n),
	    "it decodes to the 1013 prefixes");

	/* /32: 5 bytes each, 4053 / 5 = 810. */
	first = pfx("10.0.0.1/32");
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 0, 0, &a, &sess_as4, BGP_MAX_LEN);
	n = fill(&ub, &first, 100000);
	bgp_ub_end(&ub);
	CHECK(n == 810 && w.len == 23 + 20 + 810 * 5,
	    "810 /32s fit (got %u, %zu bytes)", n, w.len);

	/* ADD-PATH /24: 8 bytes each, 4053 / 8 = 506. */
	first = pfx("10.0.0.0/24");
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 0, 1, &a, &sess_ap, BGP_MAX_LEN);
	n = fill(&ub, &first, 100000);
	bgp_ub_end(&ub);
	CHECK(n == 506 && w.len == 23 + 20 + 506 * 8,
	    "506 ADD-PATH /24s fit (got %u, %zu bytes)", n, w.len);
	CHECK(bgp_update_decode(w.data, w.len, &sess_ap, &u, &e) == 0 &&
	    all_nth(u.nlri, &first, 1, n), "with their path ids");

	/* A smaller limit. */
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 0, 0, &a, &sess_as4, 100);
	n = fill(&ub, &first, 100000);
	bgp_ub_end(&ub);
	CHECK(n == 14 && w.len == 99, "limit 100: 14 /24s, 99 bytes (%u, %zu)",
	    n, w.len);

	/* IPv6 /64 in MP_REACH: 23 framing, MP_REACH header 4 + AFI 2 +
	 * SAFI 1 + next hop length 1 + 16 + reserved 1 = 25, the other
	 * attributes 13 (ORIGIN 4, AS_PATH 9), 9 bytes a prefix:
	 * (4096 - 23 - 25 - 13) / 9 = 448. */
	first = pfx("2001:db8::/64");
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV6, 0, 0, &a, &sess_as4, BGP_MAX_LEN);
	n = fill(&ub, &first, 100000);
	CHECK(bgp_ub_end(&ub) == 0, "full IPv6 UPDATE ends");
	CHECK(n == 448 && w.len == 23 + 25 + 13 + 448 * 9,
	    "448 IPv6 /64s fit (got %u, %zu bytes)", n, w.len);
	CHECK(bgp_update_decode(w.data, w.len, &sess_as4, &u, &e) == 0 &&
	    !u.treat_as_withdraw && u.mp_reach_af == BGP_AF_IPV6 &&
	    all_nth(u.mp_reach, &first, 0, n), "they decode back");

	/* Attributes that do not fit the limit: begin fails. */
	start();
	CHECK(bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 0, 0, &a, &sess_as4, 40) == -1,
	    "limit 40 < 43 bytes of UPDATE: begin fails");
	start();
	CHECK(bgp_ub_begin(&ub, &w, BGP_AF_IPV6, 0, 0, &a, &sess_as4, 60) == -1,
	    "IPv6, limit 60 < 61: begin fails");

	/* IPv4 withdrawn routes: 4096 - 23 = 4073 / 4 = 1018. */
	first = pfx("10.0.0.0/24");
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 0, 0, NULL, &sess_as4, BGP_MAX_LEN);
	n = fill(&ub, &first, 100000);
	CHECK(bgp_ub_end(&ub) == 0, "full IPv4 withdraw ends");
	CHECK(n == 1018 && w.len == 23 + 1018 * 4,
	    "1018 /24 withdrawals fit (got %u, %zu bytes)", n, w.len);
	CHECK(bgp_update_decode(w.data, w.len, &sess_as4, &u, &e) == 0 &&
	    !u.end_of_rib && !u.treat_as_withdraw &&
	    all_nth(u.withdrawn, &first, 0, n), "they decode back");

	/* /32 withdrawals, 5 bytes each, the total attribute length after
	 * them: (4096 - 23) / 5 = 814. */
	first = pfx("10.0.0.1/32");
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 0, 0, NULL, &sess_as4, BGP_MAX_LEN);
	n = fill(&ub, &first, 100000);
	CHECK(bgp_ub_end(&ub) == 0 && n == 814 && w.len == 23 + 814 * 5,
	    "814 /32 withdrawals fit (got %u, %zu bytes)", n, w.len);

	/* IPv6 /48 withdrawals in MP_UNREACH: 23 + 4 + 3 = 30, 7 each:
	 * 4066 / 7 = 580. */
	first = pfx("2001:db8::/48");
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV6, 0, 0, NULL, &sess_as4, BGP_MAX_LEN);
	n = fill(&ub, &first, 100000);
	bgp_ub_end(&ub);
	CHECK(n == 580 && w.len == 30 + 580 * 7,
	    "580 IPv6 /48 withdrawals fit (got %u, %zu bytes)", n, w.len);
	CHECK(bgp_update_decode(w.data, w.len, &sess_as4, &u, &e) == 0 &&
	    u.mp_unreach_af == BGP_AF_IPV6 && !u.end_of_rib &&
	    all_nth(u.mp_unreach, &first, 0, n), "they decode back");

	/* Two UPDATEs in one buffer: the second starts where the first
	 * ended. */
	first = pfx("10.0.0.0/24");
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 0, 0, &a, &sess_as4, BGP_MAX_LEN);
	n = fill(&ub, &first, 5);
	bgp_ub_end(&ub);
	bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 0, 0, &a, &sess_as4, BGP_MAX_LEN);
	n = fill(&ub, &first, 100000);
	bgp_ub_end(&ub);
	CHECK(n == 1013 && ub.start == 43 + 5 * 4 &&
	    w.len == ub.start + 23 + 20 + 1013 * 4,
	    "a second UPDATE in the same buffer packs as full");
}

static void
test_update_ipv6(void)
{
	struct bgp_prefix	p[2], q;
	struct bgp_attrs	a, back;
	struct bgp_update	u;
	struct bgp_err		e;
	struct bgp_ub		ub;
	struct vec		v;

	p[0] = pfx("2001:db8:1::/48");
	p[1] = pfx("2001:db8:2:3::/64");
	attrs_small(&a);
	a.has_med = 1;
	a.med = 5;
	vec(&v, MARKER
	    "00 54 "			/* length 84 */
	    "02 "			/* UPDATE */
	    "00 00 "			/* no withdrawn routes */
	    "00 3d "			/* path attributes, 61 */
	    "90 0e 00 25 "		/* MP_REACH_NLRI, extended, 37 */
	    "00 02 "			/* AFI IPv6 */
	    "01 "			/* SAFI unicast */
	    "10 "			/* next hop length 16 */
	    "20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01 "
	    "00 "			/* reserved */
	    "30 20 01 0d b8 00 01 "	/* 2001:db8:1::/48 */
	    "40 20 01 0d b8 00 02 00 03 "	/* 2001:db8:2:3::/64 */
	    "40 01 01 00 "		/* ORIGIN IGP */
	    "40 02 06 02 01 00 00 fd e9 "	/* AS_PATH 65001 */
	    "80 04 04 00 00 00 05");	/* MED 5 */
	start();
	CHECK(bgp_ub_begin(&ub, &w, BGP_AF_IPV6, 0, 0, &a, &sess_as4,
	    BGP_MAX_LEN) == 0, "IPv6 UPDATE begins");
	bgp_ub_add(&ub, &p[0]);
	bgp_ub_add(&ub, &p[1]);
	CHECK(bgp_ub_end(&ub) == 0, "IPv6 UPDATE ends");
	CHECK_OUT(&v, "IPv6 UPDATE: MP_REACH first, exact bytes");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    !u.treat_as_withdraw && u.mp_reach_af == BGP_AF_IPV6 &&
	    u.mp_nh_len == 16 && !u.has_next_hop &&
	    rbuf_left(&u.nlri) == 0, "IPv6 UPDATE decodes");
	CHECK(nlri_is(u.mp_reach, BGP_AF_IPV6, 0, p, 2), "MP NLRI: both");
	CHECK(bgp_update_attrs(&u, &sess_as4, &back) == 0 &&
	    attrs_eq(&a, &back, 1), "attributes re-extracted, v6 next hop");

	/* IPv4 over MP_REACH (use_mp): no NEXT_HOP attribute. */
	q = pfx("10.0.0.0/24");
	vec(&v, MARKER
	    "00 35 "			/* length 53 */
	    "02 "			/* UPDATE */
	    "00 00 "			/* no withdrawn routes */
	    "00 1e "			/* path attributes, 30 */
	    "90 0e 00 0d "		/* MP_REACH_NLRI, 13 */
	    "00 01 "			/* AFI IPv4 */
	    "01 "			/* SAFI unicast */
	    "04 c0 00 02 01 "		/* next hop 192.0.2.1 */
	    "00 "			/* reserved */
	    "18 0a 00 00 "		/* 10.0.0.0/24 */
	    "40 01 01 00 "		/* ORIGIN IGP */
	    "40 02 06 02 01 00 00 fd e9");	/* AS_PATH 65001 */
	attrs_small(&a);
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 1, 0, &a, &sess_as4, BGP_MAX_LEN);
	bgp_ub_add(&ub, &q);
	CHECK(bgp_ub_end(&ub) == 0, "IPv4 over MP ends");
	CHECK_OUT(&v, "IPv4 in MP_REACH: exact bytes");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    !u.treat_as_withdraw && u.mp_reach_af == BGP_AF_IPV4 &&
	    u.mp_nh_len == 4 && nlri_is(u.mp_reach, BGP_AF_IPV4, 0, &q, 1),
	    "IPv4 over MP decodes, NEXT_HOP not required (RFC 4760 3)");
	CHECK(bgp_update_attrs(&u, &sess_as4, &back) == 0 &&
	    attrs_eq(&a, &back, 0), "next hop taken from MP_REACH");
}

static void
test_withdraw(void)
{
	struct bgp_prefix	p[2], q;
	struct bgp_update	u;
	struct bgp_err		e;
	struct bgp_ub		ub;
	struct vec		v;

	p[0] = pfx("10.0.0.0/24");
	p[1] = pfx("10.0.1.0/24");
	vec(&v, MARKER
	    "00 1f "			/* length 31 */
	    "02 "			/* UPDATE */
	    "00 08 "			/* withdrawn routes, 8 */
	    "18 0a 00 00 "		/* 10.0.0.0/24 */
	    "18 0a 00 01 "		/* 10.0.1.0/24 */
	    "00 00");			/* no path attributes */
	start();
	CHECK(bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 0, 0, NULL, &sess_as4,
	    BGP_MAX_LEN) == 0, "IPv4 withdraw begins");
	bgp_ub_add(&ub, &p[0]);
	bgp_ub_add(&ub, &p[1]);
	CHECK(bgp_ub_end(&ub) == 0, "IPv4 withdraw ends");
	CHECK_OUT(&v, "IPv4 withdraw: exact bytes");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    !u.treat_as_withdraw && !u.end_of_rib &&
	    nlri_is(u.withdrawn, BGP_AF_IPV4, 0, p, 2) &&
	    rbuf_left(&u.nlri) == 0, "IPv4 withdraw decodes");

	q = pfx("2001:db8:1::/48");
	vec(&v, MARKER
	    "00 25 "			/* length 37 */
	    "02 "			/* UPDATE */
	    "00 00 "			/* no withdrawn routes */
	    "00 0e "			/* path attributes, 14 */
	    "90 0f 00 0a "		/* MP_UNREACH_NLRI, 10 */
	    "00 02 "			/* AFI IPv6 */
	    "01 "			/* SAFI unicast */
	    "30 20 01 0d b8 00 01");	/* 2001:db8:1::/48 */
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV6, 0, 0, NULL, &sess_as4, BGP_MAX_LEN);
	bgp_ub_add(&ub, &q);
	CHECK(bgp_ub_end(&ub) == 0, "IPv6 withdraw ends");
	CHECK_OUT(&v, "IPv6 withdraw in MP_UNREACH: exact bytes");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    !u.treat_as_withdraw && !u.end_of_rib &&
	    u.mp_unreach_af == BGP_AF_IPV6 &&
	    nlri_is(u.mp_unreach, BGP_AF_IPV6, 0, &q, 1),
	    "IPv6 withdraw decodes, not End-of-RIB");

	/* ADD-PATH: the path id before each prefix (RFC 7911 section 3). */
	p[0].path_id = 1;
	p[1] = p[0];
	p[1].path_id = 2;
	vec(&v, MARKER
	    "00 27 "			/* length 39 */
	    "02 "			/* UPDATE */
	    "00 10 "			/* withdrawn routes, 16 */
	    "00 00 00 01 18 0a 00 00 "	/* path 1, 10.0.0.0/24 */
	    "00 00 00 02 18 0a 00 00 "	/* path 2, 10.0.0.0/24 */
	    "00 00");			/* no path attributes */
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 0, 1, NULL, &sess_ap, BGP_MAX_LEN);
	bgp_ub_add(&ub, &p[0]);
	bgp_ub_add(&ub, &p[1]);
	CHECK(bgp_ub_end(&ub) == 0, "ADD-PATH withdraw ends");
	CHECK_OUT(&v, "ADD-PATH IPv4 withdraw: path ids on the wire");
	CHECK(bgp_update_decode(v.b, v.len, &sess_ap, &u, &e) == 0 &&
	    nlri_is(u.withdrawn, BGP_AF_IPV4, 1, p, 2),
	    "ADD-PATH withdraw decodes to both paths");

	q.path_id = 7;
	vec(&v, MARKER
	    "00 29 "			/* length 41 */
	    "02 "			/* UPDATE */
	    "00 00 "			/* no withdrawn routes */
	    "00 12 "			/* path attributes, 18 */
	    "90 0f 00 0e "		/* MP_UNREACH_NLRI, 14 */
	    "00 02 01 "			/* IPv6 unicast */
	    "00 00 00 07 "		/* path id 7 */
	    "30 20 01 0d b8 00 01");	/* 2001:db8:1::/48 */
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV6, 0, 1, NULL, &sess_ap, BGP_MAX_LEN);
	bgp_ub_add(&ub, &q);
	bgp_ub_end(&ub);
	CHECK_OUT(&v, "ADD-PATH IPv6 withdraw");
	CHECK(bgp_update_decode(v.b, v.len, &sess_ap, &u, &e) == 0 &&
	    nlri_is(u.mp_unreach, BGP_AF_IPV6, 1, &q, 1),
	    "ADD-PATH IPv6 withdraw decodes");
	/* The same bytes without ADD-PATH: 0.0.0.0/0 four times, then
	 * a /48 runs short: a malformed MP_UNREACH NLRI. */
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == -1 &&
	    e.code == 3 && e.subcode == 9,
	    "path ids read without ADD-PATH: 3/9");
}

static void
test_addpath_announce(void)
{
	struct bgp_prefix	p[2];
	struct bgp_attrs	a;
	struct bgp_update	u;
	struct bgp_err		e;
	struct bgp_ub		ub;
	struct vec		v;

	attrs_small(&a);
	p[0] = pfx("2001:db8::/32");
	p[0].path_id = 0x01020304;
	p[1] = p[0];
	p[1].path_id = 9;
	vec(&v, MARKER
	    "00 4f "			/* length 79 */
	    "02 "			/* UPDATE */
	    "00 00 "			/* no withdrawn routes */
	    "00 38 "			/* path attributes, 56 */
	    "90 0e 00 27 "		/* MP_REACH_NLRI, 39 */
	    "00 02 01 "			/* IPv6 unicast */
	    "10 20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01 "
	    "00 "			/* reserved */
	    "01 02 03 04 "		/* path id */
	    "20 20 01 0d b8 "		/* 2001:db8::/32 */
	    "00 00 00 09 "		/* path id 9 */
	    "20 20 01 0d b8 "		/* 2001:db8::/32 */
	    "40 01 01 00 "		/* ORIGIN IGP */
	    "40 02 06 02 01 00 00 fd e9");	/* AS_PATH 65001 */
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV6, 0, 1, &a, &sess_ap, BGP_MAX_LEN);
	bgp_ub_add(&ub, &p[0]);
	bgp_ub_add(&ub, &p[1]);
	CHECK(bgp_ub_end(&ub) == 0, "ADD-PATH IPv6 announce ends");
	CHECK_OUT(&v, "ADD-PATH IPv6 announce: path ids in MP_REACH");
	CHECK(bgp_update_decode(v.b, v.len, &sess_ap, &u, &e) == 0 &&
	    !u.treat_as_withdraw && nlri_is(u.mp_reach, BGP_AF_IPV6, 1, p, 2),
	    "it decodes to both paths");
}

static void
test_eor(void)
{
	struct bgp_update	u;
	struct bgp_err		e;
	struct vec		v;

	vec(&v, MARKER
	    "00 17 "		/* length 23 */
	    "02 "		/* UPDATE */
	    "00 00 "		/* no withdrawn routes */
	    "00 00");		/* no path attributes */
	start();
	CHECK(bgp_eor_encode(&w, BGP_AF_IPV4) == 0, "IPv4 End-of-RIB encodes");
	CHECK_OUT(&v, "IPv4 End-of-RIB: 23 bytes");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    u.end_of_rib && u.eor_af == BGP_AF_IPV4 && !u.treat_as_withdraw,
	    "IPv4 End-of-RIB decodes as such");

	vec(&v, MARKER
	    "00 1d "		/* length 29 */
	    "02 "		/* UPDATE */
	    "00 00 "		/* no withdrawn routes */
	    "00 06 "		/* path attributes, 6 */
	    "80 0f 03 "		/* MP_UNREACH_NLRI, 3 */
	    "00 02 01");	/* IPv6 unicast, nothing withdrawn */
	start();
	CHECK(bgp_eor_encode(&w, BGP_AF_IPV6) == 0, "IPv6 End-of-RIB encodes");
	CHECK_OUT(&v, "IPv6 End-of-RIB: empty MP_UNREACH");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    u.end_of_rib && u.eor_af == BGP_AF_IPV6,
	    "IPv6 End-of-RIB decodes as such");
	/* The extended-length form some speakers send. */
	mkupd(&v, "", "90 0f 00 03 00 02 01", "");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    u.end_of_rib && u.eor_af == BGP_AF_IPV6,
	    "IPv6 End-of-RIB with an extended length");
	mkupd(&v, "", "80 0f 03 00 01 01", "");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    u.end_of_rib && u.eor_af == BGP_AF_IPV4,
	    "IPv4 End-of-RIB in MP_UNREACH");
	mkupd(&v, "", "80 0f 03 00 02 80", "");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    !u.end_of_rib, "SAFI 128 End-of-RIB: not one of ours");
	mkupd(&v, "", "40 01 01 00", "");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    !u.end_of_rib, "an UPDATE with only ORIGIN is not End-of-RIB");
}

/* ---- RFC 7606 ---- */

#define A_ORIGIN	"40 01 01 00 "
#define A_ASPATH	"40 02 06 02 01 00 00 fd e9 "	/* 4-octet 65001 */
#define A_NH		"40 03 04 c0 00 02 01 "
#define A_BASE		A_ORIGIN A_ASPATH A_NH
#define NLRI_1		"18 0a 00 00"
#define MP_REACH_V6							\
	"90 0e 00 1c "		/* MP_REACH_NLRI, 28 */			\
	"00 02 01 10 "		/* IPv6 unicast, next hop 16 */		\
	"20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01 "		\
	"00 "			/* reserved */				\
	"30 20 01 0d b8 00 01 "	/* 2001:db8:1::/48 */

/* Decode and say whether it came out as treat-as-withdraw. */
static int
taw(const char *attrs, const char *nlri)
{
	struct bgp_update	u;
	struct bgp_err		e;
	struct vec		v;

	mkupd(&v, "", attrs, nlri);
	return bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    u.treat_as_withdraw && u.malformed != NULL;
}

static int
upd_err(const char *wd, const char *attrs, const char *nlri, uint8_t code,
    uint8_t sub)
{
	struct bgp_update	u;
	struct bgp_err		e;
	struct vec		v;

	mkupd(&v, wd, attrs, nlri);
	memset(&e, 0, sizeof(e));
	return bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == -1 &&
	    e.code == code && e.subcode == sub;
}

static void
test_rfc7606(void)
{
	struct bgp_update	u;
	struct bgp_err		e;
	struct vec		v;

	/* The base is clean, so each case below is its one change. */
	mkupd(&v, "", A_BASE, NLRI_1);
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    !u.treat_as_withdraw && !u.attr_discarded, "base UPDATE is clean");
	mkupd(&v, "", MP_REACH_V6 A_ORIGIN A_ASPATH, "");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    !u.treat_as_withdraw && u.mp_reach_af == BGP_AF_IPV6,
	    "base MP UPDATE is clean");

	/* Section 7.1: ORIGIN. */
	CHECK(taw("40 01 01 03 " A_ASPATH A_NH, NLRI_1),
	    "ORIGIN 3: treat-as-withdraw");
	CHECK(taw("40 01 02 00 00 " A_ASPATH A_NH, NLRI_1),
	    "ORIGIN of length 2: treat-as-withdraw");
	/* 7.2: AS_PATH. */
	CHECK(taw(A_ORIGIN "40 02 06 02 02 00 00 fd e9 " A_NH, NLRI_1),
	    "AS_PATH segment overruns: treat-as-withdraw");
	CHECK(taw(A_ORIGIN "40 02 02 02 00 " A_NH, NLRI_1),
	    "AS_PATH segment of 0 ASes: treat-as-withdraw");
	CHECK(taw(A_ORIGIN "40 02 06 05 01 00 00 fd e9 " A_NH, NLRI_1),
	    "AS_PATH segment type 5: treat-as-withdraw");
	CHECK(taw(A_ORIGIN "40 02 07 02 01 00 00 fd e9 00 " A_NH, NLRI_1),
	    "AS_PATH with a trailing byte: treat-as-withdraw");
	/* 7.3: NEXT_HOP. */
	CHECK(taw(A_ORIGIN A_ASPATH "40 03 05 c0 00 02 01 01", NLRI_1),
	    "NEXT_HOP of length 5: treat-as-withdraw");
	/* 3 d: missing well-known attributes with NLRI. */
	CHECK(taw(A_ASPATH A_NH, NLRI_1), "no ORIGIN: treat-as-withdraw");
	CHECK(taw(A_ORIGIN A_NH, NLRI_1), "no AS_PATH: treat-as-withdraw");
	CHECK(taw(A_ORIGIN A_ASPATH, NLRI_1), "no NEXT_HOP: treat-as-withdraw");
	CHECK(taw(MP_REACH_V6 A_ASPATH, ""),
	    "MP_REACH without ORIGIN: treat-as-withdraw");
	CHECK(taw("", NLRI_1), "NLRI and no attributes: treat-as-withdraw");
	mkupd(&v, "", A_ORIGIN, "");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    !u.treat_as_withdraw, "no NLRI: nothing is mandatory");
	/* 3 g: a repeated attribute: all but the first discarded. */
	mkupd(&v, "", A_BASE "80 04 04 00 00 00 01 80 04 04 00 00 00 02",
	    NLRI_1);
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    u.attr_discarded && !u.treat_as_withdraw && u.has_med &&
	    u.med == 1, "MED twice: discarded, the first kept");
	/* 7.4 to 7.10. */
	CHECK(taw(A_BASE "80 04 03 00 00 01", NLRI_1),
	    "MED of length 3: treat-as-withdraw");
	CHECK(taw(A_BASE "40 05 05 00 00 00 00 01", NLRI_1),
	    "LOCAL_PREF of length 5: treat-as-withdraw");
	CHECK(taw(A_BASE "c0 08 03 00 00 01", NLRI_1),
	    "COMMUNITIES of length 3: treat-as-withdraw");
	CHECK(taw(A_BASE "c0 08 00", NLRI_1),
	    "COMMUNITIES of length 0: treat-as-withdraw");
	CHECK(taw(A_BASE "c0 20 0b 00 00 00 01 00 00 00 01 00 00 00", NLRI_1),
	    "LARGE_COMMUNITY of length 11: treat-as-withdraw (RFC 8092 6)");
	CHECK(taw(A_BASE "c0 10 04 00 02 00 01", NLRI_1),
	    "EXTENDED_COMMUNITIES of length 4: treat-as-withdraw");
	CHECK(taw(A_BASE "80 09 03 01 02 03", NLRI_1),
	    "ORIGINATOR_ID of length 3: treat-as-withdraw");
	CHECK(taw(A_BASE "80 0a 06 01 02 03 04 05 06", NLRI_1),
	    "CLUSTER_LIST of length 6: treat-as-withdraw");
	mkupd(&v, "", A_BASE "40 06 01 00", NLRI_1);
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    u.attr_discarded && !u.treat_as_withdraw,
	    "ATOMIC_AGGREGATE of length 1: attribute discard");
	mkupd(&v, "", A_BASE "c0 07 06 fd e9 c0 00 02 01", NLRI_1);
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    u.attr_discarded && !u.treat_as_withdraw,
	    "AGGREGATOR of 6 on a 4-octet session: attribute discard");
	mkupd(&v, "", A_BASE "c0 11 02 02 00", NLRI_1);
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    u.attr_discarded && !u.treat_as_withdraw,
	    "malformed AS4_PATH: attribute discard (RFC 6793 6)");
	/* 3 c: flags in conflict with the type. */
	CHECK(taw("c0 01 01 00 " A_ASPATH A_NH, NLRI_1),
	    "ORIGIN flagged optional: treat-as-withdraw");
	CHECK(taw(A_BASE "40 04 04 00 00 00 01", NLRI_1),
	    "MED flagged well-known: treat-as-withdraw");
	CHECK(upd_err("", "40 0e 00", "", 3, 4),
	    "MP_REACH flagged well-known: 3/4, reset");

	/* Session resets. */
	CHECK(upd_err("", MP_REACH_V6 MP_REACH_V6 A_ORIGIN A_ASPATH, "", 3, 1),
	    "MP_REACH twice: 3/1 (RFC 7606 3 g)");
	CHECK(upd_err("", "80 0f 03 00 02 01 80 0f 03 00 02 01", "", 3, 1),
	    "MP_UNREACH twice: 3/1");
	CHECK(upd_err("", "90 0e 00 11 00 02 01 05 20 01 0d b8 00 00 "
	    "30 20 01 0d b8 00 01 " A_ORIGIN A_ASPATH, "", 3, 9),
	    "MP_REACH IPv6 with a 5-byte next hop: 3/9 (RFC 7606 7.11)");
	CHECK(upd_err("", "90 0e 00 0b 00 01 01 02 c0 00 00 18 0a 00 00 "
	    A_ORIGIN A_ASPATH, "", 3, 9), "MP_REACH IPv4 next hop of 2: 3/9");
	CHECK(upd_err("", "80 0e 03 00 02 01", "", 3, 9),
	    "MP_REACH without a next hop length: 3/9");
	CHECK(upd_err("", "80 0e 05 00 02 01 21 00", "", 3, 9),
	    "MP_REACH next hop of 33: 3/9");
	CHECK(upd_err("", "80 0e 02 00 02", "", 3, 9),
	    "MP_REACH of 2 bytes: 3/9");
	CHECK(upd_err("", "80 0f 02 00 02", "", 3, 9),
	    "MP_UNREACH of 2 bytes: 3/9");
	CHECK(upd_err("", "90 0e 00 1c 00 02 01 10 "
	    "20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01 00 "
	    "81 20 01 0d b8 00 01 " A_ORIGIN A_ASPATH, "", 3, 9),
	    "MP_REACH prefix /129: 3/9");
	mkupd(&v, "", "90 0e 00 0f 00 19 41 04 c0 00 02 01 00 "
	    "ff ff ff ff ff ff " A_ORIGIN A_ASPATH, "");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    u.mp_reach_af == BGP_AF_MAX && !u.treat_as_withdraw,
	    "MP_REACH of a family not carried (L2VPN): ignored");
	mkupd(&v, "", A_BASE "40 63 01 00", NLRI_1);
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == -1 &&
	    e.code == 3 && e.subcode == 2 && e.datalen == 2 &&
	    e.data[0] == 0x40 && e.data[1] == 99,
	    "unknown well-known attribute 99: 3/2, data flags and type");
	CHECK(e.wire != NULL && e.wirelen == 4 && memcmp(e.wire,
	    "\x40\x63\x01\x00", 4) == 0,
	    "... and the whole attribute to send (RFC 4271 section 6.3)");
	mkupd(&v, "", A_BASE "c0 63 01 00", NLRI_1);
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    !u.treat_as_withdraw && !u.attr_discarded,
	    "unknown optional attribute 99: kept, fine");
	/* Section 6.3 framing. */
	vec(&v, MARKER
	    "00 1b "		/* length 27 */
	    "02 "		/* UPDATE */
	    "00 ff "		/* withdrawn routes, 255: 4 there */
	    "18 0a 00 00");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == -1 &&
	    e.code == 3 && e.subcode == 1, "withdrawn length past it: 3/1");
	vec(&v, MARKER
	    "00 1b "		/* length 27 */
	    "02 "		/* UPDATE */
	    "00 00 "		/* no withdrawn routes */
	    "00 05 "		/* path attributes, 5: 2 there */
	    "40 01");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == -1 &&
	    e.code == 3 && e.subcode == 1, "attribute length past it: 3/1");
	vec(&v, MARKER "00 16 02 00 00 00");
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == -1 &&
	    e.code == 3 && e.subcode == 1, "UPDATE without attribute length");
	CHECK(upd_err("", A_BASE, "21 0a 00 00 00 00", 3, 10),
	    "NLRI prefix /33: 3/10");
	CHECK(upd_err("", A_BASE, "18 0a 00", 3, 10),
	    "NLRI prefix cut short: 3/10");
	CHECK(upd_err("21 0a 00 00 00 00", "", "", 3, 10),
	    "withdrawn prefix /33: 3/10");
	/* Section 4: an attribute overrunning the attribute length. */
	CHECK(taw(A_BASE "c0 08 08 00 00 00 01", NLRI_1),
	    "attribute overruns, no MP: treat-as-withdraw");
	CHECK(taw(A_BASE "c0 08", NLRI_1),
	    "2 bytes left for an attribute: treat-as-withdraw");
	CHECK(taw(A_BASE "d0 08 00", NLRI_1),
	    "extended length cut short: treat-as-withdraw");
	CHECK(upd_err("", MP_REACH_V6 A_ORIGIN A_ASPATH "c0 08 08 00 00 00 01",
	    "", 3, 1), "attribute overruns after MP_REACH: 3/1, reset");
	/* Treat-as-withdraw keeps the NLRI readable for withdrawing. */
	mkupd(&v, "", "40 01 01 07 " A_ASPATH A_NH, NLRI_1);
	CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
	    u.treat_as_withdraw && bgp_nlri_check(u.nlri, BGP_AF_IPV4, 0) == 0 &&
	    rbuf_left(&u.nlri) == 4, "treat-as-withdraw: NLRI still there");
	CHECK(bgp_update_decode(v.b, 10, &sess_as4, &u, &e) == -1,
	    "a buffer shorter than the header fails, no wrap");
}

/* NLRI bits past the length are cleared; lengths checked per family. */
static void
test_nlri(void)
{
	struct bgp_prefix	p;
	struct rbuf		r;
	struct vec		v;

	vec(&v, "17 0a 00 01");		/* /23 with a host bit set */
	rbuf_init(&r, v.b, v.len);
	CHECK(bgp_nlri_next(&r, BGP_AF_IPV4, 0, &p) == 1 && p.len == 23 &&
	    p.addr[0] == 10 && p.addr[1] == 0 && p.addr[2] == 0 &&
	    p.addr[3] == 0, "host bits of a /23 cleared");
	CHECK(bgp_nlri_next(&r, BGP_AF_IPV4, 0, &p) == 0, "then none left");
	vec(&v, "00");
	rbuf_init(&r, v.b, v.len);
	CHECK(bgp_nlri_next(&r, BGP_AF_IPV4, 0, &p) == 1 && p.len == 0,
	    "default route /0");
	vec(&v, "80 20 01 0d b8 00 00 00 00 00 00 00 00 00 00 00 01");
	rbuf_init(&r, v.b, v.len);
	CHECK(bgp_nlri_next(&r, BGP_AF_IPV6, 0, &p) == 1 && p.len == 128 &&
	    p.addr[15] == 1, "IPv6 /128");
	rbuf_init(&r, v.b, v.len);
	CHECK(bgp_nlri_next(&r, BGP_AF_IPV4, 0, &p) == -1,
	    "/128 in IPv4: malformed");
	vec(&v, "00 00 00");
	rbuf_init(&r, v.b, v.len);
	CHECK(bgp_nlri_next(&r, BGP_AF_IPV4, 1, &p) == -1,
	    "ADD-PATH path id cut short");
	CHECK(bgp_nlri_check(r, BGP_AF_IPV4, 0) == 0,
	    "three default routes without ADD-PATH");
}

/* ---- bgp_update_attrs limits and the RFC 6793 merge ---- */

static void
test_update_attrs(void)
{
	struct bgp_attrs	a, back;
	struct bgp_update	u;
	struct bgp_err		e;
	struct bgp_ub		ub;
	struct bgp_prefix	p = pfx("10.0.0.0/8");
	uint8_t			i;

	/* 64 ASes and 32 of each community fit; round trip. */
	attrs_full(&a);
	a.n_as = BGP_MAX_ASPATH;
	for (i = 0; i < BGP_MAX_ASPATH; i++)
		a.as_path[i] = 4200000000u + i;
	a.n_comm = a.n_lcomm = BGP_MAX_COMM;
	for (i = 0; i < BGP_MAX_COMM; i++) {
		a.comm[i] = 0x10000u * i + 1;
		a.lcomm[i][0] = i;
		a.lcomm[i][1] = i + 1;
		a.lcomm[i][2] = 0xffffffffu - i;
	}
	start();
	CHECK(bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 0, 0, &a, &sess_as2,
	    BGP_MAX_LEN) == 0, "the largest attributes fit (2-octet)");
	bgp_ub_add(&ub, &p);
	CHECK(bgp_ub_end(&ub) == 0, "and end");
	CHECK(bgp_update_decode(w.data, w.len, &sess_as2, &u, &e) == 0 &&
	    !u.treat_as_withdraw && u.as_path_len == 64 && u.n_comm == 32 &&
	    u.n_lcomm == 32, "they decode");
	CHECK(bgp_update_attrs(&u, &sess_as2, &back) == 0 &&
	    attrs_eq(&a, &back, 0), "and come back whole (AS4_PATH merge)");
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 0, 0, &a, &sess_as4, BGP_MAX_LEN);
	bgp_ub_add(&ub, &p);
	CHECK(bgp_ub_end(&ub) == 0 &&
	    bgp_update_decode(w.data, w.len, &sess_as4, &u, &e) == 0 &&
	    bgp_update_attrs(&u, &sess_as4, &back) == 0 &&
	    attrs_eq(&a, &back, 0), "the same on a 4-octet session");

	/* ORIGINATOR_ID and CLUSTER_LIST (RFC 4456 section 7) round trip. */
	attrs_full(&a);
	a.has_originator = 1;
	a.originator = 0x29292929;
	a.n_cluster = 2;
	a.cluster[0] = 0x28282828;
	a.cluster[1] = 0x28282829;
	start();
	bgp_ub_begin(&ub, &w, BGP_AF_IPV4, 0, 0, &a, &sess_as4, BGP_MAX_LEN);
	bgp_ub_add(&ub, &p);
	CHECK(bgp_ub_end(&ub) == 0 &&
	    bgp_update_decode(w.data, w.len, &sess_as4, &u, &e) == 0 &&
	    !u.treat_as_withdraw &&
	    bgp_update_attrs(&u, &sess_as4, &back) == 0 &&
	    back.has_originator && back.originator == 0x29292929 &&
	    back.n_cluster == 2 && back.cluster[1] == 0x28282829,
	    "ORIGINATOR_ID and CLUSTER_LIST come back");

	/* 65 ASes and 33 communities: cut, 1. */
	{
		struct vec	v;
		char		hex[4096];
		size_t		n = 0;
		int		k;

		n += (size_t)snprintf(hex + n, sizeof(hex) - n, A_ORIGIN A_NH
		    "50 02 01 06 02 41 ");	/* AS_PATH, ext 262, 65 */
		for (k = 0; k < 65; k++)
			n += (size_t)snprintf(hex + n, sizeof(hex) - n,
			    "00 00 %02x %02x ", 0x10 + k / 256, k % 256);
		n += (size_t)snprintf(hex + n, sizeof(hex) - n, "c0 08 84 ");
		for (k = 0; k < 33; k++)
			n += (size_t)snprintf(hex + n, sizeof(hex) - n,
			    "00 00 00 %02x ", k);
		mkupd(&v, "", hex, NLRI_1);
		CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
		    !u.treat_as_withdraw && u.as_path_len == 65 &&
		    u.n_comm == 33, "65 ASes, 33 communities decode");
		CHECK(bgp_update_attrs(&u, &sess_as4, &back) == 1 &&
		    back.n_as == 64 && back.as_path[63] == 0x1000 + 63 &&
		    back.n_comm == 32 && back.comm[31] == 31,
		    "re-extracted: cut to 64 and 32, says 1");
	}

	/* RFC 6793 4.2.3: AS_PATH 65001 AS_TRANS AS_TRANS with AS4_PATH
	 * 4200000001 4200000002: the leading 65001 is kept. */
	{
		struct vec	v;

		mkupd(&v, "", A_ORIGIN
		    "40 02 08 02 03 fd e9 5b a0 5b a0 "	/* AS_PATH */
		    A_NH
		    "c0 11 0a 02 02 fa 56 ea 01 fa 56 ea 02", NLRI_1);
		CHECK(bgp_update_decode(v.b, v.len, &sess_as2, &u, &e) == 0 &&
		    !u.treat_as_withdraw, "AS_PATH + shorter AS4_PATH decode");
		CHECK(bgp_update_attrs(&u, &sess_as2, &back) == 0 &&
		    back.n_as == 3 && back.as_path[0] == 65001 &&
		    back.as_path[1] == 4200000001u &&
		    back.as_path[2] == 4200000002u,
		    "merged: 65001 4200000001 4200000002");
		/* AS4_PATH longer than AS_PATH: ignored. */
		mkupd(&v, "", A_ORIGIN "40 02 04 02 01 5b a0 " A_NH
		    "c0 11 0a 02 02 fa 56 ea 01 fa 56 ea 02", NLRI_1);
		CHECK(bgp_update_decode(v.b, v.len, &sess_as2, &u, &e) == 0 &&
		    bgp_update_attrs(&u, &sess_as2, &back) == 0 &&
		    back.n_as == 1 && back.as_path[0] == BGP_AS_TRANS,
		    "AS4_PATH longer than AS_PATH: ignored");
		/* On a 4-octet session AS4_PATH is not used. */
		mkupd(&v, "", A_ORIGIN A_ASPATH A_NH
		    "c0 11 06 02 01 fa 56 ea 01", NLRI_1);
		CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
		    bgp_update_attrs(&u, &sess_as4, &back) == 0 &&
		    back.n_as == 1 && back.as_path[0] == 65001,
		    "4-octet session: AS4_PATH ignored");
		/* A repeated COMMUNITIES: only the first, as decode. */
		mkupd(&v, "", A_BASE "c0 08 04 00 00 00 01 "
		    "c0 08 08 00 00 00 02 00 00 00 03", NLRI_1);
		CHECK(bgp_update_decode(v.b, v.len, &sess_as4, &u, &e) == 0 &&
		    u.attr_discarded && u.n_comm == 1 &&
		    bgp_update_attrs(&u, &sess_as4, &back) == 0 &&
		    back.n_comm == 1 && back.comm[0] == 1,
		    "repeated COMMUNITIES: the first only, in both");
	}
}

/* ---- prefix helpers ---- */

static int
nth_is(const char *first, uint64_t n, const char *want)
{
	struct bgp_prefix	f = pfx(first), got, w8 = pfx(want);
	char			buf[64];

	bgp_prefix_nth(&f, n, &got);
	if (!pfx_eq(&got, &w8)) {
		printf("# nth(%s, %llu) = %s, want %s\n", first,
		    (unsigned long long)n, bgp_prefix_str(&got, buf,
		    sizeof(buf)), want);
		return 0;
	}
	return 1;
}

static void
test_prefix(void)
{
	struct bgp_prefix	p;
	char			buf[64];

	CHECK(bgp_prefix_parse("10.0.0.0/24", &p) == 0 &&
	    p.af == BGP_AF_IPV4 && p.len == 24 && p.addr[0] == 10 &&
	    p.path_id == 0, "parse 10.0.0.0/24");
	CHECK(bgp_prefix_parse("0.0.0.0/0", &p) == 0 && p.len == 0,
	    "parse 0.0.0.0/0");
	CHECK(bgp_prefix_parse("192.0.2.1/32", &p) == 0 && p.len == 32,
	    "parse a /32");
	CHECK(bgp_prefix_parse("2001:db8::/48", &p) == 0 &&
	    p.af == BGP_AF_IPV6 && p.len == 48 && p.addr[1] == 0x01 &&
	    p.addr[3] == 0xb8, "parse 2001:db8::/48");
	CHECK(bgp_prefix_parse("::/0", &p) == 0 && p.af == BGP_AF_IPV6,
	    "parse ::/0");
	CHECK(bgp_prefix_parse("10.0.0.1/24", &p) == -1,
	    "10.0.0.1/24: host bits set");
	CHECK(bgp_prefix_parse("10.0.0.128/25", &p) == 0,
	    "10.0.0.128/25: fine");
	CHECK(bgp_prefix_parse("10.0.0.64/25", &p) == -1,
	    "10.0.0.64/25: host bit set");
	CHECK(bgp_prefix_parse("2001:db8::1/64", &p) == -1,
	    "2001:db8::1/64: host bits set");
	CHECK(bgp_prefix_parse("10.0.0.0/33", &p) == -1, "/33 in IPv4");
	CHECK(bgp_prefix_parse("2001:db8::/129", &p) == -1, "/129 in IPv6");
	CHECK(bgp_prefix_parse("garbage", &p) == -1, "garbage");
	CHECK(bgp_prefix_parse("garbage/8", &p) == -1, "garbage/8");
	CHECK(bgp_prefix_parse("10.0.0.0", &p) == -1, "no length");
	CHECK(bgp_prefix_parse("10.0.0.0/", &p) == -1, "empty length");
	CHECK(bgp_prefix_parse("10.0.0.0/-1", &p) == -1, "negative length");
	CHECK(bgp_prefix_parse("10.0.0.0/24x", &p) == -1, "trailing junk");
	CHECK(bgp_prefix_parse("10.0.0.0/ 24", &p) == -1, "space in length");
	CHECK(bgp_prefix_parse("10.0.0/24", &p) == -1, "three octets");
	CHECK(bgp_prefix_parse("10.0.0.0/99999999999999999999", &p) == -1,
	    "huge length");
	CHECK(bgp_prefix_parse(
	    "1111:2222:3333:4444:5555:6666:7777:8888:9999:0000:aaaa:bbbb"
	    ":cccc:dddd/64", &p) == -1, "a too long address");

	p = pfx("10.0.0.0/24");
	CHECK(strcmp(bgp_prefix_str(&p, buf, sizeof(buf)), "10.0.0.0/24") == 0,
	    "str 10.0.0.0/24");
	p = pfx("2001:db8::/48");
	CHECK(strcmp(bgp_prefix_str(&p, buf, sizeof(buf)),
	    "2001:db8::/48") == 0, "str 2001:db8::/48");
	p = pfx("::/0");
	CHECK(strcmp(bgp_prefix_str(&p, buf, sizeof(buf)), "::/0") == 0,
	    "str ::/0");

	/* IPv4 arithmetic. */
	CHECK(nth_is("10.0.0.0/24", 0, "10.0.0.0/24"), "v4 nth 0");
	CHECK(nth_is("10.0.0.0/24", 1, "10.0.1.0/24"), "v4 /24 nth 1");
	CHECK(nth_is("10.0.0.0/24", 256, "10.1.0.0/24"), "v4 /24 nth 256");
	CHECK(nth_is("10.0.0.0/24", 65535, "10.255.255.0/24"),
	    "v4 /24 nth 65535");
	CHECK(nth_is("255.255.255.0/24", 1, "0.0.0.0/24"), "v4 /24 wraps");
	CHECK(nth_is("10.0.0.0/24", 1u << 24, "10.0.0.0/24"),
	    "v4 /24 nth 2^24 wraps to itself");
	CHECK(nth_is("10.0.0.5/32", 251, "10.0.1.0/32"), "v4 /32 carry");
	CHECK(nth_is("0.0.0.0/0", 3, "0.0.0.0/0"), "v4 /0 stays");
	CHECK(nth_is("128.0.0.0/1", 1, "0.0.0.0/1"), "v4 /1 wraps");
	/* IPv6, across the 64-bit halves. */
	CHECK(nth_is("2001:db8::/48", 1, "2001:db8:1::/48"), "v6 /48 nth 1");
	CHECK(nth_is("2001:db8::/48", 0x10000, "2001:db9::/48"),
	    "v6 /48 nth 65536");
	CHECK(nth_is("2001:db8::/64", 1, "2001:db8:0:1::/64"), "v6 /64 nth 1");
	CHECK(nth_is("2001:db8:0:ffff::/64", 1, "2001:db8:1::/64"),
	    "v6 /64 carries in the high half");
	CHECK(nth_is("2001:db8::/120", 1, "2001:db8::100/120"),
	    "v6 /120 nth 1");
	CHECK(nth_is("2001:db8:0:0:ffff:ffff:ffff:ff00/120", 1,
	    "2001:db8:0:1::/120"), "v6 /120 carries across 64 bits");
	CHECK(nth_is("::/120", 1ull << 60, "0:0:0:10::/120"),
	    "v6 /120 nth 2^60: high half gets n >> 56");
	CHECK(nth_is("2001:db8::/128", 2, "2001:db8::2/128"), "v6 /128");
	CHECK(nth_is("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00/120", 1,
	    "::/120"), "v6 wraps at 2^128");
	CHECK(nth_is("8000::/1", 1, "::/1"), "v6 /1 wraps");
	CHECK(nth_is("::/0", 1, "::/0"), "v6 /0 stays");
	p = pfx("2001:db8::/64");
	p.path_id = 42;
	{
		struct bgp_prefix	q;

		bgp_prefix_nth(&p, 3, &q);
		CHECK(q.path_id == 42 && q.len == 64 && q.af == BGP_AF_IPV6,
		    "nth keeps path id, length, family");
	}
}

/* bgp_prefix_step from first, n times, against bgp_prefix_nth. */
static int
step_is_nth(const char *first, uint64_t n)
{
	struct bgp_prefix	f = pfx(first), p = f, q;
	uint64_t		i;

	for (i = 1; i <= n; i++) {
		bgp_prefix_step(&p);
		bgp_prefix_nth(&f, i, &q);
		if (!pfx_eq(&p, &q))
			return 0;
	}
	return 1;
}

static void
test_prefix_step(void)
{
	CHECK(step_is_nth("10.0.0.0/24", 70000), "v4 /24: step is nth");
	CHECK(step_is_nth("255.255.250.0/24", 3000), "v4 /24 wraps as nth");
	CHECK(step_is_nth("10.0.0.0/29", 3000), "v4 /29: step is nth");
	CHECK(step_is_nth("0.0.0.0/0", 3), "v4 /0 stays");
	CHECK(step_is_nth("224.0.0.0/3", 20), "v4 /3 wraps");
	CHECK(step_is_nth("255.255.255.0/32", 600), "v4 /32 wraps");
	CHECK(step_is_nth("2001:db8:0:0:ffff:ffff:ffff:ff00/120", 600),
	    "v6 /120 carries across 64 bits");
	CHECK(step_is_nth("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00/120", 600),
	    "v6 /120 wraps at 2^128");
	CHECK(step_is_nth("2001:db8::/48", 70000), "v6 /48: step is nth");
	CHECK(step_is_nth("::/0", 2), "v6 /0 stays");
}

/*
 * UPDATEs of n prefixes from first, both ways: bgp_ub_add and
 * bgp_prefix_step one at a time, and bgp_ub_add_run; the same bytes, the
 * same counts, the same prefix to go on from.  cap: the buffer's size
 * (small: the run's end is near it).
 */
static int
run_is_steps(const char *first, uint32_t path_id, int addpath, int mp,
    uint64_t n, size_t cap)
{
	static uint8_t		 a_buf[1 << 16], b_buf[1 << 16];
	struct wbuf		 wa, wb;
	struct bgp_ub		 ua, ub;
	struct bgp_attrs	 at;
	struct bgp_prefix	 pa = pfx(first), pb = pa;
	uint64_t		 left = n, k, got = 0;
	int			 full;

	memset(&at, 0, sizeof(at));
	pa.path_id = pb.path_id = path_id;
	wbuf_init(&wa, a_buf, cap);
	wbuf_init(&wb, b_buf, cap);
	while (left > 0) {
		bgp_ub_begin(&ua, &wa, (enum bgp_af)pa.af, mp, addpath, &at,
		    &sess_as4, BGP_MAX_LEN);
		bgp_ub_begin(&ub, &wb, (enum bgp_af)pb.af, mp, addpath, &at,
		    &sess_as4, BGP_MAX_LEN);
		for (k = 0; k < left && !(full = bgp_ub_add(&ua, &pa) == 1);
		    k++)
			bgp_prefix_step(&pa);
		got = bgp_ub_add_run(&ub, &pb, left);
		bgp_ub_end(&ua);
		bgp_ub_end(&ub);
		if (got != k || ua.count != ub.count || !pfx_eq(&pa, &pb) ||
		    wa.len != wb.len || wa.err != wb.err ||
		    memcmp(a_buf, b_buf, wa.len) != 0 || k == 0)
			return 0;
		left -= k;
		if (wa.err)
			break;
	}
	return 1;
}

static void
test_update_run(void)
{
	CHECK(run_is_steps("10.0.0.0/24", 0, 0, 0, 5000, 1 << 16),
	    "v4 /24, 5000 prefixes: several UPDATEs, same bytes");
	CHECK(run_is_steps("10.0.0.0/24", 7, 1, 0, 3000, 1 << 16),
	    "v4 /24 with path ids (RFC 7911)");
	CHECK(run_is_steps("10.0.0.0/24", 0, 0, 1, 3000, 1 << 16),
	    "v4 /24 in MP_REACH");
	CHECK(run_is_steps("255.255.250.0/24", 0, 0, 0, 3000, 1 << 16),
	    "v4 /24 wraps at 2^32");
	CHECK(run_is_steps("255.255.255.0/32", 0, 0, 0, 1000, 1 << 16),
	    "v4 /32 wraps");
	CHECK(run_is_steps("10.0.0.0/29", 0, 0, 0, 3000, 1 << 16),
	    "v4 /29: length not a byte multiple");
	CHECK(run_is_steps("224.0.0.0/3", 0, 0, 0, 20, 1 << 16), "v4 /3");
	CHECK(run_is_steps("0.0.0.0/0", 0, 0, 0, 3, 1 << 16), "v4 /0 stays");
	CHECK(run_is_steps("2001:db8::/48", 0, 0, 0, 3000, 1 << 16),
	    "v6 /48");
	CHECK(run_is_steps("2001:db8::/64", 9, 1, 0, 2000, 1 << 16),
	    "v6 /64 with path ids");
	CHECK(run_is_steps("2001:db8:0:0:ffff:ffff:ffff:ff00/120", 0, 0, 0,
	    600, 1 << 16), "v6 /120 carries across 64 bits");
	CHECK(run_is_steps("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00/120", 0,
	    0, 0, 600, 1 << 16), "v6 /120 wraps at 2^128");
	CHECK(run_is_steps("2001:db8::/128", 0, 0, 0, 500, 1 << 16),
	    "v6 /128");
	CHECK(run_is_steps("8000::/1", 0, 0, 0, 3, 1 << 16), "v6 /1 wraps");
	CHECK(run_is_steps("::/0", 0, 0, 0, 2, 1 << 16), "v6 /0 stays");
	CHECK(run_is_steps("10.0.0.0/24", 0, 0, 0, 5000, 4200),
	    "v4: a buffer that ends inside the second UPDATE");
	CHECK(run_is_steps("2001:db8::/64", 0, 0, 0, 2000, 4100),
	    "v6: a buffer that ends just past the first UPDATE");
}

static const struct check_case cases[] = {
	CASE(test_open_encode_decode),
	CASE(test_open_errors),
	CASE(test_open_real_peers),
	CASE(test_small_messages),
	CASE(test_header),
	CASE(test_update_ipv4),
	CASE(test_update_packing),
	CASE(test_update_run),
	CASE(test_update_ipv6),
	CASE(test_withdraw),
	CASE(test_addpath_announce),
	CASE(test_eor),
	CASE(test_rfc7606),
	CASE(test_nlri),
	CASE(test_update_attrs),
	CASE(test_prefix),
	CASE(test_prefix_step),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
