/*
 * `sbsim plot REPORT.json -o FILE.svg|FILE.png`: the per-second timeline
 * of every phase of a report (docs/report.md, "Plots"), drawn by gnuplot
 * (Debian's gnuplot-nox).  The data and the script go to temporary files
 * and gnuplot runs as a child; sbsim itself draws nothing.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <math.h>

#include <jansson.h>

#include "cli.h"
#include "cmd.h"
#include "log.h"
#include "opt.h"

#define PLOT_MAX_SIZE	10000	/* pixels a side */
#define PLOT_MAX_TITLE	120	/* characters of the title shown */
#define CLI_MAX_STEPS	(CLI_MAX_SWEEP + 2)	/* runs of a steps report */

struct plot_opts {
	const char	*output;
	const char	*title;
	const char	*script;
	unsigned	 width;
	unsigned	 height;
};

static const char plot_usage[] =
"usage: sbsim plot REPORT.json -o FILE.svg|FILE.png [options]\n"
"Draw the per-second timeline of every phase of an sbsim JSON report\n"
"with gnuplot.\n";

#define PO	struct plot_opts
static const struct opt plot_rows[] = {
	{ .name = "output", .key = 'o', .kind = OPT_STRING,
	  .off = OPT_FIELD(PO, output, const char *), .meta = "FILE",
	  .help = "the picture: .svg or .png (required)" },
	OPT_S("title", "T", PO, title, 0,
	    "its title", .def = "the report's scenario"),
	OPT_S("script", "FILE", PO, script, 0,
	    "keep gnuplot's script in FILE and its data in\n"
	    "FILE.dat", .def = "temporary files, removed"),
	OPT_U("width", "PX", PO, width, 100, PLOT_MAX_SIZE, 0,
	    "width in pixels"),
	OPT_U("height", "PX", PO, height, 100, PLOT_MAX_SIZE, 0,
	    "height in pixels"),
	OPT_HELP_ROW,
	OPT_END
};
#undef PO

#define plot_die(...)	cli_die_cmd("plot", __VA_ARGS__)

/* A gnuplot single-quoted string: '' stands for a quote, nothing else is
 * special in it. */
static void
plot_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			fputc('\'', f);
		if (*s != '\n' && *s != '\r')
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* The terminal for the output's extension, or NULL. */
static const char *
plot_terminal(const char *path)
{
	const char	*dot = strrchr(path, '.');

	if (dot == NULL)
		return NULL;
	if (strcasecmp(dot, ".svg") == 0)
		return "svg dynamic noenhanced";
	if (strcasecmp(dot, ".png") == 0)
		return "pngcairo noenhanced";
	return NULL;
}

/*
 * The time axis, picked from the run's length: seconds, or milliseconds
 * for a run under PLOT_MS_BELOW seconds; it spans the whole run (not
 * only its phases), and no window is drawn narrower than a thousandth
 * of it (an instant's rate would be infinite).
 */
#define PLOT_MS_BELOW	2.0

struct plot_axis {
	double		 len;		/* the run's seconds */
	double		 scale;		/* seconds to the axis's unit */
	double		 min_width;	/* seconds */
	const char	*label;
};

static double
plot_num(json_t *o, const char *key)
{
	double	d = json_number_value(json_object_get(o, key));

	return isfinite(d) && d > 0 ? d : 0;
}

static void
plot_axis_pick(struct plot_axis *ax, json_t *r)
{
	json_t	*ph;
	size_t	 i;

	ax->len = plot_num(r, "end_s");
	json_array_foreach(json_object_get(r, "phases"), i, ph)
		ax->len = fmax(ax->len, fmax(plot_num(ph, "end_s"),
		    plot_num(ph, "last_s")));
	ax->min_width = fmax(0.001, ax->len / 1000);
	if (ax->len < PLOT_MS_BELOW) {
		ax->scale = 1000;
		ax->label = "milliseconds since the run started";
	} else {
		ax->scale = 1;
		ax->label = "seconds since the run started";
	}
}

/*
 * One phase's timeline as a data block: second k since its trigger holds
 * timeline[k] items, drawn as a step over the part of that second the
 * phase was taking items in (its first to its last item), at items per
 * second over that part: a phase of 0.3 s is a step 0.3 s wide, not a
 * dot.  A second without items breaks the line (the y axis is
 * logarithmic).  0 when it has no item to draw.
 */
static int
plot_phase_block(FILE *f, json_t *ph, const struct plot_axis *ax)
{
	json_t	*tl = json_object_get(ph, "timeline");
	double	 trig = plot_num(ph, "trigger_s"), first, last, a, b, v;
	size_t	 k;
	int	 any = 0, line = 0;

	if (!json_is_array(tl) || !json_is_number(json_object_get(ph,
	    "trigger_s")))
		return 0;
	for (k = 0; k < json_array_size(tl); k++)
		any |= json_number_value(json_array_get(tl, k)) > 0;
	if (!any)
		return 0;
	first = json_is_number(json_object_get(ph, "first_s")) ?
	    plot_num(ph, "first_s") : trig;
	last = json_is_number(json_object_get(ph, "last_s")) ?
	    plot_num(ph, "last_s") : trig + (double)json_array_size(tl);
	for (k = 0; k < json_array_size(tl); k++) {
		if ((v = json_number_value(json_array_get(tl, k))) <= 0) {
			/* One blank line breaks it; two would end the block. */
			if (line)
				fputc('\n', f);
			line = 0;
			continue;
		}
		a = fmax(trig + (double)k, first);
		b = fmin(trig + (double)k + 1, last);
		if (b - a < ax->min_width)
			b = a + ax->min_width;
		fprintf(f, "%.6f %.17g\n%.6f %.17g\n", a * ax->scale,
		    v / (b - a), b * ax->scale, v / (b - a));
		line = 1;
	}
	fputs(line ? "\n\n" : "\n", f);
	return 1;
}

/* The data file; the phases drawn, in block order, into drawn[]. */
static size_t
plot_write_data(FILE *f, json_t *phases, json_t **drawn, size_t max,
    const struct plot_axis *ax)
{
	size_t	i, n = 0;

	for (i = 0; i < json_array_size(phases) && n < max; i++)
		if (plot_phase_block(f, json_array_get(phases, i), ax))
			drawn[n++] = json_array_get(phases, i);
	return n;
}

/* The terminal, the output and the title. */
static void
plot_write_head(FILE *f, const struct plot_opts *po, const char *title)
{
	fprintf(f, "set terminal %s size %u,%u\nset output ",
	    plot_terminal(po->output), po->width, po->height);
	plot_quote(f, po->output);
	fputs("\nset title ", f);
	plot_quote(f, title);
	fputs(" font ',10'\n", f);
}

/* A run's (or repeats') timelines: one line per phase drawn, over the
 * whole run. */
static void
plot_timelines_script(FILE *f, const char *data, json_t **drawn, size_t n,
    const struct plot_axis *ax)
{
	const char	*name, *proto;
	char		 label[160];
	size_t		 i;

	fputs("set xlabel ", f);
	plot_quote(f, ax->label);
	fprintf(f, "\nset xrange [0:%.6g]\n", fmax(ax->len, ax->min_width) *
	    ax->scale);
	fputs("set ylabel 'items per second'\nset logscale y\n"
	    "set datafile missing '?'\nset key outside below horizontal\n"
	    "set grid\nplot ", f);
	for (i = 0; i < n; i++) {
		name = json_string_value(json_object_get(drawn[i], "name"));
		proto = json_string_value(json_object_get(drawn[i],
		    "protocol"));
		snprintf(label, sizeof(label), "%s (%s)", name ? name : "?",
		    proto ? proto : "?");
		fprintf(f, "%s", i ? ", \\\n     " : "");
		plot_quote(f, data);
		fprintf(f, " index %zu using 1:2 with linespoints title ", i);
		plot_quote(f, label);
	}
	fputc('\n', f);
}

/* ---- sweeps and capacity searches: against the device count ---- */

static int
plot_cmp_size(const void *a, const void *b)
{
	json_int_t	x = json_integer_value(json_object_get(
			    *(json_t *const *)a, "size"));
	json_int_t	y = json_integer_value(json_object_get(
			    *(json_t *const *)b, "size"));

	return x < y ? -1 : x > y;
}

/* The step's phase of that name, or NULL. */
static json_t *
plot_step_phase(json_t *step, const char *name)
{
	json_t	*phases = json_object_get(step, "phases"), *ph;
	size_t	 i;

	json_array_foreach(phases, i, ph)
		if (json_is_string(json_object_get(ph, "name")) &&
		    strcmp(json_string_value(json_object_get(ph, "name")),
		    name) == 0)
			return ph;
	return NULL;
}

static double
plot_counter(json_t *step, const char *name)
{
	return json_number_value(json_object_get(json_object_get(step,
	    "counters"), name));
}

/*
 * Block k < n: phase names[k]'s rate at each size (sizes ascending);
 * block n: sbsim's and the controller's CPU seconds at each size.
 */
static void
plot_steps_data(FILE *f, json_t **runs, size_t nruns, const char **names,
    size_t n)
{
	json_t	*ph;
	size_t	 i, k;

	for (k = 0; k < n; k++) {
		for (i = 0; i < nruns; i++) {
			ph = plot_step_phase(runs[i], names[k]);
			if (ph != NULL && json_number_value(json_object_get(ph,
			    "rate_per_s")) > 0)
				fprintf(f, "%lld %.17g\n", (long long)
				    json_integer_value(json_object_get(runs[i],
				    "size")), json_number_value(
				    json_object_get(ph, "rate_per_s")));
		}
		fputs("\n\n", f);
	}
	for (i = 0; i < nruns; i++)
		fprintf(f, "%lld %.6f %.6f\n", (long long)json_integer_value(
		    json_object_get(runs[i], "size")),
		    (plot_counter(runs[i], "sbsim_cpu_user_ms") +
		    plot_counter(runs[i], "sbsim_cpu_system_ms")) / 1000,
		    plot_counter(runs[i], "controller_cpu_ms") / 1000);
}

/* Whether any step sampled the controller. */
static int
plot_has_controller(json_t **runs, size_t nruns)
{
	size_t	i;

	for (i = 0; i < nruns; i++)
		if (json_object_get(json_object_get(runs[i], "counters"),
		    "controller_cpu_ms") != NULL)
			return 1;
	return 0;
}

/* The phases that had a rate in any step, in the first run's order. */
static size_t
plot_steps_phases(json_t **runs, size_t nruns, const char **names,
    size_t max)
{
	json_t		*ph;
	const char	*name;
	size_t		 i, j, k, n = 0;

	for (i = 0; i < nruns; i++)
		json_array_foreach(json_object_get(runs[i], "phases"), j, ph) {
			name = json_string_value(json_object_get(ph, "name"));
			if (name == NULL || json_number_value(json_object_get(
			    ph, "rate_per_s")) <= 0)
				continue;
			for (k = 0; k < n && strcmp(names[k], name) != 0; k++)
				;
			if (k == n && n < max)
				names[n++] = name;
		}
	return n;
}

static void
plot_steps_script(FILE *f, const char *data, const char *opt,
    const char **names, size_t n, int ctl)
{
	char	label[96];
	size_t	k;

	fprintf(f, "set multiplot layout 2,1\nset grid\n"
	    "set logscale x\nset logscale y\nset key outside right top\n"
	    "set ylabel 'items per second'\nplot ");
	for (k = 0; k < n; k++) {
		fprintf(f, "%s", k ? ", \\\n     " : "");
		plot_quote(f, data);
		fprintf(f, " index %zu using 1:2 with linespoints title ", k);
		plot_quote(f, names[k]);
	}
	snprintf(label, sizeof(label), "--%s", opt);
	fputs("\nunset title\nunset logscale y\nset xlabel ", f);
	plot_quote(f, label);
	fputs("\nset ylabel 'CPU seconds'\nplot ", f);
	plot_quote(f, data);
	fprintf(f, " index %zu using 1:2 with linespoints title 'sbsim'", n);
	if (ctl) {
		fputs(", ", f);
		plot_quote(f, data);
		fprintf(f, " index %zu using 1:3 with linespoints title "
		    "'controller'", n);
	}
	fputs("\nunset multiplot\n", f);
}

/* gnuplot on PATH, or a clear message. */
static void
plot_need_gnuplot(void)
{
	const char	*path = getenv("PATH");
	char		 dir[4096];
	const char	*p, *e;
	size_t		 len;

	for (p = path ? path : "/usr/bin:/bin"; *p != '\0'; p = *e ? e + 1 : e) {
		e = strchr(p, ':');
		if (e == NULL)
			e = p + strlen(p);
		len = (size_t)(e - p);
		if (len == 0 || len + sizeof("/gnuplot") > sizeof(dir))
			continue;
		memcpy(dir, p, len);
		memcpy(dir + len, "/gnuplot", sizeof("/gnuplot"));
		if (access(dir, X_OK) == 0)
			return;
	}
	plot_die("gnuplot is not installed (Debian: apt-get install "
	    "gnuplot-nox)");
}

/* gnuplot SCRIPT; 0 when it drew, else -1 (it said why on stderr). */
static int
plot_run_gnuplot(const char *script)
{
	pid_t	pid;
	int	status;

	if ((pid = fork()) == -1)
		plot_die("fork: %s", strerror(errno));
	if (pid == 0) {
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR)
			plot_die("waitpid: %s", strerror(errno));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* A temporary file for gnuplot, opened for writing; its path in path. */
static FILE *
plot_tmpfile(char *path, size_t len, const char *what)
{
	const char	*dir = getenv("TMPDIR");
	FILE		*f;
	int		 fd;

	snprintf(path, len, "%s/sbsim-plot-%s.XXXXXX",
	    dir != NULL && *dir != '\0' ? dir : "/tmp", what);
	if ((fd = mkstemp(path)) == -1)
		plot_die("%s: %s", path, strerror(errno));
	if ((f = fdopen(fd, "w")) == NULL)
		plot_die("%s: %s", path, strerror(errno));
	return f;
}

/* --script's file (its name and suffix), or a temporary one. */
static FILE *
plot_open(const char *keep, const char *suffix, char *path, size_t len,
    const char *what)
{
	FILE	*f;

	if (keep == NULL)
		return plot_tmpfile(path, len, what);
	if ((size_t)snprintf(path, len, "%s%s", keep, suffix) >= len)
		plot_die("--script %s: the name is too long", keep);
	if ((f = fopen(path, "w")) == NULL)
		plot_die("%s: %s", path, strerror(errno));
	return f;
}

static json_t *
plot_load(const char *report)
{
	json_error_t	 e;
	json_t		*r, *tool;

	if ((r = json_load_file(report, 0, &e)) == NULL)
		plot_die("%s: not a JSON report: line %d: %s", report, e.line,
		    e.text);
	tool = json_object_get(r, "tool");
	if (!json_is_string(tool) || strcmp(json_string_value(tool),
	    "sbsim") != 0 || (!json_is_array(json_object_get(r, "phases")) &&
	    !json_is_object(json_object_get(r, "steps"))))
		plot_die("%s: not an sbsim report (no \"tool\": \"sbsim\" "
		    "with \"phases\" or \"steps\")", report);
	return r;
}

/* What to draw and how: the data and the body of the script. */
struct plot_job {
	json_t		*drawn[64];	/* timelines: the phases */
	const char	*names[64];	/* steps: the phases */
	json_t		*runs[CLI_MAX_STEPS];	/* steps, by size */
	size_t		 n;		/* phases drawn */
	size_t		 nruns;
	const char	*size_opt;	/* steps only */
	struct plot_axis ax;		/* timelines only */
};

/* The data file of r; the phases it has lines for (0: nothing). */
static size_t
plot_write_job(FILE *f, json_t *r, struct plot_job *j)
{
	json_t	*steps = json_object_get(r, "steps"), *run;
	size_t	 i;

	if (!json_is_object(steps)) {
		plot_axis_pick(&j->ax, r);
		j->n = plot_write_data(f, json_object_get(r, "phases"),
		    j->drawn, nitems(j->drawn), &j->ax);
		return j->n;
	}
	j->size_opt = json_string_value(json_object_get(steps,
	    "size_option"));
	json_array_foreach(json_object_get(steps, "runs"), i, run)
		if (j->nruns < nitems(j->runs) &&
		    json_is_integer(json_object_get(run, "size")))
			j->runs[j->nruns++] = run;
	qsort(j->runs, j->nruns, sizeof(j->runs[0]), plot_cmp_size);
	j->n = plot_steps_phases(j->runs, j->nruns, j->names,
	    nitems(j->names));
	if (j->n > 0)
		plot_steps_data(f, j->runs, j->nruns, j->names, j->n);
	return j->n;
}

/* Draw r into po->output; the number of phases drawn. */
static size_t
plot_draw(json_t *r, const char *report, const struct plot_opts *po)
{
	struct plot_job	 j;
	char		 data[512], script[512];
	char		 longtitle[PLOT_MAX_TITLE + 1];
	const char	*title = po->title;
	FILE		*df, *sf;
	int		 rc;

	memset(&j, 0, sizeof(j));
	df = plot_open(po->script, ".dat", data, sizeof(data), "data");
	if (plot_write_job(df, r, &j) == 0 || fclose(df) != 0) {
		if (po->script == NULL)
			unlink(data);
		plot_die("%s: no phase has items to plot", report);
	}
	if (title == NULL)
		title = json_string_value(json_object_get(r, "scenario"));
	if (title != NULL && strlen(title) > PLOT_MAX_TITLE) {
		snprintf(longtitle, sizeof(longtitle), "%.*s...",
		    PLOT_MAX_TITLE - 3, title);
		title = longtitle;
	}
	sf = plot_open(po->script, "", script, sizeof(script), "script");
	plot_write_head(sf, po, title != NULL ? title : report);
	if (j.nruns > 0)
		plot_steps_script(sf, data, j.size_opt ? j.size_opt : "size",
		    j.names, j.n, plot_has_controller(j.runs, j.nruns));
	else
		plot_timelines_script(sf, data, j.drawn, j.n, &j.ax);
	if (fclose(sf) != 0)
		plot_die("%s: %s", script, strerror(errno));
	rc = plot_run_gnuplot(script);
	if (po->script == NULL) {
		unlink(data);
		unlink(script);
	}
	if (rc == -1)
		plot_die("gnuplot could not draw %s", po->output);
	return j.n;
}

static int
plot_main(int argc, char **argv)
{
	struct plot_opts	 po = { NULL, NULL, NULL, 1000, 600 };
	struct opt_group	 g[] = { { NULL, plot_rows, &po, NULL } };
	const char		*report;
	json_t			*r;
	size_t			 n;

	log_init("sbsim", 0);
	/* No event loop here to take a signal over: the default action. */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (argc < 2 || argv[1][0] == '-') {
		/* --help, or the report missing: opt_parse says which. */
		opt_parse("sbsim plot", plot_usage, g, nitems(g), argc, argv);
		plot_die("REPORT.json is required (sbsim plot --help)");
	}
	report = argv[1];
	opt_parse("sbsim plot", plot_usage, g, nitems(g), argc - 1, argv + 1);
	if (po.output == NULL)
		plot_die("-o FILE.svg or FILE.png is required");
	if (plot_terminal(po.output) == NULL)
		plot_die("-o %s: the name must end in .svg or .png", po.output);
	r = plot_load(report);
	plot_need_gnuplot();
	n = plot_draw(r, report, &po);
	json_decref(r);
	printf("sbsim plot: %s: %zu phase%s\n", po.output, n,
	    n == 1 ? "" : "s");
	return 0;
}

const struct sbsim_cmd plot_cmd = {
	"plot",
	"draw a report's per-second timelines with gnuplot",
	plot_main,
};
