#!/usr/bin/python3
"""For nc_addresses.sh: N devices of `sbsim netconf --source NET.0/24
--max-sessions 1 --notifications 1` behind one shared listener each
answer as themselves at their own address: a session each (distinct
session-ids), an edit-config on the first seen in its datastore alone,
each one's notification naming it; a second session to the first is
refused (its own --max-sessions), and connections to addresses of the
port that are no device's are reset.

usage: nc_share.py NET PORT N
Prints one line per check; exits 1 at the first failure."""

import os
import socket
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nc_client import (NOTIF, ROUTES, Session, edit,  # noqa: E402
                       expect_ok, fail, ok)


def closed_at_once(host, port):
    """True when the connection is closed or reset before any byte."""
    try:
        c = socket.create_connection((host, port), timeout=10)
    except ConnectionResetError:  # reset as soon as accepted
        return True
    try:
        return c.recv(65536) == b""
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False
    finally:
        c.close()


def has_route(reply, prefix):
    return any(p.text == prefix for p in
               reply.iter("{%s}prefix" % ROUTES))


def main():
    net, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    addr = ["%s.%d" % (net, k + 1) for k in range(n)]
    sess = [Session(port, host=a) for a in addr]
    sids = [s.sid for s in sess]
    if len(set(sids)) != n:
        fail("session-ids %s are not distinct" % sids)
    ok("%d devices said hello, session-ids %s" % (n, sids))
    if not closed_at_once(addr[0], port):
        fail("a second session to %s was not refused" % addr[0])
    ok("a second session to %s refused (--max-sessions 1)" % addr[0])
    for a in ("%s.%d" % (net, n + 1), "%s.200" % net):
        if not closed_at_once(a, port):
            fail("a connection to %s (no device) was not closed" % a)
        ok("a connection to %s (no device) reset" % a)
    expect_ok(sess[0].rpc(edit("10.77.0.0/24", "192.0.2.1")),
              "edit-config on %s" % addr[0])
    for k, s in enumerate(sess):
        r = s.rpc("<get-config><source><running/></source></get-config>")
        if has_route(r, "10.77.0.0/24") != (k == 0):
            fail("%s: the route is %sin its datastore" %
                 (addr[k], "not " if k == 0 else ""))
    ok("the edit is in %s's datastore alone" % addr[0])
    for k, s in enumerate(sess):
        expect_ok(s.rpc('<create-subscription xmlns="%s"/>' % NOTIF),
                  "%s create-subscription" % addr[k])
        while not s.notifs:
            root = ET.fromstring(s.read_msg())
            if root.tag == "{%s}notification" % NOTIF:
                s.notifs.append(root)
        origin = s.notifs[0].find(".//{%s}origin" % ROUTES)
        want = "sbsim device %d" % k
        if origin is None or origin.text != want:
            fail("%s: notification origin %r, expected %r" %
                 (addr[k], None if origin is None else origin.text, want))
    ok("each device's notification names it")


if __name__ == "__main__":
    main()
