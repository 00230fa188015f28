/*
 * Forked children that talk to their parent in lines: the one mechanism
 * under `sbsim COMMAND --workers N` (src/run/workers.c) and `sbsim
 * controller --workers N` (src/controller/ctl_workers.c).  Each child
 * has a pipe up to the parent (its lines) and, with PROCS_DOWN, one down
 * (the parent's lines to it).  The parent reads the lines on a libevent
 * loop and hears of each child's end once its pipe is at EOF and it is
 * reaped (waitpid's status); it can forward SIGINT and SIGTERM to the
 * children and stop them with a bounded wait.  What the lines say, and
 * what a child's end means for the run, is the caller's.
 */
#ifndef SBSIM_PROCS_H
#define SBSIM_PROCS_H

#include <stddef.h>
#include <sys/types.h>

struct event_base;
struct procs;

#define PROCS_DOWN	0x01	/* a pipe from the parent to each child */
#define PROCS_OWN_GROUP	0x02	/* each child a process group of its own,
				   so a terminal's ^C reaches the parent
				   alone and the parent stops them */
#define PROCS_LINE_MAX	512	/* longer lines are dropped */

struct procs_ops {
	/* What the log calls a child: "worker". */
	const char	*noun;
	/* A whole line from child i, without its '\n'. */
	void	(*line)(void *arg, unsigned i, const char *line);
	/* Child i ended: its pipe is at EOF and it is reaped; status is
	 * waitpid's.  Called once per child, from the loop or from
	 * procs_stop(). */
	void	(*ended)(void *arg, unsigned i, int status);
};

/* n children to fork, the parent's callbacks with arg. */
struct procs	*procs_new(unsigned n, int flags, const struct procs_ops *,
		    void *arg);
/* In the parent: the children stopped (SIGKILL, no wait) if still
 * running, the pipes closed.  In a child: the table freed, its own pipe
 * ends kept. */
void		 procs_free(struct procs *);
/*
 * Fork the n children (stdout and stderr flushed first).  In child i it
 * returns i, with its pipe ends in *up (lines to the parent) and *down
 * (the parent's, -1 without PROCS_DOWN) and every sibling's closed, and
 * SIGPIPE ignored; in the parent it returns -1.  A failed fork is fatal.
 */
int		 procs_fork(struct procs *, int *up, int *down);

/* The parent's loop: read the children's lines and reap them on base. */
void		 procs_watch(struct procs *, struct event_base *);
/* While watched, a SIGINT or SIGTERM to the parent is sent on to every
 * running child as sig (once; procs_interrupt()).  0: not caught. */
void		 procs_forward_signals(struct procs *, int sig);
/* The signal the parent caught while forwarding, 0 if none. */
int		 procs_caught(const struct procs *);
/* Turn the watched loop until every child ended. */
void		 procs_run(struct procs *);
/* sig to every running child, the first time only: 1 when sent now. */
int		 procs_interrupt(struct procs *, int sig);
/*
 * sig to every running child, then wait up to wait_s seconds for them
 * all to end; one that has not is killed (SIGKILL, said in the log) and
 * waited for.  The watch ends: lines still unread are dropped.  Not
 * from a callback of the watch (procs_interrupt() is).
 */
void		 procs_stop(struct procs *, int sig, unsigned wait_s);

/* The parent's line to child i (PROCS_DOWN), printf-like; a line longer
 * than PROCS_LINE_MAX is not sent. */
void		 procs_send(struct procs *, unsigned i, const char *fmt, ...)
		    __attribute__((format(printf, 3, 4)));
/* A line to fd, written whole (a pipe's PIPE_BUF), printf-like. */
void		 procs_write_line(int fd, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));

pid_t		 procs_pid(const struct procs *, unsigned i);
/* Whether child i ended (reaped), and its waitpid status then. */
int		 procs_ended(const struct procs *, unsigned i);
int		 procs_status(const struct procs *, unsigned i);
/* Children not ended yet. */
unsigned	 procs_running(const struct procs *);

/*
 * How a child ended, from waitpid's status, into buf ("was killed by
 * signal 9 (Killed)", "exited 2"); NULL when it exited max_ok or less:
 * the exit status rule both sides share (a run's verdict is 0 or 1, the
 * controller's worker exits 0).
 */
const char	*procs_status_text(int status, int max_ok, char *buf,
		    size_t len);

/* $TMPDIR, or /tmp without it. */
const char	*procs_tmpdir(void);
/*
 * A fresh file of a child's (its report, its summary) in procs_tmpdir(),
 * named NAME.XXXXXX made unique; its path in path.  0, or -1 when the
 * path would not fit in len; a failed mkstemp is fatal, what naming the
 * file ("a report file").
 */
int		 procs_tmpfile(const char *name, const char *what, char *path,
		    size_t len);

/* Lines from fd on a loop, for a child reading its parent's pipe: eof
 * is called once at EOF or an error, and the reading stops. */
struct procs_reader;
struct procs_reader *procs_reader_new(struct event_base *, int fd,
		    void (*line)(void *arg, const char *line),
		    void (*eof)(void *arg), void *arg);
void		 procs_reader_free(struct procs_reader *);

#endif
