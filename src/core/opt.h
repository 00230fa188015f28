/*
 * Declared options: one row per option (name, argument kind, range, where
 * the value goes, help), from which getopt_long's table, the --help text
 * and the range errors are made.  Rows come in groups; a group's rows
 * store into one struct (the group's base) and OR their mark into the
 * group's given mask, so that checks made after parsing ("the --foo-*
 * options need --foo") see which options were given.
 *
 *	static const struct opt rows[] = {
 *		OPT_U("ports", "N", struct foo_config, ports, 1, 64, 0,
 *		    "ports per switch"),
 *		OPT_U("message-count", "N", struct foo_config, msg_count,
 *		    1, UINT64_MAX / 2, 0, "messages per switch",
 *		    .def = "no limit"),
 *		OPT_END
 *	};
 *
 * A default is stored once: in the group's base, which the command fills
 * with its defaults before parsing.  --help reads each row's field there
 * and ends its text with "(default 4)" (opt_default()): a number, a
 * double as %g in the option's own unit, an enum's name, a string.  A
 * value the option cannot take (0 below min, NULL, an enum's unnamed
 * value) is "unset" and shows nothing.  A row whose default is not in its
 * field (computed later, or an OPT_FUNC row's) names it in .def, or
 * prints it with .show; .def = "" shows nothing.  Extra designated
 * initialisers (.def, .show) follow the help text in every row macro.
 *
 * Errors read "--ports: '65' is not a whole number from 1 to 64", or for
 * a choice "--delete: 'x' is not one of none, strict or all" ("is not
 * ssh or tcp" for two); a
 * command dies with them as "sbsim CMD: ..." and exit status 2.
 */
#ifndef SBSIM_OPT_H
#define SBSIM_OPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The exit status of a command line error (any command). */
#define CLI_EXIT_USAGE	2

enum opt_kind {
	OPT_END_KIND,
	OPT_FLAG,	/* no argument: the int field becomes 1 */
	OPT_COUNT,	/* no argument: the int field counts (-v -v) */
	OPT_UINT,	/* a whole number in [min, max], field of any width */
	OPT_DOUBLE,	/* a number in [dmin, dmax] into a double */
	OPT_STRING,	/* the argument itself (borrowed from argv) */
	OPT_ENUM,	/* one of names[]: its index into a field ("" names
			   a value no argument selects) */
	OPT_FUNC,	/* parse() does it */
	OPT_PARSE,	/* parse_at() fills the field */
};

struct opt {
	const char		*name;		/* long name, without "--" */
	int			 key;		/* short option letter, or 0 */
	enum opt_kind		 kind;
	uint8_t			 size;		/* OPT_UINT, OPT_ENUM: field width */
	unsigned		 mark;		/* OR-ed into the group's given */
	size_t			 off;		/* the field in the group's base */
	uint64_t		 min, max;	/* OPT_UINT */
	double			 dmin, dmax;	/* OPT_DOUBLE */
	const char *const	*names;		/* OPT_ENUM, NULL-terminated */
	/* OPT_FUNC: base is the group's; 0, or -1 with a message in err
	 * naming the option ("--topology: ..."). */
	int			(*parse)(void *base, const char *arg,
				    char *err, size_t errlen);
	/* OPT_PARSE: the row's name (for "--NAME: ..." errors), the
	 * argument and the field; 0, or -1 with a message in err. */
	int			(*parse_at)(const char *name, const char *arg,
				    void *field, char *err, size_t errlen);
	const char		*meta;		/* argument's name in the help */
	const char		*help;		/* '\n' between lines */
	/* The default --help shows when the field cannot: "" for none. */
	const char		*def;
	/* The default as text from the group's base (OPT_FUNC, OPT_PARSE
	 * rows; an OPT_FUNC row may set .off for a helper that reads one
	 * field): 0, or -1 when it is unset. */
	int			(*show)(const struct opt *, const void *base,
				    char *buf, size_t len);
};

/* A field's offset with a check that it has the type the kind writes. */
#define OPT_FIELD(type, field, ctype) \
	(offsetof(type, field) + 0 * sizeof((ctype *)0 == &((type *)0)->field))
#define OPT_WIDTH(type, field)	((uint8_t)sizeof(((type *)0)->field))

#define OPT_U(n, m, type, field, lo, hi, mk, ...)			\
	{ .name = n, .kind = OPT_UINT, .size = OPT_WIDTH(type, field),	\
	  .off = offsetof(type, field), .min = lo, .max = hi,		\
	  .mark = mk, .meta = m, .help = __VA_ARGS__ }
#define OPT_D(n, m, type, field, lo, hi, mk, ...)			\
	{ .name = n, .kind = OPT_DOUBLE,				\
	  .off = OPT_FIELD(type, field, double), .dmin = lo,		\
	  .dmax = hi, .mark = mk, .meta = m, .help = __VA_ARGS__ }
#define OPT_S(n, m, type, field, mk, ...)				\
	{ .name = n, .kind = OPT_STRING,				\
	  .off = OPT_FIELD(type, field, const char *), .mark = mk,	\
	  .meta = m, .help = __VA_ARGS__ }
#define OPT_F(n, type, field, mk, ...)					\
	{ .name = n, .kind = OPT_FLAG, .off = OPT_FIELD(type, field, int), \
	  .mark = mk, .help = __VA_ARGS__ }
#define OPT_E(n, m, type, field, nm, mk, ...)				\
	{ .name = n, .kind = OPT_ENUM, .size = OPT_WIDTH(type, field),	\
	  .off = offsetof(type, field), .names = nm, .mark = mk,	\
	  .meta = m, .help = __VA_ARGS__ }
#define OPT_FN(n, m, fn, mk, ...)					\
	{ .name = n, .kind = OPT_FUNC, .parse = fn, .mark = mk,		\
	  .meta = m, .help = __VA_ARGS__ }
/* A field of type ctype filled by a parser shared by several rows. */
#define OPT_P(n, m, type, field, ctype, fn, mk, ...)			\
	{ .name = n, .kind = OPT_PARSE, .parse_at = fn,			\
	  .size = (uint8_t)(sizeof(ctype) <= 8 ? sizeof(ctype) : 0),	\
	  .off = OPT_FIELD(type, field, ctype), .mark = mk, .meta = m,	\
	  .help = __VA_ARGS__ }
#define OPT_F_KEY(n, k, type, field, ...)				\
	{ .name = n, .key = k, .kind = OPT_FLAG,			\
	  .off = OPT_FIELD(type, field, int), .help = __VA_ARGS__ }
#define OPT_C_KEY(n, k, type, field, ...)				\
	{ .name = n, .key = k, .kind = OPT_COUNT,			\
	  .off = OPT_FIELD(type, field, int), .help = __VA_ARGS__ }
/*
 * Two rows for a load run for a while once the other phases are over:
 * --STEM-rate R a second (0: none; at most hi) and --STEM-duration S,
 * "seconds of " what.
 */
#define OPT_RATE_FOR(stem, type, rate, hi, secs, what, ...)		\
	OPT_D(stem "-rate", "R", type, rate, 0, hi, 0, __VA_ARGS__),	\
	OPT_D(stem "-duration", "S", type, secs, 0.1, 86400, 0,	\
	    "seconds of " what)
/* -h, --help: opt_parse prints the help and exits 0. */
#define OPT_HELP_ROW							\
	{ .name = "help", .key = 'h', .kind = OPT_FUNC,			\
	  .help = "this help" }
/* A line of help with no option of its own (a note under a group). */
#define OPT_NOTE(h)	{ .name = "", .kind = OPT_FUNC, .help = h }
#define OPT_END		{ .name = NULL }

struct opt_group {
	const char		*title;		/* heading in --help, or NULL */
	const struct opt	*rows;		/* ending with OPT_END */
	void			*base;		/* where the rows store */
	unsigned		*given;		/* marks seen, or NULL */
};

/*
 * Parse argv[1..] against the groups.  prog names the command in errors
 * ("sbsim NAME"); usage heads --help.  Every error is one line
 * "PROG: message" on stderr and exit status 2; -h/--help (when a row
 * declares "help") prints the help and exits 0.  Arguments that are not
 * options are refused.
 */
void	 opt_parse(const char *prog, const char *usage, struct opt_group *,
	    size_t ngroups, int argc, char **argv);
/* The same, errors pointing at "HELP --help" (the command that lists
 * the options: a protocol's command for a scenario's group). */
void	 opt_parse_as(const char *prog, const char *help, const char *usage,
	    struct opt_group *, size_t ngroups, int argc, char **argv);
/* The help text the groups declare, after usage. */
void	 opt_help(FILE *, const char *usage, const struct opt_group *,
	    size_t ngroups);
/* The default --help shows for a row, from .def, .show or its field in
 * the group's base (NULL: only .def): 0 with it in buf, or -1 (unset). */
int	 opt_default(const struct opt *, const void *base, char *buf,
	    size_t len);
/* .show helpers: an OPT_PARSE row's whole-number field (.size bytes:
 * sizeof its ctype), a const char * field (-1 when NULL or empty). */
int	 opt_show_uint(const struct opt *, const void *base, char *buf,
	    size_t len);
int	 opt_show_string(const struct opt *, const void *base, char *buf,
	    size_t len);
/* One argument for one row into base; 0, or -1 with a message in err. */
int	 opt_apply(const struct opt *, void *base, const char *arg, char *err,
	    size_t errlen);
/* Store v into an unsigned field of the given width. */
void	 opt_store_uint(void *field, uint8_t size, uint64_t v);

/* Number parsers for option arguments; -1 with a message in err. */
int	 opt_uint(const char *name, const char *arg, uint64_t min,
	    uint64_t max, uint64_t *out, char *err, size_t errlen);
/* The same into a 32-bit field (max at most UINT32_MAX). */
int	 opt_uint32(const char *name, const char *arg, uint64_t min,
	    uint64_t max, uint32_t *out, char *err, size_t errlen);
int	 opt_double(const char *name, const char *arg, double min, double max,
	    double *out, char *err, size_t errlen);

#endif
