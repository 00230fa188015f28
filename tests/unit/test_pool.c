/*
 * Unit tests of the device skeleton in src/core/pool.c over a bufferevent pair
 * (no sockets): pool_read() with a framer (messages split anywhere,
 * several in one chunk, a bad header, the back-pressure rule and
 * pool_read_resume(), a message that ends the session, a stream framer
 * with scan instead of a length header), pool_bev_event()
 * reaching pool_lost() and the protocol's down(), and the usage errors of
 * run_pool_config() (it exits: those run in a child); and the engine's
 * helpers for the devices' sessions: engine_bev_send(), engine_sess_move()
 * and engine_sess_name(), engine_soon().
 */
#include <sys/wait.h>

#include <arpa/inet.h>

#include <errno.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "buf.h"
#include "cli.h"
#include "engine.h"
#include "log.h"
#include "pool.h"
#include "run.h"

#include "check.h"

#define BAD_TYPE	0xff	/* a header length() refuses */
#define MAX_MSGS	64

/* A device of a made-up protocol: 4-byte header (type, 0, length in
 * network order, header included), then the body. */
struct tdev {
	struct pool_dev		 pd;
	struct bufferevent	*bev, *peer;
	int			 full;		/* out_full() says so */
	int			 full_after;	/* full once this many read */
	int			 stop_at;	/* message() -1 on this one */
	int			 rc;		/* pool_read's last return */
	int			 reads;		/* read callbacks */
	int			 n_msgs;
	size_t			 lens[MAX_MSGS];
	uint8_t			 got[4096];
	size_t			 got_len;
	int			 downs;
	char			 why[128];
};

static long
t_length(void *dev, const uint8_t *hdr)
{
	(void)dev;
	if (hdr[0] == BAD_TYPE)
		return -1;
	return (long)((hdr[2] << 8) | hdr[3]);
}

static int
t_out_full(void *dev)
{
	struct tdev	*d = dev;

	return d->full;
}

static int
t_message(void *dev, const uint8_t *msg, size_t len)
{
	struct tdev	*d = dev;

	if (d->n_msgs == MAX_MSGS || d->got_len + len > sizeof(d->got))
		return -1;
	d->lens[d->n_msgs++] = len;
	memcpy(d->got + d->got_len, msg, len);
	d->got_len += len;
	if (d->full_after != 0 && d->n_msgs == d->full_after)
		d->full = 1;
	return d->n_msgs == d->stop_at ? -1 : 0;
}

static const struct pool_framer framer = {
	.hdr_len = 4,
	.length = t_length,
	.out_full = t_out_full,
	.message = t_message,
};

static void
t_read(struct bufferevent *bev, void *arg)
{
	struct tdev	*d = arg;

	d->reads++;
	d->rc = pool_read(bev, &framer, d);
}

static void
t_event(struct bufferevent *bev, short what, void *arg)
{
	struct tdev	*d = arg;

	/* Outside a pool (the reader's cases) nothing is lost. */
	if (d->pd.pool != NULL)
		pool_bev_event(bev, what, d);
}

static void
t_up(struct pool_dev *pd, struct bufferevent *bev)
{
	(void)pd;
	(void)bev;
}

static void
t_down(struct pool_dev *pd, const char *why)
{
	struct tdev	*d = (struct tdev *)(void *)pd;

	d->downs++;
	snprintf(d->why, sizeof(d->why), "%s", why);
}

static const struct pool_ops ops = { t_up, t_down, "the test peer" };

/* The pair runs its callbacks from the loop (deferred): run it until
 * nothing is left to do. */
static void
pump(void)
{
	event_base_loop(engine_base(), EVLOOP_NONBLOCK);
}

/* A fresh device and its peer, both ends reading and writing. */
static void
tdev_new(struct tdev *d)
{
	struct bufferevent	*pair[2];

	memset(d, 0, sizeof(*d));
	if (bufferevent_pair_new(engine_base(), 0, pair) == -1)
		fatalx("bufferevent_pair_new");
	d->bev = pair[0];
	d->peer = pair[1];
	bufferevent_setcb(d->bev, t_read, NULL, t_event, d);
	bufferevent_enable(d->bev, EV_READ | EV_WRITE);
	bufferevent_enable(d->peer, EV_READ | EV_WRITE);
}

static void
tdev_free(struct tdev *d)
{
	/* Once in a pool, the pool frees bev (pool_lost, pool_stop). */
	if (d->pd.pool == NULL)
		bufferevent_free(d->bev);
	else if (d->pd.bev != NULL)
		bufferevent_free(d->pd.bev);
	if (d->peer != NULL)
		bufferevent_free(d->peer);
	d->bev = d->peer = NULL;
	/* Freed bufferevents are finalized by the loop. */
	pump();
}

/* The peer sends; the device reads what it can. */
static void
tdev_send(struct tdev *d, const void *buf, size_t len)
{
	bufferevent_write(d->peer, buf, len);
	pump();
}

static size_t
tdev_queued(const struct tdev *d)
{
	return evbuffer_get_length(bufferevent_get_input(d->bev));
}

/* Three messages of 4, 9 and 6 bytes, one after the other. */
static const uint8_t stream[] = {
	0x01, 0x00, 0x00, 0x04,
	0x02, 0x00, 0x00, 0x09, 'h', 'e', 'l', 'l', 'o',
	0x03, 0x00, 0x00, 0x06, 0xaa, 0xbb,
};

static int
got_stream(const struct tdev *d)
{
	return d->n_msgs == 3 && d->lens[0] == 4 && d->lens[1] == 9 &&
	    d->lens[2] == 6 && d->got_len == sizeof(stream) &&
	    memcmp(d->got, stream, sizeof(stream)) == 0;
}

static void
test_split_everywhere(void)
{
	struct tdev	d;
	size_t		k, bad = 0;

	for (k = 0; k <= sizeof(stream); k++) {
		tdev_new(&d);
		tdev_send(&d, stream, k);
		tdev_send(&d, stream + k, sizeof(stream) - k);
		if (!got_stream(&d) || d.rc != 0 || tdev_queued(&d) != 0) {
			printf("# split at %zu: %d messages, rc %d\n", k,
			    d.n_msgs, d.rc);
			bad++;
		}
		tdev_free(&d);
	}
	CHECK(bad == 0, "split in two at each of %zu places", k);
	tdev_new(&d);
	for (k = 0; k < sizeof(stream); k++)
		tdev_send(&d, stream + k, 1);
	CHECK(got_stream(&d) && d.reads == (int)sizeof(stream) && d.rc == 0,
	    "a byte at a time: %d messages in %d reads", d.n_msgs, d.reads);
	tdev_free(&d);
}

static void
test_one_chunk(void)
{
	struct tdev	d;

	tdev_new(&d);
	tdev_send(&d, stream, sizeof(stream));
	CHECK(got_stream(&d) && d.reads == 1 && d.rc == 0,
	    "three messages in one chunk, one read: %d", d.reads);
	tdev_send(&d, stream, 6);
	CHECK(d.n_msgs == 4 && tdev_queued(&d) == 2 && d.rc == 0,
	    "a whole message and a part: the part waits");
	tdev_free(&d);
}

static void
test_bad_header(void)
{
	struct tdev	d;
	uint8_t		buf[sizeof(stream)];

	memcpy(buf, stream, sizeof(buf));
	buf[4] = BAD_TYPE;
	tdev_new(&d);
	tdev_send(&d, buf, sizeof(buf));
	CHECK(d.rc == -1 && d.n_msgs == 1 && d.lens[0] == 4,
	    "a bad header: -1, after the message before it");
	CHECK(tdev_queued(&d) == sizeof(buf) - 4,
	    "nothing after the bad header is taken: %zu left",
	    tdev_queued(&d));
	tdev_free(&d);
}

static void
test_back_pressure(void)
{
	struct tdev	d;

	tdev_new(&d);
	d.full = 1;
	tdev_send(&d, stream, 13);
	CHECK(d.rc == 0 && d.n_msgs == 0 && tdev_queued(&d) == 13,
	    "output full: nothing read, both messages queued");
	CHECK(!(bufferevent_get_enabled(d.bev) & EV_READ),
	    "output full: EV_READ off");
	tdev_send(&d, stream + 13, sizeof(stream) - 13);
	CHECK(d.n_msgs == 0 && tdev_queued(&d) == 13,
	    "what the peer sends meanwhile waits on its side");
	CHECK(pool_read_resume(d.bev, &framer, &d) == 0 && d.n_msgs == 0 &&
	    !(bufferevent_get_enabled(d.bev) & EV_READ),
	    "resume while still full: reading stops again");
	d.full = 0;
	CHECK(pool_read_resume(d.bev, &framer, &d) == 0 && got_stream(&d) &&
	    tdev_queued(&d) == 0, "resume: the queued messages, in order");
	CHECK(bufferevent_get_enabled(d.bev) & EV_READ, "resume: EV_READ on");
	CHECK(pool_read_resume(d.bev, &framer, &d) == 0 && d.n_msgs == 3,
	    "resume while reading: nothing to do");
	tdev_free(&d);
}

/* The output fills up on the way: the rest of the chunk waits. */
static void
test_back_pressure_midway(void)
{
	struct tdev	d;

	tdev_new(&d);
	d.full_after = 1;
	tdev_send(&d, stream, sizeof(stream));
	CHECK(d.rc == 0 && d.n_msgs == 1 &&
	    tdev_queued(&d) == sizeof(stream) - 4 &&
	    !(bufferevent_get_enabled(d.bev) & EV_READ),
	    "full after the first message: the other two wait");
	d.full = 0;
	d.full_after = 0;
	CHECK(pool_read_resume(d.bev, &framer, &d) == 0 && got_stream(&d),
	    "resume: the other two");
	tdev_free(&d);
}

static void
test_message_ends(void)
{
	struct tdev	d;

	tdev_new(&d);
	d.stop_at = 2;
	tdev_send(&d, stream, sizeof(stream));
	CHECK(d.rc == -1 && d.n_msgs == 2,
	    "message() -1: pool_read -1, nothing after it read");
	tdev_free(&d);
}

/* ---- pool_bev_event and pool_lost ---- */

struct tpool {
	struct pool		 p;
	struct pool_dev		*devs[1];
};

/* d connected and up in a pool of one. */
static void
tpool_up(struct tpool *tp, struct tdev *d, enum ep_kind kind, int reconnect)
{
	struct pool_config	cfg;

	tdev_new(d);
	pool_config_defaults(&cfg);
	cfg.ep.kind = kind;
	cfg.reconnect = reconnect;
	tp->devs[0] = &d->pd;
	pool_init(&tp->p, &cfg, &ops, tp->devs, 1);
	d->pd.bev = d->bev;
	d->pd.state = PD_UP;
}

static void
test_event_eof(void)
{
	struct tpool	tp;
	struct tdev	d;

	tpool_up(&tp, &d, EP_TCP, 0);
	bufferevent_flush(d.peer, EV_WRITE, BEV_FINISHED);
	pump();
	CHECK(d.downs == 1 &&
	    strcmp(d.why, "the test peer closed the connection") == 0,
	    "EOF: down(\"%s\")", d.why);
	CHECK(d.pd.bev == NULL && d.pd.state == PD_STOPPED &&
	    tp.p.stats.drops == 1, "EOF: bev freed, no reconnect: stopped");
	pool_bev_event(NULL, BEV_EVENT_EOF, &d);
	CHECK(d.downs == 1 && tp.p.stats.drops == 1,
	    "a second EOF after the loss is ignored");
	tdev_free(&d);
}

static void
test_event_error(void)
{
	struct tpool	tp;
	struct tdev	d;

	tpool_up(&tp, &d, EP_PTCP, 1);
	/* The event callback itself: the pair defers its callbacks, and
	 * the loop would not keep errno. */
	errno = ECONNRESET;
	pool_bev_event(d.bev, BEV_EVENT_ERROR | BEV_EVENT_READING, &d);
	CHECK(d.downs == 1 && strcmp(d.why, strerror(ECONNRESET)) == 0,
	    "error: down(\"%s\")", d.why);
	CHECK(d.pd.bev == NULL && d.pd.state == PD_LISTENING,
	    "error on a passive device: listening again");
	tdev_free(&d);
}

static void
test_event_other(void)
{
	struct tpool	tp;
	struct tdev	d;

	tpool_up(&tp, &d, EP_TCP, 0);
	pool_bev_event(d.bev, BEV_EVENT_TIMEOUT | BEV_EVENT_READING, &d);
	pool_bev_event(d.bev, BEV_EVENT_CONNECTED, &d);
	CHECK(d.downs == 0 && d.pd.state == PD_UP && d.pd.bev == d.bev,
	    "a timeout or connected event loses nothing");
	pool_lost(&d.pd, "done");
	tdev_free(&d);
}

/* A closing session is lost once its last bytes are written. */
static void
test_lost_drained(void)
{
	struct tpool	tp;
	struct tdev	d;

	tpool_up(&tp, &d, EP_TCP, 0);
	/* A peer that does not read keeps the bytes in our output. */
	bufferevent_disable(d.peer, EV_READ);
	bufferevent_write(d.bev, "bye", 3);
	pool_lost_drained(&d.pd, "farewell sent");
	CHECK(d.downs == 0 && d.pd.state == PD_UP,
	    "output still queued: nothing lost");
	bufferevent_enable(d.peer, EV_READ);
	pump();
	pool_lost_drained(&d.pd, "farewell sent");
	CHECK(d.downs == 1 && strcmp(d.why, "farewell sent") == 0 &&
	    d.pd.bev == NULL, "written: lost (\"%s\")", d.why);
	pool_lost_drained(&d.pd, "again");
	CHECK(d.downs == 1, "after the loss: nothing more");
	tdev_free(&d);
}

static void
test_event_reconnect(void)
{
	struct tpool	tp;
	struct tdev	d;

	tpool_up(&tp, &d, EP_TCP, 1);
	bufferevent_flush(d.peer, EV_WRITE, BEV_FINISHED);
	pump();
	CHECK(d.downs == 1 && d.pd.state == PD_BACKOFF &&
	    d.pd.attempts == 1 && d.pd.retry != NULL &&
	    evtimer_pending(d.pd.retry, NULL),
	    "EOF with reconnect: backoff, a retry timer set");
	pool_stop(&tp.p);
	CHECK(d.pd.state == PD_STOPPED && d.pd.retry == NULL,
	    "pool_stop: stopped, timer freed");
	tdev_free(&d);
}

/* ---- run_pool_config's usage errors, in a child ---- */

struct rpc {
	const char	*ep, *source;
	unsigned	 kinds;
	uint32_t	 devices;
};

/* run_pool_config in a child; its exit status (42: it returned) and
 * its stderr. */
static int
rpc_child(const struct rpc *a, char *err, size_t errlen)
{
	struct run_opts		ro;
	struct pool_config	pc;
	int			fds[2], st;
	pid_t			pid;
	ssize_t			n;
	size_t			used;

	fflush(stdout);
	if (pipe(fds) == -1 || (pid = fork()) == -1)
		fatalx("fork");
	if (pid == 0) {
		dup2(fds[1], 2);
		memset(&ro, 0, sizeof(ro));
		ro.cmd = "test";
		ro.controller = a->ep;
		ro.source = a->source;
		run_pool_config(&pc, &ro, "--controller", a->ep, a->kinds,
		    "tcp:IP:PORT or ptcp:PORT", a->devices);
		exit(42);
	}
	close(fds[1]);
	for (used = 0; used + 1 < errlen &&
	    (n = read(fds[0], err + used, errlen - 1 - used)) > 0;)
		used += (size_t)n;
	err[used] = '\0';
	close(fds[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#define TCP_PTCP	(1u << EP_TCP | 1u << EP_PTCP)

#define CHECK_RPC_DIES(want, ...) do {					\
	struct rpc	_a = { __VA_ARGS__ };				\
	char		_err[512];					\
	int		_st = rpc_child(&_a, _err, sizeof(_err));	\
	CHECK(_st == 2 && strcmp(_err, "sbsim test: " want "\n") == 0,	\
	    "exit %d: %.*s", _st, (int)strcspn(_err, "\n"), _err);	\
} while (0)

static void
test_config_errors(void)
{
	struct rpc	ok = { "tcp:192.0.2.1:6653", NULL, TCP_PTCP, 10 };
	char		err[512];

	CHECK_RPC_DIES("--controller is required (tcp:IP:PORT or "
	    "ptcp:PORT)", NULL, NULL, TCP_PTCP, 1);
	CHECK_RPC_DIES("--controller: 'foo': expected tcp:IP:PORT, "
	    "ssl:IP:PORT, ptcp:PORT[:IP] or pssl:PORT[:IP]", "foo", NULL,
	    TCP_PTCP, 1);
	CHECK_RPC_DIES("--controller: tcp:IP:PORT or ptcp:PORT",
	    "ssl:127.0.0.1:6653", NULL, TCP_PTCP, 1);
	CHECK_RPC_DIES("--source makes no sense with ptcp: (the devices "
	    "listen)", "ptcp:6653", "10.0.0.0/24", TCP_PTCP, 1);
	CHECK_RPC_DIES("--source 10.0.0.0/30 has 2 addresses for 10 devices",
	    "tcp:192.0.2.1:6653", "10.0.0.0/30", TCP_PTCP, 10);
	CHECK_RPC_DIES("--source fd00::/64 and --controller "
	    "tcp:192.0.2.1:6653 are of different address families",
	    "tcp:192.0.2.1:6653", "fd00::/64", TCP_PTCP, 10);
	CHECK(rpc_child(&ok, err, sizeof(err)) == 42 && err[0] == '\0',
	    "a good configuration returns");
}

static void
test_config_values(void)
{
	struct run_opts		ro;
	struct pool_config	pc;

	memset(&ro, 0, sizeof(ro));
	ro.cmd = "test";
	ro.connect_rate = 500;
	ro.max_inflight = 7;
	ro.backoff_min_ms = 11;
	ro.backoff_max_ms = 13;
	run_pool_config(&pc, &ro, "--pce", "tcp:127.0.0.1:4189",
	    1u << EP_TCP, "tcp:IP:PORT", 100);
	CHECK(pc.src.family == AF_INET && strcmp(pc.src.text,
	    "127.1.0.0/16") == 0, "loopback controller: 127.1.0.0/16");
	CHECK(pc.connect_rate == 500 && pc.max_inflight == 7 &&
	    pc.backoff_min_ms == 11 && pc.backoff_max_ms == 13 &&
	    pc.reconnect == 1 && pc.ep.port == 4189,
	    "ramp and backoff from the run options");
	run_pool_config(&pc, &ro, "--pce", "tcp:192.0.2.1:4189",
	    1u << EP_TCP, "tcp:IP:PORT", 100);
	CHECK(pc.src.family == AF_UNSPEC, "other controller: no source");
	run_pool_config(&pc, &ro, "--pce", "ptcp:4189", 1u << EP_PTCP,
	    "ptcp:PORT", 100);
	CHECK(pc.src.family == AF_UNSPEC && pc.ep.kind == EP_PTCP,
	    "passive: no source");
}

/* pool_init_array: the pool's own pointers into an array of device
 * structs, each with its pool_dev at an offset; pool_free drops them. */
struct array_dev {
	char		 before[24];
	struct pool_dev	 pd;
	int		 after;
};

static void
test_init_array(void)
{
	static const struct pool_ops	no_ops;
	struct array_dev		devs[5];
	struct pool_config		cfg;
	struct pool			p;
	uint32_t			i;
	int				ok = 1;

	memset(devs, 0, sizeof(devs));
	pool_config_defaults(&cfg);
	pool_init_array(&p, &cfg, &no_ops, devs, sizeof(devs[0]),
	    offsetof(struct array_dev, pd), 5);
	for (i = 0; i < 5; i++)
		ok &= p.devs[i] == &devs[i].pd && devs[i].pd.pool == &p &&
		    devs[i].pd.index == i && devs[i].pd.state == PD_IDLE;
	CHECK(ok && p.n_devs == 5, "each pointer at its device's pool_dev");
	pool_free(&p);
	CHECK(p.devs == NULL && p.n_devs == 0, "pool_free lets them go");
	pool_free(&p);
	CHECK(p.devs == NULL, "pool_free twice is harmless");
}

/* A stream framer (pool_framer.scan): messages end with a newline; a
 * '!' makes the stream bad. */
static long
t_scan(void *dev, struct evbuffer *in)
{
	struct evbuffer_ptr	 p;
	uint8_t			*data;
	size_t			 n = evbuffer_get_length(in);

	(void)dev;
	data = evbuffer_pullup(in, (ssize_t)n);
	if (memchr(data, '!', n) != NULL)
		return -1;
	p = evbuffer_search(in, "\n", 1, NULL);
	return p.pos == -1 ? 0 : (long)p.pos + 1;
}

static const struct pool_framer scan_framer = {
	.scan = t_scan,
	.out_full = t_out_full,
	.message = t_message,
};

static void
t_read_scan(struct bufferevent *bev, void *arg)
{
	struct tdev	*d = arg;

	d->reads++;
	d->rc = pool_read(bev, &scan_framer, d);
}

static void
test_scan(void)
{
	static const char	lines[] = "one\ntwo\n\nthree\n";
	struct tdev		d;
	size_t			k, bad = 0;

	for (k = 0; k < sizeof(lines) - 1; k++) {
		tdev_new(&d);
		bufferevent_setcb(d.bev, t_read_scan, NULL, t_event, &d);
		tdev_send(&d, lines, k);
		tdev_send(&d, lines + k, sizeof(lines) - 1 - k);
		if (d.n_msgs != 4 || d.lens[0] != 4 || d.lens[2] != 1 ||
		    d.got_len != sizeof(lines) - 1 || tdev_queued(&d) != 0)
			bad++;
		tdev_free(&d);
	}
	CHECK(bad == 0, "scan: lines split anywhere come out whole (%zu bad)",
	    bad);
	tdev_new(&d);
	bufferevent_setcb(d.bev, t_read_scan, NULL, t_event, &d);
	tdev_send(&d, "half", 4);
	CHECK(d.n_msgs == 0 && d.rc == 0 && tdev_queued(&d) == 4,
	    "scan: a message not all there waits");
	tdev_send(&d, "!\n", 2);
	CHECK(d.n_msgs == 0 && d.rc == -1, "scan: a bad stream is -1");
	tdev_free(&d);
	tdev_new(&d);
	bufferevent_setcb(d.bev, t_read_scan, NULL, t_event, &d);
	d.full_after = 1;
	tdev_send(&d, "a\nb\n", 4);
	CHECK(d.n_msgs == 1 && tdev_queued(&d) == 2 &&
	    !(bufferevent_get_enabled(d.bev) & EV_READ),
	    "scan: back pressure stops after the first");
	tdev_free(&d);
}

/* The shared listener finds a device from the address a connection
 * reached: source_index() undoes source_addr(), and knows no other. */
static void
test_source_index(void)
{
	struct source_range	r4, r6;
	struct sockaddr_storage	ss;
	socklen_t		len;
	char			err[128];
	int			bad = 0;
	uint64_t		i;

	CHECK(source_parse("127.9.0.0/16", &r4, err, sizeof(err)) == 0 &&
	    source_parse("fd00::ff00:0/100", &r6, err, sizeof(err)) == 0,
	    "ranges parsed");
	for (i = 0; i < r4.count; i += 97) {
		source_addr(&r4, i, &ss, &len);
		bad += source_index(&r4, &ss) != (int64_t)i;
		source_addr(&r6, i, &ss, &len);
		bad += source_index(&r6, &ss) != (int64_t)i;
	}
	CHECK(bad == 0, "each address's index is its own (v4 and v6)");
	source_addr(&r4, r4.count - 1, &ss, &len);
	((struct sockaddr_in *)&ss)->sin_addr.s_addr =
	    htonl(ntohl(((struct sockaddr_in *)&ss)->sin_addr.s_addr) + 1);
	CHECK(source_index(&r4, &ss) == -1, "past the range: none");
	((struct sockaddr_in *)&ss)->sin_addr.s_addr = htonl(0x7f000001);
	CHECK(source_index(&r4, &ss) == -1, "127.0.0.1, below it: none");
	CHECK(source_index(&r6, &ss) == -1, "another family: none");
	source_addr(&r6, 3, &ss, &len);
	((struct sockaddr_in6 *)&ss)->sin6_addr.s6_addr[5] ^= 1;
	CHECK(source_index(&r6, &ss) == -1, "another v6 prefix: none");
}

static const char *
t_who(const void *dev)
{
	(void)dev;
	return "tdev";
}

/* Queued when built whole, nothing without a connection, dropped when
 * the message overflowed its buffer. */
static void
test_bev_send(void)
{
	struct tdev	d;
	struct wbuf	w;
	uint8_t		mem[4];

	tdev_new(&d);
	wbuf_init(&w, mem, sizeof(mem));
	CHECK(engine_bev_send(d.bev, &w, t_who, &d) == 0, "empty: nothing");
	wbuf_put_u32(&w, 0x01020304);
	CHECK(engine_bev_send(NULL, &w, t_who, &d) == 0, "no bev: nothing");
	CHECK(engine_bev_send(d.bev, &w, t_who, &d) == 1, "queued");
	wbuf_put_u8(&w, 5);
	CHECK(w.err && engine_bev_send(d.bev, &w, t_who, &d) == -1,
	    "overflowed: dropped");
	pump();
	CHECK(evbuffer_get_length(bufferevent_get_input(d.peer)) == 4,
	    "the peer got the one message");
	tdev_free(&d);
}

static void
test_sess_move(void)
{
	static const char *const names[] = { "Idle", "Up", "Closing" };
	static const struct engine_fsm fsm = { names, 1 };
	uint8_t		state = 0;
	uint32_t	up = 0;

	CHECK(engine_sess_move(&fsm, &state, 0, &up, t_who, NULL, "x") == 0,
	    "same state: no move");
	CHECK(engine_sess_move(&fsm, &state, 1, &up, t_who, NULL, "x") == 1 &&
	    state == 1 && up == 1, "up: counted");
	CHECK(engine_sess_move(&fsm, &state, 2, &up, t_who, NULL, "x") == 1 &&
	    state == 2 && up == 0, "down: uncounted");
	CHECK(engine_sess_move(&fsm, &state, 1, NULL, t_who, NULL, "x") == 1 &&
	    up == 0, "not counted without up");
	CHECK(strcmp(engine_sess_name("pcc", 3, "PCE", 2, 1), "pcc 3") == 0,
	    "one endpoint: no suffix");
	CHECK(strcmp(engine_sess_name("peer", 3, "speaker", 2, 4),
	    "peer 3 (speaker 2)") == 0, "several: which one");
}

struct t_soon {
	struct engine_soon	*s;
	int			 runs, again, free_it;
};

static void
t_soon_run(void *arg)
{
	struct t_soon	*t = arg;

	t->runs++;
	if (t->again-- > 0)
		engine_soon(t->s);
	if (t->free_it)
		engine_soon_free(&t->s);
}

/* Asked twice before it ran: once; asked from inside: again; it may
 * free itself. */
static void
test_soon(void)
{
	struct t_soon	t = { NULL, 0, 0, 0 };

	t.s = engine_soon_new(t_soon_run, &t);
	engine_soon(t.s);
	engine_soon(t.s);
	CHECK(t.runs == 0, "not before the loop");
	pump();
	CHECK(t.runs == 1, "asked twice: run once (%d)", t.runs);
	t.again = 1;
	engine_soon(t.s);
	pump();
	pump();
	CHECK(t.runs == 3, "asked from inside: run again (%d)", t.runs);
	t.free_it = 1;
	engine_soon(t.s);
	pump();
	CHECK(t.runs == 4 && t.s == NULL, "freed by its own run");
	engine_soon_free(&t.s);
}

static const struct check_case cases[] = {
	CASE(test_split_everywhere),
	CASE(test_one_chunk),
	CASE(test_bad_header),
	CASE(test_back_pressure),
	CASE(test_back_pressure_midway),
	CASE(test_message_ends),
	CASE(test_scan),
	CASE(test_event_eof),
	CASE(test_event_error),
	CASE(test_event_other),
	CASE(test_lost_drained),
	CASE(test_event_reconnect),
	CASE(test_config_errors),
	CASE(test_config_values),
	CASE(test_init_array),
	CASE(test_source_index),
	CASE(test_bev_send),
	CASE(test_sess_move),
	CASE(test_soon),
};

int
main(int argc, char **argv)
{
	int	rc;

	log_init("test_pool", LOG_QUIET);
	engine_init();
	rc = check_run(cases, argc, argv);
	engine_free();
	return rc;
}
