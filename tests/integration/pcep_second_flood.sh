#!/bin/bash
# A PCC's address that connects again and again while its session is up
# (issue 24): each connect is a second session, refused with PCErr 9 and
# CLOSE (RFC 5440 section 7.15), and used to log two lines (2.3 MB/s of log
# from 3 000 connects).  Now the first is told once, on the session it
# collides with, and the rest counted: 3 000 connects leave a log of a few
# hundred bytes, and the summary counts them.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss

PP=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --pcep ptcp:$PP:127.0.0.1
CTL=$LAST_PID
wait_listen $PP || fail "the controller does not listen for PCEP"
"$PY" - $PP <<'PYEOF' || fail "the connects failed"
import socket, sys, time
port = int(sys.argv[1])
first = socket.create_connection(("127.0.0.1", port))   # its session
time.sleep(0.2)
for i in range(3000):
    s = socket.create_connection(("127.0.0.1", port))
    s.close()
# Each was answered: the controller is still there and the first
# connection has its Open.
first.settimeout(5)
if not first.recv(4):
    sys.exit(1)
PYEOF
# Until the controller has taken them all (its summary counts them).
i=0
while [ $i -lt 50 ] && [ "$(ss -Htn state established "( sport = :$PP )" | wc -l)" -gt 1 ]; do
	sleep 0.1
	i=$((i + 1))
done
stop_pid $CTL
bytes=$(grep -v '^pcep:\|^ *$' "$TMPD/ctl.log" | wc -c)
n=$(sed -n 's/.* \([0-9]*\) second sessions refused.*/\1/p' "$TMPD/ctl.log")
echo "3000 second sessions: $bytes bytes of log, $n counted"
grep -m3 'second session' "$TMPD/ctl.log"
[ "$bytes" -lt 4096 ] || fail "$bytes bytes of log for 3000 second sessions"
[ "${n:-0}" -ge 2900 ] || fail "second sessions refused: '$n', want about 3000"
echo "ok"
