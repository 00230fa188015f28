/*
 * The address families (RFC 4760 AFI/SAFI) sbsim's BGP speaks: one row of
 * bgp_families[] each, named as GoBGP and OpenConfig spell the afi-safi.
 * The unicast rows come first and are enum bgp_af (the controller's
 * tables are per unicast family); the others follow.  A row says how its
 * NLRI is generated (the i-th route), encoded (announce and withdraw),
 * sized and checked when received (RFC 7606 section 5.3), and printed.
 * A new family is a file of those functions and one row here.
 */
#ifndef SBSIM_BGP_FAMILY_H
#define SBSIM_BGP_FAMILY_H

#include <stddef.h>
#include <stdint.h>

#include "bgp_codec.h"
#include "topology.h"

enum bgp_fam {
	BGP_FAM_IPV4 = BGP_AF_IPV4,	/* ipv4-unicast */
	BGP_FAM_IPV6 = BGP_AF_IPV6,	/* ipv6-unicast */
	BGP_FAM_VPN4 = BGP_AF_MAX,	/* l3vpn-ipv4-unicast */
	BGP_FAM_VPN6,			/* l3vpn-ipv6-unicast */
	BGP_FAM_LU4,			/* ipv4-labelled-unicast */
	BGP_FAM_EVPN,			/* l2vpn-evpn */
	BGP_FAM_FLOW4,			/* ipv4-flowspec */
	BGP_FAM_FLOW6,			/* ipv6-flowspec */
	BGP_FAM_LS,			/* ls (BGP-LS) */
	BGP_FAM_MAX,
};

#define BGP_SAFI_LABELED	4	/* RFC 8277 */
#define BGP_SAFI_VPN		128	/* RFC 4364 section 4.3.4 */
#define BGP_AFI_LS		16388	/* RFC 9552 section 5.2 */
#define BGP_SAFI_LS		71
#define BGP_AFI_L2VPN		25	/* RFC 7432 section 7 */
#define BGP_SAFI_EVPN		70
#define BGP_SAFI_FLOW		133	/* RFC 8955 section 4 */
/* RFC 8277 section 2.4: the label field of a withdrawn route. */
#define BGP_LABEL_WITHDRAW	0x800000u
#define BGP_LABEL_MAX		0xfffffu	/* 20 bits */

/* What the generator options ask of each route (bgp_main.c). */
struct bgp_gen {
	uint32_t	rd_count;	/* route n has RD number n % rd_count */
	uint8_t		rd_type;	/* 0 (ASN:n) or 1 (IPv4:n) */
	uint8_t		label_per_rd;	/* 0: a label per route */
	uint32_t	label_base;
	uint32_t	rd_as;		/* type 0's administrator */
	uint32_t	rd_ip;		/* type 1's, host order */
	/* BGP-LS (bgp_fam_ls.c): the topology its routes describe. */
	uint8_t		ls_shape;	/* enum bgp_ls_shape */
	uint32_t	ls_nodes;
	uint32_t	ls_fanout;	/* tree's */
	uint32_t	ls_pfx;		/* prefixes per node */
	uint32_t	ls_sid_base;	/* first adjacency SID label */
	uint8_t		evpn_types;	/* bit t: EVPN route type t (1-5) */
	uint8_t		flow_action;	/* enum bgp_flow_action */
	uint32_t	vni_base;	/* EVPN: route n's VNI base + n % vnis */
	uint32_t	vnis;
	struct bgp_prefix flow_src;	/* flowspec rules' source; len 0: none */
};

/* topology.h's shapes (BGP-LS has no "none"). */
enum bgp_ls_shape {
	BGP_LS_LINEAR = TOPO_LINEAR,
	BGP_LS_RING = TOPO_RING,
	BGP_LS_TREE = TOPO_TREE,
};

/* A BGP-LS NLRI (RFC 9552 section 5.2), OSPFv2 router-ids: the node,
 * link or prefix of a route (its prefix: pfx). */
struct bgp_ls_nlri {
	uint16_t	type;		/* 1 node, 2 link, 3 IPv4 prefix */
	uint8_t		proto;		/* protocol-id */
	uint64_t	ident;		/* instance identifier */
	uint32_t	asn;
	uint32_t	local;		/* IGP router-ids */
	uint32_t	remote;
	uint32_t	lif;		/* link's interface addresses */
	uint32_t	rif;
	uint32_t	index;		/* link or prefix number: attributes */
};

/* The flowspec traffic-action extended community (RFC 8955 section 7). */
enum bgp_flow_action {
	BGP_FLOW_RATE,		/* 0x8006 traffic-rate 0: discard */
	BGP_FLOW_ACTION,	/* 0x8007 traffic-action: sample */
	BGP_FLOW_REDIRECT,	/* 0x8008 redirect to VRF ASN:1 */
	BGP_FLOW_MARKING,	/* 0x8009 traffic-marking DSCP 46 */
	BGP_FLOW_NONE,
};

/* One route of any family: its prefix (af is the address's), and the
 * RD and label of the families that have them. */
struct bgp_route {
	struct bgp_prefix pfx;
	uint8_t		fam;		/* enum bgp_fam */
	/* Decoded: framed but malformed inside (RFC 7606 section 2's
	 * treat-as-withdraw, RFC 9552 section 8.2.2). */
	uint8_t		malformed;
	uint8_t		rd[8];
	uint32_t	label;		/* 20 bits, or BGP_LABEL_WITHDRAW */
	struct bgp_ls_nlri ls;		/* BGP-LS; label: its SID */
	/* EVPN (RFC 7432 section 7): route type, ESI, Ethernet tag, MAC;
	 * the IP address or prefix in pfx, type 5's gateway in src; the
	 * VNI in label.  Flowspec: destination in pfx, source in src (len
	 * 0: none), the protocol and destination port, the components
	 * present (bit c of tag for type c). */
	uint8_t		type;
	uint8_t		esi[10];
	uint8_t		mac[6];
	uint32_t	tag;
	struct bgp_prefix src;
	uint8_t		proto;
	uint16_t	port;
	uint8_t		partial;	/* decoded: more than these fields hold */
};

struct bgp_family {
	const char	*name;		/* afi-safi, e.g. l3vpn-ipv4-unicast */
	uint16_t	 afi;
	uint8_t		 safi;
	uint8_t		 addr_af;	/* enum bgp_af of the prefix inside */
	uint8_t		 nh_rd;		/* next hop led by a zero RD */
	/* The n-th generated route. */
	void		(*nth)(const struct bgp_family *, const struct bgp_gen *,
			    const struct bgp_prefix *first, uint64_t n,
			    struct bgp_route *);
	/* The entry (no path id) into d, room bytes there; its length,
	 * 0 when it does not fit.  A withdraw has the withdraw label. */
	size_t		(*encode)(const struct bgp_family *, uint8_t *d,
			    size_t room, const struct bgp_route *, int withdraw);
	/* The entry at s (no path id) into r: its length, 0 malformed. */
	size_t		(*decode)(const struct bgp_family *, const uint8_t *s,
			    size_t left, struct bgp_route *);
	char		*(*print)(const struct bgp_route *, char *, size_t);
	/* Routes n to n+k-1 written straight into the UPDATE, as many as
	 * fit, without path ids: how many went in; NULL: nth and encode
	 * one at a time (bgp_ub_add_routes does either). */
	uint64_t	(*run)(const struct bgp_family *, const struct bgp_gen *,
			    const struct bgp_prefix *first, uint64_t n,
			    uint64_t k, struct bgp_ub *);
	/* The route's own path attribute into d (room bytes): its length,
	 * 0 when it does not fit; NULL: none.  An UPDATE then carries one
	 * route (bgp_ub_add_route). */
	size_t		(*attr)(const struct bgp_route *, uint8_t *d,
			    size_t room);
	/* The family's own extended communities added to a (NULL: none). */
	void		(*ext)(const struct bgp_gen *, uint32_t as,
			    struct bgp_attrs *a);
	uint8_t		 no_nh;		/* MP_REACH next hop of length 0 */
};

extern const struct bgp_family bgp_families[BGP_FAM_MAX];

/* The four functions of a row (struct bgp_family's nth, encode, decode
 * and print), declared for the family file that defines bgp_P_nth... */
#define BGP_FAMILY_FNS(p)						\
void	 bgp_##p##_nth(const struct bgp_family *, const struct bgp_gen *, \
	    const struct bgp_prefix *, uint64_t, struct bgp_route *);	\
size_t	 bgp_##p##_encode(const struct bgp_family *, uint8_t *, size_t, \
	    const struct bgp_route *, int);				\
size_t	 bgp_##p##_decode(const struct bgp_family *, const uint8_t *,	\
	    size_t, struct bgp_route *);					\
char	*bgp_##p##_print(const struct bgp_route *, char *, size_t)

/* The rows' functions, a file per shape: bgp_family.c has the unicast
 * prefixes' (RFC 4271 section 4.3), bgp_fam_label.c labelled routes',
 * with or without an RD. */
BGP_FAMILY_FNS(lbl);
uint64_t bgp_lbl_run(const struct bgp_family *, const struct bgp_gen *,
	    const struct bgp_prefix *, uint64_t, uint64_t, struct bgp_ub *);

/* BGP-LS's row (bgp_fam_ls.c). */
BGP_FAMILY_FNS(ls);
size_t	 bgp_ls_attr(const struct bgp_route *, uint8_t *, size_t);
/* Routes in one copy of the topology: nodes, links both ways, prefixes. */
uint64_t bgp_ls_routes(const struct bgp_gen *);
/* --topology: linear, ring or tree[:FANOUT]; -1 with err. */
int	 bgp_ls_shape_parse(struct bgp_gen *, const char *, char *, size_t);
/* Route distinguisher k of the generator (RFC 4364 section 4.2), and
 * its text form. */
void	 bgp_rd_put(uint8_t *rd, const struct bgp_gen *, uint32_t k);
void	 bgp_rd_str(const uint8_t *rd, char *, size_t);

/* EVPN routes (bgp_fam_evpn.c, RFC 7432 section 7, RFC 9136 section 3). */
BGP_FAMILY_FNS(evpn);
void	 bgp_evpn_ext(const struct bgp_gen *, uint32_t, struct bgp_attrs *);

/* Flowspec rules (bgp_fam_flow.c, RFC 8955 section 4, RFC 8956). */
BGP_FAMILY_FNS(flow);
void	 bgp_flow_ext(const struct bgp_gen *, uint32_t, struct bgp_attrs *);

/* A new extended community on a (RFC 4360 section 2: type, sub-type, six
 * octets of value, here zero): its 8 bytes, NULL when a holds the most. */
uint8_t	*bgp_ext_add(struct bgp_attrs *a, uint8_t type, uint8_t subtype);
/* The row of an afi-safi name, or of AFI/SAFI; BGP_FAM_MAX: none. */
unsigned bgp_family_by_name(const char *);
unsigned bgp_family_from(uint16_t afi, uint8_t safi);
/* "RD:prefix label L" and the like, into buf (at least 80 bytes). */
char	*bgp_route_str(const struct bgp_route *, char *, size_t);
/* Check a whole NLRI span of family fam: -1 when an entry cannot be
 * framed (RFC 7606 section 5.3: session reset), 1 when one is framed but
 * malformed inside (treat-as-withdraw), else 0; the routes in *n. */
int	 bgp_family_check(unsigned fam, const uint8_t *, size_t, int addpath,
	    uint64_t *n);
/* One route into an UPDATE that bgp_ub_begin began for its family:
 * 0 added, 1 full. */
int	 bgp_ub_add_route(struct bgp_ub *, const struct bgp_route *);
/* Generated routes n to n+k-1 of family fam (first: of its address
 * family) into the UPDATE, as many as fit: how many went in. */
uint64_t bgp_ub_add_routes(struct bgp_ub *, unsigned fam,
	    const struct bgp_gen *, const struct bgp_prefix *first, uint64_t n,
	    uint64_t k);
/* The MP_REACH next hop of family fam from the route attributes, into
 * d (32 bytes); its length (RFC 4364 section 4.3.2, RFC 4659 3.2.1). */
uint8_t	 bgp_family_next_hop(unsigned fam, const struct bgp_attrs *,
	    uint8_t *d);

#endif
