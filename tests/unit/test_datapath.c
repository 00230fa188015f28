/*
 * The datapath seam (src/core/datapath.h): datapath IDs as OVS takes them,
 * the controller targets it refuses and why, a program without a
 * provider, and a provider's datapaths opened, resized and closed
 * through it (a fake provider that records what it was asked).
 */
#include <sys/socket.h>
#include <netinet/in.h>

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "datapath.h"

static void
test_dpid(void)
{
	uint64_t	dpid = 7;

	CHECK(datapath_id_parse("00000000000000aa", &dpid) == 0 &&
	    dpid == 0xaa, "16 hex digits");
	CHECK(datapath_id_parse("FEDCBA9876543210", &dpid) == 0 &&
	    dpid == 0xfedcba9876543210ull, "upper case, all 64 bits");
	dpid = 7;
	CHECK(datapath_id_parse("0000000000000000", &dpid) == -1 && dpid == 7,
	    "all zero refused, *dpid untouched");
	CHECK(datapath_id_parse("aa", &dpid) == -1, "too short");
	CHECK(datapath_id_parse("000000000000000aa", &dpid) == -1,
	    "17 digits");
	CHECK(datapath_id_parse("0x000000000000aa", &dpid) == -1,
	    "0x is not a hex digit (OVS's dpid_from_string)");
	CHECK(datapath_id_parse("00000000000000ag", &dpid) == -1,
	    "not hex");
	CHECK(datapath_id_parse(NULL, &dpid) == -1, "NULL (not a string)");
}

/* The fake provider. */
static int	fake_opened, fake_closed, fake_started, fake_ticks;
static uint32_t	fake_ports;
static uint64_t	fake_dpid;
static char	fake_fail;
static struct datapath_spec fake_spec;

struct datapath {
	int	id;
};
static struct datapath	fake_dp;

static void
fake_start(struct metrics *m)
{
	(void)m;
	fake_started++;
}

static struct datapath *
fake_open(const struct datapath_spec *spec, const struct datapath_hooks *h,
    char *err, size_t errlen)
{
	(void)h;
	if (fake_fail) {
		snprintf(err, errlen, "out of switches");
		return NULL;
	}
	fake_opened++;
	fake_dpid = spec->dpid;
	fake_spec = *spec;
	return &fake_dp;
}

static void
fake_resize(struct datapath *dp, uint32_t n)
{
	(void)dp;
	fake_ports = n;
}

static void
fake_close(struct datapath *dp)
{
	(void)dp;
	fake_closed++;
}

static void
fake_tick(uint64_t now)
{
	(void)now;
	fake_ticks++;
}

static const struct datapath_provider fake = {
	"fake", fake_start, fake_open, fake_resize, fake_close, fake_tick,
	NULL,
};

static enum datapath_rc
open_from(const char *target, const char *src, uint64_t i,
    struct datapath **dp, char *err, size_t errlen)
{
	struct datapath_spec	spec;
	struct datapath_hooks	hooks = { NULL, NULL, NULL, NULL };

	memset(&spec, 0, sizeof(spec));
	spec.dpid = 0xaa;
	spec.ports = 3;
	spec.name = "br1";
	spec.src.family = AF_UNSPEC;
	if (src != NULL && source_parse(src, &spec.src, err, errlen) == -1)
		return DATAPATH_BAD_TARGET;
	spec.src_index = i;
	return datapath_open(&target, 1, &spec, &hooks, dp, err, errlen);
}

static enum datapath_rc
open_target(const char *target, struct datapath **dp, char *err,
    size_t errlen)
{
	return open_from(target, NULL, 0, dp, err, errlen);
}

static void
test_refused(void)
{
	struct datapath	*dp = &fake_dp;
	char		 err[256];

	datapath_register(&fake);
	CHECK(open_target("ssl:127.0.0.1:6653", &dp, err, sizeof(err)) ==
	    DATAPATH_SSL && dp == NULL && strstr(err, "ssl:") != NULL,
	    "ssl: refused, said why: %s", err);
	CHECK(open_target("ptcp:6653", &dp, err, sizeof(err)) ==
	    DATAPATH_PASSIVE, "ptcp: refused: %s", err);
	CHECK(open_target("punix:/run/br1.mgmt", &dp, err, sizeof(err)) ==
	    DATAPATH_PASSIVE, "punix: refused");
	CHECK(open_target("unix:/run/ctl", &dp, err, sizeof(err)) ==
	    DATAPATH_PASSIVE, "unix: refused");
	CHECK(open_target("tcp:no-such-host", &dp, err, sizeof(err)) ==
	    DATAPATH_BAD_TARGET && strstr(err, "tcp:no-such-host") != NULL,
	    "a bad target: %s", err);
	CHECK(open_target("", &dp, err, sizeof(err)) == DATAPATH_BAD_TARGET,
	    "an empty target");
	CHECK(fake_opened == 0 && datapath_count() == 0,
	    "the provider was never asked");
	fake_fail = 1;
	CHECK(open_target("tcp:127.0.0.1:6653", &dp, err, sizeof(err)) ==
	    DATAPATH_FAILED && strcmp(err, "out of switches") == 0 &&
	    datapath_count() == 0, "the provider's failure, its words");
	fake_fail = 0;
	datapath_register(NULL);
	CHECK(open_target("tcp:127.0.0.1:6653", &dp, err, sizeof(err)) ==
	    DATAPATH_NO_PROVIDER && dp == NULL, "no provider: %s", err);
}

static void
test_open_close(void)
{
	struct datapath	*dp = NULL;
	char		 err[256];

	datapath_register(&fake);
	fake_opened = fake_closed = fake_started = fake_ticks = 0;
	datapath_start(NULL);
	CHECK(fake_started == 1, "the run's start reaches the provider");
	datapath_tick(1);
	CHECK(fake_ticks == 0, "no tick while none is open");
	CHECK(open_target("tcp:127.0.0.1:6653", &dp, err, sizeof(err)) ==
	    DATAPATH_OPEN && dp == &fake_dp && fake_dpid == 0xaa &&
	    fake_spec.ports == 3 && fake_spec.n_ep == 1 &&
	    fake_spec.ep[0].kind == EP_TCP && fake_spec.ep[0].port == 6653,
	    "tcp: opened, the endpoint parsed");
	CHECK(datapath_count() == 1, "one open");
	datapath_tick(2);
	CHECK(fake_ticks == 1, "ticked while open");
	datapath_ports(dp, 5);
	CHECK(fake_ports == 5, "ports passed on");
	datapath_ports(NULL, 9);
	CHECK(fake_ports == 5, "a refused bridge's (NULL) ports go nowhere");
	datapath_close(dp);
	datapath_close(NULL);
	CHECK(fake_closed == 1 && datapath_count() == 0, "closed once");
	datapath_stop();
	datapath_register(NULL);
}

/* A device's own address, when the controller is reachable from it. */
static void
test_source(void)
{
	struct datapath		*dp = NULL;
	struct source_range	 r;
	struct sockaddr_storage	 want, got;
	socklen_t		 len;
	char			 err[256];

	datapath_register(&fake);
	CHECK(open_from("tcp:127.0.0.1:6653", "127.1.0.0/16", 5, &dp, err,
	    sizeof(err)) == DATAPATH_OPEN, "opened from a range");
	CHECK(source_parse("127.1.0.0/16", &r, err, sizeof(err)) == 0,
	    "the range");
	source_addr(&r, 5, &want, &len);
	source_addr(&fake_spec.src, 0, &got, &len);
	CHECK(fake_spec.src.family == AF_INET && fake_spec.src.count == 1 &&
	    fake_spec.src_index == 0 && memcmp(&((struct sockaddr_in *)
	    &want)->sin_addr, &((struct sockaddr_in *)&got)->sin_addr, 4) == 0,
	    "the device's address alone");
	datapath_close(dp);
	CHECK(open_from("tcp:192.0.2.10:6653", "127.1.0.0/16", 5, &dp, err,
	    sizeof(err)) == DATAPATH_OPEN && fake_spec.src.family ==
	    AF_UNSPEC, "a loopback source never reaches 192.0.2.10: none");
	datapath_close(dp);
	CHECK(open_from("tcp:[::1]:6653", "127.1.0.0/16", 5, &dp, err,
	    sizeof(err)) == DATAPATH_OPEN && fake_spec.src.family ==
	    AF_UNSPEC, "IPv4 source, IPv6 controller: none");
	datapath_close(dp);
	CHECK(open_from("tcp:127.0.0.1:6653", NULL, 5, &dp, err,
	    sizeof(err)) == DATAPATH_OPEN && fake_spec.src.family ==
	    AF_UNSPEC, "no range: none");
	datapath_close(dp);
	datapath_register(NULL);
}

/* A bridge with several controllers: one datapath, every target. */
static void
test_targets(void)
{
	const char		*two[] = { "tcp:127.0.0.1:6653",
				    "tcp:127.0.0.2:6654" };
	const char		*bad[] = { "tcp:127.0.0.1:6653",
				    "ssl:127.0.0.1:6654" };
	const char		*nine[DATAPATH_MAX_TARGETS + 1];
	struct datapath_spec	 spec;
	struct datapath_hooks	 hooks = { NULL, NULL, NULL, NULL };
	struct datapath		*dp = NULL;
	char			 err[256];
	size_t			 i;

	datapath_register(&fake);
	memset(&spec, 0, sizeof(spec));
	spec.dpid = 0xab;
	spec.src.family = AF_UNSPEC;
	CHECK(datapath_open(two, 2, &spec, &hooks, &dp, err, sizeof(err)) ==
	    DATAPATH_OPEN && fake_spec.n_ep == 2 &&
	    fake_spec.ep[0].port == 6653 && fake_spec.ep[1].port == 6654,
	    "two targets: one datapath connecting to both");
	datapath_close(dp);
	CHECK(datapath_open(bad, 2, &spec, &hooks, &dp, err, sizeof(err)) ==
	    DATAPATH_SSL && dp == NULL && strstr(err, "ssl:") != NULL,
	    "a refused target among them: refused, said why");
	for (i = 0; i <= DATAPATH_MAX_TARGETS; i++)
		nine[i] = two[0];
	CHECK(datapath_open(nine, DATAPATH_MAX_TARGETS + 1, &spec, &hooks,
	    &dp, err, sizeof(err)) == DATAPATH_BAD_TARGET && dp == NULL,
	    "more than %d targets: %s", DATAPATH_MAX_TARGETS, err);
	CHECK(datapath_open(nine, 0, &spec, &hooks, &dp, err, sizeof(err)) ==
	    DATAPATH_BAD_TARGET, "none: %s", err);
	datapath_register(NULL);
}

static const struct check_case cases[] = {
	CASE(test_dpid),
	CASE(test_refused),
	CASE(test_open_close),
	CASE(test_source),
	CASE(test_targets),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
