/*
 * A controller role's listener and its periodic tick, opened and closed
 * together: the start-up roles that take sessions share.  The
 * listener hands each accepted socket to the role's attach function; the
 * tick (EV_PERSIST) runs the role's timers every tick_ms.
 */
#ifndef SBSIM_CTL_LISTEN_H
#define SBSIM_CTL_LISTEN_H

#include <stddef.h>

#include <sys/socket.h>

#include <event2/event.h>
#include <event2/listener.h>

struct endpoint;

/* A connection accepted: the role (arg) takes fd from here on. */
typedef void (*ctl_attach_fn)(void *arg, evutil_socket_t fd,
	    const struct sockaddr *, socklen_t);

/* The role's state holds one: the listener's callback reads attach. */
struct ctl_listen {
	struct evconnlistener	*listener;
	struct event		*tick;
	ctl_attach_fn		 attach;
	void			*arg;
};

/*
 * Listen on ep for what (the protocol's name, in the error and the
 * open-to-the-network line: engine_listen()) and arm tick every
 * tick_ms; attach and tick get arg, the role's state.  0, or -1 with
 * the reason in err and nothing left open.
 */
int	 ctl_listen_start(struct ctl_listen *, const struct endpoint *ep,
	    const char *what, ctl_attach_fn attach, event_callback_fn tick,
	    void *arg, unsigned tick_ms, char *err, size_t errlen);
/* Close both (either may never have opened); again is harmless. */
void	 ctl_listen_stop(struct ctl_listen *);

#endif
