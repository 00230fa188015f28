/*
 * The embedded controller's roles (ctl_role.h), each checked against the
 * rules controller.c relies on: every hook it calls is there, the rows
 * are well formed (one turns the role on, unless RESTCONF does, the others
 * carry CTL_GIVEN_OPT, a role's own bits start at CTL_GIVEN_ROLE, every
 * option has help), no long name or short key is taken twice across
 * roles, ctl_role_on() decides as the flags say, and check() takes the
 * command lines it must; and the summary line's printer.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "ctl_role.h"

#include "check.h"

/* Every role of the protocol list (ctl_role_table()). */
static const struct ctl_role *const *roles;
static size_t n_roles;

static int
is_note(const struct opt *o)
{
	return o->name[0] == '\0';
}

static void
test_hooks(void)
{
	const struct ctl_role	*r;
	size_t			 i;

	for (i = 0; i < n_roles; i++) {
		r = roles[i];
		/* title may be NULL: the rows go under the command's. */
		CHECK(r->name != NULL && r->rows != NULL && r->cfg != NULL,
		    "%s: name, rows, cfg", r->name);
		CHECK(r->defaults != NULL && r->start != NULL &&
		    r->stop != NULL, "%s: defaults, start, stop", r->name);
		CHECK(r->needs != NULL || r->rows[0].name == NULL,
		    "%s: a message for its options without it", r->name);
	}
}

/* The rows of one role: how many turn it on, and the first bad one. */
static const char *
rows_bad(const struct ctl_role *r, int *n_on)
{
	const struct opt	*o;
	unsigned		 own;

	*n_on = 0;
	for (o = r->rows; o->name != NULL; o++) {
		if (is_note(o))
			continue;
		if (o->help == NULL || o->help[0] == '\0')
			return o->name;
		if (o->mark & CTL_GIVEN_ON) {
			(*n_on)++;
			continue;
		}
		own = o->mark & ~(unsigned)(CTL_GIVEN_ON | CTL_GIVEN_OPT);
		if (!(o->mark & CTL_GIVEN_OPT) ||
		    (own != 0 && own < CTL_GIVEN_ROLE))
			return o->name;
	}
	return NULL;
}

static void
test_rows(void)
{
	const char	*bad;
	size_t		 i;
	int		 n_on;

	for (i = 0; i < n_roles; i++) {
		bad = rows_bad(roles[i], &n_on);
		CHECK(bad == NULL, "%s: every row with help and its marks (%s)",
		    roles[i]->name, bad != NULL ? bad : "all");
		CHECK(n_on == ((roles[i]->flags & CTL_ROLE_RESTCONF) ? 0 : 1),
		    "%s: one row turns it on, or RESTCONF does (%d)",
		    roles[i]->name, n_on);
	}
}

/* Rows from b on (to OPT_END) that take a's long name or short key. */
static size_t
clashes(const struct opt *a, const char *ra, const struct opt *b,
    const char *rb)
{
	size_t	n = 0;

	if (is_note(a))
		return 0;
	for (; b->name != NULL; b++) {
		if (is_note(b) || (strcmp(a->name, b->name) != 0 &&
		    (a->key == 0 || a->key != b->key)))
			continue;
		printf("# --%s (%s) and --%s (%s)\n", a->name, ra, b->name, rb);
		n++;
	}
	return n;
}

/* Every pair of option rows across the roles: no name, no key twice. */
static void
test_unique(void)
{
	const struct opt	*a;
	size_t			 i, j, dups = 0;

	for (i = 0; i < n_roles; i++)
		for (a = roles[i]->rows; a->name != NULL; a++) {
			dups += clashes(a, roles[i]->name, a + 1,
			    roles[i]->name);
			for (j = i + 1; j < n_roles; j++)
				dups += clashes(a, roles[i]->name,
				    roles[j]->rows, roles[j]->name);
		}
	CHECK(dups == 0, "no long name or short key in two rows: %zu", dups);
}

/* ctl_role_on() and then, for a role that runs, its check(). */
static int
check_role(const struct ctl_role *r, unsigned given, int restconf,
    int none_asked, char *err, size_t errlen)
{
	struct ctl_env	env = { restconf, none_asked };
	int		on;

	err[0] = '\0';
	r->defaults(r->cfg);
	if ((on = ctl_role_on(r, given, &env, err, errlen)) <= 0)
		return on;
	if (ctl_role_check(r, given, &env, err, errlen) == -1)
		return -1;
	return 1;
}

/* A role that runs in one process only is refused under --workers with
 * its one_process message, one that needs RESTCONF without it. */
static void
test_refusals(void)
{
	struct ctl_env	 env = { 1, 0, 2 };
	const struct ctl_role	*r;
	char		 err[256];
	size_t		 i, one = 0;

	for (i = 0; i < n_roles; i++) {
		r = roles[i];
		r->defaults(r->cfg);
		env.restconf = 1;
		err[0] = '\0';
		if (r->one_process != NULL) {
			one++;
			CHECK(ctl_role_check(r, CTL_GIVEN_ON, &env, err,
			    sizeof(err)) == -1 && strcmp(err,
			    r->one_process) == 0, "%s: workers: %s", r->name,
			    err);
		}
		env.restconf = 0;
		if (r->needs_restconf != NULL)
			CHECK(ctl_role_check(r, CTL_GIVEN_ON, &env, err,
			    sizeof(err)) == -1 && strcmp(err,
			    r->needs_restconf) == 0, "%s: no RESTCONF: %s",
			    r->name, err);
	}
	CHECK(one >= 3, "roles in one process only: %zu", one);
}

static void
test_check(void)
{
	const struct ctl_role	*r;
	char			 err[256];
	size_t			 i;
	int			 want;

	for (i = 0; i < n_roles; i++) {
		r = roles[i];
		want = (r->flags & CTL_ROLE_DEFAULT) ? 1 : 0;
		CHECK(check_role(r, 0, 0, 1, err, sizeof(err)) == want,
		    "%s: nothing asked: %s", r->name, err);
		want = (r->flags & CTL_ROLE_RESTCONF) ? 1 : 0;
		CHECK(check_role(r, 0, 1, 0, err, sizeof(err)) == want,
		    "%s: another role asked: %s", r->name, err);
		if (r->flags & CTL_ROLE_RESTCONF)
			continue;
		CHECK(check_role(r, CTL_GIVEN_ON, 1, 0, err, sizeof(err)) == 1,
		    "%s: asked for: %s", r->name, err);
		CHECK(check_role(r, CTL_GIVEN_OPT, 1, 0, err, sizeof(err)) ==
		    -1 && strcmp(err, r->needs) == 0,
		    "%s: its options alone: \"%s\"", r->name, err);
	}
}

/* What ctl_print_figures() writes on stdout, into out. */
static void
figures(char *out, size_t cap, const char *fmt, const uint64_t *v, size_t n)
{
	FILE	*tmp = tmpfile();
	int	 saved;
	size_t	 len;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(fileno(tmp), STDOUT_FILENO);
	ctl_print_figures(fmt, v, n);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(tmp);
	len = fread(out, 1, cap - 1, tmp);
	out[len] = '\0';
	fclose(tmp);
}

static void
test_figures(void)
{
	char	out[256];

	figures(out, sizeof(out), "x: # a, # b and # c\n",
	    (const uint64_t[]){ 1, 0, UINT64_MAX }, 3);
	CHECK(strcmp(out, "x: 1 a, 0 b and 18446744073709551615 c\n") == 0,
	    "each '#' is the next figure: \"%s\"", out);
	figures(out, sizeof(out), "#", (const uint64_t[]){ 7 }, 1);
	CHECK(strcmp(out, "7") == 0, "a '#' alone: \"%s\"", out);
	figures(out, sizeof(out), ", no figures", NULL, 0);
	CHECK(strcmp(out, ", no figures") == 0, "no '#': \"%s\"", out);
}

static const struct check_case cases[] = {
	CASE(test_hooks),
	CASE(test_rows),
	CASE(test_unique),
	CASE(test_check),
	CASE(test_refusals),
	CASE(test_figures),
};

int
main(int argc, char **argv)
{
	roles = ctl_role_table();
	for (n_roles = 0; roles[n_roles] != NULL; n_roles++)
		;
	return check_run(cases, argc, argv);
}
