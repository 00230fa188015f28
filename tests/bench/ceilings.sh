#!/bin/bash
# Bench (not part of make check): sbsim's own ceilings (issue 15, item 5),
# each beside the figure measured before that issue and its goal, on
# this host.  Each row runs one of the other benches (or one sbsim run)
# at a size that fits a few minutes on two cores:
#   ingest   sbsim CPU-s per million FLOW_MODs decoded and applied
#            (openflow_scale.sh 2000 250: 500 000 adds and their deletes)
#   cbench   sbsim's CPU per PACKET_IN answered by ovs-testcontroller in
#            throughput mode (16 switches, 10 s); beside cbench's own
#            when a cbench binary is on PATH (Debian packages none)
#   idle     CPU of 10 000 connected idle switches echoed by the embedded
#            controller, and KiB per idle switch (openflow_idle.sh)
#   netconf  KiB per NETCONF device with its session up, TCP and SSH: the
#            slope of sbsim's RSS between two counts (netconf_scale.sh,
#            1 000 and 5 000 TCP devices, 100 and 300 SSH devices)
#   mount    SSH devices mounted per second, and notification prefixes
#            per second over TCP counted by the controller
#            (netconf_mount.sh, 1 000 devices, 10 x 100 prefixes each)
#   bgp      the BGP cycle (announce, monitor decode, withdraw) in CPU-s
#            per million prefixes sent, 10 peers x 100 000 prefixes
#            against the embedded controller
# Figures to read, never pass/fail: CPU on a shared host is noisy (run it
# twice; callgrind counts are the repeatable measure, see docs/guide.md).
# Usage: tests/bench/ceilings.sh [ROW...]   (default: every row)
set -u
cd "$(dirname "$0")/../.."
SBSIM=${SBSIM:-$(pwd)/src/sbsim}
export SBSIM
OUT=${OUT:-$(mktemp -d /tmp/sbsim-ceilings.XXXXXX)}
mkdir -p "$OUT"
ROWS=${*:-ingest cbench idle netconf mount bgp}
PY=/usr/bin/python3
[ -x "$SBSIM" ] || { echo "build sbsim first (make)"; exit 2; }
B=tests/bench
PIDS=""
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done' EXIT

# row NAME BEFORE GOAL NOW: one line of the table.
row() {
	printf '%-46s %-16s %-12s %s\n' "$1" "$2" "$3" "$4"
}

# field FILE PATTERN N: the Nth word of the first line matching PATTERN.
field() {
	awk -v n="$3" -v pat="$2" '$0 ~ pat { print $n; exit }' "$1"
}

wait_port() {
	local i
	for i in $(seq 1 100); do
		ss -Hltn "sport = :$1" 2>/dev/null | grep -q . && return 0
		sleep 0.1
	done
	return 1
}

ceil_ingest() {
	mkdir -p "$OUT/ingest"
	PORT=27653 OUT="$OUT/ingest" "$B/openflow_scale.sh" 2000 250 \
	    >"$OUT/ingest.txt" 2>&1
	row "FLOW_MOD ingest, CPU-s per million" "1.11" "0.5" \
	    "$(field "$OUT/ingest.txt" 'CPU per 1 000 000 FLOW_MODs' 8) s"
}

# sbsim in cbench's throughput mode against ovs-testcontroller: CPU per
# PACKET_IN answered, from sbsim's own report.
ceil_cbench() {
	local port=27654 tc us cb=""
	command -v ovs-testcontroller >/dev/null || {
		row "cbench mode, CPU vs cbench's" "1.2-1.45x" "0.7x" \
		    "ovs-testcontroller not installed"; return; }
	ovs-testcontroller --unixctl="$OUT/tc.ctl" "ptcp:$port:127.0.0.1" \
	    >"$OUT/tc.log" 2>&1 &
	tc=$!
	PIDS="$PIDS $tc"
	wait_port $port
	"$SBSIM" openflow --switches 16 --controller "tcp:127.0.0.1:$port" \
	    --packet-in throughput --duration 10 -q \
	    --report "$OUT/cbench.json" >"$OUT/cbench.log" 2>&1
	us=$($PY - "$OUT/cbench.json" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
c = r["counters"]
n = next((p["items"] for p in r["phases"] if p["name"] == "packet_in"), 0)
cpu = c["sbsim_cpu_user_ms"] + c["sbsim_cpu_system_ms"]
print("%.2f us/response (%d in 10 s)" % (cpu * 1000.0 / max(1, n), n))
PYEOF
)
	# cbench against the same controller, 16 switches, 10 loops of 1 s;
	# against ovs-testcontroller it sometimes gets no FEATURES_REQUEST
	# and exits at once: three tries.
	if command -v cbench >/dev/null; then
		for try in 1 2 3; do
			/usr/bin/time -f '%U %S' -o "$OUT/cbench.time" \
			    cbench -c 127.0.0.1 -p $port -s 16 -t -l 10 \
			    -m 1000 >"$OUT/cbench.txt" 2>&1 && break
		done
		cb=$(awk 'NR == FNR { cpu = $1 + $2; next }
		    /total = / { for (i = 1; i < NF; i++)
		        if ($i == "=") n += $(i + 1) * 1000 }
		    END { if (n > 0) printf "%.2f", cpu * 1e6 / n }' \
		    "$OUT/cbench.time" "$OUT/cbench.txt")
		if [ -n "$cb" ]; then
			cb="; cbench $cb us/response, ratio $(awk -v a="${us%% *}" \
			    -v b="$cb" 'BEGIN { printf "%.2fx", a / b }')"
		else
			cb="; cbench failed: $(tail -1 "$OUT/cbench.txt")"
		fi
	else
		cb="; no cbench on PATH for the ratio"
	fi
	kill "$tc" 2>/dev/null; wait "$tc" 2>/dev/null
	row "cbench mode, CPU vs cbench's" "1.2-1.45x" "0.7x" "$us$cb"
}

ceil_idle() {
	mkdir -p "$OUT/idle"
	OUT="$OUT/idle" "$B/openflow_idle.sh" 10000 20 >"$OUT/idle.txt" 2>&1
	row "idle CPU, 10 000 switches" "3.9%" "1%" \
	    "$(field "$OUT/idle.txt" '^cpu ' 2) of a core ($(field \
	    "$OUT/idle.txt" '^cpu/message' 2) us per message read)"
	row "KiB per idle switch" "3.8" "2" \
	    "$(field "$OUT/idle.txt" '^rss/switch' 2)"
}

# Per device: the slope of sbsim's RSS with every session up between two
# counts (the process's own base left out).
ceil_netconf() {
	TCP_COUNTS="1000 5000" SSH_COUNTS="100 300" "$B/netconf_scale.sh" \
	    >"$OUT/netconf.txt" 2>&1
	row "NETCONF KiB per TCP device, session up" "19.5" "8" \
	    "$(slope tcp 1000 5000)"
	row "NETCONF KiB per SSH device, session up" "67" "32" \
	    "$(slope ssh 100 300)"
}

# slope TR N1 N2: (rss1 at N2 - rss1 at N1) / (N2 - N1), in KiB.
slope() {
	awk -v tr="$1" -v a="$2" -v b="$3" '$1 == tr && $2 == a { ra = $7 }
	    $1 == tr && $2 == b { rb = $7 }
	    END { if (ra && rb) printf "%.1f\n", (rb - ra) / (b - a);
	    else print "no figure (see netconf.txt)" }' "$OUT/netconf.txt"
}

ceil_mount() {
	N=1000 K=10 J=100 "$B/netconf_mount.sh" tcp ssh \
	    >"$OUT/mount.txt" 2>&1
	row "SSH devices mounted per second" "363" "1000" \
	    "$(awk '/^ssh:/ { s = 1 } s && /mount \(device side/ {
	        print $(NF - 1); exit }' "$OUT/mount.txt")"
	row "notification prefixes per second, TCP" "200000" "500000" \
	    "$(awk '/^tcp:/ { s = 1 } s && /notification prefixes/ {
	        split($0, a, "("); sub(/,.*/, "", a[2]); sub(/\/s.*/, "", a[3])
	        print a[2] " counted, " a[3] " sent"; exit }' "$OUT/mount.txt")"
}

ceil_bgp() {
	local port=27655 ctl
	"$SBSIM" controller --bgp "ptcp:$port:127.0.0.1" --as 65000 \
	    --bgp-monitor 127.1.0.11 >"$OUT/bgp.ctl.log" 2>&1 &
	ctl=$!
	PIDS="$PIDS $ctl"
	wait_port $port
	timeout 300 "$SBSIM" bgp --peers 10 --prefixes 100000 --as 65001 \
	    --peer-as 65000 --controller "tcp:127.0.0.1:$port" \
	    --monitor "tcp:127.0.0.1:$port" --monitor-as 65002 --withdraw \
	    --timeout 240 --report "$OUT/bgp.json" -q >"$OUT/bgp.log" 2>&1
	kill -INT "$ctl" 2>/dev/null; wait "$ctl" 2>/dev/null
	row "BGP cycle, CPU-s per million prefixes" "0.42" "0.1" \
	    "$($PY - "$OUT/bgp.json" <<'PYEOF'
import json, sys
c = json.load(open(sys.argv[1]))["counters"]
sent = c.get("prefixes_sent", 0) + c.get("withdrawals_sent", 0)
cpu = (c["sbsim_cpu_user_ms"] + c["sbsim_cpu_system_ms"]) / 1000.0
print("%.2f s (%d prefixes sent)" % (cpu * 1e6 / max(1, sent), sent))
PYEOF
)"
}

echo "sbsim ceilings on $(nproc) cores, $(date -u +%FT%TZ); results in $OUT"
printf '%-46s %-16s %-12s %s\n' ceiling before goal now
for r in $ROWS; do
	case $r in
	ingest|cbench|idle|netconf|mount|bgp) "ceil_$r" ;;
	*) echo "unknown row $r (ingest cbench idle netconf mount bgp)"
	   exit 2 ;;
	esac
done
