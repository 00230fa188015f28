#!/bin/bash
# No file under src/ names a protocol: the list (sims/protocols.am, the C
# of it made by the build) is the only place the engine learns them
# (docs/design.md, "Adding a protocol").  Names are the list's protocols
# and the symbols the protocol folders define for the engine (their
# descriptors, commands, controller roles, datapath providers), each as a
# whole word, in code, strings and comments alike.  The RESTCONF draft's
# title (draft-bierman-netconf-restconf) is a citation, not a protocol.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
[ -f "$top/sims/protocols.am" ] || fail "no sims/protocols.am under $top"

names=$(sed -n 's|^include sims/\([a-z0-9_]*\)/local\.am$|\1|p' \
    "$top/sims/protocols.am")
[ "$(echo "$names" | wc -w)" -ge 2 ] || fail "the list names: '$names'"
for n in $names; do
	grep -q "^SIM_PROTOCOLS += $n\$" "$top/sims/$n/local.am" ||
	    fail "sims/$n/local.am does not add $n to SIM_PROTOCOLS"
done
# A descriptor is SBSIM_PROTOCOL(NAME, ...) (protocol.h): NAME_protocol.
syms=$(cat "$top"/sims/*/*.c | sed -n -E \
    -e 's/^const struct (sbsim_protocol|sbsim_cmd|ctl_role|datapath_provider) ([a-z0-9_]+) = .*/\2/p' \
    -e 's/^SBSIM_PROTOCOL\(([a-z0-9_]+),.*/\1_protocol/p')
for n in $names; do
	echo "$syms" | grep -qx "${n}_protocol" ||
	    fail "no ${n}_protocol descriptor under sims/"
done
[ "$(echo "$syms" | wc -w)" -ge 10 ] || fail "the folders' symbols: $syms"

pat=$(echo $names $syms | tr ' ' '|')
find "$top/src" -type f \( -name '*.[ch]' -o -name '*.am' \) -print0 |
    xargs -0 grep -n -i -w -E "$pat" /dev/null |
    grep -v -i 'draft-bierman-netconf-restconf' >"$TMPD/hits"
if [ -s "$TMPD/hits" ]; then
	sed "s|^$top/||" "$TMPD/hits" >&2
	fail "$(wc -l <"$TMPD/hits") lines under src/ name a protocol"
fi
echo "src/: no protocol named ($(echo $names | wc -w) protocols, $(echo $syms | wc -w) symbols checked)"
