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
log_warn(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog("", 1, fmt, ap);
	va_end(ap);
}

void
log_warnx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog("", 0, fmt, ap);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list	ap;

	if (log_level < LOG_INFO)
		return;
	va_start(ap, fmt);
	vlog("", 0, fmt, ap);
	va_end(ap);
}

void
log_debug(const char *fmt, ...)
{
	va_list	ap;

	if (log_level < LOG_DEBUG)
		return;
	va_start(ap, fmt);
	vlog("debug: ", 0, fmt, ap);
	va_end(ap);
}

void
fatal(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog("fatal: ", 1, fmt, ap);
	va_end(ap);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog("fatal: ", 0, fmt, ap);
	va_end(ap);
	exit(1);
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
