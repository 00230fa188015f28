/*
 * `sbsim run SCENARIO`: a whole network in one process (docs/guide.md,
 * "Scenarios").  The scenario file is instance data of the YANG module
 * sbsim-scenario (yang/), parsed and validated by libyang, so that an
 * error names its path and nothing starts.  Each group becomes the
 * command line of its protocol's command, whose own main parses and
 * checks it and hands its sim over (run_collect()); the groups then run
 * together as one sim on one event loop, each group's phases and counters
 * named GROUP.name (metrics_set_prefix()), into one report.
 *
 * Groups of one protocol are apart (each command main makes its own sim);
 * a protocol whose devices share something of the process's has one
 * group at most (its descriptor's one_group, protocol.h).
 *
 * `sbsim run --print COMMAND ARGS...` writes the one-group scenario that
 * a command line means.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <libyang/libyang.h>

#include "cli.h"
#include "opt.h"
#include "cmd.h"
#include "fault.h"
#include "log.h"
#include "metrics.h"
#include "protocol.h"
#include "run.h"
#include "scen_file.h"

#define SCEN_MODULE	"sbsim-scenario"
#define SCEN_MAX_GROUPS	16	/* the module's max-elements */
#define SCEN_MAX_ARGS	512	/* words of one group's command line */

/*
 * The options of the run as a whole: the scenario's top level and the
 * command line take them, a group does not (it would be ignored there).
 */
static const char *const scen_run_options[] = {
	"report", "csv", "junit", "expect", "timeout", "duration", "seed",
	"controller-pid", "controller-metrics", "metrics-listen", "verbose",
	"quiet", "repeat", "sweep", "find-max", "step-pause", "step-group",
	"shard", "workers", "max-scenario-size",
};

/* A command line being built: words owned by the line. */
struct scen_argv {
	char	*w[SCEN_MAX_ARGS];
	int	 n;
};

struct scen_group {
	char				 name[17];
	const struct sbsim_protocol	*protocol;
	uint32_t			 count;	/* its devices, all shards' */
	struct scen_argv		 args;
	struct run_group		 g;
	/* Its --fault, as this process injects it (a worker's share). */
	struct fault_spec		 faults[FAULT_MAX_SPECS];
	size_t				 n_faults;
};

struct scen {
	const char		*path;
	struct scen_argv	 top;		/* the top level's options */
	struct scen_group	 grp[SCEN_MAX_GROUPS];
	size_t			 n;
	size_t			 started;
	struct metrics		 scope[SCEN_MAX_GROUPS];	/* GROUP. */
	struct sim_ops		 ops;		/* the groups as one sim */
	struct scen_group	*stepped;	/* --sweep, --find-max */
	uint32_t		 step_count;	/* its count, scen_start() */
	char			 size_opt[32];	/* "GROUP.count" */
	struct run_opts		 ro;		/* the whole run's options */
	const char		*phases[METRICS_MAX_PHASES + 1];
	char			*phase_names[METRICS_MAX_PHASES];
	int			 checking;	/* --workers: collect only */
	uint64_t		 max_size;	/* --max-scenario-size */
	char			 desc[256];	/* its description, one line */
};

/* --workers: what run_workers() asks of the scenario as one sim. */
static const struct sim_ops scen_workers_ops = { .name = "run", .shards = 1 };

#define scen_die(...)	cli_die_cmd("run", __VA_ARGS__)

static void
scen_push(struct scen_argv *a, const char *fmt, const char *s)
{
	if (a->n == SCEN_MAX_ARGS - 1)
		scen_die("more than %d words in one command line",
		    SCEN_MAX_ARGS - 1);
	if (xasprintf(&a->w[a->n++], fmt, s) == -1)
		fatalx("xasprintf");
	a->w[a->n] = NULL;
}

static void
scen_argv_free(struct scen_argv *a)
{
	int	i;

	for (i = 0; i < a->n; i++)
		free(a->w[i]);
	a->n = 0;
}

static int
scen_is_run_option(const char *name)
{
	size_t	i;

	for (i = 0; i < nitems(scen_run_options); i++)
		if (strcmp(name, scen_run_options[i]) == 0)
			return 1;
	return 0;
}

/* The option that counts a protocol's devices, or NULL: no such
 * protocol. */
static const char *
scen_count_option(const char *protocol)
{
	const struct sbsim_protocol	*p = sbsim_protocol_find(protocol);

	return p != NULL ? p->count : NULL;
}

/* ---- the scenario file ---- */

static struct ly_ctx *
scen_ctx(void)
{
	struct ly_ctx	*ctx;
	const char	*dir = cli_yang_dir();

	ly_log_options(LY_LOSTORE_LAST);
	if (ly_ctx_new(dir, LY_CTX_NO_YANGLIBRARY, &ctx) != LY_SUCCESS)
		scen_die("cannot make a YANG context on %s", dir);
	if (ly_ctx_load_module(ctx, SCEN_MODULE, NULL, NULL) == NULL)
		scen_die("cannot load the YANG module %s from %s: %s",
		    SCEN_MODULE, dir, ly_err_last(ctx) ?
		    ly_err_last(ctx)->msg : "not found");
	return ctx;
}

/*
 * libyang's error location, 'Data location "/a/b", line number 3.', as
 * " (at /a/b, line 3)"; "" when it has none.
 */
static const char *
scen_where(const char *loc, char *buf, size_t len)
{
	const char	*q, *end, *line;

	buf[0] = '\0';
	if (loc == NULL)
		return buf;
	line = strstr(loc, "line number ");
	if ((q = strchr(loc, '"')) != NULL &&
	    (end = strchr(q + 1, '"')) != NULL)
		snprintf(buf, len, " (at %.*s%s%.*s)", (int)(end - q - 1),
		    q + 1, line ? ", line " : "", line ? (int)strspn(line + 12,
		    "0123456789") : 0, line ? line + 12 : "");
	else if (line != NULL)
		snprintf(buf, len, " (line %.*s)",
		    (int)strspn(line + 12, "0123456789"), line + 12);
	else
		snprintf(buf, len, " (at %s)", loc);
	return buf;
}

/* The file's data, valid against the module, or a message naming the
 * error's path and nothing else done.  The file is read first under
 * its bounds (scen_file_read()), then given to libyang. */
static struct lyd_node *
scen_parse(struct ly_ctx *ctx, const char *path, size_t max)
{
	const char		*dot = strrchr(path, '.');
	struct lyd_node		*tree = NULL;
	struct ly_err_item	*e;
	LYD_FORMAT		 fmt;
	char			 where[600], *data;
	size_t			 len;
	LY_ERR			 rc;

	if (dot != NULL && strcasecmp(dot, ".json") == 0)
		fmt = LYD_JSON;
	else if (dot != NULL && strcasecmp(dot, ".xml") == 0)
		fmt = LYD_XML;
	else
		scen_die("%s: the name must end in .json or .xml", path);
	if ((data = scen_file_read(path, max, &len, where,
	    sizeof(where))) == NULL)
		scen_die("%s: %s", path, where);
	if (scen_file_unique(data, len, fmt == LYD_XML, where,
	    sizeof(where)) == -1) {
		free(data);
		scen_die("%s: %s", path, where);
	}
	rc = lyd_parse_data_mem(ctx, data, fmt, LYD_PARSE_STRICT,
	    LYD_VALIDATE_PRESENT | LYD_VALIDATE_NO_STATE, &tree);
	free(data);
	if (rc != LY_SUCCESS) {
		e = ly_err_last(ctx);
		scen_die("%s: %s%s", path, e ? e->msg : "not valid",
		    scen_where(e ? e->path : NULL, where, sizeof(where)));
	}
	for (; tree != NULL; tree = tree->next)
		if (strcmp(tree->schema->name, "scenario") == 0)
			return tree;
	scen_die("%s: no %s:scenario in it", path, SCEN_MODULE);
}

/* The value of n's child leaf of that name, or NULL. */
static const char *
scen_leaf(const struct lyd_node *n, const char *name)
{
	struct lyd_node	*c;

	LY_LIST_FOR(lyd_child(n), c)
		if (strcmp(c->schema->name, name) == 0)
			return lyd_get_value(c);
	return NULL;
}

/* An option entry: "--name" once, or once per value; run says whether
 * it must be one of the run's own options or must not. */
static void
scen_option(struct scen_argv *a, const struct lyd_node *opt, int run,
    const char *path)
{
	const char	*name = scen_leaf(opt, "name");
	struct lyd_node	*c;
	char		*where;
	int		 values = 0;

	if (run && strcmp(name, "max-scenario-size") == 0)
		scen_die("%s: --%s belongs to the command line (the file is "
		    "read under it)", path, name);
	if (scen_is_run_option(name) != run) {
		where = lyd_path(opt, LYD_PATH_STD, NULL, 0);
		scen_die("%s: %s: --%s %s", path, where ? where : name, name,
		    run ? "belongs to a group, not to the whole run" :
		    "belongs to the whole run (the scenario's top level or "
		    "the command line), not to a group");
	}
	LY_LIST_FOR(lyd_child(opt), c)
		if (strcmp(c->schema->name, "value") == 0) {
			scen_push(a, "--%s", name);
			scen_push(a, "%s", lyd_get_value(c));
			values++;
		}
	if (values == 0)
		scen_push(a, "--%s", name);
}

static void
scen_options(struct scen_argv *a, const struct lyd_node *n, int run,
    const char *path)
{
	struct lyd_node	*c;

	LY_LIST_FOR(lyd_child(n), c)
		if (strcmp(c->schema->name, "option") == 0)
			scen_option(a, c, run, path);
}

/* A group's protocol: one of the list (the module leaves it a string),
 * and one group at most of a protocol that says so (protocol.h). */
static const struct sbsim_protocol *
scen_group_protocol(struct scen *sc, const struct lyd_node *n,
    const char *group)
{
	const struct sbsim_protocol	*p;
	const char			*name = scen_leaf(n, "protocol");
	char				 known[256];
	size_t				 i;

	if ((p = sbsim_protocol_find(name)) == NULL)
		scen_die("%s: group '%s': unknown protocol '%s' (the known "
		    "ones: %s) (at /sbsim-scenario:scenario/group[name='%s']"
		    "/protocol)", sc->path, group, name,
		    sbsim_protocol_names(", ", known, sizeof(known)), group);
	for (i = 0; i < sc->n; i++)
		if (sc->grp[i].protocol == p && p->one_group != NULL)
			scen_die("%s: groups '%s' and '%s' are both %s: one %s "
			    "group (%s)", sc->path, sc->grp[i].name, group,
			    name, name, p->one_group);
	return p;
}

/* One group's command line.  Each call of a command's main makes its own
 * sim (run_sim_new()), so several groups may share a protocol. */
static void
scen_group(struct scen *sc, const struct lyd_node *n)
{
	struct scen_group	*g = &sc->grp[sc->n];
	const char		*ctl = scen_leaf(n, "controller");

	snprintf(g->name, sizeof(g->name), "%s", scen_leaf(n, "name"));
	g->protocol = scen_group_protocol(sc, n, g->name);
	g->count = (uint32_t)strtoul(scen_leaf(n, "count"), NULL, 10);
	scen_push(&g->args, "run: group '%s'", g->name);
	scen_push(&g->args, "--%s", g->protocol->count);
	scen_push(&g->args, "%s", scen_leaf(n, "count"));
	if (ctl != NULL) {
		scen_push(&g->args, "%s", "--controller");
		scen_push(&g->args, "%s", ctl);
	}
	scen_options(&g->args, n, 0, sc->path);
	sc->n++;
}

static void
scen_load(struct scen *sc, const struct lyd_node *top)
{
	const char	*desc = scen_leaf(top, "description");
	struct lyd_node	*c;
	char		*p;

	/* On one line: it titles the report's scenario and its plot. */
	snprintf(sc->desc, sizeof(sc->desc), "%s", desc ? desc : "");
	for (p = sc->desc; *p != '\0'; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';

	scen_push(&sc->top, "%s", "run");
	scen_options(&sc->top, top, 1, sc->path);
	LY_LIST_FOR(lyd_child(top), c)
		if (strcmp(c->schema->name, "group") == 0)
			scen_group(sc, c);
}

/* ---- the groups as one sim ---- */

static uint32_t
scen_fds(void *arg)
{
	struct scen	*sc = arg;
	uint32_t	 n = 0;
	size_t		 i;

	for (i = 0; i < sc->n; i++)
		n += sc->grp[i].g.ops->fds_needed(sc->grp[i].g.cfg);
	return n;
}

static int
scen_start(void *arg, struct metrics *m, char *err, size_t errlen)
{
	struct scen		*sc = arg;
	struct scen_group	*g;
	char			 e[400];
	int			 rc;

	/* --sweep and --find-max step one group's count (--step-group):
	 * the scenario's own, sc->step_count, set before each start. */
	*run_size(sc->stepped->g.ops, sc->stepped->g.cfg) = sc->step_count;
	for (sc->started = 0; sc->started < sc->n; sc->started++) {
		g = &sc->grp[sc->started];
		metrics_scope(&sc->scope[sc->started], m, g->name);
		rc = g->g.ops->start(g->g.cfg, &sc->scope[sc->started], e,
		    sizeof(e));
		if (rc == -1) {
			sc->started++;	/* stopped too, as a lone run is */
			snprintf(err, errlen, "group '%s': %s", g->name, e);
			return -1;
		}
		/* The group's --fault: a set of its own, counted in its
		 * scope, its generator apart from the other groups'. */
		fault_start(g->faults, g->n_faults, g->g.ops->faults,
		    g->g.cfg, &sc->scope[sc->started], g->g.ops->name,
		    (uint64_t)sc->started << 32 | run_seed(&sc->ro),
		    m->start_ns);
	}
	return 0;
}

/* Complete when every group is; quiet (run_quiet_until()) until the
 * earliest any group asked, when every group asked. */
static int
scen_tick(void *arg, uint64_t now)
{
	struct scen		*sc = arg;
	struct scen_group	*g;
	size_t			 i;
	uint64_t		 quiet = UINT64_MAX, q;
	int			 all = 1;

	for (i = 0; i < sc->started; i++) {
		g = &sc->grp[i];
		(void)run_quiet_take();
		if (g->g.ops->tick(g->g.cfg, now) != 1)
			all = 0;
		q = run_quiet_take();
		quiet = q == 0 || q < quiet ? q : quiet;
	}
	if (quiet != 0 && quiet != UINT64_MAX)
		run_quiet_until(quiet);
	return all;
}

static void
scen_stop(void *arg)
{
	struct scen		*sc = arg;
	struct scen_group	*g;
	size_t			 i;

	for (i = sc->started; i-- > 0;) {
		g = &sc->grp[i];
		g->g.ops->stop(g->g.cfg);
	}
	sc->started = 0;
}

static void
scen_step_group(struct scen *sc)
{
	size_t	i;

	sc->stepped = &sc->grp[0];
	if (sc->ro.step_group != NULL) {
		for (i = 0; i < sc->n; i++)
			if (strcmp(sc->grp[i].name, sc->ro.step_group) == 0)
				break;
		if (i == sc->n)
			scen_die("--step-group %s: %s has no such group",
			    sc->ro.step_group, sc->path);
		sc->stepped = &sc->grp[i];
	}
	snprintf(sc->size_opt, sizeof(sc->size_opt), "%s.count",
	    sc->stepped->name);
	sc->step_count = *run_size(sc->stepped->g.ops, sc->stepped->g.cfg);
}

static void
scen_phase_name(struct scen *sc, size_t n, const char *group,
    const char *phase)
{
	if (n == METRICS_MAX_PHASES)
		scen_die("%s: the groups have more than %d phases", sc->path,
		    METRICS_MAX_PHASES);
	if (xasprintf(&sc->phase_names[n], "%s.%s", group, phase) == -1)
		fatalx("xasprintf");
	sc->phases[n] = sc->phase_names[n];
}

/* Every phase a group may have, as GROUP.phase: what --expect may name. */
static void
scen_phase_names(struct scen *sc)
{
	const char *const	*p;
	size_t			 i, n = 0;

	for (i = 0; i < sc->n; i++) {
		for (p = sc->grp[i].g.ops->phases; *p != NULL; p++)
			scen_phase_name(sc, n++, sc->grp[i].name, *p);
		/* A group with --fault may have its reconnect phase. */
		if (sc->grp[i].g.ro->n_faults > 0)
			scen_phase_name(sc, n++, sc->grp[i].name,
			    "reconnect");
	}
	sc->phases[n] = NULL;
}

/* ---- the run ---- */

static const char scen_usage[] =
"usage: sbsim run SCENARIO.json|SCENARIO.xml [options]\n"
"       sbsim run --print COMMAND [its options]\n"
"Run the device groups of a scenario (YANG module sbsim-scenario) together\n"
"in one process, into one report; or print the scenario a command line\n"
"means.  Options of the whole run (a group's go in the scenario file):\n";

/* The scenario file's own bound: read before the file, from the command
 * line (scen_max_size()); declared here for --help and the parse. */
static const struct opt scen_file_rows[] = {
	OPT_U("max-scenario-size", "BYTES", struct scen, max_size, 64,
	    UINT32_MAX, 0, "the largest scenario file read; a FIFO or\n"
	    "device is refused"),
	OPT_END
};

/* --max-scenario-size from the command line after the file, which is
 * read under it before the other options are parsed. */
static uint64_t
scen_max_size(int argc, char **argv)
{
	const char	*name = "--max-scenario-size", *arg = NULL;
	size_t		 nl = strlen(name);
	uint64_t	 v = SCEN_FILE_MAX;
	char		 err[256];
	int		 i;

	for (i = 0; i < argc; i++) {
		if (strncmp(argv[i], name, nl) != 0)
			continue;
		if (argv[i][nl] == '=')
			arg = argv[i] + nl + 1;
		else if (argv[i][nl] == '\0' && i + 1 < argc)
			arg = argv[++i];
		else
			continue;	/* the parse says what is wrong */
		if (opt_uint(name + 2, arg, scen_file_rows[0].min,
		    scen_file_rows[0].max, &v, err, sizeof(err)) == -1)
			scen_die("%s", err);
	}
	return v;
}

/*
 * The whole run's options: the scenario's top level, then the command
 * line's, which override them.  A group's option on the command line
 * would be lost: refused.
 */
static void
scen_run_opts(struct scen *sc, int argc, char **argv)
{
	struct opt_group file_group = { "scenario file:", scen_file_rows, sc,
	    NULL };
	const char	*tok, *eq;
	char		 name[48];
	int		 i;

	for (i = 0; i < argc; i++) {
		tok = argv[i];
		if (strncmp(tok, "--", 2) != 0)
			continue;
		eq = strchr(tok, '=');
		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - tok - 2) :
		    (int)strlen(tok + 2), tok + 2);
		if (!scen_is_run_option(name) && strcmp(name, "help") != 0)
			scen_die("--%s belongs to a group: set it in the "
			    "scenario file", name);
	}
	for (i = 0; i < argc; i++)
		scen_push(&sc->top, "%s", argv[i]);
	cli_parse_groups(sc->top.n, sc->top.w, &file_group, 1, &sc->ro,
	    scen_usage);
}

/*
 * The report's "scenario": the file's description, then the command line
 * with the file in it ("two switches: sbsim run s.json --report r.json"):
 * what sbsim plot titles its picture with.
 */
static void
scen_report_name(struct scen *sc)
{
	char	out[2 * sizeof(sc->ro.scenario) + sizeof(sc->desc)];
	size_t	run = strlen("sbsim run"), len;

	snprintf(out, sizeof(out), "%s%ssbsim run %s%s", sc->desc,
	    sc->desc[0] != '\0' ? ": " : "", sc->path,
	    strncmp(sc->ro.scenario, "sbsim run", run) == 0 ?
	    sc->ro.scenario + run : "");
	/* Cut as the command line is (docs/report.md, "scenario"). */
	len = strlen(out);
	if (len >= sizeof(sc->ro.scenario))
		len = sizeof(sc->ro.scenario) - 1;
	memcpy(sc->ro.scenario, out, len);
	sc->ro.scenario[len] = '\0';
}

/* Each group's --fault against its protocol's kinds and the whole
 * run's --duration (a rate needs one). */
static void
scen_check_faults(struct scen *sc)
{
	const struct scen_group	*g;
	char			 err[512];
	size_t			 i;

	for (i = 0; i < sc->n; i++) {
		g = &sc->grp[i];
		if (fault_check(g->g.ro->faults, g->g.ro->n_faults,
		    g->g.ops->faults, sc->ro.duration, err, sizeof(err)) == -1)
			scen_die("group '%s': %s", g->name, err);
	}
}

/*
 * Each group's --fault as this process injects it: in a worker of
 * --workers, its share of the whole run's (as a command's worker has),
 * so that the scenario gets what its file asked.
 */
static void
scen_fault_shares(struct scen *sc)
{
	struct scen_group	*g;
	size_t			 i;

	for (i = 0; i < sc->n; i++) {
		g = &sc->grp[i];
		memcpy(g->faults, g->g.ro->faults, sizeof(g->faults));
		g->n_faults = g->g.ro->n_faults;
		if (sc->ro.worker)
			run_split_faults(g->faults, g->n_faults,
			    sc->ro.shard_index, sc->ro.shard_count);
	}
}

/* Every group collected: check them together and run them. */
static int
scen_go(struct scen *sc)
{
	size_t	i;

	for (i = 0; i < sc->n; i++)
		if (sc->grp[i].g.ops->size_opt == NULL ||
		    strcmp(sc->grp[i].g.ops->size_opt,
		    sc->grp[i].protocol->count) != 0)
			fatalx("group %s: count option mismatch",
			    sc->grp[i].name);
	scen_check_faults(sc);
	scen_fault_shares(sc);
	scen_phase_names(sc);
	scen_step_group(sc);
	if (sc->checking)
		return 0;
	/* Shards: each group sliced its own devices (scen_shards()). */
	sc->ops = (struct sim_ops){ "run", sc->phases, scen_fds, scen_start,
	    scen_tick, scen_stop, sc->size_opt, offsetof(struct scen,
	    step_count), NULL, 1 };
	log_init("sbsim", sc->ro.verbose);
	log_info("running %zu groups of %s", sc->n, sc->path);
	return run_main(&sc->ops, sc, &sc->ro);
}

/* Group i's main, collecting; from the last group's on, the run. */
static int
scen_collect(void *arg)
{
	static size_t		 next;
	struct scen		*sc = arg;
	struct scen_group	*g;
	int			 rc;

	if (next == sc->n)
		return scen_go(sc);
	g = &sc->grp[next++];
	run_collect(&g->g, scen_collect, sc);
	/* Its options are its protocol command's: errors point there. */
	cli_help_as(g->protocol->cmd->name);
	rc = g->protocol->cmd->main(g->args.n, g->args.w);
	cli_help_as(NULL);
	if (g->g.ops == NULL)
		scen_die("group '%s': its command ended before its run "
		    "(exit status %d)", g->name, rc);
	return rc;
}

/* The whole run's --timeout is each group's phase timeout too. */
static void
scen_timeouts(struct scen *sc)
{
	char	t[64];
	size_t	i;

	snprintf(t, sizeof(t), "%.17g", sc->ro.phase_timeout);
	for (i = 0; i < sc->n; i++) {
		scen_push(&sc->grp[i].args, "%s", "--timeout");
		scen_push(&sc->grp[i].args, "%s", t);
	}
}

/* ---- --shard and --workers: a slice of every group ---- */

/*
 * The group with the fewest devices, which must have n at least: shard
 * I of N runs slice I of every group's devices, and a slice of none is
 * refused for every I alike (not only for the shards it would leave
 * empty), so that the first shard tried says so.
 */
static const struct scen_group *
scen_smallest(const struct scen *sc, unsigned n, const char *opt)
{
	const struct scen_group	*least = &sc->grp[0];
	size_t			 i;

	for (i = 1; i < sc->n; i++)
		if (sc->grp[i].count < least->count)
			least = &sc->grp[i];
	if (least->count < n)
		scen_die("%s: group '%s': %u shards for %u devices (each "
		    "shard runs a slice of every group)", opt, least->name, n,
		    least->count);
	return least;
}

/* --shard I/N to every group's command, whose main slices its devices
 * by its own rules and refuses what it cannot slice, naming the group. */
static void
scen_shards(struct scen *sc)
{
	char	arg[32];
	size_t	i;

	if (sc->ro.shard_count == 0)
		return;
	/* Said first: the groups' slices would make --step-group's
	 * ceiling a slice's. */
	if (sc->ro.n_sweep > 0 || sc->ro.find_max > 0)
		scen_die("--shard does not go with --sweep or --find-max");
	scen_smallest(sc, sc->ro.shard_count, "--shard");
	snprintf(arg, sizeof(arg), "%u/%u", sc->ro.shard_index,
	    sc->ro.shard_count);
	for (i = 0; i < sc->n; i++) {
		scen_push(&sc->grp[i].args, "%s", "--shard");
		scen_push(&sc->grp[i].args, "%s", arg);
	}
}

/*
 * --workers N: every group's command collected with --workers N, which
 * its main checks as for a run of its own (run_workers() forks nothing
 * while collecting), in a child that stops there: a group refusing it
 * is one usage error naming the group, before any worker starts, not N
 * of them.
 */
static void
scen_check_workers(struct scen *sc)
{
	char	n[16];
	size_t	i;
	pid_t	pid;
	int	status;

	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == -1)
		fatal("--workers: checking the groups");
	if (pid == 0) {
		snprintf(n, sizeof(n), "%u", sc->ro.workers);
		for (i = 0; i < sc->n; i++) {
			scen_push(&sc->grp[i].args, "%s", "--workers");
			scen_push(&sc->grp[i].args, "%s", n);
		}
		sc->checking = 1;
		_exit(scen_collect(sc));
	}
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR)
			fatal("--workers: checking the groups");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		exit(WIFEXITED(status) ? WEXITSTATUS(status) : 2);
}

/*
 * --workers N: fork N workers, each the whole scenario's shard i/N (the
 * parent merging their reports, as for one command's --workers); 1 in
 * the parent with the exit status in rc, 0 in a worker, which goes on
 * with sc->ro made its shard's.
 */
static int
scen_workers(struct scen *sc, int *rc)
{
	const struct scen_group	*least;
	char			 what[64];

	if (sc->ro.workers == 0)
		return 0;
	run_workers_check(&scen_workers_ops, &sc->ro);
	least = scen_smallest(sc, sc->ro.workers, "--workers");
	scen_check_workers(sc);
	snprintf(what, sizeof(what), "devices of group '%s'", least->name);
	return run_workers(&scen_workers_ops, NULL, &sc->ro, what, least->count, rc);
}

static void
scen_free(struct scen *sc)
{
	size_t	i;

	for (i = 0; i < sc->n; i++)
		scen_argv_free(&sc->grp[i].args);
	for (i = 0; sc->phases[i] != NULL; i++)
		free(sc->phase_names[i]);
	scen_argv_free(&sc->top);
}

/* ---- --print: a command line as a one-group scenario ---- */

struct scen_print {
	int		 argc;
	char		**argv;
	const char	*protocol;
};

/* The option object of that name in list, made when new. */
static json_t *
scen_json_option(json_t *list, const char *name)
{
	json_t	*o;
	size_t	 i;

	json_array_foreach(list, i, o)
		if (strcmp(json_string_value(json_object_get(o, "name")),
		    name) == 0)
			return o;
	o = json_pack("{s:s}", "name", name);
	json_array_append_new(list, o);
	return o;
}

static void
scen_json_add(json_t *o, const char *value)
{
	json_t	*v = json_object_get(o, "value");

	if (value == NULL)
		return;
	if (v == NULL) {
		v = json_array();
		json_object_set_new(o, "value", v);
	}
	json_array_append_new(v, json_string(value));
}

/*
 * One word (or two, "--name value") of the command line into the group
 * or the run's options; the count and --controller into their leaves.
 * Returns the words used.
 */
static int
scen_print_word(const struct scen_print *p, int i, json_t *group,
    json_t *run)
{
	const char	*tok = p->argv[i], *eq, *value = NULL;
	char		 name[48];
	int		 used = 1;

	if (strcmp(tok, "-v") == 0 || strcmp(tok, "-q") == 0)
		snprintf(name, sizeof(name), "%s", tok[1] == 'v' ? "verbose" :
		    "quiet");
	else {
		eq = strchr(tok, '=');
		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - tok - 2) :
		    (int)strlen(tok + 2), tok + 2);
		if (eq != NULL)
			value = eq + 1;
		else if (i + 1 < p->argc && p->argv[i + 1][0] != '-') {
			value = p->argv[i + 1];
			used = 2;
		}
	}
	if (strcmp(name, scen_count_option(p->protocol)) == 0 && value)
		json_object_set_new(group, "count",
		    json_integer(strtoll(value, NULL, 10)));
	else if (strcmp(name, "controller") == 0 && value)
		json_object_set_new(group, "controller", json_string(value));
	else
		scen_json_add(scen_json_option(scen_is_run_option(name) ? run :
		    json_object_get(group, "option"), name), value);
	return used;
}

/* Called as the run would be: the command line parsed and checked. */
static int
scen_print_next(void *arg)
{
	const struct scen_print	*p = arg;
	json_t			*group, *run, *doc;
	int			 i;

	run = json_array();
	group = json_pack("{s:s,s:s,s:[]}", "name", p->protocol, "protocol",
	    p->protocol, "option");
	for (i = 1; i < p->argc;)
		i += scen_print_word(p, i, group, run);
	if (json_array_size(json_object_get(group, "option")) == 0)
		json_object_del(group, "option");
	doc = json_pack("{s:{s:o,s:[o]}}", "sbsim-scenario:scenario",
	    "option", run, "group", group);
	if (json_array_size(run) == 0)
		json_object_del(json_object_get(doc,
		    "sbsim-scenario:scenario"), "option");
	json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
	json_decref(doc);
	return 0;
}

static int
scen_print(int argc, char **argv)
{
	struct scen_print		 p = { argc, argv, NULL };
	const struct sbsim_protocol	*proto;
	struct run_group		 g;
	char				 known[256];
	int				 rc;

	if (argc < 1 || (proto = sbsim_protocol_find(argv[0])) == NULL)
		scen_die("--print needs a device command line: sbsim run "
		    "--print %s OPTIONS...", sbsim_protocol_names("|", known,
		    sizeof(known)));
	p.protocol = argv[0];
	memset(&g, 0, sizeof(g));
	run_collect(&g, scen_print_next, &p);
	rc = proto->cmd->main(argc, argv);
	if (g.ops == NULL)
		scen_die("--print: the command line did not make a run");
	return rc;
}

/* ---- the command ---- */

static int
scen_main(int argc, char **argv)
{
	static struct scen	 sc;
	struct ly_ctx		*ctx;
	struct lyd_node		*top;
	int			 rc;

	log_init("sbsim", 0);
	sc.max_size = SCEN_FILE_MAX;	/* for --help */
	if (argc >= 2 && strcmp(argv[1], "--print") == 0)
		return scen_print(argc - 2, argv + 2);
	if (argc < 2 || argv[1][0] == '-') {
		/* --help and -h exit 0 here (argv[0] is the program's). */
		scen_push(&sc.top, "%s", "run");
		scen_run_opts(&sc, argc - 1, argv + 1);
		scen_die("SCENARIO.json or SCENARIO.xml is required (sbsim "
		    "run --help)");
	}
	sc.path = argv[1];
	ctx = scen_ctx();
	top = scen_parse(ctx, sc.path, scen_max_size(argc - 2, argv + 2));
	scen_load(&sc, top);
	lyd_free_all(top);
	ly_ctx_destroy(ctx);
	scen_run_opts(&sc, argc - 2, argv + 2);
	scen_report_name(&sc);
	scen_timeouts(&sc);
	if (scen_workers(&sc, &rc) == 0) {
		scen_shards(&sc);
		rc = scen_collect(&sc);
	}
	scen_free(&sc);
	return rc;
}

const struct sbsim_cmd run_cmd = {
	"run",
	"run a scenario: device groups of any protocol in one process",
	scen_main,
};
