/*
 * OVSDB as the engine sees it (protocol.h): `sbsim ovsdb`, the
 * controller's manager and a scenario's group of devices; it has no part
 * in `sbsim demo`.
 */
#include <stddef.h>

#include "protocol.h"
#include "ovsdb_ctl.h"
#include "ovsdb_sim.h"

SBSIM_PROTOCOL(ovsdb, "devices", .roles = PROTOCOL_ROLES(&ovsdb_ctl_role));
