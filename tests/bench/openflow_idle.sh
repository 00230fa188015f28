#!/bin/bash
# Bench (not part of make check): what SWITCHES connected, idle switches
# cost sbsim, against the embedded controller in another process.
#   - CPU: utime+stime ticks of sbsim from /proc/PID/stat over SECS
#     seconds once every switch is up, as % of one core, and per message
#     read (sbsim's rx_messages counter, from --metrics-listen: a switch
#     reads with recv(2) or recvmmsg(2), which /proc/PID/io does not
#     count);
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
MPORT=${MPORT:-26853}
OUT=${OUT:-$(mktemp -d /tmp/sbsim-idle.XXXXXX)}
[ -x "$SBSIM" ] || { echo "build sbsim first (make)"; exit 2; }
HZ=$(getconf CLK_TCK)

ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
# Messages sbsim has read so far (about one per read when idle); 0
# without curl.
rx_msgs() {
	local n
	n=$(curl -s "http://127.0.0.1:$MPORT/metrics" 2>/dev/null |
	    awk '/name="rx_messages"/ { print $2 }')
	echo "${n:-0}"
}
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
	    --duration 600 -q --metrics-listen "127.0.0.1:$MPORT" \
	    >"$OUT/sb.$1" 2>&1 &
	SB=$!
	up "$SB" "$1" || echo "only $(ls /proc/$SB/fd | wc -l) fds up"
	sleep 3		# handshakes, first stats, table features settle
}

stop() { kill -INT "$SB" "$CTL" 2>/dev/null; wait "$SB" "$CTL" 2>/dev/null; }

start 1
RSS1=$(rss_kb "$SB")
stop
PORT=$((PORT + 1))
MPORT=$((MPORT + 1))

start "$N"
RSSN=$(rss_kb "$SB")
T0=$(ticks "$SB"); W0=$(rx_msgs)
sleep "$SECS"
T1=$(ticks "$SB"); W1=$(rx_msgs)
echo "sbsim openflow idle: $N switches, window ${SECS}s, results in $OUT"
awk -v t=$((T1 - T0)) -v hz="$HZ" -v s="$SECS" \
    -v w=$((W1 - W0)) 'BEGIN {
	printf "cpu            %.2f%% of a core\n", 100 * t / hz / s
	printf "messages read  %.0f/s (the controller echoes at its own pace)\n", w / s
	if (w) printf "cpu/message    %.1f us\n", 1e6 * t / hz / w }'
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
