/*
 * BGP-4 message codec: no I/O, no state.
 *
 * Decoders take the whole message (header included, exactly the header's
 * length) and return 0, or -1 with a struct bgp_err saying which
 * NOTIFICATION a speaker sends (RFC 4271 section 6).  UPDATE decoding
 * follows RFC 7606: a malformed attribute that only spoils its own routes
 * makes the UPDATE "treat-as-withdraw" (reported in the view, not as an
 * error); what leaves the message unparseable resets the session.
 * Encoders append one complete message to a wbuf; the caller checks the
 * wbuf's err flag once.
 */
#ifndef SBSIM_BGP_CODEC_H
#define SBSIM_BGP_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bgp_wire.h"
#include "buf.h"

/* The NOTIFICATION to send: code, subcode and the data field. */
struct bgp_err {
	uint8_t		 code;
	uint8_t		 subcode;
	uint8_t		 data[8];
	uint8_t		 datalen;
	/* Data that lies in the message itself (the whole offending
	 * attribute, RFC 4271 section 6.3): sent instead of data. */
	const uint8_t	*wire;
	uint16_t	 wirelen;
	const char	*why;		/* for the log */
};

/* The unicast rows of the family table (bgp_family.h), which index the
 * per-family tables below and the controller's. */
enum bgp_af {
	BGP_AF_IPV4,		/* AFI 1 SAFI 1 */
	BGP_AF_IPV6,		/* AFI 2 SAFI 1 */
	BGP_AF_MAX,
};

/* What an OPEN offers (RFC 5492 capabilities), per address family. */
struct bgp_caps {
	uint8_t		mp[BGP_AF_MAX];		/* multiprotocol */
	uint8_t		addpath[BGP_AF_MAX];	/* BGP_ADDPATH_* bits */
	uint8_t		gr_af[BGP_AF_MAX];	/* 1 listed, 3 with F bit */
	uint8_t		as4;
	uint8_t		route_refresh;
	uint8_t		enhanced_rr;
	uint8_t		graceful;
	uint8_t		gr_flags;		/* R (0x8) and N bits */
	uint16_t	gr_time;		/* restart time, 12 bits */
	uint32_t	as4_number;
	uint8_t		any;			/* a capabilities parameter */
	/* Multiprotocol for the other rows of the family table: bit f
	 * for row f (enum bgp_fam). */
	uint32_t	mp_fam;
};

struct bgp_open {
	uint8_t		version;
	uint16_t	my_as;		/* 2-octet field; AS_TRANS for big */
	uint16_t	hold;
	uint32_t	bgp_id;		/* host order */
	struct bgp_caps	caps;
};

/* One prefix; addr in network order, the unused bits zero. */
struct bgp_prefix {
	uint8_t		af;		/* enum bgp_af */
	uint8_t		len;
	uint32_t	path_id;	/* ADD-PATH (RFC 7911 section 3) */
	uint8_t		addr[16];
};

#define BGP_MAX_ASPATH	64
#define BGP_MAX_COMM	32
#define BGP_MAX_CLUSTER	8
#define BGP_MAX_EXT	32

/* Attributes of announced routes, for encoding. */
struct bgp_attrs {
	uint8_t		origin;
	uint8_t		has_med;
	uint8_t		has_local_pref;
	uint8_t		n_as;
	uint8_t		n_comm;
	uint8_t		n_lcomm;
	uint8_t		has_originator;
	uint8_t		n_cluster;
	uint32_t	as_path[BGP_MAX_ASPATH];	/* one AS_SEQUENCE */
	uint32_t	med;
	uint32_t	local_pref;
	uint8_t		next_hop4[4];
	uint8_t		next_hop6[16];
	uint32_t	comm[BGP_MAX_COMM];
	uint32_t	lcomm[BGP_MAX_COMM][3];
	uint8_t		n_ext;		/* extended communities (RFC 4360) */
	uint8_t		ext[BGP_MAX_EXT][8];
	/* Route reflection (RFC 4456 section 7), host order. */
	uint32_t	originator;
	uint32_t	cluster[BGP_MAX_CLUSTER];
};

/*
 * A decoded UPDATE: spans of the message for the NLRI, and the attributes
 * a receiver looks at.  Walk the NLRI with bgp_nlri_next().
 */
struct bgp_update {
	struct rbuf	withdrawn;	/* IPv4 withdrawn routes */
	struct rbuf	nlri;		/* IPv4 NLRI */
	struct rbuf	mp_reach;	/* NLRI of MP_REACH_NLRI */
	struct rbuf	mp_unreach;	/* NLRI of MP_UNREACH_NLRI */
	uint8_t		mp_reach_af;	/* enum bgp_af, BGP_AF_MAX: none */
	uint8_t		mp_unreach_af;
	/* The other rows of the family table, where the session
	 * negotiated them (bgp_sess_caps.fam_rx): BGP_FAM_MAX none; the
	 * spans are then mp_reach and mp_unreach. */
	uint8_t		mp_reach_fam;
	uint8_t		mp_unreach_fam;
	uint8_t		mp_nh_len;
	uint8_t		mp_nh[48];	/* RFC 4659 section 3.2.1 */
	uint8_t		has_origin;
	uint8_t		origin;
	uint8_t		has_next_hop;
	uint8_t		next_hop[4];
	uint8_t		has_med, has_local_pref;
	uint32_t	med, local_pref;
	uint8_t		has_as_path;
	uint16_t	as_path_len;	/* ASes counted in AS_PATH */
	uint32_t	first_as;	/* leftmost AS, 0 when empty */
	uint16_t	n_comm, n_lcomm;
	const uint8_t	*attrs;		/* the path attributes as sent */
	uint16_t	attrs_len;
	/* RFC 7606: the routes of this UPDATE are to be withdrawn. */
	uint8_t		treat_as_withdraw;
	uint8_t		attr_discarded;	/* some attribute was dropped */
	const char	*malformed;	/* what made it so, for the log */
	uint8_t		end_of_rib;	/* RFC 4724 section 2 */
	uint8_t		eor_af;
};

/* What a session negotiated, which the codec needs. */
struct bgp_sess_caps {
	uint8_t		as4;			/* 4-octet AS_PATH */
	uint8_t		addpath_rx[BGP_AF_MAX];	/* path ids come in */
	uint8_t		addpath_tx[BGP_AF_MAX];	/* path ids go out */
	uint32_t	fam_rx;		/* bgp_caps.mp_fam both sides had */
};

/* Header (section 4.1): the marker must be all ones, the length within
 * the type's bounds.  Checks only the first 19 bytes. */
int	 bgp_header_decode(const uint8_t *, size_t, uint16_t *len,
	    uint8_t *type, struct bgp_err *);

/* Start a message (its length patched by bgp_msg_end); returns its
 * offset.  bgp_msg_end fails a message past 4096 bytes. */
size_t	 bgp_msg_begin(struct wbuf *, uint8_t type);
int	 bgp_msg_end(struct wbuf *, size_t start);

int	 bgp_open_encode(struct wbuf *, const struct bgp_open *);
int	 bgp_open_decode(const uint8_t *, size_t, struct bgp_open *,
	    struct bgp_err *);
/* The sender's AS: the four-octet one where it has the capability (RFC
 * 6793 section 4.1), else My AS. */
uint32_t bgp_open_as(const struct bgp_open *);
int	 bgp_keepalive_encode(struct wbuf *);
/* data: the erroneous part (at most what fits a message). */
int	 bgp_notification_encode(struct wbuf *, uint8_t code, uint8_t subcode,
	    const void *data, size_t len);
int	 bgp_notification_decode(const uint8_t *, size_t, uint8_t *code,
	    uint8_t *subcode);
const char *bgp_err_name(uint8_t code, uint8_t subcode);
int	 bgp_route_refresh_encode(struct wbuf *, enum bgp_af, uint8_t subtype);
int	 bgp_route_refresh_decode(const uint8_t *, size_t, enum bgp_af *,
	    uint8_t *subtype, struct bgp_err *);

int	 bgp_update_decode(const uint8_t *, size_t, const struct bgp_sess_caps *,
	    struct bgp_update *, struct bgp_err *);
/*
 * One NLRI entry's length on the wire (RFC 4271 section 4.3, RFC 7911
 * section 3: the path id first): 0 when the bytes at s (left of them)
 * do not hold a whole entry or the prefix is longer than the family's
 * address.  Read straight off the span, no rbuf call per field: every
 * prefix received passes here twice (bgp_nlri_check, then the walk).
 */
static inline size_t
bgp_nlri_size(const uint8_t *s, size_t left, unsigned bits, int addpath)
{
	size_t	hdr = addpath ? 5 : 1, bytes;

	if (left < hdr || s[hdr - 1] > bits)
		return 0;
	bytes = (s[hdr - 1] + 7u) / 8u;
	return left - hdr < bytes ? 0 : hdr + bytes;
}

/*
 * The next prefix of an NLRI span (RFC 4271 section 4.3, RFC 4760
 * section 5, RFC 7911 section 3): 1 got one, 0 none left, -1 malformed.
 * [path id,] length in bits, then the fewest bytes that hold it; bits
 * past the length are cleared, so equal prefixes compare equal.  Inline:
 * it runs once per prefix a receiver walks.
 */
static inline int
bgp_nlri_next(struct rbuf *r, enum bgp_af af, int addpath,
    struct bgp_prefix *p)
{
	const uint8_t	*s = r->data + r->off;
	size_t		 left = r->len - r->off, n, hdr = addpath ? 5 : 1, i;
	unsigned	 bits = af == BGP_AF_IPV6 ? 128 : 32;

	if (left == 0)
		return 0;
	if ((n = bgp_nlri_size(s, left, bits, addpath)) == 0)
		return -1;
	memset(p, 0, sizeof(*p));
	p->af = (uint8_t)af;
	if (addpath)
		p->path_id = (uint32_t)s[0] << 24 | (uint32_t)s[1] << 16 |
		    (uint32_t)s[2] << 8 | s[3];
	p->len = s[hdr - 1];
	for (i = hdr; i < n; i++)
		p->addr[i - hdr] = s[i];
	if (p->len % 8)
		p->addr[n - hdr - 1] &= (uint8_t)(0xff << (8 - p->len % 8));
	r->off += n;
	return 1;
}

/* Check a whole NLRI span without keeping anything; -1 malformed. */
int	 bgp_nlri_check(struct rbuf, enum bgp_af, int addpath);

/*
 * Packing UPDATEs: begin one (announce with attrs, or withdraw), add
 * prefixes until bgp_ub_add() says it is full or max_prefixes is reached,
 * end it.  IPv6 always goes in MP_REACH / MP_UNREACH; IPv4 there too
 * when use_mp.  limit is the message size (4096).
 */
struct bgp_ub {
	struct wbuf	*w;
	size_t		 start;		/* of the message in w */
	size_t		 len_off;	/* length to patch: withdrawn or MP */
	size_t		 attrlen_off;	/* total path attribute length */
	size_t		 limit;		/* offset the message may not pass */
	uint32_t	 count;
	uint8_t		 af;
	uint8_t		 mp;
	uint8_t		 withdraw;
	uint8_t		 addpath;
	const uint8_t	*tail;		/* attributes after MP_REACH */
	size_t		 tail_len;
	uint8_t		 own[1024];	/* encoded attributes */
};

/* fam: a row of the family table (enum bgp_af for unicast). */
int	 bgp_ub_begin(struct bgp_ub *, struct wbuf *, unsigned fam, int use_mp,
	    int addpath, const struct bgp_attrs *announce,
	    const struct bgp_sess_caps *, size_t limit);
/* 0 added, 1 full (not added). */
int	 bgp_ub_add(struct bgp_ub *, const struct bgp_prefix *);
/* Up to n prefixes from *p on, each the next block (bgp_prefix_step),
 * as many as the message has room for; *p becomes the first one left
 * out.  How many went in (0: full).  What bgp_ub_add does n times, at
 * a fraction of its cost per prefix. */
uint64_t bgp_ub_add_run(struct bgp_ub *, struct bgp_prefix *, uint64_t n);
int	 bgp_ub_end(struct bgp_ub *);
/* The attributes of a decoded UPDATE for re-advertising; 1 when some
 * did not fit (a longer AS_PATH or more communities than we keep). */
int	 bgp_update_attrs(const struct bgp_update *,
	    const struct bgp_sess_caps *, struct bgp_attrs *);

/* End-of-RIB (RFC 4724 section 2). */
int	 bgp_eor_encode(struct wbuf *, unsigned fam);

/* The n-th prefix after first, of first's length (addr arithmetic). */
void	 bgp_prefix_nth(const struct bgp_prefix *first, uint64_t n,
	    struct bgp_prefix *);
/* The next one: bgp_prefix_nth(first, n + 1) from bgp_prefix_nth(first,
 * n), in place. */
void	 bgp_prefix_step(struct bgp_prefix *);
/* "10.0.0.0/24" or "2001:db8::/48"; -1 when bad or host bits set. */
int	 bgp_prefix_parse(const char *, struct bgp_prefix *);
/* Text form into buf (at least 50 bytes). */
char	*bgp_prefix_str(const struct bgp_prefix *, char *buf, size_t);
/* AFI/SAFI to enum bgp_af; BGP_AF_MAX when not one we carry. */
uint8_t	 bgp_af_from(uint16_t afi, uint8_t safi);
uint16_t bgp_af_afi(enum bgp_af);

#endif
