/*
 * The store of the embedded controller's groups and meters (see
 * of_gmcfg.h): per node and kind, the config entries and the last
 * GROUP_MOD / METER_MOD sent for each, and the switch's view read back
 * on each statistics poll.  What differs between the kinds (the
 * multiparts, the reply's entries) is in gm_kinds[]; the messages
 * themselves branch on the kind (gm_mod_enc, gm_mp_enc).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "of_actions.h"
#include "of_codec.h"
#include "of_ctl.h"
#include "of_flowcfg.h"
#include "of_gmcfg.h"
#include "of_group.h"
#include "of_meter.h"
#include "of_types.h"
#include "ut.h"

/* A group's buckets on the wire; a meter's bands take less. */
#define GM_WIRE_MAX	(GM_MAX_BUCKETS * (16 + 16 * GM_MAX_ACTIONS))

/* A config entry: its spec, and the last message sent for it. */
struct gm_cfg {
	UT_hash_handle	 hh;
	uint32_t	 id;
	uint32_t	 xid;		/* of its last MOD, 0: none */
	int		 failed;	/* the switch sent an ERROR for it */
	void		*spec;
};

/* An entry the switch reported: its description and statistics. */
struct gm_oper {
	UT_hash_handle	 hh;
	uint32_t	 id;
	uint16_t	 type;		/* group type, or meter flags */
	uint64_t	 seen;		/* poll generation */
	uint8_t		*blob;		/* copy of its buckets or bands */
	size_t		 len;
	struct gm_gstats st;		/* st.counters: into counters */
	uint8_t		*counters;	/* copy; NULL: no statistics yet */
};

/* One kind's part of a node. */
struct gm_side {
	struct gm_cfg	*cfg;
	uint32_t	 n_cfg;
	struct gm_oper	*oper;
	uint32_t	 desc_xid;	/* description request in flight */
	uint32_t	 stats_xid;
	uint64_t	 gen;		/* of the description being read */
	int		 reading;	/* a part of it came */
};

struct gm_node {
	UT_hash_handle	 hh;
	uint64_t	 dpid;
	struct gm_side	 s[GM_KINDS];
};

struct gm_kind_ops {
	const char	*name;		/* the list: "group", "meter" */
	int		 mp_desc;	/* OF_MP_GROUP_DESC ... */
	int		 mp_stats;
	int		(*desc_next)(struct rbuf *, struct gm_desc *);
	int		(*stats_next)(struct rbuf *, struct gm_gstats *);
	void		(*render_cfg)(struct doc_writer *, uint64_t,
			    const void *);
	void		(*render_oper)(struct doc_writer *, uint64_t,
			    const struct gm_oper *);
};

static const struct gm_kind_ops	gm_kinds[GM_KINDS];
static struct gm_node		*gm_nodes;
static struct gm_counters	 gm_cnt[GM_KINDS];
static uint32_t			 gm_max[GM_KINDS] = {
	GM_DEFAULT_MAX, GM_DEFAULT_MAX
};

static const struct doc_module gm_fni_mod = {
	"flow-node-inventory", "urn:opendaylight:flow:inventory"
};
static const struct doc_module gm_gst_mod = {
	"opendaylight-group-statistics", "urn:opendaylight:group:statistics"
};
static const struct doc_module gm_mst_mod = {
	"opendaylight-meter-statistics", "urn:opendaylight:meter:statistics"
};

/* ---- the messages ---- */

struct gm_send {
	enum gm_kind	 k;
	const void	*spec;
	uint16_t	 cmd;
	int		 mp;
};

/* A GROUP_MOD or METER_MOD of a spec.  They exist from OpenFlow 1.1 and
 * 1.3: a 1.0 switch gets none.  A DELETE carries no buckets or bands
 * (OF_GC_DELETE and OF_MC_DELETE are the same number). */
static int
gm_mod_enc(struct wbuf *w, uint8_t version, uint32_t xid, const void *arg)
{
	const struct gm_send	*a = arg;
	const struct gm_spec	*g = a->spec;
	const struct gm_mspec	*m = a->spec;
	static uint8_t		 body[GM_WIRE_MAX];
	size_t			 len = 0;

	if (version == OF_VERSION_10)
		return -1;
	if (a->cmd != OF_GC_DELETE)
		len = a->k == GM_METER ? gm_bands_wire(m, body, sizeof(body)) :
		    gm_buckets_wire(g, body, sizeof(body));
	if (a->k == GM_METER)
		return of_meter_mod_encode(w, version, xid,
		    &(struct of_meter_mod){ a->cmd, m->flags, m->id, body,
		    len }) == -1 ? -1 : 0;
	return of_group_mod_encode(w, xid, &(struct of_group_mod){ a->cmd,
	    g->type, g->id, body, len, 0 }) == -1 ? -1 : 0;
}

static uint32_t
gm_send_mod(enum gm_kind k, uint64_t dpid, const void *spec, uint16_t cmd)
{
	struct gm_send	a = { k, spec, cmd, 0 };
	uint32_t	xid = of_ctl_send(dpid, gm_mod_enc, &a);

	gm_cnt[k].mods += xid != 0;
	return xid;
}

/* A description or statistics request of every group or meter. */
static int
gm_mp_enc(struct wbuf *w, uint8_t version, uint32_t xid, const void *arg)
{
	const struct gm_send	*a = arg;
	uint8_t			 body[8];
	struct wbuf		 b;

	if (version == OF_VERSION_10)
		return -1;
	if (a->k == GM_METER)
		return of_meter_mp_request_encode(w, version, xid,
		    (enum of_mp)a->mp, OF_METER_ALL) == -1 ? -1 : 0;
	wbuf_init(&b, body, sizeof(body));
	if (a->mp == OF_MP_GROUP) {	/* 7.3.5.9: group_id, pad */
		wbuf_put_u32(&b, OF_GROUP_ALL);
		wbuf_put_zero(&b, 4);
	}
	return of_mp_request_encode(w, version, xid, (enum of_mp)a->mp, body,
	    b.len) == -1 ? -1 : 0;
}

static uint32_t
gm_send_mp(enum gm_kind k, uint64_t dpid, int mp)
{
	struct gm_send	a = { k, NULL, 0, mp };

	return of_ctl_send(dpid, gm_mp_enc, &a);
}

/* ---- the store ---- */

static struct gm_node *
gm_node_get(uint64_t dpid, int create)
{
	struct gm_node	*n;

	HASH_FIND(hh, gm_nodes, &dpid, sizeof(dpid), n);
	if (n == NULL && create) {
		n = xcalloc(1, sizeof(*n));
		n->dpid = dpid;
		HASH_ADD(hh, gm_nodes, dpid, sizeof(n->dpid), n);
	}
	return n;
}

static struct gm_side *
gm_side(enum gm_kind k, uint64_t dpid, int create)
{
	struct gm_node	*n = gm_node_get(dpid, create);

	return n ? &n->s[k] : NULL;
}

static struct gm_cfg *
gm_cfg_find(const struct gm_side *s, uint32_t id)
{
	struct gm_cfg	*c;

	HASH_FIND(hh, s->cfg, &id, sizeof(id), c);
	return c;
}

static void
gm_push(enum gm_kind k, uint64_t dpid, struct gm_cfg *c, uint16_t cmd)
{
	c->failed = 0;
	c->xid = gm_send_mod(k, dpid, c->spec, cmd);
}

int
gm_put(enum gm_kind k, uint64_t dpid, uint32_t id, void *spec)
{
	struct gm_side	*s = gm_side(k, dpid, 1);
	struct gm_cfg	*c = gm_cfg_find(s, id);
	int		 created = c == NULL;

	if (c != NULL)
		free(c->spec);
	else if (s->n_cfg >= gm_max[k]) {
		gm_cnt[k].refused_full++;
		return -1;
	} else {
		c = xcalloc(1, sizeof(*c));
		c->id = id;
		HASH_ADD(hh, s->cfg, id, sizeof(c->id), c);
		s->n_cfg++;
	}
	/* MODIFY an entry the switch took; ADD one it refused or never
	 * had (OF_GC_* and OF_MC_* are the same numbers). */
	c->spec = spec;
	gm_push(k, dpid, c, created || c->failed ? OF_GC_ADD : OF_GC_MODIFY);
	(void)of_ctl_barrier(dpid);
	return created;
}

static void
gm_cfg_free(struct gm_side *s, struct gm_cfg *c)
{
	HASH_DEL(s->cfg, c);
	s->n_cfg--;
	free(c->spec);
	free(c);
}

int
gm_delete(enum gm_kind k, uint64_t dpid, uint32_t id)
{
	struct gm_side	*s = gm_side(k, dpid, 0);
	struct gm_cfg	*c = s ? gm_cfg_find(s, id) : NULL;

	if (c == NULL)
		return -1;
	(void)gm_send_mod(k, dpid, c->spec, OF_GC_DELETE);
	(void)of_ctl_barrier(dpid);
	gm_cfg_free(s, c);
	return 0;
}

uint32_t
gm_delete_node(uint64_t dpid)
{
	struct gm_node	*n = gm_node_get(dpid, 0);
	struct gm_cfg	*c, *t;
	uint32_t	 cnt = 0;
	int		 k;

	for (k = 0; n != NULL && k < GM_KINDS; k++)
		HASH_ITER(hh, n->s[k].cfg, c, t) {
			(void)gm_send_mod((enum gm_kind)k, dpid, c->spec,
			    OF_GC_DELETE);
			gm_cfg_free(&n->s[k], c);
			cnt++;
		}
	if (cnt > 0)
		(void)of_ctl_barrier(dpid);
	return cnt;
}

uint32_t
gm_delete_all(void)
{
	struct gm_node	*n, *t;
	uint32_t	 cnt = 0;

	HASH_ITER(hh, gm_nodes, n, t)
		cnt += gm_delete_node(n->dpid);
	return cnt;
}

uint32_t
gm_rpc_push(enum gm_kind k, uint64_t dpid, const void *spec, uint16_t cmd,
    uint32_t *barrier_xid)
{
	uint32_t	xid = gm_send_mod(k, dpid, spec, cmd);

	*barrier_xid = xid != 0 ? of_ctl_barrier_xid(dpid) : 0;
	return xid;
}

void
gm_set_max(enum gm_kind k, uint32_t max)
{
	gm_max[k] = max;
}

void
gm_count_bad_body(enum gm_kind k)
{
	gm_cnt[k].bad_bodies++;
}

const struct gm_counters *
gm_counters(enum gm_kind k)
{
	return &gm_cnt[k];
}

/* ---- hooks: reconciliation, the poll, replies and errors ---- */

static void
gm_oper_free(struct gm_side *s, struct gm_oper *o)
{
	HASH_DEL(s->oper, o);
	free(o->blob);
	free(o->counters);
	free(o);
}

static void
gm_oper_clear(struct gm_side *s)
{
	struct gm_oper	*o, *t;

	HASH_ITER(hh, s->oper, o, t)
		gm_oper_free(s, o);
	s->reading = 0;
	s->desc_xid = s->stats_xid = 0;
}

/* A switch (re)connected: its old view goes, the config entries are
 * pushed again (openflowplugin's reconciliation), groups first: a
 * meter never names a group, but flows pushed after may name both. */
void
gm_connected(uint64_t dpid, uint8_t version)
{
	struct gm_node	*n = gm_node_get(dpid, 0);
	struct gm_cfg	*c, *t;
	int		 k;

	(void)version;
	if (n == NULL)
		return;
	for (k = 0; k < GM_KINDS; k++) {
		gm_oper_clear(&n->s[k]);
		HASH_ITER(hh, n->s[k].cfg, c, t)
			gm_push((enum gm_kind)k, dpid, c, OF_GC_ADD);
	}
	if (n->s[GM_GROUP].n_cfg + n->s[GM_METER].n_cfg > 0)
		(void)of_ctl_barrier(dpid);
}

/* Each statistics poll asks for the descriptions and the counters of
 * both kinds, unless the last question of that kind is unanswered. */
void
gm_poll(uint64_t dpid)
{
	struct gm_node	*n = gm_node_get(dpid, 1);
	int		 k;

	for (k = 0; k < GM_KINDS; k++) {
		struct gm_side	*s = &n->s[k];

		if (s->desc_xid != 0 || s->stats_xid != 0)
			continue;
		s->desc_xid = gm_send_mp((enum gm_kind)k, dpid,
		    gm_kinds[k].mp_desc);
		s->stats_xid = gm_send_mp((enum gm_kind)k, dpid,
		    gm_kinds[k].mp_stats);
		s->reading = 0;
	}
}

static void *
gm_dup(const uint8_t *p, size_t len)
{
	uint8_t	*d = xmalloc(len ? len : 1);

	memcpy(d, p, len);
	return d;
}

static struct gm_oper *
gm_oper_get(enum gm_kind k, struct gm_side *s, uint32_t id)
{
	struct gm_oper	*o;

	HASH_FIND(hh, s->oper, &id, sizeof(id), o);
	if (o != NULL || HASH_COUNT(s->oper) >= gm_max[k])
		return o;
	o = xcalloc(1, sizeof(*o));
	o->id = id;
	HASH_ADD(hh, s->oper, id, sizeof(o->id), o);
	return o;
}

/* A part of the description reply; the last one ends the view: entries
 * it did not name are gone from the switch. */
static void
gm_on_desc(enum gm_kind k, struct gm_side *s, struct rbuf *r, int more)
{
	struct gm_oper	*o, *t;
	struct gm_desc	 d;
	int		 rc;

	if (!s->reading) {
		s->gen++;
		s->reading = 1;
	}
	while ((rc = gm_kinds[k].desc_next(r, &d)) == 1) {
		if ((o = gm_oper_get(k, s, d.id)) == NULL)
			continue;	/* past the bound */
		o->type = d.type;
		o->seen = s->gen;
		free(o->blob);
		o->blob = gm_dup(d.blob, d.len);
		o->len = d.len;
	}
	gm_cnt[k].bad_replies += rc == -1;
	if (more)
		return;
	HASH_ITER(hh, s->oper, o, t)
		if (o->seen != s->gen)
			gm_oper_free(s, o);
	s->reading = 0;
	s->desc_xid = 0;
}

static void
gm_on_stats(enum gm_kind k, struct gm_side *s, struct rbuf *r, int more)
{
	struct gm_oper		*o;
	struct gm_gstats	 st;
	int			 rc;

	while ((rc = gm_kinds[k].stats_next(r, &st)) == 1) {
		HASH_FIND(hh, s->oper, &st.id, sizeof(st.id), o);
		if (o == NULL)
			continue;
		free(o->counters);
		o->counters = gm_dup(st.counters, st.ncounters * 16);
		o->st = st;
		o->st.counters = o->counters;
	}
	gm_cnt[k].bad_replies += rc == -1;
	if (!more)
		s->stats_xid = 0;
}

void
gm_mp_reply(uint64_t dpid, int mp, uint16_t flags, uint32_t xid,
    struct rbuf *entries, void *arg)
{
	struct gm_node	*n = gm_node_get(dpid, 0);
	int		 more = (flags & OF_MPF_MORE) != 0, k;

	(void)arg;
	if (n == NULL || xid == 0)
		return;
	for (k = 0; k < GM_KINDS; k++) {
		struct gm_side	*s = &n->s[k];

		if (mp == gm_kinds[k].mp_desc && xid == s->desc_xid)
			gm_on_desc((enum gm_kind)k, s, entries, more);
		else if (mp == gm_kinds[k].mp_stats && xid == s->stats_xid)
			gm_on_stats((enum gm_kind)k, s, entries, more);
	}
}

/* The switch refused a MOD (the config entry is marked and shows in no
 * operational view: openflowplugin logs it, the write has succeeded),
 * or a multipart (a switch without groups or meters). */
static int
gm_error_side(enum gm_kind k, struct gm_side *s, uint64_t dpid,
    uint32_t xid, uint16_t type, uint16_t code)
{
	struct gm_cfg	*c, *t;

	if (xid == s->desc_xid || xid == s->stats_xid) {
		s->desc_xid = s->stats_xid = 0;
		s->reading = 0;
		return 1;
	}
	HASH_ITER(hh, s->cfg, c, t)
		if (c->xid == xid) {
			c->failed = 1;
			gm_cnt[k].switch_errors++;
			log_info("openflow:%" PRIu64 " refused %s %" PRIu32
			    ": error type %u code %u", dpid,
			    gm_kinds[k].name, c->id, type, code);
			return 1;
		}
	return 0;
}

void
gm_error(uint64_t dpid, uint32_t xid, uint16_t type, uint16_t code,
    void *arg)
{
	struct gm_node	*n = gm_node_get(dpid, 0);
	int		 k;

	(void)arg;
	if (xid != 0 && gm_wait_error(dpid, xid, type, code))
		return;		/* a sal-group (sal-meter) RPC's */
	for (k = 0; n != NULL && xid != 0 && k < GM_KINDS; k++)
		if (gm_error_side((enum gm_kind)k, &n->s[k], dpid, xid, type,
		    code))
			return;
}

void
gm_stop(void)
{
	struct gm_node	*n, *tn;
	struct gm_cfg	*c, *tc;
	int		 k;

	gm_wait_stop();
	HASH_ITER(hh, gm_nodes, n, tn) {
		for (k = 0; k < GM_KINDS; k++) {
			HASH_ITER(hh, n->s[k].cfg, c, tc)
				gm_cfg_free(&n->s[k], c);
			gm_oper_clear(&n->s[k]);
		}
		HASH_DEL(gm_nodes, n);
		free(n);
	}
	memset(gm_cnt, 0, sizeof(gm_cnt));
}

/* ---- reads ---- */

uint32_t
gm_config_count(enum gm_kind k, uint64_t dpid)
{
	struct gm_side	*s = gm_side(k, dpid, 0);

	return s ? s->n_cfg : 0;
}

int
gm_has(enum gm_kind k, uint64_t dpid, int oper, uint32_t id)
{
	struct gm_side	*s = gm_side(k, dpid, 0);
	struct gm_oper	*o;

	if (s == NULL)
		return 0;
	if (!oper)
		return gm_cfg_find(s, id) != NULL;
	HASH_FIND(hh, s->oper, &id, sizeof(id), o);
	return o != NULL && (oper == 1 || o->counters != NULL);
}

const char *
gm_kind_name(enum gm_kind k)
{
	return gm_kinds[k].name;
}

const char *
gm_stats_name(enum gm_kind k)
{
	return k == GM_GROUP ? "group-statistics" : "meter-statistics";
}

/* A port as a config body names it ("openflow:1:2"), or as the
 * switch's view does (its number), reserved ones by name. */
static void
gm_port_text(uint64_t dpid, uint32_t port, int node_form, char *s,
    size_t cap)
{
	fc_port_name(port, s, cap);
	if (node_form && port <= OF_PORT_MAX)
		snprintf(s, cap, "openflow:%" PRIu64 ":%" PRIu32, dpid, port);
}

static void
gm_render_action(struct doc_writer *w, uint64_t dpid, int node_form,
    unsigned order, const struct gm_action *a)
{
	char	s[64];

	doc_entry(w);
	doc_leaf_uint(w, "order", order);
	if (a->kind == GM_ACT_GROUP) {
		doc_container(w, NULL, "group-action");
		doc_leaf_uint(w, "group-id", a->arg);
	} else {
		doc_container(w, NULL, "output-action");
		gm_port_text(dpid, a->arg, node_form, s, sizeof(s));
		doc_leaf_str(w, "output-node-connector", s);
		doc_leaf_uint(w, "max-length", a->max_len);
	}
	doc_end(w);
	doc_end(w);
}

static void
gm_render_bucket(struct doc_writer *w, uint64_t dpid, int node_form,
    const struct gm_bucket *b)
{
	unsigned	i;

	doc_entry(w);
	doc_leaf_uint(w, "bucket-id", b->id);
	doc_leaf_uint(w, "weight", b->weight);
	/* The config shows what was written: a watch left out is ANY. */
	if (!node_form || b->watch_port != OF_PORT_ANY)
		doc_leaf_uint(w, "watch_port", b->watch_port);
	if (!node_form || b->watch_group != OF_GROUP_ANY)
		doc_leaf_uint(w, "watch_group", b->watch_group);
	if (b->nact > 0) {
		doc_list(w, NULL, "action");
		for (i = 0; i < b->nact; i++)
			gm_render_action(w, dpid, node_form,
			    node_form ? b->act[i].order : i, &b->act[i]);
		doc_end(w);
	}
	doc_end(w);
}

static void
gm_render_buckets(struct doc_writer *w, uint64_t dpid, int node_form,
    const struct gm_bucket *b, uint32_t nb)
{
	uint32_t	i;

	if (nb == 0)
		return;
	doc_container(w, NULL, "buckets");
	doc_list(w, NULL, "bucket");
	for (i = 0; i < nb; i++)
		gm_render_bucket(w, dpid, node_form, &b[i]);
	doc_end(w);
	doc_end(w);
}

static void
gm_group_cfg(struct doc_writer *w, uint64_t dpid, const void *spec)
{
	const struct gm_spec	*s = spec;

	doc_leaf_uint(w, "group-id", s->id);
	doc_leaf_str(w, "group-type", gm_type_name(s->type));
	if (s->name[0] != '\0')
		doc_leaf_str(w, "group-name", s->name);
	gm_render_buckets(w, dpid, 1, s->b, s->nb);
}

static void
gm_group_oper(struct doc_writer *w, uint64_t dpid, const struct gm_oper *o)
{
	static struct gm_bucket	b[GM_MAX_BUCKETS];
	uint32_t		nb = gm_wire_buckets(o->blob, o->len, b);

	doc_leaf_uint(w, "group-id", o->id);
	doc_leaf_str(w, "group-type", gm_type_name((uint8_t)o->type));
	gm_render_buckets(w, dpid, 0, b, nb);
}

static void
gm_duration(struct doc_writer *w, const struct gm_oper *o)
{
	doc_container(w, NULL, "duration");
	doc_leaf_uint(w, "second", o->st.sec);
	doc_leaf_uint(w, "nanosecond", o->st.nsec);
	doc_end(w);
}

/* The per bucket (band) counters: packets then bytes, 16 bytes each. */
static void
gm_counters_list(struct doc_writer *w, const struct gm_oper *o,
    const char *id, const char *pk, const char *by)
{
	struct rbuf	r;
	uint64_t	p, b;
	size_t		i;

	rbuf_init(&r, o->counters, o->st.ncounters * 16);
	for (i = 0; i < o->st.ncounters && rbuf_get_u64(&r, &p) == 0 &&
	    rbuf_get_u64(&r, &b) == 0; i++) {
		doc_entry(w);
		doc_leaf_uint(w, id, i);
		doc_leaf_uint(w, pk, p);
		doc_leaf_uint(w, by, b);
		doc_end(w);
	}
}

/* ---- meters ---- */

static void
gm_band_render(struct doc_writer *w, const struct gm_band *b)
{
	int	drop = b->type == OF_MBT_DROP;

	doc_entry(w);
	doc_leaf_uint(w, "band-id", b->id);
	doc_container(w, NULL, "meter-band-types");
	doc_leaf_str(w, "flags", gm_band_name(b->type));
	doc_end(w);
	doc_leaf_uint(w, "band-rate", b->rate);
	doc_leaf_uint(w, "band-burst-size", b->burst);
	doc_leaf_uint(w, drop ? "drop-rate" : "dscp-remark-rate", b->rate);
	doc_leaf_uint(w, drop ? "drop-burst-size" : "dscp-remark-burst-size",
	    b->burst);
	if (!drop)
		doc_leaf_uint(w, "perc_level", b->prec);
	doc_end(w);
}

static void
gm_meter_head(struct doc_writer *w, uint32_t id, uint16_t flags,
    const struct gm_band *b, uint32_t nb)
{
	char		s[64];
	uint32_t	i;

	doc_leaf_uint(w, "meter-id", id);
	gm_mflags_text(flags, s, sizeof(s));
	doc_leaf_str(w, "flags", s);
	if (nb == 0)
		return;
	doc_container(w, NULL, "meter-band-headers");
	doc_list(w, NULL, "meter-band-header");
	for (i = 0; i < nb; i++)
		gm_band_render(w, &b[i]);
	doc_end(w);
	doc_end(w);
}

static void
gm_meter_cfg(struct doc_writer *w, uint64_t dpid, const void *spec)
{
	const struct gm_mspec	*s = spec;

	(void)dpid;
	gm_meter_head(w, s->id, s->flags, s->b, s->nb);
	if (s->name[0] != '\0')
		doc_leaf_str(w, "meter-name", s->name);
}

static void
gm_meter_oper(struct doc_writer *w, uint64_t dpid, const struct gm_oper *o)
{
	struct gm_band	b[GM_MAX_BANDS];

	(void)dpid;
	gm_meter_head(w, o->id, o->type, b, gm_wire_bands(o->blob, o->len,
	    b));
}

/* The statistics container of either kind, as the kind names its
 * parts (opendaylight-group-statistics, -meter-statistics). */
struct gm_stats_names {
	const struct doc_module	*mod;
	const char		*top, *id, *refs, *packets, *bytes;
	const char		*list_top, *list, *cid, *cpk, *cby;
};

static const struct gm_stats_names gm_snames[GM_KINDS] = {
	[GM_GROUP] = { &gm_gst_mod, "group-statistics", "group-id",
	    "ref-count", "packet-count", "byte-count", "buckets",
	    "bucket-counter", "bucket-id", "packet-count", "byte-count" },
	[GM_METER] = { &gm_mst_mod, "meter-statistics", "meter-id",
	    "flow-count", "packet-in-count", "byte-in-count",
	    "meter-band-stats", "band-stat", "band-id", "packet-band-count",
	    "byte-band-count" },
};

static void
gm_stats_render(struct doc_writer *w, enum gm_kind k,
    const struct gm_oper *o)
{
	const struct gm_stats_names	*n = &gm_snames[k];

	doc_container(w, n->mod, n->top);
	doc_leaf_uint(w, n->id, o->id);
	doc_leaf_uint(w, n->refs, o->st.refs);
	doc_leaf_uint(w, n->packets, o->st.packets);
	doc_leaf_uint(w, n->bytes, o->st.bytes);
	gm_duration(w, o);
	doc_container(w, NULL, n->list_top);
	doc_list(w, NULL, n->list);
	gm_counters_list(w, o, n->cid, n->cpk, n->cby);
	doc_end(w);
	doc_end(w);
	doc_end(w);
}

/* ---- either kind ---- */

void
gm_render_list(enum gm_kind k, struct doc_writer *w, uint64_t dpid,
    int oper, int one, uint32_t id)
{
	const struct gm_kind_ops	*ops = &gm_kinds[k];
	struct gm_side			*s = gm_side(k, dpid, 0);
	struct gm_cfg			*c, *tc;
	struct gm_oper			*o, *to;

	if (s == NULL || (oper ? HASH_COUNT(s->oper) : s->n_cfg) == 0)
		return;
	doc_list(w, &gm_fni_mod, ops->name);
	if (oper)
		HASH_ITER(hh, s->oper, o, to) {
			if (one && o->id != id)
				continue;
			doc_entry(w);
			ops->render_oper(w, dpid, o);
			if (o->counters != NULL)
				gm_stats_render(w, k, o);
			doc_end(w);
		}
	else
		HASH_ITER(hh, s->cfg, c, tc) {
			if (one && c->id != id)
				continue;
			doc_entry(w);
			ops->render_cfg(w, dpid, c->spec);
			doc_end(w);
		}
	doc_end(w);
}

void
gm_render_stats(enum gm_kind k, struct doc_writer *w, uint64_t dpid,
    uint32_t id)
{
	struct gm_side	*s = gm_side(k, dpid, 0);
	struct gm_oper	*o = NULL;

	if (s != NULL)
		HASH_FIND(hh, s->oper, &id, sizeof(id), o);
	if (o != NULL && o->counters != NULL)
		gm_stats_render(w, k, o);
}

static const struct gm_kind_ops	gm_kinds[GM_KINDS] = {
	[GM_GROUP] = {
		"group", OF_MP_GROUP_DESC, OF_MP_GROUP,
		gm_desc_next, gm_gstats_next, gm_group_cfg, gm_group_oper,
	},
	[GM_METER] = {
		"meter", OF_MP_METER_CONFIG, OF_MP_METER,
		gm_mconfig_next, gm_mstats_next, gm_meter_cfg, gm_meter_oper,
	},
};
