/*
 * The meter table of a simulated switch: METER_MOD ADD, MODIFY and DELETE
 * (OpenFlow 1.3.5 sections 6.6 and 7.3.4.4) with the METER_MOD_FAILED
 * errors where Open vSwitch 3.1 gives them, checked in its order
 * (ofputil_decode_meter_mod, handle_meter_mod, dpif_meter_set): bad
 * command, both rate units, band length and type; then the id, the band
 * count, the id's presence, room; then the rate unit, the bands' rates.
 * Two codes Open vSwitch never sends are given where a band cannot be
 * honoured: BAD_BURST for a BURST meter whose band has burst_size 0 (a
 * bucket that holds nothing; ovs-ofctl refuses to send it) and
 * BAD_BAND_VALUE for a DSCP_REMARK prec_level past what the 6-bit DSCP
 * field (RFC 2474 section 3) can take.  No traffic is simulated, so band
 * counters stay 0 as flow counters do.
 */
#include <stdlib.h>
#include <string.h>

#include "of_actions.h"
#include "of_codec.h"
#include "of_idmap.h"
#include "of_meter.h"

#define METER_MOD_BODY		8	/* command, flags, meter_id */
#define METER_MP_REQ_BODY	8	/* meter_id, pad */
#define METER_CONFIG_FIXED	8	/* length, flags, meter_id */
#define METER_STATS_FIXED	40	/* before the band stats */
#define METER_BAND_STATS_LEN	16	/* packet and byte band counts */
#define METER_FLAGS_ALL		(OF_MF_KBPS | OF_MF_PKTPS | OF_MF_BURST | \
				 OF_MF_STATS)
#define METER_PREC_LEVEL_MAX	63	/* a DSCP is 6 bits */

/* Every band is OF_METER_BAND_LEN bytes: n_bands gives their length. */
struct of_meter {
	struct of_idnode node;		/* first: the map's entry */
	uint16_t	 flags;
	uint16_t	 n_bands;
	uint32_t	 flows;		/* flows naming it, at the last count */
	uint8_t		 bands[];	/* as the controller sent them */
};

struct of_meters {
	struct of_idmap	 map;
};

static int
meter_fail(enum of_err *err, enum of_err e)
{
	if (err != NULL)
		*err = e;
	return -1;
}

/* ---- codec ---- */

int
of_meter_mod_decode(uint8_t version, struct rbuf *r, struct of_meter_mod *mm,
    enum of_err *err)
{
	(void)version;		/* 1.3 and 1.4 share ofp_meter_mod */
	if (rbuf_left(r) < METER_MOD_BODY)
		return meter_fail(err, OF_ERR_BAD_LEN);
	rbuf_get_u16(r, &mm->command);
	rbuf_get_u16(r, &mm->flags);
	rbuf_get_u32(r, &mm->meter_id);
	mm->bands = rbuf_ptr(r);
	mm->bands_len = rbuf_left(r);
	rbuf_skip(r, mm->bands_len);
	return 0;
}

int
of_meter_mod_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    const struct of_meter_mod *mm)
{
	size_t	start = of_msg_begin(w, version, OF_METER_MOD, xid);

	wbuf_put_u16(w, mm->command);
	wbuf_put_u16(w, mm->flags);
	wbuf_put_u32(w, mm->meter_id);
	wbuf_put_bytes(w, mm->bands, mm->bands_len);
	return of_msg_end(w, start);
}

/* ofp_meter_band_drop and _dscp_remark: type, len, rate, burst_size,
 * then prec_level (DSCP_REMARK) and padding. */
void
of_meter_band_encode(struct wbuf *w, const struct of_meter_band *b)
{
	wbuf_put_u16(w, b->type);
	wbuf_put_u16(w, OF_METER_BAND_LEN);
	wbuf_put_u32(w, b->rate);
	wbuf_put_u32(w, b->burst_size);
	wbuf_put_u8(w, b->type == OF_MBT_DSCP_REMARK ? b->prec_level : 0);
	wbuf_put_zero(w, 3);
}

/* Every band type Open vSwitch knows is 16 bytes; another length is
 * BAD_REQUEST/BAD_LEN there (ofputil_pull_bands), whatever the type. */
int
of_meter_band_decode(struct rbuf *r, struct of_meter_band *b,
    enum of_err *err)
{
	if (rbuf_left(r) < OF_METER_BAND_LEN)
		return meter_fail(err, OF_ERR_BAD_LEN);
	rbuf_get_u16(r, &b->type);
	rbuf_get_u16(r, &b->len);
	if (b->len != OF_METER_BAND_LEN)
		return meter_fail(err, OF_ERR_BAD_LEN);
	rbuf_get_u32(r, &b->rate);
	rbuf_get_u32(r, &b->burst_size);
	rbuf_get_u8(r, &b->prec_level);
	rbuf_skip(r, 3);
	if (b->type != OF_MBT_DSCP_REMARK)
		b->prec_level = 0;
	return 0;
}

/* ---- what an ADD or MODIFY may carry ---- */

/* The bands' shape and types, as Open vSwitch decodes them: *n bands. */
static int
bands_shape(const struct of_meter_mod *mm, uint32_t *n, enum of_err *err)
{
	struct of_meter_band	b;
	struct rbuf		r;

	*n = 0;
	rbuf_init(&r, mm->bands, mm->bands_len);
	while (rbuf_left(&r) > 0) {
		if (of_meter_band_decode(&r, &b, err) == -1)
			return -1;
		if (b.type != OF_MBT_DROP && b.type != OF_MBT_DSCP_REMARK)
			return meter_fail(err, OF_ERR_METER_BAD_BAND);
		(*n)++;
	}
	return 0;
}

/* What a datapath can do with each band (dpif_meter_set's checks, then
 * the two of this switch). */
static int
bands_values(const struct of_meter_mod *mm, enum of_err *err)
{
	struct of_meter_band	b;
	struct rbuf		r;

	rbuf_init(&r, mm->bands, mm->bands_len);
	while (of_meter_band_decode(&r, &b, NULL) == 0) {
		if (b.rate == 0)
			return meter_fail(err, OF_ERR_METER_BAD_RATE);
		if ((mm->flags & OF_MF_BURST) && b.burst_size == 0)
			return meter_fail(err, OF_ERR_METER_BAD_BURST);
		if (b.prec_level > METER_PREC_LEVEL_MAX)
			return meter_fail(err, OF_ERR_METER_BAD_BAND_VALUE);
	}
	return 0;
}

/* Exactly one rate unit (1.3.5 section 7.3.4.4), no unknown flag. */
static int
flags_check(uint16_t flags, enum of_err *err)
{
	uint16_t	units = flags & (OF_MF_KBPS | OF_MF_PKTPS);

	if (units == 0 || units == (OF_MF_KBPS | OF_MF_PKTPS) ||
	    (flags & ~METER_FLAGS_ALL) != 0)
		return meter_fail(err, OF_ERR_METER_BAD_FLAGS);
	return 0;
}

/* A meter an ADD or MODIFY may name: 1..OFPM_MAX and the two virtual
 * meters; not 0 and not OFPM_ALL (handle_meter_mod). */
static int
meter_id_settable(uint32_t id)
{
	return (id != 0 && id <= OF_METER_MAX) || id == OF_METER_SLOWPATH ||
	    id == OF_METER_CONTROLLER;
}

/* ---- the table ---- */

static struct of_meter *
meter_find(const struct of_meters *mt, uint32_t id)
{
	return (struct of_meter *)of_idmap_find(mt != NULL ? &mt->map : NULL,
	    id);
}

static struct of_meter *
meter_make(const struct of_meter_mod *mm, uint32_t n)
{
	struct of_meter	*m = malloc(sizeof(*m) + mm->bands_len);

	if (m == NULL)
		return NULL;
	memset(m, 0, sizeof(*m));
	m->node.id = mm->meter_id;
	m->flags = mm->flags;
	m->n_bands = (uint16_t)n;
	if (mm->bands_len > 0)
		memcpy(m->bands, mm->bands, mm->bands_len);
	return m;
}

/* What an ADD or MODIFY must pass before it touches the table, in Open
 * vSwitch's order; *n the bands. */
static int
meter_mod_check(const struct of_meters *mt, const struct of_meter_mod *mm,
    uint32_t max_meters, uint32_t *n, enum of_err *err)
{
	int	exists = meter_find(mt, mm->meter_id) != NULL;

	if (mm->flags & OF_MF_KBPS && mm->flags & OF_MF_PKTPS)
		return meter_fail(err, OF_ERR_METER_BAD_FLAGS);
	if (bands_shape(mm, n, err) == -1)
		return -1;
	if (!meter_id_settable(mm->meter_id))
		return meter_fail(err, OF_ERR_METER_INVALID);
	if (*n > OF_METER_MAX_BANDS)
		return meter_fail(err, OF_ERR_METER_OUT_OF_BANDS);
	if (mm->command == OF_MC_ADD && exists)
		return meter_fail(err, OF_ERR_METER_EXISTS);
	if (mm->command == OF_MC_MODIFY && !exists)
		return meter_fail(err, OF_ERR_METER_UNKNOWN);
	if (!exists && of_meters_count(mt) >= max_meters)
		return meter_fail(err, OF_ERR_METER_OUT_OF_METERS);
	if (flags_check(mm->flags, err) == -1)
		return -1;
	if (*n == 0)	/* a meter without a band meters nothing */
		return meter_fail(err, OF_ERR_METER_OUT_OF_BANDS);
	return bands_values(mm, err);
}

/* MODIFY replaces flags and bands and keeps the meter's age. */
static int
meter_add_or_modify(struct of_meters **mtp, const struct of_meter_mod *mm,
    uint32_t max_meters, uint64_t now, enum of_err *err)
{
	struct of_meter	*m;
	uint32_t	 n;

	if (meter_mod_check(*mtp, mm, max_meters, &n, err) == -1)
		return -1;
	if (*mtp == NULL && (*mtp = calloc(1, sizeof(**mtp))) == NULL)
		return meter_fail(err, OF_ERR_METER_OUT_OF_METERS);
	if ((m = meter_make(mm, n)) == NULL)
		return meter_fail(err, OF_ERR_METER_OUT_OF_METERS);
	if (of_idmap_put(&(*mtp)->map, &m->node, now) == -1) {
		free(m);
		return meter_fail(err, OF_ERR_METER_OUT_OF_METERS);
	}
	return 0;
}

/* DELETE of a missing meter is no error; OFPM_ALL deletes every meter
 * (1.3.5 section 6.6), and its flows go in one pass (cb with OFPM_ALL). */
static void
meters_delete(struct of_meters *mt, uint32_t id, of_meter_deleted_cb cb,
    void *arg)
{
	struct of_meter	*m;

	if (id == OF_METER_ALL && of_meters_count(mt) > 0)
		of_idmap_clear(&mt->map);
	else if (id != OF_METER_ALL && (m = meter_find(mt, id)) != NULL)
		of_idmap_del(&mt->map, &m->node);
	else
		return;
	if (cb != NULL)
		cb(arg, id);
}

int
of_meters_apply(struct of_meters **mtp, const struct of_meter_mod *mm,
    uint32_t max_meters, uint64_t now_ns, of_meter_deleted_cb cb, void *arg,
    enum of_err *err)
{
	switch (mm->command) {
	case OF_MC_ADD:
	case OF_MC_MODIFY:
		return meter_add_or_modify(mtp, mm, max_meters, now_ns, err);
	case OF_MC_DELETE:
		meters_delete(*mtp, mm->meter_id, cb, arg);
		return 0;
	default:
		return meter_fail(err, OF_ERR_METER_BAD_COMMAND);
	}
}

int
of_meters_has(const struct of_meters *mt, uint32_t meter_id)
{
	return meter_find(mt, meter_id) != NULL;
}

uint32_t
of_meters_count(const struct of_meters *mt)
{
	return of_idmap_count(mt != NULL ? &mt->map : NULL);
}

void
of_meters_flows_clear(struct of_meters *mt)
{
	struct of_idnode	*node;
	uint32_t		 i;

	if (mt != NULL)
		OF_IDMAP_EACH(&mt->map, i, node)
			((struct of_meter *)node)->flows = 0;
}

void
of_meters_flow(struct of_meters *mt, uint32_t meter_id)
{
	struct of_meter	*m = meter_find(mt, meter_id);

	if (m != NULL)
		m->flows++;
}

static void
meter_info(const struct of_meter *m, uint64_t now_ns,
    struct of_meter_info *mi)
{
	mi->meter_id = m->node.id;
	mi->flags = m->flags;
	mi->n_bands = m->n_bands;
	mi->flow_count = m->flows;
	of_idnode_age(&m->node, now_ns, &mi->duration_sec, &mi->duration_nsec);
	mi->bands = m->bands;
	mi->bands_len = (size_t)m->n_bands * OF_METER_BAND_LEN;
}

void
of_meters_walk(const struct of_meters *mt, uint32_t want, uint64_t now_ns,
    void (*fn)(void *, const struct of_meter_info *), void *arg)
{
	struct of_idnode	*node;
	uint32_t		 i;
	struct of_meter_info	 mi;

	if (mt == NULL)
		return;
	if (want != OF_METER_ALL) {	/* one meter: a lookup, not a pass */
		if ((node = of_idmap_find(&mt->map, want)) != NULL) {
			meter_info((const struct of_meter *)node, now_ns, &mi);
			fn(arg, &mi);
		}
		return;
	}
	OF_IDMAP_EACH(&mt->map, i, node) {
		meter_info((const struct of_meter *)node, now_ns, &mi);
		fn(arg, &mi);
	}
}

void
of_meters_free(struct of_meters *mt)
{
	if (mt == NULL)
		return;
	of_idmap_clear(&mt->map);
	free(mt);
}

static int
meter_is(void *want, uint32_t id)
{
	return *(const uint32_t *)want == OF_METER_ALL ||
	    *(const uint32_t *)want == id;
}

int
of_meter_prog_names(void *meter_id, const uint8_t *prog, size_t len)
{
	return of_prog_each_meter(prog, len, meter_is, meter_id);
}

/* ---- multiparts (7.3.5.13-15) ---- */

/* ofp_meter_multipart_request: meter_id (OFPM_ALL: every meter), pad;
 * METER_FEATURES has no body. */
int
of_meter_mp_request_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    enum of_mp mp, uint32_t meter_id)
{
	uint8_t		body[METER_MP_REQ_BODY];
	struct wbuf	b;

	if (mp == OF_MP_METER_FEATURES)
		return of_mp_request_encode(w, version, xid, mp, NULL, 0);
	wbuf_init(&b, body, sizeof(body));
	wbuf_put_u32(&b, meter_id);
	wbuf_put_zero(&b, 4);
	return of_mp_request_encode(w, version, xid, mp, body, sizeof(body));
}

/* ofp_meter_stats and one ofp_meter_band_stats per band, all zero. */
static void
meter_stats_entry(struct wbuf *w, uint8_t version, const void *arg)
{
	const struct of_meter_info	*mi = arg;
	size_t				 bands = mi->n_bands;

	(void)version;
	wbuf_put_u32(w, mi->meter_id);
	wbuf_put_u16(w, (uint16_t)(METER_STATS_FIXED +
	    bands * METER_BAND_STATS_LEN));
	wbuf_put_zero(w, 6);
	wbuf_put_u32(w, mi->flow_count);
	wbuf_put_zero(w, 16);		/* packet_in_count, byte_in_count */
	wbuf_put_u32(w, mi->duration_sec);
	wbuf_put_u32(w, mi->duration_nsec);
	wbuf_put_zero(w, bands * METER_BAND_STATS_LEN);
}

/* ofp_meter_config: the bands as the METER_MOD gave them. */
static void
meter_config_entry(struct wbuf *w, uint8_t version, const void *arg)
{
	const struct of_meter_info	*mi = arg;

	(void)version;
	wbuf_put_u16(w, (uint16_t)(METER_CONFIG_FIXED + mi->bands_len));
	wbuf_put_u16(w, mi->flags);
	wbuf_put_u32(w, mi->meter_id);
	wbuf_put_bytes(w, mi->bands, mi->bands_len);
}

/* ofp_meter_features: both band types, every flag, no color. */
static void
meter_features_entry(struct wbuf *w, uint8_t version, const void *arg)
{
	const uint32_t	*max_meters = arg;

	(void)version;
	wbuf_put_u32(w, *max_meters);
	wbuf_put_u32(w, 1u << OF_MBT_DROP | 1u << OF_MBT_DSCP_REMARK);
	wbuf_put_u32(w, METER_FLAGS_ALL);
	wbuf_put_u8(w, OF_METER_MAX_BANDS);
	wbuf_put_u8(w, 0);		/* max_color */
	wbuf_put_zero(w, 2);
}

int
of_mp_reply_add_meter_stats(struct of_mp_reply *r,
    const struct of_meter_info *mi)
{
	return of_mp_reply_add_entry(r, OF_MP_METER, meter_stats_entry, mi);
}

int
of_mp_reply_add_meter_config(struct of_mp_reply *r,
    const struct of_meter_info *mi)
{
	return of_mp_reply_add_entry(r, OF_MP_METER_CONFIG,
	    meter_config_entry, mi);
}

int
of_mp_reply_add_meter_features(struct of_mp_reply *r, uint32_t max_meters)
{
	return of_mp_reply_add_entry(r, OF_MP_METER_FEATURES,
	    meter_features_entry, &max_meters);
}
