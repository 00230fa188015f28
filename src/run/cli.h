/*
 * Command-line options every device kind shares, their parsing and the
 * one-line errors (exit status 2) for bad input.
 */
#ifndef SBSIM_CLI_H
#define SBSIM_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "expect.h"
#include "fault.h"
#include "opt.h"

#define CLI_MAX_EXPECTS	32
#define CLI_MAX_SWEEP	64	/* sizes of one --sweep */
#define CLI_MAX_SHARDS	65536	/* --shard I/N: N at most */

struct run_opts {
	const char	*cmd;		/* the command's name, for messages */
	const char	*controller;
	const char	*source;
	double		 connect_rate;
	unsigned	 max_inflight;
	double		 connect_timeout;	/* s; 0: the kernel's */
	unsigned	 backoff_min_ms;
	unsigned	 backoff_max_ms;
	double		 duration;	/* 0: until the last phase completes */
	double		 phase_timeout;	/* seconds a phase may wait */
	const char	*report;
	const char	*csv;
	const char	*junit;
	struct expect	 expects[CLI_MAX_EXPECTS];
	size_t		 n_expects;
	struct fault_spec faults[FAULT_MAX_SPECS];	/* --fault */
	size_t		 n_faults;
	unsigned	 repeat;
	const char	*ssl_key;
	const char	*ssl_cert;
	const char	*ssl_ca;
	int		 verbose;
	int		 quiet;		/* no table on stdout */
	unsigned	 seed;
	unsigned	 controller_pid;	/* 0: not sampled */
	const char	*controller_metrics;	/* Prometheus URL */
	const char	*metrics_listen;	/* [IP:]PORT to serve */
	uint32_t	 sweep[CLI_MAX_SWEEP];	/* --sweep sizes, in order */
	size_t		 n_sweep;
	uint32_t	 find_max;		/* --find-max START, 0: none */
	double		 step_pause;		/* seconds between steps */
	const char	*step_group;		/* sbsim run: the group stepped */
	uint32_t	 shard_index;		/* --shard I/N: I */
	uint32_t	 shard_count;		/* N, 0: the whole run */
	double		 start_at;		/* --start-at, Unix s; 0: now */
	unsigned	 workers;		/* --workers N, 0: none */
	int		 worker_fd;		/* a worker's progress pipe */
	int		 worker;		/* 1 in a worker of --workers */
	/* A worker under a parent with --metrics-listen: its figures so
	 * far, a report, rewritten here every progress line. */
	const char	*live_report;
	char		 scenario[512];	/* the command line, for reports */
};

/*
 * Parse argv with declared options (opt.h): the protocol's groups, then
 * the common options (struct run_opts).  usage heads --help; the rows
 * make the rest.  Any error is one line on stderr and exit status 2.
 */
struct opt_group;
void	 cli_parse_groups(int argc, char **argv, struct opt_group *proto,
	    size_t nproto, struct run_opts *ro, const char *usage);
/* Exit 2 with "sbsim CMD: message". */
void	 cli_die(const struct run_opts *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3), noreturn));
/* Where the YANG modules are: installed ($(datadir)/sbsim/yang), or the
 * source tree's when sbsim runs from a build that is not installed. */
const char *cli_yang_dir(void);
/* Errors of the next cli_parse_groups() point at "sbsim CMD --help"
 * (NULL: at the command parsed). */
void	 cli_help_as(const char *cmd);
/* The same for a command without run options ("plot", "run"). */
void	 cli_die_cmd(const char *cmd, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3), noreturn));
/*
 * --controller EP[,EP...] split at its commas into eps[] (the one list
 * parser of every protocol that speaks to several controllers).  No
 * comma: 1, eps[0] the option as given (NULL when absent), *copy NULL.
 * Otherwise the endpoints (empty items skipped), pointing into *copy,
 * which the caller frees; exit 2 with "--controller: at most MAX NOUNs"
 * past max, or "'LIST' names no second NOUN" when only one is left.
 */
unsigned cli_controllers(const struct run_opts *, const char *noun,
	    unsigned max, const char **eps, char **copy);

#endif
