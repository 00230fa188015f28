/*
 * BGP as the engine sees it (protocol.h): `sbsim bgp`, the controller's
 * speaker, a scenario's group of peers and its part of `sbsim demo`.
 */
#include <stddef.h>

#include "protocol.h"
#include "bgp_sim.h"
#include "bgp_ctl.h"

static const struct ctl_role *const bgp_roles[] = { &bgp_ctl_role, NULL };

/* 20 peers (.1 to .20 of {net}) announce and withdraw prefixes that the
 * monitor peer, .21, learns from the speaker. */
static const struct protocol_demo bgp_demo = {
	.group = "bgp",
	.count = 20,
	.controller = "--bgp ptcp:{port}:127.0.0.1 --as 65000 "
	    "--bgp-monitor {net}.21",
	.connect = "tcp:127.0.0.1:{port}",
	.options = "--prefixes 500 --as 65001 --peer-as 65000 "
	    "--source {net}.1/24 --monitor tcp:127.0.0.1:{port} --withdraw",
	.says = "BGP peers announce and withdraw 500 prefixes each",
	.listens = 1,
};

const struct sbsim_protocol bgp_protocol = {
	.cmd = &bgp_cmd,
	.roles = bgp_roles,
	.count = "peers",
	.demo = &bgp_demo,
};
