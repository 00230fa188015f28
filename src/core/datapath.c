/*
 * The datapath seam (datapath.h): one provider per program, the targets
 * checked alike for every caller, and a count of what is open.
 */
#include <sys/socket.h>
#include <netinet/in.h>

#include <arpa/inet.h>

#include <stdio.h>
#include <string.h>

#include "datapath.h"
#include "log.h"

static const struct datapath_provider	*provider;
static uint32_t				 n_open;

void
datapath_register(const struct datapath_provider *p)
{
	provider = p;
}

void
datapath_start(struct metrics *m)
{
	n_open = 0;
	if (provider != NULL && provider->start != NULL)
		provider->start(m);
}

void
datapath_tick(uint64_t now)
{
	if (provider != NULL && provider->tick != NULL && n_open > 0)
		provider->tick(now);
}

void
datapath_stop(void)
{
	if (n_open != 0)
		log_warnx("datapath: %u still open at the end of the run",
		    n_open);
	if (provider != NULL && provider->stop != NULL)
		provider->stop();
}

/* The kinds OVS takes for a Controller target (ovs-vswitchd.conf.db(5),
 * "Controller TABLE", target) that a simulated switch does not serve. */
static enum datapath_rc
datapath_refused(const char *target, char *err, size_t errlen)
{
	static const char *const passive[] = {
		"ptcp:", "pssl:", "punix:", "unix:", NULL
	};
	size_t	i;

	if (strncmp(target, "ssl:", 4) == 0) {
		snprintf(err, errlen, "controller %s: ssl: is not simulated "
		    "(the switch has no certificate); use tcp:", target);
		return DATAPATH_SSL;
	}
	for (i = 0; passive[i] != NULL; i++)
		if (strncmp(target, passive[i], strlen(passive[i])) == 0) {
			snprintf(err, errlen, "controller %s: a switch that "
			    "listens or a unix socket is not simulated; use "
			    "tcp:IP:PORT", target);
			return DATAPATH_PASSIVE;
		}
	return DATAPATH_OPEN;
}

static int
datapath_loopback(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)ss)->sin_addr.s_addr)
		    >> 24) == 127;
	return IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)ss)->
	    sin6_addr);
}

/* The device's address of its range, alone, when every controller can
 * be reached from it; else none (the kernel chooses). */
static void
datapath_source(struct datapath_spec *spec)
{
	struct source_range	*r = &spec->src;
	struct sockaddr_storage	 ss;
	socklen_t		 len;
	uint32_t		 k;

	if (r->family == AF_UNSPEC || r->count == 0)
		return;
	source_addr(r, spec->src_index, &ss, &len);
	for (k = 0; k < spec->n_ep; k++)
		if (ss.ss_family != spec->ep[k].ss.ss_family ||
		    datapath_loopback(&ss) !=
		    endpoint_is_loopback(&spec->ep[k])) {
			r->family = AF_UNSPEC;
			return;
		}
	if (ss.ss_family == AF_INET)
		r->base4 = ((struct sockaddr_in *)&ss)->sin_addr;
	else
		r->base6 = ((struct sockaddr_in6 *)&ss)->sin6_addr;
	r->count = 1;
	spec->src_index = 0;
}

enum datapath_rc
datapath_target(const char *target, struct endpoint *ep, char *err,
    size_t errlen)
{
	enum datapath_rc	rc;
	char			why[256];

	if ((rc = datapath_refused(target, err, errlen)) != DATAPATH_OPEN)
		return rc;
	if (endpoint_parse(target, ep, why, sizeof(why)) == -1) {
		snprintf(err, errlen, "controller %s: %s", target, why);
		return DATAPATH_BAD_TARGET;
	}
	if (ep->kind != EP_TCP) {
		snprintf(err, errlen, "controller %s: only tcp:IP:PORT is "
		    "simulated", target);
		return ep->kind == EP_SSL ? DATAPATH_SSL : DATAPATH_PASSIVE;
	}
	return DATAPATH_OPEN;
}

enum datapath_rc
datapath_open(const char *const *targets, size_t n,
    struct datapath_spec *spec, const struct datapath_hooks *hooks,
    struct datapath **dp, char *err, size_t errlen)
{
	enum datapath_rc	rc;
	size_t			k;

	*dp = NULL;
	if (n == 0 || n > DATAPATH_MAX_TARGETS) {
		snprintf(err, errlen, "%zu controllers (1 to %d are "
		    "simulated)", n, DATAPATH_MAX_TARGETS);
		return DATAPATH_BAD_TARGET;
	}
	for (k = 0; k < n; k++)
		if ((rc = datapath_target(targets[k], &spec->ep[k], err,
		    errlen)) != DATAPATH_OPEN)
			return rc;
	spec->n_ep = n;
	datapath_source(spec);
	if (provider == NULL) {
		snprintf(err, errlen, "no datapath provider in this program");
		return DATAPATH_NO_PROVIDER;
	}
	if ((*dp = provider->open(spec, hooks, err, errlen)) == NULL)
		return DATAPATH_FAILED;
	n_open++;
	return DATAPATH_OPEN;
}

void
datapath_close(struct datapath *dp)
{
	if (dp == NULL)
		return;
	if (provider == NULL || n_open == 0)
		fatalx("datapath_close: no datapath open");
	provider->close(dp);
	n_open--;
}

void
datapath_ports(struct datapath *dp, uint32_t n)
{
	if (dp != NULL && provider != NULL && provider->ports != NULL)
		provider->ports(dp, n);
}

uint32_t
datapath_count(void)
{
	return n_open;
}

int
datapath_id_parse(const char *s, uint64_t *dpid)
{
	uint64_t	v = 0;
	int		i, c;

	/* OVS's dpid_from_string(): exactly 16 hex digits, not all 0. */
	if (s == NULL || strlen(s) != 16)
		return -1;
	for (i = 0; i < 16; i++) {
		c = s[i];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if (c >= 'a' && c <= 'f')
			c -= 'a' - 10;
		else if (c >= 'A' && c <= 'F')
			c -= 'A' - 10;
		else
			return -1;
		v = v << 4 | (uint64_t)c;
	}
	if (v == 0)
		return -1;
	*dpid = v;
	return 0;
}
