/*
 * The window of a sender-side phase (docs/report.md, "Phase windows"): it
 * opens when the first byte of the devices' first items is sent on the
 * wire (the earliest of the devices' first writes) and ends when the
 * controller's TCP has acknowledged every device's last byte; not when
 * the bytes were handed to the kernel.  Both ends are the kernel's own
 * timestamps (SO_TIMESTAMPING: transmit, and acknowledgment of the last
 * write), read back from the sockets' error queues.
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
	uint64_t	  mark;		/* stream offset past its last item */
	uint64_t	  key0;		/* bytes acknowledged when it took it */
	uint64_t	  snd_at;	/* its first write's transmit time */
	uint64_t	  ack_at;	/* the acknowledgment of its mark */
	uint64_t	  drain_to;	/* stamped writes end before this */
	uint64_t	  since_ns;	/* in t->pending or t->draining */
	int		  fd;
	uint8_t		  open;		/* TXD_* in txack.c */
	uint8_t		  acking;	/* stamping the end */
	uint8_t		  draining;	/* in t->draining */
};

/* Device i's connection and part, or NULL when it has no connection. */
typedef struct bufferevent *(*txack_dev_fn)(void *arg, size_t i,
	    struct txack_dev **);

struct txack {
	struct event	 *ev;		/* the poll timer, while it runs */
	struct event	 *kev;		/* kev_fd: a stamp was queued */
	int		  kev_fd;	/* epoll of the stamping sockets (kev) */
	uint64_t	  poll_ns;	/* the timer's next interval */
	uint64_t	  eta_acked;	/* the waited-for device's acked bytes */
	uint64_t	  eta_at;	/* at this poll */
	size_t		  eta_dev;	/* which device (t->next) that was */
	struct phase	 *ph;		/* waiting for acknowledgments */
	txack_dev_fn	  dev;
	void		 *arg;
	size_t		  n;
	size_t		  next;		/* devices before it acknowledged */
	uint64_t	  end;		/* the latest acknowledgment so far */
	struct phase	 *oph[2];	/* the phases txack_open opens */
	uint64_t	  opened;	/* the earliest first write's time */
	struct txack_dev *pending;	/* written, timestamp not seen yet */
	struct txack_dev *draining;	/* stamps of writes still to come */
	int		  over;		/* the wait ended: no txack_all to come */
};

/* A device's first item of the phases is about to be queued on bev: its
 * first write's transmit time opens them, if the earliest so far. */
void	 txack_open(struct txack *, struct txack_dev *, struct bufferevent *,
	    struct phase *, struct phase *also);
/* A device has queued its last item of the phase on bev: the end is the
 * acknowledgment of its last byte (the stream offset, txack_dev.mark). */
void	 txack_last(struct txack_dev *, struct bufferevent *);
/* Every device queued its last item: phase_acked(ph) at the latest of
 * their acknowledgments, once each mark is acknowledged. */
void	 txack_wait(struct txack *, struct phase *, size_t n, txack_dev_fn,
	    void *arg);
void	 txack_cancel(struct txack *);

#endif
