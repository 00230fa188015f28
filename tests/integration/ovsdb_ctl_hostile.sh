#!/bin/bash
# Hostile nodes against the controller's OVSDB manager (issue 24): 20
# unauthenticated nodes each sending 3 MB of a message they never finish
# held 60 MB (20 x 60 MB took 1.1 GB with the old 64 MiB message limit);
# now input over --ovsdb-max-buffered (16 MiB here) closes the node that
# passes it, a message over --ovsdb-max-message (4 MiB) closes its node,
# and one not whole --ovsdb-message-timeout (2 s) after its first byte
# closes its node, but a newline after a whole message begins none.  The
# controller's RSS and CPU stay bounded, a new node
# is still served (asked list_dbs), and the summary counts each.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"

P=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --ovsdb ptcp:$P:127.0.0.1 \
    --ovsdb-max-buffered 16777216 --ovsdb-message-timeout 2
CTL=$LAST_PID
wait_listen $P || fail "the controller does not listen for OVSDB"
"$PY" - $P $CTL <<'PYEOF' || fail "hostile OVSDB nodes"
import socket, sys, threading, time
port, pid = int(sys.argv[1]), int(sys.argv[2])

def rss_mb():
    for l in open("/proc/%d/status" % pid):
        if l.startswith("VmRSS:"):
            return int(l.split()[1]) / 1024.0

def cpu_s():
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / 100.0

def node(nbytes, out):
    s = socket.create_connection(("127.0.0.1", port))
    try:
        s.sendall(b'{"method":"update","params":[null,{"x":"' + b"a" * nbytes)
        s.settimeout(10)
        while s.recv(65536):
            pass
        out.append("closed")
    except OSError:
        out.append("closed")
    s.close()

base, cpu0, peak, closed = rss_mb(), cpu_s(), 0, []
node(5000000, closed)           # alone: over --ovsdb-max-message
ts = [threading.Thread(target=node, args=(3000000, closed)) for _ in range(20)]
for t in ts:
    t.start()
while any(t.is_alive() for t in ts):
    peak = max(peak, rss_mb())
    time.sleep(0.05)
grew, cpu = peak - base, cpu_s() - cpu0
print("21 hostile nodes: %d closed, the controller grew %.1f MB, %.2f CPU-s"
      % (len(closed), grew, cpu))
if len(closed) != 21:
    sys.exit("not every hostile node was closed")
if grew > 48:
    sys.exit("the controller grew %.1f MB" % grew)
if cpu > 10:
    sys.exit("the controller spent %.1f CPU-s" % cpu)
# A good node is served: the manager asks it list_dbs.
g = socket.create_connection(("127.0.0.1", port))
g.settimeout(5)
if b"list_dbs" not in g.recv(4096):
    sys.exit("a new node was not asked list_dbs")
print("a new node is asked list_dbs")
# A slow one: closed after the message deadline, though it trickles.
s = socket.create_connection(("127.0.0.1", port))
t0 = time.time()
s.sendall(b'{"method":')
s.settimeout(0.5)
gone = False
while time.time() - t0 < 10 and not gone:
    try:
        s.sendall(b" ")
        d = s.recv(65536)
        gone = d == b""
    except socket.timeout:
        continue
    except OSError:
        gone = True
print("a trickling node closed after %.1f s" % (time.time() - t0))
if not gone:
    sys.exit("a trickling node was held")
# A node that ends its messages with a newline has begun no message: it
# is kept past the deadline (2 s here).
w = socket.create_connection(("127.0.0.1", port))
w.settimeout(5)
w.sendall(b'{"method":"echo","params":[1],"id":"w1"}\n')
time.sleep(3.5)
data = b""
try:
    w.sendall(b'{"method":"echo","params":[2],"id":"w2"}\n')
    while b'"w2"' not in data:
        d = w.recv(65536)
        if not d:
            break
        data += d
except OSError:
    pass
if b'"w2"' not in data:
    sys.exit("a node whose messages end with a newline was closed")
print("a node whose messages end with a newline is kept")
PYEOF
stop_pid $CTL
line=$(grep -A3 '^ovsdb:' "$TMPD/ctl.log" | tr '\n' ' ')
echo "$line"
fig() { echo "$line" | sed -n "s/.* \([0-9]*\) $1.*/\1/p"; }
[ "$(fig 'input overflows')" -ge 1 ] || fail "input overflows not counted"
[ "$(fig oversized)" -ge 1 ] || fail "oversized not counted"
[ "$(fig 'slow messages')" -ge 1 ] || fail "slow messages not counted"
echo "ok"
