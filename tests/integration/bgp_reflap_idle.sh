#!/bin/bash
# Peers that flap after the announce phase ended announce again on new
# sessions; their sockets stamp those writes (SO_TIMESTAMPING, the
# announce window) and nothing read the stamps once the phase's wait was
# over, so each such socket stayed in error (EPOLLERR) and the loop spun:
# 200 peers flapped twice a second burned 8.3 CPU seconds in a 10 s run.
# Now the stamps are drained.  The check: sbsim's CPU over two quiet
# seconds after the flaps is a small part of them (a spinning loop takes
# most of a core; an idle one a few milliseconds).
. "$(dirname "$0")/../lib.sh"
need ss
port=$(free_ports 1)
net=$((RANDOM % 200 + 20))
start_bg "$TMPD/ctl.log" "$SBSIM" controller --bgp ptcp:$port:127.0.0.1 \
    --as 65000 --bgp-monitor 127.$net.0.21
ctl=$LAST_PID
wait_listen "$port" || fail "the controller did not listen"
start_bg "$TMPD/bgp.log" timeout 30 "$SBSIM" bgp --peers 20 --prefixes 50 \
    --as 65001 --peer-as 65000 --source 127.$net.0.1/24 \
    --controller tcp:127.0.0.1:$port --monitor tcp:127.0.0.1:$port \
    --monitor-as 65002 --fault session-flap@1,1.2,1.4 --fault drop@1.6 \
    --duration 6 --timeout 10 --report "$TMPD/bgp.json" -q
bgp=$LAST_PID
# sbsim under timeout(1), its start and CPU from /proc, by the clock.
end=$((SECONDS + 20))
until sb=$(pgrep -P "$bgp" -x sbsim); do
	[ $SECONDS -lt $end ] && kill -0 "$bgp" 2>/dev/null ||
	    fail "no sbsim under timeout"
	sleep 0.05
done
hz=$(getconf CLK_TCK)
ticks() { cut -d' ' -f14,15 "/proc/$1/stat" | awk '{ print $1 + $2 }'; }
# age PID: the process's age in clock ticks.
age() {
	awk -v hz="$hz" -v st="$(cut -d' ' -f22 "/proc/$1/stat")" \
	    '{ printf "%d\n", $1 * hz - st }' /proc/uptime
}
# The quiet window: from 2.5 s of sbsim's own time (its faults end at
# 1.6 s), for 2 s, so it ends well before the run's 6 s.
while a=$(age "$sb") && [ "$a" -lt $((hz * 5 / 2)) ]; do
	sleep 0.05
done
t0=$(ticks "$sb") && a0=$(age "$sb") || fail "sbsim ended early"
sleep 2
t1=$(ticks "$sb") && a1=$(age "$sb") ||
    fail "sbsim ended before the quiet window did"
echo "sbsim's CPU over $((a1 - a0)) quiet ticks: $((t1 - t0)) ticks"
wait_exit "$bgp" 20 || fail "sbsim bgp did not end"
[ "$EXIT_RC" -eq 0 ] || fail "sbsim bgp exited $EXIT_RC"
stop_pid "$ctl"
grep -q '"fault_session_flap": 3' "$TMPD/bgp.json" || fail "3 flaps counted"
# A quarter of the time: far above an idle loop's share, far below a
# spinning one's, even on a loaded host.
[ $((t1 - t0)) -lt $(((a1 - a0) / 4)) ] ||
    fail "the loop spins after the flaps"
exit 0
