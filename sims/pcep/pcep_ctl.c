/*
 * The embedded controller's stateful PCE (pcep_ctl.h).
 *
 * Sessions: one per PCC address (a second attempt is PCErr 9, RFC 5440
 * 7.15), the OPEN negotiation of section 6.2 with one PCErr 1/4 round,
 * KEEPALIVEs and the dead timer the PCC announced (7.3).  The LSP
 * database of a session is a vector of LSPs with two hashes (uthash), by
 * PLSP-ID and by symbolic name, filled from PCRpts (RFC 8231 6.1) and
 * emptied by R-flagged ones; PCErr and CLOSE answer what cannot be taken.
 * Output is built only below a high-water mark; --pcep-update-all keeps a
 * window of PCUpds in flight per PCC once it is synchronized.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>

#include "ctl_listen.h"
#include "engine.h"
#include "log.h"
#include "pcep_assoc.h"
#include "pcep_ctl.h"
#include "pcep_sess.h"
#include "pool.h"
#include "tcp_md5.h"

#define PCE_OUT_HIGH	(512 * 1024)
#define PCE_OUT_LOW	(128 * 1024)
#define PCE_SCRATCH	(PCEP_MAX_MSG + 1)
#define PCE_OPENWAIT_S	60
#define PCE_CLOSE_WAIT_S 2
#define NS		1000000000ull

/* Lines a session has said, or must not say (a second session's are
 * said once per PCC, by the session it collides with). */
#define PCE_LOGGED_PCERR	0x01
#define PCE_LOGGED_SECOND	0x02	/* a second session was told of */
#define PCE_LOGGED_QUIET_CLOSE	0x04

enum pce_state {
	PCES_OPENWAIT,
	PCES_UP,
	PCES_CLOSING,
};

struct pcep_ctl_sess {
	struct ctl_sess			 cs;		/* first: ctl_sess_event() */
	TAILQ_ENTRY(pcep_ctl_sess)	 entry;
	struct pcep_ctl		*pc;		/* its PCE */
	struct bufferevent	*bev;
	struct pcep_sess	 ses;		/* the rules shared with PCCs */
	uint32_t		 addr;		/* host order */
	char			 name[24];
	uint8_t			 state;
	uint8_t			 open_tries;
	uint8_t			 local_ok, remote_ok;
	uint8_t			 synced;
	uint8_t			 dbv;		/* both offered S */
	uint8_t			 ka_peer, dead_peer;
	uint8_t			 logged;	/* PCE_LOGGED_* */
	uint32_t		 stateful;	/* the PCC's flags */
	uint8_t			 has_stateful;
	uint32_t		 srp_next;
	uint64_t		 state_ns;
	uint64_t		 last_rx_ns;
	uint64_t		 last_tx_ns;
	uint64_t		 closing_ns;
	/* the LSP database */
	struct pcep_ctl_lsp	**lsps;
	uint32_t		 n_lsps, cap_lsps;
	struct pcep_ctl_lsp	*by_id, *by_name;	/* uthash heads */
	/* update-all */
	uint32_t		 upd_cursor;
	uint32_t		 upd_inflight;
	struct pcep_ctl_ops	 ops;
	struct pcep_ctl_sess_stats	 ss;
};
TAILQ_HEAD(pce_sessions, pcep_ctl_sess);

/*
 * One PCE: everything it holds, so that nothing of it lives in
 * file-level variables.  Its sessions point back at it (s->pc) and its
 * timer and listener get it as their argument.  The context-free API of
 * pcep_ctl.h serves pce_main, the process's one instance.
 */
struct pcep_ctl {
	struct pcep_ctl_config	 cfg;
	struct pcep_ctl_stats	 st;
	struct ctl_listen	 lis;		/* the listener and pce_tick */
	struct pce_sessions	 sessions;
	struct wbuf		 scratch;	/* one message being encoded */
	uint8_t			 scratch_mem[PCE_SCRATCH];
	struct tcp_md5_guard	 md5;	/* --pcep-md5-password's listener */
	uint32_t		 bsid_next;	/* --pcep-bsid-alloc's count */
};

/* --pcep-bsid-alloc's labels: above what PCCs allocate themselves. */
#define PCE_BSID_LABEL0		500000
#define PCE_BSID_LABELS		500000

static struct pcep_ctl	pce_main = {
	.sessions = TAILQ_HEAD_INITIALIZER(pce_main.sessions),
};

static void	pce_pump_updates(struct pcep_ctl_sess *);
static void	pce_sess_free(struct pcep_ctl_sess *);
static const struct ctl_sess_ops pce_role_ops;

static struct wbuf *
pce_scratch(struct pcep_ctl *pc)
{
	wbuf_init(&pc->scratch, pc->scratch_mem, sizeof(pc->scratch_mem));
	return &pc->scratch;
}

/* What ODL counts of a message sent: not Keepalives, not before the
 * session is up (the Open exchange). */
static void
pce_count_sent(struct pcep_ctl_sess *s, uint8_t type)
{
	if (s->state != PCES_UP || type == PCEP_MSG_KEEPALIVE)
		return;
	s->ss.tx_msgs++;
	s->ss.last_tx_s = (uint64_t)time(NULL);
	if (type == PCEP_MSG_PCUPD)
		s->ss.tx_updates++;
	else if (type == PCEP_MSG_PCINITIATE)
		s->ss.tx_initiates++;
	else if (type == PCEP_MSG_PCERR)
		s->ss.tx_errors++;
}

static void
pce_send(struct pcep_ctl_sess *s, struct wbuf *w)
{
	if (w->err) {
		log_warnx("pcep %s: message did not fit; dropped", s->name);
		return;
	}
	if (s->bev != NULL && w->len > 0) {
		bufferevent_write(s->bev, w->data, w->len);
		s->last_tx_ns = clock_ns();
		pce_count_sent(s, w->data[1]);
	}
}

/* ---- the LSP database ---- */

static struct pcep_ctl_lsp *
pce_lsp_by_id(const struct pcep_ctl_sess *s, uint32_t id)
{
	struct pcep_ctl_lsp	*l;

	HASH_FIND(hh_id, s->by_id, &id, sizeof(id), l);
	return l;
}

struct pcep_ctl_lsp *
pcep_ctl_lsp_by_name(const struct pcep_ctl_sess *s, const char *name)
{
	struct pcep_ctl_lsp	*l;

	HASH_FIND(hh_name, s->by_name, name, strlen(name), l);
	return l;
}

static struct pcep_ctl_lsp *
pce_lsp_new(struct pcep_ctl_sess *s, uint32_t id, const char *name)
{
	struct pcep_ctl_lsp	*l = xcalloc(1, sizeof(*l));

	l->plsp_id = id;
	l->name = xstrdup(name);
	if (s->n_lsps == s->cap_lsps) {
		s->cap_lsps = s->cap_lsps ? s->cap_lsps * 2 : 16;
		s->lsps = xreallocarray(s->lsps, s->cap_lsps,
		    sizeof(*s->lsps));
	}
	l->idx = s->n_lsps;
	s->lsps[s->n_lsps++] = l;
	/* The caller made both keys free (pce_report_one). */
	HASH_ADD(hh_id, s->by_id, plsp_id, sizeof(l->plsp_id), l);
	HASH_ADD_KEYPTR(hh_name, s->by_name, l->name, strlen(l->name), l);
	return l;
}

/*
 * update-all has seen lsps[0, upd_cursor).  A deletion at i below the
 * cursor moved the last LSP into i: unless it had been seen too, it
 * trades places with the last seen one, so that it is still ahead.
 */
static void
pce_cursor_back(struct pcep_ctl_sess *s, uint32_t i)
{
	struct pcep_ctl_lsp	*t;
	uint32_t	 c = --s->upd_cursor;

	if (c >= s->n_lsps || c == i)
		return;
	t = s->lsps[c];
	s->lsps[c] = s->lsps[i];
	s->lsps[i] = t;
	s->lsps[c]->idx = c;
	t->idx = i;
}

/* An LSP record and all it holds. */
static void
pce_lsp_free(struct pcep_ctl_lsp *l)
{
	free(l->hops);
	free(l->name);
	pce_assoc_free(l->assoc, l->n_assoc);
	free(l->bsid);
	free(l);
}

static void
pce_lsp_del(struct pcep_ctl_sess *s, struct pcep_ctl_lsp *l)
{
	struct pcep_ctl	*pc = s->pc;

	HASH_DELETE(hh_id, s->by_id, l);
	HASH_DELETE(hh_name, s->by_name, l);
	if (l->upd_srp != 0 && s->upd_inflight > 0)
		s->upd_inflight--;
	s->lsps[l->idx] = s->lsps[--s->n_lsps];
	s->lsps[l->idx]->idx = l->idx;
	if (l->idx < s->upd_cursor)
		pce_cursor_back(s, l->idx);
	pce_lsp_free(l);
	pc->st.lsps_removed++;
}

static void
pce_path_store(struct pcep_ctl_lsp *l, const struct pcep_ero *ero)
{
	pcep_hops_store(&l->hops, &l->nhops, ero);
}

/* ---- replies and closing ---- */

static void
pce_pcerr(void *sess, enum pcep_error e, uint32_t srp_id)
{
	struct pcep_ctl_sess	*s = sess;
	struct pcep_ctl	*pc = s->pc;
	struct pcep_err	 err;
	struct wbuf	*w = pce_scratch(pc);

	pcep_err_set(&err, e);
	pcep_ctlrr_simple(w, &err, srp_id);
	pce_send(s, w);
	pc->st.pcerr_sent++;
	s->ss.last_tx_error[0] = err.type;
	s->ss.last_tx_error[1] = err.value;
	if (!(s->logged & PCE_LOGGED_PCERR))
		log_warnx("pcep %s: sending PCErr %u/%u (%s); further ones "
		    "counted", s->name, err.type, err.value,
		    pcep_error_name(err.type, err.value));
	s->logged |= PCE_LOGGED_PCERR;
}

/* Fail the northbound operations still waiting on this session. */
static void
pce_ops_fail(struct pcep_ctl_sess *s)
{
	struct pcep_ctl_op	*op;

	while ((op = TAILQ_FIRST(&s->ops)) != NULL) {
		TAILQ_REMOVE(&s->ops, op, entry);
		if (op->cb != NULL)
			op->cb(op->arg, -1, NULL);
		free(op);
	}
}

/* The session's end, also ctl_sess_event()'s (pce_sess_ops). */
static void
pce_drop(void *sess, const char *why)
{
	struct pcep_ctl_sess	*s = sess;
	struct pcep_ctl	*pc = s->pc;

	log_info("pcep %s: session down: %s", s->name, why);
	if (s->state == PCES_UP && pc->st.up > 0)
		pc->st.up--;
	pce_ops_fail(s);
	TAILQ_REMOVE(&pc->sessions, s, entry);
	pce_sess_free(s);
}

static void
pce_close(void *sess, uint8_t reason, const char *why)
{
	struct pcep_ctl_sess	*s = sess;
	struct pcep_ctl	*pc = s->pc;
	struct wbuf	*w = pce_scratch(pc);

	if (s->state == PCES_CLOSING)
		return;
	pcep_close_encode(w, reason);
	pce_send(s, w);
	if (!(s->logged & PCE_LOGGED_QUIET_CLOSE))
		log_warnx("pcep %s: sending CLOSE (reason %u): %s", s->name,
		    reason, why);
	if (s->state == PCES_UP && pc->st.up > 0)
		pc->st.up--;
	s->state = PCES_CLOSING;
	s->closing_ns = clock_ns();
	pce_ops_fail(s);
	bufferevent_setwatermark(s->bev, EV_WRITE, 0, 0);
}

static void
pce_bad(struct pcep_ctl_sess *s, const struct pcep_err *err, uint32_t srp_id)
{
	pcep_sess_bad(&s->ses, err, srp_id);
}

/* ---- opening (RFC 5440 6.2) ---- */

static void
pce_send_open(struct pcep_ctl_sess *s)
{
	struct pcep_ctl	*pc = s->pc;
	struct pcep_open	 o;
	struct wbuf		*w = pce_scratch(pc);

	memset(&o, 0, sizeof(o));
	o.keepalive = s->ss.local_keepalive = pc->cfg.keepalive;
	o.deadtimer = s->ss.local_deadtimer = pc->cfg.deadtimer;
	o.sid = s->ss.local_sid = (uint8_t)s->addr;
	o.has_stateful = 1;
	o.stateful_flags = PCEP_STATEFUL_U | PCEP_STATEFUL_I |
	    PCEP_STATEFUL_S;
	o.n_pst = 3;
	o.pst[0] = PCEP_PST_RSVP_TE;
	o.pst[1] = PCEP_PST_SR;
	o.pst[2] = PCEP_PST_SRV6;
	o.has_sr = 1;
	o.has_srv6 = 1;
	o.sr_flags = PCEP_SR_CAP_N;
	o.msd = PCEP_ERO_MAX;
	/* RFC 8697 6.1: the association types it takes. */
	o.n_assoc_types = 3;
	o.assoc_types[0] = PCEP_ASSOC_T_PROTECTION;
	o.assoc_types[1] = PCEP_ASSOC_T_DISJOINT;
	o.assoc_types[2] = PCEP_ASSOC_T_SR_POLICY;
	pcep_open_encode(w, &o);
	pce_send(s, w);
}

static void
pce_send_keepalive(struct pcep_ctl_sess *s)
{
	struct pcep_ctl	*pc = s->pc;
	struct wbuf	*w = pce_scratch(pc);

	pcep_keepalive_encode(w);
	pce_send(s, w);
}

static void
pce_session_up(struct pcep_ctl_sess *s)
{
	struct pcep_ctl	*pc = s->pc;

	s->state = PCES_UP;
	s->ss.up_ns = clock_ns();
	pc->st.sessions++;
	pc->st.up++;
	log_info("pcep %s: session up (keepalive %u, dead timer %u%s)",
	    s->name, s->ka_peer, s->dead_peer, s->has_stateful ?
	    ", stateful" : "");
}

/* The PCC's dead timer must outlast our keepalive (RFC 5440 7.3). */
static int
pce_open_ok(const struct pcep_ctl *pc, const struct pcep_open *o,
    struct pcep_open *prop)
{
	unsigned	dead = 4u * pc->cfg.keepalive;

	*prop = *o;
	if (pc->cfg.keepalive == 0 || o->deadtimer == 0 ||
	    o->deadtimer > pc->cfg.keepalive)
		return 1;
	prop->deadtimer = (uint8_t)(dead > 255 ? 255 : dead);
	if (prop->keepalive == 0 || prop->keepalive >= prop->deadtimer)
		prop->keepalive = (uint8_t)(prop->deadtimer / 4);
	return 0;
}

static void
pce_open_pcerr(void *sess, enum pcep_error e,
    const struct pcep_open *prop)
{
	struct pcep_ctl_sess	*s = sess;
	struct pcep_ctl	*pc = s->pc;
	struct wbuf	*w = pce_scratch(pc);

	pcep_ctlrr_open(w, e, prop);
	pce_send(s, w);
	pc->st.pcerr_sent++;
}

static void
pce_fsm_open(struct pcep_ctl_sess *s, struct rbuf *body)
{
	struct pcep_ctl	*pc = s->pc;
	struct pcep_open	o, prop;
	struct pcep_err		err;

	if (pcep_open_decode(body, &o, &err) == -1) {
		pcep_sess_open_malformed(&s->ses, &err);
		return;
	}
	if (!pce_open_ok(pc, &o, &prop)) {
		pcep_sess_open_refused(&s->ses, ++s->open_tries, &prop,
		    &s->state_ns);
		return;
	}
	s->ka_peer = o.keepalive;
	s->dead_peer = o.deadtimer;
	s->ss.peer_sid = o.sid;
	s->has_stateful = o.has_stateful;
	s->stateful = o.has_stateful ? o.stateful_flags : 0;
	s->dbv = (s->stateful & PCEP_STATEFUL_S) != 0;
	s->remote_ok = 1;
	pce_send_keepalive(s);
	if (s->local_ok)
		pce_session_up(s);
}

/* The PCC's answer to our PCUpd, in milliseconds (ODL's reply-time). */
static void
pce_reply_time(struct pcep_ctl_sess *s, uint64_t ms)
{
	if (s->ss.reply_n == 0 || ms < s->ss.reply_min_ms)
		s->ss.reply_min_ms = ms;
	if (ms > s->ss.reply_max_ms)
		s->ss.reply_max_ms = ms;
	s->ss.reply_sum_ms += ms;
	s->ss.reply_n++;
}

/* ---- operations waiting for the PCC ---- */

static uint32_t
pce_srp_id(struct pcep_ctl_sess *s)
{
	/* RFC 8231 7.2: 0 and 0xFFFFFFFF are reserved. */
	if (++s->srp_next == 0 || s->srp_next == UINT32_MAX)
		s->srp_next = 1;
	return s->srp_next;
}

static struct pcep_ctl_op *
pce_op_take(struct pcep_ctl_sess *s, uint32_t srp_id)
{
	struct pcep_ctl_op	*op;

	TAILQ_FOREACH(op, &s->ops, entry)
		if (op->srp_id == srp_id) {
			TAILQ_REMOVE(&s->ops, op, entry);
			return op;
		}
	return NULL;
}

static void
pce_op_add(struct pcep_ctl_sess *s, uint32_t srp_id, pcep_ctl_op_cb cb,
    void *arg)
{
	struct pcep_ctl	*pc = s->pc;
	struct pcep_ctl_op	*op = xcalloc(1, sizeof(*op));

	op->srp_id = srp_id;
	op->cb = cb;
	op->arg = arg;
	op->deadline_ns = clock_ns() + (uint64_t)(pc->cfg.op_timeout * 1e9);
	TAILQ_INSERT_TAIL(&s->ops, op, entry);
}

/* An SRP-ID came back in a PCRpt or PCErr: whose was it? */
static void
pce_srp_answered(struct pcep_ctl_sess *s, uint32_t srp_id,
    struct pcep_ctl_lsp *l, const struct pcep_errmsg *em)
{
	struct pcep_ctl	*pc = s->pc;
	struct pcep_ctl_op	*op;
	uint64_t	 now = clock_ns();

	if (srp_id == 0)
		return;
	if ((op = pce_op_take(s, srp_id)) != NULL) {
		if (op->cb != NULL)
			op->cb(op->arg, em != NULL, em);
		free(op);
		return;
	}
	if (l == NULL || l->upd_srp != srp_id)
		return;
	l->upd_srp = 0;
	if (s->upd_inflight > 0)
		s->upd_inflight--;
	if (em != NULL)
		pc->st.update_errors++;
	else {
		pc->st.updates_acked++;
		pc->st.last_ack_ns = now;
		hist_add(&pc->st.update_latency, (now - l->upd_ns) / 1000);
		pce_reply_time(s, (now - l->upd_ns) / 1000000);
	}
}

/* ---- PCRpt (RFC 8231 6.1) ---- */

/* A report's ASSOCIATION objects in the PCE's figures. */
static void
pce_assoc_count(struct pcep_ctl *pc, const struct pcep_lsp_req *r)
{
	uint8_t	i;

	pc->st.assoc_skipped += r->assoc_skipped;
	for (i = 0; i < r->n_assoc; i++)
		switch (r->assoc[i].type) {
		case PCEP_ASSOC_T_PROTECTION:
			pc->st.assoc_protection++;
			break;
		case PCEP_ASSOC_T_DISJOINT:
			pc->st.assoc_disjoint++;
			break;
		case PCEP_ASSOC_T_SR_POLICY:
		case PCEP_ASSOC_T_SR_POL_OLD:
			pc->st.assoc_sr_policy++;
			break;
		}
}

/* RFC 9604 4: a report's binding SID is the LSP's; R (or none) takes
 * it away. */
static void
pce_bsid_keep(struct pcep_ctl *pc, struct pcep_ctl_lsp *l,
    const struct pcep_lsp *lsp)
{
	pc->st.bsid_skipped += lsp->bsid_skipped;
	if (!lsp->has_bsid || (lsp->bsid.flags & PCEP_BSID_FLAG_R)) {
		free(l->bsid);
		l->bsid = NULL;
		return;
	}
	if (lsp->bsid.bt <= PCEP_BT_MPLS_LSE)
		pc->st.bsid_mpls++;
	else
		pc->st.bsid_srv6++;
	if (l->alloc_label != 0 && lsp->bsid.bt == PCEP_BT_MPLS_LABEL &&
	    lsp->bsid.value >> PCEP_SR_LABEL_SHIFT == l->alloc_label &&
	    (l->bsid == NULL || l->bsid->value != lsp->bsid.value))
		pc->st.bsids_confirmed++;
	if (l->bsid == NULL)
		l->bsid = xmalloc(sizeof(*l->bsid));
	*l->bsid = lsp->bsid;
}

/* RFC 8697 6.4: an association type the PCE does not take is PCErr
 * 26/1; the LSP itself is still learned. */
static int
pce_assoc_unknown(const struct pcep_lsp_req *r)
{
	uint8_t	i;

	for (i = 0; i < r->n_assoc; i++)
		if (!pcep_assoc_type_known(r->assoc[i].type))
			return 1;
	return 0;
}

static void
pce_learn(struct pcep_ctl_sess *s, struct pcep_ctl_lsp *l,
    const struct pcep_lsp_req *r)
{
	const struct pcep_lsp	*lsp = &r->lsp;

	l->flags = lsp->flags;
	l->oper = lsp->oper;
	l->lsp_obj_flags = lsp->obj_flags;
	if (r->has_ero)
		l->ero_obj_flags = r->ero.obj_flags;
	if (r->has_srp && r->srp.has_pst)
		l->pst = r->srp.pst;
	if (lsp->ids.af == 4) {
		l->has_ids = 1;
		l->sender = lsp->ids.sender4;
		l->endpoint = lsp->ids.endpoint4;
		l->ext_id = lsp->ids.ext_id4;
		l->tunnel_id = lsp->ids.tunnel_id;
		l->lsp_id = lsp->ids.lsp_id;
	}
	if (lsp->has_db_version) {
		l->has_dbv = 1;
		l->dbv = lsp->db_version;
	}
	l->bandwidth = r->attrs.bw_type ? r->attrs.bandwidth : 0;
	pce_path_store(l, &r->ero);
	pce_assoc_count(s->pc, r);
	l->assoc = pce_assoc_keep(l->assoc, &l->n_assoc, r);
	pce_bsid_keep(s->pc, l, lsp);
}

/* What a report must carry (RFC 8231 7.3.1, 7.3.2; RFC 8232 4.2). */
static enum pcep_error
pce_report_check(const struct pcep_ctl_sess *s, const struct pcep_lsp_req *r,
    const struct pcep_ctl_lsp *known)
{
	int	sr = r->has_srp && r->srp.has_pst &&
	    r->srp.pst != PCEP_PST_RSVP_TE;

	if (r->ero.n > 0 && r->ero.hop[0].kind != PCEP_SUBOBJ_IPV4)
		sr = 1;			/* SR-ERO or SRv6-ERO */
	if (known == NULL && (r->lsp.name_len == 0 || r->lsp.name[0] == '\0'))
		return PCEP_E_SYMBOLIC_NAME_MISSING;
	if (!sr && r->lsp.ids.af == 0 && !(r->lsp.flags & PCEP_LSP_FLAG_R))
		return PCEP_E_MISSING_LSP_IDS;
	if (s->dbv && !r->lsp.has_db_version)
		return PCEP_E_MISSING_DB_VERSION;
	return PCEP_E_NONE;
}

static void
pce_end_of_sync(struct pcep_ctl_sess *s)
{
	struct pcep_ctl	*pc = s->pc;

	if (s->synced)
		return;
	s->synced = 1;
	pc->st.pccs_synced++;
	pc->st.last_sync_ns = clock_ns();
	log_debug("pcep %s: synchronized, %u LSPs", s->name, s->n_lsps);
	pce_pump_updates(s);
}

static void
pce_report_one(void *sess, const struct pcep_lsp_req *r)
{
	struct pcep_ctl_sess	*s = sess;
	struct pcep_ctl	*pc = s->pc;
	struct pcep_ctl_lsp	*l = pce_lsp_by_id(s, r->lsp.plsp_id);
	struct pcep_ctl_lsp	*other;
	enum pcep_error	 e;
	uint32_t	 srp = r->has_srp ? r->srp.srp_id : 0;

	if (pcep_req_is_eos(r)) {
		pce_end_of_sync(s);
		return;
	}
	if ((e = pce_report_check(s, r, l)) != PCEP_E_NONE) {
		pc->st.bad_messages++;
		pce_pcerr(s, e, srp);
		return;
	}
	if (r->lsp.flags & PCEP_LSP_FLAG_R) {
		/* RFC 8231 7.3: the LSP is gone. */
		if (l != NULL)
			pce_lsp_del(s, l);
		pce_srp_answered(s, srp, NULL, NULL);
		return;
	}
	if (l == NULL) {
		if ((other = pcep_ctl_lsp_by_name(s, r->lsp.name)) != NULL)
			pce_lsp_del(s, other);	/* a new PLSP-ID for it */
		l = pce_lsp_new(s, r->lsp.plsp_id, r->lsp.name);
		l->no_auto = s->synced;
		if (pc->st.first_report_ns == 0)
			pc->st.first_report_ns = clock_ns();
		pc->st.lsps_learned++;
		pc->st.last_learn_ns = clock_ns();
	}
	/* Delegated to us only now (a PCC's redelegation, RFC 8231 5.7.5):
	 * update-all passed it by while it was not ours. */
	if ((r->lsp.flags & PCEP_LSP_FLAG_D) && !(l->flags & PCEP_LSP_FLAG_D) &&
	    l->idx < s->upd_cursor && l->upd_srp == 0)
		pce_cursor_back(s, l->idx);
	pce_learn(s, l, r);
	if (pce_assoc_unknown(r)) {
		pc->st.assoc_unsupported++;
		pce_pcerr(s, PCEP_E_ASSOC_TYPE_UNSUPPORTED, srp);
	}
	pce_srp_answered(s, srp, l, NULL);
}

static int
pce_is_up(const void *sess)
{
	return ((const struct pcep_ctl_sess *)sess)->state == PCES_UP;
}

static void
pce_fsm_report(struct pcep_ctl_sess *s, struct rbuf *body)
{
	struct pcep_ctl	*pc = s->pc;
	struct pcep_err	 err;
	uint32_t	 srp_id;

	pc->st.reports_received++;
	if (!s->has_stateful) {
		/* RFC 8231 5.4: not without the capability. */
		pce_pcerr(s, PCEP_E_REPORT_NOT_STATEFUL, 0);
		return;
	}
	if (pcep_req_each(PCEP_MSG_PCRPT, body, pce_report_one, pce_is_up, s,
	    &err, &srp_id) == -1)
		pce_bad(s, &err, srp_id);
	if (s->state == PCES_UP)
		pce_pump_updates(s);
}

static void
pce_fsm_pcerr(struct pcep_ctl_sess *s, struct rbuf *body)
{
	struct pcep_ctl	*pc = s->pc;
	struct pcep_errmsg	em;
	char			text[80];

	pc->st.pcerr_received++;
	if (pcep_sess_pcerr_decode(&s->ses, body, &em) == -1)
		return;
	if (s->state == PCES_UP) {
		s->ss.rx_errors++;
		s->ss.last_rx_error[0] = em.item[0].type;
		s->ss.last_rx_error[1] = em.item[0].value;
	}
	if (!(s->logged & 2))
		log_warnx("pcep %s: the PCC sent PCErr %s", s->name,
		    pcep_sess_pcerr_text(&em, text, sizeof(text)));
	s->logged |= 2;
	if (s->state != PCES_UP) {
		if (em.n > 0 && em.item[0].type == 1)
			pce_close(s, PCEP_CLOSE_NONE, "the PCC refused our "
			    "Open");
		return;
	}
	if (em.has_srp) {
		uint32_t	 i;
		struct pcep_ctl_lsp	*l = NULL;

		for (i = 0; i < s->n_lsps && l == NULL; i++)
			if (s->lsps[i]->upd_srp == em.srp_id)
				l = s->lsps[i];
		pce_srp_answered(s, em.srp_id, l, &em);
		pce_pump_updates(s);
	}
}

/* RFC 5440 6.9 and 7.15 type 2: what a PCE does not serve. */
static void
pce_unexpected(struct pcep_ctl_sess *s, uint8_t type)
{
	struct pcep_ctl	*pc = s->pc;

	if (!(s->logged & 4))
		log_warnx("pcep %s: unexpected %s (type %u)", s->name,
		    pcep_msg_name(type), type);
	s->logged |= 4;
	pc->st.bad_messages++;
	pcep_sess_unknown(&s->ses);
}

static void
pce_fsm(struct pcep_ctl_sess *s, uint8_t type, struct rbuf *body)
{
	struct pcep_ctl	*pc = s->pc;

	if (type == PCEP_MSG_CLOSE) {
		pce_drop(s, "CLOSE received");
		return;
	}
	if (type == PCEP_MSG_PCERR) {
		pce_fsm_pcerr(s, body);
		return;
	}
	if (s->state == PCES_OPENWAIT) {
		if (type == PCEP_MSG_OPEN && !s->remote_ok)
			pce_fsm_open(s, body);
		else if (type == PCEP_MSG_KEEPALIVE) {
			s->local_ok = 1;
			if (s->remote_ok)
				pce_session_up(s);
		} else {
			pc->st.bad_messages++;
			pce_pcerr(s, PCEP_E_OPEN_INVALID, 0);
			pce_close(s, PCEP_CLOSE_NONE, "not an Open");
		}
		return;
	}
	switch (type) {
	case PCEP_MSG_KEEPALIVE:
	case PCEP_MSG_PCNTF:
		return;
	case PCEP_MSG_PCRPT:
		pce_fsm_report(s, body);
		return;
	}
	pce_unexpected(s, type);
}

/* What ODL counts of a message received, as of what is sent. */
static void
pce_count_received(struct pcep_ctl_sess *s, uint8_t type)
{
	if (s->state != PCES_UP || type == PCEP_MSG_KEEPALIVE)
		return;
	s->ss.rx_msgs++;
	if (type == PCEP_MSG_PCRPT) {
		s->ss.rx_reports++;
		s->ss.last_report_s = (uint64_t)time(NULL);
	} else if (type != PCEP_MSG_PCERR && type != PCEP_MSG_CLOSE &&
	    type != PCEP_MSG_PCNTF)
		s->ss.unknown_msgs++;
}

/* One whole message; -1: a CLOSE freed the session. */
static int
pce_sess_message(void *sess, uint8_t type, struct rbuf *body)
{
	pce_count_received(sess, type);
	pce_fsm(sess, type, body);
	return type == PCEP_MSG_CLOSE ? -1 : 0;
}

static const struct pcep_sess_ops pce_sess_ops = { pce_pcerr,
	pce_open_pcerr, pce_close, pce_sess_message, PCE_OUT_HIGH,
	PCES_CLOSING };

/* A session's dead timer runs from what it last received (RFC 5440
 * 7.3).  s may be gone after pcep_sess_read(). */
static void
pce_read(struct bufferevent *bev, void *arg)
{
	struct pcep_ctl_sess	*s = arg;

	s->last_rx_ns = clock_ns();
	(void)pcep_sess_read(&s->ses, bev, 0);
}

static void
pce_write(struct bufferevent *bev, void *arg)
{
	struct pcep_ctl_sess	*s = arg;
	struct pcep_ctl	*pc = s->pc;

	if (s->state == PCES_CLOSING) {
		if (evbuffer_get_length(bufferevent_get_output(bev)) == 0) {
			TAILQ_REMOVE(&pc->sessions, s, entry);
			pce_sess_free(s);
		}
		return;
	}
	if (!(bufferevent_get_enabled(bev) & EV_READ)) {
		s->last_rx_ns = clock_ns();
		(void)pcep_sess_read(&s->ses, bev, 1);
		return;		/* s may be gone */
	}
	pce_pump_updates(s);
}

static void
pce_sess_free(struct pcep_ctl_sess *s)
{
	uint32_t	i;

	if (s->bev != NULL)
		bufferevent_free(s->bev);
	HASH_CLEAR(hh_id, s->by_id);
	HASH_CLEAR(hh_name, s->by_name);
	for (i = 0; i < s->n_lsps; i++)
		pce_lsp_free(s->lsps[i]);
	free(s->lsps);
	free(s);
}

/* ---- update-all: a window of PCUpds per synchronized PCC ---- */

/* The next path of an LSP: its first hop moved to another address (or
 * SID), the rest kept, so every update is a change. */
static void
pce_next_path(const struct pcep_ctl_lsp *l, struct pcep_ctl_path *p)
{
	uint8_t	i;

	p->n = l->nhops < PCEP_CTL_HOPS_MAX ? l->nhops : PCEP_CTL_HOPS_MAX;
	for (i = 0; i < p->n; i++)
		p->hop[i] = l->hops[i];
	if (p->n == 0) {
		p->n = 1;
		memset(&p->hop[0], 0, sizeof(p->hop[0]));
		p->hop[0].kind = PCEP_SUBOBJ_IPV4;
		p->hop[0].addr = l->endpoint;
		p->hop[0].plen = 32;
	} else if (p->n > 1 && p->hop[0].kind == PCEP_SUBOBJ_SR)
		p->hop[0].sid ^= 1u << PCEP_SR_LABEL_SHIFT;
	else if (p->n > 1 && p->hop[0].kind == PCEP_SUBOBJ_SRV6)
		p->hop[0].sid6[11] ^= 0x80;	/* another locator's node */
	else if (p->n > 1)
		p->hop[0].addr ^= 0x00008000u;
}

/*
 * --pcep-bsid-alloc (RFC 9604 5): an LSP's first PCUpd carries the
 * binding label the PCE allocated for it, from PCE_BSID_LABEL0 on; the
 * PCC's report with that label confirms it (pce_bsid_keep).
 */
static void
pce_bsid_alloc(struct pcep_ctl *pc, struct pcep_ctl_lsp *l,
    struct pcep_lsp *lsp)
{
	if (!pc->cfg.bsid_alloc || l->alloc_label != 0)
		return;
	l->alloc_label = PCE_BSID_LABEL0 + pc->bsid_next++ % PCE_BSID_LABELS;
	lsp->has_bsid = 1;
	lsp->bsid.bt = PCEP_BT_MPLS_LABEL;
	lsp->bsid.value = l->alloc_label << PCEP_SR_LABEL_SHIFT;
	pc->st.bsids_allocated++;
}

static int
pce_send_update(struct pcep_ctl_sess *s, struct pcep_ctl_lsp *l,
    const struct pcep_ctl_path *path, int delegate, int admin, uint32_t srp)
{
	struct pcep_ctl	*pc = s->pc;
	struct pcep_lsp_req	 req;
	struct wbuf		*w = pce_scratch(pc);

	memset(&req, 0, sizeof(req));
	req.has_srp = 1;
	req.srp.srp_id = srp;
	if (l->pst != PCEP_PST_RSVP_TE) {	/* SR or SRv6 */
		req.srp.has_pst = 1;
		req.srp.pst = l->pst;
	}
	req.lsp.plsp_id = l->plsp_id;
	req.lsp.flags = (delegate ? PCEP_LSP_FLAG_D : 0) |
	    (admin ? PCEP_LSP_FLAG_A : 0);
	snprintf(req.lsp.name, sizeof(req.lsp.name), "%s", l->name);
	req.lsp.name_len = (uint16_t)strlen(req.lsp.name);
	req.has_ero = 1;
	pcep_ero_from_recs(path->hop, path->n, &req.ero);
	pce_bsid_alloc(pc, l, &req.lsp);
	if (pcep_reqs_encode(w, PCEP_MSG_PCUPD, &req, 1) == -1)
		return -1;
	pce_send(s, w);
	pc->st.updates_sent++;
	if (pc->st.first_update_ns == 0)
		pc->st.first_update_ns = clock_ns();
	return 0;
}

static void
pce_pump_updates(struct pcep_ctl_sess *s)
{
	struct pcep_ctl	*pc = s->pc;
	struct pcep_ctl_lsp	*l;
	struct pcep_ctl_path	 path;

	if (pc->cfg.update_all == 0 || !s->synced || s->state != PCES_UP ||
	    !(s->stateful & PCEP_STATEFUL_U))
		return;
	while (s->upd_inflight < pc->cfg.update_all &&
	    s->upd_cursor < s->n_lsps && !pcep_sess_out_full(&s->ses)) {
		l = s->lsps[s->upd_cursor++];
		if (!(l->flags & PCEP_LSP_FLAG_D) || l->upd_srp != 0 ||
		    l->no_auto)
			continue;
		pce_next_path(l, &path);
		l->upd_srp = pce_srp_id(s);
		l->upd_ns = clock_ns();
		if (pce_send_update(s, l, &path, 1,
		    (l->flags & PCEP_LSP_FLAG_A) != 0, l->upd_srp) == -1) {
			l->upd_srp = 0;
			continue;
		}
		s->upd_inflight++;
	}
}

/* ---- northbound operations ---- */

static int
pce_op_check(struct pcep_ctl_sess *s, char *err, size_t errlen)
{
	if (s->state != PCES_UP) {
		snprintf(err, errlen, "the session with %s is not up",
		    s->name);
		return -1;
	}
	if (!(s->stateful & PCEP_STATEFUL_U)) {
		snprintf(err, errlen, "%s did not offer LSP updates",
		    s->name);
		return -1;
	}
	return 0;
}

int
pcep_ctl_update_lsp(struct pcep_ctl_sess *s, struct pcep_ctl_lsp *l,
    const struct pcep_ctl_path *path, int delegate, int admin,
    pcep_ctl_op_cb cb, void *arg, char *err, size_t errlen)
{
	struct pcep_ctl_path	 cur;
	uint32_t	 srp;

	if (pce_op_check(s, err, errlen) == -1)
		return -1;
	if (path == NULL) {
		/* No ERO given: the path stays as it is. */
		cur.n = l->nhops < PCEP_CTL_HOPS_MAX ? l->nhops :
		    PCEP_CTL_HOPS_MAX;
		memcpy(cur.hop, l->hops, cur.n * sizeof(cur.hop[0]));
		path = &cur;
	}
	srp = pce_srp_id(s);
	if (pce_send_update(s, l, path, delegate, admin, srp) == -1) {
		snprintf(err, errlen, "the PCUpd could not be built");
		return -1;
	}
	pce_op_add(s, srp, cb, arg);
	return 0;
}

/* A PCInitiate of one request, its answer awaited (RFC 8281 5.3, 5.4). */
static int
pce_send_initiate(struct pcep_ctl_sess *s, const struct pcep_lsp_req *req,
    pcep_ctl_op_cb cb, void *arg, char *err, size_t errlen)
{
	struct pcep_ctl	*pc = s->pc;
	struct wbuf	*w = pce_scratch(pc);

	if (pcep_reqs_encode(w, PCEP_MSG_PCINITIATE, req, 1) == -1) {
		snprintf(err, errlen, "the PCInitiate could not be built");
		return -1;
	}
	pce_send(s, w);
	pce_op_add(s, req->srp.srp_id, cb, arg);
	return 0;
}

int
pcep_ctl_add_lsp(struct pcep_ctl_sess *s, const char *name, uint32_t src,
    uint32_t dst, const struct pcep_ctl_path *path, int sr, pcep_ctl_op_cb cb,
    void *arg, char *err, size_t errlen)
{
	struct pcep_ctl	*pc = s->pc;
	struct pcep_lsp_req	 req;

	if (pce_op_check(s, err, errlen) == -1)
		return -1;
	if (!(s->stateful & PCEP_STATEFUL_I)) {
		snprintf(err, errlen, "%s did not offer LSP instantiation "
		    "(RFC 8281)", s->name);
		return -1;
	}
	memset(&req, 0, sizeof(req));
	req.has_srp = 1;
	req.srp.srp_id = pce_srp_id(s);
	req.srp.has_pst = sr;
	req.srp.pst = sr ? PCEP_PST_SR : PCEP_PST_RSVP_TE;
	req.lsp.flags = PCEP_LSP_FLAG_D | PCEP_LSP_FLAG_A;
	snprintf(req.lsp.name, sizeof(req.lsp.name), "%s", name);
	req.lsp.name_len = (uint16_t)strlen(req.lsp.name);
	req.has_endpoints = 1;
	req.ep_src = src ? src : s->addr;
	req.ep_dst = dst;
	req.has_ero = 1;
	pcep_ero_from_recs(path->hop, path->n, &req.ero);
	if (pce_send_initiate(s, &req, cb, arg, err, errlen) == -1)
		return -1;
	pc->st.initiates_sent++;
	return 0;
}

int
pcep_ctl_remove_lsp(struct pcep_ctl_sess *s, struct pcep_ctl_lsp *l,
    pcep_ctl_op_cb cb, void *arg, char *err, size_t errlen)
{
	struct pcep_ctl	*pc = s->pc;
	struct pcep_lsp_req	 req;

	if (pce_op_check(s, err, errlen) == -1)
		return -1;
	memset(&req, 0, sizeof(req));
	req.has_srp = 1;
	req.srp.srp_id = pce_srp_id(s);
	req.srp.flags = PCEP_SRP_FLAG_R;	/* RFC 8281 5.4 */
	req.lsp.plsp_id = l->plsp_id;
	req.lsp.flags = PCEP_LSP_FLAG_D;
	if (pce_send_initiate(s, &req, cb, arg, err, errlen) == -1)
		return -1;
	pc->st.removes_sent++;
	return 0;
}

/* ---- sessions for the northbound ---- */

struct pcep_ctl_sess *
pcep_ctl_sess_next(struct pcep_ctl_sess *s)
{
	struct pcep_ctl	*pc = &pce_main;

	s = s == NULL ? TAILQ_FIRST(&pc->sessions) : TAILQ_NEXT(s, entry);
	while (s != NULL && s->state != PCES_UP)
		s = TAILQ_NEXT(s, entry);
	return s;
}

struct pcep_ctl_sess *
pcep_ctl_sess_find(const char *node)
{
	struct pcep_ctl_sess	*s = NULL;
	struct in_addr	 a;

	if (strncmp(node, "pcc://", 6) == 0)
		node += 6;
	if (inet_pton(AF_INET, node, &a) != 1)
		return NULL;
	while ((s = pcep_ctl_sess_next(s)) != NULL)
		if (s->addr == ntohl(a.s_addr))
			return s;
	return NULL;
}

uint32_t
pcep_ctl_sess_addr(const struct pcep_ctl_sess *s)
{
	return s->addr;
}

int
pcep_ctl_sess_synced(const struct pcep_ctl_sess *s)
{
	return s->synced;
}

uint32_t
pcep_ctl_sess_stateful(const struct pcep_ctl_sess *s)
{
	return s->stateful;
}

const struct pcep_ctl_sess_stats *
pcep_ctl_sess_stats(const struct pcep_ctl_sess *s)
{
	return &s->ss;
}

void
pcep_ctl_sess_peer_timers(const struct pcep_ctl_sess *s, uint8_t *keepalive,
    uint8_t *deadtimer)
{
	*keepalive = s->ka_peer;
	*deadtimer = s->dead_peer;
}

uint32_t
pcep_ctl_sess_lsp_count(const struct pcep_ctl_sess *s)
{
	return s->n_lsps;
}

struct pcep_ctl_lsp *
pcep_ctl_sess_lsp(const struct pcep_ctl_sess *s, uint32_t i)
{
	return i < s->n_lsps ? s->lsps[i] : NULL;
}

/* ---- accepting, timers ---- */

static struct pcep_ctl_sess *
pce_addr_busy(struct pcep_ctl *pc, uint32_t addr)
{
	struct pcep_ctl_sess	*s;

	TAILQ_FOREACH(s, &pc->sessions, entry)
		if (s->addr == addr && s->state != PCES_CLOSING)
			return s;
	return NULL;
}

/*
 * RFC 5440 7.15: one session per PCC; another gets PCErr 9 and CLOSE.
 * A PCC (or anyone from its address) that connects again and again
 * would log two lines each time: the first is told, on the session it
 * collides with, the rest only counted.
 */
static void
pce_second_session(struct pcep_ctl_sess *s, struct pcep_ctl_sess *busy)
{
	struct pcep_ctl	*pc = s->pc;

	pc->st.second_sessions++;
	if (!(busy->logged & PCE_LOGGED_SECOND))
		log_warnx("pcep %s: a second session refused (PCErr 9, "
		    "CLOSE; RFC 5440 section 7.15); further ones from it "
		    "counted, not logged", s->name);
	busy->logged |= PCE_LOGGED_SECOND;
	s->logged |= PCE_LOGGED_PCERR | PCE_LOGGED_QUIET_CLOSE;
	TAILQ_INSERT_TAIL(&pc->sessions, s, entry);
	pce_pcerr(s, PCEP_E_SECOND_SESSION, 0);
	pce_close(s, PCEP_CLOSE_NONE, "a second session");
}

/* A PCC connected on fd: its session starts by our Open.  Only an IPv4
 * peer has an address to tell PCCs apart by; any other counts as 0. */
static void
pce_attach_one(void *pce, evutil_socket_t fd, const struct sockaddr *sa,
    socklen_t salen)
{
	struct pcep_ctl			*pc = pce;
	struct pcep_ctl_sess		*s;
	const struct sockaddr_in	*sin = (const struct sockaddr_in *)sa;
	struct pcep_ctl_sess		*busy;
	int				 one = 1;

	(void)salen;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	s = xcalloc(1, sizeof(*s));
	s->cs.ops = &pce_role_ops;
	s->pc = pc;
	pcep_sess_init(&s->ses, &pce_sess_ops, s, &pc->st.bad_messages,
	    &s->bev, &s->state);
	TAILQ_INIT(&s->ops);
	s->addr = sa->sa_family == AF_INET ? ntohl(sin->sin_addr.s_addr) : 0;
	snprintf(s->name, sizeof(s->name), "%u.%u.%u.%u", s->addr >> 24,
	    (s->addr >> 16) & 0xff, (s->addr >> 8) & 0xff, s->addr & 0xff);
	if ((s->bev = engine_bev_new(fd)) == NULL) {
		log_warnx("PCC %s: no bufferevent: connection dropped",
		    s->name);
		free(s);
		return;
	}
	s->last_rx_ns = s->last_tx_ns = s->state_ns = clock_ns();
	bufferevent_setcb(s->bev, pce_read, pce_write, ctl_sess_event, s);
	bufferevent_setwatermark(s->bev, EV_WRITE, PCE_OUT_LOW, 0);
	bufferevent_enable(s->bev, EV_READ | EV_WRITE);
	if ((busy = pce_addr_busy(pc, s->addr)) != NULL) {
		pce_second_session(s, busy);
		return;
	}
	TAILQ_INSERT_TAIL(&pc->sessions, s, entry);
	s->ss.local_addr = engine_local_ipv4(fd);	/* local-pref */
	pce_send_open(s);
}

void
pcep_ctl_attach(evutil_socket_t fd, const struct sockaddr *sa, socklen_t salen)
{
	pce_attach_one(&pce_main, fd, sa, salen);
}

static void
pce_ops_expire(struct pcep_ctl_sess *s, uint64_t now)
{
	struct pcep_ctl_op	*op, *next;

	for (op = TAILQ_FIRST(&s->ops); op != NULL; op = next) {
		next = TAILQ_NEXT(op, entry);
		if (now < op->deadline_ns)
			continue;
		TAILQ_REMOVE(&s->ops, op, entry);
		if (op->cb != NULL)
			op->cb(op->arg, -1, NULL);
		free(op);
	}
}

/* Returns 1 when the session was freed. */
static int
pce_sess_timers(struct pcep_ctl_sess *s, uint64_t now)
{
	struct pcep_ctl	*pc = s->pc;

	if (s->state == PCES_CLOSING) {
		if (now - s->closing_ns < PCE_CLOSE_WAIT_S * NS)
			return 0;
		TAILQ_REMOVE(&pc->sessions, s, entry);
		pce_sess_free(s);
		return 1;
	}
	if (s->state == PCES_OPENWAIT) {
		if (now - s->state_ns >= PCE_OPENWAIT_S * NS) {
			pce_pcerr(s, s->remote_ok ? PCEP_E_KEEPWAIT_EXPIRED :
			    PCEP_E_OPENWAIT_EXPIRED, 0);
			pce_close(s, PCEP_CLOSE_NONE, "no session in time");
		}
		return 0;
	}
	pce_ops_expire(s, now);
	if (s->dead_peer != 0 && now - s->last_rx_ns >=
	    (uint64_t)s->dead_peer * NS) {
		pce_close(s, PCEP_CLOSE_DEADTIMER, "dead timer expired");
		return 0;
	}
	if (pc->cfg.keepalive != 0 && now - s->last_tx_ns >=
	    (uint64_t)pc->cfg.keepalive * NS)
		pce_send_keepalive(s);
	return 0;
}

static void
pce_tick(void *pce, uint64_t now)
{
	struct pcep_ctl	*pc = pce;
	struct pcep_ctl_sess	*s, *next;

	for (s = TAILQ_FIRST(&pc->sessions); s != NULL; s = next) {
		next = TAILQ_NEXT(s, entry);
		pce_sess_timers(s, now);
	}
}

/* What ctl_listen.c does for the PCE. */
static const struct ctl_sess_ops pce_role_ops = {
	.what = "PCEP", .peer_closed = "the PCC closed the connection",
	.tick_ms = 100, .attach = pce_attach_one, .tick = pce_tick,
	.close = pce_drop,
};

/* RFC 5440 section 7.3's recommended Keepalive and DeadTimer. */
const struct pcep_ctl_config pcep_ctl_config_default = {
	.keepalive = 30, .deadtimer = 120, .op_timeout = 30,
};

/*
 * --pcep-md5-password: TCP-MD5 (RFC 2385; RFC 5440 section 10.2 names it
 * PCEP's transport protection) on the listener for every PCC address;
 * accepted sockets inherit the key, and a PCC without it or with another
 * is never answered (the kernel drops its SYNs, counted at the stop).
 */
int
pcep_ctl_start(const struct pcep_ctl_config *c, char *err, size_t errlen)
{
	struct pcep_ctl	*pc = &pce_main;

	pc->cfg = *c;
	memset(&pc->st, 0, sizeof(pc->st));
	hist_init(&pc->st.update_latency);
	if (ctl_listen_start(&pc->lis, &pc->cfg.listen, &pce_role_ops, pc,
	    err, errlen) == -1)
		return -1;
	/* RFC 5440 section 10.2: TCP-MD5 is PCEP's transport protection. */
	pc->md5 = (struct tcp_md5_guard){ "pcep", "--pcep-md5-password",
	    "PCE", "PCC", NULL, { 0 } };
	if (tcp_md5_guard_listen(&pc->md5,
	    evconnlistener_get_fd(pc->lis.listener), pc->cfg.md5, err,
	    errlen) == -1) {
		ctl_listen_stop(&pc->lis);
		return -1;
	}
	return 0;
}

void
pcep_ctl_stop(void)
{
	struct pcep_ctl	*pc = &pce_main;
	struct pcep_ctl_sess	*s;

	ctl_listen_stop(&pc->lis);
	tcp_md5_guard_stop(&pc->md5);
	while ((s = TAILQ_FIRST(&pc->sessions)) != NULL) {
		TAILQ_REMOVE(&pc->sessions, s, entry);
		pce_ops_fail(s);
		pce_sess_free(s);
	}
}

const struct pcep_ctl_stats *
pcep_ctl_stats(void)
{
	return &pce_main.st;
}
