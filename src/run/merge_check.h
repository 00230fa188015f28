/* The numbers of a report, checked before sbsim merge adds them
 * (src/run/merge_check.c). */
#ifndef SBSIM_MERGE_CHECK_H
#define SBSIM_MERGE_CHECK_H

#include <stddef.h>

#include <jansson.h>

/* 0 when every number merge reads in report r (read from path) has its
 * type and range; -1 with "PATH: phase 'P': FIELD: VALUE is not ..." in
 * err otherwise. */
int	merge_check_numbers(const json_t *r, const char *path, char *err,
	    size_t errlen);

#endif
