/*
 * Command-line options every device kind shares, their parsing and the
 * one-line errors (exit status 2) for bad input.
 */
#ifndef SBSIM_CLI_H
#define SBSIM_CLI_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#include "expect.h"

#define CLI_MAX_EXPECTS	32
#define CLI_EXIT_USAGE	2

struct run_opts {
	const char	*cmd;		/* "openflow", for messages */
	const char	*controller;
	const char	*source;
	double		 connect_rate;
	unsigned	 max_inflight;
	unsigned	 backoff_min_ms;
	unsigned	 backoff_max_ms;
	double		 duration;	/* 0: until the last phase completes */
	double		 phase_timeout;	/* seconds a phase may wait */
	const char	*report;
	const char	*csv;
	const char	*junit;
	struct expect	 expects[CLI_MAX_EXPECTS];
	size_t		 n_expects;
	unsigned	 repeat;
	const char	*ssl_key;
	const char	*ssl_cert;
	const char	*ssl_ca;
	int		 verbose;
	int		 quiet;		/* no table on stdout */
	unsigned	 seed;
	char		 scenario[512];	/* the command line, for reports */
};

/* Long options of struct run_opts; the protocol appends its own. */
#define CLI_COMMON_OPTS_HELP \
"common options:\n" \
"  --controller EP        tcp:IP:PORT, ssl:IP:PORT or ptcp:PORT[:IP]\n" \
"                         (ptcp: device i listens on PORT+i, all addresses\n" \
"                         unless IP is given)\n" \
"  --source CIDR          local addresses to spread devices over\n" \
"  --connect-rate N       devices connecting per second (0: no limit)\n" \
"  --connect-inflight N   connects under way at once (default 256)\n" \
"  --backoff MIN:MAX      reconnect backoff in ms (default 100:5000)\n" \
"  --duration S           run for S seconds, even when the phases end sooner\n" \
"  --timeout S            how long a phase may wait (default 60)\n" \
"  --report FILE          JSON report\n" \
"  --csv FILE             Jenkins plot CSV (header row + value row)\n" \
"  --junit FILE           JUnit XML\n" \
"  --expect EXPR          threshold, e.g. 'connect.rate_per_s>=1000'\n" \
"  --repeat N             run N times; report min/median/max\n" \
"  --ssl-key F --ssl-cert F --ssl-ca F   TLS for ssl: endpoints\n" \
"  --seed N               random seed (backoff jitter, ...)\n" \
"  -v, --verbose          more logging (twice: debug)\n" \
"  -q, --quiet            no results table on stdout\n" \
"  -h, --help             this help\n"

/*
 * Parse argv with the common options plus the protocol's (opts, ending
 * with a zero entry; their val must be >= 256).  For each protocol option
 * proto() is called; it returns 0, or -1 with a message in err.  On any
 * error one line goes to stderr and the process exits with status 2.
 * help is printed for -h.
 */
void	 cli_parse(int argc, char **argv, const struct option *opts,
	    int (*proto)(int opt, const char *arg, void *ctx, char *err,
	    size_t errlen), void *ctx, struct run_opts *ro, const char *help);
/*
 * The same with declared options (opt.h): the protocol's groups, then the
 * common options; usage heads --help (the rows make the rest).
 */
struct opt_group;
void	 cli_parse_groups(int argc, char **argv, struct opt_group *proto,
	    size_t nproto, struct run_opts *ro, const char *usage);
/* Number parsers for option arguments; -1 with a message in err. */
int	 cli_uint(const char *name, const char *arg, uint64_t min,
	    uint64_t max, uint64_t *out, char *err, size_t errlen);
/* The same into a 32-bit field (max at most UINT32_MAX). */
int	 cli_uint32(const char *name, const char *arg, uint64_t min,
	    uint64_t max, uint32_t *out, char *err, size_t errlen);
int	 cli_double(const char *name, const char *arg, double min, double max,
	    double *out, char *err, size_t errlen);
/* Exit 2 with "sbsim CMD: message". */
void	 cli_die(const struct run_opts *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3), noreturn));

#endif
