/*
 * `sbsim ovsdb`: N devices, each an OVSDB server (RFC 7047) holding an
 * Open_vSwitch database, in active mode (connecting to the manager, as
 * `ovs-vsctl set-manager tcp:IP:6640` makes ovsdb-server do) or passive
 * mode (listening, as `ptcp:6640` does).  ovsdb_dev.c: the sessions on
 * the pool; ovsdb_main.c: options, the run and its phases.
 */
#ifndef SBSIM_OVSDB_SIM_H
#define SBSIM_OVSDB_SIM_H

#include <sys/queue.h>

#include <stdint.h>

#include "metrics.h"
#include "ovsdb_frame.h"
#include "ovsdb_server.h"
#include "pool.h"
#include "fault.h"

#define OVSDB_DEFAULT_SCHEMA	"/usr/share/openvswitch/vswitch.ovsschema"

struct ovsdb_config {
	uint32_t	 devices;
	const char	*schema;	/* --schema FILE */
	uint32_t	 bridges;	/* per device, made at the start */
	uint32_t	 ports;		/* per bridge, besides its own */
	uint32_t	 max_sessions;	/* passive: sessions per device */
	uint32_t	 max_message;	/* bytes of one JSON-RPC message */
	uint32_t	 max_output;	/* bytes waiting to go per session */
	double		 probe_s;	/* inactivity probe, 0: none */
	uint32_t	 max_transact_ops; /* operations of one transact */
	uint32_t	 max_buffered;	/* input held, all sessions */
	double		 message_timeout_s; /* a message begun, to whole */
	uint32_t	 mgr_bridges;	/* --bridges: the manager's */
	int		 expect_delete;	/* --expect-delete */
	int		 no_datapath;	/* --no-datapath */
	uint32_t	 expect_bridges; /* bridge_openflow's target, 0: grows */
};

struct ovsdb_sim;
struct ovsdb_phases;
struct ovsdb_nb;

/* Kinds of trouble logged once per device, beside the server's. */
#define OVSDB_DLOG_LONG		(OVSDB_LOG_OTHER << 0)
#define OVSDB_DLOG_OVERFLOW	(OVSDB_LOG_OTHER << 1)
#define OVSDB_DLOG_PROBE	(OVSDB_LOG_OTHER << 2)
#define OVSDB_DLOG_REFUSED	(OVSDB_LOG_OTHER << 3)
#define OVSDB_DLOG_VSWITCHD	(OVSDB_LOG_OTHER << 4)
#define OVSDB_DLOG_TLS		(OVSDB_LOG_OTHER << 5)
#define OVSDB_DLOG_BUFFERED	(OVSDB_LOG_OTHER << 6)
#define OVSDB_DLOG_SLOW		(OVSDB_LOG_OTHER << 7)
/* The same for ovsdb_datapath.c (dp_logged). */
#define OVSDB_DPLOG_REFUSED	0x01
#define OVSDB_DPLOG_WRITEBACK	0x02

struct ovsdb_bdp;		/* ovsdb_datapath.c: a bridge's switch */
struct event;
struct engine_soon;

struct ovsdb_dev {
	struct pool_dev		 pd;		/* first: the pool hands it */
	struct ovsdb_sim	*sim;
	uint32_t		 idx;		/* in this process's array */
	uint32_t		 id;		/* in the whole run: idx, plus
						   the shard's first */
	uint16_t		 n_sessions;
	uint8_t			 reached;	/* counted in connect */
	uint16_t		 logged;	/* OVSDB_DLOG_* */
	uint8_t			 dp_logged;	/* OVSDB_DPLOG_* */
	struct ovsdb_server	 srv;
	struct ovsdb_sess	*active;	/* the pool's session */
	/* ovsdb_datapath.c: the bridges with a controller, and when the
	 * first client change not yet applied arrived (0: none). */
	LIST_HEAD(, ovsdb_bdp)	 bdps;
	uint64_t		 changed_rx_ns;
	struct engine_soon	*vsd_soon;	/* ovsdb_vswitchd_soon() */
};

/* ovsdb_datapath.c's counters, as pointers (docs/report.md). */
struct ovsdb_dp_counters {
	uint64_t	*opened, *closed, *handshakes, *lost;
	uint64_t	*refused, *targets_unused, *bad_dpids;
	uint64_t	*writeback_errors;
};

struct ovsdb_nb_cfg;

struct ovsdb_sim {
	struct ovsdb_config	 cfg;
	uint32_t		 idx_base;	/* --shard: its first device */
	struct ovsdb_nb_cfg	*nbc;		/* --northbound's options */
	struct pool_config	 pcfg;
	struct pool		 pool;
	struct ovsdb_schema	*schema;	/* shared by every device */
	struct ovsdb_sysdb	*sys;		/* _Server, the same */
	struct ovsdb_dev	*devs;
	struct metrics		*m;
	struct phase		*connect;
	struct ovsdb_phases	*ph;		/* learn, program, delete */
	struct ovsdb_nb		*nb;		/* --northbound, or NULL */
	struct ovsdb_counters	 c;
	size_t			 buffered;	/* input all sessions hold */
	double			 phase_timeout;
	uint64_t		 bridges_target;	/* program's, 0: none */
	int			 deletes;	/* delete is timed */
	struct phase		*bridge_of;	/* NULL: --no-datapath */
	struct ovsdb_dp_counters dpc;
};

/* ovsdb_dev.c: active devices' sessions come through these */
extern const struct pool_ops ovsdb_dev_ops;
/* Passive: a connection accepted (pool_config.up_fd). */
void	ovsdb_dev_accept(struct pool_dev *, int fd);
/* The device's database at the start: the Open_vSwitch row and
 * --bridges-per-node bridges with their ports; -1 with err. */
int	ovsdb_dev_seed(struct ovsdb_dev *, char *err, size_t errlen);
/* Every tick: inactivity probes, stalled sessions, deferred closes. */
void	ovsdb_dev_timers(struct ovsdb_dev *, uint64_t now);
/* The Open_vSwitch schema's tables and columns (their indexes) that
 * vswitchd and the datapaths read; ovsdb_vswitchd.c finds them. */
struct ovsdb_vscols {
	int	ovs, br, ctl, port, iface;
	int	cur_cfg, next_cfg;
	int	bname, bctl, bother, bdpid, bports, protocols;
	int	target, connected, status, backoff, probe;
	int	pname, pifaces, iname, itype, ofport, ofport_request;
};
/* ovsdb_vswitchd.c: what ovs-vswitchd writes back after a change
 * (cur_cfg, ofport, datapath_id). */
void	ovsdb_vswitchd_ack(struct ovsdb_dev *);
/* A client changed the database: the ack once the loop has handled
 * this round's events (engine_soon()), after the client's reply, as
 * vswitchd answers a moment later. */
void	ovsdb_vswitchd_soon(struct ovsdb_dev *);
/*
 * ovsdb_datapath.c: every bridge with a Controller row becomes an
 * OpenFlow switch of this process connecting to the controller
 * (src/core/datapath.h), timed by the bridge_openflow phase.
 */
void	ovsdb_datapath_start(struct ovsdb_sim *);
/* After vswitchd's write-back: switches made and ended to match. */
void	ovsdb_datapath_sync(struct ovsdb_dev *, const struct ovsdb_vscols *);
/* While bridge_openflow waits for its first bridge, sessions peek at
 * the kernel's receive time of every read. */
int	ovsdb_datapath_peeking(const struct ovsdb_sim *);
void	ovsdb_datapath_tick(struct ovsdb_sim *, uint64_t now);
/* 1 once bridge_openflow is not running (or not in the run). */
int	ovsdb_datapath_over(const struct ovsdb_sim *);
void	ovsdb_datapath_free(struct ovsdb_dev *);
void	ovsdb_datapath_stop(struct ovsdb_sim *);
/* Close every session and free the database. */
void	ovsdb_dev_free(struct ovsdb_dev *);

/* ovsdb_fault.c: the --fault kinds of these devices (src/core/fault.h). */
extern const struct fault_kind ovsdb_fault_kinds[];

/* `sbsim ovsdb` (ovsdb_main.c). */
extern const struct sbsim_cmd ovsdb_cmd;

#endif
