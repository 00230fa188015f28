/*
 * What the unit tests that drive one simulated switch through its
 * handlers (test_of_bundle, test_of_nx_tlv) share: reading back what the
 * switch wrote on its socket pair.  The switch's bufferevent writes in the
 * loop, so the loop takes a few non-blocking turns first.
 */
#ifndef SBSIM_CHECK_OFSW_H
#define SBSIM_CHECK_OFSW_H

#include <sys/types.h>
#include <sys/socket.h>

#include <stddef.h>
#include <stdint.h>

#include <event2/event.h>

#include "of_types.h"	/* OF_HEADER_LEN */

/* The next whole message read from fd into buf (cap bytes), its length;
 * 0 when none is there or it does not fit. */
static inline size_t
check_of_next_msg(struct event_base *base, int fd, uint8_t *buf, size_t cap)
{
	size_t	len;
	int	i;

	for (i = 0; i < 3; i++)
		event_base_loop(base, EVLOOP_NONBLOCK);
	if (recv(fd, buf, OF_HEADER_LEN, MSG_PEEK | MSG_DONTWAIT) !=
	    OF_HEADER_LEN)
		return 0;
	len = (size_t)(buf[2] << 8 | buf[3]);
	if (len < OF_HEADER_LEN || len > cap ||
	    recv(fd, buf, len, MSG_DONTWAIT) != (ssize_t)len)
		return 0;
	return len;
}

#endif /* SBSIM_CHECK_OFSW_H */
