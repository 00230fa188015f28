/*
 * The peers' families (--family): each peer announces --prefixes routes
 * of every family listed, one family after the other, numbered as one
 * run of routes (family k's j-th route is number k x prefixes + j), so
 * that announce and withdraw walk them as they walk IPv4's.  A family
 * goes out only where the receiver offered it in its OPEN (RFC 4760
 * section 6); the others are counted (families_refused, routes_refused)
 * and logged, never silently dropped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bgp_sim.h"
#include "log.h"

#define RT_UNSET	UINT32_MAX	/* --route-targets not given */

uint64_t
bgp_peer_routes(const struct bgp_config *cfg)
{
	return cfg->prefixes * cfg->n_fam;
}

unsigned
bgp_peer_fam_at(const struct bgp_config *cfg, uint64_t i, uint64_t *end)
{
	uint64_t	slot = cfg->prefixes ? i / cfg->prefixes : 0;

	if (slot >= cfg->n_fam)
		slot = cfg->n_fam - 1u;
	*end = (slot + 1) * cfg->prefixes;
	return cfg->fams[slot];
}

void
bgp_peer_fam_offer(const struct bgp_config *cfg, struct bgp_open *o)
{
	unsigned	k, f;

	for (k = 0; k < cfg->n_fam; k++) {
		f = cfg->fams[k];
		if (f < BGP_AF_MAX) {
			o->caps.mp[f] = 1;
			o->caps.gr_af[f] = cfg->graceful;
		} else
			o->caps.mp_fam |= 1u << f;
	}
}

/* Once per run and family: the log would otherwise repeat it for every
 * session of every peer. */
static void
bgp_fam_refused_log(struct bgp_peer *p, unsigned f)
{
	struct bgp_sim	*sim = p->sim;

	(*sim->c.families_refused)++;
	if (sim->fam_logged & 1u << f)
		return;
	sim->fam_logged |= 1u << f;
	log_warnx("peer %u: the receiver did not offer %s (RFC 4760 "
	    "multiprotocol capability); its routes are not sent (counted in "
	    "routes_refused)", p->idx, bgp_families[f].name);
}

void
bgp_peer_fam_negotiate(struct bgp_peer *p, const struct bgp_open *o,
    int (*agreed)(const struct bgp_open *, enum bgp_af))
{
	const struct bgp_config	*cfg = &p->sim->cfg;
	unsigned		 k, f;
	int			 ok;

	p->fam_ok = 0;
	p->sc.fam_rx = 0;
	for (k = 0; k < cfg->n_fam; k++) {
		f = cfg->fams[k];
		ok = f < BGP_AF_MAX ? agreed(o, (enum bgp_af)f) :
		    (o->caps.mp_fam & 1u << f) != 0;
		if (ok) {
			p->fam_ok |= 1u << f;
			if (f >= BGP_AF_MAX)
				p->sc.fam_rx |= 1u << f;
		} else if (!p->monitor)
			bgp_fam_refused_log(p, f);
	}
	p->af_ok = p->fam_ok != 0;
}

/* Refused routes will never be learned or withdrawn: the witnessed
 * phases wait for the others only (and end if they are all in). */
static void
bgp_fam_untarget(struct bgp_sim *sim, uint64_t n)
{
	struct phase	*ph[2] = { sim->ph[BGPP_LEARN], sim->ph[BGPP_WITHDRAW] };
	unsigned	 i;

	for (i = 0; i < 2; i++) {
		if (ph[i] == NULL || ph[i]->target <= n)
			continue;
		ph[i]->target -= n;
		if (ph[i]->state == PHASE_RUNNING &&
		    ph[i]->items >= ph[i]->target)
			phase_end(ph[i], clock_ns(), PHASE_DONE);
	}
}

int
bgp_peer_fam_skip(struct bgp_peer *p, uint64_t *next)
{
	struct bgp_sim	*sim = p->sim;
	uint64_t	 end, from;
	unsigned	 f;

	if (sim->mrt != NULL)
		return bgp_mrt_skip(p, next);
	if (*next >= bgp_peer_routes(&sim->cfg))
		return 0;
	f = bgp_peer_fam_at(&sim->cfg, *next, &end);
	if (p->fam_ok & 1u << f)
		return 0;
	/* Counted once, however often a reconnected peer walks past. */
	if (next == &p->ann_next && p->ann_high < end) {
		from = p->ann_high > *next ? p->ann_high : *next;
		sim->refused += end - from;
		*sim->c.routes_refused += end - from;
		bgp_fam_untarget(sim, end - from);
		if (p->ann_high == *next)
			p->ann_high = end;
	}
	*next = end;
	return 1;
}

int
bgp_peer_fam_first(const struct bgp_peer *p, uint64_t i)
{
	const struct bgp_config	*cfg = &p->sim->cfg;
	uint64_t		 k;

	if (p->sim->mrt != NULL || cfg->prefixes == 0 ||
	    i % cfg->prefixes != 0)
		return i == 0;
	for (k = 0; k < i / cfg->prefixes && k < cfg->n_fam; k++)
		if (p->fam_ok & 1u << cfg->fams[k])
			return 0;
	return 1;
}

uint32_t
bgp_peer_fam_build(struct bgp_peer *p, struct wbuf *w, uint64_t *next,
    uint64_t end, const struct bgp_attrs *a, uint32_t max)
{
	const struct bgp_config	*cfg = &p->sim->cfg;
	struct bgp_gen		 gen = cfg->gen;
	struct bgp_ub		 ub;
	struct bgp_attrs	 own;
	uint64_t		 fend, g;
	unsigned		 fam = bgp_peer_fam_at(cfg, *next, &fend);
	const struct bgp_family	*f = &bgp_families[fam];

	if (fend < end)
		end = fend;
	/* Type 1 RDs: the peer's identifier as administrator. */
	gen.rd_ip = p->bgp_id;
	if (a != NULL && f->ext != NULL) {	/* EVPN's, flowspec's */
		own = *a;
		f->ext(&gen, cfg->as, &own);
		a = &own;
	}
	if (bgp_ub_begin(&ub, w, fam, 1, 0, a, &p->sc, BGP_MAX_LEN) == -1)
		return 0;
	g = (uint64_t)p->idx * cfg->prefixes + *next % cfg->prefixes;
	*next += bgp_ub_add_routes(&ub, fam, &gen, &cfg->fam_first[f->addr_af],
	    g, end - *next < max ? end - *next : max);
	bgp_ub_end(&ub);
	return ub.count;
}

uint32_t
bgp_peer_fam_eor(const struct bgp_peer *p, struct wbuf *w)
{
	const struct bgp_config	*cfg = &p->sim->cfg;
	uint32_t		 k, n = 0;

	for (k = 0; k < cfg->n_fam; k++)
		if (p->fam_ok & 1u << cfg->fams[k]) {
			bgp_eor_encode(w, cfg->fams[k]);
			n++;
		}
	return n;
}

void
bgp_peer_fam_rx(struct bgp_peer *p, const struct bgp_update *u)
{
	uint64_t	n;

	if (u->mp_reach_fam != BGP_FAM_MAX &&
	    bgp_family_check(u->mp_reach_fam, rbuf_ptr(&u->mp_reach),
	    rbuf_left(&u->mp_reach), 0, &n) == 0 && !u->treat_as_withdraw)
		*p->sim->c.fam_rx += n;
}

int
bgp_family_row(void *base, const char *arg, char *err, size_t errlen)
{
	struct bgp_config	*cfg = base;
	char			*list = strdup(arg), *s, *save = NULL;
	unsigned		 f, k;

	cfg->n_fam = 0;
	for (s = strtok_r(list, ",", &save); s != NULL;
	    s = strtok_r(NULL, ",", &save)) {
		if ((f = bgp_family_by_name(s)) == BGP_FAM_MAX) {
			snprintf(err, errlen, "--family: '%s' is not one of "
			    "ipv4-unicast, ipv6-unicast, l3vpn-ipv4-unicast, "
			    "l3vpn-ipv6-unicast, ipv4-labelled-unicast, "
			    "l2vpn-evpn, ipv4-flowspec, ipv6-flowspec, ls", s);
			free(list);
			return -1;
		}
		for (k = 0; k < cfg->n_fam && cfg->fams[k] != f; k++)
			;
		if (k == cfg->n_fam)
			cfg->fams[cfg->n_fam++] = (uint8_t)f;
	}
	free(list);
	if (cfg->n_fam > 0)
		return 0;
	snprintf(err, errlen, "--family: no family in '%s'", arg);
	return -1;
}

int
bgp_evpn_types_row(void *base, const char *arg, char *err, size_t errlen)
{
	struct bgp_config	*cfg = base;
	const char		*s = arg;
	char			*end;
	unsigned long		 t;
	uint8_t			 mask = 0;

	do {
		t = strtoul(s, &end, 10);
		if (end == s || t < 1 || t > 5 || (*end != ',' && *end != '\0')) {
			snprintf(err, errlen, "--evpn-types: '%s' is not a list "
			    "of route types 1 to 5 (RFC 7432, RFC 9136)", arg);
			return -1;
		}
		mask |= (uint8_t)(1u << t);
		s = end + 1;
	} while (*end == ',');
	cfg->gen.evpn_types = mask;
	return 0;
}

/* Which address family --first-prefix and --afi stand for: the given
 * prefix's where a listed family carries it, else the first family's. */
static void
bgp_fam_firsts(struct bgp_config *cfg)
{
	unsigned	k, af = bgp_families[cfg->fams[0]].addr_af;

	for (k = 0; k < cfg->n_fam; k++)
		if (cfg->first.af == bgp_families[cfg->fams[k]].addr_af)
			af = cfg->first.af;
	cfg->af = (uint8_t)af;
	bgp_prefix_parse("10.0.0.0/24", &cfg->fam_first[BGP_AF_IPV4]);
	bgp_prefix_parse("2001:db8::/64", &cfg->fam_first[BGP_AF_IPV6]);
	if (cfg->first.af < BGP_AF_MAX)
		cfg->fam_first[cfg->first.af] = cfg->first;
}

const char *
bgp_peer_fam_check(struct bgp_config *cfg)
{
	unsigned	k, vpn = 0, other = 0;

	if (cfg->n_fam == 0) {
		cfg->fams[0] = cfg->af;		/* --afi's unicast */
		cfg->n_fam = 1;
	}
	bgp_fam_firsts(cfg);
	for (k = 0; k < cfg->n_fam; k++) {
		vpn |= bgp_families[cfg->fams[k]].safi == BGP_SAFI_VPN ||
		    cfg->fams[k] == BGP_FAM_EVPN;
		other |= cfg->fams[k] >= BGP_AF_MAX;
	}
	if (other && (cfg->monitor != NULL || cfg->nb.url != NULL))
		return "--monitor and --northbound witness unicast routes only "
		    "(for the other families, hold the sessions with --settle)";
	if (cfg->route_targets == RT_UNSET)
		cfg->route_targets = vpn;
	cfg->gen.rd_as = cfg->as;
	if (vpn && cfg->gen.rd_type == 0 && cfg->as > 0xffff)
		return "--rd-type 0 holds a 2-octet AS: give --rd-type 1 or 2";
	if (cfg->gen.ls_shape == BGP_LS_RING && cfg->gen.ls_nodes < 3)
		return "--topology ring needs --ls-nodes 3 or more";
	if (cfg->gen.label_base < 16 || cfg->gen.label_base > BGP_LABEL_MAX)
		return "--label-base: 16 to 1048575 (RFC 3032: 0-15 reserved)";
	if (cfg->churn_rate > 0 && (cfg->n_fam > 1 || cfg->fams[0] != cfg->af))
		return "--churn-rate churns one unicast family (--family)";
	return NULL;
}

/* Route targets ASN:1 to ASN:N (type 0x0002, RFC 4360 section 4), or
 * with a 4-octet AS type 0x0202 (RFC 5668 section 2). */
void
bgp_peer_fam_attrs(const struct bgp_config *cfg, struct bgp_attrs *a)
{
	uint32_t	i, n;
	uint8_t		*e;

	a->n_ext = 0;
	for (i = 0; i < cfg->route_targets; i++) {
		if ((e = bgp_ext_add(a, cfg->as <= 0xffff ? 0x00 : 0x02,
		    0x02)) == NULL)
			break;
		n = i + 1;
		if (cfg->as <= 0xffff) {
			e[2] = (uint8_t)(cfg->as >> 8);
			e[3] = (uint8_t)cfg->as;
			e[4] = (uint8_t)(n >> 24);
			e[5] = (uint8_t)(n >> 16);
		} else {
			e[2] = (uint8_t)(cfg->as >> 24);
			e[3] = (uint8_t)(cfg->as >> 16);
			e[4] = (uint8_t)(cfg->as >> 8);
			e[5] = (uint8_t)cfg->as;
		}
		e[6] = (uint8_t)(n >> 8);
		e[7] = (uint8_t)n;
	}
}
