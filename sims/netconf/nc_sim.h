/*
 * `sbsim netconf`: simulated NETCONF devices (RFC 6241) over SSH (RFC
 * 6242 section 3, libssh server in nc_ssh.c) or plain TCP, each with its
 * own datastores (nc_store) on one shared schema, and notifications
 * (RFC 5277).  nc_main.c has the command line and the phases, nc_dev.c
 * the NETCONF session of a device, nc_ssh.c the SSH transport.
 *
 * A device listens on its own port (the pool's passive mode, handing
 * over descriptors), or with --source on its own address where one
 * listener on the wildcard address serves them all (share_listener), and
 * may hold several sessions at once, as a real device does: kill-session
 * ends another session of the same device.
 */
#ifndef SBSIM_NC_SIM_H
#define SBSIM_NC_SIM_H

#include <sys/queue.h>

#include <stdint.h>

#include "metrics.h"
#include "northbound.h"
#include "nc_frame.h"
#include "nc_msg.h"
#include "nc_store.h"
#include "pool.h"
#include "rxstamp.h"
#include "txack.h"
#include "fault.h"

struct bufferevent;
struct event;
struct nc_ssh;
struct nc_ssh_server;

enum nc_transport {
	NC_TR_SSH,
	NC_TR_TCP,
};

/* The SSH host key file when --host-key is not given (in the working
 * directory; generated when absent). */
#define NC_SSH_DEFAULT_KEY	"sbsim_netconf_host_key"

/* Options whose default is a value they may be given (struct nc_config's
 * given). */
#define NC_GIVEN_PREFIXES	(1u << 0)

struct nc_config {
	uint32_t	 devices;
	uint8_t		 transport;	/* enum nc_transport */
	int		 candidate;
	const char	*listen;	/* ptcp:PORT[:IP] */
	const char	*user;		/* NULL: any user name */
	const char	*password;
	const char	*authorized_keys;
	const char	*host_key;
	const char	*yang_dir;
	uint32_t	 notifications;	/* K per device */
	uint32_t	 prefixes;	/* J per notification */
	unsigned	 given;		/* NC_GIVEN_* of the options seen */
	double		 notif_rate;	/* per device per second, 0: no limit */
	uint64_t	 expect_edits;	/* program target, 0: none */
	uint32_t	 max_sessions;	/* per device */
	double		 hello_timeout;	/* s to reach hello, 0: none */
	double		 auth_delay;	/* s paused after a failed auth */
	uint32_t	 max_startups;	/* per device, before hello */
	/* A session stops reading above this many bytes of unsent
	 * output, and reads on below half of it (nc_sess_out_full). */
	uint32_t	 out_mark;
	uint32_t	 max_attrs;	/* of an element (nc_xml_limit_attrs) */
};

/* The northbound driver (nc_nb.c). */
struct nc_nb_cfg {
	/* The shared rows' (nb_opt_rows): --northbound, its parallel,
	 * user, password, style and format, and --northbound-poll. */
	struct nb_opts	 opts;
	unsigned	 given;		/* NB_GIVEN_* of both groups */
	uint32_t	 batch;		/* --mount-batch: nodes per request */
	uint32_t	 edits;		/* --edits per device */
	uint32_t	 edits_per_request;
	int		 no_learn;	/* do not poll the controller's prefixes */
	const char	*device_host;	/* what the controller dials */
	/* Filled in by nc_nb_check and nc_nb_start. */
	int		 tcp_only;
	const char	*dev_user;
	const char	*dev_password;
	uint16_t	 base_port;
	/* Devices on an address each (--source), all at base_port. */
	const struct source_range *dev_range;
};

enum nc_phase {
	NCP_CONNECT,	/* devices with a session past hello */
	NCP_MOUNT,	/* devices that answered a get/get-config */
	NCP_PROGRAM,	/* list entries created + leaves modified */
	NCP_LEARN,	/* notification prefixes sent */
	NCP_MAX,
};

/* The highest enum nc_op, for the per-kind rpc counters. */
#define NC_OP_COUNT	(NC_OP_CREATE_SUBSCRIPTION + 1)

struct nc_counters {
	uint64_t	*rpcs[NC_OP_COUNT];		/* made on first use */
	uint64_t	*errors[NC_ERR_TAG_COUNT + 1];	/* rpc-errors sent */
	uint64_t	*sessions, *sessions_closed, *sessions_killed;
	uint64_t	*sessions_refused;
	uint64_t	*sessions_evicted;	/* unfinished, for a newcomer */
	uint64_t	*no_device;	/* the pool's, to no device */
	uint64_t	*auth_failures, *ssh_failures;
	uint64_t	*auth_throttled;	/* refused unchecked, in the
						 * device's --auth-delay */
	uint64_t	*framing_errors, *xml_errors, *hello_errors;
	uint64_t	*xml_attrs_refused;	/* also in xml_errors */
	uint64_t	*hello_timeouts;
	uint64_t	*reads_paused;	/* output over --output-mark */
	uint64_t	*bytes_in, *bytes_out;
	uint64_t	*notifications_sent, *prefixes_sent;
	uint64_t	*entries_created, *entries_modified, *entries_deleted;
};

/* Session states; SSH ones first. */
enum nc_sess_state {
	NCS_SSH_KEX,		/* key exchange under way */
	NCS_SSH_AUTH,		/* authenticating, no subsystem yet */
	NCS_HELLO,		/* our hello sent, waiting for theirs */
	NCS_OPEN,		/* rpcs */
	NCS_CLOSING,		/* last reply going out, then closed */
	NCS_DEAD,		/* waiting to be freed */
};

struct nc_dev;

/* The session slots a live session holds (--max-startups before its
 * hello, --max-sessions after it); none once it is dead. */
#define NC_SLOT_NONE	0
#define NC_SLOT_START	1
#define NC_SLOT_OPEN	2

struct nc_sess {
	LIST_ENTRY(nc_sess)	 entry;		/* in dev->sessions */
	TAILQ_ENTRY(nc_sess)	 reap;		/* in sim->dead */
	struct nc_dev		*dev;
	uint32_t		 sid;		/* session-id, 1.. */
	uint8_t			 state;		/* enum nc_sess_state */
	uint8_t			 transport;	/* enum nc_transport */
	uint8_t			 base11;	/* both said base:1.1 */
	uint8_t			 subscribed;
	uint8_t			 rd_paused;	/* output over the mark */
	uint8_t			 slot;		/* NC_SLOT_*: which it holds */
	uint32_t		 src;		/* its peer address, folded */
	uint64_t		 accept_ns;
	struct nc_framer	 fr;
	struct bufferevent	*bev;		/* TCP */
	struct rxpeek		 rxp;		/* TCP, while program waits */
	uint64_t		 arrived_ns;	/* the read's first segment */
	struct nc_ssh		*ssh;		/* SSH */
	struct event		*deadline_ev;	/* until hello, then freed */
	struct event		*notif_ev;	/* made on subscription */
	uint32_t		 notif_sent;
	double			 notif_credit;
	uint64_t		 notif_last_ns;
};

LIST_HEAD(nc_sess_list, nc_sess);

struct nc_dev {
	struct pool_dev		 pd;		/* first: the pool's handle */
	struct nc_sim		*sim;
	uint32_t		 idx;
	uint16_t		 nsess;
	uint16_t		 nstart;	/* alive, before hello */
	uint16_t		 nopen;		/* alive, past hello */
	uint8_t			 connected;	/* counted in connect */
	uint8_t			 mounted;	/* counted in mount */
	uint32_t		 logged;	/* trouble logged once, NCL_* */
	uint64_t		 learned;	/* prefixes counted in learn */
	struct txack_dev	 txd;		/* its part of learn */
	uint32_t		 ack_sid;	/* on this session */
	struct nc_store		*store;
	struct nc_sess_list	 sessions;
	uint16_t		 fault_rpc_errors; /* next RPCs to refuse */
	uint64_t		 auth_next_ns;	/* no password checked before */
	struct nc_slow		*fault_slow;	/* --fault slow-rpc, NULL */
};

TAILQ_HEAD(nc_sess_tq, nc_sess);

struct nc_sim {
	struct nc_config	 cfg;
	struct pool_config	 pcfg;
	struct pool		 pool;
	struct nc_dev		*devs;
	struct nc_schema	*schema;
	struct nc_ssh_server	*ssh;
	struct metrics		*m;
	struct phase		*ph[NCP_MAX];
	struct nc_counters	 c;
	struct nc_sess_tq	 dead;
	struct event		*reaper;
	uint32_t		 open_sessions;
	uint32_t		 max_open;	/* sessions the fds allow */
	uint32_t		 next_sid;
	/* --shard: the first device's number in the whole run (its port
	 * or address, from the pool's index_base, and its notifications'
	 * prefixes). */
	uint32_t		 idx_base;
	double			 phase_timeout;
	uint64_t		 unused;	/* counters TCP never bumps */
	struct nc_nb_cfg	 nb;
	struct nb_run		*nb_mount, *nb_edit, *nb_learn;
	char			**nb_names;
	int			 nb_stage;
	uint32_t		 learned_devs;	/* devices whose quota went */
	struct txack		 acked;		/* learn's end (TCP) */
};

/* Kinds of trouble logged once per device (bits of dev->logged). */
#define NCL_XML		0x01
#define NCL_FRAMING	0x02
#define NCL_HELLO	0x04
#define NCL_AUTH	0x08
#define NCL_RPC_ERR	0x10
#define NCL_UNKNOWN_OP	0x20
#define NCL_SSH		0x40
#define NCL_REFUSED	0x80
#define NCL_DEADLINE	0x100

/* nc_dev.c: the NETCONF session, transport independent. */
struct nc_sess *nc_sess_new(struct nc_dev *, enum nc_transport, int fd);
/* Send our hello (TCP: at once; SSH: on the netconf subsystem). */
void	 nc_sess_start(struct nc_sess *);
/* Bytes from the peer: returns how many were consumed (all). */
size_t	 nc_sess_input(struct nc_sess *, const void *, size_t);
/* End the session now (peer gone, fatal error): freed from the loop. */
void	 nc_sess_kill(struct nc_sess *, const char *why);
/* The same, its connection reset (SO_LINGER 0) as a peer's crash would:
 * --fault drop. */
void	 nc_sess_reset(struct nc_sess *, const char *why);
/* The transport's output drained (closing sessions end then). */
void	 nc_sess_drained(struct nc_sess *);
/* Free every dead session (the reaper event; at stop). */
void	 nc_sim_reap(struct nc_sim *);
void	 nc_dev_accept_tcp(struct pool_dev *, int fd);
/* Past --max-sessions or the descriptor budget, or --max-startups with
 * no unfinished session to evict: close fd, return 1. */
int	 nc_dev_refuse(struct nc_dev *, int fd);
/* At exit: the shared reply buffer. */
void	 nc_dev_cleanup(void);
void	 nc_dev_free(struct nc_dev *);
/* Log a kind of trouble once per device; 1 when this is the first. */
int	 nc_dev_log_once(struct nc_dev *, uint32_t kind);

/* nc_nb.c: the northbound driver. */
/* Defaults of the northbound options, before parsing. */
void	 nc_nb_defaults(struct nc_nb_cfg *);
int	 nc_nb_check(struct nc_sim *, char *err, size_t errlen);
void	 nc_nb_start(struct nc_sim *, struct metrics *);
int	 nc_nb_tick(struct nc_sim *, uint64_t now_ns);
void	 nc_nb_stop(struct nc_sim *);

/* nc_ssh.c: the SSH transport (RFC 6242 section 3). */
struct nc_ssh_server *nc_ssh_server_new(const struct nc_config *, char *err,
	    size_t errlen);
void	 nc_ssh_server_free(struct nc_ssh_server *);
void	 nc_dev_accept_ssh(struct pool_dev *, int fd);
/* Queue bytes on the netconf channel. */
void	 nc_ssh_write(struct nc_sess *, const void *, size_t);
/* Bytes queued that the channel window did not take yet. */
size_t	 nc_ssh_pending(const struct nc_sess *);
/* Its output drained below the low mark: read the channel on. */
void	 nc_ssh_read_on(struct nc_sess *);
/* Close the channel and the connection (closes the descriptor). */
void	 nc_ssh_free(struct nc_sess *);
/* The connection's close to come is a reset (SO_LINGER 0), with no
 * channel EOF or close before it (--fault drop). */
void	 nc_ssh_reset(struct nc_sess *);

/* nc_fault.c: the --fault kinds of these devices (src/core/fault.h); and
 * whether the RPC that just came is one a fault answers with its
 * rpc-error (counted once it is). */
extern const struct fault_kind nc_fault_kinds[];
int	 nc_fault_rpc_error_due(struct nc_dev *, enum nc_op);
/* Whether a slow-rpc fault holds this reply of session s (the bytes are
 * its then, sent late); 0: send it now. */
int	 nc_fault_hold(struct nc_sess *s, enum nc_op, const void *msg,
	    size_t len);
/* One framed message's bytes to the session's transport, counted. */
void	 nc_sess_write(void *sess, const void *p, size_t len);

/* `sbsim netconf` (nc_main.c). */
extern const struct sbsim_cmd netconf_cmd;

#endif
