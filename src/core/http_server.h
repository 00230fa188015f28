/*
 * A small HTTP server over libevent's evhttp for the embedded controller's
 * northbound: one listening port, a route table (path prefixes matched
 * segment by segment, and the methods each allows), HTTP basic auth on
 * every request (RFC 7617), bounded request bodies, JSON/XML content
 * negotiation and RESTCONF error bodies (RFC 8040 section 7) in the shape
 * OpenDaylight sends.  Everything runs on the engine's event_base.
 */
#ifndef SBSIM_HTTP_SERVER_H
#define SBSIM_HTTP_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include <event2/http.h>

struct evbuffer;
struct event_base;

#define HTTP_MAX_PATH	2048	/* bytes of a request path */
#define HTTP_MAX_SEGS	32	/* segments of a request path */
#define HTTP_MAX_CRED	256	/* bytes of a user name or password */
#define HTTP_DEFAULT_MAX_BODY	(16u * 1024 * 1024)
#define HTTP_DEFAULT_MAX_CONNS	512	/* connections held at once */
#define HTTP_DEFAULT_HEAD_S	10.0	/* a request head's deadline */
#define HTTP_DEFAULT_MAX_DEPTH	64	/* nesting of a body's document */
#define HTTP_DEFAULT_MAX_ATTRS	1024	/* of one XML element in a body */

/* The two body formats (RFC 8040 section 5.2). */
enum http_fmt {
	HTTP_FMT_JSON,
	HTTP_FMT_XML,
};

/* A request path split on '/': each segment raw (as sent, validated) and
 * percent-decoded (RFC 3986 section 2.1). */
struct http_path {
	const char	*raw[HTTP_MAX_SEGS];
	const char	*seg[HTTP_MAX_SEGS];
	size_t		 n;
	char		 mem[2 * HTTP_MAX_PATH + 2 * HTTP_MAX_SEGS];
};

struct http_route;

struct http_req {
	struct http_server	*server;
	struct evhttp_request	*ev;
	enum evhttp_cmd_type	 method;
	struct http_path	 path;
	const char		*query;		/* raw, NULL when none */
	const struct http_route	*route;
	size_t			 route_len;	/* segments the route matched */
	const char		*body;		/* NULL when none */
	size_t			 body_len;
	enum http_fmt		 body_fmt;
	enum http_fmt		 reply_fmt;	/* from Accept */
	const char		*reply_type;	/* Content-Type of the reply */
	int			 reply_named;	/* Accept named reply_type */
	int			 replied;
	int			 deferred;	/* http_defer() */
	int			 in_dispatch;	/* its handler is running */
};

typedef void (*http_handler)(struct http_req *, void *arg);

/* Where a server listens when no address is given: loopback only, so
 * that admin:admin is not offered to the network unasked. */
#define HTTP_DEFAULT_ADDRESS	"127.0.0.1"
#define HTTP_DEFAULT_USER	"admin"
#define HTTP_DEFAULT_PASSWORD	"admin"

struct http_server_config {
	const char	*name;		/* for the log: "RESTCONF" */
	const char	*address;	/* NULL: HTTP_DEFAULT_ADDRESS */
	uint16_t	 port;
	const char	*user;		/* NULL: no authentication */
	const char	*password;
	const char	*realm;		/* of WWW-Authenticate */
	size_t		 max_body;	/* bytes; 413 past it */
	uint32_t	 max_conns;	/* then the oldest idle one is closed,
					   or accepting pauses */
	const char	*max_conns_opt;	/* the option that sets it, for the
					 * log; NULL: none, a fixed cap */
	double		 head_timeout;	/* seconds from accept to a whole
					   first head */
	uint32_t	 max_depth;	/* a body nested deeper: 400 */
	uint32_t	 max_attrs;	/* an XML element with more: 400 */
};

struct http_server_stats {
	uint64_t	requests;
	uint64_t	status_2xx;
	uint64_t	status_4xx;
	uint64_t	status_5xx;
	uint64_t	conns_now;
	uint64_t	conns_max;	/* most held at once */
	uint64_t	cap_pauses;	/* accepting paused at max_conns */
	uint64_t	idle_closed;	/* closed at max_conns: no byte yet */
	uint64_t	head_timeouts;	/* closed: no whole head in time */
	uint64_t	unauth_bodies;	/* 401 before the body was read */
	uint64_t	too_deep;	/* 400: nested past max_depth */
	uint64_t	too_many_attrs;	/* 400: an element past max_attrs */
};

struct http_server;

void	 http_server_config_defaults(struct http_server_config *);
/* An option's "[IP:]PORT" (IPv6 in brackets) into addr (empty: none
 * given, HTTP_DEFAULT_ADDRESS) and port; -1 with a message naming opt
 * in err. */
int	 http_listen_parse(const char *opt, const char *arg, char *addr,
	    size_t addrlen, uint16_t *port, char *err, size_t errlen);
/* Listening on c's address (a line on stderr when it is open to the
 * network: engine_listen_say, naming c->name and its credentials). */
struct http_server *http_server_new(struct event_base *,
	    const struct http_server_config *, char *err, size_t errlen);
/* The address a server listens on: c's, else HTTP_DEFAULT_ADDRESS. */
const char *http_server_address(const struct http_server_config *);
/*
 * Requests whose decoded path starts with the segments of prefix (e.g.
 * "/restconf/operational") go to fn; the longest prefix wins.  methods is
 * a mask of EVHTTP_REQ_* (HEAD and OPTIONS follow GET and are answered
 * here); another method gets 405 with an Allow header.
 */
void	 http_server_route(struct http_server *, const char *prefix,
	    unsigned methods, http_handler fn, void *arg);
const struct http_server_stats *http_server_stats(const struct http_server *);
void	 http_server_free(struct http_server *);

/*
 * What the server reads of a request head before evhttp does (the bytes
 * up to its empty line): the Authorization and Accept values (empty when
 * absent) and whether a body follows (Content-Length other than 0,
 * Transfer-Encoding, or Expect).  -1 when a wanted value is too long.
 */
struct http_head_fields {
	char	auth[1024];
	char	accept[512];
	int	has_body;
};
int	 http_head_fields(const char *head, size_t len,
	    struct http_head_fields *);

/* Replies: every handler sends exactly one. */
void	 http_reply(struct http_req *, int status, struct evbuffer *body);
/*
 * The handler replies later, from another event (the controller's
 * workers gathering answers): the request stays until http_reply(),
 * which then frees it.  A client that hangs up meanwhile costs nothing:
 * evhttp keeps a request the handler has not answered, and drops the
 * late reply.  The handler must answer every deferred request before
 * http_server_free().
 */
void	 http_defer(struct http_req *);
/* The port the server listens on (the one the kernel chose for 0). */
uint16_t http_server_port(const struct http_server *);
/* An RFC 8040 section 7 error body in the reply format. */
void	 http_error(struct http_req *, int status, const char *type,
	    const char *tag, const char *fmt, ...)
	    __attribute__((format(printf, 5, 6)));

/* The parts, pure functions for the unit tests. */
int	 http_path_parse(const char *raw, struct http_path *, char *err,
	    size_t errlen);
/* Percent-decode len bytes of in into out (NUL-terminated); -1 on a bad
 * escape, a NUL or control character, or when out is too small. */
int	 http_pct_decode(const char *in, size_t len, char *out, size_t cap);
/* Base64 (RFC 4648 section 4) into out; -1 on bad input or no room. */
int	 http_b64_decode(const char *in, size_t len, uint8_t *out, size_t cap,
	    size_t *outlen);
/* "Basic base64(user:password)" (RFC 7617 section 2) into user and
 * password; -1 when it is not one. */
int	 http_basic_decode(const char *header, char *user, size_t ucap,
	    char *pass, size_t pcap);
/* A Content-Type (parameters ignored) as a body format; -1: unsupported. */
int	 http_content_type(const char *ctype, enum http_fmt *);
/* Pick the reply format from Accept (q-values honoured): 1 when a type we
 * serve is named, 0 (dflt) when Accept is absent or a wildcard wins, -1
 * when none of the listed types is served. */
int	 http_accept(const char *accept, enum http_fmt dflt, enum http_fmt *,
	    const char **reply_type);
/* Render an error body into out. */
void	 http_error_render(struct evbuffer *out, enum http_fmt,
	    const char *type, const char *tag, const char *msg);
/* Value of key in a raw query string, percent-decoded: 1 found, 0 not,
 * -1 malformed or too long. */
int	 http_query_get(const char *query, const char *key, char *out,
	    size_t cap);

/* TCP_NODELAY on an evhttp connection (server or client side). */
struct evhttp_connection;
void	 http_conn_nodelay(struct evhttp_connection *);

#endif
