/*
 * Config flows of the embedded controller (see of_flowcfg.h): parsing
 * OpenDaylight's flow shape, the per-node store, pushes to the switches,
 * and the switches' flow stats for the operational view.
 */
#include <arpa/inet.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hash.h"
#include "log.h"
#include "of_actions.h"
#include "of_codec.h"
#include "of_ctl.h"
#include "of_flowcfg.h"
#include "of_gmcfg.h"
#include "of_oxm.h"
#include "of_ports.h"
#include "of_types.h"
#include "ut.h"

#define FC_MIN_BUCKETS	16
#define FC_PROG_MAX	(8 + 16 + 16 * FC_MAX_OUT + 8)
/* fc_flow.apply's bits: an apply-actions was given; a meter id and a
 * mask of the outs that are group-actions follow the outs in data. */
#define FC_F_APPLY	0x1
#define FC_F_METER	0x2
#define FC_F_GROUPS	0x4
#define FC_METER_MAX	0xffff0000u	/* OFPM_MAX (1.3.5 7.3.4.4) */
#define FC_VID_PRESENT	0x1000	/* OFPVID_PRESENT, 1.3 section 7.2.3.8 */

struct fc_flow {
	struct fc_flow	*next_id;	/* chain by (table, id) */
	struct fc_flow	*next_m;	/* chain by (table, priority, match) */
	uint64_t	 cookie;
	uint32_t	 seen;		/* stats generation last seen in */
	uint16_t	 priority;
	uint16_t	 idle;
	uint16_t	 hard;
	uint16_t	 match_len;
	uint8_t		 table;
	uint8_t		 prev_ok;	/* was in the generation before seen */
	uint8_t		 go_to;
	uint8_t		 nout;
	uint8_t		 apply;
	uint8_t		 id_len;
	uint8_t		 name_len;
	uint8_t		 data[];	/* id NUL name NUL match outs(6 each)
					   [meter(4)] [group mask(2)] */
};

/* Stats counters per table: [0] all and [1] known flows of the last
 * complete reply, [2] and [3] of the one coming in. */
#define FC_C_ALL	0
#define FC_C_KNOWN	1
#define FC_C_CUR	2

struct fc_node {
	UT_hash_handle	  hh;		/* nodes, by dpid */
	uint64_t	  dpid;
	struct fc_flow	**by_id;
	struct fc_flow	**by_m;
	size_t		  nb;		/* buckets of each */
	uint64_t	  n;
	uint8_t		  version;
	int		  polled;
	uint32_t	  done_gen;
	uint32_t	  cur_gen;
	uint32_t	 (*cnt)[256];	/* [4][256] once polled */
	/* Flows pushed by operations (sal-flow, bulk-o-matic's *-rpc), by
	 * (table, priority, match) on next_m, so that the switch's stats
	 * show them whole under ids of their own. */
	struct fc_flow	**rpc;
	size_t		  rpc_nb;
	uint64_t	  rpc_n;
	uint64_t	  rpc_seq;
	struct op_node	  ports;	/* of_ports.c's */
};

static struct fc_node	*nodes;		/* uthash head */

/* ---- parsing (opendaylight-flow-types, flow-node-inventory) ---- */

#define FC_ERR(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } \
	while (0)

static int
fc_uint(const struct doc_node *n, const char *name, uint64_t max,
    uint64_t *v, int *given, char *err, size_t errlen)
{
	struct doc_node	c;

	*given = doc_child(n, name, &c) == 0;
	if (!*given)
		return 0;
	if (doc_uint(&c, max, v) == -1)
		FC_ERR("%s: expected an integer from 0 to %" PRIu64, name, max);
	return 0;
}

static int
fc_bool(const struct doc_node *n, const char *name, int *v)
{
	char	s[8];

	if (doc_get_string(n, name, s, sizeof(s)) == -1)
		return 0;
	if (strcmp(s, "true") == 0)
		*v = 1;
	else if (strcmp(s, "false") == 0)
		*v = 0;
	else
		return -1;
	return 1;
}

static const struct {
	const char	*name;
	uint32_t	 port;
} fc_ports[] = {
	{ "CONTROLLER", OF_PORT_CONTROLLER }, { "FLOOD", OF_PORT_FLOOD },
	{ "ALL", OF_PORT_ALL }, { "INPORT", OF_PORT_IN_PORT },
	{ "IN_PORT", OF_PORT_IN_PORT }, { "LOCAL", OF_PORT_LOCAL },
	{ "NORMAL", OF_PORT_NORMAL }, { "TABLE", OF_PORT_TABLE },
	{ "ANY", OF_PORT_ANY },
};

/* A node connector: "3", "openflow:1:3" or a reserved port's name. */
int
fc_port(const char *s, uint32_t *port)
{
	const char	*c = strrchr(s, ':');
	char		*end;
	unsigned long	 v;
	size_t		 i;

	for (i = 0; i < sizeof(fc_ports) / sizeof(fc_ports[0]); i++)
		if (strcmp(s, fc_ports[i].name) == 0) {
			*port = fc_ports[i].port;
			return 0;
		}
	if (c != NULL) {
		if (strncmp(s, "openflow:", 9) != 0)
			return -1;
		s = c + 1;
	}
	if (*s < '0' || *s > '9')
		return -1;
	v = strtoul(s, &end, 10);
	if (*end != '\0' || v == 0 || v > OF_PORT_MAX)
		return -1;
	*port = (uint32_t)v;
	return 0;
}

static int
fc_mac(const char *s, uint8_t mac[6])
{
	unsigned	b[6];
	int		i, n = 0;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%n", &b[0], &b[1], &b[2], &b[3],
	    &b[4], &b[5], &n) != 6 || s[n] != '\0' || strlen(s) != 17)
		return -1;
	for (i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return 0;
}

static int
fc_eth_addr(struct fc_spec *f, const struct doc_node *em, const char *name,
    uint8_t field, char *err, size_t errlen)
{
	struct doc_node	a;
	char		s[64];
	uint8_t		v[6], m[6];
	int		masked;

	if (doc_child(em, name, &a) == -1)
		return 0;
	if (doc_get_string(&a, "address", s, sizeof(s)) == -1 ||
	    fc_mac(s, v) == -1)
		FC_ERR("%s address: expected a MAC address like "
		    "00:00:00:00:00:01", name);
	masked = doc_get_string(&a, "mask", s, sizeof(s)) == 0;
	if (masked && fc_mac(s, m) == -1)
		FC_ERR("%s mask: expected a MAC address mask", name);
	of_match_set(&f->match, field, v, masked ? m : NULL, 6);
	return 0;
}

static int
fc_ethernet(struct fc_spec *f, const struct doc_node *mt, char *err,
    size_t errlen)
{
	struct doc_node	em, et;
	uint64_t	v;
	uint8_t		b[2];
	int		given;

	if (doc_child(mt, "ethernet-match", &em) == -1)
		return 0;
	if (doc_child(&em, "ethernet-type", &et) == 0) {
		if (fc_uint(&et, "type", 0xffff, &v, &given, err, errlen) ==
		    -1 || !given)
			FC_ERR("ethernet-type type: expected an integer from "
			    "0 to 65535");
		b[0] = (uint8_t)(v >> 8);
		b[1] = (uint8_t)v;
		of_match_set(&f->match, OXM_ETH_TYPE, b, NULL, 2);
	}
	if (fc_eth_addr(f, &em, "ethernet-source", OXM_ETH_SRC, err,
	    errlen) == -1 || fc_eth_addr(f, &em, "ethernet-destination",
	    OXM_ETH_DST, err, errlen) == -1)
		return -1;
	return 0;
}

/* "10.0.0.1/32" (prefix optional). */
static int
fc_ipv4(struct fc_spec *f, const struct doc_node *mt, const char *name,
    uint8_t field, char *err, size_t errlen)
{
	char		s[64], *slash, *end;
	uint8_t		a[4], m[4];
	unsigned long	plen = 32;
	uint32_t	mask;

	if (doc_get_string(mt, name, s, sizeof(s)) == -1) {
		struct doc_node	c;

		if (doc_child(mt, name, &c) == 0)
			FC_ERR("%s: expected an IPv4 prefix like 10.0.0.1/32",
			    name);
		return 0;
	}
	if ((slash = strchr(s, '/')) != NULL) {
		*slash = '\0';
		plen = strtoul(slash + 1, &end, 10);
		if (slash[1] < '0' || slash[1] > '9' || *end != '\0' ||
		    plen > 32)
			FC_ERR("%s: bad prefix length", name);
	}
	if (inet_pton(AF_INET, s, a) != 1)
		FC_ERR("%s: '%s' is not an IPv4 address", name, s);
	if (plen == 0)
		return 0;		/* matches everything */
	mask = plen == 32 ? 0xffffffffu : ~(0xffffffffu >> plen);
	m[0] = mask >> 24;
	m[1] = mask >> 16;
	m[2] = mask >> 8;
	m[3] = mask;
	of_match_set(&f->match, field, a, plen == 32 ? NULL : m, 4);
	return 0;
}

static int
fc_u8_field(struct fc_spec *f, const struct doc_node *n, const char *name,
    uint8_t field, uint64_t max, char *err, size_t errlen)
{
	uint64_t	v;
	uint8_t		b;
	int		given;

	if (fc_uint(n, name, max, &v, &given, err, errlen) == -1)
		return -1;
	if (given) {
		b = (uint8_t)v;
		of_match_set(&f->match, field, &b, NULL, 1);
	}
	return 0;
}

static int
fc_u16_field(struct fc_spec *f, const struct doc_node *n, const char *name,
    uint8_t field, char *err, size_t errlen)
{
	uint64_t	v;
	uint8_t		b[2];
	int		given;

	if (fc_uint(n, name, 0xffff, &v, &given, err, errlen) == -1)
		return -1;
	if (given) {
		b[0] = (uint8_t)(v >> 8);
		b[1] = (uint8_t)v;
		of_match_set(&f->match, field, b, NULL, 2);
	}
	return 0;
}

static int
fc_vlan(struct fc_spec *f, const struct doc_node *mt, char *err,
    size_t errlen)
{
	struct doc_node	vm, vi;
	uint64_t	v = 0;
	uint8_t		b[2], m[2] = { FC_VID_PRESENT >> 8, 0 };
	int		given, present = 1, rc;

	if (doc_child(mt, "vlan-match", &vm) == -1 ||
	    doc_child(&vm, "vlan-id", &vi) == -1)
		return 0;
	if (fc_uint(&vi, "vlan-id", 4095, &v, &given, err, errlen) == -1)
		return -1;
	if ((rc = fc_bool(&vi, "vlan-id-present", &present)) == -1)
		FC_ERR("vlan-id-present: expected true or false");
	if (!given && !present)
		v = 0;			/* no tag at all */
	else
		v |= FC_VID_PRESENT;
	b[0] = (uint8_t)(v >> 8);
	b[1] = (uint8_t)v;
	of_match_set(&f->match, OXM_VLAN_VID, b, !given && present ? m :
	    NULL, 2);
	return 0;
}

/* The value of an exact 1- or 2-byte field, or -1 when absent. */
static long
fc_match_value(const struct of_match *m, uint8_t field)
{
	size_t		off;
	uint32_t	h;
	uint8_t		len;

	for (off = 0; off + OXM_HDR_LEN <= m->len; off += OXM_HDR_LEN + len) {
		h = (uint32_t)m->oxm[off] << 24 | (uint32_t)m->oxm[off + 1] <<
		    16 | (uint32_t)m->oxm[off + 2] << 8 | m->oxm[off + 3];
		len = OXM_HDR_LENGTH(h);
		if (OXM_HDR_FIELD(h) != field)
			continue;
		if (len == 1)
			return m->oxm[off + 4];
		if (len == 2)
			return m->oxm[off + 4] << 8 | m->oxm[off + 5];
		return -1;
	}
	return -1;
}

static int
fc_has(const struct of_match *m, uint8_t field)
{
	size_t		off;
	uint32_t	h;

	for (off = 0; off + OXM_HDR_LEN <= m->len;
	    off += OXM_HDR_LEN + OXM_HDR_LENGTH(h)) {
		h = (uint32_t)m->oxm[off] << 24 | (uint32_t)m->oxm[off + 1] <<
		    16 | (uint32_t)m->oxm[off + 2] << 8 | m->oxm[off + 3];
		if (OXM_HDR_FIELD(h) == field)
			return 1;
	}
	return 0;
}

/* Prerequisites (OpenFlow 1.3 section 7.2.3.6), which the switch would
 * otherwise refuse with BAD_PREREQ and the flow never show up. */
static int
fc_prereq(const struct fc_spec *f, char *err, size_t errlen)
{
	long	et = fc_match_value(&f->match, OXM_ETH_TYPE);
	long	ip = fc_match_value(&f->match, OXM_IP_PROTO);

	if ((fc_has(&f->match, OXM_IPV4_SRC) || fc_has(&f->match,
	    OXM_IPV4_DST)) && et != 0x0800)
		FC_ERR("match: ipv4-source/ipv4-destination need "
		    "ethernet-type 2048");
	if ((fc_has(&f->match, OXM_IP_PROTO) || fc_has(&f->match,
	    OXM_IP_DSCP)) && et != 0x0800 && et != 0x86dd)
		FC_ERR("match: ip-match needs ethernet-type 2048 or 34525");
	if ((fc_has(&f->match, OXM_TCP_SRC) || fc_has(&f->match,
	    OXM_TCP_DST)) && ip != 6)
		FC_ERR("match: tcp ports need ip-protocol 6");
	if ((fc_has(&f->match, OXM_UDP_SRC) || fc_has(&f->match,
	    OXM_UDP_DST)) && ip != 17)
		FC_ERR("match: udp ports need ip-protocol 17");
	return 0;
}

static int
fc_match(struct fc_spec *f, const struct doc_node *fl, char *err,
    size_t errlen)
{
	struct doc_node	mt, im;
	char		s[64];
	uint32_t	port;
	uint8_t		b[4];

	of_match_init(&f->match);
	if (doc_child(fl, "match", &mt) == -1)
		return 0;
	if (doc_get_string(&mt, "in-port", s, sizeof(s)) == 0) {
		if (fc_port(s, &port) == -1 || port > OF_PORT_MAX)
			FC_ERR("in-port: '%s' is not a port", s);
		b[0] = port >> 24;
		b[1] = port >> 16;
		b[2] = port >> 8;
		b[3] = port;
		of_match_set(&f->match, OXM_IN_PORT, b, NULL, 4);
	}
	if (fc_ethernet(f, &mt, err, errlen) == -1 ||
	    fc_vlan(f, &mt, err, errlen) == -1 ||
	    fc_ipv4(f, &mt, "ipv4-source", OXM_IPV4_SRC, err, errlen) == -1 ||
	    fc_ipv4(f, &mt, "ipv4-destination", OXM_IPV4_DST, err,
	    errlen) == -1)
		return -1;
	if (doc_child(&mt, "ip-match", &im) == 0 &&
	    (fc_u8_field(f, &im, "ip-protocol", OXM_IP_PROTO, 255, err,
	    errlen) == -1 || fc_u8_field(f, &im, "ip-dscp", OXM_IP_DSCP, 63,
	    err, errlen) == -1))
		return -1;
	if (fc_u16_field(f, &mt, "tcp-source-port", OXM_TCP_SRC, err,
	    errlen) == -1 || fc_u16_field(f, &mt, "tcp-destination-port",
	    OXM_TCP_DST, err, errlen) == -1 || fc_u16_field(f, &mt,
	    "udp-source-port", OXM_UDP_SRC, err, errlen) == -1 ||
	    fc_u16_field(f, &mt, "udp-destination-port", OXM_UDP_DST, err,
	    errlen) == -1)
		return -1;
	return fc_prereq(f, err, errlen);
}

/* One action of apply-actions: its order and what it does. */
static int
fc_action(struct fc_spec *f, const struct doc_node *a, uint64_t *orders,
    char *err, size_t errlen)
{
	struct doc_node	c;
	char		s[64];
	uint64_t	order = f->nout, ml = 0xffff;
	uint32_t	port = 0;
	uint8_t		group = 0;
	int		given;
	size_t		i;

	if (fc_uint(a, "order", 0xffffffff, &order, &given, err, errlen) == -1)
		return -1;
	if (doc_child(a, "drop-action", &c) == 0)
		return 0;
	if (f->nout == FC_MAX_OUT)
		FC_ERR("apply-actions: more than %d output- and group-actions",
		    FC_MAX_OUT);
	if (doc_child(a, "group-action", &c) == 0) {
		if (fc_uint(&c, "group-id", 0xffffff00u, &ml, &given, err,
		    errlen) == -1)
			return -1;
		if (!given)
			FC_ERR("group-action: group-id missing");
		port = (uint32_t)ml;
		ml = 0;
		group = 1;
	} else if (doc_child(a, "output-action", &c) == -1)
		FC_ERR("action: only output-action, group-action and "
		    "drop-action are supported");
	else if (doc_get_string(&c, "output-node-connector", s, sizeof(s))
	    == -1)
		FC_ERR("output-action: output-node-connector missing");
	else if (fc_port(s, &port) == -1)
		FC_ERR("output-node-connector: '%s' is not a port", s);
	else if (fc_uint(&c, "max-length", 0xffff, &ml, &given, err,
	    errlen) == -1)
		return -1;
	/* Keep the outputs sorted by order. */
	for (i = f->nout; i > 0 && orders[i - 1] > order; i--) {
		f->out[i] = f->out[i - 1];
		orders[i] = orders[i - 1];
	}
	f->out[i].port = port;
	f->out[i].max_len = (uint16_t)ml;
	f->out[i].group = group;
	orders[i] = order;
	f->nout++;
	return 0;
}

/* A meter instruction (1.3.5 section 5.9): its meter-id. */
static int
fc_meter(struct fc_spec *f, const struct doc_node *c, char *err,
    size_t errlen)
{
	uint64_t	v;
	int		given;

	if (f->meter != 0)
		FC_ERR("instructions: more than one meter");
	if (fc_uint(c, "meter-id", FC_METER_MAX, &v, &given, err, errlen)
	    == -1)
		return -1;
	if (!given || v == 0)
		FC_ERR("meter: meter-id from 1 to %u expected", FC_METER_MAX);
	f->meter = (uint32_t)v;
	return 0;
}

static int
fc_instructions(struct fc_spec *f, const struct doc_node *fl, char *err,
    size_t errlen)
{
	struct doc_node	ins, in, c, a;
	struct doc_iter	it, ait;
	uint64_t	orders[FC_MAX_OUT], t;
	int		given;

	f->go_to = FC_NO_TABLE;
	if (doc_child(fl, "instructions", &ins) == -1)
		return 0;
	doc_iter_init(&it, &ins, "instruction");
	while (doc_iter_next(&it, &in) == 1) {
		if (doc_child(&in, "apply-actions", &c) == 0) {
			if (f->apply)
				FC_ERR("instructions: more than one "
				    "apply-actions");
			f->apply = 1;
			doc_iter_init(&ait, &c, "action");
			while (doc_iter_next(&ait, &a) == 1)
				if (fc_action(f, &a, orders, err, errlen) ==
				    -1)
					return -1;
		} else if (doc_child(&in, "meter", &c) == 0) {
			if (fc_meter(f, &c, err, errlen) == -1)
				return -1;
		} else if (doc_child(&in, "go-to-table", &c) == 0) {
			if (fc_uint(&c, "table_id", 254, &t, &given, err,
			    errlen) == -1)
				return -1;
			if (!given)
				FC_ERR("go-to-table: table_id missing");
			f->go_to = (uint8_t)t;
		} else
			FC_ERR("instruction: only apply-actions, meter and "
			    "go-to-table are supported");
	}
	if (f->go_to != FC_NO_TABLE && f->table >= 0 && f->go_to <= f->table)
		FC_ERR("go-to-table: table_id %u is not after table %d",
		    f->go_to, f->table);
	return 0;
}

int
fc_parse(const struct doc_node *fl, struct fc_spec *f, char *err,
    size_t errlen)
{
	return fc_parse_as(fl, "id", f, err, errlen);
}

int
fc_parse_as(const struct doc_node *fl, const char *id_leaf,
    struct fc_spec *f, char *err, size_t errlen)
{
	uint64_t	v;
	int		given, strict = 0;

	memset(f, 0, sizeof(*f));
	f->table = -1;
	f->priority = FC_DEFAULT_PRIORITY;
	if (id_leaf != NULL && (doc_get_string(fl, id_leaf, f->id,
	    sizeof(f->id)) == -1 || f->id[0] == '\0'))
		FC_ERR("%s: missing, or longer than %d bytes", id_leaf,
		    FC_MAX_ID);
	if (fc_uint(fl, "table_id", 254, &v, &given, err, errlen) == -1)
		return -1;
	if (given)
		f->table = (int)v;
	if (fc_uint(fl, "priority", 0xffff, &v, &given, err, errlen) == -1)
		return -1;
	if (given)
		f->priority = (uint16_t)v;
	if (fc_uint(fl, "idle-timeout", 0xffff, &v, &given, err, errlen) ==
	    -1)
		return -1;
	f->idle = given ? (uint16_t)v : 0;
	if (fc_uint(fl, "hard-timeout", 0xffff, &v, &given, err, errlen) ==
	    -1)
		return -1;
	f->hard = given ? (uint16_t)v : 0;
	if (fc_uint(fl, "cookie", UINT64_MAX, &f->cookie, &given, err,
	    errlen) == -1 || fc_uint(fl, "cookie_mask", UINT64_MAX, &v,
	    &given, err, errlen) == -1)
		return -1;
	if (doc_child(fl, "flow-name", &(struct doc_node){ 0 }) == 0 &&
	    doc_get_string(fl, "flow-name", f->name, sizeof(f->name)) == -1)
		FC_ERR("flow-name: longer than %d bytes", FC_MAX_ID);
	if (fc_bool(fl, "strict", &strict) == -1 ||
	    fc_bool(fl, "barrier", &given) == -1)
		FC_ERR("strict/barrier: expected true or false");
	f->strict = (uint8_t)strict;
	if (fc_match(f, fl, err, errlen) == -1)
		return -1;
	return fc_instructions(f, fl, err, errlen);
}

/* ---- the store ---- */

static const char *
fc_id(const struct fc_flow *f)
{
	return (const char *)f->data;
}

static const char *
fc_name(const struct fc_flow *f)
{
	return (const char *)f->data + f->id_len + 1;
}

static const uint8_t *
fc_oxm(const struct fc_flow *f)
{
	return f->data + f->id_len + 1 + f->name_len + 1;
}

/* What follows the outs: the meter id, then the group mask. */
static const uint8_t *
fc_tail(const struct fc_flow *f)
{
	return fc_oxm(f) + f->match_len + 6 * f->nout;
}

static uint32_t
fc_flow_meter(const struct fc_flow *f)
{
	const uint8_t	*p = fc_tail(f);

	if (!(f->apply & FC_F_METER))
		return 0;
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static struct fc_out
fc_flow_out(const struct fc_flow *f, unsigned i)
{
	const uint8_t	*p = fc_oxm(f) + f->match_len + 6 * i;
	const uint8_t	*m = fc_tail(f) + (f->apply & FC_F_METER ? 4 : 0);
	struct fc_out	 o;

	o.port = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
	o.max_len = (uint16_t)(p[4] << 8 | p[5]);
	o.group = (f->apply & FC_F_GROUPS) &&
	    ((m[0] << 8 | m[1]) >> i & 1);
	return o;
}

static void
fc_match_of(const struct fc_flow *f, struct of_match *m)
{
	m->len = f->match_len;
	memcpy(m->oxm, fc_oxm(f), f->match_len);
}

/*
 * Hand-kept chains, not uthash: this store takes the northbound's 100k+
 * flows/s and is searched per flow of every stats reply; uthash measured
 * 1.58x the instructions per lookup and 1.82x the bytes per flow
 * (docs/design.md, "Containers").
 */
static uint32_t
fc_hash_id(unsigned table, const char *id)
{
	return fnv1a_str(FNV_SEED ^ table, id);
}

static uint32_t
fc_hash_m(unsigned table, uint16_t prio, const uint8_t *oxm, size_t len)
{
	return fnv1a_bytes(FNV_SEED ^ (table << 16 | prio), oxm, len);
}

static void
fc_link(struct fc_node *n, struct fc_flow *f)
{
	size_t	b = fc_hash_id(f->table, fc_id(f)) % n->nb;

	f->next_id = n->by_id[b];
	n->by_id[b] = f;
	b = fc_hash_m(f->table, f->priority, fc_oxm(f), f->match_len) % n->nb;
	f->next_m = n->by_m[b];
	n->by_m[b] = f;
}

static void
fc_unlink(struct fc_node *n, struct fc_flow *f)
{
	struct fc_flow	**pp;

	pp = &n->by_id[fc_hash_id(f->table, fc_id(f)) % n->nb];
	while (*pp != f)
		pp = &(*pp)->next_id;
	*pp = f->next_id;
	pp = &n->by_m[fc_hash_m(f->table, f->priority, fc_oxm(f),
	    f->match_len) % n->nb];
	while (*pp != f)
		pp = &(*pp)->next_m;
	*pp = f->next_m;
	n->n--;
}

static void
fc_resize(struct fc_node *n, size_t nb)
{
	struct fc_flow	**old = n->by_id, *f, *next;
	size_t		  onb = n->nb, i;

	n->by_id = xcalloc(nb, sizeof(*n->by_id));
	free(n->by_m);
	n->by_m = xcalloc(nb, sizeof(*n->by_m));
	n->nb = nb;
	for (i = 0; i < onb; i++)
		for (f = old[i]; f != NULL; f = next) {
			next = f->next_id;
			fc_link(n, f);
		}
	free(old);
}

struct fc_flow *
fc_find(struct fc_node *n, unsigned table, const char *id)
{
	struct fc_flow	*f;

	if (n->nb == 0)
		return NULL;
	for (f = n->by_id[fc_hash_id(table, id) % n->nb]; f != NULL;
	    f = f->next_id)
		if (f->table == table && strcmp(fc_id(f), id) == 0)
			return f;
	return NULL;
}

static struct fc_flow *
fc_find_m(struct fc_node *n, unsigned table, uint16_t prio,
    const struct of_match *m)
{
	struct fc_flow	*f;

	if (n->nb == 0)
		return NULL;
	for (f = n->by_m[fc_hash_m(table, prio, m->oxm, m->len) % n->nb];
	    f != NULL; f = f->next_m)
		if (f->table == table && f->priority == prio &&
		    f->match_len == m->len &&
		    memcmp(fc_oxm(f), m->oxm, m->len) == 0)
			return f;
	return NULL;
}

static void
fc_put_tail(uint8_t *p, uint32_t meter, uint16_t mask)
{
	if (meter != 0) {
		p[0] = meter >> 24;
		p[1] = meter >> 16;
		p[2] = meter >> 8;
		p[3] = meter;
		p += 4;
	}
	if (mask != 0) {
		p[0] = mask >> 8;
		p[1] = mask;
	}
}

static struct fc_flow *
fc_new(const struct fc_spec *s)
{
	size_t		 il = strlen(s->id), nl = strlen(s->name), i;
	struct fc_flow	*f;
	uint8_t		*p;
	uint16_t	 mask = 0;

	for (i = 0; i < s->nout; i++)
		mask |= (uint16_t)(s->out[i].group ? 1u << i : 0);
	f = xcalloc(1, sizeof(*f) + il + 1 + nl + 1 + s->match.len +
	    6 * s->nout + (s->meter ? 4 : 0) + (mask ? 2 : 0));
	f->cookie = s->cookie;
	f->priority = s->priority;
	f->idle = s->idle;
	f->hard = s->hard;
	f->match_len = s->match.len;
	f->table = (uint8_t)s->table;
	f->go_to = s->go_to;
	f->nout = s->nout;
	f->apply = (uint8_t)((s->apply ? FC_F_APPLY : 0) |
	    (s->meter ? FC_F_METER : 0) | (mask ? FC_F_GROUPS : 0));
	f->id_len = (uint8_t)il;
	f->name_len = (uint8_t)nl;
	memcpy(f->data, s->id, il + 1);
	memcpy(f->data + il + 1, s->name, nl + 1);
	p = f->data + il + 1 + nl + 1;
	memcpy(p, s->match.oxm, s->match.len);
	p += s->match.len;
	for (i = 0; i < s->nout; i++, p += 6) {
		p[0] = s->out[i].port >> 24;
		p[1] = s->out[i].port >> 16;
		p[2] = s->out[i].port >> 8;
		p[3] = s->out[i].port;
		p[4] = s->out[i].max_len >> 8;
		p[5] = s->out[i].max_len;
	}
	fc_put_tail(p, s->meter, mask);
	return f;
}

static void
fc_add(struct fc_node *n, struct fc_flow *f)
{
	if (n->n + 1 > n->nb)
		fc_resize(n, n->nb ? 2 * n->nb : FC_MIN_BUCKETS);
	fc_link(n, f);
	n->n++;
}

struct fc_node *
fc_node_get(uint64_t dpid, int create)
{
	struct fc_node	*n;

	HASH_FIND(hh, nodes, &dpid, sizeof(dpid), n);
	if (n != NULL || !create)
		return n;
	n = xcalloc(1, sizeof(*n));
	n->dpid = dpid;
	n->version = OF_VERSION_13;
	n->done_gen = 1;
	HASH_ADD(hh, nodes, dpid, sizeof(n->dpid), n);
	return n;
}

struct op_node *
fc_node_ports(struct fc_node *n)
{
	return &n->ports;
}

uint64_t
fc_node_count(const struct fc_node *n, int table)
{
	struct fc_flow	*f;
	uint64_t	 c = 0;
	size_t		 i;

	if (table < 0)
		return n->n;
	for (i = 0; i < n->nb; i++)
		for (f = n->by_id[i]; f != NULL; f = f->next_id)
			c += f->table == table;
	return c;
}

/* ---- pushes ---- */

/* The flow's instructions (1.3) or actions (1.0) for the switch. */
static size_t
fc_prog(const struct fc_node *n, const struct fc_flow *f, uint8_t *buf)
{
	struct wbuf	w;
	struct fc_out	o;
	unsigned	i;
	uint16_t	len;

	wbuf_init(&w, buf, FC_PROG_MAX);
	/* 1.0 has no meters or groups: the output actions alone go. */
	if (n->version == OF_VERSION_13 && fc_flow_meter(f) != 0) {
		wbuf_put_u16(&w, 6);		/* OFPIT_METER */
		wbuf_put_u16(&w, 8);
		wbuf_put_u32(&w, fc_flow_meter(f));
	}
	if (n->version == OF_VERSION_13 && f->nout > 0) {
		for (len = 8, i = 0; i < f->nout; i++)
			len += fc_flow_out(f, i).group ? 8 : 16;
		wbuf_put_u16(&w, 4);		/* OFPIT_APPLY_ACTIONS */
		wbuf_put_u16(&w, len);
		wbuf_put_zero(&w, 4);
	}
	for (i = 0; i < f->nout; i++) {
		o = fc_flow_out(f, i);
		if (o.group) {
			if (n->version == OF_VERSION_13) {
				wbuf_put_u16(&w, 22);	/* OFPAT_GROUP */
				wbuf_put_u16(&w, 8);
				wbuf_put_u32(&w, o.port);
			}
			continue;
		}
		wbuf_put_u16(&w, 0);		/* OFPAT_OUTPUT */
		if (n->version == OF_VERSION_13) {
			wbuf_put_u16(&w, 16);
			wbuf_put_u32(&w, o.port);
			wbuf_put_u16(&w, o.max_len);
			wbuf_put_zero(&w, 6);
		} else {
			wbuf_put_u16(&w, 8);
			wbuf_put_u16(&w, of_port_narrow10(o.port));
			wbuf_put_u16(&w, o.max_len);
		}
	}
	/* 1.0 has no tables to go to: the output actions alone go. */
	if (n->version == OF_VERSION_13 && f->go_to != FC_NO_TABLE) {
		wbuf_put_u16(&w, 1);		/* OFPIT_GOTO_TABLE */
		wbuf_put_u16(&w, 8);
		wbuf_put_u8(&w, f->go_to);
		wbuf_put_zero(&w, 3);
	}
	return w.err ? 0 : w.len;
}

static void
fc_push(struct fc_node *n, const struct fc_flow *f, uint8_t command)
{
	struct of_flow_mod	fm;
	uint8_t			prog[FC_PROG_MAX];

	memset(&fm, 0, sizeof(fm));
	fc_match_of(f, &fm.match);
	fm.cookie = f->cookie;
	fm.table_id = f->table;
	fm.command = command;
	fm.idle_timeout = f->idle;
	fm.hard_timeout = f->hard;
	fm.priority = f->priority;
	fm.buffer_id = 0xffffffffu;
	fm.out_port = OF_PORT_ANY;
	fm.out_group = OF_GROUP_ANY;
	if (command != OF_FC_DELETE_STRICT && command != OF_FC_DELETE) {
		fm.prog = prog;
		fm.prog_len = fc_prog(n, f, prog);
	}
	(void)of_ctl_push(n->dpid, &fm);
}

void
fc_barrier(struct fc_node *n)
{
	(void)of_ctl_barrier(n->dpid);
}

int
fc_put(struct fc_node *n, const struct fc_spec *s)
{
	struct fc_flow	*old = fc_find(n, (unsigned)s->table, s->id), *f;

	f = fc_new(s);
	if (old == NULL) {
		fc_add(n, f);
		fc_push(n, f, OF_FC_ADD);
		return 1;
	}
	fc_unlink(n, old);
	if (old->priority == f->priority && old->match_len == f->match_len &&
	    memcmp(fc_oxm(old), fc_oxm(f), f->match_len) == 0) {
		/* Same flow entry on the switch: keep what stats saw. */
		f->seen = old->seen;
		f->prev_ok = old->prev_ok;
		fc_push(n, f, OF_FC_MODIFY_STRICT);
	} else {
		fc_push(n, old, OF_FC_DELETE_STRICT);
		fc_push(n, f, OF_FC_ADD);
	}
	free(old);
	fc_add(n, f);
	return 0;
}

int
fc_post(struct fc_node *n, const struct fc_spec *s, size_t cnt, size_t *dup)
{
	struct fc_flow	**added = xcalloc(cnt ? cnt : 1, sizeof(*added));
	size_t		  i, j;

	/* Insert one by one (a duplicate within the batch is found like an
	 * existing one), undo them all at the first duplicate. */
	for (i = 0; i < cnt; i++) {
		if (fc_find(n, (unsigned)s[i].table, s[i].id) != NULL) {
			for (j = 0; j < i; j++) {
				fc_unlink(n, added[j]);
				free(added[j]);
			}
			free(added);
			*dup = i;
			return -1;
		}
		added[i] = fc_new(&s[i]);
		fc_add(n, added[i]);
	}
	for (i = 0; i < cnt; i++)
		fc_push(n, added[i], OF_FC_ADD);
	free(added);
	return 0;
}

int
fc_delete(struct fc_node *n, unsigned table, const char *id)
{
	struct fc_flow	*f = fc_find(n, table, id);

	if (f == NULL)
		return -1;
	fc_unlink(n, f);
	fc_push(n, f, OF_FC_DELETE_STRICT);
	free(f);
	return 0;
}

/* Every config flow of the table goes, and one non-strict DELETE of the
 * whole table (any cookie) empties it on the switch. */
int
fc_delete_table(struct fc_node *n, unsigned table)
{
	struct of_flow_mod	  fm;
	struct fc_flow		**pp, *f;
	size_t			  i, gone = 0;

	for (i = 0; i < n->nb; i++)
		for (pp = &n->by_id[i]; (f = *pp) != NULL;) {
			if (f->table != table) {
				pp = &f->next_id;
				continue;
			}
			fc_unlink(n, f);	/* unlinks *pp as well */
			free(f);
			gone++;
		}
	if (gone == 0)
		return -1;
	memset(&fm, 0, sizeof(fm));
	of_match_init(&fm.match);
	fm.table_id = (uint8_t)table;
	fm.command = OF_FC_DELETE;
	fm.buffer_id = 0xffffffffu;
	fm.out_port = OF_PORT_ANY;
	fm.out_group = OF_GROUP_ANY;
	(void)of_ctl_push(n->dpid, &fm);
	return 0;
}

/* A flow pushed to its switch directly, not kept in the config (so not
 * pushed again when the switch reconnects): sal-flow's add-flow and
 * remove-flow (strict or not, as the input says), bulk-o-matic's *-rpc.
 * The caller closes the batch with fc_barrier(). */
static struct fc_flow **
fc_rpc_slot(struct fc_node *n, unsigned table, uint16_t prio,
    const uint8_t *oxm, size_t len)
{
	struct fc_flow	**pp;

	pp = &n->rpc[fc_hash_m(table, prio, oxm, len) % n->rpc_nb];
	for (; *pp != NULL; pp = &(*pp)->next_m)
		if ((*pp)->table == table && (*pp)->priority == prio &&
		    (*pp)->match_len == len &&
		    memcmp(fc_oxm(*pp), oxm, len) == 0)
			break;
	return pp;
}

static void
fc_rpc_grow(struct fc_node *n)
{
	struct fc_flow	**old = n->rpc, *f, *next;
	size_t		  onb = n->rpc_nb, i;

	n->rpc_nb = onb ? 2 * onb : FC_MIN_BUCKETS;
	n->rpc = xcalloc(n->rpc_nb, sizeof(*n->rpc));
	for (i = 0; i < onb; i++)
		for (f = old[i]; f != NULL; f = next) {
			next = f->next_m;
			f->next_m = NULL;
			*fc_rpc_slot(n, f->table, f->priority, fc_oxm(f),
			    f->match_len) = f;
		}
	free(old);
}

static void
fc_rpc_clear(struct fc_node *n)
{
	struct fc_flow	*f, *next;
	size_t		 i;

	for (i = 0; i < n->rpc_nb; i++)
		for (f = n->rpc[i]; f != NULL; f = next) {
			next = f->next_m;
			free(f);
		}
	free(n->rpc);
	n->rpc = NULL;
	n->rpc_nb = 0;
	n->rpc_n = 0;
}

/* Remember an added flow (replacing one of the same table, priority and
 * match, as the switch does), forget a removed one: by its priority and
 * match, the switch's non-strict removal may take more, which its stats
 * then show. */
static void
fc_rpc_note(struct fc_node *n, struct fc_flow *f, int add)
{
	struct fc_flow	**pp, *old;

	if (n->rpc_n + 1 > n->rpc_nb)
		fc_rpc_grow(n);
	pp = fc_rpc_slot(n, f->table, f->priority, fc_oxm(f), f->match_len);
	if ((old = *pp) != NULL) {
		*pp = old->next_m;
		free(old);
		n->rpc_n--;
	}
	if (!add) {
		free(f);
		return;
	}
	f->next_m = *pp;
	*pp = f;
	n->rpc_n++;
}

void
fc_rpc_push(struct fc_node *n, const struct fc_spec *s, int add)
{
	struct fc_spec	 named = *s;
	struct fc_flow	*f;

	/* openflowplugin's name for a flow it did not write itself. */
	snprintf(named.id, sizeof(named.id), "#UF$TABLE*%d-%" PRIu64,
	    s->table, ++n->rpc_seq);
	f = fc_new(&named);
	fc_push(n, f, add ? OF_FC_ADD : s->strict ? OF_FC_DELETE_STRICT :
	    OF_FC_DELETE);
	fc_rpc_note(n, f, add);
}

void
fc_rpc_foreach(struct fc_node *n, unsigned table, fc_flow_fn fn, void *arg)
{
	struct fc_flow	*f;
	size_t		 i;

	for (i = 0; i < n->rpc_nb; i++)
		for (f = n->rpc[i]; f != NULL; f = f->next_m)
			if (f->table == table && fc_oper_visible(n, f))
				fn(n, f, arg);
}

uint64_t
fc_rpc_seq(const struct fc_node *n)
{
	return n->rpc_seq;
}

/*
 * Flow j (from 0) of bulk-o-matic's flow-test for one node, as its
 * writers and FlowReader name it: source address N = j + 1, id
 * "Flow-openflow:DPID.TABLE.N" in table start + j mod (end - start + 1),
 * matching IPv4 packets from 0.0.0.N/32 (BulkOMaticUtils.getMatch), with
 * no instruction (drop).
 */
void
fc_test_spec(struct fc_spec *s, uint64_t dpid, uint32_t j, unsigned start,
    unsigned end)
{
	uint8_t	type[2] = { 0x08, 0x00 }, a[4];
	uint32_t ip = j + 1;

	memset(s, 0, sizeof(*s));
	s->table = (int)(start + j % (end - start + 1));
	s->priority = FC_DEFAULT_PRIORITY;
	s->go_to = FC_NO_TABLE;
	snprintf(s->id, sizeof(s->id), "Flow-openflow:%" PRIu64 ".%d.%" PRIu32,
	    dpid, s->table, ip);
	a[0] = (uint8_t)(ip >> 24);
	a[1] = (uint8_t)(ip >> 16);
	a[2] = (uint8_t)(ip >> 8);
	a[3] = (uint8_t)ip;
	of_match_init(&s->match);
	of_match_set(&s->match, OXM_ETH_TYPE, type, NULL, 2);
	of_match_set(&s->match, OXM_IPV4_SRC, a, NULL, 4);
}

/* Every config flow of the node goes, each with a DELETE_STRICT as
 * openflowplugin's forwarding rules manager removes them one by one, so
 * that flows the switch holds from elsewhere stay; one barrier ends it. */
int
fc_delete_node(struct fc_node *n)
{
	struct fc_flow	*f, *next;
	size_t		 i;

	if (n->n == 0)
		return -1;
	for (i = 0; i < n->nb; i++) {
		for (f = n->by_id[i]; f != NULL; f = next) {
			next = f->next_id;
			fc_push(n, f, OF_FC_DELETE_STRICT);
			free(f);
		}
		n->by_id[i] = n->by_m[i] = NULL;
	}
	n->n = 0;
	fc_barrier(n);
	return 0;
}

/* Every node's config flows: the number of nodes that had some. */
unsigned
fc_delete_all(void)
{
	struct fc_node	*n, *next;
	unsigned	 c = 0;

	HASH_ITER(hh, nodes, n, next)
		if (fc_delete_node(n) == 0)
			c++;
	return c;
}

/* ---- reads ---- */

int
fc_oper_visible(const struct fc_node *n, const struct fc_flow *f)
{
	return n->polled && (f->seen == n->done_gen ||
	    (f->seen == n->done_gen + 1 && f->prev_ok));
}

void
fc_foreach(struct fc_node *n, int table, int oper, fc_flow_fn fn,
    void *arg)
{
	struct fc_flow	*f;
	size_t		 i;

	for (i = 0; i < n->nb; i++)
		for (f = n->by_id[i]; f != NULL; f = f->next_id)
			if ((table < 0 || f->table == table) &&
			    (!oper || fc_oper_visible(n, f)))
				fn(n, f, arg);
}

void
fc_tables(struct fc_node *n, uint8_t set[32])
{
	struct fc_flow	*f;
	size_t		 i;

	memset(set, 0, 32);
	for (i = 0; i < n->nb; i++)
		for (f = n->by_id[i]; f != NULL; f = f->next_id)
			set[f->table / 8] |= (uint8_t)(1u << (f->table % 8));
}

int
fc_reported(const struct fc_node *n)
{
	return n->polled;
}

uint32_t
fc_reported_flows(const struct fc_node *n, unsigned table)
{
	return n->polled && table < 256 ? n->cnt[FC_C_ALL][table] : 0;
}

uint32_t
fc_reported_unknown(const struct fc_node *n, unsigned table)
{
	if (!n->polled || table >= 256)
		return 0;
	return n->cnt[FC_C_ALL][table] - n->cnt[FC_C_KNOWN][table];
}

/* ---- hooks from the OpenFlow role ---- */

/* A switch connected: forget its old report, push its config flows
 * (openflowplugin's reconciliation). */
static void
fc_connected(uint64_t dpid, uint8_t version, void *arg)
{
	struct fc_node	*n = fc_node_get(dpid, 1);
	struct fc_flow	*f;
	size_t		 i;

	(void)arg;
	op_connected(dpid, version);
	gm_connected(dpid, version);
	fc_rpc_clear(n);	/* a new session: the switch starts afresh */
	n->version = version;
	n->polled = 0;
	n->done_gen += 2;
	for (i = 0; i < n->nb; i++)
		for (f = n->by_id[i]; f != NULL; f = f->next_id)
			fc_push(n, f, OF_FC_ADD);
	if (n->n > 0)
		fc_barrier(n);
}

static void *
fc_stats_begin(uint64_t dpid, void *arg)
{
	struct fc_node	*n = fc_node_get(dpid, 1);

	(void)arg;
	gm_poll(dpid);
	if (n->cnt == NULL)
		n->cnt = xcalloc(4, sizeof(*n->cnt));
	memset(n->cnt[FC_C_CUR], 0, 2 * sizeof(*n->cnt));
	n->cur_gen = n->done_gen + 1;
	return n;
}

static void
fc_stats_flow(void *ctx, const struct of_flow_info *fi)
{
	struct fc_node	*n = ctx;
	struct fc_flow	*f;

	n->cnt[FC_C_CUR + FC_C_ALL][fi->table_id]++;
	f = fc_find_m(n, fi->table_id, fi->priority, fi->match);
	if (f == NULL && n->rpc_n > 0)
		f = *fc_rpc_slot(n, fi->table_id, fi->priority,
		    fi->match->oxm, fi->match->len);
	if (f == NULL || f->seen == n->cur_gen)
		return;
	f->prev_ok = f->seen == n->done_gen;
	f->seen = n->cur_gen;
	n->cnt[FC_C_CUR + FC_C_KNOWN][fi->table_id]++;
}

static void
fc_stats_end(void *ctx)
{
	struct fc_node	*n = ctx;

	memcpy(n->cnt[FC_C_ALL], n->cnt[FC_C_CUR], 2 * sizeof(*n->cnt));
	n->done_gen = n->cur_gen;
	n->polled = 1;
}

void
fc_start(void)
{
	static const struct of_ctl_hooks h = {
		.connected = fc_connected, .stats_begin = fc_stats_begin,
		.stats_flow = fc_stats_flow, .stats_end = fc_stats_end,
		.port = op_port, .port_stats = op_port_stats,
		.link = op_link, .mp_reply = gm_mp_reply,
		.error = gm_error, .barrier = gm_wait_barrier, .arg = NULL,
	};

	of_ctl_set_hooks(&h);
}

void
fc_stop(void)
{
	struct fc_node	*n, *next;
	struct fc_flow	*f, *fn;
	size_t		 i;

	of_ctl_set_hooks(NULL);
	gm_stop();
	HASH_ITER(hh, nodes, n, next) {
		HASH_DEL(nodes, n);
		for (i = 0; i < n->nb; i++)
			for (f = n->by_id[i]; f != NULL; f = fn) {
				fn = f->next_id;
				free(f);
			}
		fc_rpc_clear(n);
		op_node_clear(&n->ports);
		free(n->by_id);
		free(n->by_m);
		free(n->cnt);
		free(n);
	}
}

/* ---- rendering, in the shape fc_parse reads ---- */

struct fc_fields {
	const uint8_t	*v[OXM_N_FIELDS];
	const uint8_t	*m[OXM_N_FIELDS];	/* NULL: exact */
	uint8_t		 len[OXM_N_FIELDS];
};

static void
fc_fields(const struct fc_flow *f, struct fc_fields *x)
{
	const uint8_t	*p = fc_oxm(f);
	size_t		 off;
	uint32_t	 h;
	uint8_t		 fld, len;

	memset(x, 0, sizeof(*x));
	for (off = 0; off + OXM_HDR_LEN <= f->match_len;
	    off += OXM_HDR_LEN + len) {
		h = (uint32_t)p[off] << 24 | (uint32_t)p[off + 1] << 16 |
		    (uint32_t)p[off + 2] << 8 | p[off + 3];
		len = OXM_HDR_LENGTH(h);
		fld = OXM_HDR_FIELD(h);
		if (fld >= OXM_N_FIELDS || off + OXM_HDR_LEN + len >
		    f->match_len)
			break;
		x->v[fld] = p + off + OXM_HDR_LEN;
		x->len[fld] = OXM_HDR_HASMASK(h) ? len / 2 : len;
		x->m[fld] = OXM_HDR_HASMASK(h) ? x->v[fld] + len / 2 : NULL;
	}
}

static uint32_t
fc_be(const uint8_t *p, size_t len)
{
	uint32_t	v = 0;

	while (len-- > 0)
		v = v << 8 | *p++;
	return v;
}

static void
fc_render_mac(struct doc_writer *w, const struct fc_fields *x,
    const char *name, uint8_t fld)
{
	char		s[18];
	const uint8_t	*v = x->v[fld];

	if (v == NULL)
		return;
	doc_container(w, NULL, name);
	snprintf(s, sizeof(s), "%02x:%02x:%02x:%02x:%02x:%02x", v[0], v[1],
	    v[2], v[3], v[4], v[5]);
	doc_leaf_str(w, "address", s);
	if ((v = x->m[fld]) != NULL) {
		snprintf(s, sizeof(s), "%02x:%02x:%02x:%02x:%02x:%02x", v[0],
		    v[1], v[2], v[3], v[4], v[5]);
		doc_leaf_str(w, "mask", s);
	}
	doc_end(w);
}

static void
fc_render_ipv4(struct doc_writer *w, const struct fc_fields *x,
    const char *name, uint8_t fld)
{
	char		s[INET_ADDRSTRLEN + 4];
	uint32_t	m;
	int		plen = 32;

	if (x->v[fld] == NULL)
		return;
	if (x->m[fld] != NULL)
		for (m = fc_be(x->m[fld], 4), plen = 0; m & 0x80000000u;
		    m <<= 1)
			plen++;
	inet_ntop(AF_INET, x->v[fld], s, sizeof(s));
	snprintf(s + strlen(s), sizeof(s) - strlen(s), "/%d", plen);
	doc_leaf_str(w, name, s);
}

static void
fc_render_match(struct doc_writer *w, const struct fc_flow *f)
{
	static const struct { const char *name; uint8_t fld; } ports[] = {
		{ "tcp-source-port", OXM_TCP_SRC },
		{ "tcp-destination-port", OXM_TCP_DST },
		{ "udp-source-port", OXM_UDP_SRC },
		{ "udp-destination-port", OXM_UDP_DST },
	};
	struct fc_fields	x;
	char			s[32];
	uint32_t		vid;
	size_t			i;

	fc_fields(f, &x);
	doc_container(w, NULL, "match");
	if (x.v[OXM_IN_PORT] != NULL) {
		snprintf(s, sizeof(s), "%" PRIu32, fc_be(x.v[OXM_IN_PORT], 4));
		doc_leaf_str(w, "in-port", s);
	}
	if (x.v[OXM_ETH_TYPE] || x.v[OXM_ETH_SRC] || x.v[OXM_ETH_DST]) {
		doc_container(w, NULL, "ethernet-match");
		if (x.v[OXM_ETH_TYPE] != NULL) {
			doc_container(w, NULL, "ethernet-type");
			doc_leaf_uint(w, "type", fc_be(x.v[OXM_ETH_TYPE], 2));
			doc_end(w);
		}
		fc_render_mac(w, &x, "ethernet-source", OXM_ETH_SRC);
		fc_render_mac(w, &x, "ethernet-destination", OXM_ETH_DST);
		doc_end(w);
	}
	if (x.v[OXM_VLAN_VID] != NULL) {
		vid = fc_be(x.v[OXM_VLAN_VID], 2);
		doc_container(w, NULL, "vlan-match");
		doc_container(w, NULL, "vlan-id");
		if (x.m[OXM_VLAN_VID] == NULL && (vid & FC_VID_PRESENT))
			doc_leaf_uint(w, "vlan-id", vid & 0xfff);
		doc_leaf_str(w, "vlan-id-present", vid & FC_VID_PRESENT ?
		    "true" : "false");
		doc_end(w);
		doc_end(w);
	}
	fc_render_ipv4(w, &x, "ipv4-source", OXM_IPV4_SRC);
	fc_render_ipv4(w, &x, "ipv4-destination", OXM_IPV4_DST);
	if (x.v[OXM_IP_PROTO] || x.v[OXM_IP_DSCP]) {
		doc_container(w, NULL, "ip-match");
		if (x.v[OXM_IP_PROTO] != NULL)
			doc_leaf_uint(w, "ip-protocol", *x.v[OXM_IP_PROTO]);
		if (x.v[OXM_IP_DSCP] != NULL)
			doc_leaf_uint(w, "ip-dscp", *x.v[OXM_IP_DSCP]);
		doc_end(w);
	}
	for (i = 0; i < sizeof(ports) / sizeof(ports[0]); i++)
		if (x.v[ports[i].fld] != NULL)
			doc_leaf_uint(w, ports[i].name,
			    fc_be(x.v[ports[i].fld], 2));
	doc_end(w);
}

void
fc_port_name(uint32_t port, char *s, size_t cap)
{
	size_t	i;

	for (i = 0; i < sizeof(fc_ports) / sizeof(fc_ports[0]); i++)
		if (fc_ports[i].port == port) {
			snprintf(s, cap, "%s", fc_ports[i].name);
			return;
		}
	snprintf(s, cap, "%" PRIu32, port);
}

/* One action of apply-actions: an output, a group, or drop. */
static void
fc_render_action(struct doc_writer *w, unsigned order,
    const struct fc_out *o)
{
	char	s[32];

	doc_entry(w);
	doc_leaf_uint(w, "order", order);
	if (o == NULL)
		doc_container(w, NULL, "drop-action");
	else if (o->group) {
		doc_container(w, NULL, "group-action");
		doc_leaf_uint(w, "group-id", o->port);
	} else {
		doc_container(w, NULL, "output-action");
		fc_port_name(o->port, s, sizeof(s));
		doc_leaf_str(w, "output-node-connector", s);
		doc_leaf_uint(w, "max-length", o->max_len);
	}
	doc_end(w);
	doc_end(w);
}

static void
fc_render_apply(struct doc_writer *w, const struct fc_flow *f,
    unsigned order)
{
	struct fc_out	o;
	unsigned	i;

	doc_entry(w);
	doc_leaf_uint(w, "order", order);
	doc_container(w, NULL, "apply-actions");
	doc_list(w, NULL, "action");
	for (i = 0; i < f->nout; i++) {
		o = fc_flow_out(f, i);
		fc_render_action(w, i, &o);
	}
	if (f->nout == 0)
		fc_render_action(w, 0, NULL);
	doc_end(w);
	doc_end(w);
	doc_end(w);
}

/* The instructions in the order they go to the switch: meter,
 * apply-actions, go-to-table. */
static void
fc_render_instructions(struct doc_writer *w, const struct fc_flow *f)
{
	unsigned	order = 0;

	if (f->apply == 0 && f->go_to == FC_NO_TABLE)
		return;
	doc_container(w, NULL, "instructions");
	doc_list(w, NULL, "instruction");
	if (f->apply & FC_F_METER) {
		doc_entry(w);
		doc_leaf_uint(w, "order", order++);
		doc_container(w, NULL, "meter");
		doc_leaf_uint(w, "meter-id", fc_flow_meter(f));
		doc_end(w);
		doc_end(w);
	}
	if (f->apply & FC_F_APPLY)
		fc_render_apply(w, f, order++);
	if (f->go_to != FC_NO_TABLE) {
		doc_entry(w);
		doc_leaf_uint(w, "order", order);
		doc_container(w, NULL, "go-to-table");
		doc_leaf_uint(w, "table_id", f->go_to);
		doc_end(w);
		doc_end(w);
	}
	doc_end(w);
	doc_end(w);
}

void
fc_render(struct doc_writer *w, const struct fc_node *n,
    const struct fc_flow *f)
{
	char	s[24];

	(void)n;
	doc_entry(w);
	doc_leaf_str(w, "id", fc_id(f));
	doc_leaf_uint(w, "table_id", f->table);
	doc_leaf_uint(w, "priority", f->priority);
	snprintf(s, sizeof(s), "%" PRIu64, f->cookie);
	doc_leaf_str(w, "cookie", s);
	if (f->idle)
		doc_leaf_uint(w, "idle-timeout", f->idle);
	if (f->hard)
		doc_leaf_uint(w, "hard-timeout", f->hard);
	if (f->name_len)
		doc_leaf_str(w, "flow-name", fc_name(f));
	fc_render_match(w, f);
	fc_render_instructions(w, f);
	doc_end(w);
}
