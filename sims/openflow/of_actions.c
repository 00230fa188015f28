/*
 * Action lists (OpenFlow 1.3.5 section 7.2.5, 1.0.0 section 5.2.4) and
 * instruction lists (1.3.5 section 7.2.4): validation and the out_port /
 * out_group queries (1.3.5 section 7.3.4.2, 1.0.0 section 5.3.3).
 *
 * Choices where the spec leaves room or the error enum is coarser than the
 * wire: EXPERIMENTER (1.3) and VENDOR (1.0) actions are Nicira's or
 * BAD_EXPERIMENTER (of_nx_actions.c); a repeated instruction
 * type (section 5.9: at most one of each) and an EXPERIMENTER instruction
 * answer BAD_INST_UNKNOWN; bad SET_FIELD contents (1.3's BAD_SET_TYPE and
 * BAD_SET_ARGUMENT) answer BAD_ACTION_ARGUMENT, a bad SET_FIELD length
 * BAD_ACTION_LEN; meter ids are checked by the caller (of_prog_meter).
 */
#include <string.h>

#include "buf.h"
#include "of_actions.h"
#include "of_group.h"
#include "of_nx.h"
#include "of_nxm.h"
#include "of_oxm.h"
#include "of_wire_actions.h"

/* Visit one action or instruction: 0 go on, 1 stop (found), -1 error. */
typedef int	(*tlv_fn)(void *arg, uint16_t type, uint16_t len,
		    struct rbuf *body);

struct act_ctx {
	uint32_t		 n_ports;
	enum of_err		*err;
	/* A FLOW_MOD's group actions must name a group the switch has
	 * (1.3.5 section 7.4.4, BAD_OUT_GROUP); looked up only when an
	 * action names one. */
	int			 check_groups;
	const struct of_groups	*groups;
	uint8_t			 version;	/* 0: no flow's (METER) */
};

typedef int	(*act_check_fn)(const struct act_ctx *, struct rbuf *);

struct act_desc {
	uint16_t	type;
	uint16_t	len;		/* exact length; 0: any multiple of 8 */
	act_check_fn	check;		/* NULL: nothing to check */
};

static int
act_fail(enum of_err *err, enum of_err e)
{
	if (err != NULL)
		*err = e;
	return -1;
}

uint32_t
of_port_widen10(uint16_t port)
{
	/* OFPP_MAX and the reserved ports keep their place at the top. */
	return port >= OF10_PORT_MAX ? OF_PORT_WIDEN | port : port;
}

uint16_t
of_port_narrow10(uint32_t port)
{
	if (port >= OF_PORT_MAX)
		return port & 0xffff;
	if (port < OF10_PORT_MAX)
		return port;
	return OF10_PORT_NONE;		/* no 16-bit form */
}

/* 1..n_ports (below OFPP_MAX) or a reserved port (section 7.2.1). */
static int
port_ok(uint32_t port, uint32_t n_ports)
{
	if (port >= OF_PORT_IN_PORT && port <= OF_PORT_LOCAL)
		return 1;
	return port >= 1 && port <= n_ports && port < OF_PORT_MAX;
}

/*
 * Walk a list of type/len TLVs aligned to 8, calling fn with a reader over
 * each body.  Actions and instructions share the layout and the 8-byte
 * minimum (OF_ACT_MIN_LEN == OF_INST_MIN_LEN).
 */
static int
tlv_walk(const uint8_t *p, size_t len, tlv_fn fn, void *arg,
    enum of_err *err, enum of_err len_err)
{
	struct rbuf	r, body;
	uint16_t	type, tlen;
	int		rc;

	rbuf_init(&r, p, len);
	while (rbuf_left(&r) > 0) {
		if (rbuf_left(&r) < OF_ACT_MIN_LEN)
			return act_fail(err, len_err);
		rbuf_get_u16(&r, &type);
		rbuf_get_u16(&r, &tlen);
		if (tlen < OF_ACT_MIN_LEN || tlen % OF_ACT_ALIGN != 0 ||
		    rbuf_sub(&r, &body, tlen - OF_ACT_HDR_LEN) == -1)
			return act_fail(err, len_err);
		if ((rc = fn(arg, type, tlen, &body)) != 0)
			return rc;
	}
	return 0;
}

/* ---- 1.3 actions ---- */

static int
check13_output(const struct act_ctx *c, struct rbuf *b)
{
	uint32_t	port;

	rbuf_get_u32(b, &port);
	return port_ok(port, c->n_ports) ? 0 :
	    act_fail(c->err, OF_ERR_BAD_OUT_PORT);
}

static int
check_ethertype(const struct act_ctx *c, struct rbuf *b, uint16_t a,
    uint16_t alt)
{
	uint16_t	et;

	rbuf_get_u16(b, &et);
	return et == a || et == alt ? 0 :
	    act_fail(c->err, OF_ERR_BAD_ACTION_ARGUMENT);
}

static int
check13_push_vlan(const struct act_ctx *c, struct rbuf *b)
{
	return check_ethertype(c, b, ETHTYPE_VLAN, ETHTYPE_VLAN_QINQ);
}

static int
check13_push_mpls(const struct act_ctx *c, struct rbuf *b)
{
	return check_ethertype(c, b, ETHTYPE_MPLS, ETHTYPE_MPLS_MC);
}

static int
check13_push_pbb(const struct act_ctx *c, struct rbuf *b)
{
	return check_ethertype(c, b, ETHTYPE_PBB, ETHTYPE_PBB);
}

static int
check13_group(const struct act_ctx *c, struct rbuf *b)
{
	uint32_t	group;

	rbuf_get_u32(b, &group);
	if (group > OF13_GROUP_MAX ||
	    (c->check_groups && !of_groups_has(c->groups, group)))
		return act_fail(c->err, OF_ERR_BAD_OUT_GROUP);
	return 0;
}

/* METER (1.5.1 section 7.2.5) takes the place of 1.4's METER
 * instruction: only in a 1.5 flow's action lists, not in a group's
 * buckets nor a PACKET_OUT (no ctx version); the meter id is the
 * caller's to check (of_meter_flow_check). */
static int
check15_meter(const struct act_ctx *c, struct rbuf *b)
{
	(void)b;
	return c->version >= OF_VERSION_15 ? 0 :
	    act_fail(c->err, OF_ERR_BAD_ACTION_TYPE);
}

/* Pipeline fields are no packet header: nothing to set (7.2.5). */
static int
settable(uint8_t field)
{
	return field != OXM_IN_PORT && field != OXM_IN_PHY_PORT &&
	    field != OXM_METADATA;
}

/* SET_FIELD of a Nicira field (reg0, ct_mark, ...; of_nxm.c). */
static int
check13_set_ext_field(const struct act_ctx *c, struct rbuf *b, uint32_t hdr)
{
	unsigned	bits = of_nxm_field_bits(hdr);
	size_t		want;

	if (bits == 0 && of_nxm_is_tun(hdr) && !OXM_HDR_HASMASK(hdr))
		return act_fail(c->err, OF_ERR_NX_INVALID_TLV_FIELD);
	if (bits == 0 || (of_nxm_is_tun(hdr) && OXM_HDR_LENGTH(hdr) > bits / 8))
		return act_fail(c->err, OF_ERR_BAD_ACTION_ARGUMENT);
	/* tun_metadata's value: as long as sent (up to the mapping's). */
	want = OF13_ACT_SET_FIELD_HDR + OXM_HDR_LEN + (of_nxm_is_tun(hdr) ?
	    OXM_HDR_LENGTH(hdr) : bits / 8);
	want = (want + OF_ACT_ALIGN - 1) / OF_ACT_ALIGN * OF_ACT_ALIGN;
	return rbuf_left(b) + OF13_ACT_SET_FIELD_HDR + OXM_HDR_LEN == want ?
	    0 : act_fail(c->err, OF_ERR_BAD_ACTION_LEN);
}

/* One exact OXM TLV, padded to 8 with the action header (7.2.5). */
static int
check13_set_field(const struct act_ctx *c, struct rbuf *b)
{
	const struct oxm_field	*f;
	const uint8_t		*val;
	uint32_t		 hdr;
	size_t			 want;

	if (rbuf_get_u32(b, &hdr) == -1)
		return act_fail(c->err, OF_ERR_BAD_ACTION_LEN);
	if (OXM_HDR_CLASS(hdr) != OXM_CLASS_BASIC)
		return check13_set_ext_field(c, b, hdr);
	f = oxm_field_get(OXM_HDR_FIELD(hdr));
	if (OXM_HDR_CLASS(hdr) != OXM_CLASS_BASIC || f == NULL ||
	    OXM_HDR_HASMASK(hdr) || !settable(OXM_HDR_FIELD(hdr)))
		return act_fail(c->err, OF_ERR_BAD_ACTION_ARGUMENT);
	want = OF13_ACT_SET_FIELD_HDR + OXM_HDR_LEN + f->len;
	want = (want + OF_ACT_ALIGN - 1) / OF_ACT_ALIGN * OF_ACT_ALIGN;
	if (OXM_HDR_LENGTH(hdr) != f->len ||
	    rbuf_left(b) + OF13_ACT_SET_FIELD_HDR + OXM_HDR_LEN != want)
		return act_fail(c->err, OF_ERR_BAD_ACTION_LEN);
	val = rbuf_ptr(b);
	if (oxm_value_invalid(f, val))
		return act_fail(c->err, OF_ERR_BAD_ACTION_ARGUMENT);
	/* A pushed or rewritten tag is a tag: OFPVID_PRESENT must be set. */
	if (OXM_HDR_FIELD(hdr) == OXM_VLAN_VID &&
	    !(val[0] << 8 & OFPVID_PRESENT))
		return act_fail(c->err, OF_ERR_BAD_ACTION_ARGUMENT);
	return 0;
}

/* VENDOR / EXPERIMENTER: Nicira's are checked and kept (of_nx_actions.c). */
static int
check_experimenter(const struct act_ctx *c, struct rbuf *b)
{
	return of_nx_action_check(b, (uint16_t)(rbuf_left(b) + OF_ACT_HDR_LEN),
	    c->n_ports, c->err);
}

static const struct act_desc act13[] = {
	{ OF13_AT_OUTPUT, OF13_ACT_OUTPUT_LEN, check13_output },
	{ OF13_AT_COPY_TTL_OUT, OF13_ACT_GENERIC_LEN, NULL },
	{ OF13_AT_COPY_TTL_IN, OF13_ACT_GENERIC_LEN, NULL },
	{ OF13_AT_SET_MPLS_TTL, OF13_ACT_GENERIC_LEN, NULL },
	{ OF13_AT_DEC_MPLS_TTL, OF13_ACT_GENERIC_LEN, NULL },
	{ OF13_AT_PUSH_VLAN, OF13_ACT_GENERIC_LEN, check13_push_vlan },
	{ OF13_AT_POP_VLAN, OF13_ACT_GENERIC_LEN, NULL },
	{ OF13_AT_PUSH_MPLS, OF13_ACT_GENERIC_LEN, check13_push_mpls },
	{ OF13_AT_POP_MPLS, OF13_ACT_GENERIC_LEN, NULL },
	{ OF13_AT_SET_QUEUE, OF13_ACT_GENERIC_LEN, NULL },
	{ OF13_AT_GROUP, OF13_ACT_GENERIC_LEN, check13_group },
	{ OF13_AT_SET_NW_TTL, OF13_ACT_GENERIC_LEN, NULL },
	{ OF13_AT_DEC_NW_TTL, OF13_ACT_GENERIC_LEN, NULL },
	{ OF13_AT_SET_FIELD, 0, check13_set_field },
	{ OF13_AT_PUSH_PBB, OF13_ACT_GENERIC_LEN, check13_push_pbb },
	{ OF13_AT_POP_PBB, OF13_ACT_GENERIC_LEN, NULL },
	{ OF15_AT_METER, OF13_ACT_GENERIC_LEN, check15_meter },
	{ OF13_AT_EXPERIMENTER, 0, check_experimenter },
};

/* ---- 1.0 actions ---- */

static int
check10_output(const struct act_ctx *c, struct rbuf *b)
{
	uint16_t	port;

	rbuf_get_u16(b, &port);
	return port_ok(of_port_widen10(port), c->n_ports) ? 0 :
	    act_fail(c->err, OF_ERR_BAD_OUT_PORT);
}

/* ENQUEUE: a queue of a physical port, or of the ingress port. */
static int
check10_enqueue(const struct act_ctx *c, struct rbuf *b)
{
	uint16_t	port;

	rbuf_get_u16(b, &port);
	if (port == OF10_PORT_IN_PORT ||
	    (port >= 1 && port <= c->n_ports && port < OF10_PORT_MAX))
		return 0;
	return act_fail(c->err, OF_ERR_BAD_OUT_PORT);
}

static int
check10_u8_bits(const struct act_ctx *c, struct rbuf *b, uint8_t bad_bits)
{
	uint8_t	v;

	rbuf_get_u8(b, &v);
	return (v & bad_bits) == 0 ? 0 :
	    act_fail(c->err, OF_ERR_BAD_ACTION_ARGUMENT);
}

static int
check10_vlan_vid(const struct act_ctx *c, struct rbuf *b)
{
	uint16_t	vid;

	rbuf_get_u16(b, &vid);
	return (vid & ~OF10_VLAN_VID_MASK) == 0 ? 0 :
	    act_fail(c->err, OF_ERR_BAD_ACTION_ARGUMENT);
}

static int
check10_vlan_pcp(const struct act_ctx *c, struct rbuf *b)
{
	return check10_u8_bits(c, b, (uint8_t)~OF10_PCP_MASK);
}

/* nw_tos carries the DSCP in its upper 6 bits; ECN bits must be 0. */
static int
check10_nw_tos(const struct act_ctx *c, struct rbuf *b)
{
	return check10_u8_bits(c, b, (1 << OF10_TOS_DSCP_SHIFT) - 1);
}

static const struct act_desc act10[] = {
	{ OF10_AT_OUTPUT, OF10_ACT_LEN, check10_output },
	{ OF10_AT_SET_VLAN_VID, OF10_ACT_LEN, check10_vlan_vid },
	{ OF10_AT_SET_VLAN_PCP, OF10_ACT_LEN, check10_vlan_pcp },
	{ OF10_AT_STRIP_VLAN, OF10_ACT_LEN, NULL },
	{ OF10_AT_SET_DL_SRC, OF10_ACT_DL_ADDR_LEN, NULL },
	{ OF10_AT_SET_DL_DST, OF10_ACT_DL_ADDR_LEN, NULL },
	{ OF10_AT_SET_NW_SRC, OF10_ACT_LEN, NULL },
	{ OF10_AT_SET_NW_DST, OF10_ACT_LEN, NULL },
	{ OF10_AT_SET_NW_TOS, OF10_ACT_LEN, check10_nw_tos },
	{ OF10_AT_SET_TP_SRC, OF10_ACT_LEN, NULL },
	{ OF10_AT_SET_TP_DST, OF10_ACT_LEN, NULL },
	{ OF10_AT_ENQUEUE, OF10_ACT_ENQUEUE_LEN, check10_enqueue },
	{ OF10_AT_VENDOR, 0, check_experimenter },
};

struct act_validate {
	struct act_ctx		 ctx;
	const struct act_desc	*tab;
	size_t			 ntab;
};

static int
act_validate_one(void *arg, uint16_t type, uint16_t len, struct rbuf *body)
{
	struct act_validate	*v = arg;
	const struct act_desc	*d;
	size_t			 i;

	for (i = 0; i < v->ntab; i++) {
		d = &v->tab[i];
		if (d->type != type)
			continue;
		if (d->len != 0 && d->len != len)
			return act_fail(v->ctx.err, OF_ERR_BAD_ACTION_LEN);
		return d->check != NULL ? d->check(&v->ctx, body) : 0;
	}
	return act_fail(v->ctx.err, OF_ERR_BAD_ACTION_TYPE);
}

int
of_actions_validate(uint8_t version, const uint8_t *p, size_t len,
    uint32_t n_ports, enum of_err *err)
{
	struct act_validate	v;

	memset(&v.ctx, 0, sizeof(v.ctx));
	v.ctx.n_ports = n_ports;
	v.ctx.err = err;
	if (version == OF_VERSION_10) {
		v.tab = act10;
		v.ntab = sizeof(act10) / sizeof(act10[0]);
	} else {
		v.tab = act13;
		v.ntab = sizeof(act13) / sizeof(act13[0]);
	}
	return tlv_walk(p, len, act_validate_one, &v, err,
	    OF_ERR_BAD_ACTION_LEN) == 0 ? 0 : -1;
}

/* ---- 1.3 instructions ---- */

struct inst_validate {
	uint8_t			 table_id;
	uint8_t			 n_tables;
	uint32_t		 n_ports;
	uint32_t		 seen;	/* instruction types met so far */
	enum of_err		*err;
	int			 check_groups;
	const struct of_groups	*groups;
	uint8_t			 version;
};

static int
inst_len(struct inst_validate *v, uint16_t len, uint16_t want)
{
	return len == want ? 0 : act_fail(v->err, OF_ERR_BAD_INST_LEN);
}

/* GOTO_TABLE only goes forward, to a table that exists (5.1). */
static int
inst_goto(struct inst_validate *v, uint16_t len, struct rbuf *b)
{
	uint8_t	next;

	if (inst_len(v, len, OF13_INST_GOTO_LEN) == -1)
		return -1;
	rbuf_get_u8(b, &next);
	if (next <= v->table_id || next >= v->n_tables)
		return act_fail(v->err, OF_ERR_BAD_INST_TABLE_ID);
	return 0;
}

static int
inst_actions(struct inst_validate *v, struct rbuf *b)
{
	struct act_validate	av;

	rbuf_skip(b, OF_INST_ACTIONS_PAD);
	av.ctx.n_ports = v->n_ports;
	av.ctx.err = v->err;
	av.ctx.check_groups = v->check_groups;
	av.ctx.groups = v->groups;
	av.ctx.version = v->version;
	av.tab = act13;
	av.ntab = sizeof(act13) / sizeof(act13[0]);
	return tlv_walk(rbuf_ptr(b), rbuf_left(b), act_validate_one, &av,
	    v->err, OF_ERR_BAD_ACTION_LEN) == 0 ? 0 : -1;
}

static int
inst_validate_one(void *arg, uint16_t type, uint16_t len, struct rbuf *b)
{
	struct inst_validate	*v = arg;

	if (type <= OF13_IT_METER) {
		/* Section 5.9: at most one instruction of each type. */
		if (v->seen & 1u << type)
			return act_fail(v->err, OF_ERR_BAD_INST_UNKNOWN);
		v->seen |= 1u << type;
	}
	switch (type) {
	case OF13_IT_GOTO_TABLE:
		return inst_goto(v, len, b);
	case OF13_IT_WRITE_METADATA:
		return inst_len(v, len, OF13_INST_METADATA_LEN);
	case OF13_IT_WRITE_ACTIONS:
	case OF13_IT_APPLY_ACTIONS:
		return inst_actions(v, b);
	case OF13_IT_CLEAR_ACTIONS:
		return inst_len(v, len, OF13_INST_CLEAR_LEN);
	case OF13_IT_METER:
		/* 1.5 deprecates it for the METER action (1.5.1 7.2.4). */
		if (v->version >= OF_VERSION_15)
			break;
		return inst_len(v, len, OF13_INST_METER_LEN);
	}
	return act_fail(v->err, OF_ERR_BAD_INST_UNKNOWN);
}

int
of_instructions_validate(const uint8_t *p, size_t len, uint8_t table_id,
    uint8_t n_tables, uint32_t n_ports, enum of_err *err)
{
	return of_instructions_check(p, len, table_id, n_tables, n_ports, 0,
	    NULL, err);
}

int
of_instructions_check(const uint8_t *p, size_t len, uint8_t table_id,
    uint8_t n_tables, uint32_t n_ports, int check_groups,
    const struct of_groups *groups, enum of_err *err)
{
	return of_instructions_check_ver(OF_VERSION_13, p, len, table_id,
	    n_tables, n_ports, check_groups, groups, err);
}

int
of_instructions_check_ver(uint8_t version, const uint8_t *p, size_t len,
    uint8_t table_id, uint8_t n_tables, uint32_t n_ports, int check_groups,
    const struct of_groups *groups, enum of_err *err)
{
	struct inst_validate	v;

	v.version = version;

	v.table_id = table_id;
	v.n_tables = n_tables;
	v.n_ports = n_ports;
	v.seen = 0;
	v.err = err;
	v.check_groups = check_groups;
	v.groups = groups;
	return tlv_walk(p, len, inst_validate_one, &v, err,
	    OF_ERR_BAD_INST_LEN) == 0 ? 0 : -1;
}

/* ---- queries ---- */

struct act_query {
	uint8_t		 version;
	uint32_t	 port;		/* outputs_to */
	uint32_t	 group;		/* uses_group */
	uint32_t	*ports;		/* output_ports */
	size_t		 max;
	size_t		 n;
	tlv_fn		 fn;		/* per action, for the 1.3 walk */
	void		(*on_group)(void *, uint32_t);	/* each_group */
	void		*arg;
	int		(*on_meter)(void *, uint32_t);	/* each_meter */
};

/* The port an OUTPUT (or 1.0 ENQUEUE) action sends to, or OF_PORT_ANY. */
static uint32_t
act_out_port(uint8_t version, uint16_t type, struct rbuf *b)
{
	uint32_t	p32;
	uint16_t	p16;

	if (version == OF_VERSION_10) {
		if (type != OF10_AT_OUTPUT && type != OF10_AT_ENQUEUE)
			return OF_PORT_ANY;
		return rbuf_get_u16(b, &p16) == 0 ? of_port_widen10(p16) :
		    OF_PORT_ANY;
	}
	if (type != OF13_AT_OUTPUT)
		return OF_PORT_ANY;
	return rbuf_get_u32(b, &p32) == 0 ? p32 : OF_PORT_ANY;
}

static int
q_collect(void *arg, uint16_t type, uint16_t len, struct rbuf *b)
{
	struct act_query	*q = arg;
	uint32_t		 port = act_out_port(q->version, type, b);

	(void)len;
	if (port == OF_PORT_ANY)
		return 0;
	if (q->n >= q->max)
		return 1;
	q->ports[q->n++] = port;
	return 0;
}

static int
q_port(void *arg, uint16_t type, uint16_t len, struct rbuf *b)
{
	struct act_query	*q = arg;

	(void)len;
	return act_out_port(q->version, type, b) == q->port;
}

/* The 32-bit id a GROUP action, a 1.5 METER action and a METER
 * instruction all start with: 1 with *v set when the TLV is of kind
 * want and holds one. */
static int
tlv_u32_arg(uint16_t type, uint16_t want, struct rbuf *b, uint32_t *v)
{
	return type == want && rbuf_get_u32(b, v) == 0;
}

static int
q_group(void *arg, uint16_t type, uint16_t len, struct rbuf *b)
{
	struct act_query	*q = arg;
	uint32_t		 group;

	(void)len;
	if (!tlv_u32_arg(type, OF13_AT_GROUP, b, &group))
		return 0;
	/* OFPG_ALL names no group a flow may use (section 7.3.4.2): as a
	 * filter it selects every flow that names a group. */
	return q->group == OF_GROUP_ALL || group == q->group;
}

/* Into the action lists of APPLY_ACTIONS and WRITE_ACTIONS. */
static int
q_inst(void *arg, uint16_t type, uint16_t len, struct rbuf *b)
{
	struct act_query	*q = arg;

	(void)len;
	if (type != OF13_IT_APPLY_ACTIONS && type != OF13_IT_WRITE_ACTIONS)
		return 0;
	if (rbuf_skip(b, OF_INST_ACTIONS_PAD) == -1)
		return -1;
	return tlv_walk(rbuf_ptr(b), rbuf_left(b), q->fn, q, NULL,
	    OF_ERR_BAD_ACTION_LEN);
}

static int
prog_walk(struct act_query *q, const uint8_t *p, size_t len)
{
	if (q->version == OF_VERSION_10)
		return tlv_walk(p, len, q->fn, q, NULL, OF_ERR_BAD_ACTION_LEN);
	return tlv_walk(p, len, q_inst, q, NULL, OF_ERR_BAD_INST_LEN);
}

static int
q_each_group(void *arg, uint16_t type, uint16_t len, struct rbuf *b)
{
	struct act_query	*q = arg;
	uint32_t		 group;

	(void)len;
	if (tlv_u32_arg(type, OF13_AT_GROUP, b, &group))
		q->on_group(q->arg, group);
	return 0;
}

void
of_prog_each_group(const uint8_t *p, size_t len,
    void (*fn)(void *, uint32_t), void *arg)
{
	struct act_query	q = { .version = OF_VERSION_13,
	    .fn = q_each_group, .on_group = fn, .arg = arg };

	(void)prog_walk(&q, p, len);
}

/* A meter TLV of kind want: q->on_meter's answer (1 stops the walk). */
static int
meter_arg(const struct act_query *q, uint16_t type, uint16_t want,
    struct rbuf *b)
{
	uint32_t	id;

	return tlv_u32_arg(type, want, b, &id) ? q->on_meter(q->arg, id) : 0;
}

/* A 1.5 METER action. */
static int
q_meter_action(void *arg, uint16_t type, uint16_t len, struct rbuf *b)
{
	(void)len;
	return meter_arg(arg, type, OF15_AT_METER, b);
}

/* A METER instruction (1.3, 1.4), or the actions lists that may hold
 * 1.5 METER actions: a stored program has only the kind its version
 * validated. */
static int
q_meter(void *arg, uint16_t type, uint16_t len, struct rbuf *b)
{
	struct act_query	*q = arg;

	if (type == OF13_IT_METER)
		return meter_arg(q, type, OF13_IT_METER, b);
	q->fn = q_meter_action;
	return q_inst(arg, type, len, b);
}

int
of_prog_each_meter(const uint8_t *p, size_t len,
    int (*fn)(void *, uint32_t), void *arg)
{
	struct act_query	q = { .on_meter = fn, .arg = arg };

	return tlv_walk(p, len, q_meter, &q, NULL, OF_ERR_BAD_INST_LEN) == 1;
}

static int
first_meter(void *arg, uint32_t id)
{
	*(uint32_t *)arg = id;
	return 1;
}

int
of_prog_meter(const uint8_t *p, size_t len, uint32_t *meter_id)
{
	return of_prog_each_meter(p, len, first_meter, meter_id);
}

int
of_actions_output_ports(uint8_t version, const uint8_t *p, size_t len,
    uint32_t *ports, size_t max)
{
	struct act_query	q = { .version = version, .ports = ports,
	    .max = max };

	if (tlv_walk(p, len, q_collect, &q, NULL, OF_ERR_BAD_ACTION_LEN) == -1)
		return -1;
	return q.n;
}

/* 1 when some action of the program is what fn looks for. */
static int
prog_has(uint8_t version, const uint8_t *p, size_t len, uint32_t port,
    uint32_t group, tlv_fn fn)
{
	struct act_query	q = { .version = version, .port = port,
	    .group = group, .fn = fn };

	return prog_walk(&q, p, len) == 1;
}

int
of_prog_outputs_to(uint8_t version, const uint8_t *p, size_t len,
    uint32_t port)
{
	if (port == OF_PORT_ANY)
		return 1;
	return prog_has(version, p, len, port, 0, q_port);
}

int
of_prog_uses_group(uint8_t version, const uint8_t *p, size_t len,
    uint32_t group)
{
	if (group == OF_GROUP_ANY)
		return 1;
	if (version == OF_VERSION_10)
		return 0;	/* no groups in 1.0 */
	return prog_has(version, p, len, 0, group, q_group);
}
