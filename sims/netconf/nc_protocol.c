/*
 * NETCONF as the engine sees it (protocol.h): `sbsim netconf`, the
 * controller's client role, a scenario's group of devices (one at most:
 * they share the process's SSH server) and its part of `sbsim demo`.
 */
#include <stddef.h>

#include "protocol.h"
#include "nc_ctl.h"
#include "nc_sim.h"

/* Devices listen on {net}; the controller mounts them when the
 * northbound asks, edits their configuration and unmounts them. */
static const struct protocol_demo nc_demo = {
	.group = "nc",
	.count = 20,
	.controller = "--netconf",
	.options = "--listen ptcp:{port} --source {net}.1/24 --transport tcp "
	    "--northbound odl:http://127.0.0.1:{rc} --edits 2",
	.says = "NETCONF devices are mounted and edited",
};

SBSIM_PROTOCOL(netconf, "devices", .roles = PROTOCOL_ROLES(&nc_ctl_role),
    .one_group = "its devices share the process's SSH server",
    .demo = &nc_demo);
