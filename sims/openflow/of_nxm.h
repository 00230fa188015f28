/*
 * Nicira extensible match (NXM, Open Vswitch's nicira-ext.h and
 * meta-flow.xml) and the extension fields a canonical match carries past
 * its OXM basic ones (of_match.h): registers, packet registers, conntrack
 * state, zone, mark and label, packet mark, conjunction id, tunnel
 * endpoints and flags, TTL and fragment bits.
 *
 * Canonical form: the basic TLVs sorted by field, then the extension
 * TLVs sorted by header (class, field), each at most once, values ANDed
 * with their mask, an all-ones mask dropped.  NXM fields that have an OXM
 * basic twin (NXM_OF_ETH_DST, NXM_NX_IPV6_SRC, ...) are stored as the
 * twin, so a flow added over NXM reads back over 1.3 and the reverse;
 * of_nxm_encode() writes them back as Open vSwitch writes NXM.
 */
#ifndef SBSIM_OF_NXM_H
#define SBSIM_OF_NXM_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "of_types.h"

struct of_match;
struct nxm_ext_field;

#define NXM_EXT_MAX	32	/* extension fields in one match */

/* Extension fields of a match being decoded, pointing into the wire
 * or, for tun_metadata (right-aligned to its mapped length), into tun. */
struct nxm_ext {
	size_t		 n;
	size_t		 tun_used;
	uint8_t		 tun[512];	/* OF_MATCH_MAX: a longer match fails */
	struct {
		const struct nxm_ext_field *f;	/* of_nxm.c's table */
		uint8_t		 len;
		const uint8_t	*val;
		const uint8_t	*mask;	/* NULL: exact */
	}		 f[NXM_EXT_MAX];
};

/* Validate one non-basic OXM/NXM TLV (hdr as on the wire, val its
 * payload) and keep it in e; -1 with *err (BAD_FIELD, BAD_LEN, BAD_MASK,
 * DUP_FIELD, BAD_WILDCARDS). */
int	 of_nxm_ext_take(struct nxm_ext *, uint32_t hdr, const uint8_t *val,
	    enum of_err *err);
/* Append e's fields to m in canonical form; -1 when m is full. */
int	 of_nxm_ext_build(struct of_match *, const struct nxm_ext *);
/* Offset of m's first extension TLV (m->len when it has none). */
size_t	 of_nxm_ext_off(const uint8_t *oxm, size_t len);
/* The extension halves of two canonical matches: covers and overlaps
 * as of_match_covers() and of_match_overlaps() mean them. */
int	 of_nxm_ext_covers(const uint8_t *g, size_t glen, const uint8_t *s,
	    size_t slen);
int	 of_nxm_ext_overlaps(const uint8_t *a, size_t alen, const uint8_t *b,
	    size_t blen);
/* Append ",name=value[/mask]" for each extension field (logs). */
int	 of_nxm_ext_format(const uint8_t *oxm, size_t len, char *buf,
	    size_t size);

/* An nx_match of len bytes (no padding) from r into m: NXM headers put in
 * canonical form, then the checks of_match_decode13 makes.  A cookie in
 * it (NXM_NX_COOKIE, a selector, no field) goes to cookie and
 * cookie_mask (0 and 0 when none). */
int	 of_nxm_decode(struct rbuf *r, size_t len, struct of_match *,
	    uint64_t *cookie, uint64_t *cookie_mask, enum of_err *err);
/* m as an nx_match (no padding); returns its length, -1 on error. */
int	 of_nxm_encode(struct wbuf *, const struct of_match *);

/* Width in bits of the field an action names by its NXM/OXM header
 * (reg_load, reg_move, output_reg, learn, ...); 0: no such field. */
unsigned of_nxm_field_bits(uint32_t hdr);
/* 1 when hdr names NXM_NX_TUN_METADATA<i> (variable length: an action's
 * value may be shorter than the mapping; unmapped is refused with
 * NXFMFC_INVALID_TLV_FIELD, as Open vSwitch does). */
int	 of_nxm_is_tun(uint32_t hdr);

#endif
