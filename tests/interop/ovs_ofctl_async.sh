#!/bin/bash
# Asynchronous messages and switch state against passive sbsim switches
# (of_async.py, plain sockets): flow timeouts with and without
# FLOW_REMOVED (1.3 and 1.0), PORT_MOD and PORT_STATUS, ROLE generation
# ids, SET_ASYNC masks; and ovs-ofctl -O OpenFlow13 mod-port taking a
# port down and up as dump-ports-desc then shows.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ovs-ofctl
need ss
HERE=$(cd "$(dirname "$0")" && pwd)
PORT=$(free_ports 2)
EP=tcp:127.0.0.1:$PORT
OFCTL="timeout 30 ovs-ofctl -O OpenFlow13"

start_bg "$TMPD/sbsim.log" "$SBSIM" openflow --switches 2 \
    --controller ptcp:$PORT --duration 120 --report "$TMPD/r.json" -q
SB=$LAST_PID
wait_listen "$PORT" && wait_listen $((PORT + 1)) ||
    fail "sbsim did not listen on $PORT and $((PORT + 1))"

# (a), (b), (d), (e) in OpenFlow 1.3 on the first switch, (a) in 1.0 on
# the second.
timeout 60 "$PY" "$HERE/of_async.py" 13 "$PORT" >"$TMPD/py13.log" 2>&1
rc=$?
cat "$TMPD/py13.log"
[ $rc -eq 0 ] || fail "of_async.py 13 exited $rc"
timeout 30 "$PY" "$HERE/of_async.py" 10 $((PORT + 1)) >"$TMPD/py10.log" 2>&1
rc=$?
cat "$TMPD/py10.log"
[ $rc -eq 0 ] || fail "of_async.py 10 exited $rc"

# (c) ovs-ofctl mod-port: the port's config and state as dump-ports-desc
# prints them (the block of one port runs until the next " N(name)" line).
port3() {
	$OFCTL dump-ports-desc $EP | awk '
	    /^ [0-9]+\(/ { on = ($1 ~ /^3\(/) }
	    on && /config:|state:/ { sub(/^ +/, ""); print }'
}
$OFCTL mod-port $EP 3 down || fail "mod-port 3 down"
p=$(port3)
echo "port 3 after mod-port down: $(echo $p)"
echo "$p" | grep -q 'config:.*PORT_DOWN' || fail "port 3 config: $p"
echo "$p" | grep -q 'state:.*LINK_DOWN' || fail "port 3 state: $p"
$OFCTL mod-port $EP 3 up || fail "mod-port 3 up"
p=$(port3)
echo "port 3 after mod-port up: $(echo $p)"
echo "$p" | grep -q 'PORT_DOWN\|LINK_DOWN' && fail "port 3 still down: $p"
# Only port 3 changed; port 2 came back up in of_async.py.
[ "$($OFCTL dump-ports-desc $EP | grep -c 'PORT_DOWN\|LINK_DOWN')" -eq 0 ] ||
    fail "ports left down: $($OFCTL dump-ports-desc $EP)"

kill -0 "$SB" 2>/dev/null || fail "sbsim is gone"
stop_early "$SB" sbsim
[ -s "$TMPD/r.json" ] || fail "no report"
"$PY" - "$TMPD/r.json" <<'PYEOF' || fail "report counters"
import json, sys
c = json.load(open(sys.argv[1]))["counters"]
# a: one hard + one idle expiry per version.
if c["flows_expired"] != 4:
    sys.exit("flows_expired %d, want 4" % c["flows_expired"])
# a: one HARD_TIMEOUT per version; e: DELETE unmasked, new connection.
if c["flow_removed_sent"] != 4:
    sys.exit("flow_removed_sent %d, want 4" % c["flow_removed_sent"])
PYEOF
grep -qiE 'sanitizer|segfault|core dumped' "$TMPD/sbsim.log" &&
    fail "sbsim log: $(cat "$TMPD/sbsim.log")"
echo "timeouts, PORT_MOD, ROLE and SET_ASYNC behave as a switch's should"
