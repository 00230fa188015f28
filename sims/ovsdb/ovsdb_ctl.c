/*
 * The OVSDB manager's sessions (ovsdb_ctl.h): RFC 7047's JSON-RPC 1.0
 * over TCP, the controller's side.  Framing is ovsdb_frame.c's (a JSON
 * value ends where its outermost brace closes), parsing jansson's.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <event2/util.h>

#include "ctl_listen.h"
#include "engine.h"
#include "log.h"
#include "metrics.h"
#include "ovsdb_ctl.h"

#define NS		1000000000ull
#define OVM_DB		"Open_vSwitch"
#define OVM_CLOSE_WAIT_NS	(2 * NS)

/*
 * The tables ODL's southbound monitors (its OvsdbConnectionInstance),
 * and of each the columns topology ovsdb:1 is written from: ODL asks for
 * every column, but a replica of Interface's statistics and status per
 * node would cost the controller memory and parse time it never uses.
 */
#define OVM_MAX_COLS	10
static const struct ovm_table_cols {
	const char	*table;
	const char	*cols[OVM_MAX_COLS];
} ovm_tables[] = {
	{ "Open_vSwitch", { "ovs_version", "db_version", "external_ids",
	    "other_config", "bridges", "manager_options" } },
	{ "Bridge", { "name", "datapath_id", "datapath_type", "fail_mode",
	    "protocols", "controller", "ports", "external_ids",
	    "other_config" } },
	{ "Port", { "name", "interfaces", "external_ids" } },
	{ "Interface", { "name", "type", "ofport", "options",
	    "external_ids" } },
	{ "Controller", { "target", "is_connected" } },
	{ "Manager", { "target", "is_connected" } },
};

enum ovm_op_kind {
	OVM_OP_LIST_DBS,
	OVM_OP_GET_SCHEMA,
	OVM_OP_MONITOR,
	OVM_OP_ECHO,
	OVM_OP_TRANSACT,
};

struct ovsdb_ctl_op {
	TAILQ_ENTRY(ovsdb_ctl_op)	 entry;
	uint64_t		 id;
	enum ovm_op_kind	 kind;
	ovsdb_ctl_done_cb	 cb;
	void			*arg;
	uint64_t		 deadline_ns;
};

/*
 * One manager: everything it holds, so that nothing of it lives in
 * file-level variables.  Its sessions and nodes point back at it (->om)
 * and its timer and listener get it as their argument.  The context-free
 * API of ovsdb_ctl.h serves ovm_main, the process's one instance.
 */
struct ovsdb_ctl {
	struct ovsdb_ctl_config	 cfg;
	struct ovsdb_ctl_stats	 st;
	struct ovsdb_ctl_sess_list	 sessions;
	struct ovsdb_ctl_node_list	 nodes;
	struct ovsdb_ctl_sess	*by_id;		/* the sessions up */
	struct ctl_listen	 lis;		/* the listener and ovm_tick */
	/* The sum of the sessions' held (ovm_hold(); ovm_sess_free() drops
	 * a session's): 0 with no session, as after ovsdb_ctl_stop(). */
	size_t			 buffered;
	char			 why[256];	/* a failed transact's error */
};

static struct ovsdb_ctl	ovm_main = {
	.sessions = TAILQ_HEAD_INITIALIZER(ovm_main.sessions),
	.nodes = TAILQ_HEAD_INITIALIZER(ovm_main.nodes),
};

static void	ovm_connect(struct ovsdb_ctl_node *);
static void	ovm_retry_later(struct ovsdb_ctl_node *);
static size_t	ovm_bridges(const struct ovsdb_ctl *);
static const struct ctl_sess_ops ovm_role_ops;
static void	ovm_transacted(struct ovsdb_ctl *, struct ovsdb_ctl_op *,
	    json_t *);

/* ---- sending ---- */

/* One JSON-RPC message out; -1 when the queue towards the node is past
 * its bound (the session is closed then: a node that does not read
 * would hold the controller's memory). */
static int	ovm_close(struct ovsdb_ctl_sess *, const char *why);

/*
 * What a session's input holds (a message on its way, or more), counted
 * against --ovsdb-max-buffered over all nodes: unauthenticated nodes each
 * sending most of a --ovsdb-max-message message would otherwise hold
 * that much each.
 */
static void
ovm_hold(struct ovsdb_ctl_sess *s, size_t n)
{
	struct ovsdb_ctl	*om = s->om;

	om->buffered = om->buffered - s->held + n;
	s->held = n;
}

static int
ovm_send(struct ovsdb_ctl_sess *s, json_t *msg)
{
	struct ovsdb_ctl	*om = s->om;
	struct evbuffer	*out = bufferevent_get_output(s->bev);
	char		*text;

	text = json_dumps(msg, JSON_COMPACT);
	json_decref(msg);
	if (text == NULL)
		fatalx("ovsdb: cannot encode a message");
	evbuffer_add(out, text, strlen(text));
	free(text);
	if (evbuffer_get_length(out) > om->cfg.max_output) {
		om->st.overflows++;
		return ovm_close(s, "output queue past --ovsdb-max-output");
	}
	return 0;
}

/* A request of ours, its reply expected by id (RFC 7047 section 4). */
static int
ovm_request(struct ovsdb_ctl_sess *s, const char *method, json_t *params,
    enum ovm_op_kind kind, ovsdb_ctl_done_cb cb, void *arg)
{
	struct ovsdb_ctl	*om = s->om;
	struct ovsdb_ctl_op	*op = xcalloc(1, sizeof(*op));

	op->id = ++s->next_id;
	op->kind = kind;
	op->cb = cb;
	op->arg = arg;
	op->deadline_ns = clock_ns() + (uint64_t)(om->cfg.op_timeout_s * NS);
	TAILQ_INSERT_TAIL(&s->ops, op, entry);
	return ovm_send(s, json_pack("{sssosI}", "method", method, "params",
	    params, "id", (json_int_t)op->id));
}

/* ---- the session's end ---- */

static void
ovm_ops_fail(struct ovsdb_ctl_sess *s, const char *why)
{
	struct ovsdb_ctl	*om = s->om;
	struct ovsdb_ctl_op	*op;

	while ((op = TAILQ_FIRST(&s->ops)) != NULL) {
		TAILQ_REMOVE(&s->ops, op, entry);
		if (op->kind == OVM_OP_TRANSACT) {
			om->st.transacts_failed++;
			if (op->cb != NULL)
				op->cb(op->arg, NULL, why);
		}
		free(op);
	}
}

/* Closing: what is queued still goes out; the tick frees it.  Always
 * -1, for the callers that must touch the session no more. */
static int
ovm_close(struct ovsdb_ctl_sess *s, const char *why)
{
	struct ovsdb_ctl	*om = s->om;

	if (s->state == OVSDB_CTL_CLOSING)
		return -1;
	log_info("ovsdb: node %s (%s:%u): session closed: %s",
	    s->node_id[0] ? s->node_id : "-", s->remote_ip, s->remote_port,
	    why);
	om->st.closed++;
	if (s->state == OVSDB_CTL_UP)
		HASH_DEL(om->by_id, s);
	ovm_hold(s, 0);
	s->state = OVSDB_CTL_CLOSING;
	s->state_ns = clock_ns();
	bufferevent_disable(s->bev, EV_READ);
	ovm_ops_fail(s, why);
	if (s->cfg != NULL) {
		s->cfg->sess = NULL;
		ovm_retry_later(s->cfg);
		s->cfg = NULL;
	}
	return -1;
}

static void
ovm_sess_free(struct ovsdb_ctl_sess *s)
{
	struct ovsdb_ctl	*om = s->om;

	TAILQ_REMOVE(&om->sessions, s, entry);
	if (s->state == OVSDB_CTL_UP)
		HASH_DEL(om->by_id, s);
	ovm_hold(s, 0);
	ovm_ops_fail(s, "the controller stops");
	if (s->cfg != NULL)
		s->cfg->sess = NULL;
	bufferevent_free(s->bev);
	json_decref(s->tables);
	free(s);
}

/* ---- the replica ---- */

/* RFC 7047 section 4.1.6: <table-updates> of a monitor's reply or of an
 * update notification; a row without "new" was deleted. */
static int
ovm_apply(struct ovsdb_ctl_sess *s, json_t *updates)
{
	const char	*tname, *uuid;
	json_t		*tu, *ru, *rows, *nw;

	if (!json_is_object(updates))
		return -1;
	json_object_foreach(updates, tname, tu) {
		if (!json_is_object(tu))
			return -1;
		if ((rows = json_object_get(s->tables, tname)) == NULL) {
			rows = json_object();
			json_object_set_new(s->tables, tname, rows);
		}
		json_object_foreach(tu, uuid, ru) {
			if (!json_is_object(ru))
				return -1;
			nw = json_object_get(ru, "new");
			if (nw != NULL && !json_is_object(nw))
				return -1;
			if (nw != NULL)
				json_object_set(rows, uuid, nw);
			else
				json_object_del(rows, uuid);
		}
	}
	return 0;
}

json_t *
ovsdb_ctl_table(const struct ovsdb_ctl_sess *s, const char *table)
{
	json_t	*t = json_object_get(s->tables, table);

	return t != NULL && json_object_size(t) > 0 ? t : NULL;
}

/* ODL's node-id: the configured one, or ovsdb://uuid/<Open_vSwitch
 * row's uuid> for a node that connected in (SouthboundMapper). */
static void
ovm_name(struct ovsdb_ctl_sess *s)
{
	json_t		*ovs = ovsdb_ctl_table(s, "Open_vSwitch");
	const char	*uuid;
	json_t		*row;

	if (s->cfg != NULL) {
		snprintf(s->node_id, sizeof(s->node_id), "%s", s->cfg->id);
		return;
	}
	json_object_foreach(ovs, uuid, row) {
		snprintf(s->node_id, sizeof(s->node_id), "ovsdb://uuid/%s",
		    uuid);
		return;
	}
	snprintf(s->node_id, sizeof(s->node_id), "ovsdb://%s:%u",
	    s->remote_ip, s->remote_port);
}

/* ---- the session's start: list_dbs, get_schema, monitor ---- */

/* RFC 7047 4.1.5: a <monitor-request> of the columns the schema has. */
static void
ovm_monitor_table(json_t *req, const struct ovm_table_cols *t,
    json_t *schema_table)
{
	json_t	*have = json_object_get(schema_table, "columns"), *cols;
	size_t	 i;

	if (!json_is_object(have))
		return;
	cols = json_array();
	for (i = 0; i < OVM_MAX_COLS && t->cols[i] != NULL; i++)
		if (json_object_get(have, t->cols[i]) != NULL)
			json_array_append_new(cols, json_string(t->cols[i]));
	/* None of ours: every column, as an empty request asks. */
	if (json_array_size(cols) == 0) {
		json_decref(cols);
		json_object_set_new(req, t->table, json_object());
		return;
	}
	json_object_set_new(req, t->table, json_pack("{so}", "columns",
	    cols));
}

static int
ovm_monitor(struct ovsdb_ctl_sess *s, json_t *schema)
{
	json_t	*tables = json_object_get(schema, "tables"), *req;
	json_t	*ver = json_object_get(schema, "version");
	size_t	 i;

	if (!json_is_object(tables))
		return ovm_close(s, "get_schema answered no tables");
	if (json_is_string(ver))
		snprintf(s->db_version, sizeof(s->db_version), "%s",
		    json_string_value(ver));
	req = json_object();
	for (i = 0; i < nitems(ovm_tables); i++)
		ovm_monitor_table(req, &ovm_tables[i], json_object_get(tables,
		    ovm_tables[i].table));
	return ovm_request(s, "monitor", json_pack("[sso]", OVM_DB,
	    "sbsim-ctl", req), OVM_OP_MONITOR, NULL, NULL);
}

static int
ovm_list_dbs(struct ovsdb_ctl_sess *s, json_t *result)
{
	size_t	 i;
	json_t	*v;

	json_array_foreach(result, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v),
		    OVM_DB) == 0)
			return ovm_request(s, "get_schema", json_pack("[s]",
			    OVM_DB), OVM_OP_GET_SCHEMA, NULL, NULL);
	return ovm_close(s, "the node serves no Open_vSwitch database");
}

static int
ovm_monitored(struct ovsdb_ctl_sess *s, json_t *result)
{
	struct ovsdb_ctl	*om = s->om;
	struct ovsdb_ctl_sess	*old;

	if (ovm_apply(s, result) == -1) {
		om->st.bad_messages++;
		return ovm_close(s, "a malformed monitor reply");
	}
	ovm_name(s);
	/* A node that comes back before its old session was found dead
	 * (ODL's reconnect): the newer session is the node. */
	HASH_FIND_STR(om->by_id, s->node_id, old);
	if (old != NULL) {
		om->st.replaced++;
		ovm_close(old, "replaced by a newer session of the node");
	}
	s->state = OVSDB_CTL_UP;
	s->state_ns = clock_ns();
	om->st.monitors_up++;
	HASH_ADD_STR(om->by_id, node_id, s);
	log_debug("ovsdb: node %s up", s->node_id);
	return 0;
}

/* ---- receiving ---- */

/* A reply to one of ours. */
static int
ovm_reply(struct ovsdb_ctl_sess *s, json_t *msg)
{
	struct ovsdb_ctl	*om = s->om;

	json_t		*id = json_object_get(msg, "id");
	json_t		*res = json_object_get(msg, "result");
	json_t		*err = json_object_get(msg, "error");
	struct ovsdb_ctl_op	*op;
	int		 rc = 0;

	TAILQ_FOREACH(op, &s->ops, entry)
		if (json_is_integer(id) &&
		    (uint64_t)json_integer_value(id) == op->id)
			break;
	if (op == NULL) {
		om->st.bad_messages++;
		return ovm_close(s, "a reply to no request of ours");
	}
	TAILQ_REMOVE(&s->ops, op, entry);
	if (err != NULL && !json_is_null(err)) {
		if (op->kind == OVM_OP_TRANSACT) {
			om->st.transacts_failed++;
			op->cb(op->arg, NULL, json_is_string(err) ?
			    json_string_value(err) : "an error reply");
		} else if (op->kind != OVM_OP_ECHO)
			rc = ovm_close(s, "the node answered our request with "
			    "an error");
		free(op);
		return rc;
	}
	switch (op->kind) {
	case OVM_OP_LIST_DBS:
		rc = json_is_array(res) ? ovm_list_dbs(s, res) :
		    ovm_close(s, "list_dbs answered no array");
		break;
	case OVM_OP_GET_SCHEMA:
		rc = ovm_monitor(s, res);
		break;
	case OVM_OP_MONITOR:
		rc = ovm_monitored(s, res);
		break;
	case OVM_OP_ECHO:
		s->probe_ns = 0;
		break;
	case OVM_OP_TRANSACT:
		ovm_transacted(s->om, op, res);
		break;
	}
	free(op);
	return rc;
}

/* A request or notification from the node (section 4.1.6 update,
 * 4.1.11 echo); anything else gets an error reply, as ovsdb-server's
 * jsonrpc answers an unknown method. */
static int
ovm_method(struct ovsdb_ctl_sess *s, json_t *msg, const char *m)
{
	struct ovsdb_ctl	*om = s->om;

	json_t	*params = json_object_get(msg, "params");
	json_t	*id = json_object_get(msg, "id");

	if (strcmp(m, "echo") == 0 && id != NULL && !json_is_null(id)) {
		om->st.echo_answered++;
		return ovm_send(s, json_pack("{sOsnsO}", "result", params,
		    "error", "id", id));
	}
	if (strcmp(m, "update") == 0 && json_is_array(params) &&
	    json_array_size(params) == 2) {
		om->st.updates++;
		if (ovm_apply(s, json_array_get(params, 1)) == 0)
			return 0;
		om->st.bad_messages++;
		return ovm_close(s, "a malformed update");
	}
	if (id == NULL || json_is_null(id))
		return 0;	/* a notification we do not use */
	return ovm_send(s, json_pack("{snsssO}", "result", "error",
	    "unknown method", "id", id));
}

static int
ovm_message(struct ovsdb_ctl_sess *s, const char *data, size_t len)
{
	struct ovsdb_ctl	*om = s->om;

	json_error_t	 jerr;
	json_t		*msg, *m;
	int		 rc;

	msg = json_loadb(data, len, 0, &jerr);
	if (msg == NULL || !json_is_object(msg)) {
		om->st.bad_messages++;
		log_warnx("ovsdb: node %s:%u: malformed JSON-RPC (%s)",
		    s->remote_ip, s->remote_port, msg == NULL ? jerr.text :
		    "not an object");
		json_decref(msg);
		return ovm_close(s, "malformed JSON-RPC");
	}
	m = json_object_get(msg, "method");
	if (m != NULL && json_is_string(m))
		rc = ovm_method(s, msg, json_string_value(m));
	else if (m == NULL && json_object_get(msg, "id") != NULL)
		rc = ovm_reply(s, msg);
	else {
		om->st.bad_messages++;
		rc = ovm_close(s, "a message neither request nor reply");
	}
	json_decref(msg);
	return rc;
}

static void	ovm_read_messages(struct ovsdb_ctl_sess *, struct evbuffer *);

static void
ovm_read(struct bufferevent *bev, void *arg)
{
	struct ovsdb_ctl_sess	*s = arg;
	struct ovsdb_ctl	*om = s->om;
	struct evbuffer		*in = bufferevent_get_input(bev);

	s->last_rx_ns = clock_ns();
	s->probe_ns = 0;
	ovm_hold(s, evbuffer_get_length(in));
	if (om->buffered > om->cfg.max_buffered) {
		om->st.buffer_overflows++;
		log_warnx("ovsdb: node %s:%u: input of all nodes past "
		    "--ovsdb-max-buffered (%u bytes): closing this one",
		    s->remote_ip, s->remote_port, om->cfg.max_buffered);
		ovm_close(s, "input past --ovsdb-max-buffered");
		return;
	}
	ovm_read_messages(s, in);
	if (s->state == OVSDB_CTL_CLOSING)
		return;
	ovm_hold(s, evbuffer_get_length(in));
	/* A message begun: its deadline (a node trickling a byte now and
	 * then keeps the inactivity probe quiet).  A newline left after a
	 * whole message begins none (the framer has not started). */
	if (s->held == 0 || !s->frame.started)
		s->partial_ns = 0;
	else if (s->partial_ns == 0)
		s->partial_ns = s->last_rx_ns;
}

static void
ovm_read_messages(struct ovsdb_ctl_sess *s, struct evbuffer *in)
{
	struct ovsdb_ctl	*om = s->om;
	enum ovsdb_frame_rc	 rc;
	size_t			 len, mlen;
	uint8_t			*data;

	while (s->state != OVSDB_CTL_CLOSING &&
	    (len = evbuffer_get_length(in)) > 0) {
		/* The framer looks no further than the longest message. */
		if (len > om->cfg.max_message)
			len = om->cfg.max_message;
		data = evbuffer_pullup(in, len);
		rc = ovsdb_frame_scan(&s->frame, data, len, &mlen);
		if (rc == OVSDB_FRAME_MORE)
			return;
		if (rc != OVSDB_FRAME_WHOLE) {
			if (rc == OVSDB_FRAME_LONG)
				om->st.oversized++;
			else
				om->st.bad_messages++;
			log_warnx("ovsdb: node %s:%u: %s", s->remote_ip,
			    s->remote_port, ovsdb_frame_error(rc));
			ovm_close(s, ovsdb_frame_error(rc));
			return;
		}
		ovsdb_frame_reset(&s->frame);
		if (ovm_message(s, (const char *)data, mlen) == -1)
			return;
		evbuffer_drain(in, mlen);
		s->partial_ns = 0;
	}
}

/* The peer closed or the socket failed (ctl_sess_event()). */
static void
ovm_peer_gone(void *sess, const char *why)
{
	(void)ovm_close(sess, why);
}

/* ---- transacts ---- */

/* RFC 7047 section 4.1.3: the result holds one object per operation; a
 * failed one carries "error" (and a commit's failure adds one more). */
static void
ovm_transacted(struct ovsdb_ctl *om, struct ovsdb_ctl_op *op, json_t *res)
{
	json_t		*r, *e;
	const char	*d;
	size_t		 i;

	if (!json_is_array(res)) {
		om->st.transacts_failed++;
		op->cb(op->arg, NULL, "transact answered no array");
		return;
	}
	json_array_foreach(res, i, r) {
		e = json_object_get(r, "error");
		if (e == NULL || json_is_null(e))
			continue;
		d = json_string_value(json_object_get(r, "details"));
		snprintf(om->why, sizeof(om->why), "%s%s%s", json_is_string(e) ?
		    json_string_value(e) : "error", d ? ": " : "", d ? d : "");
		om->st.transacts_failed++;
		op->cb(op->arg, NULL, om->why);
		return;
	}
	op->cb(op->arg, res, NULL);
}

int
ovsdb_ctl_transact(struct ovsdb_ctl_sess *s, json_t *ops, ovsdb_ctl_done_cb cb,
    void *arg)
{
	struct ovsdb_ctl	*om = s->om;

	json_t	*params;

	if (s->state != OVSDB_CTL_UP) {
		json_decref(ops);
		return -1;
	}
	params = json_pack("[s]", OVM_DB);
	json_array_extend(params, ops);
	json_decref(ops);
	om->st.transacts_sent++;
	/* On overflow the session closes and fails the op: cb was called. */
	ovm_request(s, "transact", params, OVM_OP_TRANSACT, cb, arg);
	return 0;
}

/* ---- sessions ---- */

static void
ovm_addr(const struct sockaddr *sa, char *ip, size_t cap, uint16_t *port)
{
	const struct sockaddr_in	*sin = (const void *)sa;
	const struct sockaddr_in6	*sin6 = (const void *)sa;

	ip[0] = '\0';
	*port = 0;
	if (sa->sa_family == AF_INET) {
		inet_ntop(AF_INET, &sin->sin_addr, ip, cap);
		*port = ntohs(sin->sin_port);
	} else if (sa->sa_family == AF_INET6) {
		inet_ntop(AF_INET6, &sin6->sin6_addr, ip, cap);
		*port = ntohs(sin6->sin6_port);
	}
}

/* A connected socket's session: ODL asks list_dbs first. */
static struct ovsdb_ctl_sess *
ovm_sess_new(struct ovsdb_ctl *om, struct bufferevent *bev,
    struct ovsdb_ctl_node *n)
{
	struct ovsdb_ctl_sess	*s = xcalloc(1, sizeof(*s));
	struct sockaddr_storage	 ss;
	socklen_t		 len = sizeof(ss);
	int			 fd = bufferevent_getfd(bev), one = 1;

	s->cs.ops = &ovm_role_ops;
	s->om = om;
	s->bev = bev;
	s->cfg = n;
	s->tables = json_object();
	TAILQ_INIT(&s->ops);
	ovsdb_frame_init(&s->frame, om->cfg.max_message);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (getpeername(fd, (struct sockaddr *)&ss, &len) == 0)
		ovm_addr((struct sockaddr *)&ss, s->remote_ip,
		    sizeof(s->remote_ip), &s->remote_port);
	len = sizeof(ss);
	if (getsockname(fd, (struct sockaddr *)&ss, &len) == 0)
		ovm_addr((struct sockaddr *)&ss, s->local_ip,
		    sizeof(s->local_ip), &s->local_port);
	s->state = OVSDB_CTL_HELLO;
	s->state_ns = s->last_rx_ns = clock_ns();
	TAILQ_INSERT_TAIL(&om->sessions, s, entry);
	bufferevent_setcb(bev, ovm_read, NULL, ctl_sess_event, s);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
	ovm_request(s, "list_dbs", json_array(), OVM_OP_LIST_DBS, NULL,
	    NULL);
	return s;
}

static size_t
ovm_count_open(const struct ovsdb_ctl *om)
{
	struct ovsdb_ctl_sess	*s;
	size_t		 n = 0;

	TAILQ_FOREACH(s, &om->sessions, entry)
		n += s->state != OVSDB_CTL_CLOSING;
	return n;
}

static void
ovm_attach_one(void *ovm, evutil_socket_t fd, const struct sockaddr *sa,
    socklen_t salen)
{
	struct ovsdb_ctl	*om = ovm;
	struct bufferevent	*bev;
	char			 ip[OVSDB_CTL_HOST_MAX];
	uint16_t		 port;

	(void)salen;
	ovm_addr(sa, ip, sizeof(ip), &port);
	if (ovm_count_open(om) >= om->cfg.max_sessions) {
		om->st.refused++;
		log_warnx("ovsdb: node %s:%u refused: --ovsdb-max-sessions "
		    "(%u) reached", ip, port, om->cfg.max_sessions);
		evutil_closesocket(fd);
		return;
	}
	if ((bev = engine_bev_new(fd)) == NULL) {
		log_warnx("ovsdb: node %s:%u: no bufferevent", ip, port);
		return;
	}
	om->st.accepted++;
	ovm_sess_new(om, bev, NULL);
}

void
ovsdb_ctl_attach(int fd, const struct sockaddr *sa, socklen_t salen)
{
	ovm_attach_one(&ovm_main, fd, sa, salen);
}

/* ---- passive nodes: connecting out, with retries ---- */

static void
ovm_connect_event(struct bufferevent *bev, short what, void *arg)
{
	struct ovsdb_ctl_node	*n = arg;
	struct ovsdb_ctl	*om = n->om;

	n->connecting = NULL;
	if (what & BEV_EVENT_CONNECTED) {
		n->attempts = 0;
		om->st.connected_out++;
		bufferevent_set_timeouts(bev, NULL, NULL);
		log_info("ovsdb: connected to node %s (%s:%u)", n->id, n->ip,
		    n->port);
		n->sess = ovm_sess_new(om, bev, n);
		return;
	}
	om->st.connect_failures++;
	if (n->attempts == 1)
		log_warnx("ovsdb: node %s (%s:%u): cannot connect: %s; "
		    "retrying", n->id, n->ip, n->port,
		    what & BEV_EVENT_TIMEOUT ? "timed out" :
		    evutil_socket_error_to_string(
		    EVUTIL_SOCKET_ERROR()));
	bufferevent_free(bev);
	ovm_retry_later(n);
}

static int
ovm_node_addr(const struct ovsdb_ctl_node *n, struct sockaddr_storage *ss,
    int *len)
{
	char	text[OVSDB_CTL_HOST_MAX + 16];

	*len = sizeof(*ss);
	snprintf(text, sizeof(text), strchr(n->ip, ':') ? "[%s]:%u" :
	    "%s:%u", n->ip, n->port);
	return evutil_parse_sockaddr_port(text, (struct sockaddr *)ss, len);
}

static void
ovm_connect(struct ovsdb_ctl_node *n)
{
	struct sockaddr_storage	 ss;
	struct bufferevent	*bev;
	struct timeval		 tv = { 10, 0 };
	int			 len;

	if (n->sess != NULL || n->connecting != NULL)
		return;
	n->attempts++;
	if (ovm_node_addr(n, &ss, &len) == -1) {
		log_warnx("ovsdb: node %s: %s is not an IP address", n->id,
		    n->ip);
		return;
	}
	bev = bufferevent_socket_new(engine_base(), -1, BEV_OPT_CLOSE_ON_FREE);
	if (bev == NULL)
		fatalx("ovsdb: no bufferevent");
	bufferevent_setcb(bev, NULL, NULL, ovm_connect_event, n);
	bufferevent_set_timeouts(bev, NULL, &tv);
	n->connecting = bev;
	if (bufferevent_socket_connect(bev, (struct sockaddr *)&ss, len) ==
	    -1) {
		/* libevent has called ovm_connect_event already or will. */
		return;
	}
}

static void
ovm_retry_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	ovm_connect(arg);
}

/* 1, 2, 4 ... seconds, at most --ovsdb-retry-max apart. */
static void
ovm_retry_later(struct ovsdb_ctl_node *n)
{
	struct ovsdb_ctl	*om = n->om;
	double		wait = 1;
	uint32_t	i;
	struct timeval	tv;

	for (i = 1; i < n->attempts && wait < om->cfg.retry_max_s; i++)
		wait *= 2;
	if (wait > om->cfg.retry_max_s)
		wait = om->cfg.retry_max_s;
	tv.tv_sec = (time_t)wait;
	tv.tv_usec = (suseconds_t)((wait - (double)tv.tv_sec) * 1e6);
	engine_timer_add(n->retry, &tv);
}

struct ovsdb_ctl_node *
ovsdb_ctl_node_find(const char *id)
{
	struct ovsdb_ctl	*om = &ovm_main;
	struct ovsdb_ctl_node	*n;

	TAILQ_FOREACH(n, &om->nodes, entry)
		if (strcmp(n->id, id) == 0)
			return n;
	return NULL;
}

struct ovsdb_ctl_node *
ovsdb_ctl_node_add(const char *id, const char *ip, uint16_t port)
{
	struct ovsdb_ctl	*om = &ovm_main;
	struct ovsdb_ctl_node	*n;

	if ((n = ovsdb_ctl_node_find(id)) != NULL)
		ovsdb_ctl_node_del(n);
	n = xcalloc(1, sizeof(*n));
	n->om = om;
	snprintf(n->id, sizeof(n->id), "%s", id);
	snprintf(n->ip, sizeof(n->ip), "%s", ip);
	n->port = port;
	n->retry = engine_timer_new(0, ovm_retry_cb, n);
	TAILQ_INSERT_TAIL(&om->nodes, n, entry);
	ovm_connect(n);
	return n;
}

void
ovsdb_ctl_node_del(struct ovsdb_ctl_node *n)
{
	struct ovsdb_ctl	*om = n->om;

	TAILQ_REMOVE(&om->nodes, n, entry);
	if (n->sess != NULL) {
		n->sess->cfg = NULL;
		ovm_close(n->sess, "its node was deleted");
	}
	if (n->connecting != NULL)
		bufferevent_free(n->connecting);
	event_free(n->retry);
	free(n);
}

struct ovsdb_ctl_node_list *
ovsdb_ctl_nodes(void)
{
	struct ovsdb_ctl	*om = &ovm_main;

	return &om->nodes;
}

/* ---- timers ---- */

static void
ovm_ops_expire(struct ovsdb_ctl_sess *s, uint64_t now)
{
	struct ovsdb_ctl	*om = s->om;
	struct ovsdb_ctl_op	*op, *next;

	for (op = TAILQ_FIRST(&s->ops); op != NULL; op = next) {
		next = TAILQ_NEXT(op, entry);
		if (op->kind != OVM_OP_TRANSACT || now < op->deadline_ns)
			continue;
		TAILQ_REMOVE(&s->ops, op, entry);
		om->st.transacts_failed++;
		op->cb(op->arg, NULL, "the node did not answer in time");
		free(op);
	}
}

/* RFC 7047 section 4.1.11: echo as the inactivity probe; a node silent
 * for a second period is gone. */
static void
ovm_sess_timers(struct ovsdb_ctl_sess *s, uint64_t now)
{
	struct ovsdb_ctl	*om = s->om;
	uint64_t	probe = (uint64_t)(om->cfg.probe_s * NS);

	if (s->state == OVSDB_CTL_HELLO && now - s->state_ns >=
	    (uint64_t)(om->cfg.monitor_timeout_s * NS)) {
		om->st.timeouts++;
		ovm_close(s, "no monitor reply in time");
		return;
	}
	if (s->partial_ns != 0 && now - s->partial_ns >=
	    (uint64_t)(om->cfg.message_timeout_s * NS)) {
		om->st.slow_messages++;
		ovm_close(s, "a message not whole in --ovsdb-message-timeout");
		return;
	}
	ovm_ops_expire(s, now);
	if (probe == 0 || now - s->last_rx_ns < probe)
		return;
	if (s->probe_ns != 0 && now - s->probe_ns >= probe) {
		om->st.timeouts++;
		ovm_close(s, "no answer to the inactivity probe");
		return;
	}
	if (s->probe_ns == 0) {
		s->probe_ns = now;
		om->st.probes_sent++;
		ovm_request(s, "echo", json_array(), OVM_OP_ECHO, NULL, NULL);
	}
}

static void
ovm_tick(void *ovm, uint64_t now)
{
	struct ovsdb_ctl	*om = ovm;
	struct ovsdb_ctl_sess	*s, *next;

	if (HASH_COUNT(om->by_id) > om->st.nodes_max)
		om->st.nodes_max = HASH_COUNT(om->by_id);
	if (ovm_bridges(om) > om->st.bridges_max)
		om->st.bridges_max = ovm_bridges(om);
	for (s = TAILQ_FIRST(&om->sessions); s != NULL; s = next) {
		next = TAILQ_NEXT(s, entry);
		if (s->state != OVSDB_CTL_CLOSING)
			ovm_sess_timers(s, now);
		else if (evbuffer_get_length(bufferevent_get_output(s->bev))
		    == 0 || now - s->state_ns >= OVM_CLOSE_WAIT_NS)
			ovm_sess_free(s);
	}
}

/* ---- the manager ---- */

/* What ctl_listen.c does for the manager. */
static const struct ctl_sess_ops ovm_role_ops = {
	.what = "OVSDB", .peer_closed = "the node closed the connection",
	.tick_ms = 100, .attach = ovm_attach_one, .tick = ovm_tick,
	.close = ovm_peer_gone,
};

/* ODL's defaults where it has them: OVS's 5 s inactivity probe. */
const struct ovsdb_ctl_config ovsdb_ctl_config_default = {
	.probe_s = 5, .monitor_timeout_s = 30, .op_timeout_s = 30,
	.retry_max_s = 8, .max_sessions = 10000,
	.max_message = 4u * 1024 * 1024, .max_output = 16u * 1024 * 1024,
	.max_buffered = 64u * 1024 * 1024, .message_timeout_s = 10,
};

int
ovsdb_ctl_start(const struct ovsdb_ctl_config *c, char *err, size_t errlen)
{
	struct ovsdb_ctl	*om = &ovm_main;

	om->cfg = *c;
	memset(&om->st, 0, sizeof(om->st));
	return ctl_listen_start(&om->lis, &om->cfg.listen, &ovm_role_ops, om,
	    err, errlen);
}

void
ovsdb_ctl_stop(void)
{
	struct ovsdb_ctl	*om = &ovm_main;
	struct ovsdb_ctl_sess	*s;
	struct ovsdb_ctl_node	*n;

	ctl_listen_stop(&om->lis);
	while ((n = TAILQ_FIRST(&om->nodes)) != NULL)
		ovsdb_ctl_node_del(n);
	while ((s = TAILQ_FIRST(&om->sessions)) != NULL)
		ovm_sess_free(s);
}

const struct ovsdb_ctl_stats *
ovsdb_ctl_stats(void)
{
	return &ovm_main.st;
}

struct ovsdb_ctl_sess_list *
ovsdb_ctl_sessions(void)
{
	struct ovsdb_ctl	*om = &ovm_main;

	return &om->sessions;
}

struct ovsdb_ctl_sess *
ovsdb_ctl_find(const char *node_id)
{
	struct ovsdb_ctl	*om = &ovm_main;
	struct ovsdb_ctl_sess	*s;

	HASH_FIND_STR(om->by_id, node_id, s);
	return s;
}

size_t
ovsdb_ctl_count_up(void)
{
	struct ovsdb_ctl	*om = &ovm_main;

	return HASH_COUNT(om->by_id);
}

static size_t
ovm_bridges(const struct ovsdb_ctl *om)
{
	struct ovsdb_ctl_sess	*s;
	size_t		 n = 0;

	TAILQ_FOREACH(s, &om->sessions, entry)
		if (s->state == OVSDB_CTL_UP)
			n += json_object_size(json_object_get(s->tables,
			    "Bridge"));
	return n;
}

size_t
ovsdb_ctl_count_bridges(void)
{
	return ovm_bridges(&ovm_main);
}
