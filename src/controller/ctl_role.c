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
#include "metrics.h"

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

int
ctl_role_check(const struct ctl_role *r, unsigned given,
    const struct ctl_env *env, char *err, size_t errlen)
{
	const char	*refused = NULL;

	if (r->needs_restconf != NULL && !env->restconf)
		refused = r->needs_restconf;
	else if (r->one_process != NULL && env->workers > 0)
		refused = r->one_process;
	if (refused != NULL) {
		snprintf(err, errlen, "%s", refused);
		return -1;
	}
	if (r->check == NULL)
		return 0;
	return r->check(r->cfg, given, env, err, errlen);
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

/* Role i's count now against the last tick's: a line at -v, the
 * comings and goings added up for the summary. */
static void
ctl_devlog_role(struct ctl_devlog *dl, size_t i, const struct ctl_role *r)
{
	uint64_t	up = r->devices_up(r->cfg), was = dl->up[i];

	if (up == was)
		return;
	if (up > was)
		dl->came[i] += up - was;
	else
		dl->left[i] += was - up;
	dl->up[i] = up;
	dl->changed = 1;
	log_info("%s: %llu %s up (%s%llu)", r->name, (unsigned long long)up,
	    r->devices, up > was ? "+" : "-", (unsigned long long)(up > was ?
	    up - was : was - up));
}

/* The summary line: every role that holds devices, on one line. */
static void
ctl_devlog_summary(struct ctl_devlog *dl, const struct ctl_role *const *roles,
    const int *on, size_t n, uint64_t now_ns)
{
	char	line[1024];
	size_t	i, used;
	int	first = 1;

	used = (size_t)snprintf(line, sizeof(line), "devices in the last %.0f "
	    "s:", secs_between(dl->last_ns, now_ns));
	for (i = 0; i < n && i < CTL_DEVLOG_ROLES; i++) {
		if (!on[i] || roles[i]->devices_up == NULL ||
		    used >= sizeof(line))
			continue;
		used += (size_t)snprintf(line + used, sizeof(line) - used,
		    "%s %s %llu %s up (+%llu -%llu)", first ? "" : ",",
		    roles[i]->name,
		    (unsigned long long)dl->up[i], roles[i]->devices,
		    (unsigned long long)dl->came[i],
		    (unsigned long long)dl->left[i]);
		dl->came[i] = dl->left[i] = 0;
		first = 0;
	}
	log_warnx("%s", line);
	dl->changed = 0;
	dl->last_ns = now_ns;
}

void
ctl_devlog_tick(struct ctl_devlog *dl, const struct ctl_role *const *roles,
    const int *on, size_t n, uint64_t now_ns)
{
	size_t	i;

	if (dl->last_ns == 0)
		dl->last_ns = now_ns;
	for (i = 0; i < n && i < CTL_DEVLOG_ROLES; i++)
		if (on[i] && roles[i]->devices_up != NULL)
			ctl_devlog_role(dl, i, roles[i]);
	if (dl->interval > 0 && dl->changed &&
	    secs_between(dl->last_ns, now_ns) >= dl->interval)
		ctl_devlog_summary(dl, roles, on, n, now_ns);
}
