/*
 * One simulated PCC's PCEP session (RFC 5440 section 6 and appendix A)
 * from the moment the pool has a TCP connection: OPEN negotiation with
 * its PCErr 1/4 round (section 6.2), OpenWait and KeepWait timers,
 * KEEPALIVEs and the dead timer (section 6.3), CLOSE (section 6.8),
 * framing off a bufferevent, and the answers to bad or unexpected input:
 * a PCErr of the right type, counted, logged once per PCC per kind, and
 * a CLOSE where the stream cannot be trusted any more.
 */
#include <sys/socket.h>
#include <netinet/in.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "engine.h"
#include "log.h"
#include "pcep_sim.h"

#define PCC_OUT_HIGH	(256 * 1024)	/* build no more above this */
#define PCC_OUT_LOW	(64 * 1024)	/* and start again below this */
#define PCC_SCRATCH	(PCEP_MAX_MSG + 1)
#define PCC_OPENWAIT_S	60		/* RFC 5440 appendix A */
#define PCC_KEEPWAIT_S	60
#define PCC_CLOSE_WAIT_S 2		/* a CLOSE the PCE does not take */
#define NS		1000000000ull

/* Kinds of trouble logged once per PCC (bits of pcc->logged). */
#define LOG_PCERR	0x01
#define LOG_BAD		0x02
#define LOG_UNKNOWN	0x04
#define LOG_CLOSE	0x08
#define LOG_NEGOTIATE	0x10

static uint8_t	scratch_mem[PCC_SCRATCH];

static const char *const pcc_state_names[] = {
	[PCCS_IDLE] = "Idle", [PCCS_OPENWAIT] = "OpenWait",
	[PCCS_KEEPWAIT] = "KeepWait", [PCCS_UP] = "SessionUP",
	[PCCS_CLOSING] = "Closing",
};

/* With several PCEs, which session: "pcc 3 (PCE 2)". */
const char *
pcc_who(const void *pcc)
{
	const struct pcc	*p = pcc;

	return engine_sess_name("pcc", p->idx, "PCE", p->pce + 1u,
	    p->sim->cfg.n_pce);
}

struct wbuf *
pcc_scratch(void)
{
	static struct wbuf	w;

	wbuf_init(&w, scratch_mem, sizeof(scratch_mem));
	return &w;
}

int
pcc_out_full(const struct pcc *p)
{
	return pcep_sess_out_full(&p->ses);
}

static const struct engine_fsm pcc_fsm_states = {
	pcc_state_names, PCCS_UP
};

static void
pcc_change_state(struct pcc *p, enum pcc_state next, const char *why)
{
	if (engine_sess_move(&pcc_fsm_states, &p->state, next, &p->sim->up,
	    pcc_who, p, why))
		p->state_ns = clock_ns();
}

void
pcc_send(struct pcc *p, struct wbuf *w, uint32_t msgs)
{
	if (engine_bev_send(p->pd.bev, w, pcc_who, p) != 1)
		return;
	*p->sim->c.tx_msgs += msgs;
	p->last_tx_ns = clock_ns();
}

/*
 * CLOSE (RFC 5440 6.8) and end the session once it is out: the
 * connection lives until its output drained, reading and dropping what
 * still comes, so that the CLOSE is not lost to a reset.
 */
static void
pcc_close(struct pcc *p, uint8_t reason, const char *why)
{
	struct wbuf	*w;

	if (p->pd.bev == NULL || p->state == PCCS_CLOSING)
		return;
	w = pcc_scratch();
	pcep_close_encode(w, reason);
	pcc_send(p, w, 1);
	(*p->sim->c.close_sent)++;
	if (!(p->logged & LOG_CLOSE) && !p->flapping)
		log_warnx("%s: sending CLOSE (reason %u): %s", pcc_who(p),
		    reason, why);
	p->logged |= LOG_CLOSE;
	p->syncing = 0;
	pcc_change_state(p, PCCS_CLOSING, why);
	p->closing_ns = clock_ns();
	bufferevent_setwatermark(p->pd.bev, EV_WRITE, 0, 0);
	if (evbuffer_get_length(bufferevent_get_output(p->pd.bev)) == 0)
		pool_lost(&p->pd, why);
}

void
pcc_pcerr(struct pcc *p, enum pcep_error e, uint32_t srp_id)
{
	struct pcep_err	 err;
	struct wbuf	*w = pcc_scratch();

	pcep_err_set(&err, e);
	pcep_ctlrr_simple(w, &err, srp_id);
	pcc_send(p, w, 1);
	(*p->sim->c.pcerr_sent)++;
	if (!(p->logged & LOG_BAD))
		log_warnx("%s: sending PCErr %u/%u (%s); further ones counted",
		    pcc_who(p), err.type, err.value,
		    pcep_error_name(err.type, err.value));
	p->logged |= LOG_BAD;
}

/* Bad input: the PCErr it deserves, then CLOSE when the codec says so. */
void
pcc_bad(struct pcc *p, const struct pcep_err *err, uint32_t srp_id)
{
	pcep_sess_bad(&p->ses, err, srp_id);
}

/* Our OPEN: the keepalive and dead timer we want, and the stateful
 * capabilities (RFC 8231 7.1.1, 8281 4.1, 8232 4.1, 8408 3, 8664 4.1). */
static void
pcc_send_open(struct pcc *p)
{
	const struct pcc_config	*cfg = &p->sim->cfg;
	struct pcep_open	 o;
	struct wbuf		*w = pcc_scratch();

	memset(&o, 0, sizeof(o));
	o.keepalive = p->ka_ours;
	o.deadtimer = p->dead_ours;
	o.sid = (uint8_t)(p->pd.attempts + p->idx);
	o.has_stateful = 1;
	o.stateful_flags = PCEP_STATEFUL_U |
	    (cfg->initiate ? PCEP_STATEFUL_I : 0) |
	    (cfg->db_version ? PCEP_STATEFUL_S : 0) |
	    (cfg->triggered ? PCEP_STATEFUL_T : 0) |
	    (cfg->delta ? PCEP_STATEFUL_D : 0);
	if (cfg->sr) {
		o.n_pst = 2;
		o.pst[0] = PCEP_PST_RSVP_TE;
		o.pst[1] = PCEP_PST_SR;
		o.has_sr = 1;
		o.msd = PCEP_ERO_MAX;
	}
	if (cfg->srv6) {
		/* RFC 9603 4.1: PST 3 and SRv6-PCE-CAPABILITY (not with
		 * --sr: pcep_main.c refuses both). */
		o.n_pst = 2;
		o.pst[0] = PCEP_PST_RSVP_TE;
		o.pst[1] = PCEP_PST_SRV6;
		o.has_srv6 = 1;
	}
	if (cfg->db_version) {
		o.has_db_version = 1;
		o.db_version = p->db_version;
	}
	if (cfg->assoc != PCEP_AK_NONE) {
		/* RFC 8697 6.1: the types we will use. */
		o.n_assoc_types = 1;
		o.assoc_types[0] = pcep_assoc_kind_type(cfg->assoc);
	}
	pcep_open_encode(w, &o);
	pcc_send(p, w, 1);
}

static void
pcc_send_keepalive(struct pcc *p)
{
	struct wbuf	*w = pcc_scratch();

	pcep_keepalive_encode(w);
	pcc_send(p, w, 1);
	(*p->sim->c.keepalives_sent)++;
}

/*
 * Can we live with the PCE's OPEN?  Its dead timer must outlast our
 * keepalive, or it would declare us dead between two of them (RFC 5440
 * 7.3), and it must be a stateful PCE that may update LSPs (RFC 8231
 * 5.4).  When not, *prop is what we would accept, for the PCErr 1/4 of
 * section 6.2.
 */
static int
pcc_open_ok(const struct pcc *p, const struct pcep_open *o,
    struct pcep_open *prop)
{
	unsigned	dead;
	int		ok = 1;

	*prop = *o;
	if (p->ka_ours != 0 && o->deadtimer != 0 &&
	    o->deadtimer <= p->ka_ours) {
		dead = 4u * p->ka_ours;
		prop->deadtimer = (uint8_t)(dead > 255 ? 255 : dead);
		if (prop->keepalive == 0 || prop->keepalive >= prop->deadtimer)
			prop->keepalive = (uint8_t)(prop->deadtimer / 4 ?
			    prop->deadtimer / 4 : 1);
		ok = 0;
	}
	if (!o->has_stateful || !(o->stateful_flags & PCEP_STATEFUL_U)) {
		prop->has_stateful = 1;
		prop->stateful_flags |= PCEP_STATEFUL_U;
		ok = 0;
	}
	return ok;
}

static void
pcc_negotiate_pcerr(void *pcc, enum pcep_error e,
    const struct pcep_open *prop)
{
	struct pcc	*p = pcc;
	struct wbuf	*w = pcc_scratch();

	pcep_ctlrr_open(w, e, prop);
	pcc_send(p, w, 1);
	(*p->sim->c.pcerr_sent)++;
	(*p->sim->c.open_negotiated)++;
}

/* Several PCEs: connect.pK counts the first session to PCE K. */
static void
pcc_connected_pce(struct pcc *p, uint64_t now)
{
	struct phase	*ph = p->sim->ph_connect[p->pce];

	if (ph != NULL && ph->state == PHASE_RUNNING) {
		phase_items(ph, now, 1);
		phase_latency(ph, (now - p->pd.attempt_ns) / 1000);
	}
}

/* Both sides agreed: the session is up (RFC 5440 6.2). */
static void
pcc_session_up(struct pcc *p)
{
	struct pcep_sim	*sim = p->sim;
	uint64_t	 now = clock_ns();

	pcc_change_state(p, PCCS_UP, "Open and Keepalive both ways");
	if (sim->ph[PCCP_CONNECT]->state == PHASE_RUNNING) {
		phase_items(sim->ph[PCCP_CONNECT], now, 1);
		phase_latency(sim->ph[PCCP_CONNECT],
		    (now - p->pd.attempt_ns) / 1000);
	}
	pcc_connected_pce(p, now);
	pcc_deleg_up(p);
	pcc_lsps_reset(p);
	if (p->stateful)
		pcc_sync_fill(p);
}

static void
pcc_fsm_open(struct pcc *p, struct rbuf *body)
{
	const struct pcc_config	*cfg = &p->sim->cfg;
	struct pcep_open	 o, prop;
	struct pcep_err		 err;

	if (pcep_open_decode(body, &o, &err) == -1) {
		pcep_sess_open_malformed(&p->ses, &err);
		return;
	}
	p->open_tries++;
	if (!pcc_open_ok(p, &o, &prop)) {
		if (!(p->logged & LOG_NEGOTIATE))
			log_warnx("%s: the PCE's Open (keepalive %u, dead "
			    "timer %u%s) is not acceptable", pcc_who(p),
			    o.keepalive, o.deadtimer, o.has_stateful ? "" :
			    ", not stateful");
		p->logged |= LOG_NEGOTIATE;
		pcep_sess_open_refused(&p->ses, p->open_tries, &prop,
		    &p->state_ns);
		return;
	}
	p->ka_peer = o.keepalive;
	p->dead_peer = o.deadtimer;
	p->stateful = 1;
	p->can_init = cfg->initiate && (o.stateful_flags & PCEP_STATEFUL_I);
	p->dbv = cfg->db_version && (o.stateful_flags & PCEP_STATEFUL_S);
	p->remote_ok = 1;
	pcc_send_keepalive(p);
	if (p->local_ok)
		pcc_session_up(p);
	else
		pcc_change_state(p, PCCS_KEEPWAIT, "Open accepted");
}

/* A PCErr before the session is up: the PCE refuses our Open, maybe
 * with values it would take (RFC 5440 6.2). */
static void
pcc_fsm_open_pcerr(struct pcc *p, const struct pcep_errmsg *em)
{
	const struct pcep_open	*o = &em->open;

	if (em->n > 0 && em->item[0].type == 1 && em->item[0].value == 4 &&
	    em->has_open && p->open_tries < 2 && !p->local_ok &&
	    o->keepalive != 0 && o->deadtimer >= o->keepalive) {
		p->ka_ours = o->keepalive;
		p->dead_ours = o->deadtimer;
		p->open_tries = 2;	/* one renegotiation only */
		pcc_send_open(p);
		p->state_ns = clock_ns();
		return;
	}
	if (em->n > 0 && em->item[0].type == 1 && em->item[0].value == 4) {
		pcc_negotiate_pcerr(p, PCEP_E_OPEN_PCERR_UNACCEPTABLE, NULL);
		pcc_close(p, PCEP_CLOSE_NONE, "PCE's proposal unacceptable");
		return;
	}
	pool_lost(&p->pd, "the PCE refused the session");
}

static void
pcc_fsm_pcerr(struct pcc *p, struct rbuf *body)
{
	struct pcep_errmsg	em;
	char			text[80];

	(*p->sim->c.pcerr_received)++;
	if (pcep_sess_pcerr_decode(&p->ses, body, &em) == -1)
		return;
	if (!(p->logged & LOG_PCERR))
		log_warnx("%s: the PCE sent PCErr %s%s", pcc_who(p),
		    pcep_sess_pcerr_text(&em, text, sizeof(text)),
		    p->state == PCCS_UP ? "; further ones counted" : "");
	p->logged |= LOG_PCERR;
	if (p->state != PCCS_UP)
		pcc_fsm_open_pcerr(p, &em);
}

static void
pcc_fsm_close(struct pcc *p, struct rbuf *body)
{
	struct pcep_err	err;
	uint8_t		reason = 0;

	(*p->sim->c.close_received)++;
	pcep_close_decode(body, &reason, &err);
	if (!(p->logged & LOG_CLOSE))
		log_warnx("%s: the PCE closed the session (reason %u)",
		    pcc_who(p), reason);
	p->logged |= LOG_CLOSE;
	pool_lost(&p->pd, "CLOSE received");
}

/*
 * A message this PCC does not serve here (a PCReq, a PCRpt, an unknown
 * type): PCErr "capability not supported" (RFC 5440 7.15 type 2), and a
 * CLOSE once MAX-UNKNOWN-MESSAGES came within a minute (6.9).
 */
static void
pcc_unexpected(struct pcc *p, uint8_t type)
{
	(*p->sim->c.unknown_msgs)++;
	if (!(p->logged & LOG_UNKNOWN))
		log_warnx("%s: unexpected %s (type %u) in %s", pcc_who(p),
		    pcep_msg_name(type), type, pcc_state_names[p->state]);
	p->logged |= LOG_UNKNOWN;
	pcep_sess_unknown(&p->ses);
}

/* Before the session is up only Open, Keepalive, PCErr and Close make
 * sense; anything else is 1/1 and the end of the attempt (6.2). */
static void
pcc_fsm_opening(struct pcc *p, uint8_t type, struct rbuf *body)
{
	switch (type) {
	case PCEP_MSG_OPEN:
		if (p->remote_ok)
			break;
		pcc_fsm_open(p, body);
		return;
	case PCEP_MSG_KEEPALIVE:
		(*p->sim->c.keepalives_received)++;
		p->local_ok = 1;
		if (p->remote_ok)
			pcc_session_up(p);
		return;
	}
	(*p->sim->c.bad_msgs)++;
	pcc_pcerr(p, PCEP_E_OPEN_INVALID, 0);
	pcc_close(p, PCEP_CLOSE_NONE, "not an Open while opening");
}

/* One complete message by state and type. */
static void
pcc_fsm(struct pcc *p, uint8_t type, struct rbuf *body)
{
	(*p->sim->c.rx_msgs)++;
	if (type == PCEP_MSG_CLOSE) {
		pcc_fsm_close(p, body);
		return;
	}
	if (type == PCEP_MSG_PCERR) {
		pcc_fsm_pcerr(p, body);
		return;
	}
	if (p->state != PCCS_UP) {
		pcc_fsm_opening(p, type, body);
		return;
	}
	switch (type) {
	case PCEP_MSG_KEEPALIVE:
		(*p->sim->c.keepalives_received)++;
		return;
	case PCEP_MSG_PCUPD:
		pcc_handle_update(p, body);
		return;
	case PCEP_MSG_PCINITIATE:
		if (!p->can_init)
			break;
		pcc_handle_initiate(p, body);
		return;
	case PCEP_MSG_PCNTF:
		(*p->sim->c.ntf_received)++;
		return;
	}
	pcc_unexpected(p, type);
}

/* ---- the shared session core's view of a PCC (pcep_sess.h) ---- */

static void
pcc_sess_pcerr(void *p, enum pcep_error e, uint32_t srp_id)
{
	pcc_pcerr(p, e, srp_id);
}

static void
pcc_sess_close(void *p, uint8_t reason, const char *why)
{
	pcc_close(p, reason, why);
}

/* A PCC is never freed by a message (the pool holds it). */
static int
pcc_sess_message(void *p, uint8_t type, struct rbuf *body)
{
	pcc_fsm(p, type, body);
	return 0;
}

static const struct pcep_sess_ops pcc_sess_ops = { pcc_sess_pcerr,
	pcc_negotiate_pcerr, pcc_sess_close, pcc_sess_message, PCC_OUT_HIGH,
	PCCS_CLOSING };

/* At creation (pcc_out_full() asks it from then on) and on each
 * connection (the unknown-message count starts again). */
void
pcc_sess_init(struct pcc *p)
{
	pcep_sess_init(&p->ses, &pcc_sess_ops, p, p->sim->c.bad_msgs,
	    &p->pd.bev, &p->state);
}

/*
 * While update, initiate or remove waits for its first request, the next
 * read's arrival is peeked: the window opens at the kernel's receive time
 * (docs/report.md, "Phase windows"), however late the loop reads.
 */
static void
pcc_rxpeek(struct pcc *p, struct bufferevent *bev)
{
	static const int	 waits[] = { PCCP_UPDATE, PCCP_INITIATE,
	    PCCP_REMOVE };
	const struct phase	*ph;
	size_t			 i;

	for (i = 0; i < sizeof(waits) / sizeof(waits[0]); i++) {
		ph = p->sim->ph[waits[i]];
		if (ph != NULL && ph->items == 0 &&
		    ph->state != PHASE_DONE && ph->state != PHASE_TIMEOUT) {
			rxpeek_arm(&p->rxp, bufferevent_getfd(bev));
			return;
		}
	}
	rxpeek_stop(&p->rxp);
}

/* While closing, what still comes is read and dropped, so that the
 * CLOSE is not lost to a reset. */
static void
pcc_read_input(struct bufferevent *bev, struct pcc *p, int resume)
{
	p->last_rx_ns = p->rx_ns = clock_ns();
	if (!resume)
		p->arrived_ns = rxpeek_take(&p->rxp, p->rx_ns);
	(void)pcep_sess_read(&p->ses, bev, resume);
	if (p->pd.bev == bev)
		pcc_rxpeek(p, bev);
}

static void
pcc_read(struct bufferevent *bev, void *arg)
{
	pcc_read_input(bev, arg, 0);
}

static void
pcc_write(struct bufferevent *bev, void *arg)
{
	struct pcc	*p = arg;

	if (p->state == PCCS_CLOSING) {
		pool_lost_drained(&p->pd, "CLOSE sent");
		return;
	}
	if (!(bufferevent_get_enabled(bev) & EV_READ)) {
		pcc_read_input(bev, p, 1);
		if (p->pd.bev != bev)
			return;
	}
	if (p->syncing)
		pcc_sync_fill(p);
}

/* Our IPv4 address on this connection: the tunnel sender. */
static void
pcc_local_addr(struct pcc *p, struct bufferevent *bev)
{
	p->addr = engine_local_ipv4(bufferevent_getfd(bev));
	if (p->addr == 0)
		p->addr = 0x0a000000u + p->sim->idx_base + p->idx + 1;
						/* 10/8 for IPv6 */
}

static void
pcc_up(struct pool_dev *pd, struct bufferevent *bev)
{
	struct pcc	*p = (struct pcc *)pd;

	p->last_rx_ns = p->last_tx_ns = clock_ns();
	p->closing_ns = 0;
	p->open_tries = 0;
	p->local_ok = p->remote_ok = 0;
	p->stateful = p->can_init = p->dbv = 0;
	p->syncing = p->synced = 0;
	p->ka_ours = p->sim->cfg.keepalive;
	p->dead_ours = p->sim->cfg.deadtimer;
	pcc_sess_init(p);
	pcc_local_addr(p, bev);
	pcc_change_state(p, PCCS_OPENWAIT, "connected");
	bufferevent_setcb(bev, pcc_read, pcc_write, pool_bev_event, p);
	bufferevent_setwatermark(bev, EV_WRITE, PCC_OUT_LOW, 0);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
	pcc_rxpeek(p, bev);
	pcc_send_open(p);
}

static void
pcc_down(struct pool_dev *pd, const char *why)
{
	struct pcc	*p = (struct pcc *)pd;

	if (p->state == PCCS_UP || p->state == PCCS_CLOSING) {
		(*p->sim->c.sessions_lost)++;
		if (!p->flapping)
			log_info("%s: session lost: %s", pcc_who(p), why);
	}
	p->syncing = 0;
	p->closing_ns = 0;
	rxpeek_stop(&p->rxp);
	pcc_change_state(p, PCCS_IDLE, why);
	pcc_deleg_lost(p, clock_ns());
}

const struct pool_ops pcc_ops = {
	pcc_up,
	pcc_down,
	"the PCE",
};

/*
 * The run is over: a CLOSE (RFC 5440 6.8) straight to the socket when
 * nothing else is queued before it, as a router going down would; the
 * pool closes the connection right after.
 */
void
pcc_goodbye(struct pcc *p)
{
	struct wbuf	*w;
	evutil_socket_t	 fd;

	if (p->pd.bev == NULL || p->state != PCCS_UP ||
	    evbuffer_get_length(bufferevent_get_output(p->pd.bev)) != 0 ||
	    (fd = bufferevent_getfd(p->pd.bev)) == -1)
		return;
	w = pcc_scratch();
	pcep_close_encode(w, PCEP_CLOSE_NONE);
	if (!w->err && send(fd, w->data, w->len, MSG_DONTWAIT |
	    MSG_NOSIGNAL) == (ssize_t)w->len)
		(*p->sim->c.close_sent)++;
}

void
pcc_flap(void *pcc)
{
	struct pcc	*p = pcc;

	if (p->state != PCCS_UP || !p->synced)
		return;
	p->flapping = 1;
	(*p->sim->c.flaps)++;
	pcc_close(p, PCEP_CLOSE_NONE, "flap");
}

/* OpenWait and KeepWait (appendix A), the dead timer and keepalives
 * (6.3); a CLOSE the PCE does not take. */
void
pcc_timers(struct pcc *p, uint64_t now)
{
	if (p->pd.bev == NULL)
		return;
	if (p->state == PCCS_CLOSING) {
		if (now - p->closing_ns >= PCC_CLOSE_WAIT_S * NS)
			pool_lost(&p->pd, "CLOSE not taken");
		return;
	}
	if (p->state == PCCS_OPENWAIT && !p->remote_ok &&
	    now - p->state_ns >= PCC_OPENWAIT_S * NS) {
		pcc_pcerr(p, PCEP_E_OPENWAIT_EXPIRED, 0);
		pcc_close(p, PCEP_CLOSE_NONE, "OpenWait expired");
		return;
	}
	if ((p->state == PCCS_KEEPWAIT || p->state == PCCS_OPENWAIT) &&
	    !p->local_ok && now - p->state_ns >= PCC_KEEPWAIT_S * NS) {
		pcc_pcerr(p, PCEP_E_KEEPWAIT_EXPIRED, 0);
		pcc_close(p, PCEP_CLOSE_NONE, "KeepWait expired");
		return;
	}
	if (p->state != PCCS_UP)
		return;
	/* Section 7.3: the dead timer is the one the PCE announced. */
	if (p->dead_peer != 0 && now - p->last_rx_ns >=
	    (uint64_t)p->dead_peer * NS) {
		(*p->sim->c.dead_timer_expired)++;
		pcc_close(p, PCEP_CLOSE_DEADTIMER, "dead timer expired");
		return;
	}
	/* Section 6.3: a KEEPALIVE when nothing else went for a while. */
	if (p->ka_ours != 0 && now - p->last_tx_ns >=
	    (uint64_t)p->ka_ours * NS)
		pcc_send_keepalive(p);
}
