/*
 * The JSON-RPC methods of an OVSDB server (RFC 7047 section 4.1):
 * list_dbs, get_schema, transact, monitor (and monitor_cond,
 * monitor_cond_since), monitor_cancel, lock, steal, unlock, echo.  A
 * message that is not JSON, or not JSON-RPC 1.0 (section 4: an object
 * with method and params, or result or error, and an id), ends the
 * connection as with ovsdb-server; an unknown method is answered with
 * the error "unknown method".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "ovsdb_server.h"

/* A lock request (section 4.1.8); the first of a name holds the lock. */
struct ovsdb_lockreq {
	TAILQ_ENTRY(ovsdb_lockreq)	 entry;
	struct ovsdb_conn		*conn;
	char				 name[];
};

void
ovsdb_server_init(struct ovsdb_server *srv, const struct ovsdb_schema *s,
    struct ovsdb_db *db, const struct ovsdb_counters *c)
{
	srv->schema = s;
	srv->db = db;
	srv->sys = NULL;
	srv->c = c;
	srv->changed = 0;
	srv->watch = NULL;
	srv->watch_arg = NULL;
	srv->max_ops = OVSDB_DEFAULT_MAX_OPS;
	LIST_INIT(&srv->conns);
	TAILQ_INIT(&srv->locks);
}

void
ovsdb_server_free(struct ovsdb_server *srv)
{
	ovsdb_db_free(srv->db);
	srv->db = NULL;
}

/* next replaces the database; the monitors hear what changed. */
static void
ovsdb_server_commit(struct ovsdb_server *srv, struct ovsdb_db *next)
{
	if (next == NULL)
		return;
	ovsdb_monitors_update(srv, srv->db, next);
	ovsdb_db_free(srv->db);
	srv->db = next;
}

int
ovsdb_server_write(struct ovsdb_server *srv, json_t *ops, char *err,
    size_t errlen)
{
	struct ovsdb_db	*next;
	json_t		*res;
	char		*text;
	int		 rc;

	rc = ovsdb_transact(srv->db, ops, NULL, &res, &next);
	if (rc == -1 && err != NULL) {
		text = json_dumps(res, JSON_COMPACT);
		snprintf(err, errlen, "%s", text != NULL ? text : "?");
		free(text);
	}
	json_decref(res);
	ovsdb_server_commit(srv, next);
	return rc;
}

void
ovsdb_conn_attach(struct ovsdb_server *srv, struct ovsdb_conn *conn,
    void (*send)(struct ovsdb_conn *, const char *, size_t))
{
	memset(conn, 0, sizeof(*conn));
	conn->srv = srv;
	conn->send = send;
	conn->logged = &conn->logged_own;
	TAILQ_INIT(&conn->monitors);
	LIST_INSERT_HEAD(&srv->conns, conn, entry);
}

void
ovsdb_conn_send(struct ovsdb_conn *conn, json_t *msg)
{
	char	*s;

	if ((s = json_dumps(msg, JSON_COMPACT)) == NULL)
		fatalx("json_dumps");
	conn->send(conn, s, strlen(s));
	(*conn->srv->c->tx_msgs)++;
	free(s);
	json_decref(msg);
}

static void
ovsdb_notify(struct ovsdb_conn *conn, const char *method, const char *name)
{
	ovsdb_conn_send(conn, json_pack("{sss[s]sn}", "method", method,
	    "params", name, "id"));
}

/* ---- locks (sections 4.1.8, 4.1.9, 4.1.10) ---- */

static struct ovsdb_lockreq *
ovsdb_lock_owner(struct ovsdb_server *srv, const char *name)
{
	struct ovsdb_lockreq	*r;

	TAILQ_FOREACH(r, &srv->locks, entry)
		if (strcmp(r->name, name) == 0)
			return r;
	return NULL;
}

static struct ovsdb_lockreq *
ovsdb_lock_mine(struct ovsdb_conn *conn, const char *name)
{
	struct ovsdb_lockreq	*r;

	TAILQ_FOREACH(r, &conn->srv->locks, entry)
		if (r->conn == conn && strcmp(r->name, name) == 0)
			return r;
	return NULL;
}

/* Does the connection hold lock name?  (For "assert", 5.2.10.) */
static int
ovsdb_conn_owns(struct ovsdb_conn *conn, const char *name)
{
	struct ovsdb_lockreq	*r = ovsdb_lock_owner(conn->srv, name);

	return r != NULL && r->conn == conn;
}

/* Drop a request; the next in line is told it holds the lock now. */
static void
ovsdb_lock_drop(struct ovsdb_server *srv, struct ovsdb_lockreq *r)
{
	struct ovsdb_lockreq	*next;
	int			 owned = ovsdb_lock_owner(srv, r->name) == r;

	TAILQ_REMOVE(&srv->locks, r, entry);
	if (owned && (next = ovsdb_lock_owner(srv, r->name)) != NULL) {
		(*srv->c->locks_granted)++;
		ovsdb_notify(next->conn, "locked", next->name);
	}
	free(r);
}

/* lock and steal: {"locked": true|false}. */
static json_t *
ovsdb_lock(struct ovsdb_conn *conn, const char *name, int steal,
    json_t **err)
{
	struct ovsdb_server	*srv = conn->srv;
	struct ovsdb_lockreq	*r, *owner;

	if ((r = ovsdb_lock_mine(conn, name)) != NULL && !steal) {
		*err = ovsdb_error("syntax error", "must issue \"unlock\" "
		    "before new \"lock\"");
		return NULL;
	}
	if (r == NULL) {
		r = xcalloc(1, sizeof(*r) + strlen(name) + 1);
		memcpy(r->name, name, strlen(name) + 1);
		r->conn = conn;
	} else
		TAILQ_REMOVE(&srv->locks, r, entry);
	owner = ovsdb_lock_owner(srv, name);
	if (steal) {
		TAILQ_INSERT_HEAD(&srv->locks, r, entry);
		if (owner != NULL && owner->conn != conn) {
			(*srv->c->locks_stolen)++;
			ovsdb_notify(owner->conn, "stolen", name);
		}
	} else
		TAILQ_INSERT_TAIL(&srv->locks, r, entry);
	if (owner == NULL || steal)
		(*srv->c->locks_granted)++;
	return json_pack("{sb}", "locked", owner == NULL || steal);
}

static json_t *
ovsdb_unlock(struct ovsdb_conn *conn, const char *name, json_t **err)
{
	struct ovsdb_lockreq	*r;

	if ((r = ovsdb_lock_mine(conn, name)) == NULL) {
		*err = ovsdb_error("syntax error", "unlock: \"unlock\" "
		    "without \"lock\" or \"steal\"");
		return NULL;
	}
	ovsdb_lock_drop(conn->srv, r);
	return json_object();
}

void
ovsdb_conn_detach(struct ovsdb_conn *conn)
{
	struct ovsdb_lockreq	*r, *tmp;

	ovsdb_monitors_free(conn);
	for (r = TAILQ_FIRST(&conn->srv->locks); r != NULL; r = tmp) {
		tmp = TAILQ_NEXT(r, entry);
		if (r->conn == conn)
			ovsdb_lock_drop(conn->srv, r);
	}
	LIST_REMOVE(conn, entry);
	conn->srv = NULL;
}

/* ---- methods ---- */

struct ovsdb_db *
ovsdb_server_db(struct ovsdb_server *srv, const char *method,
    const json_t *params, json_t **err)
{
	const char	*name = json_string_value(json_array_get(params, 0));

	if (name == NULL) {
		*err = ovsdb_error("syntax error", "%s request params must "
		    "begin with <db-name>", method);
		return NULL;
	}
	if (strcmp(name, srv->schema->name) == 0)
		return srv->db;
	if (srv->sys != NULL && strcmp(name, srv->sys->schema->name) == 0)
		return srv->sys->db;
	*err = ovsdb_error("unknown database", "%s request specifies unknown "
	    "database %s", method, name);
	return NULL;
}

static int
ovsdb_txn_owns(void *arg, const char *name)
{
	return ovsdb_conn_owns(arg, name);
}

/*
 * A transact of more than max_ops operations, refused unrun: section
 * 4.1.3's result array, one element per operation, the error where the
 * failure is (the first: none ran) and null after it.  "resources
 * exhausted" is the section's error for "more resources (memory, disk,
 * CPU, etc.) than are currently available to the database server".
 */
static json_t *
ovsdb_txn_refuse(struct ovsdb_conn *conn, size_t nops, const char *who)
{
	struct ovsdb_server	*srv = conn->srv;
	json_t			*res = json_array();

	(*srv->c->transact_errors)++;
	(*srv->c->transacts_refused)++;
	if (!(*conn->logged & OVSDB_LOG_BIGTXN))
		log_warnx("%s: a transact of %zu operations refused, over "
		    "--max-transact-ops %u (further ones counted)", who, nops,
		    srv->max_ops);
	*conn->logged |= OVSDB_LOG_BIGTXN;
	json_array_append_new(res, ovsdb_error("resources exhausted",
	    "transaction of %zu operations, over this server's limit of %u "
	    "(--max-transact-ops)", nops, srv->max_ops));
	while (json_array_size(res) < nops)
		json_array_append_new(res, json_null());
	return res;
}

/* 4.1.3 transact; the monitors hear of what it changed.  _Server is
 * read-only: a change to it fails as its commit would. */
static json_t *
ovsdb_m_transact(struct ovsdb_conn *conn, json_t *params, json_t **err,
    const char *who)
{
	struct ovsdb_server	*srv = conn->srv;
	struct ovsdb_txn_ctx	 ctx = { ovsdb_txn_owns, conn };
	struct ovsdb_db		*db, *next;
	json_t			*ops, *res;

	if ((db = ovsdb_server_db(srv, "transact", params, err)) == NULL)
		return NULL;
	(*srv->c->transacts)++;
	if (srv->max_ops != 0 && json_array_size(params) - 1 > srv->max_ops)
		return ovsdb_txn_refuse(conn, json_array_size(params) - 1, who);
	ops = json_array();
	json_array_extend(ops, params);
	json_array_remove(ops, 0);
	if (ovsdb_transact(db, ops, &ctx, &res, &next) == -1)
		(*srv->c->transact_errors)++;
	json_decref(ops);
	if (next != NULL && db != srv->db) {
		ovsdb_db_free(next);
		json_array_append_new(res, ovsdb_error("not allowed", "the "
		    "_Server database is read-only"));
		(*srv->c->transact_errors)++;
		return res;
	}
	srv->changed |= next != NULL;
	if (next != NULL && srv->watch != NULL)
		srv->watch->commit(srv->watch_arg, conn, srv->db, next);
	ovsdb_server_commit(srv, next);
	return res;
}

/* list_dbs (4.1.1) and get_schema (4.1.2). */
static json_t *
ovsdb_m_dbs(struct ovsdb_conn *conn, int schema, json_t *params,
    json_t **err)
{
	struct ovsdb_server	*srv = conn->srv;
	struct ovsdb_db		*db;

	if (schema)
		return (db = ovsdb_server_db(srv, "get_schema", params,
		    err)) == NULL ? NULL : json_incref(db->schema->json);
	if (srv->sys == NULL)
		return json_pack("[s]", srv->schema->name);
	return json_pack("[ss]", srv->schema->name, srv->sys->schema->name);
}

static json_t *
ovsdb_m_lock(struct ovsdb_conn *conn, const char *method, json_t *params,
    json_t **err)
{
	const char	*name = json_string_value(json_array_get(params, 0));

	if (name == NULL || json_array_size(params) != 1) {
		*err = ovsdb_error("syntax error", "%s takes a lock name",
		    method);
		return NULL;
	}
	if (strcmp(method, "unlock") == 0)
		return ovsdb_unlock(conn, name, err);
	return ovsdb_lock(conn, name, strcmp(method, "steal") == 0, err);
}

/* A request's result; NULL with *err for an error reply, or with
 * neither for an unknown method. */
static json_t *
ovsdb_method(struct ovsdb_conn *conn, const char *m, json_t *params,
    json_t **err, const char *who)
{
	if (strcmp(m, "transact") == 0)
		return ovsdb_m_transact(conn, params, err, who);
	if (strcmp(m, "echo") == 0) {
		(*conn->srv->c->echo_received)++;
		return json_incref(params);
	}
	/* ovsdb-server(7): a client that follows _Server; it has none
	 * here, so there is nothing to change. */
	if (strcmp(m, "set_db_change_aware") == 0)
		return json_object();
	if (strcmp(m, "list_dbs") == 0 || strcmp(m, "get_schema") == 0)
		return ovsdb_m_dbs(conn, m[0] == 'g', params, err);
	if (strcmp(m, "monitor") == 0)
		return ovsdb_monitor_add(conn, 1, params, err);
	if (strcmp(m, "monitor_cond") == 0)
		return ovsdb_monitor_add(conn, 2, params, err);
	if (strcmp(m, "monitor_cond_since") == 0)
		return ovsdb_monitor_add(conn, 3, params, err);
	if (strcmp(m, "monitor_cancel") == 0)
		return ovsdb_monitor_cancel(conn, params, err);
	if (strcmp(m, "monitor_cond_change") == 0)
		return ovsdb_monitor_change(conn, params, err);
	if (strcmp(m, "lock") == 0 || strcmp(m, "steal") == 0 ||
	    strcmp(m, "unlock") == 0)
		return ovsdb_m_lock(conn, m, params, err);
	return NULL;
}

/* What a request left to say after its reply (monitor_cond_change). */
static void
ovsdb_conn_after(struct ovsdb_conn *conn)
{
	json_t	*msg = conn->after;

	conn->after = NULL;
	if (msg != NULL)
		ovsdb_conn_send(conn, msg);
}

static void
ovsdb_request(struct ovsdb_conn *conn, const char *m, json_t *params,
    json_t *id, const char *who)
{
	const struct ovsdb_counters	*c = conn->srv->c;
	json_t				*res, *err = NULL;

	if ((res = ovsdb_method(conn, m, params, &err, who)) == NULL &&
	    err == NULL) {
		(*c->unknown_methods)++;
		if (!(*conn->logged & OVSDB_LOG_METHOD))
			log_warnx("%s: unknown method %s; further ones "
			    "counted", who, m);
		*conn->logged |= OVSDB_LOG_METHOD;
		err = json_string("unknown method");
	}
	if (json_is_null(id) || id == NULL) {
		/* A notification gets no answer (JSON-RPC 1.0). */
		json_decref(res);
		json_decref(err);
		ovsdb_conn_after(conn);
		return;
	}
	/* As ovsdb-server: a result with "error": null, or an error
	 * without "result". */
	if (err != NULL) {
		(*c->errors_sent)++;
		ovsdb_conn_send(conn, json_pack("{sOso}", "id", id, "error",
		    err));
		return;
	}
	ovsdb_conn_send(conn, json_pack("{sOsosn}", "id", id, "result", res,
	    "error"));
	ovsdb_conn_after(conn);
}

/* Not JSON-RPC (section 4): logged once, counted, the end. */
static int
ovsdb_invalid(struct ovsdb_conn *conn, uint64_t *counter, uint8_t kind,
    const char *who, const char *why)
{
	(*counter)++;
	if (!(*conn->logged & kind))
		log_warnx("%s: %s; closing the connection (further ones "
		    "counted)", who, why);
	*conn->logged |= kind;
	return -1;
}

int
ovsdb_conn_message(struct ovsdb_conn *conn, const uint8_t *msg, size_t len,
    const char *who)
{
	const struct ovsdb_counters	*c = conn->srv->c;
	json_error_t			 e;
	json_t				*j, *m, *params, *id;
	int				 rc = 0;

	(*c->rx_msgs)++;
	if ((j = json_loadb((const char *)msg, len, 0, &e)) == NULL)
		return ovsdb_invalid(conn, c->decode_errors, OVSDB_LOG_DECODE,
		    who, e.text);
	m = json_object_get(j, "method");
	params = json_object_get(j, "params");
	id = json_object_get(j, "id");
	if (json_is_string(m) && json_is_array(params))
		ovsdb_request(conn, json_string_value(m), params, id, who);
	else if (m == NULL && id != NULL && (json_object_get(j, "result") !=
	    NULL || json_object_get(j, "error") != NULL))
		(*c->echo_replies)++;	/* we ask only echo */
	else
		rc = ovsdb_invalid(conn, c->invalid_msgs, OVSDB_LOG_INVALID,
		    who, "not a JSON-RPC request, notification or reply");
	json_decref(j);
	return rc;
}

void
ovsdb_conn_probe(struct ovsdb_conn *conn)
{
	(*conn->srv->c->echo_sent)++;
	ovsdb_conn_send(conn, json_pack("{sss[]ss}", "method", "echo",
	    "params", "id", "echo"));
}
