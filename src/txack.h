/*
 * The window of a sender-side phase (docs/report.md, "Phase windows"): it
 * opens when the first byte of the devices' first items is sent on the
 * wire (the earliest of the devices' first writes) and ends when the
 * controller's TCP has acknowledged every device's last byte; not when
 * the bytes were handed to the kernel.
 */
#ifndef SBSIM_TXACK_H
#define SBSIM_TXACK_H

#include <stddef.h>
#include <stdint.h>

struct bufferevent;
struct event;
struct phase;
struct txack;

/* One device's part, in the device's own struct. */
struct txack_dev {
	struct txack	 *t;
	struct txack_dev *next;		/* in t->pending */
	uint64_t	  mark;		/* txack_mark() at its last item */
	int		  fd;
	uint8_t		  state;	/* TXD_* in txack.c */
};

/* Device i's connection and part, or NULL when it has no connection. */
typedef struct bufferevent *(*txack_dev_fn)(void *arg, size_t i,
	    struct txack_dev **);

struct txack {
	struct event	 *ev;		/* the poll timer, while it runs */
	struct phase	 *ph;		/* waiting for acknowledgments */
	txack_dev_fn	  dev;
	void		 *arg;
	size_t		  n;
	size_t		  next;		/* devices before it acknowledged */
	struct phase	 *oph[2];	/* the phases txack_open opens */
	uint64_t	  opened;	/* the earliest first write's time */
	struct txack_dev *pending;	/* written, timestamp not seen yet */
};

/* The stream offset just past everything queued on bev so far:
 * acknowledged bytes, plus the socket's unsent and unacknowledged queue
 * (SIOCOUTQ), plus the output buffer. */
uint64_t txack_mark(struct bufferevent *);
/* A device's first item of the phases is about to be queued on bev: its
 * first write's transmit time opens them, if the earliest so far. */
void	 txack_open(struct txack *, struct txack_dev *, struct bufferevent *,
	    struct phase *, struct phase *also);
/* Every device queued its last item and took its mark: phase_acked(ph)
 * once each mark is acknowledged. */
void	 txack_wait(struct txack *, struct phase *, size_t n, txack_dev_fn,
	    void *arg);
void	 txack_cancel(struct txack *);

#endif
