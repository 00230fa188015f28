/*
 * A protocol as the engine sees it: one descriptor that each protocol
 * folder defines in a file of its own (sims/X/X_protocol.c), and one list
 * of them, sbsim_protocols[], that the build generates from the folders
 * sims/protocols.am includes (docs/design.md, "Adding a protocol").  The
 * command table, the controller's roles, the scenario loader, the demo
 * and the datapath seam are all fed from the list; nothing under src/
 * names a protocol.
 */
#ifndef SBSIM_PROTOCOL_H
#define SBSIM_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "cmd.h"

struct ctl_role;
struct datapath_provider;

/*
 * What `sbsim demo` runs of a protocol: a group of its devices against
 * its roles in the demo's controller.  The templates are words split at
 * spaces, in which {port} is a free loopback port of the protocol's own,
 * {rc} the controller's RESTCONF port and {net} the first three octets
 * of loopback addresses of its own (127.X.Y).
 */
struct protocol_demo {
	const char	*group;		/* the group's name: phases' prefix */
	uint32_t	 count;		/* its devices */
	/* The controller's options that start its roles: "--foo ...". */
	const char	*controller;
	/* The group's --controller, NULL: none (its devices listen). */
	const char	*connect;
	/* The group's other options: "--name value" or "--flag". */
	const char	*options;
	/* What they do, after their count, for --help: "switches get ...". */
	const char	*says;
	/* Non-zero: the controller listens on {port}; the demo waits. */
	int		 listens;
};

/*
 * The demo of a protocol whose devices dial the controller: the role its
 * option opt starts ("--foo") listens on {port} of 127.0.0.1, the group
 * connects there, and the demo waits for the port.  more: the role's
 * other options after a space, or "".
 */
#define PROTOCOL_DEMO_DIALED(grp, n, opt, more, opts, what)		\
	{ .group = grp, .count = n,					\
	  .controller = opt " ptcp:{port}:127.0.0.1" more,		\
	  .connect = "tcp:127.0.0.1:{port}", .options = opts,		\
	  .says = what, .listens = 1 }

/* A protocol's roles for sbsim_protocol.roles, in start order: the
 * NULL-terminated array made from the list. */
#define PROTOCOL_ROLES(...)						\
	((const struct ctl_role *const []){ __VA_ARGS__, NULL })

struct sbsim_protocol {
	/* `sbsim NAME`: its name is the protocol's, in a scenario's group
	 * too. */
	const struct sbsim_cmd		*cmd;
	/* Its roles in the embedded controller, in start order,
	 * NULL-terminated; NULL: none. */
	const struct ctl_role *const	*roles;
	/* The command's option that counts its devices ("switches"): a
	 * scenario group's count. */
	const char			*count;
	/* Non-NULL: at most one group of it in a scenario, and why. */
	const char			*one_group;
	/* Its part of `sbsim demo`; NULL: none. */
	const struct protocol_demo	*demo;
	/* The devices it makes of another protocol's (datapath.h); NULL:
	 * none. */
	const struct datapath_provider	*datapath;
};

/* The descriptor of protocol NAME: NAME_protocol, the list's entry
 * (sims/protocols.c names it so), of the command NAME_cmd and the count
 * option cnt; the other fields (.roles, .demo, ...) follow. */
#define SBSIM_PROTOCOL(name, cnt, ...)					\
	const struct sbsim_protocol name##_protocol = {			\
		.cmd = &name##_cmd, .count = cnt, __VA_ARGS__		\
	}

/* The list, in the order of sims/protocols.am, NULL-terminated
 * (generated: sims/protocols.c). */
extern const struct sbsim_protocol *const sbsim_protocols[];

/* The protocol of that name, or NULL. */
const struct sbsim_protocol *sbsim_protocol_find(const char *name);
/* Their names joined by sep ("a|b|c"), into buf (truncated to
 * len); buf. */
const char *sbsim_protocol_names(const char *sep, char *buf, size_t len);

#endif
