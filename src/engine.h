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
struct endpoint;

struct event_base *engine_base(void);
/* Create the event_base and the SIGINT/SIGTERM/SIGPIPE handling. */
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
/* The IPv4 address (host order) a socket is bound to; 0 when it has none
 * (IPv6, or not bound). */
uint32_t engine_local_ipv4(int fd);
/* An accepted connection's bufferevent (it closes fd when freed); NULL
 * when none could be made, fd closed then too. */
struct bufferevent *engine_bev_new(int fd);
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
