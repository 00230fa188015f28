#!/bin/bash
# Bench (not part of make check): sbsim's own cost at scale, against the
# embedded controller in another process.
#   1. SWITCHES switches connect: switches/s and sbsim RSS per switch.
#   2. The controller pushes FLOWS FLOW_MODs (adds) and as many strict
#      deletes: sbsim CPU seconds per 1 000 000 FLOW_MODs decoded and
#      applied, from the CPU of this run minus that of a connect-only run.
# sbsim's CPU and peak RSS come from its own report (counters
# sbsim_cpu_user_ms, sbsim_cpu_system_ms, sbsim_max_rss_kb).
# Usage: tests/bench/openflow_scale.sh [SWITCHES] [FLOWS_PER_SWITCH]
# Prints a table; timings are figures to read, never pass/fail.
set -u
cd "$(dirname "$0")/../.."
SBSIM=${SBSIM:-$(pwd)/src/sbsim}
N=${1:-10000}
K=${2:-100}
OUT=${OUT:-$(mktemp -d /tmp/sbsim-bench.XXXXXX)}
PORT=${PORT:-26653}
[ -x "$SBSIM" ] || { echo "build sbsim first (make)"; exit 2; }

# times_cpu FILE: user+system seconds of the waited-for children from
# bash's `times` (its second line), written by the wrapper in run().
# The controller's CPU is read from its own rusage once it is reaped:
# reading /proc/PID/stat misses it, because --exit-when-done lets it exit
# before sbsim does (the bench printed 0.00).
times_cpu() {
	sed -n 2p "$1" 2>/dev/null | tr -d 's' | awk '{
		n = split($1, u, "m"); m = split($2, y, "m")
		print u[1] * 60 + u[2] + y[1] * 60 + y[2] }'
}

# run NAME FLOWS: one controller + one sbsim run; leaves figures in
# $OUT/NAME.* and prints nothing.
run() {
	local name=$1 flows=$2 ctl sb ctl_args wrap
	ctl_args="--openflow ptcp:$PORT --switches $N --exit-when-done"
	if [ "$flows" -gt 0 ]; then
		ctl_args="$ctl_args --flows-per-switch $flows --delete strict --batch 100 --window 8"
	else
		ctl_args="--openflow ptcp:$PORT --duration 600"
	fi
	# The wrapper waits for the controller, then records its rusage.
	rm -f "$OUT/$name.ctlpid"
	( "$SBSIM" controller $ctl_args >"$OUT/$name.ctl" 2>&1 &
	  echo $! >"$OUT/$name.ctlpid"; wait $!; times >"$OUT/$name.times" ) &
	wrap=$!
	sleep 0.5
	local expect=""
	[ "$flows" -gt 0 ] && expect="--expect-flows $((N * flows))"
	"$SBSIM" openflow --switches "$N" --controller tcp:127.0.0.1:$PORT \
	    $expect --timeout 120 --report "$OUT/$name.json" -q \
	    >"$OUT/$name.out" 2>&1 &
	sb=$!
	wait "$sb"
	ctl=$(cat "$OUT/$name.ctlpid")
	kill -INT "$ctl" 2>/dev/null
	wait "$wrap" 2>/dev/null
	local ctl_cpu
	ctl_cpu=$(times_cpu "$OUT/$name.times")
	echo "${ctl_cpu:-0}" >"$OUT/$name.ctlcpu"
}

jget() {
	/usr/bin/python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))
p = {x["name"]: x for x in r["phases"]}
print(eval(sys.argv[2]))' "$1" "$2"
}

echo "sbsim OpenFlow bench: $N switches, $K flows per switch ($((N * K)) flows)"
echo "results in $OUT"

# A one-switch connect run gives the process's fixed cost.
N_SAVE=$N; N=1; run base 0; N=$N_SAVE
run connect 0
run flows "$K"

# sbsim reports its own peak RSS and CPU as counters (getrusage).
ctr() { jget "$OUT/$1.json" "r['counters'].get('$2', 0)"; }
cpu() { echo $(( $(ctr "$1" sbsim_cpu_user_ms) + $(ctr "$1" sbsim_cpu_system_ms) )) | awk '{ print $1 / 1000 }'; }
base_rss=$(ctr base sbsim_max_rss_kb)
hwm=$(ctr connect sbsim_max_rss_kb)
fhwm=$(ctr flows sbsim_max_rss_kb)
cpu_c=$(cpu connect)
cpu_f=$(cpu flows)
fm=$(jget "$OUT/flows.json" 'r["counters"].get("flow_mods", 0)')
/usr/bin/python3 - "$N" "$K" "$base_rss" "$hwm" "$fhwm" "$cpu_c" "$cpu_f" \
    "$fm" "$(jget "$OUT/connect.json" 'p["connect"]["rate_per_s"]')" \
    "$(jget "$OUT/flows.json" 'p["program"]["rate_per_s"]')" \
    "$(jget "$OUT/flows.json" 'p["delete"]["rate_per_s"]')" \
    "$(jget "$OUT/flows.json" 'p["connect"]["state"]+"/"+p["program"]["state"]+"/"+p["delete"]["state"]')" \
    "$(cat "$OUT/flows.ctlcpu")" <<'PYEOF'
import sys
n, k, base, hwm, fhwm, cpu_c, cpu_f, fm, crate, prate, drate, states, ctlcpu = sys.argv[1:]
n, k = int(n), int(k)
base, hwm, fhwm = int(base), int(hwm), int(fhwm)
cpu_c, cpu_f, fm, ctlcpu = float(cpu_c), float(cpu_f), int(fm), float(ctlcpu)
print("%-44s %s" % ("phases (connect/program/delete)", states))
print("%-44s %.0f" % ("switches connected per second", float(crate)))
print("%-44s %.1f MiB" % ("sbsim peak RSS, 1 switch", base / 1024))
print("%-44s %.1f MiB" % ("sbsim peak RSS, %d switches connected" % n, hwm / 1024))
print("%-44s %.2f KiB" % ("RSS per switch (connected, no flows)", (hwm - base) / n))
print("%-44s %.1f MiB" % ("sbsim peak RSS with %d flows" % (n * k), fhwm / 1024))
print("%-44s %.0f" % ("bytes per flow held", (fhwm - hwm) * 1024 / max(1, n * k)))
print("%-44s %d" % ("FLOW_MODs decoded and applied", fm))
print("%-44s %.0f / %.0f" % ("program / delete rate (flows/s)", float(prate), float(drate)))
print("%-44s %.2f s (connect-only run %.2f s)" % ("sbsim CPU, flows run", cpu_f, cpu_c))
if fm:
    print("%-44s %.2f s" % ("sbsim CPU per 1 000 000 FLOW_MODs", (cpu_f - cpu_c) * 1e6 / fm))
print("%-44s %.2f s" % ("controller CPU, flows run", ctlcpu))
PYEOF
