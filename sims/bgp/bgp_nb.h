/*
 * The northbound side of OpenDaylight's BGP "data advertise" test: routes
 * written to the application RIB (bgp-rib:application-rib=example-app-rib)
 * in batches over RESTCONF, counted back from it, and deleted; the peers
 * time their arrival.  A driver for the generic northbound run
 * (src/controller/northbound.h), whose "flows" are route numbers here.
 */
#ifndef SBSIM_BGP_NB_H
#define SBSIM_BGP_NB_H

#include "bgp_codec.h"
#include "northbound.h"

struct bgp_nb_ctx {
	struct bgp_prefix	first;	/* route n is first's n-th block */
	/* What a count reads: the application RIB (the advertise test),
	 * or, to learn by the northbound, the Loc-RIB or its topology. */
	enum {
		BGP_NB_APP_RIB,
		BGP_NB_LOC_RIB,
		BGP_NB_TOPOLOGY,	/* example-ipv4-topology */
	}			count;
	uint8_t			af;	/* of the Loc-RIB table */
	uint8_t			next_hop4[4];
	uint8_t			next_hop6[16];
};

extern const struct nb_driver bgp_nb_odl_driver;

#define BGP_NB_NODE	"example-app-rib"
#define BGP_NB_RIB	"example-bgp-rib"

#endif
