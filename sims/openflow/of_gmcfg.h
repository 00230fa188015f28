/*
 * The embedded controller's groups as OpenDaylight's openflowplugin keeps
 * them (opendaylight-group-types, flow-node-inventory:group): a config
 * datastore per node (openflow:DPID) pushed to its switch as GROUP_MODs
 * (OpenFlow 1.3.5 section 7.3.4.2) when written, deleted, or when the
 * switch (re)connects; and the switch's own view, read back with
 * GROUP_DESC and GROUP statistics (section 7.3.5.9, 7.3.5.10) on each
 * statistics poll, for the operational datastore.
 */
#ifndef SBSIM_OF_GMCFG_H
#define SBSIM_OF_GMCFG_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "doc.h"

#define GM_MAX_NAME	255	/* bytes of a group-name */
#define GM_MAX_BUCKETS	64	/* buckets of one group in a body */
#define GM_MAX_ACTIONS	16	/* actions of one bucket in a body */
#define GM_DEFAULT_MAX_GROUPS 4096	/* config groups per node */

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

/* One group of a GROUP_DESC reply and its GROUP statistics. */
struct gm_desc {
	uint32_t	 id;
	uint8_t		 type;
	const uint8_t	*buckets;	/* ofp_bucket list, into the reply */
	size_t		 buckets_len;
};
struct gm_gstats {
	uint32_t	 id;
	uint32_t	 ref_count;
	uint64_t	 packets;
	uint64_t	 bytes;
	uint32_t	 sec;
	uint32_t	 nsec;
	const uint8_t	*buckets;	/* ofp_bucket_counter list */
	size_t		 nbuckets;
};

struct gm_counters {
	uint64_t	bad_bodies;	/* refused with 400 */
	uint64_t	refused_full;	/* past max_groups */
	uint64_t	group_mods;	/* GROUP_MODs sent */
	uint64_t	switch_errors;	/* ERRORs answering them */
	uint64_t	bad_replies;	/* GROUP(_DESC) replies not decoded */
};

/* Pure: parse a group entry (id_leaf holds its id, "group-id"); NULL
 * with the field named in err.  The spec is the caller's to free. */
struct gm_spec *gm_parse(const struct doc_node *, char *err, size_t errlen);
/* Pure: the spec's buckets as ofp_buckets; 0 when they do not fit. */
size_t	 gm_buckets_wire(const struct gm_spec *, uint8_t *buf, size_t cap);
/* Pure: the next entry of a GROUP_DESC / GROUP reply: 1, 0 at the end,
 * -1 malformed. */
int	 gm_desc_next(struct rbuf *, struct gm_desc *);
int	 gm_gstats_next(struct rbuf *, struct gm_gstats *);
/* "group-select" ... for OF_GT_*, and back (-1: none). */
const char *gm_type_name(uint8_t type);
int	 gm_type_parse(const char *, uint8_t *type);

/* Hooks of the OpenFlow role, called from of_flowcfg.c's. */
void	 gm_connected(uint64_t dpid, uint8_t version);
void	 gm_poll(uint64_t dpid);
void	 gm_mp_reply(uint64_t dpid, int mp, uint16_t flags, uint32_t xid,
	    struct rbuf *entries, void *arg);
void	 gm_error(uint64_t dpid, uint32_t xid, uint16_t type, uint16_t code,
	    void *arg);
void	 gm_stop(void);
void	 gm_set_max_groups(uint32_t);
const struct gm_counters *gm_counters(void);

/* The config datastore.  gm_put: 1 created, 0 replaced, -1 the node is
 * full (*err set); the spec is taken.  gm_delete: -1 none. */
int	 gm_put(uint64_t dpid, struct gm_spec *);
int	 gm_delete(uint64_t dpid, uint32_t id);
/* Push without keeping it (sal-group): OF_GC_* command. */
void	 gm_rpc_push(uint64_t dpid, const struct gm_spec *, uint16_t cmd);

/* Reads.  gm_config_count: the node's config groups.  gm_has: the
 * config (oper 0) or the switch's view (oper 1; 2: with its
 * statistics) holds group id.
 * gm_render_list: a "group" list of the node's config groups or of
 * those its switch reported (nothing when there are none), or (one)
 * the entry of id alone; gm_render_stats: the group-statistics
 * container of one reported group. */
uint32_t gm_config_count(uint64_t dpid);
int	 gm_has(uint64_t dpid, int oper, uint32_t id);
void	 gm_render_list(struct doc_writer *, uint64_t dpid, int oper,
	    int one, uint32_t id);
void	 gm_render_stats(struct doc_writer *, uint64_t dpid, uint32_t id);
/* RESTCONF under a node: .../node/N/group[/ID] (of_restconf.c). */
struct rc_req;
void	 gm_restconf(struct rc_req *);
/* A body or input refused (400). */
void	 gm_count_bad_body(void);
/* sal-group: add-group, update-group, remove-group. */
struct http_server;
void	 gm_rpc_register(struct http_server *);

#endif
