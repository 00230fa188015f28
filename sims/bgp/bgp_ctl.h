/*
 * The BGP speaker of the embedded reference controller: accepts peers on
 * one port (told apart by address), keeps a Loc-RIB with a best path per
 * prefix, and re-advertises it, route-server style, to every peer (or to
 * the --bgp-monitor addresses only), each at its own pace.  Routes the
 * application RIB injects (RESTCONF) are advertised the same way.
 */
#ifndef SBSIM_BGP_CTL_H
#define SBSIM_BGP_CTL_H

#include <sys/socket.h>

#include <stdint.h>

#include <event2/util.h>

#include "bgp_codec.h"
#include "endpoint.h"

#define BGP_CTL_MAX_MONITORS	16

struct bgp_ctl_config {
	struct endpoint		listen;
	uint32_t		as;
	uint32_t		bgp_id;		/* host order */
	uint16_t		hold;
	/* Advertise only to these; none: to every peer. */
	struct sockaddr_storage	monitors[BGP_CTL_MAX_MONITORS];
	unsigned		n_monitors;
	const char		*md5;		/* TCP-MD5 key, NULL: none */
};

struct bgp_ctl_stats {
	uint64_t	sessions;		/* ever Established */
	uint64_t	established;		/* now */
	uint64_t	updates_received;
	uint64_t	prefixes_received;
	uint64_t	withdrawals_received;
	uint64_t	updates_sent;
	uint64_t	prefixes_advertised;
	uint64_t	withdrawals_advertised;
	uint64_t	notifications_sent;
	uint64_t	notifications_received;
	uint64_t	treat_as_withdraw;
	uint64_t	first_update_ns;	/* first UPDATE received */
	uint64_t	last_change_ns;		/* last Loc-RIB change */
	/* Rounds of the loop that changed the Loc-RIB: what bgpcep's
	 * data-change-counter counts (one per data tree transaction). */
	uint64_t	rib_transactions;
};

/* One path of the Loc-RIB, for the northbound. */
struct bgp_ctl_route {
	struct bgp_prefix	 prefix;
	const struct bgp_attrs	*attrs;
	char			 peer[64];	/* "bgp://127.1.0.1" style */
};

void	 bgp_ctl_config_defaults(struct bgp_ctl_config *);
/* Parse "IP[,IP...]" into the monitor list; -1 with err. */
int	 bgp_ctl_parse_monitors(struct bgp_ctl_config *, const char *,
	    char *err, size_t errlen);
int	 bgp_ctl_start(const struct bgp_ctl_config *, char *err,
	    size_t errlen);
void	 bgp_ctl_stop(void);
/* A connection from sa becomes a session (what the listener does with
 * each); -1 when it cannot (fd closed). */
int	 bgp_ctl_attach(evutil_socket_t fd, const struct sockaddr *sa,
	    socklen_t salen);
const struct bgp_ctl_stats *bgp_ctl_stats(void);
uint64_t bgp_ctl_loc_rib_count(enum bgp_af);
/* Walk the Loc-RIB's best paths: from *cursor on; 0 when done. */
int	 bgp_ctl_loc_rib_next(enum bgp_af, uint64_t *cursor,
	    struct bgp_ctl_route *);
/* The paths one peer ("bgp://IP") gave us, its adj-RIB-in: from *cursor
 * on; 0 when done or no such peer. */
int	 bgp_ctl_adj_rib_in_next(const char *peer, enum bgp_af,
	    uint64_t *cursor, struct bgp_ctl_route *);
/* What the speaker advertises to one peer, with the attributes it is
 * sent (into buf, which r->attrs then points to); 0 when done. */
int	 bgp_ctl_adj_rib_out_next(const char *peer, enum bgp_af,
	    uint64_t *cursor, struct bgp_ctl_route *r, struct bgp_attrs *buf);
/* 1 when a session (in any state) with that peer exists. */
int	 bgp_ctl_has_session(const char *peer);
/* End the peer's sessions with a Cease of that subcode; how many. */
int	 bgp_ctl_reset(const char *peer, uint8_t subcode);
/* A session's state in openconfig's words (OPENSENT, ESTABLISHED...)
 * and the paths it gave us; -1 when there is none, 1 when it is an
 * established iBGP one, 0 otherwise. */
int	 bgp_ctl_peer_state(const char *peer, const char **state,
	    uint64_t *prefixes);
/* 1 when an established peer of that name exists. */
int	 bgp_ctl_peer_exists(const char *peer);
/* Peers, for the northbound: i-th established peer's address and the
 * prefixes it has sent us now; 0 when there is no i-th. */
int	 bgp_ctl_peer(unsigned i, char *addr, size_t len, uint64_t *prefixes);

/* The application RIB (ODL's application-rib): routes the controller
 * originates; 1 added or changed, 0 the same, -1 bad. */
int	 bgp_ctl_app_add(const struct bgp_prefix *, const struct bgp_attrs *);
int	 bgp_ctl_app_del(const struct bgp_prefix *);
uint64_t bgp_ctl_app_count(enum bgp_af);
void	 bgp_ctl_app_clear(void);

/* The embedded controller's speaker as a role (bgp_role.c). */
extern const struct ctl_role bgp_ctl_role;

#endif
