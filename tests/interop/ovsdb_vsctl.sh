#!/bin/bash
# OVS's own clients against passive sbsim ovsdb devices (RFC 7047 over
# TCP): ovs-vsctl --no-wait shows, adds and deletes bridges and ports and
# lists them, and the same commands against a real ovsdb-server made with
# ovsdb-tool from the same schema give the same list-br and list-ports;
# ovs-vsctl that waits gets what ovs-vswitchd would write back (cur_cfg,
# ofport, datapath_id); ovsdb-client lists the databases, reads and waits
# on _Server as on the real server's, monitors the Bridge table and sees
# a bridge added and deleted, and gets for 28 bad transactions the
# error objects ovsdb-server gives, word for word, and the same replies
# to fifteen JSON-RPC requests (errors, echo, locks) and the same
# update and update2 notifications of a bridge's life; and an active device
# with ovsdb-client and ovs-vsctl as its manager (ptcp:).  Skips (77)
# only when an OVS tool is missing.
. "$(dirname "$0")/../lib.sh"
need ovs-vsctl
need ovsdb-client
need ovsdb-server
need ovsdb-tool
need ss
SCHEMA=/usr/share/openvswitch/vswitch.ovsschema
[ -r "$SCHEMA" ] || skip "no $SCHEMA"
export OVS_RUNDIR=$TMPD OVS_DBDIR=$TMPD OVS_LOGDIR=$TMPD OVS_SYSCONFDIR=$TMPD

base=$(free_ports 5)
SIM=$base EMPTY=$((base + 2)) REAL=$((base + 3)) MGR=$((base + 4))
start_bg "$TMPD/sim.log" "$SBSIM" ovsdb --devices 2 \
    --controller ptcp:$SIM:127.0.0.1 --bridges-per-node 1 \
    --ports-per-bridge 2 --duration 120 --report "$TMPD/sim.json"
sim=$LAST_PID
start_bg "$TMPD/empty.log" "$SBSIM" ovsdb --devices 1 \
    --controller ptcp:$EMPTY:127.0.0.1 --duration 120 \
    --report "$TMPD/empty.json"
empty=$LAST_PID
ovsdb-tool create "$TMPD/conf.db" "$SCHEMA" || fail "ovsdb-tool create"
start_bg "$TMPD/real.log" ovsdb-server "$TMPD/conf.db" \
    --remote=ptcp:$REAL:127.0.0.1 --unixctl="$TMPD/real.ctl" \
    --pidfile="$TMPD/real.pid" --no-chdir
wait_listen $SIM && wait_listen $((SIM + 1)) && wait_listen $EMPTY ||
    fail "sbsim does not listen"
wait_listen $REAL || fail "ovsdb-server does not listen"

vs() {
	local port=$1
	shift
	timeout 20 ovs-vsctl --db=tcp:127.0.0.1:$port --no-wait --timeout=15 \
	    "$@"
}

# The seeded device: br0 with its local port and two more.
[ "$(vs $SIM list-br)" = br0 ] || fail "seeded list-br: $(vs $SIM list-br)"
[ "$(vs $SIM list-ports br0 | tr '\n' ' ')" = "br0-p1 br0-p2 " ] ||
    fail "seeded list-ports: $(vs $SIM list-ports br0)"
vs $SIM show | grep -q 'type: internal' || fail "show: no internal port"

[ "$(vs $((SIM + 1)) list-br)" = br0 ] || fail "device 1 is seeded too"

# The same commands on an empty device and on the real server.
vs $REAL init || fail "ovs-vsctl init on ovsdb-server"
for port in $EMPTY $REAL; do
	vs $port show >"$TMPD/show-$port" || fail "show on $port"
	vs $port add-br brA || fail "add-br brA on $port"
	vs $port add-br brB || fail "add-br brB on $port"
	vs $port add-port brA eth1 || fail "add-port on $port"
	vs $port add-port brA eth2 -- set Interface eth2 type=internal ||
	    fail "add-port with set on $port"
	vs $port add-port brB eth3 || fail "add-port brB on $port"
	vs $port del-br brB || fail "del-br on $port"
	vs $port br-set-external-id brA k v || fail "external id on $port"
	vs $port list-br >"$TMPD/br-$port"
	vs $port list-ports brA >"$TMPD/ports-$port"
	vs $port list Bridge >"$TMPD/list-$port" || fail "list Bridge on $port"
	vs $port --columns=name,type list Interface | sort >"$TMPD/if-$port"
	vs $port br-get-external-id brA k >"$TMPD/ext-$port"
done
for f in br ports if ext; do
	cmp -s "$TMPD/$f-$EMPTY" "$TMPD/$f-$REAL" ||
	    fail "$f differs: sbsim: $(cat "$TMPD/$f-$EMPTY"); ovsdb-server: $(cat "$TMPD/$f-$REAL")"
done
[ "$(cat "$TMPD/br-$REAL")" = brA ] || fail "list-br: $(cat "$TMPD/br-$REAL")"
grep -q '^name *: brA$' "$TMPD/list-$EMPTY" ||
    fail "list Bridge: $(cat "$TMPD/list-$EMPTY")"
# A port on a bridge that is not there: the same refusal.
vs $EMPTY add-port nope eth9 2>"$TMPD/err-sim" && fail "add-port nope"
vs $REAL add-port nope eth9 2>"$TMPD/err-real"
cmp -s "$TMPD/err-sim" "$TMPD/err-real" || fail "errors differ"

# Without --no-wait: the device writes back what ovs-vswitchd would
# (cur_cfg, ofport, datapath_id), so ovs-vsctl's wait ends.
timeout 20 ovs-vsctl --db=tcp:127.0.0.1:$SIM --timeout=10 add-br brW -- \
    add-port brW w1 -- add-port brW w2 -- set Interface w2 ofport_request=9 ||
    fail "ovs-vsctl waiting for cur_cfg"
[ "$(vs $SIM get Interface brW ofport)" = 65534 ] || fail "local ofport"
[ "$(vs $SIM get Interface w2 ofport)" = 9 ] || fail "ofport_request"
[ "$(vs $SIM get Interface w1 ofport)" -ge 1 ] || fail "w1 has no ofport"
vs $SIM get Bridge brW datapath_id | grep -Eq '^"[0-9a-f]{16}"$' ||
    fail "datapath_id: $(vs $SIM get Bridge brW datapath_id)"
[ "$(vs $SIM get Open_vSwitch . cur_cfg)" = \
    "$(vs $SIM get Open_vSwitch . next_cfg)" ] || fail "cur_cfg"
vs $SIM del-br brW || fail "del-br brW"

# ovsdb-client: the databases, the schema, a monitor seeing a bridge
# come and go.
[ "$(timeout 10 ovsdb-client list-dbs tcp:127.0.0.1:$SIM)" = \
    "$(timeout 10 ovsdb-client list-dbs tcp:127.0.0.1:$REAL)" ] ||
    fail "list-dbs: $(timeout 10 ovsdb-client list-dbs tcp:127.0.0.1:$SIM)"
timeout 10 ovsdb-client wait tcp:127.0.0.1:$SIM Open_vSwitch connected ||
    fail "ovsdb-client wait (the _Server database)"
for port in $SIM $REAL; do
	timeout 10 ovsdb-client dump tcp:127.0.0.1:$port _Server Database \
	    name model connected leader >"$TMPD/server-$port" ||
	    fail "dump _Server on $port"
done
cmp -s "$TMPD/server-$SIM" "$TMPD/server-$REAL" ||
    fail "_Server differs: $(cat "$TMPD/server-$SIM")"
[ "$(timeout 10 ovsdb-client get-schema-version tcp:127.0.0.1:$SIM)" = \
    "$(ovsdb-tool schema-version "$SCHEMA")" ] || fail "schema version"
start_bg "$TMPD/monitor.log" timeout 30 ovsdb-client monitor \
    tcp:127.0.0.1:$SIM Open_vSwitch Bridge name
mon=$LAST_PID
i=0
until grep -q 'br0' "$TMPD/monitor.log" || [ $i -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
grep -q br0 "$TMPD/monitor.log" || fail "monitor: no initial br0"
vs $SIM add-br brM || fail "add-br brM"
vs $SIM del-br brM || fail "del-br brM"
i=0
until grep -q 'delete *brM' "$TMPD/monitor.log" || [ $i -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
grep -Eq 'insert +brM' "$TMPD/monitor.log" || fail "monitor: no insert"
grep -Eq 'delete +brM' "$TMPD/monitor.log" || fail "monitor: no delete"
kill "$mon" 2>/dev/null

# RFC 7047 errors for bad transactions: what ovsdb-server answers, word
# for word but for its "syntax" member (the offending JSON) and UUIDs.
cat >"$TMPD/bad.txns" <<'EOF'
[{"op":"insert","table":"Bridge","row":{"nope":1}}]
[{"op":"insert","table":"Bridge","row":{"name":1}}]
[{"op":"insert","table":"Bridge","row":{"fail_mode":"x"}}]
[{"op":"select","table":"Nope","where":[]},{"op":"comment","comment":"c"}]
[{"op":"select","table":"Bridge","where":[["nope","==",1]]}]
[{"op":"select","table":"Bridge","where":[],"columns":["nope"]}]
[{"op":"frob"}]
[{"table":"Bridge"}]
[{"op":"insert","row":{}}]
[{"op":"insert","table":"Interface","row":{"name":"a"},"uuid-name":"x"},{"op":"insert","table":"Interface","row":{"name":"b"},"uuid-name":"x"}]
[{"op":"insert","table":"Bridge","row":{"name":"zz","ports":["uuid","01234567-89ab-cdef-0123-456789abcdef"]},"uuid-name":"b"},{"op":"mutate","table":"Open_vSwitch","where":[],"mutations":[["bridges","insert",["named-uuid","b"]]]}]
[{"op":"wait","timeout":0,"table":"Bridge","where":[],"columns":["name"],"until":"==","rows":[]}]
[{"op":"abort"}]
[{"op":"assert","lock":"l"}]
[{"op":"update","table":"Bridge","where":[],"row":{"name":"x"}}]
[{"op":"mutate","table":"Open_vSwitch","where":[],"mutations":[["next_cfg","/=",0]]}]
[{"op":"insert","table":"Open_vSwitch","row":{}}]
[{"op":"insert","table":"Bridge","row":{"flood_vlans":["set",[5000]]}}]
[{"op":"comment","comment":"x"},{"op":"commit","durable":false}]
[{"op":"select","table":"Bridge"}]
[{"op":"delete","table":"Bridge"}]
[{"op":"mutate","table":"Bridge","where":[]}]
[{"op":"update","table":"Bridge","where":[]}]
[{"op":"wait","table":"Bridge","where":[],"columns":["name"],"rows":[]}]
[{"op":"insert","table":"Bridge"}]
[{"op":"assert"}]
[{"op":"comment"}]
[{"op":"select","table":"Bridge","where":{}}]
EOF
norm() {
	"$PY" -c '
import json, re, sys
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k != "syntax"}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
t = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
    "U", sys.stdin.read())
print(json.dumps(strip(json.loads(t)), sort_keys=True))'
}
while read -r ops; do
	for port in $EMPTY $REAL; do
		timeout 10 ovsdb-client transact tcp:127.0.0.1:$port \
		    "[\"Open_vSwitch\",${ops#[}" 2>&1 | norm >"$TMPD/txn-$port" ||
		    fail "transact on $port: $ops"
	done
	cmp -s "$TMPD/txn-$EMPTY" "$TMPD/txn-$REAL" ||
	    fail "$ops: sbsim $(cat "$TMPD/txn-$EMPTY"), ovsdb-server $(cat "$TMPD/txn-$REAL")"
done <"$TMPD/bad.txns"
# The same for JSON-RPC requests ovsdb-server refuses or answers plainly.
"$PY" - "$EMPTY" "$REAL" "$(dirname "$0")/.." <<'PYEOF' ||
import socket, sys
sys.path.insert(0, sys.argv[3])
from ovsdb_rpc import Conn
REQS = [
    ("nosuch", []), ("echo", ["x", 1]), ("list_dbs", []),
    ("get_schema", ["zz"]), ("get_schema", []), ("transact", ["zz"]),
    ("transact", []), ("monitor_cancel", ["zz"]),
    ("monitor", ["Open_vSwitch", "m", {"Nope": {}}]),
    ("monitor", ["Open_vSwitch", "m2", {"Bridge": {"columns": ["nope"]}}]),
    ("monitor", ["zz", "m3", {}]),
    ("lock", ["l"]), ("lock", ["l"]), ("unlock", ["zz"]), ("unlock", ["l"]),
]
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in ("syntax", "id")}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
got = []
for port in sys.argv[1:3]:
    c = Conn(socket.create_connection(("127.0.0.1", int(port))))
    got.append([strip(c.call(i, m, p)) for i, (m, p) in enumerate(REQS)])
bad = [(REQS[i], a, b) for i, (a, b) in enumerate(zip(*got)) if a != b]
for r, a, b in bad:
    print("%s: sbsim %s, ovsdb-server %s" % (r, a, b))
sys.exit(1 if bad else 0)
PYEOF
    fail "JSON-RPC replies differ from ovsdb-server's"

# Monitors, version 1 (update) and 2 (update2), of a bridge inserted,
# modified (a map and an optional value) and collected: the same
# notifications as ovsdb-server's, but for UUIDs.
"$PY" - "$EMPTY" "$REAL" "$(dirname "$0")/.." <<'PYEOF' ||
import json, re, socket, sys, time
sys.path.insert(0, sys.argv[3])
from ovsdb_rpc import Conn
COLS = ["name", "ports", "external_ids", "fail_mode"]
def run(port):
    m = Conn(socket.create_connection(("127.0.0.1", int(port))))
    w = Conn(socket.create_connection(("127.0.0.1", int(port))))
    out = [m.call(1, "monitor", ["Open_vSwitch", "v1",
                                 {"Bridge": {"columns": COLS}}]),
           m.call(2, "monitor_cond", ["Open_vSwitch", "v2",
                                      {"Bridge": [{"columns": COLS}]}])]
    txns = [[{"op": "insert", "table": "Bridge", "uuid-name": "b",
              "row": {"name": "bx", "external_ids": ["map", [["a", "1"]]]}},
             {"op": "mutate", "table": "Open_vSwitch", "where": [],
              "mutations": [["bridges", "insert", ["named-uuid", "b"]]]}],
            [{"op": "mutate", "table": "Bridge",
              "where": [["name", "==", "bx"]],
              "mutations": [["external_ids", "insert", ["map", [["b", "2"]]]],
                            ["external_ids", "delete", ["set", ["a"]]]]},
             {"op": "update", "table": "Bridge",
              "where": [["name", "==", "bx"]], "row": {"fail_mode": "secure"}}],
            None]
    for i, ops in enumerate(txns):
        if ops is None:         # bx out of Open_vSwitch: collected
            bx = w.call(9, "transact", ["Open_vSwitch", {
                "op": "select", "table": "Bridge", "columns": ["_uuid"],
                "where": [["name", "==", "bx"]]}])
            ops = [{"op": "mutate", "table": "Open_vSwitch", "where": [],
                    "mutations": [["bridges", "delete", ["set", [
                        bx["result"][0]["rows"][0]["_uuid"]]]]]}]
        w.call(10 + i, "transact", ["Open_vSwitch"] + ops)
    time.sleep(0.5)
    m.s.settimeout(0.5)
    try:
        while True:
            msg = m.recv()
            if msg is None:
                break
            out.append(msg)
    except socket.timeout:
        pass
    return re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-"
                  r"[0-9a-f]{12}", "U", json.dumps(out, sort_keys=True))
sim, real = run(sys.argv[1]), run(sys.argv[2])
if sim != real:
    print("sbsim:         %s\novsdb-server:  %s" % (sim, real))
    sys.exit(1)
PYEOF
    fail "monitor updates differ from ovsdb-server's"
[ "$(vs $EMPTY list-br)" = brA ] || fail "the device stopped serving"

# An active device: OVS's clients as its manager (ptcp:), the device
# connecting to each in turn.
start_bg "$TMPD/mgr-monitor.log" timeout 30 ovsdb-client monitor \
    ptcp:$MGR:127.0.0.1 Open_vSwitch Bridge name
mgrmon=$LAST_PID
wait_listen $MGR || fail "ovsdb-client does not listen"
start_bg "$TMPD/active.log" "$SBSIM" ovsdb --devices 1 \
    --controller tcp:127.0.0.1:$MGR --bridges-per-node 2 --backoff 50:200 \
    --duration 60
active=$LAST_PID
i=0
until grep -q 'initial *br1' "$TMPD/mgr-monitor.log" || [ $i -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
grep -Eq 'initial +br1' "$TMPD/mgr-monitor.log" ||
    fail "ovsdb-client as the manager: no initial br1"
kill "$mgrmon" 2>/dev/null
wait "$mgrmon" 2>/dev/null
timeout 20 ovs-vsctl --db=ptcp:$MGR:127.0.0.1 --timeout=15 add-br brA ||
    fail "ovs-vsctl as the manager: add-br"
[ "$(timeout 20 ovs-vsctl --db=ptcp:$MGR:127.0.0.1 --timeout=15 list-br |
    tr '\n' ' ')" = "br0 br1 brA " ] || fail "ovs-vsctl as the manager: list-br"
kill -0 "$active" 2>/dev/null || fail "the active device died"
stop_pid "$active"

kill -0 "$sim" 2>/dev/null && kill -0 "$empty" 2>/dev/null ||
    fail "sbsim died"
stop_pid "$empty"
stop_pid "$sim"
[ "$STOP_RC" -eq 0 ] || [ "$STOP_RC" -eq 1 ] || fail "sbsim exited $STOP_RC"
[ "$(json_get "$TMPD/sim.json" 'r["counters"]["transacts"] >= 4')" = True ] ||
    fail "transacts: $(json_get "$TMPD/sim.json" 'r["counters"]')"
[ "$(json_get "$TMPD/empty.json" 'r["counters"]["transact_errors"] >= 26')" = True ] ||
    fail "transact_errors: $(json_get "$TMPD/empty.json" 'r["counters"]')"
[ "$(json_get "$TMPD/sim.json" '[p["items"] for p in r["phases"] if p["name"] == "connect"][0]')" = 2 ] ||
    fail "connect phase"
exit 0
