#!/bin/bash
# --connect-timeout: a controller whose accept queue is full drops the
# SYNs of new connects, which the kernel retries for about two minutes;
# each such connect held one of --connect-inflight's slots all that
# time.  Now a connect not done in --connect-timeout seconds is given up,
# counted (connect_timeouts) and tried again after the backoff.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
bad_usage openflow "--connect-timeout: 'x' is not" --switches 1 \
    --controller tcp:127.0.0.1:6653 --connect-timeout x
bad_usage openflow "--connect-timeout: '4000' is not" --switches 1 \
    --controller tcp:127.0.0.1:6653 --connect-timeout 4000
[ "$FAILS" -eq 0 ] || fail "$FAILS usage errors were not reported"

port=$(free_ports 1)
# A listener that never accepts, its queue filled by connects of its own.
cat >"$TMPD/full.py" <<'PYEOF'
import socket, sys, time
port = int(sys.argv[1])
ls = socket.socket()
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(("127.0.0.1", port))
ls.listen(0)
held = []
for i in range(4):
    c = socket.socket()
    c.setblocking(False)
    try:
        c.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    held.append(c)
print("full", flush=True)
time.sleep(60)
PYEOF
start_bg "$TMPD/full.log" "$PY" "$TMPD/full.py" "$port"
full=$LAST_PID
# Its queue is full once it says so (however slow the host).
end=$((SECONDS + 30))
until grep -q '^full$' "$TMPD/full.log"; do
	[ $SECONDS -lt $end ] && kill -0 "$full" 2>/dev/null ||
	    fail "the full listener did not start: $(cat "$TMPD/full.log")"
	sleep 0.05
done
timeout 20 "$SBSIM" openflow --switches 3 --controller tcp:127.0.0.1:$port \
    --connect-timeout 0.5 --backoff 100:200 --timeout 3 \
    --report "$TMPD/r.json" >"$TMPD/sw.log" 2>&1
rc=$?
# SIGTERM: a background job of a script ignores SIGINT (stop_pid's).
kill "$full"
wait "$full" 2>/dev/null
cat "$TMPD/sw.log"
[ "$rc" -eq 1 ] || fail "sbsim exited $rc, want 1 (connect TIMEOUT)"
"$PY" - "$TMPD/r.json" <<'PYEOF' || fail "the report"
import json, sys
r = json.load(open(sys.argv[1]))
c = r["counters"]
print({k: v for k, v in c.items() if k.startswith("connect")})
# 3 switches each given up at 0.5 s and retried within 3 s: 2 rounds at
# least (the kernel's own timeout would give none).
if c.get("connect_timeouts", 0) < 6:
    sys.exit("connect_timeouts %r" % c.get("connect_timeouts"))
if c["connect_failures"] < c["connect_timeouts"]:
    sys.exit("timeouts are failures too")
if r["ok"] is not False:
    sys.exit("ok is %r" % r["ok"])
PYEOF
exit 0
