#include <arpa/inet.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "endpoint.h"
#include "opt.h"

static int
parse_port(const char *s, uint16_t *port)
{
	char		*end;
	unsigned long	 v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v == 0 || v > 65535)
		return -1;
	*port = (uint16_t)v;
	return 0;
}

static int
parse_ip(const char *s, uint16_t port, struct sockaddr_storage *ss,
    socklen_t *len)
{
	struct sockaddr_in	*sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)ss;
	char			 buf[INET6_ADDRSTRLEN + 2];
	size_t			 n = strlen(s);

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, s, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		*len = sizeof(*sin);
		return 0;
	}
	if (n >= 2 && s[0] == '[' && s[n - 1] == ']' && n - 2 < sizeof(buf)) {
		memcpy(buf, s + 1, n - 2);
		buf[n - 2] = '\0';
		s = buf;
	}
	if (inet_pton(AF_INET6, s, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		*len = sizeof(*sin6);
		return 0;
	}
	return -1;
}

/* tcp:IP:PORT or ssl:IP:PORT; the port follows the last colon. */
static int
parse_active(const char *rest, struct endpoint *ep, char *err, size_t errlen)
{
	const char	*colon = strrchr(rest, ':');
	char		 ip[INET6_ADDRSTRLEN + 2];

	if (colon == NULL || (size_t)(colon - rest) >= sizeof(ip)) {
		snprintf(err, errlen, "'%s': expected IP:PORT", rest);
		return -1;
	}
	memcpy(ip, rest, colon - rest);
	ip[colon - rest] = '\0';
	if (parse_port(colon + 1, &ep->port) == -1) {
		snprintf(err, errlen, "'%s': bad port '%s' (1-65535)", rest,
		    colon + 1);
		return -1;
	}
	if (parse_ip(ip, ep->port, &ep->ss, &ep->sslen) == -1) {
		snprintf(err, errlen, "'%s': bad IP address '%s'", rest, ip);
		return -1;
	}
	return 0;
}

/* ptcp:PORT[:IP]; as in Open vSwitch, no IP means every address. */
static int
parse_passive(const char *rest, struct endpoint *ep, char *err, size_t errlen)
{
	const char	*colon = strchr(rest, ':');
	char		 port[8];
	const char	*ip = colon ? colon + 1 : "0.0.0.0";
	size_t		 plen = colon ? (size_t)(colon - rest) : strlen(rest);

	if (plen == 0 || plen >= sizeof(port)) {
		snprintf(err, errlen, "'%s': expected PORT[:IP]", rest);
		return -1;
	}
	memcpy(port, rest, plen);
	port[plen] = '\0';
	if (parse_port(port, &ep->port) == -1) {
		snprintf(err, errlen, "'%s': bad port '%s' (1-65535)", rest,
		    port);
		return -1;
	}
	if (parse_ip(ip, ep->port, &ep->ss, &ep->sslen) == -1) {
		snprintf(err, errlen, "'%s': bad IP address '%s'", rest, ip);
		return -1;
	}
	return 0;
}

/* The OVS-style prefixes, by kind. */
static const char *const ep_prefixes[] = {
	[EP_TCP] = "tcp:", [EP_SSL] = "ssl:",
	[EP_PTCP] = "ptcp:", [EP_PSSL] = "pssl:",
};

int
endpoint_parse(const char *s, struct endpoint *ep, char *err, size_t errlen)
{
	size_t	k, len;

	memset(ep, 0, sizeof(*ep));
	snprintf(ep->text, sizeof(ep->text), "%s", s);
	for (k = 0; k < sizeof(ep_prefixes) / sizeof(ep_prefixes[0]); k++) {
		len = strlen(ep_prefixes[k]);
		if (strncmp(s, ep_prefixes[k], len) != 0)
			continue;
		ep->kind = (enum ep_kind)k;
		return endpoint_passive(ep) ?
		    parse_passive(s + len, ep, err, errlen) :
		    parse_active(s + len, ep, err, errlen);
	}
	snprintf(err, errlen, "'%s': expected tcp:IP:PORT, ssl:IP:PORT, "
	    "ptcp:PORT[:IP] or pssl:PORT[:IP]", s);
	return -1;
}

int
endpoint_passive(const struct endpoint *ep)
{
	return ep->kind == EP_PTCP || ep->kind == EP_PSSL;
}

int
endpoint_is_loopback(const struct endpoint *ep)
{
	const struct sockaddr_in	*sin;
	const struct sockaddr_in6	*sin6;

	if (ep->ss.ss_family == AF_INET) {
		sin = (const struct sockaddr_in *)&ep->ss;
		return (ntohl(sin->sin_addr.s_addr) >> 24) == 127;
	}
	sin6 = (const struct sockaddr_in6 *)&ep->ss;
	return IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr);
}

void
endpoint_with_port(const struct endpoint *ep, uint32_t port,
    struct sockaddr_storage *ss, socklen_t *len)
{
	*ss = ep->ss;
	*len = ep->sslen;
	if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = htons(port);
	else
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
}

static int
source_parse4(struct source_range *r, const char *ip, unsigned bits)
{
	uint32_t	addr, mask;

	if (inet_pton(AF_INET, ip, &r->base4) != 1 || bits > 32)
		return -1;
	mask = bits == 0 ? 0 : 0xffffffffu << (32 - bits);
	addr = ntohl(r->base4.s_addr) & mask;
	r->family = AF_INET;
	if (bits >= 31) {
		r->count = bits == 32 ? 1 : 2;
	} else {
		/* Skip the network and broadcast addresses. */
		r->count = ((uint64_t)1 << (32 - bits)) - 2;
		addr++;
	}
	r->base4.s_addr = htonl(addr);
	return 0;
}

static int
source_parse6(struct source_range *r, const char *ip, unsigned bits)
{
	if (inet_pton(AF_INET6, ip, &r->base6) != 1 || bits > 128)
		return -1;
	r->family = AF_INET6;
	/* Only the last 32 bits vary: more addresses than fds anyway. */
	r->count = bits >= 96 ? (uint64_t)1 << (128 - bits) :
	    (uint64_t)1 << 32;
	if (bits < 128) {
		uint32_t	low, keep;

		/* Clear the host bits of the varying low 32 bits. */
		memcpy(&low, r->base6.s6_addr + 12, 4);
		keep = bits > 96 ? 0xffffffffu << (128 - bits) : 0;
		low = htonl(ntohl(low) & keep);
		memcpy(r->base6.s6_addr + 12, &low, 4);
	}
	return 0;
}

int
source_parse(const char *s, struct source_range *r, char *err, size_t errlen)
{
	char		 ip[INET6_ADDRSTRLEN];
	const char	*slash = strchr(s, '/');
	char		*end;
	unsigned long	 bits;
	size_t		 n = slash ? (size_t)(slash - s) : strlen(s);
	int		 v6 = strchr(s, ':') != NULL;

	memset(r, 0, sizeof(*r));
	snprintf(r->text, sizeof(r->text), "%s", s);
	if (n == 0 || n >= sizeof(ip))
		goto bad;
	memcpy(ip, s, n);
	ip[n] = '\0';
	bits = v6 ? 128 : 32;
	if (slash != NULL) {
		errno = 0;
		bits = strtoul(slash + 1, &end, 10);
		if (slash[1] == '\0' || *end != '\0' || errno != 0)
			goto bad;
	}
	if ((v6 ? source_parse6(r, ip, bits) : source_parse4(r, ip, bits))
	    == 0)
		return 0;
bad:
	snprintf(err, errlen, "'%s': expected an address range like "
	    "127.1.0.0/16 or fd00::/64", s);
	return -1;
}

void
source_addr(const struct source_range *r, uint64_t i,
    struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in	*sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)ss;
	uint32_t		 off = (uint32_t)(i % r->count), low;

	memset(ss, 0, sizeof(*ss));
	if (r->family == AF_INET) {
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = htonl(ntohl(r->base4.s_addr) + off);
		*len = sizeof(*sin);
		return;
	}
	sin6->sin6_family = AF_INET6;
	sin6->sin6_addr = r->base6;
	memcpy(&low, sin6->sin6_addr.s6_addr + 12, 4);
	low = htonl(ntohl(low) + off);
	memcpy(sin6->sin6_addr.s6_addr + 12, &low, 4);
	*len = sizeof(*sin6);
}

const char *
source_host(const struct source_range *r, uint64_t i, const char *fixed,
    char *buf, size_t len)
{
	struct sockaddr_storage	ss;
	socklen_t		sl;

	if (r == NULL)
		return fixed;
	source_addr(r, i, &ss, &sl);
	inet_ntop(ss.ss_family, ss.ss_family == AF_INET ?
	    (void *)&((struct sockaddr_in *)&ss)->sin_addr :
	    (void *)&((struct sockaddr_in6 *)&ss)->sin6_addr, buf,
	    (socklen_t)len);
	return buf;
}

int64_t
source_index(const struct source_range *r, const struct sockaddr_storage *ss)
{
	const struct sockaddr_in	*sin = (const void *)ss;
	const struct sockaddr_in6	*sin6 = (const void *)ss;
	uint32_t			 off, low, base;

	if (ss->ss_family != r->family)
		return -1;
	if (r->family == AF_INET)
		off = ntohl(sin->sin_addr.s_addr) - ntohl(r->base4.s_addr);
	else {
		/* source_addr() adds to the low 32 bits alone. */
		if (memcmp(sin6->sin6_addr.s6_addr, r->base6.s6_addr, 12) != 0)
			return -1;
		memcpy(&low, sin6->sin6_addr.s6_addr + 12, 4);
		memcpy(&base, r->base6.s6_addr + 12, 4);
		off = ntohl(low) - ntohl(base);
	}
	return off < r->count ? (int64_t)off : -1;
}

int
endpoint_parse_listen(const char *name, const char *arg, void *field,
    char *err, size_t errlen)
{
	struct endpoint	*ep = field;

	if (endpoint_parse(arg, ep, err, errlen) == -1)
		return -1;
	if (ep->kind == EP_PTCP)
		return 0;
	snprintf(err, errlen, "--%s: the controller listens: use "
	    "ptcp:PORT[:IP]", name);
	return -1;
}

const char *
endpoint_dial_host(const struct endpoint *ep)
{
	static char			 host[INET6_ADDRSTRLEN];
	const struct sockaddr_in	*in = (const void *)&ep->ss;
	const struct sockaddr_in6	*in6 = (const void *)&ep->ss;

	if (ep->ss.ss_family == AF_INET && in->sin_addr.s_addr != 0)
		inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
	else if (ep->ss.ss_family == AF_INET6 &&
	    !IN6_IS_ADDR_UNSPECIFIED(&in6->sin6_addr))
		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
	else
		return "127.0.0.1";
	return host;
}

int
endpoint_show(const struct opt *o, const void *base, char *buf, size_t len)
{
	const struct endpoint	*ep = (const void *)((const char *)base +
				    o->off);

	if (ep->text[0] == '\0')
		return -1;
	snprintf(buf, len, "%s", ep->text);
	return 0;
}

int
endpoint_show_ipv4(const struct opt *o, const void *base, char *buf,
    size_t len)
{
	uint32_t	host;
	struct in_addr	a;

	memcpy(&host, (const char *)base + o->off, sizeof(host));
	a.s_addr = htonl(host);
	if (host == 0 || inet_ntop(AF_INET, &a, buf, (socklen_t)len) == NULL)
		return -1;
	return 0;
}
