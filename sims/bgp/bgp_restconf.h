/*
 * The BGP speaker's RIBs over RESTCONF (OpenDaylight's bgp-rib shapes):
 * loc-rib and each peer's adj-rib-in to read, the application RIB to
 * write routes the speaker advertises.
 */
#ifndef SBSIM_BGP_RESTCONF_H
#define SBSIM_BGP_RESTCONF_H

void	bgp_restconf_register(void);

#endif
