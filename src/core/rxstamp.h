/*
 * Reading a connection with the kernel's receive times (socket(7),
 * SO_TIMESTAMPNS): for a witness whose items are timed by their arrival
 * on the wire, not by when a busy loop got to them (docs/report.md,
 * "Phase windows").  The bufferevent keeps writing; rxstamp reads into
 * its input buffer and calls the protocol's callbacks as it would.
 */
#ifndef SBSIM_RXSTAMP_H
#define SBSIM_RXSTAMP_H

#include <sys/types.h>

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

/* The kernel's receive times on fd's reads from now on (SO_TIMESTAMPNS). */
void	 rxstamp_on(int fd);
/*
 * One recv(2) of up to len bytes that also tells, in *ns, the receive
 * time of the oldest segment it read (fd stamped with rxstamp_on; now
 * when the kernel gave none).  -1 with errno, 0 at EOF, as recv(2).
 */
ssize_t	 rxstamp_read_first(int fd, uint8_t *buf, size_t len, uint64_t *ns);
/* len bytes read by hand into bev's input; -1: no memory. */
int	 rxstamp_input_add(struct bufferevent *, const void *, size_t);

/*
 * A one-shot stamp of when the next data arrived on a connection that a
 * bufferevent reads: an event of the loop's first priority peeks
 * (MSG_PEEK) the receive time of the oldest unread segment before the
 * bufferevent reads it.  Armed only while a phase waits for its first
 * item (its window opens at that item's arrival): never on a hot path.
 */
struct rxpeek {
	struct event	*ev;
	struct event	*rearm;		/* after a wakeup with no data */
	uint64_t	 ns;		/* the stamp, 0: none since armed */
};

void	 rxpeek_arm(struct rxpeek *, int fd);
/* The stamp of the read in hand, or now when there is none. */
uint64_t rxpeek_take(struct rxpeek *, uint64_t now);
void	 rxpeek_stop(struct rxpeek *);

#endif
