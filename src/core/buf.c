#include <endian.h>
#include <string.h>

#include "buf.h"

void
rbuf_init(struct rbuf *r, const void *data, size_t len)
{
	r->data = data;
	r->len = len;
	r->off = 0;
}

size_t
rbuf_left(const struct rbuf *r)
{
	return r->len - r->off;
}

const uint8_t *
rbuf_ptr(const struct rbuf *r)
{
	return r->data + r->off;
}

/*
 * The next n bytes, consumed: *p points at them.  -1 (nothing consumed)
 * when fewer are left; every reader below is this check and a copy.
 */
static inline int
rbuf_take(struct rbuf *r, size_t n, const uint8_t **p)
{
	if (rbuf_left(r) < n)
		return -1;
	*p = r->data + r->off;
	r->off += n;
	return 0;
}

int
rbuf_get_bytes(struct rbuf *r, void *out, size_t n)
{
	const uint8_t	*p;

	if (rbuf_take(r, n, &p) == -1)
		return -1;
	if (n > 0)
		memcpy(out, p, n);
	return 0;
}

int
rbuf_skip(struct rbuf *r, size_t n)
{
	const uint8_t	*p;

	return rbuf_take(r, n, &p);
}

int
rbuf_sub(struct rbuf *r, struct rbuf *sub, size_t n)
{
	const uint8_t	*p;

	if (rbuf_take(r, n, &p) == -1)
		return -1;
	rbuf_init(sub, p, n);
	return 0;
}

/*
 * One reader for every width: the bytes in network order, copied whole
 * and swapped once (be8toh is the identity, for the u8 reader).
 */
#define be8toh(x)	(x)
#define RBUF_GET_UINT(bits)						\
int									\
rbuf_get_u##bits(struct rbuf *r, uint##bits##_t *v)			\
{									\
	const uint8_t	*p;						\
	uint##bits##_t	 x;						\
									\
	if (rbuf_take(r, (bits) / 8, &p) == -1)				\
		return -1;						\
	memcpy(&x, p, sizeof(x));					\
	*v = be##bits##toh(x);						\
	return 0;							\
}

RBUF_GET_UINT(8)
RBUF_GET_UINT(16)
RBUF_GET_UINT(32)
RBUF_GET_UINT(64)

void
wbuf_init(struct wbuf *w, void *mem, size_t cap)
{
	w->data = mem;
	w->cap = cap;
	w->len = 0;
	w->err = 0;
}

void
wbuf_reset(struct wbuf *w)
{
	w->len = 0;
	w->err = 0;
}

static int
wbuf_room(struct wbuf *w, size_t n)
{
	if (w->err || w->cap - w->len < n) {
		w->err = 1;
		return -1;
	}
	return 0;
}

int
wbuf_put_bytes(struct wbuf *w, const void *src, size_t n)
{
	if (wbuf_room(w, n) == -1)
		return -1;
	if (n > 0)
		memcpy(w->data + w->len, src, n);
	w->len += n;
	return 0;
}

int
wbuf_put_zero(struct wbuf *w, size_t n)
{
	if (wbuf_room(w, n) == -1)
		return -1;
	memset(w->data + w->len, 0, n);
	w->len += n;
	return 0;
}

int
wbuf_put_u8(struct wbuf *w, uint8_t v)
{
	return wbuf_put_bytes(w, &v, 1);
}

int
wbuf_put_u16(struct wbuf *w, uint16_t v)
{
	uint8_t	b[2] = { v >> 8, v & 0xff };

	return wbuf_put_bytes(w, b, 2);
}

int
wbuf_put_u32(struct wbuf *w, uint32_t v)
{
	uint8_t	b[4] = { v >> 24, v >> 16, v >> 8, v };

	return wbuf_put_bytes(w, b, 4);
}

int
wbuf_put_u64(struct wbuf *w, uint64_t v)
{
	if (wbuf_put_u32(w, v >> 32) == -1)
		return -1;
	return wbuf_put_u32(w, (uint32_t)v);
}

int
wbuf_set_u16(struct wbuf *w, size_t off, uint16_t v)
{
	if (off > w->len || w->len - off < 2) {
		w->err = 1;
		return -1;
	}
	w->data[off] = v >> 8;
	w->data[off + 1] = v & 0xff;
	return 0;
}
