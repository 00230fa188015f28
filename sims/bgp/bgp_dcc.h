/*
 * bgpcep's data change counter over RESTCONF: the Loc-RIB's transactions,
 * as CSIT's bgpingest suites poll them.
 */
#ifndef SBSIM_BGP_DCC_H
#define SBSIM_BGP_DCC_H

void	bgp_dcc_register(void);

#endif
