/*
 * The family table (bgp_family.h) and what every family shares: lookup
 * by name or AFI/SAFI, the ADD-PATH path id (RFC 7911 section 3) around
 * each entry, walking and checking a received span, adding a route to an
 * UPDATE; and the unicast rows' own functions (RFC 4271 section 4.3).
 */
#include <string.h>

#include "bgp_family.h"

static void	 bgp_uni_nth(const struct bgp_family *, const struct bgp_gen *,
		    const struct bgp_prefix *, uint64_t, struct bgp_route *);
static size_t	 bgp_uni_encode(const struct bgp_family *, uint8_t *, size_t,
		    const struct bgp_route *, int);
static size_t	 bgp_uni_decode(const struct bgp_family *, const uint8_t *,
		    size_t, struct bgp_route *);
static char	*bgp_uni_print(const struct bgp_route *, char *, size_t);

#define UNI(n, afi, af)	{ n, afi, BGP_SAFI_UNICAST, af, 0, bgp_uni_nth, \
	bgp_uni_encode, bgp_uni_decode, bgp_uni_print, NULL, NULL, NULL, 0 }
#define LBL(n, afi, safi, af, nhrd)	{ n, afi, safi, af, nhrd,	\
	bgp_lbl_nth, bgp_lbl_encode, bgp_lbl_decode, bgp_lbl_print,	\
	bgp_lbl_run, NULL, NULL, 0 }

const struct bgp_family bgp_families[BGP_FAM_MAX] = {
	[BGP_FAM_IPV4] = UNI("ipv4-unicast", BGP_AFI_IPV4, BGP_AF_IPV4),
	[BGP_FAM_IPV6] = UNI("ipv6-unicast", BGP_AFI_IPV6, BGP_AF_IPV6),
	[BGP_FAM_VPN4] = LBL("l3vpn-ipv4-unicast", BGP_AFI_IPV4, BGP_SAFI_VPN,
	    BGP_AF_IPV4, 1),
	[BGP_FAM_VPN6] = LBL("l3vpn-ipv6-unicast", BGP_AFI_IPV6, BGP_SAFI_VPN,
	    BGP_AF_IPV6, 1),
	[BGP_FAM_LU4] = LBL("ipv4-labelled-unicast", BGP_AFI_IPV4,
	    BGP_SAFI_LABELED, BGP_AF_IPV4, 0),
	[BGP_FAM_EVPN] = { "l2vpn-evpn", BGP_AFI_L2VPN, BGP_SAFI_EVPN,
	    BGP_AF_IPV4, 0, bgp_evpn_nth, bgp_evpn_encode, bgp_evpn_decode,
	    bgp_evpn_print, NULL, NULL, bgp_evpn_ext, 0 },
	[BGP_FAM_FLOW4] = { "ipv4-flowspec", BGP_AFI_IPV4, BGP_SAFI_FLOW,
	    BGP_AF_IPV4, 0, bgp_flow_nth, bgp_flow_encode, bgp_flow_decode,
	    bgp_flow_print, NULL, NULL, bgp_flow_ext, 1 },
	[BGP_FAM_FLOW6] = { "ipv6-flowspec", BGP_AFI_IPV6, BGP_SAFI_FLOW,
	    BGP_AF_IPV6, 0, bgp_flow_nth, bgp_flow_encode, bgp_flow_decode,
	    bgp_flow_print, NULL, NULL, bgp_flow_ext, 1 },
	[BGP_FAM_LS] = { "ls", BGP_AFI_LS, BGP_SAFI_LS, BGP_AF_IPV4, 0,
	    bgp_ls_nth, bgp_ls_encode, bgp_ls_decode, bgp_ls_print, NULL,
	    bgp_ls_attr, NULL, 0 },
};

uint8_t *
bgp_ext_add(struct bgp_attrs *a, uint8_t type, uint8_t subtype)
{
	uint8_t	*e;

	if (a->n_ext >= BGP_MAX_EXT)
		return NULL;
	e = a->ext[a->n_ext++];
	memset(e, 0, 8);
	e[0] = type;
	e[1] = subtype;
	return e;
}

unsigned
bgp_family_by_name(const char *name)
{
	unsigned	f;

	for (f = 0; f < BGP_FAM_MAX; f++)
		if (strcmp(bgp_families[f].name, name) == 0)
			return f;
	return BGP_FAM_MAX;
}

unsigned
bgp_family_from(uint16_t afi, uint8_t safi)
{
	unsigned	f;

	for (f = 0; f < BGP_FAM_MAX; f++)
		if (bgp_families[f].afi == afi && bgp_families[f].safi == safi)
			return f;
	return BGP_FAM_MAX;
}

char *
bgp_route_str(const struct bgp_route *r, char *buf, size_t len)
{
	return bgp_families[r->fam].print(r, buf, len);
}

/* The next route of a span: 1 got one, 0 none left, -1 malformed. */
static int
bgp_route_next(unsigned fam, struct rbuf *r, int addpath,
    struct bgp_route *rt)
{
	const struct bgp_family	*f = &bgp_families[fam];
	const uint8_t		*s = r->data + r->off;
	size_t			 left = r->len - r->off, hdr = addpath ? 4 : 0;
	size_t			 n;

	if (left == 0)
		return 0;
	memset(rt, 0, sizeof(*rt));
	rt->fam = (uint8_t)fam;
	if (left < hdr + 1 ||
	    (n = f->decode(f, s + hdr, left - hdr, rt)) == 0)
		return -1;
	if (addpath)
		rt->pfx.path_id = (uint32_t)s[0] << 24 | (uint32_t)s[1] << 16 |
		    (uint32_t)s[2] << 8 | s[3];
	r->off += hdr + n;
	return 1;
}

int
bgp_family_check(unsigned fam, const uint8_t *s, size_t len, int addpath,
    uint64_t *n)
{
	struct rbuf		r;
	struct bgp_route	rt;
	int			got, bad = 0;

	rbuf_init(&r, s, len);
	*n = 0;
	while ((got = bgp_route_next(fam, &r, addpath, &rt)) == 1) {
		(*n)++;
		bad |= rt.malformed;
	}
	return got == -1 ? -1 : bad;
}

/* A family whose routes each have their own attribute (BGP-LS's, RFC
 * 9552 section 5.3): one route per UPDATE, its attribute appended to
 * those bgp_ub_end writes after MP_REACH (the limit kept room for them).
 * 0 added, 1 full. */
static int
bgp_ub_own_attr(struct bgp_ub *b, const struct bgp_family *f,
    const struct bgp_route *r, size_t end)
{
	size_t	n;

	if (b->count > 0 || b->tail != b->own)
		return 1;
	n = f->attr(r, b->own + b->tail_len, sizeof(b->own) - b->tail_len);
	/* end: where the route's entry ends, once written. */
	if (n == 0 || end + n > b->limit)
		return 1;
	b->tail_len += n;
	b->limit -= n;
	return 0;
}

/* Written in place where the message and the buffer have room, as
 * bgp_ub_add does for prefixes; past the buffer the wbuf is marked
 * failed so that bgp_commit drops the message. */
int
bgp_ub_add_route(struct bgp_ub *b, const struct bgp_route *r)
{
	const struct bgp_family	*f = &bgp_families[r->fam];
	struct wbuf		*w = b->w;
	size_t			 hdr = b->addpath ? 4 : 0, room, n;
	uint8_t			*d;

	if (w->len + hdr >= b->limit)
		return 1;
	room = b->limit - w->len - hdr;
	if (w->err || w->cap < b->limit) {
		if (w->err || w->cap - w->len < hdr + 1) {
			w->err = 1;
			return 1;
		}
		if (room > w->cap - w->len - hdr)
			room = w->cap - w->len - hdr;
	}
	d = w->data + w->len;
	if ((n = f->encode(f, d + hdr, room, r, b->withdraw)) == 0)
		return 1;
	if (f->attr != NULL && !b->withdraw &&
	    bgp_ub_own_attr(b, f, r, w->len + hdr + n) != 0)
		return 1;
	if (hdr) {
		d[0] = (uint8_t)(r->pfx.path_id >> 24);
		d[1] = (uint8_t)(r->pfx.path_id >> 16);
		d[2] = (uint8_t)(r->pfx.path_id >> 8);
		d[3] = (uint8_t)r->pfx.path_id;
	}
	w->len += hdr + n;
	b->count++;
	return 0;
}

uint64_t
bgp_ub_add_routes(struct bgp_ub *b, unsigned fam, const struct bgp_gen *g,
    const struct bgp_prefix *first, uint64_t n, uint64_t k)
{
	const struct bgp_family	*f = &bgp_families[fam];
	struct bgp_route	 r;
	uint64_t		 i = 0;

	if (f->run != NULL && !b->addpath)
		i = f->run(f, g, first, n, k, b);
	/* What the run left near the buffer's end, or with path ids. */
	for (; i < k; i++) {
		f->nth(f, g, first, n + i, &r);
		if (bgp_ub_add_route(b, &r) != 0)
			break;
	}
	return i;
}

uint8_t
bgp_family_next_hop(unsigned fam, const struct bgp_attrs *a, uint8_t *d)
{
	const struct bgp_family	*f = &bgp_families[fam];
	uint8_t			 rd = f->nh_rd ? 8 : 0;

	if (f->no_nh)		/* RFC 8955 section 4: length 0 */
		return 0;
	memset(d, 0, rd);
	if (f->addr_af == BGP_AF_IPV6) {
		memcpy(d + rd, a->next_hop6, 16);
		return (uint8_t)(rd + 16);
	}
	memcpy(d + rd, a->next_hop4, 4);
	return (uint8_t)(rd + 4);
}

static void
bgp_uni_nth(const struct bgp_family *f, const struct bgp_gen *g,
    const struct bgp_prefix *first, uint64_t n, struct bgp_route *r)
{
	(void)g;
	bgp_prefix_nth(first, n, &r->pfx);
	r->fam = (uint8_t)(f - bgp_families);
	r->label = 0;
	memset(r->rd, 0, sizeof(r->rd));
}

/* Length in bits, then the fewest bytes that hold the prefix. */
static size_t
bgp_uni_encode(const struct bgp_family *f, uint8_t *d, size_t room,
    const struct bgp_route *r, int withdraw)
{
	size_t	bytes = (r->pfx.len + 7u) / 8u;

	(void)f;
	(void)withdraw;
	if (room < 1 + bytes)
		return 0;
	d[0] = r->pfx.len;
	memcpy(d + 1, r->pfx.addr, bytes);
	return 1 + bytes;
}

static size_t
bgp_uni_decode(const struct bgp_family *f, const uint8_t *s, size_t left,
    struct bgp_route *r)
{
	struct rbuf	rb;

	rbuf_init(&rb, s, left);
	if (bgp_nlri_next(&rb, f->addr_af, 0, &r->pfx) != 1)
		return 0;
	return rb.off;
}

static char *
bgp_uni_print(const struct bgp_route *r, char *buf, size_t len)
{
	return bgp_prefix_str(&r->pfx, buf, len);
}
