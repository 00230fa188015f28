/*
 * `sbsim bgp`: simulated BGP peers (bgp_peer.c) and their run
 * (bgp_main.c).  Each peer is a BGP-4 speaker on its own source address
 * that announces its share of prefixes, keeps an adj-RIB-in of what it
 * receives, and a monitor peer (announcing nothing) times what the
 * controller re-advertises.  With several speakers (--controller
 * EP,EP,...) each peer holds one session to every speaker, each with its
 * own FSM, and announces its prefixes on each (RFC 4271 section 8).
 */
#ifndef SBSIM_BGP_SIM_H
#define SBSIM_BGP_SIM_H

#include <stdint.h>

#include "bgp_codec.h"
#include "bgp_family.h"
#include "bgp_io.h"
#include "bgp_nb.h"
#include "bgp_rib.h"
#include "metrics.h"
#include "pool.h"
#include "rxstamp.h"
#include "txack.h"
#include "fault.h"
#include "tcp_md5.h"

#define BGP_MAX_SPEAKERS	8	/* --controller EP,... at most */

/* Session states (RFC 4271 section 8.2.2); Connect and Active are the
 * pool's (connecting, backing off). */
enum bgp_state {
	BGPS_IDLE,
	BGPS_CONNECT,
	BGPS_OPENSENT,
	BGPS_OPENCONFIRM,
	BGPS_ESTABLISHED,
};

enum bgp_phase {
	BGPP_CONNECT,
	BGPP_ANNOUNCE,
	BGPP_LEARN,
	BGPP_WITHDRAW,
	BGPP_CHURN,
	BGPP_ADVERTISE,		/* application RIB routes at the monitor */
	BGPP_UNADVERTISE,
	BGPP_MAX,
};

/* What a peer is sending. */
enum bgp_send {
	BGP_SEND_NONE,
	BGP_SEND_ANNOUNCE,	/* prefixes ann_next.. */
	BGP_SEND_WITHDRAW,	/* prefixes wd_next.. */
};

struct bgp_config {
	uint32_t	 peers;
	unsigned	 n_spk;		/* speakers (--controller EP,...) */
	uint64_t	 prefixes;	/* per peer */
	uint32_t	 as;
	uint32_t	 peer_as;	/* 0: accept any */
	uint32_t	 monitor_as;	/* 0: --as */
	struct bgp_prefix first;
	uint32_t	 per_update;	/* 0: as many as fit */
	uint8_t		 af;		/* enum bgp_af */
	int		 use_mp;	/* IPv4 in MP_REACH too */
	int		 withdraw;	/* withdraw all once learned */
	uint8_t		 addpath;	/* BGP_ADDPATH_* we offer */
	uint8_t		 graceful;	/* offer graceful restart, send EoR */
	uint8_t		 next_hop_self;
	unsigned	 given;		/* BGP_GIVEN_* (bgp_main.c) */
	uint16_t	 hold;		/* seconds we propose */
	uint32_t	 med, local_pref;
	uint32_t	 as_path_len;	/* 0: default (1 eBGP, 0 iBGP) */
	uint32_t	 communities;
	uint32_t	 large_communities;
	uint8_t		 next_hop4[4];
	uint8_t		 next_hop6[16];
	double		 churn_rate;	/* prefixes per second, 0: none */
	double		 churn_seconds;
	double		 settle;	/* unwitnessed: hold after the last */
	const char	*csit_results;	/* play.py's --results, NULL: none */
	uint64_t	 csit_threshold; /* play.py's --threshold */
	const char	*monitor;	/* endpoint, NULL: none */
	/* The advertise test through the controller's northbound. */
	unsigned	 nb_given;	/* NB_GIVEN_*; the URL is nb.url */
	int		 nb_watch;	/* learn and withdraw by the Loc-RIB */
	struct nb_opts	 nb;
	struct bgp_nb_ctx nb_ctx;
	struct tcp_md5_keys md5;	/* --md5-password (bgp_md5.c) */
	struct tcp_md5_keys mon_md5;	/* the monitor's: md5's for all */
	/* --family: the rows each peer announces, --prefixes of each, in
	 * this order (bgp_peer_fam.c); the first prefix of each address
	 * family; --rd-count, --rd-type, --label-*; --route-targets. */
	uint8_t		 fams[BGP_FAM_MAX];
	uint8_t		 n_fam;		/* 0: --afi's unicast */
	struct bgp_prefix fam_first[BGP_AF_MAX];
	struct bgp_gen	 gen;
	uint32_t	 route_targets;
	/* --bmp EP (bgp_bmp_router.c): BMP routers report to a station. */
	const char	*bmp;
	uint32_t	 bmp_routers;	/* 0: --peers, or 1 */
	uint32_t	 bmp_peers;	/* monitored peers per router */
	uint64_t	 bmp_post;	/* post-policy routes, MAX: prefixes */
	double		 bmp_stats;	/* s between reports, 0: once */
	/* --mrt: a dump's routes instead of generated ones
	 * (bgp_mrt_replay.c); --mrt-peers one, --mrt-next-hop set,
	 * --mrt-out. */
	const char	*mrt;
	uint8_t		 mrt_one;
	uint8_t		 mrt_next_hop;
	const char	*mrt_out;
	double		 mrt_rate;	/* routes per second, 0: unpaced */
};

struct bgp_counters {
	uint64_t	*rx_msgs, *tx_msgs;
	uint64_t	*updates_sent, *updates_received;
	uint64_t	*prefixes_sent, *withdrawals_sent;
	uint64_t	*rx_announced[BGP_AF_MAX];
	uint64_t	*rx_withdrawn[BGP_AF_MAX];
	uint64_t	*keepalives_sent, *keepalives_received;
	uint64_t	*notifications_sent, *notifications_received;
	uint64_t	*treat_as_withdraw, *attr_discarded;
	uint64_t	*eor_received, *route_refresh_received;
	uint64_t	*sessions_lost, *hold_expired;
	uint64_t	*prefixes_churned;	/* --fault churn */
	uint64_t	*spk_lost[BGP_MAX_SPEAKERS];	/* sessions_lost.cN */
	/* Families a session's receiver did not offer, and the routes of
	 * them not sent (bgp_peer_fam.c). */
	uint64_t	*families_refused, *routes_refused;
	uint64_t	*fam_rx;	/* routes received of other families */
};

/* One simulated peer (or the monitor): its pool device, the session's
 * FSM state and what it sends and has learned. */
struct bgp_peer {
	struct pool_dev	 pd;		/* first: the pool hands it back */
	struct bgp_sim	*sim;
	struct bgp_conn	 conn;		/* framing, shared with the speaker */
	uint32_t	 idx;
	uint8_t		 spk;		/* its speaker, 0..n_spk-1 */
	uint8_t		 state;		/* enum bgp_state */
	uint8_t		 monitor;
	uint8_t		 sending;	/* enum bgp_send */
	uint8_t		 eor_sent;
	uint8_t		 drain_wait;	/* enum bgp_send: waiting to drain */
	uint32_t	 logged;	/* kinds of trouble logged once */
	struct bgp_sess_caps sc;
	uint8_t		 af_ok;		/* some family was negotiated */
	uint32_t	 fam_ok;	/* bit per row of the family table */
	uint16_t	 hold;		/* negotiated seconds, 0: none */
	uint32_t	 bgp_id;
	uint8_t		 local4[4];	/* our address, for next-hop self */
	uint8_t		 local6[16];
	uint64_t	 up_ns;
	uint64_t	 closing_ns;	/* NOTIFICATION sent, draining */
	uint64_t	 last_rx_ns;
	uint64_t	 last_ka_ns;
	uint64_t	 ann_next;	/* next prefix index to announce */
	uint64_t	 ann_high;	/* announced at least once up to here */
	uint64_t	 wd_next;
	struct txack_dev txd;		/* its part of announce, withdraw */
	uint64_t	 churn_next;
	struct bgp_pmap	*rib_in;	/* what the controller sent us */
};

struct bgp_sim {
	struct bgp_config	 cfg;
	struct pool_config	 pcfg[BGP_MAX_SPEAKERS];	/* one per speaker */
	struct pool_config	 mcfg;		/* the monitor's */
	struct pool		 pool[BGP_MAX_SPEAKERS];
	struct pool		 mpool;
	/* Sessions: speaker k's are n_sess/n_spk from k x peers on. */
	struct bgp_peer		*peers;
	uint32_t		 n_sess;	/* peers x speakers */
	struct bgp_peer		 mon;
	struct pool_dev		*mdev[1];
	struct metrics		*m;
	struct phase		*ph[BGPP_MAX];
	/* Several speakers: connect.cN and announce.cN of each. */
	struct phase		*ph_connect[BGP_MAX_SPEAKERS];
	struct phase		*ph_announce[BGP_MAX_SPEAKERS];
	uint64_t		 spk_announced[BGP_MAX_SPEAKERS];
	uint32_t		 spk_drained[BGP_MAX_SPEAKERS];
	struct bgp_counters	 c;
	struct bgp_attrs	 attrs;		/* what every peer announces */
	uint32_t		 established;
	uint64_t		 announced;	/* first-time announcements */
	uint64_t		 ann_updates;	/* UPDATEs of announce */
	uint32_t		 ann_most;	/* most prefixes in one */
	uint64_t		 withdrawn;	/* withdrawals sent */
	uint64_t		 refused;	/* routes of refused families */
	uint32_t		 fam_logged;	/* refused families logged */
	uint64_t		 total;		/* peers x prefixes */
	uint64_t		 sent_total;	/* total x speakers */
	uint32_t		 drained_ann;	/* peers whose output drained */
	uint32_t		 drained_wd;
	struct txack		 acked;		/* announce or withdraw's end */
	struct rxstamp		 mon_rx;	/* the monitor's reads */
	uint64_t		 mon_high;	/* most the monitor held */
	uint64_t		 mon_low;	/* least since withdraw began */
	/* --shard: the first peer's number in the whole run (its prefixes,
	 * identifier and source address come from it). */
	uint32_t		 idx_base;
	double			 phase_timeout;
	uint64_t		 churn_start_ns;
	uint64_t		 churn_sent;
	double			 churn_credit;
	uint64_t		 last_tick_ns;
	uint64_t		 settle_ns;	/* holding began, 0: not yet */
	uint64_t		 timers_due;	/* the peers' next, this tick */
	struct nb_run		*nb;
	char			*nb_node;
	int			 nb_begun;
	struct bgp_mrt_plan	*mrt;		/* --mrt's routes, or NULL */
};

/* Learn and withdraw are witnessed (by the monitor or the northbound),
 * not just sent. */
#define BGP_WITNESSED(cfg)	((cfg)->monitor != NULL || (cfg)->nb_watch)

/* bgp_results.c: play.py's totals- and performance- CSV files, when
 * --csit-results asks for them; -1 when one could not be written. */
int	bgp_results_write(const struct bgp_sim *);
/* The directory of --csit-results NAME can be written: 0, or -1 with a
 * message. */
int	bgp_results_check(const char *name, char *err, size_t errlen);

/* bgp_peer.c */
extern const struct pool_ops bgp_peer_ops;
/* Every tick: hold timers, keepalives; when they are next due. */
uint64_t bgp_peer_timers(struct bgp_peer *, uint64_t now);
/* Start sending what the peer must (announce or withdraw) if it can. */
void	bgp_peer_kick(struct bgp_peer *);
/* Toggle up to n prefixes of the peer (withdraw one announced, announce
 * one withdrawn) for churn; returns how many went out. */
uint64_t bgp_peer_churn(struct bgp_peer *, uint64_t n);
/* --fault churn: n of the prefixes the peer announced withdrawn in
 * one UPDATE and announced again in the next (RFC 4271 section 4.3);
 * start picks where.  Returns how many, 0 when it cannot now. */
uint64_t bgp_peer_churn_fault(struct bgp_peer *, uint64_t n, uint64_t start);
/* The run is over: NOTIFICATION Cease before the close. */
void	bgp_peer_goodbye(struct bgp_peer *);
/* NOTIFICATION Cease/Administrative Reset and close (a session flap). */
void	bgp_peer_flap(void *peer);	/* session-flap's (fault.h) */
void	bgp_peer_free(struct bgp_peer *);

/* bgp_md5.c: the peers' and the monitor's pools take --md5-password's
 * keys (after their pools are configured). */
void	bgp_md5_config(struct bgp_sim *);
/* bgp_peer_fam.c: the families of --family on the peers' side. */
/* Routes each peer announces: --prefixes of each family. */
uint64_t bgp_peer_routes(const struct bgp_config *);
/* The family of a peer's i-th route (of bgp_peer_routes), and where
 * that family's routes end. */
unsigned bgp_peer_fam_at(const struct bgp_config *, uint64_t i,
	    uint64_t *end);
/* The OPEN's multiprotocol (and graceful restart) families. */
void	bgp_peer_fam_offer(const struct bgp_config *, struct bgp_open *);
/* What the receiver's OPEN agreed to: p->fam_ok, p->sc.fam_rx; the
 * refused ones counted and logged. */
void	bgp_peer_fam_negotiate(struct bgp_peer *, const struct bgp_open *,
	    int (*agreed)(const struct bgp_open *, enum bgp_af));
/* *next at a family the session refused: moved past its routes,
 * counted as refused the first time; 1 when it moved. */
int	bgp_peer_fam_skip(struct bgp_peer *, uint64_t *next);
/* No route before the i-th went out: all of them are refused ones. */
int	bgp_peer_fam_first(const struct bgp_peer *, uint64_t i);
/* One UPDATE of a non-unicast family's routes from *next on (to end,
 * at most max); how many went in. */
uint32_t bgp_peer_fam_build(struct bgp_peer *, struct wbuf *, uint64_t *next,
	    uint64_t end, const struct bgp_attrs *, uint32_t max);
/* End-of-RIB of each family sent (RFC 4724 section 2), into w; how many. */
uint32_t bgp_peer_fam_eor(const struct bgp_peer *, struct wbuf *);
/* Received routes of the other families: counted, checked by the codec. */
void	bgp_peer_fam_rx(struct bgp_peer *, const struct bgp_update *);
/* --family F[,F...]'s option row; the checks and defaults once parsed;
 * the route targets (RFC 4360 section 4) on every route. */
int	bgp_family_row(void *cfg, const char *, char *err, size_t);
/* --evpn-types: a list of route types 1 to 5 into gen.evpn_types. */
int	bgp_evpn_types_row(void *cfg, const char *, char *err, size_t);
const char *bgp_peer_fam_check(struct bgp_config *);
void	bgp_peer_fam_attrs(const struct bgp_config *, struct bgp_attrs *);

/* bgp_mrt_replay.c: --mrt.  Load the dump and share its routes out
 * over the peers (sets --peers unless given, and the families): NULL,
 * or err filled; the routes of all peers; learn's and withdraw's targets
 * the distinct prefixes (what a monitor learns); a peer's routes (generated ones without --mrt); one
 * UPDATE of the peer's routes from *next (withdrawals when a is NULL),
 * how many went in; past a refused family's routes (1 when it moved). */
const char *bgp_mrt_load(struct bgp_sim *, char *err, size_t errlen);
/* The loaded routes freed, once the peers are (bgp_stop). */
void	bgp_mrt_free(struct bgp_sim *);
uint64_t bgp_mrt_total(const struct bgp_sim *);
void	bgp_mrt_targets(struct bgp_sim *);
uint64_t bgp_peer_count(const struct bgp_peer *);
uint32_t bgp_mrt_build(struct bgp_peer *, struct wbuf *, uint64_t *next,
	    const struct bgp_attrs *a, uint32_t max);
int	bgp_mrt_skip(struct bgp_peer *, uint64_t *next);
/* --mrt-rate: this tick's credit added (1: some to spend, kick the
 * peers); the routes a peer may announce now (UINT32_MAX: unpaced). */
int	bgp_mrt_pace(struct bgp_sim *, uint64_t now);
uint32_t bgp_mrt_allowance(const struct bgp_peer *);
/* --mrt-out: the monitor's routes written; -1 (logged) when not. */
int	bgp_mrt_out(struct bgp_sim *);

/* bgp_fault.c: the --fault kinds of these devices (src/core/fault.h). */
extern const struct fault_kind bgp_fault_kinds[];

/* bgp_bmp_router.c: the run of `sbsim bgp --bmp EP` (no BGP
 * sessions: the BMP routers are the devices). */
struct run_opts;
int	bgp_bmp_main(struct bgp_sim *, const struct run_opts *);
/* Its options (a group of `sbsim bgp`'s) and their defaults. */
struct opt;
extern const struct opt bgp_bmp_rows[];
void	bgp_bmp_defaults(struct bgp_config *);

/* `sbsim bgp` (bgp_main.c). */
extern const struct sbsim_cmd bgp_cmd;

#endif
