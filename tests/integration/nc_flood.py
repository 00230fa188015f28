#!/usr/bin/python3
"""NETCONF clients that flood `sbsim netconf` (issue 24).

usage:
  nc_flood.py noread PID PORT tcp|ssh MEGABYTES SECONDS
      one session sends <get>s (up to MEGABYTES of them, for at most
      SECONDS) and never reads a reply; meanwhile the device's RSS
      (/proc/PID/status VmRSS) is sampled.  Then, the flooder still
      connected, a second session must be answered.  Prints
      "sent N grew KB" and exits 1 when the second session is not served.
  nc_flood.py later PORT tcp|ssh N
      N <get>s sent while nothing is read for 2 s, then every reply read:
      exits 1 when the last one's never comes.
  nc_flood.py attrs PORT N
      one <rpc> whose element carries N attributes over TCP; prints
      "took SECONDS ok" or "took SECONDS error MESSAGE", exits 1 when no
      answer came within 10 s.
SSH uses paramiko with admin/admin."""

import socket
import sys
import threading
import time

HELLO = (b'<?xml version="1.0" encoding="UTF-8"?>'
         b'<hello xmlns="urn:ietf:params:xml:ns:netconf:base:1.0">'
         b'<capabilities><capability>urn:ietf:params:netconf:base:1.0'
         b'</capability></capabilities></hello>]]>]]>')
GET = (b'<rpc message-id="%d" '
       b'xmlns="urn:ietf:params:xml:ns:netconf:base:1.0"><get/></rpc>'
       b']]>]]>')


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Tcp:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=10)

    def send(self, data):
        self.s.sendall(data)

    def timeout(self, t):
        self.s.settimeout(t)

    def read_until(self, marker, limit):
        self.s.settimeout(limit)
        data = b""
        while marker not in data:
            chunk = self.s.recv(65536)
            if not chunk:
                break
            data += chunk
        return data

    def close(self):
        self.s.close()


class Ssh:
    def __init__(self, port):
        import paramiko
        self.t = paramiko.Transport(("127.0.0.1", port))
        self.t.start_client(timeout=10)
        self.t.auth_password("admin", "admin")
        self.c = self.t.open_session()
        self.c.invoke_subsystem("netconf")
        self.c.settimeout(10)

    def send(self, data):
        self.c.sendall(data)

    def timeout(self, t):
        self.c.settimeout(t)

    def read_until(self, marker, limit):
        self.c.settimeout(limit)
        data = b""
        while marker not in data:
            chunk = self.c.recv(65536)
            if not chunk:
                break
            data += chunk
        return data

    def close(self):
        self.t.close()


def session(port, tr):
    c = (Tcp if tr == "tcp" else Ssh)(port)
    hello = c.read_until(b"]]>]]>", 10)
    if b"<hello" not in hello:
        print("FAIL: no hello from the device")
        sys.exit(1)
    c.send(HELLO)
    return c


def flood(c, budget, seconds, state):
    """Send <get>s until budget bytes, the time, or the sends block."""
    start = time.monotonic()
    n = 0
    c.timeout(2)    # a send blocked that long: the device stopped reading
    try:
        while state["sent"] < budget and \
                time.monotonic() - start < seconds:
            msg = b"".join(GET % (n + i) for i in range(64))
            c.send(msg)
            n += 64
            state["sent"] += len(msg)
    except Exception as e:  # the send timed out: the device stopped reading
        state["blocked"] = type(e).__name__
    state["done"] = True


def noread(pid, port, tr, mb, seconds):
    c = session(port, tr)
    base = rss_kb(pid)
    state = {"sent": 0, "done": False, "blocked": None}
    th = threading.Thread(target=flood, args=(c, mb << 20, seconds, state),
                          daemon=True)
    th.start()
    peak = base
    start = time.monotonic()
    while not state["done"] and time.monotonic() - start < seconds + 15:
        peak = max(peak, rss_kb(pid))
        time.sleep(0.05)
    # The device works through what it read: sample a while longer.
    for _ in range(20):
        peak = max(peak, rss_kb(pid))
        time.sleep(0.05)
    print("sent %d grew %d blocked %s" % (state["sent"], peak - base,
                                          state["blocked"]))
    other = session(port, tr)
    other.send(GET % 1)
    reply = other.read_until(b"]]>]]>", 20)
    if b"<rpc-reply" not in reply:
        print("FAIL: a second session was not answered")
        sys.exit(1)
    other.close()
    c.close()


def later(port, tr, n):
    """n <get>s sent while nothing is read for 2 s, then every reply
    read: the paused session read on, in order, to the last one."""
    c = session(port, tr)
    c.timeout(30)
    th = threading.Thread(target=lambda: c.send(b"".join(
        GET % i for i in range(n))), daemon=True)
    th.start()
    time.sleep(2)
    data = b""
    marker = b'message-id="%d"' % (n - 1)
    deadline = time.monotonic() + 40
    while marker not in data and time.monotonic() < deadline:
        data += c.read_until(b"]]>]]>", 30)
        data = data[-200000:] if marker not in data else data
    th.join(5)
    if marker not in data:
        print("FAIL: the reply to the last of %d <get>s never came" % n)
        sys.exit(1)
    print("all %d replies came" % n)
    c.close()


def attrs(port, n):
    c = session(port, "tcp")
    att = b" ".join(b'a%d="x"' % i for i in range(n))
    start = time.monotonic()
    c.send(b'<rpc message-id="1" '
           b'xmlns="urn:ietf:params:xml:ns:netconf:base:1.0">'
           b'<get ' + att + b'/></rpc>]]>]]>')
    try:
        reply = c.read_until(b"]]>]]>", 10)
    except socket.timeout:
        print("FAIL: no answer within 10 s")
        sys.exit(1)
    took = time.monotonic() - start
    if b"<rpc-error" not in reply:
        print("took %.2f ok" % took)
    else:
        msg = reply.split(b"<error-message")[1].split(b">", 1)[1]
        print("took %.2f error %s" % (took, msg.split(b"<")[0].decode()))
    c.close()


def main():
    a = sys.argv
    if len(a) == 7 and a[1] == "noread":
        noread(int(a[2]), int(a[3]), a[4], int(a[5]), float(a[6]))
    elif len(a) == 5 and a[1] == "later":
        later(int(a[2]), a[3], int(a[4]))
    elif len(a) == 4 and a[1] == "attrs":
        attrs(int(a[2]), int(a[3]))
    else:
        print(__doc__)
        sys.exit(2)


main()
