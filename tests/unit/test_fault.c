/*
 * Unit tests of src/core/fault.c: the --fault grammar and its exact errors,
 * the check against a command's kinds, a fixed schedule fired on the
 * event loop (every time, in order, each counted or missed), one seed
 * giving one sequence of device picks, fault_busy() holding a run
 * until the schedule is over, and a scenario's sets apart (each its
 * configuration, scope and generator; fault_busy() and fault_stop() over
 * all).
 */
#include <string.h>

#include <event2/event.h>

#include "engine.h"
#include "fault.h"
#include "metrics.h"

#include "check.h"

static uint64_t	 shots, rnds[8];
static int	 take = 1;	/* inject's answer: 1 taken, 0 missed */

static int
fake_inject(void *cfg, const struct fault_shot *shot)
{
	(void)cfg;
	if (shots < 8)
		rnds[shots] = shot->rnd;
	shots++;
	return take ? 0 : -1;
}

static const struct fault_kind kinds[] = {
	{ "drop", NULL, 0, 0, 0, fake_inject, NULL, NULL },
	{ "port-flap", "MS", 1, 60000, 1000, fake_inject, NULL, NULL },
	FAULT_KIND_END
};

static void
test_parse(void)
{
	struct fault_spec	s;
	char			err[256];

	CHECK(fault_parse("drop:2.5", &s, err, sizeof(err)) == 0 &&
	    strcmp(s.kind, "drop") == 0 && s.rate == 2.5 && s.n_at == 0 &&
	    !s.has_arg, "drop:2.5");
	CHECK(fault_parse("port-flap@1,1.5,3/250", &s, err, sizeof(err)) ==
	    0 && strcmp(s.kind, "port-flap") == 0 && s.rate == 0 &&
	    s.n_at == 3 && s.at[0] == 1 && s.at[1] == 1.5 && s.at[2] == 3 &&
	    s.has_arg && s.arg == 250, "port-flap@1,1.5,3/250");
	CHECK(fault_parse("drop@0", &s, err, sizeof(err)) == 0 &&
	    s.n_at == 1 && s.at[0] == 0, "drop@0");
}

static void
bad(const char *arg, const char *want)
{
	struct fault_spec	s;
	char			err[256] = "";

	CHECK(fault_parse(arg, &s, err, sizeof(err)) == -1 &&
	    strstr(err, want) != NULL, "%s: %s", arg, err);
}

static void
test_parse_errors(void)
{
	char	many[400];
	size_t	i;

	bad("drop", "expected KIND:RATE or KIND@T1,T2,...");
	bad(":1", "expected a kind");
	bad("Drop:1", "expected a kind");
	bad("drop:0", "expected a rate per second");
	bad("drop:-1", "expected a rate per second");
	bad("drop:2000000", "expected a rate per second");
	bad("drop:x", "expected a rate per second");
	bad("drop@", "ascending");
	bad("drop@2,1", "ascending");
	bad("drop@-1", "ascending");
	bad("drop@1,", "ascending");
	bad("drop@1/", "expected '/ARG'");
	bad("drop@1/x", "expected '/ARG'");
	bad("drop@1/5x", "expected '/ARG'");
	bad("drop@1/99999999999", "expected '/ARG'");
	bad("drop:1x", "expected '/ARG'");
	strcpy(many, "drop@0");
	for (i = 0; i < FAULT_MAX_TIMES; i++)
		strcat(many, ",1");
	bad(many, "at most 64 times");
}

static void
checked(const char *arg, double duration, const struct fault_kind *k,
    const char *want)
{
	struct fault_spec	s;
	char			err[256] = "";
	int			rc;

	CHECK(fault_parse(arg, &s, err, sizeof(err)) == 0, "parse %s", arg);
	rc = fault_check(&s, 1, k, duration, err, sizeof(err));
	if (want == NULL)
		CHECK(rc == 0, "%s: checked (%s)", arg, err);
	else
		CHECK(rc == -1 && strstr(err, want) != NULL, "%s: %s", arg,
		    err);
}

static void
test_check(void)
{
	checked("drop@1", 0, kinds, NULL);
	checked("port-flap@1/60000", 0, kinds, NULL);
	checked("drop:3", 10, kinds, NULL);
	checked("drop:3", 0, kinds, "a rate goes on until --duration");
	checked("flap@1", 0, kinds,
	    "unknown kind 'flap' (one of drop port-flap/MS)");
	checked("drop@1", 0, NULL, "unknown kind 'drop' (this command has "
	    "none)");
	checked("drop@1/3", 0, kinds, "drop takes no /ARG");
	checked("port-flap@1/0", 0, kinds, "port-flap MS from 1 to 60000");
	checked("port-flap@1/60001", 0, kinds, "port-flap MS from 1 to "
	    "60000");
}

/*
 * Every 10 ms: the loop stops once the schedules are over (no shot left
 * to fire), or after 10 s.  Not after a fixed time: a shot arms the next
 * when it fires, so a loaded host that holds the process past a fixed
 * end would have it stop before shots that were due.
 */
static uint64_t	 stop_by_ns;

static void
stop_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	if (fault_busy(clock_ns(), 60) && clock_ns() < stop_by_ns)
		return;
	engine_stop("test over");
}

/* Run the loop until the schedules are over (stop_cb). */
static void
run_until_over(void)
{
	struct timeval	 tv = { 0, 10 * 1000 };
	struct event	*ev;

	stop_by_ns = clock_ns() + 10ull * 1000000000ull;
	ev = event_new(engine_base(), -1, EV_PERSIST, stop_cb, NULL);
	CHECK(ev != NULL && event_add(ev, &tv) == 0, "the stop poll");
	engine_run();
	event_free(ev);
}

/* Run the loop with the specs armed until their schedule is over. */
static void
run_specs(const char *const *args, size_t n, unsigned seed,
    struct metrics *m)
{
	static struct fault_spec	specs[4];
	char				err[256];
	size_t				i;

	for (i = 0; i < n; i++)
		if (fault_parse(args[i], &specs[i], err, sizeof(err)) == -1)
			CHECK(0, "%s", err);
	shots = 0;
	engine_init();
	metrics_init(m);
	fault_start(specs, n, kinds, NULL, m, "test", seed, clock_ns());
	CHECK(fault_busy(clock_ns(), 60), "busy while the schedule runs");
	run_until_over();
	fault_stop();
	engine_free();
}

static void
test_schedule(void)
{
	static const char *const	args[] = { "drop@0,0.02,0.04",
					    "port-flap@0.01/5" };
	struct metrics			m;

	take = 1;
	run_specs(args, 2, 1, &m);
	CHECK(shots == 4, "4 shots, got %llu", (unsigned long long)shots);
	CHECK(metrics_counter_value(&m, "fault_drop") == 3,
	    "fault_drop 3: %llu", (unsigned long long)
	    metrics_counter_value(&m, "fault_drop"));
	CHECK(metrics_counter_value(&m, "fault_port_flap") == 1,
	    "fault_port_flap 1 ('_' for '-')");
	CHECK(metrics_counter_value(&m, "fault_drop_missed") == 0,
	    "no drop missed");
	CHECK(!fault_busy(clock_ns(), 60), "not busy once stopped");
	metrics_free(&m);
	take = 0;
	run_specs(args, 1, 1, &m);
	CHECK(metrics_counter_value(&m, "fault_drop") == 0 &&
	    metrics_counter_value(&m, "fault_drop_missed") == 3,
	    "a shot no device takes is missed");
	metrics_free(&m);
}

static void
test_seed(void)
{
	static const char *const	args[] = { "drop@0,0,0" };
	struct metrics			m;
	uint64_t			first[3];

	take = 1;
	run_specs(args, 1, 7, &m);
	metrics_free(&m);
	memcpy(first, rnds, sizeof(first));
	run_specs(args, 1, 7, &m);
	metrics_free(&m);
	CHECK(memcmp(first, rnds, sizeof(first)) == 0,
	    "one seed, one sequence of picks");
	run_specs(args, 1, 8, &m);
	metrics_free(&m);
	CHECK(memcmp(first, rnds, sizeof(first)) != 0,
	    "another seed, other picks");
	CHECK(first[0] != first[1] && first[1] != first[2],
	    "picks differ within a run");
}

/* A group's inject: its own configuration counts, its first pick kept. */
struct group_cfg {
	uint64_t	shots;
	uint64_t	first_rnd;
};

static int
group_inject(void *cfg, const struct fault_shot *shot)
{
	struct group_cfg	*g = cfg;

	if (g->shots++ == 0)
		g->first_rnd = shot->rnd;
	return 0;
}

static const struct fault_kind group_kinds[] = {
	{ "drop", NULL, 0, 0, 0, group_inject, NULL, NULL },
	FAULT_KIND_END
};

static void
test_sets(void)
{
	static struct fault_spec	 a[1], b[2];
	struct metrics			 m, sa, sb;
	struct group_cfg		 ga = { 0, 0 }, gb = { 0, 0 };
	char				 err[256];

	CHECK(fault_parse("drop@0,0.01", &a[0], err, sizeof(err)) == 0 &&
	    fault_parse("drop@0.005", &b[0], err, sizeof(err)) == 0 &&
	    fault_parse("drop@0.02", &b[1], err, sizeof(err)) == 0,
	    "specs");
	engine_init();
	metrics_init(&m);
	metrics_scope(&sa, &m, "a");
	metrics_scope(&sb, &m, "b");
	/* Both from seed 1, as a scenario's groups are: the group's index
	 * above bit 32 sets them apart. */
	fault_start(a, 1, group_kinds, &ga, &sa, "test", 1, clock_ns());
	fault_start(b, 2, group_kinds, &gb, &sb, "test",
	    (uint64_t)1 << 32 | 1, clock_ns());
	fault_start(NULL, 0, NULL, NULL, &m, "run", 1, clock_ns());
	CHECK(fault_busy(clock_ns(), 60), "busy while a set's schedule runs");
	run_until_over();
	CHECK(!fault_busy(clock_ns(), 60), "not busy once both are over");
	fault_stop();
	engine_free();
	CHECK(ga.shots == 2 && gb.shots == 2, "each set into its own "
	    "configuration: %llu %llu", (unsigned long long)ga.shots,
	    (unsigned long long)gb.shots);
	CHECK(metrics_counter_value(&m, "a.fault_drop") == 2 &&
	    metrics_counter_value(&m, "b.fault_drop") == 2,
	    "counted in each group's scope");
	CHECK(metrics_counter_value(&m, "fault_drop") == 0,
	    "nothing outside the scopes");
	CHECK(ga.first_rnd != gb.first_rnd, "the groups draw apart");
	metrics_free(&m);
}

static const struct check_case cases[] = {
	CASE(test_parse),
	CASE(test_parse_errors),
	CASE(test_check),
	CASE(test_schedule),
	CASE(test_seed),
	CASE(test_sets),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
