/*
 * The OpenFlow role's northbound: OpenDaylight's opendaylight-inventory
 * nodes as RESTCONF resources, read from the controller's switches.
 */
#ifndef SBSIM_OF_RESTCONF_H
#define SBSIM_OF_RESTCONF_H

#include <stdint.h>

struct http_server;

/* Register opendaylight-inventory:nodes with the RESTCONF layer. */
void	of_restconf_register(void);
/* "openflow:DPID" (decimal, no leading zero): 0, or -1 when it is not. */
int	of_restconf_node_id(const char *id, uint64_t *dpid);
/* The node an RPC input's node-context-ref names (of_rpc.c): 0, or -1
 * when it names no OpenFlow node. */
int	ofrpc_node_ref(const char *ref, uint64_t *dpid);
/* The sal-flow and sal-bulk-flow operations (of_rpc.c). */
void	of_rpc_register(struct http_server *);
/* sbsim-cluster:set-role (of_cluster_rpc.c). */
void	of_cluster_rpc_register(struct http_server *);
/* network-topology's flow:1 (of_topology.c). */
void	of_topology_register(void);

#endif
