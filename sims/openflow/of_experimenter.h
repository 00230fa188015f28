/*
 * EXPERIMENTER messages and multiparts (OpenFlow 1.3.5 sections 7.5.4
 * and 7.3.5.16; 1.0's VENDOR, section 5.5.4): one row per experimenter id
 * in of_experimenter.c, so an extension (Nicira's, ONF's) is a file and a
 * row.  An id with no row is refused with BAD_REQUEST/BAD_EXPERIMENTER.
 */
#ifndef OF_EXPERIMENTER_H
#define OF_EXPERIMENTER_H

#include <stdint.h>

#include "buf.h"
#include "of_types.h"

struct of_switch;
struct of_header;

/* One message as a handler sees it (of_handlers.c). */
struct of_ctx {
	struct of_switch		*sw;
	const struct of_header		*h;
	struct rbuf			*body;	/* after the ofp_header */
	const uint8_t			*msg;	/* the whole message */
};

/* The ERROR for c's message, quoting it. */
void	 of_refuse(const struct of_ctx *c, enum of_err err);
/* A decoded FLOW_MOD (fm NULL: decoding failed with err) checked,
 * applied and counted as OFPT_FLOW_MOD is (of_handlers.c); NXT_FLOW_MOD
 * (of_nx.c) comes here too. */
struct of_flow_mod;
void	 of_flow_mod_take(const struct of_ctx *c, const struct of_flow_mod *fm,
	    enum of_err err);
/* A slave may only read (1.3.5 section 6.3.6): refuses and returns 1. */
int	 of_slave_refuse(const struct of_ctx *c);
/* Begins the multipart reply mp to c's request: sent as it fills, in
 * parts of --mp-max-bytes at most (of_handlers.c). */
struct of_mp_reply;
void	 of_mp_reply_for(const struct of_ctx *c, struct of_mp_reply *mr,
	    enum of_mp mp);
/* A multipart reply mp with one entry per flow table (TABLE,
 * TABLE_FEATURES, 1.4's TABLE_DESC): add() adds table t's. */
typedef void (*of_mp_table_fn)(struct of_switch *, struct of_mp_reply *,
	    uint8_t t);
void	 of_mp_reply_tables(const struct of_ctx *c, enum of_mp mp,
	    of_mp_table_fn add);

/* Experimenter ids (ONF registry). */
#define OF_EXP_NICIRA		0x00002320u
#define OF_EXP_ONF		0x4f4e4600u

/*
 * A row: the handlers get the body after the experimenter id and type
 * (exp_type); either may be NULL (then BAD_EXPERIMENTER for that kind).
 * 1.0's Nicira stats request pads its subtype to 8 bytes: on_mp gets the
 * rest as is, and the row skips what its format says.
 */
struct of_experimenter {
	uint32_t	 id;
	const char	*name;
	void		(*on_msg)(const struct of_ctx *, uint32_t exp_type,
			    struct rbuf *rest);
	void		(*on_mp)(const struct of_ctx *, uint32_t exp_type,
			    struct rbuf *rest);
};

/* EXPERIMENTER (VENDOR) message: body at c->body. */
void	 of_on_experimenter(const struct of_ctx *c);
/* Multipart EXPERIMENTER (stats VENDOR): body after the multipart header. */
void	 of_on_mp_experimenter(const struct of_ctx *c, struct rbuf *body);

#endif /* OF_EXPERIMENTER_H */
