/*
 * A simulated PCC's LSP database (RFC 8231 section 5): its own M LSPs,
 * whose name, tunnel id and first path follow from their index, and the
 * LSPs the PCE instantiated (RFC 8281).  State synchronization (5.6)
 * builds PCRpts only while the socket is below its high-water mark;
 * PCUpd (5.8.2) and PCInitiate (RFC 8281 5.3, 5.4) are applied at once
 * and answered with a PCRpt echoing the SRP-ID, or with the PCErr the
 * RFCs name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "pcep_sim.h"

#define PCC_FILL_ROOM	1024		/* room one more LSP's report needs */
#define PCC_SR_LABEL0	16000		/* first SR label of a path */
#define PCC_BW		1.25e6f		/* 10 Mb/s in bytes per second */
#define PCC_BSID_LABEL0	24000		/* first binding label */

/* ---- names of PCE-initiated LSPs ---- */

static struct pcc_name *
pcc_name_find(const struct pcc *p, const char *name)
{
	struct pcc_name	*e;

	HASH_FIND_STR(p->names, name, e);
	return e;
}

/* The caller checked the name is free (pcc_create_one). */
static void
pcc_name_add(struct pcc *p, uint32_t slot)
{
	struct pcc_name	*e = xcalloc(1, sizeof(*e));
	const char	*name = p->lsp[slot].name;

	e->slot = slot;
	HASH_ADD_KEYPTR(hh, p->names, name, strlen(name), e);
}

static void
pcc_name_del(struct pcc *p, uint32_t slot)
{
	struct pcc_name	*e = pcc_name_find(p, p->lsp[slot].name);

	if (e != NULL && e->slot == slot) {
		HASH_DEL(p->names, e);
		free(e);
	}
}

/* ---- the database ---- */

/* The name of our i-th LSP. */
static void
pcc_lsp_name(const struct pcc *p, uint32_t i, char *buf, size_t len)
{
	/* pcc-mock's names, so that tools written for it read ours. */
	snprintf(buf, len, "pcc_%u.%u.%u.%u_tunnel_%u", p->addr >> 24,
	    (p->addr >> 16) & 0xff, (p->addr >> 8) & 0xff, p->addr & 0xff,
	    i + 1);
}

/* Is name one of our own LSPs' names? */
static int
pcc_own_name(const struct pcc *p, const char *name)
{
	char		 pre[48];
	size_t		 n;
	unsigned long	 k;
	char		*end;

	pcc_lsp_name(p, 0, pre, sizeof(pre));
	n = strlen(pre) - 1;		/* up to the number */
	if (strncmp(name, pre, n) != 0 || name[n] < '1' || name[n] > '9')
		return 0;
	k = strtoul(name + n, &end, 10);
	return *end == '\0' && k >= 1 && k <= p->sim->cfg.lsps;
}

void
pcc_lsps_init(struct pcc *p)
{
	const struct pcc_config	*cfg = &p->sim->cfg;
	uint32_t		 i;

	p->cap_lsps = cfg->lsps > 0 ? cfg->lsps : 1;
	p->lsp = xcalloc(p->cap_lsps, sizeof(*p->lsp));
	p->n_lsps = cfg->lsps;
	for (i = 0; i < cfg->lsps; i++) {
		p->lsp[i].flags = PCC_LSP_USED |
		    (cfg->delegate && pcc_is_delegate(p) ?
		    PCC_LSP_DELEGATED : 0);
		p->lsp[i].lsp_id = 1;
	}
	p->free_hint = cfg->lsps;
}

static void
pcc_slot_clear(struct pcc *p, uint32_t slot)
{
	struct pcc_lsp	*l = &p->lsp[slot];

	if (l->name != NULL)
		pcc_name_del(p, slot);
	free(l->ero);
	free(l->name);
	free(l->bsid);
	memset(l, 0, sizeof(*l));
	if (slot < p->free_hint)
		p->free_hint = slot;
}

void
pcc_lsps_free(struct pcc *p)
{
	struct pcc_name	*e, *tmp;
	uint32_t	 i;

	HASH_ITER(hh, p->names, e, tmp) {
		HASH_DEL(p->names, e);
		free(e);
	}
	for (i = 0; i < p->n_lsps; i++) {
		free(p->lsp[i].ero);
		free(p->lsp[i].name);
		free(p->lsp[i].bsid);
	}
	free(p->lsp);
	p->lsp = NULL;
	p->n_lsps = p->cap_lsps = 0;
}

/*
 * A new session: the PCE-initiated LSPs of the last one are gone (RFC
 * 8281 5.7 lets the PCC remove them once their State Timeout passed; we
 * take it as 0), ours are reported again from the first.
 */
void
pcc_lsps_reset(struct pcc *p)
{
	const struct pcc_config	*cfg = &p->sim->cfg;
	uint32_t		 i;

	for (i = cfg->lsps; i < p->n_lsps; i++)
		if (p->lsp[i].flags & PCC_LSP_USED)
			pcc_slot_clear(p, i);
	p->n_lsps = cfg->lsps;
	p->free_hint = cfg->lsps;
	/* D only toward the delegate (RFC 8231 5.7): every PCE hears our
	 * reports, one holds the LSPs. */
	for (i = 0; i < cfg->lsps; i++)
		if (cfg->delegate && pcc_is_delegate(p))
			p->lsp[i].flags |= PCC_LSP_DELEGATED;
		else
			p->lsp[i].flags &= (uint8_t)~PCC_LSP_DELEGATED;
	p->sync_next = 0;
	p->syncing = 1;
	p->synced = 0;
}

/* --srv6 (RFC 9603): hop k's SID fc00:0:0:k+1::N (N the PCC's number),
 * End behavior, no NAI. */
static void
pcc_srv6_hop(struct pcep_hop *h, uint32_t k, uint32_t n)
{
	uint8_t	sid[16] = { 0xfc, 0x00 };

	sid[6] = (uint8_t)((k + 1) >> 8);
	sid[7] = (uint8_t)(k + 1);
	sid[12] = (uint8_t)(n >> 24);
	sid[13] = (uint8_t)(n >> 16);
	sid[14] = (uint8_t)(n >> 8);
	sid[15] = (uint8_t)n;
	pcep_hop_srv6(h, sid, PCEP_SRV6_END);
}

/* The path an LSP starts with: hops 10.k.x.y (x.y: the PCC's number),
 * then the endpoint; SR-EROs of node SIDs with --sr (RFC 8664 4.3),
 * SRv6-EROs with --srv6. */
static void
pcc_gen_ero(const struct pcc *p, uint32_t ep, struct pcep_ero *ero)
{
	const struct pcc_config	*cfg = &p->sim->cfg;
	uint32_t		 k, a;

	ero->n = 0;
	for (k = 0; k < cfg->hops && ero->n < PCEP_ERO_MAX; k++) {
		a = k + 1 == cfg->hops ? ep : 0x0a000000u | (k + 1) << 16 |
		    ((p->sim->idx_base + p->idx) & 0xffff);
		if (cfg->srv6)
			pcc_srv6_hop(&ero->hop[ero->n], k, p->sim->idx_base +
			    p->idx);
		else if (cfg->sr)
			pcep_hop_sr_ipv4(&ero->hop[ero->n], PCC_SR_LABEL0 + k,
			    a, 0, 0);
		else {
			memset(&ero->hop[ero->n], 0, sizeof(ero->hop[0]));
			ero->hop[ero->n].kind = PCEP_SUBOBJ_IPV4;
			ero->hop[ero->n].addr = a;
			ero->hop[ero->n].prefix_len = 32;
		}
		ero->n++;
	}
}

/*
 * The binding SID an LSP slot reports (RFC 9604 4): the PCE's allocation
 * when it made one, else with --binding-sid (our LSPs only) one local to
 * the PCC: MPLS label 24000 + slot (BT 0, the label in the top 20 bits),
 * or SRv6 SID fc00:0:N::slot+1 with N the PCC's number (BT 2).
 */
static void
pcc_bsid_fill(const struct pcc *p, uint32_t slot, struct pcep_lsp *lsp)
{
	struct pcep_bsid	*b = &lsp->bsid;
	uint32_t		 n = p->sim->idx_base + p->idx;

	if (p->lsp[slot].bsid != NULL) {	/* the PCE's (RFC 9604 5) */
		lsp->has_bsid = 1;
		*b = *p->lsp[slot].bsid;
		return;
	}
	if (p->sim->cfg.bsid == PCC_BSID_NONE || slot >= p->sim->cfg.lsps)
		return;
	lsp->has_bsid = 1;
	memset(b, 0, sizeof(*b));
	if (p->sim->cfg.bsid == PCC_BSID_MPLS) {
		b->bt = PCEP_BT_MPLS_LABEL;
		b->value = (PCC_BSID_LABEL0 + slot) << PCEP_SR_LABEL_SHIFT;
		return;
	}
	b->bt = PCEP_BT_SRV6;
	b->sid[0] = 0xfc;
	b->sid[4] = (uint8_t)(n >> 24);
	b->sid[5] = (uint8_t)(n >> 16);
	b->sid[6] = (uint8_t)(n >> 8);
	b->sid[7] = (uint8_t)n;
	b->sid[12] = (uint8_t)((slot + 1) >> 24);
	b->sid[13] = (uint8_t)((slot + 1) >> 16);
	b->sid[14] = (uint8_t)((slot + 1) >> 8);
	b->sid[15] = (uint8_t)(slot + 1);
}

/* The LSP's report: SRP when answering, LSP with its TLVs, ERO and the
 * attributes (RFC 8231 6.1). */
static void
pcc_report_req(struct pcc *p, uint32_t slot, uint32_t srp_id, uint16_t extra,
    struct pcep_lsp_req *req)
{
	const struct pcc_config	*cfg = &p->sim->cfg;
	const struct pcc_lsp	*l = &p->lsp[slot];
	struct pcep_lsp		*lsp = &req->lsp;

	memset(req, 0, sizeof(*req));
	if (srp_id != 0 || cfg->sr || cfg->srv6) {
		req->has_srp = 1;
		req->srp.srp_id = srp_id;
		/* RFC 8408 4: the path setup type travels in the SRP. */
		req->srp.has_pst = cfg->sr || cfg->srv6;
		req->srp.pst = cfg->srv6 ? PCEP_PST_SRV6 : PCEP_PST_SR;
	}
	lsp->plsp_id = slot + 1;
	lsp->flags = extra | PCEP_LSP_FLAG_A;
	if (l->flags & PCC_LSP_DELEGATED)
		lsp->flags |= PCEP_LSP_FLAG_D;
	if (l->flags & PCC_LSP_INITIATED)
		lsp->flags |= PCEP_LSP_FLAG_C;	/* RFC 8281 5.3.1 */
	if (l->flags & PCC_LSP_ADMIN_DOWN)
		lsp->flags &= (uint16_t)~PCEP_LSP_FLAG_A;
	lsp->oper = (l->flags & PCC_LSP_ADMIN_DOWN) || (extra &
	    PCEP_LSP_FLAG_R) ? PCEP_OPER_DOWN : PCEP_OPER_UP;
	lsp->ids.af = 4;
	lsp->ids.sender4 = p->addr;
	lsp->ids.ext_id4 = p->addr;
	lsp->ids.endpoint4 = l->ep ? l->ep : cfg->endpoint;
	lsp->ids.tunnel_id = (uint16_t)(slot % 65535 + 1);
	lsp->ids.lsp_id = l->lsp_id;
	if (l->name != NULL)
		snprintf(lsp->name, sizeof(lsp->name), "%s", l->name);
	else
		pcc_lsp_name(p, slot, lsp->name, sizeof(lsp->name));
	lsp->name_len = (uint16_t)strlen(lsp->name);
	if (p->dbv) {
		/* RFC 8232 4.2: every change a new version. */
		lsp->has_db_version = 1;
		lsp->db_version = ++p->db_version;
	}
	req->has_ero = 1;
	if (extra & PCEP_LSP_FLAG_R)
		req->ero.n = 0;		/* gone: an empty path */
	else if (l->ero != NULL)
		pcep_ero_from_recs(l->ero, l->nhops, &req->ero);
	else
		pcc_gen_ero(p, lsp->ids.endpoint4, &req->ero);
	req->attrs.bw_type = PCEP_OT_BW_REQUESTED;
	req->attrs.bandwidth = PCC_BW;
	req->attrs.has_lspa = 1;
	req->attrs.lspa.setup_prio = 7;
	req->attrs.lspa.hold_prio = 7;
	req->attrs.n_metric = 1;
	req->attrs.metric[0].type = PCEP_METRIC_TE;
	req->attrs.metric[0].value = (float)req->ero.n * 10;
	if (slot < cfg->lsps)		/* ours: --association */
		pcc_assoc_fill(cfg->assoc, cfg->assoc_size, p->addr, slot, req);
	pcc_bsid_fill(p, slot, lsp);
}

/* One PCRpt for one LSP, straight to the socket. */
static void
pcc_report(struct pcc *p, uint32_t slot, uint32_t srp_id, uint16_t extra)
{
	struct pcep_lsp_req	 req;
	struct wbuf		*w = pcc_scratch();

	pcc_report_req(p, slot, srp_id, extra, &req);
	pcep_reqs_encode(w, PCEP_MSG_PCRPT, &req, 1);
	pcc_send(p, w, 1);
	(*p->sim->c.reports_sent)++;
	(*p->sim->c.lsps_reported)++;
}

static void
pcc_count_synced(struct pcc *p, uint64_t now, uint32_t fresh)
{
	struct pcep_sim	*sim = p->sim;

	if (fresh == 0)
		return;
	sim->reported += fresh;
	phase_items(sim->ph[PCCP_SYNC], now, fresh);
}

/* Session i's connection and its part of sync's acknowledgment. */
static struct bufferevent *
pcc_txack_dev(void *arg, size_t i, struct txack_dev **d)
{
	struct pcc	*p = &((struct pcep_sim *)arg)->pccs[i];

	*d = &p->txd;
	return p->pd.bev;
}

/* The end-of-synchronization marker went (RFC 8231 5.6). */
static void
pcc_sync_done(struct pcc *p, uint64_t now)
{
	struct pcep_sim	*sim = p->sim;
	struct wbuf	*w = pcc_scratch();

	pcep_eos_encode(w);
	pcc_send(p, w, 1);
	(*sim->c.reports_sent)++;
	p->syncing = 0;
	p->synced = 1;
	if (p->flapping) {
		p->flapping = 0;
		if (sim->ph[PCCP_FLAP] != NULL)
			phase_items(sim->ph[PCCP_FLAP], now, 1);
		return;
	}
	if (p->sync_high >= sim->cfg.lsps && !p->counted_sync) {
		p->counted_sync = 1;
		txack_last(&p->txd, p->pd.bev);
		/* Synchronized when the PCE's TCP acknowledged every PCC's
		 * end-of-synchronization marker. */
		if (++sim->synced == sim->n_sess && sim->total > 0)
			txack_wait(&sim->acked, sim->ph[PCCP_SYNC],
			    sim->n_sess, pcc_txack_dev, sim);
	}
}

/* The PCC's first synchronization PCRpt is about to be queued: the
 * earliest first byte of the PCCs' opens the window. */
static void
pcc_sync_open(struct pcc *p)
{
	phase_open(p->sim->ph[PCCP_SYNC], clock_ns());
	txack_open(&p->sim->acked, &p->txd, p->pd.bev, p->sim->ph[PCCP_SYNC],
	    NULL);
}

/* Build PCRpts, per_report LSPs each, while the socket takes them. */
void
pcc_sync_fill(struct pcc *p)
{
	const struct pcc_config	*cfg = &p->sim->cfg;
	struct pcep_lsp_req	 req;
	struct wbuf		*w;
	uint32_t		 fresh, n, msgs;
	size_t			 m;
	int			 first;

	while (p->syncing && p->state == PCCS_UP && !pcc_out_full(p)) {
		w = pcc_scratch();
		fresh = msgs = 0;
		first = p->sync_high == 0;
		while (p->sync_next < p->n_lsps &&
		    w->len + PCC_FILL_ROOM * cfg->per_report <= w->cap) {
			m = pcep_msg_begin(w, PCEP_MSG_PCRPT);
			for (n = 0; n < cfg->per_report &&
			    p->sync_next < p->n_lsps; p->sync_next++) {
				if (!(p->lsp[p->sync_next].flags &
				    PCC_LSP_USED))
					continue;
				pcc_report_req(p, p->sync_next, 0,
				    PCEP_LSP_FLAG_S, &req);
				pcep_req_put(w, PCEP_MSG_PCRPT, &req);
				n++;
				if (p->sync_next >= p->sync_high &&
				    p->sync_next < cfg->lsps) {
					p->sync_high = p->sync_next + 1;
					fresh++;
				}
			}
			if (n == 0) {
				w->len = m;	/* nothing went in */
				break;
			}
			pcep_msg_end(w, m);
			msgs++;
			*p->sim->c.lsps_reported += n;
		}
		if (fresh > 0 && first)
			pcc_sync_open(p);
		pcc_send(p, w, msgs);
		*p->sim->c.reports_sent += msgs;
		pcc_count_synced(p, clock_ns(), fresh);
		if (p->sync_next >= p->n_lsps)
			pcc_sync_done(p, clock_ns());
	}
}

/* ---- PCUpd (RFC 8231 6.2) ---- */

/* Keep the PCE's path; SR hops only with an IPv4 or no NAI (RFC 8664
 * 5.2.1: a PCC may refuse NAI types it does not support), SRv6 hops only
 * with their SID (RFC 9603 5.2.1). */
static int
pcc_store_ero(struct pcc_lsp *l, const struct pcep_ero *ero)
{
	uint8_t	i;

	for (i = 0; i < ero->n; i++)
		if ((ero->hop[i].kind == PCEP_SUBOBJ_SR &&
		    ero->hop[i].nt != PCEP_NAI_ABSENT &&
		    ero->hop[i].nt != PCEP_NAI_IPV4_NODE &&
		    ero->hop[i].nt != PCEP_NAI_IPV4_ADJ) ||
		    (ero->hop[i].kind == PCEP_SUBOBJ_SRV6 &&
		    (ero->hop[i].sr_flags & PCEP_SRV6_FLAG_S)))
			return -1;	/* SRv6: we forward on SIDs only */
	pcep_hops_store(&l->ero, &l->nhops, ero);
	return 0;
}

/* The latency of one answer: from the message's arrival to now. */
static void
pcc_answered(struct pcc *p, enum pcc_phase ph)
{
	struct phase	*phase = p->sim->ph[ph];
	uint64_t	 now = clock_ns();

	if (phase == NULL)
		return;
	/* Device side (docs/report.md, "Phase windows"): the window opens
	 * at the first request's arrival; an item counts when answered. */
	if (phase->items == 0)
		phase_open(phase, p->arrived_ns);
	phase_items(phase, now, 1);
	phase_latency(phase, (now - p->rx_ns) / 1000);
}

/*
 * Several PCEs: the path the delegate gave one of our LSPs is the LSP's
 * state for every PCE, and each that is synchronized hears it in a PCRpt
 * without the SRP-ID (RFC 8231 5.8.2: the PCC reports the new state to
 * all its stateful PCEs; D stays as it is for each).
 */
static void
pcc_mirror_update(struct pcc *p, uint32_t slot, const struct pcep_ero *ero)
{
	struct pcep_sim		*sim = p->sim;
	const struct pcc_lsp	*from = &p->lsp[slot];
	struct pcc_lsp		*l;
	struct pcc		*q;
	unsigned		 k;

	if (sim->cfg.n_pce < 2 || slot >= sim->cfg.lsps)
		return;
	for (k = 0; k < sim->cfg.n_pce; k++) {
		q = &sim->pccs[k * sim->cfg.pccs + p->idx];
		if (q == p || slot >= q->n_lsps)
			continue;
		l = &q->lsp[slot];
		if (pcc_store_ero(l, ero) == -1)
			continue;
		l->lsp_id = from->lsp_id;
		l->flags = (uint8_t)((l->flags & ~PCC_LSP_ADMIN_DOWN) |
		    (from->flags & PCC_LSP_ADMIN_DOWN));
		if (q->state == PCCS_UP && q->stateful && q->synced)
			pcc_report(q, slot, 0, 0);
	}
}

/*
 * RFC 9604 5: a binding value in a PCUpd is the PCE's allocation for the
 * LSP, reported from now on (R: back to ours); counted, and an item of
 * the bsid phase once the report that carries it is sent.
 */
static void
pcc_bsid_take(struct pcc *p, struct pcc_lsp *l, const struct pcep_lsp *lsp)
{
	if (!lsp->has_bsid)
		return;
	if (lsp->bsid.flags & PCEP_BSID_FLAG_R) {
		free(l->bsid);
		l->bsid = NULL;
		return;
	}
	if (l->bsid == NULL)
		l->bsid = xmalloc(sizeof(*l->bsid));
	*l->bsid = lsp->bsid;
	(*p->sim->c.bsids_allocated)++;
	p->bsid_taken = 1;
}

static void
pcc_update_one(void *pcc, const struct pcep_lsp_req *req)
{
	struct pcc	*p = pcc;
	uint32_t	 slot = req->lsp.plsp_id - 1;
	struct pcc_lsp	*l;

	(*p->sim->c.updates_received)++;
	if (req->lsp.plsp_id == 0 || slot >= p->n_lsps ||
	    !(p->lsp[slot].flags & PCC_LSP_USED)) {
		/* RFC 8231 5.8.2: an LSP we do not know. */
		pcc_pcerr(p, PCEP_E_UPDATE_UNKNOWN_PLSP, req->srp.srp_id);
		return;
	}
	l = &p->lsp[slot];
	if (!(l->flags & PCC_LSP_DELEGATED)) {
		/* RFC 8231 5.8.2: PCErr 19 "Invalid operation", value 1. */
		(*p->sim->c.not_delegated)++;
		pcc_pcerr(p, PCEP_E_UPDATE_NOT_DELEGATED, req->srp.srp_id);
		return;
	}
	if (pcc_store_ero(l, &req->ero) == -1) {
		pcc_pcerr(p, PCEP_E_UNSUPPORTED_NAI, req->srp.srp_id);
		return;
	}
	/* Make-before-break (RFC 3209): the new path is a new LSP-ID. */
	l->lsp_id = (uint16_t)(l->lsp_id % 65535 + 1);
	if (req->lsp.flags & PCEP_LSP_FLAG_A)
		l->flags &= (uint8_t)~PCC_LSP_ADMIN_DOWN;
	else
		l->flags |= PCC_LSP_ADMIN_DOWN;
	/* D clear: the PCE hands the delegation back (RFC 8231 5.7.3). */
	if (!(req->lsp.flags & PCEP_LSP_FLAG_D) &&
	    !(l->flags & PCC_LSP_INITIATED))
		l->flags &= (uint8_t)~PCC_LSP_DELEGATED;
	pcc_bsid_take(p, l, &req->lsp);
	pcc_report(p, slot, req->srp.srp_id, 0);
	pcc_answered(p, PCCP_UPDATE);
	if (p->bsid_taken)
		pcc_answered(p, PCCP_BSID);
	p->bsid_taken = 0;
	pcc_deleg_updated(p, p->rx_ns);
	pcc_mirror_update(p, slot, &req->ero);
}

/*
 * Redelegation (RFC 8231 5.7.5): this session's PCE is the delegate now;
 * a PCRpt with D set for each of our LSPs it already heard of tells it
 * (the rest carry D when the synchronization reaches them).
 */
void
pcc_lsps_delegate(struct pcc *p)
{
	const struct pcc_config	*cfg = &p->sim->cfg;
	uint32_t		 i;

	for (i = 0; i < cfg->lsps && i < p->n_lsps; i++) {
		if (!(p->lsp[i].flags & PCC_LSP_USED))
			continue;
		p->lsp[i].flags |= PCC_LSP_DELEGATED;
		if (p->state != PCCS_UP || !p->stateful ||
		    (!p->synced && i >= p->sync_next))
			continue;
		pcc_report(p, i, 0, 0);
		(*p->sim->c.redelegations)++;
	}
}

static int
pcc_is_up(const void *pcc)
{
	return ((const struct pcc *)pcc)->state == PCCS_UP;
}

/* Each request of a PCUpd or PCInitiate to one() while the session is
 * up; a malformed one ends the message (the rest cannot be found) with
 * the PCErr the codec names. */

static void
pcc_each_request(struct pcc *p, uint8_t msg_type, const struct rbuf *body,
    void (*one)(void *pcc, const struct pcep_lsp_req *))
{
	struct pcep_err	err;
	uint32_t	srp_id;

	if (pcep_req_each(msg_type, body, one, pcc_is_up, p, &err,
	    &srp_id) == -1)
		pcc_bad(p, &err, srp_id);
}

void
pcc_handle_update(struct pcc *p, const struct rbuf *body)
{
	pcc_each_request(p, PCEP_MSG_PCUPD, body, pcc_update_one);
}

/* ---- PCInitiate (RFC 8281 5.3, 5.4) ---- */

static void
pcc_remove_one(struct pcc *p, const struct pcep_lsp_req *req)
{
	uint32_t	slot = req->lsp.plsp_id - 1;

	(*p->sim->c.removes_received)++;
	if (req->lsp.plsp_id == 0 || slot >= p->n_lsps ||
	    !(p->lsp[slot].flags & PCC_LSP_USED)) {
		pcc_pcerr(p, PCEP_E_UPDATE_UNKNOWN_PLSP, req->srp.srp_id);
		return;
	}
	if (!(p->lsp[slot].flags & PCC_LSP_INITIATED)) {
		/* RFC 8281 5.4: only what the PCE made may it remove. */
		pcc_pcerr(p, PCEP_E_NOT_PCE_INITIATED, req->srp.srp_id);
		return;
	}
	pcc_report(p, slot, req->srp.srp_id, PCEP_LSP_FLAG_R);
	pcc_slot_clear(p, slot);
	while (p->n_lsps > p->sim->cfg.lsps &&
	    !(p->lsp[p->n_lsps - 1].flags & PCC_LSP_USED))
		p->n_lsps--;
	pcc_answered(p, PCCP_REMOVE);
}

/* A free slot past our own LSPs; -1 when PLSP-IDs ran out. */
static int64_t
pcc_alloc_slot(struct pcc *p)
{
	uint32_t	i;

	for (i = p->free_hint; i < p->n_lsps; i++)
		if (!(p->lsp[i].flags & PCC_LSP_USED)) {
			p->free_hint = i + 1;
			return i;
		}
	if (p->n_lsps >= PCEP_PLSP_ID_MAX)
		return -1;
	if (p->n_lsps == p->cap_lsps) {
		p->lsp = xreallocarray(p->lsp, p->cap_lsps * 2,
		    sizeof(*p->lsp));
		memset(p->lsp + p->cap_lsps, 0, p->cap_lsps *
		    sizeof(*p->lsp));
		p->cap_lsps *= 2;
	}
	p->free_hint = p->n_lsps + 1;
	return p->n_lsps++;
}

static void
pcc_create_one(struct pcc *p, const struct pcep_lsp_req *req)
{
	int64_t		 slot;
	struct pcc_lsp	*l;

	(*p->sim->c.initiates_received)++;
	if (req->lsp.name_len == 0 || req->lsp.name[0] == '\0') {
		pcc_pcerr(p, PCEP_E_SYMBOLIC_NAME_MISSING, req->srp.srp_id);
		return;
	}
	if (pcc_own_name(p, req->lsp.name) ||
	    pcc_name_find(p, req->lsp.name) != NULL) {
		pcc_pcerr(p, PCEP_E_NAME_IN_USE, req->srp.srp_id);
		return;
	}
	if ((slot = pcc_alloc_slot(p)) == -1) {
		pcc_pcerr(p, PCEP_E_INIT_LIMIT, req->srp.srp_id);
		return;
	}
	l = &p->lsp[slot];
	memset(l, 0, sizeof(*l));
	l->flags = PCC_LSP_USED | PCC_LSP_INITIATED | PCC_LSP_DELEGATED;
	l->lsp_id = 1;
	l->ep = req->has_endpoints ? req->ep_dst : 0;
	l->name = xstrdup(req->lsp.name);
	if (pcc_store_ero(l, &req->ero) == -1) {
		free(l->name);
		l->name = NULL;
		l->flags = 0;
		pcc_pcerr(p, PCEP_E_UNSUPPORTED_NAI, req->srp.srp_id);
		return;
	}
	pcc_name_add(p, (uint32_t)slot);
	pcc_report(p, (uint32_t)slot, req->srp.srp_id, 0);
	pcc_answered(p, PCCP_INITIATE);
}

/* The SRP's R flag asks for a removal (RFC 8281 5.4). */
static void
pcc_initiate_one(void *pcc, const struct pcep_lsp_req *req)
{
	struct pcc	*p = pcc;

	if (req->srp.flags & PCEP_SRP_FLAG_R)
		pcc_remove_one(p, req);
	else
		pcc_create_one(p, req);
}

void
pcc_handle_initiate(struct pcc *p, const struct rbuf *body)
{
	pcc_each_request(p, PCEP_MSG_PCINITIATE, body, pcc_initiate_one);
}
