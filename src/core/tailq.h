/*
 * What <sys/queue.h> lacks and the code repeated: emptying a tail queue,
 * handing each element to the function that frees it (which may not
 * touch the queue: the element is off it by then).
 */
#ifndef SBSIM_TAILQ_H
#define SBSIM_TAILQ_H

#include <sys/queue.h>

/* Every element of head, first to last, removed (by field) into var and
 * given to fn. */
#define TAILQ_DRAIN(head, var, field, fn) do {				\
	while (((var) = TAILQ_FIRST(head)) != NULL) {			\
		TAILQ_REMOVE(head, var, field);				\
		fn(var);						\
	}								\
} while (0)

#endif
