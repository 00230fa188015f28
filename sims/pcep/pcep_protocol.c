/*
 * PCEP as the engine sees it (protocol.h): `sbsim pcep`, the
 * controller's PCE, a scenario's group of PCCs and its part of `sbsim
 * demo`.
 */
#include <stddef.h>

#include "protocol.h"
#include "pcep_ctl.h"
#include "pcep_sim.h"

/* PCCs delegate LSPs that the PCE updates. */
static const struct protocol_demo pcep_demo = PROTOCOL_DEMO_DIALED("pcep",
    30, "--pcep", " --pcep-update-all 8", "--lsps 10 --delegate",
    "PCCs delegate 10 LSPs each that the PCE updates");

SBSIM_PROTOCOL(pcep, "pccs", .roles = PROTOCOL_ROLES(&pcep_ctl_role),
    .demo = &pcep_demo);
