/*
 * libFuzzer harness for the OVSDB JSON-RPC framer (DESIGN.md, "Testing
 * layers" 4).
 *
 * Input: a byte stream as a device reads it from TCP (RFC 7047 section
 * 4).  It goes through the framer whole and again in uneven pieces (the
 * way a session gets it): both must give the same messages, each a span
 * that begins with '{' or '[' after whitespace and ends with the
 * matching close, the stream's own bytes in order.  Each whole message
 * is parsed as JSON.
 *
 * Built without SBSIM_LIBFUZZER, main() runs the harness on each file
 * named on the command line; with no arguments it runs a self-test over
 * built-in seeds: every prefix and every one-byte mutation of them.
 *
 * With libFuzzer (tests/fuzz/README.md), from the top of the tree:
 *
 *	clang -g -O1 -fsanitize=fuzzer,address,undefined \
 *	    -fno-sanitize-recover=all -DSBSIM_LIBFUZZER -D_GNU_SOURCE \
 *	    -Isrc -Isims/ovsdb sims/ovsdb/ovsdb_frame.c \
 *	    tests/fuzz/fuzz_ovsdb_decode.c -ljansson -o /tmp/fuzz_ovsdb
 *	mkdir -p /tmp/ovsdb_corpus && cp tests/fuzz/ovsdb_corpus/* \
 *	    /tmp/ovsdb_corpus
 *	/tmp/fuzz_ovsdb -max_total_time=600 /tmp/ovsdb_corpus
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ovsdb_frame.h"
#include "fuzz_driver.h"

#define FZ_MAX_MSG	2048	/* small, so that too long is reachable */
#define FZ_MAX_MSGS	256

/* What one pass of the framer gave: compared between feeds. */
struct fz_out {
	size_t			lens[FZ_MAX_MSGS];
	size_t			nmsg;
	enum ovsdb_frame_rc	err;
};

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

/* The stream fed step bytes at a time (0: whole). */
static void
fz_pass(const uint8_t *data, size_t size, size_t step, struct fz_out *o)
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
			base += n;
			ovsdb_frame_reset(&f);
		}
	}
	o->err = rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_out	whole, piece;
	size_t		step = size > 0 ? 1 + data[0] % 7 : 1;

	fz_pass(data, size, 0, &whole);
	fz_pass(data, size, step, &piece);
	FZ_CHECK(whole.nmsg == piece.nmsg && whole.err == piece.err);
	FZ_CHECK(memcmp(whole.lens, piece.lens, sizeof(whole.lens)) == 0);
	return 0;
}

#ifndef SBSIM_LIBFUZZER
/* A session as ovs-vsctl starts one, a monitor, an update, an error. */
static const char fz_seed[] =
    "{\"id\":0,\"method\":\"get_schema\",\"params\":[\"_Server\"]}"
    "{\"id\":1,\"method\":\"get_schema\",\"params\":[\"Open_vSwitch\"]}\n"
    "{\"id\":2,\"method\":\"monitor_cond\",\"params\":[\"Open_vSwitch\","
    "[\"monid\",\"Open_vSwitch\"],{\"Bridge\":[{\"columns\":[\"name\","
    "\"ports\"]}]}]}"
    "{\"id\":3,\"method\":\"transact\",\"params\":[\"Open_vSwitch\","
    "{\"op\":\"insert\",\"table\":\"Bridge\",\"row\":{\"name\":\"br0\"},"
    "\"uuid-name\":\"b\"},{\"op\":\"comment\",\"comment\":\"a \\\"}\"}]}"
    "  [\"array\"]\t{\"id\":\"echo\",\"result\":[],\"error\":null}";

static size_t
fz_selftest(void)
{
	static const uint8_t	flips[] = { 0x01, 0x20, 0x80, 0xff };
	static uint8_t		m[sizeof(fz_seed)];
	size_t			i, len = sizeof(fz_seed) - 1, runs = 0;
	int			k;

	for (i = 0; i <= len; i++, runs++)
		fuzz_run((const uint8_t *)fz_seed, i);
	for (i = 0; i < len; i++)
		for (k = 0; k < (int)sizeof(flips); k++, runs++) {
			memcpy(m, fz_seed, len);
			m[i] ^= flips[k];
			fuzz_run(m, len);
		}
	return runs;
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		printf("self-test: %zu inputs run\n", fz_selftest());
		return 0;
	}
	return fuzz_run_files(argc, argv);
}
#endif
