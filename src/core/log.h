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
void	log_warn(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_warnx(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_debug(const char *, ...) __attribute__((format(printf, 1, 2)));
void	fatal(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
void	fatalx(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

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
