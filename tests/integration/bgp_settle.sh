#!/bin/bash
# Without a witness (--monitor) sbsim cannot see the speaker learn: the
# sessions are held --settle seconds after the last UPDATE (issue 14:
# closing them 0.2 s after it made BIRD flush routes it had not finished
# learning), and the report says learning was not observed
# (learn_not_observed).  With --monitor nothing is held and nothing said.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss

NET=$((RANDOM % 200 + 20))	# 127.NET.0.0/24: peers .1-.2, monitor .3
SRC=127.$NET.0.0/24
port=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --bgp ptcp:$port:127.0.0.1 \
    --as 65000 --bgp-monitor 127.$NET.0.3
CTL=$LAST_PID
wait_listen "$port" || fail "controller did not listen"

# established: sessions to the controller's port in ESTABLISHED now.
established() {
	ss -Htn state established "( dport = :$port )" 2>/dev/null | wc -l
}

# wakeups PID: the times it slept and was woken (voluntary context
# switches, proc(5)).
wakeups() {
	awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$1/status"
}

# 1. --settle 3: once held (announce is over in well under a second) both
# sessions are up; the run lasts at least 3 s and is ok.  While it
# holds, the run ticks at most once a second (run_quiet_until()), not
# every 100 ms: over 1.5 s of the hold it wakes a few times, not 15.
start=$(date +%s%N)
start_bg "$TMPD/held.log" "$SBSIM" bgp --peers 2 --prefixes 1000 \
    --as 65001 --peer-as 65000 --controller tcp:127.0.0.1:$port \
    --source "$SRC" --settle 3 --timeout 20 --report "$TMPD/held.json" -v
SB=$LAST_PID
end=$((SECONDS + 20))
until [ "$(established)" -eq 2 ] &&
    grep -q "holding the sessions" "$TMPD/held.log"; do
	[ $SECONDS -lt $end ] && kill -0 "$SB" 2>/dev/null ||
	    fail "$(established) sessions established, want 2 (held)"
	sleep 0.05
done
w0=$(wakeups "$SB")
sleep 1.5
w1=$(wakeups "$SB")
[ -n "$w0" ] && [ -n "$w1" ] || fail "sbsim bgp ended before its hold did"
[ $((w1 - w0)) -le 8 ] ||
    fail "holding the sessions, sbsim woke $((w1 - w0)) times in 1.5 s"
n=$(established)
[ "$n" -eq 2 ] || fail "in the hold, $n sessions established, want 2 (held)"
wait_exit "$SB" 20 || fail "sbsim bgp did not end"
[ "$EXIT_RC" -eq 0 ] || fail "held run: exit $EXIT_RC"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$ms" -ge 3000 ] || fail "held run ended after $ms ms, before --settle 3"
[ "$(json_get "$TMPD/held.json" 'r["counters"].get("learn_not_observed")')" = 1 ] ||
    fail "the report does not say learning was not observed"
[ "$(json_get "$TMPD/held.json" '[p["state"] for p in r["phases"] if p["name"] == "announce"][0]')" = DONE ] ||
    fail "announce not DONE"

# 2. --settle 0: the old behaviour, closed at once, still said.
timeout 20 "$SBSIM" bgp --peers 2 --prefixes 1000 --as 65001 \
    --peer-as 65000 --controller tcp:127.0.0.1:$port --settle 0 \
    --source "$SRC" \
    --timeout 20 --report "$TMPD/now.json" -q >"$TMPD/now.log" 2>&1 ||
    fail "settle 0: exit $?"
[ "$(json_get "$TMPD/now.json" 'r["counters"].get("learn_not_observed")')" = 1 ] ||
    fail "settle 0: learning not said unobserved"

# 3. A monitor witnesses learning: no hold, no such counter.
timeout 20 "$SBSIM" bgp --peers 2 --prefixes 1000 --as 65001 \
    --peer-as 65000 --controller tcp:127.0.0.1:$port \
    --monitor tcp:127.0.0.1:$port --monitor-as 65002 --source "$SRC" \
    --timeout 20 --report "$TMPD/mon.json" -q >"$TMPD/mon.log" 2>&1 ||
    fail "monitor run: exit $?"
[ "$(json_get "$TMPD/mon.json" 'r["counters"].get("learn_not_observed")')" = None ] ||
    fail "monitor run says learning was not observed"
[ "$(json_get "$TMPD/mon.json" '[p["state"] for p in r["phases"] if p["name"] == "learn"][0]')" = DONE ] ||
    fail "monitor run: learn not DONE"
stop_pid "$CTL"
exit 0
