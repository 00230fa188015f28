/*
 * Unit tests of the controller's OVSDB manager (sims/ovsdb/ovsdb_ctl.c)
 * through its attach seam, over a socket pair whose other end is one
 * device's own OVSDB server (ovsdb_server.c, the one sbsim ovsdb runs):
 * the session's start (list_dbs, get_schema, monitor) and the node-id it
 * gives, the replica following the server's commits (RFC 7047 4.1.6),
 * transacts that succeed and one the server refuses, echo answered both
 * ways (4.1.11), and malformed input or a reply past the output bound
 * closing the session with a count.
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "engine.h"
#include "log.h"
#include "metrics.h"
#include "ovsdb_ctl.h"
#include "ovsdb_server.h"

#include "check.h"

static const char schema_text[] =
"{'name':'Open_vSwitch','version':'8.3.1','tables':{"
" 'Open_vSwitch':{'isRoot':true,'maxRows':1,'columns':{"
"  'bridges':{'type':{'key':{'type':'uuid','refTable':'Bridge'},"
"   'min':0,'max':'unlimited'}},"
"  'ovs_version':{'type':{'key':'string','min':0,'max':1}}}},"
" 'Bridge':{'indexes':[['name']],'columns':{"
"  'name':{'type':'string','mutable':false}}}}}";

/* The device: its server, and its end of the socket pair. */
static uint64_t			 cnt[sizeof(struct ovsdb_counters) /
				    sizeof(uint64_t *)];
static struct ovsdb_counters	 counters;
static struct ovsdb_schema	*schema;
static struct ovsdb_server	 srv;
static struct ovsdb_conn	 conn;
static struct ovsdb_frame	 frame;
static struct bufferevent	*dev_bev;
static int			 dev_closed;
static uint32_t			 max_output;	/* 0: the default */

static char	*quotes(const char *);

/* The device's own write, single quotes for double (ovsdb_server_write
 * keeps ops). */
static int
dev_write(const char *ops, char *err, size_t errlen)
{
	char	*t = quotes(ops);
	json_t	*j = json_loads(t, 0, NULL);
	int	 rc;

	err[0] = '\0';
	rc = j == NULL ? -1 : ovsdb_server_write(&srv, j, err, errlen);
	json_decref(j);
	free(t);
	return rc;
}

static char *
quotes(const char *s)
{
	char	*t = xstrdup(s), *p;

	for (p = t; *p != '\0'; p++)
		if (*p == '\'')
			*p = '"';
	return t;
}

static json_t *
jq(const char *s)
{
	char	*t = quotes(s);
	json_t	*j = json_loads(t, 0, NULL);

	free(t);
	if (j == NULL)
		fatalx("bad test JSON: %s", s);
	return j;
}

static void
dev_send(struct ovsdb_conn *c, const char *buf, size_t len)
{
	(void)c;
	bufferevent_write(dev_bev, buf, len);
}

static void
dev_read(struct bufferevent *bev, void *arg)
{
	struct evbuffer	*in = bufferevent_get_input(bev);
	size_t		 len, mlen;
	uint8_t		*data;

	(void)arg;
	while ((len = evbuffer_get_length(in)) > 0) {
		data = evbuffer_pullup(in, len);
		if (ovsdb_frame_scan(&frame, data, len, &mlen) !=
		    OVSDB_FRAME_WHOLE)
			return;
		ovsdb_frame_reset(&frame);
		ovsdb_conn_message(&conn, data, mlen, "device");
		evbuffer_drain(in, mlen);
	}
}

static void
dev_event(struct bufferevent *bev, short what, void *arg)
{
	(void)bev;
	(void)arg;
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		dev_closed = 1;
}

/* Run the loop until *flag or 5 s passed. */
static void
spin_until(const int *flag)
{
	uint64_t	end = clock_ns() + 5000000000ull;

	while (!*flag && clock_ns() < end)
		event_base_loop(engine_base(), EVLOOP_ONCE | EVLOOP_NONBLOCK);
}

static void
spin(double secs)
{
	uint64_t	end = clock_ns() + (uint64_t)(secs * 1e9);

	while (clock_ns() < end)
		event_base_loop(engine_base(), EVLOOP_ONCE | EVLOOP_NONBLOCK);
}

static int	up;

static void
wait_up(void)
{
	uint64_t	end = clock_ns() + 5000000000ull;

	up = 0;
	while (ovsdb_ctl_count_up() == 0 && clock_ns() < end)
		event_base_loop(engine_base(), EVLOOP_ONCE | EVLOOP_NONBLOCK);
	up = ovsdb_ctl_count_up() > 0;
}

/* A device with one Open_vSwitch row and bridge br0, attached. */
static void
setup(void)
{
	uint64_t		**p = (uint64_t **)&counters;
	struct ovsdb_ctl_config	 c;
	struct sockaddr_in	*sin;
	char			 err[256], *s = quotes(schema_text);
	int			 fds[2];
	size_t			 i;

	for (i = 0; i < nitems(cnt); i++) {
		cnt[i] = 0;
		p[i] = &cnt[i];
	}
	if (schema == NULL && (schema = ovsdb_schema_parse(json_loads(s, 0,
	    NULL), err, sizeof(err))) == NULL)
		fatalx("schema: %s", err);
	free(s);
	ovsdb_server_init(&srv, schema, ovsdb_db_new(schema), &counters);
	if (dev_write("[{'op':'insert','table':'Bridge','row':{'name':'br0'},"
	    "'uuid-name':'b'},{'op':'insert','table':'Open_vSwitch','row':"
	    "{'ovs_version':'3.1.0','bridges':['named-uuid','b']}}]", err,
	    sizeof(err)) == -1)
		fatalx("seed: %s", err);
	engine_init();
	c = ovsdb_ctl_config_default;
	if (endpoint_parse_listen("ovsdb", "ptcp:6640:127.0.0.1", &c.listen,
	    err, sizeof(err)) == -1)
		fatalx("%s", err);
	sin = (struct sockaddr_in *)&c.listen.ss;
	sin->sin_port = 0;	/* any free port: only the seam is used */
	c.probe_s = 0.3;
	if (max_output != 0)
		c.max_output = max_output;
	if (ovsdb_ctl_start(&c, err, sizeof(err)) == -1)
		fatalx("%s", err);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == -1)
		fatal("socketpair");
	ovsdb_frame_init(&frame, 1 << 20);
	ovsdb_conn_attach(&srv, &conn, dev_send);
	dev_closed = 0;
	dev_bev = bufferevent_socket_new(engine_base(), fds[1],
	    BEV_OPT_CLOSE_ON_FREE);
	bufferevent_setcb(dev_bev, dev_read, NULL, dev_event, NULL);
	bufferevent_enable(dev_bev, EV_READ | EV_WRITE);
	ovsdb_ctl_attach(fds[0], (struct sockaddr *)&(struct sockaddr_un){
	    .sun_family = AF_UNIX }, sizeof(struct sockaddr_un));
}

static void
teardown(void)
{
	ovsdb_ctl_stop();
	bufferevent_free(dev_bev);
	ovsdb_conn_detach(&conn);
	ovsdb_server_free(&srv);
	engine_free();
}

static struct ovsdb_ctl_sess *
first(void)
{
	return TAILQ_FIRST(ovsdb_ctl_sessions());
}

/* list_dbs, get_schema, monitor: the node is up with its replica. */
static void
test_session_up(void)
{
	struct ovsdb_ctl_sess	*s;
	const char	*uuid = NULL;
	json_t		*row, *br;

	setup();
	wait_up();
	CHECK(up, "the session came up");
	s = first();
	json_object_foreach(ovsdb_ctl_table(s, "Open_vSwitch"), uuid, row)
		break;
	CHECK(uuid != NULL && strncmp(s->node_id, "ovsdb://uuid/", 13) == 0 &&
	    strcmp(s->node_id + 13, uuid) == 0, "node-id %s", s->node_id);
	CHECK(strcmp(s->db_version, "8.3.1") == 0, "db-version %s",
	    s->db_version);
	CHECK(*counters.monitors == 1, "one monitor: %llu",
	    (unsigned long long)*counters.monitors);
	CHECK(ovsdb_ctl_count_bridges() == 1, "one bridge");
	json_object_foreach(ovsdb_ctl_table(s, "Bridge"), uuid, br)
		CHECK(strcmp(json_string_value(json_object_get(br, "name")),
		    "br0") == 0, "br0 in the replica");
	teardown();
}

/* A commit of the device's own reaches the replica as an update. */
static void
test_update(void)
{
	char	err[256];

	setup();
	wait_up();
	CHECK(dev_write("[{'op':'insert','table':'Bridge','row':"
	    "{'name':'br1'},'uuid-name':'b'},{'op':'mutate','table':"
	    "'Open_vSwitch','where':[],'mutations':[['bridges','insert',"
	    "['named-uuid','b']]]}]", err, sizeof(err)) == 0, "write: %s",
	    err);
	spin(0.2);
	CHECK(ovsdb_ctl_count_bridges() == 2, "two bridges: %zu",
	    ovsdb_ctl_count_bridges());
	CHECK(ovsdb_ctl_stats()->updates == 1, "one update");
	teardown();
}

static int	done, ok;
static char	why[256];

static void
t_done(void *arg, json_t *result, const char *w)
{
	(void)arg;
	done = 1;
	ok = result != NULL;
	snprintf(why, sizeof(why), "%s", w ? w : "");
}

static void
transact(const char *ops)
{
	done = ok = 0;
	CHECK(ovsdb_ctl_transact(first(), jq(ops), t_done, NULL) == 0, "sent");
	spin_until(&done);
	CHECK(done, "answered");
}

/* A transact the server takes and one it refuses (a second br0: the
 * Bridge table's name index). */
static void
test_transact(void)
{
	setup();
	wait_up();
	transact("[{'op':'insert','table':'Bridge','row':{'name':'br2'},"
	    "'uuid-name':'b'},{'op':'mutate','table':'Open_vSwitch','where':"
	    "[],'mutations':[['bridges','insert',['named-uuid','b']]]}]");
	CHECK(ok, "br2 inserted: %s", why);
	spin(0.1);
	CHECK(ovsdb_ctl_count_bridges() == 2, "br2 in the replica");
	transact("[{'op':'insert','table':'Bridge','row':{'name':'br0'},"
	    "'uuid-name':'b'},{'op':'mutate','table':'Open_vSwitch','where':"
	    "[],'mutations':[['bridges','insert',['named-uuid','b']]]}]");
	CHECK(!ok && strstr(why, "constraint violation") != NULL,
	    "a second br0 refused: %s", why);
	CHECK(ovsdb_ctl_stats()->transacts_sent == 2 &&
	    ovsdb_ctl_stats()->transacts_failed == 1, "counted");
	teardown();
}

/* The device's echo is answered; ours, after 0.3 s of silence, is
 * answered by the device and the session stays. */
static void
test_echo(void)
{
	setup();
	wait_up();
	ovsdb_conn_probe(&conn);
	spin(0.1);
	CHECK(ovsdb_ctl_stats()->echo_answered == 1,
	    "the device's echo answered");
	CHECK(*counters.echo_replies == 1, "the device got the reply");
	spin(1.0);
	CHECK(ovsdb_ctl_stats()->probes_sent >= 2, "probes sent: %llu",
	    (unsigned long long)ovsdb_ctl_stats()->probes_sent);
	CHECK(*counters.echo_received >= 2, "the device answered them");
	CHECK(ovsdb_ctl_count_up() == 1 && ovsdb_ctl_stats()->timeouts == 0,
	    "the session stayed");
	teardown();
}

/* Not JSON, and JSON that is not JSON-RPC: counted, the session closed,
 * nothing else happens. */
static void
bad(const char *text)
{
	setup();
	wait_up();
	bufferevent_write(dev_bev, text, strlen(text));
	spin_until(&dev_closed);
	CHECK(dev_closed, "%s: the manager closed the session", text);
	CHECK(ovsdb_ctl_stats()->bad_messages == 1 && ovsdb_ctl_count_up() == 0,
	    "%s: counted", text);
	teardown();
}

static void
test_malformed(void)
{
	bad("{\"id\": [1,, 2]}");
	bad("{\"params\": []}");
	bad("{\"id\": 99, \"result\": [], \"error\": null}");
	bad("{\"method\": \"update\", \"params\": [null, {\"Bridge\": 1}]}");
}

/* A reply that would queue more than --ovsdb-max-output towards the
 * node closes its session: an echo whose params are 8 KiB. */
static void
test_overflow(void)
{
	char	msg[9000];

	max_output = 4096;
	setup();
	wait_up();
	snprintf(msg, sizeof(msg), "{\"method\": \"echo\", \"params\": "
	    "[\"%08192d\"], \"id\": \"e\"}", 0);
	bufferevent_write(dev_bev, msg, strlen(msg));
	spin_until(&dev_closed);
	CHECK(dev_closed && ovsdb_ctl_stats()->overflows == 1 &&
	    ovsdb_ctl_count_up() == 0, "closed, counted");
	teardown();
	max_output = 0;
}

static const struct check_case cases[] = {
	CASE(test_session_up),
	CASE(test_update),
	CASE(test_transact),
	CASE(test_echo),
	CASE(test_malformed),
	CASE(test_overflow),
};

int
main(int argc, char **argv)
{
	int	rc;

	log_init("test_ovsdb_ctl", LOG_QUIET);
	rc = check_run(cases, argc, argv);
	ovsdb_schema_free(schema);
	return rc;
}
