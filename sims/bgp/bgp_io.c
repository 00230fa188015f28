/*
 * What the peers and the controller's speaker share (bgp_io.h).
 */
#include <sys/socket.h>

#include <errno.h>
#include <stdio.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>

#include "bgp_codec.h"
#include "bgp_io.h"
#include "cli.h"
#include "pool.h"

#define BGP_SCRATCH	(64 * 1024)

/* A message's length from its BGP_HEADER_LEN bytes of header, or -1
 * with the error to send (section 6.1). */
static long
bgp_header_length(const uint8_t *hdr, struct bgp_err *e)
{
	uint16_t	len;
	uint8_t		type;

	if (bgp_header_decode(hdr, BGP_HEADER_LEN, &len, &type, e) == -1)
		return -1;
	return len;
}

void
bgp_conn_notify_err(const struct bgp_conn *c, const struct bgp_err *e)
{
	c->ops->notify_close(c->owner, e->code, e->subcode,
	    e->wire ? e->wire : e->data, e->wire ? e->wirelen : e->datalen,
	    e->why);
}

int
bgp_conn_open_decode(const struct bgp_conn *c, const uint8_t *msg,
    size_t len, struct bgp_open *o)
{
	struct bgp_err	e;

	if (bgp_open_decode(msg, len, o, &e) == -1) {
		bgp_conn_notify_err(c, &e);
		return -1;
	}
	return 0;
}

static long
conn_frame_length(void *dev, const uint8_t *hdr)
{
	struct bgp_err	e;
	long		len = bgp_header_length(hdr, &e);

	if (len == -1)
		bgp_conn_notify_err(dev, &e);
	return len;
}

static int
conn_frame_message(void *dev, const uint8_t *msg, size_t len)
{
	struct bgp_conn	*c = dev;

	return c->ops->message(c->owner, msg, len);
}

static const struct pool_framer conn_framer = {
	.hdr_len = BGP_HEADER_LEN, .length = conn_frame_length,
	.message = conn_frame_message,
};

int
bgp_conn_read(struct bgp_conn *c, struct bufferevent *bev)
{
	return pool_read(bev, &conn_framer, c);
}

struct wbuf *
bgp_scratch(void)
{
	static uint8_t		mem[BGP_SCRATCH];
	static struct wbuf	w;

	wbuf_init(&w, mem, sizeof(mem));
	return &w;
}

int
bgp_hold_opt(const char *name, const char *arg, void *field, char *err,
    size_t errlen)
{
	uint16_t	*out = field;
	uint32_t	 hold;

	if (opt_uint32(name, arg, 0, 65535, &hold, err, errlen) == -1)
		return -1;
	if (hold == 1 || hold == 2) {
		snprintf(err, errlen, "--%s: 1 and 2 are not allowed (RFC 4271 "
		    "section 4.2)", name);
		return -1;
	}
	*out = (uint16_t)hold;
	return 0;
}

static int
bgp_send_all(int fd, const unsigned char *p, size_t len)
{
	ssize_t	n;

	while (len > 0) {
		n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
bgp_write_last(struct bufferevent *bev, const void *msg, size_t len)
{
	struct evbuffer	*out = bufferevent_get_output(bev);
	size_t		 queued = evbuffer_get_length(out);
	int		 fd = (int)bufferevent_getfd(bev);

	if (fd < 0)
		return -1;
	if (queued > 0 && bgp_send_all(fd, evbuffer_pullup(out, -1),
	    queued) == -1)
		return -1;
	return bgp_send_all(fd, msg, len);
}
