#!/bin/bash
# A three-member cluster of embedded controllers, failed over without a
# JVM: switches connect to all three (--controller EP,EP,EP); c1 asks to
# be master, c2 and c3 slaves (--role).  c1 programs the flows, then is
# killed (by its PID); c2 is made master through sbsim-cluster:set-role
# and pushes its flows.  The report must show connect.c1..c3, the
# failover phase (one item per switch) and the new master's FLOW_MODs
# arriving (failover_flow_mods, flow_mods.c2), with no slave write.
# Then the role state machine on the wire (of_cluster_peer.py): a slave's
# FLOW_MOD refused with IS_SLAVE, a stale generation id refused, the
# demoted master told with ROLE_STATUS.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
need curl
N=4		# switches
K=25		# flows per switch
TOTAL=$((N * K))
read -r P1 P2 P3 R2 R3 PEER MP <<<"$(base=$(free_ports 7); \
    echo $base $((base + 1)) $((base + 2)) $((base + 3)) $((base + 4)) \
    $((base + 5)) $((base + 6)))"

# What a cluster cannot be: usage errors (exit 2, one line).
FAILS=0
C2EP=tcp:127.0.0.1:1,tcp:127.0.0.1:2
bad_usage openflow 'packet-in takes one' --switches 1 --controller $C2EP \
    --packet-in latency
bad_usage openflow 'tcp:IP:PORT or ssl' --switches 1 \
    --controller ptcp:7000,tcp:127.0.0.1:2
bad_usage openflow 'needs OpenFlow 1.3' --switches 1 --controller $C2EP \
    --of-version 1.0
bad_usage openflow 'at most 8' --switches 1 --controller \
    $C2EP,$C2EP,$C2EP,$C2EP,tcp:127.0.0.1:3
bad_usage openflow 'names no second controller' --switches 1 \
    --controller tcp:127.0.0.1:1,
bad_usage controller "role" --role boss
[ $FAILS -eq 0 ] || fail "$FAILS usage errors not refused as such"

member() {	# LOG PORT ROLE [RESTCONF]
	local log=$1 port=$2 role=$3 rc=${4:-}
	start_bg "$TMPD/$log" "$SBSIM" controller --openflow ptcp:$port \
	    --role "$role" --switches $N --flows-per-switch $K \
	    ${rc:+--restconf 127.0.0.1:$rc}
}

set_role() {	# PORT URL-PREFIX BODY: prints "HTTP-CODE BODY"
	curl -s -m 5 -u admin:admin -X POST -H 'Content-Type: application/json' \
	    -w ' %{http_code}' -d "$3" \
	    "http://127.0.0.1:$1/$2/sbsim-cluster:set-role"
}

member c1.log $P1 master
C1=$LAST_PID
member c2.log $P2 slave $R2
C2=$LAST_PID
member c3.log $P3 slave $R3
C3=$LAST_PID
for p in $P1 $P2 $P3 $R2 $R3; do
	wait_listen $p || fail "nothing listens on $p"
done

start_bg "$TMPD/sw.log" timeout 60 "$SBSIM" openflow --switches $N \
    --controller tcp:127.0.0.1:$P1,tcp:127.0.0.1:$P2,tcp:127.0.0.1:$P3 \
    --expect-flows $TOTAL --timeout 4 --report "$TMPD/r.json" \
    --expect "failover.items>=$N" --expect "connect.c3.items>=$N" \
    --metrics-listen 127.0.0.1:$MP
SW=$LAST_PID

# items PHASE: the run's items of PHASE so far, from its metrics.
items() {
	curl -s "http://127.0.0.1:$MP/metrics" 2>/dev/null |
	    sed -n "s/^sbsim_phase_items{phase=\"$1\"[^}]*} \([0-9]*\)$/\1/p" |
	    grep . || echo 0
}

# c1 programs everything in milliseconds: kill it once it has, and every
# switch is connected to the three (however loaded the host).
end=$((SECONDS + 30))
until [ "$(items program)" -eq $TOTAL ] &&
    [ "$(items connect)" -eq $((3 * N)) ]; do
	[ $SECONDS -lt $end ] && kill -0 "$SW" 2>/dev/null ||
	    fail "c1 did not program: $(items program) of $TOTAL flows"
	sleep 0.1
done
kill "$C1"
wait "$C1" 2>/dev/null
sleep 0.3

# A bad role is refused (draft URL style), a good one taken (RFC 8040).
out=$(set_role $R3 restconf/operations '{"input":{"role":"boss"}}')
case "$out" in *" 400") ;; *) fail "set-role boss: $out" ;; esac
out=$(set_role $R2 rests/operations '{"input":{"role":"master"}}')
case "$out" in
*'"role":"master"'*'"switches":'$N*' 200') ;;
*) fail "set-role master: $out" ;;
esac
echo "set-role: $out"

wait_exit "$SW" 40 || fail "sbsim openflow did not finish"
[ "$EXIT_RC" -eq 0 ] || fail "sbsim openflow exited $EXIT_RC"
stop_pid "$C2"
stop_pid "$C3"
grep -q "cluster: role master, generation id 2" "$TMPD/c2.log" ||
    fail "c2's summary: $(grep cluster: "$TMPD/c2.log")"
grep -q "cluster: role slave" "$TMPD/c3.log" || fail "c3 is not a slave"

"$PY" - "$TMPD/r.json" "$N" "$TOTAL" <<'PYEOF' || fail "the report"
import json, sys
r = json.load(open(sys.argv[1]))
n, total = int(sys.argv[2]), int(sys.argv[3])
ph = {p["name"]: p for p in r["phases"]}
c = r["counters"]
def die(msg):
    print("report:", msg, file=sys.stderr)
    sys.exit(1)
if r.get("ok") is not True:
    die("ok is %r" % r.get("ok"))
want = {"connect": 3 * n, "connect.c1": n, "connect.c2": n,
        "connect.c3": n, "program": total, "failover": n}
for name, items in want.items():
    p = ph.get(name)
    if p is None or p["state"] != "DONE" or p["items"] != items:
        die("%s: %r" % (name, p))
fo = ph["failover"]["latency_us"]
if not 0 < fo["p50"] <= fo["max"] or fo["samples"] != n:
    die("failover latency %r" % fo)
# c2's flows arrived: every one of its FLOW_MODs, as master; c3 wrote
# nothing, and no switch had to refuse a slave.
checks = {"flow_mods.c1": total, "flow_mods.c2": total,
          "failover_flow_mods": total, "flow_mods.c3": 0,
          "is_slave_refused": 0, "role_stale": 0}
for k, v in checks.items():
    if c.get(k) != v:
        die("%s = %r, want %r" % (k, c.get(k), v))
print("failover: %d switches, p50 %.1f ms, max %.1f ms; %d FLOW_MODs "
      "from the new master" % (ph["failover"]["items"], fo["p50"] / 1e3,
      fo["max"] / 1e3, c["failover_flow_mods"]))
PYEOF

# The role state machine on the wire: two connections of one switch.
start_bg "$TMPD/peer.log" "$PY" "$(dirname "$0")/of_cluster_peer.py" $PEER
PP=$LAST_PID
wait_listen $PEER || fail "of_cluster_peer.py does not listen"
# No timeout(1) around it: stop_pid's SIGINT would reach it twice (timeout
# signals its whole process group), cutting its report short.
start_bg "$TMPD/sw2.log" "$SBSIM" openflow --switches 1 \
    --controller tcp:127.0.0.1:$PEER,tcp:127.0.0.1:$PEER --duration 20 \
    --report "$TMPD/r2.json"
SW2=$LAST_PID
wait_exit "$PP" 25 || fail "of_cluster_peer.py did not finish"
[ "$EXIT_RC" -eq 0 ] || fail "the role state machine: $(grep FAIL "$TMPD/peer.log")"
grep -c '^ok:' "$TMPD/peer.log" | grep -qx 9 || fail "not every step ran"
stop_pid "$SW2"
for kv in role_stale=1 is_slave_refused=2 role_status_sent=1; do
	v=$(json_get "$TMPD/r2.json" "r['counters']['${kv%=*}']")
	[ "$v" = "${kv#*=}" ] || fail "${kv%=*} = $v, want ${kv#*=}"
done
echo "PASS: failover with three members; slave writes refused"
