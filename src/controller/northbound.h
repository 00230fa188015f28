/*
 * The northbound driver: sbsim as the controller's REST client, pushing F
 * flows over N nodes, polling the controller's operational view until it
 * shows them, deleting them and polling again (docs/design.md, "The
 * engine's seams").  The generic part (this file, northbound.c) owns the HTTP
 * client (libevent evhttp, one keep-alive connection per parallel slot,
 * basic auth, no retries: a request with no answer is counted and logged,
 * its items lost), the job order and the phases; one driver per
 * protocol and controller family builds the requests and reads the
 * replies (a protocol folder's *_nb.c: OpenDaylight's flows over RESTCONF;
 * ONOS /onos/v1/flows would be another).
 *
 * Phases (all with target and items as below):
 *   nb_program      requests answered 2xx, of the add requests (target);
 *                   latency = HTTP round trip; rate = requests/s
 *   confirm         flows the operational view shows (sum over nodes),
 *                   timed from the first add request; target F
 *   nb_delete       as nb_program, for the delete requests
 *   confirm_delete  flows gone from the operational view (from the most
 *                   confirm saw there, outside watch mode), timed from
 *                   the first delete request; target F; DONE when the
 *                   view is empty and F were seen leaving
 * In watch mode (nb_opts.watch) only the two confirm phases run: the
 * devices put the items in and take them out, sbsim counts them through
 * the controller's view.
 * Counters: nb_requests, nb_http_2xx, nb_http_4xx, nb_http_5xx (other
 * statuses count as 5xx), nb_transport_errors, nb_polls.
 */
#ifndef SBSIM_NORTHBOUND_H
#define SBSIM_NORTHBOUND_H

#include <stddef.h>
#include <stdint.h>

#include "metrics.h"
#include "opt.h"

struct evbuffer;
struct run_opts;

enum nb_style {
	NB_STYLE_RFC8040,	/* /rests/data/... */
	NB_STYLE_DRAFT,		/* /restconf/config|operational/... */
};

enum nb_format {
	NB_FMT_JSON,
	NB_FMT_XML,
};

#define NB_HOST_MAX	256
#define NB_PATH_MAX	512
#define NB_NODE_MAX	64
#define NB_CRED_MAX	128

struct nb_driver;

struct nb_opts {
	/* The command's drivers, NULL-terminated: --northbound picks one
	 * by its URL scheme ("odl:"). */
	const struct nb_driver *const *drivers;
	const char	*url;			/* --northbound, or NULL */
	const struct nb_driver	*driver;
	char		 host[NB_HOST_MAX];	/* no brackets for IPv6 */
	uint16_t	 port;
	uint64_t	 flows;			/* F */
	/* --shard: the slice's first flow in the whole run, so that its
	 * flows have the ids and addresses they have there. */
	uint64_t	 flow_base;
	uint32_t	 per_request;		/* K */
	uint32_t	 parallel;		/* P */
	const char	*user;
	const char	*password;
	enum nb_style	 style;
	enum nb_format	 format;
	uint8_t		 table;
	double		 timeout_s;		/* phases and HTTP requests */
	double		 poll_s;		/* between confirm rounds */
	const void	*ctx;			/* the driver's own settings */
	/* Watch mode: no writes; confirm counts from nb_begin up to
	 * flows, confirm_delete from nb_watch_delete down to none.  The
	 * two phases may be named for the protocol (NULL: confirm and
	 * confirm_delete). */
	int		 watch;
	const char	*confirm_name;
	const char	*confirm_delete_name;
	/* The write phases' names (NULL: nb_program and nb_delete), for a
	 * sim that runs several sequences in one report. */
	const char	*program_name;
	const char	*delete_name;
	/* Hold: stop after confirm (nb_held() says 1) until nb_release()
	 * starts the delete stage, e.g. to use what was written. */
	int		 hold;
	/* Over after confirm: no delete stages (what was written stays,
	 * e.g. LSP updates). */
	int		 no_delete;
};

/* One HTTP request built by a driver. */
enum nb_method {
	NB_GET,
	NB_PUT,
	NB_POST,
	NB_DELETE,
	NB_PATCH,		/* RFC 8040 section 4.6.1: plain merge */
};

struct nb_msg {
	enum nb_method	 method;
	char		 path[NB_PATH_MAX];	/* with query */
	const char	*ctype;			/* NULL: no body */
	const char	*accept;
	struct evbuffer	*body;			/* caller's, appended to */
};

struct nb_driver {
	const char	*name;		/* "odl", the URL scheme prefix */
	/* Add flows first .. first+n-1 (global flow numbers) to node: one
	 * flow per request when o->per_request is 1, else a batch.  add and
	 * del may be NULL in a driver whose runs never write (watch mode,
	 * no_delete). */
	int	(*add)(const struct nb_opts *, const char *node,
		    uint64_t first, uint32_t n, struct nb_msg *);
	/* Delete one flow (n == 1 and per_request 1) or all of the node's
	 * flows in the table (n == 0). */
	int	(*del)(const struct nb_opts *, const char *node,
		    uint64_t first, uint32_t n, struct nb_msg *);
	/* Read the node's flow count from the operational view. */
	int	(*count)(const struct nb_opts *, const char *node,
		    struct nb_msg *);
	/* The count from a reply to count(): 0, or -1 unreadable.  A 404
	 * (no such table yet, or no longer) is 0 flows. */
	int	(*parse_count)(const struct nb_opts *, int status,
		    const char *body, size_t len, uint64_t *out);
};

/*
 * The options every command's northbound shares, as declared rows over
 * struct nb_opts (opt.h): --northbound URL, --northbound-parallel, -user,
 * -password, -style, -format.  A command puts them in a group of its own
 * whose given mask then holds these marks:
 */
#define NB_GIVEN_URL	0x1	/* --northbound */
#define NB_GIVEN_ANY	0x2	/* any of them */
#define NB_GIVEN_FORMAT	0x4	/* --northbound-format */
extern const struct opt nb_opt_rows[];

/* A command's drivers for nb_opts_defaults(): the static NULL-terminated
 * list name. */
#define NB_DRIVER_LIST(name, ...)					\
	static const struct nb_driver *const name[] = { __VA_ARGS__, NULL }
/* Defaults: admin/admin, rfc8040, json, K 1, P 1, table 0, poll 0.5 s;
 * the command's drivers (NULL-terminated, static) for --northbound. */
void	 nb_opts_defaults(struct nb_opts *,
	    const struct nb_driver *const *drivers);
/* "odl:http://IP:PORT" into o->driver, host, port; -1 with err. */
int	 nb_parse_url(const char *, struct nb_opts *, char *err,
	    size_t errlen);
/* A JSON body: head, then items first .. first+n-1 as item() writes
 * them, separated by commas, then tail. */
typedef void (*nb_item_fn)(const struct nb_opts *, uint64_t item,
	    struct evbuffer *);
void	 nb_json_list(const struct nb_opts *, struct evbuffer *,
	    const char *head, nb_item_fn, uint64_t first, uint32_t n,
	    const char *tail);
/* j (a jansson json_t) in compact text onto b, then released; NULL (a
 * json_pack() that failed: a bug) is fatal. */
struct json_t;
void	 nb_json_add(struct evbuffer *, struct json_t *j);
/* Descriptors the northbound needs: one per parallel slot when on. */
uint32_t nb_fds_needed(const struct nb_opts *);
/* Options checked together (format with batches, ...); -1 with err. */
/*
 * --shard: a slice of count devices from first, of total, drives its
 * devices' share of the items (o->flows, which must spread evenly over
 * the devices), numbered as in the whole run (flow_base), over its share
 * of --northbound-parallel (one connection at least).
 */
void	 nb_shard(struct nb_opts *, const struct run_opts *, uint32_t first,
	    uint32_t count, uint32_t total);
int	 nb_check(const struct nb_opts *, char *err, size_t errlen);
/*
 * A driver that builds and reads JSON only (most protocols'): given
 * (NB_GIVEN_*) has --northbound when any of its options is there
 * (options names them: "--mount-batch and --edits"), the format is JSON,
 * the user name holds no ':'.  0, or -1 with err.
 */
int	 nb_check_json_driver(const struct nb_opts *, unsigned given,
	    const char *options, const char *protocol, char *err,
	    size_t errlen);
/* The media type of the URL style and body format (RFC 8040 section
 * 11.3: yang-data+json/+xml; ODL's draft URLs: application/json, xml). */
const char *nb_media(const struct nb_opts *);
/*
 * The path of topology (its id, e.g. "flow:1") of network-topology, or of a
 * node of it (node not NULL), then tail (may be NULL), in the URL style;
 * config 0 reads the operational datastore (RFC 8040: with ?query when
 * query is not NULL).  0, or -1 when it does not fit in cap.
 */
int	nb_topo_path(const struct nb_opts *, const char *topo, int config,
	    const char *node, const char *tail, const char *query, char *out,
	    size_t cap);
/* A request's method and media types: Accept the style's (nb_media()),
 * Content-Type the same for a method with a body (PUT, POST, PATCH). */
void	nb_msg_start(const struct nb_opts *, struct nb_msg *,
	    enum nb_method);

/* Pure helpers (tested). */
/* RFC 3986 section 2.1: all but unreserved characters as %XX. */
int	 nb_pct_encode(const char *in, char *out, size_t cap);
/* "Basic base64(user:password)" (RFC 7617 section 2). */
int	 nb_basic_auth(const char *user, const char *password, char *out,
	    size_t cap);
/* Flow number n as a distinct IPv4 /32: 10.a.b.c from n+1 (n < 2^24-1). */
void	 nb_flow_ipv4(uint64_t n, char *out, size_t cap);
/* The nodes' flows: node j of nnodes holds [first, end). */
void	 nb_node_range(uint64_t flows, uint32_t nnodes, uint32_t j,
	    uint64_t *first, uint64_t *end);

/*
 * One run of the sequence.  The caller (a sim's tick) calls nb_begin once
 * the devices are connected, then nb_tick every tick until it returns 1.
 */
struct nb_run;
typedef void (*nb_hook)(void *arg, int deleting, uint64_t now_ns);

/* nodes: node ids, borrowed for the run.  begin is called with the first
 * add request (deleting 0) and the first delete request (deleting 1). */
struct nb_run *nb_new(const struct nb_opts *, struct metrics *,
	    char **nodes, uint32_t nnodes, nb_hook begin, void *arg);
int	 nb_begin(struct nb_run *, uint64_t now_ns, char *err, size_t errlen);
/* nb_begin with what went wrong logged (log_warnx): 0, or -1. */
int	 nb_begin_logged(struct nb_run *, uint64_t now_ns);
int	 nb_tick(struct nb_run *, uint64_t now_ns);
/* Hold mode: 1 once confirmed and holding; nb_release: delete now. */
int	 nb_held(const struct nb_run *);
void	 nb_release(struct nb_run *, uint64_t now_ns);
/* Watch mode: the items are going away; count them down. */
void	 nb_watch_delete(struct nb_run *, uint64_t now_ns);
void	 nb_free(struct nb_run *);
/* nb_free(*r) and the n node names (each allocated) given to its
 * nb_new(); both NULL after, so that a second stop does nothing. */
void	 nb_free_nodes(struct nb_run **r, char ***nodes, uint32_t n);
/* Phase names, in report order, for a sim's name table. */
#define NB_PHASE_PROGRAM	"nb_program"
#define NB_PHASE_CONFIRM	"confirm"
#define NB_PHASE_DELETE		"nb_delete"
#define NB_PHASE_CONFIRM_DELETE	"confirm_delete"

#endif
