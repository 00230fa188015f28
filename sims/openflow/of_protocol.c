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

static const struct ctl_role *const of_roles[] = {
	&of_ctl_role, &of_inventory_role, NULL
};

/* Flows through the controller's RESTCONF northbound, confirmed in its
 * inventory and deleted. */
static const struct protocol_demo of_demo = {
	.group = "of",
	.count = 50,
	.controller = "--openflow ptcp:{port}:127.0.0.1",
	.connect = "tcp:127.0.0.1:{port}",
	.options = "--northbound odl:http://127.0.0.1:{rc} --flows 5000 "
	    "--flows-per-request 100 --northbound-parallel 4",
	.says = "switches get 5000 flows through RESTCONF",
	.listens = 1,
};

const struct sbsim_protocol openflow_protocol = {
	.cmd = &openflow_cmd,
	.roles = of_roles,
	.count = "switches",
	.demo = &of_demo,
	.datapath = &of_datapath,
};
