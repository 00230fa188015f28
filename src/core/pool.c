#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <arpa/inet.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <openssl/err.h>

#include "engine.h"
#include "log.h"
#include "metrics.h"
#include "pool.h"
#include "tcp_md5.h"

#define POOL_TICK_MS	10
#define POOL_LOG_FAILURES	5
#define POOL_CONNECT_TIMEOUT_MS	10000	/* then the connect is given up */
#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT	24
#endif

static void	pool_connect(struct pool_dev *);
static void	pool_md5_failed(struct pool_dev *, short);
static void	pool_ramp_fire(evutil_socket_t, short, void *);

void
pool_config_defaults(struct pool_config *c)
{
	memset(c, 0, sizeof(*c));
	c->src.family = AF_UNSPEC;
	c->connect_rate = 0;
	c->max_inflight = 256;
	c->connect_timeout_ms = POOL_CONNECT_TIMEOUT_MS;
	c->backoff_min_ms = 100;
	c->backoff_max_ms = 5000;
	c->reconnect = 1;
}

/* Devices of every pool in each state, for the live metrics. */
static uint64_t	pool_census[PD_STOPPED + 1];
/* Devices not up by why their last try failed (pool_count_why()). */
static uint64_t	pool_why_census[POOL_WHY_N];
/* Connections passive devices of every pool accepted (pool_accepted()). */
static uint64_t	pool_accepts;
/* The faults' watch (pool_watch_set()), NULL before any fault. */
static const struct pool_watch	*pool_watcher;

void
pool_watch_set(const struct pool_watch *w)
{
	pool_watcher = w;
}

static void
pool_set_why(struct pool_dev *d, enum pool_why why)
{
	pool_why_census[d->why_down]--;
	pool_why_census[why]++;
	d->why_down = (uint8_t)why;
}

void
pool_count_why(uint64_t n[POOL_WHY_N])
{
	memcpy(n, pool_why_census, sizeof(pool_why_census));
	n[POOL_WHY_NONE] = 0;
}

static void
pool_set_state(struct pool_dev *d, enum pool_dev_state st)
{
	pool_census[d->state]--;
	pool_census[st]++;
	d->state = (uint8_t)st;
	if (st == PD_UP)
		pool_set_why(d, POOL_WHY_NONE);
	if (st == PD_UP && d->fault_ns != 0 && pool_watcher != NULL)
		pool_watcher->up(d, clock_ns());
}

void
pool_count_states(uint64_t n[PD_STOPPED + 1])
{
	memcpy(n, pool_census, sizeof(pool_census));
}

uint64_t
pool_accepted(void)
{
	return pool_accepts;
}

const char *
pool_state_name(enum pool_dev_state st)
{
	static const char *const names[] = {
		[PD_IDLE] = "idle", [PD_CONNECTING] = "connecting",
		[PD_UP] = "up", [PD_BACKOFF] = "backoff",
		[PD_LISTENING] = "listening", [PD_STOPPED] = "stopped",
	};

	return (size_t)st < nitems(names) ? names[st] : "unknown";
}

void
pool_init(struct pool *p, const struct pool_config *cfg,
    const struct pool_ops *ops, struct pool_dev **devs, uint32_t n)
{
	uint32_t	i;

	if (ops == NULL && cfg->up_fd == NULL)
		fatalx("pool_init: no pool_ops and no up_fd");
	memset(p, 0, sizeof(*p));
	p->cfg = *cfg;
	p->ops = ops;
	p->devs = devs;
	p->n_devs = n;
	for (i = 0; i < n; i++) {
		devs[i]->pool = p;
		devs[i]->index = i;
		devs[i]->state = PD_IDLE;
		pool_census[PD_IDLE]++;
		devs[i]->why_down = POOL_WHY_NONE;
		pool_why_census[POOL_WHY_NONE]++;
	}
}

void
pool_init_array(struct pool *p, const struct pool_config *cfg,
    const struct pool_ops *ops, void *devs, size_t dev_size, size_t pd_off,
    uint32_t n)
{
	struct pool_dev	**ptrs;
	uint32_t	  i;

	ptrs = xcalloc(n ? n : 1, sizeof(*ptrs));
	for (i = 0; i < n; i++)
		ptrs[i] = (struct pool_dev *)(void *)((char *)devs +
		    (size_t)i * dev_size + pd_off);
	pool_init(p, cfg, ops, ptrs, n);
	p->own_devs = 1;
}

int
pool_start_sliced(struct pool *pools, const struct pool_config *cfgs,
    unsigned n, const struct pool_ops *ops, void *devs, size_t dev_size,
    size_t pd_off, uint32_t per, char *err, size_t errlen)
{
	unsigned	k;

	for (k = 0; k < n; k++)
		pool_init_array(&pools[k], &cfgs[k], ops, (char *)devs +
		    (size_t)k * per * dev_size, dev_size, pd_off, per);
	for (k = 0; k < n; k++)
		if (pool_start(&pools[k], err, errlen) == -1)
			return -1;
	return 0;
}

void
pool_free(struct pool *p)
{
	uint32_t	i;

	for (i = 0; i < p->n_devs; i++) {
		pool_census[p->devs[i]->state]--;
		pool_why_census[p->devs[i]->why_down]--;
	}
	if (p->own_devs)
		free(p->devs);
	p->devs = NULL;
	p->n_devs = 0;
	p->own_devs = 0;
}

uint32_t
pool_fds_needed(const struct pool_config *cfg, uint32_t n_devs)
{
	/* A passive device holds its listener and one connection; devices
	 * sharing a listener, one connection each and the listener. */
	if (!endpoint_passive(&cfg->ep))
		return n_devs;
	if (cfg->share_listener && cfg->src.family != AF_UNSPEC)
		return n_devs + 1;
	return 2 * n_devs;
}

/* Exponential backoff with +-25% jitter so that devices dropped together
 * do not all come back in the same millisecond. */
static unsigned
pool_backoff_ms(const struct pool *p, unsigned attempts)
{
	uint64_t	ms = p->cfg.backoff_min_ms;
	double		jitter = 0.75 + 0.5 * ((double)random() / RAND_MAX);

	while (attempts-- > 1 && ms < p->cfg.backoff_max_ms)
		ms *= 2;
	if (ms > p->cfg.backoff_max_ms)
		ms = p->cfg.backoff_max_ms;
	return (unsigned)(ms * jitter);
}

static void
pool_retry_fire(evutil_socket_t fd, short what, void *arg)
{
	struct pool_dev	*d = arg;

	(void)fd;
	(void)what;
	if (d->state == PD_BACKOFF && !d->pool->stopped)
		pool_connect(d);
}

static void
pool_schedule_retry(struct pool_dev *d)
{
	struct pool	*p = d->pool;
	unsigned	 ms;

	if (p->stopped || !p->cfg.reconnect) {
		pool_set_state(d, PD_STOPPED);
		return;
	}
	if (d->attempts < 255)
		d->attempts++;
	ms = pool_backoff_ms(p, d->attempts);
	if (d->retry == NULL)
		d->retry = engine_timer_new(0, pool_retry_fire, d);
	pool_set_state(d, PD_BACKOFF);
	engine_timer_add_ms(d->retry, ms);
}

/*
 * A session is up: its backoff timer goes until the next loss.  Kept, it
 * was 144 bytes per device that ever reconnected, so a long run with
 * drops grew by that much per device (the soak's RSS floor).
 */
static void
pool_retry_free(struct pool_dev *d)
{
	if (d->retry != NULL) {
		event_free(d->retry);
		d->retry = NULL;
	}
}

static void
pool_free_bev(struct pool_dev *d)
{
	SSL	*ssl;

	if (d->bev == NULL)
		return;
	if (pool_watcher != NULL)
		pool_watcher->closing(d);
	/* Say goodbye properly (close_notify, RFC 8446 section 6.1) when
	 * the handshake got that far; best effort, the socket may be gone. */
	if ((d->pool->cfg.ep.kind == EP_SSL || d->pool->cfg.ep.kind ==
	    EP_PSSL) && d->state == PD_UP &&
	    (ssl = bufferevent_openssl_get_ssl(d->bev)) != NULL)
		SSL_shutdown(ssl);
	bufferevent_free(d->bev);
	d->bev = NULL;
}

static void
pool_connect_event(struct bufferevent *bev, short what, void *arg)
{
	struct pool_dev	*d = arg;
	struct pool	*p = d->pool;
	int		 one = 1;

	(void)bev;
	p->inflight--;
	if (what & BEV_EVENT_CONNECTED) {
		bufferevent_set_timeouts(d->bev, NULL, NULL);
		setsockopt(bufferevent_getfd(d->bev), IPPROTO_TCP, TCP_NODELAY,
		    &one, sizeof(one));
		pool_set_state(d, PD_UP);
		d->attempts = 0;
		pool_retry_free(d);
		p->ops->up(d, d->bev);
		return;
	}
	/* A controller that is down fails every device: say it a few
	 * times, count the rest.  A connect (or TLS handshake) still under
	 * way after connect_timeout_ms (a SYN the controller's full accept
	 * queue keeps dropping) gives up its slot and tries again. */
	if (what & BEV_EVENT_TIMEOUT)
		p->stats.timeouts++;
	pool_md5_failed(d, what);
	pool_set_why(d, !(what & BEV_EVENT_TIMEOUT) &&
	    EVUTIL_SOCKET_ERROR() == ECONNREFUSED ? POOL_WHY_REFUSED :
	    POOL_WHY_UNANSWERED);
	if (p->stats.failures++ < POOL_LOG_FAILURES)
		log_info("device %u: connect to %s failed: %s; will retry%s",
		    d->index, p->cfg.ep.text, (what & BEV_EVENT_TIMEOUT) ?
		    "timed out" :
		    evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()),
		    p->stats.failures == POOL_LOG_FAILURES ?
		    " (further failures counted, not logged)" : "");
	pool_free_bev(d);
	pool_schedule_retry(d);
}

/* Device d's TCP-MD5 key, NULL for none. */
static const char *
pool_md5_key(const struct pool_dev *d)
{
	const struct pool	*p = d->pool;

	return tcp_md5_key_of(p->cfg.md5, p->cfg.index_base + d->index);
}

/*
 * A keyed connect that failed without an answer (timed out, or the
 * kernel gave up on its SYNs): RFC 2385 section 2.0 has a peer drop a
 * segment whose digest is missing or wrong without a word, so this is
 * what another key (or none) at the peer looks like from here.
 */
static void
pool_md5_failed(struct pool_dev *d, short what)
{
	int	err = EVUTIL_SOCKET_ERROR();

	if (pool_md5_key(d) != NULL && ((what & BEV_EVENT_TIMEOUT) ||
	    err == ETIMEDOUT))
		tcp_md5_tally.unanswered++;
}

/* Give a new socket its device's key towards the endpoint: 0, or -1
 * (said once per process, counted as a failed connect). */
static int
pool_md5_connecting(struct pool_dev *d, int fd)
{
	static int	 said;
	struct pool	*p = d->pool;
	const char	*key = pool_md5_key(d);

	if (key == NULL)
		return 0;
	if (tcp_md5_set(fd, (struct sockaddr *)&p->cfg.ep.ss, -1, key) == 0) {
		tcp_md5_tally.connects++;
		return 0;
	}
	if (!said++)
		log_warn("device %u: TCP-MD5 key for %s (further failures "
		    "counted as failed connects)", d->index, p->cfg.ep.text);
	return -1;
}

static int
pool_socket(struct pool_dev *d)
{
	struct pool		*p = d->pool;
	struct sockaddr_storage	 ss;
	socklen_t		 len;
	int			 fd, one = 1;

	fd = socket(p->cfg.ep.ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (fd == -1)
		return -1;
	if (pool_md5_connecting(d, fd) == -1) {
		close(fd);
		return -1;
	}
	if (p->cfg.src.family == AF_UNSPEC)
		return fd;
	/* Defer the port choice to connect(): with a source address per
	 * device, a port per (source, destination) pair is plenty. */
	setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof(one));
	source_addr(&p->cfg.src, p->cfg.index_base + d->index, &ss, &len);
	if (bind(fd, (struct sockaddr *)&ss, len) == -1) {
		if (p->stats.bind_errors++ == 0)
			log_warn("bind to source %s", p->cfg.src.text);
		close(fd);
		return -1;
	}
	return fd;
}

static struct bufferevent *
pool_bev_new(struct pool *p, int fd, int connecting)
{
	SSL	*ssl;

	if (p->cfg.ep.kind != EP_SSL && p->cfg.ep.kind != EP_PSSL)
		return bufferevent_socket_new(engine_base(), fd,
		    BEV_OPT_CLOSE_ON_FREE);
	if ((ssl = SSL_new(p->cfg.ssl)) == NULL)
		return NULL;
	return bufferevent_openssl_socket_new(engine_base(), fd, ssl,
	    connecting ? BUFFEREVENT_SSL_CONNECTING : BUFFEREVENT_SSL_ACCEPTING,
	    BEV_OPT_CLOSE_ON_FREE);
}

/* The connect's deadline: libevent times a connect (and a TLS
 * handshake) out through the write timeout, BEV_EVENT_TIMEOUT. */
static void
pool_connect_deadline(struct pool_dev *d)
{
	unsigned	ms = d->pool->cfg.connect_timeout_ms;
	struct timeval	tv = { ms / 1000, (ms % 1000) * 1000 };

	if (ms != 0)
		bufferevent_set_timeouts(d->bev, NULL, &tv);
}

static void
pool_connect(struct pool_dev *d)
{
	struct pool	*p = d->pool;
	int		 fd;

	p->stats.attempts++;
	d->attempt_ns = clock_ns();
	if ((fd = pool_socket(d)) == -1) {
		p->stats.failures++;
		if (errno == EMFILE || errno == ENFILE)
			log_warn("device %u: socket", d->index);
		pool_schedule_retry(d);
		return;
	}
	if ((d->bev = pool_bev_new(p, fd, 1)) == NULL) {
		close(fd);
		p->stats.failures++;
		pool_schedule_retry(d);
		return;
	}
	bufferevent_setcb(d->bev, NULL, NULL, pool_connect_event, d);
	pool_connect_deadline(d);
	pool_set_state(d, PD_CONNECTING);
	p->inflight++;
	if (bufferevent_socket_connect(d->bev,
	    (struct sockaddr *)&p->cfg.ep.ss, p->cfg.ep.sslen) == -1) {
		/* libevent already reported it through the event callback
		 * when the error was immediate; only clean up otherwise. */
		if (d->state == PD_CONNECTING) {
			pool_set_why(d, errno == ECONNREFUSED ?
			    POOL_WHY_REFUSED : POOL_WHY_UNANSWERED);
			p->inflight--;
			p->stats.failures++;
			pool_free_bev(d);
			pool_schedule_retry(d);
		}
	}
}

/* Hand out connects at cfg.connect_rate per second, keeping at most
 * max_inflight handshakes under way so the listen backlog never overflows. */
static void
pool_ramp(struct pool *p)
{
	uint64_t	 now = clock_ns();

	if (p->cfg.connect_rate > 0) {
		p->credit += p->cfg.connect_rate *
		    (double)(now - p->ramp_last_ns) / 1e9;
		if (p->credit > p->cfg.max_inflight)
			p->credit = p->cfg.max_inflight;
	} else
		p->credit = p->cfg.max_inflight;
	p->ramp_last_ns = now;
	while (p->cursor < p->n_devs && p->credit >= 1 &&
	    p->inflight < p->cfg.max_inflight && !p->stopped) {
		p->credit -= 1;
		pool_connect(p->devs[p->cursor++]);
	}
	if (p->cursor >= p->n_devs) {
		event_free(p->ramp);
		p->ramp = NULL;
	}
}

static void
pool_ramp_fire(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	pool_ramp(arg);
}

static void
pool_accept(struct evconnlistener *l, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct pool_dev	*d = arg;
	struct pool	*p = d->pool;
	int		 one = 1;

	(void)l;
	(void)sa;
	(void)salen;
	if (p->stopped) {
		close(fd);
		return;
	}
	pool_accepts++;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	evutil_make_socket_nonblocking(fd);
	if (p->cfg.up_fd != NULL) {
		p->cfg.up_fd(d, fd);
		return;
	}
	if (d->bev != NULL) {
		/* One connection per device: the newest wins, since a
		 * tool that connects right after another (ovs-ofctl runs)
		 * may arrive before the old close is read. */
		p->stats.replaced++;
		pool_lost(d, "replaced by a new connection");
	}
	if ((d->bev = bufferevent_socket_new(engine_base(), fd,
	    BEV_OPT_CLOSE_ON_FREE)) == NULL) {
		close(fd);
		return;
	}
	d->attempt_ns = clock_ns();
	pool_set_state(d, PD_UP);
	p->ops->up(d, d->bev);
}

/*
 * The shared listener's connection: to the device whose address it
 * reached (getsockname), else reset at once, as an address with nothing
 * listening on the port would answer, and counted.
 */
static void
pool_accept_shared(struct evconnlistener *l, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct pool		*p = arg;
	struct sockaddr_storage	 local;
	socklen_t		 len = sizeof(local);
	struct linger		 lg = { 1, 0 };
	int64_t			 i = -1;
	char			 host[INET6_ADDRSTRLEN] = "?";

	if (getsockname(fd, (struct sockaddr *)&local, &len) == 0)
		i = source_index(&p->cfg.src, &local);
	if (i >= 0 && (uint64_t)i < p->n_devs) {
		pool_accept(l, fd, sa, salen, p->devs[i]);
		return;
	}
	if (p->stats.no_device++ == 0) {
		if (local.ss_family == AF_INET || local.ss_family == AF_INET6)
			inet_ntop(local.ss_family, local.ss_family == AF_INET ?
			    (void *)&((struct sockaddr_in *)&local)->sin_addr :
			    (void *)&((struct sockaddr_in6 *)&local)->sin6_addr,
			    host, sizeof(host));
		log_warnx("pool: a connection to %s, the address of no device "
		    "of %s: reset (those after it only counted)", host,
		    p->cfg.src.text);
	}
	setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	close(fd);
}

/* A passive device's key on its listener, for whoever connects: 0, or
 * -1 with the reason in err (the listener freed). */
static int
pool_md5_listening(struct evconnlistener *l, const char *key, char *err,
    size_t errlen)
{
	if (key == NULL ||
	    tcp_md5_listen_any(evconnlistener_get_fd(l), key) == 0)
		return 0;
	snprintf(err, errlen, "TCP-MD5 key on a listener: %s",
	    strerror(errno));
	engine_listener_free(l);
	return -1;
}

static int
pool_bind_listener(struct pool *p, struct pool_dev *d,
    struct sockaddr_storage *ss, socklen_t len, char *err, size_t errlen)
{
	char	host[INET6_ADDRSTRLEN];

	(void)p;
	d->listener = evconnlistener_new_bind(engine_base(), pool_accept, d,
	    LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_FREE, 16,
	    (struct sockaddr *)ss, len);
	if (d->listener == NULL) {
		inet_ntop(ss->ss_family, ss->ss_family == AF_INET ?
		    (void *)&((struct sockaddr_in *)ss)->sin_addr :
		    (void *)&((struct sockaddr_in6 *)ss)->sin6_addr, host,
		    sizeof(host));
		snprintf(err, errlen, "cannot listen on %s port %u: %s", host,
		    ntohs(ss->ss_family == AF_INET ?
		    ((struct sockaddr_in *)ss)->sin_port :
		    ((struct sockaddr_in6 *)ss)->sin6_port), strerror(errno));
		return -1;
	}
	if (pool_md5_listening(d->listener, pool_md5_key(d), err,
	    errlen) == -1) {
		d->listener = NULL;
		return -1;
	}
	/* A flood of connections at the descriptor limit pauses accepting
	 * instead of spinning on EMFILE. */
	engine_listener_guard(d->listener, "passive device");
	pool_set_state(d, PD_LISTENING);
	p->listeners++;
	return 0;
}

/*
 * share_listener: one socket on the wildcard address at PORT (on Linux it
 * takes connections to every local address, all of 127/8 included), so
 * that N devices cost one descriptor, not N.  The backlog is the
 * kernel's most (net.core.somaxconn): N devices' worth of connects now
 * queue on one socket.  -1 when the wildcard address is taken on PORT
 * (another listener on one of its addresses): the caller falls back.
 */
#define POOL_SHARED_BACKLOG	65535

static int
pool_listen_shared(struct pool *p)
{
	struct sockaddr_storage	ss;
	socklen_t		len;
	uint32_t		i;
	char			err[128];

	memset(&ss, 0, sizeof(ss));
	ss.ss_family = p->cfg.src.family;
	if (ss.ss_family == AF_INET) {
		((struct sockaddr_in *)&ss)->sin_port = htons(p->cfg.ep.port);
		len = sizeof(struct sockaddr_in);
	} else {
		((struct sockaddr_in6 *)&ss)->sin6_port = htons(p->cfg.ep.port);
		len = sizeof(struct sockaddr_in6);
	}
	p->shared = evconnlistener_new_bind(engine_base(), pool_accept_shared,
	    p, LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_FREE, POOL_SHARED_BACKLOG,
	    (struct sockaddr *)&ss, len);
	if (p->shared == NULL) {
		log_warnx("pool: cannot listen on the wildcard address port "
		    "%u (%s): each device of %s listens on its own",
		    p->cfg.ep.port, strerror(errno), p->cfg.src.text);
		return -1;
	}
	/* Every device has this key (pool_start()). */
	if (pool_md5_listening(p->shared, tcp_md5_key_of(p->cfg.md5,
	    p->cfg.index_base), err, sizeof(err)) == -1) {
		p->shared = NULL;
		log_warnx("pool: %s", err);
		return -1;
	}
	engine_listener_guard(p->shared, "passive devices");
	p->listeners = 1;
	for (i = 0; i < p->n_devs; i++)
		pool_set_state(p->devs[i], PD_LISTENING);
	return 0;
}

static int
pool_listen(struct pool *p, struct pool_dev *d, char *err, size_t errlen)
{
	struct sockaddr_storage	ss;
	socklen_t		len;
	uint32_t		port = p->cfg.ep.port + p->cfg.index_base +
				    d->index;

	if (p->cfg.src.family != AF_UNSPEC) {
		/* An address per device, all on one port. */
		source_addr(&p->cfg.src, p->cfg.index_base + d->index, &ss,
		    &len);
		if (ss.ss_family == AF_INET)
			((struct sockaddr_in *)&ss)->sin_port =
			    htons(p->cfg.ep.port);
		else
			((struct sockaddr_in6 *)&ss)->sin6_port =
			    htons(p->cfg.ep.port);
		return pool_bind_listener(p, d, &ss, len, err, errlen);
	}
	if (port > 65535) {
		snprintf(err, errlen, "device %u would listen on port %u, "
		    "past 65535: lower the base port or the device count",
		    d->index, port);
		return -1;
	}
	endpoint_with_port(&p->cfg.ep, port, &ss, &len);
	return pool_bind_listener(p, d, &ss, len, err, errlen);
}

/*
 * Passive devices open to the network (ptcp:PORT listens on every
 * address, as Open vSwitch's does, and users rely on it): said once,
 * from the first listener, whose address all the others share.
 */
static void
pool_say_listeners(struct pool *p)
{
	struct evconnlistener	*l = p->shared;
	char			 what[96];

	if (l == NULL && p->n_devs > 0)
		l = p->devs[0]->listener;
	if (l == NULL)
		return;
	if (p->shared != NULL)
		snprintf(what, sizeof(what), "the shared listener of %u "
		    "passive devices", p->n_devs);
	else if (p->n_devs == 1)
		snprintf(what, sizeof(what), "the passive device");
	else
		snprintf(what, sizeof(what), "the first of %u passive devices "
		    "(%s each)", p->n_devs, p->cfg.src.family != AF_UNSPEC ?
		    "an address" : "a port");
	engine_listen_say(evconnlistener_get_fd(l), what,
	    p->cfg.ep.kind != EP_PSSL ? "no TLS" : p->cfg.ssl != NULL &&
	    (SSL_CTX_get_verify_mode(p->cfg.ssl) & SSL_VERIFY_PEER) ?
	    "TLS, client certificates checked" : "TLS, any client");
}

/*
 * TLS without --ssl-ca checks nothing of the peer (SSL_VERIFY_NONE): a
 * man in the middle is taken for the controller.  Said once per process,
 * when the first pool connects (not while the command line is checked,
 * whose errors stay one line).
 */
static void
pool_say_unverified(const struct pool *p)
{
	static int	said;

	if (said || p->cfg.ssl == NULL ||
	    SSL_CTX_get_verify_mode(p->cfg.ssl) != SSL_VERIFY_NONE)
		return;
	said = 1;
	log_warnx("TLS without --ssl-ca: the peer's certificate is not "
	    "checked, any certificate is accepted");
}

int
pool_start(struct pool *p, char *err, size_t errlen)
{
	uint32_t	i;
	struct timeval	tv = { 0, POOL_TICK_MS * 1000 };

	if (tcp_md5_any(p->cfg.md5) && tcp_md5_probe(err, errlen) == -1)
		return -1;
	if (endpoint_passive(&p->cfg.ep)) {
		p->listeners = 0;
		/* A listener's keys go by the peer's address alone: devices
		 * with keys of their own each need a listener. */
		if (p->cfg.share_listener && p->cfg.src.family != AF_UNSPEC &&
		    (p->cfg.md5 == NULL || p->cfg.md5->n == 0) &&
		    pool_listen_shared(p) == 0) {
			pool_say_listeners(p);
			return 0;
		}
		for (i = 0; i < p->n_devs; i++)
			if (pool_listen(p, p->devs[i], err, errlen) == -1)
				return -1;
		pool_say_listeners(p);
		return 0;
	}
	pool_say_unverified(p);
	p->ramp_last_ns = clock_ns();
	p->ramp = engine_timer_new(EV_PERSIST, pool_ramp_fire, p);
	engine_timer_add(p->ramp, &tv);
	pool_ramp(p);
	return 0;
}

void
pool_lost(struct pool_dev *d, const char *why)
{
	struct pool	*p = d->pool;

	if (d->state != PD_UP)
		return;
	p->stats.drops++;
	pool_free_bev(d);
	if (endpoint_passive(&p->cfg.ep))
		pool_set_state(d, p->stopped ? PD_STOPPED : PD_LISTENING);
	else
		pool_schedule_retry(d);
	p->ops->down(d, why);
}

void
pool_lost_drained(struct pool_dev *d, const char *why)
{
	if (d->bev != NULL &&
	    evbuffer_get_length(bufferevent_get_output(d->bev)) == 0)
		pool_lost(d, why);
}

/*
 * The run ended in the middle of a loop turn: a TLS handshake the server
 * had just aborted may still be waiting to be handled.  A bufferevent
 * freed then, with its handshake event pending, was now and then never
 * finalized by event_base_free(): it and its SSL leaked (LeakSanitizer,
 * tests/integration/of_tls_abort.sh).  One non-blocking turn lets those
 * callbacks run first; the pool is stopped, so nothing reconnects.
 */
static void
pool_settle_tls(struct pool *p)
{
	uint32_t	i;

	if (p->cfg.ep.kind != EP_SSL && p->cfg.ep.kind != EP_PSSL)
		return;
	/* Only with a connection left: a sim that ended its sessions
	 * before pool_stop() (an up_fd protocol's) has nothing pending
	 * here. */
	for (i = 0; i < p->n_devs && p->devs[i]->bev == NULL; i++)
		;
	if (i == p->n_devs)
		return;
	if (event_base_loop(engine_base(), EVLOOP_NONBLOCK) == -1)
		log_warnx("pool: the last TLS events could not be handled");
}

/*
 * The run ends with a keyed connect still waiting for its answer: past
 * the first SYN's retransmission (RTO 1 s, RFC 6298 section 2.1) it is as
 * unanswered as one that timed out.
 */
#define POOL_MD5_UNANSWERED_NS	1000000000ull

static void
pool_md5_waiting(struct pool_dev *d)
{
	if (d->state == PD_CONNECTING && pool_md5_key(d) != NULL &&
	    clock_ns() - d->attempt_ns >= POOL_MD5_UNANSWERED_NS)
		tcp_md5_tally.unanswered++;
}

void
pool_stop(struct pool *p)
{
	uint32_t	i;
	struct pool_dev	*d;

	p->stopped = 1;
	if (p->ramp != NULL) {
		event_free(p->ramp);
		p->ramp = NULL;
	}
	pool_settle_tls(p);
	if (p->shared != NULL) {
		engine_listener_free(p->shared);
		p->shared = NULL;
	}
	p->listeners = 0;
	for (i = 0; i < p->n_devs; i++) {
		d = p->devs[i];
		pool_md5_waiting(d);
		pool_retry_free(d);
		if (d->listener != NULL) {
			engine_listener_free(d->listener);
			d->listener = NULL;
		}
		pool_free_bev(d);
		pool_set_state(d, PD_STOPPED);
	}
}

/* What went wrong loading a TLS file: a system error (no such file) if
 * the queue holds one (OpenSSL 3 gives it no reason string), else the
 * first reason queued, the most specific (PEM "no start line" rather
 * than SSL "PEM lib"). */
static void
pool_ssl_error(char *err, size_t errlen, const char *what, const char *file)
{
	unsigned long	 e, first = 0;
	const char	*why = NULL;
	char		 buf[256];

	while ((e = ERR_get_error()) != 0) {
#ifdef ERR_SYSTEM_ERROR
		if (why == NULL && ERR_SYSTEM_ERROR(e))
			why = strerror(ERR_GET_REASON(e));
#endif
		if (first == 0)
			first = e;
	}
	if (why == NULL && first != 0)
		why = ERR_reason_error_string(first);
	if (why == NULL) {
		ERR_error_string_n(first, buf, sizeof(buf));
		why = buf;
	}
	snprintf(err, errlen, "TLS setup: %s%s%s: %s", what, file ? " " : "",
	    file ? file : "", why);
}

static SSL_CTX *
pool_ssl_ctx_new(const SSL_METHOD *method, const char *key, const char *cert,
    const char *ca, int verify, char *err, size_t errlen)
{
	SSL_CTX	*ctx;

	if ((ctx = SSL_CTX_new(method)) == NULL) {
		pool_ssl_error(err, errlen, "SSL_CTX_new", NULL);
		return NULL;
	}
	if (cert != NULL &&
	    SSL_CTX_use_certificate_chain_file(ctx, cert) != 1) {
		pool_ssl_error(err, errlen, "--ssl-cert", cert);
		goto fail;
	}
	if (key != NULL &&
	    SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1) {
		pool_ssl_error(err, errlen, "--ssl-key", key);
		goto fail;
	}
	if (ca != NULL) {
		if (SSL_CTX_load_verify_locations(ctx, ca, NULL) != 1) {
			pool_ssl_error(err, errlen, "--ssl-ca", ca);
			goto fail;
		}
		SSL_CTX_set_verify(ctx, verify, NULL);
	} else
		SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
	return ctx;
fail:
	SSL_CTX_free(ctx);
	return NULL;
}

SSL_CTX *
pool_ssl_ctx(const char *key, const char *cert, const char *ca, char *err,
    size_t errlen)
{
	/* Without a CA (SSL_VERIFY_NONE) pool_start() says so. */
	return pool_ssl_ctx_new(TLS_client_method(), key, cert, ca,
	    SSL_VERIFY_PEER, err, errlen);
}

SSL_CTX *
pool_ssl_server_ctx(const char *key, const char *cert, const char *ca,
    char *err, size_t errlen)
{
	if (key == NULL || cert == NULL) {
		snprintf(err, errlen, "TLS setup: a listening device needs "
		    "--ssl-key and --ssl-cert");
		return NULL;
	}
	/* As a database server's pssl: with a CA, a client without a
	 * certificate it signs is refused. */
	return pool_ssl_ctx_new(TLS_server_method(), key, cert, ca,
	    SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, err, errlen);
}

void
pool_bev_event(struct bufferevent *bev, short what, void *dev)
{
	struct pool_dev	*d = dev;
	char		 why[128];

	(void)bev;
	/* The peer ended it: said apart from a connect nobody answered. */
	if (!endpoint_passive(&d->pool->cfg.ep) && ((what & BEV_EVENT_EOF) ||
	    ((what & BEV_EVENT_ERROR) &&
	    EVUTIL_SOCKET_ERROR() == ECONNRESET)))
		pool_set_why(d, POOL_WHY_PEER_CLOSED);
	if (what & BEV_EVENT_EOF) {
		snprintf(why, sizeof(why), "%s closed the connection",
		    d->pool->ops->peer);
		pool_lost(d, why);
	} else if (what & BEV_EVENT_ERROR)
		pool_lost(d, evutil_socket_error_to_string(
		    EVUTIL_SOCKET_ERROR()));
}

/* The length of the message at the head of in: 0 while it is not all
 * there, -1 when the protocol found the stream bad. */
static long
pool_frame_length(struct evbuffer *in, const struct pool_framer *f,
    void *dev)
{
	uint8_t	hdr[64];
	long	len;

	if (f->scan != NULL)
		return f->scan(dev, in);
	if (f->hdr_len > sizeof(hdr))
		fatalx("pool_read: a header of %zu bytes", f->hdr_len);
	evbuffer_copyout(in, hdr, f->hdr_len);
	if ((len = f->length(dev, hdr)) < 0)
		return -1;
	if ((size_t)len < f->hdr_len)
		fatalx("pool_read: a message shorter than its header");
	return evbuffer_get_length(in) < (size_t)len ? 0 : len;
}

int
pool_read(struct bufferevent *bev, const struct pool_framer *f, void *dev)
{
	struct evbuffer	*in = bufferevent_get_input(bev);
	long		 len;

	while (evbuffer_get_length(in) >= f->hdr_len &&
	    evbuffer_get_length(in) > 0) {
		if (f->out_full != NULL && f->out_full(dev)) {
			bufferevent_disable(bev, EV_READ);
			return 0;
		}
		if ((len = pool_frame_length(in, f, dev)) <= 0)
			return (int)len;
		if (f->message(dev, evbuffer_pullup(in, len), (size_t)len) ==
		    -1)
			return -1;
		evbuffer_drain(in, (size_t)len);
	}
	return 0;
}

int
pool_read_resume(struct bufferevent *bev, const struct pool_framer *f,
    void *dev)
{
	if (bufferevent_get_enabled(bev) & EV_READ)
		return 0;
	bufferevent_enable(bev, EV_READ);
	return pool_read(bev, f, dev);
}

void
pool_stats_add(struct pool_stats *sum, const struct pool *p)
{
	sum->attempts += p->stats.attempts;
	sum->failures += p->stats.failures;
	sum->timeouts += p->stats.timeouts;
	sum->drops += p->stats.drops;
	sum->replaced += p->stats.replaced;
	sum->bind_errors += p->stats.bind_errors;
}

void
pool_stats_counted(const struct pool_stats *st, struct metrics *m)
{
	*metrics_counter(m, "connect_attempts") = st->attempts;
	*metrics_counter(m, "connect_failures") = st->failures;
	*metrics_counter(m, "connect_timeouts") = st->timeouts;
	*metrics_counter(m, "passive_replaced") = st->replaced;
}

void
pool_stop_counted(struct pool *p, struct metrics *m)
{
	pool_stop(p);
	pool_stats_counted(&p->stats, m);
}

void
pool_stop_all_counted(struct pool *pools, unsigned n, struct metrics *m)
{
	struct pool_stats	sum;
	unsigned		k;

	memset(&sum, 0, sizeof(sum));
	for (k = 0; k < n; k++) {
		pool_stop(&pools[k]);
		pool_stats_add(&sum, &pools[k]);
	}
	pool_stats_counted(&sum, m);
}
