/*
 * The embedded controller's stateful PCE (RFC 5440, 8231, 8281): accepts
 * PCCs on one port (told apart by address), keeps each PCC's LSP database
 * from its PCRpts (synchronization to the end-of-sync marker, updates,
 * removals), sends PCUpd and PCInitiate for the northbound (pcep_restconf.c)
 * and answers it when the PCC's PCRpt (or PCErr) comes back, and can
 * update every delegated LSP itself once a PCC is synchronized.
 */
#ifndef SBSIM_PCEP_CTL_H
#define SBSIM_PCEP_CTL_H

#include <sys/queue.h>
#include <sys/socket.h>

#include <stdint.h>

#include <event2/util.h>

#include "endpoint.h"
#include "metrics.h"
#include "pcep_codec.h"
#include "ut.h"

struct pcep_ctl_config {
	struct endpoint	listen;
	uint8_t		keepalive;
	uint8_t		deadtimer;
	uint32_t	update_all;	/* PCUpds in flight per PCC, 0: off */
	double		op_timeout;	/* seconds a northbound op may wait */
	const char	*md5;		/* TCP-MD5 key, NULL: none */
	int		bsid_alloc;	/* PCUpds allocate binding SIDs */
};

struct pcep_ctl_stats {
	uint64_t	sessions;		/* ever up */
	uint64_t	up;			/* now */
	uint64_t	pccs_synced;		/* end-of-sync received */
	uint64_t	reports_received;	/* PCRpt messages */
	uint64_t	lsps_learned;		/* LSPs new to the database */
	uint64_t	lsps_removed;
	uint64_t	updates_sent;
	uint64_t	updates_acked;
	uint64_t	update_errors;
	uint64_t	initiates_sent;
	uint64_t	removes_sent;
	uint64_t	pcerr_sent;
	uint64_t	pcerr_received;
	uint64_t	bad_messages;
	uint64_t	second_sessions;	/* refused: RFC 5440 7.15 */
	/* ASSOCIATION objects in reports (RFC 8697), by type; unknown
	 * types answered with PCErr 26/1; past PCEP_ASSOC_MAX per LSP. */
	uint64_t	assoc_protection, assoc_disjoint, assoc_sr_policy;
	uint64_t	assoc_unsupported, assoc_skipped;
	/* TE-PATH-BINDING (RFC 9604) in reports: MPLS, SRv6, past the
	 * first of an LSP (not kept). */
	uint64_t	bsid_mpls, bsid_srv6, bsid_skipped;
	/* --pcep-bsid-alloc: labels sent in PCUpds, reported back. */
	uint64_t	bsids_allocated, bsids_confirmed;
	uint64_t	first_report_ns;
	uint64_t	last_learn_ns;
	uint64_t	last_sync_ns;
	uint64_t	first_update_ns;
	uint64_t	last_ack_ns;
	struct hist	update_latency;		/* PCUpd to PCRpt, us */
};

/*
 * One session's figures as OpenDaylight's pcep-session-state has them
 * (network-pcep-topology-stats, odl-pcep-stateful-stats): messages
 * counted once the session is up, Keepalives not; times in seconds since
 * the epoch; errors as (type, value).
 */
struct pcep_ctl_sess_stats {
	uint64_t	rx_msgs, tx_msgs;
	uint64_t	rx_errors, tx_errors;
	uint64_t	rx_reports;
	uint64_t	tx_updates, tx_initiates;
	uint64_t	unknown_msgs;
	uint64_t	last_tx_s, last_report_s;
	uint8_t		last_rx_error[2], last_tx_error[2];
	uint64_t	reply_n, reply_sum_ms, reply_min_ms, reply_max_ms;
	uint64_t	up_ns;			/* when the session came up */
	uint32_t	local_addr;		/* ours on the session */
	uint8_t		local_sid, peer_sid;
	uint8_t		local_keepalive, local_deadtimer;
};

/* One hop of a path: an IPv4 prefix or an SR-ERO with an IPv4 NAI. */

#define PCEP_CTL_HOPS_MAX	PCEP_ERO_MAX
struct pcep_ctl_path {
	uint8_t		n;
	struct pcep_hop_rec	hop[PCEP_CTL_HOPS_MAX];
};

struct pcep_ctl_lsp {
	UT_hash_handle	 hh_id;		/* the session's by_id, by_name */
	UT_hash_handle	 hh_name;
	uint32_t	 plsp_id;
	uint32_t	 upd_srp;	/* update-all PCUpd in flight */
	uint16_t	 flags;		/* LSP object flags as reported */
	uint8_t		 lsp_obj_flags;	/* the objects' P and I (RFC 5440 */
	uint8_t		 ero_obj_flags;	/* section 7.2), as reported */
	uint8_t		 oper;
	uint8_t		 pst;		/* path setup type */
	uint8_t		 has_ids;
	uint8_t		 has_dbv;
	uint8_t		 nhops;
	uint8_t		 no_auto;	/* learned after sync: update-all skips */
	uint16_t	 tunnel_id;
	uint16_t	 lsp_id;
	uint32_t	 sender;
	uint32_t	 endpoint;
	uint32_t	 ext_id;
	uint64_t	 dbv;
	uint64_t	 upd_ns;	/* when that PCUpd went */
	float		 bandwidth;
	struct pcep_hop_rec	*hops;
	char		*name;
	uint32_t	 idx;		/* in the session's vector */
	uint8_t		 n_assoc;
	struct pcep_assoc	*assoc;	/* its groups (pcep_assoc.c) */
	struct pcep_bsid	*bsid;	/* its binding SID, NULL: none */
	uint32_t	 alloc_label;	/* the PCE's allocation, 0: none */
};

/* A northbound operation waiting for the PCC: status 0 the PCRpt came,
 * 1 a PCErr (em), -1 the session went or the time ran out. */
typedef void (*pcep_ctl_op_cb)(void *arg, int status,
	    const struct pcep_errmsg *);

struct pcep_ctl_op {
	TAILQ_ENTRY(pcep_ctl_op)	 entry;
	uint32_t		 srp_id;
	uint64_t		 deadline_ns;
	pcep_ctl_op_cb		 cb;
	void			*arg;
};
TAILQ_HEAD(pcep_ctl_ops, pcep_ctl_op);

struct pcep_ctl_sess;

/* The defaults: RFC 5440 section 7.3's Keepalive and DeadTimer. */
extern const struct pcep_ctl_config pcep_ctl_config_default;
int	 pcep_ctl_start(const struct pcep_ctl_config *, char *err,
	    size_t errlen);
void	 pcep_ctl_stop(void);
/* The session of a PCC connected on fd (pcep_ctl_start's listener calls
 * it for each connection; a test may hand it one end of a socketpair). */
void	 pcep_ctl_attach(evutil_socket_t fd, const struct sockaddr *,
	    socklen_t);
const struct pcep_ctl_stats *pcep_ctl_stats(void);

/* Walk the sessions that are up; NULL at the end. */
struct pcep_ctl_sess *pcep_ctl_sess_next(struct pcep_ctl_sess *);
/* By node id "pcc://IP" (or the bare IP); NULL when not up. */
struct pcep_ctl_sess *pcep_ctl_sess_find(const char *node);
uint32_t pcep_ctl_sess_addr(const struct pcep_ctl_sess *);
int	 pcep_ctl_sess_synced(const struct pcep_ctl_sess *);
/* The PCC's stateful flags (PCEP_STATEFUL_*). */
uint32_t pcep_ctl_sess_stateful(const struct pcep_ctl_sess *);
uint32_t pcep_ctl_sess_lsp_count(const struct pcep_ctl_sess *);
const struct pcep_ctl_sess_stats *
	 pcep_ctl_sess_stats(const struct pcep_ctl_sess *);
/* The PCC's keepalive and dead timer from its Open. */
void	 pcep_ctl_sess_peer_timers(const struct pcep_ctl_sess *,
	    uint8_t *keepalive, uint8_t *deadtimer);
/* The i-th LSP of the database (0..count-1). */
struct pcep_ctl_lsp *pcep_ctl_sess_lsp(const struct pcep_ctl_sess *,
	    uint32_t i);
struct pcep_ctl_lsp *pcep_ctl_lsp_by_name(const struct pcep_ctl_sess *,
	    const char *);

/* Northbound operations (ODL's update-lsp, add-lsp, remove-lsp): 0 sent,
 * cb called later; -1 with err when it could not be sent. */
int	 pcep_ctl_update_lsp(struct pcep_ctl_sess *, struct pcep_ctl_lsp *,
	    const struct pcep_ctl_path *, int delegate, int admin,
	    pcep_ctl_op_cb, void *arg, char *err, size_t errlen);
int	 pcep_ctl_add_lsp(struct pcep_ctl_sess *, const char *name,
	    uint32_t src, uint32_t dst, const struct pcep_ctl_path *, int sr,
	    pcep_ctl_op_cb, void *arg, char *err, size_t errlen);
int	 pcep_ctl_remove_lsp(struct pcep_ctl_sess *, struct pcep_ctl_lsp *,
	    pcep_ctl_op_cb, void *arg, char *err, size_t errlen);

/* The embedded controller's PCE as a role (pcep_role.c). */
extern const struct ctl_role pcep_ctl_role;

#endif
