#!/bin/bash
# NETCONF devices on an address each, all on one port (--source with
# ptcp:PORT): one listening socket on the wildcard address serves every
# device's address, the embedded controller mounts them all through
# sbsim's northbound (node i's host is device i's address), over TCP and
# SSH; each device answers as itself (nc_share.py: its session, its
# datastore, its notifications, its --max-sessions), a connection to an
# address of the port that is no device's is reset and counted
# (connections_no_device); a range too small is refused.
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
	wait_listen $port || fail "$transport: nothing listens on :$port"
	listeners=$(ss -Hltn "sport = :$port")
	[ "$(echo "$listeners" | wc -l)" -eq 1 ] &&
	    echo "$listeners" | grep -qE " (0\.0\.0\.0|\*):$port " ||
	    fail "$transport: not one wildcard listener for $N devices:" \
	    "$listeners"
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

# Each device as itself behind the shared listener; the process holds
# one listening socket for them all.
N=3
port=$(free_ports 1)
start_bg "$TMPD/share.log" timeout 60 "$SBSIM" netconf --devices $N \
    --listen ptcp:$port --source "$NET.0/24" --transport tcp \
    --max-sessions 1 --notifications 1 --timeout 30 \
    --report "$TMPD/share.json" -q
nc=$LAST_PID
wait_listen $port || fail "share: nothing listens on :$port"
i=0
while [ -z "${dev:-}" ] && [ $i -lt 50 ]; do
	dev=$(pgrep -P "$nc" -x sbsim) || sleep 0.1
	i=$((i + 1))
done
[ "$(ss -Hltnp | grep -c "pid=$dev,")" -eq 1 ] ||
    fail "share: sbsim holds $(ss -Hltnp | grep -c "pid=$dev,") listening" \
    "sockets for $N devices, not 1"
"$PY" "$(dirname "$0")/nc_share.py" "$NET" $port $N >"$TMPD/share-py.log" \
    2>&1 || fail "nc_share.py: $(tail -3 "$TMPD/share-py.log")"
wait_exit "$nc" 30 || fail "share: sbsim netconf did not finish"
[ "$EXIT_RC" -eq 0 ] || fail "share: sbsim netconf exited $EXIT_RC"
R="$TMPD/share.json"
for c in connections_no_device:2 sessions_refused:1 sessions:$N; do
	v=$(json_get "$R" "r['counters'].get('${c%%:*}')")
	[ "$v" = "${c#*:}" ] || fail "share: ${c%%:*} is $v, expected ${c#*:}"
done

# The wildcard address taken on the port (a device listening on one
# address of it): each device listens on its own address, as before.
port=$(free_ports 1)
start_bg "$TMPD/taken.log" "$SBSIM" netconf --devices 1 \
    --listen ptcp:$port:$NET.250 --transport tcp -q
taker=$LAST_PID
wait_listen $port || fail "fallback: nothing listens on $NET.250:$port"
start_bg "$TMPD/fallback.log" "$SBSIM" netconf --devices $N \
    --listen ptcp:$port --source "$NET.0/24" --transport tcp -q
nc=$LAST_PID
i=0
while [ "$(ss -Hltn "sport = :$port" | wc -l)" -lt $((N + 1)) ] &&
    [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
for k in $(seq 1 $N); do
	ss -Hltn "sport = :$port" | grep -q "$NET.$k:$port " ||
	    fail "fallback: nothing listens on $NET.$k:$port"
done
grep -q "each device of $NET.0/24 listens on its own" "$TMPD/fallback.log" ||
    fail "fallback: no warning: $(cat "$TMPD/fallback.log")"
stop_pid "$nc"
stop_pid "$taker"

out=$("$SBSIM" netconf --devices 300 --listen ptcp:17830 \
    --source 127.5.0.0/24 2>&1)
[ $? -eq 2 ] || fail "300 devices on a /24 were not refused"
echo "$out" | grep -q "addresses for 300 devices" || fail "message: $out"
exit 0
