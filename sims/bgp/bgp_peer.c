/*
 * One simulated BGP peer: the session state machine of RFC 4271 section
 * 8 from the moment the pool has a TCP connection (OpenSent, OpenConfirm,
 * Established), hold and keepalive timers (section 4.4, 10), message
 * framing, what it receives (adj-RIB-in, RFC 7606 treat-as-withdraw) and
 * the paced sending of its prefixes: UPDATEs are built only while the
 * socket's output stays under a high-water mark, so a slow controller
 * pushes back instead of sbsim queueing a million prefixes in memory.
 */
#include <sys/socket.h>
#include <netinet/in.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "bgp_io.h"
#include "bgp_sim.h"
#include "engine.h"
#include "log.h"

#define BGP_OUT_HIGH	(256 * 1024)	/* stop building above this */
#define BGP_OUT_LOW	(64 * 1024)	/* and start again below this */
/* UPDATEs built at once, in the output buffer: with libevent's chain
 * header the allocation stays within 64 KiB, reused as chains drain. */
#define BGP_BATCH	(60 * 1024)
#define BGP_OPEN_HOLD_S	240		/* section 8: "large value" */
#define BGP_CLOSE_WAIT_NS 2000000000ull	/* for a NOTIFICATION to go */

/* Kinds of trouble logged once per peer (bits of peer->logged). */
#define LOG_TAW		0x1
#define LOG_DISCARD	0x2
#define LOG_NOTIF	0x4
#define LOG_FAMILY	0x8


static const char *const bgp_state_names[] = {
	[BGPS_IDLE] = "Idle", [BGPS_CONNECT] = "Connect",
	[BGPS_OPENSENT] = "OpenSent", [BGPS_OPENCONFIRM] = "OpenConfirm",
	[BGPS_ESTABLISHED] = "Established",
};

/* With several speakers, which session: "peer 3 (speaker 2)"; a
 * struct bgp_peer (engine_bev_send()'s who). */
static const char *
bgp_who(const void *peer)
{
	const struct bgp_peer	*p = peer;

	if (p->monitor)
		return "monitor";
	return engine_sess_name("peer", p->idx, "speaker", p->spk + 1u,
	    p->sim->cfg.n_spk);
}

static const struct engine_fsm bgp_fsm_states = {
	bgp_state_names, BGPS_ESTABLISHED
};

/* sim->established counts the peers' sessions, not the monitor's. */
static void
bgp_change_state(struct bgp_peer *p, enum bgp_state next, const char *why)
{
	(void)engine_sess_move(&bgp_fsm_states, &p->state, next,
	    p->monitor ? NULL : &p->sim->established, bgp_who, p, why);
}

static void
bgp_send(struct bgp_peer *p, struct wbuf *w, uint32_t msgs)
{
	if (engine_bev_send(p->pd.bev, w, bgp_who, p) == 1)
		*p->sim->c.tx_msgs += msgs;
}

/*
 * Send a NOTIFICATION and close once it is out (section 6): the session
 * is over at once (Idle), but the connection lives until its output has
 * drained, reading and dropping what still comes so that the close is
 * not a reset that could destroy the NOTIFICATION at the other end.
 */
static void
bgp_notify_close(void *peer, uint8_t code, uint8_t subcode,
    const void *data, size_t len, const char *why)
{
	struct bgp_peer	*p = peer;
	struct wbuf	*w = bgp_scratch();

	if (p->closing_ns != 0)
		return;
	bgp_notification_encode(w, code, subcode, data, len);
	bgp_send(p, w, 1);
	(*p->sim->c.notifications_sent)++;
	log_warnx("%s: sending NOTIFICATION %s: %s", bgp_who(p),
	    bgp_err_name(code, subcode), why);
	p->sending = BGP_SEND_NONE;
	if (p->pd.bev == NULL)
		return;
	p->closing_ns = clock_ns();
	bgp_change_state(p, BGPS_IDLE, why);
	bufferevent_setwatermark(p->pd.bev, EV_WRITE, 0, 0);
	if (evbuffer_get_length(bufferevent_get_output(p->pd.bev)) == 0)
		pool_lost(&p->pd, why);
}

/* --fault session-flap: Cease/Administrative Reset (RFC 4486 section
 * 3); the pool reconnects with its backoff and, Established again, the
 * peer announces its prefixes from the first (bgp_established()). */
void
bgp_peer_flap(void *peer)
{
	struct bgp_peer	*p = peer;

	bgp_notify_close(p, BGP_ERR_CEASE, BGP_ERR_CEASE_ADMIN_RESET, NULL, 0,
	    "session flap (--fault)");
}

static void
bgp_notify_err(struct bgp_peer *p, const struct bgp_err *e)
{
	bgp_conn_notify_err(&p->conn, e);
}

/* The prefix a peer announces as its i-th. */
static void
bgp_peer_prefix(const struct bgp_peer *p, uint64_t i, struct bgp_prefix *out)
{
	const struct bgp_config	*cfg = &p->sim->cfg;

	uint64_t		 end;
	unsigned		 af = bgp_peer_fam_at(cfg, i, &end);

	bgp_prefix_nth(&cfg->fam_first[af], (uint64_t)p->idx * cfg->prefixes +
	    (cfg->prefixes ? i % cfg->prefixes : 0), out);
	out->path_id = p->sc.addpath_tx[af] ? 1 : 0;
}

static void
bgp_peer_attrs(const struct bgp_peer *p, struct bgp_attrs *a)
{
	*a = p->sim->attrs;
	if (p->sim->cfg.next_hop_self) {
		memcpy(a->next_hop4, p->local4, 4);
		memcpy(a->next_hop6, p->local6, 16);
	}
}

/*
 * One UPDATE of announcements or withdrawals from *next on; returns how
 * many prefixes went in (0: nothing left or it could not be built).
 */
static uint32_t
bgp_build_one(struct bgp_peer *p, struct wbuf *w, uint64_t *next,
    uint64_t end, const struct bgp_attrs *a)
{
	const struct bgp_config	*cfg = &p->sim->cfg;
	struct bgp_ub		 ub;
	struct bgp_prefix	 pfx;
	uint32_t		 max = cfg->per_update ? cfg->per_update :
	    UINT32_MAX;
	uint64_t		 fend;
	unsigned		 af;

	if (*next >= end)
		return 0;
	if (p->sim->mrt != NULL)
		return bgp_mrt_build(p, w, next, a, max);
	/* One family per UPDATE: its own MP_REACH (RFC 4760 section 3);
	 * a refused one is skipped by bgp_fill. */
	af = bgp_peer_fam_at(cfg, *next, &fend);
	if (!(p->fam_ok & 1u << af))
		return 0;
	if (af >= BGP_AF_MAX)
		return bgp_peer_fam_build(p, w, next, end, a, max);
	end = fend < end ? fend : end;
	if (bgp_ub_begin(&ub, w, af, cfg->use_mp, p->sc.addpath_tx[af], a,
	    &p->sc, BGP_MAX_LEN) == -1)
		return 0;
	/* The first by its number, the rest a block on each. */
	bgp_peer_prefix(p, *next, &pfx);
	*next += bgp_ub_add_run(&ub, &pfx, end - *next < max - ub.count ?
	    end - *next : max - ub.count);
	bgp_ub_end(&ub);
	return ub.count;
}

/* Announcements counted once per prefix, however often a peer that
 * reconnected sends them again. */
static void
bgp_count_announced(struct bgp_peer *p, uint64_t now)
{
	struct bgp_sim	*sim = p->sim;
	uint64_t	 fresh;

	if (p->ann_next <= p->ann_high)
		return;
	fresh = p->ann_next - p->ann_high;
	p->ann_high = p->ann_next;
	sim->announced += fresh;
	phase_items(sim->ph[BGPP_ANNOUNCE], now, fresh);
	sim->spk_announced[p->spk] += fresh;
	if (sim->ph_announce[p->spk] != NULL &&
	    sim->ph_announce[p->spk]->state == PHASE_RUNNING)
		phase_items(sim->ph_announce[p->spk], now, fresh);
}

/*
 * All of this peer's prefixes are queued.  What was queued is not yet
 * sent: the write callback is asked for at an empty output buffer, and
 * the phase ends when the last peer's buffer has gone to the kernel.
 */
static void
bgp_sent_all(struct bgp_peer *p)
{
	struct wbuf	*w;

	if (p->sending == BGP_SEND_ANNOUNCE && p->sim->cfg.graceful &&
	    !p->eor_sent) {
		/* RFC 4724 section 2: the initial update is complete. */
		w = bgp_scratch();
		bgp_send(p, w, bgp_peer_fam_eor(p, w));
		p->eor_sent = 1;
	}
	if (p->sending == BGP_SEND_ANNOUNCE || !BGP_WITNESSED(&p->sim->cfg))
		txack_last(&p->txd, p->pd.bev);
	p->drain_wait = p->sending;
	p->sending = BGP_SEND_NONE;
	bufferevent_setwatermark(p->pd.bev, EV_WRITE, 0, 0);
}

/* Session i's connection and part of the acknowledgment (txack_wait). */
static struct bufferevent *
bgp_txack_dev(void *arg, size_t i, struct txack_dev **txd)
{
	struct bgp_sim	*sim = arg;

	*txd = &sim->peers[i].txd;
	return sim->peers[i].pd.bev;
}

/*
 * Several speakers: announce.cN ends when every session to speaker N has
 * handed its last announcement to the kernel (witness device; the
 * acknowledgment the run's announce waits for is of all of them).
 */
static void
bgp_drained_spk(struct bgp_peer *p, uint64_t now)
{
	struct bgp_sim	*sim = p->sim;
	struct phase	*ph = sim->ph_announce[p->spk];

	if (ph == NULL || ph->state != PHASE_RUNNING)
		return;
	if (++sim->spk_drained[p->spk] >= sim->cfg.peers &&
	    sim->spk_announced[p->spk] >= sim->total)
		phase_end(ph, now, PHASE_DONE);
}

/* The output of a peer that queued everything is empty: once it was the
 * last one the phase waited for, the phase ends when the speakers' TCP
 * has acknowledged every session's last byte. */
static void
bgp_drained(struct bgp_peer *p, uint64_t now)
{
	struct bgp_sim	*sim = p->sim;
	struct phase	*ph;
	uint64_t	 done, want;

	if (p->drain_wait == BGP_SEND_ANNOUNCE) {
		ph = sim->ph[BGPP_ANNOUNCE];
		done = ++sim->drained_ann;
		want = sim->announced + sim->refused;
		bgp_drained_spk(p, now);
	} else {
		ph = sim->ph[BGPP_WITHDRAW];
		done = ++sim->drained_wd;
		want = sim->withdrawn;
		if (BGP_WITNESSED(&sim->cfg))
			ph = NULL;	/* the monitor or northbound ends it */
	}
	p->drain_wait = BGP_SEND_NONE;
	bufferevent_setwatermark(p->pd.bev, EV_WRITE, BGP_OUT_LOW, 0);
	if (ph == NULL || ph->state != PHASE_RUNNING ||
	    done < sim->n_sess || want < sim->sent_total)
		return;
	txack_wait(&sim->acked, ph, sim->n_sess, bgp_txack_dev, sim);
}

/*
 * The peer's first UPDATE of announce (and learn with it) or withdraw is
 * about to be queued: the window opens when the first byte of the
 * earliest peer is sent.
 */
static void
bgp_open_window(struct bgp_peer *p)
{
	struct bgp_sim	*sim = p->sim;
	struct phase	*ph, *also = NULL;

	if (p->sending == BGP_SEND_ANNOUNCE) {
		ph = sim->ph[BGPP_ANNOUNCE];
		also = sim->ph[BGPP_LEARN];
	} else
		ph = sim->ph[BGPP_WITHDRAW];
	phase_open(ph, clock_ns());
	if (also != NULL)
		phase_open(also, clock_ns());
	txack_open(&sim->acked, &p->txd, p->pd.bev, ph, also);
}

/*
 * A batch of UPDATEs is built in the output buffer itself (no copy: 4 MB
 * for a million /24s), in room reserved there and committed once built,
 * whole or, when a message did not fit, not at all.
 */
static void
bgp_commit(struct bgp_peer *p, struct evbuffer_iovec *v, struct wbuf *w,
    uint32_t msgs)
{
	if (w->err) {
		log_warnx("%s: message did not fit; dropped", bgp_who(p));
		v->iov_len = 0;
	} else {
		v->iov_len = w->len;
		*p->sim->c.tx_msgs += msgs;
	}
	if (evbuffer_commit_space(bufferevent_get_output(p->pd.bev), v,
	    1) == -1)
		fatalx("evbuffer_commit_space");
}

/* Build UPDATEs while the socket takes them. */
static void
bgp_fill(struct bgp_peer *p)
{
	struct bgp_sim		*sim = p->sim;
	struct evbuffer		*out;
	struct evbuffer_iovec	 v;
	struct wbuf		 wb, *w = &wb;
	struct bgp_attrs	 a;
	uint64_t		*next, now;
	uint32_t		 n, msgs, items;
	int			 first;

	if (p->pd.bev == NULL || p->state != BGPS_ESTABLISHED || !p->af_ok)
		return;
	out = bufferevent_get_output(p->pd.bev);
	bgp_peer_attrs(p, &a);
	while (p->sending != BGP_SEND_NONE &&
	    evbuffer_get_length(out) < BGP_OUT_HIGH) {
		next = p->sending == BGP_SEND_ANNOUNCE ? &p->ann_next :
		    &p->wd_next;
		first = bgp_peer_fam_first(p, *next);
		while (bgp_peer_fam_skip(p, next))
			;
		if (*next >= bgp_peer_count(p)) {
			bgp_sent_all(p);
			break;
		}
		if (bgp_mrt_allowance(p) == 0)
			break;		/* --mrt-rate: the next tick's */
		if (evbuffer_reserve_space(out, BGP_BATCH, &v, 1) != 1)
			fatalx("evbuffer_reserve_space");
		wbuf_init(w, v.iov_base, BGP_BATCH);
		msgs = items = 0;
		while (w->len + BGP_MAX_LEN <= w->cap && (n = bgp_build_one(p,
		    w, next, bgp_peer_count(p), p->sending ==
		    BGP_SEND_ANNOUNCE ? &a : NULL)) > 0) {
			msgs++;
			items += n;
			if (p->sending == BGP_SEND_ANNOUNCE &&
			    n > sim->ann_most)
				sim->ann_most = n;
		}
		if (items > 0 && first)
			bgp_open_window(p);
		bgp_commit(p, &v, w, msgs);
		*sim->c.updates_sent += msgs;
		now = clock_ns();
		if (p->sending == BGP_SEND_ANNOUNCE) {
			if (sim->ph[BGPP_ANNOUNCE]->state == PHASE_RUNNING)
				sim->ann_updates += msgs;
			*sim->c.prefixes_sent += items;
			bgp_count_announced(p, now);
		} else {
			*sim->c.withdrawals_sent += items;
			sim->withdrawn += items;
			if (!BGP_WITNESSED(&sim->cfg))
				phase_items(sim->ph[BGPP_WITHDRAW], now, items);
		}
		if (*next >= bgp_peer_count(p) || msgs == 0)
			bgp_sent_all(p);
	}
}

void
bgp_peer_kick(struct bgp_peer *p)
{
	const struct bgp_sim	*sim = p->sim;

	if (p->monitor || p->state != BGPS_ESTABLISHED)
		return;
	if (sim->ph[BGPP_WITHDRAW] != NULL &&
	    sim->ph[BGPP_WITHDRAW]->state == PHASE_RUNNING) {
		if (p->wd_next < bgp_peer_count(p))
			p->sending = BGP_SEND_WITHDRAW;
	} else if (sim->ph[BGPP_ANNOUNCE]->state != PHASE_PENDING &&
	    p->ann_next < bgp_peer_count(p))
		p->sending = BGP_SEND_ANNOUNCE;
	bgp_fill(p);
}

/* Our OPEN (section 4.2): the capabilities the configuration offers. */
static void
bgp_send_open(struct bgp_peer *p)
{
	const struct bgp_config	*cfg = &p->sim->cfg;
	struct bgp_open		 o;
	struct wbuf		*w = bgp_scratch();
	uint32_t		 as = p->monitor && cfg->monitor_as ?
	    cfg->monitor_as : cfg->as;

	memset(&o, 0, sizeof(o));
	o.version = BGP_VERSION;
	o.my_as = as > 0xffff ? BGP_AS_TRANS : (uint16_t)as;
	o.hold = cfg->hold;
	o.bgp_id = p->bgp_id;
	bgp_peer_fam_offer(cfg, &o);
	if (p->monitor)
		o.caps.mp[BGP_AF_IPV4] = o.caps.mp[BGP_AF_IPV6] = 1;
	o.caps.route_refresh = 1;
	o.caps.as4 = 1;
	o.caps.as4_number = as;
	if (cfg->graceful) {
		o.caps.graceful = 1;
		o.caps.gr_time = 120;
	}
	o.caps.addpath[cfg->af] = cfg->addpath;
	bgp_open_encode(w, &o);
	bgp_send(p, w, 1);
}

/* The family we announce: negotiated by MP capabilities, or IPv4 by
 * default when neither side sent any (RFC 4760 section 8). */
static int
bgp_af_negotiated(const struct bgp_open *o, enum bgp_af af)
{
	if (af == BGP_AF_IPV4 && !o->caps.mp[BGP_AF_IPV4] &&
	    !o->caps.mp[BGP_AF_IPV6] && o->caps.mp_fam == 0)
		return 1;
	return o->caps.mp[af];
}

static void
bgp_negotiate(struct bgp_peer *p, const struct bgp_open *o)
{
	const struct bgp_config	*cfg = &p->sim->cfg;
	int			 af;

	memset(&p->sc, 0, sizeof(p->sc));
	p->sc.as4 = o->caps.as4;
	for (af = 0; af < BGP_AF_MAX; af++) {
		p->sc.addpath_rx[af] = (cfg->addpath & BGP_ADDPATH_RECEIVE) &&
		    (o->caps.addpath[af] & BGP_ADDPATH_SEND) &&
		    (int)cfg->af == af;
		p->sc.addpath_tx[af] = (cfg->addpath & BGP_ADDPATH_SEND) &&
		    (o->caps.addpath[af] & BGP_ADDPATH_RECEIVE) &&
		    (int)cfg->af == af;
	}
	/* Section 4.2: the smaller hold time; 0 turns keepalives off. */
	p->hold = o->hold < cfg->hold ? o->hold : cfg->hold;
	bgp_peer_fam_negotiate(p, o, bgp_af_negotiated);
	if (!p->af_ok && !p->monitor && !(p->logged & LOG_FAMILY)) {
		p->logged |= LOG_FAMILY;
		log_warnx("%s: the controller agreed to none of the families "
		    "(--family); nothing will be announced", bgp_who(p));
	}
}

static void
bgp_fsm_open(struct bgp_peer *p, const uint8_t *msg, size_t len)
{
	const struct bgp_config	*cfg = &p->sim->cfg;
	struct bgp_open		 o;
	struct wbuf		*w;

	if (bgp_conn_open_decode(&p->conn, msg, len, &o) == -1)
		return;
	if (cfg->peer_as != 0 && bgp_open_as(&o) != cfg->peer_as) {
		bgp_notify_close(p, BGP_ERR_OPEN, BGP_ERR_OPEN_AS, NULL, 0,
		    "the controller's AS is not --peer-as");
		return;
	}
	if (o.bgp_id == p->bgp_id) {
		bgp_notify_close(p, BGP_ERR_OPEN, BGP_ERR_OPEN_BGPID, NULL, 0,
		    "the controller has our BGP identifier");
		return;
	}
	bgp_negotiate(p, &o);
	w = bgp_scratch();
	bgp_keepalive_encode(w);
	bgp_send(p, w, 1);
	p->last_ka_ns = clock_ns();
	bgp_change_state(p, BGPS_OPENCONFIRM, "OPEN received");
}

static void
bgp_established(struct bgp_peer *p)
{
	struct bgp_sim	*sim = p->sim;
	uint64_t	 now = clock_ns();

	bgp_change_state(p, BGPS_ESTABLISHED, "KEEPALIVE received");
	p->eor_sent = 0;
	p->ann_next = 0;
	p->wd_next = 0;
	p->sending = BGP_SEND_NONE;
	if (p->monitor)
		return;
	if (sim->ph[BGPP_CONNECT]->state == PHASE_RUNNING) {
		phase_items(sim->ph[BGPP_CONNECT], now, 1);
		phase_latency(sim->ph[BGPP_CONNECT],
		    (now - p->pd.attempt_ns) / 1000);
	}
	if (sim->ph_connect[p->spk] != NULL &&
	    sim->ph_connect[p->spk]->state == PHASE_RUNNING) {
		phase_items(sim->ph_connect[p->spk], now, 1);
		phase_latency(sim->ph_connect[p->spk],
		    (now - p->pd.attempt_ns) / 1000);
	}
	bgp_peer_kick(p);
}

/*
 * The learn and withdraw phases from the monitor's table: learn counts
 * it growing past the most it ever held, withdraw it shrinking below the
 * least it held since withdrawal began, so a session that drops and
 * comes back cannot count a prefix twice.  Timed by the arrival of the
 * UPDATE that moved it (rxstamp).
 */
static void
bgp_monitor_count(struct bgp_peer *p)
{
	struct bgp_sim	*sim = p->sim;
	struct phase	*grow = sim->ph[BGPP_LEARN];
	struct phase	*shrink = sim->ph[BGPP_WITHDRAW];
	uint64_t	 now = sim->mon_rx.last_ns, n = bgp_pmap_count(p->rib_in);

	/* The advertise test comes after the others: its phases count once
	 * they run. */
	if (sim->ph[BGPP_ADVERTISE] != NULL &&
	    sim->ph[BGPP_ADVERTISE]->state != PHASE_PENDING)
		grow = sim->ph[BGPP_ADVERTISE];
	if (sim->ph[BGPP_UNADVERTISE] != NULL &&
	    sim->ph[BGPP_UNADVERTISE]->state != PHASE_PENDING)
		shrink = sim->ph[BGPP_UNADVERTISE];
	if (n > sim->mon_high) {
		if (grow != NULL && grow->state == PHASE_RUNNING)
			phase_items(grow, now, n - sim->mon_high);
		sim->mon_high = n;
	}
	if (shrink != NULL && shrink->state == PHASE_RUNNING &&
	    n < sim->mon_low) {
		phase_items(shrink, now, sim->mon_low - n);
		sim->mon_low = n;
	}
}

/* Walk one NLRI span into or out of the adj-RIB-in. */
static void
bgp_rib_apply(struct bgp_peer *p, struct rbuf span, enum bgp_af af,
    int add)
{
	struct bgp_prefix	pfx;
	uint64_t		seen = 0;

	while (bgp_nlri_next(&span, af, p->sc.addpath_rx[af], &pfx) == 1) {
		seen++;
		if (add)
			bgp_pmap_put(p->rib_in, &pfx, NULL);
		else
			bgp_pmap_del(p->rib_in, &pfx, NULL);
	}
	if (add)
		*p->sim->c.rx_announced[af] += seen;
	else
		*p->sim->c.rx_withdrawn[af] += seen;
}

static void
bgp_update_log(struct bgp_peer *p, const struct bgp_update *u)
{
	if (u->treat_as_withdraw) {
		(*p->sim->c.treat_as_withdraw)++;
		if (!(p->logged & LOG_TAW))
			log_warnx("%s: malformed UPDATE (%s): its routes are "
			    "treated as withdrawn (RFC 7606); further ones "
			    "counted", bgp_who(p), u->malformed);
		p->logged |= LOG_TAW;
	} else if (u->attr_discarded) {
		(*p->sim->c.attr_discarded)++;
		if (!(p->logged & LOG_DISCARD))
			log_warnx("%s: UPDATE attribute discarded (%s); further "
			    "ones counted", bgp_who(p), u->malformed);
		p->logged |= LOG_DISCARD;
	}
}

static void
bgp_fsm_update(struct bgp_peer *p, const uint8_t *msg, size_t len)
{
	struct bgp_update	u;
	struct bgp_err		e;
	int			announce;

	(*p->sim->c.updates_received)++;
	if (bgp_update_decode(msg, len, &p->sc, &u, &e) == -1) {
		bgp_notify_err(p, &e);
		return;
	}
	bgp_update_log(p, &u);
	bgp_peer_fam_rx(p, &u);
	if (u.end_of_rib) {
		(*p->sim->c.eor_received)++;
		return;
	}
	if (p->rib_in == NULL) {
		p->rib_in = xcalloc(1, sizeof(*p->rib_in));
		bgp_pmap_init(p->rib_in, 0);
		/* The monitor expects the run's prefixes back: a bit each;
		 * anything else still goes to the map's tables. */
		if (p->monitor)
			(void)bgp_pmap_dense(p->rib_in, &p->sim->cfg.first,
			    p->sim->total);
	}
	/* RFC 7606 treat-as-withdraw: its announcements are withdrawals. */
	announce = !u.treat_as_withdraw;
	bgp_rib_apply(p, u.withdrawn, BGP_AF_IPV4, 0);
	if (u.mp_unreach_af != BGP_AF_MAX)
		bgp_rib_apply(p, u.mp_unreach, u.mp_unreach_af, 0);
	bgp_rib_apply(p, u.nlri, BGP_AF_IPV4, announce);
	if (u.mp_reach_af != BGP_AF_MAX)
		bgp_rib_apply(p, u.mp_reach, u.mp_reach_af, announce);
	if (p->monitor)
		bgp_monitor_count(p);
}

/* RFC 2918 section 4: send our routes again. */
static void
bgp_fsm_refresh(struct bgp_peer *p, const uint8_t *msg, size_t len)
{
	enum bgp_af	af;
	uint8_t		subtype;
	struct bgp_err	e;

	(*p->sim->c.route_refresh_received)++;
	if (bgp_route_refresh_decode(msg, len, &af, &subtype, &e) == -1) {
		bgp_notify_err(p, &e);
		return;
	}
	if (af != p->sim->cfg.af || p->monitor || p->ann_next == 0)
		return;
	if (p->sending != BGP_SEND_WITHDRAW && p->wd_next == 0) {
		p->ann_next = 0;
		p->eor_sent = 0;
		p->sending = BGP_SEND_ANNOUNCE;
		bgp_fill(p);
	}
}

static void
bgp_fsm_notification(struct bgp_peer *p, const uint8_t *msg, size_t len)
{
	uint8_t	code = 0, subcode = 0;

	(*p->sim->c.notifications_received)++;
	bgp_notification_decode(msg, len, &code, &subcode);
	if (!(p->logged & LOG_NOTIF))
		log_warnx("%s: the controller sent NOTIFICATION %s",
		    bgp_who(p), bgp_err_name(code, subcode));
	p->logged |= LOG_NOTIF;
	pool_lost(&p->pd, "NOTIFICATION received");
}

/* A message the state does not expect: FSM error (RFC 6608 section 4). */
static void
bgp_fsm_unexpected(struct bgp_peer *p, uint8_t type)
{
	static const uint8_t sub[] = {
		[BGPS_OPENSENT] = BGP_ERR_FSM_OPENSENT,
		[BGPS_OPENCONFIRM] = BGP_ERR_FSM_OPENCONFIRM,
		[BGPS_ESTABLISHED] = BGP_ERR_FSM_ESTABLISHED,
	};
	char	why[64];

	snprintf(why, sizeof(why), "message type %u in %s", type,
	    bgp_state_names[p->state]);
	bgp_notify_close(p, BGP_ERR_FSM, p->state < sizeof(sub) ?
	    sub[p->state] : 0, NULL, 0, why);
}

/* One complete message by state and type (section 8.2.2). */
static void
bgp_fsm(struct bgp_peer *p, uint8_t type, const uint8_t *msg, size_t len)
{
	(*p->sim->c.rx_msgs)++;
	if (type == BGP_NOTIFICATION) {
		bgp_fsm_notification(p, msg, len);
		return;
	}
	switch (p->state) {
	case BGPS_OPENSENT:
		if (type != BGP_OPEN)
			break;
		bgp_fsm_open(p, msg, len);
		return;
	case BGPS_OPENCONFIRM:
		if (type != BGP_KEEPALIVE)
			break;
		(*p->sim->c.keepalives_received)++;
		bgp_established(p);
		return;
	case BGPS_ESTABLISHED:
		if (type == BGP_KEEPALIVE) {
			(*p->sim->c.keepalives_received)++;
			return;
		}
		if (type == BGP_UPDATE) {
			bgp_fsm_update(p, msg, len);
			return;
		}
		if (type == BGP_ROUTE_REFRESH) {
			bgp_fsm_refresh(p, msg, len);
			return;
		}
		break;
	}
	bgp_fsm_unexpected(p, type);
}

/* One message; -1 stops reading: the session ended (bev is gone) or
 * is closing. */
static int
bgp_frame_message(void *dev, const uint8_t *msg, size_t len)
{
	struct bgp_peer		*p = dev;
	struct bufferevent	*bev = p->pd.bev;

	bgp_fsm(p, msg[BGP_HEADER_LEN - 1], msg, len);
	return p->pd.bev != bev || p->closing_ns != 0 ? -1 : 0;
}

static const struct bgp_conn_ops bgp_conn_ops = {
	bgp_notify_close, bgp_frame_message,
};

/* While closing, what still comes is dropped (bgp_notify_close). */
static void
bgp_read(struct bufferevent *bev, void *arg)
{
	struct bgp_peer	*p = arg;
	struct evbuffer	*in = bufferevent_get_input(bev);

	p->last_rx_ns = clock_ns();
	if (p->closing_ns == 0 && bgp_conn_read(&p->conn, bev) == -1 &&
	    p->pd.bev != bev)
		return;		/* the session ended: bev is gone */
	if (p->closing_ns != 0)
		evbuffer_drain(in, evbuffer_get_length(in));
}

static void
bgp_write_drained(struct bufferevent *bev, void *arg)
{
	struct bgp_peer	*p = arg;

	if (p->closing_ns != 0) {
		pool_lost_drained(&p->pd, "NOTIFICATION sent");
		return;
	}
	if (p->drain_wait != BGP_SEND_NONE &&
	    evbuffer_get_length(bufferevent_get_output(bev)) == 0)
		bgp_drained(p, clock_ns());
	bgp_fill(p);
}

/* Our address on this connection: next hop self and the identifier. */
static void
bgp_local_addr(struct bgp_peer *p, struct bufferevent *bev)
{
	struct sockaddr_storage	 ss;
	socklen_t		 len = sizeof(ss);
	struct sockaddr_in	*sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)&ss;
	uint32_t		 id;

	memset(p->local4, 0, 4);
	memset(p->local6, 0, 16);
	if (getsockname(bufferevent_getfd(bev), (struct sockaddr *)&ss,
	    &len) == -1)
		return;
	if (ss.ss_family == AF_INET) {
		memcpy(p->local4, &sin->sin_addr, 4);
		/* IPv4-mapped for an IPv6 next hop on an IPv4 session. */
		p->local6[10] = p->local6[11] = 0xff;
		memcpy(p->local6 + 12, &sin->sin_addr, 4);
	} else if (ss.ss_family == AF_INET6)
		memcpy(p->local6, &sin6->sin6_addr, 16);
	/* The identifier must differ between peers: the address if it
	 * is IPv4 and unique, else 10.0.0.0 plus our number. */
	id = (uint32_t)p->local4[0] << 24 | (uint32_t)p->local4[1] << 16 |
	    (uint32_t)p->local4[2] << 8 | p->local4[3];
	if (id == 0 || p->sim->pcfg[0].src.family != AF_INET)
		id = 0x0a000000u + p->idx + 1 + (p->monitor ?
		    p->sim->cfg.peers : 0);
	p->bgp_id = id;
}

static void
bgp_peer_up(struct pool_dev *pd, struct bufferevent *bev)
{
	struct bgp_peer	*p = (struct bgp_peer *)pd;

	p->last_rx_ns = p->last_ka_ns = clock_ns();
	p->up_ns = p->last_rx_ns;
	p->closing_ns = 0;
	p->conn = (struct bgp_conn){ &bgp_conn_ops, p };
	p->hold = BGP_OPEN_HOLD_S;
	bgp_local_addr(p, bev);
	bgp_change_state(p, BGPS_OPENSENT, "connected");
	bufferevent_setcb(bev, bgp_read, bgp_write_drained, pool_bev_event,
	    p);
	bufferevent_setwatermark(bev, EV_WRITE, BGP_OUT_LOW, 0);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
	/* The monitor witnesses learn and withdraw: its UPDATEs are timed
	 * by their arrival, however late the loop reads them. */
	if (p->monitor)
		rxstamp_start(&p->sim->mon_rx, bev, bgp_read, pool_bev_event, p);
	bgp_send_open(p);
}

static void
bgp_peer_down(struct pool_dev *pd, const char *why)
{
	struct bgp_peer	*p = (struct bgp_peer *)pd;

	if (p->state == BGPS_ESTABLISHED || p->closing_ns != 0) {
		(*p->sim->c.sessions_lost)++;
		if (!p->monitor && p->sim->c.spk_lost[p->spk] != NULL)
			(*p->sim->c.spk_lost[p->spk])++;
		log_info("%s: session lost: %s", bgp_who(p), why);
	}
	if (p->monitor)
		rxstamp_stop(&p->sim->mon_rx);
	p->sending = BGP_SEND_NONE;
	p->closing_ns = 0;
	/* What it learned over the session goes with it (section 9.1). */
	if (p->rib_in != NULL)
		bgp_pmap_clear(p->rib_in);
	bgp_change_state(p, BGPS_IDLE, why);
}

const struct pool_ops bgp_peer_ops = {
	bgp_peer_up,
	bgp_peer_down,
	"the controller",
};

/* Hold timer (section 6.5) and keepalives at a third of it (10); when
 * they are next due (UINT64_MAX: never, now: at the next tick). */
uint64_t
bgp_peer_timers(struct bgp_peer *p, uint64_t now)
{
	struct wbuf	*w;
	uint64_t	 hold_ns = (uint64_t)p->hold * 1000000000ull;

	if (p->pd.bev != NULL && p->closing_ns != 0) {
		/* A NOTIFICATION the other side does not take. */
		if (now - p->closing_ns >= BGP_CLOSE_WAIT_NS)
			pool_lost(&p->pd, "NOTIFICATION not taken");
		return p->pd.bev != NULL ? p->closing_ns + BGP_CLOSE_WAIT_NS :
		    UINT64_MAX;
	}
	if (p->pd.bev == NULL || p->state < BGPS_OPENSENT || p->hold == 0)
		return UINT64_MAX;
	if (now - p->last_rx_ns >= hold_ns) {
		(*p->sim->c.hold_expired)++;
		bgp_notify_close(p, BGP_ERR_HOLD, 0, NULL, 0,
		    "hold timer expired");
		return now;
	}
	if (p->state < BGPS_OPENCONFIRM)
		return p->last_rx_ns + hold_ns;
	if (now - p->last_ka_ns >= hold_ns / 3) {
		w = bgp_scratch();
		bgp_keepalive_encode(w);
		bgp_send(p, w, 1);
		(*p->sim->c.keepalives_sent)++;
		p->last_ka_ns = now;
	}
	return p->last_ka_ns + hold_ns / 3 < p->last_rx_ns + hold_ns ?
	    p->last_ka_ns + hold_ns / 3 : p->last_rx_ns + hold_ns;
}

/*
 * Churn: walk the peer's prefixes in turn, withdrawing one that is
 * announced and announcing it again on the next pass.  Each UPDATE
 * carries one prefix, as a flapping route would.
 */
uint64_t
bgp_peer_churn(struct bgp_peer *p, uint64_t n)
{
	const struct bgp_config	*cfg = &p->sim->cfg;
	struct wbuf		*w;
	struct bgp_attrs	 a;
	struct bgp_ub		 ub;
	struct bgp_prefix	 pfx;
	uint64_t		 i, k, sent = 0;
	int			 withdraw;

	if (p->pd.bev == NULL || p->state != BGPS_ESTABLISHED || !p->af_ok ||
	    p->sending != BGP_SEND_NONE || cfg->prefixes == 0 ||
	    evbuffer_get_length(bufferevent_get_output(p->pd.bev)) >=
	    BGP_OUT_HIGH)
		return 0;
	bgp_peer_attrs(p, &a);
	w = bgp_scratch();
	for (i = 0; i < n && w->len + BGP_MAX_LEN <= w->cap; i++) {
		k = p->churn_next % cfg->prefixes;
		withdraw = (p->churn_next / cfg->prefixes) % 2 == 0;
		bgp_peer_prefix(p, k, &pfx);
		bgp_ub_begin(&ub, w, cfg->af, cfg->use_mp,
		    p->sc.addpath_tx[cfg->af], withdraw ? NULL : &a, &p->sc,
		    BGP_MAX_LEN);
		bgp_ub_add(&ub, &pfx);
		bgp_ub_end(&ub);
		p->churn_next++;
		sent++;
	}
	bgp_send(p, w, (uint32_t)sent);
	*p->sim->c.updates_sent += sent;
	return sent;
}

/*
 * --fault churn: prefixes start.. start+n-1 of those the session
 * announced go out as withdrawn routes (in MP_UNREACH_NLRI where the
 * family is carried there), then as NLRI again in the UPDATEs after
 * them (RFC 4271 section 4.3; a speaker handles a session's UPDATEs in
 * order, so the routes end up announced).  Only a session that has sent
 * all its announcements and nothing else: the paced sending keeps its
 * own order.
 */
uint64_t
bgp_peer_churn_fault(struct bgp_peer *p, uint64_t n, uint64_t start)
{
	struct bgp_sim		*sim = p->sim;
	struct wbuf		*w;
	struct bgp_attrs	 a;
	uint64_t		 next, end;
	uint32_t		 msgs = 0, k;
	int			 pass;

	if (p->pd.bev == NULL || p->state != BGPS_ESTABLISHED || !p->af_ok ||
	    p->closing_ns != 0 || p->sending != BGP_SEND_NONE ||
	    p->wd_next != 0 || p->ann_next == 0 ||
	    evbuffer_get_length(bufferevent_get_output(p->pd.bev)) >=
	    BGP_OUT_HIGH)
		return 0;
	if (n > p->ann_next)
		n = p->ann_next;
	start %= p->ann_next - n + 1;
	end = start + n;
	bgp_peer_attrs(p, &a);
	/* Withdrawals first, then the same prefixes announced: each pass
	 * in UPDATEs of its own, built and sent one scratch buffer at a
	 * time. */
	for (pass = 0; pass < 2; pass++) {
		next = start;
		while (next < end) {
			w = bgp_scratch();
			k = 0;
			while (w->len + BGP_MAX_LEN <= w->cap &&
			    bgp_build_one(p, w, &next, end, pass ? &a : NULL) >
			    0)
				k++;
			if (k == 0)
				return 0;	/* could not be built */
			bgp_send(p, w, k);
			msgs += k;
		}
	}
	*sim->c.updates_sent += msgs;
	*sim->c.prefixes_churned += n;
	log_info("%s: churn: %llu prefixes withdrawn and announced again",
	    bgp_who(p), (unsigned long long)n);
	return n;
}

/*
 * The run is over (RFC 4271 section 8.2.2, ManualStop): NOTIFICATION
 * Cease / Administrative Shutdown (RFC 4486), written out at once since
 * the connection closes right after, so that the other side drops our
 * routes now instead of keeping them stale for the graceful-restart
 * time.
 */
void
bgp_peer_goodbye(struct bgp_peer *p)
{
	struct wbuf	*w;

	if (p->pd.bev == NULL || p->closing_ns != 0 ||
	    p->state < BGPS_OPENSENT)
		return;
	w = bgp_scratch();
	bgp_notification_encode(w, BGP_ERR_CEASE, BGP_ERR_CEASE_ADMIN_DOWN,
	    NULL, 0);
	/* Not an error: not counted as one. */
	bgp_write_last(p->pd.bev, w->data, w->len);
}

void
bgp_peer_free(struct bgp_peer *p)
{
	if (p->monitor)
		rxstamp_stop(&p->sim->mon_rx);
	if (p->rib_in != NULL) {
		bgp_pmap_free(p->rib_in);
		free(p->rib_in);
		p->rib_in = NULL;
	}
}
