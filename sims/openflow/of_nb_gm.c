/*
 * The OpenDaylight RESTCONF northbound driver for groups and meters
 * (`sbsim openflow --northbound odl:URL --groups-per-switch G`,
 * `--meters-per-switch M`): each item a PUT of one
 * flow-node-inventory:group (meter) to the config datastore,
 *   RFC 8040:  /rests/data/opendaylight-inventory:nodes/node=openflow%3A1/group=7
 *   draft:     /restconf/config/opendaylight-inventory:nodes/node/openflow:1/group/7
 * deleted the same way, and counted in the node's operational view (the
 * length of its group or meter list), as CSIT's Groups_Meters suite
 * writes and reads them.  Item n is group (meter) n+1: an ALL group of
 * one bucket output:1, a kbps meter of one DROP band of 1000 kbit/s.
 * o->ctx points at the kind (0 groups, 1 meters).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>
#include <jansson.h>
#include <libxml/tree.h>

#include "of_nb.h"

#define ODL_NODES	"opendaylight-inventory:nodes"
#define ODL_FLOW_NS	"urn:opendaylight:flow:inventory"

static const char *const gmnb_list[2] = { "group", "meter" };

static int
gmnb_kind(const struct nb_opts *o)
{
	return o->ctx != NULL && *(const int *)o->ctx == 1;
}

/* The node's path, and the item's below it (id 0: none). */
static int
gmnb_path(const struct nb_opts *o, const char *node, int config,
    uint64_t id, char *out, size_t cap)
{
	char		enc[3 * NB_NODE_MAX + 1];
	const char	*l = gmnb_list[gmnb_kind(o)];
	int		n;

	if (o->style == NB_STYLE_RFC8040) {
		if (nb_pct_encode(node, enc, sizeof(enc)) == -1)
			return -1;
		n = id ? snprintf(out, cap, "/rests/data/" ODL_NODES
		    "/node=%s/flow-node-inventory:%s=%" PRIu64, enc, l, id) :
		    snprintf(out, cap, "/rests/data/" ODL_NODES "/node=%s"
		    "?content=nonconfig", enc);
	} else
		n = id ? snprintf(out, cap, "/restconf/config/" ODL_NODES
		    "/node/%s/%s/%" PRIu64, node, l, id) :
		    snprintf(out, cap, "/restconf/%s/" ODL_NODES "/node/%s",
		    config ? "config" : "operational", node);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

static void
gmnb_json(const struct nb_opts *o, uint64_t id, struct evbuffer *b)
{
	const char	*top = o->style == NB_STYLE_RFC8040 ?
			    "flow-node-inventory:" : "";

	if (gmnb_kind(o) == 0)
		evbuffer_add_printf(b, "{\"%sgroup\":[{\"group-id\":%" PRIu64
		    ",\"group-type\":\"group-all\",\"group-name\":\"sbsim-%"
		    PRIu64 "\",\"buckets\":{\"bucket\":[{\"bucket-id\":0,"
		    "\"action\":[{\"order\":0,\"output-action\":{"
		    "\"output-node-connector\":\"1\"}}]}]}}]}", top, id, id);
	else
		evbuffer_add_printf(b, "{\"%smeter\":[{\"meter-id\":%" PRIu64
		    ",\"flags\":\"meter-kbps\",\"meter-name\":\"sbsim-%"
		    PRIu64 "\",\"meter-band-headers\":{\"meter-band-header\":"
		    "[{\"band-id\":0,\"meter-band-types\":{\"flags\":"
		    "\"ofpmbt-drop\"},\"drop-rate\":1000,\"drop-burst-size\":"
		    "0}]}}]}", top, id, id);
}

static void
gmnb_xml(const struct nb_opts *o, uint64_t id, struct evbuffer *b)
{
	if (gmnb_kind(o) == 0)
		evbuffer_add_printf(b, "<group xmlns=\"" ODL_FLOW_NS "\">"
		    "<group-id>%" PRIu64 "</group-id><group-type>group-all"
		    "</group-type><group-name>sbsim-%" PRIu64 "</group-name>"
		    "<buckets><bucket><bucket-id>0</bucket-id><action><order>0"
		    "</order><output-action><output-node-connector>1"
		    "</output-node-connector></output-action></action>"
		    "</bucket></buckets></group>", id, id);
	else
		evbuffer_add_printf(b, "<meter xmlns=\"" ODL_FLOW_NS "\">"
		    "<meter-id>%" PRIu64 "</meter-id><flags>meter-kbps</flags>"
		    "<meter-name>sbsim-%" PRIu64 "</meter-name>"
		    "<meter-band-headers><meter-band-header><band-id>0"
		    "</band-id><meter-band-types><flags>ofpmbt-drop</flags>"
		    "</meter-band-types><drop-rate>1000</drop-rate>"
		    "<drop-burst-size>0</drop-burst-size></meter-band-header>"
		    "</meter-band-headers></meter>", id, id);
}

/* One item per request: PUT (add) or DELETE (del) of item first. */
static int
gmnb_one(const struct nb_opts *o, const char *node, uint64_t first,
    uint32_t n, struct nb_msg *m, int add)
{
	if (n != 1 || gmnb_path(o, node, 1, first + 1, m->path,
	    sizeof(m->path)) == -1)
		return -1;
	m->method = add ? NB_PUT : NB_DELETE;
	m->accept = nb_media(o);
	m->ctype = add ? nb_media(o) : NULL;
	if (add && o->format == NB_FMT_XML)
		gmnb_xml(o, first + 1, m->body);
	else if (add)
		gmnb_json(o, first + 1, m->body);
	return 0;
}

static int
gmnb_add(const struct nb_opts *o, const char *node, uint64_t first,
    uint32_t n, struct nb_msg *m)
{
	return gmnb_one(o, node, first, n, m, 1);
}

static int
gmnb_del(const struct nb_opts *o, const char *node, uint64_t first,
    uint32_t n, struct nb_msg *m)
{
	return gmnb_one(o, node, first, n, m, 0);
}

static int
gmnb_count(const struct nb_opts *o, const char *node, struct nb_msg *m)
{
	m->method = NB_GET;
	m->ctype = NULL;
	m->accept = nb_media(o);
	return gmnb_path(o, node, 0, 0, m->path, sizeof(m->path));
}

/* The length of the first list (JSON array) called name. */
static int
gmnb_json_count(json_t *v, uint64_t *out)
{
	if (!json_is_array(v))
		return 0;
	*out = json_array_size(v);
	return 1;
}

/* The entries called name among a node's children (XML repeats a
 * list's element). */
static int
gmnb_xml_count(xmlNode *n, const char *name, uint64_t *out)
{
	for (; n != NULL; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (xmlStrcmp(n->name, BAD_CAST "node") == 0) {
			for (xmlNode *c = n->children; c != NULL; c = c->next)
				*out += c->type == XML_ELEMENT_NODE &&
				    xmlStrcmp(c->name, BAD_CAST name) == 0;
			return 1;
		}
		if (gmnb_xml_count(n->children, name, out) == 1)
			return 1;
	}
	return 0;
}

static int
gmnb_parse_count(const struct nb_opts *o, int status, const char *body,
    size_t len, uint64_t *out)
{
	return of_nb_parse(o, status, body, len, out, gmnb_json_count,
	    gmnb_xml_count, gmnb_list[gmnb_kind(o)]);
}

const struct nb_driver of_nb_odl_gm_driver = {
	"odl",
	gmnb_add,
	gmnb_del,
	gmnb_count,
	gmnb_parse_count,
};
