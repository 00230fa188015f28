/*
 * NETCONF messages (RFC 6241, RFC 5277 notifications) on libxml2: hello,
 * rpc, rpc-reply, rpc-error and notification, for both the device (server)
 * and the embedded controller (client).  No I/O and no framing (nc_frame).
 *
 * Parsing: nc_xml_parse() is the one entry to libxml2 for wire input: no
 * network, no entity substitution, no DTD loading, no "huge" mode, and a
 * document with a DOCTYPE is refused outright (entity expansion attacks).
 * Leading whitespace (left over after an end-of-message marker) is skipped.
 *
 * Building: every builder appends one whole message to a caller-owned
 * xmlBuffer (reuse one per session: xmlBufferEmpty() between messages), and
 * every message starts with NC_XML_DECL.  Strings given to builders are
 * escaped; arguments named *_xml are inserted as they are (well-formed XML
 * that declares its own namespaces).
 */
#ifndef SBSIM_NC_MSG_H
#define SBSIM_NC_MSG_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <libxml/tree.h>

#define NC_XML_DECL	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>"

#define NC_NS_BASE	"urn:ietf:params:xml:ns:netconf:base:1.0"
#define NC_NS_NOTIF	"urn:ietf:params:xml:ns:netconf:notification:1.0"
#define NC_NS_MONITORING "urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring"

/* Capabilities (RFC 6241 section 8, RFC 5277 section 3.1). */
#define NC_CAP_BASE10	"urn:ietf:params:netconf:base:1.0"
#define NC_CAP_BASE11	"urn:ietf:params:netconf:base:1.1"
#define NC_CAP_PREFIX	"urn:ietf:params:netconf:capability:"
#define NC_CAP_WRITABLE_RUNNING NC_CAP_PREFIX "writable-running:1.0"
#define NC_CAP_CANDIDATE NC_CAP_PREFIX "candidate:1.0"
#define NC_CAP_CONFIRMED_COMMIT NC_CAP_PREFIX "confirmed-commit:1.1"
#define NC_CAP_ROLLBACK	NC_CAP_PREFIX "rollback-on-error:1.0"
#define NC_CAP_VALIDATE	NC_CAP_PREFIX "validate:1.1"
#define NC_CAP_STARTUP	NC_CAP_PREFIX "startup:1.0"
#define NC_CAP_XPATH	NC_CAP_PREFIX "xpath:1.0"
#define NC_CAP_NOTIFICATION NC_CAP_PREFIX "notification:1.0"
#define NC_CAP_INTERLEAVE NC_CAP_PREFIX "interleave:1.0"

/* Bits for the capabilities above; bases first. */
#define NC_CAPF_BASE10		0x0001
#define NC_CAPF_BASE11		0x0002
#define NC_CAPF_WRITABLE_RUNNING 0x0004
#define NC_CAPF_CANDIDATE	0x0008
#define NC_CAPF_CONFIRMED_COMMIT 0x0010
#define NC_CAPF_ROLLBACK	0x0020
#define NC_CAPF_VALIDATE	0x0040
#define NC_CAPF_STARTUP		0x0080
#define NC_CAPF_XPATH		0x0100
#define NC_CAPF_NOTIFICATION	0x0200
#define NC_CAPF_INTERLEAVE	0x0400


/* ---- errors (RFC 6241 section 4.3 and Appendix A) ---- */

enum nc_err_type {
	NC_ERR_TYPE_TRANSPORT,
	NC_ERR_TYPE_RPC,
	NC_ERR_TYPE_PROTOCOL,
	NC_ERR_TYPE_APPLICATION,
	NC_ERR_TYPE_UNKNOWN,		/* parsed: not one of the above */
};

/* Appendix A, in its order (partial-operation is deprecated there). */
enum nc_err_tag {
	NC_ERR_IN_USE,
	NC_ERR_INVALID_VALUE,
	NC_ERR_TOO_BIG,
	NC_ERR_MISSING_ATTRIBUTE,
	NC_ERR_BAD_ATTRIBUTE,
	NC_ERR_UNKNOWN_ATTRIBUTE,
	NC_ERR_MISSING_ELEMENT,
	NC_ERR_BAD_ELEMENT,
	NC_ERR_UNKNOWN_ELEMENT,
	NC_ERR_UNKNOWN_NAMESPACE,
	NC_ERR_ACCESS_DENIED,
	NC_ERR_LOCK_DENIED,
	NC_ERR_RESOURCE_DENIED,
	NC_ERR_ROLLBACK_FAILED,
	NC_ERR_DATA_EXISTS,
	NC_ERR_DATA_MISSING,
	NC_ERR_OPERATION_NOT_SUPPORTED,
	NC_ERR_OPERATION_FAILED,
	NC_ERR_PARTIAL_OPERATION,
	NC_ERR_MALFORMED_MESSAGE,	/* base:1.1 only */
	NC_ERR_TAG_UNKNOWN,		/* parsed: not one of the above */
};
#define NC_ERR_TAG_COUNT	NC_ERR_TAG_UNKNOWN

enum nc_err_sev {
	NC_ERR_SEV_ERROR,
	NC_ERR_SEV_WARNING,
	NC_ERR_SEV_UNKNOWN,
};

enum nc_err_type nc_err_type_from_name(const char *);
const char *nc_err_tag_name(enum nc_err_tag);
enum nc_err_tag nc_err_tag_from_name(const char *);

struct nc_nsdecl {
	const char	*prefix;
	const char	*uri;
};

/*
 * One <rpc-error> to send.  Strings are borrowed (NULL: element left out);
 * when message is NULL and msgbuf is not empty, msgbuf is the message.
 * Strings that a parser filled in point into that parser's document.
 */
struct nc_err {
	enum nc_err_type type;
	enum nc_err_tag	 tag;
	enum nc_err_sev	 sev;
	const char	*app_tag;
	const char	*path;
	const struct nc_nsdecl *path_ns;	/* prefixes used in path */
	size_t		 npath_ns;
	const char	*message;		/* xml:lang="en" */
	/* <error-info> children (Appendix A), each optional */
	const char	*bad_attribute;
	const char	*bad_element;
	const char	*bad_namespace;
	const char	*ok_element;
	const char	*err_element;
	const char	*noop_element;
	int		 has_session_id;	/* lock-denied; 0 is valid */
	uint32_t	 session_id;
	const char	*info_xml;		/* more, inserted as is */
	char		 msgbuf[160];
};

/* Zero e and set type, tag, severity error and a message (may be NULL). */
void	 nc_err_init(struct nc_err *, enum nc_err_type, enum nc_err_tag,
	    const char *message);
const char *nc_err_message(const struct nc_err *);

/* ---- parsing ---- */

/*
 * The *_from_doc() functions of rpc, reply and notification take the
 * document over: call the matching *_free() whatever they return.
 */

/*
 * Parse a message.  NULL with *err set (malformed-message, type rpc; for a
 * base:1.0 peer, which must not get that tag, operation-failed) on failure.
 * err may be NULL.  Free with xmlFreeDoc().
 */
xmlDocPtr nc_xml_parse(const void *, size_t, int base11, struct nc_err *err);
/*
 * A message one of whose elements carries more than max attributes
 * (namespace declarations included) is refused by nc_xml_parse before
 * libxml2 sees it (its duplicate check is quadratic: 100 000 attributes
 * held the process 17 s), counted in *refused (may be NULL).  Default
 * NC_XML_MAX_ATTRS.
 */
#define NC_XML_MAX_ATTRS	1024
void	 nc_xml_limit_attrs(uint32_t max, uint64_t *refused);

enum nc_msg_kind {
	NC_MSG_OTHER,
	NC_MSG_HELLO,
	NC_MSG_RPC,
	NC_MSG_REPLY,
	NC_MSG_NOTIF,
};
/* What the root element is (by name and namespace). */
enum nc_msg_kind nc_msg_kind(const xmlDoc *);

/* First element child / next element sibling, skipping text and comments. */
xmlNodePtr nc_child_elem(const xmlNode *);
xmlNodePtr nc_next_elem(const xmlNode *);
/* The child element named name in namespace ns (NULL: any namespace). */
xmlNodePtr nc_find_child(const xmlNode *, const char *ns, const char *name);
/* Namespace URI of a node, NULL when none. */
const char *nc_node_ns(const xmlNode *);
/*
 * Text of a leaf element: the content of its only text child ("" when
 * empty), NULL when it has element children or split text.
 */
const char *nc_leaf_text(const xmlNode *);

/* ---- hello (RFC 6241 section 8.1) ---- */

struct nc_module_cap {		/* RFC 6020 section 5.6.4 */
	const char	*ns;
	const char	*name;
	const char	*revision;	/* may be NULL */
	const char	*features;	/* comma-separated, may be NULL */
	const char	*deviations;	/* comma-separated, may be NULL */
};

struct nc_hello_opts {
	unsigned	 caps;		/* NC_CAPF_*; never EXI */
	const struct nc_module_cap *modules;
	size_t		 nmodules;
	const char *const *extra;	/* more capability URIs */
	size_t		 nextra;
	uint32_t	 session_id;	/* server: 1..; client: 0 (none) */
};

void	 nc_hello_build(xmlBufferPtr, const struct nc_hello_opts *);

struct nc_hello {
	char		**capv;		/* trimmed copies */
	size_t		  capc;
	unsigned	  caps;		/* NC_CAPF_* of the known ones */
	int		  has_session_id;
	uint32_t	  session_id;
};

enum nc_hello_res {
	NC_HELLO_OK = 0,
	NC_HELLO_E_XML = -1,		/* not well-formed */
	NC_HELLO_E_NOT_HELLO = -2,	/* root is not base:1.0 <hello> */
	NC_HELLO_E_NO_CAPS = -3,	/* no <capabilities> / no capability */
	NC_HELLO_E_SESSION_ID = -4,	/* client sent one, server none/bad */
	NC_HELLO_E_NO_BASE = -5,	/* neither base:1.0 nor base:1.1 */
};

/*
 * Parse a peer's hello.  from_server: the peer is a server (its hello must
 * carry a session-id); otherwise it must not (section 8.1: terminate).
 */
int	 nc_hello_parse(struct nc_hello *, const void *, size_t,
	    int from_server);
int	 nc_hello_from_doc(struct nc_hello *, const xmlDoc *, int from_server);
void	 nc_hello_free(struct nc_hello *);
const char *nc_hello_strerror(int);
int	 nc_hello_has_cap(const struct nc_hello *, const char *uri);
/* Section 8.1/RFC 6242 4.1: chunked framing iff both sent base:1.1. */
int	 nc_hello_chunked(unsigned our_caps, const struct nc_hello *peer);
/*
 * A parameter of a capability URI ("NS?module=a&revision=b"): copy the
 * value of key into out.  key NULL: the part before '?'.  -1: not there
 * or does not fit.
 */
int	 nc_cap_param(const char *uri, const char *key, char *out,
	    size_t outlen);

/* ---- rpc, device side (RFC 6241 sections 4.1, 7) ---- */

enum nc_op {
	NC_OP_OTHER,		/* not below: caller dispatches by name/ns */
	NC_OP_GET,
	NC_OP_GET_CONFIG,
	NC_OP_EDIT_CONFIG,
	NC_OP_COPY_CONFIG,
	NC_OP_DELETE_CONFIG,
	NC_OP_LOCK,
	NC_OP_UNLOCK,
	NC_OP_CLOSE_SESSION,
	NC_OP_KILL_SESSION,
	NC_OP_COMMIT,
	NC_OP_DISCARD_CHANGES,
	NC_OP_CANCEL_COMMIT,
	NC_OP_VALIDATE,
	NC_OP_GET_SCHEMA,		/* RFC 6022 */
	NC_OP_CREATE_SUBSCRIPTION,	/* RFC 5277 */
};

struct nc_rpc {
	xmlDocPtr	 doc;		/* owned */
	xmlNodePtr	 rpc;		/* <rpc>, its attributes are echoed */
	const char	*message_id;
	xmlNodePtr	 op_node;	/* the operation element */
	const char	*op_name;
	const char	*op_ns;		/* NULL: no namespace */
	enum nc_op	 op;
};

/*
 * Parse an <rpc>.  -1 with *err to answer with (nc_reply_error(buf, rpc,
 * err, 1), which echoes what attributes there were).  Strings in *err stay
 * valid until nc_rpc_free().  Unknown operations are not an error here:
 * op is NC_OP_OTHER, see nc_err_op_not_supported().
 */
int	 nc_rpc_parse(struct nc_rpc *, const void *, size_t, int base11,
	    struct nc_err *);
void	 nc_rpc_free(struct nc_rpc *);
/* operation-not-supported, type protocol, for the rpc's operation. */
void	 nc_err_op_not_supported(struct nc_err *, const struct nc_rpc *);

/*
 * What the rpc names; ncm_ (message) because nc_store.h has its own
 * enum nc_ds, nc_filter, nc_defop, ... and a device includes both.
 */
enum ncm_ds {
	NCM_DS_NONE,
	NCM_DS_RUNNING,
	NCM_DS_CANDIDATE,
	NCM_DS_STARTUP,
	NCM_DS_URL,		/* node: the <url> element */
	NCM_DS_CONFIG,		/* copy-config source: the <config> element */
};
const char *nc_ds_name(enum ncm_ds);

struct nc_ds_ref {
	enum ncm_ds	 ds;
	xmlNodePtr	 node;
};
/* <source> or <target>: missing-element / bad-element on error. */
int	 nc_rpc_datastore(const struct nc_rpc *, const char *param,
	    struct nc_ds_ref *, struct nc_err *);

enum ncm_filter_type {
	NCM_FILTER_NONE,
	NCM_FILTER_SUBTREE,	/* node's element children are the filter */
	NCM_FILTER_XPATH,	/* select, prefixes resolved at node */
};
struct ncm_filter {
	enum ncm_filter_type type;
	xmlNodePtr	 node;		/* the <filter> element */
	const char	*select;
};
/* The operation's <filter>, NCM_FILTER_NONE when absent. */
int	 nc_rpc_filter(const struct nc_rpc *, struct ncm_filter *,
	    struct nc_err *);

enum ncm_defop { NCM_DEFOP_MERGE, NCM_DEFOP_REPLACE, NCM_DEFOP_NONE };
enum ncm_testop {
	NCM_TESTOP_TEST_THEN_SET,
	NCM_TESTOP_SET,
	NCM_TESTOP_TEST_ONLY,
};
enum ncm_errop {
	NCM_ERROP_STOP,
	NCM_ERROP_CONTINUE,
	NCM_ERROP_ROLLBACK,
};

struct nc_edit {			/* section 7.2 */
	struct nc_ds_ref target;
	enum ncm_defop	 defop;
	enum ncm_testop	 testop;
	enum ncm_errop	 errop;
	xmlNodePtr	 config;	/* <config> element, or NULL */
	xmlNodePtr	 url;		/* <url> element, or NULL */
};
int	 nc_rpc_edit(const struct nc_rpc *, struct nc_edit *, struct nc_err *);

/* kill-session (section 7.9): 1..4294967295. */
int	 nc_rpc_session_id(const struct nc_rpc *, uint32_t *, struct nc_err *);

struct nc_get_schema {		/* RFC 6022 section 3.1 */
	const char	*identifier;
	const char	*version;	/* NULL: absent */
	const char	*format;	/* prefix stripped; NULL: absent */
};
int	 nc_rpc_get_schema(const struct nc_rpc *, struct nc_get_schema *,
	    struct nc_err *);

struct nc_subscription {	/* RFC 5277 section 2.1.1 */
	const char	*stream;	/* "NETCONF" when absent */
	struct ncm_filter filter;
	int		 has_start, has_stop;
	struct timespec	 start, stop;
};
int	 nc_rpc_subscription(const struct nc_rpc *, struct nc_subscription *,
	    struct nc_err *);

/* RFC 3339 date-time: parse (-1 when bad) and format with microseconds. */
int	 nc_time_parse(const char *, struct timespec *);
void	 nc_time_format(const struct timespec *, char *, size_t);

/* ---- replies (section 4.2-4.4) and notifications (RFC 5277 4) ---- */

/* rpc may be NULL (no attributes to echo, e.g. after malformed XML). */
void	 nc_reply_ok(xmlBufferPtr, const struct nc_rpc *);
void	 nc_reply_data(xmlBufferPtr, const struct nc_rpc *,
	    const char *data_xml, size_t len);
/* node and its following siblings, serialized (may be NULL). */
void	 nc_reply_data_node(xmlBufferPtr, const struct nc_rpc *, xmlNodePtr);
void	 nc_reply_error(xmlBufferPtr, const struct nc_rpc *,
	    const struct nc_err *, size_t n);
void	 nc_reply_begin(xmlBufferPtr, const struct nc_rpc *);
void	 nc_reply_end(xmlBufferPtr);

void	 nc_notif_build(xmlBufferPtr, const struct timespec *,
	    const char *content_xml, size_t len);
/* A buffer kept for reuse (*bp, made on first use), emptied. */
xmlBufferPtr nc_buf_reuse(xmlBufferPtr *bp);
/* Free *bp and forget it. */
void	 nc_buf_drop(xmlBufferPtr *bp);
/* Text content, escaped (& < > and CR). */
void	 nc_put_text(xmlBufferPtr, const char *);

/* ---- client side ---- */

void	 nc_rpc_build(xmlBufferPtr, uint64_t message_id, const char *op_xml);

struct nc_rpc_err {		/* a received <rpc-error> */
	enum nc_err_type type;
	enum nc_err_tag	 tag;
	enum nc_err_sev	 sev;
	const char	*tag_str;	/* as sent */
	const char	*app_tag, *path, *message;
	xmlNodePtr	 info;		/* <error-info>, or NULL */
};

struct nc_reply {
	xmlDocPtr	 doc;		/* owned */
	const char	*message_id;	/* NULL: absent */
	int		 ok;
	xmlNodePtr	 data;		/* <data>, or NULL */
	struct nc_rpc_err *errv;
	size_t		 errc;
	size_t		 nerrors;	/* of severity error */
};

/* -1 when not well-formed or not an <rpc-reply>.  from_doc owns doc from
 * then on (NULL, a parse that failed: -1). */
int	 nc_reply_parse(struct nc_reply *, const void *, size_t);
int	 nc_reply_from_doc(struct nc_reply *, xmlDocPtr);
void	 nc_reply_free(struct nc_reply *);

struct nc_notif {
	xmlDocPtr	 doc;		/* owned */
	const char	*event_time;
	struct timespec	 time;
	xmlNodePtr	 content;	/* first element after <eventTime> */
};
/* -1 when doc (owned from then on) is NULL or not a <notification>
 * with an <eventTime> (RFC 5277 section 4). */
int	 nc_notif_from_doc(struct nc_notif *, xmlDocPtr);
void	 nc_notif_free(struct nc_notif *);

#endif
