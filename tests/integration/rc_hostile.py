#!/usr/bin/python3
"""Hostile RESTCONF clients against `sbsim controller --restconf`.

  rc_hostile.py PORT PID MAXCONNS

Each case prints what it saw and exits non-zero on the first failure:
- bodies: 20 clients without credentials each announce a 30 MB body (half
  with Expect: 100-continue) and push it; each with Expect gets its 401
  and no 100 Continue, and the controller (PID) grows by less than 40 MB.
- authorized: with credentials, Expect: 100-continue is answered with 100
  and then the request's own status (not 401).
- pipelined: two requests in one segment, then a third on the same
  connection, each answered in order.
- slowloris: 5 clients sending one head byte every 0.3 s are closed when
  the head deadline (1 s) passes.
- idle: MAXCONNS connections that never send a byte do not hold the server
  at its cap: a request on one more is answered at once, and the oldest
  idle one is closed to make room.
- cap: MAXCONNS connections inside a request (an announced body not sent)
  hold the server at its cap: a request on one more waits, and is answered
  once one of them closes.
"""
import base64, os, socket, sys, threading, time

PORT, PID, MAXCONNS = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
AUTH = "Authorization: Basic %s\r\n" % base64.b64encode(b"admin:admin").decode()
BODY_MB = 30
PATH = "/restconf/config/opendaylight-inventory:nodes"


def die(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)


def rss_mb():
    with open("/proc/%d/status" % PID) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def conn(timeout=5):
    s = socket.create_connection(("127.0.0.1", PORT), timeout=timeout)
    return s


def read_head(s):
    """One response's status line and headers (bytes), or b'' at EOF."""
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = s.recv(4096)
        if not chunk:
            return buf
        buf += chunk
    return buf


def read_response(s, buf=b""):
    """One whole response (Content-Length framed); the rest is returned."""
    while b"\r\n\r\n" not in buf:
        chunk = s.recv(4096)
        if not chunk:
            die("EOF inside a response head: %r" % buf[:200])
        buf += chunk
    head, rest = buf.split(b"\r\n\r\n", 1)
    n = 0
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.partition(b":")
        if k.strip().lower() == b"content-length":
            n = int(v)
    while len(rest) < n:
        chunk = s.recv(65536)
        if not chunk:
            die("EOF inside a response body")
        rest += chunk
    return head, rest[n:]


def body_client(expect, out):
    s = conn(10)
    head = ("POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
            "\r\nContent-Length: %d\r\n%s\r\n"
            % (PATH, BODY_MB * 1000000,
               "Expect: 100-continue\r\n" if expect else ""))
    s.sendall(head.encode())
    if expect:
        out.append(read_head(s))
        s.close()
        return
    chunk = bytes(1000000)
    try:
        for _ in range(BODY_MB):
            s.sendall(chunk)
    except OSError:
        pass            # refused and closed: what the case wants
    s.close()


def case_bodies():
    base = rss_mb()
    peak = base
    seen = []
    threads = [threading.Thread(target=body_client, args=(i % 2 == 0, seen))
               for i in range(20)]
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        peak = max(peak, rss_mb())
        time.sleep(0.02)
    for t in threads:
        t.join()
    for h in seen:
        if b"100 Continue" in h:
            die("100 Continue without credentials: %r" % h[:80])
        if not h.startswith(b"HTTP/1.1 401"):
            die("a body without credentials got %r" % h[:80])
    grew = peak - base
    print("bodies: 20 clients x %d MB without credentials, %d answered 401 "
          "before the body; the controller grew %.1f MB" %
          (BODY_MB, len(seen), grew))
    if grew > 40:
        die("the controller grew %.1f MB reading bodies it refuses" % grew)


def case_authorized():
    s = conn()
    body = b'{"x":'
    s.sendall(("POST %s HTTP/1.1\r\nHost: x\r\n%sContent-Type: "
               "application/json\r\nContent-Length: %d\r\nExpect: "
               "100-continue\r\n\r\n" % (PATH, AUTH, len(body))).encode())
    h = read_head(s)
    if not h.startswith(b"HTTP/1.1 100"):
        die("with credentials, Expect got %r, not 100 Continue" % h[:80])
    s.sendall(body)
    head, _ = read_response(s, h.split(b"\r\n\r\n", 1)[1])
    if head.startswith(b"HTTP/1.1 401") or not head.startswith(b"HTTP/1.1 "):
        die("the authorized request got %r" % head[:80])
    print("authorized: 100 Continue, then %s" % head.split(b"\r\n")[0].decode())
    s.close()


def case_pipelined():
    s = conn()
    req = ("GET /restconf/operational/opendaylight-inventory:nodes HTTP/1.1\r\nHost: x\r\n%s\r\n" % AUTH).encode()
    s.sendall(req + req)
    rest = b""
    for i in range(2):
        head, rest = read_response(s, rest)
        if not head.startswith(b"HTTP/1.1 200"):
            die("pipelined request %d got %r" % (i + 1, head[:80]))
    s.sendall(req)
    head, rest = read_response(s, rest)
    if not head.startswith(b"HTTP/1.1 200"):
        die("the third request got %r" % head[:80])
    print("pipelined: 3 requests on one connection answered 200")
    s.close()


def slow_client(out):
    s = conn()
    t0 = time.time()
    line = b"GET /restconf/operational/opendaylight-inventory:nodes HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100
    try:
        for b in line:
            s.send(bytes([b]))
            time.sleep(0.3)
            if time.time() - t0 > 10:
                break
        s.settimeout(5)
        r = s.recv(1)
    except OSError:
        r = b""
    out.append((time.time() - t0, r))
    s.close()


def case_slowloris():
    seen = []
    threads = [threading.Thread(target=slow_client, args=(seen,))
               for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for secs, r in seen:
        if secs > 5 or r:
            die("a slow head held its connection %.1f s (got %r)" % (secs, r))
    print("slowloris: 5 slow heads closed after %s s" %
          ", ".join("%.1f" % x for x, _ in sorted(seen)))


def case_idle():
    idle = [conn() for _ in range(MAXCONNS)]
    time.sleep(0.3)
    s = conn()
    t0 = time.time()
    s.sendall(("GET /restconf/operational/opendaylight-inventory:nodes HTTP/1.1\r\nHost: x\r\n%s"
               "Connection: close\r\n\r\n" % AUTH).encode())
    head, _ = read_response(s)
    took = time.time() - t0
    if not head.startswith(b"HTTP/1.1 200"):
        die("past %d idle connections: %r" % (MAXCONNS, head[:80]))
    idle[0].settimeout(5)
    try:
        gone = idle[0].recv(1) == b""
    except OSError:
        gone = True
    if not gone:
        die("the oldest idle connection was not closed")
    print("idle: %d silent connections, a request on one more answered in "
          "%.2f s, the oldest closed" % (MAXCONNS, took))
    s.close()
    for c in idle:
        c.close()


def busy_conn():
    """A connection inside a request: its head is whole, its body awaited."""
    c = conn()
    c.sendall(("POST %s HTTP/1.1\r\nHost: x\r\n%sContent-Type: "
               "application/json\r\nContent-Length: 10\r\n\r\n"
               % (PATH, AUTH)).encode())
    return c


def case_cap():
    idle = [busy_conn() for _ in range(MAXCONNS)]
    time.sleep(0.3)
    s = conn()
    s.sendall(("GET /restconf/operational/opendaylight-inventory:nodes HTTP/1.1\r\nHost: x\r\n%s"
               "Connection: close\r\n\r\n" % AUTH).encode())
    s.settimeout(1.0)
    try:
        early = s.recv(1)
    except socket.timeout:
        early = None
    if early is not None:
        die("a connection past the cap of %d was served: %r" %
            (MAXCONNS, early))
    idle.pop().close()
    s.settimeout(5)
    head, _ = read_response(s)
    if not head.startswith(b"HTTP/1.1 200"):
        die("past the cap, once one closed: %r" % head[:80])
    print("cap: %d connections inside a request held one more off until one closed"
          % MAXCONNS)
    s.close()
    for c in idle:
        c.close()


for name in (os.environ.get("RC_CASES") or
             "bodies authorized pipelined slowloris idle cap").split():
    globals()["case_" + name]()
