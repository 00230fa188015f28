#!/bin/bash
# Wire validation: capture OVS's clients talking to a passive sbsim ovsdb
# device on the loopback (dumpcap) and let Wireshark's JSON dissector
# decode every message (Wireshark has no OVSDB dissector; RFC 7047 is
# JSON-RPC over TCP): ovs-vsctl's get_schema, its monitor_cond of
# _Server and monitor_cond_since of Open_vSwitch with update3, transact
# with its operations, and ovsdb-client's monitor with its update
# notifications.  Nothing malformed is sent, so not one malformed
# frame or expert error may appear, and the methods must be seen.
. "$(dirname "$0")/../lib.sh"
need tshark
need dumpcap
need ovs-vsctl
need ovsdb-client
need ss
[ "$(id -u)" -eq 0 ] || skip "capturing on lo needs root"
export OVS_RUNDIR=$TMPD OVS_DBDIR=$TMPD OVS_LOGDIR=$TMPD OVS_SYSCONFDIR=$TMPD

port=$(free_ports 1)
cap="$TMPD/ovsdb.pcapng"
start_capture "$TMPD/dumpcap.log" "tcp port $port" "$cap"
dc=$LAST_PID
start_bg "$TMPD/sim.log" "$SBSIM" ovsdb --devices 1 \
    --controller ptcp:$port:127.0.0.1 --bridges-per-node 1 --duration 60
sim=$LAST_PID
wait_listen "$port" || fail "sbsim does not listen"
vs() {
	timeout 20 ovs-vsctl --db=tcp:127.0.0.1:$port --no-wait --timeout=15 \
	    "$@" || fail "ovs-vsctl $*"
}
start_bg "$TMPD/monitor.log" timeout 20 ovsdb-client monitor \
    tcp:127.0.0.1:$port Open_vSwitch Bridge name
mon=$LAST_PID
sleep 0.5
vs show >/dev/null
vs add-br br1
vs add-port br1 eth1
vs list-br >/dev/null
vs del-br br1
sleep 0.5
kill "$mon" 2>/dev/null
stop_pid "$sim"
sleep 0.5
stop_pid "$dc"

dec="-d tcp.port==$port,json"
tshark_clean "$cap" $dec
n=$(tshark -r "$cap" $dec -Y json 2>/dev/null | wc -l)
[ "$n" -gt 10 ] || fail "only $n JSON frames decoded"
tshark -r "$cap" $dec -T fields -e json.value.string -Y json 2>/dev/null |
    tr ',' '\n' | sort -u >"$TMPD/strings"
for m in get_schema monitor_cond monitor_cond_since transact update3 \
    insert _Server; do
	grep -qx "$m" "$TMPD/strings" ||
	    fail "no $m decoded: $(grep -E '^[a-z_0-9]+$' "$TMPD/strings" | tr '\n' ' ')"
done
grep -qx update "$TMPD/strings" ||
    fail "no update (ovsdb-client monitor) decoded"
exit 0
