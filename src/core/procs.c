/*
 * Forked children that talk to their parent in lines (procs.h): the
 * forks and pipes, the lines read on a libevent loop, each child's end
 * (its pipe at EOF, then waitpid), the signals forwarded, and the
 * bounded stop.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "engine.h"
#include "log.h"
#include "procs.h"

/* How often a child whose pipe closed is looked for until it is reaped,
 * and how often procs_stop() looks. */
#define PROCS_REAP_US	20000
/* After SIGKILL, how long before it is sent again. */
#define PROCS_KILL_WAIT_S	5

struct procs_reader {
	struct event	*ev;
	int		 fd;
	char		 buf[PROCS_LINE_MAX];
	size_t		 len;
	void		(*line)(void *, const char *);
	void		(*eof)(void *);
	void		*arg;
};

struct proc {
	struct procs		*ps;
	unsigned		 i;
	pid_t			 pid;
	int			 up;		/* the parent's read end */
	int			 down;		/* its write end, or -1 */
	struct procs_reader	*rd;
	int			 closed;	/* up is at EOF */
	int			 ended;		/* reaped */
	int			 status;	/* waitpid's */
};

struct procs {
	unsigned		 n;
	int			 flags;
	struct procs_ops	 ops;
	void			*arg;
	struct proc		*p;
	int			 child;		/* this is a child's copy */
	struct event_base	*base;		/* watched on, or NULL */
	struct event		*reap;
	struct event		*sig[2];	/* SIGINT, SIGTERM */
	int			 fwd_sig;
	int			 caught;
	int			 interrupted;
};

/* ---- lines ---- */

/* Whole lines read from r->fd handed to r->line; 0, or -1 at EOF or an
 * error.  A line longer than the buffer is dropped. */
static int
reader_lines(struct procs_reader *r)
{
	ssize_t	 n;
	char	*nl;

	n = read(r->fd, r->buf + r->len, sizeof(r->buf) - 1 - r->len);
	if (n == -1 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0)
		return -1;
	r->len += (size_t)n;
	r->buf[r->len] = '\0';
	while ((nl = strchr(r->buf, '\n')) != NULL) {
		*nl = '\0';
		r->line(r->arg, r->buf);
		r->len -= (size_t)(nl + 1 - r->buf);
		memmove(r->buf, nl + 1, r->len + 1);
	}
	if (r->len == sizeof(r->buf) - 1)	/* no line is this long */
		r->len = 0;
	return 0;
}

static void
reader_read(evutil_socket_t fd, short what, void *arg)
{
	struct procs_reader	*r = arg;

	(void)fd;
	(void)what;
	if (reader_lines(r) == -1) {
		event_del(r->ev);
		r->eof(r->arg);
	}
}

struct procs_reader *
procs_reader_new(struct event_base *base, int fd,
    void (*line)(void *, const char *), void (*eof)(void *), void *arg)
{
	struct procs_reader	*r = xcalloc(1, sizeof(*r));

	r->fd = fd;
	r->line = line;
	r->eof = eof;
	r->arg = arg;
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	r->ev = event_new(base, fd, EV_READ | EV_PERSIST, reader_read, r);
	if (r->ev == NULL || event_add(r->ev, NULL) == -1)
		fatalx("cannot watch a pipe (fd %d)", fd);
	return r;
}

void
procs_reader_free(struct procs_reader *r)
{
	if (r == NULL)
		return;
	event_free(r->ev);
	free(r);
}

static void
procs_vwrite(int fd, const char *fmt, va_list ap)
{
	char	line[PROCS_LINE_MAX];
	int	len;

	len = vsnprintf(line, sizeof(line), fmt, ap);
	if (fd == -1 || len <= 0 || (size_t)len >= sizeof(line))
		return;
	/* Lines shorter than PIPE_BUF are written whole. */
	while (write(fd, line, (size_t)len) == -1 && errno == EINTR)
		;
}

void
procs_write_line(int fd, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	procs_vwrite(fd, fmt, ap);
	va_end(ap);
}

void
procs_send(struct procs *ps, unsigned i, const char *fmt, ...)
{
	va_list	ap;

	if (i >= ps->n)
		return;
	va_start(ap, fmt);
	procs_vwrite(ps->p[i].down, fmt, ap);
	va_end(ap);
}

/* ---- the table and the forks ---- */

struct procs *
procs_new(unsigned n, int flags, const struct procs_ops *ops, void *arg)
{
	struct procs	*ps = xcalloc(1, sizeof(*ps));
	unsigned	 i;

	ps->n = n;
	ps->flags = flags;
	ps->ops = *ops;
	ps->arg = arg;
	ps->p = xcalloc(n, sizeof(*ps->p));
	for (i = 0; i < n; i++) {
		ps->p[i].ps = ps;
		ps->p[i].i = i;
		ps->p[i].up = ps->p[i].down = -1;
	}
	return ps;
}

static void
fd_close(int *fd)
{
	if (*fd != -1)
		close(*fd);
	*fd = -1;
}

/* In child i: the parent's ends of the pipes to its elder siblings. */
static void
procs_close_siblings(struct procs *ps, unsigned i)
{
	unsigned	j;

	for (j = 0; j < i; j++) {
		fd_close(&ps->p[j].up);
		fd_close(&ps->p[j].down);
	}
}

/* Fork child i: 1 in the child (its ends in up and down), 0 in the
 * parent. */
/* An ignored signal back to its default; a handler the child inherited
 * (the run's own stop) is kept. */
static void
procs_unignore(int sig)
{
	struct sigaction	sa;

	if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
		signal(sig, SIG_DFL);
}

/*
 * fork(), the child able to be stopped by SIGINT and SIGTERM, as the
 * parent stops its children: a shell that started sbsim in the background
 * (no job control) left both ignored, and an ignored disposition survives
 * fork and exec.  They are blocked across the fork so that one the parent
 * sends before the child has reset them waits, and then acts.
 */
static pid_t
procs_fork_stoppable(void)
{
	sigset_t	stop, old;
	pid_t		pid;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop, &old);
	pid = fork();
	if (pid == 0) {
		procs_unignore(SIGINT);
		procs_unignore(SIGTERM);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

static int
procs_fork_one(struct procs *ps, unsigned i, int *up, int *down)
{
	struct proc	*p = &ps->p[i];
	int		 u[2], d[2] = { -1, -1 };
	pid_t		 pid;

	if (pipe(u) == -1 || ((ps->flags & PROCS_DOWN) && pipe(d) == -1))
		fatal("--workers: starting %s %u", ps->ops.noun, i);
	if ((pid = procs_fork_stoppable()) == -1)
		fatal("--workers: starting %s %u", ps->ops.noun, i);
	if (pid == 0) {
		if (ps->flags & PROCS_OWN_GROUP)
			setpgid(0, 0);
		procs_close_siblings(ps, i);
		close(u[0]);
		fd_close(&d[1]);
		*up = u[1];
		*down = d[0];
		signal(SIGPIPE, SIG_IGN);
		ps->child = 1;
		return 1;
	}
	close(u[1]);
	fd_close(&d[0]);
	p->pid = pid;
	p->up = u[0];
	p->down = d[1];
	fcntl(p->up, F_SETFD, FD_CLOEXEC);
	if (p->down != -1)
		fcntl(p->down, F_SETFD, FD_CLOEXEC);
	return 0;
}

int
procs_fork(struct procs *ps, int *up, int *down)
{
	unsigned	i;

	fflush(stdout);
	fflush(stderr);
	for (i = 0; i < ps->n; i++)
		if (procs_fork_one(ps, i, up, down))
			return (int)i;
	/* A child gone while the parent writes to it is its end, said by
	 * waitpid, not the parent's. */
	if (ps->flags & PROCS_DOWN)
		signal(SIGPIPE, SIG_IGN);
	return -1;
}

/* ---- the ends ---- */

/* Child p reaped now or earlier: 1, its end told once. */
static int
proc_reap(struct proc *p, int options)
{
	pid_t	r;
	int	status = 0;

	if (p->ended)
		return 1;
	while ((r = waitpid(p->pid, &status, options)) == -1 &&
	    errno == EINTR)
		;
	if (r != p->pid && !(r == -1 && errno == ECHILD))
		return 0;
	p->ended = 1;
	p->status = r == p->pid ? status : 0;
	if (p->ps->ops.ended != NULL)
		p->ps->ops.ended(p->ps->arg, p->i, p->status);
	return 1;
}

/* The children whose pipes closed, looked for until each is reaped. */
static void
procs_reap_closed(evutil_socket_t fd, short what, void *arg)
{
	struct procs	*ps = arg;
	struct timeval	 tv = { 0, PROCS_REAP_US };
	unsigned	 i, left = 0;

	(void)fd;
	(void)what;
	for (i = 0; i < ps->n; i++)
		if (ps->p[i].closed && !proc_reap(&ps->p[i], WNOHANG))
			left++;
	if (left > 0 && ps->reap != NULL)
		event_add(ps->reap, &tv);
}

static void
proc_line(void *arg, const char *line)
{
	struct proc	*p = arg;

	if (p->ps->ops.line != NULL)
		p->ps->ops.line(p->ps->arg, p->i, line);
}

static void
proc_eof(void *arg)
{
	struct proc	*p = arg;

	p->closed = 1;
	procs_reap_closed(-1, 0, p->ps);
}

/* ---- the parent's loop ---- */

static void
procs_on_signal(evutil_socket_t sig, short what, void *arg)
{
	struct procs	*ps = arg;

	(void)what;
	ps->caught = (int)sig;
	procs_interrupt(ps, ps->fwd_sig);
}

void
procs_forward_signals(struct procs *ps, int sig)
{
	ps->fwd_sig = sig;
}

int
procs_caught(const struct procs *ps)
{
	return ps->caught;
}

void
procs_watch(struct procs *ps, struct event_base *base)
{
	static const int	sigs[2] = { SIGINT, SIGTERM };
	unsigned		i;

	ps->base = base;
	for (i = 0; i < ps->n; i++)
		if (!ps->p[i].closed)
			ps->p[i].rd = procs_reader_new(base, ps->p[i].up,
			    proc_line, proc_eof, &ps->p[i]);
	ps->reap = engine_timer_new_on(base, 0, procs_reap_closed, ps);
	for (i = 0; i < 2 && ps->fwd_sig != 0; i++) {
		ps->sig[i] = evsignal_new(base, sigs[i], procs_on_signal, ps);
		if (ps->sig[i] == NULL || evsignal_add(ps->sig[i], NULL) == -1)
			fatalx("cannot forward signals to the %ss",
			    ps->ops.noun);
	}
}

/* The loop's events gone (before its base is); the pipes stay open. */
static void
procs_unwatch(struct procs *ps)
{
	unsigned	i;

	for (i = 0; i < ps->n; i++) {
		procs_reader_free(ps->p[i].rd);
		ps->p[i].rd = NULL;
	}
	for (i = 0; i < 2; i++) {
		if (ps->sig[i] != NULL)
			event_free(ps->sig[i]);
		ps->sig[i] = NULL;
	}
	if (ps->reap != NULL)
		event_free(ps->reap);
	ps->reap = NULL;
	ps->base = NULL;
}

void
procs_run(struct procs *ps)
{
	while (procs_running(ps) > 0 && ps->base != NULL &&
	    event_base_loop(ps->base, EVLOOP_ONCE) == 0)
		;
	procs_unwatch(ps);
}

int
procs_interrupt(struct procs *ps, int sig)
{
	unsigned	i;

	if (ps->interrupted)
		return 0;
	ps->interrupted = 1;
	for (i = 0; i < ps->n; i++)
		if (!ps->p[i].ended)
			kill(ps->p[i].pid, sig);
	return 1;
}

/* The children still running at the deadline: killed. */
static void
procs_kill_late(struct procs *ps, unsigned wait_s)
{
	unsigned	i;

	for (i = 0; i < ps->n; i++)
		if (!ps->p[i].ended) {
			log_warnx("%s %u (pid %ld) did not end in %u s: "
			    "killed", ps->ops.noun, i, (long)ps->p[i].pid,
			    wait_s);
			kill(ps->p[i].pid, SIGKILL);
		}
}

void
procs_stop(struct procs *ps, int sig, unsigned wait_s)
{
	time_t		deadline = time(NULL) + wait_s;
	unsigned	i, left;
	int		killed = 0;

	procs_unwatch(ps);
	for (i = 0; i < ps->n; i++)
		if (!ps->p[i].ended)
			kill(ps->p[i].pid, sig);
	for (;;) {
		for (i = left = 0; i < ps->n; i++)
			left += !proc_reap(&ps->p[i], WNOHANG);
		if (left == 0)
			return;
		if (time(NULL) > deadline) {
			if (!killed)
				procs_kill_late(ps, wait_s);
			else
				for (i = 0; i < ps->n; i++)
					if (!ps->p[i].ended)
						kill(ps->p[i].pid, SIGKILL);
			killed = 1;
			deadline = time(NULL) + PROCS_KILL_WAIT_S;
		}
		usleep(PROCS_REAP_US);
	}
}

void
procs_free(struct procs *ps)
{
	unsigned	i;

	if (ps == NULL)
		return;
	if (!ps->child) {
		procs_unwatch(ps);
		for (i = 0; i < ps->n; i++) {
			if (!ps->p[i].ended && ps->p[i].pid > 0) {
				kill(ps->p[i].pid, SIGKILL);
				while (waitpid(ps->p[i].pid, NULL, 0) == -1 &&
				    errno == EINTR)
					;
			}
			fd_close(&ps->p[i].up);
			fd_close(&ps->p[i].down);
		}
	}
	free(ps->p);
	free(ps);
}

/* ---- what the parent asks ---- */

pid_t
procs_pid(const struct procs *ps, unsigned i)
{
	return ps->p[i].pid;
}

int
procs_ended(const struct procs *ps, unsigned i)
{
	return ps->p[i].ended;
}

int
procs_status(const struct procs *ps, unsigned i)
{
	return ps->p[i].status;
}

unsigned
procs_running(const struct procs *ps)
{
	unsigned	i, n = 0;

	for (i = 0; i < ps->n; i++)
		n += !ps->p[i].ended;
	return n;
}

const char *
procs_tmpdir(void)
{
	const char	*tmp = getenv("TMPDIR");

	return tmp != NULL && *tmp != '\0' ? tmp : "/tmp";
}

int
procs_tmpfile(const char *name, const char *what, char *path, size_t len)
{
	const char	*tmp = procs_tmpdir();
	int		 fd;

	if (snprintf(path, len, "%s/%s.XXXXXX", tmp, name) >= (int)len)
		return -1;
	if ((fd = mkstemp(path)) == -1)
		fatal("--workers: %s in %s", what, tmp);
	close(fd);
	return 0;
}

const char *
procs_status_text(int status, int max_ok, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "was killed by signal %d (%s)",
		    WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status) && WEXITSTATUS(status) > max_ok)
		snprintf(buf, len, "exited %d", WEXITSTATUS(status));
	else
		return NULL;
	return buf;
}
