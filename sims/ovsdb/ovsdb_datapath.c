/*
 * What ovs-vswitchd does with a bridge that has a Controller row
 * (ovs-vswitchd.conf.db(5), "Bridge TABLE" controller, "Controller
 * TABLE"): it makes an OpenFlow switch of the bridge that connects to
 * the controller's target, with the datapath ID of other_config:
 * datapath-id when that is valid, else its own (the datapath_id column),
 * and says how the connection goes in the Controller row (is_connected,
 * status).  The switch is a simulated OpenFlow switch of this process,
 * asked for through the datapath seam (src/core/datapath.h); a change of
 * datapath ID or target ends it and makes a new one, as vswitchd
 * reconnects; a bridge deleted, or left without a controller, ends it.
 *
 * One switch per bridge, connecting to each of its controllers (in UUID
 * order) whose target is tcp:IP:PORT, up to DATAPATH_MAX_TARGETS, as
 * vswitchd connects to every controller of a bridge ("the switch
 * connects to all of them"): each connection has its role, and each
 * Controller row gets its own is_connected, role and status.  Rows with
 * another target beside a tcp: one, and those past the maximum, are
 * counted (datapath_targets_unused) and left alone; a bridge with none
 * that is tcp: gets no switch (datapath_targets_refused).
 *
 * The bridge_openflow phase: from the kernel's receive time of the first
 * transact that gave a bridge a controller to each such bridge's first
 * handshake (FEATURES_REPLY sent after the controller's
 * FEATURES_REQUEST); its target grows with the bridges asked for, or
 * is --expect-bridges, which the run then waits for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datapath.h"
#include "log.h"
#include "ovsdb_sim.h"
#include "run.h"

/* The Controller rows a bridge's switch connects to, in UUID order. */
struct ovsdb_bdp_ctls {
	const struct ovsdb_row	*row[DATAPATH_MAX_TARGETS];
	const char		*target[DATAPATH_MAX_TARGETS];
	uint32_t		 n;		/* rows used */
	uint32_t		 unused;	/* rows left alone */
	const struct ovsdb_row	*refused;	/* the first of them */
	char			 why[256];	/* and why it is */
};

struct ovsdb_bdp {
	LIST_ENTRY(ovsdb_bdp)	 entry;
	struct ovsdb_dev	*dev;
	struct datapath		*dp;		/* NULL: refused */
	uint8_t			 br[OVSDB_UUID_LEN];
	/* The rows used: ctl[k] is the datapath's target k. */
	uint8_t			 ctl[DATAPATH_MAX_TARGETS][OVSDB_UUID_LEN];
	uint32_t		 n_ctl;
	uint64_t		 dpid;
	uint64_t		 asked_ns;	/* the transact's arrival */
	uint32_t		 ports;		/* the switch's 1..ports */
	uint32_t		 versions;	/* Bridge protocols, 0: any */
	char			*targets;	/* every row's, one a line */
	char			 name[32];
	uint8_t			 seen;		/* in this sync */
	uint8_t			 timed;		/* counted in the phase */
};

#define OVSDB_DPC(field, name) \
	COUNTER_ROW(struct ovsdb_dp_counters, field, name)
static const struct counter_row ovsdb_dp_rows[] = {
	OVSDB_DPC(opened, "datapaths_opened"),
	OVSDB_DPC(closed, "datapaths_closed"),
	OVSDB_DPC(handshakes, "datapath_handshakes"),
	OVSDB_DPC(lost, "datapath_connections_lost"),
	OVSDB_DPC(refused, "datapath_targets_refused"),
	OVSDB_DPC(targets_unused, "datapath_targets_unused"),
	OVSDB_DPC(bad_dpids, "datapath_bad_dpids"),
	OVSDB_DPC(writeback_errors, "datapath_writeback_errors"),
};
#undef OVSDB_DPC

void
ovsdb_datapath_start(struct ovsdb_sim *sim)
{
	sim->bridge_of = NULL;
	if (sim->cfg.no_datapath)
		return;
	METRICS_COUNTERS(sim->m, ovsdb_dp_rows, &sim->dpc);
	sim->bridge_of = metrics_phase(sim->m, "bridge_openflow", "ovsdb");
	sim->bridge_of->witness = WITNESS_DEVICE;
	sim->bridge_of->target = sim->cfg.expect_bridges;
	datapath_start(sim->m);
}

int
ovsdb_datapath_peeking(const struct ovsdb_sim *sim)
{
	return sim->bridge_of != NULL &&
	    sim->bridge_of->state == PHASE_PENDING;
}

/* Without --expect-bridges the phase is over whenever no bridge is
 * waited for; with it, once done or timed out. */
int
ovsdb_datapath_over(const struct ovsdb_sim *sim)
{
	const struct phase	*ph = sim->bridge_of;

	if (ph == NULL)
		return 1;
	return sim->cfg.expect_bridges > 0 ? phase_over(ph) :
	    ph->state != PHASE_RUNNING;
}

void
ovsdb_datapath_tick(struct ovsdb_sim *sim, uint64_t now)
{
	struct phase	*ph = sim->bridge_of;

	if (ph == NULL)
		return;
	datapath_tick(now);
	(void)run_phase_timeout(ph, now, sim->phase_timeout);
	/* --expect-bridges and none ever asked for: over --timeout after
	 * connect, timed out with nothing (the run needs it). */
	if (sim->cfg.expect_bridges > 0 && ph->state == PHASE_PENDING &&
	    phase_over(sim->connect) &&
	    secs_between(sim->connect->end_ns, now) > sim->phase_timeout) {
		phase_start(ph, sim->connect->end_ns);
		phase_end(ph, now, PHASE_TIMEOUT);
	}
}

/* ---- the Controller row: what vswitchd writes of the connection ---- */

/* Columns of Controller row k (the datapath's target k) as vswitchd
 * writes them. */
static void
ovsdb_bdp_write(struct ovsdb_bdp *b, unsigned k, json_t *row)
{
	struct ovsdb_dev	*d = b->dev;
	json_t			*ops;
	char			 err[256];

	if (k >= b->n_ctl) {
		json_decref(row);
		return;
	}
	ops = json_pack("[{sssss[[sso]]so}]", "op", "update", "table",
	    "Controller", "where", "_uuid", "==", ovsdb_uuid_json(b->ctl[k]),
	    "row", row);
	if (ops == NULL)
		fatalx("ovsdb_bdp_write: json_pack");
	if (ovsdb_server_write(&d->srv, ops, err, sizeof(err)) == -1) {
		(*d->sim->dpc.writeback_errors)++;
		if (!(d->dp_logged & OVSDB_DPLOG_WRITEBACK))
			log_warnx("ovsdb device %u: bridge %s: writing the "
			    "controller's is_connected failed: %s", d->id,
			    b->name, err);
		d->dp_logged |= OVSDB_DPLOG_WRITEBACK;
	}
	json_decref(ops);
}

/* ovs-vswitchd.conf.db(5), Controller: is_connected, role, and status
 * state, sec_since_connect, last_error. */
static void
ovsdb_bdp_writeback(struct ovsdb_bdp *b, unsigned k, int up, const char *why)
{
	json_t	*row;

	if (up)
		row = json_pack("{sbs[s[[ss][ss]]]ss}", "is_connected", 1,
		    "status", "map", "sec_since_connect", "0", "state",
		    "ACTIVE", "role", "other");
	else
		row = json_pack("{sbs[s[[ss][ss]]]s[s[]]}", "is_connected", 0,
		    "status", "map", "last_error", why, "state", "BACKOFF",
		    "role", "set");
	if (row == NULL)
		fatalx("ovsdb_bdp_writeback: json_pack");
	ovsdb_bdp_write(b, k, row);
}

static void
ovsdb_bdp_role(void *arg, unsigned k, const char *role)
{
	json_t	*row = json_pack("{ss}", "role", role);

	if (row == NULL)
		fatalx("ovsdb_bdp_role: json_pack");
	ovsdb_bdp_write(arg, k, row);
}

/* ---- the phase ---- */

/* A bridge asked for: the phase's target grows (and a phase done with
 * the bridges before runs again). */
static void
ovsdb_bdp_asked(struct ovsdb_sim *sim, uint64_t asked_ns)
{
	struct phase	*ph = sim->bridge_of;

	if (sim->cfg.expect_bridges > 0) {
		phase_start(ph, asked_ns);	/* the first one's */
		return;
	}
	ph->target++;
	if (ph->state == PHASE_PENDING)
		phase_start(ph, asked_ns);
	else if (ph->state == PHASE_DONE) {
		ph->state = PHASE_RUNNING;
		ph->end_ns = 0;
	}
}

/* A bridge gone before its handshake: it is no longer waited for. */
static void
ovsdb_bdp_unasked(struct ovsdb_sim *sim, uint64_t now)
{
	struct phase	*ph = sim->bridge_of;

	if (sim->cfg.expect_bridges > 0)
		return;		/* another may come */
	ph->target--;
	if (ph->state == PHASE_RUNNING && ph->items >= ph->target)
		phase_end(ph, ph->items > 0 ? ph->last_ns : now,
		    PHASE_DONE);
}

/* A connection's handshake: the bridge is timed by its first one. */
static void
ovsdb_bdp_up(void *arg, unsigned k, uint64_t ns)
{
	struct ovsdb_bdp	*b = arg;
	struct ovsdb_sim	*sim = b->dev->sim;

	(*sim->dpc.handshakes)++;
	if (!b->timed) {
		b->timed = 1;
		phase_items(sim->bridge_of, ns, 1);
		phase_latency(sim->bridge_of, ns > b->asked_ns ?
		    (ns - b->asked_ns) / 1000 : 0);
	}
	ovsdb_bdp_writeback(b, k, 1, NULL);
}

static void
ovsdb_bdp_down(void *arg, unsigned k, const char *why)
{
	struct ovsdb_bdp	*b = arg;

	(*b->dev->sim->dpc.lost)++;
	ovsdb_bdp_writeback(b, k, 0, why);
}

/* ---- a bridge's switch ---- */

/* Gone: a bridge never connected is no longer waited for, unless the
 * run is ending (then bridge_openflow ends as the run says). */
static void
ovsdb_bdp_free(struct ovsdb_bdp *b, uint64_t now, int ending)
{
	struct ovsdb_sim	*sim = b->dev->sim;

	LIST_REMOVE(b, entry);
	if (b->dp != NULL) {
		datapath_close(b->dp);
		(*sim->dpc.closed)++;
		if (!b->timed && !ending)
			ovsdb_bdp_unasked(sim, now);
	}
	free(b->targets);
	free(b);
}

static void
ovsdb_bdp_refused(struct ovsdb_bdp *b, const char *err)
{
	struct ovsdb_dev	*d = b->dev;

	(*d->sim->dpc.refused)++;
	if (!(d->dp_logged & OVSDB_DPLOG_REFUSED))
		log_warnx("ovsdb device %u: bridge %s gets no OpenFlow switch: "
		    "%s (further ones counted)", d->id, b->name, err);
	d->dp_logged |= OVSDB_DPLOG_REFUSED;
}

/* The switch of a bridge with controllers, made now (spec without its
 * name and source, filled here); targets is the key ovsdb_bdp_key()
 * made of every row. */
static struct ovsdb_bdp *
ovsdb_bdp_new(struct ovsdb_dev *d, const uint8_t *br,
    const struct ovsdb_bdp_ctls *cs, const char *targets, const char *name,
    struct datapath_spec *spec)
{
	struct ovsdb_bdp	*b = xcalloc(1, sizeof(*b));
	struct datapath_hooks	 hooks = { ovsdb_bdp_up, ovsdb_bdp_down,
		ovsdb_bdp_role, b };
	char			 err[384];
	uint32_t		 k;

	b->dev = d;
	memcpy(b->br, br, OVSDB_UUID_LEN);
	for (k = 0; k < cs->n; k++)
		memcpy(b->ctl[k], cs->row[k]->uuid, OVSDB_UUID_LEN);
	b->n_ctl = cs->n;
	b->dpid = spec->dpid;
	b->versions = spec->versions;
	b->ports = spec->ports;
	b->asked_ns = d->changed_rx_ns != 0 ? d->changed_rx_ns : clock_ns();
	if ((b->targets = strdup(targets)) == NULL)
		fatal("strdup");
	snprintf(b->name, sizeof(b->name), "%s", name);
	LIST_INSERT_HEAD(&d->bdps, b, entry);
	spec->name = b->name;
	/* From the device's own address (--source), as a host's. */
	spec->src = d->sim->pcfg.src;
	spec->src_index = d->id;
	if (cs->n == 0) {
		ovsdb_bdp_refused(b, cs->why);
		return b;
	}
	if (datapath_open(cs->target, cs->n, spec, &hooks, &b->dp, err,
	    sizeof(err)) != DATAPATH_OPEN) {
		ovsdb_bdp_refused(b, err);
		return b;
	}
	(*d->sim->dpc.opened)++;
	log_debug("ovsdb device %u: bridge %s: OpenFlow switch %016llx "
	    "connecting to %u controllers, the first %s", d->id, name,
	    (unsigned long long)spec->dpid, cs->n, cs->target[0]);
	ovsdb_bdp_asked(d->sim, b->asked_ns);
	return b;
}

static struct ovsdb_bdp *
ovsdb_bdp_find(struct ovsdb_dev *d, const uint8_t *br)
{
	struct ovsdb_bdp	*b;

	LIST_FOREACH(b, &d->bdps, entry)
		if (memcmp(b->br, br, OVSDB_UUID_LEN) == 0)
			return b;
	return NULL;
}

/* ---- reading the bridge ---- */

static int
ovsdb_ref_uuid(const json_t *ref, uint8_t *uuid)
{
	return ovsdb_uuid_parse(json_string_value(json_array_get(ref, 1)),
	    uuid);
}

/* The datapath ID: other_config:datapath-id when OVS would take it
 * (dpid_from_string(): 16 hex digits, not all zero), else the one
 * vswitchd wrote; 0 when there is none yet. */
static uint64_t
ovsdb_bdp_dpid(const struct ovsdb_vscols *c, const struct ovsdb_row *r,
    int *bad)
{
	const json_t	*oc = r->col[c->bother];
	uint64_t	 dpid = 0;
	size_t		 i;

	for (i = 0; i < ovsdb_datum_n(oc); i++) {
		if (strcmp(json_string_value(ovsdb_datum_key(oc, i)),
		    "datapath-id") != 0)
			continue;
		if (datapath_id_parse(json_string_value(ovsdb_datum_val(oc,
		    i)), &dpid) == 0)
			return dpid;
		*bad = 1;	/* vswitchd logs it and uses its own */
	}
	if (ovsdb_datum_n(r->col[c->bdpid]) == 1 &&
	    datapath_id_parse(json_string_value(ovsdb_datum_key(
	    r->col[c->bdpid], 0)), &dpid) == 0)
		return dpid;
	return 0;
}

/* The highest OpenFlow port number vswitchd gave an interface of one
 * of the bridge's ports (ofport; LOCAL and -1, a failed port, left
 * out): the switch has ports 1..that. */
#define OVSDB_DP_OFPP_MAX	65279

static uint32_t
ovsdb_port_ofport(const struct ovsdb_db *db, const struct ovsdb_vscols *c,
    const struct ovsdb_row *p)
{
	const json_t		*ifs = p->col[c->pifaces], *of;
	const struct ovsdb_row	*i;
	uint8_t			 uuid[OVSDB_UUID_LEN];
	uint32_t		 top = 0;
	json_int_t		 n;
	size_t			 k;

	for (k = 0; k < ovsdb_datum_n(ifs); k++) {
		if (ovsdb_ref_uuid(ovsdb_datum_key(ifs, k), uuid) == -1 ||
		    (i = ovsdb_tbl_find(&db->t[c->iface], uuid, NULL)) == NULL)
			continue;
		of = i->col[c->ofport];
		if (ovsdb_datum_n(of) != 1 ||
		    !json_is_integer(ovsdb_datum_key(of, 0)))
			continue;	/* not numbered yet */
		n = json_integer_value(ovsdb_datum_key(of, 0));
		if (n >= 1 && n <= OVSDB_DP_OFPP_MAX && (uint32_t)n > top)
			top = (uint32_t)n;
	}
	return top;
}

static uint32_t
ovsdb_bdp_ports(const struct ovsdb_db *db, const struct ovsdb_vscols *c,
    const struct ovsdb_row *r)
{
	const json_t		*ports = r->col[c->bports];
	const struct ovsdb_row	*p;
	uint8_t			 uuid[OVSDB_UUID_LEN];
	uint32_t		 top = 0, n;
	size_t			 i;

	for (i = 0; i < ovsdb_datum_n(ports); i++)
		if (ovsdb_ref_uuid(ovsdb_datum_key(ports, i), uuid) == 0 &&
		    (p = ovsdb_tbl_find(&db->t[c->port], uuid, NULL)) != NULL &&
		    (n = ovsdb_port_ofport(db, c, p)) > top)
			top = n;
	return top;
}

/*
 * The controllers the switch connects to: those in UUID order whose
 * target the seam takes (tcp:), up to DATAPATH_MAX_TARGETS; the others
 * counted in cs->unused, the first of them kept to say why when none is
 * taken.  Returns -1 when the bridge has no controller with a target.
 */
static int
ovsdb_bdp_controllers(const struct ovsdb_db *db,
    const struct ovsdb_vscols *c, const struct ovsdb_row *r,
    struct ovsdb_bdp_ctls *cs)
{
	const json_t		*set = r->col[c->bctl];
	const struct ovsdb_row	*k;
	uint8_t			 uuid[OVSDB_UUID_LEN];
	struct endpoint		 ep;
	const char		*t;
	char			 err[sizeof(cs->why)];
	size_t			 i;

	memset(cs, 0, sizeof(*cs));
	for (i = 0; i < ovsdb_datum_n(set); i++) {
		if (ovsdb_ref_uuid(ovsdb_datum_key(set, i), uuid) == -1 ||
		    (k = ovsdb_tbl_find(&db->t[c->ctl], uuid, NULL)) == NULL ||
		    (t = json_string_value(k->col[c->target])) == NULL)
			continue;
		if (cs->n < DATAPATH_MAX_TARGETS &&
		    datapath_target(t, &ep, err, sizeof(err)) ==
		    DATAPATH_OPEN) {
			cs->row[cs->n] = k;
			cs->target[cs->n++] = t;
			continue;
		}
		if (cs->refused == NULL) {
			cs->refused = k;
			if (cs->n == DATAPATH_MAX_TARGETS)
				snprintf(cs->why, sizeof(cs->why), "controller "
				    "%s: past the %d a switch connects to", t,
				    DATAPATH_MAX_TARGETS);
			else
				memcpy(cs->why, err, sizeof(cs->why));
		}
		cs->unused++;
	}
	return cs->n == 0 && cs->refused == NULL ? -1 : 0;
}

/* Every row's UUID and target, one a line: a change of any makes the
 * switch again, as vswitchd reconnects. */
static char *
ovsdb_bdp_key(const struct ovsdb_vscols *c, const struct ovsdb_db *db,
    const struct ovsdb_row *r)
{
	const json_t		*set = r->col[c->bctl];
	const struct ovsdb_row	*k;
	uint8_t			 uuid[OVSDB_UUID_LEN];
	const char		*t;
	char			*key = NULL, *next;
	size_t			 i;

	for (i = 0; i < ovsdb_datum_n(set); i++) {
		if (ovsdb_ref_uuid(ovsdb_datum_key(set, i), uuid) == -1 ||
		    (k = ovsdb_tbl_find(&db->t[c->ctl], uuid, NULL)) == NULL ||
		    (t = json_string_value(k->col[c->target])) == NULL)
			continue;
		xasprintf(&next, "%s%s %s\n", key ? key : "",
		    json_string_value(json_array_get(ovsdb_datum_key(set, i),
		    1)), t);
		free(key);
		key = next;
	}
	if (key == NULL && (key = strdup("")) == NULL)
		fatal("strdup");
	return key;
}

/* An optional integer column: its value, or dflt when empty. */
static int64_t
ovsdb_dp_int(const json_t *v, int64_t dflt)
{
	return ovsdb_datum_n(v) == 1 && json_is_integer(ovsdb_datum_key(v, 0)) ?
	    (int64_t)json_integer_value(ovsdb_datum_key(v, 0)) : dflt;
}

/* Bridge protocols ("OpenFlow10".."OpenFlow15") as wire versions
 * (1..6); 0 when empty: vswitchd's default. */
static uint32_t
ovsdb_dp_versions(const json_t *set)
{
	const char	*p;
	uint32_t	 bm = 0;
	size_t		 i;

	for (i = 0; i < ovsdb_datum_n(set); i++) {
		p = json_string_value(ovsdb_datum_key(set, i));
		if (p != NULL && strncmp(p, "OpenFlow1", 9) == 0 &&
		    p[9] >= '0' && p[9] <= '5' && p[10] == '\0')
			bm |= 1u << (p[9] - '0' + 1);
	}
	return bm;
}

/* What the switch of bridge r, connecting to controller k, is. */
static void
ovsdb_dp_spec(const struct ovsdb_db *db, const struct ovsdb_vscols *c,
    const struct ovsdb_row *r, const struct ovsdb_row *k,
    struct datapath_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->ports = ovsdb_bdp_ports(db, c, r);
	spec->versions = ovsdb_dp_versions(r->col[c->protocols]);
	spec->max_backoff_ms = (uint32_t)ovsdb_dp_int(k->col[c->backoff], 0);
	spec->probe_ms = ovsdb_dp_int(k->col[c->probe], -1);
	if (spec->probe_ms < -1)
		spec->probe_ms = -1;
}

/* One bridge of the database: its switch kept, made or made again
 * (vswitchd reconnects for a new datapath ID, controller, target or
 * OpenFlow versions; it takes new ports as they come). */
static void
ovsdb_bdp_bridge(struct ovsdb_dev *d, const struct ovsdb_vscols *c,
    const struct ovsdb_row *r, uint64_t now)
{
	const struct ovsdb_db	*db = d->srv.db;
	struct ovsdb_bdp_ctls	 cs;
	struct ovsdb_bdp	*b;
	struct datapath_spec	 spec;
	const char		*name;
	char			*key;
	int			 bad = 0;

	if (ovsdb_bdp_controllers(db, c, r, &cs) == -1)
		return;
	/* Backoff and probe: the first controller's, for every one. */
	ovsdb_dp_spec(db, c, r, cs.n > 0 ? cs.row[0] : cs.refused, &spec);
	if ((spec.dpid = ovsdb_bdp_dpid(c, r, &bad)) == 0)
		return;
	key = ovsdb_bdp_key(c, db, r);
	b = ovsdb_bdp_find(d, r->uuid);
	if (b != NULL && (b->dpid != spec.dpid || b->versions !=
	    spec.versions || strcmp(b->targets, key) != 0)) {
		ovsdb_bdp_free(b, now, 0);
		b = NULL;
	}
	if (b == NULL) {
		if ((name = json_string_value(r->col[c->bname])) == NULL)
			name = "?";
		b = ovsdb_bdp_new(d, r->uuid, &cs, key, name, &spec);
		/* A bridge refused is counted once, as refused. */
		*d->sim->dpc.targets_unused += cs.n > 0 ? cs.unused :
		    cs.unused - 1;
		*d->sim->dpc.bad_dpids += (uint64_t)bad;
	} else if (b->ports != spec.ports) {
		datapath_ports(b->dp, spec.ports);	/* PORT_STATUS */
		b->ports = spec.ports;
	}
	b->seen = 1;
	free(key);
}

void
ovsdb_datapath_sync(struct ovsdb_dev *d, const struct ovsdb_vscols *c)
{
	const struct ovsdb_tbl	*t;
	struct ovsdb_bdp	*b, *next;
	uint64_t		 now = clock_ns();
	uint32_t		 i;

	if (d->sim->bridge_of == NULL)
		return;
	LIST_FOREACH(b, &d->bdps, entry)
		b->seen = 0;
	t = &d->srv.db->t[c->br];
	for (i = 0; i < t->n; i++)
		ovsdb_bdp_bridge(d, c, t->rows[i], now);
	for (b = LIST_FIRST(&d->bdps); b != NULL; b = next) {
		next = LIST_NEXT(b, entry);
		if (!b->seen)
			ovsdb_bdp_free(b, now, 0); /* bridge or controller gone */
	}
	d->changed_rx_ns = 0;
}

void
ovsdb_datapath_free(struct ovsdb_dev *d)
{
	uint64_t	now = clock_ns();

	while (!LIST_EMPTY(&d->bdps))
		ovsdb_bdp_free(LIST_FIRST(&d->bdps), now, 1);
}

void
ovsdb_datapath_stop(struct ovsdb_sim *sim)
{
	if (sim->bridge_of != NULL)
		datapath_stop();
}
