/*
 * A flow's meter as the session reading the flow names it.  1.3 and 1.4
 * name it with the METER instruction, 1.5 with the METER action (1.5.1
 * sections 7.2.4-5, the instruction deprecated); a switch keeps its
 * flows across 1.3, 1.4 and 1.5 sessions, so a flow set in one version
 * and read in another is written in the reader's form, as Open vSwitch
 * does (encode_METER): 1.5 gets the action first in APPLY_ACTIONS, 1.3
 * and 1.4 the instruction first, for the first meter the flow names.
 * A flow read in the version that set it goes out as it came in.
 */
#include "buf.h"
#include "of_actions.h"
#include "of_wire_actions.h"

#define METER_ACT_LEN	8	/* ofp_action_meter: type, len, meter_id */

/* The next instruction of r: type, whole length and body (after the
 * header); 0 at the end or a malformed rest (a stored program is
 * valid). */
static int
inst_next(struct rbuf *r, uint16_t *type, uint16_t *len, struct rbuf *body)
{
	if (rbuf_left(r) < OF_INST_MIN_LEN)
		return 0;
	rbuf_get_u16(r, type);
	rbuf_get_u16(r, len);
	return *len >= OF_INST_MIN_LEN &&
	    rbuf_sub(r, body, *len - OF_INST_HDR_LEN) == 0;
}

static int
is_action_list(uint16_t type)
{
	return type == OF13_IT_APPLY_ACTIONS || type == OF13_IT_WRITE_ACTIONS;
}

static void
put_meter_action(struct wbuf *w, uint32_t id)
{
	wbuf_put_u16(w, OF15_AT_METER);
	wbuf_put_u16(w, METER_ACT_LEN);
	wbuf_put_u32(w, id);
}

/* 1.3/1.4 program to 1.5: the METER instruction becomes the first action
 * of APPLY_ACTIONS (one made in its place when there is none). */
static void
put_for15(struct wbuf *w, const uint8_t *p, size_t len, uint32_t id)
{
	struct rbuf	r, body;
	uint16_t	type, tlen;
	int		apply = 0;

	rbuf_init(&r, p, len);
	while (inst_next(&r, &type, &tlen, &body))
		apply |= type == OF13_IT_APPLY_ACTIONS;
	rbuf_init(&r, p, len);
	while (inst_next(&r, &type, &tlen, &body)) {
		if (type == OF13_IT_METER && apply)
			continue;
		if (type == OF13_IT_METER || type == OF13_IT_APPLY_ACTIONS) {
			wbuf_put_u16(w, OF13_IT_APPLY_ACTIONS);
			wbuf_put_u16(w, type == OF13_IT_METER ? OF_INST_MIN_LEN +
			    METER_ACT_LEN : tlen + METER_ACT_LEN);
			wbuf_put_zero(w, OF_INST_ACTIONS_PAD);
			put_meter_action(w, id);
			if (type == OF13_IT_METER)
				continue;
			rbuf_skip(&body, OF_INST_ACTIONS_PAD);
		} else {
			wbuf_put_u16(w, type);
			wbuf_put_u16(w, tlen);
		}
		wbuf_put_bytes(w, rbuf_ptr(&body), rbuf_left(&body));
	}
}

/* An action list less its METER actions: its length, or (w) the list. */
static size_t
actions_sans_meter(struct wbuf *w, struct rbuf *body)
{
	struct rbuf	r = *body, a;
	uint16_t	type, alen;
	size_t		n = 0;

	while (inst_next(&r, &type, &alen, &a)) {
		if (type == OF15_AT_METER)
			continue;
		n += alen;
		if (w == NULL)
			continue;
		wbuf_put_u16(w, type);
		wbuf_put_u16(w, alen);
		wbuf_put_bytes(w, rbuf_ptr(&a), rbuf_left(&a));
	}
	return n;
}

/* 1.5 program to 1.3/1.4: a METER instruction first, the METER actions
 * left out of the action lists. */
static void
put_for13(struct wbuf *w, const uint8_t *p, size_t len, uint32_t id)
{
	struct rbuf	r, body;
	uint16_t	type, tlen;

	wbuf_put_u16(w, OF13_IT_METER);
	wbuf_put_u16(w, OF13_INST_METER_LEN);
	wbuf_put_u32(w, id);
	rbuf_init(&r, p, len);
	while (inst_next(&r, &type, &tlen, &body)) {
		wbuf_put_u16(w, type);
		if (!is_action_list(type)) {
			wbuf_put_u16(w, tlen);
			wbuf_put_bytes(w, rbuf_ptr(&body), rbuf_left(&body));
			continue;
		}
		rbuf_skip(&body, OF_INST_ACTIONS_PAD);
		wbuf_put_u16(w, (uint16_t)(OF_INST_MIN_LEN +
		    actions_sans_meter(NULL, &body)));
		wbuf_put_zero(w, OF_INST_ACTIONS_PAD);
		(void)actions_sans_meter(w, &body);
	}
}

/* Whether p has a METER instruction (1.3 and 1.4 flows). */
static int
has_meter_inst(const uint8_t *p, size_t len)
{
	struct rbuf	r, body;
	uint16_t	type, tlen;

	rbuf_init(&r, p, len);
	while (inst_next(&r, &type, &tlen, &body))
		if (type == OF13_IT_METER)
			return 1;
	return 0;
}

void
of_prog_put(struct wbuf *w, uint8_t version, const uint8_t *p, size_t len)
{
	uint32_t	id;
	int		inst;

	if (!of_v13plus(version) || !of_prog_meter(p, len, &id)) {
		wbuf_put_bytes(w, p, len);
		return;
	}
	inst = has_meter_inst(p, len);
	if (version >= OF_VERSION_15 && inst)
		put_for15(w, p, len, id);
	else if (version < OF_VERSION_15 && !inst)
		put_for13(w, p, len, id);
	else
		wbuf_put_bytes(w, p, len);
}
