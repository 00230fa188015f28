/*
 * The JSON-RPC framer of OVSDB (RFC 7047 section 4): JSON-RPC 1.0 over a
 * byte stream with no length prefix, one JSON value after another, so a
 * message ends where its outermost brace or bracket closes.  The framer
 * tracks strings, escapes and depth, and keeps its state between calls
 * so that a message arriving in pieces is scanned once.  It does not
 * check the JSON itself (the parser does); it only finds the ends.
 */
#ifndef SBSIM_OVSDB_FRAME_H
#define SBSIM_OVSDB_FRAME_H

#include <stddef.h>
#include <stdint.h>

/* Deeper nesting than any OVSDB message needs; OVS's parser stops at
 * 1000 too. */
#define OVSDB_FRAME_MAX_DEPTH	1000

enum ovsdb_frame_rc {
	OVSDB_FRAME_BAD = -3,		/* a byte no message starts with */
	OVSDB_FRAME_DEEP = -2,		/* nested past MAX_DEPTH */
	OVSDB_FRAME_LONG = -1,		/* over the length limit */
	OVSDB_FRAME_MORE = 0,		/* not whole yet */
	OVSDB_FRAME_WHOLE = 1,
};

struct ovsdb_frame {
	size_t		max;		/* longest message, whitespace first */
	size_t		off;		/* bytes scanned so far */
	uint32_t	depth;		/* braces and brackets open */
	uint8_t		started;	/* past the leading whitespace */
	uint8_t		in_str;
	uint8_t		esc;		/* after a backslash in a string */
};

/* A framer for messages of at most max bytes. */
void	 ovsdb_frame_init(struct ovsdb_frame *, size_t max);
/* After a whole message was taken off the stream (or to start again). */
void	 ovsdb_frame_reset(struct ovsdb_frame *);
/*
 * Scan the stream's first len bytes (the same as the last call's, maybe
 * more): OVSDB_FRAME_WHOLE with *msg_len the bytes of the first message,
 * leading whitespace included; MORE; or an error, after which the stream
 * cannot be trusted (ovsdb-server closes the connection).
 */
enum ovsdb_frame_rc ovsdb_frame_scan(struct ovsdb_frame *,
	    const uint8_t *data, size_t len, size_t *msg_len);
const char *ovsdb_frame_error(enum ovsdb_frame_rc);

#endif
