/*
 * bgpcep's data change counter (odl-bgpcep-data-change-counter), what
 * CSIT's bgpingest suites poll to see the controller's work settle:
 *
 *   odl-data-change-counter-config:data-change-counter-config=ID
 *       {counter-id, topology-name}           (PUT 201/204, GET, DELETE)
 *   data-change-counter:data-change-counter/counter=ID
 *       {id, count}                           (GET)
 *
 * A counter counts the transactions that changed its topology since it
 * was configured; example-ipv4-topology and example-ipv6-topology change
 * with the speaker's Loc-RIB, any other topology never here.  The counter
 * "data-change-counter" on example-ipv4-topology exists from the start.
 * In the draft URL style the reply's top member is unqualified, as the
 * old RESTCONF wrote it and CSIT's ChangeCounter.robot reads it.
 */
#include <stdio.h>
#include <string.h>

#include <event2/http.h>

#include "bgp_dcc.h"
#include "bgp_ctl.h"
#include "log.h"
#include "restconf.h"

#define DCC_MAX		8
#define DCC_NAME_LEN	64
#define DCC_NS		"urn:opendaylight:params:xml:ns:yang:bgp-data-change-counter"
#define DCC_CFG_NS	\
	"urn:opendaylight:params:xml:ns:yang:bgpcep:data-change-counter-config"

struct dcc_counter {
	char		id[DCC_NAME_LEN];
	char		topology[DCC_NAME_LEN];
	uint64_t	base;		/* transactions when configured */
};

static struct dcc_counter	dcc[DCC_MAX];
static unsigned			n_dcc;

static const struct doc_module dcc_mod = { "data-change-counter", DCC_NS };
static const struct doc_module dcc_mod_draft = { NULL, DCC_NS };
static const struct doc_module dcc_cfg_mod = {
	"odl-data-change-counter-config", DCC_CFG_NS
};
static const struct doc_module dcc_cfg_mod_draft = { NULL, DCC_CFG_NS };

static const struct rc_list dcc_lists[] = {
	{ "counter", 1 },
	{ "data-change-counter-config", 1 },
	{ NULL, 0 },
};

static struct dcc_counter *
dcc_find(const char *id)
{
	unsigned	i;

	for (i = 0; i < n_dcc; i++)
		if (strcmp(dcc[i].id, id) == 0)
			return &dcc[i];
	return NULL;
}

static uint64_t
dcc_count(const struct dcc_counter *c)
{
	if (strcmp(c->topology, "example-ipv4-topology") != 0 &&
	    strcmp(c->topology, "example-ipv6-topology") != 0)
		return 0;
	return bgp_ctl_stats()->rib_transactions - c->base;
}

/* GET data-change-counter[/counter=ID]. */
static void
dcc_state(struct rc_req *rq, void *arg)
{
	const struct rc_path	*p = &rq->path;
	const struct dcc_counter *one = NULL;
	struct doc_writer	 w;
	struct evbuffer		*b;
	unsigned		 i;

	(void)arg;
	if (p->n > 2 || (p->n == 2 && !rc_elem_is(&p->e[1], "counter"))) {
		rc_unknown(rq, &p->e[p->n - 1]);
		return;
	}
	if ((p->n == 2 && (one = dcc_find(p->e[1].key[0])) == NULL) ||
	    rq->content == RC_CONTENT_CONFIG || n_dcc == 0) {
		rc_data_missing(rq);
		return;
	}
	b = rc_writer(rq, &w);
	if (one == NULL)
		doc_container(&w, rq->style == RC_STYLE_DRAFT ?
		    &dcc_mod_draft : &dcc_mod, "data-change-counter");
	doc_list(&w, one == NULL ? NULL : rq->style == RC_STYLE_DRAFT ?
	    &dcc_mod_draft : &dcc_mod, "counter");
	for (i = 0; i < n_dcc; i++) {
		if (one != NULL && one != &dcc[i])
			continue;
		doc_entry(&w);
		doc_leaf_str(&w, "id", dcc[i].id);
		doc_leaf_uint(&w, "count", dcc_count(&dcc[i]));
		doc_end(&w);
	}
	rc_send(rq, &w, b);
}

static void
dcc_get_config(struct rc_req *rq, const struct dcc_counter *c)
{
	struct doc_writer	 w;
	struct evbuffer		*b = rc_writer(rq, &w);

	doc_list(&w, rq->style == RC_STYLE_DRAFT ? &dcc_cfg_mod_draft :
	    &dcc_cfg_mod, "data-change-counter-config");
	doc_entry(&w);
	doc_leaf_str(&w, "counter-id", c->id);
	doc_leaf_str(&w, "topology-name", c->topology);
	doc_end(&w);
	rc_send(rq, &w, b);
}

/* PUT of one counter's config: 201 new, 204 replaced (counting again
 * from 0); the key in the body must be the URL's. */
static void
dcc_put(struct rc_req *rq, const char *id)
{
	struct dcc_counter	*c = dcc_find(id);
	struct doc		 d;
	struct doc_node		 root, n;
	struct doc_iter		 it;
	char			 cid[DCC_NAME_LEN], topo[DCC_NAME_LEN];
	int			 ok;

	if (rc_body(rq, &d) == -1)
		return;
	doc_root(&d, &root);
	doc_iter_init(&it, &root, "data-change-counter-config");
	ok = doc_iter_next(&it, &n) == 1 &&
	    doc_get_string(&n, "counter-id", cid, sizeof(cid)) == 0 &&
	    doc_get_string(&n, "topology-name", topo, sizeof(topo)) == 0;
	doc_free(&d);
	if (!ok || strcmp(cid, id) != 0) {
		http_error(rq->http, 400, "protocol", "invalid-value",
		    "Expected a data-change-counter-config with counter-id "
		    "%s and a topology-name", id);
		return;
	}
	if (c == NULL && n_dcc == DCC_MAX) {
		http_error(rq->http, 409, "application", "resource-denied",
		    "At most %d counters", DCC_MAX);
		return;
	}
	http_reply(rq->http, c == NULL ? 201 : 204, NULL);
	if (c == NULL)
		c = &dcc[n_dcc++];
	snprintf(c->id, sizeof(c->id), "%s", cid);
	snprintf(c->topology, sizeof(c->topology), "%s", topo);
	c->base = bgp_ctl_stats()->rib_transactions;
}

static void
dcc_config(struct rc_req *rq, void *arg)
{
	const struct rc_path	*p = &rq->path;
	struct dcc_counter	*c;
	enum evhttp_cmd_type	 m = rq->http->method;

	(void)arg;
	if (p->n != 1 || p->e[0].nkeys != 1) {
		rc_data_missing(rq);
		return;
	}
	c = dcc_find(p->e[0].key[0]);
	if (m == EVHTTP_REQ_PUT)
		dcc_put(rq, p->e[0].key[0]);
	else if (c == NULL)
		rc_data_missing(rq);
	else if (m & (EVHTTP_REQ_GET | EVHTTP_REQ_HEAD))
		dcc_get_config(rq, c);
	else if (m == EVHTTP_REQ_DELETE) {
		*c = dcc[--n_dcc];
		http_reply(rq->http, 204, NULL);
	} else
		rc_read_only(rq);
}

static const struct rc_resource dcc_state_res = {
	"data-change-counter", "data-change-counter", dcc_lists, dcc_state,
	NULL, 1
};
static const struct rc_resource dcc_config_res = {
	"odl-data-change-counter-config", "data-change-counter-config",
	dcc_lists, dcc_config, NULL, 0
};

void
bgp_dcc_register(void)
{
	memset(dcc, 0, sizeof(dcc));
	snprintf(dcc[0].id, sizeof(dcc[0].id), "data-change-counter");
	snprintf(dcc[0].topology, sizeof(dcc[0].topology),
	    "example-ipv4-topology");
	n_dcc = 1;
	restconf_register(&dcc_state_res);
	restconf_register(&dcc_config_res);
}
