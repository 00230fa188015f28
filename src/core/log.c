#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"

static const char	*log_name = "sbsim";
static int		 log_level = LOG_QUIET;

void
log_init(const char *progname, int verbosity)
{
	if (progname != NULL)
		log_name = progname;
	log_level = verbosity;
}

static void
vlog(const char *prefix, int with_errno, const char *fmt, va_list ap)
{
	int	saved = errno;
	char	msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (with_errno)
		fprintf(stderr, "%s: %s%s: %s\n", log_name, prefix, msg,
		    strerror(saved));
	else
		fprintf(stderr, "%s: %s%s\n", log_name, prefix, msg);
	errno = saved;
}

void
log_at(int level, const char *prefix, int with_errno, const char *fmt, ...)
{
	va_list	ap;

	if (log_level < level)
		return;
	va_start(ap, fmt);
	vlog(prefix, with_errno, fmt, ap);
	va_end(ap);
}

void
log_fatal(int with_errno, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog("fatal: ", with_errno, fmt, ap);
	va_end(ap);
	exit(1);
}

int
log_quiet_due(struct log_quiet *q, int quiet_s, uint64_t *held)
{
	time_t	now = time(NULL);

	if (q->last != 0 && now - q->last < quiet_s) {
		q->held++;
		return 0;
	}
	if (held != NULL)
		*held = q->held;
	q->last = now;
	q->held = 0;
	return 1;
}

void *
xmalloc(size_t n)
{
	void	*p = malloc(n == 0 ? 1 : n);

	if (p == NULL)
		fatal("malloc %zu", n);
	return p;
}

void *
xcalloc(size_t n, size_t sz)
{
	void	*p = calloc(n == 0 ? 1 : n, sz == 0 ? 1 : sz);

	if (p == NULL)
		fatal("calloc %zu*%zu", n, sz);
	return p;
}

void *
xreallocarray(void *old, size_t n, size_t sz)
{
	void	*p;

	if (sz != 0 && n > SIZE_MAX / sz)
		fatalx("reallocarray overflow %zu*%zu", n, sz);
	p = realloc(old, n * sz == 0 ? 1 : n * sz);
	if (p == NULL)
		fatal("realloc %zu*%zu", n, sz);
	return p;
}

char *
xstrdup(const char *s)
{
	char	*p = strdup(s);

	if (p == NULL)
		fatal("strdup");
	return p;
}

int
xasprintf(char **ret, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vasprintf(ret, fmt, ap);
	va_end(ap);
	if (n < 0)
		fatal("asprintf");
	return n;
}
