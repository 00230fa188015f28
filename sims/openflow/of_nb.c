/*
 * The OpenDaylight RESTCONF northbound driver: flows in the
 * flow-node-inventory shape (model opendaylight-flow-inventory), written
 * to the config datastore and counted through the operational one, in
 * both URL styles ODL serves:
 *   RFC 8040 (section 3.5.3):  /rests/data/opendaylight-inventory:nodes/
 *       node=openflow%3A1/flow-node-inventory:table=0/flow=7
 *       (keys percent-encoded), reads with ?content=nonconfig (4.8.1)
 *   draft-bierman-netconf-restconf-02: /restconf/config/
 *       opendaylight-inventory:nodes/node/openflow:1/table/0/flow/7,
 *       reads under /restconf/operational/
 * One flow per request is a PUT of .../flow={id}; a batch is a POST of
 * the flow list to the table (ODL accepts a JSON list of several entries).
 * An XML document has one root, so XML carries one flow per request
 * (nb_check refuses XML batches).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>
#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "of_nb.h"

#define ODL_NODES	"opendaylight-inventory:nodes"
#define ODL_FLOW_NS	"urn:opendaylight:flow:inventory"
#define ODL_PRIORITY	2
#define ODL_ETH_IPV4	2048

#define ODL_TABLE_STATS	\
	"opendaylight-flow-table-statistics:flow-table-statistics"

/* The table's path; config 0 reads the operational datastore. */
static int
odl_table_path(const struct nb_opts *o, const char *node, int config,
    char *out, size_t cap)
{
	char	enc[3 * NB_NODE_MAX + 1];
	int	n;

	if (o->style == NB_STYLE_RFC8040) {
		if (nb_pct_encode(node, enc, sizeof(enc)) == -1)
			return -1;
		n = snprintf(out, cap, "/rests/data/" ODL_NODES
		    "/node=%s/flow-node-inventory:table=%u", enc, o->table);
	} else
		n = snprintf(out, cap, "/restconf/%s/" ODL_NODES
		    "/node/%s/table/%u", config ? "config" : "operational",
		    node, o->table);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

static int
odl_flow_path(const struct nb_opts *o, const char *node, uint64_t id,
    char *out, size_t cap)
{
	size_t	len;
	int	n;

	if (odl_table_path(o, node, 1, out, cap) == -1)
		return -1;
	len = strlen(out);
	n = snprintf(out + len, cap - len, o->style == NB_STYLE_RFC8040 ?
	    "/flow=%" PRIu64 : "/flow/%" PRIu64, id);
	return n < 0 || (size_t)n >= cap - len ? -1 : 0;
}

static void
odl_flow_json(const struct nb_opts *o, uint64_t id, struct evbuffer *b)
{
	char	ip[32];

	nb_flow_ipv4(id, ip, sizeof(ip));
	evbuffer_add_printf(b, "{\"id\":\"%" PRIu64 "\",\"table_id\":%u,"
	    "\"priority\":%d,\"match\":{\"ethernet-match\":{\"ethernet-type\":"
	    "{\"type\":%d}},\"ipv4-destination\":\"%s/32\"},"
	    "\"instructions\":{\"instruction\":[{\"order\":0,"
	    "\"apply-actions\":{\"action\":[{\"order\":0,\"output-action\":"
	    "{\"output-node-connector\":\"1\",\"max-length\":65535}}]}}]}}",
	    id, o->table, ODL_PRIORITY, ODL_ETH_IPV4, ip);
}

static void
odl_flow_xml(const struct nb_opts *o, uint64_t id, struct evbuffer *b)
{
	char	ip[32];

	nb_flow_ipv4(id, ip, sizeof(ip));
	evbuffer_add_printf(b, "<flow xmlns=\"" ODL_FLOW_NS "\"><id>%" PRIu64
	    "</id><table_id>%u</table_id><priority>%d</priority><match>"
	    "<ethernet-match><ethernet-type><type>%d</type></ethernet-type>"
	    "</ethernet-match><ipv4-destination>%s/32</ipv4-destination>"
	    "</match><instructions><instruction><order>0</order>"
	    "<apply-actions><action><order>0</order><output-action>"
	    "<output-node-connector>1</output-node-connector>"
	    "<max-length>65535</max-length></output-action></action>"
	    "</apply-actions></instruction></instructions></flow>",
	    id, o->table, ODL_PRIORITY, ODL_ETH_IPV4, ip);
}

static int
odl_add(const struct nb_opts *o, const char *node, uint64_t first,
    uint32_t n, struct nb_msg *m)
{
	int	rc;

	if (n == 0 || (o->format == NB_FMT_XML && n != 1))
		return -1;
	if (o->per_request == 1) {
		m->method = NB_PUT;
		rc = odl_flow_path(o, node, first, m->path, sizeof(m->path));
	} else {
		m->method = NB_POST;
		rc = odl_table_path(o, node, 1, m->path, sizeof(m->path));
	}
	if (rc == -1)
		return -1;
	m->ctype = m->accept = nb_media(o);
	if (o->format == NB_FMT_XML) {
		odl_flow_xml(o, first, m->body);
		return 0;
	}
	nb_json_list(o, m->body, o->style == NB_STYLE_RFC8040 ?
	    "{\"flow-node-inventory:flow\":[" : "{\"flow\":[", odl_flow_json,
	    first, n, "]}");
	return 0;
}

static int
odl_del(const struct nb_opts *o, const char *node, uint64_t first,
    uint32_t n, struct nb_msg *m)
{
	m->method = NB_DELETE;
	m->ctype = NULL;
	m->accept = nb_media(o);
	if (n == 0)
		return odl_table_path(o, node, 1, m->path, sizeof(m->path));
	return odl_flow_path(o, node, first, m->path, sizeof(m->path));
}

static int
odl_count(const struct nb_opts *o, const char *node, struct nb_msg *m)
{
	size_t	len;

	m->method = NB_GET;
	m->ctype = NULL;
	m->accept = nb_media(o);
	if (odl_table_path(o, node, 0, m->path, sizeof(m->path)) == -1)
		return -1;
	/* Only the table's statistics: active-flows is all the count needs,
	 * and the whole flow list of a big table costs both sides dearly. */
	len = strlen(m->path);
	if (snprintf(m->path + len, sizeof(m->path) - len, "/%s%s",
	    ODL_TABLE_STATS, o->style == NB_STYLE_RFC8040 ?
	    "?content=nonconfig" : "") >= (int)(sizeof(m->path) - len))
		return -1;
	return 0;
}

/* The first member called name anywhere in the document (a "module:"
 * prefix on its key ignored, RFC 8040 section 4.8.1) that take()
 * accepts: 1 found, 0 not. */
static int
nb_json_find(json_t *j, const char *name, of_nb_json_take take,
    uint64_t *out)
{
	const char	*key, *colon;
	json_t		*v;
	size_t		 i;

	if (json_is_object(j)) {
		json_object_foreach(j, key, v) {
			colon = strrchr(key, ':');
			if (strcmp(colon ? colon + 1 : key, name) == 0 &&
			    take(v, out) == 1)
				return 1;
			if (nb_json_find(v, name, take, out) == 1)
				return 1;
		}
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			if (nb_json_find(v, name, take, out) == 1)
				return 1;
	}
	return 0;
}

/* "active-flows": a non-negative integer. */
static int
odl_json_count(json_t *v, uint64_t *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return 0;
	*out = (uint64_t)json_integer_value(v);
	return 1;
}

static int
odl_xml_find(xmlNode *n, const char *name, uint64_t *out)
{
	xmlChar			*s;
	unsigned long long	 v;
	char			*end;
	int			 rc;

	for (; n != NULL; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (xmlStrcmp(n->name, BAD_CAST name) == 0) {
			s = xmlNodeGetContent(n);
			if (s == NULL)
				return -1;
			v = strtoull((const char *)s, &end, 10);
			rc = *s != '\0' && *end == '\0' ? 1 : -1;
			xmlFree(s);
			*out = v;
			return rc;
		}
		if ((rc = odl_xml_find(n->children, name, out)) != 0)
			return rc;
	}
	return 0;
}

int
of_nb_parse(const struct nb_opts *o, int status, const char *body,
    size_t len, uint64_t *out, of_nb_json_take jtake, of_nb_xml_find xfind,
    const char *name)
{
	json_error_t	 jerr;
	json_t		*j;
	xmlDoc		*doc;
	int		 rc;

	*out = 0;
	/* What the statistics have not reached yet: 0 for now. */
	if (status == 404)
		return 0;
	if (status < 200 || status > 299)
		return -1;
	if (o->format == NB_FMT_XML) {
		doc = xmlReadMemory(body, (int)len, NULL, NULL,
		    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
		if (doc == NULL)
			return -1;
		rc = xfind(xmlDocGetRootElement(doc), name, out);
		xmlFreeDoc(doc);
		return rc == -1 ? -1 : 0;
	}
	if ((j = json_loadb(body, len, 0, &jerr)) == NULL)
		return -1;
	nb_json_find(j, name, jtake, out);
	json_decref(j);
	return 0;
}

static int
odl_parse_count(const struct nb_opts *o, int status, const char *body,
    size_t len, uint64_t *out)
{
	return of_nb_parse(o, status, body, len, out, odl_json_count,
	    odl_xml_find, "active-flows");
}

const struct nb_driver of_nb_odl_driver = {
	"odl",
	odl_add,
	odl_del,
	odl_count,
	odl_parse_count,
};
