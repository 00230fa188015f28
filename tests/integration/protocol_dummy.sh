#!/bin/bash
# A protocol is its folder plus one line: the test build (tests/dummy/sbsim,
# sbsim's sources with tests/dummy/ added to the protocol list by one line
# in tests/local.am) has the dummy protocol everywhere the list reaches:
# the command table and its help, `sbsim dummy` running devices through
# the pool, the controller's role, a scenario's dummy groups, `sbsim run
# --print` and the demo.  The real sbsim knows nothing of it.
. "$(dirname "$0")/../lib.sh"
DUMMY=$(cd "$(dirname "$SBSIM")/.." && pwd)/tests/dummy/sbsim
[ -x "$DUMMY" ] || fail "no test build at $DUMMY"

"$DUMMY" --help >"$TMPD/help" || fail "--help exited $?"
grep -qE '^  dummy +simulate test devices' "$TMPD/help" ||
    fail "the command table has no dummy: $(cat "$TMPD/help")"
grep -qE '^  openflow ' "$TMPD/help" || fail "the list lost the real ones"
"$SBSIM" --help | grep -q dummy && fail "the real sbsim lists dummy"
"$DUMMY" dummy --help | grep -q -- '--hellos K' ||
    fail "sbsim dummy --help has no --hellos"
"$DUMMY" controller --help | grep -q -- '--dummy EP' ||
    fail "the controller has no --dummy option"

# The controller's dummy role, and a scenario of two dummy groups
# against it (several groups of one protocol: it has no one_group).
P=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$DUMMY" controller --dummy "ptcp:$P:127.0.0.1"
CTL=$LAST_PID
wait_listen "$P" || fail "the dummy role does not listen on $P"
cat >"$TMPD/sc.json" <<JSON
{"sbsim-scenario:scenario": {"group": [
  {"name": "a", "protocol": "dummy", "count": 4,
   "controller": "tcp:127.0.0.1:$P",
   "option": [{"name": "hellos", "value": ["2"]}]},
  {"name": "b", "protocol": "dummy", "count": 3,
   "controller": "tcp:127.0.0.1:$P"}]}}
JSON
timeout 30 "$DUMMY" run "$TMPD/sc.json" -q --report "$TMPD/sc-report.json" \
    >"$TMPD/run.log" 2>&1 || fail "the dummy scenario exited $?"
got=$(json_get "$TMPD/sc-report.json" '({p["name"]: (p["items"], p["state"])
    for p in r["phases"]}, r["ok"])')
want="({'a.connect': (4, 'DONE'), 'a.hello': (8, 'DONE'),"
want="$want 'b.connect': (3, 'DONE'), 'b.hello': (3, 'DONE')}, True)"
[ "$got" = "$want" ] || fail "the dummy scenario's report: $got"
# A line that is no hello closes its session, counted.
exec 3<>"/dev/tcp/127.0.0.1/$P" || fail "cannot connect to the role"
echo "GOODBYE" >&3
read -r -t 10 reply <&3 && fail "the role answered a bad line: $reply"
exec 3<&-
stop_pid "$CTL"
grep -q '^dummy: 8 sessions, 11 hellos answered, 1 bad lines$' \
    "$TMPD/ctl.log" || fail "the role's summary: $(cat "$TMPD/ctl.log")"

# The real sbsim refuses the group, naming the protocols it knows; the
# test build's list names dummy too.
"$SBSIM" run "$TMPD/sc.json" >/dev/null 2>"$TMPD/err" && fail "sbsim ran it"
grep -q "unknown protocol 'dummy' (the known ones: openflow, bgp, pcep, netconf, ovsdb)" \
    "$TMPD/err" || fail "sbsim's error: $(cat "$TMPD/err")"
"$DUMMY" run --print nosuch 2>&1 | grep -q 'openflow|bgp|pcep|netconf|ovsdb|dummy' ||
    fail "run --print does not name dummy among the commands"
"$DUMMY" run --print dummy --devices 2 --controller tcp:127.0.0.1:1 \
    >"$TMPD/printed.json" || fail "--print dummy exited $?"
got=$(json_get "$TMPD/printed.json" '[(g["protocol"], g["count"])
    for g in r["sbsim-scenario:scenario"]["group"]]')
[ "$got" = "[('dummy', 2)]" ] || fail "--print dummy: $got"

# The demo runs the dummy's part beside the others against its own
# controller, which has the dummy role.
TMPDIR=$TMPD timeout 60 "$DUMMY" demo --report "$TMPD/demo.json" \
    >"$TMPD/demo.log" 2>&1 || fail "the test build's demo exited $?"
grep -q '^  dummy: 5 dummy devices say 3 hellos each$' "$TMPD/demo.log" ||
    fail "the demo does not say its dummy part"
got=$(json_get "$TMPD/demo.json" '(r["ok"], {p["name"]: (p["items"], p["state"])
    for p in r["phases"] if p["name"].startswith("dummy.")})')
want="(True, {'dummy.connect': (5, 'DONE'), 'dummy.hello': (15, 'DONE')})"
[ "$got" = "$want" ] || fail "the demo's dummy phases: $got"
echo "the dummy protocol: commands, role, scenario, --print and demo from one line"
