#!/bin/bash
# sbsim netconf against the embedded controller's NETCONF client, over
# TCP and SSH.  Part 1, with curl: devices mounted through RESTCONF
# topology-netconf (a PUT in each URL style, a PATCH of several nodes),
# connection-status polled until connected (a node with a wrong password
# or no device behind it ends unable-to-connect), bad bodies and unknown
# nodes answered 400/404, edit-config through the mount point (PUT, POST,
# a bad value refused with the device's error) arriving at the devices
# (their program phase), get-config read back through the mount point,
# notifications counted by the controller (sbsim-netconf:netconf-stats),
# DELETE unmounting.  Part 2, sbsim's own northbound driver
# (--northbound): mount in batches, edits through the mount point,
# learning polled, unmount; every phase of the report DONE.
. "$(dirname "$0")/../lib.sh"
need curl
need ss

N=3		# devices of part 1
K=2		# notifications per device
J=3		# prefixes per notification

rport=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --netconf --netconf-subscribe \
    --restconf 127.0.0.1:$rport -v
ctl=$LAST_PID
wait_listen $rport || fail "the controller did not serve RESTCONF"
BASE=http://127.0.0.1:$rport
TOPO=$BASE/rests/data/network-topology:network-topology/topology=topology-netconf
DRAFT=$BASE/restconf/config/network-topology:network-topology/topology/topology-netconf
OPER=$BASE/restconf/operational/network-topology:network-topology/topology/topology-netconf
JS='Content-Type: application/json'

# http METHOD URL [BODY]: prints the status; the body goes to $TMPD/out.
http() {
	if [ $# -ge 3 ]; then
		curl -s -o "$TMPD/out" -w '%{http_code}' -u admin:admin \
		    -X "$1" -H "$JS" "$2" -d "$3"
	else
		curl -s -o "$TMPD/out" -w '%{http_code}' -u admin:admin \
		    -X "$1" "$2"
	fi
}

# node NAME PORT TCPONLY [PASSWORD [ATTEMPTS]]: one node entry.
node() {
	printf '{"node-id":"%s","netconf-node-topology:host":"127.0.0.1",' "$1"
	printf '"netconf-node-topology:port":%s,' "$2"
	printf '"netconf-node-topology:username":"admin",'
	printf '"netconf-node-topology:password":"%s",' "${4:-admin}"
	printf '"netconf-node-topology:tcp-only":%s,' "$3"
	printf '"netconf-node-topology:max-connection-attempts":%s,' "${5:-0}"
	printf '"netconf-node-topology:keepalive-delay":0}'
}

# hostkey TRANSPORT: the SSH host key in the test's directory, not the
# default ./sbsim_netconf_host_key of the directory it runs in.
hostkey() {
	[ "$1" = ssh ] && echo "--host-key $TMPD/hostkey"
}

# count STATUS: nodes in that state in the operational view.
count() {
	curl -s -u admin:admin "$TOPO?content=nonconfig" |
	    grep -o "connection-status\":\"$1\"" | wc -l
}

# wait_for CMD VALUE: poll (10 s at most) until CMD prints VALUE.
wait_for() {
	local i=0
	while [ "$($1)" != "$2" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$($1)" = "$2" ]
}

prefixes() {
	curl -s -u admin:admin \
	    "$TOPO/sbsim-netconf:netconf-stats?content=nonconfig" |
	    "$PY" -c 'import json,sys; print(json.load(sys.stdin)["sbsim-netconf:netconf-stats"]["notification-prefixes"])'
}

part1() {
	local tr=$1 tcp=false port dev code R nowhere
	[ "$tr" = tcp ] && tcp=true
	port=$(free_ports $((N + 1)))
	nowhere=$((port + N))
	# shellcheck disable=SC2046
	start_bg "$TMPD/dev-$tr.log" "$SBSIM" netconf --devices $N \
	    --listen ptcp:$port:127.0.0.1 --transport "$tr" $(hostkey "$tr") \
	    --notifications $K --prefixes-per-notification $J \
	    --expect-edits 3 --timeout 20 --report "$TMPD/$tr.json" -q
	dev=$LAST_PID
	wait_listen $((port + N - 1)) || fail "$tr: devices did not listen"
	code=$(http PUT "$TOPO/node=$tr-0" "{\"node\":[$(node $tr-0 $port $tcp)]}")
	[ "$code" = 201 ] || fail "$tr: PUT node: $code $(cat "$TMPD/out")"
	code=$(http PUT "$DRAFT/node/$tr-1" \
	    "{\"node\":[$(node $tr-1 $((port + 1)) $tcp)]}")
	[ "$code" = 201 ] || fail "$tr: draft PUT node: $code"
	# A PATCH of several: a device, one with a wrong password (SSH) or
	# no device behind it (TCP).
	if [ "$tr" = ssh ]; then
		bad=$(node $tr-bad $port $tcp wrong)
	else
		bad=$(node $tr-bad $nowhere $tcp admin 1)
	fi
	code=$(http PATCH "$TOPO" "{\"network-topology:topology\":[{\"topology-id\":\"topology-netconf\",\"node\":[$(node $tr-2 $((port + 2)) $tcp),$bad]}]}")
	[ "$code" = 201 ] || fail "$tr: PATCH nodes: $code $(cat "$TMPD/out")"
	wait_for "count connected" $N ||
	    fail "$tr: $(count connected) of $N nodes connected"
	wait_for "count unable-to-connect" 1 ||
	    fail "$tr: the bad node is not unable-to-connect"
	curl -s -u admin:admin "$OPER" | grep -q "\"node-id\":\"$tr-1\"" ||
	    fail "$tr: the operational view (draft) lacks $tr-1"
	grep -q "available-capability" "$TMPD/out" 2>/dev/null || true

	# Bad input: each gets its answer, the controller goes on.
	code=$(http PUT "$TOPO/node=$tr-x" '{"node":[{"node-id":"other"}]}')
	[ "$code" = 400 ] || fail "$tr: node-id mismatch: $code"
	code=$(http PUT "$TOPO/node=$tr-x" '{"node":[{"node-id":')
	[ "$code" = 400 ] || fail "$tr: malformed body: $code"
	code=$(http PUT "$TOPO/node=$tr-x" "{\"node\":[{\"node-id\":\"$tr-x\"}]}")
	[ "$code" = 400 ] || fail "$tr: node without host: $code"
	# Numbers out of their ranges: the error names the leaf.
	for leaf in port:0 port:65536 connection-timeout-millis:0 \
	    between-attempts-timeout-millis:86400001; do
		code=$(http PUT "$TOPO/node=$tr-x" "{\"node\":[{\"node-id\":\"$tr-x\",\"netconf-node-topology:host\":\"127.0.0.1\",\"netconf-node-topology:${leaf%%:*}\":${leaf#*:}}]}")
		[ "$code" = 400 ] && grep -q "${leaf%%:*}" "$TMPD/out" ||
		    fail "$tr: $leaf: $code $(cat "$TMPD/out")"
	done
	code=$(http GET "$TOPO/node=nosuch")
	[ "$code" = 404 ] || fail "$tr: unknown node: $code"
	code=$(http DELETE "$TOPO/node=nosuch")
	[ "$code" = 404 ] || fail "$tr: DELETE unknown node: $code"
	code=$(http GET "$TOPO/node=$tr-0/yang-ext:mount/nosuch:thing")
	[ "$code" = 400 ] || fail "$tr: unknown module: $code"
	# The mount point's root: the whole datastore, as netconf scale's
	# getsingle/getmulti read it (draft URL, XML); nothing written yet.
	code=$(curl -s -o "$TMPD/out" -w '%{http_code}' -u admin:admin \
	    -H 'Accept: application/xml' \
	    "$BASE/restconf/config/network-topology:network-topology/topology/topology-netconf/node/$tr-1/yang-ext:mount")
	[ "$code" = 200 ] && [ "$(cat "$TMPD/out")" = \
	    '<data xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"></data>' ] ||
	    fail "$tr: the mount point's root, empty: $code $(cat "$TMPD/out")"

	# edit-config through the mount point, both styles.
	M=$TOPO/node=$tr-0/yang-ext:mount/sbsim-device:interfaces
	code=$(http PUT "$M/interface=eth0" \
	    '{"sbsim-device:interface":[{"name":"eth0","mtu":1500}]}')
	[ "$code" = 204 ] || fail "$tr: PUT through the mount: $code $(cat "$TMPD/out")"
	code=$(http PUT "$M/interface=eth9" \
	    '{"sbsim-device:interface":[{"name":"eth9","mtu":5}]}')
	[ "$code" = 400 ] || fail "$tr: a bad mtu: $code"
	code=$(http GET "$M?content=config")
	[ "$code" = 200 ] && grep -q '"mtu":1500' "$TMPD/out" ||
	    fail "$tr: read through the mount: $code $(cat "$TMPD/out")"
	code=$(http GET "$TOPO/node=$tr-0/yang-ext:mount?content=config")
	[ "$code" = 200 ] && "$PY" -c 'import json,sys
d = json.load(open(sys.argv[1]))["ietf-restconf:data"]
i = d["sbsim-device:interfaces"]["interface"]
assert [e["mtu"] for e in i if e["name"] == "eth0"] == [1500]' "$TMPD/out" ||
	    fail "$tr: the mount point's root: $code $(cat "$TMPD/out")"
	code=$(http POST "$DRAFT/node/$tr-1/yang-ext:mount/sbsim-device:interfaces" \
	    '{"sbsim-device:interface":[{"name":"eth1"}]}')
	[ "$code" = 201 ] || fail "$tr: POST through the mount: $code $(cat "$TMPD/out")"
	code=$(http POST "$DRAFT/node/$tr-1/yang-ext:mount/sbsim-device:interfaces" \
	    '{"sbsim-device:interface":[{"name":"eth1"}]}')
	[ "$code" = 409 ] || fail "$tr: POST of an existing entry: $code"
	# The last edit (the devices' program phase ends with it): a PATCH.
	code=$(http PATCH "$TOPO/node=$tr-2/yang-ext:mount/sbsim-device:interfaces" \
	    '{"sbsim-device:interfaces":{"interface":[{"name":"eth2"}]}}')
	[ "$code" = 204 ] || fail "$tr: PATCH through the mount: $code $(cat "$TMPD/out")"

	# The notifications' prefixes, as the controller counts them.
	wait_for prefixes $((N * K * J)) ||
	    fail "$tr: the controller counted $(prefixes) prefixes"

	# The devices saw both edits and sent every prefix: they end.
	wait_exit "$dev" 30 || fail "$tr: sbsim netconf did not end"
	[ "$EXIT_RC" -eq 0 ] || fail "$tr: sbsim netconf exited $EXIT_RC"
	R="$TMPD/$tr.json"
	for p in connect mount program learn; do
		[ "$(json_get "$R" "[p for p in r['phases'] if p['name']=='$p'][0]['state']")" = DONE ] ||
		    fail "$tr: device phase $p not DONE"
	done
	[ "$(json_get "$R" "[p for p in r['phases'] if p['name']=='program'][0]['items']")" = 3 ] ||
	    fail "$tr: program items"
	code=$(http DELETE "$TOPO")
	[ "$code" = 204 ] || fail "$tr: DELETE of the topology: $code"
	[ "$(count connected)" = 0 ] || fail "$tr: nodes left after DELETE"
	echo "part 1 $tr: ok"
}

part2() {
	local tr=$1 style=$2 port R p
	port=$(free_ports 6)
	# shellcheck disable=SC2046
	start_bg "$TMPD/nb-$tr.log" timeout 60 "$SBSIM" netconf --devices 6 \
	    --listen ptcp:$port:127.0.0.1 --transport "$tr" $(hostkey "$tr") \
	    --northbound odl:http://127.0.0.1:$rport --northbound-style "$style" \
	    --mount-batch 4 --northbound-parallel 2 --edits 2 \
	    --notifications 2 --prefixes-per-notification 2 \
	    --northbound-poll 0.1 --timeout 20 --report "$TMPD/nb-$tr.json" -q
	wait_exit "$LAST_PID" 60 || fail "$tr: the northbound run did not end"
	[ "$EXIT_RC" -eq 0 ] || fail "$tr: the northbound run exited $EXIT_RC"
	R="$TMPD/nb-$tr.json"
	for p in connect mount program learn nb_mount mounted nb_program \
	    confirm nb_delete confirm_delete nb_learn nb_unmount unmounted; do
		[ "$(json_get "$R" "[p for p in r['phases'] if p['name']=='$p'][0]['state']")" = DONE ] ||
		    fail "$tr: phase $p not DONE"
	done
	[ "$(json_get "$R" "[p for p in r['phases'] if p['name']=='mounted'][0]['items']")" = 6 ] ||
	    fail "$tr: mounted items"
	[ "$(json_get "$R" "[p for p in r['phases'] if p['name']=='nb_learn'][0]['items']")" = 24 ] ||
	    fail "$tr: nb_learn items"
	echo "part 2 $tr $style: ok"
}

part1 tcp
part1 ssh
part2 tcp rfc8040
part2 ssh draft

stop_pid "$ctl"
[ "$STOP_RC" -eq 0 ] || fail "the controller exited $STOP_RC"
grep -q "^netconf: .* mounts asked" "$TMPD/ctl.log" ||
    fail "no netconf summary from the controller"
echo DONE
