/*
 * The role state machine of a switch with several controllers (see
 * of_cluster.h).  OpenFlow 1.3.5 section 6.3.6: a connection starts as
 * EQUAL; MASTER and SLAVE requests carry a generation id, and one older
 * than the largest seen is refused as stale; a new master turns the old
 * one into a slave, which is told with a ROLE_STATUS (OpenFlow 1.4.0
 * section 7.4.4; ONF extension 191 in 1.3).
 */
#include <string.h>

#include "of_cluster.h"
#include "of_codec.h"
#include "of_codec14.h"
#include "ofp.h"

void
of_roles_init(struct of_roles *r, unsigned n)
{
	unsigned	i;

	memset(r, 0, sizeof(*r));
	r->n = (uint8_t)(n > OF_MAX_CONTROLLERS ? OF_MAX_CONTROLLERS : n);
	for (i = 0; i < OF_MAX_CONTROLLERS; i++)
		r->role[i] = OF_ROLE_EQUAL;
}

void
of_roles_conn_up(struct of_roles *r, unsigned conn)
{
	if (conn < r->n)
		r->role[conn] = OF_ROLE_EQUAL;
}

/* The generation check of section 6.3.6: a wrap-around compare, so
 * that a generation id past 2^63 still orders after the one before. */
static int
of_roles_stale(const struct of_roles *r, uint64_t generation)
{
	return r->gen_valid && (int64_t)(generation - r->generation) < 0;
}

int
of_roles_request(struct of_roles *r, unsigned conn, uint32_t role,
    uint64_t generation, uint32_t *demoted, enum of_err *err)
{
	unsigned	i;

	*demoted = 0;
	if (conn >= r->n || role > OF_ROLE_SLAVE) {
		*err = OF_ERR_ROLE_BAD_ROLE;
		return -1;
	}
	if (role == OF_ROLE_MASTER || role == OF_ROLE_SLAVE) {
		if (of_roles_stale(r, generation)) {
			*err = OF_ERR_ROLE_STALE;
			return -1;
		}
		r->generation = generation;
		r->gen_valid = 1;
	}
	if (role == OF_ROLE_NOCHANGE)
		return 0;
	/* At most one master: "the switch changes all other controllers
	 * with the role OFPCR_ROLE_MASTER to OFPCR_ROLE_SLAVE". */
	if (role == OF_ROLE_MASTER)
		for (i = 0; i < r->n; i++)
			if (i != conn && r->role[i] == OF_ROLE_MASTER) {
				r->role[i] = OF_ROLE_SLAVE;
				*demoted |= 1u << i;
			}
	r->role[conn] = (uint8_t)role;
	return 0;
}

const char *
of_role_name(uint32_t role)
{
	static const char *const names[] = {
		[OF_ROLE_NOCHANGE] = "nochange", [OF_ROLE_EQUAL] = "equal",
		[OF_ROLE_MASTER] = "master", [OF_ROLE_SLAVE] = "slave",
	};

	return role <= OF_ROLE_SLAVE ? names[role] : "?";
}

int
of_role_status_encode(struct wbuf *w, uint8_t version, uint32_t role,
    uint8_t reason, uint64_t generation)
{
	size_t	start;

	/* 1.4 made it a message type of its own (1.4.1 A.4.5). */
	if (version >= OF_VERSION_14)
		return ofp14_role_status_encode(w, version, role, reason,
		    generation);
	/* Unsolicited: xid 0, as for every asynchronous message. */
	start = of_msg_begin(w, version, OF_EXPERIMENTER, 0);
	wbuf_put_u32(w, OF_ONF_EXPERIMENTER_ID);
	wbuf_put_u32(w, OF_ONF_ET_ROLE_STATUS);
	ofp_role_put(w, role, reason, generation);
	return of_msg_end(w, start);
}

int
of_role_status_decode(struct rbuf *body, uint32_t *role, uint8_t *reason,
    uint64_t *generation)
{
	uint32_t	exp = 0, type = 0;

	if (rbuf_left(body) < OF_ROLE_STATUS_LEN - OF_HEADER_LEN)
		return -1;
	rbuf_get_u32(body, &exp);
	rbuf_get_u32(body, &type);
	if (exp != OF_ONF_EXPERIMENTER_ID || type != OF_ONF_ET_ROLE_STATUS)
		return -1;
	return ofp_role_get(body, role, reason, generation);
}
