/*
 * sal-group and sal-meter answers that wait for the switch, as
 * openflowplugin's do: its add-group (update-, remove-; the meter's the
 * same) sends the GROUP_MOD and a BARRIER_REQUEST and completes the RPC
 * when the switch has answered.  An ERROR for the MOD's xid (OpenFlow
 * 1.3.5 section 6.4: a switch answers a message it refuses with an ERROR
 * of that xid, and a barrier reply comes after every answer to what
 * preceded it, section 6.2) fails the RPC with the switch's error; the
 * BARRIER_REPLY completes it with the MOD's xid as its transaction-id.
 *
 * The HTTP request is deferred (http_defer), never the loop: a wait is a
 * list entry and a timer.  Each is bounded in time by --rpc-timeout and
 * in number by the RESTCONF server's connections (each holds at most one
 * request unanswered).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <event2/event.h>
#include <event2/http.h>
#include "engine.h"
#include "http_server.h"
#include "log.h"
#include "of_gmcfg.h"
#include "restconf.h"

struct gm_wait {
	TAILQ_ENTRY(gm_wait)	 link;
	struct http_req		*h;
	struct event		*timer;
	enum gm_kind		 k;
	int			 rfc8040;
	uint64_t		 dpid;
	uint32_t		 mod_xid;
	uint32_t		 barrier_xid;
};

static TAILQ_HEAD(, gm_wait)	gm_waits = TAILQ_HEAD_INITIALIZER(gm_waits);
static double			gm_wait_secs = GM_RPC_TIMEOUT;
static struct gm_wait_counters	gm_wcnt[GM_KINDS];

static const struct doc_module gm_wait_mod[GM_KINDS] = {
	{ "sal-group", "urn:opendaylight:group:service" },
	{ "sal-meter", "urn:opendaylight:meter:service" },
};

static void
gm_wait_free(struct gm_wait *w)
{
	TAILQ_REMOVE(&gm_waits, w, link);
	engine_event_free(&w->timer);
	free(w);
}

/* The RPC fails: an application error, operation-failed (RFC 8040
 * section 7), with HTTP status and the message msg. */
static void
gm_wait_fail(struct gm_wait *w, int status, const char *msg)
{
	http_error(w->h, status, "application", "operation-failed", "%s",
	    msg);
	gm_wait_free(w);
}

/* The output openflowplugin gives: the transaction-id of the MOD
 * (flow-capable-transaction's transaction-aware grouping). */
static void
gm_wait_done(struct gm_wait *w)
{
	struct doc_writer	 d;
	struct evbuffer		*b;

	gm_wcnt[w->k].answered++;
	b = rc_http_writer(w->h, &d);
	doc_container(&d, w->rfc8040 || w->h->reply_fmt == HTTP_FMT_XML ?
	    &gm_wait_mod[w->k] : NULL, "output");
	doc_leaf_uint(&d, "transaction-id", w->mod_xid);
	doc_end(&d);
	rc_http_send(w->h, &d, b);
	gm_wait_free(w);
}

/* OpenFlow 1.3.5 section 7.4.4's names, written as openflowjava names
 * its enums (OFPETGROUPMODFAILED, OFPGMFCGROUPEXISTS). */
static const char *const gm_et_names[] = {
	"HELLO_FAILED", "BAD_REQUEST", "BAD_ACTION", "BAD_INSTRUCTION",
	"BAD_MATCH", "FLOW_MOD_FAILED", "GROUP_MOD_FAILED",
	"PORT_MOD_FAILED", "TABLE_MOD_FAILED", "QUEUE_OP_FAILED",
	"SWITCH_CONFIG_FAILED", "ROLE_REQUEST_FAILED", "METER_MOD_FAILED",
	"TABLE_FEATURES_FAILED",
};
static const char *const gm_gmfc_names[] = {	/* 1.5.1 adds 15, 16 */
	"GROUP_EXISTS", "INVALID_GROUP", "WEIGHT_UNSUPPORTED",
	"OUT_OF_GROUPS", "OUT_OF_BUCKETS", "CHAINING_UNSUPPORTED",
	"WATCH_UNSUPPORTED", "LOOP", "UNKNOWN_GROUP", "CHAINED_GROUP",
	"BAD_TYPE", "BAD_COMMAND", "BAD_BUCKET", "BAD_WATCH", "EPERM",
	"UNKNOWN_BUCKET", "BUCKET_EXISTS",
};
static const char *const gm_mmfc_names[] = {
	"UNKNOWN", "METER_EXISTS", "INVALID_METER", "UNKNOWN_METER",
	"BAD_COMMAND", "BAD_FLAGS", "BAD_RATE", "BAD_BURST", "BAD_BAND",
	"BAD_BAND_VALUE", "OUT_OF_METERS", "OUT_OF_BANDS",
};

/* prefix and name with its underscores left out; the number when the
 * table has no name for it. */
static void
gm_wait_name(char *out, size_t cap, const char *prefix,
    const char *const *names, size_t n, uint16_t v)
{
	size_t	i, o;

	if (names == NULL || v >= n) {
		snprintf(out, cap, "%u", v);
		return;
	}
	o = (size_t)snprintf(out, cap, "%s", prefix);
	for (i = 0; names[v][i] != '\0' && o + 1 < cap; i++)
		if (names[v][i] != '_')
			out[o++] = names[v][i];
	out[o < cap ? o : cap - 1] = '\0';
}

/* The RPC fails as openflowplugin's does when the device refuses it
 * (its DeviceRequestFailedException: "Device reported error type T
 * code C"), an application error, operation-failed (RFC 8040 section
 * 7: 500). */
static void
gm_wait_refused(struct gm_wait *w, uint16_t type, uint16_t code)
{
	const char *const	*codes = NULL;
	size_t			 n = 0;
	char			 t[64], c[64], msg[160];

	if (type == 6) {	/* GROUP_MOD_FAILED */
		codes = gm_gmfc_names;
		n = nitems(gm_gmfc_names);
	} else if (type == 12) {	/* METER_MOD_FAILED */
		codes = gm_mmfc_names;
		n = nitems(gm_mmfc_names);
	}
	gm_wait_name(t, sizeof(t), "OFPET", gm_et_names,
	    nitems(gm_et_names), type);
	gm_wait_name(c, sizeof(c), type == 12 ? "OFPMMFC" : "OFPGMFC", codes,
	    n, code);
	gm_wcnt[w->k].refused++;
	snprintf(msg, sizeof(msg), "Device reported error type %s code %s",
	    t, c);
	gm_wait_fail(w, 500, msg);
}

static void
gm_wait_expired(evutil_socket_t fd, short what, void *arg)
{
	struct gm_wait	*w = arg;
	char		 msg[160];

	(void)fd;
	(void)what;
	gm_wcnt[w->k].timeouts++;
	log_info("openflow:%" PRIu64 " did not answer a sal-%s RPC (xid %"
	    PRIu32 ") within --rpc-timeout %g s", w->dpid,
	    gm_kind_name(w->k), w->mod_xid, gm_wait_secs);
	snprintf(msg, sizeof(msg), "openflow:%" PRIu64 " did not answer "
	    "within %g s", w->dpid, gm_wait_secs);
	gm_wait_fail(w, 500, msg);
}

void
gm_wait_add(struct http_req *h, int rfc8040, enum gm_kind k, uint64_t dpid,
    uint32_t mod_xid, uint32_t barrier_xid)
{
	struct gm_wait	*w = xcalloc(1, sizeof(*w));

	w->h = h;
	w->k = k;
	w->rfc8040 = rfc8040;
	w->dpid = dpid;
	w->mod_xid = mod_xid;
	w->barrier_xid = barrier_xid;
	w->timer = engine_timer_new(0, gm_wait_expired, w);
	engine_timer_add_ms(w->timer, (uint64_t)(gm_wait_secs * 1000));
	TAILQ_INSERT_TAIL(&gm_waits, w, link);
	http_defer(h);
}

int
gm_wait_error(uint64_t dpid, uint32_t xid, uint16_t type, uint16_t code)
{
	struct gm_wait	*w;

	TAILQ_FOREACH(w, &gm_waits, link)
		if (w->dpid == dpid && w->mod_xid == xid) {
			gm_wait_refused(w, type, code);
			return 1;
		}
	return 0;
}

void
gm_wait_barrier(uint64_t dpid, uint32_t xid, void *arg)
{
	struct gm_wait	*w;

	(void)arg;
	TAILQ_FOREACH(w, &gm_waits, link)
		if (w->dpid == dpid && w->barrier_xid == xid) {
			gm_wait_done(w);
			return;
		}
}

void
gm_wait_set_timeout(double secs)
{
	gm_wait_secs = secs > 0 ? secs : GM_RPC_TIMEOUT;
}

const struct gm_wait_counters *
gm_wait_counters(enum gm_kind k)
{
	return &gm_wcnt[k];
}

/* The controller stops: every request still waiting is answered (the
 * HTTP server requires it before it is freed). */
void
gm_wait_stop(void)
{
	struct gm_wait	*w;

	while ((w = TAILQ_FIRST(&gm_waits)) != NULL)
		gm_wait_fail(w, 503, "The controller is stopping");
	memset(gm_wcnt, 0, sizeof(gm_wcnt));
}
