#!/bin/bash
# --flows-per-request is the most flows one northbound write carries; a
# write addresses one switch's table, so with fewer flows a switch the
# batch is smaller: the run says so (a warning line) and reports the
# batch actually used (counter nb_flows_per_request_max, JSON and table).
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss

ports=$(free_ports 2)
of=$ports rc=$((ports + 1))
start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow "ptcp:$of:127.0.0.1" \
    --restconf "127.0.0.1:$rc" --stats-interval 0.2
ctl=$LAST_PID
wait_listen "$of" || fail "controller did not listen on $of"
wait_listen "$rc" || fail "controller did not serve RESTCONF"

# run NAME K: 4 switches, 100 flows each, K flows a request.
run() {
	timeout 60 "$SBSIM" openflow --switches 4 --controller "tcp:127.0.0.1:$of" \
	    --northbound "odl:http://127.0.0.1:$rc" --flows 400 \
	    --flows-per-request "$2" --timeout 30 --report "$TMPD/$1.json" \
	    >"$TMPD/$1.out" 2>&1 || fail "$1: sbsim openflow exited $?"
}
run big 200
[ "$(json_get "$TMPD/big.json" 'r["counters"]["nb_flows_per_request_max"]')" = 100 ] ||
    fail "--flows-per-request 200: nb_flows_per_request_max is not 100"
[ "$(json_get "$TMPD/big.json" '[p["items"] for p in r["phases"] if p["name"] == "nb_program"][0]')" = 4 ] ||
    fail "--flows-per-request 200: not one write a switch"
grep -q "100 flows a request, not 200" "$TMPD/big.out" ||
    fail "--flows-per-request 200 over 100 flows a switch: no word of it"
grep -qE '^ *nb_flows_per_request_max +100$' "$TMPD/big.out" ||
    fail "the results do not show nb_flows_per_request_max"

run small 30
[ "$(json_get "$TMPD/small.json" 'r["counters"]["nb_flows_per_request_max"]')" = 30 ] ||
    fail "--flows-per-request 30: nb_flows_per_request_max is not 30"
[ "$(json_get "$TMPD/small.json" '[p["items"] for p in r["phases"] if p["name"] == "nb_program"][0]')" = 16 ] ||
    fail "--flows-per-request 30: not 4 writes a switch"
grep -q "flows a request, not" "$TMPD/small.out" &&
    fail "--flows-per-request 30 warned"
stop_pid "$ctl"
exit 0
