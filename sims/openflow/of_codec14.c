/*
 * OpenFlow 1.4 and 1.5 differences from 1.3 (of_codec14.h).  Layouts:
 * OpenFlow Switch Specification 1.4.1 appendix A and 1.5.1 section 7; as
 * in of_codec.c every field is read or written in order through the
 * bounds-checked rbuf/wbuf.  Properties are type, length (header
 * included, padding excluded), body, padding to 8; unknown ones are
 * skipped where the specification lets a receiver ignore them.
 */
#include <string.h>

#include "buf.h"
#include "of_actions.h"
#include "of_codec14.h"
#include "of_group.h"
#include "of_oxm.h"
#include "ofp.h"
#include "ofp14.h"

static int
bad(enum of_err *err, enum of_err e)
{
	if (err != NULL)
		*err = e;
	return -1;
}

/* The next property of a list: its type and body; -1 when the list is
 * malformed (a length under 4 or past the end). */
static int
prop_next(struct rbuf *r, uint16_t *type, struct rbuf *body)
{
	uint16_t	len;
	size_t		pad;

	if (rbuf_get_u16(r, type) == -1 || rbuf_get_u16(r, &len) == -1 ||
	    len < 4 || rbuf_sub(r, body, len - 4u) == -1)
		return -1;
	pad = (8 - len % 8) % 8;
	return rbuf_skip(r, pad < rbuf_left(r) ? pad : rbuf_left(r));
}

/* ofp_port, 1.4.1 A.2.1: 40 fixed bytes, then the ETHERNET property. */
void
ofp14_port_encode(struct wbuf *w, const struct of_port *p)
{
	wbuf_put_u32(w, p->port_no);
	wbuf_put_u16(w, OFP14_PORT_FIXED + OFP14_PORT_PROP_ETHERNET_LEN);
	wbuf_put_zero(w, 2);
	wbuf_put_bytes(w, p->hw_addr, OFP_ETH_ALEN);
	wbuf_put_zero(w, 2);
	ofp_put_str(w, p->name, OFP_MAX_PORT_NAME_LEN);
	wbuf_put_u32(w, p->config);
	wbuf_put_u32(w, p->state);
	wbuf_put_u16(w, OFP14_PDPT_ETHERNET);
	wbuf_put_u16(w, OFP14_PORT_PROP_ETHERNET_LEN);
	wbuf_put_zero(w, 4);
	of_fields_put(w, p, of_port_features, OF_NFIELDS(of_port_features));
}

static void
port_ethernet_get(struct rbuf *b, struct of_port *p)
{
	if (rbuf_skip(b, 4) == 0)
		(void)of_fields_get(b, p, of_port_features,
		    OF_NFIELDS(of_port_features));
}

int
ofp14_port_decode(struct rbuf *r, struct of_port *p)
{
	struct rbuf	port, props, body;
	uint16_t	len, type;

	memset(p, 0, sizeof(*p));
	if (rbuf_get_u32(r, &p->port_no) == -1 ||
	    rbuf_get_u16(r, &len) == -1 || len < OFP14_PORT_FIXED ||
	    rbuf_sub(r, &port, len - 6u) == -1)
		return -1;
	rbuf_skip(&port, 2);
	rbuf_get_bytes(&port, p->hw_addr, OFP_ETH_ALEN);
	rbuf_skip(&port, 2);
	rbuf_get_bytes(&port, p->name, OFP_MAX_PORT_NAME_LEN);
	p->name[OFP_MAX_PORT_NAME_LEN - 1] = '\0';
	rbuf_get_u32(&port, &p->config);
	rbuf_get_u32(&port, &p->state);
	props = port;
	while (rbuf_left(&props) > 0) {
		if (prop_next(&props, &type, &body) == -1)
			return -1;
		if (type == OFP14_PDPT_ETHERNET)
			port_ethernet_get(&body, p);
	}
	return 0;
}

/* ofp_port_stats, 1.4.1 A.3.5.7: the four Ethernet-only counters moved
 * to the ETHERNET property. */
void
ofp14_port_stats_encode(struct wbuf *w, const struct of_port_stats *ps)
{
	wbuf_put_u16(w, OFP14_PORT_STATS_FIXED + OFP14_PORT_STATS_PROP_ETH_LEN);
	wbuf_put_zero(w, 2);
	wbuf_put_u32(w, ps->port_no);
	wbuf_put_u32(w, ps->duration_sec);
	wbuf_put_u32(w, ps->duration_nsec);
	ofp_port_counters_put(w, ps);
	wbuf_put_u16(w, OFP14_PSPT_ETHERNET);
	wbuf_put_u16(w, OFP14_PORT_STATS_PROP_ETH_LEN);
	wbuf_put_zero(w, 4);
	of_fields_put(w, ps, of_port_counters + OF_PORT_COUNTERS_COMMON,
	    OF_NFIELDS(of_port_counters) - OF_PORT_COUNTERS_COMMON);
}

int
ofp14_port_stats_decode(struct rbuf *r, struct of_port_stats *ps)
{
	struct rbuf	 e, body;
	uint16_t	 len, type;

	memset(ps, 0, sizeof(*ps));
	if (rbuf_get_u16(r, &len) == -1 || len < OFP14_PORT_STATS_FIXED ||
	    rbuf_sub(r, &e, len - 2u) == -1)
		return -1;
	rbuf_skip(&e, 2);
	rbuf_get_u32(&e, &ps->port_no);
	rbuf_get_u32(&e, &ps->duration_sec);
	rbuf_get_u32(&e, &ps->duration_nsec);
	(void)of_fields_get(&e, ps, of_port_counters, OF_PORT_COUNTERS_COMMON);
	while (rbuf_left(&e) > 0) {
		if (prop_next(&e, &type, &body) == -1)
			return -1;
		if (type != OFP14_PSPT_ETHERNET || rbuf_skip(&body, 4) == -1)
			continue;
		(void)of_fields_get(&body, ps,
		    of_port_counters + OF_PORT_COUNTERS_COMMON,
		    OF_NFIELDS(of_port_counters) - OF_PORT_COUNTERS_COMMON);
	}
	return 0;
}

/* PORT_MOD, 1.4.1 A.3.4.3: advertise moved to the ETHERNET property;
 * other kinds (optical, experimenter) name features sbsim's ports lack. */
int
ofp14_port_mod_decode(struct rbuf *r, struct of_port_mod *pm,
    enum of_err *err)
{
	struct rbuf	body;
	uint16_t	type;

	memset(pm, 0, sizeof(*pm));
	if (rbuf_left(r) < OFP14_PORT_MOD_FIXED_BODY)
		return bad(err, OF_ERR_BAD_LEN);
	ofp_port_mod_head(r, pm);
	while (rbuf_left(r) > 0) {
		if (prop_next(r, &type, &body) == -1)
			return bad(err, OF_ERR_BAD_PROPERTY_LEN);
		if (type != OFP14_PMPT_ETHERNET)
			return bad(err, OF_ERR_BAD_PROPERTY_TYPE);
		if (rbuf_get_u32(&body, &pm->advertise) == -1)
			return bad(err, OF_ERR_BAD_PROPERTY_LEN);
	}
	return 0;
}

/*
 * Async configuration, 1.4.1 A.3.10: property type 2k+1 is the master
 * (and equal) mask of kind k, 2k the slave one; kinds are packet-in,
 * port status, flow removed, role status, table status, request forward,
 * and in 1.5 (1.5.1 7.3.10) controller status.
 */
static uint16_t
async_last(uint8_t version)
{
	return version >= OF_VERSION_15 ? OFP15_ACPT_CONT_STATUS_MASTER :
	    OFP14_ACPT_REQUESTFORWARD_MASTER;
}

static uint32_t *
async_mask(struct of_async *a, uint8_t version, uint16_t type)
{
	uint32_t	*kinds[] = { a->packet_in, a->port_status,
			    a->flow_removed, a->role_status, a->table_status,
			    a->requestforward, a->cont_status };

	if (type > async_last(version))
		return NULL;
	return &kinds[type / 2][type % 2 ? 0 : 1];
}

void
ofp14_async_put(struct wbuf *w, uint8_t version, const struct of_async *a)
{
	uint16_t	type;

	for (type = 0; type <= async_last(version); type++) {
		wbuf_put_u16(w, type);
		wbuf_put_u16(w, OFP14_ASYNC_PROP_LEN);
		wbuf_put_u32(w, *async_mask((struct of_async *)a, version,
		    type));
	}
}

/* Applied only once all are good: a refused SET_ASYNC changes nothing. */
int
ofp14_async_get(uint8_t version, struct rbuf *r, struct of_async *a,
    enum of_err *err)
{
	struct of_async	 n = *a;
	struct rbuf	 body;
	uint16_t	 type;
	uint32_t	*m;

	while (rbuf_left(r) > 0) {
		if (prop_next(r, &type, &body) == -1)
			return bad(err, OF_ERR_BAD_PROPERTY_LEN);
		if ((m = async_mask(&n, version, type)) == NULL)
			return bad(err, OF_ERR_ASYNC_UNSUPPORTED);
		if (rbuf_left(&body) != 4)
			return bad(err, OF_ERR_BAD_PROPERTY_LEN);
		rbuf_get_u32(&body, m);
	}
	*a = n;
	return 0;
}

/* OXS fields, 1.5.1 section 7.2.4.3: class OFPXSC_OPENFLOW_BASIC. */
static void
oxs_duration(struct wbuf *w, uint32_t sec, uint32_t nsec)
{
	wbuf_put_u32(w, OFP15_OXS_HEADER(OFP15_XST_DURATION, 8));
	wbuf_put_u32(w, sec);
	wbuf_put_u32(w, nsec);
}

static void
oxs_u64(struct wbuf *w, uint8_t field, uint64_t v)
{
	wbuf_put_u32(w, OFP15_OXS_HEADER(field, 8));
	wbuf_put_u64(w, v);
}

/* ofp_stats: reserved, length (padding excluded), fields, padding: a
 * property's layout with type 0. */
#define stats_begin(w)		ofp_prop_begin((w), 0)
#define stats_end(w, start)	ofp_prop_end((w), (start))

/* A flow's statistics: how long it has been in, and its (zero, no
 * traffic is simulated) counts; idle time equals duration for the same
 * reason. */
static void
flow_oxs(struct wbuf *w, const struct of_flow_info *fi)
{
	size_t	s = stats_begin(w);

	oxs_duration(w, fi->duration_sec, fi->duration_nsec);
	wbuf_put_u32(w, OFP15_OXS_HEADER(OFP15_XST_IDLE_TIME, 8));
	wbuf_put_u32(w, fi->duration_sec);
	wbuf_put_u32(w, fi->duration_nsec);
	oxs_u64(w, OFP15_XST_PACKET_COUNT, fi->packet_count);
	oxs_u64(w, OFP15_XST_BYTE_COUNT, fi->byte_count);
	stats_end(w, s);
}

/* An entry that starts with its own 16-bit length: a placeholder that
 * entry_len patches once the entry is whole. */
static size_t
entry_begin(struct wbuf *w)
{
	size_t	start = w->len;

	wbuf_put_u16(w, 0);
	return start;
}

static void
entry_len(struct wbuf *w, size_t start)
{
	if (w->err || w->len - start > UINT16_MAX) {
		w->err = 1;
		return;
	}
	wbuf_set_u16(w, start, (uint16_t)(w->len - start));
}

/* ofp_flow_desc, 1.5.1 section 7.3.5.2. */
void
ofp15_flow_desc_put(struct wbuf *w, const struct of_flow_info *fi)
{
	size_t	start = entry_begin(w);

	of_fields_put(w, fi, of_flow_desc15,
	    OF_NFIELDS(of_flow_desc15));
	ofp_match_put(w, OF_VERSION_15, fi->match);
	flow_oxs(w, fi);
	if (fi->prog_len > 0)
		of_prog_put(w, OF_VERSION_15, fi->prog, fi->prog_len);
	entry_len(w, start);
}

/* ofp_flow_stats, 1.5.1 section 7.3.5.3: no instructions; reason
 * OFPFSR_STATS_REQUEST (0). */
void
ofp15_flow_stats_put(struct wbuf *w, uint8_t version, const void *arg)
{
	const struct of_flow_info	*fi = arg;
	size_t				 start = entry_begin(w);

	(void)version;

	wbuf_put_zero(w, 2);
	wbuf_put_u8(w, fi->table_id);
	wbuf_put_u8(w, 0);
	wbuf_put_u16(w, fi->priority);
	ofp_match_put(w, OF_VERSION_15, fi->match);
	flow_oxs(w, fi);
	entry_len(w, start);
}

/* FLOW_REMOVED's body, 1.5.1 section 7.4.2: the fields reordered, the
 * counts in an ofp_stats. */
void
ofp15_flow_removed_put(struct wbuf *w, const struct of_flow_info *fi)
{
	of_fields_put(w, fi, of_flow_removed15,
	    OF_NFIELDS(of_flow_removed15));
	ofp_match_put(w, OF_VERSION_15, fi->match);
	flow_oxs(w, fi);
}

/* ofp_aggregate_stats_reply, 1.5.1 section 7.3.5.4. */
void
ofp15_aggregate_put(struct wbuf *w, uint64_t packets, uint64_t bytes,
    uint32_t flows)
{
	size_t	s = stats_begin(w);

	wbuf_put_u32(w, OFP15_OXS_HEADER(OFP15_XST_FLOW_COUNT, 4));
	wbuf_put_u32(w, flows);
	oxs_u64(w, OFP15_XST_PACKET_COUNT, packets);
	oxs_u64(w, OFP15_XST_BYTE_COUNT, bytes);
	stats_end(w, s);
}

/* The body of an ofp_flow_desc after its length. */
int
ofp15_flow_desc_get(struct rbuf *e, struct of_flow_info *fi,
    struct of_match *store)
{
	enum of_err	err;
	uint16_t	res, len;

	if (rbuf_left(e) < OFP15_FLOW_DESC_FIXED - 2 - 8 ||
	    of_fields_get(e, fi, of_flow_desc15,
	    OF_NFIELDS(of_flow_desc15)) == -1 ||
	    of_match_decode13(e, store, &err) == -1 ||
	    rbuf_get_u16(e, &res) == -1 || rbuf_get_u16(e, &len) == -1 ||
	    len < OFP15_STATS_HDR_LEN)
		return -1;
	return rbuf_skip(e, (len + 7u) / 8 * 8 - OFP15_STATS_HDR_LEN);
}

/*
 * 1.5.1 section 7.3.5.18: a TABLE_FEATURES request that would make a
 * table egress (EGRESS_TABLE or FIRST_EGRESS in an entry's features) asks
 * for what the switch has none of: TABLE_FEATURES_FAILED/BAD_FEATURES.
 * Entries are length, table_id, command, features, ...; -1 with *err.
 */
int
ofp15_table_features_check(struct rbuf *r, enum of_err *err)
{
	struct rbuf	e;
	uint16_t	len;
	uint32_t	features;

	while (rbuf_left(r) > 0) {
		if (rbuf_get_u16(r, &len) == -1 || len < 8 ||
		    rbuf_sub(r, &e, len - 2u) == -1)
			return bad(err, OF_ERR_BAD_LEN);
		rbuf_skip(&e, 2);
		rbuf_get_u32(&e, &features);
		if (features & (OFP15_TFF_EGRESS_TABLE | OFP15_TFF_FIRST_EGRESS))
			return bad(err, OF_ERR_TABLE_FEATURES_BAD_FEATURES);
	}
	return 0;
}

/* ofp_flow_monitor_request, 1.4.1 A.3.5.19: monitor_id, out_port,
 * out_group, flags, table_id, command, match. */
int
ofp14_flow_monitor_request_decode(struct rbuf *r, struct of_monitor *m,
    uint8_t *command, enum of_err *err)
{
	memset(m, 0, sizeof(*m));
	if (rbuf_left(r) < OFP14_FLOW_MONITOR_REQ_FIXED)
		return bad(err, OF_ERR_BAD_LEN);
	rbuf_get_u32(r, &m->id);
	rbuf_get_u32(r, &m->out_port);
	rbuf_get_u32(r, &m->out_group);
	rbuf_get_u16(r, &m->flags);
	rbuf_get_u8(r, &m->table_id);
	rbuf_get_u8(r, command);
	if (of_match_decode13(r, &m->match, err) == -1)
		return -1;
	if (*command > OF_FMC_DELETE)
		return bad(err, OF_ERR_MONITOR_BAD_COMMAND);
	if (m->flags & ~(OF_FMF_INITIAL | OF_FMF_ADD | OF_FMF_REMOVED |
	    OF_FMF_MODIFY | OF_FMF_INSTRUCTIONS | OF_FMF_NO_ABBREV |
	    OF_FMF_ONLY_OWN))
		return bad(err, OF_ERR_MONITOR_BAD_FLAGS);
	return 0;
}

/* ofp_flow_update_full, 1.4.1 A.3.5.19: reason only for REMOVED. */
void
ofp14_flow_update_put(struct wbuf *w, uint8_t version, uint16_t event,
    const struct of_flow_info *fi, int instructions)
{
	size_t	start = entry_begin(w);

	wbuf_put_u16(w, event);
	wbuf_put_u8(w, fi->table_id);
	wbuf_put_u8(w, event == OF_FME_REMOVED ? fi->reason : 0);
	wbuf_put_u16(w, fi->idle_timeout);
	wbuf_put_u16(w, fi->hard_timeout);
	wbuf_put_u16(w, fi->priority);
	wbuf_put_zero(w, 4);
	wbuf_put_u64(w, fi->cookie);
	ofp_match_put(w, OF_VERSION_14, fi->match);
	if (instructions && fi->prog_len > 0)
		of_prog_put(w, version, fi->prog, fi->prog_len);
	entry_len(w, start);
}

/* TABLE_MOD's properties: VACANCY sets the thresholds; EVICTION's
 * flags matter only with the EVICTION bit, which is refused. */
static int
table_mod_props(struct rbuf *r, struct of_table_mod14 *tm, enum of_err *err)
{
	struct rbuf	body;
	uint16_t	type;

	while (rbuf_left(r) > 0) {
		if (prop_next(r, &type, &body) == -1)
			return bad(err, OF_ERR_BAD_PROPERTY_LEN);
		if (type == OFP14_TMPT_EVICTION && rbuf_left(&body) == 4)
			continue;
		if (type != OFP14_TMPT_VACANCY)
			return bad(err, OF_ERR_BAD_PROPERTY_TYPE);
		if (rbuf_get_u8(&body, &tm->down) == -1 ||
		    rbuf_get_u8(&body, &tm->up) == -1)
			return bad(err, OF_ERR_BAD_PROPERTY_LEN);
		tm->has_vacancy = 1;
	}
	return 0;
}

/* TABLE_MOD, 1.4.1 A.3.3: table_id, pad, config, properties. */
int
ofp14_table_mod_decode(struct rbuf *r, struct of_table_mod14 *tm,
    enum of_err *err)
{
	memset(tm, 0, sizeof(*tm));
	if (rbuf_left(r) < OFP14_TABLE_MOD_FIXED_BODY)
		return bad(err, OF_ERR_BAD_LEN);
	rbuf_get_u8(r, &tm->table_id);
	rbuf_skip(r, 3);
	rbuf_get_u32(r, &tm->config);
	if (table_mod_props(r, tm, err) == -1)
		return -1;
	/* No eviction; vacancy events need their thresholds, in order. */
	if ((tm->config & ~(OFP14_TC_VACANCY_EVENTS |
	    OFP14_TC_DEPRECATED_MASK)) != 0 ||
	    ((tm->config & OFP14_TC_VACANCY_EVENTS) && !tm->has_vacancy) ||
	    tm->down > tm->up || tm->up > 100)
		return bad(err, OF_ERR_TABLE_MOD_BAD_CONFIG);
	return 0;
}

/* ofp_table_desc, 1.4.1 A.3.5.6: the VACANCY property while events
 * are on. */
void
ofp14_table_desc_put(struct wbuf *w, uint8_t version, const void *arg)
{
	const struct of_table_desc	*td = arg;
	size_t				 start = entry_begin(w);

	(void)version;

	wbuf_put_u8(w, td->table_id);
	wbuf_put_zero(w, 1);
	wbuf_put_u32(w, td->config);
	if (td->config & OFP14_TC_VACANCY_EVENTS) {
		wbuf_put_u16(w, OFP14_TMPT_VACANCY);
		wbuf_put_u16(w, 8);
		wbuf_put_u8(w, td->down);
		wbuf_put_u8(w, td->up);
		wbuf_put_u8(w, td->vacancy);
		wbuf_put_zero(w, 1);
	}
	entry_len(w, start);
}

/* TABLE_STATUS, 1.4.1 A.4.4: reason, pad, the table's description. */
int
ofp14_table_status_encode(struct wbuf *w, uint8_t version, uint8_t reason,
    const struct of_table_desc *td)
{
	size_t	start = of_msg_begin(w, version, OF_TABLE_STATUS, 0);

	wbuf_put_u8(w, reason);
	wbuf_put_zero(w, 7);
	ofp14_table_desc_put(w, version, td);
	return of_msg_end(w, start);
}

/* REQUESTFORWARD, 1.4.1 A.4.6: the request whole, header included;
 * unsolicited (xid 0).  A request too long to fit is not sent. */
int
ofp14_requestforward_encode(struct wbuf *w, uint8_t version,
    const uint8_t *msg, size_t len)
{
	size_t	start = of_msg_begin(w, version, OF_REQUESTFORWARD, 0);

	wbuf_put_bytes(w, msg, len);
	return of_msg_end(w, start);
}

/* ROLE_STATUS, 1.4.1 A.4.5: unsolicited (xid 0), no properties. */
int
ofp14_role_status_encode(struct wbuf *w, uint8_t version, uint32_t role,
    uint8_t reason, uint64_t generation)
{
	size_t	start = of_msg_begin(w, version, OF_ROLE_STATUS, 0);

	ofp_role_put(w, role, reason, generation);
	return of_msg_end(w, start);
}

/* Errors whose type 1.4 added (A.4.4); before 1.4 they map as
 * of_codec.c's table says. */
int
of_err14_to_wire(uint8_t version, enum of_err e, uint16_t *type,
    uint16_t *code)
{
	static const struct {
		enum of_err	e;
		uint16_t	type, code;
	} t[] = {
		{ OF_ERR_BAD_PROPERTY_TYPE, OFP14_ET_BAD_PROPERTY,
		    OFP14_BPC_BAD_TYPE },
		{ OF_ERR_BAD_PROPERTY_LEN, OFP14_ET_BAD_PROPERTY,
		    OFP14_BPC_BAD_LEN },
		{ OF_ERR_ASYNC_INVALID, OFP14_ET_ASYNC_CONFIG_FAILED,
		    OFP14_ACFC_INVALID },
		{ OF_ERR_ASYNC_UNSUPPORTED, OFP14_ET_ASYNC_CONFIG_FAILED,
		    OFP14_ACFC_UNSUPPORTED },
		{ OF_ERR_MONITOR_OUT_OF_ROOM, OFP14_ET_FLOW_MONITOR_FAILED,
		    OFP14_MOFC_UNKNOWN },
		{ OF_ERR_MONITOR_EXISTS, OFP14_ET_FLOW_MONITOR_FAILED,
		    OFP14_MOFC_MONITOR_EXISTS },
		{ OF_ERR_MONITOR_UNKNOWN, OFP14_ET_FLOW_MONITOR_FAILED,
		    OFP14_MOFC_UNKNOWN_MONITOR },
		{ OF_ERR_MONITOR_BAD_COMMAND, OFP14_ET_FLOW_MONITOR_FAILED,
		    OFP14_MOFC_BAD_COMMAND },
		{ OF_ERR_MONITOR_BAD_FLAGS, OFP14_ET_FLOW_MONITOR_FAILED,
		    OFP14_MOFC_BAD_FLAGS },
		{ OF_ERR_MONITOR_BAD_TABLE_ID, OFP14_ET_FLOW_MONITOR_FAILED,
		    OFP14_MOFC_BAD_TABLE_ID },
		{ OF_ERR_TABLE_MOD_BAD_TABLE, OFP13_ET_TABLE_MOD_FAILED,
		    OFP13_TMFC_BAD_TABLE },
		{ OF_ERR_TABLE_MOD_BAD_CONFIG, OFP13_ET_TABLE_MOD_FAILED,
		    OFP13_TMFC_BAD_CONFIG },
		{ OF_ERR_TABLE_FEATURES_BAD_FEATURES,
		    OFP13_ET_TABLE_FEATURES_FAILED, OFP15_TFFC_BAD_FEATURES },
		{ OF_ERR_GROUP_UNKNOWN_BUCKET, OFP13_ET_GROUP_MOD_FAILED,
		    OFP15_GMFC_UNKNOWN_BUCKET },
		{ OF_ERR_GROUP_BUCKET_EXISTS, OFP13_ET_GROUP_MOD_FAILED,
		    OFP15_GMFC_BUCKET_EXISTS },
	};
	size_t	i;

	if (version < OF_VERSION_14)
		return 0;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].e == e) {
			*type = t[i].type;
			*code = t[i].code;
			return 1;
		}
	return 0;
}

/*
 * 1.5 groups (1.5.1 section 7.3.4.2).  A 1.5 bucket is length,
 * action_array_len, bucket_id, actions, properties (weight, watch port,
 * watch group); the group table (of_group.c) keeps 1.3's ofp_bucket
 * (length, weight, watch_port, watch_group, pad[4], actions), so a 1.5
 * bucket is stored in that form with its bucket_id in the 4 pad bytes
 * and turned back on GROUP_DESC: 1.5 reads back what it gave.
 */
#define BUCKET13_HDR	16

struct bucket15 {
	uint16_t	 weight;
	uint32_t	 watch_port, watch_group, id;
	const uint8_t	*acts;
	uint16_t	 acts_len;
};

/* Properties of one bucket; defaults as Open vSwitch takes them (weight
 * 1 in a SELECT group, no watch). */
static int
bucket15_props(struct rbuf *props, uint8_t type, struct bucket15 *b,
    enum of_err *err)
{
	struct rbuf	body;
	uint16_t	ptype;

	b->weight = type == OF_GT_SELECT ? 1 : 0;
	b->watch_port = OF_PORT_ANY;
	b->watch_group = OF_GROUP_ANY;
	while (rbuf_left(props) > 0) {
		if (prop_next(props, &ptype, &body) == -1)
			return bad(err, OF_ERR_BAD_PROPERTY_LEN);
		if (ptype == OFP15_GBPT_WEIGHT &&
		    rbuf_get_u16(&body, &b->weight) == 0)
			continue;
		if (ptype == OFP15_GBPT_WATCH_PORT &&
		    rbuf_get_u32(&body, &b->watch_port) == 0)
			continue;
		if (ptype == OFP15_GBPT_WATCH_GROUP &&
		    rbuf_get_u32(&body, &b->watch_group) == 0)
			continue;
		return bad(err, ptype > OFP15_GBPT_WATCH_GROUP ?
		    OF_ERR_BAD_PROPERTY_TYPE : OF_ERR_BAD_PROPERTY_LEN);
	}
	return 0;
}

static int
bucket15_get(struct rbuf *r, uint8_t type, struct bucket15 *b,
    enum of_err *err)
{
	struct rbuf	bk, acts;
	uint16_t	len;

	if (rbuf_get_u16(r, &len) == -1 || len < OFP15_BUCKET_FIXED ||
	    rbuf_sub(r, &bk, len - 2u) == -1)
		return bad(err, OF_ERR_GROUP_BAD_BUCKET);
	rbuf_get_u16(&bk, &b->acts_len);
	rbuf_get_u32(&bk, &b->id);
	b->acts = rbuf_ptr(&bk);
	if (b->id > OFP15_GROUP_BUCKET_MAX ||
	    rbuf_sub(&bk, &acts, b->acts_len) == -1)
		return bad(err, OF_ERR_GROUP_BAD_BUCKET);
	return bucket15_props(&bk, type, b, err);
}

/* Bucket ids are unique within a group (1.5.1 section 7.3.4.2). */
static int
bucket15_id_seen(const uint8_t *b13, size_t len, uint32_t id)
{
	struct rbuf	r;
	uint16_t	blen;
	uint32_t	have;

	rbuf_init(&r, b13, len);
	while (rbuf_get_u16(&r, &blen) == 0 && blen >= BUCKET13_HDR) {
		rbuf_skip(&r, 10);
		if (rbuf_get_u32(&r, &have) == 0 && have == id)
			return 1;
		rbuf_skip(&r, blen - BUCKET13_HDR);
	}
	return 0;
}

static void
bucket13_put(struct wbuf *w, const struct bucket15 *b)
{
	wbuf_put_u16(w, (uint16_t)(BUCKET13_HDR + b->acts_len));
	wbuf_put_u16(w, b->weight);
	wbuf_put_u32(w, b->watch_port);
	wbuf_put_u32(w, b->watch_group);
	wbuf_put_u32(w, b->id);
	wbuf_put_bytes(w, b->acts, b->acts_len);
}

/*
 * ADD, MODIFY and DELETE with command_bucket_id OFPG_BUCKET_ALL (what
 * they carry); INSERT_BUCKET and REMOVE_BUCKET with theirs in
 * gm->command_bucket_id, for of_group15_edit() to make a MODIFY of.
 * Group properties (experimenter only) are refused.
 */
int
of_group_mod15_decode(struct rbuf *r, struct of_group_mod *gm,
    struct wbuf *b13, enum of_err *err)
{
	struct rbuf	 arr;
	struct bucket15	 b;
	uint16_t	 arr_len;
	uint32_t	 cmd_bucket;

	memset(gm, 0, sizeof(*gm));
	if (rbuf_left(r) < OFP15_GROUP_MOD_FIXED_BODY)
		return bad(err, OF_ERR_BAD_LEN);
	of_group_mod_head_get(r, gm);
	rbuf_get_u16(r, &arr_len);
	rbuf_skip(r, 2);
	rbuf_get_u32(r, &cmd_bucket);
	if (gm->command > OF_GC_DELETE &&
	    gm->command != OFP15_GC_INSERT_BUCKET &&
	    gm->command != OFP15_GC_REMOVE_BUCKET)
		return bad(err, OF_ERR_GROUP_BAD_COMMAND);
	gm->command_bucket_id = cmd_bucket;
	if (rbuf_sub(r, &arr, arr_len) == -1)
		return bad(err, OF_ERR_BAD_LEN);
	if (rbuf_left(r) > 0)
		return bad(err, OF_ERR_BAD_PROPERTY_TYPE);
	while (rbuf_left(&arr) > 0) {
		if (bucket15_get(&arr, gm->type, &b, err) == -1)
			return -1;
		if (bucket15_id_seen(b13->data, b13->len, b.id))
			return bad(err, OF_ERR_GROUP_BAD_BUCKET);
		bucket13_put(b13, &b);
	}
	if (b13->err)
		return bad(err, OF_ERR_BAD_LEN);
	gm->buckets = b13->data;
	gm->buckets_len = b13->len;
	return 0;
}

static void
prop_u32(struct wbuf *w, uint16_t type, uint32_t v)
{
	wbuf_put_u16(w, type);
	wbuf_put_u16(w, 8);
	wbuf_put_u32(w, v);
}

/* One stored bucket in 1.5's form; a group 1.3 set (every pad 0) has its
 * buckets numbered by position, as Open vSwitch numbers them. */
static void
bucket15_put(struct wbuf *w, struct rbuf *r, uint8_t type, uint32_t pos,
    int by_pos)
{
	uint16_t	len, weight;
	uint32_t	port, group, id;
	size_t		start = w->len;

	rbuf_get_u16(r, &len);
	rbuf_get_u16(r, &weight);
	rbuf_get_u32(r, &port);
	rbuf_get_u32(r, &group);
	rbuf_get_u32(r, &id);
	wbuf_put_u16(w, 0);
	wbuf_put_u16(w, (uint16_t)(len - BUCKET13_HDR));
	wbuf_put_u32(w, by_pos ? pos : id);
	wbuf_put_bytes(w, rbuf_ptr(r), len - BUCKET13_HDR);
	rbuf_skip(r, len - BUCKET13_HDR);
	if (type == OF_GT_SELECT) {
		wbuf_put_u16(w, OFP15_GBPT_WEIGHT);
		wbuf_put_u16(w, 8);	/* the padding counts here */
		wbuf_put_u16(w, weight);
		wbuf_put_zero(w, 2);
	}
	if (port != OF_PORT_ANY)
		prop_u32(w, OFP15_GBPT_WATCH_PORT, port);
	if (group != OF_GROUP_ANY)
		prop_u32(w, OFP15_GBPT_WATCH_GROUP, group);
	wbuf_set_u16(w, start, (uint16_t)(w->len - start));
}

static int
buckets_all_unnumbered(const struct of_group_info *gi)
{
	struct rbuf	r;
	uint16_t	len;
	uint32_t	id;

	rbuf_init(&r, gi->buckets, gi->buckets_len);
	while (rbuf_get_u16(&r, &len) == 0 && len >= BUCKET13_HDR) {
		rbuf_skip(&r, 10);
		if (rbuf_get_u32(&r, &id) == 0 && id != 0)
			return 0;
		rbuf_skip(&r, len - BUCKET13_HDR);
	}
	return 1;
}

/* ofp_group_desc, 1.5.1 section 7.3.5.9. */
void
ofp15_group_desc_put(struct wbuf *w, const struct of_group_info *gi)
{
	struct rbuf	r;
	size_t		start = w->len, arr;
	uint32_t	pos = 0;
	int		by_pos = buckets_all_unnumbered(gi);

	wbuf_put_u16(w, 0);
	wbuf_put_u8(w, gi->type);
	wbuf_put_zero(w, 1);
	wbuf_put_u32(w, gi->group_id);
	wbuf_put_u16(w, 0);		/* bucket_array_len */
	wbuf_put_zero(w, 6);
	arr = w->len;
	rbuf_init(&r, gi->buckets, gi->buckets_len);
	while (rbuf_left(&r) >= BUCKET13_HDR)
		bucket15_put(w, &r, gi->type, pos++, by_pos);
	if (w->err || w->len - start > UINT16_MAX) {
		w->err = 1;
		return;
	}
	wbuf_set_u16(w, start + 8, (uint16_t)(w->len - arr));
	wbuf_set_u16(w, start, (uint16_t)(w->len - start));
}
