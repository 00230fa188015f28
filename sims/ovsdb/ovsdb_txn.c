/*
 * The "transact" method (RFC 7047 section 4.1.3) and its operations
 * (section 5.2): insert, select, update, mutate, delete, wait, commit,
 * abort, comment and assert, run in order against a working copy of the
 * database; the commit checks are ovsdb_commit.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "ovsdb_db.h"
#include "ovsdb_txn.h"

/* ---- named-uuids (section 5.2.1): name -> [uuid, created] ---- */

json_t *
ovsdb_symtab_uuid(struct ovsdb_symtab *st, const char *name)
{
	json_t	*e = json_object_get(st->names, name);
	uint8_t	 u[OVSDB_UUID_LEN];

	if (e == NULL) {
		ovsdb_uuid_random(u);
		e = json_pack("[ob]", ovsdb_uuid_json(u), 0);
		json_object_set_new(st->names, name, e);
	}
	return json_incref(json_array_get(e, 0));
}

/* The uuid-name of an insert: made, or taken from an earlier use; an
 * error when an earlier insert made it. */
static json_t *
ovsdb_symtab_define(struct ovsdb_symtab *st, const char *name,
    json_t **err)
{
	json_t	*e = json_object_get(st->names, name);

	if (e != NULL && json_is_true(json_array_get(e, 1))) {
		*err = ovsdb_error("duplicate uuid-name", "This \"uuid-name\" "
		    "appeared on an earlier \"insert\" operation.");
		return NULL;
	}
	json_decref(ovsdb_symtab_uuid(st, name));
	e = json_object_get(st->names, name);
	json_array_set_new(e, 1, json_true());
	return json_incref(json_array_get(e, 0));
}

/* ---- rows of an operation ---- */

/* "row" (section 5.1, <row>) compiled to [[column, value], ...]; for
 * update, only mutable columns. */
static json_t *
ovsdb_row_compile(struct ovsdb_txn *x, const struct ovsdb_table *t,
    json_t *row, int update, json_t **err)
{
	json_t		*out = json_array(), *v, *d;
	const char	*name;
	int		 c;

	if (row != NULL && !json_is_object(row)) {
		*err = ovsdb_error("syntax error", "row is not an object");
		goto fail;
	}
	json_object_foreach(row, name, v) {
		if ((c = ovsdb_column_find(t, name)) == -1) {
			*err = ovsdb_error("unknown column", "No column %s in "
			    "table %s.", name, t->name);
			goto fail;
		}
		if (c < OVSDB_COL_FIRST && !update)
			continue;	/* an insert makes its own, as OVS */
		if (c < OVSDB_COL_FIRST || (update && !t->cols[c].is_mutable)) {
			*err = ovsdb_error("constraint violation", "Cannot "
			    "update %s column %s in table %s.", c <
			    OVSDB_COL_FIRST ? "read-only" : "immutable", name,
			    t->name);
			goto fail;
		}
		if ((d = ovsdb_datum_parse(&t->cols[c], v, &x->st, 0, err)) ==
		    NULL)
			goto fail;
		json_array_append_new(out, json_pack("[io]", c, d));
	}
	return out;
fail:
	json_decref(out);
	return NULL;
}

static void
ovsdb_row_apply(struct ovsdb_row *r, const json_t *compiled)
{
	json_t	*p;
	size_t	 i;

	json_array_foreach(compiled, i, p)
		ovsdb_row_set(r, (uint32_t)json_integer_value(
		    json_array_get(p, 0)), json_incref(json_array_get(p, 1)));
}

/* "columns" (section 5.2.2) as a mask; NULL *mask: all of them. */
static int
ovsdb_columns_mask(const struct ovsdb_table *t, json_t *cols, uint8_t **mask,
    json_t **err)
{
	*mask = NULL;
	if (cols == NULL)
		return 0;
	*mask = xcalloc(t->ncols, 1);
	if (ovsdb_columns_set(t, cols, *mask, err) == 0)
		return 0;
	free(*mask);
	*mask = NULL;
	return -1;
}

/* ---- operations (section 5.2) ---- */

/* 5.2.1 insert */
static json_t *
ovsdb_op_insert(struct ovsdb_txn *x, json_t *op, int ti, json_t **err)
{
	const struct ovsdb_table	*t = &x->db->schema->tables[ti];
	const char			*name;
	struct ovsdb_row		*r;
	json_t				*row, *uuid = NULL, *res;
	uint8_t				 u[OVSDB_UUID_LEN];

	name = json_string_value(json_object_get(op, "uuid-name"));
	if (name != NULL && (uuid = ovsdb_symtab_define(&x->st, name, err)) ==
	    NULL)
		return NULL;
	if (uuid == NULL)
		uuid = json_incref(json_object_get(op, "uuid"));
	/* "uuid" (ovsdb-server(7)) is a string; a uuid-name's a <uuid>. */
	if (uuid != NULL && ovsdb_uuid_parse(json_string_value(
	    json_is_array(uuid) ? json_array_get(uuid, 1) : uuid), u) == -1) {
		json_decref(uuid);
		*err = ovsdb_error("syntax error", "bad uuid");
		return NULL;
	}
	if ((row = ovsdb_row_compile(x, t, json_object_get(op, "row"), 0,
	    err)) == NULL || (r = ovsdb_db_insert(x->db, (uint32_t)ti,
	    uuid != NULL ? u : NULL)) == NULL) {
		if (row != NULL)
			*err = ovsdb_error("duplicate uuid", "This UUID would "
			    "duplicate a UUID already present within the "
			    "table or deleted within the same transaction.");
		json_decref(row);
		json_decref(uuid);
		return NULL;
	}
	ovsdb_row_apply(r, row);
	json_decref(row);
	json_decref(uuid);
	res = json_object();
	json_object_set_new(res, "uuid", ovsdb_uuid_json(r->uuid));
	return res;
}

/* The rows of table ti that "where" selects, their positions in *pos;
 * their count, or -1 with *err. */
static long
ovsdb_op_where(struct ovsdb_txn *x, json_t *op, int ti, uint32_t **pos,
    json_t **err)
{
	const struct ovsdb_table	*t = &x->db->schema->tables[ti];
	const struct ovsdb_tbl		*tb = &x->db->t[ti];
	json_t				*w;
	uint8_t				 u[OVSDB_UUID_LEN];
	uint32_t			 k, n = 0;

	*pos = NULL;
	if ((w = ovsdb_where_compile(t, json_object_get(op, "where"), &x->st,
	    err)) == NULL)
		return -1;
	if (ovsdb_where_uuid(w, u)) {
		*pos = xcalloc(1, sizeof(**pos));
		if (ovsdb_tbl_find(tb, u, &k) != NULL &&
		    ovsdb_where_match(t, tb->rows[k], w, 0))
			(*pos)[n++] = k;
	} else {
		*pos = xcalloc(tb->n ? tb->n : 1, sizeof(**pos));
		for (k = 0; k < tb->n; k++)
			if (ovsdb_where_match(t, tb->rows[k], w, 0))
				(*pos)[n++] = k;
	}
	json_decref(w);
	return n;
}

static json_t *
ovsdb_count(long n)
{
	return json_pack("{sI}", "count", (json_int_t)n);
}

/* 5.2.2 select */
static json_t *
ovsdb_op_select(struct ovsdb_txn *x, json_t *op, int ti, json_t **err)
{
	const struct ovsdb_table	*t = &x->db->schema->tables[ti];
	uint32_t			*pos;
	uint8_t				*mask;
	json_t				*rows;
	long				 n, i;

	if (ovsdb_columns_mask(t, json_object_get(op, "columns"), &mask,
	    err) == -1)
		return NULL;
	if ((n = ovsdb_op_where(x, op, ti, &pos, err)) == -1) {
		free(mask);
		return NULL;
	}
	rows = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(rows, ovsdb_row_json(t,
		    x->db->t[ti].rows[pos[i]], mask));
	free(pos);
	free(mask);
	return json_pack("{so}", "rows", rows);
}

/* 5.2.3 update */
static json_t *
ovsdb_op_update(struct ovsdb_txn *x, json_t *op, int ti, json_t **err)
{
	const struct ovsdb_table	*t = &x->db->schema->tables[ti];
	uint32_t			*pos;
	json_t				*row;
	long				 n, i;

	if ((row = ovsdb_row_compile(x, t, json_object_get(op, "row"), 1,
	    err)) == NULL)
		return NULL;
	if ((n = ovsdb_op_where(x, op, ti, &pos, err)) == -1) {
		json_decref(row);
		return NULL;
	}
	for (i = 0; i < n; i++)
		ovsdb_row_apply(ovsdb_db_writable(x->db, (uint32_t)ti, pos[i]),
		    row);
	free(pos);
	json_decref(row);
	return ovsdb_count(n);
}

/* 5.2.4 mutate */
static json_t *
ovsdb_op_mutate(struct ovsdb_txn *x, json_t *op, int ti, json_t **err)
{
	const struct ovsdb_table	*t = &x->db->schema->tables[ti];
	struct ovsdb_row		*r;
	uint32_t			*pos;
	json_t				*muts;
	long				 n, i;

	if ((muts = ovsdb_mutations_compile(x, t, json_object_get(op,
	    "mutations"), err)) == NULL)
		return NULL;
	if ((n = ovsdb_op_where(x, op, ti, &pos, err)) == -1) {
		json_decref(muts);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		r = ovsdb_db_writable(x->db, (uint32_t)ti, pos[i]);
		if (ovsdb_mutations_apply(t, r, muts, err) == -1) {
			n = -1;
			break;
		}
	}
	free(pos);
	json_decref(muts);
	return n == -1 ? NULL : ovsdb_count(n);
}

/* 5.2.5 delete */
static json_t *
ovsdb_op_delete(struct ovsdb_txn *x, json_t *op, int ti, json_t **err)
{
	uint32_t	*pos;
	long		 n, i;

	if ((n = ovsdb_op_where(x, op, ti, &pos, err)) == -1)
		return NULL;
	for (i = n - 1; i >= 0; i--)
		ovsdb_db_remove(x->db, (uint32_t)ti, pos[i]);
	free(pos);
	return ovsdb_count(n);
}

/* 5.2.6 wait, the rows of a select compared with "rows"; a wait that
 * is not met at once fails as one whose timeout expired would (the
 * clients of this schema wait with timeout 0). */
static json_t *
ovsdb_op_wait(struct ovsdb_txn *x, json_t *op, int ti, json_t **err)
{
	json_t		*sel, *until = json_object_get(op, "until");
	int		 eq;

	if (!json_is_string(until) ||
	    (strcmp(json_string_value(until), "==") != 0 &&
	    strcmp(json_string_value(until), "!=") != 0)) {
		*err = ovsdb_error("syntax error", "until must be == or !=");
		return NULL;
	}
	if (!json_is_array(json_object_get(op, "rows")) ||
	    !json_is_array(json_object_get(op, "columns"))) {
		*err = ovsdb_error("syntax error", "wait needs rows and "
		    "columns");
		return NULL;
	}
	if ((sel = ovsdb_op_select(x, op, ti, err)) == NULL)
		return NULL;
	eq = ovsdb_wait_equal(x, &x->db->schema->tables[ti], json_object_get(
	    sel, "rows"), json_object_get(op, "rows"), err);
	json_decref(sel);
	if (eq == -1)
		return NULL;
	if (eq != (strcmp(json_string_value(until), "==") == 0)) {
		*err = ovsdb_error("timed out", "\"where\" clause test "
		    "failed");
		return NULL;
	}
	return json_object();
}

/* 5.2.8 abort */
static json_t *
ovsdb_op_abort(struct ovsdb_txn *x, json_t *op, int ti, json_t **err)
{
	(void)x;
	(void)op;
	(void)ti;
	*err = ovsdb_error("aborted", "aborted by request");
	return NULL;
}

/* 5.2.10 assert */
static json_t *
ovsdb_op_assert(struct ovsdb_txn *x, json_t *op, int ti, json_t **err)
{
	const char	*lock = json_string_value(json_object_get(op, "lock"));

	(void)ti;
	if (lock == NULL) {
		*err = ovsdb_error("syntax error", "assert needs a lock");
		return NULL;
	}
	if (x->ctx == NULL || x->ctx->owns_lock == NULL ||
	    !x->ctx->owns_lock(x->ctx->arg, lock)) {
		*err = ovsdb_error("not owner", "Asserted lock %s not held.",
		    lock);
		return NULL;
	}
	return json_object();
}

/* The members an operation must have (section 5.2), as "name:type"
 * with a for array, o object, s string, b boolean. */
static const struct ovsdb_op {
	const char	*name;
	int		 table;		/* needs "table" */
	const char	*need[5];
	/* NULL: changes nothing, its result is {} (commit, comment) */
	json_t		*(*run)(struct ovsdb_txn *, json_t *, int, json_t **);
} ovsdb_ops[] = {
	{ "insert", 1, { "row:o" }, ovsdb_op_insert },
	{ "select", 1, { "where:a" }, ovsdb_op_select },
	{ "update", 1, { "where:a", "row:o" }, ovsdb_op_update },
	{ "mutate", 1, { "where:a", "mutations:a" }, ovsdb_op_mutate },
	{ "delete", 1, { "where:a" }, ovsdb_op_delete },
	{ "wait", 1, { "where:a", "columns:a", "until:s", "rows:a" },
	    ovsdb_op_wait },
	{ "commit", 0, { "durable:b" }, NULL },		/* 5.2.7 */
	{ "abort", 0, { NULL }, ovsdb_op_abort },
	{ "comment", 0, { "comment:s" }, NULL },	/* 5.2.9 */
	{ "assert", 0, { "lock:s" }, ovsdb_op_assert },
};

static int
ovsdb_member_type(const json_t *v, char type)
{
	switch (type) {
	case 'a':
		return json_is_array(v);
	case 'o':
		return json_is_object(v);
	case 's':
		return json_is_string(v);
	default:
		return json_is_boolean(v);
	}
}

/* The members op needs, present and of their type; the name of the
 * first that is not, NULL when all are (and whether it was missing). */
static const char *
ovsdb_op_members(const struct ovsdb_op *o, const json_t *op, int *missing,
    char *name, size_t len)
{
	const char	*colon;
	const json_t	*v;
	size_t		 i;

	for (i = 0; i < 5 && o->need[i] != NULL; i++) {
		colon = strchr(o->need[i], ':');
		snprintf(name, len, "%.*s", (int)(colon - o->need[i]),
		    o->need[i]);
		v = json_object_get(op, name);
		*missing = v == NULL;
		if (v == NULL || !ovsdb_member_type(v, colon[1]))
			return name;
	}
	return NULL;
}

/* What ovsdb-server says of an operation it cannot parse: operation k
 * of n, then why. */
#define OVSDB_OP_PARSE	"Parsing ovsdb operation %zu of %zu failed: "

/* Operation k of n: its result, or NULL with *err. */
static json_t *
ovsdb_op_run(struct ovsdb_txn *x, json_t *op, size_t k, size_t n,
    json_t **err)
{
	const char	*name, *tn;
	char		 member[16];
	size_t		 i;
	int		 ti = -1, missing;

	if ((name = json_string_value(json_object_get(op, "op"))) == NULL) {
		*err = ovsdb_error("syntax error", OVSDB_OP_PARSE "Required "
		    "'op' member is missing.", k, n);
		return NULL;
	}
	for (i = 0; i < sizeof(ovsdb_ops) / sizeof(ovsdb_ops[0]); i++)
		if (strcmp(name, ovsdb_ops[i].name) == 0)
			break;
	if (i == sizeof(ovsdb_ops) / sizeof(ovsdb_ops[0])) {
		*err = ovsdb_error("syntax error", OVSDB_OP_PARSE "No "
		    "operation \"%s\"", k, n, name);
		return NULL;
	}
	tn = json_string_value(json_object_get(op, "table"));
	if (ovsdb_ops[i].table && tn == NULL) {
		*err = ovsdb_error("syntax error", OVSDB_OP_PARSE "Required "
		    "'table' member is missing.", k, n);
		return NULL;
	}
	if (ovsdb_ops[i].table &&
	    (ti = ovsdb_table_find(x->db->schema, tn)) == -1) {
		*err = ovsdb_error("syntax error", OVSDB_OP_PARSE "No table "
		    "named %s.", k, n, tn);
		return NULL;
	}
	if (ovsdb_op_members(&ovsdb_ops[i], op, &missing, member,
	    sizeof(member)) != NULL) {
		*err = ovsdb_error("syntax error", missing ? OVSDB_OP_PARSE
		    "Required '%s' member is missing." : OVSDB_OP_PARSE
		    "Type mismatch for member '%s'.", k, n, member);
		return NULL;
	}
	if (ovsdb_ops[i].run == NULL)
		return json_object();
	return ovsdb_ops[i].run(x, op, ti, err);
}

int
ovsdb_transact(struct ovsdb_db *cur, json_t *ops,
    const struct ovsdb_txn_ctx *ctx, json_t **result, struct ovsdb_db **next)
{
	struct ovsdb_txn	 x;
	json_t			*op, *res, *err = NULL;
	size_t			 i;

	memset(&x, 0, sizeof(x));
	x.db = ovsdb_db_clone(cur);
	x.st.names = json_object();
	x.ctx = ctx;
	*result = json_array();
	*next = NULL;
	json_array_foreach(ops, i, op) {
		if ((res = ovsdb_op_run(&x, op, i + 1, json_array_size(ops),
		    &err)) == NULL) {
			/* Never: every failure says why. */
			if (err == NULL)
				err = ovsdb_error("syntax error", "operation "
				    "%zu failed", i + 1);
			break;
		}
		json_array_append_new(*result, res);
	}
	if (err != NULL) {
		/* Section 4.1.3: the error, then null for the rest. */
		json_array_append_new(*result, err);
		while (json_array_size(*result) < json_array_size(ops))
			json_array_append_new(*result, json_null());
	} else if ((err = ovsdb_commit(&x, cur)) != NULL)
		json_array_append_new(*result, err);
	else if (ovsdb_db_changed(cur, x.db)) {
		*next = x.db;
		x.db = NULL;
	}
	ovsdb_db_free(x.db);
	json_decref(x.st.names);
	return err != NULL ? -1 : 0;
}
