#!/bin/bash
# ovs-vsctl as the manager of passive sbsim ovsdb devices (no controller):
# it monitors each device's Open_vSwitch table (learn), adds a bridge on
# each (program, target N x --bridges) and deletes it again (delete, with
# --expect-delete); the run ends by itself once the three phases are
# done.  A seeded bridge (--bridges-per-node) that ovs-vsctl deletes is the
# device's own: counted apart (seed_bridges_deleted), not as the
# manager's; the phases' windows open at the first bridge's arrival.
. "$(dirname "$0")/../lib.sh"
need ovs-vsctl
need ss
[ -r /usr/share/openvswitch/vswitch.ovsschema ] || skip "no vswitch.ovsschema"
export OVS_RUNDIR=$TMPD OVS_DBDIR=$TMPD OVS_LOGDIR=$TMPD OVS_SYSCONFDIR=$TMPD
N=3
base=$(free_ports $N)
start_bg "$TMPD/sim.log" "$SBSIM" ovsdb --devices $N \
    --controller ptcp:$base:127.0.0.1 --bridges-per-node 2 --bridges 1 \
    --expect-delete --timeout 30 --report "$TMPD/sim.json"
sim=$LAST_PID
for i in $(seq 0 $((N - 1))); do
	wait_listen $((base + i)) || fail "device $i does not listen"
done
vs() {
	timeout 20 ovs-vsctl --db=tcp:127.0.0.1:$1 --no-wait --timeout=15 "${@:2}"
}
# The seed's br1 on device 0 goes first: the device's own, not counted.
vs $base del-br br1 || fail "del-br br1"
for i in $(seq 0 $((N - 1))); do
	vs $((base + i)) add-br brM$i || fail "add-br on device $i"
done
kill -0 "$sim" 2>/dev/null || fail "sbsim ended before the deletes"
for i in $(seq 0 $((N - 1))); do
	[ "$(vs $((base + i)) list-br | tr '\n' ' ')" = "$(
	    [ $i -eq 0 ] && echo "br0 brM$i " || echo "br0 br1 brM$i ")" ] ||
	    fail "list-br on device $i: $(vs $((base + i)) list-br)"
	vs $((base + i)) del-br brM$i || fail "del-br on device $i"
done
wait_exit "$sim" 40 || fail "sbsim did not end by itself"
[ "$EXIT_RC" -eq 0 ] || fail "sbsim exited $EXIT_RC: $(cat "$TMPD/sim.log")"
"$PY" - "$TMPD/sim.json" $N <<'PYEOF' || fail "report: $(cat "$TMPD/sim.json")"
import json, sys
r = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
ph = {p["name"]: p for p in r["phases"]}
for name in ("connect", "learn", "program", "delete"):
    p = ph[name]
    assert p["state"] == "DONE" and p["items"] == n, (name, p)
    assert p["witness"] == "device", p
# The bridges came one ovs-vsctl after another: the window is from the
# first bridge's arrival to the last, not from the run's start.
assert 0 < ph["program"]["seconds"] < ph["learn"]["seconds"] + 30, ph
c = r["counters"]
assert c["bridges_created"] == n and c["bridges_deleted"] == n, c
assert c["seed_bridges_deleted"] == 1, c
assert r["ok"] is True, r["ok"]
PYEOF
exit 0
