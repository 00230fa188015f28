/*
 * Configured neighbors and peer groups (bgp_nbr.h), and the connections
 * the speaker opens to neighbors that are not passive: RFC 4271 section
 * 8.2.2's ConnectRetryTimer, backing off from 1 s to the neighbor's
 * connect-retry (openconfig's default 30 s) while the peer does not
 * answer, back to 1 s once a session has been up.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "bgp_nbr.h"
#include "bgp_md5.h"
#include "bgp_ctl.h"
#include "engine.h"
#include "log.h"

#define NBR_PORT		179
#define NBR_RETRY_S		30	/* openconfig connect-retry default */
#define NBR_CONNECT_TIMEOUT_S	5

struct nbr_ent {
	struct bgp_nbr	 c;
	struct event	*retry;		/* neighbors we connect to */
	struct event	*conn;		/* a connect in progress */
	int		 fd;
	unsigned	 backoff_s;
	struct sockaddr_storage sa;
	socklen_t	 salen;
};

static struct nbr_ent	**ents;
static unsigned		  n_ents, cap_ents;
static uint32_t		  local_as;
static uint16_t		  local_hold;

/* Identities of afi-safi-type: openconfig-bgp-types, then bgpcep's own. */
static const char *const nbr_afs_oc[] = {
	"IPV4-UNICAST", "IPV6-UNICAST", "IPV4-LABELLED-UNICAST",
	"IPV6-LABELLED-UNICAST", "L3VPN-IPV4-UNICAST", "L3VPN-IPV6-UNICAST",
	"L3VPN-IPV4-MULTICAST", "L3VPN-IPV6-MULTICAST", "L2VPN-VPLS",
	"L2VPN-EVPN",
};
static const char *const nbr_afs_ext[] = {
	"LINKSTATE", "IPV4-FLOW", "IPV6-FLOW", "IPV4-L3VPN-FLOW",
	"IPV6-L3VPN-FLOW", "IPV4-MCAST-VPN", "IPV6-MCAST-VPN",
	"ROUTE-TARGET-CONSTRAIN",
};
#define NBR_N_OC	(sizeof(nbr_afs_oc) / sizeof(nbr_afs_oc[0]))
#define NBR_N_EXT	(sizeof(nbr_afs_ext) / sizeof(nbr_afs_ext[0]))

static void	nbr_arm(struct nbr_ent *, unsigned);

int
bgp_nbr_afs_parse(const char *s)
{
	const char	*c = strrchr(s, ':');
	size_t		 i;

	if (c != NULL)
		s = c + 1;
	for (i = 0; i < NBR_N_OC; i++)
		if (strcmp(s, nbr_afs_oc[i]) == 0)
			return (int)i;
	for (i = 0; i < NBR_N_EXT; i++)
		if (strcmp(s, nbr_afs_ext[i]) == 0)
			return (int)(NBR_N_OC + i);
	return -1;
}

const char *
bgp_nbr_afs_name(uint8_t i, const char **module)
{
	if (i < NBR_N_OC) {
		*module = "openconfig-bgp-types";
		return nbr_afs_oc[i];
	}
	*module = "bgp-openconfig-extensions";
	return i < NBR_N_OC + NBR_N_EXT ? nbr_afs_ext[i - NBR_N_OC] : "?";
}

int
bgp_nbr_addr(const char *in, char *out, size_t len)
{
	struct in6_addr	a6;
	struct in_addr	a4;

	if (inet_pton(AF_INET, in, &a4) == 1)
		return inet_ntop(AF_INET, &a4, out, len) ? 0 : -1;
	if (inet_pton(AF_INET6, in, &a6) == 1)
		return inet_ntop(AF_INET6, &a6, out, len) ? 0 : -1;
	return -1;
}

static struct nbr_ent *
nbr_find(enum bgp_nbr_kind k, const char *name)
{
	unsigned	i;

	for (i = 0; i < n_ents; i++)
		if (ents[i]->c.kind == k && strcmp(ents[i]->c.name, name) == 0)
			return ents[i];
	return NULL;
}

const struct bgp_nbr *
bgp_nbr_get(enum bgp_nbr_kind k, const char *name)
{
	struct nbr_ent	*n = nbr_find(k, name);

	return n != NULL ? &n->c : NULL;
}

const struct bgp_nbr *
bgp_nbr_at(enum bgp_nbr_kind k, unsigned i)
{
	unsigned	j;

	for (j = 0; j < n_ents; j++)
		if (ents[j]->c.kind == k && i-- == 0)
			return &ents[j]->c;
	return NULL;
}

/* One leaf of the neighbor's, else of its group's. */
static const struct bgp_nbr *
nbr_from(const struct bgp_nbr *c, const struct bgp_nbr *g, uint32_t flag)
{
	if (c->set & flag)
		return c;
	if (g != NULL && (g->set & flag))
		return g;
	return NULL;
}

/* The AS a peer must have: peer-as, else ours for an internal (or
 * untyped) one, else any (RFC 4271 section 6.2, Bad Peer AS). */
static uint32_t
nbr_peer_as(const struct bgp_nbr *c, const struct bgp_nbr *g)
{
	const struct bgp_nbr	*s;

	if ((s = nbr_from(c, g, BGP_NBR_F_PEER_AS)) != NULL)
		return s->peer_as;
	s = nbr_from(c, g, BGP_NBR_F_TYPE);
	return s != NULL && s->peer_type == BGP_NBR_EXTERNAL ? 0 : local_as;
}

void
bgp_nbr_effective(const struct bgp_nbr *c, struct bgp_nbr_eff *e)
{
	const struct bgp_nbr	*g = NULL, *s;
	uint8_t			 i;

	if (c->kind == BGP_NBR_NEIGHBOR && c->group[0] != '\0')
		g = bgp_nbr_get(BGP_NBR_GROUP, c->group);
	memset(e, 0, sizeof(*e));
	e->peer_as = nbr_peer_as(c, g);
	s = nbr_from(c, g, BGP_NBR_F_PASSIVE);
	e->passive = s != NULL ? s->passive : 0;
	s = nbr_from(c, g, BGP_NBR_F_PORT);
	e->remote_port = s != NULL ? s->remote_port : NBR_PORT;
	s = nbr_from(c, g, BGP_NBR_F_HOLD);
	e->hold = s != NULL ? s->hold : local_hold;
	s = nbr_from(c, g, BGP_NBR_F_RETRY);
	e->connect_retry = s != NULL && s->connect_retry > 0 ?
	    s->connect_retry : NBR_RETRY_S;
	if ((s = nbr_from(c, g, BGP_NBR_F_LOCAL)) != NULL)
		snprintf(e->local, sizeof(e->local), "%s", s->local);
	if ((s = nbr_from(c, g, BGP_NBR_F_AFS)) == NULL) {
		/* No afi-safis: IPv4 unicast, as RFC 4760 section 8 has it
		 * for a peer that does not say. */
		e->af[BGP_AF_IPV4] = 1;
		return;
	}
	for (i = 0; i < s->n_afs; i++)
		if (s->afs[i] == 0)
			e->af[BGP_AF_IPV4] = 1;
		else if (s->afs[i] == 1)
			e->af[BGP_AF_IPV6] = 1;
}

static int
nbr_sa_text(const struct sockaddr *sa, char *out, size_t len)
{
	const void	*a = sa->sa_family == AF_INET6 ?
	    (const void *)&((const struct sockaddr_in6 *)sa)->sin6_addr :
	    (const void *)&((const struct sockaddr_in *)sa)->sin_addr;

	return inet_ntop(sa->sa_family, a, out, len) != NULL ? 0 : -1;
}

int
bgp_nbr_admit(const struct sockaddr *sa, struct bgp_nbr_eff *e)
{
	struct nbr_ent	*n;
	char		 host[INET6_ADDRSTRLEN];

	if (bgp_nbr_at(BGP_NBR_NEIGHBOR, 0) == NULL) {
		memset(e, 0, sizeof(*e));
		e->hold = local_hold;
		e->af[BGP_AF_IPV4] = e->af[BGP_AF_IPV6] = 1;
		return 0;
	}
	if (nbr_sa_text(sa, host, sizeof(host)) == -1 ||
	    (n = nbr_find(BGP_NBR_NEIGHBOR, host)) == NULL)
		return -1;
	bgp_nbr_effective(&n->c, e);
	return 0;
}

/* ---- connecting out ---- */

static void
nbr_conn_abort(struct nbr_ent *n)
{
	if (n->conn != NULL)
		event_free(n->conn);
	n->conn = NULL;
	if (n->fd != -1)
		close(n->fd);
	n->fd = -1;
}

static void
nbr_idle(struct nbr_ent *n)
{
	nbr_conn_abort(n);
	if (n->retry != NULL)
		event_free(n->retry);
	n->retry = NULL;
}

static void
nbr_failed(struct nbr_ent *n, const char *why)
{
	struct bgp_nbr_eff	e;

	nbr_conn_abort(n);
	bgp_nbr_effective(&n->c, &e);
	log_debug("bgp neighbor %s: connect: %s; again in %u s", n->c.name,
	    why, n->backoff_s);
	nbr_arm(n, n->backoff_s);
	n->backoff_s = n->backoff_s * 2 > e.connect_retry ? e.connect_retry :
	    n->backoff_s * 2;
}

static void
nbr_connected(evutil_socket_t fd, short what, void *arg)
{
	struct nbr_ent	*n = arg;
	int		 err = ETIMEDOUT;
	socklen_t	 len = sizeof(err);

	if ((what & EV_WRITE) &&
	    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == -1)
		err = errno;
	if (err != 0) {
		nbr_failed(n, strerror(err));
		return;
	}
	event_free(n->conn);
	n->conn = NULL;
	n->fd = -1;		/* the session owns it now */
	if (bgp_ctl_attach(fd, (struct sockaddr *)&n->sa, n->salen) == 0)
		n->backoff_s = 1;
	nbr_arm(n, 1);
}

/* Bind to local-address (TC_LA's ibgp_local_address), then connect. */
static int
nbr_socket(struct nbr_ent *n, const struct bgp_nbr_eff *e)
{
	struct sockaddr_storage	 la;
	struct sockaddr_in	*l4 = (struct sockaddr_in *)&la;
	struct sockaddr_in6	*l6 = (struct sockaddr_in6 *)&la;
	int			 fd;

	if ((fd = socket(n->sa.ss_family, SOCK_STREAM, 0)) == -1)
		return -1;
	evutil_make_socket_nonblocking(fd);
	if (bgp_md5_ctl_connecting(fd, &n->sa) == -1) {
		close(fd);
		return -1;
	}
	memset(&la, 0, sizeof(la));
	la.ss_family = n->sa.ss_family;
	if (e->local[0] != '\0' && (la.ss_family == AF_INET ?
	    inet_pton(AF_INET, e->local, &l4->sin_addr) :
	    inet_pton(AF_INET6, e->local, &l6->sin6_addr)) == 1 &&
	    bind(fd, (struct sockaddr *)&la, la.ss_family == AF_INET ?
	    sizeof(*l4) : sizeof(*l6)) == -1)
		log_warn("bgp neighbor %s: bind %s", n->c.name, e->local);
	if (connect(fd, (struct sockaddr *)&n->sa, n->salen) == -1 &&
	    errno != EINPROGRESS) {
		close(fd);
		return -1;
	}
	return fd;
}

static void
nbr_connect(struct nbr_ent *n, const struct bgp_nbr_eff *e)
{
	struct sockaddr_in	*s4 = (struct sockaddr_in *)&n->sa;
	struct sockaddr_in6	*s6 = (struct sockaddr_in6 *)&n->sa;
	struct timeval		 tv = { NBR_CONNECT_TIMEOUT_S, 0 };

	memset(&n->sa, 0, sizeof(n->sa));
	if (inet_pton(AF_INET, n->c.name, &s4->sin_addr) == 1) {
		s4->sin_family = AF_INET;
		s4->sin_port = htons(e->remote_port);
		n->salen = sizeof(*s4);
	} else if (inet_pton(AF_INET6, n->c.name, &s6->sin6_addr) == 1) {
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons(e->remote_port);
		n->salen = sizeof(*s6);
	}
	if ((n->fd = nbr_socket(n, e)) == -1) {
		nbr_failed(n, strerror(errno));
		return;
	}
	n->conn = event_new(engine_base(), n->fd, EV_WRITE, nbr_connected, n);
	if (n->conn == NULL)
		fatalx("event_new");
	event_add(n->conn, &tv);
}

/* The ConnectRetryTimer: connect when there is no session. */
static void
nbr_tick(evutil_socket_t fd, short what, void *arg)
{
	struct nbr_ent		*n = arg;
	struct bgp_nbr_eff	 e;
	char			 peer[BGP_NBR_NAME_LEN + 8];

	(void)fd;
	(void)what;
	bgp_nbr_effective(&n->c, &e);
	snprintf(peer, sizeof(peer), "bgp://%s", n->c.name);
	if (e.passive || n->conn != NULL)
		return;
	if (bgp_ctl_has_session(peer))
		nbr_arm(n, 1);
	else
		nbr_connect(n, &e);
}

static void
nbr_arm(struct nbr_ent *n, unsigned s)
{
	struct timeval	tv = { (time_t)s, 0 };

	if (n->retry == NULL)
		n->retry = engine_timer_new(0, nbr_tick, n);
	engine_timer_add(n->retry, &tv);
}

/* A neighbor that is not passive is connected to now (and kept so). */
static void
nbr_activate(struct nbr_ent *n)
{
	struct bgp_nbr_eff	e;

	if (n->c.kind != BGP_NBR_NEIGHBOR)
		return;
	bgp_nbr_effective(&n->c, &e);
	nbr_idle(n);
	n->backoff_s = 1;
	if (!e.passive)
		nbr_arm(n, 0);
}

/* ---- the table ---- */

static void
nbr_reset(const struct nbr_ent *n, uint8_t subcode)
{
	char	peer[BGP_NBR_NAME_LEN + 8];

	snprintf(peer, sizeof(peer), "bgp://%s", n->c.name);
	bgp_ctl_reset(peer, subcode);
}

/* A group changed: its members' sessions restart with what it says. */
static void
nbr_group_changed(const char *group)
{
	unsigned	i;

	for (i = 0; i < n_ents; i++)
		if (ents[i]->c.kind == BGP_NBR_NEIGHBOR &&
		    strcmp(ents[i]->c.group, group) == 0) {
			nbr_reset(ents[i], BGP_ERR_CEASE_CONFIG_CHANGE);
			nbr_activate(ents[i]);
		}
}

int
bgp_nbr_put(const struct bgp_nbr *c)
{
	struct nbr_ent	*n = nbr_find(c->kind, c->name);
	int		 created = n == NULL;

	if (created) {
		if (n_ents == cap_ents) {
			cap_ents = cap_ents ? cap_ents * 2 : 16;
			ents = xreallocarray(ents, cap_ents, sizeof(*ents));
		}
		n = xcalloc(1, sizeof(*n));
		n->fd = -1;
		ents[n_ents++] = n;
	}
	n->c = *c;
	if (c->kind == BGP_NBR_GROUP) {
		nbr_group_changed(c->name);
		return created;
	}
	/* RFC 4486 section 4: the session restarts with the new settings. */
	if (!created)
		nbr_reset(n, BGP_ERR_CEASE_CONFIG_CHANGE);
	nbr_activate(n);
	return created;
}

int
bgp_nbr_del(enum bgp_nbr_kind k, const char *name)
{
	struct nbr_ent	*n = nbr_find(k, name);
	unsigned	 i;

	if (n == NULL)
		return -1;
	for (i = 0; ents[i] != n; i++)
		;
	memmove(ents + i, ents + i + 1, (n_ents - i - 1) * sizeof(*ents));
	n_ents--;
	nbr_idle(n);
	if (k == BGP_NBR_NEIGHBOR)
		nbr_reset(n, BGP_ERR_CEASE_PEER_UNCONF);
	else
		nbr_group_changed(name);
	free(n);
	return 0;
}

void
bgp_nbr_start(uint32_t as, uint16_t hold)
{
	local_as = as;
	local_hold = hold;
}

void
bgp_nbr_stop(void)
{
	unsigned	i;

	for (i = 0; i < n_ents; i++) {
		nbr_idle(ents[i]);
		free(ents[i]);
	}
	free(ents);
	ents = NULL;
	n_ents = cap_ents = 0;
}
