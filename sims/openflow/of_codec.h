/*
 * OpenFlow 1.0 and 1.3 message codec: no I/O, no state.
 *
 * Decoders take a reader over the message body (the bytes after the 8-byte
 * header, exactly header.length - 8 of them) and return 0, or -1 with *err
 * set to what a switch should answer.  Encoders append one complete message,
 * header included, at the end of a wbuf and patch its length; a caller checks
 * the wbuf's err flag once.  Wire layouts: OpenFlow Switch Specification
 * 1.3.5 (section 7) and 1.0.0 (section 5).
 */
#ifndef SBSIM_OF_CODEC_H
#define SBSIM_OF_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "of_flowtable.h"
#include "of_match.h"
#include "of_types.h"

struct of_header {
	uint8_t		version;
	uint8_t		type;		/* wire value */
	uint16_t	length;
	uint32_t	xid;
};

int	 of_header_decode(struct rbuf *, struct of_header *);

/*
 * A fixed wire layout as a table, so that the one table both writes the
 * fields (of_fields_put) and reads them back (of_fields_get): each row is
 * a struct member, as many bytes on the wire as the member has (1, 2, 4 or
 * 8, network order), or OF_PAD(n), n bytes of zero padding.
 */
struct of_field {
	uint16_t	off;
	uint8_t		size;
	uint8_t		pad;
};
#define OF_FIELD(type, m)	{ offsetof(type, m), sizeof(((type *)0)->m), 0 }
#define OF_PAD(n)		{ 0, (n), 1 }
#define OF_NFIELDS(t)		(sizeof(t) / sizeof((t)[0]))
void	 of_fields_put(struct wbuf *, const void *, const struct of_field *,
	    size_t);
int	 of_fields_get(struct rbuf *, void *, const struct of_field *, size_t);
/* An ofp_port's curr, advertised, supported and peer (1.0 stops there),
 * curr_speed and max_speed: 1.3 section 7.2.1, 1.4.1 A.2.1's ETHERNET. */
#define OF_PORT_FEATURES_10	4
extern const struct of_field of_port_features[6];
/* An ofp_port_stats' counters: rx/tx packets, bytes, drops and errors,
 * every version's first eight, then rx_frame_err, rx_over_err,
 * rx_crc_err and collisions (1.4 moves those four into the ETHERNET
 * property, 1.4.1 A.3.5.7). */
#define OF_PORT_COUNTERS_COMMON	8
extern const struct of_field of_port_counters[12];
/* 1.5's ofp_flow_desc after its length (1.5.1 section 7.3.5.2) and
 * FLOW_REMOVED's fixed fields (1.5.1 section 7.4.2). */
extern const struct of_field of_flow_desc15[9];
extern const struct of_field of_flow_removed15[6];
/* The length field of a header's first OF_HEADER_LEN bytes, unchecked
 * (for framing: the whole message is not there yet). */
static inline uint16_t
of_header_length(const uint8_t *hdr)
{
	return (uint16_t)(hdr[2] << 8 | hdr[3]);
}
/* A header from OF_HEADER_LEN bytes the caller has, unchecked: the read
 * loops' fast path (one per message), of_header_decode's body. */
static inline void
of_header_read(const uint8_t *p, struct of_header *h)
{
	h->version = p[0];
	h->type = p[1];
	h->length = of_header_length(p);
	h->xid = (uint32_t)p[4] << 24 | (uint32_t)p[5] << 16 |
	    (uint32_t)p[6] << 8 | p[7];
}
enum of_type of_type_from_wire(uint8_t version, uint8_t wire);
int	 of_type_to_wire(uint8_t version, enum of_type);	/* -1: none */
const char *of_type_name(enum of_type);
enum of_mp of_mp_from_wire(uint8_t version, uint16_t wire);
int	 of_mp_to_wire(uint8_t version, enum of_mp);		/* -1: none */
const char *of_mp_name(enum of_mp);
const char *of_err_name(enum of_err);
/* Wire type and code of an error for a version. */
void	 of_err_to_wire(uint8_t version, enum of_err, uint16_t *type,
	    uint16_t *code);

/* Start a message (length patched by of_msg_end); returns start offset. */
size_t	 of_msg_begin(struct wbuf *, uint8_t version, enum of_type,
	    uint32_t xid);
int	 of_msg_end(struct wbuf *, size_t start);
/* A message that is only a header (BARRIER_*, FEATURES_REQUEST, ...). */
int	 of_simple_encode(struct wbuf *, uint8_t version, enum of_type,
	    uint32_t xid);

/* --NAME "1.3", "1.0", "1.3,1.0" into a uint32_t version bitmap (an
 * OPT_P parser); -1 with err. */
int	 of_version_parse(const char *name, const char *arg, void *bitmap,
	    char *err, size_t errlen);
/* Its .show: the bitmap as "1.3,1.0", "1.3" or "1.0". */
struct opt;
int	 of_version_show(const struct opt *, const void *base, char *buf,
	    size_t len);

/* HELLO: 1.3 adds a version-bitmap element (section 7.5.1). */
int	 of_hello_encode(struct wbuf *, uint8_t version, uint32_t xid,
	    uint32_t bitmap);
/* *bitmap gets the peer's bitmap, or 0 when it sent none. */
int	 of_hello_decode(struct rbuf *, uint32_t *bitmap);
/*
 * Version to use (section 6.3.1): the highest in both bitmaps when the peer
 * sent one, else min(ours, peer's header version) if we support it; 0: none.
 */
uint8_t	 of_negotiate(uint8_t peer_version, uint32_t peer_bitmap,
	    uint32_t our_bitmap);

/* ERROR; data is the offending message, of which at most 64 bytes go out. */
int	 of_error_encode(struct wbuf *, uint8_t version, uint32_t xid,
	    enum of_err, const void *data, size_t len);
int	 of_error_decode(struct rbuf *, uint16_t *type, uint16_t *code);

int	 of_echo_encode(struct wbuf *, uint8_t version, enum of_type,
	    uint32_t xid, const void *data, size_t len);

struct of_port {
	uint32_t	port_no;
	uint8_t		hw_addr[6];
	char		name[16];
	uint32_t	config;
	uint32_t	state;
	uint32_t	curr;
	uint32_t	advertised;
	uint32_t	supported;
	uint32_t	peer;
	uint32_t	curr_speed;	/* kbps, 1.3 only */
	uint32_t	max_speed;	/* kbps, 1.3 only */
};

struct of_features {
	uint64_t	datapath_id;
	uint32_t	n_buffers;
	uint8_t		n_tables;
	uint8_t		auxiliary_id;	/* 1.3 */
	uint32_t	capabilities;
	uint32_t	actions;	/* 1.0 supported actions bitmap */
};

/* One port (the controller's side); -1 on short data. */
int	 of_port_decode(uint8_t version, struct rbuf *, struct of_port *);
int	 of_port_status_decode(uint8_t version, struct rbuf *, uint8_t *reason,
	    struct of_port *);

/* 1.0 carries the ports in FEATURES_REPLY; 1.3 leaves them to PORT_DESC. */
int	 of_features_reply_encode(struct wbuf *, uint8_t version, uint32_t xid,
	    const struct of_features *, const struct of_port *, size_t nports);
int	 of_features_reply_decode(uint8_t version, struct rbuf *,
	    struct of_features *);

/* GET_CONFIG_REPLY or SET_CONFIG: flags and miss_send_len. */
int	 of_switch_config_encode(struct wbuf *, uint8_t version, enum of_type,
	    uint32_t xid, uint16_t flags, uint16_t miss_send_len);
int	 of_switch_config_decode(struct rbuf *, uint16_t *flags,
	    uint16_t *miss_send_len);

struct of_packet_in {
	uint32_t	 buffer_id;
	uint16_t	 total_len;
	uint8_t		 reason;
	uint8_t		 table_id;	/* 1.3 */
	uint64_t	 cookie;	/* 1.3 */
	uint32_t	 in_port;	/* 1.3: in the OXM match */
	const uint8_t	*data;
	size_t		 data_len;
};
int	 of_packet_in_encode(struct wbuf *, uint8_t version, uint32_t xid,
	    const struct of_packet_in *);
int	 of_packet_in_decode(uint8_t version, struct rbuf *,
	    struct of_packet_in *, enum of_err *);

struct of_packet_out {
	uint32_t	 buffer_id;
	uint32_t	 in_port;
	const uint8_t	*actions;
	size_t		 actions_len;
	const uint8_t	*data;
	size_t		 data_len;
};
int	 of_packet_out_decode(uint8_t version, struct rbuf *,
	    struct of_packet_out *, enum of_err *);
int	 of_packet_out_encode(struct wbuf *, uint8_t version, uint32_t xid,
	    const struct of_packet_out *);

/* FLOW_MOD: decode (switch side) and encode (controller side). */
int	 of_flow_mod_decode(uint8_t version, struct rbuf *,
	    struct of_flow_mod *, enum of_err *);
int	 of_flow_mod_encode(struct wbuf *, uint8_t version, uint32_t xid,
	    const struct of_flow_mod *);

int	 of_flow_removed_encode(struct wbuf *, uint8_t version, uint32_t xid,
	    const struct of_flow_info *);

#define OF_PR_ADD	0
#define OF_PR_DELETE	1
#define OF_PR_MODIFY	2
/* ofp_port state OFPPS_LINK_DOWN: bit 0 in 1.0 and 1.3. */
#define OF_PS_LINK_DOWN	(1u << 0)
int	 of_port_status_encode(struct wbuf *, uint8_t version, uint32_t xid,
	    uint8_t reason, const struct of_port *);

struct of_port_mod {
	uint32_t	port_no;
	uint8_t		hw_addr[6];
	uint32_t	config;
	uint32_t	mask;
	uint32_t	advertise;
};
int	 of_port_mod_decode(uint8_t version, struct rbuf *,
	    struct of_port_mod *, enum of_err *);

/* ROLE_REQUEST / ROLE_REPLY (1.3 section 7.3.9). */
#define OF_ROLE_NOCHANGE	0
#define OF_ROLE_EQUAL		1
#define OF_ROLE_MASTER		2
#define OF_ROLE_SLAVE		3
int	 of_role_encode(struct wbuf *, uint8_t version, enum of_type,
	    uint32_t xid, uint32_t role, uint64_t generation_id);
int	 of_role_decode(struct rbuf *, uint32_t *role, uint64_t *generation_id,
	    enum of_err *);

/* GET_ASYNC_REPLY / SET_ASYNC: packet_in, port_status, flow_removed masks,
 * [0] master/equal and [1] slave each (1.3 section 7.3.10). */
struct of_async {
	uint32_t	packet_in[2];
	uint32_t	port_status[2];
	uint32_t	flow_removed[2];
	uint32_t	role_status[2];		/* 1.4 and later */
	uint32_t	table_status[2];
	uint32_t	requestforward[2];
	uint32_t	cont_status[2];		/* 1.5: kept, read back */
};
int	 of_async_encode(struct wbuf *, uint8_t version, enum of_type,
	    uint32_t xid, const struct of_async *);
/* 1.4 and later: property lists, a SET_ASYNC changing only those given
 * (*a holds the masks before). */
int	 of_async_decode(uint8_t version, struct rbuf *, struct of_async *,
	    enum of_err *);

/* QUEUE_GET_CONFIG: request decode, reply with no queues. */
int	 of_queue_get_config_decode(uint8_t version, struct rbuf *,
	    uint32_t *port, enum of_err *);
int	 of_queue_get_config_reply_encode(struct wbuf *, uint8_t version,
	    uint32_t xid, uint32_t port);

/* Multipart / stats requests. body is what follows type and flags. */
struct of_mp_request {
	enum of_mp	mp;
	uint16_t	wire_type;
	uint16_t	flags;
	struct rbuf	body;
};
int	 of_mp_request_decode(uint8_t version, struct rbuf *,
	    struct of_mp_request *, enum of_err *);
/* FLOW and AGGREGATE request bodies. */
int	 of_flow_stats_request_decode(uint8_t version, struct rbuf *,
	    struct of_flow_filter *, enum of_err *);
int	 of_flow_stats_request_encode(struct wbuf *, uint8_t version,
	    uint32_t xid, enum of_mp, const struct of_flow_filter *);
/* PORT_STATS / QUEUE (port only) request bodies. */
int	 of_port_stats_request_decode(uint8_t version, struct rbuf *,
	    uint32_t *port_no, enum of_err *);
/* A request with an empty body (DESC, TABLE, PORT_DESC, GROUP_DESC ...). */
int	 of_mp_request_encode(struct wbuf *, uint8_t version, uint32_t xid,
	    enum of_mp, const void *body, size_t len);

#define OF_MPF_MORE	0x0001		/* OFPMPF_REPLY_MORE / OFPSF_REPLY_MORE */

struct of_desc {
	const char	*mfr_desc;
	const char	*hw_desc;
	const char	*sw_desc;
	const char	*serial_num;
	const char	*dp_desc;
};
struct of_table_stats {
	uint8_t		table_id;
	uint32_t	active_count;
	uint64_t	lookup_count;
	uint64_t	matched_count;
	uint32_t	max_entries;	/* 1.0 */
};
struct of_port_stats {
	uint32_t	port_no;
	uint64_t	rx_packets, tx_packets, rx_bytes, tx_bytes;
	uint64_t	rx_dropped, tx_dropped, rx_errors, tx_errors;
	uint64_t	rx_frame_err, rx_over_err, rx_crc_err, collisions;
	uint32_t	duration_sec, duration_nsec;	/* 1.3 */
};

int	 of_mp_desc_encode(struct wbuf *, uint8_t version, uint32_t xid,
	    const struct of_desc *);
int	 of_mp_aggregate_encode(struct wbuf *, uint8_t version, uint32_t xid,
	    uint64_t packets, uint64_t bytes, uint32_t flows);
/* A reply with no entries, or with a fixed body of zeros of the size the
 * kind needs (GROUP_FEATURES, METER_FEATURES). */
int	 of_mp_empty_encode(struct wbuf *, uint8_t version, uint32_t xid,
	    enum of_mp);

/*
 * Builder for replies made of many entries (FLOW, TABLE, PORT_STATS,
 * PORT_DESC): entries go into the current message; when the next one would
 * pass max_msg bytes the current message is closed with the MORE flag and
 * handed to flush(), which must empty the wbuf (send it), and a new one
 * starts (1.3 section 7.3.5).  of_mp_reply_end closes the last one without
 * MORE and flushes it.
 */
struct of_mp_reply {
	struct wbuf	*w;
	uint8_t		 version;
	uint32_t	 xid;
	enum of_mp	 mp;
	size_t		 start;
	size_t		 max_msg;
	int		 entries;
	void		(*flush)(void *, struct wbuf *);
	void		*arg;
};
void	 of_mp_reply_begin(struct of_mp_reply *, struct wbuf *, uint8_t version,
	    uint32_t xid, enum of_mp, size_t max_msg,
	    void (*flush)(void *, struct wbuf *), void *arg);
int	 of_mp_reply_add_flow(struct of_mp_reply *, const struct of_flow_info *);
/* 1.4's OFPMP_TABLE_DESC: one ofp_table_desc (of_codec14.h). */
struct of_table_desc;
int	 of_mp_reply_add_table_desc(struct of_mp_reply *,
	    const struct of_table_desc *);
/* 1.4's OFPMP_FLOW_MONITOR: one ofp_flow_update_full (of_codec14.h). */
int	 of_mp_reply_add_flow_update(struct of_mp_reply *, uint16_t event,
	    const struct of_flow_info *, int instructions);
/* 1.5's OFPMP_FLOW_STATS (17): match and OXS counts, no instructions. */
int	 of_mp_reply_add_flow_stats15(struct of_mp_reply *,
	    const struct of_flow_info *);
int	 of_mp_reply_add_table(struct of_mp_reply *,
	    const struct of_table_stats *);
int	 of_mp_reply_add_port_stats(struct of_mp_reply *,
	    const struct of_port_stats *);
int	 of_mp_reply_add_port(struct of_mp_reply *, const struct of_port *);
/* An entry whose encoder lives with its table (meters: of_meter.c): fn
 * writes one entry of kind mp. */
typedef void	(*of_mp_entry_fn)(struct wbuf *, uint8_t version, const void *);
int	 of_mp_reply_add_entry(struct of_mp_reply *, enum of_mp,
	    of_mp_entry_fn, const void *entry);
/* Groups (1.3): GROUP_DESC and GROUP entries, the GROUP request's id,
 * and the GROUP_FEATURES reply (of_group.h). */
struct of_group_info;
int	 of_mp_reply_add_group_desc(struct of_mp_reply *,
	    const struct of_group_info *);
int	 of_mp_reply_add_group_stats(struct of_mp_reply *,
	    const struct of_group_info *);
int	 of_group_stats_request_decode(struct rbuf *, uint32_t *group_id,
	    enum of_err *);
/* A multipart request body that is an id and padding (GROUP, METER,
 * METER_CONFIG): the id. */
int	 of_mp_id_request_decode(struct rbuf *, uint32_t *id, enum of_err *);
int	 of_mp_group_features_encode(struct wbuf *, uint8_t version,
	    uint32_t xid,
	    uint32_t max_groups);
/*
 * One ofp_table_features entry (1.3 section 7.3.5.5) for a reply begun
 * with of_mp_reply_begin(..., OF_MP_TABLE_FEATURES, ...): a table that
 * takes every instruction (GOTO_TABLE only forward) and action sbsim
 * validates and every OXM basic field, with the eight properties that
 * Open vSwitch requires.  An empty TABLE_FEATURES reply is valid by the
 * spec, but ovs-ofctl -O OpenFlow13 refuses it ("missing required
 * properties" / BAD_LEN) and so fails every add-flow against the switch.
 */
int	 of_mp_reply_add_table_features(struct of_mp_reply *,
	    uint8_t table_id, uint8_t n_tables, uint32_t max_entries);
int	 of_mp_reply_end(struct of_mp_reply *);

/* Controller side: a multipart reply's kind, flags and entries. */
int	 of_mp_reply_decode(uint8_t version, struct rbuf *, enum of_mp *,
	    uint16_t *flags, struct rbuf *entries);
/* Next flow stats entry from entries; 1 got one, 0 none left, -1 bad. */
int	 of_flow_stats_next(uint8_t version, struct rbuf *entries,
	    struct of_flow_info *, struct of_match *store);
/* The next entry of a PORT_STATS reply: 1, 0 at the end, -1 if short. */
int	 of_port_stats_next(uint8_t version, struct rbuf *entries,
	    struct of_port_stats *);
int	 of_aggregate_decode(struct rbuf *entries, uint64_t *packets,
	    uint64_t *bytes, uint32_t *flows);

#endif
