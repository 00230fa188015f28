/*
 * A controller role's listener and tick (ctl_listen.h).
 */
#include <stddef.h>

#include <event2/event.h>
#include <event2/listener.h>

#include "ctl_listen.h"
#include "engine.h"

/* The listener's callback: the role's struct ctl_listen is its argument. */
static void
ctl_listen_accept(struct evconnlistener *l, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct ctl_listen	*cl = arg;

	(void)l;
	cl->attach(cl->arg, fd, sa, (socklen_t)salen);
}

int
ctl_listen_start(struct ctl_listen *cl, const struct endpoint *ep,
    const char *what, ctl_attach_fn attach, event_callback_fn tick,
    void *arg, unsigned tick_ms, char *err, size_t errlen)
{
	cl->tick = NULL;
	cl->attach = attach;
	cl->arg = arg;
	cl->listener = engine_listen(ep, ctl_listen_accept, cl,
	    what, err, errlen);
	if (cl->listener == NULL)
		return -1;
	cl->tick = engine_timer_new(EV_PERSIST, tick, arg);
	engine_timer_add_ms(cl->tick, tick_ms);
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
