#!/bin/bash
# NETCONF devices on an address each, all on one port (--source with
# ptcp:PORT): every device listens on its own address, the embedded
# controller mounts them all through sbsim's northbound (node i's host is
# device i's address), over TCP and SSH; a range too small is refused.
. "$(dirname "$0")/../lib.sh"
need ss

N=4
NET=127.$((RANDOM % 200 + 20)).$((RANDOM % 250))
rport=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --netconf \
    --restconf 127.0.0.1:$rport
ctl=$LAST_PID
wait_listen $rport || fail "the controller did not serve RESTCONF"

for transport in tcp ssh; do
	port=$(free_ports 1)
	key=
	[ $transport = ssh ] && key="--host-key $TMPD/hostkey"
	# shellcheck disable=SC2086
	start_bg "$TMPD/nc-$transport.log" timeout 60 "$SBSIM" netconf \
	    --devices $N --listen ptcp:$port --source "$NET.0/24" \
	    --transport $transport $key \
	    --northbound odl:http://127.0.0.1:$rport --mount-batch 2 \
	    --timeout 30 --report "$TMPD/$transport.json" -q
	nc=$LAST_PID
	i=0
	while [ "$(ss -Hltn "sport = :$port" | wc -l)" -lt $N ] &&
	    [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	for k in $(seq 1 $N); do
		ss -Hltn "sport = :$port" | grep -q "$NET.$k:$port" ||
		    fail "$transport: nothing listens on $NET.$k:$port"
	done
	wait_exit "$nc" 60 || fail "$transport: sbsim netconf did not finish"
	[ "$EXIT_RC" -eq 0 ] || fail "$transport: sbsim netconf exited $EXIT_RC"
	for want in "('connect', 'DONE', $N)" "('mount', 'DONE', $N)" \
	    "('mounted', 'DONE', $N)" "('unmounted', 'DONE', $N)"; do
		json_get "$TMPD/$transport.json" \
		    '[(p["name"], p["state"], p["items"]) for p in r["phases"]]' |
		    grep -qF "$want" || fail "$transport: $want: $(json_get \
		    "$TMPD/$transport.json" 'r["phases"]')"
	done
done
stop_pid "$ctl"

out=$("$SBSIM" netconf --devices 300 --listen ptcp:17830 \
    --source 127.5.0.0/24 2>&1)
[ $? -eq 2 ] || fail "300 devices on a /24 were not refused"
echo "$out" | grep -q "addresses for 300 devices" || fail "message: $out"
exit 0
