/*
 * The embedded controller's groups and meters as OpenDaylight's
 * openflowplugin keeps them (opendaylight-group-types and -meter-types,
 * flow-node-inventory:group and :meter): a config datastore per node
 * (openflow:DPID) pushed to its switch as GROUP_MODs and METER_MODs
 * (OpenFlow 1.3.5 sections 7.3.4.2, 7.3.4.4) when written, deleted, or
 * when the switch (re)connects; and the switch's own view, read back with
 * GROUP_DESC and GROUP statistics, METER_CONFIG and METER statistics
 * (7.3.5.9-10, 7.3.5.13-14) on each statistics poll, for the operational
 * one.  of_gmparse.c reads bodies, of_gmwire.c the wire, of_gmcfg.c
 * holds the store, of_gmrest.c serves RESTCONF and the RPCs.
 */
#ifndef SBSIM_OF_GMCFG_H
#define SBSIM_OF_GMCFG_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "doc.h"

enum gm_kind {
	GM_GROUP,
	GM_METER,
	GM_KINDS
};

#define GM_MAX_NAME	255	/* bytes of a group-name or meter-name */
#define GM_MAX_BUCKETS	64	/* buckets of one group in a body */
#define GM_MAX_ACTIONS	16	/* actions of one bucket in a body */
#define GM_MAX_BANDS	8	/* bands of one meter (OF_METER_MAX_BANDS) */
#define GM_DEFAULT_MAX	4096	/* config groups (meters) per node */
#define GM_GROUP_MAX	0xffffff00u	/* OFPG_MAX (7.3.4.2) */
#define GM_METER_MAX	0xffff0000u	/* OFPM_MAX (7.3.4.4) */

enum gm_act_kind {
	GM_ACT_OUTPUT,
	GM_ACT_GROUP,
};

struct gm_action {
	uint8_t		kind;
	uint16_t	order;
	uint16_t	max_len;	/* output */
	uint32_t	arg;		/* port, or group id */
};

struct gm_bucket {
	uint32_t		id;
	uint16_t		weight;
	uint32_t		watch_port;
	uint32_t		watch_group;
	uint8_t			nact;
	struct gm_action	act[GM_MAX_ACTIONS];
};

/* A group as a body gave it; nb buckets follow. */
struct gm_spec {
	uint32_t		id;
	uint8_t			type;		/* OF_GT_* */
	char			name[GM_MAX_NAME + 1];
	uint32_t		nb;
	struct gm_bucket	b[];
};

struct gm_band {
	uint32_t	id;
	uint16_t	type;		/* OF_MBT_* */
	uint32_t	rate;
	uint32_t	burst;
	uint8_t		prec;		/* DSCP_REMARK */
};

/* A meter as a body gave it. */
struct gm_mspec {
	uint32_t	id;
	uint16_t	flags;		/* OF_MF_* */
	char		name[GM_MAX_NAME + 1];
	uint32_t	nb;
	struct gm_band	b[GM_MAX_BANDS];
};

/* One entry of a GROUP_DESC or METER_CONFIG reply (type: the group's
 * type, or the meter's flags) and of a GROUP or METER statistics reply
 * (refs: ref_count, or flow_count; counters: 16 bytes a bucket or band,
 * packets then bytes). */
struct gm_desc {
	uint32_t	 id;
	uint16_t	 type;
	const uint8_t	*blob;		/* ofp_buckets or bands, in the reply */
	size_t		 len;
};
struct gm_gstats {
	uint32_t	 id;
	uint32_t	 refs;
	uint64_t	 packets;
	uint64_t	 bytes;
	uint32_t	 sec;
	uint32_t	 nsec;
	const uint8_t	*counters;
	size_t		 ncounters;
};

struct gm_counters {
	uint64_t	bad_bodies;	/* refused with 400 */
	uint64_t	refused_full;	/* past the node's bound */
	uint64_t	mods;		/* GROUP_MODs / METER_MODs sent */
	uint64_t	switch_errors;	/* ERRORs answering them */
	uint64_t	bad_replies;	/* replies not decoded */
};

/* Pure (of_gmparse.c): a group or meter entry of a body or RPC input;
 * NULL with the field named in err, the spec the caller's to free. */
struct gm_spec	*gm_parse(const struct doc_node *, char *err, size_t errlen);
struct gm_mspec	*gm_mparse(const struct doc_node *, char *err,
		    size_t errlen);
void		*gm_parse_kind(enum gm_kind, const struct doc_node *,
		    uint32_t *id, char *err, size_t errlen);
const char	*gm_type_name(uint8_t type);
/* The meter flags as openflowplugin writes them ("meter-kbps
 * meter-burst"), and a band type's name ("ofpmbt-drop"). */
void		 gm_mflags_text(uint16_t flags, char *s, size_t cap);
const char	*gm_band_name(uint16_t type);

/* Pure (of_gmwire.c): the spec's buckets as ofp_buckets, its bands as
 * ofp_meter_bands (0 when they do not fit); the next entry of a reply:
 * 1, 0 at the end, -1 malformed. */
size_t	 gm_buckets_wire(const struct gm_spec *, uint8_t *buf, size_t cap);
size_t	 gm_bands_wire(const struct gm_mspec *, uint8_t *buf, size_t cap);
int	 gm_desc_next(struct rbuf *, struct gm_desc *);
int	 gm_gstats_next(struct rbuf *, struct gm_gstats *);
int	 gm_mconfig_next(struct rbuf *, struct gm_desc *);
int	 gm_mstats_next(struct rbuf *, struct gm_gstats *);
/* A reported group's buckets (numbered from 0, as openflowplugin
 * numbers them) or meter's bands; their number. */
uint32_t gm_wire_buckets(const uint8_t *, size_t, struct gm_bucket *out);
uint32_t gm_wire_bands(const uint8_t *, size_t, struct gm_band *out);

/* Hooks of the OpenFlow role, called from of_flowcfg.c's. */
void	 gm_connected(uint64_t dpid, uint8_t version);
void	 gm_poll(uint64_t dpid);
void	 gm_mp_reply(uint64_t dpid, int mp, uint16_t flags, uint32_t xid,
	    struct rbuf *entries, void *arg);
void	 gm_error(uint64_t dpid, uint32_t xid, uint16_t type, uint16_t code,
	    void *arg);
void	 gm_stop(void);
void	 gm_set_max(enum gm_kind, uint32_t);
const struct gm_counters *gm_counters(enum gm_kind);
void	 gm_count_bad_body(enum gm_kind);

/* The config datastore.  gm_put takes the spec: 1 created, 0 replaced,
 * -1 the node is full (spec not taken).  gm_delete: -1 none. */
int	 gm_put(enum gm_kind, uint64_t dpid, uint32_t id, void *spec);
int	 gm_delete(enum gm_kind, uint64_t dpid, uint32_t id);
/* Every config group and meter of a node, or of every node (CSIT's
 * cleanup): each leaves its switch; the number deleted. */
uint32_t gm_delete_node(uint64_t dpid);
uint32_t gm_delete_all(void);
/* Push without keeping it (sal-group, sal-meter): the OF_GC_* (equal to
 * OF_MC_*) command, then a barrier.  The MOD's xid (0: not sent, the
 * switch's version has none) and in *barrier_xid the barrier's. */
uint32_t gm_rpc_push(enum gm_kind, uint64_t dpid, const void *spec,
	    uint16_t cmd, uint32_t *barrier_xid);

/*
 * The sal-group and sal-meter replies wait for the switch (of_gmwait.c):
 * gm_wait_add defers h until the ERROR for mod_xid (500 with the
 * switch's error), the BARRIER_REPLY for barrier_xid (the output, with
 * the transaction-id), or --rpc-timeout (500).  gm_wait_error: 1 when
 * the ERROR answered a wait.  gm_wait_barrier is the of_ctl hook.
 */
#define GM_RPC_TIMEOUT	10.0	/* seconds, --rpc-timeout */
struct gm_wait_counters {
	uint64_t	answered;	/* after the barrier */
	uint64_t	refused;	/* with the switch's error */
	uint64_t	timeouts;	/* past --rpc-timeout */
};
struct http_req;
void	 gm_wait_add(struct http_req *, int rfc8040, enum gm_kind,
	    uint64_t dpid, uint32_t mod_xid, uint32_t barrier_xid);
int	 gm_wait_error(uint64_t dpid, uint32_t xid, uint16_t type,
	    uint16_t code);
void	 gm_wait_barrier(uint64_t dpid, uint32_t xid, void *arg);
void	 gm_wait_set_timeout(double secs);
const struct gm_wait_counters *gm_wait_counters(enum gm_kind);
void	 gm_wait_stop(void);

/* Reads.  gm_config_count: the node's config groups (meters).  gm_has:
 * the config (oper 0) or the switch's view (1; 2: with statistics)
 * holds id.  gm_render_list: the "group" ("meter") list of the node's
 * config or of what its switch reported (nothing when empty), or (one)
 * the entry of id alone; gm_render_stats: the statistics container of
 * one reported entry. */
uint32_t gm_config_count(enum gm_kind, uint64_t dpid);
int	 gm_has(enum gm_kind, uint64_t dpid, int oper, uint32_t id);
void	 gm_render_list(enum gm_kind, struct doc_writer *, uint64_t dpid,
	    int oper, int one, uint32_t id);
void	 gm_render_stats(enum gm_kind, struct doc_writer *, uint64_t dpid,
	    uint32_t id);
/* "group" or "meter"; the statistics container's name. */
const char *gm_kind_name(enum gm_kind);
const char *gm_stats_name(enum gm_kind);

/* RESTCONF under a node: .../node/N/group[/ID] or meter (of_restconf.c). */
struct rc_req;
void	 gm_restconf(struct rc_req *, enum gm_kind);
/* sal-group and sal-meter: add-, update-, remove-group (meter). */
struct http_server;
void	 gm_rpc_register(struct http_server *);

#endif
