/*
 * Splitting an OVSDB byte stream into whole JSON values (RFC 7047
 * section 4; RFC 7159 for strings: a quote inside a string is escaped
 * with a backslash, and a backslash escapes exactly one character).
 */
#include <stddef.h>
#include <stdint.h>

#include "ovsdb_frame.h"

void
ovsdb_frame_init(struct ovsdb_frame *f, size_t max)
{
	f->max = max;
	ovsdb_frame_reset(f);
}

void
ovsdb_frame_reset(struct ovsdb_frame *f)
{
	f->off = 0;
	f->depth = 0;
	f->started = f->in_str = f->esc = 0;
}

/* RFC 7159 section 2: the four whitespace characters. */
static int
ovsdb_frame_space(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* One byte inside a string. */
static void
ovsdb_frame_str(struct ovsdb_frame *f, uint8_t c)
{
	if (f->esc)
		f->esc = 0;
	else if (c == '\\')
		f->esc = 1;
	else if (c == '"')
		f->in_str = 0;
}

/* One byte outside strings, once a value started: 1 when it ends it. */
static int
ovsdb_frame_byte(struct ovsdb_frame *f, uint8_t c, enum ovsdb_frame_rc *rc)
{
	switch (c) {
	case '"':
		f->in_str = 1;
		break;
	case '{':
	case '[':
		if (++f->depth > OVSDB_FRAME_MAX_DEPTH) {
			*rc = OVSDB_FRAME_DEEP;
			return 1;
		}
		break;
	case '}':
	case ']':
		/* A mismatched pair is the parser's to find. */
		if (--f->depth == 0) {
			*rc = OVSDB_FRAME_WHOLE;
			return 1;
		}
		break;
	}
	return 0;
}

enum ovsdb_frame_rc
ovsdb_frame_scan(struct ovsdb_frame *f, const uint8_t *data, size_t len,
    size_t *msg_len)
{
	enum ovsdb_frame_rc	rc = OVSDB_FRAME_MORE;
	size_t			i;

	for (i = f->off; i < len && i < f->max; i++) {
		if (f->in_str) {
			ovsdb_frame_str(f, data[i]);
			continue;
		}
		if (!f->started) {
			if (ovsdb_frame_space(data[i]))
				continue;
			/* JSON-RPC messages are objects; OVS's parser also
			 * takes an array, which the message layer refuses. */
			if (data[i] != '{' && data[i] != '[')
				return OVSDB_FRAME_BAD;
			f->started = 1;
		}
		if (ovsdb_frame_byte(f, data[i], &rc)) {
			*msg_len = i + 1;
			return rc;
		}
	}
	f->off = i;
	return i >= f->max ? OVSDB_FRAME_LONG : OVSDB_FRAME_MORE;
}

const char *
ovsdb_frame_error(enum ovsdb_frame_rc rc)
{
	switch (rc) {
	case OVSDB_FRAME_BAD:
		return "not a JSON object";
	case OVSDB_FRAME_DEEP:
		return "JSON nested too deep";
	case OVSDB_FRAME_LONG:
		return "message too long";
	default:
		return "no error";
	}
}
