/*
 * The speaker's neighbors and peer groups over RESTCONF in OpenDaylight's
 * openconfig-network-instance shapes, and bgp-peer-rpc:reset-session.
 */
#ifndef SBSIM_BGP_OC_H
#define SBSIM_BGP_OC_H

#include "http_server.h"

void	bgp_oc_register(struct http_server *);

#endif
