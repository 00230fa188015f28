#!/bin/bash
# The embedded controller's RESTCONF server against hostile clients
# (issue 14): bodies without credentials are refused with 401 before they
# are read and Expect: 100-continue is not answered without them, so 20
# clients pushing 30 MB each cost nothing; a head not whole within
# --restconf-header-timeout of the accept closes its connection
# (slowloris); at --restconf-max-connections the oldest connection that
# sent no byte makes room for a new one, and when every one is inside a
# request accepting pauses until one closes; a body
# nested past --restconf-max-depth gets 400 unparsed; requests
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
bad_usage controller "--restconf-max-depth: '0' is not" \
    --restconf 8181 --restconf-max-depth 0
[ "$FAILS" -eq 0 ] || fail "$FAILS usage errors were not reported"

port=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --restconf 127.0.0.1:$port \
    --restconf-header-timeout 1 --restconf-max-connections $MAXCONNS \
    --restconf-max-depth 20
ctl=$LAST_PID
wait_listen "$port" || fail "controller did not serve RESTCONF on $port"
"$PY" "$(dirname "$0")/rc_hostile.py" "$port" "$ctl" "$MAXCONNS" ||
    fail "hostile RESTCONF clients"
# Nesting: past --restconf-max-depth (20 here) a body gets 400 before any
# handler parses it; braces inside a string do not count, and XML counts
# elements (an empty one opens and closes at once).
deep() {	# deep FMT LEVELS: a body nested LEVELS deep
	"$PY" - "$1" "$2" <<'PYEOF'
import sys
fmt, n = sys.argv[1], int(sys.argv[2])
if fmt == "json":
    print('{"a":' * (n - 1) + '{"s":"{{{{[[[[{{{{[[[["}' + '}' * (n - 1))
else:
    print('<a xmlns="urn:x">' + '<b t=">">' * (n - 1) + '<e/>' +
          '</b>' * (n - 1) + '</a>')
PYEOF
}
put() {	# put FMT LEVELS: the status and error message of a PUT
	deep "$1" "$2" >"$TMPD/deep.$1"
	curl -s -u admin:admin -X PUT -H "Content-Type: application/yang-data+$1" \
	    --data-binary @"$TMPD/deep.$1" -w ' %{http_code}' \
	    "http://127.0.0.1:$port/rests/data/opendaylight-inventory:nodes/node=openflow%3A1" |
	    tr -d "\n"
}
put json 21 | grep -q 'nests deeper than 20 levels.* 400$' ||
    fail "a JSON body 21 deep was not refused"
put xml 21 | grep -q 'nests deeper than 20 levels.* 400$' ||
    fail "an XML body 21 deep was not refused"
put json 20 | grep -q 'nests deeper' && fail "a JSON body 20 deep was refused"
put xml 20 | grep -q 'nests deeper' && fail "an XML body 20 deep was refused"
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
[ "$(figure 'idle connections closed for new ones')" -ge 1 ] ||
    fail "idle connections closed for new ones not counted"
[ "$(figure 'bodies nested too deep')" -eq 2 ] ||
    fail "bodies nested too deep not counted"
[ "$(figure 'connections at most')" -le $((MAXCONNS + 1)) ] ||
    fail "more than $MAXCONNS connections held"
n=$(grep -c "accepting paused until one closes" "$TMPD/ctl.log")
[ "$n" -ge 1 ] && [ "$n" -le 3 ] || fail "$n cap lines in the log"
echo "ok"
