#!/bin/bash
# Bench (not part of make check): N OpenFlow switches (default 100 000)
# programmed end to end on one host, FLOWS each (default 10: 1 000 000
# flows), by `sbsim controller --workers CW` against `sbsim openflow
# --workers SW`, so that no process holds more than about N / workers
# connections (a process may have 20 000 descriptors here).  The switches
# connect from 127.1.0.0/16 (sbsim openflow's default sources towards a
# loopback controller: one address per switch, wrapping after 65 534), so
# one controller port takes them all without running out of ephemeral
# ports (about 28 000 per source address).
# Prints the connect time and programming time, flows/s, and each
# process's peak RSS and CPU seconds (sampled every 0.5 s; the last
# sample before the controller ended).
# Usage: tests/bench/of_100k.sh [SWITCHES [FLOWS]]; CW, SW (default 8),
# PORT (27990), LIMIT_S (540: everything ends by then).
set -u
cd "$(dirname "$0")/../.."
SBSIM=${SBSIM:-$(pwd)/src/sbsim}
N=${1:-100000} FLOWS=${2:-10}
CW=${CW:-8} SW=${SW:-8} PORT=${PORT:-27990} LIMIT_S=${LIMIT_S:-540}
OUT=${OUT:-$(mktemp -d /tmp/sbsim-of100k.XXXXXX)}
mkdir -p "$OUT"
ctl= sw=
stop() {
	[ -n "$sw" ] && kill -INT "$sw" 2>/dev/null && wait "$sw" 2>/dev/null
	[ -n "$ctl" ] && kill -TERM "$ctl" 2>/dev/null && wait "$ctl" 2>/dev/null
}
trap stop EXIT

"$SBSIM" controller --workers "$CW" --openflow ptcp:$PORT:127.0.0.1 \
    --switches "$N" --flows-per-switch "$FLOWS" --stats-interval 0 \
    --exit-when-done --duration "$LIMIT_S" >"$OUT/ctl.log" 2>&1 &
ctl=$!
sleep 1
t0=$(date +%s.%N)
"$SBSIM" openflow --workers "$SW" --switches "$N" \
    --controller tcp:127.0.0.1:$PORT --timeout "$LIMIT_S" \
    --duration "$LIMIT_S" -q --report "$OUT/sw.json" >"$OUT/sw.log" 2>&1 &
sw=$!

# pid name: "name pid VmHWM-KiB cpu-s", every 0.5 s into $OUT/procs.
hz=$(getconf CLK_TCK)
sample() {
	local p name
	: >"$OUT/procs.new"
	for p in $ctl $(ps -o pid= --ppid $ctl) $sw $(ps -o pid= --ppid $sw); do
		[ -r /proc/$p/status ] || continue
		name="controller"
		[ "$p" = "$ctl" ] || [ "$p" = "$sw" ] || name="$name-worker"
		case " $sw $(ps -o pid= --ppid $sw | tr '\n' ' ') " in
		*" $p "*) name=${name/controller/openflow} ;;
		esac
		# A worker may end between the test and the reads: its
		# line is then left out, and its last sample kept.
		{ awk -v n="$name" -v p="$p" '/^VmHWM:/ { r = $2 }
		    END { printf "%s %s %s", n, p, r }' /proc/$p/status &&
		  awk -v hz="$hz" '{ printf " %.2f\n", ($14 + $15) / hz }' \
		    /proc/$p/stat; } 2>/dev/null | awk 'NF == 4' \
		    >>"$OUT/procs.new"
	done
	# Each process's newest line, in the order first seen.
	cat "$OUT/procs" "$OUT/procs.new" 2>/dev/null | awk '
	    !($2 in line) { order[++n] = $2 } { line[$2] = $0 }
	    END { for (i = 1; i <= n; i++) print line[order[i]] }' \
	    >"$OUT/procs.merged"
	mv "$OUT/procs.merged" "$OUT/procs"
	rm -f "$OUT/procs.new"
}
i=0
while kill -0 $ctl 2>/dev/null && [ $i -lt $((LIMIT_S * 2)) ]; do
	sample
	load=$(cut -d' ' -f1 /proc/loadavg)
	if [ "${load%.*}" -ge 24 ]; then
		echo "load $load: stopping the bench" >&2
		break
	fi
	sleep 0.5
	i=$((i + 1))
done
t1=$(date +%s.%N)
wait $ctl
ctl_rc=$?
ctl=
kill -INT $sw 2>/dev/null
wait $sw
sw=
echo "controller (exit $ctl_rc):"
grep -E '^controller:|FAILED|worker' "$OUT/ctl.log"
python3 - "$OUT/sw.json" "$N" "$FLOWS" "$t0" "$t1" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
n, k = int(sys.argv[2]), int(sys.argv[3])
ph = {p["name"]: p for p in r["phases"]}
c, p = ph["connect"], ph["program"]
print("switches: %d connected in %.2f s (%s); %d flows programmed in "
      "%.2f s (%s): %.0f flows/s; %.1f s from the switches' start to the "
      "controller's end" % (c["items"], c["seconds"], c["state"],
      p["items"], p["seconds"], p["state"],
      p["items"] / p["seconds"] if p["seconds"] > 0 else 0,
      float(sys.argv[5]) - float(sys.argv[4])))
EOF
echo "process peak RSS and CPU (each one's last sample):"
awk '{ printf "  %-20s pid %-7s %8.1f MiB %7.2f s CPU\n", $1, $2,
    $3 / 1024, $4 }' "$OUT/procs"
echo "($OUT)"
