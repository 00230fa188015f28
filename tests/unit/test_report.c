/*
 * Unit tests of src/run/expect.c, src/run/report.c and src/run/env.c: --expect parsing,
 * the JSON/CSV/JUnit files (read back with python3 and xmllint when they
 * are installed), exit statuses, and the --repeat summary.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "env.h"
#include "expect.h"
#include "log.h"
#include "metrics.h"
#include "report.h"

#define S	1000000000ULL
#define PYTHON	"/usr/bin/python3"
#define XMLLINT	"/usr/bin/xmllint"

static char	tmpdir[] = "/tmp/sbsim_test_report.XXXXXX";
static char	json_path[256], csv_path[256], junit_path[256];

/* ---- helpers ---- */

static char *
slurp(const char *path)
{
	FILE	*f = fopen(path, "r");
	char	*buf;
	long	 n;

	if (f == NULL)
		return xstrdup("");
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = xcalloc(1, (size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		buf[0] = '\0';
	fclose(f);
	return buf;
}

static size_t
count_char(const char *s, char c, const char *end)
{
	size_t	n = 0;

	for (; *s != '\0' && s != end; s++)
		n += *s == c;
	return n;
}

static int
run_cmd(const char *fmt, const char *arg)
{
	char	cmd[1024];
	int	st;

	snprintf(cmd, sizeof(cmd), fmt, arg);
	st = system(cmd);
	return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Run a python check on the JSON file; 1 passed, 0 failed, -1 skipped. */
static int
py_check(const char *code)
{
	char	cmd[4096];
	int	st;

	if (access(PYTHON, X_OK) != 0)
		return -1;
	snprintf(cmd, sizeof(cmd), PYTHON " -c '%s' %s", code, json_path);
	st = system(cmd);
	return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* The value of column `name` in a 2-line CSV, or NAN. */
static double
csv_value(const char *csv, const char *name)
{
	const char	*nl = strchr(csv, '\n'), *p = csv, *v;
	size_t		 col = 0, len = strlen(name);

	if (nl == NULL)
		return NAN;
	while (p < nl) {
		if (strncmp(p, name, len) == 0 && (p[len] == ',' ||
		    p[len] == '\n'))
			break;
		p = strchr(p, ',');
		if (p == NULL || p > nl)
			return NAN;
		p++;
		col++;
	}
	if (p >= nl)
		return NAN;
	for (v = nl + 1; col > 0 && v != NULL; col--)
		if ((v = strchr(v, ',')) != NULL)
			v++;
	return v != NULL ? strtod(v, NULL) : NAN;
}

/*
 * A synthetic run: connect (100 devices, DONE), program (n items one
 * second after the trigger, latencies 1..1000 us), and two counters.
 */
static void
make_run(struct metrics *m, uint64_t program_items, int program_timeout)
{
	struct phase	*c, *p;
	uint64_t	 t0, us;

	metrics_init(m);
	t0 = m->start_ns;
	c = metrics_phase(m, "connect", "openflow");
	c->target = 100;
	phase_start(c, t0);
	phase_items(c, t0 + S / 4, 50);
	phase_items(c, t0 + S / 2, 50);
	p = metrics_phase(m, "program", "openflow");
	p->witness = WITNESS_TCP_ACK;
	p->target = program_timeout ? program_items * 2 : program_items;
	phase_start(p, t0 + S);
	phase_items(p, t0 + 2 * S, program_items);
	for (us = 1; us <= 1000; us++)
		phase_latency(p, us);
	if (program_timeout)
		phase_end(p, t0 + 5 * S, PHASE_TIMEOUT);
	*metrics_counter(m, "decode_errors") += program_items / 100;
	metrics_counter(m, "reconnects");
	m->end_ns = t0 + 6 * S;
}

static struct expect
parse_ok(const char *s)
{
	struct expect	e;
	char		err[256];

	if (expect_parse(s, &e, err, sizeof(err)) != 0) {
		CHECK(0, "parse '%s': %s", s, err);
		memset(&e, 0, sizeof(e));
	}
	return e;
}

static struct report_opts
opts_files(const struct expect *ex, size_t n, const struct env *env)
{
	struct report_opts	o = {
		.version = "0.1-test",
		.scenario = "sbsim openflow --switches 100",
		.json_path = json_path,
		.csv_path = csv_path,
		.junit_path = junit_path,
		.expects = ex,
		.n_expects = n,
		.env = env,
	};

	return o;
}

/* ---- expect parsing ---- */

static void
test_expect_good(void)
{
	static const struct {
		const char	*s;
		enum expect_op	 op;
		int		 metric;
		double		 value;
		const char	*expr;
	} good[] = {
		{ "program.rate_per_s>=1000", EXPECT_GE, RM_RATE, 1000,
		    "program.rate_per_s>=1000" },
		{ " connect.seconds <= 2.5 ", EXPECT_LE, RM_SECONDS, 2.5,
		    "connect.seconds<=2.5" },
		{ "learn.items>99", EXPECT_GT, RM_ITEMS, 99, NULL },
		{ "program.latency_us.p99<5e3", EXPECT_LT, RM_P99, 5000, NULL },
		{ "program.latency_us.p50 == 7", EXPECT_EQ, RM_P50, 7, NULL },
		{ "program.latency_us.p90!=-1", EXPECT_NE, RM_P90, -1, NULL },
		{ "delete.latency_us.max<=1", EXPECT_LE, RM_MAX, 1, NULL },
	};
	struct expect	e;
	size_t		i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		e = parse_ok(good[i].s);
		CHECK(e.op == good[i].op && e.metric == good[i].metric &&
		    e.value == good[i].value, "parse '%s' -> %s %s %g",
		    good[i].s, report_metric_names[good[i].metric],
		    expect_op_name(good[i].op), good[i].value);
		if (good[i].expr != NULL)
			CHECK(strcmp(e.expr, good[i].expr) == 0,
			    "normalized '%s'", e.expr);
	}
	e = parse_ok("counters.decode_errors == 0");
	CHECK(e.metric == -1 && strcmp(e.phase, "counters") == 0 &&
	    strcmp(e.counter, "decode_errors") == 0 && e.op == EXPECT_EQ,
	    "counter expectation");
}

static void
test_expect_bad(void)
{
	static const struct {
		const char	*s;
		const char	*want;		/* part of the message */
	} bad[] = {
		{ "program.rate>=5", "--expect 'program.rate>=5': unknown "
		    "metric 'rate' (one of items, seconds, rate_per_s, "
		    "latency_us.p50, latency_us.p90, latency_us.p99, "
		    "latency_us.max, sbsim.cpu_s, sbsim.busy, "
		    "controller.cpu_s, controller.rss_max_kb, "
		    "controller.threads_max)" },
		{ "program.rate_per_s", "no operator" },
		{ "", "no operator" },
		{ "program.rate_per_s=5", "bad operator" },
		{ "program.rate_per_s!5", "bad operator" },
		{ "program.rate_per_s>=", "missing value" },
		{ "program.rate_per_s>=fast", "not a finite number" },
		{ "program.rate_per_s>=inf", "not a finite number" },
		{ "program.rate_per_s>=1e999", "not a finite number" },
		{ "program.rate_per_s>=10x", "not a finite number" },
		{ "program.rate_per_s>=>=5", "more than one operator" },
		{ "rate_per_s>=5", "expected 'phase.metric OP value'" },
		{ ".items>=5", "expected 'phase.metric OP value'" },
		{ "program.>=5", "expected 'phase.metric OP value'" },
		{ "counters.>=5", "expected 'phase.metric OP value'" },
		{ "a_very_long_phase_name_of_more_than_47_characters_in_all"
		    ".items>1", "phase name longer" },
		{ "program.latency_us>=5", "unknown metric 'latency_us'" },
	};
	struct expect	e;
	char		err[256];
	size_t		i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CHECK(expect_parse(bad[i].s, &e, err, sizeof(err)) == -1 &&
		    strstr(err, bad[i].want) != NULL &&
		    strchr(err, '\n') == NULL, "reject '%s': %s", bad[i].s,
		    err);
	}
	CHECK(expect_parse("x", &e, NULL, 0) == -1, "NULL errbuf is fine");
}

static void
test_expect_holds(void)
{
	struct expect	e;

	e = parse_ok("p.items>=10");
	CHECK(expect_holds(&e, 10) && !expect_holds(&e, 9.99), ">=");
	e = parse_ok("p.items<=10");
	CHECK(expect_holds(&e, 10) && !expect_holds(&e, 10.01), "<=");
	e = parse_ok("p.items>10");
	CHECK(!expect_holds(&e, 10) && expect_holds(&e, 11), ">");
	e = parse_ok("p.items<10");
	CHECK(!expect_holds(&e, 10) && expect_holds(&e, 9), "<");
	e = parse_ok("p.items==10");
	CHECK(expect_holds(&e, 10) && !expect_holds(&e, 11), "==");
	e = parse_ok("p.items!=10");
	CHECK(!expect_holds(&e, 10) && expect_holds(&e, 11), "!=");
}

/* ---- env ---- */

static void
test_env(struct env *e)
{
	env_collect(e);
	CHECK(e->cpu_model[0] != '\0' && e->kernel[0] != '\0',
	    "env: cpu '%s', kernel '%s'", e->cpu_model, e->kernel);
	CHECK(e->cores > 0 && e->memory_bytes > 0, "env: %d cores, %llu bytes",
	    e->cores, (unsigned long long)e->memory_bytes);
	CHECK(strcmp(e->libevent, "unknown") != 0 &&
	    strcmp(e->openssl, "unknown") != 0 &&
	    strcmp(e->libssh, "unknown") != 0 &&
	    strcmp(e->libxml2, "unknown") != 0 &&
	    strcmp(e->libyang, "unknown") != 0,
	    "env: libevent %s, %s, libssh %s, libxml2 %s, libyang %s",
	    e->libevent, e->openssl, e->libssh, e->libxml2, e->libyang);
}

/* ---- single run ---- */

static void
check_json_single(void)
{
	int	r;

	r = py_check("import json,sys\n"
	    "d = json.load(open(sys.argv[1]))\n"
	    "assert d[\"tool\"] == \"sbsim\" and d[\"version\"] == \"0.1-test\"\n"
	    "assert d[\"ok\"] is True\n"
	    "e = d[\"environment\"]\n"
	    "assert e[\"cores\"] > 0 and set(e[\"libraries\"]) == "
	    "{\"libevent\",\"openssl\",\"libssh\",\"libxml2\",\"libyang\"}\n"
	    "p = {x[\"name\"]: x for x in d[\"phases\"]}\n"
	    "c = p[\"connect\"]\n"
	    "assert c[\"items\"] == 100 and c[\"state\"] == \"DONE\"\n"
	    "assert abs(c[\"seconds\"] - 0.5) < 1e-9\n"
	    "assert abs(c[\"rate_per_s\"] - 200) < 1e-6\n"
	    "assert c[\"timeline\"] == [100] and c[\"first_s\"] == 0.25\n"
	    "assert c[\"witness\"] == \"device\"\n"
	    "g = p[\"program\"]\n"
	    "assert g[\"timeline\"] == [0, 1000]\n"
	    "assert g[\"witness\"] == \"tcp_ack\"\n"
	    "assert abs(g[\"latency_us\"][\"p50\"] - 500) <= 5\n"
	    "assert g[\"latency_us\"][\"max\"] == 1000\n"
	    "assert d[\"counters\"] == {\"decode_errors\": 10, "
	    "\"reconnects\": 0}\n"
	    "assert d[\"expectations\"][0][\"ok\"] is True\n"
	    "assert \"summary\" not in d and \"runs\" not in d\n");
	if (r == -1)
		printf("# skip: no " PYTHON "\n");
	else
		CHECK(r == 1, "JSON parses and holds the run");
}

static void
check_csv(const char *csv)
{
	const char	*nl = strchr(csv, '\n');

	CHECK(nl != NULL && count_char(csv, '\n', NULL) == 2 &&
	    csv[strlen(csv) - 1] == '\n', "CSV has exactly 2 lines");
	CHECK(nl != NULL && count_char(csv, ',', nl) ==
	    count_char(nl + 1, ',', NULL), "CSV: equal column counts");
	CHECK(strncmp(csv, "connect.rate_per_s,connect.seconds,", 35) == 0,
	    "CSV header starts with connect.rate_per_s");
	CHECK(strstr(csv, "program.latency_us.p99") != NULL &&
	    strstr(csv, "counters.decode_errors") != NULL, "CSV columns");
}

static void
check_junit(const char *xml, int tests, int failures)
{
	char	attrs[64];

	if (access(XMLLINT, X_OK) == 0)
		CHECK(run_cmd(XMLLINT " --noout %s", junit_path) == 0,
		    "JUnit is well-formed XML (xmllint)");
	else
		CHECK(strstr(xml, "</testsuite>") != NULL, "JUnit closed");
	snprintf(attrs, sizeof(attrs), "tests=\"%d\" failures=\"%d\"", tests,
	    failures);
	CHECK(strstr(xml, "<testsuite name=\"sbsim\"") != NULL &&
	    strstr(xml, attrs) != NULL, "JUnit suite: %s", attrs);
}

static void
test_single_ok(const struct env *env)
{
	struct metrics		m;
	struct expect		ex[2];
	struct report_opts	o;
	char			*csv, *xml;
	FILE			*human = tmpfile();

	ex[0] = parse_ok("program.rate_per_s>=1000");
	ex[1] = parse_ok("counters.decode_errors<=10");
	o = opts_files(ex, 2, env);
	make_run(&m, 1000, 0);
	CHECK(report_emit(&m, 1, &o, human) == 0, "all good: report_emit 0");
	check_json_single();
	csv = slurp(csv_path);
	check_csv(csv);
	CHECK(csv_value(csv, "program.rate_per_s") == 1000 &&
	    csv_value(csv, "connect.items") == 100 &&
	    csv_value(csv, "counters.decode_errors") == 10, "CSV values");
	CHECK(csv_value(csv, "connect.witness.device") == 1 &&
	    csv_value(csv, "program.witness.tcp_ack") == 1,
	    "CSV: the witness in the column name, last");
	xml = slurp(junit_path);
	check_junit(xml, 4, 0);
	CHECK(strstr(xml, "<failure") == NULL, "JUnit: no failure");
	free(csv);
	free(xml);
	fclose(human);
	metrics_free(&m);
}

static void
test_single_expect_fails(const struct env *env)
{
	struct metrics		m;
	struct expect		ex[3];
	struct report_opts	o;
	char			*xml, *txt;
	const char		*thr;
	FILE			*human = tmpfile();
	long			 n;

	ex[0] = parse_ok("program.rate_per_s>=2000");
	ex[1] = parse_ok("learn.items>=1");
	/* A counter that exists and stayed zero is zero (a name the run
	 * has not is a usage error: verdicts.sh). */
	ex[2] = parse_ok("counters.reconnects==0");
	o = opts_files(ex, 3, env);
	make_run(&m, 1000, 0);
	CHECK(report_emit(&m, 1, &o, human) == 1, "failed expectation: 1");
	xml = slurp(junit_path);
	check_junit(xml, 5, 2);
	CHECK(strstr(xml, "message=\"program.rate_per_s = 1000, expected "
	    "&gt;= 2000\"") != NULL, "JUnit failure message");
	CHECK(strstr(xml, "learn.items: phase &apos;learn&apos; did not "
	    "run") != NULL, "missing phase fails, says it did not run");
	n = ftell(human);
	txt = xcalloc(1, (size_t)n + 1);
	rewind(human);
	if (fread(txt, 1, (size_t)n, human) != (size_t)n)
		txt[0] = '\0';
	CHECK(strstr(txt, "FAIL  program.rate_per_s = 1000, expected >= "
	    "2000") != NULL && strstr(txt, "PASS  counters.reconnects = 0") !=
	    NULL, "human table lists PASS/FAIL");
	/* reconnects (zero) only in its threshold's line, not as a counter. */
	thr = strstr(txt, "counters.reconnects");
	CHECK(strstr(txt, "decode_errors") != NULL && thr != NULL &&
	    strstr(txt, "reconnects") == thr + 9 &&
	    strstr(thr + 10, "reconnects") == NULL,
	    "only non-zero counters shown");
	CHECK(py_check("import json,sys\n"
	    "d = json.load(open(sys.argv[1]))\n"
	    "assert d[\"ok\"] is False\n"
	    "assert [e[\"ok\"] for e in d[\"expectations\"]] == "
	    "[False, False, True]\n") != 0, "JSON ok false");
	free(txt);
	free(xml);
	fclose(human);
	metrics_free(&m);
}

static void
test_single_timeout(const struct env *env)
{
	struct metrics		m;
	struct report_opts	o = opts_files(NULL, 0, env);
	char			*xml;

	make_run(&m, 500, 1);
	CHECK(report_emit(&m, 1, &o, NULL) == 1, "timed-out phase: 1");
	xml = slurp(junit_path);
	check_junit(xml, 2, 1);
	CHECK(strstr(xml, "program timed out: 500 of 1000 items after "
	    "4.000 s") != NULL, "JUnit timeout message");
	CHECK(py_check("import json,sys\n"
	    "d = json.load(open(sys.argv[1]))\n"
	    "assert d[\"ok\"] is False\n"
	    "assert d[\"phases\"][1][\"state\"] == \"TIMEOUT\"\n") != 0,
	    "JSON says TIMEOUT");
	free(xml);
	metrics_free(&m);
}

/* Hostile free text must still give valid JSON and XML. */
static void
test_escaping(const struct env *env)
{
	struct metrics		m;
	struct report_opts	o = opts_files(NULL, 0, env);

	o.scenario = "q\"uote \\back\nnl\ttab \x01 <&> 'apos' \xff\xfe bad "
	    "\xc3\xa9t\xc3\xa9 \xed\xa0\x80 \xef\xbf\xbf";
	make_run(&m, 100, 0);
	CHECK(report_emit(&m, 1, &o, NULL) == 0, "escaping run ok");
	CHECK(py_check("import json,sys\n"
	    "d = json.load(open(sys.argv[1]))\n"
	    "assert d[\"scenario\"].startswith(\"q\\\"uote \\\\back\\nnl\\t\")\n"
	    "assert \"\\u00e9t\\u00e9\" in d[\"scenario\"]\n") != 0,
	    "JSON escapes quotes, backslashes, controls, bad UTF-8");
	if (access(XMLLINT, X_OK) == 0)
		CHECK(run_cmd(XMLLINT " --noout %s", junit_path) == 0,
		    "JUnit escapes the same text");
	metrics_free(&m);
}

static void
test_io_error(const struct env *env)
{
	struct metrics		m;
	struct report_opts	o = opts_files(NULL, 0, env);

	o.json_path = "/nonexistent-dir/x/report.json";
	make_run(&m, 100, 0);
	CHECK(report_emit(&m, 1, &o, NULL) == -1, "unwritable file: -1");
	CHECK(access(csv_path, R_OK) == 0, "the other files still written");
	metrics_free(&m);
}

/* ---- repeats ---- */

/* The 4 numbers of a "  metric  min median max tmean" row of phase. */
static int
human_row(const char *txt, const char *phase, const char *metric,
    double v[4])
{
	char		 head[64], row[64];
	const char	*p;

	snprintf(head, sizeof(head), "\n%s (", phase);
	snprintf(row, sizeof(row), "\n  %s ", metric);
	if ((p = strstr(txt, head)) == NULL || (p = strstr(p, row)) == NULL)
		return -1;
	return sscanf(p + strlen(row), "%lf %lf %lf %lf", &v[0], &v[1],
	    &v[2], &v[3]) == 4 ? 0 : -1;
}

static void
test_repeat(const struct env *env)
{
	static const uint64_t	items[5] = { 300, 100, 1000, 250, 400 };
	struct metrics		runs[5];
	struct expect		ex = parse_ok("program.rate_per_s>=300");
	struct report_opts	o = opts_files(&ex, 1, env);
	FILE			*human = tmpfile();
	char			*txt, *csv;
	double			 v[4];
	long			 n;
	size_t			 i;

	for (i = 0; i < 5; i++)
		make_run(&runs[i], items[i], 0);
	CHECK(report_emit(runs, 5, &o, human) == 0, "5 runs: 0");
	n = ftell(human);
	txt = xcalloc(1, (size_t)n + 1);
	rewind(human);
	if (fread(txt, 1, (size_t)n, human) != (size_t)n)
		txt[0] = '\0';
	CHECK(human_row(txt, "program", "rate_per_s", v) == 0 &&
	    v[0] == 100 && v[1] == 300 && v[2] == 1000 &&
	    fabs(v[3] - 316.667) < 0.001,
	    "rate min 100 median 300 max 1000 trimmed mean 316.667 "
	    "(got %g %g %g %g)", v[0], v[1], v[2], v[3]);
	CHECK(human_row(txt, "connect", "items", v) == 0 && v[0] == 100 &&
	    v[3] == 100, "constant metric: all 100");
	csv = slurp(csv_path);
	check_csv(csv);
	CHECK(csv_value(csv, "program.rate_per_s") == 300 &&
	    csv_value(csv, "counters.decode_errors") == 3,
	    "CSV has the medians");
	CHECK(py_check("import json,sys\n"
	    "d = json.load(open(sys.argv[1]))\n"
	    "s = d[\"summary\"][\"program\"][\"rate_per_s\"]\n"
	    "assert s[\"min\"] == 100 and s[\"median\"] == 300\n"
	    "assert s[\"max\"] == 1000\n"
	    "assert abs(s[\"trimmed_mean\"] - 950 / 3) < 1e-9\n"
	    "assert len(d[\"runs\"]) == 5 and d[\"repeat\"] == 5\n"
	    "p = d[\"phases\"][1]\n"
	    "assert p[\"rate_per_s\"] == 300 and p[\"timeline\"] == [0, 300]\n"
	    "assert d[\"summary\"][\"program\"][\"latency_us\"][\"max\"]"
	    "[\"median\"] == 1000\n") != 0, "JSON summary, runs, median run");
	free(csv);
	free(txt);
	fclose(human);
	for (i = 0; i < 5; i++)
		metrics_free(&runs[i]);
}

static void
test_repeat_even(const struct env *env)
{
	static const uint64_t	items[4] = { 1000, 100, 400, 200 };
	struct metrics		runs[4];
	struct report_opts	o = opts_files(NULL, 0, env);
	FILE			*human = tmpfile();
	char			*txt;
	double			 v[4];
	long			 n;
	size_t			 i;

	for (i = 0; i < 4; i++)
		make_run(&runs[i], items[i], 0);
	CHECK(report_emit(runs, 4, &o, human) == 0, "4 runs: 0");
	CHECK(report_emit(runs, 2, &o, NULL) == 0, "2 runs: 0");
	n = ftell(human);
	txt = xcalloc(1, (size_t)n + 1);
	rewind(human);
	if (fread(txt, 1, (size_t)n, human) != (size_t)n)
		txt[0] = '\0';
	CHECK(human_row(txt, "program", "items", v) == 0 && v[0] == 100 &&
	    v[1] == 300 && v[2] == 1000 && v[3] == 300,
	    "4 runs: median and trimmed mean of the middle two");
	CHECK(py_check("import json,sys\n"
	    "d = json.load(open(sys.argv[1]))\n"
	    "s = d[\"summary\"][\"program\"][\"items\"]\n"
	    "assert s == {\"min\": 100, \"median\": 550, \"max\": 1000, "
	    "\"trimmed_mean\": 550}, s\n"
	    "assert d[\"phases\"][1][\"timeline\"] == [0, 100]\n") != 0,
	    "2 runs: plain mean, median run is the lower one");
	free(txt);
	fclose(human);
	for (i = 0; i < 4; i++)
		metrics_free(&runs[i]);
}

static void
test_repeat_timeout(const struct env *env)
{
	struct metrics		runs[3];
	struct report_opts	o = opts_files(NULL, 0, env);
	char			*xml;
	size_t			i;

	for (i = 0; i < 3; i++)
		make_run(&runs[i], 100 * (i + 1), i == 2);
	CHECK(report_emit(runs, 3, &o, NULL) == 1, "a timeout in 1 of 3: 1");
	xml = slurp(junit_path);
	check_junit(xml, 2, 1);
	CHECK(strstr(xml, "program timed out in 1 of 3 runs") != NULL,
	    "JUnit says in how many runs");
	free(xml);
	for (i = 0; i < 3; i++)
		metrics_free(&runs[i]);
}

static void
test_empty(const struct env *env)
{
	struct metrics		m;
	struct expect		ex = parse_ok("program.items>=1");
	struct report_opts	o = opts_files(&ex, 1, env);
	char			*csv;

	metrics_init(&m);
	CHECK(report_emit(&m, 1, &o, NULL) == 1,
	    "no phases: expectation fails");
	csv = slurp(csv_path);
	CHECK(strcmp(csv, "\n\n") == 0, "no phases: CSV still 2 lines");
	CHECK(py_check("import json,sys; json.load(open(sys.argv[1]))") != 0,
	    "no phases: JSON still valid");
	free(csv);
	metrics_free(&m);
}

static void
test_progress(void)
{
	struct metrics	 m;
	struct phase	*p;
	FILE		*f = tmpfile();
	char		 buf[256] = "";
	size_t		 n;

	metrics_init(&m);
	report_progress(&m, f);
	CHECK(ftell(f) == 0, "progress: nothing when no phase runs");
	p = metrics_phase(&m, "program", "netconf");
	p->target = 1000;
	phase_start(p, clock_ns() - S);
	phase_items(p, clock_ns(), 500);
	report_progress(&m, f);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	CHECK(n == 80 && buf[n - 1] == '\r' && strchr(buf, '\n') == NULL &&
	    strstr(buf, "program netconf: 500/1000 (50%) items") != NULL,
	    "progress line: '%.*s'", (int)(n ? n - 1 : 0), buf);
	fclose(f);
	metrics_free(&m);
}

static void
cleanup(void)
{
	unlink(json_path);
	unlink(csv_path);
	unlink(junit_path);
	rmdir(tmpdir);
}

/* The environment the single-run cases report: collected once, by
 * test_env when it runs, else by the first case that needs it. */
static struct env	env;
static int		env_ready;

static const struct env *
env_get(void)
{
	if (!env_ready)
		env_collect(&env);
	env_ready = 1;
	return &env;
}

static void
env_test(void)
{
	test_env(&env);
	env_ready = 1;
}

/* A case over the collected environment: fn##_env(). */
#define ENV_CASE(fn)							\
static void								\
fn##_env(void)								\
{									\
	fn(env_get());							\
}

ENV_CASE(test_single_ok)
ENV_CASE(test_single_expect_fails)
ENV_CASE(test_single_timeout)
ENV_CASE(test_escaping)
ENV_CASE(test_io_error)
ENV_CASE(test_repeat)
ENV_CASE(test_repeat_even)
ENV_CASE(test_repeat_timeout)
ENV_CASE(test_empty)

/* report_emit collects the environment. */
static void
single_ok_null(void)
{
	test_single_ok(NULL);
}

static const struct check_case cases[] = {
	CASE(test_expect_good),
	CASE(test_expect_bad),
	CASE(test_expect_holds),
	CASE_AS(test_env, env_test),
	CASE_AS(test_single_ok, test_single_ok_env),
	CASE_AS(test_single_ok_null, single_ok_null),
	CASE_AS(test_single_expect_fails, test_single_expect_fails_env),
	CASE_AS(test_single_timeout, test_single_timeout_env),
	CASE_AS(test_escaping, test_escaping_env),
	CASE_AS(test_io_error, test_io_error_env),
	CASE_AS(test_repeat, test_repeat_env),
	CASE_AS(test_repeat_even, test_repeat_even_env),
	CASE_AS(test_repeat_timeout, test_repeat_timeout_env),
	CASE_AS(test_empty, test_empty_env),
	CASE(test_progress),
};

int
main(int argc, char **argv)
{
	int	rc;

	/* Line-buffered so warnings and child output interleave in order. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	log_init("test_report", LOG_QUIET);
	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 99;	/* automake: hard error */
	}
	snprintf(json_path, sizeof(json_path), "%s/report.json", tmpdir);
	snprintf(csv_path, sizeof(csv_path), "%s/report.csv", tmpdir);
	snprintf(junit_path, sizeof(junit_path), "%s/junit.xml", tmpdir);
	rc = check_run(cases, argc, argv);
	cleanup();
	return rc;
}
