#!/bin/bash
# Interop with FRR's bgpd, run standalone (no zebra: -Z, no kernel routes,
# its own config, pid file and vty socket directory under $TMPD), counted
# through vtysh (show bgp ipv4 unicast summary json): N sbsim peers (a
# listen range, eBGP multihop) announce P prefixes each; sbsim's monitor
# (a passive static neighbor) receives what FRR re-advertises.
#   1. a run with --withdraw held up by --duration: the sessions establish,
#      the report has learn and withdraw DONE with N*P items (the monitor
#      saw FRR re-advertise and withdraw them all), and, the sessions
#      still up, FRR holds nothing from the peers;
#   2. a run without --withdraw: every peer's prefix count in FRR is P,
#      FRR sends N*P to the monitor; the report's learn phase is DONE with
#      N*P and the monitor holds N*P prefixes.
# FRR refuses a loopback NEXT_HOP ("Martian nexthop", NOTIFICATION UPDATE
# error / invalid NEXT_HOP): the peers send 192.0.2.1.  The withdraw run
# goes first: FRR is a graceful restart helper by default and would keep
# a closed session's routes as stale.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/bgp_lib.sh"
need_peer frr
N=3
P=2000
NP=$((N * P))
MON=127.1.0.$((N + 1))

PORT=$(free_ports 1)
{
	frr_router sbsim-frr 127.1.0.0/30
	frr_monitor "$MON"
	frr_family "ipv4 unicast" SBSIM "$MON"
} >"$TMPD/bgpd.conf"
start_bgpd "$TMPD/bgpd.conf" "$PORT"

ARGS="--peers $N --prefixes $P --as 65001 --peer-as 65000
    --controller tcp:127.0.0.1:$PORT --monitor tcp:127.0.0.1:$PORT
    --monitor-as 65002 --next-hop 192.0.2.1 --timeout 20 -q"

# 1. Announce, withdraw once the monitor has them all; stay up a while.
# shellcheck disable=SC2086
start_bg "$TMPD/sb-wd.log" "$SBSIM" bgp $ARGS --withdraw --duration 5 \
    --report "$TMPD/wd.json"
SB=$LAST_PID
wait_exit "$SB" 30 && [ "$EXIT_RC" -eq 0 ] ||
    fail "sbsim (withdraw run) exited $EXIT_RC"
report_ok "$TMPD/wd.json"
report_check "$TMPD/wd.json" connect $N
report_check "$TMPD/wd.json" learn $NP
report_check "$TMPD/wd.json" withdraw $NP
[ "$(counter "$TMPD/wd.json" notifications_received)" = 0 ] ||
    fail "FRR sent NOTIFICATIONs"
# The sessions were up until the end: FRR holds nothing now (the
# sessions' close removes nothing more).
got=$(frr_sum)
case $got in
*" 0 "[01]" 0") ;;
*) fail "FRR after the withdraw run: $got (up received monitor sent)" ;;
esac

# 2. Announce and stay.
# shellcheck disable=SC2086
start_bg "$TMPD/sb.log" "$SBSIM" bgp $ARGS --duration 60 \
    --report "$TMPD/learn.json"
SB=$LAST_PID
wait_until 20 frr_is "$N $NP 1 $NP" ||
    fail "FRR: $got, want $N $NP 1 $NP (up received monitor sent)"
sleep 0.5
frr_is "$N $NP 1 $NP" || fail "FRR later: $got"
stop_early "$SB" sbsim "$TMPD/learn.json"
report_check "$TMPD/learn.json" learn $NP
[ "$(counter "$TMPD/learn.json" monitor_prefixes)" = $NP ] ||
    fail "the monitor holds $(counter "$TMPD/learn.json" monitor_prefixes) prefixes"
stop_pid "$BGPD_PID"
echo "FRR learned $NP prefixes from $N peers and re-advertised them"
