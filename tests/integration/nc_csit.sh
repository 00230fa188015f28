#!/bin/bash
# OpenDaylight's CSIT netconf scale suites (getsingle, getmulti,
# max_devices) replayed against the embedded controller, with sbsim
# NETCONF devices in netconf-testtool's place: each device configured by
# its own PUT (NetconfKeywords.Configure_Device_In_Netconf: the
# full-uri-device JSON body, and the XML body with netconf-node), waited
# for until its operational node says connected (Check_Device_Connected),
# its mount point's root read in XML and compared whole with the empty
# data element (Check_Device_Data), deconfigured by DELETE and waited for
# until it is gone from the operational topology and its config node
# answers 404 (Check_Device_Completely_Gone); then two devices mounted
# and unmounted by netconf-node-topology's create-device and
# delete-device operations.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need curl
need ss

N=5
ports=$(free_ports $((N + 1)))
DP=$ports RP=$((ports + N))
BASE=http://127.0.0.1:$RP
CONFIG=$BASE/restconf/config/network-topology:network-topology/topology/topology-netconf
OPER=$BASE/restconf/operational/network-topology:network-topology/topology/topology-netconf

# get URL [ACCEPT]: the status on stdout, the body in $TMPD/out.
get() {
	curl -s -m 10 -u admin:admin -o "$TMPD/out" -w '%{http_code}' \
	    -H "Accept: ${2:-application/json}" "$1"
}

# configure I: device i by PUT, JSON for even i, XML for odd ones.
configure() {
	local i=$1 name=netconf-scaling-device-$1 port=$((DP + $1 - 1)) code
	if [ $((i % 2)) -eq 0 ]; then
		code=$(curl -s -m 10 -u admin:admin -o "$TMPD/out" \
		    -w '%{http_code}' -X PUT -H 'Content-Type: application/json' \
		    -d "{\"node\":[{\"node-id\":\"$name\",\"netconf-node-topology:host\":\"127.0.0.1\",\"netconf-node-topology:port\":$port,\"netconf-node-topology:username\":\"admin\",\"netconf-node-topology:password\":\"topsecret\",\"netconf-node-topology:tcp-only\":true,\"netconf-node-topology:keepalive-delay\":0}]}" \
		    "$CONFIG/node/$name")
	else
		code=$(curl -s -m 10 -u admin:admin -o "$TMPD/out" \
		    -w '%{http_code}' -X PUT -H 'Content-Type: application/xml' \
		    -d "<node xmlns=\"urn:TBD:params:xml:ns:yang:network-topology\"><node-id>$name</node-id><netconf-node xmlns=\"urn:opendaylight:netconf-node-topology\"><host>127.0.0.1</host><port>$port</port><login-password-unencrypted><username>admin</username><password>topsecret</password></login-password-unencrypted><tcp-only>true</tcp-only><keepalive-delay>0</keepalive-delay></netconf-node></node>" \
		    "$CONFIG/node/$name")
	fi
	[ "$code" = 201 ] || fail "Configure_Device $name: $code $(cat "$TMPD/out")"
}

# connected NAME: Check_Device_Connected, in the normalized JSON.
connected() {
	[ "$(get "$OPER/node/$1")" = 200 ] && "$PY" -c 'import json, sys
text = json.dumps(json.load(open(sys.argv[1])), indent=1)
sys.exit("\"netconf-node-topology:connection-status\": \"connected\""
         not in text)' "$TMPD/out"
}

# count NAME: Count_Netconf_Connectors_For_Device.
count() {
	get "$OPER" >/dev/null
	"$PY" -c 'import json, sys
text = json.dumps(json.load(open(sys.argv[1])), indent=1)
print(len(text.split("\"node-id\": \"%s\"" % sys.argv[2])) - 1)' \
	    "$TMPD/out" "$1"
}

# gone NAME: Check_Device_Completely_Gone.
gone() {
	[ "$(count "$1")" = 0 ] && [ "$(get "$CONFIG/node/$1" \
	    application/xml)" = 404 ]
}

# until TRIES CMD...: run CMD every 0.1 s until it succeeds.
until_ok() {
	local n=$1 i=0
	shift
	while ! "$@"; do
		i=$((i + 1))
		[ $i -lt "$n" ] || return 1
		sleep 0.1
	done
}

csit_capture "tcp portrange $DP-$RP"
start_bg "$TMPD/ctl.log" "$SBSIM" controller --netconf \
    --restconf 127.0.0.1:$RP
ctl=$LAST_PID
start_bg "$TMPD/dev.log" "$SBSIM" netconf --devices $N \
    --listen ptcp:$DP:127.0.0.1 --transport tcp --duration 60 -q
dev=$LAST_PID
wait_listen "$RP" && wait_listen $((DP + N - 1)) || fail "nothing listens"

# Configure_Devices_Onto_Netconf: one by one, each waited for.
for i in $(seq 1 $N); do
	configure "$i"
	until_ok 100 connected "netconf-scaling-device-$i" ||
	    fail "Wait_Device_Connected $i: $(cat "$TMPD/out")"
done

# Get_Data_From_Devices: the whole datastore, empty, exactly.
for i in $(seq 1 $N); do
	code=$(get "$CONFIG/node/netconf-scaling-device-$i/yang-ext:mount" \
	    application/xml)
	[ "$code" = 200 ] && [ "$(cat "$TMPD/out")" = \
	    '<data xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"></data>' ] ||
	    fail "Check_Device_Data $i: $code $(cat "$TMPD/out")"
done

# Deconfigure_Devices_From_Netconf: DELETE, then gone.
for i in $(seq 1 $N); do
	name=netconf-scaling-device-$i
	code=$(curl -s -m 10 -u admin:admin -o "$TMPD/out" -w '%{http_code}' \
	    -X DELETE "$CONFIG/node/$name")
	[ "$code" = 200 ] || [ "$code" = 204 ] ||
	    fail "Remove_Device_From_Netconf $name: $code"
	until_ok 100 gone "$name" || fail "Wait_Device_Fully_Removed $name"
done

# netconf-node-topology's create-device and delete-device, as the user
# guide (draft URL, flat credentials, numbers in strings) and ONAP's
# scripts (RFC 8040 URL, login-password) send them: mounted and
# unmounted as by the PUT and DELETE above.
# rpc PATH CTYPE BODY: the status on stdout, the body in $TMPD/out.
rpc() {
	curl -s -m 10 -u admin:admin -o "$TMPD/out" -w '%{http_code}' \
	    -X POST -H "Content-Type: $2" -d "$3" "$BASE/$1"
}
NNT=netconf-node-topology
code=$(rpc "restconf/operations/$NNT:create-device" application/json \
    "{\"input\":{\"$NNT:node-id\":\"rpc-device-1\",\"host\":\"127.0.0.1\",\"port\":\"$DP\",\"username\":\"admin\",\"password\":\"topsecret\",\"tcp-only\":\"true\",\"keepalive-delay\":\"0\"}}")
[ "$code" = 200 ] && [ "$(cat "$TMPD/out")" = '{"output":{}}' ] ||
    fail "create-device (draft): $code $(cat "$TMPD/out")"
code=$(rpc "rests/operations/$NNT:create-device" application/json \
    "{\"input\":{\"login-password\":{\"username\":\"admin\",\"password\":\"topsecret\"},\"host\":\"127.0.0.1\",\"port\":$((DP + 1)),\"tcp-only\":true,\"node-id\":\"rpc-device-2\"}}")
[ "$code" = 204 ] && [ ! -s "$TMPD/out" ] ||
    fail "create-device (rfc8040): $code $(cat "$TMPD/out")"
for name in rpc-device-1 rpc-device-2; do
	until_ok 100 connected "$name" ||
	    fail "create-device: $name not connected: $(cat "$TMPD/out")"
	[ "$(get "$CONFIG/node/$name")" = 200 ] ||
	    fail "create-device: no config node $name"
	code=$(get "$CONFIG/node/$name/yang-ext:mount" application/xml)
	[ "$code" = 200 ] || fail "create-device: $name mount point: $code"
done
code=$(rpc "rests/operations/$NNT:delete-device" application/xml \
    "<input xmlns=\"urn:opendaylight:$NNT\"><node-id>rpc-device-1</node-id></input>")
[ "$code" = 204 ] || fail "delete-device (xml): $code $(cat "$TMPD/out")"
code=$(rpc "restconf/operations/$NNT:delete-device" application/json \
    '{"input":{"node-id":"rpc-device-2"}}')
[ "$code" = 200 ] || fail "delete-device (draft): $code $(cat "$TMPD/out")"
for name in rpc-device-1 rpc-device-2; do
	until_ok 100 gone "$name" || fail "delete-device: $name not gone"
done
# A node that is not there: deleted all the same; bad inputs: 400.
code=$(rpc "rests/operations/$NNT:delete-device" application/json \
    '{"input":{"node-id":"no-such-device"}}')
[ "$code" = 204 ] || fail "delete-device (absent): $code"
code=$(rpc "rests/operations/$NNT:delete-device" application/json \
    '{"input":{}}')
[ "$code" = 400 ] && grep -q missing-element "$TMPD/out" ||
    fail "delete-device without node-id: $code $(cat "$TMPD/out")"
code=$(rpc "rests/operations/$NNT:create-device" application/json \
    '{"input":{"node-id":"x","port":830}}')
[ "$code" = 400 ] && grep -q missing-element "$TMPD/out" ||
    fail "create-device without host: $code $(cat "$TMPD/out")"
code=$(rpc "rests/operations/$NNT:create-device" application/json \
    '{"input":{"node-id":"x","host":"127.0.0.1","port":99999}}')
[ "$code" = 400 ] && grep -q invalid-value "$TMPD/out" ||
    fail "create-device with port 99999: $code $(cat "$TMPD/out")"
[ "$(count x)" = 0 ] || fail "a refused create-device mounted x"

stop_pid "$dev"
stop_pid "$ctl"
[ "$STOP_RC" -eq 0 ] || fail "the controller exited $STOP_RC"
# The RESTCONF exchanges and the NETCONF sessions (TCP, RFC 6242
# framing, read by tests/wire/netconf.lua), decoded.
csit_decoded http -d "tcp.port==$RP,http"
nc_args="-X lua_script:$(cd "$(dirname "$0")/.." && pwd)/wire/netconf.lua"
for i in $(seq 0 $((N - 1))); do
	nc_args="$nc_args -d tcp.port==$((DP + i)),netconf"
done
# shellcheck disable=SC2086
csit_decoded netconf $nc_args
echo "netconf scale getsingle replayed with $N devices"
