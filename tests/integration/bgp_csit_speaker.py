#!/usr/bin/python3
"""A small BGP speaker in the role CSIT's play.py has in bgpuser suites.

It connects to the controller (or, with --listen, waits for the
controller to connect), opens an iBGP session (IPv4 unicast, 4-octet AS),
sends the UPDATEs given with --update, then keeps the session up with
KEEPALIVEs until killed or told to stop by a NOTIFICATION.

--update 'W:P1,P2;A:P3,P4' is one UPDATE withdrawing P1 and P2 and
announcing P3 and P4 (either part may be left out).  --state FILE gets a
line per event: "established PEER-IP", "notification CODE SUBCODE",
"closed".
"""
import argparse
import ipaddress
import select
import socket
import struct
import sys
import time

MARKER = b"\xff" * 16


def msg(kind, body):
    return MARKER + struct.pack("!HB", 19 + len(body), kind) + body


def open_msg(asn, hold, bgp_id):
    # RFC 5492 capabilities: MP IPv4 unicast (RFC 4760), 4-octet AS (6793).
    caps = b"\x01\x04\x00\x01\x00\x01" + b"\x41\x04" + struct.pack("!I", asn)
    opt = b"\x02" + bytes([len(caps)]) + caps
    my_as = asn if asn < 65536 else 23456
    body = struct.pack("!BHH", 4, my_as, hold) + \
        ipaddress.IPv4Address(bgp_id).packed + bytes([len(opt)]) + opt
    return msg(1, body)


def nlri(prefixes):
    out = b""
    for p in prefixes:
        net = ipaddress.IPv4Network(p)
        n = (net.prefixlen + 7) // 8
        out += bytes([net.prefixlen]) + net.network_address.packed[:n]
    return out


def attr(flags, code, value):
    return bytes([flags, code, len(value)]) + value


def update_msg(spec, asn, nexthop):
    withdrawn, announced = [], []
    for part in filter(None, spec.split(";")):
        kind, _, plist = part.partition(":")
        target = withdrawn if kind == "W" else announced
        target.extend(filter(None, plist.split(",")))
    attrs = b""
    if announced:
        # ORIGIN IGP, empty AS_PATH (iBGP), NEXT_HOP, LOCAL_PREF 100.
        attrs = attr(0x40, 1, b"\x00") + attr(0x40, 2, b"") + \
            attr(0x40, 3, ipaddress.IPv4Address(nexthop).packed) + \
            attr(0x40, 5, struct.pack("!I", 100))
    w = nlri(withdrawn)
    body = struct.pack("!H", len(w)) + w + struct.pack("!H", len(attrs)) + \
        attrs + nlri(announced)
    return msg(2, body)


def note(path, line):
    if path:
        with open(path, "a") as f:
            f.write(line + "\n")


def whole(buf):
    return len(buf) >= 19 and len(buf) >= struct.unpack("!H", buf[16:18])[0]


def recv_msg(sock, buf):
    """The next message (type, body) from sock, or None at EOF."""
    while not whole(buf):
        data = sock.recv(65536)
        if not data:
            return None
        buf.extend(data)
    length = struct.unpack("!H", buf[16:18])[0]
    kind, body = buf[18], bytes(buf[19:length])
    del buf[:length]
    return kind, body


def session(sock, peer, args):
    buf = bytearray()
    sock.sendall(open_msg(args.asnumber, args.holdtime, args.myip))
    established = False
    last_ka = time.time()
    while True:
        # A message already read in is handled before waiting for more.
        if not whole(buf):
            r, _, _ = select.select([sock], [], [], 1.0)
            if time.time() - last_ka > 30 and established:
                sock.sendall(msg(4, b""))
                last_ka = time.time()
            if not r:
                continue
        m = recv_msg(sock, buf)
        if m is None:
            note(args.state, "closed")
            return
        kind, body = m
        if kind == 1:
            sock.sendall(msg(4, b""))
        elif kind == 3:
            note(args.state, "notification %d %d" % (body[0], body[1]))
            return
        elif kind == 4 and not established:
            established = True
            note(args.state, "established " + peer)
            for spec in args.update:
                sock.sendall(update_msg(spec, args.asnumber, args.nexthop))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--myip", required=True)
    ap.add_argument("--myport", type=int, required=True)
    ap.add_argument("--peerip", required=True)
    ap.add_argument("--peerport", type=int, default=179)
    ap.add_argument("--listen", action="store_true")
    ap.add_argument("--asnumber", type=int, default=64496)
    ap.add_argument("--holdtime", type=int, default=180)
    ap.add_argument("--nexthop", default="192.0.2.1")
    ap.add_argument("--update", action="append", default=[])
    ap.add_argument("--state")
    args = ap.parse_args()
    if args.listen:
        ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        ls.bind((args.myip, args.myport))
        ls.listen(1)
        note(args.state, "listening")
        sock, addr = ls.accept()
        ls.close()
    else:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.myip, args.myport))
        sock.connect((args.peerip, args.peerport))
        addr = (args.peerip, args.peerport)
    session(sock, addr[0], args)
    sock.close()


if __name__ == "__main__":
    try:
        main()
    except (KeyboardInterrupt, BrokenPipeError, ConnectionError):
        sys.exit(0)
