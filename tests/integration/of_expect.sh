#!/bin/bash
# Run control and thresholds: an --expect that cannot hold fails the run
# (exit 1, a JUnit <failure>); --repeat gives min/median/max; SIGINT in the
# middle of a --duration run still writes the report, interrupted (not
# ok, exit 1); switches started
# before their controller reconnect with backoff and all connect.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
N=4

# A controller that accepts switches and does nothing else.
start_ctl() {
	CTL_PORT=$(free_ports 1)
	start_bg "$TMPD/ctl-$1.log" "$SBSIM" controller \
	    --openflow ptcp:$CTL_PORT --duration 60
	CTL=$LAST_PID
	wait_listen "$CTL_PORT" || fail "controller did not listen on $CTL_PORT"
}

# 1. A threshold no run can meet.
start_ctl expect
timeout 30 "$SBSIM" openflow --switches $N \
    --controller tcp:127.0.0.1:$CTL_PORT --report "$TMPD/e.json" \
    --junit "$TMPD/e.xml" --expect 'connect.rate_per_s>=1e12' \
    --expect 'connect.items>=1' -q >"$TMPD/e.log" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "impossible --expect: exit $rc, want 1"
"$PY" - "$TMPD/e.json" "$TMPD/e.xml" <<'PYEOF' || fail "--expect report"
import json, sys, xml.etree.ElementTree as ET
r = json.load(open(sys.argv[1]))
if r["ok"] is not False:
    sys.exit("ok is %r" % r["ok"])
ex = {e["expr"]: e for e in r["expectations"]}
if ex["connect.rate_per_s>=1e12"]["ok"] is not False:
    sys.exit("impossible expectation passed")
if ex["connect.items>=1"]["ok"] is not True:
    sys.exit("possible expectation failed")
if r["phases"][0]["state"] != "DONE":
    sys.exit("connect did not finish")
root = ET.parse(sys.argv[2]).getroot()
fails = root.findall(".//failure")
if root.get("failures") != "1" or len(fails) != 1:
    sys.exit("JUnit: failures=%s, %d <failure>" % (root.get("failures"), len(fails)))
if "connect.rate_per_s" not in (fails[0].get("message") or ""):
    sys.exit("JUnit failure message: %r" % fails[0].get("message"))
PYEOF
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$TMPD/e.xml" || fail "JUnit not well formed"
fi

# 2. --repeat 3 against the same controller: a summary over three runs.
timeout 60 "$SBSIM" openflow --switches $N \
    --controller tcp:127.0.0.1:$CTL_PORT --repeat 3 \
    --report "$TMPD/rep.json" --csv "$TMPD/rep.csv" -q \
    >"$TMPD/rep.log" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "--repeat 3: exit $rc"
"$PY" - "$TMPD/rep.json" "$N" <<'PYEOF' || fail "--repeat report"
import json, sys
r = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
if r["repeat"] != 3 or r["ok"] is not True:
    sys.exit("repeat %r ok %r" % (r["repeat"], r["ok"]))
s = r["summary"]["connect"]
if s["runs"] != 3 or s["timeouts"] != 0:
    sys.exit("summary runs %r timeouts %r" % (s["runs"], s["timeouts"]))
for m in ("items", "seconds", "rate_per_s"):
    st = s[m]
    if not st["min"] <= st["median"] <= st["max"]:
        sys.exit("%s: min/median/max out of order: %r" % (m, st))
for q in ("p50", "p90", "p99", "max"):
    st = s["latency_us"][q]
    if not st["min"] <= st["median"] <= st["max"]:
        sys.exit("latency %s out of order: %r" % (q, st))
if s["items"]["min"] != n or s["items"]["max"] != n:
    sys.exit("items %r" % s["items"])
if len(r["runs"]) != 3:
    sys.exit("%d runs listed" % len(r["runs"]))
for run in r["runs"]:
    c = [p for p in run["phases"] if p["name"] == "connect"][0]
    if c["state"] != "DONE" or c["items"] != n:
        sys.exit("a run's connect: %r" % c)
PYEOF
[ "$(wc -l <"$TMPD/rep.csv")" -eq 2 ] || fail "--repeat CSV is not 2 lines"

# 3. SIGINT in the middle of a --duration run: the report is written.
start_bg "$TMPD/int.log" "$SBSIM" openflow --switches $N \
    --controller tcp:127.0.0.1:$CTL_PORT --duration 30 \
    --report "$TMPD/int.json" --junit "$TMPD/int.xml" -q
SW=$LAST_PID
i=0
while [ $i -lt 100 ] && [ "$(ss -Htn state established \
    "( dport = :$CTL_PORT )" 2>/dev/null | wc -l)" -lt "$N" ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 0.5
stop_pid "$SW"
[ "$STOP_RC" -eq 1 ] ||
    fail "SIGINT before --duration: exit status $STOP_RC, want 1"
[ -s "$TMPD/int.json" ] || fail "SIGINT: no JSON report"
"$PY" - "$TMPD/int.json" "$N" <<'PYEOF' || fail "SIGINT report"
import json, sys
r = json.load(open(sys.argv[1]))
c = [p for p in r["phases"] if p["name"] == "connect"][0]
if c["state"] != "DONE" or c["items"] != int(sys.argv[2]):
    sys.exit("connect after SIGINT: %r" % c)
if r["interrupted"] is not True or r["ok"] is not False:
    sys.exit("SIGINT before --duration: interrupted %r ok %r" %
             (r["interrupted"], r["ok"]))
PYEOF
"$PY" -c 'import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])' \
    "$TMPD/int.xml" || fail "SIGINT: JUnit not well formed"
stop_pid "$CTL"

# 4. Switches first, the controller 1.5 s later: backoff and reconnect.
PORT=$(free_ports 1)
start_bg "$TMPD/late.log" "$SBSIM" openflow --switches $N \
    --controller tcp:127.0.0.1:$PORT --backoff 50:400 --timeout 20 \
    --report "$TMPD/late.json" -q
SW=$LAST_PID
sleep 1.5
start_bg "$TMPD/ctl-late.log" "$SBSIM" controller --openflow ptcp:$PORT \
    --duration 60
CTL=$LAST_PID
wait_exit "$SW" 25 || fail "late controller: the switches did not finish"
[ "$EXIT_RC" -eq 0 ] || fail "late controller: exit $EXIT_RC"
"$PY" - "$TMPD/late.json" "$N" <<'PYEOF' || fail "late controller report"
import json, sys
r = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
c = [p for p in r["phases"] if p["name"] == "connect"][0]
if c["state"] != "DONE" or c["items"] != n:
    sys.exit("connect: %r" % c)
k = r["counters"]
if not k["connect_failures"] > 0:
    sys.exit("connect_failures = %r" % k["connect_failures"])
if k["connect_attempts"] != k["connect_failures"] + n:
    sys.exit("attempts %d != failures %d + %d" % (k["connect_attempts"],
             k["connect_failures"], n))
PYEOF
stop_pid "$CTL"
echo "expectations, repeats, SIGINT and late controller: ok"
