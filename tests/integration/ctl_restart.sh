#!/bin/bash
# A controller killed (SIGKILL) mid-run and restarted on the same ports
# (issue 14, "Survival"; guide.md "When the controller dies").  The
# switches reconnect with backoff and the run goes on; its report says
# exactly what was lost:
#  A. The embedded controller, restarted with the same options, pushes
#     every flow again: program and confirm DONE with every flow, the
#     disconnects counted, exit 0.
#  B. Restarted without its work (no --switches, --flows-per-switch): the
#     flows pushed before the kill are all the switches get: program
#     TIMEOUT with exactly those items of the target, exit 1, a JUnit
#     failure.
#  C. Flows pushed through the northbound (RESTCONF): the requests the
#     dead controller did not answer are not retried; nb_program TIMEOUT
#     with fewer items than requests, the requests counted in
#     nb_transport_errors, and a log line that says they are lost; the
#     flows the controller never had do not count as deletions confirmed
#     (confirm_delete has at most the flows confirm saw).
# The kill happens once the run's --metrics-listen shows the push under
# way and not over.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
need curl

# items METRICS_PORT PHASE: the phase's items so far (0 when unreadable).
items() {
	curl -s "http://127.0.0.1:$1/metrics" 2>/dev/null |
	    sed -n "s/^sbsim_phase_items{phase=\"$2\",[^}]*} \([0-9]*\).*/\1/p" |
	    head -1 | grep . || echo 0
}

# kill_mid METRICS_PORT PHASE FROM TARGET PID: SIGKILL PID once PHASE has
# FROM items or more (10 s at most); fails when it is already over.
kill_mid() {
	local i=0 n=0
	while [ $i -lt 200 ]; do
		n=$(items "$1" "$2")
		[ "$n" -ge "$3" ] && break
		sleep 0.05
		i=$((i + 1))
	done
	kill -KILL "$5"
	wait "$5" 2>/dev/null
	[ "$n" -ge "$3" ] || fail "$2 did not reach $3 items ($n)"
	[ "$n" -lt "$4" ] || fail "$2 was over ($n of $4) before the kill"
	echo "killed the controller at $n of $4 $2 items"
}

# report FILE EXPR...: each Python expression true of the report r, with
# ph (phases by name) and c (counters).
report() {
	local f=$1
	shift
	"$PY" - "$f" "$@" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
ph = {p["name"]: p for p in r["phases"]}
c = r["counters"]
for e in sys.argv[2:]:
    if not eval(e):
        print("%s: not %s" % (sys.argv[1], e), file=sys.stderr)
        print({k: (p["state"], p["items"], p["target"])
               for k, p in ph.items()}, c, file=sys.stderr)
        sys.exit(1)
print("%s: %s" % (sys.argv[1], ", ".join(
    "%s %s %d/%d" % (k, p["state"], p["items"], p["target"])
    for k, p in ph.items())))
PYEOF
}

N=4
K=25000
T=$((N * K))
port=$(free_ports 3)
OF=$port
RC=$((port + 1))
MP=$((port + 2))
PUSH="--switches $N --flows-per-switch $K --batch 1 --window 1 --read-stats"

# A and B: the embedded controller pushes; killed, restarted.
for c in A B; do
	start_bg "$TMPD/ctl-$c.log" "$SBSIM" controller \
	    --openflow ptcp:$OF:127.0.0.1 $PUSH
	ctl=$LAST_PID
	wait_listen $OF || fail "$c: controller did not listen"
	start_bg "$TMPD/sw-$c.log" "$SBSIM" openflow --switches $N \
	    --controller tcp:127.0.0.1:$OF --expect-flows $T --timeout 8 \
	    --backoff 100:500 --metrics-listen 127.0.0.1:$MP \
	    --report "$TMPD/$c.json" --junit "$TMPD/$c.xml" -q
	sw=$LAST_PID
	kill_mid $MP program 2000 $T "$ctl"
	sleep 0.5
	if [ $c = A ]; then
		start_bg "$TMPD/ctl-$c-2.log" "$SBSIM" controller \
		    --openflow ptcp:$OF:127.0.0.1 $PUSH
	else
		start_bg "$TMPD/ctl-$c-2.log" "$SBSIM" controller \
		    --openflow ptcp:$OF:127.0.0.1
	fi
	ctl=$LAST_PID
	wait_exit "$sw" 60 || fail "$c: the switches' run did not end"
	rc=$EXIT_RC
	stop_pid "$ctl"
	grep -q "^controller: $N switches," "$TMPD/ctl-$c-2.log" ||
	    fail "$c: the switches did not reconnect"
	if [ $c = A ]; then
		[ $rc -eq 0 ] || fail "A: exit $rc with every flow pushed again"
		report "$TMPD/A.json" 'r["ok"] is True' \
		    "ph['program']['state'] == 'DONE'" \
		    "ph['program']['items'] == $T" \
		    "ph['confirm']['state'] == 'DONE'" \
		    "c['disconnects'] == $N" \
		    "c['flows_added'] == $T" "c.get('flows_modified', 0) > 0" ||
		    fail "A: report"
	else
		[ $rc -eq 1 ] || fail "B: exit $rc with flows lost"
		report "$TMPD/B.json" 'r["ok"] is False' \
		    "ph['program']['state'] == 'TIMEOUT'" \
		    "0 < ph['program']['items'] < $T" \
		    "ph['program']['target'] == $T" \
		    "ph['program']['items'] == c['flows_added']" \
		    "c['disconnects'] == $N" || fail "B: report"
		grep -q '<failure' "$TMPD/B.xml" || fail "B: no JUnit failure"
	fi
	echo "$c: ok"
done

# C: flows pushed through RESTCONF; the controller killed, restarted.
F=8000
CTL="--openflow ptcp:$OF:127.0.0.1 --restconf 127.0.0.1:$RC --stats-interval 0.2"
start_bg "$TMPD/ctl-C.log" "$SBSIM" controller $CTL
ctl=$LAST_PID
wait_listen $RC || fail "C: RESTCONF did not listen"
start_bg "$TMPD/sw-C.log" "$SBSIM" openflow --switches $N \
    --controller tcp:127.0.0.1:$OF --northbound odl:http://127.0.0.1:$RC \
    --flows $F --timeout 8 --backoff 100:500 \
    --metrics-listen 127.0.0.1:$MP --report "$TMPD/C.json"
sw=$LAST_PID
kill_mid $MP nb_program 300 $F "$ctl"
sleep 0.5
start_bg "$TMPD/ctl-C-2.log" "$SBSIM" controller $CTL
ctl=$LAST_PID
wait_exit "$sw" 60 || fail "C: the northbound run did not end"
[ "$EXIT_RC" -eq 1 ] || fail "C: exit $EXIT_RC with flows lost"
stop_pid "$ctl"
grep -q "^controller: $N switches," "$TMPD/ctl-C-2.log" ||
    fail "C: the switches did not reconnect"
report "$TMPD/C.json" 'r["ok"] is False' \
    "ph['nb_program']['state'] == 'TIMEOUT'" \
    "ph['nb_program']['target'] == $F" \
    "0 < ph['nb_program']['items'] < $F" \
    "ph['program']['state'] == 'TIMEOUT'" \
    "c['nb_transport_errors'] > 0" \
    "c['nb_http_2xx'] + c['nb_http_4xx'] + c.get('nb_http_5xx', 0) + c['nb_transport_errors'] == c['nb_requests']" \
    "ph['confirm_delete']['state'] == 'TIMEOUT'" \
    "ph['confirm_delete']['items'] <= ph['confirm']['items']" \
    "c['disconnects'] == $N" || fail "C: report"
n=$(grep -c "no answer from 127.0.0.1:$RC.*not retried: its items are lost" \
    "$TMPD/sw-C.log")
[ "$n" -ge 1 ] || fail "C: the lost requests are not in the log"
[ "$n" -le 3 ] || fail "C: $n lines about lost requests: the log grows"
echo "C: ok"
echo "ok"
