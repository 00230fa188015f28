/*
 * NETCONF framing (RFC 6242): the chunked example of section 4.2 and an
 * end-of-message stream, fed whole, split at every byte position and byte
 * by byte; malformed chunk headers; the size limit; the encoders.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "check.h"
#include "nc_frame.h"

/* RFC 6242 section 4.2: a <close-session> rpc in three chunks. */
static const char rfc_chunked[] =
    "\n#4\n"
    "<rpc"
    "\n#18\n"
    " message-id=\"102\"\n"
    "\n#79\n"
    "     xmlns=\"urn:ietf:params:xml:ns:netconf:base:1.0\">\n"
    "  <close-session/>\n"
    "</rpc>"
    "\n##\n";
static const char rfc_msg[] =
    "<rpc message-id=\"102\"\n"
    "     xmlns=\"urn:ietf:params:xml:ns:netconf:base:1.0\">\n"
    "  <close-session/>\n"
    "</rpc>";

#define MAXMSG	4

struct got {
	char	msg[MAXMSG][512];
	size_t	len[MAXMSG];
	int	n;
	int	err;
};

/*
 * Feed the pieces [0,cut) and [cut,len) (cut 0: whole; step 1: byte by
 * byte) the way a read callback would: feed, take messages, feed the rest.
 */
static void
drive(struct nc_framer *f, const char *in, size_t len, size_t cut, int step,
    struct got *g)
{
	size_t		 off = 0, end, used;
	const uint8_t	*m;
	size_t		 mlen;
	int		 r;

	memset(g, 0, sizeof(*g));
	while (off < len) {
		end = step ? off + 1 : (off < cut ? cut : len);
		while (off < end) {
			r = nc_framer_feed(f, in + off, end - off, &used);
			off += used;
			if (r < 0) {
				g->err = r;
				return;
			}
			if (r == NC_FRAME_MSG && g->n < MAXMSG) {
				m = nc_framer_msg(f, &mlen);
				memcpy(g->msg[g->n], m, mlen);
				g->len[g->n++] = mlen;
			}
		}
	}
}

static int
one_msg(const struct got *g, const char *want)
{
	return g->err == 0 && g->n == 1 && g->len[0] == strlen(want) &&
	    memcmp(g->msg[0], want, g->len[0]) == 0;
}

static void
test_rfc_chunked(void)
{
	struct nc_framer f;
	struct got	 g;
	size_t		 len = strlen(rfc_chunked), cut, bad = 0;

	CHECK(strlen(rfc_msg) == 4 + 18 + 79, "example sizes add up");
	nc_framer_init(&f, 1 << 16);
	nc_framer_set_chunked(&f, 1);
	drive(&f, rfc_chunked, len, 0, 0, &g);
	CHECK(one_msg(&g, rfc_msg), "4.2 example whole");
	CHECK(f.buf[f.len] == '\0', "message NUL-terminated");
	for (cut = 1; cut < len; cut++) {
		drive(&f, rfc_chunked, len, cut, 0, &g);
		if (!one_msg(&g, rfc_msg))
			bad++;
	}
	CHECK(bad == 0, "4.2 example split at every position (%zu bad)", bad);
	drive(&f, rfc_chunked, len, 0, 1, &g);
	CHECK(one_msg(&g, rfc_msg), "4.2 example byte by byte");
	CHECK(!nc_framer_pending(&f), "nothing pending");
	nc_framer_free(&f);
}

static void
test_two_in_one(void)
{
	struct nc_framer f;
	struct got	 g;
	char		 in[600];
	size_t		 n, cut, bad = 0;

	n = (size_t)snprintf(in, sizeof(in), "%s\n#3\nabc\n##\n",
	    rfc_chunked);
	nc_framer_init(&f, 0);
	nc_framer_set_chunked(&f, 1);
	for (cut = 0; cut < n; cut++) {
		drive(&f, in, n, cut, 0, &g);
		if (g.err || g.n != 2 || g.len[1] != 3 ||
		    memcmp(g.msg[1], "abc", 3) != 0 ||
		    g.len[0] != strlen(rfc_msg))
			bad++;
	}
	CHECK(bad == 0, "two chunked messages, every split (%zu bad)", bad);
	nc_framer_free(&f);
}

/* Section 4.3: hello in base:1.0, then switch to chunked (section 4.1). */
static void
test_eom_then_chunked(void)
{
	static const char in[] =
	    "<hello>one</hello>]]>]]><x>]]]>]]</x>]]>]]>\n#2\nhi\n##\n";
	struct nc_framer f;
	size_t		 n = strlen(in), cut, off, used, mlen, bad = 0;
	const uint8_t	*m;
	int		 r, k;

	nc_framer_init(&f, 1024);
	for (cut = 0; cut <= n; cut++) {
		nc_framer_set_chunked(&f, 0);
		off = 0;
		k = 0;
		while (off < n && k >= 0) {
			size_t end = off < cut ? cut : n;

			r = nc_framer_feed(&f, in + off, end - off, &used);
			off += used;
			if (r < 0) {
				k = -1;
				break;
			}
			if (r != NC_FRAME_MSG)
				continue;
			m = nc_framer_msg(&f, &mlen);
			if ((k == 0 && (mlen != 18 ||
			    memcmp(m, "<hello>one</hello>", 18))) ||
			    (k == 1 && (mlen != 13 ||
			    memcmp(m, "<x>]]]>]]</x>", 13))) ||
			    (k == 2 && (mlen != 2 || memcmp(m, "hi", 2))))
				k = -1;
			else if (++k == 2 && nc_framer_set_chunked(&f, 1))
				k = -1;
		}
		if (k != 3)
			bad++;
	}
	CHECK(bad == 0, "EOM, EOM, switch, chunked at every split (%zu bad)",
	    bad);
	nc_framer_free(&f);
}

static void
test_eom_bytewise(void)
{
	static const char in[] = "a]]>]]b]]>]>]]>]]>]]]]]>]]>";
	struct nc_framer f;
	struct got	 g;

	/* Near misses of the marker stay in the message. */
	nc_framer_init(&f, 64);
	drive(&f, in, strlen(in), 0, 1, &g);
	CHECK(g.err == 0 && g.n == 2 && g.len[0] == 12 &&
	    memcmp(g.msg[0], "a]]>]]b]]>]>", 12) == 0 && g.len[1] == 3 &&
	    memcmp(g.msg[1], "]]]", 3) == 0,
	    "EOM with near-miss markers byte by byte");
	drive(&f, "]]>]]>", 6, 0, 0, &g);
	CHECK(g.n == 1 && g.len[0] == 0, "empty EOM message");
	nc_framer_free(&f);
}

struct badcase {
	const char	*in;
	int		 err;
	const char	*what;
	int		 preload;	/* a 200-byte chunk first */
};

static void
test_bad_chunks(void)
{
	static const struct badcase cases[] = {
		{ "\n#0\n", NC_FRAME_E_CHUNK_SIZE, "chunk-size 0", 0 },
		{ "\n#01\nx\n##\n", NC_FRAME_E_CHUNK_SIZE, "leading zero", 0 },
		{ "#1\nx\n##\n", NC_FRAME_E_SYNTAX, "no LF before #", 0 },
		{ "\n1\nx\n##\n", NC_FRAME_E_SYNTAX, "no #", 0 },
		{ "\n#1x\n##\n", NC_FRAME_E_SYNTAX, "no LF after size", 0 },
		{ "\n#\n", NC_FRAME_E_SYNTAX, "no size", 0 },
		{ "\n#a\n", NC_FRAME_E_SYNTAX, "non-digit size", 0 },
		{ "\n# 1\n", NC_FRAME_E_SYNTAX, "space before size", 0 },
		{ "\n#-1\n", NC_FRAME_E_SYNTAX, "negative size", 0 },
		{ "\n#4294967296\n", NC_FRAME_E_CHUNK_SIZE, "2^32", 0 },
		{ "\n#99999999999\n", NC_FRAME_E_CHUNK_SIZE, "11 digits", 0 },
		{ "\n##\n", NC_FRAME_E_EMPTY, "end-of-chunks first", 0 },
		{ "\n#1\nxy\n##\n", NC_FRAME_E_SYNTAX, "data longer", 0 },
		{ "\n#1\nx\n##x", NC_FRAME_E_SYNTAX, "no LF after ##", 0 },
		{ "\n#1\nx\n#\n", NC_FRAME_E_SYNTAX, "empty size after chunk", 0 },
		{ "\n#1\nx\r\n##\n", NC_FRAME_E_SYNTAX, "CR before LF", 0 },
		{ "\n#300\n", NC_FRAME_E_TOO_BIG, "chunk over the maximum", 0 },
		{ "\n#200\n", NC_FRAME_E_TOO_BIG, "second chunk over", 1 },
	};
	struct nc_framer f;
	struct got	 g;
	size_t		 i, used;
	char		 big[300];
	int		 r;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		nc_framer_init(&f, 256);
		nc_framer_set_chunked(&f, 1);
		if (cases[i].preload) {
			memset(big, 'a', 200);
			nc_framer_feed(&f, "\n#200\n", 6, &used);
			nc_framer_feed(&f, big, 200, &used);
		}
		drive(&f, cases[i].in, strlen(cases[i].in), 0, 0, &g);
		CHECK(g.err == cases[i].err, "%s: %s", cases[i].what,
		    nc_frame_strerror(g.err));
		/* Sticky: the session is over (RFC 6242 section 4.2). */
		r = nc_framer_feed(&f, "\n#1\nx\n##\n", 9, &used);
		CHECK(r == cases[i].err && used == 0, "%s: sticky",
		    cases[i].what);
		nc_framer_free(&f);
		if (cases[i].preload)
			continue;
		nc_framer_init(&f, 256);
		nc_framer_set_chunked(&f, 1);
		drive(&f, cases[i].in, strlen(cases[i].in), 0, 1, &g);
		CHECK(g.err == cases[i].err, "%s: byte by byte", cases[i].what);
		nc_framer_free(&f);
	}
	/* The largest chunk size is allowed by the header syntax. */
	nc_framer_init(&f, 0);
	nc_framer_set_chunked(&f, 1);
	r = nc_framer_feed(&f, "\n#4294967295\nabc", 16, &used);
	CHECK(r == NC_FRAME_NEED && used == 16 && nc_framer_pending(&f),
	    "chunk-size 4294967295 accepted");
	CHECK(nc_framer_set_chunked(&f, 0) == -1, "no switch mid-message");
	nc_framer_free(&f);
}

static void
test_limits(void)
{
	struct nc_framer f;
	char		 in[64];
	size_t		 used;
	int		 r;

	/* EOM: a body of exactly max passes, max + 1 does not. */
	nc_framer_init(&f, 10);
	memset(in, 'a', sizeof(in));
	memcpy(in + 10, "]]>]]>", 6);
	r = nc_framer_feed(&f, in, 16, &used);
	CHECK(r == NC_FRAME_MSG && used == 16, "EOM body of max size");
	memset(in, 'a', sizeof(in));
	r = nc_framer_feed(&f, in, 5, &used);
	CHECK(r == NC_FRAME_NEED && used == 5, "EOM partial");
	r = nc_framer_feed(&f, in, 40, &used);
	CHECK(r == NC_FRAME_E_TOO_BIG, "EOM over max: %s",
	    nc_frame_strerror(r));
	nc_framer_free(&f);

	nc_framer_init(&f, 10);
	memcpy(in, "aaaaaaaaaaa]]>]]>", 17);
	r = nc_framer_feed(&f, in, 17, &used);
	CHECK(r == NC_FRAME_E_TOO_BIG, "EOM max + 1 with its marker");
	nc_framer_free(&f);

	nc_framer_init(&f, 10);
	nc_framer_set_chunked(&f, 1);
	r = nc_framer_feed(&f, "\n#6\naaaaaa\n#4\naaaa\n##\n", 22, &used);
	CHECK(r == NC_FRAME_MSG && used == 22, "chunked total of max");
	r = nc_framer_feed(&f, "\n#6\naaaaaa\n#5\n", 14, &used);
	CHECK(r == NC_FRAME_E_TOO_BIG, "chunked total over max");
	nc_framer_free(&f);
}

static void
test_encode(void)
{
	static uint8_t	 out[1024];
	struct wbuf	 w;
	struct nc_framer f;
	char		 head[NC_FRAME_HEAD_MAX];
	size_t		 tlen, used, mlen;
	const uint8_t	*m;
	const char	*tail;
	int		 r;

	CHECK(nc_frame_head(1, 79, head) == 5 && memcmp(head, "\n#79\n", 5)
	    == 0, "head 79");
	CHECK(nc_frame_head(1, 0, head) == -1, "no empty chunk");
	CHECK(nc_frame_head(0, 79, head) == 0, "no head for EOM");
	CHECK(nc_frame_head(1, 4294967295UL, head) == 13, "longest head");
	tail = nc_frame_tail(1, &tlen);
	CHECK(tlen == 4 && memcmp(tail, "\n##\n", 4) == 0, "chunked tail");
	tail = nc_frame_tail(0, &tlen);
	CHECK(tlen == 6 && memcmp(tail, "]]>]]>", 6) == 0, "EOM tail");

	wbuf_init(&w, out, sizeof(out));
	CHECK(nc_frame_encode(&w, 0, "<a/>", 4, 0) == 0, "encode EOM");
	CHECK_BYTES(out, w.len, "<a/>]]>]]>", 10, "EOM bytes");

	wbuf_init(&w, out, sizeof(out));
	CHECK(nc_frame_encode(&w, 1, rfc_msg, strlen(rfc_msg), 0) == 0 &&
	    memcmp(out, "\n#101\n", 6) == 0, "one chunk header");
	wbuf_init(&w, out, sizeof(out));
	nc_frame_encode(&w, 1, rfc_msg, strlen(rfc_msg), 0);
	CHECK(w.len == 6 + 101 + 4 && memcmp(out + 6, rfc_msg, 101) == 0 &&
	    memcmp(out + 107, "\n##\n", 4) == 0, "one chunk message");

	wbuf_init(&w, out, sizeof(out));
	CHECK(nc_frame_encode(&w, 1, "abcdefg", 7, 3) == 0, "split encode");
	CHECK_BYTES(out, w.len, "\n#3\nabc\n#3\ndef\n#1\ng\n##\n", 23,
	    "chunks of 3");
	nc_framer_init(&f, 100);
	nc_framer_set_chunked(&f, 1);
	r = nc_framer_feed(&f, out, w.len, &used);
	m = nc_framer_msg(&f, &mlen);
	CHECK(r == NC_FRAME_MSG && mlen == 7 && memcmp(m, "abcdefg", 7) == 0,
	    "decoder reads the encoder's chunks");
	nc_framer_free(&f);

	wbuf_init(&w, out, sizeof(out));
	CHECK(nc_frame_encode(&w, 1, "", 0, 0) == -1, "empty chunked refused");
	wbuf_init(&w, out, 8);
	CHECK(nc_frame_encode(&w, 0, "<a/>", 4, 0) == -1 && w.err,
	    "wbuf overflow reported");
}

/* nc_framer_deliver's sink: the first message is the hello, the rest
 * kept; reading stops after stop_at. */
struct sink_log {
	int	n;
	int	stop_at;
	int	err;
	int	hellos;
	char	last[16];
};

static enum nc_sink_state
sink_state(void *arg)
{
	struct sink_log	*l = arg;

	if (l->n >= l->stop_at || l->err != 0)
		return NC_SINK_DONE;
	return l->n == 0 ? NC_SINK_HELLO : NC_SINK_OPEN;
}

static void
sink_message(void *arg, const uint8_t *msg, size_t len)
{
	struct sink_log	*l = arg;

	l->n++;
	snprintf(l->last, sizeof(l->last), "%.*s", (int)len, msg);
}

static void
sink_hello(void *arg, const uint8_t *msg, size_t len)
{
	((struct sink_log *)arg)->hellos++;
	sink_message(arg, msg, len);
}


static void
sink_error(void *arg, int res)
{
	((struct sink_log *)arg)->err = res;
}

static const struct nc_frame_sink sink = {
	sink_state, sink_hello, sink_message, sink_error
};

static void
test_deliver(void)
{
	static const char	three[] = "\n#1\na\n##\n\n#2\nbc\n##\n"
	    "\n#1\nd\n##\n";
	static const char	junk[] = "\n#1\na\n##\njunk\n#1\nb\n##\n";
	struct nc_framer	f;
	struct sink_log		l = { 0, 10, 0, 0, "" };

	nc_framer_init(&f, 0);
	nc_framer_set_chunked(&f, 1);
	nc_framer_deliver(&f, three, strlen(three), &sink, &l);
	CHECK(l.n == 3 && strcmp(l.last, "d") == 0 && l.err == 0 &&
	    l.hellos == 1, "three messages in one read, in order, the first "
	    "to hello() (%d, \"%s\", %d)", l.n, l.last, l.hellos);
	l.n = 0;
	l.stop_at = 1;
	nc_framer_deliver(&f, three, strlen(three), &sink, &l);
	CHECK(l.n == 1 && strcmp(l.last, "a") == 0,
	    "no message after the session stops reading (%d)", l.n);
	nc_framer_free(&f);

	memset(&l, 0, sizeof(l));
	l.stop_at = 10;
	nc_framer_init(&f, 0);
	nc_framer_set_chunked(&f, 1);
	nc_framer_deliver(&f, junk, strlen(junk), &sink, &l);
	CHECK(l.n == 1 && l.err < 0, "a framing error ends the stream: %d "
	    "message, error %d", l.n, l.err);
	nc_framer_free(&f);
}

static const struct check_case cases[] = {
	CASE(test_rfc_chunked),
	CASE(test_two_in_one),
	CASE(test_eom_then_chunked),
	CASE(test_eom_bytewise),
	CASE(test_bad_chunks),
	CASE(test_limits),
	CASE(test_encode),
	CASE(test_deliver),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
