/*
 * The PCE's northbound in OpenDaylight's shapes: the pcep-topology of
 * network-topology (operational: a node "pcc://IP" per PCC with its
 * path-computation-client and reported LSPs) and the RPCs
 * network-topology-pcep:update-lsp, add-lsp and remove-lsp under
 * /rests/operations and /restconf/operations.
 */
#ifndef SBSIM_PCEP_RESTCONF_H
#define SBSIM_PCEP_RESTCONF_H

struct http_server;

/* After restconf_start(): the resource and the operation routes. */
void	pcep_restconf_register(struct http_server *);

#endif
