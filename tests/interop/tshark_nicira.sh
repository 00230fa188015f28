#!/bin/bash
# Wire check of Nicira sessions: ovs-ofctl in its default mode (1.0 and
# NXM: NXT_SET_FLOW_FORMAT, NXT_FLOW_MOD, NXST_FLOW, NXST_AGGREGATE) and
# with -O OpenFlow13 (NXM_1 OXM fields, experimenter actions) against a
# passive sbsim switch, captured on the loopback (dumpcap); Wireshark's
# OpenFlow dissectors must decode every message with no malformed packet
# or expert error, the switch send no ERROR, and the Nicira messages be
# there (VENDOR messages and stats both ways, 1.3 OXM class 0x0001 and
# EXPERIMENTER actions of id 0x2320).
. "$(dirname "$0")/../lib.sh"
need ovs-ofctl
need tshark
need dumpcap
need ss
[ "$(id -u)" -eq 0 ] || skip "capturing on lo needs root"
PORT=$(free_ports 1)
EP=tcp:127.0.0.1:$PORT
CAP="$TMPD/cap.pcapng"

start_capture "$TMPD/dumpcap.log" "tcp port $PORT" "$CAP"
DC=$LAST_PID
start_bg "$TMPD/sbsim.log" "$SBSIM" openflow --switches 1 \
    --controller ptcp:$PORT --duration 60 -q
SB=$LAST_PID
wait_listen "$PORT" || fail "sbsim did not listen on $PORT"

session() {	# OFCTL-ARGS...
	local f
	for f in "priority=10,reg0=0x1,tcp actions=resubmit(,2),dec_ttl" \
	    "priority=11,ct_state=+trk,ct_zone=5,ip actions=ct(commit,table=4,zone=NXM_NX_REG0[0..15],nat(src=10.0.0.1-10.0.0.9))" \
	    "priority=12,pkt_mark=0x9,conj_id=7 actions=learn(table=10,NXM_OF_ETH_DST[]=NXM_OF_ETH_SRC[],output:NXM_OF_IN_PORT[]),note:01.02"; do
		timeout 30 ovs-ofctl "$@" add-flow "$EP" "$f" ||
		    fail "$*: add-flow $f"
	done
	[ "$(timeout 30 ovs-ofctl "$@" dump-flows "$EP" | grep -c actions=)" \
	    -eq 3 ] || fail "$*: dump-flows"
	timeout 30 ovs-ofctl "$@" dump-aggregate "$EP" | grep -q flow_count=3 ||
	    fail "$*: dump-aggregate"
	timeout 30 ovs-ofctl "$@" del-flows "$EP" "reg0=0x1" ||
	    fail "$*: del-flows"
}
session
session -O OpenFlow13
stop_pid "$SB"
sleep 0.5
stop_pid "$DC"

DEC="-d tcp.port==$PORT,openflow"
count() { tshark -r "$CAP" $DEC -Y "$1" 2>/dev/null | wc -l; }
bad=$(count "_ws.malformed || _ws.expert.severity >= error")
[ "$bad" -eq 0 ] || fail "$bad malformed or erroneous frames: $(tshark -r "$CAP" $DEC -Y "_ws.malformed || _ws.expert.severity >= error" 2>/dev/null | head -5)"
errs=$(count "openflow_1_0.type == 1 || openflow_v4.type == 1")
[ "$errs" -eq 0 ] || fail "$errs OFPT_ERROR in the sessions"
# 1.0: the flow format and three NXT_FLOW_MODs, NXST requests and replies.
n=$(count "openflow_1_0.type == 4")
[ "$n" -ge 4 ] || fail "$n VENDOR messages decoded, want at least 4"
n=$(count "openflow_1_0.type == 17")
[ "$n" -ge 3 ] || fail "$n 1.0 stats replies, want the NXST ones too"
# 1.3: Nicira fields in OXM and experimenter actions.
n=$(count "openflow_v4.oxm.class == 0x0001")
[ "$n" -ge 3 ] || fail "$n 1.3 messages with NXM_1 fields, want 3 or more"
n=$(count "openflow_v4.action.type == 0xffff")
[ "$n" -ge 3 ] || fail "$n 1.3 messages with experimenter actions"
echo "Nicira sessions (NXM and OpenFlow13) decoded by tshark, none malformed"
