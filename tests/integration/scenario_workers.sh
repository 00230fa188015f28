#!/bin/bash
# sbsim run SCENARIO --workers N and --shard I/N (docs/guide.md,
# "Scenarios"): a scenario of OpenFlow switches, BGP peers and PCEP PCCs
# against one embedded controller counts the same in one process, in 2
# workers (the parent merging their reports, each run of --repeat in
# fresh ones) and as --shard 0/2 and 1/2 merged with sbsim merge; a
# group's --fault is split over the workers; a worker killed fails the
# run, named; a group that cannot be sliced, or has fewer devices than
# shards, is a usage error naming the group.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss

base=$(free_ports 3)
OFP=$base BGPP=$((base + 1)) PCEPP=$((base + 2))
NET=$(( (RANDOM % 200) + 20 ))

# $1: the file; $2: more options of the BGP group.
scenario() {
	cat >"$1" <<EOS
{
  "sbsim-scenario:scenario": {
    "option": [{"name": "timeout", "value": ["20"]}],
    "group": [
      {"name": "of", "protocol": "openflow", "count": 6,
       "controller": "tcp:127.0.0.1:$OFP",
       "option": [{"name": "expect-flows", "value": ["120"]}]},
      {"name": "bgp", "protocol": "bgp", "count": 3,
       "controller": "tcp:127.0.0.1:$BGPP",
       "option": [{"name": "prefixes", "value": ["50"]},
                  {"name": "as", "value": ["65001"]},
                  {"name": "peer-as", "value": ["65000"]},
                  {"name": "source", "value": ["127.$NET.0.1/24"]},
                  {"name": "withdraw"}$2]},
      {"name": "pcep", "protocol": "pcep", "count": 4,
       "controller": "tcp:127.0.0.1:$PCEPP",
       "option": [{"name": "lsps", "value": ["5"]}]}
    ]
  }
}
EOS
}
scenario "$TMPD/s.json" ""
scenario "$TMPD/mon.json" ',
                  {"name": "monitor", "value": ["tcp:127.0.0.1:1"]}'
sed 's/"withdraw"}/"withdraw"}, {"name": "shard", "value": ["0\/2"]}/' \
    "$TMPD/s.json" >"$TMPD/gshard.json"

bad_usage run "group 'bgp': --workers does not go with --monitor" \
    "$TMPD/mon.json" --workers 2
bad_usage run "group 'bgp': --shard does not go with --monitor" \
    "$TMPD/mon.json" --shard 1/2
bad_usage run "--workers: group 'bgp': 4 shards for 3 devices" \
    "$TMPD/s.json" --workers 4
bad_usage run "--shard: group 'bgp': 4 shards for 3 devices" \
    "$TMPD/s.json" --shard 3/4
bad_usage run "--workers does not go with --sweep" "$TMPD/s.json" \
    --workers 2 --sweep 2,4
bad_usage run "--workers does not go with --shard" "$TMPD/s.json" \
    --workers 2 --shard 0/2
bad_usage run "--shard does not go with --sweep" "$TMPD/s.json" \
    --shard 0/2 --sweep 2,4
bad_usage run "--shard belongs to the whole run" "$TMPD/gshard.json"
[ "$FAILS" -eq 0 ] || fail "$FAILS bad arguments not refused"

start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow ptcp:$OFP \
    --flows-per-switch 20 --read-stats --delete all --bgp ptcp:$BGPP:127.0.0.1 --as 65000 \
    --pcep ptcp:$PCEPP:127.0.0.1
ctl=$LAST_PID
wait_listen $OFP && wait_listen $BGPP && wait_listen $PCEPP ||
    fail "the controller does not listen"

exp="--expect of.program.items==120 --expect counters.bgp.prefixes_sent==150"
timeout 60 "$SBSIM" run "$TMPD/s.json" $exp --report "$TMPD/one.json" -q \
    >"$TMPD/one.log" 2>&1 || fail "one process exited $?: $(cat "$TMPD/one.log")"
timeout 60 "$SBSIM" run "$TMPD/s.json" $exp --workers 2 \
    --report "$TMPD/w.json" --junit "$TMPD/w.xml" >"$TMPD/w.out" \
    2>"$TMPD/w.log" || fail "--workers 2 exited $?: $(cat "$TMPD/w.log")"
grep -q '^result: ok' "$TMPD/w.out" || fail "no ok: $(cat "$TMPD/w.out")"
grep -q 'failures="0"' "$TMPD/w.xml" || fail "JUnit failures"
# --repeat 2: the workers forked anew for each run.
timeout 90 "$SBSIM" run "$TMPD/s.json" --workers 2 --repeat 2 \
    --report "$TMPD/rep.json" -q >"$TMPD/rep.log" 2>&1 ||
    fail "--workers 2 --repeat 2 exited $?: $(cat "$TMPD/rep.log")"
[ "$(json_get "$TMPD/rep.json" '(r["ok"], r["repeat"], [[(p["name"], p["items"]) for p in x["phases"] if p["name"] in ("of.program", "pcep.sync")] for x in r["runs"]])')" = \
    "(True, 2, [[('of.program', 120), ('pcep.sync', 20)], [('of.program', 120), ('pcep.sync', 20)]])" ] ||
    fail "--workers 2 --repeat 2: $(head -c 800 "$TMPD/rep.json")"
pids=
for i in 0 1; do
	timeout 60 "$SBSIM" run "$TMPD/s.json" --shard $i/2 \
	    --report "$TMPD/s$i.json" -q >"$TMPD/s$i.log" 2>&1 &
	pids="$pids $!"
done
for p in $pids; do
	wait "$p" || fail "a --shard run exited $?: $(cat "$TMPD"/s?.log)"
done
"$SBSIM" merge "$TMPD/s0.json" "$TMPD/s1.json" --report "$TMPD/m.json" -q ||
    fail "sbsim merge of the shards exited $?"

# The counts each run must have; BGP's received routes depend on when
# the controller reflects the others' (not compared).
"$PY" - "$TMPD" <<'PYEOF' || fail "the merged reports differ"
import json, sys
d = sys.argv[1]
def load(n):
    return json.load(open("%s/%s.json" % (d, n)))
want = {"of.connect": 6, "of.program": 120, "of.confirm": 120,
        "of.delete": 120, "bgp.connect": 3,
        "bgp.announce": 150, "bgp.withdraw": 150, "pcep.connect": 4,
        "pcep.sync": 20}
counters = ["of.flows_added", "of.flows_deleted", "of.flow_mods", "of.barriers",
            "of.connect_attempts", "bgp.prefixes_sent",
            "bgp.withdrawals_sent", "bgp.updates_sent", "bgp.connect_attempts",
            "pcep.connect_attempts"]
one = load("one")
def phases(r):
    return [(p["name"], p["state"], p["items"]) for p in r["phases"]]
for name in ["one", "w", "m"]:
    r = load(name)
    if r["ok"] is not True:
        sys.exit("%s: not ok" % name)
    ph = {p["name"]: p for p in r["phases"]}
    for p, n in want.items():
        if ph[p]["state"] != "DONE" or ph[p]["items"] != n:
            sys.exit("%s: %s %s %d, want %d" % (name, p, ph[p]["state"],
                     ph[p]["items"], n))
    if phases(r) != phases(one):
        sys.exit("%s: phases %r, one process %r" % (name, phases(r),
                 phases(one)))
    for c in counters:
        if r["counters"][c] != one["counters"][c]:
            sys.exit("%s: %s %d, one process %d" % (name, c,
                     r["counters"][c], one["counters"][c]))
    if name == "w" and len(r["expectations"]) != 2:
        sys.exit("w: expectations %r" % r["expectations"])
# sbsim merge: each histogram the shards' to the bucket.
s = [load("s0"), load("s1")]
for p in load("m")["phases"]:
    h = p["latency_hist"]
    sum_ = {}
    for r in s:
        for q in r["phases"]:
            if q["name"] == p["name"]:
                for b, n in q["latency_hist"]["buckets"]:
                    sum_[b] = sum_.get(b, 0) + n
    if dict((b, n) for b, n in h["buckets"]) != sum_:
        sys.exit("%s: buckets %r, the shards' %r" % (p["name"],
                 h["buckets"], sum_))
PYEOF

# A group's --fault over 2 workers: the given times once each.
cat >"$TMPD/f.json" <<EOS
{
  "sbsim-scenario:scenario": {
    "option": [{"name": "duration", "value": ["3"]}],
    "group": [
      {"name": "sw", "protocol": "openflow", "count": 4,
       "controller": "tcp:127.0.0.1:$OFP",
       "option": [{"name": "fault", "value": ["drop@1,1.5,2"]}]}
    ]
  }
}
EOS
timeout 60 "$SBSIM" run "$TMPD/f.json" --workers 2 --report "$TMPD/f.json.r" \
    -q >"$TMPD/f.log" 2>&1 || fail "--workers 2 with a fault exited $?"
got=$(json_get "$TMPD/f.json.r" '(r["counters"]["sw.fault_drop"], r["counters"]["sw.disconnects"])')
[ "$got" = "(3, 3)" ] || fail "drop@1,1.5,2 over 2 workers: $got"

# A worker killed: the run fails (exit 1), the parent naming it.
start_bg "$TMPD/k.log" "$SBSIM" run "$TMPD/f.json" --workers 2 \
    --report "$TMPD/k.json" -q
parent=$LAST_PID
kids=$(wait_children "$parent" 2) || fail "no 2 workers: '$kids'"
victim=$(echo $kids | awk '{print $2}')
sleep 1.5	# a progress line (every half second) after connecting
kill -KILL "$victim"
wait_exit "$parent" 20 || fail "the parent did not end after a worker died"
[ "$EXIT_RC" -eq 1 ] || fail "a killed worker: exit $EXIT_RC, want 1"
grep -qE "worker 1 of 2 \(pid $victim, devices of group 'sw' 2 to 3\) was killed by signal 9" \
    "$TMPD/k.log" || fail "no failure line: $(cat "$TMPD/k.log")"

stop_pid "$ctl"
exit 0
