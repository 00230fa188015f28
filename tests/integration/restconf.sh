#!/bin/bash
# The embedded controller's RESTCONF northbound: sbsim switches connect to
# `sbsim controller --openflow ... --restconf ...`, which programs K flows
# into each; the operational inventory then lists the N nodes in both URL
# styles (RFC 8040 /rests/data and the draft /restconf/operational), as
# JSON and XML, with active-flows K in table 0, and every error case gets
# the status and RESTCONF error body OpenDaylight would send.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
N=3		# switches
K=25		# flows per switch
MAXBODY=4096

# Command-line errors exit 2 before anything starts.
for args in "--restconf 0" "--restconf 70000" "--restconf x" \
    "--restconf-user u" "--restconf 8181 --flows-per-switch 3" \
    "--restconf 8181 --restconf-user a:b" "--restconf 8181 --restconf-max-body 0"; do
	# shellcheck disable=SC2086
	"$SBSIM" controller $args >"$TMPD/cli.out" 2>&1
	rc=$?
	[ $rc -eq 2 ] || fail "controller $args: exit $rc, want 2"
done

of=$(free_ports 1)
rc_port=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow "ptcp:$of" \
    --restconf "127.0.0.1:$rc_port" --switches $N --flows-per-switch $K \
    --restconf-max-body $MAXBODY
ctl=$LAST_PID
wait_listen "$of" || fail "controller did not listen on $of"
wait_listen "$rc_port" || fail "controller did not serve RESTCONF on $rc_port"
start_bg "$TMPD/sw.log" "$SBSIM" openflow --switches $N \
    --controller "tcp:127.0.0.1:$of" --duration 60 -q
sw=$LAST_PID

"$PY" - "$rc_port" "$N" "$K" "$MAXBODY" <<'PYEOF' || fail "RESTCONF checks"
import base64, http.client, json, sys, time
import xml.etree.ElementTree as ET

port, n, k, maxbody = (int(a) for a in sys.argv[1:5])
NODES = "opendaylight-inventory:nodes"
RESTS = "/rests/data/" + NODES
DRAFT = "/restconf/operational/" + NODES
INV = "{urn:opendaylight:inventory}"
FNI = "{urn:opendaylight:flow:inventory}"
FTS = "{urn:opendaylight:flow:table:statistics}"
RC = "{urn:ietf:params:xml:ns:yang:ietf-restconf}"
failed = 0

def check(cond, what):
    global failed
    print(("ok - " if cond else "FAIL - ") + what)
    if not cond:
        failed += 1

def req(method, path, body=None, ctype=None, accept=None,
        auth=("admin", "admin")):
    h = {}
    if auth is not None:
        h["Authorization"] = "Basic " + base64.b64encode(
            ("%s:%s" % auth).encode()).decode()
    if ctype:
        h["Content-Type"] = ctype
    if accept:
        h["Accept"] = accept
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request(method, path, body=body, headers=h)
    r = c.getresponse()
    data = r.read()
    hdrs = {k.lower(): v for k, v in r.getheaders()}
    c.close()
    return r.status, hdrs, data

def get_json(path, **kw):
    st, h, d = req("GET", path, **kw)
    return st, h, (json.loads(d) if d else None)

def flows_of(nodes):
    return {nd["id"]: nd["flow-node-inventory:table"][0][
        "opendaylight-flow-table-statistics:flow-table-statistics"][
        "active-flows"] for nd in nodes.get("node", [])}

# Wait until every switch is connected and programmed.
want = {"openflow:%d" % i: k for i in range(1, n + 1)}
got = None
for _ in range(150):
    st, _, j = get_json(RESTS + "?content=nonconfig")
    if st == 200 and flows_of(j[NODES]) == want:
        got = j
        break
    time.sleep(0.1)
check(got is not None, "%d nodes with active-flows %d (last: %s)" % (n, k, j))

# The list, both URL styles, JSON.
for path, ctype in ((RESTS + "?content=nonconfig", "application/yang-data+json"),
                    (RESTS, "application/yang-data+json"),
                    (DRAFT, "application/json")):
    st, h, j = get_json(path)
    check(st == 200 and h.get("content-type") == ctype,
          "GET %s: 200 %s (%s %s)" % (path, ctype, st, h.get("content-type")))
    # The draft style names the top element bare, as ODL's bierman-02.
    nodes = j[NODES if path.startswith("/rests") else "nodes"]["node"]
    check(sorted(nd["id"] for nd in nodes) == sorted(want),
          "GET %s: ids %s" % (path, [nd["id"] for nd in nodes]))
    t = nodes[0]["flow-node-inventory:table"]
    s = t[0]["opendaylight-flow-table-statistics:flow-table-statistics"]
    check(len(t) == 1 and t[0]["id"] == 0 and s["active-flows"] == k and
          s["packets-looked-up"] == 0 and s["packets-matched"] == 0,
          "GET %s: table 0 statistics %s" % (path, t))

# The list as XML, both styles, both XML media types.
for path, accept in ((RESTS + "?content=nonconfig", "application/xml"),
                     (DRAFT, "application/yang-data+xml")):
    st, h, d = req("GET", path, accept=accept)
    check(st == 200 and h.get("content-type") == accept,
          "GET %s as %s: %s %s" % (path, accept, st, h.get("content-type")))
    root = ET.fromstring(d)
    check(root.tag == INV + "nodes", "XML root %s" % root.tag)
    ids = sorted(nd.findtext(INV + "id") for nd in root.findall(INV + "node"))
    check(ids == sorted(want), "XML ids %s" % ids)
    af = [int(x.text) for x in root.iter(FTS + "active-flows")]
    check(af == [k] * n, "XML active-flows %s" % af)
    check([t.findtext(FNI + "id") for t in root.iter(FNI + "table")] ==
          ["0"] * n, "XML table ids")
    # Each table carries its flow list (the K the controller pushed).
    check([len(t.findall(FNI + "flow")) for t in root.iter(FNI + "table")]
          == [k] * n, "XML flows per table")

# One node, one table, one statistics container.
for path in (RESTS + "/node=openflow%3A2?content=nonconfig",
             DRAFT + "/node/openflow:2"):
    st, _, j = get_json(path)
    nd = j["opendaylight-inventory:node" if path.startswith("/rests") else
           "node"] if st == 200 else [{}]
    check(st == 200 and len(nd) == 1 and nd[0].get("id") == "openflow:2",
          "GET %s: %s" % (path, j))
for path in (RESTS + "/node=openflow%3A3/flow-node-inventory:table=0"
             "?content=nonconfig", DRAFT + "/node/openflow:3/table/0",
             DRAFT + "/node/openflow:3/flow-node-inventory:table/0"):
    st, _, j = get_json(path)
    t = j.get("flow-node-inventory:table", [{}]) if st == 200 else [{}]
    check(st == 200 and t[0].get("id") == 0 and
          t[0]["opendaylight-flow-table-statistics:flow-table-statistics"]
          ["active-flows"] == k, "GET %s: %s" % (path, j))
st, _, d = req("GET", DRAFT + "/node/openflow:1/table/0", accept="application/xml")
check(st == 200 and ET.fromstring(d).tag == FNI + "table" and
      ET.fromstring(d).findtext(".//" + FTS + "active-flows") == str(k),
      "one table as XML")
st, _, j = get_json(RESTS + "/node=openflow%3A1/flow-node-inventory:table=0/"
                    "opendaylight-flow-table-statistics:flow-table-statistics")
check(st == 200 and j["opendaylight-flow-table-statistics:flow-table-statistics"]
      ["active-flows"] == k, "statistics container: %s" % j)
# One node-connector by its own path, both URL styles, as the node's list
# shows it (CSIT's ClusterOpenFlow reads operational_port_1 so and counts
# "link-down":true in the compact JSON), and its port statistics alone.
NC = "/node-connector/openflow:1:1"
NC8040 = "/node=openflow%3A1/node-connector=openflow%3A1%3A1"
STATS = "opendaylight-port-statistics:flow-capable-node-connector-statistics"
def nostats(nc):
    return {key: v for key, v in nc.items() if key != STATS}
st, _, j = get_json(DRAFT + "/node/openflow:1")
listed = {nc["id"]: nc for nc in j["node"][0].get("node-connector", [])}
check(st == 200 and "openflow:1:1" in listed, "node 1 lists %s" % list(listed))
for path, top in ((DRAFT + "/node/openflow:1" + NC, "node-connector"),
                  (RESTS + NC8040 + "?content=nonconfig",
                   "opendaylight-inventory:node-connector"),
                  (RESTS + NC8040, "opendaylight-inventory:node-connector")):
    st, _, j = get_json(path)
    one = j.get(top, []) if st == 200 else []
    check(len(one) == 1 and nostats(one[0]) ==
          nostats(listed.get("openflow:1:1", {})) and STATS in one[0],
          "GET %s: %s %s" % (path, st, j))
PORT_LEAVES = {"packets", "bytes", "receive-drops", "transmit-drops",
               "receive-errors", "transmit-errors", "receive-frame-error",
               "receive-over-run-error", "receive-crc-error",
               "collision-count", "duration"}
check(set(listed.get("openflow:1:1", {}).get(STATS, {})) == PORT_LEAVES,
      "port statistics leaves: %s" % listed.get("openflow:1:1"))
st, _, d = req("GET", DRAFT + "/node/openflow:1" + NC)
check(st == 200 and b'"link-down":false' in d, "compact JSON: %s" % d[:300])
st, _, d = req("GET", RESTS + NC8040, accept="application/xml")
root = ET.fromstring(d) if st == 200 else None
check(root is not None and root.tag == INV + "node-connector" and
      root.findtext(INV + "id") == "openflow:1:1", "one node-connector as XML")
for path in (DRAFT + "/node/openflow:1" + NC + "/" + STATS,
             RESTS + NC8040 + "/" + STATS):
    st, _, j = get_json(path)
    check(st == 200 and set(j.get(STATS, {})) ==
          set(listed.get("openflow:1:1", {}).get(STATS, {"-": 0})),
          "GET %s: %s %s" % (path, st, j))

st, h, d = req("HEAD", RESTS)
check(st == 200 and d == b"", "HEAD: 200, no body")
st, h, d = req("OPTIONS", DRAFT)
check(st == 200 and h.get("allow") == "GET, HEAD, OPTIONS",
      "OPTIONS: Allow %s" % h.get("allow"))

def error_of(d, xml=False):
    if xml:
        e = ET.fromstring(d).find(RC + "error")
        return e.findtext(RC + "error-type"), e.findtext(RC + "error-tag")
    e = json.loads(d)["errors"]["error"][0]
    check(e.get("error-message"), "error-message present")
    return e["error-type"], e["error-tag"]

def expect(status, tag, method, path, xml=False, **kw):
    st, h, d = req(method, path, accept="application/xml" if xml else None,
                   **kw)
    ok = st == status
    if ok and tag is not None:
        ok = error_of(d, xml)[1] == tag
    check(ok, "%s %s -> %d %s (got %d %s)" % (method, path, status, tag, st,
          d[:200]))
    return h

# Credentials (RFC 7617).
h = expect(401, "access-denied", "GET", RESTS, auth=None)
check(h.get("www-authenticate") == 'Basic realm="opendaylight"',
      "WWW-Authenticate %s" % h.get("www-authenticate"))
expect(401, "access-denied", "GET", RESTS, auth=("admin", "wrong"))
expect(401, "access-denied", "GET", DRAFT, auth=("root", "admin"), xml=True)
expect(401, "access-denied", "GET", "/nothing", auth=None)

# Unknown node and unknown paths.
expect(404, "data-missing", "GET", RESTS + "/node=openflow%3A99?content=nonconfig")
expect(404, "data-missing", "GET", DRAFT + "/node/openflow:99", xml=True)
expect(404, "data-missing", "GET", DRAFT + "/node/openflow:02")
expect(404, "data-missing", "GET", DRAFT + "/node/openflow:1/table/1")
expect(404, "data-missing", "GET", RESTS + "?content=config")
expect(404, "data-missing", "GET", "/restconf/config/" + NODES)
expect(404, "invalid-value", "GET", "/rests/data/foo:bar")
expect(404, "invalid-value", "GET", DRAFT + "/node/openflow:1/bogus")
expect(404, "data-missing", "GET", DRAFT + "/node/openflow:1/node-connector/openflow:1:99")
expect(404, "data-missing", "GET", DRAFT + "/node/openflow:1/node-connector/openflow:1:01")
expect(404, "data-missing", "GET", DRAFT + "/node/openflow:1/node-connector/openflow:2:1")
expect(404, "invalid-value", "GET", DRAFT + "/node/openflow:1" + NC + "/bogus")
expect(404, "invalid-value", "GET", "/restconf/operational/nodes")
expect(404, "invalid-value", "GET", "/nothing/here")
expect(404, "invalid-value", "GET", "/restconf/streams")

# Bad requests.
expect(400, "invalid-value", "GET", "/rests/data/../../etc/passwd")
expect(400, "invalid-value", "GET", RESTS + "/node=openflow%3")
expect(400, "invalid-value", "GET", RESTS + "/node")
expect(400, "invalid-value", "GET", RESTS + "?content=everything")
expect(400, "invalid-value", "GET", RESTS + "?depth=2")
st, _, _ = req("GET", RESTS, accept="text/html")
check(st == 406, "Accept text/html -> 406 (got %d)" % st)

# Bodies: parsed before the write is refused, size and type first.
expect(400, "malformed-message", "POST", RESTS, body=b'{"node":[{"id":',
       ctype="application/json")
expect(400, "malformed-message", "POST", RESTS, body=b"<node><id>x</node>",
       ctype="application/xml", xml=True)
expect(400, "malformed-message", "PUT", "/restconf/config/" + NODES,
       body=b"{", ctype="application/yang-data+json")
expect(415, "invalid-value", "POST", RESTS, body=b'{"node":[]}',
       ctype="text/plain")
expect(415, "invalid-value", "POST", RESTS, body=b'{"node":[]}')
expect(413, "too-big", "POST", RESTS, body=b"x" * (maxbody + 1),
       ctype="application/json")
expect(413, None, "POST", RESTS, body=b"x" * (4 * maxbody),
       ctype="application/json")
expect(405, "operation-not-supported", "POST", RESTS,
       body=b'{"node":[{"id":"openflow:9"}]}', ctype="application/json")
h = expect(405, "operation-not-supported", "PUT", DRAFT, body=b"{}",
           ctype="application/json")
check(h.get("allow") == "GET, HEAD, OPTIONS", "405 Allow %s" % h.get("allow"))
expect(405, "operation-not-supported", "DELETE", DRAFT + "/node/openflow:1")
expect(405, "operation-not-supported", "PATCH", "/restconf/operational/x")

# Still serving after all that.
st, _, j = get_json(RESTS)
check(st == 200 and len(j[NODES]["node"]) == n, "still serving")
sys.exit(1 if failed else 0)
PYEOF

# The switches go: the inventory empties.
stop_pid "$sw"
"$PY" - "$rc_port" <<'PYEOF' || fail "inventory not emptied"
import base64, http.client, json, sys, time
for _ in range(100):
    c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
    c.request("GET", "/rests/data/opendaylight-inventory:nodes", headers={
        "Authorization": "Basic " + base64.b64encode(b"admin:admin").decode()})
    r = c.getresponse()
    j = json.loads(r.read())
    if r.status == 200 and j == {"opendaylight-inventory:nodes": {}}:
        sys.exit(0)
    time.sleep(0.1)
print("last:", j)
sys.exit(1)
PYEOF
stop_pid "$ctl"
[ "$STOP_RC" -eq 0 ] || fail "controller exited $STOP_RC"
grep -q '^restconf: [0-9]* requests' "$TMPD/ctl.log" ||
    fail "no restconf summary line"
grep -q "^controller: $N switches" "$TMPD/ctl.log" ||
    fail "no OpenFlow summary line"

# RESTCONF alone, with other credentials: no OpenFlow role.
rc_port=$(free_ports 1)
start_bg "$TMPD/ctl2.log" "$SBSIM" controller --restconf "$rc_port" \
    --restconf-user op --restconf-password 's3cr:t'
ctl=$LAST_PID
wait_listen "$rc_port" || fail "RESTCONF-only controller did not listen"
"$PY" - "$rc_port" <<'PYEOF' || fail "RESTCONF-only checks"
import base64, http.client, json, sys
def get(user, pw):
    c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=10)
    c.request("GET", "/restconf/operational/opendaylight-inventory:nodes",
              headers={"Authorization": "Basic " + base64.b64encode(
                  ("%s:%s" % (user, pw)).encode()).decode()})
    r = c.getresponse()
    return r.status, r.read()
st, d = get("admin", "admin")
if st != 401:
    sys.exit("default credentials still accepted: %d" % st)
st, d = get("op", "s3cr:t")
if st != 200 or json.loads(d) != {"nodes": {}}:
    sys.exit("RESTCONF only: %d %s" % (st, d))
PYEOF
stop_pid "$ctl"
[ "$STOP_RC" -eq 0 ] || fail "RESTCONF-only controller exited $STOP_RC"
grep -q '^controller:' "$TMPD/ctl2.log" &&
    fail "RESTCONF-only controller printed an OpenFlow summary"
echo "restconf: ok"
