#!/bin/bash
# Scenario files read under bounds (sbsim run, src/run/scen_file.c): a FIFO,
# a directory or a file over --max-scenario-size is refused at once
# naming the file; an entry twice among its siblings (a list key, a
# leaf-list value) is refused in linear time (libyang's own check took
# over 40 s for 100 000); `sbsim run --help` is help (exit 0), and a
# group's option error points at its protocol's --help, which exists.
. "$(dirname "$0")/../lib.sh"

FAILS=0
# bad FILE REGEX [ARGS]: exit 2 within 10 s, one stderr line that names
# the file and matches REGEX, nothing on stdout.
bad() {
	local name=$1 re=$2
	shift 2
	run_cli run "$TMPD/$name" "$@"
	if ! is_usage_error "$name: .*$re"; then
		echo "FAIL: run $name $*: exit $RC, stderr: $ERR" >&2
		FAILS=$((FAILS + 1))
	fi
}

G='{"name": "of", "protocol": "openflow", "count": 1, "controller": "tcp:127.0.0.1:9"'
mkfifo "$TMPD/fifo.json"
bad fifo.json "FIFO, not a regular file"
mkdir "$TMPD/dir.json"
bad dir.json "directory, not a regular file"

# Over the size cap: the default (16 MiB) and --max-scenario-size.
printf '{"sbsim-scenario:scenario": {"description": "%s", "group": [%s}]}}\n' \
    "$(head -c 300 /dev/zero | tr '\0' x)" "$G" >"$TMPD/small.json"
bad small.json "more than --max-scenario-size 200" --max-scenario-size 200
bad small.json "more than --max-scenario-size 250" --max-scenario-size=250
head -c $((17 << 20)) /dev/zero | tr '\0' ' ' >"$TMPD/big.json"
bad big.json "more than --max-scenario-size 16777216"
printf '{"sbsim-scenario:scenario": {"option": [{"name": "max-scenario-size", "value": ["99"]}], "group": [%s}]}}\n' \
    "$G" >"$TMPD/inner.json"
bad inner.json "max-scenario-size belongs to the command line"
run_cli run "$TMPD/small.json" --max-scenario-size 12
is_usage_error "max-scenario-size: '12' is not a whole number" ||
    { echo "FAIL: --max-scenario-size 12: $ERR" >&2; FAILS=$((FAILS + 1)); }

# 100 000 copies of one leaf-list value, of one list key (JSON, XML).
/usr/bin/python3 - "$TMPD" "$G" <<'PY'
import json, sys
d, g = sys.argv[1], json.loads(sys.argv[2] + "}")
n = 100000
top = {"option": [{"name": "expect", "value": ["of.connect.items>=1"] * n}],
       "group": [g]}
json.dump({"sbsim-scenario:scenario": top}, open(d + "/values.json", "w"))
g2 = dict(g, option=[{"name": "lldp"}] * n)
json.dump({"sbsim-scenario:scenario": {"group": [g2]}}, open(d + "/keys.json", "w"))
with open(d + "/keys.xml", "w") as f:
    f.write('<scenario xmlns="urn:sbsim:scenario"><group><name>of</name>'
            '<protocol>openflow</protocol><count>1</count>\n')
    f.write('<option><name>lldp</name></option>\n' * n)
    f.write('</group></scenario>\n')
PY
T0=$SECONDS
bad values.json "value 'of.connect.items>=1' twice \(at /sbsim-scenario:scenario/option\[name='expect'\]\)"
bad keys.json "option 'lldp' twice \(at /sbsim-scenario:scenario/group\[name='of'\]\)"
bad keys.xml "option 'lldp' twice \(at line 3\)"
[ $((SECONDS - T0)) -le 20 ] ||
    { echo "FAIL: three duplicate checks took $((SECONDS - T0)) s" >&2; FAILS=$((FAILS + 1)); }

# Help is help; a group's option error points at a --help that exists.
run_cli run --help
[ $RC -eq 0 ] && [ -z "$ERR" ] && echo "$OUT" | grep -q "max-scenario-size" ||
    { echo "FAIL: run --help: exit $RC, $ERR" >&2; FAILS=$((FAILS + 1)); }
printf '{"sbsim-scenario:scenario": {"group": [%s, "option": [{"name": "bogus"}]}]}}\n' \
    "$G" >"$TMPD/bogus.json"
run_cli run "$TMPD/bogus.json"
if ! is_usage_error "group 'of': unknown option '--bogus' \(see sbsim openflow --help\)"; then
	echo "FAIL: bogus.json: exit $RC, stderr: $ERR" >&2
	FAILS=$((FAILS + 1))
fi
run_cli openflow --help
[ $RC -eq 0 ] || { echo "FAIL: openflow --help exits $RC" >&2; FAILS=$((FAILS + 1)); }

[ $FAILS -eq 0 ] || fail "$FAILS scenario files not refused as they should be"
echo "scenario files: FIFO, size, duplicates refused at once; run --help is help"
