/*
 * BGP as the engine sees it (protocol.h): `sbsim bgp`, the controller's
 * speaker, a scenario's group of peers and its part of `sbsim demo`.
 */
#include <stddef.h>

#include "protocol.h"
#include "bgp_sim.h"
#include "bgp_ctl.h"
#include "bgp_bmp_station.h"

/* 20 peers (.1 to .20 of {net}) announce and withdraw prefixes that the
 * monitor peer, .21, learns from the speaker. */
static const struct protocol_demo bgp_demo = PROTOCOL_DEMO_DIALED("bgp",
    20, "--bgp", " --as 65000 --bgp-monitor {net}.21", "--prefixes 500 "
    "--as 65001 --peer-as 65000 --source {net}.1/24 --monitor "
    "tcp:127.0.0.1:{port} --withdraw",
    "BGP peers announce and withdraw 500 prefixes each");

SBSIM_PROTOCOL(bgp, "peers", .roles = PROTOCOL_ROLES(&bgp_ctl_role,
    &bmp_ctl_role),
    .demo = &bgp_demo);
