#!/bin/bash
# sbsim plot picks its time axis from the run's length: a run of a tenth
# of a second is drawn in milliseconds, each phase a step as wide as it
# took items (not one dot at its second's middle); a 70 s run's axis
# spans the 70 s even when its phases ended in the first second; the
# plot is titled with the scenario file's description, which the
# report's "scenario" now leads with.  --script keeps what gnuplot got.
. "$(dirname "$0")/../lib.sh"
need gnuplot
[ -x "$PY" ] || skip "$PY is not installed"

# Two fabricated reports: a short run and a long one.
"$PY" - "$TMPD" <<'PYEOF' || fail "making the reports"
import json, sys
d = sys.argv[1]
def hist():
    return {"sub_bits": 7, "buckets_n": 34, "count": 0, "min": 0, "max": 0,
            "sum": 0, "buckets": []}
def phase(name, trig, first, last, timeline):
    return {"name": name, "protocol": "openflow", "state": "DONE",
            "items": sum(timeline), "target": sum(timeline),
            "trigger_s": trig, "first_s": first, "last_s": last,
            "end_s": last, "latency_hist": hist(), "timeline": timeline}
def report(name, scenario, end, phases):
    json.dump({"tool": "sbsim", "scenario": scenario, "repeat": 1,
               "start_unix_ns": 1, "end_s": end, "ok": True,
               "phases": phases, "counters": {}}, open(d + "/" + name, "w"))
report("short.json", "short run", 0.12, [
    phase("connect", 0.001, 0.002, 0.032, [10]),
    phase("program", 0.04, 0.041, 0.101, [600])])
report("long.json", "long run", 70.2, [
    phase("connect", 0.0, 0.1, 0.62, [100]),
    phase("soak", 1.0, 1.0, 69.5, [50] * 30 + [0] * 5 + [50] * 34)])
PYEOF

run_cli plot "$TMPD/short.json" -o "$TMPD/short.svg" --script "$TMPD/short.gp"
[ "$RC" -eq 0 ] || fail "plot of the short run exited $RC: $ERR"
grep -q "^set xlabel 'milliseconds since the run started'" "$TMPD/short.gp" ||
    fail "the short run is not drawn in milliseconds: $(cat "$TMPD/short.gp")"
grep -q '^set xrange \[0:120\]' "$TMPD/short.gp" ||
    fail "the short run's axis is not its 120 ms: $(grep xrange "$TMPD/short.gp")"
# connect: 10 items from 2 to 32 ms, a step at 333.3/s across its 30 ms.
"$PY" - "$TMPD/short.gp.dat" <<'PYEOF' || fail "the short run's steps"
import sys
blocks = [b for b in open(sys.argv[1]).read().split("\n\n\n") if b.strip()]
pts = [[tuple(map(float, l.split())) for l in b.split("\n") if l.strip()]
       for b in blocks]
assert len(pts) == 2, pts
(x0, y0), (x1, y1) = pts[0]
assert abs(x0 - 2) < 1e-3 and abs(x1 - 32) < 1e-3, pts[0]
assert abs(y0 - 10 / 0.030) < 0.01 and y0 == y1, pts[0]
(x0, y0), (x1, y1) = pts[1]
assert abs(x1 - x0 - 60) < 1e-3 and abs(y0 - 10000) < 0.01, pts[1]
PYEOF
grep -q "short run" "$TMPD/short.svg" || fail "no title in the SVG"

run_cli plot "$TMPD/long.json" -o "$TMPD/long.svg" --script "$TMPD/long.gp"
[ "$RC" -eq 0 ] || fail "plot of the long run exited $RC: $ERR"
grep -q "^set xlabel 'seconds since the run started'" "$TMPD/long.gp" &&
    grep -q '^set xrange \[0:70.2\]' "$TMPD/long.gp" ||
    fail "the long run's axis: $(grep -E 'xlabel|xrange' "$TMPD/long.gp")"
"$PY" - "$TMPD/long.gp.dat" <<'PYEOF' || fail "the long run's steps"
import sys
blocks = [b for b in open(sys.argv[1]).read().split("\n\n\n") if b.strip()]
assert len(blocks) == 2, len(blocks)
soak = [l for l in blocks[1].split("\n") if l.strip()]
assert len(soak) == 2 * 64, len(soak)
xs = [float(l.split()[0]) for l in soak]
assert xs[0] == 1.0 and abs(xs[-1] - 69.5) < 1e-6, (xs[0], xs[-1])
# The 5 empty seconds break the line once: one blank line, not two.
assert "\n\n" in blocks[1].strip("\n"), "no break"
PYEOF

# A scenario's description titles its report and its plot.
port=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow "ptcp:$port:127.0.0.1" \
    --duration 30
wait_listen "$port" || fail "controller did not listen on $port"
cat >"$TMPD/s.json" <<EOS
{"sbsim-scenario:scenario": {"description": "two switches, one quick look",
  "group": [{"name": "of", "protocol": "openflow", "count": 2,
             "controller": "tcp:127.0.0.1:$port"}]}}
EOS
timeout 30 "$SBSIM" run "$TMPD/s.json" --timeout 20 --report "$TMPD/s-r.json" \
    -q >"$TMPD/run.log" 2>&1 || fail "the scenario exited $?"
scen=$(json_get "$TMPD/s-r.json" 'r["scenario"]')
case $scen in
"two switches, one quick look: sbsim run $TMPD/s.json "*) ;;
*) fail "the report's scenario: $scen" ;;
esac
run_cli plot "$TMPD/s-r.json" -o "$TMPD/s.svg" --script "$TMPD/s.gp"
[ "$RC" -eq 0 ] || fail "plot of the scenario exited $RC: $ERR"
grep -q "^set title 'two switches, one quick look: sbsim run" "$TMPD/s.gp" ||
    fail "the plot's title: $(grep title "$TMPD/s.gp")"
echo "sbsim plot: axis from the run's length (ms and s), steps, titled"
