/*
 * Groups over RESTCONF, as openflowplugin serves them and CSIT's
 * Groups_Meters suite reads them (docs/guide.md):
 *   .../opendaylight-inventory:nodes/node=openflow%3A1/group=1
 *     ?content=config: the config datastore's group (PUT, GET, DELETE);
 *     ?content=nonconfig: the switch's group (GROUP_DESC) with its
 *     opendaylight-group-statistics:group-statistics (GROUP stats);
 *   and the draft's /restconf/config|operational/.../node/N/group/ID;
 *   sal-group's add-group, update-group and remove-group operations.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/http.h>

#include "log.h"
#include "of_ctl.h"
#include "of_gmcfg.h"
#include "of_group.h"
#include "of_restconf.h"
#include "restconf.h"

static const struct doc_module gmr_sal_mod = {
	"sal-group", "urn:opendaylight:group:service"
};

/* A group id of a URL: decimal, below OFPG_MAX. */
static int
gmr_id(const char *s, uint32_t *id)
{
	uint64_t	v = 0;

	if (*s == '\0' || (s[0] == '0' && s[1] != '\0'))
		return -1;
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9' || (v = v * 10 + (uint64_t)(*s -
		    '0')) > 0xffffff00u)
			return -1;
	*id = (uint32_t)v;
	return 0;
}

static void
gmr_get(struct rc_req *rq, uint64_t dpid, int keyed, uint32_t id)
{
	const struct rc_path	*p = &rq->path;
	struct of_ctl_switch	 sw;
	struct doc_writer	 w;
	struct evbuffer		*b;
	int			 oper = rq->content != RC_CONTENT_CONFIG;
	int			 stats = p->n == 4;

	if (stats && (!keyed || !rc_elem_is(&p->e[3], "group-statistics"))) {
		rc_unknown(rq, &p->e[3]);
		return;
	}
	if (p->n > 4 || (oper && of_ctl_switch_find(dpid, &sw) == -1) ||
	    (stats && !oper) || (keyed && !gm_has(dpid, oper + stats, id)) ||
	    (!keyed && !oper && gm_config_count(dpid) == 0)) {
		rc_data_missing(rq);
		return;
	}
	b = rc_writer(rq, &w);
	if (stats)
		gm_render_stats(&w, dpid, id);
	else
		gm_render_list(&w, dpid, oper, keyed, id);
	rc_send(rq, &w, b);
}

/* The one group of a PUT's body, its id that of the URL; NULL after an
 * error reply. */
static struct gm_spec *
gmr_body(struct rc_req *rq, uint32_t id)
{
	struct doc	 d;
	struct doc_node	 root, g;
	struct doc_iter	 it;
	struct gm_spec	*s = NULL;
	char		 err[256];
	int		 cnt = 0;

	if (rc_body(rq, &d) == -1)
		return NULL;
	doc_root(&d, &root);
	doc_iter_init(&it, &root, "group");
	while (doc_iter_next(&it, &g) == 1 && ++cnt == 1)
		if ((s = gm_parse(&g, err, sizeof(err))) == NULL)
			http_error(rq->http, 400, "protocol", "invalid-value",
			    "group: %s", err);
	doc_free(&d);
	if (cnt != 1 || s == NULL) {
		if (cnt != 1)
			http_error(rq->http, 400, "protocol",
			    "malformed-message", "Expected one "
			    "flow-node-inventory:group list entry");
		free(s);
		return NULL;
	}
	if (s->id != id) {
		http_error(rq->http, 400, "protocol", "invalid-value",
		    "group-id %" PRIu32 " does not match %" PRIu32 " of the "
		    "URL", s->id, id);
		free(s);
		return NULL;
	}
	return s;
}

static void
gmr_put(struct rc_req *rq, uint64_t dpid, uint32_t id)
{
	struct gm_spec	*s = gmr_body(rq, id);
	int		 rc;

	if (s == NULL) {
		gm_count_bad_body();
		return;
	}
	if ((rc = gm_put(dpid, s)) == -1) {
		free(s);
		http_error(rq->http, 409, "application", "resource-denied",
		    "Node openflow:%" PRIu64 " holds its most config groups "
		    "(--max-groups-per-node)", dpid);
		return;
	}
	/* RFC 8040 section 4.5: 201 created, 204 replaced; the draft's
	 * URLs as OpenDaylight answered them: 201 or 200. */
	http_reply(rq->http, rc == 1 ? 201 : rq->style == RC_STYLE_DRAFT ?
	    200 : 204, NULL);
}

static void
gmr_write(struct rc_req *rq, uint64_t dpid, int keyed, uint32_t id)
{
	int	del = rq->http->method == EVHTTP_REQ_DELETE;

	if (!keyed || rq->path.n != 3 || (!del &&
	    rq->http->method != EVHTTP_REQ_PUT)) {
		evhttp_add_header(evhttp_request_get_output_headers(
		    rq->http->ev), "Allow", "GET, PUT, DELETE");
		http_error(rq->http, 405, "protocol",
		    "operation-not-supported", "PUT or DELETE one group "
		    "(.../node/N/group/ID)");
		return;
	}
	if (!del) {
		gmr_put(rq, dpid, id);
		return;
	}
	if (gm_delete(dpid, id) == -1) {
		rc_data_missing(rq);
		return;
	}
	http_reply(rq->http, rq->style == RC_STYLE_DRAFT ? 200 : 204, NULL);
}

void
gm_restconf(struct rc_req *rq)
{
	const struct rc_path	*p = &rq->path;
	uint64_t		 dpid;
	uint32_t		 id = 0;
	int			 keyed = p->e[2].nkeys > 0;

	if (of_restconf_node_id(p->e[1].key[0], &dpid) == -1) {
		http_error(rq->http, 404, "protocol", "data-missing",
		    "Node '%s' is not an OpenFlow node (openflow:DPID)",
		    p->e[1].key[0]);
		return;
	}
	if (keyed && gmr_id(p->e[2].key[0], &id) == -1) {
		http_error(rq->http, 400, "protocol", "invalid-value",
		    "Group '%s' is not a group id (0 to 4294967040)",
		    p->e[2].key[0]);
		return;
	}
	if (rq->http->method & (EVHTTP_REQ_GET | EVHTTP_REQ_HEAD))
		gmr_get(rq, dpid, keyed, id);
	else
		gmr_write(rq, dpid, keyed, id);
}

/* ---- sal-group ---- */

/* The node of an input, connected; -1 after an error reply. */
static int
gmr_rpc_node(struct http_req *h, const struct doc_node *in, uint64_t *dpid)
{
	struct of_ctl_switch	sw;
	char			ref[256];

	if (doc_get_string(in, "node", ref, sizeof(ref)) == -1) {
		http_error(h, 400, "protocol", "missing-element",
		    "The input needs a node");
		return -1;
	}
	if (ofrpc_node_ref(ref, dpid) == -1) {
		http_error(h, 400, "protocol", "invalid-value",
		    "node '%s' does not name an OpenFlow node "
		    "(openflow:DPID)", ref);
		return -1;
	}
	if (of_ctl_switch_find(*dpid, &sw) == -1) {
		http_error(h, 404, "protocol", "data-missing",
		    "Node openflow:%" PRIu64 " is not connected", *dpid);
		return -1;
	}
	return 0;
}

/* add-group and remove-group: the input is the group (node-group);
 * update-group: its updated-group (group-update).  Each answers once
 * its GROUP_MOD and a barrier are queued. */
static void
gmr_rpc(struct http_req *h, const struct doc_node *in, int rfc8040,
    int cmd)
{
	struct doc_node	 g = *in;
	struct gm_spec	*s;
	uint64_t	 dpid;
	char		 err[256];

	if (gmr_rpc_node(h, in, &dpid) == -1)
		return;
	if (cmd == OF_GC_MODIFY && doc_child(in, "updated-group", &g) == -1) {
		http_error(h, 400, "protocol", "missing-element",
		    "The input needs updated-group");
		return;
	}
	if ((s = gm_parse(&g, err, sizeof(err))) == NULL) {
		gm_count_bad_body();
		http_error(h, 400, "protocol", "invalid-value", "%s", err);
		return;
	}
	gm_rpc_push(dpid, s, (uint16_t)cmd);
	free(s);
	rc_rpc_empty(h, rfc8040, &gmr_sal_mod);
}

static const struct rc_rpc gmr_rpcs[] = {
	{ "sal-group", "add-group", gmr_rpc, OF_GC_ADD },
	{ "sal-group", "update-group", gmr_rpc, OF_GC_MODIFY },
	{ "sal-group", "remove-group", gmr_rpc, OF_GC_DELETE },
};

void
gm_rpc_register(struct http_server *hs)
{
	rc_rpc_register(hs, gmr_rpcs, nitems(gmr_rpcs));
}
