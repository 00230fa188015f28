/*
 * `sbsim pcep`: simulated PCCs (pcep_pcc.c: session FSM of RFC 5440
 * section 6 and appendix A; pcep_lspdb.c: the LSP database of RFC 8231,
 * state synchronization, PCUpd and RFC 8281 PCInitiate) and their run
 * (pcep_main.c).  Each PCC is a head-end router on its own source address
 * that reports M LSPs to a stateful PCE and follows what the PCE asks.
 */
#ifndef SBSIM_PCEP_SIM_H
#define SBSIM_PCEP_SIM_H

#include <stdint.h>

#include "metrics.h"
#include "pcep_assoc.h"
#include "pcep_codec.h"
#include "pcep_deleg.h"
#include "pcep_nb.h"
#include "pcep_sess.h"
#include "pool.h"
#include "rxstamp.h"
#include "tcp_md5.h"
#include "txack.h"
#include "ut.h"
#include "fault.h"

/* Session states (RFC 5440 appendix A); TCPPending is the pool's. */
enum pcc_state {
	PCCS_IDLE,
	PCCS_OPENWAIT,		/* our OPEN sent, waiting for the PCE's */
	PCCS_KEEPWAIT,		/* its OPEN accepted, waiting for KEEPALIVE */
	PCCS_UP,
	PCCS_CLOSING,		/* CLOSE sent, draining */
};

enum pcc_phase {
	PCCP_CONNECT,
	PCCP_SYNC,
	PCCP_UPDATE,
	PCCP_INITIATE,
	PCCP_REMOVE,
	PCCP_FLAP,
	PCCP_FAILOVER,		/* several PCEs: the delegate lost */
	PCCP_BSID,		/* binding SIDs the PCE allocated */
	PCCP_MAX,
};

struct pcc_config {
	uint32_t	 pccs;
	uint32_t	 lsps;		/* per PCC */
	int		 delegate;	/* D flag on our LSPs */
	int		 initiate;	/* offer I (RFC 8281) */
	int		 sr;		/* SR-ERO and PST 1 (RFC 8664) */
	int		 srv6;		/* SRv6-ERO and PST 3 (RFC 9603) */
	int		 assoc;		/* enum pcep_assoc_kind (RFC 8697) */
	int		 sr_policy;	/* --sr-policy: assoc SR policy, sr */
	uint32_t	 assoc_size;	/* LSPs per association group */
	int		 bsid;		/* enum pcc_bsid_kind (RFC 9604) */
	int		 db_version;	/* offer S (RFC 8232) */
	int		 triggered;	/* offer T */
	int		 delta;		/* offer D */
	uint8_t		 keepalive;	/* seconds we send KEEPALIVEs at */
	uint8_t		 deadtimer;	/* seconds we wait */
	uint8_t		 hops;		/* ERO hops per LSP */
	uint32_t	 per_report;	/* LSPs per PCRpt */
	uint32_t	 endpoint;	/* tunnel endpoint, host order */
	uint64_t	 expect_updates;
	uint64_t	 expect_initiates;
	uint64_t	 expect_removes;
	uint64_t	 expect_bsids;	/* PCE-allocated binding SIDs */
	double		 flap_rate;	/* PCCs per second, 0: none */
	double		 flap_seconds;
	double		 redelegate_s;	/* Redelegation Timeout (8231 5.7.2) */
	unsigned	 n_pce;		/* --controller EP,EP,...: 1..4 */
	struct tcp_md5_keys md5;	/* --md5-password, by PCC number */
	/* update-lsp for every LSP through the controller's northbound. */
	struct nb_opts	 nb;		/* nb.url: --northbound */
	unsigned	 nb_given;	/* NB_GIVEN_* */
	struct pcep_nb_ctx nb_ctx;
};

/* --binding-sid: what our LSPs report in TE-PATH-BINDING. */
enum pcc_bsid_kind {
	PCC_BSID_NONE,
	PCC_BSID_MPLS,		/* BT 0: label 24000 + slot */
	PCC_BSID_SRV6,		/* BT 2: fc00:0:PCC::slot+1 */
};

struct pcc_counters {
	uint64_t	*rx_msgs, *tx_msgs;
	uint64_t	*reports_sent, *lsps_reported;
	uint64_t	*updates_received, *initiates_received;
	uint64_t	*removes_received;
	uint64_t	*keepalives_sent, *keepalives_received;
	uint64_t	*pcerr_sent, *pcerr_received;
	uint64_t	*close_sent, *close_received;
	uint64_t	*ntf_received, *unknown_msgs;
	uint64_t	*bad_msgs, *open_negotiated;
	uint64_t	*sessions_lost, *dead_timer_expired;
	uint64_t	*flaps;
	uint64_t	*not_delegated;	/* PCUpds refused: 19/1 */
	uint64_t	*redelegations;	/* LSPs delegated to a next PCE */
	uint64_t	*bsids_allocated;	/* taken from PCUpds (RFC 9604) */
};

/*
 * One LSP of a PCC, 16 bytes plus an ERO only once the PCE changed it:
 * slot i holds PLSP-ID i + 1; the first M are ours (their name, tunnel id
 * and path follow from the index), the rest PCE-initiated.
 */
#define PCC_LSP_USED		0x01
#define PCC_LSP_DELEGATED	0x02
#define PCC_LSP_INITIATED	0x04	/* by the PCE (RFC 8281) */
#define PCC_LSP_ADMIN_DOWN	0x08	/* the PCE cleared A */
struct pcc_lsp {
	uint8_t		 flags;		/* PCC_LSP_* */
	uint8_t		 nhops;		/* of ero, when set */
	uint16_t	 lsp_id;	/* LSP-IDENTIFIERS, bumped per path */
	uint32_t	 ep;		/* endpoint; 0: the configured one */
	struct pcep_hop_rec	*ero;		/* NULL: the generated path */
	char		*name;		/* PCE-initiated only */
	struct pcep_bsid	*bsid;	/* the PCE's allocation, NULL: ours */
};

/* A PCE-initiated LSP's name: its own entry, because the slots move
 * when the vector grows and uthash links entries by address. */
struct pcc_name {
	UT_hash_handle	 hh;		/* key: the slot's name */
	uint32_t	 slot;
};

/*
 * One PCC's session to one PCE: its pool device, its state and its LSPs.
 * With several PCEs (--controller EP,EP,...) a PCC is one of these per
 * PCE; the first (owner, PCE 0) holds the delegation choice and the
 * failover clock, and each session reports the LSPs with D set only
 * while its PCE is the delegate.
 */
struct pcc {
	struct pool_dev	 pd;		/* first: the pool hands it back */
	struct pcep_sess ses;		/* the rules shared with the PCE */
	struct pcep_sim	*sim;
	struct pcc	*owner;		/* PCE 0's session of this PCC */
	uint32_t	 idx;
	uint8_t		 pce;		/* which PCE, in order of precedence */
	uint8_t		 state;		/* enum pcc_state */
	uint8_t		 open_tries;	/* OPENs we received (6.2) */
	uint8_t		 local_ok, remote_ok;
	uint8_t		 stateful;	/* both sides: U */
	uint8_t		 can_init;	/* both sides: I */
	uint8_t		 dbv;		/* both sides: S */
	uint8_t		 syncing;	/* reports being built */
	uint8_t		 synced;	/* end-of-sync sent */
	uint8_t		 counted_sync;	/* counted in sim->synced */
	uint8_t		 flapping;	/* closed by the flap phase */
	uint8_t		 bsid_taken;	/* the PCUpd in hand carried one */
	uint8_t		 ka_peer;	/* the PCE's keepalive */
	uint8_t		 dead_peer;	/* the PCE's dead timer */
	uint8_t		 ka_ours;	/* ours, maybe renegotiated */
	uint8_t		 dead_ours;
	uint16_t	 logged;	/* kinds of trouble logged once */
	uint32_t	 addr;		/* our address, host order */
	uint32_t	 sync_next;	/* next slot to report */
	uint32_t	 sync_high;	/* reported at least once up to here */
	uint32_t	 n_lsps;	/* slots */
	uint32_t	 cap_lsps;
	uint64_t	 db_version;
	uint64_t	 state_ns;	/* entered OpenWait or KeepWait */
	uint64_t	 closing_ns;
	uint64_t	 last_rx_ns;
	uint64_t	 last_tx_ns;
	uint32_t	 free_hint;	/* first slot past ours maybe free */
	struct pcc_name	*names;		/* initiated LSPs by name (uthash) */
	uint64_t	 rx_ns;		/* when the message in hand arrived */
	uint64_t	 arrived_ns;	/* its read's first segment */
	struct rxpeek	 rxp;		/* while a phase awaits one */
	struct txack_dev txd;		/* its part of sync */
	struct pcc_lsp	*lsp;
	struct pcep_deleg deleg;	/* owner's: who holds our LSPs */
	uint64_t	 failover_ns;	/* owner's: the delegate lost, 0: no */
};

struct pcep_sim {
	struct pcc_config	 cfg;
	struct pool_config	 pcfg[PCEP_MAX_PCES];
	struct pool		 pool[PCEP_MAX_PCES];	/* one per PCE */
	struct pcc		*pccs;		/* PCE k's at [k x pccs] */
	uint32_t		 n_sess;	/* pccs x PCEs */
	struct phase		*ph_connect[PCEP_MAX_PCES];	/* connect.pK */
	struct metrics		*m;
	struct phase		*ph[PCCP_MAX];
	struct pcc_counters	 c;
	uint32_t		 up;		/* sessions UP */
	uint32_t		 synced;	/* PCCs whose end-of-sync went */
	uint64_t		 reported;	/* first-time reports */
	struct txack		 acked;		/* sync's end */
	uint64_t		 total;		/* pccs x lsps */
	/* --shard: the first PCC's number in the whole run (its ERO hops
	 * and fallback address come from it, its source address from the
	 * pool's index_base). */
	uint32_t		 idx_base;
	double			 phase_timeout;
	double			 flap_credit;
	uint32_t		 flap_next;
	uint64_t		 last_tick_ns;
	struct nb_run		*nb;
	char			**nb_nodes;	/* "pcc://IP" per PCC */
	int			 nb_begun;
};

/* pcep_pcc.c: the session */
extern const struct pool_ops pcc_ops;
/* Every tick: OpenWait/KeepWait, dead timer, keepalives. */
void	pcc_timers(struct pcc *, uint64_t now);
/* Flap: CLOSE the session; the pool reconnects it. */
void	pcc_flap(void *pcc);	/* also a session-flap's (fault.h) */
/* The run is over: CLOSE if it can go at once. */
void	pcc_goodbye(struct pcc *);
void	pcc_send(struct pcc *, struct wbuf *, uint32_t msgs);
/* A PCErr of one error (with the SRP-ID when not 0), counted. */
void	pcc_pcerr(struct pcc *, enum pcep_error, uint32_t srp_id);
/* Bad input: its PCErr, counted, and CLOSE when err says so. */
void	pcc_bad(struct pcc *, const struct pcep_err *, uint32_t srp_id);
struct wbuf *pcc_scratch(void);
const char *pcc_who(const void *pcc);	/* a struct pcc */
/* Output above the high-water mark: build no more. */
int	pcc_out_full(const struct pcc *);
void	pcc_sess_init(struct pcc *);

/* pcep_main.c: several PCEs (RFC 8231 5.7) */
/* Session p went: when it held the delegation the failover begins. */
void	pcc_deleg_lost(struct pcc *, uint64_t now);
void	pcc_deleg_up(struct pcc *);
/* 1: p's PCE holds this PCC's delegated LSPs (always, with one PCE). */
int	pcc_is_delegate(const struct pcc *);
/* A PCUpd came from the delegate: the failover of this PCC is over. */
void	pcc_deleg_updated(struct pcc *, uint64_t now);

/* pcep_lspdb.c: the LSP database */
void	pcc_lsps_init(struct pcc *);
void	pcc_lsps_free(struct pcc *);
/* Session up: forget PCE-initiated LSPs (RFC 8281 5.7), sync again. */
void	pcc_lsps_reset(struct pcc *);
/* Build reports while the socket takes them; end-of-sync at the end. */
void	pcc_sync_fill(struct pcc *);
void	pcc_handle_update(struct pcc *, const struct rbuf *body);
void	pcc_handle_initiate(struct pcc *, const struct rbuf *body);
/* This session's PCE is the new delegate: D on our LSPs, each reported
 * to it (RFC 8231 5.7). */
void	pcc_lsps_delegate(struct pcc *);

/* pcep_fault.c: the --fault kinds of these devices (src/core/fault.h). */
extern const struct fault_kind pcep_fault_kinds[];

/* `sbsim pcep` (pcep_main.c). */
extern const struct sbsim_cmd pcep_cmd;

#endif
