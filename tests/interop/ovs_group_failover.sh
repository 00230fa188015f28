#!/bin/bash
# Fast-failover liveness (OpenFlow 1.3.5 section 6.5) seen from ovs-ofctl:
# a PACKET_OUT to a fast-failover group leaves by the first bucket whose
# watched port is up, and the bucket counters of GROUP stats count the
# packets sbsim sent through each bucket (7.3.5.9).  Port 1 taken down by
# PORT_MOD (ovs-ofctl mod-port) moves the next packet to the backup
# bucket; port 1 up again moves it back.  A packet through a chain (an
# ALL group forwarding to the fast-failover one) counts in both.
. "$(dirname "$0")/../lib.sh"
need ovs-ofctl
need ss
PORT=$(free_ports 1)
EP=tcp:127.0.0.1:$PORT
OFCTL="timeout 30 ovs-ofctl -O OpenFlow13"

start_bg "$TMPD/sbsim.log" "$SBSIM" openflow --switches 1 \
    --controller ptcp:$PORT --duration 120 --report "$TMPD/r.json" -q
SB=$LAST_PID
wait_listen "$PORT" || fail "sbsim did not listen on $PORT"

$OFCTL add-group $EP \
    'group_id=1,type=ff,bucket=watch_port:1,actions=output:1,bucket=watch_port:2,actions=output:2' ||
    fail "add-group ff"
$OFCTL add-group $EP 'group_id=2,type=all,bucket=actions=group:1,bucket=actions=output:3' ||
    fail "add-group all -> ff"
# A 60-byte Ethernet frame (IPv4 type, zero payload).
PKT=ffffffffffff0000000000010800$(printf '00%.0s' $(seq 1 46))
send() {	# GROUP
	$OFCTL packet-out $EP "in_port=controller packet=$PKT actions=group:$1" ||
	    fail "packet-out to group $1"
}
# "P0 P1": packets counted by bucket 0 and bucket 1 of group G.
buckets() {
	$OFCTL dump-group-stats $EP group_id=$1 | grep "group_id=$1," |
	    sed -n 's/.*bucket0:packet_count=\([0-9]*\),.*bucket1:packet_count=\([0-9]*\),.*/\1 \2/p'
}
expect() {	# GROUP WANT WHAT
	local got
	got=$(buckets "$1")
	[ "$got" = "$2" ] || fail "$3: group $1 buckets '$got', want '$2' ($($OFCTL dump-group-stats $EP))"
}

expect 1 "0 0" "before any packet"
send 1
expect 1 "1 0" "port 1 up: the primary bucket"
$OFCTL mod-port $EP 1 down || fail "mod-port 1 down"
send 1
expect 1 "1 1" "port 1 down: the backup bucket"
send 2
expect 1 "1 2" "through the ALL group's chain: the backup bucket"
expect 2 "1 1" "the ALL group took both its buckets"
$OFCTL mod-port $EP 1 up || fail "mod-port 1 up"
send 1
expect 1 "2 2" "port 1 up again: the primary bucket"
$OFCTL dump-group-stats $EP group_id=1 | grep -q 'packet_count=4,byte_count=240,' ||
    fail "group 1 totals: $($OFCTL dump-group-stats $EP group_id=1)"
# A packet to a missing group is BAD_OUT_GROUP, as a flow's would be.
if $OFCTL packet-out $EP "in_port=controller packet=$PKT actions=group:9" \
    >"$TMPD/err.out" 2>&1; then
	fail "packet-out to a missing group succeeded"
fi
grep -q OFPBAC_BAD_OUT_GROUP "$TMPD/err.out" || fail "missing group: $(cat "$TMPD/err.out")"

stop_pid "$SB"
[ -s "$TMPD/r.json" ] || fail "no report after SIGINT"
c() { json_get "$TMPD/r.json" "r[\"counters\"].get(\"$1\", -1)"; }
[ "$(c group_packets)" = 4 ] || fail "group_packets=$(c group_packets)"
echo "ovs-ofctl OpenFlow13: a fast-failover group follows port 1 down and up, bucket counters count"
