#!/bin/bash
# The requests and checks of OpenDaylight CSIT's bgpuser/basic.robot against
# the embedded controller, with bgp_csit_speaker.py in the role of CSIT's
# play.py: the example-ipv4-topology compared (normalized) with the empty
# and the filled one; a neighbor with local-address (TC_LA); the peer
# connecting to the controller; a session reset (TC_R); a neighbor taking
# its families from a peer group, and the group without IPv4 unicast
# emptying the topology (TC_PG); the controller connecting to a listening
# peer; the two withdraw cases.  Then RFC 8040 errors for bad requests.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
need curl
SPEAKER="$(dirname "$0")/bgp_csit_speaker.py"
NET=$((RANDOM % 200 + 20))
ODL_IP=127.$NET.0.1
TOOLS_IP=127.$NET.0.2
ports=$(free_ports 3)
ODL_BGP_PORT=$ports
TOOL_PORT=$((ports + 1))
RC_PORT=$((ports + 2))
RC=http://127.0.0.1:$RC_PORT
BGP=openconfig-network-instance:network-instances/network-instance=global-bgp/protocols/protocol=openconfig-policy-types%3ABGP,example-bgp-rib/bgp-openconfig-extensions:bgp
NBR=$RC/rests/data/$BGP/neighbors/neighbor=$TOOLS_IP
PG=$RC/rests/data/$BGP/peer-groups/peer-group=internal-neighbors
# The draft URL style of the same neighbor (CSIT's older location.uri).
NBR_DRAFT=$RC/restconf/config/openconfig-network-instance:network-instances/network-instance/global-bgp/openconfig-network-instance:protocols/protocol/openconfig-policy-types:BGP/example-bgp-rib/bgp/neighbors/neighbor/$TOOLS_IP
TOPO="$RC/rests/data/network-topology:network-topology/topology=example-ipv4-topology?content=nonconfig"
RESET=$RC/restconf/operations/bgp-peer-rpc:reset-session

# req METHOD URL [BODY-FILE [TYPE]]: the status code; the body in $TMPD/out.
req() {
	local type=${4:-application/xml}
	if [ -n "${3:-}" ]; then
		curl -s -o "$TMPD/out" -w '%{http_code}' -u admin:admin -X "$1" \
		    -H "Content-Type: $type" --data-binary "@$3" "$2"
	else
		curl -s -o "$TMPD/out" -w '%{http_code}' -u admin:admin -X "$1" \
		    "$2"
	fi
}

# expect CODE METHOD URL [BODY [TYPE]]: the status, else fail.
expect() {
	local want=$1 got
	shift
	got=$(req "$@")
	[ "$got" = "$want" ] || fail "$1 $2: $got, want $want: $(cat "$TMPD/out")"
}

# expect_tag CODE TAG METHOD URL [BODY [TYPE]]: an RFC 8040 error.
expect_tag() {
	local tag=$2
	expect "$1" "${@:3}"
	grep -q "\"error-tag\":\"$tag\"\|<error-tag>$tag</error-tag>" \
	    "$TMPD/out" || fail "$3 $4: not $tag: $(cat "$TMPD/out")"
}

# neighbor FILE PASSIVE [LOCAL]: CSIT's bgp_peer (ibgp_local_address with
# LOCAL) body for the tools address.
neighbor() {
	local local=""
	[ -n "${3:-}" ] && local="<local-address>$3</local-address>"
	cat >"$1" <<EOF
<neighbor xmlns="urn:opendaylight:params:xml:ns:yang:bgp:openconfig-extensions">
 <neighbor-address>$TOOLS_IP</neighbor-address>
 <route-reflector><config><route-reflector-client>false</route-reflector-client></config></route-reflector>
 <timers><config><hold-time>180</hold-time><connect-retry>5</connect-retry></config></timers>
 <transport><config><remote-port>$TOOL_PORT</remote-port><passive-mode>$2</passive-mode></config></transport>
 <config><peer-type>INTERNAL</peer-type>$local</config>
 <afi-safis>
  <afi-safi><afi-safi-name xmlns:x="http://openconfig.net/yang/bgp-types">x:IPV4-UNICAST</afi-safi-name></afi-safi>
  <afi-safi><afi-safi-name xmlns:x="http://openconfig.net/yang/bgp-types">x:IPV6-UNICAST</afi-safi-name></afi-safi>
  <afi-safi><afi-safi-name>LINKSTATE</afi-safi-name></afi-safi>
 </afi-safis>
</neighbor>
EOF
}

# peer_group FILE FAMILY...: CSIT's peer_group (or peer_group_without_ipv4).
peer_group() {
	local f=$1 af
	shift
	{
		echo '<peer-group xmlns="urn:opendaylight:params:xml:ns:yang:bgp:openconfig-extensions">'
		echo ' <peer-group-name>internal-neighbors</peer-group-name>'
		echo ' <config><peer-type>INTERNAL</peer-type></config>'
		echo " <transport><config><remote-port>$TOOL_PORT</remote-port><passive-mode>true</passive-mode></config></transport>"
		echo ' <timers><config><hold-time>180</hold-time><connect-retry>5</connect-retry></config></timers>'
		echo ' <route-reflector><config><route-reflector-client>false</route-reflector-client></config></route-reflector>'
		echo ' <afi-safis>'
		for af in "$@"; do
			echo "  <afi-safi><afi-safi-name xmlns:x=\"http://openconfig.net/yang/bgp-types\">x:$af</afi-safi-name></afi-safi>"
		done
		echo ' </afi-safis>'
		echo '</peer-group>'
	} >"$f"
}

neighbor "$TMPD/passive.xml" true
neighbor "$TMPD/active.xml" false
neighbor "$TMPD/local.xml" false "$ODL_IP"
peer_group "$TMPD/pg.xml" IPV4-UNICAST IPV6-UNICAST LINKSTATE
peer_group "$TMPD/pg_no4.xml" IPV6-UNICAST LINKSTATE
cat >"$TMPD/member.xml" <<EOF
<neighbor xmlns="urn:opendaylight:params:xml:ns:yang:bgp:openconfig-extensions">
 <neighbor-address>$TOOLS_IP</neighbor-address>
 <config><peer-group>internal-neighbors</peer-group></config>
</neighbor>
EOF
cat >"$TMPD/reset.xml" <<EOF
<input xmlns="urn:opendaylight:params:xml:ns:yang:bgp-peer-rpc">
 <peer-ref xmlns:rib="urn:opendaylight:params:xml:ns:yang:bgp-rib">/rib:bgp-rib/rib:rib[rib:id="example-bgp-rib"]/rib:peer[rib:peer-id="bgp://$TOOLS_IP"]</peer-ref>
</input>
EOF
# What basic.robot's empty_topology and filled_topology hold.
cat >"$TMPD/empty.json" <<'EOF'
{"network-topology:topology": [{"odl-bgp-topology-config:rib-id":
 "example-bgp-rib", "server-provided": true, "topology-id":
 "example-ipv4-topology", "topology-types":
 {"odl-bgp-topology-types:bgp-ipv4-reachability-topology": {}}}]}
EOF
"$PY" - "$TMPD/empty.json" "$TMPD/filled.json" <<'PYEOF'
import json, sys
t = json.load(open(sys.argv[1]))
t["network-topology:topology"][0]["node"] = [{
    "node-id": "192.0.2.1",
    "l3-unicast-igp-topology:igp-node-attributes": {"prefix": [
        {"prefix": p} for p in ("8.0.1.0/28", "8.0.1.16/28", "8.0.1.32/28")
    ]}}]
json.dump(t, open(sys.argv[2], "w"))
PYEOF

# topology_is NAME: the topology equals NAME.json, normalized (lists
# sorted, as CSIT's norm_json does).
topology_is() {
	curl -s -u admin:admin "$TOPO" >"$TMPD/topo.json" || return 1
	"$PY" - "$TMPD/topo.json" "$TMPD/$1.json" <<'PYEOF'
import json, sys
def norm(v):
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    if isinstance(v, list):
        return sorted((norm(x) for x in v), key=lambda x: json.dumps(
            x, sort_keys=True))
    return v
a, b = (norm(json.load(open(f))) for f in sys.argv[1:3])
sys.exit(0 if a == b else 1)
PYEOF
}

# wait_topology NAME: 10 s at most, every 0.5 s (Wait_For_Topology_To_Change_To).
wait_topology() {
	local i=0
	while [ $i -lt 20 ]; do
		topology_is "$1" && return 0
		sleep 0.5
		i=$((i + 1))
	done
	fail "topology is not $1: $(cat "$TMPD/topo.json")"
}

# connections: the speaker's established TCP connections (its end, on
# the tools port, as CSIT counts them with netstat).
connections() {
	ss -Htn state established "( sport = :$TOOL_PORT )" src "$TOOLS_IP" |
	    wc -l
}

# wait_connections N: 20 s by the clock at most (the controller retries
# a refused connect after 1, 2, 4, then 5 s: a speaker late to listen on
# a loaded host waits for the next try).
wait_connections() {
	local end=$((SECONDS + 20))
	while [ $SECONDS -lt $end ]; do
		[ "$(connections)" = "$1" ] && return 0
		sleep 0.25
	done
	fail "$(connections) connections on port $TOOL_PORT, want $1"
}

# speaker NAME ARGS...: start the speaker; its state file is $TMPD/NAME.st.
speaker() {
	local name=$1
	shift
	start_bg "$TMPD/$name.log" "$PY" "$SPEAKER" --myip "$TOOLS_IP" \
	    --myport "$TOOL_PORT" --peerip "$ODL_IP" --state "$TMPD/$name.st" \
	    "$@"
	SPK=$LAST_PID
}

# wait_state NAME TEXT: the speaker NAME wrote TEXT in its state file
# (20 s by the clock at most).
wait_state() {
	local end=$((SECONDS + 20))
	while [ $SECONDS -lt $end ]; do
		grep -q "$2" "$TMPD/$1.st" 2>/dev/null && return 0
		sleep 0.1
	done
	fail "speaker $1: no '$2': $(cat "$TMPD/$1.st" 2>/dev/null)"
}

# change_count: the data change counter, read as ChangeCounter.robot
# reads it (the draft reply, its top member unqualified).
change_count() {
	curl -s -u admin:admin \
	    "$RC/restconf/operational/data-change-counter:data-change-counter" |
	    "$PY" -c 'import json, sys
print(json.load(sys.stdin)["data-change-counter"]["counter"][0]["count"])'
}

kill_speaker() {
	kill "$SPK" 2>/dev/null
	wait "$SPK" 2>/dev/null
}

P3="A:8.0.1.0/28,8.0.1.16/28,8.0.1.32/28"

csit_capture "tcp port $ODL_BGP_PORT or tcp port $TOOL_PORT or tcp port $RC_PORT"
start_bg "$TMPD/ctl.log" "$SBSIM" controller --bgp ptcp:$ODL_BGP_PORT:$ODL_IP \
    --restconf 127.0.0.1:$RC_PORT
ctl=$LAST_PID
wait_listen "$ODL_BGP_PORT" && wait_listen "$RC_PORT" || fail "controller"

# Check_For_Empty_Topology_Before_Talking
wait_topology empty
c0=$(change_count)

# TC_LA: the controller connects from local-address to the listening peer.
speaker la --listen --update "$P3"
wait_state la listening
expect 201 PUT "$NBR" "$TMPD/local.xml"
wait_connections 1
wait_state la "established $ODL_IP"
wait_topology filled
kill_speaker
expect 204 DELETE "$NBR"
wait_topology empty

# Reconfigure_ODL_To_Accept_Connection, Start_Talking_BGP_speaker.
expect 201 PUT "$NBR" "$TMPD/passive.xml"
expect 200 GET "$NBR_DRAFT"
grep -q '"passive-mode":true' "$TMPD/out" || fail "GET: $(cat "$TMPD/out")"
speaker talk --peerport "$ODL_BGP_PORT" --update "$P3"
wait_connections 1
wait_topology filled
expect 200 GET "$NBR"
grep -q '"session-state":"ESTABLISHED"' "$TMPD/out" ||
    fail "neighbor state: $(cat "$TMPD/out")"
expect 200 GET "$RC/rests/data/bgp-rib:bgp-rib/rib=example-bgp-rib/peer=bgp:%2F%2F$TOOLS_IP"
grep -q '"peer-role":"ibgp"' "$TMPD/out" || fail "peer-role: $(cat "$TMPD/out")"

c1=$(change_count)
[ "$c1" -gt "$c0" ] || fail "data-change-counter: $c0, then $c1"

# TC_R: bgp-peer-rpc:reset-session empties the topology.
expect 204 POST "$RESET" "$TMPD/reset.xml"
wait_topology empty
wait_state talk "notification 6 4"

# TC_PG: the neighbor takes its families from the peer group.
expect 204 DELETE "$NBR"
expect 201 PUT "$PG" "$TMPD/pg.xml"
expect 200 GET "$PG?content=config"
grep -q '"afi-safi-name":"openconfig-bgp-types:IPV4-UNICAST"' "$TMPD/out" ||
    fail "peer group: $(cat "$TMPD/out")"
expect 201 PUT "$NBR" "$TMPD/member.xml"
speaker talk2 --peerport "$ODL_BGP_PORT" --update "$P3"
wait_topology filled
expect 204 PUT "$PG" "$TMPD/pg_no4.xml"
wait_topology empty
kill_speaker
expect 204 DELETE "$NBR"
expect 201 PUT "$NBR" "$TMPD/passive.xml"
expect 204 DELETE "$PG"
# The draft-era peer_group location: PUT of the entry to the container.
expect 201 PUT "$RC/restconf/config/openconfig-network-instance:network-instances/network-instance/global-bgp/openconfig-network-instance:protocols/protocol/openconfig-policy-types:BGP/example-bgp-rib/bgp/peer-groups/" "$TMPD/pg.xml"
expect 200 GET "$RC/restconf/operational/openconfig-network-instance:network-instances/network-instance/global-bgp/openconfig-network-instance:protocols/protocol/openconfig-policy-types:BGP/example-bgp-rib/bgp/peer-groups"
grep -q '"total-paths":0' "$TMPD/out" || fail "peer groups: $(cat "$TMPD/out")"
expect 204 DELETE "$PG"

# Start_Listening_BGP_Speaker: both listen, nothing connects.
speaker listen --listen --update "$P3"
wait_state listen listening
sleep 2
[ "$(connections)" = 0 ] || fail "a passive neighbor was connected to"
topology_is empty || fail "topology changed while both listen"
# Reconfigure_ODL_To_Initiate_Connection
expect 204 PUT "$NBR" "$TMPD/active.xml"
wait_connections 1
wait_topology filled
kill_speaker
wait_topology empty

# Case 2: 2 prefixes, then 2 more with the very first withdrawn; the
# controller connects again by itself (connect-retry backoff).
speaker case2 --listen --update "A:8.0.0.240/28,8.0.1.0/28" \
    --update "W:8.0.0.240/28;A:8.0.1.16/28,8.0.1.32/28"
wait_connections 1
wait_topology filled
kill_speaker
wait_topology empty
# Case 3: the first prefix also in the withdrawn list of the same UPDATE
# (RFC 4271 section 4.3: the withdrawal is ignored).
speaker case3 --listen --update "W:8.0.1.0/28;$P3"
wait_connections 1
wait_topology filled
# Deleting the neighbor ends its session (Cease, Peer De-configured) and
# takes its routes away (basic.robot kills its peer first).
expect 204 DELETE "$NBR"
wait_topology empty
wait_state case3 "notification 6 3"
kill_speaker

# bgp_app_peer.py: POST of the routes to the application RIB's tables
# entry, GET of the entry, DELETE of its routes (draft URLs).
APP=$RC/restconf/config/bgp-rib:application-rib/example-app-rib/tables/bgp-types:ipv4-address-family/bgp-types:unicast-subsequent-address-family/
{
	echo '<ipv4-routes xmlns="urn:opendaylight:params:xml:ns:yang:bgp-inet">'
	for p in 8.0.1.0/28 8.0.1.16/28 8.0.1.32/28; do
		echo "<ipv4-route><route-key>$p</route-key><path-id>0</path-id><prefix>$p</prefix>"
		echo '<attributes><origin><value>igp</value></origin><local-pref><pref>100</pref></local-pref>'
		echo '<ipv4-next-hop><global>192.0.2.1</global></ipv4-next-hop>'
		echo '<originator-id><originator>41.41.41.41</originator></originator-id>'
		echo '<cluster-id><cluster>40.40.40.40</cluster><cluster>40.40.40.41</cluster></cluster-id>'
		echo '</attributes></ipv4-route>'
	done
	echo '</ipv4-routes>'
} >"$TMPD/app.xml"
expect 201 POST "$APP" "$TMPD/app.xml"
wait_topology filled
expect 200 GET "$APP"
[ "$(grep -o '"prefix":"8.0.1' "$TMPD/out" | wc -l)" = 3 ] &&
    grep -q '"uptodate":true' "$TMPD/out" &&
    grep -q '"originator-id":{"originator":"41.41.41.41"}' "$TMPD/out" &&
    grep -q '"cluster-id":{"cluster":\["40.40.40.40","40.40.40.41"\]}' \
    "$TMPD/out" || fail "app tables: $(cat "$TMPD/out")"
expect 204 DELETE "${APP}bgp-inet:ipv4-routes/"
wait_topology empty

# A counter of another topology counts nothing here.
cat >"$TMPD/dcc.xml" <<'EOF2'
<data-change-counter-config xmlns="urn:opendaylight:params:xml:ns:yang:bgpcep:data-change-counter-config">
 <counter-id>ls</counter-id><topology-name>example-linkstate-topology</topology-name>
</data-change-counter-config>
EOF2
expect 201 PUT "$RC/rests/data/odl-data-change-counter-config:data-change-counter-config=ls" "$TMPD/dcc.xml"
expect 200 GET "$RC/rests/data/data-change-counter:data-change-counter/counter=ls"
grep -q '"count":0' "$TMPD/out" || fail "counter ls: $(cat "$TMPD/out")"
expect_tag 400 invalid-value PUT "$RC/rests/data/odl-data-change-counter-config:data-change-counter-config=other" "$TMPD/dcc.xml"

# A peer that is no configured neighbor is refused once neighbors exist.
expect 201 PUT "$NBR" "$TMPD/passive.xml"
start_bg "$TMPD/stranger.log" "$PY" "$SPEAKER" --myip 127.$NET.0.3 \
    --myport "$TOOL_PORT" --peerip "$ODL_IP" --peerport "$ODL_BGP_PORT" \
    --state "$TMPD/stranger.st"
wait_exit "$LAST_PID" 5 || fail "an unconfigured peer was kept"
grep -qs established "$TMPD/stranger.st" && fail "an unconfigured peer was let in"

# JSON bodies and the draft URL style write the same neighbor.
cat >"$TMPD/n.json" <<EOF
{"bgp-openconfig-extensions:neighbor": [{"neighbor-address": "$TOOLS_IP",
 "transport": {"config": {"passive-mode": true}},
 "config": {"peer-type": "EXTERNAL", "peer-as": 65001}}]}
EOF
expect 204 PUT "$NBR_DRAFT" "$TMPD/n.json" application/json
expect 200 GET "$NBR?content=config"
grep -q '"peer-as":65001' "$TMPD/out" || fail "JSON PUT: $(cat "$TMPD/out")"

# Bad input: RFC 8040 errors.
sed "s/$TOOLS_IP/127.$NET.0.9/" "$TMPD/passive.xml" >"$TMPD/other.xml"
expect_tag 400 invalid-value PUT "$NBR" "$TMPD/other.xml"
expect_tag 400 invalid-value PUT "${NBR%=*}=not-an-address" "$TMPD/passive.xml"
echo '<neighbor><neighbor-address>' >"$TMPD/broken.xml"
expect_tag 400 malformed-message PUT "$NBR" "$TMPD/broken.xml"
sed 's/<passive-mode>true/<passive-mode>maybe/' "$TMPD/passive.xml" >"$TMPD/bad.xml"
expect_tag 400 invalid-value PUT "$NBR" "$TMPD/bad.xml"
sed 's/x:IPV6-UNICAST/x:IPV5-UNICAST/' "$TMPD/passive.xml" >"$TMPD/bad.xml"
expect_tag 400 invalid-value PUT "$NBR" "$TMPD/bad.xml"
grep -v neighbor-address "$TMPD/passive.xml" >"$TMPD/bad.xml"
expect_tag 400 missing-element PUT "$NBR" "$TMPD/bad.xml"
expect_tag 409 data-exists POST "$RC/rests/data/$BGP/neighbors" "$TMPD/passive.xml"
expect_tag 404 data-missing GET "${NBR%=*}=127.$NET.0.9"
expect_tag 404 data-missing DELETE "${NBR%=*}=127.$NET.0.9"
expect_tag 404 data-missing POST "$RESET" "$TMPD/reset.xml"
echo '<input><peer-ref>/nothing</peer-ref></input>' >"$TMPD/bad.xml"
expect_tag 400 invalid-value POST "$RESET" "$TMPD/bad.xml"
expect_tag 404 data-missing GET "${PG%=*}=nobody"
expect_tag 405 operation-not-supported PATCH "$NBR" "$TMPD/passive.xml"
expect_tag 404 data-missing DELETE "$RC/rests/data/odl-data-change-counter-config:data-change-counter-config=nobody"
expect_tag 404 data-missing GET "$RC/rests/data/data-change-counter:data-change-counter/counter=nobody"
expect_tag 404 data-missing GET "$RC/rests/data/$BGP"
expect 204 DELETE "$NBR"
expect_tag 404 data-missing GET "$RC/rests/data/$BGP/neighbors"

stop_pid "$ctl"
# Every BGP message and RESTCONF exchange of the replay, decoded.
csit_decoded bgp -d "tcp.port==$ODL_BGP_PORT,bgp" \
    -d "tcp.port==$TOOL_PORT,bgp" -d "tcp.port==$RC_PORT,http"
exit 0
