#!/bin/bash
# BMP (RFC 7854) interop: FRR's bgpd with its BMP module (-M bmp) reports
# to the embedded controller's station.  An sbsim BGP peer announces P
# prefixes to FRR; FRR's BMP session (pre- and post-policy monitoring)
# tells the station; the station serves, over RESTCONF, FRR's router
# (sysName its hostname), the sbsim peer up (its address, AS, both OPENs)
# with P routes in its pre-policy-rib and post-policy-rib; when the sbsim
# peer stops, FRR's Peer Down removes it.  FRR runs
# standalone as in bgp_md5_frr.sh (no zebra, its own config and sockets),
# the sbsim peer a static passive neighbor (FRR 8.4 sends no Peer Down for
# a listen range's dynamic peer).
# Skipped when bgpd or its BMP module is missing.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/bgp_lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
BGPD=/usr/lib/frr/bgpd
[ -x "$BGPD" ] || skip "FRR's bgpd is not installed"
ls /usr/lib/*/frr/modules/bgpd_bmp.so /usr/lib/frr/modules/bgpd_bmp.so \
    2>/dev/null | grep -q . || skip "FRR's BMP module is not installed"
need ss
need curl
P=300
NET=$((RANDOM % 200 + 20))	# the sbsim peer is 127.NET.0.1
PEER=127.$NET.0.1
read -r BGP BMP RC < <(p=$(free_ports 3); echo "$p $((p + 1)) $((p + 2))")

start_bg "$TMPD/ctl.log" "$SBSIM" controller --bmp ptcp:$BMP:127.0.0.1 \
    --restconf 127.0.0.1:$RC
CTL=$LAST_PID
wait_listen "$BMP" || fail "the station does not listen"

cat >"$TMPD/bgpd.conf" <<CONF
hostname sbsim-frr-bmp
log stdout informational
router bgp 65000
 bgp router-id 192.0.2.254
 no bgp ebgp-requires-policy
 no bgp default ipv4-unicast
 neighbor $PEER remote-as 65001
 neighbor $PEER passive
 neighbor $PEER ebgp-multihop 2
 address-family ipv4 unicast
  neighbor $PEER activate
  neighbor $PEER soft-reconfiguration inbound
 exit-address-family
 bmp targets sbsim
  bmp connect 127.0.0.1 port $BMP min-retry 100 max-retry 1000
  bmp monitor ipv4 unicast pre-policy
  bmp monitor ipv4 unicast post-policy
 exit
CONF
mkdir "$TMPD/vty"
start_bg "$TMPD/bgpd.log" "$BGPD" -M bmp -f "$TMPD/bgpd.conf" \
    -i "$TMPD/bgpd.pid" -z "$TMPD/zserv.api" --vty_socket "$TMPD/vty" \
    -Z -S -l 127.0.0.1 -p "$BGP" -P 0
wait_listen "$BGP" || fail "bgpd does not listen on $BGP"

# FRR refuses a loopback NEXT_HOP: the peer sends 192.0.2.1.
start_bg "$TMPD/run.log" "$SBSIM" bgp --peers 1 --prefixes $P --as 65001 \
    --peer-as 65000 --source 127.$NET.0.0/24 \
    --controller tcp:127.0.0.1:$BGP --next-hop 192.0.2.1 --settle 40 \
    --timeout 20 -q
RUN=$LAST_PID

# "NAME PEER-ADDRESS AS RECEIVED-OPEN-AS PRE POST" of FRR's router.
station() {
	curl -s -u admin:admin \
	    "http://127.0.0.1:$RC/rests/data/bmp-monitor:bmp-monitor" |
	"$PY" -c '
import json, sys
try:
    m = json.load(sys.stdin)["bmp-monitor:bmp-monitor"]["monitor"][0]
    r = m["router"][0]
    p = [p for p in r["peer"] if p["address"] == sys.argv[1]][0]
except (ValueError, KeyError, IndexError):
    print("none"); sys.exit()
def n(rib):
    return sum(len(t.get("bgp-inet:ipv4-routes", {}).get("ipv4-route", []))
               for t in rib["tables"])
print(r["name"], p["address"], p["as"],
      p["peer-session"]["received-open"]["my-as-number"],
      n(p["pre-policy-rib"]), n(p["post-policy-rib"]))' "$PEER"
}
want="sbsim-frr-bmp $PEER 65001 65001 $P $P"
seen() {
	got=$(station)
	[ "$got" = "$want" ]
}
wait_until 40 seen || fail "station: '$got', want '$want'
$(grep '^bmp:' "$TMPD/ctl.log")"
echo "station: FRR's router, peer $PEER up, $P routes pre- and post-policy"
# The sbsim peer goes: FRR's Peer Down removes it and its routes; FRR's
# router stays.
stop_pid "$RUN"
peer_gone() {
	got=$(curl -s -u admin:admin \
	    "http://127.0.0.1:$RC/rests/data/bmp-monitor:bmp-monitor" |
	"$PY" -c '
import json, sys
r = json.load(sys.stdin)["bmp-monitor:bmp-monitor"]["monitor"][0]["router"]
print(len(r), sum(len(x.get("peer", [])) for x in r))')
	[ "$got" = "1 0" ]
}
wait_until 20 peer_gone || { stop_pid "$CTL"; fail "after the peer went: routers, peers $got; $(grep "^bmp:" "$TMPD/ctl.log")"; }
echo "station: FRR's Peer Down removed the peer, the router stays"
stop_pid "$CTL"
grep '^bmp:' "$TMPD/ctl.log"
# FRR 8.4 may say Peer Down twice for the session (the second for a peer
# already down: counted as for no peer up).
grep -q '^bmp: 1 sessions, 1 peer ups, [0-9]* route monitoring, [0-9]* statistics reports, [12] peer downs, .* 0 malformed, 0 too long, 0 timed out, 0 routes over the limit, 0 peers over the limit, 0 UPDATEs that did not decode, [01] messages for no peer up' \
    "$TMPD/ctl.log" || fail "station summary: $(grep '^bmp:' "$TMPD/ctl.log")"
