"""Two OpenFlow 1.3 controller connections to one simulated switch, for
of_cluster.sh: the switch is started with --controller tcp:P,tcp:P (the
same listener twice), so this script holds both of its connections and
walks the role state machine of OpenFlow 1.3.5 section 6.3.6 on the wire:

  A: ROLE_REQUEST master, generation 10       -> ROLE_REPLY master, 10
  B: ROLE_REQUEST slave, generation 10        -> ROLE_REPLY slave, 10
  B: GET_ASYNC                                -> the defaults of section
                                                 6.1.1: no PACKET_IN and
                                                 no FLOW_REMOVED to a slave
  B: FLOW_MOD                                 -> ERROR BAD_REQUEST/IS_SLAVE
  B: ROLE_REQUEST master, generation 9        -> ERROR ROLE_REQUEST_FAILED/STALE
  B: ROLE_REQUEST master, generation 11       -> ROLE_REPLY master, 11
  A:                                          <- ROLE_STATUS slave,
                                                 MASTER_REQUEST, 11
  A: FLOW_MOD                                 -> ERROR BAD_REQUEST/IS_SLAVE
  B: FLOW_MOD, BARRIER_REQUEST                -> BARRIER_REPLY, no ERROR

Each step prints one line "ok: ..." or "FAIL: ..." and the script exits 1
at the first failure, 0 when all passed; 20 s at most."""
import socket
import struct
import sys
import time

HDR = struct.Struct("!BBHI")
V13 = 4
HELLO, ERROR, ECHO_REQ, ECHO_REP, EXPERIMENTER = 0, 1, 2, 3, 4
FEAT_REQ, FEAT_REP, FLOW_MOD = 5, 6, 14
BARRIER_REQ, BARRIER_REP, ROLE_REQ, ROLE_REP = 20, 21, 24, 25
GET_ASYNC_REQ, GET_ASYNC_REP = 26, 27
EQUAL, MASTER, SLAVE = 1, 2, 3
ET_BAD_REQUEST, BRC_IS_SLAVE = 1, 10
ET_ROLE_FAILED, RRFC_STALE = 11, 0
ONF_ID, ONF_ROLE_STATUS = 0x4F4E4600, 1911
DEADLINE = time.time() + 20


def msg(t, xid, body=b""):
    return HDR.pack(V13, t, HDR.size + len(body), xid) + body


def flow_mod(xid):
    # ofp_flow_mod (A.3.4.1): cookie, mask, table 0, ADD, no timeouts,
    # priority 7, no buffer, any port and group, no flags; an empty OXM
    # match (A.2.1: type 1, length 4, padded to 8); no instructions.
    body = struct.pack("!QQBBHHHIIIH2x", 1, 0, 0, 0, 0, 0, 7,
                       0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    body += struct.pack("!HH4x", 1, 4)
    return msg(FLOW_MOD, xid, body)


class Conn:
    def __init__(self, sock):
        self.s = sock
        self.s.settimeout(0.2)
        self.buf = b""

    def send(self, data):
        self.s.sendall(data)

    def next(self):
        """The next message other than an ECHO (answered)."""
        while time.time() < DEADLINE:
            if len(self.buf) >= HDR.size:
                _, t, length, xid = HDR.unpack_from(self.buf)
                if len(self.buf) >= length:
                    body = self.buf[HDR.size:length]
                    self.buf = self.buf[length:]
                    if t == ECHO_REQ:
                        self.send(msg(ECHO_REP, xid, body))
                        continue
                    return t, xid, body
            try:
                data = self.s.recv(65536)
            except socket.timeout:
                continue
            if not data:
                die("the switch closed a connection")
            self.buf += data
        die("timed out waiting for the switch")

    def expect(self, t, what):
        while True:
            mt, xid, body = self.next()
            if mt == t:
                return xid, body
            if mt == ERROR:
                typ, code = struct.unpack_from("!HH", body)
                die("%s: ERROR type %d code %d instead" % (what, typ, code))


def die(why):
    print("FAIL: " + why, flush=True)
    sys.exit(1)


def ok(what):
    print("ok: " + what, flush=True)


def handshake(c):
    c.send(msg(HELLO, 1))
    c.expect(HELLO, "HELLO")
    c.send(msg(FEAT_REQ, 2))
    c.expect(FEAT_REP, "FEATURES_REPLY")


def role(c, r, gen, xid):
    c.send(msg(ROLE_REQ, xid, struct.pack("!I4xQ", r, gen)))


def want_role_reply(c, r, gen, what):
    _, body = c.expect(ROLE_REP, what)
    got_r, got_gen = struct.unpack("!I4xQ", body)
    if (got_r, got_gen) != (r, gen):
        die("%s: ROLE_REPLY role %d gen %d" % (what, got_r, got_gen))
    ok(what)


def want_error(c, xid, typ, code, what):
    got_xid, body = c.expect(ERROR, what)
    got = struct.unpack_from("!HH", body)
    if got_xid != xid or got != (typ, code):
        die("%s: ERROR xid %d type %d code %d" % ((what, got_xid) + got))
    ok(what)


def main():
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", int(sys.argv[1])))
    srv.listen(2)
    srv.settimeout(20)
    a, b = Conn(srv.accept()[0]), Conn(srv.accept()[0])
    handshake(a)
    handshake(b)
    role(a, MASTER, 10, 3)
    want_role_reply(a, MASTER, 10, "A master, generation 10")
    role(b, SLAVE, 10, 3)
    want_role_reply(b, SLAVE, 10, "B slave, generation 10")
    b.send(msg(GET_ASYNC_REQ, 11))
    _, body = b.expect(GET_ASYNC_REP, "GET_ASYNC")
    masks = struct.unpack("!6I", body[:24])
    if masks != (3, 0, 7, 7, 15, 0):
        die("async config %r" % (masks,))
    ok("async defaults: PACKET_IN and FLOW_REMOVED to master/equal only")
    b.send(flow_mod(4))
    want_error(b, 4, ET_BAD_REQUEST, BRC_IS_SLAVE, "slave FLOW_MOD: IS_SLAVE")
    role(b, MASTER, 9, 5)
    want_error(b, 5, ET_ROLE_FAILED, RRFC_STALE, "generation 9 < 10: STALE")
    role(b, MASTER, 11, 6)
    want_role_reply(b, MASTER, 11, "B master, generation 11")
    _, body = a.expect(EXPERIMENTER, "ROLE_STATUS")
    exp, et, r, reason, gen = struct.unpack("!IIIB3xQ", body[:24])
    if (exp, et, r, reason, gen) != (ONF_ID, ONF_ROLE_STATUS, SLAVE, 0, 11):
        die("ROLE_STATUS %x/%d role %d reason %d gen %d" %
            (exp, et, r, reason, gen))
    ok("A demoted: ROLE_STATUS slave, MASTER_REQUEST, generation 11")
    a.send(flow_mod(7))
    want_error(a, 7, ET_BAD_REQUEST, BRC_IS_SLAVE, "demoted A: IS_SLAVE")
    b.send(flow_mod(8) + msg(BARRIER_REQ, 9))
    xid, _ = b.expect(BARRIER_REP, "new master's FLOW_MOD")
    if xid != 9:
        die("BARRIER_REPLY xid %d" % xid)
    ok("new master's FLOW_MOD taken")


main()
