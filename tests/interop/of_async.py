#!/usr/bin/python3
"""Asynchronous messages and switch state of a passive sbsim switch.

usage: of_async.py 13 PORT     OpenFlow 1.3: checks a, b, d, e below
       of_async.py 10 PORT     OpenFlow 1.0: check a only

a. Flow timeouts (1.3.5 section 5.5, 1.0.0 section 3.5): a flow with
   hard_timeout 1 and SEND_FLOW_REM draws a FLOW_REMOVED with reason
   HARD_TIMEOUT within a few seconds (the switch sweeps once a second); a
   flow with idle_timeout 1 and no flag leaves the table silently.
b. PORT_MOD (7.3.4.3): PORT_DOWN on port 2, with the hw_addr PORT_DESC
   gave, draws PORT_STATUS MODIFY with config PORT_DOWN and state
   LINK_DOWN; a wrong hw_addr draws PORT_MOD_FAILED/BAD_HW_ADDR; with the
   async port_status mask cleared for MODIFY no PORT_STATUS comes.
d. ROLE_REQUEST (6.3.5): MASTER with generation 5, then SLAVE with
   generation 4, is ROLE_REQUEST_FAILED/STALE and the role stays MASTER.
e. SET_ASYNC (7.3.10): with FLOW_REMOVED masked for reason DELETE a
   deleted SEND_FLOW_REM flow sends nothing; with the mask back it sends
   FLOW_REMOVED reason DELETE; GET_ASYNC reads back what was set, and a
   new connection starts from the default configuration.
Every wait is bounded; a BARRIER_REPLY proves that nothing was sent
before it (the switch answers in order).  Plain sockets and struct only.
Prints "ok: ..." lines and exits 0 on success.
"""
import socket
import struct
import sys
import time

OFP13, OFP10 = 4, 1
# Message types (1.3.5 section 7.1; 1.0.0 section 5.1), per version.
T = {
    OFP13: dict(HELLO=0, ERROR=1, ECHO_REQUEST=2, ECHO_REPLY=3,
                FEATURES_REQUEST=5, FEATURES_REPLY=6, FLOW_REMOVED=11,
                PORT_STATUS=12, FLOW_MOD=14, PORT_MOD=16, MP_REQUEST=18,
                MP_REPLY=19, BARRIER_REQUEST=20, BARRIER_REPLY=21,
                ROLE_REQUEST=24, ROLE_REPLY=25, GET_ASYNC_REQUEST=26,
                GET_ASYNC_REPLY=27, SET_ASYNC=28),
    OFP10: dict(HELLO=0, ERROR=1, ECHO_REQUEST=2, ECHO_REPLY=3,
                FEATURES_REQUEST=5, FEATURES_REPLY=6, FLOW_REMOVED=11,
                PORT_STATUS=12, FLOW_MOD=14, PORT_MOD=15, MP_REQUEST=16,
                MP_REPLY=17, BARRIER_REQUEST=18, BARRIER_REPLY=19),
}
MP_FLOW, MP_PORT_DESC = 1, 13
MPF_REPLY_MORE = 1
NO_BUFFER = ANY = 0xffffffff
NONE10, TABLE_ALL = 0xffff, 0xff
FC_ADD, FC_DELETE_STRICT = 0, 4
FF_SEND_FLOW_REM = 1
RR_IDLE, RR_HARD, RR_DELETE = 0, 1, 2
PR_MODIFY = 2
PC_PORT_DOWN, PS_LINK_DOWN = 1, 1
ROLE_NOCHANGE, ROLE_EQUAL, ROLE_MASTER, ROLE_SLAVE = 0, 1, 2, 3
ET_PORT_MOD_FAILED, PMFC_BAD_HW_ADDR = 7, 1
ET_ROLE_REQUEST_FAILED, RRFC_STALE = 11, 0
# Default asynchronous configuration (1.3.5 section 6.1.1 / 7.3.10):
# packet_in, port_status, flow_removed, each [master/equal, slave].
ASYNC_DEFAULT = (0x3, 0x0, 0x7, 0x7, 0xf, 0x0)
TIMEOUT = 5.0       # any one answer
EXPIRY_WAIT = 4.0   # a 1 s timeout, swept once a second, is seen by then


class Failed(Exception):
    pass


def oxm(field, value):
    return struct.pack("!I", 0x8000 << 16 | field << 9 | len(value)) + value


def match13(*tlvs):
    body = b"".join(tlvs)
    m = struct.pack("!HH", 1, 4 + len(body)) + body
    return m + b"\0" * ((8 - len(m) % 8) % 8)


def match10_ipv4_dst(addr):
    # Everything wildcarded but dl_type and nw_dst (1.0.0 section 5.2.3).
    wildcards = 0x3fffff & ~(1 << 4) & ~(0x3f << 14)
    return struct.pack("!IH6s6sHBxHBB2xIIHH", wildcards, 0, b"\0" * 6,
                       b"\0" * 6, 0, 0, 0x0800, 0, 0, 0,
                       struct.unpack("!I", bytes(addr))[0], 0, 0)


MATCH10_ALL = struct.pack("!I36x", 0x3fffff)


class Switch:
    """One OpenFlow session with the switch, after HELLO and FEATURES."""

    def __init__(self, port, version):
        self.v = version
        self.t = T[version]
        self.xid = 100
        self.buf = b""
        self.pending = []   # asynchronous messages read while waiting
        self.sock = socket.create_connection(("127.0.0.1", port),
                                             timeout=TIMEOUT)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        bitmap = struct.pack("!HHI", 1, 8, 1 << version)
        self.send("HELLO", bitmap if version == OFP13 else b"", xid=1)
        self.wait(lambda m: m[1] == self.t["HELLO"], "HELLO")
        self.request("FEATURES_REQUEST", b"", "FEATURES_REPLY")

    def close(self):
        self.sock.close()

    def next_xid(self):
        self.xid += 1
        return self.xid

    def send(self, name, body=b"", xid=None):
        if xid is None:
            xid = self.next_xid()
        self.sock.sendall(struct.pack("!BBHI", self.v, self.t[name],
                                      8 + len(body), xid) + body)
        return xid

    def recv(self, deadline):
        """The next message (type, xid, bytes), or None at deadline."""
        while True:
            if len(self.buf) >= 8:
                ver, mtype, length, xid = struct.unpack_from("!BBHI",
                                                             self.buf)
                if length < 8:
                    raise Failed("switch sent a message of length %d"
                                 % length)
                if len(self.buf) >= length:
                    m, self.buf = self.buf[:length], self.buf[length:]
                    # Our HELLO offered one version; theirs may offer more.
                    if ver != self.v and mtype != self.t["HELLO"]:
                        raise Failed("message in version %d" % ver)
                    if mtype == self.t["ECHO_REQUEST"]:
                        self.send("ECHO_REPLY", m[8:], xid=xid)
                        continue
                    return mtype, xid, m
            left = deadline - time.time()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                continue
            if not data:
                raise Failed("the switch closed the connection")
            self.buf += data

    def wait(self, pred, what, timeout=TIMEOUT):
        """First message (queued or new) pred accepts; others queued."""
        for i, m in enumerate(self.pending):
            if pred(m):
                del self.pending[i]
                return m
        deadline = time.time() + timeout
        while True:
            m = self.recv(deadline)
            if m is None:
                raise Failed("no %s within %.1f s" % (what, timeout))
            if pred(m):
                return m
            self.pending.append(m)

    def request(self, name, body, reply):
        """Send; the answer with its xid must be of type reply."""
        xid = self.send(name, body)
        m = self.wait(lambda m: m[1] == xid, "answer to %s" % name)
        if m[0] == self.t["ERROR"]:
            raise Failed("%s refused: ERROR %d/%d" %
                         ((name,) + struct.unpack_from("!HH", m[2], 8)))
        if m[0] != self.t[reply]:
            raise Failed("%s answered with type %d" % (name, m[0]))
        return m[2]

    def refused(self, name, body, etype, ecode):
        xid = self.send(name, body)
        m = self.wait(lambda m: m[1] == xid, "answer to %s" % name)
        if m[0] != self.t["ERROR"]:
            raise Failed("%s: type %d, want ERROR %d/%d" % (name, m[0],
                                                            etype, ecode))
        got = struct.unpack_from("!HH", m[2], 8)
        if got != (etype, ecode):
            raise Failed("%s: ERROR %d/%d, want %d/%d" %
                         ((name,) + got + (etype, ecode)))

    def barrier(self):
        """Everything the switch sent before the reply is now queued."""
        self.request("BARRIER_REQUEST", b"", "BARRIER_REPLY")

    def take(self, mtype):
        """Queued messages of a type, removed from the queue."""
        got = [m for m in self.pending if m[0] == self.t[mtype]]
        self.pending = [m for m in self.pending if m[0] != self.t[mtype]]
        return got

    # ---- messages ----

    def flow_mod(self, cookie, command=FC_ADD, idle=0, hard=0, flags=0,
                 dst=(10, 0, 0, 1)):
        if self.v == OFP13:
            m = match13(oxm(5, b"\x08\x00"), oxm(12, bytes(dst)))
            out = struct.pack("!HHIH6x", 0, 16, 1, 0xffff)
            inst = struct.pack("!HH4x", 4, 8 + len(out)) + out
            body = struct.pack("!QQBBHHHIIIH2x", cookie, 0, 0, command,
                               idle, hard, 100, NO_BUFFER, ANY, ANY,
                               flags) + m + inst
        else:
            out = struct.pack("!HHHH", 0, 8, 1, 0xffff)
            body = match10_ipv4_dst(dst) + struct.pack(
                "!QHHHHIHH", cookie, command, idle, hard, 100, NO_BUFFER,
                NONE10, flags) + out
        self.send("FLOW_MOD", body)

    def multipart(self, mp, body=b""):
        """All entries of a (possibly multi-message) multipart reply."""
        hdr = "!HH4x" if self.v == OFP13 else "!HH"
        xid = self.send("MP_REQUEST", struct.pack(hdr, mp, 0) + body)
        entries = b""
        while True:
            m = self.wait(lambda m: m[1] == xid, "multipart reply")
            if m[0] != self.t["MP_REPLY"]:
                raise Failed("multipart %d answered with type %d"
                             % (mp, m[0]))
            _, flags = struct.unpack_from("!HH", m[2], 8)
            entries += m[2][16 if self.v == OFP13 else 12:]
            if not flags & MPF_REPLY_MORE:
                return entries

    def flow_cookies(self):
        """Cookies of the flows in all tables (flow stats, all)."""
        if self.v == OFP13:
            body = struct.pack("!B3xII4xQQ", TABLE_ALL, ANY, ANY, 0, 0) + \
                match13()
            cookie_at = 24
        else:
            body = MATCH10_ALL + struct.pack("!BxH", TABLE_ALL, NONE10)
            cookie_at = 64
        e = self.multipart(MP_FLOW, body)
        cookies = []
        while e:
            length = struct.unpack_from("!H", e)[0]
            if length < 8 or length > len(e):
                raise Failed("flow stats entry of length %d" % length)
            cookies.append(struct.unpack_from("!Q", e, cookie_at)[0])
            e = e[length:]
        return sorted(cookies)

    def flow_removed(self, m):
        """cookie, priority, reason, duration_sec of a FLOW_REMOVED."""
        off = 8 if self.v == OFP13 else 48
        cookie, prio, reason = struct.unpack_from("!QHB", m, off)
        dur = struct.unpack_from("!I", m, off + 12)[0]
        return cookie, prio, reason, dur


def check_timeouts(s):
    """a: hard timeout with FLOW_REMOVED, idle timeout without."""
    hard_c, idle_c = 0xa1, 0xb1
    s.flow_mod(hard_c, hard=1, flags=FF_SEND_FLOW_REM, dst=(10, 0, 0, 1))
    s.flow_mod(idle_c, idle=1, dst=(10, 0, 0, 2))
    s.barrier()
    t0 = time.time()
    got = s.flow_cookies()
    if got != [hard_c, idle_c]:
        raise Failed("after the adds the flows have cookies %s" % got)
    v = s.v

    def is_removed(m):
        return m[0] == s.t["FLOW_REMOVED"]
    m = s.wait(is_removed, "FLOW_REMOVED", timeout=EXPIRY_WAIT)
    cookie, prio, reason, dur = s.flow_removed(m[2])
    if (cookie, prio, reason) != (hard_c, 100, RR_HARD):
        raise Failed("FLOW_REMOVED cookie %#x priority %d reason %d, want "
                     "%#x 100 HARD_TIMEOUT" % (cookie, prio, reason, hard_c))
    if dur < 1:
        raise Failed("FLOW_REMOVED duration %d s for a 1 s timeout" % dur)
    # The idle flow goes too, silently.
    while s.flow_cookies():
        if time.time() - t0 > EXPIRY_WAIT:
            raise Failed("flows left %.1f s after a 1 s timeout: %s"
                         % (EXPIRY_WAIT, s.flow_cookies()))
        time.sleep(0.2)
    s.barrier()
    extra = s.take("FLOW_REMOVED")
    if extra:
        raise Failed("FLOW_REMOVED for a flow without SEND_FLOW_REM: %s"
                     % [s.flow_removed(m[2]) for m in extra])
    print("ok: %s hard timeout sent FLOW_REMOVED HARD_TIMEOUT after %.1f s, "
          "idle timeout expired silently" % ("1.3" if v == OFP13 else "1.0",
                                             time.time() - t0))


def port_desc(s, port_no):
    e = s.multipart(MP_PORT_DESC)
    for off in range(0, len(e), 64):
        no, hw = struct.unpack_from("!I4x6s", e, off)
        if no == port_no:
            config, state = struct.unpack_from("!II", e, off + 32)
            return hw, config, state
    raise Failed("port %d not in PORT_DESC" % port_no)


def port_mod13(port_no, hw, config, mask):
    return struct.pack("!I4x6s2xIII4x", port_no, hw, config, mask, 0)


def set_async(s, masks):
    s.send("SET_ASYNC", struct.pack("!6I", *masks))
    got = struct.unpack_from("!6I", s.request("GET_ASYNC_REQUEST", b"",
                                              "GET_ASYNC_REPLY"), 8)
    if got != tuple(masks):
        raise Failed("GET_ASYNC reads %s after SET_ASYNC %s" % (got, masks))


def check_port_mod(s):
    """b: PORT_DOWN on port 2 draws PORT_STATUS MODIFY."""
    hw, config, state = port_desc(s, 2)
    if config & PC_PORT_DOWN or state & PS_LINK_DOWN:
        raise Failed("port 2 starts down: config %#x state %#x"
                     % (config, state))
    bad = bytes([hw[0] ^ 0xff]) + hw[1:]
    s.refused("PORT_MOD", port_mod13(2, bad, PC_PORT_DOWN, PC_PORT_DOWN),
              ET_PORT_MOD_FAILED, PMFC_BAD_HW_ADDR)
    s.send("PORT_MOD", port_mod13(2, hw, PC_PORT_DOWN, PC_PORT_DOWN))
    m = s.wait(lambda m: m[0] == s.t["PORT_STATUS"], "PORT_STATUS")[2]
    reason = m[8]
    no, phw = struct.unpack_from("!I4x6s", m, 16)
    pconfig, pstate = struct.unpack_from("!II", m, 16 + 32)
    if (reason, no, phw) != (PR_MODIFY, 2, hw):
        raise Failed("PORT_STATUS reason %d port %d hw %s" % (reason, no,
                                                              phw.hex()))
    if not pconfig & PC_PORT_DOWN or not pstate & PS_LINK_DOWN:
        raise Failed("PORT_STATUS config %#x state %#x, want PORT_DOWN and "
                     "LINK_DOWN" % (pconfig, pstate))
    _, config, state = port_desc(s, 2)
    if not config & PC_PORT_DOWN or not state & PS_LINK_DOWN:
        raise Failed("PORT_DESC after PORT_MOD: config %#x state %#x"
                     % (config, state))
    # The async config decides who hears of it: MODIFY masked, no message.
    masks = list(ASYNC_DEFAULT)
    masks[2] &= ~(1 << PR_MODIFY)
    set_async(s, masks)
    s.send("PORT_MOD", port_mod13(2, hw, 0, PC_PORT_DOWN))
    s.barrier()
    if s.take("PORT_STATUS"):
        raise Failed("PORT_STATUS sent with MODIFY masked by SET_ASYNC")
    _, config, state = port_desc(s, 2)
    if config & PC_PORT_DOWN or state & PS_LINK_DOWN:
        raise Failed("port 2 still down: config %#x state %#x"
                     % (config, state))
    set_async(s, ASYNC_DEFAULT)
    print("ok: PORT_MOD port 2 down drew PORT_STATUS MODIFY PORT_DOWN "
          "LINK_DOWN; bad hw_addr refused; masked MODIFY sent nothing")


def role(s, r, gen):
    m = s.request("ROLE_REQUEST", struct.pack("!I4xQ", r, gen), "ROLE_REPLY")
    return struct.unpack_from("!I4xQ", m, 8)


def check_role(s):
    """d: a SLAVE claim with an older generation is STALE."""
    got = role(s, ROLE_MASTER, 5)
    if got != (ROLE_MASTER, 5):
        raise Failed("ROLE_REPLY %s to MASTER gen 5" % (got,))
    s.refused("ROLE_REQUEST", struct.pack("!I4xQ", ROLE_SLAVE, 4),
              ET_ROLE_REQUEST_FAILED, RRFC_STALE)
    got = role(s, ROLE_NOCHANGE, 0)
    if got != (ROLE_MASTER, 5):
        raise Failed("after a stale request the role is %s" % (got,))
    role(s, ROLE_EQUAL, 0)
    print("ok: ROLE MASTER gen 5 then SLAVE gen 4 refused STALE, still "
          "MASTER")


def delete_one(s, cookie):
    s.flow_mod(cookie, flags=FF_SEND_FLOW_REM, dst=(10, 0, 1, 1))
    s.flow_mod(cookie, command=FC_DELETE_STRICT, dst=(10, 0, 1, 1))
    s.barrier()
    return [s.flow_removed(m[2]) for m in s.take("FLOW_REMOVED")]


def check_async(s, port):
    """e: FLOW_REMOVED for DELETE masked, then unmasked."""
    masks = list(ASYNC_DEFAULT)
    masks[4] &= ~(1 << RR_DELETE)
    set_async(s, masks)
    got = delete_one(s, 0xc1)
    if got:
        raise Failed("FLOW_REMOVED %s with DELETE masked" % got)
    set_async(s, ASYNC_DEFAULT)
    got = delete_one(s, 0xc2)
    if len(got) != 1 or got[0][0] != 0xc2 or got[0][2] != RR_DELETE:
        raise Failed("FLOW_REMOVED %s with DELETE unmasked, want one with "
                     "cookie 0xc2 reason DELETE" % got)
    # The configuration belongs to the connection (7.3.10): a new one
    # starts from the defaults.
    set_async(s, (0, 0, 0, 0, 0, 0))
    s.close()
    s2 = Switch(port, OFP13)
    got = struct.unpack_from("!6I", s2.request("GET_ASYNC_REQUEST", b"",
                                               "GET_ASYNC_REPLY"), 8)
    if got != ASYNC_DEFAULT:
        raise Failed("a new connection has async config %s, want the "
                     "defaults %s" % (got, ASYNC_DEFAULT))
    got = delete_one(s2, 0xc3)
    if len(got) != 1 or got[0][2] != RR_DELETE:
        raise Failed("new connection: FLOW_REMOVED %s" % got)
    s2.close()
    print("ok: SET_ASYNC masked FLOW_REMOVED DELETE and unmasked it; a new "
          "connection starts from the defaults")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("13", "10"):
        sys.exit(__doc__)
    port = int(sys.argv[2])
    try:
        if sys.argv[1] == "10":
            s = Switch(port, OFP10)
            check_timeouts(s)
            s.close()
            return
        s = Switch(port, OFP13)
        check_timeouts(s)
        check_port_mod(s)
        check_role(s)
        check_async(s, port)
    except (Failed, OSError) as e:
        print("FAIL: %s" % e, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
