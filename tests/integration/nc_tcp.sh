#!/bin/bash
# sbsim netconf over plain TCP, driven by a small NETCONF client
# (nc_client.py): hello and chunked framing, get-schema, get-config with
# subtree and xpath filters, edit-config good and bad (each rpc-error
# tag checked), lock/unlock, kill-session, unknown rpc, missing
# message-id, malformed XML, create-subscription and its notifications,
# close-session, a base:1.0 peer, bad chunk framing and an rpc before
# hello (both end the session); the second device (PORT+1) is mounted
# and subscribed the way a controller does.  The run ends by itself when
# every phase is done; the JSON report's phases and counters add up.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
HERE=$(dirname "$0")
N=2		# devices
K=5		# notifications per device
J=3		# prefixes per notification

port=$(free_ports $N)
start_bg "$TMPD/sbsim.log" "$SBSIM" netconf --devices $N \
    --listen ptcp:$port:127.0.0.1 --transport tcp --notifications $K \
    --prefixes-per-notification $J --expect-edits 3 --timeout 20 \
    --report "$TMPD/r.json" -q
pid=$LAST_PID
wait_listen $((port + N - 1)) || fail "sbsim netconf did not listen"
"$PY" "$HERE/nc_client.py" $port $K $J >"$TMPD/client.log" 2>&1 ||
    fail "nc_client.py: $(tail -3 "$TMPD/client.log")"
"$PY" "$HERE/nc_client.py" mount $((port + 1)) $K $J \
    >"$TMPD/client2.log" 2>&1 ||
    fail "nc_client.py mount: $(tail -3 "$TMPD/client2.log")"
wait_exit "$pid" 30 || fail "sbsim netconf did not end when all was done"
[ "$EXIT_RC" -eq 0 ] || fail "sbsim netconf exited $EXIT_RC"

R="$TMPD/r.json"
ph() { json_get "$R" "[p for p in r['phases'] if p['name']=='$1'][0]$2"; }
ctr() { json_get "$R" "r['counters'].get('$1', 0)"; }
[ "$(json_get "$R" "r['ok']")" = True ] || fail "report not ok"
for p in connect mount; do
	[ "$(ph $p "['items']")" = $N ] || fail "$p items $(ph $p "['items']")"
done
[ "$(ph program "['items']")" = 3 ] || fail "program items"
[ "$(ph learn "['items']")" = $((N * K * J)) ] || fail "learn items"
for c in framing_errors:1 hello_errors:1 xml_errors:2 sessions_killed:1 \
    rpc_error_operation_not_supported:1 rpc_error_missing_attribute:1 \
    rpc_error_malformed_message:1 rpc_error_lock_denied:1 \
    rpc_error_in_use:1 rpc_error_data_exists:1 \
    rpc_error_unknown_namespace:1 notifications_sent:$((N * K)) \
    notification_prefixes_sent:$((N * K * J)) rpc_create_subscription:3; do
	v=$(ctr "${c%%:*}")
	[ "$v" = "${c#*:}" ] || fail "counter ${c%%:*} is $v, expected ${c#*:}"
done
stop_pid "$pid"
exit 0
