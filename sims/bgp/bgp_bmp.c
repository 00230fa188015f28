/*
 * BMP messages (RFC 7854): encoding into a wbuf, and a decoder that
 * reads only within the message it is given (a malformed one is refused
 * with the reason, never read past).
 */
#include <stdio.h>
#include <string.h>

#include "bgp_bmp.h"

long
bmp_header_length(const uint8_t *b, size_t max)
{
	uint32_t	len;

	if (b[0] != BMP_VERSION)
		return -1;
	len = (uint32_t)b[1] << 24 | (uint32_t)b[2] << 16 |
	    (uint32_t)b[3] << 8 | b[4];
	if (len < BMP_HDR_LEN || len > max)
		return -1;
	return (long)len;
}

size_t
bmp_begin(struct wbuf *w, uint8_t type)
{
	size_t	start = w->len;

	wbuf_put_u8(w, BMP_VERSION);
	wbuf_put_u32(w, 0);
	wbuf_put_u8(w, type);
	return start;
}

int
bmp_end(struct wbuf *w, size_t start)
{
	uint32_t	len = (uint32_t)(w->len - start);

	if (w->err)
		return -1;
	w->data[start + 1] = (uint8_t)(len >> 24);
	w->data[start + 2] = (uint8_t)(len >> 16);
	w->data[start + 3] = (uint8_t)(len >> 8);
	w->data[start + 4] = (uint8_t)len;
	return 0;
}

void
bmp_peer_hdr_put(struct wbuf *w, const struct bmp_peer_hdr *h)
{
	wbuf_put_u8(w, h->type);
	wbuf_put_u8(w, h->flags);
	wbuf_put_u64(w, h->rd);
	wbuf_put_bytes(w, h->addr, 16);
	wbuf_put_u32(w, h->as);
	wbuf_put_u32(w, h->bgp_id);
	wbuf_put_u32(w, h->ts_sec);
	wbuf_put_u32(w, h->ts_usec);
}

/* An Information TLV (sections 4.4, 4.5). */
static void
bmp_tlv_put(struct wbuf *w, uint16_t type, const void *v, size_t len)
{
	wbuf_put_u16(w, type);
	wbuf_put_u16(w, (uint16_t)len);
	wbuf_put_bytes(w, v, len);
}

int
bmp_initiation(struct wbuf *w, const char *name, const char *descr)
{
	size_t	start = bmp_begin(w, BMP_INITIATION);

	/* Section 4.3: sysDescr and sysName MUST be sent. */
	bmp_tlv_put(w, BMP_INFO_SYSDESCR, descr, strlen(descr));
	bmp_tlv_put(w, BMP_INFO_SYSNAME, name, strlen(name));
	return bmp_end(w, start);
}

int
bmp_termination(struct wbuf *w, uint16_t reason)
{
	size_t		start = bmp_begin(w, BMP_TERMINATION);
	uint8_t		r[2] = { (uint8_t)(reason >> 8), (uint8_t)reason };

	bmp_tlv_put(w, BMP_TERM_REASON, r, 2);
	return bmp_end(w, start);
}

int
bmp_peer_up(struct wbuf *w, const struct bmp_peer_hdr *h,
    const uint8_t local[16], uint16_t lport, uint16_t rport,
    const uint8_t *sent, size_t sent_len, const uint8_t *recv,
    size_t recv_len)
{
	size_t	start = bmp_begin(w, BMP_PEER_UP);

	bmp_peer_hdr_put(w, h);
	wbuf_put_bytes(w, local, 16);
	wbuf_put_u16(w, lport);
	wbuf_put_u16(w, rport);
	wbuf_put_bytes(w, sent, sent_len);
	wbuf_put_bytes(w, recv, recv_len);
	return bmp_end(w, start);
}

int
bmp_peer_down(struct wbuf *w, const struct bmp_peer_hdr *h, uint8_t reason,
    const void *pdu, size_t len)
{
	size_t	start = bmp_begin(w, BMP_PEER_DOWN);

	bmp_peer_hdr_put(w, h);
	wbuf_put_u8(w, reason);
	wbuf_put_bytes(w, pdu, len);
	return bmp_end(w, start);
}

/* Types 7 and 8 (and the per-AFI/SAFI 9, 10) are 64-bit gauges,
 * the others 32-bit counters (section 4.8). */
static size_t
bmp_stat_size(uint16_t type)
{
	return type == 7 || type == 8 ? 8 : 4;
}

int
bmp_stats(struct wbuf *w, const struct bmp_peer_hdr *h,
    const uint16_t *types, const uint64_t *values, unsigned n)
{
	size_t		start = bmp_begin(w, BMP_STATISTICS);
	unsigned	i;

	bmp_peer_hdr_put(w, h);
	wbuf_put_u32(w, n);
	for (i = 0; i < n; i++) {
		wbuf_put_u16(w, types[i]);
		wbuf_put_u16(w, (uint16_t)bmp_stat_size(types[i]));
		if (bmp_stat_size(types[i]) == 8)
			wbuf_put_u64(w, values[i]);
		else
			wbuf_put_u32(w, (uint32_t)values[i]);
	}
	return bmp_end(w, start);
}

/* ---- decoding ---- */

static int
bmp_bad(struct bmp_msg *m, const char *why)
{
	m->why = why;
	return -1;
}

static int
bmp_peer_hdr_get(struct rbuf *r, struct bmp_peer_hdr *h)
{
	return rbuf_get_u8(r, &h->type) == -1 ||
	    rbuf_get_u8(r, &h->flags) == -1 ||
	    rbuf_get_u64(r, &h->rd) == -1 ||
	    rbuf_get_bytes(r, h->addr, 16) == -1 ||
	    rbuf_get_u32(r, &h->as) == -1 ||
	    rbuf_get_u32(r, &h->bgp_id) == -1 ||
	    rbuf_get_u32(r, &h->ts_sec) == -1 ||
	    rbuf_get_u32(r, &h->ts_usec) == -1 ? -1 : 0;
}

/* A whole BGP message at the head of r (RFC 4271 section 4.1: marker
 * and length); its span, r moved past it. */
static int
bmp_bgp_pdu(struct rbuf *r, const uint8_t **pdu, size_t *len)
{
	const uint8_t	*p = rbuf_ptr(r);
	size_t		 n;
	int		 i;

	if (rbuf_left(r) < 19)
		return -1;
	for (i = 0; i < 16; i++)
		if (p[i] != 0xff)
			return -1;
	n = (size_t)p[16] << 8 | p[17];
	if (n < 19 || n > rbuf_left(r))
		return -1;
	*pdu = p;
	*len = n;
	return rbuf_skip(r, n);
}

/* Copy a TLV's string value, cut to fit and ended. */
static void
bmp_tlv_str(char *out, size_t cap, const uint8_t *v, uint16_t len)
{
	size_t	n = len < cap - 1 ? len : cap - 1;

	memcpy(out, v, n);
	out[n] = '\0';
}

/* Initiation's and Termination's TLVs (sections 4.3, 4.5). */
static int
bmp_tlvs(struct rbuf *r, struct bmp_msg *m)
{
	uint16_t	type, len;
	const uint8_t	*v;

	while (rbuf_left(r) > 0) {
		if (rbuf_get_u16(r, &type) == -1 ||
		    rbuf_get_u16(r, &len) == -1 || len > rbuf_left(r))
			return bmp_bad(m, "an information TLV overruns the "
			    "message");
		v = rbuf_ptr(r);
		rbuf_skip(r, len);
		if (m->type == BMP_TERMINATION) {
			if (type == BMP_TERM_REASON && len == 2)
				m->term_reason = (uint16_t)(v[0] << 8 | v[1]);
		} else if (type == BMP_INFO_SYSNAME && m->sys_name[0] == 0)
			bmp_tlv_str(m->sys_name, sizeof(m->sys_name), v, len);
		else if (type == BMP_INFO_SYSDESCR && m->sys_descr[0] == 0)
			bmp_tlv_str(m->sys_descr, sizeof(m->sys_descr), v,
			    len);
		else if (type == BMP_INFO_STRING && m->info[0] == 0)
			bmp_tlv_str(m->info, sizeof(m->info), v, len);
	}
	return 0;
}

static int
bmp_stats_get(struct rbuf *r, struct bmp_msg *m)
{
	uint16_t	type, len;
	uint32_t	n, i, v32;
	uint64_t	v64;

	if (rbuf_get_u32(r, &n) == -1)
		return bmp_bad(m, "statistics count missing");
	for (i = 0; i < n; i++) {
		if (rbuf_get_u16(r, &type) == -1 ||
		    rbuf_get_u16(r, &len) == -1 || len > rbuf_left(r))
			return bmp_bad(m, "a statistic overruns the message");
		if (type < BMP_STAT_MAX) {
			if (len != bmp_stat_size(type))
				return bmp_bad(m, "a statistic of the wrong "
				    "size");
			if (len == 8)
				rbuf_get_u64(r, &v64);
			else {
				rbuf_get_u32(r, &v32);
				v64 = v32;
			}
			m->stat[type] = v64;
			m->stat_seen |= 1u << type;
		} else
			rbuf_skip(r, len);	/* later types: skipped */
	}
	m->stat_count = n;
	if (rbuf_left(r) != 0)
		return bmp_bad(m, "bytes after the statistics");
	return 0;
}

static int
bmp_peer_up_get(struct rbuf *r, struct bmp_msg *m)
{
	if (rbuf_get_bytes(r, m->local, 16) == -1 ||
	    rbuf_get_u16(r, &m->local_port) == -1 ||
	    rbuf_get_u16(r, &m->remote_port) == -1)
		return bmp_bad(m, "peer up too short");
	if (bmp_bgp_pdu(r, &m->sent_open, &m->sent_open_len) == -1 ||
	    bmp_bgp_pdu(r, &m->recv_open, &m->recv_open_len) == -1)
		return bmp_bad(m, "peer up without its two OPEN messages");
	if (m->sent_open[18] != 1 || m->recv_open[18] != 1)
		return bmp_bad(m, "peer up carries a message not an OPEN");
	/* What follows is Information TLVs (section 4.10): skipped. */
	return 0;
}

static int
bmp_peer_down_get(struct rbuf *r, struct bmp_msg *m)
{
	if (rbuf_get_u8(r, &m->down_reason) == -1)
		return bmp_bad(m, "peer down without a reason");
	m->pdu = rbuf_ptr(r);
	m->pdu_len = rbuf_left(r);
	switch (m->down_reason) {
	case BMP_DOWN_LOCAL_NOTIFY:
	case BMP_DOWN_REMOTE_NOTIFY:
		if (bmp_bgp_pdu(r, &m->pdu, &m->pdu_len) == -1 ||
		    m->pdu[18] != 3)
			return bmp_bad(m, "peer down without its "
			    "NOTIFICATION");
		return 0;
	case BMP_DOWN_LOCAL_FSM:
		return m->pdu_len == 2 ? 0 :
		    bmp_bad(m, "peer down reason 2 without an FSM event");
	case BMP_DOWN_REMOTE_NODATA:
	case BMP_DOWN_DECONFIGURED:
		return 0;
	default:
		return bmp_bad(m, "peer down with an unknown reason");
	}
}

/* The body after the per-peer header of the types that have one. */
static int
bmp_peer_body(struct rbuf *r, struct bmp_msg *m)
{
	switch (m->type) {
	case BMP_ROUTE_MONITORING:
		if (bmp_bgp_pdu(r, &m->pdu, &m->pdu_len) == -1 ||
		    m->pdu[18] != 2 || rbuf_left(r) != 0)
			return bmp_bad(m, "route monitoring without exactly "
			    "one UPDATE");
		return 0;
	case BMP_STATISTICS:
		return bmp_stats_get(r, m);
	case BMP_PEER_DOWN:
		return bmp_peer_down_get(r, m);
	case BMP_PEER_UP:
		return bmp_peer_up_get(r, m);
	default:		/* Route Mirroring: not kept */
		return 0;
	}
}

int
bmp_decode(const uint8_t *b, size_t len, struct bmp_msg *m)
{
	struct rbuf	r;
	long		mlen;

	memset(m, 0, sizeof(*m));
	m->term_reason = 0xffff;
	if (len < BMP_HDR_LEN)
		return bmp_bad(m, "shorter than the common header");
	mlen = bmp_header_length(b, len);
	if (mlen == -1 || (size_t)mlen != len)
		return bmp_bad(m, "bad version or length");
	m->type = b[5];
	if (m->type >= BMP_TYPE_MAX)
		return bmp_bad(m, "unknown message type");
	rbuf_init(&r, b + BMP_HDR_LEN, len - BMP_HDR_LEN);
	if (m->type == BMP_INITIATION || m->type == BMP_TERMINATION)
		return bmp_tlvs(&r, m);
	if (bmp_peer_hdr_get(&r, &m->peer) == -1)
		return bmp_bad(m, "per-peer header cut short");
	return bmp_peer_body(&r, m);
}
