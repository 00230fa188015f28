/*
 * What the codec tests (test_bgp_codec, test_of_codec, test_pcep_codec)
 * share: one output buffer the codec under test writes into, byte vectors
 * written out in hex, and CHECK_OUT() comparing the two byte for byte.
 *
 *	struct vec	v;
 *
 *	start();
 *	vec(&v, "20 01 00 34 ...");	(one field per line in the tests)
 *	pcep_open_encode(&w, ...);
 *	CHECK_OUT(&v, "OPEN");
 *
 * body_of() reads a message after its fixed header, whose length the test
 * defines as CHECK_CODEC_HDR_LEN before including this file.
 */
#ifndef SBSIM_CHECK_CODEC_H
#define SBSIM_CHECK_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "check.h"

/* Large enough for the longest message a test builds (an OpenFlow
 * multipart reply, a BGP UPDATE of 4096 bytes and more). */
static uint8_t		 out[1 << 17];
static struct wbuf	 w;

/* A byte vector: the message a test expects, or feeds a decoder. */
struct vec {
	uint8_t	b[8192];
	size_t	len;
};

/* hex into v; a malformed or overlong vector is a bug in the test
 * (check_unhex() exits 2). */
static inline void
vec(struct vec *v, const char *hex)
{
	v->len = check_unhex(hex, v->b, sizeof(v->b));
}

/* An empty output buffer for the next message. */
static inline void
start(void)
{
	wbuf_init(&w, out, sizeof(out));
}

#define CHECK_OUT(v, ...) CHECK_BYTES(w.data, w.len, (v)->b, (v)->len,	\
	__VA_ARGS__)

#ifdef CHECK_CODEC_HDR_LEN
/* A reader over the body (after the fixed header) of a message. */
static inline void
body_of(struct rbuf *r, const struct vec *v)
{
	rbuf_init(r, v->b + CHECK_CODEC_HDR_LEN, v->len -
	    CHECK_CODEC_HDR_LEN);
}
#endif

#endif
