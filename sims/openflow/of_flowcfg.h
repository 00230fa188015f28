/*
 * The embedded controller's config datastore of flows, as OpenDaylight's
 * opendaylight-inventory / flow-node-inventory model holds them: per node
 * (openflow:DPID) the flows keyed by (table, id), each pushed to its switch
 * as a FLOW_MOD when written or deleted, and again when the switch
 * (re)connects.  The switch's own view (its last flow stats reply) is kept
 * beside it for the operational datastore.
 *
 * Memory: one compact allocation per flow (id, name, canonical match and
 * outputs packed after a small header) and two hash chains; about 150
 * bytes per flow with short ids.
 */
#ifndef SBSIM_OF_FLOWCFG_H
#define SBSIM_OF_FLOWCFG_H

#include <stddef.h>
#include <stdint.h>

#include "doc.h"
#include "of_match.h"

#define FC_MAX_ID	255	/* bytes of a flow id or flow-name */
#define FC_MAX_OUT	16	/* output actions of a flow */
#define FC_NO_TABLE	0xff
#define FC_DEFAULT_PRIORITY 0x8000	/* openflowplugin's default */

struct fc_out {
	uint32_t	port;		/* or, for a group-action, the group */
	uint16_t	max_len;
	uint8_t		group;		/* a group-action (OFPAT_GROUP) */
};

/* A flow as a request body gave it (opendaylight-flow-types). */
struct fc_spec {
	char		id[FC_MAX_ID + 1];
	char		name[FC_MAX_ID + 1];
	int		table;		/* -1: not given */
	uint16_t	priority;
	uint16_t	idle;
	uint16_t	hard;
	uint64_t	cookie;
	struct of_match	match;
	uint8_t		nout;
	uint8_t		apply;		/* an apply-actions was given */
	uint8_t		go_to;		/* FC_NO_TABLE: none */
	uint8_t		strict;		/* remove-flow: DELETE_STRICT */
	uint32_t	meter;		/* a meter instruction's id, 0: none */
	struct fc_out	out[FC_MAX_OUT];
};

struct fc_node;
struct fc_flow;

/* A node connector ("3", "openflow:1:3", "CONTROLLER" ...) as a port:
 * 0, or -1 when it is none; and a port as the operational view names
 * it (its number, or a reserved port's name). */
int	 fc_port(const char *, uint32_t *port);
void	 fc_port_name(uint32_t port, char *s, size_t cap);
/* Parse one flow entry; -1 with a message naming the field in err. */
int	 fc_parse(const struct doc_node *, struct fc_spec *, char *err,
	    size_t errlen);
/* The same with its id in leaf id_leaf ("flow-id"), or none (NULL: an
 * RPC's input). */
int	 fc_parse_as(const struct doc_node *, const char *id_leaf,
	    struct fc_spec *, char *err, size_t errlen);
/* Flow j of bulk-o-matic's flow-test on node dpid, tables start..end. */
void	 fc_test_spec(struct fc_spec *, uint64_t dpid, uint32_t j,
	    unsigned start, unsigned end);

/* Hook the store to the OpenFlow role (reconciliation, stats). */
void	 fc_start(void);
void	 fc_stop(void);

/* The inventory's node of a switch (made when create), or NULL; its
 * ports (of_ports.c's). */
struct fc_node *fc_node_get(uint64_t dpid, int create);
struct op_node;
struct op_node *fc_node_ports(struct fc_node *);
/* The node has config flows (in table t; -1 any). */
uint64_t fc_node_count(const struct fc_node *, int table);

/* Writes; each pushes FLOW_MODs to the switch when it is connected.
 * fc_barrier closes a request's batch. */
/* 1 created, 0 replaced. */
int	 fc_put(struct fc_node *, const struct fc_spec *);
/* All or none: -1 with *dup the index of a spec whose id exists. */
int	 fc_post(struct fc_node *, const struct fc_spec *, size_t n,
	    size_t *dup);
/* 0, or -1 when there is no such flow / no flow in the table. */
int	 fc_delete(struct fc_node *, unsigned table, const char *id);
int	 fc_delete_table(struct fc_node *, unsigned table);
/* All config flows of a node (-1: it has none), or of every node (the
 * number of nodes that had some); each flow leaves its switch. */
int	 fc_delete_node(struct fc_node *);
unsigned fc_delete_all(void);
void	 fc_barrier(struct fc_node *);
/* Push a flow (add, or remove: strict as the spec says) without keeping
 * it in the config; the operational view shows it, once the switch
 * reports it, under an id "#UF$TABLE*T-N" of its own. */
void	 fc_rpc_push(struct fc_node *, const struct fc_spec *, int add);

/* Reads. */
struct fc_flow *fc_find(struct fc_node *, unsigned table, const char *id);
typedef void (*fc_flow_fn)(struct fc_node *, const struct fc_flow *,
	    void *arg);
/* Config flows of a table (-1: all), in no particular order; oper: only
 * those the switch reported in its last flow stats reply. */
void	 fc_foreach(struct fc_node *, int table, int oper, fc_flow_fn,
	    void *arg);
/* The pushed flows of a table the switch reported in its last stats. */
void	 fc_rpc_foreach(struct fc_node *, unsigned table, fc_flow_fn,
	    void *arg);
/* How many ids fc_rpc_push has given (the others number on from it). */
uint64_t fc_rpc_seq(const struct fc_node *);
/* Bit t set: table t has config flows. */
void	 fc_tables(struct fc_node *, uint8_t set[32]);
/* From the last stats reply: 0 when none came yet. */
int	 fc_reported(const struct fc_node *);
/* The switch reported the flow in its last flow stats reply. */
int	 fc_oper_visible(const struct fc_node *, const struct fc_flow *);
uint32_t fc_reported_flows(const struct fc_node *, unsigned table);
/* Flows the switch has in table that are not in the config. */
uint32_t fc_reported_unknown(const struct fc_node *, unsigned table);
/* Write a flow entry (inside a list) in flow-node-inventory's shape. */
void	 fc_render(struct doc_writer *, const struct fc_node *,
	    const struct fc_flow *);

#endif
