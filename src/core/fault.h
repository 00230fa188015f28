/*
 * Injected faults (guide.md, "Injected faults"): --fault
 * KIND[:RATE|@T1,T2,...][/ARG], repeatable.  Each spec is a schedule, a
 * Poisson rate per second over the run (seeded from --seed) or fixed
 * times in seconds from the run's start; at each of its times a device
 * chosen at random takes the fault through its protocol's handler, and
 * the report counts fault_KIND (and fault_KIND_missed when no device
 * could take it then).  A protocol declares the kinds it supports in a
 * table of its own (sim_ops.faults); the engine knows none but drop's
 * helper over the device pool.
 */
#ifndef SBSIM_FAULT_H
#define SBSIM_FAULT_H

#include <stddef.h>
#include <stdint.h>

#define FAULT_MAX_SPECS		16	/* --fault options per run */
#define FAULT_MAX_TIMES		64	/* @T1,T2,... of one spec */
#define FAULT_KIND_MAX		24

/* One --fault, as parsed (its kind is checked against the command's). */
struct fault_spec {
	char		 kind[FAULT_KIND_MAX];
	double		 rate;		/* per second; 0: the times below */
	double		 at[FAULT_MAX_TIMES];	/* seconds, ascending */
	size_t		 n_at;
	int		 has_arg;
	uint32_t	 arg;
	const char	*text;		/* the option's argument */
};

/* What one fault is given: rnd picks the device, arg is ARG or the
 * kind's default. */
struct fault_shot {
	uint64_t	 rnd;
	uint32_t	 arg;
	uint64_t	 now_ns;
	const struct fault_kind	*kind;	/* the kind injected */
};

struct pool;

/* One kind a protocol supports. */
struct fault_kind {
	const char	*name;		/* "port-flap" */
	const char	*arg_meta;	/* "MS"; NULL: the kind takes no ARG */
	uint32_t	 arg_min, arg_max, arg_default;
	/* Into the device shot->rnd picks among those that can take it
	 * now: 0 when one did, -1 when none could (none is up). */
	int		(*inject)(void *cfg, const struct fault_shot *);
	/* At the run's end, before the devices stop: let go of what
	 * faults still under way hold (a flap's timer); NULL: nothing. */
	void		(*stop)(void *cfg);
	/* FAULT_KIND_DROP and FAULT_KIND_DELAY: the array of pools in cfg
	 * that the devices are on (*n of them, at least one, each device
	 * on every one); NULL for the other kinds. */
	struct pool	*(*pools)(void *cfg, unsigned *n);
};

/* The kinds every pool's devices take alike (fault_pools_drop(),
 * fault_pools_delay()), a device of the pools pools(cfg) gives. */
#define FAULT_KIND_DROP(pools)	\
	{ "drop", NULL, 0, 0, 0, fault_pools_drop, NULL, pools }
#define FAULT_KIND_DELAY(pools)	\
	{ "delay", "MS", 1, 60000, 200, fault_pools_delay, NULL, pools }
#define FAULT_KIND_END	{ NULL, NULL, 0, 0, 0, NULL, NULL, NULL }

/* Parse one --fault argument into spec; -1 with a message in err. */
int	 fault_parse(const char *arg, struct fault_spec *, char *err,
	    size_t errlen);
/*
 * The specs against the command's kinds (NULL: none) and the run's
 * duration (a rate runs until --duration); -1 with a message in err
 * that lists the kinds.
 */
int	 fault_check(const struct fault_spec *, size_t n,
	    const struct fault_kind *kinds, double duration, char *err,
	    size_t errlen);

/*
 * One set of faults (a run's, or a scenario group's: up to 16 sets at
 * once, each independent): their counters and reconnect phase in m (a
 * group's scope, so GROUP.fault_drop), each schedule armed from start_ns
 * on the engine's base, the set's own generator seeded from seed (the
 * run's --seed; a scenario puts the group's index above bit 32, so that
 * groups draw apart).  Nothing when n is 0.  fault_stop() disarms every
 * set (before the devices stop).
 */
struct metrics;
void	 fault_start(const struct fault_spec *, size_t n,
	    const struct fault_kind *kinds, void *cfg, struct metrics *m,
	    const char *protocol, uint64_t seed, uint64_t start_ns);
void	 fault_stop(void);
/* Non-zero while a fixed schedule of any set has faults to come, a
 * delayed device still holds its output, or a dropped device is not back
 * and its set's last drop is less than timeout_s old (a controller that
 * never takes them back does not hold the run for ever): the run is not
 * complete yet. */
int	 fault_busy(uint64_t now_ns, double timeout_s);

/*
 * drop: the connection of an up device, picked by rnd, closed abruptly
 * as a peer's reset would (it reconnects with its backoff, a passive
 * device waits for the controller); the reconnect phase counts it back
 * up.  0, or -1 when no device is up.
 * delay: an up device, picked by rnd, holds everything it sends (its
 * bufferevent's EV_WRITE off: it reads and answers as ever, its output
 * queued in order) for a time uniform in [ARG/2, 3*ARG/2] ms, then sends
 * it all.  Counts fault_delay_ms (the times drawn) and fault_delay_bytes
 * (what was held when let go).  0, or -1 when no device is up and not
 * already delayed.
 * Both on the pool of shot->kind->pools(cfg) that rnd picks, then on the
 * next ones while none of its devices can take it.
 */
struct pool_dev;
int	 fault_pools_drop(void *cfg, const struct fault_shot *);
int	 fault_pools_delay(void *cfg, const struct fault_shot *);
/* A device whose session a fault ends in its protocol's own way (a
 * session flap: CLOSE, NOTIFICATION Cease) before the pool loses it: the
 * reconnect phase of the set injecting expects it back (outside a
 * fault's handler, of the run's only set). */
void	 fault_dev_dropped(struct pool_dev *, uint64_t now_ns);
/* From the pool (its struct pool_watch): a device dropped by a fault is
 * connected again. */
void	 fault_dev_up(struct pool_dev *, uint64_t now_ns);
/*
 * The device a shot picks: of the n devices in the array at base (size
 * bytes each) that ok() takes, the one rnd picks (rnd modulo their
 * count); NULL when ok() takes none.
 */
void	*fault_pick(void *base, size_t n, size_t size,
	    int (*ok)(const void *dev), uint64_t rnd);
/*
 * A session-flap kind's handler for a device array: the device
 * fault_pick() gives (shot->rnd) is counted dropped (its pool_dev at
 * pd_off bytes) and ends its session through flap(), which brings it back
 * the protocol's way.  -1 when ok() takes none.
 */
int	 fault_pick_flap(void *base, size_t n, size_t size, size_t pd_off,
	    int (*ok)(const void *dev), void (*flap)(void *dev),
	    const struct fault_shot *shot);

#endif
