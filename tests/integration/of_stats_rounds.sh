#!/bin/bash
# The embedded controller's statistics poll goes round by round (as
# OpenDaylight's statistics manager): a switch that answers late holds the
# next round back for every switch, the pause after a round grows with
# its time, and a round whose replies never come ends at --stats-timeout.
# of_stats_rounds.py plays the two switches and checks the order of
# requests and answers; the summary counts the rounds and the timeout.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss

run_cli controller --stats-timeout 0
is_usage_error "stats-timeout" || fail "--stats-timeout 0 accepted: $RC $ERR"
"$SBSIM" controller --help 2>&1 | grep -q -- "--stats-timeout" ||
    fail "--stats-timeout not in --help"

of=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow "ptcp:$of:127.0.0.1" \
    --stats-interval 0.05 --stats-timeout 1.5
ctl=$LAST_PID
wait_listen "$of" || fail "controller did not listen on $of"
"$PY" "$(dirname "$0")/of_stats_rounds.py" "$of" 0.5 1.5 \
    >"$TMPD/switches.log" 2>&1 || fail "$(tail -n 1 "$TMPD/switches.log")"
stop_pid "$ctl"
line=$(grep '^stats polls:' "$TMPD/ctl.log") || fail "no stats polls line"
echo "$line"
# Rounds 1 to 4 began (the fourth may still wait for slow's answer).
rounds=$(echo "$line" | sed -n 's/^stats polls: \([0-9]*\) rounds, 1 timed out, .*/\1/p')
[ -n "$rounds" ] && [ "$rounds" -ge 3 ] && [ "$rounds" -le 4 ] ||
    fail "the summary does not count 3 or 4 rounds, one timed out: $line"
exit 0
