#!/bin/bash
# Bench (not part of make check): what replaying an MRT dump costs sbsim.
# A generated run writes ROUTES IPv4 /24s (4 peers) into the embedded
# controller and its monitor's --mrt-out makes the dump; then `sbsim bgp
# --mrt` replays it into a fresh controller RUNS times.  Each run prints
# the run's CPU (the report's sbsim_cpu_user_ms + sbsim_cpu_system_ms:
# connect, announce, learn) and the process's (/usr/bin/time: loading and
# sharing out the dump included).  The last line is
#   MRT replay CPU-s per million: run MEDIAN, process MEDIAN (RUNS runs)
# Usage: tests/bench/bgp_mrt_cpu.sh [ROUTES] [RUNS]; defaults 1000000, 3.
set -u
cd "$(dirname "$0")/../.." || exit 2
SBSIM=${SBSIM:-$(pwd)/src/sbsim}
ROUTES=${1:-1000000}
RUNS=${2:-3}
PY=/usr/bin/python3
D=$(mktemp -d)
trap 'kill $CTL 2>/dev/null; rm -rf "$D"' EXIT
PORT=$((20000 + RANDOM % 20000))
NET=$((RANDOM % 200 + 20))

controller() {	# MONITOR_HOST
	"$SBSIM" controller --bgp ptcp:$PORT:127.0.0.1 --as 65000 \
	    --bgp-monitor 127.$NET.0.$1 >"$D/ctl.log" 2>&1 &
	CTL=$!
	sleep 1
}

bgp() {		# REPORT ARGS...
	local rep=$1
	shift
	${WRAP:-} timeout 300 "$SBSIM" bgp --as 65001 --peer-as 65000 \
	    --source 127.$NET.0.0/24 --controller tcp:127.0.0.1:$PORT \
	    --monitor tcp:127.0.0.1:$PORT --monitor-as 65002 --timeout 120 \
	    --report "$rep" -q "$@"
}

controller 5
bgp "$D/gen.json" --peers 4 --prefixes $((ROUTES / 4)) \
    --mrt-out "$D/dump.mrt" || { echo "generated run failed"; exit 1; }
kill $CTL; wait $CTL 2>/dev/null
echo "dump: $(stat -c %s "$D/dump.mrt") bytes, $ROUTES routes"
for i in $(seq "$RUNS"); do
	controller 2
	WRAP="/usr/bin/time -f %U:%S -o $D/time" bgp "$D/r$i.json" \
	    --mrt "$D/dump.mrt" || { echo "replay $i failed"; exit 1; }
	kill $CTL; wait $CTL 2>/dev/null
	"$PY" - "$D/r$i.json" "$D/time" "$ROUTES" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
c, m = r["counters"], int(sys.argv[3]) / 1e6
run = (c["sbsim_cpu_user_ms"] + c["sbsim_cpu_system_ms"]) / 1000 / m
u, s = open(sys.argv[2]).read().split()[-1].split(":")
learn = [p for p in r["phases"] if p["name"] == "learn"][0]
print("run %.3f process %.3f CPU-s per million (learn %s %d)" %
      (run, (float(u) + float(s)) / m, learn["state"], learn["items"]))
PYEOF
done | tee "$D/runs"
median() {	# FIELD
	awk -v f="$1" '{ print $f }' "$D/runs" | sort -n |
	    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
echo "MRT replay CPU-s per million: run $(median 2), process $(median 4)" \
    "($RUNS runs)"
