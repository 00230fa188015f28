/*
 * Unit tests of src/core/opt.c, the declared options: every kind of row
 * through opt_apply() and its exact messages, the widths opt_store_uint()
 * writes, opt_parse() over groups (marks, short keys, argument forms) and
 * its errors (it exits: those run in a child whose stderr is read through
 * a pipe), and the help text opt_help() makes (column 25, wrapping).
 */
#include <sys/wait.h>

#include <stdint.h>
#include <unistd.h>

#include "opt.h"

#include "check.h"

#define PROG	"sbsim test"

/* The command opt_parse names in its errors. */
static const char	*prog = PROG;

struct cfg {
	uint8_t		 pre;		/* guards around the narrow fields */
	uint8_t		 u8;
	uint8_t		 post;
	uint16_t	 u16;
	uint16_t	 post16;
	uint32_t	 u32;
	uint32_t	 post32;
	uint64_t	 u64;
	int		 flag;
	int		 dry;
	int		 verbose;
	double		 rate;
	const char	*name;
	uint8_t		 mode;
	uint8_t		 post_mode;
	unsigned	 mode4;
	uint32_t	 count;
	int		 fn_calls;
	const char	*fn_arg;
	void		*fn_base;
};

struct other {
	int		 quiet;
	const char	*file;
};

enum {
	M_FLAG = 1 << 0, M_U8 = 1 << 1, M_U16 = 1 << 2, M_U32 = 1 << 3,
	M_U64 = 1 << 4, M_RATE = 1 << 5, M_NAME = 1 << 6, M_MODE = 1 << 7,
	M_FN = 1 << 8, M_COUNT = 1 << 9, M_DRY = 1 << 10, M_FILE = 1 << 11,
	M_QUIET = 1 << 12,
};

static const char *const modes[] = { "a", "b", "c", NULL };
static const char *const pair[] = { "x", "y", NULL };
/* Value 0 is the default no word selects. */
static const char *const hidden[] = { "", "on", "off", NULL };

/* "--topology: ..." for "bad", an empty message for "silent". */
static int
parse_topo(void *base, const char *arg, char *err, size_t errlen)
{
	struct cfg	*c = base;

	c->fn_calls++;
	c->fn_arg = arg;
	c->fn_base = base;
	if (arg != NULL && strcmp(arg, "bad") == 0) {
		snprintf(err, errlen, "--topology: '%s' is no topology", arg);
		return -1;
	}
	if (arg != NULL && strcmp(arg, "silent") == 0)
		return -1;
	return 0;
}

/* An OPT_P parser: "even" numbers only, into a uint32_t; it gets the
 * row's name for its message. */
static int
parse_even(const char *name, const char *arg, void *field, char *err,
    size_t errlen)
{
	unsigned long	v = strtoul(arg, NULL, 10);

	if (v % 2 != 0) {
		snprintf(err, errlen, "--%s: '%s' is odd", name, arg);
		return -1;
	}
	*(uint32_t *)field = (uint32_t)v;
	return 0;
}

static const struct opt rows[] = {
	OPT_F("flag", struct cfg, flag, M_FLAG, "a flag"),
	OPT_U("u8", "N", struct cfg, u8, 1, 200, M_U8, "one byte"),
	OPT_U("u16", "N", struct cfg, u16, 0, 65535, M_U16, "two bytes"),
	OPT_U("u32", "N", struct cfg, u32, 0, UINT32_MAX, M_U32,
	    "four bytes"),
	OPT_U("u64", "N", struct cfg, u64, 0, UINT64_MAX, M_U64,
	    "eight bytes"),
	OPT_D("rate", "R", struct cfg, rate, 0.5, 100, M_RATE, "a rate"),
	OPT_S("name", "S", struct cfg, name, M_NAME, "a name"),
	OPT_E("mode", "M", struct cfg, mode, modes, M_MODE, "a, b or c"),
	OPT_E("pair", "P", struct cfg, mode4, pair, 0, "x or y"),
	OPT_E("hidden", "H", struct cfg, mode4, hidden, 0, NULL),
	OPT_FN("topology", "T", parse_topo, M_FN, "a function"),
	OPT_FN("dry", NULL, parse_topo, M_DRY, "a function, no argument"),
	OPT_P("even", "N", struct cfg, count, uint32_t, parse_even, 0, NULL),
	{ .name = "count", .key = 'n', .kind = OPT_UINT,
	  .size = OPT_WIDTH(struct cfg, count),
	  .off = offsetof(struct cfg, count), .min = 1, .max = 10,
	  .mark = M_COUNT, .meta = "N", .help = "a short key with argument" },
	OPT_C_KEY("verbose", 'v', struct cfg, verbose, "more"),
	OPT_HELP_ROW,
	OPT_END
};

static const struct opt other_rows[] = {
	OPT_S("file", "F", struct other, file, M_FILE, "a file"),
	OPT_F_KEY("quiet", 'q', struct other, quiet, "quiet"),
	OPT_END
};

/* The row named name in rows[]. */
static const struct opt *
row(const char *name)
{
	const struct opt	*o;

	for (o = rows; o->name != NULL; o++)
		if (strcmp(o->name, name) == 0)
			return o;
	fprintf(stderr, "no row %s\n", name);
	exit(2);
}

/* opt_apply on rows[name]: its return, and the message in err. */
static int
apply(struct cfg *c, const char *name, const char *arg, char *err,
    size_t errlen)
{
	err[0] = '\0';
	return opt_apply(row(name), c, arg, err, errlen);
}

/* One refused argument: -1, the exact message, and the field untouched. */
#define CHECK_REFUSED(c, name, arg, want) do {				\
	struct cfg	_before;					\
	char		_err[256];					\
	int		_rc;						\
	memcpy(&_before, (c), sizeof(_before));				\
	_rc = apply((c), (name), (arg), _err, sizeof(_err));		\
	CHECK(_rc == -1 && strcmp(_err, (want)) == 0 &&			\
	    memcmp(&_before, (c), sizeof(_before)) == 0,		\
	    "--%s %s: \"%s\"", (name), (arg), _err);			\
} while (0)

static void
test_flag_count(void)
{
	struct cfg	c;
	char		err[64];

	memset(&c, 0, sizeof(c));
	CHECK(apply(&c, "flag", NULL, err, sizeof(err)) == 0 && c.flag == 1,
	    "flag sets 1");
	CHECK(apply(&c, "flag", NULL, err, sizeof(err)) == 0 && c.flag == 1,
	    "flag twice stays 1");
	CHECK(apply(&c, "verbose", NULL, err, sizeof(err)) == 0 &&
	    apply(&c, "verbose", NULL, err, sizeof(err)) == 0 &&
	    apply(&c, "verbose", NULL, err, sizeof(err)) == 0 &&
	    c.verbose == 3, "count counts: %d", c.verbose);
}

static void
test_uint_widths(void)
{
	struct cfg	c;
	char		err[128];

	memset(&c, 0xee, sizeof(c));
	CHECK(apply(&c, "u8", "200", err, sizeof(err)) == 0 && c.u8 == 200 &&
	    c.pre == 0xee && c.post == 0xee, "u8 200, neighbours kept");
	CHECK(apply(&c, "u16", "65535", err, sizeof(err)) == 0 &&
	    c.u16 == 65535 && c.post16 == 0xeeee, "u16 65535");
	CHECK(apply(&c, "u16", "0", err, sizeof(err)) == 0 && c.u16 == 0 &&
	    c.post16 == 0xeeee, "u16 0");
	CHECK(apply(&c, "u32", "4294967295", err, sizeof(err)) == 0 &&
	    c.u32 == UINT32_MAX && c.post32 == 0xeeeeeeee, "u32 max");
	CHECK(apply(&c, "u64", "18446744073709551615", err, sizeof(err)) == 0
	    && c.u64 == UINT64_MAX, "u64 max");
	CHECK(apply(&c, "u64", "0x123456789abcdef0", err, sizeof(err)) == 0
	    && c.u64 == 0x123456789abcdef0ULL, "u64 in hex");
	CHECK(apply(&c, "u8", "0x10", err, sizeof(err)) == 0 && c.u8 == 16,
	    "0x10 is 16");
	CHECK(apply(&c, "u8", "010", err, sizeof(err)) == 0 && c.u8 == 10,
	    "010 is ten, not octal");
	CHECK(apply(&c, "count", "7", err, sizeof(err)) == 0 && c.count == 7,
	    "a hand-written row");
}

static void
test_uint_errors(void)
{
	struct cfg	c;

	memset(&c, 0, sizeof(c));
	CHECK_REFUSED(&c, "u8", "201",
	    "--u8: '201' is not a whole number from 1 to 200");
	CHECK_REFUSED(&c, "u8", "0",
	    "--u8: '0' is not a whole number from 1 to 200");
	CHECK_REFUSED(&c, "u8", "-1",
	    "--u8: '-1' is not a whole number from 1 to 200");
	CHECK_REFUSED(&c, "u8", "+5",
	    "--u8: '+5' is not a whole number from 1 to 200");
	CHECK_REFUSED(&c, "u8", "",
	    "--u8: '' is not a whole number from 1 to 200");
	CHECK_REFUSED(&c, "u8", "5x",
	    "--u8: '5x' is not a whole number from 1 to 200");
	CHECK_REFUSED(&c, "u8", "0x",
	    "--u8: '0x' is not a whole number from 1 to 200");
	CHECK_REFUSED(&c, "u16", "65536",
	    "--u16: '65536' is not a whole number from 0 to 65535");
	CHECK_REFUSED(&c, "u32", "4294967296",
	    "--u32: '4294967296' is not a whole number from 0 to 4294967295");
	CHECK_REFUSED(&c, "u64", "18446744073709551616",
	    "--u64: '18446744073709551616' is not a whole number from 0 to "
	    "18446744073709551615");
	CHECK_REFUSED(&c, "count", "11",
	    "--count: '11' is not a whole number from 1 to 10");
}

static void
test_store_uint(void)
{
	uint8_t		b[16];
	uint16_t	u16;
	uint32_t	u32;
	uint64_t	u64;

	memset(b, 0xee, sizeof(b));
	opt_store_uint(b + 1, 1, 0x1ff);
	CHECK(b[0] == 0xee && b[1] == 0xff && b[2] == 0xee,
	    "width 1 truncates and keeps its neighbours");
	memset(b, 0xee, sizeof(b));
	opt_store_uint(b + 1, 2, 0x12345);
	memcpy(&u16, b + 1, 2);
	CHECK(u16 == 0x2345 && b[0] == 0xee && b[3] == 0xee, "width 2");
	memset(b, 0xee, sizeof(b));
	opt_store_uint(b + 1, 4, 0x123456789ULL);
	memcpy(&u32, b + 1, 4);
	CHECK(u32 == 0x23456789 && b[0] == 0xee && b[5] == 0xee, "width 4");
	memset(b, 0xee, sizeof(b));
	opt_store_uint(b + 1, 8, 0x0102030405060708ULL);
	memcpy(&u64, b + 1, 8);
	CHECK(u64 == 0x0102030405060708ULL && b[0] == 0xee && b[9] == 0xee,
	    "width 8");
}

static void
test_double(void)
{
	struct cfg	c;
	char		err[128];

	memset(&c, 0, sizeof(c));
	CHECK(apply(&c, "rate", "0.5", err, sizeof(err)) == 0 &&
	    c.rate == 0.5, "double at its minimum");
	CHECK(apply(&c, "rate", "1e2", err, sizeof(err)) == 0 &&
	    c.rate == 100, "double 1e2 at its maximum");
	CHECK_REFUSED(&c, "rate", "100.5",
	    "--rate: '100.5' is not a number from 0.5 to 100");
	CHECK_REFUSED(&c, "rate", "0.4",
	    "--rate: '0.4' is not a number from 0.5 to 100");
	CHECK_REFUSED(&c, "rate", "",
	    "--rate: '' is not a number from 0.5 to 100");
	CHECK_REFUSED(&c, "rate", "nan",
	    "--rate: 'nan' is not a number from 0.5 to 100");
	CHECK_REFUSED(&c, "rate", "inf",
	    "--rate: 'inf' is not a number from 0.5 to 100");
	CHECK_REFUSED(&c, "rate", "1e999",
	    "--rate: '1e999' is not a number from 0.5 to 100");
	CHECK_REFUSED(&c, "rate", "2x",
	    "--rate: '2x' is not a number from 0.5 to 100");
}

static void
test_string_enum(void)
{
	struct cfg	 c;
	char		 err[128];
	const char	*arg = "dev";

	memset(&c, 0xee, sizeof(c));
	CHECK(apply(&c, "name", arg, err, sizeof(err)) == 0 && c.name == arg,
	    "string: the argument itself, borrowed");
	CHECK(apply(&c, "mode", "c", err, sizeof(err)) == 0 && c.mode == 2 &&
	    c.post_mode == 0xee, "enum: index into a one-byte field");
	CHECK(apply(&c, "mode", "a", err, sizeof(err)) == 0 && c.mode == 0,
	    "enum: the first name is 0");
	CHECK(apply(&c, "pair", "y", err, sizeof(err)) == 0 && c.mode4 == 1,
	    "enum: index into a four-byte field");
	CHECK_REFUSED(&c, "mode", "d", "--mode: 'd' is not one of a, b or c");
	CHECK_REFUSED(&c, "mode", "A", "--mode: 'A' is not one of a, b or c");
	CHECK_REFUSED(&c, "mode", "", "--mode: '' is not one of a, b or c");
	CHECK_REFUSED(&c, "pair", "z", "--pair: 'z' is not x or y");
	CHECK(apply(&c, "hidden", "off", err, sizeof(err)) == 0 &&
	    c.mode4 == 2, "enum: an empty name keeps its value's place");
	CHECK_REFUSED(&c, "hidden", "", "--hidden: '' is not on or off");
}

/* A message longer than err is cut, never overrun. */
static void
test_enum_short_err(void)
{
	struct cfg	c;
	char		err[24];

	memset(&c, 0, sizeof(c));
	memset(err, 'z', sizeof(err));
	CHECK(opt_apply(row("mode"), &c, "nothing", err, 20) == -1 &&
	    strlen(err) == 19 && err[20] == 'z' &&
	    strcmp(err, "--mode: 'nothing' i") == 0,
	    "enum message cut at errlen: \"%.20s\"", err);
}

static void
test_func(void)
{
	struct cfg		c;
	char			err[128];
	const struct opt	bad = { .name = "odd", .kind = OPT_END_KIND };

	memset(&c, 0, sizeof(c));
	CHECK(apply(&c, "topology", "ring", err, sizeof(err)) == 0 &&
	    c.fn_calls == 1 && strcmp(c.fn_arg, "ring") == 0 &&
	    c.fn_base == (void *)&c, "func: called with the group's base");
	CHECK(apply(&c, "topology", "bad", err, sizeof(err)) == -1 &&
	    strcmp(err, "--topology: 'bad' is no topology") == 0,
	    "func: its message: \"%s\"", err);
	CHECK(apply(&c, "dry", NULL, err, sizeof(err)) == 0 &&
	    c.fn_calls == 3 && c.fn_arg == NULL,
	    "func without meta: no argument");
	CHECK(apply(&c, "even", "6", err, sizeof(err)) == 0 && c.count == 6,
	    "parse_at: fills the row's field");
	CHECK(apply(&c, "even", "7", err, sizeof(err)) == -1 &&
	    strcmp(err, "--even: '7' is odd") == 0 && c.count == 6,
	    "parse_at: told the row's name: \"%s\"", err);
	CHECK(opt_apply(&bad, &c, "x", err, sizeof(err)) == -1 &&
	    strcmp(err, "--odd: no such kind of option") == 0,
	    "unknown kind: \"%s\"", err);
}

/* ---- opt_parse ---- */

struct parsed {
	struct cfg	 c;
	struct other	 o;
	unsigned	 given, other_given;
};

static void
parse(struct parsed *p, char **argv)
{
	struct opt_group	g[] = {
		{ "test options:", rows, &p->c, &p->given },
		{ NULL, other_rows, &p->o, &p->other_given },
	};
	int			argc = 0;

	while (argv[argc] != NULL)
		argc++;
	opt_parse(prog, "usage: sbsim test [options]\n", g, 2, argc, argv);
}

#define ARGV(...)	((char *[]){ "sbsim-test", __VA_ARGS__, NULL })

static void
test_parse_marks(void)
{
	struct parsed	p;

	memset(&p, 0, sizeof(p));
	parse(&p, ARGV("--u8", "5", "--rate=2.5", "--flag", "--file", "f"));
	CHECK(p.c.u8 == 5 && p.c.rate == 2.5 && p.c.flag == 1 &&
	    strcmp(p.o.file, "f") == 0, "values stored in each group's base");
	CHECK(p.given == (M_U8 | M_RATE | M_FLAG) && p.other_given == M_FILE,
	    "marks: 0x%x, 0x%x", p.given, p.other_given);
	memset(&p, 0, sizeof(p));
	parse(&p, ARGV("--mode", "b", "--topology", "star", "--dry"));
	CHECK(p.c.mode == 1 && p.c.fn_calls == 2 && p.c.fn_arg == NULL &&
	    p.given == (M_MODE | M_FN | M_DRY) && p.other_given == 0,
	    "enum and func rows mark: 0x%x", p.given);
	memset(&p, 0, sizeof(p));
	parse(&p, ARGV("--pair", "x"));
	CHECK(p.given == 0, "a row with mark 0 marks nothing");
	memset(&p, 0, sizeof(p));
	parse(&p, ARGV("--fla", "--u1", "9"));
	CHECK(p.c.flag == 1 && p.c.u16 == 9,
	    "unique prefixes of long names");
}

static void
test_parse_keys(void)
{
	struct parsed	p;

	memset(&p, 0, sizeof(p));
	parse(&p, ARGV("-v", "-vv", "--verbose", "-q"));
	CHECK(p.c.verbose == 4 && p.o.quiet == 1, "-v -vv --verbose -q: %d",
	    p.c.verbose);
	memset(&p, 0, sizeof(p));
	parse(&p, ARGV("-n", "3"));
	CHECK(p.c.count == 3 && p.given == M_COUNT, "-n 3");
	memset(&p, 0, sizeof(p));
	parse(&p, ARGV("-n4"));
	CHECK(p.c.count == 4, "-n4");
	memset(&p, 0, sizeof(p));
	parse(&p, ARGV("-qvn5"));
	CHECK(p.c.count == 5 && p.c.verbose == 1 && p.o.quiet == 1,
	    "-qvn5: a cluster ending with the argument");
	memset(&p, 0, sizeof(p));
	parse(&p, ARGV("--count", "6", "--quiet"));
	CHECK(p.c.count == 6 && p.o.quiet == 1, "keyed rows by long name");
}

/* ---- opt_parse's exits, in a child ---- */

struct child {
	int	status;			/* exit status, or -1 */
	char	out[4096], err[1024];
};

static void
drain(int fd, char *buf, size_t len)
{
	size_t	n = 0;
	ssize_t	r;

	while (n + 1 < len && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
	close(fd);
}

/* parse(argv) in a child: its exit status, stdout and stderr. */
static void
parse_child(char **argv, struct child *ch)
{
	struct parsed	p;
	int		out[2], err[2], st;
	pid_t		pid;

	fflush(stdout);
	if (pipe(out) == -1 || pipe(err) == -1 || (pid = fork()) == -1) {
		perror("fork");
		exit(99);
	}
	if (pid == 0) {
		dup2(out[1], 1);
		dup2(err[1], 2);
		close(out[0]);
		close(err[0]);
		memset(&p, 0, sizeof(p));
		parse(&p, argv);
		exit(42);
	}
	close(out[1]);
	close(err[1]);
	drain(out[0], ch->out, sizeof(ch->out));
	drain(err[0], ch->err, sizeof(ch->err));
	waitpid(pid, &st, 0);
	ch->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

#define CHECK_DIES(want, ...) do {					\
	struct child	_ch;						\
	parse_child(ARGV(__VA_ARGS__), &_ch);				\
	CHECK(_ch.status == 2 && strcmp(_ch.err, PROG ": " want "\n") == 0 \
	    && _ch.out[0] == '\0', "exit %d: %.*s", _ch.status,		\
	    (int)strcspn(_ch.err, "\n"), _ch.err);			\
} while (0)

static void
test_parse_errors(void)
{
	struct child	ch;

	CHECK_DIES("--u8: '300' is not a whole number from 1 to 200",
	    "--u8", "300");
	CHECK_DIES("--u8: '300' is not a whole number from 1 to 200",
	    "--u8=300");
	CHECK_DIES("--mode: 'q' is not one of a, b or c", "--mode", "q");
	CHECK_DIES("--topology: 'bad' is no topology", "--topology", "bad");
	CHECK_DIES("bad option", "--topology", "silent");
	CHECK_DIES("--count: '0' is not a whole number from 1 to 10",
	    "-n", "0");
	CHECK_DIES("--u8 needs an argument", "--flag", "--u8");
	CHECK_DIES("-n needs an argument", "-n");
	CHECK_DIES("unknown option '--nope' (see sbsim test --help)",
	    "--nope");
	CHECK_DIES("unknown option '-x' (see sbsim test --help)", "-x");
	CHECK_DIES("unknown option '-x' (see sbsim test --help)", "-qx");
	/* Amid its cluster, before getopt moves optind: the letter. */
	CHECK_DIES("unknown option '-x' (see sbsim test --help)", "-xq");
	CHECK_DIES("unknown option '--u' (see sbsim test --help)", "--u",
	    "1");
	CHECK_DIES("unknown option '--flag=1' (see sbsim test --help)",
	    "--flag=1");
	CHECK_DIES("unexpected argument 'extra' (see sbsim test --help)",
	    "--flag", "extra");
	CHECK_DIES("unexpected argument 'first' (see sbsim test --help)",
	    "first", "--flag");
	parse_child(ARGV("--flag", "--", "--u8"), &ch);
	CHECK(ch.status == 2 && strstr(ch.err, "unexpected argument '--u8'")
	    != NULL, "after --, options are arguments: %.*s",
	    (int)strcspn(ch.err, "\n"), ch.err);
	parse_child(ARGV("--flag", "--u8", "5"), &ch);
	CHECK(ch.status == 42 && ch.err[0] == '\0',
	    "a good command line returns: %d", ch.status);
}

/* An error in a command without a space in its name points at sbsim. */
static void
test_parse_errors_prog(void)
{
	struct child	ch;

	prog = "sbsim";
	parse_child(ARGV("--nope"), &ch);
	CHECK(ch.status == 2 && strcmp(ch.err, "sbsim: unknown option "
	    "'--nope' (see sbsim --help)\n") == 0, "one-word prog: %.*s",
	    (int)strcspn(ch.err, "\n"), ch.err);
	parse_child(ARGV("extra"), &ch);
	CHECK(ch.status == 2 && strcmp(ch.err, "sbsim: unexpected argument "
	    "'extra' (see sbsim --help)\n") == 0, "one-word prog: %.*s",
	    (int)strcspn(ch.err, "\n"), ch.err);
	prog = PROG;
}

/* ---- help ---- */

static const char want_help[] =
"usage: sbsim test [options]\n"
"test options:\n"
"  --flag                 a flag\n"
"  --u8 N                 one byte\n"
"  --u16 N                two bytes (default 0)\n"
"  --u32 N                four bytes (default 0)\n"
"  --u64 N                eight bytes (default 0)\n"
"  --rate R               a rate\n"
"  --name S               a name\n"
"  --mode M               a, b or c (default a)\n"
"  --pair P               x or y (default x)\n"
"  --topology T           a function\n"
"  --dry                  a function, no argument\n"
"  -n, --count N          a short key with argument\n"
"  -v, --verbose          more\n"
"  -h, --help             this help\n"
"  --file F               a file\n"
"  -q, --quiet            quiet\n";

static void
test_help_parse(void)
{
	struct child	ch;

	parse_child(ARGV("--flag", "-h", "--u8", "999"), &ch);
	CHECK(ch.status == 0 && strcmp(ch.out, want_help) == 0 &&
	    ch.err[0] == '\0', "-h: the help on stdout, exit 0 (%d)",
	    ch.status);
	if (strcmp(ch.out, want_help) != 0)
		printf("# got:\n%s", ch.out);
	parse_child(ARGV("--help"), &ch);
	CHECK(ch.status == 0 && strcmp(ch.out, want_help) == 0, "--help");
}

static const struct opt layout_rows[] = {
	/* "  --" and 20 letters: 24 columns, the text on the same line */
	OPT_F("twenty-letters-flagx", struct cfg, flag, 0, "fits"),
	/* 21 letters reach column 25: the text goes under */
	OPT_F("twenty-one-letters-xx", struct cfg, flag, 0, "wraps"),
	OPT_S("a-long-option-name", "ARGUMENT", struct cfg, name, 0,
	    "a long name with its argument\nand a second line"),
	OPT_S("short", "S", struct cfg, name, 0, "one\ntwo\nthree\n"),
	OPT_F("hidden", struct cfg, flag, 0, NULL),
	OPT_NOTE("  (a note under the group, as it is)"),
	OPT_F_KEY("keyed", 'k', struct cfg, flag, "a key"),
	OPT_END
};

static const char want_layout[] =
"usage\n"
"layout:\n"
"  --twenty-letters-flagx fits\n"
"  --twenty-one-letters-xx\n"
"                         wraps\n"
"  --a-long-option-name ARGUMENT\n"
"                         a long name with its argument\n"
"                         and a second line\n"
"  --short S              one\n"
"                         two\n"
"                         three\n"
"  (a note under the group, as it is)\n"
"  -k, --keyed            a key\n"
"  --file F               a file\n"
"  -q, --quiet            quiet\n";

static void
test_help_layout(void)
{
	struct opt_group	 g[] = {
		{ "layout:", layout_rows, NULL, NULL },
		{ NULL, other_rows, NULL, NULL },
	};
	char			*buf = NULL;
	size_t			 len = 0;
	FILE			*f;

	if ((f = open_memstream(&buf, &len)) == NULL) {
		perror("open_memstream");
		exit(99);
	}
	opt_help(f, "usage\n", g, 2);
	fclose(f);
	CHECK(strcmp(buf, want_layout) == 0,
	    "help: column 25, wrapping, multi-line, notes, hidden rows");
	if (strcmp(buf, want_layout) != 0)
		printf("# got:\n%s", buf);
	free(buf);
}

/* An OPT_FUNC row's default from two fields: "lo:hi". */
static int
show_pair(const struct opt *o, const void *base, char *buf, size_t len)
{
	const struct cfg	*c = base;

	snprintf(buf, len, "%u:%u", (unsigned)c->u8, (unsigned)c->u16);
	return 0;
}

static const struct opt def_rows[] = {
	OPT_U("u8", "N", struct cfg, u8, 1, 200, 0, "in range"),
	OPT_U("u16", "N", struct cfg, u16, 1, 65535, 0,
	    "0 is below the range: unset"),
	OPT_U("u64", "N", struct cfg, u64, 0, UINT64_MAX, 0, "eight bytes"),
	OPT_D("rate", "R", struct cfg, rate, 0.01, 100, 0, "a double"),
	OPT_S("name", "S", struct cfg, name, 0, "a string"),
	OPT_S("file", "F", struct cfg, fn_arg, 0, "NULL: unset"),
	OPT_E("mode", "M", struct cfg, mode, modes, 0, "an enum"),
	OPT_E("hidden", "H", struct cfg, mode4, hidden, 0,
	    "its unnamed value: unset"),
	OPT_F("flag", struct cfg, flag, 0, "a flag: none"),
	OPT_U("count", "N", struct cfg, count, 1, 10, 0, "computed later",
	    .def = "the number of CPUs"),
	OPT_U("dry", "N", struct cfg, dry, 0, 10, 0, "none shown",
	    .def = ""),
	OPT_FN("pair", "LO:HI", parse_topo, 0, "a function's",
	    .show = show_pair),
	OPT_P("even", "N", struct cfg, u32, uint32_t, parse_even, 0,
	    "a shared parser's", .show = opt_show_uint),
	OPT_S("long", "S", struct cfg, name, 0,
	    "a line this long leaves no room for its default"),
	OPT_U("multi", "N", struct cfg, u8, 1, 200, 0, "first line\nsecond"),
	OPT_U("text", "N", struct cfg, count, 1, 10, 0, "a long text",
	    .def = "one thing, or another\nwith --that"),
	OPT_END
};

static const char want_defaults[] =
"usage\n"
"  --u8 N                 in range (default 7)\n"
"  --u16 N                0 is below the range: unset\n"
"  --u64 N                eight bytes (default 18446744073709551615)\n"
"  --rate R               a double (default 0.5)\n"
"  --name S               a string (default admin)\n"
"  --file F               NULL: unset\n"
"  --mode M               an enum (default c)\n"
"  --hidden H             its unnamed value: unset\n"
"  --flag                 a flag: none\n"
"  --count N              computed later (default the number of CPUs)\n"
"  --dry N                none shown\n"
"  --pair LO:HI           a function's (default 7:0)\n"
"  --even N               a shared parser's (default 1000000)\n"
"  --long S               a line this long leaves no room for its default\n"
"                         (default admin)\n"
"  --multi N              first line\n"
"                         second (default 7)\n"
"  --text N               a long text\n"
"                         (default one thing, or another\n"
"                         with --that)\n";

/* --help ends each row with its default, read from the group's base. */
static void
test_help_defaults(void)
{
	struct cfg		 c;
	struct opt_group	 g[] = { { NULL, def_rows, &c, NULL } };
	char			*buf = NULL, d[64];
	size_t			 len = 0;
	FILE			*f;

	memset(&c, 0, sizeof(c));
	c.u8 = 7;
	c.u64 = UINT64_MAX;
	c.rate = 0.5;
	c.name = "admin";
	c.mode = 2;
	c.dry = 3;
	c.u32 = 1000000;
	if ((f = open_memstream(&buf, &len)) == NULL) {
		perror("open_memstream");
		exit(99);
	}
	opt_help(f, "usage\n", g, 1);
	fclose(f);
	CHECK(strcmp(buf, want_defaults) == 0,
	    "help: (default X) by kind, unset values, .def, .show, wrapping");
	if (strcmp(buf, want_defaults) != 0)
		printf("# got:\n%s", buf);
	free(buf);
	CHECK(opt_default(&def_rows[0], NULL, d, sizeof(d)) == -1 &&
	    d[0] == '\0', "no base: no default from a field");
	CHECK(opt_default(&def_rows[9], NULL, d, sizeof(d)) == 0 &&
	    strcmp(d, "the number of CPUs") == 0, "no base: .def still");
	c.rate = 1000;
	CHECK(opt_default(&def_rows[3], &c, d, sizeof(d)) == -1,
	    "a double above its range is unset");
}

static const struct check_case cases[] = {
	CASE(test_flag_count),
	CASE(test_uint_widths),
	CASE(test_uint_errors),
	CASE(test_store_uint),
	CASE(test_double),
	CASE(test_string_enum),
	CASE(test_enum_short_err),
	CASE(test_func),
	CASE(test_parse_marks),
	CASE(test_parse_keys),
	CASE(test_parse_errors),
	CASE(test_parse_errors_prog),
	CASE(test_help_parse),
	CASE(test_help_layout),
	CASE(test_help_defaults),
};

int
main(int argc, char **argv)
{
	return check_run(cases, argc, argv);
}
