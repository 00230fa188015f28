/*
 * The run driver shared by every device kind: descriptor check, --repeat,
 * the 100 ms tick (completion, timeouts, --duration, progress line),
 * signals, and the reports at the end.
 */
#ifndef SBSIM_RUN_H
#define SBSIM_RUN_H

#include <stdint.h>

#include "cli.h"
#include "fault.h"
#include "metrics.h"

struct report_opts;
struct report_step;
struct report_steps;

struct sim_ops {
	const char	*name;		/* the command's */
	/* Every phase name a run may have, NULL-terminated, so that an
	 * --expect on an unknown phase is refused before the run. */
	const char *const *phases;
	/* Descriptors one run needs. */
	uint32_t	(*fds_needed)(void *cfg);
	/* Build and start one run's devices; -1 with a message in err. */
	int		(*start)(void *cfg, struct metrics *, char *err,
			    size_t errlen);
	/* Every tick: 1 when the run is complete. */
	int		(*tick)(void *cfg, uint64_t now_ns);
	/* Stop and free the run's devices, fold their stats into counters. */
	void		(*stop)(void *cfg);
	/* The device count option ("switches") and where its uint32_t
	 * field is in cfg (offsetof), which --sweep and --find-max set
	 * before each start() (run_size()); size_opt NULL: the command
	 * cannot step its size.  start() must take the count from there,
	 * and the options' checks hold for every count up to the one
	 * given (the ceiling). */
	const char	*size_opt;
	size_t		 size_off;
	/* The --fault kinds the command's devices take (fault.h),
	 * NULL-terminated; NULL: none. */
	const struct fault_kind *faults;
	/* 1: the command takes --shard I/N (its main numbers its slice of
	 * devices with run_shard_slice()); 0: refused. */
	int		 shards;
};

/*
 * The sim_ops of command cmd written in the house's names, prefix p:
 * p_phase_names, p_fds_needed, p_start, p_tick, p_stop, p_fault_kinds,
 * its device count the uint32_t cfg.cnt of struct p_sim (the option of
 * that name, which --sweep and --find-max step), and --shard taken (its
 * main slices the devices with run_shard_slice()).
 */
#define SIM_OPS(p, cmd, cnt) {						\
	cmd, p##_phase_names, p##_fds_needed, p##_start, p##_tick,	\
	p##_stop, #cnt, offsetof(struct p##_sim, cfg.cnt),		\
	p##_fault_kinds, 1						\
}

/*
 * `sbsim run` (a scenario): one group's command main, called after
 * run_collect(), parses and checks its options as ever; its run_main()
 * then fills g with its sim, its configuration and its run options, and
 * instead of running returns next(arg): the next group's main, and in
 * the last the run of them all.  The mains' frames stay on the stack
 * meanwhile (g->ro points into one), and each frees what it made once
 * next() returned, as after a run of its own.
 */
struct run_group {
	const struct sim_ops	*ops;
	void			*cfg;
	const struct run_opts	*ro;
};
typedef int	(*run_next_fn)(void *arg);
void	 run_collect(struct run_group *g, run_next_fn next, void *arg);
/* 1 between run_collect() and the run_main() it waits for. */
int	 run_collecting(void);

/*
 * A command's sim, zeroed: one per call of its main, so that a scenario
 * may hold several groups of one protocol.  It lives until the command
 * has returned (what it points to stays reachable when a usage error
 * exits).
 */
void	*run_sim_new(size_t size);
/* Frees them, once the command's main has returned. */
void	 run_free_sims(void);

/*
 * Run the simulation ro->repeat times and report.  Returns the process exit
 * status: 0 all phases done and expectations met, 1 otherwise, 2 when the
 * run could not start (too many descriptors, cannot listen, ...).
 */
int	 run_main(const struct sim_ops *, void *cfg, const struct run_opts *);
/* The device count of cfg that --sweep and --find-max step
 * (sim_ops.size_off). */
uint32_t *run_size(const struct sim_ops *, void *cfg);

/*
 * The device pool's configuration from the run's options: the endpoint
 * ep_arg (what: the option that gave it, "--controller", for errors), of
 * a kind in ep_kinds (bits 1 << EP_TCP, ...; kinds_msg says what is
 * allowed when it is not), the source range (--source, or 127.1.0.0/16
 * towards an IPv4 loopback controller, so that each device has the
 * address the controller tells it apart by; devices says how many need
 * one), the connect ramp and the backoff.  Bad input: a usage error,
 * exit status 2.
 */
struct pool_config;
void	 run_pool_config(struct pool_config *, const struct run_opts *,
	    const char *what, const char *ep_arg, unsigned ep_kinds,
	    const char *kinds_msg, uint32_t devices);
/*
 * --controller EP[,EP...] (cli_controllers(): at most max of noun) into
 * pcs[0..n), each device connecting to every controller from its one
 * address (count devices): one controller's endpoint of ep_kinds (else
 * kinds_msg), several controllers' tcp: only (else many_msg).  n.
 */
unsigned run_pools_config(struct pool_config *pcs, const struct run_opts *,
	    const char *noun, unsigned max, unsigned ep_kinds,
	    const char *kinds_msg, const char *many_msg, uint32_t count);
/* The same without the source range (a device that picks its own
 * address, such as a monitor peer). */
void	 run_pool_endpoint(struct pool_config *, const struct run_opts *,
	    const char *what, const char *ep_arg, unsigned ep_kinds,
	    const char *kinds_msg);

/*
 * Passive devices with --source CIDR: device i listens on the i-th
 * address of CIDR, all on the endpoint's port (a controller that tells
 * devices apart by address, as real networks do), instead of PORT+i.
 * what names the endpoint's option for errors.  Bad input: a usage
 * error, exit status 2.
 */
void	 run_listen_range(struct pool_config *, const struct run_opts *,
	    const char *what, uint32_t devices);
/* Passive devices without --source listen on PORT+i: exit 2 ("EP with
 * N nouns would need ports past 65535") when the last port would not
 * exist.  Nothing for an active endpoint. */
void	 run_listen_ports(const struct pool_config *,
	    const struct run_opts *, uint32_t devices, const char *noun);

/*
 * --shard I/N of a run of total devices: the slice's first device's
 * number in the whole run and how many it has, [I*total/N,
 * (I+1)*total/N), and 1; the whole run (0, total) and 0 without
 * --shard.  what names the count option for errors; a slice of none is
 * a usage error.
 */
int	 run_shard_slice(const struct run_opts *, const char *what,
	    uint32_t total, uint32_t *first, uint32_t *count);
/* With --shard or --workers, a setting the slices cannot share
 * (refused non-zero) is a usage error: "--shard does not go with what". */
void	 run_shard_refuse(const struct run_opts *, int refused,
	    const char *what);
/*
 * --workers N, called by a command's main once its options are checked
 * and before it numbers its slice (run_shard_slice()): forks N workers,
 * each of which returns 0 with ro made shard i/N (its report to a file
 * of its own, progress to the parent) and goes on to run; the parent
 * waits for them, merges their reports (src/run/merge.h) into the run's,
 * and returns 1 with the exit status in rc (1 when a worker died, named
 * on stderr with its last progress).  0 at once without --workers.
 * what and total: the count option ("--switches") and its value.
 * --repeat and each step of --sweep / --find-max fork fresh workers
 * (a step of S devices: S of them at most), the step's size set through
 * run_size() before the fork.  A scenario's group being collected
 * (run_collecting()) is checked only, and returns 0: the scenario forks
 * its workers itself.
 */
int	 run_workers(const struct sim_ops *, void *cfg, struct run_opts *,
	    const char *what, uint32_t total, int *rc);

/* What --workers refuses (a command that does not shard, --shard,
 * --sweep or --find-max without a device count to step: a scenario): a
 * usage error.  run_workers() checks it first; a scenario, before its
 * groups. */
void	 run_workers_check(const struct sim_ops *, const struct run_opts *);
/*
 * --fault over N workers, in worker i: the specs f[0..nf) split so that
 * the whole run gets what was asked (a rate shared, RATE/N each; given
 * times to the workers in turn).  Used by run_workers() and by a
 * scenario's worker for each group's --fault.
 */
void	 run_split_faults(struct fault_spec *f, size_t nf, unsigned i,
	    unsigned n);
/* The report options every kind of run writes with. */
void	 run_report_opts(struct report_opts *, const struct run_opts *);
/* --sweep and --find-max: what the command and the options allow; -1
 * after saying why on stderr. */
int	 run_check_steps(const struct sim_ops *, void *cfg,
	    const struct run_opts *);
/* Find-max doubles up to log2(ceiling) times, then bisects as often. */
/* Controllers a device may connect to at once (--controller EP,...). */
#define RUN_MAX_CONTROLLERS	8
#define RUN_MAX_STEPS	(CLI_MAX_SWEEP + 2)
/* The steps' report before the first: empty, of the kind the options
 * ask for, over steps[RUN_MAX_STEPS]. */
void	 run_steps_init(struct report_steps *, struct report_step *steps,
	    const struct sim_ops *, const struct run_opts *, uint32_t ceiling);
/* Step i (its size and run in st->steps[i]) passed (ok) or not: logged,
 * counted in a --find-max search; the next size, 0 when none is left. */
uint32_t run_step_done(struct report_steps *, const struct run_opts *,
	    size_t i, int ok);
/*
 * --seed, and a shard's own: shard I of a run (--shard I/N, a worker of
 * --workers) draws from SEED + I * 1000003.
 */
unsigned run_seed(const struct run_opts *);

/*
 * A whole-run total (what, e.g. "--expect-flows") spread over the slice
 * of count devices out of total: value * count / total, which must be
 * whole (a usage error when not).
 */
uint64_t run_shard_share(const struct run_opts *, const char *what,
	    uint64_t value, uint32_t count, uint32_t total);
/* The same check, before the slices are known (--workers, before its
 * fork): with --shard or --workers, value must spread evenly. */
void	 run_shard_even(const struct run_opts *, const char *what,
	    uint64_t value, uint32_t total);

/*
 * Several controllers: one connect phase per controller k of the n,
 * ph[k], named names[k] (static, as metrics keeps them; the house's are
 * run_connect_names[], "connect.c1" to "connect.c8") in
 * group, its target the devices (each connects to every controller),
 * begun at now.  ph (size bytes) is cleared first: all NULL when n < 2,
 * the run's connect phase being the only one.
 */
extern const char *const run_connect_names[RUN_MAX_CONTROLLERS];
void	 run_connect_phases(struct metrics *, struct phase **ph, size_t size,
	    const char *const *names, unsigned n, const char *group,
	    uint64_t target, uint64_t now_ns);

/*
 * End a running phase that waited longer than timeout_s since its trigger
 * (or since it_last item): TIMEOUT.  Helper for tick().
 */
int	 run_phase_timed_out(const struct phase *, uint64_t now_ns,
	    double timeout_s);
/* The same, ending it (PHASE_TIMEOUT); 1 when it did.  NULL: 0. */
int	 run_phase_timeout(struct phase *, uint64_t now_ns, double timeout_s);
/* run_phase_timeout() over ph[0..n), but for the phases whose bit is
 * set in untimed (those that run for a duration, not to a target). */
void	 run_phases_timeout(struct phase **ph, int n, unsigned untimed,
	    uint64_t now_ns, double timeout_s);
/*
 * From a sim's tick: nothing of the sim's is due before until_ns (its
 * phases over, its devices only held for a while), so the run ticks
 * less often until then, at most a second apart: an idle tick is a
 * wakeup, which costs more CPU than all a hold does.  It lapses at the
 * next tick, which asks again.  Not while faults are due, the controller's
 * cost is sampled (each tick) or the run completed (its linger).
 */
void	 run_quiet_until(uint64_t until_ns);
/* For a tick that calls several (a scenario's groups): what was asked
 * since the last call, 0: nothing; it is cleared. */
uint64_t run_quiet_take(void);

#endif
