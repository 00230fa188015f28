/*
 * TCP-MD5 keys (RFC 2385) on sockets, by Linux's TCP_MD5SIG and
 * TCP_MD5SIG_EXT (a key for an address prefix), and the kernel's
 * counters of the segments it dropped for them (tcp_md5.h).
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "metrics.h"
#include "opt.h"
#include "tcp_md5.h"

static int	tcp_md5_given;	/* a key was set on some socket */
struct tcp_md5_tally	tcp_md5_tally;

/* "I=" or "I-J=" at the head of arg: the range and where the key
 * begins; NULL when arg is a bare key. */
static const char *
tcp_md5_range_head(const char *arg, uint64_t *first, uint64_t *last)
{
	char	*end;

	if (!isdigit((unsigned char)arg[0]))
		return NULL;
	*first = *last = strtoull(arg, &end, 10);
	if (*end == '-' && isdigit((unsigned char)end[1]))
		*last = strtoull(end + 1, &end, 10);
	return *end == '=' ? end + 1 : NULL;
}

int
tcp_md5_opt(const char *name, const char *arg, void *field, char *err,
    size_t errlen)
{
	struct tcp_md5_keys	*k = field;
	struct tcp_md5_range	*r;
	const char		*key;
	uint64_t		 first, last;

	key = tcp_md5_range_head(arg, &first, &last);
	if ((key != NULL ? strlen(key) : strlen(arg)) > TCP_MD5_KEY_MAX) {
		snprintf(err, errlen, "--%s: a key has at most %d bytes "
		    "(TCP_MD5SIG_MAXKEYLEN)", name, TCP_MD5_KEY_MAX);
		return -1;
	}
	if (key == NULL) {
		if (arg[0] == '\0') {
			snprintf(err, errlen, "--%s: an empty key (give "
			    "I-J= for no key on some devices)", name);
			return -1;
		}
		snprintf(k->all, sizeof(k->all), "%s", arg);
		return 0;
	}
	if (first > last || last > UINT32_MAX) {
		snprintf(err, errlen, "--%s: '%.*s' is not a range I-J of "
		    "device numbers (from 0, I <= J)", name,
		    (int)(key - 1 - arg), arg);
		return -1;
	}
	if (k->n == TCP_MD5_MAX_RANGES) {
		snprintf(err, errlen, "--%s: at most %d ranges", name,
		    TCP_MD5_MAX_RANGES);
		return -1;
	}
	k->ranges = xreallocarray(k->ranges, k->n + 1, sizeof(*k->ranges));
	r = &k->ranges[k->n++];
	r->first = (uint32_t)first;
	r->last = (uint32_t)last;
	snprintf(r->key, sizeof(r->key), "%s", key);
	return 0;
}

int
tcp_md5_show(const struct opt *o, const void *base, char *buf, size_t len)
{
	(void)o;
	(void)base;
	(void)buf;
	(void)len;
	return -1;
}

int
tcp_md5_any(const struct tcp_md5_keys *k)
{
	unsigned	i;

	if (k == NULL)
		return 0;
	if (k->all[0] != '\0')
		return 1;
	for (i = 0; i < k->n; i++)
		if (k->ranges[i].key[0] != '\0')
			return 1;
	return 0;
}

const char *
tcp_md5_key_of(const struct tcp_md5_keys *k, uint64_t i)
{
	unsigned	j;

	if (k == NULL)
		return NULL;
	for (j = k->n; j-- > 0; )
		if (i >= k->ranges[j].first && i <= k->ranges[j].last)
			return k->ranges[j].key[0] != '\0' ?
			    k->ranges[j].key : NULL;
	return k->all[0] != '\0' ? k->all : NULL;
}

int
tcp_md5_set(int fd, const struct sockaddr *peer, int prefixlen,
    const char *key)
{
	struct tcp_md5sig	sig;
	size_t			alen = peer->sa_family == AF_INET ?
				    sizeof(struct sockaddr_in) :
				    sizeof(struct sockaddr_in6);
	int			opt = TCP_MD5SIG;

	memset(&sig, 0, sizeof(sig));
	memcpy(&sig.tcpm_addr, peer, alen);
	/* The port is not part of the match; zero it all the same. */
	if (peer->sa_family == AF_INET)
		((struct sockaddr_in *)&sig.tcpm_addr)->sin_port = 0;
	else
		((struct sockaddr_in6 *)&sig.tcpm_addr)->sin6_port = 0;
	if (prefixlen >= 0) {
		opt = TCP_MD5SIG_EXT;
		sig.tcpm_flags = TCP_MD5SIG_FLAG_PREFIX;
		sig.tcpm_prefixlen = (uint8_t)prefixlen;
	}
	sig.tcpm_keylen = (uint16_t)strlen(key);
	memcpy(sig.tcpm_key, key, sig.tcpm_keylen);
	if (setsockopt(fd, IPPROTO_TCP, opt, &sig, sizeof(sig)) == -1)
		return -1;
	tcp_md5_given = 1;
	return 0;
}

int
tcp_md5_listen_any(int fd, const char *key)
{
	struct sockaddr_storage	ss;
	socklen_t		len = sizeof(ss);
	struct sockaddr_in6	mapped;

	if (getsockname(fd, (struct sockaddr *)&ss, &len) == -1)
		return -1;
	memset(&mapped, 0, sizeof(mapped));
	mapped.sin6_family = ss.ss_family;
	if (ss.ss_family == AF_INET) {
		memset(&ss, 0, sizeof(ss));
		ss.ss_family = AF_INET;
		return tcp_md5_set(fd, (struct sockaddr *)&ss, 0, key);
	}
	if (tcp_md5_set(fd, (struct sockaddr *)&mapped, 0, key) == -1)
		return -1;
	/* IPv4 peers of a dual-stack listener: an IPv4-mapped address,
	 * whose prefix length the kernel takes as IPv4's (0.0.0.0/0). */
	mapped.sin6_addr.s6_addr[10] = mapped.sin6_addr.s6_addr[11] = 0xff;
	return tcp_md5_set(fd, (struct sockaddr *)&mapped, 0, key);
}

int
tcp_md5_probe(char *err, size_t errlen)
{
	struct sockaddr_in	sin;
	int			fd, rc;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1) {
		snprintf(err, errlen, "TCP-MD5: socket: %s", strerror(errno));
		return -1;
	}
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rc = tcp_md5_set(fd, (struct sockaddr *)&sin, -1, "probe");
	if (rc == -1)
		snprintf(err, errlen, "TCP-MD5: the kernel refuses "
		    "TCP_MD5SIG (%s): it needs CONFIG_TCP_MD5SIG",
		    strerror(errno));
	close(fd);
	return rc;
}


/* The value under name in a header line and its values line of
 * /proc/net/netstat (both "TcpExt: ..."); whether it was there. */
static int
tcp_md5_kfield(const char *names, const char *values, const char *name,
    uint64_t *out)
{
	size_t	n = strlen(name);
	int	col = 0, want = -1;

	for (const char *p = names; *p != '\0'; p++)
		if (*p == ' ') {
			col++;
			if (strncmp(p + 1, name, n) == 0 &&
			    (p[1 + n] == ' ' || p[1 + n] == '\n' ||
			    p[1 + n] == '\0'))
				want = col;
		}
	if (want < 0)
		return 0;
	for (col = 0; *values != '\0' && col < want; values++)
		if (*values == ' ')
			col++;
	*out = strtoull(values, NULL, 10);
	return 1;
}

int
tcp_md5_kstats_read(struct tcp_md5_kstats *k)
{
	FILE	*f;
	char	*names = NULL, *values = NULL;
	size_t	 nlen = 0, vlen = 0;
	int	 rc = -1;

	memset(k, 0, sizeof(*k));
	k->connects = tcp_md5_tally.connects;
	k->unanswered = tcp_md5_tally.unanswered;
	if ((f = fopen("/proc/net/netstat", "r")) == NULL)
		return -1;
	while (getline(&names, &nlen, f) > 0 &&
	    getline(&values, &vlen, f) > 0) {
		if (strncmp(names, "TcpExt:", 7) != 0)
			continue;
		tcp_md5_kfield(names, values, "TCPMD5NotFound", &k->not_found);
		tcp_md5_kfield(names, values, "TCPMD5Unexpected",
		    &k->unexpected);
		tcp_md5_kfield(names, values, "TCPMD5Failure", &k->failure);
		rc = 0;
		break;
	}
	free(names);
	free(values);
	fclose(f);
	return rc;
}

const char *
tcp_md5_kstats_why(const struct tcp_md5_kstats *a,
    const struct tcp_md5_kstats *b)
{
	static const struct {
		size_t		 off;
		const char	*what;
	} kinds[] = {
		{ offsetof(struct tcp_md5_kstats, not_found), "without a "
		  "digest where a key was expected (a missing key)" },
		{ offsetof(struct tcp_md5_kstats, unexpected), "with a digest "
		  "where no key was set" },
		{ offsetof(struct tcp_md5_kstats, failure), "with a wrong "
		  "digest (another key)" },
	};
	static char	buf[320];
	uint64_t	x, y;
	size_t		i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		memcpy(&x, (const char *)a + kinds[i].off, sizeof(x));
		memcpy(&y, (const char *)b + kinds[i].off, sizeof(y));
		if (y > x && used < sizeof(buf))
			used += snprintf(buf + used, sizeof(buf) - used,
			    "%s%llu %s", used ? "; " : "",
			    (unsigned long long)(y - x), kinds[i].what);
	}
	return buf;
}

/*
 * Passive devices that only served took no connection while the kernel
 * dropped keyed segments: whoever came had another key or none.  That
 * is no "served whoever came" but a connect that never happened: the
 * run fails on it (its connect phase TIMEOUT, exit status 1).
 */
static void
tcp_md5_refused_served(struct metrics *m)
{
	struct phase	*ph = metrics_find_phase(m, "connect");

	log_warnx("TCP-MD5: the listening devices took no connection while "
	    "keyed segments were dropped: the peers have another key or "
	    "none");
	if (ph == NULL || ph->state != PHASE_PENDING)
		return;
	m->served = 0;
	phase_start(ph, m->end_ns);
	phase_end(ph, m->end_ns, PHASE_TIMEOUT);
}

void
tcp_md5_report(struct metrics *m, const struct tcp_md5_kstats *k0)
{
	struct tcp_md5_kstats	k;
	const char		*why;
	uint64_t		 unanswered;

	(void)tcp_md5_kstats_read(&k);
	why = tcp_md5_kstats_why(k0, &k);
	/* Without a key of ours, only devices never answered while the
	 * kernel dropped keyed segments: the peer wants a key (the host's
	 * other sessions count in the kernel's figures too). */
	if (!tcp_md5_given && (why[0] == '\0' ||
	    metrics_counter_value(m, "devices_unanswered") == 0))
		return;
	unanswered = k.unanswered - k0->unanswered;
	*metrics_counter(m, "md5_connects") = k.connects - k0->connects;
	*metrics_counter(m, "md5_unanswered") = unanswered;
	*metrics_counter(m, "kernel_md5_not_found") = k.not_found -
	    k0->not_found;
	*metrics_counter(m, "kernel_md5_unexpected") = k.unexpected -
	    k0->unexpected;
	*metrics_counter(m, "kernel_md5_failure") = k.failure - k0->failure;
	if (unanswered != 0)
		log_warnx("TCP-MD5: %llu connects with a key went unanswered: "
		    "the peer has another key or none (RFC 2385 drops such "
		    "segments without an answer)",
		    (unsigned long long)unanswered);
	if (why[0] != '\0')
		log_warnx("TCP-MD5: the kernel dropped segments during the "
		    "run: %s", why);
	if (why[0] != '\0' && m->served &&
	    metrics_counter_value(m, "served_connections") == 0)
		tcp_md5_refused_served(m);
}

int
tcp_md5_guard_listen(struct tcp_md5_guard *g, int fd, const char *key,
    char *err, size_t errlen)
{
	g->key = key != NULL && key[0] != '\0' ? key : NULL;
	if (g->key == NULL)
		return 0;
	if (tcp_md5_probe(err, errlen) == -1)
		return -1;
	(void)tcp_md5_kstats_read(&g->k0);
	if (tcp_md5_listen_any(fd, g->key) == -1) {
		snprintf(err, errlen, "%s: on the listener: %s", g->option,
		    strerror(errno));
		return -1;
	}
	log_info("%s: TCP-MD5 (RFC 2385) on the %s's listener for every %s",
	    g->log, g->role, g->peer);
	return 0;
}

void
tcp_md5_guard_stop(struct tcp_md5_guard *g)
{
	struct tcp_md5_kstats	k;
	const char		*why;

	if (g->key == NULL || tcp_md5_kstats_read(&k) == -1)
		return;
	g->key = NULL;
	why = tcp_md5_kstats_why(&g->k0, &k);
	if (why[0] != '\0')
		log_warnx("%s: TCP-MD5: the kernel dropped segments while the "
		    "%s ran (a %s with another key or none): %s", g->log,
		    g->role, g->peer, why);
}
