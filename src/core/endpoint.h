/*
 * Endpoints in the OVS style and source address ranges.
 *   tcp:IP:PORT   ssl:IP:PORT    connect (IPv6 as [addr]:PORT)
 *   ptcp:PORT[:IP] pssl:PORT[:IP] listen (device i on PORT+i)
 * A source range is a CIDR whose host addresses are handed out in turn, so
 * that each device connects from its own address and one controller port can
 * take far more connections than one source address has ephemeral ports.
 */
#ifndef SBSIM_ENDPOINT_H
#define SBSIM_ENDPOINT_H

#include <sys/socket.h>
#include <netinet/in.h>

#include <stddef.h>
#include <stdint.h>

enum ep_kind {
	EP_TCP,
	EP_SSL,
	EP_PTCP,
	EP_PSSL,	/* listen, TLS: pssl:PORT[:IP] */
};

struct endpoint {
	enum ep_kind		kind;
	struct sockaddr_storage	ss;	/* port included */
	socklen_t		sslen;
	uint16_t		port;
	char			text[128];
};

int	 endpoint_parse(const char *, struct endpoint *, char *err, size_t);
int	 endpoint_passive(const struct endpoint *);
/* A controller's --NAME ptcp:PORT[:IP] into a struct endpoint (an
 * OPT_P parser): anything but ptcp: is refused with "--NAME: the
 * controller listens: use ptcp:PORT[:IP]". */
int	 endpoint_parse_listen(const char *name, const char *, void *ep,
	    char *err, size_t);
/* Its .show for --help: the endpoint's text, -1 when none is set. */
struct opt;
int	 endpoint_show(const struct opt *, const void *base, char *buf,
	    size_t len);
/* The same for a host-order uint32_t IPv4 address field (a router
 * identifier, a tunnel endpoint): dotted, -1 when 0. */
int	 endpoint_show_ipv4(const struct opt *, const void *base, char *buf,
	    size_t len);
int	 endpoint_is_loopback(const struct endpoint *);
/* The address a peer dials to reach a passive endpoint: its own, or
 * 127.0.0.1 when it listens on every address (static storage). */
const char *endpoint_dial_host(const struct endpoint *);
/* The endpoint's address with another port (passive device i). */
void	 endpoint_with_port(const struct endpoint *, uint32_t port,
	    struct sockaddr_storage *, socklen_t *);

struct source_range {
	int		family;		/* AF_UNSPEC: let the kernel choose */
	struct in_addr	base4;		/* first host address */
	struct in6_addr	base6;
	uint64_t	count;		/* host addresses in the range */
	char		text[64];
};

int	 source_parse(const char *, struct source_range *, char *err, size_t);
/* Address number i (wrapping) of the range, port 0. */
void	 source_addr(const struct source_range *, uint64_t i,
	    struct sockaddr_storage *, socklen_t *);
/* Address number i of the range as text in buf (INET6_ADDRSTRLEN
 * bytes), or fixed when there is no range (NULL); returns which. */
const char *source_host(const struct source_range *, uint64_t i,
	    const char *fixed, char *buf, size_t len);
/* The inverse: which address of the range ss is (its port ignored), -1
 * when it is none of the first 2^32 (another family included). */
int64_t	 source_index(const struct source_range *,
	    const struct sockaddr_storage *);

#endif
