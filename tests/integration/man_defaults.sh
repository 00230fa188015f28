#!/bin/bash
# The option defaults docs/sbsim.1 states are the program's (issue 25): a
# default is stored once, in its option row's field (or the row's .def),
# and --help prints it from there; scripts/man_defaults reads every
# command's --help and the man page's option items and lists each option
# whose stated defaults differ, whose man page entry states none, or whose
# help text states one by hand.  Then the check is shown to catch a
# changed default: the man page with --ports' "Default 4." made 8.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd) || exit 99
man=$top/docs/sbsim.1
check=$top/scripts/man_defaults

/usr/bin/python3 "$check" "$SBSIM" "$man" >"$TMPD/out" 2>&1 ||
	fail "docs/sbsim.1 and --help disagree: $(cat "$TMPD/out")"

# The check can fail: one default changed in a copy of the man page.
awk '/^\.It Fl \\-ports Ar N/ { p = 1 }
     p && /^Default 4\.$/ { $0 = "Default 8."; p = 0 } { print }' \
	"$man" >"$TMPD/changed.1"
cmp -s "$man" "$TMPD/changed.1" && fail "--ports' 'Default 4.' not in $man"
if /usr/bin/python3 "$check" "$SBSIM" "$TMPD/changed.1" >"$TMPD/out2" 2>&1
then
	fail "a changed --ports default was not caught"
fi
grep -q -- "--ports .*program 4 .*man 8.* DIFFERS" "$TMPD/out2" ||
	fail "no DIFFERS line for --ports: $(cat "$TMPD/out2")"
echo "docs/sbsim.1 states the defaults --help prints"
