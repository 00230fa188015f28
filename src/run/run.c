#include <sys/resource.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "cli.h"
#include "cost.h"
#include "engine.h"
#include "env.h"
#include "http_server.h"
#include "log.h"
#include "pool.h"
#include "promexp.h"
#include "report.h"
#include "run.h"
#include "tcp_md5.h"

#define RUN_TICK_MS		100
#define RUN_QUIET_MAX_MS	1000	/* ticks apart at most, quiet */
#define RUN_PROGRESS_MS		500
/*
 * Once every phase is complete the devices go on answering a moment
 * before the run stops, as real ones would: a request already on its way
 * (the BARRIER_REQUEST behind the last FLOW_MOD that emptied the tables)
 * still gets its reply, and a controller waiting for it is not left
 * hanging.  The run's figures end at completion, not after this.
 */
#define RUN_LINGER_MS		100

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

struct run_state {
	const struct sim_ops	*ops;
	void			*cfg;
	const struct run_opts	*ro;
	struct metrics		*m;
	uint64_t		 deadline_ns;	/* --duration, 0: none */
	uint64_t		 last_progress_ns;
	int			 progress;	/* stderr is a terminal */
	uint64_t		 complete_ns;	/* every phase over, 0: not */
	struct cost_track	 self;		/* sbsim, per phase */
	struct cost_track	 ctl;		/* the controller */
	struct cost_scraper	*scraper;	/* --controller-metrics */
	struct promexp		*live;		/* --metrics-listen */
	size_t			 phases_over;	/* at the last tick */
	int			 ctl_gone;	/* --controller-pid exited */
	/* A worker of --workers: released by the parent (SIGUSR1) once
	 * every worker's phases are complete. */
	struct event		*release;
	int			 released;
	int			 deadline_hit;	/* --duration reached */
	uint64_t		 accepted0;	/* pool_accepted() at start */
	struct env		 env;		/* for ro->live_report, once */
	int			 have_env;
	struct event		*tick;
	uint64_t		 tick_ms;	/* its interval now */
	struct tcp_md5_kstats	 md5_k0;	/* the kernel's, at start */
};

/*
 * The run only serves (every device listens, no phase is expected): its
 * devices wait for whoever comes as long as the run goes on, so nothing
 * of theirs times out; it ends at --duration, on a signal, or once its
 * phases are complete (docs/report.md, "Verdicts").
 */
static int	run_serving;
static uint64_t	 run_quiet;	/* asked by this tick, 0: not */

int
run_phase_timed_out(const struct phase *ph, uint64_t now, double timeout_s)
{
	uint64_t	since;

	if (ph->state != PHASE_RUNNING || run_serving)
		return 0;
	since = ph->last_ns > ph->trigger_ns ? ph->last_ns : ph->trigger_ns;
	return now > since && (double)(now - since) / 1e9 > timeout_s;
}

const char *const run_connect_names[RUN_MAX_CONTROLLERS] = {
	"connect.c1", "connect.c2", "connect.c3", "connect.c4",
	"connect.c5", "connect.c6", "connect.c7", "connect.c8",
};

void
run_connect_phases(struct metrics *m, struct phase **ph, size_t size,
    const char *const *names, unsigned n, const char *group,
    uint64_t target, uint64_t now)
{
	unsigned	k;

	memset(ph, 0, size);
	if (n < 2)
		return;
	for (k = 0; k < n; k++) {
		ph[k] = metrics_phase(m, names[k], group);
		ph[k]->target = target;
		phase_start(ph[k], now);
	}
}

int
run_phase_timeout(struct phase *ph, uint64_t now, double timeout_s)
{
	if (ph == NULL || !run_phase_timed_out(ph, now, timeout_s))
		return 0;
	phase_end(ph, now, PHASE_TIMEOUT);
	return 1;
}

void
run_phases_timeout(struct phase **ph, int n, unsigned untimed, uint64_t now,
    double timeout_s)
{
	int	i;

	for (i = 0; i < n; i++)
		if ((untimed & (1u << i)) == 0)
			run_phase_timeout(ph[i], now, timeout_s);
}

/*
 * A phase the run expected that never began failed as surely as one that
 * timed out: a run stopped by SIGTERM (a CI timeout) before the first
 * FLOW_MOD must not read "ok".  When nothing else failed, the first such
 * phase ends TIMEOUT with no item (the one the run stopped waiting for);
 * the ones after it, and phases nobody expected (optional ones), stay
 * PENDING: not observed.
 */
static void
run_close_expected(struct metrics *m, uint64_t now)
{
	size_t		 i;
	struct phase	*ph;

	for (i = 0; i < m->n_phases; i++)
		if (m->phases[i]->state == PHASE_TIMEOUT)
			return;
	for (i = 0; i < m->n_phases; i++) {
		ph = m->phases[i];
		if (ph->state == PHASE_PENDING && ph->expected) {
			phase_start(ph, now);
			phase_end(ph, now, PHASE_TIMEOUT);
			return;
		}
	}
}

/* At the run's end: a running phase with a target it did not reach timed
 * out; one without a target is done.  If none timed out, the first
 * pending one the run expected (phase_expect) times out with nothing;
 * other pending ones stay pending. */
static void
run_close_phases(struct metrics *m, uint64_t now)
{
	size_t		 i;
	struct phase	*ph;

	for (i = 0; i < m->n_phases; i++) {
		ph = m->phases[i];
		if (ph->state != PHASE_RUNNING)
			continue;
		if (ph->optional && ph->items == 0) {
			/* Never driven (a controller that never reads flows
			 * back): not observed, as if never begun. */
			ph->state = PHASE_PENDING;
			ph->trigger_ns = 0;
			continue;
		}
		phase_end(ph, now, ph->target > 0 && ph->items < ph->target ?
		    PHASE_TIMEOUT : PHASE_DONE);
	}
	run_close_expected(m, now);
}

static void
run_linger(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	engine_stop("all phases complete");
}

/* Phases that ended by now: a new one is worth a scrape. */
static size_t
run_phases_over(const struct metrics *m)
{
	size_t	i, n = 0;

	for (i = 0; i < m->n_phases; i++)
		n += m->phases[i]->state == PHASE_DONE ||
		    m->phases[i]->state == PHASE_TIMEOUT;
	return n;
}

/* Every tick, and at the run's ends: sbsim's and the controller's /proc. */
static void
run_cost_sample(struct run_state *rs, uint64_t now)
{
	struct cost_snap	s;
	size_t			over;

	if (cost_read_self(&s) == 0)
		cost_sample(&rs->self, rs->m, now, &s);
	if (rs->ro->controller_pid != 0 && !rs->ctl_gone) {
		if (cost_read_proc((pid_t)rs->ro->controller_pid, &s) == 0)
			cost_sample(&rs->ctl, rs->m, now, &s);
		else {
			rs->ctl_gone = 1;
			*metrics_counter(rs->m, "controller_pid_gone") = 1;
			log_warnx("--controller-pid %u: the process is gone; "
			    "its cost ends at the last sample",
			    rs->ro->controller_pid);
		}
	}
	if ((over = run_phases_over(rs->m)) != rs->phases_over) {
		rs->phases_over = over;
		cost_scraper_kick(rs->scraper);
	}
}

/*
 * A worker of --workers: one line of its phases so far to the parent,
 * which says it should the worker die ("connect 10/10 DONE, program
 * 150/200 RUNNING").  One write() under PIPE_BUF is atomic; a full pipe
 * loses a line, the next one says more.
 */
static int
run_worker_progress(const struct metrics *m, int fd, int complete)
{
	const struct phase	*ph;
	char			 line[1024];
	size_t			 i, used = 0;
	int			 n;

	line[0] = '\0';
	for (i = 0; i < m->n_phases && used < sizeof(line) - 1; i++) {
		ph = m->phases[i];
		n = snprintf(line + used, sizeof(line) - 1 - used,
		    "%s%s %llu/%llu %s", i ? ", " : "", ph->name,
		    (unsigned long long)ph->items,
		    (unsigned long long)ph->target,
		    phase_state_name(ph->state));
		if (n < 0 || (size_t)n >= sizeof(line) - 1 - used)
			break;
		used += (size_t)n;
	}
	if (complete && used < sizeof(line) - 12)
		used += (size_t)snprintf(line + used, sizeof(line) - used,
		    "; complete");
	line[used++] = '\n';
	return write(fd, line, used) == -1 && errno != EAGAIN &&
	    errno != EINTR ? -1 : 0;
}

/*
 * A worker under --metrics-listen: its figures so far for the parent
 * to merge on a scrape (a report, renamed into place whole), and its
 * devices by state on the pipe ("devices: N N ..." in pool state
 * order), which no report holds.
 */
static void
run_worker_live(struct run_state *rs)
{
	const struct run_opts	*ro = rs->ro;
	struct report_opts	 rep;
	uint64_t		 n[PD_STOPPED + 1];
	char			 tmp[300], line[256];
	size_t			 used;
	int			 st;

	if (!rs->have_env) {
		env_collect(&rs->env);
		rs->have_env = 1;
	}
	memset(&rep, 0, sizeof(rep));
	rep.env = &rs->env;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", ro->live_report) <
	    (int)sizeof(tmp)) {
		rep.json_path = tmp;
		if (report_emit(rs->m, 1, &rep, NULL) != -1)
			(void)rename(tmp, ro->live_report);
	}
	pool_count_states(n);
	used = (size_t)snprintf(line, sizeof(line), "devices:");
	for (st = PD_IDLE; st <= PD_STOPPED && used < sizeof(line) - 24; st++)
		used += (size_t)snprintf(line + used, sizeof(line) - used,
		    " %llu", (unsigned long long)n[st]);
	line[used++] = '\n';
	(void)write(ro->worker_fd, line, used);
}

/* Every phase complete: the devices go on answering for the linger. */
static void
run_linger_start(struct run_state *rs)
{
	struct timeval	linger = { 0, RUN_LINGER_MS * 1000 };

	if (event_base_once(engine_base(), -1, EV_TIMEOUT, run_linger, rs,
	    &linger) == -1)
		engine_stop("all phases complete");
}

/*
 * A worker's phases are complete: it says so and holds its devices up
 * until the parent releases it, once every worker's are, so that the
 * controller sees them all at once to the end as one process's; the
 * figures end at completion all the same.  A parent gone (the pipe
 * broken) releases it too.
 */
static void
run_worker_complete(struct run_state *rs)
{
	if (!rs->released && run_worker_progress(rs->m, rs->ro->worker_fd,
	    1) == -1)
		rs->released = 1;
	if (rs->released)
		run_linger_start(rs);
}

/* The parent let this worker go (SIGUSR1), or can no longer be told. */
static void
run_release(struct run_state *rs)
{
	if (rs->released)
		return;
	rs->released = 1;
	if (rs->complete_ns != 0)
		run_linger_start(rs);
}

static void
run_release_signal(evutil_socket_t sig, short what, void *arg)
{
	(void)sig;
	(void)what;
	run_release(arg);
}

void
run_quiet_until(uint64_t until_ns)
{
	if (run_quiet == 0 || until_ns < run_quiet)
		run_quiet = until_ns;
}

uint64_t
run_quiet_take(void)
{
	uint64_t	q = run_quiet;

	run_quiet = 0;
	return q;
}

/* Milliseconds from now to at, rounded up: a tick then finds it due. */
static uint64_t
run_ms_until(uint64_t now, uint64_t at)
{
	return at > now ? (at - now + 999999) / 1000000 : 0;
}

/*
 * The next tick: RUN_TICK_MS on, or as late as the sim's quiet allows
 * (run_quiet_until()), but no later than a second, the deadline or the
 * next progress line.
 */
static void
run_tick_pace(struct run_state *rs, uint64_t now, uint64_t quiet)
{
	uint64_t	ms = RUN_TICK_MS;
	struct timeval	tv;

	if (quiet != 0 && rs->complete_ns == 0 && rs->scraper == NULL &&
	    (rs->ro->controller_pid == 0 || rs->ctl_gone) &&
	    !fault_busy(now, rs->ro->phase_timeout)) {
		ms = run_ms_until(now, quiet);
		if (ms > RUN_QUIET_MAX_MS)
			ms = RUN_QUIET_MAX_MS;
		if ((rs->progress || rs->ro->worker) && ms > RUN_PROGRESS_MS)
			ms = RUN_PROGRESS_MS;
		if (rs->deadline_ns != 0 &&
		    ms > run_ms_until(now, rs->deadline_ns))
			ms = run_ms_until(now, rs->deadline_ns);
		if (ms < RUN_TICK_MS)
			ms = RUN_TICK_MS;
	}
	if (ms == rs->tick_ms)
		return;
	rs->tick_ms = ms;
	tv.tv_sec = (time_t)(ms / 1000);
	tv.tv_usec = (suseconds_t)(ms % 1000 * 1000);
	engine_timer_add(rs->tick, &tv);
}

static void
run_tick(evutil_socket_t fd, short what, void *arg)
{
	struct run_state	*rs = arg;
	uint64_t		 now = clock_ns();

	(void)fd;
	(void)what;
	run_cost_sample(rs, now);
	(void)run_quiet_take();
	if (rs->ops->tick(rs->cfg, now) == 1 && rs->deadline_ns == 0 &&
	    rs->complete_ns == 0 && !fault_busy(now, rs->ro->phase_timeout)) {
		rs->complete_ns = now;
		if (rs->ro->worker)
			run_worker_complete(rs);
		else
			run_linger_start(rs);
	}
	if (rs->deadline_ns != 0 && now >= rs->deadline_ns &&
	    !rs->deadline_hit) {
		rs->deadline_hit = 1;
		engine_stop("--duration reached");
	}
	if ((rs->progress || rs->ro->worker) && now - rs->last_progress_ns >=
	    RUN_PROGRESS_MS * 1000000ull) {
		rs->last_progress_ns = now;
		if (rs->ro->worker && rs->ro->live_report != NULL)
			run_worker_live(rs);
		if (rs->ro->worker && run_worker_progress(rs->m,
		    rs->ro->worker_fd, rs->complete_ns != 0) == -1 &&
		    !rs->released)
			run_release(rs);
		else if (!rs->ro->worker)
			report_progress(rs->m, stderr);
	}
	run_tick_pace(rs, now, run_quiet_take());
}

static uint64_t
run_tv_ms(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000 + (uint64_t)tv->tv_usec / 1000;
}

/*
 * sbsim's own cost as counters, so that every report carries it and
 * --expect can bound it: CPU of this run (from getrusage deltas) and the
 * process's peak RSS so far (it only grows across --repeat runs).
 */
static void
run_resources(struct metrics *m, const struct rusage *before)
{
	struct rusage	after;

	if (getrusage(RUSAGE_SELF, &after) == -1)
		return;
	*metrics_counter(m, "sbsim_cpu_user_ms") = run_tv_ms(&after.ru_utime) -
	    run_tv_ms(&before->ru_utime);
	*metrics_counter(m, "sbsim_cpu_system_ms") =
	    run_tv_ms(&after.ru_stime) - run_tv_ms(&before->ru_stime);
	*metrics_counter(m, "sbsim_max_rss_kb") = (uint64_t)after.ru_maxrss;
}

/*
 * Before the devices start: the first cost samples (so that a phase
 * starting at once opens at them), the scraper and the live metrics.
 */
static int
run_watch_start(struct run_state *rs, char *err, size_t errlen)
{
	cost_track_init(&rs->self, COST_SBSIM);
	cost_track_init(&rs->ctl, COST_CONTROLLER);
	rs->phases_over = 0;
	rs->ctl_gone = 0;
	run_cost_sample(rs, clock_ns());
	if (rs->ro->controller_metrics != NULL &&
	    (rs->scraper = cost_scraper_new(engine_base(),
	    rs->ro->controller_metrics, &rs->ctl, rs->m, err, errlen)) == NULL)
		return -1;
	if (rs->ro->metrics_listen != NULL &&
	    (rs->live = promexp_new(engine_base(), rs->ro->metrics_listen,
	    err, errlen)) == NULL)
		return -1;
	promexp_set_run(rs->live, rs->m);
	/* Made when the process goes: zero, and there, until it does. */
	if (rs->ro->controller_pid != 0)
		(void)metrics_counter(rs->m, "controller_pid_gone");
	return 0;
}

static void
run_watch_stop(struct run_state *rs)
{
	cost_scraper_free(rs->scraper);
	rs->scraper = NULL;
	promexp_free(rs->live);
	rs->live = NULL;
}

/*
 * A shard draws from SEED + I * 1000003, so that shards neither pick
 * the same devices at the same instants under --fault nor make the same
 * random identifiers (database row UUIDs) for the controller to confuse.
 */
unsigned
run_seed(const struct run_opts *ro)
{
	if (ro->shard_count == 0)
		return ro->seed;
	return ro->seed + ro->shard_index * 1000003u;
}

/*
 * A signal ended the run before its end: before --duration was reached,
 * or, without --duration, before its phases were complete (a signal
 * during the linger or a worker's hold comes after).  Whether any phase
 * was expected does not matter: a run cut short measured less than it
 * was asked to (docs/report.md, "Verdicts").
 */
static int
run_was_interrupted(const struct run_state *rs)
{
	if (!engine_interrupted())
		return 0;
	if (rs->deadline_ns != 0)
		return !rs->deadline_hit;
	/* Serving until stopped: the signal is its end. */
	return rs->complete_ns == 0 && !rs->m->served;
}

/* After start(): whether every device listens and no phase is expected. */
static int
run_only_serves(const struct metrics *m)
{
	uint64_t	n[PD_STOPPED + 1];
	size_t		i;

	for (i = 0; i < m->n_phases; i++)
		if (m->phases[i]->expected)
			return 0;
	pool_count_states(n);
	return n[PD_LISTENING] > 0 && n[PD_IDLE] + n[PD_CONNECTING] +
	    n[PD_BACKOFF] + n[PD_UP] == 0;
}

/*
 * A served run's end: a phase that saw nothing was not measured; one
 * that saw some had no count to reach (the devices served whoever came:
 * its target goes), and is done.  What was served is counted.
 */
static void
run_close_served(struct run_state *rs, uint64_t now)
{
	struct metrics	*m = rs->m;
	struct phase	*ph;
	size_t		 i;

	for (i = 0; i < m->n_phases; i++) {
		ph = m->phases[i];
		if (ph->state != PHASE_RUNNING)
			continue;
		if (ph->items == 0) {
			ph->state = PHASE_PENDING;
			ph->trigger_ns = 0;
			continue;
		}
		ph->target = 0;
		phase_end(ph, now, PHASE_DONE);
	}
	*metrics_counter(m, "served_connections") = pool_accepted() -
	    rs->accepted0;
}

/*
 * Devices that tried to connect and were not up at the end, by why
 * (pool.h, enum pool_why): a controller that closed them (one that takes
 * so many and closes the rest), refused them, or never answered.  Said
 * under the table, without -v; counters only when there are some.
 */
static void
run_count_not_up(struct metrics *m)
{
	static const char *const names[POOL_WHY_N] = {
		[POOL_WHY_REFUSED] = "devices_refused",
		[POOL_WHY_PEER_CLOSED] = "devices_closed_by_peer",
		[POOL_WHY_UNANSWERED] = "devices_unanswered",
	};
	uint64_t	n[POOL_WHY_N];
	int		w;

	pool_count_why(n);
	if (n[POOL_WHY_REFUSED] + n[POOL_WHY_PEER_CLOSED] +
	    n[POOL_WHY_UNANSWERED] == 0)
		return;
	for (w = POOL_WHY_REFUSED; w < POOL_WHY_N; w++)
		*metrics_counter(m, names[w]) = n[w];
}

/* Whether the run only serves, and what it serves from: once start()
 * made the devices and their phases. */
static void
run_serve_start(struct run_state *rs)
{
	uint64_t	n[PD_STOPPED + 1];

	rs->m->served = run_serving = run_only_serves(rs->m);
	rs->accepted0 = pool_accepted();
	if (!rs->m->served)
		return;
	pool_count_states(n);
	*metrics_counter(rs->m, "served_devices") = n[PD_LISTENING];
	log_info("%llu devices listen and no phase is expected: serving "
	    "until %s", (unsigned long long)n[PD_LISTENING],
	    rs->deadline_ns != 0 ? "--duration" : "stopped (SIGINT, SIGTERM)"
	    " or the phases are complete");
}

/* A run about to start: the engine, its metrics and its deadline. */
static void
run_once_init(struct run_state *rs)
{
	engine_init();
	metrics_init(rs->m);
	rs->m->start_ns = clock_ns();
	rs->m->start_real_ns = clock_real_ns();
	rs->complete_ns = 0;
	rs->deadline_hit = 0;
	rs->deadline_ns = rs->ro->duration > 0 ? rs->m->start_ns +
	    (uint64_t)(rs->ro->duration * 1e9) : 0;
	(void)tcp_md5_kstats_read(&rs->md5_k0);
}

/* The watch and the simulator started: 0, or -1 (said on stderr) with
 * what had started stopped again and the engine freed. */
static int
run_once_start(struct run_state *rs)
{
	char	err[512];

	if (run_watch_start(rs, err, sizeof(err)) == -1) {
		fprintf(stderr, "sbsim %s: %s\n", rs->ops->name, err);
		run_watch_stop(rs);
		engine_free();
		return -1;
	}
	if (rs->ops->start(rs->cfg, rs->m, err, sizeof(err)) == -1) {
		fprintf(stderr, "sbsim %s: %s\n", rs->ops->name, err);
		fault_stop();	/* a scenario's groups started theirs */
		rs->ops->stop(rs->cfg);
		run_watch_stop(rs);
		engine_free();
		/* No report for a run that did not start: its phases go. */
		metrics_free(rs->m);
		return -1;
	}
	return 0;
}

/* The loop, with its faults, its tick and (in a worker) the parent's
 * release signal, until the run ends. */
static void
run_once_loop(struct run_state *rs)
{
	struct event	*tick;
	struct timeval	 tv = { 0, RUN_TICK_MS * 1000 };

	fault_start(rs->ro->faults, rs->ro->n_faults, rs->ops->faults,
	    rs->cfg, rs->m, rs->ops->name, run_seed(rs->ro), rs->m->start_ns);
	run_serve_start(rs);
	tick = engine_timer_new(EV_PERSIST, run_tick, rs);
	rs->tick = tick;
	rs->tick_ms = RUN_TICK_MS;
	engine_timer_add(tick, &tv);
	rs->released = 0;
	rs->release = NULL;
	if (rs->ro->worker) {
		rs->release = evsignal_new(engine_base(), SIGUSR1,
		    run_release_signal, rs);
		evsignal_add(rs->release, NULL);
	}
	engine_run();
	engine_event_free(&rs->release);
	event_free(tick);
	rs->tick = NULL;
	fault_stop();
}

/* The run's end: its phases and costs closed, the simulator stopped,
 * the resources it used since usage counted. */
static void
run_once_finish(struct run_state *rs, const struct rusage *usage)
{
	if (rs->progress)
		report_progress_clear(stderr);
	rs->m->end_ns = rs->complete_ns != 0 ? rs->complete_ns : clock_ns();
	rs->m->interrupted = run_was_interrupted(rs);
	run_count_not_up(rs->m);
	if (rs->m->served)
		run_close_served(rs, rs->m->end_ns);
	run_serving = 0;
	run_close_phases(rs->m, rs->m->end_ns);
	if (rs->ro->worker)
		(void)run_worker_progress(rs->m, rs->ro->worker_fd, 0);
	run_cost_sample(rs, clock_ns());
	cost_finish(&rs->ctl, rs->m);
	cost_counters(&rs->ctl, rs->m);
	rs->ops->stop(rs->cfg);
	tcp_md5_report(rs->m, &rs->md5_k0);
	run_watch_stop(rs);
	engine_free();
	run_resources(rs->m, usage);
}

static int
run_once(struct run_state *rs)
{
	struct rusage	usage;

	getrusage(RUSAGE_SELF, &usage);
	run_once_init(rs);
	if (run_once_start(rs) == -1)
		return -1;
	run_once_loop(rs);
	run_once_finish(rs, &usage);
	return 0;
}

/* An --expect naming a phase this kind of run never has is a typo: one
 * line with the names it may have meant, then all of them. */
static int
run_check_expects(const struct sim_ops *ops, const struct run_opts *ro)
{
	const char *const	*p;
	size_t			 i, n, used = 0;
	char			 names[1024] = "", close[256];

	for (i = 0; i < ro->n_expects; i++) {
		if (strcmp(ro->expects[i].phase, EXPECT_PHASE_COUNTERS) == 0)
			continue;
		for (p = ops->phases, n = 0; *p != NULL; p++, n++)
			if (strcmp(*p, ro->expects[i].phase) == 0)
				break;
		if (*p != NULL)
			continue;
		for (p = ops->phases; *p != NULL; p++) {
			used = strlen(names);
			snprintf(names + used, sizeof(names) - used, "%s, ",
			    *p);
		}
		used = strlen(names);
		snprintf(names + used, sizeof(names) - used, "%s",
		    EXPECT_PHASE_COUNTERS);
		for (n = 0; ops->phases[n] != NULL; n++)
			;
		if (expect_suggest(ro->expects[i].phase, ops->phases, n,
		    close, sizeof(close)) > 0)
			fprintf(stderr, "sbsim %s: --expect '%s': unknown "
			    "phase '%s' (did you mean %s? one of %s)\n",
			    ops->name, ro->expects[i].expr,
			    ro->expects[i].phase, close, names);
		else
			fprintf(stderr, "sbsim %s: --expect '%s': unknown "
			    "phase '%s' (one of %s)\n", ops->name,
			    ro->expects[i].expr, ro->expects[i].phase, names);
		return -1;
	}
	return 0;
}

/*
 * An --expect naming a counter the run does not have is a typo too.  A
 * command makes its counters when its devices start (a scenario's
 * GROUP.name with its group), some only once their event happens, so
 * the earliest point that knows them all is the run's end: the report
 * is written, then the mistake is a usage error (2), on one line with
 * the run's counters it may have meant.  -1 when there is one.
 */
static int
run_check_counters(const struct sim_ops *ops, const struct run_opts *ro,
    const struct metrics *runs, size_t n)
{
	const struct expect	*e;
	char			 close[256];
	size_t			 i;

	for (i = 0; i < ro->n_expects; i++) {
		e = &ro->expects[i];
		if (!expect_counter_unknown(e, runs, n, close, sizeof(close)))
			continue;
		if (close[0] != '\0')
			fprintf(stderr, "sbsim %s: --expect '%s': this run "
			    "has no counter '%s' (did you mean %s?)\n",
			    ops->name, e->expr, e->counter, close);
		else
			fprintf(stderr, "sbsim %s: --expect '%s': this run "
			    "has no counter '%s' (the report lists its "
			    "counters)\n", ops->name, e->expr, e->counter);
		return -1;
	}
	return 0;
}

/* --controller-pid names a process we can read, --controller-metrics a
 * URL we can scrape: said before anything starts. */
static int
run_check_watch(const struct sim_ops *ops, const struct run_opts *ro)
{
	struct cost_snap	s;
	char			err[256], addr[256];
	uint16_t		port;

	if (ro->controller_pid != 0 && ro->controller_metrics != NULL) {
		fprintf(stderr, "sbsim %s: --controller-pid and "
		    "--controller-metrics both measure the controller: give "
		    "one\n", ops->name);
		return -1;
	}
	if (ro->controller_pid != 0 &&
	    cost_read_proc((pid_t)ro->controller_pid, &s) == -1) {
		fprintf(stderr, "sbsim %s: --controller-pid %u: no such "
		    "process on this host (/proc/%u/stat)\n", ops->name,
		    ro->controller_pid, ro->controller_pid);
		return -1;
	}
	if (ro->controller_metrics != NULL &&
	    cost_url_check(ro->controller_metrics, err, sizeof(err)) == -1) {
		fprintf(stderr, "sbsim %s: --controller-metrics: %s\n",
		    ops->name, err);
		return -1;
	}
	if (ro->metrics_listen != NULL &&
	    http_listen_parse("--metrics-listen", ro->metrics_listen, addr,
	    sizeof(addr), &port, err, sizeof(err)) == -1) {
		fprintf(stderr, "sbsim %s: %s\n", ops->name, err);
		return -1;
	}
	return 0;
}

void
run_report_opts(struct report_opts *rep, const struct run_opts *ro)
{
	memset(rep, 0, sizeof(*rep));
	rep->version = PACKAGE_VERSION;
	rep->scenario = ro->scenario;
	rep->json_path = ro->report;
	rep->csv_path = ro->csv;
	rep->junit_path = ro->junit;
	rep->expects = ro->expects;
	rep->n_expects = ro->n_expects;
	/* -q prints no table, but a failure still says why (once: by the
	 * parent of --workers, not by each worker). */
	rep->why_out = ro->quiet && !ro->worker ? stderr : NULL;
}

uint32_t *
run_size(const struct sim_ops *ops, void *cfg)
{
	return (uint32_t *)((char *)cfg + ops->size_off);
}

int
run_check_steps(const struct sim_ops *ops, void *cfg,
    const struct run_opts *ro)
{
	const char	*why = NULL;
	uint32_t	 ceiling;
	size_t		 i;

	if (ro->step_group != NULL && strcmp(ops->name, "run") != 0)
		why = "--step-group names a group of sbsim run's scenario";
	else if (ro->n_sweep == 0 && ro->find_max == 0)
		return 0;
	else if (ops->size_opt == NULL)
		why = "this command has no device count to step";
	else if (ro->n_sweep > 0 && ro->find_max > 0)
		why = "--sweep and --find-max: give one";
	else if (ro->repeat > 1)
		why = "--repeat does not go with --sweep or --find-max";
	else if (ro->duration > 0 && ro->find_max > 0)
		why = "--find-max needs runs that end by themselves, not "
		    "--duration";
	if (why != NULL) {
		fprintf(stderr, "sbsim %s: %s\n", ops->name, why);
		return -1;
	}
	ceiling = *run_size(ops, cfg);
	for (i = 0; i < ro->n_sweep; i++)
		if (ro->sweep[i] > ceiling)
			break;
	if (i < ro->n_sweep || ro->find_max > ceiling) {
		fprintf(stderr, "sbsim %s: %s %u is more than %s%s %u, the "
		    "largest size allowed (raise it)\n", ops->name,
		    ro->find_max ? "--find-max" : "--sweep",
		    ro->find_max ? ro->find_max : ro->sweep[i],
		    report_size_dashes(ops->size_opt), ops->size_opt, ceiling);
		return -1;
	}
	return 0;
}

/*
 * --find-max: the next size after one at size n passed (ok) or not;
 * 0 when the search is over.  Double from START until a size fails or
 * the ceiling passes, then bisect between the largest that passed and
 * the smallest that failed until they are neighbours.
 */
static uint32_t
run_find_next(struct report_steps *st, uint32_t n, int ok)
{
	if (ok && n > st->largest_ok)
		st->largest_ok = n;
	if (!ok && (st->smallest_failed == 0 || n < st->smallest_failed))
		st->smallest_failed = n;
	if (st->smallest_failed == 0)
		return st->largest_ok == st->ceiling ? 0 :
		    (uint64_t)n * 2 > st->ceiling ? st->ceiling : n * 2;
	if (st->smallest_failed - st->largest_ok <= 1)
		return 0;
	return st->largest_ok + (st->smallest_failed - st->largest_ok) / 2;
}

void
run_steps_init(struct report_steps *st, struct report_step *steps,
    const struct sim_ops *ops, const struct run_opts *ro, uint32_t ceiling)
{
	memset(st, 0, sizeof(*st));
	memset(steps, 0, RUN_MAX_STEPS * sizeof(*steps));
	st->kind = ro->find_max ? "find_max" : "sweep";
	st->size_opt = ops->size_opt;
	st->ceiling = ceiling;
	st->steps = steps;
}

uint32_t
run_step_done(struct report_steps *st, const struct run_opts *ro, size_t i,
    int ok)
{
	uint32_t	n = st->steps[i].size;

	log_warnx("%s: %s%s %u: %s", st->kind,
	    report_size_dashes(st->size_opt), st->size_opt, n,
	    ok ? "ok" : "FAILED");
	if (ro->find_max)
		return run_find_next(st, n, ok);
	return i + 1 < ro->n_sweep ? ro->sweep[i + 1] : 0;
}

/* Run the steps, each at its size, into steps[]; how many ran. */
static size_t
run_steps_loop(struct run_state *rs, struct report_steps *st,
    struct metrics *runs, struct report_step *steps, size_t max,
    const struct report_opts *rep)
{
	const struct run_opts	*ro = rs->ro;
	uint32_t		 n = ro->find_max ? ro->find_max : ro->sweep[0];
	size_t			 i;

	for (i = 0; i < max && n != 0; i++) {
		if (i > 0 && engine_pause(ro->step_pause))
			break;
		*run_size(rs->ops, rs->cfg) = n;
		rs->m = &runs[i];
		if (run_once(rs) == -1)
			break;
		steps[i].size = n;
		steps[i].run = &runs[i];
		n = run_step_done(st, ro, i, report_run_ok(&runs[i], rep));
		if (engine_interrupted()) {
			i++;
			break;
		}
	}
	return i;
}

static int
run_steps(struct run_state *rs)
{
	struct report_steps	 st;
	struct report_opts	 rep;
	struct report_step	 steps[RUN_MAX_STEPS];
	struct metrics		*runs;
	uint32_t		 ceiling = *run_size(rs->ops, rs->cfg);
	size_t			 i;
	int			 rc, bad;

	run_steps_init(&st, steps, rs->ops, rs->ro, ceiling);
	run_report_opts(&rep, rs->ro);
	runs = xcalloc(RUN_MAX_STEPS, sizeof(*runs));
	st.n = run_steps_loop(rs, &st, runs, steps, RUN_MAX_STEPS, &rep);
	*run_size(rs->ops, rs->cfg) = ceiling;
	if (st.n == 0) {
		free(runs);
		return 2;
	}
	if ((bad = run_check_counters(rs->ops, rs->ro, runs, st.n)) == -1)
		rep.why_out = NULL;	/* the usage error is the line */
	rc = report_emit_steps(&st, &rep, rs->ro->quiet ? NULL : stdout);
	if (bad == -1)
		rc = 2;
	for (i = 0; i < st.n; i++)
		metrics_free(&runs[i]);
	free(runs);
	return rc == 0 ? 0 : rc == 2 ? 2 : 1;
}

/* --start-at further away than this is a mistake (milliseconds?). */
#define RUN_MAX_START_WAIT_S	(7 * 86400)

/* --shard and --start-at: what the command and the other options allow. */
static int
run_check_shard(const struct sim_ops *ops, const struct run_opts *ro)
{
	const char	*why = NULL;
	double		 away;

	if (ro->shard_count > 0 && !ops->shards)
		why = "--shard: this command does not number its devices by "
		    "slice yet";
	else if (ro->workers > 0)	/* its main took no run_workers() */
		why = "--workers: this command does not run in workers yet";
	else if (ro->shard_count > 0 && (ro->n_sweep > 0 || ro->find_max))
		why = "--shard does not go with --sweep or --find-max";
	if (why != NULL) {
		fprintf(stderr, "sbsim %s: %s\n", ops->name, why);
		return -1;
	}
	away = ro->start_at - (double)clock_real_ns() / 1e9;
	if (ro->start_at > 0 && away > RUN_MAX_START_WAIT_S) {
		fprintf(stderr, "sbsim %s: --start-at %.3f is %.0f s away, "
		    "more than a week: seconds since 1970 are expected\n",
		    ops->name, ro->start_at, away);
		return -1;
	}
	return 0;
}

/*
 * --start-at: the shards of a run, maybe on several hosts, start
 * together; one started late starts at once and says so.  1 when a
 * signal came first.
 */
static int
run_wait_start(const struct run_opts *ro)
{
	double	wait;

	if (ro->start_at == 0)
		return 0;
	wait = ro->start_at - (double)clock_real_ns() / 1e9;
	if (wait <= 0) {
		log_warnx("--start-at %.3f was %.3f s ago: starting now",
		    ro->start_at, -wait);
		return 0;
	}
	log_info("waiting %.3f s for --start-at", wait);
	return engine_pause(wait);
}

int
run_shard_slice(const struct run_opts *ro, const char *what, uint32_t total,
    uint32_t *first, uint32_t *count)
{
	uint64_t	lo, hi;

	if (ro->shard_count == 0) {
		*first = 0;
		*count = total;
		return 0;
	}
	lo = (uint64_t)ro->shard_index * total / ro->shard_count;
	hi = (uint64_t)(ro->shard_index + 1) * total / ro->shard_count;
	if (hi == lo)
		cli_die(ro, "--shard %u/%u of %s %u leaves this shard no "
		    "device", ro->shard_index, ro->shard_count, what, total);
	*first = (uint32_t)lo;
	*count = (uint32_t)(hi - lo);
	return 1;
}

void
run_shard_refuse(const struct run_opts *ro, int refused, const char *what)
{
	if (refused && (ro->shard_count != 0 || ro->workers != 0))
		cli_die(ro, "%s does not go with %s",
		    ro->workers ? "--workers" : "--shard", what);
}

void
run_shard_even(const struct run_opts *ro, const char *what, uint64_t value,
    uint32_t total)
{
	if ((ro->shard_count <= 1 && ro->workers <= 1) || total == 0)
		return;
	if (value % total != 0)
		cli_die(ro, "%s: %s %llu does not spread evenly over %u "
		    "devices (give a multiple of %u)", ro->workers > 1 ?
		    "--workers" : "--shard", what, (unsigned long long)value,
		    total, total);
}

uint64_t
run_shard_share(const struct run_opts *ro, const char *what, uint64_t value,
    uint32_t count, uint32_t total)
{
	if (ro->shard_count == 0 || count == total)
		return value;
	run_shard_even(ro, what, value, total);
	return value / total * count;
}

/* The commands' sims (run_sim_new()), reachable until the command's
 * main has returned (a scenario runs its groups' sims after their mains
 * returned to it), then freed by run_free_sims(). */
#define RUN_MAX_SIMS	64
static void	*run_sims[RUN_MAX_SIMS];
static size_t	 run_nsims;

void *
run_sim_new(size_t size)
{
	if (run_nsims == RUN_MAX_SIMS)
		fatalx("more than %d commands' sims", RUN_MAX_SIMS);
	return run_sims[run_nsims++] = xcalloc(1, size);
}

void
run_free_sims(void)
{
	while (run_nsims > 0)
		free(run_sims[--run_nsims]);
}

/* run_collect()'s slot and what the filled slot goes on with. */
static struct run_group	*run_slot;
static run_next_fn	 run_slot_next;
static void		*run_slot_arg;

void
run_collect(struct run_group *g, run_next_fn next, void *arg)
{
	run_slot = g;
	run_slot_next = next;
	run_slot_arg = arg;
}

int
run_collecting(void)
{
	return run_slot != NULL;
}

/* What a run's options ask that it cannot do, before anything starts:
 * 0, or -1 once said on stderr. */
static int
run_check_all(const struct sim_ops *ops, void *cfg, const struct run_opts *ro)
{
	char	err[512];

	if (fault_check(ro->faults, ro->n_faults, ops->faults, ro->duration,
	    err, sizeof(err)) == -1) {
		fprintf(stderr, "sbsim %s: %s\n", ops->name, err);
		return -1;
	}
	if (run_check_expects(ops, ro) == -1 ||
	    run_check_watch(ops, ro) == -1 ||
	    run_check_steps(ops, cfg, ro) == -1 ||
	    run_check_shard(ops, ro) == -1)
		return -1;
	if (engine_check_fds(ops->fds_needed(cfg), "these devices", err,
	    sizeof(err)) == -1) {
		fprintf(stderr, "sbsim %s: %s\n", ops->name, err);
		return -1;
	}
	return 0;
}

/* --repeat runs into runs[]: how many finished, or -1 when the first
 * did not start.  An interrupt ends the series. */
static int
run_repeats(struct run_state *rs, struct metrics *runs)
{
	unsigned	i, n = 0;

	for (i = 0; i < rs->ro->repeat; i++) {
		rs->m = &runs[i];
		if (rs->ro->repeat > 1)
			log_info("run %u of %u", i + 1, rs->ro->repeat);
		if (run_once(rs) == -1)
			return n == 0 ? -1 : (int)n;
		n++;
		if (engine_interrupted())
			break;
	}
	return (int)n;
}

/* The report of n runs, which are freed: the exit status. */
static int
run_report_runs(const struct sim_ops *ops, const struct run_opts *ro,
    struct metrics *runs, unsigned n)
{
	struct report_opts	rep;
	unsigned		i;
	int			rc, bad;

	run_report_opts(&rep, ro);
	if ((bad = run_check_counters(ops, ro, runs, n)) == -1)
		rep.why_out = NULL;	/* the usage error is the line */
	rc = report_emit(runs, n, &rep, ro->quiet ? NULL : stdout);
	if (bad == -1)
		rc = 2;
	for (i = 0; i < n; i++)
		metrics_free(&runs[i]);
	free(runs);
	return rc == 0 ? 0 : rc == 2 ? 2 : 1;
}

int
run_main(const struct sim_ops *ops, void *cfg, const struct run_opts *ro)
{
	struct run_state	 rs;
	struct metrics		*runs;
	int			 n;

	if (run_slot != NULL) {
		run_slot->ops = ops;
		run_slot->cfg = cfg;
		run_slot->ro = ro;
		run_slot = NULL;
		return run_slot_next(run_slot_arg);
	}
	if (run_check_all(ops, cfg, ro) == -1)
		return 2;
	srandom(run_seed(ro));
	memset(&rs, 0, sizeof(rs));
	rs.ops = ops;
	rs.cfg = cfg;
	rs.ro = ro;
	rs.progress = isatty(STDERR_FILENO);
	if (run_wait_start(ro)) {
		fprintf(stderr, "sbsim %s: interrupted before --start-at\n",
		    ops->name);
		return 2;
	}
	if (ro->n_sweep > 0 || ro->find_max > 0)
		return run_steps(&rs);
	runs = xcalloc(ro->repeat, sizeof(*runs));
	if ((n = run_repeats(&rs, runs)) == -1) {
		free(runs);
		return 2;
	}
	return run_report_runs(ops, ro, runs, (unsigned)n);
}

static void
run_sources(struct pool_config *pc, const struct run_opts *ro,
    const char *what, const char *ep_arg, uint32_t devices)
{
	char	err[256];

	if (ro->source != NULL) {
		if (endpoint_passive(&pc->ep))
			cli_die(ro, "--source makes no sense with ptcp: (the "
			    "devices listen)");
		if (source_parse(ro->source, &pc->src, err, sizeof(err)) == -1)
			cli_die(ro, "--source: %s", err);
	} else if (!endpoint_passive(&pc->ep) &&
	    endpoint_is_loopback(&pc->ep) && pc->ep.ss.ss_family == AF_INET)
		source_parse("127.1.0.0/16", &pc->src, err, sizeof(err));
	if (pc->src.family != AF_UNSPEC &&
	    pc->src.family != pc->ep.ss.ss_family)
		cli_die(ro, "--source %s and %s %s are of different address "
		    "families", ro->source, what, ep_arg);
	if (pc->src.family != AF_UNSPEC && pc->src.count < devices)
		cli_die(ro, "--source %s has %llu addresses for %u devices",
		    pc->src.text, (unsigned long long)pc->src.count, devices);
}

void
run_pool_endpoint(struct pool_config *pc, const struct run_opts *ro,
    const char *what, const char *ep_arg, unsigned ep_kinds,
    const char *kinds_msg)
{
	char	err[256];

	pool_config_defaults(pc);
	if (ep_arg == NULL)
		cli_die(ro, "%s is required (%s)", what, kinds_msg);
	if (endpoint_parse(ep_arg, &pc->ep, err, sizeof(err)) == -1)
		cli_die(ro, "%s: %s", what, err);
	if (!(ep_kinds & (1u << pc->ep.kind)))
		cli_die(ro, "%s: %s", what, kinds_msg);
	pc->connect_rate = ro->connect_rate;
	pc->max_inflight = ro->max_inflight;
	pc->connect_timeout_ms = (unsigned)(ro->connect_timeout * 1000 + 0.5);
	pc->backoff_min_ms = ro->backoff_min_ms;
	pc->backoff_max_ms = ro->backoff_max_ms;
}

void
run_listen_range(struct pool_config *pc, const struct run_opts *ro,
    const char *what, uint32_t devices)
{
	char	err[256];

	if (source_parse(ro->source, &pc->src, err, sizeof(err)) == -1)
		cli_die(ro, "--source: %s", err);
	if (pc->src.family != pc->ep.ss.ss_family)
		cli_die(ro, "--source %s and %s are of different address "
		    "families", ro->source, what);
	if (pc->src.count < devices)
		cli_die(ro, "--source %s has %llu addresses for %u devices",
		    pc->src.text, (unsigned long long)pc->src.count, devices);
}

void
run_listen_ports(const struct pool_config *pc, const struct run_opts *ro,
    uint32_t devices, const char *noun)
{
	if (endpoint_passive(&pc->ep) && pc->src.family == AF_UNSPEC &&
	    (uint64_t)pc->ep.port + devices - 1 > 65535)
		cli_die(ro, "%s with %u %s would need ports past 65535",
		    pc->ep.text, devices, noun);
}

void
run_pool_config(struct pool_config *pc, const struct run_opts *ro,
    const char *what, const char *ep_arg, unsigned ep_kinds,
    const char *kinds_msg, uint32_t devices)
{
	run_pool_endpoint(pc, ro, what, ep_arg, ep_kinds, kinds_msg);
	run_sources(pc, ro, what, ep_arg, devices);
}

unsigned
run_pools_config(struct pool_config *pcs, const struct run_opts *ro,
    const char *noun, unsigned max, unsigned ep_kinds, const char *kinds_msg,
    const char *many_msg, uint32_t count)
{
	const char	*eps[RUN_MAX_CONTROLLERS];
	char		*copy;
	unsigned	 k, n;

	if (max > RUN_MAX_CONTROLLERS)
		max = RUN_MAX_CONTROLLERS;
	n = cli_controllers(ro, noun, max, eps, &copy);
	for (k = 0; k < n; k++)
		run_pool_config(&pcs[k], ro, "--controller", eps[k],
		    n == 1 ? ep_kinds : 1u << EP_TCP,
		    n == 1 ? kinds_msg : many_msg, count);
	free(copy);
	return n;
}
