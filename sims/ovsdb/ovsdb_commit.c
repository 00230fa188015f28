/*
 * Committing a transaction (RFC 7047 section 4.1.3 and 3.2; the order is
 * ovsdb-server's): strong references must name rows that exist
 * ("referential integrity violation"), rows of non-root tables that no
 * strong reference holds any more are deleted (garbage collection,
 * section 3.2 "isRoot"), tables stay within maxRows, weak references to
 * rows that are gone are dropped, and no two rows share the values of an
 * index ("constraint violation").
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "ovsdb_db.h"
#include "ovsdb_txn.h"

/* A reference found in a row: where it is and whom it names. */
struct ovsdb_ref {
	uint32_t		 ti, pos, col;
	const struct ovsdb_base	*base;
	const json_t		*atom;		/* ["uuid", "..."] */
};

typedef int	(*ovsdb_ref_fn)(struct ovsdb_db *, const struct ovsdb_ref *,
		    void *);

/* The row a reference names, or NULL. */
static struct ovsdb_row *
ovsdb_ref_target(const struct ovsdb_db *db, const struct ovsdb_ref *ref,
    uint32_t *pos)
{
	uint8_t	u[OVSDB_UUID_LEN];

	if (ovsdb_uuid_parse(json_string_value(json_array_get(ref->atom, 1)),
	    u) == -1)
		return NULL;
	return ovsdb_tbl_find(&db->t[ref->base->ref_table], u, pos);
}

/* Every reference of one column of one row; stops at fn's -1.  The
 * elements are walked directly: a set of many references is common. */
static int
ovsdb_refs_cell(struct ovsdb_db *db, struct ovsdb_ref *ref, ovsdb_ref_fn fn,
    void *arg)
{
	const struct ovsdb_column	*c;
	const json_t			*d, *elems, *e;
	size_t				 i, n;
	int				 map;

	c = &db->schema->tables[ref->ti].cols[ref->col];
	d = db->t[ref->ti].rows[ref->pos]->col[ref->col];
	map = c->value.type != OVSDB_VOID;
	elems = ovsdb_datum_n(d) == 1 && !map ? NULL : json_array_get(d, 1);
	n = elems != NULL ? json_array_size(elems) : 1;
	for (i = 0; i < n; i++) {
		e = elems != NULL ? json_array_get(elems, i) : d;
		ref->base = &c->key;
		ref->atom = map ? json_array_get(e, 0) : e;
		if (c->key.ref_table >= 0 && fn(db, ref, arg) == -1)
			return -1;
		ref->base = &c->value;
		ref->atom = map ? json_array_get(e, 1) : NULL;
		if (c->value.ref_table >= 0 && fn(db, ref, arg) == -1)
			return -1;
	}
	return 0;
}

static int
ovsdb_refs_walk(struct ovsdb_db *db, ovsdb_ref_fn fn, void *arg)
{
	const struct ovsdb_table	*t;
	struct ovsdb_ref		 ref;

	for (ref.ti = 0; ref.ti < db->schema->ntables; ref.ti++) {
		t = &db->schema->tables[ref.ti];
		for (ref.col = OVSDB_COL_FIRST; ref.col < t->ncols; ref.col++) {
			if (t->cols[ref.col].key.ref_table < 0 &&
			    t->cols[ref.col].value.ref_table < 0)
				continue;
			for (ref.pos = 0; ref.pos < db->t[ref.ti].n; ref.pos++)
				if (ovsdb_refs_cell(db, &ref, fn, arg) == -1)
					return -1;
		}
	}
	return 0;
}

/* ---- referential integrity ---- */

static int
ovsdb_ref_check(struct ovsdb_db *db, const struct ovsdb_ref *ref, void *arg)
{
	const struct ovsdb_table	*t = &db->schema->tables[ref->ti];
	json_t				**err = arg;
	char				 u[OVSDB_UUID_STRLEN];

	if (ref->base->weak || ovsdb_ref_target(db, ref, NULL) != NULL)
		return 0;
	ovsdb_uuid_fmt(db->t[ref->ti].rows[ref->pos]->uuid, u);
	*err = ovsdb_error("referential integrity violation", "Table %s "
	    "column %s row %s references nonexistent row %s in table %s.",
	    t->name, t->cols[ref->col].name, u, json_string_value(
	    json_array_get(ref->atom, 1)),
	    db->schema->tables[ref->base->ref_table].name);
	return -1;
}

/* ---- garbage collection ---- */

struct ovsdb_gc {
	uint32_t	**held;		/* strong references per row */
};

static int
ovsdb_ref_count(struct ovsdb_db *db, const struct ovsdb_ref *ref, void *arg)
{
	struct ovsdb_gc	*gc = arg;
	uint32_t	 pos;

	if (!ref->base->weak && gc->held[ref->base->ref_table] != NULL &&
	    ovsdb_ref_target(db, ref, &pos) != NULL)
		gc->held[ref->base->ref_table][pos]++;
	return 0;
}

/* One round: delete the unheld rows of non-root tables; how many. */
static uint32_t
ovsdb_gc_round(struct ovsdb_db *db, struct ovsdb_gc *gc)
{
	uint32_t	ti, pos, gone = 0;

	for (ti = 0; ti < db->schema->ntables; ti++)
		if (!db->schema->tables[ti].is_root)
			gc->held[ti] = xcalloc(db->t[ti].n + 1,
			    sizeof(**gc->held));
	ovsdb_refs_walk(db, ovsdb_ref_count, gc);
	for (ti = 0; ti < db->schema->ntables; ti++) {
		if (db->schema->tables[ti].is_root)
			continue;
		for (pos = db->t[ti].n; pos-- > 0; )
			if (gc->held[ti][pos] == 0) {
				ovsdb_db_remove(db, ti, pos);
				gone++;
			}
		free(gc->held[ti]);
		gc->held[ti] = NULL;
	}
	return gone;
}

static void
ovsdb_gc(struct ovsdb_db *db)
{
	struct ovsdb_gc	gc;

	gc.held = xcalloc(db->schema->ntables, sizeof(*gc.held));
	/* A row deleted may have held the last reference to another. */
	while (ovsdb_gc_round(db, &gc) > 0)
		;
	free(gc.held);
}

/* ---- maxRows ---- */

static json_t *
ovsdb_max_rows(const struct ovsdb_db *db)
{
	const struct ovsdb_table	*t;
	uint32_t			 ti;

	for (ti = 0; ti < db->schema->ntables; ti++) {
		t = &db->schema->tables[ti];
		if (db->t[ti].n > t->max_rows)
			return ovsdb_error("constraint violation",
			    "transaction causes \"%s\" table to contain %u "
			    "rows, greater than the schema-defined limit of %u "
			    "row(s)", t->name, db->t[ti].n, t->max_rows);
	}
	return NULL;
}

/* ---- weak references (section 3.2, refType) ---- */

/* Does element i of d name a row that exists (both ends of a map)? */
static int
ovsdb_weak_alive(const struct ovsdb_db *db, const struct ovsdb_column *c,
    const json_t *d, size_t i)
{
	struct ovsdb_ref	ref;

	memset(&ref, 0, sizeof(ref));
	ref.base = &c->key;
	ref.atom = ovsdb_datum_key(d, i);
	if (c->key.weak && ovsdb_ref_target(db, &ref, NULL) == NULL)
		return 0;
	ref.base = &c->value;
	ref.atom = ovsdb_datum_val(d, i);
	return !c->value.weak || ovsdb_ref_target(db, &ref, NULL) != NULL;
}

static void
ovsdb_weak_cell(struct ovsdb_db *db, uint32_t ti, uint32_t pos, uint32_t col)
{
	const struct ovsdb_column	*c = &db->schema->tables[ti].cols[col];
	const json_t			*d = db->t[ti].rows[pos]->col[col];
	json_t				*keys, *vals = NULL;
	size_t				 i, n = ovsdb_datum_n(d), kept = 0;

	for (i = 0; i < n; i++)
		kept += (size_t)ovsdb_weak_alive(db, c, d, i);
	if (kept == n)
		return;
	keys = json_array();
	if (c->value.type != OVSDB_VOID)
		vals = json_array();
	for (i = 0; i < n; i++) {
		if (!ovsdb_weak_alive(db, c, d, i))
			continue;
		json_array_append(keys, ovsdb_datum_key(d, i));
		if (vals != NULL)
			json_array_append(vals, ovsdb_datum_val(d, i));
	}
	ovsdb_row_set(ovsdb_db_writable(db, ti, pos), col,
	    ovsdb_datum_make(c, keys, vals));
}

static void
ovsdb_weak_refs(struct ovsdb_db *db)
{
	const struct ovsdb_table	*t;
	uint32_t			 ti, col, pos;

	for (ti = 0; ti < db->schema->ntables; ti++) {
		t = &db->schema->tables[ti];
		for (col = OVSDB_COL_FIRST; col < t->ncols; col++) {
			if (!t->cols[col].key.weak && !t->cols[col].value.weak)
				continue;
			for (pos = 0; pos < db->t[ti].n; pos++)
				ovsdb_weak_cell(db, ti, pos, col);
		}
	}
}

/* ---- indexes ---- */

/* Past this many rows changed in a table, its indexes are checked by
 * sorting the table rather than row by row. */
#define OVSDB_INDEX_SORT	16

static int
ovsdb_index_cmp(const void *a, const void *b, void *arg)
{
	const struct ovsdb_row	*x = *(struct ovsdb_row *const *)a;
	const struct ovsdb_row	*y = *(struct ovsdb_row *const *)b;
	const uint32_t		*cols = arg;
	int			 r;

	for (; *cols != 0; cols++)
		if ((r = ovsdb_datum_cmp(x->col[*cols], y->col[*cols])) != 0)
			return r;
	return 0;
}

static json_t *
ovsdb_index_error(const struct ovsdb_table *t, const uint32_t *cols)
{
	return ovsdb_error("constraint violation", "Transaction causes "
	    "multiple rows in \"%s\" table to have identical values for "
	    "index on column \"%s\".", t->name, t->cols[cols[0]].name);
}

/* One index over the whole table, sorted: neighbours must differ. */
static json_t *
ovsdb_index_sorted(const struct ovsdb_table *t, const struct ovsdb_tbl *tb,
    const uint32_t *cols)
{
	struct ovsdb_row	**rows;
	json_t			 *err = NULL;
	uint32_t		  k;

	rows = xreallocarray(NULL, tb->n, sizeof(*rows));
	memcpy(rows, tb->rows, tb->n * sizeof(*rows));
	qsort_r(rows, tb->n, sizeof(*rows), ovsdb_index_cmp, (void *)cols);
	for (k = 1; k < tb->n && err == NULL; k++)
		if (ovsdb_index_cmp(&rows[k - 1], &rows[k], (void *)cols) == 0)
			err = ovsdb_index_error(t, cols);
	free(rows);
	return err;
}

/* One changed row against every other row. */
static json_t *
ovsdb_index_row(const struct ovsdb_table *t, const struct ovsdb_tbl *tb,
    uint32_t pos, const uint32_t *cols)
{
	uint32_t	k;

	for (k = 0; k < tb->n; k++)
		if (k != pos && ovsdb_index_cmp(&tb->rows[pos], &tb->rows[k],
		    (void *)cols) == 0)
			return ovsdb_index_error(t, cols);
	return NULL;
}

static json_t *
ovsdb_index_table(const struct ovsdb_db *db, const struct ovsdb_db *cur,
    uint32_t ti, const uint32_t *cols)
{
	const struct ovsdb_tbl	*tb = &db->t[ti];
	const struct ovsdb_row	*r;
	uint32_t		 pos, changed[OVSDB_INDEX_SORT], n = 0, j = 0;
	json_t			*err = NULL;

	for (pos = 0; pos < tb->n; pos++) {
		r = tb->rows[pos];
		if (ovsdb_tbl_match(&cur->t[ti], &j, r) == r)
			continue;
		if (n == OVSDB_INDEX_SORT)
			return ovsdb_index_sorted(&db->schema->tables[ti], tb,
			    cols);
		changed[n++] = pos;
	}
	for (pos = 0; pos < n && err == NULL; pos++)
		err = ovsdb_index_row(&db->schema->tables[ti], tb, changed[pos],
		    cols);
	return err;
}

static json_t *
ovsdb_indexes(const struct ovsdb_db *db, const struct ovsdb_db *cur)
{
	const struct ovsdb_table	*t;
	json_t				*err;
	uint32_t			 ti, i;

	for (ti = 0; ti < db->schema->ntables; ti++) {
		t = &db->schema->tables[ti];
		for (i = 0; i < t->nindexes; i++)
			if ((err = ovsdb_index_table(db, cur, ti,
			    t->indexes[i])) != NULL)
				return err;
	}
	return NULL;
}

/* Did the transaction change a reference: delete a row, insert one
 * that may hold or be held by references, or change a column of
 * references?  If not, the reference checks and the garbage collection
 * have nothing to do (rows not rewritten are the same pointers). */
static int
ovsdb_refs_touched(const struct ovsdb_db *cur, const struct ovsdb_db *db)
{
	const struct ovsdb_table	*t;
	const struct ovsdb_row		*r, *was;
	uint32_t			 ti, pos, c, kept = 0, j = 0;

	for (ti = 0; ti < db->schema->ntables; ti++, kept = 0, j = 0) {
		t = &db->schema->tables[ti];
		for (pos = 0; pos < db->t[ti].n; pos++) {
			r = db->t[ti].rows[pos];
			was = ovsdb_tbl_match(&cur->t[ti], &j, r);
			if (was == NULL) {
				if (!t->is_root || t->has_refs)
					return 1;
				continue;
			}
			kept++;
			for (c = OVSDB_COL_FIRST; was != r && c < t->ncols; c++)
				if ((t->cols[c].key.ref_table >= 0 ||
				    t->cols[c].value.ref_table >= 0) &&
				    was->col[c] != r->col[c])
					return 1;
		}
		if (kept != cur->t[ti].n)
			return 1;		/* a row was deleted */
	}
	return 0;
}

json_t *
ovsdb_commit(struct ovsdb_txn *x, const struct ovsdb_db *cur)
{
	json_t	*err = NULL;
	int	 touched = ovsdb_refs_touched(cur, x->db);

	if (touched && ovsdb_refs_walk(x->db, ovsdb_ref_check, &err) == -1)
		return err;
	if (touched)
		ovsdb_gc(x->db);
	if ((err = ovsdb_max_rows(x->db)) != NULL)
		return err;
	if (touched)
		ovsdb_weak_refs(x->db);
	return ovsdb_indexes(x->db, cur);
}

/* ---- what changed ---- */

static int
ovsdb_row_same(const struct ovsdb_table *t, const struct ovsdb_row *a,
    const struct ovsdb_row *b)
{
	uint32_t	i;

	for (i = OVSDB_COL_FIRST; i < t->ncols; i++)
		if (a->col[i] != b->col[i] && !json_equal(a->col[i], b->col[i]))
			return 0;
	return 1;
}

int
ovsdb_db_changed(const struct ovsdb_db *cur, struct ovsdb_db *next)
{
	const struct ovsdb_table	*t;
	struct ovsdb_row		*was, *r;
	uint32_t			 ti, pos, j;
	int				 changed = 0;

	for (ti = 0; ti < cur->schema->ntables; ti++) {
		t = &cur->schema->tables[ti];
		changed |= cur->t[ti].n != next->t[ti].n;
		for (pos = 0, j = 0; pos < next->t[ti].n; pos++) {
			r = next->t[ti].rows[pos];
			if ((was = ovsdb_tbl_match(&cur->t[ti], &j, r)) == r)
				continue;
			if (was != NULL && ovsdb_row_same(t, was, r)) {
				ovsdb_db_share(next, ti, pos, was);
				continue;
			}
			/* Section 3.2: _version changes with the row. */
			if (was != NULL)
				ovsdb_uuid_random(r->version);
			changed = 1;
		}
	}
	return changed;
}
