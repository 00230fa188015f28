/*
 * `sbsim demo`: the embedded reference controller with every role in a
 * child process, and the mixed scenario against it in this one (sbsim
 * run): a group of each protocol's devices that has a part in the demo
 * (its descriptor's, protocol.h), what the part says it does.  The
 * results table follows.
 */
#include <sys/socket.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "cmd.h"
#include "log.h"
#include "protocol.h"

#define DEMO_WAIT_MS	5000
#define DEMO_MAX_PARTS	16
#define DEMO_MAX_ARGS	128	/* the controller's command line's words */
#define DEMO_WORD	256	/* the longest word a template makes */

/* A loopback port nobody listens on now (the kernel's choice). */
static int
demo_free_port(void)
{
	struct sockaddr_in	sin;
	socklen_t		len = sizeof(sin);
	int			fd, port = -1;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return -1;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&sin, &len) == 0)
		port = ntohs(sin.sin_port);
	close(fd);
	return port;
}

static int
demo_can_connect(int port)
{
	struct sockaddr_in	sin;
	int			fd, ok;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return 0;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ok = connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0;
	close(fd);
	return ok;
}

/* Where the demo's controller and devices are. */
struct demo_net {
	const struct protocol_demo	*part[DEMO_MAX_PARTS];
	const char			*name[DEMO_MAX_PARTS];	/* protocol */
	int				 port[DEMO_MAX_PARTS];	/* {port} */
	size_t				 n;
	int				 rc;	/* RESTCONF's port */
	int				 octet;	/* i's {net}: 127.OCTET.i */
};

/*
 * Template word w of a part with {port}, {rc} and {net} filled in, into
 * out; -1 when it does not fit.
 */
static int
demo_word(const struct demo_net *dn, size_t i, const char *w, size_t wlen,
    char *out, size_t len)
{
	size_t	at = 0, k;
	int	n;

	for (k = 0; k < wlen; k++) {
		if (strncmp(w + k, "{port}", 6) == 0 && k + 6 <= wlen) {
			n = snprintf(out + at, len - at, "%d", dn->port[i]);
			k += 5;
		} else if (strncmp(w + k, "{rc}", 4) == 0 && k + 4 <= wlen) {
			n = snprintf(out + at, len - at, "%d", dn->rc);
			k += 3;
		} else if (strncmp(w + k, "{net}", 5) == 0 && k + 5 <= wlen) {
			n = snprintf(out + at, len - at, "127.%d.%zu",
			    dn->octet, i);
			k += 4;
		} else
			n = snprintf(out + at, len - at, "%c", w[k]);
		if (n < 0 || (size_t)n >= len - at)
			return -1;
		at += (size_t)n;
	}
	return 0;
}

/* Each word of part i's template t, filled in, handed to fn; -1 when one
 * does not fit (a bug in the part: said). */
static int
demo_words(const struct demo_net *dn, size_t i, const char *t,
    void (*fn)(const char *, void *), void *arg)
{
	char	word[DEMO_WORD];
	size_t	len;

	for (; t != NULL && *t != '\0'; t += len + strspn(t + len, " ")) {
		if ((len = strcspn(t, " ")) == 0)
			continue;
		if (demo_word(dn, i, t, len, word, sizeof(word)) == -1) {
			fprintf(stderr, "sbsim demo: %s: a word past %d "
			    "bytes\n", dn->part[i]->group, DEMO_WORD);
			return -1;
		}
		fn(word, arg);
	}
	return 0;
}

/* The controller's command line being built. */
struct demo_argv {
	char	*w[DEMO_MAX_ARGS];
	int	 n;
};

static void
demo_arg(const char *word, void *arg)
{
	struct demo_argv	*a = arg;

	if (a->n == DEMO_MAX_ARGS - 1)
		fatalx("sbsim demo: the controller's command line is past "
		    "%d words", DEMO_MAX_ARGS - 1);
	a->w[a->n++] = xstrdup(word);
	a->w[a->n] = NULL;
}

static void
demo_argv_free(struct demo_argv *a)
{
	while (a->n > 0)
		free(a->w[--a->n]);
}

/* The controller: this very program, `sbsim controller` with every
 * part's roles, as a child. */
static pid_t
demo_controller(const struct demo_net *dn)
{
	struct demo_argv	a = { { NULL }, 0 };
	char			rc[64], self[4096];
	ssize_t			n;
	size_t			i;
	pid_t			pid;

	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) == -1)
		return -1;
	self[n] = '\0';
	snprintf(rc, sizeof(rc), "127.0.0.1:%d", dn->rc);
	demo_arg("sbsim", &a);
	demo_arg("controller", &a);
	demo_arg("--restconf", &a);
	demo_arg(rc, &a);
	demo_arg("--stats-interval", &a);
	demo_arg("0.2", &a);
	for (i = 0; i < dn->n; i++)
		if (demo_words(dn, i, dn->part[i]->controller, demo_arg,
		    &a) == -1)
			break;
	if (i < dn->n) {
		demo_argv_free(&a);
		return -1;
	}
	/* The parent's copy of the words goes (the child execs them). */
	if ((pid = fork()) != 0) {
		demo_argv_free(&a);
		return pid;
	}
	/* The child's summary would interleave with the table: quiet. */
	if (freopen("/dev/null", "w", stdout) == NULL)
		_exit(1);
	execv(self, a.w);
	_exit(127);
}

static int
demo_wait_listen(pid_t pid, int port)
{
	struct timespec	ts = { 0, 50 * 1000000 };
	int		waited, status;

	for (waited = 0; waited < DEMO_WAIT_MS; waited += 50) {
		if (demo_can_connect(port))
			return 0;
		if (waitpid(pid, &status, WNOHANG) == pid)
			return -1;
		nanosleep(&ts, NULL);
	}
	return -1;
}

static void
demo_stop(pid_t pid)
{
	int	status;

	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
}

/* A group's options being built: "--name" starts an entry, a word after
 * it is its value. */
static void
demo_opt(const char *word, void *arg)
{
	json_t	*opts = arg, *last;

	if (strncmp(word, "--", 2) == 0) {
		json_array_append_new(opts, json_pack("{s:s}", "name",
		    word + 2));
		return;
	}
	last = json_array_get(opts, json_array_size(opts) - 1);
	if (last == NULL)
		fatalx("sbsim demo: the value %s has no option", word);
	if (json_object_get(last, "value") == NULL)
		json_object_set_new(last, "value", json_array());
	json_array_append_new(json_object_get(last, "value"),
	    json_string(word));
}

static void
demo_connect(const char *word, void *arg)
{
	json_object_set_new(arg, "controller", json_string(word));
}

/* Part i's group; NULL when a template is bad (said). */
static json_t *
demo_group(const struct demo_net *dn, size_t i)
{
	const struct protocol_demo	*d = dn->part[i];
	json_t				*opts = json_array(), *g;

	g = json_pack("{s:s,s:s,s:I}", "name", d->group, "protocol",
	    dn->name[i], "count", (json_int_t)d->count);
	if (demo_words(dn, i, d->connect, demo_connect, g) == -1 ||
	    demo_words(dn, i, d->options, demo_opt, opts) == -1) {
		json_decref(opts);
		json_decref(g);
		return NULL;
	}
	json_object_set_new(g, "option", opts);
	return g;
}

/*
 * The mixed scenario: every part's group programmed, learned, confirmed
 * and deleted together against the one controller; NULL when a part is
 * bad (said).
 */
static json_t *
demo_scenario(const struct demo_net *dn)
{
	json_t	*groups = json_array(), *g;
	size_t	 i;

	for (i = 0; i < dn->n; i++) {
		if ((g = demo_group(dn, i)) == NULL) {
			json_decref(groups);
			return NULL;
		}
		json_array_append_new(groups, g);
	}
	return json_pack("{s:{s:s,s:[{s:s,s:[s]}],s:o}}",
	    "sbsim-scenario:scenario", "description", "sbsim demo: every "
	    "protocol against the embedded controller", "option", "name",
	    "timeout", "value", "20", "group", groups);
}

/* The parts of the protocol list's descriptors. */
static void
demo_parts(struct demo_net *dn)
{
	size_t	i;

	dn->n = 0;
	for (i = 0; sbsim_protocols[i] != NULL; i++)
		if (sbsim_protocols[i]->demo != NULL) {
			if (dn->n == DEMO_MAX_PARTS)
				fatalx("more than %d parts in the demo",
				    DEMO_MAX_PARTS);
			dn->name[dn->n] = sbsim_protocols[i]->cmd->name;
			dn->part[dn->n++] = sbsim_protocols[i]->demo;
		}
}

/* A distinct free loopback port for RESTCONF and each part; -1 when the
 * kernel has none. */
static int
demo_ports(struct demo_net *dn)
{
	int	*p[DEMO_MAX_PARTS + 1];
	size_t	 i, j, n = 0, tries;

	demo_parts(dn);
	p[n++] = &dn->rc;
	for (i = 0; i < dn->n; i++)
		p[n++] = &dn->port[i];
	for (i = 0; i < n; i++)
		for (tries = 0;; tries++) {
			if (tries == 20 || (*p[i] = demo_free_port()) == -1)
				return -1;
			for (j = 0; j < i && *p[j] != *p[i]; j++)
				;
			if (j == i)
				break;
		}
	/* Addresses of their own, so that demos side by side differ. */
	dn->octet = 100 + (int)(getpid() % 100);
	return 0;
}

/* The scenario in a file of its own for `sbsim run`. */
static int
demo_write(json_t *sc, char *path, size_t len)
{
	const char	*dir = getenv("TMPDIR");
	int		 fd, rc;

	snprintf(path, len, "%s/sbsim-demo.XXXXXX.json",
	    dir != NULL && *dir != '\0' ? dir : "/tmp");
	if ((fd = mkstemps(path, 5)) == -1)
		return -1;
	rc = json_dumpfd(sc, fd, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	close(fd);
	return rc;
}

/* What each part's group does, a line each. */
static void
demo_says(FILE *f, const struct demo_net *dn)
{
	size_t	i;

	for (i = 0; i < dn->n; i++)
		fprintf(f, "  %s: %u %s\n", dn->part[i]->group,
		    dn->part[i]->count, dn->part[i]->says);
}

static void
demo_usage(void)
{
	struct demo_net	dn;

	demo_parts(&dn);
	printf("usage: sbsim demo [sbsim run options]\n"
	    "Starts the embedded controller with every role and RESTCONF on "
	    "free loopback\nports and runs one scenario against it in this "
	    "process, a group for each\nprotocol:\n");
	demo_says(stdout, &dn);
	printf("then the results.  Extra options (--report FILE, --expect "
	    "...) go to\n`sbsim run`.\n");
}

/* The controller listens (RESTCONF, and each part's port it says), or
 * is gone: -1. */
static int
demo_wait_controller(const struct demo_net *dn, pid_t pid)
{
	size_t	i;

	if (demo_wait_listen(pid, dn->rc) == -1)
		return -1;
	for (i = 0; i < dn->n; i++)
		if (dn->part[i]->listens &&
		    demo_wait_listen(pid, dn->port[i]) == -1)
			return -1;
	return 0;
}

/* Start the controller and write the scenario; 0, or -1 said. */
static int
demo_setup(struct demo_net *dn, pid_t *pid, char *path, size_t len)
{
	json_t	*sc;
	int	 rc;

	if (demo_ports(dn) == -1) {
		fprintf(stderr, "sbsim demo: no free loopback port\n");
		return -1;
	}
	if ((*pid = demo_controller(dn)) == -1 ||
	    demo_wait_controller(dn, *pid) == -1) {
		fprintf(stderr, "sbsim demo: the embedded controller did not "
		    "start\n");
		if (*pid > 0)
			demo_stop(*pid);
		return -1;
	}
	if ((sc = demo_scenario(dn)) == NULL) {
		demo_stop(*pid);
		return -1;
	}
	rc = demo_write(sc, path, len);
	json_decref(sc);
	if (rc == -1) {
		fprintf(stderr, "sbsim demo: cannot write the scenario: %s\n",
		    strerror(errno));
		demo_stop(*pid);
	}
	return rc;
}

static int
demo_main(int argc, char **argv)
{
	struct demo_net	 dn;
	char		 path[512];
	char		*args[40];
	int		 i, n = 0, rc;
	pid_t		 pid = -1;

	if (argc > 1 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0)) {
		demo_usage();
		return 0;
	}
	if (demo_setup(&dn, &pid, path, sizeof(path)) == -1)
		return 1;
	printf("sbsim demo: embedded controller (pid %d) with every role, "
	    "RESTCONF on %d;\n", (int)pid, dn.rc);
	demo_says(stdout, &dn);
	printf("\n");
	fflush(stdout);
	args[n++] = "run";
	args[n++] = path;
	for (i = 1; i < argc && n < (int)nitems(args) - 1; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	rc = run_cmd.main(n, args);
	unlink(path);
	demo_stop(pid);
	return rc;
}

const struct sbsim_cmd demo_cmd = {
	"demo",
	"the embedded controller and a scenario of every protocol, with "
	"results",
	demo_main,
};
