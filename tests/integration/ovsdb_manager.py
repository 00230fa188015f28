#!/usr/bin/python3
"""A small OVSDB manager (the client side, as a controller's OVSDB
southbound is) for sbsim ovsdb devices in active mode: it listens, takes
N sessions, and on each lists the databases, reads the schema, monitors
Bridge with monitor_cond, adds a bridge the way ovs-vsctl does and waits
for the update2 that reports it, answers the device's echo and sends its
own.  Then it closes the first session and waits for that device to come
back (the pool's reconnect).
usage: ovsdb_manager.py PORT N"""
import json
import socket
import sys
import threading

PORT, N = int(sys.argv[1]), int(sys.argv[2])
DEC = json.JSONDecoder()
errors = []
done = []
peers = []
lock = threading.Lock()


class Conn:
    def __init__(self, s):
        self.s = s
        self.s.settimeout(20)
        self.buf = ""
        self.pending = []

    def send(self, obj):
        self.s.sendall(json.dumps(obj).encode())

    def recv(self):
        while True:
            text = self.buf.lstrip()
            if text:
                try:
                    obj, end = DEC.raw_decode(text)
                    self.buf = text[end:]
                    if obj.get("method") == "echo" and "id" in obj:
                        self.send({"id": obj["id"], "result": obj["params"],
                                   "error": None})
                        continue
                    return obj
                except ValueError:
                    pass
            data = self.s.recv(65536)
            if not data:
                raise EOFError("closed")
            self.buf += data.decode()

    def call(self, i, method, params):
        self.send({"id": i, "method": method, "params": params})
        while True:
            m = self.recv()
            if m.get("id") == i and "method" not in m:
                return m
            self.pending.append(m)


def session(s, addr):
    c = Conn(s)
    try:
        r = c.call(1, "list_dbs", [])
        assert r["result"] == ["Open_vSwitch"], r
        r = c.call(2, "get_schema", ["Open_vSwitch"])
        assert r["result"]["name"] == "Open_vSwitch", "schema"
        r = c.call(3, "monitor_cond", ["Open_vSwitch", "mon",
                                       {"Bridge": [{"columns": ["name"]}],
                                        "Open_vSwitch": [{"columns":
                                                          ["bridges"]}]}])
        ovs = list(r["result"]["Open_vSwitch"].keys())
        assert len(ovs) == 1, r
        r = c.call(4, "transact", ["Open_vSwitch",
                                   {"op": "insert", "table": "Interface",
                                    "row": {"name": "br-int",
                                            "type": "internal"},
                                    "uuid-name": "i"},
                                   {"op": "insert", "table": "Port",
                                    "row": {"name": "br-int", "interfaces":
                                            ["named-uuid", "i"]},
                                    "uuid-name": "p"},
                                   {"op": "insert", "table": "Bridge",
                                    "row": {"name": "br-int", "ports":
                                            ["named-uuid", "p"]},
                                    "uuid-name": "b"},
                                   {"op": "mutate", "table": "Open_vSwitch",
                                    "where": [["_uuid", "==",
                                               ["uuid", ovs[0]]]],
                                    "mutations": [["bridges", "insert",
                                                   ["named-uuid", "b"]]]}])
        assert all("error" not in x for x in r["result"]), r
        while not c.pending:
            c.pending.append(c.recv())
        up = c.pending[0]
        assert up["method"] == "update2", up
        rows = up["params"][1]["Bridge"]
        assert [v["insert"]["name"] for v in rows.values()] == ["br-int"], up
        r = c.call(5, "echo", ["hi"])
        assert r["result"] == ["hi"], r
    except Exception as e:
        with lock:
            errors.append("%s: %r" % (addr, e))
        return
    with lock:
        done.append(addr)
        peers.append(c)


srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", PORT))
srv.listen(64)
srv.settimeout(30)
threads = []
for _ in range(N):
    s, addr = srv.accept()
    t = threading.Thread(target=session, args=(s, addr[0]))
    t.start()
    threads.append(t)
for t in threads:
    t.join()
if errors or len(done) != N:
    sys.exit("FAIL: %d of %d sessions done: %s" % (len(done), N, errors))
if len(set(done)) != N:
    sys.exit("FAIL: devices share addresses: %s" % done)
print("ok - %d sessions, each device on its own address" % N)
# The first device loses its session and comes back.
gone = done[0]
peers[0].s.close()
s, addr = srv.accept()
if addr[0] != gone:
    sys.exit("FAIL: %s came back, not %s" % (addr[0], gone))
c = Conn(s)
r = c.call(1, "transact", ["Open_vSwitch", {"op": "select",
                                            "table": "Bridge", "where": [],
                                            "columns": ["name"]}])
names = [row["name"] for row in r["result"][0]["rows"]]
if names != ["br-int"]:
    sys.exit("FAIL: the database did not outlive the session: %s" % names)
print("ok - %s reconnected, its database kept" % gone)
