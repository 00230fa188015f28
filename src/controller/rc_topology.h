/*
 * network-topology:network-topology (RFC 8345's ancestor that OpenDaylight
 * serves) is one RESTCONF resource shared by several protocols, each
 * owning one topology (its protocol's, by topology-id),
 * example-ipv4-topology.  Each registers its topology id; requests below
 * topology=ID go to it, and a read of the whole network-topology asks
 * every one for its list entry.
 */
#ifndef SBSIM_RC_TOPOLOGY_H
#define SBSIM_RC_TOPOLOGY_H

#include "restconf.h"

#define RC_MAX_TOPOLOGIES	8

extern const struct doc_module rc_nt_mod;	/* network-topology */

struct rc_topology {
	const char		*id;		/* its topology-id */
	/* The lists its augmentations add below a topology and their key
	 * counts (for the draft URL style), ending with a NULL name; NULL
	 * for none.  network-topology's own (topology, node,
	 * termination-point, link) are implied. */
	const struct rc_list	*lists;
	/* A request whose path has e[1] = topology=id. */
	void			(*fn)(struct rc_req *, void *arg);
	/* Write this topology's entry of the topology list (doc_entry ..
	 * doc_end) for a read of everything; config: the config
	 * datastore.  NULL: it has no entry there. */
	void			(*entry)(struct doc_writer *, int config,
				    void *arg);
	void			*arg;
	/* Set: only GET and HEAD reach fn, other methods are refused as
	 * rc_read_only() says. */
	int			 read_only;
};

/* Called by restconf_start(): forget the topologies. */
void	rc_topology_reset(void);
/* Register one (the resource itself on the first). */
void	rc_topology_register(const struct rc_topology *);
/* The reply to a read of topology=id itself: the topology list with the
 * one entry that entry(arg) writes (a registered topology's entry). */
void	rc_topology_reply(struct rc_req *,
	    void (*entry)(struct doc_writer *, int config, void *arg),
	    void *arg);

#endif
