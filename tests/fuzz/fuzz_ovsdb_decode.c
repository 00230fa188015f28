/*
 * libFuzzer harness for the OVSDB JSON-RPC framer (docs/design.md,
 * "Testing layers").
 *
 * Input: a byte stream as a device reads it from TCP (RFC 7047 section
 * 4).  It goes through the framer whole and again in uneven pieces (the
 * way a session gets it): both must give the same messages, each a span
 * that begins with '{' or '[' after whitespace and ends with the
 * matching close, the stream's own bytes in order.  Each whole message
 * then goes to a device's server (ovsdb_server.c) with a database of a
 * small Open_vSwitch-like schema, as a session would hand it over: every
 * method, transact with every operation and the commit's checks, the
 * monitors and their updates to a second connection, locks.  Whatever
 * the server writes must be JSON; a message it refuses ends the session
 * (the rest of the stream is not read, as on a real connection).
 *
 * Built without SBSIM_LIBFUZZER, main() runs the harness on each file
 * named on the command line; with no arguments it runs a self-test over
 * built-in seeds: every prefix and every one-byte mutation of them.
 *
 * With libFuzzer (tests/fuzz/README.md), from the top of the tree:
 *
 *	clang -g -O1 -fsanitize=fuzzer,address,undefined \
 *	    -fno-sanitize-recover=all -DSBSIM_LIBFUZZER -D_GNU_SOURCE \
 *	    -Isrc/core -Isims/ovsdb src/core/log.c sims/ovsdb/ovsdb_*.c \
 *	    tests/fuzz/fuzz_ovsdb_decode.c -ljansson -o /tmp/fuzz_ovsdb
 *	mkdir -p /tmp/ovsdb_corpus && \
 *	    cp -r tests/fuzz/ovsdb_corpus/. /tmp/ovsdb_corpus
 *	/tmp/fuzz_ovsdb -max_total_time=600 /tmp/ovsdb_corpus
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "log.h"
#include "ovsdb_frame.h"
#include "ovsdb_server.h"
#include "fuzz_driver.h"

#define FZ_MAX_MSG	2048	/* small, so that too long is reachable */
#define FZ_MAX_MSGS	256

/* What one pass of the framer gave: compared between feeds. */
struct fz_out {
	size_t			lens[FZ_MAX_MSGS];
	size_t			nmsg;
	enum ovsdb_frame_rc	err;
};

static const char fz_schema[] =
    "{\"name\":\"Open_vSwitch\",\"version\":\"1.0.0\",\"tables\":{"
    "\"Open_vSwitch\":{\"isRoot\":true,\"maxRows\":1,\"columns\":{"
    "\"bridges\":{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":"
    "\"Bridge\"},\"min\":0,\"max\":\"unlimited\"}},"
    "\"next_cfg\":{\"type\":\"integer\"}}},"
    "\"Bridge\":{\"indexes\":[[\"name\"]],\"columns\":{"
    "\"name\":{\"type\":\"string\",\"mutable\":false},"
    "\"ports\":{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":"
    "\"Port\"},\"min\":0,\"max\":\"unlimited\"}},"
    "\"external_ids\":{\"type\":{\"key\":\"string\",\"value\":\"string\","
    "\"min\":0,\"max\":\"unlimited\"}},"
    "\"flood_vlans\":{\"type\":{\"key\":{\"type\":\"integer\","
    "\"maxInteger\":4095},\"min\":0,\"max\":4096}}}},"
    "\"Port\":{\"columns\":{\"name\":{\"type\":\"string\"},"
    "\"mirror\":{\"type\":{\"key\":{\"type\":\"uuid\",\"refTable\":"
    "\"Port\",\"refType\":\"weak\"},\"min\":0,\"max\":1}},"
    "\"tag\":{\"type\":{\"key\":\"real\",\"min\":0,\"max\":1}}}}}}";

static struct ovsdb_schema	*fz_sch;
static struct ovsdb_sysdb	*fz_sys;
static uint64_t			 fz_cnt[sizeof(struct ovsdb_counters) /
				    sizeof(uint64_t *)];
static struct ovsdb_counters	 fz_counters;

/* What the server writes must be JSON. */
static void
fz_send(struct ovsdb_conn *c, const char *buf, size_t len)
{
	json_t	*j = json_loadb(buf, len, 0, NULL);

	(void)c;
	FZ_CHECK(j != NULL);
	json_decref(j);
}

static void
fz_server_init(void)
{
	uint64_t	**p = (uint64_t **)&fz_counters;
	size_t		 i;

	if (fz_sch != NULL)
		return;
	log_init("fuzz_ovsdb", LOG_QUIET);
	for (i = 0; i < sizeof(fz_cnt) / sizeof(fz_cnt[0]); i++)
		p[i] = &fz_cnt[i];
	fz_sch = ovsdb_schema_parse(json_loads(fz_schema, 0, NULL), NULL, 0);
	FZ_CHECK(fz_sch != NULL);
	fz_sys = ovsdb_sysdb_new(fz_sch);
}

/* A whole message: its span and what the JSON parser makes of it. */
static void
fz_message(const uint8_t *p, size_t n)
{
	json_error_t	 e;
	json_t		*j;
	size_t		 i = 0;

	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' ||
	    p[i] == '\r'))
		i++;
	FZ_CHECK(i < n && (p[i] == '{' || p[i] == '['));
	/* A mismatched close ends a value too: the parser refuses it. */
	FZ_CHECK(p[n - 1] == '}' || p[n - 1] == ']');
	if ((j = json_loadb((const char *)p, n, 0, &e)) != NULL)
		json_decref(j);
}

/* The stream fed step bytes at a time (0: whole, and to the server). */
static void
fz_pass(const uint8_t *data, size_t size, size_t step, struct fz_out *o,
    struct ovsdb_conn *conn)
{
	struct ovsdb_frame	f;
	enum ovsdb_frame_rc	rc = OVSDB_FRAME_MORE;
	size_t			have = 0, base = 0, n;

	memset(o, 0, sizeof(*o));
	ovsdb_frame_init(&f, FZ_MAX_MSG);
	while (have < size && rc == OVSDB_FRAME_MORE) {
		have = step == 0 || have + step > size ? size : have + step;
		while ((rc = ovsdb_frame_scan(&f, data + base, have - base,
		    &n)) == OVSDB_FRAME_WHOLE) {
			FZ_CHECK(n > 0 && n <= have - base && n <= FZ_MAX_MSG);
			if (o->nmsg < FZ_MAX_MSGS)
				o->lens[o->nmsg] = n;
			o->nmsg++;
			if (step == 0)
				fz_message(data + base, n);
			if (conn != NULL && conn->srv != NULL &&
			    ovsdb_conn_message(conn, data + base, n, "fz") ==
			    -1)
				ovsdb_conn_detach(conn);
			base += n;
			ovsdb_frame_reset(&f);
		}
	}
	o->err = rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ovsdb_server	srv;
	struct ovsdb_conn	conn, watcher;
	struct fz_out		whole, piece;
	size_t			step = size > 0 ? 1 + data[0] % 7 : 1;
	static const char	mon[] = "{\"id\":1,\"method\":\"monitor_cond\","
	    "\"params\":[\"Open_vSwitch\",1,{\"Bridge\":{},\"Port\":{}}]}";

	fz_server_init();
	ovsdb_server_init(&srv, fz_sch, ovsdb_db_new(fz_sch), &fz_counters);
	srv.sys = fz_sys;
	ovsdb_conn_attach(&srv, &watcher, fz_send);
	FZ_CHECK(ovsdb_conn_message(&watcher, (const uint8_t *)mon,
	    sizeof(mon) - 1, "fz") == 0);
	ovsdb_conn_attach(&srv, &conn, fz_send);
	fz_pass(data, size, 0, &whole, &conn);
	if (conn.srv != NULL)
		ovsdb_conn_detach(&conn);
	ovsdb_conn_detach(&watcher);
	ovsdb_server_free(&srv);
	fz_pass(data, size, step, &piece, NULL);
	FZ_CHECK(whole.nmsg == piece.nmsg && whole.err == piece.err);
	FZ_CHECK(memcmp(whole.lens, piece.lens, sizeof(whole.lens)) == 0);
	return 0;
}

#ifndef SBSIM_LIBFUZZER
/* A session as ovs-vsctl starts one, a monitor, an update, an error. */
static const char fz_seed[] =
    "{\"id\":0,\"method\":\"get_schema\",\"params\":[\"_Server\"]}"
    "{\"id\":1,\"method\":\"get_schema\",\"params\":[\"Open_vSwitch\"]}\n"
    "{\"id\":9,\"method\":\"monitor_cond\",\"params\":[\"_Server\",9,"
    "{\"Database\":[{\"columns\":[\"name\"]}]}]}"
    "{\"id\":2,\"method\":\"monitor_cond\",\"params\":[\"Open_vSwitch\","
    "[\"monid\",\"Open_vSwitch\"],{\"Bridge\":[{\"columns\":[\"name\","
    "\"ports\"]}]}]}"
    "{\"id\":3,\"method\":\"transact\",\"params\":[\"Open_vSwitch\","
    "{\"op\":\"insert\",\"table\":\"Open_vSwitch\",\"row\":{\"bridges\":"
    "[\"named-uuid\",\"b\"]}},"
    "{\"op\":\"insert\",\"table\":\"Bridge\",\"row\":{\"name\":\"br0\","
    "\"flood_vlans\":[\"set\",[1,2]]},\"uuid-name\":\"b\"},"
    "{\"op\":\"comment\",\"comment\":\"a \\\"}\"},"
    "{\"op\":\"insert\",\"table\":\"Port\",\"row\":{},\"uuid\":"
    "\"5c5a0e0c-3a3b-4d6c-9a6e-0b1c2d3e4f50\"}]}"
    "{\"id\":4,\"method\":\"transact\",\"params\":[\"Open_vSwitch\","
    "{\"op\":\"mutate\",\"table\":\"Bridge\",\"where\":[[\"name\","
    "\"==\",\"br0\"]],\"mutations\":[[\"external_ids\",\"insert\","
    "[\"map\",[[\"k\",\"v\"]]]],[\"flood_vlans\",\"delete\",1]]}]}"
    "  [\"array\"]\t{\"id\":\"echo\",\"result\":[],\"error\":null}";

static size_t
fz_selftest(void)
{
	return fuzz_mutations((const uint8_t *)fz_seed, sizeof(fz_seed) - 1);
}

int
main(int argc, char **argv)
{
	int	rc;

	if (argc < 2) {
		printf("self-test: %zu inputs run\n", fz_selftest());
		printf("server: %llu messages, %llu transactions, %llu "
		    "updates\n", (unsigned long long)*fz_counters.rx_msgs,
		    (unsigned long long)*fz_counters.transacts,
		    (unsigned long long)*fz_counters.updates_sent);
		rc = 0;
	} else
		rc = fuzz_run_files(argc, argv);
	ovsdb_sysdb_free(fz_sys);
	ovsdb_schema_free(fz_sch);
	return rc;
}
#endif
