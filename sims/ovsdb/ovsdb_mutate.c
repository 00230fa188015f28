/*
 * Mutations (RFC 7047 section 5.1, <mutation>, and 5.2.4): arithmetic on
 * integer and real columns (on each element of a set), insert and delete
 * on sets and maps; and the comparison of the "wait" operation (5.2.6).
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "ovsdb_db.h"
#include "ovsdb_txn.h"

enum ovsdb_mutator {
	OVSDB_ADD, OVSDB_SUB, OVSDB_MUL, OVSDB_DIV, OVSDB_MOD,
	OVSDB_INSERT, OVSDB_DELETE,
};

static const char *const ovsdb_mutator_names[] = {
	[OVSDB_ADD] = "+=", [OVSDB_SUB] = "-=", [OVSDB_MUL] = "*=",
	[OVSDB_DIV] = "/=", [OVSDB_MOD] = "%=", [OVSDB_INSERT] = "insert",
	[OVSDB_DELETE] = "delete",
};

/* A column of c's key type alone: one atom (arithmetic) or a set of any
 * size (a map's keys to delete); unconstrained for arithmetic, whose
 * result is what is checked. */
static void
ovsdb_key_column(const struct ovsdb_column *c, int arith,
    struct ovsdb_column *k)
{
	memset(k, 0, sizeof(*k));
	k->name = c->name;
	k->key = c->key;
	k->value.type = OVSDB_VOID;
	k->min = 1;
	k->max = arith ? 1 : OVSDB_UNLIMITED;
	if (!arith)
		return;
	k->key.enums = NULL;
	k->key.imin = INT64_MIN;
	k->key.imax = INT64_MAX;
	k->key.rmin = -1e308;
	k->key.rmax = 1e308;
}

/* Is mutator m allowed on column c (section 5.1)? */
static int
ovsdb_mutator_ok(const struct ovsdb_column *c, int m)
{
	int	num = c->key.type == OVSDB_INTEGER || c->key.type == OVSDB_REAL;

	if (m >= OVSDB_INSERT)
		return c->max > 1 || c->min == 0;
	if (c->value.type != OVSDB_VOID || !num)
		return 0;
	return m != OVSDB_MOD || c->key.type == OVSDB_INTEGER;
}

/* The value of one mutation, as its mutator wants it. */
static json_t *
ovsdb_mutation_value(struct ovsdb_txn *x, const struct ovsdb_column *c,
    int m, json_t *v, json_t **err)
{
	struct ovsdb_column	k;
	const char		*tag = json_string_value(json_array_get(v, 0));

	if (m < OVSDB_INSERT || (m == OVSDB_DELETE &&
	    c->value.type != OVSDB_VOID && (tag == NULL ||
	    strcmp(tag, "map") != 0))) {
		ovsdb_key_column(c, m < OVSDB_INSERT, &k);
		return ovsdb_datum_parse(&k, v, &x->st, m >= OVSDB_INSERT, err);
	}
	return ovsdb_datum_parse(c, v, &x->st, 1, err);
}

static json_t *
ovsdb_mutation_compile(void *txn, const struct ovsdb_table *t, json_t *mu,
    json_t **err)
{
	const char	*cn, *mn;
	json_t		*v;
	int		 c, m;

	if ((c = ovsdb_triple_column(t, mu, "mutation", "mutator", &mn,
	    err)) == -1)
		return NULL;
	cn = t->cols[c].name;
	if (c < OVSDB_COL_FIRST || !t->cols[c].is_mutable) {
		*err = ovsdb_error("constraint violation", "Cannot mutate "
		    "immutable column %s in table %s.", cn, t->name);
		return NULL;
	}
	if ((m = ovsdb_name_find(ovsdb_mutator_names, OVSDB_ADD,
	    OVSDB_DELETE, mn)) == -1 ||
	    !ovsdb_mutator_ok(&t->cols[c], m)) {
		*err = ovsdb_error("syntax error", "Type mismatch: \"%s\" "
		    "operator may not be applied to column %s.", mn, cn);
		return NULL;
	}
	if ((v = ovsdb_mutation_value(txn, &t->cols[c], m, json_array_get(mu,
	    2), err)) == NULL)
		return NULL;
	return json_pack("[iio]", c, m, v);
}

json_t *
ovsdb_mutations_compile(struct ovsdb_txn *x, const struct ovsdb_table *t,
    json_t *muts, json_t **err)
{
	return ovsdb_compile_each(t, muts, "mutations", ovsdb_mutation_compile,
	    x, err);
}

/* ---- applying them ---- */

/* Index of key in a canonical value (sorted), or -1. */
static long
ovsdb_datum_find(const json_t *d, const json_t *key)
{
	long	lo = 0, hi = (long)ovsdb_datum_n(d), mid;
	int	r;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((r = ovsdb_atom_cmp(ovsdb_datum_key(d, (size_t)mid), key))
		    == 0)
			return mid;
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* One element of an arithmetic mutation; NULL with *err. */
static json_t *
ovsdb_arith(const struct ovsdb_base *b, int m, const json_t *a,
    const json_t *v, json_t **err)
{
	json_int_t	x = json_integer_value(a), y = json_integer_value(v);
	double		dx = json_number_value(a), dy = json_number_value(v);

	if ((m == OVSDB_DIV || m == OVSDB_MOD) && (b->type == OVSDB_INTEGER ?
	    y == 0 : dy == 0)) {
		*err = ovsdb_error("domain error", "Division by zero.");
		return NULL;
	}
	if (b->type == OVSDB_REAL)
		return json_real(m == OVSDB_ADD ? dx + dy : m == OVSDB_SUB ?
		    dx - dy : m == OVSDB_MUL ? dx * dy : dx / dy);
	if ((m == OVSDB_ADD && __builtin_add_overflow(x, y, &x)) ||
	    (m == OVSDB_SUB && __builtin_sub_overflow(x, y, &x)) ||
	    (m == OVSDB_MUL && __builtin_mul_overflow(x, y, &x)) ||
	    (m == OVSDB_DIV && y == -1 && x == INT64_MIN)) {
		*err = ovsdb_error("range error", "Result of \"%s\" operation "
		    "is out of range.", ovsdb_mutator_names[m]);
		return NULL;
	}
	if (m == OVSDB_DIV)
		x /= y;
	else if (m == OVSDB_MOD)
		x %= y;
	return json_integer(x);
}

/* Arithmetic on every element; the result within the column's range. */
static int
ovsdb_mutate_arith(const struct ovsdb_column *c, int m, const json_t *cur,
    const json_t *v, json_t *keys, json_t **err)
{
	struct ovsdb_column	 k;
	json_t			*a, *chk;
	size_t			 i;

	ovsdb_key_column(c, 0, &k);
	for (i = 0; i < ovsdb_datum_n(cur); i++) {
		if ((a = ovsdb_arith(&c->key, m, ovsdb_datum_key(cur, i),
		    ovsdb_datum_key(v, 0), err)) == NULL)
			return -1;
		chk = ovsdb_datum_parse(&k, a, NULL, 1, err);
		json_decref(chk);
		if (chk == NULL) {
			json_decref(a);
			return -1;
		}
		json_array_append_new(keys, a);
	}
	return 0;
}

/* Insert or delete: which elements of cur and v the result keeps. */
static void
ovsdb_mutate_set(int m, const json_t *cur, const json_t *v, json_t *keys,
    json_t *vals)
{
	size_t	i;
	long	at;
	json_t	*vv;

	for (i = 0; i < ovsdb_datum_n(cur); i++) {
		at = ovsdb_datum_find(v, ovsdb_datum_key(cur, i));
		vv = at == -1 ? NULL : ovsdb_datum_val(v, (size_t)at);
		/* delete: a key listed, or a pair equal in both. */
		if (m == OVSDB_DELETE && at != -1 && (vv == NULL ||
		    json_equal(vv, ovsdb_datum_val(cur, i))))
			continue;
		json_array_append(keys, ovsdb_datum_key(cur, i));
		if (vals != NULL)
			json_array_append(vals, ovsdb_datum_val(cur, i));
	}
	for (i = 0; m == OVSDB_INSERT && i < ovsdb_datum_n(v); i++) {
		if (ovsdb_datum_find(cur, ovsdb_datum_key(v, i)) != -1)
			continue;	/* a map keeps its pair (5.1) */
		json_array_append(keys, ovsdb_datum_key(v, i));
		if (vals != NULL)
			json_array_append(vals, ovsdb_datum_val(v, i));
	}
}

static int
ovsdb_mutation_apply(const struct ovsdb_table *t, struct ovsdb_row *r,
    const json_t *mu, json_t **err)
{
	uint32_t		 c = (uint32_t)json_integer_value(
	    json_array_get(mu, 0));
	int			 m = (int)json_integer_value(
	    json_array_get(mu, 1));
	const struct ovsdb_column *col = &t->cols[c];
	json_t			*keys = json_array(), *vals = NULL, *d;

	if (col->value.type != OVSDB_VOID)
		vals = json_array();
	if (m < OVSDB_INSERT) {
		if (ovsdb_mutate_arith(col, m, r->col[c], json_array_get(mu, 2),
		    keys, err) == -1) {
			json_decref(keys);
			return -1;
		}
	} else
		ovsdb_mutate_set(m, r->col[c], json_array_get(mu, 2), keys,
		    vals);
	if ((d = ovsdb_datum_make(col, keys, vals)) == NULL) {
		*err = ovsdb_error("constraint violation", "Result of \"%s\" "
		    "operation contains duplicates.", ovsdb_mutator_names[m]);
		return -1;
	}
	if (ovsdb_datum_n(d) < col->min || ovsdb_datum_n(d) > col->max) {
		*err = ovsdb_error("constraint violation", "Attempted to store "
		    "%zu elements in %s column %s (%u to %u allowed).",
		    ovsdb_datum_n(d), t->name, col->name, col->min, col->max);
		json_decref(d);
		return -1;
	}
	ovsdb_row_set(r, c, d);
	return 0;
}

int
ovsdb_mutations_apply(const struct ovsdb_table *t, struct ovsdb_row *r,
    const json_t *muts, json_t **err)
{
	json_t	*mu;
	size_t	 i;

	json_array_foreach(muts, i, mu)
		if (ovsdb_mutation_apply(t, r, mu, err) == -1)
			return -1;
	return 0;
}

/* ---- wait (5.2.6) ---- */

/* A <row> of "rows" made canonical, to compare with a selected row. */
static json_t *
ovsdb_wait_row(struct ovsdb_txn *x, const struct ovsdb_table *t, json_t *row,
    json_t **err)
{
	json_t		*out = json_object(), *v, *d;
	const char	*name;
	int		 c;

	json_object_foreach(row, name, v) {
		if ((c = ovsdb_column_find(t, name)) == -1) {
			*err = ovsdb_error("unknown column", "No column %s in "
			    "table %s.", name, t->name);
			json_decref(out);
			return NULL;
		}
		if ((d = ovsdb_datum_parse(&t->cols[c], v, &x->st, 0, err)) ==
		    NULL) {
			json_decref(out);
			return NULL;
		}
		json_object_set_new(out, name, d);
	}
	return out;
}

int
ovsdb_wait_equal(struct ovsdb_txn *x, const struct ovsdb_table *t,
    json_t *selected, json_t *rows, json_t **err)
{
	json_t	*row, *want;
	uint8_t	*used;
	size_t	 i, k, n = json_array_size(selected);
	int	 eq = json_array_size(rows) == n;

	used = xcalloc(n ? n : 1, 1);
	json_array_foreach(rows, i, row) {
		if ((want = ovsdb_wait_row(x, t, row, err)) == NULL) {
			free(used);
			return -1;
		}
		for (k = 0; k < n; k++)
			if (!used[k] && json_equal(want,
			    json_array_get(selected, k)))
				break;
		if (k == n)
			eq = 0;
		else
			used[k] = 1;
		json_decref(want);
	}
	free(used);
	return eq;
}
