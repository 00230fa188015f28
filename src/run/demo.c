/*
 * `sbsim demo`: the embedded reference controller with every role in a
 * child process, and the mixed scenario against it in this one (sbsim
 * run): OpenFlow switches get flows through the controller's RESTCONF
 * northbound, confirmed in its inventory and deleted; BGP peers announce
 * and withdraw prefixes a monitor peer learns; PCCs delegate LSPs the PCE
 * updates; NETCONF devices are mounted, edited and unmounted.  The results
 * table follows.
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

#define DEMO_SWITCHES	"50"
#define DEMO_FLOWS	"5000"
#define DEMO_PEERS	20
#define DEMO_PREFIXES	"500"
#define DEMO_PCCS	30
#define DEMO_LSPS	"10"
#define DEMO_NC_DEVICES	20
#define DEMO_WAIT_MS	5000

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
	int	of, bgp, pcep, rc, nc;	/* loopback ports */
	int	octet;			/* 127.OCTET.0.x: BGP, 127.OCTET.1.x:
					   NETCONF devices */
	char	mon[32];		/* the BGP monitor's address */
};

/* The controller: this very program, `sbsim controller` with every
 * role, as a child. */
static pid_t
demo_controller(const struct demo_net *dn)
{
	char	of[64], bgp[64], pcep[64], rc[64], self[4096];
	ssize_t	n;
	pid_t	pid;

	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) == -1)
		return -1;
	self[n] = '\0';
	snprintf(of, sizeof(of), "ptcp:%d:127.0.0.1", dn->of);
	snprintf(bgp, sizeof(bgp), "ptcp:%d:127.0.0.1", dn->bgp);
	snprintf(pcep, sizeof(pcep), "ptcp:%d:127.0.0.1", dn->pcep);
	snprintf(rc, sizeof(rc), "127.0.0.1:%d", dn->rc);
	if ((pid = fork()) != 0)
		return pid;
	/* The child's summary would interleave with the table: quiet. */
	if (freopen("/dev/null", "w", stdout) == NULL)
		_exit(1);
	execl(self, "sbsim", "controller", "--openflow", of, "--restconf", rc,
	    "--stats-interval", "0.2", "--bgp", bgp, "--as", "65000",
	    "--bgp-monitor", dn->mon, "--pcep", pcep, "--pcep-update-all", "8",
	    "--netconf", (char *)NULL);
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

/* One option entry of a scenario group: "--name value", or a flag. */
static void
demo_opt(json_t *opts, const char *name, const char *value)
{
	json_t	*o = json_pack("{s:s}", "name", name);

	if (value != NULL)
		json_object_set_new(o, "value", json_pack("[s]", value));
	json_array_append_new(opts, o);
}

static json_t *
demo_group(const char *name, const char *protocol, int count,
    const char *controller, json_t *opts)
{
	json_t	*g = json_pack("{s:s,s:s,s:i,s:o}", "name", name, "protocol",
	    protocol, "count", count, "option", opts);

	if (controller != NULL)
		json_object_set_new(g, "controller", json_string(controller));
	return g;
}

/*
 * The mixed scenario: every protocol programmed, learned, confirmed and
 * deleted together against the one controller.
 */
static json_t *
demo_scenario(const struct demo_net *dn)
{
	char	ep[96], nb[64], src[32], listen[64];
	json_t	*groups = json_array(), *o;

	snprintf(nb, sizeof(nb), "odl:http://127.0.0.1:%d", dn->rc);
	o = json_array();
	demo_opt(o, "northbound", nb);
	demo_opt(o, "flows", DEMO_FLOWS);
	demo_opt(o, "flows-per-request", "100");
	demo_opt(o, "northbound-parallel", "4");
	snprintf(ep, sizeof(ep), "tcp:127.0.0.1:%d", dn->of);
	json_array_append_new(groups, demo_group("of", "openflow",
	    atoi(DEMO_SWITCHES), ep, o));
	o = json_array();
	snprintf(src, sizeof(src), "127.%d.0.1/24", dn->octet);
	snprintf(ep, sizeof(ep), "tcp:127.0.0.1:%d", dn->bgp);
	demo_opt(o, "prefixes", DEMO_PREFIXES);
	demo_opt(o, "as", "65001");
	demo_opt(o, "peer-as", "65000");
	demo_opt(o, "source", src);
	demo_opt(o, "monitor", ep);
	demo_opt(o, "withdraw", NULL);
	json_array_append_new(groups, demo_group("bgp", "bgp", DEMO_PEERS, ep,
	    o));
	o = json_array();
	snprintf(ep, sizeof(ep), "tcp:127.0.0.1:%d", dn->pcep);
	demo_opt(o, "lsps", DEMO_LSPS);
	demo_opt(o, "delegate", NULL);
	json_array_append_new(groups, demo_group("pcep", "pcep", DEMO_PCCS, ep,
	    o));
	o = json_array();
	snprintf(listen, sizeof(listen), "ptcp:%d", dn->nc);
	snprintf(src, sizeof(src), "127.%d.1.1/24", dn->octet);
	demo_opt(o, "listen", listen);
	demo_opt(o, "source", src);
	demo_opt(o, "transport", "tcp");
	demo_opt(o, "northbound", nb);
	demo_opt(o, "edits", "2");
	json_array_append_new(groups, demo_group("nc", "netconf",
	    DEMO_NC_DEVICES, NULL, o));
	return json_pack("{s:{s:s,s:[{s:s,s:[s]}],s:o}}",
	    "sbsim-scenario:scenario", "description", "sbsim demo: every "
	    "protocol against the embedded controller", "option", "name",
	    "timeout", "value", "20", "group", groups);
}

/* Five distinct free loopback ports; -1 when the kernel has none. */
static int
demo_ports(struct demo_net *dn)
{
	int	*p[] = { &dn->of, &dn->bgp, &dn->pcep, &dn->rc, &dn->nc };
	size_t	 i, j, tries;

	for (i = 0; i < nitems(p); i++)
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
	snprintf(dn->mon, sizeof(dn->mon), "127.%d.0.%d", dn->octet,
	    DEMO_PEERS + 1);
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

static void
demo_usage(void)
{
	printf("usage: sbsim demo [sbsim run options]\n"
	    "Starts the embedded controller with every role (OpenFlow, BGP, "
	    "PCEP, NETCONF,\nRESTCONF) on free loopback ports and runs one "
	    "scenario against it in this\nprocess: %s switches get %s flows "
	    "through RESTCONF, %d BGP peers announce\nand withdraw %s "
	    "prefixes each, %d PCCs delegate %s LSPs each that the PCE\n"
	    "updates, %d NETCONF devices are mounted and edited; then the "
	    "results.\nExtra options (--report FILE, --expect ...) go to "
	    "`sbsim run`.\n", DEMO_SWITCHES, DEMO_FLOWS, DEMO_PEERS,
	    DEMO_PREFIXES, DEMO_PCCS, DEMO_LSPS, DEMO_NC_DEVICES);
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
	    demo_wait_listen(*pid, dn->rc) == -1 ||
	    demo_wait_listen(*pid, dn->bgp) == -1) {
		fprintf(stderr, "sbsim demo: the embedded controller did not "
		    "start\n");
		if (*pid > 0)
			demo_stop(*pid);
		return -1;
	}
	sc = demo_scenario(dn);
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
	    "RESTCONF on %d;\n%s switches and %s flows, %d BGP peers, %d "
	    "PCCs, %d NETCONF devices\n\n", (int)pid, dn.rc, DEMO_SWITCHES,
	    DEMO_FLOWS, DEMO_PEERS, DEMO_PCCS, DEMO_NC_DEVICES);
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
