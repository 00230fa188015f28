#!/bin/bash
# A confirm the controller never drove is not a failure: against a
# controller that pushes flows and never reads them back (sbsim controller
# --flows-per-switch K, no --read-stats), `sbsim openflow --expect-flows N`
# ends with program DONE and confirm not observed (PENDING), ok, whether
# the run ends at --duration with confirm still waiting or by itself; so
# do its shards, and `sbsim merge` of them is ok.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
N=3		# switches
K=4		# flows per switch

port=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow ptcp:$port \
    --flows-per-switch $K --duration 120
ctl=$LAST_PID
wait_listen "$port" || fail "controller did not listen on $port"

# check NAME: program DONE, confirm PENDING with nothing, the run ok.
check() {
	"$PY" - "$TMPD/$1.json" $((N * K)) "$2" <<'PYEOF' || fail "$1: report"
import json, sys
r = json.load(open(sys.argv[1]))
want, items = int(sys.argv[2]), int(sys.argv[3])
ph = {p["name"]: p for p in r["phases"]}
if ph["program"]["state"] != "DONE" or ph["program"]["items"] != items:
    sys.exit("program %s %s" % (ph["program"]["state"], ph["program"]["items"]))
if ph["confirm"]["state"] != "PENDING" or ph["confirm"]["items"] != 0:
    sys.exit("confirm %s %s" % (ph["confirm"]["state"], ph["confirm"]["items"]))
if r["ok"] is not True or r["interrupted"] is not False:
    sys.exit("ok %r interrupted %r" % (r["ok"], r["interrupted"]))
PYEOF
}

# One process: to --duration, confirm still waiting for its first stats.
timeout 30 "$SBSIM" openflow --switches $N --controller tcp:127.0.0.1:$port \
    --expect-flows $((N * K)) --duration 2 --report "$TMPD/one.json" -q \
    >"$TMPD/one.log" 2>&1 || fail "one process: exit $?"
check one $((N * K))

# Three shards started together, merged.
at=$("$PY" -c 'import time; print("%.3f" % (time.time() + 1.5))')
pids=""
for i in 0 1 2; do
	start_bg "$TMPD/s$i.log" timeout 30 "$SBSIM" openflow --switches $N \
	    --controller tcp:127.0.0.1:$port --expect-flows $((N * K)) \
	    --duration 2 --shard $i/3 --start-at "$at" \
	    --report "$TMPD/s$i.json" -q
	pids="$pids $LAST_PID"
done
for p in $pids; do
	wait_exit "$p" 30 || fail "a shard did not end"
	[ "$EXIT_RC" -eq 0 ] || fail "a shard exited $EXIT_RC"
done
"$SBSIM" merge "$TMPD/s0.json" "$TMPD/s1.json" "$TMPD/s2.json" \
    --report "$TMPD/merged.json" >"$TMPD/merge.log" 2>&1 ||
    fail "sbsim merge of the shards: exit $?"
check merged $((N * K))
for i in 0 1 2; do
	check s$i $K
done
stop_pid "$ctl"
echo "confirm not driven: ok in one process and in three merged shards"
