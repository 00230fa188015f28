#!/bin/bash
# OpenFlow 1.5's CONTROLLER_STATUS (1.5.1 section 7.4.7) between one sbsim
# switch and two controller connections held by of15_cont_status.py: the
# multipart listing both, the async message on a role change, a channel
# down and up again, and its async mask; the switch's counter.  Where
# dumpcap and tshark can capture on lo, Wireshark's openflow_v6 must
# decode each CONTROLLER_STATUS with nothing malformed.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
PEER=$(free_ports 1)
CAP=
if command -v dumpcap >/dev/null && command -v tshark >/dev/null &&
    [ "$(id -u)" -eq 0 ]; then
	CAP="$TMPD/cap.pcapng"
	start_bg "$TMPD/dumpcap.log" dumpcap -q -i lo -f "tcp port $PEER" \
	    -w "$CAP"
	DC=$LAST_PID
	capture_ready "$TMPD/dumpcap.log" || CAP=
fi
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
if [ -n "$CAP" ]; then
	sleep 0.3
	stop_pid "$DC"
	DEC="-d tcp.port==$PEER,openflow"
	# shellcheck disable=SC2086
	n=$(tshark -r "$CAP" $DEC -Y "openflow_v6.type == 35" 2>/dev/null |
	    wc -l)
	[ "$n" -ge 4 ] || fail "tshark decoded $n CONTROLLER_STATUS"
	# shellcheck disable=SC2086
	tshark -r "$CAP" $DEC -Y "_ws.malformed || _ws.expert.severity >= error" \
	    >"$TMPD/bad" 2>/dev/null
	[ -s "$TMPD/bad" ] && fail "malformed: $(cat "$TMPD/bad")"
fi
echo "PASS: 1.5 CONTROLLER_STATUS"
