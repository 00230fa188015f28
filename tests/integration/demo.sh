#!/bin/bash
# `sbsim demo`, the README's main job: it starts its own controller,
# ends by itself with every phase DONE, and leaves no process behind.
. "$(dirname "$0")/../lib.sh"
timeout 60 "$SBSIM" demo --report "$TMPD/demo.json" >"$TMPD/demo.log" 2>&1 ||
    fail "sbsim demo exited $?"
grep -q "result: ok" "$TMPD/demo.log" || fail "no 'result: ok' in the table"
ok=$(json_get "$TMPD/demo.json" 'r["ok"]')
[ "$ok" = True ] || fail "report says ok=$ok"
n=$(json_get "$TMPD/demo.json" \
    '[p["items"] for p in r["phases"] if p["name"]=="confirm"][0]')
[ "$n" = 5000 ] || fail "confirm saw $n flows, want 5000"
pid=$(sed -n 's/.*embedded controller (pid \([0-9]*\)).*/\1/p' "$TMPD/demo.log")
[ -n "$pid" ] || fail "demo did not say its controller's pid"
! kill -0 "$pid" 2>/dev/null || fail "the demo's controller $pid is still running"
echo "sbsim demo: ok, 5000 flows confirmed, controller gone"
