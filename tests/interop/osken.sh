# Sourced by the os-ken tests (osken_packet_in.sh, osken_groups_meters.sh)
# after tests/lib.sh: skips without os-ken.
[ -x "$PY" ] || skip "$PY is not installed"
"$PY" -c 'import os_ken.cmd.manager' 2>/dev/null ||
    skip "os-ken (python3-os-ken) is not installed"
need ss

# osken_start APP [ENV=VALUE...]: os-ken running APP, listening on a free
# port; sets PORT and OSKEN (its pid).  It takes seconds to start (its
# imports): polled, 20 s at most.
osken_start() {
	local app=$1 i=0
	shift
	PORT=$(free_ports 1)
	start_bg "$TMPD/osken.log" env PYTHONDONTWRITEBYTECODE=1 "$@" \
	    "$PY" -m os_ken.cmd.manager \
	    --ofp-listen-host 127.0.0.1 --ofp-tcp-listen-port "$PORT" "$app"
	OSKEN=$LAST_PID
	while ! ss -Hltn 2>/dev/null | awk '{print $4}' |
	    grep -qE ":$PORT\$"; do
		kill -0 "$OSKEN" 2>/dev/null || fail "os-ken died"
		[ $i -lt 200 ] || fail "os-ken did not listen on $PORT"
		sleep 0.1
		i=$((i + 1))
	done
}

# osken_ok: os-ken still runs and logged no error.
osken_ok() {
	kill -0 "$OSKEN" 2>/dev/null || fail "os-ken died"
	! grep -E 'Traceback|ERROR' "$TMPD/osken.log" ||
	    fail "os-ken logged errors"
}
