#!/bin/bash
# A fast-failover group on the simulated wire (OpenFlow 1.3.5 sections
# 5.6.1 and 6.5): of_group_lldp.py is the controller of two switches in a
# line and sends LLDP to a fast-failover group on the first, watching an
# unlinked port first and the linked one second; the second switch hears
# the frame only while PORT_MOD holds the first port down.  The switches'
# counters agree: one frame forwarded, three packets sent to groups.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
PORT=$(free_ports 1)

start_bg "$TMPD/ctl.log" "$PY" "$(dirname "$0")/of_group_lldp.py" "$PORT"
CTL=$LAST_PID
wait_listen "$PORT" || fail "controller did not listen on $PORT"
start_bg "$TMPD/sw.log" "$SBSIM" openflow --switches 2 --ports 3 \
    --topology linear --of-version 1.3 --controller tcp:127.0.0.1:$PORT \
    --duration 60 --report "$TMPD/r.json" -q
SW=$LAST_PID
wait_exit "$CTL" 40 || fail "controller did not finish"
[ "$EXIT_RC" -eq 0 ] || fail "controller exited $EXIT_RC: $(cat "$TMPD/ctl.log")"
stop_pid "$SW"
[ -s "$TMPD/r.json" ] || fail "no report after SIGINT"
c() { json_get "$TMPD/r.json" "r[\"counters\"].get(\"$1\", -1)"; }
[ "$(c lldp_forwarded)" = 1 ] || fail "lldp_forwarded=$(c lldp_forwarded)"
[ "$(c group_packets)" = 3 ] || fail "group_packets=$(c group_packets)"
cat "$TMPD/ctl.log"
