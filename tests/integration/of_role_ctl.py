"""A minimal OpenFlow 1.3 controller for ovsdb_datapath.sh: listens on
127.0.0.1:PORT, takes one switch through HELLO and FEATURES_REQUEST, asks
to be its master (ROLE_REQUEST, OpenFlow 1.3.5 section 7.3.9) and keeps
the connection, answering echo requests, until killed or 30 s pass."""
import socket
import struct
import sys
import time

HDR = struct.Struct("!BBHI")
HELLO, ECHO_REQ, ECHO_REP, FEAT_REQ, FEAT_REP = 0, 2, 3, 5, 6
ROLE_REQ, ROLE_REP, ROLE_MASTER = 24, 25, 2


def msg(t, xid, body=b""):
    return HDR.pack(4, t, HDR.size + len(body), xid) + body


def main():
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", int(sys.argv[1])))
    srv.listen(1)
    srv.settimeout(30)
    c, _ = srv.accept()
    c.settimeout(1)
    c.sendall(msg(HELLO, 1))
    buf, end = b"", time.time() + 30
    while time.time() < end:
        try:
            data = c.recv(65536)
        except socket.timeout:
            continue
        if not data:
            break
        buf += data
        while len(buf) >= HDR.size:
            _, t, length, xid = HDR.unpack_from(buf)
            if len(buf) < length:
                break
            body, buf = buf[HDR.size:length], buf[length:]
            if t == HELLO:
                c.sendall(msg(FEAT_REQ, 2))
            elif t == FEAT_REP:
                c.sendall(msg(ROLE_REQ, 3,
                              struct.pack("!I4xQ", ROLE_MASTER, 1)))
            elif t == ROLE_REP:
                print("ROLE_REPLY role %d" % struct.unpack_from(
                    "!I", body)[0], flush=True)
            elif t == ECHO_REQ:
                c.sendall(msg(ECHO_REP, xid, body))


main()
