/*
 * Unit tests of the embedded controller's groups and meters (of_gmcfg.c,
 * of_gmparse.c, of_gmwire.c) with no switch connected: a body in opendaylight-group-types' shape parsed
 * (buckets sorted by bucket-id, actions by order) and its refusals, the
 * ofp_buckets it becomes byte for byte, the GROUP_DESC and GROUP
 * statistics entries read back and their malformed forms, the config
 * store's bound; CSIT's m4.xml meter, its bands on the wire, and the
 * METER_CONFIG and METER statistics entries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "of_gmcfg.h"
#include "of_group.h"
#include "of_meter.h"

#include "check.h"

/* Parse the one group of a JSON body; NULL with err. */
static struct gm_spec *
parse(const char *json, char *err, size_t errlen)
{
	struct doc	 d;
	struct doc_node	 root, g;
	struct doc_iter	 it;
	struct gm_spec	*s = NULL;

	if (doc_parse(&d, HTTP_FMT_JSON, json, strlen(json), err, errlen)
	    == -1)
		return NULL;
	doc_root(&d, &root);
	doc_iter_init(&it, &root, "group");
	if (doc_iter_next(&it, &g) == 1)
		s = gm_parse(&g, err, errlen);
	doc_free(&d);
	return s;
}

static const char good[] =
    "{\"flow-node-inventory:group\":[{\"group-id\":7,"
    "\"group-type\":\"group-select\",\"group-name\":\"Foo\","
    "\"buckets\":{\"bucket\":["
    "{\"bucket-id\":2,\"weight\":3,\"action\":["
    "{\"order\":1,\"group-action\":{\"group-id\":9}},"
    "{\"order\":0,\"output-action\":{\"output-node-connector\":"
    "\"openflow:1:2\",\"max-length\":64}}]},"
    "{\"bucket-id\":1,\"weight\":1,\"action\":[{\"order\":0,"
    "\"output-action\":{\"output-node-connector\":\"CONTROLLER\"}}]}"
    "]}}]}";

static void
test_parse(void)
{
	struct gm_spec	*s;
	char		 err[256] = "";

	s = parse(good, err, sizeof(err));
	CHECK(s != NULL, "the body parses (%s)", err);
	if (s == NULL)
		return;
	CHECK(s->id == 7 && s->type == OF_GT_SELECT &&
	    strcmp(s->name, "Foo") == 0 && s->nb == 2,
	    "id, type, name and two buckets");
	CHECK(s->b[0].id == 1 && s->b[1].id == 2 && s->b[1].weight == 3,
	    "buckets in bucket-id order");
	CHECK(s->b[1].nact == 2 && s->b[1].act[0].kind == GM_ACT_OUTPUT &&
	    s->b[1].act[0].arg == 2 && s->b[1].act[0].max_len == 64 &&
	    s->b[1].act[1].kind == GM_ACT_GROUP && s->b[1].act[1].arg == 9,
	    "actions in order: output 2 (max 64), then group 9");
	CHECK(s->b[0].act[0].arg == 0xfffffffdu &&
	    s->b[0].watch_port == 0xffffffffu &&
	    s->b[0].watch_group == 0xffffffffu,
	    "CONTROLLER; watches left out are ANY");
	free(s);
}

static void
test_refused(void)
{
	static const struct {
		const char	*body;
		const char	*names;
	} bad[] = {
		{ "{\"group\":[{\"group-type\":\"group-all\"}]}", "group-id" },
		{ "{\"group\":[{\"group-id\":1}]}", "group-type" },
		{ "{\"group\":[{\"group-id\":4294967041,"
		  "\"group-type\":\"group-all\"}]}", "group-id" },
		{ "{\"group\":[{\"group-id\":1,\"group-type\":\"group-x\"}]}",
		  "group-type" },
		{ "{\"group\":[{\"group-id\":1,\"group-type\":\"group-all\","
		  "\"buckets\":{\"bucket\":[{\"bucket-id\":0},"
		  "{\"bucket-id\":0}]}}]}", "twice" },
		{ "{\"group\":[{\"group-id\":1,\"group-type\":\"group-all\","
		  "\"buckets\":{\"bucket\":[{\"weight\":1}]}}]}", "bucket-id" },
		{ "{\"group\":[{\"group-id\":1,\"group-type\":\"group-all\","
		  "\"buckets\":{\"bucket\":[{\"bucket-id\":0,\"action\":[{"
		  "\"order\":0,\"pop-vlan-action\":{}}]}]}}]}", "only" },
		{ "{\"group\":[{\"group-id\":1,\"group-type\":\"group-all\","
		  "\"buckets\":{\"bucket\":[{\"bucket-id\":0,\"action\":[{"
		  "\"order\":0,\"output-action\":{\"output-node-connector\":"
		  "\"eth0\"}}]}]}}]}", "output-node-connector" },
	};
	struct gm_spec	*s;
	char		 err[256];
	size_t		 i;

	for (i = 0; i < nitems(bad); i++) {
		err[0] = '\0';
		s = parse(bad[i].body, err, sizeof(err));
		CHECK(s == NULL && strstr(err, bad[i].names) != NULL,
		    "body %zu refused naming %s: %s", i, bad[i].names, err);
		free(s);
	}
}

/* The ofp_buckets of the good body (OpenFlow 1.3.5 section 7.3.4.2). */
static void
test_wire(void)
{
	static const uint8_t	want[] = {
		0, 32, 0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0, 0, 0, 0,
		0, 0, 0, 16, 0xff, 0xff, 0xff, 0xfd, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 40, 0, 3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0, 0, 0, 0,
		0, 0, 0, 16, 0, 0, 0, 2, 0, 64, 0, 0, 0, 0, 0, 0,
		0, 22, 0, 8, 0, 0, 0, 9,
	};
	struct gm_spec	*s;
	uint8_t		 buf[256];
	char		 err[256];
	size_t		 len;

	s = parse(good, err, sizeof(err));
	CHECK(s != NULL, "the body parses");
	if (s == NULL)
		return;
	len = gm_buckets_wire(s, buf, sizeof(buf));
	CHECK(len == sizeof(want) && memcmp(buf, want, len) == 0,
	    "ofp_buckets byte for byte (%zu bytes)", len);
	CHECK(gm_buckets_wire(s, buf, 40) == 0, "too small a buffer: 0");
	free(s);
}

static void
test_replies(void)
{
	static const uint8_t	desc[] = {
		0, 24, OF_GT_INDIRECT, 0, 0, 0, 0, 5,
		0, 16, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0,
	};
	static const uint8_t	stats[] = {
		0, 56, 0, 0, 0, 0, 0, 5, 0, 0, 0, 2, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 3, 0xe8,
		0, 0, 0, 4, 0, 0, 0, 5,
		0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 3, 0xe8,
	};
	struct gm_desc		d;
	struct gm_gstats	g;
	struct rbuf		r;

	rbuf_init(&r, desc, sizeof(desc));
	CHECK(gm_desc_next(&r, &d) == 1 && d.id == 5 &&
	    d.type == OF_GT_INDIRECT && d.len == 16 &&
	    gm_desc_next(&r, &d) == 0, "a GROUP_DESC entry, then the end");
	rbuf_init(&r, desc, sizeof(desc) - 1);
	CHECK(gm_desc_next(&r, &d) == -1, "a cut GROUP_DESC entry: -1");
	rbuf_init(&r, stats, sizeof(stats));
	CHECK(gm_gstats_next(&r, &g) == 1 && g.id == 5 && g.refs == 2 &&
	    g.packets == 10 && g.bytes == 1000 && g.sec == 4 &&
	    g.nsec == 5 && g.ncounters == 1 && gm_gstats_next(&r, &g) == 0,
	    "a GROUP statistics entry with one bucket counter");
	rbuf_init(&r, stats, 36);
	CHECK(gm_gstats_next(&r, &g) == -1, "a cut GROUP entry: -1");
	CHECK(strcmp(gm_type_name(OF_GT_FF), "group-ff") == 0,
	    "type names");
}

/* The node's bound: past it a PUT is refused and counted; a replace
 * is not a new group. */
static void
test_bound(void)
{
	struct gm_spec	*s;
	char		 err[256];
	int		 i, rc[4];

	gm_set_max(GM_GROUP, 2);
	for (i = 0; i < 4; i++) {
		s = parse(good, err, sizeof(err));
		s->id = (uint32_t)(i < 3 ? i : 0);
		if ((rc[i] = gm_put(GM_GROUP, 1, s->id, s)) == -1)
			free(s);
	}
	CHECK(rc[0] == 1 && rc[1] == 1 && rc[2] == -1 && rc[3] == 0 &&
	    gm_config_count(GM_GROUP, 1) == 2 &&
	    gm_counters(GM_GROUP)->refused_full == 1 &&
	    gm_config_count(GM_METER, 1) == 0,
	    "two groups held, the third refused, a replace taken");
	CHECK(gm_delete(GM_GROUP, 1, 1) == 0 &&
	    gm_delete(GM_GROUP, 1, 1) == -1 &&
	    gm_delete(GM_METER, 1, 0) == -1 &&
	    gm_config_count(GM_GROUP, 1) == 1,
	    "a delete, and again: none; no meter of that id");
	gm_stop();
	CHECK(gm_config_count(GM_GROUP, 1) == 0, "stop frees them");
}

/* CSIT's m4.xml, as the suite sends it. */
static const char m4[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>"
    "<meter xmlns=\"urn:opendaylight:flow:inventory\">"
    "<flags>meter-kbps</flags><meter-band-headers><meter-band-header>"
    "<band-id>0</band-id><drop-rate>20</drop-rate>"
    "<drop-burst-size>200</drop-burst-size><meter-band-types>"
    "<flags>ofpmbt-drop</flags></meter-band-types></meter-band-header>"
    "</meter-band-headers><meter-id>1</meter-id><meter-name>Foo"
    "</meter-name></meter>";

static struct gm_mspec *
mparse(const char *body, enum http_fmt fmt, char *err, size_t errlen)
{
	struct doc	 d;
	struct doc_node	 root, m;
	struct doc_iter	 it;
	struct gm_mspec	*s = NULL;

	if (doc_parse(&d, fmt, body, strlen(body), err, errlen) == -1)
		return NULL;
	doc_root(&d, &root);
	doc_iter_init(&it, &root, "meter");
	if (doc_iter_next(&it, &m) == 1)
		s = gm_mparse(&m, err, errlen);
	doc_free(&d);
	return s;
}

static void
test_meter(void)
{
	static const uint8_t	want[] = {
		0, 1, 0, 16, 0, 0, 0, 20, 0, 0, 0, 200, 0, 0, 0, 0,
		0, 2, 0, 16, 0, 0, 0, 5, 0, 0, 0, 6, 12, 0, 0, 0,
	};
	struct gm_mspec	*s;
	uint8_t		 buf[64];
	char		 err[256] = "", f[64];

	s = mparse(m4, HTTP_FMT_XML, err, sizeof(err));
	CHECK(s != NULL, "m4.xml parses (%s)", err);
	if (s == NULL)
		return;
	CHECK(s->id == 1 && s->flags == OF_MF_KBPS &&
	    strcmp(s->name, "Foo") == 0 && s->nb == 1 &&
	    s->b[0].type == OF_MBT_DROP && s->b[0].rate == 20 &&
	    s->b[0].burst == 200, "id 1, kbps, Foo, one drop band 20/200");
	s->b[1] = (struct gm_band){ 1, OF_MBT_DSCP_REMARK, 5, 6, 12 };
	s->nb = 2;
	CHECK(gm_bands_wire(s, buf, sizeof(buf)) == sizeof(want) &&
	    memcmp(buf, want, sizeof(want)) == 0,
	    "ofp_meter_bands byte for byte");
	free(s);
	gm_mflags_text(OF_MF_KBPS | OF_MF_BURST | OF_MF_STATS, f, sizeof(f));
	CHECK(strcmp(f, "meter-kbps meter-burst meter-stats") == 0,
	    "flags as words: %s", f);
	s = mparse("{\"meter\":[{\"meter-id\":2,\"flags\":\"meter-kbps "
	    "meter-bogus\"}]}", HTTP_FMT_JSON, err, sizeof(err));
	CHECK(s == NULL && strstr(err, "meter-bogus") != NULL,
	    "an unknown flag named: %s", err);
	s = mparse("{\"meter\":[{\"meter-id\":2,\"meter-band-headers\":{"
	    "\"meter-band-header\":[{\"band-id\":0,\"meter-band-types\":{"
	    "\"flags\":\"ofpmbt-drop\"}},{\"band-id\":0,"
	    "\"meter-band-types\":{\"flags\":\"ofpmbt-drop\"}}]}}]}",
	    HTTP_FMT_JSON, err, sizeof(err));
	CHECK(s == NULL && strstr(err, "twice") != NULL,
	    "a band id given twice: %s", err);
	s = mparse("{\"meter\":[{\"meter-id\":4294901761}]}",
	    HTTP_FMT_JSON, err, sizeof(err));
	CHECK(s == NULL && strstr(err, "meter-id") != NULL,
	    "an id past OFPM_MAX: %s", err);
}

static void
test_meter_replies(void)
{
	static const uint8_t	conf[] = {
		0, 24, 0, 1, 0, 0, 0, 9,
		0, 1, 0, 16, 0, 0, 0, 20, 0, 0, 0, 200, 0, 0, 0, 0,
	};
	static const uint8_t	stats[] = {
		0, 0, 0, 9, 0, 56, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3,
		0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 70,
		0, 0, 0, 1, 0, 0, 0, 2,
		0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 10,
	};
	struct gm_desc		d;
	struct gm_gstats	g;
	struct gm_band		b[GM_MAX_BANDS];
	struct rbuf		r;

	rbuf_init(&r, conf, sizeof(conf));
	CHECK(gm_mconfig_next(&r, &d) == 1 && d.id == 9 &&
	    d.type == OF_MF_KBPS && d.len == 16 &&
	    gm_mconfig_next(&r, &d) == 0, "a METER_CONFIG entry");
	CHECK(gm_wire_bands(d.blob, d.len, b) == 1 && b[0].id == 0 &&
	    b[0].type == OF_MBT_DROP && b[0].rate == 20 && b[0].burst == 200,
	    "its band");
	rbuf_init(&r, stats, sizeof(stats));
	CHECK(gm_mstats_next(&r, &g) == 1 && g.id == 9 && g.refs == 3 &&
	    g.packets == 7 && g.bytes == 70 && g.sec == 1 && g.nsec == 2 &&
	    g.ncounters == 1 && gm_mstats_next(&r, &g) == 0,
	    "a METER statistics entry with one band's");
	rbuf_init(&r, stats, 20);
	CHECK(gm_mstats_next(&r, &g) == -1, "a cut METER entry: -1");
}

static const struct check_case cases[] = {
	CASE(test_parse),
	CASE(test_refused),
	CASE(test_wire),
	CASE(test_replies),
	CASE(test_bound),
	CASE(test_meter),
	CASE(test_meter_replies),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
