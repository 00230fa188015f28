#!/bin/bash
# ovs-ofctl --bundle (Open vSwitch) against a passive sbsim switch: bundles
# (OpenFlow 1.4.1 section 6.8; in 1.3 the ONF extension 2300/2301) commit
# all their messages or none.  add-flows commits atomically; a bundle file
# with one bad flow (a missing group, a bad table) fails with that flow's
# ERROR then BUNDLE_FAILED/MSG_FAILED and leaves dump-flows unchanged;
# replace-flows --bundle swaps the table in one commit; `ovs-ofctl bundle`
# mixes groups and flows, and a failing one puts back a group it deleted
# together with the flow that named it; past --bundle-msgs-max an add is
# MSG_TOO_MANY.  A hostile peer (of_bundle_hostile.py) opens bundles until
# OUT_OF_BUNDLES and leaves them open: each is discarded with TIMEOUT.
# Where dumpcap can capture (root), tshark decodes the ovs-ofctl session
# with no malformed message but ERRORs, whose data is the 64 bytes of the
# refused message that 7.4.4 asks for (the dissector wants it whole).
#
# VERSIONS lists the OpenFlow versions run: 1.3 (ONF's experimenter
# messages) and 1.4 (the message types 33/34).
. "$(dirname "$0")/../lib.sh"
need ovs-ofctl
need ss
VERSIONS="OpenFlow13 OpenFlow14"
MSGS_MAX=6

PORT=$(free_ports 1)
EP=tcp:127.0.0.1:$PORT
CAP=
if [ "$(id -u)" -eq 0 ] && command -v dumpcap >/dev/null &&
    command -v tshark >/dev/null; then
	start_bg "$TMPD/dumpcap.log" dumpcap -q -i lo -B 16 \
	    -f "tcp port $PORT" -w "$TMPD/cap.pcapng"
	DC=$LAST_PID
	if capture_ready "$TMPD/dumpcap.log"; then
		CAP=$TMPD/cap.pcapng
	else
		stop_pid "$DC"
	fi
fi
start_bg "$TMPD/sbsim.log" "$SBSIM" openflow --switches 1 --tables 4 \
    --of-version 1.3,1.4 --controller ptcp:$PORT --bundle-msgs-max $MSGS_MAX --duration 120 \
    --report "$TMPD/r.json" -q
SB=$LAST_PID
wait_listen "$PORT" || fail "sbsim did not listen on $PORT"

# The flows as dump-flows prints them, their age left out.
dump() { $OFCTL dump-flows $EP | grep 'actions=' | sed -E 's/ duration=[^,]*,//'; }
# ARGS... must fail naming each of the codes in $CODES.
expect_fail() {
	if $OFCTL "$@" >"$TMPD/err.out" 2>&1; then
		fail "$V: $* succeeded"
	fi
	for code in $CODES; do
		grep -q "$code" "$TMPD/err.out" ||
		    fail "$V: $*: no $code in: $(cat "$TMPD/err.out")"
	done
}
# The bundle file $1 fails with $CODES and the table stays as it was.
bundle_fails() {
	local before
	before=$(dump)
	expect_fail --bundle add-flows $EP "$1"
	[ "$(dump)" = "$before" ] ||
	    fail "$V: $1 changed the table: $(dump), was: $before"
}

for V in $VERSIONS; do
	OFCTL="timeout 30 ovs-ofctl -O $V"
	$OFCTL del-flows $EP || fail "$V: del-flows"
	cat >"$TMPD/good" <<'EOF'
priority=10,ip,nw_dst=10.0.0.1 actions=output:1
priority=10,ip,nw_dst=10.0.0.2 actions=output:2
priority=20,tcp,tp_dst=80 actions=output:3
table=1, priority=5,udp actions=drop
priority=30,arp actions=output:4
EOF
	$OFCTL --bundle add-flows $EP "$TMPD/good" || fail "$V: --bundle add-flows"
	[ "$(dump | wc -l)" -eq 5 ] || fail "$V: after the bundle: $(dump)"
	for f in 'nw_dst=10.0.0.1 actions=output:1' 'tp_dst=80 actions=output:3' \
	    'table=1, .*udp actions=drop' 'arp actions=output:4'; do
		dump | grep -q "$f" || fail "$V: $f missing: $(dump)"
	done

	# The third of five names a group that does not exist.
	cat >"$TMPD/bad_group" <<'EOF'
priority=40,ip,nw_dst=10.0.1.1 actions=output:1
priority=40,ip,nw_dst=10.0.1.2 actions=output:2
priority=40,ip,nw_dst=10.0.1.3 actions=group:77
priority=40,ip,nw_dst=10.0.1.4 actions=output:3
priority=40,ip,nw_dst=10.0.1.5 actions=output:4
EOF
	CODES="OFPBAC_BAD_OUT_GROUP OFPBFC_MSG_FAILED" bundle_fails "$TMPD/bad_group"
	# A modify and a delete ahead of a bad table: both undone.
	cat >"$TMPD/bad_table" <<'EOF'
priority=10,ip,nw_dst=10.0.0.1 actions=output:4
priority=50,icmp actions=output:1
table=9, priority=1 actions=drop
EOF
	CODES="OFPFMFC_BAD_TABLE_ID OFPBFC_MSG_FAILED" bundle_fails "$TMPD/bad_table"

	# replace-flows: what differs, in one bundle.
	cat >"$TMPD/new" <<'EOF'
priority=10,ip,nw_dst=10.0.0.1 actions=output:4
priority=60,icmp actions=output:2
EOF
	$OFCTL --bundle replace-flows $EP "$TMPD/new" ||
	    fail "$V: --bundle replace-flows"
	[ "$(dump | wc -l)" -eq 2 ] || fail "$V: after replace-flows: $(dump)"
	dump | grep -q 'nw_dst=10.0.0.1 actions=output:4' ||
	    fail "$V: replace-flows: $(dump)"

	# Groups and flows in one bundle, in order.
	printf '%s\n' 'group add group_id=1,type=all,bucket=output:1' \
	    'flow add priority=70,udp,actions=group:1' >"$TMPD/mixed"
	$OFCTL bundle $EP "$TMPD/mixed" || fail "$V: bundle (groups, flows)"
	dump | grep -q 'actions=group:1' || fail "$V: mixed bundle: $(dump)"
	before=$(dump)
	groups=$($OFCTL dump-groups $EP | grep group_id=)
	# Deleting group 1 takes its flow; the bad table undoes both.
	printf '%s\n' 'group delete group_id=1' \
	    'flow add table=9,priority=1,actions=drop' >"$TMPD/mixed_bad"
	CODES="OFPFMFC_BAD_TABLE_ID OFPBFC_MSG_FAILED" \
	    expect_fail bundle $EP "$TMPD/mixed_bad"
	[ "$(dump)" = "$before" ] || fail "$V: flows not put back: $(dump)"
	[ "$($OFCTL dump-groups $EP | grep group_id=)" = "$groups" ] ||
	    fail "$V: group not put back: $($OFCTL dump-groups $EP)"
	$OFCTL del-groups $EP || fail "$V: del-groups"

	# One message more than a bundle holds.
	for i in $(seq 1 $((MSGS_MAX + 1))); do
		echo "priority=80,ip,nw_dst=10.0.2.$i actions=output:1"
	done >"$TMPD/too_many"
	CODES="OFPBFC_MSG_TOO_MANY" bundle_fails "$TMPD/too_many"
done

stop_pid "$SB"
[ -s "$TMPD/r.json" ] || fail "no report after SIGINT"
if [ -n "$CAP" ]; then
	sleep 0.3
	stop_pid "$DC"
	tshark -r "$CAP" -d tcp.port==$PORT,openflow -Y \
	    '(_ws.malformed || _ws.expert.severity >= error) &&
	    !(openflow_v4.type == 1 || openflow_v5.type == 1)' \
	    >"$TMPD/bad" 2>"$TMPD/tshark.log" || fail "tshark: $(cat "$TMPD/tshark.log")"
	[ ! -s "$TMPD/bad" ] || fail "tshark: malformed: $(cat "$TMPD/bad")"
	n=$(tshark -r "$CAP" -d tcp.port==$PORT,openflow \
	    -Y 'openflow_v4.experimenter.experimenter == 0x4f4e4600' 2>/dev/null |
	    wc -l)
	[ "$n" -gt 20 ] || fail "tshark saw $n ONF messages"
	echo "tshark: $n ONF bundle messages, none malformed"
fi
c() { json_get "$TMPD/r.json" "r[\"counters\"].get(\"$1\", -1)"; }

# The hostile peer, against a switch of its own.
PORT2=$(free_ports 1)
start_bg "$TMPD/sbsim2.log" "$SBSIM" openflow --switches 1 \
    --controller ptcp:$PORT2 --bundles-max 3 --bundle-timeout 1 \
    --duration 120 --report "$TMPD/r2.json" -q
SB2=$LAST_PID
wait_listen "$PORT2" || fail "sbsim did not listen on $PORT2"
/usr/bin/python3 "$(dirname "$0")/of_bundle_hostile.py" "$PORT2" 3 ||
    fail "hostile bundle peer"
stop_pid "$SB2"
c2() { json_get "$TMPD/r2.json" "r[\"counters\"].get(\"$1\", -1)"; }
[ "$(c2 bundles_timed_out)" = 3 ] ||
    fail "bundles_timed_out=$(c2 bundles_timed_out), want 3"
[ "$(c2 bundle_limit_refused)" = 1 ] ||
    fail "bundle_limit_refused=$(c2 bundle_limit_refused), want 1"

n=$(echo $VERSIONS | wc -w)
[ "$(c bundles_committed)" = $((3 * n)) ] ||
    fail "bundles_committed=$(c bundles_committed), want $((3 * n))"
[ "$(c bundles_failed)" = $((3 * n)) ] ||
    fail "bundles_failed=$(c bundles_failed), want $((3 * n))"
[ "$(c bundle_limit_refused)" = "$n" ] ||
    fail "bundle_limit_refused=$(c bundle_limit_refused)"
echo "ovs-ofctl --bundle ($VERSIONS): commits all or nothing"
