/*
 * The speaker's configured neighbors (bgp_nbr.c): what a neighbor takes
 * from its peer group and from the defaults, the AS its peer must have,
 * the families it carries, afi-safi identities, and which connections
 * are admitted.  Only passive neighbors: nothing connects out here.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include "bgp_nbr.h"
#include "check.h"
#include "engine.h"

static struct bgp_nbr
nbr(enum bgp_nbr_kind k, const char *name)
{
	struct bgp_nbr	c;

	memset(&c, 0, sizeof(c));
	c.kind = (uint8_t)k;
	snprintf(c.name, sizeof(c.name), "%s", name);
	c.passive = 1;
	c.set = BGP_NBR_F_PASSIVE;
	return c;
}

static void
test_afs(void)
{
	const char	*mod;

	CHECK(bgp_nbr_afs_parse("x:IPV4-UNICAST") == 0, "prefixed IPv4");
	CHECK(bgp_nbr_afs_parse("openconfig-bgp-types:IPV6-UNICAST") == 1,
	    "qualified IPv6");
	CHECK(bgp_nbr_afs_parse("LINKSTATE") >= 2 &&
	    strcmp(bgp_nbr_afs_name((uint8_t)bgp_nbr_afs_parse("LINKSTATE"),
	    &mod), "LINKSTATE") == 0 &&
	    strcmp(mod, "bgp-openconfig-extensions") == 0,
	    "LINKSTATE is bgpcep's");
	CHECK(bgp_nbr_afs_parse("IPV5-UNICAST") == -1, "unknown refused");
}

static void
test_inherit(void)
{
	struct bgp_nbr		g = nbr(BGP_NBR_GROUP, "internal"), n;
	struct bgp_nbr_eff	e;

	bgp_nbr_start(64496, 90);
	g.set |= BGP_NBR_F_AFS | BGP_NBR_F_HOLD | BGP_NBR_F_PORT;
	g.n_afs = 1;
	g.afs[0] = 1;			/* IPV6-UNICAST */
	g.hold = 180;
	g.remote_port = 17900;
	CHECK(bgp_nbr_put(&g) == 1, "group created");
	n = nbr(BGP_NBR_NEIGHBOR, "192.0.2.7");
	snprintf(n.group, sizeof(n.group), "internal");
	CHECK(bgp_nbr_put(&n) == 1, "neighbor created");
	CHECK(bgp_nbr_put(&n) == 0, "neighbor replaced");
	bgp_nbr_effective(bgp_nbr_get(BGP_NBR_NEIGHBOR, "192.0.2.7"), &e);
	CHECK(e.hold == 180 && e.remote_port == 17900 && e.passive == 1,
	    "leaves from the group");
	CHECK(!e.af[BGP_AF_IPV4] && e.af[BGP_AF_IPV6], "families from it");
	CHECK(e.peer_as == 64496, "untyped: our AS");
	n.set |= BGP_NBR_F_TYPE;
	n.peer_type = BGP_NBR_EXTERNAL;
	bgp_nbr_put(&n);
	bgp_nbr_effective(bgp_nbr_get(BGP_NBR_NEIGHBOR, "192.0.2.7"), &e);
	CHECK(e.peer_as == 0, "EXTERNAL without peer-as: any AS");
	CHECK(bgp_nbr_del(BGP_NBR_GROUP, "internal") == 0, "group deleted");
	bgp_nbr_effective(bgp_nbr_get(BGP_NBR_NEIGHBOR, "192.0.2.7"), &e);
	CHECK(e.af[BGP_AF_IPV4] && e.remote_port == 179 && e.hold == 90,
	    "defaults without the group");
	bgp_nbr_stop();
}

static void
test_admit(void)
{
	struct bgp_nbr		n = nbr(BGP_NBR_NEIGHBOR, "192.0.2.7");
	struct bgp_nbr_eff	e;
	struct sockaddr_in	sin;
	char			a[INET6_ADDRSTRLEN];

	bgp_nbr_start(64496, 90);
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	inet_pton(AF_INET, "192.0.2.8", &sin.sin_addr);
	CHECK(bgp_nbr_admit((struct sockaddr *)&sin, &e) == 0 &&
	    e.af[BGP_AF_IPV4] && e.af[BGP_AF_IPV6] && e.peer_as == 0,
	    "no neighbors: anyone, both families");
	bgp_nbr_put(&n);
	CHECK(bgp_nbr_admit((struct sockaddr *)&sin, &e) == -1,
	    "another address refused");
	inet_pton(AF_INET, "192.0.2.7", &sin.sin_addr);
	CHECK(bgp_nbr_admit((struct sockaddr *)&sin, &e) == 0,
	    "the neighbor admitted");
	CHECK(bgp_nbr_addr("2001:DB8::1", a, sizeof(a)) == 0 &&
	    strcmp(a, "2001:db8::1") == 0, "addresses canonical");
	CHECK(bgp_nbr_addr("not-one", a, sizeof(a)) == -1, "bad address");
	CHECK(bgp_nbr_del(BGP_NBR_NEIGHBOR, "192.0.2.9") == -1,
	    "unknown neighbor");
	bgp_nbr_stop();
}

static const struct check_case cases[] = {
	CASE(test_afs),
	CASE(test_inherit),
	CASE(test_admit),
};

int
main(int argc, char **argv)
{
	engine_init();
	return check_run(cases, argc, argv);
}
