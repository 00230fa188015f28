/*
 * The speaker's configured neighbors and peer groups, as OpenDaylight
 * keeps them in openconfig-network-instance's bgp container (bgpcep's
 * bgp-openconfig-extensions): which peers it accepts, which it connects
 * out to (passive-mode false, with retries), the AS each must have and
 * the address families each session carries.  A neighbor takes what it
 * does not set from its peer group, then from the defaults.
 *
 * While no neighbor is configured the speaker accepts any peer (what the
 * embedded controller always did); once one is, only configured ones.
 */
#ifndef SBSIM_BGP_NBR_H
#define SBSIM_BGP_NBR_H

#include <sys/socket.h>
#include <netinet/in.h>

#include <stdint.h>

#include "bgp_codec.h"

#define BGP_NBR_NAME_LEN	64
#define BGP_NBR_MAX_AFS		8

enum bgp_nbr_kind {
	BGP_NBR_NEIGHBOR,
	BGP_NBR_GROUP,
};

enum bgp_nbr_type {
	BGP_NBR_TYPE_UNSET,
	BGP_NBR_INTERNAL,
	BGP_NBR_EXTERNAL,
};

/* Which leaves a neighbor or group sets (the rest it inherits). */
#define BGP_NBR_F_PEER_AS	0x0001
#define BGP_NBR_F_PASSIVE	0x0002
#define BGP_NBR_F_PORT		0x0004
#define BGP_NBR_F_HOLD		0x0008
#define BGP_NBR_F_RETRY		0x0010
#define BGP_NBR_F_RR_CLIENT	0x0020
#define BGP_NBR_F_AFS		0x0040
#define BGP_NBR_F_LOCAL		0x0080
#define BGP_NBR_F_TYPE		0x0100

struct bgp_nbr {
	char		name[BGP_NBR_NAME_LEN];	/* address, or group name */
	uint8_t		kind;			/* enum bgp_nbr_kind */
	char		group[BGP_NBR_NAME_LEN];	/* neighbor's, or "" */
	uint32_t	set;			/* BGP_NBR_F_* */
	uint32_t	peer_as;
	uint8_t		peer_type;		/* enum bgp_nbr_type */
	uint8_t		passive;
	uint8_t		rr_client;
	uint16_t	remote_port;
	uint16_t	hold;
	uint16_t	connect_retry;
	char		local[INET6_ADDRSTRLEN];
	uint8_t		n_afs;
	uint8_t		afs[BGP_NBR_MAX_AFS];	/* bgp_nbr_afs_* indices */
};

/* What a session with a neighbor uses. */
struct bgp_nbr_eff {
	uint32_t	peer_as;		/* 0: any */
	uint8_t		passive;
	uint16_t	remote_port;
	uint16_t	hold;
	uint16_t	connect_retry;
	uint8_t		af[BGP_AF_MAX];		/* families it carries */
	char		local[INET6_ADDRSTRLEN];
};

void	 bgp_nbr_start(uint32_t local_as, uint16_t hold);
void	 bgp_nbr_stop(void);
/* Add or replace; 1 created, 0 replaced.  Sessions it changes are reset
 * (RFC 4486 Cease, Other Configuration Change). */
int	 bgp_nbr_put(const struct bgp_nbr *);
/* -1 when there is none; its session goes (Cease, Peer De-configured). */
int	 bgp_nbr_del(enum bgp_nbr_kind, const char *name);
const struct bgp_nbr *bgp_nbr_get(enum bgp_nbr_kind, const char *name);
/* The i-th of a kind; NULL past the last. */
const struct bgp_nbr *bgp_nbr_at(enum bgp_nbr_kind, unsigned i);
void	 bgp_nbr_effective(const struct bgp_nbr *, struct bgp_nbr_eff *);
/* A connection from (or to) sa: 0 with what its session uses, -1 when
 * neighbors are configured and it is none of them. */
int	 bgp_nbr_admit(const struct sockaddr *, struct bgp_nbr_eff *);
/* "192.0.2.1" into its canonical text; -1 when not an address. */
int	 bgp_nbr_addr(const char *in, char *out, size_t len);

/* afi-safi identities (openconfig-bgp-types and bgpcep's extensions):
 * the index of a name given with or without a prefix, or -1. */
int	 bgp_nbr_afs_parse(const char *);
/* The index's name and the module that defines it. */
const char *bgp_nbr_afs_name(uint8_t, const char **module);

#endif
