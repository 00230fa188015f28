/*
 * The cost of a run to the processes involved (cost.h).
 */
#include <sys/types.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>

#include "cost.h"
#include "engine.h"
#include "log.h"

#define COST_SCRAPE_MS		1000
#define COST_SCRAPE_TIMEOUT_S	5
#define COST_SCRAPE_MAX		(8u << 20)	/* bytes of one exposition */

/* ---- /proc ---- */

/*
 * proc(5): after the command name in parentheses (which may hold spaces
 * and parentheses itself, hence the last ')') come state (field 3) ...
 * utime (14), stime (15) in clock ticks, num_threads (20), rss (24) in
 * pages.
 */
static int
cost_parse_stat(const char *buf, struct cost_snap *s)
{
	const char		*p = strrchr(buf, ')');
	unsigned long long	 v[22];
	long			 hz = sysconf(_SC_CLK_TCK), page;
	int			 i;
	char			*end;

	if (p == NULL || hz <= 0)
		return -1;
	p += 2;				/* ") " */
	if (*p == '\0')
		return -1;
	p++;				/* the state letter, field 3 */
	for (i = 0; i < 22; i++) {	/* fields 4..25 */
		errno = 0;
		v[i] = strtoull(p, &end, 10);
		if (end == p || errno != 0)
			return -1;
		p = end;
	}
	page = sysconf(_SC_PAGESIZE);
	s->cpu_ms = (v[14 - 4] + v[15 - 4]) * 1000 / (unsigned long long)hz;
	s->threads = (uint32_t)v[20 - 4];
	s->rss_kb = page > 0 ? v[24 - 4] * (unsigned long long)page / 1024 : 0;
	return 0;
}

int
cost_read_proc(pid_t pid, struct cost_snap *s)
{
	char	path[64], buf[1024];
	ssize_t	n;
	int	fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	memset(s, 0, sizeof(*s));
	return cost_parse_stat(buf, s);
}

/*
 * sbsim's own, read every tick of every run: the file stays open and is
 * read again from its start (a seq file is made anew at offset 0), as
 * the open and close cost more than the read itself, and the read was
 * most of an idle tick.  A child forked since (a worker) inherited a
 * descriptor that names its parent: it drops it and opens its own.
 */
static int	 cost_self_fd = -1;

static void
cost_self_forked(void)
{
	if (cost_self_fd != -1)
		close(cost_self_fd);
	cost_self_fd = -1;
}

int
cost_read_self(struct cost_snap *s)
{
	static int	 registered;
	char		 path[64], buf[1024];
	ssize_t		 n;

	if (!registered && pthread_atfork(NULL, NULL, cost_self_forked) == 0)
		registered = 1;
	if (!registered)		/* no fork handler: no descriptor kept */
		return cost_read_proc(getpid(), s);
	if (cost_self_fd == -1) {
		snprintf(path, sizeof(path), "/proc/%ld/stat", (long)getpid());
		if ((cost_self_fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
			return -1;
	}
	if ((n = pread(cost_self_fd, buf, sizeof(buf) - 1, 0)) <= 0) {
		cost_self_forked();
		return -1;
	}
	buf[n] = '\0';
	memset(s, 0, sizeof(*s));
	return cost_parse_stat(buf, s);
}

/* ---- Prometheus text ---- */

/* The value of a sample line "NAME[{labels}] VALUE [TIMESTAMP]" when its
 * name is name: 0 and *v, else -1. */
static int
cost_prom_line(const char *line, const char *eol, const char *name,
    double *v)
{
	size_t		 n = strlen(name);
	const char	*p = line;
	char		 num[64];
	size_t		 len;
	char		*end;

	if ((size_t)(eol - p) <= n || strncmp(p, name, n) != 0)
		return -1;
	p += n;
	if (*p == '{') {
		while (p < eol && *p != '}')
			p++;
		if (p == eol)
			return -1;
		p++;
	}
	if (p == eol || (*p != ' ' && *p != '\t'))
		return -1;
	while (p < eol && (*p == ' ' || *p == '\t'))
		p++;
	len = (size_t)(eol - p);
	if (len == 0 || len >= sizeof(num))
		return -1;
	memcpy(num, p, len);
	num[len] = '\0';
	*v = strtod(num, &end);
	return end == num || *v < 0 || *v != *v ? -1 : 0;
}

static const char *const cost_thread_gauges[] = {
	"process_threads", "jvm_threads_current", "jvm_threads_live_threads",
	"go_threads",
};

int
cost_parse_prom(const char *text, size_t len, struct cost_snap *s)
{
	const char	*p = text, *end = text + len, *eol;
	double		 v;
	size_t		 i;
	int		 cpu = 0;

	memset(s, 0, sizeof(*s));
	for (; p < end; p = eol + 1) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		if (p == eol || *p == '#')
			continue;
		if (cost_prom_line(p, eol, "process_cpu_seconds_total",
		    &v) == 0) {
			s->cpu_ms = (uint64_t)(v * 1000 + 0.5);
			cpu = 1;
		} else if (cost_prom_line(p, eol,
		    "process_resident_memory_bytes", &v) == 0)
			s->rss_kb = (uint64_t)(v / 1024);
		else
			for (i = 0; i < nitems(cost_thread_gauges); i++)
				if (s->threads == 0 && cost_prom_line(p, eol,
				    cost_thread_gauges[i], &v) == 0)
					s->threads = (uint32_t)v;
		if (eol == end)
			break;
	}
	return cpu ? 0 : -1;
}

/* ---- per-phase accounting ---- */

void
cost_track_init(struct cost_track *t, enum cost_who who)
{
	memset(t, 0, sizeof(*t));
	t->who = who;
}

/*
 * A phase that had started by now opens at the sample before (when the
 * phase started after it) and closes at the first sample after its end.
 */
static void
cost_phase(struct phase *ph, const struct cost_track *t, uint64_t now,
    const struct cost_snap *s)
{
	struct phase_cost	*pc = &ph->cost[t->who];

	if (ph->state == PHASE_PENDING || pc->closed)
		return;
	if (!pc->opened) {
		pc->opened = 1;
		if (t->have && t->last_ns <= ph->trigger_ns) {
			pc->start_ns = t->last_ns;
			pc->cpu_start_ms = t->last.cpu_ms;
		} else {
			pc->start_ns = now;
			pc->cpu_start_ms = s->cpu_ms;
		}
	}
	if (s->rss_kb > pc->rss_max_kb)
		pc->rss_max_kb = s->rss_kb;
	if (s->threads > pc->threads_max)
		pc->threads_max = s->threads;
	if (ph->state != PHASE_RUNNING) {
		pc->closed = 1;
		pc->end_ns = now;
		pc->cpu_end_ms = s->cpu_ms;
	}
}

void
cost_sample(struct cost_track *t, struct metrics *m, uint64_t now,
    const struct cost_snap *s)
{
	size_t	i;

	for (i = 0; i < m->n_phases; i++)
		cost_phase(m->phases[i], t, now, s);
	if (!t->have)
		t->first_cpu_ms = s->cpu_ms;
	if (s->rss_kb > t->rss_max_kb)
		t->rss_max_kb = s->rss_kb;
	if (s->threads > t->threads_max)
		t->threads_max = s->threads;
	t->have = 1;
	t->last_ns = now;
	t->last = *s;
}

void
cost_counters(const struct cost_track *t, struct metrics *m)
{
	if (t->who != COST_CONTROLLER || !t->have)
		return;
	*metrics_counter(m, "controller_cpu_ms") =
	    t->last.cpu_ms >= t->first_cpu_ms ?
	    t->last.cpu_ms - t->first_cpu_ms : 0;
	*metrics_counter(m, "controller_max_rss_kb") = t->rss_max_kb;
	*metrics_counter(m, "controller_threads_max") = t->threads_max;
}

void
cost_finish(struct cost_track *t, struct metrics *m)
{
	struct phase_cost	*pc;
	size_t			 i;

	if (!t->have)
		return;
	for (i = 0; i < m->n_phases; i++) {
		pc = &m->phases[i]->cost[t->who];
		if (!pc->opened || pc->closed)
			continue;
		pc->closed = 1;
		pc->end_ns = t->last_ns;
		pc->cpu_end_ms = t->last.cpu_ms;
	}
}

/* ---- the controller's Prometheus endpoint ---- */

struct cost_scraper {
	struct evhttp_connection *conn;
	struct evhttp_uri	*uri;
	struct event		*timer;
	struct cost_track	*t;
	struct metrics		*m;
	char			 path[1024];
	char			 host[256];
	int			 inflight;
	int			 logged;
};

int
cost_url_check(const char *url, char *err, size_t errlen)
{
	struct evhttp_uri	*u = evhttp_uri_parse(url);
	const char		*scheme;
	int			 rc = -1;

	if (u == NULL)
		snprintf(err, errlen, "'%s' is not a URL", url);
	else if ((scheme = evhttp_uri_get_scheme(u)) == NULL ||
	    strcmp(scheme, "http") != 0)
		snprintf(err, errlen, "'%s': only http:// is scraped", url);
	else if (evhttp_uri_get_host(u) == NULL)
		snprintf(err, errlen, "'%s' names no host", url);
	else
		rc = 0;
	if (u != NULL)
		evhttp_uri_free(u);
	return rc;
}

static void
cost_scrape_failed(struct cost_scraper *sc, const char *why)
{
	(*metrics_counter(sc->m, "controller_scrape_errors"))++;
	if (sc->logged++ == 0)
		log_warnx("--controller-metrics %s: %s (counted in "
		    "controller_scrape_errors; logged once)", sc->host, why);
}

static void
cost_scrape_done(struct evhttp_request *req, void *arg)
{
	struct cost_scraper	*sc = arg;
	struct evbuffer		*in;
	struct cost_snap	 s;
	size_t			 len;
	const char		*text;

	sc->inflight = 0;
	if (req == NULL || evhttp_request_get_response_code(req) == 0) {
		cost_scrape_failed(sc, "no answer");
		return;
	}
	if (evhttp_request_get_response_code(req) != 200) {
		cost_scrape_failed(sc, "an HTTP status other than 200");
		return;
	}
	in = evhttp_request_get_input_buffer(req);
	if ((len = evbuffer_get_length(in)) > COST_SCRAPE_MAX) {
		cost_scrape_failed(sc, "an exposition past 8 MiB");
		return;
	}
	text = (const char *)evbuffer_pullup(in, -1);
	if (text == NULL || cost_parse_prom(text, len, &s) == -1) {
		cost_scrape_failed(sc, "no process_cpu_seconds_total in it");
		return;
	}
	cost_sample(sc->t, sc->m, clock_ns(), &s);
}

void
cost_scraper_kick(struct cost_scraper *sc)
{
	struct evhttp_request	*req;

	if (sc == NULL || sc->inflight)
		return;
	if ((req = evhttp_request_new(cost_scrape_done, sc)) == NULL)
		return;
	evhttp_add_header(evhttp_request_get_output_headers(req), "Host",
	    sc->host);
	evhttp_add_header(evhttp_request_get_output_headers(req), "Accept",
	    "text/plain;version=0.0.4");
	if (evhttp_make_request(sc->conn, req, EVHTTP_REQ_GET,
	    sc->path) == -1) {
		cost_scrape_failed(sc, "the request could not be made");
		return;
	}
	sc->inflight = 1;
}

static void
cost_scrape_tick(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	cost_scraper_kick(arg);
}

struct cost_scraper *
cost_scraper_new(struct event_base *base, const char *url,
    struct cost_track *t, struct metrics *m, char *err, size_t errlen)
{
	struct cost_scraper	*sc;
	struct timeval		 tv = { COST_SCRAPE_MS / 1000, 0 };
	const char		*path, *query;
	int			 port;

	if (cost_url_check(url, err, errlen) == -1)
		return NULL;
	sc = xcalloc(1, sizeof(*sc));
	sc->t = t;
	sc->m = m;
	sc->uri = evhttp_uri_parse(url);
	port = evhttp_uri_get_port(sc->uri);
	path = evhttp_uri_get_path(sc->uri);
	query = evhttp_uri_get_query(sc->uri);
	snprintf(sc->host, sizeof(sc->host), "%s",
	    evhttp_uri_get_host(sc->uri));
	snprintf(sc->path, sizeof(sc->path), "%s%s%s",
	    path != NULL && *path != '\0' ? path : "/metrics",
	    query != NULL ? "?" : "", query != NULL ? query : "");
	sc->conn = evhttp_connection_base_new(base, NULL, sc->host,
	    port > 0 ? (uint16_t)port : 80);
	if (sc->conn == NULL) {
		snprintf(err, errlen, "cannot make a connection to %s",
		    sc->host);
		cost_scraper_free(sc);
		return NULL;
	}
	evhttp_connection_set_timeout(sc->conn, COST_SCRAPE_TIMEOUT_S);
	sc->timer = engine_timer_new_on(base, EV_PERSIST, cost_scrape_tick, sc);
	engine_timer_add(sc->timer, &tv);
	cost_scraper_kick(sc);
	return sc;
}

void
cost_scraper_free(struct cost_scraper *sc)
{
	if (sc == NULL)
		return;
	engine_event_free(&sc->timer);
	if (sc->conn != NULL)
		evhttp_connection_free(sc->conn);
	if (sc->uri != NULL)
		evhttp_uri_free(sc->uri);
	free(sc);
}
