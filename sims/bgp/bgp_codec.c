/*
 * BGP-4 codec (see bgp_codec.h): messages of RFC 4271 section 4, the
 * capabilities of RFC 5492 / 4760 / 6793 / 2918 / 4724 / 7911, and UPDATE
 * error handling by RFC 7606.
 */
#include <arpa/inet.h>

#include <stdio.h>
#include <string.h>

#include "bgp_codec.h"
#include "bgp_family.h"

static const uint8_t bgp_marker[BGP_MARKER_LEN] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

static int
bgp_fail(struct bgp_err *e, uint8_t code, uint8_t subcode, const char *why)
{
	e->code = code;
	e->subcode = subcode;
	e->datalen = 0;
	e->wire = NULL;
	e->wirelen = 0;
	e->why = why;
	return -1;
}

uint8_t
bgp_af_from(uint16_t afi, uint8_t safi)
{
	if (safi != BGP_SAFI_UNICAST)
		return BGP_AF_MAX;
	if (afi == BGP_AFI_IPV4)
		return BGP_AF_IPV4;
	if (afi == BGP_AFI_IPV6)
		return BGP_AF_IPV6;
	return BGP_AF_MAX;
}

uint16_t
bgp_af_afi(enum bgp_af af)
{
	return af == BGP_AF_IPV6 ? BGP_AFI_IPV6 : BGP_AFI_IPV4;
}

static unsigned
bgp_af_bits(enum bgp_af af)
{
	return af == BGP_AF_IPV6 ? 128 : 32;
}

/* Section 4.1 and 6.1: marker all ones, 19 <= length <= 4096, a length
 * the type allows; data of a length error is the length field. */
int
bgp_header_decode(const uint8_t *p, size_t n, uint16_t *len, uint8_t *type,
    struct bgp_err *e)
{
	if (n < BGP_HEADER_LEN)
		return bgp_fail(e, BGP_ERR_HEADER, BGP_ERR_HDR_LEN, "short");
	if (memcmp(p, bgp_marker, BGP_MARKER_LEN) != 0)
		return bgp_fail(e, BGP_ERR_HEADER, BGP_ERR_HDR_SYNC,
		    "marker not all ones");
	*len = (uint16_t)(p[16] << 8 | p[17]);
	*type = p[18];
	if (*type < BGP_OPEN || *type > BGP_ROUTE_REFRESH) {
		e->data[0] = *type;
		bgp_fail(e, BGP_ERR_HEADER, BGP_ERR_HDR_TYPE, "bad type");
		e->datalen = 1;
		return -1;
	}
	if (*len < BGP_HEADER_LEN || *len > BGP_MAX_LEN ||
	    (*type == BGP_OPEN && *len < BGP_OPEN_MIN_LEN) ||
	    (*type == BGP_UPDATE && *len < 23) ||
	    (*type == BGP_KEEPALIVE && *len != BGP_KEEPALIVE_LEN) ||
	    (*type == BGP_NOTIFICATION && *len < BGP_NOTIFICATION_MIN_LEN) ||
	    (*type == BGP_ROUTE_REFRESH && *len != BGP_RR_LEN)) {
		e->data[0] = p[16];
		e->data[1] = p[17];
		bgp_fail(e, BGP_ERR_HEADER, BGP_ERR_HDR_LEN, "bad length");
		e->datalen = 2;
		return -1;
	}
	return 0;
}

size_t
bgp_msg_begin(struct wbuf *w, uint8_t type)
{
	size_t	start = w->len;

	wbuf_put_bytes(w, bgp_marker, sizeof(bgp_marker));
	wbuf_put_u16(w, 0);
	wbuf_put_u8(w, type);
	return start;
}

int
bgp_msg_end(struct wbuf *w, size_t start)
{
	size_t	len = w->len - start;

	if (len > BGP_MAX_LEN)
		w->err = 1;
	wbuf_set_u16(w, start + BGP_MARKER_LEN, (uint16_t)len);
	return w->err ? -1 : 0;
}

/* One capability: code, length, value (RFC 5492 section 4). */
static void
bgp_cap_put(struct wbuf *w, uint8_t code, const uint8_t *v, uint8_t len)
{
	wbuf_put_u8(w, code);
	wbuf_put_u8(w, len);
	wbuf_put_bytes(w, v, len);
}

/*
 * The (AFI, SAFI, flags) tuples of RFC 4724 section 3 (graceful restart:
 * bit 1 of on[af], forwarding state kept, is the flags' top bit) and RFC
 * 7911 section 4 (ADD-PATH: on[af] is the send/receive byte): one per
 * family whose on[af] is set, into v from n; the length after them.
 */
static uint8_t
bgp_cap_af_tuples(uint8_t *v, uint8_t n, const uint8_t *on, int graceful)
{
	int	af;

	for (af = 0; af < BGP_AF_MAX; af++) {
		if (!on[af])
			continue;
		v[n++] = 0;
		v[n++] = (uint8_t)bgp_af_afi(af);
		v[n++] = BGP_SAFI_UNICAST;
		v[n++] = graceful ? ((on[af] & 2) ? 0x80 : 0) : on[af];
	}
	return n;
}

static void
bgp_caps_encode(struct wbuf *w, const struct bgp_caps *c)
{
	uint8_t	v[64], n;
	int	af;

	for (af = 0; af < BGP_AF_MAX; af++) {
		if (!c->mp[af])
			continue;
		v[0] = 0;
		v[1] = (uint8_t)bgp_af_afi(af);
		v[2] = 0;
		v[3] = BGP_SAFI_UNICAST;
		bgp_cap_put(w, BGP_CAP_MP, v, 4);
	}
	/* RFC 4760 section 8: one capability per family. */
	for (af = BGP_AF_MAX; af < BGP_FAM_MAX; af++) {
		if (!(c->mp_fam & 1u << af))
			continue;
		v[0] = (uint8_t)(bgp_families[af].afi >> 8);
		v[1] = (uint8_t)bgp_families[af].afi;
		v[2] = 0;
		v[3] = bgp_families[af].safi;
		bgp_cap_put(w, BGP_CAP_MP, v, 4);
	}
	if (c->route_refresh)
		bgp_cap_put(w, BGP_CAP_ROUTE_REFRESH, v, 0);
	if (c->enhanced_rr)
		bgp_cap_put(w, BGP_CAP_ENHANCED_RR, v, 0);
	if (c->graceful) {
		/* RFC 4724 section 3: restart flags and time, then one
		 * (AFI, SAFI, flags) per family. */
		v[0] = (uint8_t)((c->gr_flags << 4) | ((c->gr_time >> 8) & 0xf));
		v[1] = (uint8_t)c->gr_time;
		n = bgp_cap_af_tuples(v, 2, c->gr_af, 1);
		bgp_cap_put(w, BGP_CAP_GRACEFUL, v, n);
	}
	if (c->as4) {
		v[0] = (uint8_t)(c->as4_number >> 24);
		v[1] = (uint8_t)(c->as4_number >> 16);
		v[2] = (uint8_t)(c->as4_number >> 8);
		v[3] = (uint8_t)c->as4_number;
		bgp_cap_put(w, BGP_CAP_AS4, v, 4);
	}
	if ((n = bgp_cap_af_tuples(v, 0, c->addpath, 0)) > 0)
		bgp_cap_put(w, BGP_CAP_ADD_PATH, v, n);
}

/* Section 4.2 with one Capabilities optional parameter (RFC 5492). */
int
bgp_open_encode(struct wbuf *w, const struct bgp_open *o)
{
	size_t	start = bgp_msg_begin(w, BGP_OPEN), plen_off, caps_off;

	wbuf_put_u8(w, o->version);
	wbuf_put_u16(w, o->my_as);
	wbuf_put_u16(w, o->hold);
	wbuf_put_u32(w, o->bgp_id);
	plen_off = w->len;
	wbuf_put_u8(w, 0);
	wbuf_put_u8(w, BGP_OPT_CAPABILITIES);
	caps_off = w->len;
	wbuf_put_u8(w, 0);
	bgp_caps_encode(w, &o->caps);
	if (!w->err) {
		if (w->len - caps_off - 1 > 255)
			w->err = 1;
		else if (w->len - caps_off - 1 == 0)
			w->len = plen_off + 1;	/* no capabilities at all */
		else {
			w->data[caps_off] = (uint8_t)(w->len - caps_off - 1);
			w->data[plen_off] = (uint8_t)(w->len - plen_off - 1);
		}
	}
	return bgp_msg_end(w, start);
}

/* (AFI, reserved, SAFI) of a multiprotocol capability. */
static void
bgp_cap_mp(struct bgp_caps *c, const uint8_t *v, uint8_t len)
{
	unsigned	af;

	if (len != 4)
		return;
	af = bgp_family_from((uint16_t)(v[0] << 8 | v[1]), v[3]);
	if (af < BGP_AF_MAX)
		c->mp[af] = 1;
	else if (af < BGP_FAM_MAX)
		c->mp_fam |= 1u << af;
}

static void
bgp_cap_gr(struct bgp_caps *c, const uint8_t *v, uint8_t len)
{
	uint8_t	i, af;

	if (len < 2 || (len - 2) % 4 != 0)
		return;
	c->graceful = 1;
	c->gr_flags = v[0] >> 4;
	c->gr_time = (uint16_t)((v[0] & 0xf) << 8 | v[1]);
	for (i = 2; i + 4 <= len; i += 4) {
		af = bgp_af_from((uint16_t)(v[i] << 8 | v[i + 1]), v[i + 2]);
		if (af != BGP_AF_MAX)
			c->gr_af[af] = (v[i + 3] & 0x80) ? 3 : 1;
	}
}

static void
bgp_cap_addpath(struct bgp_caps *c, const uint8_t *v, uint8_t len)
{
	uint8_t	i, af;

	if (len % 4 != 0)
		return;
	for (i = 0; i + 4 <= len; i += 4) {
		af = bgp_af_from((uint16_t)(v[i] << 8 | v[i + 1]), v[i + 2]);
		if (af != BGP_AF_MAX && v[i + 3] <= 3)
			c->addpath[af] = v[i + 3];
	}
}

/* The capabilities of one optional parameter; unknown ones are ignored
 * (RFC 5492 section 4), malformed known ones too. */
static int
bgp_caps_decode(struct rbuf *r, struct bgp_caps *c)
{
	uint8_t		code, len;
	const uint8_t	*v;

	c->any = 1;
	while (rbuf_left(r) > 0) {
		if (rbuf_get_u8(r, &code) == -1 || rbuf_get_u8(r, &len) == -1 ||
		    rbuf_left(r) < len)
			return -1;
		v = rbuf_ptr(r);
		rbuf_skip(r, len);
		switch (code) {
		case BGP_CAP_MP:
			bgp_cap_mp(c, v, len);
			break;
		case BGP_CAP_ROUTE_REFRESH:
			c->route_refresh = 1;
			break;
		case BGP_CAP_ENHANCED_RR:
			c->enhanced_rr = 1;
			break;
		case BGP_CAP_GRACEFUL:
			bgp_cap_gr(c, v, len);
			break;
		case BGP_CAP_AS4:
			if (len == 4) {
				c->as4 = 1;
				c->as4_number = (uint32_t)v[0] << 24 |
				    (uint32_t)v[1] << 16 | (uint32_t)v[2] << 8 |
				    v[3];
			}
			break;
		case BGP_CAP_ADD_PATH:
			bgp_cap_addpath(c, v, len);
			break;
		}
	}
	return 0;
}

/* Section 6.2: the checks that need no configuration; the peer AS and
 * collision checks are the session's. */
int
bgp_open_decode(const uint8_t *p, size_t n, struct bgp_open *o,
    struct bgp_err *e)
{
	struct rbuf	r, params, val;
	uint8_t		plen, ptype, vlen;

	memset(o, 0, sizeof(*o));
	if (n < BGP_HEADER_LEN)	/* n - 19 would wrap */
		return bgp_fail(e, BGP_ERR_HEADER, BGP_ERR_HDR_LEN, "short");
	rbuf_init(&r, p + BGP_HEADER_LEN, n - BGP_HEADER_LEN);
	if (rbuf_get_u8(&r, &o->version) == -1 ||
	    rbuf_get_u16(&r, &o->my_as) == -1 ||
	    rbuf_get_u16(&r, &o->hold) == -1 ||
	    rbuf_get_u32(&r, &o->bgp_id) == -1 ||
	    rbuf_get_u8(&r, &plen) == -1)
		return bgp_fail(e, BGP_ERR_HEADER, BGP_ERR_HDR_LEN, "short");
	if (o->version != BGP_VERSION) {
		/* Data: the largest version we support (section 6.2). */
		bgp_fail(e, BGP_ERR_OPEN, BGP_ERR_OPEN_VERSION,
		    "unsupported version");
		e->data[0] = 0;
		e->data[1] = BGP_VERSION;
		e->datalen = 2;
		return -1;
	}
	if (o->hold == 1 || o->hold == 2)
		return bgp_fail(e, BGP_ERR_OPEN, BGP_ERR_OPEN_HOLD,
		    "hold time 1 or 2 seconds");
	if (o->bgp_id == 0)	/* RFC 6286 section 2.2 */
		return bgp_fail(e, BGP_ERR_OPEN, BGP_ERR_OPEN_BGPID,
		    "BGP identifier 0");
	if (o->my_as == 0)
		return bgp_fail(e, BGP_ERR_OPEN, BGP_ERR_OPEN_AS, "AS 0");
	if (rbuf_left(&r) != plen ||
	    rbuf_sub(&r, &params, plen) == -1)
		return bgp_fail(e, BGP_ERR_OPEN, 0,
		    "optional parameters length does not match the message");
	while (rbuf_left(&params) > 0) {
		if (rbuf_get_u8(&params, &ptype) == -1 ||
		    rbuf_get_u8(&params, &vlen) == -1 ||
		    rbuf_sub(&params, &val, vlen) == -1)
			return bgp_fail(e, BGP_ERR_OPEN, 0,
			    "optional parameter overruns the message");
		if (ptype != BGP_OPT_CAPABILITIES)
			return bgp_fail(e, BGP_ERR_OPEN, BGP_ERR_OPEN_OPT,
			    "unsupported optional parameter");
		if (bgp_caps_decode(&val, &o->caps) == -1)
			return bgp_fail(e, BGP_ERR_OPEN, 0,
			    "capability overruns its parameter");
	}
	if (o->caps.as4 && o->caps.as4_number == 0)
		return bgp_fail(e, BGP_ERR_OPEN, BGP_ERR_OPEN_AS,
		    "4-octet AS 0");
	return 0;
}

uint32_t
bgp_open_as(const struct bgp_open *o)
{
	return o->caps.as4 ? o->caps.as4_number : o->my_as;
}

int
bgp_keepalive_encode(struct wbuf *w)
{
	return bgp_msg_end(w, bgp_msg_begin(w, BGP_KEEPALIVE));
}

int
bgp_notification_encode(struct wbuf *w, uint8_t code, uint8_t subcode,
    const void *data, size_t len)
{
	size_t	start = bgp_msg_begin(w, BGP_NOTIFICATION);

	if (len > BGP_MAX_LEN - BGP_NOTIFICATION_MIN_LEN)
		len = BGP_MAX_LEN - BGP_NOTIFICATION_MIN_LEN;
	wbuf_put_u8(w, code);
	wbuf_put_u8(w, subcode);
	if (len > 0)
		wbuf_put_bytes(w, data, len);
	return bgp_msg_end(w, start);
}

int
bgp_notification_decode(const uint8_t *p, size_t n, uint8_t *code,
    uint8_t *subcode)
{
	if (n < BGP_NOTIFICATION_MIN_LEN)
		return -1;
	*code = p[BGP_HEADER_LEN];
	*subcode = p[BGP_HEADER_LEN + 1];
	return 0;
}

static const char *const bgp_hdr_names[] = {
	"unspecific", "connection not synchronized", "bad message length",
	"bad message type",
};
static const char *const bgp_open_names[] = {
	"unspecific", "unsupported version number", "bad peer AS",
	"bad BGP identifier", "unsupported optional parameter", "5",
	"unacceptable hold time", "unsupported capability",
};
static const char *const bgp_upd_names[] = {
	"unspecific", "malformed attribute list",
	"unrecognized well-known attribute", "missing well-known attribute",
	"attribute flags error", "attribute length error",
	"invalid ORIGIN attribute", "7", "invalid NEXT_HOP attribute",
	"optional attribute error", "invalid network field",
	"malformed AS_PATH",
};
static const char *const bgp_cease_names[] = {
	"unspecific", "maximum number of prefixes reached",
	"administrative shutdown", "peer de-configured",
	"administrative reset", "connection rejected",
	"other configuration change", "connection collision resolution",
	"out of resources", "hard reset",
};

/* "UPDATE message error / malformed AS_PATH" in a static buffer. */
const char *
bgp_err_name(uint8_t code, uint8_t subcode)
{
	static const char *const codes[] = {
		"0", "message header error", "OPEN message error",
		"UPDATE message error", "hold timer expired",
		"finite state machine error", "cease", "ROUTE-REFRESH error",
	};
	static char	buf[128];
	const char	*sub = NULL;

#define SUBNAME(t) (subcode < sizeof(t) / sizeof(t[0]) ? t[subcode] : NULL)
	if (code == BGP_ERR_HEADER)
		sub = SUBNAME(bgp_hdr_names);
	else if (code == BGP_ERR_OPEN)
		sub = SUBNAME(bgp_open_names);
	else if (code == BGP_ERR_UPDATE)
		sub = SUBNAME(bgp_upd_names);
	else if (code == BGP_ERR_CEASE)
		sub = SUBNAME(bgp_cease_names);
#undef SUBNAME
	if (code >= sizeof(codes) / sizeof(codes[0]))
		snprintf(buf, sizeof(buf), "error code %u / %u", code, subcode);
	else if (sub != NULL)
		snprintf(buf, sizeof(buf), "%s / %s", codes[code], sub);
	else
		snprintf(buf, sizeof(buf), "%s / %u", codes[code], subcode);
	return buf;
}

/* RFC 2918 section 3, subtype of RFC 7313 in the reserved byte. */
int
bgp_route_refresh_encode(struct wbuf *w, enum bgp_af af, uint8_t subtype)
{
	size_t	start = bgp_msg_begin(w, BGP_ROUTE_REFRESH);

	wbuf_put_u16(w, bgp_af_afi(af));
	wbuf_put_u8(w, subtype);
	wbuf_put_u8(w, BGP_SAFI_UNICAST);
	return bgp_msg_end(w, start);
}

int
bgp_route_refresh_decode(const uint8_t *p, size_t n, enum bgp_af *af,
    uint8_t *subtype, struct bgp_err *e)
{
	uint16_t	afi;
	uint8_t		a;

	if (n != BGP_RR_LEN)
		return bgp_fail(e, BGP_ERR_HEADER, BGP_ERR_HDR_LEN,
		    "ROUTE-REFRESH length");
	afi = (uint16_t)(p[19] << 8 | p[20]);
	*subtype = p[21];
	a = bgp_af_from(afi, p[22]);
	*af = a;
	return a == BGP_AF_MAX ? 1 : 0;	/* 1: a family we do not carry */
}

int
bgp_nlri_check(struct rbuf r, enum bgp_af af, int addpath)
{
	const uint8_t	*s = rbuf_ptr(&r);
	size_t		 left = rbuf_left(&r), n;
	unsigned	 bits = bgp_af_bits(af);

	for (; left > 0; s += n, left -= n)
		if ((n = bgp_nlri_size(s, left, bits, addpath)) == 0)
			return -1;
	return 0;
}

/* RFC 7606: the UPDATE's routes are withdrawn, the session stays. */
static void
bgp_treat_as_withdraw(struct bgp_update *u, const char *why)
{
	u->treat_as_withdraw = 1;
	if (u->malformed == NULL)
		u->malformed = why;
}

static void
bgp_attr_discard(struct bgp_update *u, const char *why)
{
	u->attr_discarded = 1;
	if (u->malformed == NULL)
		u->malformed = why;
}

/* AS_PATH segments (section 4.3 b, RFC 6793); -1 malformed (RFC 7606
 * section 7.2). */
static int
bgp_aspath_walk(struct rbuf r, int as4, uint16_t *count, uint32_t *first,
    uint32_t *out, uint8_t *n_out, uint8_t max_out)
{
	uint8_t		type, segn, i;
	uint16_t	a16;
	uint32_t	as;

	*count = 0;
	*first = 0;
	while (rbuf_left(&r) > 0) {
		if (rbuf_get_u8(&r, &type) == -1 ||
		    rbuf_get_u8(&r, &segn) == -1 || segn == 0 ||
		    type < BGP_ASPATH_SET || type > BGP_ASPATH_CONFED_SET)
			return -1;
		for (i = 0; i < segn; i++) {
			if (as4) {
				if (rbuf_get_u32(&r, &as) == -1)
					return -1;
			} else {
				if (rbuf_get_u16(&r, &a16) == -1)
					return -1;
				as = a16;
			}
			if (*count == 0)
				*first = as;
			(*count)++;
			if (out != NULL && *n_out < max_out)
				out[(*n_out)++] = as;
		}
	}
	return 0;
}

/* Well-known attributes must say so in their flags (section 6.3). */
static int
bgp_flags_ok(uint8_t type, uint8_t flags)
{
	uint8_t	ot = flags & (BGP_ATTR_OPTIONAL | BGP_ATTR_TRANSITIVE);

	switch (type) {
	case BGP_ATTR_ORIGIN:
	case BGP_ATTR_AS_PATH:
	case BGP_ATTR_NEXT_HOP:
	case BGP_ATTR_LOCAL_PREF:
	case BGP_ATTR_ATOMIC_AGG:
		return ot == BGP_ATTR_TRANSITIVE;
	case BGP_ATTR_MED:
	case BGP_ATTR_MP_REACH:
	case BGP_ATTR_MP_UNREACH:
	case BGP_ATTR_ORIGINATOR_ID:
	case BGP_ATTR_CLUSTER_LIST:
		return ot == BGP_ATTR_OPTIONAL;
	default:
		return 1;
	}
}

static uint32_t
bgp_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

/*
 * A family of the table beyond unicast that the session negotiated:
 * its span kept for the receiver, checked in bgp_update_decode.  The
 * next hop: an RD of zeros and an address for L3VPN (RFC 4364 section
 * 4.3.2, RFC 4659 section 3.2.1: 24 or 48), an address otherwise.
 */
static int
bgp_mp_reach_fam(struct bgp_update *u, unsigned fam, struct rbuf v,
    uint8_t nhlen, struct bgp_err *e)
{
	const struct bgp_family	*f = &bgp_families[fam];
	uint8_t			 a = f->addr_af == BGP_AF_IPV6 ? 16 : 4;
	uint8_t			 rd = f->nh_rd ? 8 : 0;

	if (f->no_nh && nhlen != 0)
		return bgp_fail(e, BGP_ERR_UPDATE, BGP_ERR_UPD_OPTATTR,
		    "MP_REACH_NLRI next hop length");
	if (!f->no_nh && nhlen != rd + a && nhlen != 2 * (rd + a) &&
	    !(a == 4 && nhlen == rd + 16))
		return bgp_fail(e, BGP_ERR_UPDATE, BGP_ERR_UPD_OPTATTR,
		    "MP_REACH_NLRI next hop length");
	u->mp_nh_len = nhlen;
	u->mp_reach_fam = (uint8_t)fam;
	u->mp_reach = v;
	return 0;
}

/* MP_REACH_NLRI (RFC 4760 section 3); errors reset the session (RFC
 * 7606 section 7.11). */
static int
bgp_mp_reach(struct bgp_update *u, struct rbuf v,
    const struct bgp_sess_caps *sc, struct bgp_err *e)
{
	uint16_t	afi;
	uint8_t		safi, nhlen, reserved, af;
	unsigned	fam;

	if (rbuf_get_u16(&v, &afi) == -1 || rbuf_get_u8(&v, &safi) == -1 ||
	    rbuf_get_u8(&v, &nhlen) == -1 || nhlen > sizeof(u->mp_nh) ||
	    rbuf_get_bytes(&v, u->mp_nh, nhlen) == -1 ||
	    rbuf_get_u8(&v, &reserved) == -1)
		return bgp_fail(e, BGP_ERR_UPDATE, BGP_ERR_UPD_OPTATTR,
		    "malformed MP_REACH_NLRI");
	af = bgp_af_from(afi, safi);
	if (af == BGP_AF_MAX) {
		fam = bgp_family_from(afi, safi);
		if (fam < BGP_FAM_MAX && (sc->fam_rx & 1u << fam))
			return bgp_mp_reach_fam(u, fam, v, nhlen, e);
		return 0;	/* a family we did not negotiate: ignored */
	}
	if ((af == BGP_AF_IPV4 && nhlen != 4 && nhlen != 16) ||
	    (af == BGP_AF_IPV6 && nhlen != 16 && nhlen != 32))
		return bgp_fail(e, BGP_ERR_UPDATE, BGP_ERR_UPD_OPTATTR,
		    "MP_REACH_NLRI next hop length");
	u->mp_nh_len = nhlen;
	u->mp_reach_af = af;
	u->mp_reach = v;
	return 0;
}

static int
bgp_mp_unreach(struct bgp_update *u, struct rbuf v,
    const struct bgp_sess_caps *sc, struct bgp_err *e)
{
	uint16_t	afi;
	uint8_t		safi, af;
	unsigned	fam;

	if (rbuf_get_u16(&v, &afi) == -1 || rbuf_get_u8(&v, &safi) == -1)
		return bgp_fail(e, BGP_ERR_UPDATE, BGP_ERR_UPD_OPTATTR,
		    "malformed MP_UNREACH_NLRI");
	af = bgp_af_from(afi, safi);
	if (af == BGP_AF_MAX) {
		fam = bgp_family_from(afi, safi);
		if (fam < BGP_FAM_MAX && (sc->fam_rx & 1u << fam)) {
			u->mp_unreach_fam = (uint8_t)fam;
			u->mp_unreach = v;
		}
		return 0;
	}
	u->mp_unreach_af = af;
	u->mp_unreach = v;
	return 0;
}

/* RFC 7606 section 7.1. */
static void
bgp_attr_origin(struct bgp_update *u, const uint8_t *p, size_t len)
{
	if (len != 1 || p[0] > BGP_ORIGIN_INCOMPLETE)
		bgp_treat_as_withdraw(u, "bad ORIGIN");
	else {
		u->has_origin = 1;
		u->origin = p[0];
	}
}

/* RFC 7606 section 7.2. */
static void
bgp_attr_as_path(struct bgp_update *u, struct rbuf v,
    const struct bgp_sess_caps *sc)
{
	if (bgp_aspath_walk(v, sc->as4, &u->as_path_len, &u->first_as,
	    NULL, NULL, 0) == -1)
		bgp_treat_as_withdraw(u, "malformed AS_PATH");
	else
		u->has_as_path = 1;
}

/* RFC 7606 section 7.3. */
static void
bgp_attr_next_hop(struct bgp_update *u, const uint8_t *p, size_t len)
{
	if (len != 4)
		bgp_treat_as_withdraw(u, "NEXT_HOP length");
	else {
		u->has_next_hop = 1;
		memcpy(u->next_hop, p, 4);
	}
}

/* MULTI_EXIT_DISC and LOCAL_PREF (RFC 7606 section 7.4, 7.5). */
static void
bgp_attr_metric(struct bgp_update *u, uint8_t type, const uint8_t *p,
    size_t len)
{
	if (len != 4) {
		bgp_treat_as_withdraw(u, "MED or LOCAL_PREF length");
		return;
	}
	if (type == BGP_ATTR_MED) {
		u->has_med = 1;
		u->med = bgp_get32(p);
	} else {
		u->has_local_pref = 1;
		u->local_pref = bgp_get32(p);
	}
}

/* A list of items of unit bytes: empty or a partial item is malformed
 * (RFC 7606 section 7.8, 7.10, 7.14; RFC 8092 section 6), and the UPDATE
 * treated as a withdrawal.  The count of items, or -1. */
static long
bgp_attr_list(struct bgp_update *u, size_t len, size_t unit,
    const char *what)
{
	if (len == 0 || len % unit != 0) {
		bgp_treat_as_withdraw(u, what);
		return -1;
	}
	return (long)(len / unit);
}

/* RFC 6793 section 6: a malformed AS4_PATH is discarded. */
static void
bgp_attr_as4_path(struct bgp_update *u, struct rbuf v)
{
	uint16_t	n;
	uint32_t	f;

	if (bgp_aspath_walk(v, 1, &n, &f, NULL, NULL, 0) == -1)
		bgp_attr_discard(u, "malformed AS4_PATH");
}

/* One attribute's value, by RFC 7606 section 7's rules per type. */
static int
bgp_attr_one(struct bgp_update *u, uint8_t type, struct rbuf v,
    const struct bgp_sess_caps *sc, struct bgp_err *e)
{
	size_t		len = rbuf_left(&v);
	const uint8_t	*p = rbuf_ptr(&v);
	long		n;

	switch (type) {
	case BGP_ATTR_ORIGIN:
		bgp_attr_origin(u, p, len);
		break;
	case BGP_ATTR_AS_PATH:
		bgp_attr_as_path(u, v, sc);
		break;
	case BGP_ATTR_NEXT_HOP:
		bgp_attr_next_hop(u, p, len);
		break;
	case BGP_ATTR_MED:
	case BGP_ATTR_LOCAL_PREF:
		bgp_attr_metric(u, type, p, len);
		break;
	case BGP_ATTR_ATOMIC_AGG:
		if (len != 0)
			bgp_attr_discard(u, "ATOMIC_AGGREGATE length");
		break;
	case BGP_ATTR_AGGREGATOR:
		if (len != (sc->as4 ? 8u : 6u))
			bgp_attr_discard(u, "AGGREGATOR length");
		break;
	case BGP_ATTR_COMMUNITIES:
		if ((n = bgp_attr_list(u, len, 4, "COMMUNITIES length")) >= 0)
			u->n_comm = (uint16_t)n;
		break;
	case BGP_ATTR_LARGE_COMMUNITIES:
		if ((n = bgp_attr_list(u, len, 12,
		    "LARGE_COMMUNITY length")) >= 0)
			u->n_lcomm = (uint16_t)n;
		break;
	case BGP_ATTR_EXT_COMMUNITIES:
		(void)bgp_attr_list(u, len, 8, "EXTENDED_COMMUNITIES length");
		break;
	case BGP_ATTR_ORIGINATOR_ID:
		if (len != 4)
			bgp_treat_as_withdraw(u, "ORIGINATOR_ID length");
		break;
	case BGP_ATTR_CLUSTER_LIST:
		(void)bgp_attr_list(u, len, 4, "CLUSTER_LIST length");
		break;
	case BGP_ATTR_AS4_PATH:
		bgp_attr_as4_path(u, v);
		break;
	case BGP_ATTR_MP_REACH:
		return bgp_mp_reach(u, v, sc, e);
	case BGP_ATTR_MP_UNREACH:
		return bgp_mp_unreach(u, v, sc, e);
	}
	return 0;
}

/* Attribute types seen, for the duplicate rule (RFC 7606 section 3 g). */
struct bgp_seen {
	uint64_t	bits[4];
};

static int
bgp_seen_test_set(struct bgp_seen *s, uint8_t type)
{
	uint64_t	bit = 1ull << (type % 64);
	int		was = (s->bits[type / 64] & bit) != 0;

	s->bits[type / 64] |= bit;
	return was;
}

static int
bgp_known_type(uint8_t type)
{
	return (type >= BGP_ATTR_ORIGIN && type <= BGP_ATTR_AS4_AGGREGATOR) ||
	    type == BGP_ATTR_LARGE_COMMUNITIES;
}

/* One attribute's flags, type and value (section 4.3) off r; -1 when it
 * overruns the attributes. */
static int
bgp_attr_next(struct rbuf *r, uint8_t *flags, uint8_t *type, struct rbuf *v)
{
	uint16_t	len;
	uint8_t		l8;

	if (rbuf_get_u8(r, flags) == -1 || rbuf_get_u8(r, type) == -1)
		return -1;
	if (*flags & BGP_ATTR_EXTLEN) {
		if (rbuf_get_u16(r, &len) == -1)
			return -1;
	} else {
		if (rbuf_get_u8(r, &l8) == -1)
			return -1;
		len = l8;
	}
	return rbuf_sub(r, v, len);
}

/* Section 6.3: the data is the attribute, flags, type, length and all. */
static int
bgp_unknown_wellknown(struct bgp_err *e, uint8_t flags, uint8_t type,
    const uint8_t *start, const uint8_t *end)
{
	bgp_fail(e, BGP_ERR_UPDATE, BGP_ERR_UPD_UNKNWN_WK,
	    "unrecognized well-known attribute");
	e->data[0] = flags;
	e->data[1] = type;
	e->datalen = 2;
	e->wire = start;
	e->wirelen = (uint16_t)(end - start);
	return -1;
}

/* The path attributes (section 4.3, 6.3, RFC 7606 section 3 and 4). */
static int
bgp_attrs_walk(struct bgp_update *u, struct rbuf r,
    const struct bgp_sess_caps *sc, struct bgp_err *e)
{
	struct bgp_seen	 seen;
	struct rbuf	 v;
	const uint8_t	*start;
	uint8_t		 flags, type;
	int		 mp_seen = 0;

	memset(&seen, 0, sizeof(seen));
	while (rbuf_left(&r) > 0) {
		start = rbuf_ptr(&r);
		if (bgp_attr_next(&r, &flags, &type, &v) == -1)
			goto overrun;
		if (type == BGP_ATTR_MP_REACH || type == BGP_ATTR_MP_UNREACH) {
			if (bgp_seen_test_set(&seen, type))
				return bgp_fail(e, BGP_ERR_UPDATE,
				    BGP_ERR_UPD_ATTRLIST,
				    "MP_REACH or MP_UNREACH twice");
			mp_seen = 1;
		} else if (bgp_seen_test_set(&seen, type)) {
			bgp_attr_discard(u, "repeated attribute");
			continue;
		}
		if (!(flags & BGP_ATTR_OPTIONAL) && !bgp_known_type(type))
			return bgp_unknown_wellknown(e, flags, type, start,
			    rbuf_ptr(&r));
		if (!bgp_flags_ok(type, flags)) {
			if (type == BGP_ATTR_MP_REACH ||
			    type == BGP_ATTR_MP_UNREACH)
				return bgp_fail(e, BGP_ERR_UPDATE,
				    BGP_ERR_UPD_FLAGS, "MP attribute flags");
			bgp_treat_as_withdraw(u, "attribute flags");
			continue;
		}
		if (bgp_attr_one(u, type, v, sc, e) == -1)
			return -1;
	}
	return 0;
overrun:
	/* RFC 7606 section 4: with an MP attribute the NLRI cannot be
	 * trusted, so the session is reset; else treat-as-withdraw. */
	if (mp_seen)
		return bgp_fail(e, BGP_ERR_UPDATE, BGP_ERR_UPD_ATTRLIST,
		    "attribute overruns the attributes");
	bgp_treat_as_withdraw(u, "attribute overruns the attributes");
	return 0;
}

/*
 * The spans of the other families' MP attributes (RFC 7606 section 5.3:
 * an NLRI that cannot be parsed resets the session, or disables the
 * family; we reset).  Path ids are not offered for them.
 */
static int
bgp_fam_spans_check(struct bgp_update *u)
{
	uint64_t	n;
	int		got = 0;

	if (u->mp_reach_fam != BGP_FAM_MAX && (got = bgp_family_check(
	    u->mp_reach_fam, rbuf_ptr(&u->mp_reach), rbuf_left(&u->mp_reach),
	    0, &n)) == -1)
		return -1;
	/* Framed entries malformed inside: RFC 9552 section 8.2.2. */
	if (got == 1)
		bgp_treat_as_withdraw(u, "malformed NLRI inside its length");
	if (u->mp_unreach_fam != BGP_FAM_MAX && bgp_family_check(
	    u->mp_unreach_fam, rbuf_ptr(&u->mp_unreach),
	    rbuf_left(&u->mp_unreach), 0, &n) == -1)
		return -1;
	return 0;
}

/* Mandatory attributes of section 5 for UPDATEs that announce (RFC 7606
 * section 3 d: missing ones make the UPDATE treat-as-withdraw). */
static void
bgp_check_mandatory(struct bgp_update *u)
{
	int	v4 = rbuf_left(&u->nlri) > 0;
	int	mp = u->mp_reach_af != BGP_AF_MAX ||
	    u->mp_reach_fam != BGP_FAM_MAX;

	if (!v4 && !mp)
		return;
	if (!u->has_origin || !u->has_as_path || (v4 && !u->has_next_hop))
		bgp_treat_as_withdraw(u, "missing well-known attribute");
}

int
bgp_update_decode(const uint8_t *p, size_t n, const struct bgp_sess_caps *sc,
    struct bgp_update *u, struct bgp_err *e)
{
	struct rbuf	r, attrs;
	uint16_t	wlen, alen;

	memset(u, 0, sizeof(*u));
	u->mp_reach_af = u->mp_unreach_af = BGP_AF_MAX;
	u->mp_reach_fam = u->mp_unreach_fam = BGP_FAM_MAX;
	if (n < BGP_HEADER_LEN)	/* n - 19 would wrap */
		return bgp_fail(e, BGP_ERR_HEADER, BGP_ERR_HDR_LEN, "short");
	rbuf_init(&r, p + BGP_HEADER_LEN, n - BGP_HEADER_LEN);
	if (rbuf_get_u16(&r, &wlen) == -1 ||
	    rbuf_sub(&r, &u->withdrawn, wlen) == -1 ||
	    rbuf_get_u16(&r, &alen) == -1 || rbuf_sub(&r, &attrs, alen) == -1)
		return bgp_fail(e, BGP_ERR_UPDATE, BGP_ERR_UPD_ATTRLIST,
		    "withdrawn or attribute length past the message");
	u->nlri = r;
	u->attrs = rbuf_ptr(&attrs);
	u->attrs_len = alen;
	if (bgp_nlri_check(u->withdrawn, BGP_AF_IPV4,
	    sc->addpath_rx[BGP_AF_IPV4]) == -1 ||
	    bgp_nlri_check(u->nlri, BGP_AF_IPV4,
	    sc->addpath_rx[BGP_AF_IPV4]) == -1)
		return bgp_fail(e, BGP_ERR_UPDATE, BGP_ERR_UPD_NETWORK,
		    "malformed IPv4 prefix");
	if (bgp_attrs_walk(u, attrs, sc, e) == -1)
		return -1;
	if ((u->mp_reach_af != BGP_AF_MAX && bgp_nlri_check(u->mp_reach,
	    u->mp_reach_af, sc->addpath_rx[u->mp_reach_af]) == -1) ||
	    (u->mp_unreach_af != BGP_AF_MAX && bgp_nlri_check(u->mp_unreach,
	    u->mp_unreach_af, sc->addpath_rx[u->mp_unreach_af]) == -1))
		return bgp_fail(e, BGP_ERR_UPDATE, BGP_ERR_UPD_OPTATTR,
		    "malformed MP NLRI");
	if (bgp_fam_spans_check(u) == -1)
		return bgp_fail(e, BGP_ERR_UPDATE, BGP_ERR_UPD_OPTATTR,
		    "malformed MP NLRI");
	if (wlen == 0 && alen == 0 && rbuf_left(&u->nlri) == 0) {
		u->end_of_rib = 1;
		u->eor_af = BGP_AF_IPV4;
	} else if ((u->mp_unreach_af != BGP_AF_MAX ||
	    u->mp_unreach_fam != BGP_FAM_MAX) && wlen == 0 &&
	    rbuf_left(&u->nlri) == 0 && rbuf_left(&u->mp_unreach) == 0 &&
	    u->mp_reach_af == BGP_AF_MAX && u->mp_reach_fam == BGP_FAM_MAX &&
	    alen <= 6 + 2) {
		u->end_of_rib = 1;
		u->eor_af = u->mp_unreach_af != BGP_AF_MAX ? u->mp_unreach_af :
		    u->mp_unreach_fam;
	}
	bgp_check_mandatory(u);
	return 0;
}
