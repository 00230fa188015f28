/*
 * One small API over YANG-shaped documents in JSON (RFC 7951, jansson) and
 * XML (RFC 7950 section 7, libxml2), so that a RESTCONF handler reads a
 * request body and writes a reply without caring which format it is.
 *
 * Reading: names match with or without a module prefix
 * ("flow-node-inventory:flow" and "flow" are the same child), a list is
 * a JSON array or repeated XML elements, and every accessor is bounded.
 * Writing: containers, lists and leaves streamed into an evbuffer; the
 * module (JSON member prefix, XML namespace) is written where it changes.
 */
#ifndef SBSIM_DOC_H
#define SBSIM_DOC_H

#include <stddef.h>
#include <stdint.h>

#include "http_server.h"

#define DOC_MAX_DEPTH	32	/* of a written document */

/* A parsed document; owns its tree. */
struct doc {
	enum http_fmt	 fmt;
	void		*tree;		/* json_t * or xmlDoc * */
};

/* A node of a parsed document, valid while the document lives. */
struct doc_node {
	enum http_fmt	 fmt;
	void		*p;		/* json_t *, xmlNode * or xmlDoc * */
};

/* The instances of one child name: a JSON array's members (or the one
 * value), or XML sibling elements of that name. */
struct doc_iter {
	struct doc_node	 parent;
	const char	*name;
	void		*cur;		/* the array, or the last element */
	size_t		 i;
	int		 started;
};

/* Parse a body; -1 with the parser's message (and position) in err. */
int	 doc_parse(struct doc *, enum http_fmt, const char *data, size_t len,
	    char *err, size_t errlen);
void	 doc_free(struct doc *);
/* The node above the top element: its child is the top element. */
void	 doc_root(const struct doc *, struct doc_node *);
/* First child called name (prefix ignored); 0, or -1 when there is none. */
int	 doc_child(const struct doc_node *, const char *name,
	    struct doc_node *);
void	 doc_iter_init(struct doc_iter *, const struct doc_node *parent,
	    const char *name);
/* 1 with the next instance in out, 0 at the end. */
int	 doc_iter_next(struct doc_iter *, struct doc_node *out);
/* A leaf's value as text (JSON strings, numbers and booleans; XML text
 * content); -1 when it is not a leaf or does not fit in cap. */
int	 doc_string(const struct doc_node *, char *out, size_t cap);
/* A leaf's value as an unsigned integer of at most max (a JSON number or
 * a string of digits, as RFC 7951 section 6.1 writes 64-bit ones). */
int	 doc_uint(const struct doc_node *, uint64_t max, uint64_t *);
/* The same, of a child. */
int	 doc_get_string(const struct doc_node *, const char *name, char *out,
	    size_t cap);
int	 doc_get_uint(const struct doc_node *, const char *name, uint64_t max,
	    uint64_t *);

/* A YANG module: its name prefixes JSON members (none when NULL), its
 * namespace is the XML one. */
struct doc_module {
	const char	*name;
	const char	*ns;
};

struct doc_writer {
	struct evbuffer		*out;
	enum http_fmt		 fmt;
	int			 depth;
	int			 err;	/* nesting misused; checked once */
	struct {
		int			 kind;	/* DOC_K_* in doc.c */
		const struct doc_module	*mod;	/* in effect here */
		const char		*name;
		int			 first;	/* JSON: no member yet */
	} lvl[DOC_MAX_DEPTH];
};

void	 doc_writer_init(struct doc_writer *, enum http_fmt,
	    struct evbuffer *);
/* mod NULL: the enclosing node's module. */
void	 doc_container(struct doc_writer *, const struct doc_module *,
	    const char *name);
void	 doc_list(struct doc_writer *, const struct doc_module *,
	    const char *name);
void	 doc_entry(struct doc_writer *);	/* one list entry */
void	 doc_end(struct doc_writer *);		/* closes the innermost */
void	 doc_leaf_str(struct doc_writer *, const char *name, const char *);
/* A leaf of module mod (an augment's: prefixed in JSON, RFC 7951 section
 * 4, in its namespace in XML); text as is, quoted in JSON when asked. */
void	 doc_leaf_in(struct doc_writer *, const struct doc_module *mod,
	    const char *name, const char *text, int quoted);
void	 doc_leaf_uint(struct doc_writer *, const char *name, uint64_t);
void	 doc_leaf_bool(struct doc_writer *, const char *name, int);
/* A leaf qualified by a module other than its parent's. */
void	 doc_leaf_mod(struct doc_writer *, const struct doc_module *,
	    const char *name, const char *);
void	 doc_leaf_list_uint(struct doc_writer *, const char *name,
	    const uint32_t *, size_t n);
void	 doc_leaf_list_str(struct doc_writer *, const char *name,
	    const char *const *, size_t n);
/* Close what is open and end the document; -1 if it was misused. */
int	 doc_finish(struct doc_writer *);

#endif
