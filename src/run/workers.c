/*
 * --workers N: one command's run spread over N processes on this host,
 * each a shard (--shard i/N) with its own event loop, the parent merging
 * their reports as sbsim merge does (src/run/merge.h).  Each worker writes
 * its report to a file of its own and, every half second, one line of
 * progress to a pipe, so that the parent can say what a worker that died
 * had done.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "cli.h"
#include "cost.h"
#include "engine.h"
#include "log.h"
#include "merge.h"
#include "metrics.h"
#include "pool.h"
#include "procs.h"
#include "promexp.h"
#include "report.h"
#include "run.h"

struct worker {
	uint32_t	 first, count;	/* its slice of the devices */
	char		 report[256];	/* its report's file */
	char		 last[PROCS_LINE_MAX];	/* its last progress */
	int		 complete;	/* its phases are (run.c) */
	char		 live[300];	/* --metrics-listen: its figures */
	uint64_t	 dev[PD_STOPPED + 1];	/* its devices by state */
};

/* One run of the workers: what the runs of a command share. */
struct wrun {
	const struct sim_ops	*ops;
	void			*cfg;
	struct run_opts		*ro;
	const char		*what;		/* "switches" */
	struct worker		*ws;		/* --workers of them */
	struct procs		*ps;		/* this run's */
	unsigned		 n;		/* --workers */
	unsigned		 round_n;	/* workers of this run */
	int			 released;	/* this run's */
	unsigned		 nfailed;	/* in the last run */
	unsigned		 unstarted;	/* in the last run */
	char			 failed[1100];	/* its first failure */
	char			 notok[1100];	/* a part not ok, else "" */
};

#define WORKER_COMPLETE	"; complete"	/* ends a complete one's line */
#define WORKER_DEVICES	"devices:"	/* begins a line of device states */

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
	else if ((ro->n_sweep > 0 || ro->find_max > 0) &&
	    ops->size_opt == NULL)
		why = "--workers does not go with --sweep or --find-max here "
		    "(no device count to step)";
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
 * run of --repeat or step of --sweep (each forks fresh workers). */
static void
worker_become(struct run_opts *ro, struct worker *w, unsigned i,
    unsigned n, unsigned round, int fd)
{
	/* The worker's own copy: run_workers() frees the table. */
	static char	report[sizeof(w->report)];
	static char	live[sizeof(w->live)];

	memcpy(report, w->report, sizeof(report));
	memcpy(live, w->live, sizeof(live));
	ro->shard_index = i;
	ro->shard_count = n;
	ro->report = report;
	ro->csv = ro->junit = NULL;
	ro->n_expects = 0;
	ro->quiet = 1;
	ro->workers = 0;
	ro->repeat = 1;
	ro->n_sweep = 0;	/* a step's size is in the command's config */
	ro->find_max = 0;
	if (round > 0)		/* --start-at is the first run's */
		ro->start_at = 0;
	ro->worker_fd = fd;
	ro->worker = 1;
	ro->metrics_listen = NULL;	/* the parent serves them all */
	ro->live_report = live[0] != '\0' ? live : NULL;
	run_split_faults(ro->faults, ro->n_faults, i, n);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	/* A signal ends the worker's run as any run's (the parent's
	 * handler only forwards). */
	engine_signals();
	signal(SIGPIPE, SIG_IGN);
	/* The release (run.c) is caught while a run waits for it, and
	 * harmless before and after. */
	signal(SIGUSR1, SIG_IGN);
}

/* "devices: N N ..." (run.c, run_worker_live()): its devices by state. */
static void
worker_devices(struct worker *w, const char *p)
{
	char			*end;
	unsigned long long	 v;
	int			 st;

	for (st = PD_IDLE; st <= PD_STOPPED; st++) {
		v = strtoull(p, &end, 10);
		if (end == p)
			return;
		w->dev[st] = v;
		p = end;
	}
}

/* A worker's progress: keep its last whole line. */
static void
worker_last(struct worker *w, const char *line)
{
	size_t	len = strlen(line), k = strlen(WORKER_COMPLETE);

	if (strncmp(line, WORKER_DEVICES, strlen(WORKER_DEVICES)) == 0) {
		worker_devices(w, line + strlen(WORKER_DEVICES));
		return;
	}
	snprintf(w->last, sizeof(w->last), "%s", line);
	w->complete = len >= k && strcmp(line + len - k, WORKER_COMPLETE) == 0;
}

/*
 * Once every worker's phases are complete (or it has ended), each still
 * holding its devices up is released (SIGUSR1): none lets its devices go
 * while another's are still at work, as in one process.
 */
static void
workers_release(struct wrun *wr)
{
	unsigned	i;

	if (wr->released)
		return;
	for (i = 0; i < wr->round_n; i++)
		if (!procs_ended(wr->ps, i) && !wr->ws[i].complete)
			return;
	wr->released = 1;
	for (i = 0; i < wr->round_n; i++)
		if (!procs_ended(wr->ps, i))
			kill(procs_pid(wr->ps, i), SIGUSR1);
}

static void
worker_line(void *arg, unsigned i, const char *line)
{
	struct wrun	*wr = arg;

	worker_last(&wr->ws[i], line);
	workers_release(wr);
}

/*
 * A worker that died (a signal, exit status 2 or more) fails the run:
 * the others are stopped as a signal stops them (SIGINT), and report
 * what they did.
 */
static void
worker_ended(void *arg, unsigned i, int status)
{
	struct wrun	*wr = arg;

	(void)i;
	if (WIFSIGNALED(status) || (WIFEXITED(status) &&
	    WEXITSTATUS(status) > 1)) {
		if (procs_interrupt(wr->ps, SIGINT))
			workers_signal = SIGINT;
	}
	workers_release(wr);
}

/*
 * Until every worker has ended, on base (the live metrics' server's, if
 * any).  A signal goes on to the workers as SIGINT; so does a worker's
 * death.
 */
static void
workers_wait(struct wrun *wr, struct event_base *base)
{
	procs_forward_signals(wr->ps, SIGINT);
	procs_watch(wr->ps, base);
	/* One that came before the watch (workers_on_signal()). */
	if (workers_signal)
		procs_interrupt(wr->ps, SIGINT);
	procs_run(wr->ps);
	if (procs_caught(wr->ps))
		workers_signal = procs_caught(wr->ps);
}

/* Why worker i failed, or 0 when it ended as a run does (0 or 1). */
static int
worker_failure(const struct wrun *wr, unsigned i, unsigned n, char *buf,
    size_t len)
{
	const struct worker	*w = &wr->ws[i];
	char			 how[64];

	if (procs_status_text(procs_status(wr->ps, i), 1, how,
	    sizeof(how)) == NULL)
		return 0;
	snprintf(buf, len, "worker %u of %u (pid %ld, %s %u to %u) %s; its "
	    "last progress: %s", i, n, (long)procs_pid(wr->ps, i), wr->what,
	    w->first,
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

/* Each worker's slice and a fresh report file; its pipe comes with the
 * fork. */
static void
workers_prepare(struct wrun *wr, unsigned n, uint32_t total)
{
	struct worker	*ws = wr->ws;
	unsigned	 i;

	memset(ws, 0, n * sizeof(*ws));
	for (i = 0; i < n; i++) {
		ws[i].first = (uint32_t)((uint64_t)i * total / n);
		ws[i].count = (uint32_t)((uint64_t)(i + 1) * total / n) -
		    ws[i].first;
		if (procs_tmpfile("sbsim-worker", "a report file",
		    ws[i].report, sizeof(ws[i].report)) == -1)
			cli_die(wr->ro, "--workers: TMPDIR %s is too long",
			    procs_tmpdir());
		if (wr->ro->metrics_listen != NULL)
			snprintf(ws[i].live, sizeof(ws[i].live), "%s.live",
			    ws[i].report);
	}
}

/*
 * A scrape of the parent's --metrics-listen: the workers' devices and
 * cost summed (the parent's own cost with them), their figures so far
 * merged as their reports are at the end (histograms to the bucket, so
 * the quantiles are the whole run's).  A worker that has not written
 * its figures yet is left out until it has.
 */
static void
workers_scrape(struct evbuffer *out, void *arg)
{
	struct wrun		*wr = arg;
	struct merge_part	*parts;
	struct metrics		 m;
	struct cost_snap	 s, sum;
	uint64_t		 dev[PD_STOPPED + 1];
	char			 why[1100], err[1024];
	unsigned		 i, np = 0;
	int			 st, ok;

	memset(dev, 0, sizeof(dev));
	memset(&sum, 0, sizeof(sum));
	if (cost_read_self(&sum) == -1)
		memset(&sum, 0, sizeof(sum));
	parts = xcalloc(wr->round_n, sizeof(*parts));
	for (i = 0; i < wr->round_n; i++) {
		for (st = PD_IDLE; st <= PD_STOPPED; st++)
			dev[st] += wr->ws[i].dev[st];
		if (!procs_ended(wr->ps, i) && cost_read_proc(procs_pid(wr->ps,
		    i), &s) == 0) {
			sum.cpu_ms += s.cpu_ms;
			sum.rss_kb += s.rss_kb;
		}
		if (merge_load(&parts[np], wr->ws[i].live, err,
		    sizeof(err)) == 0)
			np++;
	}
	promexp_write_devices(out, dev);
	promexp_write_self(out, &sum);
	if (np > 0 && merge_parts(parts, np, &m, &ok, why, sizeof(why), err,
	    sizeof(err)) == 0) {
		promexp_write_run(out, &m);
		metrics_free(&m);
	}
	for (i = 0; i < np; i++)
		merge_part_free(&parts[i]);
	free(parts);
}

/* --metrics-listen refused before any worker starts, as one process
 * would refuse it (a bad address, a port taken). */
static void
workers_live_check(const struct run_opts *ro)
{
	struct event_base	*base;
	struct promexp		*pe;
	char			 err[256];

	if (ro->metrics_listen == NULL)
		return;
	if ((base = event_base_new()) == NULL)
		fatalx("event_base_new");
	pe = promexp_new(base, ro->metrics_listen, err, sizeof(err));
	promexp_free(pe);
	event_base_free(base);
	if (pe == NULL)
		cli_die(ro, "%s", err);
}

/* The parent's --metrics-listen for one run, on base; NULL without. */
static struct promexp *
workers_live_new(struct wrun *wr, struct event_base *base)
{
	struct promexp	*pe;
	char		 err[256];

	if (wr->ro->metrics_listen == NULL)
		return NULL;
	if ((pe = promexp_new(base, wr->ro->metrics_listen, err,
	    sizeof(err))) == NULL) {
		log_warnx("--metrics-listen: %s: no live metrics this run",
		    err);
		return NULL;
	}
	promexp_set_source(pe, workers_scrape, wr);
	return pe;
}

/* Fork the n workers of run r; 1 in a worker. */
static int
workers_fork(struct wrun *wr, unsigned n, unsigned r)
{
	static const struct procs_ops	ops = {
		"worker", worker_line, worker_ended
	};
	int				i, up, down;

	wr->ps = procs_new(n, 0, &ops, wr);
	wr->round_n = n;
	wr->released = 0;
	if ((i = procs_fork(wr->ps, &up, &down)) == -1)
		return 0;
	procs_free(wr->ps);	/* the worker's copy */
	wr->ps = NULL;
	worker_become(wr->ro, &wr->ws[i], (unsigned)i, n, r, up);
	return 1;
}

/* The failed workers of the run said, the first kept in wr. */
static void
workers_failures(struct wrun *wr, unsigned n)
{
	char		msg[1024];
	unsigned	i;
	int		st;

	wr->failed[0] = '\0';
	wr->nfailed = wr->unstarted = 0;
	for (i = 0; i < n; i++) {
		if (!worker_failure(wr, i, n, msg, sizeof(msg)))
			continue;
		fprintf(stderr, "sbsim %s: %s\n", wr->ro->cmd, msg);
		if (wr->nfailed++ == 0)
			snprintf(wr->failed, sizeof(wr->failed), "%s", msg);
		st = procs_status(wr->ps, i);
		wr->unstarted += WIFEXITED(st) && WEXITSTATUS(st) == 2 &&
		    wr->ws[i].last[0] == '\0';
	}
}

/* The run's files gone once merged. */
static void
workers_unlink(struct wrun *wr, unsigned n)
{
	char		tmp[sizeof(wr->ws[0].live) + 8];
	unsigned	i;

	for (i = 0; i < n; i++) {
		unlink(wr->ws[i].report);
		if (wr->ws[i].live[0] != '\0') {
			unlink(wr->ws[i].live);
			snprintf(tmp, sizeof(tmp), "%s.tmp", wr->ws[i].live);
			unlink(tmp);
		}
	}
}

/*
 * Run r of the workers over total devices (as many workers as --workers,
 * no more than the devices), waited to its end, m their merged report.
 * 1 in a worker; 0 in the parent; -1 when nothing could be merged.  The
 * failures are in wr.
 */
static int
workers_once(struct wrun *wr, unsigned r, uint32_t total, struct metrics *m)
{
	struct promexp		*live;
	struct event_base	*base;
	unsigned		 n = wr->n < total ? wr->n : total;
	int			 rc;

	workers_prepare(wr, n, total);
	if (workers_fork(wr, n, r))
		return 1;
	/* Made once the workers are forked: none of them may hold it. */
	if ((base = event_base_new()) == NULL)
		fatalx("event_base_new");
	live = workers_live_new(wr, base);
	workers_wait(wr, base);
	promexp_free(live);
	event_base_free(base);
	workers_failures(wr, n);
	procs_free(wr->ps);
	wr->ps = NULL;
	rc = workers_merge(wr->ws, n, m, wr->notok, sizeof(wr->notok));
	workers_unlink(wr, n);
	return rc;
}

/* The exit status once the report is out (rep_rc report_emit's or
 * report_emit_steps', -1 when none was written); says a failure. */
static int
workers_exit(const struct wrun *wr, int rep_rc)
{
	if (wr->unstarted == wr->n)
		return 2;	/* every worker refused its options */
	if (wr->nfailed > 0) {
		fprintf(stderr, "sbsim %s: %u of %u workers failed: the run "
		    "FAILED\n", wr->ro->cmd, wr->nfailed, wr->n);
		return 1;
	}
	return rep_rc == 0 ? 0 : 1;
}

/*
 * --repeat R (1 without it): R runs of fresh workers, one after the
 * other, so that a run begins once every worker of the one before has
 * ended, as one process's repeats do (each connects its devices anew).
 * A failed worker or a signal ends the repeats; the report holds the
 * runs done.  1 in a worker.
 */
static int
workers_repeat(struct wrun *wr, uint32_t total, int *rc)
{
	const struct run_opts	*ro = wr->ro;
	struct report_opts	 rep;
	struct metrics		*runs;
	char			 failed[1100] = "";
	unsigned		 i, r, nruns = 0;
	int			 once = 0;

	runs = xcalloc(ro->repeat, sizeof(*runs));
	for (r = 0; r < ro->repeat && !workers_signal; r++) {
		if (ro->repeat > 1)
			log_info("run %u of %u", r + 1, ro->repeat);
		if ((once = workers_once(wr, r, total, &runs[nruns])) == 1)
			break;
		nruns += once == 0;
		if (failed[0] == '\0')
			snprintf(failed, sizeof(failed), "%s", wr->nfailed ?
			    wr->failed : once == 0 ? wr->notok : "");
		if (wr->nfailed > 0)
			break;
	}
	if (once != 1) {
		run_report_opts(&rep, ro);
		rep.failed = failed[0] ? failed : NULL;
		*rc = workers_exit(wr, nruns == 0 ? -1 :
		    report_emit(runs, nruns, &rep, ro->quiet ? NULL : stdout));
	}
	/* In a worker too: the runs merged before it are not its. */
	for (i = 0; i < nruns; i++)
		metrics_free(&runs[i]);
	free(runs);
	return once == 1;
}

/* --step-pause between the steps; 1 when a signal came first. */
static int
workers_pause(double secs)
{
	struct timespec	ts;

	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	while (!workers_signal && nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
	return workers_signal != 0;
}

/*
 * --sweep or --find-max: each step a run of fresh workers at its size
 * (set through run_size() before they fork), the next size chosen from
 * the merged report as one process chooses it.  A step whose worker
 * died is FAILED with its words and ends the search.  1 in a worker.
 */
static int
workers_steps(struct wrun *wr, int *rc)
{
	const struct run_opts	*ro = wr->ro;
	uint32_t		*size = run_size(wr->ops, wr->cfg);
	uint32_t		 ceiling = *size;
	uint32_t		 n = ro->find_max ? ro->find_max : ro->sweep[0];
	struct report_steps	 st;
	struct report_opts	 rep;
	struct report_step	 steps[RUN_MAX_STEPS];
	struct metrics		*runs;
	char			*failed[RUN_MAX_STEPS];
	size_t			 i, k;
	int			 ok, once = 0;

	memset(failed, 0, sizeof(failed));
	run_steps_init(&st, steps, wr->ops, ro, ceiling);
	run_report_opts(&rep, ro);
	runs = xcalloc(RUN_MAX_STEPS, sizeof(*runs));
	for (i = 0; i < RUN_MAX_STEPS && n != 0; i++) {
		if (i > 0 && workers_pause(ro->step_pause))
			break;
		*size = n;
		if ((once = workers_once(wr, (unsigned)i, n, &runs[i])) != 0)
			break;
		steps[i].size = n;
		steps[i].run = &runs[i];
		ok = report_run_ok(&runs[i], &rep);
		/* A part not ok shows in the merged phases, but for what
		 * the merge cannot see (a phase the part alone lacked). */
		if (wr->nfailed > 0 || (ok && wr->notok[0] != '\0'))
			steps[i].failed = failed[i] = xstrdup(wr->nfailed ?
			    wr->failed : wr->notok);
		n = run_step_done(&st, ro, i, ok && steps[i].failed == NULL);
		if (wr->nfailed > 0 || workers_signal) {
			i++;
			break;
		}
	}
	st.n = i;
	if (once != 1) {
		*size = ceiling;	/* a worker keeps its step's */
		*rc = workers_exit(wr, st.n == 0 ? -1 : report_emit_steps(&st,
		    &rep, ro->quiet ? NULL : stdout));
	}
	for (k = 0; k < st.n; k++) {
		metrics_free(&runs[k]);
		free(failed[k]);
	}
	free(runs);
	return once == 1;
}

int
run_workers(const struct sim_ops *ops, void *cfg, struct run_opts *ro,
    const char *what, uint32_t total, int *rc)
{
	struct wrun		 wr;
	struct sigaction	 sa;
	int			 in_worker;

	if (ro->workers == 0)
		return 0;
	run_workers_check(ops, ro);
	if (cfg != NULL && run_check_steps(ops, cfg, ro) == -1)
		exit(CLI_EXIT_USAGE);
	if (total < ro->workers)
		cli_die(ro, "--workers %u is more than the %u %s", ro->workers,
		    total, what);
	/* A scenario's group, checked for its workers before they fork
	 * (src/run/scenario.c, scen_check_workers()). */
	if (run_collecting())
		return 0;
	workers_live_check(ro);
	memset(&wr, 0, sizeof(wr));
	wr.ops = ops;
	wr.cfg = cfg;
	wr.ro = ro;
	wr.what = what;
	wr.n = ro->workers;
	wr.ws = xcalloc(wr.n, sizeof(*wr.ws));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = workers_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (ro->n_sweep > 0 || ro->find_max > 0)
		in_worker = workers_steps(&wr, rc);
	else
		in_worker = workers_repeat(&wr, total, rc);
	free(wr.ws);
	return !in_worker;
}
