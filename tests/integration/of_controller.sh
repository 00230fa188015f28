#!/bin/bash
# sbsim switches against the embedded controller, OpenFlow 1.3 and 1.0,
# strict and delete-all: every phase (connect, program, confirm, delete)
# ends DONE with the right counts, the JSON / CSV / JUnit reports are well
# formed and complete, and the controller's summary line adds up.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
N=5		# switches
K=150		# flows per switch: two batches of 100
BATCH=100

# check_run VERSION DELETE_MODE
check_run() {
	local v=$1 del=$2 port d out total sent barriers per
	port=$(free_ports 1)
	d="$TMPD/$v-$del"
	mkdir -p "$d"
	total=$((N * K))
	start_bg "$TMPD/ctl-$v-$del.log" "$SBSIM" controller \
	    --openflow ptcp:$port --of-version $v --switches $N \
	    --flows-per-switch $K --read-stats --delete $del --exit-when-done
	local ctl=$LAST_PID
	wait_listen "$port" || fail "$v/$del: controller did not listen on $port"
	timeout 30 "$SBSIM" openflow --switches $N --of-version $v \
	    --controller tcp:127.0.0.1:$port --expect-flows $total \
	    --report "$d/r.json" --csv "$d/r.csv" --junit "$d/r.xml" \
	    --timeout 20 -q >"$TMPD/sw-$v-$del.log" 2>&1
	local rc=$?
	[ $rc -eq 0 ] || fail "$v/$del: sbsim openflow exited $rc"
	wait_exit "$ctl" 15 || fail "$v/$del: controller did not exit when done"
	[ "$EXIT_RC" -eq 0 ] || fail "$v/$del: controller exited $EXIT_RC"

	# JSON: phases, ok, environment.
	"$PY" - "$d/r.json" "$N" "$total" <<'PYEOF' || fail "$v/$del: JSON report"
import json, sys
r = json.load(open(sys.argv[1]))
n, total = int(sys.argv[2]), int(sys.argv[3])
def die(msg):
    print("JSON:", msg, file=sys.stderr)
    sys.exit(1)
if r.get("tool") != "sbsim" or not r.get("version"):
    die("tool/version: %r %r" % (r.get("tool"), r.get("version")))
if "openflow" not in r.get("scenario", ""):
    die("scenario: %r" % r.get("scenario"))
if r.get("ok") is not True:
    die("ok is %r" % r.get("ok"))
env = r.get("environment", {})
for k in ("cpu_model", "cores", "memory_bytes", "kernel", "libraries"):
    if k not in env:
        die("environment lacks " + k)
if not env["cores"] >= 1 or not env["memory_bytes"] > 0 or not env["kernel"]:
    die("environment values: %r" % env)
if not env["libraries"].get("libevent"):
    die("no libevent version")
ph = {p["name"]: p for p in r["phases"]}
want = {"connect": n, "program": total, "confirm": total, "delete": total}
for name, items in want.items():
    p = ph.get(name)
    if p is None:
        die("no phase " + name)
    for k in ("protocol", "items", "seconds", "rate_per_s", "latency_us",
              "timeline"):
        if k not in p:
            die("%s lacks %s" % (name, k))
    if p["state"] != "DONE" or p["items"] != items:
        die("%s: state %s items %s, want DONE %d" % (name, p["state"],
            p["items"], items))
    for q in ("p50", "p90", "p99", "max"):
        if q not in p["latency_us"]:
            die("%s latency lacks %s" % (name, q))
    if sum(p["timeline"]) != items:
        die("%s timeline sums to %d" % (name, sum(p["timeline"])))
c = r["counters"]
if c["flows_added"] != total or c["flows_deleted"] != total:
    die("counters: added %d deleted %d" % (c["flows_added"], c["flows_deleted"]))
for k in ("errors_sent", "errors_received", "flow_mod_errors", "decode_errors"):
    if c[k] != 0:
        die("counter %s = %d" % (k, c[k]))
PYEOF

	# CSV: a header row and a value row with as many columns.
	"$PY" - "$d/r.csv" <<'PYEOF' || fail "$v/$del: CSV report"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
if len(rows) != 2:
    sys.exit("CSV has %d rows" % len(rows))
if len(rows[0]) != len(rows[1]) or len(rows[0]) < 10:
    sys.exit("CSV columns %d / %d" % (len(rows[0]), len(rows[1])))
if "program.rate_per_s" not in rows[0]:
    sys.exit("CSV header lacks program.rate_per_s")
for v in rows[1]:
    float(v)
PYEOF
	[ "$(wc -l <"$d/r.csv")" -eq 2 ] || fail "$v/$del: CSV is not 2 lines"

	# JUnit: well formed, no failures.
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$d/r.xml" || fail "$v/$del: JUnit not well formed"
	fi
	"$PY" - "$d/r.xml" <<'PYEOF' || fail "$v/$del: JUnit report"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
if root.tag != "testsuite":
    sys.exit("root is " + root.tag)
if root.get("failures") != "0" or root.get("errors") != "0":
    sys.exit("failures=%s errors=%s" % (root.get("failures"), root.get("errors")))
cases = root.findall("testcase")
if len(cases) < 4 or root.findall(".//failure"):
    sys.exit("%d testcases, %d failures" % (len(cases), len(root.findall(".//failure"))))
if int(root.get("tests")) != len(cases):
    sys.exit("tests=%s but %d testcases" % (root.get("tests"), len(cases)))
PYEOF

	# The controller's own summary line.
	out=$(grep '^controller:' "$TMPD/ctl-$v-$del.log")
	[ -n "$out" ] || fail "$v/$del: no controller summary"
	per=$(( (K + BATCH - 1) / BATCH ))
	if [ "$del" = strict ]; then
		sent=$((2 * total))
		barriers=$((N * 2 * per))
	else
		sent=$((total + N))
		barriers=$((N * (per + 1)))
	fi
	for want in "$N switches," "$sent FLOW_MODs sent" \
	    "$barriers barriers acked" "$N switches programmed" \
	    "$total flows seen in stats" "$N switches deleted" \
	    " 0 errors received" " 0 bad messages"; do
		case "$out" in
		*"$want"*) ;;
		*) fail "$v/$del: controller summary lacks '$want': $out" ;;
		esac
	done
	echo "OpenFlow $v, delete $del: ok"
}

check_run 1.3 strict
check_run 1.0 strict
check_run 1.3 all
check_run 1.0 all

# A switch offering 1.0 and 1.3 reconnects to a controller that speaks
# 1.0 only: the 1.3 flows it held cannot be kept, so the 1.0 controller's
# adds make new flows (none modifies a 1.3 one) and the flows dropped
# count as removed.
port=$(free_ports 1)
d="$TMPD/reversion"
mkdir -p "$d"
start_bg "$d/a.log" "$SBSIM" controller --openflow ptcp:$port \
    --of-version 1.3 --switches 2 --flows-per-switch 5 --exit-when-done
ctl=$LAST_PID
wait_listen "$port" || fail "reversion: no listener on $port"
start_bg "$d/sw.log" "$SBSIM" openflow --switches 2 --of-version 1.0,1.3 \
    --controller tcp:127.0.0.1:$port --duration 30 --report "$d/r.json"
sw=$LAST_PID
wait_exit "$ctl" 15 || fail "reversion: the 1.3 controller did not finish"
timeout 15 "$SBSIM" controller --openflow ptcp:$port --of-version 1.0 \
    --switches 2 --flows-per-switch 5 --exit-when-done >"$d/b.log" 2>&1 ||
    fail "reversion: the 1.0 controller: $(cat "$d/b.log")"
stop_pid "$sw"
"$PY" - "$d/r.json" <<'PYEOF' || fail "reversion: $(cat "$d/sw.log")"
import json, sys
c = json.load(open(sys.argv[1]))["counters"]
if (c["flows_added"], c["flows_modified"]) != (20, 0):
    sys.exit("added %d, modified %d; want 20, 0" %
             (c["flows_added"], c["flows_modified"]))
PYEOF
echo "version change on reconnect: ok"
