#!/bin/bash
# sbsim BGP peers against the embedded controller's speaker: IPv4 and IPv6
# (with ADD-PATH, communities, large communities), announce, learn (by the
# monitor peer), withdraw; the speaker's RIBs over RESTCONF (loc-rib, a
# peer's adj-rib-in, the application RIB whose routes reach the monitor);
# bad command lines.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
need curl
N=4		# peers
P=2500		# prefixes per peer
NET=$((RANDOM % 200 + 20))	# 127.NET.0.0/24: peers .1-.N, monitor .N+1
SRC=127.$NET.0.0/24
MON=127.$NET.0.$((N + 1))

# check_report FILE PHASE=ITEMS...: each phase DONE with that many items.
check_report() {
	local f=$1
	shift
	"$PY" - "$f" "$@" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
ph = {p["name"]: p for p in r["phases"]}
for spec in sys.argv[2:]:
    name, items = spec.split("=")
    p = ph.get(name)
    if p is None or p["state"] != "DONE" or p["items"] != int(items):
        print("phase %s: %r (want DONE, %s items)" % (name, p, items),
              file=sys.stderr)
        sys.exit(1)
if r.get("ok") is not True:
    sys.exit("ok is %r" % r.get("ok"))
PYEOF
}

run_family() {
	local afi=$1 extra=$2 port d total=$((N * P))
	port=$(free_ports 1)
	d="$TMPD/$afi"
	mkdir -p "$d"
	start_bg "$TMPD/ctl-$afi.log" "$SBSIM" controller \
	    --bgp ptcp:$port:127.0.0.1 --as 65000 --bgp-monitor "$MON"
	local ctl=$LAST_PID
	wait_listen "$port" || fail "$afi: controller did not listen"
	# shellcheck disable=SC2086
	timeout 60 "$SBSIM" bgp --peers $N --prefixes $P --as 65001 \
	    --peer-as 65000 --afi "$afi" --source "$SRC" \
	    --controller tcp:127.0.0.1:$port --monitor tcp:127.0.0.1:$port \
	    --monitor-as 65002 --withdraw --timeout 20 --report "$d/r.json" \
	    --junit "$d/r.xml" -q $extra >"$TMPD/bgp-$afi.log" 2>&1 ||
	    fail "$afi: sbsim bgp exited $?"
	check_report "$d/r.json" connect=$N announce=$total learn=$total \
	    withdraw=$total || fail "$afi: report"
	[ "$(json_get "$d/r.json" 'r["counters"].get("notifications_sent", 0)')" \
	    = 0 ] || fail "$afi: NOTIFICATIONs were sent"
	grep -q 'failures="0"' "$d/r.xml" || fail "$afi: JUnit has failures"
	stop_pid "$ctl"
	grep -q "bgp: 5 sessions, .* $total prefixes and $total withdrawals received" \
	    "$TMPD/ctl-$afi.log" || fail "$afi: controller summary: $(tail -2 \
	    "$TMPD/ctl-$afi.log")"
}

run_family ipv4 "--communities 3 --large-communities 2 --med 10"
run_family ipv6 "--add-path both --communities 1 --as-path-len 3"

# RESTCONF: the Loc-RIB and a peer's adj-RIB-in count what the peers sent;
# routes written to the application RIB reach the monitor.
port=$(free_ports 2)
rc=$((port + 1))
# Two peers: the monitor is the third address.
start_bg "$TMPD/ctl-rc.log" "$SBSIM" controller --bgp ptcp:$port:127.0.0.1 \
    --as 65000 --bgp-monitor 127.$NET.0.3 --restconf 127.0.0.1:$rc
ctl=$LAST_PID
wait_listen "$port" && wait_listen "$rc" || fail "RESTCONF controller"
# --duration: long enough for the RESTCONF checks below on a loaded host
# (the application RIB's routes must reach the monitor before it ends).
start_bg "$TMPD/bgp-rc.log" timeout 60 "$SBSIM" bgp --peers 2 --prefixes 500 \
    --as 65001 --peer-as 65000 --source "$SRC" \
    --controller tcp:127.0.0.1:$port --monitor tcp:127.0.0.1:$port \
    --duration 12 --report "$TMPD/rc.json" -q
bgp=$LAST_PID
URL="http://127.0.0.1:$rc/rests/data/bgp-rib"
T4="tables=bgp-types:ipv4-address-family,bgp-types:unicast-subsequent-address-family"
count() {
	curl -s -u admin:admin "$1" | grep -o '"prefix":"' | wc -l
}
i=0
while [ "$(count "$URL:bgp-rib/rib=example-bgp-rib/loc-rib/$T4/ipv4-routes")" \
    -ne 1000 ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ $i -lt 50 ] || fail "loc-rib never held 1000 routes"
n=$(count "$URL:bgp-rib/rib=example-bgp-rib/peer=bgp:%2F%2F127.$NET.0.1/adj-rib-in/$T4/ipv4-routes")
[ "$n" -eq 500 ] || fail "adj-rib-in of peer 1 holds $n routes, not 500"
# Its effective-rib-in (what the ibgp_peers and ebgp_peers suites read):
# the same paths, no import policy; the draft URL too.
PEER1=bgp-rib/rib=example-bgp-rib/peer=bgp:%2F%2F127.$NET.0.1
n=$(count "$URL:$PEER1/effective-rib-in/$T4/ipv4-routes")
[ "$n" -eq 500 ] || fail "effective-rib-in of peer 1 holds $n routes"
n=$(count "http://127.0.0.1:$rc/restconf/operational/bgp-rib:bgp-rib/rib/example-bgp-rib/peer/bgp:%2F%2F127.$NET.0.1/effective-rib-in/tables/bgp-types:ipv4-address-family/bgp-types:unicast-subsequent-address-family")
[ "$n" -eq 500 ] || fail "effective-rib-in (draft) of peer 1 holds $n routes"
# Adj-RIB-Out: only the monitor is advertised to (--bgp-monitor), every
# route of the other peers, as sent over eBGP: our AS first, next hop
# ourselves (RFC 4271 section 5.1.2, 5.1.3).
MONP=bgp-rib/rib=example-bgp-rib/peer=bgp:%2F%2F127.$NET.0.3
n=$(count "$URL:$PEER1/adj-rib-out/$T4/ipv4-routes")
[ "$n" -eq 0 ] || fail "adj-rib-out of peer 1 holds $n routes, not 0"
i=0
while [ "$(count "$URL:$MONP/adj-rib-out")" -ne 1000 ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ $i -lt 50 ] || fail "the monitor's adj-rib-out never held 1000 routes"
curl -s -u admin:admin -o "$TMPD/out.json" "$URL:$MONP"
"$PY" - "$TMPD/out.json" <<'PYEOF' || fail "the monitor's peer entry"
import json, sys
peer = json.load(open(sys.argv[1]))["bgp-rib:peer"][0]
out = [t for t in peer["adj-rib-out"]["tables"]
       if t["afi"].endswith("ipv4-address-family")][0]
routes = out["bgp-inet:ipv4-routes"]["ipv4-route"]
a = routes[0]["attributes"]
assert len(routes) == 1000, len(routes)
assert a["as-path"]["segments"][0]["as-sequence"][0] == 65000, a
assert a["ipv4-next-hop"]["global"] == "127.0.0.1", a
assert "local-pref" not in a, a
assert set(peer) >= {"adj-rib-in", "effective-rib-in", "adj-rib-out"}
PYEOF
# OpenDaylight's CSIT counts the prefixes of example-ipv4-topology.
TOPO="http://127.0.0.1:$rc/rests/data/network-topology:network-topology"
n=$(count "$TOPO/topology=example-ipv4-topology")
[ "$n" -eq 1000 ] || fail "example-ipv4-topology has $n prefixes, not 1000"
n=$(count "$TOPO/topology=example-ipv4-topology/node=127.$NET.0.2")
[ "$n" -eq 500 ] || fail "the node of next hop 127.$NET.0.2 has $n prefixes"
n=$(count "$TOPO")
[ "$n" -eq 1000 ] || fail "network-topology has $n prefixes, not 1000"
code=$(curl -s -o /dev/null -w '%{http_code}' -u admin:admin \
    "$URL:bgp-rib/rib=example-bgp-rib/peer=bgp:%2F%2F127.9.9.9")
[ "$code" = 404 ] || fail "unknown peer: HTTP $code"
body='{"bgp-inet:ipv4-routes":{"ipv4-route":['
for k in $(seq 1 50); do
	body="$body{\"route-key\":\"172.16.$k.0/24\",\"path-id\":0,\"prefix\":\"172.16.$k.0/24\",\"attributes\":{\"origin\":{\"value\":\"igp\"},\"ipv4-next-hop\":{\"global\":\"192.0.2.9\"},\"local-pref\":{\"pref\":100},\"as-path\":{}}},"
done
body="${body%,}]}}"
code=$(curl -s -o /dev/null -w '%{http_code}' -u admin:admin -X POST \
    -H 'Content-Type: application/yang-data+json' -d "$body" \
    "$URL:application-rib=example-app-rib/$T4/ipv4-routes")
[ "$code" = 201 ] || fail "application RIB POST: HTTP $code"
n=$(count "$URL:application-rib=example-app-rib/$T4/ipv4-routes")
[ "$n" -eq 50 ] || fail "application RIB holds $n routes, not 50"
code=$(curl -s -o /dev/null -w '%{http_code}' -u admin:admin -X POST \
    -H 'Content-Type: application/yang-data+json' \
    -d '{"bgp-inet:ipv4-routes":{"ipv4-route":[{"prefix":"10.0.0.1/24"}]}}' \
    "$URL:application-rib=example-app-rib/$T4/ipv4-routes")
[ "$code" = 400 ] || fail "a prefix with host bits: HTTP $code"
wait_exit "$bgp" 20 || fail "sbsim bgp did not finish"
# The monitor got the peers' 1000 routes and the application's 50.
got=$(json_get "$TMPD/rc.json" 'r["counters"]["monitor_prefixes"]')
[ "$got" = 1050 ] || fail "the monitor holds $got prefixes, not 1050"
code=$(curl -s -o /dev/null -w '%{http_code}' -u admin:admin -X DELETE \
    "$URL:application-rib=example-app-rib/$T4/ipv4-routes")
[ "$code" = 204 ] || fail "application RIB DELETE: HTTP $code"
stop_pid "$ctl"

# The advertise test: sbsim writes routes into the application RIB over
# RESTCONF (batches in JSON, then one by one in XML with the draft URLs),
# the monitor times their arrival and their withdrawal.
port=$(free_ports 2)
rc=$((port + 1))
start_bg "$TMPD/ctl-adv.log" "$SBSIM" controller --bgp ptcp:$port:127.0.0.1 \
    --as 65000 --bgp-monitor 127.$NET.0.2 --restconf 127.0.0.1:$rc
ctl=$LAST_PID
wait_listen "$port" && wait_listen "$rc" || fail "advertise: controller"
timeout 60 "$SBSIM" bgp --peers 1 --as 65001 --peer-as 65000 \
    --source "$SRC" --controller tcp:127.0.0.1:$port \
    --monitor tcp:127.0.0.1:$port --northbound odl:http://127.0.0.1:$rc \
    --advertise 3000 --routes-per-request 500 --timeout 20 \
    --report "$TMPD/adv.json" -q >"$TMPD/bgp-adv.log" 2>&1 ||
    fail "advertise: sbsim bgp exited $?"
check_report "$TMPD/adv.json" connect=1 advertise=3000 unadvertise=3000 \
    nb_program=6 confirm=3000 nb_delete=1 confirm_delete=3000 ||
    fail "advertise: report"
timeout 60 "$SBSIM" bgp --peers 1 --as 65001 --peer-as 65000 \
    --source "$SRC" --controller tcp:127.0.0.1:$port \
    --monitor tcp:127.0.0.1:$port --northbound odl:http://127.0.0.1:$rc \
    --advertise 200 --northbound-style draft --northbound-format xml \
    --northbound-parallel 4 --timeout 20 --report "$TMPD/adv2.json" -q \
    >"$TMPD/bgp-adv2.log" 2>&1 || fail "advertise (xml): sbsim bgp exited $?"
check_report "$TMPD/adv2.json" advertise=200 unadvertise=200 nb_program=200 \
    nb_delete=200 || fail "advertise (xml): report"
# Without a monitor, learn and withdraw by counting the Loc-RIB.
timeout 60 "$SBSIM" bgp --peers 2 --prefixes 3000 --as 65001 --peer-as 65000 \
    --source "$SRC" --controller tcp:127.0.0.1:$port \
    --northbound odl:http://127.0.0.1:$rc --withdraw --timeout 20 \
    --report "$TMPD/nbl.json" -q >"$TMPD/bgp-nbl.log" 2>&1 ||
    fail "learn by the northbound: sbsim bgp exited $?"
check_report "$TMPD/nbl.json" connect=2 announce=6000 learn=6000 \
    withdraw=6000 || fail "learn by the northbound: report"
# ... or its example-ipv4-topology, as CSIT counts, in XML.
timeout 60 "$SBSIM" bgp --peers 2 --prefixes 1500 --as 65001 --peer-as 65000 \
    --source "$SRC" --controller tcp:127.0.0.1:$port \
    --northbound odl:http://127.0.0.1:$rc --northbound-count topology \
    --northbound-format xml --withdraw --timeout 20 \
    --report "$TMPD/nbt.json" -q >"$TMPD/bgp-nbt.log" 2>&1 ||
    fail "learn by the topology: sbsim bgp exited $?"
check_report "$TMPD/nbt.json" learn=3000 withdraw=3000 ||
    fail "learn by the topology: report"
stop_pid "$ctl"

# Bad command lines: one line, exit 2.
bad() {
	local out rc
	out=$("$SBSIM" "$@" 2>&1)
	rc=$?
	[ $rc -eq 2 ] || fail "'$*' exited $rc, not 2"
	[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] ||
	    fail "'$*' printed more than one line: $out"
}
bad bgp --peers 2 --controller tcp:127.0.0.1:179
bad bgp --peers 2 --as 1 --controller tcp:127.0.0.1:179 --hold-time 2
bad bgp --peers 2 --as 1 --controller tcp:127.0.0.1:179 \
    --first-prefix 10.0.0.1/24
bad bgp --peers 2 --as 1 --controller tcp:127.0.0.1:179 --afi ipv6 \
    --first-prefix 10.0.0.0/24
bad bgp --peers 300 --as 1 --controller tcp:127.0.0.1:179 \
    --source 127.5.0.0/24
bad bgp --peers 2 --as 1 --controller ssl:127.0.0.1:179
bad bgp --peers 2 --as 1 --controller tcp:127.0.0.1:179 --withdraw
bad bgp --peers 2 --as 1 --controller tcp:127.0.0.1:179 --add-path sometimes
bad bgp --peers 2 --as 0 --controller tcp:127.0.0.1:179
bad bgp --peers 1 --as 1 --controller tcp:127.0.0.1:179 --advertise 5
bad bgp --peers 1 --as 1 --controller tcp:127.0.0.1:179 \
    --northbound odl:http://127.0.0.1:8181 --advertise 5
bad bgp --peers 1 --as 1 --controller tcp:127.0.0.1:179 \
    --monitor tcp:127.0.0.1:179 --northbound odl:http://127.0.0.1:8181
bad bgp --peers 1 --as 1 --controller tcp:127.0.0.1:179 \
    --monitor tcp:127.0.0.1:179 --northbound odl:http://127.0.0.1:8181 \
    --advertise 5 --northbound-count topology
bad bgp --peers 1 --as 1 --controller tcp:127.0.0.1:179 \
    --northbound-count everything
bad controller --as 65000
bad controller --bgp tcp:127.0.0.1:179
bad controller --bgp ptcp:1790 --bgp-monitor not-an-address
bad controller --bgp ptcp:1790 --bgp-id 0.0.0.0
exit 0
