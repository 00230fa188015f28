/*
 * libFuzzer harness for the NETCONF framer and messages (docs/design.md,
 * "Testing layers").
 *
 * Input: a byte stream as a device or the controller reads it from SSH or
 * TCP.  It goes through the RFC 6242 framer three times: end-of-message
 * framing throughout (section 4.3), chunked framing throughout (section
 * 4.2), and as a session does, the first message (the hello) with
 * end-of-message framing and the rest chunked (section 4.1).  Each pass
 * feeds the stream whole and again in uneven pieces: both must give the
 * same messages.  Each whole message goes to the hello parser (as client
 * and as server), the rpc parser (base:1.0 and base:1.1) with the
 * operation's own parameter parsers, and the reply and notification
 * parsers.
 *
 * Besides "no crash, no leak, no UB" it checks that a framed message
 * re-frames to itself, that a refused rpc has an error tag a reply can
 * carry, and that the replies a device builds (ok, or the rpc-error) parse
 * back as replies to the same message-id.
 *
 * Built without SBSIM_LIBFUZZER, main() runs the harness on each file
 * named on the command line; with no arguments it runs a self-test over
 * built-in seeds (hello, get-config, edit-config, chunked frames, a
 * malformed frame): every prefix and every one-byte mutation of them.
 *
 * With libFuzzer (tests/fuzz/README.md), from the top of the tree:
 *
 *	clang -g -O1 -fsanitize=fuzzer,address,undefined \
 *	    -fno-sanitize-recover=all -DSBSIM_LIBFUZZER -D_GNU_SOURCE \
 *	    -Isrc/core -Isims/netconf $(pkg-config --cflags libxml-2.0) \
 *	    src/core/buf.c src/core/log.c sims/netconf/nc_frame.c \
 *	    sims/netconf/nc_msg.c tests/fuzz/fuzz_nc_decode.c \
 *	    $(pkg-config --libs libxml-2.0) -o /tmp/fuzz_nc
 *	mkdir -p /tmp/nc_corpus && cp -r tests/fuzz/nc_corpus/. /tmp/nc_corpus
 *	/tmp/fuzz_nc -max_total_time=600 /tmp/nc_corpus
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "buf.h"
#include "hash.h"
#include "nc_frame.h"
#include "nc_msg.h"
#include "fuzz_driver.h"

#define FZ_MAX_MSG	16384	/* small, so that too-big is reachable */
#define FZ_MAX_IN	(1 << 20)

enum fz_mode {
	FZ_EOM,		/* end-of-message framing throughout */
	FZ_CHUNKED,	/* chunked framing throughout */
	FZ_SESSION,	/* the hello end-of-message, then chunked */
};

/* What one pass of the framer gave: compared between feeds. */
struct fz_out {
	uint32_t	hash;
	size_t		nmsg;
	int		err;
};

/* A device's replies to a parsed rpc read back as replies to it. */
static void
fz_reply_back(xmlBufferPtr b, const struct nc_rpc *r, int ok)
{
	struct nc_reply	rep;

	FZ_CHECK(nc_reply_parse(&rep, xmlBufferContent(b),
	    (size_t)xmlBufferLength(b)) == 0);
	if (ok)
		FZ_CHECK(rep.ok && rep.nerrors == 0);
	else
		FZ_CHECK(!rep.ok && rep.nerrors >= 1);
	if (r != NULL && r->message_id != NULL)
		FZ_CHECK(rep.message_id != NULL &&
		    strcmp(rep.message_id, r->message_id) == 0);
	nc_reply_free(&rep);
	xmlBufferEmpty(b);
}

/* The operation's parameters, through the parsers the device uses. */
static void
fz_rpc_params(const struct nc_rpc *r)
{
	struct nc_subscription	sub;
	struct nc_get_schema	gs;
	struct ncm_filter	flt;
	struct nc_ds_ref	ds;
	struct nc_edit		ed;
	struct nc_err		e;
	uint32_t		sid;

	switch (r->op) {
	case NC_OP_EDIT_CONFIG:
		(void)nc_rpc_edit(r, &ed, &e);
		break;
	case NC_OP_KILL_SESSION:
		(void)nc_rpc_session_id(r, &sid, &e);
		break;
	case NC_OP_GET_SCHEMA:
		(void)nc_rpc_get_schema(r, &gs, &e);
		break;
	case NC_OP_CREATE_SUBSCRIPTION:
		(void)nc_rpc_subscription(r, &sub, &e);
		break;
	default:
		(void)nc_rpc_datastore(r, "source", &ds, &e);
		(void)nc_rpc_datastore(r, "target", &ds, &e);
		(void)nc_rpc_filter(r, &flt, &e);
		break;
	}
}

static void
fz_rpc(const uint8_t *msg, size_t len, int base11, xmlBufferPtr b)
{
	struct nc_rpc	r;
	struct nc_err	e;

	memset(&e, 0, sizeof(e));
	if (nc_rpc_parse(&r, msg, len, base11, &e) != 0) {
		FZ_CHECK(e.tag < NC_ERR_TAG_COUNT);
		/* base:1.0 peers never get malformed-message (6241 A). */
		FZ_CHECK(base11 || e.tag != NC_ERR_MALFORMED_MESSAGE);
		nc_reply_error(b, &r, &e, 1);
		fz_reply_back(b, NULL, 0);
	} else {
		fz_rpc_params(&r);
		nc_reply_ok(b, &r);
		fz_reply_back(b, &r, 1);
	}
	nc_rpc_free(&r);
}

/* One whole message through every parser. */
static void
fz_message(const uint8_t *msg, size_t len, xmlBufferPtr b)
{
	struct nc_hello		h;
	struct nc_reply		rep;
	struct nc_notif		nt;
	int			from_server;

	for (from_server = 0; from_server < 2; from_server++) {
		memset(&h, 0, sizeof(h));
		if (nc_hello_parse(&h, msg, len, from_server) == NC_HELLO_OK)
			FZ_CHECK(h.capc > 0 &&
			    (h.caps & (NC_CAPF_BASE10 | NC_CAPF_BASE11)));
		nc_hello_free(&h);
	}
	fz_rpc(msg, len, 0, b);
	fz_rpc(msg, len, 1, b);
	(void)nc_reply_parse(&rep, msg, len);
	nc_reply_free(&rep);
	(void)nc_notif_from_doc(&nt, nc_xml_parse(msg, len, 1, NULL));
	nc_notif_free(&nt);
}

/* A message re-framed (chunks of 7 bytes) frames back to itself. */
static void
fz_reframe(const uint8_t *msg, size_t len, int chunked)
{
	static uint8_t		enc[2 * FZ_MAX_MSG + 64];
	struct nc_framer	f;
	struct wbuf		w;
	const uint8_t		*back;
	size_t			used, blen;

	wbuf_init(&w, enc, sizeof(enc));
	FZ_CHECK(nc_frame_encode(&w, chunked, msg, len, 7) == 0);
	nc_framer_init(&f, FZ_MAX_MSG);
	nc_framer_set_chunked(&f, chunked);
	FZ_CHECK(nc_framer_feed(&f, enc, w.len, &used) == NC_FRAME_MSG);
	back = nc_framer_msg(&f, &blen);
	FZ_CHECK(used == w.len && blen == len && memcmp(back, msg, len) == 0);
	nc_framer_free(&f);
}

/* Piece sizes for the uneven feed: 1, 2, 3, 5, 8, 13, 1, ... */
static size_t
fz_piece(size_t i)
{
	static const size_t	sizes[] = { 1, 2, 3, 5, 8, 13 };

	return sizes[i % (sizeof(sizes) / sizeof(sizes[0]))];
}

/*
 * The stream through a framer, in pieces (whole: one piece).  Messages
 * go to the parsers on the whole feed only (parse set); the hash, count
 * and error say what the framer made of it.
 */
static void
fz_frame(const uint8_t *p, size_t n, enum fz_mode mode, int whole,
    xmlBufferPtr b, struct fz_out *out)
{
	struct nc_framer	f;
	const uint8_t		*msg;
	size_t			off = 0, piece, used, mlen, k = 0;
	int			r = NC_FRAME_NEED;

	memset(out, 0, sizeof(*out));
	out->hash = FNV_SEED;
	nc_framer_init(&f, FZ_MAX_MSG);
	nc_framer_set_chunked(&f, mode == FZ_CHUNKED);
	while (off < n) {
		piece = whole ? n - off : fz_piece(k++);
		if (piece > n - off)
			piece = n - off;
		r = nc_framer_feed(&f, p + off, piece, &used);
		FZ_CHECK(used <= piece);
		if (r < 0)
			break;
		off += used;
		if (r == NC_FRAME_NEED) {
			FZ_CHECK(used == piece);
			continue;
		}
		msg = nc_framer_msg(&f, &mlen);
		FZ_CHECK(msg != NULL && mlen <= FZ_MAX_MSG && msg[mlen] == 0);
		out->hash = fnv1a_bytes(out->hash, msg, mlen);
		out->hash = fnv1a_bytes(out->hash, "|", 1);
		if (whole) {
			FZ_CHECK(f.chunked || memmem(msg, mlen, NC_FRAME_EOM,
			    NC_FRAME_EOM_LEN) == NULL);
			fz_reframe(msg, mlen, f.chunked);
			fz_message(msg, mlen, b);
		}
		if (out->nmsg++ == 0 && mode == FZ_SESSION)
			FZ_CHECK(nc_framer_set_chunked(&f, 1) == 0);
	}
	if (r < 0) {
		/* Sticky: the stream stays unsynchronised. */
		FZ_CHECK(nc_framer_feed(&f, "x", 1, &used) == r);
		FZ_CHECK(nc_frame_strerror(r) != NULL);
	}
	out->err = r < 0 ? r : 0;
	nc_framer_free(&f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_out	whole, pieces;
	xmlBufferPtr	b;
	int		mode;

	if (size > FZ_MAX_IN)
		return 0;
	if ((b = xmlBufferCreate()) == NULL)
		abort();
	for (mode = FZ_EOM; mode <= FZ_SESSION; mode++) {
		fz_frame(data, size, mode, 1, b, &whole);
		fz_frame(data, size, mode, 0, b, &pieces);
		FZ_CHECK(whole.nmsg == pieces.nmsg &&
		    whole.hash == pieces.hash && whole.err == pieces.err);
	}
	xmlBufferFree(b);
	return 0;
}

#ifndef SBSIM_LIBFUZZER

/* Seeds: a session's stream, as the device reads it. */
static const char *const fz_seed_msgs[] = {
	NC_XML_DECL "<hello xmlns=\"" NC_NS_BASE "\"><capabilities>"
	"<capability>" NC_CAP_BASE10 "</capability>"
	"<capability>" NC_CAP_BASE11 "</capability>"
	"</capabilities></hello>",
	"<rpc message-id=\"101\" xmlns=\"" NC_NS_BASE "\"><get-config>"
	"<source><running/></source><filter type=\"subtree\">"
	"<interfaces xmlns=\"urn:sbsim:device\"/></filter>"
	"</get-config></rpc>",
	"<rpc message-id=\"102\" xmlns=\"" NC_NS_BASE "\"><edit-config>"
	"<target><running/></target>"
	"<default-operation>merge</default-operation>"
	"<error-option>rollback-on-error</error-option><config>"
	"<interfaces xmlns=\"urn:sbsim:device\"><interface>"
	"<name>eth0</name><description>up</description></interface>"
	"</interfaces></config></edit-config></rpc>",
	"<rpc message-id=\"103\" xmlns=\"" NC_NS_BASE "\"><kill-session>"
	"<session-id>4</session-id></kill-session></rpc>",
	"<rpc message-id=\"104\" xmlns=\"" NC_NS_BASE "\">"
	"<create-subscription xmlns=\"" NC_NS_NOTIF "\">"
	"<startTime>2025-01-15T10:00:00Z</startTime>"
	"</create-subscription></rpc>",
	"<rpc message-id=\"105\" xmlns=\"" NC_NS_BASE "\"><get/></rpc>",
};

/*
 * The hello end-of-message framed, the rpcs chunked (the last in two
 * chunks), then a malformed chunk header.
 */
static size_t
fz_seed(uint8_t *buf, size_t cap)
{
	struct wbuf	w;
	size_t		i, n = sizeof(fz_seed_msgs) / sizeof(fz_seed_msgs[0]);

	wbuf_init(&w, buf, cap);
	nc_frame_encode(&w, 0, fz_seed_msgs[0], strlen(fz_seed_msgs[0]), 0);
	for (i = 1; i < n; i++)
		nc_frame_encode(&w, 1, fz_seed_msgs[i],
		    strlen(fz_seed_msgs[i]), i + 1 == n ? 20 : 0);
	wbuf_put_bytes(&w, "\n#0\n<rpc/>\n##\n", 14);
	FZ_CHECK(!w.err);
	return w.len;
}

/* Every prefix and every one-byte mutation of the seed stream. */
static size_t
fz_selftest(void)
{
	static uint8_t	seed[8192];

	return fuzz_mutations(seed, fz_seed(seed, sizeof(seed)));
}

int
main(int argc, char **argv)
{
	int	rc;

	if (argc < 2) {
		printf("self-test: %zu inputs run\n", fz_selftest());
		rc = 0;
	} else
		rc = fuzz_run_files(argc, argv);
	xmlCleanupParser();
	return rc;
}
#endif
