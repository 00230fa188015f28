/*
 * What the unit tests that drive one simulated switch through its
 * handlers (test_of_bundle, test_of_nx_tlv) share: a one-switch sim whose
 * counters count into the test's array, the switch's end of a socket
 * pair, and reading back what the switch wrote on it.  The switch's
 * bufferevent writes in the loop, so the loop takes a few non-blocking
 * turns first.
 */
#ifndef SBSIM_CHECK_OFSW_H
#define SBSIM_CHECK_OFSW_H

#include <sys/types.h>
#include <sys/socket.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event2/bufferevent.h>
#include <event2/event.h>

#include "log.h"	/* nitems() */
#include "of_sim.h"
#include "of_types.h"	/* OF_HEADER_LEN */

/* *s zeroed, every counter pointing into store (n of them), program and
 * delete phases in m; one switch, one controller, 4 ports, 4 tables. */
static inline void
check_of_sim_init(struct of_sim *s, struct metrics *m, uint64_t *store,
    size_t n)
{
	uint64_t	**p = (uint64_t **)&s->c;
	size_t		  i, nc = sizeof(s->c) / sizeof(*p);

	if (nc > n)
		abort();	/* the test's store is too small */
	memset(s, 0, sizeof(*s));
	memset(store, 0, n * sizeof(*store));
	for (i = 0; i < nc; i++)
		p[i] = &store[i];
	metrics_init(m);
	s->m = m;
	s->ph[OFP_PROGRAM] = metrics_phase(m, "program", "openflow");
	s->ph[OFP_DELETE] = metrics_phase(m, "delete", "openflow");
	s->cfg.switches = s->cfg.n_ctl = 1;
	s->cfg.ports = 4;
	s->cfg.tables = 4;
}

/* The switch's bufferevent on one end of a socket pair (*base made on
 * first use); fds[1] is the test's end. */
static inline struct bufferevent *
check_of_pipe(struct event_base **base, int fds[2])
{
	if (*base == NULL)
		*base = event_base_new();
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == -1)
		abort();
	return bufferevent_socket_new(*base, fds[0], BEV_OPT_CLOSE_ON_FREE);
}

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
