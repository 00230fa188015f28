/*
 * The NETCONF client session (nc_cli.h).
 *
 * TCP: a bufferevent connecting to the device.  SSH: our own
 * non-blocking socket; once connected, libssh takes it over
 * (SSH_OPTIONS_FD) in non-blocking mode, and each step of the handshake
 * (ssh_connect, ssh_userauth_password, ssh_channel_open_session,
 * ssh_channel_request_subsystem) is called again whenever the
 * descriptor is readable, or writable while libssh has output queued
 * (ssh_get_poll_flags), until it stops answering SSH_AGAIN.  Then the
 * session joins an ssh_event of its own and ssh_event_dopoll(ev, 0)
 * runs libssh's packet handling on the same readiness; channel data
 * comes through channel callbacks.  The device's host key is not
 * checked (no known_hosts), as a test controller mounting simulators.
 */
#include <sys/queue.h>
#include <sys/socket.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <libssh/callbacks.h>
#include <libssh/libssh.h>

#include "engine.h"
#include "log.h"
#include "metrics.h"
#include "nc_chan.h"
#include "nc_cli.h"
#include "nc_frame.h"

#define NCC_SUBSYSTEM	"netconf"		/* RFC 6242 section 3 */
#define NCC_MAX_MSG	(64u * 1024 * 1024)
#define NCC_READ_CHUNK	65536

enum ncc_state {
	NCCS_TCP_CONNECT,	/* socket connecting */
	NCCS_SSH_CONNECT,	/* banner, key exchange */
	NCCS_SSH_AUTH,
	NCCS_SSH_CHANNEL,	/* opening the session channel */
	NCCS_SSH_SUBSYSTEM,	/* asking for "netconf" */
	NCCS_HELLO,		/* our hello sent, waiting for theirs */
	NCCS_OPEN,
	NCCS_DEAD,
};

struct ncc_pending {
	TAILQ_ENTRY(ncc_pending) entry;
	uint64_t		 id;
	uint64_t		 sent_ns;
	nc_cli_reply_cb		 cb;
	void			*arg;
};
TAILQ_HEAD(ncc_pending_q, ncc_pending);

struct nc_cli {
	struct nc_cli_params	 p;
	const struct nc_cli_ops	*ops;
	void			*arg;
	enum ncc_state		 state;
	int			 freed;
	int			 chunked;
	int			 fd;		/* SSH: ours until libssh has it */
	uint64_t		 next_id;
	uint64_t		 bytes_in, bytes_out;
	struct nc_framer	 fr;
	struct ncc_pending_q	 pending;
	struct event		*timer;		/* handshake timeout */
	struct engine_soon	*reap;
	/* TCP */
	struct bufferevent	*bev;
	/* SSH */
	ssh_session		 ssh;
	ssh_channel		 chan;
	ssh_event		 sev;
	struct event		*rev, *wev;
	struct evbuffer		*outq;
	struct evbuffer		*early;		/* data before our hello */
	struct nc_chan_in	 in;		/* the device's data, in order */
	struct ssh_channel_callbacks_struct ccb;
	char			 host[64];
	char			 user[128];
	char			 password[128];
};

static xmlBufferPtr	ncc_buf;

static const char *const ncc_fail_names[] = {
	"connect failed", "SSH failed", "authentication failed",
	"bad hello", "framing error", "closed by the device",
};

const char *
nc_cli_fail_name(enum nc_cli_fail f)
{
	return (unsigned)f < sizeof(ncc_fail_names) /
	    sizeof(ncc_fail_names[0]) ? ncc_fail_names[f] : "?";
}

static xmlBufferPtr
ncc_outbuf(void)
{
	return nc_buf_reuse(&ncc_buf);
}

void
nc_cli_cleanup(void)
{
	nc_buf_drop(&ncc_buf);
}

/* ---- the end of a session ---- */

static void
ncc_close_transport(struct nc_cli *c)
{
	if (c->timer != NULL)
		event_del(c->timer);
	if (c->rev != NULL)
		event_del(c->rev);
	if (c->wev != NULL)
		event_del(c->wev);
	if (c->bev != NULL) {
		bufferevent_free(c->bev);
		c->bev = NULL;
	}
}

static void
ncc_fail_pending(struct nc_cli *c)
{
	struct ncc_pending	*pe;

	while ((pe = TAILQ_FIRST(&c->pending)) != NULL) {
		TAILQ_REMOVE(&c->pending, pe, entry);
		if (pe->cb != NULL)
			pe->cb(pe->arg, NULL);
		free(pe);
	}
}

/* The session is over: the owner hears it once. */
static void
ncc_fail(struct nc_cli *c, enum nc_cli_fail f, const char *why)
{
	if (c->state == NCCS_DEAD)
		return;
	c->state = NCCS_DEAD;
	ncc_close_transport(c);
	/* The owner first (it may free us, failing what is pending). */
	if (!c->freed && c->ops->down != NULL)
		c->ops->down(c->arg, f, why);
	ncc_fail_pending(c);
}

/* From the loop, after nc_cli_free(): nothing of c runs any more. */
static void
ncc_reap(void *arg)
{
	struct nc_cli	*c = arg;

	ncc_close_transport(c);
	ncc_fail_pending(c);
	/* Disconnecting closes the descriptor and frees the channel. */
	nc_chan_free_io(c->rev, c->wev, c->sev, c->ssh, c->outq);
	nc_chan_in_free(&c->in);
	if (c->ssh == NULL && c->fd != -1)
		close(c->fd);
	if (c->early != NULL)
		evbuffer_free(c->early);
	if (c->timer != NULL)
		event_free(c->timer);
	engine_soon_free(&c->reap);
	nc_framer_free(&c->fr);
	free(c);
}

void
nc_cli_free(struct nc_cli *c)
{
	if (c == NULL || c->freed)
		return;
	c->freed = 1;
	engine_soon(c->reap);
	/* Whoever waits for a reply hears now that none will come. */
	ncc_fail_pending(c);
}

/* ---- output ---- */

static void
ncc_ssh_watch_write(struct nc_cli *c)
{
	if (c->ssh != NULL && c->state != NCCS_DEAD &&
	    (ssh_get_poll_flags(c->ssh) & SSH_WRITE_PENDING))
		event_add(c->wev, NULL);
}

static void
ncc_ssh_flush(struct nc_cli *c)
{
	if (nc_chan_flush(c->chan, &c->in, c->outq) == -1) {
		ncc_fail(c, NCC_FAIL_SSH, "channel write failed");
		return;
	}
	ncc_ssh_watch_write(c);
}

static void
ncc_write(void *arg, const void *p, size_t len)
{
	struct nc_cli	*c = arg;

	c->bytes_out += len;
	if (c->bev != NULL) {
		bufferevent_write(c->bev, p, len);
		return;
	}
	evbuffer_add(c->outq, p, len);
	ncc_ssh_flush(c);
}

/* One message, framed as negotiated (RFC 6242 section 4). */
static void
ncc_send(struct nc_cli *c, xmlBufferPtr b)
{
	nc_frame_send(c->chunked, xmlBufferContent(b),
	    (size_t)xmlBufferLength(b), ncc_write, c);
}

/* Section 8.1: a client hello has no session-id. */
static void
ncc_send_hello(struct nc_cli *c)
{
	struct nc_hello_opts	o;
	xmlBufferPtr		b = ncc_outbuf();

	memset(&o, 0, sizeof(o));
	o.caps = NC_CAPF_BASE10 | NC_CAPF_BASE11;
	nc_hello_build(b, &o);
	c->state = NCCS_HELLO;
	ncc_send(c, b);
}

int
nc_cli_rpc(struct nc_cli *c, const char *op_xml, nc_cli_reply_cb cb,
    void *arg)
{
	struct ncc_pending	*pe;
	xmlBufferPtr		 b;

	if (c->freed || c->state != NCCS_OPEN)
		return -1;
	pe = xcalloc(1, sizeof(*pe));
	pe->id = ++c->next_id;
	pe->sent_ns = clock_ns();
	pe->cb = cb;
	pe->arg = arg;
	TAILQ_INSERT_TAIL(&c->pending, pe, entry);
	b = ncc_outbuf();
	nc_rpc_build(b, pe->id, op_xml);
	ncc_send(c, b);
	return 0;
}

size_t
nc_cli_expire(struct nc_cli *c, uint64_t now, uint64_t older)
{
	struct ncc_pending	*pe;
	size_t			 n = 0;

	/* Sent in order: the oldest first. */
	while ((pe = TAILQ_FIRST(&c->pending)) != NULL &&
	    pe->sent_ns + older < now) {
		TAILQ_REMOVE(&c->pending, pe, entry);
		if (!c->freed && pe->cb != NULL)
			pe->cb(pe->arg, NULL);
		free(pe);
		n++;
	}
	return n;
}

void
nc_cli_bytes(const struct nc_cli *c, uint64_t *in, uint64_t *out)
{
	*in = c->bytes_in;
	*out = c->bytes_out;
}

/* ---- input ---- */

static void
ncc_hello(void *arg, const uint8_t *msg, size_t len)
{
	struct nc_cli	*c = arg;
	struct nc_hello	h;
	int		r;

	memset(&h, 0, sizeof(h));
	if ((r = nc_hello_parse(&h, msg, len, 1)) != NC_HELLO_OK) {
		nc_hello_free(&h);
		ncc_fail(c, NCC_FAIL_HELLO, nc_hello_strerror(r));
		return;
	}
	c->chunked = nc_hello_chunked(NC_CAPF_BASE10 | NC_CAPF_BASE11, &h);
	/* RFC 6242 section 4.1: chunks from the next message on. */
	if (c->chunked)
		nc_framer_set_chunked(&c->fr, 1);
	c->state = NCCS_OPEN;
	event_del(c->timer);
	if (!c->freed && c->ops->up != NULL)
		c->ops->up(c->arg, &h);
	nc_hello_free(&h);
}

static void
ncc_bad(struct nc_cli *c, const char *what)
{
	if (!c->freed && c->ops->bad != NULL)
		c->ops->bad(c->arg, what);
}

static void
ncc_reply(struct nc_cli *c, xmlDocPtr doc)
{
	struct nc_reply		 r;
	struct ncc_pending	*pe;
	unsigned long long	 id;
	char			*end;

	memset(&r, 0, sizeof(r));
	if (nc_reply_from_doc(&r, doc) == -1 || r.message_id == NULL) {
		nc_reply_free(&r);
		ncc_bad(c, "rpc-reply without message-id");
		return;
	}
	id = strtoull(r.message_id, &end, 10);
	TAILQ_FOREACH(pe, &c->pending, entry)
		if (*end == '\0' && pe->id == id)
			break;
	if (pe == NULL) {
		nc_reply_free(&r);
		ncc_bad(c, "rpc-reply to no rpc of ours");
		return;
	}
	TAILQ_REMOVE(&c->pending, pe, entry);
	if (!c->freed && pe->cb != NULL)
		pe->cb(pe->arg, &r);
	free(pe);
	nc_reply_free(&r);
}

static void
ncc_message(void *arg, const uint8_t *msg, size_t len)
{
	struct nc_cli	*c = arg;
	struct nc_notif	 n;
	xmlDocPtr	 doc;

	if ((doc = nc_xml_parse(msg, len, c->chunked, NULL)) == NULL) {
		ncc_bad(c, "malformed XML");
		return;
	}
	switch (nc_msg_kind(doc)) {
	case NC_MSG_REPLY:
		ncc_reply(c, doc);
		break;
	case NC_MSG_NOTIF:
		memset(&n, 0, sizeof(n));
		if (nc_notif_from_doc(&n, doc) == 0) {
			if (!c->freed && c->ops->notif != NULL)
				c->ops->notif(c->arg, &n);
		} else
			ncc_bad(c, "malformed notification");
		nc_notif_free(&n);
		break;
	default:
		xmlFreeDoc(doc);
		ncc_bad(c, "neither rpc-reply nor notification");
	}
}

static enum nc_sink_state
ncc_frame_state(void *arg)
{
	struct nc_cli	*c = arg;

	if (c->freed)
		return NC_SINK_DONE;
	return c->state == NCCS_HELLO ? NC_SINK_HELLO :
	    c->state == NCCS_OPEN ? NC_SINK_OPEN : NC_SINK_DONE;
}

static void
ncc_frame_error(void *arg, int res)
{
	ncc_fail(arg, NCC_FAIL_FRAMING, nc_frame_strerror(res));
}

static const struct nc_frame_sink ncc_sink = {
	ncc_frame_state, ncc_hello, ncc_message, ncc_frame_error
};

static void
ncc_input(struct nc_cli *c, const void *data, size_t len)
{
	c->bytes_in += len;
	nc_framer_deliver(&c->fr, data, len, &ncc_sink, c);
}

/* ---- TCP ---- */

static void
ncc_tcp_read(struct bufferevent *bev, void *arg)
{
	struct nc_cli		*c = arg;
	struct evbuffer		*in = bufferevent_get_input(bev);
	struct evbuffer_iovec	 v;

	while (c->state != NCCS_DEAD && !c->freed &&
	    evbuffer_get_length(in) > 0) {
		if (evbuffer_peek(in, -1, NULL, &v, 1) < 1)
			break;
		ncc_input(c, v.iov_base, v.iov_len);
		/* ncc_fail may have freed the bufferevent. */
		if (c->bev == NULL)
			return;
		evbuffer_drain(in, v.iov_len);
	}
}

static void
ncc_tcp_event(struct bufferevent *bev, short what, void *arg)
{
	struct nc_cli	*c = arg;
	int		 one = 1;

	if (what & BEV_EVENT_CONNECTED) {
		setsockopt(bufferevent_getfd(bev), IPPROTO_TCP, TCP_NODELAY,
		    &one, sizeof(one));
		ncc_send_hello(c);
		return;
	}
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) {
		if (c->state == NCCS_TCP_CONNECT)
			ncc_fail(c, NCC_FAIL_CONNECT, strerror(
			    EVUTIL_SOCKET_ERROR()));
		else
			ncc_fail(c, NCC_FAIL_CLOSED, what & BEV_EVENT_EOF ?
			    "closed by the device" : "connection error");
	}
}

static int
ncc_addr(struct nc_cli *c, struct sockaddr_storage *ss, socklen_t *len)
{
	struct addrinfo	 hints, *ai = NULL;
	char		 port[8];

	memset(&hints, 0, sizeof(hints));
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(port, sizeof(port), "%u", c->p.port);
	if (getaddrinfo(c->p.host, port, &hints, &ai) != 0 || ai == NULL)
		return -1;
	memcpy(ss, ai->ai_addr, ai->ai_addrlen);
	*len = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

static void
ncc_tcp_start(struct nc_cli *c, struct sockaddr_storage *ss, socklen_t len)
{
	c->bev = bufferevent_socket_new(engine_base(), -1,
	    BEV_OPT_CLOSE_ON_FREE);
	if (c->bev == NULL)
		fatalx("bufferevent_socket_new");
	bufferevent_setcb(c->bev, ncc_tcp_read, NULL, ncc_tcp_event, c);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	if (bufferevent_socket_connect(c->bev, (struct sockaddr *)ss,
	    (int)len) == -1)
		ncc_fail(c, NCC_FAIL_CONNECT, strerror(errno));
}

/* ---- SSH ---- */

static int
ncc_ssh_data(ssh_session s, ssh_channel ch, void *data, uint32_t len,
    int is_stderr, void *arg)
{
	struct nc_cli	*c = arg;

	(void)s;
	(void)ch;
	if (is_stderr)
		return (int)len;
	/* The device's hello may come with the subsystem's answer, before
	 * ours is out: keep it until then. */
	if (c->state < NCCS_HELLO)
		evbuffer_add(c->early, data, len);
	else
		nc_chan_in_data(&c->in, data, len);
	return (int)len;
}

static void
ncc_ssh_gone(ssh_session s, ssh_channel ch, void *arg)
{
	struct nc_cli	*c = arg;

	(void)s;
	(void)ch;
	ncc_fail(c, NCC_FAIL_CLOSED, "channel closed by the device");
}

static int
ncc_ssh_wontblock(ssh_session s, ssh_channel ch, uint32_t bytes, void *arg)
{
	(void)s;
	(void)ch;
	(void)bytes;
	ncc_ssh_flush(arg);
	return 0;
}

static int
ncc_ssh_session(struct nc_cli *c)
{
	int	zero = 0;
	bool	no = false;

	if ((c->ssh = ssh_new()) == NULL)
		fatalx("ssh_new");
	/* No known_hosts and no ~/.ssh/config: a test controller. */
	if (ssh_options_set(c->ssh, SSH_OPTIONS_FD, &c->fd) != SSH_OK ||
	    ssh_options_set(c->ssh, SSH_OPTIONS_HOST, c->host) != SSH_OK ||
	    ssh_options_set(c->ssh, SSH_OPTIONS_USER, c->user) != SSH_OK ||
	    ssh_options_set(c->ssh, SSH_OPTIONS_PROCESS_CONFIG, &no) !=
	    SSH_OK ||
	    ssh_options_set(c->ssh, SSH_OPTIONS_KNOWNHOSTS, "/dev/null") !=
	    SSH_OK ||
	    ssh_options_set(c->ssh, SSH_OPTIONS_GLOBAL_KNOWNHOSTS,
	    "/dev/null") != SSH_OK ||
	    ssh_options_set(c->ssh, SSH_OPTIONS_STRICTHOSTKEYCHECK, &zero) !=
	    SSH_OK)
		return -1;
	c->fd = -1;		/* libssh's now */
	ssh_set_blocking(c->ssh, 0);
	return 0;
}

static void
ncc_ssh_channel_cbs(struct nc_cli *c)
{
	nc_chan_callbacks(&c->ccb, c, ncc_ssh_data, ncc_ssh_gone,
	    ncc_ssh_wontblock);
	ssh_set_channel_callbacks(c->chan, &c->ccb);
}

static void
ncc_early(struct nc_cli *c)
{
	size_t	len = evbuffer_get_length(c->early);

	if (len > 0) {
		nc_chan_in_data(&c->in, evbuffer_pullup(c->early, -1), len);
		evbuffer_drain(c->early, len);
	}
}

/* One step of the handshake; 1 when it may go on at once. */
static int
ncc_ssh_step(struct nc_cli *c)
{
	int	rc;

	switch (c->state) {
	case NCCS_SSH_CONNECT:
		if ((rc = ssh_connect(c->ssh)) == SSH_AGAIN)
			return 0;
		if (rc != SSH_OK) {
			ncc_fail(c, NCC_FAIL_SSH, ssh_get_error(c->ssh));
			return 0;
		}
		c->state = NCCS_SSH_AUTH;
		return 1;
	case NCCS_SSH_AUTH:
		/* RFC 4252 section 8. */
		rc = ssh_userauth_password(c->ssh, NULL, c->password);
		if (rc == SSH_AUTH_AGAIN)
			return 0;
		if (rc != SSH_AUTH_SUCCESS) {
			ncc_fail(c, rc == SSH_AUTH_ERROR ? NCC_FAIL_SSH :
			    NCC_FAIL_AUTH, rc == SSH_AUTH_ERROR ?
			    ssh_get_error(c->ssh) : "password refused");
			return 0;
		}
		if ((c->chan = ssh_channel_new(c->ssh)) == NULL)
			fatalx("ssh_channel_new");
		ncc_ssh_channel_cbs(c);
		c->state = NCCS_SSH_CHANNEL;
		return 1;
	case NCCS_SSH_CHANNEL:
		if ((rc = ssh_channel_open_session(c->chan)) == SSH_AGAIN)
			return 0;
		if (rc != SSH_OK) {
			ncc_fail(c, NCC_FAIL_SSH, "session channel refused");
			return 0;
		}
		c->state = NCCS_SSH_SUBSYSTEM;
		return 1;
	case NCCS_SSH_SUBSYSTEM:
		rc = ssh_channel_request_subsystem(c->chan, NCC_SUBSYSTEM);
		if (rc == SSH_AGAIN)
			return 0;
		if (rc != SSH_OK) {
			ncc_fail(c, NCC_FAIL_SSH, "netconf subsystem refused");
			return 0;
		}
		if ((c->sev = ssh_event_new()) == NULL ||
		    ssh_event_add_session(c->sev, c->ssh) != SSH_OK)
			fatalx("ssh_event_new");
		ncc_send_hello(c);
		ncc_early(c);
		return 0;
	default:
		return 0;
	}
}

/* After libssh ran, or after input that waited was fed. */
static void
ncc_ssh_after(void *arg)
{
	struct nc_cli	*c = arg;

	if (c->state == NCCS_DEAD || c->freed)
		return;
	if (!ssh_is_connected(c->ssh) && c->state >= NCCS_HELLO) {
		ncc_fail(c, NCC_FAIL_CLOSED, "connection lost");
		return;
	}
	if (c->state >= NCCS_HELLO)
		ncc_ssh_flush(c);
	else
		ncc_ssh_watch_write(c);
}

static void
ncc_ssh_io(evutil_socket_t fd, short what, void *arg)
{
	struct nc_cli	*c = arg;

	(void)fd;
	(void)what;
	if (c->state == NCCS_DEAD || c->freed)
		return;
	if (c->state < NCCS_HELLO) {
		while (ncc_ssh_step(c))
			;
	} else if (ssh_event_dopoll(c->sev, 0) == SSH_ERROR)
		ncc_fail(c, NCC_FAIL_CLOSED, "connection lost");
	ncc_ssh_after(c);
}

/* Our socket connected (or not): hand it to libssh. */
static void
ncc_sock_connected(evutil_socket_t fd, short what, void *arg)
{
	struct nc_cli	*c = arg;
	socklen_t	 len = sizeof(int);
	int		 err = 0, one = 1;

	(void)what;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == -1)
		err = errno;
	if (err != 0) {
		ncc_fail(c, NCC_FAIL_CONNECT, strerror(err));
		return;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (ncc_ssh_session(c) == -1) {
		ncc_fail(c, NCC_FAIL_SSH, ssh_get_error(c->ssh));
		return;
	}
	event_free(c->wev);
	c->rev = event_new(engine_base(), fd, EV_READ | EV_PERSIST,
	    ncc_ssh_io, c);
	c->wev = event_new(engine_base(), fd, EV_WRITE, ncc_ssh_io, c);
	if (c->rev == NULL || c->wev == NULL)
		fatalx("event_new");
	event_add(c->rev, NULL);
	c->state = NCCS_SSH_CONNECT;
	ncc_ssh_io(fd, EV_WRITE, c);
}

static size_t
ncc_ssh_feed(void *arg, const void *p, size_t len)
{
	ncc_input(arg, p, len);
	return len;	/* the client never pauses its reading */
}

static void
ncc_ssh_start(struct nc_cli *c, struct sockaddr_storage *ss, socklen_t len)
{
	if ((c->outq = evbuffer_new()) == NULL ||
	    (c->early = evbuffer_new()) == NULL)
		fatalx("evbuffer_new");
	nc_chan_in_init(&c->in, ncc_ssh_feed, ncc_ssh_after, c);
	c->fd = socket(ss->ss_family, SOCK_STREAM, 0);
	if (c->fd == -1 || fcntl(c->fd, F_SETFL, O_NONBLOCK) == -1) {
		ncc_fail(c, NCC_FAIL_CONNECT, strerror(errno));
		return;
	}
	if (connect(c->fd, (struct sockaddr *)ss, len) == -1 &&
	    errno != EINPROGRESS) {
		ncc_fail(c, NCC_FAIL_CONNECT, strerror(errno));
		return;
	}
	c->wev = event_new(engine_base(), c->fd, EV_WRITE, ncc_sock_connected,
	    c);
	if (c->wev == NULL)
		fatalx("event_new");
	event_add(c->wev, NULL);
}

/* ---- start ---- */

static void
ncc_timeout(evutil_socket_t fd, short what, void *arg)
{
	struct nc_cli	*c = arg;

	(void)fd;
	(void)what;
	ncc_fail(c, c->state == NCCS_TCP_CONNECT ? NCC_FAIL_CONNECT :
	    c->state == NCCS_HELLO ? NCC_FAIL_HELLO : NCC_FAIL_SSH,
	    "timed out");
}

static void
ncc_copy(char *dst, size_t cap, const char *src)
{
	snprintf(dst, cap, "%s", src != NULL ? src : "");
}

/* Start failures are reported from the loop, not from inside new. */
static void
ncc_begin(evutil_socket_t fd, short what, void *arg)
{
	struct nc_cli		*c = arg;
	struct sockaddr_storage	 ss;
	socklen_t		 len;
	struct timeval		 tv;

	(void)fd;
	(void)what;
	if (c->freed)
		return;
	event_assign(c->timer, engine_base(), -1, 0, ncc_timeout, c);
	tv.tv_sec = (time_t)c->p.timeout_s;
	tv.tv_usec = (suseconds_t)((c->p.timeout_s - (double)tv.tv_sec) *
	    1e6);
	engine_timer_add(c->timer, &tv);
	if (ncc_addr(c, &ss, &len) == -1) {
		ncc_fail(c, NCC_FAIL_CONNECT, "the host is not an IP address");
		return;
	}
	if (c->p.tcp_only)
		ncc_tcp_start(c, &ss, len);
	else
		ncc_ssh_start(c, &ss, len);
}

struct nc_cli *
nc_cli_new(const struct nc_cli_params *p, const struct nc_cli_ops *ops,
    void *arg)
{
	struct nc_cli	*c = xcalloc(1, sizeof(*c));
	struct timeval	 now = { 0, 0 };

	c->p = *p;
	ncc_copy(c->host, sizeof(c->host), p->host);
	ncc_copy(c->user, sizeof(c->user), p->user);
	ncc_copy(c->password, sizeof(c->password), p->password);
	c->p.host = c->host;
	c->p.user = c->user;
	c->p.password = c->password;
	if (c->p.timeout_s <= 0)
		c->p.timeout_s = 20;
	c->ops = ops;
	c->arg = arg;
	c->fd = -1;
	c->state = NCCS_TCP_CONNECT;
	TAILQ_INIT(&c->pending);
	nc_framer_init(&c->fr, p->max_msg ? p->max_msg : NCC_MAX_MSG);
	c->timer = engine_timer_new(0, ncc_timeout, c);
	c->reap = engine_soon_new(ncc_reap, c);
	/* The timer starts the session from the loop. */
	event_assign(c->timer, engine_base(), -1, 0, ncc_begin, c);
	engine_timer_add(c->timer, &now);
	return c;
}
