/*
 * Nicira TLV table (Open vSwitch's tun-metadata.c, nicira-ext.h): the
 * mapping of Geneve option class, type and length to the fields
 * NXM_NX_TUN_METADATA0 to 63, which NXT_TLV_TABLE_MOD changes and
 * NXT_TLV_TABLE_REQUEST reads.  One map per switch (its owner
 * connection's), made on the first ADD: a switch that never maps costs
 * one NULL pointer.  Limits are Open vSwitch's (TUN_METADATA_NUM_OPTS,
 * TUN_METADATA_TOT_OPT_SIZE, TLV_MAX_OPT_SIZE).
 */
#ifndef SBSIM_OF_NX_TLV_H
#define SBSIM_OF_NX_TLV_H

#include <stdint.h>

#include "buf.h"
#include "of_types.h"

#define NX_TLV_FIELDS		64	/* tun_metadata0..63 */
#define NX_TLV_SPACE		256	/* option bytes all mappings share */
#define NX_TLV_OPT_MAX		124	/* one option's bytes */
#define NX_TLV_TUN_FIELD0	40	/* NXM_NX_TUN_METADATA0's field */

struct of_ctx;
struct of_flowtable;
struct of_switch;

struct nx_tlv_entry {
	uint16_t	cls;
	uint8_t		type;
	uint8_t		len;		/* bytes, a multiple of 4 */
	uint8_t		valid;
};

struct nx_tlv_map {
	unsigned		space;	/* sum of the valid entries' len */
	struct nx_tlv_entry	e[NX_TLV_FIELDS];
};

/* NXT_TLV_TABLE_MOD and NXT_TLV_TABLE_REQUEST (of_nx.c dispatches). */
void	 of_nx_tlv_mod(const struct of_ctx *, struct rbuf *);
void	 of_nx_tlv_request(const struct of_ctx *, struct rbuf *);

/*
 * An nx_tlv_table_mod body (after vendor and subtype) applied to map:
 * all of it or, -1 with *err, nothing.  ft (may be NULL): the flows
 * whose matches keep a mapping from going.
 */
int	 of_nx_tlv_table_mod(struct nx_tlv_map *map, struct of_flowtable *ft,
	    struct rbuf *body, enum of_err *err);
/* NXT_TLV_TABLE_REPLY for map (NULL: nothing mapped). */
int	 of_nx_tlv_reply_encode(struct wbuf *, uint8_t version, uint32_t xid,
	    const struct nx_tlv_map *map);

/* The map the match and action checks of the message being handled use
 * (of_handle binds the switch's before each message; NULL: none). */
void	 of_nx_tlv_bind(const struct nx_tlv_map *);
/* Bytes tun_metadata<idx> is mapped to in the bound map; -1 unmapped. */
int	 of_nx_tlv_len(unsigned idx);
void	 of_nx_tlv_free(struct nx_tlv_map *);

#endif
