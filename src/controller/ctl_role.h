/*
 * The embedded controller's roles: each protocol's descriptor names its
 * own (protocol.h), and ctl_role_table() makes one table of them.
 * `sbsim controller` builds its options from the roles' rows, starts the
 * roles in table order and stops them in reverse, on error and at exit;
 * it knows nothing else about them.
 *
 * A role's options are declared rows (opt.h) over its own state, one
 * struct the role keeps (cfg).  The row that turns the role on carries
 * CTL_GIVEN_ON, the role's other rows CTL_GIVEN_OPT (a role may add bits
 * of its own above them); check() sees what was given.  A role with
 * CTL_ROLE_RESTCONF has no row that turns it on.
 */
#ifndef SBSIM_CTL_ROLE_H
#define SBSIM_CTL_ROLE_H

#include <stdint.h>

#include "opt.h"

struct http_server;

#define CTL_GIVEN_ON	0x1	/* the option that turns the role on */
#define CTL_GIVEN_OPT	0x2	/* any other option of the role */
#define CTL_GIVEN_ROLE	0x100	/* the first bit a role may use itself */

/* What decides whether a role runs. */
struct ctl_env {
	int	restconf;	/* --restconf given: resources are served */
	int	none_asked;	/* no role's CTL_GIVEN_ON, no --restconf */
	unsigned workers;	/* --workers N, 0 without: check() refuses
				 * what one process of N cannot do alone */
};

#define CTL_ROLE_DEFAULT	0x1	/* on when none_asked */
#define CTL_ROLE_RESTCONF	0x2	/* on whenever RESTCONF is served */

/*
 * A role runs when its CTL_GIVEN_ON row was given, or as its flags say.
 * Only a role that runs is checked, started, ticked, summed up and
 * stopped; its hooks need not ask whether it runs.
 */
struct ctl_role {
	const char		*name;		/* its protocol's */
	const char		*title;		/* its heading in --help */
	const struct opt	*rows;		/* ending with OPT_END */
	void			*cfg;		/* the role's state */
	unsigned		 flags;		/* CTL_ROLE_* */
	/* The error when CTL_GIVEN_OPT rows came without the role. */
	const char		*needs;
	/* The error when it runs without --restconf (NULL: it may), and
	 * when it runs under --workers (NULL: every worker may run it):
	 * ctl_role_check() refuses with them before check(). */
	const char		*needs_restconf;
	const char		*one_process;
	/* Defaults into cfg, before the options. */
	void	(*defaults)(void *cfg);
	/* Its options checked together (may be NULL); 0, or -1 with a
	 * message in err. */
	int	(*check)(void *cfg, unsigned given, const struct ctl_env *,
		    char *err, size_t errlen);
	/* Start on the engine's event_base and register its RESTCONF
	 * resources on hs (NULL without --restconf); 0, or -1 with a
	 * message in err (stop() is called then too). */
	int	(*start)(void *cfg, struct http_server *hs, char *err,
		    size_t errlen);
	/* Every 100 ms (may be NULL): e.g. engine_stop() once done. */
	void	(*tick)(void *cfg, uint64_t now_ns);
	/* Its summary line on stdout at the end (may be NULL). */
	void	(*summary)(void *cfg);
	/* Stop and free; answers what still waits on the HTTP server, which
	 * is freed after every role stopped. */
	void	(*stop)(void *cfg);
	/*
	 * Under --workers, a role that waits for a number of devices before
	 * acting on them all (a --switches N of its own): the number the
	 * whole run waits for (0: none; the parent asks), the devices this
	 * worker holds (each worker tells the parent), and the parent's word
	 * that the workers' sum reached it.  NULL: no such wait.
	 */
	uint64_t (*gate_want)(void *cfg);
	uint64_t (*gate_held)(void *cfg);
	void	 (*gate_open)(void *cfg);
	/*
	 * The devices connected to the role now (its sessions up), and what
	 * they are called ("switches"): the controller logs their coming and
	 * going from it (ctl_devlog_tick()).  NULL: the role holds none.
	 */
	uint64_t (*devices_up)(void *cfg);
	const char *devices;
};

/*
 * Non-zero in a worker of `sbsim controller --workers` (controller.c),
 * from before its roles start.  A role with a gate holds it closed then;
 * its summary writes every figure, also those a one-process line leaves
 * out when they are zero, so that the parent adds the workers' lines
 * figure by figure.
 */
extern int	ctl_worker;

/* A role whose --exit-when-done work is done: one process stops (why is
 * logged); a worker tells its parent, which stops every worker once all
 * are done. */
void	 ctl_finished(const char *why);

/* The roles of the protocol list (protocol.h): each protocol's in its
 * start order, the protocols in the list's; NULL-terminated. */
const struct ctl_role *const *ctl_role_table(void);

/* Whether the role runs: 1 or 0, or -1 with role->needs in err when its
 * options came without it. */
int	 ctl_role_on(const struct ctl_role *, unsigned given,
	    const struct ctl_env *, char *err, size_t errlen);

/* A role that runs, its options checked: needs_restconf, one_process,
 * then its check(); 0, or -1 with the message in err. */
int	 ctl_role_check(const struct ctl_role *, unsigned given,
	    const struct ctl_env *, char *err, size_t errlen);

/*
 * Part of a role's summary line on stdout: fmt with each '#' replaced by
 * the next of the n figures.  The line stays one string that reads as it
 * prints.  A count of '#' other than n is a bug: fatalx().
 */
void	 ctl_print_figures(const char *fmt, const uint64_t *v, size_t n);

/*
 * Devices coming and going, read from each running role's devices_up()
 * on every tick of the controller: a line per change at -v ("NAME:
 * 12 switches up (+2)"), and by default a summary every interval seconds
 * when any count changed since the last ("devices in the last 10 s:
 * NAME 12 switches up (+12 -0), ...").  Counts, not one line per
 * device: a flood of 10 000 connects is a line per tick, not 10 000.
 */
#define CTL_DEVLOG_ROLES	16

struct ctl_devlog {
	double		 interval;	/* seconds between summaries, 0: none */
	uint64_t	 last_ns;	/* the last summary, or the start */
	int		 changed;	/* since the last summary */
	uint64_t	 up[CTL_DEVLOG_ROLES];
	uint64_t	 came[CTL_DEVLOG_ROLES];	/* since the summary */
	uint64_t	 left[CTL_DEVLOG_ROLES];
};

void	 ctl_devlog_tick(struct ctl_devlog *, const struct ctl_role *const *,
	    const int *on, size_t n, uint64_t now_ns);

#endif
