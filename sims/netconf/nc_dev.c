/*
 * One NETCONF session of a simulated device, transport independent:
 * hello exchange and framing switch (RFC 6241 section 8.1, RFC 6242
 * section 4.1), rpc dispatch to the device's datastores (nc_store),
 * rpc-errors (section 4.3), kill-session, get-schema (RFC 6022) and
 * the notification stream (RFC 5277).  Also the TCP transport: the
 * session directly on a bufferevent.
 *
 * Sessions are never freed from inside a callback of their own
 * transport: nc_sess_kill() marks them dead and the sim's reaper event
 * frees them from the loop.
 */
#include <sys/socket.h>
#include <netinet/in.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <libxml/tree.h>
#include <libyang/libyang.h>

#include "engine.h"
#include "log.h"
#include "nc_sim.h"
#include "tailq.h"

#define NC_MAX_MSG	(32 * 1024 * 1024)	/* largest rpc we take */
#define NC_OUT_HIGH	(256 * 1024)		/* notifications pause above */
#define NC_NOTIF_TICK_US 1000			/* 1 ms at the fastest */
#define NC_MAX_PATH_NS	8

static xmlBufferPtr	 nc_out;	/* one reply at a time, reused */

static const char *const nc_state_names[] = {
	[NCS_SSH_KEX] = "ssh-kex", [NCS_SSH_AUTH] = "ssh-auth",
	[NCS_HELLO] = "hello", [NCS_OPEN] = "open", [NCS_CLOSING] = "closing",
	[NCS_DEAD] = "dead",
};

/* One row per operation: its counter (a static string, as
 * metrics_counter() wants) and its handler (NULL: op_unsupported). */
typedef void (*nc_op_fn)(struct nc_sess *, const struct nc_rpc *,
    xmlBufferPtr);
struct nc_op_row {
	const char	*counter;
	nc_op_fn	 fn;
};
static const struct nc_op_row nc_op_rows[NC_OP_COUNT];

static const char *const nc_err_counter[NC_ERR_TAG_COUNT + 1] = {
	"rpc_error_in_use", "rpc_error_invalid_value", "rpc_error_too_big",
	"rpc_error_missing_attribute", "rpc_error_bad_attribute",
	"rpc_error_unknown_attribute", "rpc_error_missing_element",
	"rpc_error_bad_element", "rpc_error_unknown_element",
	"rpc_error_unknown_namespace", "rpc_error_access_denied",
	"rpc_error_lock_denied", "rpc_error_resource_denied",
	"rpc_error_rollback_failed", "rpc_error_data_exists",
	"rpc_error_data_missing", "rpc_error_operation_not_supported",
	"rpc_error_operation_failed", "rpc_error_partial_operation",
	"rpc_error_malformed_message", "rpc_error_other",
};

static void	nc_sess_tcp_free(struct nc_sess *);

int
nc_dev_log_once(struct nc_dev *d, uint32_t kind)
{
	if (d->logged & kind)
		return 0;
	d->logged |= kind;
	return 1;
}

static void
nc_count_error_tag(struct nc_sim *sim, enum nc_err_tag tag)
{
	unsigned	i = (unsigned)tag <= NC_ERR_TAG_COUNT ? tag :
		    NC_ERR_TAG_COUNT;

	if (sim->c.errors[i] == NULL)
		sim->c.errors[i] = metrics_counter(sim->m, nc_err_counter[i]);
	(*sim->c.errors[i])++;
}

static void
nc_count_rpc(struct nc_sim *sim, enum nc_op op)
{
	unsigned	i = (unsigned)op < NC_OP_COUNT ? op : NC_OP_OTHER;

	if (sim->c.rpcs[i] == NULL)
		sim->c.rpcs[i] = metrics_counter(sim->m, nc_op_rows[i].counter);
	(*sim->c.rpcs[i])++;
}

static xmlBufferPtr
nc_outbuf(void)
{
	return nc_buf_reuse(&nc_out);
}

static void
nc_change_state(struct nc_sess *s, enum nc_sess_state next, const char *why)
{
	if (s->state == next)
		return;
	log_debug("device %u session %u: %s -> %s (%s)", s->dev->idx, s->sid,
	    nc_state_names[s->state], nc_state_names[next], why);
	s->state = (uint8_t)next;
}

/* ---- session life ---- */

/*
 * A session that has not finished the SSH key exchange, authentication
 * and the hello exchange (RFC 6241 section 8.1) when its deadline comes
 * is closed: idle connections must not hold --max-sessions slots for
 * good (OpenSSH's LoginGraceTime does the same for SSH).
 */
static void
nc_sess_deadline(evutil_socket_t fd, short what, void *arg)
{
	struct nc_sess	*s = arg;
	struct nc_dev	*d = s->dev;

	(void)fd;
	(void)what;
	if (s->state >= NCS_OPEN)
		return;
	(*d->sim->c.hello_timeouts)++;
	if (nc_dev_log_once(d, NCL_DEADLINE))
		log_warnx("device %u session %u: no hello within %.1f s (%s); "
		    "closing", d->idx, s->sid, d->sim->cfg.hello_timeout,
		    nc_state_names[s->state]);
	nc_sess_kill(s, "hello deadline");
}

static void
nc_sess_deadline_arm(struct nc_sess *s)
{
	double		t = s->dev->sim->cfg.hello_timeout;
	struct timeval	tv;

	if (t <= 0)
		return;
	tv.tv_sec = (time_t)t;
	tv.tv_usec = (suseconds_t)((t - (double)tv.tv_sec) * 1e6);
	s->deadline_ev = engine_timer_new(0, nc_sess_deadline, s);
	engine_timer_add(s->deadline_ev, &tv);
}

/* Past hello: the deadline's memory goes (sessions may last hours). */
static void
nc_sess_deadline_drop(struct nc_sess *s)
{
	if (s->deadline_ev != NULL)
		event_free(s->deadline_ev);
	s->deadline_ev = NULL;
}

/* A connection's peer address folded into 32 bits (the IPv4 address
 * itself): unfinished sessions are told apart by it. */
static uint32_t
nc_peer_key(int fd)
{
	struct sockaddr_storage	 ss;
	socklen_t		 len = sizeof(ss);
	const uint32_t		*w;
	uint32_t		 k = 0;
	size_t			 i;

	if (getpeername(fd, (struct sockaddr *)&ss, &len) == -1)
		return 0;
	if (ss.ss_family == AF_INET)
		return ((struct sockaddr_in *)&ss)->sin_addr.s_addr;
	if (ss.ss_family != AF_INET6)
		return 0;
	w = (const uint32_t *)(void *)&((struct sockaddr_in6 *)&ss)->sin6_addr;
	for (i = 0; i < 4; i++)
		k = k * 2654435761u ^ w[i];
	return k;
}

/* The slot a session holds: counted per device. */
static void
nc_sess_slot(struct nc_sess *s, uint8_t slot)
{
	struct nc_dev	*d = s->dev;

	if (s->slot == NC_SLOT_START)
		d->nstart--;
	else if (s->slot == NC_SLOT_OPEN)
		d->nopen--;
	if (slot == NC_SLOT_START)
		d->nstart++;
	else if (slot == NC_SLOT_OPEN)
		d->nopen++;
	s->slot = slot;
}

struct nc_sess *
nc_sess_new(struct nc_dev *d, enum nc_transport tr, int fd)
{
	struct nc_sim	*sim = d->sim;
	struct nc_sess	*s;

	s = xcalloc(1, sizeof(*s));
	s->dev = d;
	s->transport = (uint8_t)tr;
	/* Section 8.1: unique per server; never 0. */
	if (++sim->next_sid == 0)
		sim->next_sid = 1;
	s->sid = sim->next_sid;
	s->accept_ns = clock_ns();
	s->state = tr == NC_TR_SSH ? NCS_SSH_KEX : NCS_HELLO;
	nc_framer_init(&s->fr, NC_MAX_MSG);
	s->src = nc_peer_key(fd);
	nc_sess_slot(s, NC_SLOT_START);
	LIST_INSERT_HEAD(&d->sessions, s, entry);
	d->nsess++;
	sim->open_sessions++;
	(*sim->c.sessions)++;
	nc_sess_deadline_arm(s);
	return s;
}

void
nc_sess_kill(struct nc_sess *s, const char *why)
{
	struct nc_sim	*sim = s->dev->sim;

	if (s->state == NCS_DEAD)
		return;
	nc_change_state(s, NCS_DEAD, why);
	nc_sess_slot(s, NC_SLOT_NONE);
	nc_sess_deadline_drop(s);
	if (s->notif_ev != NULL)
		event_del(s->notif_ev);
	/* Its locks and candidate edits go with it (section 7.5). */
	nc_store_release_session(s->dev->store, s->sid);
	TAILQ_INSERT_TAIL(&sim->dead, s, reap);
	(*sim->c.sessions_closed)++;
	if (sim->reaper != NULL)
		event_active(sim->reaper, EV_TIMEOUT, 0);
}

void
nc_sess_reset(struct nc_sess *s, const char *why)
{
	struct linger	lg = { 1, 0 };

	if (s->state == NCS_DEAD)
		return;
	if (s->transport != NC_TR_TCP)
		nc_ssh_reset(s);
	else if (s->bev != NULL && bufferevent_getfd(s->bev) != -1)
		setsockopt(bufferevent_getfd(s->bev), SOL_SOCKET, SO_LINGER,
		    &lg, sizeof(lg));
	nc_sess_kill(s, why);
}

static void
nc_sess_free(struct nc_sess *s)
{
	struct nc_dev	*d = s->dev;

	if (s->transport == NC_TR_TCP)
		nc_sess_tcp_free(s);
	else
		nc_ssh_free(s);
	nc_sess_deadline_drop(s);
	if (s->notif_ev != NULL)
		event_free(s->notif_ev);
	nc_framer_free(&s->fr);
	LIST_REMOVE(s, entry);
	d->nsess--;
	d->sim->open_sessions--;
	free(s);
}

void
nc_sim_reap(struct nc_sim *sim)
{
	struct nc_sess	*s;

	TAILQ_DRAIN(&sim->dead, s, reap, nc_sess_free);
}

/*
 * The run is over: what a live TCP session still has queued (replies,
 * notifications the learn phase already counted) goes to the kernel now,
 * best effort, before the close; without it the last notifications of a
 * run that ends on them would be lost.
 */
static void
nc_sess_tcp_flush(struct nc_sess *s)
{
	struct evbuffer	*out;
	const uint8_t	*p;
	size_t		 len;
	ssize_t		 n;
	int		 fd;

	if (s->transport != NC_TR_TCP || s->bev == NULL)
		return;
	out = bufferevent_get_output(s->bev);
	fd = (int)bufferevent_getfd(s->bev);
	len = evbuffer_get_length(out);
	p = len > 0 ? evbuffer_pullup(out, -1) : NULL;
	while (fd >= 0 && len > 0) {
		n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n <= 0)
			break;
		p += n;
		len -= (size_t)n;
	}
}

void
nc_dev_free(struct nc_dev *d)
{
	struct nc_sess	*s;

	while ((s = LIST_FIRST(&d->sessions)) != NULL) {
		if (s->state != NCS_DEAD) {
			nc_sess_tcp_flush(s);
			nc_sess_kill(s, "run over");
		}
		TAILQ_REMOVE(&d->sim->dead, s, reap);
		nc_sess_free(s);
	}
	nc_store_free(d->store);
	d->store = NULL;
}

static size_t
nc_sess_pending(const struct nc_sess *s)
{
	if (s->transport == NC_TR_TCP)
		return s->bev != NULL ?
		    evbuffer_get_length(bufferevent_get_output(s->bev)) : 0;
	return nc_ssh_pending(s);
}

static void	nc_notif_tick(evutil_socket_t, short, void *);
static void	nc_tcp_read(struct bufferevent *, void *);

/*
 * Back-pressure: a peer that sends rpcs and never reads their replies
 * would have every reply buffered here (gigabytes).  Past --output-mark
 * bytes of unsent output the session reads no more rpcs (TCP: the
 * kernel's window then holds the peer; SSH: the channel's window) until
 * its output drains below half of the mark, as the OpenFlow switch
 * does (of_frame_out_full).  Counted once per pause.
 */
static int
nc_sess_out_full(struct nc_sess *s)
{
	if (s->rd_paused)
		return 1;
	if (nc_sess_pending(s) < s->dev->sim->cfg.out_mark)
		return 0;
	s->rd_paused = 1;
	(*s->dev->sim->c.reads_paused)++;
	return 1;
}

/* Below the low mark: read what waits, then from the peer again. */
static void
nc_sess_read_on(struct nc_sess *s)
{
	if (!s->rd_paused || s->state == NCS_DEAD ||
	    nc_sess_pending(s) > s->dev->sim->cfg.out_mark / 2)
		return;
	s->rd_paused = 0;
	if (s->transport != NC_TR_TCP) {
		nc_ssh_read_on(s);
		return;
	}
	if (s->bev == NULL)
		return;
	bufferevent_enable(s->bev, EV_READ);
	nc_tcp_read(s->bev, s);		/* may end the session */
}

void
nc_sess_drained(struct nc_sess *s)
{
	if (s->state == NCS_CLOSING && nc_sess_pending(s) == 0) {
		nc_sess_kill(s, "closed");
		return;
	}
	nc_sess_read_on(s);
	if (s->state == NCS_DEAD)
		return;
	/* Notifications paused on a full buffer go on now. */
	if (s->notif_ev != NULL && s->state == NCS_OPEN &&
	    s->notif_sent < s->dev->sim->cfg.notifications &&
	    !event_pending(s->notif_ev, EV_TIMEOUT, NULL))
		nc_notif_tick(-1, 0, s);
}

/* ---- output ---- */

void
nc_sess_write(void *arg, const void *p, size_t len)
{
	struct nc_sess	*s = arg;

	*s->dev->sim->c.bytes_out += len;
	if (s->transport == NC_TR_TCP) {
		if (s->bev != NULL)
			bufferevent_write(s->bev, p, len);
	} else
		nc_ssh_write(s, p, len);
}

/* One message, framed as negotiated (RFC 6242 section 4). */
static void
nc_sess_send(struct nc_sess *s, xmlBufferPtr b)
{
	size_t	len = (size_t)xmlBufferLength(b);

	if (s->state >= NCS_CLOSING || len == 0)
		return;
	nc_frame_send(s->base11, xmlBufferContent(b), len, nc_sess_write, s);
}

/* Section 8.1: our capabilities, the schema's modules among them. */
static unsigned
nc_our_caps(const struct nc_sim *sim)
{
	unsigned	caps = NC_CAPF_BASE10 | NC_CAPF_BASE11 |
		    NC_CAPF_WRITABLE_RUNNING | NC_CAPF_ROLLBACK |
		    NC_CAPF_XPATH | NC_CAPF_NOTIFICATION | NC_CAPF_INTERLEAVE;

	if (sim->cfg.candidate)
		caps |= NC_CAPF_CANDIDATE;
	return caps;
}

void
nc_sess_start(struct nc_sess *s)
{
	struct nc_sim		*sim = s->dev->sim;
	struct nc_hello_opts	 o;
	xmlBufferPtr		 b = nc_outbuf();

	memset(&o, 0, sizeof(o));
	o.caps = nc_our_caps(sim);
	o.extra = nc_schema_capabilities(sim->schema, &o.nextra);
	o.session_id = s->sid;
	nc_hello_build(b, &o);
	nc_change_state(s, NCS_HELLO, "hello sent");
	nc_sess_send(s, b);
}

/* ---- phases ---- */

static void
nc_phase_item(struct nc_sim *sim, enum nc_phase p, uint64_t n,
    uint64_t since_ns)
{
	struct phase	*ph = sim->ph[p];
	uint64_t	 now = clock_ns();

	if (ph == NULL || n == 0)
		return;
	if (ph->state == PHASE_PENDING)
		phase_start(ph, since_ns != 0 && since_ns < now ? since_ns :
		    now);
	if (ph->state != PHASE_RUNNING)
		return;
	if (since_ns != 0 && now > since_ns)
		phase_latency(ph, (now - since_ns) / 1000);
	phase_items(ph, now, n);
}

/* A phase timed from the request that starts it (edit, subscription):
 * its arrival when known (TCP, nc_rxpeek), else now. */
static void
nc_phase_trigger(struct nc_sess *s, enum nc_phase p)
{
	struct phase	*ph = s->dev->sim->ph[p];
	uint64_t	 now = clock_ns();

	if (ph != NULL && ph->state == PHASE_PENDING)
		phase_start(ph, s->arrived_ns != 0 && s->arrived_ns < now ?
		    s->arrived_ns : now);
}

/* ---- hello ---- */

static void
nc_sess_hello(void *arg, const uint8_t *msg, size_t len)
{
	struct nc_sess	*s = arg;
	struct nc_dev	*d = s->dev;
	struct nc_sim	*sim = d->sim;
	struct nc_hello	 h;
	xmlDocPtr	 doc;
	int		 r;

	memset(&h, 0, sizeof(h));
	if ((doc = nc_xml_parse(msg, len, 0, NULL)) == NULL)
		r = NC_HELLO_E_XML;
	else {
		r = nc_hello_from_doc(&h, doc, 0);
		if (r == NC_HELLO_E_NOT_HELLO &&
		    nc_msg_kind(doc) == NC_MSG_RPC && nc_dev_log_once(d,
		    NCL_HELLO))
			log_warnx("device %u session %u: rpc before hello",
			    d->idx, s->sid);
		xmlFreeDoc(doc);
	}
	if (r != NC_HELLO_OK) {
		/* Section 8.1: no usable hello, no session. */
		(*sim->c.hello_errors)++;
		if (nc_dev_log_once(d, NCL_HELLO))
			log_warnx("device %u session %u: %s; closing",
			    d->idx, s->sid, nc_hello_strerror(r));
		nc_hello_free(&h);
		nc_sess_kill(s, nc_hello_strerror(r));
		return;
	}
	s->base11 = (uint8_t)nc_hello_chunked(nc_our_caps(sim), &h);
	nc_hello_free(&h);
	if (d->nopen >= sim->cfg.max_sessions) {
		/* Its slot was a startup's: the sessions filled meanwhile. */
		(*sim->c.sessions_refused)++;
		nc_sess_kill(s, "--max-sessions sessions open");
		return;
	}
	nc_sess_slot(s, NC_SLOT_OPEN);
	/* RFC 6242 section 4.1: chunks from the next message on. */
	if (s->base11)
		nc_framer_set_chunked(&s->fr, 1);
	nc_change_state(s, NCS_OPEN, s->base11 ? "hello, base:1.1" :
	    "hello, base:1.0");
	nc_sess_deadline_drop(s);
	if (!d->connected) {
		d->connected = 1;
		nc_phase_item(sim, NCP_CONNECT, 1, s->accept_ns);
	}
	/* Back after a --fault drop: the reconnect phase's item.  The
	 * hello, not the TCP accept: over SSH the session is not the
	 * controller's before it. */
	if (d->pd.fault_ns != 0)
		fault_dev_up(&d->pd, clock_ns());
}

/* ---- rpc helpers ---- */

/* What prefixes an error-path of module names needs declared. */
static size_t
nc_path_ns(const struct nc_sim *sim, const char *path,
    struct nc_nsdecl *ns, size_t max)
{
	const struct ly_ctx	*ctx = nc_schema_ctx(sim->schema);
	const struct lys_module	*m;
	const char		*p, *c;
	char			 name[128];
	size_t			 n = 0, i, len;

	for (p = path; p != NULL && (p = strchr(p, '/')) != NULL; p++) {
		if ((c = strchr(p + 1, ':')) == NULL)
			break;
		len = (size_t)(c - p - 1);
		if (len == 0 || len >= sizeof(name) ||
		    strcspn(p + 1, "/[=' ") < len)
			continue;
		memcpy(name, p + 1, len);
		name[len] = '\0';
		for (i = 0; i < n && strcmp(ns[i].prefix, name) != 0; i++)
			;
		if (i < n || n == max ||
		    (m = ly_ctx_get_module_implemented(ctx, name)) == NULL)
			continue;
		ns[n].prefix = m->name;
		ns[n++].uri = m->ns;
	}
	return n;
}

/* Answer with the store's rpc-errors (and count them); frees list. */
static void
nc_reply_store(struct nc_sess *s, const struct nc_rpc *r, xmlBufferPtr b,
    struct nc_error *list)
{
	struct nc_sim		*sim = s->dev->sim;
	struct nc_nsdecl	 nsd[NC_MAX_PATH_NS];
	struct nc_error		*e;
	struct nc_err		*ev;
	size_t			 n = 0, i;

	for (e = list; e != NULL; e = e->next)
		n++;
	ev = xcalloc(n, sizeof(*ev));
	for (e = list, i = 0; e != NULL; e = e->next, i++) {
		nc_err_init(&ev[i], nc_err_type_from_name(e->type),
		    nc_err_tag_from_name(e->tag), e->message);
		ev[i].app_tag = e->app_tag;
		ev[i].bad_element = e->bad_element;
		if (e->path != NULL && i == 0) {
			ev[i].path = e->path;
			ev[i].path_ns = nsd;
			ev[i].npath_ns = nc_path_ns(sim, e->path, nsd,
			    NC_MAX_PATH_NS);
		} else
			ev[i].path = e->path;
		if (ev[i].tag == NC_ERR_LOCK_DENIED ||
		    (ev[i].tag == NC_ERR_IN_USE && e->session_id != 0)) {
			ev[i].has_session_id = 1;
			ev[i].session_id = e->session_id;
		}
		nc_count_error_tag(sim, ev[i].tag);
	}
	nc_reply_error(b, r, ev, n);
	free(ev);
	nc_error_free(list);
}

static void
nc_reply_err(struct nc_sess *s, const struct nc_rpc *r, xmlBufferPtr b,
    const struct nc_err *e)
{
	nc_count_error_tag(s->dev->sim, e->tag);
	nc_reply_error(b, r, e, 1);
}

/* --fault rpc-error: operation-failed, error-type application (RFC 6241
 * section 4.3 and appendix A), in place of the answer. */
static void
nc_reply_fault(struct nc_sess *s, const struct nc_rpc *r, xmlBufferPtr b)
{
	struct nc_err	e;

	memset(&e, 0, sizeof(e));
	e.type = NC_ERR_TYPE_APPLICATION;
	e.tag = NC_ERR_OPERATION_FAILED;
	e.sev = NC_ERR_SEV_ERROR;
	e.message = "injected by sbsim --fault rpc-error";
	nc_reply_err(s, r, b, &e);
}

/* ok, or what the store refused. */
static void
nc_reply_result(struct nc_sess *s, const struct nc_rpc *r, xmlBufferPtr b,
    struct nc_error *err)
{
	if (err != NULL)
		nc_reply_store(s, r, b, err);
	else
		nc_reply_ok(b, r);
}

/*
 * An element serialized on its own, with the namespace declarations it
 * inherits (a copy made outside the tree declares them on itself).
 */
static void
nc_node_dump(xmlBufferPtr out, xmlNodePtr n)
{
	xmlNodePtr	copy;

	if ((copy = xmlDocCopyNode(n, n->doc, 1)) == NULL)
		fatalx("xmlDocCopyNode");
	xmlNodeDump(out, n->doc, copy, 0, 0);
	xmlFreeNode(copy);
}

/* The element children of n as one string (the content of <config>). */
static char *
nc_children_xml(xmlNodePtr n)
{
	xmlBufferPtr	 b;
	xmlNodePtr	 c;
	char		*s;

	if ((b = xmlBufferCreate()) == NULL)
		fatalx("xmlBufferCreate");
	for (c = n->children; c != NULL; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			nc_node_dump(b, c);
	s = xstrdup((const char *)xmlBufferContent(b));
	xmlBufferFree(b);
	return s;
}

struct nc_filter_buf {
	struct nc_filter	 f;
	char			*text;
	const char		**nsmap;
};

/* The rpc's <filter> in the store's terms; -1 with e set. */
static int
nc_get_filter(const struct nc_rpc *r, struct nc_filter_buf *fb,
    struct nc_err *e)
{
	struct ncm_filter	 mf;
	xmlNsPtr		*list;
	xmlBufferPtr		 b;
	size_t			 n, i, k = 0;

	memset(fb, 0, sizeof(*fb));
	if (nc_rpc_filter(r, &mf, e) != 0)
		return -1;
	if (mf.type == NCM_FILTER_NONE)
		return 0;
	if (mf.type == NCM_FILTER_XPATH) {
		fb->f.type = NC_FILTER_XPATH;
		fb->f.text = mf.select;
		/* Prefixes in the select resolve where <filter> is. */
		if ((list = xmlGetNsList(mf.node->doc, mf.node)) == NULL)
			return 0;
		for (n = 0; list[n] != NULL; n++)
			;
		fb->nsmap = xcalloc(2 * n + 1, sizeof(*fb->nsmap));
		for (i = 0; i < n; i++)
			if (list[i]->prefix != NULL) {
				fb->nsmap[k++] = (const char *)list[i]->prefix;
				fb->nsmap[k++] = (const char *)list[i]->href;
			}
		xmlFree(list);
		fb->f.nsmap = fb->nsmap;
		return 0;
	}
	if ((b = xmlBufferCreate()) == NULL)
		fatalx("xmlBufferCreate");
	nc_node_dump(b, mf.node);
	fb->text = xstrdup((const char *)xmlBufferContent(b));
	xmlBufferFree(b);
	fb->f.type = NC_FILTER_SUBTREE;
	fb->f.text = fb->text;
	return 0;
}

static void
nc_filter_buf_free(struct nc_filter_buf *fb)
{
	free(fb->text);
	free(fb->nsmap);
}

/* A <source>/<target> that names running or candidate. */
static int
nc_rpc_ds(const struct nc_rpc *r, const char *param, enum nc_ds *ds,
    struct nc_err *e)
{
	struct nc_ds_ref	ref;

	if (nc_rpc_datastore(r, param, &ref, e) != 0)
		return -1;
	switch (ref.ds) {
	case NCM_DS_RUNNING:
		*ds = NC_DS_RUNNING;
		return 0;
	case NCM_DS_CANDIDATE:
		*ds = NC_DS_CANDIDATE;
		return 0;
	default:
		/* No :startup, no :url (not advertised). */
		nc_err_init(e, NC_ERR_TYPE_PROTOCOL,
		    NC_ERR_OPERATION_NOT_SUPPORTED, NULL);
		snprintf(e->msgbuf, sizeof(e->msgbuf),
		    "datastore %s not supported", nc_ds_name(ref.ds));
		e->bad_element = param;
		return -1;
	}
}

/* A successful get or get-config is what mounting a device ends with. */
static void
nc_dev_mounted(struct nc_sess *s)
{
	struct nc_dev	*d = s->dev;

	if (d->mounted)
		return;
	d->mounted = 1;
	nc_phase_item(d->sim, NCP_MOUNT, 1, s->accept_ns);
}

/* ---- operations (RFC 6241 section 7, 8) ---- */

static void
op_get(struct nc_sess *s, const struct nc_rpc *r, xmlBufferPtr b)
{
	struct nc_filter_buf	 fb;
	struct nc_error		*err;
	struct nc_err		 e;
	enum nc_ds		 ds = NC_DS_RUNNING;
	char			*xml = NULL;

	if ((r->op == NC_OP_GET_CONFIG && nc_rpc_ds(r, "source", &ds,
	    &e) != 0) || nc_get_filter(r, &fb, &e) != 0) {
		nc_reply_err(s, r, b, &e);
		return;
	}
	if (r->op == NC_OP_GET)
		err = nc_store_get(s->dev->store, fb.f.type ? &fb.f : NULL,
		    &xml);
	else
		err = nc_store_get_config(s->dev->store, ds,
		    fb.f.type ? &fb.f : NULL, &xml);
	nc_filter_buf_free(&fb);
	if (err != NULL) {
		nc_reply_store(s, r, b, err);
		return;
	}
	nc_reply_data(b, r, xml, xml != NULL ? strlen(xml) : 0);
	free(xml);
	nc_dev_mounted(s);
}

static void
op_edit(struct nc_sess *s, const struct nc_rpc *r, xmlBufferPtr b)
{
	static const enum nc_defop defops[] = { NC_DEFOP_MERGE,
	    NC_DEFOP_REPLACE, NC_DEFOP_NONE };
	static const enum nc_testop testops[] = { NC_TEST_THEN_SET,
	    NC_TEST_SET, NC_TEST_ONLY };
	static const enum nc_errop errops[] = { NC_ERROP_STOP,
	    NC_ERROP_CONTINUE, NC_ERROP_ROLLBACK };
	struct nc_sim		*sim = s->dev->sim;
	struct nc_edit		 ed;
	struct nc_edit_opts	 o;
	struct nc_edit_result	 res;
	struct nc_error		*err;
	struct nc_err		 e;
	enum nc_ds		 ds;
	char			*config;

	if (nc_rpc_edit(r, &ed, &e) != 0 || nc_rpc_ds(r, "target", &ds,
	    &e) != 0) {
		nc_reply_err(s, r, b, &e);
		return;
	}
	if (ed.config == NULL) {
		nc_err_init(&e, NC_ERR_TYPE_PROTOCOL,
		    NC_ERR_OPERATION_NOT_SUPPORTED, "no :url capability");
		e.bad_element = "url";
		nc_reply_err(s, r, b, &e);
		return;
	}
	o.defop = defops[ed.defop];
	o.testop = testops[ed.testop];
	o.errop = errops[ed.errop];
	nc_phase_trigger(s, NCP_PROGRAM);
	config = nc_children_xml(ed.config);
	err = nc_store_edit(s->dev->store, s->sid, ds, config, &o, &res);
	free(config);
	*sim->c.entries_created += res.created;
	*sim->c.entries_modified += res.modified;
	*sim->c.entries_deleted += res.deleted;
	nc_phase_item(sim, NCP_PROGRAM, (uint64_t)res.created + res.modified,
	    0);
	nc_reply_result(s, r, b, err);
}

static void
op_copy(struct nc_sess *s, const struct nc_rpc *r, xmlBufferPtr b)
{
	struct nc_ds_ref	 src;
	struct nc_error		*err;
	struct nc_err		 e;
	enum nc_ds		 target, source = NC_DS_RUNNING;
	char			*config = NULL;

	if (nc_rpc_ds(r, "target", &target, &e) != 0 ||
	    nc_rpc_datastore(r, "source", &src, &e) != 0 ||
	    (src.ds != NCM_DS_CONFIG && nc_rpc_ds(r, "source", &source,
	    &e) != 0)) {
		nc_reply_err(s, r, b, &e);
		return;
	}
	if (src.ds == NCM_DS_CONFIG)
		config = nc_children_xml(src.node);
	err = nc_store_copy(s->dev->store, s->sid, target, source, config);
	free(config);
	nc_reply_result(s, r, b, err);
}

static void
op_lock(struct nc_sess *s, const struct nc_rpc *r, xmlBufferPtr b)
{
	struct nc_error	*err;
	struct nc_err	 e;
	enum nc_ds	 ds;

	if (nc_rpc_ds(r, "target", &ds, &e) != 0) {
		nc_reply_err(s, r, b, &e);
		return;
	}
	if (r->op == NC_OP_LOCK)
		err = nc_store_lock(s->dev->store, s->sid, ds);
	else
		err = nc_store_unlock(s->dev->store, s->sid, ds);
	nc_reply_result(s, r, b, err);
}

/* :candidate operations; without it they do not exist (section 8.3). */
static void
op_candidate(struct nc_sess *s, const struct nc_rpc *r, xmlBufferPtr b)
{
	struct nc_error	*err;
	struct nc_err	 e;

	if (!s->dev->sim->cfg.candidate) {
		nc_err_op_not_supported(&e, r);
		nc_reply_err(s, r, b, &e);
		return;
	}
	if (r->op == NC_OP_COMMIT)
		err = nc_store_commit(s->dev->store, s->sid);
	else
		err = nc_store_discard(s->dev->store, s->sid);
	nc_reply_result(s, r, b, err);
}

static void
op_validate(struct nc_sess *s, const struct nc_rpc *r, xmlBufferPtr b)
{
	struct nc_err	 e;
	enum nc_ds	 ds;

	if (nc_rpc_ds(r, "source", &ds, &e) != 0) {
		nc_reply_err(s, r, b, &e);
		return;
	}
	nc_reply_result(s, r, b, nc_store_validate(s->dev->store, ds));
}

/* Section 7.9: another session of this device, ended at once. */
static void
op_kill(struct nc_sess *s, const struct nc_rpc *r, xmlBufferPtr b)
{
	struct nc_sess	*o;
	struct nc_err	 e;
	uint32_t	 sid;

	if (nc_rpc_session_id(r, &sid, &e) != 0) {
		nc_reply_err(s, r, b, &e);
		return;
	}
	LIST_FOREACH(o, &s->dev->sessions, entry)
		if (o->sid == sid && o->state != NCS_DEAD)
			break;
	if (sid == s->sid || o == NULL) {
		nc_err_init(&e, NC_ERR_TYPE_PROTOCOL, NC_ERR_INVALID_VALUE,
		    sid == s->sid ? "cannot kill the current session" :
		    "no such session");
		e.bad_element = "session-id";
		nc_reply_err(s, r, b, &e);
		return;
	}
	(*s->dev->sim->c.sessions_killed)++;
	nc_sess_kill(o, "killed by kill-session");
	nc_reply_ok(b, r);
}

/* RFC 6022 section 3.1: <data> of ietf-netconf-monitoring, the text. */
static void
op_get_schema(struct nc_sess *s, const struct nc_rpc *r, xmlBufferPtr b)
{
	struct nc_get_schema	 g;
	struct nc_error		*err;
	struct nc_err		 e;
	const char		*text;

	if (nc_rpc_get_schema(r, &g, &e) != 0) {
		nc_reply_err(s, r, b, &e);
		return;
	}
	err = nc_schema_get_schema(s->dev->sim->schema, g.identifier,
	    g.version, g.format, &text);
	if (err != NULL) {
		nc_reply_store(s, r, b, err);
		return;
	}
	nc_reply_begin(b, r);
	xmlBufferCCat(b, "<data xmlns=\"" NC_NS_MONITORING "\">");
	nc_put_text(b, text);
	xmlBufferCCat(b, "</data>");
	nc_reply_end(b);
}

/* ---- notifications (RFC 5277) ---- */

/* The i-th route-update of a device: J prefixes no other device sends. */
static void
nc_notif_content(const struct nc_sess *s, uint32_t n, xmlBufferPtr b)
{
	const struct nc_config	*cfg = &s->dev->sim->cfg;
	uint64_t		 g;
	uint32_t		 j, a;
	char			 buf[160];

	snprintf(buf, sizeof(buf), "<route-update xmlns=\"urn:sbsim:routes\">"
	    "<origin>sbsim device %u</origin>", s->dev->idx);
	xmlBufferCCat(b, buf);
	for (j = 0; j < cfg->prefixes; j++) {
		g = ((uint64_t)s->dev->idx * cfg->notifications + n) *
		    cfg->prefixes + j;
		a = 0x0a000000u + (uint32_t)(g << 8);
		snprintf(buf, sizeof(buf), "<prefix><prefix>%u.%u.%u.0/24"
		    "</prefix><next-hop>192.0.2.1</next-hop></prefix>",
		    a >> 24, (a >> 16) & 0xff, (a >> 8) & 0xff);
		xmlBufferCCat(b, buf);
	}
	xmlBufferCCat(b, "</route-update>");
}

static struct bufferevent *
nc_learn_bev(void *arg, size_t i, struct txack_dev **txd)
{
	struct nc_sim	*sim = arg;
	struct nc_dev	*d = &sim->devs[i];
	struct nc_sess	*s;

	*txd = &d->txd;
	LIST_FOREACH(s, &d->sessions, entry)
		if (s->sid == d->ack_sid)
			return s->bev;
	return NULL;
}

/*
 * Learn over TCP (docs/report.md, "Phase windows"): the window opens when
 * the first notification's first byte is sent (nc_notif_send), and ends
 * when the controller's TCP has acknowledged every device's last one.
 */
static void
nc_learn_acked(struct nc_sess *s)
{
	struct nc_dev	*d = s->dev;
	struct nc_sim	*sim = d->sim;
	struct phase	*ph = sim->ph[NCP_LEARN];

	if (!ph->await_ack || s->bev == NULL)
		return;
	txack_last(&d->txd, s->bev);
	d->ack_sid = s->sid;
	if (++sim->learned_devs == sim->cfg.devices)
		txack_wait(&sim->acked, ph, sim->cfg.devices, nc_learn_bev,
		    sim);
}

static void
nc_notif_send(struct nc_sess *s)
{
	struct nc_dev	*d = s->dev;
	struct nc_sim	*sim = d->sim;
	xmlBufferPtr	 content, b;
	struct timespec	 ts;
	uint64_t	 quota = (uint64_t)sim->cfg.notifications *
		    sim->cfg.prefixes;
	uint64_t	 n = sim->cfg.prefixes;

	if ((content = xmlBufferCreate()) == NULL)
		fatalx("xmlBufferCreate");
	nc_notif_content(s, s->notif_sent, content);
	clock_gettime(CLOCK_REALTIME, &ts);
	b = nc_outbuf();
	nc_notif_build(b, &ts, (const char *)xmlBufferContent(content),
	    (size_t)xmlBufferLength(content));
	xmlBufferFree(content);
	if (d->learned == 0 && quota > 0) {
		/* The earliest first byte of the devices' first
		 * notifications opens the window. */
		phase_open(sim->ph[NCP_LEARN], clock_ns());
		if (sim->ph[NCP_LEARN]->await_ack && s->bev != NULL)
			txack_open(&sim->acked, &d->txd, s->bev,
			    sim->ph[NCP_LEARN], NULL);
	}
	nc_sess_send(s, b);
	s->notif_sent++;
	(*sim->c.notifications_sent)++;
	*sim->c.prefixes_sent += n;
	/* The learn phase counts each device's stream once. */
	if (d->learned + n > quota)
		n = quota - d->learned;
	d->learned += n;
	nc_phase_item(sim, NCP_LEARN, n, 0);
	if (n > 0 && d->learned == quota)
		nc_learn_acked(s);
}

/* Paced at --notification-rate per device, or as fast as the
 * connection drains; never queueing more than NC_OUT_HIGH. */
static void
nc_notif_tick(evutil_socket_t fd, short what, void *arg)
{
	struct nc_sess		*s = arg;
	const struct nc_config	*cfg = &s->dev->sim->cfg;
	uint64_t		 now = clock_ns();
	double			 credit = 1e9;

	if (cfg->notif_rate > 0) {
		s->notif_credit += cfg->notif_rate *
		    (double)(now - s->notif_last_ns) / 1e9;
		if (s->notif_credit > cfg->notif_rate + 1)
			s->notif_credit = cfg->notif_rate + 1;
		credit = s->notif_credit;
	}
	s->notif_last_ns = now;
	while (s->state == NCS_OPEN && s->notif_sent < cfg->notifications &&
	    credit >= 1 && nc_sess_pending(s) < NC_OUT_HIGH) {
		nc_notif_send(s);
		credit -= 1;
		if (cfg->notif_rate > 0)
			s->notif_credit -= 1;
	}
	if (s->notif_sent >= cfg->notifications || s->state != NCS_OPEN)
		event_del(s->notif_ev);
}

static void
nc_notif_begin(struct nc_sess *s)
{
	const struct nc_config	*cfg = &s->dev->sim->cfg;
	struct timeval		 tv = { 0, NC_NOTIF_TICK_US };
	double			 us;

	if (cfg->notifications == 0 || cfg->prefixes == 0)
		return;
	if (cfg->notif_rate > 0) {
		us = 1e6 / cfg->notif_rate;
		if (us > NC_NOTIF_TICK_US) {
			tv.tv_sec = (time_t)(us / 1e6);
			tv.tv_usec = (suseconds_t)(us - (double)tv.tv_sec *
			    1e6);
		}
	}
	s->notif_ev = engine_timer_new(EV_PERSIST, nc_notif_tick, s);
	s->notif_last_ns = clock_ns();
	s->notif_credit = 1;	/* the first one right away */
	engine_timer_add(s->notif_ev, &tv);
}

/* RFC 5277 section 2.1.1, the NETCONF stream only, no replay. */
static void
op_subscribe(struct nc_sess *s, const struct nc_rpc *r, xmlBufferPtr b)
{
	struct nc_subscription	sub;
	struct nc_err		e;

	if (nc_rpc_subscription(r, &sub, &e) != 0) {
		nc_reply_err(s, r, b, &e);
		return;
	}
	if (strcmp(sub.stream, "NETCONF") != 0) {
		nc_err_init(&e, NC_ERR_TYPE_APPLICATION, NC_ERR_INVALID_VALUE,
		    "no such stream");
		e.bad_element = "stream";
	} else if (sub.has_start) {
		/* Section 2.1.1: replay asked of a stream without it. */
		nc_err_init(&e, NC_ERR_TYPE_PROTOCOL,
		    NC_ERR_OPERATION_FAILED, "replay not supported");
	} else if (s->subscribed) {
		nc_err_init(&e, NC_ERR_TYPE_PROTOCOL, NC_ERR_IN_USE,
		    "this session already has a subscription");
	} else {
		s->subscribed = 1;
		nc_phase_trigger(s, NCP_LEARN);
		nc_reply_ok(b, r);
		nc_notif_begin(s);
		return;
	}
	nc_reply_err(s, r, b, &e);
}

/* Section 7.8: reply, then close. */
static void
op_close(struct nc_sess *s, const struct nc_rpc *r, xmlBufferPtr b)
{
	(void)s;
	nc_reply_ok(b, r);
}

/* delete-config (no :startup), cancel-commit (no :confirmed-commit) and
 * everything unknown. */
static void
op_unsupported(struct nc_sess *s, const struct nc_rpc *r, xmlBufferPtr b)
{
	struct nc_err	e;

	if (r->op == NC_OP_OTHER && nc_dev_log_once(s->dev, NCL_UNKNOWN_OP))
		log_info("device %u session %u: operation %s not supported",
		    s->dev->idx, s->sid, r->op_name ? r->op_name : "?");
	nc_err_op_not_supported(&e, r);
	nc_reply_err(s, r, b, &e);
}

static const struct nc_op_row nc_op_rows[NC_OP_COUNT] = {
	[NC_OP_OTHER] =			{ "rpc_other", NULL },
	[NC_OP_GET] =			{ "rpc_get", op_get },
	[NC_OP_GET_CONFIG] =		{ "rpc_get_config", op_get },
	[NC_OP_EDIT_CONFIG] =		{ "rpc_edit_config", op_edit },
	[NC_OP_COPY_CONFIG] =		{ "rpc_copy_config", op_copy },
	[NC_OP_DELETE_CONFIG] =		{ "rpc_delete_config", NULL },
	[NC_OP_LOCK] =			{ "rpc_lock", op_lock },
	[NC_OP_UNLOCK] =		{ "rpc_unlock", op_lock },
	[NC_OP_CLOSE_SESSION] =		{ "rpc_close_session", op_close },
	[NC_OP_KILL_SESSION] =		{ "rpc_kill_session", op_kill },
	[NC_OP_COMMIT] =		{ "rpc_commit", op_candidate },
	[NC_OP_DISCARD_CHANGES] =	{ "rpc_discard_changes", op_candidate },
	[NC_OP_CANCEL_COMMIT] =		{ "rpc_cancel_commit", NULL },
	[NC_OP_VALIDATE] =		{ "rpc_validate", op_validate },
	[NC_OP_GET_SCHEMA] =		{ "rpc_get_schema", op_get_schema },
	[NC_OP_CREATE_SUBSCRIPTION] =	{ "rpc_create_subscription",
	    op_subscribe },
};

static void
nc_dispatch(struct nc_sess *s, const struct nc_rpc *r, xmlBufferPtr b)
{
	nc_op_fn	fn = NULL;

	if ((unsigned)r->op < NC_OP_COUNT)
		fn = nc_op_rows[r->op].fn;
	(fn != NULL ? fn : op_unsupported)(s, r, b);
}

static void
nc_sess_rpc(void *arg, const uint8_t *msg, size_t len)
{
	struct nc_sess	*s = arg;
	struct nc_dev	*d = s->dev;
	struct nc_rpc	 r;
	struct nc_err	 e;
	enum nc_op	 op;
	xmlBufferPtr	 b = nc_outbuf();

	if (nc_rpc_parse(&r, msg, len, s->base11, &e) != 0) {
		if (r.doc == NULL) {
			(*d->sim->c.xml_errors)++;
			if (nc_dev_log_once(d, NCL_XML))
				log_warnx("device %u session %u: %s",
				    d->idx, s->sid, nc_err_message(&e));
		} else if (nc_dev_log_once(d, NCL_RPC_ERR))
			log_warnx("device %u session %u: bad rpc: %s", d->idx,
			    s->sid, nc_err_message(&e));
		nc_reply_err(s, &r, b, &e);
		nc_sess_send(s, b);
		nc_rpc_free(&r);
		return;
	}
	op = r.op;
	nc_count_rpc(d->sim, op);
	if (nc_fault_rpc_error_due(d, op))
		nc_reply_fault(s, &r, b);
	else
		nc_dispatch(s, &r, b);
	if (!nc_fault_hold(s, op, xmlBufferContent(b),
	    (size_t)xmlBufferLength(b)))
		nc_sess_send(s, b);
	nc_rpc_free(&r);
	if (op == NC_OP_CLOSE_SESSION && s->state == NCS_OPEN) {
		nc_change_state(s, NCS_CLOSING, "close-session");
		nc_sess_drained(s);
	}
}

static enum nc_sink_state
nc_sess_frame_state(void *arg)
{
	struct nc_sess	*s = arg;

	if (s->state == NCS_OPEN && nc_sess_out_full(s))
		return NC_SINK_PAUSED;
	return s->state == NCS_HELLO ? NC_SINK_HELLO :
	    s->state == NCS_OPEN ? NC_SINK_OPEN : NC_SINK_DONE;
}

static void
nc_sess_frame_error(void *arg, int res)
{
	struct nc_sess	*s = arg;
	struct nc_dev	*d = s->dev;

	(*d->sim->c.framing_errors)++;
	if (nc_dev_log_once(d, NCL_FRAMING))
		log_warnx("device %u session %u: framing error: %s; closing",
		    d->idx, s->sid, nc_frame_strerror(res));
	nc_sess_kill(s, "framing error");
}

static const struct nc_frame_sink nc_sess_sink = {
	nc_sess_frame_state, nc_sess_hello, nc_sess_rpc, nc_sess_frame_error
};

size_t
nc_sess_input(struct nc_sess *s, const void *data, size_t len)
{
	size_t	n;

	n = nc_framer_deliver(&s->fr, data, len, &nc_sess_sink, s);
	*s->dev->sim->c.bytes_in += n;
	return n;
}

/* ---- TCP transport ---- */

/*
 * While program waits for its first edit-config, the next read's arrival
 * is peeked: the window opens at the kernel's receive time (docs/
 * report.md, "Phase windows"), however late the loop reads.
 */
static void
nc_rxpeek(struct nc_sess *s)
{
	const struct phase	*ph = s->dev->sim->ph[NCP_PROGRAM];

	if (s->state != NCS_DEAD && ph != NULL && ph->state == PHASE_PENDING)
		rxpeek_arm(&s->rxp, bufferevent_getfd(s->bev));
	else
		rxpeek_stop(&s->rxp);
}

static void
nc_tcp_read(struct bufferevent *bev, void *arg)
{
	struct nc_sess		*s = arg;
	struct evbuffer		*in = bufferevent_get_input(bev);
	struct evbuffer_iovec	 v;
	size_t			 n;

	s->arrived_ns = rxpeek_take(&s->rxp, clock_ns());
	while (s->state != NCS_DEAD && evbuffer_get_length(in) > 0) {
		if (evbuffer_peek(in, -1, NULL, &v, 1) < 1)
			break;
		n = nc_sess_input(s, v.iov_base, v.iov_len);
		evbuffer_drain(in, n);
		if (n < v.iov_len && s->state != NCS_DEAD) {
			/* Paused (nc_sess_out_full): the rest waits here,
			 * nc_sess_read_on reads it. */
			bufferevent_disable(bev, EV_READ);
			break;
		}
	}
	if (s->state == NCS_DEAD)
		evbuffer_drain(in, evbuffer_get_length(in));
	nc_rxpeek(s);
}

static void
nc_tcp_write(struct bufferevent *bev, void *arg)
{
	nc_sess_drained(arg);
}

static void
nc_tcp_event(struct bufferevent *bev, short what, void *arg)
{
	struct nc_sess	*s = arg;

	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		nc_sess_kill(s, what & BEV_EVENT_EOF ? "peer closed" :
		    "connection error");
}

static void
nc_sess_tcp_free(struct nc_sess *s)
{
	rxpeek_stop(&s->rxp);
	if (s->bev != NULL)
		bufferevent_free(s->bev);
	s->bev = NULL;
}

/*
 * The --max-startups slots are full: the oldest unfinished session of the
 * peer address holding most of them (the newcomer counted) makes room, so
 * that a client refilling them from its address cannot lock others out
 * (OpenSSH's MaxStartups refuses the newcomer instead, which such a
 * client turns into a lockout).  0 when there is none to close.
 */
static int
nc_dev_evict(struct nc_dev *d, uint32_t src)
{
	struct nc_sess	*s, *t, *victim = NULL;
	unsigned	 n, most = 0;

	LIST_FOREACH(s, &d->sessions, entry) {
		if (s->slot != NC_SLOT_START)
			continue;
		n = s->src == src;
		LIST_FOREACH(t, &d->sessions, entry)
			n += t->slot == NC_SLOT_START && t->src == s->src;
		/* The list is newest first: on a tie the older one. */
		if (n >= most) {
			most = n;
			victim = s;
		}
	}
	if (victim == NULL)
		return 0;
	(*d->sim->c.sessions_evicted)++;
	nc_sess_kill(victim, "evicted: --max-startups unfinished sessions");
	return 1;
}

/* Over the descriptor budget or the device's sessions: refuse, as a
 * device at its session limit would (it closes the connection). */
int
nc_dev_refuse(struct nc_dev *d, int fd)
{
	struct nc_sim	*sim = d->sim;

	if (d->nopen < sim->cfg.max_sessions &&
	    sim->open_sessions < sim->max_open &&
	    (d->nstart < sim->cfg.max_startups ||
	    nc_dev_evict(d, nc_peer_key(fd))))
		return 0;
	(*sim->c.sessions_refused)++;
	if (nc_dev_log_once(d, NCL_REFUSED))
		log_warnx("device %u: session refused (%u open here, %u "
		    "unfinished, %u in all)", d->idx, d->nopen, d->nstart,
		    sim->open_sessions);
	close(fd);
	return 1;
}

void
nc_dev_accept_tcp(struct pool_dev *pd, int fd)
{
	struct nc_dev	*d = (struct nc_dev *)pd;
	struct nc_sess	*s;

	if (nc_dev_refuse(d, fd))
		return;
	s = nc_sess_new(d, NC_TR_TCP, fd);
	if ((s->bev = engine_bev_new(fd)) == NULL) {
		nc_sess_kill(s, "no bufferevent");
		return;
	}
	bufferevent_setcb(s->bev, nc_tcp_read, nc_tcp_write, nc_tcp_event, s);
	/* The write callback comes below the low mark, and at empty. */
	bufferevent_setwatermark(s->bev, EV_WRITE, d->sim->cfg.out_mark / 2,
	    0);
	bufferevent_enable(s->bev, EV_READ | EV_WRITE);
	nc_rxpeek(s);
	nc_sess_start(s);
}

/* At exit: the reply buffer (leak checkers look). */
void
nc_dev_cleanup(void)
{
	nc_buf_drop(&nc_out);
}
