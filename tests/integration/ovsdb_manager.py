#!/usr/bin/python3
"""A small OVSDB manager (the client side, as a controller's OVSDB
southbound is) for sbsim ovsdb devices in active mode: it listens, takes
N sessions, and on each lists the databases, reads the schema, monitors
Bridge with monitor_cond, adds a bridge the way ovs-vsctl does and waits
for the update2 that reports it, answers the device's echo and sends its
own.  Then it closes the first session and waits for that device to come
back (the pool's reconnect) with its database, its Manager row, and what
ovs-vswitchd would have written back a moment later (ofport,
datapath_id).
usage: ovsdb_manager.py PORT N"""
import os
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), ".."))
from ovsdb_rpc import Conn  # noqa: E402

PORT, N = int(sys.argv[1]), int(sys.argv[2])
errors = []
done = []
peers = []
lock = threading.Lock()


def session(s, addr):
    c = Conn(s)
    try:
        r = c.call(1, "list_dbs", [])
        assert r["result"] == ["Open_vSwitch", "_Server"], r
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
        up = c.pending[0] if c.pending else c.recv()
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
r = c.call(2, "transact", ["Open_vSwitch", {"op": "select",
                                            "table": "Manager", "where": [],
                                            "columns": ["target",
                                                        "is_connected"]}])
if r["result"][0]["rows"] != [{"target": "tcp:127.0.0.1:%d" % PORT,
                               "is_connected": True}]:
    sys.exit("FAIL: the Manager row: %s" % r["result"])
for i in range(30):      # the device writes back at its next tick
    r = c.call(3 + i, "transact", ["Open_vSwitch",
                                   {"op": "select", "table": "Interface",
                                    "where": [], "columns": ["ofport"]},
                                   {"op": "select", "table": "Bridge",
                                    "where": [],
                                    "columns": ["datapath_id"]}])
    if r["result"][0]["rows"] == [{"ofport": 65534}] and \
            len(r["result"][1]["rows"][0]["datapath_id"]) == 16:
        break
    time.sleep(0.1)
else:
    sys.exit("FAIL: what vswitchd writes back: %s" % r["result"])
print("ok - the Manager row, ofport and datapath_id")
