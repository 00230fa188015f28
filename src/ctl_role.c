/*
 * Whether a controller role runs (ctl_role.h): the rule controller.c
 * applies to every role, kept apart so that it can be tested.
 */
#include <stdio.h>

#include "ctl_role.h"

int
ctl_role_on(const struct ctl_role *r, unsigned given,
    const struct ctl_env *env, char *err, size_t errlen)
{
	if ((given & CTL_GIVEN_ON) ||
	    ((r->flags & CTL_ROLE_DEFAULT) && env->none_asked) ||
	    ((r->flags & CTL_ROLE_RESTCONF) && env->restconf))
		return 1;
	if (given & CTL_GIVEN_OPT) {
		snprintf(err, errlen, "%s", r->needs != NULL ? r->needs :
		    "options given for a role that does not run");
		return -1;
	}
	return 0;
}
