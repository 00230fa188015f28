#!/usr/bin/python3
"""A small NETCONF client over plain TCP (RFC 6241, RFC 6242 framing) that
puts a `sbsim netconf --transport tcp` device through its paces: hello,
get-schema, get-config, edit-config good and bad, lock/unlock,
kill-session, create-subscription with notifications, malformed XML,
missing message-id, unknown rpc, rpc before hello and bad chunk framing.

usage: nc_client.py PORT [NOTIFICATIONS PREFIXES]
       nc_client.py mount PORT NOTIFICATIONS PREFIXES
Prints one line per check; exits 1 at the first failure."""

import re
import socket
import sys
import time
import xml.etree.ElementTree as ET

BASE = "urn:ietf:params:xml:ns:netconf:base:1.0"
NOTIF = "urn:ietf:params:xml:ns:netconf:notification:1.0"
MON = "urn:ietf:params:xml:ns:yang:ietf-netconf-monitoring"
ROUTES = "urn:sbsim:routes"
HELLO11 = ('<?xml version="1.0" encoding="UTF-8"?><hello xmlns="%s">'
           '<capabilities><capability>urn:ietf:params:netconf:base:1.0'
           '</capability><capability>urn:ietf:params:netconf:base:1.1'
           '</capability></capabilities></hello>' % BASE)
HELLO10 = HELLO11.replace('<capability>urn:ietf:params:netconf:base:1.1'
                          '</capability>', '')


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def ok(msg):
    print("ok: " + msg)


class Session:
    def __init__(self, port, hello=HELLO11, host="127.0.0.1"):
        self.s = socket.create_connection((host, port), timeout=10)
        self.buf = b""
        self.chunked = False
        self.mid = 0
        self.notifs = []
        self.server_hello = self.read_msg()
        root = ET.fromstring(self.server_hello)
        self.sid = int(root.find("{%s}session-id" % BASE).text)
        self.caps = [c.text.strip() for c in root.iter("{%s}capability" % BASE)]
        self.send_raw(hello.encode() + b"]]>]]>")
        self.chunked = ("urn:ietf:params:netconf:base:1.1" in self.caps and
                        "base:1.1" in hello)

    def send_raw(self, data):
        self.s.sendall(data)

    def send_msg(self, text):
        data = text.encode()
        if self.chunked:
            self.send_raw(b"\n#%d\n" % len(data) + data + b"\n##\n")
        else:
            self.send_raw(data + b"]]>]]>")

    def fill(self):
        d = self.s.recv(65536)
        if not d:
            raise EOFError("connection closed")
        self.buf += d

    def read_msg(self):
        if not self.chunked:
            while b"]]>]]>" not in self.buf:
                self.fill()
            msg, self.buf = self.buf.split(b"]]>]]>", 1)
            return msg
        msg = b""
        while True:
            while not re.match(rb"\n#(\d+|#)\n", self.buf):
                if len(self.buf) > 20 and not self.buf.startswith(b"\n#"):
                    fail("bad chunk header from device: %r" % self.buf[:20])
                self.fill()
            m = re.match(rb"\n#(\d+|#)\n", self.buf)
            self.buf = self.buf[m.end():]
            if m.group(1) == b"#":
                return msg
            n = int(m.group(1))
            while len(self.buf) < n:
                self.fill()
            msg += self.buf[:n]
            self.buf = self.buf[n:]

    def rpc(self, op, attrs=None):
        """Send an rpc, return the parsed rpc-reply (notifications that
        arrive first are kept)."""
        self.mid += 1
        a = ' message-id="%d"' % self.mid if attrs is None else attrs
        self.send_msg('<rpc xmlns="%s"%s>%s</rpc>' % (BASE, a, op))
        return self.reply()

    def reply(self):
        while True:
            root = ET.fromstring(self.read_msg())
            if root.tag == "{%s}notification" % NOTIF:
                self.notifs.append(root)
                continue
            if root.tag != "{%s}rpc-reply" % BASE:
                fail("expected rpc-reply, got %s" % root.tag)
            return root

    def closed(self, wait=5.0):
        """True when the device closed the connection."""
        self.s.settimeout(wait)
        try:
            while True:
                if not self.s.recv(65536):
                    return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except socket.timeout:
            return False


def error_tag(reply):
    e = reply.find("{%s}rpc-error" % BASE)
    if e is None:
        return None
    return e.find("{%s}error-tag" % BASE).text


def expect_ok(reply, what):
    if reply.find("{%s}ok" % BASE) is None:
        fail("%s: no <ok/>: %s" % (what, ET.tostring(reply).decode()))
    ok(what)


def expect_error(reply, tag, what):
    t = error_tag(reply)
    if t != tag:
        fail("%s: error-tag %s, expected %s: %s" %
             (what, t, tag, ET.tostring(reply).decode()))
    ok("%s -> %s" % (what, tag))


ROUTE = ('<routes xmlns="%s"><route><prefix>%%s</prefix>'
         '<next-hop>%%s</next-hop></route></routes>' % ROUTES)


def edit(prefix, nh, extra=""):
    return ('<edit-config>%s<target><running/></target><config>%s</config>'
            '</edit-config>' % (extra, ROUTE % (prefix, nh)))


def mount(port, nnotif, nprefix):
    """What a controller does with a device: hello, get-schema, get,
    create-subscription, then take the notifications."""
    s = Session(port)
    s.rpc('<get-schema xmlns="%s"><identifier>sbsim-device</identifier>'
          '</get-schema>' % MON)
    if s.rpc("<get/>").find("{%s}data" % BASE) is None:
        fail("get on port %d" % port)
    if nnotif:
        expect_ok(s.rpc('<create-subscription xmlns="%s"/>' % NOTIF),
                  "port %d create-subscription" % port)
        while len(s.notifs) < nnotif:
            root = ET.fromstring(s.read_msg())
            if root.tag == "{%s}notification" % NOTIF:
                s.notifs.append(root)
    # The run ends once every phase is done, which the last notification
    # may be: the device may be gone before close-session is answered.
    try:
        reply = s.rpc("<close-session/>")
    except (EOFError, ConnectionError):
        print("ok: port %d mounted, %d notifications; the run ended before "
              "close-session" % (port, len(s.notifs)))
        return
    expect_ok(reply, "port %d mounted, %d notifications"
              % (port, len(s.notifs)))


def main():
    if sys.argv[1] == "mount":
        mount(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
        return
    port = int(sys.argv[1])
    nnotif = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    nprefix = int(sys.argv[3]) if len(sys.argv) > 3 else 0

    s = Session(port)
    for cap in ("urn:ietf:params:netconf:base:1.1",
                "urn:ietf:params:netconf:capability:notification:1.0"):
        if cap not in s.caps:
            fail("capability %s missing" % cap)
    if not any("module=sbsim-routes" in c for c in s.caps):
        fail("sbsim-routes not advertised: %s" % s.caps)
    if any("exi" in c for c in s.caps):
        fail("EXI advertised")
    ok("hello: session-id %d, %d capabilities, chunked" % (s.sid, len(s.caps)))

    r = s.rpc('<get-schema xmlns="%s"><identifier>sbsim-routes</identifier>'
              '<format>yang</format></get-schema>' % MON)
    d = r.find("{%s}data" % MON)
    if d is None or "module sbsim-routes" not in d.text:
        fail("get-schema: %s" % ET.tostring(r).decode()[:300])
    ok("get-schema sbsim-routes (%d bytes)" % len(d.text))
    expect_error(s.rpc('<get-schema xmlns="%s"><identifier>nosuch'
                       '</identifier></get-schema>' % MON),
                 "invalid-value", "get-schema of an unknown module")

    r = s.rpc("<get-config><source><running/></source></get-config>")
    if r.find("{%s}data" % BASE) is None:
        fail("get-config: no data")
    ok("get-config running (empty)")

    expect_ok(s.rpc(edit("10.1.0.0/24", "192.0.2.1")), "edit-config create")
    expect_ok(s.rpc(edit("10.1.1.0/24", "192.0.2.2")), "edit-config second")
    r = s.rpc('<get-config><source><running/></source><filter type="subtree">'
              '<routes xmlns="%s"/></filter></get-config>' % ROUTES)
    got = [p.text for p in r.iter("{%s}prefix" % ROUTES)]
    if sorted(got) != ["10.1.0.0/24", "10.1.1.0/24"]:
        fail("get-config after edit: %s" % got)
    ok("get-config subtree filter: %s" % got)
    r = s.rpc('<get><filter type="xpath" xmlns:r="%s" '
              'select="/r:routes/r:route[r:prefix=\'10.1.1.0/24\']"/></get>'
              % ROUTES)
    got = [p.text for p in r.iter("{%s}prefix" % ROUTES)]
    if got != ["10.1.1.0/24"]:
        fail("get xpath filter: %s" % got)
    ok("get xpath filter: %s" % got)

    expect_error(s.rpc(edit("10.1.2.0/24", "not-an-address")),
                 "invalid-value", "edit-config bad next-hop")
    expect_error(s.rpc(edit("10.1.0.0/24", "192.0.2.1").replace(
        "<route>", '<route xmlns:nc="%s" nc:operation="create">' % BASE)),
        "data-exists", "edit-config create of an existing route")
    expect_error(s.rpc('<edit-config><target><running/></target><config>'
                       '<nosuch xmlns="urn:nosuch"/></config></edit-config>'),
                 "unknown-namespace", "edit-config unknown namespace")

    expect_ok(s.rpc("<lock><target><running/></target></lock>"), "lock")
    s2 = Session(port)
    expect_error(s2.rpc("<lock><target><running/></target></lock>"),
                 "lock-denied", "lock held by another session")
    expect_error(s2.rpc(edit("10.1.3.0/24", "192.0.2.3")),
                 "in-use", "edit-config while another session locks")
    expect_ok(s.rpc("<unlock><target><running/></target></unlock>"),
              "unlock")
    expect_ok(s.rpc("<kill-session><session-id>%d</session-id>"
                    "</kill-session>" % s2.sid), "kill-session of another")
    if not s2.closed():
        fail("killed session still open")
    ok("killed session closed")
    expect_error(s.rpc("<kill-session><session-id>%d</session-id>"
                       "</kill-session>" % s.sid),
                 "invalid-value", "kill-session of itself")

    expect_error(s.rpc('<frobnicate xmlns="urn:example"/>'),
                 "operation-not-supported", "unknown rpc")
    expect_error(s.rpc("<get/>", attrs=""), "missing-attribute",
                 "rpc without message-id")
    s.send_msg('<rpc xmlns="%s" message-id="99"><get></rpc>' % BASE)
    expect_error(s.reply(), "malformed-message", "malformed XML")
    r = s.rpc("<get-config><source><running/></source></get-config>",
              attrs=' message-id="abc" xmlns:x="urn:x" x:tag="t"')
    if r.get("message-id") != "abc" or r.get("{urn:x}tag") != "t":
        fail("rpc attributes not echoed: %s" % r.attrib)
    ok("rpc-reply echoes the rpc's attributes")

    if nnotif:
        expect_error(s.rpc('<create-subscription xmlns="%s"><stream>NOSUCH'
                           '</stream></create-subscription>' % NOTIF),
                     "invalid-value", "create-subscription unknown stream")
        expect_ok(s.rpc('<create-subscription xmlns="%s"/>' % NOTIF),
                  "create-subscription")
        deadline = time.time() + 20
        while len(s.notifs) < nnotif and time.time() < deadline:
            root = ET.fromstring(s.read_msg())
            if root.tag == "{%s}notification" % NOTIF:
                s.notifs.append(root)
        prefixes = set()
        for n in s.notifs:
            if n.find("{%s}eventTime" % NOTIF) is None:
                fail("notification without eventTime")
            for p in n.iter("{%s}prefix" % ROUTES):
                if p.text and p.text.strip():
                    prefixes.add(p.text.strip())
        if len(s.notifs) != nnotif or len(prefixes) != nnotif * nprefix:
            fail("notifications: %d (%d prefixes), expected %d (%d)" %
                 (len(s.notifs), len(prefixes), nnotif, nnotif * nprefix))
        ok("%d notifications, %d distinct prefixes" %
           (len(s.notifs), len(prefixes)))

    expect_ok(s.rpc("<close-session/>"), "close-session")
    if not s.closed():
        fail("session open after close-session")
    ok("closed after close-session")

    # base:1.0 peer: end-of-message framing throughout.
    s3 = Session(port, HELLO10)
    expect_ok(s3.rpc(edit("10.1.4.0/24", "192.0.2.4")),
              "base:1.0 session edit-config")
    s3.send_msg('<rpc xmlns="%s" message-id="7"><get></rpc>' % BASE)
    expect_error(s3.reply(), "operation-failed",
                 "malformed XML from a base:1.0 peer")
    s3.s.close()

    # Bad chunk framing ends the session (RFC 6242 section 4.2).
    s4 = Session(port)
    s4.send_raw(b"\n#abc\n<rpc/>\n##\n")
    if not s4.closed():
        fail("session open after bad chunk framing")
    ok("bad chunk framing -> session closed")

    # An rpc instead of a hello ends it too (RFC 6241 section 8.1).
    c = socket.create_connection(("127.0.0.1", port), timeout=10)
    c.settimeout(5)
    data = b""
    while b"]]>]]>" not in data:
        data += c.recv(65536)
    c.sendall(b'<rpc xmlns="%s" message-id="1"><get/></rpc>]]>]]>' %
              BASE.encode())
    try:
        while c.recv(65536):
            pass
    except socket.timeout:
        fail("session open after an rpc before hello")
    ok("rpc before hello -> session closed")
    print("all checks passed")


if __name__ == "__main__":
    main()
