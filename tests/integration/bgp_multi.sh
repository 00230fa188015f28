#!/bin/bash
# sbsim bgp against several speakers (--controller EP,EP,EP): three
# embedded controllers, each peer a session to every one; every speaker's
# Loc-RIB holds every prefix, the per-speaker phases are DONE; one speaker
# killed while the sessions are held: the others keep every prefix and the
# report counts the lost sessions.  Then --fault churn on a schedule,
# counted exactly at both ends, the speaker holding every prefix after it.
# Bad command lines.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
need curl
N=10		# peers
P=200		# prefixes per peer
TOTAL=$((N * P))
NET=$((RANDOM % 200 + 20))
SRC=127.$NET.0.0/24
T4="tables=bgp-types:ipv4-address-family,bgp-types:unicast-subsequent-address-family"

# loc_rib RESTCONF_PORT: the prefixes in the speaker's IPv4 Loc-RIB.
loc_rib() {
	curl -s -u admin:admin "http://127.0.0.1:$1/rests/data/bgp-rib:bgp-rib/rib=example-bgp-rib/loc-rib/$T4/ipv4-routes" |
	    grep -o '"prefix":"' | wc -l
}

# wait_rib RESTCONF_PORT COUNT: until the Loc-RIB holds COUNT (10 s at
# most); 1 when it never did.
wait_rib() {
	local i=0
	while [ "$(loc_rib "$1")" -ne "$2" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ $i -lt 100 ]
}

usage() {
	local eps="" k
	for k in 1 2 3 4 5 6 7 8 9; do
		eps="$eps,tcp:127.0.0.1:$((1790 + k))"
	done
	bad_usage bgp "at most 8 speakers" --peers 1 --as 65001 \
	    --controller "${eps#,}"
	bad_usage bgp "--controller" --peers 1 --as 65001 \
	    --controller tcp:127.0.0.1:179,tcp:nowhere
	bad_usage bgp "several speakers: peers connect to each over plain TCP" \
	    --peers 1 --as 65001 --controller tcp:127.0.0.1:179,ptcp:1179
	bad_usage bgp "names no second speaker" --peers 1 --as 65001 \
	    --controller tcp:127.0.0.1:179,
	bad_usage bgp "churn N from 1 to 100000" --peers 1 --as 65001 \
	    --prefixes 10 --controller tcp:127.0.0.1:179 --fault churn@1/0
	bad_usage bgp "N is more than the 10 prefixes each peer announces" \
	    --peers 1 --as 65001 --prefixes 10 \
	    --controller tcp:127.0.0.1:179 --fault churn@1/11
	bad_usage bgp "churn needs --prefixes" --peers 1 --as 65001 \
	    --controller tcp:127.0.0.1:179 --fault churn:2
	[ $FAILS -eq 0 ] || fail "$FAILS usage cases"
}

cluster() {
	local port rc k ctl=() eps="" bgp
	port=$(free_ports 6)
	for k in 0 1 2; do
		rc=$((port + 3 + k))
		start_bg "$TMPD/ctl$k.log" "$SBSIM" controller \
		    --bgp ptcp:$((port + k)):127.0.0.1 --as 65000 \
		    --restconf 127.0.0.1:$rc
		ctl[k]=$LAST_PID
		wait_listen $((port + k)) && wait_listen "$rc" ||
		    fail "controller $k did not listen"
		eps="$eps,tcp:127.0.0.1:$((port + k))"
	done
	# The sessions are held 15 s after the last UPDATE (--settle): the
	# RIBs are read and the third speaker killed meanwhile.
	start_bg "$TMPD/bgp.log" timeout 90 "$SBSIM" bgp --peers $N \
	    --prefixes $P --as 65001 --peer-as 65000 --source "$SRC" \
	    --controller "${eps#,}" --settle 15 --timeout 20 \
	    --report "$TMPD/r.json" -q
	bgp=$LAST_PID
	for k in 0 1 2; do
		wait_rib $((port + 3 + k)) $TOTAL ||
		    fail "speaker $k holds $(loc_rib $((port + 3 + k))) prefixes, not $TOTAL"
	done
	kill -KILL "${ctl[2]}"
	wait "${ctl[2]}" 2>/dev/null
	sleep 1
	for k in 0 1; do
		[ "$(loc_rib $((port + 3 + k)))" -eq $TOTAL ] ||
		    fail "speaker $k lost prefixes when speaker 2 went"
	done
	wait_exit "$bgp" 60 || fail "sbsim bgp did not end"
	[ "$EXIT_RC" -eq 0 ] || fail "sbsim bgp exited $EXIT_RC"
	"$PY" - "$TMPD/r.json" $N $P <<'PYEOF' || fail "cluster report"
import json, sys
r = json.load(open(sys.argv[1]))
n, p = int(sys.argv[2]), int(sys.argv[3])
ph = {x["name"]: x for x in r["phases"]}
want = {"connect": 3 * n, "announce": 3 * n * p}
for k in (1, 2, 3):
    want["connect.c%d" % k] = n
    want["announce.c%d" % k] = n * p
for name, items in want.items():
    x = ph.get(name)
    if x is None or x["state"] != "DONE" or x["items"] != items:
        sys.exit("phase %s: %r (want DONE, %d items)" % (name, x, items))
c = r["counters"]
lost = {"sessions_lost": n, "sessions_lost.c1": 0, "sessions_lost.c2": 0,
        "sessions_lost.c3": n, "prefixes_sent": 3 * n * p}
for k, v in lost.items():
    if c.get(k) != v:
        sys.exit("counter %s = %r, want %d" % (k, c.get(k), v))
if r.get("ok") is not True:
    sys.exit("ok is %r" % r.get("ok"))
PYEOF
	for k in 0 1; do
		stop_pid "${ctl[k]}"
		grep -q "bgp: $N sessions, .* $TOTAL prefixes and 0 withdrawals received" \
		    "$TMPD/ctl$k.log" || fail "speaker $k: $(tail -2 "$TMPD/ctl$k.log")"
	done
}

# --fault churn@T1,T2,T3/7: three peers each withdraw 7 prefixes and
# announce them again; the speaker receives exactly those withdrawals and
# ends holding every prefix.
churn() {
	local port rc ctl bgp i
	port=$(free_ports 2)
	rc=$((port + 1))
	start_bg "$TMPD/ctl-churn.log" "$SBSIM" controller \
	    --bgp ptcp:$port:127.0.0.1 --as 65000 --restconf 127.0.0.1:$rc
	ctl=$LAST_PID
	wait_listen "$port" && wait_listen "$rc" || fail "churn: controller"
	start_bg "$TMPD/bgp-churn.log" timeout 60 "$SBSIM" bgp --peers 4 \
	    --prefixes 100 --as 65001 --peer-as 65000 --source "$SRC" \
	    --controller tcp:127.0.0.1:$port --fault churn@1.5,2,2.5/7 \
	    --settle 10 --timeout 10 --report "$TMPD/churn.json" -v
	bgp=$LAST_PID
	i=0
	while [ "$(grep -c ': churn: 7 prefixes withdrawn' \
	    "$TMPD/bgp-churn.log")" -lt 3 ] && [ $i -lt 150 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ $i -lt 150 ] || fail "churn: three churns never logged"
	sleep 0.5
	wait_rib "$rc" 400 || fail "churn: the speaker holds $(loc_rib "$rc") prefixes, not 400"
	wait_exit "$bgp" 30 || fail "churn: sbsim bgp did not end"
	[ "$EXIT_RC" -eq 0 ] || fail "churn: sbsim bgp exited $EXIT_RC"
	"$PY" - "$TMPD/churn.json" <<'PYEOF' || fail "churn: report"
import json, sys
r = json.load(open(sys.argv[1]))
c = r["counters"]
want = {"fault_churn": 3, "fault_churn_missed": 0, "prefixes_churned": 21,
        "withdrawals_sent": 0, "prefixes_sent": 400}
for k, v in want.items():
    if c.get(k) != v:
        sys.exit("counter %s = %r, want %d" % (k, c.get(k), v))
if r.get("ok") is not True:
    sys.exit("ok is %r" % r.get("ok"))
PYEOF
	stop_pid "$ctl"
	grep -q "bgp: 4 sessions, .* 421 prefixes and 21 withdrawals received" \
	    "$TMPD/ctl-churn.log" || fail "churn: the speaker's counts: $(tail -2 \
	    "$TMPD/ctl-churn.log")"
}

run_case usage usage
run_case cluster cluster
run_case churn churn
exit 0
