/*
 * The end of a sender-side phase (docs/report.md, "Phase windows"): the
 * moment the controller's TCP has acknowledged every byte the devices
 * sent, not the moment the bytes were handed to the kernel.
 */
#ifndef SBSIM_TXACK_H
#define SBSIM_TXACK_H

#include <stddef.h>
#include <stdint.h>

struct bufferevent;
struct event;
struct evbuffer;
struct evbuffer_cb_entry;
struct phase;

/* Device i's connection and its txack_mark(), or NULL when it has none. */
typedef struct bufferevent *(*txack_bev_fn)(void *arg, size_t i,
	    uint64_t *mark);

struct txack {
	struct event	*ev;
	struct phase	*ph;
	txack_bev_fn	 bev;
	void		*arg;
	size_t		 n;
	size_t		 next;		/* devices before it are acknowledged */
	struct evbuffer_cb_entry *ocb;	/* txack_open's, until it fires */
	struct phase	*oph[2];
};

/* The count of acknowledged bytes at which everything queued on bev so
 * far is acknowledged: acknowledged now, plus the socket's unsent and
 * unacknowledged queue (SIOCOUTQ), plus the output buffer.  Taken when a
 * device queued its last item; later messages do not delay the phase. */
uint64_t txack_mark(struct bufferevent *);
/* Poll the n devices' connections on a short timer; phase_acked(ph) once
 * each has its mark acknowledged. */
void	 txack_wait(struct txack *, struct phase *, size_t n, txack_bev_fn,
	    void *arg);
void	 txack_cancel(struct txack *);
/* The phases' first item was queued on bev: their window opens when that
 * output first writes to the socket (the wire sees it then). */
void	 txack_open(struct txack *, struct bufferevent *, struct phase *,
	    struct phase *also);

#endif
