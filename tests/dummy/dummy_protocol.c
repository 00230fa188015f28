/*
 * The dummy protocol as the engine sees it (protocol.h): its command, its
 * role, a scenario's group of devices and its part of `sbsim demo`.
 */
#include <stddef.h>

#include "protocol.h"
#include "dummy.h"

static const struct protocol_demo dummy_demo = PROTOCOL_DEMO_DIALED(
    "dummy", 5, "--dummy", "", "--hellos 3 --source {net}.1/24",
    "dummy devices say 3 hellos each");

SBSIM_PROTOCOL(dummy, "devices", .roles = PROTOCOL_ROLES(&dummy_ctl_role),
    .demo = &dummy_demo);
