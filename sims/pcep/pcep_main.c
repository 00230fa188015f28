/*
 * `sbsim pcep`: N PCCs against a stateful PCE, each with M LSPs, and the
 * phases that time the PCE:
 *   connect    sessions up, OPEN and KEEPALIVE both ways (target N)
 *   sync       LSPs reported in state synchronization, from the run's
 *              start to the last PCC's end-of-sync (target N x M)
 *   update     PCUpds applied and answered with a PCRpt; latency from the
 *              PCUpd's arrival to the PCRpt (target --expect-updates)
 *   initiate   PCInitiate creations answered (--expect-initiates)
 *   remove     PCInitiate removals answered (--expect-removes)
 *   flap       PCCs closing and coming back at --flap-rate, counted when
 *              synchronized again, for --flap-duration
 * With several PCEs (--controller EP,EP,...) every PCC holds a session to
 * each (one pool per PCE over its slice of the session array), connect.pK
 * per PCE, and
 *   failover   from the delegate's loss to the new delegate's first PCUpd,
 *              one item per PCC (RFC 8231 5.7.5)
 */
#include <arpa/inet.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "log.h"
#include "pcep_sim.h"
#include "run.h"

#define PCC_MAX_LSPS	65535	/* tunnel ids are 16 bits (RFC 3209) */

static const char pcep_usage[] =
"usage: sbsim pcep --pccs N --lsps M --controller tcp:IP:PORT[,...] "
"[options]\n"
"Stateful PCCs (RFC 5440, 8231, 8281) reporting LSPs to a PCE.\n";

NB_DRIVER_LIST(pcep_nb_drivers, &pcep_nb_odl_driver);

static void	pcep_md5_config(struct pcep_sim *);

static int
pcep_endpoint_row(void *base, const char *arg, char *err, size_t errlen)
{
	struct in_addr	a;

	if (inet_pton(AF_INET, arg, &a) != 1) {
		snprintf(err, errlen, "--endpoint: '%s' is not an IPv4 address",
		    arg);
		return -1;
	}
	((struct pcc_config *)base)->endpoint = ntohl(a.s_addr);
	return 0;
}

static const char *const pcc_bsid_names[] = { "none", "mpls", "srv6",
	NULL };

#define PC	struct pcc_config
#define EXPECT_MAX	(UINT64_MAX / 2)
/* A capability the PCC offers in its OPEN's STATEFUL-PCE-CAPABILITY
 * (RFC 8231 7.1.1) when the flag is given. */
#define PCEP_OFFER(n, field, what)	OPT_F(n, PC, field, 0, "offer " what)
static const struct opt pcep_rows[] = {
	OPT_U("pccs", "N", PC, pccs, 1, 1000000, 0,
	    "PCCs to simulate (required); PCC i connects from\n"
	    "the i-th address of --source"),
	OPT_U("lsps", "M", PC, lsps, 0, PCC_MAX_LSPS, 0,
	    "LSPs each PCC reports (at most 65535)"),
	OPT_F("delegate", PC, delegate, 0,
	    "delegate our LSPs to the PCE (D flag)"),
	PCEP_OFFER("pce-initiated", initiate, "LSP instantiation (I flag, "
	    "RFC 8281)"),
	OPT_F("sr", PC, sr, 0,
	    "segment routing paths: SR-ERO, PATH-SETUP-TYPE 1\n"
	    "(RFC 8664)"),
	OPT_F("srv6", PC, srv6, 0,
	    "SRv6 paths: SRv6-ERO of End SIDs, PATH-SETUP-TYPE 3\n"
	    "(RFC 9603)"),
	OPT_E("association", "TYPE", PC, assoc, pcep_assoc_kind_names, 0,
	    "report our LSPs in association groups (RFC 8697):\n"
	    "none, path-protection (RFC 8745), disjoint\n"
	    "(RFC 8800) or sr-policy"),
	OPT_F("sr-policy", PC, sr_policy, 0,
	    "SR policies: --association sr-policy and --sr,\n"
	    "each group one policy (color, endpoint), its LSPs\n"
	    "the candidate paths"),
	OPT_U("association-size", "N", PC, assoc_size, 1, PCC_MAX_LSPS, 0,
	    "LSPs per association group"),
	OPT_E("binding-sid", "T", PC, bsid, pcc_bsid_names, 0,
	    "each of our LSPs reports a binding SID (RFC 9604):\n"
	    "none, mpls (label 24000 + i) or srv6\n"
	    "(fc00:0:PCC::i+1)"),
	PCEP_OFFER("db-version", db_version, "LSP-DB-VERSION (S flag, "
	    "RFC 8232)"),
	PCEP_OFFER("triggered-sync", triggered, "triggered "
	    "resynchronization (T flag)"),
	PCEP_OFFER("delta-sync", delta, "incremental synchronization "
	    "(D flag)"),
	OPT_U("keepalive", "S", PC, keepalive, 0, 255, 0,
	    "our keepalive (0: none)"),
	OPT_U("dead-timer", "S", PC, deadtimer, 0, 255, 0,
	    "our dead timer", .def = "4 x keepalive"),
	OPT_U("hops", "H", PC, hops, 1, PCEP_ERO_MAX, 0,
	    "ERO hops per LSP (1..32)"),
	OPT_U("per-report", "K", PC, per_report, 1, 32, 0,
	    "LSPs per PCRpt while synchronizing"),
	OPT_FN("endpoint", "IP", pcep_endpoint_row, 0,
	    "tunnel endpoint", .off = offsetof(struct pcc_config, endpoint),
	    .show = endpoint_show_ipv4),
	OPT_U("expect-updates", "K", PC, expect_updates, 0, EXPECT_MAX, 0,
	    "the update phase waits for K PCUpds",
	    .def = "N x M with --delegate, else no update\nphase"),
	OPT_U("expect-initiates", "K", PC, expect_initiates, 0, EXPECT_MAX, 0,
	    "the initiate phase waits for K creations"),
	OPT_U("expect-bsids", "K", PC, expect_bsids, 0, EXPECT_MAX, 0,
	    "the bsid phase waits for K binding SIDs the PCE\n"
	    "allocated in PCUpds (RFC 9604; needs --delegate)"),
	OPT_U("expect-removes", "K", PC, expect_removes, 0, EXPECT_MAX, 0,
	    "the remove phase waits for K removals",
	    .def = "--expect-initiates"),
	OPT_RATE_FOR("flap", PC, flap_rate, 1e6, flap_seconds, "flapping",
	    "after the other phases: R PCCs per second close\n"
	    "their session and come back"),
	OPT_D("redelegation-timeout", "S", PC, redelegate_s, 0, 3600, 0,
	    "several PCEs: seconds the delegate's lost session\n"
	    "may take to come back before the LSPs go to the\n"
	    "next PCE up (RFC 8231 5.7.2)"),
	OPT_P("md5-password", "[I-J=]P", PC, md5, struct tcp_md5_keys,
	    tcp_md5_opt, 0,
	    "TCP-MD5 key (RFC 2385, RFC 5440 10.2) of every PCC;\n"
	    "I-J=P: of PCCs I to J (from 0), I-J=: none for\n"
	    "them (repeatable, the last range wins)",
	    .show = tcp_md5_show),
	OPT_END
};
#undef PCEP_OFFER
#undef PC
#undef EXPECT_MAX

static const struct opt pcep_nb_note[] = {
	OPT_NOTE("  with --northbound, once synchronized: update-lsp for every "
	    "LSP, and the\n  new paths counted in pcep-topology (phases "
	    "nb_update, confirm)"),
	OPT_END
};

static void
pcep_config_defaults(struct pcc_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->keepalive = 30;
	cfg->deadtimer = 255;		/* 4 x keepalive unless given */
	cfg->hops = 3;
	cfg->per_report = 1;
	cfg->assoc_size = 2;
	cfg->endpoint = 0xc0000201u;	/* 192.0.2.1 */
	cfg->expect_updates = UINT64_MAX;
	cfg->expect_removes = UINT64_MAX;
	cfg->flap_seconds = 10;
	nb_opts_defaults(&cfg->nb, pcep_nb_drivers);
}

static uint32_t
pcep_fds_needed(void *arg)
{
	struct pcep_sim	*sim = arg;

	return pool_fds_needed(&sim->pcfg[0], sim->cfg.pccs) *
	    sim->cfg.n_pce +
	    nb_fds_needed(&sim->cfg.nb);
}

#define PCC_C(field, name)	COUNTER_ROW(struct pcc_counters, field, name)
static const struct counter_row pcep_counter_rows[] = {
	PCC_C(rx_msgs, "rx_messages"),
	PCC_C(tx_msgs, "tx_messages"),
	PCC_C(reports_sent, "pcrpt_sent"),
	PCC_C(lsps_reported, "lsps_reported"),
	PCC_C(updates_received, "pcupd_received"),
	PCC_C(initiates_received, "initiates_received"),
	PCC_C(removes_received, "removes_received"),
	PCC_C(keepalives_sent, "keepalives_sent"),
	PCC_C(keepalives_received, "keepalives_received"),
	PCC_C(pcerr_sent, "pcerr_sent"),
	PCC_C(pcerr_received, "pcerr_received"),
	PCC_C(close_sent, "close_sent"),
	PCC_C(close_received, "close_received"),
	PCC_C(ntf_received, "pcntf_received"),
	PCC_C(unknown_msgs, "unexpected_messages"),
	PCC_C(bad_msgs, "malformed_messages"),
	PCC_C(open_negotiated, "open_negotiations"),
	PCC_C(sessions_lost, "sessions_lost"),
	PCC_C(dead_timer_expired, "dead_timer_expired"),
	PCC_C(flaps, "flaps"),
	PCC_C(not_delegated, "pcupd_not_delegated"),
	PCC_C(redelegations, "lsps_redelegated"),
	PCC_C(bsids_allocated, "bsids_allocated"),
};
#undef PCC_C

static const char *const pcep_phase_names[] = {
	[PCCP_CONNECT] = "connect", [PCCP_SYNC] = "sync",
	[PCCP_UPDATE] = "update", [PCCP_INITIATE] = "initiate",
	[PCCP_REMOVE] = "remove", [PCCP_FLAP] = "flap",
	[PCCP_FAILOVER] = "failover", [PCCP_BSID] = "bsid",
	"connect.p1", "connect.p2", "connect.p3", "connect.p4",
	"nb_update", NB_PHASE_CONFIRM, NULL
};

/* Phase i with its target; an optional one (want 0) is not made. */
static void
pcep_phase(struct pcep_sim *sim, int i, int want, uint64_t target)
{
	if (!want)
		return;
	sim->ph[i] = metrics_phase(sim->m, pcep_phase_names[i], "pcep");
	sim->ph[i]->target = target;
}

static const char *const pcep_connect_names[PCEP_MAX_PCES] = {
	"connect.p1", "connect.p2", "connect.p3", "connect.p4",
};

/*
 * Several PCEs: connect.pK per PCE (target: the PCCs), and failover,
 * begun when a delegate's session goes (pcc_deleg_lost), one item per
 * PCC whose new delegate sent its first PCUpd; only with LSPs delegated.
 */
static void
pcep_cluster_init(struct pcep_sim *sim, uint64_t now)
{
	run_connect_phases(sim->m, sim->ph_connect, sizeof(sim->ph_connect),
	    pcep_connect_names, sim->cfg.n_pce, "pcep", sim->cfg.pccs, now);
	if (sim->cfg.n_pce < 2)
		return;
	pcep_phase(sim, PCCP_FAILOVER, sim->cfg.delegate && sim->cfg.lsps > 0,
	    sim->cfg.pccs);
}

static void
pcep_phases_init(struct pcep_sim *sim)
{
	const struct pcc_config	*cfg = &sim->cfg;
	uint64_t		 now = clock_ns();

	memset(sim->ph, 0, sizeof(sim->ph));
	pcep_phase(sim, PCCP_CONNECT, 1, sim->n_sess);
	pcep_phase(sim, PCCP_SYNC, 1, sim->total);
	sim->ph[PCCP_SYNC]->witness = WITNESS_TCP_ACK;
	sim->ph[PCCP_SYNC]->await_ack = 1;
	pcep_phase(sim, PCCP_UPDATE, cfg->expect_updates > 0,
	    cfg->expect_updates);
	pcep_phase(sim, PCCP_INITIATE, cfg->expect_initiates > 0,
	    cfg->expect_initiates);
	pcep_phase(sim, PCCP_REMOVE, cfg->expect_removes > 0,
	    cfg->expect_removes);
	pcep_phase(sim, PCCP_FLAP, cfg->flap_rate > 0, 0);
	pcep_phase(sim, PCCP_BSID, cfg->expect_bsids > 0, cfg->expect_bsids);
	phase_start(sim->ph[PCCP_CONNECT], now);
	pcep_cluster_init(sim, now);
	/* Started now so that it can time out; its window opens at the
	 * first synchronization PCRpt (RFC 8231 5.6, pcc_count_synced). */
	phase_start(sim->ph[PCCP_SYNC], now);
}

static void
pcep_nb_hook(void *arg, int deleting, uint64_t now)
{
	/* The PCCs' update phase starts at their first PCUpd. */
	(void)arg;
	(void)deleting;
	(void)now;
}

/* The PCCs as pcep-topology names them: "pcc://" and the address each
 * connects from. */
static void
pcep_nb_new(struct pcep_sim *sim)
{
	struct sockaddr_storage	 ss;
	socklen_t		 len;
	char			 ip[INET_ADDRSTRLEN], id[NB_NODE_MAX];
	uint32_t		 i;

	sim->nb_begun = 0;
	sim->nb_nodes = xcalloc(sim->cfg.pccs, sizeof(*sim->nb_nodes));
	for (i = 0; i < sim->cfg.pccs; i++) {
		source_addr(&sim->pcfg[0].src, sim->idx_base + i, &ss, &len);
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, ip,
		    sizeof(ip));
		snprintf(id, sizeof(id), "pcc://%s", ip);
		sim->nb_nodes[i] = xstrdup(id);
	}
	sim->nb = nb_new(&sim->cfg.nb, sim->m, sim->nb_nodes, sim->cfg.pccs,
	    pcep_nb_hook, sim);
}

static int
pcep_start(void *arg, struct metrics *m, char *err, size_t errlen)
{
	struct pcep_sim	*sim = arg;
	uint32_t	 i;

	sim->m = m;
	sim->up = sim->synced = 0;
	sim->reported = 0;
	sim->flap_credit = 0;
	sim->flap_next = 0;
	sim->n_sess = sim->cfg.pccs * sim->cfg.n_pce;
	/* Every session synchronizes its PCE (RFC 8231 5.6). */
	sim->total = (uint64_t)sim->n_sess * sim->cfg.lsps;
	sim->last_tick_ns = clock_ns();
	METRICS_COUNTERS(m, pcep_counter_rows, &sim->c);
	pcep_phases_init(sim);
	sim->pccs = xcalloc(sim->n_sess, sizeof(*sim->pccs));
	for (i = 0; i < sim->n_sess; i++) {
		struct pcc	*p = &sim->pccs[i];

		p->sim = sim;
		p->idx = i % sim->cfg.pccs;
		p->pce = (uint8_t)(i / sim->cfg.pccs);
		p->owner = &sim->pccs[p->idx];
		pcep_deleg_init(&p->deleg, sim->cfg.n_pce);
		pcc_sess_init(p);
		pcc_lsps_init(p);
	}
	if (sim->cfg.nb.url != NULL)
		pcep_nb_new(sim);
	/* One pool per PCE, each over its slice of the sessions. */
	return pool_start_sliced(sim->pool, sim->pcfg, sim->cfg.n_pce,
	    &pcc_ops, sim->pccs, sizeof(*sim->pccs), offsetof(struct pcc, pd),
	    sim->cfg.pccs, err, errlen);
}

/* Flap at the rate asked for, PCCs in turn, for the duration. */
static void
pcep_tick_flap(struct pcep_sim *sim, uint64_t now)
{
	struct phase	*fl = sim->ph[PCCP_FLAP];
	uint32_t	 tries;

	if (fl->state == PHASE_PENDING)
		phase_start(fl, now);
	if ((double)(now - fl->trigger_ns) / 1e9 >= sim->cfg.flap_seconds) {
		phase_end(fl, now, PHASE_DONE);
		return;
	}
	sim->flap_credit += sim->cfg.flap_rate *
	    (double)(now - sim->last_tick_ns) / 1e9;
	for (tries = 0; sim->flap_credit >= 1 && tries < sim->cfg.pccs;
	    tries++) {
		struct pcc	*p = &sim->pccs[sim->flap_next++ %
		    sim->cfg.pccs];

		if (p->state == PCCS_UP && p->synced) {
			pcc_flap(p);
			sim->flap_credit -= 1;
		}
	}
	if (sim->flap_credit > sim->cfg.flap_rate + 1)
		sim->flap_credit = sim->cfg.flap_rate + 1;	/* no bursts */
}

/* After sync the PCE's phases may wait for their first message. */
static void
pcep_after_sync(struct pcep_sim *sim, uint64_t now)
{
	struct phase	**ph = sim->ph;

	if (ph[PCCP_UPDATE] != NULL)
		phase_start(ph[PCCP_UPDATE], now);
	if (ph[PCCP_BSID] != NULL)
		phase_start(ph[PCCP_BSID], now);
	if (ph[PCCP_INITIATE] != NULL)
		phase_start(ph[PCCP_INITIATE], now);
	if (ph[PCCP_REMOVE] != NULL && phase_over(ph[PCCP_INITIATE]))
		phase_start(ph[PCCP_REMOVE], now);
}

/* The northbound's updates, once synchronized; 1: over. */
static int
pcep_tick_nb(struct pcep_sim *sim, uint64_t now)
{
	char	err[256];

	if (!sim->nb_begun) {
		sim->nb_begun = 1;
		if (nb_begin(sim->nb, now, err, sizeof(err)) == -1) {
			log_warnx("%s", err);
			return 1;
		}
	}
	return nb_tick(sim->nb, now);
}

/* ---- several PCEs: the delegate (RFC 8231 5.7.4, 5.7.5) ---- */

int
pcc_is_delegate(const struct pcc *p)
{
	if (p->sim->cfg.n_pce < 2 || p->owner == NULL)
		return 1;
	return pcep_deleg_is(&p->owner->deleg, p->pce);
}

void
pcc_deleg_up(struct pcc *p)
{
	if (p->sim->cfg.n_pce > 1)
		pcep_deleg_up(&p->owner->deleg, p->pce);
}

/* The delegate's session went: the Redelegation Timeout runs, and the
 * failover clock of this PCC starts (the phase at the first PCC). */
void
pcc_deleg_lost(struct pcc *p, uint64_t now)
{
	struct pcc	*o = p->owner;
	struct phase	*fo = p->sim->ph[PCCP_FAILOVER];

	if (p->sim->cfg.n_pce < 2 || !pcep_deleg_down(&o->deleg, p->pce, now))
		return;
	log_info("%s: the delegate's session is lost", pcc_who(p));
	if (fo == NULL || phase_over(fo))
		return;
	if (fo->state == PHASE_PENDING)
		phase_start(fo, now);
	if (o->failover_ns == 0)
		o->failover_ns = now;
}

void
pcc_deleg_updated(struct pcc *p, uint64_t now)
{
	struct pcc	*o = p->owner;
	struct phase	*fo = p->sim->ph[PCCP_FAILOVER];

	if (o == NULL || o->failover_ns == 0 || fo == NULL)
		return;
	if (fo->state == PHASE_RUNNING) {
		phase_items(fo, now, 1);
		phase_latency(fo, now > o->failover_ns ?
		    (now - o->failover_ns) / 1000 : 0);
	}
	o->failover_ns = 0;
}

/* Each PCC whose Redelegation Timeout passed: its LSPs to the first PCE
 * up, in order of precedence. */
static void
pcep_tick_cluster(struct pcep_sim *sim, uint64_t now)
{
	uint64_t	 timeout = (uint64_t)(sim->cfg.redelegate_s * 1e9);
	uint32_t	 i;
	unsigned	 k;

	if (!sim->cfg.delegate)
		return;
	for (i = 0; i < sim->cfg.pccs; i++) {
		k = pcep_deleg_tick(&sim->pccs[i].deleg, now, timeout);
		if (k == PCEP_DELEG_NONE)
			continue;
		log_info("pcc %u: LSPs delegated to PCE %u", i, k + 1);
		pcc_lsps_delegate(&sim->pccs[k * sim->cfg.pccs + i]);
	}
}

static int
pcep_tick(void *arg, uint64_t now)
{
	struct pcep_sim	*sim = arg;
	struct phase	**ph = sim->ph;
	uint32_t	 i;
	int		 done = 0;

	for (i = 0; i < sim->n_sess; i++)
		pcc_timers(&sim->pccs[i], now);
	if (sim->cfg.n_pce > 1)
		pcep_tick_cluster(sim, now);
	/* Flapping runs for the duration, not to a target. */
	run_phases_timeout(sim->ph, PCCP_MAX, 1u << PCCP_FLAP, now,
	    sim->phase_timeout);
	for (i = 0; i < sim->cfg.n_pce && sim->cfg.n_pce > 1; i++)
		run_phase_timeout(sim->ph_connect[i], now, sim->phase_timeout);
	/* No LSPs: synchronized once every PCC's end-of-sync went. */
	if (sim->total == 0 && sim->synced == sim->n_sess)
		phase_end(ph[PCCP_SYNC], now, PHASE_DONE);
	if (!phase_over(ph[PCCP_CONNECT]) || !phase_over(ph[PCCP_SYNC]))
		goto out;
	pcep_after_sync(sim, now);
	if (sim->nb != NULL && !pcep_tick_nb(sim, now))
		goto out;
	if (!phase_over(ph[PCCP_UPDATE]) || !phase_over(ph[PCCP_INITIATE]) ||
	    !phase_over(ph[PCCP_REMOVE]) || !phase_over(ph[PCCP_BSID]))
		goto out;
	if (ph[PCCP_FLAP] != NULL && !phase_over(ph[PCCP_FLAP])) {
		pcep_tick_flap(sim, now);
		goto out;
	}
	/* A failover that began keeps the run until every PCC's new
	 * delegate updated it, or --timeout. */
	if (ph[PCCP_FAILOVER] != NULL &&
	    ph[PCCP_FAILOVER]->state == PHASE_RUNNING)
		goto out;
	done = 1;
out:
	sim->last_tick_ns = now;
	return done;
}

static void
pcep_stop(void *arg)
{
	struct pcep_sim	*sim = arg;
	uint32_t	 i;

	nb_free_nodes(&sim->nb, &sim->nb_nodes, sim->cfg.pccs);
	txack_cancel(&sim->acked);
	if (sim->pccs == NULL)
		return;
	for (i = 0; i < sim->n_sess; i++)
		pcc_goodbye(&sim->pccs[i]);
	/* Every pool stopped; the run's connect counters sum them. */
	pool_stop_all_counted(sim->pool, sim->cfg.n_pce, sim->m);
	for (i = 0; i < sim->n_sess; i++) {
		/* The pool stops without a down(): the peek goes here. */
		rxpeek_stop(&sim->pccs[i].rxp);
		pcc_lsps_free(&sim->pccs[i]);
	}
	for (i = 0; i < sim->cfg.n_pce; i++)
		pool_free(&sim->pool[i]);
	free(sim->pccs);
	sim->pccs = NULL;
}

static const struct sim_ops pcep_sim_ops = SIM_OPS(pcep, "pcep", pccs);

static void
pcep_check(struct pcep_sim *sim, const struct run_opts *ro)
{
	struct pcc_config	*cfg = &sim->cfg;

	if (cfg->pccs == 0)
		cli_die(ro, "--pccs N is required");
	if (cfg->deadtimer == 255 && cfg->keepalive <= 63)
		cfg->deadtimer = (uint8_t)(cfg->keepalive * 4);
	if (cfg->keepalive != 0 && cfg->deadtimer != 0 &&
	    cfg->deadtimer <= cfg->keepalive)
		cli_die(ro, "--dead-timer must be longer than --keepalive "
		    "(RFC 5440 7.3 recommends 4 times)");
	if (cfg->expect_updates == UINT64_MAX)
		cfg->expect_updates = cfg->delegate ?
		    (uint64_t)cfg->pccs * cfg->lsps : 0;
	if (cfg->expect_removes == UINT64_MAX)
		cfg->expect_removes = cfg->expect_initiates;
	if (cfg->expect_bsids > 0 && !cfg->delegate)
		cli_die(ro, "--expect-bsids needs --delegate (the PCE "
		    "allocates in PCUpds)");
	if ((cfg->expect_initiates > 0 || cfg->expect_removes > 0) &&
	    !cfg->initiate)
		cli_die(ro, "--expect-initiates and --expect-removes need "
		    "--pce-initiated");
}

/* --sr-policy is --association sr-policy with SR paths (SRv6 ones with
 * --srv6); --sr and --srv6 exclude each other. */
static void
pcep_assoc_check(struct pcc_config *cfg, const struct run_opts *ro)
{
	if (cfg->sr && cfg->srv6)
		cli_die(ro, "--sr and --srv6: one path setup type");
	if (!cfg->sr_policy)
		return;
	if (cfg->assoc != PCEP_AK_NONE && cfg->assoc != PCEP_AK_SR_POLICY)
		cli_die(ro, "--sr-policy is --association sr-policy: not with "
		    "--association %s", pcep_assoc_kind_names[cfg->assoc]);
	cfg->assoc = PCEP_AK_SR_POLICY;
	cfg->sr = !cfg->srv6;		/* SR policies over SRv6 too */
}

/* The northbound options together (exit 2 when bad); after the sources,
 * since the PCCs' node ids are their addresses. */
static void
pcep_nb_check(struct pcep_sim *sim, const struct run_opts *ro)
{
	struct pcc_config	*cfg = &sim->cfg;
	char			 err[256];

	if (!(cfg->nb_given & NB_GIVEN_ANY))
		return;
	if (!(cfg->nb_given & NB_GIVEN_URL))
		cli_die(ro, "the --northbound-* options need --northbound");
	if (cfg->nb.format != NB_FMT_JSON)
		cli_die(ro, "--northbound-format: sbsim pcep sends JSON only "
		    "(pcep-topology's update-lsp)");
	if (!cfg->delegate || cfg->lsps == 0)
		cli_die(ro, "--northbound updates delegated LSPs: give "
		    "--delegate and --lsps");
	if (sim->pcfg[0].src.family != AF_INET)
		cli_die(ro, "--northbound names PCCs by their IPv4 address: "
		    "give an IPv4 --source");
	cfg->nb.flows = (uint64_t)cfg->pccs * cfg->lsps;
	cfg->nb.per_request = 1;
	cfg->nb.no_delete = 1;
	cfg->nb.program_name = "nb_update";
	cfg->nb.timeout_s = ro->phase_timeout;
	cfg->nb_ctx.lsps = cfg->lsps;
	cfg->nb_ctx.endpoint = cfg->endpoint;
	cfg->nb.ctx = &cfg->nb_ctx;
	if (nb_check(&cfg->nb, err, sizeof(err)) == -1)
		cli_die(ro, "%s", err);
}

/*
 * --controller EP[,EP...]: one pool per PCE, in order of precedence (the
 * first is the primary, RFC 8231 5.7.4); each PCC connects to every one
 * from its one address (each PCE tells PCCs apart by it).
 */
static void
pcep_pool_config(struct pcep_sim *sim, const struct run_opts *ro)
{
	sim->cfg.n_pce = run_pools_config(sim->pcfg, ro, "PCE", PCEP_MAX_PCES,
	    1u << EP_TCP, "PCCs connect to the PCE over plain TCP: "
	    "tcp:IP:PORT, no PCEPS", "PCCs connect to each PCE over plain "
	    "TCP: tcp:IP:PORT,tcp:IP:PORT, no PCEPS", sim->cfg.pccs);
	pcep_md5_config(sim);
}

/* --md5-password: every PCE's pool keys its PCCs' connects (the pool
 * asks tcp_md5_key_of() with the PCC's number, the same for each PCE). */
static void
pcep_md5_config(struct pcep_sim *sim)
{
	unsigned	k;

	if (!tcp_md5_any(&sim->cfg.md5))
		return;
	for (k = 0; k < sim->cfg.n_pce; k++)
		sim->pcfg[k].md5 = &sim->cfg.md5;
}

/*
 * --shard I/N: this process runs PCCs [first, first + count) of the
 * run's --pccs, each with the source address and ERO hops it has in the
 * whole run; --expect-updates is the whole run's, of which the slice
 * expects its share; the northbound test updates the slice's LSPs
 * (nb_shard()).  PCE-initiated LSPs (the PCE picks their PCCs) are not
 * yet.
 */
static void
pcep_shard_check(const struct pcep_sim *sim, const struct run_opts *ro)
{
	const struct pcc_config	*cfg = &sim->cfg;

	run_shard_refuse(ro, cfg->initiate, "--pce-initiated (the PCE picks "
	    "the PCCs of its LSPs)");
	run_shard_even(ro, "--expect-updates", cfg->expect_updates,
	    cfg->pccs);
}

static void
pcep_shard(struct pcep_sim *sim, const struct run_opts *ro)
{
	struct pcc_config	*cfg = &sim->cfg;
	uint32_t		 first, count;
	unsigned		 k;

	if (!run_shard_slice(ro, "--pccs", cfg->pccs, &first, &count))
		return;
	cfg->expect_updates = run_shard_share(ro, "--expect-updates",
	    cfg->expect_updates, count, cfg->pccs);
	if (cfg->nb_given & NB_GIVEN_URL)
		nb_shard(&cfg->nb, ro, first, count, cfg->pccs);
	cfg->pccs = count;
	sim->idx_base = first;
	for (k = 0; k < cfg->n_pce; k++)
		sim->pcfg[k].index_base = first;
}

static int
pcep_main(int argc, char **argv)
{
	struct pcep_sim		*sim = run_sim_new(sizeof(*sim));
	struct pcc_config	*cfg = &sim->cfg;
	struct run_opts		 ro;
	int			 rc;
	struct opt_group	 groups[] = {
		{ NULL, pcep_rows, cfg, NULL },
		{ "the update test through the controller's northbound "
		    "(needs --delegate):", nb_opt_rows, &cfg->nb,
		    &cfg->nb_given },
		{ NULL, pcep_nb_note, NULL, NULL },
	};

	pcep_config_defaults(cfg);
	cli_parse_groups(argc, argv, groups, sizeof(groups) /
	    sizeof(groups[0]), &ro, pcep_usage);
	log_init("sbsim", ro.verbose);
	pcep_check(sim, &ro);
	pcep_assoc_check(cfg, &ro);
	/* --source, or 127.1.0.0/16 towards a loopback PCE: the PCE tells
	 * PCCs apart by address (a second session from one address is
	 * PCErr 9, RFC 5440 7.15). */
	pcep_pool_config(sim, &ro);
	pcep_nb_check(sim, &ro);
	pcep_shard_check(sim, &ro);
	if (run_workers(&pcep_sim_ops, sim, &ro, "PCCs", cfg->pccs, &rc) == 1)
		return rc;
	pcep_shard(sim, &ro);
	sim->phase_timeout = ro.phase_timeout;
	return run_main(&pcep_sim_ops, sim, &ro);
}

const struct sbsim_cmd pcep_cmd = {
	"pcep",
	"simulate PCEP PCCs (stateful, RFC 8231/8281)",
	pcep_main,
};
