/*
 * Rows and tables of a database (RFC 7047 section 3.2 and 5.2): each
 * table an array of rows sorted by UUID, rows shared between databases
 * by reference count and copied on write.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "ovsdb_db.h"

struct ovsdb_db *
ovsdb_db_new(const struct ovsdb_schema *s)
{
	struct ovsdb_db	*db;

	db = xcalloc(1, sizeof(*db) + s->ntables * sizeof(db->t[0]));
	db->schema = s;
	return db;
}

static void
ovsdb_row_unref(const struct ovsdb_table *t, struct ovsdb_row *r)
{
	uint32_t	i;

	if (--r->refs > 0)
		return;
	for (i = OVSDB_COL_FIRST; i < t->ncols; i++)
		json_decref(r->col[i]);
	free(r);
}

void
ovsdb_db_free(struct ovsdb_db *db)
{
	uint32_t	i, k;

	if (db == NULL)
		return;
	for (i = 0; i < db->schema->ntables; i++) {
		for (k = 0; k < db->t[i].n; k++)
			ovsdb_row_unref(&db->schema->tables[i],
			    db->t[i].rows[k]);
		free(db->t[i].rows);
	}
	free(db);
}

struct ovsdb_db *
ovsdb_db_clone(const struct ovsdb_db *cur)
{
	const struct ovsdb_schema	*s = cur->schema;
	struct ovsdb_db			*db = ovsdb_db_new(s);
	uint32_t			 i, k;

	for (i = 0; i < s->ntables; i++) {
		db->t[i].n = db->t[i].cap = cur->t[i].n;
		if (cur->t[i].n == 0)
			continue;
		db->t[i].rows = xreallocarray(NULL, cur->t[i].n,
		    sizeof(*db->t[i].rows));
		memcpy(db->t[i].rows, cur->t[i].rows, cur->t[i].n *
		    sizeof(*db->t[i].rows));
		for (k = 0; k < cur->t[i].n; k++)
			db->t[i].rows[k]->refs++;
	}
	return db;
}

struct ovsdb_row *
ovsdb_tbl_find(const struct ovsdb_tbl *t, const uint8_t *uuid,
    uint32_t *pos)
{
	uint32_t	lo = 0, hi = t->n, mid;
	int		r;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		r = memcmp(t->rows[mid]->uuid, uuid, OVSDB_UUID_LEN);
		if (r == 0) {
			if (pos != NULL)
				*pos = mid;
			return t->rows[mid];
		}
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (pos != NULL)
		*pos = lo;
	return NULL;
}

struct ovsdb_row *
ovsdb_tbl_match(const struct ovsdb_tbl *t, uint32_t *j,
    const struct ovsdb_row *r)
{
	int	c = 1;

	while (*j < t->n && t->rows[*j] != r &&
	    (c = memcmp(t->rows[*j]->uuid, r->uuid, OVSDB_UUID_LEN)) < 0)
		(*j)++;
	if (*j < t->n && (t->rows[*j] == r || c == 0))
		return t->rows[*j];
	return NULL;
}

static struct ovsdb_row *
ovsdb_row_alloc(const struct ovsdb_table *t)
{
	struct ovsdb_row	*r;

	r = xcalloc(1, sizeof(*r) + t->ncols * sizeof(r->col[0]));
	r->refs = 1;
	return r;
}

struct ovsdb_row *
ovsdb_db_insert(struct ovsdb_db *db, uint32_t ti, const uint8_t *uuid)
{
	const struct ovsdb_table	*t = &db->schema->tables[ti];
	struct ovsdb_tbl		*tb = &db->t[ti];
	struct ovsdb_row		*r;
	uint8_t				 u[OVSDB_UUID_LEN];
	uint32_t			 pos, i;

	if (uuid == NULL)
		ovsdb_uuid_random(u);
	else
		memcpy(u, uuid, sizeof(u));
	if (ovsdb_tbl_find(tb, u, &pos) != NULL)
		return NULL;
	r = ovsdb_row_alloc(t);
	memcpy(r->uuid, u, sizeof(u));
	ovsdb_uuid_random(r->version);
	for (i = OVSDB_COL_FIRST; i < t->ncols; i++)
		r->col[i] = json_incref(t->cols[i].dflt);
	if (tb->n == tb->cap) {
		tb->cap = tb->cap ? 2 * tb->cap : 4;
		tb->rows = xreallocarray(tb->rows, tb->cap, sizeof(*tb->rows));
	}
	memmove(tb->rows + pos + 1, tb->rows + pos, (tb->n - pos) *
	    sizeof(*tb->rows));
	tb->rows[pos] = r;
	tb->n++;
	return r;
}

/* Row pos of table ti, for the transaction to change: a copy when other
 * databases share it. */
struct ovsdb_row *
ovsdb_db_writable(struct ovsdb_db *db, uint32_t ti, uint32_t pos)
{
	const struct ovsdb_table	*t = &db->schema->tables[ti];
	struct ovsdb_row		*r = db->t[ti].rows[pos], *c;
	uint32_t			 i;

	if (r->refs == 1)
		return r;
	c = ovsdb_row_alloc(t);
	memcpy(c->uuid, r->uuid, sizeof(c->uuid));
	memcpy(c->version, r->version, sizeof(c->version));
	for (i = OVSDB_COL_FIRST; i < t->ncols; i++)
		c->col[i] = json_incref(r->col[i]);
	r->refs--;
	db->t[ti].rows[pos] = c;
	return c;
}

void
ovsdb_db_remove(struct ovsdb_db *db, uint32_t ti, uint32_t pos)
{
	struct ovsdb_tbl	*tb = &db->t[ti];

	ovsdb_row_unref(&db->schema->tables[ti], tb->rows[pos]);
	memmove(tb->rows + pos, tb->rows + pos + 1, (tb->n - pos - 1) *
	    sizeof(*tb->rows));
	tb->n--;
}

void
ovsdb_db_share(struct ovsdb_db *db, uint32_t ti, uint32_t pos,
    struct ovsdb_row *r)
{
	r->refs++;
	ovsdb_row_unref(&db->schema->tables[ti], db->t[ti].rows[pos]);
	db->t[ti].rows[pos] = r;
}

void
ovsdb_row_set(struct ovsdb_row *r, uint32_t col, json_t *v)
{
	json_decref(r->col[col]);
	r->col[col] = v;
}

json_t *
ovsdb_row_get(const struct ovsdb_table *t, const struct ovsdb_row *r,
    uint32_t c)
{
	(void)t;
	if (c == OVSDB_COL_UUID)
		return ovsdb_uuid_json(r->uuid);
	if (c == OVSDB_COL_VERSION)
		return ovsdb_uuid_json(r->version);
	return json_incref(r->col[c]);
}

/* The row as an object of the given columns (all when cols is NULL). */
json_t *
ovsdb_row_json(const struct ovsdb_table *t, const struct ovsdb_row *r,
    const uint8_t *cols)
{
	json_t		*o = json_object();
	uint32_t	 i;

	for (i = 0; i < t->ncols; i++)
		if (cols == NULL || cols[i])
			json_object_set_new(o, t->cols[i].name,
			    ovsdb_row_get(t, r, i));
	return o;
}

int
ovsdb_columns_set(const struct ovsdb_table *t, const json_t *cols,
    uint8_t *mask, json_t **err)
{
	json_t	*c;
	size_t	 i;
	int	 k;

	if (!json_is_array(cols)) {
		*err = ovsdb_error("syntax error", "columns is not an array");
		return -1;
	}
	json_array_foreach(cols, i, c) {
		if (!json_is_string(c) || (k = ovsdb_column_find(t,
		    json_string_value(c))) == -1) {
			*err = ovsdb_error("syntax error", "%s is not a valid "
			    "column name", json_is_string(c) ?
			    json_string_value(c) : "?");
			return -1;
		}
		mask[k] = 1;
	}
	return 0;
}
