"""One OpenFlow controller connection for the tests' own peers
(of14_async.py, of15_cont_status.py): send with rising xids, read whole
messages (answering ECHO_REQUEST), wait for a type, BARRIER; fail() prints
"FAIL: ..." and exits 1.  Every wait ends at the caller's deadline."""
import socket
import struct
import sys
import time

HDR = struct.Struct("!BBHI")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


class Conn:
    def __init__(self, sock, version, deadline):
        self.s, self.buf, self.xid = sock, b"", 100
        self.v, self.deadline = version, deadline
        self.s.settimeout(0.2)

    def send(self, t, body=b"", xid=None):
        self.xid += 1
        x = self.xid if xid is None else xid
        self.s.sendall(HDR.pack(self.v, t, 8 + len(body), x) + body)
        return x

    def recv(self):
        """(type, xid, body) of the next message."""
        while time.time() < self.deadline:
            if len(self.buf) >= 8:
                _, t, ln, x = HDR.unpack_from(self.buf)
                if len(self.buf) >= ln:
                    m, self.buf = self.buf[:ln], self.buf[ln:]
                    if t == 2:          # ECHO_REQUEST
                        self.send(3, m[8:], x)
                        continue
                    return t, x, m[8:]
            try:
                d = self.s.recv(65536)
            except socket.timeout:
                continue
            if not d:
                fail("connection closed")
            self.buf += d
        fail("timed out")

    def until(self, t, xid=None):
        """Messages up to the first of type t (and xid), that one last."""
        got = []
        while True:
            m = self.recv()
            got.append(m)
            if m[0] == t and (xid is None or m[1] == xid):
                return got

    def barrier(self):
        return self.until(21, self.send(20))[:-1]
