#!/bin/bash
# BMP (RFC 7854): `sbsim bgp --bmp` routers report to the embedded
# controller's station (`sbsim controller --bmp`):
#   1. 3 routers x 4 monitored peers x 500 routes (200 of them post-policy
#      too): the station serves, over RESTCONF in OpenDaylight's
#      bmp-monitor shape, 3 routers (sysName from Initiation), 4 peers each
#      (both OPENs of Peer Up), 500 routes in each peer's pre-policy-rib
#      and 200 in its post-policy-rib, the statistics (adj-ribs-in-routes
#      500); one router and one peer by their URLs in both styles; sbsim's
#      report: connect 3, monitor 8400 DONE; at the
#      end 12 Peer Downs and 3 Terminations reach the station.  tshark
#      decodes the routers' stream (-d tcp.port==PORT,bmp) with nothing
#      malformed (when it can capture: root and dumpcap).
#   2. --bmp-max-routes: a router's routes past it are counted, not kept;
#      --bmp-max-sessions: a session past it is closed and counted.
#   3. A hostile client: garbage, a huge length, a message that never
#      finishes (--bmp-message-timeout): each closed and counted.
. "$(dirname "$0")/../lib.sh"
[ -x "$PY" ] || skip "$PY is not installed"
need ss
need curl
R=3		# routers
K=4		# peers per router
P=500		# routes per peer
Q=200		# of them post-policy too
read -r PORT RPORT < <(p=$(free_ports 2); echo "$p $((p + 1))")

get() {
	curl -s -u admin:admin "http://127.0.0.1:$RPORT/$1"
}

# counts: "ROUTERS PEERS PRE POST STATS NAMED" from the whole monitor.
counts() {
	get "rests/data/bmp-monitor:bmp-monitor" | "$PY" -c '
import json, sys
try:
    d = json.load(sys.stdin)["bmp-monitor:bmp-monitor"]["monitor"][0]
except (ValueError, KeyError, IndexError):
    print("none"); sys.exit()
def n(rib):
    return sum(len(t.get("bgp-inet:ipv4-routes", {}).get("ipv4-route", []))
               for t in rib["tables"])
rs = d.get("router", [])
ps = [p for r in rs for p in r.get("peer", [])]
print(len(rs), len(ps), sum(n(p["pre-policy-rib"]) for p in ps),
      sum(n(p["post-policy-rib"]) for p in ps),
      sum(p["stats"].get("adj-ribs-in-routes", 0) for p in ps),
      sum(r["name"].startswith("sbsim-router-") for r in rs))'
}

# Bad command lines: usage errors.
bad_usage bgp "not yet" --bmp tcp:127.0.0.1:$PORT --as 1 \
    --controller tcp:127.0.0.1:$PORT
bad_usage bgp "--as ASN is required" --bmp tcp:127.0.0.1:$PORT
bad_usage bgp "does not go with --monitor" --bmp tcp:127.0.0.1:$PORT \
    --as 1 --monitor tcp:127.0.0.1:$PORT
bad_usage bgp "does not go with --md5-password" --bmp tcp:127.0.0.1:$PORT \
    --as 1 --md5-password k
bad_usage bgp "--bmp-post-policy-routes is more than" \
    --bmp tcp:127.0.0.1:$PORT --as 1 --prefixes 5 --bmp-post-policy-routes 6
bad_usage bgp "plain TCP" --bmp ptcp:$PORT --as 1
bad_usage controller "--bmp" --bmp-max-routes 5
[ "$FAILS" = 0 ] || fail "$FAILS bad command lines not refused"

start_bg "$TMPD/ctl.log" "$SBSIM" controller --bmp ptcp:$PORT:127.0.0.1 \
    --restconf 127.0.0.1:$RPORT --bmp-message-timeout 1
CTL=$LAST_PID
wait_listen "$PORT" || fail "the station does not listen"
wait_listen "$RPORT" || fail "RESTCONF does not listen"

CAP=""
if [ "$(id -u)" = 0 ] && command -v dumpcap >/dev/null &&
    command -v tshark >/dev/null; then
	start_bg "$TMPD/dumpcap.log" dumpcap -q -i lo -a duration:50 \
	    -f "tcp port $PORT" -w "$TMPD/bmp.pcapng"
	DC=$LAST_PID
	capture_ready "$TMPD/dumpcap.log" || fail "dumpcap cannot capture"
	CAP=$TMPD/bmp.pcapng
fi

# 1. The routers report; the station holds it all while they are up.
start_bg "$TMPD/run.log" "$SBSIM" bgp --bmp tcp:127.0.0.1:$PORT \
    --bmp-routers $R --bmp-peers $K --prefixes $P --as 65001 \
    --bmp-post-policy-routes $Q --bmp-stats-interval 1 --settle 40 --timeout 20 -q \
    --report "$TMPD/r.json"
RUN=$LAST_PID
want="$R $((R * K)) $((R * K * P)) $((R * K * Q)) $((R * K * P)) $R"
end=$((SECONDS + 30))
while [ "$(counts)" != "$want" ] && [ $SECONDS -lt $end ]; do
	sleep 0.3
done
[ "$(counts)" = "$want" ] || fail "station: $(counts), want $want"
echo "station: $R routers, $((R * K)) peers, $((R * K * P)) routes pre-policy, $((R * K * Q)) post-policy"

rid=$(get "rests/data/bmp-monitor:bmp-monitor/monitor=example-bmp-monitor" |
    "$PY" -c 'import json,sys; print(json.load(sys.stdin)["bmp-monitor:monitor"][0]["router"][0]["router-id"])')
got=$(get "restconf/operational/bmp-monitor:bmp-monitor/monitor/example-bmp-monitor/router/$rid/peer/172.16.0.2" |
    "$PY" -c '
import json, sys
p = json.load(sys.stdin)["bmp-monitor:peer"][0]
s = p["peer-session"]
print(p["as"], p["address"], s["received-open"]["bgp-identifier"],
      s["sent-open"]["my-as-number"], p["type"])')
[ "$got" = "65001 172.16.0.2 172.16.0.2 65001 global" ] ||
    fail "peer by its URL: $got"
get "rests/data/bmp-monitor:bmp-monitor/monitor=example-bmp-monitor/router=$rid" |
    grep -q '"bmp-monitor:router"' || fail "router=$rid not served"
[ "$(curl -s -o /dev/null -w '%{http_code}' -u admin:admin \
    "http://127.0.0.1:$RPORT/rests/data/bmp-monitor:bmp-monitor/monitor=example-bmp-monitor/router=192.0.2.99")" \
    = 404 ] || fail "an unknown router is not 404"

# Reports every second (--bmp-stats-interval 1): their timestamps move.
stats_ts() {
	get "rests/data/bmp-monitor:bmp-monitor" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)["bmp-monitor:bmp-monitor"]["monitor"][0]
print(max(p["stats"]["timestamp-sec"] for r in d["router"] for p in r["peer"]))'
}
ts0=$(stats_ts)
end=$((SECONDS + 10))
while [ "$(stats_ts)" = "$ts0" ] && [ $SECONDS -lt $end ]; do
	sleep 0.3
done
[ "$(stats_ts)" != "$ts0" ] || fail "no periodic statistics report"
stop_early "$RUN" "bmp run" "$TMPD/r.json"
for spec in connect=$R monitor=$((R * K * (P + Q))); do
	got=$(json_get "$TMPD/r.json" "[(p['state'], p['items']) for p in r['phases'] if p['name'] == '${spec%=*}']")
	[ "$got" = "[('DONE', ${spec#*=})]" ] || fail "phase ${spec%=*}: $got"
done
[ "$(json_get "$TMPD/r.json" 'r["counters"]["bmp_peer_ups_sent"]')" = $((R * K)) ] ||
    fail "peer ups sent"
[ "$(json_get "$TMPD/r.json" 'r["counters"]["bmp_statistics_reports_sent"] > '$((R * K)))" = True ] ||
    fail "no periodic statistics reports"
end=$((SECONDS + 10))
while [ "$(counts)" != "0 0 0 0 0 0" ] && [ $SECONDS -lt $end ]; do
	sleep 0.2
done
[ "$(counts)" = "0 0 0 0 0 0" ] || fail "routers left at the station: $(counts)"

if [ -n "$CAP" ]; then
	sleep 0.3
	stop_pid "$DC"
	n=$(tshark -r "$CAP" -d tcp.port==$PORT,bmp -Y bmp 2>/dev/null | wc -l)
	[ "$n" -gt 0 ] || fail "tshark decoded no BMP frame"
	# Every message sbsim counted, of each type, as tshark decoded it.
	tshark -r "$CAP" -d tcp.port==$PORT,bmp -Y bmp -T fields \
	    -e bmp.type 2>/dev/null | tr ',' '\n' | sort | uniq -c \
	    >"$TMPD/types"
	cat "$TMPD/types"
	for spec in 0:route_monitoring 1:statistics_reports 2:peer_downs \
	    3:peer_ups 4:initiations 5:terminations; do
		want=$(json_get "$TMPD/r.json" "r['counters']['bmp_${spec#*:}_sent']")
		got=$(awk -v t="${spec%%:*}" '$2 == t { print $1 }' "$TMPD/types")
		[ "${got:-0}" = "$want" ] ||
		    fail "tshark: ${got:-0} messages of type ${spec%%:*}, sbsim sent $want"
	done
	tshark_clean "$CAP" -d tcp.port==$PORT,bmp
	echo "tshark: $n BMP frames, every message of types 0-5 decoded, none malformed"
else
	echo "note: no capture (it needs root, dumpcap and tshark)"
fi

# Two routers from one address: the second is ADDRESS-PORT.
"$PY" - "$PORT" "$RPORT" <<'PYEOF' || fail "two routers from one address"
import json, socket, struct, sys, time, urllib.request
port, rport = int(sys.argv[1]), int(sys.argv[2])
def initiation(name):
    tlvs = struct.pack("!HH", 1, 5) + b"descr" + \
        struct.pack("!HH", 2, len(name)) + name
    return struct.pack("!BIB", 3, 6 + len(tlvs), 4) + tlvs
a = socket.create_connection(("127.0.0.1", port))
a.sendall(initiation(b"first"))
time.sleep(0.2)
b = socket.create_connection(("127.0.0.1", port))
b.sendall(initiation(b"second"))
want = {"127.0.0.1": "first", "127.0.0.1-%d" % b.getsockname()[1]: "second"}
req = urllib.request.Request("http://127.0.0.1:%d/rests/data/"
    "bmp-monitor:bmp-monitor" % rport,
    headers={"Authorization": "Basic YWRtaW46YWRtaW4="})
for _ in range(50):
    d = json.load(urllib.request.urlopen(req))
    got = {r["router-id"]: r["name"] for r in
           d["bmp-monitor:bmp-monitor"]["monitor"][0].get("router", [])}
    if got == want:
        break
    time.sleep(0.2)
else:
    sys.exit("routers %r, want %r" % (got, want))
a.close()
b.close()
PYEOF
echo "two routers from one address: 127.0.0.1 and 127.0.0.1-PORT"

# 3. Hostile clients, each closed and counted.
"$PY" - "$PORT" <<'PYEOF' || fail "hostile clients"
import socket, sys, time
port = int(sys.argv[1])
def closed(data, within):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(data)
    s.settimeout(within)
    try:
        while s.recv(4096):
            pass
    except socket.timeout:
        sys.exit("not closed within %s s after %r" % (within, data[:12]))
    except ConnectionResetError:
        pass
    s.close()
closed(b"\x09garbage that is not BMP", 5)
closed(b"\x03\x7f\xff\xff\xff\x04", 5)                 # a huge length
closed(b"\x03\x00\x00\x03\xe8\x04" + b"\x00" * 10, 10) # never finished
PYEOF
echo "hostile clients: closed"
stop_pid "$CTL"
grep -q "^bmp: $((R + 5)) sessions, $((R * K)) peer ups, .* $((R * K)) peer downs, $R terminations, 0 routes held, 1 malformed, 1 too long, 1 timed out, 0 routes over the limit" \
    "$TMPD/ctl.log" || fail "station summary: $(grep '^bmp:' "$TMPD/ctl.log")"

# 2. The bound on routes per session.
read -r PORT RPORT < <(p=$(free_ports 2); echo "$p $((p + 1))")
start_bg "$TMPD/ctl2.log" "$SBSIM" controller --bmp ptcp:$PORT:127.0.0.1 \
    --restconf 127.0.0.1:$RPORT --bmp-max-routes 150 --bmp-max-sessions 1
CTL=$LAST_PID
wait_listen "$PORT" || fail "the second station does not listen"
# --bmp-max-sessions 1: a second session is closed at once.
"$PY" - "$PORT" <<'PYEOF' || fail "--bmp-max-sessions"
import socket, sys
port = int(sys.argv[1])
a = socket.create_connection(("127.0.0.1", port))
b = socket.create_connection(("127.0.0.1", port))
b.settimeout(5)
try:
    if b.recv(1) != b"":
        sys.exit("the second session got data")
except socket.timeout:
    sys.exit("the second session was not closed")
except ConnectionResetError:
    pass
a.close()
b.close()
PYEOF
timeout 30 "$SBSIM" bgp --bmp tcp:127.0.0.1:$PORT --bmp-routers 1 \
    --prefixes 100 --as 65001 --settle 1 -q >"$TMPD/run2.log" 2>&1 ||
    fail "the bounded run exited $?"
stop_pid "$CTL"
# (The router may have come while the first session was closing: refused
# then, it connects again.)
grep -qE "^bmp: [0-9]+ sessions, .* 50 routes over the limit, .*, [1-9][0-9]* sessions refused" \
    "$TMPD/ctl2.log" ||
    fail "bound: $(grep '^bmp:' "$TMPD/ctl2.log")"
echo "--bmp-max-routes 150: 50 routes of 200 counted, not kept; a session past --bmp-max-sessions 1 closed"
