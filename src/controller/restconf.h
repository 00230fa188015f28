/*
 * RESTCONF on top of http_server: the two URL styles OpenDaylight serves,
 *   RFC 8040 (section 3.5.3):  /rests/data/module:name=key/child=k1,k2
 *                              ?content=config|nonconfig|all (4.8.1)
 *   draft-bierman-netconf-restconf-02 (section 5.3.1), ODL's /restconf:
 *                              /restconf/config/module:name/list/key/...
 *                              /restconf/operational/module:name/...
 * parsed into one path of elements, and a table of top-level resources
 * (one per module a protocol serves) that the requests are handed to.
 */
#ifndef SBSIM_RESTCONF_H
#define SBSIM_RESTCONF_H

#include <stddef.h>

#include "doc.h"
#include "http_server.h"

#define RC_MAX_DEPTH	16	/* elements of a path */
#define RC_MAX_KEYS	4	/* keys of a list element */
#define RC_MAX_RESOURCES 16

enum rc_style {
	RC_STYLE_RFC8040,
	RC_STYLE_DRAFT,
};

/* Which datastore a request addresses (RFC 8040 section 4.8.1). */
enum rc_content {
	RC_CONTENT_ALL,
	RC_CONTENT_CONFIG,
	RC_CONTENT_NONCONFIG,	/* ODL's operational datastore */
};

struct rc_elem {
	const char	*module;	/* NULL when the path gave none */
	const char	*name;
	const char	*key[RC_MAX_KEYS];
	size_t		 nkeys;
};

struct rc_path {
	struct rc_elem	 e[RC_MAX_DEPTH];
	size_t		 n;
	/* A mount point (RFC 8528, ODL's yang-ext:mount) ends the path:
	 * what follows belongs to the mounted schema and is left to the
	 * resource, from this segment of the HTTP path on (0: none). */
	size_t		 mount_seg;
	char		 mem[2 * HTTP_MAX_PATH];
};

/* The lists of a resource and how many keys each has: the draft style
 * needs it to tell keys from names, RFC 8040 to check the key count. */
struct rc_list {
	const char	*name;
	unsigned	 nkeys;
};

struct rc_req {
	struct http_req	*http;
	enum rc_style	 style;
	enum rc_content	 content;
	struct rc_path	 path;		/* e[0] is the resource */
};

struct rc_resource {
	const char		*module;	/* "opendaylight-inventory" */
	const char		*name;		/* "nodes" */
	const struct rc_list	*lists;		/* ends with a NULL name */
	void			(*fn)(struct rc_req *, void *arg);
	void			*arg;
	int			 read_only;	/* writes get 405 before fn */
};

/*
 * An operation (RFC 8040 section 3.6; the draft's /restconf/operations),
 * served under both URL styles.  fn gets the body's "input" (the body
 * parsed, its media types set) and sends one reply.
 */
struct rc_rpc {
	const char	*module;	/* "sal-flow" */
	const char	*name;		/* "add-flow" */
	/* The input; op is the row's, for a function serving several. */
	void		(*fn)(struct http_req *, const struct doc_node *in,
			    int rfc8040, int op);
	int		 op;
};

/* Route POST /rests/operations/module:name and /restconf/operations/...
 * for each of the n operations of rpcs[]. */
void	rc_rpc_register(struct http_server *, const struct rc_rpc *rpcs,
	    size_t n);
/* Success with an empty output: 204 without a body under
 * /rests/operations (RFC 8040 section 3.6.2), 200 with an empty "output"
 * (of mod's namespace in XML) under the draft URLs, as OpenDaylight
 * answered them. */
void	rc_rpc_empty(struct http_req *, int rfc8040,
	    const struct doc_module *mod);

/* Route /rests/data, /restconf/config and /restconf/operational to the
 * resources; forgets those registered before. */
void	restconf_start(struct http_server *);
void	restconf_register(const struct rc_resource *);

/* The elements of segments from.. of a request path (pure; tested). */
int	rc_path_parse(const struct http_path *, size_t from, enum rc_style,
	    const struct rc_list *, struct rc_path *, char *err,
	    size_t errlen);
/* ?content= of an RFC 8040 query; other parameters are refused. */
int	rc_query_parse(const char *query, enum rc_content *, char *err,
	    size_t errlen);
/* The element is called name (its module, if any, is not compared). */
int	rc_elem_is(const struct rc_elem *, const char *name);
/* A request to a resource holding one list: 1 when its path names an
 * entry of list (e[1]); else 0 once answered, by whole(rq) for the
 * resource itself or by rc_unknown() for another name. */
int	rc_list_entry(struct rc_req *, const char *list,
	    void (*whole)(struct rc_req *));

/* Replies of resources. */
/* 404 data-missing, in OpenDaylight's words. */
void	rc_data_missing(struct rc_req *);
/* 404 invalid-value for a name the resource does not know. */
void	rc_unknown(struct rc_req *, const struct rc_elem *);
/* 405 operation-not-supported with Allow: GET. */
void	rc_read_only(struct rc_req *);
/* A resource that only reads: 1, with rc_read_only's 405 sent, when the
 * request is not a GET or HEAD. */
int	rc_refuse_write(struct rc_req *);
/* Parse the request body; on error a 400 malformed-message is sent and
 * -1 returned. */
int	rc_body(struct rc_req *, struct doc *);
/* A writer in the reply format; rc_send finishes and sends it (200, or
 * 500 when it was misused) and frees the buffer.  The rc_http_ forms
 * serve handlers of their own routes. */
struct evbuffer *rc_writer(struct rc_req *, struct doc_writer *);
void	rc_send(struct rc_req *, struct doc_writer *, struct evbuffer *);
struct evbuffer *rc_http_writer(struct http_req *, struct doc_writer *);
void	rc_http_send(struct http_req *, struct doc_writer *,
	    struct evbuffer *);

#endif
