#!/bin/bash
# A listener at the descriptor limit (issue 14): the embedded controller
# runs under a 64-descriptor limit (prlimit) with its OpenFlow listener and
# its RESTCONF server; a client opens 200 connections to each, far past
# the limit, and holds them.  Accepting must pause instead of spinning on
# EMFILE: the controller's CPU over a second stays low, its log has one
# "accepting paused" line per listener (not thousands), and once the client
# has closed everything both listeners accept again (the OpenFlow one says
# HELLO, the HTTP one answers a request).
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
need prlimit

port=$(free_ports 2)
ofp=$port
rcp=$((port + 1))
start_bg "$TMPD/ctl.log" prlimit --nofile=64:64 "$SBSIM" controller \
    --openflow ptcp:$ofp:127.0.0.1 --restconf 127.0.0.1:$rcp --stats-interval 0
ctl=$LAST_PID
wait_listen "$ofp" || fail "controller did not listen on $ofp"
wait_listen "$rcp" || fail "controller did not listen on $rcp"

"$PY" - "$ctl" "$ofp" "$rcp" <<'PYEOF' || fail "descriptor exhaustion"
import base64, os, socket, sys, time
pid, ofp, rcp = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
HZ = os.sysconf("SC_CLK_TCK")

def cpu():
    with open("/proc/%d/stat" % pid) as f:
        v = f.read().rsplit(")", 1)[1].split()
    return (int(v[11]) + int(v[12])) / HZ

def die(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)

held = []
for port in (ofp, rcp):
    for i in range(200):
        s = socket.socket()
        s.settimeout(2)
        try:
            s.connect(("127.0.0.1", port))
        except OSError:
            s.close()
            break       # the backlog is full: far past the limit
        held.append(s)
time.sleep(0.5)         # the controller accepts until EMFILE
c0 = cpu()
time.sleep(1.0)
used = cpu() - c0
print("held %d connections; controller CPU %.3f s over 1 s at the limit"
      % (len(held), used))
if used > 0.2:
    die("the controller spins at the descriptor limit (%.3f s CPU in 1 s)"
        % used)
for s in held:
    s.close()
held = []

def of_hello():
    s = socket.create_connection(("127.0.0.1", ofp), timeout=5)
    h = s.recv(8)
    s.close()
    return len(h) == 8 and h[1] == 0    # OFPT_HELLO

def http_ok():
    s = socket.create_connection(("127.0.0.1", rcp), timeout=5)
    auth = base64.b64encode(b"admin:admin").decode()
    s.sendall(("GET /restconf/modules HTTP/1.1\r\nHost: x\r\n"
               "Authorization: Basic %s\r\nConnection: close\r\n\r\n"
               % auth).encode())
    r = s.recv(64)
    s.close()
    return r.startswith(b"HTTP/1.1 ")

deadline = time.time() + 10
while True:
    try:
        if of_hello() and http_ok():
            break
    except OSError:
        pass
    if time.time() > deadline:
        die("the listeners did not accept again after descriptors returned")
    time.sleep(0.2)
print("both listeners accept again")
PYEOF

kill -0 "$ctl" 2>/dev/null || fail "the controller died"
n=$(grep -c "accepting paused" "$TMPD/ctl.log")
echo "log: $n 'accepting paused' lines, $(wc -l <"$TMPD/ctl.log") lines in all"
grep "accepting paused" "$TMPD/ctl.log" | head -3
[ "$n" -ge 1 ] || fail "no 'accepting paused' line in the log"
[ "$n" -le 4 ] || fail "$n 'accepting paused' lines: the log grows"
[ "$(wc -l <"$TMPD/ctl.log")" -lt 50 ] || fail "the log grows"
stop_pid "$ctl"
[ "$STOP_RC" -eq 0 ] || fail "controller exited $STOP_RC"
echo "ok"
