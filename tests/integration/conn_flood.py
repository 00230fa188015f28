#!/usr/bin/python3
"""Many connection attempts against one listener (fd_25k.sh).

  conn_flood.py PID KIND:PORT TOTAL [HOLD]

Makes TOTAL connection attempts to 127.0.0.1:PORT, held HOLD seconds
(default 2) once all are made, then closed.  One process may hold at most
20 000 descriptors, so the attempts are spread over children of at most
8 000 sockets each, and each child binds a source address of its own
(127.77.K.1) so that no (source, destination) pair runs out of ephemeral
ports.  Connects are non-blocking: past the target's limit and its backlog
the SYNs go unanswered, and an attempt stays in SYN-SENT until closed.

While held, once the target's descriptor count has settled, its CPU over
one second must stay low (accepting paused, not spinning on EMFILE).
After the close the listener must answer again within 15 s: KIND "of"
(a HELLO arrives) or "http" (a GET /metrics gets a status line).

Prints "attempts N established N target_fds N cpu S" and exits 0, or
prints FAIL and exits 1.
"""
import errno, os, select, socket, sys, time

PER_CHILD = 8000
IP_BIND_ADDRESS_NO_PORT = 24        # linux/in.h; not in Python's socket

PID = int(sys.argv[1])
KIND, PORT = sys.argv[2].split(":")
PORT = int(PORT)
TOTAL = int(sys.argv[3])
HOLD = float(sys.argv[4]) if len(sys.argv) > 4 else 2.0
HZ = os.sysconf("SC_CLK_TCK")


def die(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)


def cpu():
    with open("/proc/%d/stat" % PID) as f:
        v = f.read().rsplit(")", 1)[1].split()
    return (int(v[11]) + int(v[12])) / HZ


def nfds():
    return len(os.listdir("/proc/%d/fd" % PID))


def child(k, n, wfd, rfd):
    """Make n attempts from 127.77.k.1, report, hold until told, close."""
    src = "127.77.%d.1" % k
    held, made = [], 0
    for _ in range(n):
        s = socket.socket()
        s.setblocking(False)
        try:
            s.setsockopt(socket.IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1)
            s.bind((src, 0))
            e = s.connect_ex(("127.0.0.1", PORT))
        except OSError as ex:
            e = ex.errno
        if e not in (0, errno.EINPROGRESS):
            s.close()
            continue
        made += 1
        held.append(s)
    time.sleep(1.0)     # the SYNs the backlog takes are answered by now
    est = 0
    p = select.poll()
    for s in held:
        p.register(s, select.POLLOUT)
    for fd, ev in p.poll(0):
        s = socket.socket(fileno=os.dup(fd))
        if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0:
            est += 1
        s.close()
    os.write(wfd, ("%d %d\n" % (made, est)).encode())
    os.read(rfd, 1)     # hold until the parent says
    for s in held:
        s.close()
    os._exit(0)


def answers():
    s = socket.create_connection(("127.0.0.1", PORT), timeout=3)
    try:
        if KIND == "of":
            h = s.recv(8)
            return len(h) == 8 and h[1] == 0        # OFPT_HELLO
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n"
                  b"Connection: close\r\n\r\n")
        return s.recv(64).startswith(b"HTTP/1.1 200")
    finally:
        s.close()


kids = []
left, k = TOTAL, 0
while left > 0:
    n = min(PER_CHILD, left)
    up_r, up_w = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(up_r)
        os.close(go_w)
        child(k, n, up_w, go_r)
    os.close(up_w)
    os.close(go_r)
    kids.append((pid, os.fdopen(up_r), go_w))
    left -= n
    k += 1

made = est = 0
for _, up, _ in kids:
    line = up.readline().split()
    if len(line) != 2:
        die("a flooding child died")
    made += int(line[0])
    est += int(line[1])

# The target accepts until its limit; wait for its count to settle.
prev, deadline = -1, time.time() + 30
while time.time() < deadline:
    cur = nfds()
    if cur == prev:
        break
    prev = cur
    time.sleep(0.5)
fds = nfds()
c0 = cpu()
time.sleep(1.0)
used = cpu() - c0
print("attempts %d established %d target_fds %d cpu %.2f"
      % (made, est, fds, used), flush=True)
time.sleep(max(0.0, HOLD - 1.0))
for _, _, go in kids:
    os.write(go, b"x")
for pid, _, _ in kids:
    os.waitpid(pid, 0)
if used > 0.3:
    die("the target spins at the descriptor limit (%.2f s CPU in 1 s)"
        % used)
deadline = time.time() + 15
while True:
    try:
        if answers():
            break
    except OSError:
        pass
    if time.time() > deadline:
        die("port %d did not answer again after the flood closed" % PORT)
    time.sleep(0.2)
print("answers again", flush=True)
