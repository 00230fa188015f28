/*
 * What ovs-vswitchd writes back to its database once it has applied a
 * client's change (vswitchd(5)): cur_cfg catches up with next_cfg (what
 * `ovs-vsctl` without --no-wait waits for), every interface gets an
 * OpenFlow port number (its ofport_request when free, 65534 for a
 * bridge's own internal interface, else the lowest free number; one
 * numbering per device where OVS has one per bridge), and every bridge a
 * datapath_id (its other_config:datapath-id when vswitchd takes that,
 * else the device's number and the start of the bridge's UUID).
 * A device does this at the loop's next turn after a client's
 * transaction (its reply sent first), as vswitchd does it a moment
 * later, in a transaction of its own; then the bridges with a controller
 * get their OpenFlow switches (ovsdb_datapath.c).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <event2/event.h>

#include "datapath.h"
#include "engine.h"
#include "log.h"
#include "ovsdb_sim.h"

#define OVSDB_OFPP_MAX		65279	/* OFPP_MAX: the last port number */
#define OVSDB_OFPP_LOCAL	65534

/*
 * The Open_vSwitch schema's columns that vswitchd and the datapaths
 * (ovsdb_datapath.c) read, found once for both.
 */
#define OVSDB_VSCOL(table, column, field) \
	OVSDB_COLREF(struct ovsdb_vscols, table, column, field)
static const struct ovsdb_colref ovsdb_vscol_refs[] = {
	OVSDB_VSCOL("Open_vSwitch", NULL, ovs),
	OVSDB_VSCOL("Bridge", NULL, br),
	OVSDB_VSCOL("Controller", NULL, ctl),
	OVSDB_VSCOL("Port", NULL, port),
	OVSDB_VSCOL("Interface", NULL, iface),
	OVSDB_VSCOL("Open_vSwitch", "cur_cfg", cur_cfg),
	OVSDB_VSCOL("Open_vSwitch", "next_cfg", next_cfg),
	OVSDB_VSCOL("Bridge", "name", bname),
	OVSDB_VSCOL("Bridge", "controller", bctl),
	OVSDB_VSCOL("Bridge", "other_config", bother),
	OVSDB_VSCOL("Bridge", "datapath_id", bdpid),
	OVSDB_VSCOL("Bridge", "ports", bports),
	OVSDB_VSCOL("Bridge", "protocols", protocols),
	OVSDB_VSCOL("Controller", "target", target),
	OVSDB_VSCOL("Controller", "is_connected", connected),
	OVSDB_VSCOL("Controller", "status", status),
	OVSDB_VSCOL("Controller", "max_backoff", backoff),
	OVSDB_VSCOL("Controller", "inactivity_probe", probe),
	OVSDB_VSCOL("Port", "name", pname),
	OVSDB_VSCOL("Port", "interfaces", pifaces),
	OVSDB_VSCOL("Interface", "name", iname),
	OVSDB_VSCOL("Interface", "type", itype),
	OVSDB_VSCOL("Interface", "ofport", ofport),
	OVSDB_VSCOL("Interface", "ofport_request", ofport_request),
};
#undef OVSDB_VSCOL

static json_t *
ovsdb_vsd_update(const char *table, const struct ovsdb_row *r, json_t *row)
{
	return json_pack("{sssss[[sso]]so}", "op", "update", "table", table,
	    "where", "_uuid", "==", ovsdb_uuid_json(r->uuid), "row", row);
}

/* cur_cfg = next_cfg. */
static void
ovsdb_vsd_cfg(const struct ovsdb_db *db, const struct ovsdb_vscols *v,
    json_t *ops)
{
	const struct ovsdb_row	*r;

	if (db->t[v->ovs].n == 0)
		return;
	r = db->t[v->ovs].rows[0];
	if (json_equal(r->col[v->cur_cfg], r->col[v->next_cfg]))
		return;
	json_array_append_new(ops, ovsdb_vsd_update("Open_vSwitch", r,
	    json_pack("{sO}", "cur_cfg", r->col[v->next_cfg])));
}

/* Is this interface a bridge's own (internal, named as a bridge)? */
static int
ovsdb_vsd_local(const struct ovsdb_db *db, const struct ovsdb_vscols *v,
    const struct ovsdb_row *i)
{
	const char	*type = json_string_value(i->col[v->itype]);
	uint32_t	 k;

	if (type == NULL || strcmp(type, "internal") != 0)
		return 0;
	for (k = 0; k < db->t[v->br].n; k++)
		if (json_equal(db->t[v->br].rows[k]->col[v->bname],
		    i->col[v->iname]))
			return 1;
	return 0;
}

/* The ports in use, as a bitmap; the lowest free one from *next. */
static long
ovsdb_vsd_port(const struct ovsdb_db *db, const struct ovsdb_vscols *v,
    const struct ovsdb_row *i, uint8_t *used, long *next)
{
	const json_t	*req = i->col[v->ofport_request];
	long		 p;

	if (ovsdb_vsd_local(db, v, i))
		return OVSDB_OFPP_LOCAL;
	if (json_is_integer(req) && !(used[json_integer_value(req) / 8] &
	    (1u << (json_integer_value(req) % 8))))
		p = (long)json_integer_value(req);
	else {
		while (*next <= OVSDB_OFPP_MAX && (used[*next / 8] &
		    (1u << (*next % 8))))
			(*next)++;
		if (*next > OVSDB_OFPP_MAX)
			return -1;	/* as vswitchd says a port failed */
		p = *next;
	}
	used[p / 8] |= (uint8_t)(1u << (p % 8));
	return p;
}

static void
ovsdb_vsd_ofports(const struct ovsdb_db *db, const struct ovsdb_vscols *v,
    json_t *ops)
{
	static uint8_t		 used[(OVSDB_OFPP_LOCAL + 8) / 8];
	const struct ovsdb_tbl	*t = &db->t[v->iface];
	const json_t		*p;
	long			 next = 1;
	uint32_t		 k;

	memset(used, 0, sizeof(used));
	for (k = 0; k < t->n; k++) {
		p = t->rows[k]->col[v->ofport];
		if (json_is_integer(p) && json_integer_value(p) > 0 &&
		    json_integer_value(p) <= OVSDB_OFPP_LOCAL)
			used[json_integer_value(p) / 8] |= (uint8_t)(1u <<
			    (json_integer_value(p) % 8));
	}
	for (k = 0; k < t->n; k++)
		if (ovsdb_datum_n(t->rows[k]->col[v->ofport]) == 0)
			json_array_append_new(ops, ovsdb_vsd_update(
			    "Interface", t->rows[k], json_pack("{sI}",
			    "ofport", (json_int_t)ovsdb_vsd_port(db, v,
			    t->rows[k], used, &next))));
}

/* other_config:datapath-id when vswitchd takes it (16 hex digits, not
 * all zero: datapath_id_parse()), as it is written; else NULL. */
static const char *
ovsdb_vsd_dpid_asked(const struct ovsdb_vscols *v, const struct ovsdb_row *r)
{
	const json_t	*oc = r->col[v->bother];
	const char	*s;
	uint64_t	 dpid;
	size_t		 i;

	for (i = 0; i < ovsdb_datum_n(oc); i++) {
		if (strcmp(json_string_value(ovsdb_datum_key(oc, i)),
		    "datapath-id") != 0)
			continue;
		s = json_string_value(ovsdb_datum_val(oc, i));
		return datapath_id_parse(s, &dpid) == 0 ? s : NULL;
	}
	return NULL;
}

/* A bridge's datapath_id: the one other_config asks for, else the one
 * it has, else a new one (the device's number and the start of the
 * bridge's UUID). */
static void
ovsdb_vsd_dpids(const struct ovsdb_dev *d, const struct ovsdb_vscols *v,
    json_t *ops)
{
	const struct ovsdb_tbl	*t = &d->srv.db->t[v->br];
	const struct ovsdb_row	*r;
	const uint8_t		*u;
	const char		*asked;
	const json_t		*has;
	char			 dpid[17];
	uint32_t		 k, i;

	for (k = 0; k < t->n; k++) {
		r = t->rows[k];
		has = r->col[v->bdpid];
		if ((asked = ovsdb_vsd_dpid_asked(v, r)) != NULL) {
			if (ovsdb_datum_n(has) == 1 && strcasecmp(
			    json_string_value(ovsdb_datum_key(has, 0)),
			    asked) == 0)
				continue;
			/* vswitchd writes it in lower case. */
			for (i = 0; i < 16; i++)
				dpid[i] = (char)tolower((unsigned char)asked[i]);
			dpid[16] = '\0';
		} else if (ovsdb_datum_n(has) != 0)
			continue;
		else {
			u = r->uuid;
			snprintf(dpid, sizeof(dpid), "%010x%02x%02x%02x",
			    d->id + 1, u[0], u[1], u[2]);
		}
		json_array_append_new(ops, ovsdb_vsd_update("Bridge", r,
		    json_pack("{ss}", "datapath_id", dpid)));
	}
}

void
ovsdb_vswitchd_ack(struct ovsdb_dev *d)
{
	struct ovsdb_vscols	 v;
	json_t			*ops;
	char			 err[256];

	if (ovsdb_colrefs_find(d->srv.schema, ovsdb_vscol_refs,
	    sizeof(ovsdb_vscol_refs) / sizeof(ovsdb_vscol_refs[0]), &v) == -1)
		return;			/* not the Open_vSwitch schema */
	ops = json_array();
	ovsdb_vsd_cfg(d->srv.db, &v, ops);
	ovsdb_vsd_ofports(d->srv.db, &v, ops);
	ovsdb_vsd_dpids(d, &v, ops);
	if (json_array_size(ops) > 0 &&
	    ovsdb_server_write(&d->srv, ops, err, sizeof(err)) == -1 &&
	    !(d->logged & OVSDB_DLOG_VSWITCHD)) {
		log_warnx("ovsdb device %u: writing back what vswitchd would "
		    "failed: %s", d->id, err);
		d->logged |= OVSDB_DLOG_VSWITCHD;
	}
	json_decref(ops);
	ovsdb_datapath_sync(d, &v);
}

static void
ovsdb_vswitchd_later(void *arg)
{
	struct ovsdb_dev	*d = arg;

	if (d->srv.changed) {
		d->srv.changed = 0;
		ovsdb_vswitchd_ack(d);
	}
}

void
ovsdb_vswitchd_soon(struct ovsdb_dev *d)
{
	if (d->vsd_soon == NULL)
		d->vsd_soon = engine_soon_new(ovsdb_vswitchd_later, d);
	engine_soon(d->vsd_soon);
}
