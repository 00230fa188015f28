/*
 * The shared network-topology resource (rc_topology.h).
 */
#include <stdio.h>
#include <string.h>

#include <event2/http.h>

#include "log.h"
#include "rc_topology.h"

#define RC_MAX_TOPO_LISTS	32

const struct doc_module rc_nt_mod = {
	"network-topology", "urn:TBD:params:xml:ns:yang:network-topology"
};

static const struct rc_topology	*topos[RC_MAX_TOPOLOGIES];
static size_t			 ntopos;
/* The union of the topologies' lists, network-topology's own first. */
static struct rc_list		 lists[RC_MAX_TOPO_LISTS + 1];
static size_t			 nlists;

/* The lists the network-topology module itself defines, each keyed by
 * one id (topology-id, node-id, tp-id, link-id): every topology has
 * them, so a protocol names only those its augmentations add. */
static const struct rc_list nt_lists[] = {
	{ "topology", 1 },
	{ "node", 1 },
	{ "termination-point", 1 },
	{ "link", 1 },
};

static void	rc_topo_handle(struct rc_req *, void *);

static const struct rc_resource topo_resource = {
	"network-topology", "network-topology", lists, rc_topo_handle, NULL, 0
};

void
rc_topology_reset(void)
{
	ntopos = 0;
	nlists = sizeof(nt_lists) / sizeof(nt_lists[0]);
	memset(lists, 0, sizeof(lists));
	memcpy(lists, nt_lists, sizeof(nt_lists));
}

static void
rc_topo_add_lists(const struct rc_list *l)
{
	size_t	i;

	for (; l != NULL && l->name != NULL; l++) {
		for (i = 0; i < nlists; i++)
			if (strcmp(lists[i].name, l->name) == 0)
				break;
		if (i < nlists) {
			if (lists[i].nkeys != l->nkeys)
				fatalx("network-topology: list %s with %u and "
				    "%u keys", l->name, lists[i].nkeys,
				    l->nkeys);
			continue;
		}
		if (nlists == RC_MAX_TOPO_LISTS)
			fatalx("network-topology: more than %d lists",
			    RC_MAX_TOPO_LISTS);
		lists[nlists++] = *l;
	}
}

void
rc_topology_register(const struct rc_topology *t)
{
	if (nlists == 0)
		rc_topology_reset();
	if (ntopos == RC_MAX_TOPOLOGIES)
		fatalx("network-topology: more than %d topologies",
		    RC_MAX_TOPOLOGIES);
	if (ntopos == 0)
		restconf_register(&topo_resource);
	topos[ntopos++] = t;
	rc_topo_add_lists(t->lists);
}

void
rc_topology_reply(struct rc_req *rq,
    void (*entry)(struct doc_writer *, int config, void *arg), void *arg)
{
	struct doc_writer	 w;
	struct evbuffer		*b = rc_writer(rq, &w);

	doc_list(&w, &rc_nt_mod, "topology");
	entry(&w, rq->content == RC_CONTENT_CONFIG, arg);
	doc_end(&w);
	rc_send(rq, &w, b);
}

/* GET of the whole network-topology: every topology's entry. */
static void
rc_topo_all(struct rc_req *rq)
{
	struct doc_writer	 w;
	struct evbuffer		*b;
	int			 config = rq->content == RC_CONTENT_CONFIG;
	size_t			 i;

	if (rc_refuse_write(rq))
		return;
	b = rc_writer(rq, &w);
	doc_container(&w, &rc_nt_mod, "network-topology");
	doc_list(&w, NULL, "topology");
	for (i = 0; i < ntopos; i++)
		if (topos[i]->entry != NULL)
			topos[i]->entry(&w, config, topos[i]->arg);
	doc_end(&w);
	rc_send(rq, &w, b);
}

static void
rc_topo_handle(struct rc_req *rq, void *arg)
{
	const struct rc_path	*p = &rq->path;
	size_t			 i;

	(void)arg;
	if (!rc_list_entry(rq, "topology", rc_topo_all))
		return;
	for (i = 0; i < ntopos; i++)
		if (p->e[1].nkeys == 1 &&
		    strcmp(p->e[1].key[0], topos[i]->id) == 0) {
			if (topos[i]->read_only && !(rq->http->method &
			    (EVHTTP_REQ_GET | EVHTTP_REQ_HEAD)))
				rc_read_only(rq);
			else
				topos[i]->fn(rq, topos[i]->arg);
			return;
		}
	rc_data_missing(rq);
}
