/*
 * A switch's meter table (OpenFlow 1.3.5 section 5.7) and METER_MOD
 * (section 7.3.4.4), with the METER, METER_CONFIG and METER_FEATURES
 * entries (7.3.5.13-15).  Bands are kept as the controller sent them, so
 * METER_CONFIG reads back byte-identical; the table exists only once a
 * switch has taken its first meter.  1.4 and 1.5 have the same wire
 * format (1.5 renames METER_CONFIG METER_DESC); the codecs take the
 * version for the header only.  1.5 flows name meters with the METER
 * action, not the instruction (of_prog_each_meter finds both).
 */
#ifndef OF_METER_H
#define OF_METER_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "of_types.h"

/* enum ofp_meter_mod_command, ofp_meter_flags, ofp_meter_band_type. */
#define OF_MC_ADD		0
#define OF_MC_MODIFY		1
#define OF_MC_DELETE		2
#define OF_MF_KBPS		0x0001
#define OF_MF_PKTPS		0x0002
#define OF_MF_BURST		0x0004
#define OF_MF_STATS		0x0008
#define OF_MBT_DROP		1
#define OF_MBT_DSCP_REMARK	2
#define OF_MBT_EXPERIMENTER	0xffff
/* enum ofp_meter: the last regular id and the virtual meters. */
#define OF_METER_MAX		0xffff0000u
#define OF_METER_SLOWPATH	0xfffffffdu
#define OF_METER_CONTROLLER	0xfffffffeu
#define OF_METER_ALL		0xffffffffu
#define OF_METER_BAND_LEN	16	/* every band type this switch takes */
#define OF_METER_MAX_BANDS	8	/* per meter, as Open vSwitch */
/* FLOW_REMOVED reason of a flow that went with its meter (1.4 on; a 1.3
 * session says OFPRR_DELETE). */
#define OF_RR_METER_DELETE	4

struct of_meter_mod {
	uint16_t	 command;
	uint16_t	 flags;
	uint32_t	 meter_id;
	const uint8_t	*bands;		/* points into the message */
	size_t		 bands_len;
};

/* One ofp_meter_band_drop / _dscp_remark (prec_level 0 for DROP). */
struct of_meter_band {
	uint16_t	type;
	uint16_t	len;
	uint32_t	rate;
	uint32_t	burst_size;
	uint8_t		prec_level;
};

/* One meter as the multiparts see it. */
struct of_meter_info {
	uint32_t	 meter_id;
	uint16_t	 flags;
	uint16_t	 n_bands;
	uint32_t	 flow_count;	/* flows naming it, as last counted */
	uint32_t	 duration_sec;
	uint32_t	 duration_nsec;
	const uint8_t	*bands;
	size_t		 bands_len;
};

struct of_meters;
struct of_mp_reply;

/* The body of a METER_MOD after its ofp_header (version: 1.3 or 1.4). */
int	 of_meter_mod_decode(uint8_t version, struct rbuf *,
	    struct of_meter_mod *, enum of_err *);
int	 of_meter_mod_encode(struct wbuf *, uint8_t version, uint32_t xid,
	    const struct of_meter_mod *);
/* One band: put (for a METER_MOD's bands) and take (-1 at a short or
 * unknown-length band, with BAD_LEN). */
void	 of_meter_band_encode(struct wbuf *, const struct of_meter_band *);
int	 of_meter_band_decode(struct rbuf *, struct of_meter_band *,
	    enum of_err *);

/* Called after a DELETE removed the meter named, or (OF_METER_ALL) every
 * meter: the flows naming it, or naming any meter, go. */
typedef void	(*of_meter_deleted_cb)(void *arg, uint32_t meter_id);

/*
 * Apply a decoded METER_MOD to *mt (made on the first ADD): 0, or -1 with
 * *err and the table unchanged.
 */
int	 of_meters_apply(struct of_meters **mt, const struct of_meter_mod *,
	    uint32_t max_meters, uint64_t now_ns, of_meter_deleted_cb,
	    void *arg, enum of_err *err);
int	 of_meters_has(const struct of_meters *, uint32_t meter_id);
uint32_t of_meters_count(const struct of_meters *);
/* flow_count: cleared, then one of_meters_flow per flow naming a meter
 * (a flow has at most one METER instruction), then read by the walk. */
void	 of_meters_flows_clear(struct of_meters *);
void	 of_meters_flow(struct of_meters *, uint32_t meter_id);
/* Visit every meter (want == OF_METER_ALL) or the one named. */
void	 of_meters_walk(const struct of_meters *, uint32_t want,
	    uint64_t now_ns, void (*fn)(void *, const struct of_meter_info *),
	    void *arg);
void	 of_meters_free(struct of_meters *);
/* Whether a 1.3 flow program's METER instruction names *meter_id (a
 * uint32_t; OF_METER_ALL: any meter), as of_flowtable_remove_if's pred
 * when a meter goes. */
int	 of_meter_prog_names(void *meter_id, const uint8_t *prog, size_t len);

/* Multiparts: a METER, METER_CONFIG (meter_id, OFPM_ALL for every meter;
 * the switch reads it with of_mp_id_request_decode) or METER_FEATURES
 * request, the replies' entries, and the one METER_FEATURES body. */
int	 of_meter_mp_request_encode(struct wbuf *, uint8_t version,
	    uint32_t xid, enum of_mp, uint32_t meter_id);
int	 of_mp_reply_add_meter_stats(struct of_mp_reply *,
	    const struct of_meter_info *);
int	 of_mp_reply_add_meter_config(struct of_mp_reply *,
	    const struct of_meter_info *);
int	 of_mp_reply_add_meter_features(struct of_mp_reply *,
	    uint32_t max_meters);

/* The switch side (of_meter_switch.c): METER_MOD, a FLOW_MOD's METER
 * instruction (-1 with INVALID_METER for a meter the switch lacks), and
 * the METER, METER_CONFIG and METER_FEATURES multiparts. */
struct of_ctx;
struct of_switch;
void	 of_on_meter_mod(const struct of_ctx *);
int	 of_meter_flow_check(const struct of_switch *, const uint8_t *prog,
	    size_t len, enum of_err *);
void	 of_mp_meters(const struct of_ctx *, struct rbuf *body, enum of_mp);

#endif
