/*
 * Controller roles of one switch connected to several controllers
 * (OpenFlow 1.3.5 section 6.3.6, "Multiple controllers"; ROLE_REQUEST and
 * ROLE_REPLY A.3.9): each connection has its role, the switch keeps the
 * largest generation id a master or slave request carried, and there is
 * at most one master.  No I/O here: of_handlers.c answers and sends the
 * ROLE_STATUS this says is due; the unit test drives it alone.
 */
#ifndef SBSIM_OF_CLUSTER_H
#define SBSIM_OF_CLUSTER_H

#include <stdint.h>

#include "buf.h"
#include "of_types.h"

#define OF_MAX_CONTROLLERS	8	/* --controller EP,... at most */

/* ROLE_STATUS reasons (OpenFlow 1.4.0 section 7.4.4, enum
 * ofp_controller_role_reason). */
#define OF_CRR_MASTER_REQUEST	0
#define OF_CRR_CONFIG		1
#define OF_CRR_EXPERIMENTER	2

/* OpenFlow 1.3 carries ROLE_STATUS as ONF extension 191 (an
 * EXPERIMENTER message, ONF's id, type 1911), as Open vSwitch does. */
#define OF_ONF_EXPERIMENTER_ID	0x4f4e4600u
#define OF_ONF_ET_ROLE_STATUS	1911u
#define OF_ROLE_STATUS_LEN	32	/* header, ids, role, reason, gen */

struct of_roles {
	uint64_t	generation;	/* largest seen, when gen_valid */
	uint8_t		gen_valid;
	uint8_t		n;		/* connections (controllers) */
	uint8_t		role[OF_MAX_CONTROLLERS];	/* OF_ROLE_* */
};

/* n connections, each EQUAL, no generation seen yet. */
void	 of_roles_init(struct of_roles *, unsigned n);
/* A connection (re)starts as EQUAL (section 6.3.6); the generation id
 * the switch holds outlives connections. */
void	 of_roles_conn_up(struct of_roles *, unsigned conn);
/*
 * ROLE_REQUEST from connection conn: 0 with the role applied and, in
 * *demoted, a bit per other connection a new master turned from master
 * into slave (each is owed a ROLE_STATUS); -1 with *err (BAD_ROLE, or
 * STALE when a master or slave request's generation id is older than the
 * one held, compared as the spec says: (int64_t)(gen - held) < 0).
 */
int	 of_roles_request(struct of_roles *, unsigned conn, uint32_t role,
	    uint64_t generation, uint32_t *demoted, enum of_err *err);
/* The role name ("master"), or "?" for a value that is no role. */
const char *of_role_name(uint32_t role);

/* ROLE_STATUS for OpenFlow 1.3 (ONF extension 191), and its decoder for
 * the controller side: -1 when the body is not one. */
int	 of_role_status_encode(struct wbuf *, uint8_t version, uint32_t role,
	    uint8_t reason, uint64_t generation);
int	 of_role_status_decode(struct rbuf *body, uint32_t *role,
	    uint8_t *reason, uint64_t *generation);

#endif
