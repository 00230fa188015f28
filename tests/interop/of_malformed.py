#!/usr/bin/python3
"""Malformed and refused OpenFlow messages against a passive sbsim switch.

usage: of_malformed.py PORT13 PORT10

PORT13: a switch (run with --table-size 2) spoken to in OpenFlow 1.3;
PORT10: another switch spoken to in OpenFlow 1.0.  After the handshake,
each bad message must draw exactly the ERROR a switch sends (OpenFlow 1.3.5
section 7.4.4, 1.0.0 section 5.4.4): its type and code, the offending xid,
and as data the first 64 bytes of the offending message (all of it when
shorter).  After each one, the switch must still answer an ECHO_REQUEST on
the same connection.  Prints the number of errors provoked on success.
Plain sockets and struct only.
"""
import socket
import struct
import sys
import time

OFP13, OFP10 = 4, 1
# Message types.
HELLO, ERROR, ECHO_REQUEST, ECHO_REPLY, EXPERIMENTER = 0, 1, 2, 3, 4
FEATURES_REQUEST, FEATURES_REPLY = 5, 6
FLOW_MOD = 14
MP_REQUEST13, BARRIER_REQUEST13, BARRIER_REPLY13 = 18, 20, 21
ROLE_REQUEST, ROLE_REPLY = 24, 25
METER_MOD13, MP_METER_CONFIG = 29, 10
STATS_REQUEST10, BARRIER_REQUEST10, BARRIER_REPLY10 = 16, 18, 19
# Error types and codes (1.3.5 section 7.4.4; 1.0.0 section 5.4.4).
ET_BAD_REQUEST, ET_BAD_ACTION, ET_BAD_MATCH, ET_FLOW_MOD_FAILED = 1, 2, 4, 5
ET_ROLE_REQUEST_FAILED, ET_METER_MOD_FAILED = 11, 12
MMFC_BAD_BAND = 8
ET10_FLOW_MOD_FAILED = 3
BRC_BAD_VERSION, BRC_BAD_TYPE, BRC_BAD_MULTIPART = 0, 1, 2
BRC_BAD_EXPERIMENTER, BRC_BAD_LEN, BRC_IS_SLAVE = 3, 6, 10
BRC10_BAD_STAT, BRC10_BAD_VENDOR, BRC10_BAD_SUBTYPE = 2, 3, 4
BRC_BAD_EXP_TYPE, BRC_EPERM = 4, 5
BAC_BAD_LEN, BAC10_BAD_VENDOR = 1, 2
# Experimenters: Nicira's (of_nx.c) and one no row takes.
NX_VENDOR, EXP_UNKNOWN = 0x00002320, 0x00abcdef
NXT_SET_FLOW_FORMAT, NXT_FLOW_MOD, NXT_SET_PACKET_IN_FORMAT = 12, 13, 16
NXT_FLOW_REMOVED = 14
FF_SEND_FLOW_REM = 1
NXAST_RESUBMIT_TABLE = 14
NXM_NX_REG0 = 0x00010004
BAC_BAD_OUT_PORT = 4
BMC_BAD_LEN, BMC_BAD_FIELD, BMC_BAD_PREREQ, BMC_DUP_FIELD = 1, 6, 9, 10
FMFC_TABLE_FULL, FMFC_BAD_TABLE_ID, FMFC_OVERLAP = 1, 2, 3
FMFC_BAD_COMMAND = 6
RRFC_STALE = 0
# OXM basic fields (1.3.5 section 7.2.3.7).
OXM_ETH_TYPE, OXM_IP_PROTO, OXM_IPV4_DST = 5, 10, 12
NO_BUFFER = ANY = 0xffffffff
ROLE_EQUAL, ROLE_MASTER, ROLE_SLAVE = 1, 2, 3
FF_CHECK_OVERLAP = 1 << 1
ERROR_DATA_MAX = 64
TIMEOUT = 5.0


class Failed(Exception):
    pass


def nx(version, xid, subtype, body=b""):
    return msg(version, EXPERIMENTER, xid,
               struct.pack("!II", NX_VENDOR, subtype) + body)


def nx_flow_mod(xid, match, actions=b"", match_len=None, hard=0, flags=0):
    """NXT_FLOW_MOD ADD, priority 100, of an nx_match and 1.0 actions."""
    ml = len(match) if match_len is None else match_len
    body = struct.pack("!QHHHHIHHH6x", 0x77, 0, 0, hard, 100, NO_BUFFER,
                       0xffff, flags, ml)
    pad = b"\0" * ((8 - len(match) % 8) % 8)
    return nx(OFP10, xid, NXT_FLOW_MOD, body + match + pad + actions)


def hdr(version, mtype, length, xid):
    return struct.pack("!BBHI", version, mtype, length, xid)


def msg(version, mtype, xid, body=b""):
    return hdr(version, mtype, 8 + len(body), xid) + body


def oxm(field, value, cls=0x8000):
    return struct.pack("!I", cls << 16 | field << 9 | len(value)) + value


def match13(*tlvs, length=None):
    body = b"".join(tlvs)
    n = 4 + len(body) if length is None else length
    m = struct.pack("!HH", 1, n) + body
    return m + b"\0" * ((8 - len(m) % 8) % 8)


def output13(port):
    return struct.pack("!HHIH6x", 0, 16, port, 0xffff)


def apply_actions(*acts):
    a = b"".join(acts)
    return struct.pack("!HH4x", 4, 8 + len(a)) + a


def flow_mod13(xid, match, insts=b"", table=0, command=0, priority=100,
               flags=0, cookie=0):
    body = struct.pack("!QQBBHHHIIIH2x", cookie, 0, table, command, 0, 0,
                       priority, NO_BUFFER, ANY, ANY, flags)
    return msg(OFP13, FLOW_MOD, xid, body + match + insts)


def meter_mod13(xid, *bands, meter_id=1):
    """ADD meter_id, KBPS, with bands."""
    return msg(OFP13, METER_MOD13, xid,
               struct.pack("!HHI", 0, 1, meter_id) + b"".join(bands))


def ip_match(dst, *more):
    return match13(oxm(OXM_ETH_TYPE, b"\x08\x00"),
                   oxm(OXM_IPV4_DST, bytes(dst)), *more)


def flow_mod10(xid, nw_dst, actions=b"", command=0, priority=100):
    # ofp_match: wildcard all but dl_type and nw_dst (1.0.0 section 5.2.3).
    wildcards = 0x3fffff & ~(1 << 4) & ~(0x3f << 14)
    m = struct.pack("!IH6s6sHBxHBB2xIIHH", wildcards, 0, b"\0" * 6,
                    b"\0" * 6, 0, 0, 0x0800, 0, 0, 0,
                    struct.unpack("!I", bytes(nw_dst))[0], 0, 0)
    body = m + struct.pack("!QHHHHIHH", 0, command, 0, 0, priority,
                           NO_BUFFER, 0xffff, 0)
    return msg(OFP10, FLOW_MOD, xid, body + actions)


class Session:
    def __init__(self, port, version, name):
        self.version = version
        self.name = name
        self.xid = 1000
        self.buf = b""
        self.errors = 0
        self.sock = socket.create_connection(("127.0.0.1", port),
                                             timeout=TIMEOUT)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def next_xid(self):
        self.xid += 1
        return self.xid

    def send(self, data):
        self.sock.sendall(data)

    def recv_msg(self, deadline):
        while True:
            if len(self.buf) >= 8:
                ver, mtype, length, xid = struct.unpack_from("!BBHI", self.buf)
                if length < 8:
                    raise Failed("%s: switch sent a message of length %d"
                                 % (self.name, length))
                if len(self.buf) >= length:
                    m, self.buf = self.buf[:length], self.buf[length:]
                    if mtype == ECHO_REQUEST and xid < 1000:
                        # The switch's own keepalive: answer it.
                        self.send(msg(ver, ECHO_REPLY, xid, m[8:]))
                        continue
                    return ver, mtype, xid, m
            left = deadline - time.time()
            if left <= 0:
                raise Failed("%s: no answer within %.0f s" % (self.name,
                                                             TIMEOUT))
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                continue
            if not data:
                raise Failed("%s: the switch closed the connection"
                             % self.name)
            self.buf += data

    def expect(self, xid, mtype):
        """The next message answering xid must be of type mtype."""
        deadline = time.time() + TIMEOUT
        while True:
            ver, t, x, m = self.recv_msg(deadline)
            if x != xid:
                continue
            if t != mtype:
                detail = ""
                if t == ERROR:
                    detail = " (ERROR %d/%d)" % struct.unpack_from("!HH", m, 8)
                raise Failed("%s: xid %d answered with type %d%s, want %d"
                             % (self.name, xid, t, detail, mtype))
            if ver != self.version:
                raise Failed("%s: reply in version %d" % (self.name, ver))
            return m

    def handshake(self):
        if self.version == OFP13:
            # HELLO with a version bitmap offering 1.3 only (section 7.5.1).
            elem = struct.pack("!HHI", 1, 8, 1 << OFP13)
            self.send(msg(OFP13, HELLO, 1, elem))
        else:
            self.send(msg(OFP10, HELLO, 1))
        deadline = time.time() + TIMEOUT
        while True:
            ver, t, x, m = self.recv_msg(deadline)
            if t == HELLO:
                break
        self.send(msg(self.version, FEATURES_REQUEST, 2))
        m = self.expect(2, FEATURES_REPLY)
        dpid = struct.unpack_from("!Q", m, 8)[0]
        return dpid

    def echo(self):
        xid = self.next_xid()
        payload = b"still there %d" % xid
        self.send(msg(self.version, ECHO_REQUEST, xid, payload))
        m = self.expect(xid, ECHO_REPLY)
        if m[8:] != payload:
            raise Failed("%s: ECHO_REPLY payload %r" % (self.name, m[8:]))

    def barrier(self):
        xid = self.next_xid()
        t = BARRIER_REQUEST13 if self.version == OFP13 else BARRIER_REQUEST10
        r = BARRIER_REPLY13 if self.version == OFP13 else BARRIER_REPLY10
        self.send(msg(self.version, t, xid))
        self.expect(xid, r)

    def refused(self, what, data, etype, ecode, xid=None):
        """Send data; it must draw ERROR etype/ecode, then ECHO works."""
        if xid is None:
            xid = struct.unpack_from("!I", data, 4)[0]
        self.send(data)
        m = self.expect(xid, ERROR)
        t, c = struct.unpack_from("!HH", m, 8)
        want_data = data[:ERROR_DATA_MAX]
        if (t, c) != (etype, ecode):
            raise Failed("%s: %s: ERROR %d/%d, want %d/%d"
                         % (self.name, what, t, c, etype, ecode))
        if m[12:] != want_data:
            raise Failed("%s: %s: ERROR data %s, want %s" % (
                self.name, what, m[12:].hex(), want_data.hex()))
        self.errors += 1
        self.echo()
        print("%s: %-40s ERROR %d/%d, xid and data echoed" % (
            self.name, what, t, c))


def run13(port):
    s = Session(port, OFP13, "1.3")
    s.handshake()
    s.echo()
    x = s.next_xid

    # Framing and header.
    s.refused("header length 4", hdr(OFP13, ECHO_REQUEST, 4, x()),
              ET_BAD_REQUEST, BRC_BAD_LEN)
    s.refused("unknown message type 200", msg(OFP13, 200, x()),
              ET_BAD_REQUEST, BRC_BAD_TYPE)
    s.refused("version 1.0 header after 1.3 agreed",
              msg(OFP10, ECHO_REQUEST, x(), b"v1"),
              ET_BAD_REQUEST, BRC_BAD_VERSION)
    s.refused("experimenter message",
              msg(OFP13, EXPERIMENTER, x(), struct.pack("!II", EXP_UNKNOWN, 1)),
              ET_BAD_REQUEST, BRC_BAD_EXPERIMENTER)
    s.refused("Nicira subtype 99", nx(OFP13, x(), 99),
              ET_BAD_REQUEST, BRC_BAD_EXP_TYPE)
    s.refused("multipart type 0x7777",
              msg(OFP13, MP_REQUEST13, x(), struct.pack("!HH4x", 0x7777, 0)),
              ET_BAD_REQUEST, BRC_BAD_MULTIPART)
    s.refused("experimenter multipart",
              msg(OFP13, MP_REQUEST13, x(),
                  struct.pack("!HH4xII", 0xffff, 0, EXP_UNKNOWN, 1)),
              ET_BAD_REQUEST, BRC_BAD_EXPERIMENTER)
    s.refused("NXST_FLOW in 1.3 (OFPMP_FLOW is 1.3's)",
              msg(OFP13, MP_REQUEST13, x(),
                  struct.pack("!HH4xII", 0xffff, 0, NX_VENDOR, 0)),
              ET_BAD_REQUEST, BRC_BAD_EXP_TYPE)

    # FLOW_MOD decoding.
    s.refused("FLOW_MOD shorter than its fixed part",
              msg(OFP13, FLOW_MOD, x(), b"\0" * 20),
              ET_BAD_REQUEST, BRC_BAD_LEN)
    s.refused("FLOW_MOD match length past the message",
              flow_mod13(x(), match13(oxm(OXM_ETH_TYPE, b"\x08\x00"),
                                      length=200)),
              ET_BAD_MATCH, BMC_BAD_LEN)
    s.refused("OXM field 100",
              flow_mod13(x(), match13(oxm(100, b"\0\0\0\1"))),
              ET_BAD_MATCH, BMC_BAD_FIELD)
    s.refused("duplicate OXM field",
              flow_mod13(x(), match13(oxm(OXM_ETH_TYPE, b"\x08\x00"),
                                      oxm(OXM_ETH_TYPE, b"\x08\x00"))),
              ET_BAD_MATCH, BMC_DUP_FIELD)
    s.refused("IPV4_DST without ETH_TYPE",
              flow_mod13(x(), match13(oxm(OXM_IPV4_DST, b"\x0a\0\0\1"))),
              ET_BAD_MATCH, BMC_BAD_PREREQ)

    # FLOW_MOD semantics.
    out1 = apply_actions(output13(1))
    s.refused("FLOW_MOD to table 254",
              flow_mod13(x(), ip_match([10, 0, 0, 1]), out1, table=254),
              ET_FLOW_MOD_FAILED, FMFC_BAD_TABLE_ID)
    s.refused("FLOW_MOD command 9",
              flow_mod13(x(), ip_match([10, 0, 0, 1]), out1, command=9),
              ET_FLOW_MOD_FAILED, FMFC_BAD_COMMAND)
    s.refused("output to port 99",
              flow_mod13(x(), ip_match([10, 0, 0, 1]),
                         apply_actions(output13(99))),
              ET_BAD_ACTION, BAC_BAD_OUT_PORT)
    # --table-size 2: two flows fit in table 0, the third does not.
    for i in (1, 2):
        s.send(flow_mod13(x(), ip_match([10, 0, 0, i]), out1))
    s.barrier()
    s.refused("third flow in a table of 2",
              flow_mod13(x(), ip_match([10, 0, 0, 3]), out1),
              ET_FLOW_MOD_FAILED, FMFC_TABLE_FULL)
    # CHECK_OVERLAP: TCP to 10.0.0.9 overlaps all IPv4, same priority.
    s.send(flow_mod13(x(), match13(oxm(OXM_ETH_TYPE, b"\x08\x00")), out1,
                      table=1, priority=10))
    s.barrier()
    s.refused("CHECK_OVERLAP with an overlapping flow",
              flow_mod13(x(), ip_match([10, 0, 0, 9],
                                       oxm(OXM_IP_PROTO, b"\x06")),
                         out1, table=1, priority=10,
                         flags=FF_CHECK_OVERLAP),
              ET_FLOW_MOD_FAILED, FMFC_OVERLAP)

    # Meters (1.3.5 section 7.3.4.4): Open vSwitch's length rule for
    # bands, and a band type no switch meters with.
    drop_band = struct.pack("!HHII4x", 1, 16, 1000, 0)
    s.refused("METER_MOD shorter than its fixed part",
              msg(OFP13, METER_MOD13, x(), b"\0" * 4),
              ET_BAD_REQUEST, BRC_BAD_LEN)
    s.refused("METER_MOD band of 8 bytes",
              meter_mod13(x(), struct.pack("!HHI", 1, 8, 1000)),
              ET_BAD_REQUEST, BRC_BAD_LEN)
    s.refused("METER_MOD experimenter band",
              meter_mod13(x(), struct.pack("!HHIII", 0xffff, 16, 1, 0,
                                           0x2320)),
              ET_METER_MOD_FAILED, MMFC_BAD_BAND)
    s.refused("METER_CONFIG request without its meter id",
              msg(OFP13, MP_REQUEST13, x(),
                  struct.pack("!HH4x", MP_METER_CONFIG, 0)),
              ET_BAD_REQUEST, BRC_BAD_LEN)

    # Roles (section 6.3.5).
    def role(r, gen):
        xid = x()
        s.send(msg(OFP13, ROLE_REQUEST, xid, struct.pack("!I4xQ", r, gen)))
        m = s.expect(xid, ROLE_REPLY)
        got = struct.unpack_from("!I4xQ", m, 8)
        if got != (r, gen):
            raise Failed("1.3: ROLE_REPLY %r, want %r" % (got, (r, gen)))
    role(ROLE_MASTER, 10)
    s.refused("ROLE_REQUEST with a stale generation",
              msg(OFP13, ROLE_REQUEST, x(),
                  struct.pack("!I4xQ", ROLE_MASTER, 5)),
              ET_ROLE_REQUEST_FAILED, RRFC_STALE)
    role(ROLE_SLAVE, 11)
    s.refused("FLOW_MOD from a slave",
              flow_mod13(x(), ip_match([10, 0, 0, 1]), out1, table=2),
              ET_BAD_REQUEST, BRC_IS_SLAVE)
    s.refused("METER_MOD from a slave", meter_mod13(x(), drop_band),
              ET_BAD_REQUEST, BRC_IS_SLAVE)
    role(ROLE_MASTER, 12)
    s.barrier()
    s.echo()
    return s.errors


def run10(port):
    s = Session(port, OFP10, "1.0")
    s.handshake()
    s.echo()
    x = s.next_xid
    s.refused("header length 7", hdr(OFP10, ECHO_REQUEST, 7, x()),
              ET_BAD_REQUEST, BRC_BAD_LEN)
    s.refused("FLOW_MOD shorter than its fixed part",
              msg(OFP10, FLOW_MOD, x(), b"\0" * 20),
              ET_BAD_REQUEST, BRC_BAD_LEN)
    s.refused("unknown message type 200", msg(OFP10, 200, x()),
              ET_BAD_REQUEST, BRC_BAD_TYPE)
    s.refused("METER_MOD (1.0 has no meters)",
              msg(OFP10, METER_MOD13, x(), struct.pack("!HHI", 0, 1, 1)),
              ET_BAD_REQUEST, BRC_BAD_TYPE)
    s.refused("stats type 0x7777",
              msg(OFP10, STATS_REQUEST10, x(), struct.pack("!HH", 0x7777, 0)),
              ET_BAD_REQUEST, BRC10_BAD_STAT)
    s.refused("vendor message",
              msg(OFP10, EXPERIMENTER, x(), struct.pack("!II", EXP_UNKNOWN, 1)),
              ET_BAD_REQUEST, BRC10_BAD_VENDOR)
    run10_nicira(s)
    s.refused("output to port 99",
              flow_mod10(x(), [10, 0, 0, 1], struct.pack("!HHHH", 0, 8, 99,
                                                         0xffff)),
              ET_BAD_ACTION, BAC_BAD_OUT_PORT)
    s.send(flow_mod10(x(), [10, 0, 0, 1], struct.pack("!HHHH", 0, 8, 1,
                                                      0xffff)))
    s.barrier()
    s.echo()
    return s.errors


def run10_nicira(s):
    """Nicira messages (of_nx.c): what Open vSwitch's switch answers."""
    x = s.next_xid
    reg0 = struct.pack("!II", NXM_NX_REG0, 1)
    resubmit = struct.pack("!HHIHHB3x", 0xffff, 16, NX_VENDOR,
                           NXAST_RESUBMIT_TABLE, 0xfff8, 2)
    s.refused("Nicira subtype 99", nx(OFP10, x(), 99),
              ET_BAD_REQUEST, BRC10_BAD_SUBTYPE)
    s.refused("NXT_SET_FLOW_FORMAT body of 2 bytes",
              nx(OFP10, x(), NXT_SET_FLOW_FORMAT, b"\0\2"),
              ET_BAD_REQUEST, BRC_BAD_LEN)
    s.refused("NXT_SET_FLOW_FORMAT format 7",
              nx(OFP10, x(), NXT_SET_FLOW_FORMAT, struct.pack("!I", 7)),
              ET_BAD_REQUEST, BRC_EPERM)
    s.refused("NXT_SET_PACKET_IN_FORMAT nxt_packet_in",
              nx(OFP10, x(), NXT_SET_PACKET_IN_FORMAT, struct.pack("!I", 1)),
              ET_BAD_REQUEST, BRC_EPERM)
    s.refused("NXT_FLOW_MOD shorter than its fixed part",
              nx(OFP10, x(), NXT_FLOW_MOD, b"\0" * 20),
              ET_BAD_REQUEST, BRC_BAD_LEN)
    s.refused("NXT_FLOW_MOD reg0 of 2 bytes",
              nx_flow_mod(x(), struct.pack("!IH", NXM_NX_REG0 & ~0xff | 2,
                                           1), resubmit),
              ET_BAD_REQUEST, BRC_BAD_LEN)
    s.refused("NXT_FLOW_MOD match_len past the end",
              nx_flow_mod(x(), reg0, b"", match_len=200),
              ET_BAD_REQUEST, BRC_BAD_LEN)
    s.refused("resubmit of length 24",
              nx_flow_mod(x(), reg0, struct.pack("!HHIH14x", 0xffff, 24,
                                                 NX_VENDOR, 14)),
              ET_BAD_ACTION, BAC_BAD_LEN)
    s.refused("vendor action of vendor 0x2321",
              nx_flow_mod(x(), reg0, struct.pack("!HHIH6x", 0xffff, 16,
                                                 0x2321, 14)),
              ET_BAD_ACTION, BAC10_BAD_VENDOR)
    s.refused("NXST_FLOW with a 3-byte match",
              msg(OFP10, STATS_REQUEST10, x(),
                  struct.pack("!HHII4xHHB3x", 0xffff, 0, NX_VENDOR, 0,
                              0xffff, 3, 0xff) + b"\0" * 8),
              ET_BAD_REQUEST, BRC_BAD_LEN)
    s.send(nx(OFP10, x(), NXT_SET_FLOW_FORMAT, struct.pack("!I", 2)))
    s.send(nx_flow_mod(x(), reg0, resubmit))
    s.barrier()
    s.echo()
    # With the NXM format, a flow's removal is an NXT_FLOW_REMOVED whose
    # nx_match is the one the flow was added with.
    reg0_7 = struct.pack("!II", NXM_NX_REG0, 7)
    s.send(nx_flow_mod(x(), reg0_7, resubmit, hard=1, flags=FF_SEND_FLOW_REM))
    s.barrier()
    deadline = time.time() + TIMEOUT
    while True:
        ver, t, xid, m = s.recv_msg(deadline)
        if t == EXPERIMENTER and struct.unpack_from("!II", m, 8) == (
                NX_VENDOR, NXT_FLOW_REMOVED):
            break
    cookie, prio, reason, _, _, _, idle, mlen = struct.unpack_from(
        "!QHBBIIHH", m, 16)
    if (cookie, prio, reason, mlen) != (0x77, 100, 1, len(reg0_7)) or \
            m[56:56 + mlen] != reg0_7:
        raise Failed("1.0: NXT_FLOW_REMOVED %s" % m.hex())
    print("1.0: NXT_FLOW_REMOVED of the reg0=7 flow, match as added")


def run_no_common_version(port):
    """A HELLO offering only OpenFlow 1.4 (wire 5): the switch must answer
    HELLO_FAILED/INCOMPATIBLE (section 6.3.1), then close."""
    s = Session(port, 5, "no common version")
    elem = struct.pack("!HHI", 1, 8, 1 << 5)
    s.send(msg(5, HELLO, 77, elem))
    deadline = time.time() + TIMEOUT
    while True:
        ver, t, x, m = s.recv_msg(deadline)
        if t == HELLO:
            continue
        et, ec = struct.unpack_from("!HH", m, 8) if t == ERROR else (-1, -1)
        if t != ERROR or x != 77 or (et, ec) != (0, 0):
            raise Failed("no common version: type %d xid %d (%d/%d), want "
                         "ERROR HELLO_FAILED/INCOMPATIBLE for xid 77"
                         % (t, x, et, ec))
        break
    s.sock.settimeout(TIMEOUT)
    rest = s.sock.recv(65536)
    while rest:
        rest = s.sock.recv(65536)
    s.sock.close()
    return 1


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    try:
        n = run_no_common_version(int(sys.argv[1]))
        n += run13(int(sys.argv[1]))
        n += run10(int(sys.argv[2]))
    except (Failed, OSError) as e:
        print("FAIL: %s" % e, file=sys.stderr)
        sys.exit(1)
    print("errors provoked: %d" % n)


if __name__ == "__main__":
    main()
