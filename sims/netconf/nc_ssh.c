/*
 * NETCONF over SSH (RFC 6242 section 3): a libssh server driven from
 * the engine's libevent loop, no thread and no blocking call.
 *
 * One ssh_bind holds the host key for every device; each accepted
 * descriptor becomes an ssh_session in non-blocking mode.  While the
 * key exchange runs, ssh_handle_key_exchange() is called again each
 * time the descriptor is readable (it returns SSH_AGAIN until done);
 * then the session joins an ssh_event of its own and
 * ssh_event_dopoll(ev, 0) runs libssh's packet handling whenever
 * libevent says the descriptor is readable, or writable while libssh
 * has output it could not write (ssh_get_poll_flags()).  Authentication,
 * the session channel and the "netconf" subsystem come through server
 * and channel callbacks.  Channel output never exceeds the peer's window
 * (libssh would otherwise wait for a window adjust inside the write):
 * the rest waits in outq until the window grows.
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <libssh/callbacks.h>
#include <libssh/libssh.h>
#include <libssh/server.h>

#include "engine.h"
#include "log.h"
#include "nc_chan.h"
#include "nc_sim.h"

#define NC_SSH_MAX_AUTH		6	/* OpenSSH's MaxAuthTries */
#define NC_SSH_SUBSYSTEM	"netconf"	/* section 3 */

struct nc_ssh_server {
	ssh_bind		 bind;
	const struct nc_config	*cfg;
	ssh_key			*keys;		/* authorized */
	size_t			 nkeys;
	int			 methods;
};

struct nc_ssh {
	struct nc_sess		*sess;
	ssh_session		 ssh;
	ssh_event		 sev;
	ssh_channel		 chan;
	struct event		*rev;
	struct event		*wev;
	struct evbuffer		*outq;
	struct nc_chan_in	 in;		/* the client's data, in order */
	struct ssh_server_callbacks_struct scb;
	struct ssh_channel_callbacks_struct ccb;
	struct event		*pause_ev;	/* after a failure, lazily */
	uint8_t			 tries;		/* failed authentications */
	uint8_t			 failed;	/* one since libssh last ran */
	uint8_t			 paused;	/* reads held: pause_ev */
	uint8_t			 authed;
	uint8_t			 start;		/* subsystem granted: hello */
	uint8_t			 subsystem;
	uint8_t			 reset;		/* --fault drop: no goodbye */
	uint8_t			 held;		/* libssh keeps channel data */
};

static struct nc_ssh_server	*nc_ssh_srv;

/* ---- host key and authorized keys ---- */

static int
nc_ssh_host_key(const char *path, char *err, size_t errlen)
{
	ssh_key	key = NULL;
	mode_t	old;
	int	rc;

	if (access(path, F_OK) == 0) {
		if (ssh_pki_import_privkey_file(path, NULL, NULL, NULL,
		    &key) != SSH_OK) {
			snprintf(err, errlen, "--host-key %s: not a private "
			    "key libssh can read", path);
			return -1;
		}
		ssh_key_free(key);
		return 0;
	}
	/* Generated once, kept: clients see the same key every run. */
	if (ssh_pki_generate(SSH_KEYTYPE_ED25519, 0, &key) != SSH_OK) {
		snprintf(err, errlen, "cannot generate a host key");
		return -1;
	}
	old = umask(077);
	rc = ssh_pki_export_privkey_file(key, NULL, NULL, NULL, path);
	umask(old);
	ssh_key_free(key);
	if (rc != SSH_OK) {
		snprintf(err, errlen, "--host-key %s: cannot write: %s", path,
		    strerror(errno));
		return -1;
	}
	log_info("netconf: generated the SSH host key %s", path);
	return 0;
}

/* One "[options] type base64 [comment]" line. */
static int
nc_ssh_key_line(struct nc_ssh_server *srv, char *line)
{
	char			*tok[4], *save = NULL;
	enum ssh_keytypes_e	 t;
	ssh_key			 key;
	int			 n = 0, i;

	for (tok[0] = strtok_r(line, " \t\r\n", &save); tok[n] != NULL &&
	    n < 3; tok[n] = strtok_r(NULL, " \t\r\n", &save))
		n++;
	for (i = 0; i + 1 < n; i++) {
		t = ssh_key_type_from_name(tok[i]);
		if (t == SSH_KEYTYPE_UNKNOWN)
			continue;
		if (ssh_pki_import_pubkey_base64(tok[i + 1], t, &key) != SSH_OK)
			return -1;
		srv->keys = xreallocarray(srv->keys, srv->nkeys + 1,
		    sizeof(*srv->keys));
		srv->keys[srv->nkeys++] = key;
		return 0;
	}
	return -1;
}

static int
nc_ssh_authorized(struct nc_ssh_server *srv, const char *path, char *err,
    size_t errlen)
{
	FILE	*f;
	char	 line[16384];
	int	 lineno = 0;

	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "--authorized-keys %s: %s", path,
		    strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		lineno++;
		if (line[strspn(line, " \t\r\n")] == '\0' ||
		    line[strspn(line, " \t")] == '#')
			continue;
		if (nc_ssh_key_line(srv, line) == -1) {
			snprintf(err, errlen, "--authorized-keys %s line %d: "
			    "not a public key", path, lineno);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	if (srv->nkeys == 0) {
		snprintf(err, errlen, "--authorized-keys %s: no keys", path);
		return -1;
	}
	return 0;
}

struct nc_ssh_server *
nc_ssh_server_new(const struct nc_config *cfg, char *err, size_t errlen)
{
	struct nc_ssh_server	*srv;
	const char		*key = cfg->host_key ? cfg->host_key :
				    NC_SSH_DEFAULT_KEY;

	srv = xcalloc(1, sizeof(*srv));
	srv->cfg = cfg;
	if (nc_ssh_host_key(key, err, errlen) == -1 ||
	    (cfg->authorized_keys != NULL &&
	    nc_ssh_authorized(srv, cfg->authorized_keys, err, errlen) == -1))
		goto fail;
	if (cfg->password != NULL)
		srv->methods |= SSH_AUTH_METHOD_PASSWORD;
	if (srv->nkeys > 0)
		srv->methods |= SSH_AUTH_METHOD_PUBLICKEY;
	if ((srv->bind = ssh_bind_new()) == NULL ||
	    ssh_bind_options_set(srv->bind, SSH_BIND_OPTIONS_HOSTKEY,
	    key) != SSH_OK) {
		snprintf(err, errlen, "ssh_bind: %s", srv->bind ?
		    ssh_get_error(srv->bind) : "out of memory");
		goto fail;
	}
	nc_ssh_srv = srv;
	return srv;
fail:
	nc_ssh_server_free(srv);
	return NULL;
}

void
nc_ssh_server_free(struct nc_ssh_server *srv)
{
	size_t	i;

	if (srv == NULL)
		return;
	for (i = 0; i < srv->nkeys; i++)
		ssh_key_free(srv->keys[i]);
	free(srv->keys);
	if (srv->bind != NULL)
		ssh_bind_free(srv->bind);
	if (nc_ssh_srv == srv)
		nc_ssh_srv = NULL;
	free(srv);
}

/* ---- authentication (RFC 4252) ---- */

static int
nc_ssh_user_ok(const struct nc_ssh_server *srv, const char *user)
{
	return srv->cfg->user == NULL || (user != NULL &&
	    strcmp(user, srv->cfg->user) == 0);
}

/*
 * The device's failed-authentication delay (--auth-delay) is its own,
 * not a session's: parallel sessions would multiply a guesser's rate
 * (8 sessions guessed 9 passwords a second).  After a failure no
 * credentials are checked on any session of the device until
 * auth_next_ns; sessions still authenticating read nothing until then
 * (nc_ssh_io), and an attempt that came all the same (several sent at
 * once, RFC 4252 section 5) is refused unchecked.
 */
static int
nc_ssh_throttled(struct nc_ssh *x)
{
	struct nc_dev	*d = x->sess->dev;

	if (clock_ns() >= d->auth_next_ns)
		return 0;
	(*d->sim->c.auth_throttled)++;
	return 1;
}

static int
nc_ssh_denied(struct nc_ssh *x, const char *method, const char *user)
{
	struct nc_dev	*d = x->sess->dev;
	uint64_t	 now = clock_ns();

	x->tries++;
	x->failed = 1;
	if (d->auth_next_ns < now)
		d->auth_next_ns = now + (uint64_t)(d->sim->cfg.auth_delay * 1e9);
	(*d->sim->c.auth_failures)++;
	if (nc_dev_log_once(d, NCL_AUTH))
		log_warnx("device %u: %s authentication failed for user '%s'",
		    d->idx, method, user ? user : "");
	return SSH_AUTH_DENIED;
}

static int
nc_ssh_auth_password(ssh_session ssh, const char *user, const char *pw,
    void *arg)
{
	struct nc_ssh			*x = arg;
	const struct nc_ssh_server	*srv = nc_ssh_srv;

	if (nc_ssh_throttled(x))
		return nc_ssh_denied(x, "password", user);
	if (srv->cfg->password != NULL && nc_ssh_user_ok(srv, user) &&
	    pw != NULL && strcmp(pw, srv->cfg->password) == 0) {
		x->authed = 1;
		return SSH_AUTH_SUCCESS;
	}
	return nc_ssh_denied(x, "password", user);
}

static int
nc_ssh_auth_pubkey(ssh_session ssh, const char *user, struct ssh_key_struct
    *key, char state, void *arg)
{
	struct nc_ssh			*x = arg;
	const struct nc_ssh_server	*srv = nc_ssh_srv;
	size_t				 i;

	if (state == SSH_PUBLICKEY_STATE_VALID && nc_ssh_throttled(x))
		return nc_ssh_denied(x, "publickey", user);
	for (i = 0; i < srv->nkeys; i++)
		if (ssh_key_cmp(key, srv->keys[i], SSH_KEY_CMP_PUBLIC) == 0)
			break;
	if (i == srv->nkeys || !nc_ssh_user_ok(srv, user))
		return nc_ssh_denied(x, "publickey", user);
	/* A query (no signature yet) is answered PK_OK; the signed one,
	 * checked by libssh, authenticates (RFC 4252 section 7). */
	if (state == SSH_PUBLICKEY_STATE_VALID)
		x->authed = 1;
	if (state == SSH_PUBLICKEY_STATE_NONE ||
	    state == SSH_PUBLICKEY_STATE_VALID)
		return SSH_AUTH_SUCCESS;
	return nc_ssh_denied(x, "publickey", user);
}

/* ---- channel ---- */

static int
nc_ssh_data(ssh_session ssh, ssh_channel ch, void *data, uint32_t len,
    int is_stderr, void *arg)
{
	struct nc_ssh	*x = arg;

	if (is_stderr || !x->subsystem)
		return (int)len;
	if (x->sess->rd_paused) {
		/* Left in libssh's channel buffer: its window stays
		 * closed, so the peer can send no more (RFC 4254 section
		 * 5.2); nc_ssh_pull reads it once the reader resumes. */
		x->held = 1;
		return 0;
	}
	nc_chan_in_data(&x->in, data, len);
	return (int)len;
}

static int
nc_ssh_subsystem(ssh_session ssh, ssh_channel ch, const char *name,
    void *arg)
{
	struct nc_ssh	*x = arg;

	if (x->subsystem || strcmp(name, NC_SSH_SUBSYSTEM) != 0)
		return SSH_ERROR;
	x->subsystem = 1;
	x->start = 1;		/* hello once this request is answered */
	return SSH_OK;
}

static void
nc_ssh_chan_gone(ssh_session ssh, ssh_channel ch, void *arg)
{
	struct nc_ssh	*x = arg;

	nc_sess_kill(x->sess, "channel closed");
}

static void
nc_ssh_flush(struct nc_ssh *x)
{
	if (nc_chan_flush(x->chan, &x->in, x->outq) == -1)
		nc_sess_kill(x->sess, "channel write failed");
}

static int
nc_ssh_wontblock(ssh_session ssh, ssh_channel ch, uint32_t bytes,
    void *arg)
{
	struct nc_ssh	*x = arg;

	nc_ssh_flush(x);
	if (evbuffer_get_length(x->outq) == 0 || x->sess->rd_paused)
		nc_sess_drained(x->sess);
	return 0;
}

/*
 * libssh (0.10) calls wontblock when its socket output drained, not when
 * the peer's window adjust came: a session paused on a full output writes
 * nothing, so it would wait for ever for its window to be looked at.
 * After every turn of libssh, a queue the window now takes goes out.
 */
static void
nc_ssh_window_check(struct nc_ssh *x)
{
	if (x->chan != NULL && evbuffer_get_length(x->outq) > 0 &&
	    ssh_channel_window_size(x->chan) > 0)
		nc_ssh_wontblock(x->ssh, x->chan, 0, x);
}

static ssh_channel
nc_ssh_open_session(ssh_session ssh, void *arg)
{
	struct nc_ssh	*x = arg;

	/* One NETCONF channel per connection. */
	if (x->chan != NULL || !x->authed)
		return NULL;
	if ((x->chan = ssh_channel_new(ssh)) == NULL)
		return NULL;
	nc_chan_callbacks(&x->ccb, x, nc_ssh_data, nc_ssh_chan_gone,
	    nc_ssh_wontblock);
	x->ccb.channel_subsystem_request_function = nc_ssh_subsystem;
	ssh_set_channel_callbacks(x->chan, &x->ccb);
	return x->chan;
}

/* ---- output ---- */

static void
nc_ssh_watch_write(struct nc_ssh *x)
{
	if (x->wev != NULL &&
	    (ssh_get_poll_flags(x->ssh) & SSH_WRITE_PENDING))
		event_add(x->wev, NULL);
}

void
nc_ssh_write(struct nc_sess *s, const void *p, size_t len)
{
	struct nc_ssh	*x = s->ssh;
	size_t		 done = 0;

	if (x == NULL)
		return;
	if (evbuffer_get_length(x->outq) == 0 &&
	    nc_chan_put(x->chan, &x->in, p, len, &done) == -1) {
		nc_sess_kill(s, "channel write failed");
		return;
	}
	if (done < len)
		evbuffer_add(x->outq, (const char *)p + done, len - done);
	nc_ssh_watch_write(x);
}

size_t
nc_ssh_pending(const struct nc_sess *s)
{
	const struct nc_ssh	*x = s->ssh;

	if (x == NULL)
		return 0;
	return evbuffer_get_length(x->outq) +
	    ((ssh_get_poll_flags(x->ssh) & SSH_WRITE_PENDING) ? 1 : 0);
}

/* ---- driving libssh from libevent ---- */

static void
nc_ssh_kex(struct nc_ssh *x)
{
	struct nc_sess	*s = x->sess;
	struct nc_dev	*d = s->dev;
	int		 rc;

	if ((rc = ssh_handle_key_exchange(x->ssh)) == SSH_AGAIN)
		return;
	if (rc != SSH_OK) {
		(*d->sim->c.ssh_failures)++;
		if (nc_dev_log_once(d, NCL_SSH))
			log_warnx("device %u: SSH key exchange failed: %s",
			    d->idx, ssh_get_error(x->ssh));
		nc_sess_kill(s, "key exchange failed");
		return;
	}
	if ((x->sev = ssh_event_new()) == NULL ||
	    ssh_event_add_session(x->sev, x->ssh) != SSH_OK)
		fatalx("ssh_event_new");
	s->state = NCS_SSH_AUTH;
}

static void	nc_ssh_io(evutil_socket_t, short, void *);

/* The pause is over: read again, and handle what waited meanwhile. */
static void
nc_ssh_resume(evutil_socket_t fd, short what, void *arg)
{
	struct nc_ssh	*x = arg;

	(void)fd;
	(void)what;
	x->paused = 0;
	if (x->sess->state == NCS_DEAD)
		return;
	event_add(x->rev, NULL);
	nc_ssh_io(event_get_fd(x->rev), EV_READ, x);
}

/*
 * A failed authentication holds the session's reads until the device
 * checks credentials again (--auth-delay after its last failure, on any
 * session), as OpenSSH delays its failure answers: a password guesser
 * gets about one try per delay per device, however many sessions it
 * opens (and at most NC_SSH_MAX_AUTH per connection, each connection a
 * key exchange).
 */
static void
nc_ssh_pause(struct nc_ssh *x)
{
	uint64_t	now = clock_ns(), until = x->sess->dev->auth_next_ns;
	struct timeval	tv;

	x->failed = 0;
	if (until <= now)
		return;
	if (x->pause_ev == NULL)
		x->pause_ev = engine_timer_new(0, nc_ssh_resume, x);
	tv.tv_sec = (time_t)((until - now) / 1000000000);
	tv.tv_usec = (suseconds_t)((until - now) % 1000000000 / 1000);
	event_del(x->rev);
	event_del(x->wev);
	engine_timer_add(x->pause_ev, &tv);
	x->paused = 1;
}

/*
 * The reader resumed: what libssh kept in the channel's buffer while it
 * was paused comes out now (reading it reopens the channel's window),
 * behind what waits in x->in.  From the loop only, never inside libssh.
 */
static void
nc_ssh_pull(struct nc_ssh *x)
{
	struct nc_sess	*s = x->sess;
	char		 buf[16384];
	int		 n = 1;

	while (s->state == NCS_OPEN && !s->rd_paused && x->chan != NULL &&
	    !nc_chan_in_waiting(&x->in) && (n = ssh_channel_read_nonblocking(
	    x->chan, buf, sizeof(buf), 0)) > 0)
		nc_chan_in_data(&x->in, buf, (size_t)n);
	/* Stopped before libssh said it is empty: it may keep more. */
	x->held = n > 0;
	if (n == SSH_ERROR)
		nc_sess_kill(s, "channel read failed");
}

void
nc_ssh_read_on(struct nc_sess *s)
{
	if (s->ssh != NULL)
		nc_chan_in_resume(&s->ssh->in);
}

/* After libssh ran: the hello, the auth limit, a lost connection. */
static void
nc_ssh_after(struct nc_ssh *x)
{
	struct nc_sess	*s = x->sess;

	if (s->state == NCS_SSH_AUTH && x->start) {
		x->start = 0;
		nc_sess_start(s);
	}
	if (!x->authed && x->tries >= NC_SSH_MAX_AUTH) {
		/* RFC 4252 section 4: the server may disconnect. */
		ssh_disconnect(x->ssh);
		nc_sess_kill(s, "too many authentication failures");
	}
	if (s->state != NCS_DEAD && s->state != NCS_SSH_KEX &&
	    !ssh_is_connected(x->ssh))
		nc_sess_kill(s, "connection lost");
	if (s->state == NCS_DEAD) {
		event_del(x->rev);
		event_del(x->wev);
		return;
	}
	if (s->state == NCS_CLOSING || s->rd_paused)
		nc_sess_drained(s);
	nc_ssh_window_check(x);
	if (s->state == NCS_OPEN && !s->rd_paused && x->held)
		nc_ssh_pull(x);
	if (s->state != NCS_DEAD && x->failed)
		nc_ssh_pause(x);
	if (s->state != NCS_DEAD && !x->paused)
		nc_ssh_watch_write(x);
}

static size_t
nc_ssh_feed(void *arg, const void *p, size_t len)
{
	struct nc_ssh	*x = arg;

	return nc_sess_input(x->sess, p, len);
}

static void
nc_ssh_after_fed(void *arg)
{
	nc_ssh_after(arg);
}

static void
nc_ssh_io(evutil_socket_t fd, short what, void *arg)
{
	struct nc_ssh	*x = arg;
	struct nc_sess	*s = x->sess;

	if (s->state == NCS_DEAD)
		return;
	if (s->state == NCS_SSH_AUTH && !x->authed &&
	    clock_ns() < s->dev->auth_next_ns) {
		/* The device checks no credentials now: wait for it. */
		nc_ssh_pause(x);
		return;
	}
	if (s->state == NCS_SSH_KEX)
		nc_ssh_kex(x);
	else if (ssh_event_dopoll(x->sev, 0) == SSH_ERROR)
		nc_sess_kill(s, "connection lost");
	nc_ssh_after(x);
}

void
nc_dev_accept_ssh(struct pool_dev *pd, int fd)
{
	struct nc_dev	*d = (struct nc_dev *)pd;
	struct nc_sess	*s;
	struct nc_ssh	*x;

	if (nc_dev_refuse(d, fd))
		return;
	s = nc_sess_new(d, NC_TR_SSH, fd);
	s->ssh = x = xcalloc(1, sizeof(*x));
	x->sess = s;
	nc_chan_in_init(&x->in, nc_ssh_feed, nc_ssh_after_fed, x);
	if ((x->outq = evbuffer_new()) == NULL || (x->ssh = ssh_new()) == NULL)
		fatalx("netconf: out of memory");
	if (ssh_bind_accept_fd(nc_ssh_srv->bind, x->ssh, fd) != SSH_OK) {
		(*d->sim->c.ssh_failures)++;
		log_warnx("device %u: ssh accept: %s", d->idx,
		    ssh_get_error(nc_ssh_srv->bind));
		if (ssh_get_fd(x->ssh) != fd)
			close(fd);
		nc_sess_kill(s, "ssh accept failed");
		return;
	}
	ssh_set_blocking(x->ssh, 0);
	memset(&x->scb, 0, sizeof(x->scb));
	x->scb.userdata = x;
	x->scb.auth_password_function = nc_ssh_auth_password;
	x->scb.auth_pubkey_function = nc_ssh_auth_pubkey;
	x->scb.channel_open_request_session_function = nc_ssh_open_session;
	ssh_callbacks_init(&x->scb);
	ssh_set_server_callbacks(x->ssh, &x->scb);
	ssh_set_auth_methods(x->ssh, nc_ssh_srv->methods);
	x->rev = event_new(engine_base(), fd, EV_READ | EV_PERSIST, nc_ssh_io,
	    x);
	x->wev = event_new(engine_base(), fd, EV_WRITE, nc_ssh_io, x);
	if (x->rev == NULL || x->wev == NULL)
		fatalx("event_new");
	event_add(x->rev, NULL);
	nc_ssh_kex(x);
	nc_ssh_after(x);
}

void
nc_ssh_reset(struct nc_sess *s)
{
	struct linger	 lg = { 1, 0 };
	struct nc_ssh	*x = s->ssh;

	if (x == NULL || x->ssh == NULL || ssh_get_fd(x->ssh) == -1)
		return;
	x->reset = 1;
	setsockopt(ssh_get_fd(x->ssh), SOL_SOCKET, SO_LINGER, &lg,
	    sizeof(lg));
}

void
nc_ssh_free(struct nc_sess *s)
{
	struct nc_ssh	*x = s->ssh;

	if (x == NULL)
		return;
	if (x->ssh != NULL && x->chan != NULL && !x->reset &&
	    ssh_is_connected(x->ssh)) {
		ssh_channel_send_eof(x->chan);
		ssh_channel_close(x->chan);
	}
	if (x->pause_ev != NULL)
		event_free(x->pause_ev);
	/* Disconnecting closes the descriptor (and frees the channel). */
	nc_chan_free_io(x->rev, x->wev, x->sev, x->ssh, x->outq);
	nc_chan_in_free(&x->in);
	free(x);
	s->ssh = NULL;
}
