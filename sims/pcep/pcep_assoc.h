/*
 * Association groups (RFC 8697) on both sides: the PCCs' generator
 * (sbsim pcep --association TYPE, --sr-policy: LSPs reported N to a
 * group) and what the embedded PCE keeps of the ASSOCIATION objects each
 * LSP carries.  The codec is pcep_codec.c's.
 */
#ifndef SBSIM_PCEP_ASSOC_H
#define SBSIM_PCEP_ASSOC_H

#include <stdint.h>

#include "pcep_codec.h"

/* --association's names, in the order of enum pcep_assoc_kind. */
enum pcep_assoc_kind {
	PCEP_AK_NONE,
	PCEP_AK_PROTECTION,	/* RFC 8745 */
	PCEP_AK_DISJOINT,	/* RFC 8800 */
	PCEP_AK_SR_POLICY,	/* SR policy candidate paths */
};
extern const char *const pcep_assoc_kind_names[];
/* The IANA association type of a kind (0 for none). */
uint16_t pcep_assoc_kind_type(int kind);
/* A short name of an association type ("sr-policy"), "unknown" else. */
const char *pcep_assoc_type_name(uint16_t type);
/* Whether the embedded PCE takes associations of this type (RFC 8697
 * 6.4: others are answered with PCErr 26/1). */
int	 pcep_assoc_type_known(uint16_t type);

/*
 * PCC side: our LSP slot's association (none past the first lsps, the
 * PCE-initiated ones): group slot / size, ID group + 1, source the PCC's
 * address.  Path protection: the group's first LSP working, the others
 * protecting; disjoint: link and node; SR policy: color group + 1, the
 * LSP's endpoint, preference 100 x (size - member), names
 * "policy-G" and "cp-M".  Names live in static storage until the next
 * call: encode the request before building another.
 */
void	 pcc_assoc_fill(int kind, uint32_t size, uint32_t addr, uint32_t slot,
	    struct pcep_lsp_req *);

/* PCE side: an LSP's associations, kept (names copied) and freed. */
struct pcep_assoc *pce_assoc_keep(struct pcep_assoc *old, uint8_t *n,
	    const struct pcep_lsp_req *);
void	 pce_assoc_free(struct pcep_assoc *, uint8_t n);

#endif
