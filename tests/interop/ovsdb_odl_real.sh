#!/bin/bash
# sbsim controller --ovsdb managing a real ovsdb-server (Debian's
# openvswitch, its own database made by ovsdb-tool, on a loopback port):
# connected to through a configured node (CSIT's "Connect To Ovsdb Node")
# and connecting in after `ovs-vsctl set-manager` (node-id
# ovsdb://uuid/<Open_vSwitch uuid>); a bridge PUT over RESTCONF in CSIT's
# create_bridge.json shape is what `ovs-vsctl list-br` then shows, with
# its controller, protocols and datapath-id; a port in create_port.json's
# shape too; both deleted again.  With root and dumpcap the sessions
# are captured and every frame must decode as JSON, none malformed.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ovsdb-server
need ovsdb-tool
need ovs-vsctl
need ss
SCHEMA=/usr/share/openvswitch/vswitch.ovsschema
[ -r "$SCHEMA" ] || skip "no $SCHEMA"
export OVS_RUNDIR=$TMPD OVS_DBDIR=$TMPD OVS_LOGDIR=$TMPD OVS_SYSCONFDIR=$TMPD
H="$PY $(cd "$(dirname "$0")/../integration" && pwd)/ovsdb_ctl.py"
base=$(free_ports 3)
REAL=$base CTL=$((base + 1)) RC=$((base + 2))
R=http://127.0.0.1:$RC
csit_capture "tcp port $REAL or tcp port $CTL"
TOPO=$R/rests/data/network-topology:network-topology/topology=ovsdb%3A1

vs() {
	timeout 20 ovs-vsctl --db=tcp:127.0.0.1:$REAL --no-wait --timeout=15 \
	    "$@"
}

ovsdb-tool create "$TMPD/conf.db" "$SCHEMA" || fail "ovsdb-tool create"
# The second remote: the Manager rows, as ovs-ctl starts it.
start_bg "$TMPD/real.log" ovsdb-server "$TMPD/conf.db" \
    --remote=ptcp:$REAL:127.0.0.1 \
    --remote=db:Open_vSwitch,Open_vSwitch,manager_options \
    --unixctl="$TMPD/real.ctl" --pidfile="$TMPD/real.pid" --no-chdir
wait_listen $REAL || fail "ovsdb-server does not listen"
vs init || fail "ovs-vsctl init"
start_bg "$TMPD/ctl.log" "$SBSIM" controller --ovsdb ptcp:$CTL:127.0.0.1 \
    --restconf 127.0.0.1:$RC --duration 120
ctl=$LAST_PID
wait_listen $CTL && wait_listen $RC || fail "the controller did not listen"

st=$($H req PUT "$TOPO/node=ovsdb%3A%2F%2FHOST1" '{"network-topology:node":
    [{"node-id": "ovsdb://HOST1", "connection-info": {"ovsdb:remote-ip":
    "127.0.0.1", "ovsdb:remote-port": '$REAL'}}]}')
[ "$st" = 201 ] || fail "PUT of the node: $st"
$H topo "$TOPO?content=nonconfig" 1 0 0 20 || fail "ovsdb://HOST1"
[ "$($H get "$TOPO/node=ovsdb%3A%2F%2FHOST1" 'n["ovsdb:db-version"]')" = \
    "$(ovsdb-tool schema-version "$SCHEMA")" ] || fail "db-version"

# The server connects in once it has a manager.
vs set-manager tcp:127.0.0.1:$CTL || fail "set-manager"
$H topo "$TOPO?content=nonconfig" 2 0 0 20 || fail "the server did not connect in"
uuid=$(vs get Open_vSwitch . _uuid)
[ "$($H get "$TOPO/node=ovsdb%3A%2F%2Fuuid%2F$uuid" 'n["node-id"]')" = \
    "ovsdb://uuid/$uuid" ] || fail "no node ovsdb://uuid/$uuid"

BR=$TOPO/node=ovsdb%3A%2F%2FHOST1%2Fbridge%2Fbr-sb
st=$($H req PUT "$BR" '{"network-topology:node": [{
    "node-id": "ovsdb://HOST1/bridge/br-sb", "ovsdb:bridge-name": "br-sb",
    "ovsdb:protocol-entry": [{"protocol":
        "ovsdb:ovsdb-bridge-protocol-openflow-13"}],
    "ovsdb:controller-entry": [{"target": "tcp:127.0.0.1:6633"}],
    "ovsdb:bridge-other-configs": [{"bridge-other-config-key":
        "datapath-id", "bridge-other-config-value": "0000000000000001"}],
    "ovsdb:managed-by": "/network-topology:network-topology/topology[topology-id='"'"'ovsdb:1'"'"']/node[node-id='"'"'ovsdb://HOST1'"'"']"}]}')
[ "$st" = 201 ] || fail "PUT bridge: $st"
[ "$(vs list-br)" = br-sb ] || fail "list-br: $(vs list-br)"
[ "$(vs get-controller br-sb)" = tcp:127.0.0.1:6633 ] ||
    fail "get-controller: $(vs get-controller br-sb)"
[ "$(vs get Bridge br-sb protocols)" = '[OpenFlow13]' ] ||
    fail "protocols: $(vs get Bridge br-sb protocols)"
[ "$(vs get Bridge br-sb other_config:datapath-id)" = '"0000000000000001"' ] ||
    fail "datapath-id: $(vs get Bridge br-sb other_config)"
[ "$(vs list-ports br-sb)" = "" ] && [ "$(vs list-ifaces br-sb)" = "" ] ||
    fail "ports of a new bridge: $(vs list-ports br-sb)"
# Seen through both sessions, with the bridge's local port.
$H topo "$TOPO?content=nonconfig" 2 2 2 10 || fail "br-sb not shown"

TP=$BR/termination-point=vxlanport
st=$($H req PUT "$TP" '{"network-topology:termination-point": [{
    "ovsdb:options": [{"ovsdb:option": "remote_ip",
    "ovsdb:value": "192.168.0.21"}],
    "ovsdb:interface-type": "ovsdb:interface-type-vxlan",
    "ovsdb:name": "vxlanport", "tp-id": "vxlanport"}]}')
[ "$st" = 201 ] || fail "PUT port: $st"
[ "$(vs list-ports br-sb)" = vxlanport ] || fail "list-ports: $(vs list-ports br-sb)"
[ "$(vs get Interface vxlanport type options:remote_ip | tr '\n' ' ')" = \
    'vxlan "192.168.0.21" ' ] || fail "vxlanport: $(vs list Interface vxlanport)"
$H topo "$TOPO?content=nonconfig" 2 2 4 10 || fail "vxlanport not shown"
st=$($H req DELETE "$TP") && [ "$st" = 204 ] || fail "DELETE port: $st"
[ "$(vs list-ports br-sb)" = "" ] || fail "vxlanport still there"
st=$($H req DELETE "$BR") && [ "$st" = 204 ] || fail "DELETE bridge: $st"
[ "$(vs list-br)" = "" ] || fail "br-sb still there: $(vs list-br)"
$H topo "$TOPO?content=nonconfig" 2 0 0 10 || fail "br-sb not gone"

stop_pid $ctl
[ "$STOP_RC" = 0 ] || fail "controller exit status $STOP_RC"
# Both sessions' JSON-RPC, decoded by Wireshark's JSON dissector.
csit_decoded json -d tcp.port==$REAL,json -d tcp.port==$CTL,json
line=$(grep -E '^ovsdb: ' "$TMPD/ctl.log")
echo "$line"
echo "$line" | grep -qE '\(1 in, 1 out\)' || fail "sessions: $line"
echo "$line" | grep -qE ' 4 transacts sent, 0 failed' || fail "transacts: $line"
echo "$line" | grep -qE ', 0 bad messages,' || fail "bad messages: $line"
exit 0
