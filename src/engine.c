#include <sys/resource.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>

#include "endpoint.h"
#include "engine.h"
#include "log.h"

/* Descriptors the process needs beside the devices: stdio, logs, reports,
 * the listener of the embedded controller, DNS, /proc reads. */
#define ENGINE_FD_RESERVE	32

static struct event_base	*base;
static struct event		*ev_sigint, *ev_sigterm;
static int			 interrupted;

struct event_base *
engine_base(void)
{
	return base;
}

static void
engine_signal(evutil_socket_t sig, short what, void *arg)
{
	(void)what;
	(void)arg;
	interrupted = 1;
	engine_stop(sig == SIGINT ? "interrupted (SIGINT)" :
	    "terminated (SIGTERM)");
}

void
engine_init(void)
{
	if (base != NULL)
		return;
	if ((base = event_base_new()) == NULL)
		fatalx("event_base_new failed");
	/* Priority 0 runs first (rxpeek: a receive time peeked before the
	 * bufferevent reads); every other event has priority 1. */
	if (event_base_priority_init(base, 2) == -1)
		fatalx("event_base_priority_init failed");
	/* A peer closing mid-write must be an error return, not a death. */
	signal(SIGPIPE, SIG_IGN);
	ev_sigint = evsignal_new(base, SIGINT, engine_signal, NULL);
	ev_sigterm = evsignal_new(base, SIGTERM, engine_signal, NULL);
	if (ev_sigint == NULL || ev_sigterm == NULL ||
	    evsignal_add(ev_sigint, NULL) == -1 ||
	    evsignal_add(ev_sigterm, NULL) == -1)
		fatalx("cannot install signal handlers");
	interrupted = 0;
}

void
engine_free(void)
{
	if (base == NULL)
		return;
	event_free(ev_sigint);
	event_free(ev_sigterm);
	event_base_free(base);
	base = NULL;
}

int
engine_run(void)
{
	return event_base_dispatch(base);
}

void
engine_stop(const char *why)
{
	if (why != NULL)
		log_info("stopping: %s", why);
	event_base_loopbreak(base);
}

static void
engine_pause_over(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	event_base_loopbreak(base);
}

int
engine_pause(double secs)
{
	struct timeval	tv;
	int		intr;

	if (secs <= 0)
		return 0;
	tv.tv_sec = (time_t)secs;
	tv.tv_usec = (suseconds_t)((secs - (double)tv.tv_sec) * 1e6);
	engine_init();
	if (event_base_once(base, -1, EV_TIMEOUT, engine_pause_over, NULL,
	    &tv) == -1)
		fatalx("event_base_once failed");
	event_base_dispatch(base);
	intr = interrupted;
	engine_free();
	return intr;
}

int
engine_interrupted(void)
{
	return interrupted;
}

size_t
engine_raise_fd_limit(void)
{
	struct rlimit	rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1) {
		log_warn("getrlimit");
		return 1024;
	}
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) == -1)
			log_warn("setrlimit to %llu",
			    (unsigned long long)rl.rlim_max);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	return rl.rlim_cur;
}

int
engine_check_fds(size_t needed, const char *what, char *err, size_t errlen)
{
	size_t	limit = engine_raise_fd_limit();

	if (needed + ENGINE_FD_RESERVE <= limit)
		return 0;
	snprintf(err, errlen, "%s need %zu open files (plus %d reserved) but "
	    "this process may have at most %zu (ulimit -Hn); run fewer per "
	    "process or raise the hard limit", what, needed,
	    ENGINE_FD_RESERVE, limit);
	return -1;
}

uint32_t
engine_local_ipv4(int fd)
{
	struct sockaddr_storage	 ss;
	socklen_t		 len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len) == -1 ||
	    ss.ss_family != AF_INET)
		return 0;
	return ntohl(((struct sockaddr_in *)&ss)->sin_addr.s_addr);
}

struct bufferevent *
engine_bev_new(int fd)
{
	struct bufferevent	*bev;

	bev = bufferevent_socket_new(base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (bev == NULL)
		evutil_closesocket(fd);
	return bev;
}

struct evconnlistener *
engine_listen(const struct endpoint *ep, evconnlistener_cb cb, void *arg,
    const char *what, char *err, size_t errlen)
{
	struct evconnlistener	*l;

	l = evconnlistener_new_bind(engine_base(), cb, arg,
	    LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_FREE, 1024,
	    (const struct sockaddr *)&ep->ss, ep->sslen);
	if (l == NULL)
		snprintf(err, errlen, "cannot listen for %s on %s: %s", what,
		    ep->text, evutil_socket_error_to_string(
		    EVUTIL_SOCKET_ERROR()));
	return l;
}
