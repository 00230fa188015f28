#!/bin/bash
# TCP-MD5 (RFC 2385) with FRR's bgpd (`neighbor X password P`, on a listen
# range's peer group and on a static passive neighbor), run standalone as
# in bgp_frr.sh (no zebra, its own config, pid file and vty socket):
#   1. the right key: N sbsim peers (the listen range) establish and FRR
#      receives N*P prefixes, the monitor (the static neighbor) gets N*P
#      from FRR; sbsim's report has learn DONE with N*P, every session's
#      connect carried the key;
#   2. another key: refused (md5_refused: exit 1 within the timeout,
#      connect TIMEOUT, kernel_md5_failure, said on stderr), FRR has no
#      session from it;
#   3. the key on all peers but one (--md5-password 0=): that peer is
#      refused as a missing key (kernel_md5_not_found), the others come up.
# FRR refuses a loopback NEXT_HOP: the peers send 192.0.2.1.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/bgp_lib.sh"
. "$(dirname "$0")/bgp_md5_lib.sh"
need_peer frr
N=3
P=500
NP=$((N * P))
KEY=sbsim-frr-md5
NET=$((RANDOM % 200 + 20))	# 127.NET.0.0/30: peers .1-.3, monitor .4
MON=127.$NET.0.$((N + 1))

PORT=$(free_ports 1)
{
	frr_router sbsim-frr-md5 "127.$NET.0.0/30" "$KEY"
	frr_monitor "$MON" "$KEY"
	frr_family "ipv4 unicast" SBSIM "$MON"
} >"$TMPD/bgpd.conf"
start_bgpd "$TMPD/bgpd.conf" "$PORT"

ARGS="--peers $N --prefixes $P --as 65001 --peer-as 65000
    --source 127.$NET.0.0/24 --controller tcp:127.0.0.1:$PORT
    --next-hop 192.0.2.1"

# 1. The right key: FRR's counts while the sessions are up.
# shellcheck disable=SC2086
start_bg "$TMPD/right.log" "$SBSIM" bgp $ARGS --monitor tcp:127.0.0.1:$PORT \
    --monitor-as 65002 --timeout 20 --md5-password "$KEY" --duration 30 -q \
    --report "$TMPD/right.json"
SB=$LAST_PID
wait_until 20 frr_is "$N $NP 1 $NP" ||
    fail "right key: FRR: $got, want $N $NP 1 $NP (up received monitor sent)"
sleep 1		# the monitor reads the last of them
stop_early "$SB" "right key" "$TMPD/right.json"
md5_right_report "$TMPD/right.json" $N $NP
echo "right key: FRR received $NP prefixes from $N keyed peers and sent the monitor $NP"

# FRR keeps a closed session's routes a while (graceful restart helper):
# wait for the sessions to go before the next runs count theirs.
down() {
	got=$(frr_sum)
	[ "${got%% *}" = 0 ]
}
wait_until 20 down || fail "FRR's sessions did not go down: $got"

# 2. Another key: refused, no session at FRR.
# shellcheck disable=SC2086
md5_wrong $ARGS --md5-password "not-$KEY"
down || fail "wrong key: FRR has sessions: $got"

# 3. Peer 0 without a key: it alone is refused.
# shellcheck disable=SC2086
md5_refused missing not_found $ARGS --md5-password "$KEY" --md5-password 0=
report=$(json_get "$TMPD/missing.json" "[p['items'] for p in r['phases'] if p['name'] == 'connect']")
[ "$report" = "[$((N - 1))]" ] || fail "missing key: connect items $report, want [$((N - 1))]"
grep -q "without a digest where a key was expected" "$TMPD/missing.err" ||
    fail "missing key: the kind not said: $(cat "$TMPD/missing.err")"

stop_pid "$BGPD_PID"
echo "TCP-MD5 with FRR: ok"
