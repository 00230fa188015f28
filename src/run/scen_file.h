/* A scenario file read before libyang parses it (src/run/scen_file.c). */
#ifndef SBSIM_SCEN_FILE_H
#define SBSIM_SCEN_FILE_H

#include <stddef.h>

/* The default of --max-scenario-size: far above any real scenario (16
 * groups of a few hundred words), far below what would hurt. */
#define SCEN_FILE_MAX	(16u << 20)

/* path's bytes, NUL-terminated, when it is a regular file of at most max
 * bytes; NULL with a message in err. */
char	*scen_file_read(const char *path, size_t max, size_t *len, char *err,
	    size_t errlen);
/* 0, or -1 with a message in err naming the entry that the file (JSON,
 * or XML when xml) has twice among its siblings. */
int	 scen_file_unique(const char *data, size_t len, int xml, char *err,
	    size_t errlen);

#endif
