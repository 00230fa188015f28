/*
 * Declared options (opt.h): getopt_long's table, the help text and the
 * range errors, all from the rows.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "opt.h"

#define OPT_HELP_COLUMN	25	/* where the help text starts */
#define OPT_HELP_WIDTH	79	/* where a default goes under */
#define OPT_KEY_BASE	256	/* getopt values of long-only rows */

struct opt_ref {
	const struct opt	*row;
	struct opt_group	*group;
};

int
opt_uint(const char *name, const char *arg, uint64_t min, uint64_t max,
    uint64_t *out, char *err, size_t errlen)
{
	char			*end;
	unsigned long long	 v;

	/* Decimal, or hexadecimal with 0x (datapath ids): never octal, so
	 * that 010 is ten. */
	errno = 0;
	if (arg[0] == '0' && (arg[1] == 'x' || arg[1] == 'X'))
		v = strtoull(arg + 2, &end, 16);
	else
		v = strtoull(arg, &end, 10);
	if (*arg == '\0' || *arg == '-' || *arg == '+' || *end != '\0' ||
	    end == arg || errno != 0 || v < min || v > max) {
		snprintf(err, errlen, "--%s: '%s' is not a whole number from "
		    "%llu to %llu", name, arg, (unsigned long long)min,
		    (unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
}

int
opt_uint32(const char *name, const char *arg, uint64_t min, uint64_t max,
    uint32_t *out, char *err, size_t errlen)
{
	uint64_t	u;

	if (opt_uint(name, arg, min, max, &u, err, errlen) == -1)
		return -1;
	*out = (uint32_t)u;
	return 0;
}

int
opt_double(const char *name, const char *arg, double min, double max,
    double *out, char *err, size_t errlen)
{
	char	*end;
	double	 v;

	errno = 0;
	v = strtod(arg, &end);
	if (*arg == '\0' || *end != '\0' || errno != 0 || !isfinite(v) ||
	    v < min || v > max) {
		snprintf(err, errlen, "--%s: '%s' is not a number from %g to "
		    "%g", name, arg, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

void
opt_store_uint(void *field, uint8_t size, uint64_t v)
{
	switch (size) {
	case 1: { uint8_t u = (uint8_t)v; memcpy(field, &u, 1); break; }
	case 2: { uint16_t u = (uint16_t)v; memcpy(field, &u, 2); break; }
	case 4: { uint32_t u = (uint32_t)v; memcpy(field, &u, 4); break; }
	default: memcpy(field, &v, sizeof(v)); break;
	}
}

/* "--name: 'arg' is not one of a, b or c". */
static int
opt_enum(const struct opt *o, char *field, const char *arg, char *err,
    size_t errlen)
{
	size_t	i, n, k = 0, shown = 0, used;

	/* An empty name holds a value no argument selects. */
	for (n = 0; o->names[n] != NULL; n++) {
		if (o->names[n][0] == '\0')
			continue;
		shown++;
		if (strcmp(arg, o->names[n]) == 0) {
			opt_store_uint(field, o->size, n);
			return 0;
		}
	}
	used = (size_t)snprintf(err, errlen, "--%s: '%s' is not%s", o->name,
	    arg, shown > 2 ? " one of" : "");
	for (i = 0; i < n && used < errlen; i++) {
		if (o->names[i][0] == '\0')
			continue;
		k++;
		used += (size_t)snprintf(err + used, errlen - used, "%s%s",
		    k == 1 ? " " : k == shown ? " or " : ", ", o->names[i]);
	}
	return -1;
}

int
opt_apply(const struct opt *o, void *base, const char *arg, char *err,
    size_t errlen)
{
	char		*field = (char *)base + o->off;
	uint64_t	 u;
	int		 i;

	switch (o->kind) {
	case OPT_FLAG:
		i = 1;
		memcpy(field, &i, sizeof(i));
		return 0;
	case OPT_COUNT:
		memcpy(&i, field, sizeof(i));
		i++;
		memcpy(field, &i, sizeof(i));
		return 0;
	case OPT_UINT:
		if (opt_uint(o->name, arg, o->min, o->max, &u, err,
		    errlen) == -1)
			return -1;
		opt_store_uint(field, o->size, u);
		return 0;
	case OPT_DOUBLE:
		return opt_double(o->name, arg, o->dmin, o->dmax,
		    (double *)(void *)field, err, errlen);
	case OPT_STRING:
		memcpy(field, &arg, sizeof(arg));
		return 0;
	case OPT_ENUM:
		return opt_enum(o, field, arg, err, errlen);
	case OPT_FUNC:
		return o->parse(base, arg, err, errlen);
	case OPT_PARSE:
		return o->parse_at(o->name, arg, field, err, errlen);
	default:
		snprintf(err, errlen, "--%s: no such kind of option", o->name);
		return -1;
	}
}

static int
opt_takes_arg(const struct opt *o)
{
	return o->kind != OPT_FLAG && o->kind != OPT_COUNT &&
	    !(o->kind == OPT_FUNC && o->meta == NULL);
}

static int
opt_is_note(const struct opt *o)
{
	return o->name[0] == '\0';
}

/* A field of 1, 2, 4 or 8 bytes as a number. */
static uint64_t
opt_load_uint(const void *field, uint8_t size)
{
	uint8_t		u8;
	uint16_t	u16;
	uint32_t	u32;
	uint64_t	u64;

	switch (size) {
	case 1: memcpy(&u8, field, 1); return u8;
	case 2: memcpy(&u16, field, 2); return u16;
	case 4: memcpy(&u32, field, 4); return u32;
	default: memcpy(&u64, field, 8); return u64;
	}
}

int
opt_show_uint(const struct opt *o, const void *base, char *buf, size_t len)
{
	snprintf(buf, len, "%llu", (unsigned long long)opt_load_uint(
	    (const char *)base + o->off, o->size));
	return 0;
}

int
opt_show_string(const struct opt *o, const void *base, char *buf,
    size_t len)
{
	const char	*s;

	memcpy(&s, (const char *)base + o->off, sizeof(s));
	if (s == NULL || *s == '\0')
		return -1;
	snprintf(buf, len, "%s", s);
	return 0;
}

/* The field's value as --help shows it; -1 when the option cannot take
 * it (unset: "no limit", "none", computed later). */
static int
opt_field_default(const struct opt *o, const void *base, char *buf,
    size_t len)
{
	const char	*field = (const char *)base + o->off;
	uint64_t	 u, n;
	double		 d;

	switch (o->kind) {
	case OPT_UINT:
		u = opt_load_uint(field, o->size);
		if (u < o->min || u > o->max)
			return -1;
		return opt_show_uint(o, base, buf, len);
	case OPT_DOUBLE:
		memcpy(&d, field, sizeof(d));
		if (!(d >= o->dmin && d <= o->dmax))
			return -1;
		snprintf(buf, len, "%g", d);
		return 0;
	case OPT_STRING:
		return opt_show_string(o, base, buf, len);
	case OPT_ENUM:
		u = opt_load_uint(field, o->size);
		for (n = 0; o->names[n] != NULL && n < u; n++)
			;
		if (o->names[n] == NULL || o->names[n][0] == '\0')
			return -1;
		snprintf(buf, len, "%s", o->names[n]);
		return 0;
	default:
		return -1;
	}
}

int
opt_default(const struct opt *o, const void *base, char *buf, size_t len)
{
	buf[0] = '\0';
	if (o->def != NULL) {
		snprintf(buf, len, "%s", o->def);
		return o->def[0] != '\0' ? 0 : -1;
	}
	if (base == NULL)
		return -1;
	if (o->show != NULL)
		return o->show(o, base, buf, len);
	return opt_field_default(o, base, buf, len);
}

/* One line of help text at the column (col: where the cursor is). */
static void
opt_help_line(FILE *f, int col, const char *h, int n)
{
	fprintf(f, "%*s%.*s", OPT_HELP_COLUMN - col, "", n, h);
}

/* " (default X)" after the last line of help (n columns long) when it
 * fits within OPT_HELP_WIDTH, else under it; a '\n' in X goes to the
 * column. */
static void
opt_help_default(FILE *f, int n, const char *def)
{
	const char	*nl;

	if (strchr(def, '\n') == NULL && OPT_HELP_COLUMN + n +
	    (int)(strlen(def) + sizeof(" (default )") - 1) <= OPT_HELP_WIDTH) {
		fprintf(f, " (default %s)", def);
		return;
	}
	fprintf(f, "\n%*s(default ", OPT_HELP_COLUMN, "");
	while ((nl = strchr(def, '\n')) != NULL) {
		fprintf(f, "%.*s\n%*s", (int)(nl - def), def, OPT_HELP_COLUMN,
		    "");
		def = nl + 1;
	}
	fprintf(f, "%s)", def);
}

/* One help entry: "  -v, --name META" then its text at the column, and
 * "(default X)" from the group's base after its last line, or under it
 * when the line would pass OPT_HELP_WIDTH. */
static void
opt_help_row(FILE *f, const struct opt *o, const void *base)
{
	const char	*h = o->help != NULL ? o->help : "", *nl;
	char		 def[128];
	int		 col, n, has_def;

	if (opt_is_note(o)) {
		fprintf(f, "%s\n", h);
		return;
	}
	has_def = opt_default(o, base, def, sizeof(def)) == 0;
	if (o->key != 0)
		col = fprintf(f, "  -%c, --%s", o->key, o->name);
	else
		col = fprintf(f, "  --%s", o->name);
	if (o->meta != NULL)
		col += fprintf(f, " %s", o->meta);
	if (col >= OPT_HELP_COLUMN) {
		fputc('\n', f);
		col = 0;
	}
	do {
		nl = strchr(h, '\n');
		n = nl != NULL ? (int)(nl - h) : (int)strlen(h);
		opt_help_line(f, col, h, n);
		col = 0;
		h = nl != NULL ? nl + 1 : NULL;
		if (h != NULL && *h != '\0') {
			fputc('\n', f);
			continue;
		}
		if (has_def)
			opt_help_default(f, n, def);
		fputc('\n', f);
	} while (h != NULL && *h != '\0');
}

void
opt_help(FILE *f, const char *usage, const struct opt_group *g,
    size_t ngroups)
{
	const struct opt	*o;
	size_t			 i;

	fputs(usage, f);
	for (i = 0; i < ngroups; i++) {
		if (g[i].title != NULL)
			fprintf(f, "%s\n", g[i].title);
		for (o = g[i].rows; o->name != NULL; o++)
			if (o->help != NULL)
				opt_help_row(f, o, g[i].base);
	}
}

static size_t
opt_count(const struct opt_group *g, size_t ngroups)
{
	const struct opt	*o;
	size_t			 i, n = 0;

	for (i = 0; i < ngroups; i++)
		for (o = g[i].rows; o->name != NULL; o++)
			n++;
	return n;
}

/* getopt_long's tables from the rows: long options, the short string
 * (":" first, so a missing argument is told apart) and the way back. */
static struct option *
opt_table(struct opt_group *g, size_t ngroups, struct opt_ref **refs,
    char **shorts)
{
	struct option		*lo;
	const struct opt	*o;
	size_t			 i, n = opt_count(g, ngroups), k = 0, s = 1;

	lo = xcalloc(n + 1, sizeof(*lo));
	*refs = xcalloc(n + 1, sizeof(**refs));
	*shorts = xcalloc(3 * n + 2, 1);
	(*shorts)[0] = ':';
	for (i = 0; i < ngroups; i++)
		for (o = g[i].rows; o->name != NULL; o++) {
			if (opt_is_note(o))
				continue;
			(*refs)[k].row = o;
			(*refs)[k].group = &g[i];
			lo[k].name = o->name;
			lo[k].has_arg = opt_takes_arg(o) ? required_argument :
			    no_argument;
			lo[k].val = o->key != 0 ? o->key :
			    OPT_KEY_BASE + (int)k;
			if (o->key != 0) {
				(*shorts)[s++] = (char)o->key;
				if (opt_takes_arg(o))
					(*shorts)[s++] = ':';
			}
			k++;
		}
	return lo;
}

static const struct opt_ref *
opt_find(const struct opt_ref *refs, int c)
{
	size_t	k;

	if (c >= OPT_KEY_BASE)
		return &refs[c - OPT_KEY_BASE];
	for (k = 0; refs[k].row != NULL; k++)
		if (refs[k].row->key == c)
			return &refs[k];
	return NULL;
}

static _Noreturn void
opt_die(const char *prog, const char *msg)
{
	fprintf(stderr, "%s: %s\n", prog, msg);
	exit(CLI_EXIT_USAGE);
}

/* The message for what getopt_long refused; help is the command whose
 * --help lists the options. */
static void
opt_refused(const char *prog, const char *help, int c, char **argv)
{
	char		 err[512];

	if (c == ':')
		snprintf(err, sizeof(err), "%s needs an argument",
		    argv[optind - 1]);
	else if (optopt > 0 && optopt < 128 && isalnum(optopt) &&
	    strncmp(argv[optind - 1], "--", 2) != 0)
		/* An unknown letter, maybe amid a cluster (-xq) where
		 * getopt has not moved optind yet: name the letter. */
		snprintf(err, sizeof(err), "unknown option '-%c' (see %s "
		    "--help)", optopt, help);
	else
		snprintf(err, sizeof(err), "unknown option '%s' (see %s "
		    "--help)", argv[optind - 1], help);
	opt_die(prog, err);
}

static void
opt_one(const char *prog, const char *usage, const struct opt_ref *r,
    struct opt_group *g, size_t ngroups, const char *arg)
{
	char	err[512];

	if (strcmp(r->row->name, "help") == 0) {
		opt_help(stdout, usage, g, ngroups);
		exit(0);
	}
	err[0] = '\0';
	if (opt_apply(r->row, r->group->base, arg, err, sizeof(err)) == -1)
		opt_die(prog, err[0] != '\0' ? err : "bad option");
	if (r->group->given != NULL)
		*r->group->given |= r->row->mark;
}

/* The tables of the parse under way: reachable from here while an error
 * or --help exits, so that LeakSanitizer does not call them lost. */
static struct {
	struct opt_ref	*refs;
	struct option	*lo;
	char		*shorts;
} opt_now;

void
opt_parse(const char *prog, const char *usage, struct opt_group *g,
    size_t ngroups, int argc, char **argv)
{
	opt_parse_as(prog, strchr(prog, ' ') != NULL ? prog : "sbsim", usage,
	    g, ngroups, argc, argv);
}

void
opt_parse_as(const char *prog, const char *help, const char *usage,
    struct opt_group *g, size_t ngroups, int argc, char **argv)
{
	struct opt_ref		*refs;
	const struct opt_ref	*r;
	struct option		*lo;
	char			*shorts, err[512];
	int			 c;

	lo = opt_table(g, ngroups, &refs, &shorts);
	opt_now.lo = lo;
	opt_now.refs = refs;
	opt_now.shorts = shorts;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		if (c == ':' || c == '?' || (r = opt_find(refs, c)) == NULL)
			opt_refused(prog, help, c, argv);
		opt_one(prog, usage, r, g, ngroups, optarg);
	}
	free(lo);
	free(refs);
	free(shorts);
	memset(&opt_now, 0, sizeof(opt_now));
	if (optind < argc) {
		snprintf(err, sizeof(err), "unexpected argument '%s' (see %s "
		    "--help)", argv[optind], help);
		opt_die(prog, err);
	}
}
