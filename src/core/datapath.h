/*
 * Datapaths: a device of one protocol asks for a simulated switch of
 * another, as ovs-vswitchd makes a switch of every bridge that has a
 * Controller row (vswitchd(8), ovs-vswitchd.conf.db(5) "Controller
 * TABLE").  One protocol's devices ask; another's folder provides, as
 * its descriptor says (protocol.h).  Neither sees the other's headers:
 * main.c registers the list's providers (datapath_register()), and a
 * protocol without one in its build (a unit test) is told so by
 * datapath_open().
 *
 * The seam parses and checks the controller targets, so that every
 * caller refuses the same things with the same words: only tcp:IP:PORT
 * is opened; ssl: (the simulated switches have no certificates of the
 * bridge's) and the passive ptcp:/punix: kinds are refused.  A datapath
 * connects to each of its targets at once, as vswitchd connects a
 * bridge to every one of its controllers (ovs-vswitchd.conf.db(5),
 * "Controller TABLE": "the switch connects to all of them"), each
 * connection with its own role (the switch protocol's multiple
 * controllers).
 */
#ifndef SBSIM_DATAPATH_H
#define SBSIM_DATAPATH_H

#include <stddef.h>
#include <stdint.h>

#include "endpoint.h"

struct metrics;
struct datapath;		/* the provider's */

/* Targets one datapath connects to at most (a switch command's
 * --controller EP,... has as many). */
#define DATAPATH_MAX_TARGETS	8

/* What the asking device hears of its datapath; target is the index of
 * the connection's target in the spec (0..n_ep-1). */
struct datapath_hooks {
	/* The handshake is done (FEATURES_REPLY sent) at ns. */
	void	(*up)(void *arg, unsigned target, uint64_t ns);
	/* The connection is gone (the datapath tries again). */
	void	(*down)(void *arg, unsigned target, const char *why);
	/* The controller took another role: "other", "master" or
	 * "slave" (ovs-vswitchd.conf.db(5), Controller role); after up,
	 * the role is "other".  May be NULL. */
	void	(*role)(void *arg, unsigned target, const char *role);
	void	*arg;
};

struct datapath_spec {
	uint64_t		 dpid;
	uint32_t		 ports;		/* 1..ports, besides LOCAL */
	/* Wire versions the bridge allows (bit v: version v),
	 * 0: any the provider speaks. */
	uint32_t		 versions;
	uint32_t		 max_backoff_ms;	/* 0: the default */
	int64_t			 probe_ms;	/* echo after idle; -1: default,
						 * 0: never */
	const char		*name;		/* for the log: "br1" */
	/* The controllers, tcp:, filled by datapath_open(). */
	struct endpoint		 ep[DATAPATH_MAX_TARGETS];
	uint32_t		 n_ep;
	/*
	 * The asking device's own addresses (family AF_UNSPEC: none) and
	 * its index among them: the datapath connects from that address,
	 * as a host's vswitchd from the host's, when it can reach every
	 * controller from there (the same family, loopback to loopback);
	 * datapath_open() leaves it one address or none.
	 */
	struct source_range	 src;
	uint64_t		 src_index;
};

struct datapath_provider {
	const char	*name;			/* its protocol's */
	/* A run begins: register the counters (may be NULL). */
	void		 (*start)(struct metrics *);
	/* A datapath connecting to each of spec->ep; NULL with err. */
	struct datapath	*(*open)(const struct datapath_spec *,
			    const struct datapath_hooks *, char *err,
			    size_t errlen);
	/* The bridge's ports are 1..n now (the switch says so with
	 * PORT_STATUS when connected). */
	void		 (*ports)(struct datapath *, uint32_t n);
	/* Gone at once: the connection closed, no hook called. */
	void		 (*close)(struct datapath *);
	/* Every tick: keepalives and flow timeouts (may be NULL). */
	void		 (*tick)(uint64_t now);
	/* The run is over; every datapath is closed (may be NULL). */
	void		 (*stop)(void);
};

enum datapath_rc {
	DATAPATH_OPEN,
	DATAPATH_NO_PROVIDER,	/* none registered in this program */
	DATAPATH_BAD_TARGET,	/* not an endpoint at all */
	DATAPATH_SSL,		/* ssl: refused */
	DATAPATH_PASSIVE,	/* ptcp:, punix:, unix: refused */
	DATAPATH_FAILED,	/* the provider could not */
};

/* main.c: the one provider of this program (NULL: none). */
void	 datapath_register(const struct datapath_provider *);

/* A run's start, tick and stop, passed on to the provider. */
void	 datapath_start(struct metrics *);
void	 datapath_tick(uint64_t now);
void	 datapath_stop(void);

/* Whether target would be opened (DATAPATH_OPEN, ep filled), or why
 * not with err. */
enum datapath_rc datapath_target(const char *target, struct endpoint *ep,
	    char *err, size_t errlen);
/*
 * A datapath for spec (its ep and n_ep filled here from the n targets,
 * 1..DATAPATH_MAX_TARGETS) with hooks: DATAPATH_OPEN and *dp, or why
 * not with err (the first target refused, if one is).
 */
enum datapath_rc datapath_open(const char *const *targets, size_t n,
	    struct datapath_spec *, const struct datapath_hooks *,
	    struct datapath **dp, char *err, size_t errlen);
void	 datapath_close(struct datapath *);
void	 datapath_ports(struct datapath *, uint32_t n);
/* Datapaths open now (the provider's, through this seam). */
uint32_t datapath_count(void);

/* A datapath id written as OVS writes it (16 hex digits, not all zero,
 * other_config:datapath-id and the datapath_id column); -1 otherwise. */
int	 datapath_id_parse(const char *, uint64_t *);

#endif
