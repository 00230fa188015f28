/*
 * PCEP as the engine sees it (protocol.h): `sbsim pcep`, the
 * controller's PCE, a scenario's group of PCCs and its part of `sbsim
 * demo`.
 */
#include <stddef.h>

#include "protocol.h"
#include "pcep_ctl.h"
#include "pcep_sim.h"

static const struct ctl_role *const pcep_roles[] = { &pcep_ctl_role, NULL };

/* PCCs delegate LSPs that the PCE updates. */
static const struct protocol_demo pcep_demo = {
	.group = "pcep",
	.count = 30,
	.controller = "--pcep ptcp:{port}:127.0.0.1 --pcep-update-all 8",
	.connect = "tcp:127.0.0.1:{port}",
	.options = "--lsps 10 --delegate",
	.says = "PCCs delegate 10 LSPs each that the PCE updates",
	.listens = 1,
};

const struct sbsim_protocol pcep_protocol = {
	.cmd = &pcep_cmd,
	.roles = pcep_roles,
	.count = "pccs",
	.demo = &pcep_demo,
};
