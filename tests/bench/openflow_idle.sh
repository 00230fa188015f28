#!/bin/bash
# Bench (not part of make check): what SWITCHES connected, idle switches
# cost sbsim, against the embedded controller in another process.
#   - CPU: utime+stime ticks of sbsim from /proc/PID/stat over SECS
#     seconds once every switch is up, as % of one core;
#   - syscalls per second over the same kind of window (strace -c -f),
#     the top ones by count, when strace is installed;
#   - RSS per switch: (RSS of SWITCHES - RSS of one switch) / SWITCHES.
# The controller echoes every switch (its keepalive) and sbsim echoes
# the controller after --echo-interval idle seconds: that is the idle
# traffic.  Figures to read, never pass/fail (a shared host is noisy).
# Usage: tests/bench/openflow_idle.sh [SWITCHES] [SECS]
set -u
cd "$(dirname "$0")/../.."
SBSIM=${SBSIM:-$(pwd)/src/sbsim}
N=${1:-10000}
SECS=${2:-15}
PORT=${PORT:-26753}
OUT=${OUT:-$(mktemp -d /tmp/sbsim-idle.XXXXXX)}
[ -x "$SBSIM" ] || { echo "build sbsim first (make)"; exit 2; }
HZ=$(getconf CLK_TCK)

ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
# read(2)/readv(2) calls so far (/proc/PID/io syscr; recv and send are
# not counted there): one per request read.
syscr() { awk '/^syscr/ { print $2 }' "/proc/$1/io"; }
rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
# up PID N: wait until sbsim holds N established connections (60 s).
up() {
	local i n
	for i in $(seq 600); do
		n=$(ls "/proc/$1/fd" 2>/dev/null | wc -l)
		[ "$n" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# start N: controller + N switches; sets CTL and SB.
start() {
	"$SBSIM" controller --openflow "ptcp:$PORT:127.0.0.1" \
	    --stats-interval 0 --duration 600 >"$OUT/ctl.$1" 2>&1 &
	CTL=$!
	sleep 0.5
	"$SBSIM" openflow --switches "$1" --controller "tcp:127.0.0.1:$PORT" \
	    --duration 600 -q >"$OUT/sb.$1" 2>&1 &
	SB=$!
	up "$SB" "$1" || echo "only $(ls /proc/$SB/fd | wc -l) fds up"
	sleep 3		# handshakes, first stats, table features settle
}

stop() { kill -INT "$SB" "$CTL" 2>/dev/null; wait "$SB" "$CTL" 2>/dev/null; }

start 1
RSS1=$(rss_kb "$SB")
stop
PORT=$((PORT + 1))

start "$N"
RSSN=$(rss_kb "$SB")
T0=$(ticks "$SB"); W0=$(syscr "$SB")
sleep "$SECS"
T1=$(ticks "$SB"); W1=$(syscr "$SB")
echo "sbsim openflow idle: $N switches, window ${SECS}s, results in $OUT"
awk -v t=$((T1 - T0)) -v hz="$HZ" -v s="$SECS" \
    -v w=$((W1 - W0)) 'BEGIN {
	printf "cpu            %.2f%% of a core\n", 100 * t / hz / s
	printf "reads          %.0f/s (the controller echoes at its own pace)\n", w / s
	if (w) printf "cpu/read       %.1f us\n", 1e6 * t / hz / w }'
awk -v a="$RSS1" -v b="$RSSN" -v n="$N" \
    'BEGIN { printf "rss            %d KiB (one switch: %d KiB)\nrss/switch     %.2f KiB\n", b, a, (b - a) / (n - 1) }'
if command -v strace >/dev/null; then
	timeout -s INT "$SECS" strace -c -f -p "$SB" -o "$OUT/strace" \
	    2>/dev/null
	# The rate of the controller's echoes varies from run to run:
	# compare system calls per write (writev, sendto), not per second.
	awk -v s="$SECS" '$1 ~ /^[0-9.]+$/ && NF >= 5 {
		calls = $4; name = $NF
		if (name == "total") { tot = calls; next }
		if (name == "writev" || name == "sendto") wr += calls
		printf "  %-16s %8.0f/s\n", name, calls / s }
		END { printf "syscalls       %.0f/s, %.2f per write\n", tot / s,
		    wr ? tot / wr : 0 }' \
	    "$OUT/strace" | sort -k2 -rn | head -8
fi
stop
