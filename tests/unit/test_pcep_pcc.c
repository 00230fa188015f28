/*
 * Unit tests of a simulated PCC's LSP database (pcep_lspdb.c) with no
 * socket: PCInitiate messages built with the codec go straight to
 * pcc_handle_initiate(), and what it answers is read from the counters
 * (RFC 8281 5.3, 5.4).  The names of PCE-initiated LSPs through growth,
 * a name in use, one of our own names, removal, a name used again, and a
 * new session that forgets them.
 */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "log.h"
#include "pcep_codec.h"
#include "pcep_sim.h"
#include "pcep_wire.h"

#include "check.h"

#define OWN	2	/* our own LSPs */
#define MANY	300	/* initiated ones */

static struct pcep_sim	sim;
static uint64_t		counts[sizeof(struct pcc_counters) /
			    sizeof(uint64_t *)];
static uint8_t		msg_mem[PCEP_MAX_MSG];

/* A PCC that is UP, counting into counts[] (every member of struct
 * pcc_counters is a counter's pointer). */
static void
pcc_up(struct pcc *p)
{
	uint64_t	**c = (uint64_t **)&sim.c;
	size_t		  i;

	memset(&sim, 0, sizeof(sim));
	memset(counts, 0, sizeof(counts));
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		c[i] = &counts[i];
	sim.cfg.lsps = OWN;
	sim.cfg.hops = 2;
	memset(p, 0, sizeof(*p));
	p->sim = &sim;
	p->addr = 0x7f010001;		/* 127.1.0.1 */
	p->state = PCCS_UP;
	pcc_lsps_init(p);
}

/* One PCInitiate: create name, or remove (R) PLSP-ID id. */
static void
initiate(struct pcc *p, const char *name, uint32_t id)
{
	struct pcep_lsp_req	q;
	struct wbuf		w;
	struct rbuf		body;

	/* RFC 8281 5.3: a creation carries an ERO, empty will do. */
	memset(&q, 0, sizeof(q));
	q.has_srp = 1;
	q.srp.flags = name == NULL ? PCEP_SRP_FLAG_R : 0;
	q.lsp.plsp_id = id;
	q.has_ero = name != NULL;
	if (name != NULL)
		q.lsp.name_len = (uint16_t)snprintf(q.lsp.name,
		    sizeof(q.lsp.name), "%s", name);
	wbuf_init(&w, msg_mem, sizeof(msg_mem));
	if (pcep_reqs_encode(&w, PCEP_MSG_PCINITIATE, &q, 1) == -1 || w.err)
		fatalx("a test PCInitiate did not fit");
	rbuf_init(&body, w.data + PCEP_HDR_LEN, w.len - PCEP_HDR_LEN);
	pcc_handle_initiate(p, &body);
}

static uint32_t
initiate_many(struct pcc *p, uint32_t from, uint32_t to)
{
	char		name[32];
	uint32_t	i;

	for (i = from; i < to; i++) {
		snprintf(name, sizeof(name), "nb-%u", i);
		initiate(p, name, 0);
	}
	return *sim.c.pcerr_sent;
}

static void
test_initiated_names(void)
{
	struct pcc	p;
	uint32_t	i;

	pcc_up(&p);
	CHECK(initiate_many(&p, 0, MANY) == 0 && p.n_lsps == OWN + MANY &&
	    strcmp(p.lsp[OWN + 7].name, "nb-7") == 0,
	    "%u LSPs initiated, each in its slot", MANY);
	initiate(&p, "nb-7", 0);
	CHECK(*sim.c.pcerr_sent == 1 && p.n_lsps == OWN + MANY,
	    "a name in use: PCErr, nothing made");
	initiate(&p, "pcc_127.1.0.1_tunnel_2", 0);
	CHECK(*sim.c.pcerr_sent == 2, "one of our own names: PCErr");
	for (i = 0; i < MANY; i += 2)
		initiate(&p, NULL, OWN + i + 1);
	CHECK(*sim.c.pcerr_sent == 2 && *sim.c.removes_received == MANY / 2,
	    "every other one removed");
	initiate(&p, "nb-1", 0);
	CHECK(*sim.c.pcerr_sent == 3, "a kept name is still in use");
	initiate(&p, "nb-0", 0);
	CHECK(*sim.c.pcerr_sent == 3 && p.lsp[OWN].name != NULL &&
	    strcmp(p.lsp[OWN].name, "nb-0") == 0,
	    "a removed name is free again (in the first free slot)");
	pcc_lsps_reset(&p);
	CHECK(initiate_many(&p, 0, MANY) == 3 && p.n_lsps == OWN + MANY,
	    "a new session forgot them all: each name free again");
	pcc_lsps_free(&p);
}

static const struct check_case cases[] = {
	CASE(test_initiated_names),
};

int
main(int argc, char **argv)
{
	log_init("test_pcep_pcc", LOG_QUIET);
	return check_run(cases, argc, argv);
}
