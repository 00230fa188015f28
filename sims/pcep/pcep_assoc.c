/*
 * Association groups (RFC 8697): what `sbsim pcep --association` reports
 * and what the embedded PCE keeps of them.  See pcep_assoc.h.
 */
#include <arpa/inet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "pcep_assoc.h"

const char *const pcep_assoc_kind_names[] = { "none", "path-protection",
	"disjoint", "sr-policy", NULL };

static const uint16_t pcep_assoc_kind_types[] = { 0,
	PCEP_ASSOC_T_PROTECTION, PCEP_ASSOC_T_DISJOINT,
	PCEP_ASSOC_T_SR_POLICY };

uint16_t
pcep_assoc_kind_type(int kind)
{
	if (kind < 0 || kind > PCEP_AK_SR_POLICY)
		return 0;
	return pcep_assoc_kind_types[kind];
}

const char *
pcep_assoc_type_name(uint16_t type)
{
	switch (type) {
	case PCEP_ASSOC_T_PROTECTION:
		return "path-protection";
	case PCEP_ASSOC_T_DISJOINT:
		return "disjoint";
	case PCEP_ASSOC_T_SR_POLICY:
	case PCEP_ASSOC_T_SR_POL_OLD:
		return "sr-policy";
	default:
		return "unknown";
	}
}

int
pcep_assoc_type_known(uint16_t type)
{
	return strcmp(pcep_assoc_type_name(type), "unknown") != 0;
}

/* ---- the PCCs' groups ---- */

/* SR policy: one policy per group, its candidate paths the members. */
static void
pcc_assoc_sr(uint32_t addr, uint32_t group, uint32_t member, uint32_t size,
    uint32_t endpoint, struct pcep_assoc *a)
{
	static char	pol[24], cp[24];
	uint32_t	n_ep = htonl(endpoint), n_addr = htonl(addr);

	a->has_color = 1;
	a->color = group + 1;
	a->ep_af = 4;
	memcpy(a->ep, &n_ep, 4);
	a->pol_name_len = (uint8_t)snprintf(pol, sizeof(pol), "policy-%u",
	    group + 1);
	a->pol_name = pol;
	a->cp_name_len = (uint8_t)snprintf(cp, sizeof(cp), "cp-%u",
	    member + 1);
	a->cp_name = cp;
	a->has_cpath_id = 1;
	a->origin = PCEP_SRPOL_ORIGIN_CONFIG;
	memcpy(a->orig_addr + 12, &n_addr, 4);	/* IPv4 in the low 32 bits */
	a->discriminator = member + 1;
	a->has_pref = 1;
	a->pref = 100 * (size - member);
}

void
pcc_assoc_fill(int kind, uint32_t size, uint32_t addr, uint32_t slot,
    struct pcep_lsp_req *req)
{
	struct pcep_assoc	*a = &req->assoc[0];
	uint32_t		 group = slot / size, member = slot % size;
	uint32_t		 n_addr = htonl(addr);

	if (kind == PCEP_AK_NONE)
		return;
	memset(a, 0, sizeof(*a));
	req->n_assoc = 1;
	a->af = 4;
	a->type = pcep_assoc_kind_type(kind);
	a->id = (uint16_t)(group + 1);	/* slots < 65535 */
	memcpy(a->src, &n_addr, 4);
	switch (kind) {
	case PCEP_AK_PROTECTION:
		/* RFC 8745 3.2: P marks a protecting LSP. */
		a->has_prot = 1;
		a->prot = PCEP_PROT_PT_1PLUS1_UNI << PCEP_PROT_PT_SHIFT |
		    (member > 0 ? PCEP_PROT_P : 0);
		break;
	case PCEP_AK_DISJOINT:
		a->has_disjoint = 1;
		a->disjoint = PCEP_DISJ_L | PCEP_DISJ_N;
		break;
	default:
		pcc_assoc_sr(addr, group, member, size,
		    req->lsp.ids.endpoint4, a);
	}
}

/* ---- what the PCE keeps ---- */

static const char *
pce_name_copy(const char *name, uint8_t len)
{
	char	*s;

	if (len == 0)
		return NULL;
	s = xmalloc((size_t)len + 1);
	memcpy(s, name, len);
	s[len] = '\0';
	return s;
}

void
pce_assoc_free(struct pcep_assoc *a, uint8_t n)
{
	uint8_t	i;

	for (i = 0; i < n; i++) {
		free((char *)(uintptr_t)a[i].pol_name);
		free((char *)(uintptr_t)a[i].cp_name);
	}
	free(a);
}

/* An LSP's associations are those its latest report lists, less those
 * with R set (RFC 8697 6.1: the LSP leaves that group). */
struct pcep_assoc *
pce_assoc_keep(struct pcep_assoc *old, uint8_t *n,
    const struct pcep_lsp_req *r)
{
	const struct pcep_assoc	*in;
	struct pcep_assoc	*a;
	uint8_t			 i, k = 0;

	pce_assoc_free(old, *n);
	*n = 0;
	if (r->n_assoc == 0)
		return NULL;
	a = xcalloc(r->n_assoc, sizeof(*a));
	for (i = 0; i < r->n_assoc && i < PCEP_ASSOC_MAX; i++) {
		in = &r->assoc[i];
		if (in->removal)
			continue;
		a[k] = *in;
		a[k].pol_name = pce_name_copy(in->pol_name, in->pol_name_len);
		a[k].cp_name = pce_name_copy(in->cp_name, in->cp_name_len);
		k++;
	}
	if (k == 0) {
		free(a);
		return NULL;
	}
	*n = k;
	return a;
}
