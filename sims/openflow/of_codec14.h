/*
 * What OpenFlow 1.4 (0x05) and 1.5 (0x06) change in the messages sbsim
 * shares with 1.3: property lists (ports, port stats, PORT_MOD, async
 * configuration), 1.5's OXS statistics (flow description, flow stats,
 * aggregate) and 1.5's GROUP_MOD with bucket ids.  of_codec.c and
 * of_codec_mp.c call these where the version asks; the rest of sbsim
 * sees the version-neutral structs of of_codec.h.
 */
#ifndef SBSIM_OF_CODEC14_H
#define SBSIM_OF_CODEC14_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "of_codec.h"

/* ofp_port (1.4.1 A.2.1) with its ETHERNET property. */
void	 ofp14_port_encode(struct wbuf *, const struct of_port *);
int	 ofp14_port_decode(struct rbuf *, struct of_port *);

/* ofp_port_stats (1.4.1 A.3.5.7) with its ETHERNET property. */
void	 ofp14_port_stats_encode(struct wbuf *, const struct of_port_stats *);
int	 ofp14_port_stats_decode(struct rbuf *, struct of_port_stats *);

/* PORT_MOD body (1.4.1 A.3.4.3): its ETHERNET property's advertise. */
int	 ofp14_port_mod_decode(struct rbuf *, struct of_port_mod *,
	    enum of_err *);

/* GET_ASYNC_REPLY / SET_ASYNC as property lists (1.4.1 A.3.10): a
 * SET_ASYNC changes only the masks it names. */
void	 ofp14_async_put(struct wbuf *, uint8_t version,
	    const struct of_async *);
int	 ofp14_async_get(uint8_t version, struct rbuf *, struct of_async *,
	    enum of_err *);

/* 1.5.1 section 7.3.5.2: one ofp_flow_desc (OFPMP_FLOW_DESC), one
 * ofp_flow_stats (OFPMP_FLOW_STATS), and the aggregate reply's body; the
 * counts go as OXS fields in an ofp_stats (7.2.4). */
void	 ofp15_flow_desc_put(struct wbuf *, const struct of_flow_info *);
/* An of_mp_entry_fn: arg an of_flow_info, version 1.5. */
void	 ofp15_flow_stats_put(struct wbuf *, uint8_t version, const void *);
void	 ofp15_flow_removed_put(struct wbuf *, const struct of_flow_info *);
void	 ofp15_aggregate_put(struct wbuf *, uint64_t packets, uint64_t bytes,
	    uint32_t flows);
/* The controller's side of a flow description: fixed fields, match and
 * the ofp_stats skipped; the instructions are what is left. */
int	 ofp15_flow_desc_get(struct rbuf *, struct of_flow_info *,
	    struct of_match *);

/* 1.5 GROUP_MOD (1.5.1 section 7.3.4.2) into the 1.3 bucket form the
 * group table keeps, written to b13 (gm->buckets points there; twice the
 * message's size is enough), bucket ids in the pad; and a GROUP_DESC
 * entry from that form. */
struct of_group_mod;
struct of_group_info;
int	 of_group_mod15_decode(struct rbuf *, struct of_group_mod *,
	    struct wbuf *b13, enum of_err *);
/* An INSERT_BUCKET or REMOVE_BUCKET (1.5.1 section 7.3.4.2) made the
 * MODIFY that gives group gm->group_id of gt its new bucket list, built
 * in w: 0 (other commands: gm untouched), or -1 with *err. */
struct of_groups;
int	 of_group15_edit(const struct of_groups *, struct of_group_mod *,
	    struct wbuf *, enum of_err *);
void	 ofp15_group_desc_put(struct wbuf *, const struct of_group_info *);

/* A 1.5 TABLE_FEATURES request body: -1 (BAD_FEATURES) when it would
 * configure an egress table (1.5.1 section 7.3.5.18). */
int	 ofp15_table_features_check(struct rbuf *, enum of_err *);

/* Flow monitors (1.4.1 section 7.3.5.19): the request's command and
 * flags, and one monitor as a request gives it. */
#define OF_FMC_ADD		0
#define OF_FMC_MODIFY		1
#define OF_FMC_DELETE		2
#define OF_FMF_INITIAL		(1u << 0)
#define OF_FMF_ADD		(1u << 1)
#define OF_FMF_REMOVED		(1u << 2)
#define OF_FMF_MODIFY		(1u << 3)
#define OF_FMF_INSTRUCTIONS	(1u << 4)
#define OF_FMF_NO_ABBREV	(1u << 5)
#define OF_FMF_ONLY_OWN		(1u << 6)
struct of_monitor {
	uint32_t	id;
	uint32_t	out_port;
	uint32_t	out_group;
	uint16_t	flags;
	uint8_t		table_id;
	struct of_match	match;
};
int	 ofp14_flow_monitor_request_decode(struct rbuf *, struct of_monitor *,
	    uint8_t *command, enum of_err *);
/* One ofp_flow_update_full: event, the flow, its instructions or not
 * (as a session of version reads them: of_prog_put). */
void	 ofp14_flow_update_put(struct wbuf *, uint8_t version, uint16_t event,
	    const struct of_flow_info *, int instructions);

/* TABLE_MOD (1.4.1 A.3.3), a table's description (A.3.5.6) and
 * TABLE_STATUS (A.4.4). */
struct of_table_mod14 {
	uint8_t		table_id;
	uint32_t	config;
	int		has_vacancy;
	uint8_t		down, up;
};
struct of_table_desc {
	uint8_t		table_id;
	uint32_t	config;
	uint8_t		down, up, vacancy;
};
int	 ofp14_table_mod_decode(struct rbuf *, struct of_table_mod14 *,
	    enum of_err *);
/* An of_mp_entry_fn: arg an of_table_desc, version 1.4 or later. */
void	 ofp14_table_desc_put(struct wbuf *, uint8_t version, const void *);
int	 ofp14_table_status_encode(struct wbuf *, uint8_t version,
	    uint8_t reason, const struct of_table_desc *);

/* 1.4.1 A.4.6 REQUESTFORWARD: msg is the whole request. */
int	 ofp14_requestforward_encode(struct wbuf *, uint8_t version,
	    const uint8_t *msg, size_t len);

/* 1.4.1 A.4.5 ROLE_STATUS body: role, reason, pad, generation id. */
int	 ofp14_role_status_encode(struct wbuf *, uint8_t version,
	    uint32_t role, uint8_t reason, uint64_t generation);

/* 1.4 and 1.5 error codes that 1.3 lacks: 1 and *type, *code set, or 0
 * when the 1.3 numbering holds. */
int	 of_err14_to_wire(uint8_t version, enum of_err, uint16_t *type,
	    uint16_t *code);

#endif
