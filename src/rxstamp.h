/*
 * Reading a connection with the kernel's receive times (socket(7),
 * SO_TIMESTAMPNS): for a witness whose items are timed by their arrival
 * on the wire, not by when a busy loop got to them (docs/report.md,
 * "Phase windows").  The bufferevent keeps writing; rxstamp reads into
 * its input buffer and calls the protocol's callbacks as it would.
 */
#ifndef SBSIM_RXSTAMP_H
#define SBSIM_RXSTAMP_H

#include <stdint.h>

struct bufferevent;
struct event;

typedef void (*rxstamp_read_fn)(struct bufferevent *, void *);
typedef void (*rxstamp_event_fn)(struct bufferevent *, short, void *);

struct rxstamp {
	struct event		*ev;
	struct bufferevent	*bev;
	rxstamp_read_fn		 read;
	rxstamp_event_fn	 event;
	void			*arg;
	uint64_t		 last_ns;	/* clock_ns() of the last
						 * segment read */
};

void	 rxstamp_start(struct rxstamp *, struct bufferevent *,
	    rxstamp_read_fn, rxstamp_event_fn, void *arg);
void	 rxstamp_stop(struct rxstamp *);

#endif
