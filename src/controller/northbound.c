/*
 * The northbound driver's generic part: options, the HTTP client (one
 * evhttp keep-alive connection per parallel slot, no retries), the order
 * of the requests and the phases (see northbound.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <jansson.h>

#include "engine.h"
#include "http_server.h"
#include "log.h"
#include "cli.h"
#include "northbound.h"
#include "opt.h"
#include "run.h"

void
nb_opts_defaults(struct nb_opts *o, const struct nb_driver *const *drivers)
{
	memset(o, 0, sizeof(*o));
	o->drivers = drivers;
	o->per_request = 1;
	o->parallel = 1;
	o->user = "admin";
	o->password = "admin";
	o->style = NB_STYLE_RFC8040;
	o->format = NB_FMT_JSON;
	o->timeout_s = 60;
	o->poll_s = 0.5;
}

int
nb_parse_url(const char *url, struct nb_opts *o, char *err, size_t errlen)
{
	const struct nb_driver *const	*d;
	const char			*rest, *colon, *hend;
	char				*end;
	unsigned long			 port;
	size_t				 hlen;

	o->driver = NULL;
	for (d = o->drivers; d != NULL && *d != NULL; d++) {
		size_t	n = strlen((*d)->name);

		if (strncmp(url, (*d)->name, n) == 0 && url[n] == ':') {
			o->driver = *d;
			break;
		}
	}
	if (o->driver == NULL) {
		snprintf(err, errlen, "--northbound: '%s' is not %s:http://"
		    "IP:PORT", url, o->drivers != NULL && o->drivers[0] !=
		    NULL ? o->drivers[0]->name : "odl");
		return -1;
	}
	rest = url + strlen(o->driver->name) + 1;
	if (strncmp(rest, "http://", 7) != 0) {
		snprintf(err, errlen, "--northbound: '%s': only http:// is "
		    "supported", url);
		return -1;
	}
	rest += 7;
	if (*rest == '[') {
		if ((hend = strchr(rest, ']')) == NULL || hend[1] != ':')
			goto bad;
		rest++;
		colon = hend + 1;
	} else {
		if ((colon = strrchr(rest, ':')) == NULL)
			goto bad;
		hend = colon;
	}
	hlen = (size_t)(hend - rest);
	if (hlen == 0 || hlen >= sizeof(o->host) || memchr(rest, '/', hlen))
		goto bad;
	memcpy(o->host, rest, hlen);
	o->host[hlen] = '\0';
	port = strtoul(colon + 1, &end, 10);
	if (colon[1] < '0' || colon[1] > '9' || port == 0 || port > 65535 ||
	    (*end != '\0' && strcmp(end, "/") != 0))
		goto bad;
	o->port = (uint16_t)port;
	return 0;
bad:
	snprintf(err, errlen, "--northbound: '%s' is not %s:http://IP:PORT",
	    url, o->driver->name);
	return -1;
}

/* ---- the northbound options as declared rows (opt.h) ---- */

static int
nb_url_row(void *base, const char *arg, char *err, size_t errlen)
{
	struct nb_opts	*o = base;

	o->url = arg;
	return nb_parse_url(arg, o, err, errlen);
}

/* A user name or password into a const char *, at most NB_CRED_MAX - 1
 * characters. */
static int
nb_cred_opt(const char *name, const char *arg, void *field, char *err,
    size_t errlen)
{
	if (strlen(arg) >= NB_CRED_MAX) {
		snprintf(err, errlen, "--%s: longer than %d characters", name,
		    NB_CRED_MAX - 1);
		return -1;
	}
	memcpy(field, &arg, sizeof(arg));
	return 0;
}

static const char *const nb_style_names[] = { "rfc8040", "draft", NULL };
static const char *const nb_format_names[] = { "json", "xml", NULL };

#define NBO	struct nb_opts
const struct opt nb_opt_rows[] = {
	OPT_FN("northbound", "URL", nb_url_row, NB_GIVEN_URL | NB_GIVEN_ANY,
	    "DRIVER:http://IP:PORT, e.g. odl:http://127.0.0.1:8181\n"
	    "(OpenDaylight RESTCONF)"),
	OPT_U("northbound-parallel", "P", NBO, parallel, 1, 1024,
	    NB_GIVEN_ANY, "requests in flight"),
	OPT_P("northbound-user", "U", NBO, user, const char *, nb_cred_opt,
	    NB_GIVEN_ANY, "basic auth user", .show = opt_show_string),
	OPT_P("northbound-password", "P", NBO, password, const char *,
	    nb_cred_opt, NB_GIVEN_ANY,
	    "basic auth password", .show = opt_show_string),
	OPT_E("northbound-style", "S", NBO, style, nb_style_names,
	    NB_GIVEN_ANY, "rfc8040 (/rests/data) or draft (/restconf)"),
	OPT_E("northbound-format", "F", NBO, format, nb_format_names,
	    NB_GIVEN_ANY | NB_GIVEN_FORMAT, "json or xml"),
	OPT_END
};
#undef NBO

uint32_t
nb_fds_needed(const struct nb_opts *o)
{
	return o->url != NULL ? o->parallel : 0;
}

void
nb_json_list(const struct nb_opts *o, struct evbuffer *b, const char *head,
    nb_item_fn item, uint64_t first, uint32_t n, const char *tail)
{
	uint32_t	i;

	evbuffer_add(b, head, strlen(head));
	for (i = 0; i < n; i++) {
		if (i > 0)
			evbuffer_add(b, ",", 1);
		item(o, first + i, b);
	}
	evbuffer_add(b, tail, strlen(tail));
}

void
nb_json_add(struct evbuffer *b, json_t *j)
{
	char	*s;

	if (j == NULL || (s = json_dumps(j, JSON_COMPACT)) == NULL)
		fatalx("json_pack");
	evbuffer_add(b, s, strlen(s));
	free(s);
	json_decref(j);
}

const char *
nb_media(const struct nb_opts *o)
{
	if (o->format == NB_FMT_XML)
		return o->style == NB_STYLE_RFC8040 ?
		    "application/yang-data+xml" : "application/xml";
	return o->style == NB_STYLE_RFC8040 ?
	    "application/yang-data+json" : "application/json";
}

int
nb_topo_path(const struct nb_opts *o, const char *topo, int config,
    const char *node, const char *tail, const char *query, char *out,
    size_t cap)
{
	char	tenc[3 * NB_NODE_MAX + 1], enc[3 * NB_PATH_MAX + 1];
	int	n;

	if (nb_pct_encode(topo, tenc, sizeof(tenc)) == -1 ||
	    (node != NULL && nb_pct_encode(node, enc, sizeof(enc)) == -1))
		return -1;
	if (o->style == NB_STYLE_RFC8040)
		n = snprintf(out, cap, "/rests/data/network-topology:"
		    "network-topology/topology=%s%s%s%s%s%s", tenc,
		    node ? "/node=" : "", node ? enc : "", tail ? tail : "",
		    query && !config ? "?" : "", query && !config ? query :
		    "");
	else
		n = snprintf(out, cap, "/restconf/%s/network-topology:"
		    "network-topology/topology/%s%s%s%s", config ? "config" :
		    "operational", topo, node ? "/node/" : "", node ? enc : "",
		    tail ? tail : "");
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

void
nb_msg_start(const struct nb_opts *o, struct nb_msg *m,
    enum nb_method method)
{
	m->method = method;
	m->accept = nb_media(o);
	m->ctype = method == NB_PUT || method == NB_POST ||
	    method == NB_PATCH ? m->accept : NULL;
}

void
nb_shard(struct nb_opts *o, const struct run_opts *ro, uint32_t first,
    uint32_t count, uint32_t total)
{
	uint64_t	parallel;

	o->flow_base = o->flows / total * first;
	o->flows = run_shard_share(ro, "--flows", o->flows, count, total);
	parallel = (uint64_t)o->parallel * count / total;
	o->parallel = parallel > 0 ? (uint32_t)parallel : 1;
}

/* --northbound-user holds no ':' (RFC 7617 section 2); -1 with err. */
static int
nb_check_user(const struct nb_opts *o, char *err, size_t errlen)
{
	if (strchr(o->user, ':') != NULL) {
		snprintf(err, errlen, "--northbound-user: a user name may not "
		    "hold ':' (RFC 7617 section 2)");
		return -1;
	}
	return 0;
}

int
nb_check(const struct nb_opts *o, char *err, size_t errlen)
{
	if (o->driver == NULL) {
		snprintf(err, errlen, "--flows and the other --northbound-* "
		    "options need --northbound");
		return -1;
	}
	if (o->flows == 0) {
		snprintf(err, errlen, "--northbound needs --flows F");
		return -1;
	}
	if (o->format == NB_FMT_XML && o->per_request != 1) {
		snprintf(err, errlen, "--northbound-format xml sends one flow "
		    "per request (an XML body has one root): use "
		    "--flows-per-request 1");
		return -1;
	}
	return nb_check_user(o, err, errlen);
}

int
nb_check_json_driver(const struct nb_opts *o, unsigned given,
    const char *options, const char *protocol, char *err, size_t errlen)
{
	if (!(given & NB_GIVEN_URL)) {
		snprintf(err, errlen, "the --northbound-*, %s options need "
		    "--northbound", options);
		return -1;
	}
	if (o->format != NB_FMT_JSON) {
		snprintf(err, errlen, "--northbound-format xml: the %s "
		    "northbound sends and reads JSON only", protocol);
		return -1;
	}
	return nb_check_user(o, err, errlen);
}

int
nb_pct_encode(const char *in, char *out, size_t cap)
{
	static const char	hex[] = "0123456789ABCDEF";
	size_t			o = 0;
	unsigned char		c;

	for (; *in != '\0'; in++) {
		c = (unsigned char)*in;
		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '.' ||
		    c == '_' || c == '~') {
			if (o + 1 >= cap)
				return -1;
			out[o++] = (char)c;
		} else {
			if (o + 3 >= cap)
				return -1;
			out[o++] = '%';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
	}
	if (o >= cap)
		return -1;
	out[o] = '\0';
	return 0;
}

int
nb_basic_auth(const char *user, const char *password, char *out, size_t cap)
{
	static const char	b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	char			plain[2 * NB_CRED_MAX + 2];
	size_t			len, i, o;
	uint32_t		v;
	int			n;

	n = snprintf(plain, sizeof(plain), "%s:%s", user, password);
	if (n < 0 || (size_t)n >= sizeof(plain))
		return -1;
	len = (size_t)n;
	if (cap < 6 + 4 * ((len + 2) / 3) + 1)
		return -1;
	memcpy(out, "Basic ", 6);
	o = 6;
	for (i = 0; i < len; i += 3) {
		v = (uint32_t)(unsigned char)plain[i] << 16;
		if (i + 1 < len)
			v |= (uint32_t)(unsigned char)plain[i + 1] << 8;
		if (i + 2 < len)
			v |= (unsigned char)plain[i + 2];
		out[o++] = b64[(v >> 18) & 63];
		out[o++] = b64[(v >> 12) & 63];
		out[o++] = i + 1 < len ? b64[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < len ? b64[v & 63] : '=';
	}
	out[o] = '\0';
	return 0;
}

void
nb_flow_ipv4(uint64_t n, char *out, size_t cap)
{
	uint64_t	v = (n + 1) & 0xffffff;

	snprintf(out, cap, "10.%u.%u.%u", (unsigned)(v >> 16),
	    (unsigned)((v >> 8) & 255), (unsigned)(v & 255));
}

void
nb_node_range(uint64_t flows, uint32_t nnodes, uint32_t j, uint64_t *first,
    uint64_t *end)
{
	/* flows * j fits: flows < 2^63 / 2^20 in practice; use division
	 * with remainder to stay exact without overflow. */
	uint64_t	q = flows / nnodes, r = flows % nnodes;

	*first = q * j + (j < r ? j : r);
	*end = *first + q + (j < r ? 1 : 0);
}

/* The run. */

enum nb_stage {
	NBS_IDLE,
	NBS_PROGRAM,
	NBS_CONFIRM,
	NBS_DELETE,
	NBS_CONFIRM_DELETE,
	NBS_WATCHING,		/* watch mode: confirmed, waiting */
	NBS_DONE,
};

enum nb_job {
	NBJ_ADD,
	NBJ_DEL,
	NBJ_COUNT,
};

struct nb_slot {
	struct nb_run			*run;
	struct evhttp_connection	*conn;
	int				 busy;
	uint64_t			 sent_ns;
	enum nb_method			 method;	/* of the request out */
	char				 path[NB_PATH_MAX];
};

/* A controller that dies fails every request at once: one line at the
 * first, then at most one every this many seconds. */
#define NB_LOST_QUIET_S	10

struct nb_run {
	struct nb_opts	 o;
	struct metrics	*m;
	char		**nodes;
	uint32_t	 nnodes;
	nb_hook		 hook;
	void		*arg;
	enum nb_stage	 stage;
	enum nb_job	 job;
	struct nb_slot	*slots;
	uint32_t	 inflight;
	/* Where this stage stands; each stage starts it from zero. */
	struct {
		uint32_t	 node;		/* job cursor */
		uint64_t	 flow;
		uint64_t	 ok;		/* 2xx answers */
		uint64_t	 poll_sum;
		int		 poll_bad;
		uint64_t	 since_ns;	/* when it (or a round) began */
		uint64_t	 next_poll_ns;
	} cur;
	uint64_t	 seen;		/* items a confirm phase has */
	uint64_t	 view_peak;	/* most flows confirm saw in the view */
	char		 auth[4 * NB_CRED_MAX];
	char		 hostport[NB_HOST_MAX + 16];
	struct phase	*ph_prog, *ph_conf, *ph_del, *ph_cdel;
	uint64_t	*c_req, *c_2xx, *c_4xx, *c_5xx, *c_transport, *c_polls;
	uint64_t	*c_batch;	/* the most flows one write carried */
	struct log_quiet lost_quiet;	/* the "no answer" line */
};

static void	nb_pump(struct nb_run *, uint64_t now);
static void	nb_stage(struct nb_run *, enum nb_stage, enum nb_job,
		    uint64_t now);

/* Requests of a program or delete stage (the nb phase's target). */
static uint64_t
nb_jobs(const struct nb_run *r, enum nb_job job)
{
	uint64_t	first, end, n = 0;
	uint32_t	j, k = r->o.per_request;

	if (k == 1)
		return r->o.flows;
	for (j = 0; j < r->nnodes; j++) {
		nb_node_range(r->o.flows, r->nnodes, j, &first, &end);
		if (end == first)
			continue;
		n += job == NBJ_ADD ? (end - first + k - 1) / k : 1;
	}
	return n;
}

/*
 * A write addresses one node's table, so a batch holds at most that
 * node's flows: --flows-per-request 200 over nodes of 100 flows sends
 * 100 a request.  Said at the start when so; the counter
 * nb_flows_per_request_max keeps the most a write carried.
 */
static void
nb_batch_start(struct nb_run *r, struct metrics *m)
{
	uint64_t	most;

	if (r->o.per_request <= 1 || r->o.watch || r->nnodes == 0)
		return;
	r->c_batch = metrics_counter(m, "nb_flows_per_request_max");
	most = r->o.flows / r->nnodes + (r->o.flows % r->nnodes != 0);
	if (most < r->o.per_request)
		log_warnx("northbound: %llu flows a request, not %u: a request "
		    "addresses one switch's table, and each gets %llu at "
		    "most", (unsigned long long)most, r->o.per_request,
		    (unsigned long long)most);
}

struct nb_run *
nb_new(const struct nb_opts *o, struct metrics *m, char **nodes,
    uint32_t nnodes, nb_hook hook, void *arg)
{
	struct nb_run	*r = xcalloc(1, sizeof(*r));

	r->o = *o;
	r->m = m;
	r->nodes = nodes;
	r->nnodes = nnodes;
	r->hook = hook;
	r->arg = arg;
	nb_basic_auth(o->user, o->password, r->auth, sizeof(r->auth));
	snprintf(r->hostport, sizeof(r->hostport), strchr(o->host, ':') ?
	    "[%s]:%u" : "%s:%u", o->host, o->port);
	r->c_req = metrics_counter(m, "nb_requests");
	r->c_2xx = metrics_counter(m, "nb_http_2xx");
	r->c_4xx = metrics_counter(m, "nb_http_4xx");
	r->c_5xx = metrics_counter(m, "nb_http_5xx");
	r->c_transport = metrics_counter(m, "nb_transport_errors");
	r->c_polls = metrics_counter(m, "nb_polls");
	nb_batch_start(r, m);
	r->ph_conf = metrics_phase(m, o->confirm_name ? o->confirm_name :
	    NB_PHASE_CONFIRM, "northbound");
	r->ph_conf->witness = WITNESS_NORTHBOUND;
	phase_expect(r->ph_conf, o->flows);
	if (!o->watch) {
		r->ph_prog = metrics_phase(m, o->program_name ?
		    o->program_name : NB_PHASE_PROGRAM, "northbound");
		phase_expect(r->ph_prog, nb_jobs(r, NBJ_ADD));
	}
	if (o->no_delete)
		return r;
	r->ph_cdel = metrics_phase(m, o->confirm_delete_name ?
	    o->confirm_delete_name : NB_PHASE_CONFIRM_DELETE, "northbound");
	/* In watch mode removal is someone else's to start
	 * (nb_watch_delete): its confirm is optional. */
	r->ph_cdel->target = o->flows;
	if (!o->watch)
		phase_expect(r->ph_cdel, o->flows);
	if (!o->watch) {
		r->ph_del = metrics_phase(m, o->delete_name ? o->delete_name :
		    NB_PHASE_DELETE, "northbound");
		phase_expect(r->ph_del, nb_jobs(r, NBJ_DEL));
	}
	if (r->ph_cdel != NULL)
		r->ph_cdel->witness = WITNESS_NORTHBOUND;
	return r;
}

int
nb_begin(struct nb_run *r, uint64_t now, char *err, size_t errlen)
{
	struct timeval	tv;
	uint32_t	i;

	r->slots = xcalloc(r->o.parallel, sizeof(*r->slots));
	tv.tv_sec = (time_t)r->o.timeout_s;
	tv.tv_usec = (suseconds_t)((r->o.timeout_s - (double)tv.tv_sec) *
	    1e6);
	for (i = 0; i < r->o.parallel; i++) {
		r->slots[i].run = r;
		r->slots[i].conn = evhttp_connection_base_new(engine_base(),
		    NULL, r->o.host, r->o.port);
		if (r->slots[i].conn == NULL) {
			snprintf(err, errlen, "northbound: cannot make an HTTP "
			    "connection to %s", r->hostport);
			return -1;
		}
		evhttp_connection_set_timeout_tv(r->slots[i].conn, &tv);
		evhttp_connection_set_retries(r->slots[i].conn, 0);
	}
	if (r->o.watch)
		nb_stage(r, NBS_CONFIRM, NBJ_COUNT, now);
	else {
		r->stage = NBS_PROGRAM;
		r->job = NBJ_ADD;
		r->cur.since_ns = now;
	}
	nb_pump(r, now);
	return 0;
}

int
nb_begin_logged(struct nb_run *r, uint64_t now)
{
	char	err[256];

	if (nb_begin(r, now, err, sizeof(err)) == -1) {
		log_warnx("%s", err);
		return -1;
	}
	return 0;
}

int
nb_held(const struct nb_run *r)
{
	return r->o.hold && r->stage == NBS_WATCHING;
}

void
nb_release(struct nb_run *r, uint64_t now)
{
	if (!nb_held(r))
		return;
	nb_stage(r, NBS_DELETE, NBJ_DEL, now);
	nb_pump(r, now);
}

void
nb_watch_delete(struct nb_run *r, uint64_t now)
{
	if (r->stage != NBS_WATCHING && r->stage != NBS_CONFIRM)
		return;
	/* A confirm still running is over: the items are leaving. */
	if (r->ph_conf->state == PHASE_RUNNING)
		phase_end(r->ph_conf, now, PHASE_TIMEOUT);
	r->seen = 0;
	/* An answer to a poll still out adds the old count to the first
	 * round, which then shows no progress (the sum is capped). */
	nb_stage(r, NBS_CONFIRM_DELETE, NBJ_COUNT, now);
	nb_pump(r, now);
}

/* The next request of the stage into m; 0 when none is left. */
static int
nb_next(struct nb_run *r, struct nb_msg *m, int *rc)
{
	const struct nb_driver	*d = r->o.driver;
	uint64_t		 first, end;
	uint32_t		 n;
	const char		*node;

	for (; r->cur.node < r->nnodes; r->cur.node++) {
		nb_node_range(r->o.flows, r->nnodes, r->cur.node, &first,
		    &end);
		first += r->o.flow_base;
		end += r->o.flow_base;
		if (r->cur.flow < first)
			r->cur.flow = first;
		if (r->cur.flow < end)
			break;
	}
	if (r->cur.node >= r->nnodes)
		return 0;
	node = r->nodes[r->cur.node];
	switch (r->job) {
	case NBJ_ADD:
		n = r->o.per_request;
		if (end - r->cur.flow < n)
			n = (uint32_t)(end - r->cur.flow);
		*rc = d->add != NULL ? d->add(&r->o, node, r->cur.flow, n,
		    m) : -1;
		r->cur.flow += n;
		if (r->c_batch != NULL && n > *r->c_batch)
			*r->c_batch = n;
		break;
	case NBJ_DEL:
		if (d->del == NULL)
			*rc = -1;
		else if (r->o.per_request == 1)
			*rc = d->del(&r->o, node, r->cur.flow, 1, m);
		else
			*rc = d->del(&r->o, node, 0, 0, m);
		r->cur.flow = r->o.per_request == 1 ? r->cur.flow + 1 : end;
		break;
	case NBJ_COUNT:
		*rc = d->count(&r->o, node, m);
		r->cur.flow = end;
		break;
	}
	return 1;
}

static void
nb_count_status(struct nb_run *r, int status)
{
	if (status == 0)
		(*r->c_transport)++;
	else if (status >= 200 && status <= 299)
		(*r->c_2xx)++;
	else if (status >= 400 && status <= 499)
		(*r->c_4xx)++;
	else
		(*r->c_5xx)++;
}

static const char *
nb_method_name(enum nb_method m)
{
	switch (m) {
	case NB_PUT:
		return "PUT";
	case NB_POST:
		return "POST";
	case NB_DELETE:
		return "DELETE";
	case NB_PATCH:
		return "PATCH";
	default:
		return "GET";
	}
}

/*
 * A request with no HTTP answer (the controller refused or closed the
 * connection: killed, restarting; or the request's timeout passed) is not
 * tried again: what the controller lost stays lost, counted in
 * nb_transport_errors and missing from its phase's items.  Say so in the
 * log, so that a run that lost items to a dead controller does not only
 * show it in a counter.
 */
static void
nb_log_lost(struct nb_run *r, const struct nb_slot *s)
{
	uint64_t	held;

	if (!log_quiet_due(&r->lost_quiet, NB_LOST_QUIET_S, &held))
		return;
	log_warnx("northbound: %s %s: no answer from %s (connection refused "
	    "or closed, or timed out); not retried: its %s (%llu such "
	    "requests since the last line, %llu in all; logged at most every "
	    "%d s)", nb_method_name(s->method), s->path, r->hostport,
	    r->job == NBJ_COUNT ? "poll round counts nothing" :
	    "items are lost",
	    (unsigned long long)held,
	    (unsigned long long)*r->c_transport, NB_LOST_QUIET_S);
}

static void
nb_done_cb(struct evhttp_request *req, void *arg)
{
	struct nb_slot		*s = arg;
	struct nb_run		*r = s->run;
	uint64_t		 now = clock_ns(), count;
	struct evbuffer		*in;
	struct phase		*ph;
	int			 status;

	http_conn_nodelay(s->conn);
	status = req != NULL ? evhttp_request_get_response_code(req) : 0;
	nb_count_status(r, status);
	if (status == 0)
		nb_log_lost(r, s);
	s->busy = 0;
	r->inflight--;
	if (r->job == NBJ_COUNT) {
		in = req != NULL ? evhttp_request_get_input_buffer(req) : NULL;
		if (status == 0 || r->o.driver->parse_count(&r->o, status,
		    in ? (const char *)evbuffer_pullup(in, -1) : "",
		    in ? evbuffer_get_length(in) : 0, &count) == -1)
			r->cur.poll_bad = 1;
		else
			r->cur.poll_sum += count;
	} else {
		ph = r->job == NBJ_ADD ? r->ph_prog : r->ph_del;
		phase_latency(ph, (now - s->sent_ns) / 1000);
		if (status >= 200 && status <= 299) {
			r->cur.ok++;
			phase_items(ph, now, 1);
		}
	}
	nb_pump(r, now);
}

static enum evhttp_cmd_type
nb_cmd(enum nb_method m)
{
	switch (m) {
	case NB_PUT:
		return EVHTTP_REQ_PUT;
	case NB_POST:
		return EVHTTP_REQ_POST;
	case NB_DELETE:
		return EVHTTP_REQ_DELETE;
	case NB_PATCH:
		return EVHTTP_REQ_PATCH;
	default:
		return EVHTTP_REQ_GET;
	}
}

/* Send the next request on slot s; 0 none left, -1 failed to send. */
static int
nb_send(struct nb_run *r, struct nb_slot *s, uint64_t now)
{
	struct evhttp_request	*req;
	struct evkeyvalq	*h;
	struct nb_msg		 m;
	char			 len[32];
	int			 rc = 0;

	if ((req = evhttp_request_new(nb_done_cb, s)) == NULL)
		fatalx("northbound: out of memory");
	memset(&m, 0, sizeof(m));
	m.body = evhttp_request_get_output_buffer(req);
	if (nb_next(r, &m, &rc) == 0) {
		evhttp_request_free(req);
		return 0;
	}
	(*r->c_req)++;
	if (r->job == NBJ_COUNT)
		(*r->c_polls)++;
	else if (r->job == NBJ_ADD && r->ph_prog->state == PHASE_PENDING) {
		phase_start(r->ph_prog, now);
		phase_start(r->ph_conf, now);
		r->hook(r->arg, 0, now);
	} else if (r->job == NBJ_DEL && r->ph_del->state == PHASE_PENDING) {
		phase_start(r->ph_del, now);
		phase_start(r->ph_cdel, now);
		r->hook(r->arg, 1, now);
	}
	h = evhttp_request_get_output_headers(req);
	evhttp_add_header(h, "Host", r->hostport);
	evhttp_add_header(h, "Authorization", r->auth);
	evhttp_add_header(h, "Connection", "keep-alive");
	if (m.accept != NULL)
		evhttp_add_header(h, "Accept", m.accept);
	if (m.ctype != NULL) {
		evhttp_add_header(h, "Content-Type", m.ctype);
		snprintf(len, sizeof(len), "%zu",
		    evbuffer_get_length(m.body));
		evhttp_add_header(h, "Content-Length", len);
	}
	s->sent_ns = now;
	s->method = m.method;
	snprintf(s->path, sizeof(s->path), "%s", m.path);
	s->busy = 1;
	r->inflight++;
	if (rc == -1 || evhttp_make_request(s->conn, req, nb_cmd(m.method),
	    m.path) == -1) {
		/* evhttp_make_request frees req on failure. */
		if (rc == -1)
			evhttp_request_free(req);
		log_warnx("northbound: cannot send %s", m.path);
		s->busy = 0;
		r->inflight--;
		nb_count_status(r, 0);
		if (r->job == NBJ_COUNT)
			r->cur.poll_bad = 1;
		return -1;
	}
	return 1;
}

/* Start the next stage's requests from the first node. */
static void
nb_stage(struct nb_run *r, enum nb_stage st, enum nb_job job, uint64_t now)
{
	r->stage = st;
	r->job = job;
	memset(&r->cur, 0, sizeof(r->cur));
	r->cur.since_ns = now;
}

static void
nb_phase_ended(struct phase *ph, uint64_t ok, uint64_t now)
{
	if (ph->state == PHASE_RUNNING)
		phase_end(ph, now, ok >= ph->target ? PHASE_DONE :
		    PHASE_TIMEOUT);
}

/* A phase that never saw anything goes back to PENDING: not observed. */
static void
nb_abandon(struct phase *ph)
{
	ph->state = PHASE_PENDING;
	ph->trigger_ns = 0;
}

/*
 * Flows gone from the controller's view, left still in it.  Gone from
 * what confirm saw there, not from what was asked: after a controller
 * lost flows (killed mid-push, requests unanswered) the flows it never
 * had are not deletions confirmed.  In watch mode the devices take the
 * items out and confirm may have been cut short (nb_watch_delete): count
 * from what was asked, as before.
 */
static uint64_t
nb_gone(const struct nb_run *r, uint64_t left)
{
	uint64_t	base = r->o.watch ? r->o.flows : r->view_peak;

	return base > left ? base - left : 0;
}

/* One confirm round is over: count, decide, or wait for the next one. */
static void
nb_round_over(struct nb_run *r, uint64_t now)
{
	struct phase	*ph = r->stage == NBS_CONFIRM ? r->ph_conf : r->ph_cdel;
	uint64_t	 have, since;
	int		 last;

	if (!r->cur.poll_bad) {
		if (r->cur.poll_sum > r->o.flows)
			r->cur.poll_sum = r->o.flows;
		if (r->stage == NBS_CONFIRM &&
		    r->cur.poll_sum > r->view_peak)
			r->view_peak = r->cur.poll_sum;
		have = r->stage == NBS_CONFIRM ? r->cur.poll_sum :
		    nb_gone(r, r->cur.poll_sum);
		if (have > r->seen && ph->state == PHASE_RUNNING) {
			phase_items(ph, now, have - r->seen);
			phase_latency(ph, (now - ph->trigger_ns) / 1000);
			r->seen = have;
		}
		/* The view is empty: DONE only if every flow asked for was
		 * seen leaving it. */
		if (r->stage == NBS_CONFIRM_DELETE && r->cur.poll_sum == 0 &&
		    ph->state == PHASE_RUNNING)
			phase_end(ph, now, r->o.watch ||
			    r->seen >= ph->target ? PHASE_DONE :
			    PHASE_TIMEOUT);
	}
	since = ph->last_ns > r->cur.since_ns ? ph->last_ns : r->cur.since_ns;
	if (ph->state == PHASE_RUNNING &&
	    (double)(now - since) / 1e9 > r->o.timeout_s)
		phase_end(ph, now, PHASE_TIMEOUT);
	last = ph->state != PHASE_RUNNING;
	if (!last) {
		r->cur.next_poll_ns = now + (uint64_t)(r->o.poll_s * 1e9);
		r->cur.node = 0;
		r->cur.flow = 0;
		r->cur.poll_sum = 0;
		r->cur.poll_bad = 0;
		return;
	}
	r->seen = 0;
	if (r->stage == NBS_CONFIRM && r->o.no_delete)
		r->stage = NBS_DONE;
	else if (r->stage == NBS_CONFIRM && (r->o.watch || r->o.hold))
		r->stage = NBS_WATCHING;
	else if (r->stage == NBS_CONFIRM) {
		nb_stage(r, NBS_DELETE, NBJ_DEL, now);
		nb_pump(r, now);
	} else
		r->stage = NBS_DONE;
}

/* Fill idle slots; move to the next stage when this one is over. */
static void
nb_pump(struct nb_run *r, uint64_t now)
{
	uint32_t	i;
	int		more = 1;

	if (r->stage == NBS_IDLE || r->stage == NBS_DONE ||
	    r->stage == NBS_WATCHING)
		return;
	if (r->cur.next_poll_ns != 0) {
		if (now < r->cur.next_poll_ns)
			return;
		r->cur.next_poll_ns = 0;
	}
	for (i = 0; i < r->o.parallel && more; i++)
		while (!r->slots[i].busy && more)
			more = nb_send(r, &r->slots[i], now) != 0;
	if (more || r->inflight > 0)
		return;
	/* Every request of the stage is answered. */
	switch (r->stage) {
	case NBS_PROGRAM:
		nb_phase_ended(r->ph_prog, r->cur.ok, now);
		if (r->cur.ok == 0) {
			/* Nothing accepted: nothing to confirm or delete. */
			if (r->ph_conf->items == 0)
				nb_abandon(r->ph_conf);
			r->stage = NBS_DONE;
			return;
		}
		nb_stage(r, NBS_CONFIRM, NBJ_COUNT, now);
		nb_pump(r, now);
		break;
	case NBS_DELETE:
		nb_phase_ended(r->ph_del, r->cur.ok, now);
		nb_stage(r, NBS_CONFIRM_DELETE, NBJ_COUNT, now);
		nb_pump(r, now);
		break;
	case NBS_CONFIRM:
	case NBS_CONFIRM_DELETE:
		nb_round_over(r, now);
		break;
	default:
		break;
	}
}

int
nb_tick(struct nb_run *r, uint64_t now)
{
	if (r->stage == NBS_DONE)
		return 1;
	if (r->stage == NBS_CONFIRM || r->stage == NBS_CONFIRM_DELETE)
		nb_pump(r, now);
	return r->stage == NBS_DONE;
}

void
nb_free(struct nb_run *r)
{
	uint32_t	i;

	if (r == NULL)
		return;
	if (r->slots != NULL)
		for (i = 0; i < r->o.parallel; i++)
			if (r->slots[i].conn != NULL)
				evhttp_connection_free(r->slots[i].conn);
	free(r->slots);
	free(r);
}

void
nb_free_nodes(struct nb_run **r, char ***nodes, uint32_t n)
{
	uint32_t	i;

	if (*r == NULL)
		return;
	nb_free(*r);
	*r = NULL;
	for (i = 0; i < n; i++)
		free((*nodes)[i]);
	free(*nodes);
	*nodes = NULL;
}
