/*
 * Logging in the OpenBGPD style: log_warn appends strerror(errno),
 * log_warnx does not; fatal/fatalx end the process and are kept for broken
 * invariants and exhausted memory only.
 */
#ifndef SBSIM_LOG_H
#define SBSIM_LOG_H

#include <stdarg.h>

#define LOG_QUIET	0	/* warnings only */
#define LOG_INFO	1
#define LOG_DEBUG	2

void	log_init(const char *progname, int verbosity);
/* A message on stderr when the verbosity is level or more (warnings are
 * LOG_QUIET: always), after prefix, with strerror(errno) when with_errno;
 * the six below are the ones to call. */
void	log_at(int level, const char *prefix, int with_errno, const char *,
	    ...) __attribute__((format(printf, 4, 5)));
/* The same, always, then exit(1). */
void	log_fatal(int with_errno, const char *, ...)
	    __attribute__((format(printf, 2, 3), noreturn));
#define log_warn(...)	log_at(LOG_QUIET, "", 1, __VA_ARGS__)
#define log_warnx(...)	log_at(LOG_QUIET, "", 0, __VA_ARGS__)
#define log_info(...)	log_at(LOG_INFO, "", 0, __VA_ARGS__)
#define log_debug(...)	log_at(LOG_DEBUG, "debug: ", 0, __VA_ARGS__)
#define fatal(...)	log_fatal(1, __VA_ARGS__)
#define fatalx(...)	log_fatal(0, __VA_ARGS__)

/*
 * A warning an event may cause thousands of times a second, logged at
 * most every quiet_s seconds: log_quiet_due() is 1 when a line is due
 * now, with *held (NULL: not wanted) the events since the last line,
 * held back; 0 when this one is only counted.
 */
#include <stdint.h>
#include <time.h>
struct log_quiet {
	time_t		last;		/* the last line; 0: none yet */
	uint64_t	held;		/* events since, not logged */
};
int	log_quiet_due(struct log_quiet *, int quiet_s, uint64_t *held);

/* Allocation helpers that call fatal() on exhaustion. */
#include <stddef.h>
void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
int	 xasprintf(char **, const char *, ...)
	    __attribute__((format(printf, 2, 3)));

/* Elements of an array, as OpenBSD's <sys/param.h> has it. */
#ifndef nitems
#define nitems(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#endif
