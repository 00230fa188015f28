#!/bin/bash
# Bench (not part of make check): PCEP at scale against the embedded
# controller's stateful PCE in another process, which updates every
# delegated LSP itself once a PCC is synchronized (--pcep-update-all W).
#   1. 512 PCCs x 128 LSPs
#   2. 1 PCC x 65535 LSPs (PLSP-IDs and tunnel ids to the 16-bit limit)
# For each: time to full sync (the first synchronization PCRpt sent to the
# PCE's acknowledgment of the last end-of-sync marker), LSPs/s
# learned (by the PCE, from its summary line), updates/s and the update
# latency percentiles seen by the PCCs (PCUpd arrival to PCRpt) and by the
# PCE (PCUpd sent to PCRpt received), sbsim's CPU seconds and peak RSS.
# Usage: tests/bench/pcep_scale.sh [WINDOW]   (default 64 PCUpds in flight
# per PCC).  Timings are figures to read, never pass/fail.
set -u
cd "$(dirname "$0")/../.."
SBSIM=${SBSIM:-$(pwd)/src/sbsim}
W=${1:-64}
OUT=${OUT:-$(mktemp -d /tmp/sbsim-bench.XXXXXX)}
PORT=${PORT:-24189}
PY=/usr/bin/python3
[ -x "$SBSIM" ] || { echo "build sbsim first (make)"; exit 2; }

# run NAME PCCS LSPS: one controller + one sbsim pcep run.
run() {
	local name=$1 n=$2 m=$3 ctl
	"$SBSIM" controller --pcep ptcp:$PORT:127.0.0.1 \
	    --pcep-update-all "$W" >"$OUT/$name.ctl" 2>&1 &
	ctl=$!
	sleep 0.5
	timeout 600 "$SBSIM" pcep --pccs "$n" --lsps "$m" --delegate \
	    --controller tcp:127.0.0.1:$PORT --timeout 120 -q \
	    --report "$OUT/$name.json" >"$OUT/$name.log" 2>&1
	echo "$?" >"$OUT/$name.rc"
	kill -INT "$ctl"
	wait "$ctl"
}

# figures NAME PCCS LSPS: one row.
figures() {
	"$PY" - "$OUT/$1.json" "$OUT/$1.ctl" "$(cat "$OUT/$1.rc")" "$2" "$3" <<'PYEOF'
import json, re, sys
r = json.load(open(sys.argv[1]))
ctl = open(sys.argv[2]).read()
rc, n, m = sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
ph = {p["name"]: p for p in r["phases"]}
c = r["counters"]
s, u = ph["sync"], ph["update"]
learn = re.search(r"(\d+) LSPs learned in ([\d.]+) s", ctl)
pce = re.search(r"acked in ([\d.]+) s \(p50 (\d+) us, p99 (\d+) us\)", ctl)
learned = int(learn.group(1)) if learn else 0
lsecs = float(learn.group(2)) if learn else 0
cpu = (c.get("sbsim_cpu_user_ms", 0) + c.get("sbsim_cpu_system_ms", 0)) / 1e3
print("%-13s %6s %9d %8.3f %10.0f %10.0f %10.0f %7d %7d %7d %9s %8.2f %8.1f  %s/%s/%s" % (
    "%dx%d" % (n, m), rc, s["items"], s["seconds"],
    s["rate_per_s"], learned / lsecs if lsecs else 0, u["rate_per_s"],
    u["latency_us"]["p50"], u["latency_us"]["p90"], u["latency_us"]["p99"],
    "%s/%s" % (pce.group(2), pce.group(3)) if pce else "-",
    cpu, c.get("sbsim_max_rss_kb", 0) / 1024,
    s["state"], u["state"], u["items"]))
PYEOF
}

run big 512 128
run one 1 65535
printf '%-13s %6s %9s %8s %10s %10s %10s %7s %7s %7s %9s %8s %8s  %s\n' \
    "pccs x lsps" "exit" "lsps" "sync s" "sent/s" "learned/s" "updates/s" \
    "p50 us" "p90 us" "p99 us" "pce p50/99" "cpu s" "rss MiB" \
    "sync/update/updates"
figures big 512 128
figures one 1 65535
echo "(update-all window $W per PCC; files in $OUT)"
