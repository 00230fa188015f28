/*
 * update-lsp over RESTCONF (pcep_nb.h), in both URL styles:
 *   POST /rests/operations/network-topology-pcep:update-lsp
 *   POST /restconf/operations/network-topology-pcep:update-lsp
 * with bgpcep's input: node "pcc://IP", name (pcc-mock's
 * pcc_IP_tunnel_N, which the PCCs use), arguments { lsp { delegate,
 * administrative }, ero { subobject [...] } }; counted per PCC in
 *   GET /rests/data/network-topology:network-topology/
 *       topology=pcep-topology/node=pcc%3A%2F%2FIP?content=nonconfig
 */
#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>

#include "pcep_nb.h"

#define NB_TOPO_REF "/network-topology:network-topology/network-topology:" \
	"topology[network-topology:topology-id=\\\"pcep-topology\\\"]"

static const struct pcep_nb_ctx *
pcepnb_ctx(const struct nb_opts *o)
{
	return o->ctx;
}

/* LSP number first of the run is tunnel (first mod M) + 1 of its PCC,
 * whose node id is "pcc://IP". */
static int
pcepnb_update(const struct nb_opts *o, const char *node, uint64_t first,
    uint32_t n, struct nb_msg *m)
{
	const struct pcep_nb_ctx	*c = pcepnb_ctx(o);
	const char			*ip = node + strlen("pcc://");
	uint32_t			 ep = c->endpoint;
	int				 len;

	(void)n;
	nb_msg_start(o, m, NB_POST);
	len = snprintf(m->path, sizeof(m->path), "%s/network-topology-pcep:"
	    "update-lsp", o->style == NB_STYLE_RFC8040 ? "/rests/operations" :
	    "/restconf/operations");
	if (len < 0 || (size_t)len >= sizeof(m->path) ||
	    strncmp(node, "pcc://", 6) != 0)
		return -1;
	evbuffer_add_printf(m->body, "{\"input\":{\"node\":\"%s\","
	    "\"name\":\"pcc_%s_tunnel_%llu\",\"network-topology-ref\":\"%s\","
	    "\"arguments\":{\"lsp\":{\"delegate\":true,\"administrative\":"
	    "true},\"ero\":{\"subobject\":[{\"loose\":false,\"ip-prefix\":"
	    "{\"ip-prefix\":\"" PCEP_NB_MARK "\"}},{\"loose\":false,"
	    "\"ip-prefix\":{\"ip-prefix\":\"%u.%u.%u.%u/32\"}}]}}}}", node, ip,
	    (unsigned long long)(first % c->lsps + 1), NB_TOPO_REF, ep >> 24,
	    (ep >> 16) & 0xff, (ep >> 8) & 0xff, ep & 0xff);
	return 0;
}

/* One PCC's node of pcep-topology: its LSPs' reported paths. */
static int
pcepnb_count(const struct nb_opts *o, const char *node, struct nb_msg *m)
{
	nb_msg_start(o, m, NB_GET);
	return nb_topo_path(o, "pcep-topology", 0, node, NULL,
	    "content=nonconfig", m->path, sizeof(m->path));
}

/* LSPs whose reported path begins with the new first hop. */
static int
pcepnb_parse_count(const struct nb_opts *o, int status, const char *body,
    size_t len, uint64_t *out)
{
	const char	*key = "\"" PCEP_NB_MARK "\"";
	const char	*p = body, *end = body + len, *hit;
	size_t		 klen = strlen(key);

	(void)o;
	*out = 0;
	if (status == 404)
		return 0;	/* the PCC is not there (yet) */
	if (status != 200)
		return -1;
	while (p < end && (hit = memmem(p, (size_t)(end - p), key,
	    klen)) != NULL) {
		(*out)++;
		p = hit + klen;
	}
	return 0;
}

const struct nb_driver pcep_nb_odl_driver = {
	"odl",
	pcepnb_update,
	NULL,		/* updates stay: no delete stage */
	pcepnb_count,
	pcepnb_parse_count,
};
