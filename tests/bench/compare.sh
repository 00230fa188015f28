#!/bin/bash
# Bench (not part of make check): two builds of sbsim side by side, in one
# run, alternating A B A B so that the machine's drift hits both alike.
# For each build and round: OpenFlow (SWITCHES switches, FLOWS FLOW_MODs
# each way through the embedded controller), BGP (PEERS peers x PREFIXES
# into the embedded controller's speaker with a monitor and withdraw) and
# PCEP (PCCS x LSPS with every LSP updated), each device side against a
# controller of the same build.  Prints the rates of every round and the
# ratio B/A of the medians; the figures are to read, never pass/fail.
# Usage: tests/bench/compare.sh SBSIM_A SBSIM_B [ROUNDS]
set -u
A=${1:?usage: compare.sh SBSIM_A SBSIM_B [ROUNDS]}
B=${2:?usage: compare.sh SBSIM_A SBSIM_B [ROUNDS]}
ROUNDS=${3:-3}
SWITCHES=${SWITCHES:-100}
FLOWS=${FLOWS:-2000}
PEERS=${PEERS:-100}
PREFIXES=${PREFIXES:-2000}
PCCS=${PCCS:-128}
LSPS=${LSPS:-128}
PORT=${PORT:-27653}
OUT=${OUT:-$(mktemp -d /tmp/sbsim-compare.XXXXXX)}
PY=/usr/bin/python3
mkdir -p "$OUT" || exit 2
PIDS=""
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done' EXIT

wait_port() {
	local i
	for i in $(seq 1 100); do
		(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# rate FILE PHASE: rate_per_s of PHASE in a JSON report.
rate() {
	$PY -c 'import json,sys
r=json.load(open(sys.argv[1]))
print(next((round(p["rate_per_s"]) for p in r["phases"] if p["name"]==sys.argv[2]), 0))' "$1" "$2" 2>/dev/null || echo 0
}

# ctl BIN ARGS...: a controller of that build in the background.
ctl() {
	local bin=$1
	shift
	"$bin" controller "$@" >"$OUT/ctl.log" 2>&1 &
	CTL=$!
	PIDS="$PIDS $CTL"
	wait_port "$PORT"
}

ctl_end() {
	kill -INT "$CTL" 2>/dev/null
	wait "$CTL" 2>/dev/null
}

of_round() {
	local bin=$1 tag=$2
	ctl "$bin" --openflow "ptcp:$PORT:127.0.0.1" --switches "$SWITCHES" \
	    --flows-per-switch "$FLOWS" --delete strict --exit-when-done
	"$bin" openflow --switches "$SWITCHES" \
	    --controller "tcp:127.0.0.1:$PORT" \
	    --expect-flows $((SWITCHES * FLOWS)) --timeout 60 -q \
	    --report "$OUT/$tag.of.json" >/dev/null 2>&1
	wait "$CTL" 2>/dev/null
	echo "openflow $tag program/s $(rate "$OUT/$tag.of.json" program) delete/s $(rate "$OUT/$tag.of.json" delete)"
}

bgp_round() {
	local bin=$1 tag=$2 mon=127.1.0.$((PEERS + 1))
	ctl "$bin" --bgp "ptcp:$PORT:127.0.0.1" --as 65000 --bgp-monitor "$mon"
	"$bin" bgp --peers "$PEERS" --prefixes "$PREFIXES" --as 65001 \
	    --peer-as 65000 --controller "tcp:127.0.0.1:$PORT" \
	    --monitor "tcp:127.0.0.1:$PORT" --monitor-as 65002 --withdraw \
	    --timeout 60 -q --report "$OUT/$tag.bgp.json" >/dev/null 2>&1
	ctl_end
	echo "bgp $tag learn/s $(rate "$OUT/$tag.bgp.json" learn) withdraw/s $(rate "$OUT/$tag.bgp.json" withdraw)"
}

pcep_round() {
	local bin=$1 tag=$2
	ctl "$bin" --pcep "ptcp:$PORT:127.0.0.1" --pcep-update-all 64
	"$bin" pcep --pccs "$PCCS" --lsps "$LSPS" --delegate \
	    --controller "tcp:127.0.0.1:$PORT" --expect-updates \
	    $((PCCS * LSPS)) --timeout 60 -q \
	    --report "$OUT/$tag.pcep.json" >/dev/null 2>&1
	ctl_end
	echo "pcep $tag sync/s $(rate "$OUT/$tag.pcep.json" sync) update/s $(rate "$OUT/$tag.pcep.json" update)"
}

for r in $(seq 1 "$ROUNDS"); do
	for side in A B; do
		bin=$A
		[ "$side" = B ] && bin=$B
		of_round "$bin" "$side$r"
		bgp_round "$bin" "$side$r"
		pcep_round "$bin" "$side$r"
	done
done | tee "$OUT/rounds.txt"

# The median of each figure for A and B, and B/A.
$PY - "$OUT/rounds.txt" <<'EOF'
import sys, statistics, collections
v = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    proto, side = f[0], f[1][0]
    for k, x in zip(f[2::2], f[3::2]):
        v[(proto, k, side)].append(float(x))
print("%-9s %-12s %12s %12s %7s" % ("protocol", "figure", "A median", "B median", "B/A"))
for (proto, k, side) in sorted(v):
    if side != "A":
        continue
    a = statistics.median(v[(proto, k, "A")])
    b = statistics.median(v.get((proto, k, "B"), [0]))
    print("%-9s %-12s %12.0f %12.0f %7.2f" % (proto, k, a, b, b / a if a else 0))
EOF
echo "results in $OUT"
