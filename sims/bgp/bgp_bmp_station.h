/*
 * The embedded controller's BMP station (RFC 7854): routers connect to
 * it, and what they report (their monitored peers, the peers' pre- and
 * post-policy Adj-RIB-In, statistics) is kept per session, within
 * bounds, and served over RESTCONF as OpenDaylight's BMP monitor does
 * (bgp_bmp_restconf.c).
 */
#ifndef SBSIM_BGP_BMP_STATION_H
#define SBSIM_BGP_BMP_STATION_H

#include <stdint.h>

#include "bgp_bmp.h"
#include "bgp_codec.h"
#include "bgp_rib.h"
#include "ctl_listen.h"
#include "endpoint.h"

#define BMP_MONITOR_ID	"example-bmp-monitor"	/* OpenDaylight's */

struct bmp_station_config {
	struct endpoint	 listen;	/* ptcp:12345 */
	uint64_t	 max_routes;	/* per session */
	uint32_t	 max_peers;	/* per session */
	uint32_t	 max_sessions;
	uint32_t	 max_msg;	/* bytes of one message */
	double		 msg_timeout;	/* s a message may take to arrive */
};

/* One monitored peer of a router, as its Peer Up told it. */
struct bmp_speer {
	struct bmp_peer_hdr h;
	uint8_t		 up;
	uint8_t		 local[16];
	uint16_t	 local_port, remote_port;
	struct bgp_open	 sent, recv;
	struct bgp_sess_caps sc;	/* how its UPDATEs are read */
	struct bgp_pmap	 rib[2];	/* pre-policy, post-policy */
	uint64_t	 stat[BMP_STAT_MAX];
	uint32_t	 stat_seen;
	uint32_t	 stat_ts;
};

/* One router's session. */
struct bmp_sess {
	struct ctl_sess	 cs;
	struct bufferevent *bev;
	char		 router_id[64];	/* its address, as OpenDaylight */
	char		 name[64], descr[128], info[128];
	uint8_t		 initiated;
	struct bmp_speer **peers;
	uint32_t	 n_peers;
	uint64_t	 routes;	/* held in every peer's tables */
	uint64_t	 partial_ns;	/* a message began arriving, 0: none */
};

struct bmp_station_stats {
	uint64_t	sessions, sessions_closed;
	uint64_t	sessions_refused;	/* past max_sessions */
	uint64_t	messages[BMP_TYPE_MAX];
	uint64_t	bytes;
	uint64_t	malformed;	/* closed: a message not RFC 7854's */
	uint64_t	too_long;	/* closed: length over max_msg */
	uint64_t	timeouts;	/* closed: a message never finished */
	uint64_t	updates_malformed;	/* skipped, session kept */
	uint64_t	unknown_peer;	/* for no peer up: skipped */
	uint64_t	routes_over_limit;	/* not kept */
	uint64_t	peers_over_limit;
	uint64_t	routes;		/* held now */
};

/* The sessions now, i in 0..n-1 (NULL: a free slot). */
uint32_t	 bmp_station_count(void);
struct bmp_sess	*bmp_station_sess(uint32_t i);

extern const struct ctl_role bmp_ctl_role;

/* bgp_bmp_restconf.c */
void	bmp_restconf_register(void);

#endif
