#!/bin/bash
# OpenFlow 1.4 and 1.5 between one sbsim switch and two controller
# connections held by of14_async.py: version bitmap negotiation, async
# configuration as property lists, ROLE_STATUS (type 30) on a master
# change and its async mask, PORT_STATUS with a 1.4 port, the types 1.4
# drops or a switch does not take, flow monitors (initial flows, then
# updates of another controller's changes, errors, --max-flow-monitors),
# vacancy events (TABLE_MOD, TABLE_STATUS, TABLE_DESC), REQUESTFORWARD.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
# --of-version: 1.4 and 1.5 for switches; the controller role refuses them.
FAILS=0
bad_usage openflow "'1.6' is not 1.5, 1.4, 1.3 or 1.0" --switches 1 \
    --controller tcp:127.0.0.1:1 --of-version 1.4,1.6
bad_usage openflow 'needs OpenFlow 1.3, 1.4 or 1.5' --switches 1 \
    --controller tcp:127.0.0.1:1,tcp:127.0.0.1:2 --of-version 1.0
bad_usage controller 'speaks 1.3 and 1.0 only' --openflow ptcp:1 \
    --of-version 1.3,1.5
[ "$FAILS" -eq 0 ] || fail "$FAILS usage checks failed"
for V in 5 6; do
	PEER=$(free_ports 1)
	start_bg "$TMPD/peer$V.log" "$PY" "$(dirname "$0")/of14_async.py" \
	    "$PEER" $V
	PP=$LAST_PID
	wait_listen "$PEER" || fail "of14_async.py does not listen"
	start_bg "$TMPD/sw$V.log" "$SBSIM" openflow --switches 1 \
	    --of-version 1.3,1.4,1.5 --duration 20 --max-flow-monitors 2 \
	    --tables 4 --table-size 10 \
	    --controller tcp:127.0.0.1:$PEER,tcp:127.0.0.1:$PEER \
	    --report "$TMPD/r$V.json"
	SW=$LAST_PID
	wait_exit "$PP" 25 || fail "of14_async.py did not finish"
	[ "$EXIT_RC" -eq 0 ] || fail "version $V: $(grep FAIL "$TMPD/peer$V.log")"
	[ "$(grep -c '^ok:' "$TMPD/peer$V.log")" -eq 15 ] ||
	    fail "version $V: not every step ran"
	stop_pid "$SW"
	v=$(json_get "$TMPD/r$V.json" "r['counters']['role_status_sent']")
	# A demoted once (heard), B once, A again (masked: not sent).
	[ "$v" = 2 ] || fail "version $V: role_status_sent = $v, want 2"
	# Updates: ADDED, MODIFIED, REMOVED, then 7 ADDED to monitor 1;
	# TABLE_STATUS: DOWN and UP, to A and B each.
	for kv in flow_updates_sent=10 flow_monitors_refused=1 \
	    table_status_sent=4 requestforward_sent=1; do
		v=$(json_get "$TMPD/r$V.json" "r['counters']['${kv%=*}']")
		[ "$v" = "${kv#*=}" ] || fail "version $V: ${kv%=*} = $v"
	done
done
echo "PASS: 1.4 and 1.5 roles, async properties and port status"
