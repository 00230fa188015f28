#!/bin/bash
# Bench (not part of make check): the end-to-end OpenDaylight-style run
# on ONE core.  sbsim controller (its RESTCONF, its statistics poll at
# its default --stats-interval, 1 s with --restconf) and sbsim openflow
# (SWITCHES switches, FLOWS flows pushed through that RESTCONF, confirmed
# by reading the operational inventory back, deleted, confirmed again)
# both pinned to CPU 0 (taskset -c 0), so the controller's statistics
# rounds and everything else share one core.  Prints each phase's state,
# items and seconds, the controller's "stats polls" summary and both
# processes' CPU; exits 1 unless every phase is DONE.
# Usage: tests/bench/e2e_one_core.sh [SWITCHES] [FLOWS] [PER_REQUEST] [PARALLEL]
#   defaults 10000, 1000000, 200, 4; STATS_INTERVAL=S passes
#   --stats-interval S to the controller; TIMEOUT (default 600) bounds
#   the run's phases.
set -u
cd "$(dirname "$0")/../.." || exit 2
SBSIM=${SBSIM:-$(pwd)/src/sbsim}
N=${1:-10000}
F=${2:-1000000}
K=${3:-200}
P=${4:-4}
TIMEOUT=${TIMEOUT:-600}
PY=/usr/bin/python3
[ -x "$SBSIM" ] || { echo "build sbsim first (make)"; exit 2; }
command -v taskset >/dev/null || { echo "taskset is not installed"; exit 2; }
OUT=${OUT:-$(mktemp -d /tmp/sbsim-e2e1.XXXXXX)}
free_port() {
	$PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
OF=${OF_PORT:-$(free_port)}
RC=${RC_PORT:-$(free_port)}
STATS=()
[ -n "${STATS_INTERVAL:-}" ] && STATS=(--stats-interval "$STATS_INTERVAL")
ctl=""
trap '[ -n "$ctl" ] && kill "$ctl" 2>/dev/null' EXIT
cpu_of() {
	awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' \
	    "/proc/$1/stat" 2>/dev/null
}

taskset -c 0 "$SBSIM" controller --openflow "ptcp:$OF:127.0.0.1" \
    --restconf "127.0.0.1:$RC" "${STATS[@]}" >"$OUT/ctl.log" 2>&1 &
ctl=$!
for _ in $(seq 100); do
	ss -Hltn | awk '{print $4}' | grep -qE ":$RC\$" && break
	sleep 0.1
done
t0=$(date +%s.%N)
taskset -c 0 "$SBSIM" openflow --switches "$N" \
    --controller "tcp:127.0.0.1:$OF" --northbound "odl:http://127.0.0.1:$RC" \
    --flows "$F" --flows-per-request "$K" --northbound-parallel "$P" \
    --timeout "$TIMEOUT" --report "$OUT/r.json" -q >"$OUT/sw.log" 2>&1
rc=$?
wall=$(echo "$(date +%s.%N) - $t0" | bc)
ctl_cpu=$(cpu_of "$ctl")
kill -INT "$ctl"
wait "$ctl" 2>/dev/null
ctl=""

echo "one core (CPU 0): $N switches x $F flows, $K per request, $P in flight," \
    "sbsim openflow exit $rc, ${wall%.*} s wall; results in $OUT"
$PY - "$OUT/r.json" "$ctl_cpu" <<'PYEOF' || exit 1
import json, sys
r = json.load(open(sys.argv[1]))
c = r["counters"]
bad = 0
for x in r["phases"]:
    print("%-16s %-8s %9d items in %8.2f s" % (x["name"], x["state"],
          x["items"], x["seconds"] or 0))
    bad += x["state"] != "DONE"
print("sbsim openflow CPU %.2f s, controller CPU %s s" % (
    (c.get("sbsim_cpu_user_ms", 0) + c.get("sbsim_cpu_system_ms", 0)) / 1000,
    sys.argv[2] or "?"))
sys.exit(1 if bad else 0)
PYEOF
st=$?
grep '^stats polls:' "$OUT/ctl.log"
[ $rc -eq 0 ] && [ $st -eq 0 ] && { echo "all phases DONE"; exit 0; }
echo "NOT all phases DONE"
exit 1
