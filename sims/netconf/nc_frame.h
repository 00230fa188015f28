/*
 * NETCONF message framing over SSH and TCP (RFC 6242 section 4): no I/O.
 *
 * A framer is an incremental decoder fed with whatever bytes arrived, in any
 * pieces.  nc_framer_feed() consumes bytes up to the end of one message at
 * most and then stops, so that a caller can switch from end-of-message
 * framing to chunked framing right after the <hello> exchange (section 4.1)
 * with the rest of its input still unconsumed.  That fits both drivers:
 *
 *   libssh channel_data_function(data, len) -> return consumed;
 *   libevent read callback: evbuffer_peek(), feed, evbuffer_drain(consumed).
 *
 * A complete message is the framer's own buffer (NUL-terminated for
 * convenience, never counted in its length), valid until the next call on
 * the framer.  The buffer grows to the largest message seen and is reused.
 *
 * Errors are sticky: a framing error leaves the stream unsynchronised, and
 * RFC 6242 section 4.2 has the receiver of a malformed chunked message end
 * the session (no rpc-error can be framed reliably any more).
 */
#ifndef SBSIM_NC_FRAME_H
#define SBSIM_NC_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* Section 4.3 (base:1.0) end-of-message marker. */
#define NC_FRAME_EOM		"]]>]]>"
#define NC_FRAME_EOM_LEN	6
/* Section 4.2: end-of-chunks. */
#define NC_FRAME_EOC		"\n##\n"
#define NC_FRAME_EOC_LEN	4
/* Section 4.2: chunk-size = 1..4294967295. */
#define NC_FRAME_CHUNK_MAX	4294967295ULL
/* "\n#4294967295\n" plus a NUL. */
#define NC_FRAME_HEAD_MAX	14

enum nc_frame_res {
	NC_FRAME_NEED = 0,		/* all input consumed, no message yet */
	NC_FRAME_MSG = 1,		/* one message complete: nc_framer_msg */
	NC_FRAME_E_SYNTAX = -1,		/* chunked: not LF / '#' / digit where due */
	NC_FRAME_E_CHUNK_SIZE = -2,	/* chunked: 0, leading zero, > 2^32-1 */
	NC_FRAME_E_EMPTY = -3,		/* chunked: end-of-chunks before a chunk */
	NC_FRAME_E_TOO_BIG = -4,	/* message over the framer's maximum */
};

enum nc_framer_state {
	NC_FS_IDLE,		/* between messages */
	NC_FS_EOM,		/* base:1.0: inside a message */
	NC_FS_LF,		/* chunked: expect LF before '#' */
	NC_FS_HASH,		/* chunked: expect '#' */
	NC_FS_SIZE1,		/* chunked: first size digit, or '#' */
	NC_FS_SIZE,		/* chunked: more size digits or LF */
	NC_FS_DATA,		/* chunked: inside chunk-data */
	NC_FS_EOC_LF,		/* chunked: "\n##" seen, expect LF */
	NC_FS_DONE,		/* a message is ready */
	NC_FS_ERROR,		/* sticky */
};

struct nc_framer {
	uint8_t		*buf;		/* message body, grows, reused */
	size_t		 len;
	size_t		 cap;
	size_t		 max_msg;	/* body bytes accepted at most */
	int		 chunked;
	enum nc_framer_state state;
	int		 err;		/* enum nc_frame_res when in error */
	int		 nchunks;	/* of the message being read */
	uint64_t	 chunk_left;	/* size digits, then bytes to copy */
	unsigned	 ndigits;
	size_t		 scan;		/* EOM: buf offset searched so far */
};

void	 nc_framer_init(struct nc_framer *, size_t max_msg);
void	 nc_framer_free(struct nc_framer *);
/*
 * Switch to chunked framing (on) or back to end-of-message framing; only
 * between messages (no partial message buffered).  -1 otherwise.
 */
int	 nc_framer_set_chunked(struct nc_framer *, int on);
/*
 * Consume bytes from data up to the end of at most one message.  Returns an
 * enum nc_frame_res; *consumed gets how many bytes were taken (all of them
 * unless a message completed, none once in error).
 */
int	 nc_framer_feed(struct nc_framer *, const void *data, size_t len,
	    size_t *consumed);
/* The complete message after NC_FRAME_MSG, valid until the next call. */
const uint8_t *nc_framer_msg(const struct nc_framer *, size_t *len);
/*
 * A session's side of the read loop both ends share (device and client):
 * each whole message in the bytes goes, in order, to hello() while the
 * session waits for the peer's hello, then to message(), until state()
 * says the session is done; a framing error goes to error() and ends the
 * stream (RFC 6242 section 4.2: the framing is lost).
 */
enum nc_sink_state {
	NC_SINK_DONE,		/* reading is over */
	NC_SINK_HELLO,		/* the peer's hello comes next */
	NC_SINK_OPEN,
	NC_SINK_PAUSED,		/* stop before the next message, keep it */
};
struct nc_frame_sink {
	enum nc_sink_state (*state)(void *arg);
	void	(*hello)(void *arg, const uint8_t *msg, size_t len);
	void	(*message)(void *arg, const uint8_t *msg, size_t len);
	void	(*error)(void *arg, int res);
};
/* Returns the bytes taken: all of them, or fewer once state() said
 * NC_SINK_PAUSED (the caller keeps the rest and hands it in again). */
size_t	 nc_framer_deliver(struct nc_framer *, const void *data, size_t len,
	    const struct nc_frame_sink *, void *arg);
/* A partial message is buffered (e.g. at end of stream). */
int	 nc_framer_pending(const struct nc_framer *);
const char *nc_frame_strerror(int res);

/*
 * Encoding.  The zero-copy form: write head, the message, then tail.
 * nc_frame_head() fills head (NC_FRAME_HEAD_MAX bytes) with the chunk
 * header for a single chunk of len bytes and returns its length, 0 for
 * end-of-message framing, -1 when len cannot be one chunk (0 or too big).
 */
int	 nc_frame_head(int chunked, size_t len, char *head);
const char *nc_frame_tail(int chunked, size_t *tlen);
/*
 * One message in the zero-copy form: head, msg and tail, each handed to
 * put(arg, ...) (a transport's write).  -1, nothing put, when len cannot
 * be one chunk.
 */
int	 nc_frame_send(int chunked, const void *msg, size_t len,
	    void (*put)(void *arg, const void *, size_t), void *arg);
/*
 * Append one framed message to a wbuf; chunked framing splits it into
 * chunks of at most max_chunk bytes (0: one chunk).  -1: empty message in
 * chunked mode, or the wbuf overflowed (its err flag is set then).
 */
int	 nc_frame_encode(struct wbuf *, int chunked, const void *msg,
	    size_t len, size_t max_chunk);

#endif
