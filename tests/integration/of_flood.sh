#!/bin/bash
# OpenFlow peers that ask and never read (issue 14): a switch flooding the
# embedded controller with ECHO_REQUESTs, and a controller flooding an
# sbsim switch with flow-stats requests (each answered with 2000 flows),
# neither reading an answer.  Both stop reading while their output is over
# its mark (1 MiB), as BGP and PCEP do, so the process stays within 64 MB
# of where it started while the peer is held back by TCP; the controller's
# summary and the switch's report count the pauses (reads_paused).
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
FLOOD="$PY $(dirname "$0")/of_flood.py"

port=$(free_ports 2)

# The embedded controller, flooded with ECHO_REQUESTs by a switch.
start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow ptcp:$port:127.0.0.1
ctl=$LAST_PID
wait_listen "$port" || fail "controller did not listen on $port"
$FLOOD ctl "$port" "$ctl" || fail "controller flooded with ECHO_REQUESTs"
kill -0 "$ctl" 2>/dev/null || fail "the controller died"
stop_pid "$ctl"
[ "$STOP_RC" -eq 0 ] || fail "controller exited $STOP_RC"
paused=$(sed -n 's/.* \([0-9]*\) reads paused.*/\1/p' "$TMPD/ctl.log")
echo "controller: ${paused:-no} reads paused"
[ "${paused:-0}" -ge 1 ] || fail "the controller never paused reading"

# An sbsim switch, flooded with flow-stats requests by its controller.
# The switch starts first (it retries until the peer listens), so that
# the peer knows the PID whose memory it watches.
sp=$((port + 1))
start_bg "$TMPD/sw.log" "$SBSIM" openflow --switches 1 \
    --controller tcp:127.0.0.1:$sp --duration 8 --report "$TMPD/sw.json" -q
sw=$LAST_PID
$FLOOD switch "$sp" "$sw" || fail "switch flooded with flow-stats requests"
wait_exit "$sw" 20 || fail "the switch run did not end"
[ -f "$TMPD/sw.json" ] || fail "no report from the switch run"
paused=$(json_get "$TMPD/sw.json" 'r["counters"]["reads_paused"]')
echo "switch: $paused reads paused"
[ "$paused" -ge 1 ] || fail "the switch never paused reading"
echo "ok"
