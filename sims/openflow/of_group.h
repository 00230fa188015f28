/*
 * A switch's group table (OpenFlow 1.3.5 section 5.6) and GROUP_MOD
 * (section 7.3.4.2).  Buckets are kept as the controller sent them, so a
 * GROUP_DESC reads back byte-identical; the table exists only once a
 * switch has taken its first group.
 */
#ifndef OF_GROUP_H
#define OF_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "of_actions.h"	/* OF_GROUP_ALL, OF_GROUP_ANY */
#include "of_types.h"

/* enum ofp_group_mod_command and enum ofp_group_type (7.3.4.2). */
#define OF_GC_ADD		0
#define OF_GC_MODIFY		1
#define OF_GC_DELETE		2
#define OF_GT_ALL		0
#define OF_GT_SELECT		1
#define OF_GT_INDIRECT		2
#define OF_GT_FF		3

struct of_group_mod {
	uint16_t	 command;
	uint8_t		 type;
	uint32_t	 group_id;
	const uint8_t	*buckets;	/* points into the message */
	size_t		 buckets_len;
	uint32_t	 command_bucket_id;	/* 1.5 (of_group15.c) */
};

/* One group as the multiparts see it. */
struct of_group_info {
	uint32_t	 group_id;
	uint8_t		 type;
	uint32_t	 n_buckets;
	uint32_t	 ref_count;	/* flows and groups that name it */
	uint32_t	 duration_sec;
	uint32_t	 duration_nsec;
	const uint8_t	*buckets;
	size_t		 buckets_len;
	/* NULL: no packet yet, all 0; else OF_GROUP_COUNTERS(n_buckets):
	 * the group's packets and bytes, then each bucket's. */
	const uint64_t	*counters;
};
#define OF_GROUP_COUNTERS(n)	(2 * ((size_t)(n) + 1))
/* However a table was put together, no walk goes deeper (--max-group-depth
 * is at most this). */
#define OF_GROUP_DEPTH_MAX	64

struct of_groups;

/* The body of a GROUP_MOD after its ofp_header; its first 8 bytes,
 * the part 1.5 keeps. */
int	 of_group_mod_decode(struct rbuf *, struct of_group_mod *,
	    enum of_err *);
void	 of_group_mod_head_get(struct rbuf *, struct of_group_mod *);
int	 of_group_mod_encode(struct wbuf *, uint32_t xid,
	    const struct of_group_mod *);

/* What a GROUP_MOD is checked against. */
struct of_group_limits {
	uint32_t	 n_ports;
	uint32_t	 max_groups;
	uint32_t	 max_depth;	/* groups on one chain, --max-group-depth */
};
/* Called by a DELETE, before a group goes, for each group deleted that
 * flows name: they go with it (of_groups_flow() gives them one by one). */
typedef void	(*of_group_deleted_cb)(void *arg, uint32_t group_id);

/*
 * Apply a decoded GROUP_MOD to *gt (made on the first ADD): 0, or -1 with
 * *err and the table unchanged.
 */
int	 of_groups_apply(struct of_groups **gt, const struct of_group_mod *,
	    const struct of_group_limits *, uint64_t now_ns,
	    of_group_deleted_cb, void *arg, enum of_err *err);
int	 of_groups_has(const struct of_groups *, uint32_t group_id);
/* The hooks that keep each group's list of the flows naming it (set on
 * the switch's flow table once it has a group table), and the first flow
 * on group_id's list (a handle for of_flowtable_remove()), or NULL. */
struct of_ft_refs;
const struct of_ft_refs *of_groups_ft_refs(struct of_groups *);
void	*of_groups_flow(const struct of_groups *, uint32_t group_id);
uint32_t of_groups_count(const struct of_groups *);
/* Visit every group (want == OF_GROUP_ALL) or the one named. */
void	 of_groups_walk(const struct of_groups *, uint32_t want,
	    uint64_t now_ns, void (*fn)(void *, struct of_group_info *),
	    void *arg);
void	 of_groups_free(struct of_groups *);
/* A copy in the same order (a bundle's commit keeps one to put back). */
struct of_groups *of_groups_clone(const struct of_groups *);

/* A packet sent to groups (a PACKET_OUT's GROUP actions): what the
 * switch says about its ports and the packet, and where it went. */
struct of_group_packet {
	int		(*port_live)(void *arg, uint32_t port);
	void		*arg;
	uint32_t	 hash;		/* of the packet: a SELECT's bucket */
	uint32_t	 bytes;
	uint32_t	*ports;		/* out: the ports the buckets chose */
	size_t		 max;
	size_t		 n;
	uint32_t	 buckets_taken;	/* out */
	int		 truncated;	/* out: OF_GROUP_COPIES_MAX reached */
};
/* Buckets one packet may take through chained ALL groups (each a copy);
 * the rest are not taken (group_packets_truncated). */
#define OF_GROUP_COPIES_MAX	4096
/*
 * Send a packet through the groups an action list's GROUP actions name
 * (1.3.5 section 5.6.1): ALL every bucket, INDIRECT its one, SELECT one
 * by weight among the live, FAST_FAILOVER the first live (section 6.5:
 * its watched port up, its watched group live), chains followed; the
 * group and each bucket taken count the packet and its bytes.  Returns
 * the number of GROUP actions (0: none, nothing done), or -1 with
 * BAD_OUT_GROUP when one names a missing group (nothing sent).
 */
int	 of_groups_send(struct of_groups *, const uint8_t *acts, size_t len,
	    struct of_group_packet *, enum of_err *err);

#endif
