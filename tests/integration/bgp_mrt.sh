#!/bin/bash
# MRT (RFC 6396): a generated run's --mrt-out (what the monitor learned)
# counted by bgpdump, then replayed with --mrt (plain and gzip, IPv4 and
# IPv6) into the embedded controller: announce and learn count every
# route and the second run's --mrt-out holds the same prefixes; a dump
# of several peers onto as many peers or onto one.  A cut
# dump is a usage error naming the record's offset; --mrt-rate paces.
. "$(dirname "$0")/../lib.sh"
need ss
N=3		# peers of the generated run
P=2000		# prefixes per peer
NET=$((RANDOM % 200 + 20))
SRC=127.$NET.0.0/24

# run NAME MONITOR_HOST SBSIM-ARGS...: sbsim bgp against a fresh
# controller whose monitor is 127.NET.0.MONITOR_HOST.
run() {
	local name=$1 mon=$2 port
	shift 2
	port=$(free_ports 1)
	start_bg "$TMPD/ctl-$name.log" "$SBSIM" controller \
	    --bgp ptcp:$port:127.0.0.1 --as 65000 \
	    --bgp-monitor 127.$NET.0.$mon
	local ctl=$LAST_PID
	wait_listen "$port" || fail "$name: controller did not listen"
	timeout 60 "$SBSIM" bgp --as 65001 --peer-as 65000 --source "$SRC" \
	    --controller tcp:127.0.0.1:$port --monitor tcp:127.0.0.1:$port \
	    --monitor-as 65002 --timeout 20 --report "$TMPD/$name.json" -q \
	    "$@" >"$TMPD/bgp-$name.log" 2>&1 ||
	    fail "$name: sbsim bgp exited $?: $(tail -3 "$TMPD/bgp-$name.log")"
	stop_pid "$ctl"
}

# phase NAME PHASE: its items, when DONE.
phase() {
	json_get "$TMPD/$1.json" "[p['items'] for p in r['phases'] if \
p['name'] == '$2' and p['state'] == 'DONE'][0]"
}

prefixes() {
	if command -v bgpdump >/dev/null 2>&1; then
		bgpdump -m "$1" | cut -d'|' -f6 | sort
	fi
}

for afi in ipv4 ipv6; do
	T=$((N * P))
	run gen-$afi $((N + 1)) --peers $N --prefixes $P --afi $afi \
	    --mrt-out "$TMPD/gen-$afi.mrt"
	[ "$(phase gen-$afi learn)" = $T ] || fail "gen-$afi: learn"
	if command -v bgpdump >/dev/null 2>&1; then
		n=$(bgpdump -m "$TMPD/gen-$afi.mrt" | wc -l)
		[ "$n" = $T ] || fail "gen-$afi: bgpdump lists $n routes, not $T"
	fi
	# The dump has one peer (the controller): one sbsim peer, the
	# monitor the second address.
	gzip -c "$TMPD/gen-$afi.mrt" >"$TMPD/gen-$afi.mrt.gz"
	run mrt-$afi 2 --mrt "$TMPD/gen-$afi.mrt.gz" \
	    --mrt-out "$TMPD/mrt-$afi.mrt"
	[ "$(phase mrt-$afi announce)" = $T ] || fail "mrt-$afi: announce"
	[ "$(phase mrt-$afi learn)" = $T ] || fail "mrt-$afi: learn"
	[ "$(prefixes "$TMPD/gen-$afi.mrt")" = \
	    "$(prefixes "$TMPD/mrt-$afi.mrt")" ] ||
	    fail "mrt-$afi: the replay's monitor holds other prefixes"
done

# A TABLE_DUMP_V2 of three peers (the second without routes), K prefixes
# with an entry of the other two each: two peers (or one with
# --mrt-peers one) announce 2K routes, the monitor learns and loses K.
K=3000
"$PY" - "$TMPD/td2.mrt" $K <<'PYEOF' || fail "td2.mrt not written"
import struct, sys
# TABLE_DUMP_V2 with 3 peers in the index (the second without routes),
# K prefixes, each with an entry of peers 0 and 2 (RFC 6396 4.3).
out, k = sys.argv[1], int(sys.argv[2])
def rec(sub, body):
    return struct.pack(">IHHI", 0, 13, sub, len(body)) + body
peers = b""
for i, (ip, asn) in enumerate([("10.9.0.1", 64601), ("10.9.0.2", 64602),
                                ("10.9.0.3", 64603)]):
    peers += struct.pack(">B", 2) + bytes([10, 9, 0, i + 1]) + \
        bytes(map(int, ip.split("."))) + struct.pack(">I", asn)
data = rec(1, struct.pack(">IHH", 0x0a090001, 0, 3) + peers)
def attrs(asn):
    return bytes([0x40, 1, 1, 0, 0x40, 2, 6, 2, 1]) + struct.pack(">I", asn) \
        + bytes([0x40, 3, 4, 192, 0, 2, 9])
for n in range(k):
    pfx = bytes([24, 100 + n // 65536, (n // 256) % 256, n % 256])
    body = struct.pack(">I", n) + pfx + struct.pack(">H", 2)
    for p, asn in ((0, 64601), (2, 64603)):
        a = attrs(asn)
        body += struct.pack(">HIH", p, 0, len(a)) + a
    data += rec(2, body)
open(out, "wb").write(data)
PYEOF
run td2-each 3 --mrt "$TMPD/td2.mrt" --withdraw
run td2-one 2 --mrt "$TMPD/td2.mrt" --mrt-peers one --withdraw
for r in td2-each td2-one; do
	[ "$(phase $r connect)" = "$([ $r = td2-one ] && echo 1 || echo 2)" ] &&
	    [ "$(phase $r announce)" = $((2 * K)) ] &&
	    [ "$(phase $r learn)" = $K ] && [ "$(phase $r withdraw)" = $K ] ||
	    fail "$r: phases $(json_get "$TMPD/$r.json" "[(p['name'], \
p['items'], p['state']) for p in r['phases']]")"
done

# --mrt-rate 4000: 6000 routes take 1.5 s (the credit starts empty), and
# a loaded host only makes it slower.
run rate 2 --mrt "$TMPD/gen-ipv4.mrt" --mrt-rate 4000
[ "$(phase rate learn)" = $((N * P)) ] || fail "rate: learn"
secs=$(json_get "$TMPD/rate.json" "[p['seconds'] for p in r['phases'] \
if p['name'] == 'announce'][0]")
"$PY" -c "import sys; sys.exit(not $secs >= 1.2)" ||
    fail "--mrt-rate 4000: 6000 routes announced in $secs s"

# All onto one peer with --peers 2: more peers than the dump fills.
"$SBSIM" bgp --mrt "$TMPD/gen-ipv4.mrt" --mrt-peers one --peers 2 \
    --as 65001 --controller tcp:127.0.0.1:9 >"$TMPD/two.log" 2>&1 &&
    fail "--peers 2 with one dump peer was accepted"
grep -q "fill 1 peers" "$TMPD/two.log" || fail "--peers 2: $(cat "$TMPD/two.log")"
# A dump cut inside a record.
head -c 5000 "$TMPD/gen-ipv4.mrt" >"$TMPD/cut.mrt"
"$SBSIM" bgp --mrt "$TMPD/cut.mrt" --as 65001 \
    --controller tcp:127.0.0.1:9 >"$TMPD/cut.log" 2>&1 &&
    fail "a cut dump was accepted"
grep -q "MRT record at offset [0-9]*.*past the end" "$TMPD/cut.log" ||
    fail "cut dump: $(cat "$TMPD/cut.log")"
exit 0
