/*
 * Bundles (OpenFlow 1.4.1 sections 6.8 and 7.3.9): a controller opens a
 * bundle, adds FLOW_MOD, GROUP_MOD and PORT_MOD messages to it, closes and
 * commits it; the commit applies them in order, all or none.  OpenFlow 1.3
 * carries the same bodies in the ONF extension (experimenter 0x4F4E4600,
 * exp_type 2300 BUNDLE_CONTROL and 2301 BUNDLE_ADD_MESSAGE), as Open
 * vSwitch's `ovs-ofctl -O OpenFlow13 --bundle` and OpenDaylight's
 * reconciliation send them.  Bundles belong to a connection: its close
 * discards them.
 */
#ifndef OF_BUNDLE_H
#define OF_BUNDLE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "of_experimenter.h"

struct of_switch;
struct of_sim;

#define OF_ONFT_BUNDLE_CONTROL		2300
#define OF_ONFT_BUNDLE_ADD_MESSAGE	2301
#define OF14_T_BUNDLE_CONTROL		33
#define OF14_T_BUNDLE_ADD_MESSAGE	34

/* enum ofp_bundle_ctrl_type (7.3.9.1). */
#define OF_BCT_OPEN_REQUEST	0
#define OF_BCT_OPEN_REPLY	1
#define OF_BCT_CLOSE_REQUEST	2
#define OF_BCT_CLOSE_REPLY	3
#define OF_BCT_COMMIT_REQUEST	4
#define OF_BCT_COMMIT_REPLY	5
#define OF_BCT_DISCARD_REQUEST	6
#define OF_BCT_DISCARD_REPLY	7
/* enum ofp_bundle_flags. */
#define OF_BF_ATOMIC		0x0001
#define OF_BF_ORDERED		0x0002

/* enum ofp_bundle_failed_code (7.4.4, OFPET_BUNDLE_FAILED = 17; in 1.3
 * the ONF experimenter error 2300 + code). */
#define OF_BFC_UNKNOWN		0
#define OF_BFC_EPERM		1
#define OF_BFC_BAD_ID		2
#define OF_BFC_BUNDLE_EXIST	3
#define OF_BFC_BUNDLE_CLOSED	4
#define OF_BFC_OUT_OF_BUNDLES	5
#define OF_BFC_BAD_TYPE		6
#define OF_BFC_BAD_FLAGS	7
#define OF_BFC_MSG_BAD_LEN	8
#define OF_BFC_MSG_BAD_XID	9
#define OF_BFC_MSG_UNSUP	10
#define OF_BFC_MSG_CONFLICT	11
#define OF_BFC_MSG_TOO_MANY	12
#define OF_BFC_MSG_FAILED	13
#define OF_BFC_TIMEOUT		14
#define OF_BFC_BUNDLE_IN_PROGRESS 15
/* Not bundle codes: the outer message is short (BAD_REQUEST/BAD_LEN), or
 * the inner one has another version (BAD_REQUEST/BAD_VERSION). */
#define OF_BFC_OUTER_BAD_LEN	0xfffe
#define OF_BFC_BAD_VERSION	0xffff

/* The defaults of --bundles-max, --bundle-msgs-max, --bundle-bytes-max
 * and --bundle-timeout (s; Open vSwitch's bundle-idle-timeout). */
#define OF_BUNDLES_MAX		64
#define OF_BUNDLE_MSGS_MAX	1000000
#define OF_BUNDLE_BYTES_MAX	(256u * 1024 * 1024)
#define OF_BUNDLE_TIMEOUT	10

#define OF_ET_BUNDLE_FAILED	17
#define OF_ET_EXPERIMENTER	0xffff

/* ofp_bundle_ctrl_msg after the header (and the ONF experimenter). */
struct of_bundle_ctrl {
	uint32_t	bundle_id;
	uint16_t	type;		/* OF_BCT_* */
	uint16_t	flags;		/* OF_BF_* */
};

/* ofp_bundle_add_msg: the inner message is whole, header first. */
struct of_bundle_add {
	uint32_t	 bundle_id;
	uint16_t	 flags;
	const uint8_t	*msg;
	size_t		 msg_len;
};

/* Properties are checked for framing and ignored (none is defined but
 * EXPERIMENTER).  -1 with *code an OF_BFC_* value. */
int	 of_bundle_ctrl_decode(struct rbuf *, struct of_bundle_ctrl *,
	    uint16_t *code);
int	 of_bundle_ctrl_encode(struct wbuf *, uint8_t version, uint32_t xid,
	    const struct of_bundle_ctrl *);
/* Outer version and xid: the inner message must carry the same
 * (7.3.9.6); its type is for the caller to judge. */
int	 of_bundle_add_decode(struct rbuf *, uint8_t version, uint32_t xid,
	    struct of_bundle_add *, uint16_t *code);
int	 of_bundle_add_encode(struct wbuf *, uint8_t version,
	    const struct of_bundle_add *);
/* ERROR BUNDLE_FAILED/code (ONF experimenter error in 1.3). */
int	 of_bundle_error_encode(struct wbuf *, uint8_t version, uint32_t xid,
	    uint16_t code, const void *data, size_t len);

/* The message bodies: after the ofp_header (1.4), after experimenter and
 * exp_type (ONF in 1.3). */
void	 of_on_bundle_control(const struct of_ctx *, struct rbuf *body);
void	 of_on_bundle_add_message(const struct of_ctx *, struct rbuf *body);
/* The ONF row of of_experimenters[]. */
void	 of_onf_on_msg(const struct of_ctx *, uint32_t exp_type,
	    struct rbuf *rest);

/* The connection closed: its bundles are discarded. */
void	 of_bundles_drop(struct of_switch *);
/* Once a second: bundles idle for --bundle-timeout are discarded. */
void	 of_bundles_sweep(struct of_sim *, uint64_t now_ns);
/* Open bundles of a connection (tests). */
uint32_t of_bundles_open(const struct of_switch *);

#endif /* OF_BUNDLE_H */
