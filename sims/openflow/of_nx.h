/*
 * Nicira extensions (Open vSwitch's nicira-ext.h): the vendor messages
 * and statistics a switch answers (of_nx.c) and the vendor actions it
 * checks and keeps (of_nx_actions.c).  Fields: of_nxm.h.
 */
#ifndef SBSIM_OF_NX_H
#define SBSIM_OF_NX_H

#include <stdint.h>

#include "buf.h"
#include "of_types.h"

struct of_ctx;

/* of_experimenters[] row handlers (of_experimenter.h). */
void	 of_nx_on_msg(const struct of_ctx *, uint32_t subtype, struct rbuf *);
void	 of_nx_on_mp(const struct of_ctx *, uint32_t subtype, struct rbuf *);

/*
 * A VENDOR (1.0) or EXPERIMENTER (1.3) action: b reads its body after
 * type and length (len bytes in all, a multiple of 8).  Nicira's are
 * checked field by field (lengths, field references and bit ranges,
 * arguments) and kept as sent; any other experimenter id is
 * BAD_EXPERIMENTER, an unknown subtype BAD_EXP_TYPE.
 */
int	 of_nx_action_check(struct rbuf *b, uint16_t len, uint32_t n_ports,
	    enum of_err *err);

/* A decoded 1.0 OFPT_FLOW_MOD's table from its command's high byte,
 * when the connection turned NXT_FLOW_MOD_TABLE_ID on. */
struct of_flow_mod;
void	 of_nx_flow_mod10_table(const struct of_ctx *, struct of_flow_mod *);
/* 1 when the connection chose the NXM flow format (1.0): its
 * FLOW_REMOVED is then NXT_FLOW_REMOVED, encoded by the second. */
struct of_switch;
struct of_flow_info;
int	 of_nx_flow_format_nxm(const struct of_switch *);
int	 of_nx_flow_removed_encode(struct wbuf *, uint32_t xid,
	    const struct of_flow_info *);

#endif
