/*
 * The OpenFlow role's northbound: OpenDaylight's opendaylight-inventory
 * nodes as RESTCONF resources, read from the controller's switches.
 */
#ifndef SBSIM_OF_RESTCONF_H
#define SBSIM_OF_RESTCONF_H

/* Register opendaylight-inventory:nodes with the RESTCONF layer. */
void	of_restconf_register(void);

#endif
