#!/bin/bash
# Flows written through the embedded controller's RESTCONF config
# datastore, both URL styles, JSON and XML: PUT one, POST a batch, read
# them back, watch the operational inventory (the switches' flow stats)
# confirm them, delete one and a whole table; the error cases; and the
# sbsim switches' own counters agree at the end.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
N=3		# switches
K=5		# flows the controller programs itself (not in config)

"$SBSIM" controller --restconf 8181 --stats-interval -1 >"$TMPD/cli.out" 2>&1
[ $? -eq 2 ] || fail "--stats-interval -1 accepted"

of=$(free_ports 1)
rc_port=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow "ptcp:$of" \
    --restconf "127.0.0.1:$rc_port" --switches $N --flows-per-switch $K \
    --stats-interval 0.2
ctl=$LAST_PID
wait_listen "$of" || fail "controller did not listen on $of"
wait_listen "$rc_port" || fail "controller did not serve RESTCONF"

# A flow for a switch not connected yet: kept, pushed when it connects.
"$PY" - "$rc_port" <<'PYEOF' || fail "write before connect"
import base64, http.client, json, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
body = {"flow-node-inventory:flow": [{"id": "pre", "table_id": 0,
        "priority": 300, "match": {"ethernet-match": {"ethernet-type":
        {"type": 2048}}, "ipv4-destination": "10.9.0.1/32"},
        "instructions": {"instruction": [{"order": 0, "apply-actions":
        {"action": [{"order": 0, "drop-action": {}}]}}]}}]}
c.request("PUT", "/rests/data/opendaylight-inventory:nodes/node=openflow%3A1/"
          "flow-node-inventory:table=0/flow=pre", body=json.dumps(body),
          headers={"Content-Type": "application/yang-data+json",
                   "Authorization": "Basic " + base64.b64encode(
                       b"admin:admin").decode()})
r = c.getresponse()
r.read()
sys.exit(0 if r.status == 201 else "PUT before connect: %d" % r.status)
PYEOF

start_bg "$TMPD/sw.log" "$SBSIM" openflow --switches $N \
    --controller "tcp:127.0.0.1:$of" --duration 15 -q \
    --report "$TMPD/sw.json"
sw=$LAST_PID

"$PY" - "$rc_port" "$K" <<'PYEOF' || fail "RESTCONF flow checks"
import base64, http.client, json, sys, time
import xml.etree.ElementTree as ET

port, k = int(sys.argv[1]), int(sys.argv[2])
NODES = "opendaylight-inventory:nodes"
RESTS = "/rests/data/" + NODES
CFG = "/restconf/config/" + NODES
OPER = "/restconf/operational/" + NODES
FTS = "opendaylight-flow-table-statistics:flow-table-statistics"
failed = 0

def check(cond, what):
    global failed
    print(("ok - " if cond else "FAIL - ") + what)
    if not cond:
        failed += 1

def req(method, path, body=None, ctype="application/json", accept=None,
        auth=("admin", "admin")):
    h = {"Authorization": "Basic " + base64.b64encode(
        ("%s:%s" % auth).encode()).decode()}
    if body is not None:
        h["Content-Type"] = ctype
        if not isinstance(body, (bytes, str)):
            body = json.dumps(body)
    if accept:
        h["Accept"] = accept
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request(method, path, body=body, headers=h)
    r = c.getresponse()
    d = r.read()
    c.close()
    return r.status, d

def rests_table(node, t=0):
    return RESTS + "/node=openflow%%3A%d/flow-node-inventory:table=%d" % (node, t)

def draft_table(node, t=0, base=CFG):
    return base + "/node/openflow:%d/table/%d" % (node, t)

def flow(fid, prio=200, dst="10.1.0.1/32", out="1", table=None):
    f = {"id": fid, "priority": prio, "flow-name": "f" + fid,
         "match": {"ethernet-match": {"ethernet-type": {"type": 2048}},
                   "ipv4-destination": dst},
         "instructions": {"instruction": [{"order": 0, "apply-actions": {
             "action": [{"order": 0, "output-action": {
                 "output-node-connector": out, "max-length": 60}}]}}]}}
    if table is not None:
        f["table_id"] = table
    return f

def oper(node, t=0):
    st, d = req("GET", rests_table(node, t) + "?content=nonconfig")
    if st != 200:
        return st, None, []
    tb = json.loads(d)["flow-node-inventory:table"][0]
    return st, tb[FTS]["active-flows"], [f["id"] for f in tb.get("flow", [])]

def wait_oper(node, n, ids=None, t=0):
    last = None
    for _ in range(100):
        last = oper(node, t)
        if last[1] == n and (ids is None or set(ids) <= set(last[2])):
            return last
        time.sleep(0.1)
    return last

def expect(status, tag, method, path, body=None, **kw):
    st, d = req(method, path, body, **kw)
    ok = st == status
    if ok and tag is not None:
        try:
            ok = json.loads(d)["errors"]["error"][0]["error-tag"] == tag
        except Exception:
            ok = False
    check(ok, "%s %s -> %d %s (got %d %s)" % (method, path, status, tag, st,
          d[:240]))

# Reconciliation: the flow written before node 1 connected is there.
st, af, ids = wait_oper(1, k + 1, ["pre"])
check(af == k + 1 and "pre" in ids and
      sum(1 for i in ids if i.startswith("#UF$TABLE*0-")) == k,
      "reconciled: active-flows %s ids %s" % (af, ids))

# PUT one flow: RFC 8040 JSON, then the same again, then changed.
st, _ = req("PUT", rests_table(1) + "/flow=1",
            {"flow-node-inventory:flow": [flow("1", table=0)]},
            ctype="application/yang-data+json")
check(st == 201, "RFC 8040 PUT new: 201 (got %d)" % st)
st, _ = req("PUT", rests_table(1) + "/flow=1",
            {"flow-node-inventory:flow": [flow("1", out="2")]})
check(st == 204, "PUT same match: 204 (got %d)" % st)
st, _ = req("PUT", rests_table(1) + "/flow=1",
            {"flow-node-inventory:flow": [flow("1", prio=201, out="2")]})
check(st == 204, "PUT changed priority: 204 (got %d)" % st)
# Draft style, JSON and XML.
st, _ = req("PUT", draft_table(1) + "/flow/2",
            {"flow": [flow("2", dst="10.1.0.2/32", out="openflow:1:2")]})
check(st == 201, "draft PUT JSON: 201 (got %d)" % st)
xml = b"""<?xml version="1.0" encoding="UTF-8"?>
<flow xmlns="urn:opendaylight:flow:inventory">
  <id>3</id><table_id>0</table_id><priority>202</priority>
  <flow-name>f3</flow-name><strict>false</strict><barrier>false</barrier>
  <cookie>7</cookie><idle-timeout>0</idle-timeout><hard-timeout>0</hard-timeout>
  <match>
    <in-port>1</in-port>
    <ethernet-match><ethernet-type><type>2048</type></ethernet-type>
      <ethernet-source><address>00:00:00:00:00:01</address></ethernet-source>
    </ethernet-match>
    <ipv4-source>10.2.0.0/16</ipv4-source>
    <ip-match><ip-protocol>6</ip-protocol><ip-dscp>8</ip-dscp></ip-match>
    <tcp-destination-port>80</tcp-destination-port>
    <vlan-match><vlan-id><vlan-id>10</vlan-id><vlan-id-present>true</vlan-id-present></vlan-id></vlan-match>
  </match>
  <instructions>
    <instruction><order>0</order><apply-actions>
      <action><order>1</order><output-action><output-node-connector>FLOOD</output-node-connector></output-action></action>
      <action><order>0</order><output-action><output-node-connector>CONTROLLER</output-node-connector><max-length>128</max-length></output-action></action>
    </apply-actions></instruction>
    <instruction><order>1</order><go-to-table><table_id>1</table_id></go-to-table></instruction>
  </instructions>
</flow>"""
st, d = req("PUT", draft_table(1) + "/flow/3", xml, ctype="application/xml")
check(st == 201, "draft PUT XML: 201 (got %d %s)" % (st, d[:200]))

# POST a batch of 100 (RFC 8040) and of 10 (draft).
batch = [flow("b%d" % i, dst="10.3.%d.%d/32" % (i // 250, i % 250))
         for i in range(100)]
st, d = req("POST", rests_table(2), {"flow-node-inventory:flow": batch},
            ctype="application/yang-data+json")
check(st == 201, "RFC 8040 POST 100: 201 (got %d %s)" % (st, d[:200]))
st, d = req("POST", draft_table(3), {"flow": [flow("c%d" % i,
            dst="10.4.0.%d/32" % i) for i in range(10)]})
# The draft URLs answer as ODL's bierman-02 did: POST 204, DELETE 200.
check(st == 204, "draft POST 10: 204 (got %d %s)" % (st, d[:200]))

# The config datastore reads them back.
st, d = req("GET", rests_table(2) + "?content=config")
ids = [f["id"] for f in json.loads(d)["flow-node-inventory:table"][0]["flow"]] \
    if st == 200 else []
check(st == 200 and sorted(ids) == sorted(f["id"] for f in batch),
      "GET config table of node 2: %d flows" % len(ids))
st, d = req("GET", draft_table(1))
ids = [f["id"] for f in json.loads(d)["flow-node-inventory:table"][0]["flow"]] \
    if st == 200 else []
check(st == 200 and sorted(ids) == ["1", "2", "3", "pre"],
      "GET draft config table of node 1: %s" % ids)
st, d = req("GET", draft_table(1) + "/flow/3")
f = json.loads(d)["flow-node-inventory:flow"][0] if st == 200 else {}
m = f.get("match", {})
acts = f.get("instructions", {}).get("instruction", [{}])[0].get(
    "apply-actions", {}).get("action", [])
check(st == 200 and f.get("priority") == 202 and f.get("cookie") == "7" and
      m.get("ipv4-source") == "10.2.0.0/16" and
      m.get("tcp-destination-port") == 80 and m.get("in-port") == "1" and
      m["vlan-match"]["vlan-id"]["vlan-id"] == 10 and
      m["ip-match"] == {"ip-protocol": 6, "ip-dscp": 8} and
      [a["output-action"]["output-node-connector"] for a in acts] ==
      ["CONTROLLER", "FLOOD"], "flow 3 read back: %s" % f)
st, d = req("GET", rests_table(1) + "/flow=3?content=config",
            accept="application/xml")
check(st == 200 and ET.fromstring(d).tag ==
      "{urn:opendaylight:flow:inventory}flow", "flow 3 as XML")

# The operational view: what the switches report.
st, af, ids = wait_oper(2, 100 + k, ["b%d" % i for i in range(100)])
check(af == 100 + k, "node 2 active-flows %s, want %d" % (af, 100 + k))
st, af, ids = wait_oper(1, 4 + k, ["pre", "1", "2", "3"])
check(af == 4 + k, "node 1 active-flows %s ids %s" % (af, ids))
st, af, ids = wait_oper(3, 10 + k)
check(af == 10 + k, "node 3 active-flows %s" % af)
st, d = req("GET", draft_table(2, base=OPER))
check(st == 200 and json.loads(d)["flow-node-inventory:table"][0][FTS][
      "active-flows"] == 100 + k, "draft operational table")
st, d = req("GET", RESTS + "?content=nonconfig")
af = {n["id"]: n["flow-node-inventory:table"][0][FTS]["active-flows"]
      for n in json.loads(d)[NODES]["node"]}
check(af == {"openflow:1": 4 + k, "openflow:2": 100 + k,
             "openflow:3": 10 + k}, "node list active-flows %s" % af)

# DELETE one, then the whole table.
st, _ = req("DELETE", rests_table(2) + "/flow=b0")
check(st == 204, "DELETE one: 204 (got %d)" % st)
st, af, ids = wait_oper(2, 99 + k)
check(af == 99 + k and "b0" not in ids, "after DELETE one: %s" % af)
expect(404, "data-missing", "GET", rests_table(2) + "/flow=b0?content=config")
expect(404, "data-missing", "DELETE", draft_table(2) + "/flow/b0")
st, _ = req("DELETE", draft_table(2))
check(st == 200, "draft DELETE table: 200 (got %d)" % st)
st, af, ids = wait_oper(2, 0)
check(af == 0 and ids == [], "after DELETE table: %s %s" % (af, ids))
expect(404, "data-missing", "GET", rests_table(2) + "?content=config")

# Errors.
bad = flow("x")
bad["match"]["ipv4-destination"] = "10.0.0.300/32"
expect(400, "invalid-value", "PUT", rests_table(1) + "/flow=x",
       {"flow-node-inventory:flow": [bad]})
bad = flow("x")
bad["match"]["ethernet-match"]["ethernet-type"]["type"] = "ip"
expect(400, "invalid-value", "PUT", draft_table(1) + "/flow/x", {"flow": [bad]})
bad = flow("x")
bad["instructions"]["instruction"][0]["apply-actions"]["action"][0] = {
    "order": 0, "set-field": {}}
expect(400, "invalid-value", "POST", rests_table(1),
       {"flow-node-inventory:flow": [bad]})
expect(400, "invalid-value", "PUT", rests_table(1) + "/flow=x",
       {"flow-node-inventory:flow": [flow("x", table=1)]})
expect(400, "invalid-value", "PUT", rests_table(1) + "/flow=x",
       {"flow-node-inventory:flow": [flow("y")]})
expect(400, "malformed-message", "PUT", rests_table(1) + "/flow=x",
       {"flow-node-inventory:flow": [flow("x"), flow("x")]})
expect(400, "malformed-message", "POST", rests_table(1), b'{"flow":[{"id":')
expect(400, "invalid-value", "PUT", draft_table(1, 255) + "/flow/x",
       {"flow": [flow("x")]})
expect(404, "data-missing", "GET", rests_table(99) + "?content=config")
expect(404, "data-missing", "GET", rests_table(99) + "?content=nonconfig")
expect(404, "data-missing", "DELETE", rests_table(99) + "/flow=1")
expect(404, "data-missing", "DELETE", draft_table(99))
expect(404, "data-missing", "PUT", CFG + "/node/foo:1/table/0/flow/x",
       {"flow": [flow("x")]})
expect(409, "data-exists", "POST", rests_table(1),
       {"flow-node-inventory:flow": [flow("new"), flow("2")]})
expect(404, "data-missing", "GET", rests_table(1) + "/flow=new?content=config")
expect(401, "access-denied", "PUT", rests_table(1) + "/flow=x",
       {"flow-node-inventory:flow": [flow("x")]}, auth=("admin", "bad"))
expect(401, "access-denied", "DELETE", draft_table(1), auth=("x", "y"))
expect(405, "operation-not-supported", "POST", rests_table(1) + "/flow=1",
       {"flow-node-inventory:flow": [flow("1")]})
# Nothing of that reached the switch.
st, af, ids = wait_oper(1, 4 + k)
check(af == 4 + k, "node 1 unchanged: %s" % af)
sys.exit(1 if failed else 0)
PYEOF

# The switches end by themselves; their counters agree.
wait_exit "$sw" 30 || fail "sbsim openflow did not end"
[ "$EXIT_RC" -eq 0 ] || fail "sbsim openflow exited $EXIT_RC"
# Adds: K per switch, pre, 1 (and its re-add), 2, 3, 100 + 10.
# Deletes: 1's old entry, b0, then table 0 of node 2 (99 + K).
added=$(json_get "$TMPD/sw.json" 'r["counters"]["flows_added"]')
deleted=$(json_get "$TMPD/sw.json" 'r["counters"]["flows_deleted"]')
[ "$added" -eq $((N * K + 1 + 2 + 1 + 1 + 110)) ] ||
    fail "flows_added $added, want $((N * K + 115))"
[ "$deleted" -eq $((1 + 1 + 99 + K)) ] ||
    fail "flows_deleted $deleted, want $((101 + K))"
stop_pid "$ctl"
[ "$STOP_RC" -eq 0 ] || fail "controller exited $STOP_RC"
echo "restconf_flows: ok"
