/*
 * BGP-4 wire constants: RFC 4271 (message layout, section 4; errors,
 * section 6), RFC 4760 (multiprotocol), RFC 5492 (capabilities), RFC 6793
 * (4-octet AS), RFC 2918 (route refresh), RFC 4724 (graceful restart),
 * RFC 7911 (ADD-PATH), RFC 1997 / RFC 8092 (communities), RFC 7606
 * (revised error handling).
 */
#ifndef SBSIM_BGP_WIRE_H
#define SBSIM_BGP_WIRE_H

#define BGP_PORT		179
#define BGP_VERSION		4
#define BGP_MARKER_LEN		16
#define BGP_HEADER_LEN		19	/* marker, length, type */
#define BGP_MAX_LEN		4096	/* RFC 4271 section 4.1 */
#define BGP_OPEN_MIN_LEN	29
#define BGP_KEEPALIVE_LEN	19
#define BGP_NOTIFICATION_MIN_LEN 21
#define BGP_RR_LEN		23

/* Message types (section 4.1, RFC 2918 section 3). */
#define BGP_OPEN		1
#define BGP_UPDATE		2
#define BGP_NOTIFICATION	3
#define BGP_KEEPALIVE		4
#define BGP_ROUTE_REFRESH	5

/* OPEN optional parameters (RFC 5492 section 4). */
#define BGP_OPT_CAPABILITIES	2

/* Capability codes. */
#define BGP_CAP_MP		1	/* RFC 4760 section 8 */
#define BGP_CAP_ROUTE_REFRESH	2	/* RFC 2918 */
#define BGP_CAP_GRACEFUL	64	/* RFC 4724 section 3 */
#define BGP_CAP_AS4		65	/* RFC 6793 section 3 */
#define BGP_CAP_ADD_PATH	69	/* RFC 7911 section 4 */
#define BGP_CAP_ENHANCED_RR	70	/* RFC 7313 */

#define BGP_AS_TRANS		23456	/* RFC 6793 section 9 */

/* AFI / SAFI (IANA). */
#define BGP_AFI_IPV4		1
#define BGP_AFI_IPV6		2
#define BGP_SAFI_UNICAST	1

/* Path attribute flags (section 4.3). */
#define BGP_ATTR_OPTIONAL	0x80
#define BGP_ATTR_TRANSITIVE	0x40
#define BGP_ATTR_PARTIAL	0x20
#define BGP_ATTR_EXTLEN		0x10

/* Path attribute type codes. */
#define BGP_ATTR_ORIGIN		1
#define BGP_ATTR_AS_PATH	2
#define BGP_ATTR_NEXT_HOP	3
#define BGP_ATTR_MED		4
#define BGP_ATTR_LOCAL_PREF	5
#define BGP_ATTR_ATOMIC_AGG	6
#define BGP_ATTR_AGGREGATOR	7
#define BGP_ATTR_COMMUNITIES	8	/* RFC 1997 */
#define BGP_ATTR_ORIGINATOR_ID	9	/* RFC 4456 */
#define BGP_ATTR_CLUSTER_LIST	10
#define BGP_ATTR_MP_REACH	14	/* RFC 4760 */
#define BGP_ATTR_MP_UNREACH	15
#define BGP_ATTR_EXT_COMMUNITIES 16
#define BGP_ATTR_AS4_PATH	17	/* RFC 6793 */
#define BGP_ATTR_AS4_AGGREGATOR	18
#define BGP_ATTR_LARGE_COMMUNITIES 32	/* RFC 8092 */

#define BGP_ORIGIN_IGP		0
#define BGP_ORIGIN_EGP		1
#define BGP_ORIGIN_INCOMPLETE	2

#define BGP_ASPATH_SET		1
#define BGP_ASPATH_SEQUENCE	2
#define BGP_ASPATH_CONFED_SEQ	3	/* RFC 5065 */
#define BGP_ASPATH_CONFED_SET	4

/* ADD-PATH send/receive field (RFC 7911 section 4). */
#define BGP_ADDPATH_RECEIVE	1
#define BGP_ADDPATH_SEND	2

/* NOTIFICATION error codes and subcodes (section 4.5, 6). */
#define BGP_ERR_HEADER		1
#define  BGP_ERR_HDR_SYNC	1
#define  BGP_ERR_HDR_LEN	2
#define  BGP_ERR_HDR_TYPE	3
#define BGP_ERR_OPEN		2
#define  BGP_ERR_OPEN_VERSION	1
#define  BGP_ERR_OPEN_AS	2
#define  BGP_ERR_OPEN_BGPID	3
#define  BGP_ERR_OPEN_OPT	4
#define  BGP_ERR_OPEN_HOLD	6
#define  BGP_ERR_OPEN_CAPA	7	/* RFC 5492 section 5 */
#define BGP_ERR_UPDATE		3
#define  BGP_ERR_UPD_ATTRLIST	1
#define  BGP_ERR_UPD_UNKNWN_WK	2
#define  BGP_ERR_UPD_MISSING	3
#define  BGP_ERR_UPD_FLAGS	4
#define  BGP_ERR_UPD_LENGTH	5
#define  BGP_ERR_UPD_ORIGIN	6
#define  BGP_ERR_UPD_NEXTHOP	8
#define  BGP_ERR_UPD_OPTATTR	9
#define  BGP_ERR_UPD_NETWORK	10
#define  BGP_ERR_UPD_ASPATH	11
#define BGP_ERR_HOLD		4
#define BGP_ERR_FSM		5
#define  BGP_ERR_FSM_OPENSENT	1	/* RFC 6608 */
#define  BGP_ERR_FSM_OPENCONFIRM 2
#define  BGP_ERR_FSM_ESTABLISHED 3
#define BGP_ERR_CEASE		6
#define  BGP_ERR_CEASE_MAX_PREFIX 1	/* RFC 4486 */
#define  BGP_ERR_CEASE_ADMIN_DOWN 2
#define  BGP_ERR_CEASE_PEER_UNCONF 3
#define  BGP_ERR_CEASE_ADMIN_RESET 4
#define  BGP_ERR_CEASE_REJECTED	5
#define  BGP_ERR_CEASE_CONFIG_CHANGE 6
#define  BGP_ERR_CEASE_COLLISION 7
#define BGP_ERR_ROUTE_REFRESH	7	/* RFC 7313 */

#endif
