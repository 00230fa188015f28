#!/bin/bash
# TCP-MD5 (RFC 2385) on the embedded controller's connects to a configured
# neighbour (--bgp-md5-password with a neighbor PUT over RESTCONF, passive
# mode off, as CSIT's TC_LA does): a passive sbsim peer keyed alike takes
# the connection and announces (its listener drops an unkeyed SYN, so the
# session proves the key); one keyed otherwise takes nothing, and its
# run, which would only have served, fails (connect TIMEOUT, exit 1) with
# the drops said.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
need curl
KEY=sbsim-nbr-md5
NET=$((RANDOM % 200 + 20))
ODL_IP=127.$NET.0.1
TOOLS_IP=127.$NET.0.2
BGP_PORT=$(free_ports 3)
TOOL_PORT=$((BGP_PORT + 1))
RC_PORT=$((BGP_PORT + 2))
BGP=openconfig-network-instance:network-instances/network-instance=global-bgp/protocols/protocol=openconfig-policy-types%3ABGP,example-bgp-rib/bgp-openconfig-extensions:bgp
NBR=http://127.0.0.1:$RC_PORT/rests/data/$BGP/neighbors/neighbor=$TOOLS_IP

start_bg "$TMPD/ctl.log" "$SBSIM" controller --bgp "ptcp:$BGP_PORT:$ODL_IP" \
    --restconf "127.0.0.1:$RC_PORT" --bgp-md5-password "$KEY"
CTL=$LAST_PID
wait_listen "$BGP_PORT" && wait_listen "$RC_PORT" || fail "controller"
cat >"$TMPD/nbr.xml" <<XML
<neighbor xmlns="urn:opendaylight:params:xml:ns:yang:bgp:openconfig-extensions">
 <neighbor-address>$TOOLS_IP</neighbor-address>
 <timers><config><hold-time>180</hold-time><connect-retry>1</connect-retry></config></timers>
 <transport><config><remote-port>$TOOL_PORT</remote-port><passive-mode>false</passive-mode></config></transport>
 <config><peer-type>INTERNAL</peer-type><local-address>$ODL_IP</local-address></config>
 <afi-safis><afi-safi><afi-safi-name xmlns:x="http://openconfig.net/yang/bgp-types">x:IPV4-UNICAST</afi-safi-name></afi-safi></afi-safis>
</neighbor>
XML

# peer NAME KEY ARGS...: one passive sbsim peer at TOOLS_IP:TOOL_PORT.
peer() {
	local name=$1 key=$2
	shift 2
	timeout 60 "$SBSIM" bgp --peers 1 --prefixes 50 --as 64496 \
	    --controller "ptcp:$TOOL_PORT:$TOOLS_IP" --md5-password "$key" \
	    -q --report "$TMPD/$name.json" "$@" >"$TMPD/$name.out" \
	    2>"$TMPD/$name.err"
}
phase() {
	json_get "$TMPD/$1.json" "[(p['state'], p['items']) for p in r['phases'] if p['name'] == '$2']"
}

# The right key: the controller connects (every second) once configured.
peer right "$KEY" --duration 8 --timeout 8 &
SB=$!
wait_listen "$TOOL_PORT" || fail "the peer does not listen"
code=$(curl -s -o "$TMPD/put.out" -w '%{http_code}' -u admin:admin -X PUT \
    -H 'Content-Type: application/xml' --data-binary @"$TMPD/nbr.xml" "$NBR")
[ "$code" = 201 ] || fail "PUT neighbor: $code $(cat "$TMPD/put.out")"
wait "$SB" || fail "right key: exit $?: $(cat "$TMPD/right.err")"
[ "$(phase right connect)" = "[('DONE', 1)]" ] || fail "right key: connect $(phase right connect)"
[ "$(phase right announce)" = "[('DONE', 50)]" ] || fail "right key: announce $(phase right announce)"
echo "right key: the controller's keyed connect made the session"

# Another key: the controller's SYNs are dropped.
peer wrong "not-$KEY" --duration 4 --timeout 2 && fail "wrong key: exit 0"
[ "$(phase wrong connect)" = "[('TIMEOUT', 0)]" ] || fail "wrong key: connect $(phase wrong connect)"
[ "$(json_get "$TMPD/wrong.json" "r['counters'].get('kernel_md5_failure', 0)")" -ge 1 ] ||
    fail "wrong key: no kernel_md5_failure"
grep -q "the listening devices took no connection" "$TMPD/wrong.err" ||
    fail "wrong key: not said: $(cat "$TMPD/wrong.err")"
stop_pid "$CTL"
grep -q "bgp: 1 sessions" "$TMPD/ctl.log" || fail "controller: $(grep 'bgp:' "$TMPD/ctl.log")"
echo "TCP-MD5 on the controller's neighbour connects: ok"
