# Sourced by the tests that drive one passive sbsim switch with ovs-ofctl
# (ovs_groups.sh, ovs_meters.sh), after tests/lib.sh.

# passive_start ARGS...: `sbsim openflow --switches 1` listening on a free
# port (or $PASSIVE_PORT), ARGS added, a report at $TMPD/r.json (or
# $PASSIVE_REPORT); sets EP (ovs-ofctl's target) and SB (its pid).
passive_start() {
	local port=${PASSIVE_PORT:-$(free_ports 1)}
	EP=tcp:127.0.0.1:$port
	start_bg "$TMPD/sbsim-$port.log" "$SBSIM" openflow --switches 1 \
	    --controller ptcp:$port --duration 120 \
	    --report "${PASSIVE_REPORT:-$TMPD/r.json}" \
	    -q "$@"
	SB=$LAST_PID
	wait_listen "$port" || fail "sbsim did not listen on $port"
}

# expect_err CODE ARGS...: $OFCTL ARGS must fail, naming CODE.
expect_err() {
	local code=$1
	shift
	if $OFCTL "$@" >"$TMPD/err.out" 2>&1; then
		fail "$* succeeded, want $code"
	fi
	grep -q "$code" "$TMPD/err.out" || fail "$*: $(cat "$TMPD/err.out")"
}

# nflows: the flows the switch holds, as dump-flows lists them.
nflows() {
	$OFCTL dump-flows $EP | grep -c 'actions='
}

# passive_stop NAME=VALUE...: SIGINT; the report is written and has each
# counter NAME at VALUE.
passive_stop() {
	local kv got r=${PASSIVE_REPORT:-$TMPD/r.json}
	stop_pid "$SB"
	[ -s "$r" ] || fail "no report after SIGINT"
	for kv in "$@"; do
		got=$(json_get "$r" \
		    "r[\"counters\"].get(\"${kv%%=*}\", -1)")
		[ "$got" = "${kv#*=}" ] || fail "${kv%%=*}=$got, want ${kv#*=}"
	done
}
