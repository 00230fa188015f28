/*
 * The embedded controller's dummy role (ctl_role.h): --dummy ptcp:PORT
 * listens; each "HELLO ID SEQ" line is answered "OK ID SEQ".  A line past
 * DUMMY_LINE_MAX or one that is no hello closes its session, counted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/listener.h>

#include "ctl_role.h"
#include "dummy.h"
#include "engine.h"
#include "log.h"

struct dummy_role {
	struct endpoint		 listen;
	struct evconnlistener	*lis;
	uint64_t		 sessions, up, hellos, bad;
};

static struct dummy_role	dr;

static const struct opt dr_rows[] = {
	OPT_P("dummy", "EP", struct dummy_role, listen, struct endpoint,
	    endpoint_parse_listen, CTL_GIVEN_ON,
	    "answer the dummy devices' hellos on\nptcp:PORT[:IP]"),
	OPT_END
};

static void
dr_close(struct dummy_role *r, struct bufferevent *bev)
{
	bufferevent_free(bev);
	r->up--;
}

static void
dr_read(struct bufferevent *bev, void *arg)
{
	struct dummy_role	*r = arg;
	struct evbuffer		*in = bufferevent_get_input(bev);
	unsigned		 id, seq;
	char			*line;
	size_t			 len;

	while ((line = evbuffer_readln(in, &len, EVBUFFER_EOL_LF)) != NULL) {
		if (sscanf(line, "HELLO %u %u", &id, &seq) != 2) {
			free(line);
			r->bad++;
			dr_close(r, bev);
			return;
		}
		free(line);
		r->hellos++;
		evbuffer_add_printf(bufferevent_get_output(bev), "OK %u %u\n",
		    id, seq);
	}
	if (evbuffer_get_length(in) > DUMMY_LINE_MAX) {
		r->bad++;
		dr_close(r, bev);
	}
}

static void
dr_event(struct bufferevent *bev, short what, void *arg)
{
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		dr_close(arg, bev);
}

static void
dr_accept(struct evconnlistener *l, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct dummy_role	*r = arg;
	struct bufferevent	*bev;

	if ((bev = engine_bev_new(fd)) == NULL)
		return;
	r->sessions++;
	r->up++;
	bufferevent_setcb(bev, dr_read, NULL, dr_event, r);
	bufferevent_enable(bev, EV_READ);
}

static void
dr_defaults(void *cfg)
{
	memset(cfg, 0, sizeof(struct dummy_role));
}

static int
dr_start(void *cfg, struct http_server *hs, char *err, size_t errlen)
{
	struct dummy_role	*r = cfg;

	if ((r->lis = engine_listen(&r->listen, dr_accept, r, "dummy "
	    "devices", err, errlen)) == NULL)
		return -1;
	log_info("listening for dummy devices on %s", r->listen.text);
	return 0;
}

/* Sessions still open go with the process. */
static void
dr_stop(void *cfg)
{
	struct dummy_role	*r = cfg;

	engine_listener_free(r->lis);
	r->lis = NULL;
}

static void
dr_summary(void *cfg)
{
	struct dummy_role	*r = cfg;

	ctl_print_figures("dummy: # sessions, # hellos answered, # bad "
	    "lines\n", (const uint64_t[]){ r->sessions, r->hellos, r->bad },
	    3);
}

static uint64_t
dr_devices_up(void *cfg)
{
	return ((struct dummy_role *)cfg)->up;
}

const struct ctl_role dummy_ctl_role = {
	.name = "dummy", .title = "dummy (the test build's):",
	.rows = dr_rows, .cfg = &dr, .defaults = dr_defaults,
	.needs = "the --dummy-* options need --dummy", .start = dr_start,
	.summary = dr_summary, .stop = dr_stop,
	.devices_up = dr_devices_up, .devices = "devices",
};
