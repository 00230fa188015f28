/*
 * Groups and meters on the wire, the controller's side: the ofp_buckets
 * and ofp_meter_bands of a spec, and the GROUP_DESC, GROUP, METER_CONFIG
 * and METER statistics entries a switch answers (OpenFlow 1.3.5
 * sections 7.3.4.2, 7.3.4.4, 7.3.5.9-10, 7.3.5.13-14), all pure.
 */
#include <string.h>

#include "of_actions.h"
#include "of_gmcfg.h"
#include "of_meter.h"
#include "of_wire_actions.h"

#define GM_BUCKET_HDR	16	/* ofp_bucket before its actions */
#define GM_DESC_HDR	8	/* ofp_group_desc before its buckets */
#define GM_STATS_HDR	40	/* ofp_group_stats before its counters */
#define GM_MCONF_HDR	8	/* ofp_meter_config before its bands */
#define GM_MSTATS_HDR	40	/* ofp_meter_stats before its band stats */

/* ---- groups ---- */

static void
gm_action_wire(struct wbuf *w, const struct gm_action *a)
{
	if (a->kind == GM_ACT_GROUP) {
		wbuf_put_u16(w, OF13_AT_GROUP);
		wbuf_put_u16(w, 8);
		wbuf_put_u32(w, a->arg);
		return;
	}
	wbuf_put_u16(w, OF13_AT_OUTPUT);
	wbuf_put_u16(w, 16);
	wbuf_put_u32(w, a->arg);
	wbuf_put_u16(w, a->max_len);
	wbuf_put_zero(w, 6);
}

size_t
gm_buckets_wire(const struct gm_spec *s, uint8_t *buf, size_t cap)
{
	struct wbuf	w;
	uint32_t	i, j, len;

	wbuf_init(&w, buf, cap);
	for (i = 0; i < s->nb; i++) {
		const struct gm_bucket	*b = &s->b[i];

		for (len = GM_BUCKET_HDR, j = 0; j < b->nact; j++)
			len += b->act[j].kind == GM_ACT_GROUP ? 8 : 16;
		wbuf_put_u16(&w, (uint16_t)len);
		wbuf_put_u16(&w, b->weight);
		wbuf_put_u32(&w, b->watch_port);
		wbuf_put_u32(&w, b->watch_group);
		wbuf_put_zero(&w, 4);
		for (j = 0; j < b->nact; j++)
			gm_action_wire(&w, &b->act[j]);
	}
	return w.err ? 0 : w.len;
}

/*
 * The replies' entries carry their own length (len, of which read bytes
 * are behind r): at least hdr, the rest whole units (a 16-byte counter
 * pair in the stats entries, bytes elsewhere), all of it inside r.
 */
static int
gm_entry_len_ok(const struct rbuf *r, uint16_t len, uint16_t hdr,
    size_t read, size_t unit)
{
	return len >= hdr && (len - hdr) % unit == 0 &&
	    (size_t)len - read <= rbuf_left(r);
}

/* The length that leads the next entry (GROUP_DESC, GROUP stats,
 * METER_CONFIG), at least hdr; 0 at the end of the reply, -1 when bad. */
static int
gm_entry_len(struct rbuf *r, uint16_t hdr, size_t unit)
{
	uint16_t	len;

	if (rbuf_left(r) == 0)
		return 0;
	if (rbuf_get_u16(r, &len) == -1 ||
	    !gm_entry_len_ok(r, len, hdr, 2, unit))
		return -1;
	return len;
}

/* The rest of a GROUP_DESC or METER_CONFIG entry: buckets or bands. */
static int
gm_desc_rest(struct rbuf *r, struct gm_desc *d, size_t rest)
{
	d->blob = rbuf_ptr(r);
	d->len = rest;
	rbuf_skip(r, rest);
	return 1;
}

/* The rest of a GROUP or METER stats entry: the counts, the duration,
 * then n 16-byte packet and byte counts, one a bucket or band. */
static int
gm_stats_rest(struct rbuf *r, struct gm_gstats *s, size_t n)
{
	rbuf_get_u64(r, &s->packets);
	rbuf_get_u64(r, &s->bytes);
	rbuf_get_u32(r, &s->sec);
	rbuf_get_u32(r, &s->nsec);
	s->counters = rbuf_ptr(r);
	s->ncounters = n;
	rbuf_skip(r, n * 16);
	return 1;
}

int
gm_desc_next(struct rbuf *r, struct gm_desc *d)
{
	int	len = gm_entry_len(r, GM_DESC_HDR, 1);
	uint8_t	type, pad;

	if (len <= 0)
		return len;
	rbuf_get_u8(r, &type);
	rbuf_get_u8(r, &pad);
	rbuf_get_u32(r, &d->id);
	d->type = type;
	return gm_desc_rest(r, d, len - GM_DESC_HDR);
}

int
gm_gstats_next(struct rbuf *r, struct gm_gstats *s)
{
	int	len = gm_entry_len(r, GM_STATS_HDR, 16);

	if (len <= 0)
		return len;
	rbuf_skip(r, 2);
	rbuf_get_u32(r, &s->id);
	rbuf_get_u32(r, &s->refs);
	rbuf_skip(r, 4);
	return gm_stats_rest(r, s, (len - GM_STATS_HDR) / 16);
}


/* The OUTPUT and GROUP actions of a reported bucket (the only ones the
 * controller writes); others are skipped. */
static void
gm_wire_actions(struct rbuf *r, struct gm_bucket *b)
{
	uint16_t	type, len;
	uint32_t	arg;

	while (b->nact < GM_MAX_ACTIONS && rbuf_get_u16(r, &type) == 0 &&
	    rbuf_get_u16(r, &len) == 0 && len >= 8 &&
	    rbuf_get_u32(r, &arg) == 0) {
		struct gm_action	*a = &b->act[b->nact];

		memset(a, 0, sizeof(*a));
		a->arg = arg;
		a->kind = type == OF13_AT_GROUP ? GM_ACT_GROUP : GM_ACT_OUTPUT;
		if (type == OF13_AT_OUTPUT && len >= 16)
			rbuf_get_u16(r, &a->max_len);
		if (type == OF13_AT_OUTPUT || type == OF13_AT_GROUP)
			b->nact++;
		if (rbuf_skip(r, len - 8 - (type == OF13_AT_OUTPUT &&
		    len >= 16 ? 2 : 0)) == -1)
			return;
	}
}

/* The reported ofp_buckets, numbered from 0 as openflowplugin numbers
 * them (OpenFlow 1.3 buckets have no id). */
uint32_t
gm_wire_buckets(const uint8_t *p, size_t plen, struct gm_bucket *out)
{
	struct rbuf	r, a;
	uint16_t	len;
	uint32_t	n = 0;

	rbuf_init(&r, p, plen);
	while (n < GM_MAX_BUCKETS && rbuf_get_u16(&r, &len) == 0 &&
	    len >= GM_BUCKET_HDR && (size_t)len - 2 <= rbuf_left(&r)) {
		struct gm_bucket	*b = &out[n];

		memset(b, 0, sizeof(*b));
		b->id = n++;
		rbuf_get_u16(&r, &b->weight);
		rbuf_get_u32(&r, &b->watch_port);
		rbuf_get_u32(&r, &b->watch_group);
		rbuf_skip(&r, 4);
		if (rbuf_sub(&r, &a, len - GM_BUCKET_HDR) == -1)
			break;
		gm_wire_actions(&a, b);
	}
	return n;
}


/* ---- meters ---- */

size_t
gm_bands_wire(const struct gm_mspec *s, uint8_t *buf, size_t cap)
{
	struct of_meter_band	b;
	struct wbuf		w;
	uint32_t		i;

	wbuf_init(&w, buf, cap);
	for (i = 0; i < s->nb; i++) {
		memset(&b, 0, sizeof(b));
		b.type = s->b[i].type;
		b.rate = s->b[i].rate;
		b.burst_size = s->b[i].burst;
		b.prec_level = s->b[i].prec;
		of_meter_band_encode(&w, &b);
	}
	return w.err ? 0 : w.len;
}

/* ofp_meter_config (7.3.5.14): length, flags, meter_id, bands. */
int
gm_mconfig_next(struct rbuf *r, struct gm_desc *d)
{
	int	len = gm_entry_len(r, GM_MCONF_HDR, 1);

	if (len <= 0)
		return len;
	rbuf_get_u16(r, &d->type);
	rbuf_get_u32(r, &d->id);
	return gm_desc_rest(r, d, len - GM_MCONF_HDR);
}

/* ofp_meter_stats (7.3.5.13): meter_id, len, pad, flow_count, the
 * input counts, duration, then 16 bytes a band. */
int
gm_mstats_next(struct rbuf *r, struct gm_gstats *s)
{
	uint16_t	len;

	if (rbuf_left(r) == 0)
		return 0;
	if (rbuf_get_u32(r, &s->id) == -1 || rbuf_get_u16(r, &len) == -1 ||
	    !gm_entry_len_ok(r, len, GM_MSTATS_HDR, 6, 16))
		return -1;
	rbuf_skip(r, 6);
	rbuf_get_u32(r, &s->refs);
	return gm_stats_rest(r, s, (len - GM_MSTATS_HDR) / 16);
}

/* The bands of a METER_CONFIG entry, numbered from 0. */
uint32_t
gm_wire_bands(const uint8_t *p, size_t plen, struct gm_band *out)
{
	struct of_meter_band	b;
	struct rbuf		r;
	enum of_err		err;
	uint32_t		n = 0;

	rbuf_init(&r, p, plen);
	while (n < GM_MAX_BANDS && of_meter_band_decode(&r, &b, &err) == 0) {
		memset(&out[n], 0, sizeof(out[n]));
		out[n].id = n;
		out[n].type = b.type;
		out[n].rate = b.rate;
		out[n].burst = b.burst_size;
		out[n].prec = b.prec_level;
		n++;
	}
	return n;
}
