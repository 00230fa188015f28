/*
 * TCP-MD5 (RFC 2385) through Linux's TCP_MD5SIG socket option, for any
 * protocol whose sessions carry it: a table of keys by device number
 * (one for all, ranges over it), the socket calls that give a key to a
 * connecting socket (for its peer's address) or to a listening one (for
 * every address of its family, or a prefix), and the kernel's TcpExt
 * counters that say why keyed segments were dropped.
 *
 * RFC 2385 section 2.0: a segment whose digest is missing or wrong is
 * dropped without an answer, so a wrong key never fails a connect: it
 * goes unanswered until a timeout.  The pool counts such connects
 * (pool.h, md5_unanswered) and the run reports the kernel's counters.
 */
#ifndef SBSIM_TCP_MD5_H
#define SBSIM_TCP_MD5_H

#include <sys/socket.h>

#include <stddef.h>
#include <stdint.h>

#define TCP_MD5_KEY_MAX		80	/* TCP_MD5SIG_MAXKEYLEN */
#define TCP_MD5_MAX_RANGES	64	/* --md5-password I-J=P at most */

struct tcp_md5_range {
	uint32_t	first, last;	/* device numbers, inclusive */
	char		key[TCP_MD5_KEY_MAX + 1];	/* "": no key */
};

/* Which key each device uses: the last range that holds its number,
 * else the key for all (none when all[0] is 0). */
struct tcp_md5_keys {
	char			 all[TCP_MD5_KEY_MAX + 1];
	struct tcp_md5_range	*ranges;
	unsigned		 n;
};

/*
 * An option's parser (OPT_P, repeatable) into a struct tcp_md5_keys:
 * "P" is every device's key; "I=P" or "I-J=P" (device numbers from 0)
 * the key of those, later ranges winning over earlier ones; "I-J=" none
 * for them.  0, or -1 with "--NAME: ..." in err.
 */
int	 tcp_md5_opt(const char *name, const char *arg, void *keys,
	    char *err, size_t errlen);
/* Its .show: -1 (no default). */
struct opt;
int	 tcp_md5_show(const struct opt *, const void *base, char *buf,
	    size_t len);
/* Whether any key is set at all. */
int	 tcp_md5_any(const struct tcp_md5_keys *);
/* Device i's key, NULL for none. */
const char *tcp_md5_key_of(const struct tcp_md5_keys *, uint64_t i);

/*
 * Give fd the key for segments to and from the addresses of peer's
 * family that share its first prefixlen bits (the whole address: -1);
 * a connecting socket before connect(), a listening one for each peer
 * or range it expects (its accepted sockets inherit the keys).  0, or
 * -1 with errno (ENOPROTOOPT: a kernel without CONFIG_TCP_MD5SIG).
 */
int	 tcp_md5_set(int fd, const struct sockaddr *peer, int prefixlen,
	    const char *key);
/* A listening socket's key for every peer: every address of its family
 * (an IPv6 socket also IPv4's, which reach it IPv4-mapped). */
int	 tcp_md5_listen_any(int fd, const char *key);
/* Whether this kernel takes TCP_MD5SIG: 0, or -1 with the reason. */
int	 tcp_md5_probe(char *err, size_t errlen);

/*
 * The kernel's TcpExt counters of dropped keyed segments
 * (/proc/net/netstat; the whole network namespace, so other sessions
 * of the host count too): a segment without a digest where a key was
 * expected, one with a digest where none was, one whose digest is
 * wrong.
 */
struct tcp_md5_kstats {
	uint64_t	not_found;	/* TCPMD5NotFound */
	uint64_t	unexpected;	/* TCPMD5Unexpected */
	uint64_t	failure;	/* TCPMD5Failure */
	/* This process's own, from tcp_md5_tally (not the kernel's). */
	uint64_t	connects, unanswered;
};
/*
 * What the process's connecting sockets saw, over every pool (pool.c
 * adds to it): connects that carried a key, and those of them never
 * answered (timed out, or still waiting past the first SYN's
 * retransmission when the run stopped).
 */
struct tcp_md5_tally {
	uint64_t	connects;
	uint64_t	unanswered;
};
extern struct tcp_md5_tally tcp_md5_tally;
/* 0, or -1 when the file cannot be read (the kernel's stay 0); the
 * tally's copied in either way. */
int	 tcp_md5_kstats_read(struct tcp_md5_kstats *);
/* The kind of drop the counters' growth from a to b says, one line
 * (static storage), "" when they did not grow. */
const char *tcp_md5_kstats_why(const struct tcp_md5_kstats *a,
	    const struct tcp_md5_kstats *b);
/*
 * At a run's end, when some socket had a key: the growth since k0 (the
 * run's start) into the counters md5_connects, md5_unanswered,
 * kernel_md5_not_found, kernel_md5_unexpected and kernel_md5_failure,
 * and a warning that says what a failure was (connects unanswered, the
 * kind of drops).  A run whose listening devices only served and took
 * no connection while keyed segments were dropped fails: its connect
 * phase times out.
 */
struct metrics;
void	 tcp_md5_report(struct metrics *, const struct tcp_md5_kstats *k0);

/*
 * A controller role's keyed listener: the key on it for every address,
 * the kernel's counters at the start, and at the stop a warning of what
 * the kernel dropped while the role ran.  The names are the caller's:
 * log prefix, option, the role ("speaker") and what connects ("peer").
 */
struct tcp_md5_guard {
	const char		*log;
	const char		*option;
	const char		*role;
	const char		*peer;
	const char		*key;		/* NULL: none (after stop too) */
	struct tcp_md5_kstats	 k0;
};
/* 0 (nothing to do without a key), or -1 with err. */
int	 tcp_md5_guard_listen(struct tcp_md5_guard *, int fd, const char *key,
	    char *err, size_t errlen);
void	 tcp_md5_guard_stop(struct tcp_md5_guard *);

#endif
