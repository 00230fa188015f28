#!/bin/bash
# Flowspec into BIRD 2 (its flow4 and flow6 channels, RFC 8955 and 8956):
# N sbsim peers announce P rules each of ipv4-flowspec and ipv6-flowspec
# with the traffic-marking action; BIRD's tables hold N*P rules of each,
# and a sample of them reads, as BIRD prints them, what sbsim's generator
# gives rule i*P+j of peer i (destination, protocol or next header,
# destination port, source ports 1024..65535, the IPv4 rules' source
# prefix of --flow-source, DSCP 46 marking); BIRD
# logs no error.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/bgp_lib.sh"
need_peer bird
N=2
P=500
NP=$((N * P))

port=$(free_ports 1)
{
	bird_head
	cat <<EOF
flow4 table ft4;
flow6 table ft6;
protocol bgp p1 {
	local 127.0.0.1 port $port as 65000;
	multihop;
	neighbor range 127.1.0.0/24 as 65001;
	dynamic name "dyn";
	flow4 { table ft4; import all; export none; };
	flow6 { table ft6; import all; export none; };
}
EOF
} >"$TMPD/b.conf"
start_bird bird "$TMPD/b.conf" "$port"
bird=$BIRD_PID sock=$BIRD_SOCK

# count TABLE: the routes BIRD holds there.
count() {
	birdc -s "$sock" show route table "$1" count 2>/dev/null |
	    awk '/routes for/ { print $1; exit }'
}
all_learned() {
	got="$(count ft4) $(count ft6)"
	[ "$got" = "$NP $NP" ]
}
start_bg "$TMPD/sb.log" "$SBSIM" bgp --peers $N --prefixes $P --as 65001 \
    --peer-as 65000 --controller "tcp:127.0.0.1:$port" --timeout 20 \
    --family ipv4-flowspec,ipv6-flowspec --flow-action traffic-marking \
    --flow-source 192.0.2.0/25 \
    --duration 40 --report "$TMPD/r.json"
sb=$LAST_PID
wait_until 25 all_learned || fail "BIRD holds $got rules (ft4 ft6), want $NP each"
for t in ft4 ft6; do
	birdc -s "$sock" show route table "$t" all >"$TMPD/$t.txt" 2>&1 ||
	    fail "birdc: $(cat "$TMPD/$t.txt")"
done
stop_early "$sb" "sbsim" "$TMPD/r.json"
[ "$(counter "$TMPD/r.json" notifications_received)" = 0 ] ||
    fail "BIRD sent NOTIFICATIONs: $(tail -5 "$TMPD/bird.log")"
"$PY" - "$TMPD" "$N" "$P" <<'PYEOF' || fail "BIRD's rules are not sbsim's"
import ipaddress, re, sys
tmpd, n, p = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
firsts = {"ft4": ipaddress.ip_network("10.0.0.0/24"),
          "ft6": ipaddress.ip_network("2001:db8::/64")}
for t, first in firsts.items():
    rules, ext = {}, {}
    last = None
    for line in open("%s/%s.txt" % (tmpd, t)):
        m = re.match(r"^flow[46] \{ (.*?) \}", line)
        if m:
            last = m.group(1)
            rules[last] = None
        elif last and "BGP.ext_community:" in line:
            rules[last] = line.split(":", 1)[1].strip()
    if len(rules) != n * p:
        sys.exit("%s: %d rules, want %d" % (t, len(rules), n * p))
    proto = "proto" if t == "ft4" else "next header"
    for g in list(range(0, n * p, 97)) + [n * p - 1]:
        net = ipaddress.ip_network((int(first.network_address) +
                                    g * first.num_addresses, first.prefixlen))
        src = "src 192.0.2.0/25; " if t == "ft4" else ""
        key = "dst %s; %s%s %d; dport %d; sport 1024..65535;" % (
            net, src, proto, 17 if g % 2 else 6, 1024 + g)
        if rules.get(key, "missing") != "(generic, 0x80090000, 0x2e)":
            sys.exit("%s: %s is %s" % (t, key, rules.get(key, "missing")))
print("BIRD's flowspec rules match sbsim's generator")
PYEOF
stop_bird "$bird" "$sock"
if grep -E 'Invalid|Malformed|rror' "$TMPD/bird.log"; then
	fail "BIRD complained"
fi
echo "BIRD learned $NP IPv4 and $NP IPv6 flowspec rules"
