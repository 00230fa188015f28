/*
 * A NETCONF device's datastores on libyang 2.
 *
 * One nc_schema (a libyang context built from a YANG directory) is shared,
 * reference-counted, by every device that serves the same modules; it also
 * holds what the hello advertises (RFC 6020 section 5.6.4 capabilities),
 * the <get-schema> texts and the netconf-state/schemas list (RFC 6022).
 * One nc_store per device holds running (and candidate when the schema
 * enables it) as libyang data trees: an empty store is its struct only.
 *
 * Operations return NULL on success or a list of nc_error, each one
 * <rpc-error> (RFC 6241 section 4.3) for the message layer to encode.
 * XML comes in and goes out as strings: the content of <config>, of
 * <filter>, of <data>.
 */
#ifndef SBSIM_NC_STORE_H
#define SBSIM_NC_STORE_H

#include <stddef.h>
#include <stdint.h>

struct ly_ctx;
struct lyd_node;
struct nc_schema;
struct nc_store;

/* Datastores (RFC 6241 section 5.1); startup is not emulated. */
enum nc_ds {
	NC_DS_RUNNING = 0,
	NC_DS_CANDIDATE,
	NC_DS_MAX
};

/* nc_schema_new() flags. */
#define NC_SCHEMA_CANDIDATE	0x01	/* :candidate (RFC 6241 8.3) */

/*
 * One <rpc-error>.  type is "transport", "rpc", "protocol" or
 * "application"; tag is an RFC 6241 Appendix A error-tag string;
 * severity is "error".  app_tag, path (error-path), message
 * (error-message) and bad_element (error-info) may be NULL.
 * session_id is error-info for lock-denied and in-use (0: not held by
 * a NETCONF session).  Errors chain through next (continue-on-error).
 */
struct nc_error {
	struct nc_error	*next;
	const char	*type;
	const char	*tag;
	const char	*severity;
	char		*app_tag;
	char		*path;
	char		*message;
	char		*bad_element;
	uint32_t	 session_id;
};

/* <edit-config> parameters (RFC 6241 section 7.2). */
enum nc_defop	{ NC_DEFOP_MERGE = 0, NC_DEFOP_REPLACE, NC_DEFOP_NONE };
enum nc_errop	{ NC_ERROP_STOP = 0, NC_ERROP_CONTINUE, NC_ERROP_ROLLBACK };
enum nc_testop	{ NC_TEST_THEN_SET = 0, NC_TEST_SET, NC_TEST_ONLY };

struct nc_edit_opts {
	enum nc_defop	defop;
	enum nc_errop	errop;
	enum nc_testop	testop;
};

/* What an edit changed, in list and leaf-list entries. */
struct nc_edit_result {
	uint32_t	created;
	uint32_t	deleted;
	uint32_t	modified;	/* leaves given a new value */
};

/* A <filter> (RFC 6241 section 6 and 8.9). */
enum nc_filter_type {
	NC_FILTER_NONE = 0,	/* everything */
	NC_FILTER_SUBTREE,	/* text: the <filter> element or its content */
	NC_FILTER_XPATH		/* text: the select expression */
};

struct nc_filter {
	enum nc_filter_type	  type;
	const char		 *text;
	/*
	 * XPath only: NULL-terminated { prefix, namespace, ... } pairs in
	 * scope of the <filter> element; those prefixes are rewritten to
	 * module names.  Prefixes not listed must be module names.
	 */
	const char *const	 *nsmap;
};

/* Errors. */
void		 nc_error_free(struct nc_error *);

/*
 * Load every *.yang in dir (implemented, all features enabled), plus
 * ietf-netconf and ietf-netconf-monitoring from std_dir when dir lacks
 * them (std_dir may be NULL or equal dir).  NULL on failure, logged.
 * The schema starts with one reference.
 */
struct nc_schema *nc_schema_new(const char *dir, const char *std_dir,
		    int flags);
void		 nc_schema_unref(struct nc_schema *);
struct ly_ctx	*nc_schema_ctx(const struct nc_schema *);
/* Module capability URIs for <hello>: "NS?module=M&revision=R&features=". */
const char *const *nc_schema_capabilities(const struct nc_schema *,
		    size_t *n);
/*
 * <get-schema> (RFC 6022 section 3.1): format NULL, "yang" or "yin"
 * (a prefix such as "ncm:" is ignored), version NULL or "" for any.
 * On success *text points at the schema's cached copy.
 */
struct nc_error	*nc_schema_get_schema(struct nc_schema *,
		    const char *identifier, const char *version,
		    const char *format, const char **text);
/* <netconf-state><schemas>... (RFC 6022 section 2.1.3) as XML. */
const char	*nc_schema_schemas_xml(const struct nc_schema *);

/* A device's datastores; takes a reference on the schema. */
struct nc_store	*nc_store_new(struct nc_schema *);
void		 nc_store_free(struct nc_store *);
int		 nc_store_has_candidate(const struct nc_store *);
/* Number of list and leaf-list entries in a datastore. */
size_t		 nc_store_count(const struct nc_store *, enum nc_ds);

/* <get-config> and <get>: *xml is the content of <data>, "" if none. */
struct nc_error	*nc_store_get_config(struct nc_store *, enum nc_ds,
		    const struct nc_filter *, char **xml);
struct nc_error	*nc_store_get(struct nc_store *, const struct nc_filter *,
		    char **xml);
/* <edit-config>: config is the content of <config>; res may be NULL. */
struct nc_error	*nc_store_edit(struct nc_store *, uint32_t sid, enum nc_ds,
		    const char *config, const struct nc_edit_opts *,
		    struct nc_edit_result *res);
/* <copy-config> from a datastore (config NULL) or inline config. */
struct nc_error	*nc_store_copy(struct nc_store *, uint32_t sid,
		    enum nc_ds target, enum nc_ds source, const char *config);
/* <validate> (RFC 6241 section 8.6). */
struct nc_error	*nc_store_validate(struct nc_store *, enum nc_ds);

/* <lock>, <unlock> (RFC 6241 sections 7.5, 7.6). */
struct nc_error	*nc_store_lock(struct nc_store *, uint32_t sid, enum nc_ds);
struct nc_error	*nc_store_unlock(struct nc_store *, uint32_t sid,
		    enum nc_ds);
uint32_t	 nc_store_lock_owner(const struct nc_store *, enum nc_ds);
/* Session gone (close/kill/loss): drop its locks, its candidate edits. */
void		 nc_store_release_session(struct nc_store *, uint32_t sid);

/* <commit>, <discard-changes> (RFC 6241 section 8.3.4). */
struct nc_error	*nc_store_commit(struct nc_store *, uint32_t sid);
struct nc_error	*nc_store_discard(struct nc_store *, uint32_t sid);

#endif
