/*
 * OpenFlow as the engine sees it (protocol.h): `sbsim openflow`, the
 * controller's two roles (its switches' controller first, then the
 * RESTCONF inventory over it), a scenario's group of switches, its part of
 * `sbsim demo`, and the switches OVSDB bridges become.
 */
#include <stddef.h>

#include "protocol.h"
#include "of_ctl.h"
#include "of_sim.h"

/* Flows through the controller's RESTCONF northbound, confirmed in its
 * inventory and deleted. */
static const struct protocol_demo of_demo = PROTOCOL_DEMO_DIALED("of", 50,
    "--openflow", "", "--northbound odl:http://127.0.0.1:{rc} "
    "--flows 5000 --flows-per-request 100 --northbound-parallel 4",
    "switches get 5000 flows through RESTCONF");

SBSIM_PROTOCOL(openflow, "switches",
    .roles = PROTOCOL_ROLES(&of_ctl_role, &of_inventory_role),
    .demo = &of_demo, .datapath = &of_datapath);
