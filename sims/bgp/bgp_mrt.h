/*
 * MRT dumps (RFC 6396): the reader `sbsim bgp --mrt` replays and the
 * TABLE_DUMP_V2 writer of --mrt-out.  Read: TABLE_DUMP_V2's
 * PEER_INDEX_TABLE and RIB_IPV4/IPV6_UNICAST (and their ADD-PATH forms,
 * RFC 8050), BGP4MP and BGP4MP_ET MESSAGE and MESSAGE_AS4 carrying
 * UPDATEs (their announcements; STATE_CHANGE and other types skipped and
 * counted); plain, gzip or bzip2.  Every length is checked against its
 * record: a short or malformed record is an error naming its offset.
 */
#ifndef SBSIM_BGP_MRT_H
#define SBSIM_BGP_MRT_H

#include <stddef.h>
#include <stdint.h>

#include "bgp_codec.h"

#define MRT_TABLE_DUMP_V2	13
#define MRT_BGP4MP		16
#define MRT_BGP4MP_ET		17
#define MRT_PEER_INDEX_TABLE	1
#define MRT_RIB_IPV4_UNICAST	2
#define MRT_RIB_IPV6_UNICAST	4
#define MRT_RIB_IPV4_UNICAST_AP	8	/* RFC 8050 section 4 */
#define MRT_RIB_IPV6_UNICAST_AP	10
#define MRT_MESSAGE		1
#define MRT_MESSAGE_AS4		4
#define MRT_MESSAGE_LOCAL	6
#define MRT_MESSAGE_AS4_LOCAL	7
#define MRT_MESSAGE_ADDPATH	8	/* RFC 8050 section 3 */
#define MRT_MESSAGE_AS4_ADDPATH	9
#define MRT_MAX_PEERS		65536	/* the peer index is 16 bits */
#define MRT_MAX_ATTRS		4096	/* a BGP message's bound */

struct mrt_peer {
	uint32_t	bgp_id;		/* host order */
	uint32_t	as;
	uint8_t		af;		/* enum bgp_af of its address */
	uint8_t		addr[16];
};

/* One route of the dump: its peer's index, the prefix, and its path
 * attributes as recorded, with a 4-octet AS_PATH (RFC 6396 section
 * 4.3.4) and without MP_REACH/MP_UNREACH: the IPv6 next hop apart. */
struct mrt_route {
	uint32_t		 peer;
	uint32_t		 time;
	struct bgp_prefix	 pfx;
	const uint8_t		*attrs;
	uint32_t		 attr_len;
	uint8_t			 nh_len;
	uint8_t			 nh[32];
	/* From a TABLE_DUMP_V2 RIB record (a prefix's entries together):
	 * the entry's number in it; BGP4MP: table 0. */
	uint8_t			 table;
	uint16_t		 entry;
};

typedef int (*mrt_route_fn)(void *arg, const struct mrt_route *);

struct mrt_file {
	uint8_t			*data;		/* the whole dump, inflated */
	size_t			 len;
	struct mrt_peer		*peers;
	uint32_t		 n_peers;
	uint64_t		 records;
	uint64_t		 routes;
	uint64_t		 skipped;	/* records of other types */
	uint64_t		 withdrawals;	/* in BGP4MP, not replayed */
	uint8_t			 scratch[MRT_MAX_ATTRS + 64];
};

/* The file, inflated if it is gzip or bzip2 (by its magic bytes), in
 * f->data; 0, or -1 with a message. */
int	mrt_load(struct mrt_file *, const char *path, char *err, size_t);
/* Every route of f->data in order to fn (which stops the walk with -1);
 * 0, or -1 with a message naming the bad record's offset. */
int	mrt_walk(struct mrt_file *, mrt_route_fn, void *arg, char *err,
	    size_t);
void	mrt_free(struct mrt_file *);

/* The writer (TABLE_DUMP_V2): one PEER_INDEX_TABLE, then one RIB record
 * per prefix with one entry; attrs is what mrt_route carries (an IPv6
 * route's next hop goes into its MP_REACH as RFC 6396 section 4.3.4
 * says).  Each returns 0, or -1 when the write failed. */
struct mrt_writer;
struct mrt_writer *mrt_writer_open(const char *path, uint32_t collector_id,
	    const struct mrt_peer *, uint32_t n_peers);
int	mrt_writer_route(struct mrt_writer *, uint32_t peer, uint32_t time,
	    const struct bgp_prefix *, const uint8_t *attrs, uint32_t attr_len,
	    const uint8_t *nh, uint8_t nh_len);
int	mrt_writer_close(struct mrt_writer *);

#endif
