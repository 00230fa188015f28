#!/bin/bash
# Capacity search and sweeps (docs/report.md, "Sweeps and capacity
# search"): --find-max against an embedded controller that holds at most
# 37 switches finds 37 exactly (38 fails), with every step in the table,
# JSON, CSV and JUnit, in one process and over 3 workers; --sweep runs
# fixed sizes into one report that `sbsim plot` draws; bad combinations
# are usage errors.
. "$(dirname "$0")/../lib.sh"
need xmllint

base=$(free_ports 2)
OFP=$base OFP2=$((base + 1))
LIMIT=37

bad_usage openflow "more than --switches 64" --switches 64 \
    --controller tcp:127.0.0.1:$OFP --sweep 8,100
bad_usage openflow "more than --switches 64" --switches 64 \
    --controller tcp:127.0.0.1:$OFP --find-max 65
bad_usage openflow "expected device counts" --switches 64 \
    --controller tcp:127.0.0.1:$OFP --sweep 8,,9
bad_usage openflow "expected device counts" --switches 64 \
    --controller tcp:127.0.0.1:$OFP --sweep 0
bad_usage openflow "give one" --switches 64 \
    --controller tcp:127.0.0.1:$OFP --sweep 8 --find-max 4
bad_usage openflow "--repeat does not go" --switches 64 \
    --controller tcp:127.0.0.1:$OFP --sweep 8 --repeat 2
bad_usage openflow "not --duration" --switches 64 \
    --controller tcp:127.0.0.1:$OFP --find-max 8 --duration 5
[ "$FAILS" -eq 0 ] || fail "$FAILS usage errors were not reported"

start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow ptcp:$OFP \
    --max-switches $LIMIT
wait_listen $OFP || fail "the controller does not listen"
timeout 120 "$SBSIM" openflow --switches 64 --controller tcp:127.0.0.1:$OFP \
    --find-max 4 --timeout 1 --step-pause 0.2 --report "$TMPD/fm.json" \
    --csv "$TMPD/fm.csv" --junit "$TMPD/fm.xml" >"$TMPD/fm.log" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "find-max exited $rc"
grep -q "largest passing --switches: $LIMIT ($((LIMIT + 1)) failed)" \
    "$TMPD/fm.log" || fail "the table does not say the largest is $LIMIT"
got=$(json_get "$TMPD/fm.json" \
    '(r["ok"], r["steps"]["kind"], r["steps"]["largest_passing"],
      r["steps"]["smallest_failing"], r["steps"]["ceiling"],
      [(s["size"], s["ok"]) for s in r["steps"]["runs"]])')
want="(True, 'find_max', $LIMIT, $((LIMIT + 1)), 64, [(4, True), (8, True),"
want="$want (16, True), (32, True), (64, False), (48, False), (40, False),"
want="$want (36, True), (38, False), (37, True)])"
[ "$got" = "$want" ] || fail "steps: $got, want $want"
c=$(json_get "$TMPD/fm.json" '[p["items"] for s in r["steps"]["runs"]
    for p in s["phases"] if p["name"] == "connect" and s["ok"]]')
[ "$c" = "[4, 8, 16, 32, 36, 37]" ] || fail "connected per passing step: $c"
[ "$(wc -l <"$TMPD/fm.csv")" -eq 11 ] || fail "the CSV has not 1 + 10 rows"
head -n 1 "$TMPD/fm.csv" | grep -q "^size,ok,connect.rate_per_s," ||
    fail "CSV header: $(head -n 1 "$TMPD/fm.csv" | cut -c1-80)"
sed -n 11p "$TMPD/fm.csv" | grep -q "^37,1," || fail "CSV last row not 37,1"
xmllint --noout "$TMPD/fm.xml" || fail "JUnit is not well-formed"
grep -q 'tests="10" failures="4"' "$TMPD/fm.xml" || fail "JUnit counts"
grep -q 'name="switches=38".*' "$TMPD/fm.xml" &&
    grep -q 'connect timed out: [0-9]* of 38 items' "$TMPD/fm.xml" ||
    fail "JUnit does not say why 38 failed"

# The same search over 3 workers, each step of fresh ones (a step of 4
# switches: 1, 1 and 2), finds the same steps: a worker whose switches
# are all up holds them until the others' are, so that the controller
# holds all of a step's switches at once, as with one process.
timeout 120 "$SBSIM" openflow --switches 64 --controller tcp:127.0.0.1:$OFP \
    --find-max 4 --timeout 1 --step-pause 0.2 --workers 3 \
    --report "$TMPD/fmw.json" >"$TMPD/fmw.log" 2>&1 ||
    fail "find-max --workers 3 exited $?: $(tail -n 3 "$TMPD/fmw.log")"
got=$(json_get "$TMPD/fmw.json" \
    '(r["ok"], r["steps"]["largest_passing"], r["steps"]["smallest_failing"],
      [(s["size"], s["ok"]) for s in r["steps"]["runs"]])')
want="(True, $LIMIT, $((LIMIT + 1)), [(4, True), (8, True), (16, True),"
want="$want (32, True), (64, False), (48, False), (40, False), (36, True),"
want="$want (38, False), (37, True)])"
[ "$got" = "$want" ] || fail "steps over 3 workers: $got, want $want"

# The same search on a scenario's group (sbsim run --step-group).
printf '{"sbsim-scenario:scenario": {"group": [{"name": "of", "protocol": "openflow", "count": 64, "controller": "tcp:127.0.0.1:%s"}]}}\n' \
    $OFP >"$TMPD/sc.json"
timeout 120 "$SBSIM" run "$TMPD/sc.json" --find-max 30 --step-group of \
    --timeout 1 --step-pause 0.2 --report "$TMPD/sc-r.json" \
    >"$TMPD/sc.log" 2>&1 || fail "find-max on a scenario group exited $?"
grep -q "largest passing of.count: $LIMIT ($((LIMIT + 1)) failed)" \
    "$TMPD/sc.log" || fail "the scenario's search: $(tail -n 3 "$TMPD/sc.log")"
[ "$(json_get "$TMPD/sc-r.json" 'r["steps"]["size_option"]')" = of.count ] ||
    fail "the scenario's size option"
bad_usage run "no such group" "$TMPD/sc.json" --find-max 4 --step-group x
bad_usage openflow "names a group of sbsim run" --switches 4 \
    --controller tcp:127.0.0.1:$OFP --step-group of
[ "$FAILS" -eq 0 ] || fail "$FAILS --step-group errors not reported"

# A sweep against a controller without a limit: every size passes; one
# past the limit of the first controller fails the sweep (exit 1).
start_bg "$TMPD/ctl2.log" "$SBSIM" controller --openflow ptcp:$OFP2
wait_listen $OFP2 || fail "the second controller does not listen"
timeout 120 "$SBSIM" openflow --switches 40 \
    --controller tcp:127.0.0.1:$OFP2 --sweep 5,10,40 --step-pause 0.1 \
    --report "$TMPD/sw.json" >"$TMPD/sw.log" 2>&1 || fail "sweep exited $?"
grep -q "3 of 3 sizes passed" "$TMPD/sw.log" || fail "sweep verdict"
timeout 120 "$SBSIM" openflow --switches 40 \
    --controller tcp:127.0.0.1:$OFP --sweep 10,40 --timeout 1 \
    --step-pause 0.1 >"$TMPD/sw2.log" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "a sweep with a failing size exited $rc, want 1"
grep -q "1 of 2 sizes passed" "$TMPD/sw2.log" || fail "sweep 2 verdict"

if command -v gnuplot >/dev/null 2>&1; then
	"$SBSIM" plot "$TMPD/sw.json" -o "$TMPD/sw.svg" >/dev/null ||
	    fail "sbsim plot of a sweep failed"
	xmllint --noout "$TMPD/sw.svg" || fail "the sweep's SVG is not XML"
	grep -q -- "--switches" "$TMPD/sw.svg" || fail "no size axis"
fi
echo "find-max: $LIMIT found exactly; sweeps reported and plotted"
