/*
 * A controller role's listener, tick and session closing (ctl_listen.h).
 */
#include <stddef.h>

#include <event2/event.h>
#include <event2/listener.h>

#include "ctl_listen.h"
#include "engine.h"
#include "metrics.h"

/* The listener's callback: the role's struct ctl_listen is its argument. */
static void
ctl_listen_accept(struct evconnlistener *l, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct ctl_listen	*cl = arg;

	(void)l;
	cl->ops->attach(cl->role, fd, sa, (socklen_t)salen);
}

/* The timer's callback: the role's timers with the time read once. */
static void
ctl_listen_tick(evutil_socket_t fd, short what, void *arg)
{
	struct ctl_listen	*cl = arg;

	(void)fd;
	(void)what;
	cl->ops->tick(cl->role, clock_ns());
}

int
ctl_listen_start(struct ctl_listen *cl, const struct endpoint *ep,
    const struct ctl_sess_ops *ops, void *role, char *err, size_t errlen)
{
	cl->tick = NULL;
	cl->ops = ops;
	cl->role = role;
	cl->listener = engine_listen(ep, ctl_listen_accept, cl,
	    ops->what, err, errlen);
	if (cl->listener == NULL)
		return -1;
	cl->tick = engine_timer_new(EV_PERSIST, ctl_listen_tick, cl);
	engine_timer_add_ms(cl->tick, ops->tick_ms);
	return 0;
}

void
ctl_listen_stop(struct ctl_listen *cl)
{
	if (cl->listener != NULL)
		engine_listener_free(cl->listener);
	cl->listener = NULL;
	engine_event_free(&cl->tick);
}

void
ctl_sess_event(struct bufferevent *bev, short what, void *sess)
{
	const struct ctl_sess	*cs = sess;
	const char		*why;

	(void)bev;
	if ((why = engine_bev_closed_why(what, cs->ops->peer_closed)) != NULL)
		cs->ops->close(sess, why);
}
