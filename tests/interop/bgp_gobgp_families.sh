#!/bin/bash
# The families beyond unicast into GoBGP (gobgpd, counted through its own
# CLI): N sbsim peers announce P routes each of l3vpn-ipv4-unicast,
# l3vpn-ipv6-unicast and ipv4-labelled-unicast (--family), with RDs of
# type 1 spread over 3 (--rd-count), a label per route from 100
# (--label-base), 2 route targets and a large community:
#   1. GoBGP's global RIB holds N*P routes of each family (gobgp global
#      rib -a vpnv4 / vpnv6 / ipv4-labelled), and a sample of them equals,
#      field by field (RD, label, prefix, route targets, large community),
#      what sbsim's generator gives route number i*P+j of peer i;
#      A receiving sbsim peer (another AS, --prefixes 0, the same
#      families) gets all of them from GoBGP, each NLRI checked and
#      counted (other_family_routes_received);
#   2. ipv4-unicast, listed too, is not offered by GoBGP here: it is not
#      sent, and the report says so (families_refused N, routes_refused
#      N*P) as does the log;
#   3. a run with --withdraw: GoBGP counts N*P*3 withdrawn prefixes (the
#      withdraw label 0x800000, RFC 8277 section 2.4) and its RIBs empty;
#   4. with root and dumpcap: the sessions captured, Wireshark's BGP
#      dissector finds nothing malformed (GoBGP's UPDATEs to the receiver
#      included), and the peers' UPDATEs carry RDs, labels and route
#      targets.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/bgp_lib.sh"
need_peer gobgp
N=2
P=300
NP=$((N * P))
FAMS=l3vpn-ipv4-unicast,l3vpn-ipv6-unicast,ipv4-labelled-unicast

cap=$TMPD/families.pcapng
start_gobgp_groups "$cap" "sbsim 65001 127.1.0.0/30 $FAMS" \
    "rx 65003 127.2.0.0/30 $FAMS"
port=$PORT dc=$CAP_PID gobgpd=$GOBGPD_PID
all_learned() {
	got="$(gobgp_rib vpnv4) $(gobgp_rib vpnv6) $(gobgp_rib ipv4-labelled)"
	[ "$got" = "$NP $NP $NP" ]
}
# withdrawn: "WITHDRAWN RIB4 RIB6 RIBLU" from GoBGP's neighbors.
withdrawn() {
	local w=0 i n
	for i in $(seq 1 $N); do
		n=$(gobgp_cli -j neighbor "127.1.0.$i" 2>/dev/null |
		    "$PY" -c 'import json,sys
print(json.load(sys.stdin)["state"]["messages"]["received"].get("withdraw_prefix", 0))' 2>/dev/null) ||
		    n=0
		w=$((w + n))
	done
	got="$w $(gobgp_rib vpnv4) $(gobgp_rib vpnv6) $(gobgp_rib ipv4-labelled)"
	[ "$got" = "$((NP * 3)) 0 0 0" ]
}

args="--peers $N --prefixes $P --as 65001 --peer-as 65000
    --controller tcp:127.0.0.1:$port --next-hop 192.0.2.1 --timeout 20
    --family ipv4-unicast,$FAMS --rd-count 3 --rd-type 1 --label-base 100
    --route-targets 2 --large-communities 1"

# rx_sent FAMILY: routes GoBGP has sent the receiving peer.
rx_sent() {
	gobgp_dests "$1" neighbor 127.2.0.1 adj-out
}
all_sent() {
	got="$(rx_sent vpnv4) $(rx_sent vpnv6) $(rx_sent ipv4-labelled)"
	[ "$got" = "$NP $NP $NP" ]
}

# 1 and 2: the receiver, then the peers announce and stay up.
start_bg "$TMPD/rx.log" "$SBSIM" bgp --peers 1 --prefixes 0 --as 65003 \
    --peer-as 65000 --controller "tcp:127.0.0.1:$port" --source 127.2.0.1 \
    --family "$FAMS" --duration 50 --timeout 20 --report "$TMPD/rx.json"
rx=$LAST_PID
# shellcheck disable=SC2086
start_bg "$TMPD/sb.log" "$SBSIM" bgp $args --duration 40 \
    --report "$TMPD/r.json"
sb=$LAST_PID
wait_until 25 all_learned ||
    fail "GoBGP holds $got (vpnv4 vpnv6 ipv4-labelled), want $NP each"
for a in vpnv4 vpnv6 ipv4-labelled; do
	gobgp_cli global rib -a "$a" >"$TMPD/rib-$a.txt" 2>&1 ||
	    fail "gobgp global rib -a $a: $(cat "$TMPD/rib-$a.txt")"
done
wait_until 20 all_sent ||
    fail "GoBGP sent the receiver $got (vpnv4 vpnv6 ipv4-labelled), want $NP each"
stop_early "$sb" "sbsim" "$TMPD/r.json"
# What GoBGP sent is read once the receiver's socket is drained: the
# withdrawals that follow the peers' close come after it.
sleep 1
stop_early "$rx" "sbsim (receiver)" "$TMPD/rx.json"
got=$(counter "$TMPD/rx.json" other_family_routes_received)
[ "$got" -ge $((NP * 3)) ] ||
    fail "the receiver counted $got routes, want $((NP * 3))"
[ "$(counter "$TMPD/rx.json" notifications_sent)" = 0 ] ||
    fail "the receiver sent a NOTIFICATION: $(cat "$TMPD/rx.log")"
"$PY" - "$TMPD" "$N" "$P" <<'PYEOF' || fail "GoBGP's routes are not sbsim's"
import ipaddress, re, sys
tmpd, n, p = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
# sbsim's generator: route g = i*P + j of peer i is the g-th block from the
# first prefix, RD type 1 <peer address>:(g % 3 + 1), label 100 + g; route
# targets 65001:1 and 65001:2 and large community 65001:1:1 on each.
firsts = {"vpnv4": ipaddress.ip_network("10.0.0.0/24"),
          "ipv4-labelled": ipaddress.ip_network("10.0.0.0/24"),
          "vpnv6": ipaddress.ip_network("2001:db8::/64")}
line_re = re.compile(r"^\*>\s+(\S+)\s+\[(\d+)\]\s+\S+\s+.*Extcomms: (\[[^}]*)\}"
                     r".*LargeCommunity: \[([^]]*)\]")
for fam, first in firsts.items():
    got = {}
    for line in open("%s/rib-%s.txt" % (tmpd, fam)):
        m = line_re.match(line)
        if not m:
            continue
        net, label, ext = m.group(1), int(m.group(2)), m.group(3)
        large = m.group(4).strip()
        rd = None
        if fam != "ipv4-labelled":
            rm = re.match(r"^(\d+\.\d+\.\d+\.\d+:\d+):(.*)$", net)
            rd, net = rm.group(1), rm.group(2)
        got[net] = (rd, label, ext.strip(), large)
    if len(got) != n * p:
        sys.exit("%s: %d routes parsed, want %d" % (fam, len(got), n * p))
    size = first.num_addresses
    for i in range(n):
        for j in (0, 1, 2, p // 2, p - 1):
            g = i * p + j
            net = str(ipaddress.ip_network((int(first.network_address) +
                                            g * size, first.prefixlen)))
            rd = None if fam == "ipv4-labelled" else \
                "127.1.0.%d:%d" % (i + 1, g % 3 + 1)
            want = (rd, 100 + g, "[65001:1], [65001:2]", "65001:1:1")
            if got.get(net) != want:
                sys.exit("%s %s: GoBGP has %s, want %s" %
                         (fam, net, got.get(net), want))
print("GoBGP's routes match sbsim's generator, field by field")
PYEOF
[ "$(counter "$TMPD/r.json" families_refused)" = $N ] ||
    fail "families_refused is $(counter "$TMPD/r.json" families_refused), want $N"
[ "$(counter "$TMPD/r.json" routes_refused)" = $NP ] ||
    fail "routes_refused is $(counter "$TMPD/r.json" routes_refused), want $NP"
[ "$(counter "$TMPD/r.json" prefixes_sent)" = $((NP * 3)) ] ||
    fail "prefixes_sent is $(counter "$TMPD/r.json" prefixes_sent)"
grep -q "did not offer ipv4-unicast" "$TMPD/sb.log" ||
    fail "no log line for the refused family: $(cat "$TMPD/sb.log")"
[ "$(counter "$TMPD/r.json" notifications_received)" = 0 ] ||
    fail "GoBGP sent NOTIFICATIONs: $(tail -5 "$TMPD/gobgpd.log")"

# 3. Announce, then withdraw everything.
wait_until 15 eval '[ "$(gobgp_rib vpnv4)" = 0 ]' ||
    fail "GoBGP kept the routes of the closed sessions"
# shellcheck disable=SC2086
start_bg "$TMPD/sb-wd.log" "$SBSIM" bgp $args --withdraw --duration 40 \
    --report "$TMPD/wd.json"
sb=$LAST_PID
wait_until 25 withdrawn ||
    fail "GoBGP: $got, want $((NP * 3)) 0 0 0 (withdrawn vpnv4 vpnv6 labelled)"
stop_early "$sb" "sbsim (withdraw)" "$TMPD/wd.json"
[ "$(counter "$TMPD/wd.json" withdrawals_sent)" = $((NP * 3)) ] ||
    fail "withdrawals_sent is $(counter "$TMPD/wd.json" withdrawals_sent)"
stop_pid "$gobgpd"
echo "GoBGP learned $NP routes of each of $FAMS and withdrew them"

# 4. The wire, decoded by Wireshark.
[ -n "$dc" ] || { echo "no capture (needs root, dumpcap, tshark)"; exit 0; }
bgp_bad_frames "$cap" "$port"
dec=$DEC
# shellcheck disable=SC2086
# What the peers sent (GoBGP's UPDATEs to the receiver only had to
# decode cleanly, above).
tshark -r "$cap" $dec -Y "bgp && ip.src == 127.1.0.0/30" -T fields \
    -E occurrence=a -E aggregator=, \
    -e bgp.rd -e bgp.label_stack -e bgp.ext_com.value_an4 \
    -e bgp.mp_reach_nlri_ipv4_prefix -e bgp.mp_unreach_nlri_ipv4_prefix \
    >"$TMPD/fields" 2>>"$TMPD/tshark.log" ||
    fail "tshark failed: $(cat "$TMPD/tshark.log")"
"$PY" - "$TMPD/fields" "$NP" <<'PYEOF' || fail "the capture is not what was sent"
import sys
rd = lab = rt = r4 = u4 = 0
for line in open(sys.argv[1]):
    f = [len([x for x in v.split(",") if x]) for v in line.rstrip("\n").split("\t")]
    rd += f[0]; lab += f[1]; rt += f[2]; r4 += f[3]; u4 += f[4]
np_ = int(sys.argv[2])
# Two runs announce NP routes of each family, one withdraws them: a label
# on each of the 3 families; an RD field and an IPv4 prefix field on
# VPN-IPv4's and (the prefix) labelled's: Wireshark shows VPN-IPv6's
# RD and prefix as text only.
got = (lab, rd, r4, u4)
want = (3 * 3 * np_, 3 * np_, 2 * 2 * np_, 2 * np_)
if got != want:
    sys.exit("labels, RDs, IPv4 prefixes announced, withdrawn: %s, want %s"
             % (got, want))
if rt == 0:
    sys.exit("no route target in the capture")
print("tshark: nothing malformed; %d labels, %d RDs, %d route targets" %
      (lab, rd, rt))
PYEOF
