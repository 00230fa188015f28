/*
 * uthash (Debian's uthash-dev), the one container library of the tables
 * that are not on a hot path.  Included through here so that running out
 * of memory inside a HASH_ADD ends the run as xmalloc() does, with a
 * message, rather than with uthash's bare exit(-1).
 */
#ifndef SBSIM_UT_H
#define SBSIM_UT_H

#include "log.h"

#define uthash_fatal(msg)	fatalx("uthash: %s", (msg))
#include <uthash.h>

/* Remove every entry of the table head (an lvalue, its handle named hh)
 * and free it: for entries that own no other memory. */
#define UT_FREE_ALL(head)	do {					\
	__typeof__(head)	ut_e_, ut_tmp_;				\
									\
	HASH_ITER(hh, head, ut_e_, ut_tmp_) {				\
		HASH_DEL(head, ut_e_);					\
		free(ut_e_);						\
	}								\
} while (0)

#endif
