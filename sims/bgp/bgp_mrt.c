/*
 * MRT dumps (RFC 6396) read for `sbsim bgp --mrt` and written for
 * --mrt-out (bgp_mrt.h).  The reader works on the whole dump in memory
 * (inflated first when gzip or bzip2), each record through an rbuf bound
 * to its own length, so that nothing reads past a record.
 */
#include <sys/stat.h>

#include <bzlib.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "bgp_mrt.h"
#include "buf.h"

#define ATTR_EXTLEN	0x10	/* RFC 4271 section 4.3 */
#define ATTR_AS_PATH	2
#define ATTR_MP_REACH	14
#define ATTR_MP_UNREACH	15
#define ATTR_AS4_PATH	17
#define MRT_HDR_LEN	12

/* One record's context while it is walked. */
struct mrt_rec {
	struct mrt_file	*f;
	mrt_route_fn	 fn;
	void		*arg;
	uint64_t	 off;
	uint32_t	 time;
	uint16_t	 type, subtype;
	char		*err;
	size_t		 errlen;
};

static int
mrt_bad(struct mrt_rec *r, const char *fmt, ...)
{
	char	msg[160];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(r->err, r->errlen, "MRT record at offset %llu (type %u "
	    "subtype %u): %s", (unsigned long long)r->off, r->type,
	    r->subtype, msg);
	return -1;
}

/* ------------------------------------------------------------------ */
/* Loading: plain, gzip (zlib's gzread reads both) or bzip2. */

/* Room past f->len: the file's size first (a plain dump's whole size,
 * a compressed one's start), then doubling. */
static int
mrt_grow(struct mrt_file *f, size_t *cap)
{
	if (f->len < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : f->len + (1 << 20);
	f->data = realloc(f->data, *cap);
	return f->data == NULL ? -1 : 0;
}

static int
mrt_load_gz(struct mrt_file *f, const char *path, char *err, size_t errlen)
{
	gzFile	gz = gzopen(path, "rb");
	size_t	cap = 0;
	int	n, e;
	struct stat st;

	if (gz == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (stat(path, &st) == 0 && st.st_size > 0) {
		cap = (size_t)st.st_size + 1;
		if ((f->data = malloc(cap)) == NULL)
			cap = 0;
	}
	do {
		if (mrt_grow(f, &cap) == -1)
			break;
		n = gzread(gz, f->data + f->len, (unsigned)(cap - f->len) >
		    (1u << 30) ? 1u << 30 : (unsigned)(cap - f->len));
		if (n > 0)
			f->len += (size_t)n;
	} while (n > 0);
	if (n < 0 || f->data == NULL) {
		snprintf(err, errlen, "%s: %s", path, f->data == NULL ?
		    "out of memory" : gzerror(gz, &e));
		gzclose(gz);
		return -1;
	}
	gzclose(gz);
	return 0;
}

static int
mrt_load_bz2(struct mrt_file *f, const char *path, char *err, size_t errlen)
{
	FILE	*fp = fopen(path, "rb");
	BZFILE	*bz;
	size_t	 cap = 0;
	int	 bze = BZ_OK, n = 0;

	if (fp == NULL || (bz = BZ2_bzReadOpen(&bze, fp, 0, 0, NULL, 0)) ==
	    NULL) {
		snprintf(err, errlen, "%s: %s", path, fp == NULL ?
		    strerror(errno) : "not a bzip2 file");
		if (fp != NULL)
			fclose(fp);
		return -1;
	}
	while (bze == BZ_OK && mrt_grow(f, &cap) == 0) {
		n = BZ2_bzRead(&bze, bz, f->data + f->len,
		    (int)(cap - f->len > (1u << 30) ? 1u << 30 :
		    cap - f->len));
		if (n > 0)
			f->len += (size_t)n;
	}
	BZ2_bzReadClose(&n, bz);
	fclose(fp);
	if (bze != BZ_STREAM_END) {
		snprintf(err, errlen, "%s: bzip2 stream %s at byte %zu", path,
		    f->data == NULL ? "out of memory" : "corrupt or truncated",
		    f->len);
		return -1;
	}
	return 0;
}

int
mrt_load(struct mrt_file *f, const char *path, char *err, size_t errlen)
{
	uint8_t	 magic[3] = { 0 };
	FILE	*fp;

	memset(f, 0, offsetof(struct mrt_file, scratch));
	if ((fp = fopen(path, "rb")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fread(magic, 1, 3, fp) == 0 && ferror(fp)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		fclose(fp);
		return -1;
	}
	fclose(fp);
	if (memcmp(magic, "BZh", 3) == 0)
		return mrt_load_bz2(f, path, err, errlen);
	return mrt_load_gz(f, path, err, errlen);
}

void
mrt_free(struct mrt_file *f)
{
	free(f->data);
	free(f->peers);
	f->data = NULL;
	f->peers = NULL;
}

/* ------------------------------------------------------------------ */
/* Attributes: copied into f->scratch without MP_REACH/MP_UNREACH (the
 * caller takes next hop and NLRI from MP_REACH) and with a 4-octet
 * AS_PATH; a 2-octet one (BGP4MP MESSAGE) widened, AS4_PATH dropped. */

static int
mrt_put_attr(struct wbuf *w, uint8_t flags, uint8_t type, const uint8_t *v,
    size_t len)
{
	flags &= (uint8_t)~ATTR_EXTLEN;
	if (len > 255)
		flags |= ATTR_EXTLEN;
	if (wbuf_put_u8(w, flags) == -1 || wbuf_put_u8(w, type) == -1 ||
	    (len > 255 ? wbuf_put_u16(w, (uint16_t)len) :
	    wbuf_put_u8(w, (uint8_t)len)) == -1)
		return -1;
	return wbuf_put_bytes(w, v, len);
}

/* AS_PATH's segments with each AS widened to 4 octets (RFC 6793). */
static int
mrt_widen_as_path(struct wbuf *w, uint8_t flags, struct rbuf v)
{
	uint8_t		buf[MRT_MAX_ATTRS], t, n, i;
	struct wbuf	o;
	uint16_t	as;

	wbuf_init(&o, buf, sizeof(buf));
	while (rbuf_left(&v) > 0) {
		if (rbuf_get_u8(&v, &t) == -1 || rbuf_get_u8(&v, &n) == -1 ||
		    wbuf_put_u8(&o, t) == -1 || wbuf_put_u8(&o, n) == -1)
			return -1;
		for (i = 0; i < n; i++)
			if (rbuf_get_u16(&v, &as) == -1 ||
			    wbuf_put_u32(&o, as) == -1)
				return -1;
	}
	return mrt_put_attr(w, flags, ATTR_AS_PATH, buf, o.len);
}

/* Walks the attributes; *mp is set to MP_REACH's value where found. */
static int
mrt_attrs_norm(struct mrt_rec *r, struct rbuf a, int as2, struct rbuf *mp,
    struct mrt_route *rt)
{
	struct wbuf	w;
	struct rbuf	v;
	uint8_t		flags, type, l8;
	uint16_t	len;
	int		rc;

	wbuf_init(&w, r->f->scratch, MRT_MAX_ATTRS);
	rbuf_init(mp, NULL, 0);
	while (rbuf_left(&a) > 0) {
		if (rbuf_get_u8(&a, &flags) == -1 ||
		    rbuf_get_u8(&a, &type) == -1)
			return mrt_bad(r, "attribute header cut short");
		if (flags & ATTR_EXTLEN)
			rc = rbuf_get_u16(&a, &len);
		else {
			rc = rbuf_get_u8(&a, &l8);
			len = l8;
		}
		if (rc == -1 || rbuf_sub(&a, &v, len) == -1)
			return mrt_bad(r, "attribute %u overruns its record",
			    type);
		if (type == ATTR_MP_REACH)
			*mp = v;
		if (type == ATTR_MP_REACH || type == ATTR_MP_UNREACH ||
		    (as2 && type == ATTR_AS4_PATH))
			continue;
		rc = as2 && type == ATTR_AS_PATH ?
		    mrt_widen_as_path(&w, flags, v) :
		    mrt_put_attr(&w, flags, type, rbuf_ptr(&v), len);
		if (rc == -1)
			return mrt_bad(r, "attributes malformed or over %u "
			    "bytes", MRT_MAX_ATTRS);
	}
	rt->attrs = r->f->scratch;
	rt->attr_len = (uint32_t)w.len;
	return 0;
}

/* The next hop of MP_REACH: TABLE_DUMP_V2 keeps only its length and
 * address (RFC 6396 section 4.3.4), but some writers keep the whole
 * attribute; *nlri is the NLRI span where there is one. */
static int
mrt_mp_nexthop(struct mrt_rec *r, struct rbuf mp, struct mrt_route *rt,
    struct rbuf *nlri)
{
	const uint8_t	*v = rbuf_ptr(&mp);
	size_t		 n = rbuf_left(&mp);
	uint8_t		 nhl;

	rbuf_init(nlri, NULL, 0);
	if (n == 0)
		return 0;
	if (n != (size_t)v[0] + 1u &&
	    (rbuf_skip(&mp, 3) == -1 || rbuf_get_u8(&mp, &nhl) == -1))
		return mrt_bad(r, "MP_REACH_NLRI cut short");
	if (n == (size_t)v[0] + 1u)
		(void)rbuf_get_u8(&mp, &nhl);
	if (nhl > sizeof(rt->nh) || rbuf_get_bytes(&mp, rt->nh, nhl) == -1)
		return mrt_bad(r, "MP_REACH_NLRI next hop of %u bytes", nhl);
	rt->nh_len = nhl;
	if (rbuf_left(&mp) > 0 && rbuf_skip(&mp, 1) == 0)	/* reserved */
		*nlri = mp;
	return 0;
}

/* ------------------------------------------------------------------ */
/* TABLE_DUMP_V2 (RFC 6396 section 4.3). */

static int
mrt_peer_entry(struct mrt_rec *r, struct rbuf *b, struct mrt_peer *p)
{
	uint8_t		type;
	uint16_t	as2;

	memset(p, 0, sizeof(*p));
	if (rbuf_get_u8(b, &type) == -1 || rbuf_get_u32(b, &p->bgp_id) == -1)
		return mrt_bad(r, "peer entry cut short");
	p->af = type & 1 ? BGP_AF_IPV6 : BGP_AF_IPV4;
	if (rbuf_get_bytes(b, p->addr, type & 1 ? 16 : 4) == -1)
		return mrt_bad(r, "peer address cut short");
	if (type & 2)
		return rbuf_get_u32(b, &p->as) == -1 ?
		    mrt_bad(r, "peer AS cut short") : 0;
	if (rbuf_get_u16(b, &as2) == -1)
		return mrt_bad(r, "peer AS cut short");
	p->as = as2;
	return 0;
}

static int
mrt_peer_index(struct mrt_rec *r, struct rbuf *b)
{
	struct mrt_file	*f = r->f;
	uint16_t	 vlen, n, i;
	uint32_t	 cid;

	if (rbuf_get_u32(b, &cid) == -1 || rbuf_get_u16(b, &vlen) == -1 ||
	    rbuf_skip(b, vlen) == -1 || rbuf_get_u16(b, &n) == -1)
		return mrt_bad(r, "PEER_INDEX_TABLE header cut short");
	free(f->peers);
	f->peers = calloc(n ? n : 1, sizeof(*f->peers));
	f->n_peers = 0;
	if (f->peers == NULL)
		return mrt_bad(r, "out of memory");
	for (i = 0; i < n; i++, f->n_peers++)
		if (mrt_peer_entry(r, b, &f->peers[i]) == -1)
			return -1;
	return 0;
}

/* One RIB entry of a prefix (section 4.3.4; RFC 8050 section 4 adds the
 * path identifier). */
static int
mrt_rib_entry(struct mrt_rec *r, struct rbuf *b, struct mrt_route *rt,
    int addpath)
{
	struct rbuf	a, mp, nlri;
	uint16_t	peer, alen;

	if (rbuf_get_u16(b, &peer) == -1 || rbuf_get_u32(b, &rt->time) == -1 ||
	    (addpath && rbuf_get_u32(b, &rt->pfx.path_id) == -1) ||
	    rbuf_get_u16(b, &alen) == -1)
		return mrt_bad(r, "RIB entry cut short");
	if (rbuf_sub(b, &a, alen) == -1)
		return mrt_bad(r, "RIB entry's attributes overrun the record");
	if (peer >= r->f->n_peers)
		return mrt_bad(r, "peer index %u past the PEER_INDEX_TABLE's "
		    "%u", peer, r->f->n_peers);
	rt->peer = peer;
	rt->nh_len = 0;
	if (mrt_attrs_norm(r, a, 0, &mp, rt) == -1 ||
	    mrt_mp_nexthop(r, mp, rt, &nlri) == -1)
		return -1;
	r->f->routes++;
	return r->fn(r->arg, rt);
}

static int
mrt_rib(struct mrt_rec *r, struct rbuf *b, enum bgp_af af, int addpath)
{
	struct mrt_route	rt;
	struct rbuf		p;
	uint8_t			len;
	uint16_t		n, i;

	memset(&rt, 0, sizeof(rt));
	rt.table = 1;
	if (r->f->peers == NULL)
		return mrt_bad(r, "RIB record before any PEER_INDEX_TABLE");
	if (rbuf_skip(b, 4) == -1 || rbuf_get_u8(b, &len) == -1)
		return mrt_bad(r, "RIB header cut short");
	if (len > (af == BGP_AF_IPV6 ? 128 : 32))
		return mrt_bad(r, "prefix length %u", len);
	/* The prefix as an NLRI entry: its length byte, then the bytes. */
	rbuf_init(&p, rbuf_ptr(b) - 1, 1u + (len + 7u) / 8u);
	if (rbuf_skip(b, (len + 7u) / 8u) == -1 ||
	    bgp_nlri_next(&p, af, 0, &rt.pfx) != 1)
		return mrt_bad(r, "prefix cut short");
	if (rbuf_get_u16(b, &n) == -1)
		return mrt_bad(r, "RIB entry count cut short");
	for (i = 0; i < n; i++) {
		rt.entry = i;
		if (mrt_rib_entry(r, b, &rt, addpath) == -1)
			return -1;
	}
	return 0;
}

static int
mrt_table_dump_v2(struct mrt_rec *r, struct rbuf *b)
{
	switch (r->subtype) {
	case MRT_PEER_INDEX_TABLE:
		return mrt_peer_index(r, b);
	case MRT_RIB_IPV4_UNICAST:
	case MRT_RIB_IPV4_UNICAST_AP:
		return mrt_rib(r, b, BGP_AF_IPV4,
		    r->subtype == MRT_RIB_IPV4_UNICAST_AP);
	case MRT_RIB_IPV6_UNICAST:
	case MRT_RIB_IPV6_UNICAST_AP:
		return mrt_rib(r, b, BGP_AF_IPV6,
		    r->subtype == MRT_RIB_IPV6_UNICAST_AP);
	}
	r->f->skipped++;
	return 0;
}

/* ------------------------------------------------------------------ */
/* BGP4MP (RFC 6396 section 4.4): a dump peer is its AS and address. */

static int
mrt_peer_find(struct mrt_rec *r, const struct mrt_peer *key, uint32_t *idx)
{
	struct mrt_file	*f = r->f;
	struct mrt_peer	*np;
	uint32_t	 i;

	for (i = 0; i < f->n_peers; i++)
		if (f->peers[i].as == key->as && f->peers[i].af == key->af &&
		    memcmp(f->peers[i].addr, key->addr, 16) == 0) {
			*idx = i;
			return 0;
		}
	if (f->n_peers >= MRT_MAX_PEERS)
		return mrt_bad(r, "more than %u peers", MRT_MAX_PEERS);
	if ((f->n_peers & (f->n_peers - 1)) == 0) {	/* 0, 1, 2, 4... */
		np = realloc(f->peers, (f->n_peers ? f->n_peers * 2 : 1) *
		    sizeof(*np));
		if (np == NULL)
			return mrt_bad(r, "out of memory");
		f->peers = np;
	}
	f->peers[f->n_peers] = *key;
	*idx = f->n_peers++;
	return 0;
}

/* Each prefix of an NLRI span to the callback. */
static int
mrt_nlri(struct mrt_rec *r, struct rbuf nlri, enum bgp_af af, int addpath,
    struct mrt_route *rt)
{
	int	rc;

	while ((rc = bgp_nlri_next(&nlri, af, addpath, &rt->pfx)) == 1) {
		r->f->routes++;
		if (r->fn(r->arg, rt) == -1)
			return -1;
	}
	return rc == 0 ? 0 : mrt_bad(r, "NLRI malformed");
}

/* The UPDATE inside a MESSAGE: its announcements (withdrawals counted). */
static int
mrt_update(struct mrt_rec *r, struct rbuf *b, int as2, int addpath,
    struct mrt_route *rt)
{
	struct rbuf	wd, a, mp, nlri;
	uint16_t	mlen, wlen, alen;
	uint8_t		type;

	if (rbuf_skip(b, 16) == -1 || rbuf_get_u16(b, &mlen) == -1 ||
	    rbuf_get_u8(b, &type) == -1)
		return mrt_bad(r, "BGP message header cut short");
	if (type != 2) {		/* only UPDATEs carry routes */
		r->f->skipped++;
		return 0;
	}
	if (rbuf_get_u16(b, &wlen) == -1 || rbuf_sub(b, &wd, wlen) == -1 ||
	    rbuf_get_u16(b, &alen) == -1 || rbuf_sub(b, &a, alen) == -1)
		return mrt_bad(r, "UPDATE's lengths overrun the record");
	r->f->withdrawals += wlen > 0;
	if (mrt_attrs_norm(r, a, as2, &mp, rt) == -1 ||
	    mrt_mp_nexthop(r, mp, rt, &nlri) == -1)
		return -1;
	if (rbuf_left(&nlri) > 0 && mrt_nlri(r, nlri, BGP_AF_IPV6, addpath,
	    rt) == -1)
		return -1;
	rt->nh_len = 0;
	return mrt_nlri(r, *b, BGP_AF_IPV4, addpath, rt);
}

static int
mrt_bgp4mp(struct mrt_rec *r, struct rbuf *b)
{
	struct mrt_route	rt;
	struct mrt_peer		key;
	uint16_t		as2, afi;
	int			as4 = 0, ap;

	switch (r->subtype) {
	case MRT_MESSAGE_AS4: case MRT_MESSAGE_AS4_LOCAL:
	case MRT_MESSAGE_AS4_ADDPATH:
		as4 = 1;
		/* FALLTHROUGH */
	case MRT_MESSAGE: case MRT_MESSAGE_LOCAL: case MRT_MESSAGE_ADDPATH:
		break;
	default:			/* STATE_CHANGE and the rest */
		r->f->skipped++;
		return 0;
	}
	ap = r->subtype == MRT_MESSAGE_ADDPATH ||
	    r->subtype == MRT_MESSAGE_AS4_ADDPATH;
	memset(&rt, 0, sizeof(rt));
	memset(&key, 0, sizeof(key));
	if ((as4 ? rbuf_get_u32(b, &key.as) : rbuf_get_u16(b, &as2)) == -1 ||
	    rbuf_skip(b, as4 ? 4 : 2) == -1 || rbuf_skip(b, 2) == -1 ||
	    rbuf_get_u16(b, &afi) == -1)
		return mrt_bad(r, "BGP4MP header cut short");
	if (!as4)
		key.as = as2;
	key.af = afi == 2 ? BGP_AF_IPV6 : BGP_AF_IPV4;
	if ((afi != 1 && afi != 2) || rbuf_get_bytes(b, key.addr,
	    afi == 2 ? 16 : 4) == -1 || rbuf_skip(b, afi == 2 ? 16 : 4) == -1)
		return mrt_bad(r, "BGP4MP addresses (AFI %u) cut short", afi);
	key.bgp_id = key.af == BGP_AF_IPV4 ? (uint32_t)key.addr[0] << 24 |
	    key.addr[1] << 16 | key.addr[2] << 8 | key.addr[3] : 0;
	if (mrt_peer_find(r, &key, &rt.peer) == -1)
		return -1;
	rt.time = r->time;
	return mrt_update(r, b, !as4, ap, &rt);
}

/* ------------------------------------------------------------------ */

static int
mrt_record(struct mrt_rec *r, struct rbuf *b)
{
	if (r->type == MRT_BGP4MP_ET && rbuf_skip(b, 4) == -1)
		return mrt_bad(r, "microseconds cut short");
	switch (r->type) {
	case MRT_TABLE_DUMP_V2:
		return mrt_table_dump_v2(r, b);
	case MRT_BGP4MP:
	case MRT_BGP4MP_ET:
		return mrt_bgp4mp(r, b);
	}
	r->f->skipped++;
	return 0;
}

int
mrt_walk(struct mrt_file *f, mrt_route_fn fn, void *arg, char *err,
    size_t errlen)
{
	struct mrt_rec	r = { .f = f, .fn = fn, .arg = arg, .err = err,
			      .errlen = errlen };
	struct rbuf	all, b;
	uint32_t	len;

	rbuf_init(&all, f->data, f->len);
	while (rbuf_left(&all) > 0) {
		r.off = f->len - rbuf_left(&all);
		r.type = r.subtype = 0;
		if (rbuf_get_u32(&all, &r.time) == -1 ||
		    rbuf_get_u16(&all, &r.type) == -1 ||
		    rbuf_get_u16(&all, &r.subtype) == -1 ||
		    rbuf_get_u32(&all, &len) == -1)
			return mrt_bad(&r, "header cut short (%zu bytes left)",
			    (size_t)(f->len - r.off));
		if (rbuf_sub(&all, &b, len) == -1)
			return mrt_bad(&r, "length %u past the end of the file "
			    "(%zu bytes left)", len, rbuf_left(&all));
		f->records++;
		if (mrt_record(&r, &b) == -1)
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* The writer: TABLE_DUMP_V2, one RIB entry per record. */

struct mrt_writer {
	FILE		*fp;
	uint32_t	 seq;
	uint8_t		 buf[MRT_MAX_ATTRS + 128];
};

static int
mrt_write_record(struct mrt_writer *m, uint16_t subtype, const uint8_t *body,
    size_t len)
{
	uint8_t		hdr[MRT_HDR_LEN];
	struct wbuf	w;

	wbuf_init(&w, hdr, sizeof(hdr));
	wbuf_put_u32(&w, (uint32_t)time(NULL));
	wbuf_put_u16(&w, MRT_TABLE_DUMP_V2);
	wbuf_put_u16(&w, subtype);
	wbuf_put_u32(&w, (uint32_t)len);
	return fwrite(hdr, 1, sizeof(hdr), m->fp) == sizeof(hdr) &&
	    fwrite(body, 1, len, m->fp) == len ? 0 : -1;
}

struct mrt_writer *
mrt_writer_open(const char *path, uint32_t collector_id,
    const struct mrt_peer *peers, uint32_t n_peers)
{
	struct mrt_writer	*m = calloc(1, sizeof(*m));
	uint8_t			*body = calloc(n_peers + 1u, 32);
	struct wbuf		 w;
	uint32_t		 i;

	if (m == NULL || body == NULL || n_peers > 0xffff ||
	    (m->fp = fopen(path, "wb")) == NULL) {
		free(m);
		free(body);
		return NULL;
	}
	wbuf_init(&w, body, (n_peers + 1u) * 32u);
	wbuf_put_u32(&w, collector_id);
	wbuf_put_u16(&w, 0);			/* no view name */
	wbuf_put_u16(&w, (uint16_t)n_peers);
	for (i = 0; i < n_peers; i++) {
		/* Peer type: bit 0 IPv6 address, bit 1 4-octet AS. */
		wbuf_put_u8(&w, (peers[i].af == BGP_AF_IPV6) | 2);
		wbuf_put_u32(&w, peers[i].bgp_id);
		wbuf_put_bytes(&w, peers[i].addr,
		    peers[i].af == BGP_AF_IPV6 ? 16 : 4);
		wbuf_put_u32(&w, peers[i].as);
	}
	if (mrt_write_record(m, MRT_PEER_INDEX_TABLE, body, w.len) == -1) {
		free(body);
		mrt_writer_close(m);
		return NULL;
	}
	free(body);
	return m;
}

int
mrt_writer_route(struct mrt_writer *m, uint32_t peer, uint32_t when,
    const struct bgp_prefix *p, const uint8_t *attrs, uint32_t attr_len,
    const uint8_t *nh, uint8_t nh_len)
{
	struct wbuf	w;
	size_t		alen_at;
	uint8_t		plen = (uint8_t)((p->len + 7u) / 8u);

	wbuf_init(&w, m->buf, sizeof(m->buf));
	wbuf_put_u32(&w, m->seq++);
	wbuf_put_u8(&w, p->len);
	wbuf_put_bytes(&w, p->addr, plen);
	wbuf_put_u16(&w, 1);			/* one entry */
	wbuf_put_u16(&w, (uint16_t)peer);
	wbuf_put_u32(&w, when);
	alen_at = w.len;
	wbuf_put_u16(&w, 0);
	wbuf_put_bytes(&w, attrs, attr_len);
	if (p->af == BGP_AF_IPV6) {
		/* Section 4.3.4: MP_REACH's next hop length and address. */
		wbuf_put_u8(&w, 0x80);
		wbuf_put_u8(&w, ATTR_MP_REACH);
		wbuf_put_u8(&w, (uint8_t)(nh_len + 1u));
		wbuf_put_u8(&w, nh_len);
		wbuf_put_bytes(&w, nh, nh_len);
	}
	if (w.err || wbuf_set_u16(&w, alen_at,
	    (uint16_t)(w.len - alen_at - 2)) == -1)
		return -1;
	return mrt_write_record(m, p->af == BGP_AF_IPV6 ?
	    MRT_RIB_IPV6_UNICAST : MRT_RIB_IPV4_UNICAST, m->buf, w.len);
}

int
mrt_writer_close(struct mrt_writer *m)
{
	int	rc;

	if (m == NULL)
		return -1;
	rc = ferror(m->fp) ? -1 : 0;
	if (fclose(m->fp) != 0)
		rc = -1;
	free(m);
	return rc;
}
