/*
 * Unit tests of the OVSDB JSON-RPC framer (sims/ovsdb/ovsdb_frame.c,
 * RFC 7047 section 4): whole values out of a byte stream fed in any
 * pieces, braces and brackets inside strings and after escapes, leading
 * whitespace, arrays, and the errors: a byte no message starts with, a
 * message over the limit, nesting past the depth limit.
 */
#include <stdio.h>
#include <string.h>

#include "ovsdb_frame.h"

#include "check.h"

#define MAX	4096

/* The messages a stream of len bytes holds, fed k bytes at a time the
 * way a session does (the unconsumed rest stays in front); their lengths
 * into lens, the count returned, or the error. */
static int
split(const char *s, size_t k, size_t max, size_t *lens, int nmax,
    enum ovsdb_frame_rc *err)
{
	struct ovsdb_frame	f;
	enum ovsdb_frame_rc	rc;
	size_t			len = strlen(s), have = 0, base = 0, n;
	int			msgs = 0;

	ovsdb_frame_init(&f, max);
	*err = OVSDB_FRAME_MORE;
	while (have < len) {
		have = have + k > len ? len : have + k;
		while ((rc = ovsdb_frame_scan(&f, (const uint8_t *)s + base,
		    have - base, &n)) == OVSDB_FRAME_WHOLE) {
			if (msgs < nmax)
				lens[msgs] = n;
			msgs++;
			base += n;
			ovsdb_frame_reset(&f);
		}
		if (rc != OVSDB_FRAME_MORE) {
			*err = rc;
			return msgs;
		}
	}
	return msgs;
}

static void
test_whole(void)
{
	static const char	s[] = "{\"id\":1,\"method\":\"echo\","
	    "\"params\":[]}";
	struct ovsdb_frame	f;
	size_t			n = 0;

	ovsdb_frame_init(&f, MAX);
	CHECK(ovsdb_frame_scan(&f, (const uint8_t *)s, strlen(s), &n) ==
	    OVSDB_FRAME_WHOLE && n == strlen(s), "one message, whole");
	ovsdb_frame_reset(&f);
	CHECK(ovsdb_frame_scan(&f, (const uint8_t *)s, 10, &n) ==
	    OVSDB_FRAME_MORE && f.off == 10, "a piece: more, 10 scanned");
	CHECK(ovsdb_frame_scan(&f, (const uint8_t *)s, strlen(s), &n) ==
	    OVSDB_FRAME_WHOLE && n == strlen(s), "the rest completes it");
}

static void
test_split_anywhere(void)
{
	static const char	s[] = " {\"a\":\"}{\\\"]\"}\n[1,{\"b\":[]}]"
	    "{\"c\":\"\\\\\"}\r\n\t{}";
	size_t			lens[8], k, bad = 0;
	enum ovsdb_frame_rc	err;
	int			n;

	for (k = 1; k <= sizeof(s); k++) {
		n = split(s, k, MAX, lens, 8, &err);
		if (n != 4 || err != OVSDB_FRAME_MORE || lens[0] != 14 ||
		    lens[1] != 13 || lens[2] != 10 || lens[3] != 5)
			bad++;
	}
	CHECK(bad == 0, "four values, strings with braces and escapes, fed "
	    "1..%zu bytes at a time (%zu bad)", sizeof(s), bad);
}

static void
test_escapes(void)
{
	size_t			lens[4];
	enum ovsdb_frame_rc	err;

	CHECK(split("{\"x\":\"\\\\\"}", 1, MAX, lens, 4, &err) == 1,
	    "an escaped backslash does not escape the quote after it");
	CHECK(split("{\"x\":\"\\\"}\"}", 3, MAX, lens, 4, &err) == 1 &&
	    lens[0] == 11, "an escaped quote stays in the string");
	CHECK(split("{\"x\":\"\\u007d\"}", 2, MAX, lens, 4, &err) == 1,
	    "a \\u escape is four plain characters");
	CHECK(split("{\"x\":\"}", 1, MAX, lens, 4, &err) == 0 &&
	    err == OVSDB_FRAME_MORE, "an open string waits for more");
}

static void
test_errors(void)
{
	size_t			lens[4];
	enum ovsdb_frame_rc	err;
	char			deep[2 * OVSDB_FRAME_MAX_DEPTH + 8];
	size_t			i;

	CHECK(split("{}x{}", 1, MAX, lens, 4, &err) == 1 &&
	    err == OVSDB_FRAME_BAD, "a stray byte after a message: bad");
	CHECK(split("\"str\"", 1, MAX, lens, 4, &err) == 0 &&
	    err == OVSDB_FRAME_BAD, "a top-level string: bad");
	CHECK(split("}", 1, MAX, lens, 4, &err) == 0 &&
	    err == OVSDB_FRAME_BAD, "a closing brace first: bad");
	CHECK(split("{\"a\":\"0123456789\"}", 4, 10, lens, 4, &err) == 0 &&
	    err == OVSDB_FRAME_LONG, "over the limit: long");
	CHECK(split("{\"a\":\"012\"}", 1, 11, lens, 4, &err) == 1 &&
	    err == OVSDB_FRAME_MORE, "exactly the limit: whole");
	CHECK(split("             ", 1, 10, lens, 4, &err) == 0 &&
	    err == OVSDB_FRAME_LONG, "whitespace counts toward the limit");
	for (i = 0; i <= OVSDB_FRAME_MAX_DEPTH; i++)
		deep[i] = '[';
	deep[i] = '\0';
	CHECK(split(deep, 64, MAX, lens, 4, &err) == 0 &&
	    err == OVSDB_FRAME_DEEP, "nested past %d: deep",
	    OVSDB_FRAME_MAX_DEPTH);
	CHECK(strcmp(ovsdb_frame_error(OVSDB_FRAME_LONG), "message too long")
	    == 0, "errors have names");
}

static const struct check_case cases[] = {
	CASE(test_whole),
	CASE(test_split_anywhere),
	CASE(test_escapes),
	CASE(test_errors),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
