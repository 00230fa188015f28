#!/bin/bash
# Malformed and unfriendly JSON-RPC against a passive sbsim ovsdb device
# (ovsdb_malformed.py): the answers ovsdb-server gives (unknown method,
# errors in the result array), the connection closed for what is not
# JSON-RPC, a message over --max-message, a client that never reads
# (--max-output), one that stays silent (--inactivity-probe), one past
# --max-sessions; the device survives and counts it all.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
HERE=$(cd "$(dirname "$0")" && pwd)
port=$(free_ports 1)
start_bg "$TMPD/sim.log" "$SBSIM" ovsdb --devices 1 \
    --controller ptcp:$port:127.0.0.1 --max-message 100000 \
    --max-output 65536 --inactivity-probe 0.5 --max-sessions 4 \
    --duration 120 \
    --report "$TMPD/sim.json" -q
sim=$LAST_PID
wait_listen "$port" || fail "sbsim does not listen"
timeout 100 "$PY" "$HERE/ovsdb_malformed.py" "$port" \
    >"$TMPD/client.log" 2>&1 || fail "$(cat "$TMPD/client.log")"
cat "$TMPD/client.log"
kill -0 "$sim" 2>/dev/null || fail "sbsim died"
stop_pid "$sim"
"$PY" - "$TMPD/sim.json" <<'PYEOF' || fail "counters"
import json, sys
c = json.load(open(sys.argv[1]))["counters"]
want = {"sessions_refused": 1, "unknown_methods": 1, "transact_errors": 4, "errors_sent": 2,
        "decode_errors": 2, "invalid_messages": 2, "oversized_messages": 1,
        "output_overflows": 1, "probe_timeouts": 1, "echo_sent": 2,
        "echo_replies": 1, "echo_received": 1}
for k, v in want.items():
    if c.get(k, 0) < v:
        sys.exit("%s = %r, want at least %d" % (k, c.get(k), v))
PYEOF
exit 0
