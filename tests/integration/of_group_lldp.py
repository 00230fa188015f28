#!/usr/bin/python3
"""A controller for of_group_lldp.sh: two sbsim switches in a line (switch
0's port 2 is linked to switch 1's port 1; ports 1 and 3 of switch 0 lead
nowhere).  On switch 0 a fast-failover group watches port 3 first, then
port 2.  An LLDP PACKET_OUT to the group leaves by port 3 while it is up
(switch 1 hears nothing); PORT_MOD takes port 3 down and the next one
leaves by port 2, so switch 1 sends it up as a PACKET_IN from its port 1;
port 3 up again, nothing.  Each step is closed by a BARRIER on switch 0
and then on switch 1: sbsim delivers the frame while it handles the
PACKET_OUT, so what switch 1 sent before its BARRIER_REPLY is all there
is.  Usage: of_group_lldp.py PORT; prints the PACKET_INs heard per step.
"""
import select
import socket
import struct
import sys

V = 4
T_HELLO, T_ERROR, T_ECHO_REQ, T_ECHO_REP = 0, 1, 2, 3
T_FEATURES_REQ, T_FEATURES_REP, T_PACKET_IN = 5, 6, 10
T_PACKET_OUT, T_GROUP_MOD, T_PORT_MOD = 13, 15, 16
T_MP_REQ, T_MP_REP, T_BARRIER_REQ, T_BARRIER_REP = 18, 19, 20, 21
ANY = 0xffffffff
CONTROLLER = 0xfffffffd
TIMEOUT = 20


def msg(t, body=b"", xid=0):
    return struct.pack("!BBHI", V, t, 8 + len(body), xid) + body


class Switch:
    def __init__(self, s):
        self.s, self.buf, self.packet_ins = s, b"", 0
        s.sendall(msg(T_HELLO) + msg(T_FEATURES_REQ, xid=1))
        body = self.until(T_FEATURES_REP)
        self.dpid = struct.unpack("!Q", body[:8])[0]

    def until(self, want):
        """Read until a message of type want (its body); ECHOs answered,
        PACKET_INs of LLDP counted, an ERROR fails."""
        while True:
            while len(self.buf) < 8 or \
                    len(self.buf) < struct.unpack("!H", self.buf[2:4])[0]:
                r, _, _ = select.select([self.s], [], [], TIMEOUT)
                if not r:
                    sys.exit("of_group_lldp: timed out waiting for %d" % want)
                c = self.s.recv(65536)
                if not c:
                    sys.exit("of_group_lldp: switch closed")
                self.buf += c
            _, t, n, xid = struct.unpack("!BBHI", self.buf[:8])
            body, self.buf = self.buf[8:n], self.buf[n:]
            if t == T_ECHO_REQ:
                self.s.sendall(msg(T_ECHO_REP, body, xid))
            elif t == T_ERROR:
                sys.exit("of_group_lldp: ERROR %s" %
                         (struct.unpack("!HH", body[:4]),))
            elif t == T_PACKET_IN and b"\x88\xcc" in body:
                self.packet_ins += 1
            if t == want:
                return body

    def barrier(self):
        self.s.sendall(msg(T_BARRIER_REQ, xid=7))
        self.until(T_BARRIER_REP)

    def hw_addr(self, port):
        """From PORT_DESC (7.3.5.7): PORT_MOD must name it."""
        self.s.sendall(msg(T_MP_REQ, struct.pack("!HH4x", 13, 0), 3))
        body = self.until(T_MP_REP)[8:]
        while body:
            no, hw = struct.unpack("!I4x6s", body[:14])
            if no == port:
                return hw
            body = body[64:]
        sys.exit("of_group_lldp: no port %d" % port)


def output(port):
    return struct.pack("!HHIH6x", 0, 16, port, 0xffe5)


def ff_bucket(port):
    return struct.pack("!HHII4x", 32, 0, port, ANY) + output(port)


def lldp_frame():
    eth = bytes.fromhex("0180c200000e" "020000000001" "88cc")
    tlvs = bytes.fromhex("020704020000000001" "0403020003" "06020078"
                         "0000")
    return eth + tlvs


def packet_out_to_group(group):
    act = struct.pack("!HHI", 22, 8, group)
    return msg(T_PACKET_OUT, struct.pack("!IIH6x", ANY, CONTROLLER,
                                         len(act)) + act + lldp_frame())


def port_mod(sw, port, down):
    body = struct.pack("!I4x6s2xIII4x", port, sw.hw_addr(port),
                       1 if down else 0, 1, 0)
    sw.s.sendall(msg(T_PORT_MOD, body))


def main():
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", int(sys.argv[1])))
    ls.listen(4)
    ls.settimeout(TIMEOUT)
    sws = sorted((Switch(ls.accept()[0]) for _ in range(2)),
                 key=lambda w: w.dpid)
    a, b = sws
    a.s.sendall(msg(T_GROUP_MOD, struct.pack("!HBxI", 0, 3, 1) +
                    ff_bucket(3) + ff_bucket(2)))
    a.barrier()
    heard = []
    for step in ("up", "port 3 down", "port 3 up"):
        if step != "up":
            port_mod(a, 3, step.endswith("down"))
        before = b.packet_ins
        a.s.sendall(packet_out_to_group(1))
        a.barrier()
        b.barrier()
        heard.append(b.packet_ins - before)
        print("%s: %d" % (step, heard[-1]))
    if heard != [0, 1, 0]:
        sys.exit("of_group_lldp: heard %s, want [0, 1, 0]" % heard)


if __name__ == "__main__":
    main()
