/*
 * libFuzzer harness for every OpenFlow decoder (1.0 and 1.3), the action
 * and instruction validators and the flow table (docs/design.md,
 * "Testing layers").
 *
 * Input: one selector byte, then the bytes the chosen decoder sees.
 *   selector bit 7: 1 = OpenFlow 1.0, 0 = OpenFlow 1.3
 *   selector bits 0-6, modulo FZ__MAX: which decoder (enum fz_kind)
 * For the message kinds the bytes are a whole message: the 8-byte header
 * goes through of_header_decode and everything after it is the body (the
 * header's length is not trusted, so every length reaches the decoder).
 * FZ_SWITCH frames a stream of messages by their header length, as
 * of_read does, and plays FLOW_MODs and stats requests against one flow
 * table, and ONF bundles in 1.3 (a discarded one must leave the table as
 * it was).  FZ_MATCH13/10, FZ_ACTIONS and FZ_INSTRUCTIONS take the raw
 * structure with no header, FZ_NXM an nx_match (Nicira's, of_nxm.c),
 * FZ_NX_TLV TLV table mods (of_nx_tlv.c).
 *
 * Besides "no crash, no leak, no UB" a few properties are checked (abort
 * on failure): a decoded match re-encodes and decodes to itself and covers
 * itself; what the flow table reports in flow stats decodes back to the
 * same flows, in the same order, in as many as AGGREGATE counts (also
 * split over several messages with the MORE flag); a FLOW_MOD that
 * succeeded left the table as section 6.4 says (the flow added, the flows
 * modified carrying the new instructions, the flows deleted gone);
 * PACKET_IN, PACKET_OUT and SET_ASYNC survive an encode/decode round trip.
 *
 * Built without SBSIM_LIBFUZZER, a main() runs the harness once on each
 * file named on the command line: the regression test over the seed
 * corpus (tests/fuzz/fuzz_corpus.sh).  See tests/fuzz/README.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "of_actions.h"
#include "of_bundle.h"
#include "of_codec.h"
#include "of_flowtable.h"
#include "of_group.h"
#include "of_meter.h"
#include "of_match.h"
#include "of_nx_tlv.h"
#include "of_nxm.h"
#include "of_oxm.h"
#include "fuzz_driver.h"

#define FZ_PORTS	4
#define FZ_TABLES	4
#define FZ_TABLE_SIZE	20	/* past 16: the hash grows and shrinks */
#define FZ_MAX_FLOWS	(FZ_TABLES * FZ_TABLE_SIZE)
#define FZ_NOW		(1000ULL * 1000000000ULL)
#define FZ_MSG_CAP	(OF_MAX_MSG + 1024)
#define FZ_SECOND	1000000000ULL
#define FZ_FOREVER	(70000ULL * FZ_SECOND)	/* past any timeout */
#define FZ_SMALL_MSG	200	/* a flow stats reply of several messages */
/* A body this small always fits in a re-encoded message. */
#define FZ_ROUNDTRIP_MAX	60000

enum fz_kind {
	FZ_HEADER,
	FZ_HELLO,
	FZ_ERROR,
	FZ_FEATURES_REPLY,
	FZ_SWITCH_CONFIG,
	FZ_PACKET_IN,
	FZ_PACKET_OUT,
	FZ_FLOW_MOD,
	FZ_PORT_MOD,
	FZ_ROLE,
	FZ_ASYNC,
	FZ_QUEUE_GET_CONFIG,
	FZ_MP_REQUEST,
	FZ_MP_REPLY,
	FZ_MATCH13,
	FZ_MATCH10,
	FZ_ACTIONS,
	FZ_INSTRUCTIONS,
	FZ_SWITCH,
	FZ_NXM,		/* an nx_match (of_nxm.c), no header */
	FZ_NX_TLV,	/* nx_tlv_table_mod bodies (of_nx_tlv.c) */
	FZ__MAX
};

static uint8_t	fz_out[FZ_MSG_CAP];

/* ---- flow table, and the stats replies read back ---- */

/* What flow stats visited, compared with what the reply decodes to. */
struct fz_seen {
	uint16_t	priority;
	uint64_t	cookie;
	struct of_match	match;
	uint8_t		prog[256];
	size_t		prog_len;	/* > sizeof(prog): not compared */
};

struct fz_stats {
	uint8_t			 version;
	struct fz_seen		 seen[FZ_MAX_FLOWS];
	size_t			 n_seen;
	size_t			 n_read;
	struct of_mp_reply	*mr;
};

static void
fz_flow_removed(void *arg, const struct of_flow_info *fi)
{
	uint8_t		*version = arg;
	struct wbuf	 w;
	struct rbuf	 r;
	struct of_header h;

	wbuf_init(&w, fz_out, sizeof(fz_out));
	of_flow_removed_encode(&w, *version, 0, fi);
	/* A FLOW_REMOVED has no instructions: it always fits. */
	FZ_CHECK(!w.err);
	rbuf_init(&r, w.data, w.len);
	FZ_CHECK(of_header_decode(&r, &h) == 0 && h.length == w.len);
}

/* One reply message of the builder: decode every entry it carries. */
static void
fz_stats_flush(void *arg, struct wbuf *w)
{
	struct fz_stats		*st = arg;
	struct of_flow_info	 fi;
	struct of_match		 store;
	struct of_header	 h;
	struct rbuf		 r, entries;
	const struct fz_seen	*s;
	enum of_mp		 mp;
	uint16_t		 flags;
	int			 rc;

	rbuf_init(&r, w->data, w->len);
	FZ_CHECK(of_header_decode(&r, &h) == 0 && h.length == w->len);
	FZ_CHECK(of_mp_reply_decode(st->version, &r, &mp, &flags,
	    &entries) == 0 && mp == OF_MP_FLOW);
	while ((rc = of_flow_stats_next(st->version, &entries, &fi,
	    &store)) == 1) {
		FZ_CHECK(st->n_read < st->n_seen);
		s = &st->seen[st->n_read++];
		FZ_CHECK(fi.priority == s->priority);
		FZ_CHECK(fi.cookie == s->cookie);
		FZ_CHECK(of_match_equal(fi.match, &s->match));
		if (s->prog_len <= sizeof(s->prog))
			FZ_CHECK(fi.prog_len == s->prog_len &&
			    memcmp(fi.prog, s->prog, s->prog_len) == 0);
	}
	FZ_CHECK(rc == 0);
	wbuf_reset(w);
}

static int
fz_stats_visit(void *arg, const struct of_flow_info *fi)
{
	struct fz_stats	*st = arg;
	struct fz_seen	*s;

	if (st->n_seen == FZ_MAX_FLOWS)
		return 1;
	s = &st->seen[st->n_seen++];
	s->priority = fi->priority;
	s->cookie = fi->cookie;
	s->match = *fi->match;
	s->prog_len = fi->prog_len;
	if (fi->prog_len <= sizeof(s->prog))
		memcpy(s->prog, fi->prog, fi->prog_len);
	return of_mp_reply_add_flow(st->mr, fi) == -1;
}

/*
 * Flow stats and aggregate for a filter, as the switch answers them; the
 * reply is read back with the controller-side decoders.  A small max_msg
 * splits it over several messages (the MORE flag); 0 is the default.
 */
static void
fz_stats(struct of_flowtable *ft, uint8_t version,
    const struct of_flow_filter *f, size_t max_msg)
{
	static struct fz_stats	 st;
	struct of_mp_reply	 mr;
	struct wbuf		 w;
	uint64_t		 packets, bytes;
	uint32_t		 flows;
	int			 n;

	memset(&st, 0, sizeof(st));
	st.version = version;
	st.mr = &mr;
	wbuf_init(&w, fz_out, sizeof(fz_out));
	of_mp_reply_begin(&mr, &w, version, 1, OF_MP_FLOW, max_msg,
	    fz_stats_flush, &st);
	n = of_flowtable_walk(ft, f, FZ_NOW, fz_stats_visit, &st);
	of_mp_reply_end(&mr);
	of_flowtable_aggregate(ft, f, &packets, &bytes, &flows);
	if (n < 0) {
		FZ_CHECK(flows == 0);
		return;
	}
	if (w.err || st.n_seen == FZ_MAX_FLOWS)
		return;		/* an entry too large for any message */
	FZ_CHECK(st.n_read == st.n_seen && (uint32_t)n == st.n_seen);
	FZ_CHECK(flows == (uint32_t)n);
}

/* In fz_switch's stream, a FLOW_MOD's GROUP actions must name groups of
 * its table, as of_handlers.c checks (BAD_OUT_GROUP). */
static int			 fz_check_groups;
static const struct of_groups	*fz_gt;

/* What of_handlers.c checks before a FLOW_MOD reaches the table. */
static int
fz_flow_mod_validate(uint8_t version, const struct of_flow_mod *fm)
{
	enum of_err	err;

	if (fm->command == OF_FC_DELETE || fm->command == OF_FC_DELETE_STRICT)
		return 0;
	if (fm->table_id >= FZ_TABLES)
		return -1;
	if (version == OF_VERSION_13)
		return of_instructions_check(fm->prog, fm->prog_len,
		    fm->table_id, FZ_TABLES, FZ_PORTS, fz_check_groups,
		    fz_gt, &err);
	return of_actions_validate(version, fm->prog, fm->prog_len, FZ_PORTS,
	    &err);
}

/* What a FLOW_MOD that succeeded must have left in the table. */
struct fz_mod_check {
	const struct of_flow_mod	*fm;
	uint8_t				 version;
	int				 strict;
	int				 found;
};

static int
fz_prog_is(const struct of_flow_info *fi, const struct of_flow_mod *fm)
{
	return fi->prog_len == fm->prog_len && (fm->prog_len == 0 ||
	    memcmp(fi->prog, fm->prog, fm->prog_len) == 0);
}

/* Called for each flow the FLOW_MOD's own match (non-strict) selects. */
static int
fz_mod_visit(void *arg, const struct of_flow_info *fi)
{
	struct fz_mod_check		*mc = arg;
	const struct of_flow_mod	*fm = mc->fm;
	int				 exact;

	exact = fi->priority == fm->priority &&
	    of_match_equal(fi->match, &fm->match);
	switch (fm->command) {
	case OF_FC_ADD:
		if (exact) {
			mc->found = 1;
			FZ_CHECK(fz_prog_is(fi, fm) && fi->cookie == fm->cookie);
		}
		break;
	case OF_FC_MODIFY:
	case OF_FC_MODIFY_STRICT:
		if (!mc->strict || exact) {
			mc->found = 1;
			FZ_CHECK(fz_prog_is(fi, fm));
			if (mc->version == OF_VERSION_10)
				FZ_CHECK(fi->cookie == fm->cookie);
		}
		break;
	case OF_FC_DELETE:
	case OF_FC_DELETE_STRICT:
		/* Selected by every filter the delete had: it must be gone. */
		FZ_CHECK(mc->strict && !exact);
		break;
	}
	return 0;
}

static void
fz_check_mod(struct of_flowtable *ft, uint8_t version,
    const struct of_flow_mod *fm)
{
	struct of_flow_filter	f;
	struct fz_mod_check	mc = { fm, version, 0, 0 };
	int			del = fm->command == OF_FC_DELETE ||
				    fm->command == OF_FC_DELETE_STRICT;

	mc.strict = fm->command == OF_FC_MODIFY_STRICT ||
	    fm->command == OF_FC_DELETE_STRICT;
	memset(&f, 0, sizeof(f));
	f.table_id = version == OF_VERSION_10 ? OF_TABLE_ALL : fm->table_id;
	f.out_port = del ? fm->out_port : OF_PORT_ANY;
	f.out_group = del ? fm->out_group : OF_GROUP_ANY;
	if (fm->command != OF_FC_ADD) {
		f.cookie = fm->cookie;
		f.cookie_mask = fm->cookie_mask;
	}
	f.match = fm->match;
	of_flowtable_walk(ft, &f, FZ_NOW, fz_mod_visit, &mc);
	if (fm->command == OF_FC_ADD)
		FZ_CHECK(mc.found);
	/* 1.0 section 4.6: a MODIFY that finds nothing adds the flow. */
	if (version == OF_VERSION_10 && !del)
		FZ_CHECK(mc.found);
}

static void
fz_apply(struct of_flowtable *ft, uint8_t version,
    const struct of_flow_mod *fm, uint64_t now)
{
	struct of_ft_result	res;
	enum of_err		err = OF_ERR_NONE;
	uint64_t		before = of_flowtable_total(ft);

	if (of_flowtable_apply(ft, fm, now, fz_flow_removed, &version, &res,
	    &err) == -1) {
		FZ_CHECK(err != OF_ERR_NONE);
		FZ_CHECK(of_flowtable_total(ft) == before);
		return;
	}
	FZ_CHECK(of_flowtable_total(ft) == before + res.added - res.deleted);
	fz_check_mod(ft, version, fm);
}

/* A FLOW_MOD body into the table, as of_on_flow_mod does. */
static void
fz_flow_mod(struct of_flowtable *ft, uint8_t version, struct rbuf *body,
    uint64_t now)
{
	struct of_flow_mod	fm;
	enum of_err		err = OF_ERR_NONE;

	if (of_flow_mod_decode(version, body, &fm, &err) == -1) {
		FZ_CHECK(err != OF_ERR_NONE);
		return;
	}
	if (fz_flow_mod_validate(version, &fm) == -1)
		return;
	fz_apply(ft, version, &fm, now);
}

/* All flows, everything they say, and the filter the request gave. */
static void
fz_stats_all(struct of_flowtable *ft, uint8_t version,
    const struct of_flow_filter *f)
{
	struct of_flow_filter	all;

	memset(&all, 0, sizeof(all));
	all.table_id = OF_TABLE_ALL;
	all.out_port = OF_PORT_ANY;
	all.out_group = OF_GROUP_ANY;
	of_match_init(&all.match);
	fz_stats(ft, version, &all, 0);
	fz_stats(ft, version, &all, FZ_SMALL_MSG);
	if (f != NULL)
		fz_stats(ft, version, f, 0);
}

/* A few flows for the stats requests to select from. */
static struct of_flowtable *
fz_table_seeded(uint8_t version)
{
	static const uint8_t	out13[] = {
		0x00, 0x04, 0x00, 0x18, 0, 0, 0, 0,	/* APPLY_ACTIONS */
		0x00, 0x00, 0x00, 0x10, 0, 0, 0, 2,	/* OUTPUT 2 */
		0xff, 0xff, 0, 0, 0, 0, 0, 0 };
	static const uint8_t	out10[] = {
		0x00, 0x00, 0x00, 0x08, 0x00, 0x01, 0xff, 0xff };
	struct of_flowtable	*ft = of_flowtable_new(version, FZ_TABLES,
	    FZ_TABLE_SIZE);
	struct of_flow_mod	 fm;
	uint8_t			 et[2] = { 0x08, 0x00 }, proto = 6;
	uint8_t			 dst[4] = { 10, 0, 0, 0 };
	uint8_t			 mask[4] = { 255, 255, 255, 0 };
	int			 i;

	memset(&fm, 0, sizeof(fm));
	fm.command = OF_FC_ADD;
	fm.out_port = OF_PORT_ANY;
	fm.out_group = OF_GROUP_ANY;
	fm.buffer_id = UINT32_MAX;
	for (i = 0; i < 3; i++) {
		of_match_init(&fm.match);
		if (i > 0)
			of_match_set(&fm.match, OXM_ETH_TYPE, et, NULL, 2);
		if (i > 1) {
			of_match_set(&fm.match, OXM_IP_PROTO, &proto, NULL, 1);
			of_match_set(&fm.match, OXM_IPV4_DST, dst, mask, 4);
		}
		fm.priority = 100 * i;
		fm.cookie = i + 1;
		fm.idle_timeout = i;
		fm.flags = OF_FF_SEND_FLOW_REM;
		fm.prog = version == OF_VERSION_10 ? out10 : out13;
		fm.prog_len = version == OF_VERSION_10 ? sizeof(out10) :
		    sizeof(out13);
		fz_apply(ft, version, &fm, FZ_NOW);
	}
	return ft;
}

/* ---- one decoder per kind ---- */

static void
fz_header(const struct of_header *h)
{
	enum of_type	t = of_type_from_wire(h->version, h->type);
	enum of_err	e;
	uint16_t	type, code;

	(void)of_type_name(t);
	(void)of_type_to_wire(h->version, t);
	(void)of_mp_name(of_mp_from_wire(h->version, (uint16_t)h->xid));
	e = (enum of_err)(h->xid % (OF_ERR__MAX + 1));
	(void)of_err_name(e);
	of_err_to_wire(h->version, e, &type, &code);
}

static void
fz_hello(const struct of_header *h, struct rbuf *body)
{
	uint32_t	bitmap;

	if (of_hello_decode(body, &bitmap) == -1)
		bitmap = 0;
	(void)of_negotiate(h->version, bitmap,
	    1u << OF_VERSION_10 | 1u << OF_VERSION_13);
}

static void
fz_packet_in(uint8_t version, struct rbuf *body)
{
	struct of_packet_in	pi, back;
	enum of_err		err = OF_ERR_NONE;
	struct wbuf		w;
	struct rbuf		r, b;
	struct of_header	h;

	if (of_packet_in_decode(version, body, &pi, &err) == -1) {
		FZ_CHECK(err != OF_ERR_NONE);
		return;
	}
	if (pi.data_len > FZ_ROUNDTRIP_MAX)
		return;
	wbuf_init(&w, fz_out, sizeof(fz_out));
	of_packet_in_encode(&w, version, 7, &pi);
	FZ_CHECK(!w.err);
	rbuf_init(&r, w.data, w.len);
	FZ_CHECK(of_header_decode(&r, &h) == 0);
	rbuf_sub(&r, &b, h.length - OF_HEADER_LEN);
	FZ_CHECK(of_packet_in_decode(version, &b, &back, &err) == 0);
	FZ_CHECK(back.buffer_id == pi.buffer_id &&
	    back.total_len == pi.total_len && back.reason == pi.reason &&
	    back.in_port == pi.in_port && back.data_len == pi.data_len);
	if (version == OF_VERSION_13)
		FZ_CHECK(back.table_id == pi.table_id &&
		    back.cookie == pi.cookie);
}

static void
fz_packet_out(uint8_t version, struct rbuf *body)
{
	struct of_packet_out	po, back;
	enum of_err		err = OF_ERR_NONE;
	uint32_t		ports[8];
	struct wbuf		w;
	struct rbuf		r, b;
	struct of_header	h;

	if (of_packet_out_decode(version, body, &po, &err) == -1) {
		FZ_CHECK(err != OF_ERR_NONE);
		return;
	}
	(void)of_actions_validate(version, po.actions, po.actions_len,
	    FZ_PORTS, &err);
	(void)of_actions_output_ports(version, po.actions, po.actions_len,
	    ports, 8);
	if (po.actions_len + po.data_len > FZ_ROUNDTRIP_MAX)
		return;
	wbuf_init(&w, fz_out, sizeof(fz_out));
	of_packet_out_encode(&w, version, 7, &po);
	FZ_CHECK(!w.err);
	rbuf_init(&r, w.data, w.len);
	FZ_CHECK(of_header_decode(&r, &h) == 0);
	rbuf_sub(&r, &b, h.length - OF_HEADER_LEN);
	FZ_CHECK(of_packet_out_decode(version, &b, &back, &err) == 0);
	FZ_CHECK(back.buffer_id == po.buffer_id &&
	    back.actions_len == po.actions_len &&
	    back.data_len == po.data_len);
	if (version == OF_VERSION_13)
		FZ_CHECK(back.in_port == po.in_port);
}

/* One FLOW_MOD against a seeded table, then every other command too. */
static void
fz_flow_mod_kind(uint8_t version, struct rbuf *body)
{
	struct of_flowtable	*ft = fz_table_seeded(version);
	struct of_flow_mod	 fm;
	struct rbuf		 copy = *body;
	enum of_err		 err = OF_ERR_NONE;
	uint8_t			 cmd;

	fz_flow_mod(ft, version, body, FZ_NOW);
	fz_stats_all(ft, version, NULL);
	if (of_flow_mod_decode(version, &copy, &fm, &err) == 0 &&
	    fz_flow_mod_validate(version, &fm) == 0) {
		for (cmd = OF_FC_ADD; cmd <= OF_FC_DELETE_STRICT; cmd++) {
			fm.command = (fm.command + 1) % (OF_FC_DELETE_STRICT + 1);
			if (fz_flow_mod_validate(version, &fm) == 0)
				fz_apply(ft, version, &fm, FZ_NOW + cmd);
		}
		fz_stats_all(ft, version, NULL);
	}
	FZ_CHECK(of_flowtable_next_expiry(ft) == 0 ||
	    of_flowtable_next_expiry(ft) < FZ_NOW + FZ_FOREVER);
	of_flowtable_expire(ft, FZ_NOW + FZ_FOREVER, fz_flow_removed, &version);
	FZ_CHECK(of_flowtable_next_expiry(ft) == 0);
	of_flowtable_free(ft);
}

static void
fz_async(uint8_t version, struct rbuf *body)
{
	struct of_async	a, back;
	enum of_err	err = OF_ERR_NONE;
	struct wbuf	w;
	struct rbuf	r, b;
	struct of_header h;

	memset(&a, 0, sizeof(a));
	memset(&back, 0, sizeof(back));
	if (of_async_decode(OF_VERSION_13, body, &a, &err) == -1)
		return;
	wbuf_init(&w, fz_out, sizeof(fz_out));
	of_async_encode(&w, OF_VERSION_13, OF_SET_ASYNC, 1, &a);
	FZ_CHECK(!w.err);
	rbuf_init(&r, w.data, w.len);
	FZ_CHECK(of_header_decode(&r, &h) == 0);
	rbuf_sub(&r, &b, h.length - OF_HEADER_LEN);
	FZ_CHECK(of_async_decode(OF_VERSION_13, &b, &back, &err) == 0 &&
	    memcmp(&a, &back, sizeof(a)) == 0);
	(void)version;
}

static void
fz_mp_request(uint8_t version, struct rbuf *body)
{
	struct of_mp_request	 req;
	struct of_flow_filter	 f;
	struct of_flowtable	*ft;
	enum of_err		 err = OF_ERR_NONE;
	uint32_t		 port;

	if (of_mp_request_decode(version, body, &req, &err) == -1) {
		FZ_CHECK(err != OF_ERR_NONE);
		return;
	}
	switch (req.mp) {
	case OF_MP_FLOW:
	case OF_MP_AGGREGATE:
		if (of_flow_stats_request_decode(version, &req.body, &f,
		    &err) == -1)
			return;
		ft = fz_table_seeded(version);
		fz_stats_all(ft, version, &f);
		of_flowtable_free(ft);
		return;
	case OF_MP_PORT_STATS:
	case OF_MP_QUEUE:
		(void)of_port_stats_request_decode(version, &req.body, &port,
		    &err);
		return;
	default:
		return;
	}
}

static void
fz_mp_reply(uint8_t version, struct rbuf *body)
{
	struct of_flow_info	fi;
	struct of_match		store;
	struct rbuf		entries, copy;
	enum of_mp		mp;
	uint16_t		flags;
	uint64_t		packets, bytes;
	uint32_t		flows;

	if (of_mp_reply_decode(version, body, &mp, &flags, &entries) == -1)
		return;
	copy = entries;
	(void)of_aggregate_decode(&copy, &packets, &bytes, &flows);
	while (of_flow_stats_next(version, &entries, &fi, &store) == 1) {
		FZ_CHECK(fi.match == &store);
		FZ_CHECK(fi.prog_len == 0 || fi.prog != NULL);
	}
}

/* A decoded match: re-encoded it decodes to itself; it covers itself. */
static void
fz_match_props(uint8_t version, const struct of_match *m)
{
	struct of_match	back;
	struct wbuf	w;
	struct rbuf	r;
	enum of_err	err = OF_ERR_NONE;
	char		small[16], big[4096];

	FZ_CHECK(of_match_covers(m, m));
	FZ_CHECK(of_match_overlaps(m, m));
	FZ_CHECK(of_match_hash(m, 1) == of_match_hash(m, 1));
	(void)of_match_format(m, small, sizeof(small));
	FZ_CHECK(strlen(small) < sizeof(small));
	FZ_CHECK(of_match_format(m, big, sizeof(big)) < (int)sizeof(big));
	wbuf_init(&w, fz_out, sizeof(fz_out));
	if (version == OF_VERSION_10)
		of_match_encode10(&w, m);
	else
		of_match_encode13(&w, m);
	FZ_CHECK(!w.err);
	rbuf_init(&r, w.data, w.len);
	if (version == OF_VERSION_10)
		FZ_CHECK(of_match_decode10(&r, &back, &err) == 0);
	else
		FZ_CHECK(of_match_decode13(&r, &back, &err) == 0);
	FZ_CHECK(rbuf_left(&r) == 0);
	FZ_CHECK(of_match_equal(m, &back));
	/* The other version's encoder may refuse; it must not crash. */
	wbuf_init(&w, fz_out, sizeof(fz_out));
	if (version == OF_VERSION_10)
		of_match_encode13(&w, m);
	else
		of_match_encode10(&w, m);
}

static void
fz_match(uint8_t version, const uint8_t *p, size_t n)
{
	struct of_match	m, o;
	struct rbuf	r;
	enum of_err	err = OF_ERR_NONE;
	size_t		half = n / 2;

	rbuf_init(&r, p, n);
	if (version == OF_VERSION_10) {
		if (of_match_decode10(&r, &m, &err) == -1)
			return;
	} else if (of_match_decode13(&r, &m, &err) == -1) {
		FZ_CHECK(err != OF_ERR_NONE);
		return;
	}
	fz_match_props(version, &m);
	/* Another match from the second half, for covers/overlaps. */
	rbuf_init(&r, p + half, n - half);
	if ((version == OF_VERSION_10 ? of_match_decode10(&r, &o, &err) :
	    of_match_decode13(&r, &o, &err)) == 0) {
		(void)of_match_covers(&m, &o);
		FZ_CHECK(of_match_overlaps(&m, &o) ==
		    of_match_overlaps(&o, &m));
		if (of_match_covers(&m, &o) && of_match_covers(&o, &m))
			FZ_CHECK(of_match_equal(&m, &o));
	}
}

static void
fz_actions(uint8_t version, const uint8_t *p, size_t n, int instructions)
{
	enum of_err	err = OF_ERR_NONE;
	uint32_t	ports[4];
	uint8_t		table = n > 0 ? p[0] % FZ_TABLES : 0;

	if (instructions)
		(void)of_instructions_validate(p, n, table, FZ_TABLES,
		    FZ_PORTS, &err);
	else
		(void)of_actions_validate(version, p, n, FZ_PORTS, &err);
	(void)of_actions_output_ports(version, p, n, ports, 4);
	(void)of_prog_outputs_to(version, p, n, 2);
	(void)of_prog_uses_group(version, p, n, 1);
	if (instructions)
		(void)of_prog_meter(p, n, &ports[0]);
}

#define FZ_MAX_GROUPS	16

static void
fz_group_desc(void *arg, struct of_group_info *gi)
{
	FZ_CHECK(of_mp_reply_add_group_desc(arg, gi) == 0);
}

/* What a GROUP_DESC or METER_CONFIG read back after a mod must carry:
 * both entries are length, a 16-bit word (group type and pad, meter
 * flags), the id, and the buckets or bands as the mod gave them. */
struct fz_readback {
	enum of_mp	 mp;
	int		 gone;		/* a DELETE: no entry */
	uint16_t	 word;
	uint32_t	 id;
	const uint8_t	*data;
	size_t		 len;
};

static void
fz_readback_flush(void *arg, struct wbuf *w)
{
	const struct fz_readback	*rb = arg;
	struct of_header		 h;
	struct rbuf			 r, entries;
	enum of_mp			 mp;
	uint16_t			 flags, len, word;
	uint32_t			 id;

	rbuf_init(&r, w->data, w->len);
	FZ_CHECK(of_header_decode(&r, &h) == 0 && h.length == w->len);
	FZ_CHECK(of_mp_reply_decode(OF_VERSION_13, &r, &mp, &flags,
	    &entries) == 0 && mp == rb->mp);
	if (!rb->gone) {
		FZ_CHECK(rbuf_get_u16(&entries, &len) == 0 &&
		    len == rbuf_left(&entries) + 2);
		FZ_CHECK(rbuf_get_u16(&entries, &word) == 0 &&
		    word == rb->word);
		FZ_CHECK(rbuf_get_u32(&entries, &id) == 0 && id == rb->id);
		FZ_CHECK(rbuf_left(&entries) == rb->len &&
		    memcmp(rbuf_ptr(&entries), rb->data, rb->len) == 0);
	}
	wbuf_reset(w);
}

/* Odd ports up, even ports down, for the packets sent to groups. */
static int
fz_port_live(void *arg, uint32_t port)
{
	(void)arg;
	return port % 2 == 1;
}

/* A packet to the group just put: it follows the buckets, chains
 * included, within the copy bound, and the ports stay in the array. */
static void
fz_group_packet(struct of_groups *gt, uint32_t id, uint32_t hash)
{
	uint8_t			act[8] = { 0, 22, 0, 8 };
	uint32_t		ports[16];
	struct of_group_packet	pk;
	enum of_err		err = OF_ERR_NONE;

	act[4] = (uint8_t)(id >> 24);
	act[5] = (uint8_t)(id >> 16);
	act[6] = (uint8_t)(id >> 8);
	act[7] = (uint8_t)id;
	memset(&pk, 0, sizeof(pk));
	pk.port_live = fz_port_live;
	pk.hash = hash;
	pk.bytes = 64;
	pk.ports = ports;
	pk.max = 16;
	if (of_groups_send(gt, act, sizeof(act), &pk, &err) < 0)
		FZ_CHECK(err == OF_ERR_BAD_OUT_GROUP);
	FZ_CHECK(pk.n <= pk.max && pk.buckets_taken <= OF_GROUP_COPIES_MAX);
}

/* A deleted group's flows go with it, from its own list (as
 * of_handlers.c's of_group_deleted does). */
struct fz_gdel {
	struct of_flowtable	*ft;
	struct of_groups	**gt;
	uint8_t			 version;
};

static void
fz_group_deleted(void *arg, uint32_t id)
{
	struct fz_gdel	*d = arg;
	void		*f, *last = NULL;

	while ((f = of_groups_flow(*d->gt, id)) != NULL && f != last) {
		last = f;
		of_flowtable_remove(d->ft, f, FZ_NOW, OF_RR_GROUP_DELETE,
		    fz_flow_removed, &d->version);
	}
	FZ_CHECK(of_groups_flow(*d->gt, id) == NULL);
}

/* No flow names a deleted group (or any, after OFPG_ALL). */
static void
fz_group_gone(struct of_flowtable *ft, uint32_t id)
{
	struct of_flow_filter	f;
	uint64_t		packets, bytes;
	uint32_t		flows;

	memset(&f, 0, sizeof(f));
	f.table_id = OF_TABLE_ALL;
	f.out_port = OF_PORT_ANY;
	f.out_group = id;
	of_match_init(&f.match);
	of_flowtable_aggregate(ft, &f, &packets, &bytes, &flows);
	FZ_CHECK(flows == 0);
}

/* GROUP_MOD (1.3): the table stays bounded, GROUP_DESC reads back what
 * was taken, and a group's delete leaves no flow naming it. */
static void
fz_group_mod(struct of_groups **gt, struct of_flowtable *ft,
    struct rbuf *body, uint64_t now)
{
	struct fz_gdel				d = { ft, gt, OF_VERSION_13 };
	static const struct of_group_limits	lim = { FZ_PORTS,
	    FZ_MAX_GROUPS, 8 };
	struct of_group_mod			gm;
	struct of_mp_reply			mr;
	struct fz_readback			rb;
	struct wbuf				w;
	enum of_err				err = OF_ERR_NONE;

	if (of_group_mod_decode(body, &gm, &err) == -1 ||
	    of_groups_apply(gt, &gm, &lim, now, fz_group_deleted, &d,
	    &err) == -1) {
		FZ_CHECK(err != OF_ERR_NONE);
		return;
	}
	if (*gt != NULL)
		of_flowtable_set_refs(ft, of_groups_ft_refs(*gt));
	fz_gt = *gt;
	if (gm.command == OF_GC_DELETE)
		fz_group_gone(ft, gm.group_id);
	FZ_CHECK(of_groups_count(*gt) <= FZ_MAX_GROUPS);
	FZ_CHECK(gm.command != OF_GC_DELETE ||
	    !of_groups_has(*gt, gm.group_id));
	rb = (struct fz_readback){ OF_MP_GROUP_DESC,
	    gm.command == OF_GC_DELETE, (uint16_t)(gm.type << 8), gm.group_id,
	    gm.buckets, gm.buckets_len };
	wbuf_init(&w, fz_out, sizeof(fz_out));
	of_mp_reply_begin(&mr, &w, OF_VERSION_13, 1, OF_MP_GROUP_DESC, 0,
	    fz_readback_flush, &rb);
	of_groups_walk(*gt, gm.group_id, now, fz_group_desc, &mr);
	(void)of_mp_reply_end(&mr);
	fz_group_packet(*gt, gm.group_id, (uint32_t)now);
}

#define FZ_MAX_METERS	16

static void
fz_meter_config(void *arg, const struct of_meter_info *mi)
{
	FZ_CHECK(of_mp_reply_add_meter_config(arg, mi) == 0);
}

/* A deleted meter's flows go, and none is left behind. */
static void
fz_meter_deleted(void *ft, uint32_t meter_id)
{
	(void)of_flowtable_remove_if(ft, of_meter_prog_names, &meter_id,
	    OF_RR_METER_DELETE, FZ_NOW, NULL, NULL);
	FZ_CHECK(of_flowtable_remove_if(ft, of_meter_prog_names, &meter_id,
	    OF_RR_METER_DELETE, FZ_NOW, NULL, NULL) == 0);
}

/* METER_MOD (1.3): the table stays bounded, METER_CONFIG reads back what
 * was taken, a delete takes the meter's flows. */
static void
fz_meter_mod(struct of_meters **mt, struct of_flowtable *ft,
    struct rbuf *body, uint64_t now)
{
	struct of_meter_mod	mm;
	struct of_mp_reply	mr;
	struct fz_readback	rb;
	struct wbuf		w;
	enum of_err		err = OF_ERR_NONE;

	if (of_meter_mod_decode(OF_VERSION_13, body, &mm, &err) == -1 ||
	    of_meters_apply(mt, &mm, FZ_MAX_METERS, now, fz_meter_deleted, ft,
	    &err) == -1) {
		FZ_CHECK(err != OF_ERR_NONE);
		return;
	}
	FZ_CHECK(of_meters_count(*mt) <= FZ_MAX_METERS);
	if (mm.command == OF_MC_DELETE) {
		FZ_CHECK(!of_meters_has(*mt, mm.meter_id));
		return;
	}
	rb = (struct fz_readback){ OF_MP_METER_CONFIG, 0, mm.flags,
	    mm.meter_id, mm.bands, mm.bands_len };
	wbuf_init(&w, fz_out, sizeof(fz_out));
	of_mp_reply_begin(&mr, &w, OF_VERSION_13, 1, OF_MP_METER_CONFIG, 0,
	    fz_readback_flush, &rb);
	of_meters_walk(*mt, mm.meter_id, now, fz_meter_config, &mr);
	(void)of_mp_reply_end(&mr);
}

/*
 * Bundles (ONF extension in 1.3): an add's FLOW_MOD goes into the table
 * inside a transaction begun by the first one; COMMIT keeps the changes,
 * DISCARD (and the stream's end) rolls them back and the table must be
 * what it was, flow for flow, in order.  Each BUNDLE_CONTROL decoded
 * re-encodes to the same.
 */
struct fz_bundle {
	int		open;		/* a transaction is running */
	uint64_t	digest;		/* of the table when it began */
};

static int
fz_digest_flow(void *arg, const struct of_flow_info *fi)
{
	uint64_t	*h = arg;
	uint8_t		 k[13];
	size_t		 i;

	memcpy(k, &fi->cookie, 8);
	memcpy(k + 8, &fi->priority, 2);
	k[10] = fi->table_id;
	memcpy(k + 11, &fi->flags, 2);
	for (i = 0; i < sizeof(k); i++)
		*h = (*h ^ k[i]) * 0x100000001b3ULL;
	for (i = 0; i < fi->match->len; i++)
		*h = (*h ^ fi->match->oxm[i]) * 0x100000001b3ULL;
	for (i = 0; i < fi->prog_len; i++)
		*h = (*h ^ fi->prog[i]) * 0x100000001b3ULL;
	*h = (*h ^ fi->duration_sec) * 0x100000001b3ULL;
	return 0;
}

/* FNV-1a of every flow in walk order: the table's content and order. */
static uint64_t
fz_digest(struct of_flowtable *ft)
{
	struct of_flow_filter	f;
	uint64_t		h = 0xcbf29ce484222325ULL;

	memset(&f, 0, sizeof(f));
	f.table_id = OF_TABLE_ALL;
	f.out_port = OF_PORT_ANY;
	f.out_group = OF_GROUP_ANY;
	of_match_init(&f.match);
	of_flowtable_walk(ft, &f, FZ_NOW, fz_digest_flow, &h);
	return h;
}

static void
fz_bundle_end(struct of_flowtable *ft, struct fz_bundle *b, int commit)
{
	if (!b->open)
		return;
	b->open = 0;
	if (commit) {
		of_flowtable_txn_commit(ft);
		return;
	}
	of_flowtable_txn_rollback(ft);
	FZ_CHECK(fz_digest(ft) == b->digest);
}

static void
fz_bundle_ctrl(struct of_flowtable *ft, struct fz_bundle *b,
    struct rbuf *body)
{
	struct of_bundle_ctrl	bc, again;
	struct wbuf		w;
	struct rbuf		r;
	uint16_t		code;

	if (of_bundle_ctrl_decode(body, &bc, &code) == -1)
		return;
	wbuf_init(&w, fz_out, sizeof(fz_out));
	FZ_CHECK(of_bundle_ctrl_encode(&w, OF_VERSION_13, 1, &bc) == 0);
	rbuf_init(&r, fz_out + 16, w.len - 16);
	FZ_CHECK(of_bundle_ctrl_decode(&r, &again, &code) == 0 &&
	    memcmp(&bc, &again, sizeof(bc)) == 0);
	if (bc.type == OF_BCT_COMMIT_REQUEST)
		fz_bundle_end(ft, b, 1);
	else if (bc.type == OF_BCT_DISCARD_REQUEST)
		fz_bundle_end(ft, b, 0);
}

static void
fz_bundle(struct of_flowtable *ft, struct fz_bundle *b,
    const struct of_header *h, struct rbuf *body, uint64_t now)
{
	struct of_bundle_add	ba;
	struct rbuf		inner;
	uint32_t		id, type;
	uint16_t		code;

	if (rbuf_get_u32(body, &id) == -1 || rbuf_get_u32(body, &type) == -1 ||
	    id != OF_EXP_ONF)
		return;
	if (type == OF_ONFT_BUNDLE_CONTROL) {
		fz_bundle_ctrl(ft, b, body);
		return;
	}
	if (type != OF_ONFT_BUNDLE_ADD_MESSAGE ||
	    of_bundle_add_decode(body, OF_VERSION_13, h->xid, &ba,
	    &code) == -1)
		return;
	FZ_CHECK(ba.msg_len >= OF_HEADER_LEN && ba.msg_len <= h->length);
	if (ba.msg[1] != 14)		/* FLOW_MOD */
		return;
	if (!b->open) {
		b->digest = fz_digest(ft);
		of_flowtable_txn_begin(ft);
		b->open = 1;
	}
	rbuf_init(&inner, ba.msg + OF_HEADER_LEN, ba.msg_len - OF_HEADER_LEN);
	fz_flow_mod(ft, OF_VERSION_13, &inner, now);
}

/*
 * A stream of messages framed as of_read frames them, against one table:
 * FLOW_MODs change it, FLOW and AGGREGATE requests read it, time moves one
 * second per message so timeouts expire along the way.
 */
static void
fz_switch(uint8_t version, const uint8_t *p, size_t n)
{
	struct of_flowtable	*ft = of_flowtable_new(version, FZ_TABLES,
	    FZ_TABLE_SIZE);
	struct of_groups	*gt = NULL;
	struct fz_bundle	 bundle = { 0, 0 };
	struct of_meters	*mt = NULL;
	struct of_mp_request	 req;
	struct of_flow_filter	 f;
	struct of_header	 h;
	struct rbuf		 r, body;
	enum of_err		 err;
	uint64_t		 now = FZ_NOW;
	size_t			 off = 0;

	fz_check_groups = version == OF_VERSION_13;
	fz_gt = NULL;
	while (n - off >= OF_HEADER_LEN) {
		rbuf_init(&r, p + off, n - off);
		if (of_header_decode(&r, &h) == -1 || h.length > n - off)
			break;
		rbuf_init(&body, p + off + OF_HEADER_LEN,
		    h.length - OF_HEADER_LEN);
		off += h.length;
		now += FZ_SECOND;
		if (!bundle.open)	/* a commit is never interrupted */
			of_flowtable_expire(ft, now, fz_flow_removed,
			    &version);
		switch (of_type_from_wire(version, h.type)) {
		case OF_FLOW_MOD:
			fz_flow_mod(ft, version, &body, now);
			break;
		case OF_GROUP_MOD:
			if (version == OF_VERSION_13)
				fz_group_mod(&gt, ft, &body, now);
			break;
		case OF_EXPERIMENTER:
			if (version == OF_VERSION_13)
				fz_bundle(ft, &bundle, &h, &body, now);
			break;
		case OF_METER_MOD:
			if (version == OF_VERSION_13)
				fz_meter_mod(&mt, ft, &body, now);
			break;
		case OF_MULTIPART_REQUEST:
			if (of_mp_request_decode(version, &body, &req,
			    &err) == 0 && (req.mp == OF_MP_FLOW ||
			    req.mp == OF_MP_AGGREGATE) &&
			    of_flow_stats_request_decode(version, &req.body,
			    &f, &err) == 0)
				/* The request's flags pick the message size. */
				fz_stats(ft, version, &f, req.flags);
			break;
		default:
			break;
		}
	}
	fz_bundle_end(ft, &bundle, 0);
	fz_stats_all(ft, version, NULL);
	of_flowtable_expire(ft, now + FZ_FOREVER, fz_flow_removed, &version);
	FZ_CHECK(of_flowtable_total(ft) == 0 ||
	    of_flowtable_next_expiry(ft) == 0);
	of_flowtable_free(ft);
	of_groups_free(gt);
	of_meters_free(mt);
	fz_check_groups = 0;
	fz_gt = NULL;
}

/* The fixed-layout messages: decode must not read past the body. */
static void
fz_simple(enum fz_kind kind, uint8_t version, struct rbuf *body)
{
	struct of_features	f;
	struct of_port_mod	pm;
	struct wbuf		w;
	enum of_err		err = OF_ERR_NONE;
	uint64_t		gen;
	uint32_t		role, port;
	uint16_t		a, b;

	switch (kind) {
	case FZ_ERROR:
		(void)of_error_decode(body, &a, &b);
		return;
	case FZ_FEATURES_REPLY:
		(void)of_features_reply_decode(version, body, &f);
		return;
	case FZ_SWITCH_CONFIG:
		(void)of_switch_config_decode(body, &a, &b);
		return;
	case FZ_PORT_MOD:
		(void)of_port_mod_decode(version, body, &pm, &err);
		return;
	case FZ_ROLE:
		if (of_role_decode(body, &role, &gen, &err) == 0)
			FZ_CHECK(role <= OF_ROLE_SLAVE);
		return;
	case FZ_QUEUE_GET_CONFIG:
		if (of_queue_get_config_decode(version, body, &port,
		    &err) == 0) {
			wbuf_init(&w, fz_out, sizeof(fz_out));
			of_queue_get_config_reply_encode(&w, version, 1, port);
			FZ_CHECK(!w.err);
		}
		return;
	default:
		return;
	}
}

/* The kinds that are whole messages: header, then the body's decoder. */
static void
fz_message(enum fz_kind kind, uint8_t version, const uint8_t *p, size_t n)
{
	struct of_header	h;
	struct rbuf		r, body;

	memset(&h, 0, sizeof(h));
	rbuf_init(&r, p, n);
	if (of_header_decode(&r, &h) == 0)
		FZ_CHECK(h.length >= OF_HEADER_LEN);
	if (n < OF_HEADER_LEN)
		rbuf_init(&body, p, 0);
	else
		rbuf_init(&body, p + OF_HEADER_LEN, n - OF_HEADER_LEN);
	switch (kind) {
	case FZ_HEADER:
		fz_header(&h);
		return;
	case FZ_HELLO:
		fz_hello(&h, &body);
		return;
	case FZ_PACKET_IN:
		fz_packet_in(version, &body);
		return;
	case FZ_PACKET_OUT:
		fz_packet_out(version, &body);
		return;
	case FZ_FLOW_MOD:
		fz_flow_mod_kind(version, &body);
		return;
	case FZ_ASYNC:
		fz_async(version, &body);
		return;
	case FZ_MP_REQUEST:
		fz_mp_request(version, &body);
		return;
	case FZ_MP_REPLY:
		fz_mp_reply(version, &body);
		return;
	default:
		fz_simple(kind, version, &body);
		return;
	}
}

/* An nx_match: re-encoded as NXM it decodes to itself, and the flow it
 * makes reads back over 1.3 (OXM) as the same match. */
static void
fz_nxm(const uint8_t *p, size_t n)
{
	struct of_match	m, back;
	struct wbuf	w;
	struct rbuf	r;
	uint64_t	ck, cm;
	enum of_err	err = OF_ERR_NONE;
	int		len;

	rbuf_init(&r, p, n);
	if (of_nxm_decode(&r, n, &m, &ck, &cm, &err) == -1) {
		FZ_CHECK(err != OF_ERR_NONE);
		return;
	}
	FZ_CHECK(cm != 0 || ck == 0);
	FZ_CHECK((ck & ~cm) == 0);
	fz_match_props(OF_VERSION_13, &m);
	wbuf_init(&w, fz_out, sizeof(fz_out));
	len = of_nxm_encode(&w, &m);
	FZ_CHECK(len >= 0 && !w.err);
	rbuf_init(&r, w.data, w.len);
	FZ_CHECK(of_nxm_decode(&r, (size_t)len, &back, &ck, &cm, &err) == 0);
	FZ_CHECK(of_match_equal(&m, &back));
}

/* A map as of_nx_tlv.c keeps it: lengths, space, distinct options. */
static void
fz_tlv_map_ok(const struct nx_tlv_map *map)
{
	unsigned	i, j, space = 0;

	for (i = 0; i < NX_TLV_FIELDS; i++) {
		if (!map->e[i].valid)
			continue;
		FZ_CHECK(map->e[i].len % 4 == 0 &&
		    map->e[i].len <= NX_TLV_OPT_MAX);
		space += map->e[i].len;
		for (j = i + 1; j < NX_TLV_FIELDS; j++)
			FZ_CHECK(!map->e[j].valid ||
			    map->e[j].cls != map->e[i].cls ||
			    map->e[j].type != map->e[i].type);
	}
	FZ_CHECK(space == map->space && space <= NX_TLV_SPACE);
}

/*
 * TLV table mods, each a length byte (in 8-byte units) and that many
 * units, applied in turn to one map: a refused one changes nothing, the
 * map stays consistent, its reply carries each mapping; tun_metadata
 * fields then decode against it.
 */
static void
fz_nx_tlv(const uint8_t *p, size_t n)
{
	struct nx_tlv_map	map, before;
	struct of_match		m;
	struct rbuf		r;
	struct wbuf		w;
	enum of_err		err;
	uint64_t		ck, cm;
	size_t			off = 0, len;
	unsigned		i, valid;

	memset(&map, 0, sizeof(map));
	while (off < n) {
		len = (size_t)p[off++] * 8;
		if (len > n - off)
			len = n - off;
		before = map;
		rbuf_init(&r, p + off, len);
		if (of_nx_tlv_table_mod(&map, NULL, &r, &err) == -1)
			FZ_CHECK(memcmp(&map, &before, sizeof(map)) == 0);
		fz_tlv_map_ok(&map);
		off += len;
	}
	wbuf_init(&w, fz_out, sizeof(fz_out));
	FZ_CHECK(of_nx_tlv_reply_encode(&w, OF_VERSION_13, 1, &map) == 0);
	for (i = valid = 0; i < NX_TLV_FIELDS; i++)
		valid += map.e[i].valid;
	FZ_CHECK(w.len == 32 + 8 * (size_t)valid);
	of_nx_tlv_bind(&map);
	rbuf_init(&r, p, n);
	(void)of_nxm_decode(&r, n, &m, &ck, &cm, &err);
	of_nx_tlv_bind(NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum fz_kind	kind;
	uint8_t		version;
	const uint8_t	*p;
	size_t		n;

	if (size < 1)
		return 0;
	version = data[0] & 0x80 ? OF_VERSION_10 : OF_VERSION_13;
	kind = (enum fz_kind)((data[0] & 0x7f) % FZ__MAX);
	p = data + 1;
	n = size - 1;
	switch (kind) {
	case FZ_MATCH13:
		fz_match(OF_VERSION_13, p, n);
		return 0;
	case FZ_MATCH10:
		fz_match(OF_VERSION_10, p, n);
		return 0;
	case FZ_ACTIONS:
	case FZ_INSTRUCTIONS:
		fz_actions(version, p, n, kind == FZ_INSTRUCTIONS);
		return 0;
	case FZ_SWITCH:
		fz_switch(version, p, n);
		return 0;
	case FZ_NXM:
		fz_nxm(p, n);
		return 0;
	case FZ_NX_TLV:
		fz_nx_tlv(p, n);
		return 0;
	default:
		fz_message(kind, version, p, n);
		return 0;
	}
}

#ifndef SBSIM_LIBFUZZER

int
main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE...\n", argv[0]);
		return 2;
	}
	return fuzz_run_files(argc, argv);
}
#endif
