/*
 * Bundles of OpenFlow 1.4.1 (sections 6.8, 7.3.9) and their ONF extension
 * in 1.3: codec, the per-connection bundles, and the commit.
 *
 * A bundle keeps its messages as they came, back to back in one buffer,
 * each checked when added for what does not depend on the switch's state
 * (length, xid, type, its own decoding).  The commit applies them in
 * order; the flow table logs each change (of_flowtable_txn_*) and the
 * group table is copied before the first GROUP_MOD, so a failing message
 * puts both back as they were.  PORT_MODs are checked in order and
 * applied once everything else held (Open vSwitch's "finish" step), so a
 * failed commit changes no port either.  The failing message's own ERROR
 * goes out, then BUNDLE_FAILED/MSG_FAILED for the commit, as Open vSwitch
 * sends them (ofproto.c, do_bundle_commit); FLOW_REMOVED and PORT_STATUS
 * of a commit go out only once it has succeeded.  The bundle is gone
 * after a commit, whatever its outcome.
 *
 * Choices: ATOMIC and ORDERED are taken and always honoured (every commit
 * is atomic and in order); an inner message other than FLOW_MOD,
 * GROUP_MOD or PORT_MOD is MSG_UNSUP; a BUNDLE_ADD_MESSAGE for an unknown
 * id opens it (7.3.9.6); a slave's bundle messages are IS_SLAVE.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "of_bundle.h"
#include "of_sim.h"

#define OF_T_ERROR		1
#define OF_T_EXPERIMENTER	4
#define OF_WT_FLOW_MOD		14	/* wire types, 1.3 to 1.5 */
#define OF_WT_GROUP_MOD		15
#define OF_WT_PORT_MOD		16
#define OF_BF_KNOWN		(OF_BF_ATOMIC | OF_BF_ORDERED)
#define OF_BUNDLE_CTRL_LEN	8	/* id, type, flags */
#define OF_BUNDLE_QUOTE		32	/* what a TIMEOUT error quotes */

struct of_bundle {
	struct of_bundle	*next;
	uint32_t		 id;
	uint16_t		 flags;
	uint8_t			 closed;
	uint32_t		 n_msgs;
	uint64_t		 last_ns;	/* opened or last added to */
	uint32_t		 open_xid;
	uint8_t			 quote[OF_BUNDLE_QUOTE];
	size_t			 quote_len;
	uint8_t			*msgs;		/* inner messages */
	size_t			 len;
	size_t			 cap;
};

struct of_bundles {
	struct of_bundle	*list;
	uint32_t		 n;
};

/* ---- codec ---- */

/* Properties (7.3.9.2): type, length (header included), padded to 8. */
static int
bundle_props_skip(struct rbuf *r)
{
	uint16_t	type, len;
	size_t		pad;

	while (rbuf_left(r) > 0) {
		if (rbuf_get_u16(r, &type) == -1 ||
		    rbuf_get_u16(r, &len) == -1 || len < 4 ||
		    rbuf_skip(r, len - 4u) == -1)
			return -1;
		pad = (8 - len % 8) % 8;
		rbuf_skip(r, pad < rbuf_left(r) ? pad : rbuf_left(r));
	}
	return 0;
}

int
of_bundle_ctrl_decode(struct rbuf *r, struct of_bundle_ctrl *bc,
    uint16_t *code)
{
	if (rbuf_left(r) < OF_BUNDLE_CTRL_LEN) {
		*code = OF_BFC_OUTER_BAD_LEN;
		return -1;
	}
	rbuf_get_u32(r, &bc->bundle_id);
	rbuf_get_u16(r, &bc->type);
	rbuf_get_u16(r, &bc->flags);
	if (bundle_props_skip(r) == -1) {
		*code = OF_BFC_OUTER_BAD_LEN;
		return -1;
	}
	return 0;
}

/* The header of a bundle message: ONF experimenter in 1.3, its own type
 * from 1.4 on. */
static size_t
bundle_msg_begin(struct wbuf *w, uint8_t version, uint32_t xid, int add)
{
	size_t	start = w->len;

	wbuf_put_u8(w, version);
	wbuf_put_u8(w, version <= OF_VERSION_13 ? OF_T_EXPERIMENTER :
	    add ? OF14_T_BUNDLE_ADD_MESSAGE : OF14_T_BUNDLE_CONTROL);
	wbuf_put_u16(w, 0);
	wbuf_put_u32(w, xid);
	if (version <= OF_VERSION_13) {
		wbuf_put_u32(w, OF_EXP_ONF);
		wbuf_put_u32(w, add ? OF_ONFT_BUNDLE_ADD_MESSAGE :
		    OF_ONFT_BUNDLE_CONTROL);
	}
	return start;
}

int
of_bundle_ctrl_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    const struct of_bundle_ctrl *bc)
{
	size_t	start = bundle_msg_begin(w, version, xid, 0);

	wbuf_put_u32(w, bc->bundle_id);
	wbuf_put_u16(w, bc->type);
	wbuf_put_u16(w, bc->flags);
	return of_msg_end(w, start);
}

static int
bundle_bad(uint16_t *code, uint16_t c)
{
	*code = c;
	return -1;
}

int
of_bundle_add_decode(struct rbuf *r, uint8_t version, uint32_t xid,
    struct of_bundle_add *ba, uint16_t *code)
{
	const uint8_t	*m;
	uint16_t	 len;
	size_t		 pad;

	if (rbuf_left(r) < OF_BUNDLE_CTRL_LEN)
		return bundle_bad(code, OF_BFC_OUTER_BAD_LEN);
	rbuf_get_u32(r, &ba->bundle_id);
	rbuf_skip(r, 2);
	rbuf_get_u16(r, &ba->flags);
	m = rbuf_ptr(r);
	if (rbuf_left(r) < OF_HEADER_LEN)
		return bundle_bad(code, OF_BFC_MSG_BAD_LEN);
	len = (uint16_t)(m[2] << 8 | m[3]);
	if (len < OF_HEADER_LEN || len > rbuf_left(r))
		return bundle_bad(code, OF_BFC_MSG_BAD_LEN);
	if (m[0] != version)
		return bundle_bad(code, OF_BFC_BAD_VERSION);
	if ((uint32_t)(m[4] << 24 | m[5] << 16 | m[6] << 8 | m[7]) != xid)
		return bundle_bad(code, OF_BFC_MSG_BAD_XID);
	ba->msg = m;
	ba->msg_len = len;
	rbuf_skip(r, len);
	/* Properties follow the message padded to 8 (7.3.9.6). */
	pad = (8 - len % 8) % 8;
	rbuf_skip(r, pad < rbuf_left(r) ? pad : rbuf_left(r));
	if (bundle_props_skip(r) == -1)
		return bundle_bad(code, OF_BFC_MSG_BAD_LEN);
	return 0;
}

int
of_bundle_add_encode(struct wbuf *w, uint8_t version,
    const struct of_bundle_add *ba)
{
	uint32_t	xid = 0;
	size_t		start;

	/* The add carries its message's xid (7.3.9.6). */
	if (ba->msg_len >= OF_HEADER_LEN)
		xid = (uint32_t)ba->msg[4] << 24 | ba->msg[5] << 16 |
		    ba->msg[6] << 8 | ba->msg[7];
	start = bundle_msg_begin(w, version, xid, 1);
	wbuf_put_u32(w, ba->bundle_id);
	wbuf_put_u16(w, 0);
	wbuf_put_u16(w, ba->flags);
	wbuf_put_bytes(w, ba->msg, ba->msg_len);
	return of_msg_end(w, start);
}

int
of_bundle_error_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    uint16_t code, const void *data, size_t len)
{
	size_t	start = w->len;

	wbuf_put_u8(w, version);
	wbuf_put_u8(w, OF_T_ERROR);
	wbuf_put_u16(w, 0);
	wbuf_put_u32(w, xid);
	if (version <= OF_VERSION_13) {
		/* ofp_error_experimenter_msg: type, exp_code, experimenter */
		wbuf_put_u16(w, OF_ET_EXPERIMENTER);
		wbuf_put_u16(w, OF_ONFT_BUNDLE_CONTROL + code);
		wbuf_put_u32(w, OF_EXP_ONF);
	} else {
		wbuf_put_u16(w, OF_ET_BUNDLE_FAILED);
		wbuf_put_u16(w, code);
	}
	if (len > 64)
		len = 64;	/* at least 64 bytes of the request (7.4.4) */
	if (data != NULL && len > 0)
		wbuf_put_bytes(w, data, len);
	return of_msg_end(w, start);
}

/* ---- the bundles of a connection ---- */

static void
bundle_error_to(struct of_switch *sw, uint32_t xid, uint16_t code,
    const void *data, size_t len)
{
	struct wbuf	*w = of_scratch();

	(*sw->sim->c.errors_sent)++;
	(*sw->sim->c.bundle_errors)++;
	of_bundle_error_encode(w, sw->version, xid, code, data, len);
	of_switch_send(sw, w);
}

/* The ERROR for c's message: a bundle code, or BAD_REQUEST's. */
static void
bundle_refuse(const struct of_ctx *c, uint16_t code)
{
	if (code == OF_BFC_OUTER_BAD_LEN)
		of_refuse(c, OF_ERR_BAD_LEN);
	else if (code == OF_BFC_BAD_VERSION)
		of_refuse(c, OF_ERR_BAD_VERSION);
	else
		bundle_error_to(c->sw, c->h->xid, code, c->msg, c->h->length);
}

static struct of_bundle *
bundle_find(const struct of_switch *sw, uint32_t id)
{
	struct of_bundle	*b;

	if (sw->bundles == NULL)
		return NULL;
	for (b = sw->bundles->list; b != NULL; b = b->next)
		if (b->id == id)
			return b;
	return NULL;
}

static void
bundle_remove(struct of_switch *sw, struct of_bundle *b)
{
	struct of_bundle	**pp = &sw->bundles->list;

	while (*pp != b)
		pp = &(*pp)->next;
	*pp = b->next;
	sw->bundles->n--;
	free(b->msgs);
	free(b);
	if (sw->bundles->n == 0) {
		free(sw->bundles);
		sw->bundles = NULL;
	}
}

uint32_t
of_bundles_open(const struct of_switch *sw)
{
	return sw->bundles != NULL ? sw->bundles->n : 0;
}

/* A new bundle for c's message (OPEN_REQUEST, or an ADD naming an id not
 * open): NULL, refused, when the flags are unknown or the connection
 * holds --bundles-max already. */
static struct of_bundle *
bundle_new(const struct of_ctx *c, uint32_t id, uint16_t flags)
{
	struct of_switch	*sw = c->sw;
	struct of_bundle	*b;

	if (flags & ~OF_BF_KNOWN) {
		bundle_refuse(c, OF_BFC_BAD_FLAGS);
		return NULL;
	}
	if (of_bundles_open(sw) >= sw->sim->cfg.bundles_max) {
		(*sw->sim->c.bundle_limit_refused)++;
		bundle_refuse(c, OF_BFC_OUT_OF_BUNDLES);
		return NULL;
	}
	if (sw->bundles == NULL)
		sw->bundles = xcalloc(1, sizeof(*sw->bundles));
	b = xcalloc(1, sizeof(*b));
	b->id = id;
	b->flags = flags;
	b->last_ns = clock_ns();
	b->open_xid = c->h->xid;
	b->quote_len = c->h->length < OF_BUNDLE_QUOTE ? c->h->length :
	    OF_BUNDLE_QUOTE;
	memcpy(b->quote, c->msg, b->quote_len);
	b->next = sw->bundles->list;
	sw->bundles->list = b;
	sw->bundles->n++;
	(*sw->sim->c.bundles_opened)++;
	return b;
}

static void
bundle_reply(const struct of_ctx *c, const struct of_bundle_ctrl *bc,
    uint16_t type)
{
	struct of_bundle_ctrl	 r = *bc;
	struct wbuf		*w = of_scratch();

	r.type = type;
	of_bundle_ctrl_encode(w, c->sw->version, c->h->xid, &r);
	of_switch_send(c->sw, w);
}

void
of_bundles_drop(struct of_switch *sw)
{
	while (sw->bundles != NULL) {
		(*sw->sim->c.bundles_discarded)++;
		bundle_remove(sw, sw->bundles->list);
	}
}

/* Bundles idle for --bundle-timeout: discarded, BUNDLE_FAILED/TIMEOUT
 * quoting the message that opened them (Open vSwitch's
 * bundle-idle-timeout does the same). */
static void
bundles_expire(struct of_switch *sw, uint64_t now, uint64_t idle)
{
	struct of_bundle	*b, *next;

	for (b = sw->bundles->list; b != NULL; b = next) {
		next = b->next;
		if (now - b->last_ns < idle)
			continue;
		(*sw->sim->c.bundles_timed_out)++;
		bundle_error_to(sw, b->open_xid, OF_BFC_TIMEOUT, b->quote,
		    b->quote_len);
		bundle_remove(sw, b);
		if (sw->bundles == NULL)	/* the last one went */
			return;
	}
}

void
of_bundles_sweep(struct of_sim *sim, uint64_t now)
{
	uint64_t	idle = (uint64_t)(sim->cfg.bundle_timeout * 1e9);
	uint32_t	i;

	if (idle == 0)
		return;
	for (i = 0; i < sim->cfg.switches * sim->cfg.n_ctl; i++)
		if (sim->sw[i].bundles != NULL)
			bundles_expire(&sim->sw[i], now, idle);
}

/* ---- BUNDLE_ADD_MESSAGE ---- */

/* What can be checked before the commit: the type, then the body as its
 * own handler would decode it (that error, quoting the add). */
static int
bundle_msg_check(const struct of_ctx *c, const struct of_bundle_add *ba)
{
	struct of_flow_mod	fm;
	struct of_group_mod	gm;
	struct of_port_mod	pm;
	struct rbuf		r;
	enum of_err		err = OF_ERR_NONE;
	int			rc;

	rbuf_init(&r, ba->msg + OF_HEADER_LEN, ba->msg_len - OF_HEADER_LEN);
	switch (ba->msg[1]) {
	case OF_WT_FLOW_MOD:
		rc = of_flow_mod_decode(c->sw->version, &r, &fm, &err);
		break;
	case OF_WT_GROUP_MOD:
		rc = of_group_mod_decode(&r, &gm, &err);
		break;
	case OF_WT_PORT_MOD:
		rc = of_port_mod_decode(c->sw->version, &r, &pm, &err);
		break;
	default:
		bundle_refuse(c, OF_BFC_MSG_UNSUP);
		return -1;
	}
	if (rc == -1)
		of_refuse(c, err);
	return rc;
}

/* The bundle an add goes to: open, same flags; opened if unknown. */
static struct of_bundle *
bundle_for_add(const struct of_ctx *c, const struct of_bundle_add *ba)
{
	struct of_bundle	*b = bundle_find(c->sw, ba->bundle_id);

	if (b == NULL)
		return bundle_new(c, ba->bundle_id, ba->flags);
	if (b->closed) {
		bundle_refuse(c, OF_BFC_BUNDLE_CLOSED);
		return NULL;
	}
	if (b->flags != ba->flags) {
		bundle_refuse(c, OF_BFC_BAD_FLAGS);
		return NULL;
	}
	return b;
}

static void
bundle_append(struct of_bundle *b, const uint8_t *m, size_t len)
{
	if (b->len + len > b->cap) {
		b->cap = b->cap ? b->cap : 1024;
		while (b->cap < b->len + len)
			b->cap *= 2;
		b->msgs = xreallocarray(b->msgs, b->cap, 1);
	}
	memcpy(b->msgs + b->len, m, len);
	b->len += len;
	b->n_msgs++;
}

void
of_on_bundle_add_message(const struct of_ctx *c, struct rbuf *body)
{
	struct of_switch	*sw = c->sw;
	const struct of_config	*cfg = &sw->sim->cfg;
	struct of_bundle_add	 ba;
	struct of_bundle	*b;
	uint16_t		 code;

	if (of_slave_refuse(c))
		return;
	if (of_bundle_add_decode(body, sw->version, c->h->xid, &ba,
	    &code) == -1) {
		bundle_refuse(c, code);
		return;
	}
	if (bundle_msg_check(c, &ba) == -1 ||
	    (b = bundle_for_add(c, &ba)) == NULL)
		return;
	if (b->n_msgs >= cfg->bundle_msgs_max ||
	    b->len + ba.msg_len > cfg->bundle_bytes_max) {
		(*sw->sim->c.bundle_limit_refused)++;
		bundle_refuse(c, OF_BFC_MSG_TOO_MANY);
		return;
	}
	bundle_append(b, ba.msg, ba.msg_len);
	b->last_ns = clock_ns();
	(*sw->sim->c.bundle_msgs)++;
}

/* ---- the commit ---- */

struct of_commit {
	struct of_switch	*sw;
	uint64_t		 now;
	struct of_ft_result	 res;		/* all its flow changes */
	struct of_groups	*saved;		/* groups before, if touched */
	int			 groups_touched;
	uint32_t		 flow_mods;
	uint32_t		 group_mods;
};

/* A group the commit deleted takes its flows (1.3.5 section 6.5),
 * inside the flow table's transaction. */
static void
commit_group_deleted(void *arg, uint32_t group_id)
{
	struct of_commit	*cm = arg;
	struct of_ft_result	 r;

	if (of_group_flows_delete(cm->sw, group_id, cm->now, &r) == 0)
		cm->res.deleted += r.deleted;
}

static int
commit_flow_mod(struct of_commit *cm, struct rbuf *body, enum of_err *err)
{
	struct of_switch	*sw = cm->sw;
	struct of_flow_mod	 fm;
	struct of_ft_result	 r;

	if (of_flow_mod_decode(sw->version, body, &fm, err) == -1 ||
	    of_flow_mod_validate(sw, &fm, err) == -1 ||
	    of_flowtable_apply(sw->ft, &fm, cm->now, of_switch_flow_removed,
	    sw, &r, err) == -1) {
		(*sw->sim->c.flow_mod_errors)++;
		return -1;
	}
	cm->res.added += r.added;
	cm->res.modified += r.modified;
	cm->res.deleted += r.deleted;
	cm->flow_mods++;
	return 0;
}

static int
commit_group_mod(struct of_commit *cm, struct rbuf *body, enum of_err *err)
{
	struct of_switch	*sw = cm->sw;
	struct of_group_mod	 gm;
	struct of_group_limits	 lim;

	if (!cm->groups_touched) {
		cm->saved = of_groups_clone(sw->owner->groups);
		cm->groups_touched = 1;
	}
	lim.n_ports = sw->sim->cfg.ports;
	lim.max_groups = sw->sim->cfg.max_groups;
	lim.max_depth = sw->sim->cfg.max_group_depth;
	if (of_group_mod_any_decode(sw->version, sw->owner->groups, body,
	    &gm, err) == -1 ||
	    of_groups_apply(&sw->owner->groups, &gm, &lim, cm->now,
	    commit_group_deleted, cm, err) == -1) {
		(*sw->sim->c.group_mod_errors)++;
		return -1;
	}
	of_groups_watch_flows(sw, 0);	/* a table the commit made */
	cm->group_mods++;
	return 0;
}

/* One message of the bundle, in order; PORT_MODs are only checked. */
static int
commit_one(struct of_commit *cm, const uint8_t *m, size_t len,
    enum of_err *err)
{
	struct of_port_mod	pm;
	struct rbuf		body;

	rbuf_init(&body, m + OF_HEADER_LEN, len - OF_HEADER_LEN);
	switch (m[1]) {
	case OF_WT_FLOW_MOD:
		return commit_flow_mod(cm, &body, err);
	case OF_WT_GROUP_MOD:
		return commit_group_mod(cm, &body, err);
	case OF_WT_PORT_MOD:
		return of_port_mod_check(cm->sw, &body, &pm, err);
	}
	*err = OF_ERR_BAD_TYPE;		/* refused when added */
	return -1;
}

static size_t
msg_len_at(const uint8_t *m)
{
	return (size_t)(m[2] << 8 | m[3]);
}

static uint32_t
u32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/* A committed FLOW_MOD's buffer id answers a PACKET_IN, as
 * of_on_flow_mod does (ofp_flow_mod: command at 25, buffer_id at 32). */
static void
commit_buffer(struct of_switch *sw, const uint8_t *m, uint64_t now)
{
	if (msg_len_at(m) >= 36 && m[25] <= OF_FC_MODIFY_STRICT &&
	    u32_at(m + 32) != 0xffffffffu)
		of_pktin_response(sw, u32_at(m + 32), now);
}

/* The commit held: freed what it replaced, FLOW_REMOVED, the port
 * changes with their PORT_STATUS, then the counters and phases. */
static void
commit_finish(struct of_commit *cm, const struct of_bundle *b)
{
	struct of_switch	*sw = cm->sw;
	struct of_port_mod	 pm;
	struct rbuf		 body;
	enum of_err		 err;
	size_t			 off;
	uint32_t		 i;

	of_flowtable_txn_commit(sw->ft);
	of_groups_free(cm->saved);
	for (off = 0; off < b->len; off += msg_len_at(b->msgs + off)) {
		if (b->msgs[off + 1] == OF_WT_FLOW_MOD)
			commit_buffer(sw, b->msgs + off, cm->now);
		if (b->msgs[off + 1] != OF_WT_PORT_MOD)
			continue;
		rbuf_init(&body, b->msgs + off + OF_HEADER_LEN,
		    msg_len_at(b->msgs + off) - OF_HEADER_LEN);
		if (of_port_mod_check(sw, &body, &pm, &err) == 0)
			of_port_mod_apply(sw, &pm);
	}
	*sw->sim->c.flow_mods += cm->flow_mods;
	*sw->sim->c.group_mods += cm->group_mods;
	/* Each FLOW_MOD taken: per controller, the failover clock. */
	for (i = 0; i < cm->flow_mods; i++)
		of_switch_flow_mod_taken(sw, cm->now);
	if (cm->flow_mods > 0)
		of_switch_timed(sw->owner);
	of_flows_account(sw, &cm->res, cm->now);
}

/* The bundle's messages in order: 0, or -1 with the tables as they were
 * and the failing message's ERROR sent. */
static int
commit_apply(struct of_switch *sw, const struct of_bundle *b)
{
	struct of_commit	 cm;
	enum of_err		 err = OF_ERR_NONE;
	const uint8_t		*m;
	size_t			 off;

	memset(&cm, 0, sizeof(cm));
	cm.sw = sw;
	cm.now = clock_ns();
	of_flowtable_txn_begin(sw->ft);
	for (off = 0; off < b->len; off += msg_len_at(m)) {
		m = b->msgs + off;
		if (commit_one(&cm, m, msg_len_at(m), &err) == -1)
			break;
	}
	if (off >= b->len) {
		commit_finish(&cm, b);
		return 0;
	}
	of_flowtable_txn_rollback(sw->ft);
	if (cm.groups_touched) {
		of_groups_free(sw->owner->groups);
		sw->owner->groups = cm.saved;
		of_groups_watch_flows(sw, 1);
	}
	of_switch_error(sw, u32_at(m + 4), err, m, msg_len_at(m));
	return -1;
}

/* ---- BUNDLE_CONTROL ---- */

static void
bundle_open(const struct of_ctx *c, const struct of_bundle_ctrl *bc)
{
	if (bundle_find(c->sw, bc->bundle_id) != NULL) {
		bundle_refuse(c, OF_BFC_BUNDLE_EXIST);
		return;
	}
	if (bundle_new(c, bc->bundle_id, bc->flags) != NULL)
		bundle_reply(c, bc, OF_BCT_OPEN_REPLY);
}

static void
bundle_close(const struct of_ctx *c, struct of_bundle *b,
    const struct of_bundle_ctrl *bc)
{
	if (b->closed) {
		bundle_refuse(c, OF_BFC_BUNDLE_CLOSED);
		return;
	}
	if (b->flags != bc->flags) {
		bundle_refuse(c, OF_BFC_BAD_FLAGS);
		return;
	}
	b->closed = 1;
	bundle_reply(c, bc, OF_BCT_CLOSE_REPLY);
}

/* An open or closed bundle commits (7.3.9.4); it is gone afterwards,
 * whatever the outcome, as in Open vSwitch. */
static void
bundle_commit(const struct of_ctx *c, struct of_bundle *b,
    const struct of_bundle_ctrl *bc)
{
	struct of_switch	*sw = c->sw;
	uint16_t		 code = OF_BFC_MSG_FAILED;

	if (b->flags != bc->flags)
		code = OF_BFC_BAD_FLAGS;
	else if (sw->ft != NULL && commit_apply(sw, b) == 0) {
		(*sw->sim->c.bundles_committed)++;
		bundle_remove(sw, b);
		bundle_reply(c, bc, OF_BCT_COMMIT_REPLY);
		return;
	}
	(*sw->sim->c.bundles_failed)++;
	bundle_remove(sw, b);
	bundle_refuse(c, code);
}

void
of_on_bundle_control(const struct of_ctx *c, struct rbuf *body)
{
	struct of_bundle_ctrl	 bc;
	struct of_bundle	*b;
	uint16_t		 code;

	if (of_slave_refuse(c))
		return;
	if (of_bundle_ctrl_decode(body, &bc, &code) == -1) {
		bundle_refuse(c, code);
		return;
	}
	if (bc.type == OF_BCT_OPEN_REQUEST) {
		bundle_open(c, &bc);
		return;
	}
	if (bc.type != OF_BCT_CLOSE_REQUEST && bc.type != OF_BCT_COMMIT_REQUEST &&
	    bc.type != OF_BCT_DISCARD_REQUEST) {
		bundle_refuse(c, OF_BFC_BAD_TYPE);	/* replies included */
		return;
	}
	if ((b = bundle_find(c->sw, bc.bundle_id)) == NULL) {
		bundle_refuse(c, OF_BFC_BAD_ID);
		return;
	}
	if (bc.type == OF_BCT_CLOSE_REQUEST)
		bundle_close(c, b, &bc);
	else if (bc.type == OF_BCT_COMMIT_REQUEST)
		bundle_commit(c, b, &bc);
	else {
		(*c->sw->sim->c.bundles_discarded)++;
		bundle_remove(c->sw, b);
		bundle_reply(c, &bc, OF_BCT_DISCARD_REPLY);
	}
}

/* ONF's experimenter messages in 1.3 (the row in of_experimenter.c);
 * 1.0 has no bundles. */
void
of_onf_on_msg(const struct of_ctx *c, uint32_t exp_type, struct rbuf *rest)
{
	if (c->sw->version == OF_VERSION_13 &&
	    exp_type == OF_ONFT_BUNDLE_CONTROL)
		of_on_bundle_control(c, rest);
	else if (c->sw->version == OF_VERSION_13 &&
	    exp_type == OF_ONFT_BUNDLE_ADD_MESSAGE)
		of_on_bundle_add_message(c, rest);
	else {
		(*c->sw->sim->c.experimenter_refused)++;
		of_refuse(c, OF_ERR_BAD_EXPERIMENTER);
	}
}
