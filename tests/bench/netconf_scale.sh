#!/bin/bash
# Bench (not part of make check): how many NETCONF devices one sbsim
# process holds, over TCP and over SSH, and what they cost.  For each
# count: sbsim netconf listens with N devices; nc_scale_client.py opens
# one session per device (hello + one <get>: the device counts as
# mounted) and keeps them all open; the figures are taken then.
#
#   usage: tests/bench/netconf_scale.sh
#   env:   SBSIM (default ./src/sbsim), TCP_COUNTS (default "1000 5000
#          9000"), SSH_COUNTS (default "200 1000"), CONC (client
#          concurrency, default 256 for TCP, 32 for SSH), SOURCE (a
#          CIDR such as 127.77.0.0/16: the devices on its addresses, all
#          at one port behind one shared listener, instead of PORT+i)
#
# Prints one line per run: transport, devices, sessions up, seconds to
# set them all up, sessions/s, sbsim RSS with the devices only listening
# and with every session up (kB), kB per device for each, sbsim's open
# descriptors at both times, and the CPU sbsim spent in the whole run
# (ms: user + system).  On PORT+i each device holds a listening socket
# and a session a second descriptor, so one process holds at most
# (ulimit -Hn - 64) / 2 devices; with SOURCE one listener serves them
# all, up to ulimit -Hn - 64 - 16.  A count past that is refused before
# the run (shown as "refused").
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
TCP_COUNTS=${TCP_COUNTS:-"1000 5000 9000"}
SSH_COUNTS=${SSH_COUNTS:-"200 1000"}

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null; }
fds() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }

# A base port with all of BASE..BASE+N-1 free (below the ephemeral range).
free_range() {
	ss -Hltn | awk '{n = split($4, a, ":"); print a[n]}' | sort -n |
	    awk -v n="$1" 'BEGIN { base = 10000 }
		$1 >= base && $1 < base + n { base = $1 + 1 }
		END { print base + n <= 32768 ? base : 10000 }'
}

# bench TRANSPORT N
bench() {
	local tr=$1 n=$2 port pid rss0 rss1 fd0 fd1 out conc extra=""
	local where last base
	if [ -n "${SOURCE:-}" ]; then
		port=$(free_range 1)
		where="ptcp:$port --source $SOURCE"
		last=$port
		base="${SOURCE%/*}"
		base="${base%.*}.$((${base##*.} + 1)):$port"
	else
		port=$(free_range "$n")
		where="ptcp:$port:127.0.0.1"
		last=$((port + n - 1))
		base=$port
	fi
	if [ "$tr" = ssh ]; then
		extra="--user bench --password bench --host-key $TMPD/hk"
		conc=${CONC:-32}
	else
		conc=${CONC:-256}
	fi
	# shellcheck disable=SC2086
	"$SBSIM" netconf --devices "$n" --listen $where \
	    --transport "$tr" $extra --duration 600 -q \
	    --report "$TMPD/r-$tr-$n.json" \
	    >"$TMPD/sbsim-$tr-$n.log" 2>&1 &
	pid=$!
	PIDS="$PIDS $pid"
	if ! wait_listen $last; then
		if ! kill -0 $pid 2>/dev/null; then
			printf '%-4s %6d  refused: %s\n' "$tr" "$n" \
			    "$(head -1 "$TMPD/sbsim-$tr-$n.log")"
			return
		fi
		sleep 20
	fi
	sleep 1
	rss0=$(rss_kb $pid)
	fd0=$(fds $pid)
	coproc CLIENT { "$PY" "$HERE/nc_scale_client.py" "$tr" "$base" "$n" \
	    "$conc" bench bench 2>&1; }
	read -r out <&"${CLIENT[0]}"
	sleep 1
	rss1=$(rss_kb $pid)
	fd1=$(fds $pid)
	echo >&"${CLIENT[1]}"
	wait "$CLIENT_PID" 2>/dev/null
	stop_pid $pid
	"$PY" - "$tr" "$n" "$rss0" "$rss1" "$out" "$TMPD/r-$tr-$n.json" \
	    "$fd0" "$fd1" \
	    <<'PYEOF'
import json, sys
tr, n, rss0, rss1, out, rep, fd0, fd1 = sys.argv[1:]
try:
    c = json.load(open(rep))["counters"]
    cpu = c["sbsim_cpu_user_ms"] + c["sbsim_cpu_system_ms"]
except (OSError, ValueError, KeyError):
    cpu = -1
n, rss0, rss1 = int(n), int(rss0 or 0), int(rss1 or 0)
try:
    r = json.loads(out)
except ValueError:
    print("%-4s %6d  client failed: %s" % (tr, n, out[:200]))
    sys.exit(0)
print("%-4s %6d %6d %8.2f %9.1f %9d %9d %7.1f %7.1f %6s %6s %8d%s" % (
    tr, n, r["sessions"], r["seconds"], r["sessions_per_s"], rss0, rss1,
    rss0 / n, rss1 / n, fd0, fd1, cpu,
    "  errors %d: %s" % (r["errors"], r["first_error"]) if r["errors"]
    else ""))
PYEOF
}

echo "hard open-file limit: $(ulimit -Hn)${SOURCE:+; devices on $SOURCE}"
printf '%-4s %6s %6s %8s %9s %9s %9s %7s %7s %6s %6s %8s\n' tr devs up \
    setup_s sess/s rss0_kB rss1_kB kB/dev0 kB/dev1 fds0 fds1 sbsim_ms
for n in $TCP_COUNTS; do bench tcp "$n"; done
for n in $SSH_COUNTS; do bench ssh "$n"; done
