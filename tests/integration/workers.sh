#!/bin/bash
# --workers N: sbsim openflow in 3 processes (each a shard with its own
# event loop, the parent merging their reports) counts what one process
# counts, and --repeat runs fresh workers for each run; a worker killed
# with SIGKILL fails the run (exit 1), the parent naming the worker, its
# switches and its last progress; one killed in a step of --sweep fails
# that step and ends the sweep.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
N=9		# switches
K=20		# flows per switch

bad_usage openflow "--workers does not go with --shard" --switches 4 \
    --workers 2 --shard 0/2 --controller tcp:127.0.0.1:1
bad_usage openflow "--workers 5 is more than the 4 switches" --switches 4 \
    --workers 5 --controller tcp:127.0.0.1:1
bad_usage openflow "does not spread evenly" --switches 4 --workers 2 \
    --expect-flows 10 --controller tcp:127.0.0.1:1
bad_usage ovsdb "--workers does not go with --northbound" \
    --devices 2 --workers 2 --controller tcp:127.0.0.1:1 \
    --northbound odl:http://127.0.0.1:1
bad_usage bgp "--workers does not go with --monitor" --peers 2 --as 65001 \
    --workers 2 --controller tcp:127.0.0.1:1 --monitor tcp:127.0.0.1:1
bad_usage netconf "--workers: --expect-edits 3 does not spread evenly" \
    --devices 4 --expect-edits 3 --listen ptcp:1830:127.0.0.1 \
    --transport tcp --workers 2
[ "$FAILS" -eq 0 ] || fail "$FAILS bad arguments not refused"

port=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow ptcp:$port \
    --switches $N --flows-per-switch $K --read-stats --delete all \
    --exit-when-done
ctl=$LAST_PID
wait_listen "$port" || fail "controller did not listen on $port"
timeout 60 "$SBSIM" openflow --switches $N --workers 3 \
    --controller tcp:127.0.0.1:$port --expect-flows $((N * K)) --timeout 20 \
    --report "$TMPD/w.json" --junit "$TMPD/w.xml" \
    --expect "program.items==$((N * K))" >"$TMPD/w.out" 2>"$TMPD/w.log" ||
    fail "--workers 3 exited $?"
wait_exit "$ctl" 15 || fail "controller did not exit when done"
grep -q '^result: ok' "$TMPD/w.out" || fail "no ok: $(cat "$TMPD/w.out")"
grep -q 'failures="0"' "$TMPD/w.xml" || fail "JUnit failures"
"$PY" - "$TMPD/w.json" "$N" "$K" <<'PYEOF' || fail "--workers report"
import json, sys
r = json.load(open(sys.argv[1]))
n, k = int(sys.argv[2]), int(sys.argv[3])
ph = {p["name"]: p for p in r["phases"]}
want = {"connect": n, "program": n * k, "confirm": n * k, "delete": n * k}
for name, items in want.items():
    p = ph[name]
    if p["state"] != "DONE" or p["items"] != items or p["target"] != items:
        sys.exit("%s: %s %r/%r" % (name, p["state"], p["items"], p["target"]))
    if p["latency_hist"]["count"] == 0:
        sys.exit("%s: no latency" % name)
c = r["counters"]
if c["flows_added"] != n * k or c["flows_deleted"] != n * k or \
   c["disconnects"] != n:
    sys.exit("counters %r" % c)
if r["ok"] is not True or "--workers 3" not in r["scenario"]:
    sys.exit("ok %r scenario %r" % (r["ok"], r["scenario"]))
PYEOF

# --repeat 2 over 3 workers: two runs, each of fresh workers once the
# run before has ended, reported as one process reports its repeats.
port=$(free_ports 1)
start_bg "$TMPD/rctl.log" "$SBSIM" controller --openflow ptcp:$port \
    --switches $N --flows-per-switch $K --read-stats --delete all
ctl=$LAST_PID
wait_listen "$port" || fail "controller did not listen on $port"
timeout 60 "$SBSIM" openflow --switches $N --workers 3 --repeat 2 \
    --controller tcp:127.0.0.1:$port --expect-flows $((N * K)) --timeout 20 \
    --report "$TMPD/r.json" >"$TMPD/r.out" 2>"$TMPD/r.log" ||
    fail "--workers 3 --repeat 2 exited $?"
stop_pid "$ctl"
"$PY" - "$TMPD/r.json" "$N" "$K" <<'PYEOF2' || fail "--workers --repeat report"
import json, sys
r = json.load(open(sys.argv[1]))
n, k = int(sys.argv[2]), int(sys.argv[3])
if r["ok"] is not True or r["repeat"] != 2 or len(r["runs"]) != 2:
    sys.exit("ok %r repeat %r runs %d" % (r["ok"], r["repeat"],
             len(r.get("runs", []))))
for run in r["runs"]:
    ph = {p["name"]: p for p in run["phases"]}
    got = [(x, ph[x]["state"], ph[x]["items"]) for x in
           ("connect", "program", "confirm", "delete")]
    if got != [("connect", "DONE", n), ("program", "DONE", n * k),
               ("confirm", "DONE", n * k), ("delete", "DONE", n * k)]:
        sys.exit("a run: %r" % got)
    if run["counters"]["flows_added"] != n * k:
        sys.exit("a run's counters: %r" % run["counters"])
PYEOF2

# --northbound over 3 workers: each pushes its switches' share of the
# flows through the controller's RESTCONF (the ids they have in one
# process), and the merged report counts what one process counts.
ports=$(free_ports 2)
start_bg "$TMPD/nctl.log" "$SBSIM" controller --openflow ptcp:$ports \
    --restconf 127.0.0.1:$((ports + 1)) --stats-interval 0.2
ctl=$LAST_PID
wait_listen "$ports" && wait_listen $((ports + 1)) ||
    fail "controller with RESTCONF did not listen on $ports"
for w in 1 3; do
	timeout 60 "$SBSIM" openflow --switches $N --workers $w \
	    --controller tcp:127.0.0.1:$ports --flows $((N * K)) \
	    --northbound odl:http://127.0.0.1:$((ports + 1)) \
	    --flows-per-request 10 --northbound-parallel 3 --timeout 20 \
	    --report "$TMPD/nb$w.json" -q >"$TMPD/nb$w.log" 2>&1 ||
	    fail "--northbound --workers $w exited $?: $(cat "$TMPD/nb$w.log")"
done
stop_pid "$ctl"
# The requests but the polls (how many polls confirming takes varies).
nbsum='(r["ok"], [(p["name"], p["state"], p["items"]) for p in r["phases"]], r["counters"]["nb_requests"] - r["counters"]["nb_polls"], sorted((k, v) for k, v in r["counters"].items() if k.startswith("nb_") and k not in ("nb_polls", "nb_requests", "nb_http_2xx")))'
[ "$(json_get "$TMPD/nb3.json" "$nbsum")" = "$(json_get "$TMPD/nb1.json" "$nbsum")" ] ||
    fail "--northbound over 3 workers: $(json_get "$TMPD/nb3.json" "$nbsum"), one: $(json_get "$TMPD/nb1.json" "$nbsum")"
[ "$(json_get "$TMPD/nb3.json" '[p["items"] for p in r["phases"] if p["name"] == "confirm"]')" = "[$((N * K))]" ] ||
    fail "--northbound over 3 workers: confirm $(json_get "$TMPD/nb3.json" 'r["phases"]')"

# --metrics-listen over 3 workers: the parent serves one exposition, the
# workers' figures merged (every switch connected and up, the connect
# latency's count the whole run's); a port it cannot take is a usage
# error before any worker starts.
ports=$(free_ports 2)
bad_usage openflow "--metrics-listen" --switches $N --workers 3 \
    --controller tcp:127.0.0.1:1 --metrics-listen 127.0.0.1:99999
[ "$FAILS" -eq 0 ] || fail "a bad --metrics-listen with --workers"
start_bg "$TMPD/mctl.log" "$SBSIM" controller --openflow ptcp:$ports \
    --switches $N
ctl=$LAST_PID
wait_listen "$ports" || fail "controller did not listen on $ports"
start_bg "$TMPD/ml.log" "$SBSIM" openflow --switches $N --workers 3 \
    --controller tcp:127.0.0.1:$ports --duration 6 -q \
    --metrics-listen 127.0.0.1:$((ports + 1))
ml=$LAST_PID
"$PY" - $((ports + 1)) "$N" <<'PYEOF2' || fail "--workers --metrics-listen"
import sys, time, urllib.request
port, n = int(sys.argv[1]), int(sys.argv[2])
want = ['sbsim_phase_items{phase="connect",protocol="openflow"} %d' % n,
        'sbsim_devices{state="up"} %d' % n,
        'sbsim_phase_latency_seconds_count{phase="connect",'
        'protocol="openflow"} %d' % n]
text = ""
for _ in range(50):
    try:
        text = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port,
                                      timeout=2).read().decode()
    except OSError:
        pass
    if all(w in text.splitlines() for w in want):
        sys.exit(0)
    time.sleep(0.1)
sys.exit("no merged figures: %r" % text[:1500])
PYEOF2
wait_exit "$ml" 20 || fail "--metrics-listen run did not end"
stop_pid "$ctl"

# BGP and PCEP in 2 workers: the merged counts are the whole run's.
NET=$((RANDOM % 200 + 20))
port=$(free_ports 1)
start_bg "$TMPD/bctl.log" "$SBSIM" controller --bgp ptcp:$port:127.0.0.1 \
    --as 65000
ctl=$LAST_PID
wait_listen "$port" || fail "BGP controller"
timeout 60 "$SBSIM" bgp --peers 6 --prefixes 50 --as 65001 --peer-as 65000 \
    --source 127.$NET.0.0/24 --controller tcp:127.0.0.1:$port --withdraw \
    --workers 2 --timeout 20 --report "$TMPD/b.json" -q \
    >"$TMPD/b.log" 2>&1 || fail "bgp --workers 2 exited $?"
stop_pid "$ctl"
grep -q "6 sessions, .* 300 prefixes and 300 withdrawals received" \
    "$TMPD/bctl.log" || fail "BGP controller: $(cat "$TMPD/bctl.log")"
[ "$(json_get "$TMPD/b.json" '(r["ok"], [(p["name"], p["items"]) for p in r["phases"]])')" = \
    "(True, [('connect', 6), ('announce', 300), ('withdraw', 300)])" ] ||
    fail "bgp --workers: $(json_get "$TMPD/b.json" 'r["phases"]')"
ports=$(free_ports 2)
start_bg "$TMPD/pctl.log" "$SBSIM" controller --pcep ptcp:$ports:127.0.0.1 \
    --restconf 127.0.0.1:$((ports + 1)) --pcep-update-all 16 \
    --pcep-timeout 10
ctl=$LAST_PID
wait_listen "$ports" || fail "PCEP controller"
timeout 60 "$SBSIM" pcep --pccs 4 --lsps 5 --delegate --workers 2 \
    --controller tcp:127.0.0.1:$ports --timeout 20 --report "$TMPD/p.json" \
    -q >"$TMPD/p.log" 2>&1 || fail "pcep --workers 2 exited $?"
stop_pid "$ctl"
[ "$(json_get "$TMPD/p.json" '(r["ok"], r["phases"][0]["items"])')" = \
    "(True, 4)" ] || fail "pcep --workers: $(json_get "$TMPD/p.json" 'r["phases"]')"

# OVSDB in 2 workers: 8 nodes with the whole run's system-ids, each
# learned once by the embedded manager.
ports=$(free_ports 2)
start_bg "$TMPD/octl.log" "$SBSIM" controller --ovsdb ptcp:$ports:127.0.0.1 \
    --restconf 127.0.0.1:$((ports + 1))
ctl=$LAST_PID
wait_listen "$ports" && wait_listen $((ports + 1)) || fail "OVSDB controller"
timeout 60 "$SBSIM" ovsdb --devices 8 --bridges-per-node 1 --workers 2 \
    --controller tcp:127.0.0.1:$ports --duration 4 \
    --report "$TMPD/o.json" -q >"$TMPD/o.log" 2>&1 &
ov=$!
# The topology once it holds the 8 nodes' system-ids, or the last one
# read before the run ended (it is checked below).
while kill -0 $ov 2>/dev/null; do
	curl -s -u admin:admin "http://127.0.0.1:$((ports + 1))/rests/data/network-topology:network-topology/topology=ovsdb%3A1?content=nonconfig" \
	    >"$TMPD/otopo.new"
	[ "$(grep -o '"external-id-value":"sbsim-[0-9]*"' "$TMPD/otopo.new" |
	    sort -u | wc -l)" -eq 8 ] && cp "$TMPD/otopo.new" "$TMPD/otopo.json" &&
	    break
	[ -s "$TMPD/otopo.new" ] && cp "$TMPD/otopo.new" "$TMPD/otopo.json"
	sleep 0.1
done
wait $ov || fail "ovsdb --workers 2 exited $?: $(tail -3 "$TMPD/o.log")"
stop_pid "$ctl"
"$PY" - "$TMPD/o.json" "$TMPD/otopo.json" <<'PYEOF' || fail "ovsdb --workers"
import json, sys
r = json.load(open(sys.argv[1]))
ph = {p["name"]: p for p in r["phases"]}
if r["ok"] is not True or ph["connect"]["items"] != 8 or \
   ph["learn"]["items"] != 8:
    sys.exit("report: %r" % [(p["name"], p["items"]) for p in r["phases"]])
t = json.load(open(sys.argv[2]))["network-topology:topology"][0]
ids = set()
for n in t.get("node", []):
    for e in n.get("ovsdb:openvswitch-external-ids", []):
        if e.get("external-id-key") == "system-id":
            ids.add(e["external-id-value"])
if ids != set("sbsim-%d" % i for i in range(8)):
    sys.exit("system-ids over the workers: %r" % sorted(ids))
PYEOF

# --fault over 3 workers: the given times once each in the whole run
# (each worker its turn), a rate shared; the merged counters are sums.
port=$(free_ports 1)
start_bg "$TMPD/fctl.log" "$SBSIM" controller --openflow ptcp:$port \
    --switches $N --flows-per-switch 2
ctl=$LAST_PID
wait_listen "$port" || fail "controller did not listen on $port"
timeout 60 "$SBSIM" openflow --switches $N --workers 3 \
    --controller tcp:127.0.0.1:$port --fault drop@1,1.5,2,2.5 \
    --fault port-flap:10 --duration 5 --report "$TMPD/f.json" -q \
    >"$TMPD/f.log" 2>&1 || fail "--workers 3 --fault exited $?"
stop_pid "$ctl"
"$PY" - "$TMPD/f.json" <<'PYEOF' || fail "--workers with --fault"
import json, sys
r = json.load(open(sys.argv[1]))
c = r["counters"]
if c["fault_drop"] != 4 or c["disconnects"] != 4 or c["fault_drop_missed"]:
    sys.exit("drop@ four times over 3 workers: %r" % c)
# 10/s for about 4 s after connect, shared by 3 workers: about 40; each
# worker at the whole rate would be about 120.
if not 15 <= c["fault_port_flap"] <= 80:
    sys.exit("port-flap:10 shared: %d" % c["fault_port_flap"])
PYEOF

# A worker killed: the others stop, the run fails naming it.
port=$(free_ports 1)
start_bg "$TMPD/ctl2.log" "$SBSIM" controller --openflow ptcp:$port \
    --switches $N --flows-per-switch $K
ctl=$LAST_PID
wait_listen "$port" || fail "controller did not listen on $port"
mp=$(free_ports 1)
start_bg "$TMPD/kill.log" "$SBSIM" openflow --switches $N --workers 3 \
    --controller tcp:127.0.0.1:$port --expect-flows $((N * K)) \
    --duration 30 --report "$TMPD/k.json" -q \
    --metrics-listen 127.0.0.1:$mp
parent=$LAST_PID
# The workers are the parent's children; wait for their progress to say
# connect done (the parent's merged metrics count every switch) before
# killing the second.
kids=$(wait_children "$parent" 3) || fail "no 3 workers: '$kids'"
victim=$(echo $kids | awk '{print $2}')
end=$((SECONDS + 30))
until curl -s "http://127.0.0.1:$mp/metrics" 2>/dev/null |
    grep -q "^sbsim_phase_items{phase=\"connect\"[^}]*} $N\$"; do
	[ $SECONDS -lt $end ] && kill -0 "$parent" 2>/dev/null ||
	    fail "the workers' progress never said connect done"
	sleep 0.1
done
kill -KILL "$victim"
wait_exit "$parent" 20 || fail "the parent did not end after a worker died"
[ "$EXIT_RC" -eq 1 ] || fail "a killed worker: exit $EXIT_RC, want 1"
stop_pid "$ctl"
grep -qE "worker 1 of 3 \(pid $victim, switches 3 to 5\) was killed by signal 9" \
    "$TMPD/kill.log" || fail "the dead worker is not named"
grep -qE "last progress: connect 3/3 DONE" "$TMPD/kill.log" ||
    fail "its progress is not said"
grep -q "1 of 3 workers failed: the run FAILED" "$TMPD/kill.log" ||
    fail "no failure line"
[ "$(json_get "$TMPD/k.json" '(r["ok"], "worker 1 of 3" in r["failed"], r["phases"][0]["items"])')" = \
    "(False, True, 6)" ] ||
    fail "merged report of the others: $(head -c 600 "$TMPD/k.json")"
# A worker killed in a step of --sweep: the step is FAILED with the
# parent's words, the sweep ends there, the run exits 1.
port=$(free_ports 1)
start_bg "$TMPD/ctl3.log" "$SBSIM" controller --openflow ptcp:$port
ctl=$LAST_PID
wait_listen "$port" || fail "controller did not listen on $port"
start_bg "$TMPD/skill.log" "$SBSIM" openflow --switches $N --workers 3 \
    --sweep 6,$N --controller tcp:127.0.0.1:$port --duration 30 \
    --report "$TMPD/sk.json" -q
parent=$LAST_PID
kids=$(wait_children "$parent" 3) || fail "sweep: no 3 workers: '$kids'"
victim=$(echo $kids | awk '{print $3}')
sleep 1
kill -KILL "$victim"
wait_exit "$parent" 20 || fail "sweep: the parent did not end"
[ "$EXIT_RC" -eq 1 ] || fail "sweep with a killed worker: exit $EXIT_RC"
stop_pid "$ctl"
[ "$(json_get "$TMPD/sk.json" '(r["ok"], [(s["size"], s["ok"], "worker 2 of 3" in s.get("failed", "")) for s in r["steps"]["runs"]])')" = \
    "(False, [(6, False, True)])" ] ||
    fail "sweep report: $(head -c 600 "$TMPD/sk.json")"
exit 0
