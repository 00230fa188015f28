/*
 * Flow matches in one canonical form for both OpenFlow versions.
 *
 * The canonical form is a run of OXM TLVs of class OFPXMC_OPENFLOW_BASIC
 * (OpenFlow 1.3 section 7.2.3.2), sorted by field number, each field at most
 * once, values already ANDed with their mask, masks that are all ones dropped
 * (the field becomes exact) and fields whose mask is all zeros dropped
 * altogether.  Two matches are then equal exactly when their bytes are equal,
 * which makes strict FLOW_MOD lookups a hash and a memcmp.  An OpenFlow 1.0
 * ofp_match (40 bytes, wildcard bits) converts into the same form and back.
 */
#ifndef SBSIM_OF_MATCH_H
#define SBSIM_OF_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "of_types.h"

#define OF_MATCH_MAX	512	/* canonical TLV bytes; longer is BAD_LEN */
#define OF10_MATCH_LEN	40

struct of_match {
	uint16_t	len;			/* bytes used in oxm[] */
	uint8_t		oxm[OF_MATCH_MAX];
};

void	 of_match_init(struct of_match *);	/* the match-all (empty) */

/* One TLV of a canonical match: its header, the experimenter id (class
 * OXM_CLASS_EXPERIMENTER, 0 for any other), value and mask (NULL:
 * exact) of len bytes each. */
struct of_oxm_tlv {
	uint32_t	 hdr;
	uint32_t	 exp;
	uint8_t		 len;
	const uint8_t	*val;
	const uint8_t	*mask;
};
/* The TLV at *pp of a canonical match (trusted bytes) into t, *pp past
 * it; 0 at end (or at an experimenter TLV too short for its id). */
int	 of_oxm_tlv_next(const uint8_t **pp, const uint8_t *end,
	    struct of_oxm_tlv *t);
/* An experimenter OXM's id, which its length counts (1.3.5 section
 * 7.2.3.2): *exp (0 for another class), *val and *plen past it; -1 when
 * the length cannot hold it. */
int	 of_oxm_exp_split(uint32_t hdr, const uint8_t **val, size_t *plen,
	    uint32_t *exp);

/*
 * Decode an OpenFlow 1.3 ofp_match (type OFPMT_OXM, length, TLVs, padding
 * to 8) from r, consuming it including the padding.  Checks field lengths,
 * maskability, duplicate fields, prerequisites (section 7.2.3.6) and value
 * bits outside the mask.  On error returns -1 and sets *err.
 */
int	 of_match_decode13(struct rbuf *r, struct of_match *, enum of_err *err);
/* The same for a run of OXM TLVs alone (no header, no padding; tlvs is
 * consumed): an nx_match once of_nxm.c has put its fields in OXM form. */
int	 of_match_decode_oxm(struct rbuf *tlvs, struct of_match *,
	    enum of_err *err);
/* Decode the 40-byte OpenFlow 1.0 ofp_match from r. */
int	 of_match_decode10(struct rbuf *r, struct of_match *, enum of_err *err);
/* Encode a full ofp_match for 1.3 (with padding) or 1.0 (40 bytes). */
int	 of_match_encode13(struct wbuf *, const struct of_match *);
int	 of_match_encode10(struct wbuf *, const struct of_match *);

/* Add one exact or masked field (mask NULL: exact) keeping the form canonical. */
int	 of_match_set(struct of_match *, uint8_t field, const void *value,
	    const void *mask, size_t len);

int	 of_match_equal(const struct of_match *, const struct of_match *);
/*
 * True when every packet that specific matches is matched by general too:
 * the non-strict FLOW_MOD/stats rule (OpenFlow 1.3 section 6.4).
 */
int	 of_match_covers(const struct of_match *general,
	    const struct of_match *specific);
/* One field's value and mask (NULL: exact) of two matches, len bytes:
 * covers as of_match_covers() means it, overlaps as of_match_overlaps();
 * of_nxm.c uses them for the extension fields. */
int	 of_oxm_val_covers(const uint8_t *gval, const uint8_t *gmask,
	    const uint8_t *sval, const uint8_t *smask, size_t len);
int	 of_oxm_val_overlaps(const uint8_t *aval, const uint8_t *amask,
	    const uint8_t *bval, const uint8_t *bmask, size_t len);
/* True when some packet could match both (OFPFF_CHECK_OVERLAP). */
int	 of_match_overlaps(const struct of_match *, const struct of_match *);
/* Two canonical matches' bytes: 1 when both name the same fields, in the
 * same order and sizes, none masked (then they overlap only if equal). */
int	 of_match_exact_alike(const uint8_t *a, size_t alen, const uint8_t *b,
	    size_t blen);
/*
 * A canonical match's shape and values apart, for CHECK_OVERLAP's index
 * (of_overlap.c).  Both are runs of [field, length, length bytes] sorted
 * by field: mask gets each field's mask (the field's full mask when it is
 * exact), val its values.  Each is at most len bytes (OF_MATCH_MAX).
 */
void	 of_match_shape(const uint8_t *oxm, size_t len, uint8_t *mask,
	    size_t *masklen, uint8_t *val, size_t *vallen);
uint32_t of_match_hash(const struct of_match *, uint32_t seed);
/* Human form like ovs-ofctl's, for logs and tests; returns chars needed. */
int	 of_match_format(const struct of_match *, char *, size_t);

#endif
