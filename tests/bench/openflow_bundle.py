#!/usr/bin/python3
"""Bundle commit cost on a passive sbsim switch, by hand (not make check).

usage: sbsim openflow --switches 1 --tables 4 --controller ptcp:PORT &
       tests/bench/openflow_bundle.py PORT [N]

Times, over one OpenFlow 1.3 connection: N plain FLOW_MODs and a barrier;
N ONF BUNDLE_ADD_MESSAGEs (each a FLOW_MOD) and a barrier; the commit of
those N (COMMIT_REQUEST to COMMIT_REPLY); a second bundle of N whose last
FLOW_MOD names a bad table, so the commit applies N-1 and rolls them back
(COMMIT_REQUEST to its BUNDLE_FAILED).  The first two include this
script's own message building.
"""
import socket
import struct
import sys
import time

ONF = 0x4F4E4600


def main():
    port = int(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(120)

    def hdr(mtype, length, xid):
        return struct.pack("!BBHI", 4, mtype, length, xid)

    def exactly(k):
        b = b""
        while len(b) < k:
            c = s.recv(k - len(b))
            if not c:
                sys.exit("connection closed")
            b += c
        return b

    def wait(mtype, xid):
        while True:
            _, t, length, x = struct.unpack("!BBHI", exactly(8))
            exactly(length - 8)
            if t == mtype and x == xid:
                return

    inst = struct.pack("!HHI", 4, 24, 0) + struct.pack("!HHIH6x", 0, 16, 1,
                                                        0xffff)

    def flow_mod(i, xid, table):
        oxm = (struct.pack("!IH", 0x80000a02, 0x0800) +
               struct.pack("!II", 0x80001804, 0x0a000000 + i))
        match = struct.pack("!HH", 1, 4 + len(oxm)) + oxm
        match += b"\0" * ((8 - len(match) % 8) % 8)
        body = struct.pack("!QQBBHHHIIIH2x", 0, 0, table, 0, 0, 0, 100,
                           0xffffffff, 0xffffffff, 0xffffffff, 0)
        body += match + inst
        return hdr(14, 8 + len(body), xid) + body

    def onf(exp_type, body, xid):
        return (hdr(4, 16 + len(body), xid) +
                struct.pack("!II", ONF, exp_type) + body)

    def ctrl(bid, btype, xid):
        return onf(2300, struct.pack("!IHH", bid, btype, 3), xid)

    def add(bid, inner, xid):
        return onf(2301, struct.pack("!IHH", bid, 0, 3) + inner, xid)

    s.sendall(hdr(0, 8, 1) + hdr(5, 8, 2))
    wait(6, 2)
    t0 = time.perf_counter()
    s.sendall(b"".join(flow_mod(i, 10, 0) for i in range(n)) +
              hdr(20, 8, 99))
    wait(21, 99)
    t1 = time.perf_counter()
    s.sendall(ctrl(1, 0, 100))
    wait(4, 100)
    t2 = time.perf_counter()
    s.sendall(b"".join(add(1, flow_mod(i, 1000 + i, 1), 1000 + i)
                       for i in range(n)) + hdr(20, 8, 101))
    wait(21, 101)
    t3 = time.perf_counter()
    s.sendall(ctrl(1, 4, 102))
    wait(4, 102)
    t4 = time.perf_counter()
    s.sendall(ctrl(2, 0, 103))
    wait(4, 103)
    base = 5000000
    s.sendall(b"".join(add(2, flow_mod(i, base + i, 2 if i < n - 1 else 99),
                           base + i) for i in range(n)) + hdr(20, 8, 104))
    wait(21, 104)
    t5 = time.perf_counter()
    s.sendall(ctrl(2, 4, 105))
    wait(1, 105)
    t6 = time.perf_counter()
    print("N=%d: FLOW_MODs+barrier %.3f s, bundle adds+barrier %.3f s, "
          "commit %.3f s, failed commit (%d applied, rolled back) %.3f s" %
          (n, t1 - t0, t3 - t2, t4 - t3, n - 1, t6 - t5))


if __name__ == "__main__":
    main()
