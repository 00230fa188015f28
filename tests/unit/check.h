/*
 * Minimal test helpers for the unit tests: each CHECK prints a TAP-like
 * line; check_done() returns the exit status for automake's parallel
 * harness (0 all passed, 1 otherwise, 77 when every check was skipped).
 *
 * A test program names its cases and lets check_run() pick them:
 *
 *	static const struct check_case cases[] = {
 *		CASE(test_url),
 *		CASE(test_helpers),
 *	};
 *
 *	int
 *	main(int argc, char **argv)
 *	{
 *		return check_run(cases, argc, argv);
 *	}
 *
 * CASE_AS(test_many, many_ipv4) names a wrapper that passes arguments.
 * With no argument every case runs, in order; "test_x url" (or
 * "test_x test_url") runs that case alone, several names run several.
 * An unknown name lists the cases on stderr and exits 2.
 */
#ifndef SBSIM_CHECK_H
#define SBSIM_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_n, check_failed, check_skipped;

struct check_case {
	const char	*name;
	void		(*fn)(void);
};

#define CASE(fn)	{ #fn, fn }
/* A case whose function takes arguments, through a wrapper fn. */
#define CASE_AS(name, fn)	{ #name, fn }
#define check_run(cases, argc, argv)					\
	check_run_cases((cases), sizeof(cases) / sizeof((cases)[0]),	\
	    (argc), (argv))

#define CHECK(cond, ...) do {						\
	check_n++;							\
	if (cond) {							\
		printf("ok %d - ", check_n);				\
	} else {							\
		check_failed++;						\
		printf("not ok %d - %s:%d: ", check_n, __FILE__, __LINE__); \
	}								\
	printf(__VA_ARGS__);						\
	printf("\n");							\
} while (0)

/* Compare a built buffer with an expected byte vector, dumping both. */
#define CHECK_BYTES(got, gotlen, want, wantlen, ...) do {		\
	int _eq = (gotlen) == (wantlen) &&				\
	    memcmp((got), (want), (wantlen)) == 0;			\
	CHECK(_eq, __VA_ARGS__);					\
	if (!_eq)							\
		check_dump((got), (gotlen), (want), (wantlen));		\
} while (0)

static inline void
check_dump(const void *g, size_t gl, const void *w, size_t wl)
{
	const unsigned char *gp = g, *wp = w;
	size_t i;

	printf("#  got %zu:", gl);
	for (i = 0; i < gl; i++)
		printf(" %02x", gp[i]);
	printf("\n# want %zu:", wl);
	for (i = 0; i < wl; i++)
		printf(" %02x", wp[i]);
	printf("\n");
}

/* Hex pairs separated by spaces into bytes, for byte vectors written out
 * field by field; anything else is a bug in the test (exit 2). */
static inline size_t
check_unhex(const char *s, uint8_t *dst, size_t cap)
{
	size_t		n = 0;
	unsigned	v;

	while (*s != '\0') {
		if (*s == ' ') {
			s++;
			continue;
		}
		if (sscanf(s, "%2x", &v) != 1 || n == cap) {
			fprintf(stderr, "bad vector at \"%s\"\n", s);
			exit(2);
		}
		dst[n++] = (uint8_t)v;
		s += 2;
	}
	return n;
}

/* A check that cannot be made here (no such facility): counted apart,
 * so that a program whose every check was skipped exits 77. */
#define CHECK_SKIP(...) do {						\
	check_n++;							\
	check_skipped++;						\
	printf("ok %d # SKIP ", check_n);				\
	printf(__VA_ARGS__);						\
	printf("\n");							\
} while (0)

static inline int
check_done(void)
{
	printf("1..%d\n", check_n);
	if (check_failed)
		printf("# %d of %d checks failed\n", check_failed, check_n);
	if (check_failed)
		return 1;
	return check_n > 0 && check_skipped == check_n ? 77 : 0;
}

/* A case's name as given ("url") or in full ("test_url"). */
static inline int
check_case_is(const struct check_case *c, const char *name)
{
	return strcmp(c->name, name) == 0 || (strncmp(c->name, "test_", 5)
	    == 0 && strcmp(c->name + 5, name) == 0);
}

static inline const struct check_case *
check_case_find(const struct check_case *cases, size_t n, const char *name)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (check_case_is(&cases[i], name))
			return &cases[i];
	return NULL;
}

/* Every case (no argument) or the ones named, then check_done(); 2 and
 * the list of cases for a name that is none. */
static inline int
check_run_cases(const struct check_case *cases, size_t n, int argc,
    char **argv)
{
	const struct check_case	*c;
	size_t			 i;
	int			 a;

	for (a = 1; a < argc; a++) {
		if (check_case_find(cases, n, argv[a]) != NULL)
			continue;
		fprintf(stderr, "%s: no case '%s'; the cases are:\n",
		    argv[0], argv[a]);
		for (i = 0; i < n; i++)
			fprintf(stderr, "  %s\n", cases[i].name);
		return 2;
	}
	for (i = 0; i < n && argc <= 1; i++) {
		printf("# %s\n", cases[i].name);
		cases[i].fn();
	}
	for (a = 1; a < argc; a++) {
		c = check_case_find(cases, n, argv[a]);
		printf("# %s\n", c->name);
		c->fn();
	}
	return check_done();
}

#endif
