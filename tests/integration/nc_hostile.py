#!/usr/bin/python3
"""Hostile NETCONF clients against `sbsim netconf` (issue 14).

usage:
  nc_hostile.py lockout PORT N DEADLINE ssh|tcp USER PASSWORD
      N idle connections from 127.0.0.1 (they never send a byte), each
      replaced as soon as the device closes it, for 2 * DEADLINE s: a
      real client from 127.0.0.2 (ncclient over SSH; over TCP a client
      that must get the device's hello and a reply) gets in all along.
      Then N idle connections, not refilled, close at the hello deadline.
  nc_hostile.py guess PORT USER SECONDS [PARALLEL]
      wrong passwords, one after another over SSH (paramiko), for
      SECONDS, reconnecting whenever the device closes the connection,
      on PARALLEL sessions at once (default 1); prints "attempts N rate R"
      (their sum: each refused attempt, checked or not).
Prints one line per check; exits 1 at the first failure."""

import select
import socket
import sys
import threading
import time

import paramiko
from ncclient import manager


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def ok(msg):
    print("ok: " + msg)


def ssh_login(port, user, password, src="127.0.0.2"):
    """True when ncclient gets a NETCONF session (hello exchanged)."""
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=10,
                                        source_address=(src, 0))
        m = manager.connect(host="127.0.0.1", port=port, username=user,
                            password=password, hostkey_verify=False,
                            look_for_keys=False, allow_agent=False,
                            timeout=10, sock=sock)
    except Exception as e:  # refused, reset, closed: all "not in"
        print("login: %s" % type(e).__name__)
        return False
    sid = m.session_id
    m.close_session()
    return sid is not None


def tcp_login(port, src="127.0.0.2"):
    """True when a TCP client receives the device's hello and its
    answer to a <get> once it sent its own hello."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10,
                                 source_address=(src, 0))
    s.settimeout(5)
    data = b""
    try:
        while b"]]>]]>" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        if b"<hello" in data:
            s.sendall(HELLO + GET)
            while b"<rpc-reply" not in data:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
    except (socket.timeout, OSError):
        pass
    s.close()
    return b"<rpc-reply" in data


HELLO = (b'<hello xmlns="urn:ietf:params:xml:ns:netconf:base:1.0">'
         b'<capabilities><capability>urn:ietf:params:netconf:base:1.0'
         b'</capability></capabilities></hello>]]>]]>')
GET = (b'<rpc message-id="1" xmlns="urn:ietf:params:xml:ns:netconf:'
       b'base:1.0"><get/></rpc>]]>]]>')


class Refiller:
    """n idle connections from 127.0.0.1 (they never send a byte), each
    replaced as soon as the device closes it."""

    def __init__(self, port, n):
        self.port, self.n, self.stop = port, n, False
        self.opened = 0
        self.socks = [self.connect() for _ in range(n)]
        self.th = threading.Thread(target=self.run, daemon=True)
        self.th.start()

    def connect(self):
        self.opened += 1
        s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        s.setblocking(False)
        return s

    def run(self):
        while not self.stop:
            r, _, _ = select.select(self.socks, [], [], 0.05)
            for s in r:
                try:
                    if s.recv(65536):   # TCP: the device's hello
                        continue
                except OSError:
                    pass
                s.close()
                self.socks[self.socks.index(s)] = self.connect()

    def close(self):
        self.stop = True
        self.th.join()
        for s in self.socks:
            s.close()


def lockout(port, n, deadline, transport, user, password):
    """n idle connections refilled for deadline * 2 seconds: a client
    from another address gets in all along (it was locked out)."""
    login = (lambda: ssh_login(port, user, password)) \
        if transport == "ssh" else (lambda: tcp_login(port))
    idle = Refiller(port, n)
    time.sleep(0.3)
    start = time.monotonic()
    logins = 0
    while time.monotonic() - start < deadline * 2:
        if not login():
            idle.close()
            fail("a client was locked out by %d refilled idle connections"
                 % n)
        logins += 1
        time.sleep(0.2)
    idle.close()
    ok("%d logins while %d idle connections were refilled (%d opened)"
       % (logins, n, idle.opened))
    # Not refilled, idle connections last until the hello deadline.
    idle = [socket.create_connection(("127.0.0.1", port))
            for _ in range(n)]
    took = wait_closed(idle, deadline + 5)
    if took is None:
        fail("idle connections still open %.1f s after the deadline" % 5)
    if took < deadline - 1:
        fail("idle connections closed after %.2f s, before the deadline"
             % took)
    ok("the device closed the idle connections after %.2f s" % took)
    for s in idle:
        s.close()


def wait_closed(socks, limit):
    """Seconds until the device closed every socket, or None."""
    start = time.monotonic()
    for s in socks:
        s.settimeout(max(0.1, limit - (time.monotonic() - start)))
        try:
            while s.recv(65536):   # TCP: the device's hello comes first
                pass
        except (socket.timeout, ConnectionResetError):
            if time.monotonic() - start >= limit:
                return None
    return time.monotonic() - start


def guess_one(port, user, seconds, counts, i):
    attempts = 0
    start = time.monotonic()
    t = None
    while time.monotonic() - start < seconds:
        try:
            if t is None or not t.is_active():
                t = paramiko.Transport(("127.0.0.1", port))
                t.start_client(timeout=5)
            t.auth_password(user, "wrong-%d-%d" % (i, attempts))
            fail("a wrong password was accepted")
        except paramiko.AuthenticationException:
            attempts += 1
        except (paramiko.SSHException, EOFError, OSError):
            t.close()
            t = None
    if t is not None:
        t.close()
    counts[i] = attempts


def guess(port, user, seconds, parallel=1):
    """parallel sessions guessing at once; prints their sum."""
    counts = [0] * parallel
    start = time.monotonic()
    threads = [threading.Thread(target=guess_one,
                                args=(port, user, seconds, counts, i))
               for i in range(parallel)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    took = time.monotonic() - start
    print("attempts %d rate %.1f" % (sum(counts), sum(counts) / took))


def main():
    if len(sys.argv) == 9 - 1 and sys.argv[1] == "lockout":
        lockout(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]),
                sys.argv[5], sys.argv[6], sys.argv[7])
    elif len(sys.argv) in (5, 6) and sys.argv[1] == "guess":
        guess(int(sys.argv[2]), sys.argv[3], float(sys.argv[4]),
              int(sys.argv[5]) if len(sys.argv) == 6 else 1)
    else:
        print(__doc__)
        sys.exit(2)


main()
