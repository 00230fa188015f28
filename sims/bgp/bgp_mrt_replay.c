/*
 * `sbsim bgp --mrt FILE`: the peers announce a dump's routes (bgp_mrt.c
 * reads it) instead of generated prefixes.  Loaded once before the run:
 * each sbsim peer's routes in the dump's order, as runs ("groups") of
 * prefixes that share identical recorded attributes, so that one UPDATE
 * carries as many of a run as fit.  The peers walk them by index as they
 * walk generated prefixes (ann_next, wd_next), so announce, learn and
 * withdraw are the same phases with the same witness.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bgp_mrt.h"
#include "bgp_sim.h"
#include "bgp_wire.h"
#include "log.h"

#define ATTR_NEXT_HOP	3
#define ATTR_LOCAL_PREF	5
#define ATTR_AS_PATH	2
#define ATTR_MP_REACH	14
#define ATTR_MP_UNREACH	15

/* A run of one peer's routes with the same attributes and next hop. */
struct mrt_grp {
	uint64_t	first;		/* index of its first route */
	size_t		attr_off;	/* in the plan's arena */
	uint32_t	attr_len;
	uint8_t		af, nh_len;
	uint8_t		nh[32];
};

struct mrt_pp {
	struct mrt_grp		*g;
	uint64_t		 n_g, cap_g;
	struct bgp_prefix	*r;
	uint64_t		 n_r, cap_r;
};

struct bgp_mrt_plan {
	uint8_t		*arena;
	size_t		 alen, acap;
	struct mrt_pp	*pp;		/* one per sbsim peer */
	uint32_t	 n_pp;		/* used */
	uint32_t	 fold;		/* --peers given: slots mod it */
	uint32_t	 slot[MRT_MAX_PEERS];	/* dump peer's, +1; 0 none */
	uint32_t	 dump_peers;
	uint64_t	 total, distinct;
	uint32_t	 afs;		/* bit per enum bgp_af seen */
	double		 credit;	/* --mrt-rate's routes to send */
	struct bgp_pmap	 seen;
};

static void *
grow(void *p, uint64_t *cap, uint64_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? *cap * 2 : 1024;
	if (*cap < need)
		*cap = need;
	if ((p = realloc(p, *cap * size)) == NULL)
		fatalx("out of memory for the MRT dump's routes");
	return p;
}

/* A new group unless the route continues the peer's last one. */
static void
mrt_plan_group(struct bgp_mrt_plan *pl, struct mrt_pp *pp,
    const struct mrt_route *rt)
{
	struct mrt_grp	*g = pp->n_g ? &pp->g[pp->n_g - 1] : NULL;
	uint64_t	 acap = pl->acap;

	if (g != NULL && g->af == rt->pfx.af && g->attr_len == rt->attr_len &&
	    g->nh_len == rt->nh_len && memcmp(g->nh, rt->nh, rt->nh_len) == 0 &&
	    memcmp(pl->arena + g->attr_off, rt->attrs, rt->attr_len) == 0)
		return;
	pp->g = grow(pp->g, &pp->cap_g, pp->n_g + 1, sizeof(*pp->g));
	g = &pp->g[pp->n_g++];
	memset(g, 0, sizeof(*g));
	g->first = pp->n_r;
	g->af = rt->pfx.af;
	g->nh_len = rt->nh_len;
	memcpy(g->nh, rt->nh, rt->nh_len);
	pl->arena = grow(pl->arena, &acap, pl->alen + rt->attr_len, 1);
	pl->acap = acap;
	g->attr_off = pl->alen;
	g->attr_len = rt->attr_len;
	memcpy(pl->arena + pl->alen, rt->attrs, rt->attr_len);
	pl->alen += rt->attr_len;
}

static int
mrt_plan_route(void *arg, const struct mrt_route *rt)
{
	struct bgp_sim		*sim = arg;
	struct bgp_mrt_plan	*pl = sim->mrt;
	struct mrt_pp		*pp;
	uint32_t		 k;

	/* Dump peers in the order their first route comes. */
	if (pl->slot[rt->peer] == 0)
		pl->slot[rt->peer] = ++pl->dump_peers;
	k = sim->cfg.mrt_one ? 0 : pl->slot[rt->peer] - 1;
	if (pl->fold)
		k %= pl->fold;
	pp = &pl->pp[k];
	if (k >= pl->n_pp)
		pl->n_pp = k + 1;
	mrt_plan_group(pl, pp, rt);
	pp->r = grow(pp->r, &pp->cap_r, pp->n_r + 1, sizeof(*pp->r));
	pp->r[pp->n_r++] = rt->pfx;
	pl->total++;
	/* A RIB record holds every entry of its prefix: its first one is
	 * new (hashing a million prefixes would cost more than the rest of
	 * the load); BGP4MP's prefixes come back in any order. */
	if (rt->table)
		pl->distinct += rt->entry == 0;
	else
		pl->distinct += bgp_pmap_put(&pl->seen, &rt->pfx, NULL) == 1;
	pl->afs |= 1u << rt->pfx.af;
	return 0;
}

/* --peers: the dump's peers with routes unless given; more than those
 * would leave peers with nothing to announce. */
static const char *
bgp_mrt_peers(struct bgp_sim *sim, char *err, size_t errlen)
{
	struct bgp_config	*cfg = &sim->cfg;
	struct bgp_mrt_plan	*pl = sim->mrt;

	if (pl->total == 0) {
		snprintf(err, errlen, "--mrt %s: no route to replay", cfg->mrt);
		return err;
	}
	if (cfg->churn_rate > 0) {
		snprintf(err, errlen, "--churn-rate churns generated prefixes, "
		    "not --mrt's");
		return err;
	}
	if (cfg->peers == 0)
		cfg->peers = pl->n_pp;
	/* The OPEN offers the unicast families the dump has. */
	cfg->n_fam = 0;
	if (pl->afs & 1u << BGP_AF_IPV4)
		cfg->fams[cfg->n_fam++] = BGP_AF_IPV4;
	if (pl->afs & 1u << BGP_AF_IPV6)
		cfg->fams[cfg->n_fam++] = BGP_AF_IPV6;
	cfg->af = cfg->fams[0];
	if (cfg->peers > pl->n_pp) {
		snprintf(err, errlen, "--peers %u: the dump's routes fill %u "
		    "peers (--mrt-peers %s)", cfg->peers, pl->n_pp,
		    cfg->mrt_one ? "one" : "each");
		return err;
	}
	return NULL;
}

/* Each dump peer onto sbsim peer (its index mod --peers), or all onto
 * the first (--mrt-peers one). */
const char *
bgp_mrt_load(struct bgp_sim *sim, char *err, size_t errlen)
{
	struct bgp_config	*cfg = &sim->cfg;
	struct bgp_mrt_plan	*pl = calloc(1, sizeof(*pl));
	struct mrt_file		*f = calloc(1, sizeof(*f));

	if (pl == NULL || f == NULL)
		fatalx("out of memory");
	sim->mrt = pl;
	bgp_pmap_init(&pl->seen, 0);
	pl->fold = cfg->peers;
	pl->pp = calloc(MRT_MAX_PEERS, sizeof(*pl->pp));
	if (pl->pp == NULL)
		fatalx("out of memory");
	if (mrt_load(f, cfg->mrt, err, errlen) == -1 ||
	    mrt_walk(f, mrt_plan_route, sim, err, errlen) == -1) {
		mrt_free(f);
		free(f);
		bgp_pmap_free(&pl->seen);
		return err;
	}
	log_info("--mrt %s: %llu records, %llu routes (%llu prefixes) of %u "
	    "peers; %llu records skipped, %llu UPDATEs with withdrawals "
	    "(not replayed)", cfg->mrt, (unsigned long long)f->records,
	    (unsigned long long)pl->total, (unsigned long long)pl->distinct,
	    pl->dump_peers, (unsigned long long)f->skipped,
	    (unsigned long long)f->withdrawals);
	mrt_free(f);
	free(f);
	bgp_pmap_free(&pl->seen);
	return bgp_mrt_peers(sim, err, errlen);
}

void
bgp_mrt_free(struct bgp_sim *sim)
{
	struct bgp_mrt_plan	*pl = sim->mrt;
	uint32_t		 i;

	if (pl == NULL)
		return;
	for (i = 0; pl->pp != NULL && i < MRT_MAX_PEERS; i++) {
		free(pl->pp[i].g);
		free(pl->pp[i].r);
	}
	free(pl->pp);
	free(pl->arena);
	free(pl);
	sim->mrt = NULL;
}

uint64_t
bgp_mrt_total(const struct bgp_sim *sim)
{
	return sim->mrt->total;
}

/* A prefix several dump peers announced is one route at the monitor. */
void
bgp_mrt_targets(struct bgp_sim *sim)
{
	if (sim->ph[BGPP_LEARN] != NULL)
		sim->ph[BGPP_LEARN]->target = sim->mrt->distinct;
	if (sim->ph[BGPP_WITHDRAW] != NULL &&
	    sim->ph[BGPP_WITHDRAW]->target > 0)
		sim->ph[BGPP_WITHDRAW]->target = sim->mrt->distinct;
}

uint64_t
bgp_peer_count(const struct bgp_peer *p)
{
	const struct bgp_sim	*sim = p->sim;
	uint32_t		 i;

	if (sim->mrt == NULL)
		return bgp_peer_routes(&sim->cfg);
	i = p->idx - sim->idx_base;
	return i < sim->mrt->n_pp ? sim->mrt->pp[i].n_r : 0;
}

/* The group holding route i (groups are in index order). */
static const struct mrt_grp *
mrt_group_of(const struct mrt_pp *pp, uint64_t i, uint64_t *end)
{
	uint64_t	lo = 0, hi = pp->n_g, mid;

	while (hi - lo > 1) {
		mid = (lo + hi) / 2;
		if (pp->g[mid].first <= i)
			lo = mid;
		else
			hi = mid;
	}
	*end = lo + 1 < pp->n_g ? pp->g[lo + 1].first : pp->n_r;
	return &pp->g[lo];
}

/* AS_PATH with our AS first where the session is eBGP (RFC 4271
 * section 5.1.2): into the first AS_SEQUENCE, or a new one before. */
static int
mrt_put_as_path(struct wbuf *w, const uint8_t *v, size_t len, uint32_t as)
{
	size_t	at;
	int	join = len >= 2 && v[0] == 2 && v[1] < 255;

	if (wbuf_put_u8(w, 0x50) == -1 || wbuf_put_u8(w, ATTR_AS_PATH) == -1)
		return -1;
	at = w->len;
	wbuf_put_u16(w, 0);
	wbuf_put_u8(w, 2);
	wbuf_put_u8(w, join ? (uint8_t)(v[1] + 1) : 1);
	wbuf_put_u32(w, as);
	if (join)
		wbuf_put_bytes(w, v + 2, len - 2);
	else
		wbuf_put_bytes(w, v, len);
	return wbuf_set_u16(w, at, (uint16_t)(w->len - at - 2));
}

/* The recorded attributes for this session: our AS prepended and
 * LOCAL_PREF dropped towards an external peer (section 5.1.5), NEXT_HOP
 * rewritten with --mrt-next-hop set. */
static int
mrt_put_attrs(struct bgp_peer *p, struct wbuf *w, const uint8_t *a,
    uint32_t len, int ebgp)
{
	const struct bgp_config	*cfg = &p->sim->cfg;
	struct rbuf		 r, v;
	uint8_t			 fl, type, l8;
	uint16_t		 l = 0;
	int			 rc, had_path = 0;

	rbuf_init(&r, a, len);
	while (rbuf_get_u8(&r, &fl) == 0 && rbuf_get_u8(&r, &type) == 0) {
		rc = fl & 0x10 ? rbuf_get_u16(&r, &l) : rbuf_get_u8(&r, &l8);
		if (!(fl & 0x10))
			l = l8;
		if (rc == -1 || rbuf_sub(&r, &v, l) == -1)
			return -1;		/* checked by the reader */
		if (type == ATTR_LOCAL_PREF && ebgp)
			continue;
		if (type == ATTR_AS_PATH && ebgp) {
			had_path = 1;
			rc = mrt_put_as_path(w, rbuf_ptr(&v), l, cfg->as);
		} else if (type == ATTR_NEXT_HOP && l == 4 &&
		    cfg->mrt_next_hop) {
			wbuf_put_bytes(w, a + (rbuf_ptr(&v) - a) - 3, 3);
			rc = wbuf_put_bytes(w, cfg->next_hop_self ? p->local4 :
			    cfg->next_hop4, 4);
		} else
			rc = wbuf_put_bytes(w, rbuf_ptr(&v) -
			    (fl & 0x10 ? 4 : 3), l + (fl & 0x10 ? 4u : 3u));
		if (rc == -1)
			return -1;
	}
	if (ebgp && !had_path)
		return mrt_put_as_path(w, NULL, 0, cfg->as);
	return 0;
}

static size_t
mrt_pfx_size(const struct bgp_prefix *x, int ap)
{
	return (ap ? 4u : 0u) + 1u + (x->len + 7u) / 8u;
}

/* Prefixes from *next to end while they fit below lim. */
static uint32_t
mrt_put_nlri(struct wbuf *w, const struct mrt_pp *pp, uint64_t *next,
    uint64_t end, size_t lim, int ap)
{
	const struct bgp_prefix	*x;
	uint32_t		 n = 0;

	for (; *next < end; (*next)++, n++) {
		x = &pp->r[*next];
		if (w->len + mrt_pfx_size(x, ap) > lim)
			break;
		if (ap)
			wbuf_put_u32(w, x->path_id ? x->path_id : 1);
		wbuf_put_u8(w, x->len);
		wbuf_put_bytes(w, x->addr, (x->len + 7u) / 8u);
	}
	return n;
}

/* MP_REACH or MP_UNREACH of IPv6 unicast (RFC 4760 sections 3, 4). */
static uint32_t
mrt_put_mp(struct bgp_peer *p, struct wbuf *w, const struct mrt_grp *g,
    uint64_t *next, uint64_t end, size_t lim, int reach)
{
	const struct bgp_config	*cfg = &p->sim->cfg;
	const uint8_t		*nh = g->nh;
	uint8_t			 nhl = g->nh_len;
	size_t			 at;
	uint32_t		 n;

	if (cfg->mrt_next_hop || nhl == 0) {
		nh = cfg->next_hop_self ? p->local6 : cfg->next_hop6;
		nhl = 16;
	}
	wbuf_put_u8(w, 0x90);
	wbuf_put_u8(w, reach ? ATTR_MP_REACH : ATTR_MP_UNREACH);
	at = w->len;
	wbuf_put_u16(w, 0);
	wbuf_put_u16(w, 2);
	wbuf_put_u8(w, 1);
	if (reach) {
		wbuf_put_u8(w, nhl);
		wbuf_put_bytes(w, nh, nhl);
		wbuf_put_u8(w, 0);
	}
	n = mrt_put_nlri(w, &p->sim->mrt->pp[p->idx - p->sim->idx_base],
	    next, end, lim, p->sc.addpath_tx[BGP_AF_IPV6]);
	wbuf_set_u16(w, at, (uint16_t)(w->len - at - 2));
	return n;
}

uint32_t
bgp_mrt_build(struct bgp_peer *p, struct wbuf *w, uint64_t *next,
    const struct bgp_attrs *a, uint32_t max)
{
	const struct bgp_config	*cfg = &p->sim->cfg;
	const struct mrt_pp	*pp = &p->sim->mrt->pp[p->idx -
				    p->sim->idx_base];
	uint64_t		 gend, from = *next;
	const struct mrt_grp	*g = mrt_group_of(pp, *next, &gend);
	size_t			 start = bgp_msg_begin(w, BGP_UPDATE), at;
	size_t			 lim = start + BGP_MAX_LEN;
	int			 v6 = g->af == BGP_AF_IPV6;
	uint32_t		 n;

	if (a != NULL && bgp_mrt_allowance(p) < max)
		max = bgp_mrt_allowance(p);
	if (gend - *next > max)
		gend = *next + max;
	at = w->len;
	wbuf_put_u16(w, 0);			/* withdrawn routes length */
	if (a == NULL && !v6) {
		n = mrt_put_nlri(w, pp, next, gend, lim - 2,
		    p->sc.addpath_tx[BGP_AF_IPV4]);
		wbuf_set_u16(w, at, (uint16_t)(w->len - at - 2));
		wbuf_put_u16(w, 0);
	} else {
		at = w->len;
		wbuf_put_u16(w, 0);		/* path attributes length */
		if (a != NULL && mrt_put_attrs(p, w, p->sim->mrt->arena +
		    g->attr_off, g->attr_len, cfg->peer_as != cfg->as) == -1)
			n = 0;
		else if (v6)
			n = mrt_put_mp(p, w, g, next, gend, lim, a != NULL);
		else
			n = 0;
		wbuf_set_u16(w, at, (uint16_t)(w->len - at - 2));
		if (a != NULL && !v6)
			n = mrt_put_nlri(w, pp, next, gend, lim,
			    p->sc.addpath_tx[BGP_AF_IPV4]);
	}
	if (n == 0 || w->err || bgp_msg_end(w, start) == -1) {
		w->len = start;
		w->err = 0;
		*next = from;
		return 0;
	}
	if (a != NULL && cfg->mrt_rate > 0)
		p->sim->mrt->credit -= n;
	return n;
}

int
bgp_mrt_pace(struct bgp_sim *sim, uint64_t now)
{
	struct bgp_mrt_plan	*pl = sim->mrt;
	double			 rate = sim->cfg.mrt_rate;

	if (rate <= 0)
		return 0;
	pl->credit += rate * (double)(now - sim->last_tick_ns) / 1e9;
	/* No bursts: at most a second's worth (one route at least). */
	if (pl->credit > (rate > 1 ? rate : 1))
		pl->credit = rate > 1 ? rate : 1;
	return pl->credit >= 1;
}

uint32_t
bgp_mrt_allowance(const struct bgp_peer *p)
{
	const struct bgp_sim	*sim = p->sim;

	if (sim->mrt == NULL || sim->cfg.mrt_rate <= 0 ||
	    p->sending != BGP_SEND_ANNOUNCE)
		return UINT32_MAX;
	return sim->mrt->credit < 1 ? 0 : (uint32_t)sim->mrt->credit;
}

/* Routes of a family the session refused: skipped and counted once. */
int
bgp_mrt_skip(struct bgp_peer *p, uint64_t *next)
{
	const struct mrt_pp	*pp = &p->sim->mrt->pp[p->idx -
				    p->sim->idx_base];
	const struct mrt_grp	*g;
	uint64_t		 end;

	if (*next >= pp->n_r)
		return 0;
	g = mrt_group_of(pp, *next, &end);
	if (p->fam_ok & 1u << g->af)
		return 0;
	if (next == &p->ann_next && p->ann_high < end) {
		p->sim->refused += end - *next;
		*p->sim->c.routes_refused += end - *next;
		p->ann_high = end;
	}
	*next = end;
	return 1;
}

/*
 * --mrt-out: the monitor's adj-RIB-in as TABLE_DUMP_V2, one peer (the
 * speaker it peers with) and a RIB record per prefix.  The monitor keeps
 * prefixes, not their attributes: each entry carries ORIGIN, an empty
 * AS_PATH and a zero next hop, so that two runs' files compare by their
 * prefixes (bgpdump -m lists them).
 */
int
bgp_mrt_out(struct bgp_sim *sim)
{
	static const uint8_t	 attrs[] = { 0x40, 1, 1, 0, 0x40, 2, 0,
				    0x40, 3, 4, 0, 0, 0, 0 };
	static const uint8_t	 nh6[16];
	struct mrt_peer		 peer = { .as = sim->cfg.peer_as };
	struct mrt_writer	*m;
	struct bgp_prefix	 x;
	size_t			 slot;
	unsigned		 af;
	int			 rc = 0;

	peer.bgp_id = sim->mon.bgp_id;
	memcpy(peer.addr, sim->mon.local4, 4);
	if ((m = mrt_writer_open(sim->cfg.mrt_out, sim->mon.bgp_id, &peer,
	    1)) == NULL) {
		log_warn("--mrt-out %s", sim->cfg.mrt_out);
		return -1;
	}
	for (af = 0; af < BGP_AF_MAX && sim->mon.rib_in != NULL; af++)
		for (slot = 0; rc == 0 && bgp_pmap_next(sim->mon.rib_in, af,
		    &slot, &x, NULL); )
			rc = mrt_writer_route(m, 0, (uint32_t)time(NULL), &x,
			    attrs, af == BGP_AF_IPV6 ? 7 : sizeof(attrs), nh6,
			    16);
	if (mrt_writer_close(m) == -1 || rc == -1) {
		log_warn("--mrt-out %s: write", sim->cfg.mrt_out);
		return -1;
	}
	return 0;
}
