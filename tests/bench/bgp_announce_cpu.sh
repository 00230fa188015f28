#!/bin/bash
# Bench (not part of make check): what announcing prefixes into BIRD 2
# costs sbsim.  One peer announces PREFIXES IPv4 /24s into a fresh BIRD
# (import all), RUNS times; each run's CPU is the report's counters
# sbsim_cpu_user_ms + sbsim_cpu_system_ms (the whole run: connect,
# announce and its wait for BIRD's TCP to acknowledge the last byte, the
# txack witness), and its voluntary context switches (/usr/bin/time: the
# loop's wakeups) are printed beside it.  The last line is
#   BGP announce CPU-s per million: MEDIAN (min MIN, max MAX over RUNS runs)
# Usage: tests/bench/bgp_announce_cpu.sh [PREFIXES] [RUNS]
#   defaults 1000000 and 5.  Needs bird, birdc and /usr/bin/time.
#   FAMILY=l3vpn-ipv4-unicast (or ipv4-labelled-unicast) announces that
#   family instead (--family; BIRD's vpn4 or ipv4 mpls channel);
#   ipv4-flowspec and ipv6-flowspec BIRD's flow4 and flow6 channels.
set -u
cd "$(dirname "$0")/../.." || exit 2
SBSIM=${SBSIM:-$(pwd)/src/sbsim}
TOTAL=${1:-1000000}
RUNS=${2:-5}
TIMEOUT=${TIMEOUT:-300}
FAMILY=${FAMILY:-ipv4-unicast}
case $FAMILY in
ipv4-unicast) TABLE= CHANNEL="ipv4"; FAMARG= ;;
l3vpn-ipv4-unicast) TABLE="vpn4 table vpntab;" CHANNEL="vpn4 mpls"
	FAMARG="--family $FAMILY" ;;
ipv4-labelled-unicast) TABLE="ipv4 table lutab;" CHANNEL="ipv4 mpls"
	FAMARG="--family $FAMILY" ;;
ipv4-flowspec) TABLE="flow4 table ft4;" CHANNEL="flow4"
	FAMARG="--family $FAMILY" ;;
ipv6-flowspec) TABLE="flow6 table ft6;" CHANNEL="flow6"
	FAMARG="--family $FAMILY" ;;
*) echo "FAMILY: ipv4-unicast, l3vpn-ipv4-unicast, ipv4-labelled-unicast,"
	echo "    ipv4-flowspec, ipv6-flowspec (BIRD 2 has no EVPN)"
	exit 2 ;;
esac
PY=/usr/bin/python3
[ -x "$SBSIM" ] || { echo "build sbsim first (make)"; exit 2; }
for c in bird birdc /usr/bin/time; do
	command -v "$c" >/dev/null || { echo "$c is not installed"; exit 2; }
done
OUT=$(mktemp -d /tmp/sbsim-bgpcpu.XXXXXX)
PORT=${PORT:-$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')}
BIRD_PID=""
cleanup() {
	[ -n "$BIRD_PID" ] && kill "$BIRD_PID" 2>/dev/null && wait "$BIRD_PID" 2>/dev/null
	rm -rf "$OUT"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

start_bird() {
	cat >"$OUT/bird.conf" <<CONF
log stderr { warning, error, fatal, bug };
router id 192.0.2.254;
$TABLE
protocol device { }
protocol bgp p1 {
	local 127.0.0.1 port $PORT as 65000;
	neighbor range 127.1.0.0/16 as 65001;
	dynamic name "dyn";
	multihop;
	$CHANNEL { ${TABLE:+table ${TABLE#* table }} import all; export none; };
}
CONF
	bird -f -c "$OUT/bird.conf" -s "$OUT/bird.ctl" -P "$OUT/bird.pid" \
	    >"$OUT/bird.log" 2>&1 &
	BIRD_PID=$!
	for _ in $(seq 100); do
		ss -Hltn | awk '{print $4}' | grep -qE ":$PORT\$" && return 0
		sleep 0.1
	done
	echo "BIRD did not start"; exit 1
}
stop_bird() {
	birdc -s "$OUT/bird.ctl" down >/dev/null 2>&1 || kill "$BIRD_PID"
	wait "$BIRD_PID" 2>/dev/null
	BIRD_PID=""
}

: >"$OUT/cpu"
for r in $(seq "$RUNS"); do
	start_bird
	/usr/bin/time -f "%c %w" -o "$OUT/time" timeout $((TIMEOUT + 30)) \
	    "$SBSIM" bgp --peers 1 --prefixes "$TOTAL" --as 65001 \
	    --peer-as 65000 --controller "tcp:127.0.0.1:$PORT" \
	    --timeout "$TIMEOUT" --report "$OUT/r.json" -q $FAMARG \
	    >"$OUT/out" 2>&1
	rc=$?
	stop_bird
	[ $rc -eq 0 ] || { echo "run $r: sbsim exited $rc"; cat "$OUT/out"; exit 1; }
	$PY - "$OUT/r.json" "$TOTAL" "$r" "$(cat "$OUT/time")" >>"$OUT/cpu" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
c = r["counters"]
p = {x["name"]: x for x in r["phases"]}
cpu = (c.get("sbsim_cpu_user_ms", 0) + c.get("sbsim_cpu_system_ms", 0)) / 1000
per = cpu * 1e6 / int(sys.argv[2])
inv, vol = sys.argv[4].split()
a = p.get("announce", {})
print("%.4f" % per, file=sys.stdout)
print("run %s: %.3f CPU-s (%.4f per million), announce %s %.3f s, "
      "%s voluntary / %s involuntary context switches"
      % (sys.argv[3], cpu, per, a.get("state", "?"), a.get("seconds", 0) or 0,
         vol, inv), file=sys.stderr)
PYEOF
done
sort -n "$OUT/cpu" | awk '{ v[NR] = $1 } END {
	printf "BGP announce CPU-s per million ('"$FAMILY"'): %.4f (min %.4f, max %.4f over %d runs)\n",
	    v[int((NR + 1) / 2)], v[1], v[NR], NR }'
