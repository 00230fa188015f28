#!/bin/bash
# Bench (not part of make check), issue 12's figures: N OVSDB nodes (sbsim
# ovsdb, active) with B bridges each created through the embedded
# controller's northbound (topology ovsdb:1): connect and learn time, the
# bridges per second timed at the devices and at the northbound, sbsim's
# KiB per node and CPU seconds, the controller's CPU and RSS; beside a
# real ovsdb-server + ovs-vswitchd (Debian's openvswitch-switch, userspace
# datapath, started here with their own database and run directory)
# creating R bridges with ovs-vsctl, which waits for vswitchd to apply
# each: bridges per second, KiB per bridge, CPU seconds.
# Usage: tests/bench/ovsdb_bench.sh [N B R]   (default 10000 2 100)
# Figures to read, never pass/fail.
set -u
cd "$(dirname "$0")/../.."
SBSIM=${SBSIM:-$(pwd)/src/sbsim}
N=${1:-10000} B=${2:-2} R=${3:-100}
OUT=${OUT:-$(mktemp -d /tmp/sbsim-bench.XXXXXX)}
PORT=${PORT:-26640} RC=${RC:-28184}
SCHEMA=/usr/share/openvswitch/vswitch.ovsschema
[ -x "$SBSIM" ] || { echo "build sbsim first (make)"; exit 2; }
PIDS=""
trap 'for p in $PIDS; do kill $p 2>/dev/null; done; wait 2>/dev/null' EXIT

cpu_of() {	# user+system seconds of PID
	awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' \
	    "/proc/$1/stat" 2>/dev/null
}
rss_of() {	# resident KiB of PID
	awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null
}

# 1. sbsim: N nodes, N x B bridges through the controller.
"$SBSIM" controller --ovsdb ptcp:$PORT:127.0.0.1 --restconf 127.0.0.1:$RC \
    >"$OUT/ctl.log" 2>&1 &
CTL=$!
PIDS="$PIDS $CTL"
sleep 0.5
/usr/bin/time -v "$SBSIM" ovsdb --devices "$N" \
    --controller tcp:127.0.0.1:$PORT --bridges "$B" --no-datapath \
    --northbound odl:http://127.0.0.1:$RC --northbound-parallel 8 \
    --northbound-poll 1 --timeout 120 --controller-pid $CTL \
    --report "$OUT/sbsim.json" -q >"$OUT/sbsim.log" 2>"$OUT/time.log"
echo "sbsim ovsdb exited $? ($OUT)"

# 2. A real ovsdb-server + ovs-vswitchd, R bridges.
D=$OUT/ovs
mkdir -p "$D"
export OVS_RUNDIR=$D OVS_LOGDIR=$D OVS_DBDIR=$D
ovsdb-tool create "$D/conf.db" "$SCHEMA"
ovsdb-server "$D/conf.db" --remote=punix:"$D/db.sock" \
    --pidfile="$D/ovsdb.pid" --unixctl="$D/ovsdb.ctl" \
    --log-file="$D/ovsdb.log" >/dev/null 2>&1 &
OSRV=$!
PIDS="$PIDS $OSRV"
sleep 0.5
ovs-vsctl --db=unix:"$D/db.sock" --no-wait init
ovs-vswitchd unix:"$D/db.sock" --pidfile="$D/vs.pid" \
    --unixctl="$D/vs.ctl" --log-file="$D/vs.log" >/dev/null 2>&1 &
VSW=$!
PIDS="$PIDS $VSW"
sleep 1
r0=$(( $(rss_of $OSRV) + $(rss_of $VSW) ))
c0=$(echo "$(cpu_of $OSRV) + $(cpu_of $VSW)" | bc -l)
t0=$(date +%s.%N)
for i in $(seq 1 "$R"); do
	ovs-vsctl --db=unix:"$D/db.sock" --timeout=30 add-br "br$i" -- \
	    set bridge "br$i" datapath_type=netdev || echo "add-br br$i failed"
done
t1=$(date +%s.%N)
r1=$(( $(rss_of $OSRV) + $(rss_of $VSW) ))
c1=$(echo "$(cpu_of $OSRV) + $(cpu_of $VSW)" | bc -l)
nbr=$(ovs-vsctl --db=unix:"$D/db.sock" list-br | wc -l)

/usr/bin/python3 - "$OUT/sbsim.json" "$OUT/time.log" "$N" "$B" \
    "$r0" "$r1" "$c0" "$c1" "$t0" "$t1" "$nbr" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
t = open(sys.argv[2]).read()
n, b = int(sys.argv[3]), int(sys.argv[4])
r0, r1, c0, c1, t0, t1 = map(float, sys.argv[5:11])
nbr = int(sys.argv[11])
p = {x["name"]: x for x in r["phases"]}
c = r["counters"]
rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1))
cpu = (c["sbsim_cpu_user_ms"] + c["sbsim_cpu_system_ms"]) / 1000
def ph(name):
    x = p.get(name)
    return "%s %d in %.3f s (%.0f/s)" % (x["state"], x["items"], x["seconds"],
        x["rate_per_s"]) if x else "absent"
print("sbsim: %d OVSDB nodes, %d bridges each, through the embedded controller" % (n, b))
for name in ("connect", "learn", "nb_learn", "nb_program", "program",
             "confirm", "nb_delete", "delete"):
    print("  %-10s %s" % (name, ph(name)))
print("  sbsim: peak RSS %.0f MiB = %.1f KiB per node; CPU %.2f s" %
      (rss / 1024, rss / n, cpu))
print("  controller: CPU %.2f s, peak RSS %.0f MiB" %
      (c.get("controller_cpu_ms", 0) / 1000, c.get("controller_max_rss_kb", 0) / 1024))
print("real ovsdb-server + ovs-vswitchd: %d bridges made with ovs-vsctl "
      "(each waits for vswitchd)" % nbr)
print("  %.2f s, %.1f bridges/s; RSS %.0f -> %.0f MiB, %.0f KiB per bridge; CPU %.2f s" %
      (t1 - t0, nbr / (t1 - t0), r0 / 1024, r1 / 1024, (r1 - r0) / max(nbr, 1),
       c1 - c0))
PY
