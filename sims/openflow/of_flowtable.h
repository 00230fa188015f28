/*
 * A switch's flow tables: what FLOW_MOD changes and the stats read.
 *
 * Entries are keyed by (table, priority, canonical match) in a hash for the
 * strict commands and ADD; the non-strict commands and stats walk a table.
 * Memory per flow is one allocation: the entry, its match bytes and its
 * instruction (1.3) or action (1.0) bytes.  Time is monotonic nanoseconds.
 */
#ifndef SBSIM_OF_FLOWTABLE_H
#define SBSIM_OF_FLOWTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "of_match.h"
#include "of_types.h"

#define OF_TABLE_ALL	0xff

/* FLOW_MOD commands, same numbers in 1.0 and 1.3. */
#define OF_FC_ADD		0
#define OF_FC_MODIFY		1
#define OF_FC_MODIFY_STRICT	2
#define OF_FC_DELETE		3
#define OF_FC_DELETE_STRICT	4

/* FLOW_MOD flags in 1.3 numbering; the 1.0 decoder maps them. */
#define OF_FF_SEND_FLOW_REM	0x0001
#define OF_FF_CHECK_OVERLAP	0x0002
#define OF_FF_RESET_COUNTS	0x0004
#define OF_FF_NO_PKT_COUNTS	0x0008
#define OF_FF_NO_BYT_COUNTS	0x0010
#define OF_FF_EMERG		0x8000	/* 1.0 only; refused */

/* FLOW_REMOVED reasons, same numbers in 1.0 and 1.3. */
#define OF_RR_IDLE_TIMEOUT	0
#define OF_RR_HARD_TIMEOUT	1
#define OF_RR_DELETE		2
#define OF_RR_GROUP_DELETE	3	/* 1.3 only */

struct of_flow_mod {
	uint64_t	 cookie;
	uint64_t	 cookie_mask;	/* 1.3; 0 in 1.0 */
	uint8_t		 table_id;	/* 0 in 1.0 */
	uint8_t		 command;	/* OF_FC_* */
	uint16_t	 idle_timeout;
	uint16_t	 hard_timeout;
	uint16_t	 priority;
	uint32_t	 buffer_id;
	uint32_t	 out_port;	/* 32-bit form, OF_PORT_ANY = none */
	uint32_t	 out_group;	/* OF_GROUP_ANY in 1.0 */
	uint16_t	 flags;		/* OF_FF_* */
	struct of_match	 match;
	const uint8_t	*prog;		/* points into the message */
	size_t		 prog_len;
};

/* What a stats request or a non-strict delete selects. */
struct of_flow_filter {
	uint8_t		 table_id;	/* OF_TABLE_ALL for all */
	uint32_t	 out_port;	/* OF_PORT_ANY: no filter */
	uint32_t	 out_group;	/* OF_GROUP_ANY: no filter */
	uint64_t	 cookie;
	uint64_t	 cookie_mask;	/* 0: no filter */
	struct of_match	 match;		/* non-strict: covers */
};

/* One flow as the stats and FLOW_REMOVED see it. */
struct of_flow_info {
	uint8_t			 table_id;
	uint16_t		 priority;
	uint16_t		 idle_timeout;
	uint16_t		 hard_timeout;
	uint16_t		 flags;
	uint64_t		 cookie;
	uint64_t		 packet_count;
	uint64_t		 byte_count;
	uint32_t		 duration_sec;
	uint32_t		 duration_nsec;
	uint8_t			 reason;	/* FLOW_REMOVED only */
	const struct of_match	*match;
	const uint8_t		*prog;
	size_t			 prog_len;
};

struct of_flowtable;

struct of_ft_result {
	uint32_t	added;
	uint32_t	modified;
	uint32_t	deleted;
};

/* Called for each flow removed with OF_FF_SEND_FLOW_REM set. */
typedef void	(*of_flow_removed_cb)(void *arg, const struct of_flow_info *);
/* Called for each selected flow; return non-zero to stop the walk. */
typedef int	(*of_flow_visit_cb)(void *arg, const struct of_flow_info *);

struct of_flowtable *of_flowtable_new(uint8_t version, uint8_t n_tables,
	    uint32_t max_per_table);
void	 of_flowtable_free(struct of_flowtable *);

/*
 * Apply a decoded FLOW_MOD (OpenFlow 1.3 section 6.4; 1.0 section 4.6):
 * ADD replaces an identical entry (keeping counters unless RESET_COUNTS)
 * or refuses an overlap when CHECK_OVERLAP is set, MODIFY changes the
 * instructions and cookie of matching entries (and adds, in 1.0, when
 * none match), DELETE removes them honouring out_port, out_group and the
 * cookie mask.  Returns 0, or -1 with *err (table full, bad table id,
 * overlap, bad command, bad flags).
 */
int	 of_flowtable_apply(struct of_flowtable *, const struct of_flow_mod *,
	    uint64_t now_ns, of_flow_removed_cb, void *arg,
	    struct of_ft_result *, enum of_err *err);
/* Visit flows selected by a stats request (non-strict). */
int	 of_flowtable_walk(struct of_flowtable *, const struct of_flow_filter *,
	    uint64_t now_ns, of_flow_visit_cb, void *arg);
void	 of_flowtable_aggregate(struct of_flowtable *,
	    const struct of_flow_filter *, uint64_t *packets, uint64_t *bytes,
	    uint32_t *flows);
uint32_t of_flowtable_count(const struct of_flowtable *, uint8_t table_id);
uint64_t of_flowtable_total(const struct of_flowtable *);
/* What of_flowtable_new() made (n_tables at least 1).  No traffic is
 * simulated, so a table has no lookup or matched counts. */
struct of_ft_shape {
	uint8_t		version;
	uint8_t		n_tables;
	uint32_t	max_per_table;
};
struct of_ft_shape of_flowtable_shape(const struct of_flowtable *);
/* Expire idle and hard timeouts (no traffic: idle counts from install). */
int	 of_flowtable_expire(struct of_flowtable *, uint64_t now_ns,
	    of_flow_removed_cb, void *arg);
/* Earliest expiry time, or 0 when no flow has a timeout. */
uint64_t of_flowtable_next_expiry(const struct of_flowtable *);
/* Remove every flow (all tables) whose program pred accepts, FLOW_REMOVED
 * with reason (a meter's flows when it goes); returns how many. */
typedef int	(*of_prog_pred)(void *arg, const uint8_t *prog, size_t len);
uint32_t of_flowtable_remove_if(struct of_flowtable *, of_prog_pred,
	    void *parg, uint8_t reason, uint64_t now_ns, of_flow_removed_cb,
	    void *arg);

#endif
