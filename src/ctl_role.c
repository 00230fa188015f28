/*
 * Whether a controller role runs (ctl_role.h): the rule controller.c
 * applies to every role, kept apart so that it can be tested.
 */
#include <stdio.h>
#include <string.h>

#include "ctl_role.h"
#include "ctl_workers.h"
#include "engine.h"
#include "log.h"

int	ctl_worker;

void
ctl_finished(const char *why)
{
	if (ctl_worker)
		ctl_wk_done();
	else
		engine_stop(why);
}

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

void
ctl_print_figures(const char *fmt, const uint64_t *v, size_t n)
{
	const char	*hash;
	size_t		 i = 0;

	while ((hash = strchr(fmt, '#')) != NULL) {
		if (i == n)
			fatalx("ctl_print_figures: more '#' than figures");
		printf("%.*s%llu", (int)(hash - fmt), fmt,
		    (unsigned long long)v[i++]);
		fmt = hash + 1;
	}
	if (i != n)
		fatalx("ctl_print_figures: fewer '#' than figures");
	fputs(fmt, stdout);
}
