/*
 * Minimal test helpers for the unit tests: each CHECK prints a TAP-like
 * line; check_done() returns the exit status (0 all passed, 1 otherwise)
 * for automake's parallel harness.
 */
#ifndef SBSIM_CHECK_H
#define SBSIM_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_n, check_failed;

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

static inline int
check_done(void)
{
	printf("1..%d\n", check_n);
	if (check_failed)
		printf("# %d of %d checks failed\n", check_failed, check_n);
	return check_failed ? 1 : 0;
}

#endif
