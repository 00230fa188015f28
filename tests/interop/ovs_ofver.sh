#!/bin/bash
# ovs-ofctl (Open vSwitch) against a passive sbsim switch in OpenFlow 1.4
# or 1.5 ($1 = 14 or 15), negotiated from a switch offering 1.3,1.4,1.5
# (and one offering 1.3 only refused): show (FEATURES and 1.4's
# property-based PORT_DESC), flows with importance added, modified and
# deleted, read back byte-exact as text (1.5: OFPMP_FLOW_DESC with OXS
# statistics), aggregate, tables, port stats with their ETHERNET
# property, PORT_MOD, PACKET_OUT (1.5: in_port in a match), groups of
# every type read back as given (1.5: bucket ids and properties, and
# insert-buckets and remove-buckets with their errors), queue
# config, vacancy thresholds through TABLE_MOD and TABLE_DESC.
. "$(dirname "$0")/../lib.sh"
need ovs-ofctl
need ss
V=${1:-14}
PROTO=OpenFlow$V
PORT=$(free_ports 2)
EP=tcp:127.0.0.1:$PORT
OFCTL="timeout 30 ovs-ofctl -O $PROTO"

start_bg "$TMPD/sbsim.log" "$SBSIM" openflow --switches 1 \
    --of-version 1.3,1.4,1.5 --controller ptcp:$PORT --duration 120 \
    --report "$TMPD/r.json" -q
SB=$LAST_PID
start_bg "$TMPD/sbsim13.log" "$SBSIM" openflow --switches 1 \
    --of-version 1.3 --controller ptcp:$((PORT + 1)) --duration 120 -q
SB13=$LAST_PID
wait_listen "$PORT" && wait_listen $((PORT + 1)) ||
    fail "sbsim did not listen on $PORT and $((PORT + 1))"

# A switch that offers 1.3 only has no version in common.
if $OFCTL show tcp:127.0.0.1:$((PORT + 1)) >"$TMPD/no.out" 2>&1; then
	fail "a 1.3-only switch answered $PROTO: $(cat "$TMPD/no.out")"
fi
stop_pid "$SB13"

$OFCTL show $EP >"$TMPD/show" || fail "show: $(cat "$TMPD/show")"
grep -q "OFPT_FEATURES_REPLY (OF1\.${V#1})" "$TMPD/show" ||
    fail "show: $(cat "$TMPD/show")"
# Speeds come only from the ETHERNET property of 1.4's ofp_port.
[ "$(grep -c 'speed: 10000 Mbps now, 10000 Mbps max' "$TMPD/show")" -eq 4 ] ||
    fail "port speeds: $(cat "$TMPD/show")"
[ "$(grep -c 'state:      LIVE' "$TMPD/show")" -eq 4 ] ||
    fail "port states: $(cat "$TMPD/show")"

# Flows as ovs-ofctl prints them back (dump-flows --no-stats, in the
# order of the dump: table, then priority as the switch keeps them).
cat >"$TMPD/flows" <<'EOF'
cookie=0x1, importance=7, priority=5,ip,nw_dst=10.0.0.1 actions=output:2
cookie=0x3, hard_timeout=900, importance=65535, priority=300,in_port=3,dl_src=02:00:00:00:00:01 actions=set_field:00:11:22:33:44:55->eth_dst,output:4
send_flow_rem priority=7,udp,nw_src=192.168.1.0/24 actions=write_actions(output:1),goto_table:2
cookie=0x2, table=1, idle_timeout=600, priority=9,tcp,tp_dst=80 actions=drop
EOF
$OFCTL add-flows $EP "$TMPD/flows" || fail "add-flows"
flows() { $OFCTL dump-flows $EP --no-stats | sed 's/^ *//' | sort; }
diff -u <(sort "$TMPD/flows") <(flows) || fail "dump-flows differs from what was added"
$OFCTL dump-flows $EP >"$TMPD/stats"
grep -q 'importance=7, ' "$TMPD/stats" && grep -q 'n_packets=0, n_bytes=0' "$TMPD/stats" &&
    grep -q 'duration=' "$TMPD/stats" || fail "dump-flows stats: $(cat "$TMPD/stats")"
$OFCTL dump-aggregate $EP | grep -q 'flow_count=4' ||
    fail "dump-aggregate: $($OFCTL dump-aggregate $EP)"
$OFCTL dump-tables $EP | grep -q 'active=3' || fail "dump-tables"

# MODIFY changes the actions and keeps the importance.
$OFCTL mod-flows $EP 'ip,nw_dst=10.0.0.1,actions=output:3' || fail "mod-flows"
flows | grep -qx 'cookie=0x1, importance=7, priority=5,ip,nw_dst=10.0.0.1 actions=output:3' ||
    fail "mod-flows not read back: $(flows)"
$OFCTL --strict del-flows $EP 'priority=9,table=1,tcp,tp_dst=80' || fail "strict del"
[ "$(flows | wc -l)" -eq 3 ] || fail "after strict delete: $(flows)"

# Port statistics carry the Ethernet counters in a property.
$OFCTL dump-ports $EP 2 >"$TMPD/ports" || fail "dump-ports"
grep -q 'port  2: rx pkts=0, bytes=0, drop=0, errs=0, frame=0, over=0, crc=0' "$TMPD/ports" ||
    fail "dump-ports: $(cat "$TMPD/ports")"
$OFCTL mod-port $EP 2 down || fail "mod-port down"
$OFCTL dump-ports-desc $EP 2 | grep -q 'config:     PORT_DOWN' ||
    fail "port 2 not down: $($OFCTL dump-ports-desc $EP 2)"
$OFCTL mod-port $EP 2 up || fail "mod-port up"

PKT=ffffffffffff00000000000108060001080006040001000000000001c0a80001000000000000c0a80002
$OFCTL packet-out $EP "in_port=1 packet=$PKT actions=output:2" || fail "packet-out"
if $OFCTL packet-out $EP "in_port=1 packet=$PKT actions=output:9" >"$TMPD/po.out" 2>&1; then
	fail "packet-out to port 9 succeeded"
fi
grep -q OFPBAC_BAD_OUT_PORT "$TMPD/po.out" || fail "packet-out: $(cat "$TMPD/po.out")"

# Groups; 1.5 names its buckets.
if [ "$V" = 15 ]; then
	cat >"$TMPD/groups" <<'EOF'
group_id=1,type=all,bucket=bucket_id:0,actions=output:1,bucket=bucket_id:1,actions=output:2
group_id=2,type=select,bucket=bucket_id:0,weight:10,actions=output:1,bucket=bucket_id:1,weight:20,actions=set_field:00:11:22:33:44:55->eth_dst,output:2
group_id=3,type=indirect,bucket=bucket_id:7,actions=push_vlan:0x8100,set_field:4196->vlan_vid,output:3
group_id=4,type=ff,bucket=bucket_id:5,watch_port:1,actions=output:1,bucket=bucket_id:9,watch_port:2,actions=output:2
EOF
	MOD='group_id=1,type=select,bucket=bucket_id:3,weight:5,actions=output:4'
else
	sed -e 's/bucket_id:[0-9]*,//g' >"$TMPD/groups" <<'EOF'
group_id=1,type=all,bucket=actions=output:1,bucket=actions=output:2
group_id=2,type=select,bucket=weight:10,actions=output:1,bucket=weight:20,actions=set_field:00:11:22:33:44:55->eth_dst,output:2
group_id=3,type=indirect,bucket=actions=push_vlan:0x8100,set_field:4196->vlan_vid,output:3
group_id=4,type=ff,bucket=watch_port:1,actions=output:1,bucket=watch_port:2,actions=output:2
EOF
	MOD='group_id=1,type=select,bucket=weight:5,actions=output:4'
fi
while read -r g; do
	$OFCTL add-group $EP "$g" || fail "add-group $g"
done <"$TMPD/groups"
groups() { $OFCTL dump-groups $EP | grep group_id= | sed 's/^ *//' | sort; }
diff -u <(sort "$TMPD/groups") <(groups) || fail "dump-groups differs from what was added"
$OFCTL mod-group $EP "$MOD" || fail "mod-group"
groups | grep -qx "$MOD" || fail "mod-group not read back: $(groups)"
if [ "$V" = 15 ]; then
	# 1.5's bucket commands (1.5.1 section 7.3.4.2): FIRST, after an
	# id, LAST; then REMOVE_BUCKET of an id, FIRST, LAST and ALL.
	G9='group_id=9,type=select'
	B0='bucket=bucket_id:0,weight:10,actions=output:1'
	B1='bucket=bucket_id:1,weight:20,actions=output:2'
	B7='bucket=bucket_id:7,weight:3,actions=output:3'
	B8='bucket=bucket_id:8,weight:4,actions=output:4'
	B9='bucket=bucket_id:9,weight:5,actions=output:4'
	g9() { groups | grep "^group_id=9,"; }
	bkt() {	# bkt CMD SPEC WANT: CMD, then group 9 reads WANT
		$OFCTL "$1" $EP "group_id=9,$2" || fail "$1 $2"
		[ "$(g9)" = "$3" ] || fail "$1 $2: $(g9), not $3"
	}
	$OFCTL add-group $EP "$G9,$B0,$B1" || fail "add-group 9"
	bkt insert-buckets "command_bucket_id=first,$B7" "$G9,$B7,$B0,$B1"
	bkt insert-buckets "command_bucket_id=0,$B8" "$G9,$B7,$B0,$B8,$B1"
	bkt insert-buckets "command_bucket_id=last,$B9" "$G9,$B7,$B0,$B8,$B1,$B9"
	$OFCTL insert-buckets $EP "group_id=9,command_bucket_id=last,$B9" \
	    >"$TMPD/bk.out" 2>&1 && fail "a bucket id twice was taken"
	grep -q OFPGMFC_BUCKET_EXISTS "$TMPD/bk.out" || fail "$(cat "$TMPD/bk.out")"
	$OFCTL insert-buckets $EP "group_id=9,command_bucket_id=42,$B9" \
	    >"$TMPD/bk.out" 2>&1 && fail "insert after bucket 42 was taken"
	grep -q OFPGMFC_UNKNOWN_BUCKET "$TMPD/bk.out" || fail "$(cat "$TMPD/bk.out")"
	bkt remove-buckets command_bucket_id=8 "$G9,$B7,$B0,$B1,$B9"
	$OFCTL remove-buckets $EP group_id=9,command_bucket_id=8 \
	    >"$TMPD/bk.out" 2>&1 && fail "bucket 8 removed twice"
	grep -q OFPGMFC_UNKNOWN_BUCKET "$TMPD/bk.out" || fail "$(cat "$TMPD/bk.out")"
	bkt remove-buckets command_bucket_id=first "$G9,$B0,$B1,$B9"
	bkt remove-buckets command_bucket_id=last "$G9,$B0,$B1"
	bkt remove-buckets command_bucket_id=all "$G9"
	$OFCTL remove-buckets $EP group_id=10,command_bucket_id=all \
	    >"$TMPD/bk.out" 2>&1 && fail "remove-buckets of no group taken"
	grep -q OFPGMFC_UNKNOWN_GROUP "$TMPD/bk.out" || fail "$(cat "$TMPD/bk.out")"
	$OFCTL del-groups $EP group_id=9 || fail "del-groups group_id=9"
fi
$OFCTL dump-group-features $EP | grep -q 'Types:  0xf' || fail "group features"
$OFCTL add-flow $EP 'priority=5,tcp,actions=group:2' || fail "add-flow group:2"
$OFCTL dump-group-stats $EP | grep -q 'group_id=2,.*ref_count=1,' ||
    fail "group stats: $($OFCTL dump-group-stats $EP)"
$OFCTL del-groups $EP group_id=2 || fail "del-groups group_id=2"
flows | grep -q 'group:2' && fail "the group:2 flow stayed"
$OFCTL del-groups $EP || fail "del-groups"
[ -z "$(groups)" ] || fail "groups left: $(groups)"
$OFCTL del-flows $EP || fail "del-flows"
[ -z "$(flows)" ] || fail "flows left: $(flows)"

# No queues (QUEUE_DESC, 1.4's QUEUE_GET_CONFIG); vacancy thresholds
# read back from TABLE_DESC; eviction is not offered.
$OFCTL queue-get-config $EP >"$TMPD/q" || fail "queue-get-config: $(cat "$TMPD/q")"
$OFCTL mod-table $EP 0 vacancy:20,80 || fail "mod-table vacancy"
$OFCTL dump-table-desc $EP | grep -q 'vacancy=on vacancy_down=20% vacancy_up=80% vacancy=100%' ||
    fail "dump-table-desc: $($OFCTL dump-table-desc $EP | head -8)"
if $OFCTL mod-table $EP 1 evict >"$TMPD/ev.out" 2>&1; then
	fail "mod-table evict succeeded"
fi
grep -q OFPTMFC_BAD_CONFIG "$TMPD/ev.out" || fail "evict: $(cat "$TMPD/ev.out")"

stop_pid "$SB"
[ -s "$TMPD/r.json" ] || fail "no report after SIGINT"
errs=$(json_get "$TMPD/r.json" 'r["counters"].get("flow_mod_errors", 0)')
[ "$errs" = 0 ] || fail "$errs FLOW_MOD errors"
echo "ovs-ofctl $PROTO: ports, flows, port stats, packet-out and groups as given"
