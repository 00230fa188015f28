/*
 * bgp_write_last (bgp_io.h).
 */
#include <sys/socket.h>

#include <errno.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>

#include "bgp_io.h"

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
