#!/bin/bash
# A bridge with several Controller rows: its OpenFlow switch connects to
# every tcp: target, as ovs-vswitchd does, each connection with its own
# role, and each row says its own is_connected, role and status.  The
# embedded controller (--role slave) and of_role_ctl.py (asks to be
# master) both take the switch; an ssl: row beside them is left alone
# and counted (datapath_targets_unused); the master gone, its row says
# BACKOFF while the other stays connected.  Skips (77) only when
# ovs-vsctl or curl is missing.
. "$(dirname "$0")/../lib.sh"
need ovs-vsctl
need curl
need ss
export OVS_RUNDIR=$TMPD OVS_DBDIR=$TMPD OVS_LOGDIR=$TMPD OVS_SYSCONFDIR=$TMPD

base=$(free_ports 4)
CTL=$base REST=$((base + 1)) DEV=$((base + 2)) ROLE=$((base + 3))
NODES="http://127.0.0.1:$REST/rests/data/opendaylight-inventory:nodes"

vs() { timeout 20 ovs-vsctl --db=tcp:127.0.0.1:$DEV --timeout=15 "$@"; }

# col TARGET COLUMN: the column of the Controller row with that target.
col() { vs --bare --columns="$2" find Controller target="\"$1\""; }

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

start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow ptcp:$CTL:127.0.0.1 \
    --restconf 127.0.0.1:$REST --role slave --duration 60
ctl=$LAST_PID
start_bg "$TMPD/role.log" $PY "$(dirname "$0")/of_role_ctl.py" $ROLE
role=$LAST_PID
start_bg "$TMPD/sim.log" "$SBSIM" ovsdb --devices 1 \
    --controller ptcp:$DEV:127.0.0.1 --duration 60 --report "$TMPD/sim.json"
sim=$LAST_PID
wait_listen $CTL && wait_listen $REST && wait_listen $ROLE ||
    fail "the controllers do not listen"
wait_listen $DEV || fail "sbsim does not listen"

T1=tcp:127.0.0.1:$CTL T2=tcp:127.0.0.1:$ROLE T3=ssl:127.0.0.1:$CTL
vs add-br br1 -- set bridge br1 other-config:datapath-id=00000000000000aa \
    -- set-controller br1 $T1 $T2 $T3 || fail "add-br with three controllers"

both() { [ "$(col $T1 is_connected)" = true ] &&
    [ "$(col $T2 is_connected)" = true ]; }
wait_for both || fail "not both connected: $(vs list controller)"
curl -s -u admin:admin "$NODES?content=nonconfig" |
    grep -q '"id":"openflow:170"' || fail "openflow:170 not in the inventory"
roles() { [ "$(col $T1 role)" = slave ] && [ "$(col $T2 role)" = master ]; }
wait_for roles || fail "roles: $T1 $(col $T1 role), $T2 $(col $T2 role)"
for t in $T1 $T2; do
	col $t status | grep -q 'state=ACTIVE' ||
	    fail "status of $t: $(col $t status)"
done
[ "$(col $T3 is_connected)" = false ] || fail "the ssl: row is connected"
grep -q "ROLE_REPLY role 2" "$TMPD/role.log" || fail "no ROLE_REPLY master"

# The master gone: its row alone says so.
kill $role	# SIGTERM: as a script's background job it ignores SIGINT
wait $role 2>/dev/null
lost() { [ "$(col $T2 is_connected)" = false ]; }
wait_for lost || fail "is_connected of $T2 stays true"
col $T2 status | grep -q 'state=BACKOFF' || fail "status: $(col $T2 status)"
[ "$(col $T1 is_connected)" = true ] || fail "$T1 lost with $T2"

stop_pid $sim
stop_pid $ctl
[ -s "$TMPD/sim.json" ] || fail "no report"
r() { json_get "$TMPD/sim.json" "$1"; }
c="r['counters']"
for kv in datapaths_opened=1 datapath_handshakes=2 datapath_targets_unused=1 \
    datapath_targets_refused=0 datapath_connections_lost=1; do
	[ "$(r "$c['${kv%=*}']")" = "${kv#*=}" ] ||
	    fail "${kv%=*}: $(r "$c['${kv%=*}']"), not ${kv#*=}"
done
ph="[p for p in r['phases'] if p['name'] == 'bridge_openflow'][0]"
[ "$(r "($ph['items'], $ph['target'])")" = "(1, 1)" ] ||
    fail "bridge_openflow: $(r "$ph")"
exit 0
