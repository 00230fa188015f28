/*
 * Groups of the embedded controller's OpenDaylight inventory (see
 * of_gmcfg.h): parsing opendaylight-group-types bodies, the GROUP_MODs
 * they become, the config store per node, and the switch's view read
 * back with GROUP_DESC and GROUP statistics for the operational one.
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
#include "of_types.h"
#include "of_wire_actions.h"
#include "ut.h"

#define GM_ERR(...)	do {						\
	snprintf(err, errlen, __VA_ARGS__);				\
	return -1;							\
} while (0)

#define GM_GROUP_MAX	0xffffff00u	/* OFPG_MAX (1.3.5 7.3.4.2) */
#define GM_BUCKET_HDR	16	/* ofp_bucket before its actions */
#define GM_DESC_HDR	8	/* ofp_group_desc before its buckets */
#define GM_STATS_HDR	40	/* ofp_group_stats before its counters */
#define GM_WIRE_MAX	(GM_MAX_BUCKETS * (GM_BUCKET_HDR + 16 * GM_MAX_ACTIONS))

/* A config group: its spec, and the last GROUP_MOD sent for it. */
struct gm_cfg {
	UT_hash_handle	 hh;
	uint32_t	 id;
	uint32_t	 xid;		/* of its last GROUP_MOD, 0: none */
	uint16_t	 err_type;	/* the switch's ERROR for it, if any */
	uint16_t	 err_code;
	int		 failed;
	struct gm_spec	*spec;
};

/* A group the switch reported: its GROUP_DESC entry and statistics. */
struct gm_oper {
	UT_hash_handle	 hh;
	uint32_t	 id;
	uint8_t		 type;
	uint64_t	 seen;		/* poll generation */
	struct gm_gstats st;		/* st.buckets: into counters */
	uint8_t		*counters;	/* copy, 16 bytes a bucket */
	size_t		 len;
	uint8_t		*buckets;	/* copy of its ofp_buckets */
};

struct gm_node {
	UT_hash_handle	 hh;
	uint64_t	 dpid;
	uint8_t		 version;
	struct gm_cfg	*cfg;
	uint32_t	 n_cfg;
	struct gm_oper	*oper;
	uint32_t	 desc_xid;	/* GROUP_DESC in flight */
	uint32_t	 stats_xid;
	uint64_t	 gen;		/* of the GROUP_DESC being read */
	int		 reading;	/* a part of it came */
	int		 reported;	/* a whole GROUP_DESC came */
};

static struct gm_node		*gm_nodes;
static struct gm_counters	 gm_cnt;
static uint32_t			 gm_max_groups = GM_DEFAULT_MAX_GROUPS;

static const struct {
	const char	*name;
	uint8_t		 type;
} gm_types[] = {
	{ "group-all", OF_GT_ALL }, { "group-select", OF_GT_SELECT },
	{ "group-indirect", OF_GT_INDIRECT }, { "group-ff", OF_GT_FF },
};

const char *
gm_type_name(uint8_t type)
{
	size_t	i;

	for (i = 0; i < nitems(gm_types); i++)
		if (gm_types[i].type == type)
			return gm_types[i].name;
	return "group-all";
}

int
gm_type_parse(const char *s, uint8_t *type)
{
	size_t	i;

	for (i = 0; i < nitems(gm_types); i++)
		if (strcmp(s, gm_types[i].name) == 0) {
			*type = gm_types[i].type;
			return 0;
		}
	return -1;
}

/* ---- parsing a body ---- */

/* An optional unsigned leaf: *given says whether it was there. */
static int
gm_uint(const struct doc_node *n, const char *name, uint64_t max,
    uint64_t *v, int *given, char *err, size_t errlen)
{
	struct doc_node	c;

	*given = 0;
	if (doc_child(n, name, &c) == -1)
		return 0;
	if (doc_uint(&c, max, v) == -1)
		GM_ERR("%s: expected an integer from 0 to %" PRIu64, name, max);
	*given = 1;
	return 0;
}

static int
gm_action(const struct doc_node *a, struct gm_action *x, char *err,
    size_t errlen)
{
	struct doc_node	c;
	char		s[64];
	uint64_t	v;
	int		given;

	if (gm_uint(a, "order", 0xffff, &v, &given, err, errlen) == -1)
		return -1;
	x->order = given ? (uint16_t)v : 0;
	if (doc_child(a, "output-action", &c) == 0) {
		x->kind = GM_ACT_OUTPUT;
		if (doc_get_string(&c, "output-node-connector", s, sizeof(s))
		    == -1 || fc_port(s, &x->arg) == -1)
			GM_ERR("output-action: output-node-connector is not "
			    "a port");
		if (gm_uint(&c, "max-length", 0xffff, &v, &given, err,
		    errlen) == -1)
			return -1;
		x->max_len = given ? (uint16_t)v : 0;
		return 0;
	}
	if (doc_child(a, "group-action", &c) == 0) {
		x->kind = GM_ACT_GROUP;
		if (gm_uint(&c, "group-id", GM_GROUP_MAX, &v, &given, err,
		    errlen) == -1)
			return -1;
		if (!given)
			GM_ERR("group-action: group-id missing");
		x->arg = (uint32_t)v;
		return 0;
	}
	GM_ERR("action: only output-action and group-action are supported");
}

/* Actions go to the switch in their "order" (openflowplugin sorts). */
static void
gm_sort_actions(struct gm_bucket *b)
{
	struct gm_action	t;
	unsigned		i, j;

	for (i = 1; i < b->nact; i++)
		for (j = i; j > 0 && b->act[j - 1].order > b->act[j].order;
		    j--) {
			t = b->act[j];
			b->act[j] = b->act[j - 1];
			b->act[j - 1] = t;
		}
}

static int
gm_bucket(const struct doc_node *bn, struct gm_bucket *b, char *err,
    size_t errlen)
{
	struct doc_iter	it;
	struct doc_node	a;
	uint64_t	v;
	int		given;

	if (gm_uint(bn, "bucket-id", UINT32_MAX, &v, &given, err, errlen)
	    == -1)
		return -1;
	if (!given)
		GM_ERR("bucket: bucket-id missing");
	b->id = (uint32_t)v;
	if (gm_uint(bn, "weight", 0xffff, &v, &given, err, errlen) == -1)
		return -1;
	b->weight = given ? (uint16_t)v : 0;
	if (gm_uint(bn, "watch_port", UINT32_MAX, &v, &given, err, errlen)
	    == -1)
		return -1;
	b->watch_port = given ? (uint32_t)v : OF_PORT_ANY;
	if (gm_uint(bn, "watch_group", UINT32_MAX, &v, &given, err, errlen)
	    == -1)
		return -1;
	b->watch_group = given ? (uint32_t)v : OF_GROUP_ANY;
	doc_iter_init(&it, bn, "action");
	while (doc_iter_next(&it, &a) == 1) {
		if (b->nact == GM_MAX_ACTIONS)
			GM_ERR("bucket %" PRIu32 ": more than %d actions",
			    b->id, GM_MAX_ACTIONS);
		if (gm_action(&a, &b->act[b->nact++], err, errlen) == -1)
			return -1;
	}
	gm_sort_actions(b);
	return 0;
}

/* The buckets, in bucket-id order (the key of the list); an id given
 * twice is refused. */
static int
gm_buckets(const struct doc_node *g, struct gm_spec *s, char *err,
    size_t errlen)
{
	struct doc_node		bs, bn;
	struct doc_iter		it;
	struct gm_bucket	t;
	unsigned		i, j;

	if (doc_child(g, "buckets", &bs) == -1)
		return 0;
	doc_iter_init(&it, &bs, "bucket");
	while (doc_iter_next(&it, &bn) == 1) {
		if (s->nb == GM_MAX_BUCKETS)
			GM_ERR("buckets: more than %d", GM_MAX_BUCKETS);
		memset(&s->b[s->nb], 0, sizeof(s->b[0]));
		if (gm_bucket(&bn, &s->b[s->nb++], err, errlen) == -1)
			return -1;
	}
	for (i = 1; i < s->nb; i++)
		for (j = i; j > 0 && s->b[j - 1].id >= s->b[j].id; j--) {
			if (s->b[j - 1].id == s->b[j].id)
				GM_ERR("bucket-id %" PRIu32 " given twice",
				    s->b[j].id);
			t = s->b[j];
			s->b[j] = s->b[j - 1];
			s->b[j - 1] = t;
		}
	return 0;
}

static int
gm_head(const struct doc_node *g, struct gm_spec *s, char *err,
    size_t errlen)
{
	struct doc_node	n;
	char		t[32];
	uint64_t	v;
	int		given;

	if (gm_uint(g, "group-id", GM_GROUP_MAX, &v, &given, err, errlen)
	    == -1)
		return -1;
	if (!given)
		GM_ERR("group-id missing");
	s->id = (uint32_t)v;
	if (doc_get_string(g, "group-type", t, sizeof(t)) == -1 ||
	    gm_type_parse(t, &s->type) == -1)
		GM_ERR("group-type: expected group-all, group-select, "
		    "group-indirect or group-ff");
	s->name[0] = '\0';
	if (doc_child(g, "group-name", &n) == 0 &&
	    doc_string(&n, s->name, sizeof(s->name)) == -1)
		GM_ERR("group-name: longer than %d bytes", GM_MAX_NAME);
	return 0;
}

struct gm_spec *
gm_parse(const struct doc_node *g, char *err, size_t errlen)
{
	struct gm_spec	*s = xcalloc(1, sizeof(*s) + GM_MAX_BUCKETS *
			    sizeof(struct gm_bucket)), *t;

	if (gm_head(g, s, err, errlen) == -1 ||
	    gm_buckets(g, s, err, errlen) == -1) {
		free(s);
		return NULL;
	}
	/* Keep only the buckets given. */
	t = realloc(s, sizeof(*s) + s->nb * sizeof(struct gm_bucket));
	return t != NULL ? t : s;
}

/* ---- the wire ---- */

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

int
gm_desc_next(struct rbuf *r, struct gm_desc *d)
{
	uint16_t	len;
	uint8_t		pad;

	if (rbuf_left(r) == 0)
		return 0;
	if (rbuf_get_u16(r, &len) == -1 || len < GM_DESC_HDR ||
	    (size_t)len - 2 > rbuf_left(r))
		return -1;
	rbuf_get_u8(r, &d->type);
	rbuf_get_u8(r, &pad);
	rbuf_get_u32(r, &d->id);
	d->buckets = rbuf_ptr(r);
	d->buckets_len = len - GM_DESC_HDR;
	rbuf_skip(r, d->buckets_len);
	return 1;
}

int
gm_gstats_next(struct rbuf *r, struct gm_gstats *s)
{
	uint16_t	len;

	if (rbuf_left(r) == 0)
		return 0;
	if (rbuf_get_u16(r, &len) == -1 || len < GM_STATS_HDR ||
	    (len - GM_STATS_HDR) % 16 != 0 || (size_t)len - 2 > rbuf_left(r))
		return -1;
	rbuf_skip(r, 2);
	rbuf_get_u32(r, &s->id);
	rbuf_get_u32(r, &s->ref_count);
	rbuf_skip(r, 4);
	rbuf_get_u64(r, &s->packets);
	rbuf_get_u64(r, &s->bytes);
	rbuf_get_u32(r, &s->sec);
	rbuf_get_u32(r, &s->nsec);
	s->buckets = rbuf_ptr(r);
	s->nbuckets = (len - GM_STATS_HDR) / 16;
	rbuf_skip(r, len - GM_STATS_HDR);
	return 1;
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

static struct gm_cfg *
gm_cfg_find(const struct gm_node *n, uint32_t id)
{
	struct gm_cfg	*c;

	HASH_FIND(hh, n->cfg, &id, sizeof(id), c);
	return c;
}

struct gm_mod_arg {
	const struct gm_spec	*spec;
	uint16_t		 cmd;
};

/* GROUP_MOD exists from OpenFlow 1.1 on: a 1.0 switch gets none. */
static int
gm_mod_enc(struct wbuf *w, uint8_t version, uint32_t xid, const void *arg)
{
	const struct gm_mod_arg	*a = arg;
	struct of_group_mod	 gm;
	static uint8_t		 buf[GM_WIRE_MAX];

	if (version == OF_VERSION_10)
		return -1;
	memset(&gm, 0, sizeof(gm));
	gm.command = a->cmd;
	gm.type = a->spec->type;
	gm.group_id = a->spec->id;
	if (a->cmd != OF_GC_DELETE) {
		gm.buckets = buf;
		gm.buckets_len = gm_buckets_wire(a->spec, buf, sizeof(buf));
	}
	return of_group_mod_encode(w, xid, &gm) == -1 ? -1 : 0;
}

static uint32_t
gm_send_mod(uint64_t dpid, const struct gm_spec *s, uint16_t cmd)
{
	struct gm_mod_arg	a = { s, cmd };
	uint32_t		xid = of_ctl_send(dpid, gm_mod_enc, &a);

	gm_cnt.group_mods += xid != 0;
	return xid;
}

static void
gm_push(struct gm_node *n, struct gm_cfg *c, uint16_t cmd)
{
	c->failed = 0;
	c->err_type = c->err_code = 0;
	c->xid = gm_send_mod(n->dpid, c->spec, cmd);
}

int
gm_put(uint64_t dpid, struct gm_spec *s)
{
	struct gm_node	*n = gm_node_get(dpid, 1);
	struct gm_cfg	*c = gm_cfg_find(n, s->id);

	if (c != NULL) {
		/* ADD when the switch took none (it refused the old one). */
		free(c->spec);
		c->spec = s;
		gm_push(n, c, c->failed ? OF_GC_ADD : OF_GC_MODIFY);
		(void)of_ctl_barrier(dpid);
		return 0;
	}
	if (n->n_cfg >= gm_max_groups) {
		gm_cnt.refused_full++;
		return -1;
	}
	c = xcalloc(1, sizeof(*c));
	c->id = s->id;
	c->spec = s;
	HASH_ADD(hh, n->cfg, id, sizeof(c->id), c);
	n->n_cfg++;
	gm_push(n, c, OF_GC_ADD);
	(void)of_ctl_barrier(dpid);
	return 1;
}

static void
gm_cfg_free(struct gm_node *n, struct gm_cfg *c)
{
	HASH_DEL(n->cfg, c);
	n->n_cfg--;
	free(c->spec);
	free(c);
}

int
gm_delete(uint64_t dpid, uint32_t id)
{
	struct gm_node	*n = gm_node_get(dpid, 0);
	struct gm_cfg	*c = n ? gm_cfg_find(n, id) : NULL;

	if (c == NULL)
		return -1;
	(void)gm_send_mod(dpid, c->spec, OF_GC_DELETE);
	(void)of_ctl_barrier(dpid);
	gm_cfg_free(n, c);
	return 0;
}

void
gm_rpc_push(uint64_t dpid, const struct gm_spec *s, uint16_t cmd)
{
	(void)gm_send_mod(dpid, s, cmd);
	(void)of_ctl_barrier(dpid);
}

void
gm_set_max_groups(uint32_t max)
{
	gm_max_groups = max;
}

void
gm_count_bad_body(void)
{
	gm_cnt.bad_bodies++;
}

const struct gm_counters *
gm_counters(void)
{
	return &gm_cnt;
}

/* ---- hooks: reconciliation, the poll, replies and errors ---- */

static void
gm_oper_free(struct gm_node *n, struct gm_oper *o)
{
	HASH_DEL(n->oper, o);
	free(o->buckets);
	free(o->counters);
	free(o);
}

static void
gm_oper_clear(struct gm_node *n)
{
	struct gm_oper	*o, *t;

	HASH_ITER(hh, n->oper, o, t)
		gm_oper_free(n, o);
	n->reported = n->reading = 0;
	n->desc_xid = n->stats_xid = 0;
}

/* A switch (re)connected: its old view goes, the config groups are
 * pushed again (openflowplugin's reconciliation). */
void
gm_connected(uint64_t dpid, uint8_t version)
{
	struct gm_node	*n = gm_node_get(dpid, 0);
	struct gm_cfg	*c, *t;

	if (n == NULL)
		return;
	n->version = version;
	gm_oper_clear(n);
	HASH_ITER(hh, n->cfg, c, t)
		gm_push(n, c, OF_GC_ADD);
	if (n->n_cfg > 0)
		(void)of_ctl_barrier(dpid);
}

struct gm_mp_arg {
	int		mp;
};

static int
gm_mp_enc(struct wbuf *w, uint8_t version, uint32_t xid, const void *arg)
{
	const struct gm_mp_arg	*a = arg;
	uint8_t			 body[8];
	struct wbuf		 b;

	if (version == OF_VERSION_10)
		return -1;
	wbuf_init(&b, body, sizeof(body));
	if (a->mp == OF_MP_GROUP) {	/* every group (7.3.5.9) */
		wbuf_put_u32(&b, OF_GROUP_ALL);
		wbuf_put_zero(&b, 4);
	}
	return of_mp_request_encode(w, version, xid, (enum of_mp)a->mp, body,
	    b.len) == -1 ? -1 : 0;
}

/* Each statistics poll asks for the groups and their counters, unless
 * the last question is unanswered. */
void
gm_poll(uint64_t dpid)
{
	struct gm_node		*n = gm_node_get(dpid, 1);
	struct gm_mp_arg	 a;

	if (n->desc_xid != 0 || n->stats_xid != 0)
		return;
	a.mp = OF_MP_GROUP_DESC;
	n->desc_xid = of_ctl_send(dpid, gm_mp_enc, &a);
	a.mp = OF_MP_GROUP;
	n->stats_xid = of_ctl_send(dpid, gm_mp_enc, &a);
	n->reading = 0;
}

static struct gm_oper *
gm_oper_get(struct gm_node *n, uint32_t id)
{
	struct gm_oper	*o;

	HASH_FIND(hh, n->oper, &id, sizeof(id), o);
	if (o != NULL || HASH_COUNT(n->oper) >= gm_max_groups)
		return o;
	o = xcalloc(1, sizeof(*o));
	o->id = id;
	HASH_ADD(hh, n->oper, id, sizeof(o->id), o);
	return o;
}

static void *
gm_dup(const uint8_t *p, size_t len)
{
	uint8_t	*d = xmalloc(len ? len : 1);

	memcpy(d, p, len);
	return d;
}

/* A part of the GROUP_DESC reply; the last one ends the view: groups it
 * did not name are gone from the switch. */
static void
gm_on_desc(struct gm_node *n, struct rbuf *r, int more)
{
	struct gm_oper	*o, *t;
	struct gm_desc	 d;
	int		 rc;

	if (!n->reading) {
		n->gen++;
		n->reading = 1;
	}
	while ((rc = gm_desc_next(r, &d)) == 1) {
		if ((o = gm_oper_get(n, d.id)) == NULL)
			continue;	/* past max_groups */
		o->type = d.type;
		o->seen = n->gen;
		free(o->buckets);
		o->buckets = gm_dup(d.buckets, d.buckets_len);
		o->len = d.buckets_len;
	}
	gm_cnt.bad_replies += rc == -1;
	if (more)
		return;
	HASH_ITER(hh, n->oper, o, t)
		if (o->seen != n->gen)
			gm_oper_free(n, o);
	n->reading = 0;
	n->desc_xid = 0;
	n->reported = 1;
}

static void
gm_on_stats(struct gm_node *n, struct rbuf *r, int more)
{
	struct gm_oper		*o;
	struct gm_gstats	 s;
	int			 rc;

	while ((rc = gm_gstats_next(r, &s)) == 1) {
		HASH_FIND(hh, n->oper, &s.id, sizeof(s.id), o);
		if (o == NULL)
			continue;
		free(o->counters);
		o->counters = gm_dup(s.buckets, s.nbuckets * 16);
		o->st = s;
		o->st.buckets = o->counters;
	}
	gm_cnt.bad_replies += rc == -1;
	if (!more)
		n->stats_xid = 0;
}

void
gm_mp_reply(uint64_t dpid, int mp, uint16_t flags, uint32_t xid,
    struct rbuf *entries, void *arg)
{
	struct gm_node	*n = gm_node_get(dpid, 0);
	int		 more = (flags & OF_MPF_MORE) != 0;

	(void)arg;
	if (n == NULL || xid == 0)
		return;
	if (mp == OF_MP_GROUP_DESC && xid == n->desc_xid)
		gm_on_desc(n, entries, more);
	else if (mp == OF_MP_GROUP && xid == n->stats_xid)
		gm_on_stats(n, entries, more);
}

/* The switch refused a GROUP_MOD (or a group multipart): the config
 * group is marked, and shows in no operational view. */
void
gm_error(uint64_t dpid, uint32_t xid, uint16_t type, uint16_t code,
    void *arg)
{
	struct gm_node	*n = gm_node_get(dpid, 0);
	struct gm_cfg	*c, *t;

	(void)arg;
	if (n == NULL || xid == 0)
		return;
	if (xid == n->desc_xid || xid == n->stats_xid) {
		n->desc_xid = n->stats_xid = 0;
		n->reading = 0;
		return;
	}
	HASH_ITER(hh, n->cfg, c, t)
		if (c->xid == xid) {
			c->failed = 1;
			c->err_type = type;
			c->err_code = code;
			gm_cnt.switch_errors++;
			log_info("openflow:%" PRIu64 " refused group %" PRIu32
			    ": error type %u code %u", dpid, c->id, type,
			    code);
			return;
		}
}

void
gm_stop(void)
{
	struct gm_node	*n, *tn;
	struct gm_cfg	*c, *tc;

	HASH_ITER(hh, gm_nodes, n, tn) {
		HASH_ITER(hh, n->cfg, c, tc)
			gm_cfg_free(n, c);
		gm_oper_clear(n);
		HASH_DEL(gm_nodes, n);
		free(n);
	}
	memset(&gm_cnt, 0, sizeof(gm_cnt));
}

/* ---- reads ---- */

static const struct doc_module gm_fni_mod = {
	"flow-node-inventory", "urn:opendaylight:flow:inventory"
};
static const struct doc_module gm_gst_mod = {
	"opendaylight-group-statistics", "urn:opendaylight:group:statistics"
};

uint32_t
gm_config_count(uint64_t dpid)
{
	struct gm_node	*n = gm_node_get(dpid, 0);

	return n ? n->n_cfg : 0;
}

int
gm_has(uint64_t dpid, int oper, uint32_t id)
{
	struct gm_node	*n = gm_node_get(dpid, 0);
	struct gm_oper	*o;

	if (n == NULL)
		return 0;
	if (!oper)
		return gm_cfg_find(n, id) != NULL;
	HASH_FIND(hh, n->oper, &id, sizeof(id), o);
	return o != NULL && (oper == 1 || o->counters != NULL);
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
gm_render_cfg(struct doc_writer *w, uint64_t dpid, const struct gm_cfg *c)
{
	doc_entry(w);
	doc_leaf_uint(w, "group-id", c->id);
	doc_leaf_str(w, "group-type", gm_type_name(c->spec->type));
	if (c->spec->name[0] != '\0')
		doc_leaf_str(w, "group-name", c->spec->name);
	gm_render_buckets(w, dpid, 1, c->spec->b, c->spec->nb);
	doc_end(w);
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
static uint32_t
gm_wire_buckets(const struct gm_oper *o, struct gm_bucket *out)
{
	struct rbuf	r, a;
	uint16_t	len;
	uint32_t	n = 0;

	rbuf_init(&r, o->buckets, o->len);
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

static void
gm_render_gstats(struct doc_writer *w, const struct gm_oper *o,
    const struct doc_module *mod)
{
	struct rbuf	r;
	uint64_t	pk, by;
	size_t		i;

	doc_container(w, mod, "group-statistics");
	doc_leaf_uint(w, "group-id", o->id);
	doc_leaf_uint(w, "ref-count", o->st.ref_count);
	doc_leaf_uint(w, "packet-count", o->st.packets);
	doc_leaf_uint(w, "byte-count", o->st.bytes);
	doc_container(w, NULL, "duration");
	doc_leaf_uint(w, "second", o->st.sec);
	doc_leaf_uint(w, "nanosecond", o->st.nsec);
	doc_end(w);
	doc_container(w, NULL, "buckets");
	doc_list(w, NULL, "bucket-counter");
	rbuf_init(&r, o->counters, o->st.nbuckets * 16);
	for (i = 0; i < o->st.nbuckets && rbuf_get_u64(&r, &pk) == 0 &&
	    rbuf_get_u64(&r, &by) == 0; i++) {
		doc_entry(w);
		doc_leaf_uint(w, "bucket-id", i);
		doc_leaf_uint(w, "packet-count", pk);
		doc_leaf_uint(w, "byte-count", by);
		doc_end(w);
	}
	doc_end(w);
	doc_end(w);
	doc_end(w);
}

static void
gm_render_op(struct doc_writer *w, uint64_t dpid, const struct gm_oper *o)
{
	static struct gm_bucket	b[GM_MAX_BUCKETS];
	uint32_t		nb = gm_wire_buckets(o, b);

	doc_entry(w);
	doc_leaf_uint(w, "group-id", o->id);
	doc_leaf_str(w, "group-type", gm_type_name(o->type));
	gm_render_buckets(w, dpid, 0, b, nb);
	if (o->counters != NULL)
		gm_render_gstats(w, o, &gm_gst_mod);
	doc_end(w);
}

void
gm_render_list(struct doc_writer *w, uint64_t dpid, int oper, int one,
    uint32_t id)
{
	struct gm_node	*n = gm_node_get(dpid, 0);
	struct gm_cfg	*c, *tc;
	struct gm_oper	*o, *to;

	if (n == NULL || (oper ? HASH_COUNT(n->oper) : n->n_cfg) == 0)
		return;
	doc_list(w, &gm_fni_mod, "group");
	if (oper) {
		HASH_ITER(hh, n->oper, o, to)
			if (!one || o->id == id)
				gm_render_op(w, dpid, o);
	} else
		HASH_ITER(hh, n->cfg, c, tc)
			if (!one || c->id == id)
				gm_render_cfg(w, dpid, c);
	doc_end(w);
}

void
gm_render_stats(struct doc_writer *w, uint64_t dpid, uint32_t id)
{
	struct gm_node	*n = gm_node_get(dpid, 0);
	struct gm_oper	*o = NULL;

	if (n != NULL)
		HASH_FIND(hh, n->oper, &id, sizeof(id), o);
	if (o != NULL && o->counters != NULL)
		gm_render_gstats(w, o, &gm_gst_mod);
}
