/*
 * Unit tests of a switch's controller roles (of_cluster.c): the state
 * machine of OpenFlow 1.3.5 section 6.3.6 over three connections
 * (generation ids, stale claims refused, at most one master, EQUAL and
 * NOCHANGE unchecked, the wrap-around compare, a reconnect keeping the
 * generation) and the ROLE_STATUS message's bytes (ONF extension 191, as
 * Open vSwitch sends it to a 1.3 controller).
 */
#include <string.h>

#include "of_cluster.h"
#include "of_codec.h"

#include "check.h"

static int
req(struct of_roles *r, unsigned conn, uint32_t role, uint64_t gen,
    uint32_t *demoted, enum of_err *err)
{
	*err = OF_ERR_NONE;
	return of_roles_request(r, conn, role, gen, demoted, err);
}

static void
test_initial(void)
{
	struct of_roles	r;
	unsigned	i;

	of_roles_init(&r, 3);
	CHECK(r.n == 3 && r.gen_valid == 0, "three connections, no gen");
	for (i = 0; i < 3; i++)
		CHECK(r.role[i] == OF_ROLE_EQUAL, "connection %u starts EQUAL",
		    i);
	of_roles_init(&r, 99);
	CHECK(r.n == OF_MAX_CONTROLLERS, "capped at %d",
	    OF_MAX_CONTROLLERS);
}

static void
test_generation(void)
{
	struct of_roles	r;
	uint32_t	d;
	enum of_err	e;

	of_roles_init(&r, 3);
	CHECK(req(&r, 0, OF_ROLE_MASTER, 5, &d, &e) == 0 && d == 0,
	    "first master claim, gen 5");
	CHECK(r.gen_valid && r.generation == 5, "gen 5 held");
	CHECK(req(&r, 1, OF_ROLE_SLAVE, 4, &d, &e) == -1 &&
	    e == OF_ERR_ROLE_STALE, "slave with gen 4 < 5: STALE");
	CHECK(r.role[1] == OF_ROLE_EQUAL, "a stale request changes nothing");
	CHECK(req(&r, 1, OF_ROLE_SLAVE, 5, &d, &e) == 0 &&
	    r.role[1] == OF_ROLE_SLAVE, "slave with the same gen: taken");
	CHECK(req(&r, 2, OF_ROLE_MASTER, 4, &d, &e) == -1 &&
	    e == OF_ERR_ROLE_STALE && r.role[0] == OF_ROLE_MASTER,
	    "stale master claim: old master stays");
	CHECK(req(&r, 2, OF_ROLE_EQUAL, 0, &d, &e) == 0 &&
	    r.role[2] == OF_ROLE_EQUAL && r.generation == 5,
	    "EQUAL carries no generation: not checked, not kept");
	CHECK(req(&r, 2, OF_ROLE_NOCHANGE, 1, &d, &e) == 0 &&
	    r.role[2] == OF_ROLE_EQUAL && r.generation == 5,
	    "NOCHANGE: a query, nothing changes");
	CHECK(req(&r, 2, 4, 9, &d, &e) == -1 && e == OF_ERR_ROLE_BAD_ROLE,
	    "role 4: BAD_ROLE");
	CHECK(req(&r, 3, OF_ROLE_MASTER, 9, &d, &e) == -1 &&
	    e == OF_ERR_ROLE_BAD_ROLE, "no connection 3: refused");
}

static void
test_one_master(void)
{
	struct of_roles	r;
	uint32_t	d;
	enum of_err	e;

	of_roles_init(&r, 3);
	req(&r, 0, OF_ROLE_MASTER, 1, &d, &e);
	req(&r, 1, OF_ROLE_SLAVE, 1, &d, &e);
	CHECK(req(&r, 2, OF_ROLE_MASTER, 2, &d, &e) == 0 && d == 1u << 0,
	    "new master demotes connection 0 (one ROLE_STATUS due)");
	CHECK(r.role[0] == OF_ROLE_SLAVE && r.role[1] == OF_ROLE_SLAVE &&
	    r.role[2] == OF_ROLE_MASTER, "one master, two slaves");
	CHECK(req(&r, 2, OF_ROLE_MASTER, 2, &d, &e) == 0 && d == 0,
	    "the master asking again demotes nobody");
	CHECK(req(&r, 0, OF_ROLE_EQUAL, 0, &d, &e) == 0 && d == 0 &&
	    r.role[2] == OF_ROLE_MASTER, "EQUAL beside a master: allowed");
	CHECK(req(&r, 1, OF_ROLE_MASTER, 3, &d, &e) == 0 && d == 1u << 2,
	    "master moves to connection 1, 2 demoted");
}

static void
test_wrap_and_reconnect(void)
{
	struct of_roles	r;
	uint32_t	d;
	enum of_err	e;

	of_roles_init(&r, 2);
	req(&r, 0, OF_ROLE_MASTER, UINT64_MAX - 10, &d, &e);
	CHECK(req(&r, 1, OF_ROLE_MASTER, 5, &d, &e) == 0 && d == 1,
	    "gen 5 after 2^64-11: later by the wrap-around compare");
	CHECK(req(&r, 0, OF_ROLE_MASTER, UINT64_MAX - 10, &d, &e) == -1 &&
	    e == OF_ERR_ROLE_STALE, "and 2^64-11 is now stale");
	of_roles_conn_up(&r, 1);
	CHECK(r.role[1] == OF_ROLE_EQUAL && r.gen_valid &&
	    r.generation == 5, "reconnect: EQUAL, the generation stays");
	CHECK(req(&r, 1, OF_ROLE_SLAVE, 4, &d, &e) == -1 &&
	    e == OF_ERR_ROLE_STALE, "reconnected with an old gen: STALE");
}

static void
test_role_status_bytes(void)
{
	static const uint8_t want[OF_ROLE_STATUS_LEN] = {
		0x04, 0x04, 0x00, 0x20, 0x00, 0x00, 0x00, 0x00,
		0x4f, 0x4e, 0x46, 0x00, 0x00, 0x00, 0x07, 0x77,
		0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02,
	};
	uint8_t		mem[64];
	struct wbuf	w;
	struct rbuf	b;
	uint64_t	gen = 0;
	uint32_t	role = 0;
	uint8_t		reason = 9, bad[24];

	wbuf_init(&w, mem, sizeof(mem));
	CHECK(of_role_status_encode(&w, OF_VERSION_13, OF_ROLE_SLAVE,
	    OF_CRR_MASTER_REQUEST, 0x102) == 0 && !w.err, "encodes");
	CHECK_BYTES(mem, w.len, want, sizeof(want), "ROLE_STATUS bytes");
	rbuf_init(&b, mem + OF_HEADER_LEN, w.len - OF_HEADER_LEN);
	CHECK(of_role_status_decode(&b, &role, &reason, &gen) == 0 &&
	    role == OF_ROLE_SLAVE && reason == OF_CRR_MASTER_REQUEST &&
	    gen == 0x102, "decodes back");
	memcpy(bad, mem + OF_HEADER_LEN, sizeof(bad));
	bad[3] = 0x01;		/* another experimenter */
	rbuf_init(&b, bad, sizeof(bad));
	CHECK(of_role_status_decode(&b, &role, &reason, &gen) == -1,
	    "another experimenter's message is not one");
	rbuf_init(&b, mem + OF_HEADER_LEN, 10);
	CHECK(of_role_status_decode(&b, &role, &reason, &gen) == -1,
	    "short body refused");
}

static const struct check_case cases[] = {
	CASE(test_initial),
	CASE(test_generation),
	CASE(test_one_master),
	CASE(test_wrap_and_reconnect),
	CASE(test_role_status_bytes),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
