#!/bin/bash
# sbsim merge checks every number it reads before adding it (type,
# range, whole where a count must be): a report with "items": 1e308, a
# string or negative target, a fractional counter, a negative timeline
# second or a time that is not a number is refused, exit 2, one line
# naming the file, the phase and the field (src/run/merge_check.c).
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"

port=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow "ptcp:$port:127.0.0.1" \
    --duration 30
wait_listen "$port" || fail "controller did not listen on $port"
"$SBSIM" openflow --switches 2 --controller "tcp:127.0.0.1:$port" \
    --timeout 20 --report "$TMPD/r.json" -q >"$TMPD/run.log" 2>&1 ||
    fail "the run exited $?"
stop_pid "$LAST_PID"

"$PY" - "$TMPD" <<'PYEOF' || fail "making the bad reports"
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/r.json"))
def bad(name, edit):
    q = json.loads(json.dumps(r))
    edit(q)
    json.dump(q, open(d + "/" + name + ".json", "w"))
ph = lambda q, i: q["phases"][i]
bad("huge", lambda q: ph(q, 0).update(items=1e308))
bad("str", lambda q: ph(q, 0).update(target="12"))
bad("neg", lambda q: ph(q, 0).update(target=-5))
bad("noitems", lambda q: ph(q, 0).pop("items"))
bad("frac", lambda q: q["counters"].update(flow_mods=2.5))
bad("bigctr", lambda q: q["counters"].update(flow_mods=2**63 - 1))
bad("tl", lambda q: ph(q, 0).update(timeline=[1, -1]))
bad("time", lambda q: ph(q, 0).update(first_s="soon"))
bad("inf", lambda q: ph(q, 0).update(end_s=1e300))
bad("hist", lambda q: ph(q, 0)["latency_hist"].update(sum=-1))
bad("cpu", lambda q: ph(q, 0)["cost"]["sbsim"].update(cpu_s=[]))
# Whole reals are counts still ("%.15g" writes 1e+15 from there on).
bad("whole", lambda q: ph(q, 0).update(items=float(ph(q, 0)["items"])))
PYEOF
name=$(json_get "$TMPD/r.json" 'r["phases"][0]["name"]')
FAILS=0
R=$TMPD/r.json
bad_usage merge "huge.json: phase '$name': items: 1e\+?308 is not a whole number from 0 to 2\^53" "$R" "$TMPD/huge.json"
bad_usage merge "str.json: phase '$name': target: \"12\" is not a whole number" "$R" "$TMPD/str.json"
bad_usage merge "neg.json: phase '$name': target: -5 is not a whole number" "$R" "$TMPD/neg.json"
bad_usage merge "noitems.json: phase '$name': items: missing is not" "$R" "$TMPD/noitems.json"
bad_usage merge "frac.json: counters.flow_mods: 2.5 is not a whole number" "$R" "$TMPD/frac.json"
bad_usage merge "bigctr.json: counters.flow_mods: 9223372036854775807 is not" "$R" "$TMPD/bigctr.json"
bad_usage merge "tl.json: phase '$name': timeline\[1\]: -1 is not" "$R" "$TMPD/tl.json"
bad_usage merge "time.json: phase '$name': first_s: \"soon\" is not a number" "$R" "$TMPD/time.json"
bad_usage merge "inf.json: phase '$name': end_s: 1e\+?300 is not a number" "$R" "$TMPD/inf.json"
bad_usage merge "hist.json: phase '$name': latency_hist.sum: -1 is not" "$R" "$TMPD/hist.json"
bad_usage merge "cpu.json: phase '$name': cost.sbsim.cpu_s: \[\] is not" "$R" "$TMPD/cpu.json"
[ "$FAILS" -eq 0 ] || fail "$FAILS bad numbers not refused as they should be"

# The good ones still merge, and so does a merged report.
"$SBSIM" merge "$R" "$TMPD/whole.json" --report "$TMPD/m.json" -q ||
    fail "merge of good reports exited $?"
"$SBSIM" merge "$TMPD/m.json" "$R" -q || fail "merge of a merged report exited $?"
items=$(json_get "$TMPD/r.json" 'r["phases"][0]["items"]')
[ "$(json_get "$TMPD/m.json" 'r["phases"][0]["items"]')" = $((2 * items)) ] ||
    fail "merged items: $(json_get "$TMPD/m.json" 'r["phases"][0]["items"]')"
echo "merge: each number checked, bad ones refused naming file, phase, field"
