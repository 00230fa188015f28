/*
 * An OVSDB database (RFC 7047): the schema (section 3.2), values in their
 * JSON notation (section 5.1), rows and tables, and transactions (section
 * 5.2) with the checks ovsdb-server makes when it commits them:
 * referential integrity, weak references, garbage collection of
 * unreferenced rows of non-root tables, unique indexes and maxRows.
 *
 * One parsed schema serves every device.  A database is an array of
 * tables, each an array of row pointers sorted by UUID; rows are shared
 * between a database and its transaction's working copy and copied on
 * write, so that a transaction costs a copy of the pointer arrays and
 * what changed is found by comparing pointers.  Column values are kept
 * as jansson values in their canonical wire form (section 5.1: an atom,
 * ["set", [...]] or ["map", [...]], sorted), so a value is written out as
 * it is and unchanged values are shared, defaults by every row.
 */
#ifndef SBSIM_OVSDB_DB_H
#define SBSIM_OVSDB_DB_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* Atomic types (section 3.2, <atomic-type>). */
enum ovsdb_atype {
	OVSDB_VOID,		/* no value type: not a map */
	OVSDB_INTEGER,
	OVSDB_REAL,
	OVSDB_BOOLEAN,
	OVSDB_STRING,
	OVSDB_UUID,
};

/* <base-type>: an atomic type and its constraints. */
struct ovsdb_base {
	uint8_t		 type;		/* enum ovsdb_atype */
	uint8_t		 weak;		/* refType "weak" */
	int32_t		 ref_table;	/* refTable's index, -1 none */
	json_t		*enums;		/* array of allowed atoms, or NULL */
	int64_t		 imin, imax;
	double		 rmin, rmax;
	uint64_t	 lmin, lmax;	/* string length */
};

#define OVSDB_UNLIMITED	UINT32_MAX

/* Column 0 is _uuid and column 1 _version (section 3.2, <table-schema>),
 * so that where clauses and column lists name them like the others. */
#define OVSDB_COL_UUID		0
#define OVSDB_COL_VERSION	1
#define OVSDB_COL_FIRST		2

struct ovsdb_column {
	char		*name;
	struct ovsdb_base key, value;	/* value.type VOID: not a map */
	uint32_t	 min, max;	/* elements; max OVSDB_UNLIMITED */
	uint8_t		 is_mutable;
	json_t		*dflt;		/* the default value, shared */
};

struct ovsdb_table {
	char			*name;
	struct ovsdb_column	*cols;
	uint32_t		 ncols;
	uint32_t		 max_rows;	/* OVSDB_UNLIMITED: none */
	uint8_t			 is_root;
	uint8_t			 has_refs;	/* a column of references */
	uint32_t		 nindexes;
	uint32_t		**indexes;	/* columns, ending with 0 */
};

struct ovsdb_schema {
	json_t			*json;		/* as get_schema returns it */
	const char		*name;		/* in json */
	const char		*version;	/* in json, or "" */
	struct ovsdb_table	*tables;
	uint32_t		 ntables;
};

/* The schema of a file; NULL with "FILE: why" in err. */
struct ovsdb_schema *ovsdb_schema_load(const char *path, char *err,
	    size_t errlen);
/* The schema a JSON value describes (it takes the reference). */
struct ovsdb_schema *ovsdb_schema_parse(json_t *, char *err, size_t errlen);
void	 ovsdb_schema_free(struct ovsdb_schema *);
/* The index of s among names[lo..hi] (a table of names by value), -1
 * when it is none of them. */
int	 ovsdb_name_find(const char *const *names, int lo, int hi,
	    const char *s);
/* Index of a table or a column by name, -1 when there is none. */
int	 ovsdb_table_find(const struct ovsdb_schema *, const char *);
int	 ovsdb_column_find(const struct ovsdb_table *, const char *);
/*
 * The indexes a module needs, found by name into the int at each ref's
 * offset in out: a table's own (column NULL) or one of its columns.
 * Every one is set (-1 where the schema lacks it); 0 when all were found,
 * else -1.
 */
struct ovsdb_colref {
	const char	*table;
	const char	*column;
	size_t		 off;		/* offsetof the int in out */
};
/* A row of a table of them: the int field of struct type it fills. */
#define OVSDB_COLREF(type, table, column, field) \
	{ table, column, offsetof(type, field) }
int	 ovsdb_colrefs_find(const struct ovsdb_schema *,
	    const struct ovsdb_colref *, size_t n, void *out);

/* A row: its UUID, its version and its columns (0 and 1 unused). */
#define OVSDB_UUID_LEN	16
struct ovsdb_row {
	uint32_t	 refs;		/* databases sharing it */
	uint8_t		 uuid[OVSDB_UUID_LEN];
	uint8_t		 version[OVSDB_UUID_LEN];
	json_t		*col[];
};

struct ovsdb_tbl {
	struct ovsdb_row	**rows;		/* sorted by uuid */
	uint32_t		  n, cap;
};

struct ovsdb_db {
	const struct ovsdb_schema	*schema;
	struct ovsdb_tbl		 t[];		/* [schema->ntables] */
};

struct ovsdb_db *ovsdb_db_new(const struct ovsdb_schema *);
void	 ovsdb_db_free(struct ovsdb_db *);
/* A new row of table t with every column at its default and a random
 * UUID (or uuid when not NULL), added to db; NULL when the UUID is
 * taken. */
struct ovsdb_row *ovsdb_db_insert(struct ovsdb_db *, uint32_t t,
	    const uint8_t *uuid);
/* A copy sharing every row, for a transaction to work on. */
struct ovsdb_db *ovsdb_db_clone(const struct ovsdb_db *);
/* Row pos of table t, to be changed: copied first when shared. */
struct ovsdb_row *ovsdb_db_writable(struct ovsdb_db *, uint32_t t,
	    uint32_t pos);
void	 ovsdb_db_remove(struct ovsdb_db *, uint32_t t, uint32_t pos);
/* Row pos of table t becomes r (another database's, shared). */
void	 ovsdb_db_share(struct ovsdb_db *, uint32_t t, uint32_t pos,
	    struct ovsdb_row *r);
/* Set a column of a row the caller just inserted or made writable
 * (takes the reference to v). */
void	 ovsdb_row_set(struct ovsdb_row *, uint32_t col, json_t *v);
/* The row of table t with this UUID, or NULL (and its slot in *pos). */
struct ovsdb_row *ovsdb_tbl_find(const struct ovsdb_tbl *,
	    const uint8_t *uuid, uint32_t *pos);
/* The same, for rows taken in UUID order from another version of the
 * table: *j (0 at first) is where the last one was found, so a walk of
 * a whole table costs one pass. */
struct ovsdb_row *ovsdb_tbl_match(const struct ovsdb_tbl *, uint32_t *j,
	    const struct ovsdb_row *r);
/* Column c of a row as a new reference (_uuid and _version made). */
json_t	*ovsdb_row_get(const struct ovsdb_table *, const struct ovsdb_row *,
	    uint32_t c);

/* The row as a JSON object of the columns whose cols[] is set (every
 * column when cols is NULL). */
json_t	*ovsdb_row_json(const struct ovsdb_table *, const struct ovsdb_row *,
	    const uint8_t *cols);

/* A "columns" list (section 5.2.2, 4.1.5): mask[i] set for each column
 * named; -1 with *err (ovsdb-server's words) for one that is none. */
int	 ovsdb_columns_set(const struct ovsdb_table *, const json_t *cols,
	    uint8_t *mask, json_t **err);

/* UUIDs (section 5.1, <uuid>): text, bytes, random ones. */
#define OVSDB_UUID_STRLEN	37
void	 ovsdb_uuid_random(uint8_t *);
void	 ovsdb_uuid_fmt(const uint8_t *, char *);
int	 ovsdb_uuid_parse(const char *, uint8_t *);	/* NULL: -1 */
json_t	*ovsdb_uuid_json(const uint8_t *);	/* ["uuid", "..."] */

/*
 * Errors (section 3.1 and ovsdb-server's tags): an <error> object
 * {"error": tag, "details": ...}, a new reference.
 */
json_t	*ovsdb_error(const char *tag, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* Values (section 5.1). */
/* A transaction's named-uuids (section 5.2.1, "uuid-name"). */
struct ovsdb_symtab;
/* The UUID a name stands for, made on first use: ["uuid", "..."]. */
json_t	*ovsdb_symtab_uuid(struct ovsdb_symtab *, const char *name);
/* A value of column c from its JSON, canonical (sorted, no duplicates),
 * checked against the type; named-uuids resolved through st (NULL: not
 * allowed).  With any_size, a set of any size (where clauses and
 * mutations).  NULL with *err an <error>. */
json_t	*ovsdb_datum_parse(const struct ovsdb_column *, json_t *,
	    struct ovsdb_symtab *, int any_size, json_t **err);
/* The atoms of a canonical value: keys (and values of a map). */
size_t	 ovsdb_datum_n(const json_t *);
json_t	*ovsdb_datum_key(const json_t *, size_t i);
json_t	*ovsdb_datum_val(const json_t *, size_t i);	/* NULL: a set */
int	 ovsdb_atom_cmp(const json_t *, const json_t *);
/* An order of two canonical values of one column (equal: the same). */
int	 ovsdb_datum_cmp(const json_t *, const json_t *);
/* A canonical value from atoms (keys, and vals for a map), sorting them;
 * -1 when a key repeats. */
json_t	*ovsdb_datum_make(const struct ovsdb_column *, json_t *keys,
	    json_t *vals);
/* The update2 difference of two values (ovsdb-server(7) "update2"). */
json_t	*ovsdb_datum_diff(const struct ovsdb_column *, const json_t *old,
	    const json_t *new);

/*
 * Conditions (section 5.1, <condition>): the clauses [column, function,
 * value] compiled to [index, function, canonical value] (true and false
 * kept as they are, for monitor_cond), NULL with *err an <error>.  A row
 * matches when every clause is true (transact), or with any when one is
 * (monitor_cond; an empty condition matches every row there too).
 */
json_t	*ovsdb_where_compile(const struct ovsdb_table *, json_t *where,
	    struct ovsdb_symtab *, json_t **err);
/*
 * What clauses and mutations (5.1 <mutation>) share.  The head of a
 * [column, name, value] triple: the column's index and *name, or -1 with
 * *err (what and role name the triple and its name there).  And a list
 * of them compiled one by one into a new array (what: the list's member
 * name), NULL with *err at the first that fails.
 */
int	 ovsdb_triple_column(const struct ovsdb_table *, const json_t *triple,
	    const char *what, const char *role, const char **name,
	    json_t **err);
typedef json_t *ovsdb_compile_fn(void *arg, const struct ovsdb_table *,
	    json_t *one, json_t **err);
json_t	*ovsdb_compile_each(const struct ovsdb_table *, json_t *list,
	    const char *what, ovsdb_compile_fn *, void *arg, json_t **err);
int	 ovsdb_where_match(const struct ovsdb_table *, const struct ovsdb_row *,
	    const json_t *compiled, int any);
/* Does every row a transact condition matches have this UUID (a clause
 * _uuid == UUID, as clients name the rows they change)?  Then the row
 * is looked up, not searched for. */
int	 ovsdb_where_uuid(const json_t *compiled, uint8_t *uuid);

/* A transaction's view of the session it came from. */
struct ovsdb_txn_ctx {
	/* Non-zero when the session holds the lock (section 5.2.13). */
	int	(*owns_lock)(void *arg, const char *name);
	void	*arg;
};

/*
 * Run a "transact" request's operations (params without the database
 * name) against cur.  *result is the result array of section 4.1.3: one
 * element per operation, an <error> in the failing one and null after
 * it, one more element for an error found when committing.  *next is
 * the committed database when the transaction changed anything (the
 * caller sends the monitors' updates, frees cur and keeps next), else
 * NULL.  Returns 0, or -1 when an operation or the commit failed.
 */
int	 ovsdb_transact(struct ovsdb_db *cur, json_t *ops,
	    const struct ovsdb_txn_ctx *, json_t **result,
	    struct ovsdb_db **next);

#endif
