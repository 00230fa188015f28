#!/bin/bash
# Bench (not part of make check): what the embedded controller's OVSDB
# role costs.  For each node count (default 1000 and 5000): sbsim ovsdb
# devices with 2 bridges of 2 ports connect to `sbsim controller --ovsdb`;
# the seconds until the operational topology ovsdb:1 shows every node,
# bridge and termination point (polled, so an upper bound), the
# controller's resident size then and the KiB one more node costs between
# the two counts, and how long a GET of the whole topology takes.
# Usage: tests/bench/ovsdb_ctl_scale.sh [N1 N2]   Figures to read, never
# pass/fail.
set -u
cd "$(dirname "$0")/../.."
SBSIM=${SBSIM:-$(pwd)/src/sbsim}
N1=${1:-1000}
N2=${2:-5000}
PORT=${PORT:-12640}
RC=${RC:-12681}
PY=/usr/bin/python3
H="$PY tests/integration/ovsdb_ctl.py"
TOPO="http://127.0.0.1:$RC/rests/data/network-topology:network-topology/topology=ovsdb%3A1?content=nonconfig"
[ -x "$SBSIM" ] || { echo "build sbsim first (make)"; exit 2; }

one() {
	local n=$1 ctl dev t0 t1 rss g0 g1
	"$SBSIM" controller --ovsdb ptcp:$PORT:127.0.0.1 \
	    --restconf 127.0.0.1:$RC >/dev/null 2>&1 &
	ctl=$!
	sleep 0.5
	t0=$(date +%s.%N)
	"$SBSIM" ovsdb --devices "$n" --bridges-per-node 2 \
	    --ports-per-bridge 2 --controller tcp:127.0.0.1:$PORT \
	    --duration 600 >/dev/null 2>&1 &
	dev=$!
	if $H topo "$TOPO" "$n" $((2 * n)) $((6 * n)) 300; then
		t1=$(date +%s.%N)
		rss=$(awk '/VmRSS/ {print $2}' /proc/$ctl/status)
		g0=$(date +%s.%N)
		curl -s -o /dev/null -u admin:admin "$TOPO"
		g1=$(date +%s.%N)
		echo "$n $(echo "$t1 - $t0" | bc) $rss $(echo "$g1 - $g0" | bc)"
	fi
	kill -INT "$dev" "$ctl"
	wait "$dev" "$ctl" 2>/dev/null
}

echo "nodes  seconds-to-topology  controller-rss-kib  get-topology-s"
r1=$(one "$N1")
echo "$r1"
r2=$(one "$N2")
echo "$r2"
set -- $r1 $r2
[ $# -eq 8 ] && echo "KiB per node: $(( ($7 - $3) / ($5 - $1) ))"
