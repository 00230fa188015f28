#!/usr/bin/python3
"""Hostile NETCONF clients against `sbsim netconf` (issue 14).

usage:
  nc_hostile.py lockout PORT N DEADLINE ssh|tcp USER PASSWORD
      N idle connections (they never send a byte) take every session
      slot: a real client (ncclient over SSH; a TCP client that must
      receive the device's hello) is refused while they hold them, and
      gets in once the device closed them at its hello deadline.
  nc_hostile.py guess PORT USER SECONDS
      wrong passwords, one after another over SSH (paramiko), for
      SECONDS, reconnecting whenever the device closes the connection;
      prints "attempts N rate R".
Prints one line per check; exits 1 at the first failure."""

import socket
import sys
import time

import paramiko
from ncclient import manager


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def ok(msg):
    print("ok: " + msg)


def ssh_login(port, user, password):
    """True when ncclient gets a NETCONF session (hello exchanged)."""
    try:
        m = manager.connect(host="127.0.0.1", port=port, username=user,
                            password=password, hostkey_verify=False,
                            look_for_keys=False, allow_agent=False,
                            timeout=5)
    except Exception as e:  # refused, reset, closed: all "not in"
        print("login: %s" % type(e).__name__)
        return False
    sid = m.session_id
    m.close_session()
    return sid is not None


def tcp_login(port):
    """True when a TCP client receives the device's hello."""
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.settimeout(2)
    data = b""
    try:
        while b"]]>]]>" not in data:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except socket.timeout:
        pass
    s.close()
    return b"<hello" in data


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


def lockout(port, n, deadline, transport, user, password):
    login = (lambda: ssh_login(port, user, password)) \
        if transport == "ssh" else (lambda: tcp_login(port))
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(n)]
    time.sleep(0.3)
    if login():
        fail("a client got in while %d idle connections held the slots" % n)
    ok("locked out while %d idle connections hold the slots" % n)
    took = wait_closed(idle, deadline + 5)
    if took is None:
        fail("idle connections still open %.1f s after the deadline" % 5)
    if took < deadline - 1:
        fail("idle connections closed after %.2f s, before the deadline"
             % took)
    ok("the device closed the idle connections after %.2f s" % took)
    for s in idle:
        s.close()
    if not login():
        fail("a real client was still refused after the deadline")
    ok("a real client gets in after the deadline")


def guess(port, user, seconds):
    attempts = 0
    start = time.monotonic()
    t = None
    while time.monotonic() - start < seconds:
        if t is None or not t.is_active():
            t = paramiko.Transport(("127.0.0.1", port))
            t.start_client(timeout=5)
        try:
            t.auth_password(user, "wrong-%d" % attempts)
            fail("a wrong password was accepted")
        except paramiko.AuthenticationException:
            attempts += 1
        except (paramiko.SSHException, EOFError, OSError):
            t.close()
            t = None
    if t is not None:
        t.close()
    took = time.monotonic() - start
    print("attempts %d rate %.1f" % (attempts, attempts / took))


def main():
    if len(sys.argv) == 9 - 1 and sys.argv[1] == "lockout":
        lockout(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]),
                sys.argv[5], sys.argv[6], sys.argv[7])
    elif len(sys.argv) == 5 and sys.argv[1] == "guess":
        guess(int(sys.argv[2]), sys.argv[3], float(sys.argv[4]))
    else:
        print(__doc__)
        sys.exit(2)


main()
