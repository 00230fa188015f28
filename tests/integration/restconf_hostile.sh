#!/bin/bash
# The embedded controller's RESTCONF server against hostile clients
# (issue 14): bodies without credentials are refused with 401 before they
# are read and Expect: 100-continue is not answered without them, so 20
# clients pushing 30 MB each cost nothing; a head not whole within
# --restconf-header-timeout closes its connection (slowloris); past
# --restconf-max-connections accepting pauses until one closes; requests
# with credentials, pipelined ones included, are served as before.  The
# summary line counts each (rc_hostile.py says what every case checks).
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
MAXCONNS=32

# The options' ranges, and that they need --restconf.
bad_usage controller "--restconf-max-connections: '0' is not" \
    --restconf 8181 --restconf-max-connections 0
bad_usage controller "--restconf-header-timeout: '0.01' is not" \
    --restconf 8181 --restconf-header-timeout 0.01
bad_usage controller "need --restconf" --restconf-header-timeout 5
[ "$FAILS" -eq 0 ] || fail "$FAILS usage errors were not reported"

port=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --restconf 127.0.0.1:$port \
    --restconf-header-timeout 1 --restconf-max-connections $MAXCONNS
ctl=$LAST_PID
wait_listen "$port" || fail "controller did not serve RESTCONF on $port"
"$PY" "$(dirname "$0")/rc_hostile.py" "$port" "$ctl" "$MAXCONNS" ||
    fail "hostile RESTCONF clients"
kill -0 "$ctl" 2>/dev/null || fail "the controller died"
stop_pid "$ctl"
[ "$STOP_RC" -eq 0 ] || fail "controller exited $STOP_RC"
line=$(grep '^restconf:' "$TMPD/ctl.log")
echo "$line"
figure() {
	echo "$line" | sed -n "s/.* \([0-9]*\) $1.*/\1/p"
}
[ "$(figure 'bodies refused unread')" -ge 10 ] ||
    fail "bodies refused unread not counted"
[ "$(figure 'head timeouts')" -ge 5 ] || fail "head timeouts not counted"
[ "$(figure 'pauses at the connection limit')" -ge 1 ] ||
    fail "pauses at the connection limit not counted"
[ "$(figure 'connections at most')" -le $((MAXCONNS + 1)) ] ||
    fail "more than $MAXCONNS connections held"
n=$(grep -c "accepting paused until one closes" "$TMPD/ctl.log")
[ "$n" -ge 1 ] && [ "$n" -le 3 ] || fail "$n cap lines in the log"
echo "ok"
