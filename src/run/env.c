/*
 * The environment a run was measured in: CPU, memory, kernel and the
 * versions of the libraries actually loaded (runtime, not build time,
 * where the library can tell).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <event2/event.h>
#include <libssh/libssh.h>
#include <libxml/parser.h>
#include <libxml/xmlversion.h>
#include <libyang/version.h>
#include <openssl/crypto.h>

#include "env.h"

#define UNKNOWN	"unknown"

static void
set_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src != NULL && *src != '\0' ? src : UNKNOWN);
}

/*
 * The value of the first "key<blanks>: value" line of a /proc file, or -1.
 * Lines longer than buf are skipped whole, never misread.
 */
static int
proc_field(const char *path, const char *key, char *out, size_t outlen)
{
	FILE	*f;
	char	 line[512], *v, *end;
	size_t	 klen = strlen(key);
	int	 rc = -1;

	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, key, klen) != 0)
			continue;
		v = line + klen;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v++ != ':')
			continue;
		while (isspace((unsigned char)*v))
			v++;
		end = v + strlen(v);
		while (end > v && isspace((unsigned char)end[-1]))
			*--end = '\0';
		snprintf(out, outlen, "%s", v);
		rc = 0;
		break;
	}
	fclose(f);
	return rc;
}

static void
env_cpu(struct env *e)
{
	long	n;

	if (proc_field("/proc/cpuinfo", "model name", e->cpu_model,
	    sizeof(e->cpu_model)) == -1)
		set_str(e->cpu_model, sizeof(e->cpu_model), NULL);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	e->cores = n > 0 && n < 1 << 20 ? (int)n : 0;
}

static void
env_memory(struct env *e)
{
	char			 v[64], *end;
	unsigned long long	 kb;

	e->memory_bytes = 0;
	if (proc_field("/proc/meminfo", "MemTotal", v, sizeof(v)) == -1)
		return;
	kb = strtoull(v, &end, 10);
	if (end != v && kb < UINT64_MAX / 1024)	/* "16318412 kB" */
		e->memory_bytes = (uint64_t)kb * 1024;
}

static void
env_kernel(struct env *e)
{
	struct utsname	u;

	if (uname(&u) == -1) {
		set_str(e->kernel, sizeof(e->kernel), NULL);
		return;
	}
	/* A release string too long for the field is cut, which is fine. */
	snprintf(e->kernel, sizeof(e->kernel), "%.40s %.60s %.20s", u.sysname,
	    u.release, u.machine);
}

/* libxml2's runtime version is "20914" for 2.9.14. */
static void
env_libxml2(struct env *e)
{
	const char	*v = xmlParserVersion;
	long		 n;
	char		*end;

	if (v == NULL || (n = strtol(v, &end, 10)) <= 0 || *end != '\0') {
		set_str(e->libxml2, sizeof(e->libxml2), LIBXML_DOTTED_VERSION);
		return;
	}
	snprintf(e->libxml2, sizeof(e->libxml2), "%ld.%ld.%ld", n / 10000,
	    n / 100 % 100, n % 100);
}

static void
env_libraries(struct env *e)
{
	set_str(e->libevent, sizeof(e->libevent), event_get_version());
	set_str(e->openssl, sizeof(e->openssl),
	    OpenSSL_version(OPENSSL_VERSION));
	set_str(e->libssh, sizeof(e->libssh), ssh_version(0));
	env_libxml2(e);
	/* libyang 2 has no runtime version call: the headers built against. */
	set_str(e->libyang, sizeof(e->libyang), LY_VERSION);
}

void
env_collect(struct env *e)
{
	memset(e, 0, sizeof(*e));
	env_cpu(e);
	env_memory(e);
	env_kernel(e);
	env_libraries(e);
}
