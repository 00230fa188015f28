/*
 * OVSDB as the engine sees it (protocol.h): `sbsim ovsdb`, the
 * controller's manager and a scenario's group of devices; it has no part
 * in `sbsim demo`.
 */
#include <stddef.h>

#include "protocol.h"
#include "ovsdb_ctl.h"
#include "ovsdb_sim.h"

static const struct ctl_role *const ovsdb_roles[] = {
	&ovsdb_ctl_role, NULL
};

const struct sbsim_protocol ovsdb_protocol = {
	.cmd = &ovsdb_cmd,
	.roles = ovsdb_roles,
	.count = "devices",
};
