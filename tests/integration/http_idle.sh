#!/bin/bash
# Connections that never send a byte (issue 24): 600 of them against the
# embedded controller's RESTCONF and 600 against --metrics-listen, both at
# their default cap of 512, do not lock clients out: a real request on
# each is answered within a few seconds (the oldest silent connection
# makes room; before, the cap paused accepting and the silent ones, whose
# head deadline only started at a first byte, held it until evhttp's 60 s
# timeout), and the controller's summary counts the ones closed for new
# ones.  The head deadline runs from the accept: the rest are closed
# after --restconf-header-timeout.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need curl
ulimit -n 4096 2>/dev/null || skip "cannot raise the descriptor limit"

ports=$(free_ports 3)
OFP=$ports RC=$((ports + 1)) MP=$((ports + 2))
start_bg "$TMPD/ctl.log" "$SBSIM" controller --openflow ptcp:$OFP:127.0.0.1 \
    --restconf 127.0.0.1:$RC --restconf-header-timeout 3
CTL=$LAST_PID
wait_listen $RC || fail "the controller does not serve RESTCONF"
start_bg "$TMPD/run.log" "$SBSIM" openflow --switches 1 \
    --controller tcp:127.0.0.1:$OFP --duration 40 \
    --metrics-listen 127.0.0.1:$MP
RUN=$LAST_PID
wait_listen $MP || fail "no --metrics-listen"

# flood PORT URL: 600 silent connections, then the request (curl, 5 s at
# most); prints the seconds it took.
flood() {
	"$PY" - "$1" "$2" <<'PYEOF'
import socket, subprocess, sys, time
port, url = int(sys.argv[1]), sys.argv[2]
idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(600)]
time.sleep(0.5)
t0 = time.time()
r = subprocess.run(["curl", "-s", "-m", "5", "-u", "admin:admin", "-o",
                    "/dev/null", "-w", "%{http_code}", url],
                   capture_output=True, text=True)
took = time.time() - t0
print("%s %.2f" % (r.stdout, took))
for c in idle:
    c.close()
PYEOF
}
read -r code secs < <(flood $RC \
    "http://127.0.0.1:$RC/rests/data/opendaylight-inventory:nodes?content=nonconfig")
echo "RESTCONF past 600 silent connections: $code in $secs s"
[ "$code" = 200 ] || fail "RESTCONF was not answered past 600 silent connections ($code)"
read -r code secs < <(flood $MP "http://127.0.0.1:$MP/metrics")
echo "metrics past 600 silent connections: $code in $secs s"
[ "$code" = 200 ] || fail "--metrics-listen was not answered past 600 silent connections ($code)"

# The deadline from the accept: 20 silent connections are closed by the
# controller after --restconf-header-timeout (3 s), not held.
"$PY" - $RC <<'PYEOF' || fail "silent connections were held past the head deadline"
import socket, sys, time
c = [socket.create_connection(("127.0.0.1", int(sys.argv[1])))
     for _ in range(20)]
t0 = time.time()
for s in c:
    s.settimeout(max(0.1, 15 - (time.time() - t0)))
    if s.recv(1) != b"":
        sys.exit(1)
print("20 silent connections closed after %.1f s" % (time.time() - t0))
PYEOF
stop_pid $RUN
stop_pid $CTL
line=$(grep '^restconf:' "$TMPD/ctl.log")
echo "$line"
n=$(echo "$line" | sed -n 's/.* \([0-9]*\) idle connections closed for new ones.*/\1/p')
[ "${n:-0}" -ge 88 ] || fail "idle connections closed: '$n', want at least 88"
echo "ok"
