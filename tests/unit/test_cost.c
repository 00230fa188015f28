/*
 * Unit tests of src/core/cost.c and src/run/promexp.c: reading a process from
 * /proc, a Prometheus exposition, folding samples into phases, and the
 * live metrics' text.
 */
#include <sys/wait.h>

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>

#include "check.h"
#include "cost.h"
#include "log.h"
#include "metrics.h"
#include "promexp.h"

#define MS	1000000ULL		/* one millisecond in ns */

static void
test_read_self(void)
{
	struct cost_snap	s;
	volatile uint64_t	x = 0;
	uint64_t		i;

	for (i = 0; i < 50000000; i++)	/* some CPU to see */
		x += i;
	CHECK(cost_read_proc(getpid(), &s) == 0, "reads /proc/self's stat");
	CHECK(s.threads >= 1, "at least one thread (%u)", s.threads);
	CHECK(s.rss_kb > 100, "some resident memory (%llu KiB)",
	    (unsigned long long)s.rss_kb);
	CHECK(s.cpu_ms < 3600 * 1000, "CPU in milliseconds (%llu)",
	    (unsigned long long)s.cpu_ms);
	CHECK(cost_read_proc(0x7ffffff0, &s) == -1, "no such process: -1");
}

/* Some CPU time, in this process. */
static void
burn(uint64_t n)
{
	volatile uint64_t	x = 0;
	uint64_t		i;

	for (i = 0; i < n; i++)
		x += i;
}

/*
 * cost_read_self keeps its descriptor: the second reading is of the same
 * process, later; a forked child reads its own (little CPU), not the
 * parent's that its inherited descriptor named.
 */
static void
test_read_self_kept(void)
{
	struct cost_snap	a, b, c;
	int			fds[2], st;
	pid_t			pid;

	burn(300000000);
	CHECK(cost_read_self(&a) == 0 && a.threads >= 1 && a.rss_kb > 100,
	    "reads its own stat (cpu %llu ms)", (unsigned long long)a.cpu_ms);
	burn(300000000);
	CHECK(cost_read_self(&b) == 0 && b.cpu_ms > a.cpu_ms,
	    "read again later: more CPU (%llu -> %llu ms)",
	    (unsigned long long)a.cpu_ms, (unsigned long long)b.cpu_ms);
	if (pipe(fds) == -1 || (pid = fork()) == -1) {
		CHECK(0, "pipe and fork");
		return;
	}
	if (pid == 0) {
		st = cost_read_self(&c);
		(void)write(fds[1], &c, sizeof(c));
		_exit(st == 0 ? 0 : 1);
	}
	close(fds[1]);
	memset(&c, 0xff, sizeof(c));
	CHECK(read(fds[0], &c, sizeof(c)) == (ssize_t)sizeof(c) &&
	    waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	    WEXITSTATUS(st) == 0, "the child read its stat");
	close(fds[0]);
	CHECK(c.cpu_ms < b.cpu_ms, "the child's own CPU (%llu ms), not its "
	    "parent's (%llu ms)", (unsigned long long)c.cpu_ms,
	    (unsigned long long)b.cpu_ms);
}

static void
test_prom(void)
{
	static const char text[] =
	    "# HELP process_cpu_seconds_total Total user and system CPU.\n"
	    "# TYPE process_cpu_seconds_total counter\n"
	    "process_cpu_seconds_total_bogus 99\n"
	    "process_cpu_seconds_total 12.5\n"
	    "process_resident_memory_bytes 1.048576e+06\n"
	    "jvm_threads_current{instance=\"a\"} 42 1700000000000\n"
	    "go_threads 7\n"
	    "garbage line without a value\n"
	    "process_threads -3";
	struct cost_snap	s;

	CHECK(cost_parse_prom(text, sizeof(text) - 1, &s) == 0, "parsed");
	CHECK(s.cpu_ms == 12500, "cpu 12.5 s (%llu ms)",
	    (unsigned long long)s.cpu_ms);
	CHECK(s.rss_kb == 1024, "rss 1 MiB (%llu KiB)",
	    (unsigned long long)s.rss_kb);
	CHECK(s.threads == 42, "the first thread gauge, labels and "
	    "timestamp skipped (%u)", s.threads);
	CHECK(cost_parse_prom("go_threads 7\n", 12, &s) == -1,
	    "no CPU counter: -1");
	CHECK(cost_parse_prom("process_cpu_seconds_total NaN\n", 30, &s) ==
	    -1, "NaN is no CPU time");
	CHECK(cost_parse_prom("", 0, &s) == -1, "empty: -1");
}

static struct cost_snap
snap(uint64_t cpu, uint64_t rss, uint32_t threads)
{
	struct cost_snap	s = { cpu, rss, threads };

	return s;
}

/*
 * Phase a runs from 150 ms to 350 ms: its window is the sample at 100 ms
 * (before it started) to the one at 400 ms (after it ended); phase b
 * never starts.
 */
static void
test_sample_phases(void)
{
	struct metrics		 m;
	struct cost_track	 t;
	struct phase		*a, *b;
	struct cost_snap	 s;

	metrics_init(&m);
	a = metrics_phase(&m, "a", "x");
	b = metrics_phase(&m, "b", "x");
	cost_track_init(&t, COST_CONTROLLER);
	s = snap(10, 100, 2);
	cost_sample(&t, &m, 100 * MS, &s);
	phase_start(a, 150 * MS);
	s = snap(20, 300, 5);
	cost_sample(&t, &m, 200 * MS, &s);
	s = snap(30, 200, 3);
	cost_sample(&t, &m, 300 * MS, &s);
	phase_end(a, 350 * MS, PHASE_DONE);
	s = snap(45, 250, 4);
	cost_sample(&t, &m, 400 * MS, &s);
	s = snap(90, 900, 9);
	cost_sample(&t, &m, 500 * MS, &s);
	CHECK(a->cost[COST_CONTROLLER].start_ns == 100 * MS &&
	    a->cost[COST_CONTROLLER].end_ns == 400 * MS,
	    "window from the sample before to the one after");
	CHECK(phase_cost_cpu_s(a, COST_CONTROLLER) > 0.0349 &&
	    phase_cost_cpu_s(a, COST_CONTROLLER) < 0.0351, "35 ms of CPU");
	CHECK(phase_cost_busy(a, COST_CONTROLLER) > 0.116 &&
	    phase_cost_busy(a, COST_CONTROLLER) < 0.117, "busy 35/300");
	CHECK(a->cost[COST_CONTROLLER].rss_max_kb == 300 &&
	    a->cost[COST_CONTROLLER].threads_max == 5,
	    "peaks within the window only");
	CHECK(!b->cost[COST_CONTROLLER].opened &&
	    phase_cost_cpu_s(b, COST_CONTROLLER) == 0, "a pending phase "
	    "has no cost");
	CHECK(phase_cost_cpu_s(a, COST_SBSIM) == 0, "the other process "
	    "was not sampled");
	cost_counters(&t, &m);
	CHECK(metrics_counter_value(&m, "controller_cpu_ms") == 80 &&
	    metrics_counter_value(&m, "controller_max_rss_kb") == 900 &&
	    metrics_counter_value(&m, "controller_threads_max") == 9,
	    "the run's counters");
	metrics_free(&m);
}

/* A phase still running when the last scrape came closes at it. */
static void
test_finish(void)
{
	struct metrics		 m;
	struct cost_track	 t;
	struct phase		*a;
	struct cost_snap	 s;

	metrics_init(&m);
	a = metrics_phase(&m, "a", "x");
	cost_track_init(&t, COST_CONTROLLER);
	phase_start(a, 50 * MS);
	s = snap(10, 1, 1);
	cost_sample(&t, &m, 100 * MS, &s);
	s = snap(70, 1, 1);
	cost_sample(&t, &m, 1100 * MS, &s);
	phase_end(a, 1200 * MS, PHASE_DONE);
	cost_finish(&t, &m);
	CHECK(a->cost[COST_CONTROLLER].closed &&
	    phase_cost_cpu_s(a, COST_CONTROLLER) > 0.0599 &&
	    phase_cost_cpu_s(a, COST_CONTROLLER) < 0.0601,
	    "closed at the last sample: 60 ms");
	metrics_free(&m);
}

static void
test_exposition(void)
{
	struct metrics	 m;
	struct phase	*ph;
	struct evbuffer	*out = evbuffer_new();
	char		*text;
	size_t		 len;

	metrics_init(&m);
	ph = metrics_phase(&m, "conn\"ect", "openflow");
	ph->target = 10;
	phase_start(ph, 1);
	phase_items(ph, 2, 7);
	*metrics_counter(&m, "decode-errors") = 3;
	*metrics_counter(&m, "of.flow_mods") = 5;
	*metrics_counter(&m, "sbsim_max_rss_kb") = 2;
	*metrics_counter(&m, "fault_delay_ms") = 1500;
	*metrics_counter(&m, "b.flow_mods") = 4;
	promexp_write(out, &m);
	len = evbuffer_get_length(out);
	text = xcalloc(1, len + 1);
	evbuffer_remove(out, text, len);
	CHECK(strstr(text, "sbsim_phase_items{phase=\"conn\\\"ect\","
	    "protocol=\"openflow\"} 7\n") != NULL, "items, label escaped");
	CHECK(strstr(text, "sbsim_phase_target{phase=\"conn\\\"ect\","
	    "protocol=\"openflow\"} 10\n") != NULL, "target");
	CHECK(strstr(text, "sbsim_phase_running{phase=\"conn\\\"ect\","
	    "protocol=\"openflow\"} 1\n") != NULL, "running");
	CHECK(strstr(text, "# TYPE sbsim_decode_errors_total counter\n"
	    "sbsim_decode_errors_total 3\n") != NULL,
	    "a counter, a family of its own, its name made [a-z0-9_]");
	CHECK(strstr(text, "# TYPE sbsim_flow_mods_total counter\n"
	    "sbsim_flow_mods_total{group=\"b\"} 4\n"
	    "sbsim_flow_mods_total{group=\"of\"} 5\n") != NULL,
	    "a scenario's groups: one family, a group label");
	CHECK(strstr(text, "# TYPE sbsim_max_rss_bytes gauge\n"
	    "sbsim_max_rss_bytes 2048\n") != NULL, "a peak: a gauge, bytes");
	CHECK(strstr(text, "sbsim_fault_delay_seconds_total 1.5\n") != NULL,
	    "milliseconds as seconds");
	CHECK(strstr(text, "sbsim_counter") == NULL, "no sbsim_counter");
	CHECK(strstr(text, "# TYPE sbsim_devices gauge\n"
	    "sbsim_devices{state=\"idle\"} ") != NULL, "devices by state");
	CHECK(strstr(text, "sbsim_process_resident_memory_bytes ") != NULL,
	    "sbsim's own memory");
	free(text);
	evbuffer_free(out);
	metrics_free(&m);
}

static const struct check_case cases[] = {
	CASE(test_read_self),
	CASE(test_read_self_kept),
	CASE(test_prom),
	CASE(test_sample_phases),
	CASE(test_finish),
	CASE(test_exposition),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
