#!/bin/bash
# The confirm phase with ovs-ofctl as the controller, two passive sbsim
# switches: their flows are read back one switch at a time and the first
# switch is emptied before the second is read.  A switch already read
# back may be emptied while another is still to be read (as a controller
# of several workers does): confirm still ends DONE with every flow, and
# delete too.  A switch emptied before it was read ends confirm
# TIMEOUT.
. "$(dirname "$0")/../lib.sh"
need ovs-ofctl
need ss
need curl
[ -x "$PY" ] || skip "$PY is not installed"
OFCTL="timeout 30 ovs-ofctl -O OpenFlow13"

# items PORT PHASE: the run's items of PHASE so far (its metrics on PORT).
items() {
	curl -s "http://127.0.0.1:$1/metrics" 2>/dev/null |
	    sed -n "s/^sbsim_phase_items{phase=\"$2\"[^}]*} \([0-9]*\)$/\1/p" |
	    grep . || echo 0
}

# wait_items PORT PHASE N: until the run counted N items of PHASE (20 s by
# the clock at most), so that each step is taken in before the next.
wait_items() {
	local end=$((SECONDS + 20))
	until [ "$(items "$1" "$2")" -ge "$3" ]; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.05
	done
}

# run NAME ORDER...: two switches with two flows each, then ovs-ofctl's
# steps in ORDER (dumpN: read switch N back, delN: empty it), each seen
# counted by the run (a dump of a switch not yet emptied confirms its two
# flows, an emptying deletes two) and a pause after it longer than the
# run's tick; $TMPD/NAME.json is the report.
run() {
	local name=$1 port step n mp confirmed=0 deleted=0 gone=""
	shift
	port=$(free_ports 3)
	mp=$((port + 2))
	start_bg "$TMPD/$name.log" "$SBSIM" openflow --switches 2 \
	    --controller ptcp:$port --expect-flows 4 --timeout 5 \
	    --metrics-listen 127.0.0.1:$mp --report "$TMPD/$name.json" -q
	local sb=$LAST_PID
	wait_listen "$port" && wait_listen $((port + 1)) ||
	    fail "$name: sbsim did not listen on $port and $((port + 1))"
	for n in 0 1; do
		$OFCTL add-flow tcp:127.0.0.1:$((port + n)) \
		    "priority=10,ip,nw_dst=10.0.$n.1,actions=output:1" &&
		    $OFCTL add-flow tcp:127.0.0.1:$((port + n)) \
		    "priority=10,ip,nw_dst=10.0.$n.2,actions=output:2" ||
		    fail "$name: add-flow on switch $n"
	done
	for step in "$@"; do
		n=${step: -1}
		case $step in
		dump*) $OFCTL dump-flows tcp:127.0.0.1:$((port + n)) \
		    >/dev/null || fail "$name: dump-flows on switch $n"
			case "$gone" in *$n*) ;; *)
				confirmed=$((confirmed + 2))
				wait_items $mp confirm $confirmed ||
				    fail "$name: $step not confirmed" ;;
			esac ;;
		del*) $OFCTL del-flows tcp:127.0.0.1:$((port + n)) ||
		    fail "$name: del-flows on switch $n"
			gone="$gone$n"
			deleted=$((deleted + 2))
			wait_items $mp delete $deleted ||
			    fail "$name: $step not counted as deletes" ;;
		esac
		sleep 0.3
	done
	wait_exit "$sb" 20 || fail "$name: sbsim did not end"
}

# ovs-ofctl never asks for FEATURES, so the switches' connect phase
# never counts (it times out): only confirm and delete are looked at.
phases() {
	json_get "$TMPD/$1.json" '[(p["name"], p["state"], p["items"]) for p in r["phases"] if p["name"] in ("confirm", "delete")]'
}
run early dump0 del0 dump1 del1
[ "$(phases early)" = "[('confirm', 'DONE', 4), ('delete', 'DONE', 4)]" ] ||
    fail "early: $(json_get "$TMPD/early.json" 'r["phases"]')"
run unread dump0 del1 del0
[ "$(phases unread)" = "[('confirm', 'TIMEOUT', 2), ('delete', 'DONE', 4)]" ] ||
    fail "unread: $(json_get "$TMPD/unread.json" 'r["phases"]')"
exit 0
