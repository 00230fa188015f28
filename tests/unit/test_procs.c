/*
 * The worker mechanism (src/core/procs.h) with real forks: children that
 * write lines, one that dies, the parent's lines down, signals forwarded,
 * and a child that ignores SIGINT stopped within the bounded wait.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "log.h"
#include "procs.h"
#include "check.h"

#define KIDS	3

/* What the parent heard. */
struct heard {
	char	lines[KIDS][8][64];
	int	nlines[KIDS];
	int	ended[KIDS];
	int	status[KIDS];
	int	order;			/* ends so far */
	struct procs *ps;
	void	(*on_line)(struct heard *, unsigned, const char *);
};

static void
heard_line(void *arg, unsigned i, const char *line)
{
	struct heard	*h = arg;

	if (i < KIDS && h->nlines[i] < 8)
		snprintf(h->lines[i][h->nlines[i]++], 64, "%s", line);
	if (h->on_line != NULL)
		h->on_line(h, i, line);
}

static void
heard_ended(void *arg, unsigned i, int status)
{
	struct heard	*h = arg;

	if (i < KIDS) {
		h->ended[i] = ++h->order;
		h->status[i] = status;
	}
}

static const struct procs_ops heard_ops = {
	"child", heard_line, heard_ended
};

static double
now_s(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A line written in two pieces arrives whole; exit i, or 9 when the
 * child has a pipe down it did not ask for. */
static void
child_lines(unsigned i, int up, int down)
{
	procs_write_line(up, "hello %u\n", i);
	if (write(up, "half", 4) != 4)
		_exit(9);
	usleep(20000);
	if (write(up, " and half\n", 10) != 10)
		_exit(9);
	procs_write_line(up, "bye %u\n", i);
	_exit(down == -1 ? (int)i : 9);
}

static void
test_lines(void)
{
	struct heard		 h;
	struct event_base	*base = event_base_new();
	struct procs		*ps;
	int			 up, down, i;
	char			 want[32];

	memset(&h, 0, sizeof(h));
	ps = procs_new(KIDS, 0, &heard_ops, &h);
	if ((i = procs_fork(ps, &up, &down)) != -1)
		child_lines((unsigned)i, up, down);
	procs_watch(ps, base);
	procs_run(ps);
	CHECK(procs_running(ps) == 0, "every child ended");
	for (i = 0; i < KIDS; i++) {
		snprintf(want, sizeof(want), "hello %d", i);
		CHECK(h.nlines[i] == 3 && strcmp(h.lines[i][0], want) == 0 &&
		    strcmp(h.lines[i][1], "half and half") == 0,
		    "child %d: %d lines, first [%s] second [%s]", i,
		    h.nlines[i], h.lines[i][0], h.lines[i][1]);
		CHECK(h.ended[i] > 0 && WIFEXITED(h.status[i]) &&
		    WEXITSTATUS(h.status[i]) == i && procs_ended(ps,
		    (unsigned)i) && procs_status(ps, (unsigned)i) ==
		    h.status[i], "child %d ended, exit %d", i,
		    WEXITSTATUS(h.status[i]));
	}
	procs_free(ps);
	event_base_free(base);
}

/* Child 1 dies by a signal after a line; the parent, told, stops the
 * others (who would wait for ever) with one SIGINT. */
static void
stop_on_death(void *arg, unsigned i, int status)
{
	struct heard	*h = arg;

	heard_ended(arg, i, status);
	if (WIFSIGNALED(status))
		procs_interrupt(h->ps, SIGINT);
}

static void
test_dies(void)
{
	static const struct procs_ops	 ops = {
		"child", heard_line, stop_on_death
	};
	struct heard		 h;
	struct event_base	*base = event_base_new();
	char			 how[64];
	int			 up, down, i;

	memset(&h, 0, sizeof(h));
	h.ps = procs_new(KIDS, 0, &ops, &h);
	if ((i = procs_fork(h.ps, &up, &down)) != -1) {
		procs_write_line(up, "up %d\n", i);
		if (i == 1)
			raise(SIGKILL);
		for (;;)
			pause();
	}
	procs_watch(h.ps, base);
	procs_run(h.ps);
	CHECK(h.ended[1] == 1 && WIFSIGNALED(h.status[1]) &&
	    WTERMSIG(h.status[1]) == SIGKILL, "child 1 ended first, killed");
	CHECK(procs_status_text(h.status[1], 1, how, sizeof(how)) != NULL &&
	    strcmp(how, "was killed by signal 9 (Killed)") == 0,
	    "its end in words: [%s]", how);
	CHECK(h.nlines[1] == 1 && strcmp(h.lines[1][0], "up 1") == 0,
	    "its line came before its end");
	CHECK(WIFSIGNALED(h.status[0]) && WTERMSIG(h.status[0]) == SIGINT &&
	    WIFSIGNALED(h.status[2]) && WTERMSIG(h.status[2]) == SIGINT,
	    "the others stopped by SIGINT");
	CHECK(procs_interrupt(h.ps, SIGINT) == 0, "interrupted once only");
	procs_free(h.ps);
	event_base_free(base);
}

/* A child reading its parent's lines on its own loop, answering each. */
static void
echo_line(void *arg, const char *line)
{
	int	*up = arg;

	procs_write_line(*up, "echo %s\n", line);
}

static void
echo_eof(void *arg)
{
	(void)arg;
	_exit(0);
}

static void
child_echo(int up, int down)
{
	struct event_base	*base = event_base_new();

	procs_reader_new(base, down, echo_line, echo_eof, &up);
	procs_write_line(up, "ready\n");
	event_base_dispatch(base);
	_exit(3);
}

static void
ping_on_ready(struct heard *h, unsigned i, const char *line)
{
	if (strcmp(line, "ready") == 0)
		procs_send(h->ps, i, "ping %u\n", i);
	else		/* the answer: done */
		procs_interrupt(h->ps, SIGTERM);
}

static void
test_down(void)
{
	struct heard		 h;
	struct event_base	*base = event_base_new();
	int			 up, down, i;

	memset(&h, 0, sizeof(h));
	h.on_line = ping_on_ready;
	h.ps = procs_new(1, PROCS_DOWN, &heard_ops, &h);
	if (procs_fork(h.ps, &up, &down) == 0)
		child_echo(up, down);
	procs_watch(h.ps, base);
	procs_run(h.ps);
	CHECK(h.nlines[0] == 2 && strcmp(h.lines[0][1], "echo ping 0") == 0,
	    "the child answered the parent's line: [%s]", h.lines[0][1]);
	i = h.status[0];
	CHECK(WIFSIGNALED(i) && WTERMSIG(i) == SIGTERM, "stopped by SIGTERM");
	procs_free(h.ps);
	event_base_free(base);
}

/* A SIGTERM to the parent while it watches goes on as SIGINT. */
static void
raise_term(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	kill(getpid(), SIGTERM);
}

static void
test_forward(void)
{
	struct heard		 h;
	struct event_base	*base = event_base_new();
	struct timeval		 tv = { 0, 50000 };
	struct event		*ev;
	int			 up, down, i;

	memset(&h, 0, sizeof(h));
	h.ps = procs_new(2, PROCS_OWN_GROUP, &heard_ops, &h);
	if (procs_fork(h.ps, &up, &down) != -1)
		for (;;)
			pause();
	procs_forward_signals(h.ps, SIGINT);
	procs_watch(h.ps, base);
	ev = evtimer_new(base, raise_term, NULL);
	evtimer_add(ev, &tv);
	procs_run(h.ps);
	for (i = 0; i < 2; i++)
		CHECK(WIFSIGNALED(h.status[i]) && WTERMSIG(h.status[i]) ==
		    SIGINT, "child %d got SIGINT", i);
	CHECK(procs_caught(h.ps) == SIGTERM, "the parent caught SIGTERM");
	event_free(ev);
	procs_free(h.ps);
	event_base_free(base);
	/* The loop's handler is gone: the default is back. */
	CHECK(signal(SIGTERM, SIG_DFL) == SIG_DFL, "SIGTERM's default back");
}

/* One child ignores SIGINT: procs_stop() kills it after its wait. */
static void
test_stop_bounded(void)
{
	struct heard		 h;
	struct event_base	*base = event_base_new();
	double			 t0;
	int			 up, down, i;

	memset(&h, 0, sizeof(h));
	h.ps = procs_new(2, 0, &heard_ops, &h);
	if ((i = procs_fork(h.ps, &up, &down)) != -1) {
		if (i == 1)
			signal(SIGINT, SIG_IGN);
		procs_write_line(up, "set\n");
		for (;;)
			pause();
	}
	/* Each has set its signals once its line is in. */
	procs_watch(h.ps, base);
	while (h.nlines[0] + h.nlines[1] < 2)
		event_base_loop(base, EVLOOP_ONCE);
	t0 = now_s();
	procs_stop(h.ps, SIGINT, 1);
	CHECK(WIFSIGNALED(h.status[0]) && WTERMSIG(h.status[0]) == SIGINT,
	    "child 0 stopped by SIGINT");
	CHECK(WIFSIGNALED(h.status[1]) && WTERMSIG(h.status[1]) == SIGKILL,
	    "child 1, ignoring SIGINT, killed");
	/* 1 s counted in whole seconds, then the kill: not the 5 s more a
	 * second SIGKILL would wait. */
	CHECK(now_s() - t0 < 5, "within the bounded wait: %.1f s",
	    now_s() - t0);
	CHECK(now_s() - t0 >= 1, "after the wait: %.1f s", now_s() - t0);
	procs_free(h.ps);
	event_base_free(base);
}

/* A child's file in $TMPDIR, unique; a path too long refused. */
static void
test_tmpfile(void)
{
	char	dir[] = "/tmp/test_procs.XXXXXX", path[64], a[80], b[80];
	char	*old = getenv("TMPDIR");

	old = old != NULL ? xstrdup(old) : NULL;

	if (mkdtemp(dir) == NULL) {
		CHECK(0, "mkdtemp");
		free(old);
		return;
	}
	setenv("TMPDIR", dir, 1);
	CHECK(strcmp(procs_tmpdir(), dir) == 0, "TMPDIR: %s", procs_tmpdir());
	CHECK(procs_tmpfile("sbsim-x", "a file", a, sizeof(a)) == 0 &&
	    procs_tmpfile("sbsim-x", "a file", b, sizeof(b)) == 0 &&
	    strncmp(a, dir, strlen(dir)) == 0 && strcmp(a, b) != 0 &&
	    access(a, F_OK) == 0 && access(b, F_OK) == 0,
	    "two files made: %s %s", a, b);
	CHECK(procs_tmpfile("a-name-too-long-for-its-buffer-of-64-bytes",
	    "a file", path, sizeof(path)) == -1, "a path too long refused");
	unlink(a);
	unlink(b);
	rmdir(dir);
	setenv("TMPDIR", "", 1);
	CHECK(strcmp(procs_tmpdir(), "/tmp") == 0, "empty TMPDIR: /tmp");
	if (old != NULL)
		setenv("TMPDIR", old, 1);
	else
		unsetenv("TMPDIR");
	free(old);
}

static const struct check_case cases[] = {
	CASE(test_lines),
	CASE(test_dies),
	CASE(test_down),
	CASE(test_forward),
	CASE(test_stop_bounded),
	CASE(test_tmpfile),
};

int
main(int argc, char **argv)
{
	log_init("test_procs", 0);
	/* A stop that never ends fails the test rather than hang it. */
	alarm(50);
	/* As a shell without job control starts a background command: the
	 * children must still stop on the SIGINT the parent sends them. */
	signal(SIGINT, SIG_IGN);
	return check_run(cases, argc, argv);
}
