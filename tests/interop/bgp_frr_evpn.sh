#!/bin/bash
# EVPN into FRR's bgpd (address-family l2vpn evpn): N sbsim peers announce
# P routes each of l2vpn-evpn, route types 1 to 5 in turn with VNIs over
# 2; bgpd counts N*P received (show bgp l2vpn evpn summary json), and a
# sample of routes, as bgpd prints them, are what sbsim's generator gives
# route i*P+j of peer i (type, MAC, IP or prefix, ESI, route target and
# the VXLAN encapsulation, "ET:8"); bgpd sends no NOTIFICATION.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/bgp_lib.sh"
need_peer frr
N=2
P=500
NP=$((N * P))

PORT=$(free_ports 1)
{
	frr_router sbsim-frr 127.1.0.0/30
	frr_family "l2vpn evpn" SBSIM
} >"$TMPD/bgpd.conf"
start_bgpd "$TMPD/bgpd.conf" "$PORT"

received() {
	got=$(frr_vty 'show bgp l2vpn evpn summary json' | "$PY" -c '
import json, sys
try:
    d = json.load(sys.stdin)
except ValueError:
    d = {}
print(sum(p.get("pfxRcd", 0) for p in d.get("peers", {}).values()))')
	[ "$got" = "$NP" ]
}
start_bg "$TMPD/sb.log" "$SBSIM" bgp --peers $N --prefixes $P --as 65001 \
    --peer-as 65000 --controller "tcp:127.0.0.1:$PORT" --next-hop 192.0.2.1 \
    --family l2vpn-evpn --evpn-types 1,2,3,4,5 --vnis 2 --timeout 20 \
    --duration 40 --report "$TMPD/r.json"
SB=$LAST_PID
wait_until 25 received || fail "bgpd received $got EVPN routes, want $NP"
frr_vty 'show bgp l2vpn evpn' >"$TMPD/evpn.txt"
stop_early "$SB" sbsim "$TMPD/r.json"
[ "$(counter "$TMPD/r.json" notifications_received)" = 0 ] ||
    fail "bgpd sent NOTIFICATIONs: $(tail -5 "$TMPD/bgpd.log")"
"$PY" - "$TMPD/evpn.txt" "$N" "$P" <<'PYEOF' || fail "bgpd's routes are not sbsim's"
import ipaddress, re, sys
path, n, p = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
lines = open(path).read().split("\n")
routes = {}
for i, line in enumerate(lines):
    m = re.match(r"^\*>\s+(\[\d\]\S*)", line)
    if m:
        routes[m.group(1)] = " ".join(lines[i + 1:i + 3])
if len(routes) != n * p:
    sys.exit("%d routes printed, want %d" % (len(routes), n * p))
# Route g: type (1..5)[g % 5], k = g // 5 its number in its type.
for g in list(range(0, n * p, 37)) + [n * p - 1]:
    t, k = g % 5 + 1, g // 5
    ip = str(ipaddress.ip_address(0x0a000000 + k * 256))
    esi = "00:" + ":".join("%02x" % b for b in bytes(5) + (k + 1).to_bytes(4, "big"))
    mac = "02:00:" + ":".join("%02x" % b for b in k.to_bytes(4, "big"))
    key = {1: "[1]:[0]:[%s]:[32]:[0.0.0.0]:[0]" % esi,
           2: "[2]:[0]:[48]:[%s]:[32]:[%s]" % (mac, ip),
           3: "[3]:[0]:[32]:[%s]" % ip,
           4: "[4]:[%s]:[32]:[%s]" % (esi, ip),
           5: "[5]:[0]:[24]:[%s]" % ip}[t]
    attrs = routes.get(key)
    if attrs is None or "192.0.2.1" not in attrs or \
            "RT:65001:1 ET:8" not in attrs:
        sys.exit("route %d %s: bgpd has %s" % (g, key, attrs))
print("bgpd's EVPN routes match sbsim's generator")
PYEOF
stop_pid "$BGPD_PID"
echo "FRR learned $NP EVPN routes of types 1 to 5 from $N peers"
