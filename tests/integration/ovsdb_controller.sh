#!/bin/bash
# sbsim controller --ovsdb, OpenDaylight's ovsdb southbound: 20 active
# sbsim ovsdb devices (2 bridges of 2 ports each) connect in and topology
# ovsdb:1 shows 20 nodes, 40 bridges and 120 termination points (the
# bridges' local ports too); a passive device is connected to through a
# configured node (PUT, CSIT's "Connect To Ovsdb Node"), another through
# POST to the topology; a bridge PUT in CSIT's create_bridge.json shape
# lands in the device's database (ovs-vsctl list-br, when OVS is there)
# and in the operational topology, a port (create_port.json) too, and
# both are deleted again; status codes as ODL's; fake nodes that send
# malformed JSON, a non-object or nothing are closed and counted while
# the controller goes on, a message past --ovsdb-max-message too; a
# node's second session replaces its first.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
HERE=$(cd "$(dirname "$0")" && pwd)
H="$PY $HERE/ovsdb_ctl.py"
set -- $(free_ports 5)
base=$1
of=$base rc=$((base + 1)) pas=$((base + 2))	# pas, pas+1: passive devices
R=http://127.0.0.1:$rc
TOPO=$R/rests/data/network-topology:network-topology/topology=ovsdb%3A1
DRAFT=$R/restconf/config/network-topology:network-topology/topology/ovsdb:1

start_bg "$TMPD/ctl.log" "$SBSIM" controller --ovsdb ptcp:$of:127.0.0.1 \
    --restconf 127.0.0.1:$rc --ovsdb-probe 1 --ovsdb-monitor-timeout 2 \
    --ovsdb-max-message 65536 --duration 120
ctl=$LAST_PID
wait_listen $of && wait_listen $rc || fail "the controller did not listen"
start_bg "$TMPD/active.log" "$SBSIM" ovsdb --devices 20 \
    --bridges-per-node 2 --ports-per-bridge 2 \
    --controller tcp:127.0.0.1:$of --duration 120
start_bg "$TMPD/passive.log" "$SBSIM" ovsdb --devices 2 \
    --bridges-per-node 1 --ports-per-bridge 0 \
    --controller ptcp:$pas:127.0.0.1 --duration 120
wait_listen $pas || fail "the passive devices did not listen"

$H topo "$TOPO?content=nonconfig" 20 40 120 20 || fail "active nodes"
[ "$($H get "$TOPO" 'sum(x.get("ovsdb:ovs-version") == "3.1.0" and
    x["node-id"].startswith("ovsdb://uuid/") for x in n["node"])')" = 20 ] ||
    fail "node-id or ovs-version: $($H get "$TOPO" r)"

# Passive nodes: one PUT, one POSTed to the topology (CSIT's two ways).
st=$($H req PUT "$TOPO/node=ovsdb%3A%2F%2FHOST1" '{"network-topology:node":
    [{"node-id": "ovsdb://HOST1", "connection-info": {"ovsdb:remote-ip":
    "127.0.0.1", "ovsdb:remote-port": '$pas'}}]}')
[ "$st" = 201 ] || fail "PUT of a passive node: $st"
st=$($H req POST "$DRAFT/" '{"node": [{"node-id": "ovsdb:HOST2",
    "connection-info": {"ovsdb:remote-ip": "127.0.0.1",
    "ovsdb:remote-port": "'$((pas + 1))'"}}]}')
[ "$st" = 201 ] || fail "POST of a passive node: $st"
st=$($H req POST "$DRAFT/" '{"node": [{"node-id": "ovsdb:HOST2",
    "connection-info": {"ovsdb:remote-ip": "127.0.0.1",
    "ovsdb:remote-port": 1}}]}')
[ "$st" = 409 ] || fail "POST of an existing node: $st, want 409"
st=$($H req PUT "$TOPO/node=ovsdb%3A%2F%2FHOST9" '{"network-topology:node":
    [{"node-id": "ovsdb://HOST9", "connection-info": {"ovsdb:remote-ip":
    "localhost", "ovsdb:remote-port": 6640}}]}')
[ "$st" = 400 ] || fail "a host name as remote-ip: $st, want 400"
$H topo "$TOPO?content=nonconfig" 22 42 122 20 || fail "passive nodes"
[ "$($H get "$TOPO?content=config" 'len(r["network-topology:topology"][0]["node"])')" = 2 ] ||
    fail "config datastore: not the 2 configured nodes"

# A bridge as CSIT's "Add Bridge To Ovsdb Node" sends it.
BR=$TOPO/node=ovsdb%3A%2F%2FHOST1%2Fbridge%2Fbr01
body='{"network-topology:node": [{"node-id": "ovsdb://HOST1/bridge/br01",
    "ovsdb:bridge-name": "br01",
    "ovsdb:protocol-entry": [{"protocol":
        "ovsdb:ovsdb-bridge-protocol-openflow-13"}],
    "ovsdb:controller-entry": [{"target": "tcp:127.0.0.1:6633"}],
    "ovsdb:bridge-other-configs": [{"bridge-other-config-key":
        "datapath-id", "bridge-other-config-value": "0000000000000001"}],
    "ovsdb:fail-mode": "ovsdb:ovsdb-fail-mode-secure",
    "ovsdb:managed-by": "/network-topology:network-topology/topology[topology-id='"'"'ovsdb:1'"'"']/node[node-id='"'"'ovsdb://HOST1'"'"']"}]}'
st=$($H req PUT "$BR" "$body") && [ "$st" = 201 ] || fail "PUT bridge: $st"
if command -v ovs-vsctl >/dev/null; then
	ovs-vsctl --db=tcp:127.0.0.1:$pas --timeout=5 list-br | grep -qx br01 ||
	    fail "br01 not in the device's database"
	[ "$(ovs-vsctl --db=tcp:127.0.0.1:$pas --timeout=5 get-fail-mode br01)" = secure ] ||
	    fail "br01's fail mode"
fi
$H topo "$TOPO?content=nonconfig" 22 43 123 10 || fail "br01 not shown"
# The config datastore has it too (CSIT's "Get Config Topology with
# Bridge"), as written.
[ "$($H get "$BR?content=config" '(n["ovsdb:bridge-name"], n["ovsdb:controller-entry"], n["ovsdb:fail-mode"])')" = \
    "('br01', [{'target': 'tcp:127.0.0.1:6633'}], 'ovsdb:ovsdb-fail-mode-secure')" ] ||
    fail "config br01: $($H get "$BR?content=config" r)"
[ "$($H get "$BR" '(n["ovsdb:protocol-entry"][0]["protocol"], n["ovsdb:controller-entry"][0]["target"], n["ovsdb:fail-mode"])')" = \
    "('ovsdb:ovsdb-bridge-protocol-openflow-13', 'tcp:127.0.0.1:6633', 'ovsdb:ovsdb-fail-mode-secure')" ] ||
    fail "br01's leaves: $($H get "$BR" r)"
st=$($H req PUT "$BR" "$body") && [ "$st" = 204 ] || fail "PUT again: $st"
st=$($H req POST "$DRAFT/" "$body") && [ "$st" = 409 ] ||
    fail "POST of an existing bridge: $st, want 409"
st=$($H req PUT "$TOPO/node=ovsdb%3A%2F%2FNOSUCH%2Fbridge%2Fbr9" \
    "$(echo "$body" | sed 's/HOST1/NOSUCH/g; s/br01/br9/g')")
[ "$st" = 409 ] || fail "a bridge of an unknown node: $st, want 409"
st=$($H req PUT "$BR" '{"network-topology:node": [{"node-id":
    "ovsdb://HOST1/bridge/br01", "ovsdb:fail-mode": "loud"}]}')
[ "$st" = 400 ] || fail "a bad fail-mode: $st, want 400"

# A port (create_port.json) on the draft URL, trailing slash as CSIT's.
TP="$DRAFT/node/ovsdb:%2F%2FHOST1%2Fbridge%2Fbr01/termination-point/vxlanport/"
st=$($H req PUT "$TP" '{"network-topology:termination-point": [{
    "ovsdb:options": [{"ovsdb:option": "remote_ip",
    "ovsdb:value": "192.168.0.21"}],
    "ovsdb:interface-type": "ovsdb:interface-type-vxlan",
    "ovsdb:name": "vxlanport", "tp-id": "vxlanport"}]}')
[ "$st" = 201 ] || fail "PUT port: $st"
if command -v ovs-vsctl >/dev/null; then
	ovs-vsctl --db=tcp:127.0.0.1:$pas --timeout=5 list-ports br01 |
	    grep -qx vxlanport || fail "vxlanport not in the database"
fi
$H topo "$TOPO?content=nonconfig" 22 43 124 10 || fail "vxlanport not shown"
[ "$($H get "$TOPO/node=ovsdb%3A%2F%2FHOST1%2Fbridge%2Fbr01/termination-point=vxlanport?content=config" 'n["ovsdb:interface-type"]')" = \
    ovsdb:interface-type-vxlan ] || fail "config vxlanport"
OPTP=$R/restconf/operational/network-topology:network-topology/topology/ovsdb:1/node/ovsdb:%2F%2FHOST1/bridge/br01/termination-point/vxlanport
[ "$($H get "$OPTP" '(n["ovsdb:interface-type"], n["ovsdb:options"])')" = \
    "('ovsdb:interface-type-vxlan', [{'option': 'remote_ip', 'value': '192.168.0.21'}])" ] ||
    fail "vxlanport's leaves: $($H get "$OPTP" r)"
st=$($H req DELETE "$TP") && [ "$st" = 204 ] || fail "DELETE port: $st"
st=$($H req DELETE "$TP") && [ "$st" = 404 ] || fail "DELETE port again: $st"

# XML, both ways: a GET, and a bridge PUT in XML.
st=$($H req GET "$BR" - application/xml 2>"$TMPD/xml.out")
[ "$st" = 200 ] && grep -q '<bridge-name xmlns="urn:opendaylight:params:xml:ns:yang:ovsdb">br01</bridge-name>' "$TMPD/xml.out" ||
    fail "XML GET: $st $(cat "$TMPD/xml.out")"

NS=urn:opendaylight:params:xml:ns:yang:ovsdb
BX=$TOPO/node=ovsdb%3A%2F%2FHOST1%2Fbridge%2Fbx
st=$($H req PUT "$BX" '<node xmlns="urn:TBD:params:xml:ns:yang:network-topology">
    <node-id>ovsdb://HOST1/bridge/bx</node-id>
    <bridge-name xmlns="'$NS'">bx</bridge-name>
    <controller-entry xmlns="'$NS'"><target>tcp:127.0.0.1:6653</target>
    </controller-entry></node>')
[ "$st" = 201 ] || fail "XML PUT: $st"
[ "$($H get "$BX" 'n["ovsdb:controller-entry"][0]["target"]')" = \
    tcp:127.0.0.1:6653 ] || fail "bx: $($H get "$BX" r)"
st=$($H req DELETE "$BX") && [ "$st" = 204 ] || fail "DELETE bx: $st"

st=$($H req DELETE "$BR") && [ "$st" = 204 ] || fail "DELETE bridge: $st"
if command -v ovs-vsctl >/dev/null; then
	! ovs-vsctl --db=tcp:127.0.0.1:$pas --timeout=5 list-br | grep -qx br01 ||
	    fail "br01 still in the database"
fi
st=$($H req DELETE "$BR") && [ "$st" = 404 ] || fail "DELETE again: $st"
$H topo "$TOPO?content=nonconfig" 22 42 122 10 || fail "br01 not gone"
[ "$($H get "$TOPO?content=config" 'len(n["node"])')" = 2 ] ||
    fail "config still has bridges: $($H get "$TOPO?content=config" r)"

# Deleting a configured node closes its session.
st=$($H req DELETE "$DRAFT/node/ovsdb:HOST2") && [ "$st" = 204 ] ||
    fail "DELETE node: $st"
$H topo "$TOPO?content=nonconfig" 21 41 121 10 || fail "HOST2 not gone"

# Nodes that misbehave are closed; the others stay.
for kind in malformed array notjson long silent; do
	$H badnode $of $kind || fail "bad node ($kind)"
done
kill -0 $ctl 2>/dev/null || fail "the controller died"
$H topo "$TOPO?content=nonconfig" 21 41 121 5 || fail "nodes lost"
# A node that comes back before its old session is found dead.
$H twins $of 5 || fail "twin sessions"
stop_pid $ctl
[ "$STOP_RC" = 0 ] || fail "controller exit status $STOP_RC"
grep -E '^ovsdb: ' "$TMPD/ctl.log"
line=$(grep -E '^ovsdb: ' "$TMPD/ctl.log")
echo "$line" | grep -qE ', 3 bad messages, 1 oversized,' || fail "bad messages: $line"
echo "$line" | grep -qE ' 1 replaced,' || fail "replaced: $line"
echo "$line" | grep -qE ' [1-9][0-9]* timeouts' || fail "timeouts: $line"
echo "$line" | grep -qE '^ovsdb: 29 sessions \(27 in, 2 out\)' ||
    fail "sessions: $line"
echo "$line" | grep -qE ' [1-9][0-9]* probes sent' || fail "probes: $line"
echo "$line" | grep -qE ' 7 transacts sent, 0 failed' || fail "transacts: $line"
exit 0
