/*
 * One simulated switch's connection: the session state machine (OpenFlow
 * 1.3.5 section 6.3.1: HELLO, version negotiation, then the controller's
 * FEATURES_REQUEST), message framing on the byte stream, keepalive ECHOs
 * and the periodic sweep (flow timeouts).
 */
#include <sys/socket.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "engine.h"
#include "log.h"
#include "of_bundle.h"
#include "of_monitor.h"
#include "of_nx.h"
#include "of_nx_tlv.h"
#include "of_sim.h"
#include "of_vacancy.h"

static const char *const of_state_names[] = {
	[OFS_DOWN] = "DOWN", [OFS_HELLO_WAIT] = "HELLO_WAIT",
	[OFS_FEATURES_WAIT] = "FEATURES_WAIT", [OFS_UP] = "UP",
	[OFS_CLOSING] = "CLOSING",
};

static uint8_t	scratch_mem[OF_SCRATCH];
static struct wbuf scratch = { scratch_mem, 0, sizeof(scratch_mem), 0 };

struct wbuf *
of_scratch(void)
{
	wbuf_reset(&scratch);
	return &scratch;
}

int
of_switch_connected(const struct of_switch *sw)
{
	return sw->pd.bev != NULL && sw->state >= OFS_FEATURES_WAIT;
}

static void
of_change_state(struct of_switch *sw, enum of_state next, const char *why)
{
	if (sw->state == next)
		return;
	log_debug("switch %u: %s -> %s (%s)", sw->idx,
	    of_state_names[sw->state], of_state_names[next], why);
	if (next == OFS_UP)
		sw->sim->up++;
	else if (sw->state == OFS_UP)
		sw->sim->up--;
	sw->state = next;
}

/*
 * Output without the bufferevent.  Handing a bufferevent bytes while its
 * output is empty costs two epoll_ctl(2) calls (libevent adds EV_WRITE,
 * writes at the next loop pass, then removes it): with 10 000 idle
 * switches echoed by their controller that was a third of sbsim's
 * system calls.  So what a switch says while one callback handles it
 * (a read, a drained write, its keepalive) is kept in the cork and, once
 * the callback is done, written with one send(2); what the socket does
 * not take, and everything while the bufferevent still holds output, goes
 * through the bufferevent as before, so the order on the wire holds.
 * TLS connections write through their bufferevent only, as does a switch
 * under --fault delay (the hold is the bufferevent's EV_WRITE) or one
 * closing (its close waits for the bufferevent's write callback).
 */
#define OF_CORK_SIZE	65536

static struct {
	struct of_switch	*sw;	/* NULL: no callback corked */
	size_t			 len;
	uint8_t			 data[OF_CORK_SIZE];
} of_cork;

/* TLS: the bufferevent's OpenSSL filter reads and writes the socket. */
static int
of_tls(const struct of_switch *sw)
{
	enum ep_kind	kind = sw->pd.pool->cfg.ep.kind;

	return kind == EP_SSL || kind == EP_PSSL;
}

static int
of_direct_ok(const struct of_switch *sw)
{
	if (sw->pd.bev == NULL || sw->pd.pool == NULL)
		return 0;
	return !of_tls(sw) &&
	    sw->pd.fault_hold == NULL && sw->state != OFS_CLOSING &&
	    evbuffer_get_length(bufferevent_get_output(sw->pd.bev)) == 0;
}

/* The cork's bytes to the socket; the rest to the bufferevent. */
static void
of_cork_flush(void)
{
	struct of_switch	*sw = of_cork.sw;
	size_t			 off = 0;
	ssize_t			 n;

	if (of_cork.len == 0)
		return;
	if (sw->pd.bev == NULL) {	/* the connection ended meanwhile */
		of_cork.len = 0;
		return;
	}
	if (of_direct_ok(sw)) {
		n = send(bufferevent_getfd(sw->pd.bev), of_cork.data,
		    of_cork.len, MSG_DONTWAIT | MSG_NOSIGNAL);
		/* An error other than a full socket is the bufferevent's to
		 * meet on its own write, and report. */
		if (n > 0)
			off = (size_t)n;
	}
	if (off < of_cork.len)
		bufferevent_write(sw->pd.bev, of_cork.data + off,
		    of_cork.len - off);
	of_cork.len = 0;
}

/* What sw sends from here until of_uncork() is corked. */
static void
of_cork_begin(struct of_switch *sw)
{
	of_cork_flush();
	of_cork.sw = sw;
}

static void
of_uncork(void)
{
	of_cork_flush();
	of_cork.sw = NULL;
}

static void
of_switch_write(struct of_switch *sw, const uint8_t *data, size_t len)
{
	if (sw == of_cork.sw) {
		if (of_cork.len + len > sizeof(of_cork.data))
			of_cork_flush();
		if (len <= sizeof(of_cork.data) - of_cork.len &&
		    of_direct_ok(sw)) {
			memcpy(of_cork.data + of_cork.len, data, len);
			of_cork.len += len;
			return;
		}
		of_cork_flush();	/* in order, ahead of data */
	}
	bufferevent_write(sw->pd.bev, data, len);
}

void
of_switch_send(struct of_switch *sw, struct wbuf *w)
{
	if (w->err) {
		log_warnx("switch %u: reply did not fit; dropped", sw->idx);
		wbuf_reset(w);
		return;
	}
	if (sw->pd.bev != NULL && w->len > 0) {
		of_switch_write(sw, w->data, w->len);
		(*sw->sim->c.tx_msgs)++;
	}
	wbuf_reset(w);
}

/* Each kind of error is logged once per switch; all are counted. */
void
of_switch_error(struct of_switch *sw, uint32_t xid, enum of_err err,
    const uint8_t *msg, size_t len)
{
	struct wbuf	*w = of_scratch();
	uint32_t	 bit = 1u << (err % 32);
	uint8_t		 version = sw->version ? sw->version : OF_VERSION_13;

	(*sw->sim->c.errors_sent)++;
	if ((sw->logged & bit) == 0) {
		sw->logged |= bit;
		log_info("switch %u: answering %s (further ones counted, not "
		    "logged)", sw->idx, of_err_name(err));
	}
	of_error_encode(w, version, xid, err, msg, len);
	of_switch_send(sw, w);
}

static uint32_t
of_our_bitmap(const struct of_switch *sw)
{
	return sw->sim->cfg.version_bitmap;
}

static uint8_t
of_highest(uint32_t bitmap)
{
	uint8_t	v;

	for (v = 31; v > 0; v--)
		if (bitmap & (1u << v))
			return v;
	return 0;
}

/* Settle on version v; flows of another version family (kept from an
 * earlier connection: the version is agreed anew on each) cannot be
 * kept.  The connections of a switch to several controllers share its
 * owner's table (one family: of_main.c allows only 1.3 and later with
 * several). */
static void
of_agree(struct of_switch *sw, uint8_t v)
{
	uint64_t	held;

	if (sw != sw->owner) {
		if (sw->owner->ft == NULL)
			sw->owner->ft = of_flowtable_new(v,
			    sw->sim->cfg.tables, sw->sim->cfg.table_size);
		sw->ft = sw->owner->ft;
		sw->version = v;
		of_change_state(sw, OFS_FEATURES_WAIT, "version agreed");
		return;
	}
	/* 1.3, 1.4 and 1.5 keep one another's flows and groups (the same
	 * instructions); only a change to or from 1.0 starts afresh. */
	if (sw->ft != NULL &&
	    of_v13plus(of_flowtable_shape(sw->ft).version) != of_v13plus(v)) {
		held = of_flowtable_total(sw->ft);
		of_flowtable_free(sw->ft);
		of_groups_free(sw->groups);	/* 1.0 has none */
		sw->groups = NULL;
		of_meters_free(sw->meters);	/* nor meters */
		sw->meters = NULL;
		/* The empty table first: of_flows_changed reads it. */
		sw->ft = of_flowtable_new(v, sw->sim->cfg.tables,
		    sw->sim->cfg.table_size);
		of_flows_changed(sw, -(int64_t)held, clock_ns(), clock_ns());
	}
	sw->version = v;
	if (sw->ft == NULL)
		sw->ft = of_flowtable_new(v, sw->sim->cfg.tables,
		    sw->sim->cfg.table_size);
	of_change_state(sw, OFS_FEATURES_WAIT, "version agreed");
}

/*
 * HELLO from the controller (section 6.3.1): agree on a version, or send
 * HELLO_FAILED/INCOMPATIBLE and close once it is written (CLOSING; the
 * write callback ends the connection).  Returns -1 when closing.
 */
static int
of_fsm_hello(struct of_switch *sw, const struct of_header *h,
    struct rbuf *body, const uint8_t *msg)
{
	uint32_t	bitmap = 0;
	uint8_t		v;
	struct wbuf	*w;

	if (of_hello_decode(body, &bitmap) == -1)
		bitmap = 0;
	v = of_negotiate(h->version, bitmap, of_our_bitmap(sw));
	if (v == 0) {
		w = of_scratch();
		of_error_encode(w, of_highest(of_our_bitmap(sw)), h->xid,
		    OF_ERR_HELLO_INCOMPATIBLE, msg, h->length);
		of_switch_send(sw, w);
		/* Every switch fails alike: warn once per run. */
		(*sw->sim->c.errors_sent)++;
		if (!sw->sim->warned_version)
			log_warnx("switch %u: no common OpenFlow version with "
			    "the controller (it offered 0x%02x, bitmap 0x%x); "
			    "further ones are counted", sw->idx, h->version,
			    bitmap);
		sw->sim->warned_version = 1;
		of_change_state(sw, OFS_CLOSING, "no common version");
		return -1;
	}
	of_agree(sw, v);
	return 0;
}

/* A connection's handshake is done: connect (every connection), and its
 * controller's own connect.cN when there are several. */
static void
of_connect_items(struct of_switch *sw)
{
	struct phase	*per = sw->sim->ph_connect[sw->ctl];
	uint64_t	 lat = (sw->up_ns - sw->pd.attempt_ns) / 1000;

	phase_items(sw->sim->ph[OFP_CONNECT], sw->up_ns, 1);
	phase_latency(sw->sim->ph[OFP_CONNECT], lat);
	if (per != NULL && per->state == PHASE_RUNNING) {
		phase_items(per, sw->up_ns, 1);
		phase_latency(per, lat);
	}
}

/* Dispatch one complete message; returns -1 when the session must end. */
static int
of_fsm(struct of_switch *sw, const struct of_header *h, const uint8_t *msg)
{
	struct rbuf	body;
	enum of_type	t = of_type_from_wire(h->version, h->type);

	rbuf_init(&body, msg + OF_HEADER_LEN, h->length - OF_HEADER_LEN);
	(*sw->sim->c.rx_msgs)++;
	if (sw->state == OFS_HELLO_WAIT) {
		if (t == OF_HELLO)
			return of_fsm_hello(sw, h, &body, msg);
		/* A controller that skips HELLO gets its header version,
		 * as Open vSwitch does, if we speak it. */
		if (of_negotiate(h->version, 0, of_our_bitmap(sw)) !=
		    h->version) {
			of_switch_error(sw, h->xid, OF_ERR_BAD_VERSION, msg,
			    h->length);
			return 0;
		}
		of_agree(sw, h->version);
	}
	if (h->version != sw->version) {
		of_switch_error(sw, h->xid, OF_ERR_BAD_VERSION, msg,
		    h->length);
		return 0;
	}
	if (t == OF_HELLO)
		return 0;	/* a repeated HELLO changes nothing */
	of_handle(sw, t, h, &body, msg);
	of_pktin_heard(sw, t);
	if (t == OF_FEATURES_REQUEST && sw->state == OFS_FEATURES_WAIT) {
		sw->up_ns = clock_ns();
		of_change_state(sw, OFS_UP, "features reply sent");
		of_cont_status_notify(sw, OF_CSR_CHANNEL_STATUS, 1);
		of_connect_items(sw);
		of_pktin_start(sw);
		if (sw->sim->on_up != NULL)
			sw->sim->on_up(sw);
	}
	return 0;
}

/*
 * Framing (pool_read).  A header whose length is under 8 cannot be
 * skipped by its own length: it frames as its 8 bytes, answered with
 * BAD_LEN, so the connection survives as the issue asks (a real switch
 * would close).
 */
static long
of_frame_length(void *dev, const uint8_t *hdr)
{
	uint16_t	len = of_header_length(hdr);

	(void)dev;
	return len < OF_HEADER_LEN ? OF_HEADER_LEN : len;
}

/*
 * Input without the bufferevent.  A bufferevent's read is two system
 * calls, the ioctl(FIONREAD) libevent 2.1's evbuffer_read makes before a
 * readv of 4 KiB at most, and while a phase waited for its first
 * FLOW_MOD rxpeek's MSG_PEEK of the receive time came first: with 10 000
 * idle switches, most of sbsim's system calls.  So a plain connection
 * reads with one recv(2) of up to 64 KiB per readable event (of_rx, an
 * event of the switch's own) into the bufferevent's input, framed as
 * before; while a phase waits, that one call (rxstamp_read_first) also
 * brings the receive time of the oldest segment it read, what the peek
 * gave.  The bufferevent keeps writing, its EV_READ off.  TLS
 * connections read through their bufferevent (the OpenSSL filter
 * decrypts) and peek.
 */
#define OF_RX_READ	65536

static uint8_t	of_rx_buf[OF_RX_READ];

static void of_read_input(struct of_switch *, struct bufferevent *, int);

static void
of_rx_cb(evutil_socket_t fd, short what, void *arg)
{
	struct of_switch	*sw = arg;
	struct bufferevent	*bev = sw->pd.bev;
	uint64_t		 ns = 0;
	ssize_t			 n;

	(void)what;
	if (sw->rx_stamp)
		n = rxstamp_read_first(fd, of_rx_buf, sizeof(of_rx_buf), &ns);
	else
		n = recv(fd, of_rx_buf, sizeof(of_rx_buf), MSG_DONTWAIT);
	if (n > 0) {
		if (rxstamp_input_add(bev, of_rx_buf, (size_t)n) == -1)
			fatalx("switch %u: evbuffer_add", sw->idx);
		sw->rxp.ns = ns;	/* taken as a peek's (rxpeek_take) */
		of_read_input(sw, bev, 0);	/* may end the session */
	} else if (n == 0)
		pool_bev_event(bev, BEV_EVENT_READING | BEV_EVENT_EOF, sw);
	else if (errno != EAGAIN && errno != EINTR)
		pool_bev_event(bev, BEV_EVENT_READING | BEV_EVENT_ERROR, sw);
}

static void
of_rx_stop(struct of_switch *sw)
{
	engine_event_free(&sw->rx);
}

/* A new connection: of_rx reads a plain one, the bufferevent a TLS one. */
static void
of_rx_start(struct of_switch *sw, struct bufferevent *bev)
{
	of_rx_stop(sw);
	sw->rx_stamp = sw->rx_stamping = 0;
	sw->rxp.ns = 0;
	if (of_tls(sw)) {
		bufferevent_enable(bev, EV_READ | EV_WRITE);
		return;
	}
	bufferevent_disable(bev, EV_READ);
	bufferevent_enable(bev, EV_WRITE);
	if ((sw->rx = event_new(engine_base(), bufferevent_getfd(bev),
	    EV_READ | EV_PERSIST, of_rx_cb, sw)) == NULL ||
	    event_add(sw->rx, NULL) == -1)
		fatalx("switch %u: event_new", sw->idx);
}

/* Reading stops: back-pressure, --fault stall, a session closing. */
static void
of_read_off(struct of_switch *sw)
{
	if (sw->rx != NULL)
		event_del(sw->rx);
	else if (sw->pd.bev != NULL)
		bufferevent_disable(sw->pd.bev, EV_READ);
}

static int
of_reading(const struct of_switch *sw)
{
	if (sw->rx != NULL)
		return event_pending(sw->rx, EV_READ, NULL) != 0;
	return (bufferevent_get_enabled(sw->pd.bev) & EV_READ) != 0;
}

static int
of_frame_message(void *dev, const uint8_t *msg, size_t len)
{
	struct of_switch	*sw = dev;
	struct of_header	 h;

	of_header_read(msg, &h);
	if (h.length < OF_HEADER_LEN) {
		(*sw->sim->c.decode_errors)++;
		of_switch_error(sw, h.xid, OF_ERR_BAD_LEN, msg, len);
		return 0;
	}
	if (of_fsm(sw, &h, msg) == -1) {
		/* Nothing more is read; of_write_drained closes. */
		of_read_off(sw);
		return -1;
	}
	return 0;
}

/* Back-pressure: no request is read while the answers to the ones
 * before wait in the output (a flow-stats reply of a big table is
 * megabytes); of_write_drained reads on. */
static int
of_frame_out_full(void *dev)
{
	struct of_switch	*sw = dev;

	if (sw->pd.bev == NULL || evbuffer_get_length(
	    bufferevent_get_output(sw->pd.bev)) < OF_OUT_HIGH)
		return 0;
	(*sw->sim->c.reads_paused)++;
	of_read_off(sw);	/* pool_read turns off the bufferevent's */
	return 1;
}

static const struct pool_framer of_framer = {
	.hdr_len = OF_HEADER_LEN, .length = of_frame_length,
	.out_full = of_frame_out_full, .message = of_frame_message,
};

/* Every whole message in the input; resume: reading on again first, as
 * pool_read_resume. */
static int
of_read_frames(struct of_switch *sw, struct bufferevent *bev, int resume)
{
	if (sw->rx == NULL)
		return (resume ? pool_read_resume : pool_read)(bev,
		    &of_framer, sw);
	if (resume) {
		if (of_reading(sw))
			return 0;
		if (event_add(sw->rx, NULL) == -1)
			fatalx("switch %u: event_add", sw->idx);
	}
	return pool_read(bev, &of_framer, sw);
}

/*
 * While program or delete waits for its first FLOW_MOD, the next read's
 * arrival is stamped: the window opens at the kernel's receive time
 * (docs/report.md, "Phase windows"), however late the loop reads.  of_rx
 * brings it with the read; a TLS connection peeks it (rxpeek).
 */
static void
of_rxpeek(struct of_switch *sw, struct bufferevent *bev)
{
	const struct phase	*prog = sw->sim->ph[OFP_PROGRAM];
	const struct phase	*del = sw->sim->ph[OFP_DELETE];
	int			 wait;

	wait = prog->state == PHASE_PENDING || (prog->state == PHASE_DONE &&
	    del->state == PHASE_PENDING);
	if (sw->rx != NULL) {
		/* of_rx stamps its reads itself. */
		if (wait && !sw->rx_stamping)
			rxstamp_on(bufferevent_getfd(bev));
		sw->rx_stamping |= wait;
		sw->rx_stamp = (uint8_t)wait;
	} else if (wait)
		rxpeek_arm(&sw->rxp, bufferevent_getfd(bev));
	else
		rxpeek_stop(&sw->rxp);
}

/* Program is done: every switch peeks for delete's first FLOW_MOD. */
void
of_rxpeek_all(struct of_sim *sim)
{
	uint32_t	i;

	for (i = 0; i < sim->cfg.switches * sim->cfg.n_ctl; i++)
		if (sim->sw[i].pd.bev != NULL)
			of_rxpeek(&sim->sw[i], sim->sw[i].pd.bev);
}

static void
of_read_corked(struct of_switch *sw, struct bufferevent *bev, int resume)
{
	sw->last_rx_ns = clock_ns();
	sw->arrived_ns = rxpeek_take(&sw->rxp, sw->last_rx_ns);
	if (of_read_frames(sw, bev, resume) == -1)
		return;
	if (sw->pktin != NULL)
		of_pktin_pump(sw);
	of_rxpeek(sw, bev);
}

/* Every answer to what was read goes out in one send (of_cork). */
static void
of_read_input(struct of_switch *sw, struct bufferevent *bev, int resume)
{
	of_cork_begin(sw);
	of_read_corked(sw, bev, resume);
	of_uncork();
}

static void
of_read(struct bufferevent *bev, void *arg)
{
	of_read_input(arg, bev, 0);
}

void
of_switch_stall(struct of_switch *sw, int stall)
{
	sw->stalled = (uint8_t)stall;
	if (sw->pd.bev == NULL || sw->state == OFS_CLOSING)
		return;
	if (stall)
		of_read_off(sw);
	else
		of_read_input(sw, sw->pd.bev, 1);	/* may end it */
}

static void
of_write_drained(struct bufferevent *bev, void *arg)
{
	struct of_switch	*sw = arg;

	if (sw->state == OFS_CLOSING) {
		pool_lost_drained(&sw->pd, "version negotiation failed");
		return;
	}
	if (!of_reading(sw) && !sw->stalled) {
		/* Paused by of_frame_out_full: what waits is read now. */
		of_read_input(sw, bev, 1);
		return;		/* the session may have ended */
	}
	if (sw->pktin != NULL) {
		of_cork_begin(sw);
		of_pktin_pump(sw);
		of_uncork();
	}
}

/*
 * The asynchronous configuration belongs to the connection (1.3 section
 * 7.3.10): every new one starts from the defaults of section 6.1.1, or a
 * controller (a 1.0 one cannot even SET_ASYNC) would inherit the masks
 * of the one before it.
 */
static void
of_async_default(struct of_async *a)
{
	memset(a, 0, sizeof(*a));
	a->packet_in[0] = 0x3;		/* NO_MATCH, ACTION */
	a->port_status[0] = a->port_status[1] = 0x7;	/* all reasons */
	a->flow_removed[0] = 0xf;	/* all reasons, master/equal only */
	/* 1.4's kinds (1.4.1 section 7.3.10's defaults): every reason, to
	 * every role. */
	a->role_status[0] = a->role_status[1] = 0x7;
	a->table_status[0] = a->table_status[1] = 0x18;	/* VACANCY_* */
	a->requestforward[0] = a->requestforward[1] = 0x3;
	/* 1.5's controller status: channel and role changes, either role
	 * (reasons 1 and 2, what this switch sends). */
	a->cont_status[0] = a->cont_status[1] =
	    (1u << OF_CSR_CHANNEL_STATUS) | (1u << OF_CSR_ROLE);
}

/* Connected: we speak first with a HELLO offering our versions. */
static void
of_switch_up(struct pool_dev *pd, struct bufferevent *bev)
{
	struct of_switch	*sw = (struct of_switch *)pd;
	struct wbuf		*w = of_scratch();

	sw->version = 0;
	sw->nx_flow_format = sw->nx_flow_mod_table_id = 0;	/* of_nx.c */
	/* EQUAL again; the generation id the switch holds stays (1.3.5
	 * section 6.3.6: the largest one seen, whoever sent it). */
	of_roles_conn_up(&sw->owner->roles, sw->ctl);
	of_async_default(&sw->async);
	sw->last_rx_ns = clock_ns();
	/* Until a FEATURES_REPLY (a tool like ovs-ofctl may never ask),
	 * program latency counts from the connection. */
	sw->up_ns = sw->last_rx_ns;
	of_change_state(sw, OFS_HELLO_WAIT, "connected");
	bufferevent_setcb(bev, of_read, of_write_drained, pool_bev_event,
	    sw);
	sw->stalled = 0;	/* a new connection reads at once */
	of_rx_start(sw, bev);
	of_rxpeek(sw, bev);
	of_hello_encode(w, of_highest(of_our_bitmap(sw)), 0,
	    of_our_bitmap(sw));
	of_switch_send(sw, w);
}

/*
 * The master's connection dropped: the failover clock of this switch
 * starts (the failover phase at the first switch), until a master's
 * FLOW_MOD arrives on another connection (of_switch_flow_mod_taken).
 */
static void
of_master_lost(struct of_switch *sw, uint64_t now)
{
	struct phase	*fo = sw->sim->ph[OFP_FAILOVER];

	if (fo == NULL || sw->owner->master_lost_ns != 0)
		return;
	sw->owner->master_lost_ns = now;
	if (fo->state == PHASE_PENDING)
		phase_start(fo, now);
}

void
of_switch_flow_mod_taken(struct of_switch *sw, uint64_t now)
{
	struct of_switch	*own = sw->owner;
	struct phase		*fo = sw->sim->ph[OFP_FAILOVER];

	(*sw->sim->c.ctl_flow_mods[sw->ctl])++;
	if (of_conn_role(sw) != OF_ROLE_MASTER)
		return;
	if (own->master_lost_ns != 0) {
		if (fo != NULL && fo->state == PHASE_RUNNING) {
			phase_items(fo, now, 1);
			phase_latency(fo, (now - own->master_lost_ns) / 1000);
		}
		own->master_lost_ns = 0;
		own->new_master = sw->ctl + 1;
	}
	if (own->new_master == sw->ctl + 1)
		(*sw->sim->c.failover_flow_mods)++;
}

struct of_switch *
of_switch_conn(struct of_sim *sim, uint32_t idx, unsigned ctl)
{
	return &sim->sw[(size_t)ctl * sim->cfg.switches + idx];
}

void
of_switch_init(struct of_sim *sim, uint32_t idx, unsigned ctl)
{
	struct of_switch	*sw = of_switch_conn(sim, idx, ctl);

	memset(sw, 0, sizeof(*sw));
	sw->sim = sim;
	sw->idx = idx;
	sw->ctl = (uint8_t)ctl;
	sw->owner = &sim->sw[idx];
	sw->miss_send_len = 128;
	if (ctl == 0) {
		sw->ports = xcalloc(sim->cfg.ports, sizeof(*sw->ports));
		of_roles_init(&sw->roles, sim->cfg.n_ctl);
	} else
		sw->ports = sw->owner->ports;
}

/* ROLE_STATUS to a connection a new master demoted (OpenFlow 1.4.0
 * section 7.4.4, ONF extension 191 in 1.3), if it is there to hear. */
static void
of_role_status(struct of_switch *sw, uint64_t gen)
{
	struct wbuf	*w = of_scratch();

	if (!of_switch_connected(sw))
		return;
	/* 1.4 lets the controller mask it (1.4.1 section 7.3.10); it is
	 * a slave now, so its slave mask decides. */
	if (sw->version >= OF_VERSION_14 && !(sw->async.role_status[1] &
	    (1u << OF_CRR_MASTER_REQUEST)))
		return;
	of_role_status_encode(w, sw->version, OF_ROLE_SLAVE,
	    OF_CRR_MASTER_REQUEST, gen);
	of_switch_send(sw, w);
	(*sw->sim->c.role_status_sent)++;
}

int
of_switch_role(struct of_switch *sw, uint32_t role, uint64_t gen,
    enum of_err *err)
{
	struct of_roles	*r = &sw->owner->roles;
	uint8_t		 was = of_conn_role(sw);
	uint32_t	 demoted;
	unsigned	 k;

	if (of_roles_request(r, sw->ctl, role, gen, &demoted, err) == -1) {
		if (*err == OF_ERR_ROLE_STALE)
			(*sw->sim->c.role_stale)++;
		return -1;
	}
	if (of_conn_role(sw) != was) {
		(*sw->sim->c.role_changes)++;
		log_debug("switch %u: controller %u is now %s", sw->idx,
		    sw->ctl + 1, of_role_name(of_conn_role(sw)));
		of_cont_status_notify(sw, OF_CSR_ROLE, 1);
	}
	for (k = 0; k < r->n; k++)
		if (demoted & (1u << k)) {
			(*sw->sim->c.role_changes)++;
			of_role_status(of_switch_conn(sw->sim, sw->idx, k),
			    r->generation);
			of_cont_status_notify(of_switch_conn(sw->sim,
			    sw->idx, k), OF_CSR_ROLE, 1);
		}
	return 0;
}

static void
of_switch_down(struct pool_dev *pd, const char *why)
{
	struct of_switch	*sw = (struct of_switch *)pd;

	if (sw->state == OFS_UP || sw->state == OFS_FEATURES_WAIT) {
		(*sw->sim->c.disconnects)++;
		log_info("switch %u: disconnected: %s", sw->idx, why);
	}
	if (sw->state == OFS_UP)
		of_cont_status_notify(sw, OF_CSR_CHANNEL_STATUS, 0);
	rxpeek_stop(&sw->rxp);
	of_rx_stop(sw);
	of_pktin_stop(sw);
	of_bundles_drop(sw);	/* a connection's own (1.4.1 section 6.8) */
	of_monitors_free(sw);
	if (of_conn_role(sw) == OF_ROLE_MASTER)
		of_master_lost(sw, clock_ns());
	of_roles_conn_up(&sw->owner->roles, sw->ctl);
	of_change_state(sw, OFS_DOWN, why);
}

const struct pool_ops of_switch_ops = {
	of_switch_up,
	of_switch_down,
	"the controller",
};

static void
of_switch_echo(struct of_switch *sw, uint64_t now)
{
	struct wbuf	*w = of_scratch();
	uint8_t		 stamp[8];
	int		 i;

	/* The payload carries our send time, so the reply times itself. */
	for (i = 0; i < 8; i++)
		stamp[i] = (uint8_t)(now >> (56 - 8 * i));
	sw->echo_xid++;
	sw->echo_sent_ns = now;
	of_echo_encode(w, sw->version, OF_ECHO_REQUEST, sw->echo_xid, stamp,
	    sizeof(stamp));
	of_switch_send(sw, w);
}

/*
 * FLOW_REMOVED for a flow asked to say so, if the async config lets
 * this reason through (1.3 section 7.4.2).  Flows outlive connections:
 * one that expires while none is up, or before the new one has agreed
 * on a version (there is none to encode in), goes unreported.
 */
static void
of_conn_flow_removed(struct of_switch *sw, const struct of_flow_info *fi)
{
	struct wbuf		*w = of_scratch();
	struct of_flow_info	 said = *fi;

	if (!of_switch_connected(sw))
		return;
	/* OFPRR_METER_DELETE is 1.4's: a 1.3 controller hears DELETE, as
	 * Open vSwitch's connmgr says it. */
	if (said.reason == OF_RR_METER_DELETE && sw->version <= OF_VERSION_13)
		said.reason = OF_RR_DELETE;
	if ((sw->async.flow_removed[of_conn_role(sw) == OF_ROLE_SLAVE] &
	    (1u << said.reason)) == 0)
		return;
	if (of_nx_flow_format_nxm(sw))
		of_nx_flow_removed_encode(w, 0, &said);	/* of_nx.c */
	else
		of_flow_removed_encode(w, sw->version, 0, &said);
	of_switch_send(sw, w);
	(*sw->sim->c.flow_removed_sent)++;
}

/* Every controller of the switch hears it, as its async config says. */
void
of_switch_flow_removed(void *arg, const struct of_flow_info *fi)
{
	struct of_switch	*sw = arg;
	unsigned		 k;

	for (k = 0; k < sw->sim->cfg.n_ctl; k++)
		of_conn_flow_removed(of_switch_conn(sw->sim, sw->idx, k), fi);
}

/* A FLOW_MOD was applied: an owner whose table now times a flow goes on
 * the sweep's list, once. */
void
of_switch_timed(struct of_switch *sw)
{
	if (sw->timed || sw->ft == NULL ||
	    of_flowtable_next_expiry(sw->ft) == 0)
		return;
	sw->timed = 1;
	sw->timed_next = sw->sim->timed;
	sw->sim->timed = sw;
}

/* 0: nothing left to time, off the list. */
static int
of_switch_expire(struct of_switch *sw, uint64_t now)
{
	uint64_t	next;
	int		n;

	if (sw->ft == NULL || (next = of_flowtable_next_expiry(sw->ft)) == 0)
		return 0;
	if (next > now)
		return 1;
	n = of_flowtable_expire(sw->ft, now, of_switch_flow_removed, sw);
	if (n > 0) {
		*sw->sim->c.flows_expired += n;
		of_flows_changed(sw, -n, now, now);
	}
	return of_flowtable_next_expiry(sw->ft) != 0;
}

/*
 * Flow timeouts (1.3.5 section 5.5) of the switches that have any: a
 * switch without a timed flow costs the sweep nothing (it was a look at
 * every switch's table each second).
 */
static void
of_switch_expire_all(struct of_sim *sim, uint64_t now)
{
	struct of_switch	**pp = &sim->timed, *sw;

	while ((sw = *pp) != NULL) {
		if (of_switch_expire(sw, now))
			pp = &sw->timed_next;
		else {
			*pp = sw->timed_next;
			sw->timed = 0;
			sw->timed_next = NULL;
		}
	}
}

/* Once a second: keepalives and flow timeouts. */
void
of_switch_sweep(struct of_sim *sim, uint64_t now)
{
	uint64_t		 every = (uint64_t)(sim->cfg.echo_interval * 1e9);
	uint32_t		 i;
	struct of_switch	*sw;

	of_switch_expire_all(sim, now);
	of_pktin_sweep(sim, now);
	of_bundles_sweep(sim, now);
	if (every == 0)
		return;
	for (i = 0; i < sim->cfg.switches * sim->cfg.n_ctl; i++) {
		sw = &sim->sw[i];
		if (sw->state != OFS_UP)
			continue;
		if (now - sw->last_rx_ns >= every &&
		    now - sw->echo_sent_ns >= every) {
			of_cork_begin(sw);	/* one send, no EV_WRITE */
			of_switch_echo(sw, now);
			of_uncork();
		}
	}
}

void
of_switch_free(struct of_switch *sw)
{
	rxpeek_stop(&sw->rxp);
	of_rx_stop(sw);
	of_pktin_stop(sw);
	of_bundles_drop(sw);
	free(sw->monitors);
	sw->monitors = NULL;
	if (sw == sw->owner) {
		if (sw->ft != NULL)
			of_flowtable_free(sw->ft);
		of_groups_free(sw->groups);
		of_meters_free(sw->meters);
		of_nx_tlv_free(sw->tlv_map);
		of_vacancy_free(sw);
		free(sw->ports);
	}
	sw->groups = NULL;
	sw->meters = NULL;
	sw->tlv_map = NULL;
	sw->ft = NULL;
	sw->ports = NULL;
}
