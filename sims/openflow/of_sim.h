/*
 * Simulated OpenFlow switches: configuration, per-switch state, and the
 * entry points shared by the files of sims/openflow/.
 *
 *   of_main.c      `sbsim openflow`: options, phases, run hooks
 *   of_switch.c    connection, session FSM, framing, dispatch
 *   of_handlers.c  one handler per controller-to-switch message
 *   of_pktin.c     cbench-style PACKET_IN load, LLDP topology
 *   of_nb.c        the OpenDaylight northbound driver (--northbound odl:)
 */
#ifndef SBSIM_OF_SIM_H
#define SBSIM_OF_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "metrics.h"
#include "northbound.h"
#include "of_cluster.h"
#include "of_codec.h"
#include "of_flowtable.h"
#include "of_group.h"
#include "of_meter.h"
#include "pool.h"
#include "rxstamp.h"
#include "fault.h"
#include "topology.h"

/* topology.h's shapes, by these names in the OpenFlow code. */
enum of_topo {
	OF_TOPO_NONE = TOPO_NONE,
	OF_TOPO_LINEAR = TOPO_LINEAR,
	OF_TOPO_RING = TOPO_RING,
	OF_TOPO_TREE = TOPO_TREE,
};

enum of_pktin_mode {
	OF_PKTIN_OFF,
	OF_PKTIN_THROUGHPUT,	/* keep the pipe full (cbench -t) */
	OF_PKTIN_LATENCY,	/* one outstanding per switch (cbench) */
};

struct of_config {
	uint32_t		switches;
	uint32_t		version_bitmap;	/* bit v: wire version v */
	uint64_t		dpid_base;
	uint32_t		ports;
	uint8_t			tables;
	uint32_t		table_size;
	uint32_t		max_groups;	/* --max-groups, per switch */
	uint32_t		bundles_max;	/* open per connection */
	uint32_t		bundle_msgs_max; /* messages per bundle */
	uint32_t		bundle_bytes_max; /* bytes per bundle */
	double			bundle_timeout;	/* s idle, 0: never */
	uint32_t		max_meters;	/* --max-meters, per switch */
	uint32_t		max_flow_monitors; /* per connection */
	uint32_t		max_group_depth; /* groups on one chain */
	uint64_t		expect_flows;	/* 0: no program/delete target */
	int			expect_delete;	/* --expect-delete */
	uint64_t		expect_gm[2];	/* --expect-groups, -meters */
	uint32_t		nb_gm[2];	/* --groups-, --meters-per-switch
						   (--northbound) */
	enum of_topo		topo;
	uint32_t		tree_fanout;
	enum of_pktin_mode	pktin;
	uint32_t		macs;		/* source MACs per switch */
	uint32_t		pktin_window;	/* throughput: outstanding */
	uint64_t		pktin_count;	/* per switch, 0: until the end */
	double			pktin_wait;	/* s after FEATURES_REPLY at most
						   before the load; 0: none */
	double			pktin_resend;	/* latency: s unanswered, 0: no */
	double			echo_interval;	/* seconds, 0: never */
	uint32_t		mp_max_bytes;	/* multipart message size */
	uint32_t		n_ctl;		/* --controller EP,...: 1.. */
	struct nb_opts		 nb;
};

/* Phases of an OpenFlow run, in report order. */
enum of_phase {
	OFP_CONNECT,
	OFP_PROGRAM,
	OFP_CONFIRM,
	OFP_DELETE,
	OFP_PACKET_IN,
	OFP_FAILOVER,		/* several controllers: master lost -> new
				   master's first FLOW_MOD, per switch */
	OFP_PROGRAM_GROUPS,	/* of_gmphase.c: --expect-groups */
	OFP_DELETE_GROUPS,
	OFP_PROGRAM_METERS,	/* --expect-meters */
	OFP_DELETE_METERS,
	OFP__MAX
};

enum of_state {
	OFS_DOWN,
	OFS_HELLO_WAIT,		/* our HELLO sent, waiting for theirs */
	OFS_FEATURES_WAIT,	/* version agreed, FEATURES_REQUEST due */
	OFS_UP,			/* FEATURES_REPLY sent: connected */
	OFS_CLOSING,		/* HELLO_FAILED sent: close once written */
};

struct of_port_state {
	uint32_t	config;
	uint32_t	state;
};

struct of_pktin_state;

/*
 * One connection of a switch to one controller.  With --controller
 * EP,EP,... a switch has one per controller (sim->sw[ctl * switches +
 * idx]); the first, its owner, holds what the switch has once: the
 * flow table, ports, roles and the failover clock, which the others
 * point to or reach through owner.
 */
struct of_switch {
	struct pool_dev		 pd;		/* first: pool_dev -> switch */
	struct of_sim		*sim;
	struct of_switch	*owner;		/* connection 0 of the switch */
	uint32_t		 idx;
	uint8_t			 state;		/* enum of_state */
	uint8_t			 version;	/* negotiated, 0 before */
	uint8_t			 ctl;		/* controller index */
	uint8_t			 new_master;	/* owner: ctl + 1 of the master
						   a failover elected, 0: none */
	uint8_t			 stalled;	/* --fault stall: not reading */
	uint8_t			 timed;		/* owner: on sim->timed */
	uint8_t			 rx_stamp;	/* of_rx: a phase awaits one */
	uint8_t			 rx_stamping;	/* of_rx: SO_TIMESTAMPNS on */
	uint8_t			 nx_flow_format;	/* NXFF_*, of_nx.c */
	uint8_t			 nx_flow_mod_table_id;	/* table in command */
	uint16_t		 config_flags;
	uint16_t		 miss_send_len;
	uint32_t		 logged;	/* error kinds logged once */
	uint32_t		 echo_xid;
	uint64_t		 echo_sent_ns;
	uint64_t		 last_rx_ns;
	uint64_t		 arrived_ns;	/* the read's first segment */
	struct rxpeek		 rxp;		/* while a phase awaits one */
	struct event		*rx;		/* plain TCP: of_rx reads;
						   NULL: the bufferevent */
	uint64_t		 master_lost_ns; /* owner: master gone, 0: no */
	struct of_roles		 roles;		/* owner's: every connection */
	uint64_t		 up_ns;		/* FEATURES_REPLY sent */
	uint64_t		 confirmed;	/* flows seen in stats after program */
	struct of_async		 async;
	struct of_flowtable	*ft;
	struct of_groups	*groups;	/* owner's; NULL: none yet */
	struct of_meters	*meters;	/* owner's; NULL: none yet */
	struct nx_tlv_map	*tlv_map;	/* owner's; NULL: none yet */
	struct of_monitors	*monitors;	/* this connection's (1.4) */
	struct of_switch	*mon_origin;	/* owner: whose FLOW_MOD */
	struct of_vacancy	*vacancy;	/* owner: per table, or NULL */
	struct of_port_state	*ports;
	struct of_pktin_state	*pktin;
	struct of_switch	*timed_next;	/* on sim->timed */
	struct of_bundles	*bundles;	/* open ones (of_bundle.c) */
};

/* Counters an OpenFlow run keeps (names in the report). */
struct of_counters {
	uint64_t	*rx_msgs;
	uint64_t	*tx_msgs;
	uint64_t	*errors_sent;
	uint64_t	*errors_received;
	uint64_t	*decode_errors;
	uint64_t	*flow_mods;
	uint64_t	*flow_mod_errors;
	uint64_t	*flows_added;
	uint64_t	*flows_modified;
	uint64_t	*flows_deleted;
	uint64_t	*flows_expired;
	uint64_t	*flow_removed_sent;
	uint64_t	*group_mods;
	uint64_t	*group_mod_errors;
	uint64_t	*groups_out_of_room;	/* --max-groups reached */
	uint64_t	*meter_mods;
	uint64_t	*meter_mod_errors;
	uint64_t	*meters_out_of_room;	/* --max-meters reached */
	uint64_t	*flow_updates_sent;	/* flow monitor updates */
	uint64_t	*flow_monitors_refused;	/* --max-flow-monitors */
	uint64_t	*table_status_sent;	/* vacancy events */
	uint64_t	*requestforward_sent;	/* GROUP_MODs forwarded */
	uint64_t	*groups_too_deep;	/* --max-group-depth passed */
	uint64_t	*group_packets;		/* PACKET_OUTs sent to groups */
	uint64_t	*group_packets_truncated; /* OF_GROUP_COPIES_MAX */
	uint64_t	*experimenter_refused;	/* no row for its id */
	uint64_t	*bundles_opened;
	uint64_t	*bundles_committed;
	uint64_t	*bundles_failed;	/* a commit refused */
	uint64_t	*bundles_discarded;	/* DISCARD, connection closed */
	uint64_t	*bundles_timed_out;	/* --bundle-timeout */
	uint64_t	*bundle_msgs;		/* messages added */
	uint64_t	*bundle_errors;		/* BUNDLE_FAILED sent */
	uint64_t	*bundle_limit_refused;	/* a --bundle* bound */
	uint64_t	*nx_refused;		/* Nicira messages refused */
	uint64_t	*stats_requests;
	uint64_t	*barriers;
	uint64_t	*packet_outs;
	uint64_t	*lldp_forwarded;
	uint64_t	*packet_ins_sent;
	uint64_t	*packet_ins_resent;	/* latency: unanswered, again */
	uint64_t	*packet_in_waits;	/* load begun by --packet-in-wait */
	uint64_t	*echo_rtt_samples;
	uint64_t	*disconnects;
	uint64_t	*role_changes;
	uint64_t	*role_stale;
	uint64_t	*is_slave_refused;
	uint64_t	*role_status_sent;
	uint64_t	*controller_status_sent;	/* 1.5 */
	uint64_t	*failover_flow_mods;
	/* Per controller (--controller EP,...): FLOW_MODs taken from it. */
	uint64_t	*ctl_flow_mods[OF_MAX_CONTROLLERS];
	uint64_t	*reads_paused;	/* output over OF_OUT_HIGH */
};

struct of_sim {
	struct of_config	 cfg;
	struct pool_config	 pcfg;
	struct pool		 pool;
	struct of_switch	*sw;		/* cfg.switches * cfg.n_ctl */
	/* Controllers 2.. of --controller EP,...: a pool each over their
	 * connections (the first is pcfg and pool). */
	struct pool_config	*pcfg_more;
	struct pool		*pool_more;
	struct phase		*ph_connect[OF_MAX_CONTROLLERS];
	struct metrics		*m;
	struct phase		*ph[OFP__MAX];	/* NULL: not in this run */
	struct of_counters	 c;
	uint64_t		 total_flows;	/* held by all switches now */
	uint64_t		 total_gm[2];	/* groups, meters held now */
	uint32_t		 up;		/* switches connected now */
	uint64_t		 last_sweep_ns;
	/* Owners whose table has (or had, until the next sweep) a flow
	 * with a timeout: the sweep expires theirs alone. */
	struct of_switch	*timed;
	uint64_t		 program_done_ns;
	/* Flows a switch held unconfirmed were removed: the confirm phase
	 * can no longer reach its count. */
	int			 confirm_lost;
	/* PACKET_IN sessions (a switch's connection) that sent one, and
	 * those the controller answered (of_pktin_verdict()). */
	uint64_t		 pktin_asked;
	uint64_t		 pktin_answered;
	double			 phase_timeout;
	int			 warned_version;
	struct nb_run		*nb;		/* --northbound, else NULL */
	struct nb_run		*nb_gm[2];	/* its groups, meters */
	char			**nb_nodes;	/* "openflow:<dpid>" */
	int			 nb_begun;
	/* A switch's handshake is done (of_datapath.c; NULL: none). */
	void			(*on_up)(struct of_switch *);
	/* Links --fault link-move rewired (of_pktin.c), NULL: none. */
	struct of_link_move	*moved;
};

/* Scratch space for building replies; every message fits. */
#define OF_SCRATCH	(OF_MAX_MSG + 1024)
/*
 * A switch stops reading while this much of its output waits: a peer
 * that asks (ECHO_REQUEST, flow stats) and never reads the answers is
 * held back by TCP instead of growing the process (BGP's and PCEP's rule).
 */
#define OF_OUT_HIGH	(1024 * 1024)

/* The role of the controller at the other end of this connection. */
static inline uint8_t
of_conn_role(const struct of_switch *sw)
{
	return sw->owner->roles.role[sw->ctl];
}

/* of_switch.c */
extern const struct pool_ops of_switch_ops;
void	 of_switch_send(struct of_switch *, struct wbuf *);
void	 of_switch_error(struct of_switch *, uint32_t xid, enum of_err,
	    const uint8_t *msg, size_t len);
void	 of_switch_sweep(struct of_sim *, uint64_t now_ns);
void	 of_switch_timed(struct of_switch *);
void	 of_switch_flow_removed(void *sw, const struct of_flow_info *);
void	 of_switch_free(struct of_switch *);
/* Delete's first FLOW_MOD is timed by its arrival on every switch. */
void	 of_rxpeek_all(struct of_sim *);
struct wbuf *of_scratch(void);
int	 of_switch_connected(const struct of_switch *);
/* 1.5's CONTROLLER_STATUS (of_contstatus.c): sw's connection changed
 * (an OF_CSR_* reason; up: its channel is up), told to the others; the
 * multipart's reply to sw, listing the switch's connections. */
#define OF_CSR_REQUEST		0	/* ofp_controller_status_reason */
#define OF_CSR_CHANNEL_STATUS	1
#define OF_CSR_ROLE		2
void	 of_cont_status_notify(struct of_switch *, uint8_t reason, int up);
void	 of_mp_cont_status(struct of_switch *, uint32_t xid);

/* of_switch.c: ROLE_REQUEST applied; the ROLE_REPLY is the caller's. */
int	 of_switch_role(struct of_switch *, uint32_t role, uint64_t gen,
	    enum of_err *);
/* Connection ctl (0..n_ctl-1) of switch idx. */
struct of_switch *of_switch_conn(struct of_sim *, uint32_t idx,
	    unsigned ctl);
/* That connection made new (sim->sw and sim->cfg set); the first (ctl 0)
 * owns what they share (the ports, the roles) and comes first. */
void	 of_switch_init(struct of_sim *, uint32_t idx, unsigned ctl);
/* A FLOW_MOD was taken: per-controller count and the failover clock. */
void	 of_switch_flow_mod_taken(struct of_switch *, uint64_t now);

/* of_handlers.c: body is the message after the header. */
void	 of_handle(struct of_switch *, enum of_type, const struct of_header *,
	    struct rbuf *body, const uint8_t *msg);
/* Groups' and meters' phases (of_gmphase.c). */
void	 of_gm_phases_init(struct of_sim *);
void	 of_gm_changed(struct of_switch *, int meter, uint32_t before,
	    uint32_t after, uint64_t now);
int	 of_gm_tick(struct of_sim *, uint64_t now);
/* With --northbound: the groups' and meters' sequences. */
void	 of_gm_nb_new(struct of_sim *);
int	 of_gm_nb_begin(struct of_sim *, uint64_t now);
int	 of_gm_nb_tick(struct of_sim *, uint64_t now);
void	 of_gm_nb_free(struct of_sim *);
/* A phase the run needs that never began: over, timed out, once
 * connect is over and timeout more seconds passed (of_main.c). */
void	 of_never_began(struct phase *, const struct phase *connect,
	    uint64_t now, double timeout);
void	 of_flows_changed(struct of_switch *, int64_t delta, uint64_t now,
	    uint64_t arrived);
/* Multipart replies go out as they fill (flush of of_mp_reply_begin). */
void	 of_mp_flush(void *sw, struct wbuf *);
/* Adds the flows of sw's table that f selects to mr in the form mr->mp
 * asks (of_handlers.c): FLOW, FLOW_STATS or FLOW_MONITOR's INITIAL
 * updates (with instructions if asked); returns how many. */
struct of_mp_reply;
uint64_t of_mp_reply_flows(struct of_switch *, struct of_mp_reply *,
	    const struct of_flow_filter *, uint64_t now, int instructions);
/* Port no (1..cfg.ports) as the switch reports it. */
void	 of_port_fill(const struct of_switch *, uint32_t no, struct of_port *);
/* Port no (1..cfg.ports) of switch sw (its owner) links down or up:
 * PORT_STATUS MODIFY to each of its controllers (a --fault port-flap). */
void	 of_port_link(struct of_switch *sw, uint32_t no, int down);
/* --fault stall: the connection stops reading (stall 1) or reads again,
 * what waits first (stall 0). */
void	 of_switch_stall(struct of_switch *, int stall);
/* Is port no's link down now? */
int	 of_port_link_down(const struct of_switch *sw, uint32_t no);
/* of_handlers.c: the steps a bundle's commit (of_bundle.c) takes. */
int	 of_flow_mod_validate(struct of_switch *, const struct of_flow_mod *,
	    enum of_err *);
void	 of_flows_account(struct of_switch *, const struct of_ft_result *,
	    uint64_t now);
int	 of_group_flows_delete(struct of_switch *, uint32_t group_id,
	    uint64_t now, struct of_ft_result *);
void	 of_groups_watch_flows(struct of_switch *, int replay);
/* A GROUP_MOD body of any version, 1.5's buckets in 1.3's form; its
 * INSERT_BUCKET and REMOVE_BUCKET made MODIFYs of gt's group. */
int	 of_group_mod_any_decode(uint8_t version, const struct of_groups *gt,
	    struct rbuf *, struct of_group_mod *, enum of_err *);
int	 of_port_mod_check(struct of_switch *, struct rbuf *,
	    struct of_port_mod *, enum of_err *);
void	 of_port_mod_apply(struct of_switch *, const struct of_port_mod *);

/* of_pktin.c */
void	 of_pktin_start(struct of_switch *);
void	 of_pktin_stop(struct of_switch *);
void	 of_pktin_pump(struct of_switch *);
/* The controller sent t to a connected switch: may begin the load. */
void	 of_pktin_heard(struct of_switch *, enum of_type t);
/* Once a second: loads that waited long enough, answers lost. */
void	 of_pktin_sweep(struct of_sim *, uint64_t now);
/* At the run's end: a load no switch had an answer to, or that fewer
 * switches had answers to than sent, is not DONE. */
void	 of_pktin_verdict(struct of_sim *);
/* A PACKET_OUT or FLOW_MOD named buffer_id: a cbench response. */
void	 of_pktin_response(struct of_switch *, uint32_t buffer_id,
	    uint64_t now);
void	 of_lldp_forward(struct of_switch *, const struct of_packet_out *);
void	 of_lldp_out_ports(struct of_switch *, const struct of_packet_out *,
	    const uint32_t *ports, int n);
int	 of_topo_check(const struct of_config *, char *err, size_t errlen);
/* --fault link-move (a fault_kind's inject, cfg the struct of_sim): an
 * inter-switch link moves to a free port of a third switch. */
struct fault_shot;
int	 of_topo_link_move(void *cfg, const struct fault_shot *);
void	 of_topo_moves_free(struct of_sim *);

/* of_fault.c: the --fault kinds of these devices (src/core/fault.h). */
extern const struct fault_kind of_fault_kinds[];

/* `sbsim openflow` (of_main.c) and the switches OVSDB bridges become
 * (of_datapath.c). */
extern const struct sbsim_cmd openflow_cmd;
extern const struct datapath_provider of_datapath;

#endif
