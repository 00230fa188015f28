/*
 * Inside a transaction (ovsdb_txn.c, ovsdb_mutate.c, ovsdb_commit.c): the
 * working copy, the named-uuids, and the pieces the operations share.
 */
#ifndef SBSIM_OVSDB_TXN_H
#define SBSIM_OVSDB_TXN_H

#include "ovsdb_db.h"

struct ovsdb_symtab {
	json_t	*names;		/* name -> [["uuid", "..."], created] */
};

struct ovsdb_txn {
	struct ovsdb_db			*db;	/* the working copy */
	struct ovsdb_symtab		 st;
	const struct ovsdb_txn_ctx	*ctx;
};

/* Section 5.1 <mutation>s compiled to [[column, mutator, value], ...],
 * then applied to one row; NULL or -1 with *err. */
json_t	*ovsdb_mutations_compile(struct ovsdb_txn *, const struct ovsdb_table *,
	    json_t *mutations, json_t **err);
int	 ovsdb_mutations_apply(const struct ovsdb_table *, struct ovsdb_row *,
	    const json_t *compiled, json_t **err);
/* "wait": do the selected rows equal "rows" (section 5.2.6)?  -1 with
 * *err when "rows" does not parse. */
int	 ovsdb_wait_equal(struct ovsdb_txn *, const struct ovsdb_table *,
	    json_t *selected, json_t *rows, json_t **err);
/* The checks of a commit, in ovsdb-server's order; NULL or an <error>. */
json_t	*ovsdb_commit(struct ovsdb_txn *, const struct ovsdb_db *cur);
/* Did the transaction change anything?  (Rows it rewrote to the same
 * values are given back their old selves first.) */
int	 ovsdb_db_changed(const struct ovsdb_db *cur, struct ovsdb_db *next);

#endif
