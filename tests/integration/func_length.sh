#!/bin/bash
# No function in src/ or sims/ longer than 60 lines: a longer one is split
# into named steps.  A function's body is the lines between a '{' in
# column 0 and the next '}' in column 0 (the house style puts both there
# and nothing else does); its name is the identifier before the '(' of
# the last line starting in column 0 with one, the line of its name.
# Each one over the limit is named as FILE FUNCTION LINES.
. "$(dirname "$0")/../lib.sh"

SRC=$(cd "$(dirname "$0")/../.." && pwd)
MAX=${FUNC_LENGTH_MAX:-60}

cd "$SRC" || fail "no source tree at $SRC"
find src sims -name '*.[ch]' | sort >"$TMPD/files"
[ -s "$TMPD/files" ] || fail "no C files under $SRC/src and $SRC/sims"

# One line per function: FILE FUNCTION LINES.
xargs awk '
FNR == 1 { name = "?"; open = 0 }
/^[A-Za-z_][^(]*\(/ && !open {
	s = $0
	sub(/\(.*/, "", s)
	n = split(s, w, /[ \t*]+/)
	name = w[n]
}
/^\{/ { open = 1; start = FNR; next }
/^\}/ && open { print FILENAME, name, FNR - start - 1; open = 0 }
' <"$TMPD/files" >"$TMPD/funcs"

# A measure that finds no functions measures nothing: the tree has
# thousands.
nfunc=$(wc -l <"$TMPD/funcs")
[ "$nfunc" -ge 1000 ] || fail "only $nfunc functions found in src/ and sims/"

awk -v max="$MAX" '$3 > max' "$TMPD/funcs" >"$TMPD/long"
if [ -s "$TMPD/long" ]; then
	echo "functions over $MAX lines (split them into named steps):" >&2
	sed 's/^/  /' "$TMPD/long" >&2
	exit 1
fi
echo "$nfunc functions in src/ and sims/, none over $MAX lines"
exit 0
