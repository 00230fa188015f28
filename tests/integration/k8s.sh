#!/bin/bash
# deploy/kubernetes (issue 15): the Indexed Job's manifest passes an
# offline schema check against the Kubernetes API's own models
# (validate.py, python3-kubernetes), as written and as `sbsim-k8s print`
# fills it in, and a manifest with a wrong field, a wrong type or a
# missing required field fails it; `sbsim-k8s local` runs the same
# shards (shard.sh) as local processes against the embedded controller
# and joins their reports from their logs with `sbsim merge`, as
# `collect` does from the pods' logs: the merged run equals one run of
# the whole.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
"$PY" -c 'import kubernetes, yaml' 2>/dev/null ||
    skip "python3-kubernetes is not installed"
need ss
K8S=$(cd "$(dirname "$0")/../../deploy/kubernetes" && pwd)
VALIDATE="$PY $K8S/validate.py"
export SBSIM

$VALIDATE "$K8S/sbsim-job.yaml" || fail "sbsim-job.yaml is not valid"
"$K8S/sbsim-k8s" print 4 bgp 1000 tcp:10.0.0.1:179 1800000000 \
    "--prefixes 100 --as 65001" >"$TMPD/job.yaml" ||
    fail "sbsim-k8s print failed"
$VALIDATE "$TMPD/job.yaml" || fail "the printed job is not valid"
grep -q '^  completions: 4$' "$TMPD/job.yaml" &&
    grep -q '^  parallelism: 4$' "$TMPD/job.yaml" &&
    grep -A1 'name: SBSIM_ARGS' "$TMPD/job.yaml" |
    grep -q 'value: "--prefixes 100 --as 65001"' ||
    fail "print did not fill the job in"
# What the check must refuse: a typo, a type, a required field.
bad() {	# bad SED-EXPRESSION MESSAGE
	sed "$1" "$K8S/sbsim-job.yaml" >"$TMPD/bad.yaml"
	if $VALIDATE "$TMPD/bad.yaml" >"$TMPD/bad.out"; then
		fail "a manifest with $1 passed"
	fi
	grep -q "$2" "$TMPD/bad.out" || fail "$1: $(cat "$TMPD/bad.out")"
}
bad 's/completionMode:/completionMod:/' "has no field 'completionMod'"
bad 's/backoffLimit: 0/backoffLimit: "0"/' "backoffLimit: int expected"
bad 's/^      - name: sbsim$/      - resources: {}/' "name.*must not be .None."
"$K8S/sbsim-k8s" print 0 openflow 10 tcp:x:1 >/dev/null 2>&1 &&
    fail "print took 0 shards"
echo "no report here" >"$TMPD/empty.log"
"$K8S/sbsim-k8s" extract "$TMPD/empty.log" "$TMPD/x.json" 2>/dev/null &&
    fail "extract found a report in a log without one"

# Three shards of 30 switches as local processes.
port=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow ptcp:$port:127.0.0.1 \
    --switches 30 --flows-per-switch 10 --read-stats --stats-interval 0.5
ctl=$LAST_PID
wait_listen "$port" || fail "the controller did not listen"
"$K8S/sbsim-k8s" local 3 openflow 30 tcp:127.0.0.1:$port "$TMPD/run" \
    --expect-flows 300 --timeout 20 >"$TMPD/local.log" 2>&1
rc=$?
cat "$TMPD/local.log"
stop_pid "$ctl"
[ "$rc" -eq 0 ] || fail "sbsim-k8s local exited $rc"
"$PY" - "$TMPD/run" <<'PYEOF' || fail "the merged report"
import json, os, sys
d = sys.argv[1]
r = json.load(open(os.path.join(d, "run.json")))
ph = {p["name"]: p for p in r["phases"]}
for name, items in (("connect", 30), ("program", 300)):
    if ph[name]["state"] != "DONE" or ph[name]["items"] != items:
        sys.exit("%s: %r" % (name, ph[name]))
parts = [json.load(open(os.path.join(d, "part-%d.json" % i))) for i in range(3)]
got = sorted(p["phases"][0]["items"] for p in parts)
if got != [10, 10, 10]:
    sys.exit("the shards connected %r" % got)
if r["ok"] is not True:
    sys.exit("ok is %r" % r["ok"])
print("merged: connect 30, program 300 from 3 shards")
PYEOF
exit 0
