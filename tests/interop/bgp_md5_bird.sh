#!/bin/bash
# TCP-MD5 (RFC 2385) with BIRD 2 (`password` in its protocol bgp blocks):
#   1. active peers (a dynamic neighbor range of BIRD) and the monitor with
#      the right key: BIRD accepts N*P updates from the peers and exports
#      N*P to the monitor; sbsim's report has learn DONE with N*P and
#      md5_connects for every session;
#   2. the same with another key: refused (md5_refused: exit 1 within the
#      timeout, connect TIMEOUT, kernel_md5_failure, said on stderr), and
#      BIRD has no session more than before;
#   3. a passive peer (ptcp:, BIRD connects to it) with the right key: BIRD
#      imports its P prefixes;
#   4. a passive peer with another key, held up by --duration: BIRD's
#      connects are dropped by sbsim's listener (kernel_md5_failure), and
#      the run, which would only have served, fails as in 2.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/bgp_lib.sh"
. "$(dirname "$0")/bgp_md5_lib.sh"
need_peer bird
N=2
P=500
NP=$((N * P))
KEY="sbsim-bird md5"
NET=$((RANDOM % 200 + 20))	# 127.NET.0.0/24: peers .1-.N, monitor .N+1
PORT=$(free_ports 3)	# BIRD's; the passive peers' are the next two
PAS=$((PORT + 1))
PAS2=$((PORT + 2))

# Timers short enough for a test: BIRD connects to the passive peers
# every second, and tries again a second after an error.
{
	bird_head
	cat <<CONF
template bgp md5tpl {
	multihop;
	password "$KEY";
	connect delay time 1;
	connect retry time 1;
	error wait time 1, 2;
}
protocol bgp p1 from md5tpl {
	local 127.0.0.1 port $PORT as 65000;
	neighbor range 127.$NET.0.0/24 as 65001;
	dynamic name "dyn";
	ipv4 { import all; export none; };
}
protocol bgp mon from md5tpl {
	local 127.0.0.1 port $PORT as 65000;
	neighbor 127.$NET.0.$((N + 1)) as 65002;
	ipv4 { import none; export all; next hop self; };
}
protocol bgp pas from md5tpl {
	local 127.0.0.1 as 65000;
	neighbor 127.0.0.1 port $PAS as 65003;
	ipv4 { import all; export none; };
}
protocol bgp pas2 from md5tpl {
	local 127.0.0.1 as 65000;
	neighbor 127.0.0.1 port $PAS2 as 65004;
	ipv4 { import all; export none; };
}
CONF
} >"$TMPD/bird.conf"
start_bird bird "$TMPD/bird.conf" "$PORT"
SOCK=$BIRD_SOCK
ACTIVE="--peers $N --prefixes $P --as 65001 --peer-as 65000
    --source 127.$NET.0.0/24 --controller tcp:127.0.0.1:$PORT"

# 1. The right key: BIRD's counts while the sessions are up (its dynamic
# protocols go with their sessions).
# shellcheck disable=SC2086
start_bg "$TMPD/right.log" "$SBSIM" bgp $ACTIVE --monitor \
    tcp:127.0.0.1:$PORT --monitor-as 65002 --timeout 20 \
    --md5-password "$KEY" --duration 30 -q --report "$TMPD/right.json"
SB=$LAST_PID
wait_until 20 bird_is "$SOCK" 'dyn[0-9]+' "$N $NP 0" ||
    fail "right key: BIRD's peers: $(bird_sum "$SOCK" 'dyn[0-9]+'), want $N up, $NP imported"
wait_until 20 bird_is "$SOCK" mon "1 0 $NP" ||
    fail "right key: BIRD's monitor protocol: $(bird_sum "$SOCK" mon), want 1 up, $NP exported"
sleep 1		# the monitor reads the last of them
stop_early "$SB" "right key" "$TMPD/right.json"
md5_right_report "$TMPD/right.json" $N $NP
echo "right key: BIRD learned $NP prefixes from $N keyed peers, the monitor $NP"

# 2. Another key: refused, and no new session at BIRD.
dyn_before=$(birdc -s "$SOCK" show protocols | grep -c '^dyn')
# shellcheck disable=SC2086
md5_wrong $ACTIVE --md5-password "not $KEY"
[ "$(birdc -s "$SOCK" show protocols | grep -c '^dyn')" = "$dyn_before" ] ||
    fail "wrong key: BIRD made a session"

# 3. A passive peer with the key: BIRD connects and imports.
# shellcheck disable=SC2086
start_bg "$TMPD/pas.log" "$SBSIM" bgp --peers 1 --prefixes $P --as 65003 \
    --peer-as 65000 --controller ptcp:$PAS:127.0.0.1 --timeout 20 \
    --md5-password "$KEY" --duration 30 -q --report "$TMPD/pas.json"
SB=$LAST_PID
wait_until 20 bird_is "$SOCK" pas "1 $P *" ||
    fail "passive: BIRD's pas: $(bird_sum "$SOCK" pas), want 1 up, $P imported"
stop_early "$SB" "passive" "$TMPD/pas.json"
report_check "$TMPD/pas.json" connect 1
echo "passive peer: BIRD connected with the key and imported $P prefixes"

# 4. A passive peer with another key: BIRD's connects are dropped.
md5_refused passive-wrong failure --peers 1 --prefixes $P --as 65004 \
    --peer-as 65000 --controller ptcp:$PAS2:127.0.0.1 \
    --md5-password "not $KEY" --duration 4
grep -q "the listening devices took no connection" "$TMPD/passive-wrong.err" ||
    fail "passive, wrong key: not said: $(cat "$TMPD/passive-wrong.err")"
bird_is "$SOCK" pas2 "0 0 0" || fail "passive, wrong key: BIRD's pas2 $(bird_sum "$SOCK" pas2)"

stop_bird "$BIRD_PID" "$SOCK"
echo "TCP-MD5 with BIRD: ok"
