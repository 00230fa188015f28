/*
 * The northbound driver of `sbsim ovsdb` (--northbound odl:http://...,
 * ovsdb_nb.c): the controller's OVSDB southbound driven through its
 * RESTCONF as OpenDaylight's CSIT drives it (csit/libraries/OVSDB.robot),
 * in the topology ovsdb:1 of network-topology (ovsdb.yang):
 *   passive devices: "Connect To Ovsdb Node": one config node per device,
 *     ovsdb://HOST<i> with ovsdb:connection-info {remote-ip, remote-port},
 *     so that the controller connects out (nb_connect), and the nodes
 *     counted in the operational topology (nb_learn); deleted at the end
 *     (nb_disconnect, disconnected)
 *   active devices: the operational topology polled until it shows the
 *     N nodes that connected (nb_learn), their node ids read from it
 * then --bridges B per node, "Add Bridge To Ovsdb Node": a PUT of the
 * bridge node <node-id>/bridge/<name> with bridge-name, managed-by,
 * protocol-entry and (--bridge-controller) controller-entry (nb_program),
 * counted in each node's ovsdb:managed-node-entry (confirm), deleted
 * again (nb_delete, confirm_delete).  The devices time the same bridges'
 * arrival (program, delete).
 */
#ifndef SBSIM_OVSDB_NB_H
#define SBSIM_OVSDB_NB_H

#include <stdint.h>

#include "northbound.h"

struct metrics;
struct ovsdb_nb;
struct ovsdb_sim;

struct ovsdb_nb_cfg {
	struct nb_opts	 opts;		/* the shared --northbound rows' */
	unsigned	 given;		/* NB_GIVEN_* of both groups */
	const char	*bridge_controller;	/* --bridge-controller */
	const char	*device_host;	/* --device-address */
};

/* The names the bridges get: sbnb0, sbnb1, ... on each node. */
#define OVSDB_NB_BRIDGE		"sbnb"

/* Every phase a northbound run may have, for the name table. */
#define OVSDB_NB_PHASE_NAMES \
	"nb_connect", "nb_learn", NB_PHASE_PROGRAM, NB_PHASE_CONFIRM, \
	NB_PHASE_DELETE, NB_PHASE_CONFIRM_DELETE, "nb_disconnect", \
	"disconnected"

extern const struct opt ovsdb_nb_rows[];

void	 ovsdb_nb_defaults(struct ovsdb_nb_cfg *);
/* The options together; -1 with err. */
int	 ovsdb_nb_check(const struct ovsdb_sim *, struct ovsdb_nb_cfg *,
	    char *err, size_t errlen);
struct ovsdb_nb *ovsdb_nb_new(struct ovsdb_sim *, struct ovsdb_nb_cfg *,
	    struct metrics *);
/* Every tick; 1 once the sequence is over. */
int	 ovsdb_nb_tick(struct ovsdb_nb *, uint64_t now);
void	 ovsdb_nb_free(struct ovsdb_nb *);

#endif
