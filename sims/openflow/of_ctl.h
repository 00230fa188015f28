/*
 * The OpenFlow side of the embedded reference controller: accepts switches
 * on one port, answers their handshakes, pushes FLOW_MODs in batches closed
 * by barriers, reads flow stats back, deletes, answers PACKET_INs and
 * discovers links with LLDP.
 */
#ifndef SBSIM_OF_CTL_H
#define SBSIM_OF_CTL_H

#include <stdint.h>
#include <stdio.h>

#include <event2/util.h>

#include "endpoint.h"

enum of_ctl_delete {
	OF_CTL_DELETE_NONE,
	OF_CTL_DELETE_STRICT,	/* one DELETE_STRICT per flow */
	OF_CTL_DELETE_ALL,	/* one non-strict delete of everything */
};

enum of_ctl_pktin_reply {
	OF_CTL_PKTIN_IGNORE,
	OF_CTL_PKTIN_PACKET_OUT,
	OF_CTL_PKTIN_FLOW_MOD,
};

struct of_ctl_config {
	struct endpoint		listen;
	uint32_t		version_bitmap;
	uint32_t		flows_per_switch;
	uint32_t		groups_per_switch; /* pushed before the flows, */
	uint32_t		meters_per_switch; /* to 1.3 switches only */
	uint32_t		batch;		/* FLOW_MODs per barrier */
	uint32_t		window;		/* barriers in flight */
	int			read_stats;	/* flow stats after programming */
	enum of_ctl_delete	delete_mode;
	enum of_ctl_pktin_reply	pktin_reply;
	int			lldp;
	uint32_t		expect_switches; /* program when this many */
	double			stats_interval;	/* s between flow stats polls
						   of every switch; 0: none.
						   The least: see of_ctl.c */
	double			stats_timeout;	/* s a poll round waits for
						   its replies */
	uint32_t		max_conns;	/* connections at once, 0: any */
	uint8_t			role;		/* --role: OF_ROLE_* asked of
						   every switch; 0: none */
	uint64_t		generation;	/* --generation-id */
	double			hello_timeout;	/* s from accept to HELLO, then
						   closed; 0: no deadline */
};

struct of_ctl_stats {
	/* This round (a round ends when every switch has gone): */
	uint64_t	switches;	/* FEATURES_REPLY received */
	uint64_t	switches_programmed;
	uint64_t	switches_read;	/* flow stats read back */
	uint64_t	switches_deleted;
	uint64_t	program_start_ns;
	uint64_t	program_end_ns;
	uint64_t	delete_end_ns;
	/* All rounds: */
	uint64_t	rounds;		/* finished */
	uint64_t	switches_now;
	uint64_t	flow_mods_sent;
	uint64_t	group_mods_sent;
	uint64_t	meter_mods_sent;
	uint64_t	barriers_acked;
	uint64_t	flows_in_stats;
	uint64_t	errors_received;
	uint64_t	packet_ins;
	uint64_t	lldp_sent;
	uint64_t	links_seen;
	uint64_t	bad_messages;
	uint64_t	refused;	/* past max_conns, closed at once */
	uint64_t	hello_timeouts;	/* closed: no HELLO in time */
	/* A cluster member (--role, of_ctl_set_role()): */
	uint64_t	role_requests;	/* ROLE_REQUESTs sent */
	uint64_t	role_replies;
	uint64_t	role_refused;	/* ERROR ROLE_REQUEST_FAILED */
	uint64_t	role_status;	/* ROLE_STATUS: another took master */
	uint64_t	is_slave_errors; /* ERROR BAD_REQUEST/IS_SLAVE */
	uint64_t	role_changes;	/* of_ctl_set_role() calls */
	uint64_t	reads_paused;	/* output past its mark: not read */
	/* The statistics poll (stats_interval), round by round: */
	uint64_t	stats_rounds;	/* rounds ended */
	uint64_t	stats_round_timeouts; /* ended by stats_timeout */
	uint64_t	stats_round_ns;	/* the last round's duration */
	uint64_t	stats_next_ns;	/* from its end to the next start */
};

/*
 * What the controller knows of one switch whose handshake is done, for
 * the northbound.  active_flows counts the flows it pushed into table 0
 * and has not deleted since (reactive FLOW_MODs answering PACKET_INs, which
 * expire by themselves, are not counted).
 */
struct of_ctl_switch {
	uint64_t	dpid;
	uint8_t		version;	/* negotiated, wire value */
	uint32_t	nports;		/* 0 until known */
	uint64_t	active_flows;
};

typedef int (*of_ctl_switch_fn)(const struct of_ctl_switch *, void *arg);

struct of_flow_info;
struct of_flow_mod;
struct rbuf;
struct wbuf;
struct of_port;
struct of_port_stats;

/*
 * What the northbound's datastores hear of the switches.  connected: a
 * switch finished its handshake (reconciliation pushes its config flows
 * from here).  A periodic flow stats poll (stats_interval) is reported as
 * stats_begin (its return value is handed to the others), one stats_flow
 * per flow of every table, and stats_end once the last part (no MORE
 * flag) came; a poll cut short by a disconnect gets no stats_end.
 */
struct of_ctl_hooks {
	void	 (*connected)(uint64_t dpid, uint8_t version, void *arg);
	void	*(*stats_begin)(uint64_t dpid, void *arg);
	void	 (*stats_flow)(void *ctx, const struct of_flow_info *);
	void	 (*stats_end)(void *ctx);
	/* The switch's ports as it reports them (FEATURES_REPLY in 1.0,
	 * PORT_DESC in 1.3, then PORT_STATUS with its OF_PR_* reason),
	 * their counters (a PORT_STATS request goes with each flow stats
	 * poll when port_stats is set), and each link LLDP finds (--lldp):
	 * from (src, src_port) to (dst, dst_port). */
	void	 (*port)(uint64_t dpid, uint8_t reason, const struct of_port *,
		    void *arg);
	void	 (*port_stats)(uint64_t dpid, const struct of_port_stats *,
		    void *arg);
	void	 (*link)(uint64_t src, uint32_t src_port, uint64_t dst,
		    uint32_t dst_port, void *arg);
	/* Multipart replies the controller does not read itself (GROUP,
	 * GROUP_DESC, METER, METER_CONFIG: mp an enum of_mp) with the xid
	 * of their request, and every ERROR with the xid of the message
	 * it answers (OpenFlow 1.3.5 section 7.5.4). */
	void	 (*mp_reply)(uint64_t dpid, int mp, uint16_t flags,
		    uint32_t xid, struct rbuf *entries, void *arg);
	void	 (*error)(uint64_t dpid, uint32_t xid, uint16_t type,
		    uint16_t code, void *arg);
	/* The BARRIER_REPLY to of_ctl_barrier_xid()'s request xid. */
	void	 (*barrier)(uint64_t dpid, uint32_t xid, void *arg);
	void	*arg;
};

void	of_ctl_config_defaults(struct of_ctl_config *);
int	of_ctl_start(const struct of_ctl_config *, char *err, size_t errlen);
/* A switch connected on fd (the listener's accept, or a test's socket
 * pair): the session takes fd, closing it when done, and sends HELLO.
 * 0, or -1 with fd closed. */
int	of_ctl_attach(evutil_socket_t fd);
/* Non-zero once a round (program, then delete if asked) has finished. */
int	of_ctl_finished(void);
/*
 * A worker of `sbsim controller --workers` holds only its share of
 * --switches: closed (before of_ctl_start), it programs none; opened, it
 * waits for no more than the switches it holds then, and programs them.
 */
void	of_ctl_gate(int closed);
const struct of_ctl_stats *of_ctl_stats(void);
/* Call fn for each switch in the order they connected; stop at the first
 * non-zero return and return it. */
int	of_ctl_switches(of_ctl_switch_fn, void *arg);
/* The switch of datapath id dpid: 0, or -1 when none is connected. */
int	of_ctl_switch_find(uint64_t dpid, struct of_ctl_switch *);
void	of_ctl_stop(void);

/* Hooks stay in force until replaced; NULL removes them. */
void	of_ctl_set_hooks(const struct of_ctl_hooks *);
/* Encode fm (match, prog already for the switch's version) and queue it
 * to switch dpid: 0, or -1 when none is connected or it does not encode. */
int	of_ctl_push(uint64_t dpid, const struct of_flow_mod *);
/* Encode one message for switch dpid (enc gets its negotiated version
 * and the xid; -1: it cannot be said in that version) and queue it:
 * the xid, or 0 when none is connected or it does not encode. */
typedef int (*of_ctl_encode_fn)(struct wbuf *, uint8_t version,
	    uint32_t xid, const void *arg);
uint32_t of_ctl_send(uint64_t dpid, of_ctl_encode_fn enc, const void *arg);
/* Close what was pushed with a BARRIER_REQUEST; -1: not connected. */
int	of_ctl_barrier(uint64_t dpid);
/* The same: the request's xid (never 0), or 0 when not connected. */
uint32_t of_ctl_barrier_xid(uint64_t dpid);

/*
 * A member of a controller cluster (OpenFlow 1.3.5 section 6.3.6): its
 * role now (0: it never asked for one) and the generation id of its
 * last master or slave claim.
 */
uint8_t	of_ctl_cluster_role(uint64_t *generation);
/*
 * Take role (OF_ROLE_MASTER, _SLAVE or _EQUAL) at run time: a
 * ROLE_REQUEST to every connected switch, with generation (0: one past
 * the largest this member used or saw in a ROLE_REPLY or ROLE_STATUS),
 * and, as master, its --flows-per-switch pushed to the switches that
 * wait for them.  Returns the switches asked; *used: the generation id.
 */
uint64_t of_ctl_set_role(uint8_t role, uint64_t generation, uint64_t *used);

/* The embedded controller's roles (of_role.c): the switches' controller
 * and its RESTCONF inventory. */
extern const struct ctl_role of_ctl_role;
extern const struct ctl_role of_inventory_role;

#endif
