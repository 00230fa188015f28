/*
 * TCP-MD5 (RFC 2385) of the embedded controller's BGP speaker
 * (--bgp-md5-password): the key on its listener for every peer and on
 * each configured neighbour's connect; at its stop, the kernel's drops
 * of keyed segments said.  The simulated peers' side is bgp_sim.h's
 * bgp_md5_config().
 */
#ifndef SBSIM_BGP_MD5_H
#define SBSIM_BGP_MD5_H

#include <stddef.h>

#include <event2/listener.h>

/* The speaker starts listening with key (NULL: none): 0, or -1 with the
 * reason in err. */
int	 bgp_md5_ctl_listen(struct evconnlistener *, const char *key,
	    char *err, size_t errlen);
/* A neighbour's socket before its connect to sa: 0, or -1 (errno). */
struct sockaddr_storage;
int	 bgp_md5_ctl_connecting(int fd, const struct sockaddr_storage *sa);
/* The speaker stops: what the kernel dropped since it began, said. */
void	 bgp_md5_ctl_stop(void);

#endif
