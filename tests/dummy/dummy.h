/*
 * A protocol for the test build only (tests/integration/protocol_dummy.sh),
 * written as a real one is: its folder plus one line.  Its wire is lines of
 * text: a device says "HELLO ID SEQ", the controller's role answers "OK ID
 * SEQ"; a device says its next hello once the last is answered.
 */
#ifndef SBSIM_DUMMY_H
#define SBSIM_DUMMY_H

#include <stdint.h>

#include "pool.h"

#define DUMMY_LINE_MAX	64	/* the longest line either side takes */

struct metrics;
struct phase;

struct dummy_config {
	uint32_t	devices;	/* --devices */
	uint32_t	hellos;		/* --hellos: each device's */
};

struct dummy_dev {
	struct pool_dev		 pd;	/* first: the pool's skeleton */
	struct dummy_sim	*sim;
	uint32_t		 id;
	uint32_t		 answered;	/* its hellos answered */
	int			 counted;	/* its connect counted */
};

struct dummy_sim {
	struct dummy_config	 cfg;
	struct pool_config	 pcfg;
	struct pool		 pool;
	struct dummy_dev	*devs;
	struct phase		*connect, *hello;
	struct metrics		*m;
	uint64_t		*bad_lines;	/* a reply that is not ours */
	double			 phase_timeout;
};

extern const struct sbsim_cmd dummy_cmd;
extern const struct ctl_role dummy_ctl_role;

#endif
