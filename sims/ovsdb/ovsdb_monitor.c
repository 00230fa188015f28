/*
 * Monitors (RFC 7047 section 4.1.5 to 4.1.7; ovsdb-server(7) for
 * monitor_cond with "update2" and monitor_cond_since with "update3"):
 * what a client watches, the initial contents in the reply, and after
 * each commit the rows inserted, deleted and modified, found by walking
 * the old and new tables side by side (rows a commit left alone are the
 * same pointers).
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "ovsdb_server.h"
#include "tailq.h"

#define OVSDB_SEL_INITIAL	0x01
#define OVSDB_SEL_INSERT	0x02
#define OVSDB_SEL_DELETE	0x04
#define OVSDB_SEL_MODIFY	0x08
#define OVSDB_SEL_ALL		0x0f

/* The zero UUID: the transaction id of a server that keeps no history
 * (monitor_cond_since then always sends everything). */
#define OVSDB_TXN_ZERO	"00000000-0000-0000-0000-000000000000"

struct ovsdb_mon_tbl {
	uint32_t	 ti;
	uint8_t		 select;	/* OVSDB_SEL_* */
	uint8_t		*cols;		/* monitored, [ncols] */
	json_t		*where;		/* compiled; NULL: every row */
};

struct ovsdb_monitor {
	TAILQ_ENTRY(ovsdb_monitor)	 entry;
	const struct ovsdb_schema	*schema;	/* of its database */
	json_t				*id;
	uint8_t				 version;	/* 1, 2, 3 */
	uint32_t			 nt;
	struct ovsdb_mon_tbl		*t;
};

static void
ovsdb_monitor_free(struct ovsdb_monitor *mon)
{
	uint32_t	i;

	for (i = 0; i < mon->nt; i++) {
		free(mon->t[i].cols);
		json_decref(mon->t[i].where);
	}
	free(mon->t);
	json_decref(mon->id);
	free(mon);
}

void
ovsdb_monitors_free(struct ovsdb_conn *conn)
{
	struct ovsdb_monitor	*mon;

	TAILQ_DRAIN(&conn->monitors, mon, entry, ovsdb_monitor_free);
}

/* ---- the request (4.1.5 <monitor-request>) ---- */

static int
ovsdb_mon_select(struct ovsdb_mon_tbl *mt, json_t *sel, json_t **err)
{
	static const char *const names[] = { "initial", "insert", "delete",
	    "modify" };
	json_t			*v;
	int			 i;

	if (sel == NULL)
		return 0;
	if (!json_is_object(sel)) {
		*err = ovsdb_error("syntax error", "select is not an object");
		return -1;
	}
	for (i = 0; i < 4; i++)
		if ((v = json_object_get(sel, names[i])) != NULL &&
		    json_is_false(v))
			mt->select &= (uint8_t)~(1u << i);
	return 0;
}

static int
ovsdb_mon_columns(const struct ovsdb_table *t, struct ovsdb_mon_tbl *mt,
    json_t *cols, json_t **err)
{
	if (cols != NULL)
		return ovsdb_columns_set(t, cols, mt->cols, err);
	/* Every column but _uuid and _version. */
	memset(mt->cols + OVSDB_COL_FIRST, 1, t->ncols - OVSDB_COL_FIRST);
	return 0;
}

/* One <monitor-request> (of several, their columns and selects merged). */
static int
ovsdb_mon_request(const struct ovsdb_table *t, struct ovsdb_mon_tbl *mt,
    json_t *req, int version, json_t **err)
{
	struct ovsdb_mon_tbl	one;
	json_t			*w;

	memset(&one, 0, sizeof(one));
	one.select = OVSDB_SEL_ALL;
	one.cols = mt->cols;
	if (!json_is_object(req) || ovsdb_mon_select(&one,
	    json_object_get(req, "select"), err) == -1 ||
	    ovsdb_mon_columns(t, &one, json_object_get(req, "columns"), err)
	    == -1) {
		if (*err == NULL)
			*err = ovsdb_error("syntax error", "a bad monitor "
			    "request for %s", t->name);
		return -1;
	}
	mt->select |= one.select;
	if (version > 1 && (w = json_object_get(req, "where")) != NULL) {
		json_decref(mt->where);
		if ((mt->where = ovsdb_where_compile(t, w, NULL, err)) == NULL)
			return -1;
	}
	return 0;
}

static int
ovsdb_mon_table(const struct ovsdb_schema *s, struct ovsdb_mon_tbl *mt,
    const char *name, json_t *reqs, int version, json_t **err)
{
	const struct ovsdb_table	*t;
	json_t				*r;
	size_t				 i;
	int				 ti;

	if ((ti = ovsdb_table_find(s, name)) == -1) {
		*err = ovsdb_error("syntax error", "no table named %s", name);
		return -1;
	}
	t = &s->tables[ti];
	mt->ti = (uint32_t)ti;
	mt->cols = xcalloc(t->ncols, 1);
	if (!json_is_array(reqs))
		return ovsdb_mon_request(t, mt, reqs, version, err);
	json_array_foreach(reqs, i, r)
		if (ovsdb_mon_request(t, mt, r, version, err) == -1)
			return -1;
	return 0;
}

static struct ovsdb_monitor *
ovsdb_mon_parse(const struct ovsdb_schema *s, int version, json_t *reqs,
    json_t **err)
{
	struct ovsdb_monitor	*mon;
	const char		*name;
	json_t			*v;

	if (!json_is_object(reqs)) {
		*err = ovsdb_error("syntax error", "monitor requests are an "
		    "object");
		return NULL;
	}
	mon = xcalloc(1, sizeof(*mon));
	mon->schema = s;
	mon->version = (uint8_t)version;
	mon->t = xcalloc(json_object_size(reqs) + 1, sizeof(*mon->t));
	json_object_foreach(reqs, name, v) {
		if (ovsdb_mon_table(s, &mon->t[mon->nt++], name, v, version,
		    err) == -1) {
			ovsdb_monitor_free(mon);
			return NULL;
		}
	}
	return mon;
}

/* ---- row updates ---- */

static int
ovsdb_is_default(const struct ovsdb_table *t, const struct ovsdb_row *r,
    uint32_t c)
{
	return r->col[c] == t->cols[c].dflt ||
	    json_equal(r->col[c], t->cols[c].dflt);
}

/* The monitored columns of a row; update2's initial and insert leave
 * out default values (the client knows them from the schema). */
static json_t *
ovsdb_mon_row(const struct ovsdb_table *t, const struct ovsdb_mon_tbl *mt,
    const struct ovsdb_row *r, int skip_default)
{
	json_t		*o = json_object();
	uint32_t	 c;

	for (c = 0; c < t->ncols; c++)
		if (mt->cols[c] && !(skip_default && c >= OVSDB_COL_FIRST &&
		    ovsdb_is_default(t, r, c)))
			json_object_set_new(o, t->cols[c].name,
			    ovsdb_row_get(t, r, c));
	return o;
}

/* A modified row: version 1 {"old": changed, "new": all}, version 2
 * and 3 {"modify": differences}; NULL when no monitored column changed. */
static json_t *
ovsdb_mon_modify(const struct ovsdb_table *t, const struct ovsdb_monitor *mon,
    const struct ovsdb_mon_tbl *mt, const struct ovsdb_row *o,
    const struct ovsdb_row *n)
{
	json_t		*ch = json_object();
	uint32_t	 c;

	for (c = OVSDB_COL_FIRST; c < t->ncols; c++) {
		if (!mt->cols[c] || o->col[c] == n->col[c] ||
		    json_equal(o->col[c], n->col[c]))
			continue;
		json_object_set_new(ch, t->cols[c].name, mon->version == 1 ?
		    json_incref(o->col[c]) : ovsdb_datum_diff(&t->cols[c],
		    o->col[c], n->col[c]));
	}
	if (json_object_size(ch) == 0) {
		json_decref(ch);
		return NULL;
	}
	if (mon->version > 1)
		return json_pack("{so}", "modify", ch);
	return json_pack("{soso}", "old", ch, "new", ovsdb_mon_row(t, mt, n,
	    0));
}

enum ovsdb_change { OVSDB_CH_INITIAL, OVSDB_CH_INSERT, OVSDB_CH_DELETE };

static json_t *
ovsdb_mon_whole(const struct ovsdb_table *t, const struct ovsdb_monitor *mon,
    const struct ovsdb_mon_tbl *mt, const struct ovsdb_row *r,
    enum ovsdb_change ch)
{
	static const uint8_t	sel[] = { OVSDB_SEL_INITIAL, OVSDB_SEL_INSERT,
	    OVSDB_SEL_DELETE };
	static const char *const v2[] = { "initial", "insert", "delete" };

	if (!(mt->select & sel[ch]))
		return NULL;
	if (mon->version == 1)
		return json_pack("{so}", ch == OVSDB_CH_DELETE ? "old" : "new",
		    ovsdb_mon_row(t, mt, r, 0));
	if (ch == OVSDB_CH_DELETE)
		return json_pack("{sn}", "delete");
	return json_pack("{so}", v2[ch], ovsdb_mon_row(t, mt, r, 1));
}

/* One row that changed (o or n NULL when inserted or deleted), with the
 * condition deciding what the client sees. */
static json_t *
ovsdb_mon_change(const struct ovsdb_table *t, const struct ovsdb_monitor *mon,
    const struct ovsdb_mon_tbl *mt, const struct ovsdb_row *o,
    const struct ovsdb_row *n)
{
	int	om = o != NULL && ovsdb_where_match(t, o, mt->where, 1);
	int	nm = n != NULL && ovsdb_where_match(t, n, mt->where, 1);

	if (om && nm)
		return (mt->select & OVSDB_SEL_MODIFY) ?
		    ovsdb_mon_modify(t, mon, mt, o, n) : NULL;
	if (nm)
		return ovsdb_mon_whole(t, mon, mt, n, OVSDB_CH_INSERT);
	if (om)
		return ovsdb_mon_whole(t, mon, mt, o, OVSDB_CH_DELETE);
	return NULL;
}

static void
ovsdb_mon_put(json_t *rows, const struct ovsdb_row *r, json_t *u)
{
	char	s[OVSDB_UUID_STRLEN];

	if (u == NULL)
		return;
	ovsdb_uuid_fmt(r->uuid, s);
	json_object_set_new(rows, s, u);
}

/* Walk old and new rows (both sorted by UUID) side by side. */
static json_t *
ovsdb_mon_diff(const struct ovsdb_table *t, const struct ovsdb_monitor *mon,
    const struct ovsdb_mon_tbl *mt, const struct ovsdb_tbl *ot,
    const struct ovsdb_tbl *nt)
{
	json_t			*rows = json_object();
	const struct ovsdb_row	*o, *n;
	uint32_t		 i = 0, k = 0;
	int			 r;

	while (i < ot->n || k < nt->n) {
		o = i < ot->n ? ot->rows[i] : NULL;
		n = k < nt->n ? nt->rows[k] : NULL;
		r = o == NULL ? 1 : n == NULL ? -1 : memcmp(o->uuid, n->uuid,
		    OVSDB_UUID_LEN);
		if (r < 0) {
			ovsdb_mon_put(rows, o, ovsdb_mon_change(t, mon, mt, o,
			    NULL));
			i++;
		} else if (r > 0) {
			ovsdb_mon_put(rows, n, ovsdb_mon_change(t, mon, mt,
			    NULL, n));
			k++;
		} else {
			if (o != n)
				ovsdb_mon_put(rows, n, ovsdb_mon_change(t, mon,
				    mt, o, n));
			i++;
			k++;
		}
	}
	return rows;
}

/* <table-updates> of a monitor from old to new (old NULL: initial). */
static json_t *
ovsdb_mon_updates(const struct ovsdb_monitor *mon, const struct ovsdb_db *old,
    const struct ovsdb_db *new)
{
	const struct ovsdb_schema	*s = new->schema;
	json_t				*tu = json_object(), *rows;
	uint32_t			 i, ti, k;

	for (i = 0; i < mon->nt; i++) {
		ti = mon->t[i].ti;
		if (old != NULL)
			rows = ovsdb_mon_diff(&s->tables[ti], mon, &mon->t[i],
			    &old->t[ti], &new->t[ti]);
		else {
			rows = json_object();
			for (k = 0; k < new->t[ti].n; k++)
				if (ovsdb_where_match(&s->tables[ti],
				    new->t[ti].rows[k], mon->t[i].where, 1))
					ovsdb_mon_put(rows, new->t[ti].rows[k],
					    ovsdb_mon_whole(&s->tables[ti], mon,
					    &mon->t[i], new->t[ti].rows[k],
					    OVSDB_CH_INITIAL));
		}
		if (json_object_size(rows) > 0)
			json_object_set_new(tu, s->tables[ti].name, rows);
		else
			json_decref(rows);
	}
	return tu;
}

/* ---- the methods ---- */

static struct ovsdb_monitor *
ovsdb_monitor_find(struct ovsdb_conn *conn, const json_t *id)
{
	struct ovsdb_monitor	*mon;

	TAILQ_FOREACH(mon, &conn->monitors, entry)
		if (json_equal(mon->id, (json_t *)id))
			return mon;
	return NULL;
}

/* The run hears of each table a monitor of the device's own database
 * takes (_Server's are a client's own business). */
static void
ovsdb_mon_watch(struct ovsdb_conn *conn, const struct ovsdb_monitor *mon,
    const struct ovsdb_db *db)
{
	const struct ovsdb_server	*srv = conn->srv;
	uint32_t			 i;

	if (srv->watch == NULL || db != srv->db)
		return;
	for (i = 0; i < mon->nt; i++)
		srv->watch->monitor(srv->watch_arg, conn, mon->t[i].ti);
}

json_t *
ovsdb_monitor_add(struct ovsdb_conn *conn, int version, json_t *params,
    json_t **err)
{
	struct ovsdb_monitor	*mon;
	struct ovsdb_db		*db;
	json_t			*id = json_array_get(params, 1), *tu;

	if (id == NULL || json_array_size(params) < (version == 3 ? 4u : 3u)) {
		*err = ovsdb_error("syntax error", "monitor takes [db, id, "
		    "requests%s]", version == 3 ? ", last-txn-id" : "");
		return NULL;
	}
	if ((db = ovsdb_server_db(conn->srv, "monitor", params, err)) == NULL)
		return NULL;
	if (ovsdb_monitor_find(conn, id) != NULL) {
		*err = ovsdb_error("duplicate monitor ID", "a monitor with "
		    "this ID exists");
		return NULL;
	}
	if ((mon = ovsdb_mon_parse(db->schema, version, json_array_get(params,
	    2), err)) == NULL)
		return NULL;
	mon->id = json_incref(id);
	TAILQ_INSERT_TAIL(&conn->monitors, mon, entry);
	(*conn->srv->c->monitors)++;
	ovsdb_mon_watch(conn, mon, db);
	tu = ovsdb_mon_updates(mon, NULL, db);
	if (version < 3)
		return tu;
	/* Nothing kept to resume from: found false, everything anew. */
	return json_pack("[bso]", 0, OVSDB_TXN_ZERO, tu);
}

json_t *
ovsdb_monitor_cancel(struct ovsdb_conn *conn, json_t *params, json_t **err)
{
	struct ovsdb_monitor	*mon;

	if (json_array_size(params) != 1 || (mon = ovsdb_monitor_find(conn,
	    json_array_get(params, 0))) == NULL) {
		*err = json_string("unknown monitor");	/* as ovsdb-server */
		return NULL;
	}
	TAILQ_REMOVE(&conn->monitors, mon, entry);
	ovsdb_monitor_free(mon);
	(*conn->srv->c->monitor_cancels)++;
	return json_object();
}

static json_t	*ovsdb_monitor_msg(struct ovsdb_conn *,
		    const struct ovsdb_monitor *, json_t *);

/* One table's new condition compiled: the monitored table it is for. */
static struct ovsdb_mon_tbl *
ovsdb_mon_cond(const struct ovsdb_monitor *mon, const char *name,
    json_t *reqs, json_t **where, json_t **err)
{
	const struct ovsdb_table	*t;
	json_t				*req;
	uint32_t			 i;

	for (i = 0; i < mon->nt; i++) {
		t = &mon->schema->tables[mon->t[i].ti];
		if (strcmp(t->name, name) != 0)
			continue;
		req = json_is_array(reqs) ? json_array_get(reqs, 0) : reqs;
		*where = ovsdb_where_compile(t, json_object_get(req, "where"),
		    NULL, err);
		return *where != NULL ? &mon->t[i] : NULL;
	}
	*err = ovsdb_error("syntax error", "no table named %s in monitor "
	    "session", name);
	return NULL;
}

/* The rows a new condition lets in (inserts) or out (deletes). */
static json_t *
ovsdb_mon_recond(const struct ovsdb_monitor *mon, const struct ovsdb_db *db,
    const struct ovsdb_mon_tbl *mt, const json_t *where)
{
	const struct ovsdb_table	*t = &db->schema->tables[mt->ti];
	const struct ovsdb_tbl		*tb = &db->t[mt->ti];
	json_t				*rows = json_object();
	uint32_t			 k;
	int				 was, is;

	for (k = 0; k < tb->n; k++) {
		was = ovsdb_where_match(t, tb->rows[k], mt->where, 1);
		is = ovsdb_where_match(t, tb->rows[k], where, 1);
		if (was != is)
			ovsdb_mon_put(rows, tb->rows[k], ovsdb_mon_whole(t, mon,
			    mt, tb->rows[k], is ? OVSDB_CH_INSERT :
			    OVSDB_CH_DELETE));
	}
	return rows;
}

/*
 * monitor_cond_change (ovsdb-server(7)): [id, new id, {table: [{where}]}]
 * gives a monitor new conditions (all or none of them) and maybe a new
 * id; the rows they let in or out follow the reply as inserts and
 * deletes.
 */
json_t *
ovsdb_monitor_change(struct ovsdb_conn *conn, json_t *params, json_t **err)
{
	struct ovsdb_monitor	*mon, *other;
	struct ovsdb_mon_tbl	*mts[64];
	json_t			*wheres = json_array(), *w, *v, *tu;
	const char		*name;
	size_t			 n = 0, i;

	mon = ovsdb_monitor_find(conn, json_array_get(params, 0));
	other = ovsdb_monitor_find(conn, json_array_get(params, 1));
	if (mon == NULL || mon->version == 1 || json_array_size(params) != 3 ||
	    !json_is_object(json_array_get(params, 2)) ||
	    (other != NULL && other != mon)) {
		json_decref(wheres);
		*err = ovsdb_error("syntax error", mon == NULL ? "unknown "
		    "monitor session" : "a bad monitor_cond_change");
		return NULL;
	}
	json_object_foreach(json_array_get(params, 2), name, v) {
		if (n == sizeof(mts) / sizeof(mts[0]) ||
		    (mts[n] = ovsdb_mon_cond(mon, name, v, &w, err)) == NULL) {
			json_decref(wheres);
			if (*err == NULL)
				*err = ovsdb_error("syntax error", "too many");
			return NULL;
		}
		json_array_append_new(wheres, w);
		n++;
	}
	tu = json_object();
	for (i = 0; i < n; i++) {
		w = json_array_get(wheres, i);
		v = ovsdb_mon_recond(mon, conn->srv->db, mts[i], w);
		if (json_object_size(v) > 0)
			json_object_set(tu,
			    mon->schema->tables[mts[i]->ti].name, v);
		json_decref(v);
		json_decref(mts[i]->where);
		mts[i]->where = json_incref(w);
	}
	json_decref(wheres);
	json_decref(mon->id);
	mon->id = json_incref(json_array_get(params, 1));
	if (json_object_size(tu) > 0)
		conn->after = ovsdb_monitor_msg(conn, mon, tu);
	json_decref(tu);
	return json_object();
}

/* An update notification of a monitor (counted when made). */
static json_t *
ovsdb_monitor_msg(struct ovsdb_conn *conn, const struct ovsdb_monitor *mon,
    json_t *tu)
{
	static const char *const methods[] = { NULL, "update", "update2",
	    "update3" };
	json_t			*params;

	if (mon->version == 3)
		params = json_pack("[OsO]", mon->id, OVSDB_TXN_ZERO, tu);
	else
		params = json_pack("[OO]", mon->id, tu);
	(*conn->srv->c->updates_sent)++;
	return json_pack("{sssosn}", "method", methods[mon->version],
	    "params", params, "id");
}

void
ovsdb_monitors_update(struct ovsdb_server *srv, const struct ovsdb_db *old,
    const struct ovsdb_db *new)
{
	struct ovsdb_conn	*conn;
	struct ovsdb_monitor	*mon;
	json_t			*tu;

	LIST_FOREACH(conn, &srv->conns, entry)
		TAILQ_FOREACH(mon, &conn->monitors, entry) {
			if (mon->schema != new->schema)
				continue;	/* _Server's never change */
			tu = ovsdb_mon_updates(mon, old, new);
			if (json_object_size(tu) > 0)
				ovsdb_conn_send(conn, ovsdb_monitor_msg(conn,
				    mon, tu));
			json_decref(tu);
		}
}
