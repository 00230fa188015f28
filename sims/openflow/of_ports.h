/*
 * The inventory's view of the switches' ports: what each switch reported
 * of them (FEATURES_REPLY, PORT_DESC, PORT_STATUS), their last PORT_STATS
 * counters, and the link LLDP found from each; the node-connector list
 * of opendaylight-inventory and the termination points and links of
 * network-topology's flow:1 are written from it.
 */
#ifndef SBSIM_OF_PORTS_H
#define SBSIM_OF_PORTS_H

#include <stdint.h>

#include "doc.h"
#include "of_codec.h"

struct op_port {
	struct of_port		p;
	struct of_port_stats	ps;
	int			has_stats;
	uint64_t		peer_dpid;	/* 0: no link found */
	uint32_t		peer_port;
};

/* Hooks from the OpenFlow role (of_ctl.h). */
void	op_connected(uint64_t dpid, uint8_t version);
void	op_port(uint64_t dpid, uint8_t reason, const struct of_port *,
	    void *arg);
void	op_port_stats(uint64_t dpid, const struct of_port_stats *,
	    void *arg);
void	op_link(uint64_t src, uint32_t src_port, uint64_t dst,
	    uint32_t dst_port, void *arg);
/* A node's ports, in its node of the inventory (fc_node_ports), let go
 * of with it (fc_stop). */
struct op_node {
	uint8_t		 version;	/* the switch's (op_connected) */
	struct op_port	*ports;
	size_t		 n, cap;
};
void	op_node_clear(struct op_node *);

/* The ports of a node, in the order reported; NULL and 0 when none. */
const struct op_port *op_ports(uint64_t dpid, size_t *n);
/* A port's id as ODL writes it: "openflow:DPID:PORT" (or :LOCAL). */
void	op_port_id(char *, size_t, uint64_t dpid, uint32_t port);
/* The node-connector entries of a node (inside its node-connector list). */
void	op_render(struct doc_writer *, uint64_t dpid);
/* Has node dpid a port of id ("openflow:1:1", exactly)? */
int	op_known(uint64_t dpid, const char *id);
/* That node-connector: the list named in module top with its entry, or
 * (stats_only) its flow-capable-node-connector-statistics alone. */
void	op_render_one(struct doc_writer *, const struct doc_module *top,
	    uint64_t dpid, const char *id, int stats_only);

#endif
