/*
 * OpenFlow multipart (1.3 section 7.3.5) and stats (1.0 section 5.3.5)
 * requests and replies, including the builder that splits long replies
 * over several messages with the MORE flag.
 */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "of_actions.h"
#include "of_codec.h"
#include "of_codec14.h"
#include "of_group.h"
#include "of_oxm.h"
#include "of_wire_actions.h"
#include "ofp.h"
#include "ofp14.h"

#define NOWIRE	(-1)

static const struct {
	const char	*name;
	int32_t		 wire10;
	int32_t		 wire13;	/* and 1.4, 1.5 */
	uint8_t		 since;		/* 1.3 family: 0 is 1.3 */
} of_mps[OF_MP_UNKNOWN] = {
	[OF_MP_DESC] = { "DESC", OFP10_ST_DESC, OFP13_MP_DESC },
	[OF_MP_FLOW] = { "FLOW", OFP10_ST_FLOW, OFP13_MP_FLOW },
	[OF_MP_AGGREGATE] = { "AGGREGATE", OFP10_ST_AGGREGATE,
	    OFP13_MP_AGGREGATE },
	[OF_MP_TABLE] = { "TABLE", OFP10_ST_TABLE, OFP13_MP_TABLE },
	[OF_MP_PORT_STATS] = { "PORT_STATS", OFP10_ST_PORT,
	    OFP13_MP_PORT_STATS },
	[OF_MP_QUEUE] = { "QUEUE", OFP10_ST_QUEUE, OFP13_MP_QUEUE },
	[OF_MP_GROUP] = { "GROUP", NOWIRE, OFP13_MP_GROUP },
	[OF_MP_GROUP_DESC] = { "GROUP_DESC", NOWIRE, OFP13_MP_GROUP_DESC },
	[OF_MP_GROUP_FEATURES] = { "GROUP_FEATURES", NOWIRE,
	    OFP13_MP_GROUP_FEATURES },
	[OF_MP_METER] = { "METER", NOWIRE, OFP13_MP_METER },
	[OF_MP_METER_CONFIG] = { "METER_CONFIG", NOWIRE,
	    OFP13_MP_METER_CONFIG },
	[OF_MP_METER_FEATURES] = { "METER_FEATURES", NOWIRE,
	    OFP13_MP_METER_FEATURES },
	[OF_MP_TABLE_FEATURES] = { "TABLE_FEATURES", NOWIRE,
	    OFP13_MP_TABLE_FEATURES },
	[OF_MP_PORT_DESC] = { "PORT_DESC", OFP10_ST_PORT_DESC,
	    OFP13_MP_PORT_DESC },
	[OF_MP_EXPERIMENTER] = { "EXPERIMENTER", OFP10_ST_VENDOR,
	    OFP13_MP_EXPERIMENTER },
	[OF_MP_TABLE_DESC] = { "TABLE_DESC", NOWIRE, OFP14_MP_TABLE_DESC,
	    OF_VERSION_14 },
	[OF_MP_QUEUE_DESC] = { "QUEUE_DESC", NOWIRE, OFP14_MP_QUEUE_DESC,
	    OF_VERSION_14 },
	[OF_MP_FLOW_MONITOR] = { "FLOW_MONITOR", NOWIRE,
	    OFP14_MP_FLOW_MONITOR, OF_VERSION_14 },
	[OF_MP_FLOW_STATS] = { "FLOW_STATS", NOWIRE, OFP15_MP_FLOW_STATS,
	    OF_VERSION_15 },
	[OF_MP_CONTROLLER_STATUS] = { "CONTROLLER_STATUS", NOWIRE,
	    OFP15_MP_CONTROLLER_STATUS, OF_VERSION_15 },
	[OF_MP_BUNDLE_FEATURES] = { "BUNDLE_FEATURES", NOWIRE,
	    OFP15_MP_BUNDLE_FEATURES, OF_VERSION_15 },
};

static int
bad(enum of_err *err, enum of_err e)
{
	if (err != NULL)
		*err = e;
	return -1;
}

/* A kind a later version added has no wire value before it. */
static int32_t
mp_wire(uint8_t version, int mp)
{
	if (version == OF_VERSION_10)
		return of_mps[mp].wire10;
	if (of_mps[mp].since != 0 && version < of_mps[mp].since)
		return NOWIRE;
	return of_mps[mp].wire13;
}

enum of_mp
of_mp_from_wire(uint8_t version, uint16_t wire)
{
	int	mp;

	for (mp = 0; mp < OF_MP_UNKNOWN; mp++)
		if (mp_wire(version, mp) == wire)
			return mp;
	return OF_MP_UNKNOWN;
}

int
of_mp_to_wire(uint8_t version, enum of_mp mp)
{
	if ((unsigned)mp >= OF_MP_UNKNOWN)
		return -1;
	return mp_wire(version, mp);
}

const char *
of_mp_name(enum of_mp mp)
{
	if ((unsigned)mp >= OF_MP_UNKNOWN)
		return "UNKNOWN";
	return of_mps[mp].name;
}

/*
 * Multipart header: type, flags and (1.3 only) 4 pad bytes after the
 * ofp_header (1.3 section 7.3.5; 1.0's ofp_stats_request has no pad).
 */
static size_t
mp_begin(struct wbuf *w, uint8_t version, enum of_type t, uint32_t xid,
    enum of_mp mp, uint16_t flags)
{
	size_t	start;
	int	wire = of_mp_to_wire(version, mp);

	if (wire == -1) {
		w->err = 1;
		return w->len;
	}
	start = of_msg_begin(w, version, t, xid);
	wbuf_put_u16(w, (uint16_t)wire);
	wbuf_put_u16(w, flags);
	if (version != OF_VERSION_10)
		wbuf_put_zero(w, 4);
	return start;
}

/* Requests (switch side decode, controller side encode). */

static int
mp_hdr_decode(uint8_t version, struct rbuf *r, uint16_t *type,
    uint16_t *flags)
{
	if (rbuf_get_u16(r, type) == -1 || rbuf_get_u16(r, flags) == -1)
		return -1;
	if (version != OF_VERSION_10 && rbuf_skip(r, 4) == -1)
		return -1;
	return 0;
}

/*
 * Kinds this version does not define are BAD_MULTIPART (BAD_STAT in 1.0);
 * an experimenter body goes to of_experimenter.c's table.
 */
int
of_mp_request_decode(uint8_t version, struct rbuf *r,
    struct of_mp_request *req, enum of_err *err)
{
	if (mp_hdr_decode(version, r, &req->wire_type, &req->flags) == -1)
		return bad(err, OF_ERR_BAD_LEN);
	req->mp = of_mp_from_wire(version, req->wire_type);
	rbuf_sub(r, &req->body, rbuf_left(r));
	if (req->mp == OF_MP_UNKNOWN)
		return bad(err, OF_ERR_BAD_MULTIPART);
	return 0;
}

/* ofp_flow_stats_request, 1.0 section 5.3.5: match, table_id, pad, port. */
static int
flow_req10_decode(struct rbuf *r, struct of_flow_filter *f, enum of_err *err)
{
	uint16_t	port;

	if (rbuf_left(r) < OFP10_FLOW_STATS_REQ_BODY)
		return bad(err, OF_ERR_BAD_LEN);
	if (of_match_decode10(r, &f->match, err) == -1)
		return -1;
	rbuf_get_u8(r, &f->table_id);
	rbuf_skip(r, 1);
	rbuf_get_u16(r, &port);
	f->out_port = ofp_port10_filter(port);
	f->out_group = OF_GROUP_ANY;
	return 0;
}

/* ofp_flow_stats_request / ofp_aggregate_stats_request, 1.3 7.3.5.2-3. */
static int
flow_req13_decode(struct rbuf *r, struct of_flow_filter *f, enum of_err *err)
{
	if (rbuf_left(r) < OFP13_FLOW_STATS_REQ_FIXED)
		return bad(err, OF_ERR_BAD_LEN);
	rbuf_get_u8(r, &f->table_id);
	rbuf_skip(r, 3);
	rbuf_get_u32(r, &f->out_port);
	rbuf_get_u32(r, &f->out_group);
	rbuf_skip(r, 4);
	rbuf_get_u64(r, &f->cookie);
	rbuf_get_u64(r, &f->cookie_mask);
	return of_match_decode13(r, &f->match, err);
}

int
of_flow_stats_request_decode(uint8_t version, struct rbuf *r,
    struct of_flow_filter *f, enum of_err *err)
{
	memset(f, 0, sizeof(*f));
	if (version == OF_VERSION_10)
		return flow_req10_decode(r, f, err);
	return flow_req13_decode(r, f, err);
}

int
of_flow_stats_request_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    enum of_mp mp, const struct of_flow_filter *f)
{
	size_t	start;

	if (mp != OF_MP_FLOW && mp != OF_MP_AGGREGATE) {
		w->err = 1;
		return -1;
	}
	start = mp_begin(w, version, OF_MULTIPART_REQUEST, xid, mp, 0);
	if (version == OF_VERSION_10) {
		ofp_match_put(w, version, &f->match);
		wbuf_put_u8(w, f->table_id);
		wbuf_put_zero(w, 1);
		wbuf_put_u16(w, ofp_port10_filter_out(f->out_port));
	} else {
		wbuf_put_u8(w, f->table_id);
		wbuf_put_zero(w, 3);
		wbuf_put_u32(w, f->out_port);
		wbuf_put_u32(w, f->out_group);
		wbuf_put_zero(w, 4);
		wbuf_put_u64(w, f->cookie);
		wbuf_put_u64(w, f->cookie_mask);
		ofp_match_put(w, version, &f->match);
	}
	return of_msg_end(w, start);
}

/*
 * ofp_port_stats_request and ofp_queue_stats_request both start with the
 * port and are 8 bytes in both versions (1.3 7.3.5.6 and 7.3.5.8; 1.0
 * 5.3.5).  1.0's OFPP_NONE (all ports) becomes OF_PORT_ANY.
 */
int
of_port_stats_request_decode(uint8_t version, struct rbuf *r,
    uint32_t *port_no, enum of_err *err)
{
	uint16_t	p10;

	if (rbuf_left(r) < OFP_PORT_STATS_REQ_BODY)
		return bad(err, OF_ERR_BAD_LEN);
	if (version != OF_VERSION_10)
		return rbuf_get_u32(r, port_no);
	rbuf_get_u16(r, &p10);
	*port_no = ofp_port10_filter(p10);
	return 0;
}

int
of_mp_request_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    enum of_mp mp, const void *body, size_t len)
{
	size_t	start;

	start = mp_begin(w, version, OF_MULTIPART_REQUEST, xid, mp, 0);
	if (body != NULL)
		wbuf_put_bytes(w, body, len);
	return of_msg_end(w, start);
}

/* Single-message replies. */

/* ofp_desc, 1.3 section 7.3.5.1 / 1.0 ofp_desc_stats. */
int
of_mp_desc_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    const struct of_desc *d)
{
	size_t	start;

	start = mp_begin(w, version, OF_MULTIPART_REPLY, xid, OF_MP_DESC, 0);
	ofp_put_str(w, d->mfr_desc, OFP_DESC_STR_LEN);
	ofp_put_str(w, d->hw_desc, OFP_DESC_STR_LEN);
	ofp_put_str(w, d->sw_desc, OFP_DESC_STR_LEN);
	ofp_put_str(w, d->serial_num, OFP_SERIAL_NUM_LEN);
	ofp_put_str(w, d->dp_desc, OFP_DESC_STR_LEN);
	return of_msg_end(w, start);
}

/* ofp_aggregate_stats_reply, same 24 bytes in 1.3 7.3.5.3 and 1.0. */
int
of_mp_aggregate_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    uint64_t packets, uint64_t bytes, uint32_t flows)
{
	size_t	start;

	start = mp_begin(w, version, OF_MULTIPART_REPLY, xid,
	    OF_MP_AGGREGATE, 0);
	if (version >= OF_VERSION_15) {
		ofp15_aggregate_put(w, packets, bytes, flows);
		return of_msg_end(w, start);
	}
	wbuf_put_u64(w, packets);
	wbuf_put_u64(w, bytes);
	wbuf_put_u32(w, flows);
	wbuf_put_zero(w, 4);
	return of_msg_end(w, start);
}

/*
 * ofp_group_features (7.3.5.11, 40 bytes) and ofp_meter_features
 * (7.3.5.14, 16 bytes) all zero say "no groups, no meters"; the other
 * kinds answer with no entries.
 */
int
of_mp_empty_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    enum of_mp mp)
{
	size_t	start;

	start = mp_begin(w, version, OF_MULTIPART_REPLY, xid, mp, 0);
	if (mp == OF_MP_GROUP_FEATURES)
		wbuf_put_zero(w, OFP13_GROUP_FEATURES_LEN);
	else if (mp == OF_MP_METER_FEATURES)
		wbuf_put_zero(w, OFP13_METER_FEATURES_LEN);
	return of_msg_end(w, start);
}

/* Entries of multi-entry replies. */

/*
 * ofp_flow_stats (1.3 section 7.3.5.2, 1.0 section 5.3.5): the same
 * fields in both but for where the match sits (1.0: after table_id; 1.3:
 * at the end) and 1.3's flags in 1.0's padding.
 */
static void
flow_stats_fields(struct wbuf *w, uint8_t version,
    const struct of_flow_info *fi)
{
	int	v10 = version == OF_VERSION_10;

	wbuf_put_u8(w, fi->table_id);
	wbuf_put_zero(w, 1);
	if (v10)
		ofp_match_put(w, version, fi->match);
	wbuf_put_u32(w, fi->duration_sec);
	wbuf_put_u32(w, fi->duration_nsec);
	wbuf_put_u16(w, fi->priority);
	wbuf_put_u16(w, fi->idle_timeout);
	wbuf_put_u16(w, fi->hard_timeout);
	if (v10)
		wbuf_put_zero(w, 6);
	else {
		/* 1.4 puts importance in 1.3's padding (1.4.1 A.3.5.2). */
		wbuf_put_u16(w, fi->flags);
		wbuf_put_u16(w, version >= OF_VERSION_14 ? fi->importance :
		    0);
		wbuf_put_zero(w, 2);
	}
	wbuf_put_u64(w, fi->cookie);
	wbuf_put_u64(w, fi->packet_count);
	wbuf_put_u64(w, fi->byte_count);
	if (!v10)
		ofp_match_put(w, version, fi->match);
}

static void
flow_entry(struct wbuf *w, uint8_t version, const void *arg)
{
	const struct of_flow_info	*fi = arg;
	size_t				 start = w->len;

	/* 1.5's OFPMP_FLOW_DESC (wire 1): the counts as OXS. */
	if (version >= OF_VERSION_15) {
		ofp15_flow_desc_put(w, fi);
		return;
	}
	wbuf_put_u16(w, 0);		/* length, patched below */
	flow_stats_fields(w, version, fi);
	if (fi->prog_len > 0)
		of_prog_put(w, version, fi->prog, fi->prog_len);
	if (w->err || w->len - start > UINT16_MAX) {
		w->err = 1;
		return;
	}
	wbuf_set_u16(w, start, (uint16_t)(w->len - start));
}

/* ofp_table_stats: 1.3 section 7.3.5.4 (24 bytes), 1.0 (64 bytes). */
static void
table_entry(struct wbuf *w, uint8_t version, const void *arg)
{
	const struct of_table_stats	*ts = arg;

	wbuf_put_u8(w, ts->table_id);
	wbuf_put_zero(w, 3);
	if (version == OF_VERSION_10) {
		ofp_put_str(w, OFP10_TABLE_NAME, OFP10_TABLE_NAME_LEN);
		wbuf_put_u32(w, OF10_FW_ALL);
		wbuf_put_u32(w, ts->max_entries);
	}
	wbuf_put_u32(w, ts->active_count);
	wbuf_put_u64(w, ts->lookup_count);
	wbuf_put_u64(w, ts->matched_count);
}

/* rx/tx packets, bytes, drops and errors: every version's first eight
 * port counters (1.4 moves the others into a property). */
void
ofp_port_counters_put(struct wbuf *w, const struct of_port_stats *ps)
{
	of_fields_put(w, ps, of_port_counters, OF_PORT_COUNTERS_COMMON);
}

/* ofp_port_stats: 1.3 section 7.3.5.6 (112 bytes), 1.0 (104 bytes). */
static void
port_stats_entry(struct wbuf *w, uint8_t version, const void *arg)
{
	const struct of_port_stats	*ps = arg;

	if (version >= OF_VERSION_14) {
		ofp14_port_stats_encode(w, ps);
		return;
	}
	if (version == OF_VERSION_10) {
		wbuf_put_u16(w, of_port_narrow10(ps->port_no));
		wbuf_put_zero(w, 6);
	} else {
		wbuf_put_u32(w, ps->port_no);
		wbuf_put_zero(w, 4);
	}
	of_fields_put(w, ps, of_port_counters, OF_NFIELDS(of_port_counters));
	if (version != OF_VERSION_10) {
		wbuf_put_u32(w, ps->duration_sec);
		wbuf_put_u32(w, ps->duration_nsec);
	}
}

/* PORT_DESC entries are ofp_port (1.3 section 7.3.5.7). */
static void
port_entry(struct wbuf *w, uint8_t version, const void *arg)
{
	ofp_port_encode(w, version, arg);
}

/* TABLE_FEATURES entries, 1.3 section 7.3.5.5. */

struct tf_arg {
	uint8_t		table_id;
	uint8_t		n_tables;
	uint32_t	max_entries;
};

/* A property: type, length without padding, body, padding to 8 (also
 * 1.5's ofp_stats: reserved 0, length, OXS fields, padding). */
size_t
ofp_prop_begin(struct wbuf *w, uint16_t type)
{
	size_t	start = w->len;

	wbuf_put_u16(w, type);
	wbuf_put_u16(w, 0);		/* length, ofp_prop_end */
	return start;
}

void
ofp_prop_end(struct wbuf *w, size_t start)
{
	size_t	len = w->len - start;

	wbuf_set_u16(w, start + 2, (uint16_t)len);
	if (len % 8 != 0)
		wbuf_put_zero(w, 8 - len % 8);
}

/* Ids are the 4-byte headers: type, length 4 (7.3.5.5.2). */
static void
tf_ids(struct wbuf *w, uint16_t prop, const uint16_t *ids, size_t n)
{
	size_t	start = ofp_prop_begin(w, prop), i;

	for (i = 0; i < n; i++) {
		wbuf_put_u16(w, ids[i]);
		wbuf_put_u16(w, OFP13_TFP_ID_LEN);
	}
	ofp_prop_end(w, start);
}

/* GOTO_TABLE only where a later table exists (it must go forward). */
static void
tf_instructions(struct wbuf *w, const struct tf_arg *a)
{
	static const uint16_t	all[] = { OF13_IT_GOTO_TABLE,
	    OF13_IT_WRITE_METADATA, OF13_IT_WRITE_ACTIONS,
	    OF13_IT_APPLY_ACTIONS, OF13_IT_CLEAR_ACTIONS };
	int			last = a->table_id + 1 >= a->n_tables;

	tf_ids(w, OFP13_TFPT_INSTRUCTIONS, all + last,
	    sizeof(all) / sizeof(all[0]) - last);
}

static void
tf_next_tables(struct wbuf *w, const struct tf_arg *a)
{
	size_t		start = ofp_prop_begin(w, OFP13_TFPT_NEXT_TABLES);
	unsigned	t;

	for (t = a->table_id + 1u; t < a->n_tables; t++)
		wbuf_put_u8(w, (uint8_t)t);
	ofp_prop_end(w, start);
}

/* The actions of_actions.c accepts (experimenter aside). */
static void
tf_actions(struct wbuf *w, uint16_t prop)
{
	static const uint16_t	acts[] = { OF13_AT_OUTPUT,
	    OF13_AT_COPY_TTL_OUT, OF13_AT_COPY_TTL_IN, OF13_AT_SET_MPLS_TTL,
	    OF13_AT_DEC_MPLS_TTL, OF13_AT_PUSH_VLAN, OF13_AT_POP_VLAN,
	    OF13_AT_PUSH_MPLS, OF13_AT_POP_MPLS, OF13_AT_SET_QUEUE,
	    OF13_AT_GROUP, OF13_AT_SET_NW_TTL, OF13_AT_DEC_NW_TTL,
	    OF13_AT_SET_FIELD, OF13_AT_PUSH_PBB, OF13_AT_POP_PBB };

	tf_ids(w, prop, acts, sizeof(acts) / sizeof(acts[0]));
}

/*
 * OXM headers of the basic fields: with HASMASK for the maskable ones in
 * MATCH; without the pipeline fields for SET_FIELD (as of_actions.c).
 */
static void
tf_oxms(struct wbuf *w, uint16_t prop)
{
	const struct oxm_field	*f;
	size_t			 start = ofp_prop_begin(w, prop);
	unsigned		 n;
	int			 hm;

	for (n = 0; n < OXM_N_FIELDS; n++) {
		if ((f = oxm_field_get((uint8_t)n)) == NULL)
			continue;
		if ((prop == OFP13_TFPT_WRITE_SETFIELD ||
		    prop == OFP13_TFPT_APPLY_SETFIELD) && (n == OXM_IN_PORT ||
		    n == OXM_IN_PHY_PORT || n == OXM_METADATA))
			continue;
		hm = prop == OFP13_TFPT_MATCH && f->maskable;
		wbuf_put_u32(w, OXM_HEADER(n, hm, hm ? 2 * f->len : f->len));
	}
	ofp_prop_end(w, start);
}

static void
table_features_entry(struct wbuf *w, uint8_t version, const void *arg)
{
	const struct tf_arg	*a = arg;
	size_t			 start = w->len;
	char			 name[OFP13_TABLE_NAME_LEN];

	snprintf(name, sizeof(name), "table%u", a->table_id);
	wbuf_put_u16(w, 0);		/* length, patched below */
	wbuf_put_u8(w, a->table_id);
	if (version >= OF_VERSION_15) {
		/* command, features: every table ingress, none egress */
		wbuf_put_u8(w, 0);
		wbuf_put_u32(w, OFP15_TFF_INGRESS_TABLE);
	} else
		wbuf_put_zero(w, 5);
	ofp_put_str(w, name, OFP13_TABLE_NAME_LEN);
	wbuf_put_u64(w, UINT64_MAX);	/* metadata_match */
	wbuf_put_u64(w, UINT64_MAX);	/* metadata_write */
	wbuf_put_u32(w, 0);		/* config */
	wbuf_put_u32(w, a->max_entries);
	tf_instructions(w, a);
	tf_next_tables(w, a);
	tf_actions(w, OFP13_TFPT_WRITE_ACTIONS);
	tf_actions(w, OFP13_TFPT_APPLY_ACTIONS);
	tf_oxms(w, OFP13_TFPT_MATCH);
	tf_oxms(w, OFP13_TFPT_WILDCARDS);
	tf_oxms(w, OFP13_TFPT_WRITE_SETFIELD);
	tf_oxms(w, OFP13_TFPT_APPLY_SETFIELD);
	if (w->err || w->len - start > UINT16_MAX || version == OF_VERSION_10) {
		w->err = 1;
		return;
	}
	wbuf_set_u16(w, start, (uint16_t)(w->len - start));
}

/* The reply builder, 1.3 section 7.3.5. */

void
of_mp_reply_begin(struct of_mp_reply *r, struct wbuf *w, uint8_t version,
    uint32_t xid, enum of_mp mp, size_t max_msg,
    void (*flush)(void *, struct wbuf *), void *arg)
{
	r->w = w;
	r->version = version;
	r->xid = xid;
	r->mp = mp;
	r->max_msg = max_msg == 0 || max_msg > OF_MAX_MSG ? OF_MAX_MSG :
	    max_msg;
	r->entries = 0;
	r->flush = flush;
	r->arg = arg;
	r->start = mp_begin(w, version, OF_MULTIPART_REPLY, xid, mp, 0);
}

/*
 * Close the current message with flags and hand it to flush().  With no
 * flush callback the messages simply pile up in the wbuf.  A wbuf in error
 * is never flushed: the caller sees err and drops it.
 */
static int
mp_reply_close(struct of_mp_reply *r, uint16_t flags)
{
	struct wbuf	*w = r->w;
	size_t		 off;

	off = r->start + OFP_HEADER_LEN + sizeof(uint16_t);	/* flags */
	if (flags != 0)
		wbuf_set_u16(w, off, flags);
	if (of_msg_end(w, r->start) == -1)
		return -1;
	if (r->flush != NULL)
		r->flush(r->arg, w);
	return 0;
}

/*
 * A message may pass max_msg only to carry a single entry that is larger
 * on its own; OF_MAX_MSG and the wbuf's capacity are hard limits.
 */
static int
mp_reply_fits(const struct of_mp_reply *r)
{
	size_t	len = r->w->len - r->start;

	if (r->w->err)
		return 0;
	return len <= r->max_msg || (r->entries == 0 && len <= OF_MAX_MSG);
}

typedef void	(*mp_entry_fn)(struct wbuf *, uint8_t, const void *);

static int
mp_reply_add(struct of_mp_reply *r, enum of_mp mp, mp_entry_fn fn,
    const void *entry)
{
	struct wbuf	*w = r->w;
	size_t		 mark = w->len;

	if (w->err || r->mp != mp) {
		w->err = 1;
		return -1;
	}
	fn(w, r->version, entry);
	if (mp_reply_fits(r))
		goto added;
	if (r->entries == 0) {
		w->err = 1;		/* too large for any message */
		return -1;
	}
	/* Undo the entry, send what we have with MORE, start over. */
	w->len = mark;
	w->err = 0;
	if (mp_reply_close(r, OF_MPF_MORE) == -1)
		return -1;
	r->entries = 0;
	r->start = mp_begin(w, r->version, OF_MULTIPART_REPLY, r->xid, mp, 0);
	fn(w, r->version, entry);
	if (!mp_reply_fits(r)) {
		w->err = 1;
		return -1;
	}
 added:
	r->entries++;
	return 0;
}

int
of_mp_reply_add_entry(struct of_mp_reply *r, enum of_mp mp,
    of_mp_entry_fn fn, const void *entry)
{
	return mp_reply_add(r, mp, fn, entry);
}

int
of_mp_reply_add_flow(struct of_mp_reply *r, const struct of_flow_info *fi)
{
	return mp_reply_add(r, OF_MP_FLOW, flow_entry, fi);
}

int
of_mp_reply_add_flow_stats15(struct of_mp_reply *r,
    const struct of_flow_info *fi)
{
	return mp_reply_add(r, OF_MP_FLOW_STATS, ofp15_flow_stats_put, fi);
}

int
of_mp_reply_add_table_desc(struct of_mp_reply *r,
    const struct of_table_desc *td)
{
	return mp_reply_add(r, OF_MP_TABLE_DESC, ofp14_table_desc_put, td);
}

struct flow_update_arg {
	uint16_t			 event;
	int				 instructions;
	const struct of_flow_info	*fi;
};

static void
flow_update_entry(struct wbuf *w, uint8_t version, const void *arg)
{
	const struct flow_update_arg	*a = arg;

	ofp14_flow_update_put(w, version, a->event, a->fi, a->instructions);
}

int
of_mp_reply_add_flow_update(struct of_mp_reply *r, uint16_t event,
    const struct of_flow_info *fi, int instructions)
{
	struct flow_update_arg	a = { event, instructions, fi };

	return mp_reply_add(r, OF_MP_FLOW_MONITOR, flow_update_entry, &a);
}

int
of_mp_reply_add_table(struct of_mp_reply *r, const struct of_table_stats *ts)
{
	return mp_reply_add(r, OF_MP_TABLE, table_entry, ts);
}

int
of_mp_reply_add_port_stats(struct of_mp_reply *r,
    const struct of_port_stats *ps)
{
	return mp_reply_add(r, OF_MP_PORT_STATS, port_stats_entry, ps);
}

int
of_mp_reply_add_port(struct of_mp_reply *r, const struct of_port *p)
{
	return mp_reply_add(r, OF_MP_PORT_DESC, port_entry, p);
}

int
of_mp_reply_add_table_features(struct of_mp_reply *r, uint8_t table_id,
    uint8_t n_tables, uint32_t max_entries)
{
	struct tf_arg	a = { table_id, n_tables, max_entries };

	return mp_reply_add(r, OF_MP_TABLE_FEATURES, table_features_entry, &a);
}

int
of_mp_reply_end(struct of_mp_reply *r)
{
	return mp_reply_close(r, 0);
}

/* Controller side. */

int
of_mp_reply_decode(uint8_t version, struct rbuf *r, enum of_mp *mp,
    uint16_t *flags, struct rbuf *entries)
{
	uint16_t	type;

	if (mp_hdr_decode(version, r, &type, flags) == -1)
		return -1;
	*mp = of_mp_from_wire(version, type);
	return rbuf_sub(r, entries, rbuf_left(r));
}

/*
 * An ofp_flow_stats after its length (1.3 section 7.3.5.2, 1.0 section
 * 5.3.5): the same fields in both but for where the match sits (1.0:
 * after table_id; 1.3: at the end) and 1.3's flags in 1.0's padding.
 */
static int
flow_stats_entry(uint8_t version, struct rbuf *e, struct of_flow_info *fi,
    struct of_match *store)
{
	enum of_err	err;
	int		v10 = version == OF_VERSION_10;

	if (rbuf_left(e) < (v10 ? OFP10_FLOW_STATS_FIXED :
	    OFP13_FLOW_STATS_FIXED) - sizeof(uint16_t))
		return -1;
	rbuf_get_u8(e, &fi->table_id);
	rbuf_skip(e, 1);
	if (v10 && of_match_decode10(e, store, &err) == -1)
		return -1;
	rbuf_get_u32(e, &fi->duration_sec);
	rbuf_get_u32(e, &fi->duration_nsec);
	rbuf_get_u16(e, &fi->priority);
	rbuf_get_u16(e, &fi->idle_timeout);
	rbuf_get_u16(e, &fi->hard_timeout);
	if (v10)
		rbuf_skip(e, 6);
	else {
		rbuf_get_u16(e, &fi->flags);
		rbuf_skip(e, 4);
	}
	rbuf_get_u64(e, &fi->cookie);
	rbuf_get_u64(e, &fi->packet_count);
	rbuf_get_u64(e, &fi->byte_count);
	return v10 ? 0 : of_match_decode13(e, store, &err);
}

/* The next ofp_port_stats of a PORT_STATS reply (the layout of
 * port_stats_entry): 1, 0 at the end, -1 on a short entry. */
int
of_port_stats_next(uint8_t version, struct rbuf *entries,
    struct of_port_stats *ps)
{
	uint16_t	 p10;

	if (rbuf_left(entries) == 0)
		return 0;
	if (version >= OF_VERSION_14)
		return ofp14_port_stats_decode(entries, ps) == -1 ? -1 : 1;
	memset(ps, 0, sizeof(*ps));
	if (version == OF_VERSION_10) {
		if (rbuf_get_u16(entries, &p10) == -1 ||
		    rbuf_skip(entries, 6) == -1)
			return -1;
		ps->port_no = of_port_widen10(p10);
	} else if (rbuf_get_u32(entries, &ps->port_no) == -1 ||
	    rbuf_skip(entries, 4) == -1)
		return -1;
	if (of_fields_get(entries, ps, of_port_counters,
	    OF_NFIELDS(of_port_counters)) == -1)
		return -1;
	if (version != OF_VERSION_10 &&
	    (rbuf_get_u32(entries, &ps->duration_sec) == -1 ||
	    rbuf_get_u32(entries, &ps->duration_nsec) == -1))
		return -1;
	return 1;
}

int
of_flow_stats_next(uint8_t version, struct rbuf *entries,
    struct of_flow_info *fi, struct of_match *store)
{
	struct rbuf	e;
	uint16_t	len;

	if (rbuf_left(entries) == 0)
		return 0;
	memset(fi, 0, sizeof(*fi));
	if (rbuf_get_u16(entries, &len) == -1 || len < sizeof(len) ||
	    rbuf_sub(entries, &e, len - sizeof(len)) == -1)
		return -1;
	if (flow_stats_entry(version, &e, fi, store) == -1)
		return -1;
	fi->match = store;
	fi->prog = rbuf_ptr(&e);
	fi->prog_len = rbuf_left(&e);
	return 1;
}

int
of_aggregate_decode(struct rbuf *entries, uint64_t *packets, uint64_t *bytes,
    uint32_t *flows)
{
	if (rbuf_left(entries) < OFP_AGGREGATE_REPLY_BODY)
		return -1;
	rbuf_get_u64(entries, packets);
	rbuf_get_u64(entries, bytes);
	rbuf_get_u32(entries, flows);
	rbuf_skip(entries, 4);
	return 0;
}

/* Groups (1.3 only). */

/* ofp_group_desc (1.3.5 section 7.3.5.10): the buckets as stored. */
static void
group_desc_entry(struct wbuf *w, uint8_t version, const void *arg)
{
	const struct of_group_info	*gi = arg;

	if (version >= OF_VERSION_15) {
		ofp15_group_desc_put(w, gi);
		return;
	}
	wbuf_put_u16(w, (uint16_t)(OFP13_GROUP_DESC_FIXED + gi->buckets_len));
	wbuf_put_u8(w, gi->type);
	wbuf_put_zero(w, 1);
	wbuf_put_u32(w, gi->group_id);
	wbuf_put_bytes(w, gi->buckets, gi->buckets_len);
}

/* ofp_group_stats (7.3.5.9) and one ofp_bucket_counter per bucket: the
 * packets sbsim sent through them (PACKET_OUTs to the group; flows carry
 * no traffic), 0 until one was. */
static void
group_stats_entry(struct wbuf *w, uint8_t version, const void *arg)
{
	const struct of_group_info	*gi = arg;
	size_t				 n = gi->n_buckets, k;

	(void)version;
	wbuf_put_u16(w, (uint16_t)(OFP13_GROUP_STATS_FIXED +
	    n * OFP13_BUCKET_COUNTER_LEN));
	wbuf_put_zero(w, 2);
	wbuf_put_u32(w, gi->group_id);
	wbuf_put_u32(w, gi->ref_count);
	wbuf_put_zero(w, 4);
	wbuf_put_u64(w, gi->counters != NULL ? gi->counters[0] : 0);
	wbuf_put_u64(w, gi->counters != NULL ? gi->counters[1] : 0);
	wbuf_put_u32(w, gi->duration_sec);
	wbuf_put_u32(w, gi->duration_nsec);
	for (k = 1; k <= n; k++) {
		wbuf_put_u64(w, gi->counters != NULL ? gi->counters[2 * k] : 0);
		wbuf_put_u64(w, gi->counters != NULL ?
		    gi->counters[2 * k + 1] : 0);
	}
}

int
of_mp_reply_add_group_desc(struct of_mp_reply *r,
    const struct of_group_info *gi)
{
	return mp_reply_add(r, OF_MP_GROUP_DESC, group_desc_entry, gi);
}

int
of_mp_reply_add_group_stats(struct of_mp_reply *r,
    const struct of_group_info *gi)
{
	return mp_reply_add(r, OF_MP_GROUP, group_stats_entry, gi);
}

/* ofp_group_stats_request (7.3.5.9): group_id, pad. */
int
of_group_stats_request_decode(struct rbuf *r, uint32_t *group_id,
    enum of_err *err)
{
	return of_mp_id_request_decode(r, group_id, err);
}

/* A request body of an id and 4 bytes of padding: ofp_group_stats_request
 * (7.3.5.9), ofp_meter_multipart_request (7.3.5.13). */
int
of_mp_id_request_decode(struct rbuf *r, uint32_t *id, enum of_err *err)
{
	if (rbuf_left(r) < OFP13_GROUP_STATS_REQ_BODY)
		return bad(err, OF_ERR_BAD_LEN);
	rbuf_get_u32(r, id);
	return 0;
}

/*
 * ofp_group_features (7.3.5.11): every type, weighted select, chaining
 * checked for loops and on delete; max_groups per type (one table holds
 * them all, so each type may reach the bound); the actions a bucket
 * takes (all the flow actions, GROUP included).
 */
int
of_mp_group_features_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    uint32_t max_groups)
{
	size_t	start;
	int	i;

	start = mp_begin(w, version, OF_MULTIPART_REPLY, xid,
	    OF_MP_GROUP_FEATURES, 0);
	wbuf_put_u32(w, 1u << OF_GT_ALL | 1u << OF_GT_SELECT |
	    1u << OF_GT_INDIRECT | 1u << OF_GT_FF);
	wbuf_put_u32(w, OFP13_GFC_SELECT_WEIGHT | OFP13_GFC_CHAINING |
	    OFP13_GFC_CHAINING_CHECKS);
	for (i = 0; i < 4; i++)
		wbuf_put_u32(w, max_groups);
	for (i = 0; i < 4; i++)
		wbuf_put_u32(w, OF13_BUCKET_ACTIONS);
	return of_msg_end(w, start);
}
