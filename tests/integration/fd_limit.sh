#!/bin/bash
# Listeners at the descriptor limit (issue 14).  Under a 64-descriptor
# limit (prlimit): the embedded controller with its OpenFlow listener and
# its RESTCONF server, and an `sbsim openflow` run with its --metrics-listen
# server.  fd_flood.py opens 200 connections to each listener, far past the
# limit, and holds them: accepting must pause instead of spinning on
# EMFILE (the process's CPU over a second stays low), the log has one
# "accepting paused" line per listener (not thousands), and once the
# connections close every listener accepts and answers again.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
need prlimit
FLOOD="$PY $(dirname "$0")/fd_flood.py"

# check_log LOG LISTENERS: one line per listener that ran out, no more.
check_log() {
	local n
	n=$(grep -c "accepting paused" "$1")
	echo "log: $n 'accepting paused' lines, $(wc -l <"$1") lines in all"
	grep "accepting paused" "$1" | head -3
	[ "$n" -ge 1 ] || fail "no 'accepting paused' line in $1"
	[ "$n" -le "$2" ] || fail "$n 'accepting paused' lines: the log grows"
	[ "$(wc -l <"$1")" -lt 50 ] || fail "the log grows"
}

port=$(free_ports 4)
start_bg "$TMPD/ctl.log" prlimit --nofile=64:64 "$SBSIM" controller \
    --openflow ptcp:$port:127.0.0.1 --restconf 127.0.0.1:$((port + 1)) \
    --stats-interval 0
ctl=$LAST_PID
wait_listen "$port" || fail "controller did not listen on $port"
wait_listen $((port + 1)) || fail "controller did not serve RESTCONF"
$FLOOD "$ctl" of:$port http:$((port + 1)) ||
    fail "controller out of descriptors"
kill -0 "$ctl" 2>/dev/null || fail "the controller died"
check_log "$TMPD/ctl.log" 2
stop_pid "$ctl"
[ "$STOP_RC" -eq 0 ] || fail "controller exited $STOP_RC"

start_bg "$TMPD/sw.log" prlimit --nofile=64:64 "$SBSIM" openflow \
    --switches 1 --controller ptcp:$((port + 2)):127.0.0.1 \
    --metrics-listen 127.0.0.1:$((port + 3)) --duration 30 -q
sw=$LAST_PID
wait_listen $((port + 3)) || fail "sbsim openflow did not serve metrics"
$FLOOD "$sw" http:$((port + 3)) || fail "sbsim openflow out of descriptors"
kill -0 "$sw" 2>/dev/null || fail "sbsim openflow died"
check_log "$TMPD/sw.log" 1
stop_pid "$sw"
echo "ok"
