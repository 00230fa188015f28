#!/usr/bin/python3
"""The requests OpenDaylight's CSIT makes of the OpenFlow plugin, and the
checks it makes of the answers, replayed against `sbsim controller`.
Written from what the suites and their tools (flow_config_blaster.py,
inventory_crawler.py, ScaleClient.py, Performance_Bulkomatic) send and
assert; none of their code is here.

usage: of_csit.py RESTCONF_PORT SUITE ARGS...
"""
import base64
import http.client
import json
import sys
import time
import xml.etree.ElementTree as ET

PORT = int(sys.argv[1])
NODES = "opendaylight-inventory:nodes"
RESTS = "/rests/data/" + NODES
CFG = "/restconf/config/" + NODES
OPER = "/restconf/operational/" + NODES
FNI_T = "flow-node-inventory:table"
FTS = "opendaylight-flow-table-statistics:flow-table-statistics"
X_INV = "{urn:opendaylight:inventory}"
X_FNI = "{urn:opendaylight:flow:inventory}"
X_FTS = "{urn:opendaylight:flow:table:statistics}"
failed = 0


def check(cond, what):
    global failed
    print(("ok - " if cond else "FAIL - ") + what)
    if not cond:
        failed += 1


def req(method, path, body=None, ctype="application/json",
        accept="application/json"):
    h = {"Authorization": "Basic " + base64.b64encode(b"admin:admin").decode(),
         "Accept": accept}
    if body is not None:
        h["Content-Type"] = ctype
        if not isinstance(body, (bytes, str)):
            body = json.dumps(body)
    c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    c.request(method, path, body=body, headers=h)
    r = c.getresponse()
    d = r.read()
    c.close()
    return r.status, d


def error_tag(d):
    try:
        return json.loads(d)["errors"]["error"][0]["error-tag"]
    except (ValueError, KeyError, IndexError, TypeError):
        return None


def expect(status, tag, method, path, body=None, **kw):
    st, d = req(method, path, body, **kw)
    ok = st == status and (tag is None or error_tag(d) == tag)
    check(ok, "%s %s -> %d %s (got %d %s)" % (method, path, status, tag, st,
          d[:200]))
    return d


def wait_for(fn, want, tries=150):
    got = None
    for _ in range(tries):
        got = fn()
        if got == want:
            break
        time.sleep(0.1)
    return got


# ---- the tools' own readings of the inventory ----

def of_nodes(datastore="operational"):
    """ScaleClient's _get_operational_inventory_of_switches: the draft
    URL, the bare top-level "nodes"; None when it cannot be read."""
    st, d = req("GET", "/restconf/%s/%s" % (datastore, NODES))
    if st != 200:
        return None
    inv = json.loads(d)
    if "nodes" not in inv:
        return None
    return [n for n in inv["nodes"].get("node", [])
            if "openflow:" in n["id"]]


def crawl(nodes):
    """inventory_crawler.py's totals: (nodes, reported, found)."""
    reported = found = 0
    for n in nodes or []:
        for t in n.get(FNI_T, []):
            if FTS in t:
                reported += int(t[FTS]["active-flows"])
            found += len(t.get("flow", []))
    return len(nodes or []), reported, found


def crawl_rests():
    st, d = req("GET", RESTS + "?content=nonconfig")
    if st != 200:
        return None
    return crawl(json.loads(d)[NODES].get("node", []))


def crawl_xml():
    st, d = req("GET", OPER, accept="application/xml")
    if st != 200:
        return None
    root = ET.fromstring(d)
    nodes = root.findall(X_INV + "node")
    rep = sum(int(x.text) for x in root.iter(X_FTS + "active-flows"))
    found = sum(len(t.findall(X_FNI + "flow"))
                for t in root.iter(X_FNI + "table"))
    return len(nodes), rep, found


# ---- flow_config_blaster: the flow template, POST and DELETE ----

def blaster_flow(fid):
    ip = 0x0a000001 + fid
    return {"hard-timeout": 65000, "idle-timeout": 65000,
            "cookie_mask": 4294967295, "flow-name": "TestFlow-%d" % fid,
            "priority": 2, "strict": False, "cookie": fid, "table_id": 0,
            "installHw": False, "id": str(fid),
            "match": {"ipv4-destination": "%d.%d.%d.%d/32" % (
                ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255),
                "ethernet-match": {"ethernet-type": {"type": 2048}}},
            "instructions": {"instruction": [{"order": 0, "apply-actions": {
                "action": [{"drop-action": {}, "order": 0}]}}]}}


def blaster_add(nodes, per_node, fpr):
    """POST per_node flows to each node, fpr a request; the statuses."""
    stats = {}
    for n in range(1, nodes + 1):
        for start in range(0, per_node, fpr):
            flows = [blaster_flow(n * 100000 + i)
                     for i in range(start, min(start + fpr, per_node))]
            st, _ = req("POST", CFG + "/node/openflow:%d/table/0" % n,
                        {"flow": flows})
            stats[st] = stats.get(st, 0) + 1
    return stats


def blaster_delete(node, ids):
    stats = {}
    for i in ids:
        st, _ = req("DELETE", CFG + "/node/openflow:%d/table/0/flow/%d" %
                    (node, node * 100000 + i))
        stats[st] = stats.get(st, 0) + 1
    return stats


def suite_inventory(n, k):
    """Performance/inventory suites: flows written with
    flow_config_blaster, counted with inventory_crawler and ScaleClient
    in the whole inventory (flows and table statistics at node level)."""
    got = wait_for(lambda: len(of_nodes() or []), n)
    check(got == n, "get_num_nodes: %s openflow nodes" % got)
    fpr = 25
    stats = blaster_add(n, k, fpr)
    reqs = n * ((k + fpr - 1) // fpr)
    check(stats.get(200, 0) + stats.get(204, 0) == reqs,
          "blaster add: %d requests OK (200/204): %s" % (reqs, stats))
    total = n * k
    got = wait_for(lambda: crawl(of_nodes()), (n, total, total))
    check(got == (n, total, total),
          "crawler operational (nodes, reported, found): %s" % (got,))
    got = crawl(of_nodes("config"))
    check(got == (n, 0, total), "crawler config: %s" % (got,))
    check(crawl_rests() == (n, total, total),
          "RFC 8040 whole inventory: %s" % (crawl_rests(),))
    check(crawl_xml() == (n, total, total), "XML: %s" % (crawl_xml(),))
    st, d = req("GET", OPER + "/node/openflow:1")
    nd = json.loads(d)["node"][0] if st == 200 else {}
    check(crawl([nd]) == (1, k, k), "one node: %s" % (crawl([nd]),))
    # A PUT that replaces: 200 in the draft style, 204 in RFC 8040's.
    f = blaster_flow(100000)
    st, _ = req("PUT", CFG + "/node/openflow:1/table/0/flow/100000",
                {"flow": [f]})
    check(st == 200, "draft PUT replacing: 200 (got %d)" % st)
    st, _ = req("PUT", RESTS + "/node=openflow%3A1/flow-node-inventory:"
                "table=0/flow=100000", {"flow-node-inventory:flow": [f]})
    check(st == 204, "RFC 8040 PUT replacing: 204 (got %d)" % st)
    stats = blaster_delete(1, range(k // 2))
    check(stats == {200: k // 2}, "blaster delete: %s" % stats)
    want = (n, total - k // 2, total - k // 2)
    got = wait_for(lambda: crawl(of_nodes()), want)
    check(got == want, "crawler after delete: %s" % (got,))
    expect(409, "data-exists", "POST", CFG + "/node/openflow:2/table/0",
           {"flow": [blaster_flow(200000)]})
    expect(400, "malformed-message", "POST", CFG + "/node/openflow:2/table/0",
           b"{\"flow\": [")
    expect(404, "data-missing", "GET", OPER + "/node/openflow:99")


def oper_flows():
    """Per node, the flows the switch reported: {id: (active, found)}."""
    return {nd["id"]: crawl([nd])[1:] for nd in of_nodes() or []}


def suite_cleanup(n, k, own):
    """CSIT's cleanup steps: DELETE of one config node and of the whole
    config inventory; the config flows leave the switches (the `own`
    flows the controller pushed itself stay), both URL styles."""
    f = k + own
    want = {"openflow:%d" % i: (f, f) for i in range(1, n + 1)}
    wait_for(lambda: len(of_nodes() or []), n)
    stats = blaster_add(n, k, k)
    check(stats == {204: n}, "flows added: %s" % stats)
    got = wait_for(oper_flows, want)
    check(got == want, "switches hold them: %s" % got)
    st, _ = req("DELETE", RESTS + "/node=openflow%3A1")
    check(st == 204, "RFC 8040 DELETE node: 204 (got %d)" % st)
    want["openflow:1"] = (own, own)
    got = wait_for(oper_flows, want)
    check(got == want, "node 1's config flows left its switch: %s" % got)
    expect(404, "data-missing", "GET", CFG + "/node/openflow:1")
    expect(404, "data-missing", "DELETE", RESTS + "/node=openflow%3A1")
    st, _ = req("DELETE", CFG + "/node/openflow:2")
    check(st == 200, "draft DELETE node: 200 (got %d)" % st)
    st, _ = req("DELETE", CFG)
    check(st == 200, "draft DELETE nodes: 200 (got %d)" % st)
    want = {"openflow:%d" % i: (own, own) for i in range(1, n + 1)}
    got = wait_for(oper_flows, want)
    check(got == want, "every config flow left: %s" % got)
    expect(404, "data-missing", "GET", CFG)
    expect(404, "data-missing", "DELETE", RESTS)
    blaster_add(n, k, k)
    full = {"openflow:%d" % i: (f, f) for i in range(1, n + 1)}
    check(wait_for(oper_flows, full) == full, "flows back")
    st, _ = req("DELETE", RESTS)
    check(st == 204, "RFC 8040 DELETE nodes: 204 (got %d)" % st)
    got = wait_for(oper_flows, want)
    check(got == want, "and again: %s" % got)
    expect(404, "data-missing", "DELETE", CFG + "/node/openflow:99")
    expect(404, "data-missing", "DELETE", RESTS + "/node=foo%3A1")
    expect(405, "operation-not-supported", "DELETE", OPER + "/node/openflow:1")


# ---- sal-flow: FlowLib's Add/Delete Flow Via RPC, add_flow_rpc.json ----

SAL_XML = (
    '<input xmlns="urn:opendaylight:flow:service">'
    '<node xmlns:inv="urn:opendaylight:inventory">'
    '/inv:nodes/inv:node[inv:id="openflow:%d"]</node>'
    '<table_id>0</table_id><priority>2</priority><match><ethernet-match>'
    '<ethernet-type><type>2048</type></ethernet-type></ethernet-match>'
    '<ipv4-destination>10.0.1.0/24</ipv4-destination></match>'
    '<instructions><instruction><order>0</order><apply-actions><action>'
    '<order>0</order><output-action><output-node-connector>1'
    '</output-node-connector></output-action></action></apply-actions>'
    '</instruction></instructions></input>')


def node_ref(n, quote="'"):
    return ("/opendaylight-inventory:nodes/opendaylight-inventory:node["
            "opendaylight-inventory:id=%sopenflow:%d%s]" % (quote, n, quote))


def sal_json(n):
    return {"input": {
        "opendaylight-flow-service:node": node_ref(n),
        "priority": 2, "table_id": 0,
        "instructions": {"instruction": [{"order": 0, "apply-actions": {
            "action": [{"order": 0, "output-action": {
                "output-node-connector": "1"}}]}}]},
        "match": {"ipv4-destination": "10.0.1.0/24",
                  "ethernet-match": {"ethernet-type": {"type": 2048}}}}}


def table0(n):
    """A node's table 0 in the operational inventory: (active, found)."""
    st, d = req("GET", OPER + "/node/openflow:%d/table/0" % n)
    if st != 200:
        return None
    return crawl([{FNI_T: json.loads(d)[FNI_T]}])[1:]


def rpc(base, name, body, status, xml=False):
    st, d = req("POST", "%s/%s" % (base, name), body,
                ctype="application/xml" if xml else "application/json")
    check(st == status, "POST %s/%s -> %d (got %d %s)" % (base, name, status,
          st, d[:200]))
    return d


RESTS_OPS = "/rests/operations"
DRAFT_OPS = "/restconf/operations"


def suite_salflow(n):
    """sal-flow add-flow and remove-flow as FlowLib and the clustering
    suites send them: XML under /rests/operations (204 without a body),
    JSON under /restconf/operations (200); the flow reaches the switch
    and leaves it, the config datastore is untouched."""
    wait_for(lambda: len(of_nodes() or []), n)
    d = rpc(RESTS_OPS, "sal-flow:add-flow", SAL_XML % 1, 204, xml=True)
    check(d == b"", "204 without a body (%r)" % d)
    check(wait_for(lambda: table0(1), (1, 1)) == (1, 1),
          "node 1 table 0 holds it: %s" % (table0(1),))
    d = rpc(DRAFT_OPS, "sal-flow:add-flow", sal_json(2), 200)
    check(json.loads(d or b"{}") == {"output": {}}, "draft output %r" % d)
    check(wait_for(lambda: table0(2), (1, 1)) == (1, 1),
          "node 2 table 0 holds it: %s" % (table0(2),))
    # The clustering suites' Check Item Occurrence: the match, once, in
    # the operational table, under openflowplugin's id for such flows.
    for n in (1, 2):
        st, d = req("GET", OPER + "/node/openflow:%d/table/0" % n)
        fl = json.loads(d)[FNI_T][0].get("flow", [{}]) if st == 200 else [{}]
        check(d.count(b"10.0.1.0/24") == 1 and
              fl[0].get("id", "").startswith("#UF$TABLE*0-") and
              fl[0].get("priority") == 2, "node %d: %s" % (n, fl))
    expect(404, "data-missing", "GET", CFG + "/node/openflow:1")
    suite_update_flow()
    rpc(RESTS_OPS, "sal-flow:remove-flow", SAL_XML % 1, 204, xml=True)
    rpc(DRAFT_OPS, "sal-flow:remove-flow", sal_json(2), 200)
    check(wait_for(lambda: (table0(1), table0(2)), ((0, 0), (0, 0))) ==
          ((0, 0), (0, 0)), "removed from both switches")
    expect(404, "data-missing", "POST", RESTS_OPS + "/sal-flow:add-flow",
           SAL_XML % 99, ctype="application/xml")
    bad = sal_json(1)
    del bad["input"]["opendaylight-flow-service:node"]
    expect(400, "missing-element", "POST", RESTS_OPS + "/sal-flow:add-flow",
           bad)
    bad = sal_json(1)
    bad["input"]["match"]["ipv4-destination"] = "10.0.1.300/24"
    expect(400, "invalid-value", "POST", DRAFT_OPS + "/sal-flow:add-flow",
           bad)
    expect(400, "invalid-value", "POST", RESTS_OPS + "/sal-flow:add-flow",
           {"input": {"node": "/opendaylight-inventory:nodes"}})
    expect(400, "malformed-message", "POST", RESTS_OPS +
           "/sal-flow:remove-flow", {"flow": {}})
    expect(405, "operation-not-supported", "GET", RESTS_OPS +
           "/sal-flow:add-flow")


def update_xml(n, old, new):
    """FlowLib's Update Flow Via RPC: the flow's elements (without its
    id and namespace) renamed original-flow and updated-flow, then the
    node."""
    flow = ("<priority>2</priority><table_id>0</table_id><match>"
            "<ethernet-match><ethernet-type><type>2048</type></ethernet-type>"
            "</ethernet-match><ipv4-destination>%s</ipv4-destination>"
            "</match><instructions><instruction><order>0</order>"
            "<apply-actions><action><order>0</order><output-action>"
            "<output-node-connector>1</output-node-connector>"
            "</output-action></action></apply-actions></instruction>"
            "</instructions><flow-name>f1</flow-name><strict>false</strict>")
    return ('<input xmlns="urn:opendaylight:flow:service">'
            '<original-flow>%s</original-flow><updated-flow>%s'
            '</updated-flow><node xmlns:inv="urn:opendaylight:inventory">'
            '/inv:nodes/inv:node[inv:id="openflow:%d"]</node></input>' %
            (flow % old, flow % new, n))


def oper_matches(n):
    st, d = req("GET", OPER + "/node/openflow:%d/table/0" % n)
    if st != 200:
        return None
    return sorted(f["match"].get("ipv4-destination") for f in
                  json.loads(d)[FNI_T][0].get("flow", []))


def suite_update_flow():
    """sal-flow:update-flow: FlowLib's XML under the draft URL (200),
    JSON under /rests (204); the switch then holds the updated flow in
    place of the original."""
    rpc(DRAFT_OPS, "sal-flow:update-flow", update_xml(1, "10.0.1.0/24",
        "10.0.2.0/24"), 200, xml=True)
    check(wait_for(lambda: oper_matches(1), ["10.0.2.0/24"]) ==
          ["10.0.2.0/24"], "node 1 updated: %s" % oper_matches(1))
    body = sal_json(2)["input"]
    node = body.pop("opendaylight-flow-service:node")
    upd = json.loads(json.dumps(body))
    upd["match"]["ipv4-destination"] = "10.0.3.0/24"
    d = rpc(RESTS_OPS, "sal-flow:update-flow", {"input": {
        "node": node, "original-flow": body, "updated-flow": upd}}, 204)
    check(d == b"", "204 without a body (%r)" % d)
    check(wait_for(lambda: oper_matches(2), ["10.0.3.0/24"]) ==
          ["10.0.3.0/24"], "node 2 updated: %s" % oper_matches(2))
    expect(400, "missing-element", "POST", RESTS_OPS +
           "/sal-flow:update-flow", {"input": {"node": node,
                                               "original-flow": body}})
    expect(404, "data-missing", "POST", RESTS_OPS + "/sal-flow:update-flow",
           update_xml(99, "10.0.1.0/24", "10.0.2.0/24"),
           ctype="application/xml")
    # Back as they were, for the removals that follow.
    rpc(RESTS_OPS, "sal-flow:update-flow", update_xml(1, "10.0.2.0/24",
        "10.0.1.0/24"), 204, xml=True)
    rpc(RESTS_OPS, "sal-flow:update-flow", {"input": {
        "node": node, "original-flow": upd, "updated-flow": body}}, 204)
    check(wait_for(lambda: (oper_matches(1), oper_matches(2)),
                   (["10.0.1.0/24"], ["10.0.1.0/24"])) ==
          (["10.0.1.0/24"], ["10.0.1.0/24"]), "both restored")


# ---- bulk-o-matic: flow_config_blaster_bulk.py, Performance_Bulkomatic ----

def bulk_item(n, fid, ds):
    """flow_config_blaster_bulk's item: the blaster's flow, its id moved
    to flow-id (DS) or dropped (RPC), and the node (double quotes)."""
    f = blaster_flow(fid)
    fid = f.pop("id")
    if ds:
        f["flow-id"] = fid
    f["node"] = node_ref(n, '"')
    return f


def bulk_send(base, name, n, k, fpr, ds):
    stats = {}
    for node in range(1, n + 1):
        for start in range(0, k, fpr):
            items = [bulk_item(node, node * 100000 + i, ds)
                     for i in range(start, min(start + fpr, k))]
            st, _ = req("POST", "%s/%s" % (base, name), {"input": {
                "bulk-flow-ds-item" if ds else "bulk-flow-item": items}})
            stats[st] = stats.get(st, 0) + 1
    return stats


def flow_test(add, dpns, per, start=0, end=1):
    """sal_add_bulk_flow_config.json's shape: qualified leaves, strings."""
    v = {"is-add": "true" if add else "false", "dpn-count": str(dpns),
         "flows-per-dpn": str(per), "batch-size": "1", "seq": "true",
         "tx-chain": "true", "sleep-for": "0", "sleep-after": "1",
         "start-table-id": str(start), "end-table-id": str(end)}
    return {"input": {"sal-bulk-flow:" + k: x for k, x in v.items()}}


def oper_total(n, total):
    want = (n, total, total)
    got = wait_for(lambda: crawl(of_nodes()), want)
    check(got == want, "ScaleClient flow_stats_collected %s, want %s" %
          (got, want))


def suite_bulkomatic(n, k):
    """bulk-o-matic's operations as flow_config_blaster_bulk and the
    Performance_Bulkomatic suites call them, counted in the inventory
    the way ScaleClient and inventory_crawler count."""
    wait_for(lambda: len(of_nodes() or []), n)
    reqs = n * ((k + 9) // 10)
    for base, name, ds, status, total in (
            (DRAFT_OPS, "sal-bulk-flow:add-flows-rpc", 0, 200, n * k),
            (RESTS_OPS, "sal-bulk-flow:remove-flows-rpc", 0, 204, 0),
            (RESTS_OPS, "sal-bulk-flow:add-flows-ds", 1, 204, n * k),
            (DRAFT_OPS, "sal-bulk-flow:remove-flows-ds", 1, 200, 0)):
        stats = bulk_send(base, name, n, k, 10, ds)
        check(stats == {status: reqs}, "%s: %s" % (name, stats))
        oper_total(n, total)
        if name.endswith("add-flows-ds"):
            got = crawl(of_nodes("config"))
            check(got == (n, 0, n * k), "config holds them: %s" % (got,))
        elif name.endswith("add-flows-rpc"):
            check(of_nodes("config") is None, "nothing in config")
    rpc(DRAFT_OPS, "sal-bulk-flow:flow-test", flow_test(True, n, k), 200)
    oper_total(n, n * k)
    st, d = req("GET", OPER + "/node/openflow:1/table/1")
    t = json.loads(d)[FNI_T] if st == 200 else []
    check(crawl([{FNI_T: t}])[1:] == (k // 2, k // 2),
          "flow-test spread over tables 0 and 1: %s" % st)
    rpc(RESTS_OPS, "sal-bulk-flow:flow-test", flow_test(False, n, k), 204)
    oper_total(n, 0)
    suite_bulk_perf(n, k)
    # Node 1's flow-rpc-add-test flows are replaced by the same ones.
    rpc(DRAFT_OPS, "sal-bulk-flow:flow-rpc-add-multiple", {"input": {
        "sal-bulk-flow:flow-count": str(k),
        "sal-bulk-flow:rpc-batch-size": str(k)}}, 200)
    oper_total(n, n * k)
    suite_bulk_errors(n, k)


JOLOKIA = ("/jolokia/read/org.opendaylight.openflowplugin.applications."
           "bulk.o.matic:type=FlowCounter")


def jolokia(attr=None):
    """BulkomaticKeywords' read of the FlowCounter MBean: the value."""
    st, d = req("GET", JOLOKIA + ("/" + attr if attr else ""))
    if st != 200:
        return None
    return json.loads(d).get("value")


def op_status_ok(attr):
    """Operation Status Check: the value, as a string, starts with 2."""
    return str(jolokia(attr)).startswith("2")


def read_test(dpns, per, config, start=0, end=1):
    """sal_get_bulk_flow_config.json's shape."""
    v = {"verbose": "false", "dpn-count": str(dpns),
         "is-config-ds": "true" if config else "false",
         "flows-per-dpn": str(per), "start-table-id": str(start),
         "end-table-id": str(end)}
    return {"input": {"sal-bulk-flow:" + k: x for k, x in v.items()}}


def suite_bulk_perf(n, k):
    """Performance_Bulkomatic and Clustering_Bulkomatic through
    BulkomaticKeywords: flow-test, WriteOpStatus polled through Jolokia,
    read-flow-test with flows-per-dpn set to the total (Set DPN And Flow
    Count In Json Get), ReadOpStatus, FlowCount; table-test, TableCount;
    flow-rpc-add-test; register."""
    whole = jolokia()
    check(isinstance(whole, dict) and whole.get("Units") == "ns" and
          set(whole) == {"FlowCount", "ReadOpStatus", "WriteOpStatus",
                         "TaskCompletionTime", "Units", "TableCount"},
          "the FlowCounter MBean: %s" % whole)
    rpc(RESTS_OPS, "sal-bulk-flow:table-test", {"input": {
        "sal-bulk-flow:add": "true", "sal-bulk-flow:dpn-count": str(n),
        "sal-bulk-flow:start-table-id": "0",
        "sal-bulk-flow:end-table-id": "1"}}, 204)
    check(op_status_ok("WriteOpStatus") and jolokia("TableCount") == 2 * n,
          "table-test: WriteOpStatus %s TableCount %s" % (
              jolokia("WriteOpStatus"), jolokia("TableCount")))
    # BulkomaticKeywords' Post with HEADERS_YANG_JSON: the draft's
    # media type in CSIT's older variables.
    st, d = req("POST", DRAFT_OPS + "/sal-bulk-flow:flow-test",
                flow_test(True, n, k), ctype="application/yang.data+json")
    check(st == 200, "Add Bulk Flow (yang.data+json): %d %s" % (st, d[:200]))
    check(wait_for(lambda: op_status_ok("WriteOpStatus"), True),
          "Wait Until Write Finishes")
    t = jolokia("TaskCompletionTime")
    check(isinstance(t, int) and t > 0 and jolokia("TableCount") == 0,
          "TaskCompletionTime %s ns" % t)
    rpc(DRAFT_OPS, "sal-bulk-flow:read-flow-test", read_test(n, n * k, 1),
        200)
    check(op_status_ok("ReadOpStatus"), "Wait Until Read Finishes")
    check(jolokia("FlowCount") == n * k, "Verify Flow Count: config %s" %
          jolokia("FlowCount"))
    oper_total(n, n * k)
    rpc(RESTS_OPS, "sal-bulk-flow:read-flow-test", read_test(n, k, 0), 204)
    check(jolokia("FlowCount") == n * k, "operational FlowCount %s" %
          jolokia("FlowCount"))
    rpc(RESTS_OPS, "sal-bulk-flow:read-flow-test", read_test(n, k, 1, 1, 1),
        204)
    check(jolokia("FlowCount") == n * k // 2,
          "table 1 alone: FlowCount %s" % jolokia("FlowCount"))
    # flow-test's delete, then table-test's own enumeration form.
    rpc(RESTS_OPS, "sal-bulk-flow:flow-test", flow_test(False, n, k), 204)
    check(op_status_ok("WriteOpStatus"), "delete: Wait Until Write Finishes")
    oper_total(n, 0)
    rpc(RESTS_OPS, "sal-bulk-flow:read-flow-test", read_test(n, k, 1), 204)
    check(jolokia("FlowCount") == 0, "Verify Flow Count 0")
    rpc(RESTS_OPS, "sal-bulk-flow:flow-test", flow_test(True, n, k, 0, 1),
        204)
    oper_total(n, n * k)
    rpc(RESTS_OPS, "sal-bulk-flow:table-test", {"input": {
        "operation": "delete", "dpn-count": n, "start-table-id": 1,
        "end-table-id": 1}}, 204)
    check(jolokia("TableCount") == n, "TableCount %s" % jolokia("TableCount"))
    oper_total(n, n * k // 2)
    rpc(RESTS_OPS, "sal-bulk-flow:flow-test", flow_test(False, n, k), 204)
    oper_total(n, 0)
    # flow-rpc-add-test: one switch, table 1; an unknown node: nothing.
    rpc(DRAFT_OPS, "sal-bulk-flow:flow-rpc-add-test", {"input": {
        "sal-bulk-flow:dpn-id": "openflow:1", "sal-bulk-flow:flow-count":
        str(k), "sal-bulk-flow:rpc-batch-size": str(k)}}, 200)
    rpc(RESTS_OPS, "sal-bulk-flow:flow-rpc-add-test", {"input": {
        "dpn-id": "openflow:99", "flow-count": k, "rpc-batch-size": k}}, 204)
    oper_total(n, k)
    st, d = req("GET", OPER + "/node/openflow:1/table/1")
    t = json.loads(d)[FNI_T] if st == 200 else []
    check(crawl([{FNI_T: t}])[1:] == (k, k), "in table 1 of node 1")
    expect(500, "operation-failed", "POST", RESTS_OPS +
           "/sal-bulk-flow:register")
    expect(400, "missing-element", "POST", RESTS_OPS +
           "/sal-bulk-flow:read-flow-test", {"input": {
               "verbose": False, "is-config-ds": True}})
    expect(400, "invalid-value", "POST", RESTS_OPS +
           "/sal-bulk-flow:table-test", {"input": {
               "operation": "move", "dpn-count": 1, "start-table-id": 0,
               "end-table-id": 1}})
    st, d = req("GET", JOLOKIA + "/No%22Such")
    j = json.loads(d) if st == 200 else {}
    attr = j.get("request", {}).get("attribute")
    check(j.get("status") == 404 and attr == 'No"Such' and
          "AttributeNotFound" in j.get("error_type", ""),
          "unknown attribute: %s" % d[:200])


def suite_bulk_errors(n, k):
    """Bad input: refused whole, nothing pushed."""
    items = [bulk_item(1, 900000, 0), bulk_item(99, 900001, 0)]
    expect(404, "data-missing", "POST", RESTS_OPS +
           "/sal-bulk-flow:add-flows-rpc", {"input": {"bulk-flow-item":
                                                      items}})
    items = [bulk_item(1, 900000, 1)]
    del items[0]["flow-id"]
    expect(400, "invalid-value", "POST", RESTS_OPS +
           "/sal-bulk-flow:add-flows-ds", {"input": {"bulk-flow-ds-item":
                                                     items}})
    bad = flow_test(True, n, k)
    del bad["input"]["sal-bulk-flow:dpn-count"]
    expect(400, "missing-element", "POST", RESTS_OPS +
           "/sal-bulk-flow:flow-test", bad)
    expect(400, "invalid-value", "POST", RESTS_OPS +
           "/sal-bulk-flow:flow-test", flow_test(True, n, k, 5, 1))
    rpc(RESTS_OPS, "sal-bulk-flow:remove-flows-ds", {"input": {
        "bulk-flow-ds-item": [bulk_item(1, 900000, 1)]}}, 204)
    time.sleep(0.6)		# three stats polls
    oper_total(n, n * k)


# ---- node-connectors and topology flow:1 ----

TOPO = "network-topology:network-topology"


def flow1():
    st, d = req("GET", "/rests/data/%s/topology=flow%%3A1?content=nonconfig"
                % TOPO)
    if st != 200:
        return None
    return json.loads(d)["network-topology:topology"][0]


def topo_shape():
    t = flow1() or {}
    return (len(t.get("node", [])), len(t.get("link", [])))


def suite_topology(n, ports):
    """Inventory node-connectors with their statistics (the suites'
    Check Nodes Stats) and topology flow:1 of a linear chain of n
    switches: a node per switch, a termination point per port, a link
    per direction LLDP found."""
    want = (n, 2 * (n - 1))
    got = wait_for(topo_shape, want, tries=200)
    check(got == want, "flow:1 (nodes, links): %s, want %s" % (got, want))
    t = flow1() or {}
    tps = {nd["node-id"]: sorted(tp["tp-id"] for tp in
                                 nd.get("termination-point", []))
           for nd in t.get("node", [])}
    check(tps == {"openflow:%d" % i: sorted("openflow:%d:%d" % (i, p)
                  for p in range(1, ports + 1)) for i in range(1, n + 1)},
          "termination points: %s" % tps)
    links = sorted((lk["source"]["source-tp"], lk["destination"]["dest-tp"])
                   for lk in t.get("link", []))
    expect_links = sorted(
        [("openflow:%d:2" % i, "openflow:%d:1" % (i + 1))
         for i in range(1, n)] +
        [("openflow:%d:1" % (i + 1), "openflow:%d:2" % i)
         for i in range(1, n)])
    check(links == expect_links, "links %s" % links)
    check(all(lk["link-id"] == lk["source"]["source-tp"] and
              lk["source"]["source-node"] ==
              lk["source"]["source-tp"].rsplit(":", 1)[0]
              for lk in t.get("link", [])), "link ids and ends")
    suite_connectors(n, ports)
    suite_topology_errors()


def suite_connectors(n, ports):
    st, d = req("GET", RESTS + "/node=openflow%3A1?content=nonconfig")
    text = d.decode()
    check(st == 200 and "flow-capable-node-connector-statistics" in text and
          "flow-table-statistics" in text, "Check Nodes Stats: %d" % st)
    nodes = of_nodes() or []
    ncs = {nd["id"]: [nc["id"] for nc in nd.get("node-connector", [])]
           for nd in nodes}
    check(all(len(v) == ports for v in ncs.values()) and len(ncs) == n,
          "node-connectors per node: %s" % ncs)
    nc = nodes[0]["node-connector"][0] if nodes else {}
    fni = "flow-node-inventory:"
    check(nc.get(fni + "port-number") == 1 and
          nc.get(fni + "state", {}).get("link-down") is False and
          nc.get(fni + "name") and
          "opendaylight-port-statistics:flow-capable-node-connector-"
          "statistics" in nc, "a node-connector's fields: %s" % nc)
    st, d = req("GET", OPER + "/node/openflow:2", accept="application/xml")
    root = ET.fromstring(d) if st == 200 else None
    ids = [x.findtext(X_INV + "id") for x in root.iter(X_INV +
           "node-connector")] if root is not None else []
    check(ids == ["openflow:2:%d" % p for p in range(1, ports + 1)],
          "XML node-connector ids %s" % ids)


def suite_topology_errors():
    base = "/rests/data/%s/topology=flow%%3A1" % TOPO
    expect(404, "data-missing", "GET", base + "/node=openflow%3A99")
    expect(404, "data-missing", "GET", base + "/link=openflow%3A9%3A9")
    expect(404, "data-missing", "GET", base + "/node=openflow%3A1/"
           "termination-point=openflow%3A1%3A99")
    expect(404, "data-missing", "GET", base + "?content=config")
    expect(404, "data-missing", "GET", "/rests/data/%s/topology=flow%%3A2" %
           TOPO)
    expect(405, "operation-not-supported", "PUT", base, {"topology": []})


SUITES = {
    "inventory": (suite_inventory, 2),
    "cleanup": (suite_cleanup, 3),
    "salflow": (suite_salflow, 1),
    "bulkomatic": (suite_bulkomatic, 2),
    "topology": (suite_topology, 2),
}

if __name__ == "__main__":
    fn, nargs = SUITES[sys.argv[2]]
    fn(*(int(a) for a in sys.argv[3:3 + nargs]))
    sys.exit(1 if failed else 0)
