/*
 * network-topology:network-topology/topology=pcep-topology as OpenDaylight's
 * bgpcep shows it (network-topology-pcep.yang, odl-pcep-ietf-stateful.yang):
 * one node "pcc://IP" per PCC whose session is up, its
 * path-computation-client with ip-address, state-sync, stateful-tlv and
 * reported-lsp [name] -> path [lsp-id] -> ero and odl-pcep-ietf-stateful:lsp;
 * and the RPCs update-lsp, add-lsp and remove-lsp, answered (as ODL does)
 * once the PCC's PCRpt or PCErr for the request's SRP-ID is back.
 */
#include <arpa/inet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/http.h>

#include "log.h"
#include "pcep_assoc.h"
#include "pcep_ctl.h"
#include "pcep_restconf.h"
#include "rc_topology.h"
#include "restconf.h"

#define PR_TOPOLOGY	"pcep-topology"

static const struct doc_module pn_mod = {
	"network-topology-pcep", "urn:opendaylight:params:xml:ns:yang:topology:pcep"
};
static const struct doc_module st_mod = {
	"odl-pcep-ietf-stateful",
	"urn:opendaylight:params:xml:ns:yang:pcep:ietf:stateful"
};
static const struct doc_module ini_mod = {
	"odl-pcep-ietf-initiated",
	"urn:opendaylight:params:xml:ns:yang:pcep:ietf:initiated"
};
static const struct doc_module sr_mod = {
	"odl-pcep-segment-routing",
	"urn:opendaylight:params:xml:ns:yang:pcep:segment:routing"
};
static const struct doc_module stats_mod = {
	"network-pcep-topology-stats",
	"urn:opendaylight:params:xml:ns:yang:topology:pcep:stats"
};
static const struct doc_module sst_mod = {
	"odl-pcep-stateful-stats",
	"urn:opendaylight:params:xml:ns:yang:pcep:stateful:stats"
};

/* Below network-topology's node (rc_topology.h has the rest). */
static const struct rc_list pr_lists[] = {
	{ "reported-lsp", 1 },
	{ "path", 1 },
	{ NULL, 0 },
};

/* ---- small writers the doc API lacks ---- */

/*
 * A leaf of a module augmenting its parent (mod, NULL for none), text
 * needing no escape: JSON names it module:name (RFC 7951 section 4) and
 * quotes a string (quote), XML gives it the module's namespace.
 */
static void
pr_leaf(struct doc_writer *w, const struct doc_module *mod, const char *name,
    const char *text, int quote)
{
	const char	*q = quote ? "\"" : "";

	if (w->fmt == HTTP_FMT_JSON) {
		if (!w->lvl[w->depth].first)
			evbuffer_add(w->out, ",", 1);
		w->lvl[w->depth].first = 0;
		evbuffer_add_printf(w->out, "\"%s%s%s\":%s%s%s", mod ?
		    mod->name : "", mod ? ":" : "", name, q, text, q);
	} else if (mod != NULL)
		evbuffer_add_printf(w->out, "<%s xmlns=\"%s\">%s</%s>", name,
		    mod->ns, text, name);
	else
		evbuffer_add_printf(w->out, "<%s>%s</%s>", name, text, name);
}

static void
pr_leaf_bool(struct doc_writer *w, const char *name, int v)
{
	pr_leaf(w, NULL, name, v ? "true" : "false", 0);
}

static void
pr_leaf_qbool(struct doc_writer *w, const struct doc_module *mod,
    const char *name, int v)
{
	pr_leaf(w, mod, name, v ? "true" : "false", 0);
}

static void
pr_leaf_quint(struct doc_writer *w, const struct doc_module *mod,
    const char *name, uint64_t v)
{
	char	num[24];

	snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
	pr_leaf(w, mod, name, num, 0);
}

static void
pr_ip(uint32_t a, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u.%u", a >> 24, (a >> 16) & 0xff,
	    (a >> 8) & 0xff, a & 0xff);
}

/* RFC 4648 section 4: YANG binary (path-name) in base64. */
static void
pr_base64(const char *in, char *out, size_t cap)
{
	static const char	 tab[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t			 n = strlen(in), i, o = 0;
	uint32_t		 v;

	for (i = 0; i < n && o + 5 < cap; i += 3) {
		v = (uint32_t)(uint8_t)in[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)(uint8_t)in[i + 1] << 8;
		if (i + 2 < n)
			v |= (uint8_t)in[i + 2];
		out[o++] = tab[v >> 18 & 63];
		out[o++] = tab[v >> 12 & 63];
		out[o++] = i + 1 < n ? tab[v >> 6 & 63] : '=';
		out[o++] = i + 2 < n ? tab[v & 63] : '=';
	}
	out[o] = '\0';
}

/* ---- GET ---- */

static const char *
pr_oper_name(uint8_t oper)
{
	static const char *const names[] = { "down", "up", "active",
	    "going-down", "going-up" };

	return oper < 5 ? names[oper] : "down";
}

static void
pr_hop(struct doc_writer *w, const struct pcep_hop_rec *h)
{
	char	ip[48];

	doc_entry(w);
	pr_leaf_bool(w, "loose", h->loose);
	if (h->kind == PCEP_SUBOBJ_SRV6) {
		/* RFC 9603's SRv6-ERO: its SID and endpoint behavior. */
		inet_ntop(AF_INET6, h->sid6, ip, sizeof(ip));
		doc_leaf_str(w, "srv6-sid", ip);
		doc_leaf_uint(w, "endpoint-behavior", h->behavior);
	} else if (h->kind == PCEP_SUBOBJ_SR) {
		/* odl-pcep-segment-routing's sr-subobject. */
		pr_leaf(w, &sr_mod, "sid-type", h->nt == PCEP_NAI_IPV4_ADJ ?
		    "ipv4-adjacency" : "ipv4-node-id", 1);
		pr_leaf_qbool(w, &sr_mod, "m-flag", h->sr_flags &
		    PCEP_SR_FLAG_M);
		pr_leaf_quint(w, &sr_mod, "sid", h->sr_flags & PCEP_SR_FLAG_M ?
		    h->sid >> PCEP_SR_LABEL_SHIFT : h->sid);
		if (h->nt != PCEP_NAI_ABSENT) {
			pr_ip(h->addr, ip, sizeof(ip));
			pr_leaf(w, &sr_mod, h->nt == PCEP_NAI_IPV4_ADJ ?
			    "local-ipv4-address" : "ip-address", ip, 1);
		}
	} else {
		pr_ip(h->addr, ip, sizeof(ip));
		snprintf(ip + strlen(ip), sizeof(ip) - strlen(ip), "/%u",
		    h->plen);
		doc_container(w, NULL, "ip-prefix");
		doc_leaf_str(w, "ip-prefix", ip);
		doc_end(w);
	}
	doc_end(w);
}

/* TE-PATH-BINDING (RFC 9604): its binding type and value. */
static void
pr_bsid(struct doc_writer *w, const struct pcep_bsid *b)
{
	char	buf[INET6_ADDRSTRLEN];

	doc_container(w, NULL, "te-path-binding");
	doc_leaf_uint(w, "binding-type", b->bt);
	if (b->bt == PCEP_BT_MPLS_LABEL)
		doc_leaf_uint(w, "mpls-label", b->value >> PCEP_SR_LABEL_SHIFT);
	else if (b->bt == PCEP_BT_MPLS_LSE)
		doc_leaf_uint(w, "mpls-label-stack-entry", b->value);
	else {
		inet_ntop(AF_INET6, b->sid, buf, sizeof(buf));
		doc_leaf_str(w, "srv6-sid", buf);
	}
	if (b->bt == PCEP_BT_SRV6_BEHAVIOR)
		doc_leaf_uint(w, "srv6-endpoint-behavior",
		    (uint32_t)b->behavior[2] << 8 | b->behavior[3]);
	doc_end(w);
}

static void
pr_lsp_tlvs(struct doc_writer *w, const struct pcep_ctl_lsp *l)
{
	char	ip[16], b64[PCEP_NAME_MAX * 2];

	doc_container(w, NULL, "tlvs");
	if (l->has_ids) {
		doc_container(w, NULL, "lsp-identifiers");
		doc_container(w, NULL, "ipv4");
		pr_ip(l->sender, ip, sizeof(ip));
		doc_leaf_str(w, "ipv4-tunnel-sender-address", ip);
		pr_ip(l->endpoint, ip, sizeof(ip));
		doc_leaf_str(w, "ipv4-tunnel-endpoint-address", ip);
		pr_ip(l->ext_id, ip, sizeof(ip));
		doc_leaf_str(w, "ipv4-extended-tunnel-id", ip);
		doc_end(w);
		doc_leaf_uint(w, "tunnel-id", l->tunnel_id);
		doc_leaf_uint(w, "lsp-id", l->lsp_id);
		doc_end(w);
	}
	doc_container(w, NULL, "symbolic-path-name");
	pr_base64(l->name, b64, sizeof(b64));
	doc_leaf_str(w, "path-name", b64);
	doc_end(w);
	if (l->has_dbv) {
		doc_container(w, NULL, "lsp-db-version");
		doc_leaf_uint(w, "lsp-db-version-value", l->dbv);
		doc_end(w);
	}
	if (l->bsid != NULL)
		pr_bsid(w, l->bsid);
	doc_end(w);
}

/* An address of an ASSOCIATION object (network order, af 4 or 6). */
static void
pr_addr(struct doc_writer *w, const char *name, uint8_t af,
    const uint8_t *a)
{
	char	buf[INET6_ADDRSTRLEN];

	inet_ntop(af == 6 ? AF_INET6 : AF_INET, a, buf, sizeof(buf));
	doc_leaf_str(w, name, buf);
}

/* The SR policy and candidate path of an SR policy association. */
static void
pr_sr_policy(struct doc_writer *w, const struct pcep_assoc *a)
{
	static const uint8_t	zero[12];

	doc_container(w, NULL, "sr-policy");
	if (a->has_color) {
		doc_leaf_uint(w, "color", a->color);
		pr_addr(w, "endpoint", a->ep_af, a->ep);
	}
	if (a->pol_name != NULL)
		doc_leaf_str(w, "policy-name", a->pol_name);
	if (a->cp_name != NULL)
		doc_leaf_str(w, "candidate-path-name", a->cp_name);
	if (a->has_pref)
		doc_leaf_uint(w, "preference", a->pref);
	if (a->has_cpath_id) {
		doc_leaf_uint(w, "protocol-origin", a->origin);
		doc_leaf_uint(w, "originator-asn", a->orig_asn);
		/* An IPv4 originator sits in the low 32 bits. */
		if (memcmp(a->orig_addr, zero, 12) == 0)
			pr_addr(w, "originator-address", 4, a->orig_addr + 12);
		else
			pr_addr(w, "originator-address", 6, a->orig_addr);
		doc_leaf_uint(w, "discriminator", a->discriminator);
	}
	doc_end(w);
}

/*
 * An LSP's association groups (RFC 8697), keyed as ietf-pcep's
 * association-list (type, id, source), with each type's TLVs.
 */
static void
pr_assoc(struct doc_writer *w, const struct pcep_ctl_lsp *l)
{
	const struct pcep_assoc	*a;
	uint8_t			 i;

	if (l->n_assoc == 0)
		return;
	doc_list(w, NULL, "association-list");
	for (i = 0; i < l->n_assoc; i++) {
		a = &l->assoc[i];
		doc_entry(w);
		doc_leaf_uint(w, "type", a->type);
		doc_leaf_str(w, "type-name", pcep_assoc_type_name(a->type));
		doc_leaf_uint(w, "id", a->id);
		pr_addr(w, "source", a->af, a->src);
		if (a->has_prot) {
			doc_container(w, NULL, "path-protection");
			pr_leaf_bool(w, "protecting", a->prot & PCEP_PROT_P);
			pr_leaf_bool(w, "secondary", a->prot & PCEP_PROT_S);
			doc_leaf_uint(w, "protection-type",
			    a->prot >> PCEP_PROT_PT_SHIFT);
			doc_end(w);
		}
		if (a->has_disjoint) {
			doc_container(w, NULL, "disjointness");
			pr_leaf_bool(w, "link-diverse", a->disjoint & PCEP_DISJ_L);
			pr_leaf_bool(w, "node-diverse", a->disjoint & PCEP_DISJ_N);
			pr_leaf_bool(w, "srlg-diverse", a->disjoint & PCEP_DISJ_S);
			doc_end(w);
		}
		if (a->has_color || a->pol_name != NULL || a->has_pref)
			pr_sr_policy(w, a);
		doc_end(w);
	}
	doc_end(w);
}

static void
pr_reported_lsp(struct doc_writer *w, const struct pcep_ctl_lsp *l)
{
	uint8_t	i;

	doc_entry(w);
	doc_leaf_str(w, "name", l->name);
	doc_list(w, NULL, "path");
	doc_entry(w);
	doc_leaf_uint(w, "lsp-id", l->lsp_id);
	doc_container(w, NULL, "ero");
	pr_leaf_bool(w, "processing-rule", l->ero_obj_flags & PCEP_OBJ_FLAG_P);
	pr_leaf_bool(w, "ignore", l->ero_obj_flags & PCEP_OBJ_FLAG_I);
	doc_list(w, NULL, "subobject");
	for (i = 0; i < l->nhops; i++)
		pr_hop(w, &l->hops[i]);
	doc_end(w);
	doc_end(w);
	doc_container(w, &st_mod, "lsp");
	doc_leaf_uint(w, "plsp-id", l->plsp_id);
	pr_leaf_bool(w, "processing-rule", l->lsp_obj_flags & PCEP_OBJ_FLAG_P);
	pr_leaf_bool(w, "ignore", l->lsp_obj_flags & PCEP_OBJ_FLAG_I);
	pr_leaf_bool(w, "delegate", l->flags & PCEP_LSP_FLAG_D);
	pr_leaf_bool(w, "sync", l->flags & PCEP_LSP_FLAG_S);
	pr_leaf_bool(w, "remove", l->flags & PCEP_LSP_FLAG_R);
	pr_leaf_bool(w, "administrative", l->flags & PCEP_LSP_FLAG_A);
	pr_leaf_qbool(w, &ini_mod, "create", l->flags & PCEP_LSP_FLAG_C);
	doc_leaf_str(w, "operational", pr_oper_name(l->oper));
	pr_lsp_tlvs(w, l);
	doc_end(w);
	doc_container(w, NULL, "path-setup-type");
	doc_leaf_uint(w, "pst", l->pst);
	doc_end(w);
	pr_assoc(w, l);
	doc_end(w);		/* path entry */
	doc_end(w);		/* path list */
	doc_end(w);		/* reported-lsp entry */
}

static void
pr_pcc(struct doc_writer *w, const struct pcep_ctl_sess *s,
    const struct pcep_ctl_lsp *only)
{
	uint32_t	i, f = pcep_ctl_sess_stateful(s);
	char		ip[16];

	doc_container(w, &pn_mod, "path-computation-client");
	pr_ip(pcep_ctl_sess_addr(s), ip, sizeof(ip));
	doc_leaf_str(w, "ip-address", ip);
	doc_leaf_str(w, "state-sync", pcep_ctl_sess_synced(s) ? "synchronized" :
	    "initial-resync");
	doc_container(w, NULL, "stateful-tlv");
	doc_container(w, &st_mod, "stateful");
	pr_leaf_bool(w, "lsp-update-capability", f & PCEP_STATEFUL_U);
	pr_leaf_qbool(w, &ini_mod, "initiation", f & PCEP_STATEFUL_I);
	doc_end(w);
	doc_end(w);
	doc_list(w, NULL, "reported-lsp");
	for (i = 0; i < pcep_ctl_sess_lsp_count(s); i++)
		if (only == NULL || pcep_ctl_sess_lsp(s, i) == only)
			pr_reported_lsp(w, pcep_ctl_sess_lsp(s, i));
	doc_end(w);
	doc_end(w);
}

/* keepalive, deadtimer, ip-address and session-id of one side. */
static void
pr_pref(struct doc_writer *w, const char *name, uint8_t keepalive,
    uint8_t deadtimer, uint32_t addr, uint8_t sid)
{
	char	ip[16];

	doc_container(w, NULL, name);
	doc_leaf_uint(w, "keepalive", keepalive);
	doc_leaf_uint(w, "deadtimer", deadtimer);
	pr_ip(addr, ip, sizeof(ip));
	doc_leaf_str(w, "ip-address", ip);
	doc_leaf_uint(w, "session-id", sid);
	doc_end(w);
}

static void
pr_error_pair(struct doc_writer *w, const char *name, const uint8_t *tv)
{
	doc_container(w, NULL, name);
	doc_leaf_uint(w, "error-type", tv[0]);
	doc_leaf_uint(w, "error-value", tv[1]);
	doc_end(w);
}

/* pcep-session-state's messages, with odl-pcep-stateful-stats' counts. */
static void
pr_messages(struct doc_writer *w, const struct pcep_ctl_sess_stats *ss)
{
	doc_container(w, NULL, "messages");
	doc_leaf_uint(w, "received-msg-count", ss->rx_msgs);
	doc_leaf_uint(w, "sent-msg-count", ss->tx_msgs);
	doc_leaf_uint(w, "last-sent-msg-timestamp", ss->last_tx_s);
	doc_leaf_uint(w, "unknown-msg-received", ss->unknown_msgs);
	doc_container(w, NULL, "error-messages");
	doc_leaf_uint(w, "received-error-msg-count", ss->rx_errors);
	doc_leaf_uint(w, "sent-error-msg-count", ss->tx_errors);
	if (ss->tx_errors > 0)
		pr_error_pair(w, "last-sent-error", ss->last_tx_error);
	if (ss->rx_errors > 0)
		pr_error_pair(w, "last-received-error", ss->last_rx_error);
	doc_end(w);
	doc_container(w, NULL, "reply-time");
	doc_leaf_uint(w, "average-time", ss->reply_n ? ss->reply_sum_ms /
	    ss->reply_n : 0);
	doc_leaf_uint(w, "min-time", ss->reply_min_ms);
	doc_leaf_uint(w, "max-time", ss->reply_max_ms);
	doc_end(w);
	pr_leaf_quint(w, &sst_mod, "received-rpt-msg-count", ss->rx_reports);
	pr_leaf_quint(w, &sst_mod, "last-received-rpt-msg-timestamp",
	    ss->last_report_s);
	pr_leaf_quint(w, &sst_mod, "sent-upd-msg-count", ss->tx_updates);
	pr_leaf_quint(w, &sst_mod, "sent-init-msg-count", ss->tx_initiates);
	doc_end(w);
}

/*
 * The node's pcep-session-state (network-pcep-topology-stats): both
 * sides' preferences, the messages, the PCC's capabilities, how long the
 * session has been up (d:HH:MM:SS) and its delegated LSPs.
 */
static void
pr_session_state(struct doc_writer *w, const struct pcep_ctl_sess *s)
{
	const struct pcep_ctl_sess_stats	*ss = pcep_ctl_sess_stats(s);
	uint32_t			 f = pcep_ctl_sess_stateful(s);
	uint32_t			 i, deleg = 0;
	uint64_t			 up;
	uint8_t				 ka, dead;
	char				 dur[32];

	for (i = 0; i < pcep_ctl_sess_lsp_count(s); i++)
		deleg += (pcep_ctl_sess_lsp(s, i)->flags &
		    PCEP_LSP_FLAG_D) != 0;
	up = (clock_ns() - ss->up_ns) / 1000000000ull;
	snprintf(dur, sizeof(dur), "%llu:%02u:%02u:%02u",
	    (unsigned long long)(up / 86400), (unsigned)(up / 3600 % 24),
	    (unsigned)(up / 60 % 60), (unsigned)(up % 60));
	doc_container(w, &stats_mod, "pcep-session-state");
	pr_messages(w, ss);
	pcep_ctl_sess_peer_timers(s, &ka, &dead);
	pr_pref(w, "peer-pref", ka, dead, pcep_ctl_sess_addr(s), ss->peer_sid);
	pr_pref(w, "local-pref", ss->local_keepalive, ss->local_deadtimer,
	    ss->local_addr, ss->local_sid);
	doc_container(w, NULL, "peer-capabilities");
	pr_leaf_qbool(w, &sst_mod, "stateful", f != 0);
	pr_leaf_qbool(w, &sst_mod, "instantiation", f & PCEP_STATEFUL_I);
	pr_leaf_qbool(w, &sst_mod, "active", f & PCEP_STATEFUL_U);
	doc_end(w);
	doc_leaf_str(w, "session-duration", dur);
	doc_leaf_uint(w, "delegated-lsps-count", deleg);
	pr_leaf_bool(w, "synchronized", pcep_ctl_sess_synced(s));
	doc_end(w);
}

static void
pr_node(struct doc_writer *w, const struct pcep_ctl_sess *s)
{
	char	id[32], ip[16];

	pr_ip(pcep_ctl_sess_addr(s), ip, sizeof(ip));
	snprintf(id, sizeof(id), "pcc://%s", ip);
	doc_entry(w);
	doc_leaf_str(w, "node-id", id);
	pr_pcc(w, s, NULL);
	pr_session_state(w, s);
	doc_end(w);
}

static void
pr_topology(struct doc_writer *w, int config, void *arg)
{
	struct pcep_ctl_sess	*s = NULL;

	(void)arg;
	doc_entry(w);
	doc_leaf_str(w, "topology-id", PR_TOPOLOGY);
	doc_container(w, NULL, "topology-types");
	doc_container(w, &pn_mod, "topology-pcep");
	doc_end(w);
	doc_end(w);
	if (!config) {
		doc_list(w, NULL, "node");
		while ((s = pcep_ctl_sess_next(s)) != NULL)
			pr_node(w, s);
		doc_end(w);
	}
	doc_end(w);
}

/* The node and (when the path names one) the LSP; -1 after a 404. */
static int
pr_lookup(struct rc_req *rq, struct pcep_ctl_sess **sp,
    struct pcep_ctl_lsp **lp)
{
	const struct rc_path	*p = &rq->path;

	*sp = NULL;
	*lp = NULL;
	if (p->n < 3)
		return 0;
	if (!rc_elem_is(&p->e[2], "node")) {
		rc_unknown(rq, &p->e[2]);
		return -1;
	}
	if ((*sp = pcep_ctl_sess_find(p->e[2].key[0])) == NULL) {
		rc_data_missing(rq);
		return -1;
	}
	if (p->n == 4 && rc_elem_is(&p->e[3], "pcep-session-state"))
		return 0;
	if (p->n >= 4 && !rc_elem_is(&p->e[3], "path-computation-client")) {
		rc_unknown(rq, &p->e[3]);
		return -1;
	}
	/* network-pcep-topology-stats augments the node, not its
	 * path-computation-client (CSIT's default_on_state reads it there):
	 * a client that looks one level too deep is told where it is. */
	if (p->n >= 5 && rc_elem_is(&p->e[4], "pcep-session-state")) {
		http_error(rq->http, 404, "protocol", "invalid-value",
		    "Schema node 'pcep-session-state' is not known here: "
		    "network-pcep-topology-stats puts it under node '%s', "
		    "beside path-computation-client", p->e[2].key[0]);
		return -1;
	}
	if (p->n >= 5 && (!rc_elem_is(&p->e[4], "reported-lsp") ||
	    (*lp = pcep_ctl_lsp_by_name(*sp, p->e[4].key[0])) == NULL)) {
		rc_data_missing(rq);
		return -1;
	}
	if (p->n > 5) {
		rc_unknown(rq, &p->e[5]);
		return -1;
	}
	return 0;
}

static void
pr_get(struct rc_req *rq, void *arg)
{
	const struct rc_path	*p = &rq->path;
	struct doc_writer	 w;
	struct evbuffer		*b;
	struct pcep_ctl_sess	*s;
	struct pcep_ctl_lsp	*l;
	int			 config = rq->content == RC_CONTENT_CONFIG;

	(void)arg;
	/* network-topology dispatched topology=pcep-topology here. */
	if ((config && p->n > 2) || pr_lookup(rq, &s, &l) == -1) {
		if (config)
			rc_data_missing(rq);
		return;
	}
	b = rc_writer(rq, &w);
	if (p->n == 2) {
		doc_list(&w, &rc_nt_mod, "topology");
		pr_topology(&w, config, NULL);
	} else if (p->n == 3) {
		doc_list(&w, &rc_nt_mod, "node");
		pr_node(&w, s);
	} else if (p->n == 4 && rc_elem_is(&p->e[3], "pcep-session-state"))
		pr_session_state(&w, s);
	else if (p->n == 4)
		pr_pcc(&w, s, NULL);
	else {
		doc_container(&w, &pn_mod, "path-computation-client");
		doc_list(&w, NULL, "reported-lsp");
		pr_reported_lsp(&w, l);
		doc_end(&w);
		doc_end(&w);
	}
	rc_send(rq, &w, b);
}

static const struct rc_topology pr_topo = {
	.id = PR_TOPOLOGY, .lists = pr_lists, .fn = pr_get,
	.entry = pr_topology, .read_only = 1,
};

/* ---- operations ---- */

enum pr_op {
	PR_UPDATE,
	PR_ADD,
	PR_REMOVE,
};

/*
 * An RPC answered later: what is needed to reply once the PCC answered.
 * The server's request object lives until it is replied to, even when
 * the client went away (libevent keeps it, without its connection).
 */
struct pr_pending {
	struct http_server	*server;
	struct evhttp_request	*ev;
	enum http_fmt		 fmt;
	const char		*type;
	enum pr_op		 op;
	int			 rfc8040;	/* /rests/operations */
};

/*
 * The operation's output: ODL's operation-result, its failure and the
 * PCErr's error objects.  Success has an empty output: RFC 8040 section
 * 3.6.2 answers it 204 without a body; the draft URLs (bierman-02), as
 * ODL did, 200 with an empty "output".
 */
static void
pr_output(struct http_req *h, const struct pcep_errmsg *em, int rfc8040)
{
	struct doc_writer	 w;
	struct evbuffer		*b;
	uint8_t			 i;

	if (em == NULL) {
		rc_rpc_empty(h, rfc8040, &pn_mod);
		return;
	}
	b = rc_http_writer(h, &w);
	doc_container(&w, rfc8040 || h->reply_fmt == HTTP_FMT_XML ? &pn_mod :
	    NULL, "output");
	/* ODL's operation-result: failure and the PCErr. */
	doc_leaf_str(&w, "failure", "failed");
	doc_list(&w, NULL, "error");
	for (i = 0; i < em->n; i++) {
		doc_entry(&w);
		doc_container(&w, NULL, "error-object");
		/* The PCEP-ERROR object's header flags (RFC 5440 section
		 * 7.2), as the PCC sent them. */
		pr_leaf_bool(&w, "ignore", em->item[i].flags & PCEP_OBJ_FLAG_I);
		pr_leaf_bool(&w, "processing-rule",
		    em->item[i].flags & PCEP_OBJ_FLAG_P);
		doc_leaf_uint(&w, "type", em->item[i].type);
		doc_leaf_uint(&w, "value", em->item[i].value);
		doc_end(&w);
		doc_end(&w);
	}
	doc_end(&w);
	doc_end(&w);
	rc_http_send(h, &w, b);
}

static void
pr_done(void *arg, int status, const struct pcep_errmsg *em)
{
	struct pr_pending	*pp = arg;
	struct http_req		*h = xcalloc(1, sizeof(*h));

	h->server = pp->server;
	h->ev = pp->ev;
	h->reply_fmt = pp->fmt;
	h->reply_type = pp->type;
	if (status == -1)
		http_error(h, 500, "application", "operation-failed",
		    "The PCC did not answer: its session went down or the "
		    "time ran out");
	else
		pr_output(h, status == 1 ? em : NULL, pp->rfc8040);
	free(h);
	free(pp);
}

/* An ERO from the input: ip-prefix subobjects and SR ones with an IPv4
 * node; -1 with err. */
static int
pr_ero(const struct doc_node *ero, struct pcep_ctl_path *p, char *err,
    size_t errlen)
{
	struct doc_iter	 it;
	struct doc_node	 so, c;
	struct pcep_hop_rec	*h;
	char		 s[64], *slash;
	struct in_addr	 a;
	uint64_t	 u;

	p->n = 0;
	doc_iter_init(&it, ero, "subobject");
	while (doc_iter_next(&it, &so) == 1) {
		if (p->n == PCEP_CTL_HOPS_MAX) {
			snprintf(err, errlen, "more than %d ERO subobjects",
			    PCEP_CTL_HOPS_MAX);
			return -1;
		}
		h = &p->hop[p->n++];
		memset(h, 0, sizeof(*h));
		h->loose = doc_get_string(&so, "loose", s, sizeof(s)) == 0 &&
		    strcmp(s, "true") == 0;
		if (doc_child(&so, "ip-prefix", &c) == 0 &&
		    doc_get_string(&c, "ip-prefix", s, sizeof(s)) == 0) {
			h->kind = PCEP_SUBOBJ_IPV4;
			h->plen = 32;
			if ((slash = strchr(s, '/')) != NULL) {
				*slash = '\0';
				h->plen = (uint8_t)atoi(slash + 1);
			}
			if (inet_pton(AF_INET, s, &a) != 1 || h->plen > 32)
				goto bad;
			h->addr = ntohl(a.s_addr);
			continue;
		}
		if (doc_get_uint(&so, "sid", 0xfffff, &u) == 0) {
			h->kind = PCEP_SUBOBJ_SR;
			h->sr_flags = PCEP_SR_FLAG_M;
			h->sid = (uint32_t)u << PCEP_SR_LABEL_SHIFT;
			h->nt = PCEP_NAI_ABSENT;
			h->sr_flags |= PCEP_SR_FLAG_F;
			if (doc_get_string(&so, "ip-address", s,
			    sizeof(s)) == 0) {
				if (inet_pton(AF_INET, s, &a) != 1)
					goto bad;
				h->addr = ntohl(a.s_addr);
				h->nt = PCEP_NAI_IPV4_NODE;
				h->sr_flags &= (uint16_t)~PCEP_SR_FLAG_F;
			}
			continue;
		}
		goto bad;
	}
	return 0;
bad:
	snprintf(err, errlen, "ERO subobject %u is not an IPv4 prefix or an "
	    "SR subobject with an IPv4 node", p->n);
	return -1;
}

static int
pr_bool(const struct doc_node *n, const char *name, int dflt)
{
	char	s[8];

	if (doc_get_string(n, name, s, sizeof(s)) == -1)
		return dflt;
	return strcmp(s, "true") == 0;
}

static uint32_t
pr_get_ip(const struct doc_node *n, const char *name)
{
	char		s[64];
	struct in_addr	a;

	if (doc_get_string(n, name, s, sizeof(s)) == -1 ||
	    inet_pton(AF_INET, s, &a) != 1)
		return 0;
	return ntohl(a.s_addr);
}

/* add-lsp's endpoints-obj (ipv4) and path-setup-type. */
static void
pr_add_args(const struct doc_node *args, uint32_t *src, uint32_t *dst,
    int *sr)
{
	struct doc_node	ep, v4, pst;
	uint64_t	u;

	*src = *dst = 0;
	*sr = 0;
	if (doc_child(args, "endpoints-obj", &ep) == 0 &&
	    doc_child(&ep, "ipv4", &v4) == 0) {
		*src = pr_get_ip(&v4, "source-ipv4-address");
		*dst = pr_get_ip(&v4, "destination-ipv4-address");
	}
	if (doc_child(args, "path-setup-type", &pst) == 0 &&
	    doc_get_uint(&pst, "pst", 255, &u) == 0)
		*sr = u == PCEP_PST_SR;
}

/* The input's session and LSP (NULL for add-lsp); -1 after an error
 * reply. */
static int
pr_target(struct http_req *h, enum pr_op op, const struct doc_node *in,
    char *name, size_t namelen, struct pcep_ctl_sess **sp,
    struct pcep_ctl_lsp **lp)
{
	char	node[64];

	if (doc_get_string(in, "node", node, sizeof(node)) == -1 ||
	    doc_get_string(in, "name", name, namelen) == -1 ||
	    name[0] == '\0') {
		http_error(h, 400, "protocol", "missing-element",
		    "The input needs node and name");
		return -1;
	}
	if ((*sp = pcep_ctl_sess_find(node)) == NULL) {
		http_error(h, 409, "application", "data-missing",
		    "No PCEP session with node %s", node);
		return -1;
	}
	*lp = pcep_ctl_lsp_by_name(*sp, name);
	if ((op != PR_ADD && *lp == NULL) || (op == PR_ADD && *lp != NULL)) {
		http_error(h, 409, "application", *lp ? "data-exists" :
		    "data-missing", "LSP %s %s on node %s", name, *lp ?
		    "already exists" : "is not known", node);
		return -1;
	}
	return 0;
}

/* The operation to the PCC; args NULL when the input has none.  -1 with
 * err. */
static int
pr_send(enum pr_op op, struct pcep_ctl_sess *s, struct pcep_ctl_lsp *l,
    const char *name, const struct doc_node *args,
    const struct pcep_ctl_path *path, struct pr_pending *pp, char *err,
    size_t errlen)
{
	struct doc_node	 lspn;
	uint32_t	 src, dst;
	int		 sr, d = 1, a = 1;

	if (op == PR_UPDATE) {
		if (args != NULL && doc_child(args, "lsp", &lspn) == 0) {
			d = pr_bool(&lspn, "delegate", 1);
			a = pr_bool(&lspn, "administrative", 1);
		}
		return pcep_ctl_update_lsp(s, l, path->n ? path : NULL, d, a,
		    pr_done, pp, err, errlen);
	}
	if (op == PR_ADD) {
		pr_add_args(args, &src, &dst, &sr);
		return pcep_ctl_add_lsp(s, name, src, dst ? dst : path->n ?
		    path->hop[path->n - 1].addr : 0, path, sr, pr_done, pp,
		    err, errlen);
	}
	return pcep_ctl_remove_lsp(s, l, pr_done, pp, err, errlen);
}

/*
 * remove-lsp of an LSP the PCC set up itself: refused here, as ODL's
 * topology provider does, without asking the PCC (RFC 8281 section 5.4:
 * the PCC would answer 19/9, "LSP is not PCE-initiated").  1 when
 * refused (the reply sent).
 */
static int
pr_refuse_remove(struct http_req *h, const struct pcep_ctl_lsp *l, int rfc8040)
{
	struct pcep_errmsg	em;

	if (l == NULL || (l->flags & PCEP_LSP_FLAG_C))
		return 0;
	memset(&em, 0, sizeof(em));
	em.n = 1;
	em.item[0].type = PCEP_E_NOT_PCE_INITIATED >> 8;
	em.item[0].value = PCEP_E_NOT_PCE_INITIATED & 0xff;
	pr_output(h, &em, rfc8040);
	return 1;
}

/* Send what the input asks; 0 sent, 1 answered already, -1 after an
 * error reply. */
static int
pr_dispatch(struct http_req *h, enum pr_op op, const struct doc_node *in,
    struct pr_pending *pp)
{
	struct doc_node	 args, ero;
	struct pcep_ctl_sess	*s;
	struct pcep_ctl_lsp	*l;
	struct pcep_ctl_path	 path;
	char		 name[PCEP_NAME_MAX + 1], err[256];
	int		 has_args;

	if (pr_target(h, op, in, name, sizeof(name), &s, &l) == -1)
		return -1;
	if (op == PR_REMOVE && pr_refuse_remove(h, l, pp->rfc8040))
		return 1;
	has_args = doc_child(in, "arguments", &args) == 0;
	if (has_args && doc_child(&args, "ero", &ero) == 0) {
		if (pr_ero(&ero, &path, err, sizeof(err)) == -1) {
			http_error(h, 400, "protocol", "invalid-value", "%s",
			    err);
			return -1;
		}
	} else if (op == PR_ADD) {
		http_error(h, 400, "protocol", "missing-element",
		    "add-lsp needs arguments with an ero");
		return -1;
	} else
		path.n = 0;
	err[0] = '\0';
	if (pr_send(op, s, l, name, has_args ? &args : NULL, &path, pp, err,
	    sizeof(err)) == -1) {
		http_error(h, 409, "application", "operation-failed", "%s",
		    err);
		return -1;
	}
	return 0;
}

/* An operation's input (rc_rpc_register parsed it): sent to the PCC,
 * answered by pr_done, or refused here. */
static void
pr_operation(struct http_req *h, const struct doc_node *in, int rfc8040,
    int op)
{
	struct pr_pending	*pp;

	pp = xcalloc(1, sizeof(*pp));
	pp->server = h->server;
	pp->ev = h->ev;
	pp->fmt = h->reply_fmt;
	pp->type = h->reply_type;
	pp->op = op;
	pp->rfc8040 = rfc8040;
	if (pr_dispatch(h, op, in, pp) != 0)
		free(pp);	/* answered already */
	else
		h->replied = 1;	/* pr_done answers */
}

static const struct rc_rpc pr_rpcs[] = {
	{ "network-topology-pcep", "update-lsp", pr_operation, PR_UPDATE },
	{ "network-topology-pcep", "add-lsp", pr_operation, PR_ADD },
	{ "network-topology-pcep", "remove-lsp", pr_operation, PR_REMOVE },
};

void
pcep_restconf_register(struct http_server *hs)
{
	rc_topology_register(&pr_topo);
	rc_rpc_register(hs, pr_rpcs, nitems(pr_rpcs));
}
