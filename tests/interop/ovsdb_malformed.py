#!/usr/bin/python3
"""Malformed and unfriendly OVSDB clients against a passive sbsim ovsdb
device (RFC 7047 over TCP), each case on its own connection:
  max sessions          a session past --max-sessions is closed
  unknown method        {"error": "unknown method"}, the session goes on
  bad operations        the result array carries {"error", "details"}
  not JSON              the device closes the connection (as ovsdb-server)
  not JSON-RPC          the same
  too long              a message over --max-message: closed
  never reads           updates over --max-output: closed
  silent                an echo request, then closed (inactivity probe)
  echo                  both ways: ours answered, the device's answered
and the device still answers list_dbs at the end.
usage: ovsdb_malformed.py PORT"""
import os
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), ".."))
import ovsdb_rpc  # noqa: E402

PORT = int(sys.argv[1])


class Conn(ovsdb_rpc.Conn):
    def __init__(self):
        super().__init__(socket.create_connection(("127.0.0.1", PORT),
                                                  timeout=10))

    def closed(self, seconds=10):
        """True once the device closes (what it sends meanwhile dropped)."""
        self.s.settimeout(seconds)
        try:
            while self.s.recv(65536):
                pass
            return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except socket.timeout:
            return False


def check(cond, what):
    if not cond:
        sys.exit("FAIL: " + what)
    print("ok -", what)


def transact(c, i, *ops):
    return c.call(i, "transact", ["Open_vSwitch"] + list(ops))


def case_max_sessions():
    """--max-sessions 4: a fifth client is closed at once."""
    held = [Conn() for _ in range(4)]
    for i, c in enumerate(held):
        check(c.call(i, "echo", [i])["result"] == [i],
              "session %d of 4 served" % (i + 1))
    check(Conn().closed(), "a fifth session: closed")
    for c in held:
        c.s.close()
    time.sleep(0.3)


def case_unknown_method():
    c = Conn()
    c.send({"id": 1, "method": "no_such_method", "params": []})
    r = c.reply(1)
    check(r is not None and r["error"] == "unknown method" and
          "result" not in r, "unknown method: the error ovsdb-server sends")
    c.send({"id": 2, "method": "echo", "params": ["x"]})
    r = c.reply(2)
    check(r is not None and r["result"] == ["x"],
          "the session goes on: echo answered")


def case_bad_operations():
    c = Conn()
    r = transact(c, 3, {"op": "insert", "table": "Bridge",
                        "row": {"name": 7}})
    e = r["result"][0]
    check(r["error"] is None and e["error"] == "syntax error" and
          "details" in e, "a value of the wrong type: syntax error")
    r = transact(c, 4, {"op": "select", "table": "Bridge",
                        "where": [["nope", "==", 1]]}, {"op": "comment",
                                                        "comment": "x"})
    check(r["result"][0]["error"] == "unknown column" and
          r["result"][1] is None, "unknown column, null after it")
    r = transact(c, 5, {"op": "frobnicate"})
    check(r["result"][0]["error"] == "syntax error" and "No operation"
          in r["result"][0]["details"], "unknown operation")
    r = transact(c, 6, {"op": "insert", "table": "Bridge",
                        "row": {"name": "x", "ports": ["uuid",
                                "01234567-89ab-cdef-0123-456789abcdef"]},
                        "uuid-name": "b"},
                 {"op": "mutate", "table": "Open_vSwitch", "where": [],
                  "mutations": [["bridges", "insert",
                                 ["named-uuid", "b"]]]})
    check(len(r["result"]) == 3 and r["result"][2]["error"] ==
          "referential integrity violation",
          "a reference to no row: the commit's error after the results")
    c.send({"id": 7, "method": "get_schema", "params": ["Nope"]})
    r = c.reply(7)
    check(r["error"]["error"] == "unknown database",
          "get_schema of another database")


def case_closes(name, raw):
    c = Conn()
    c.send(raw)
    check(c.closed(), name + ": the device closes the connection")


def case_never_reads():
    """A monitor that never reads while another client's transactions
    make updates for it: past --max-output (and what the kernel holds)
    the device drops it."""
    c = Conn()
    c.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    c.send({"id": 1, "method": "monitor",
            "params": ["Open_vSwitch", "m", {"Bridge": {}}]})
    d = Conn()
    big = "a" * 60000
    for i in range(150):
        r = transact(d, 100 + i, {"op": "insert", "table": "Bridge",
                                  "row": {"name": "big",
                                          "external_ids": ["map",
                                                           [["k", big]]]},
                                  "uuid-name": "b"},
                     {"op": "mutate", "table": "Open_vSwitch",
                      "where": [], "mutations": [["bridges", "insert",
                                                  ["named-uuid", "b"]]]})
        check(r is not None and "error" not in r["result"][-1],
              "insert %d" % i) if i == 0 else None
        transact(d, 1000 + i, {"op": "update", "table": "Open_vSwitch",
                               "where": [], "row": {"bridges":
                                                    ["set", []]}})
    check(c.closed(), "a monitor that never reads: closed")


def case_silent():
    c = Conn()
    m = c.recv()
    check(m is not None and m.get("method") == "echo" and
          m.get("id") is not None, "silence: an echo request")
    t = time.time()
    check(c.closed(), "no answer: closed")
    check(time.time() - t < 5, "closed within the probe interval")


def case_echo_answered():
    c = Conn()
    m = c.recv()
    c.send({"id": m["id"], "result": m["params"], "error": None})
    c.send({"id": 9, "method": "list_dbs", "params": []})
    r = c.reply(9)
    check(r["result"][0] == "Open_vSwitch", "echo answered: still serving")


case_max_sessions()
case_unknown_method()
case_bad_operations()
case_closes("not JSON", b'{"id":1,"method":"echo","params":[}]}')
case_closes("a stray byte", b'x{"id":1}')
case_closes("not JSON-RPC", b'{"id":1,"params":[]}')
case_closes("params not an array", b'{"id":1,"method":"echo","params":{}}')
case_closes("too long", b'{"id":1,"method":"echo","params":["' +
            b"a" * 200000 + b'"]}')
case_never_reads()
case_silent()
case_echo_answered()
c = Conn()
c.send({"id": 10, "method": "list_dbs", "params": []})
check(c.reply(10)["result"][0] == "Open_vSwitch", "the device survived")
