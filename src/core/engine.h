/*
 * The engine: one libevent event_base per process, the signals that end a
 * run cleanly, the run's clock and the descriptor budget.
 */
#ifndef SBSIM_ENGINE_H
#define SBSIM_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include <event2/listener.h>

struct event_base;
struct event;
struct timeval;
struct endpoint;

struct event_base *engine_base(void);
/*
 * Timers (no descriptor): flags 0 fires once, EV_PERSIST every interval.
 * libevent fails these only for want of memory (or on bad arguments), so
 * a failure is fatal, as xmalloc's is: no caller has a timer it cannot
 * arm.  engine_timer_new_on() is for a loop other than engine_base().
 */
struct event *engine_timer_new(short flags, event_callback_fn, void *arg);
struct event *engine_timer_new_on(struct event_base *, short flags,
	    event_callback_fn, void *arg);
/* event_add(ev, tv): arm a timer, or arm it again. */
void	 engine_timer_add(struct event *, const struct timeval *);
/* The same, ms milliseconds from now. */
void	 engine_timer_add_ms(struct event *, uint64_t ms);
/* Free *evp, a timer or watcher that may not be there, and forget it
 * (*evp NULL). */
void	 engine_event_free(struct event **evp);
/*
 * Work deferred to the loop: fn(arg) runs once the loop has handled the
 * events already due in this round (so what they change is batched), and
 * asking again before it ran still runs it once.  fn may free the
 * engine_soon (engine_soon_free()), as a reaper does.
 */
struct engine_soon;
struct engine_soon *engine_soon_new(void (*fn)(void *arg), void *arg);
void	 engine_soon(struct engine_soon *);
/* Free *sp, which may not be there, and forget it (*sp NULL). */
void	 engine_soon_free(struct engine_soon **sp);
/* Create the event_base and the SIGINT/SIGTERM/SIGPIPE handling. */
/*
 * At the start of the program: a SIGINT or SIGTERM that comes before a
 * loop runs (options, TLS contexts, schemas, between runs) is kept, and
 * the next loop stops at once, as for one that came while it ran, so that
 * the run still ends with its report instead of the signal's default.
 */
void	 engine_signals(void);
void	 engine_init(void);
void	 engine_free(void);
/* Run the loop until engine_stop() or nothing is left to do. */
int	 engine_run(void);
/*
 * A controller role's listener on a ptcp: endpoint, accepting with cb(arg)
 * (an evconnlistener_cb); NULL with "cannot listen for WHAT on EP: why" in
 * err.
 */
struct evconnlistener *engine_listen(const struct endpoint *,
	    evconnlistener_cb cb, void *arg, const char *what, char *err,
	    size_t errlen);
/*
 * From now on engine_listen() sets SO_REUSEPORT (Linux 3.9), so that
 * processes listening on one port share its connections, the kernel
 * spreading them by a hash of their addresses: `sbsim controller
 * --workers`.  Off by default: a second sbsim on a port in use fails.
 */
void	 engine_listen_reuseport(int on);
/*
 * A listener open to the network (bound to an address that is not
 * loopback, the wildcard 0.0.0.0 or :: included) is said once at
 * start-up on stderr, whatever the verbosity: "WHAT listens on
 * ADDR:PORT, open to the network, AUTH" (AUTH: who may use it, e.g.
 * "user admin (default password)").  A loopback one is not said, nor a
 * line already said by this process (runs that open the same listener
 * again).  fd is the bound socket.  engine_listen() says its own with
 * "no authentication"; engine_listen_announce(0) silences them all (the
 * controller's workers after the first, which open the same ports).
 */
void	 engine_listen_say(int fd, const char *what, const char *auth);
void	 engine_listen_announce(int on);
/*
 * Keep a listener from spinning when descriptors run out: accept(2)
 * failing with EMFILE or ENFILE (or ENOBUFS, ENOMEM) leaves the
 * connection in the backlog, so the listener is readable again at once.
 * The guard pauses accepting (evconnlistener_disable), logs one line, and
 * tries again after ENGINE_ACCEPT_PAUSE_MS, when descriptors may have
 * been closed; a pause within ENGINE_ACCEPT_QUIET_S of the last is
 * counted, not logged.  engine_listen() guards its listeners; another
 * (a passive device's, the HTTP server's) calls this.  what names it in
 * the log.
 */
#define ENGINE_ACCEPT_PAUSE_MS	250
#define ENGINE_ACCEPT_QUIET_S	10
void	 engine_listener_guard(struct evconnlistener *, const char *what);
/* Drop l's guard (before evhttp_free, which frees its listener). */
void	 engine_listener_unguard(struct evconnlistener *);
/* engine_listener_unguard(), then evconnlistener_free(); NULL is fine. */
void	 engine_listener_free(struct evconnlistener *);
/* The IPv4 address (host order) a socket is bound to; 0 when it has none
 * (IPv6, or not bound). */
uint32_t engine_local_ipv4(int fd);
/* An accepted connection's bufferevent (it closes fd when freed); NULL
 * when none could be made, fd closed then too. */
struct bufferevent *engine_bev_new(int fd);
/* Why a bufferevent's event ends its connection: eof (the peer closed)
 * on BEV_EVENT_EOF, the socket's error on BEV_EVENT_ERROR, NULL for any
 * other event. */
const char *engine_bev_closed_why(short what, const char *eof);
/*
 * A message built in w onto bev: 1 when queued, 0 when there is nothing
 * to send or no connection (NULL bev), -1 when w overflowed: the message
 * did not fit and is dropped, logged under who(dev) ("peer 3"), called
 * only then so that sending pays for no name.
 */
struct wbuf;
int	 engine_bev_send(struct bufferevent *, const struct wbuf *w,
	    const char *(*who)(const void *dev), const void *dev);
/*
 * A session's name in messages: "KIND N", or "KIND N (EP_KIND M)" when
 * n_ep endpoints share the devices (M is 1-based).  In a static buffer
 * the next call reuses.
 */
/* A session state machine: its states' names, and the one that counts
 * as up. */
struct engine_fsm {
	const char *const	*names;
	unsigned		 up_state;
};
/*
 * A session's *state to next, logged (debug) under who(dev) with why;
 * *up counts the sessions in the up state (NULL: this one is not
 * counted).  0 when it was in next already, 1 when it moved.
 */
int	 engine_sess_move(const struct engine_fsm *, uint8_t *state,
	    unsigned next, uint32_t *up, const char *(*who)(const void *dev),
	    const void *dev, const char *why);
const char *engine_sess_name(const char *kind, unsigned idx,
	    const char *ep_kind, unsigned ep, unsigned n_ep);
/* Leave the loop at the end of this iteration; why is logged. */
void	 engine_stop(const char *why);
/* Non-zero once a signal asked the run to end. */
int	 engine_interrupted(void);
/* Between runs, with no engine: wait secs seconds on a loop of its own,
 * so that SIGINT and SIGTERM still end the wait; 1 when one did. */
int	 engine_pause(double secs);

/*
 * Raise the open-file soft limit to the hard limit and return it.  A run
 * that needs more descriptors than that fails before it starts, with a
 * message saying how many it needs and how many it may have.
 */
size_t	 engine_raise_fd_limit(void);
int	 engine_check_fds(size_t needed, const char *what, char *err,
	    size_t errlen);

#endif
