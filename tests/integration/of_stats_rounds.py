#!/usr/bin/python3
"""Two OpenFlow 1.3 switches against sbsim controller's statistics poll
(of_stats_rounds.sh): "fast" answers every stats request at once, "slow"
answers its first two flow stats requests after DELAY seconds and never
answers the third.  Logs every event with its time, then checks the
rounds: fast's request k (k >= 2) comes only after slow answered request
k-1 (or, for the third, after the controller's --stats-timeout), and the
pause after a round grows with the round's time.
Usage: of_stats_rounds.py PORT DELAY TIMEOUT"""
import selectors, socket, struct, sys, time

PORT, DELAY, TIMEOUT = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
V13 = 4
HELLO, ECHO_REQ, ECHO_REP, FEAT_REQ, FEAT_REP = 0, 2, 3, 5, 6
MP_REQ, MP_REP, BARRIER_REQ, BARRIER_REP = 18, 19, 20, 21
MP_FLOW, MP_PORT_STATS, MP_PORT_DESC = 1, 4, 13
T0 = time.monotonic()
log = []	# (t, switch, event, n)


def msg(t, xid, body=b""):
    return struct.pack("!BBHI", V13, t, 8 + len(body), xid) + body


class Switch:
    def __init__(self, name, dpid, delay):
        self.name, self.dpid, self.delay = name, dpid, delay
        self.s = socket.create_connection(("127.0.0.1", PORT), timeout=5)
        self.s.setblocking(False)
        self.buf = b""
        self.asked = 0		# flow stats requests seen
        self.due = []		# (when, bytes)
        self.s.sendall(msg(HELLO, 1))

    def answer(self, t, xid, mp):
        body = struct.pack("!HH4x", mp, 0)
        if t != MP_REQ:
            return
        if mp != MP_FLOW:
            self.s.sendall(msg(MP_REP, xid, body))
            return
        self.asked += 1
        log.append((time.monotonic() - T0, self.name, "asked", self.asked))
        if self.delay == 0:
            self.s.sendall(msg(MP_REP, xid, body))
            log.append((time.monotonic() - T0, self.name, "answered",
                        self.asked))
        elif self.asked <= 2:
            self.due.append((time.monotonic() + self.delay, self.asked,
                             msg(MP_REP, xid, body)))

    def on_msg(self, t, xid, body):
        if t == FEAT_REQ:
            self.s.sendall(msg(FEAT_REP, xid, struct.pack(
                "!QIBB2xII", self.dpid, 0, 1, 0, 0, 0)))
        elif t == ECHO_REQ:
            self.s.sendall(msg(ECHO_REP, xid, body))
        elif t == BARRIER_REQ:
            self.s.sendall(msg(BARRIER_REP, xid))
        elif t == MP_REQ:
            self.answer(t, xid, struct.unpack("!H", body[:2])[0])

    def readable(self):
        data = self.s.recv(65536)
        if not data:
            sys.exit("%s: the controller closed" % self.name)
        self.buf += data
        while len(self.buf) >= 8:
            _, t, length, xid = struct.unpack("!BBHI", self.buf[:8])
            if len(self.buf) < length:
                break
            body, self.buf = self.buf[8:length], self.buf[length:]
            self.on_msg(t, xid, body)

    def flush_due(self, now):
        for d in [d for d in self.due if d[0] <= now]:
            self.due.remove(d)
            self.s.sendall(d[2])
            log.append((now - T0, self.name, "answered", d[1]))


def run():
    sw = [Switch("fast", 1, 0), Switch("slow", 2, DELAY)]
    sel = selectors.DefaultSelector()
    for s in sw:
        sel.register(s.s, selectors.EVENT_READ, s)
    deadline = time.monotonic() + 40
    while sw[0].asked < 4 and time.monotonic() < deadline:
        for key, _ in sel.select(0.02):
            key.data.readable()
        for s in sw:
            s.flush_due(time.monotonic())
    for e in log:
        print("%.3f %s %s %d" % e)
    return sw


def when(name, ev, n):
    """The time of the event; never (infinity) when it did not happen."""
    ts = [t for t, s, e, k in log if s == name and e == ev and k == n]
    return ts[0] if ts else float("inf")


def check(sw):
    fast, slow = sw
    if fast.asked < 4:
        sys.exit("fast was asked %d times in 40 s" % fast.asked)
    for k in (2, 3):
        if when("fast", "asked", k) < when("slow", "answered", k - 1):
            sys.exit("round %d began before slow answered round %d" %
                     (k, k - 1))
    # Round 3: slow never answers; the round waits out --stats-timeout.
    if when("fast", "asked", 4) < when("slow", "asked", 3) + TIMEOUT * 0.9:
        sys.exit("round 4 began before round 3 timed out")
    # The pause grows with the round's time (twice it; half of that is
    # asked here, --stats-interval being far shorter).
    gap = when("fast", "asked", 2) - when("slow", "answered", 1)
    if gap < DELAY:
        sys.exit("round 2 came %.3f s after round 1 ended, round 1 took "
                 "%.1f s" % (gap, DELAY))
    print("ok")


check(run())
