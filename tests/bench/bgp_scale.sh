#!/bin/bash
# Bench (not part of make check): BGP prefix ingest at a million prefixes.
# For PREFIXES IPv4 /24s, sent by 1 peer and by 100 peers (PREFIXES/peers
# each), into BIRD 2 and into the embedded controller (sbsim controller
# --bgp, its own process):
#   - sbsim bgp --withdraw with a monitor peer: the learn phase (from all
#     peers Established until the monitor holds every prefix: the time the
#     controller took to learn and re-advertise them), learn and withdraw
#     rates, and sbsim's CPU (report counters sbsim_cpu_user_ms +
#     sbsim_cpu_system_ms, the monitor's decoding included) per million
#     prefixes sent (announcements plus withdrawals);
#   - for BIRD also the time from the first session Established until
#     BIRD's own imported count (birdc show protocols all) reaches
#     PREFIXES, the measure ExaBGP gets too;
#   - ExaBGP doing the same injection into a fresh BIRD in the same run
#     (one ExaBGP process with 1 or 100 neighbors, each announcing its
#     share from a static "route ... split /24" config: ExaBGP's fastest
#     way, one UPDATE for many prefixes): time from its first session up
#     until BIRD's imported count reaches PREFIXES, and ExaBGP's CPU from
#     /usr/bin/time (configuration parsing included) per million prefixes.
#     ExaBGP is not timed against the embedded controller: without a
#     monitor peer of sbsim there is nothing that counts for it cheaply.
# Usage: tests/bench/bgp_scale.sh [PREFIXES] [PEERS[,PEERS...]]
#   defaults 1000000 and 1,100; EXABGP_PREFIXES=N runs ExaBGP with N
#   prefixes instead (and scales its figures to PREFIXES).
# Needs bird, birdc, exabgp, /usr/bin/time.  Every wait is bounded
# (TIMEOUT seconds, default 900, per run).  Prints a table; the figures
# are to read, never pass/fail.
set -u
cd "$(dirname "$0")/../.." || exit 2
SBSIM=${SBSIM:-$(pwd)/src/sbsim}
TOTAL=${1:-1000000}
PEERS_LIST=${2:-1,100}
EXA_TOTAL=${EXABGP_PREFIXES:-$TOTAL}
TIMEOUT=${TIMEOUT:-900}
OUT=${OUT:-$(mktemp -d /tmp/sbsim-bench.XXXXXX)}
PORT=${PORT:-26179}
PY=/usr/bin/python3
[ -x "$SBSIM" ] || { echo "build sbsim first (make)"; exit 2; }
for c in bird birdc exabgp /usr/bin/time; do
	command -v "$c" >/dev/null || { echo "$c is not installed"; exit 2; }
done

PIDS=""
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
}
trap cleanup EXIT
trap 'exit 1' INT TERM

now_ms() { date +%s%3N; }
# cpu_of PID: user+system seconds from /proc/PID/stat.
cpu_of() {
	awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' \
	    "/proc/$1/stat" 2>/dev/null || echo 0
}
jget() {
	$PY -c 'import json,sys
r = json.load(open(sys.argv[1]))
p = {x["name"]: x for x in r["phases"]}
c = r["counters"]
print(eval(sys.argv[2]))' "$1" "$2"
}
# bird_state SOCK: "ESTABLISHED IMPORTED" over the dynamic peers dyn*.
bird_state() {
	birdc -s "$1" show protocols all '"dyn*"' 2>/dev/null | awk '
	/^dyn[0-9]+ / { if ($6 == "Established") e++ }
	$1 == "Routes:" { i += $2 }
	END { print e + 0, i + 0 }'
}
# wait_port PORT: something listens (10 s at most).
wait_port() {
	local i=0
	while [ $i -lt 100 ]; do
		ss -Hltn | awk '{print $4}' | grep -qE ":$1\$" && return 0
		sleep 0.1; i=$((i + 1))
	done
	return 1
}

# start_bird NAME MONITOR_IP: a fresh BIRD on $PORT (peers: a dynamic
# range; the monitor, if any, a static neighbor); sets BIRD_PID, SOCK.
start_bird() {
	local name=$1 mon=$2
	cat >"$OUT/$name.conf" <<EOF
log stderr { warning, error, fatal, bug };
router id 192.0.2.254;
protocol device { }
template bgp peers {
	local 127.0.0.1 port $PORT as 65000;
	multihop;
	ipv4 { import all; export none; };
}
protocol bgp p1 from peers {
	neighbor range 127.1.0.0/16 as 65001;
	dynamic name "dyn";
}
EOF
	[ -n "$mon" ] && cat >>"$OUT/$name.conf" <<EOF
protocol bgp mon {
	local 127.0.0.1 port $PORT as 65000;
	neighbor $mon as 65002;
	multihop;
	ipv4 { import none; export all; next hop self; };
}
EOF
	SOCK=$OUT/$name.ctl
	bird -f -c "$OUT/$name.conf" -s "$SOCK" -P "$OUT/$name.pid" \
	    >"$OUT/$name.bird.log" 2>&1 &
	BIRD_PID=$!
	PIDS="$PIDS $BIRD_PID"
	wait_port "$PORT" || { echo "BIRD did not start"; exit 1; }
}
stop_bird() {
	cpu_of "$BIRD_PID" >"$OUT/$1.birdcpu"
	birdc -s "$SOCK" down >/dev/null 2>&1 || kill "$BIRD_PID"
	wait "$BIRD_PID" 2>/dev/null
}

# watch_bird SOCK TARGET FILE: poll BIRD (every 0.1 s) until its dyn*
# protocols hold TARGET routes; writes "T_FIRST_ESTABLISHED T_ALL_IMPORTED"
# (milliseconds) to FILE.  When the count falls before a poll saw TARGET
# (sbsim withdraws as soon as its monitor has everything), the time of the
# highest count seen stands in, if that was TARGET or within 1 % of it.
watch_bird() {
	local sock=$1 target=$2 file=$3 t_est=0 st e i t0 max=0 t_max=0
	t0=$(now_ms)
	echo "0 0" >"$file"
	while [ $(( $(now_ms) - t0 )) -lt $((TIMEOUT * 1000)) ]; do
		st=$(bird_state "$sock")
		e=${st% *} i=${st#* }
		[ "$t_est" = 0 ] && [ "$e" -gt 0 ] && t_est=$(now_ms)
		if [ "$i" -ge "$target" ] && [ "$t_est" != 0 ]; then
			echo "$t_est $(now_ms)" >"$file"
			return 0
		fi
		if [ "$i" -gt "$max" ]; then
			max=$i t_max=$(now_ms)
		elif [ "$i" -lt "$max" ] && [ $((max * 100)) -ge $((target * 99)) ]; then
			echo "$t_est $t_max ~" >"$file"
			return 0
		fi
		sleep 0.1
	done
	return 1
}

# sbsim_run NAME PEERS TARGET(bird|ctl)
sbsim_run() {
	local name=$1 n=$2 target=$3 per mon ctl watch="" inflight=256
	per=$((TOTAL / n))
	mon=127.1.0.$((n + 1))
	if [ "$target" = bird ]; then
		# BIRD listens with a backlog of 8: more connects at once
		# overflow it, and the kernel's SYN retransmits (1, 2, 4, 8,
		# 16 s) stretch the connect phase of 100 peers from 0.1 s to
		# anything up to half a minute.
		inflight=8
		start_bird "$name" "$mon"
		watch_bird "$SOCK" $((per * n)) "$OUT/$name.watch" &
		watch=$!
	else
		"$SBSIM" controller --bgp "ptcp:$PORT:127.0.0.1" --as 65000 \
		    --bgp-monitor "$mon" >"$OUT/$name.ctl.log" 2>&1 &
		ctl=$!
		PIDS="$PIDS $ctl"
		wait_port "$PORT" || { echo "the controller did not start"; exit 1; }
	fi
	timeout $((TIMEOUT + 60)) "$SBSIM" bgp --peers "$n" --prefixes "$per" \
	    --as 65001 --peer-as 65000 --controller "tcp:127.0.0.1:$PORT" \
	    --monitor "tcp:127.0.0.1:$PORT" --monitor-as 65002 --withdraw \
	    --connect-inflight "$inflight" \
	    --timeout "$TIMEOUT" --report "$OUT/$name.json" -q \
	    >"$OUT/$name.out" 2>&1
	if [ "$target" = bird ]; then
		# sbsim is done: the count is complete or was missed.
		sleep 1
		kill "$watch" 2>/dev/null
		wait "$watch" 2>/dev/null
		stop_bird "$name"
	else
		cpu_of "$ctl" >"$OUT/$name.ctlcpu"
		kill -INT "$ctl"; wait "$ctl" 2>/dev/null
	fi
}

# exa_conf FILE PEERS TOTAL: one neighbor per peer, peer i announcing
# TOTAL/PEERS /24s from 10.0.0.0/24 on, as aligned blocks split into /24s.
exa_conf() {
	$PY - "$@" "$PORT" <<'PYEOF'
import sys
path, n, total, port = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
per = total // n
base = 10 << 16          # /24 number of 10.0.0.0/24
with open(path, "w") as f:
    for i in range(n):
        f.write("neighbor 127.0.0.1 {\n\trouter-id 192.0.2.%d;\n" % (10 + i % 200) +
                "\tlocal-address 127.1.0.%d;\n\tlocal-as 65001;\n\tpeer-as 65000;\n"
                % (i + 1) +
                "\tfamily { ipv4 unicast; }\n\tstatic {\n")
        lo, hi = base + i * per, base + (i + 1) * per
        while lo < hi:
            size = lo & -lo if lo else 1 << 24
            while size > hi - lo:
                size >>= 1
            bits = size.bit_length() - 1
            a = lo << 8
            f.write("\t\troute %d.%d.%d.0/%d next-hop 192.0.2.1 split /24;\n" %
                    (a >> 24, (a >> 16) & 255, (a >> 8) & 255, 24 - bits))
            lo += size
        f.write("\t}\n}\n")
PYEOF
}

# exa_run NAME PEERS
exa_run() {
	local name=$1 n=$2 per tp ep watch
	per=$((EXA_TOTAL / n))
	exa_conf "$OUT/$name.exa.conf" "$n" "$EXA_TOTAL"
	start_bird "$name" ""
	watch_bird "$SOCK" $((per * n)) "$OUT/$name.watch" &
	watch=$!
	env exabgp.daemon.drop=false exabgp.daemon.user=root \
	    exabgp.tcp.port="$PORT" exabgp.api.cli=false \
	    exabgp.log.destination=stdout \
	    /usr/bin/time -o "$OUT/$name.time" -f '%U %S %e %M' \
	    exabgp "$OUT/$name.exa.conf" >"$OUT/$name.exa.log" 2>&1 &
	tp=$!
	PIDS="$PIDS $tp"
	wait "$watch"
	# ExaBGP runs under /usr/bin/time: stop it, time then reports.
	ep=$(pgrep -P "$tp")
	[ -n "$ep" ] && kill -TERM "$ep"
	wait "$tp" 2>/dev/null
	stop_bird "$name"
}

echo "sbsim BGP bench: $TOTAL IPv4 /24s, peers $PEERS_LIST (ExaBGP: $EXA_TOTAL)"
echo "results in $OUT"
for n in ${PEERS_LIST//,/ }; do
	sbsim_run "bird-$n" "$n" bird
	sbsim_run "ctl-$n" "$n" ctl
	exa_run "exa-$n" "$n"
done

# The table.
row() {
	local name=$1 f=$OUT/$1
	if [ -f "$f.json" ]; then
		jget "$f.json" '"%s %s %s %s %s %s %s %s %s %s %s" % (
		    p["connect"]["state"] + "/" + p["learn"]["state"] + "/" + p["withdraw"]["state"],
		    p["learn"]["seconds"], p["learn"]["rate_per_s"],
		    p["withdraw"]["seconds"], p["withdraw"]["rate_per_s"],
		    c.get("sbsim_cpu_user_ms", 0) + c.get("sbsim_cpu_system_ms", 0),
		    c.get("prefixes_sent", 0), c.get("withdrawals_sent", 0),
		    c.get("sbsim_max_rss_kb", 0), p["learn"]["end_s"] - p["connect"]["end_s"],
		    p["announce"]["seconds"])'
	fi
}
$PY - "$OUT" "$TOTAL" "$EXA_TOTAL" "$PEERS_LIST" <<PYEOF
import os, sys
out, total, exa_total, peers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def rd(name, ext):
    try:
        return open(os.path.join(out, name + "." + ext)).read().split()
    except OSError:
        return None
rows = {}
$(for n in ${PEERS_LIST//,/ }; do for t in bird ctl; do
	echo "rows['$t-$n'] = '$(row "$t-$n")'.split()"
done; done)
print()
print("%-38s %14s %9s %9s %9s %9s %9s %9s %9s %8s" % ("run", "states", "learn s",
      "est->all", "learn/s", "wd s", "wd/s", "cpu s/M", "BIRD cnt", "ctl cpu"))
for n in peers.split(","):
    for t, what in (("bird", "sbsim -> BIRD"), ("ctl", "sbsim -> embedded controller")):
        r = rows.get("%s-%s" % (t, n))
        if not r:
            print("%-38s (no report)" % ("%s, %s peers" % (what, n)))
            continue
        st, ls, lr, ws, wr, cpu, sent, wd, rss, est_learn, ann = r
        cpu_per_m = float(cpu) / 1000 * 1e6 / max(1, int(sent) + int(wd))
        cnt, ctlcpu = "-", "-"
        w = rd("%s-%s" % (t, n), "watch")
        if w and float(w[1]) > 0 and float(w[0]) > 0:
            cnt = "%s%.2f" % ("~" if len(w) > 2 else "", (float(w[1]) - float(w[0])) / 1000)
        c = rd("%s-%s" % (t, n), "ctlcpu") or rd("%s-%s" % (t, n), "birdcpu")
        if c:
            ctlcpu = "%.1f" % float(c[0])
        print("%-38s %14s %9.2f %9.2f %9.0f %9.2f %9.0f %9.2f %9s %8s" % (
            "%s, %s peers" % (what, n), st, float(ls), float(est_learn),
            float(lr), float(ws), float(wr), cpu_per_m, cnt, ctlcpu))
    w, tm = rd("exa-%s" % n, "watch"), rd("exa-%s" % n, "time")
    name = "ExaBGP -> BIRD, %s peers" % n
    if not w or float(w[1]) <= 0:
        print("%-38s did not reach %d routes" % (name, exa_total))
        continue
    secs = max(0.001, (float(w[1]) - float(w[0])) / 1000)
    cpu = (float(tm[0]) + float(tm[1])) if tm else float("nan")
    scale = "" if exa_total == total else " (run at %d)" % exa_total
    bc = rd("exa-%s" % n, "birdcpu")
    print("%-38s %14s %9.2f %9.2f %9.0f %9s %9s %9.2f %9.2f %8s%s" % (
        name, "-", secs, secs, exa_total / secs, "-", "-", cpu * 1e6 / exa_total,
        secs, "%.1f" % float(bc[0]) if bc else "-", scale))
    if tm:
        print("%-38s ExaBGP wall %.1f s (its configuration parsed first), "
              "CPU %.1f s, peak RSS %.0f MiB" % ("", float(tm[2]), cpu, float(tm[3]) / 1024))
print()
print("learn s: sbsim's learn phase (from its trigger, once all peers are")
print("  Established, until the monitor holds every prefix); learn/s from it")
print("est->all: the last peer Established until the monitor holds every prefix")
print("ExaBGP: its first session up until BIRD counts them all (both columns)")
print("BIRD cnt: first session Established until BIRD's imported count is complete")
print("  (polled every 0.1 s; ~: the poll missed the top, the highest count seen)")
print("cpu s/M: injector CPU seconds per million prefixes sent (sbsim: announced +")
print("  withdrawn, its monitor included; ExaBGP: announced, /usr/bin/time)")
print("ctl cpu: CPU seconds of the controller process (BIRD or sbsim controller)")
PYEOF
