#!/bin/bash
# Numbers that match the wire, BGP: one peer announces P prefixes to the
# embedded speaker and withdraws them, captured on lo; scripts/wirecheck
# recomputes the phases from the capture (docs/report.md "Phase
# windows"): with a monitor peer, announce (to the speaker's TCP
# acknowledgment of the last UPDATE), learn and withdraw (to the last
# UPDATE the monitor receives); without one, announce and withdraw (both
# to the acknowledgment).  Item counts must be equal, rates within 2%,
# over windows of 0.1 s at least (P doubles until they are).
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need dumpcap
need ss
NET=$((RANDOM % 200 + 20))	# 127.NET.0.0/24: the peer .1, the monitor .2
MONITOR=1

# run_bgp P: one run; 1 when a window was too short.
run_bgp() {
	local p=$1 port d="$TMPD/$MONITOR-$1" mon=""
	local phases="announce:tcp_ack withdraw:tcp_ack"
	port=$(free_ports 1)
	if [ $MONITOR = 1 ]; then
		mon="--monitor tcp:127.0.0.1:$port"
		phases="announce:tcp_ack learn:monitor withdraw:monitor"
	fi
	wire_capture "tcp port $port" "$d"
	start_bg "$TMPD/ctl.log" "$SBSIM" controller \
	    --bgp ptcp:$port:127.0.0.1 --as 65000 --bgp-monitor 127.$NET.0.2
	local ctl=$LAST_PID
	wait_listen "$port" || fail "controller did not listen on $port"
	# shellcheck disable=SC2086
	timeout 50 "$SBSIM" bgp --peers 1 --prefixes "$p" --as 65001 \
	    --peer-as 65000 --source 127.$NET.0.0/24 \
	    --controller tcp:127.0.0.1:$port $mon --withdraw --timeout 20 \
	    --report "$d/r.json" -q >"$TMPD/bgp.log" 2>&1 ||
	    fail "sbsim bgp exited $?"
	stop_pid "$ctl"
	# shellcheck disable=SC2086
	wire_check "$d" $phases
}

for MONITOR in 1 0; do
	echo "# monitor: $MONITOR"
	wire_scaled run_bgp 200000 1600000
done
exit 0
