/*
 * `sbsim controller --workers N`: the controller's roles in N forked
 * processes, each with its own event loop, sharing every device-facing
 * port with SO_REUSEPORT (engine_listen_reuseport).  The parent holds
 * no device: it owns --restconf and answers each request by asking the
 * workers (ctl_gather.c), opens the roles' gates when the workers hold
 * what the run waits for between them, stops them all when all are done
 * (or one dies, or a signal came), and prints one summary: the workers'
 * lines added figure by figure.
 *
 * Worker to parent, one line each on a pipe:
 *	rc PORT		its RESTCONF listens on 127.0.0.1:PORT
 *	held I N	it holds N devices of role I (ctl_role.gate_held)
 *	done		its --exit-when-done work is done (ctl_finished)
 * Parent to worker:
 *	open I		open role I's gate (ctl_role.gate_open)
 * The summary lines go to a file the parent reads after the worker ends.
 */
#ifndef SBSIM_CTL_WORKERS_H
#define SBSIM_CTL_WORKERS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "http_server.h"

#define CTL_WK_MAX		64
#define CTL_WK_USER		"sbsim-worker"
#define CTL_WK_TOKEN_LEN	32	/* hex characters */
#define CTL_WK_MAX_ROLES	16

struct ctl_role;

/* What the parent knows of the run, from the controller's options. */
struct ctl_wk_run {
	unsigned			 n;		/* --workers */
	double				 duration;	/* 0: none */
	const struct http_server_config	*http;	/* NULL: no --restconf */
	const struct ctl_role *const	*roles;
	const int			*on;
	size_t				 n_roles;
};

/*
 * Fork the workers: in worker i, returns i with stdout going to its
 * summary file, the parent's token in token (the password its RESTCONF
 * asks for) and ctl_worker set; in the parent, -1.
 */
int	 ctl_wk_fork(unsigned n, char *token, size_t tokenlen);
/* In a worker, once its roles started on the engine: listen to the
 * parent and tell it the RESTCONF port (0: none). */
void	 ctl_wk_child_start(uint16_t rc_port,
	    const struct ctl_role *const *roles);
/* Every 100 ms in a worker: tell the parent of changed gate counts. */
void	 ctl_wk_child_tick(const struct ctl_role *const *roles,
	    const int *on, size_t n_roles);
/* In a worker: its --exit-when-done work is done (once). */
void	 ctl_wk_done(void);
/* In a worker, at the end: close the pipes. */
void	 ctl_wk_child_end(void);
/* The parent's run, until every worker ended: the exit status. */
int	 ctl_wk_parent(const struct ctl_wk_run *);

/* The RESTCONF server's summary line on stdout. */
void	 ctl_http_summary(const struct http_server *);

/*
 * The workers' summary lines added up: lines whose text is the same once
 * each figure is '#' (a figure: digits, maybe with a '.', not inside a
 * word) are one line of the result, its whole figures summed and those
 * with a '.' or a unit of time after them ("1.234 s", "57 us") the
 * largest; a line the workers do not all write alike is written once per
 * worker, "worker I: " before it.  lines[w] is worker w's text.
 */
char	*ctl_wk_sum_lines(char *const *lines, size_t n);

/* ctl_gather.c: the parent's RESTCONF, on its HTTP server. */
struct ctl_gather;
struct ctl_gather *ctl_gather_new(struct http_server *, unsigned n,
	    const char *token);
/* Worker i's RESTCONF port, once it told it. */
void	 ctl_gather_port(struct ctl_gather *, unsigned i, uint16_t port);
/* Answer what still waits (503), drop the requests to the workers. */
void	 ctl_gather_free(struct ctl_gather *);
/* JSON: b merged into a (objects key by key, lists concatenated, list
 * entries with the same key member merged); 0 or -1. */
struct json_t;
int	 ctl_json_merge(struct json_t *a, struct json_t *b);

#endif
