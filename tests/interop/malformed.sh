#!/bin/bash
# Malformed and refused messages (of_malformed.py) against passive sbsim
# switches, OpenFlow 1.3 and 1.0: each draws the exact OFPT_ERROR a switch
# sends, the session carries on, and the report counts every error sent.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
HERE=$(cd "$(dirname "$0")" && pwd)
PORT=$(free_ports 2)

start_bg "$TMPD/sbsim.log" "$SBSIM" openflow --switches 2 --table-size 2 \
    --controller ptcp:$PORT --duration 60 --report "$TMPD/r.json" -q
SB=$LAST_PID
wait_listen "$PORT" && wait_listen $((PORT + 1)) ||
    fail "sbsim did not listen on $PORT and $((PORT + 1))"

timeout 60 "$PY" "$HERE/of_malformed.py" "$PORT" $((PORT + 1)) \
    >"$TMPD/py.log" 2>&1
rc=$?
cat "$TMPD/py.log"
[ $rc -eq 0 ] || fail "of_malformed.py exited $rc"
n=$(sed -n 's/^errors provoked: \([0-9]*\)$/\1/p' "$TMPD/py.log")
[ -n "$n" ] && [ "$n" -gt 20 ] || fail "too few errors provoked: '$n'"

kill -0 "$SB" 2>/dev/null || fail "sbsim is gone"
stop_early "$SB" sbsim "$TMPD/r.json"
[ -s "$TMPD/r.json" ] || fail "no report"
"$PY" - "$TMPD/r.json" "$n" <<'PYEOF' || fail "report counters"
import json, sys
r = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
c = r["counters"]
if c["errors_sent"] != n:
    sys.exit("errors_sent %d, want %d" % (c["errors_sent"], n))
if c["decode_errors"] != 2:     # the two headers shorter than 8 bytes
    sys.exit("decode_errors %d, want 2" % c["decode_errors"])
if c["flows_added"] != 6:       # two in table 0, one in table 1, three 1.0
    sys.exit("flows_added %d, want 6" % c["flows_added"])
if c["flow_removed_sent"] != 1:  # the NXT_FLOW_REMOVED of reg0=7
    sys.exit("flow_removed_sent %d, want 1" % c["flow_removed_sent"])
# Unknown experimenter ids: 1.3 message and multipart, 1.0 vendor message.
if c["experimenter_refused"] != 3:
    sys.exit("experimenter_refused %d, want 3" % c["experimenter_refused"])
# Nicira messages refused (of_malformed.py's run10_nicira and 1.3's two);
# the bad actions are FLOW_MOD errors, not these.
if c["nx_refused"] != 10:
    sys.exit("nx_refused %d, want 10" % c["nx_refused"])
if c["role_changes"] != 3:
    sys.exit("role_changes %d, want 3" % c["role_changes"])
ph = {p["name"]: p for p in r["phases"]}
if ph["connect"]["items"] != 2:
    sys.exit("connect items %d" % ph["connect"]["items"])
PYEOF
grep -qiE 'assert|sanitizer|segfault|core dumped' "$TMPD/sbsim.log" &&
    fail "sbsim log: $(cat "$TMPD/sbsim.log")"
echo "$n malformed or refused messages answered as a switch should"
