/*
 * The window of a sender-side phase (docs/report.md, "Phase windows"): it
 * opens when the first byte of its first item is sent on the wire and
 * ends when the controller's TCP has acknowledged every device's last
 * byte; not when the bytes were handed to the kernel.
 */
#ifndef SBSIM_TXACK_H
#define SBSIM_TXACK_H

#include <stddef.h>
#include <stdint.h>

struct bufferevent;
struct event;
struct phase;

/* Device i's connection and its txack_mark(), or NULL when it has none. */
typedef struct bufferevent *(*txack_bev_fn)(void *arg, size_t i,
	    uint64_t *mark);

struct txack {
	struct event	*ev;		/* the poll timer, while it runs */
	struct phase	*ph;		/* waiting for acknowledgments */
	txack_bev_fn	 bev;
	void		*arg;
	size_t		 n;
	size_t		 next;		/* devices before it are acknowledged */
	struct phase	*oph[2];	/* waiting for their first byte sent */
	int		 ofd;
	uint64_t	 omark;
};

/* The stream offset just past everything queued on bev so far:
 * acknowledged bytes, plus the socket's unsent and unacknowledged queue
 * (SIOCOUTQ), plus the output buffer. */
uint64_t txack_mark(struct bufferevent *);
/* The phases' first item is about to be queued on bev: they open when
 * its first byte is sent (a closed receive window may hold it). */
void	 txack_open(struct txack *, struct bufferevent *, struct phase *,
	    struct phase *also);
/* Every device queued its last item and took its mark: phase_acked(ph)
 * once each mark is acknowledged. */
void	 txack_wait(struct txack *, struct phase *, size_t n, txack_bev_fn,
	    void *arg);
void	 txack_cancel(struct txack *);

#endif
