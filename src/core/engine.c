#include <sys/resource.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>

#include "buf.h"
#include "endpoint.h"
#include "engine.h"
#include "log.h"
#include "ut.h"

/* Descriptors the process needs beside the devices: stdio, logs, reports,
 * the listener of the embedded controller, DNS, /proc reads. */
#define ENGINE_FD_RESERVE	32

static struct event_base	*base;
static struct event		*ev_sigint, *ev_sigterm;
static int			 interrupted;
/* A SIGINT or SIGTERM that came while no loop ran (engine_signals()). */
static volatile sig_atomic_t	 early_signal;

/* A listener's guard against accept errors (engine_listener_guard). */
struct engine_guard {
	UT_hash_handle			 hh;
	struct evconnlistener		*l;		/* the key */
	struct event			*resume;
	char				 what[48];
	struct log_quiet		 quiet;		/* its log line */
};
/* By listener: the error callback gets the accept callback's argument,
 * and a run of passive switches has one listener each. */
static struct engine_guard		*guards;
static uint64_t				 accept_pauses;

static void	engine_guard_free(struct engine_guard *);

struct event_base *
engine_base(void)
{
	return base;
}

struct event *
engine_timer_new_on(struct event_base *b, short flags, event_callback_fn cb,
    void *arg)
{
	struct event	*ev;

	if ((ev = event_new(b, -1, flags, cb, arg)) == NULL)
		fatal("cannot make a timer");
	return ev;
}

struct event *
engine_timer_new(short flags, event_callback_fn cb, void *arg)
{
	return engine_timer_new_on(engine_base(), flags, cb, arg);
}

void
engine_timer_add(struct event *ev, const struct timeval *tv)
{
	if (event_add(ev, tv) == -1)
		fatal("cannot arm a timer");
}

void
engine_timer_add_ms(struct event *ev, uint64_t ms)
{
	struct timeval	tv;

	tv.tv_sec = (time_t)(ms / 1000);
	tv.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	engine_timer_add(ev, &tv);
}

void
engine_event_free(struct event **evp)
{
	if (*evp != NULL)
		event_free(*evp);
	*evp = NULL;
}

struct engine_soon {
	struct event	*ev;
	void		(*fn)(void *arg);
	void		*arg;
};

/* s may be freed by fn: nothing of it is read after. */
static void
engine_soon_fire(evutil_socket_t fd, short what, void *arg)
{
	struct engine_soon	*s = arg;

	(void)fd;
	(void)what;
	s->fn(s->arg);
}

struct engine_soon *
engine_soon_new(void (*fn)(void *arg), void *arg)
{
	struct engine_soon	*s = xcalloc(1, sizeof(*s));

	s->fn = fn;
	s->arg = arg;
	s->ev = engine_timer_new(0, engine_soon_fire, s);
	return s;
}

void
engine_soon(struct engine_soon *s)
{
	if (!event_pending(s->ev, EV_TIMEOUT, NULL))
		event_active(s->ev, EV_TIMEOUT, 0);
}

void
engine_soon_free(struct engine_soon **sp)
{
	if (*sp == NULL)
		return;
	event_free((*sp)->ev);
	free(*sp);
	*sp = NULL;
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

static void
engine_early_signal(int sig)
{
	early_signal = sig;
}

void
engine_signals(void)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = engine_early_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* A signal from before the loop: the loop's first turn handles it as
 * one that came while it ran (the run stops and reports). */
static void
engine_replay_signal(void)
{
	int	sig = early_signal;

	if (sig == 0)
		return;
	early_signal = 0;
	event_active(sig == SIGINT ? ev_sigint : ev_sigterm, EV_SIGNAL, 1);
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
	engine_replay_signal();
}

void
engine_free(void)
{
	if (base == NULL)
		return;
	/* A listener its owner did not free: its guard's timer goes with
	 * the base. */
	while (guards != NULL)
		engine_guard_free(guards);
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

const char *
engine_bev_closed_why(short what, const char *eof)
{
	if (what & BEV_EVENT_EOF)
		return eof;
	if (what & BEV_EVENT_ERROR)
		return evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR());
	return NULL;
}

int
engine_bev_send(struct bufferevent *bev, const struct wbuf *w,
    const char *(*who)(const void *dev), const void *dev)
{
	if (w->err) {
		log_warnx("%s: message did not fit; dropped", who(dev));
		return -1;
	}
	if (bev == NULL || w->len == 0)
		return 0;
	bufferevent_write(bev, w->data, w->len);
	return 1;
}

int
engine_sess_move(const struct engine_fsm *fsm, uint8_t *state,
    unsigned next, uint32_t *up, const char *(*who)(const void *dev),
    const void *dev, const char *why)
{
	if (*state == next)
		return 0;
	log_debug("%s: %s -> %s (%s)", who(dev), fsm->names[*state],
	    fsm->names[next], why);
	if (up != NULL && *state == fsm->up_state)
		(*up)--;
	if (up != NULL && next == fsm->up_state)
		(*up)++;
	*state = (uint8_t)next;
	return 1;
}

const char *
engine_sess_name(const char *kind, unsigned idx, const char *ep_kind,
    unsigned ep, unsigned n_ep)
{
	static char	buf[48];

	if (n_ep > 1)
		snprintf(buf, sizeof(buf), "%s %u (%s %u)", kind, idx, ep_kind,
		    ep);
	else
		snprintf(buf, sizeof(buf), "%s %u", kind, idx);
	return buf;
}

/* Set by the controller's workers, which share each port (SO_REUSEPORT). */
static int	listen_reuseport;

void
engine_listen_reuseport(int on)
{
	listen_reuseport = on;
}

struct evconnlistener *
engine_listen(const struct endpoint *ep, evconnlistener_cb cb, void *arg,
    const char *what, char *err, size_t errlen)
{
	struct evconnlistener	*l;
	unsigned		 flags = LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_FREE;

	if (listen_reuseport)
		flags |= LEV_OPT_REUSEABLE_PORT;
	l = evconnlistener_new_bind(engine_base(), cb, arg, flags, 1024,
	    (const struct sockaddr *)&ep->ss, ep->sslen);
	if (l == NULL) {
		snprintf(err, errlen, "cannot listen for %s on %s: %s", what,
		    ep->text, evutil_socket_error_to_string(
		    EVUTIL_SOCKET_ERROR()));
		return NULL;
	}
	engine_listener_guard(l, what);
	/* ptcp:PORT listens on every address, as Open vSwitch's does
	 * (users rely on it): say so, the controller's protocols have no
	 * authentication of their own. */
	engine_listen_say(evconnlistener_get_fd(l), what,
	    ep->kind == EP_PSSL ? "TLS" : "no authentication");
	return l;
}

/* ---- listeners open to the network, said once ---- */

#define ENGINE_SAID_MAX	16

static int	listen_quiet;
static char	listen_said[ENGINE_SAID_MAX][160];
static size_t	listen_nsaid;

void
engine_listen_announce(int on)
{
	listen_quiet = !on;
}

/* Is sa a loopback address (127/8, ::1, ::ffff:127/104)? */
static int
engine_addr_is_loopback(const struct sockaddr *sa)
{
	const struct in6_addr	*a6;

	if (sa->sa_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)(const void *)sa)->
		    sin_addr.s_addr) >> 24) == 127;
	if (sa->sa_family != AF_INET6)
		return 1;	/* AF_UNIX and the like: not the network */
	a6 = &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;
	if (IN6_IS_ADDR_LOOPBACK(a6))
		return 1;
	return IN6_IS_ADDR_V4MAPPED(a6) && a6->s6_addr[12] == 127;
}

/* Whether line was said already (then 1), else remember it. */
static int
engine_said_before(const char *line)
{
	size_t	i;

	for (i = 0; i < listen_nsaid; i++)
		if (strcmp(listen_said[i], line) == 0)
			return 1;
	if (listen_nsaid < ENGINE_SAID_MAX)
		snprintf(listen_said[listen_nsaid++], sizeof(listen_said[0]),
		    "%s", line);
	return 0;
}

void
engine_listen_say(int fd, const char *what, const char *auth)
{
	struct sockaddr_storage	ss;
	socklen_t		len = sizeof(ss);
	char			host[INET6_ADDRSTRLEN], line[160];
	int			v6;
	unsigned		port;

	if (listen_quiet || getsockname(fd, (struct sockaddr *)&ss, &len) ==
	    -1 || engine_addr_is_loopback((struct sockaddr *)&ss))
		return;
	v6 = ss.ss_family == AF_INET6;
	inet_ntop(ss.ss_family, v6 ?
	    (void *)&((struct sockaddr_in6 *)&ss)->sin6_addr :
	    (void *)&((struct sockaddr_in *)&ss)->sin_addr, host, sizeof(host));
	port = ntohs(v6 ? ((struct sockaddr_in6 *)&ss)->sin6_port :
	    ((struct sockaddr_in *)&ss)->sin_port);
	snprintf(line, sizeof(line), "%s listens on %s%s%s:%u, open to the "
	    "network, %s", what, v6 ? "[" : "", host, v6 ? "]" : "", port,
	    auth);
	if (!engine_said_before(line))
		log_warnx("%s", line);
}

/* ---- listeners at the descriptor limit ---- */

static void
engine_guard_resume(evutil_socket_t fd, short what, void *arg)
{
	struct engine_guard	*g = arg;

	(void)fd;
	(void)what;
	/* Still no descriptor: accept fails again and the error callback
	 * pauses again, one accept(2) per pause, not a busy loop. */
	evconnlistener_enable(g->l);
}

/* Out of descriptors or kernel memory: what waits in the backlog can be
 * taken once something is closed. */
static int
engine_accept_error_transient(int err)
{
	return err == EMFILE || err == ENFILE || err == ENOBUFS ||
	    err == ENOMEM;
}

static void
engine_guard_log(struct engine_guard *g, int err)
{
	uint64_t	held;

	if (!log_quiet_due(&g->quiet, ENGINE_ACCEPT_QUIET_S, &held))
		return;
	log_warnx("%s: cannot accept a connection: %s; accepting paused, "
	    "tried again every %d ms (%llu pauses since the last line, "
	    "%llu in all; logged at most every %d s)", g->what,
	    strerror(err), ENGINE_ACCEPT_PAUSE_MS,
	    (unsigned long long)held,
	    (unsigned long long)accept_pauses, ENGINE_ACCEPT_QUIET_S);
}

static void
engine_accept_error(struct evconnlistener *l, void *arg)
{
	struct engine_guard	*g;
	struct timeval		 tv = { 0, ENGINE_ACCEPT_PAUSE_MS * 1000 };
	int			 err = EVUTIL_SOCKET_ERROR();

	(void)arg;	/* the accept callback's */
	HASH_FIND_PTR(guards, &l, g);
	if (g == NULL)
		return;
	if (!engine_accept_error_transient(err)) {
		/* libevent retries EAGAIN, EINTR and ECONNABORTED itself;
		 * anything else is rare and goes on accepting. */
		log_warnx("%s: accept: %s", g->what, strerror(err));
		return;
	}
	accept_pauses++;
	evconnlistener_disable(l);
	engine_timer_add(g->resume, &tv);
	engine_guard_log(g, err);
}

void
engine_listener_guard(struct evconnlistener *l, const char *what)
{
	struct engine_guard	*g;

	g = xcalloc(1, sizeof(*g));
	g->l = l;
	snprintf(g->what, sizeof(g->what), "%s", what);
	g->resume = engine_timer_new_on(evconnlistener_get_base(l), 0,
	    engine_guard_resume, g);
	HASH_ADD_PTR(guards, l, g);
	evconnlistener_set_error_cb(l, engine_accept_error);
}

static void
engine_guard_free(struct engine_guard *g)
{
	HASH_DEL(guards, g);
	event_free(g->resume);
	free(g);
}

void
engine_listener_unguard(struct evconnlistener *l)
{
	struct engine_guard	*g;

	HASH_FIND_PTR(guards, &l, g);
	if (g == NULL)
		return;
	evconnlistener_set_error_cb(l, NULL);
	engine_guard_free(g);
}

void
engine_listener_free(struct evconnlistener *l)
{
	if (l == NULL)
		return;
	engine_listener_unguard(l);
	evconnlistener_free(l);
}
