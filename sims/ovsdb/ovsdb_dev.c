/*
 * One simulated OVSDB device's sessions (RFC 7047 section 4 over TCP):
 * in active mode the pool's one connection to the manager, reconnected
 * with backoff by the pool; in passive mode every connection accepted on
 * the device's port, up to --max-sessions at once (ovs-vsctl and
 * ovsdb-client monitor side by side).  Whole JSON values come out of the
 * stream through the framer (ovsdb_frame.c) and go to the device's
 * server (ovsdb_server.c).  Bad input as ovsdb-server treats it: a
 * message that is not JSON-RPC, or longer than --max-message, closes the
 * session; so does a read that takes the input held by all sessions past
 * --max-buffered, and a message not whole --message-timeout after its
 * first byte; a peer that does not read gets no more than --max-output
 * bytes queued before its session is closed; a session silent for the
 * inactivity probe gets an echo request and is closed after a second
 * period of silence (ovsdb-server's "inactivity probe").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "engine.h"
#include "log.h"
#include "ovsdb_phases.h"
#include "ovsdb_sim.h"
#include "rxstamp.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION	"unknown"
#endif

#define NS		1000000000ull

struct ovsdb_sess {
	struct ovsdb_conn	 conn;		/* first: the server's */
	struct ovsdb_dev	*dev;
	struct bufferevent	*bev;
	struct ovsdb_frame	 frame;
	struct rxpeek		 rxp;		/* while a phase waits */
	uint64_t		 last_rx_ns;	/* the last whole message */
	uint64_t		 probe_ns;	/* our echo, 0: none out */
	uint64_t		 arrived_ns;	/* the read in hand's arrival */
	uint64_t		 partial_ns;	/* a message begun; 0: none */
	size_t			 held;		/* input counted in buffered */
	uint8_t			 pooled;	/* the pool owns bev */
	uint8_t			 closing;	/* close at the next tick */
};

static const char *
ovsdb_who(const struct ovsdb_dev *d)
{
	static char	buf[32];

	snprintf(buf, sizeof(buf), "ovsdb device %u", d->id);
	return buf;
}

static void
ovsdb_log_once(struct ovsdb_dev *d, uint16_t kind, const char *why)
{
	if (!(d->logged & kind))
		log_warnx("%s: %s (further ones counted)", ovsdb_who(d), why);
	d->logged |= kind;
}

/* The device's first session: an item of connect. */
static void
ovsdb_dev_reached(struct ovsdb_dev *d, uint64_t now)
{
	struct phase	*ph = d->sim->connect;

	if (d->reached || ph->state != PHASE_RUNNING)
		return;
	d->reached = 1;
	phase_items(ph, now, 1);
	phase_latency(ph, (now - d->pd.attempt_ns) / 1000);
}

/*
 * What a session's input holds (a message on its way), counted against
 * --max-buffered over every session of the process: many peers each
 * sending most of a --max-message message would otherwise hold that
 * much each (8 sessions a device, any number of devices).
 */
static void
ovsdb_sess_hold(struct ovsdb_sess *s, size_t n)
{
	struct ovsdb_sim	*sim = s->dev->sim;

	sim->buffered = sim->buffered - s->held + n;
	s->held = n;
}

/* What ending a session undoes, whoever ends it; its bev is left to
 * the caller.  how is "closed" or "lost". */
static void
ovsdb_sess_end(struct ovsdb_sess *s, const char *how, const char *why)
{
	struct ovsdb_dev	*d = s->dev;

	log_debug("%s: session %s: %s", ovsdb_who(d), how, why);
	ovsdb_sess_hold(s, 0);
	rxpeek_stop(&s->rxp);
	ovsdb_conn_detach(&s->conn);
	(*d->sim->c.sessions_closed)++;
	d->n_sessions--;
}

/* End a session now (not from the server's send hook: see closing). */
static void
ovsdb_sess_close(struct ovsdb_sess *s, const char *why)
{
	struct ovsdb_dev	*d = s->dev;

	ovsdb_sess_end(s, "closed", why);
	if (s->pooled) {
		d->active = NULL;
		free(s);
		pool_lost(&d->pd, why);		/* frees bev, calls down() */
		return;
	}
	bufferevent_free(s->bev);
	free(s);
}

/* A session that broke a bound or the framing: counted, said once per
 * device and kind (ovsdb_log_once()), closed for why.  -1, for the
 * caller to return. */
static int
ovsdb_sess_broke(struct ovsdb_sess *s, uint64_t *count, uint16_t kind,
    const char *said, const char *why)
{
	(*count)++;
	ovsdb_log_once(s->dev, kind, said);
	ovsdb_sess_close(s, why);
	return -1;
}

/* The server writes: queued unless the peer stopped reading; then the
 * session closes at the next tick (we may be inside another session's
 * transaction). */
static void
ovsdb_sess_send(struct ovsdb_conn *conn, const char *buf, size_t len)
{
	struct ovsdb_sess	*s = (struct ovsdb_sess *)conn;
	struct ovsdb_dev	*d = s->dev;
	struct evbuffer		*out;

	if (s->closing)
		return;
	out = bufferevent_get_output(s->bev);
	if (evbuffer_get_length(out) + len > d->sim->cfg.max_output) {
		(*d->sim->c.output_overflows)++;
		ovsdb_log_once(d, OVSDB_DLOG_OVERFLOW, "a peer that does not "
		    "read: output over --max-output, closing the session");
		s->closing = 1;
		bufferevent_disable(s->bev, EV_READ | EV_WRITE);
		return;
	}
	bufferevent_write(s->bev, buf, len);
}

/* ---- reading: the framer (pool_framer.scan) and the server ---- */

static long
ovsdb_sess_scan(void *arg, struct evbuffer *in)
{
	struct ovsdb_sess	*s = arg;
	struct ovsdb_dev	*d = s->dev;
	enum ovsdb_frame_rc	 rc;
	size_t			 n = evbuffer_get_length(in), len = 0;

	if (n > s->frame.max)
		n = s->frame.max;
	rc = ovsdb_frame_scan(&s->frame, evbuffer_pullup(in, (ssize_t)n), n,
	    &len);
	if (rc == OVSDB_FRAME_WHOLE) {
		ovsdb_frame_reset(&s->frame);
		return (long)len;
	}
	if (rc == OVSDB_FRAME_MORE)
		return 0;
	/* ovsdb-server logs a stream it cannot parse and closes it. */
	if (rc == OVSDB_FRAME_LONG)
		return ovsdb_sess_broke(s, d->sim->c.oversized_msgs,
		    OVSDB_DLOG_LONG, "a message over --max-message; closing "
		    "the session", ovsdb_frame_error(rc));
	return ovsdb_sess_broke(s, d->sim->c.decode_errors, OVSDB_LOG_DECODE,
	    ovsdb_frame_error(rc), ovsdb_frame_error(rc));
}

static int
ovsdb_sess_message(void *arg, const uint8_t *msg, size_t len)
{
	struct ovsdb_sess	*s = arg;

	s->last_rx_ns = clock_ns();
	s->probe_ns = 0;
	if (ovsdb_conn_message(&s->conn, msg, len, ovsdb_who(s->dev)) == -1) {
		ovsdb_sess_close(s, "not JSON-RPC");
		return -1;
	}
	if (s->dev->srv.changed) {
		/* A bridge it made is timed from this read's arrival. */
		if (s->dev->changed_rx_ns == 0)
			s->dev->changed_rx_ns = s->arrived_ns;
		ovsdb_vswitchd_soon(s->dev);
	}
	if (s->closing) {
		ovsdb_sess_close(s, "output over --max-output");
		return -1;
	}
	return 0;
}

static int
ovsdb_sess_full(void *arg)
{
	struct ovsdb_sess	*s = arg;

	/* Half the limit: stop reading until the peer catches up. */
	return evbuffer_get_length(bufferevent_get_output(s->bev)) >=
	    s->dev->sim->cfg.max_output / 2;
}

static const struct pool_framer ovsdb_framer = {
	.out_full = ovsdb_sess_full,
	.message = ovsdb_sess_message,
	.scan = ovsdb_sess_scan,
};

/*
 * While a phase waits for its first item from this device (ovsdb_phases.c,
 * or bridge_openflow its first bridge), each read's arrival is peeked:
 * the window opens at the kernel's receive time (docs/report.md, "Phase
 * windows"), however late the loop reads.
 */
static void
ovsdb_sess_peek(struct ovsdb_sess *s)
{
	if (ovsdb_phases_peek(s->dev->sim->ph, s->dev) ||
	    ovsdb_datapath_peeking(s->dev->sim))
		rxpeek_arm(&s->rxp, bufferevent_getfd(s->bev));
	else
		rxpeek_stop(&s->rxp);
}

/* The input read counted; -1 when it takes every session's past
 * --max-buffered: this session is closed. */
static int
ovsdb_sess_over(struct ovsdb_sess *s, struct bufferevent *bev)
{
	struct ovsdb_dev	*d = s->dev;

	ovsdb_sess_hold(s, evbuffer_get_length(bufferevent_get_input(bev)));
	if (d->sim->buffered <= d->sim->cfg.max_buffered)
		return 0;
	return ovsdb_sess_broke(s, d->sim->c.input_overflows,
	    OVSDB_DLOG_BUFFERED, "input of all sessions past --max-buffered: "
	    "closing the session that passed it", "input past --max-buffered");
}

/* After the whole messages went: what is left is a message begun (past
 * its leading whitespace), whose deadline runs from its first read (a
 * peer trickling a byte now and then keeps the probe quiet), unless
 * reading is paused for a peer that does not read (the input is then
 * whole messages waiting, not a slow one). */
static void
ovsdb_sess_partial(struct ovsdb_sess *s, struct bufferevent *bev,
    uint64_t now)
{
	ovsdb_sess_hold(s, evbuffer_get_length(bufferevent_get_input(bev)));
	if (s->held == 0 || !s->frame.started ||
	    !(bufferevent_get_enabled(bev) & EV_READ))
		s->partial_ns = 0;
	else if (s->partial_ns == 0)
		s->partial_ns = now;
}

static void
ovsdb_sess_read(struct bufferevent *bev, void *arg)
{
	struct ovsdb_sess	*s = arg;
	uint64_t		 now = clock_ns();

	s->conn.rx_ns = s->arrived_ns = rxpeek_take(&s->rxp, now);
	if (ovsdb_sess_over(s, bev) == -1 ||
	    pool_read(bev, &ovsdb_framer, s) == -1)
		return;		/* the session is gone */
	s->conn.rx_ns = 0;
	ovsdb_sess_partial(s, bev, now);
	ovsdb_sess_peek(s);
}

static void
ovsdb_sess_write(struct bufferevent *bev, void *arg)
{
	struct ovsdb_sess	*s = arg;

	if (pool_read_resume(bev, &ovsdb_framer, s) == -1)
		return;
	ovsdb_sess_partial(s, bev, clock_ns());
}

/* A TLS session's error (a handshake the client failed, a certificate
 * the CA does not sign): counted, logged once per device; 0 when the
 * error is not TLS's. */
static int
ovsdb_tls_error(struct ovsdb_sess *s)
{
	struct ovsdb_dev	*d = s->dev;
	unsigned long		 e;
	char			 why[160], msg[200];

	if (d->sim->pcfg.ep.kind != EP_PSSL ||
	    (e = bufferevent_get_openssl_error(s->bev)) == 0)
		return 0;
	while (bufferevent_get_openssl_error(s->bev) != 0)
		;
	(*d->sim->c.tls_errors)++;
	ERR_error_string_n(e, why, sizeof(why));
	snprintf(msg, sizeof(msg), "TLS failed: %s", why);
	ovsdb_log_once(d, OVSDB_DLOG_TLS, msg);
	return 1;
}

static void
ovsdb_sess_event(struct bufferevent *bev, short what, void *arg)
{
	struct ovsdb_sess	*s = arg;

	if (s->pooled) {
		pool_bev_event(bev, what, s->dev);
		return;
	}
	if (what & BEV_EVENT_CONNECTED) {	/* a pssl: handshake done */
		ovsdb_dev_reached(s->dev, clock_ns());
		return;
	}
	if (what & BEV_EVENT_EOF)
		ovsdb_sess_close(s, "the client closed the connection");
	else if ((what & BEV_EVENT_ERROR) && ovsdb_tls_error(s))
		ovsdb_sess_close(s, "TLS failed");
	else if (what & BEV_EVENT_ERROR)
		ovsdb_sess_close(s, evutil_socket_error_to_string(
		    EVUTIL_SOCKET_ERROR()));
}

static struct ovsdb_sess *
ovsdb_sess_new(struct ovsdb_dev *d, struct bufferevent *bev, int pooled)
{
	struct ovsdb_sess	*s = xcalloc(1, sizeof(*s));
	struct ovsdb_sim	*sim = d->sim;

	ovsdb_conn_attach(&d->srv, &s->conn, ovsdb_sess_send);
	s->conn.logged = &d->logged;
	s->dev = d;
	s->bev = bev;
	s->pooled = (uint8_t)pooled;
	s->last_rx_ns = clock_ns();
	ovsdb_frame_init(&s->frame, sim->cfg.max_message);
	d->n_sessions++;
	(*sim->c.sessions)++;
	bufferevent_setcb(bev, ovsdb_sess_read, ovsdb_sess_write,
	    ovsdb_sess_event, s);
	bufferevent_setwatermark(bev, EV_WRITE, sim->cfg.max_output / 4, 0);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
	ovsdb_sess_peek(s);
	/* Over pssl: the session is up once its handshake is done. */
	if (pooled || sim->pcfg.ep.kind != EP_PSSL)
		ovsdb_dev_reached(d, s->last_rx_ns);
	return s;
}

/* ---- the pool ---- */

static void
ovsdb_dev_up(struct pool_dev *pd, struct bufferevent *bev)
{
	struct ovsdb_dev	*d = (struct ovsdb_dev *)pd;

	d->active = ovsdb_sess_new(d, bev, 1);
}

static void
ovsdb_dev_down(struct pool_dev *pd, const char *why)
{
	struct ovsdb_dev	*d = (struct ovsdb_dev *)pd;
	struct ovsdb_sess	*s = d->active;

	if (s == NULL)
		return;
	/* The pool freed bev: the session goes without it. */
	ovsdb_sess_end(s, "lost", why);
	d->active = NULL;
	free(s);
}

const struct pool_ops ovsdb_dev_ops = {
	ovsdb_dev_up,
	ovsdb_dev_down,
	"the manager",
};

/* A connection accepted: over TLS for pssl: (the handshake first, as
 * ovsdb-server's --remote=pssl: does), else plain. */
static struct bufferevent *
ovsdb_bev_new(struct ovsdb_dev *d, int fd)
{
	struct bufferevent	*bev;
	SSL			*ssl;

	if (d->sim->pcfg.ep.kind != EP_PSSL)
		return engine_bev_new(fd);
	if ((ssl = SSL_new(d->sim->pcfg.ssl)) == NULL) {
		close(fd);
		return NULL;
	}
	/* As the pool's: on failure the descriptor is still ours. */
	if ((bev = bufferevent_openssl_socket_new(engine_base(), fd, ssl,
	    BUFFEREVENT_SSL_ACCEPTING, BEV_OPT_CLOSE_ON_FREE)) == NULL)
		close(fd);
	return bev;
}

void
ovsdb_dev_accept(struct pool_dev *pd, int fd)
{
	struct ovsdb_dev	*d = (struct ovsdb_dev *)pd;
	struct bufferevent	*bev;

	if (d->n_sessions >= d->sim->cfg.max_sessions) {
		(*d->sim->c.sessions_refused)++;
		ovsdb_log_once(d, OVSDB_DLOG_REFUSED, "a connection over "
		    "--max-sessions refused");
		close(fd);
		return;
	}
	if ((bev = ovsdb_bev_new(d, fd)) == NULL) {
		log_warnx("%s: no bufferevent for a connection", ovsdb_who(d));
		return;
	}
	d->pd.attempt_ns = clock_ns();
	(void)ovsdb_sess_new(d, bev, 0);
}

/* ---- timers ---- */

/* Section 4.1.11 echo as ovsdb-server's inactivity probe: after probe_s
 * of silence an echo request, after as long again the end. */
static int
ovsdb_sess_timers(struct ovsdb_sess *s, uint64_t now)
{
	struct ovsdb_dev	*d = s->dev;
	uint64_t		 probe = (uint64_t)(d->sim->cfg.probe_s * NS);

	if (s->closing) {
		ovsdb_sess_close(s, "output over --max-output");
		return -1;
	}
	if (s->partial_ns != 0 && now - s->partial_ns >=
	    (uint64_t)(d->sim->cfg.message_timeout_s * NS)) {
		return ovsdb_sess_broke(s, d->sim->c.slow_messages,
		    OVSDB_DLOG_SLOW, "a message not whole --message-timeout "
		    "after its first byte: closing the session",
		    "a message not whole in --message-timeout");
	}
	if (probe == 0 || now - s->last_rx_ns < probe)
		return 0;
	if (s->probe_ns == 0) {
		s->probe_ns = now;
		ovsdb_conn_probe(&s->conn);
		return 0;
	}
	if (now - s->probe_ns < probe)
		return 0;
	return ovsdb_sess_broke(s, d->sim->c.probe_timeouts, OVSDB_DLOG_PROBE,
	    "no answer to the inactivity probe; closing the session",
	    "inactivity probe");
}

void
ovsdb_dev_timers(struct ovsdb_dev *d, uint64_t now)
{
	struct ovsdb_conn	*c, *next;

	if (d->srv.changed) {
		d->srv.changed = 0;
		ovsdb_vswitchd_ack(d);
	}

	for (c = LIST_FIRST(&d->srv.conns); c != NULL; c = next) {
		next = LIST_NEXT(c, entry);
		(void)ovsdb_sess_timers((struct ovsdb_sess *)c, now);
	}
}

void
ovsdb_dev_free(struct ovsdb_dev *d)
{
	struct ovsdb_conn	*c;

	while ((c = LIST_FIRST(&d->srv.conns)) != NULL)
		ovsdb_sess_close((struct ovsdb_sess *)c, "the run is over");
	ovsdb_datapath_free(d);
	engine_soon_free(&d->vsd_soon);
	ovsdb_server_free(&d->srv);
}
