/*
 * The environment a run was measured in, for the JSON report: numbers from
 * another machine or library version are not comparable.
 */
#ifndef SBSIM_ENV_H
#define SBSIM_ENV_H

#include <stdint.h>

struct env {
	char		cpu_model[128];
	int		cores;		/* online CPUs, 0 unknown */
	uint64_t	memory_bytes;	/* MemTotal, 0 unknown */
	char		kernel[128];	/* "Linux 6.1.0-18-amd64 x86_64" */
	char		libevent[32];
	char		openssl[64];
	char		libssh[32];
	char		libxml2[32];
	char		libyang[32];
};

/* Fill e; whatever cannot be read is "unknown" (or 0). Never fails. */
void	env_collect(struct env *e);

#endif
