/*
 * The protocol list's look-ups (protocol.h).
 */
#include <stdio.h>
#include <string.h>

#include "protocol.h"

const struct sbsim_protocol *
sbsim_protocol_find(const char *name)
{
	size_t	i;

	for (i = 0; sbsim_protocols[i] != NULL; i++)
		if (strcmp(name, sbsim_protocols[i]->cmd->name) == 0)
			return sbsim_protocols[i];
	return NULL;
}

const char *
sbsim_protocol_names(const char *sep, char *buf, size_t len)
{
	size_t	i, at = 0;
	int	n;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	for (i = 0; sbsim_protocols[i] != NULL && at < len; i++) {
		n = snprintf(buf + at, len - at, "%s%s", i > 0 ? sep : "",
		    sbsim_protocols[i]->cmd->name);
		if (n < 0)
			break;
		at += (size_t)n;
	}
	return buf;
}
