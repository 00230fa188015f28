/*
 * What http_server.c and http_conn.c share: the server's and a route's
 * structs, and the head gate's entry points (http_conn.c).
 */
#ifndef SBSIM_HTTP_PRIV_H
#define SBSIM_HTTP_PRIV_H

#include <sys/queue.h>

#include <time.h>

#include <event2/util.h>

#include "http_server.h"
#include "log.h"

#define HTTP_MAX_ROUTES		64
#define HTTP_MAX_HEADERS	(64 * 1024)	/* a request head's bytes */

struct http_route {
	char		*prefix;
	unsigned	 methods;
	http_handler	 fn;
	void		*arg;
};

struct http_conn;

struct http_server {
	struct evhttp		*http;
	struct evconnlistener	*listener;	/* evhttp's, guarded */
	struct event		*hook;		/* attaches new connections */
	TAILQ_HEAD(, http_conn)	 fresh;		/* made, not yet attached */
	TAILQ_HEAD(, http_conn)	 idle;		/* no byte of a head yet,
						   oldest first */
	struct http_conn	*conns;		/* attached, by evcon */
	int			 cap_paused;	/* at cfg.max_conns */
	int			 freeing;
	struct log_quiet	 cap_quiet;	/* the cap's log line */
	struct http_server_config cfg;
	struct http_route	 routes[HTTP_MAX_ROUTES];
	size_t			 nroutes;
	struct http_server_stats st;
	char			*realm_header;	/* WWW-Authenticate */
};

struct bufferevent;
struct event;
struct event_base;
struct evconnlistener;

/* An Authorization value (NULL: none) against the server's credentials. */
int	 http_cred_ok(const struct http_server *, const char *);

/* The head gate (http_conn.c), in the order the server meets it:
 * evhttp's bufferevent callback (arg: the server), the priority-0 event
 * that attaches what it made, a whole request handed to http_dispatch,
 * and the connections left unattached when the server is freed. */
struct bufferevent *http_conn_new(struct event_base *, void *arg);
void	 http_conn_hook(evutil_socket_t, short, void *arg);
void	 http_conn_request(struct http_server *, struct evhttp_request *);
void	 http_conn_free_fresh(struct http_server *);

#endif
