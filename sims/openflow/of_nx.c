/*
 * Nicira vendor messages (Open vSwitch's nicira-ext.h and ofp-msgs.h), as
 * `ovs-ofctl` sends them in its default mode (OpenFlow 1.0 with NXM):
 * NXT_SET_FLOW_FORMAT, NXT_FLOW_MOD_TABLE_ID, NXT_SET_PACKET_IN_FORMAT,
 * NXT_FLOW_MOD, and the NXST_FLOW and NXST_AGGREGATE statistics.  The
 * formats are per connection, as in Open vSwitch.  A flow added over NXM
 * is the same flow as one added with an OXM or 1.0 match (of_nxm.h).
 */
#include <stddef.h>
#include <string.h>

#include "of_actions.h"
#include "of_codec.h"
#include "of_experimenter.h"
#include "of_nx.h"
#include "of_nx_tlv.h"
#include "of_nxm.h"
#include "of_sim.h"
#include "ofp.h"

/* Message subtypes (enum nicira_type) and formats. */
#define NXT_SET_FLOW_FORMAT		12
#define NXT_FLOW_MOD			13
#define NXT_FLOW_MOD_TABLE_ID		15
#define NXT_SET_PACKET_IN_FORMAT	16
#define NXT_FLOW_REMOVED		14
#define NXT_TLV_TABLE_MOD		24
#define NXT_TLV_TABLE_REQUEST		25
#define NXFF_OPENFLOW10			0
#define NXFF_NXM			2
#define NXPIF_STANDARD			0	/* plain PACKET_IN */
#define NXST_FLOW			0
#define NXST_AGGREGATE			1
#define NX_STATS10_PAD			4	/* after 1.0's stats subtype */
#define NX_STATS10_HDR			24	/* nicira10_stats_msg */
#define NX_FLOW_MOD_LEN			32	/* after the nicira_header */
#define NX_FLOW_STATS_REQ_LEN		8
#define NX_FLOW_STATS_LEN		48
#define NX_MATCH_ALIGN			8
#define OF_MPF_MORE_FLAG		0x1
#define OF_ST_VENDOR			0xffff

static void
nx_refuse(const struct of_ctx *c, enum of_err err)
{
	(*c->sw->sim->c.nx_refused)++;
	of_refuse(c, err);
}

static size_t
nx_pad(size_t len)
{
	return (NX_MATCH_ALIGN - len % NX_MATCH_ALIGN) % NX_MATCH_ALIGN;
}

/* A u32 format from a body of exactly four bytes; -1 refused. */
static int
nx_format(const struct of_ctx *c, struct rbuf *r, uint32_t *fmt)
{
	if (rbuf_left(r) != 4 || rbuf_get_u32(r, fmt) == -1) {
		nx_refuse(c, OF_ERR_BAD_LEN);
		return -1;
	}
	return 0;
}

static void
nx_set_flow_format(const struct of_ctx *c, struct rbuf *r)
{
	uint32_t	fmt;

	if (nx_format(c, r, &fmt) == -1)
		return;
	if (fmt != NXFF_OPENFLOW10 && fmt != NXFF_NXM) {
		nx_refuse(c, OF_ERR_EPERM);
		return;
	}
	c->sw->nx_flow_format = (uint8_t)fmt;
}

/* This switch sends standard PACKET_INs only: NXT_PACKET_IN(2) are
 * refused, and Open vSwitch's tools then use the standard one. */
static void
nx_set_packet_in_format(const struct of_ctx *c, struct rbuf *r)
{
	uint32_t	fmt;

	if (nx_format(c, r, &fmt) == -1)
		return;
	if (fmt != NXPIF_STANDARD)
		nx_refuse(c, OF_ERR_EPERM);
}

/* nx_flow_mod_table_id: set (0 or 1), seven zero bytes. */
static void
nx_flow_mod_table_id(const struct of_ctx *c, struct rbuf *r)
{
	uint8_t	set;

	if (rbuf_left(r) != 8 || rbuf_get_u8(r, &set) == -1) {
		nx_refuse(c, OF_ERR_BAD_LEN);
		return;
	}
	if (set > 1) {
		nx_refuse(c, OF_ERR_EPERM);
		return;
	}
	c->sw->nx_flow_mod_table_id = set;
}

/* An nx_match of len bytes and its padding; the cookie it may carry
 * (NXM_NX_COOKIE) goes to cookie/mask. */
static int
nx_match(struct rbuf *r, uint16_t len, struct of_match *m,
    uint64_t *cookie, uint64_t *mask, enum of_err *err)
{
	if (of_nxm_decode(r, len, m, cookie, mask, err) == -1)
		return -1;
	if (rbuf_skip(r, nx_pad(len)) == -1) {
		*err = OF_ERR_BAD_MATCH_LEN;
		return -1;
	}
	return 0;
}

/* nx_flow_mod (nicira-ext.h): ofp10_flow_mod with an nx_match, the
 * table in the command's high byte once FLOW_MOD_TABLE_ID is on. */
static int
nx_flow_mod_decode(const struct of_ctx *c, struct rbuf *r,
    struct of_flow_mod *fm, enum of_err *err)
{
	uint64_t	cookie = 0, cookie_mask = 0;
	uint16_t	cmd, mlen;

	memset(fm, 0, sizeof(*fm));
	*err = OF_ERR_BAD_LEN;
	if (rbuf_left(r) < NX_FLOW_MOD_LEN)
		return -1;
	if (of_flow_mod10_fields(r, fm, &cmd, err) == -1)
		return -1;
	rbuf_get_u16(r, &mlen);
	rbuf_skip(r, 6);
	fm->command = cmd & 0xff;
	fm->table_id = c->sw->nx_flow_mod_table_id ? cmd >> 8 : 0;
	if (!c->sw->nx_flow_mod_table_id && cmd > 0xff) {
		*err = OF_ERR_FLOW_BAD_COMMAND;
		return -1;
	}
	if (nx_match(r, mlen, &fm->match, &cookie, &cookie_mask, err) == -1)
		return -1;
	/* A cookie in the match selects the flows MODIFY and DELETE change,
	 * as 1.3's cookie_mask does; ADD sets the header's. */
	if (cookie_mask != 0 && fm->command != OF_FC_ADD) {
		fm->cookie = cookie;
		fm->cookie_mask = cookie_mask;
	}
	fm->prog = rbuf_ptr(r);
	fm->prog_len = rbuf_left(r);
	return 0;
}

static void
nx_flow_mod(const struct of_ctx *c, struct rbuf *r)
{
	struct of_flow_mod	fm;
	enum of_err		err = OF_ERR_NONE;

	if (of_slave_refuse(c))
		return;
	if (c->sw->version != OF_VERSION_10) {
		nx_refuse(c, OF_ERR_BAD_EXP_TYPE);	/* 1.0's actions */
		return;
	}
	if (nx_flow_mod_decode(c, r, &fm, &err) == -1) {
		(*c->sw->sim->c.nx_refused)++;
		of_flow_mod_take(c, NULL, err);
		return;
	}
	of_flow_mod_take(c, &fm, err);
}

/*
 * OFPT_FLOW_MOD (1.0) on a connection that turned NXT_FLOW_MOD_TABLE_ID
 * on: the command's high byte is the table (Open vSwitch's
 * "OpenFlow10+table_id" protocol, which ovs-ofctl uses for a table= flow
 * whose match 1.0 can carry).  of_codec.c read the command clamped; the
 * wire's is after the 40-byte ofp_match and the cookie.
 */
void
of_nx_flow_mod10_table(const struct of_ctx *c, struct of_flow_mod *fm)
{
	const uint8_t	*cmd = c->msg + OF_HEADER_LEN + OF10_MATCH_LEN + 8;

	if (c->sw->version != OF_VERSION_10 || !c->sw->nx_flow_mod_table_id ||
	    c->h->length < OF_HEADER_LEN + OF10_MATCH_LEN + 8 + 2)
		return;
	fm->command = cmd[1];
	fm->table_id = cmd[0];
}

void
of_nx_on_msg(const struct of_ctx *c, uint32_t subtype, struct rbuf *r)
{
	switch (subtype) {
	case NXT_SET_FLOW_FORMAT:	nx_set_flow_format(c, r); return;
	case NXT_FLOW_MOD_TABLE_ID:	nx_flow_mod_table_id(c, r); return;
	case NXT_SET_PACKET_IN_FORMAT:	nx_set_packet_in_format(c, r); return;
	case NXT_FLOW_MOD:		nx_flow_mod(c, r); return;
	case NXT_TLV_TABLE_MOD:		of_nx_tlv_mod(c, r); return;
	case NXT_TLV_TABLE_REQUEST:	of_nx_tlv_request(c, r); return;
	}
	nx_refuse(c, OF_ERR_BAD_EXP_TYPE);
}

/*
 * The fixed part of the two Nicira messages that carry a flow
 * (nicira-ext.h), each a list of rows: an of_flow_info member, as wide on
 * the wire as in the struct, or zeros (NXF_ZERO: a length or a field this
 * switch does not keep, as the 16-bit ages) or the match_len the
 * nx_match fills in (NXF_MLEN).
 */
struct nx_field {
	uint16_t	off;		/* in struct of_flow_info, or below */
	uint8_t		width;
};
#define NXF_MLEN	0xfffe
#define NXF_NONE	0xffff
#define NXF(m)	{ offsetof(struct of_flow_info, m),			\
	sizeof(((const struct of_flow_info *)0)->m) }
#define NXF_ZERO(n)	{ NXF_NONE, (n) }
#define NX_N(t)		(sizeof(t) / sizeof((t)[0]))

/* nx_flow_removed after the nicira_header. */
static const struct nx_field nx_removed_fields[] = {
	NXF(cookie), NXF(priority), NXF(reason), NXF(table_id),
	NXF(duration_sec), NXF(duration_nsec), NXF(idle_timeout),
	{ NXF_MLEN, 2 }, NXF(packet_count), NXF(byte_count),
};

/* nx_flow_stats: length (set once the entry is whole), table, pad,
 * duration, priority, timeouts, match_len, idle and hard age, cookie,
 * counters. */
static const struct nx_field nx_stats_fields[] = {
	NXF_ZERO(2), NXF(table_id), NXF_ZERO(1), NXF(duration_sec),
	NXF(duration_nsec), NXF(priority), NXF(idle_timeout),
	NXF(hard_timeout), { NXF_MLEN, 2 }, NXF_ZERO(2), NXF_ZERO(2),
	NXF(cookie), NXF(packet_count), NXF(byte_count),
};

/* One member of fi, width bytes, big-endian. */
static void
nx_field_put(struct wbuf *w, const uint8_t *p, uint8_t width)
{
	uint64_t	v64;
	uint32_t	v32;
	uint16_t	v16;

	switch (width) {
	case 1:
		wbuf_put_u8(w, *p);
		return;
	case 2:
		memcpy(&v16, p, 2);
		wbuf_put_u16(w, v16);
		return;
	case 4:
		memcpy(&v32, p, 4);
		wbuf_put_u32(w, v32);
		return;
	}
	memcpy(&v64, p, 8);
	wbuf_put_u64(w, v64);
}

/* The rows of f for fi into w; returns where match_len went. */
static size_t
nx_fields_put(struct wbuf *w, const struct of_flow_info *fi,
    const struct nx_field *f, size_t n)
{
	size_t	i, mlen_at = 0;

	for (i = 0; i < n; i++) {
		if (f[i].off == NXF_MLEN)
			mlen_at = w->len;
		if (f[i].off >= NXF_MLEN)
			wbuf_put_zero(w, f[i].width);
		else
			nx_field_put(w, (const uint8_t *)fi + f[i].off,
			    f[i].width);
	}
	return mlen_at;
}

/* NXT_FLOW_REMOVED (nx_flow_removed): what a connection that chose the
 * NXM flow format hears instead of OFPT_FLOW_REMOVED, as from Open
 * vSwitch; the match in NXM form. */
/* The match in NXM form, its length written back at len_at (the
 * message's match_len field), padded to 8 bytes as nx_match is. */
static int
nx_match_put(struct wbuf *w, size_t len_at, const struct of_match *m)
{
	int	mlen = of_nxm_encode(w, m);

	if (mlen < 0)
		return -1;
	wbuf_set_u16(w, len_at, (uint16_t)mlen);
	wbuf_put_zero(w, nx_pad((size_t)mlen));
	return 0;
}

int
of_nx_flow_removed_encode(struct wbuf *w, uint32_t xid,
    const struct of_flow_info *fi)
{
	size_t	start = of_msg_begin(w, OF_VERSION_10, OF_EXPERIMENTER, xid);
	size_t	mlen_at;

	wbuf_put_u32(w, OF_EXP_NICIRA);
	wbuf_put_u32(w, NXT_FLOW_REMOVED);
	mlen_at = nx_fields_put(w, fi, nx_removed_fields,
	    NX_N(nx_removed_fields));
	if (nx_match_put(w, mlen_at, fi->match) == -1)
		return -1;
	return of_msg_end(w, start);
}

int
of_nx_flow_format_nxm(const struct of_switch *sw)
{
	return sw->version == OF_VERSION_10 && sw->nx_flow_format == NXFF_NXM;
}

/* ---- NXST_FLOW, NXST_AGGREGATE (1.0 only) ---- */

/* Reply header: ofp_stats_reply, vendor, subtype, pad (nicira10_stats_msg). */
static size_t
nx_stats_begin(struct wbuf *w, uint32_t xid, uint32_t subtype, uint16_t flags)
{
	size_t	start = of_msg_begin(w, OF_VERSION_10, OF_MULTIPART_REPLY, xid);

	wbuf_put_u16(w, OF_ST_VENDOR);
	wbuf_put_u16(w, flags);
	wbuf_put_u32(w, OF_EXP_NICIRA);
	wbuf_put_u32(w, subtype);
	wbuf_put_zero(w, NX_STATS10_PAD);
	return start;
}

/* nx_flow_stats_request / nx_aggregate_stats_request into f. */
static int
nx_filter_decode(struct rbuf *r, struct of_flow_filter *f, enum of_err *err)
{
	uint16_t	port, mlen;

	memset(f, 0, sizeof(*f));
	*err = OF_ERR_BAD_LEN;
	if (rbuf_skip(r, NX_STATS10_PAD) == -1 ||
	    rbuf_left(r) < NX_FLOW_STATS_REQ_LEN)
		return -1;
	rbuf_get_u16(r, &port);
	rbuf_get_u16(r, &mlen);
	rbuf_get_u8(r, &f->table_id);
	rbuf_skip(r, 3);
	f->out_port = ofp_port10_filter(port);
	f->out_group = OF_GROUP_ANY;
	if (nx_match(r, mlen, &f->match, &f->cookie, &f->cookie_mask,
	    err) == -1)
		return -1;
	if (rbuf_left(r) != 0)
		return -1;
	return 0;
}

struct nx_flow_reply {
	struct of_switch	*sw;
	struct wbuf		*w;
	uint32_t		 xid;
	size_t			 start;		/* the message being filled */
	size_t			 max;
	unsigned		 entries;
};

/* One nx_flow_stats: header, nx_match and padding, actions as kept. */
static void
nx_flow_entry(struct wbuf *w, const struct of_flow_info *fi)
{
	size_t	start = w->len, mstart;

	mstart = nx_fields_put(w, fi, nx_stats_fields, NX_N(nx_stats_fields));
	if (nx_match_put(w, mstart, fi->match) == -1)
		return;
	wbuf_put_bytes(w, fi->prog, fi->prog_len);
	if (!w->err)
		wbuf_set_u16(w, start, (uint16_t)(w->len - start));
}

/* Close the message being filled (MORE set when more follow), send it. */
static void
nx_flow_reply_flush(struct nx_flow_reply *fr, int more)
{
	if (more)
		wbuf_set_u16(fr->w, fr->start + OF_HEADER_LEN + 2,
		    OF_MPF_MORE_FLAG);
	of_msg_end(fr->w, fr->start);
	of_switch_send(fr->sw, fr->w);
}

/*
 * One flow into the reply.  A message may pass fr->max only to carry a
 * single entry (as of_codec_mp.c's builder); an entry no message can
 * hold makes the whole reply fail (w->err: dropped and logged), as there.
 */
static int
nx_flow_visit(void *arg, const struct of_flow_info *fi)
{
	static uint8_t		 entry[OF_MAX_MSG];
	struct nx_flow_reply	*fr = arg;
	size_t			 mark = fr->w->len, n;

	nx_flow_entry(fr->w, fi);
	n = fr->w->len - mark;
	if (fr->w->err || n > OF_MAX_MSG - NX_STATS10_HDR) {
		fr->w->err = 1;
		return 1;
	}
	if (fr->w->len - fr->start <= fr->max || fr->entries == 0) {
		fr->entries++;
		return 0;
	}
	/* Too full: this entry starts the next message. */
	memcpy(entry, fr->w->data + mark, n);
	fr->w->len = mark;
	nx_flow_reply_flush(fr, 1);
	fr->start = nx_stats_begin(fr->w, fr->xid, NXST_FLOW, 0);
	wbuf_put_bytes(fr->w, entry, n);
	fr->entries = 1;
	return 0;
}

static void
nx_stats_flow(const struct of_ctx *c, struct rbuf *r)
{
	struct of_switch	*sw = c->sw;
	struct of_flow_filter	 f;
	struct nx_flow_reply	 fr;
	enum of_err		 err;

	if (nx_filter_decode(r, &f, &err) == -1) {
		nx_refuse(c, err);
		return;
	}
	fr.sw = sw;
	fr.w = of_scratch();
	fr.xid = c->h->xid;
	fr.max = sw->sim->cfg.mp_max_bytes == 0 ||
	    sw->sim->cfg.mp_max_bytes > OF_MAX_MSG ? OF_MAX_MSG :
	    sw->sim->cfg.mp_max_bytes;
	fr.entries = 0;
	fr.start = nx_stats_begin(fr.w, fr.xid, NXST_FLOW, 0);
	of_flowtable_walk(sw->ft, &f, clock_ns(), nx_flow_visit, &fr);
	nx_flow_reply_flush(&fr, 0);
}

static void
nx_stats_aggregate(const struct of_ctx *c, struct rbuf *r)
{
	struct of_flow_filter	 f;
	struct wbuf		*w;
	uint64_t		 packets, bytes;
	uint32_t		 flows;
	size_t			 start;
	enum of_err		 err;

	if (nx_filter_decode(r, &f, &err) == -1) {
		nx_refuse(c, err);
		return;
	}
	of_flowtable_aggregate(c->sw->ft, &f, &packets, &bytes, &flows);
	w = of_scratch();
	start = nx_stats_begin(w, c->h->xid, NXST_AGGREGATE, 0);
	wbuf_put_u64(w, packets);
	wbuf_put_u64(w, bytes);
	wbuf_put_u32(w, flows);
	wbuf_put_zero(w, 4);
	of_msg_end(w, start);
	of_switch_send(c->sw, w);
}

void
of_nx_on_mp(const struct of_ctx *c, uint32_t subtype, struct rbuf *r)
{
	(*c->sw->sim->c.stats_requests)++;
	if (c->sw->version != OF_VERSION_10) {
		/* 1.3 tools use OFPMP_FLOW with OXM (of_match.c). */
		nx_refuse(c, OF_ERR_BAD_EXP_TYPE);
		return;
	}
	switch (subtype) {
	case NXST_FLOW:		nx_stats_flow(c, r); return;
	case NXST_AGGREGATE:	nx_stats_aggregate(c, r); return;
	}
	nx_refuse(c, OF_ERR_BAD_EXP_TYPE);
}
