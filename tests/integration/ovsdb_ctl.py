#!/usr/bin/python3
"""Helpers of the OVSDB controller tests (ovsdb_controller.sh,
ovsdb_odl_real.sh): RESTCONF requests against sbsim controller, waiting
for topology ovsdb:1, and fake OVSDB nodes that misbehave.

  ovsdb_ctl.py req METHOD URL [BODY|-] [ACCEPT]   prints the status, the
                                                   reply on stderr
  ovsdb_ctl.py topo URL MGRS BRIDGES TPS SECS      waits until the
      operational topology has MGRS manager nodes, BRIDGES bridge nodes
      and TPS termination points; checks their shape
  ovsdb_ctl.py get URL EXPR                        prints eval(EXPR) on
      the reply as r, its one list's first entry as n
  ovsdb_ctl.py badnode PORT KIND                   a node on PORT that
      sends KIND (malformed, array, silent) and expects to be closed
"""
import base64
import json
import socket
import sys
import time
import urllib.error
import urllib.request

AUTH = "Basic " + base64.b64encode(b"admin:admin").decode()


def request(method, url, body=None, accept="application/json"):
    data = None if body is None else body.encode()
    rq = urllib.request.Request(url, data=data, method=method)
    rq.add_header("Authorization", AUTH)
    rq.add_header("Accept", accept)
    if data is not None:
        rq.add_header("Content-Type", "application/json" if
                      body.lstrip().startswith("{") else "application/xml")
    try:
        with urllib.request.urlopen(rq, timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def nodes_of(url):
    status, text = request("GET", url)
    if status != 200:
        return None
    topo = json.loads(text)["network-topology:topology"][0]
    assert topo["topology-id"] == "ovsdb:1", topo
    return topo.get("node", [])


def check_shape(nodes):
    """Every manager node and bridge node as ODL's ovsdb.yang has them."""
    ids = {n["node-id"] for n in nodes}
    for n in nodes:
        if "ovsdb:bridge-name" in n:
            mgr = n["node-id"].rsplit("/bridge/", 1)[0]
            assert mgr in ids, "bridge %s of no node" % n["node-id"]
            assert "node-id='%s']" % mgr in n["ovsdb:managed-by"], n
            assert len(n["ovsdb:bridge-uuid"]) == 36, n
            for tp in n.get("termination-point", []):
                assert tp["tp-id"] == tp["ovsdb:name"], tp
                assert len(tp["ovsdb:port-uuid"]) == 36, tp
                assert len(tp["ovsdb:interface-uuid"]) == 36, tp
                assert tp["ovsdb:interface-type"].startswith(
                    "ovsdb:interface-type-"), tp
        else:
            ci = n["ovsdb:connection-info"]
            assert ci["remote-ip"].startswith("127."), n
            assert ci["remote-port"] > 0 and ci["local-port"] > 0, n
            # ovs-version is vswitchd's: a bare ovsdb-server has none
            assert n["ovsdb:db-version"], n
            for e in n.get("ovsdb:managed-node-entry", []):
                assert e["bridge-ref"].split("node-id='")[1][:-2] in ids, e


def topo(url, mgrs, bridges, tps, secs):
    deadline = time.time() + secs
    got = None
    while time.time() < deadline:
        nodes = nodes_of(url)
        if nodes is not None:
            brs = [n for n in nodes if "ovsdb:bridge-name" in n]
            got = (len(nodes) - len(brs), len(brs),
                   sum(len(b.get("termination-point", [])) for b in brs))
            if got == (mgrs, bridges, tps):
                check_shape(nodes)
                return 0
        time.sleep(0.2)
    sys.exit("topology: %r nodes, bridges, TPs; want %r" %
             (got, (mgrs, bridges, tps)))


def badnode(port, kind):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    first = s.recv(65536)       # the controller's list_dbs
    assert b'"list_dbs"' in first, first
    if kind == "malformed":
        s.sendall(b'{"id": 1, "result": [1, 2,, 3], "error": null}')
    elif kind == "array":
        s.sendall(b'["not", "a", "JSON-RPC", "message"]')
    elif kind == "notjson":
        s.sendall(b'hello\n')
    # silent: never answers; the monitor timeout must close it
    s.settimeout(10)
    while True:
        try:
            b = s.recv(65536)
        except socket.timeout:
            sys.exit("%s: the controller did not close the session" % kind)
        if not b:
            return 0


def main():
    cmd = sys.argv[1]
    if cmd == "req":
        body = None
        if len(sys.argv) > 4 and sys.argv[4] != "-":
            body = sys.argv[4]
        accept = sys.argv[5] if len(sys.argv) > 5 else "application/json"
        status, text = request(sys.argv[2], sys.argv[3], body, accept)
        sys.stderr.write(text + "\n")
        print(status)
        return 0
    if cmd == "topo":
        return topo(sys.argv[2], *map(int, sys.argv[3:7]))
    if cmd == "get":
        status, text = request("GET", sys.argv[2])
        r = json.loads(text) if status == 200 else None
        # n: the first entry of the reply's one list
        n = list(r.values())[0][0] if r else None
        print(eval(sys.argv[3], {}, {"r": r, "n": n}))
        return 0
    if cmd == "badnode":
        return badnode(int(sys.argv[2]), sys.argv[3])
    sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    sys.exit(main())
