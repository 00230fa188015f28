/*
 * libFuzzer harness for the BGP codec (sims/bgp/bgp_codec.c, bgp_build.c)
 * and the prefix maps (bgp_rib.c); docs/design.md, "Testing layers".
 *
 * Input: a stream of BGP messages, framed by their headers as a session
 * reads them.  Each header goes through bgp_header_decode; a message the
 * header accepts goes, whole, to its type's decoder.  An UPDATE is decoded
 * under the four session capability combinations (4-octet AS on/off,
 * ADD-PATH receive on/off for both families), the last two with every
 * other row of the family table negotiated.  The stream ends at the
 * first header error or at a message longer than what is left.
 *
 * Besides "no crash, no leak, no UB" these properties are checked (abort
 * on failure):
 * - a header accepted has a length within the type's bounds; one refused
 *   carries the RFC 4271 6.1 data (the length, or the type);
 * - a decoded OPEN re-encodes and decodes to itself; a refused one says
 *   code 1 or 2;
 * - KEEPALIVE, NOTIFICATION (code, subcode, data) and ROUTE-REFRESH of a
 *   family we carry re-encode to the very bytes they came from;
 * - a decoded UPDATE: every NLRI span walks to its end without error;
 *   malformed/treat-as-withdraw/discarded agree; End-of-RIB carries no
 *   routes; the prefixes re-packed by the builder (announced with the
 *   attributes bgp_update_attrs extracted, and withdrawn; IPv4 plain and
 *   in MP) decode back equal, in order, split over as many UPDATEs of at
 *   most 4096 bytes as needed, with the same attributes;
 * - a negotiated family's span (L3VPN, labelled unicast) walks entry by
 *   entry with its row's decode; each route re-encodes to an entry that
 *   decodes to itself and prints;
 * - each prefix prints and parses back to itself, bgp_prefix_nth adds up,
 *   and a prefix map holds exactly the distinct prefixes put in it.
 *
 * Built without SBSIM_LIBFUZZER, a main() runs the harness once on each
 * file named on the command line: the regression test over the seed
 * corpus (tests/fuzz/fuzz_bgp_corpus.sh).  See tests/fuzz/README.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgp_codec.h"
#include "bgp_family.h"
#include "bgp_rib.h"
#include "buf.h"
#include "fuzz_driver.h"

#define FZ_MAX_PFX	4096	/* more than fit one 4096-byte span */

static uint8_t			fz_out[BGP_MAX_LEN * 2];
static struct bgp_prefix	fz_pfx[FZ_MAX_PFX];

/* ---- prefixes ---- */

static int
fz_pfx_eq(const struct bgp_prefix *a, const struct bgp_prefix *b)
{
	return a->af == b->af && a->len == b->len &&
	    a->path_id == b->path_id && memcmp(a->addr, b->addr, 16) == 0;
}

/* Text round trip and nth arithmetic of one decoded prefix. */
static void
fz_prefix_props(const struct bgp_prefix *p, uint64_t n)
{
	struct bgp_prefix	q, a, b, c;
	char			buf[64];
	unsigned		bits = p->af == BGP_AF_IPV6 ? 128 : 32, i;

	bgp_prefix_str(p, buf, sizeof(buf));
	FZ_CHECK(bgp_prefix_parse(buf, &q) == 0);
	q.path_id = p->path_id;
	FZ_CHECK(fz_pfx_eq(p, &q));
	bgp_prefix_nth(p, 0, &a);
	FZ_CHECK(fz_pfx_eq(p, &a));
	/* nth(nth(p, n), 1) == nth(p, n + 1); host bits stay clear. */
	bgp_prefix_nth(p, n, &a);
	bgp_prefix_nth(&a, 1, &b);
	bgp_prefix_nth(p, n + 1, &c);
	FZ_CHECK(fz_pfx_eq(&b, &c));
	for (i = a.len; i < bits; i++)
		FZ_CHECK(!(a.addr[i / 8] & (0x80 >> (i % 8))));
	FZ_CHECK(a.len == p->len && a.af == p->af && a.path_id == p->path_id);
}

/* A span into fz_pfx; the count.  The decoder checked it: no error. */
static size_t
fz_walk(struct rbuf r, enum bgp_af af, int addpath, uint64_t salt)
{
	struct bgp_prefix	p;
	size_t			n = 0;
	int			rc;

	while ((rc = bgp_nlri_next(&r, af, addpath, &p)) == 1) {
		FZ_CHECK(n < FZ_MAX_PFX);
		FZ_CHECK(p.af == af && p.len <= (af == BGP_AF_IPV6 ? 128 : 32));
		FZ_CHECK(addpath || p.path_id == 0);
		fz_prefix_props(&p, salt + n);
		fz_pfx[n++] = p;
	}
	FZ_CHECK(rc == 0);
	FZ_CHECK(rbuf_left(&r) == 0);
	return n;
}

/* The distinct prefixes of a span in a map: put, get, delete. */
static void
fz_pmap(const struct bgp_prefix *p, size_t n)
{
	struct bgp_pmap		m;
	struct bgp_prefix	q;
	uint64_t		*v, val;
	size_t			i, added = 0, slot = 0, walked = 0;

	bgp_pmap_init(&m, 1);
	for (i = 0; i < n; i++) {
		if (bgp_pmap_put(&m, &p[i], &v) == 1) {
			added++;
			*v = i;
		}
	}
	FZ_CHECK(bgp_pmap_count(&m) == added);
	for (i = 0; i < n; i++) {
		v = bgp_pmap_get(&m, &p[i]);
		FZ_CHECK(v != NULL && *v < n && fz_pfx_eq(&p[*v], &p[i]));
	}
	while (bgp_pmap_next(&m, (enum bgp_af)p[0].af, &slot, &q, &val) == 1) {
		FZ_CHECK(fz_pfx_eq(&q, &p[val]));
		walked++;
	}
	FZ_CHECK(walked == added);
	for (i = 0; i < n; i++)
		(void)bgp_pmap_del(&m, &p[i], NULL);
	FZ_CHECK(bgp_pmap_count(&m) == 0);
	bgp_pmap_free(&m);
}

/* ---- UPDATE ---- */

static int
fz_attrs_eq(const struct bgp_attrs *a, const struct bgp_attrs *b, int v6)
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

/*
 * Re-pack p[0..n-1] with the builder (announced with a, or withdrawn when
 * a is NULL) into as many UPDATEs as it takes; each decodes back to its
 * share of the prefixes, in order.
 */
static void
fz_repack(const struct bgp_prefix *p, size_t n, enum bgp_af af, int use_mp,
    const struct bgp_attrs *a, const struct bgp_sess_caps *sc)
{
	struct bgp_sess_caps	 rx = *sc;
	struct bgp_update	 u;
	struct bgp_attrs	 back;
	struct bgp_prefix	 q;
	struct bgp_err		 e;
	struct bgp_ub		 ub;
	struct wbuf		 w;
	struct rbuf		 span;
	size_t			 done = 0, first;
	int			 addpath = sc->addpath_tx[af] != 0, mp, rc;
	uint16_t		 len;
	uint8_t			 type;

	mp = af == BGP_AF_IPV6 || use_mp;
	rx.addpath_rx[af] = sc->addpath_tx[af];
	while (done < n) {
		wbuf_init(&w, fz_out, sizeof(fz_out));
		FZ_CHECK(bgp_ub_begin(&ub, &w, af, use_mp, addpath, a, sc,
		    BGP_MAX_LEN) == 0);
		first = done;
		while (done < n && bgp_ub_add(&ub, &p[done]) == 0)
			done++;
		FZ_CHECK(done > first);		/* one always fits */
		FZ_CHECK(ub.count == done - first);
		FZ_CHECK(bgp_ub_end(&ub) == 0 && !w.err);
		FZ_CHECK(w.len <= BGP_MAX_LEN);
		FZ_CHECK(bgp_header_decode(w.data, w.len, &len, &type,
		    &e) == 0 && len == w.len && type == BGP_UPDATE);
		FZ_CHECK(bgp_update_decode(w.data, w.len, &rx, &u, &e) == 0);
		FZ_CHECK(!u.treat_as_withdraw && !u.attr_discarded &&
		    !u.end_of_rib && u.malformed == NULL);
		if (a == NULL)
			span = mp ? u.mp_unreach : u.withdrawn;
		else
			span = mp ? u.mp_reach : u.nlri;
		FZ_CHECK((a == NULL ? u.mp_unreach_af : u.mp_reach_af) ==
		    (mp ? af : BGP_AF_MAX));
		while ((rc = bgp_nlri_next(&span, af, addpath, &q)) == 1) {
			FZ_CHECK(first < done);
			FZ_CHECK(fz_pfx_eq(&q, &p[first]));
			first++;
		}
		FZ_CHECK(rc == 0 && first == done);
		if (a != NULL) {
			FZ_CHECK(bgp_update_attrs(&u, &rx, &back) == 0);
			FZ_CHECK(fz_attrs_eq(a, &back, af == BGP_AF_IPV6));
		}
	}
}

/* The prefixes of one span: map, and re-packed every way that fits. */
static void
fz_span(struct rbuf r, enum bgp_af af, const struct bgp_sess_caps *sc,
    const struct bgp_attrs *a, uint64_t salt)
{
	size_t	n = fz_walk(r, af, sc->addpath_rx[af], salt);

	if (n == 0)
		return;
	fz_pmap(fz_pfx, n);
	fz_repack(fz_pfx, n, af, 0, a, sc);
	fz_repack(fz_pfx, n, af, 0, NULL, sc);
	if (af == BGP_AF_IPV4) {
		fz_repack(fz_pfx, n, af, 1, a, sc);
		fz_repack(fz_pfx, n, af, 1, NULL, sc);
	}
}

/* A span of a family of the table beyond unicast: entry by entry. */
static void
fz_fam_span(struct rbuf r, unsigned fam)
{
	const struct bgp_family	*f = &bgp_families[fam];
	struct bgp_route	 a, b;
	uint8_t			 d[256];
	size_t			 n, m;
	uint64_t		 count, walked = 0;
	char			 text[128];

	/* 1: one malformed inside its length (its UPDATE treated as
	 * withdraw), skipped as the others are walked. */
	FZ_CHECK(bgp_family_check(fam, rbuf_ptr(&r), rbuf_left(&r), 0,
	    &count) >= 0);
	while (rbuf_left(&r) > 0) {
		memset(&a, 0, sizeof(a));
		a.fam = (uint8_t)fam;
		n = f->decode(f, rbuf_ptr(&r), rbuf_left(&r), &a);
		FZ_CHECK(n > 0 && n <= rbuf_left(&r));
		rbuf_skip(&r, n);
		walked++;
		f->print(&a, text, sizeof(text));
		if (a.label > BGP_LABEL_MAX || a.partial)
			continue;	/* a withdraw's: encoded as one; or
					 * more than bgp_route holds */
		/* Not kept whole: malformed, or a BGP-LS type not known. */
		if (a.malformed || (fam == BGP_FAM_LS &&
		    (a.ls.type < 1 || a.ls.type > 4)))
			continue;
		m = f->encode(f, d, sizeof(d), &a, 0);
		memset(&b, 0, sizeof(b));
		b.fam = (uint8_t)fam;
		FZ_CHECK(m > 0 && f->decode(f, d, m, &b) == m);
		FZ_CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	}
	FZ_CHECK(walked == count);
}

static void
fz_update_one(const uint8_t *p, size_t n, const struct bgp_sess_caps *sc)
{
	struct bgp_update	u;
	struct bgp_attrs	a, again;
	struct bgp_err		e;
	struct bgp_sess_caps	tx = *sc;
	int			cut;

	memset(&e, 0, sizeof(e));
	if (bgp_update_decode(p, n, sc, &u, &e) == -1) {
		FZ_CHECK(e.code == BGP_ERR_UPDATE && e.why != NULL);
		FZ_CHECK(e.subcode == BGP_ERR_UPD_ATTRLIST ||
		    e.subcode == BGP_ERR_UPD_UNKNWN_WK ||
		    e.subcode == BGP_ERR_UPD_FLAGS ||
		    e.subcode == BGP_ERR_UPD_OPTATTR ||
		    e.subcode == BGP_ERR_UPD_NETWORK);
		FZ_CHECK(e.datalen <= sizeof(e.data));
		return;
	}
	FZ_CHECK((u.treat_as_withdraw || u.attr_discarded) ==
	    (u.malformed != NULL));
	FZ_CHECK(u.attrs_len <= n && (u.attrs_len == 0 || (u.attrs >= p &&
	    u.attrs + u.attrs_len <= p + n)));
	if (u.end_of_rib) {
		FZ_CHECK(rbuf_left(&u.nlri) == 0 &&
		    rbuf_left(&u.withdrawn) == 0 &&
		    u.mp_reach_af == BGP_AF_MAX &&
		    u.mp_reach_fam == BGP_FAM_MAX && u.eor_af < BGP_FAM_MAX);
		if (u.eor_af != BGP_AF_IPV4 || u.mp_unreach_af != BGP_AF_MAX)
			FZ_CHECK(rbuf_left(&u.mp_unreach) == 0);
	}
	if (u.has_origin)
		FZ_CHECK(u.origin <= BGP_ORIGIN_INCOMPLETE);
	if (u.mp_reach_af != BGP_AF_MAX)
		FZ_CHECK(u.mp_nh_len <= sizeof(u.mp_nh));
	cut = bgp_update_attrs(&u, sc, &a);
	FZ_CHECK(a.n_as <= BGP_MAX_ASPATH && a.n_comm <= BGP_MAX_COMM &&
	    a.n_lcomm <= BGP_MAX_COMM);
	if (!cut && !u.treat_as_withdraw && u.has_as_path && sc->as4)
		FZ_CHECK(a.n_as == u.as_path_len &&
		    (a.n_as == 0 || a.as_path[0] == u.first_as));
	(void)bgp_update_attrs(&u, sc, &again);
	FZ_CHECK(memcmp(&a, &again, sizeof(a)) == 0);
	if (a.origin > BGP_ORIGIN_INCOMPLETE)
		a.origin = BGP_ORIGIN_INCOMPLETE;
	/* Re-pack as a session that sends path ids when it receives them. */
	tx.addpath_tx[BGP_AF_IPV4] = sc->addpath_rx[BGP_AF_IPV4];
	tx.addpath_tx[BGP_AF_IPV6] = sc->addpath_rx[BGP_AF_IPV6];
	fz_span(u.withdrawn, BGP_AF_IPV4, &tx, &a, 0);
	fz_span(u.nlri, BGP_AF_IPV4, &tx, &a, n);
	if (u.mp_reach_af != BGP_AF_MAX)
		fz_span(u.mp_reach, (enum bgp_af)u.mp_reach_af, &tx, &a,
		    u.attrs_len);
	if (u.mp_unreach_af != BGP_AF_MAX)
		fz_span(u.mp_unreach, (enum bgp_af)u.mp_unreach_af, &tx, &a,
		    (uint64_t)1 << 40);
	if (u.mp_reach_fam != BGP_FAM_MAX)
		fz_fam_span(u.mp_reach, u.mp_reach_fam);
	if (u.mp_unreach_fam != BGP_FAM_MAX)
		fz_fam_span(u.mp_unreach, u.mp_unreach_fam);
}

static void
fz_update(const uint8_t *p, size_t n)
{
	struct bgp_sess_caps	sc;
	int			combo;

	for (combo = 0; combo < 4; combo++) {
		memset(&sc, 0, sizeof(sc));
		sc.as4 = combo & 1;
		sc.addpath_rx[BGP_AF_IPV4] = sc.addpath_rx[BGP_AF_IPV6] =
		    (combo >> 1) & 1;
		if (combo & 2)
			sc.fam_rx = ((1u << BGP_FAM_MAX) - 1) &
			    ~((1u << BGP_AF_MAX) - 1);
		fz_update_one(p, n, &sc);
	}
}

/* ---- the other messages ---- */

static void
fz_open(const uint8_t *p, size_t n)
{
	struct bgp_open	o, back;
	struct bgp_err	e;
	struct wbuf	w;

	memset(&e, 0, sizeof(e));
	if (bgp_open_decode(p, n, &o, &e) == -1) {
		FZ_CHECK(e.code == BGP_ERR_OPEN || e.code == BGP_ERR_HEADER);
		FZ_CHECK(e.datalen <= sizeof(e.data) && e.why != NULL);
		return;
	}
	FZ_CHECK(o.version == BGP_VERSION && o.bgp_id != 0 &&
	    o.hold != 1 && o.hold != 2 && o.my_as != 0);
	FZ_CHECK(o.caps.gr_time <= 0xfff && o.caps.gr_flags <= 0xf);
	wbuf_init(&w, fz_out, sizeof(fz_out));
	FZ_CHECK(bgp_open_encode(&w, &o) == 0 && w.len <= BGP_MAX_LEN);
	FZ_CHECK(bgp_open_decode(w.data, w.len, &back, &e) == 0);
	/* "any" says a capabilities parameter came, even an empty one. */
	o.caps.any = back.caps.any = 0;
	FZ_CHECK(memcmp(&o, &back, sizeof(o)) == 0);
}

static void
fz_notification(const uint8_t *p, size_t n)
{
	struct wbuf	w;
	uint8_t		code, sub;

	FZ_CHECK(bgp_notification_decode(p, n, &code, &sub) == 0);
	FZ_CHECK(bgp_err_name(code, sub)[0] != '\0');
	wbuf_init(&w, fz_out, sizeof(fz_out));
	FZ_CHECK(bgp_notification_encode(&w, code, sub, p + 21, n - 21) == 0);
	FZ_CHECK(w.len == n && memcmp(w.data, p, n) == 0);
}

static void
fz_route_refresh(const uint8_t *p, size_t n)
{
	struct bgp_err	e;
	struct wbuf	w;
	enum bgp_af	af;
	uint8_t		subtype;
	int		rc;

	rc = bgp_route_refresh_decode(p, n, &af, &subtype, &e);
	FZ_CHECK(rc == 0 || rc == 1);
	if (rc == 1) {
		FZ_CHECK(af == BGP_AF_MAX);
		return;
	}
	wbuf_init(&w, fz_out, sizeof(fz_out));
	FZ_CHECK(bgp_route_refresh_encode(&w, af, subtype) == 0);
	FZ_CHECK(w.len == n && memcmp(w.data, p, n) == 0);
}

static void
fz_keepalive(const uint8_t *p, size_t n)
{
	struct wbuf	w;

	wbuf_init(&w, fz_out, sizeof(fz_out));
	FZ_CHECK(bgp_keepalive_encode(&w) == 0);
	FZ_CHECK(w.len == n && memcmp(w.data, p, n) == 0);
}

/* A header refused: the error of RFC 4271 section 6.1 and its data. */
static void
fz_header_err(const uint8_t *p, size_t n, const struct bgp_err *e)
{
	FZ_CHECK(e->code == BGP_ERR_HEADER);
	switch (e->subcode) {
	case BGP_ERR_HDR_SYNC:
		FZ_CHECK(e->datalen == 0);
		break;
	case BGP_ERR_HDR_LEN:
		if (n >= BGP_HEADER_LEN)
			FZ_CHECK(e->datalen == 2 && e->data[0] == p[16] &&
			    e->data[1] == p[17]);
		break;
	case BGP_ERR_HDR_TYPE:
		FZ_CHECK(e->datalen == 1 && e->data[0] == p[18]);
		break;
	default:
		FZ_CHECK(0);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bgp_err	e;
	size_t		off = 0;
	uint16_t	len;
	uint8_t		type;

	while (off < size) {
		memset(&e, 0, sizeof(e));
		if (bgp_header_decode(data + off, size - off, &len, &type,
		    &e) == -1) {
			fz_header_err(data + off, size - off, &e);
			return 0;
		}
		FZ_CHECK(len >= BGP_HEADER_LEN && len <= BGP_MAX_LEN);
		FZ_CHECK(type >= BGP_OPEN && type <= BGP_ROUTE_REFRESH);
		if (len > size - off)
			return 0;	/* the rest has not come yet */
		switch (type) {
		case BGP_OPEN:
			FZ_CHECK(len >= BGP_OPEN_MIN_LEN);
			fz_open(data + off, len);
			break;
		case BGP_UPDATE:
			FZ_CHECK(len >= 23);
			fz_update(data + off, len);
			break;
		case BGP_NOTIFICATION:
			FZ_CHECK(len >= BGP_NOTIFICATION_MIN_LEN);
			fz_notification(data + off, len);
			break;
		case BGP_KEEPALIVE:
			FZ_CHECK(len == BGP_KEEPALIVE_LEN);
			fz_keepalive(data + off, len);
			break;
		case BGP_ROUTE_REFRESH:
			FZ_CHECK(len == BGP_RR_LEN);
			fz_route_refresh(data + off, len);
			break;
		}
		off += len;
	}
	return 0;
}

#ifndef SBSIM_LIBFUZZER

int
main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE...\n", argv[0]);
		return 2;
	}
	return fuzz_run_files(argc, argv);
}
#endif
