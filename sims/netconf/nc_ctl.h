/*
 * The embedded controller's NETCONF role, in OpenDaylight's way: devices
 * are mounted when told through RESTCONF (topology-netconf, nc_restconf.c),
 * each through a state machine per device (nc_ctl.c):
 *
 *   connecting: connect (SSH or TCP), hello (RFC 6241 section 8.1),
 *     <get-schema> (RFC 6022 section 3.1) of every module the device
 *     advertises that the schema cache does not hold yet (schemas are
 *     shared by name and revision, as ODL's cache shares them), then a
 *     <get> of netconf-state/schemas (what ODL reads first)
 *   connected: the mount point serves edit-config and get-config; with
 *     --netconf-subscribe a <create-subscription> (RFC 5277 section 2.1)
 *     and the route-update notifications' prefixes are counted
 *   unable-to-connect: authentication refused, or the connection
 *     attempts ran out (max-connection-attempts)
 * A lost session goes back to connecting and is retried with backoff
 * (between-attempts-timeout-millis, sleep-factor), as ODL does.
 */
#ifndef SBSIM_NC_CTL_H
#define SBSIM_NC_CTL_H

#include <sys/queue.h>

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#include "nc_cli.h"
#include "ut.h"

struct http_server;
struct ly_ctx;

#define NC_CTL_NAME_MAX	64
#define NC_CTL_CRED_MAX	128

/* What a node's configuration holds (netconf-node-topology). */
struct nc_ctl_node_cfg {
	char		 name[NC_CTL_NAME_MAX];
	char		 host[64];
	uint16_t	 port;
	char		 user[NC_CTL_CRED_MAX];
	char		 password[NC_CTL_CRED_MAX];
	uint8_t		 tcp_only;
	uint8_t		 schemaless;
	uint32_t	 keepalive_s;		/* kept, not acted on */
	uint32_t	 max_attempts;		/* 0: forever */
	uint32_t	 between_ms;
	double		 sleep_factor;
	uint32_t	 connect_timeout_ms;
	uint32_t	 request_timeout_ms;
};

enum nc_ctl_status {
	NC_CTL_CONNECTING,
	NC_CTL_CONNECTED,
	NC_CTL_UNABLE,
};

struct nc_ctl_set;

struct nc_ctl_node {
	TAILQ_ENTRY(nc_ctl_node)	 entry;	/* all nodes, in order */
	TAILQ_ENTRY(nc_ctl_node)	 wait;	/* waiting for a slot */
	UT_hash_handle		 hh;		/* by cfg.name */
	struct nc_ctl_node_cfg	 cfg;
	enum nc_ctl_status	 status;
	uint8_t			 waiting;
	uint8_t			 active;	/* holds a mount slot */
	uint8_t			 writable_running;
	uint8_t			 candidate;
	uint8_t			 notification;	/* :notification */
	uint8_t			 logged;
	struct nc_cli		*cli;
	struct event		*retry;
	uint32_t		 attempts;
	uint32_t		 schemas_pending;
	char			**caps;		/* available-capabilities */
	size_t			 ncaps;
	char			**unavail;	/* schemas it could not get */
	size_t			 nunavail;
	struct nc_ctl_set	*set;		/* its schemas' context */
	uint64_t		 mount_ns;	/* when told to mount */
	uint64_t		 connected_ns;
	uint64_t		 notifications;
	uint64_t		 prefixes;
	uint64_t		 edits;		/* edit-configs answered ok */
	char			 why[96];	/* last failure */
};
TAILQ_HEAD(nc_ctl_node_list, nc_ctl_node);

struct nc_ctl_stats {
	uint64_t	mounts;			/* nodes told to mount */
	uint64_t	unmounts;
	uint64_t	sessions;		/* hellos exchanged */
	uint64_t	connected;		/* reached connected */
	uint64_t	connect_failures, auth_failures, ssh_failures;
	uint64_t	hello_errors, sessions_lost;
	uint64_t	schemas_fetched, schema_cache_hits, schema_errors;
	uint64_t	context_errors;
	uint64_t	rpc_errors, rpc_timeouts, bad_messages;
	uint64_t	edits, edit_errors;
	uint64_t	subscriptions, notifications, prefixes;
	uint64_t	first_mount_ns, last_connected_ns;
	uint64_t	first_prefix_ns, last_prefix_ns;
	uint64_t	bytes_in, bytes_out;
};

/* The role itself, in nc_role.c: the options below, nc_ctl_start() and
 * nc_ctl_stop(). */
extern const struct ctl_role nc_ctl_role;
struct nc_ctl_config {
	int		subscribe;	/* --netconf-subscribe */
	uint32_t	max_inflight;	/* mounts under way at once */
	double		timeout_s;	/* an rpc's, unless the node's own */
};

void	 nc_ctl_config_defaults(struct nc_ctl_config *);
/* Mount what RESTCONF (served on hs) is told of. */
void	 nc_ctl_start(const struct nc_ctl_config *, struct http_server *hs);
/* Before the HTTP server goes: every node unmounted, the caches freed. */
void	 nc_ctl_stop(void);

/* For the RESTCONF side (nc_restconf.c). */
const struct nc_ctl_stats *nc_ctl_stats(void);
struct nc_ctl_node_list *nc_ctl_nodes(void);
struct nc_ctl_node	*nc_ctl_find(const char *name);
void		 nc_ctl_cfg_defaults(struct nc_ctl_node_cfg *);
/* Mount, or remount when the configuration changed. */
struct nc_ctl_node	*nc_ctl_mount(const struct nc_ctl_node_cfg *);
void		 nc_ctl_unmount(struct nc_ctl_node *);
const char	*nc_ctl_status_name(enum nc_ctl_status);
uint32_t	 nc_ctl_count(enum nc_ctl_status);
/* An rpc on a connected node's session; -1 when it has none. */
int		 nc_ctl_rpc(struct nc_ctl_node *, const char *op_xml,
		    nc_cli_reply_cb, void *arg);
/* The libyang context of the node's schemas, NULL if it has none. */
struct ly_ctx	*nc_ctl_ctx(struct nc_ctl_node *);
/* An edit-config through the mount point answered (counted). */
void		 nc_ctl_count_edit(struct nc_ctl_node *, int ok);

/* nc_restconf.c */
void	 nc_restconf_register(void);
/* create-device and delete-device (netconf-node-topology). */
void	 nc_restconf_rpcs(struct http_server *);
void	 nc_restconf_stop(void);

#endif
