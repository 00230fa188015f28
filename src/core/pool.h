/*
 * The device pool: how simulated devices reach the controller.
 *
 * Active devices connect at a set rate from their own source address, with
 * at most max_inflight connects under way; when a connection fails or drops,
 * the device tries again after an exponential backoff with jitter, and the
 * others carry on.  Passive devices each listen on a port of their own
 * (PORT+i), or with a source range on the i-th address of the range at
 * PORT, and take one connection at a time (a newer one replaces it).
 * With share_listener, devices on a source range share one listener on
 * the wildcard address instead, each connection going to the device
 * whose address it reached.  The protocol sees a connected bufferevent
 * through up() and hands it back through pool_lost().
 */
#ifndef SBSIM_POOL_H
#define SBSIM_POOL_H

#include <stdint.h>

#include <openssl/ssl.h>

#include "endpoint.h"

struct bufferevent;
struct evconnlistener;
struct event;
struct fault_hold;
struct fault_set;
struct pool;
struct tcp_md5_keys;

enum pool_dev_state {
	PD_IDLE,		/* waiting for its turn in the ramp */
	PD_CONNECTING,
	PD_UP,
	PD_BACKOFF,		/* waiting to try again */
	PD_LISTENING,
	PD_STOPPED,
};

struct pool_dev {
	struct pool		*pool;
	uint32_t		 index;
	uint8_t			 state;		/* enum pool_dev_state */
	uint8_t			 attempts;	/* failures since last up */
	uint8_t			 why_down;	/* enum pool_why, since up */
	struct bufferevent	*bev;
	struct evconnlistener	*listener;
	struct event		*retry;		/* made on first backoff */
	uint64_t		 attempt_ns;	/* when this attempt began */
	uint64_t		 fault_ns;	/* dropped by a fault, 0: not */
	struct fault_set	*fault_set;	/* whose fault dropped it */
	struct fault_hold	*fault_hold;	/* --fault delay, NULL: none */
};

/* What a protocol's devices do with their connections; NULL when the
 * configuration's up_fd takes every connection instead. */
struct pool_ops {
	/* Connected (and TLS handshake done); set callbacks on bev. */
	void		 (*up)(struct pool_dev *, struct bufferevent *);
	/* The connection is gone; the pool has freed the bufferevent. */
	void		 (*down)(struct pool_dev *, const char *why);
	/* Who is at the other end, for messages: "the PCE". */
	const char	*peer;
};

struct pool_config {
	struct endpoint		 ep;
	struct source_range	 src;		/* family AF_UNSPEC: none */
	double			 connect_rate;	/* per second, 0: no limit */
	unsigned		 max_inflight;
	unsigned		 connect_timeout_ms;	/* 0: the kernel's */
	unsigned		 backoff_min_ms;
	unsigned		 backoff_max_ms;
	int			 reconnect;	/* try again after a drop */
	/* The first device's number in the whole run (--shard): device i
	 * takes source address (or ptcp: port) index_base + i, so that the
	 * shards of a run use disjoint ones. */
	uint32_t		 index_base;
	SSL_CTX			*ssl;		/* for ssl: */
	/*
	 * Optional, passive only: when set, each accepted connection's
	 * (non-blocking) descriptor is handed over instead of a
	 * bufferevent, and the protocol owns it from then on: it may hold
	 * several connections per device (sessions, SSH through
	 * libssh), closes them itself and never calls pool_lost(); the
	 * device stays PD_LISTENING and ops->up() is not called.
	 */
	void			(*up_fd)(struct pool_dev *, int fd);
	/*
	 * Passive with a source range: one listener on the wildcard
	 * address at PORT serves every device, which is found from the
	 * accepted connection's local address; one on an address that is
	 * no device's is reset and counted (no_device).  A descriptor for
	 * all instead of one per device.  When the wildcard address is
	 * taken on PORT, each device listens on its own as without it.
	 */
	int			 share_listener;
	/*
	 * TCP-MD5 (RFC 2385), NULL: none.  Device i's key (tcp_md5_key_of()
	 * of index_base + i) goes on its socket for the endpoint's address
	 * before connect(), or on its listener for every address; a shared
	 * listener serves only devices that all have one key.  Keyed
	 * connects, and those never answered, are tallied in tcp_md5.h.
	 */
	const struct tcp_md5_keys *md5;
};

struct pool_stats {
	uint64_t	attempts;
	uint64_t	failures;	/* connects that did not succeed */
	uint64_t	timeouts;	/* of them: not done in connect_timeout_ms */
	uint64_t	drops;		/* established connections lost */
	uint64_t	replaced;	/* passive: a newer connection won */
	uint64_t	bind_errors;
	uint64_t	no_device;	/* shared listener: to no device */
};

struct pool {
	struct pool_config	 cfg;
	const struct pool_ops	*ops;
	struct pool_dev		**devs;
	uint32_t		 n_devs;
	uint32_t		 cursor;	/* next device in the ramp */
	uint32_t		 inflight;
	double			 credit;
	struct event		*ramp;
	uint64_t		 ramp_last_ns;
	struct pool_stats	 stats;
	int			 stopped;
	int			 own_devs;	/* pool_init_array's */
	struct evconnlistener	*shared;	/* share_listener, or NULL */
	uint32_t		 listeners;	/* listening sockets held */
};

/* Fill defaults (no rate limit, 256 in flight, a connect given 10 s,
 * 100 ms .. 5 s backoff). */
void	 pool_config_defaults(struct pool_config *);
void	 pool_init(struct pool *, const struct pool_config *,
	    const struct pool_ops *, struct pool_dev **devs, uint32_t n);
/* The same over an array of n device structs of dev_size bytes, each with
 * its struct pool_dev at pd_off: the pool keeps the pointers itself, and
 * pool_free() lets them go. */
void	 pool_init_array(struct pool *, const struct pool_config *,
	    const struct pool_ops *, void *devs, size_t dev_size,
	    size_t pd_off, uint32_t n);
void	 pool_free(struct pool *);
/* How many devices of all pools (initialized, not yet freed) are in each
 * state now; and a state's name ("up"). */
void	 pool_count_states(uint64_t n[PD_STOPPED + 1]);
const char *pool_state_name(enum pool_dev_state);
/*
 * Why a connecting device is not up: its last try was refused
 * (ECONNREFUSED), closed by the peer (EOF or a reset once connected), or
 * never answered (the connect timed out, or failed otherwise).  Kept
 * from the failure until the device is up again; pool_count_why() counts
 * the devices of every pool by it (the run says it without -v).
 */
enum pool_why {
	POOL_WHY_NONE,
	POOL_WHY_REFUSED,
	POOL_WHY_PEER_CLOSED,
	POOL_WHY_UNANSWERED,
	POOL_WHY_N
};
void	 pool_count_why(uint64_t n[POOL_WHY_N]);
/* Connections the passive devices of every pool accepted so far. */
uint64_t pool_accepted(void);
/* Begin: listen on every port, or start the connect ramp. */
int	 pool_start(struct pool *, char *err, size_t errlen);
/*
 * One pool per controller: pools[k], configured by cfgs[k], over the k-th
 * slice of per devices of the array (as pool_init_array()), for each k
 * below n; then each started.  0, or -1 with the reason in err.
 */
int	 pool_start_sliced(struct pool *pools, const struct pool_config *cfgs,
	    unsigned n, const struct pool_ops *, void *devs, size_t dev_size,
	    size_t pd_off, uint32_t per, char *err, size_t errlen);
/* The protocol is done with this connection (error, EOF, fatal error). */
void	 pool_lost(struct pool_dev *, const char *why);
/* The same once the output is written: a closing session's last words
 * (a NOTIFICATION, a CLOSE) reach the peer first.  From the write
 * callback; nothing while bytes remain. */
void	 pool_lost_drained(struct pool_dev *, const char *why);

/*
 * Who watches the devices for the faults (fault.c, which sets it when it
 * first drops or delays one): up() when a device a fault dropped
 * (fault_ns) is up again, closing() when a device's connection goes.
 * The pool knows no more of faults than these calls and the fields of
 * struct pool_dev that fault.c keeps, so that fault.c uses the pool and
 * the pool never fault.c.
 */
struct pool_watch {
	void	(*up)(struct pool_dev *, uint64_t now_ns);
	void	(*closing)(struct pool_dev *);
};
void	 pool_watch_set(const struct pool_watch *);
/*
 * The device skeleton every protocol's connection shares.
 *
 * pool_bev_event: every device's bufferevent event callback; arg is the
 * device, whose first member is its struct pool_dev.  EOF or an error
 * loses the connection, telling who closed it from pool_ops.peer ("the
 * PCE closed the connection").
 */
void	 pool_bev_event(struct bufferevent *, short what, void *dev);

/*
 * A length-prefixed protocol's reader (most of them): whole
 * messages out of a bufferevent's input, with the back-pressure rule.
 * A protocol whose messages carry no length (bare JSON values) gives
 * scan instead of hdr_len and length.
 */
struct evbuffer;
struct pool_framer {
	size_t	hdr_len;	/* bytes that tell a message's length */
	/* The whole message's length from its first hdr_len bytes, at
	 * least hdr_len; -1 when the header is bad (the protocol has
	 * answered with its own error and may have ended the session). */
	long	(*length)(void *dev, const uint8_t *hdr);
	/* Non-zero while the device's output is too full to take what a
	 * message would make it say: reading stops (EV_READ off) until its
	 * write callback, once drained, calls pool_read_resume(). */
	int	(*out_full)(void *dev);
	/* One whole message; -1 once the session is over and bev gone. */
	int	(*message)(void *dev, const uint8_t *msg, size_t len);
	/* Or: the length of the whole message at the head of the input
	 * (not empty), 0 while it is not all there, -1 as length. */
	long	(*scan)(void *dev, struct evbuffer *in);
};
/* Every whole message in bev's input, in order; -1 when the session
 * ended on the way (bev is then gone), else 0. */
int	 pool_read(struct bufferevent *, const struct pool_framer *,
	    void *dev);
/* After back-pressure: reading on again and what is queued read now; as
 * pool_read. */
int	 pool_read_resume(struct bufferevent *, const struct pool_framer *,
	    void *dev);

/* pool_stop(), then its figures into the run's counters connect_attempts,
 * connect_failures, connect_timeouts and passive_replaced
 * (docs/report.md). */
struct metrics;
void	 pool_stop_counted(struct pool *, struct metrics *);
/* The same for an array of n pools (a device per controller): the
 * counters are their sum. */
void	 pool_stop_all_counted(struct pool *, unsigned n, struct metrics *);
/* The pieces of it, for pools not in one array: each pool's figures
 * added into sum, then sum into the counters. */
void	 pool_stats_add(struct pool_stats *sum, const struct pool *);
void	 pool_stats_counted(const struct pool_stats *, struct metrics *);

/* Close everything; no more reconnects. */
void	 pool_stop(struct pool *);
/* Descriptors n devices of this configuration need at most. */
uint32_t pool_fds_needed(const struct pool_config *, uint32_t n_devs);
/* Create an SSL_CTX for ssl: with optional key, certificate and CA. */
SSL_CTX	*pool_ssl_ctx(const char *key, const char *cert, const char *ca,
	    char *err, size_t errlen);
/* The same for pssl: (devices that listen): key and certificate needed;
 * with a CA, clients must show a certificate it signs. */
SSL_CTX	*pool_ssl_server_ctx(const char *key, const char *cert,
	    const char *ca, char *err, size_t errlen);

#endif
