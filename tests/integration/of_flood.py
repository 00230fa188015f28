#!/usr/bin/python3
"""A hostile OpenFlow 1.3 peer that asks and never reads the answers.

  of_flood.py ctl PORT PID     a switch of the controller at PORT: HELLO,
                               then ECHO_REQUESTs of 60 000 bytes
  of_flood.py switch PORT PID  the controller of an sbsim switch that
                               connects to PORT: handshake, FLOWS flows,
                               then flow-stats requests (each answered with
                               every flow)

For SECS seconds it sends as fast as the peer takes, never reading, while
sampling the peer's (PID) resident memory.  It prints what it sent and the
growth, and fails when the process grew past LIMIT_MB: a peer that keeps
reading while its output grows grows by about as much as it answers.
"""
import errno, os, select, socket, struct, sys, time

SECS = 3.0
LIMIT_MB = 64
FLOWS = 2000
OFP13 = 4


def msg(t, xid, body=b""):
    return struct.pack("!BBHI", OFP13, t, 8 + len(body), xid) + body


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def read_msg(s):
    hdr = b""
    while len(hdr) < 8:
        chunk = s.recv(8 - len(hdr))
        if not chunk:
            raise SystemExit("FAIL: the peer closed during the handshake")
        hdr += chunk
    length = struct.unpack("!H", hdr[2:4])[0]
    body = b""
    while len(body) < length - 8:
        chunk = s.recv(length - 8 - len(body))
        if not chunk:
            raise SystemExit("FAIL: the peer closed during the handshake")
        body += chunk
    return hdr[1], struct.unpack("!I", hdr[4:8])[0], body


def wait_for(s, t):
    while True:
        typ, xid, body = read_msg(s)
        if typ == t:
            return body


def flow_mod(prio):
    # OFPFC_ADD in table 0, an empty OXM match, no instructions.
    body = struct.pack("!QQBBHHHIIIH2x", 0, 0, 0, 0, 0, 0, prio,
                       0xffffffff, 0xffffffff, 0xffffffff, 0)
    return msg(14, prio, body + struct.pack("!HH4x", 1, 4))


def flow_stats_request(xid):
    # MULTIPART_REQUEST OFPMP_FLOW: every table, any port and group.
    body = struct.pack("!HH4xB3xII4xQQ", 1, 0, 0xff, 0xffffffff,
                       0xffffffff, 0, 0) + struct.pack("!HH4x", 1, 4)
    return msg(18, xid, body)


def flood(s, pid, make):
    """Send make(i) for SECS seconds as the peer takes it."""
    s.setblocking(False)
    base = rss_kb(pid)
    sent = peak = 0
    i = 0
    pending = b""
    end = time.time() + SECS
    while time.time() < end:
        if not pending:
            i += 1
            pending = make(i)
        _, w, _ = select.select([], [s], [], 0.05)
        if not w:
            peak = max(peak, rss_kb(pid))
            continue
        try:
            n = s.send(pending)
        except OSError as e:
            if e.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
                continue
            raise SystemExit("FAIL: send: %s" % e)
        pending = pending[n:]
        sent += n
        if i % 64 == 0:
            peak = max(peak, rss_kb(pid))
    time.sleep(0.3)
    peak = max(peak, rss_kb(pid))
    grew = (peak - base) / 1024.0
    print("sent %.1f MB in %.0f s without reading; the peer's RSS grew "
          "%.1f MB (from %.1f MB)" % (sent / 1e6, SECS, grew, base / 1024.0))
    if grew > LIMIT_MB:
        raise SystemExit("FAIL: the peer grew %.1f MB (limit %d MB)"
                         % (grew, LIMIT_MB))
    return sent


def as_switch(port, pid):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(msg(0, 1))
    wait_for(s, 0)                  # the controller's HELLO
    payload = bytes(60000)
    flood(s, pid, lambda i: msg(2, i, payload))
    s.close()


def as_controller(port, pid):
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", port))
    ls.listen(1)
    ls.settimeout(10)
    s, _ = ls.accept()
    s.settimeout(10)
    wait_for(s, 0)                  # HELLO
    s.sendall(msg(0, 1) + msg(5, 2))
    wait_for(s, 6)                  # FEATURES_REPLY
    s.sendall(b"".join(flow_mod(p) for p in range(1, FLOWS + 1)) +
              msg(20, 3))
    wait_for(s, 21)                 # BARRIER_REPLY: the flows are in
    flood(s, pid, flow_stats_request)
    s.close()
    ls.close()


if __name__ == "__main__":
    role, port, pid = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    (as_switch if role == "ctl" else as_controller)(port, pid)
