#!/bin/bash
# sbsim ovsdb in active mode against a small OVSDB manager
# (ovsdb_manager.py): every device connects from its own address of
# 127.1.0.0/16, serves list_dbs, get_schema, monitor_cond, a transaction
# that adds br-int and the update2 for it, echo both ways; a device whose
# session the manager closes reconnects with its database; the connect
# and learn phases and the counters in the report.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
HERE=$(cd "$(dirname "$0")" && pwd)
port=$(free_ports 1)
N=5
start_bg "$TMPD/manager.log" "$PY" "$HERE/ovsdb_manager.py" "$port" $N
mgr=$LAST_PID
wait_listen "$port" || fail "the manager did not listen"
start_bg "$TMPD/sim.log" "$SBSIM" ovsdb --devices $N \
    --controller tcp:127.0.0.1:$port --backoff 50:200 --duration 60 \
    --report "$TMPD/sim.json"
sim=$LAST_PID
wait_exit "$mgr" 50 || fail "the manager did not finish"
[ "$EXIT_RC" -eq 0 ] || fail "manager: $(cat "$TMPD/manager.log")"
cat "$TMPD/manager.log"
kill -0 "$sim" 2>/dev/null || fail "sbsim died"
stop_pid "$sim"
[ "$(json_get "$TMPD/sim.json" '[(p["items"], p["state"]) for p in r["phases"] if p["name"] == "connect"][0]')" = "($N, 'DONE')" ] ||
    fail "connect phase: $(json_get "$TMPD/sim.json" 'r["phases"]')"
# The manager's monitor_cond names Open_vSwitch: it learned every device.
[ "$(json_get "$TMPD/sim.json" '[(p["items"], p["state"]) for p in r["phases"] if p["name"] == "learn"][0]')" = "($N, 'DONE')" ] ||
    fail "learn phase: $(json_get "$TMPD/sim.json" 'r["phases"]')"
"$PY" - "$TMPD/sim.json" $N <<'PYEOF' || fail "counters"
import json, sys
c = json.load(open(sys.argv[1]))["counters"]
n = int(sys.argv[2])
want = {"sessions": n + 1, "transacts": n + 1, "monitors": n,
        "updates_sent": n, "echo_received": n, "connect_attempts": n + 1}
for k, v in want.items():
    if c.get(k, 0) < v:
        sys.exit("%s = %r, want at least %d" % (k, c.get(k), v))
if c.get("decode_errors", 0) or c.get("invalid_messages", 0):
    sys.exit("errors: %r" % c)
PYEOF
exit 0
