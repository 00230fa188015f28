#!/bin/bash
# docs/design.md (and docs/internals.md, its companion) name only files and
# functions that exist, fit a terminal, and have every section the tree
# cites (issue 25).  Every name they cite in backticks is looked up in the
# source tree:
#   - a path (`src/core/pool.c`, `sims/ovsdb/`, `tests/unit/test_opt`): a file
#     or folder, or a program a Makefile fragment builds;
#   - a file name (`pool.c`, `lib.sh`, `fd_25k_*.sh`, `ovsdb_frame.[ch]`):
#     some file of that name (or matching that glob) in the tree;
#   - a function or macro (`pool_read()`, `datapath_open(targets, ...)`):
#     defined in a .c or .h file, i.e. a line that starts with `name(`
#     (the code's style puts a definition's name at the start of its line)
#     or `#define name(`, or a hook: a member `(*name)(` of a struct
#     (`check()`, `stop()`); FOREIGN lists the libraries' functions it cites;
#   - a type (`struct pool_ops`): a line `struct pool_ops {`;
#   - a unit test (`test_pool`): tests/unit/test_pool.c.
# A name with a placeholder (<p>, xxx) or a space (a command line) is not
# looked up.  No line is over 100 characters (tables too: a long cell goes
# into a list under its table), so that the page reads in a terminal.  And
# every section the tree cites, as `design.md, "Containers"`,
# `docs/design.md "The test budget"` or `design.md ("The test budget")`
# (the same for internals.md), is one of that file's headings.  Prints
# each fault with its line; exits 1 if any.
# It needs no build: the script sits in the source tree, so this works
# from a VPATH (distcheck) build too.
top=$(cd "$(dirname "$0")/../.." && pwd) || exit 99
cd "$top" || exit 99
DOCS='docs/design.md docs/internals.md'
MAX_LINE=100
for d in $DOCS; do
	[ -r "$d" ] || { echo "no $d under $top"; exit 99; }
done

FOREIGN='event_base_free random'

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
{ find src sims tests scripts docs yang deploy m4 .ci -type f 2>/dev/null
  find . -maxdepth 1 -type f | sed 's|^\./||'; } >"$tmp/files"
id='[A-Za-z_][A-Za-z0-9_]*'
src_grep() { grep -rhoE --include='*.c' --include='*.h' "$1" src sims tests; }
{ src_grep "^$id\\(|^#[[:space:]]*define[[:space:]]+$id\\(" |
      sed -E 's/^#[[:space:]]*define[[:space:]]+//; s/\($//'
  src_grep "\\(\\*$id\\)\\(" | tr -d '()*'
  src_grep "^(typedef )?struct $id \\{" | sed -E 's/^(typedef )?//; s/ \{$//'
  echo "$FOREIGN" | tr ' ' '\n'; } >"$tmp/defs"
# Words of the Makefile fragments that are paths: programs they build.
find . -name '*.am' -not -path './.git/*' -exec cat {} + |
    tr -s ' \t\\=' '\n' | grep / >"$tmp/built"

# The sections cited across the tree (the docs themselves too), a
# comment's lines joined first: FILE, the doc cited, the section.
grep -rlIE --exclude='*.log' --exclude='*.trs' '(design|internals)\.md' src \
    sims tests scripts docs yang deploy README.md Makefile.am configure.ac \
    .ci 2>/dev/null |
while read -r f; do
	sed -zE 's/\n[[:space:]]*(\*|#|\/\/)*[[:space:]]*/ /g' "$f" |
	    grep -aoE '(design|internals)\.md,? \(?"[^"]+"' |
	    sed -E "s|^([a-z]+)\.md,? \(?\"|$f\tdocs/\1.md\t|; s|\"$||"
done >"$tmp/cited"
for d in $DOCS; do
	sed -nE "s|^#+ +|$d\t|p" "$d"
done >"$tmp/headings"
missing_sections=$(awk -F'\t' 'FILENAME == ARGV[1] { h[$1 FS $2] = 1; next }
    !(($2 FS $3) in h) { printf "%s: cites %s, \"%s\": no such section\n",
                 $1, $2, $3 }' \
    "$tmp/headings" "$tmp/cited")
[ -z "$missing_sections" ] || echo "$missing_sections"

# Lines a terminal wraps.
long_lines=$(awk -v max=$MAX_LINE 'length($0) > max {
	printf "%s:%d: %d characters (at most %d)\n", FILENAME, FNR,
	    length($0), max }' $DOCS)
[ -z "$long_lines" ] || echo "$long_lines"

awk -v files="$tmp/files" -v defs="$tmp/defs" -v built="$tmp/built" '
function glob2re(g) {
	gsub(/\./, "\\.", g); gsub(/\*/, "[^/]*", g); gsub(/\?/, "[^/]", g)
	return "^" g "$"
}
function any_match(re, set,   k) {
	for (k in set) if (k ~ re) return 1
	return 0
}
function miss(s) {
	printf "%s:%d: `%s` does not exist\n", FILENAME, at, s; bad++
}
function check(s,   name, p) {
	if (s ~ /[<>]|xxx/) return
	if (s ~ /^[A-Za-z_][A-Za-z0-9_]*\(.*\)$/ && s !~ /\([0-9]\)$/) {
		name = s; sub(/\(.*/, "", name)
		if (!(name in def)) miss(s)
		return
	}
	if (s ~ /^struct [A-Za-z_][A-Za-z0-9_]*$/) {
		if (!(s in def)) miss(s)
		return
	}
	if (s ~ /^test_[a-z0-9_]+$/) {
		if (!(("tests/unit/" s ".c") in path)) miss(s)
		return
	}
	if (s ~ /[ \t]/ || s == "/") return
	if (s ~ /\//) {
		p = s; sub(/\/$/, "", p)
		if (p ~ /[*?[]/) { if (!any_match(glob2re(p), path)) miss(s); return }
		if (!(p in path) && !(p in dir) && !((p ".c") in path) &&
		    !(p in made))
			miss(s)
		return
	}
	if (s ~ /\.(c|h|am|sh|py|md|yang|1|ac|yaml|\[[a-z]+\])$/)
		if (!any_match(glob2re(s), base)) miss(s)
}
BEGIN {
	while ((getline f < files) > 0) {
		path[f] = 1; n = split(f, part, "/"); base[part[n]] = 1
		d = f; while (sub(/\/[^\/]*$/, "", d)) dir[d] = 1
	}
	while ((getline f < defs) > 0) def[f] = 1
	while ((getline f < built) > 0) {
		sub(/^\$\(top_srcdir\)\//, "", f); made[f] = 1
	}
}
FNR == 1 { inside = 0 }
/^[ \t]*$/ { inside = 0 }		# an unclosed backtick ends with its paragraph
{
	n = split($0, part, "`")
	for (i = 1; i <= n; i++) {
		if (i > 1) {
			if (inside) { check(span); inside = 0 }
			else { inside = 1; span = ""; at = FNR }
		}
		if (!inside) continue
		t = part[i]
		if (i == 1) {		# the span goes on from the line before
			sub(/^[ \t]+/, "", t)
			span = span (span ~ /\/$/ ? "" : " ") t
		} else
			span = t
	}
}
END { exit bad > 0 }
' $DOCS && [ -z "$missing_sections" ] && [ -z "$long_lines" ]
