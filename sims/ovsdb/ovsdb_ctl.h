/*
 * The embedded controller's OVSDB manager, as OpenDaylight's ovsdb
 * southbound is one: OVSDB nodes in active mode connect to it (ptcp:,
 * ODL's 6640), and it connects out to passive nodes configured through
 * RESTCONF, with retries.  On each session (RFC 7047): list_dbs,
 * get_schema of Open_vSwitch, one monitor of the tables the topology is
 * built from (Open_vSwitch, Bridge, Port, Interface, Controller,
 * Manager), kept as a replica from the monitor's updates; echo is
 * answered and an inactivity probe sent; transacts on behalf of
 * RESTCONF.  ovsdb_restconf.c turns the replicas into topology ovsdb:1.
 */
#ifndef SBSIM_OVSDB_CTL_H
#define SBSIM_OVSDB_CTL_H

#include <sys/queue.h>

#include <stddef.h>
#include <stdint.h>

#include <event2/util.h>
#include <jansson.h>

#include "ctl_listen.h"
#include "endpoint.h"
#include "ovsdb_frame.h"
#include "ut.h"

#define OVSDB_CTL_ID_MAX	256	/* bytes of a node-id */
#define OVSDB_CTL_HOST_MAX	64

struct ovsdb_ctl_config {
	struct endpoint	 listen;
	double		 probe_s;	/* inactivity probe; 0: none */
	double		 monitor_timeout_s; /* until the monitor's reply */
	double		 op_timeout_s;	/* a transact's reply */
	double		 retry_max_s;	/* the longest wait between tries */
	uint32_t	 max_sessions;
	uint32_t	 max_message;	/* bytes of one JSON-RPC message */
	uint32_t	 max_output;	/* bytes queued towards one node */
	uint32_t	 max_buffered;	/* input held, all nodes together */
	double		 message_timeout_s; /* a message begun, until whole */
};

struct ovsdb_ctl_stats {
	uint64_t	 accepted;	/* active nodes that connected in */
	uint64_t	 connected_out;	/* passive nodes connected to */
	uint64_t	 connect_failures;
	uint64_t	 refused;	/* past --ovsdb-max-sessions */
	uint64_t	 monitors_up;	/* sessions whose monitor answered */
	uint64_t	 updates;	/* update notifications */
	uint64_t	 echo_answered;
	uint64_t	 probes_sent;
	uint64_t	 transacts_sent;
	uint64_t	 transacts_failed;
	uint64_t	 bad_messages;	/* malformed, session closed */
	uint64_t	 timeouts;	/* monitor or probe not answered */
	uint64_t	 overflows;	/* output queue past its bound */
	uint64_t	 oversized;	/* a message past --ovsdb-max-message */
	uint64_t	 buffer_overflows; /* input past --ovsdb-max-buffered */
	uint64_t	 slow_messages;	/* not whole in --ovsdb-message-timeout */
	uint64_t	 replaced;	/* sessions a newer one of the node
					   replaced */
	uint64_t	 closed;
	uint64_t	 nodes_max;	/* nodes up at once, at most */
	uint64_t	 bridges_max;	/* bridges known at once, at most */
};

enum ovsdb_ctl_state {
	OVSDB_CTL_HELLO,	/* list_dbs, get_schema, monitor on their way */
	OVSDB_CTL_UP,		/* the monitor answered: the replica is live */
	OVSDB_CTL_CLOSING,	/* last words out, then freed */
};

struct ovsdb_ctl_node;
struct ovsdb_ctl_op;

struct ovsdb_ctl;

struct ovsdb_ctl_sess {
	struct ctl_sess			 cs;	/* first: ctl_sess_event() */
	TAILQ_ENTRY(ovsdb_ctl_sess)	 entry;
	struct ovsdb_ctl	*om;	/* its manager */
	struct bufferevent	*bev;
	struct ovsdb_frame	 frame;
	struct ovsdb_ctl_node	*cfg;	/* configured node; NULL: it came in */
	enum ovsdb_ctl_state	 state;
	char			 node_id[OVSDB_CTL_ID_MAX];
	char			 remote_ip[OVSDB_CTL_HOST_MAX];
	char			 local_ip[OVSDB_CTL_HOST_MAX];
	uint16_t		 remote_port, local_port;
	char			 db_version[32];
	json_t			*tables;	/* table -> { uuid -> row } */
	TAILQ_HEAD(, ovsdb_ctl_op)	 ops;
	uint64_t		 next_id;
	uint64_t		 state_ns, last_rx_ns, probe_ns;
	uint64_t		 partial_ns;	/* a message begun; 0: none */
	size_t			 held;		/* input counted in buffered */
	UT_hash_handle		 hh;	/* by node_id, while up */
};
TAILQ_HEAD(ovsdb_ctl_sess_list, ovsdb_ctl_sess);

/* A passive node configured through RESTCONF (ovsdb:connection-info). */
struct ovsdb_ctl_node {
	TAILQ_ENTRY(ovsdb_ctl_node)	 entry;
	struct ovsdb_ctl	*om;	/* its manager */
	char			 id[OVSDB_CTL_ID_MAX];
	char			 ip[OVSDB_CTL_HOST_MAX];
	uint16_t		 port;
	struct ovsdb_ctl_sess	*sess;
	struct event		*retry;
	struct bufferevent	*connecting;
	uint32_t		 attempts;
};
TAILQ_HEAD(ovsdb_ctl_node_list, ovsdb_ctl_node);

/* A transact's end: result is the reply's result array (borrowed), or
 * NULL with why when the node answered an error, went away or was too
 * slow. */
typedef void (*ovsdb_ctl_done_cb)(void *arg, json_t *result, const char *why);

/* The defaults: ODL's where it has them (ovsdb_ctl.c). */
extern const struct ovsdb_ctl_config ovsdb_ctl_config_default;
int	 ovsdb_ctl_start(const struct ovsdb_ctl_config *, char *err,
	    size_t errlen);
void	 ovsdb_ctl_stop(void);
const struct ovsdb_ctl_stats *ovsdb_ctl_stats(void);

/* Sessions whose monitor answered (node_id set), and all of them. */
struct ovsdb_ctl_sess_list *ovsdb_ctl_sessions(void);
struct ovsdb_ctl_sess	*ovsdb_ctl_find(const char *node_id);
size_t		 ovsdb_ctl_count_up(void);
size_t		 ovsdb_ctl_count_bridges(void);

/* The rows of a table in a session's replica (an object uuid -> row),
 * NULL when the table is empty or not monitored. */
json_t		*ovsdb_ctl_table(const struct ovsdb_ctl_sess *,
	    const char *table);

/* Send a transact on db Open_vSwitch (ops stolen); cb is called exactly
 * once, maybe before this returns (-1: not sent, cb not called). */
int	 ovsdb_ctl_transact(struct ovsdb_ctl_sess *, json_t *ops,
	    ovsdb_ctl_done_cb, void *arg);

/* Configured passive nodes. */
struct ovsdb_ctl_node_list *ovsdb_ctl_nodes(void);
struct ovsdb_ctl_node	*ovsdb_ctl_node_find(const char *id);
/* Add one and start connecting; a node of that id is replaced. */
struct ovsdb_ctl_node	*ovsdb_ctl_node_add(const char *id, const char *ip,
	    uint16_t port);
/* Forget it and close its session. */
void		 ovsdb_ctl_node_del(struct ovsdb_ctl_node *);

/* The accept callback's body, for tests: a node connected on fd. */
void	 ovsdb_ctl_attach(evutil_socket_t fd, const struct sockaddr *,
	    socklen_t);

/* The embedded controller's manager as a role (ovsdb_role.c). */
extern const struct ctl_role ovsdb_ctl_role;

#endif
