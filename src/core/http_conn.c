/*
 * The HTTP server's head gate (see http_priv.h and the comment below):
 * every connection counted, each request head read before evhttp reads
 * it, bodies without credentials refused unread, heads given a deadline.
 */
#include <sys/socket.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/listener.h>

#include "engine.h"
#include "http_priv.h"
#include "log.h"
#include "ut.h"

/* ---- connections: the head gate ----
 *
 * libevent 2.1 gives a server no hook between a request's headers and its
 * body (evhttp_set_newreqcb came in 2.2), so the server watches each
 * connection's input itself: while a request head comes in, evhttp is held
 * off (the read low watermark) until the empty line that ends it (RFC 7230
 * section 3) is there.  Then, with good credentials or no body, evhttp
 * reads the request as before; without them a request that brings a body
 * gets its 401 at once and the body is never read (nor is Expect:
 * 100-continue answered, RFC 7231 section 5.1.1), the connection closing
 * as RFC 7230 section 6.6 says.  A first head not whole within
 * head_timeout of the accept closes the connection (slowloris, and
 * connections that never send a byte); at max_conns a new connection
 * takes the place of the oldest one that has sent no byte of a head (one
 * that never sent any, or a kept-alive one between requests), so a crowd
 * of silent connections cannot lock clients out; only when every one is
 * inside a request does accepting pause.
 */

#define HTTP_LINGER_S		2	/* a refused body is drained so long */
#define HTTP_DROP_MAX		(1024 * 1024)	/* and at most so much */
#define HTTP_HOLD		SIZE_MAX	/* low watermark: evhttp waits */
#define HTTP_CAP_QUIET_S	10	/* the cap's line at most this often */

enum http_conn_state {
	HC_FRESH,	/* accepted; not yet attached */
	HC_HEAD,	/* a request head is awaited: evhttp is held off */
	HC_EVHTTP,	/* evhttp has the request */
	HC_REFUSED,	/* the 401 goes out, what comes is dropped */
};

struct http_conn {
	UT_hash_handle			 hh;	/* s->conns, by evcon */
	TAILQ_ENTRY(http_conn)		 fresh;
	TAILQ_ENTRY(http_conn)		 idle_entry;	/* s->idle */
	struct http_server		*s;
	struct bufferevent		*bev;
	struct evhttp_connection	*evcon;	/* the key */
	struct evbuffer_cb_entry	*watch;	/* on bev's input */
	struct event			*timer;	/* head deadline, linger */
	struct evbuffer			*held;	/* pipelined, see reply_done */
	enum http_conn_state		 state;
	size_t				 scanned;	/* input searched */
	size_t				 dropped;	/* refused body bytes */
	int				 idle;		/* on s->idle */
};

static void	http_conn_scan(struct http_conn *);
static void	http_conn_attach(struct http_conn *);

/* No byte of a head yet: the first to go when one more comes at the cap,
 * so accepting goes on (resume: the next connection takes this one's
 * place). */
static void
http_conn_idle_add(struct http_conn *hc, int resume)
{
	struct http_server	*s = hc->s;

	if (hc->idle)
		return;
	hc->idle = 1;
	TAILQ_INSERT_TAIL(&s->idle, hc, idle_entry);
	/* Not for one just attached: its request may be on its way (the
	 * hook runs before its first read), and the next would evict it. */
	if (resume && s->cap_paused && !s->freeing) {
		s->cap_paused = 0;
		evconnlistener_enable(s->listener);
	}
}

static void	http_cap_pause(struct http_server *);

/* A byte came: at the cap with none idle left, accepting pauses (a new
 * connection would have no place to take). */
static void
http_conn_idle_del(struct http_conn *hc)
{
	struct http_server	*s = hc->s;

	if (!hc->idle)
		return;
	hc->idle = 0;
	TAILQ_REMOVE(&s->idle, hc, idle_entry);
	if (TAILQ_EMPTY(&s->idle) && s->st.conns_now >= s->cfg.max_conns &&
	    !s->cap_paused && !s->freeing)
		http_cap_pause(s);
}

/* The head deadline, from now. */
static void
http_conn_arm(struct http_conn *hc)
{
	struct timeval	tv;

	tv.tv_sec = (time_t)hc->s->cfg.head_timeout;
	tv.tv_usec = (suseconds_t)((hc->s->cfg.head_timeout -
	    (double)tv.tv_sec) * 1e6);
	engine_timer_add(hc->timer, &tv);
}

/* First of the header named name (case-insensitive, RFC 7230 section
 * 3.2) in a head's lines, its value trimmed into out; 0 when absent, -1
 * when too long. */
static int
http_head_value(const char *head, size_t len, const char *name, char *out,
    size_t cap)
{
	const char	*l, *e, *end = head + len, *v;
	size_t		 nlen = strlen(name), vlen;

	out[0] = '\0';
	for (l = head; l < end; l = e + 1) {
		if ((e = memchr(l, '\n', (size_t)(end - l))) == NULL)
			e = end;
		if ((size_t)(e - l) <= nlen || l[nlen] != ':' ||
		    strncasecmp(l, name, nlen) != 0)
			continue;
		for (v = l + nlen + 1; v < e && (*v == ' ' || *v == '\t'); v++)
			;
		for (vlen = (size_t)(e - v); vlen > 0 && (v[vlen - 1] == '\r'
		    || v[vlen - 1] == ' ' || v[vlen - 1] == '\t'); vlen--)
			;
		if (vlen >= cap)
			return -1;
		memcpy(out, v, vlen);
		out[vlen] = '\0';
		return 1;
	}
	return 0;
}

int
http_head_fields(const char *head, size_t len, struct http_head_fields *f)
{
	char	v[32];
	int	cl, te, ex;

	memset(f, 0, sizeof(*f));
	/* A body follows: RFC 7230 section 3.3.  A length that is not 0
	 * (or too long, or not a number at all) counts as one. */
	cl = http_head_value(head, len, "Content-Length", v, sizeof(v));
	if (cl == 1)
		cl = v[0] == '\0' || strspn(v, "0") != strlen(v);
	te = http_head_value(head, len, "Transfer-Encoding", v, sizeof(v));
	ex = http_head_value(head, len, "Expect", v, sizeof(v));
	f->has_body = cl != 0 || te != 0 || ex != 0;
	/* An Accept too long to keep is as none: the reply is JSON. */
	if (http_head_value(head, len, "Accept", f->accept,
	    sizeof(f->accept)) == -1)
		f->accept[0] = '\0';
	if (http_head_value(head, len, "Authorization", f->auth,
	    sizeof(f->auth)) == -1) {
		f->auth[0] = '\0';
		return -1;
	}
	return 0;
}

/* Bytes of in up to and with the empty line that ends a request head (CR
 * LF CR LF, or bare LFs as evhttp takes them); 0 while it has not come.
 * hc->scanned: where the search goes on, so a slow head costs its length
 * once, not once per segment. */
static size_t
http_head_end(struct http_conn *hc, struct evbuffer *in)
{
	struct evbuffer_ptr	p, q;
	char			b[2];
	size_t			n;

	if (evbuffer_ptr_set(in, &p, hc->scanned, EVBUFFER_PTR_SET) == -1)
		return 0;
	while ((p = evbuffer_search(in, "\n", 1, &p)).pos != -1) {
		n = p.pos >= 2 ? 2 : (size_t)p.pos;
		evbuffer_ptr_set(in, &q, (size_t)p.pos - n, EVBUFFER_PTR_SET);
		evbuffer_copyout_from(in, &q, b, n);
		if (n == 0 || b[n - 1] == '\n' || (n == 2 && b[0] == '\n' &&
		    b[1] == '\r') || (n == 1 && b[0] == '\r'))
			return (size_t)p.pos + 1;
		evbuffer_ptr_set(in, &p, 1, EVBUFFER_PTR_ADD);
	}
	hc->scanned = evbuffer_get_length(in);
	return 0;
}

/* The connection ends now: evhttp frees it, and http_conn_closed hc. */
static void
http_conn_kill(struct http_conn *hc)
{
	evhttp_connection_free(hc->evcon);
}

static void
http_conn_timer(evutil_socket_t fd, short what, void *arg)
{
	struct http_conn	*hc = arg;

	(void)fd;
	(void)what;
	if (hc->state == HC_HEAD && hc->held != NULL &&
	    evbuffer_get_length(hc->held) > 0) {
		/* Pipelined bytes kept from evhttp at the last reply: put
		 * back, scanned, and given to evhttp when they may. */
		evbuffer_prepend_buffer(bufferevent_get_input(hc->bev),
		    hc->held);
		if (hc->state == HC_EVHTTP)
			bufferevent_trigger(hc->bev, EV_READ, 0);
		return;
	}
	if (hc->state == HC_HEAD) {
		hc->s->st.head_timeouts++;
		log_debug("http: no whole request head in %.1f s: closing",
		    hc->s->cfg.head_timeout);
	}
	if (hc->state == HC_HEAD || hc->state == HC_REFUSED)
		http_conn_kill(hc);
}

static void
http_conn_drop(struct bufferevent *bev, void *arg)
{
	struct http_conn	*hc = arg;
	struct evbuffer		*in = bufferevent_get_input(bev);

	hc->dropped += evbuffer_get_length(in);
	evbuffer_drain(in, evbuffer_get_length(in));
	if (hc->dropped > HTTP_DROP_MAX)
		http_conn_kill(hc);
}

/* The 401 is out: FIN, then what the client still sends is dropped until
 * it closes or HTTP_LINGER_S pass, so that a reset does not take the 401
 * from it (RFC 7230 section 6.6). */
static void
http_conn_refused_out(struct bufferevent *bev, void *arg)
{
	(void)arg;
	shutdown(bufferevent_getfd(bev), SHUT_WR);
}

static void
http_conn_refused_event(struct bufferevent *bev, short what, void *arg)
{
	(void)bev;
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR | BEV_EVENT_TIMEOUT))
		http_conn_kill(arg);
}

/* A 401 (RFC 7235 section 3.1) written here: evhttp never sees the
 * request, so its body is not read. */
static void
http_conn_refuse(struct http_conn *hc, const struct http_head_fields *f)
{
	struct http_server	*s = hc->s;
	struct evbuffer		*out = bufferevent_get_output(hc->bev), *body;
	struct timeval		 tv = { HTTP_LINGER_S, 0 };
	const char		*type;
	enum http_fmt		 fmt;

	hc->state = HC_REFUSED;
	s->st.unauth_bodies++;
	s->st.requests++;
	s->st.status_4xx++;
	if ((body = evbuffer_new()) == NULL)
		fatalx("evbuffer_new");
	if (http_accept(f->accept[0] ? f->accept : NULL, HTTP_FMT_JSON, &fmt,
	    &type) == -1)
		http_accept(NULL, HTTP_FMT_JSON, &fmt, &type);
	http_error_render(body, fmt, "protocol", "access-denied",
	    "The user name or password is not correct");
	evbuffer_add_printf(out, "HTTP/1.1 401 Unauthorized\r\n"
	    "WWW-Authenticate: %s\r\nContent-Type: %s\r\n"
	    "Content-Length: %zu\r\nConnection: close\r\n\r\n",
	    s->realm_header, type, evbuffer_get_length(body));
	evbuffer_add_buffer(out, body);
	evbuffer_free(body);
	bufferevent_setcb(hc->bev, http_conn_drop, http_conn_refused_out,
	    http_conn_refused_event, hc);
	bufferevent_setwatermark(hc->bev, EV_READ, 0, 0);
	bufferevent_enable(hc->bev, EV_READ | EV_WRITE);
	engine_timer_add(hc->timer, &tv);
	log_debug("http: a body without credentials: 401 before reading it");
}

/* A whole head is in: evhttp reads the request, or the 401 goes out. */
static void
http_conn_head(struct http_conn *hc, struct evbuffer *in, size_t len)
{
	struct http_head_fields	 f;
	const char		*head;
	int			 ok;

	evtimer_del(hc->timer);
	hc->scanned = 0;
	if ((head = (const char *)evbuffer_pullup(in, (ev_ssize_t)len)) ==
	    NULL)
		fatalx("http: no memory for a request head");
	/* Credentials too long to read are no credentials. */
	ok = http_head_fields(head, len, &f) == 0 &&
	    http_cred_ok(hc->s, f.auth[0] ? f.auth : NULL);
	explicit_bzero(f.auth, sizeof(f.auth));
	if (f.has_body && !ok) {
		http_conn_refuse(hc, &f);
		return;
	}
	/* Without a body a bad request costs nothing: evhttp reads it and
	 * http_dispatch answers, 401 included, as before. */
	hc->state = HC_EVHTTP;
	bufferevent_setwatermark(hc->bev, EV_READ, 0, 0);
}

static void
http_conn_scan(struct http_conn *hc)
{
	struct evbuffer	*in = bufferevent_get_input(hc->bev);
	size_t		 end;

	if (evbuffer_get_length(in) == 0)
		return;
	http_conn_idle_del(hc);
	/* A kept-alive connection's next head: its deadline from its first
	 * byte (the first head's runs from the accept). */
	if (!evtimer_pending(hc->timer, NULL))
		http_conn_arm(hc);
	if ((end = http_head_end(hc, in)) > 0) {
		http_conn_head(hc, in, end);
		return;
	}
	if (evbuffer_get_length(in) > HTTP_MAX_HEADERS) {
		/* evhttp refuses a head this long itself (400). */
		evtimer_del(hc->timer);
		hc->state = HC_EVHTTP;
		bufferevent_setwatermark(hc->bev, EV_READ, 0, 0);
		return;
	}
	bufferevent_setwatermark(hc->bev, EV_READ, HTTP_HOLD, 0);
}

/* Bytes came into the connection's input, before evhttp's read callback
 * sees them. */
static void
http_conn_input(struct evbuffer *in, const struct evbuffer_cb_info *info,
    void *arg)
{
	struct http_conn	*hc = arg;

	(void)in;
	if (info->n_added == 0)
		return;
	if (hc->state == HC_FRESH)	/* before the hook: attach now */
		http_conn_attach(hc);
	else if (hc->state == HC_HEAD)
		http_conn_scan(hc);
}

/* evhttp is done with the connection: one fewer, accepting on again
 * below the cap. */
static void
http_conn_closed(struct evhttp_connection *evcon, void *arg)
{
	struct http_conn	*hc = arg;
	struct http_server	*s = hc->s;

	(void)evcon;
	evbuffer_remove_cb_entry(bufferevent_get_input(hc->bev), hc->watch);
	if (hc->idle)	/* not idle_del: no pause for one going */
		TAILQ_REMOVE(&s->idle, hc, idle_entry);
	HASH_DEL(s->conns, hc);
	event_free(hc->timer);
	if (hc->held != NULL)
		evbuffer_free(hc->held);
	free(hc);
	s->st.conns_now--;
	if (s->cap_paused && !s->freeing &&
	    s->st.conns_now < s->cfg.max_conns) {
		s->cap_paused = 0;
		evconnlistener_enable(s->listener);
	}
}

/* A reply is out and evhttp will read the next request: held off again.
 * What the client pipelined is already in the input, and evhttp would
 * parse it at once, so it is kept aside and put back from the timer. */
static void
http_conn_reply_done(struct evhttp_request *ev, void *arg)
{
	struct http_conn	*hc = arg;
	struct evbuffer		*in = bufferevent_get_input(hc->bev);

	(void)ev;
	hc->state = HC_HEAD;
	hc->scanned = 0;
	bufferevent_setwatermark(hc->bev, EV_READ, HTTP_HOLD, 0);
	if (evbuffer_get_length(in) == 0) {
		http_conn_idle_add(hc, 1);
		return;
	}
	if (hc->held == NULL && (hc->held = evbuffer_new()) == NULL)
		fatalx("evbuffer_new");
	evbuffer_add_buffer(hc->held, in);
	event_active(hc->timer, EV_TIMEOUT, 1);
}

/* evhttp hands a whole request over: its connection is held off again
 * once the reply is out. */
void
http_conn_request(struct http_server *s, struct evhttp_request *ev)
{
	struct evhttp_connection	*evcon;
	struct http_conn		*hc;

	if ((evcon = evhttp_request_get_connection(ev)) == NULL)
		return;
	HASH_FIND_PTR(s->conns, &evcon, hc);
	if (hc != NULL)
		evhttp_request_set_on_complete_cb(ev, http_conn_reply_done,
		    hc);
}

/* Once evhttp has made the connection: its close callback, the input
 * watch, and held off until a whole head is in. */
static void
http_conn_attach(struct http_conn *hc)
{
	struct http_server	*s = hc->s;
	void			*evcon = NULL;

	TAILQ_REMOVE(&s->fresh, hc, fresh);
	bufferevent_getcb(hc->bev, NULL, NULL, NULL, &evcon);
	/* http_conn_new's reference kept the bufferevent: evhttp may have
	 * freed it (a failure after making it), which cleared its
	 * callbacks; evhttp closed the socket then, so ours is not to. */
	if (evcon == NULL)
		bufferevent_setfd(hc->bev, -1);
	bufferevent_decref(hc->bev);
	if (evcon == NULL) {
		s->st.conns_now--;
		event_free(hc->timer);
		free(hc);
		return;
	}
	hc->evcon = evcon;
	HASH_ADD_PTR(s->conns, evcon, hc);
	evhttp_connection_set_closecb(hc->evcon, http_conn_closed, hc);
	hc->state = HC_HEAD;
	bufferevent_setwatermark(hc->bev, EV_READ, HTTP_HOLD, 0);
	/* The deadline runs from the accept, not from a first byte that
	 * may never come. */
	http_conn_arm(hc);
	http_conn_idle_add(hc, 0);
	http_conn_scan(hc);
}

void
http_conn_hook(evutil_socket_t fd, short what, void *arg)
{
	struct http_server	*s = arg;

	(void)fd;
	(void)what;
	while (!TAILQ_EMPTY(&s->fresh))
		http_conn_attach(TAILQ_FIRST(&s->fresh));
}

static void
http_cap_pause(struct http_server *s)
{
	s->cap_paused = 1;
	s->st.cap_pauses++;
	evconnlistener_disable(s->listener);
	if (!log_quiet_due(&s->cap_quiet, HTTP_CAP_QUIET_S, NULL))
		return;
	/* Name the option only where there is one (not --metrics-listen). */
	log_warnx("http: %u connections (%s): accepting paused until one "
	    "closes (%llu pauses in all; logged at most every %d s)",
	    s->cfg.max_conns, s->cfg.max_conns_opt != NULL ?
	    s->cfg.max_conns_opt : "the most it holds",
	    (unsigned long long)s->st.cap_pauses, HTTP_CAP_QUIET_S);
}

/* At the cap, the oldest connection that has sent no byte of a head goes
 * (its deadline would end it anyway), so that one that sends a request
 * is served. */
static void
http_conn_evict(struct http_server *s)
{
	struct http_conn	*hc = TAILQ_FIRST(&s->idle);

	if (hc == NULL)
		return;
	s->st.idle_closed++;
	log_debug("http: %u connections: the oldest idle one closed for a "
	    "new one", s->cfg.max_conns);
	http_conn_kill(hc);
}

/*
 * evhttp makes each accepted connection's bufferevent here: counted, and
 * watched.  evhttp attaches it to its connection after this returns, so
 * the rest is done by http_conn_hook, at priority 0: before the new
 * connection's first read.
 */
/* Connections evhttp made and the hook has not attached (a server freed
 * at once): evhttp has let their bufferevents go, our reference ends. */
void
http_conn_free_fresh(struct http_server *s)
{
	struct http_conn	*hc;

	while ((hc = TAILQ_FIRST(&s->fresh)) != NULL) {
		TAILQ_REMOVE(&s->fresh, hc, fresh);
		bufferevent_decref(hc->bev);
		event_free(hc->timer);
		free(hc);
	}
}

struct bufferevent *
http_conn_new(struct event_base *base, void *arg)
{
	struct http_server	*s = arg;
	struct http_conn	*hc;

	/* At the cap the idle list must be true: the connections accepted
	 * before this one in the same batch (evhttp is done with them) are
	 * attached now, not at the hook. */
	if (s->st.conns_now + 1 >= s->cfg.max_conns)
		http_conn_hook(-1, 0, s);
	if (s->st.conns_now >= s->cfg.max_conns)
		http_conn_evict(s);
	hc = xcalloc(1, sizeof(*hc));
	hc->s = s;
	hc->bev = bufferevent_socket_new(base, -1, BEV_OPT_CLOSE_ON_FREE);
	hc->timer = engine_timer_new_on(base, 0, http_conn_timer, hc);
	if (hc->bev == NULL)
		fatalx("http: no memory for a connection");
	hc->watch = evbuffer_add_cb(bufferevent_get_input(hc->bev),
	    http_conn_input, hc);
	if (hc->watch == NULL)
		fatalx("evbuffer_add_cb");
	/* Until attached: evhttp may free it before the hook runs. */
	bufferevent_incref(hc->bev);
	TAILQ_INSERT_TAIL(&s->fresh, hc, fresh);
	event_active(s->hook, EV_TIMEOUT, 1);
	if (++s->st.conns_now > s->st.conns_max)
		s->st.conns_max = s->st.conns_now;
	/* Paused only when none could give its place up; one that becomes
	 * idle resumes it (http_conn_idle_add). */
	if (s->st.conns_now >= s->cfg.max_conns && !s->cap_paused &&
	    TAILQ_EMPTY(&s->idle))
		http_cap_pause(s);
	return hc->bev;
}
