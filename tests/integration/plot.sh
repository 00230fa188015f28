#!/bin/bash
# `sbsim plot`: a run's report drawn by gnuplot as a valid SVG and a PNG
# with a line per phase; bad reports, names and a missing gnuplot are
# usage errors with a clear message.
. "$(dirname "$0")/../lib.sh"
need gnuplot
need xmllint

base=$(free_ports 2)
OFP=$base RC=$((base + 1))
start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow ptcp:$OFP \
    --restconf 127.0.0.1:$RC
wait_listen $OFP || fail "the controller does not listen"
timeout 60 "$SBSIM" openflow --switches 10 --controller tcp:127.0.0.1:$OFP \
    --northbound odl:http://127.0.0.1:$RC --flows 2000 \
    --report "$TMPD/r.json" >"$TMPD/run.log" 2>&1 || fail "the run exited $?"

run_cli plot "$TMPD/r.json" -o "$TMPD/p.svg"
[ "$RC" -eq 0 ] || fail "plot exited $RC: $ERR"
xmllint --noout "$TMPD/p.svg" || fail "the SVG is not well-formed XML"
grep -q "<svg" "$TMPD/p.svg" || fail "no <svg> element"
for ph in connect program nb_program delete; do
	grep -q ">$ph (" "$TMPD/p.svg" || fail "no line for phase $ph"
done
echo "$OUT" | grep -qE "p.svg: [0-9]+ phases" || fail "no summary: $OUT"

run_cli plot "$TMPD/r.json" -o "$TMPD/p.png" --title "it's a test" \
    --width 640 --height 480
[ "$RC" -eq 0 ] || fail "plot to PNG exited $RC: $ERR"
[ "$(head -c 8 "$TMPD/p.png" | od -An -tx1 | tr -d ' \n')" = \
    89504e470d0a1a0a ] || fail "the PNG has no PNG signature"

# Bad input: every one exit status 2 and one line saying what is wrong.
echo '{"tool": "other"}' >"$TMPD/other.json"
echo 'not json' >"$TMPD/bad.json"
"$PY" -c '
import json, sys
r = json.load(open(sys.argv[1]))
for p in r["phases"]:
    p["timeline"] = []
json.dump(r, open(sys.argv[2], "w"))' "$TMPD/r.json" "$TMPD/empty.json"
bad_usage plot "not a JSON report: line 1" "$TMPD/bad.json" -o "$TMPD/x.svg"
bad_usage plot "not a JSON report" "$TMPD/missing.json" -o "$TMPD/x.svg"
bad_usage plot "not an sbsim report" "$TMPD/other.json" -o "$TMPD/x.svg"
bad_usage plot "no phase has items" "$TMPD/empty.json" -o "$TMPD/x.svg"
bad_usage plot "must end in .svg or .png" "$TMPD/r.json" -o "$TMPD/x.gif"
bad_usage plot "-o FILE.svg or FILE.png is required" "$TMPD/r.json"
bad_usage plot "REPORT.json is required" -o "$TMPD/x.svg"
bad_usage plot "--width" "$TMPD/r.json" -o "$TMPD/x.svg" --width 5
PATH=/nonexistent "$SBSIM" plot "$TMPD/r.json" -o "$TMPD/x.svg" \
    >"$TMPD/out" 2>"$TMPD/err"
RC=$?
grep -q "gnuplot is not installed (Debian: apt-get install gnuplot-nox)" \
    "$TMPD/err" && [ "$RC" -eq 2 ] && [ ! -s "$TMPD/out" ] ||
    { echo "FAIL: no gnuplot: exit $RC" >&2; FAILS=$((FAILS + 1)); }
[ "$FAILS" -eq 0 ] || fail "$FAILS bad inputs were not reported"
[ ! -e "$TMPD/x.svg" ] || fail "a refused plot left a file"
ls "${TMPDIR:-/tmp}"/sbsim-plot-* 2>/dev/null && fail "temporary files left"
echo "sbsim plot: SVG and PNG drawn, bad input refused"
