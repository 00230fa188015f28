#!/bin/bash
# Bench (not part of make check): does a run grow under reconnects?
# N OpenFlow switches against the embedded controller with --fault
# KIND:RATE for 85 s; sbsim openflow's RSS printed at 20, 50 and 80 s
# (a steady rise past the first reading is memory kept per fault).
# Usage: tests/bench/drop_rss.sh [SWITCHES [FAULT]]  (default 2000
# drop:80); SBSIM=path to compare two builds side by side (BASE ports).
set -u
cd "$(dirname "$0")/../.."
SBSIM=${SBSIM:-$(pwd)/src/sbsim}
N=${1:-2000} FAULT=${2:-drop:80} BASE=${BASE:-27780}
OUT=${OUT:-$(mktemp -d /tmp/sbsim-droprss.XXXXXX)}
mkdir -p "$OUT"
"$SBSIM" controller --openflow ptcp:$BASE:127.0.0.1 --switches "$N" \
    --flows-per-switch 5 --stats-interval 0 >"$OUT/ctl.log" 2>&1 &
ctl=$!
trap 'kill $ctl 2>/dev/null; wait $ctl 2>/dev/null' EXIT
sleep 0.5
"$SBSIM" openflow --switches "$N" --controller tcp:127.0.0.1:$BASE \
    --fault "$FAULT" --duration 85 -q --report "$OUT/r.json" \
    >"$OUT/sw.log" 2>&1 &
sw=$!
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$sw/status"; }
sleep 20; a=$(rss)
sleep 30; b=$(rss)
sleep 30; c=$(rss)
wait $sw
echo "$N switches, --fault $FAULT: RSS at 20 s $a KiB, 50 s $b KiB," \
    "80 s $c KiB ($OUT)"
