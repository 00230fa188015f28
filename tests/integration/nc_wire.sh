#!/bin/bash
# Numbers that match the wire, NETCONF over TCP (SSH would hide the
# messages): the embedded controller mounts 10 devices, writes K / 10
# interfaces into each through the mount point, and subscribes to K
# notifications of 10 prefixes each; the run is captured on lo and
# scripts/wirecheck recomputes program (the first edit-config to the
# rpc-reply to the last) and learn (the first notification to the
# controller's acknowledgment of the last), docs/report.md "Phase
# windows": item counts equal, rates within 2%, over windows of 0.1 s at
# least (K doubles until they are).
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need dumpcap
need ss
N=10		# devices
J=10		# prefixes per notification

# run_nc K: one run; 1 when a window was too short.
run_nc() {
	local k=$1 e=$(($1 / 10)) port rport d="$TMPD/$1"
	port=$(free_ports $((N + 1)))
	rport=$((port + N))
	wire_capture "tcp portrange $port-$((port + N - 1))" "$d"
	start_bg "$TMPD/ctl.log" "$SBSIM" controller --netconf \
	    --netconf-subscribe --restconf 127.0.0.1:$rport
	local ctl=$LAST_PID
	wait_listen "$rport" || fail "controller did not serve RESTCONF"
	timeout 50 "$SBSIM" netconf --devices $N \
	    --listen ptcp:$port:127.0.0.1 --transport tcp \
	    --notifications "$k" --prefixes-per-notification $J \
	    --northbound odl:http://127.0.0.1:$rport --edits $e \
	    --expect-edits $((N * e)) --timeout 20 --report "$d/r.json" -q \
	    >"$TMPD/nc.log" 2>&1 || fail "sbsim netconf exited $?"
	stop_pid "$ctl"
	wire_check "$d" program:device learn:tcp_ack
}

wire_scaled run_nc 1000 8000
exit 0
