#!/bin/bash
# ovs-ofctl -O OpenFlow13 (Open vSwitch) programs meters on a passive sbsim
# switch: drop and dscp_remark bands under kbps, pktps, burst and stats
# added and read back as given (dump-meters), modified, their stats
# (flow_count = the flows naming the meter) and features read, the errors
# a switch owes (METER_EXISTS, UNKNOWN_METER, INVALID_METER for a flow
# naming a missing meter, OUT_OF_METERS past --max-meters), a meter's
# delete taking its flows with it (1.3.5 section 6.6), and del-meters
# emptying the table.
. "$(dirname "$0")/../lib.sh"
need ovs-ofctl
need ss
PORT=$(free_ports 1)
EP=tcp:127.0.0.1:$PORT
OFCTL="timeout 30 ovs-ofctl -O OpenFlow13"
MAX=5

start_bg "$TMPD/sbsim.log" "$SBSIM" openflow --switches 1 \
    --controller ptcp:$PORT --max-meters $MAX --duration 120 \
    --report "$TMPD/r.json" -q
SB=$LAST_PID
wait_listen "$PORT" || fail "sbsim did not listen on $PORT"

# Written as ovs-ofctl prints them once a meter's lines are joined, so
# the dump must equal the input: bands kept as sent.
cat >"$TMPD/meters" <<'EOF'
meter=1 kbps bands=type=drop rate=1000
meter=2 pktps burst stats bands=type=drop rate=100 burst_size=10 type=dscp_remark rate=50 burst_size=5 prec_level=1
meter=3 kbps stats bands=type=dscp_remark rate=2000 prec_level=2
meter=4 kbps burst bands=type=drop rate=7 burst_size=70 type=drop rate=9 burst_size=90 type=dscp_remark rate=8 burst_size=80 prec_level=3
EOF
while read -r m; do
	$OFCTL add-meter $EP "$m" || fail "add-meter $m"
done <"$TMPD/meters"
# One meter per line: its header line and its band lines joined.
dump() {
	$OFCTL dump-meters $EP | sed 1d | awk 'BEGIN { RS = ""; FS = "\n" }
	    { l = $1; for (i = 2; i <= NF; i++) l = l (i == 2 ? "" : " ") $i
	      print l }' | sort
}
dump >"$TMPD/dump"
diff -u <(sort "$TMPD/meters") "$TMPD/dump" ||
    fail "dump-meters differs from what was added"

expect_err() {	# CODE ARGS...
	local code=$1
	shift
	if $OFCTL "$@" >"$TMPD/err.out" 2>&1; then
		fail "$* succeeded, want $code"
	fi
	grep -q "$code" "$TMPD/err.out" || fail "$*: $(cat "$TMPD/err.out")"
}
expect_err OFPMMFC_METER_EXISTS add-meter $EP 'meter=1 kbps bands=type=drop rate=5'
expect_err OFPMMFC_UNKNOWN_METER mod-meter $EP 'meter=9 kbps bands=type=drop rate=5'
expect_err OFPMMFC_INVALID_METER add-flow $EP 'priority=5,ip,actions=meter:42,output:1'

# MODIFY replaces flags and bands.
$OFCTL mod-meter $EP 'meter=1 pktps stats bands=type=dscp_remark rate=3 prec_level=1' ||
    fail "mod-meter"
dump | grep -qx 'meter=1 pktps stats bands=type=dscp_remark rate=3 prec_level=1' ||
    fail "mod-meter not read back: $(dump)"

# flow_count counts the flows naming a meter.
$OFCTL add-flow $EP 'priority=5,ip,actions=meter:2,output:1' || fail "add-flow meter:2"
$OFCTL add-flow $EP 'priority=6,tcp,actions=meter:2,output:3' || fail "add-flow 2"
$OFCTL add-flow $EP 'priority=7,udp,actions=meter:1,output:2' || fail "add-flow meter:1"
stats=$($OFCTL meter-stats $EP meter=2)
echo "$stats" | grep -q '^meter:2 flow_count:2 ' || fail "meter 2 stats: $stats"
echo "$stats" | grep -q '^1: packet_count:0 byte_count:0' || fail "band stats: $stats"
[ "$(echo "$stats" | grep -c '^meter:')" -eq 1 ] || fail "meter=2 gave: $stats"
[ "$($OFCTL meter-stats $EP | grep -c '^meter:')" -eq 4 ] ||
    fail "meter-stats: $($OFCTL meter-stats $EP)"
feat=$($OFCTL meter-features $EP)
echo "$feat" | grep -q "max_meter:$MAX max_bands:8 max_color:0" || fail "features: $feat"
echo "$feat" | grep -q 'band_types: drop dscp_remark' || fail "band types: $feat"
echo "$feat" | grep -q 'capabilities: kbps pktps burst stats' || fail "capabilities: $feat"

# The bound: MAX meters, the next is OUT_OF_METERS.
$OFCTL add-meter $EP 'meter=5 kbps bands=type=drop rate=1' || fail "meter 5"
expect_err OFPMMFC_OUT_OF_METERS add-meter $EP 'meter=6 kbps bands=type=drop rate=1'

# Deleting meter 2 removes its two flows and leaves the meter:1 one.
$OFCTL del-meter $EP meter=2 || fail "del-meter meter=2"
flows=$($OFCTL dump-flows $EP | grep -c 'actions=')
[ "$flows" -eq 1 ] || fail "after deleting meter 2: $flows flows, want 1"
$OFCTL dump-flows $EP | grep -q 'meter:1' || fail "the meter:1 flow went"
[ "$(dump | wc -l)" -eq 4 ] || fail "after deleting meter 2: $(dump)"
$OFCTL del-meters $EP || fail "del-meters (all)"
[ -z "$(dump)" ] || fail "meters left: $(dump)"
flows=$($OFCTL dump-flows $EP | grep -c 'actions=')
[ "$flows" -eq 0 ] || fail "after del-meters: $flows flows, want 0"

stop_pid "$SB"
[ -s "$TMPD/r.json" ] || fail "no report after SIGINT"
c() { json_get "$TMPD/r.json" "r[\"counters\"].get(\"$1\", -1)"; }
[ "$(c meters_out_of_room)" = 1 ] || fail "meters_out_of_room=$(c meters_out_of_room)"
[ "$(c meter_mod_errors)" = 3 ] || fail "meter_mod_errors=$(c meter_mod_errors)"
echo "ovs-ofctl OpenFlow13: meters of each band added, read back, modified, counted and deleted"
