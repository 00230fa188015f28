#!/usr/bin/python3
"""A hostile bundle peer (ovs_bundle.sh): opens ONF bundles (OpenFlow 1.3,
experimenter 0x4F4E4600, BUNDLE_CONTROL 2300) until the switch refuses one
with OUT_OF_BUNDLES, never closes them, and waits for each to be discarded
with BUNDLE_FAILED/TIMEOUT (ONF error 2314) quoting its OPEN_REQUEST.

usage: of_bundle_hostile.py PORT BUNDLES_MAX
"""
import socket
import struct
import sys
import time

ONF, CONTROL = 0x4F4E4600, 2300
OPEN_REQUEST, OPEN_REPLY = 0, 1
OUT_OF_BUNDLES, TIMEOUT = 5, 14


def main():
    port, nmax = int(sys.argv[1]), int(sys.argv[2])
    s = socket.create_connection(("127.0.0.1", port), timeout=30)

    def send(mtype, body=b"", xid=1):
        s.sendall(struct.pack("!BBHI", 4, mtype, 8 + len(body), xid) + body)

    def exactly(n):
        b = b""
        while len(b) < n:
            chunk = s.recv(n - len(b))
            if not chunk:
                sys.exit("the switch closed the connection")
            b += chunk
        return b

    def recv():
        _, mtype, length, xid = struct.unpack("!BBHI", exactly(8))
        return mtype, xid, exactly(length - 8)

    def bundle_error(body):
        """ONF bundle error code of an ERROR body, or None."""
        etype, code, exp = struct.unpack("!HHI", body[:8])
        return code - CONTROL if etype == 0xffff and exp == ONF else None

    send(0)                                     # HELLO
    send(5, xid=2)                              # FEATURES_REQUEST
    while recv()[0] != 6:
        pass
    for i in range(nmax + 1):
        send(4, struct.pack("!IIIHH", ONF, CONTROL, i, OPEN_REQUEST, 3),
             100 + i)
    opened, refused, timed_out = set(), False, set()
    deadline = time.monotonic() + 30
    while len(timed_out) < nmax and time.monotonic() < deadline:
        mtype, xid, body = recv()
        if mtype == 4 and struct.unpack("!IIIH", body[:14])[3] == OPEN_REPLY:
            opened.add(xid)
        elif mtype == 1 and bundle_error(body) == OUT_OF_BUNDLES:
            refused = xid == 100 + nmax
        elif mtype == 1 and bundle_error(body) == TIMEOUT:
            # It quotes the OPEN_REQUEST of the bundle it discarded.
            if struct.unpack("!I", body[8 + 4:8 + 8])[0] == xid:
                timed_out.add(xid)
    want = set(range(100, 100 + nmax))
    if opened != want:
        sys.exit("opened %s, want %s" % (sorted(opened), sorted(want)))
    if not refused:
        sys.exit("bundle %d was not refused with OUT_OF_BUNDLES" % nmax)
    if timed_out != want:
        sys.exit("timed out %s, want %s" % (sorted(timed_out), sorted(want)))
    print("%d bundles opened, one more refused, all timed out" % nmax)


if __name__ == "__main__":
    main()
