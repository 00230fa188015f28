#!/bin/bash
# --family against the embedded controller's speaker, which offers IPv4
# and IPv6 unicast only (RFC 4760): the peers offer ipv4-unicast and
# l3vpn-ipv4-unicast; the speaker never negotiates L3VPN, so its routes
# are not sent and the report says so (families_refused, routes_refused,
# a log line), while the IPv4 routes reach the monitor (learn DONE with
# them alone) and are withdrawn.  Then the usage errors of the family
# options, each with its message.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss

NET=$((RANDOM % 200 + 20))	# 127.NET.0.0/24: peers .1-.2, monitor .3
port=$(free_ports 1)
start_bg "$TMPD/ctl.log" "$SBSIM" controller --bgp ptcp:$port:127.0.0.1 \
    --as 65000 --bgp-monitor 127.$NET.0.3
CTL=$LAST_PID
wait_listen "$port" || fail "controller did not listen"

# Two peers, two families: ipv4-unicast with the monitor.
"$SBSIM" bgp --peers 2 --prefixes 1000 --as 65001 --peer-as 65000 \
    --controller tcp:127.0.0.1:$port --source 127.$NET.0.0/24 \
    --monitor tcp:127.0.0.1:$port --monitor-as 65002 \
    --family ipv4-unicast,ipv6-unicast --withdraw --timeout 20 \
    --report "$TMPD/uni.json" >"$TMPD/uni.log" 2>&1 ||
    fail "two unicast families: $(cat "$TMPD/uni.log")"
for ph in learn withdraw; do
	got=$(json_get "$TMPD/uni.json" "[(p['state'], p['items']) for p in r['phases'] if p['name'] == '$ph']")
	[ "$got" = "[('DONE', 4000)]" ] || fail "unicast $ph: $got"
done
[ "$(json_get "$TMPD/uni.json" 'r["counters"].get("ipv6_prefixes_received")')" = 2000 ] ||
    fail "the monitor did not get the IPv6 routes"

# L3VPN refused: settle instead of a monitor (it sees unicast only).
"$SBSIM" bgp --peers 2 --prefixes 1000 --as 65001 --peer-as 65000 \
    --controller tcp:127.0.0.1:$port --source 127.$NET.0.0/24 \
    --family l3vpn-ipv4-unicast,ipv4-unicast --settle 1 --timeout 20 \
    --report "$TMPD/vpn.json" >"$TMPD/vpn.log" 2>&1 ||
    fail "L3VPN refused: $(cat "$TMPD/vpn.log")"
c() { json_get "$TMPD/vpn.json" "r['counters'].get('$1', 0)"; }
[ "$(c families_refused)" = 2 ] && [ "$(c routes_refused)" = 2000 ] &&
    [ "$(c prefixes_sent)" = 2000 ] && [ "$(c notifications_received)" = 0 ] ||
    fail "refused $(c families_refused) families, $(c routes_refused) routes; sent $(c prefixes_sent)"
grep -q "did not offer l3vpn-ipv4-unicast" "$TMPD/vpn.log" ||
    fail "no log line: $(cat "$TMPD/vpn.log")"
[ "$(json_get "$TMPD/vpn.json" 'r["ok"]')" = True ] || fail "run not ok"
stop_pid "$CTL"

# Usage errors: each option's message.
usage() {
	local want=$1
	shift
	"$SBSIM" bgp --peers 1 --prefixes 10 --as 65001 \
	    --controller tcp:127.0.0.1:1 "$@" >"$TMPD/u.log" 2>&1 &&
	    fail "accepted: $*"
	grep -q -- "$want" "$TMPD/u.log" || fail "$*: $(cat "$TMPD/u.log")"
}
usage "'vpnv4' is not one of" --family ipv4-unicast,vpnv4
usage "witness unicast routes only" --family ipv4-labelled-unicast \
    --monitor tcp:127.0.0.1:1
usage "churns one unicast family" --family ipv4-unicast,ipv6-unicast \
    --churn-rate 10
usage "churn is of one unicast family" --family l3vpn-ipv6-unicast \
    --fault churn@1/5
usage "holds a 2-octet AS" --as 4200000000 --family l3vpn-ipv4-unicast
usage "rd-count" --family l3vpn-ipv4-unicast --rd-count 0
usage "label-base" --label-base 15
usage "label-mode" --label-mode per-vrf
usage "is not linear, ring or tree" --family ls --topology mesh
usage "tree:0" --family ls --topology tree:0
usage "needs --ls-nodes 3" --family ls --topology ring --ls-nodes 2
usage "ls-nodes" --family ls --ls-nodes 1
usage "ls-prefixes" --family ls --ls-prefixes 1001
usage "ls-sid-base" --family ls --ls-sid-base 15
echo "L3VPN refused by the controller and reported; usage errors named"
