/*
 * Groups and meters over RESTCONF, as openflowplugin serves them and
 * CSIT's Groups_Meters suite reads them (docs/guide.md):
 *   .../opendaylight-inventory:nodes/node=openflow%3A1/group=1 (meter=1)
 *     ?content=config: the config datastore's entry (PUT, GET, DELETE);
 *     ?content=nonconfig: the switch's (GROUP_DESC, METER_CONFIG) with
 *     its opendaylight-group-statistics:group-statistics
 *     (opendaylight-meter-statistics:meter-statistics);
 *   the draft's /restconf/config|operational/.../node/N/group/ID;
 *   sal-group's and sal-meter's add-, update- and remove- operations.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/http.h>

#include "log.h"
#include "of_ctl.h"
#include "of_gmcfg.h"
#include "of_restconf.h"
#include "restconf.h"

/* An id of a URL: decimal, at most max (OFPG_MAX, OFPM_MAX). */
static int
gmr_id(const char *s, uint32_t max, uint32_t *id)
{
	uint64_t	v = 0;

	if (*s == '\0' || (s[0] == '0' && s[1] != '\0'))
		return -1;
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9' || (v = v * 10 + (uint64_t)(*s -
		    '0')) > max)
			return -1;
	*id = (uint32_t)v;
	return 0;
}

static void
gmr_get(struct rc_req *rq, enum gm_kind k, uint64_t dpid, int keyed,
    uint32_t id)
{
	const struct rc_path	*p = &rq->path;
	struct of_ctl_switch	 sw;
	struct doc_writer	 w;
	struct evbuffer		*b;
	int			 oper = rq->content != RC_CONTENT_CONFIG;
	int			 stats = p->n == 4;

	if (stats && (!keyed || !rc_elem_is(&p->e[3], gm_stats_name(k)))) {
		rc_unknown(rq, &p->e[3]);
		return;
	}
	if (p->n > 4 || (oper && of_ctl_switch_find(dpid, &sw) == -1) ||
	    (stats && !oper) || (keyed && !gm_has(k, dpid, oper + stats,
	    id)) || (!keyed && !oper && gm_config_count(k, dpid) == 0)) {
		rc_data_missing(rq);
		return;
	}
	b = rc_writer(rq, &w);
	if (stats)
		gm_render_stats(k, &w, dpid, id);
	else
		gm_render_list(k, &w, dpid, oper, keyed, id);
	rc_send(rq, &w, b);
}

/* The one entry of a PUT's body, its id that of the URL; NULL after an
 * error reply. */
static void *
gmr_body(struct rc_req *rq, enum gm_kind k, uint32_t id)
{
	struct doc	 d;
	struct doc_node	 root, g;
	struct doc_iter	 it;
	void		*s = NULL;
	uint32_t	 got = 0;
	char		 err[256];
	int		 cnt = 0;

	if (rc_body(rq, &d) == -1)
		return NULL;
	doc_root(&d, &root);
	doc_iter_init(&it, &root, gm_kind_name(k));
	while (doc_iter_next(&it, &g) == 1)
		if (++cnt == 1 && (s = gm_parse_kind(k, &g, &got, err,
		    sizeof(err))) == NULL)
			http_error(rq->http, 400, "protocol", "invalid-value",
			    "%s: %s", gm_kind_name(k), err);
	doc_free(&d);
	if (cnt == 1 && s == NULL)
		;	/* told above */
	else if (cnt != 1)
		http_error(rq->http, 400, "protocol", "malformed-message",
		    "Expected one flow-node-inventory:%s list entry",
		    gm_kind_name(k));
	else if (got != id)
		http_error(rq->http, 400, "protocol", "invalid-value",
		    "%s-id %" PRIu32 " does not match %" PRIu32 " of the URL",
		    gm_kind_name(k), got, id);
	else
		return s;
	free(s);
	gm_count_bad_body(k);
	return NULL;
}

static void
gmr_put(struct rc_req *rq, enum gm_kind k, uint64_t dpid, uint32_t id)
{
	void	*s = gmr_body(rq, k, id);
	int	 rc;

	if (s == NULL)
		return;
	if ((rc = gm_put(k, dpid, id, s)) == -1) {
		free(s);
		http_error(rq->http, 409, "application", "resource-denied",
		    "Node openflow:%" PRIu64 " holds its most config %ss "
		    "(--max-%ss-per-node)", dpid, gm_kind_name(k),
		    gm_kind_name(k));
		return;
	}
	/* RFC 8040 section 4.5: 201 created, 204 replaced; the draft's
	 * URLs as OpenDaylight answered them: 201 or 200. */
	http_reply(rq->http, rc == 1 ? 201 : rq->style == RC_STYLE_DRAFT ?
	    200 : 204, NULL);
}

static void
gmr_write(struct rc_req *rq, enum gm_kind k, uint64_t dpid, int keyed,
    uint32_t id)
{
	int	del = rq->http->method == EVHTTP_REQ_DELETE;

	if (!keyed || rq->path.n != 3 || (!del &&
	    rq->http->method != EVHTTP_REQ_PUT)) {
		evhttp_add_header(evhttp_request_get_output_headers(
		    rq->http->ev), "Allow", "GET, PUT, DELETE");
		http_error(rq->http, 405, "protocol",
		    "operation-not-supported", "PUT or DELETE one %s "
		    "(.../node/N/%s/ID)", gm_kind_name(k), gm_kind_name(k));
		return;
	}
	if (!del) {
		gmr_put(rq, k, dpid, id);
		return;
	}
	if (gm_delete(k, dpid, id) == -1) {
		rc_data_missing(rq);
		return;
	}
	http_reply(rq->http, rq->style == RC_STYLE_DRAFT ? 200 : 204, NULL);
}

void
gm_restconf(struct rc_req *rq, enum gm_kind k)
{
	const struct rc_path	*p = &rq->path;
	uint64_t		 dpid;
	uint32_t		 id = 0;
	uint32_t		 max = k == GM_GROUP ? GM_GROUP_MAX :
				    GM_METER_MAX;
	int			 keyed = p->e[2].nkeys > 0;

	if (of_restconf_node_id(p->e[1].key[0], &dpid) == -1) {
		http_error(rq->http, 404, "protocol", "data-missing",
		    "Node '%s' is not an OpenFlow node (openflow:DPID)",
		    p->e[1].key[0]);
		return;
	}
	if (keyed && gmr_id(p->e[2].key[0], max, &id) == -1) {
		http_error(rq->http, 400, "protocol", "invalid-value",
		    "'%s' is not a %s id (0 to %" PRIu32 ")", p->e[2].key[0],
		    gm_kind_name(k), max);
		return;
	}
	if (rq->http->method & (EVHTTP_REQ_GET | EVHTTP_REQ_HEAD))
		gmr_get(rq, k, dpid, keyed, id);
	else
		gmr_write(rq, k, dpid, keyed, id);
}

/* ---- sal-group and sal-meter ---- */

/* add- and remove-: the input is the entry (node-group, node-meter);
 * update-: its updated-group (updated-meter).  Each answers once the
 * switch has answered its MOD and the barrier after it (of_gmwait.c).
 * op: the kind, times 4, plus the command. */
static void
gmr_rpc(struct http_req *h, const struct doc_node *in, int rfc8040,
    int op)
{
	enum gm_kind	 k = (enum gm_kind)(op / 4);
	uint16_t	 cmd = (uint16_t)(op % 4);
	struct doc_node	 e = *in;
	void		*s;
	uint64_t	 dpid;
	uint32_t	 id, xid, bxid;
	char		 err[256], upd[32];

	if (ofrpc_node(h, in, 1, &dpid) == -1)
		return;
	snprintf(upd, sizeof(upd), "updated-%s", gm_kind_name(k));
	if (cmd == 1 && doc_child(in, upd, &e) == -1) {
		http_error(h, 400, "protocol", "missing-element",
		    "The input needs %s", upd);
		return;
	}
	if ((s = gm_parse_kind(k, &e, &id, err, sizeof(err))) == NULL) {
		gm_count_bad_body(k);
		http_error(h, 400, "protocol", "invalid-value", "%s", err);
		return;
	}
	xid = gm_rpc_push(k, dpid, s, cmd, &bxid);
	free(s);
	if (xid == 0 || bxid == 0) {
		http_error(h, 400, "protocol", "operation-not-supported",
		    "openflow:%" PRIu64 " has no %ss (OpenFlow 1.0)", dpid,
		    gm_kind_name(k));
		return;
	}
	gm_wait_add(h, rfc8040, k, dpid, xid, bxid);
}

/* OF_GC_ADD, _MODIFY, _DELETE are 0, 1, 2, as OF_MC_*. */
static const struct rc_rpc gmr_rpcs[] = {
	{ "sal-group", "add-group", gmr_rpc, GM_GROUP * 4 + 0 },
	{ "sal-group", "update-group", gmr_rpc, GM_GROUP * 4 + 1 },
	{ "sal-group", "remove-group", gmr_rpc, GM_GROUP * 4 + 2 },
	{ "sal-meter", "add-meter", gmr_rpc, GM_METER * 4 + 0 },
	{ "sal-meter", "update-meter", gmr_rpc, GM_METER * 4 + 1 },
	{ "sal-meter", "remove-meter", gmr_rpc, GM_METER * 4 + 2 },
};

void
gm_rpc_register(struct http_server *hs)
{
	rc_rpc_register(hs, gmr_rpcs, nitems(gmr_rpcs));
}
