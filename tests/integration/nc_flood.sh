#!/bin/bash
# A NETCONF peer that sends <get>s and never reads the replies (issue 24):
# past --output-mark bytes of unsent output a session stops reading
# (counted in reads_paused) and reads on once its output drains, over
# TCP (the kernel's window holds the peer) and SSH (the channel's
# window).  The device's RSS stays bounded (it grew by gigabytes), a
# second session is answered while the flooder is still connected, and a
# client that reads late gets every reply.
. "$(dirname "$0")/../lib.sh"
HERE=$(dirname "$0")
[ -x "$PY" ] || skip "$PY is not installed"
"$PY" -c 'import paramiko' 2>/dev/null || skip "python3-paramiko is missing"
need ss

for tr in tcp ssh; do
	port=$(free_ports 1)
	key=""
	[ $tr = ssh ] && key="--host-key $TMPD/hostkey"
	# shellcheck disable=SC2086
	start_bg "$TMPD/dev-$tr.log" "$SBSIM" netconf --devices 1 \
	    --listen ptcp:$port:127.0.0.1 --transport $tr \
	    $key --duration 120 \
	    --report "$TMPD/$tr.json" -q
	dev=$LAST_PID
	wait_listen "$port" || fail "$tr: the device did not listen"
	# 12 MB of <get>s (about 60 times as much in replies), 8 s at most.
	"$PY" "$HERE/nc_flood.py" noread "$dev" "$port" $tr 12 8 \
	    >"$TMPD/$tr.out" 2>&1 || fail "$tr: $(tail -3 "$TMPD/$tr.out")"
	read -r _ sent _ grew _ blocked <"$TMPD/$tr.out"
	echo "$tr: $sent bytes of <get> sent, RSS grew $grew KB ($blocked)"
	# A client that sends 20 000 <get>s and reads only 2 s later gets
	# every reply: the paused session reads on once they drain.
	"$PY" "$HERE/nc_flood.py" later "$port" $tr 20000 \
	    >"$TMPD/$tr-later.out" 2>&1 ||
	    fail "$tr: $(tail -3 "$TMPD/$tr-later.out")"
	stop_pid "$dev"
	[ "$grew" -lt 102400 ] || fail "$tr: the device grew by $grew KB"
	p=$(json_get "$TMPD/$tr.json" "r['counters'].get('reads_paused', 0)")
	[ "$p" -gt 0 ] || fail "$tr: reads_paused is $p"
done
exit 0
