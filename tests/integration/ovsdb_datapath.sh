#!/bin/bash
# A bridge given a Controller row becomes an OpenFlow switch of the same
# sbsim ovsdb process, as ovs-vswitchd makes one: against the embedded
# controller (sbsim controller --openflow, RESTCONF inventory) bridges
# made with ovs-vsctl on three devices show up as openflow:170..172 (the
# datapath-id of other_config), are programmed with 10 flows each (flow
# table, barriers, stats read back), their Controller rows say
# is_connected true; a new datapath-id makes a new switch (openflow:187),
# del-br and del-controller take a switch out of the inventory, a
# controller that asks to be master (of_role_ctl.py) is the row's role,
# the controller's end sets is_connected false; an ssl:
# target is refused and counted; the report's bridge_openflow phase
# counts the switches' handshakes.  --no-datapath makes none.  Then
# ovs-testcontroller (a real OpenFlow controller) as the controller.
# Skips (77) only when ovs-vsctl or curl is missing.
. "$(dirname "$0")/../lib.sh"
need ovs-vsctl
need curl
need ss
export OVS_RUNDIR=$TMPD OVS_DBDIR=$TMPD OVS_LOGDIR=$TMPD OVS_SYSCONFDIR=$TMPD

base=$(free_ports 14)
CTL=$base REST=$((base + 1)) DEV=$((base + 2)) TC=$((base + 7))
NODP=$((base + 8)) TCDEV=$((base + 10)) ROLE=$((base + 11))
EXP=$((base + 12)) NEVER=$((base + 13))
NODES="http://127.0.0.1:$REST/rests/data/opendaylight-inventory:nodes"

vs() {
	local port=$1
	shift
	timeout 20 ovs-vsctl --db=tcp:127.0.0.1:$port --timeout=15 "$@"
}

inventory() {
	curl -s -u admin:admin "$NODES?content=nonconfig"
}

# wait_for CMD...: until CMD succeeds (10 s at most).
wait_for() {
	local i=0
	while [ $i -lt 100 ]; do
		"$@" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

has_node() { inventory | grep -q "\"id\":\"openflow:$1\""; }
no_node() { inventory | grep -q '"opendaylight-inventory:nodes"' &&
    ! inventory | grep -q "\"id\":\"openflow:$1\""; }
# Every node of the inventory at 10 flows in table 0.
flows_in() { [ "$(inventory | grep -o '"active-flows":10' | wc -l)" -ge "$1" ]; }

# The options refused as usage errors.
bad_usage ovsdb "--expect-bridges and --no-datapath" --devices 1 \
    --controller ptcp:$DEV --expect-bridges 1 --no-datapath
bad_usage ovsdb "--expect-bridges: '0' is not" --devices 1 \
    --controller ptcp:$DEV --expect-bridges 0
[ "$FAILS" = 0 ] || fail "usage errors"

start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow ptcp:$CTL:127.0.0.1 \
    --restconf 127.0.0.1:$REST --switches 3 --flows-per-switch 10 \
    --read-stats --duration 60
ctl=$LAST_PID
start_bg "$TMPD/sim.log" "$SBSIM" ovsdb --devices 5 \
    --controller ptcp:$DEV:127.0.0.1 --duration 60 --report "$TMPD/sim.json"
sim=$LAST_PID
wait_listen $CTL && wait_listen $REST || fail "the controller does not listen"
wait_listen $DEV && wait_listen $((DEV + 4)) || fail "sbsim does not listen"

for i in 0 1 2; do
	vs $((DEV + i)) add-br br1 -- add-port br1 p1 -- set bridge br1 \
	    other-config:datapath-id=$(printf %016x $((170 + i))) -- \
	    set-controller br1 tcp:127.0.0.1:$CTL ||
	    fail "add-br with a controller on device $i"
done
# Not served: ssl:, and a bridge without a controller.
vs $((DEV + 3)) add-br br1 -- set-controller br1 ssl:127.0.0.1:$CTL ||
    fail "add-br with an ssl: controller"
vs $((DEV + 3)) add-br br2 -- set-controller br2 ptcp:$CTL ||
    fail "add-br with a ptcp: controller"
vs $((DEV + 4)) add-br br1 || fail "add-br without a controller"

for n in 170 171 172; do
	wait_for has_node $n || fail "openflow:$n not in the inventory: $(
	    inventory)"
done
wait_for flows_in 3 || fail "10 flows not seen on each switch: $(inventory)"
[ "$(vs $DEV get bridge br1 datapath_id)" = '"00000000000000aa"' ] ||
    fail "datapath_id: $(vs $DEV get bridge br1 datapath_id)"
[ "$(vs $DEV get controller br1 is_connected)" = true ] ||
    fail "is_connected: $(vs $DEV get controller br1 is_connected)"
vs $DEV get controller br1 status | grep -q 'state=ACTIVE' ||
    fail "status: $(vs $DEV get controller br1 status)"
[ "$(vs $((DEV + 3)) get controller br1 is_connected)" = false ] ||
    fail "an ssl: controller is connected"

# The bridge's ports are the switch's: one added or deleted is told
# (PORT_STATUS).
has_port() { inventory | grep -q "\"id\":\"openflow:170:$1\""; }
wait_for has_port 1 || fail "openflow:170:1 not in the inventory: $(
    inventory)"
vs $DEV add-port br1 p2 || fail "add-port p2"
[ "$(vs $DEV get interface p2 ofport)" = 2 ] || fail "p2's ofport"
wait_for has_port 2 || fail "openflow:170:2 not in the inventory: $(
    inventory)"
no_port() { inventory | grep -q openflow:170:1 && ! has_port "$1"; }
vs $DEV del-port br1 p2 || fail "del-port p2"
wait_for no_port 2 || fail "openflow:170:2 still in the inventory"

# A datapath-id OVS would not take: vswitchd's own (datapath_id).
vs $((DEV + 4)) add-br br2 -- set bridge br2 other-config:datapath-id=xyz \
    -- set-controller br2 tcp:127.0.0.1:$CTL || fail "add-br br2"
dpid=$(vs $((DEV + 4)) get bridge br2 datapath_id | tr -d '"')
wait_for has_node $((16#$dpid)) || fail "br2 (datapath_id $dpid) not in \
the inventory: $(inventory)"

# A new datapath-id: vswitchd's switch reconnects as another datapath.
vs $((DEV + 1)) set bridge br1 other-config:datapath-id=00000000000000bb ||
    fail "set datapath-id"
wait_for has_node 187 || fail "openflow:187 not in the inventory"
[ "$(vs $((DEV + 1)) get bridge br1 datapath_id)" = '"00000000000000bb"' ] ||
    fail "new datapath_id: $(vs $((DEV + 1)) get bridge br1 datapath_id)"
wait_for no_node 171 || fail "openflow:171 still in the inventory"

# The bridge deleted, or its controller: the switch goes.
vs $DEV del-br br1 || fail "del-br"
wait_for no_node 170 || fail "openflow:170 still in the inventory"
vs $((DEV + 2)) del-controller br1 || fail "del-controller"
wait_for no_node 172 || fail "openflow:172 still in the inventory"
has_node 187 || fail "openflow:187 left with the others"

# A controller that becomes the switch's master: the Controller row's
# role says so (and "other" before it).
[ "$(vs $((DEV + 4)) get controller br2 role)" = other ] ||
    fail "role before ROLE_REQUEST: $(vs $((DEV + 4)) get controller br2 role)"
start_bg "$TMPD/role.log" $PY "$(dirname "$0")/of_role_ctl.py" $ROLE
wait_listen $ROLE || fail "of_role_ctl.py does not listen"
vs $((DEV + 4)) set controller br2 target="\"tcp:127.0.0.1:$ROLE\"" ||
    fail "set controller target"
master() { [ "$(vs $((DEV + 4)) get controller br2 role)" = master ]; }
wait_for master || fail "role: $(vs $((DEV + 4)) get controller br2 role) \
($(cat "$TMPD/role.log"))"
grep -q "ROLE_REPLY role 2" "$TMPD/role.log" || fail "no ROLE_REPLY master"

# --no-datapath: the bridge stays a row.
start_bg "$TMPD/nodp.log" "$SBSIM" ovsdb --devices 1 --no-datapath \
    --controller ptcp:$NODP:127.0.0.1 --duration 30 --report "$TMPD/nodp.json"
nodp=$LAST_PID
wait_listen $NODP || fail "sbsim --no-datapath does not listen"
vs $NODP add-br br9 -- set bridge br9 other-config:datapath-id=00000000000000cc \
    -- set-controller br9 tcp:127.0.0.1:$CTL || fail "add-br, --no-datapath"
sleep 0.5
no_node 204 || fail "--no-datapath made a switch"
[ "$(vs $NODP get controller br9 is_connected)" = false ] ||
    fail "--no-datapath: is_connected"
stop_pid $nodp
json_get "$TMPD/nodp.json" "[p['name'] for p in r['phases']]" |
    grep -q bridge_openflow && fail "--no-datapath has bridge_openflow"

# --expect-bridges: the run waits for that many switches, then ends by
# itself; with none asked for, bridge_openflow times out --timeout after
# connect and the run fails.
start_bg "$TMPD/exp.log" "$SBSIM" ovsdb --devices 1 --expect-bridges 1 \
    --controller ptcp:$EXP:127.0.0.1 --timeout 10 --report "$TMPD/exp.json"
exp=$LAST_PID
start_bg "$TMPD/never.log" "$SBSIM" ovsdb --devices 1 --expect-bridges 1 \
    --controller ptcp:$NEVER:127.0.0.1 --timeout 3 --report "$TMPD/never.json"
never=$LAST_PID
wait_listen $EXP && wait_listen $NEVER || fail "--expect-bridges: not listening"
vs $NEVER show >/dev/null || fail "ovs-vsctl show, --expect-bridges"
vs $EXP add-br br1 -- set-controller br1 tcp:127.0.0.1:$CTL ||
    fail "add-br, --expect-bridges"
wait_exit $exp 20 && [ "$EXIT_RC" = 0 ] ||
    fail "--expect-bridges 1: exit $EXIT_RC"
ph="[p for p in r['phases'] if p['name'] == 'bridge_openflow'][0]"
[ "$(json_get "$TMPD/exp.json" "($ph['items'], $ph['target'], \
    $ph['state'])")" = "(1, 1, 'DONE')" ] ||
    fail "--expect-bridges 1: $(json_get "$TMPD/exp.json" "$ph")"
wait_exit $never 20 && [ "$EXIT_RC" = 1 ] ||
    fail "--expect-bridges 1, none asked for: exit $EXIT_RC"
[ "$(json_get "$TMPD/never.json" "($ph['items'], $ph['state'])")" = \
    "(0, 'TIMEOUT')" ] ||
    fail "none asked for: $(json_get "$TMPD/never.json" "$ph")"

# The controller gone: the Controller rows say so (vswitchd's rconn).
stop_pid $ctl
lost() { [ "$(vs $((DEV + 1)) get controller br1 is_connected)" = false ]; }
wait_for lost || fail "is_connected stays true without the controller"
vs $((DEV + 1)) get controller br1 status | grep -q 'state=BACKOFF' ||
    fail "status: $(vs $((DEV + 1)) get controller br1 status)"

stop_pid $sim
[ -s "$TMPD/sim.json" ] || fail "no report"
r() { json_get "$TMPD/sim.json" "$1"; }
ph="[p for p in r['phases'] if p['name'] == 'bridge_openflow'][0]"
[ "$(r "$ph['items']")" = 6 ] && [ "$(r "$ph['target']")" = 6 ] &&
    [ "$(r "$ph['state']")" = DONE ] && [ "$(r "$ph['witness']")" = device ] ||
    fail "bridge_openflow: $(r "$ph")"
[ "$(r "$ph['latency_us']['samples']")" = 6 ] || fail "latency samples"
c="r['counters']"
for kv in datapaths_opened=6 datapaths_closed=6 datapath_targets_refused=2 \
    datapath_handshakes=6 datapath_bad_dpids=2 \
    datapath_connections_lost=1 datapath_role_changes=1; do
	[ "$(r "$c['${kv%=*}']")" = "${kv#*=}" ] ||
	    fail "${kv%=*}: $(r "$c['${kv%=*}']"), not ${kv#*=}"
done
# 10 flows on each of the first three (the controller's rounds may
# program switches that come later too).
[ "$(r "$c['datapath_flows_added']")" -ge 30 ] &&
    [ "$(r "$c['datapath_barriers']")" -ge 1 ] &&
    [ "$(r "$c['datapath_stats_requests']")" -ge 3 ] ||
    fail "no barrier or stats request reached the switches"
grep -q "bridge br1 gets no OpenFlow switch: controller ssl:" \
    "$TMPD/sim.log" || fail "the ssl: refusal is not logged"
[ "$(grep -c "gets no OpenFlow switch" "$TMPD/sim.log")" = 1 ] ||
    fail "refusals are logged more than once per device"

# ovs-testcontroller: a real controller takes the switch (it listens).
command -v ovs-testcontroller >/dev/null 2>&1 || {
	echo "# ovs-testcontroller: not installed, part skipped"
	exit 0
}
start_bg "$TMPD/tc.log" ovs-testcontroller ptcp:$TC:127.0.0.1 -v \
    --no-chdir
start_bg "$TMPD/tcsim.log" "$SBSIM" ovsdb --devices 1 \
    --controller ptcp:$TCDEV:127.0.0.1 --duration 30 \
    --report "$TMPD/tcsim.json"
tcsim=$LAST_PID
wait_listen $TC && wait_listen $TCDEV || fail "not listening"
vs $TCDEV add-br br1 -- set bridge br1 \
    other-config:datapath-id=00000000000000dd -- \
    set-controller br1 tcp:127.0.0.1:$TC || fail "add-br, ovs-testcontroller"
connected() { [ "$(vs $TCDEV get controller br1 is_connected)" = true ]; }
wait_for connected || fail "ovs-testcontroller: not connected"
wait_for grep -q 'OFPT_FEATURES_REPLY.*dpid:00000000000000dd' "$TMPD/tc.log" ||
    fail "ovs-testcontroller saw no FEATURES_REPLY of dpid dd"
# Bridge protocols: OpenFlow10 only makes the switch again, speaking
# 1.0; OpenFlow14 only is no version it speaks: refused.
vs $TCDEV set bridge br1 protocols=OpenFlow10 || fail "protocols"
wait_for grep -q 'OFPT_FEATURES_REPLY (xid=0x[0-9a-f]*): dpid:00000000000000dd' \
    "$TMPD/tc.log" || fail "no OpenFlow 1.0 FEATURES_REPLY after protocols"
vs $TCDEV add-br br2 -- set bridge br2 protocols=OpenFlow14 -- \
    set-controller br2 tcp:127.0.0.1:$TC || fail "add-br br2, OpenFlow14"
stop_pid $tcsim
[ "$(json_get "$TMPD/tcsim.json" "[p['items'] for p in r['phases'] \
    if p['name'] == 'bridge_openflow'][0]")" = 2 ] ||
    fail "bridge_openflow with ovs-testcontroller"
[ "$(json_get "$TMPD/tcsim.json" \
    "r['counters']['datapath_targets_refused']")" = 1 ] ||
    fail "OpenFlow14 only is not refused"
grep -q "bridge br2 gets no OpenFlow switch: none of the bridge's OpenFlow" \
    "$TMPD/tcsim.log" || fail "OpenFlow14 only: not logged"
exit 0
