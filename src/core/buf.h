/*
 * Bounds-checked wire buffers.
 *
 * rbuf is a reader over a byte span owned by the caller: every get returns
 * -1 when fewer bytes are left than asked for and never reads past the span.
 * wbuf is a writer into caller storage of fixed capacity: writes past the end
 * set a sticky error flag, checked once after a whole message is built.
 * Multi-byte values are in network byte order on the wire.
 */
#ifndef SBSIM_BUF_H
#define SBSIM_BUF_H

#include <stddef.h>
#include <stdint.h>

struct rbuf {
	const uint8_t	*data;
	size_t		 len;
	size_t		 off;
};

void	 rbuf_init(struct rbuf *, const void *, size_t);
size_t	 rbuf_left(const struct rbuf *);
const uint8_t *rbuf_ptr(const struct rbuf *);
int	 rbuf_get_u8(struct rbuf *, uint8_t *);
int	 rbuf_get_u16(struct rbuf *, uint16_t *);
int	 rbuf_get_u32(struct rbuf *, uint32_t *);
int	 rbuf_get_u64(struct rbuf *, uint64_t *);
int	 rbuf_get_bytes(struct rbuf *, void *, size_t);
int	 rbuf_skip(struct rbuf *, size_t);
/* Carve the next len bytes off as a reader of their own. */
int	 rbuf_sub(struct rbuf *, struct rbuf *, size_t);

struct wbuf {
	uint8_t		*data;
	size_t		 len;
	size_t		 cap;
	int		 err;	/* set once any write did not fit */
};

void	 wbuf_init(struct wbuf *, void *, size_t);
void	 wbuf_reset(struct wbuf *);
int	 wbuf_put_u8(struct wbuf *, uint8_t);
int	 wbuf_put_u16(struct wbuf *, uint16_t);
int	 wbuf_put_u32(struct wbuf *, uint32_t);
int	 wbuf_put_u64(struct wbuf *, uint64_t);
int	 wbuf_put_bytes(struct wbuf *, const void *, size_t);
int	 wbuf_put_zero(struct wbuf *, size_t);
/* Overwrite bytes already written (e.g. a length field) at offset off. */
int	 wbuf_set_u16(struct wbuf *, size_t off, uint16_t);

#endif
