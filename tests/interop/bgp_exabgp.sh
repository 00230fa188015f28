#!/bin/bash
# Interop with ExaBGP 4: ExaBGP plays the controller.  It listens on a
# free port (one passive neighbor per sbsim peer), announces E static
# routes to every peer, and hands every UPDATE it receives to an API
# process (bgp_exabgp_count.py) that counts the prefixes in it.  sbsim's
# N peers announce P prefixes each, then withdraw them all (no monitor:
# the withdraw phase is done once the withdrawals are sent).  Checks: the
# sessions establish; ExaBGP received exactly N*P announced and N*P
# withdrawn prefixes; every sbsim peer received ExaBGP's E routes (report
# counter ipv4_prefixes_received = N*E), no NOTIFICATION either way.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/bgp_lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need exabgp
need ss
N=3
P=2000
NP=$((N * P))
E=5
COUNT=$(cd "$(dirname "$0")" && pwd)/bgp_exabgp_count.py

PORT=$(free_ports 1)
{
	echo "process count {"
	echo "	run $PY $COUNT $TMPD/count;"
	echo "	encoder json;"
	echo "}"
	for i in $(seq 1 $N); do
		cat <<EOF
neighbor 127.1.0.$i {
	router-id 192.0.2.254;
	local-address 127.0.0.1;
	local-as 65000;
	peer-as 65001;
	passive true;
	family { ipv4 unicast; }
	api {
		processes [ count ];
		receive { parsed; update; }
	}
	static {
		route 172.16.0.0/22 next-hop 192.0.2.2 split /24;
		route 172.16.8.0/24 next-hop 192.0.2.2 med 10 community [65000:1];
	}
}
EOF
	done
} >"$TMPD/exabgp.conf"

# ExaBGP's settings come from the environment: listen on 127.0.0.1:PORT,
# stay in the foreground without dropping privileges (the test may run as
# root), no CLI pipes, log to stdout.
start_bg "$TMPD/exabgp.log" env exabgp.daemon.daemonize=false \
    exabgp.daemon.drop=false exabgp.daemon.user="$(id -un)" \
    exabgp.tcp.bind=127.0.0.1 exabgp.tcp.port="$PORT" \
    exabgp.api.cli=false exabgp.log.destination=stdout \
    exabgp.daemon.pid="$TMPD/exabgp.pid" \
    exabgp "$TMPD/exabgp.conf"
EXA=$LAST_PID
wait_listen "$PORT" || fail "ExaBGP does not listen on $PORT"

# shellcheck disable=SC2086
start_bg "$TMPD/sb.log" "$SBSIM" bgp --peers $N --prefixes $P --as 65001 \
    --peer-as 65000 --controller "tcp:127.0.0.1:$PORT" --withdraw \
    --timeout 20 --duration 6 -q --report "$TMPD/sb.json"
SB=$LAST_PID
counted() {
	[ "$(cat "$TMPD/count" 2>/dev/null | cut -d' ' -f1,2)" = "$NP $NP" ]
}
wait_until 20 counted ||
    fail "ExaBGP received (announced withdrawn updates): $(cat "$TMPD/count" 2>/dev/null), want $NP $NP"
wait_exit "$SB" 20 && [ "$EXIT_RC" -eq 0 ] || fail "sbsim exited $EXIT_RC"
report_ok "$TMPD/sb.json"
report_check "$TMPD/sb.json" connect $N
report_check "$TMPD/sb.json" announce $NP
report_check "$TMPD/sb.json" withdraw $NP
[ "$(counter "$TMPD/sb.json" ipv4_prefixes_received)" = $((N * E)) ] ||
    fail "sbsim's peers received $(counter "$TMPD/sb.json" ipv4_prefixes_received) prefixes from ExaBGP, want $((N * E))"
[ "$(counter "$TMPD/sb.json" notifications_received)" = 0 ] ||
    fail "ExaBGP sent NOTIFICATIONs"
[ "$(counter "$TMPD/sb.json" notifications_sent)" = 0 ] ||
    fail "sbsim sent NOTIFICATIONs"
# Nothing more arrived after sbsim went.
sleep 0.3
counted || fail "ExaBGP received more: $(cat "$TMPD/count")"
stop_term "$EXA"
if grep -iE 'notification|error|Traceback' "$TMPD/exabgp.log"; then
	fail "ExaBGP logged errors"
fi
echo "ExaBGP received $NP prefixes and their withdrawal, sent $((N * E)) routes"
