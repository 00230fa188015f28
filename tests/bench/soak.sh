#!/bin/bash
# Soak bench (issue 14; not part of make check): 10 000 devices against
# the embedded controller for an hour with faults at a steady rate, and
# whether anything grows or is lost.
#
#   sbsim controller   OpenFlow, BGP and PCEP roles, RESTCONF
#   sbsim openflow     OF switches, flows pushed by the controller;
#                      faults drop and port-flap
#   sbsim bgp          BGP peers with a monitor; faults drop, session-flap
#   sbsim pcep         PCCs delegating LSPs; faults drop, session-flap, pcerr
#
# Every SAMPLE seconds the CPU time and RSS of the four processes are
# read from /proc.  At the end, over the samples after the warm-up (the
# first WARMUP seconds), each process's RSS and CPU load are fitted
# with a least-squares line and the slopes printed (KiB per hour, % of
# a core per hour), beside the first and last quarter's means; the RSS
# floor (each minute's least) is fitted too, so that a step of the
# allocator shows apart from a steady growth.  "Nothing
# lost" is read from each run's report: every phase DONE, ok true,
# every fault counted, and the reconnect phase's items equal to the
# faults that took a device down.
#
# Usage: tests/bench/soak.sh [DURATION_S [SWITCHES PEERS PCCS]]
# (default 3600 8000 1000 1000; FAULT_RATE per second per run, default 1).
# Figures to read; exits 1 when something was lost.
set -u
cd "$(dirname "$0")/../.."
SBSIM=${SBSIM:-$(pwd)/src/sbsim}
DUR=${1:-3600} SW=${2:-8000} PEERS=${3:-1000} PCCS=${4:-1000}
RATE=${FAULT_RATE:-1}
SAMPLE=${SAMPLE:-10}
WARMUP=${WARMUP:-$((DUR / 10))}
FLOWS=${FLOWS:-5} PREFIXES=${PREFIXES:-10} LSPS=${LSPS:-5}
OUT=${OUT:-$(mktemp -d /tmp/sbsim-soak.XXXXXX)}
mkdir -p "$OUT"
BASE=${BASE:-27100}
OFP=$BASE BGPP=$((BASE + 1)) PCEPP=$((BASE + 2)) RC=$((BASE + 3))
[ -x "$SBSIM" ] || { echo "build sbsim first (make)"; exit 2; }
MON=127.52.$(( (PEERS + 1) / 256 )).$(( (PEERS + 1) % 256 ))
TIMEOUT=$((DUR / 4 > 120 ? DUR / 4 : 120))
PIDS=()

cleanup() {
	local p
	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
}
trap cleanup EXIT

"$SBSIM" controller --openflow ptcp:$OFP --switches "$SW" \
    --flows-per-switch "$FLOWS" --read-stats --bgp ptcp:$BGPP:127.0.0.1 --as 65000 \
    --bgp-monitor "$MON" --pcep ptcp:$PCEPP:127.0.0.1 \
    --pcep-update-all 4 --restconf 127.0.0.1:$RC --stats-interval 0 \
    >"$OUT/ctl.log" 2>&1 &
CTL=$!
PIDS+=($CTL)
sleep 1
kill -0 $CTL 2>/dev/null || { echo "the controller did not start"; cat "$OUT/ctl.log"; exit 2; }

# The runs end by themselves after DUR seconds (--duration).
"$SBSIM" openflow --switches "$SW" --controller tcp:127.0.0.1:$OFP \
    --expect-flows $((SW * FLOWS)) --connect-rate 4000 \
    --fault drop:"$RATE" --fault port-flap:"$RATE"/1000 \
    --duration "$DUR" --timeout "$TIMEOUT" --report "$OUT/of.json" -q \
    >"$OUT/of.log" 2>&1 &
OF=$!
"$SBSIM" bgp --peers "$PEERS" --prefixes "$PREFIXES" --as 65001 \
    --peer-as 65000 --source 127.52.0.1/16 \
    --controller tcp:127.0.0.1:$BGPP --monitor tcp:127.0.0.1:$BGPP \
    --monitor-as 65002 --fault drop:"$RATE" --fault session-flap:"$RATE" \
    --duration "$DUR" --timeout "$TIMEOUT" --report "$OUT/bgp.json" -q \
    >"$OUT/bgp.log" 2>&1 &
BGP=$!
"$SBSIM" pcep --pccs "$PCCS" --lsps "$LSPS" --delegate \
    --controller tcp:127.0.0.1:$PCEPP --fault drop:"$RATE" \
    --fault session-flap:"$RATE" --fault pcerr:"$RATE" \
    --duration "$DUR" --timeout "$TIMEOUT" --report "$OUT/pcep.json" -q \
    >"$OUT/pcep.log" 2>&1 &
PCEP=$!
PIDS+=($OF $BGP $PCEP)
echo "soak: $SW switches, $PEERS BGP peers, $PCCS PCCs for $DUR s, faults" \
    "$RATE/s per run; samples in $OUT/samples.csv"

# sample NAME PID: one CSV row, CPU ticks and RSS KiB.
sample() {
	local st rss
	st=$(cut -d' ' -f14,15 "/proc/$2/stat" 2>/dev/null) || return
	rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$2/status" 2>/dev/null)
	set -- "$1" $st
	echo "$T,$1,$(( $2 + $3 )),${rss:-0}" >>"$OUT/samples.csv"
}

echo "t,proc,cpu_ticks,rss_kb" >"$OUT/samples.csv"
start=$SECONDS
next=0
while kill -0 $OF 2>/dev/null || kill -0 $BGP 2>/dev/null ||
    kill -0 $PCEP 2>/dev/null; do
	T=$((SECONDS - start))
	if [ "$T" -ge "$next" ]; then
		sample controller $CTL
		sample openflow $OF
		sample bgp $BGP
		sample pcep $PCEP
		next=$((next + SAMPLE))
		if [ $((T % 300)) -lt "$SAMPLE" ]; then
			echo "soak: $T s of $DUR"
		fi
	fi
	[ "$T" -gt $((DUR + TIMEOUT + 120)) ] && { echo "soak: runs did not end"; break; }
	sleep 1
done
wait $OF; rof=$?
wait $BGP; rbgp=$?
wait $PCEP; rpcep=$?
echo "exit status: openflow $rof, bgp $rbgp, pcep $rpcep ($OUT)"

/usr/bin/python3 - "$OUT" "$WARMUP" "$(getconf CLK_TCK)" <<'PY'
import csv, json, os, sys
out, warm, hz = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
rows = {}
for r in csv.DictReader(open(os.path.join(out, "samples.csv"))):
    rows.setdefault(r["proc"], []).append(
        (float(r["t"]), int(r["cpu_ticks"]), int(r["rss_kb"])))

def fit(xs, ys):
    n = len(xs)
    if n < 2:
        return 0.0
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0

def mean(v):
    return sum(v) / len(v) if v else 0.0

print("\n%-10s %10s %10s %10s %10s | %8s %8s %10s" % (
    "process", "RSS q1 KiB", "RSS q4 KiB", "KiB/hour", "floor/hour",
    "CPU% q1", "CPU% q4", "CPU%/hour"))
for name in ("controller", "openflow", "bgp", "pcep"):
    s = [r for r in rows.get(name, []) if r[0] >= warm]
    if len(s) < 8:
        print("%-10s too few samples" % name)
        continue
    t = [r[0] for r in s]
    rss = [r[2] for r in s]
    # CPU load between samples, % of a core, at each interval's middle.
    lt, load = [], []
    for a, b in zip(s, s[1:]):
        if b[0] > a[0]:
            lt.append((a[0] + b[0]) / 2)
            load.append(100.0 * (b[1] - a[1]) / hz / (b[0] - a[0]))
    # The floor: the least RSS of each minute, without the moments a
    # burst of output or a reconnect wave holds buffers.
    k = max(int(60 / max(t[1] - t[0], 1)), 1)
    ft = [t[i] for i in range(0, len(s) - k + 1, k)]
    fl = [min(rss[i:i + k]) for i in range(0, len(s) - k + 1, k)]
    q = len(s) // 4
    ql = max(len(load) // 4, 1)
    print("%-10s %10.0f %10.0f %+10.1f %+10.1f | %8.2f %8.2f %+10.3f" % (
        name, mean(rss[:q]), mean(rss[-q:]), fit(t, rss) * 3600,
        fit(ft, fl) * 3600, mean(load[:ql]), mean(load[-ql:]),
        fit(lt, load) * 3600))

lost = 0
for run, downs in (("of", ("fault_drop",)),
                   ("bgp", ("fault_drop", "fault_session_flap")),
                   ("pcep", ("fault_drop", "fault_session_flap"))):
    try:
        r = json.load(open(os.path.join(out, run + ".json")))
    except (OSError, ValueError) as e:
        print("%s: no report (%s)" % (run, e))
        lost += 1
        continue
    c = r["counters"]
    ph = {p["name"]: p for p in r["phases"]}
    faults = {k: v for k, v in sorted(c.items())
              if k.startswith("fault_") and v}
    down = sum(c.get(k, 0) for k in downs)
    back = ph.get("reconnect", {}).get("items", 0)
    bad = [n for n, p in ph.items() if p["state"] not in ("DONE", "PENDING")]
    print("%s: ok %s; faults %s; went down %d, back %d; phases not DONE: %s"
          % (run, r["ok"], faults, down, back, bad or "none"))
    if r["ok"] is not True or bad or back != down:
        lost += 1
sys.exit(1 if lost else 0)
PY
