/*
 * --workers N: one command's run spread over N processes on this host,
 * each a shard (--shard i/N) with its own event loop, the parent merging
 * their reports as sbsim merge does (src/merge.h).  Each worker writes
 * its report to a file of its own and, every half second, one line of
 * progress to a pipe, so that the parent can say what a worker that died
 * had done.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "engine.h"
#include "log.h"
#include "merge.h"
#include "metrics.h"
#include "report.h"
#include "run.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

#define WORKER_LINE_MAX	512

struct worker {
	pid_t		 pid;
	int		 fd;		/* progress pipe, -1 once at EOF */
	int		 status;	/* waitpid's */
	int		 reaped;
	uint32_t	 first, count;	/* its slice of the devices */
	char		 report[256];	/* its report's file */
	char		 buf[WORKER_LINE_MAX];
	size_t		 len;
	char		 last[WORKER_LINE_MAX];	/* its last progress */
};

static volatile sig_atomic_t	workers_signal;

static void
workers_on_signal(int sig)
{
	workers_signal = sig;
}

/* What --workers cannot share between processes, said before any fork. */
void
run_workers_check(const struct sim_ops *ops, const struct run_opts *ro)
{
	const char	*why = NULL;

	if (!ops->shards)
		why = "--workers: this command does not number its devices "
		    "by slice yet";
	else if (ro->shard_count > 0)
		why = "--workers does not go with --shard";
	else if (ro->n_sweep > 0 || ro->find_max > 0)
		why = "--workers does not go with --sweep or --find-max";
	else if (ro->metrics_listen != NULL)
		why = "--workers does not go with --metrics-listen (one port)";
	if (why != NULL)
		cli_die(ro, "%s", why);
}

/*
 * --fault over workers: the run's schedule, split so that the whole run
 * still gets what was asked.  A rate is shared (each worker injects
 * RATE/N into its own devices, and N Poisson processes of RATE/N make one
 * of RATE); given times go to the workers in turn (the k-th to worker
 * k mod N), each fault once.  Each worker, a shard, draws from a seed
 * of its own (run_seed()), or all would fault their k-th device at the
 * same instants.
 */
void
run_split_faults(struct fault_spec *f, size_t nf, unsigned i, unsigned n)
{
	size_t	k, j, kept;

	for (k = 0; k < nf; k++, f++) {
		if (f->rate > 0) {
			f->rate /= n;
			continue;
		}
		for (j = kept = 0; j < f->n_at; j++)
			if (j % n == i)
				f->at[kept++] = f->at[j];
		f->n_at = kept;
	}
}

/* In the worker: the parent's run options become a shard's, for one
 * run of --repeat (the parent forks the workers anew for each). */
static void
worker_become(struct run_opts *ro, struct worker *w, unsigned i,
    unsigned n, unsigned round, int fd)
{
	/* The worker's own copy: run_workers() frees the table. */
	static char	report[sizeof(w->report)];

	memcpy(report, w->report, sizeof(report));
	ro->shard_index = i;
	ro->shard_count = n;
	ro->report = report;
	ro->csv = ro->junit = NULL;
	ro->n_expects = 0;
	ro->quiet = 1;
	ro->workers = 0;
	ro->repeat = 1;
	if (round > 0)		/* --start-at is the first run's */
		ro->start_at = 0;
	ro->worker_fd = fd;
	ro->worker = 1;
	run_split_faults(ro->faults, ro->n_faults, i, n);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	/* A signal ends the worker's run as any run's (the parent's
	 * handler only forwards). */
	engine_signals();
	signal(SIGPIPE, SIG_IGN);
}

int
workers_read_lines(int fd, char *buf, size_t *len, size_t cap,
    void (*fn)(const char *, void *), void *arg)
{
	ssize_t	 n;
	char	*nl;

	n = read(fd, buf + *len, cap - 1 - *len);
	if (n == -1 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0)
		return -1;
	*len += (size_t)n;
	buf[*len] = '\0';
	while ((nl = strchr(buf, '\n')) != NULL) {
		*nl = '\0';
		fn(buf, arg);
		*len -= (size_t)(nl + 1 - buf);
		memmove(buf, nl + 1, *len + 1);
	}
	if (*len == cap - 1)		/* no line is this long: drop it */
		*len = 0;
	return 0;
}

const char *
workers_status_text(int status, int max_ok, char *buf, size_t len)
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

static void
worker_last(const char *line, void *arg)
{
	struct worker	*w = arg;

	snprintf(w->last, sizeof(w->last), "%s", line);
}

/* A worker's progress: keep its last whole line. */
static void
worker_read(struct worker *w)
{
	if (workers_read_lines(w->fd, w->buf, &w->len, sizeof(w->buf),
	    worker_last, w) == -1) {
		close(w->fd);
		w->fd = -1;
	}
}

/* Whether a worker whose pipe closed died (a signal, exit status 2 or
 * more): reaped when it has ended. */
static int
worker_died(struct worker *w)
{
	pid_t	r;

	if (!w->reaped) {
		while ((r = waitpid(w->pid, &w->status, WNOHANG)) == -1 &&
		    errno == EINTR)
			;
		w->reaped = r == w->pid;
	}
	return w->reaped && (WIFSIGNALED(w->status) ||
	    (WIFEXITED(w->status) && WEXITSTATUS(w->status) > 1));
}

/*
 * Until every pipe is at EOF.  A signal goes on to the workers; so does
 * a worker's death, as SIGINT: the run has failed, the others stop and
 * report what they did.
 */
static void
workers_wait(struct worker *ws, unsigned n)
{
	struct pollfd	*pfd = xcalloc(n, sizeof(*pfd));
	unsigned	 i, open;
	int		 fwd = 0;

	for (;;) {
		for (i = open = 0; i < n; i++) {
			pfd[i].fd = ws[i].fd;
			pfd[i].events = POLLIN;
			open += ws[i].fd != -1;
		}
		if (open == 0)
			break;
		for (i = 0; i < n && !fwd; i++)
			if (ws[i].fd == -1 && worker_died(&ws[i]))
				workers_signal = SIGINT;
		if (workers_signal && !fwd) {
			fwd = 1;
			for (i = 0; i < n; i++)
				if (!ws[i].reaped)
					kill(ws[i].pid, SIGINT);
		}
		if (poll(pfd, n, 200) == -1)
			continue;
		for (i = 0; i < n; i++)
			if (pfd[i].fd != -1 && pfd[i].revents != 0)
				worker_read(&ws[i]);
	}
	free(pfd);
	for (i = 0; i < n; i++)
		while (!ws[i].reaped && waitpid(ws[i].pid, &ws[i].status, 0) ==
		    -1 && errno == EINTR)
			;
}

/* Why worker i failed, or 0 when it ended as a run does (0 or 1). */
static int
worker_failure(const struct worker *w, unsigned i, unsigned n,
    const char *what, char *buf, size_t len)
{
	char	how[64];

	if (workers_status_text(w->status, 1, how, sizeof(how)) == NULL)
		return 0;
	snprintf(buf, len, "worker %u of %u (pid %ld, %s %u to %u) %s; its "
	    "last progress: %s", i, n, (long)w->pid, what, w->first,
	    w->first + w->count - 1, how, w->last[0] ? w->last :
	    "none (it died before its first report of progress)");
	return 1;
}

/*
 * The workers' reports of one run merged into m, as sbsim merge does;
 * why says what made a part not ok (empty when all were).  -1: none to
 * merge.
 */
static int
workers_merge(struct worker *ws, unsigned n, struct metrics *m, char *why,
    size_t whylen)
{
	struct merge_part	*parts;
	char			 err[1024];
	unsigned		 i, np = 0;
	int			 parts_ok, rc;

	parts = xcalloc(n, sizeof(*parts));
	for (i = 0; i < n; i++)
		if (merge_load(&parts[np], ws[i].report, err,
		    sizeof(err)) == 0)
			np++;
	rc = np == 0 ? -1 : merge_parts(parts, np, m, &parts_ok, why, whylen,
	    err, sizeof(err));
	if (rc == -1 && np > 0)
		log_warnx("--workers: %s", err);
	if (rc == 0 && parts_ok)
		why[0] = '\0';
	for (i = 0; i < np; i++)
		merge_part_free(&parts[i]);
	free(parts);
	return rc;
}

/* The runs merged, one per --repeat, reported as one process's are. */
static int
workers_report(struct metrics *runs, unsigned nruns,
    const struct run_opts *ro, const char *failed)
{
	struct report_opts	 rep;

	memset(&rep, 0, sizeof(rep));
	rep.version = PACKAGE_VERSION;
	rep.scenario = ro->scenario;
	rep.json_path = ro->report;
	rep.csv_path = ro->csv;
	rep.junit_path = ro->junit;
	rep.expects = ro->expects;
	rep.n_expects = ro->n_expects;
	rep.failed = failed;
	return report_emit(runs, nruns, &rep, ro->quiet ? NULL : stdout);
}

/*
 * One run of the workers, waited to its end: m their merged report
 * (*merged 0 when there was none), failed the first failure's words or
 * what made a part not ok (empty: neither).  Returns how many failed.
 */
static unsigned
workers_round(struct worker *ws, unsigned n, const struct run_opts *ro,
    const char *what, struct metrics *m, int *merged, unsigned *unstarted,
    char *failed, size_t flen)
{
	char		msg[1024], why[1100];
	unsigned	i, nfailed = 0;

	workers_wait(ws, n);
	failed[0] = '\0';
	*unstarted = 0;
	for (i = 0; i < n; i++) {
		if (worker_failure(&ws[i], i, n, what, msg, sizeof(msg))) {
			fprintf(stderr, "sbsim %s: %s\n", ro->cmd, msg);
			if (nfailed++ == 0)
				snprintf(failed, flen, "%s", msg);
			*unstarted += WIFEXITED(ws[i].status) &&
			    WEXITSTATUS(ws[i].status) == 2 && ws[i].last[0] ==
			    '\0';
		}
	}
	*merged = workers_merge(ws, n, m, why, sizeof(why)) == 0;
	if (*merged && nfailed == 0 && why[0] != '\0')
		snprintf(failed, flen, "%s", why);
	for (i = 0; i < n; i++)
		unlink(ws[i].report);
	return nfailed;
}

/* Each worker's slice and a fresh report file; its pipe comes with the
 * fork. */
static void
workers_prepare(struct worker *ws, unsigned n, const struct run_opts *ro,
    const char *tmp, uint32_t total)
{
	unsigned	i;
	int		fd;

	memset(ws, 0, n * sizeof(*ws));
	for (i = 0; i < n; i++) {
		ws[i].first = (uint32_t)((uint64_t)i * total / n);
		ws[i].count = (uint32_t)((uint64_t)(i + 1) * total / n) -
		    ws[i].first;
		if (snprintf(ws[i].report, sizeof(ws[i].report),
		    "%s/sbsim-worker.XXXXXX", tmp) >= (int)sizeof(ws[i].report))
			cli_die(ro, "--workers: TMPDIR %s is too long", tmp);
		if ((fd = mkstemp(ws[i].report)) == -1)
			fatal("--workers: a report file in %s", tmp);
		close(fd);
	}
}

/* Fork the n workers of run r; 1 in a worker (ws is gone there). */
static int
workers_fork(struct worker *ws, unsigned n, struct run_opts *ro, unsigned r)
{
	unsigned	i, me;
	int		p[2];
	pid_t		pid;

	fflush(stdout);
	fflush(stderr);
	for (i = 0; i < n; i++) {
		if (pipe(p) == -1 || (pid = fork()) == -1)
			fatal("--workers: starting worker %u", i);
		if (pid == 0) {
			close(p[0]);
			for (me = 0; me < i; me++)
				close(ws[me].fd);
			worker_become(ro, &ws[i], i, n, r, p[1]);
			return 1;
		}
		close(p[1]);
		ws[i].pid = pid;
		ws[i].fd = p[0];
	}
	return 0;
}

/*
 * --repeat R with workers: R runs of N fresh workers, one after the
 * other, so that a run begins once every worker of the one before has
 * ended, as one process's repeats do (each connects its devices anew).
 * A failed worker or a signal ends the repeats; the report holds the
 * runs done.
 */
int
run_workers(const struct sim_ops *ops, struct run_opts *ro,
    const char *what, uint32_t total, int *rc)
{
	struct worker		*ws;
	struct metrics		*runs;
	struct sigaction	 sa;
	const char		*tmp;
	char			 failed[1100] = "", why[1100];
	unsigned		 i, r, nruns = 0, nfailed = 0, unstarted = 0;
	unsigned		 n = ro->workers;
	int			 merged, rep_rc;

	if (n == 0)
		return 0;
	run_workers_check(ops, ro);
	if ((tmp = getenv("TMPDIR")) == NULL || *tmp == '\0')
		tmp = "/tmp";
	if (total < n)
		cli_die(ro, "--workers %u is more than the %u %s", n, total,
		    what);
	/* A scenario's group, checked for its workers before they fork
	 * (src/scenario.c, scen_check_workers()). */
	if (run_collecting())
		return 0;
	ws = xcalloc(n, sizeof(*ws));
	runs = xcalloc(ro->repeat, sizeof(*runs));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = workers_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	for (r = 0; r < ro->repeat && !workers_signal; r++) {
		workers_prepare(ws, n, ro, tmp, total);
		if (ro->repeat > 1)
			log_info("run %u of %u", r + 1, ro->repeat);
		if (workers_fork(ws, n, ro, r)) {
			/* A worker: the runs merged before it are not its. */
			for (i = 0; i < nruns; i++)
				metrics_free(&runs[i]);
			free(runs);
			free(ws);
			return 0;
		}
		nfailed = workers_round(ws, n, ro, what, &runs[nruns], &merged,
		    &unstarted, why, sizeof(why));
		nruns += merged;
		if (failed[0] == '\0')
			snprintf(failed, sizeof(failed), "%s", why);
		if (nfailed > 0)
			break;
	}
	rep_rc = nruns == 0 ? -1 : workers_report(runs, nruns, ro,
	    failed[0] ? failed : NULL);
	if (unstarted == n)
		*rc = 2;
	else
		*rc = rep_rc == 0 && nfailed == 0 ? 0 : 1;
	if (nfailed > 0 && *rc != 2)
		fprintf(stderr, "sbsim %s: %u of %u workers failed: the run "
		    "FAILED\n", ro->cmd, nfailed, n);
	for (i = 0; i < nruns; i++)
		metrics_free(&runs[i]);
	free(runs);
	free(ws);
	return 1;
}
