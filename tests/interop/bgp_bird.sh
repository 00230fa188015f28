#!/bin/bash
# Interop with BIRD 2: N sbsim peers (dynamic BGP neighbors of a BIRD
# instance, eBGP, multihop on loopback) announce P prefixes each, and
# sbsim's monitor peer (a static neighbor of BIRD) receives what BIRD
# re-advertises.  For IPv4, IPv6 (MP-BGP over an IPv4 session) and
# ADD-PATH, each on its own BIRD:
#   1. a run with --withdraw, held up by --duration: BIRD's peer protocols
#      accept exactly N*P updates and as many withdraws and end with 0
#      routes while the sessions are still up; the monitor protocol
#      exported N*P routes and withdrew them; sbsim's report has learn
#      and withdraw DONE with N*P items (as seen by its monitor), ok true;
#   2. a run without --withdraw: BIRD's imported counts (birdc show
#      protocols all: the peers' "Routes: N imported") sum to N*P and stay
#      there, the monitor protocol exports N*P, the report's learn phase
#      is DONE with N*P and the monitor holds N*P prefixes.
# The withdraw run goes first: when sbsim stops, it closes its sessions
# and, graceful restart being agreed, BIRD keeps a closed session's routes
# as stale for the restart time (120 s); after a withdraw there are none.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/bgp_lib.sh"
need_peer bird
N=3
P=2000
NP=$((N * P))

# bird_conf FILE PORT AFI PEER_CHANNEL_EXTRA MON_CHANNEL_EXTRA
bird_conf() {
	{
		bird_head
		cat <<EOF
template bgp peers {
	local 127.0.0.1 port $2 as 65000;
	multihop;
	$3 { import all; export none; $4 };
}
protocol bgp p1 from peers {
	neighbor range 127.1.0.0/24 as 65001;
	dynamic name "dyn";
}
protocol bgp mon {
	local 127.0.0.1 port $2 as 65000;
	neighbor 127.1.0.$((N + 1)) as 65002;
	multihop;
	$3 { import none; export all; $5 };
}
EOF
	} >"$1"
}

# scenario NAME AFI PEER_CHANNEL_EXTRA MON_CHANNEL_EXTRA SBSIM_ARGS...
scenario() {
	local name=$1 afi=$2 pch=$3 mch=$4 port sb
	shift 4
	port=$(free_ports 1)
	bird_conf "$TMPD/$name.conf" "$port" "$afi" "$pch" "$mch"
	start_bird "bird-$name" "$TMPD/$name.conf" "$port"
	local bird=$BIRD_PID sock=$BIRD_SOCK
	local args="--peers $N --prefixes $P --as 65001 --peer-as 65000
	    --controller tcp:127.0.0.1:$port --monitor tcp:127.0.0.1:$port
	    --monitor-as 65002 --timeout 20 -q $*"

	# 1. Announce, withdraw once the monitor has them all; stay up.
	# shellcheck disable=SC2086
	start_bg "$TMPD/sb-$name-wd.log" "$SBSIM" bgp $args --withdraw \
	    --duration 30 --report "$TMPD/$name-wd.json"
	sb=$LAST_PID
	# Peers: N up, 0 routes, NP updates and NP withdraws accepted;
	# monitor: up, 0 exported, NP updates and NP withdraws sent.
	wd_done() {
		[ "$(bird_sum "$sock" 'dyn[0-9]+')" = "$N 0 0 $NP $NP 0 0" ] &&
		[ "$(bird_sum "$sock" mon)" = "1 0 0 0 0 $NP $NP" ]
	}
	wait_until 25 wd_done || fail "$name: BIRD did not learn and forget \
$NP prefixes: peers $(bird_sum "$sock" 'dyn[0-9]+'), monitor \
$(bird_sum "$sock" mon) (want $N 0 0 $NP $NP 0 0 and 1 0 0 0 0 $NP $NP)"
	if [ -n "$CHECK_CAPS" ]; then
		birdc -s "$sock" show protocols all dyn1 >"$TMPD/$name-dyn1.txt"
		birdc -s "$sock" show protocols all mon >"$TMPD/$name-mon.txt"
		$CHECK_CAPS "$TMPD/$name-dyn1.txt" "$TMPD/$name-mon.txt" ||
		    fail "$name: capabilities"
	fi
	# BIRD has sent the monitor every withdrawal: give sbsim's monitor a
	# moment to read them, then stop (--duration is only the bound).
	sleep 1
	stop_early "$sb" "$name: sbsim (withdraw run)" "$TMPD/$name-wd.json"
	report_check "$TMPD/$name-wd.json" learn $NP
	report_check "$TMPD/$name-wd.json" withdraw $NP

	# BIRD's state after the close: nothing left.
	wait_until 10 bird_is "$sock" 'dyn[0-9]+|mon' "0 0 0" ||
	    fail "$name: BIRD kept routes: $(bird_sum "$sock" 'dyn[0-9]+|mon')"

	# 2. Announce and stay: BIRD's counts.
	# shellcheck disable=SC2086
	start_bg "$TMPD/sb-$name.log" "$SBSIM" bgp $args --duration 60 \
	    --report "$TMPD/$name.json"
	sb=$LAST_PID
	wait_until 20 bird_is "$sock" 'dyn[0-9]+' "$N $NP 0" ||
	    fail "$name: BIRD's peers: $(bird_sum "$sock" 'dyn[0-9]+'), want $N up, $NP imported"
	wait_until 20 bird_is "$sock" mon "1 0 $NP" ||
	    fail "$name: BIRD's monitor protocol: $(bird_sum "$sock" mon), want 1 up, $NP exported"
	# Exactly N*P: no more arrive.
	sleep 0.5
	bird_is "$sock" 'dyn[0-9]+' "$N $NP 0" ||
	    fail "$name: BIRD's peers later: $(bird_sum "$sock" 'dyn[0-9]+')"
	stop_early "$sb" "$name: sbsim" "$TMPD/$name.json"
	report_check "$TMPD/$name.json" learn $NP
	[ "$(counter "$TMPD/$name.json" monitor_prefixes)" = $NP ] ||
	    fail "$name: the monitor holds $(counter "$TMPD/$name.json" monitor_prefixes) prefixes"
	[ "$(counter "$TMPD/$name.json" notifications_received)" = 0 ] ||
	    fail "$name: BIRD sent NOTIFICATIONs"
	stop_bird "$bird" "$sock"
	if grep -E 'Invalid|Malformed|rror' "$TMPD/bird-$name.log"; then
		fail "$name: BIRD complained"
	fi
	echo "$name: BIRD learned $NP prefixes, re-advertised and forgot them"
}

# ADD-PATH (RFC 7911): BIRD receives with path ids from the peers and
# sends with path ids to the monitor; check that it was agreed.
addpath_caps() {
	"$PY" - "$1" "$2" <<'PYEOF'
import sys
def caps(path):
    # {"Local capabilities": {"RX": [...], "TX": [...]}, "Neighbor ...": ...}
    out, sect, ap = {}, None, False
    for line in open(path):
        s, ind = line.strip(), len(line) - len(line.lstrip())
        if ind <= 4:
            sect = s if s in ("Local capabilities", "Neighbor capabilities") else None
            if sect:
                out[sect] = {}
        elif ind == 6:
            ap = s == "ADD-PATH"
        elif sect and ap and s.split(":")[0] in ("RX", "TX"):
            k, v = s.split(":", 1)
            out[sect][k] = v.split()
    return out
peer, mon = caps(sys.argv[1]), caps(sys.argv[2])
ok = ("ipv4" in peer.get("Local capabilities", {}).get("RX", []) and
      "ipv4" in peer.get("Neighbor capabilities", {}).get("TX", []) and
      "ipv4" in mon.get("Local capabilities", {}).get("TX", []) and
      "ipv4" in mon.get("Neighbor capabilities", {}).get("RX", []))
if not ok:
    sys.exit("ADD-PATH not agreed: peer %r, monitor %r" % (peer, mon))
PYEOF
}

CHECK_CAPS=
scenario ipv4 ipv4 "" "next hop self;"
# IPv6 over the IPv4 sessions (MP-BGP).  BIRD refuses an IPv4-mapped next
# hop (sbsim's default for IPv6 routes from an IPv4 address: "Invalid
# NEXT_HOP attribute - mismatched address family", the routes treated as
# withdrawn), so the peers send a global IPv6 next hop; BIRD resolves it
# recursively (multihop's default, "gateway recursive"), finds no IGP
# route to it and keeps the routes as unreachable, which it still imports,
# counts and re-advertises.  Towards the monitor BIRD needs an IPv6
# address of its own for "next hop self" on an IPv4 session: "next hop
# address".
scenario ipv6 ipv6 "" "next hop address 2001:db8:fffe::1;" \
    --afi ipv6 --next-hop 2001:db8:ffff::1
CHECK_CAPS=addpath_caps
scenario addpath ipv4 "add paths rx;" "next hop self; add paths tx;" \
    --add-path both
