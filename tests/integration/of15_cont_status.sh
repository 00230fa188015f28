#!/bin/bash
# OpenFlow 1.5's CONTROLLER_STATUS (1.5.1 section 7.4.7) between one sbsim
# switch and two controller connections held by of15_cont_status.py: the
# multipart listing both, the async message on a role change, a channel
# down and up again, and its async mask; the switch's counter.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
PEER=$(free_ports 1)
start_bg "$TMPD/peer.log" "$PY" "$(dirname "$0")/of15_cont_status.py" "$PEER"
PP=$LAST_PID
wait_listen "$PEER" || fail "of15_cont_status.py does not listen"
start_bg "$TMPD/sw.log" "$SBSIM" openflow --switches 1 --of-version 1.5 \
    --duration 30 --controller tcp:127.0.0.1:$PEER,tcp:127.0.0.1:$PEER \
    --report "$TMPD/r.json"
SW=$LAST_PID
wait_exit "$PP" 30 || fail "of15_cont_status.py did not finish"
[ "$EXIT_RC" -eq 0 ] || fail "$(grep FAIL "$TMPD/peer.log")"
[ "$(grep -c '^ok:' "$TMPD/peer.log")" -eq 6 ] || fail "not every step ran"
stop_pid "$SW"
# To B: A's ROLE and later A's demotion; to A: DOWN and UP (the other
# sends of the startup depend on which connection came up first).
v=$(json_get "$TMPD/r.json" "r['counters']['controller_status_sent']")
[ "$v" -ge 4 ] || fail "controller_status_sent = $v, want 4 or more"
echo "PASS: 1.5 CONTROLLER_STATUS"
