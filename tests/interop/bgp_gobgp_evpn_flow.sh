#!/bin/bash
# EVPN and flowspec into GoBGP (gobgpd, counted through its own CLI): N
# sbsim peers announce P routes each of l2vpn-evpn (route types 1 to 5 in
# turn, RDs of type 1 over 3, VNIs over 2), ipv4-flowspec and
# ipv6-flowspec (traffic-marking action):
#   1. GoBGP's global RIB holds N*P routes of each family (gobgp global
#      rib -a evpn / ipv4-flowspec / ipv6-flowspec), and a sample of them
#      equals, field by field (route type, RD, ESI, MAC, IP or prefix,
#      VNI, route target and VXLAN community; destination, protocol,
#      ports with their operators, action), what sbsim's generator gives
#      route number i*P+j of peer i;
#   2. with root and dumpcap: the sessions captured, Wireshark's BGP
#      dissector finds nothing malformed and sees the EVPN route types
#      and flowspec rules.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/bgp_lib.sh"
need_peer gobgp
N=2
P=300
NP=$((N * P))
FAMS=l2vpn-evpn,ipv4-flowspec,ipv6-flowspec

cap=$TMPD/evpn_flow.pcapng
start_gobgp_groups "$cap" "sbsim 65001 127.1.0.0/30 $FAMS"
port=$PORT dc=$CAP_PID gobgpd=$GOBGPD_PID
all_learned() {
	got="$(gobgp_rib evpn) $(gobgp_rib ipv4-flowspec) $(gobgp_rib ipv6-flowspec)"
	[ "$got" = "$NP $NP $NP" ]
}

start_bg "$TMPD/sb.log" "$SBSIM" bgp --peers $N --prefixes $P --as 65001 \
    --peer-as 65000 --controller "tcp:127.0.0.1:$port" --next-hop 192.0.2.1 \
    --timeout 20 --family "$FAMS" --evpn-types 1,2,3,4,5 --rd-count 3 \
    --rd-type 1 --vni-base 5000 --vnis 2 --flow-action traffic-marking \
    --duration 40 --report "$TMPD/r.json"
sb=$LAST_PID
wait_until 25 all_learned ||
    fail "GoBGP holds $got (evpn ipv4-flowspec ipv6-flowspec), want $NP each"
for a in evpn ipv4-flowspec ipv6-flowspec; do
	gobgp_cli -j global rib -a "$a" >"$TMPD/rib-$a.json" 2>&1 ||
	    fail "gobgp global rib -a $a: $(cat "$TMPD/rib-$a.json")"
done
stop_early "$sb" "sbsim" "$TMPD/r.json"
[ "$(counter "$TMPD/r.json" prefixes_sent)" = $((NP * 3)) ] ||
    fail "prefixes_sent is $(counter "$TMPD/r.json" prefixes_sent)"
[ "$(counter "$TMPD/r.json" notifications_received)" = 0 ] ||
    fail "GoBGP sent NOTIFICATIONs: $(tail -5 "$TMPD/gobgpd.log")"
"$PY" - "$TMPD" "$N" "$P" <<'PYEOF' || fail "GoBGP's routes are not sbsim's"
import ipaddress, json, sys
tmpd, n, p = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def paths(fam):
    return [path for v in json.load(open("%s/rib-%s.json" % (tmpd, fam))).values()
            for path in v]

def ext(path):
    for a in path["attrs"]:
        if a["type"] == 16:
            return a["value"]
    return None

# EVPN route g = i*P + j of peer i: type (1..5)[g % 5], k = g // 5 its
# number in its type; RD 127.1.0.(i+1):(k % 3 + 1), VNI 5000 + k % 2,
# the k-th /24 from 10.0.0.0 (a host address but for type 5), ESI k+1
# (types 1 and 4), MAC 02:00:k; route target 65001:1 and VXLAN.
got = {}
for path in paths("evpn"):
    v = path["nlri"]["value"]
    key = (path["nlri"]["type"], v["rd"]["admin"], v["rd"]["assigned"],
           v.get("esi"), v.get("mac"), v.get("ip", v.get("prefix")))
    got[key] = (v.get("label", (v.get("labels") or [None])[0]), ext(path))
if len(got) != n * p:
    sys.exit("evpn: %d routes, want %d" % (len(got), n * p))
rt_vxlan = [{"type": 0, "subtype": 2, "value": "65001:1"},
            {"type": 3, "subtype": 12, "tunnel_type": 8}]
for i in range(n):
    for j in range(p):
        g = i * p + j
        t, k = g % 5 + 1, g // 5
        ip = str(ipaddress.ip_address(0x0a000000 + k * 256))
        esi = ("ESI_ARBITRARY | 00:00:00:00:00:%02x:%02x:%02x:%02x" %
               tuple((k + 1).to_bytes(4, "big")) if t in (1, 4) else
               "single-homed" if t in (2, 5) else None)
        mac = "02:00:%02x:%02x:%02x:%02x" % tuple(k.to_bytes(4, "big")) \
            if t == 2 else None
        addr = None if t == 1 else ip + "/24" if t == 5 else ip
        key = (t, "127.1.0.%d" % (i + 1), k % 3 + 1, esi, mac, addr)
        want = (None if t in (3, 4) else 5000 + k % 2, rt_vxlan)
        if got.get(key) != want:
            sys.exit("evpn %s: GoBGP has %s, want %s" % (key, got.get(key), want))
# Flowspec rule g: the g-th prefix as destination, TCP (g even) or UDP,
# destination port == 1024+g, source ports >= 1024 AND <= 65535 (the
# operator octets of RFC 8955 section 4.2.1.1), the route target (the
# default with an EVPN family listed) and traffic-marking DSCP 46.
firsts = {"ipv4-flowspec": ipaddress.ip_network("10.0.0.0/24"),
          "ipv6-flowspec": ipaddress.ip_network("2001:db8::/64")}
for fam, first in firsts.items():
    got = {}
    for path in paths(fam):
        comps = {c["type"]: c["value"] for c in path["nlri"]["value"]}
        got[comps[1]["prefix"]] = (comps, ext(path))
    if len(got) != n * p:
        sys.exit("%s: %d rules, want %d" % (fam, len(got), n * p))
    for g in range(n * p):
        net = ipaddress.ip_network((int(first.network_address) +
                                    g * first.num_addresses, first.prefixlen))
        dst = {"prefix": str(net)}
        if fam == "ipv6-flowspec":
            dst["offset"] = 0
        want = ({1: dst, 3: [{"op": 0x81, "value": 17 if g % 2 else 6}],
                 5: [{"op": 0x91, "value": 1024 + g}],
                 6: [{"op": 0x13, "value": 1024}, {"op": 0xd5, "value": 65535}]},
                [rt_vxlan[0], {"type": 128, "subtype": 9, "value": 46}])
        have = got.get(str(net))
        if have is not None and fam == "ipv6-flowspec":
            have[0][1].setdefault("offset", 0)
        if have != want:
            sys.exit("%s %s: GoBGP has %s, want %s" % (fam, net, have, want))
print("GoBGP's EVPN routes and flowspec rules match sbsim's generator")
PYEOF
stop_pid "$gobgpd"
echo "GoBGP learned $NP routes of each of $FAMS"

# 2. The wire, decoded by Wireshark.
[ -n "$dc" ] || { echo "no capture (needs root, dumpcap, tshark)"; exit 0; }
bgp_bad_frames "$cap" "$port"
dec=$DEC
# shellcheck disable=SC2086
tshark -r "$cap" $dec -Y "bgp && ip.src == 127.1.0.0/30" -T fields \
    -E occurrence=a -E aggregator=, -e bgp.evpn.nlri.rt \
    -e bgp.flowspec_nlri.length \
    >"$TMPD/fields" 2>>"$TMPD/tshark.log" ||
    fail "tshark failed: $(cat "$TMPD/tshark.log")"
"$PY" - "$TMPD/fields" "$NP" <<'PYEOF' || fail "the capture is not what was sent"
import sys
types = {}
rules = 0
for line in open(sys.argv[1]):
    f = (line.rstrip("\n").split("\t") + ["", ""])[:2]
    for t in [x for x in f[0].split(",") if x]:
        types[int(t)] = types.get(int(t), 0) + 1
    rules += len([x for x in f[1].split(",") if x])
np_ = int(sys.argv[2])
want = {t: np_ // 5 for t in range(1, 6)}
if (types, rules) != (want, 2 * np_):
    sys.exit("EVPN route types %s, flowspec rules %d; want %s, %d" %
             (types, rules, want, 2 * np_))
print("tshark: nothing malformed; EVPN types %s, %d flowspec rules" %
      (types, rules))
PYEOF
