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
      sends KIND (malformed, array, notjson, long, silent) and expects
      to be closed
  ovsdb_ctl.py twins PORT SECS                     two sessions of one
      node: the older must be closed within SECS, the newer stay
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


class Fake:
    """A node that answers the manager's list_dbs, get_schema and monitor
    with one Open_vSwitch row of the given uuid."""

    def __init__(self, port, uuid):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buf = ""
        for _ in range(3):
            m = self.recv()
            if m["method"] == "list_dbs":
                res = ["Open_vSwitch"]
            elif m["method"] == "get_schema":
                res = {"name": "Open_vSwitch", "version": "8.3.1",
                       "tables": {"Open_vSwitch": {"columns": {}}}}
            else:
                res = {"Open_vSwitch": {uuid: {"new": {}}}}
            self.send({"id": m["id"], "result": res, "error": None})

    def send(self, m):
        self.s.sendall(json.dumps(m).encode())

    def recv(self):
        dec = json.JSONDecoder()
        while True:
            try:
                m, end = dec.raw_decode(self.buf.lstrip())
                self.buf = self.buf.lstrip()[end:]
                return m
            except ValueError:
                b = self.s.recv(65536)
                if not b:
                    return None
                self.buf += b.decode()

    def closed(self):
        """True once the manager closes (its echo probes are answered)."""
        while True:
            try:
                m = self.recv()
            except socket.timeout:
                return False
            if m is None:
                return True
            if m.get("method") == "echo":
                self.send({"id": m["id"], "result": m["params"],
                           "error": None})


def twins(port, secs):
    """Two sessions of one node: the newer replaces the older."""
    uuid = "0a1b2c3d-0000-4000-8000-000000000001"
    a = Fake(port, uuid)
    time.sleep(0.3)
    b = Fake(port, uuid)
    a.s.settimeout(secs)
    if not a.closed():
        sys.exit("the older session of the node was not closed")
    b.s.settimeout(0.5)
    if b.closed():
        sys.exit("the newer session was closed too")
    return 0


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
    elif kind == "long":
        s.sendall(b'{"id": 1, "result": "' + b'x' * 100000)
    # silent: never answers; the monitor timeout must close it
    s.settimeout(10)
    while True:
        try:
            b = s.recv(65536)
        except socket.timeout:
            sys.exit("%s: the controller did not close the session" % kind)
        except ConnectionResetError:
            return 0            # closed with our bytes unread
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
    if cmd == "twins":
        return twins(int(sys.argv[2]), float(sys.argv[3]))
    if cmd == "badnode":
        return badnode(int(sys.argv[2]), sys.argv[3])
    sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    sys.exit(main())
