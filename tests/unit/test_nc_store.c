/*
 * NETCONF datastores: edit-config operations and errors (RFC 6241 7.2),
 * subtree filters after the examples of RFC 6241 section 6.4 on the
 * sbsim-device model, XPath filters, locks, candidate, get-schema and
 * the schema list (RFC 6022).
 */
#include <sys/time.h>

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libyang/libyang.h>

#include "check.h"
#include "log.h"
#include "nc_store.h"

#define DEV	"xmlns=\"urn:sbsim:device\""
#define RTS	"xmlns=\"urn:sbsim:routes\""
#define NCNS	"xmlns:nc=\"urn:ietf:params:xml:ns:netconf:base:1.0\""

static const char *
tag(const struct nc_error *e)
{
	return e ? e->tag : "ok";
}

/* Edit running as session 1 and return the first error tag ("ok"). */
static const char *
edit(struct nc_store *st, enum nc_ds ds, const char *xml, enum nc_defop d)
{
	static char last[64];
	struct nc_edit_opts o = { d, NC_ERROP_STOP, NC_TEST_THEN_SET };
	struct nc_error *e;

	e = nc_store_edit(st, 1, ds, xml, &o, NULL);
	snprintf(last, sizeof(last), "%s", tag(e));
	if (e != NULL)
		printf("#   %s: %s (%s)\n", e->tag, e->message ? e->message :
		    "", e->path ? e->path : "");
	nc_error_free(e);
	return last;
}

static char *
getcfg(struct nc_store *st, enum nc_ds ds, enum nc_filter_type t,
    const char *text)
{
	struct nc_filter f = { t, text, NULL };
	struct nc_error *e;
	char *xml;

	e = nc_store_get_config(st, ds, &f, &xml);
	if (e != NULL) {
		printf("#   get-config: %s %s\n", e->tag, e->message);
		nc_error_free(e);
		return strdup("ERROR");
	}
	return xml;
}

static int
has(const char *s, const char *sub)
{
	return s != NULL && strstr(s, sub) != NULL;
}

static const char *base =
    "<interfaces " DEV ">"
    "<interface><name>eth0</name><description>up</description>"
    "<mtu>1500</mtu><address>10.0.0.1/24</address></interface>"
    "<interface><name>eth1</name><enabled>false</enabled>"
    "<mtu>9000</mtu></interface>"
    "<interface><name>lo</name><mtu>1500</mtu></interface>"
    "</interfaces>";

static void
test_edit_errors(struct nc_store *st)
{
	char *x;

	CHECK(strcmp(edit(st, NC_DS_RUNNING, base, NC_DEFOP_MERGE),
	    "ok") == 0, "merge three interfaces");
	CHECK(nc_store_count(st, NC_DS_RUNNING) == 4, "3 entries + 1 address");
	CHECK(strcmp(edit(st, NC_DS_RUNNING, "<interfaces " DEV "><interface "
	    NCNS " nc:operation=\"create\"><name>eth0</name></interface>"
	    "</interfaces>", NC_DEFOP_MERGE), "data-exists") == 0,
	    "create existing -> data-exists");
	CHECK(strcmp(edit(st, NC_DS_RUNNING, "<interfaces " DEV "><interface "
	    NCNS " nc:operation=\"delete\"><name>eth9</name></interface>"
	    "</interfaces>", NC_DEFOP_MERGE), "data-missing") == 0,
	    "delete missing -> data-missing");
	CHECK(strcmp(edit(st, NC_DS_RUNNING, "<interfaces " DEV "><interface "
	    NCNS " nc:operation=\"remove\"><name>eth9</name></interface>"
	    "</interfaces>", NC_DEFOP_MERGE), "ok") == 0,
	    "remove missing -> ok");
	CHECK(strcmp(edit(st, NC_DS_RUNNING, "<interfaces " DEV "><interface>"
	    "<name>eth0</name><mtu>20</mtu></interface></interfaces>",
	    NC_DEFOP_MERGE), "invalid-value") == 0,
	    "mtu out of range -> invalid-value");
	CHECK(strcmp(edit(st, NC_DS_RUNNING, "<interfaces " DEV "><interface>"
	    "<name>eth0</name><speed>10</speed></interface></interfaces>",
	    NC_DEFOP_MERGE), "unknown-element") == 0,
	    "unknown element -> unknown-element");
	CHECK(strcmp(edit(st, NC_DS_RUNNING, "<interfaces " DEV "><interface>"
	    "<mtu>1500</mtu></interface></interfaces>", NC_DEFOP_MERGE),
	    "missing-element") == 0, "missing key -> missing-element");
	CHECK(strcmp(edit(st, NC_DS_RUNNING, "<bogus xmlns=\"urn:x\"/>",
	    NC_DEFOP_MERGE), "unknown-namespace") == 0,
	    "unknown namespace -> unknown-namespace");
	CHECK(strcmp(edit(st, NC_DS_RUNNING, "<interfaces " DEV "><interface>",
	    NC_DEFOP_MERGE), "malformed-message") == 0,
	    "broken XML -> malformed-message");
	CHECK(strcmp(edit(st, NC_DS_RUNNING, "<routes " RTS "><route><prefix>"
	    "10.1.0.0/16</prefix></route></routes>", NC_DEFOP_MERGE),
	    "missing-element") == 0, "mandatory next-hop missing");
	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_NONE, NULL);
	CHECK(has(x, "<mtu>1500</mtu>") && !has(x, "<mtu>20<") &&
	    !has(x, "routes"), "failed edits left running unchanged");
	free(x);
}

static void
test_edit_ops(struct nc_store *st)
{
	struct nc_edit_opts o = { NC_DEFOP_MERGE, NC_ERROP_CONTINUE,
	    NC_TEST_THEN_SET };
	struct nc_edit_result res;
	struct nc_error *e;
	char *x;

	/* merge: given leaves change, others stay. */
	CHECK(strcmp(edit(st, NC_DS_RUNNING, "<interfaces " DEV "><interface>"
	    "<name>eth0</name><mtu>1400</mtu></interface></interfaces>",
	    NC_DEFOP_MERGE), "ok") == 0, "merge mtu");
	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_NONE, NULL);
	CHECK(has(x, "<mtu>1400</mtu>") && has(x, "<description>up<"),
	    "merge keeps the description");
	free(x);
	/* replace: the entry becomes exactly what is given. */
	CHECK(strcmp(edit(st, NC_DS_RUNNING, "<interfaces " DEV "><interface "
	    NCNS " nc:operation=\"replace\"><name>eth0</name><mtu>1300</mtu>"
	    "</interface></interfaces>", NC_DEFOP_MERGE), "ok") == 0,
	    "replace eth0");
	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_NONE, NULL);
	CHECK(has(x, "<mtu>1300</mtu>") && !has(x, "<description>up<") &&
	    !has(x, "10.0.0.1/24"), "replace dropped description, address");
	free(x);
	/* delete a leaf given without a value */
	CHECK(strcmp(edit(st, NC_DS_RUNNING, "<interfaces " DEV "><interface>"
	    "<name>eth1</name><mtu " NCNS " nc:operation=\"delete\"/>"
	    "</interface></interfaces>", NC_DEFOP_MERGE), "ok") == 0,
	    "delete leaf with empty value");
	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_NONE, NULL);
	CHECK(!has(x, "<mtu>9000</mtu>"), "eth1 mtu deleted");
	free(x);
	/* default-operation none: only the nc:operation nodes act. */
	CHECK(strcmp(edit(st, NC_DS_RUNNING, "<interfaces " DEV "><interface>"
	    "<name>lo</name><mtu>9216</mtu><description " NCNS
	    " nc:operation=\"create\">loop</description></interface>"
	    "</interfaces>", NC_DEFOP_NONE), "ok") == 0, "none + create");
	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_NONE, NULL);
	CHECK(has(x, "<description>loop<") && !has(x, "<mtu>9216<"),
	    "none left mtu, created description");
	free(x);
	CHECK(strcmp(edit(st, NC_DS_RUNNING, "<interfaces " DEV "><interface>"
	    "<name>nope</name></interface></interfaces>", NC_DEFOP_NONE),
	    "data-missing") == 0, "none on missing data -> data-missing");
	/* continue-on-error: the good part is applied, the error listed. */
	e = nc_store_edit(st, 1, NC_DS_RUNNING, "<interfaces " DEV
	    "><interface " NCNS " nc:operation=\"create\"><name>eth0</name>"
	    "</interface><interface><name>eth2</name></interface>"
	    "</interfaces>", &o, &res);
	CHECK(e != NULL && strcmp(e->tag, "data-exists") == 0 &&
	    e->next == NULL && e->path && has(e->path, "eth0"),
	    "continue-on-error reports data-exists at %s",
	    e && e->path ? e->path : "?");
	nc_error_free(e);
	CHECK(res.created == 1, "eth2 created (%u)", res.created);
	/* test-only changes nothing */
	o.errop = NC_ERROP_ROLLBACK;
	o.testop = NC_TEST_ONLY;
	e = nc_store_edit(st, 1, NC_DS_RUNNING, "<interfaces " DEV
	    "><interface><name>eth3</name></interface></interfaces>", &o,
	    NULL);
	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_NONE, NULL);
	CHECK(e == NULL && !has(x, "eth3") && has(x, "eth2"),
	    "test-only leaves running alone");
	free(x);
	/* replace at the top: the whole container is replaced. */
	CHECK(strcmp(edit(st, NC_DS_RUNNING, "<interfaces " DEV "><interface>"
	    "<name>eth2</name></interface></interfaces>", NC_DEFOP_REPLACE),
	    "ok") == 0, "default-operation replace");
	CHECK(nc_store_count(st, NC_DS_RUNNING) == 1, "only eth2 left");
	edit(st, NC_DS_RUNNING, base, NC_DEFOP_REPLACE);
}

/* RFC 6241 section 6.4 examples, on interfaces instead of users. */
static void
test_subtree(struct nc_store *st)
{
	char *x;

	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_NONE, NULL);
	CHECK(has(x, "eth0") && has(x, "eth1") && has(x, "lo"),
	    "6.4.1 no filter: everything");
	free(x);
	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_SUBTREE, "");
	CHECK(x && *x == '\0', "6.4.2 empty filter: nothing");
	free(x);
	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_SUBTREE,
	    "<interfaces " DEV "/>");
	CHECK(has(x, "eth0") && has(x, "<mtu>9000<"),
	    "6.4.3 selection of the top container: all of it");
	free(x);
	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_SUBTREE,
	    "<filter type=\"subtree\"><interfaces " DEV "><interface>"
	    "<name/></interface></interfaces></filter>");
	CHECK(has(x, "<name>eth0</name>") && has(x, "<name>lo</name>") &&
	    !has(x, "mtu"), "6.4.4 names only: %s", x);
	free(x);
	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_SUBTREE,
	    "<interfaces " DEV "><interface><name>eth1</name></interface>"
	    "</interfaces>");
	CHECK(has(x, "eth1") && has(x, "<mtu>9000<") && !has(x, "eth0") &&
	    has(x, "<enabled>false<"),
	    "6.4.5 one entry by content match: all of it");
	free(x);
	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_SUBTREE,
	    "<interfaces " DEV "><interface><name>eth0</name><mtu/>"
	    "</interface><interface><name>lo</name><description/>"
	    "</interface></interfaces>");
	CHECK(has(x, "<name>eth0</name><mtu>1500</mtu>") &&
	    has(x, "<name>lo</name></interface>") && !has(x, "<address>") &&
	    !has(x, "eth1"), "6.4.6 specific fields of specific entries: %s",
	    x);
	free(x);
	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_SUBTREE,
	    "<interfaces " DEV "><interface><mtu>1500</mtu><name/>"
	    "</interface></interfaces>");
	CHECK(has(x, "eth0") && has(x, "lo") && !has(x, "eth1"),
	    "content match on a non-key leaf: %s", x);
	free(x);
	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_SUBTREE,
	    "<interfaces " DEV "><interface><name>eth7</name></interface>"
	    "</interfaces>");
	CHECK(x && *x == '\0', "content match on nothing: empty");
	free(x);
	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_SUBTREE,
	    "<interfaces xmlns=\"urn:other\"/>");
	CHECK(x && *x == '\0', "wrong namespace selects nothing");
	free(x);
	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_SUBTREE,
	    "<interfaces " DEV "><interface><name>eth0</name></interface>"
	    "</interfaces><routes " RTS "/>");
	CHECK(has(x, "eth0") && !has(x, "eth1"), "multiple subtrees");
	free(x);
}

static void
test_xpath(struct nc_store *st)
{
	static const char *const ns[] = { "d", "urn:sbsim:device", NULL };
	struct nc_filter f = { NC_FILTER_XPATH,
	    "/d:interfaces/d:interface[d:mtu='9000']", ns };
	struct nc_error *e;
	char *x;

	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_XPATH,
	    "/sbsim-device:interfaces/interface[name='eth0']/mtu");
	CHECK(has(x, "<name>eth0</name><mtu>1500</mtu></interface>") &&
	    !has(x, "eth1"), "xpath selects a leaf with its keys: %s", x);
	free(x);
	e = nc_store_get_config(st, NC_DS_RUNNING, &f, &x);
	CHECK(e == NULL && has(x, "eth1") && !has(x, "eth0"),
	    "xpath with XML prefixes: %s", x ? x : "");
	free(x);
	nc_error_free(e);
	f.text = "/sbsim-device:interfaces/[";
	e = nc_store_get_config(st, NC_DS_RUNNING, &f, &x);
	CHECK(e != NULL && strcmp(e->tag, "invalid-value") == 0,
	    "bad xpath -> invalid-value");
	nc_error_free(e);
}

static void
test_locks_candidate(struct nc_store *st)
{
	struct nc_edit_opts o = { NC_DEFOP_MERGE, NC_ERROP_STOP,
	    NC_TEST_THEN_SET };
	struct nc_error *e;
	char *x;

	e = nc_store_lock(st, 1, NC_DS_RUNNING);
	CHECK(e == NULL, "session 1 locks running");
	e = nc_store_lock(st, 2, NC_DS_RUNNING);
	CHECK(e && strcmp(e->tag, "lock-denied") == 0 && e->session_id == 1,
	    "session 2 lock -> lock-denied, held by 1");
	nc_error_free(e);
	e = nc_store_edit(st, 2, NC_DS_RUNNING, "<interfaces " DEV
	    "><interface><name>x</name></interface></interfaces>", &o, NULL);
	CHECK(e && strcmp(e->tag, "in-use") == 0, "edit by 2 -> in-use");
	nc_error_free(e);
	e = nc_store_unlock(st, 2, NC_DS_RUNNING);
	CHECK(e && strcmp(e->tag, "operation-failed") == 0,
	    "unlock by non-owner -> operation-failed");
	nc_error_free(e);
	nc_store_release_session(st, 1);
	CHECK(nc_store_lock_owner(st, NC_DS_RUNNING) == 0,
	    "session end releases its lock");

	CHECK(strcmp(edit(st, NC_DS_CANDIDATE, "<interfaces " DEV
	    "><interface><name>cand0</name></interface></interfaces>",
	    NC_DEFOP_MERGE), "ok") == 0, "edit candidate");
	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_NONE, NULL);
	CHECK(!has(x, "cand0"), "running unchanged before commit");
	free(x);
	e = nc_store_lock(st, 3, NC_DS_CANDIDATE);
	CHECK(e && strcmp(e->tag, "lock-denied") == 0,
	    "modified candidate cannot be locked");
	nc_error_free(e);
	e = nc_store_discard(st, 1);
	x = getcfg(st, NC_DS_CANDIDATE, NC_FILTER_NONE, NULL);
	CHECK(e == NULL && !has(x, "cand0") && has(x, "eth0"),
	    "discard-changes: candidate is running again");
	free(x);
	edit(st, NC_DS_CANDIDATE, "<interfaces " DEV "><interface><name>"
	    "cand1</name></interface></interfaces>", NC_DEFOP_MERGE);
	e = nc_store_commit(st, 1);
	x = getcfg(st, NC_DS_RUNNING, NC_FILTER_NONE, NULL);
	CHECK(e == NULL && has(x, "cand1") && has(x, "eth0"),
	    "commit moves candidate to running");
	free(x);
	nc_error_free(e);
	CHECK(strcmp(edit(st, NC_DS_CANDIDATE, "<routes " RTS "><route>"
	    "<prefix>10.9.0.0/16</prefix></route></routes>",
	    NC_DEFOP_MERGE), "ok") == 0,
	    "candidate takes an incomplete route");
	e = nc_store_commit(st, 1);
	CHECK(e && strcmp(e->tag, "missing-element") == 0,
	    "commit of invalid candidate -> missing-element");
	nc_error_free(e);
	nc_error_free(nc_store_discard(st, 1));
	e = nc_store_copy(st, 1, NC_DS_CANDIDATE, NC_DS_RUNNING, "<routes "
	    RTS "><route><prefix>10.8.0.0/16</prefix><next-hop>192.0.2.1"
	    "</next-hop></route></routes>");
	CHECK(e == NULL && nc_store_count(st, NC_DS_CANDIDATE) == 1,
	    "copy-config inline to candidate");
	nc_error_free(e);
	nc_error_free(nc_store_discard(st, 1));
}

static void
test_schema(struct nc_schema *s, struct nc_store *st)
{
	static const char *mods[] = { "ietf-netconf", "ietf-netconf-monitoring",
	    "sbsim-device", "sbsim-routes", "ietf-inet-types",
	    "ietf-yang-types" };
	const char *const *caps;
	const char *text, *sx;
	struct nc_error *e;
	char *file = NULL, *x;
	size_t n, i, len = 0;
	FILE *f;
	int ok;

	caps = nc_schema_capabilities(s, &n);
	for (i = 0, ok = 1; i < sizeof(mods) / sizeof(mods[0]); i++) {
		size_t j;
		int found = 0;

		for (j = 0; j < n; j++)
			if (has(caps[j], "module=") && strstr(caps[j],
			    mods[i]) && strchr(strstr(caps[j], mods[i]),
			    '&') != NULL)
				found = 1;
		if (!found)
			ok = 0;
	}
	CHECK(ok && n >= 6, "%zu capabilities, all modules", n);
	for (i = 0; i < n; i++)
		printf("#   %s\n", caps[i]);
	for (i = 0, ok = 0; i < n; i++)
		if (has(caps[i], "module=sbsim-device&revision=2025-01-15"
		    "&features=mtu-config"))
			ok = 1;
	CHECK(ok, "sbsim-device capability with revision and feature");
	e = nc_schema_get_schema(s, "sbsim-device", "2025-01-15", "yang",
	    &text);
	if ((f = fopen(YANG_DIR "/sbsim-device@2025-01-15.yang", "r"))) {
		char buf[4096];
		FILE *m = open_memstream(&file, &len);

		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, m);
		fclose(m);
		fclose(f);
	}
	CHECK(e == NULL && file && text && strcmp(text, file) == 0,
	    "get-schema text equals the file");
	free(file);
	e = nc_schema_get_schema(s, "ietf-inet-types", NULL, "ncm:yang",
	    &text);
	CHECK(e == NULL && has(text, "module ietf-inet-types"),
	    "get-schema of a built-in module");
	e = nc_schema_get_schema(s, "sbsim-device", NULL, "yin", &text);
	CHECK(e == NULL && has(text, "<module name=\"sbsim-device\""),
	    "get-schema as yin");
	e = nc_schema_get_schema(s, "no-such", NULL, NULL, &text);
	CHECK(e && strcmp(e->tag, "invalid-value") == 0,
	    "get-schema unknown -> invalid-value");
	nc_error_free(e);
	e = nc_schema_get_schema(s, "sbsim-device", "1999-01-01", NULL,
	    &text);
	CHECK(e && strcmp(e->tag, "invalid-value") == 0,
	    "get-schema wrong version -> invalid-value");
	nc_error_free(e);
	e = nc_schema_get_schema(s, "sbsim-device", NULL, "xsd", &text);
	CHECK(e && strcmp(e->tag, "invalid-value") == 0,
	    "get-schema xsd -> invalid-value");
	nc_error_free(e);
	sx = nc_schema_schemas_xml(s);
	for (i = 0, ok = 1; i < sizeof(mods) / sizeof(mods[0]); i++) {
		char want[128];

		snprintf(want, sizeof(want), "<identifier>%s</identifier>",
		    mods[i]);
		if (!has(sx, want))
			ok = 0;
	}
	CHECK(ok && has(sx, "<location>NETCONF</location>"),
	    "schemas list lists every module");
	e = nc_store_get(st, NULL, &x);
	CHECK(e == NULL && has(x, "netconf-state") && has(x, "eth0"),
	    "get: config and state");
	free(x);
	{
		struct nc_filter flt = { NC_FILTER_SUBTREE,
		    "<netconf-state xmlns=\"urn:ietf:params:xml:ns:yang:"
		    "ietf-netconf-monitoring\"><schemas><schema><identifier>"
		    "sbsim-routes</identifier></schema></schemas>"
		    "</netconf-state>", NULL };

		e = nc_store_get(st, &flt, &x);
		CHECK(e == NULL && has(x, "sbsim-routes") &&
		    !has(x, "sbsim-device") && !has(x, "eth0"),
		    "get with a filter on the schema list: %s", x);
		free(x);
	}
}

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void
test_scale(struct nc_schema *s)
{
	struct nc_store *st = nc_store_new(s);
	struct nc_edit_result res;
	struct nc_error *e;
	FILE *f;
	char *xml, *out;
	size_t len;
	double t0, t1, t2, t3;
	int i;

	f = open_memstream(&xml, &len);
	fprintf(f, "<routes " RTS ">");
	for (i = 0; i < 1000; i++)
		fprintf(f, "<route><prefix>10.%d.%d.0/24</prefix><next-hop>"
		    "192.0.2.1</next-hop></route>", i / 256, i % 256);
	fprintf(f, "</routes>");
	fclose(f);
	t0 = now_ms();
	e = nc_store_edit(st, 1, NC_DS_RUNNING, xml, NULL, &res);
	t1 = now_ms();
	CHECK(e == NULL && res.created == 1000 &&
	    nc_store_count(st, NC_DS_RUNNING) == 1000,
	    "edit-config of 1000 routes");
	e = nc_store_edit(st, 1, NC_DS_RUNNING, "<routes " RTS "><route><prefix>"
	    "10.200.0.0/24</prefix><next-hop>192.0.2.1</next-hop></route>"
	    "</routes>", NULL, NULL);
	t2 = now_ms();
	CHECK(e == NULL, "one more route");
	e = nc_store_get_config(st, NC_DS_RUNNING, NULL, &out);
	t3 = now_ms();
	CHECK(e == NULL && strlen(out) > 1000 * 40, "get-config 1001 routes");
	printf("# timing: edit 1000 routes %.2f ms, edit 1 more %.2f ms, "
	    "get-config %.2f ms\n", t1 - t0, t2 - t1, t3 - t2);
	free(out);
	free(xml);
	nc_store_free(st);
}

static void
test_memory(struct nc_schema *s)
{
	struct nc_store *st[1000];
	struct mallinfo2 m0, m1;
	size_t per;
	int i;

	m0 = mallinfo2();
	for (i = 0; i < 1000; i++)
		st[i] = nc_store_new(s);
	m1 = mallinfo2();
	per = (m1.uordblks - m0.uordblks) / 1000;
	CHECK(per < 1024, "empty store costs %zu bytes", per);
	for (i = 0; i < 1000; i++)
		nc_store_free(st[i]);
}

/* The cases share one schema and one store, which main() makes.  From
 * edit_errors to schema each builds on what the ones before it left in the
 * store: to run xpath alone, name its predecessors too
 * ("test_nc_store edit_errors edit_ops subtree xpath"). */
static struct nc_schema	*schema;
static struct nc_store	*store;

static void
store_load(void)
{
	CHECK(nc_schema_new("/nonexistent", NULL, 0) == NULL,
	    "missing directory fails");
	CHECK(nc_store_has_candidate(store), "candidate enabled");
}

static void
store_edit_errors(void)
{
	test_edit_errors(store);
}

static void
store_edit_ops(void)
{
	test_edit_ops(store);
}

static void
store_subtree(void)
{
	test_subtree(store);
}

static void
store_xpath(void)
{
	test_xpath(store);
}

static void
store_locks_candidate(void)
{
	test_locks_candidate(store);
}

static void
store_schema(void)
{
	test_schema(schema, store);
}

static void
store_scale(void)
{
	test_scale(schema);
}

static void
store_memory(void)
{
	test_memory(schema);
}

static const struct check_case cases[] = {
	CASE_AS(test_load, store_load),
	CASE_AS(test_edit_errors, store_edit_errors),
	CASE_AS(test_edit_ops, store_edit_ops),
	CASE_AS(test_subtree, store_subtree),
	CASE_AS(test_xpath, store_xpath),
	CASE_AS(test_locks_candidate, store_locks_candidate),
	CASE_AS(test_schema, store_schema),
	CASE_AS(test_scale, store_scale),
	CASE_AS(test_memory, store_memory),
};

int
main(int argc, char **argv)
{
	int	rc;

	log_init("test_nc_store", LOG_QUIET);
	schema = nc_schema_new(YANG_DIR, NULL, NC_SCHEMA_CANDIDATE);
	CHECK(schema != NULL, "load %s", YANG_DIR);
	if (schema == NULL)
		return check_done();
	store = nc_store_new(schema);
	rc = check_run(cases, argc, argv);
	nc_store_free(store);
	nc_schema_unref(schema);
	return rc;
}
