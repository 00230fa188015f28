/*
 * Unit tests of the embedded controller's config flow store
 * (of_flowcfg.c) with no switch connected: the nodes by dpid (uthash)
 * and the flows by id and by match (hand-kept chains) through their
 * growth, a PUT that replaces, a POST refused whole for a duplicate id,
 * and deletions of one flow, a table, a node and every node.
 */
#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>

#include "doc.h"
#include "log.h"
#include "of_flowcfg.h"

#include "check.h"

#define NODES	1000
#define FLOWS	2000

/* Flow i: table i % 2, an IN_PORT and IPV4_DST match of its own. */
static void
spec(struct fc_spec *s, uint32_t i)
{
	static const uint8_t	tmpl[] = {
		0x80, 0x00, 0x00, 0x04, 0, 0, 0, 1,	/* IN_PORT 1 */
		0x80, 0x00, 0x0a, 0x02, 0x08, 0x00,	/* ETH_TYPE IPv4 */
		0x80, 0x00, 0x18, 0x04, 10, 0, 0, 0,	/* IPV4_DST */
	};

	memset(s, 0, sizeof(*s));
	snprintf(s->id, sizeof(s->id), "f%u", i);
	snprintf(s->name, sizeof(s->name), "flow %u", i);
	s->table = (int)(i % 2);
	s->priority = 100;
	s->go_to = FC_NO_TABLE;
	s->match.len = sizeof(tmpl);
	memcpy(s->match.oxm, tmpl, sizeof(tmpl));
	s->match.oxm[19] = (uint8_t)(i >> 16);
	s->match.oxm[20] = (uint8_t)(i >> 8);
	s->match.oxm[21] = (uint8_t)i;
	s->nout = 1;
	s->out[0].port = 2;
}

static void
test_nodes(void)
{
	struct fc_node	*first = NULL, *n;
	uint32_t	 i, same = 0;

	fc_start();
	CHECK(fc_node_get(1, 0) == NULL, "no node before one is made");
	for (i = 1; i <= NODES; i++) {
		n = fc_node_get(i << 8, 1);
		if (i == 1)
			first = n;
	}
	for (i = 1; i <= NODES; i++)
		same += fc_node_get(i << 8, 0) == fc_node_get(i << 8, 1);
	CHECK(same == NODES && fc_node_get(1 << 8, 0) == first,
	    "%u nodes, each found again as made: %u", NODES, same);
	CHECK(fc_node_get(7, 0) == NULL, "an unknown dpid: none");
	fc_stop();
	CHECK(fc_node_get(1 << 8, 0) == NULL, "stopped: no node left");
}

static uint32_t
found(struct fc_node *n, uint32_t from, uint32_t to)
{
	char		id[16];
	uint32_t	i, c = 0;

	for (i = from; i < to; i++) {
		snprintf(id, sizeof(id), "f%u", i);
		c += fc_find(n, i % 2, id) != NULL;
	}
	return c;
}

static void
test_flows(void)
{
	static struct fc_spec	 s[2];
	struct fc_node		*n;
	char			 id[16];
	uint32_t		 i, created = 0;
	size_t			 dup = 99;

	fc_start();
	n = fc_node_get(0xa1, 1);
	for (i = 0; i < FLOWS; i++) {
		spec(&s[0], i);
		created += fc_put(n, &s[0]) == 1;
	}
	CHECK(created == FLOWS && fc_node_count(n, -1) == FLOWS &&
	    fc_node_count(n, 1) == FLOWS / 2 && found(n, 0, FLOWS) == FLOWS,
	    "%u flows put, each found by table and id", FLOWS);
	CHECK(fc_find(n, 1, "f0") == NULL, "an id is found in its table only");
	spec(&s[0], 5);
	s[0].priority = 200;
	CHECK(fc_put(n, &s[0]) == 0 && fc_node_count(n, -1) == FLOWS,
	    "a PUT of a known id replaces it");
	spec(&s[0], FLOWS);
	spec(&s[1], 7);
	CHECK(fc_post(n, s, 2, &dup) == -1 && dup == 1 &&
	    fc_find(n, 0, s[0].id) == NULL, "a POST with a known id: "
	    "refused whole, the duplicate's index given");
	for (i = 0; i < FLOWS; i += 4) {
		snprintf(id, sizeof(id), "f%u", i);
		fc_delete(n, i % 2, id);
	}
	CHECK(fc_node_count(n, -1) == FLOWS - FLOWS / 4 &&
	    found(n, 0, FLOWS) == FLOWS - FLOWS / 4 &&
	    fc_delete(n, 0, "f0") == -1, "a quarter deleted by id");
	CHECK(fc_delete_table(n, 1) == 0 && fc_node_count(n, 1) == 0 &&
	    fc_node_count(n, 0) == FLOWS / 4 && fc_delete_table(n, 1) == -1,
	    "table 1 deleted whole, table 0 kept");
	fc_stop();
}

/* DELETE of a node and of every node (CSIT's cleanup), and a node that
 * takes flows again afterwards (its buckets were emptied, not freed). */
static void
test_delete_nodes(void)
{
	static struct fc_spec	 s;
	struct fc_node		*a, *b;
	uint32_t		 i;

	fc_start();
	a = fc_node_get(1, 1);
	b = fc_node_get(2, 1);
	for (i = 0; i < FLOWS; i++) {
		spec(&s, i);
		fc_put(i % 2 ? a : b, &s);
	}
	CHECK(fc_delete_node(a) == 0 && fc_node_count(a, -1) == 0 &&
	    found(a, 0, FLOWS) == 0 && fc_node_count(b, -1) == FLOWS / 2,
	    "one node's flows deleted, the other's kept");
	CHECK(fc_delete_node(a) == -1, "a node without flows: -1");
	spec(&s, 1);
	CHECK(fc_put(a, &s) == 1 && found(a, 1, 2) == 1,
	    "the emptied node takes a flow again");
	CHECK(fc_delete_all() == 2 && fc_node_count(a, -1) == 0 &&
	    fc_node_count(b, -1) == 0 && fc_delete_all() == 0,
	    "every node's flows deleted, the nodes that had some counted");
	fc_stop();
}

/* A flow through a group and a meter (CSIT's Groups_Meters flows):
 * parsed, kept and rendered back with its group-action and meter. */
static void
test_group_meter(void)
{
	static const char	body[] = "{\"flow\":[{\"id\":\"g\","
	    "\"table_id\":0,\"priority\":2,\"instructions\":{\"instruction\":"
	    "[{\"order\":0,\"meter\":{\"meter-id\":7}},{\"order\":1,"
	    "\"apply-actions\":{\"action\":[{\"order\":1,\"group-action\":"
	    "{\"group-id\":5}},{\"order\":0,\"output-action\":{"
	    "\"output-node-connector\":\"2\"}}]}}]}}]}";
	struct doc		 d;
	struct doc_node		 root, fl;
	struct doc_iter		 it;
	struct doc_writer	 w;
	struct fc_spec		 s;
	struct fc_node		*n;
	struct evbuffer		*b = evbuffer_new();
	char			 err[256] = "", out[2048];
	size_t			 len;
	int			 rc = -1;

	if (doc_parse(&d, HTTP_FMT_JSON, body, strlen(body), err,
	    sizeof(err)) == 0) {
		doc_root(&d, &root);
		doc_iter_init(&it, &root, "flow");
		if (doc_iter_next(&it, &fl) == 1)
			rc = fc_parse(&fl, &s, err, sizeof(err));
		doc_free(&d);
	}
	CHECK(rc == 0 && s.meter == 7 && s.nout == 2 && !s.out[0].group &&
	    s.out[0].port == 2 && s.out[1].group && s.out[1].port == 5,
	    "meter 7, output 2 then group 5 (%s)", err);
	fc_start();
	n = fc_node_get(9, 1);
	fc_put(n, &s);
	doc_writer_init(&w, HTTP_FMT_JSON, b);
	doc_list(&w, NULL, "flow");
	fc_render(&w, n, fc_find(n, 0, "g"));
	doc_finish(&w);
	len = evbuffer_copyout(b, out, sizeof(out) - 1);
	out[len] = '\0';
	CHECK(strstr(out, "\"meter\":{\"meter-id\":7}") != NULL &&
	    strstr(out, "\"group-action\":{\"group-id\":5}") != NULL &&
	    strstr(out, "\"output-node-connector\":\"2\"") != NULL,
	    "rendered back: %s", out);
	evbuffer_free(b);
	fc_stop();
}

static const struct check_case cases[] = {
	CASE(test_nodes),
	CASE(test_flows),
	CASE(test_delete_nodes),
	CASE(test_group_meter),
};

int
main(int argc, char **argv)
{
	log_init("test_of_flowcfg", LOG_QUIET);
	return check_run(cases, argc, argv);
}
