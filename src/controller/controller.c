/*
 * `sbsim controller`: the embedded reference controller in its own
 * process, on the same engine and event loop.  Its RESTCONF northbound
 * (OpenDaylight's shapes) is here; everything a protocol does is one of
 * the roles of ctl_role_table() (ctl_role.h), which this file drives without
 * knowing them: their option rows, checks, start in table order, summary
 * lines, and stop in reverse order, on error and at exit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "cli.h"
#include "cmd.h"
#include "ctl_role.h"
#include "ctl_workers.h"
#include "engine.h"
#include "http_server.h"
#include "log.h"
#include "metrics.h"
#include "opt.h"
#include "restconf.h"

#define CTL_GIVEN_RESTCONF	0x1	/* --restconf */
#define CTL_GIVEN_RC_OPT	0x2	/* --restconf-* */
#define CTL_MAX_ROLES		16
_Static_assert(CTL_MAX_ROLES <= CTL_DEVLOG_ROLES, "a devlog slot per role");
#define CTL_PROG		"sbsim controller"

/* The roles, in start order (ctl_role_table()). */
static const struct ctl_role *const *ctl_roles;

struct ctl_run {
	struct http_server_config http;
	char			 rc_addr[64];
	struct http_server	*hs;
	unsigned		 given;		/* the controller's own rows */
	unsigned		 role_given[CTL_MAX_ROLES];
	int			 on[CTL_MAX_ROLES];	/* the role runs */
	size_t			 n_roles;
	size_t			 started;	/* roles up to here started */
	double			 duration;
	int			 verbose;
	uint32_t		 workers;	/* --workers, 0: none */
	uint64_t		 start_ns;
	struct ctl_devlog	 devlog;	/* devices coming and going */
};

static const char ctl_usage[] =
"usage: sbsim controller [ROLE OPTIONS] [--restconf [IP:]PORT] [options]\n"
"The embedded reference controller: each protocol's role below runs when\n"
"its options say so.\n";

static _Noreturn void
ctl_die(const char *msg)
{
	fprintf(stderr, CTL_PROG ": %s\n", msg);
	exit(CLI_EXIT_USAGE);
}

/* --restconf [IP:]PORT, with IPv6 in brackets. */
static int
ctl_restconf_addr(void *base, const char *arg, char *err, size_t errlen)
{
	struct ctl_run	*r = base;

	if (http_listen_parse("--restconf", arg, r->rc_addr,
	    sizeof(r->rc_addr), &r->http.port, err, errlen) == -1)
		return -1;
	r->http.address = r->rc_addr[0] != '\0' ? r->rc_addr : NULL;
	return 0;
}

/* RFC 7617 section 2: no colon in the user-id. */
static int
ctl_restconf_user(void *base, const char *arg, char *err, size_t errlen)
{
	if (strlen(arg) >= HTTP_MAX_CRED || arg[0] == '\0' ||
	    strchr(arg, ':') != NULL) {
		snprintf(err, errlen, "--restconf-user: 1 to 255 characters, "
		    "no ':'");
		return -1;
	}
	((struct ctl_run *)base)->http.user = arg;
	return 0;
}

static int
ctl_restconf_password(void *base, const char *arg, char *err, size_t errlen)
{
	if (strlen(arg) >= HTTP_MAX_CRED) {
		snprintf(err, errlen, "--restconf-password: at most 255 "
		    "characters");
		return -1;
	}
	((struct ctl_run *)base)->http.password = arg;
	return 0;
}

#define R	struct ctl_run
static const struct opt ctl_rows[] = {
	OPT_FN("restconf", "[IP:]PORT", ctl_restconf_addr, CTL_GIVEN_RESTCONF,
	    "serve RESTCONF (OpenDaylight's inventory) on PORT,\n"
	    "127.0.0.1 unless IP ([IPv6] in brackets;\n"
	    "0.0.0.0 or [::]: every address)"),
	OPT_FN("restconf-user", "U", ctl_restconf_user, CTL_GIVEN_RC_OPT,
	    "basic auth user", .off = offsetof(struct ctl_run, http.user),
	    .show = opt_show_string),
	OPT_FN("restconf-password", "P", ctl_restconf_password,
	    CTL_GIVEN_RC_OPT, "basic auth password",
	    .off = offsetof(struct ctl_run, http.password),
	    .show = opt_show_string),
	OPT_U("restconf-max-body", "B", R, http.max_body, 1,
	    1024u * 1024 * 1024, CTL_GIVEN_RC_OPT,
	    "largest request body in bytes"),
	OPT_U("restconf-max-connections", "N", R, http.max_conns, 1,
	    1000000, CTL_GIVEN_RC_OPT,
	    "HTTP connections held at once; past them the\n"
	    "oldest that sent no byte is closed, or, when\n"
	    "all are in a request, accepting pauses"),
	OPT_D("restconf-header-timeout", "S", R, http.head_timeout, 0.1,
	    3600, CTL_GIVEN_RC_OPT,
	    "close a connection whose first request head is\n"
	    "not whole S seconds after the accept (a later\n"
	    "one's: after its first byte)"),
	OPT_U("restconf-max-depth", "N", R, http.max_depth, 1, 1024,
	    CTL_GIVEN_RC_OPT,
	    "deepest nesting of a request body's JSON or\n"
	    "XML; a deeper one gets 400"),
	OPT_U("restconf-max-attributes", "N", R, http.max_attrs, 1, 1000000,
	    CTL_GIVEN_RC_OPT,
	    "most attributes of one element in an XML request\n"
	    "body; more get 400"),
	OPT_END
};

static const struct opt ctl_run_rows[] = {
	OPT_D("duration", "S", R, duration, 0.001, 1e7, 0,
	    "stop after S seconds"),
	OPT_U("workers", "N", R, workers, 1, CTL_WK_MAX, 0,
	    "run the roles in N processes sharing each port\n"
	    "(SO_REUSEPORT); --restconf answers for them all"),
	OPT_D("log-interval", "S", R, devlog.interval, 0, 86400, 0,
	    "log the devices up per role every S seconds\n"
	    "when any came or left (0: never; -v: a line\n"
	    "per change)"),
	OPT_C_KEY("verbose", 'v', R, verbose, "more logging"),
	OPT_HELP_ROW,
	OPT_END
};
#undef R

/* The option groups: RESTCONF, each role's, then the run's own. */
static size_t
ctl_groups(struct ctl_run *r, struct opt_group *g)
{
	const struct ctl_role	*role;
	size_t			 n = 0, i;

	g[n++] = (struct opt_group){ NULL, ctl_rows, r, &r->given };
	for (i = 0; (role = ctl_roles[i]) != NULL; i++) {
		if (i == CTL_MAX_ROLES)
			fatalx("more than %d controller roles", CTL_MAX_ROLES);
		role->defaults(role->cfg);
		g[n++] = (struct opt_group){ role->title, role->rows,
		    role->cfg, &r->role_given[i] };
	}
	r->n_roles = i;
	g[n++] = (struct opt_group){ NULL, ctl_run_rows, r, NULL };
	return n;
}

/* Which roles run, and the options of each checked together. */
static void
ctl_check(struct ctl_run *r)
{
	const struct ctl_role	*role;
	struct ctl_env		 env;
	char			 err[256];
	size_t			 i;

	memset(&env, 0, sizeof(env));
	env.restconf = (r->given & CTL_GIVEN_RESTCONF) != 0;
	env.none_asked = !env.restconf;
	env.workers = r->workers;
	for (i = 0; i < r->n_roles; i++)
		if (r->role_given[i] & CTL_GIVEN_ON)
			env.none_asked = 0;
	for (i = 0; i < r->n_roles; i++) {
		role = ctl_roles[i];
		err[0] = '\0';
		if ((r->on[i] = ctl_role_on(role, r->role_given[i], &env, err,
		    sizeof(err))) == -1)
			ctl_die(err);
		if (r->on[i] && ctl_role_check(role, r->role_given[i], &env,
		    err, sizeof(err)) == -1)
			ctl_die(err);
	}
	if (!env.restconf && (r->given & CTL_GIVEN_RC_OPT))
		ctl_die("the --restconf-* options need --restconf");
}

static void
ctl_parse(int argc, char **argv, struct ctl_run *r)
{
	struct opt_group	g[CTL_MAX_ROLES + 2];
	size_t			n;

	http_server_config_defaults(&r->http);
	n = ctl_groups(r, g);
	opt_parse(CTL_PROG, ctl_usage, g, n, argc, argv);
	ctl_check(r);
}

/* The running roles started so far, in reverse. */
static void
ctl_stop_roles(struct ctl_run *r)
{
	while (r->started > 0) {
		r->started--;
		if (r->on[r->started])
			ctl_roles[r->started]->stop(ctl_roles[r->started]->cfg);
	}
}

/* A worker's server is its parent's business: the parent writes the
 * line for the one clients see. */
static void
ctl_http_free(struct ctl_run *r, int summary)
{
	if (r->hs == NULL)
		return;
	if (summary && !ctl_worker)
		ctl_http_summary(r->hs);
	http_server_free(r->hs);
	r->hs = NULL;
}

/* The RESTCONF server when asked for, then the roles in table order;
 * -1 with err, everything started so far stopped again. */
static int
ctl_start(struct ctl_run *r, char *err, size_t errlen)
{
	const struct ctl_role	*role;

	if (r->given & CTL_GIVEN_RESTCONF) {
		r->hs = http_server_new(engine_base(), &r->http, err, errlen);
		if (r->hs == NULL)
			return -1;
		restconf_start(r->hs);
	}
	for (r->started = 0; r->started < r->n_roles; r->started++) {
		role = ctl_roles[r->started];
		if (r->on[r->started] && role->start(role->cfg, r->hs, err,
		    errlen) == -1) {
			/* A role that failed half-way stops too. */
			r->started++;
			ctl_stop_roles(r);
			ctl_http_free(r, 0);
			return -1;
		}
	}
	if (r->hs != NULL)
		log_info("serving RESTCONF on %s port %u",
		    http_server_address(&r->http), r->http.port);
	return 0;
}

static void
ctl_tick(evutil_socket_t fd, short what, void *arg)
{
	struct ctl_run	*r = arg;
	uint64_t	 now = clock_ns();
	size_t		 i;

	(void)fd;
	(void)what;
	if (r->duration > 0 && secs_between(r->start_ns, now) >= r->duration)
		engine_stop("--duration reached");
	for (i = 0; i < r->started; i++)
		if (r->on[i] && ctl_roles[i]->tick != NULL)
			ctl_roles[i]->tick(ctl_roles[i]->cfg, now);
	ctl_devlog_tick(&r->devlog, ctl_roles, r->on, r->started, now);
	if (ctl_worker)
		ctl_wk_child_tick(ctl_roles, r->on, r->started);
}

/* The summaries in table order, then the stops in reverse (they answer
 * what waits on the HTTP server), then the server itself. */
static void
ctl_stop(struct ctl_run *r)
{
	size_t	i;

	for (i = 0; i < r->started; i++)
		if (r->on[i] && ctl_roles[i]->summary != NULL)
			ctl_roles[i]->summary(ctl_roles[i]->cfg);
	/* The lines are out before anything the stops may log. */
	fflush(stdout);
	ctl_stop_roles(r);
	ctl_http_free(r, 1);
}

/* The parent of --workers: no role of its own; its RESTCONF asks the
 * workers (ctl_workers.h). */
static int
ctl_parent(struct ctl_run *r)
{
	struct ctl_wk_run	run;

	memset(&run, 0, sizeof(run));
	run.n = r->workers;
	run.duration = r->duration;
	run.http = (r->given & CTL_GIVEN_RESTCONF) ? &r->http : NULL;
	run.roles = ctl_roles;
	run.on = r->on;
	run.n_roles = r->n_roles;
	return ctl_wk_parent(&run);
}

/* Worker i of --workers: its listeners share their ports, its RESTCONF
 * is the parent's alone (127.0.0.1, an ephemeral port, the parent's
 * token), and the parent keeps the run's clock. */
static void
ctl_become_worker(struct ctl_run *r, int i, const char *token)
{
	static char	name[48], pass[CTL_WK_TOKEN_LEN + 1];

	snprintf(name, sizeof(name), CTL_PROG " [worker %d]", i);
	log_init(name, r->verbose);
	snprintf(pass, sizeof(pass), "%s", token);
	engine_listen_reuseport(1);
	/* The workers open the same ports: the first says which are open
	 * to the network. */
	engine_listen_announce(i == 0);
	r->duration = 0;
	r->http.address = "127.0.0.1";
	r->http.port = 0;
	r->http.user = CTL_WK_USER;
	r->http.password = pass;
}

static int
controller_main(int argc, char **argv)
{
	struct ctl_run	 r;
	struct event	*tick;
	struct timeval	 tv = { 0, 100000 };
	char		 err[256], token[CTL_WK_TOKEN_LEN + 1];
	int		 wi;

	memset(&r, 0, sizeof(r));
	r.devlog.interval = 10;
	ctl_roles = ctl_role_table();
	ctl_parse(argc, argv, &r);
	log_init(CTL_PROG, r.verbose);
	engine_raise_fd_limit();
	if (r.workers > 0) {
		if ((wi = ctl_wk_fork(r.workers, token, sizeof(token))) == -1)
			return ctl_parent(&r);
		ctl_become_worker(&r, wi, token);
	}
	engine_init();
	if (ctl_start(&r, err, sizeof(err)) == -1) {
		/* A worker's log name says which. */
		if (ctl_worker)
			log_warnx("%s", err);
		else
			fprintf(stderr, CTL_PROG ": %s\n", err);
		engine_free();
		return 1;
	}
	if (ctl_worker)
		ctl_wk_child_start(r.hs != NULL ? http_server_port(r.hs) : 0,
		    ctl_roles);
	r.start_ns = clock_ns();
	tick = engine_timer_new(EV_PERSIST, ctl_tick, &r);
	engine_timer_add(tick, &tv);
	engine_run();
	event_free(tick);
	ctl_stop(&r);
	if (ctl_worker)
		ctl_wk_child_end();
	engine_free();
	return 0;
}

const struct sbsim_cmd controller_cmd = {
	"controller",
	"the embedded reference controller",
	controller_main,
};
