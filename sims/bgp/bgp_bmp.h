/*
 * BMP, the BGP Monitoring Protocol (RFC 7854): its messages built into a
 * wbuf and decoded, bounds-checked, from a whole message.  The routers
 * of `sbsim bgp --bmp` (bgp_bmp_router.c) send them, the embedded
 * controller's station (bgp_bmp_station.c) reads them.
 */
#ifndef SBSIM_BGP_BMP_H
#define SBSIM_BGP_BMP_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

#define BMP_VERSION		3
#define BMP_HDR_LEN		6	/* common header (section 4.1) */
#define BMP_PEER_HDR_LEN	42	/* per-peer header (section 4.2) */
/*
 * The longest message a station takes: a Peer Up carries two OPENs of at
 * most 4096 bytes each (RFC 4271 section 4.1), Route Monitoring one
 * UPDATE; the Information TLVs are what is left.  Longer is refused.
 */
#define BMP_MAX_MSG		16384

/* Message types (section 4.1). */
enum bmp_type {
	BMP_ROUTE_MONITORING,
	BMP_STATISTICS,
	BMP_PEER_DOWN,
	BMP_PEER_UP,
	BMP_INITIATION,
	BMP_TERMINATION,
	BMP_ROUTE_MIRRORING,
	BMP_TYPE_MAX,
};

/* Per-peer header flags (section 4.2). */
#define BMP_PF_V	0x80	/* the peer address is IPv6 */
#define BMP_PF_L	0x40	/* post-policy Adj-RIB-In */
#define BMP_PF_A	0x20	/* 2-octet AS_PATH in the PDUs */

/* Information TLVs (section 4.4) and Termination's (section 4.5). */
#define BMP_INFO_STRING		0
#define BMP_INFO_SYSDESCR	1
#define BMP_INFO_SYSNAME	2
#define BMP_TERM_STRING		0
#define BMP_TERM_REASON		1

/* Peer Down reasons (section 4.9). */
#define BMP_DOWN_LOCAL_NOTIFY	1
#define BMP_DOWN_LOCAL_FSM	2
#define BMP_DOWN_REMOTE_NOTIFY	3
#define BMP_DOWN_REMOTE_NODATA	4
#define BMP_DOWN_DECONFIGURED	5

/* Statistics types 0..8 (section 4.8): 0..6 are 32-bit counters, 7
 * and 8 64-bit gauges. */
#define BMP_STAT_MAX		9

struct bmp_peer_hdr {
	uint8_t		 type;		/* 0 global instance */
	uint8_t		 flags;		/* BMP_PF_* */
	uint64_t	 rd;		/* peer distinguisher */
	uint8_t		 addr[16];	/* IPv4 in the last 4 bytes */
	uint32_t	 as;
	uint32_t	 bgp_id;	/* host order */
	uint32_t	 ts_sec, ts_usec;
};

/* A decoded message: spans point into the message given. */
struct bmp_msg {
	uint8_t		 type;		/* enum bmp_type */
	struct bmp_peer_hdr peer;	/* all but Initiation, Termination */
	/* Route Monitoring: the UPDATE; Peer Down: a NOTIFICATION. */
	const uint8_t	*pdu;
	size_t		 pdu_len;
	/* Peer Up (section 4.10). */
	uint8_t		 local[16];
	uint16_t	 local_port, remote_port;
	const uint8_t	*sent_open, *recv_open;
	size_t		 sent_open_len, recv_open_len;
	/* Initiation: sysName, sysDescr (the first of each, cut short). */
	char		 sys_name[64];
	char		 sys_descr[128];
	char		 info[128];	/* the first string TLV (type 0) */
	uint8_t		 down_reason;	/* Peer Down */
	uint16_t	 term_reason;	/* Termination, 0xffff: none */
	/* Statistics Report: which of types 0..8 came, and their values. */
	uint32_t	 stat_seen;	/* bit per type */
	uint64_t	 stat[BMP_STAT_MAX];
	uint32_t	 stat_count;	/* all, unknown types too */
	const char	*why;		/* malformed: what */
};

/* The common header of a message at least BMP_HDR_LEN long: its whole
 * length, or -1 (version not 3, a length below the header or above
 * max). */
long	bmp_header_length(const uint8_t *, size_t max);

/* Begin a message; bmp_end patches its length (-1 when w overflowed). */
size_t	bmp_begin(struct wbuf *, uint8_t type);
int	bmp_end(struct wbuf *, size_t start);
void	bmp_peer_hdr_put(struct wbuf *, const struct bmp_peer_hdr *);
/* Initiation with sysName and sysDescr (section 4.3). */
int	bmp_initiation(struct wbuf *, const char *name, const char *descr);
/* Termination with its reason (section 4.5). */
int	bmp_termination(struct wbuf *, uint16_t reason);
/* Peer Up (section 4.10) with both OPENs, as whole BGP messages. */
int	bmp_peer_up(struct wbuf *, const struct bmp_peer_hdr *,
	    const uint8_t local[16], uint16_t lport, uint16_t rport,
	    const uint8_t *sent, size_t sent_len, const uint8_t *recv,
	    size_t recv_len);
/* Peer Down (section 4.9); pdu: the NOTIFICATION of reasons 1 and 3,
 * or reason 2's FSM event code (2 bytes). */
int	bmp_peer_down(struct wbuf *, const struct bmp_peer_hdr *,
	    uint8_t reason, const void *pdu, size_t len);
/* Statistics Report (section 4.8): n (type, value) pairs, each of the
 * size its type has. */
int	bmp_stats(struct wbuf *, const struct bmp_peer_hdr *,
	    const uint16_t *types, const uint64_t *values, unsigned n);

/* A whole message (its length as the header says): 0, or -1 with
 * m->why. */
int	bmp_decode(const uint8_t *, size_t, struct bmp_msg *);

#endif
