/*
 * Group and meter bodies in opendaylight-group-types' and
 * opendaylight-meter-types' shapes (a config entry, or an RPC's input),
 * read into specs (of_gmcfg.h); every refusal names its field.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "of_actions.h"
#include "of_flowcfg.h"
#include "of_gmcfg.h"
#include "of_group.h"
#include "of_meter.h"

#define GM_ERR(...)	do {						\
	snprintf(err, errlen, __VA_ARGS__);				\
	return -1;							\
} while (0)

/* A YANG enumeration or bits word and its OpenFlow value. */
struct gm_word {
	const char	*name;
	uint16_t	 v;
};

/* The row of t named s, or NULL. */
static const struct gm_word *
gm_word_by_name(const struct gm_word *t, size_t n, const char *s)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(s, t[i].name) == 0)
			return &t[i];
	return NULL;
}

/* The name of value v in t, or dflt. */
static const char *
gm_word_name(const struct gm_word *t, size_t n, uint16_t v,
    const char *dflt)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (t[i].v == v)
			return t[i].name;
	return dflt;
}

static const struct gm_word gm_types[] = {
	{ "group-all", OF_GT_ALL }, { "group-select", OF_GT_SELECT },
	{ "group-indirect", OF_GT_INDIRECT }, { "group-ff", OF_GT_FF },
};

const char *
gm_type_name(uint8_t type)
{
	return gm_word_name(gm_types, nitems(gm_types), type, "group-all");
}

static int
gm_type_parse(const char *s, uint8_t *type)
{
	const struct gm_word	*w;

	if ((w = gm_word_by_name(gm_types, nitems(gm_types), s)) == NULL)
		return -1;
	*type = (uint8_t)w->v;
	return 0;
}

static int	gm_name(const struct doc_node *, const char *, char *, char *,
		    size_t);

/* ---- groups ---- */

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

/* A mandatory unsigned leaf (a list's key, the group an action names):
 * missing is refused, the leaf named after where it was looked for. */
static int
gm_uint_need(const struct doc_node *n, const char *where, const char *name,
    uint64_t max, uint32_t *out, char *err, size_t errlen)
{
	uint64_t	v;
	int		given;

	if (gm_uint(n, name, max, &v, &given, err, errlen) == -1)
		return -1;
	if (!given)
		GM_ERR("%s%s missing", where, name);
	*out = (uint32_t)v;
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
		return gm_uint_need(&c, "group-action: ", "group-id",
		    GM_GROUP_MAX, &x->arg, err, errlen);
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

	if (gm_uint_need(bn, "bucket: ", "bucket-id", UINT32_MAX, &b->id, err,
	    errlen) == -1)
		return -1;
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
	char		t[32];

	if (gm_uint_need(g, "", "group-id", GM_GROUP_MAX, &s->id, err,
	    errlen) == -1)
		return -1;
	if (doc_get_string(g, "group-type", t, sizeof(t)) == -1 ||
	    gm_type_parse(t, &s->type) == -1)
		GM_ERR("group-type: expected group-all, group-select, "
		    "group-indirect or group-ff");
	return gm_name(g, "group-name", s->name, err, errlen);
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

/* A name leaf of at most GM_MAX_NAME bytes, "" when absent. */
static int
gm_name(const struct doc_node *g, const char *leaf, char *name, char *err,
    size_t errlen)
{
	struct doc_node	n;

	name[0] = '\0';
	if (doc_child(g, leaf, &n) == 0 &&
	    doc_string(&n, name, GM_MAX_NAME + 1) == -1)
		GM_ERR("%s: longer than %d bytes", leaf, GM_MAX_NAME);
	return 0;
}

/* ---- meters ---- */

static const struct gm_word gm_mflags[] = {
	{ "meter-kbps", OF_MF_KBPS }, { "meter-pktps", OF_MF_PKTPS },
	{ "meter-burst", OF_MF_BURST }, { "meter-stats", OF_MF_STATS },
};

static const struct gm_word gm_bands[] = {
	{ "ofpmbt-drop", OF_MBT_DROP },
	{ "ofpmbt-dscp-remark", OF_MBT_DSCP_REMARK },
};

void
gm_mflags_text(uint16_t flags, char *s, size_t cap)
{
	size_t	i, at = 0;

	s[0] = '\0';
	for (i = 0; i < nitems(gm_mflags) && at < cap; i++)
		if (flags & gm_mflags[i].v)
			at += (size_t)snprintf(s + at, cap - at, "%s%s",
			    at ? " " : "", gm_mflags[i].name);
}

const char *
gm_band_name(uint16_t type)
{
	return gm_word_name(gm_bands, nitems(gm_bands), type,
	    "ofpmbt-experimenter");
}

/* meter-flags: bits named by words separated by spaces (YANG bits,
 * RFC 7950 section 9.7). */
static int
gm_mflags_parse(const struct doc_node *m, uint16_t *flags, char *err,
    size_t errlen)
{
	const struct gm_word	*f;
	char			 s[128], *w, *save = NULL;

	*flags = 0;
	if (doc_get_string(m, "flags", s, sizeof(s)) == -1)
		return 0;
	for (w = strtok_r(s, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save)) {
		f = gm_word_by_name(gm_mflags, nitems(gm_mflags), w);
		if (f == NULL)
			GM_ERR("flags: '%s' is not meter-kbps, meter-pktps, "
			    "meter-burst or meter-stats", w);
		*flags |= f->v;
	}
	return 0;
}

/* The band's rate and burst: the type's own leaves (drop-rate ...), or
 * the generic band-rate and band-burst-size. */
static int
gm_band_rates(const struct doc_node *h, struct gm_band *b, const char *pre,
    char *err, size_t errlen)
{
	char		r[48], bs[48];
	uint64_t	v;
	int		given;

	snprintf(r, sizeof(r), "%s-rate", pre);
	snprintf(bs, sizeof(bs), "%s-burst-size", pre);
	if (gm_uint(h, r, UINT32_MAX, &v, &given, err, errlen) == -1)
		return -1;
	if (!given && gm_uint(h, "band-rate", UINT32_MAX, &v, &given, err,
	    errlen) == -1)
		return -1;
	b->rate = given ? (uint32_t)v : 0;
	if (gm_uint(h, bs, UINT32_MAX, &v, &given, err, errlen) == -1)
		return -1;
	if (!given && gm_uint(h, "band-burst-size", UINT32_MAX, &v, &given,
	    err, errlen) == -1)
		return -1;
	b->burst = given ? (uint32_t)v : 0;
	return 0;
}

static int
gm_band(const struct doc_node *h, struct gm_band *b, char *err,
    size_t errlen)
{
	const struct gm_word	*bt;
	struct doc_node		 t;
	char			 s[48];
	uint64_t		 v;
	int			 given;

	if (gm_uint_need(h, "meter-band-header: ", "band-id", UINT32_MAX,
	    &b->id, err, errlen) == -1)
		return -1;
	if (doc_child(h, "meter-band-types", &t) == -1 ||
	    doc_get_string(&t, "flags", s, sizeof(s)) == -1)
		GM_ERR("meter-band-types: flags missing");
	if ((bt = gm_word_by_name(gm_bands, nitems(gm_bands), s)) == NULL)
		GM_ERR("meter-band-types: flags '%s' is not ofpmbt-drop or "
		    "ofpmbt-dscp-remark", s);
	b->type = bt->v;
	if (b->type == OF_MBT_DROP)
		return gm_band_rates(h, b, "drop", err, errlen);
	if (gm_uint(h, "perc_level", 63, &v, &given, err, errlen) == -1)
		return -1;
	b->prec = given ? (uint8_t)v : 0;
	return gm_band_rates(h, b, "dscp-remark", err, errlen);
}

static int
gm_mbands(const struct doc_node *m, struct gm_mspec *s, char *err,
    size_t errlen)
{
	struct doc_node	hs, h;
	struct doc_iter	it;
	uint32_t	i;

	if (doc_child(m, "meter-band-headers", &hs) == -1)
		return 0;
	doc_iter_init(&it, &hs, "meter-band-header");
	while (doc_iter_next(&it, &h) == 1) {
		if (s->nb == GM_MAX_BANDS)
			GM_ERR("meter-band-headers: more than %d bands",
			    GM_MAX_BANDS);
		if (gm_band(&h, &s->b[s->nb], err, errlen) == -1)
			return -1;
		for (i = 0; i < s->nb; i++)
			if (s->b[i].id == s->b[s->nb].id)
				GM_ERR("band-id %" PRIu32 " given twice",
				    s->b[i].id);
		s->nb++;
	}
	return 0;
}

struct gm_mspec *
gm_mparse(const struct doc_node *m, char *err, size_t errlen)
{
	struct gm_mspec	*s = xcalloc(1, sizeof(*s));

	if (gm_uint_need(m, "", "meter-id", GM_METER_MAX, &s->id, err,
	    errlen) == -1)
		goto bad;
	if (gm_mflags_parse(m, &s->flags, err, errlen) == -1 ||
	    gm_name(m, "meter-name", s->name, err, errlen) == -1 ||
	    gm_mbands(m, s, err, errlen) == -1)
		goto bad;
	return s;
bad:
	free(s);
	return NULL;
}

void *
gm_parse_kind(enum gm_kind k, const struct doc_node *n, uint32_t *id,
    char *err, size_t errlen)
{
	struct gm_spec	*g;
	struct gm_mspec	*m;

	if (k == GM_GROUP) {
		if ((g = gm_parse(n, err, errlen)) != NULL)
			*id = g->id;
		return g;
	}
	if ((m = gm_mparse(n, err, errlen)) != NULL)
		*id = m->id;
	return m;
}
