#!/bin/bash
# sbsim ovsdb's northbound driver against a small stand-in for
# OpenDaylight's OVSDB southbound (ovsdb_odl_stub.py: RESTCONF's topology
# ovsdb:1 and an OVSDB client of each device).  Passive devices, RFC 8040
# URLs: sbsim PUTs one node per device with its connection-info (the stub
# connects out), waits until the operational topology shows the N nodes,
# PUTs B bridges per node with managed-by, protocol-entry and the
# --bridge-controller target (the stub's transact makes them, a
# Controller row with them; --no-datapath, as nothing speaks OpenFlow
# there: ovsdb_datapath.sh tests the switches), counts them in each node's
# managed-node-entry, deletes them and then the nodes.  Active devices,
# draft URLs: the devices connect to the stub, sbsim reads their node ids
# (ovsdb://uuid/...) from the operational topology.  Every phase of both
# sides DONE in the report, the run over by itself; the requests' paths
# and bodies as CSIT's.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
[ -r /usr/share/openvswitch/vswitch.ovsschema ] || skip "no vswitch.ovsschema"
HERE=$(cd "$(dirname "$0")" && pwd)
N=3 B=2
ports=$(free_ports $((N + 3)))
HTTP=$ports OVSDB=$((ports + 1)) DEV=$((ports + 2))

check_report() {
	"$PY" - "$1" "$2" $N $B <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
names = sys.argv[2].split()
n, b = int(sys.argv[3]), int(sys.argv[4])
ph = {p["name"]: p for p in r["phases"]}
assert sorted(ph) == sorted(names), sorted(ph)
want = {"connect": n, "learn": n, "program": n * b, "delete": n * b,
        "nb_connect": n, "nb_learn": n, "nb_program": n * b,
        "confirm": n * b, "nb_delete": n * b, "confirm_delete": n * b,
        "nb_disconnect": n, "disconnected": n}
for name in names:
    p = ph[name]
    assert p["state"] == "DONE" and p["items"] == want[name], p
    assert p["witness"] == ("northbound" if name.startswith(("nb_", "conf",
        "disc")) else "device"), p
c = r["counters"]
assert c["bridges_created"] == n * b and c["bridges_deleted"] == n * b, c
assert c["nb_requests"] == c["nb_http_2xx"], c
assert r["ok"] is True
PYEOF
}

# Passive devices, RFC 8040.
start_bg "$TMPD/stub.log" "$PY" "$HERE/ovsdb_odl_stub.py" $HTTP \
    "$TMPD/req1.jsonl"
stub=$LAST_PID
wait_listen $HTTP || fail "the stub does not listen"
start_bg "$TMPD/sim.log" "$SBSIM" ovsdb --devices $N \
    --controller ptcp:$DEV:127.0.0.1 --bridges-per-node 1 --bridges $B \
    --northbound odl:http://127.0.0.1:$HTTP --northbound-poll 0.1 \
    --bridge-controller tcp:127.0.0.1:6653 --no-datapath --timeout 20 \
    --report "$TMPD/passive.json"
wait_exit $LAST_PID 60 || fail "sbsim (passive) did not end"
[ "$EXIT_RC" -eq 0 ] || fail "sbsim (passive) exited $EXIT_RC"
check_report "$TMPD/passive.json" "connect learn program delete nb_connect
    nb_learn nb_program confirm nb_delete confirm_delete nb_disconnect
    disconnected" || fail "passive report: $(cat "$TMPD/passive.json")"
"$PY" - "$TMPD/req1.jsonl" $N $B $DEV <<'PYEOF' || fail "passive requests"
import json, sys
from urllib.parse import unquote
reqs = [json.loads(l) for l in open(sys.argv[1])]
n, b, dev = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
topo = "/rests/data/network-topology:network-topology/topology=ovsdb%3A1"
puts = [q for q in reqs if q["method"] == "PUT"]
nodes = [q for q in puts if "bridge" not in unquote(q["path"])]
assert len(nodes) == n, nodes
for i, q in enumerate(nodes):
    assert q["path"] == topo + "/node=ovsdb%3A%2F%2FHOST" + str(i), q
    body = json.loads(q["body"])["network-topology:node"][0]
    assert body == {"node-id": "ovsdb://HOST%d" % i, "ovsdb:connection-info":
                    {"remote-ip": "127.0.0.1", "remote-port": dev + i}}, body
brs = [q for q in puts if "bridge" in unquote(q["path"])]
assert len(brs) == n * b, brs
for q in brs:
    node = json.loads(q["body"])["network-topology:node"][0]
    parent, name = node["node-id"].split("/bridge/")
    assert unquote(q["path"].split("/node=")[1]) == node["node-id"], q
    assert name.startswith("sbnb") and node["ovsdb:bridge-name"] == name
    assert node["ovsdb:managed-by"] == ("/network-topology:network-topology"
        "/topology[topology-id='ovsdb:1']/node[node-id='%s']" % parent)
    assert node["ovsdb:protocol-entry"] == [
        {"protocol": "ovsdb:ovsdb-bridge-protocol-openflow-13"}], node
    assert node["ovsdb:controller-entry"] == [
        {"target": "tcp:127.0.0.1:6653"}], node
dels = [unquote(q["path"]) for q in reqs if q["method"] == "DELETE"]
assert len(dels) == n * b + n, dels
assert all(d.endswith("/bridge/sbnb%d" % (k % b)) for k, d in
           enumerate(dels[:n * b])), dels
gets = [q["path"] for q in reqs if q["method"] == "GET"]
assert all(g.endswith("?content=nonconfig") for g in gets), gets
PYEOF
stop_pid "$stub"

# Active devices, draft URLs: the stub is their manager.
start_bg "$TMPD/stub2.log" "$PY" "$HERE/ovsdb_odl_stub.py" $HTTP \
    "$TMPD/req2.jsonl" --ovsdb-listen $OVSDB
stub=$LAST_PID
wait_listen $HTTP && wait_listen $OVSDB || fail "the stub does not listen"
start_bg "$TMPD/sim2.log" "$SBSIM" ovsdb --devices $N \
    --controller tcp:127.0.0.1:$OVSDB --bridges $B \
    --northbound odl:http://127.0.0.1:$HTTP --northbound-style draft \
    --northbound-poll 0.1 --no-datapath --timeout 20 \
    --report "$TMPD/active.json"
wait_exit $LAST_PID 60 || fail "sbsim (active) did not end"
[ "$EXIT_RC" -eq 0 ] || fail "sbsim (active) exited $EXIT_RC"
check_report "$TMPD/active.json" "connect learn program delete nb_learn
    nb_program confirm nb_delete confirm_delete" ||
    fail "active report: $(cat "$TMPD/active.json")"
"$PY" - "$TMPD/req2.jsonl" $N $B <<'PYEOF' || fail "active requests"
import json, re, sys
from urllib.parse import unquote
reqs = [json.loads(l) for l in open(sys.argv[1])]
n, b = int(sys.argv[2]), int(sys.argv[3])
puts = [q for q in reqs if q["method"] == "PUT"]
assert len(puts) == n * b, puts
ids = set()
for q in puts:
    assert q["path"].startswith("/restconf/config/network-topology:"
                                "network-topology/topology/ovsdb:1/node/"), q
    node = json.loads(q["body"])["node"][0]
    assert re.match(r"^ovsdb://uuid/[0-9a-f-]{36}/bridge/sbnb\d$",
                    node["node-id"]), node
    assert "ovsdb:controller-entry" not in node, node
    ids.add(node["node-id"].split("/bridge/")[0])
assert len(ids) == n, ids
gets = [q["path"] for q in reqs if q["method"] == "GET"]
assert all(g.startswith("/restconf/operational/") for g in gets), gets
PYEOF
stop_pid "$stub"
exit 0
