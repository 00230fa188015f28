/*
 * `sbsim demo`: the embedded reference controller in a child process and
 * a small scenario against it, in one command: switches connect, flows
 * go in through the controller's RESTCONF northbound, are confirmed in
 * its operational inventory and deleted; the results table follows.
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

#include "cli.h"
#include "cmd.h"
#include "log.h"

#define DEMO_SWITCHES	"50"
#define DEMO_FLOWS	"5000"
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

/* The controller: this very program, `sbsim controller`, as a child. */
static pid_t
demo_controller(int of_port, int rc_port)
{
	char	of[64], rc[64], self[4096];
	ssize_t	n;
	pid_t	pid;

	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) == -1)
		return -1;
	self[n] = '\0';
	snprintf(of, sizeof(of), "ptcp:%d:127.0.0.1", of_port);
	snprintf(rc, sizeof(rc), "127.0.0.1:%d", rc_port);
	if ((pid = fork()) != 0)
		return pid;
	/* The child's summary would interleave with the table: quiet. */
	if (freopen("/dev/null", "w", stdout) == NULL)
		_exit(1);
	execl(self, "sbsim", "controller", "--openflow", of, "--restconf", rc,
	    "--stats-interval", "0.2", (char *)NULL);
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

static int
demo_main(int argc, char **argv)
{
	char	ctl[64], nb[64];
	char	*args[32];
	int	of_port, rc_port, i, n = 0, rc;
	pid_t	pid;

	if (argc > 1 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0)) {
		printf("usage: sbsim demo [openflow options]\n"
		    "Starts the embedded controller (OpenFlow and RESTCONF on "
		    "free loopback ports),\nconnects %s switches, pushes %s "
		    "flows through RESTCONF, confirms and deletes them,\nand "
		    "prints the results. Extra options (--report FILE, "
		    "--expect ...) go to\n`sbsim openflow`.\n",
		    DEMO_SWITCHES, DEMO_FLOWS);
		return 0;
	}
	if ((of_port = demo_free_port()) == -1 ||
	    (rc_port = demo_free_port()) == -1 || of_port == rc_port) {
		fprintf(stderr, "sbsim demo: no free loopback port\n");
		return 1;
	}
	if ((pid = demo_controller(of_port, rc_port)) == -1 ||
	    demo_wait_listen(pid, rc_port) == -1) {
		fprintf(stderr, "sbsim demo: the embedded controller did not "
		    "start\n");
		if (pid > 0)
			demo_stop(pid);
		return 1;
	}
	snprintf(ctl, sizeof(ctl), "tcp:127.0.0.1:%d", of_port);
	snprintf(nb, sizeof(nb), "odl:http://127.0.0.1:%d", rc_port);
	printf("sbsim demo: embedded controller (pid %d) on OpenFlow %d and "
	    "RESTCONF %d;\n%s switches, %s flows through RESTCONF in "
	    "batches of 100\n\n", (int)pid, of_port, rc_port, DEMO_SWITCHES,
	    DEMO_FLOWS);
	fflush(stdout);
	args[n++] = "openflow";
	args[n++] = "--switches";
	args[n++] = DEMO_SWITCHES;
	args[n++] = "--controller";
	args[n++] = ctl;
	args[n++] = "--northbound";
	args[n++] = nb;
	args[n++] = "--flows";
	args[n++] = DEMO_FLOWS;
	args[n++] = "--flows-per-request";
	args[n++] = "100";
	args[n++] = "--northbound-parallel";
	args[n++] = "4";
	args[n++] = "--timeout";
	args[n++] = "20";
	for (i = 1; i < argc && n < 31; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	rc = openflow_cmd.main(n, args);
	demo_stop(pid);
	return rc;
}

const struct sbsim_cmd demo_cmd = {
	"demo",
	"the embedded controller and a small scenario, with results",
	demo_main,
};
