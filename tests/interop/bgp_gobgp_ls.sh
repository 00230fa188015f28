#!/bin/bash
# BGP-LS (--family ls, RFC 9552) into GoBGP: one sbsim peer announces the
# topology tree:3 of 13 nodes with 2 prefixes each (13 nodes, 12 links
# each way, 26 prefixes: 63 routes), each with its BGP-LS attribute:
#   1. GoBGP's RIB holds 63 routes (gobgp global rib -a ls summary), and
#      every one (its JSON keys: node, link and prefix descriptors,
#      AS, router-ids, interface addresses, prefix) is what sbsim's
#      generator gives; no NOTIFICATION either way;
#   2. a receiving sbsim peer gets all 63 from GoBGP, each NLRI checked
#      TLV by TLV and counted (other_family_routes_received);
#   3. with root and dumpcap: Wireshark's BGP dissector finds nothing
#      malformed, and what GoBGP sends the receiver carries the IGP
#      metrics, adjacency SIDs, prefix SIDs and node names sbsim sent it
#      (GoBGP's CLI 3.10 cannot print BGP-LS attributes: it panics).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/bgp_lib.sh"
need_peer gobgp
T=63

cap=$TMPD/ls.pcapng
start_gobgp_groups "$cap" "sbsim 65001 127.1.0.0/30 ls" \
    "rx 65003 127.2.0.0/30 ls"
port=$PORT dc=$CAP_PID gobgpd=$GOBGPD_PID
count() {	# global rib, or neighbor ADDR adj-out
	gobgp_dests ls "$@"
}

start_bg "$TMPD/rx.log" "$SBSIM" bgp --peers 1 --prefixes 0 --as 65003 \
    --peer-as 65000 --controller "tcp:127.0.0.1:$port" --source 127.2.0.1 \
    --family ls --duration 50 --timeout 20 --report "$TMPD/rx.json"
rx=$LAST_PID
start_bg "$TMPD/sb.log" "$SBSIM" bgp --peers 1 --prefixes $T --as 65001 \
    --peer-as 65000 --controller "tcp:127.0.0.1:$port" \
    --source 127.1.0.1 --next-hop 192.0.2.1 --family ls \
    --topology tree:3 --ls-nodes 13 --ls-prefixes 2 --duration 40 \
    --timeout 20 --report "$TMPD/r.json"
sb=$LAST_PID
wait_until 25 eval '[ "$(count global rib)" = $T ]' ||
    fail "GoBGP holds $(count global rib) BGP-LS routes, want $T"
wait_until 20 eval '[ "$(count neighbor 127.2.0.1 adj-out)" = $T ]' ||
    fail "GoBGP sent the receiver $(count neighbor 127.2.0.1 adj-out), want $T"
gobgp_cli -j global rib -a ls >"$TMPD/rib.json" 2>&1 ||
    fail "gobgp -j global rib -a ls: $(cat "$TMPD/rib.json")"
"$PY" - "$TMPD/rib.json" <<'PYEOF' || fail "GoBGP's routes are not sbsim's"
import json, sys
# sbsim's generator (docs/sbsim.1 --topology): node k router-id
# 10.0.0.(k+1); tree:3 link l joins l//3 and l+1, addresses 172.16.0.2l
# (its first end) and .2l+1; node k's prefixes q = 2k, 2k+1 are the q-th
# /24 from 10.0.0.0.
rid = lambda k: "10.0.0.%d" % (k + 1)
want = set()
for k in range(13):
    want.add("NLRI { NODE { AS:65001 BGP-LS ID:0 %s OSPFv2:0 } }" % rid(k))
    for q in (2 * k, 2 * k + 1):
        want.add("NLRI { PREFIXv4 { LOCAL_NODE: %s PREFIX: [10.0.%d.0/24] "
                 "OSPF_ROUTE_TYPE:INTRA-AREA } }" % (rid(k), q))
for l in range(12):
    ends = [(l // 3, 2 * l), (l + 1, 2 * l + 1)]
    for (a, ia), (b, ib) in (ends, ends[::-1]):
        want.add("NLRI { LINK { LOCAL_NODE: %s REMOTE_NODE: %s LINK: "
                 "172.16.0.%d->172.16.0.%d} }" % (rid(a), rid(b), ia, ib))
got = set(json.load(open(sys.argv[1])))
kinds = {t: len([g for g in got if g.startswith("NLRI { " + t)])
         for t in ("NODE", "LINK", "PREFIXv4")}
if got != want:
    sys.exit("missing %s; unexpected %s" % (sorted(want - got)[:3],
                                            sorted(got - want)[:3]))
print("GoBGP holds every route sbsim generated:", kinds)
PYEOF
stop_early "$sb" "sbsim" "$TMPD/r.json"
sleep 1
stop_early "$rx" "sbsim (receiver)" "$TMPD/rx.json"
got=$(counter "$TMPD/rx.json" other_family_routes_received)
[ "$got" -ge $T ] || fail "the receiver counted $got routes, want $T"
for r in r rx; do
	[ "$(counter "$TMPD/$r.json" notifications_sent)" = 0 ] &&
	    [ "$(counter "$TMPD/$r.json" notifications_received)" = 0 ] ||
	    fail "$r: a NOTIFICATION: $(tail -5 "$TMPD/gobgpd.log")"
done
[ "$(counter "$TMPD/r.json" prefixes_sent)" = $T ] ||
    fail "prefixes_sent is $(counter "$TMPD/r.json" prefixes_sent)"
stop_pid "$gobgpd"
echo "GoBGP learned the $T BGP-LS routes and passed them on"

[ -n "$dc" ] || { echo "no capture (needs root, dumpcap, tshark)"; exit 0; }
# Wireshark 4.0 calls the BGP-LS End-of-RIB (an MP_UNREACH_NLRI of AFI
# and SAFI alone, RFC 4724 section 2) malformed: that frame is let
# through; it ends the announcements, which are checked field by field
# below.
eor="bgp.update.path_attribute.mp_unreach_nlri.afi == 16388 &&
    len(bgp.update.path_attribute.mp_unreach_nlri) == 0"
bgp_bad_frames "$cap" "$port" "$eor"
dec=$DEC
# What sbsim sent (to port) and GoBGP passed on (from port), field by
# field: IGP metrics, adjacency SIDs, prefix SIDs, node names, prefix
# metrics.
F="tlv.metric_value sr.tlv.adjacency.sid.label sr.tlv.prefix.sid.index
    tlv.node_name_value tlv.prefix_metric_value"
for dir in dst src; do
	for f in $F; do
		# shellcheck disable=SC2086
		tshark -r "$cap" $dec -Y "bgp && tcp.${dir}port == $port" \
		    -T fields -E occurrence=a -E aggregator=, -e "bgp.ls.$f" \
		    2>>"$TMPD/tshark.log" | tr ',' '\n' | grep -v '^$' |
		    sort >"$TMPD/f-$dir-$f"
	done
done
"$PY" - "$TMPD" $F <<'PYEOF' || fail "attributes differ"
import sys
def norm(x):	# tshark writes some numbers in hex
    try:
        return int(x, 0)
    except ValueError:
        return x
# 24 link directions: metric 10 + l % 90 and SIDs 24000..24023; 26
# prefixes: SID index and metric q (0..25); 13 names r0..r12.
want = {"tlv.metric_value": [10 + d // 2 for d in range(24)],
        "sr.tlv.adjacency.sid.label": [24000 + d for d in range(24)],
        "sr.tlv.prefix.sid.index": list(range(26)),
        "tlv.node_name_value": ["r%d" % k for k in range(13)],
        "tlv.prefix_metric_value": list(range(26))}
# GoBGP 3.10 keeps no prefix metric (TLV 1155): it passes none on.
dropped = {"tlv.prefix_metric_value"}
bad = 0
for f in sys.argv[2:]:
    for d, who in (("dst", "sbsim sent"), ("src", "GoBGP passed on")):
        got = sorted(norm(x) for x in
                     open("%s/f-%s-%s" % (sys.argv[1], d, f)).read().split())
        if d == "src" and f in dropped:
            want[f] = []
        if got != sorted(want[f]):
            print("%s %s: %s, want %s" % (who, f, got[:6], sorted(want[f])[:6]))
            bad += 1
sys.exit(1 if bad else 0)
PYEOF
echo "tshark: nothing malformed; the attributes sent and passed on match"
