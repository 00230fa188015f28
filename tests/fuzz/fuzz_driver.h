/*
 * The plain driver of a libFuzzer harness (not built with
 * -fsanitize=fuzzer): run LLVMFuzzerTestOneInput once on each file named,
 * as make check does over the seed corpus, and FZ_CHECK, a property that
 * aborts (so libFuzzer keeps the input) when it does not hold.  Every
 * harness includes it.
 */
#ifndef SBSIM_FUZZ_DRIVER_H
#define SBSIM_FUZZ_DRIVER_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define FZ_CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "%s:%d: property failed: %s\n",	\
		    __FILE__, __LINE__, #cond);				\
		abort();						\
	}								\
} while (0)

/* A private copy of exactly n bytes, so ASan sees over-reads. */
static inline void
fuzz_run(const uint8_t *p, size_t n)
{
	uint8_t	*copy = malloc(n ? n : 1);

	if (copy == NULL)
		abort();
	memcpy(copy, p, n);
	LLVMFuzzerTestOneInput(copy, n);
	free(copy);
}

/* The self-test of a harness built without libFuzzer: every prefix of a
 * seed, then every one-byte mutation of it (four bit patterns flipped in
 * each byte); the number of inputs run. */
static inline size_t
fuzz_mutations(const uint8_t *seed, size_t len)
{
	static const uint8_t	 flips[] = { 0x01, 0x20, 0x80, 0xff };
	uint8_t			*m = malloc(len ? len : 1);
	size_t			 i, k, runs = 0;

	if (m == NULL)
		abort();
	for (i = 0; i <= len; i++, runs++)
		fuzz_run(seed, i);
	for (i = 0; i < len; i++)
		for (k = 0; k < sizeof(flips); k++, runs++) {
			memcpy(m, seed, len);
			m[i] ^= flips[k];
			fuzz_run(m, len);
		}
	free(m);
	return runs;
}

/* 0 once run, -1 when the file cannot be read (or is over 1 MiB). */
static inline int
fuzz_run_file(const char *path)
{
	static uint8_t	buf[1 << 20];
	FILE		*fp;
	size_t		 n;

	if ((fp = fopen(path, "rb")) == NULL) {
		perror(path);
		return -1;
	}
	n = fread(buf, 1, sizeof(buf), fp);
	if (ferror(fp) || !feof(fp)) {
		fprintf(stderr, "%s: read error or larger than %zu bytes\n",
		    path, sizeof(buf));
		fclose(fp);
		return -1;
	}
	fclose(fp);
	fuzz_run(buf, n);
	return 0;
}

/* Every file of argv[1..]: the exit status (1 when one was unreadable). */
static inline int
fuzz_run_files(int argc, char **argv)
{
	int	i, bad = 0;

	for (i = 1; i < argc; i++)
		if (fuzz_run_file(argv[i]) != 0)
			bad++;
	printf("%d inputs run, %d unreadable\n", argc - 1, bad);
	return bad ? 1 : 0;
}

#endif
