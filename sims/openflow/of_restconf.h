/*
 * The OpenFlow role's northbound: OpenDaylight's opendaylight-inventory
 * nodes as RESTCONF resources, read from the controller's switches.
 */
#ifndef SBSIM_OF_RESTCONF_H
#define SBSIM_OF_RESTCONF_H

#include <stddef.h>
#include <stdint.h>

struct doc_node;
struct http_req;
struct http_server;

/* Register opendaylight-inventory:nodes with the RESTCONF layer. */
void	of_restconf_register(void);
/* "openflow:DPID" (decimal, no leading zero): 0, or -1 when it is not. */
int	of_restconf_node_id(const char *id, uint64_t *dpid);
/* The number of entries of list under parent (to check a body's count,
 * or to size an array, before its entries are read). */
size_t	of_restconf_entries(const struct doc_node *parent,
	    const char *list);
/* The node an RPC input names in its "node" leaf (of_rpc.c), connected
 * when direct: 0, or -1 after an error reply. */
int	ofrpc_node(struct http_req *, const struct doc_node *in, int direct,
	    uint64_t *dpid);
/* The sal-flow and sal-bulk-flow operations (of_rpc.c). */
void	of_rpc_register(struct http_server *);
/* sbsim-cluster:set-role (of_cluster_rpc.c). */
void	of_cluster_rpc_register(struct http_server *);
/* network-topology's flow:1 (of_topology.c). */
void	of_topology_register(void);

#endif
