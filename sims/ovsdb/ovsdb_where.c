/*
 * Conditions (RFC 7047 section 5.1, <condition>, and the functions of
 * section 5.1 "<function>"): compiled once per operation or monitor,
 * then matched against rows.
 */
#include <string.h>

#include "ovsdb_db.h"

enum ovsdb_func {
	OVSDB_LT, OVSDB_LE, OVSDB_EQ, OVSDB_NE, OVSDB_GE, OVSDB_GT,
	OVSDB_INCLUDES, OVSDB_EXCLUDES,
};

static const char *const ovsdb_func_names[] = {
	[OVSDB_LT] = "<", [OVSDB_LE] = "<=", [OVSDB_EQ] = "==",
	[OVSDB_NE] = "!=", [OVSDB_GE] = ">=", [OVSDB_GT] = ">",
	[OVSDB_INCLUDES] = "includes", [OVSDB_EXCLUDES] = "excludes",
};

int
ovsdb_triple_column(const struct ovsdb_table *t, const json_t *triple,
    const char *what, const char *role, const char **name, json_t **err)
{
	const char	*cn = json_string_value(json_array_get(triple, 0));
	int		 col;

	*name = json_string_value(json_array_get(triple, 1));
	if (json_array_size(triple) != 3 || cn == NULL || *name == NULL) {
		*err = ovsdb_error("syntax error", "a %s is [column, %s, "
		    "value]", what, role);
		return -1;
	}
	if ((col = ovsdb_column_find(t, cn)) == -1)
		*err = ovsdb_error("unknown column", "No column %s in table "
		    "%s.", cn, t->name);
	return col;
}

json_t *
ovsdb_compile_each(const struct ovsdb_table *t, json_t *list,
    const char *what, ovsdb_compile_fn *one, void *arg, json_t **err)
{
	json_t	*out, *el, *c;
	size_t	 i;

	if (!json_is_array(list)) {
		*err = ovsdb_error("syntax error", "%s is not an array", what);
		return NULL;
	}
	out = json_array();
	json_array_foreach(list, i, el) {
		if ((c = one(arg, t, el, err)) == NULL) {
			json_decref(out);
			return NULL;
		}
		json_array_append_new(out, c);
	}
	return out;
}

/* One [column, function, value] into [index, function, value]; true and
 * false stay as they are. */
static json_t *
ovsdb_clause_compile(void *symtab, const struct ovsdb_table *t, json_t *cl,
    json_t **err)
{
	const struct ovsdb_column	*c;
	const char			*cn, *fn;
	json_t				*v;
	int				 col, f;

	if (json_is_boolean(cl))
		return json_incref(cl);
	if ((col = ovsdb_triple_column(t, cl, "clause", "function", &fn,
	    err)) == -1)
		return NULL;
	c = &t->cols[col];
	cn = c->name;
	/* Section 5.1: <, <=, >=, > only on a scalar integer or real. */
	if ((f = ovsdb_name_find(ovsdb_func_names, OVSDB_LT,
	    OVSDB_EXCLUDES, fn)) == -1 || (f <= OVSDB_GT && f != OVSDB_EQ
	    && f != OVSDB_NE && (c->max != 1 || (c->key.type != OVSDB_INTEGER &&
	    c->key.type != OVSDB_REAL)))) {
		*err = ovsdb_error("syntax error", "Type mismatch: \"%s\" "
		    "operator may not be applied to column %s.", fn, cn);
		return NULL;
	}
	if ((v = ovsdb_datum_parse(c, json_array_get(cl, 2), symtab, 1,
	    err)) == NULL)
		return NULL;
	return json_pack("[iio]", col, f, v);
}

/* No where at all: no clause. */
json_t *
ovsdb_where_compile(const struct ovsdb_table *t, json_t *where,
    struct ovsdb_symtab *st, json_t **err)
{
	if (where == NULL)
		return json_array();
	return ovsdb_compile_each(t, where, "where", ovsdb_clause_compile, st,
	    err);
}

/* Is every element (key, or key and value) of sub in d? */
static int
ovsdb_includes(const json_t *d, const json_t *sub)
{
	size_t	 i, k, n = ovsdb_datum_n(d);
	json_t	*sv;

	for (i = 0; i < ovsdb_datum_n(sub); i++) {
		sv = ovsdb_datum_val(sub, i);
		for (k = 0; k < n; k++)
			if (ovsdb_atom_cmp(ovsdb_datum_key(d, k),
			    ovsdb_datum_key(sub, i)) == 0 && (sv == NULL ||
			    json_equal(sv, ovsdb_datum_val(d, k))))
				break;
		if (k == n)
			return 0;
	}
	return 1;
}

/* Does any element of sub appear in d? */
static int
ovsdb_meets(const json_t *d, const json_t *sub)
{
	size_t	i;
	json_t	*one;
	int	 hit;

	for (i = 0; i < ovsdb_datum_n(sub); i++) {
		one = ovsdb_datum_val(sub, i) != NULL ? json_pack("[s[[OO]]]",
		    "map", ovsdb_datum_key(sub, i), ovsdb_datum_val(sub, i)) :
		    json_incref(ovsdb_datum_key(sub, i));
		hit = ovsdb_includes(d, one);
		json_decref(one);
		if (hit)
			return 1;
	}
	return 0;
}

static int
ovsdb_compare(int f, const json_t *d, const json_t *v)
{
	int	r;

	switch (f) {
	case OVSDB_EQ:
		return json_equal((json_t *)d, (json_t *)v);
	case OVSDB_NE:
		return !json_equal((json_t *)d, (json_t *)v);
	case OVSDB_INCLUDES:
		return ovsdb_includes(d, v);
	case OVSDB_EXCLUDES:
		return !ovsdb_meets(d, v);
	}
	/* An optional number with no value compares false. */
	if (ovsdb_datum_n(d) != 1 || ovsdb_datum_n(v) != 1)
		return 0;
	r = ovsdb_atom_cmp(ovsdb_datum_key(d, 0), ovsdb_datum_key(v, 0));
	return (f == OVSDB_LT && r < 0) || (f == OVSDB_LE && r <= 0) ||
	    (f == OVSDB_GE && r >= 0) || (f == OVSDB_GT && r > 0);
}

static int
ovsdb_clause_match(const struct ovsdb_table *t, const struct ovsdb_row *r,
    const json_t *cl)
{
	json_t	*d;
	int	 m;

	if (json_is_boolean(cl))
		return json_is_true(cl);
	d = ovsdb_row_get(t, r, (uint32_t)json_integer_value(
	    json_array_get(cl, 0)));
	m = ovsdb_compare((int)json_integer_value(json_array_get(cl, 1)), d,
	    json_array_get(cl, 2));
	json_decref(d);
	return m;
}

int
ovsdb_where_match(const struct ovsdb_table *t, const struct ovsdb_row *r,
    const json_t *compiled, int any)
{
	size_t	i, n = json_array_size(compiled);

	if (n == 0)
		return 1;
	for (i = 0; i < n; i++)
		if (ovsdb_clause_match(t, r, json_array_get(compiled, i)) ==
		    any)
			return any;
	return !any;
}

int
ovsdb_where_uuid(const json_t *compiled, uint8_t *uuid)
{
	const json_t	*cl, *v;
	size_t		 i;

	for (i = 0; i < json_array_size(compiled); i++) {
		cl = json_array_get(compiled, i);
		if (json_integer_value(json_array_get(cl, 0)) !=
		    OVSDB_COL_UUID ||
		    json_integer_value(json_array_get(cl, 1)) != OVSDB_EQ)
			continue;
		v = json_array_get(cl, 2);
		if (ovsdb_datum_n(v) == 1 && ovsdb_uuid_parse(json_string_value(
		    json_array_get(ovsdb_datum_key(v, 0), 1)), uuid) == 0)
			return 1;
	}
	return 0;
}
