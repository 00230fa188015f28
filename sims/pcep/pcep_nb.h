/*
 * The northbound side of OpenDaylight's PCEP update test: sbsim calls the
 * controller's network-topology-pcep:update-lsp for every LSP of its PCCs
 * (P requests in flight), times each round trip (ODL answers once the
 * PCC's report is back), and counts in pcep-topology the LSPs whose
 * reported path shows the new ERO.  A driver of the generic northbound
 * run (src/controller/northbound.h) whose "flows" are LSPs and "nodes" the PCCs.
 */
#ifndef SBSIM_PCEP_NB_H
#define SBSIM_PCEP_NB_H

#include <stdint.h>

#include "northbound.h"

/* The new path's first hop: TEST-NET-2, so that counting it in the
 * topology counts exactly the LSPs updated. */
#define PCEP_NB_MARK	"198.51.100.1/32"

struct pcep_nb_ctx {
	uint32_t	lsps;		/* per PCC */
	uint32_t	endpoint;	/* host order: the path's last hop */
};

extern const struct nb_driver pcep_nb_odl_driver;

#endif
