#!/bin/bash
# tshark reads NETCONF sessions with tests/wire/netconf.lua (RFC 6242
# framing, reassembled, each message to the XML dissector): a real session
# of sbsim's devices against the embedded controller decodes with nothing
# malformed, and frames with broken framing (a chunk size of 0, one with a
# letter, end-of-chunks before any chunk) are each flagged malformed, so
# that the decode in nc_csit.sh can fail.
. "$(dirname "$0")/../lib.sh"
need tshark
need text2pcap
LUA=$(cd "$(dirname "$0")/.." && pwd)/wire/netconf.lua
DEC="-X lua_script:$LUA -d tcp.port==830,netconf"

# Crafted frames: one TCP segment each, from port 830.
frame() {	# frame FILE TEXT: TEXT (printf escapes) as a packet's payload
	printf "$2" | od -An -tx1 -v | awk 'BEGIN { o = 0 }
	    { printf "%06x", o; for (i = 1; i <= NF; i++) printf " %s", $i;
	      printf "\n"; o += NF }' >"$TMPD/$1.hex"
	text2pcap -q -T 830,40000 "$TMPD/$1.hex" "$TMPD/$1.pcap" \
	    >/dev/null 2>&1 ||
	    fail "text2pcap $1"
}
count() {	# count FILE FILTER
	tshark -r "$TMPD/$1.pcap" $DEC -Y "$2" 2>/dev/null | wc -l
}
frame good '\n#5\n<a/>\n\n#6\n<b />\n\n##\n<hello/>]]>]]>'
frame zero '\n#0\n\n##\n'
frame letter '\n#1x\n<a/>\n##\n'
frame early '\n##\n'
[ "$(count good 'netconf && !_ws.malformed')" = 1 ] ||
    fail "a well-framed packet is not decoded clean"
[ "$(tshark -r "$TMPD/good.pcap" $DEC -V 2>/dev/null |
    grep -c 'Chunk size: [56]$')" = 2 ] || fail "the chunks are not shown"
for f in zero letter early; do
	[ "$(count $f _ws.malformed)" = 1 ] || fail "$f: not flagged malformed"
done

# A real session: devices over TCP, the controller mounts and edits them.
[ "$(id -u)" -eq 0 ] || skip "capturing needs root"
need dumpcap
base=$(free_ports 8)
DP=$base RP=$((base + 7)) N=3
start_bg "$TMPD/dumpcap.log" dumpcap -q -i lo -B 16 -a duration:60 \
    -f "tcp portrange $DP-$((DP + N - 1))" -w "$TMPD/nc.pcapng"
dc=$LAST_PID
capture_ready "$TMPD/dumpcap.log" || fail "dumpcap cannot capture on lo"
start_bg "$TMPD/ctl.log" "$SBSIM" controller --netconf --restconf 127.0.0.1:$RP
wait_listen $RP || fail "the controller does not listen"
timeout 60 "$SBSIM" netconf --devices $N --listen ptcp:$DP:127.0.0.1 \
    --transport tcp --northbound odl:http://127.0.0.1:$RP --edits 2 \
    --timeout 20 -q >"$TMPD/nc.log" 2>&1 || fail "sbsim netconf exited $?"
sleep 0.3
stop_pid "$dc"
args="-X lua_script:$LUA"
for i in $(seq 0 $((N - 1))); do
	args="$args -d tcp.port==$((DP + i)),netconf"
done
# shellcheck disable=SC2086
n=$(tshark -r "$TMPD/nc.pcapng" $args -Y xml 2>/dev/null | wc -l)
[ "$n" -ge $((N * 4)) ] || fail "only $n frames hold NETCONF messages"
# shellcheck disable=SC2086
tshark_clean "$TMPD/nc.pcapng" $args
echo "NETCONF framing decoded: $n frames clean, 3 broken ones flagged"
