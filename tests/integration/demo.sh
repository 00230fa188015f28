#!/bin/bash
# `sbsim demo`, the README's main job: it starts its own controller with
# every role, runs the mixed scenario (OpenFlow, BGP, PCEP, NETCONF) in one
# process, ends by itself with every phase DONE and the counts exact, and
# leaves no process and no scenario file behind.
. "$(dirname "$0")/../lib.sh"
TMPDIR=$TMPD timeout 60 "$SBSIM" demo --report "$TMPD/demo.json" >"$TMPD/demo.log" 2>&1 ||
    fail "sbsim demo exited $?"
grep -q "result: ok" "$TMPD/demo.log" || fail "no 'result: ok' in the table"
ok=$(json_get "$TMPD/demo.json" 'r["ok"]')
[ "$ok" = True ] || fail "report says ok=$ok"
got=$(json_get "$TMPD/demo.json" '(all(p["state"] == "DONE" for p in r["phases"]),
    {p["name"]: p["items"] for p in r["phases"] if p["name"] in
     ("of.confirm", "bgp.learn", "bgp.withdraw", "pcep.update",
      "nc.mounted", "nc.confirm")})')
want="(True, {'of.confirm': 5000, 'bgp.learn': 10000, 'bgp.withdraw': 10000,"
want="$want 'pcep.update': 300, 'nc.mounted': 20, 'nc.confirm': 40})"
[ "$got" = "$want" ] || fail "the demo's report: $got"
pid=$(sed -n 's/.*embedded controller (pid \([0-9]*\)).*/\1/p' "$TMPD/demo.log")
[ -n "$pid" ] || fail "demo did not say its controller's pid"
! kill -0 "$pid" 2>/dev/null || fail "the demo's controller $pid is still running"
ls "$TMPD"/sbsim-demo.*.json 2>/dev/null | grep -q . &&
    fail "the demo left its scenario file"
echo "sbsim demo: ok, 4 protocols in one run, controller gone"
