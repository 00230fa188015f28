/*
 * Topology ovsdb:1 of network-topology over RESTCONF (ovsdb_restconf.c),
 * built from the OVSDB manager's sessions (ovsdb_ctl.h).
 */
#ifndef SBSIM_OVSDB_RESTCONF_H
#define SBSIM_OVSDB_RESTCONF_H

#include <stdint.h>

struct ovr_stats {
	uint64_t	nodes_configured;	/* passive nodes PUT */
	uint64_t	bridge_writes;		/* bridges PUT or POSTed */
	uint64_t	tp_writes;		/* termination points PUT */
	uint64_t	deletes;		/* bridges and ports deleted */
	uint64_t	write_errors;		/* transacts the node refused */
	uint64_t	bad_requests;
};

/* Register the topology on the server's network-topology resource. */
void	ovsdb_restconf_register(void);
/* Forget the config datastore's bridges. */
void	ovsdb_restconf_stop(void);
const struct ovr_stats *ovsdb_restconf_stats(void);

#endif
