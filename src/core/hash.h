/*
 * FNV-1a (Fowler, Noll, Vo), 32 bits: the one string and byte hash the
 * hand-kept tables of every protocol share.  Start from FNV_SEED (or a
 * seed mixed with it), feed bytes, reduce modulo the bucket count.
 */
#ifndef SBSIM_HASH_H
#define SBSIM_HASH_H

#include <stddef.h>
#include <stdint.h>

#define FNV_SEED	2166136261u
#define FNV_PRIME	16777619u

static inline uint32_t
fnv1a_bytes(uint32_t h, const void *p, size_t len)
{
	const uint8_t	*b = p;

	while (len-- > 0)
		h = (h ^ *b++) * FNV_PRIME;
	return h;
}

static inline uint32_t
fnv1a_str(uint32_t h, const char *s)
{
	for (; *s != '\0'; s++)
		h = (h ^ (uint8_t)*s) * FNV_PRIME;
	return h;
}

#endif
