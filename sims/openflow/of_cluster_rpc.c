/*
 * sbsim-cluster:set-role, the operation that makes an embedded controller
 * (a member of a controller cluster, `sbsim controller --role`) master,
 * slave or equal at run time, under both URL styles:
 *
 *   POST /rests/operations/sbsim-cluster:set-role
 *   POST /restconf/operations/sbsim-cluster:set-role
 *   {"input": {"role": "master", "generation-id": "7"}}
 *
 * generation-id is optional (default: one past the largest the member
 * used or heard from a switch).  The member sends ROLE_REQUEST to every
 * switch (OpenFlow 1.3.5 section 6.3.6, A.3.9) and, as master, pushes its
 * flows; the output says the role, the generation id and how many
 * switches were asked.  What a cluster's failover test needs, without a
 * JVM (yang/sbsim-cluster@2026-12-01.yang).
 */
#include <stdio.h>
#include <string.h>

#include "doc.h"
#include "http_server.h"
#include "log.h"
#include "of_cluster.h"
#include "of_codec.h"
#include "of_ctl.h"
#include "of_restconf.h"
#include "restconf.h"

static const struct doc_module ofcl_mod = {
	"sbsim-cluster", "urn:sbsim:cluster"
};

/* "master", "slave" or "equal": OF_ROLE_*, or 0 for anything else. */
static uint8_t
ofcl_role_parse(const char *s)
{
	if (strcmp(s, "master") == 0)
		return OF_ROLE_MASTER;
	if (strcmp(s, "slave") == 0)
		return OF_ROLE_SLAVE;
	if (strcmp(s, "equal") == 0)
		return OF_ROLE_EQUAL;
	return 0;
}

static void
ofcl_output(struct http_req *h, int rfc8040, uint8_t role, uint64_t gen,
    uint64_t switches)
{
	struct doc_writer	 w;
	struct evbuffer		*b;

	b = rc_http_writer(h, &w);
	doc_container(&w, rfc8040 || h->reply_fmt == HTTP_FMT_XML ?
	    &ofcl_mod : NULL, "output");
	doc_leaf_str(&w, "role", of_role_name(role));
	doc_leaf_uint(&w, "generation-id", gen);
	doc_leaf_uint(&w, "switches", switches);
	doc_end(&w);
	rc_http_send(h, &w, b);
}

static void
ofcl_set_role(struct http_req *h, const struct doc_node *in, int rfc8040,
    int op)
{
	struct doc_node	 leaf;
	char		 name[16];
	uint64_t	 gen = 0, used, n;
	uint8_t		 role;

	(void)op;
	if (doc_get_string(in, "role", name, sizeof(name)) == -1) {
		http_error(h, 400, "protocol", "missing-element",
		    "set-role needs input/role: master, slave or equal");
		return;
	}
	if ((role = ofcl_role_parse(name)) == 0) {
		http_error(h, 400, "protocol", "invalid-value",
		    "set-role: role '%s' is not master, slave or equal", name);
		return;
	}
	if (doc_child(in, "generation-id", &leaf) == 0 &&
	    doc_uint(&leaf, UINT64_MAX, &gen) == -1) {
		http_error(h, 400, "protocol", "invalid-value",
		    "set-role: generation-id is not a uint64");
		return;
	}
	n = of_ctl_set_role(role, gen, &used);
	ofcl_output(h, rfc8040, role, used, n);
}

static const struct rc_rpc ofcl_rpc = {
	"sbsim-cluster", "set-role", ofcl_set_role, 0
};

void
of_cluster_rpc_register(struct http_server *hs)
{
	rc_rpc_register(hs, &ofcl_rpc, 1);
}
