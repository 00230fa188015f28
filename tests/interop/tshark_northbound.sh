#!/bin/bash
# A northbound-driven session on the wire: sbsim pushes flows through the
# embedded controller's RESTCONF, the controller programs, polls and
# deletes them over OpenFlow 1.3; Wireshark's dissector must find FLOW_MODs
# for every flow, flow stats, and nothing malformed or in error.
. "$(dirname "$0")/../lib.sh"
need dumpcap
need tshark
need ss
N=3
F=300
base=$(free_ports 2)
OF=$base
RC=$((base + 1))
cap="$TMPD/nb.pcapng"

start_capture "$TMPD/dumpcap.log" "tcp port $OF" "$cap"
dc=$LAST_PID

start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow ptcp:$OF:127.0.0.1 \
    --of-version 1.3 --restconf 127.0.0.1:$RC --stats-interval 0.2
ctl=$LAST_PID
wait_listen "$RC" || fail "controller did not listen on $RC"
timeout 60 "$SBSIM" openflow --switches $N --of-version 1.3 \
    --controller tcp:127.0.0.1:$OF --northbound odl:http://127.0.0.1:$RC \
    --flows $F --flows-per-request 50 --timeout 20 -q \
    >"$TMPD/sw.log" 2>&1 || fail "sbsim exited $?"
stop_pid "$ctl"
sleep 0.3
stop_pid "$dc"
[ -s "$cap" ] || fail "empty capture"

dec="-d tcp.port==$OF,openflow"
# shellcheck disable=SC2086
tshark -r "$cap" $dec -Y openflow_v4 -T fields -e openflow_v4.type \
    >"$TMPD/types" 2>"$TMPD/tshark.log" || fail "tshark: $(cat "$TMPD/tshark.log")"
fm=$(tr ',' '\n' <"$TMPD/types" | grep -cx 14)
mp=$(tr ',' '\n' <"$TMPD/types" | grep -cx 19)
er=$(tr ',' '\n' <"$TMPD/types" | grep -cx 1)
[ "$fm" -ge "$F" ] || fail "$fm FLOW_MODs on the wire, want at least $F"
[ "$mp" -ge 1 ] || fail "no multipart replies (flow stats) on the wire"
[ "$er" -eq 0 ] || fail "$er OFPT_ERROR messages"
# shellcheck disable=SC2086
bad=$(tshark -r "$cap" $dec -Y '_ws.malformed || _ws.expert.severity >= error' \
    2>/dev/null | wc -l)
[ "$bad" -eq 0 ] || fail "$bad malformed packets"
echo "northbound session: $fm FLOW_MODs, $mp multipart replies, none malformed"
