/*
 * The embedded controller's BGP speaker (bgp_ctl.h).
 *
 * Loc-RIB: a prefix map whose value is the list of paths for the prefix,
 * best first (RFC 4271 section 9.1.2, reduced to LOCAL_PREF, AS_PATH
 * length, ORIGIN, MED, then the lower BGP identifier).  Attribute sets are
 * interned: the routes of one UPDATE share one.
 *
 * Advertising: a peer that should hear our routes first walks the whole
 * Loc-RIB, then follows a log of changed prefixes from the point it began;
 * for each logged prefix it sends what the Loc-RIB holds now (the best
 * path, or a withdrawal), so a prefix that changed twice goes out once
 * with its latest state or twice with the same one, never stale.  Output
 * is built only while the peer's socket buffer is below a high-water mark.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>

#include "bgp_io.h"
#include "bgp_md5.h"
#include "bgp_nbr.h"
#include "bgp_rib.h"
#include "bgp_ctl.h"
#include "ctl_listen.h"
#include "engine.h"
#include "log.h"
#include "metrics.h"
#include "pool.h"

#define SPK_OUT_HIGH	(512 * 1024)
#define SPK_OUT_LOW	(128 * 1024)
#define SPK_APP		UINT32_MAX	/* peer id of application routes */
#define SPK_ATTR_BUCKETS 4096
#define SPK_OPEN_HOLD_S	240

enum spk_state {
	SPK_OPENSENT,
	SPK_OPENCONFIRM,
	SPK_ESTABLISHED,
	SPK_CLOSING,		/* NOTIFICATION sent, draining */
};

struct spk_attr {
	struct spk_attr	*next;		/* hash chain */
	uint64_t	 hash;
	uint32_t	 refs;
	struct bgp_attrs a;
};

struct spk_path {
	struct spk_path	*next;
	struct spk_attr	*attr;
	uint32_t	 peer;		/* peer id, SPK_APP */
	uint32_t	 bgp_id;	/* tie breaker */
};

struct spk_peer {
	struct ctl_sess		 cs;		/* first: ctl_sess_event() */
	struct bgp_ctl		*sp;		/* its speaker */
	struct bgp_conn		 conn;		/* framing, shared with peers */
	uint32_t		 id;
	uint8_t			 state;
	uint8_t			 advertise;	/* gets our routes */
	uint8_t			 dumping;	/* walking the Loc-RIB */
	uint8_t			 dump_af;
	uint8_t			 af_ok[BGP_AF_MAX];
	uint8_t			 eor[BGP_AF_MAX];	/* peer does GR */
	uint8_t			 ibgp;
	uint8_t			 af_cfg[BGP_AF_MAX];	/* configured */
	uint16_t		 hold_cfg;	/* we propose */
	uint32_t		 expect_as;	/* 0: any */
	struct bufferevent	*bev;
	struct sockaddr_storage	 addr;
	char			 name[64];
	uint32_t		 remote_as;
	uint32_t		 bgp_id;
	uint16_t		 hold;
	struct bgp_sess_caps	 sc;
	uint8_t			 local4[4];
	uint8_t			 local6[16];
	uint64_t		 last_rx_ns;
	uint64_t		 last_ka_ns;
	uint64_t		 closing_ns;
	size_t			 dump_slot;
	uint32_t		 dump_gen;
	uint64_t		 log_pos;	/* next log entry to send */
	uint64_t		 prefixes;	/* paths it gave us */
};

/* Prefixes whose best path changed, in order. */
struct spk_log {
	struct bgp_prefix	*e;
	uint64_t		 base;		/* sequence number of e[0] */
	size_t			 n;
	size_t			 cap;
};

/*
 * One speaker: everything it holds, so that nothing of it lives in
 * file-level variables.  Its peers point back at it (pe->sp) and its
 * timers and listener get it as their argument.  The context-free API of
 * bgp_ctl.h serves spk_main, the process's one instance.
 */
struct bgp_ctl {
	struct bgp_ctl_config	 cfg;
	struct bgp_ctl_stats	 st;
	struct ctl_listen	 lis;		/* the listener and spk_tick */
	struct engine_soon	*kick;		/* changes to send */
	struct bgp_pmap		 rib;		/* value: struct spk_path * */
	struct spk_attr		*attr_tab[SPK_ATTR_BUCKETS];
	struct spk_peer		**peers;
	uint32_t		 n_peers;	/* slots in peers */
	struct spk_log		 chlog;
	uint64_t		 app_count[BGP_AF_MAX];
	/* Established peers that hear our routes: a change is logged only
	 * when there is one (counted, not searched for on every change). */
	uint32_t		 n_advertising;
	/* The Loc-RIB changed in this round of the loop (one transaction). */
	int			 change_open;
};

static struct bgp_ctl	spk_main;

static void	spk_fill(struct spk_peer *);
static void	spk_kick(struct bgp_ctl *);
static struct spk_peer *spk_peer_by_name(struct bgp_ctl *, const char *);
static const struct ctl_sess_ops spk_role_ops;

/* ---- attribute sets ---- */

static uint64_t
spk_attr_hash(const struct bgp_attrs *a)
{
	const uint8_t	*p = (const uint8_t *)a;
	uint64_t	 h = 1469598103934665603ull;
	size_t		 i;

	for (i = 0; i < sizeof(*a); i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

static struct spk_attr *
spk_attr_get(struct bgp_ctl *sp, const struct bgp_attrs *a)
{
	uint64_t	 h = spk_attr_hash(a);
	struct spk_attr	*s;

	for (s = sp->attr_tab[h % SPK_ATTR_BUCKETS]; s != NULL; s = s->next)
		if (s->hash == h && memcmp(&s->a, a, sizeof(*a)) == 0) {
			s->refs++;
			return s;
		}
	s = xcalloc(1, sizeof(*s));
	s->hash = h;
	s->refs = 1;
	s->a = *a;
	s->next = sp->attr_tab[h % SPK_ATTR_BUCKETS];
	sp->attr_tab[h % SPK_ATTR_BUCKETS] = s;
	return s;
}

static void
spk_attr_put(struct bgp_ctl *sp, struct spk_attr *s)
{
	struct spk_attr	**pp;

	if (--s->refs > 0)
		return;
	for (pp = &sp->attr_tab[s->hash % SPK_ATTR_BUCKETS]; *pp != s;
	    pp = &(*pp)->next)
		;
	*pp = s->next;
	free(s);
}

/* ---- Loc-RIB ---- */

static uint32_t
spk_lp(const struct bgp_attrs *a)
{
	return a->has_local_pref ? a->local_pref : 100;
}

/* <0 when x is the better path (RFC 4271 section 9.1.2.2, reduced). */
static int
spk_path_cmp(const struct spk_path *x, const struct spk_path *y)
{
	const struct bgp_attrs	*a = &x->attr->a, *b = &y->attr->a;

	if ((x->peer == SPK_APP) != (y->peer == SPK_APP))
		return x->peer == SPK_APP ? -1 : 1;
	if (spk_lp(a) != spk_lp(b))
		return spk_lp(a) > spk_lp(b) ? -1 : 1;
	if (a->n_as != b->n_as)
		return a->n_as < b->n_as ? -1 : 1;
	if (a->origin != b->origin)
		return a->origin < b->origin ? -1 : 1;
	if (a->has_med && b->has_med && a->med != b->med)
		return a->med < b->med ? -1 : 1;
	if (x->bgp_id != y->bgp_id)
		return x->bgp_id < y->bgp_id ? -1 : 1;
	return 0;
}

static void
spk_log_change(struct bgp_ctl *sp, const struct bgp_prefix *p)
{
	sp->st.last_change_ns = clock_ns();
	sp->change_open = 1;
	spk_kick(sp);
	if (sp->n_advertising == 0)
		return;		/* a peer that comes later dumps the RIB */
	if (sp->chlog.n == sp->chlog.cap) {
		sp->chlog.cap = sp->chlog.cap ? sp->chlog.cap * 2 : 4096;
		sp->chlog.e = xreallocarray(sp->chlog.e, sp->chlog.cap,
		    sizeof(*sp->chlog.e));
	}
	sp->chlog.e[sp->chlog.n++] = *p;
}

/* Drop log entries every advertising peer has sent. */
static void
spk_log_trim(struct bgp_ctl *sp)
{
	uint64_t	min = sp->chlog.base + sp->chlog.n, drop;
	uint32_t	i;

	for (i = 0; i < sp->n_peers; i++)
		if (sp->peers[i] != NULL && sp->peers[i]->advertise &&
		    sp->peers[i]->state == SPK_ESTABLISHED &&
		    sp->peers[i]->log_pos < min)
			min = sp->peers[i]->log_pos;
	drop = min - sp->chlog.base;
	if (drop == 0 || drop * 2 < sp->chlog.n)
		return;
	memmove(sp->chlog.e, sp->chlog.e + drop,
	    (sp->chlog.n - drop) * sizeof(*sp->chlog.e));
	sp->chlog.n -= drop;
	sp->chlog.base = min;
}

/* The prefix's key in the Loc-RIB: path ids are not kept. */
static void
spk_key(const struct bgp_prefix *in, struct bgp_prefix *out)
{
	*out = *in;
	out->path_id = 0;
}

/*
 * The path list of a prefix lives in the map's 64-bit value; it is read
 * into a pointer and written back, never accessed through a cast of the
 * value's address (that would break C's aliasing rules).
 */
static struct spk_path *
spk_paths(const uint64_t *val)
{
	return (struct spk_path *)(uintptr_t)*val;
}

/* Unlink the peer's path from the list; NULL when it has none. */
static struct spk_path *
spk_unlink(struct spk_path **head, uint32_t peer)
{
	struct spk_path	**pp, *p;

	for (pp = head; *pp != NULL; pp = &(*pp)->next)
		if ((*pp)->peer == peer) {
			p = *pp;
			*pp = p->next;
			return p;
		}
	return NULL;
}

static void
spk_path_add(struct bgp_ctl *sp, const struct bgp_prefix *pfx, uint32_t peer,
    uint32_t bgp_id, struct spk_attr *attr)
{
	struct bgp_prefix	 k;
	struct spk_path		**pp, *p, *head, *old;
	uint64_t		*val;

	spk_key(pfx, &k);
	bgp_pmap_put(&sp->rib, &k, &val);
	head = old = spk_paths(val);
	if ((p = spk_unlink(&head, peer)) != NULL) {
		if (p->attr == attr) {
			*val = (uint64_t)(uintptr_t)old;	/* unchanged */
			return;
		}
		spk_attr_put(sp, p->attr);
	} else {
		p = xmalloc(sizeof(*p));
		if (peer != SPK_APP)
			sp->peers[peer]->prefixes++;
		else
			sp->app_count[k.af]++;
	}
	attr->refs++;
	p->attr = attr;
	p->peer = peer;
	p->bgp_id = bgp_id;
	for (pp = &head; *pp != NULL && spk_path_cmp(*pp, p) <= 0;
	    pp = &(*pp)->next)
		;
	p->next = *pp;
	*pp = p;
	*val = (uint64_t)(uintptr_t)head;
	/* A new best path, or the best one with new attributes. */
	if (head != old || head == p)
		spk_log_change(sp, &k);
}

/* 1 when the peer had a path for the prefix. */
static int
spk_path_del(struct bgp_ctl *sp, const struct bgp_prefix *pfx, uint32_t peer)
{
	struct bgp_prefix	 k;
	struct spk_path		*p, *head, *old;
	uint64_t		*val;

	spk_key(pfx, &k);
	if ((val = bgp_pmap_get(&sp->rib, &k)) == NULL)
		return 0;
	head = old = spk_paths(val);
	if ((p = spk_unlink(&head, peer)) == NULL)
		return 0;
	spk_attr_put(sp, p->attr);
	free(p);
	if (peer != SPK_APP)
		sp->peers[peer]->prefixes--;
	else
		sp->app_count[k.af]--;
	*val = (uint64_t)(uintptr_t)head;
	if (head == NULL)
		bgp_pmap_del(&sp->rib, &k, NULL);
	if (old == p)
		spk_log_change(sp, &k);
	return 1;
}

/* Every path of one peer (or of the application) goes: a peer that went
 * away (RFC 4271 sections 8.2.2 and 9.1), or a cleared application RIB. */
static void
spk_drop_paths(struct bgp_ctl *sp, uint32_t peer)
{
	struct bgp_prefix	 pfx, *gone = NULL;
	size_t			 slot, n = 0, cap = 0, i;
	uint64_t		 val;
	const struct spk_path	*p;
	int			 af;

	for (af = 0; af < BGP_AF_MAX; af++) {
		slot = 0;
		while (bgp_pmap_next(&sp->rib, af, &slot, &pfx, &val)) {
			for (p = (const struct spk_path *)(uintptr_t)val;
			    p != NULL && p->peer != peer; p = p->next)
				;
			if (p == NULL)
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 1024;
				gone = xreallocarray(gone, cap, sizeof(*gone));
			}
			gone[n++] = pfx;
		}
	}
	/* Deleting moves entries between slots: not during the walk. */
	for (i = 0; i < n; i++)
		spk_path_del(sp, &gone[i], peer);
	free(gone);
}

/* ---- sessions ---- */

static void
spk_send(struct spk_peer *pe, struct wbuf *w)
{
	if (!w->err && w->len > 0 && pe->bev != NULL)
		bufferevent_write(pe->bev, w->data, w->len);
}

static void
spk_peer_free(struct spk_peer *pe)
{
	struct bgp_ctl	*sp = pe->sp;

	if (pe->state == SPK_ESTABLISHED) {
		sp->st.established--;
		if (pe->advertise)
			sp->n_advertising--;
	}
	if (pe->prefixes > 0)
		spk_drop_paths(sp, pe->id);
	if (pe->bev != NULL)
		bufferevent_free(pe->bev);
	sp->peers[pe->id] = NULL;
	free(pe);
}

/* Also ctl_sess_event()'s way to close (spk_role_ops). */
static void
spk_close(void *peer, const char *why)
{
	struct spk_peer	*pe = peer;
	struct bgp_ctl	*sp = pe->sp;	/* pe is freed */

	log_info("bgp %s: closed: %s", pe->name, why);
	spk_peer_free(pe);
	spk_log_trim(sp);
}

static void
spk_notify_close(void *peer, uint8_t code, uint8_t subcode,
    const void *data, size_t len, const char *why)
{
	struct spk_peer	*pe = peer;
	struct bgp_ctl	*sp = pe->sp;
	struct wbuf	*w = bgp_scratch();

	if (pe->state == SPK_CLOSING)
		return;
	bgp_notification_encode(w, code, subcode, data, len);
	spk_send(pe, w);
	sp->st.notifications_sent++;
	log_warnx("bgp %s: sending NOTIFICATION %s: %s", pe->name,
	    bgp_err_name(code, subcode), why);
	if (pe->state == SPK_ESTABLISHED) {
		sp->st.established--;
		if (pe->advertise)
			sp->n_advertising--;
	}
	pe->state = SPK_CLOSING;
	pe->closing_ns = clock_ns();
	if (pe->prefixes > 0)
		spk_drop_paths(sp, pe->id);
	bufferevent_setwatermark(pe->bev, EV_WRITE, 0, 0);
}

static void
spk_notify_err(struct spk_peer *pe, const struct bgp_err *e)
{
	bgp_conn_notify_err(&pe->conn, e);
}

static void
spk_send_open(struct spk_peer *pe)
{
	struct bgp_ctl	*sp = pe->sp;
	struct bgp_open	 o;
	struct wbuf	*w = bgp_scratch();

	memset(&o, 0, sizeof(o));
	o.version = BGP_VERSION;
	o.my_as = sp->cfg.as > 0xffff ? BGP_AS_TRANS : (uint16_t)sp->cfg.as;
	o.hold = pe->hold_cfg;
	o.bgp_id = sp->cfg.bgp_id;
	/* The families configured for the neighbor (RFC 4760 section 8). */
	memcpy(o.caps.mp, pe->af_cfg, sizeof(o.caps.mp));
	o.caps.route_refresh = 1;
	o.caps.as4 = 1;
	o.caps.as4_number = sp->cfg.as;
	o.caps.graceful = 1;
	o.caps.gr_time = 120;
	memcpy(o.caps.gr_af, pe->af_cfg, sizeof(o.caps.gr_af));
	/* Path ids may come in; each peer's best path is kept. */
	o.caps.addpath[BGP_AF_IPV4] = o.caps.addpath[BGP_AF_IPV6] =
	    BGP_ADDPATH_RECEIVE;
	bgp_open_encode(w, &o);
	spk_send(pe, w);
}

static void
spk_fsm_open(struct spk_peer *pe, const uint8_t *msg, size_t len)
{
	struct bgp_ctl	*sp = pe->sp;
	struct bgp_open	 o;
	struct wbuf	*w;
	int		 af;

	if (bgp_conn_open_decode(&pe->conn, msg, len, &o) == -1)
		return;
	if (o.bgp_id == sp->cfg.bgp_id) {
		spk_notify_close(pe, BGP_ERR_OPEN, BGP_ERR_OPEN_BGPID, NULL, 0,
		    "the peer has our BGP identifier");
		return;
	}
	pe->remote_as = bgp_open_as(&o);
	if (pe->expect_as != 0 && pe->remote_as != pe->expect_as) {
		/* RFC 4271 section 6.2: Bad Peer AS. */
		spk_notify_close(pe, BGP_ERR_OPEN, BGP_ERR_OPEN_AS, NULL, 0,
		    "the peer's AS is not the configured peer-as");
		return;
	}
	pe->bgp_id = o.bgp_id;
	pe->ibgp = pe->remote_as == sp->cfg.as;
	pe->hold = o.hold < pe->hold_cfg ? o.hold : pe->hold_cfg;
	memset(&pe->sc, 0, sizeof(pe->sc));
	pe->sc.as4 = o.caps.as4;
	for (af = 0; af < BGP_AF_MAX; af++) {
		pe->sc.addpath_rx[af] = (o.caps.addpath[af] &
		    BGP_ADDPATH_SEND) != 0;
		pe->af_ok[af] = pe->af_cfg[af] && (o.caps.mp[af] ||
		    (af == BGP_AF_IPV4 && !o.caps.mp[BGP_AF_IPV4] &&
		    !o.caps.mp[BGP_AF_IPV6]));
		pe->eor[af] = o.caps.graceful;
	}
	w = bgp_scratch();
	bgp_keepalive_encode(w);
	spk_send(pe, w);
	pe->last_ka_ns = clock_ns();
	pe->state = SPK_OPENCONFIRM;
}

static void
spk_established(struct spk_peer *pe)
{
	struct bgp_ctl	*sp = pe->sp;

	pe->state = SPK_ESTABLISHED;
	sp->st.established++;
	sp->st.sessions++;
	if (pe->advertise)
		sp->n_advertising++;
	log_info("bgp %s: established (AS %u%s)", pe->name, pe->remote_as,
	    pe->advertise ? ", advertising to it" : "");
	if (!pe->advertise)
		return;
	pe->dumping = 1;
	pe->dump_af = 0;
	pe->dump_slot = 0;
	pe->dump_gen = sp->rib.generation;
	pe->log_pos = sp->chlog.base + sp->chlog.n;
	spk_fill(pe);
}

static void
spk_rib_apply(struct spk_peer *pe, struct rbuf span, enum bgp_af af,
    struct spk_attr *attr)
{
	struct bgp_ctl	*sp = pe->sp;
	struct bgp_prefix	pfx;

	/* A family not configured for the neighbor is not taken in: its
	 * routes never reach the Loc-RIB (RFC 4760 section 6). */
	if (!pe->af_cfg[af])
		return;
	while (bgp_nlri_next(&span, af, pe->sc.addpath_rx[af], &pfx) == 1) {
		if (attr != NULL) {
			sp->st.prefixes_received++;
			spk_path_add(sp, &pfx, pe->id, pe->bgp_id, attr);
		} else {
			sp->st.withdrawals_received++;
			spk_path_del(sp, &pfx, pe->id);
		}
	}
}

static void
spk_fsm_update(struct spk_peer *pe, const uint8_t *msg, size_t len)
{
	struct bgp_ctl	*sp = pe->sp;
	struct bgp_update	 u;
	struct bgp_err		 e;
	struct bgp_attrs	 a;
	struct spk_attr		*attr = NULL;

	sp->st.updates_received++;
	if (sp->st.first_update_ns == 0)
		sp->st.first_update_ns = clock_ns();
	if (bgp_update_decode(msg, len, &pe->sc, &u, &e) == -1) {
		spk_notify_err(pe, &e);
		return;
	}
	if (u.treat_as_withdraw)
		sp->st.treat_as_withdraw++;
	spk_rib_apply(pe, u.withdrawn, BGP_AF_IPV4, NULL);
	if (u.mp_unreach_af != BGP_AF_MAX)
		spk_rib_apply(pe, u.mp_unreach, u.mp_unreach_af, NULL);
	if (!u.treat_as_withdraw && (rbuf_left(&u.nlri) > 0 ||
	    u.mp_reach_af != BGP_AF_MAX)) {
		bgp_update_attrs(&u, &pe->sc, &a);
		attr = spk_attr_get(sp, &a);
	}
	spk_rib_apply(pe, u.nlri, BGP_AF_IPV4, attr);
	if (u.mp_reach_af != BGP_AF_MAX)
		spk_rib_apply(pe, u.mp_reach, u.mp_reach_af, attr);
	if (attr != NULL)
		spk_attr_put(sp, attr);
}

static void
spk_fsm(struct spk_peer *pe, uint8_t type, const uint8_t *msg, size_t len)
{
	struct bgp_ctl	*sp = pe->sp;
	uint8_t	code = 0, subcode = 0;

	if (type == BGP_NOTIFICATION) {
		sp->st.notifications_received++;
		bgp_notification_decode(msg, len, &code, &subcode);
		/* A peer that stops says Cease: no trouble to warn of. */
		if (code == BGP_ERR_CEASE)
			log_info("bgp %s: NOTIFICATION received: %s", pe->name,
			    bgp_err_name(code, subcode));
		else
			log_warnx("bgp %s: NOTIFICATION received: %s",
			    pe->name, bgp_err_name(code, subcode));
		spk_close(pe, "NOTIFICATION received");
		return;
	}
	if (pe->state == SPK_OPENSENT && type == BGP_OPEN)
		spk_fsm_open(pe, msg, len);
	else if (pe->state == SPK_OPENCONFIRM && type == BGP_KEEPALIVE)
		spk_established(pe);
	else if (pe->state == SPK_ESTABLISHED && type == BGP_UPDATE)
		spk_fsm_update(pe, msg, len);
	else if (pe->state == SPK_ESTABLISHED && (type == BGP_KEEPALIVE ||
	    type == BGP_ROUTE_REFRESH)) {
		if (type == BGP_ROUTE_REFRESH && pe->advertise) {
			/* RFC 2918 section 4: everything again. */
			pe->dumping = 1;
			pe->dump_af = 0;
			pe->dump_slot = 0;
			pe->dump_gen = sp->rib.generation;
			spk_fill(pe);
		}
	} else
		spk_notify_close(pe, BGP_ERR_FSM, pe->state == SPK_OPENSENT ?
		    BGP_ERR_FSM_OPENSENT : pe->state == SPK_OPENCONFIRM ?
		    BGP_ERR_FSM_OPENCONFIRM : BGP_ERR_FSM_ESTABLISHED, NULL, 0,
		    "unexpected message");
}

/* One message; -1 stops reading: the peer is closing, or closed and
 * freed. */
static int
spk_frame_message(void *dev, const uint8_t *msg, size_t len)
{
	struct spk_peer	*pe = dev;
	struct bgp_ctl	*sp = pe->sp;	/* pe may be freed */
	uint32_t	 id = pe->id;

	spk_fsm(pe, msg[BGP_HEADER_LEN - 1], msg, len);
	return sp->peers[id] != pe || pe->state == SPK_CLOSING ? -1 : 0;
}

static const struct bgp_conn_ops spk_conn_ops = {
	spk_notify_close, spk_frame_message,
};

static void
spk_read(struct bufferevent *bev, void *arg)
{
	struct spk_peer	*pe = arg;
	struct bgp_ctl	*sp = pe->sp;	/* pe may be freed */
	struct evbuffer	*in = bufferevent_get_input(bev);
	uint32_t	 id = pe->id;

	pe->last_rx_ns = clock_ns();
	if (pe->state != SPK_CLOSING && bgp_conn_read(&pe->conn, bev) ==
	    -1 && sp->peers[id] != pe)
		return;		/* closed and freed */
	if (pe->state == SPK_CLOSING)
		evbuffer_drain(in, evbuffer_get_length(in));
}

static void
spk_write(struct bufferevent *bev, void *arg)
{
	struct spk_peer	*pe = arg;

	if (pe->state == SPK_CLOSING) {
		if (evbuffer_get_length(bufferevent_get_output(bev)) == 0)
			spk_close(pe, "NOTIFICATION sent");
		return;
	}
	spk_fill(pe);
}

/* ---- advertising ---- */

/* What one peer is told about one prefix: the attributes with our AS in
 * front and ourselves as next hop on eBGP (section 5.1.2, 5.1.3). */
static void
spk_out_attrs(const struct spk_peer *pe, const struct spk_path *best,
    struct bgp_attrs *a)
{
	struct bgp_ctl	*sp = pe->sp;

	*a = best->attr->a;
	if (pe->ibgp) {
		if (!a->has_local_pref) {
			a->has_local_pref = 1;
			a->local_pref = 100;
		}
		return;
	}
	a->has_local_pref = 0;
	/* Route reflection stays inside the AS (RFC 4456 section 8). */
	a->has_originator = 0;
	a->n_cluster = 0;
	if (a->n_as == BGP_MAX_ASPATH)
		a->n_as--;
	memmove(a->as_path + 1, a->as_path, a->n_as * sizeof(uint32_t));
	a->as_path[0] = sp->cfg.as;
	a->n_as++;
	memcpy(a->next_hop4, pe->local4, 4);
	memcpy(a->next_hop6, pe->local6, 16);
}

/* An UPDATE being built for one peer: announcements with one attribute
 * set, or withdrawals, of one family. */
struct spk_out {
	struct spk_peer		*pe;
	struct wbuf		*w;
	struct bgp_ub		 ub;
	int			 open;
	uint8_t			 af;
	const struct spk_attr	*attr;		/* NULL: withdrawals */
	uint32_t		 msgs;
};

static void
spk_out_close(struct spk_out *o)
{
	struct bgp_ctl	*sp = o->pe->sp;

	if (!o->open)
		return;
	bgp_ub_end(&o->ub);
	o->open = 0;
	o->msgs++;
	if (o->attr != NULL)
		sp->st.prefixes_advertised += o->ub.count;
	else
		sp->st.withdrawals_advertised += o->ub.count;
}

/* Add one prefix's current state; 0 when the scratch is full. */
static int
spk_out_prefix(struct spk_out *o, const struct bgp_prefix *pfx,
    const struct spk_path *best)
{
	const struct spk_attr	*attr = best != NULL ? best->attr : NULL;
	struct bgp_attrs	 a;

	if (!o->pe->af_ok[pfx->af])
		return 1;
	if (best != NULL && best->peer == o->pe->id)
		attr = NULL;	/* its own route: not back to it */
	if (o->open && (o->af != pfx->af || o->attr != attr ||
	    bgp_ub_add(&o->ub, pfx) == 1))
		spk_out_close(o);
	if (o->open)
		return 1;
	if (o->w->len + BGP_MAX_LEN > o->w->cap)
		return 0;
	if (attr != NULL)
		spk_out_attrs(o->pe, best, &a);
	bgp_ub_begin(&o->ub, o->w, pfx->af, 0, 0, attr != NULL ? &a : NULL,
	    &o->pe->sc, BGP_MAX_LEN);
	o->open = 1;
	o->af = pfx->af;
	o->attr = attr;
	bgp_ub_add(&o->ub, pfx);
	return 1;
}

static void
spk_send_eors(struct spk_out *o)
{
	int	af;

	spk_out_close(o);
	for (af = 0; af < BGP_AF_MAX; af++)
		if (o->pe->af_ok[af] && o->pe->eor[af]) {
			bgp_eor_encode(o->w, af);
			o->msgs++;
		}
}

/* The next stretch of the Loc-RIB walk; 0 when the scratch is full. */
static int
spk_fill_dump(struct spk_out *o)
{
	struct spk_peer		*pe = o->pe;
	struct bgp_ctl		*sp = pe->sp;
	struct bgp_prefix	 pfx;
	uint64_t		 val;
	size_t			 slot;

	if (pe->dump_gen != sp->rib.generation) {
		/* The table grew under the walk: start over. */
		pe->dump_gen = sp->rib.generation;
		pe->dump_af = 0;
		pe->dump_slot = 0;
	}
	while (pe->dump_af < BGP_AF_MAX) {
		slot = pe->dump_slot;
		if (!bgp_pmap_next(&sp->rib, pe->dump_af, &slot, &pfx, &val)) {
			pe->dump_af++;
			pe->dump_slot = 0;
			continue;
		}
		if (!spk_out_prefix(o, &pfx,
		    (const struct spk_path *)(uintptr_t)val))
			return 0;
		pe->dump_slot = slot;
	}
	pe->dumping = 0;
	if (o->w->len + 2 * BGP_MAX_LEN > o->w->cap)
		return 0;
	spk_send_eors(o);
	return 1;
}

static int
spk_fill_log(struct spk_out *o)
{
	struct spk_peer		*pe = o->pe;
	struct bgp_ctl		*sp = pe->sp;
	const struct bgp_prefix	*pfx;
	uint64_t		*val;

	while (pe->log_pos < sp->chlog.base + sp->chlog.n) {
		pfx = &sp->chlog.e[pe->log_pos - sp->chlog.base];
		val = bgp_pmap_get(&sp->rib, pfx);
		if (!spk_out_prefix(o, pfx, val != NULL ?
		    (const struct spk_path *)(uintptr_t)*val : NULL))
			return 0;
		pe->log_pos++;
	}
	return 1;
}

/* Whether the peer's output holds SPK_OUT_HIGH or more: filling waits
 * for the write callback (the low watermark). */
static int
spk_out_full(const struct spk_peer *pe)
{
	return evbuffer_get_length(bufferevent_get_output(pe->bev)) >=
	    SPK_OUT_HIGH;
}

static void
spk_fill(struct spk_peer *pe)
{
	struct bgp_ctl	*sp = pe->sp;
	struct spk_out	 o;
	int		 more;

	if (pe->state != SPK_ESTABLISHED || !pe->advertise)
		return;
	do {
		if (spk_out_full(pe))
			break;
		memset(&o, 0, sizeof(o));
		o.pe = pe;
		o.w = bgp_scratch();
		more = pe->dumping ? !spk_fill_dump(&o) : !spk_fill_log(&o);
		spk_out_close(&o);
		spk_send(pe, o.w);
		sp->st.updates_sent += o.msgs;
	} while (more || (pe->dumping == 0 && pe->log_pos < sp->chlog.base +
	    sp->chlog.n));
	spk_log_trim(sp);
}

/* Announcements of a change reach every advertising peer. */
static void
spk_fill_all(struct bgp_ctl *sp)
{
	uint32_t	i;

	for (i = 0; i < sp->n_peers; i++)
		if (sp->peers[i] != NULL)
			spk_fill(sp->peers[i]);
}

static void
spk_kicked(void *arg)
{
	struct bgp_ctl	*sp = arg;

	if (sp->change_open)
		sp->st.rib_transactions++;
	sp->change_open = 0;
	spk_fill_all(sp);
}

/*
 * Changes go out once the loop has handled what it read in this round:
 * an UPDATE (or a RESTCONF batch) of many prefixes makes a few packed
 * UPDATEs, not one per prefix, and without waiting for the next tick.
 */
static void
spk_kick(struct bgp_ctl *sp)
{
	if (sp->kick != NULL)
		engine_soon(sp->kick);
}

/* ---- accepting ---- */

static int
spk_is_monitor(struct bgp_ctl *sp, const struct sockaddr_storage *ss)
{
	const struct sockaddr_in	*a = (const void *)ss, *b;
	const struct sockaddr_in6	*a6 = (const void *)ss, *b6;
	unsigned			 i;

	if (sp->cfg.n_monitors == 0)
		return 1;
	for (i = 0; i < sp->cfg.n_monitors; i++) {
		if (sp->cfg.monitors[i].ss_family != ss->ss_family)
			continue;
		b = (const void *)&sp->cfg.monitors[i];
		b6 = (const void *)&sp->cfg.monitors[i];
		if (ss->ss_family == AF_INET &&
		    a->sin_addr.s_addr == b->sin_addr.s_addr)
			return 1;
		if (ss->ss_family == AF_INET6 && memcmp(&a6->sin6_addr,
		    &b6->sin6_addr, 16) == 0)
			return 1;
	}
	return 0;
}

static void
spk_local_addr(struct spk_peer *pe, int fd)
{
	struct sockaddr_storage	 ss;
	socklen_t		 len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len) == -1)
		return;
	if (ss.ss_family == AF_INET) {
		memcpy(pe->local4, &((struct sockaddr_in *)&ss)->sin_addr, 4);
		pe->local6[10] = pe->local6[11] = 0xff;
		memcpy(pe->local6 + 12, pe->local4, 4);
	} else if (ss.ss_family == AF_INET6)
		memcpy(pe->local6, &((struct sockaddr_in6 *)&ss)->sin6_addr,
		    16);
}

static uint32_t
spk_slot(struct bgp_ctl *sp)
{
	uint32_t	i;

	for (i = 0; i < sp->n_peers; i++)
		if (sp->peers[i] == NULL)
			return i;
	sp->peers = xreallocarray(sp->peers, sp->n_peers + 64,
	    sizeof(*sp->peers));
	memset(sp->peers + sp->n_peers, 0, 64 * sizeof(*sp->peers));
	sp->n_peers += 64;
	return i;
}

/* A connection from (or to) sa: refused when it is no configured
 * neighbor, or one with an Established session already (RFC 4271 section
 * 6.8: the new connection is the one closed). */
static int
spk_admit(struct bgp_ctl *sp, evutil_socket_t fd, const char *name,
    const struct sockaddr *sa, struct bgp_nbr_eff *e)
{
	const struct spk_peer	*old = spk_peer_by_name(sp, name);

	if (bgp_nbr_admit(sa, e) == 0 && old == NULL)
		return 0;
	log_info("bgp %s: connection refused: %s", name, old != NULL ?
	    "a session is established" : "not a configured neighbor");
	evutil_closesocket(fd);
	return -1;
}

/* A new session on fd from sa: we send our OPEN (RFC 4271 section 8.2.2,
 * Connect -> OpenSent); the tests attach a socket of their own here. */
static int
spk_attach(struct bgp_ctl *sp, evutil_socket_t fd, const struct sockaddr *sa,
    socklen_t salen)
{
	struct spk_peer		*pe;
	struct bgp_nbr_eff	 e;
	char			 host[INET6_ADDRSTRLEN], name[64];
	int			 one = 1;

	if (sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6,
		    &((const struct sockaddr_in6 *)sa)->sin6_addr, host,
		    sizeof(host));
	else
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr,
		    host, sizeof(host));
	snprintf(name, sizeof(name), "bgp://%s", host);
	if (spk_admit(sp, fd, name, sa, &e) == -1)
		return -1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	pe = xcalloc(1, sizeof(*pe));
	pe->cs.ops = &spk_role_ops;
	pe->sp = sp;
	memcpy(&pe->addr, sa, (size_t)salen < sizeof(pe->addr) ?
	    (size_t)salen : sizeof(pe->addr));
	memcpy(pe->name, name, sizeof(pe->name));
	if ((pe->bev = engine_bev_new(fd)) == NULL) {
		free(pe);
		return -1;
	}
	memcpy(pe->af_cfg, e.af, sizeof(pe->af_cfg));
	pe->hold_cfg = e.hold;
	pe->expect_as = e.peer_as;
	pe->id = spk_slot(sp);
	sp->peers[pe->id] = pe;
	pe->advertise = (uint8_t)spk_is_monitor(sp, &pe->addr);
	pe->hold = SPK_OPEN_HOLD_S;
	pe->last_rx_ns = pe->last_ka_ns = clock_ns();
	spk_local_addr(pe, fd);
	pe->state = SPK_OPENSENT;
	pe->conn = (struct bgp_conn){ &spk_conn_ops, pe };
	bufferevent_setcb(pe->bev, spk_read, spk_write, ctl_sess_event, pe);
	bufferevent_setwatermark(pe->bev, EV_WRITE, SPK_OUT_LOW, 0);
	bufferevent_enable(pe->bev, EV_READ | EV_WRITE);
	spk_send_open(pe);
	return 0;
}

int
bgp_ctl_attach(evutil_socket_t fd, const struct sockaddr *sa,
    socklen_t salen)
{
	return spk_attach(&spk_main, fd, sa, salen);
}

/* A connection accepted: a refused one is closed and logged there. */
static void
spk_accepted(void *arg, evutil_socket_t fd, const struct sockaddr *sa,
    socklen_t salen)
{
	(void)spk_attach(arg, fd, sa, salen);
}

/* Hold timers, keepalives, NOTIFICATIONs not taken; changes out. */
static void
spk_tick(void *speaker, uint64_t now)
{
	struct bgp_ctl	*sp = speaker;
	uint64_t	 hold_ns;
	struct spk_peer	*pe;
	struct wbuf	*w;
	uint32_t	 i;

	for (i = 0; i < sp->n_peers; i++) {
		if ((pe = sp->peers[i]) == NULL)
			continue;
		hold_ns = (uint64_t)pe->hold * 1000000000ull;
		if (pe->state == SPK_CLOSING) {
			if (now - pe->closing_ns > 2000000000ull)
				spk_close(pe, "NOTIFICATION not taken");
			continue;
		}
		if (hold_ns == 0)
			continue;
		if (now - pe->last_rx_ns >= hold_ns) {
			spk_notify_close(pe, BGP_ERR_HOLD, 0, NULL, 0,
			    "hold timer expired");
			continue;
		}
		if (pe->state != SPK_OPENSENT &&
		    now - pe->last_ka_ns >= hold_ns / 3) {
			w = bgp_scratch();
			bgp_keepalive_encode(w);
			spk_send(pe, w);
			pe->last_ka_ns = now;
		}
	}
	spk_fill_all(sp);
}

/* What ctl_listen.c does for the speaker. */
static const struct ctl_sess_ops spk_role_ops = {
	.what = "BGP", .peer_closed = "the peer closed the connection",
	.tick_ms = 200, .attach = spk_accepted, .tick = spk_tick,
	.close = spk_close,
};

/* ---- the interface ---- */

void
bgp_ctl_config_defaults(struct bgp_ctl_config *c)
{
	char	err[64];

	memset(c, 0, sizeof(*c));
	endpoint_parse("ptcp:179", &c->listen, err, sizeof(err));
	c->as = 64496;		/* what OpenDaylight's examples use */
	c->bgp_id = 0xc0000201;	/* 192.0.2.1 */
	c->hold = 90;
}

int
bgp_ctl_parse_monitors(struct bgp_ctl_config *c, const char *arg,
    char *err, size_t errlen)
{
	char	*copy = xstrdup(arg), *tok, *save = NULL;
	struct sockaddr_in	*sin;
	struct sockaddr_in6	*sin6;

	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (c->n_monitors == BGP_CTL_MAX_MONITORS) {
			snprintf(err, errlen, "--bgp-monitor: at most %d "
			    "addresses", BGP_CTL_MAX_MONITORS);
			free(copy);
			return -1;
		}
		sin = (struct sockaddr_in *)&c->monitors[c->n_monitors];
		sin6 = (struct sockaddr_in6 *)&c->monitors[c->n_monitors];
		if (inet_pton(AF_INET, tok, &sin->sin_addr) == 1)
			sin->sin_family = AF_INET;
		else if (inet_pton(AF_INET6, tok, &sin6->sin6_addr) == 1)
			sin6->sin6_family = AF_INET6;
		else {
			snprintf(err, errlen, "--bgp-monitor: '%s' is not an "
			    "address", tok);
			free(copy);
			return -1;
		}
		c->n_monitors++;
	}
	free(copy);
	return 0;
}

int
bgp_ctl_start(const struct bgp_ctl_config *c, char *err, size_t errlen)
{
	struct bgp_ctl	*sp = &spk_main;

	sp->cfg = *c;
	memset(&sp->st, 0, sizeof(sp->st));
	sp->n_advertising = 0;
	sp->change_open = 0;
	bgp_pmap_init(&sp->rib, 1);
	bgp_nbr_start(sp->cfg.as, sp->cfg.hold);
	if (ctl_listen_start(&sp->lis, &sp->cfg.listen, &spk_role_ops, sp,
	    err, errlen) == -1)
		return -1;
	if (bgp_md5_ctl_listen(sp->lis.listener, sp->cfg.md5, err,
	    errlen) == -1) {
		ctl_listen_stop(&sp->lis);
		return -1;
	}
	sp->kick = engine_soon_new(spk_kicked, sp);
	return 0;
}

/* The controller stops (RFC 4271 section 8.2.2): NOTIFICATION Cease /
 * Administrative Shutdown, written out before the close. */
static void
spk_goodbye(struct spk_peer *pe)
{
	struct wbuf	*w;

	if (pe->bev == NULL || pe->state == SPK_CLOSING)
		return;
	w = bgp_scratch();
	bgp_notification_encode(w, BGP_ERR_CEASE, BGP_ERR_CEASE_ADMIN_DOWN,
	    NULL, 0);
	/* Not an error: not counted as one. */
	bgp_write_last(pe->bev, w->data, w->len);
}

void
bgp_ctl_stop(void)
{
	struct bgp_ctl	*sp = &spk_main;
	uint32_t	i;

	ctl_listen_stop(&sp->lis);
	bgp_md5_ctl_stop();
	engine_soon_free(&sp->kick);
	bgp_nbr_stop();
	for (i = 0; i < sp->n_peers; i++)
		if (sp->peers[i] != NULL) {
			spk_goodbye(sp->peers[i]);
			spk_peer_free(sp->peers[i]);
		}
	bgp_ctl_app_clear();
	free(sp->peers);
	sp->peers = NULL;
	sp->n_peers = 0;
	bgp_pmap_free(&sp->rib);
	free(sp->chlog.e);
	memset(&sp->chlog, 0, sizeof(sp->chlog));
}

const struct bgp_ctl_stats *
bgp_ctl_stats(void)
{
	struct bgp_ctl	*sp = &spk_main;

	return &sp->st;
}

uint64_t
bgp_ctl_loc_rib_count(enum bgp_af af)
{
	struct bgp_ctl	*sp = &spk_main;

	return bgp_pmap_count_af(&sp->rib, af);
}

/* Where a route came from, as RESTCONF names it: a peer, or the
 * application RIB (ODL's example-app-rib). */
static void
spk_route_source(const struct bgp_ctl *sp, const struct spk_path *p,
    struct bgp_ctl_route *r)
{
	if (p->peer == SPK_APP)
		snprintf(r->peer, sizeof(r->peer), "example-app-rib");
	else
		snprintf(r->peer, sizeof(r->peer), "%s",
		    sp->peers[p->peer]->name);
}

int
bgp_ctl_loc_rib_next(enum bgp_af af, uint64_t *cursor,
    struct bgp_ctl_route *r)
{
	struct bgp_ctl	*sp = &spk_main;
	size_t			 slot = (size_t)*cursor;
	uint64_t		 val;
	const struct spk_path	*p;

	if (!bgp_pmap_next(&sp->rib, af, &slot, &r->prefix, &val))
		return 0;
	*cursor = slot;
	p = (const struct spk_path *)(uintptr_t)val;
	r->attrs = &p->attr->a;
	spk_route_source(sp, p, r);
	return 1;
}

static struct spk_peer *
spk_peer_by_name(struct bgp_ctl *sp, const char *name)
{
	uint32_t	i;

	for (i = 0; i < sp->n_peers; i++)
		if (sp->peers[i] != NULL &&
		    sp->peers[i]->state == SPK_ESTABLISHED &&
		    strcmp(sp->peers[i]->name, name) == 0)
			return sp->peers[i];
	return NULL;
}

int
bgp_ctl_has_session(const char *peer)
{
	struct bgp_ctl	*sp = &spk_main;
	uint32_t	i;

	for (i = 0; i < sp->n_peers; i++)
		if (sp->peers[i] != NULL &&
		    strcmp(sp->peers[i]->name, peer) == 0)
			return 1;
	return 0;
}

/* Sessions with the peer end with a Cease of that subcode (RFC 4486),
 * and its routes leave the Loc-RIB; how many there were. */
int
bgp_ctl_reset(const char *peer, uint8_t subcode)
{
	struct bgp_ctl	*sp = &spk_main;
	uint32_t	i;
	int		n = 0;

	for (i = 0; i < sp->n_peers; i++)
		if (sp->peers[i] != NULL &&
		    sp->peers[i]->state != SPK_CLOSING &&
		    strcmp(sp->peers[i]->name, peer) == 0) {
			spk_notify_close(sp->peers[i], BGP_ERR_CEASE, subcode,
			    NULL, 0, "reset by the northbound");
			n++;
		}
	return n;
}

int
bgp_ctl_peer_state(const char *peer, const char **state, uint64_t *prefixes)
{
	struct bgp_ctl	*sp = &spk_main;
	static const char *const names[] = {
		[SPK_OPENSENT] = "OPENSENT",
		[SPK_OPENCONFIRM] = "OPENCONFIRM",
		[SPK_ESTABLISHED] = "ESTABLISHED",
		[SPK_CLOSING] = "IDLE",
	};
	uint32_t	i;

	for (i = 0; i < sp->n_peers; i++)
		if (sp->peers[i] != NULL &&
		    strcmp(sp->peers[i]->name, peer) == 0) {
			*state = names[sp->peers[i]->state];
			*prefixes = sp->peers[i]->prefixes;
			return sp->peers[i]->state == SPK_ESTABLISHED &&
			    sp->peers[i]->ibgp;
		}
	return -1;
}

int
bgp_ctl_peer_exists(const char *peer)
{
	struct bgp_ctl	*sp = &spk_main;

	return spk_peer_by_name(sp, peer) != NULL;
}

int
bgp_ctl_adj_rib_in_next(const char *peer, enum bgp_af af, uint64_t *cursor,
    struct bgp_ctl_route *r)
{
	struct bgp_ctl	*sp = &spk_main;
	const struct spk_peer	*pe = spk_peer_by_name(sp, peer);
	const struct spk_path	*p;
	size_t			 slot = (size_t)*cursor;
	uint64_t		 val;

	if (pe == NULL)
		return 0;
	while (bgp_pmap_next(&sp->rib, af, &slot, &r->prefix, &val)) {
		for (p = (const struct spk_path *)(uintptr_t)val; p != NULL &&
		    p->peer != pe->id; p = p->next)
			;
		if (p == NULL)
			continue;
		*cursor = slot;
		r->attrs = &p->attr->a;
		snprintf(r->peer, sizeof(r->peer), "%s", pe->name);
		return 1;
	}
	return 0;
}

/*
 * What the speaker advertises to one peer, its Adj-RIB-Out (RFC 4271
 * section 3.2): each best path of the family not learned from that peer,
 * with the attributes the peer is sent (spk_out_attrs), into *buf; none
 * to a peer it does not advertise to or that did not negotiate the
 * family.
 */
int
bgp_ctl_adj_rib_out_next(const char *peer, enum bgp_af af, uint64_t *cursor,
    struct bgp_ctl_route *r, struct bgp_attrs *buf)
{
	struct bgp_ctl	*sp = &spk_main;
	const struct spk_peer	*pe = spk_peer_by_name(sp, peer);
	const struct spk_path	*p;
	size_t			 slot = (size_t)*cursor;
	uint64_t		 val;

	if (pe == NULL || !pe->advertise || !pe->af_ok[af])
		return 0;
	while (bgp_pmap_next(&sp->rib, af, &slot, &r->prefix, &val)) {
		p = (const struct spk_path *)(uintptr_t)val;
		if (p->peer == pe->id)
			continue;
		*cursor = slot;
		spk_out_attrs(pe, p, buf);
		r->attrs = buf;
		spk_route_source(sp, p, r);
		return 1;
	}
	return 0;
}

int
bgp_ctl_peer(unsigned i, char *addr, size_t len, uint64_t *prefixes)
{
	struct bgp_ctl	*sp = &spk_main;
	uint32_t	k;
	unsigned	seen = 0;

	for (k = 0; k < sp->n_peers; k++) {
		if (sp->peers[k] == NULL ||
		    sp->peers[k]->state != SPK_ESTABLISHED)
			continue;
		if (seen++ == i) {
			snprintf(addr, len, "%s", sp->peers[k]->name);
			*prefixes = sp->peers[k]->prefixes;
			return 1;
		}
	}
	return 0;
}

int
bgp_ctl_app_add(const struct bgp_prefix *pfx, const struct bgp_attrs *a)
{
	struct bgp_ctl	*sp = &spk_main;
	struct spk_attr	*attr = spk_attr_get(sp, a);
	uint64_t	 before = sp->app_count[pfx->af];

	spk_path_add(sp, pfx, SPK_APP, 0, attr);
	spk_attr_put(sp, attr);
	return sp->app_count[pfx->af] != before;
}

int
bgp_ctl_app_del(const struct bgp_prefix *pfx)
{
	struct bgp_ctl	*sp = &spk_main;

	return spk_path_del(sp, pfx, SPK_APP);
}

uint64_t
bgp_ctl_app_count(enum bgp_af af)
{
	struct bgp_ctl	*sp = &spk_main;

	return sp->app_count[af];
}

void
bgp_ctl_app_clear(void)
{
	struct bgp_ctl	*sp = &spk_main;

	spk_drop_paths(sp, SPK_APP);
}
