/*
 * The dummy protocol as the engine sees it (protocol.h): its command, its
 * role, a scenario's group of devices and its part of `sbsim demo`.
 */
#include <stddef.h>

#include "protocol.h"
#include "dummy.h"

static const struct ctl_role *const dummy_roles[] = {
	&dummy_ctl_role, NULL
};

static const struct protocol_demo dummy_demo = {
	.group = "dummy",
	.count = 5,
	.controller = "--dummy ptcp:{port}:127.0.0.1",
	.connect = "tcp:127.0.0.1:{port}",
	.options = "--hellos 3 --source {net}.1/24",
	.says = "dummy devices say 3 hellos each",
	.listens = 1,
};

const struct sbsim_protocol dummy_protocol = {
	.cmd = &dummy_cmd,
	.roles = dummy_roles,
	.count = "devices",
	.demo = &dummy_demo,
};
