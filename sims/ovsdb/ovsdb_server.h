/*
 * One device's OVSDB server (RFC 7047 section 4): its database, the
 * JSON-RPC connections to it, their monitors (section 4.1.5 and
 * ovsdb-server(7)'s monitor_cond and monitor_cond_since), and the locks
 * (section 4.1.8 to 4.1.10).  It knows no sockets: a connection hands it
 * whole messages and it writes through the connection's send hook, so
 * that the unit tests and the fuzz harness drive it directly.
 */
#ifndef SBSIM_OVSDB_SERVER_H
#define SBSIM_OVSDB_SERVER_H

#include <sys/queue.h>

#include <stddef.h>
#include <stdint.h>

#include "ovsdb_db.h"

/* The counters a run reports (docs/report.md), as pointers. */
struct ovsdb_counters {
	uint64_t	*rx_msgs, *tx_msgs;
	uint64_t	*transacts, *transact_errors;
	uint64_t	*monitors, *monitor_cancels, *updates_sent;
	uint64_t	*echo_received, *echo_sent, *echo_replies;
	uint64_t	*locks_granted, *locks_stolen;
	uint64_t	*errors_sent, *unknown_methods;
	uint64_t	*decode_errors, *invalid_msgs;
	uint64_t	*oversized_msgs, *output_overflows;
	uint64_t	*sessions, *sessions_closed, *sessions_refused;
	uint64_t	*probe_timeouts;
	uint64_t	*tls_errors;
	uint64_t	*transacts_refused;	/* over max_ops */
	uint64_t	*input_overflows;	/* ovsdb_dev.c: --max-buffered */
	uint64_t	*slow_messages;		/* --message-timeout */
};

/* Operations one transact may carry (--max-transact-ops): each runs on
 * a copy of the database inside one turn of the loop, every device of
 * the process waiting, and 50 000 inserts took 3.5 s. */
#define OVSDB_DEFAULT_MAX_OPS	10000

struct ovsdb_monitor;
struct ovsdb_lockreq;
struct ovsdb_conn;

/* The _Server database (ovsdb-server(5)), read-only, one for all
 * devices (ovsdb_sysdb.c). */
struct ovsdb_sysdb {
	struct ovsdb_schema	*schema;
	struct ovsdb_db		*db;
};
struct ovsdb_sysdb *ovsdb_sysdb_new(const struct ovsdb_schema *data);
void	 ovsdb_sysdb_free(struct ovsdb_sysdb *);

/*
 * What a run watches in a device's server (ovsdb_phases.c): a client's
 * monitor request taken on a table of the device's own database, and a
 * client's transaction about to replace old with new.  The device's own
 * writes (ovsdb_server_write: the seed, vswitchd's) are not watched.
 */
struct ovsdb_watch {
	void	(*monitor)(void *arg, struct ovsdb_conn *, uint32_t ti);
	void	(*commit)(void *arg, struct ovsdb_conn *,
		    const struct ovsdb_db *old, const struct ovsdb_db *new);
};

struct ovsdb_server {
	const struct ovsdb_schema	*schema;
	struct ovsdb_db			*db;
	const struct ovsdb_sysdb	*sys;	/* NULL: no _Server */
	const struct ovsdb_counters	*c;
	LIST_HEAD(, ovsdb_conn)		 conns;
	TAILQ_HEAD(, ovsdb_lockreq)	 locks;	/* the first of a name owns */
	uint8_t				 changed;	/* by a client */
	const struct ovsdb_watch	*watch;		/* NULL: none */
	void				*watch_arg;
	uint32_t			 max_ops;	/* per transact */
};

struct ovsdb_conn {
	LIST_ENTRY(ovsdb_conn)		 entry;
	struct ovsdb_server		*srv;
	TAILQ_HEAD(, ovsdb_monitor)	 monitors;	/* in their order */
	/* Write one whole message. */
	void				(*send)(struct ovsdb_conn *,
					    const char *, size_t);
	json_t				*after;	/* to send after the reply */
	/* Kinds of trouble logged once (OVSDB_LOG_*): the connection's
	 * own, or its device's when it points there. */
	uint16_t			*logged;
	uint16_t			 logged_own;
	/* When the message in hand reached the device (the kernel's
	 * receive time where the device peeks it, else when it was read;
	 * 0: unknown): the watch times phases from it. */
	uint64_t			 rx_ns;
};

#define OVSDB_LOG_DECODE	0x01
#define OVSDB_LOG_INVALID	0x02
#define OVSDB_LOG_METHOD	0x04
#define OVSDB_LOG_BIGTXN	0x08
#define OVSDB_LOG_OTHER		0x10	/* the first bit free for others */

void	 ovsdb_server_init(struct ovsdb_server *, const struct ovsdb_schema *,
	    struct ovsdb_db *, const struct ovsdb_counters *);
/* Frees the database; the connections must be gone. */
void	 ovsdb_server_free(struct ovsdb_server *);

/* The database a request's params begin with: ours, _Server, or NULL
 * with *err as ovsdb-server words it for that method. */
struct ovsdb_db *ovsdb_server_db(struct ovsdb_server *, const char *method,
	    const json_t *params, json_t **err);
/*
 * A transaction of the device's own (ops as transact's, without the
 * database name): committed and the monitors told, as a client's would
 * be.  -1 with the result array in err when it failed.
 */
int	 ovsdb_server_write(struct ovsdb_server *, json_t *ops, char *err,
	    size_t errlen);

void	 ovsdb_conn_attach(struct ovsdb_server *, struct ovsdb_conn *,
	    void (*send)(struct ovsdb_conn *, const char *, size_t));
/* The connection is gone: its monitors and locks go with it. */
void	 ovsdb_conn_detach(struct ovsdb_conn *);
/*
 * One whole message (the framer's): the reply and any notifications
 * written.  -1 when it is not JSON or not JSON-RPC: ovsdb-server logs
 * that and closes the connection, and so must the caller.  who names
 * the device in the log, once per connection and kind.
 */
int	 ovsdb_conn_message(struct ovsdb_conn *, const uint8_t *, size_t,
	    const char *who);
void	 ovsdb_conn_send(struct ovsdb_conn *, json_t *msg);
/* The inactivity probe: an echo request (section 4.1.11). */
void	 ovsdb_conn_probe(struct ovsdb_conn *);

/* ovsdb_monitor.c: monitor, monitor_cond, monitor_cond_since (version
 * 1, 2, 3), monitor_cond_change, monitor_cancel, and the updates a
 * commit sends. */
json_t	*ovsdb_monitor_add(struct ovsdb_conn *, int version, json_t *params,
	    json_t **err);
json_t	*ovsdb_monitor_cancel(struct ovsdb_conn *, json_t *params,
	    json_t **err);
json_t	*ovsdb_monitor_change(struct ovsdb_conn *, json_t *params,
	    json_t **err);
void	 ovsdb_monitors_free(struct ovsdb_conn *);
/* Every monitor of every connection: what went from old to new. */
void	 ovsdb_monitors_update(struct ovsdb_server *,
	    const struct ovsdb_db *old, const struct ovsdb_db *new);

#endif
