/*
 * Database schemas (RFC 7047 section 3.2): the Open_vSwitch schema
 * (/usr/share/openvswitch/vswitch.ovsschema) or any other, parsed once
 * and shared by every device.  What the schema says that a transaction
 * needs is checked here once; a schema this code cannot follow is refused
 * with a message naming the table and column.
 */
#include <float.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "ovsdb_db.h"

static const char *const ovsdb_atype_names[] = {
	[OVSDB_INTEGER] = "integer",
	[OVSDB_REAL] = "real",
	[OVSDB_BOOLEAN] = "boolean",
	[OVSDB_STRING] = "string",
	[OVSDB_UUID] = "uuid",
};

/* Where a schema went wrong, for the message. */
struct ovsdb_where {
	const char	*table, *column;
	char		*err;
	size_t		 errlen;
};

/* The message behind where it is ("table T, column C: "), formatted
 * into w->err in place: no second buffer to cut it short. */
static int
ovsdb_schema_err(struct ovsdb_where *w, const char *fmt, ...)
{
	va_list	ap;
	int	n = 0;

	if (w->column != NULL)
		n = snprintf(w->err, w->errlen, "table %s, column %s: ",
		    w->table, w->column);
	else if (w->table != NULL)
		n = snprintf(w->err, w->errlen, "table %s: ", w->table);
	if (n >= 0 && (size_t)n < w->errlen) {
		va_start(ap, fmt);
		vsnprintf(w->err + n, w->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static void
ovsdb_base_defaults(struct ovsdb_base *b, int type)
{
	memset(b, 0, sizeof(*b));
	b->type = (uint8_t)type;
	b->ref_table = -1;
	b->imin = INT64_MIN;
	b->imax = INT64_MAX;
	b->rmin = -DBL_MAX;
	b->rmax = DBL_MAX;
	b->lmax = UINT64_MAX;
}

/* The numeric and length limits of a <base-type>. */
static void
ovsdb_base_limits(struct ovsdb_base *b, json_t *j)
{
	json_t	*v;

	if ((v = json_object_get(j, "minInteger")) != NULL)
		b->imin = json_integer_value(v);
	if ((v = json_object_get(j, "maxInteger")) != NULL)
		b->imax = json_integer_value(v);
	if ((v = json_object_get(j, "minReal")) != NULL)
		b->rmin = json_number_value(v);
	if ((v = json_object_get(j, "maxReal")) != NULL)
		b->rmax = json_number_value(v);
	if ((v = json_object_get(j, "minLength")) != NULL)
		b->lmin = (uint64_t)json_integer_value(v);
	if ((v = json_object_get(j, "maxLength")) != NULL)
		b->lmax = (uint64_t)json_integer_value(v);
}

/* refTable is resolved once every table is known: its name for now. */
static int
ovsdb_base_parse(struct ovsdb_base *b, json_t *j, struct ovsdb_where *w,
    const char **ref)
{
	json_t	*t, *rt;
	int	 type;

	*ref = NULL;
	t = json_is_object(j) ? json_object_get(j, "type") : j;
	if (!json_is_string(t) ||
	    (type = ovsdb_name_find(ovsdb_atype_names, OVSDB_INTEGER,
	    OVSDB_UUID, json_string_value(t))) == -1)
		return ovsdb_schema_err(w, "not an atomic type");
	ovsdb_base_defaults(b, type);
	if (!json_is_object(j))
		return 0;
	ovsdb_base_limits(b, j);
	if ((t = json_object_get(j, "enum")) != NULL)
		b->enums = json_incref(t);	/* checked when resolved */
	if ((t = json_object_get(j, "refTable")) != NULL) {
		if (type != OVSDB_UUID || !json_is_string(t))
			return ovsdb_schema_err(w, "a refTable not on a uuid");
		*ref = json_string_value(t);
		rt = json_object_get(j, "refType");
		b->weak = json_is_string(rt) &&
		    strcmp(json_string_value(rt), "weak") == 0;
	}
	return 0;
}

static int
ovsdb_minmax_parse(struct ovsdb_column *c, json_t *type,
    struct ovsdb_where *w)
{
	json_t	*v;

	c->min = c->max = 1;
	if ((v = json_object_get(type, "min")) != NULL) {
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) > 1)
			return ovsdb_schema_err(w, "min must be 0 or 1");
		c->min = (uint32_t)json_integer_value(v);
	}
	if ((v = json_object_get(type, "max")) != NULL) {
		if (json_is_string(v) &&
		    strcmp(json_string_value(v), "unlimited") == 0)
			c->max = OVSDB_UNLIMITED;
		else if (json_is_integer(v) && json_integer_value(v) >= 1 &&
		    json_integer_value(v) < OVSDB_UNLIMITED)
			c->max = (uint32_t)json_integer_value(v);
		else
			return ovsdb_schema_err(w, "bad max");
	}
	if (c->min > c->max)
		return ovsdb_schema_err(w, "min over max");
	return 0;
}

/* A <column-schema>; the refTables' names go to refs[0..1]. */
static int
ovsdb_column_parse(struct ovsdb_column *c, json_t *j, struct ovsdb_where *w,
    const char **refs)
{
	json_t	*type = json_object_get(j, "type"), *m;

	refs[0] = refs[1] = NULL;
	if (type == NULL)
		return ovsdb_schema_err(w, "no type");
	c->is_mutable = !json_is_false(json_object_get(j, "mutable"));
	c->value.type = OVSDB_VOID;
	c->value.ref_table = -1;
	if (!json_is_object(type)) {
		c->min = c->max = 1;
		return ovsdb_base_parse(&c->key, type, w, &refs[0]);
	}
	if (ovsdb_base_parse(&c->key, json_object_get(type, "key"), w,
	    &refs[0]) == -1)
		return -1;
	if ((m = json_object_get(type, "value")) != NULL &&
	    ovsdb_base_parse(&c->value, m, w, &refs[1]) == -1)
		return -1;
	return ovsdb_minmax_parse(c, type, w);
}

/* The atom every value of a type starts from (section 5.1 defaults:
 * 0, 0.0, false, "", the all-zero UUID), or the first enum value. */
static json_t *
ovsdb_atom_default(const struct ovsdb_base *b)
{
	static const uint8_t	zero[OVSDB_UUID_LEN];

	if (b->enums != NULL && json_array_size(b->enums) > 0)
		return json_incref(json_array_get(b->enums, 0));
	switch (b->type) {
	case OVSDB_INTEGER:
		return json_integer(0);
	case OVSDB_REAL:
		return json_real(0.0);
	case OVSDB_BOOLEAN:
		return json_false();
	case OVSDB_STRING:
		return json_string("");
	default:
		return ovsdb_uuid_json(zero);
	}
}

/* An empty set or map, or the single default atom (min 1). */
static json_t *
ovsdb_column_default(const struct ovsdb_column *c)
{
	json_t	*keys = json_array(), *vals = NULL;

	if (c->value.type != OVSDB_VOID)
		vals = json_array();
	if (c->min == 1) {
		json_array_append_new(keys, ovsdb_atom_default(&c->key));
		if (vals != NULL)
			json_array_append_new(vals,
			    ovsdb_atom_default(&c->value));
	}
	return ovsdb_datum_make(c, keys, vals);
}

/* enum: a set of atoms of the base type (section 3.2), canonical. */
static int
ovsdb_enum_resolve(struct ovsdb_base *b, struct ovsdb_where *w)
{
	struct ovsdb_column	 tmp;
	json_t			*e, *err = NULL;

	if (b->enums == NULL)
		return 0;
	memset(&tmp, 0, sizeof(tmp));
	tmp.key = *b;
	tmp.key.enums = NULL;
	tmp.value.type = OVSDB_VOID;
	tmp.max = OVSDB_UNLIMITED;
	e = ovsdb_datum_parse(&tmp, b->enums, NULL, 1, &err);
	json_decref(b->enums);
	b->enums = NULL;
	if (e == NULL) {
		json_decref(err);
		return ovsdb_schema_err(w, "bad enum");
	}
	/* Kept as a plain array of atoms. */
	b->enums = json_array();
	for (size_t i = 0; i < ovsdb_datum_n(e); i++)
		json_array_append(b->enums, ovsdb_datum_key(e, i));
	json_decref(e);
	return 0;
}

static int
ovsdb_ref_resolve(const struct ovsdb_schema *s, struct ovsdb_base *b,
    const char *ref, struct ovsdb_where *w)
{
	if (ref != NULL && (b->ref_table = ovsdb_table_find(s, ref)) == -1)
		return ovsdb_schema_err(w, "refTable %s is not a table", ref);
	return ovsdb_enum_resolve(b, w);
}

/* _uuid and _version (section 3.2): uuids, immutable. */
static void
ovsdb_columns_builtin(struct ovsdb_table *t)
{
	static const char *const names[] = { "_uuid", "_version" };
	int			 i;

	for (i = 0; i < 2; i++) {
		t->cols[i].name = xstrdup(names[i]);
		ovsdb_base_defaults(&t->cols[i].key, OVSDB_UUID);
		t->cols[i].value.type = OVSDB_VOID;
		t->cols[i].value.ref_table = -1;
		t->cols[i].min = t->cols[i].max = 1;
	}
}

/* Pass one: a <table-schema>'s columns; refs holds two names each. */
static int
ovsdb_table_parse(struct ovsdb_table *t, json_t *j, struct ovsdb_where *w,
    const char ***refs)
{
	json_t		*cols = json_object_get(j, "columns"), *v, *mr;
	const char	*name;
	uint32_t	 i = OVSDB_COL_FIRST;

	if (!json_is_object(cols) || json_object_size(cols) == 0)
		return ovsdb_schema_err(w, "no columns");
	t->ncols = OVSDB_COL_FIRST + (uint32_t)json_object_size(cols);
	t->cols = xcalloc(t->ncols, sizeof(*t->cols));
	*refs = xcalloc(2 * t->ncols, sizeof(**refs));
	ovsdb_columns_builtin(t);
	json_object_foreach(cols, name, v) {
		w->column = name;
		t->cols[i].name = xstrdup(name);
		if (name[0] == '_' || !json_is_object(v))
			return ovsdb_schema_err(w, "a bad column");
		if (ovsdb_column_parse(&t->cols[i], v, w, *refs + 2 * i) == -1)
			return -1;
		i++;
	}
	w->column = NULL;
	t->is_root = json_is_true(json_object_get(j, "isRoot"));
	mr = json_object_get(j, "maxRows");
	t->max_rows = json_is_integer(mr) && json_integer_value(mr) > 0 ?
	    (uint32_t)json_integer_value(mr) : OVSDB_UNLIMITED;
	return 0;
}

/* "indexes": sets of columns whose values no two rows may share. */
static int
ovsdb_indexes_parse(struct ovsdb_table *t, json_t *j, struct ovsdb_where *w)
{
	json_t	*ix = json_object_get(j, "indexes"), *one, *c;
	size_t	 i, k;
	int	 col;

	if (ix == NULL)
		return 0;
	if (!json_is_array(ix))
		return ovsdb_schema_err(w, "indexes is not an array");
	t->nindexes = (uint32_t)json_array_size(ix);
	t->indexes = xcalloc(t->nindexes + 1, sizeof(*t->indexes));
	json_array_foreach(ix, i, one) {
		t->indexes[i] = xcalloc(json_array_size(one) + 1,
		    sizeof(**t->indexes));
		json_array_foreach(one, k, c) {
			if (!json_is_string(c) || (col = ovsdb_column_find(t,
			    json_string_value(c))) < OVSDB_COL_FIRST)
				return ovsdb_schema_err(w, "an index on no "
				    "column");
			t->indexes[i][k] = (uint32_t)col;
		}
	}
	return 0;
}

/* Pass two: refTables, enums, indexes and defaults, once all tables are
 * known. */
static int
ovsdb_table_resolve(struct ovsdb_schema *s, struct ovsdb_table *t,
    json_t *j, const char **refs, struct ovsdb_where *w)
{
	struct ovsdb_column	*c;
	uint32_t		 i;

	for (i = OVSDB_COL_FIRST; i < t->ncols; i++) {
		c = &t->cols[i];
		w->column = c->name;
		if (ovsdb_ref_resolve(s, &c->key, refs[2 * i], w) == -1 ||
		    ovsdb_ref_resolve(s, &c->value, refs[2 * i + 1], w) == -1)
			return -1;
		t->has_refs |= c->key.ref_table >= 0 || c->value.ref_table >= 0;
	}
	w->column = NULL;
	for (i = 0; i < t->ncols; i++)
		t->cols[i].dflt = ovsdb_column_default(&t->cols[i]);
	return ovsdb_indexes_parse(t, j, w);
}

/* RFC 7047 3.2: with no isRoot anywhere, every table is a root (the
 * schemas written before isRoot existed). */
static void
ovsdb_roots(struct ovsdb_schema *s)
{
	uint32_t	i;

	for (i = 0; i < s->ntables; i++)
		if (s->tables[i].is_root)
			return;
	for (i = 0; i < s->ntables; i++)
		s->tables[i].is_root = 1;
}

static int
ovsdb_tables_parse(struct ovsdb_schema *s, json_t *tables,
    struct ovsdb_where *w)
{
	const char	***refs, *name;
	json_t		  *v;
	uint32_t	   i = 0;
	int		   rc = 0;

	s->ntables = (uint32_t)json_object_size(tables);
	s->tables = xcalloc(s->ntables, sizeof(*s->tables));
	refs = xcalloc(s->ntables, sizeof(*refs));
	json_object_foreach(tables, name, v) {
		s->tables[i].name = xstrdup(name);
		w->table = name;
		if (!json_is_object(v) || (rc = ovsdb_table_parse(&s->tables[i],
		    v, w, &refs[i])) == -1)
			break;
		i++;
	}
	for (i = 0; rc == 0 && i < s->ntables; i++) {
		w->table = s->tables[i].name;
		rc = ovsdb_table_resolve(s, &s->tables[i], json_object_get(
		    tables, s->tables[i].name), refs[i], w);
	}
	for (i = 0; i < s->ntables; i++)
		free(refs[i]);
	free(refs);
	return rc;
}

struct ovsdb_schema *
ovsdb_schema_parse(json_t *j, char *err, size_t errlen)
{
	struct ovsdb_schema	*s = xcalloc(1, sizeof(*s));
	struct ovsdb_where	 w = { NULL, NULL, err, errlen };
	json_t			*tables = json_object_get(j, "tables");

	s->json = j;
	s->name = json_string_value(json_object_get(j, "name"));
	s->version = json_string_value(json_object_get(j, "version"));
	if (s->version == NULL)
		s->version = "";
	if (s->name == NULL || !json_is_object(tables) ||
	    json_object_size(tables) == 0) {
		ovsdb_schema_err(&w, "not a database schema (RFC 7047 3.2: "
		    "name and tables)");
		ovsdb_schema_free(s);
		return NULL;
	}
	if (ovsdb_tables_parse(s, tables, &w) == -1) {
		ovsdb_schema_free(s);
		return NULL;
	}
	ovsdb_roots(s);
	return s;
}

struct ovsdb_schema *
ovsdb_schema_load(const char *path, char *err, size_t errlen)
{
	struct ovsdb_schema	*s;
	json_error_t		 je;
	json_t			*j;
	char			 why[256];

	if ((j = json_load_file(path, 0, &je)) == NULL) {
		if (je.line > 0)
			snprintf(err, errlen, "%s: line %d: %s", path, je.line,
			    je.text);
		else
			snprintf(err, errlen, "%s", je.text);
		return NULL;
	}
	if ((s = ovsdb_schema_parse(j, why, sizeof(why))) == NULL)
		snprintf(err, errlen, "%s: %s", path, why);
	return s;
}

static void
ovsdb_table_free(struct ovsdb_table *t)
{
	uint32_t	i;

	for (i = 0; i < t->ncols; i++) {
		free(t->cols[i].name);
		json_decref(t->cols[i].key.enums);
		json_decref(t->cols[i].value.enums);
		json_decref(t->cols[i].dflt);
	}
	for (i = 0; i < t->nindexes && t->indexes != NULL; i++)
		free(t->indexes[i]);
	free(t->indexes);
	free(t->cols);
	free(t->name);
}

void
ovsdb_schema_free(struct ovsdb_schema *s)
{
	uint32_t	i;

	if (s == NULL)
		return;
	for (i = 0; i < s->ntables; i++)
		ovsdb_table_free(&s->tables[i]);
	free(s->tables);
	json_decref(s->json);
	free(s);
}

/*
 * The index of the one named name among n elements of size bytes (tables,
 * columns), each with its name at name_off, or -1.  Inlined, size and
 * name_off are constants: as fast as a loop over the typed array.
 */
static inline int
ovsdb_named_find(const void *v, uint32_t n, size_t size, size_t name_off,
    const char *name)
{
	const char	*p = v, *nm;
	uint32_t	 i;

	for (i = 0; i < n; i++, p += size) {
		nm = *(const char *const *)(const void *)(p + name_off);
		if (nm != NULL && strcmp(nm, name) == 0)
			return (int)i;
	}
	return -1;
}

int
ovsdb_table_find(const struct ovsdb_schema *s, const char *name)
{
	return ovsdb_named_find(s->tables, s->ntables, sizeof(*s->tables),
	    offsetof(struct ovsdb_table, name), name);
}

int
ovsdb_colrefs_find(const struct ovsdb_schema *s,
    const struct ovsdb_colref *refs, size_t n, void *out)
{
	size_t	i;
	int	ix, rc = 0;

	for (i = 0; i < n; i++) {
		ix = ovsdb_table_find(s, refs[i].table);
		if (ix != -1 && refs[i].column != NULL)
			ix = ovsdb_column_find(&s->tables[ix], refs[i].column);
		*(int *)(void *)((char *)out + refs[i].off) = ix;
		if (ix == -1)
			rc = -1;
	}
	return rc;
}

int
ovsdb_column_find(const struct ovsdb_table *t, const char *name)
{
	return ovsdb_named_find(t->cols, t->ncols, sizeof(*t->cols),
	    offsetof(struct ovsdb_column, name), name);
}
