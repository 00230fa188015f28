#!/bin/bash
# Bench (not part of make check): OpenDaylight-style flow programming
# through the embedded controller's RESTCONF, controller in its own
# process.  Prints program, confirm and delete rates, northbound
# requests/s, sbsim RSS per switch, and both processes' CPU seconds.
# Usage: tests/bench/northbound_scale.sh [SWITCHES] [FLOWS] [PER_REQUEST] [PARALLEL]
set -u
cd "$(dirname "$0")/../.."
SBSIM=${SBSIM:-$(pwd)/src/sbsim}
N=${1:-10000}
F=${2:-1000000}
K=${3:-200}
P=${4:-4}
OF=${OF_PORT:-26653}
RC=${RC_PORT:-28181}
OUT=${OUT:-$(mktemp -d /tmp/sbsim-nbbench.XXXXXX)}
STATS=${STATS_INTERVAL:-5}
[ -x "$SBSIM" ] || { echo "build sbsim first (make)"; exit 2; }

cpu_of() {
	awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' \
	    "/proc/$1/stat" 2>/dev/null
}

"$SBSIM" controller --openflow ptcp:$OF:127.0.0.1 --restconf 127.0.0.1:$RC \
    --stats-interval "$STATS" >"$OUT/ctl.log" 2>&1 &
ctl=$!
sleep 0.5
"$SBSIM" openflow --switches "$N" --controller tcp:127.0.0.1:$OF \
    --northbound odl:http://127.0.0.1:$RC --flows "$F" \
    --flows-per-request "$K" --northbound-parallel "$P" --timeout 300 \
    --report "$OUT/r.json" -q >"$OUT/sw.log" 2>&1
rc=$?
ctl_cpu=$(cpu_of "$ctl")
ctl_rss=$(awk '/^VmHWM/ { print $2 }' "/proc/$ctl/status")
kill -TERM "$ctl"
wait "$ctl" 2>/dev/null

echo "sbsim northbound bench: $N switches, $F flows, $K per request, $P in flight (exit $rc)"
echo "results in $OUT"
/usr/bin/python3 - "$OUT/r.json" "$N" "$ctl_cpu" "$ctl_rss" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
n, ctl_cpu, ctl_rss = int(sys.argv[2]), float(sys.argv[3] or 0), int(sys.argv[4] or 0)
p = {x["name"]: x for x in r["phases"]}
c = r["counters"]
def row(k, v): print("%-46s %s" % (k, v))
for name in ("connect", "program", "nb_program", "confirm", "delete", "nb_delete", "confirm_delete"):
    x = p.get(name)
    if x:
        row("%s (%s)" % (name, x["state"]), "%d items in %.2f s = %.0f/s, p50 %d us, p99 %d us" % (
            x["items"], x["seconds"], x["rate_per_s"], x["latency_us"]["p50"], x["latency_us"]["p99"]))
rss = c.get("sbsim_max_rss_kb", 0)
row("sbsim peak RSS", "%.1f MiB (%.2f KiB per switch, flows included)" % (rss / 1024, rss / n))
row("sbsim CPU", "%.2f s" % ((c.get("sbsim_cpu_user_ms", 0) + c.get("sbsim_cpu_system_ms", 0)) / 1000))
row("controller CPU / peak RSS", "%.2f s / %.1f MiB" % (ctl_cpu, ctl_rss / 1024))
row("northbound requests, errors", "%d, %d" % (c.get("nb_requests", 0),
    c.get("nb_http_4xx", 0) + c.get("nb_http_5xx", 0) + c.get("nb_transport_errors", 0)))
PYEOF
