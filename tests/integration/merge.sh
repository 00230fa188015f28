#!/bin/bash
# sbsim merge: three `sbsim openflow` parts of one run (switches with
# disjoint datapath ids) against one embedded controller, merged: every
# count is the parts' sum, the merged latency histogram is the bin-wise
# sum of the parts' and its percentiles are taken again from it; a part
# that timed out makes the merge fail (exit 1); bad input is refused
# (exit 2, one line).
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
PARTS=3
N=3		# switches per part
K=40		# flows per switch

port=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow ptcp:$port \
    --switches $((PARTS * N)) --flows-per-switch $K --read-stats \
    --delete all --exit-when-done
ctl=$LAST_PID
wait_listen "$port" || fail "controller did not listen on $port"
pids=""
for i in $(seq 0 $((PARTS - 1))); do
	start_bg "$TMPD/part$i.log" "$SBSIM" openflow --switches $N \
	    --dpid-base $((1 + i * N)) --controller tcp:127.0.0.1:$port \
	    --expect-flows $((N * K)) --timeout 20 --report "$TMPD/p$i.json" -q
	pids="$pids $LAST_PID"
done
for p in $pids; do
	wait_exit "$p" 30 || fail "a part did not end"
	[ "$EXIT_RC" -eq 0 ] || fail "a part exited $EXIT_RC"
done
wait_exit "$ctl" 15 || fail "controller did not exit when done"

"$SBSIM" merge "$TMPD"/p0.json "$TMPD"/p1.json "$TMPD"/p2.json \
    --report "$TMPD/m.json" --csv "$TMPD/m.csv" --junit "$TMPD/m.xml" \
    --expect "program.items==$((PARTS * N * K))" >"$TMPD/merge.out" 2>&1 ||
    fail "merge exited $?: $(cat "$TMPD/merge.out")"
grep -q '^result: ok' "$TMPD/merge.out" || fail "no ok in the table"
[ -s "$TMPD/m.csv" ] && grep -q 'failures="0"' "$TMPD/m.xml" ||
    fail "CSV or JUnit of the merge"

"$PY" - "$TMPD/m.json" "$TMPD"/p0.json "$TMPD"/p1.json "$TMPD"/p2.json \
    "$((PARTS * N))" "$((PARTS * N * K))" <<'PYEOF' || fail "merged report"
import json, math, sys
m = json.load(open(sys.argv[1]))
parts = [json.load(open(f)) for f in sys.argv[2:5]]
nsw, total = int(sys.argv[5]), int(sys.argv[6])
def die(msg):
    print("merge:", msg, file=sys.stderr)
    sys.exit(1)

def bin_value(i, h):
    b, s = divmod(i, 1 << h["sub_bits"])
    if b == 0:
        lo, width = s, 1
    else:
        lo, width = ((1 << h["sub_bits"]) + s) << (b - 1), 1 << (b - 1)
    return min(max(lo + (width - 1) // 2, h["min"]), h["max"])

def percentile(h, p):
    if h["count"] == 0:
        return 0
    rank = max(1, math.ceil(p / 100.0 * h["count"]))
    seen = 0
    for i, c in sorted(h["buckets"]):
        seen += c
        if seen >= rank:
            return bin_value(i, h)
    return h["max"]

if m["ok"] is not True or m["repeat"] != 1:
    die("ok %r repeat %r" % (m["ok"], m["repeat"]))
if m["start_unix_ns"] != min(p["start_unix_ns"] for p in parts):
    die("start_unix_ns is not the earliest part's")
want = {"connect": nsw, "program": total, "confirm": total, "delete": total}
names = [p["name"] for p in m["phases"]]
if names != [p["name"] for p in parts[0]["phases"]]:
    die("phases %r" % names)
for i, ph in enumerate(m["phases"]):
    pp = [p["phases"][i] for p in parts]
    if ph["state"] != "DONE":
        die("%s: %s" % (ph["name"], ph["state"]))
    for k in ("items", "target"):
        if ph[k] != sum(q[k] for q in pp):
            die("%s.%s = %r, parts %r" % (ph["name"], k, ph[k],
                [q[k] for q in pp]))
    if ph["items"] != want[ph["name"]]:
        die("%s: %d items, want %d" % (ph["name"], ph["items"],
            want[ph["name"]]))
    if sum(ph["timeline"]) != ph["items"]:
        die("%s: timeline sums to %d" % (ph["name"], sum(ph["timeline"])))
    # The histogram, to the bin.
    summed = {}
    for q in pp:
        for idx, c in q["latency_hist"]["buckets"]:
            summed[idx] = summed.get(idx, 0) + c
    h = ph["latency_hist"]
    if dict((i, c) for i, c in h["buckets"]) != summed:
        die("%s: merged bins are not the sum of the parts'" % ph["name"])
    for k in ("count", "sum"):
        if h[k] != sum(q["latency_hist"][k] for q in pp):
            die("%s: latency_hist.%s" % (ph["name"], k))
    if h["count"] == 0:
        die("%s: no latency" % ph["name"])
    if h["max"] != max(q["latency_hist"]["max"] for q in pp) or \
       h["min"] != min(q["latency_hist"]["min"] for q in pp if
                       q["latency_hist"]["count"]):
        die("%s: min/max" % ph["name"])
    if ph["latency_us"]["samples"] != h["count"]:
        die("%s: samples" % ph["name"])
    for p in (50, 90, 99):
        got = ph["latency_us"]["p%d" % p]
        if got != percentile(h, p):
            die("%s: p%d = %r, the merged histogram says %r" %
                (ph["name"], p, got, percentile(h, p)))
    # Windows: the earliest trigger and first, the latest last and end.
    def absns(r, q, k):
        return r["start_unix_ns"] + q[k] * 1e9
    for k, f in (("trigger_s", min), ("first_s", min), ("last_s", max),
                 ("end_s", max)):
        exp = f(absns(r, r["phases"][i], k) for r in parts)
        got = absns(m, ph, k)
        if abs(got - exp) > 1000:
            die("%s.%s: %r, want %r" % (ph["name"], k, got, exp))
c = m["counters"]
for k in ("flows_added", "flows_deleted", "rx_messages", "tx_messages",
          "connect_attempts", "sbsim_cpu_user_ms"):
    if c[k] != sum(p["counters"][k] for p in parts):
        die("counter %s = %d, parts %r" % (k, c[k],
            [p["counters"][k] for p in parts]))
if c["sbsim_max_rss_kb"] != max(p["counters"]["sbsim_max_rss_kb"]
                                for p in parts):
    die("sbsim_max_rss_kb is not the largest part's")
if c["flows_added"] != total:
    die("flows_added %d" % c["flows_added"])
if m["expectations"][0]["ok"] is not True:
    die("expectation %r" % m["expectations"][0])
PYEOF

# A part whose connect timed out (no controller any more): the merge
# fails, exit 1, and says which part.
timeout 20 "$SBSIM" openflow --switches 1 --dpid-base 100 \
    --controller tcp:127.0.0.1:$port --expect-flows $K --timeout 0.5 \
    --backoff 50:100 --report "$TMPD/bad.json" -q >"$TMPD/bad.log" 2>&1
[ $? -eq 1 ] || fail "a part against nothing did not fail"
"$SBSIM" merge "$TMPD"/p0.json "$TMPD/bad.json" --report "$TMPD/mb.json" \
    >"$TMPD/mb.out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "merge with a timed-out part exited $rc"
grep -q "bad.json was not ok" "$TMPD/mb.out" || fail "no part named"
[ "$(json_get "$TMPD/mb.json" 'r["ok"], r["phases"][0]["state"]')" = \
    "(False, 'TIMEOUT')" ] || fail "merged state: $(cat "$TMPD/mb.json")"
# The state alone (a part that still said ok) fails it too.
"$PY" - "$TMPD/p1.json" "$TMPD/to.json" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
r["phases"][2]["state"] = "TIMEOUT"
json.dump(r, open(sys.argv[2], "w"))
PYEOF
"$SBSIM" merge "$TMPD"/p0.json "$TMPD/to.json" -q
[ $? -eq 1 ] || fail "merge with a TIMEOUT phase did not fail"

# Bad input: exit 2, one line naming what is wrong.
echo 'not json' >"$TMPD/junk.json"
echo '{"tool": "other", "phases": []}' >"$TMPD/other.json"
"$PY" - "$TMPD/p0.json" "$TMPD" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
d = sys.argv[2]
q = dict(r); q["repeat"] = 2
json.dump(q, open(d + "/rep.json", "w"))
q = dict(r); q["phases"] = r["phases"][:2]
json.dump(q, open(d + "/fewer.json", "w"))
q = json.loads(json.dumps(r)); q["phases"][0]["protocol"] = "bgp"
json.dump(q, open(d + "/proto.json", "w"))
q = dict(r); del q["start_unix_ns"]
json.dump(q, open(d + "/old.json", "w"))
q = json.loads(json.dumps(r)); q["phases"][1]["latency_hist"]["buckets"] = [[99999, 1]]
json.dump(q, open(d + "/hist.json", "w"))
q = json.loads(json.dumps(r)); del q["phases"][0]["name"]
json.dump(q, open(d + "/noname.json", "w"))
q = json.loads(json.dumps(r)); q["phases"] = [r["phases"][0]] * 200
json.dump(q, open(d + "/many.json", "w"))
PYEOF
bad_usage merge "is required"
bad_usage merge "missing.json" "$TMPD/missing.json"
bad_usage merge "junk.json" "$TMPD/junk.json"
bad_usage merge "not an sbsim JSON report" "$TMPD/other.json"
bad_usage merge "--repeat" "$TMPD/p0.json" "$TMPD/rep.json"
bad_usage merge "different phases" "$TMPD/p0.json" "$TMPD/fewer.json"
bad_usage merge "differ in their phase 1" "$TMPD/p0.json" "$TMPD/proto.json"
bad_usage merge "no start_unix_ns" "$TMPD/old.json"
bad_usage merge "latency_hist bucket" "$TMPD/p0.json" "$TMPD/hist.json"
bad_usage merge "phase 1 has no name" "$TMPD/noname.json"
bad_usage merge "more than 128 phases" "$TMPD/many.json"
bad_usage merge "no phase 'nope'" "$TMPD/p0.json" --expect 'nope.items>1'
bad_usage merge "unrecognized|unknown" "$TMPD/p0.json" --bogus
[ "$FAILS" -eq 0 ] || fail "$FAILS bad inputs not refused as they should be"
exit 0
