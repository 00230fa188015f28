/*
 * `sbsim controller --workers N` (ctl_workers.h): the protocol of lines
 * between the parent and its workers (the forks, pipes and ends are
 * src/core/procs.h's), the parent's loop, and the summary added up from
 * the workers' lines.
 */
#include <sys/types.h>

#include <ctype.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "ctl_role.h"
#include "ctl_workers.h"
#include "engine.h"
#include "log.h"
#include "metrics.h"
#include "procs.h"
#include "run.h"

#define WK_STOP_WAIT_S	30	/* for the workers to end once asked */

/* What the parent knows of a worker, from its lines. */
struct wk {
	char		 out[256];	/* its summary file */
	uint16_t	 rc_port;
	uint64_t	 held[CTL_WK_MAX_ROLES];
	int		 done;
};

/* The parent's. */
static struct {
	const struct ctl_wk_run	*run;
	struct procs		*ps;
	struct wk		 w[CTL_WK_MAX];
	unsigned		 n;
	int			 opened[CTL_WK_MAX_ROLES];
	int			 stopping;	/* the workers were asked */
	int			 reaping;	/* after the loop */
	int			 failed;
	struct ctl_gather	*gather;
	char			 token[CTL_WK_TOKEN_LEN + 1];
} wp;

/* A worker's. */
static struct {
	int			 wfd, rfd;
	struct procs_reader	*rd;
	uint64_t		 told[CTL_WK_MAX_ROLES];
	int			 told_any[CTL_WK_MAX_ROLES];
	int			 done_told;
} wc = { .wfd = -1, .rfd = -1 };

static void	wk_line(void *, unsigned, const char *);
static void	wk_ended(void *, unsigned, int);

/* ---- the forks ---- */

static void
wk_token(char *token, size_t len)
{
	static const char	 hex[] = "0123456789abcdef";
	unsigned char		 b[CTL_WK_TOKEN_LEN / 2];
	size_t			 i;
	int			 fd;

	if (len < sizeof(b) * 2 + 1)
		fatalx("worker token buffer too small");
	if ((fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) == -1 ||
	    read(fd, b, sizeof(b)) != (ssize_t)sizeof(b))
		fatal("--workers: /dev/urandom");
	close(fd);
	for (i = 0; i < sizeof(b); i++) {
		token[2 * i] = hex[b[i] >> 4];
		token[2 * i + 1] = hex[b[i] & 0xf];
	}
	token[2 * i] = '\0';
}

/* Each worker's summary file, made before the forks. */
static void
wk_summary_files(unsigned n)
{
	unsigned	i;

	for (i = 0; i < n; i++)
		if (procs_tmpfile("sbsim-ctl", "a summary file", wp.w[i].out,
		    sizeof(wp.w[i].out)) == -1)
			fatalx("--workers: TMPDIR %s is too long",
			    procs_tmpdir());
}

int
ctl_wk_fork(unsigned n, char *token, size_t tokenlen)
{
	static const struct procs_ops	ops = {
		"worker", wk_line, wk_ended
	};
	int				i, fd;

	wk_token(wp.token, sizeof(wp.token));
	if (tokenlen < sizeof(wp.token))
		fatalx("worker token buffer too small");
	memcpy(token, wp.token, sizeof(wp.token));
	wp.n = n;
	wk_summary_files(n);
	/* Each worker its own process group: a terminal's ^C reaches the
	 * parent, which stops the workers itself. */
	wp.ps = procs_new(n, PROCS_DOWN | PROCS_OWN_GROUP, &ops, NULL);
	if ((i = procs_fork(wp.ps, &wc.wfd, &wc.rfd)) == -1)
		return -1;
	procs_free(wp.ps);	/* the worker's copy */
	wp.ps = NULL;
	if ((fd = open(wp.w[i].out, O_WRONLY | O_TRUNC)) == -1 ||
	    dup2(fd, STDOUT_FILENO) == -1)
		fatal("--workers: its summary file");
	close(fd);
	ctl_worker = 1;
	return i;
}

/* ---- the worker's side ---- */

static void
wc_line(void *arg, const char *line)
{
	const struct ctl_role *const	*roles = arg;
	unsigned			 i;
	size_t				 k;

	if (sscanf(line, "open %u", &i) != 1 || i >= CTL_WK_MAX_ROLES) {
		log_warnx("the parent said what no worker knows: %.64s", line);
		return;
	}
	for (k = 0; k <= i; k++)
		if (roles[k] == NULL)
			return;
	if (roles[i]->gate_open != NULL)
		roles[i]->gate_open(roles[i]->cfg);
}

static void
wc_eof(void *arg)
{
	(void)arg;
	engine_stop("the parent went away");
}

void
ctl_wk_child_start(uint16_t rc_port, const struct ctl_role *const *roles)
{
	wc.rd = procs_reader_new(engine_base(), wc.rfd, wc_line, wc_eof,
	    (void *)roles);
	procs_write_line(wc.wfd, "rc %u\n", rc_port);
}

void
ctl_wk_child_tick(const struct ctl_role *const *roles, const int *on,
    size_t n_roles)
{
	uint64_t	h;
	size_t		i;

	for (i = 0; i < n_roles && i < CTL_WK_MAX_ROLES; i++) {
		if (!on[i] || roles[i]->gate_held == NULL)
			continue;
		h = roles[i]->gate_held(roles[i]->cfg);
		if (wc.told_any[i] && h == wc.told[i])
			continue;
		wc.told_any[i] = 1;
		wc.told[i] = h;
		procs_write_line(wc.wfd, "held %zu %llu\n", i,
		    (unsigned long long)h);
	}
}

void
ctl_wk_done(void)
{
	if (wc.done_told)
		return;
	wc.done_told = 1;
	procs_write_line(wc.wfd, "done\n");
}

void
ctl_wk_child_end(void)
{
	fflush(stdout);
	procs_reader_free(wc.rd);
	wc.rd = NULL;
	close(wc.wfd);
	close(wc.rfd);
	wc.wfd = wc.rfd = -1;
}

/* ---- the parent's side ---- */

static const char *
wk_role_name(size_t i)
{
	return wp.run->roles[i]->name;
}

/* What a worker had done, for the message when it died. */
static void
wk_progress(const struct wk *w, char *buf, size_t len)
{
	size_t	i, off = 0;
	int	k;

	buf[0] = '\0';
	for (i = 0; i < wp.run->n_roles && i < CTL_WK_MAX_ROLES; i++) {
		if (!wp.run->on[i] || wp.run->roles[i]->gate_held == NULL)
			continue;
		k = snprintf(buf + off, len - off, "held %llu %s devices, ",
		    (unsigned long long)w->held[i], wk_role_name(i));
		if (k < 0 || (size_t)k >= len - off)
			return;
		off += (size_t)k;
	}
	snprintf(buf + off, len - off, "%s%s", w->done ? "done" : "not done",
	    wp.run->http == NULL ? "" : w->rc_port ? ", RESTCONF up" :
	    ", RESTCONF not up");
}

static void
wk_stop_all(const char *why)
{
	if (wp.stopping)
		return;
	wp.stopping = 1;
	log_info("stopping the workers: %s", why);
	procs_interrupt(wp.ps, SIGTERM);
	engine_stop(why);
}

/* The sum of role i's devices over the workers reached what the run
 * waits for: every worker opens its gate. */
static void
wk_gate_check(size_t i)
{
	uint64_t	sum = 0, want;
	unsigned	k;

	if (wp.opened[i] || wp.run->roles[i]->gate_want == NULL ||
	    (want = wp.run->roles[i]->gate_want(wp.run->roles[i]->cfg)) == 0)
		return;
	for (k = 0; k < wp.n; k++)
		sum += wp.w[k].held[i];
	if (sum < want)
		return;
	wp.opened[i] = 1;
	log_info("the workers hold %llu %s devices: go",
	    (unsigned long long)sum, wk_role_name(i));
	for (k = 0; k < wp.n; k++)
		procs_send(wp.ps, k, "open %zu\n", i);
}

static void
wk_done_check(void)
{
	unsigned	k;

	for (k = 0; k < wp.n; k++)
		if (!wp.w[k].done)
			return;
	wk_stop_all("every worker is done");
}

static void
wk_line(void *arg, unsigned wi, const char *line)
{
	struct wk		*w = &wp.w[wi];
	unsigned		 port;
	size_t			 i;
	unsigned long long	 h;

	(void)arg;
	if (sscanf(line, "rc %u", &port) == 1 && port <= 65535) {
		w->rc_port = (uint16_t)port;
		if (wp.gather != NULL)
			ctl_gather_port(wp.gather, wi, w->rc_port);
	} else if (sscanf(line, "held %zu %llu", &i, &h) == 2 &&
	    i < wp.run->n_roles && i < CTL_WK_MAX_ROLES) {
		w->held[i] = h;
		wk_gate_check(i);
	} else if (strcmp(line, "done") == 0) {
		w->done = 1;
		wk_done_check();
	} else
		log_warnx("worker %u said what the parent does not know: "
		    "%.64s", wi, line);
}

/* How a worker ended, or NULL when it ended as asked. */
static const char *
wk_how(int status, char *buf, size_t len)
{
	if (procs_status_text(status, 0, buf, len) != NULL)
		return buf;
	if (!wp.stopping)
		snprintf(buf, len, "ended before the parent asked it to");
	else
		return NULL;
	return buf;
}

/* A worker's end: one not asked to end, or ending badly, fails the run
 * (while the loop runs, the rest are stopped and what it had told is
 * said). */
static void
wk_ended(void *arg, unsigned i, int status)
{
	char	how[96], what[256];
	long	pid = (long)procs_pid(wp.ps, i);

	(void)arg;
	if (wk_how(status, how, sizeof(how)) == NULL)
		return;
	wp.failed = 1;
	if (wp.reaping) {
		log_warnx("worker %u of %u (pid %ld) %s", i, wp.n, pid, how);
		return;
	}
	wk_progress(&wp.w[i], what, sizeof(what));
	log_warnx("worker %u of %u (pid %ld) %s; it had %s", i, wp.n, pid,
	    how, what);
	wk_stop_all("a worker failed");
}

static void
wk_tick(evutil_socket_t fd, short what, void *arg)
{
	uint64_t	*start = arg;

	(void)fd;
	(void)what;
	if (wp.run->duration > 0 &&
	    secs_between(*start, clock_ns()) >= wp.run->duration)
		wk_stop_all("--duration reached");
}

/* A worker's summary file, NUL-terminated (an empty string when none). */
static char *
wk_slurp(const char *path)
{
	FILE	*f;
	char	*s;
	long	 len;

	if ((f = fopen(path, "r")) == NULL || fseek(f, 0, SEEK_END) == -1 ||
	    (len = ftell(f)) < 0 || len > 16 * 1024 * 1024 ||
	    fseek(f, 0, SEEK_SET) == -1) {
		if (f != NULL)
			fclose(f);
		return xstrdup("");
	}
	s = xcalloc(1, (size_t)len + 1);
	if (fread(s, 1, (size_t)len, f) != (size_t)len)
		s[0] = '\0';
	fclose(f);
	return s;
}

static void
wk_summary(void)
{
	char		*lines[CTL_WK_MAX], *sum;
	unsigned	 i;

	for (i = 0; i < wp.n; i++) {
		lines[i] = wk_slurp(wp.w[i].out);
		unlink(wp.w[i].out);
	}
	sum = ctl_wk_sum_lines(lines, wp.n);
	fputs(sum, stdout);
	fflush(stdout);
	free(sum);
	for (i = 0; i < wp.n; i++)
		free(lines[i]);
}

/* The parent's RESTCONF, gathered from the workers'; NULL without. */
static struct http_server *
wk_http_new(const struct ctl_wk_run *run)
{
	struct http_server	*hs;
	char			 err[256];

	if (run->http == NULL)
		return NULL;
	if ((hs = http_server_new(engine_base(), run->http, err,
	    sizeof(err))) == NULL) {
		log_warnx("%s", err);
		wp.failed = 1;
		wk_stop_all("no RESTCONF");
		return NULL;
	}
	log_info("serving RESTCONF on %s port %u for %u workers",
	    http_server_address(run->http), run->http->port, wp.n);
	wp.gather = ctl_gather_new(hs, wp.n, wp.token);
	return hs;
}

int
ctl_wk_parent(const struct ctl_wk_run *run)
{
	struct http_server	*hs;
	struct event		*tick;
	struct timeval		 tv = { 0, 100000 };
	uint64_t		 start;

	wp.run = run;
	engine_init();
	procs_watch(wp.ps, engine_base());
	hs = wk_http_new(run);
	start = clock_ns();
	tick = engine_timer_new(EV_PERSIST, wk_tick, &start);
	engine_timer_add(tick, &tv);
	if (!wp.stopping)
		engine_run();
	event_free(tick);
	if (wp.gather != NULL)
		ctl_gather_free(wp.gather);
	wp.gather = NULL;
	/* Every worker asked to stop, and waited for. */
	wp.stopping = wp.reaping = 1;
	procs_stop(wp.ps, SIGTERM, WK_STOP_WAIT_S);
	procs_free(wp.ps);
	wp.ps = NULL;
	wk_summary();
	if (hs != NULL) {
		ctl_http_summary(hs);
		http_server_free(hs);
	}
	engine_free();
	if (wp.failed)
		fprintf(stderr, "sbsim controller: a worker failed: the run "
		    "FAILED\n");
	return wp.failed ? 1 : 0;
}

void
ctl_http_summary(const struct http_server *hs)
{
	const struct http_server_stats	*h = http_server_stats(hs);

	printf("restconf: %llu requests, %llu 2xx, %llu 4xx, %llu 5xx, %llu "
	    "bodies refused unread, %llu head timeouts, %llu connections at "
	    "most, %llu pauses at the connection limit, %llu bodies nested "
	    "too deep, %llu with too many attributes, %llu idle connections "
	    "closed for new ones\n",
	    (unsigned long long)h->requests,
	    (unsigned long long)h->status_2xx,
	    (unsigned long long)h->status_4xx,
	    (unsigned long long)h->status_5xx,
	    (unsigned long long)h->unauth_bodies,
	    (unsigned long long)h->head_timeouts,
	    (unsigned long long)h->conns_max,
	    (unsigned long long)h->cap_pauses,
	    (unsigned long long)h->too_deep,
	    (unsigned long long)h->too_many_attrs,
	    (unsigned long long)h->idle_closed);
	fflush(stdout);
}

/* ---- the summary ---- */

/* A figure starts here: a digit not inside a word or another figure. */
static int
wk_fig_start(const char *s, const char *p)
{
	return isdigit((unsigned char)*p) && (p == s ||
	    (!isalnum((unsigned char)p[-1]) && p[-1] != '.' && p[-1] != '_' &&
	    p[-1] != '-' && p[-1] != ':'));
}

/* A line's text with each figure '#', and its figures. */
#define WK_MAX_FIGS	64
struct wk_line {
	char		 skel[1024];
	double		 v[WK_MAX_FIGS];
	int		 prec[WK_MAX_FIGS];	/* digits after '.', -1: whole */
	int		 largest[WK_MAX_FIGS];	/* a time: the largest */
	size_t		 n;
};

/* A unit of time after a figure: " s", " ms" or " us", a word. */
static int
wk_time_unit(const char *s, size_t len)
{
	static const char *const	units[] = { " s", " ms", " us", NULL };
	size_t				i, u;

	for (i = 0; units[i] != NULL; i++) {
		u = strlen(units[i]);
		if (len >= u && strncmp(s, units[i], u) == 0 &&
		    (len == u || !isalnum((unsigned char)s[u])))
			return 1;
	}
	return 0;
}

static int
wk_parse_line(const char *s, size_t len, struct wk_line *l)
{
	size_t	 i = 0, o = 0;
	char	*end;

	l->n = 0;
	while (i < len) {
		if (o + 2 >= sizeof(l->skel))
			return -1;
		if (!wk_fig_start(s, s + i)) {
			l->skel[o++] = s[i++];
			continue;
		}
		if (l->n == WK_MAX_FIGS)
			return -1;
		l->v[l->n] = strtod(s + i, &end);
		l->prec[l->n] = -1;
		if (memchr(s + i, '.', (size_t)(end - (s + i))) != NULL)
			l->prec[l->n] = (int)(end - strchr(s + i, '.') - 1);
		i = (size_t)(end - s);
		l->largest[l->n] = l->prec[l->n] >= 0 ||
		    wk_time_unit(s + i, len - i);
		l->n++;
		l->skel[o++] = '#';
	}
	l->skel[o] = '\0';
	return 0;
}

static void
wk_emit_line(char **out, size_t *olen, const char *s, size_t len)
{
	*out = xreallocarray(*out, *olen + len + 2, 1);
	memcpy(*out + *olen, s, len);
	*olen += len;
	(*out)[(*olen)++] = '\n';
	(*out)[*olen] = '\0';
}

/* The summed line l (figures in l->v) as text. */
static void
wk_emit_sum(char **out, size_t *olen, const struct wk_line *l)
{
	char		 buf[2048], num[64];
	size_t		 o = 0, k = 0, i;

	for (i = 0; l->skel[i] != '\0' && o + 64 < sizeof(buf); i++) {
		if (l->skel[i] != '#') {
			buf[o++] = l->skel[i];
			continue;
		}
		/* " in 0.000 s": a one-process line leaves it out. */
		if (l->prec[k] >= 0 && l->v[k] == 0 && o >= 4 &&
		    memcmp(buf + o - 4, " in ", 4) == 0 &&
		    strncmp(l->skel + i + 1, " s", 2) == 0) {
			o -= 4;
			i += 2;
			k++;
			continue;
		}
		if (l->prec[k] >= 0)
			snprintf(num, sizeof(num), "%.*f", l->prec[k], l->v[k]);
		else
			snprintf(num, sizeof(num), "%.0f", l->v[k]);
		k++;
		memcpy(buf + o, num, strlen(num));
		o += strlen(num);
	}
	wk_emit_line(out, olen, buf, o);
}

/* Line number k of s: its start and length; -1 when there is none. */
static int
wk_nth_line(const char *s, size_t k, const char **start, size_t *len)
{
	const char	*nl;

	for (; k > 0; k--) {
		if ((nl = strchr(s, '\n')) == NULL)
			return -1;
		s = nl + 1;
	}
	if (*s == '\0')
		return -1;
	*start = s;
	nl = strchr(s, '\n');
	*len = nl != NULL ? (size_t)(nl - s) : strlen(s);
	return 0;
}

char *
ctl_wk_sum_lines(char *const *lines, size_t n)
{
	struct wk_line	*sum, *one;
	const char	*s;
	char		*out = xstrdup(""), note[64];
	size_t		 olen = 0, k, w, j, len, most;
	int		 alike;

	sum = xcalloc(1, sizeof(*sum));
	one = xcalloc(1, sizeof(*one));
	for (k = 0;; k++) {
		alike = 1;
		most = 0;
		for (w = 0; w < n; w++) {
			if (wk_nth_line(lines[w], k, &s, &len) == -1)
				continue;
			if (wk_parse_line(s, len, most == 0 ? sum : one) == -1 ||
			    (most > 0 && (strcmp(one->skel, sum->skel) != 0 ||
			    one->n != sum->n)))
				alike = 0;
			for (j = 0; alike && most > 0 && j < sum->n; j++) {
				if (sum->largest[j])
					sum->v[j] = one->v[j] > sum->v[j] ?
					    one->v[j] : sum->v[j];
				else
					sum->v[j] += one->v[j];
			}
			most++;
		}
		if (most == 0)
			break;
		if (alike) {
			wk_emit_sum(&out, &olen, sum);
			/* A worker that died wrote nothing: say whose. */
			if (most < n) {
				snprintf(note, sizeof(note), "(the sum of %zu "
				    "of %zu workers)", most, n);
				wk_emit_line(&out, &olen, note, strlen(note));
			}
			continue;
		}
		for (w = 0; w < n; w++) {
			if (wk_nth_line(lines[w], k, &s, &len) == -1)
				continue;
			snprintf(note, sizeof(note), "worker %zu: ", w);
			out = xreallocarray(out, olen + strlen(note) + 1, 1);
			memcpy(out + olen, note, strlen(note) + 1);
			olen += strlen(note);
			wk_emit_line(&out, &olen, s, len);
		}
	}
	free(sum);
	free(one);
	return out;
}
