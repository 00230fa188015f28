/*
 * The controller's role table from the protocol list (ctl_role.h), in a
 * file of its own: what links the roles' machinery without the list (a
 * unit test) does not need the list.
 */
#include <stddef.h>

#include "ctl_role.h"
#include "log.h"
#include "protocol.h"

const struct ctl_role *const *
ctl_role_table(void)
{
	static const struct ctl_role	*table[CTL_DEVLOG_ROLES + 1];
	static size_t			 n;
	const struct ctl_role *const	*r;
	size_t				 i;

	if (n > 0)
		return table;
	for (i = 0; sbsim_protocols[i] != NULL; i++)
		for (r = sbsim_protocols[i]->roles; r != NULL && *r != NULL;
		    r++) {
			if (n == CTL_DEVLOG_ROLES)
				fatalx("more than %d controller roles",
				    CTL_DEVLOG_ROLES);
			table[n++] = *r;
		}
	table[n] = NULL;
	return table;
}
