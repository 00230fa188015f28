#!/usr/bin/python3
"""Run a process (PID) out of descriptors and back (fd_limit.sh).

  fd_flood.py PID KIND:PORT...

KIND is "of" (an OpenFlow listener: a new connection gets a HELLO) or
"http" (an HTTP server: a GET with admin:admin gets a status line).  It
opens up to 200 connections to each port and holds them, far past the
process's descriptor limit; over the next second the process must use
little CPU (it pauses accepting rather than spinning on EMFILE).  Then it
closes them all, and every listener must accept and answer again within
10 seconds.
"""
import base64, os, socket, sys, time

PID = int(sys.argv[1])
TARGETS = [(k, int(p)) for k, p in (a.split(":") for a in sys.argv[2:])]
HZ = os.sysconf("SC_CLK_TCK")


def cpu():
    with open("/proc/%d/stat" % PID) as f:
        v = f.read().rsplit(")", 1)[1].split()
    return (int(v[11]) + int(v[12])) / HZ


def nfds():
    return len(os.listdir("/proc/%d/fd" % PID))


def die(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)


def answers(kind, port):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    try:
        if kind == "of":
            h = s.recv(8)
            return len(h) == 8 and h[1] == 0        # OFPT_HELLO
        auth = base64.b64encode(b"admin:admin").decode()
        s.sendall(("GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: "
                   "Basic %s\r\nConnection: close\r\n\r\n" % auth).encode())
        return s.recv(64).startswith(b"HTTP/1.1 ")
    finally:
        s.close()


held = []
for _, port in TARGETS:
    for i in range(200):
        s = socket.socket()
        s.settimeout(2)
        try:
            s.connect(("127.0.0.1", port))
        except OSError:
            s.close()
            break       # the backlog is full: far past the limit
        held.append(s)
# The process accepts until EMFILE: wait for its descriptors to settle
# (not a fixed half second: a loaded host, or a sanitizer build, may still
# be accepting then, and that work is no spinning).
prev, deadline = -1, time.time() + 30
while time.time() < deadline:
    cur = nfds()
    if cur == prev:
        break
    prev = cur
    time.sleep(0.5)
c0 = cpu()
time.sleep(1.0)
used = cpu() - c0
print("held %d connections; CPU %.3f s over 1 s at the limit"
      % (len(held), used))
if used > 0.2:
    die("the process spins at the descriptor limit (%.3f s CPU in 1 s)"
        % used)
for s in held:
    s.close()

deadline = time.time() + 10
for kind, port in TARGETS:
    while True:
        try:
            if answers(kind, port):
                break
        except OSError:
            pass
        if time.time() > deadline:
            die("port %d did not accept again after descriptors returned"
                % port)
        time.sleep(0.2)
print("every listener accepts again")
