/*
 * src/core/tcp_md5.c: the key table and its option parser, keys on
 * connecting and listening sockets over loopback (IPv4, IPv6, IPv4 to a
 * dual-stack listener), a wrong key's connect left unanswered, and the
 * kernel's counters read back.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include "check.h"
#include "tcp_md5.h"

static int
opt(struct tcp_md5_keys *k, const char *arg, char *err)
{
	return tcp_md5_opt("md5-password", arg, k, err, 256);
}

static void
test_parse(void)
{
	struct tcp_md5_keys	k;
	char			err[256], big[100], arg[32];
	const char		*key;
	int			i;

	memset(&k, 0, sizeof(k));
	CHECK(!tcp_md5_any(&k), "no key: none");
	CHECK(opt(&k, "all key", err) == 0, "a key for all");
	CHECK(opt(&k, "2-4=x", err) == 0 && opt(&k, "7=y", err) == 0 &&
	    opt(&k, "3-3=", err) == 0, "ranges");
	key = tcp_md5_key_of(&k, 0);
	CHECK(key != NULL && strcmp(key, "all key") == 0, "0: the key for all");
	key = tcp_md5_key_of(&k, 2);
	CHECK(key != NULL && strcmp(key, "x") == 0, "2: its range's");
	CHECK(tcp_md5_key_of(&k, 3) == NULL, "3: none (the later range wins)");
	key = tcp_md5_key_of(&k, 7);
	CHECK(key != NULL && strcmp(key, "y") == 0, "7: its own");
	CHECK(tcp_md5_any(&k), "some key");
	CHECK(opt(&k, "5-2=z", err) == -1 && strstr(err, "'5-2' is not a "
	    "range") != NULL, "a range backwards: %s", err);
	CHECK(opt(&k, "", err) == -1 && strstr(err, "empty key") != NULL,
	    "an empty key: %s", err);
	memset(big, 'k', 81);
	big[81] = '\0';
	CHECK(opt(&k, big, err) == -1 && strstr(err, "at most 80") != NULL,
	    "81 bytes: %s", err);
	big[80] = '\0';
	CHECK(opt(&k, big, err) == 0, "80 bytes");
	CHECK(opt(&k, "0-4294967295=12=34", err) == 0 &&
	    strcmp(tcp_md5_key_of(&k, 9), "12=34") == 0,
	    "a key that looks like a range, given for every device");
	for (i = (int)k.n; i < TCP_MD5_MAX_RANGES; i++) {
		snprintf(arg, sizeof(arg), "%d=k%d", i, i);
		if (opt(&k, arg, err) == -1)
			break;
	}
	CHECK(i == TCP_MD5_MAX_RANGES, "%d ranges taken", i);
	CHECK(opt(&k, "1=more", err) == -1 && strstr(err, "at most 64") !=
	    NULL, "one range more refused: %s", err);
	free(k.ranges);
}

/* A listener on addr (port 0) with key for every peer; its port.  -2
 * when the address cannot be bound (no IPv6), -1 when the key fails. */
static int
listener(int family, const char *addr, const char *key, uint16_t *port)
{
	struct sockaddr_storage	ss;
	socklen_t		len = sizeof(ss);
	int			fd, one = 1;

	memset(&ss, 0, sizeof(ss));
	ss.ss_family = family;
	if (family == AF_INET)
		inet_pton(AF_INET, addr,
		    &((struct sockaddr_in *)&ss)->sin_addr);
	else
		inet_pton(AF_INET6, addr,
		    &((struct sockaddr_in6 *)&ss)->sin6_addr);
	if ((fd = socket(family, SOCK_STREAM, 0)) == -1)
		return -2;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, family == AF_INET ?
	    sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6)) == -1) {
		close(fd);
		return -2;
	}
	if (listen(fd, 8) == -1 || tcp_md5_listen_any(fd, key) == -1 ||
	    getsockname(fd, (struct sockaddr *)&ss, &len) == -1) {
		close(fd);
		return -1;
	}
	*port = ntohs(family == AF_INET ?
	    ((struct sockaddr_in *)&ss)->sin_port :
	    ((struct sockaddr_in6 *)&ss)->sin6_port);
	return fd;
}

/* Connect to addr:port with key (NULL: none): 1 when connected within
 * ms, 0 when still unanswered, -1 on an error. */
static int
keyed_connect(int family, const char *addr, uint16_t port, const char *key,
    int ms)
{
	struct sockaddr_storage	ss;
	struct pollfd		pfd;
	int			fd, err = 0, rc;
	socklen_t		len = sizeof(err);

	memset(&ss, 0, sizeof(ss));
	ss.ss_family = family;
	if (family == AF_INET) {
		inet_pton(AF_INET, addr, &((struct sockaddr_in *)&ss)->sin_addr);
		((struct sockaddr_in *)&ss)->sin_port = htons(port);
	} else {
		inet_pton(AF_INET6, addr,
		    &((struct sockaddr_in6 *)&ss)->sin6_addr);
		((struct sockaddr_in6 *)&ss)->sin6_port = htons(port);
	}
	if ((fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK, 0)) == -1)
		return -1;
	if (key != NULL && tcp_md5_set(fd, (struct sockaddr *)&ss, -1,
	    key) == -1) {
		close(fd);
		return -1;
	}
	if (connect(fd, (struct sockaddr *)&ss, family == AF_INET ?
	    sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6)) == -1 &&
	    errno != EINPROGRESS) {
		close(fd);
		return -1;
	}
	pfd.fd = fd;
	pfd.events = POLLOUT;
	rc = poll(&pfd, 1, ms);
	if (rc == 1)
		getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
	close(fd);
	return rc == 0 ? 0 : err == 0 ? 1 : -1;
}

static void
test_ipv4(void)
{
	struct tcp_md5_kstats	a, b;
	uint16_t		port;
	int			l;
	char			err[256];

	if (tcp_md5_probe(err, sizeof(err)) == -1) {
		CHECK(0, "%s", err);
		return;
	}
	l = listener(AF_INET, "127.0.0.1", "unit key", &port);
	CHECK(l >= 0, "an IPv4 listener with a key");
	if (l < 0)
		return;
	CHECK(keyed_connect(AF_INET, "127.0.0.1", port, "unit key", 5000) == 1,
	    "the right key connects");
	CHECK(tcp_md5_kstats_read(&a) == 0, "the kernel's counters read");
	CHECK(keyed_connect(AF_INET, "127.0.0.1", port, "other key", 1500) ==
	    0, "another key goes unanswered");
	CHECK(keyed_connect(AF_INET, "127.0.0.1", port, NULL, 1500) == 0,
	    "no key goes unanswered");
	tcp_md5_kstats_read(&b);
	CHECK(b.failure > a.failure, "TCPMD5Failure grew: %llu to %llu",
	    (unsigned long long)a.failure, (unsigned long long)b.failure);
	CHECK(b.not_found > a.not_found, "TCPMD5NotFound grew");
	CHECK(strstr(tcp_md5_kstats_why(&a, &b), "with a wrong digest") !=
	    NULL, "said: %s", tcp_md5_kstats_why(&a, &b));
	CHECK(tcp_md5_kstats_why(&a, &a)[0] == '\0', "nothing grew: nothing");
	close(l);
}

static void
test_ipv6(void)
{
	uint16_t	port;
	int		l;

	l = listener(AF_INET6, "::", "six", &port);
	if (l == -2) {
		printf("ok - # SKIP no IPv6 listener: %s\n", strerror(errno));
		return;
	}
	CHECK(l >= 0, "a dual-stack listener with a key: %s",
	    l < 0 ? strerror(errno) : "");
	if (l < 0)
		return;
	CHECK(keyed_connect(AF_INET6, "::1", port, "six", 5000) == 1,
	    "IPv6 with the key connects");
	CHECK(keyed_connect(AF_INET, "127.0.0.1", port, "six", 5000) == 1,
	    "IPv4 to the dual-stack listener with the key connects");
	CHECK(keyed_connect(AF_INET6, "::1", port, "seven", 1500) == 0,
	    "IPv6 with another key goes unanswered");
	close(l);
}

static const struct check_case cases[] = {
	CASE(test_parse),
	CASE(test_ipv4),
	CASE(test_ipv6),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
