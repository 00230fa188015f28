/*
 * TCP-MD5 (RFC 2385) on BGP sessions (BGP has no authentication of its
 * own: RFC 4271's security considerations point to RFC 2385, and it is
 * what routers and OpenDaylight configure): `sbsim bgp --md5-password`
 * hands its keys to the peers' pools and the monitor's, and the embedded
 * controller's speaker puts --bgp-md5-password on its listener and its
 * neighbours' connects.  The sockets' side is src/core/tcp_md5.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bgp_md5.h"
#include "bgp_sim.h"
#include "log.h"

void
bgp_md5_config(struct bgp_sim *sim)
{
	struct bgp_config	*c = &sim->cfg;
	unsigned		 k;

	if (!tcp_md5_any(&c->md5))
		return;
	for (k = 0; k < c->n_spk; k++)
		sim->pcfg[k].md5 = &c->md5;
	/* The monitor is no peer of the ranges: the key for all. */
	memcpy(c->mon_md5.all, c->md5.all, sizeof(c->mon_md5.all));
	sim->mcfg.md5 = &c->mon_md5;
}

/* ---- the embedded controller's speaker ---- */

static struct tcp_md5_guard ctl_md5 = {
	"bgp", "--bgp-md5-password", "speaker", "peer", NULL, { 0 }
};

int
bgp_md5_ctl_listen(struct evconnlistener *l, const char *key, char *err,
    size_t errlen)
{
	return tcp_md5_guard_listen(&ctl_md5, evconnlistener_get_fd(l), key,
	    err, errlen);
}

int
bgp_md5_ctl_connecting(int fd, const struct sockaddr_storage *sa)
{
	if (ctl_md5.key == NULL)
		return 0;
	return tcp_md5_set(fd, (const struct sockaddr *)sa, -1, ctl_md5.key);
}

void
bgp_md5_ctl_stop(void)
{
	tcp_md5_guard_stop(&ctl_md5);
}
