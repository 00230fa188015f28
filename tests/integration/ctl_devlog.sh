#!/bin/bash
# The embedded controller says when devices come and go (ctl_devlog_tick):
# with -v a line per change of a role's count ("openflow: 3 switches up
# (+3)"), and without it a summary every --log-interval seconds when any
# count changed ("devices in the last 1 s: openflow 3 switches up (+3
# -0), pcep 0 PCCs up (+0 -0)"), nothing while nothing changes.
. "$(dirname "$0")/../lib.sh"

# wait_line FILE REGEX: the log has such a line within 20 s.
wait_line() {
	local i=0
	until grep -qE "$2" "$1"; do
		i=$((i + 1))
		[ $i -lt 200 ] || return 1
		sleep 0.1
	done
}

run_round() {	# LOG ARGS...: a controller, 3 switches for 3 s, then none
	local log=$1
	shift
	local of pc
	of=$(free_ports 2)
	pc=$((of + 1))
	start_bg "$log" "$SBSIM" controller --openflow "ptcp:$of:127.0.0.1" \
	    --pcep "ptcp:$pc:127.0.0.1" --log-interval 1 "$@"
	CTL=$LAST_PID
	wait_listen "$of" || fail "the controller does not listen"
	timeout 30 "$SBSIM" openflow --switches 3 --controller \
	    "tcp:127.0.0.1:$of" --duration 3 -q >"$TMPD/sw.log" 2>&1 ||
	    fail "the switches exited $?"
}

S='devices in the last [0-9]+ s: openflow'
run_round "$TMPD/v.log" -v
wait_line "$TMPD/v.log" "^sbsim controller: openflow: 3 switches up \(\+[1-3]\)$" ||
    fail "-v: no line for the switches coming"
wait_line "$TMPD/v.log" "^sbsim controller: openflow: 0 switches up \(-[1-3]\)$" ||
    fail "-v: no line for the switches leaving"
wait_line "$TMPD/v.log" "$S 0 switches up \(\+[0-3] -[1-3]\), pcep 0 PCCs up \(\+0 -0\)$" ||
    fail "-v: no summary after the switches left"
stop_pid "$CTL"

run_round "$TMPD/q.log"
wait_line "$TMPD/q.log" "$S 3 switches up \(\+[1-3] -0\), pcep 0 PCCs up" ||
    fail "no summary with the 3 switches up"
wait_line "$TMPD/q.log" "$S 0 switches up" ||
    fail "no summary after the switches left"
# Nothing changes any more: no summary for 2 intervals.
n=$(grep -c "devices in the last" "$TMPD/q.log")
sleep 2.5
[ "$(grep -c "devices in the last" "$TMPD/q.log")" = "$n" ] ||
    fail "a summary while nothing changed: $(tail -3 "$TMPD/q.log")"
grep -v "devices in the last" "$TMPD/q.log" | grep -q "switches up" &&
    fail "a -v line without -v: $(cat "$TMPD/q.log")"
stop_pid "$CTL"
echo "controller: devices coming and going logged (-v), summed up every interval"
