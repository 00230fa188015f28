/*
 * learn, program and delete, timed at the devices (ovsdb_phases.h).  The
 * servers tell of a client's monitor and of a client's transaction about
 * to commit (struct ovsdb_watch); the message's arrival (struct
 * ovsdb_conn's rx_ns: the kernel's receive time while a phase waits for
 * its first item, docs/report.md "Phase windows") opens a phase's window
 * and times its items.
 *
 * A manager learns a device when it monitors the Open_vSwitch table: what
 * OpenDaylight's southbound does first on a new connection (RFC 7047
 * section 4.1.5, all tables), and what ovs-vsctl's IDL does.  A bridge
 * is a row of the Bridge table (vswitchd(5)); one that a client's
 * transaction inserts is the manager's, one the seed made is the
 * device's own: the seed's rows are noted by UUID at the start, so that
 * removing one is not counted as deleting the manager's.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "ovsdb_phases.h"
#include "ovsdb_sim.h"
#include "run.h"

struct ovsdb_phases {
	struct ovsdb_sim	*sim;
	struct phase		*learn, *program, *delete;
	int			 ovs_ti, br_ti;	/* -1: no such table */
	uint32_t		 nseed;		/* seeded bridges a device */
	uint8_t			*seed;		/* [dev][nseed] UUIDs */
	uint8_t			*learned;	/* [dev] */
	uint64_t		*c_made, *c_gone, *c_own_gone;
};

static void	ovsdb_ph_monitor(void *, struct ovsdb_conn *, uint32_t);
static void	ovsdb_ph_commit(void *, struct ovsdb_conn *,
		    const struct ovsdb_db *, const struct ovsdb_db *);

static const struct ovsdb_watch ovsdb_ph_watch = {
	ovsdb_ph_monitor,
	ovsdb_ph_commit,
};

struct ovsdb_phases *
ovsdb_phases_new(struct ovsdb_sim *sim, struct metrics *m, uint64_t bridges,
    int deletes)
{
	struct ovsdb_phases	*ph = xcalloc(1, sizeof(*ph));
	uint32_t		 n = sim->cfg.devices;

	ph->sim = sim;
	ph->ovs_ti = ovsdb_table_find(sim->schema, "Open_vSwitch");
	ph->br_ti = ovsdb_table_find(sim->schema, "Bridge");
	ph->nseed = sim->cfg.bridges;
	ph->seed = xcalloc((size_t)n * (ph->nseed ? ph->nseed : 1),
	    OVSDB_UUID_LEN);
	ph->learned = xcalloc(n, 1);
	ph->learn = metrics_phase(m, "learn", "ovsdb");
	ph->learn->target = n;
	if (bridges > 0) {
		ph->program = metrics_phase(m, "program", "ovsdb");
		phase_expect(ph->program, bridges);
		if (deletes) {
			ph->delete = metrics_phase(m, "delete", "ovsdb");
			phase_expect(ph->delete, bridges);
		}
	}
	ph->c_made = metrics_counter(m, "bridges_created");
	ph->c_gone = metrics_counter(m, "bridges_deleted");
	ph->c_own_gone = metrics_counter(m, "seed_bridges_deleted");
	/* The devices listen, or connect, from now on: the manager's turn. */
	phase_start(ph->learn, clock_ns());
	return ph;
}

void
ovsdb_phases_free(struct ovsdb_phases *ph)
{
	if (ph == NULL)
		return;
	free(ph->seed);
	free(ph->learned);
	free(ph);
}

void
ovsdb_phases_attach(struct ovsdb_phases *ph, struct ovsdb_dev *d)
{
	const struct ovsdb_tbl	*t;
	uint32_t		 k;

	if (ph->br_ti >= 0) {
		/* Rows are kept sorted by UUID: so are the notes. */
		t = &d->srv.db->t[ph->br_ti];
		for (k = 0; k < t->n && k < ph->nseed; k++)
			memcpy(ph->seed + ((size_t)d->idx * ph->nseed + k) *
			    OVSDB_UUID_LEN, t->rows[k]->uuid, OVSDB_UUID_LEN);
	}
	d->srv.watch = &ovsdb_ph_watch;
	d->srv.watch_arg = d;
}

/* A phase still waiting for its first item. */
static int
ovsdb_ph_waits(const struct phase *p)
{
	return p != NULL && !phase_over(p) && p->items == 0;
}

int
ovsdb_phases_peek(const struct ovsdb_phases *ph, const struct ovsdb_dev *d)
{
	return (!ph->learned[d->idx] && !phase_over(ph->learn)) ||
	    ovsdb_ph_waits(ph->program) || ovsdb_ph_waits(ph->delete);
}

/* When the message in hand arrived; now when that is not known. */
static uint64_t
ovsdb_ph_arrival(const struct ovsdb_conn *conn, uint64_t now)
{
	return conn->rx_ns != 0 && conn->rx_ns <= now ? conn->rx_ns : now;
}

static void
ovsdb_ph_monitor(void *arg, struct ovsdb_conn *conn, uint32_t ti)
{
	struct ovsdb_dev	*d = arg;
	struct ovsdb_phases	*ph = d->sim->ph;
	uint64_t		 now = clock_ns(), at;

	if ((int)ti != ph->ovs_ti || ph->learned[d->idx])
		return;
	ph->learned[d->idx] = 1;
	at = ovsdb_ph_arrival(conn, now);
	if (ph->learn->state != PHASE_RUNNING)
		return;
	/* From the device's connection to the monitor's arrival. */
	if (d->pd.attempt_ns != 0 && at > d->pd.attempt_ns)
		phase_latency(ph->learn, (at - d->pd.attempt_ns) / 1000);
	phase_items(ph->learn, at, 1);
}

/* Was this bridge one of the seed's? */
static int
ovsdb_ph_seeded(const struct ovsdb_phases *ph, const struct ovsdb_dev *d,
    const uint8_t *uuid)
{
	const uint8_t	*s = ph->seed + (size_t)d->idx * ph->nseed *
			    OVSDB_UUID_LEN;
	uint32_t	 lo = 0, hi = ph->nseed, mid;
	int		 c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = memcmp(uuid, s + (size_t)mid * OVSDB_UUID_LEN,
		    OVSDB_UUID_LEN)) == 0)
			return 1;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

/* n items of a device-side phase, the transaction having arrived at
 * at: the window opens at the first one's arrival; the latency is the
 * device's, from arrival to commit. */
static void
ovsdb_ph_items(struct phase *p, uint64_t at, uint64_t now, uint64_t n)
{
	if (p == NULL || n == 0)
		return;
	if (p->items == 0)
		phase_open(p, at);
	if (p->state != PHASE_RUNNING)
		return;
	phase_latency(p, (now - at) / 1000);
	phase_items(p, now, n);
}

/* The Bridge rows a transaction inserts and removes, found by walking
 * both versions of the table in UUID order. */
static void
ovsdb_ph_commit(void *arg, struct ovsdb_conn *conn, const struct ovsdb_db *old,
    const struct ovsdb_db *new)
{
	struct ovsdb_dev	*d = arg;
	struct ovsdb_phases	*ph = d->sim->ph;
	const struct ovsdb_tbl	*a, *b;
	uint64_t		 now = clock_ns(), made = 0, gone = 0, own = 0;
	uint32_t		 i = 0, j = 0;
	int			 c;

	if (ph->br_ti < 0)
		return;
	a = &old->t[ph->br_ti];
	b = &new->t[ph->br_ti];
	while (i < a->n || j < b->n) {
		c = i == a->n ? 1 : j == b->n ? -1 : memcmp(a->rows[i]->uuid,
		    b->rows[j]->uuid, OVSDB_UUID_LEN);
		if (c == 0) {
			i++;
			j++;
		} else if (c > 0) {
			made++;
			j++;
		} else if (ovsdb_ph_seeded(ph, d, a->rows[i++]->uuid))
			own++;
		else
			gone++;
	}
	*ph->c_made += made;
	*ph->c_gone += gone;
	*ph->c_own_gone += own;
	ovsdb_ph_items(ph->program, ovsdb_ph_arrival(conn, now), now, made);
	ovsdb_ph_items(ph->delete, ovsdb_ph_arrival(conn, now), now, gone);
}

int
ovsdb_phases_tick(struct ovsdb_phases *ph, uint64_t now)
{
	double	t = ph->sim->phase_timeout;

	/* A phase that never begins times out --timeout after the one
	 * before it is over (docs/design.md, "Phases and counters"). */
	if (ph->program != NULL && phase_over(ph->sim->connect))
		phase_start(ph->program, now);
	if (ph->delete != NULL && phase_over(ph->program))
		phase_start(ph->delete, now);
	(void)run_phase_timeout(ph->learn, now, t);
	(void)run_phase_timeout(ph->program, now, t);
	(void)run_phase_timeout(ph->delete, now, t);
	return phase_over(ph->learn) && phase_over(ph->program) &&
	    phase_over(ph->delete);
}
