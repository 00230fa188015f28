#!/usr/bin/python3
"""Malformed BGP messages, for tests/interop/bgp_malformed.sh (plain
sockets, no BGP library).

  bgp_malformed.py speaker PORT
      Against a BGP speaker listening on 127.0.0.1:PORT (the embedded
      controller): malformed OPENs, then malformed messages on established
      sessions; each must get the NOTIFICATION of RFC 4271 section 6 /
      RFC 7606 (code/subcode, and the data where the RFC says what it
      is); an UPDATE with a bad ORIGIN is treated as withdraw (RFC 7606
      section 7.1): the session stays, KEEPALIVEs still flow.
  bgp_malformed.py controller PORT
      Plays the controller for one sbsim bgp peer that connects to
      127.0.0.1:PORT: answers its successive connections with a malformed
      OPEN or malformed messages after Established, checks the
      NOTIFICATION sbsim sends back and that it connects again.  Prints
      "cases N" (the NOTIFICATIONs expected) at the end.
Exit status 0 when every case passed; failures are listed on stderr."""
import socket
import struct
import sys
import time

MARKER = b"\xff" * 16
OPEN, UPDATE, NOTIFICATION, KEEPALIVE, REFRESH = 1, 2, 3, 4, 5
TIMEOUT = 5.0
failures = []


def msg(mtype, body=b"", marker=MARKER, length=None):
    if length is None:
        length = 19 + len(body)
    return marker + struct.pack("!HB", length, mtype) + body


def cap(code, value):
    return struct.pack("!BB", code, len(value)) + value


def open_msg(version=4, asn=65010, hold=90, bgpid="192.0.2.77", params=None):
    if params is None:
        caps = (cap(1, struct.pack("!HBB", 1, 0, 1)) +    # MP IPv4 unicast
                cap(65, struct.pack("!I", asn)))          # 4-octet AS
        params = struct.pack("!BB", 2, len(caps)) + caps
    my_as = asn if asn < 65536 else 23456
    return msg(OPEN, struct.pack("!BHH4sB", version, my_as, hold,
                                 socket.inet_aton(bgpid), len(params)) + params)


def attr(flags, code, value):
    if flags & 0x10:
        return struct.pack("!BBH", flags, code, len(value)) + value
    return struct.pack("!BBB", flags, code, len(value)) + value


def update(withdrawn=b"", attrs=b"", nlri=b"", wlen=None, alen=None):
    if wlen is None:
        wlen = len(withdrawn)
    if alen is None:
        alen = len(attrs)
    return msg(UPDATE, struct.pack("!H", wlen) + withdrawn +
               struct.pack("!H", alen) + attrs + nlri)


def base_attrs(asn=65010, origin=0, nh="192.0.2.1"):
    return (attr(0x40, 1, bytes([origin])) +
            attr(0x40, 2, struct.pack("!BBI", 2, 1, asn)) +
            attr(0x40, 3, socket.inet_aton(nh)))


NLRI_10 = bytes([24, 10, 99, 0])


class Conn:
    def __init__(self, sock):
        self.s = sock
        self.buf = b""
        self.closed = False

    def send(self, data):
        self.s.sendall(data)

    def recv(self, timeout=TIMEOUT):
        """The next message (type, body), or None at close/timeout."""
        deadline = time.time() + timeout
        while True:
            if len(self.buf) >= 19:
                ln, t = struct.unpack_from("!HB", self.buf, 16)
                if ln < 19:
                    raise RuntimeError("peer sent a message of length %d" % ln)
                if len(self.buf) >= ln:
                    m = (t, self.buf[19:ln])
                    self.buf = self.buf[ln:]
                    return m
            left = deadline - time.time()
            if left <= 0 or self.closed:
                return None
            self.s.settimeout(left)
            try:
                d = self.s.recv(65536)
            except socket.timeout:
                return None
            except OSError:
                d = b""
            if not d:
                self.closed = True
            self.buf += d

    def wait_for(self, mtype, timeout=TIMEOUT):
        """Read until a message of mtype; a NOTIFICATION ends the wait."""
        deadline = time.time() + timeout
        while True:
            m = self.recv(max(0.0, deadline - time.time()))
            if m is None or m[0] == mtype or m[0] == NOTIFICATION:
                return m

    def close(self):
        try:
            self.s.close()
        except OSError:
            pass


def check_notification(name, m, code, sub, data=None):
    if m is None:
        failures.append("%s: no NOTIFICATION (closed or timed out)" % name)
        return False
    if m[0] != NOTIFICATION:
        failures.append("%s: got message type %d, not a NOTIFICATION" % (name, m[0]))
        return False
    c, s = m[1][0], m[1][1]
    if (c, s) != (code, sub):
        failures.append("%s: NOTIFICATION %d/%d, want %d/%d" % (name, c, s, code, sub))
        return False
    if data is not None and m[1][2:] != data:
        failures.append("%s: NOTIFICATION data %s, want %s" %
                        (name, m[1][2:].hex(), data.hex()))
        return False
    print("ok %s: NOTIFICATION %d/%d" % (name, c, s))
    return True


# --- against a speaker ------------------------------------------------------

def speaker(port):
    n = [0]

    def connect():
        n[0] += 1
        s = socket.socket()
        s.bind(("127.2.0.%d" % n[0], 0))
        s.settimeout(TIMEOUT)
        s.connect(("127.0.0.1", port))
        return Conn(s)

    def established(hold=90):
        c = connect()
        c.send(open_msg(hold=hold))
        m = c.wait_for(OPEN)
        if m is None or m[0] != OPEN:
            raise RuntimeError("no OPEN from the speaker: %r" % (m,))
        c.send(msg(KEEPALIVE))
        m = c.wait_for(KEEPALIVE)
        if m is None or m[0] != KEEPALIVE:
            raise RuntimeError("no KEEPALIVE from the speaker: %r" % (m,))
        return c

    # OPENs (RFC 4271 section 6.2)
    opens = [
        ("OPEN version 3", open_msg(version=3), 2, 1, None),
        ("OPEN hold time 1", open_msg(hold=1), 2, 6, None),
        ("OPEN hold time 2", open_msg(hold=2), 2, 6, None),
        ("OPEN BGP identifier 0", open_msg(bgpid="0.0.0.0"), 2, 3, None),
        ("OPEN unknown optional parameter",
         open_msg(params=struct.pack("!BB", 99, 2) + b"ab"), 2, 4, None),
    ]
    for name, m, code, sub, data in opens:
        c = connect()
        c.send(m)
        check_notification(name, c.wait_for(NOTIFICATION), code, sub, data)
        c.close()

    # Established sessions (RFC 4271 sections 6.1 and 6.3, RFC 7606)
    unknown_wk = attr(0x40, 99, b"x")
    mp = attr(0x80, 14, struct.pack("!HBB4sB", 1, 1, 4,
                                    socket.inet_aton("192.0.2.1"), 0) + NLRI_10)
    cases = [
        ("UPDATE unknown well-known attribute",
         update(attrs=base_attrs() + unknown_wk, nlri=NLRI_10), 3, 2, unknown_wk),
        ("UPDATE withdrawn length past the message",
         update(withdrawn=NLRI_10, wlen=100), 3, 1, None),
        ("UPDATE attribute length past the message",
         update(attrs=base_attrs(), alen=200), 3, 1, None),
        ("UPDATE NLRI prefix length 33",
         update(attrs=base_attrs(), nlri=bytes([33, 10, 0, 0, 0, 0])), 3, 10, None),
        ("UPDATE MP_REACH_NLRI twice",
         update(attrs=base_attrs() + mp + mp), 3, 1, None),
        ("bad marker", msg(KEEPALIVE, marker=b"\0" * 16), 1, 1, None),
        ("length 18", msg(KEEPALIVE, length=18), 1, 2, struct.pack("!H", 18)),
        ("KEEPALIVE of length 20", msg(KEEPALIVE, b"\0"), 1, 2, struct.pack("!H", 20)),
        ("length 4097", msg(UPDATE, b"\0" * 4078), 1, 2, struct.pack("!H", 4097)),
        ("type 9", msg(9, b""), 1, 3, b"\x09"),
        ("OPEN when established", open_msg(), 5, 3, None),
    ]
    for name, m, code, sub, data in cases:
        c = established()
        c.send(m)
        check_notification(name, c.wait_for(NOTIFICATION), code, sub, data)
        c.close()

    # Treat-as-withdraw: a bad ORIGIN; hold time 3, so KEEPALIVEs flow
    # every second, and the session must stay.
    c = established(hold=3)
    c.send(update(attrs=base_attrs(origin=3), nlri=NLRI_10))
    got = []
    deadline = time.time() + 3.5
    while time.time() < deadline:
        m = c.recv(deadline - time.time())
        if m is None:
            break
        got.append(m[0])
        if m[0] == KEEPALIVE:
            c.send(msg(KEEPALIVE))
    if NOTIFICATION in got or c.closed or got.count(KEEPALIVE) < 2:
        failures.append("UPDATE bad ORIGIN: the session did not stay "
                        "(messages %r, closed %s)" % (got, c.closed))
    else:
        print("ok UPDATE bad ORIGIN: treated as withdraw, %d KEEPALIVEs "
              "after it" % got.count(KEEPALIVE))
        # and it still decodes: a bad type now gets its NOTIFICATION
        c.send(msg(9))
        check_notification("type 9 after the bad ORIGIN",
                           c.wait_for(NOTIFICATION), 1, 3, b"\x09")
    c.close()


# --- against sbsim's peers --------------------------------------------------

def controller(port):
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", port))
    ls.listen(4)
    ls.settimeout(15)
    print("listening", flush=True)

    def accept():
        s, _ = ls.accept()
        c = Conn(s)
        m = c.wait_for(OPEN)
        if m is None or m[0] != OPEN:
            raise RuntimeError("no OPEN from sbsim: %r" % (m,))
        return c

    def established(hold=90):
        c = accept()
        c.send(open_msg(asn=65000, hold=hold) + msg(KEEPALIVE))
        m = c.wait_for(KEEPALIVE)
        if m is None or m[0] != KEEPALIVE:
            raise RuntimeError("no KEEPALIVE from sbsim: %r" % (m,))
        return c

    notifications = 0
    opens = [
        ("OPEN version 3", open_msg(version=3, asn=65000), 2, 1),
        ("OPEN hold time 1", open_msg(asn=65000, hold=1), 2, 6),
        ("OPEN bad peer AS", open_msg(asn=65099), 2, 2),
        ("OPEN BGP identifier 0", open_msg(asn=65000, bgpid="0.0.0.0"), 2, 3),
    ]
    for name, m, code, sub in opens:
        c = accept()
        c.send(m)
        check_notification("sbsim " + name, c.wait_for(NOTIFICATION), code, sub)
        notifications += 1
        c.close()

    mp = attr(0x80, 14, struct.pack("!HBB4sB", 1, 1, 4,
                                    socket.inet_aton("192.0.2.1"), 0) + NLRI_10)
    unknown_wk = attr(0x40, 99, b"x")
    cases = [
        ("UPDATE MP_REACH_NLRI twice",
         update(attrs=base_attrs(65000) + mp + mp), 3, 1, None),
        ("UPDATE unknown well-known attribute",
         update(attrs=base_attrs(65000) + unknown_wk, nlri=NLRI_10), 3, 2, unknown_wk),
        ("UPDATE NLRI prefix length 33",
         update(attrs=base_attrs(65000), nlri=bytes([33, 10, 0, 0, 0, 0])), 3, 10, None),
        ("bad marker", msg(KEEPALIVE, marker=b"\0" * 16), 1, 1, None),
        ("length 18", msg(KEEPALIVE, length=18), 1, 2, struct.pack("!H", 18)),
        ("type 9", msg(9), 1, 3, b"\x09"),
    ]
    for name, m, code, sub, data in cases:
        c = established()
        c.send(m)
        check_notification("sbsim " + name, c.wait_for(NOTIFICATION), code, sub, data)
        notifications += 1
        c.close()

    # A bad ORIGIN: treat-as-withdraw, the session stays (hold 3: sbsim's
    # KEEPALIVEs every second).
    c = established(hold=3)
    c.send(update(attrs=base_attrs(65000, origin=3), nlri=NLRI_10))
    got = []
    deadline = time.time() + 3.5
    while time.time() < deadline:
        m = c.recv(deadline - time.time())
        if m is None:
            break
        got.append(m[0])
        if m[0] == KEEPALIVE:
            c.send(msg(KEEPALIVE))
    if NOTIFICATION in got or c.closed or got.count(KEEPALIVE) < 2:
        failures.append("sbsim UPDATE bad ORIGIN: the session did not stay "
                        "(messages %r, closed %s)" % (got, c.closed))
    else:
        print("ok sbsim UPDATE bad ORIGIN: treated as withdraw")
    c.close()
    ls.close()
    print("cases %d" % notifications)


def main():
    mode, port = sys.argv[1], int(sys.argv[2])
    try:
        if mode == "speaker":
            speaker(port)
        else:
            controller(port)
    except (OSError, RuntimeError) as e:
        failures.append("%s: %s" % (type(e).__name__, e))
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
