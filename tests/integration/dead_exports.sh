#!/bin/bash
# No exported function without a caller: every global function defined in
# src/ or sims/ is referenced by another object of the build (a program,
# a library member, a unit test, a fuzz harness).  One used only in its
# own file is made static and leaves its header; one used nowhere goes.
#
# Reads the objects make check has just built (its check_PROGRAMS come
# first), with nm: a defined global text symbol (T) that no other object
# holds undefined (U).  An object whose source is gone (a stale .o left
# in the build directory) is ignored.
. "$(dirname "$0")/../lib.sh"
export LC_ALL=C	# sort and join agree on the order

SRC=$(cd "$(dirname "$0")/../.." && pwd)
BLD=$(cd "$(dirname "$SBSIM")/.." && pwd)
NM=${NM:-nm}
command -v "$NM" >/dev/null || fail "no $NM (binutils) to read the objects"

# The objects and the .c each was compiled from, relative to the tree
# (automake names an object DIR/NAME.o or DIR/TARGET-NAME.o).
: >"$TMPD/objs"
while IFS= read -r o; do
	rel=${o#"$BLD"/}
	dir=${rel%/*}
	base=${rel##*/}
	base=${base%.o}
	if [ -f "$SRC/$dir/$base.c" ]; then
		echo "$o $dir/$base.c"
	elif [ -f "$SRC/$dir/${base#*-}.c" ]; then
		echo "$o $dir/${base#*-}.c"
	fi >>"$TMPD/objs"
done < <(find "$BLD/src" "$BLD/sims" "$BLD/tests" -name '*.o' | sort)
nobj=$(wc -l <"$TMPD/objs")

# One line per symbol: "NAME T SOURCE" for a definition, "NAME U" for a
# reference (nm -A prefixes each line with its object and a colon).
cut -d' ' -f1 "$TMPD/objs" | xargs "$NM" -A >"$TMPD/nm" ||
    fail "$NM could not read the objects"
awk 'NR == FNR { src[$1] = $2; next }
    { i = index($0, ":"); o = substr($0, 1, i - 1) }
    $(NF - 1) == "T" { print $NF, "T", src[o] }
    $(NF - 1) == "U" { print $NF, "U" }' "$TMPD/objs" "$TMPD/nm" \
    >"$TMPD/syms"

# The build this test runs in has them all: far fewer means the wrong
# directory, not a clean tree.
[ "$nobj" -ge 100 ] || fail "only $nobj objects with a source under $BLD"
ndef=$(awk '$2 == "T" && $3 ~ /^(src|sims)\// && $1 != "main"' \
    "$TMPD/syms" | wc -l)
[ "$ndef" -ge 500 ] || fail "only $ndef functions defined in src/ and sims/"

awk '$2 == "U" { print $1 }' "$TMPD/syms" | sort -u >"$TMPD/used"
awk '$2 == "T" && $3 ~ /^(src|sims)\// && $1 != "main" { print $1, $3 }' \
    "$TMPD/syms" | sort -u | join -v1 - "$TMPD/used" >"$TMPD/dead"

if [ -s "$TMPD/dead" ]; then
	echo "exported functions no other file calls (make them static or" \
	    "remove them):" >&2
	sed 's/^/  /' "$TMPD/dead" >&2
	exit 1
fi
echo "$ndef functions exported from src/ and sims/ ($nobj objects)," \
    "each called from another file"
