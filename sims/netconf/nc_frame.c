/*
 * NETCONF framing (RFC 6242 sections 4.1-4.3): incremental decoder and
 * encoders over byte buffers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "nc_frame.h"

/* Room for the largest body plus the EOM marker while scanning for it. */
#define NC_FRAME_MAX_LIMIT	(SIZE_MAX / 4)
#define NC_FRAME_INITIAL	4096

void
nc_framer_init(struct nc_framer *f, size_t max_msg)
{
	memset(f, 0, sizeof(*f));
	if (max_msg == 0 || max_msg > NC_FRAME_MAX_LIMIT)
		max_msg = NC_FRAME_MAX_LIMIT;
	f->max_msg = max_msg;
	f->state = NC_FS_IDLE;
}

void
nc_framer_free(struct nc_framer *f)
{
	free(f->buf);
	f->buf = NULL;
	f->len = f->cap = 0;
}

/* Make room for need bytes plus a NUL; growth is geometric and kept. */
static void
nc_framer_grow(struct nc_framer *f, size_t need)
{
	size_t	ncap;

	if (need + 1 <= f->cap)
		return;
	ncap = f->cap ? f->cap : NC_FRAME_INITIAL;
	while (ncap < need + 1)
		ncap *= 2;
	f->buf = xreallocarray(f->buf, ncap, 1);
	f->cap = ncap;
}

static void
nc_framer_restart(struct nc_framer *f)
{
	f->len = 0;
	f->scan = 0;
	f->nchunks = 0;
	f->chunk_left = 0;
	f->ndigits = 0;
	f->state = NC_FS_IDLE;
}

int
nc_framer_set_chunked(struct nc_framer *f, int on)
{
	if (f->state == NC_FS_DONE)
		nc_framer_restart(f);
	if (f->state != NC_FS_IDLE)
		return -1;
	f->chunked = on ? 1 : 0;
	return 0;
}

int
nc_framer_pending(const struct nc_framer *f)
{
	return f->state != NC_FS_IDLE && f->state != NC_FS_DONE &&
	    f->state != NC_FS_ERROR;
}

const uint8_t *
nc_framer_msg(const struct nc_framer *f, size_t *len)
{
	if (f->state != NC_FS_DONE) {
		*len = 0;
		return NULL;
	}
	*len = f->len;
	return f->buf;
}

size_t
nc_framer_deliver(struct nc_framer *f, const void *data, size_t len,
    const struct nc_frame_sink *sink, void *arg)
{
	const uint8_t		*p = data, *msg;
	size_t			 used, mlen, off = 0;
	enum nc_sink_state	 st = NC_SINK_OPEN;
	int			 r;

	while (off < len && (st = sink->state(arg)) != NC_SINK_DONE) {
		/* Paused between messages only: nothing of the next is
		 * buffered here, so the caller's copy is all there is. */
		if (st == NC_SINK_PAUSED && (f->state == NC_FS_IDLE ||
		    f->state == NC_FS_DONE))
			break;
		r = nc_framer_feed(f, p + off, len - off, &used);
		off += used;
		if (r == NC_FRAME_NEED)
			return off;
		if (r < 0) {
			sink->error(arg, r);
			return len;
		}
		msg = nc_framer_msg(f, &mlen);
		(st == NC_SINK_HELLO ? sink->hello : sink->message)(arg, msg,
		    mlen);
	}
	/* Between messages a session holds no buffer: most are idle,
	 * mounted and quiet, and kept it was 4 KiB or more each. */
	if (f->state == NC_FS_DONE || f->state == NC_FS_IDLE) {
		nc_framer_free(f);
		nc_framer_restart(f);
	}
	return st == NC_SINK_PAUSED ? off : len;
}

static int
nc_framer_done(struct nc_framer *f)
{
	nc_framer_grow(f, f->len);
	f->buf[f->len] = '\0';
	f->state = NC_FS_DONE;
	return NC_FRAME_MSG;
}

/*
 * Section 4.3: the message ends at the first "]]>]]>".  Copy what may still
 * belong to this message, search from where the last search could not yet
 * see a whole marker, and hand back the bytes after the marker unconsumed.
 */
static int
nc_framer_feed_eom(struct nc_framer *f, const uint8_t *p, size_t len,
    size_t *consumed)
{
	size_t		 room, n, prior = f->len, start;
	const uint8_t	*hit;

	room = f->max_msg + NC_FRAME_EOM_LEN - f->len;
	n = len < room ? len : room;
	nc_framer_grow(f, f->len + n);
	memcpy(f->buf + f->len, p, n);
	f->len += n;
	start = f->scan >= NC_FRAME_EOM_LEN - 1 ?
	    f->scan - (NC_FRAME_EOM_LEN - 1) : 0;
	hit = memmem(f->buf + start, f->len - start, NC_FRAME_EOM,
	    NC_FRAME_EOM_LEN);
	if (hit != NULL) {
		f->len = (size_t)(hit - f->buf);
		*consumed = f->len + NC_FRAME_EOM_LEN - prior;
		return nc_framer_done(f);
	}
	f->scan = f->len;
	*consumed = n;
	if (f->len == f->max_msg + NC_FRAME_EOM_LEN)
		return NC_FRAME_E_TOO_BIG;
	return NC_FRAME_NEED;
}

/*
 * Section 4.2 header bytes:
 *   chunk        = LF HASH chunk-size LF chunk-data
 *   chunk-size   = 1*DIGIT1 0*DIGIT, at most 4294967295
 *   end-of-chunks = LF HASH HASH LF
 * and at least one chunk per message.
 */
static int
nc_framer_hdr_byte(struct nc_framer *f, uint8_t c)
{
	switch (f->state) {
	case NC_FS_LF:
		if (c != '\n')
			return NC_FRAME_E_SYNTAX;
		f->state = NC_FS_HASH;
		return 0;
	case NC_FS_HASH:
		if (c != '#')
			return NC_FRAME_E_SYNTAX;
		f->state = NC_FS_SIZE1;
		return 0;
	case NC_FS_SIZE1:
		if (c == '#') {
			if (f->nchunks == 0)
				return NC_FRAME_E_EMPTY;
			f->state = NC_FS_EOC_LF;
			return 0;
		}
		if (c == '0')
			return NC_FRAME_E_CHUNK_SIZE;
		if (c < '1' || c > '9')
			return NC_FRAME_E_SYNTAX;
		f->chunk_left = c - '0';
		f->ndigits = 1;
		f->state = NC_FS_SIZE;
		return 0;
	case NC_FS_SIZE:
		if (c == '\n') {
			if (f->chunk_left > f->max_msg - f->len)
				return NC_FRAME_E_TOO_BIG;
			f->nchunks++;
			f->state = NC_FS_DATA;
			return 0;
		}
		if (c < '0' || c > '9')
			return NC_FRAME_E_SYNTAX;
		f->chunk_left = f->chunk_left * 10 + (c - '0');
		if (++f->ndigits > 10 || f->chunk_left > NC_FRAME_CHUNK_MAX)
			return NC_FRAME_E_CHUNK_SIZE;
		return 0;
	default:
		return NC_FRAME_E_SYNTAX;
	}
}

static int
nc_framer_feed_chunked(struct nc_framer *f, const uint8_t *p, size_t len,
    size_t *consumed)
{
	size_t	i = 0, n;
	int	r;

	while (i < len) {
		if (f->state == NC_FS_DATA) {
			n = len - i;
			if (n > f->chunk_left)
				n = (size_t)f->chunk_left;
			nc_framer_grow(f, f->len + n);
			memcpy(f->buf + f->len, p + i, n);
			f->len += n;
			f->chunk_left -= n;
			i += n;
			if (f->chunk_left == 0)
				f->state = NC_FS_LF;
			continue;
		}
		if (f->state == NC_FS_EOC_LF) {
			if (p[i] != '\n')
				return NC_FRAME_E_SYNTAX;
			*consumed = i + 1;
			return nc_framer_done(f);
		}
		if ((r = nc_framer_hdr_byte(f, p[i])) != 0) {
			*consumed = i;
			return r;
		}
		i++;
	}
	*consumed = i;
	return NC_FRAME_NEED;
}

int
nc_framer_feed(struct nc_framer *f, const void *data, size_t len,
    size_t *consumed)
{
	int	r;

	*consumed = 0;
	if (f->state == NC_FS_ERROR)
		return f->err;
	if (f->state == NC_FS_DONE)
		nc_framer_restart(f);
	if (len == 0)
		return NC_FRAME_NEED;
	if (f->state == NC_FS_IDLE)
		f->state = f->chunked ? NC_FS_LF : NC_FS_EOM;
	if (f->chunked)
		r = nc_framer_feed_chunked(f, data, len, consumed);
	else
		r = nc_framer_feed_eom(f, data, len, consumed);
	if (r < 0) {
		f->state = NC_FS_ERROR;
		f->err = r;
	}
	return r;
}

const char *
nc_frame_strerror(int res)
{
	switch (res) {
	case NC_FRAME_NEED:
		return "need more data";
	case NC_FRAME_MSG:
		return "message complete";
	case NC_FRAME_E_SYNTAX:
		return "bad chunk framing";
	case NC_FRAME_E_CHUNK_SIZE:
		return "bad chunk size";
	case NC_FRAME_E_EMPTY:
		return "end of chunks before any chunk";
	case NC_FRAME_E_TOO_BIG:
		return "message too big";
	default:
		return "unknown framing result";
	}
}

int
nc_frame_head(int chunked, size_t len, char *head)
{
	if (!chunked) {
		head[0] = '\0';
		return 0;
	}
	if (len == 0 || (uint64_t)len > NC_FRAME_CHUNK_MAX)
		return -1;
	return snprintf(head, NC_FRAME_HEAD_MAX, "\n#%zu\n", len);
}

const char *
nc_frame_tail(int chunked, size_t *tlen)
{
	if (chunked) {
		*tlen = NC_FRAME_EOC_LEN;
		return NC_FRAME_EOC;
	}
	*tlen = NC_FRAME_EOM_LEN;
	return NC_FRAME_EOM;
}

int
nc_frame_send(int chunked, const void *msg, size_t len,
    void (*put)(void *, const void *, size_t), void *arg)
{
	char		 head[NC_FRAME_HEAD_MAX];
	const char	*tail;
	size_t		 tlen;
	int		 hlen;

	if ((hlen = nc_frame_head(chunked, len, head)) == -1)
		return -1;
	tail = nc_frame_tail(chunked, &tlen);
	if (hlen > 0)
		put(arg, head, (size_t)hlen);
	put(arg, msg, len);
	put(arg, tail, tlen);
	return 0;
}

int
nc_frame_encode(struct wbuf *w, int chunked, const void *msg, size_t len,
    size_t max_chunk)
{
	const uint8_t	*p = msg;
	char		 head[NC_FRAME_HEAD_MAX];
	size_t		 n, tlen;
	const char	*tail;
	int		 hlen;

	if (!chunked) {
		wbuf_put_bytes(w, msg, len);
	} else {
		if (len == 0)
			return -1;
		if (max_chunk == 0 || max_chunk > NC_FRAME_CHUNK_MAX)
			max_chunk = NC_FRAME_CHUNK_MAX;
		while (len > 0) {
			n = len < max_chunk ? len : max_chunk;
			hlen = nc_frame_head(1, n, head);
			wbuf_put_bytes(w, head, (size_t)hlen);
			wbuf_put_bytes(w, p, n);
			p += n;
			len -= n;
		}
	}
	tail = nc_frame_tail(chunked, &tlen);
	wbuf_put_bytes(w, tail, tlen);
	return w->err ? -1 : 0;
}
