/*
 * A controller role's listener, its periodic tick and its sessions'
 * closing: the skeleton every role that takes sessions shares, told
 * what is the role's own by one table (struct ctl_sess_ops).
 * The listener hands each accepted socket to the role's attach function;
 * the tick (EV_PERSIST) runs the role's timers every tick_ms with the
 * time read once; a session whose peer closed or failed is closed by
 * ctl_sess_event(), the bufferevent event callback of every session.
 */
#ifndef SBSIM_CTL_LISTEN_H
#define SBSIM_CTL_LISTEN_H

#include <stddef.h>
#include <stdint.h>

#include <sys/socket.h>

#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>

struct endpoint;

/* What is the role's own; one static table a role. */
struct ctl_sess_ops {
	const char	*what;		/* the protocol's name: engine_listen() */
	const char	*peer_closed;	/* the reason when the peer closes */
	unsigned	 tick_ms;
	/* A connection accepted: the role (its state) takes fd. */
	void	(*attach)(void *role, evutil_socket_t fd,
		    const struct sockaddr *, socklen_t);
	/* Every tick_ms: the role's timers at now_ns. */
	void	(*tick)(void *role, uint64_t now_ns);
	/* Close a session (its struct starts with struct ctl_sess) for why;
	 * it may be freed here. */
	void	(*close)(void *sess, const char *why);
};

/* The first member of a role's session: the event callback's way back
 * to the role's close(). */
struct ctl_sess {
	const struct ctl_sess_ops	*ops;
};

/* The role's state holds one. */
struct ctl_listen {
	struct evconnlistener		*listener;
	struct event			*tick;
	const struct ctl_sess_ops	*ops;
	void				*role;
};

/*
 * Listen on ep and arm the tick; attach and tick get role, the role's
 * state.  0, or -1 with the reason in err and nothing left open.
 */
int	 ctl_listen_start(struct ctl_listen *, const struct endpoint *ep,
	    const struct ctl_sess_ops *, void *role, char *err, size_t errlen);
/* Close both (either may never have opened); again is harmless. */
void	 ctl_listen_stop(struct ctl_listen *);

/* The event callback of a session's bufferevent (arg: the session, which
 * starts with struct ctl_sess): EOF or an error closes it, with the
 * role's peer_closed or the socket's error as the reason. */
void	 ctl_sess_event(struct bufferevent *, short what, void *sess);

#endif
