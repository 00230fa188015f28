/*
 * NXT_TLV_TABLE_MOD, NXT_TLV_TABLE_REQUEST and NXT_TLV_TABLE_REPLY
 * (nicira-ext.h), checked as Open vSwitch 3.1 checks them
 * (ofputil_decode_tlv_table_mod, tun_metadata_table_mod,
 * mf_vl_mff_map_mod_from_tun_metadata): a bad command, an option length
 * not a multiple of 4 or over 124, an index past 63, an index already
 * mapped, a class and type already mapped to another index, more than
 * 256 option bytes in all, and deleting a mapping a flow's match or
 * action uses are refused with their NXTTMFC_* codes; a refused message
 * changes nothing.  Malformed messages are counted in nx_refused.
 */
#include <stdlib.h>
#include <string.h>

#include "of_codec.h"
#include "of_experimenter.h"
#include "of_flowtable.h"
#include "of_match.h"
#include "of_nx_tlv.h"
#include "of_sim.h"

#define NXT_TLV_TABLE_REPLY	26
#define NXTTMC_ADD		0
#define NXTTMC_DELETE		1
#define NXTTMC_CLEAR		2
#define NX_TLV_MOD_HDR		8	/* command, pad[6] */
#define NX_TLV_MAP_LEN		8	/* struct nx_tlv_map */
#define NX_TLV_REPLY_HDR	16	/* max_option_space, max_fields, pad */
#define NX_CLASS_NX		0x0001

/* A decoded mapping (struct nx_tlv_map). */
struct nx_tlv_one {
	uint16_t	cls;
	uint8_t		type;
	uint8_t		len;
	uint16_t	idx;
};

static const struct nx_tlv_map	*nx_tlv_bound;

void
of_nx_tlv_bind(const struct nx_tlv_map *map)
{
	nx_tlv_bound = map;
}

int
of_nx_tlv_len(unsigned idx)
{
	if (nx_tlv_bound == NULL || idx >= NX_TLV_FIELDS ||
	    !nx_tlv_bound->e[idx].valid)
		return -1;
	return nx_tlv_bound->e[idx].len;
}

void
of_nx_tlv_free(struct nx_tlv_map *map)
{
	if (map != NULL && map == nx_tlv_bound)
		nx_tlv_bound = NULL;	/* no decode reads it after */
	free(map);
}

static void
tlv_refuse(const struct of_ctx *c, enum of_err err)
{
	(*c->sw->sim->c.nx_refused)++;
	of_refuse(c, err);
}

/* One nx_tlv_map, checked as decode_tlv_table_mappings() does. */
static int
tlv_one(struct rbuf *r, struct nx_tlv_one *m, enum of_err *err)
{
	rbuf_get_u16(r, &m->cls);
	rbuf_get_u8(r, &m->type);
	rbuf_get_u8(r, &m->len);
	rbuf_get_u16(r, &m->idx);
	rbuf_skip(r, 2);
	if (m->len % 4 != 0 || m->len > NX_TLV_OPT_MAX) {
		*err = OF_ERR_NX_TLV_BAD_OPT_LEN;
		return -1;
	}
	if (m->idx >= NX_TLV_FIELDS) {
		*err = OF_ERR_NX_TLV_BAD_FIELD_IDX;
		return -1;
	}
	return 0;
}

/* Add one mapping to map (tun_metadata_add_entry's checks). */
static int
tlv_add(struct nx_tlv_map *map, const struct nx_tlv_one *m, enum of_err *err)
{
	unsigned	i;

	*err = OF_ERR_NONE;
	if (map->e[m->idx].valid)
		*err = OF_ERR_NX_TLV_ALREADY_MAPPED;
	for (i = 0; *err == OF_ERR_NONE && i < NX_TLV_FIELDS; i++)
		if (map->e[i].valid && map->e[i].cls == m->cls &&
		    map->e[i].type == m->type)
			*err = OF_ERR_NX_TLV_DUP_ENTRY;
	if (*err == OF_ERR_NONE && map->space + m->len > NX_TLV_SPACE)
		*err = OF_ERR_NX_TLV_TABLE_FULL;
	if (*err != OF_ERR_NONE)
		return -1;
	map->e[m->idx].cls = m->cls;
	map->e[m->idx].type = m->type;
	map->e[m->idx].len = m->len;
	map->e[m->idx].valid = 1;
	map->space += m->len;
	return 0;
}

static void
tlv_del(struct nx_tlv_map *map, unsigned idx)
{
	if (!map->e[idx].valid)
		return;
	map->space -= map->e[idx].len;
	memset(&map->e[idx], 0, sizeof(map->e[idx]));
}

/* Does any flow's match or action name tun_metadata<i> for a bit set in
 * deleting?  (Open vSwitch counts both: mf_vl_mff_ref.) */
struct tlv_use {
	uint64_t	deleting;	/* bit i: tun_metadata<i> goes */
	int		v13;		/* programs are 1.3 instructions */
	int		found;
};

/* An NXM/OXM header at p naming a tun_metadata being deleted. */
static int
tlv_hdr_hits(const struct tlv_use *u, const uint8_t *p)
{
	unsigned	field = p[2] >> 1;

	return (p[0] << 8 | p[1]) == NX_CLASS_NX &&
	    field >= NX_TLV_TUN_FIELD0 &&
	    field < NX_TLV_TUN_FIELD0 + NX_TLV_FIELDS &&
	    (u->deleting >> (field - NX_TLV_TUN_FIELD0) & 1);
}

/* Where the field headers of an action sit: SET_FIELD's OXM, and the
 * Nicira actions that name a field (nicira-ext.h layouts); 0 ends. */
static void
tlv_act_refs(const uint8_t *a, uint16_t len, size_t at[3])
{
	uint16_t	type = a[0] << 8 | a[1], sub;

	at[0] = at[1] = at[2] = 0;
	if (type == 25) {			/* OFPAT_SET_FIELD */
		at[0] = 4;
		return;
	}
	if (type != 0xffff || len < 16 ||
	    (a[4] << 24 | a[5] << 16 | a[6] << 8 | a[7]) != OF_EXP_NICIRA)
		return;
	sub = a[8] << 8 | a[9];
	switch (sub) {
	case 6:  at[0] = 16; at[1] = 20; break;	/* REG_MOVE src, dst */
	case 7:  at[0] = 12; break;		/* REG_LOAD dst */
	case 33: at[0] = 10; break;		/* REG_LOAD2 */
	case 15: at[0] = 12; break;		/* OUTPUT_REG src */
	case 10: at[0] = 28; break;		/* MULTIPATH dst */
	case 13: at[0] = 24; break;		/* BUNDLE_LOAD dst */
	case 35: at[0] = 12; break;		/* CT zone_src */
	}
}

/* A run of actions (kept as sent: each at least 8, lengths checked). */
static int
tlv_acts_use(const struct tlv_use *u, const uint8_t *p, size_t n)
{
	size_t		off = 0, at[3], i;
	uint16_t	len;

	while (n - off >= 8) {
		len = p[off + 2] << 8 | p[off + 3];
		if (len < 8 || len > n - off)
			return 0;
		tlv_act_refs(p + off, len, at);
		for (i = 0; i < 3 && at[i] != 0; i++)
			if (at[i] + 4 <= len && tlv_hdr_hits(u, p + off + at[i]))
				return 1;
		off += len;
	}
	return 0;
}

/* 1.3 instructions: the actions of APPLY_ACTIONS and WRITE_ACTIONS. */
static int
tlv_prog_uses(const struct tlv_use *u, const uint8_t *p, size_t n)
{
	size_t		off = 0;
	uint16_t	type, len;

	if (!u->v13)
		return tlv_acts_use(u, p, n);
	while (n - off >= 8) {
		type = p[off] << 8 | p[off + 1];
		len = p[off + 2] << 8 | p[off + 3];
		if (len < 8 || len > n - off)
			return 0;
		if ((type == 3 || type == 4) &&
		    tlv_acts_use(u, p + off + 8, len - 8))
			return 1;
		off += len;
	}
	return 0;
}

static int
tlv_flow_uses(void *arg, const struct of_flow_info *fi)
{
	struct tlv_use	*u = arg;
	const uint8_t	*p = fi->match->oxm;
	size_t		 off = 0, len = fi->match->len;

	while (off + 4 <= len) {
		if (tlv_hdr_hits(u, p + off)) {
			u->found = 1;
			return 1;
		}
		off += 4 + p[off + 3];
	}
	if (tlv_prog_uses(u, fi->prog, fi->prog_len)) {
		u->found = 1;
		return 1;
	}
	return 0;
}

static int
tlv_in_use(struct of_flowtable *ft, uint64_t deleting)
{
	struct of_flow_filter	f;
	struct tlv_use		u = { deleting, 0, 0 };

	if (ft == NULL || deleting == 0)
		return 0;
	u.v13 = of_flowtable_shape(ft).version != OF_VERSION_10;
	memset(&f, 0, sizeof(f));
	f.table_id = OF_TABLE_ALL;
	f.out_port = OF_PORT_ANY;
	f.out_group = OF_GROUP_ANY;
	of_match_init(&f.match);
	of_flowtable_walk(ft, &f, clock_ns(), tlv_flow_uses, &u);
	return u.found;
}

/* The mappings of r applied to a copy of map, by command. */
static int
tlv_apply(struct of_flowtable *ft, struct nx_tlv_map *map, uint16_t cmd,
    struct rbuf *r, enum of_err *err)
{
	struct nx_tlv_one	m;
	uint64_t		deleting = 0;
	unsigned		i;

	if (cmd == NXTTMC_CLEAR)
		for (i = 0; i < NX_TLV_FIELDS; i++)
			if (map->e[i].valid)
				deleting |= 1ull << i;
	while (rbuf_left(r) > 0) {
		if (tlv_one(r, &m, err) == -1)
			return -1;
		if (cmd == NXTTMC_ADD && tlv_add(map, &m, err) == -1)
			return -1;
		if (cmd == NXTTMC_DELETE && map->e[m.idx].valid)
			deleting |= 1ull << m.idx;
	}
	if (tlv_in_use(ft, deleting)) {
		*err = OF_ERR_NX_TLV_INVALID_DEL;
		return -1;
	}
	for (i = 0; i < NX_TLV_FIELDS; i++)
		if (deleting >> i & 1)
			tlv_del(map, i);
	return 0;
}

int
of_nx_tlv_table_mod(struct nx_tlv_map *map, struct of_flowtable *ft,
    struct rbuf *r, enum of_err *err)
{
	struct nx_tlv_map	next = *map;
	uint16_t		cmd;

	if (rbuf_left(r) < NX_TLV_MOD_HDR ||
	    (rbuf_left(r) - NX_TLV_MOD_HDR) % NX_TLV_MAP_LEN != 0) {
		*err = OF_ERR_BAD_LEN;
		return -1;
	}
	rbuf_get_u16(r, &cmd);
	rbuf_skip(r, NX_TLV_MOD_HDR - 2);
	if (cmd > NXTTMC_CLEAR) {
		*err = OF_ERR_NX_TLV_BAD_COMMAND;
		return -1;
	}
	if (tlv_apply(ft, &next, cmd, r, err) == -1)
		return -1;
	*map = next;
	return 0;
}

void
of_nx_tlv_mod(const struct of_ctx *c, struct rbuf *r)
{
	static const struct nx_tlv_map	 none;
	struct of_switch		*own = c->sw->owner;
	struct nx_tlv_map		 next;
	enum of_err			 err = OF_ERR_NONE;

	if (of_slave_refuse(c))
		return;
	next = own->tlv_map != NULL ? *own->tlv_map : none;
	if (of_nx_tlv_table_mod(&next, own->ft, r, &err) == -1) {
		tlv_refuse(c, err);
		return;
	}
	if (own->tlv_map == NULL && next.space == 0 &&
	    memcmp(&next, &none, sizeof(next)) == 0)
		return;		/* nothing mapped: nothing to keep */
	if (own->tlv_map == NULL &&
	    (own->tlv_map = malloc(sizeof(*own->tlv_map))) == NULL) {
		tlv_refuse(c, OF_ERR_NX_TLV_TABLE_FULL);
		return;
	}
	*own->tlv_map = next;
	of_nx_tlv_bind(own->tlv_map);
}

/* nx_tlv_table_reply: Open vSwitch's limits, then the mappings. */
int
of_nx_tlv_reply_encode(struct wbuf *w, uint8_t version, uint32_t xid,
    const struct nx_tlv_map *map)
{
	size_t		start = of_msg_begin(w, version, OF_EXPERIMENTER, xid);
	unsigned	i;

	wbuf_put_u32(w, OF_EXP_NICIRA);
	wbuf_put_u32(w, NXT_TLV_TABLE_REPLY);
	wbuf_put_u32(w, NX_TLV_SPACE);
	wbuf_put_u16(w, NX_TLV_FIELDS);
	wbuf_put_zero(w, NX_TLV_REPLY_HDR - 6);
	for (i = 0; map != NULL && i < NX_TLV_FIELDS; i++) {
		if (!map->e[i].valid)
			continue;
		wbuf_put_u16(w, map->e[i].cls);
		wbuf_put_u8(w, map->e[i].type);
		wbuf_put_u8(w, map->e[i].len);
		wbuf_put_u16(w, (uint16_t)i);
		wbuf_put_zero(w, 2);
	}
	return of_msg_end(w, start);
}

void
of_nx_tlv_request(const struct of_ctx *c, struct rbuf *r)
{
	struct wbuf	*w;

	if (rbuf_left(r) != 0) {
		tlv_refuse(c, OF_ERR_BAD_LEN);
		return;
	}
	w = of_scratch();
	of_nx_tlv_reply_encode(w, c->sw->version, c->h->xid,
	    c->sw->owner->tlv_map);
	of_switch_send(c->sw, w);
}
