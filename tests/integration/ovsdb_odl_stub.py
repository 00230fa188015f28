#!/usr/bin/python3
"""A small stand-in for OpenDaylight's OVSDB southbound and its RESTCONF,
for ovsdb_northbound.sh: the topology ovsdb:1 of network-topology in both
URL styles (/rests/data/... with ?content=nonconfig, /restconf/config|
operational/...), and an OVSDB client (RFC 7047) of every device it holds.

  PUT config node ovsdb://...  with ovsdb:connection-info {remote-ip,
      remote-port}: connects to that device (CSIT's Connect To Ovsdb Node)
  --ovsdb-listen PORT: takes devices that connect (tcp:), their node id
      ovsdb://uuid/<the Open_vSwitch row's UUID>, as ODL names them
  each device: monitors Open_vSwitch and Bridge (method "monitor")
  PUT config node <node>/bridge/<name>  (CSIT's create_bridge.json):
      a transact that adds the bridge, its local port and interface, a
      Controller row per controller-entry, protocols from protocol-entry;
      201 once the device committed it
  DELETE config node <node>/bridge/<name>: the bridge out of Open_vSwitch
  DELETE config node <node>: the connection closed, the node gone
  GET operational topology or node: the OVSDB nodes with connection-info
      and managed-node-entry (a bridge-ref per bridge the device reports),
      and a node per bridge with its bridge-name
Bodies of the wrong shape get 400, bad credentials 401.  Each request is
logged as one JSON line (method, path, body) to LOGFILE.

usage: ovsdb_odl_stub.py HTTP_PORT LOGFILE [--ovsdb-listen PORT]
"""
import argparse
import base64
import json
import os
import re
import signal
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), ".."))
from ovsdb_rpc import Conn  # noqa: E402

TOPO = "network-topology:network-topology"
RFC = re.compile(r"^/rests/data/" + TOPO + r"/topology=ovsdb%3A1"
                 r"(?:/node=([^/?]+))?(\?content=nonconfig)?$")
DRAFT = re.compile(r"^/restconf/(config|operational)/" + TOPO +
                   r"/topology/ovsdb:1(?:/node/([^/?]+))?$")
OF13 = "ovsdb:ovsdb-bridge-protocol-openflow-13"
LOCK = threading.Lock()
NODES = {}          # node id -> Device


class Device:
    """One device's OVSDB session: replies by id, updates into bridges."""

    def __init__(self, sock, node_id=None):
        self.conn = Conn(sock, timeout=None)
        self.peer = sock.getpeername()
        self.node_id = node_id
        self.bridges = {}       # uuid -> name
        self.ovs_uuid = None
        self.replies = {}
        self.cv = threading.Condition()
        self.next_id = 100
        self.wlock = threading.Lock()
        self.alive = True
        threading.Thread(target=self.reader, daemon=True).start()
        r = self.call("monitor", ["Open_vSwitch", "odl", {
            "Open_vSwitch": {"columns": ["bridges"]},
            "Bridge": {"columns": ["name"]}}])
        self.update(r["result"])
        self.ovs_uuid = list(r["result"]["Open_vSwitch"])[0]
        if self.node_id is None:
            self.node_id = "ovsdb://uuid/" + self.ovs_uuid

    def reader(self):
        while True:
            try:
                m = self.conn.recv()
            except OSError:
                m = None
            if m is None:
                break
            if m.get("method") == "echo":
                self.send({"id": m["id"], "result": m["params"],
                           "error": None})
            elif m.get("method") == "update":
                self.update(m["params"][1])
            elif "id" in m:
                with self.cv:
                    self.replies[m["id"]] = m
                    self.cv.notify_all()
        with self.cv:
            self.alive = False
            self.cv.notify_all()

    def update(self, tu):
        with LOCK:
            for u, row in tu.get("Bridge", {}).items():
                if row.get("new") is not None:
                    self.bridges[u] = row["new"]["name"]
                else:
                    self.bridges.pop(u, None)

    def send(self, msg):
        with self.wlock:
            self.conn.send(msg)

    def call(self, method, params):
        with self.cv:
            i = self.next_id
            self.next_id += 1
        self.send({"id": i, "method": method, "params": params})
        with self.cv:
            self.cv.wait_for(lambda: i in self.replies or not self.alive,
                             timeout=20)
            return self.replies.pop(i, None)

    def transact(self, ops):
        r = self.call("transact", ["Open_vSwitch"] + ops)
        ok = r is not None and r.get("error") is None and all(
            "error" not in x for x in r["result"] if x)
        return ok, r

    def close(self):
        try:
            self.conn.s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.conn.s.close()


def add_bridge(dev, node):
    """ODL's bridge create: bridge, local port and interface, controllers;
    the node (a CSIT create_bridge.json) checked first."""
    name = node["ovsdb:bridge-name"]
    ops = [{"op": "insert", "table": "Interface", "uuid-name": "i",
            "row": {"name": name, "type": "internal"}},
           {"op": "insert", "table": "Port", "uuid-name": "p",
            "row": {"name": name, "interfaces": ["named-uuid", "i"]}}]
    ctls = []
    for k, c in enumerate(node.get("ovsdb:controller-entry", [])):
        ops.append({"op": "insert", "table": "Controller",
                    "uuid-name": "c%d" % k, "row": {"target": c["target"]}})
        ctls.append(["named-uuid", "c%d" % k])
    protos = ["OpenFlow13" for p in node["ovsdb:protocol-entry"]
              if p["protocol"] == OF13]
    ops.append({"op": "insert", "table": "Bridge", "uuid-name": "b",
                "row": {"name": name, "ports": ["named-uuid", "p"],
                        "controller": ["set", ctls],
                        "protocols": ["set", protos]}})
    ops.append({"op": "mutate", "table": "Open_vSwitch", "where": [],
                "mutations": [["bridges", "insert", ["named-uuid", "b"]]]})
    return dev.transact(ops)


def del_bridge(dev, name):
    with LOCK:
        uuids = [u for u, n in dev.bridges.items() if n == name]
    if not uuids:
        return False
    ok, _ = dev.transact([{"op": "mutate", "table": "Open_vSwitch",
                           "where": [], "mutations": [
                               ["bridges", "delete", ["uuid", uuids[0]]]]}])
    return ok


def node_json(dev):
    ip, port = dev.peer[0], dev.peer[1]
    with LOCK:
        names = sorted(dev.bridges.values())
    ref = ("/network-topology:network-topology/topology[topology-id="
           "'ovsdb:1']/node[node-id='%s/bridge/%s']")
    out = [{"node-id": dev.node_id,
            "ovsdb:connection-info": {"remote-ip": ip, "remote-port": port},
            "ovsdb:managed-node-entry": [
                {"bridge-ref": ref % (dev.node_id, n)} for n in names]}]
    for n in names:
        out.append({"node-id": "%s/bridge/%s" % (dev.node_id, n),
                    "ovsdb:bridge-name": n})
    return out


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    log = None
    auth = "Basic " + base64.b64encode(b"admin:admin").decode()

    def log_message(self, *a):
        pass

    def reply(self, code, body=None):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(code)
        self.send_header("Content-Length", str(len(data)))
        if body is not None:
            self.send_header("Content-Type", "application/yang-data+json")
        self.end_headers()
        self.wfile.write(data)

    def route(self):
        m = RFC.match(self.path)
        if m:
            node = unquote(m.group(1)) if m.group(1) else None
            return node, m.group(2) is None
        m = DRAFT.match(self.path)
        if m:
            node = unquote(m.group(2)) if m.group(2) else None
            return node, m.group(1) == "config"
        return None, None

    def handle_any(self, method):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n).decode() if n else ""
        with LOCK:
            self.log.write(json.dumps({"method": method, "path": self.path,
                                       "body": body}) + "\n")
            self.log.flush()
        if self.headers.get("Authorization") != self.auth:
            return self.reply(401)
        node, config = self.route()
        if config is None:
            return self.reply(404)
        if method == "GET":
            return self.get(node, config)
        if node is None:
            return self.reply(405)
        if method == "PUT":
            return self.put(node, body)
        return self.delete(node)

    def get(self, node, config):
        if config:
            return self.reply(405)
        with LOCK:
            devs = list(NODES.values())
        nodes = [x for d in devs for x in node_json(d)]
        if node is None:
            return self.reply(200, {"network-topology:topology": [
                {"topology-id": "ovsdb:1", "node": nodes}]})
        found = [x for x in nodes if x["node-id"] == node]
        if not found:
            return self.reply(404)
        return self.reply(200, {"network-topology:node": found})

    def parse_node(self, node, body):
        doc = json.loads(body)
        key = "network-topology:node" if "/rests/" in self.path else "node"
        nodes = doc[key]
        assert len(nodes) == 1 and nodes[0]["node-id"] == node, doc
        return nodes[0]

    def put(self, node, body):
        try:
            n = self.parse_node(node, body)
        except (ValueError, KeyError, AssertionError, TypeError):
            return self.reply(400)
        if "/bridge/" in node:
            return self.put_bridge(node, n)
        ci = n.get("ovsdb:connection-info")
        if not isinstance(ci, dict) or set(ci) != {"remote-ip",
                                                   "remote-port"}:
            return self.reply(400)
        try:
            s = socket.create_connection((ci["remote-ip"],
                                          int(ci["remote-port"])), 10)
            dev = Device(s, node)
        except (OSError, TypeError, KeyError):
            return self.reply(201)   # config taken; nothing operational
        with LOCK:
            NODES[node] = dev
        return self.reply(201)

    def put_bridge(self, node, n):
        parent, name = node.split("/bridge/", 1)
        managed = ("/network-topology:network-topology/topology[topology-id"
                   "='ovsdb:1']/node[node-id='%s']" % parent)
        try:
            assert n["ovsdb:bridge-name"] == name
            assert n["ovsdb:managed-by"] == managed
            assert isinstance(n["ovsdb:protocol-entry"], list)
        except (KeyError, AssertionError):
            return self.reply(400)
        with LOCK:
            dev = NODES.get(parent)
        if dev is None:
            return self.reply(404)
        ok, _ = add_bridge(dev, n)
        return self.reply(201 if ok else 500)

    def delete(self, node):
        if "/bridge/" in node:
            parent, name = node.split("/bridge/", 1)
            with LOCK:
                dev = NODES.get(parent)
            if dev is None or not del_bridge(dev, name):
                return self.reply(404)
            return self.reply(200)
        with LOCK:
            dev = NODES.pop(node, None)
        if dev is None:
            return self.reply(404)
        dev.close()
        return self.reply(200)

    def do_GET(self):
        self.handle_any("GET")

    def do_PUT(self):
        self.handle_any("PUT")

    def do_DELETE(self):
        self.handle_any("DELETE")


def accept_loop(port):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", port))
    srv.listen(64)
    while True:
        s, _ = srv.accept()
        try:
            dev = Device(s)
        except (OSError, TypeError, KeyError, IndexError):
            s.close()
            continue
        with LOCK:
            NODES[dev.node_id] = dev


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("port", type=int)
    ap.add_argument("log")
    ap.add_argument("--ovsdb-listen", type=int)
    a = ap.parse_args()
    # The test stops it with SIGINT: at once, sessions and all.
    signal.signal(signal.SIGINT, lambda *_: os._exit(0))
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    Handler.log = open(a.log, "a")
    if a.ovsdb_listen:
        threading.Thread(target=accept_loop, args=(a.ovsdb_listen,),
                         daemon=True).start()
    ThreadingHTTPServer.daemon_threads = True
    ThreadingHTTPServer(("127.0.0.1", a.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
